#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# check-file-cycles.sh - the rules between the FILES of the library (src/
# but src/cli), where check-boundaries.sh sees only its folders:
#   - no two files of one basename;
#   - no circle: file A that uses B (includes B's header, or calls or reads
#     a symbol B defines) while B, directly or through others, uses A;
#   - an internal function (external linkage, not exported) is named by its
#     module, never sbat_ (that prefix is the exported interface's).
# A file's header belongs to it: edit/plan.h and edit/plan.c are the node
# edit/plan. The calls come from `nm` on the compiled objects (or the
# static libraries holding them) given after SRCDIR.
set -u
src=${1:?usage: check-file-cycles.sh SRCDIR OBJECT-OR-ARCHIVE...}
shift
. "$(dirname "$0")/../lib/tap.sh"
command -v nm >/dev/null || skip_all "nm (binutils) is not installed"

library_dirs="util pe file uki sbat edit boot"

# two files of one basename (a.c, a.h: one module; two a.c: two)
dups=$(cd "$src" && for d in $library_dirs; do ls "$d"; done | sort | uniq -d)
if [ -z "$dups" ]; then
	ok "no two library files of one basename"
else
	mapfile -t lines < <(for b in $dups; do (cd "$src" && echo "$b:" $(ls -d */"$b" | grep -v '^cli/')); done)
	not_ok "no two library files of one basename" "${lines[@]}"
fi

# edges: "from to why" lines, first the includes, then the symbols
edges=$(
	for dir in $library_dirs; do
		for f in "$src/$dir"/*.[ch]; do
			[ -e "$f" ] || continue
			rel=${f#"$src"/}
			sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
				while read -r inc; do
					case $inc in sbat/* | */*/*) continue ;; */*) ;; *) continue ;; esac
					echo "${rel%.*} ${inc%.*} $rel includes $inc"
				done
		done
	done
)
nm_out=$(nm -A -g "$@" 2>/dev/null)
calls=$(printf '%s\n' "$nm_out" | awk -F: -v dirs="$library_dirs" '
	function node(obj,   n, d, i, parts) {
		n = obj
		sub(/.*\//, "", n)
		if (n !~ /^src_/ || n !~ /\.c\.o(bj)?$/)
			return ""
		sub(/^src_/, "", n)
		sub(/\.c\.o(bj)?$/, "", n)
		split(dirs, parts, " ")
		for (i in parts) {
			d = parts[i]
			if (index(n, d "_") == 1)
				return d "/" substr(n, length(d) + 2)
		}
		return ""
	}
	{
		from = node($(NF - 1))
		if (from == "")
			next
		k = split($NF, f, " ")
		sym = f[k]
		sub(/@.*/, "", sym)
		if (f[k - 1] == "U") {
			nu++
			uf[nu] = from
			us[nu] = sym
		} else
			def[sym] = from
	}
	END {
		for (i = 1; i <= nu; i++)
			if ((us[i] in def) && def[us[i]] != uf[i])
				print uf[i], def[us[i]], uf[i] ".c uses " us[i] " of " def[us[i]] ".c"
	}')
nodes=$(printf '%s\n' "$nm_out" | sed -n 's/.*:[^:]*src_\([a-z0-9]*\)_\([^:]*\)\.c\.o:.*/\1\/\2/p' | sort -u)
if [ -n "$nodes" ]; then
	ok "the objects given hold $(echo "$nodes" | wc -l) library files"
else
	not_ok "the objects given hold library files" "none in: $*"
fi

# the strongly connected groups of files: each a circle (or several)
cycles=$(printf '%s\n%s\n' "$edges" "$calls" | awk '
	NF >= 2 && $1 != $2 {
		if (!(($1, $2) in adj)) {
			adj[$1, $2] = 1
			why[$1, $2] = substr($0, length($1) + length($2) + 3)
			out[$1] = out[$1] " " $2
		}
		nodes[$1] = 1
		nodes[$2] = 1
	}
	END {
		for (s in nodes) {
			sp = 0
			stack[++sp] = s
			while (sp > 0) {
				u = stack[sp--]
				m = split(out[u], next_, " ")
				for (j = 1; j <= m; j++)
					if (!((s, next_[j]) in reach)) {
						reach[s, next_[j]] = 1
						stack[++sp] = next_[j]
					}
			}
		}
		for (s in nodes) {
			if (s in done || !((s, s) in reach))
				continue
			group = ""
			for (t in nodes)
				if (((s, t) in reach) && ((t, s) in reach)) {
					done[t] = 1
					group = group " " t
				}
			print "CYCLE" group
			for (a in nodes)
				for (b in nodes)
					if (((a, b) in adj) && index(group " ", " " a " ") && index(group " ", " " b " "))
						print "EDGE " why[a, b]
		}
	}')
if [ -z "$cycles" ]; then
	ok "no circle between library files"
else
	while read -r line; do
		case $line in
		CYCLE*)
			[ -n "${group:-}" ] && not_ok "library files in a circle:$group" "${why[@]}"
			group=$(echo "${line#CYCLE}" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
			why=()
			;;
		EDGE*) why+=("${line#EDGE }") ;;
		esac
	done < <(printf '%s\n' "$cycles")
	not_ok "library files in a circle:$group" "${why[@]}"
fi

# the exported functions: declared SBAT_API in the public headers
exported=$(cat "$src"/../include/sbat/*.h | tr '\n' ' ' | grep -o 'SBAT_API[^(;]*(' | grep -o 'sbat_[A-Za-z0-9_]*[[:space:]]*($' |
	tr -d ' (' | sort -u)
mapfile -t misnamed < <(printf '%s\n' "$nm_out" | awk -F: '{ k = split($NF, f, " "); if (f[k - 1] != "U") print f[k] }' |
	sed 's/@.*//' | grep '^sbat_' | sort -u | comm -23 - <(printf '%s\n' "$exported"))
if [ ${#misnamed[@]} = 0 ]; then
	ok "no internal symbol is named sbat_ (only exports are)"
else
	not_ok "no internal symbol is named sbat_ (only exports are): ${#misnamed[@]} are" "${misnamed[@]}"
fi
tap_finish
