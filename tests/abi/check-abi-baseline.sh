#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# check-abi-baseline.sh - the shared library as built against the ABI of each
# release recorded in tests/abi/baseline (made by tests/abi/make-baseline.sh):
# abidiff (package abigail-tools) with the public headers, and the changes
# tests/abi/libsbat.abignore explains taken out. Fails when abidiff finds an
# incompatible change, when a function or variable of a release is removed
# or changed, when a symbol of a release is no longer defined in its version
# node, when a new export is put in a release's node, or when a fixed-size
# structure (sbat_edit_report, sbat_diag) changes its size or moves a field.
# abidiff's report is printed.
#
# Without abidiff, or without debug information in the library, it skips,
# unless CI=true, when that is a failure. A baseline of another architecture
# is skipped.
#
# Environment (set by meson): LIBRARY (the built libsbat.so.0.*), SRC_ROOT.
set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env LIBRARY SRC_ROOT

# cannot_run WHY: a skip, or with CI=true a failure
cannot_run() {
	if [ "${CI:-}" = true ]; then
		echo "1..1"
		echo "not ok 1 - the library against the recorded ABI baselines: $1 (CI=true)"
		exit 1
	fi
	skip_all "$1"
}

command -v abidiff >/dev/null 2>&1 && command -v abidw >/dev/null 2>&1 ||
	cannot_run "no abidiff/abidw (package abigail-tools)"
command -v nm >/dev/null 2>&1 || cannot_run "no nm"
LC_ALL=C readelf -S "$LIBRARY" 2>/dev/null | grep -q '\.debug_info' ||
	cannot_run "the library has no debug information (build with -g)"

T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-abi-baseline.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT

headers=$SRC_ROOT/include/sbat
suppr=$SRC_ROOT/tests/abi/libsbat.abignore

# the library as abidw sees it, for its architecture and layouts
abidw --headers-dir "$headers" --drop-private-types --no-corpus-path --no-comp-dir-path \
	--out-file "$T/current.abi" "$LIBRARY" || cannot_run "abidw cannot read $LIBRARY"
arch=$(sed -n "1s/.* architecture='\([^']*\)'.*/\1/p" "$T/current.abi")

# every defined export as name@NODE
nm -D --defined-only "$LIBRARY" | awk '{ n = $NF; if ($2 == "A" && n !~ /@/) n = n "@" n; sub(/@@/, "@", n); print n }' | LC_ALL=C sort >"$T/exports"

# layout FILE.abi STRUCT: its size and each field's offset, "size N" and "NAME OFFSET"
layout() {
	awk -v name="$2" '
		$1 == "<class-decl" && index($0, " name=\x27" name "\x27") && !index($0, "is-declaration-only") {
			inside = 1; match($0, /size-in-bits=\x27[0-9]+/); print "size", substr($0, RSTART + 14, RLENGTH - 14); next }
		inside && $1 == "</class-decl>" { exit }
		inside && $1 == "<data-member" { match($0, /layout-offset-in-bits=\x27[0-9]+/); off = substr($0, RSTART + 23, RLENGTH - 23) }
		inside && $1 == "<var-decl" { match($0, /name=\x27[^\x27]*/); print substr($0, RSTART + 6, RLENGTH - 6), off }
	' "$1" | LC_ALL=C sort
}

# check_baseline FILE: every check against one release's ABI
check_baseline() {
	local base=$1 rel rc bad s
	rel=${base##*/libsbat-}
	rel=${rel%.abi}
	if [ "$(sed -n "1s/.* architecture='\([^']*\)'.*/\1/p" "$base")" != "$arch" ]; then
		skip "the ABI of $rel" "its baseline is of another architecture than $arch"
		return
	fi

	abidiff --suppressions "$suppr" --headers-dir2 "$headers" --drop-private-types \
		"$base" "$LIBRARY" >"$T/report" 2>&1
	rc=$?
	echo "# abidiff $rel's baseline against the library (exit $rc):"
	sed 's/^/#   /' "$T/report"
	if [ $((rc & 3)) -ne 0 ]; then
		not_ok "abidiff compares $rel's baseline with the library" "abidiff failed (exit $rc)"
	elif [ $((rc & 8)) -ne 0 ]; then
		not_ok "no incompatible change since $rel" "abidiff: ABIDIFF_ABI_INCOMPATIBLE_CHANGE (exit $rc)"
	else
		ok "no incompatible change since $rel"
	fi

	# after the reviewed changes are taken out, nothing of the release is removed or changed
	# (abidiff prints no summary at all when it finds no change: exit 0, an empty report)
	if { [ "$rc" -eq 0 ] && ! grep -q 'changes summary' "$T/report"; } ||
		{ grep -q '^Functions changes summary: 0 Removed, 0 Changed' "$T/report" &&
			grep -q '^Variables changes summary: 0 Removed, 0 Changed' "$T/report"; }; then
		ok "no function or variable of $rel removed or changed (but as libsbat.abignore explains)"
	else
		not_ok "no function or variable of $rel removed or changed (but as libsbat.abignore explains)" \
			"$(grep 'changes summary' "$T/report")"
	fi

	# each symbol of the release, in its version node: what its callers ask the loader for
	sed -n "s/.*<elf-symbol name='\([^']*\)' version='\([^']*\)'.* is-defined='yes'.*/\1@\2/p" "$base" |
		LC_ALL=C sort -u >"$T/released"
	LC_ALL=C comm -23 "$T/released" "$T/exports" >"$T/lost"
	if [ -s "$T/released" ] && [ ! -s "$T/lost" ]; then
		ok "every symbol of $rel is defined in its version node"
	else
		not_ok "every symbol of $rel is defined in its version node" "missing: $(tr '\n' ' ' <"$T/lost")"
	fi

	# an export added since is in a node of its own, none of the release's
	sed 's/.*@//' "$T/released" | LC_ALL=C sort -u >"$T/nodes"
	: >"$T/misplaced"
	while IFS= read -r s; do
		grep -qx "${s##*@}" "$T/nodes" && echo "$s" >>"$T/misplaced"
	done < <(LC_ALL=C comm -13 "$T/released" "$T/exports" | grep -v '^\(LIBSBAT_[0-9.]*\)@\1$')
	if [ ! -s "$T/misplaced" ]; then
		ok "every export added since $rel is in a version node after $rel's"
	else
		not_ok "every export added since $rel is in a version node after $rel's" \
			"in $rel's nodes: $(tr '\n' ' ' <"$T/misplaced")"
	fi

	# the structures of fixed size (see libsbat.abignore): same size, earlier fields in place
	bad=
	for s in sbat_edit_report sbat_diag; do
		layout "$base" "$s" | grep -v '^reserved ' >"$T/old-layout"
		layout "$T/current.abi" "$s" >"$T/new-layout"
		if [ ! -s "$T/old-layout" ] || [ -n "$(LC_ALL=C comm -23 "$T/old-layout" "$T/new-layout")" ]; then
			bad="$bad $s: $(LC_ALL=C comm -23 "$T/old-layout" "$T/new-layout" | tr '\n' ' ')"
		fi
	done
	if [ -z "$bad" ]; then
		ok "sbat_edit_report and sbat_diag keep $rel's size and fields' offsets"
	else
		not_ok "sbat_edit_report and sbat_diag keep $rel's size and fields' offsets" "changed:$bad"
	fi
}

found=0
for base in "$SRC_ROOT"/tests/abi/baseline/libsbat-*.abi; do
	[ -e "$base" ] || continue
	found=1
	check_baseline "$base"
done
[ "$found" = 1 ] || not_ok "a recorded baseline in tests/abi/baseline"

tap_finish
