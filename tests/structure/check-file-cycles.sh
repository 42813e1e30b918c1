#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# check-file-cycles.sh - the rules between the FILES of src/, where
# check-boundaries.sh sees only the includes between its folders:
#   - no two library files of one basename;
#   - no circle: file A that uses B (includes B's header, or calls or reads
#     a symbol B defines) while B, directly or through others, uses A; the
#     command's files (src/cli) are nodes too;
#   - a library folder calls or reads only what the folders of its line in
#     layers.txt define (the public headers included);
#   - an internal function (external linkage, not exported) is named by its
#     module: the file's basename or its first word, never sbat_ (that
#     prefix is the exported interface's).
# A file's header belongs to it: edit/plan.h and edit/plan.c are the node
# edit/plan. The calls come from `nm` on the compiled objects given after
# SRCDIR: objects, static libraries holding them, or folders of objects.
set -u
src=${1:?usage: check-file-cycles.sh SRCDIR OBJECT-ARCHIVE-OR-FOLDER...}
shift
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/layers.sh"
command -v nm >/dev/null || skip_all "nm (binutils) is not installed"
all_dirs="$library_dirs cli"

objects=()
for o in "$@"; do
	if [ -d "$o" ]; then objects+=("$o"/*.o); else objects+=("$o"); fi
done

# two library files of one basename (a.c, a.h: one module; two a.c: two)
dups=$(cd "$src" && for d in $library_dirs; do ls "$d"; done | sort | uniq -d)
if [ -z "$dups" ]; then
	ok "no two library files of one basename"
else
	mapfile -t lines < <(for b in $dups; do (cd "$src" && echo "$b:" $(ls -d */"$b" | grep -v '^cli/')); done)
	not_ok "no two library files of one basename" "${lines[@]}"
fi

# edges: "from to why" lines, first the includes, then the symbols; the
# command includes its own headers by their bare name
edges=$(
	for dir in $all_dirs; do
		for f in "$src/$dir"/*.[ch]; do
			[ -e "$f" ] || continue
			rel=${f#"$src"/}
			sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
				while read -r inc; do
					case $inc in
					sbat/* | */*/*) continue ;;
					*/*) to=${inc%.*} ;;
					*) [ "$dir" = cli ] || continue; to=cli/${inc%.*} ;;
					esac
					echo "${rel%.*} $to $rel includes $inc"
				done
		done
	done
)
nm_out=$(nm -A -g "${objects[@]}" 2>/dev/null)
# symbols: "node kind symbol" for every global symbol of a file of src/
symbols=$(printf '%s\n' "$nm_out" | awk -F: -v dirs="$all_dirs" '
	NF < 2 { next }
	{
		n = $(NF - 1)
		sub(/.*\//, "", n)
		if (n !~ /^src_/ || n !~ /\.c\.o(bj)?$/)
			next
		sub(/^src_/, "", n)
		sub(/\.c\.o(bj)?$/, "", n)
		k = split(dirs, parts, " ")
		node = ""
		for (i = 1; i <= k; i++)
			if (index(n, parts[i] "_") == 1)
				node = parts[i] "/" substr(n, length(parts[i]) + 2)
		if (node == "")
			next
		k = split($NF, f, " ")
		sym = f[k]
		sub(/@.*/, "", sym)
		print node, f[k - 1], sym
	}' | sort -u)
calls=$(printf '%s\n' "$symbols" | awk '
	NF == 3 {
		if ($2 == "U") {
			nu++
			uf[nu] = $1
			us[nu] = $3
		} else
			def[$3] = $1
	}
	END {
		for (i = 1; i <= nu; i++)
			if ((us[i] in def) && def[us[i]] != uf[i])
				print uf[i], def[us[i]], uf[i] ".c uses " us[i] " of " def[us[i]] ".c"
	}')
nodes=$(printf '%s\n' "$symbols" | awk 'NF == 3 { print $1 }' | sort -u)
for dir in $all_dirs; do
	if printf '%s\n' "$nodes" | grep -q "^$dir/"; then
		ok "the objects given hold the files of src/$dir ($(printf '%s\n' "$nodes" | grep -c "^$dir/"))"
	else
		not_ok "the objects given hold the files of src/$dir" "none in: $*"
	fi
done

# what each library folder calls or reads, against its line in layers.txt
mapfile -t past < <(printf '%s\n' "$calls" | while read -r from to why; do
	[ -n "$from" ] || continue
	a=${from%%/*} b=${to%%/*}
	[ "$a" != "$b" ] && [ "$a" != cli ] || continue
	case " ${allowed[$a]} " in *" $b "*) ;; *) echo "$why ($a may use only: ${allowed[$a]:-nothing})" ;; esac
done | sort)
if [ ${#past[@]} = 0 ]; then
	ok "each library folder uses only the folders its line in layers.txt names"
else
	not_ok "each library folder uses only the folders its line in layers.txt names: ${#past[@]} uses are past it" "${past[@]}"
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
	ok "no circle between the files of src/ (the command's included)"
else
	while read -r line; do
		case $line in
		CYCLE*)
			[ -n "${group:-}" ] && not_ok "files in a circle:$group" "${why[@]}"
			group=$(echo "${line#CYCLE}" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
			why=()
			;;
		EDGE*) why+=("${line#EDGE }") ;;
		esac
	done < <(printf '%s\n' "$cycles")
	not_ok "files in a circle:$group" "${why[@]}"
fi

# the exported functions: declared SBAT_API in the public headers
exported=$(cat "$src"/../include/sbat/*.h | tr '\n' ' ' | grep -o 'SBAT_API[^(;]*(' | grep -o 'sbat_[A-Za-z0-9_]*[[:space:]]*($' |
	tr -d ' (' | sort -u)
mapfile -t misnamed < <(printf '%s\n' "$symbols" | awk 'NF == 3 && $2 != "U" && $1 !~ /^cli\// { print $3 }' |
	grep '^sbat_' | sort -u | comm -23 - <(printf '%s\n' "$exported"))
if [ ${#misnamed[@]} = 0 ]; then
	ok "no internal symbol is named sbat_ (only exports are)"
else
	not_ok "no internal symbol is named sbat_ (only exports are): ${#misnamed[@]} are" "${misnamed[@]}"
fi

# an internal function is named by its module: the file's basename or its
# first word (edit/plan_uki.c: plan_uki_ or plan_); exports and the
# command's functions aside
mapfile -t unprefixed < <(printf '%s\n' "$symbols" | awk '
	NF == 3 && $2 == "T" && $3 !~ /^sbat_/ && $1 !~ /^cli\// {
		base = $1
		sub(/.*\//, "", base)
		word = base
		sub(/_.*/, "", word)
		if ($3 != base && index($3, base "_") != 1 && index($3, word "_") != 1)
			print $1 ".c: " $3
	}')
if [ ${#unprefixed[@]} = 0 ]; then
	ok "each internal function is named by its file"
else
	not_ok "each internal function is named by its file: ${#unprefixed[@]} are not" "${unprefixed[@]}"
fi
tap_finish
