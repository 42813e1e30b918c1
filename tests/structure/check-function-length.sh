#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# check-function-length.sh - no function in src/ is longer than 60 lines,
# counted from the first line of its signature to its closing brace, but
# those of the allow-list (help text). Relies on the house style: a body
# opens with "{" alone at column 0 and closes with "}" at column 0, and its
# signature is the run of lines just above it. Prints the ten longest
# functions as TAP diagnostics.
# With --list, prints "LENGTH FILE:LINE NAME" for every function instead.
set -u
list=0
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
src=${1:?usage: check-function-length.sh [--list] SRCDIR [MAX]}
max=${2:-60}

# file:name of the functions that may be longer: usage() is help text
allowed="cli/main.c:usage"

# lengths FILE...: "LENGTH FILE:LINE NAME" for each function definition
lengths() {
	awk '
	FNR == 1 { nsig = 0; infn = 0 }
	/^\{[[:space:]]*$/ && !infn {
		start = FNR
		name = "?"
		# back over the signature, to a blank, comment, preprocessor line or the end of a declaration
		for (i = nsig; i >= 1; i--) {
			l = sig[i]
			if (l ~ /^[[:space:]]*$/ || l ~ /^[[:space:]]*(\/\*|\*|\/\/|#)/ || l ~ /\*\/[[:space:]]*$/ ||
			    l ~ /[;}][[:space:]]*$/)
				break
			start = FNR - (nsig - i) - 1
		}
		# the name: the first identifier followed by "(", attributes aside
		for (j = i + 1; j <= nsig; j++) {
			l = sig[j]
			gsub(/__attribute__[[:space:]]*\(\([^)]*\)\)/, "", l)
			if (match(l, /[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(/)) {
				name = substr(l, RSTART, RLENGTH - 1)
				sub(/[[:space:]]+$/, "", name)
				break
			}
		}
		file = FILENAME
		line = start
		infn = 1
		nsig = 0
		next
	}
	infn && /^\}/ {
		print FNR - line + 1, file ":" line, name
		infn = 0
		nsig = 0
		next
	}
	!infn {
		sig[++nsig] = $0
		if (nsig > 50) {
			# keep the newest lines, the one just read among them
			for (k = 1; k <= nsig - 10; k++)
				sig[k] = sig[k + 10]
			nsig -= 10
		}
	}' "$@"
}

mapfile -t files < <(cd "$src" && find . -name '*.[ch]' | sed 's|^\./||' | sort)
if [ ${#files[@]} = 0 ]; then
	echo "check-function-length.sh: no C sources under $src" >&2
	exit 1
fi
all=$(cd "$src" && lengths "${files[@]}" | sort -k1,1nr -k2,2)
if [ "$list" = 1 ]; then
	printf '%s\n' "$all"
	exit 0
fi

. "$(dirname "$0")/../lib/tap.sh"

long=()
seen=()
while read -r len where name; do
	key="${where%%:*}:$name"
	case " $allowed " in
	*" $key "*) seen+=("$key"); continue ;;
	esac
	[ "$len" -gt "$max" ] && long+=("$where $name: $len lines")
done <<<"$all"
if [ ${#long[@]} = 0 ]; then
	ok "no function in src/ is over $max lines (allowed: $allowed)"
else
	not_ok "no function in src/ is over $max lines (allowed: $allowed)" "${long[@]}" \
		"split them into static helpers with one job each"
fi

# the allow-list names functions that are there, so that it cannot go stale
missing=()
for key in $allowed; do
	case " ${seen[*]} " in
	*" $key "*) ;;
	*) missing+=("$key: not found") ;;
	esac
done
if [ ${#missing[@]} = 0 ]; then ok "every allowed function exists"; else not_ok "every allowed function exists" "${missing[@]}"; fi

# and the counting still sees the functions: a style change would hide them all
count=$(printf '%s\n' "$all" | grep -c .)
check "functions found in src/ ($count)" test "$count" -gt 100

echo "# the ten longest functions (lines, file:line, name):"
printf '%s\n' "$all" | head -n 10 | sed 's/^/#   /'
tap_finish
