#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# check-boundaries.sh - the include rules of src/, checked on every source:
# every folder has its line in layers.txt; the command (src/cli) uses only
# the public headers and its own; no file of src/ includes the umbrella
# header; the library never includes the command's headers and never
# prints; each library folder includes only the folders its line in
# layers.txt names (what it calls is checked by check-file-cycles.sh).
# Prints the include graph between folders as TAP diagnostics.
set -u
src=${1:?usage: check-boundaries.sh SRCDIR}
. "$(dirname "$0")/../lib/tap.sh"

# library_dirs and allowed[FOLDER]: the folders each may use (layers.txt)
. "$(dirname "$0")/layers.sh"

# includes FILE: the quoted includes of FILE, one a line
includes() {
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"
}

# every folder of src/ is known: a new one must be given its line in layers.txt
unknown=$(cd "$src" && for d in */; do d=${d%/}; case " $library_dirs cli " in *" $d "*) ;; *) echo "$d" ;; esac; done)
check "every folder of src/ has its line in tests/structure/layers.txt" test -z "$unknown"
[ -z "$unknown" ] || echo "#   unknown folders: $unknown"

bad=()
for f in "$src"/cli/*.[ch]; do
	while read -r inc; do
		case $inc in
		sbat/*) ;;
		*/*) bad+=("${f#"$src"/}: includes library-internal \"$inc\"") ;;
		*) [ -f "$src/cli/$inc" ] || bad+=("${f#"$src"/}: includes \"$inc\", not in src/cli") ;;
		esac
	done < <(includes "$f")
done
if [ ${#bad[@]} = 0 ]; then ok "src/cli includes only public headers and its own"; else not_ok "src/cli includes only public headers and its own" "${bad[@]}"; fi

# the umbrella header is for programs that use the library: inside src/,
# each file names the public headers it uses, so that its arrows are seen
mapfile -t umbrella < <(cd "$src" && grep -lE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]sbat/sbat\.h[">]' */*.[ch] 2>/dev/null)
if [ ${#umbrella[@]} = 0 ]; then
	ok "no file of src/ includes the umbrella header sbat/sbat.h"
else
	not_ok "no file of src/ includes the umbrella header sbat/sbat.h: ${#umbrella[@]} do" "${umbrella[@]}"
fi

declare -A edges=()
bad=()
printing=()
for dir in $library_dirs; do
	for f in "$src/$dir"/*.[ch]; do
		[ -e "$f" ] || continue
		rel=${f#"$src"/}
		while read -r inc; do
			case $inc in
			sbat/*) continue ;;
			*/*) to=${inc%%/*} ;;
			*) bad+=("$rel: includes \"$inc\" without its folder"); continue ;;
			esac
			[ "$to" = "$dir" ] && continue
			edges["$dir -> $to"]=1
			case " ${allowed[$dir]} " in
			*" $to "*) ;;
			*) bad+=("$rel: includes \"$inc\"; $dir may use only: ${allowed[$dir]:-nothing}") ;;
			esac
		done < <(includes "$f")
		# the library never prints: output belongs to the command
		mapfile -t lines < <(grep -nE '\b(printf|fprintf|vfprintf|dprintf|puts|fputs|putchar|fputc|perror|stdout|stderr)\b' "$f" |
			grep -vE '^[0-9]+:[[:space:]]*(/\*|\*)')
		for line in "${lines[@]}"; do printing+=("$rel:$line"); done
	done
done
if [ ${#bad[@]} = 0 ]; then ok "each library folder includes only the folders below it"; else not_ok "each library folder includes only the folders below it" "${bad[@]}"; fi
if [ ${#printing[@]} = 0 ]; then ok "no library file prints"; else not_ok "no library file prints" "${printing[@]}"; fi

echo "# include graph between folders (besides the public sbat/ headers):"
for e in "${!edges[@]}"; do echo "#   $e"; done | sort
tap_finish
