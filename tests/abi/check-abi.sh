#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# check-abi.sh - the shared library's interface is the one recorded in the
# tree: every export is an sbat_* symbol in a version node of
# src/libsbat.map, the exports are exactly those of data/libsbat0.symbols
# (the list a Debian package ships). An export added, removed or changed
# without updating these files fails here. The public
# headers are fit for C++ and hold no type whose size depends on
# _FILE_OFFSET_BITS.
#
# Environment (set by meson): LIBRARY (the built libsbat.so.0.*), SRC_ROOT,
# BUILD_ROOT, PROJECT_VERSION.
#
# To record a deliberate change of the interface (a release that adds
# exports): put them in a new version node of src/libsbat.map, add them to
# data/libsbat0.symbols with the release's version.
set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env LIBRARY SRC_ROOT BUILD_ROOT PROJECT_VERSION
command -v nm >/dev/null 2>&1 || skip_all "no nm"

T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-abi.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT

symbols=$SRC_ROOT/data/libsbat0.symbols
map=$SRC_ROOT/src/libsbat.map
headers=$SRC_ROOT/include/sbat

# show FILE: a failed check's details
show() {
	sed 's/^/#   /' "$1" | head -n 40
}

# every exported definition, as the symbols file spells it: name@NODE
nm -D --defined-only "$LIBRARY" | awk '{ n = $NF; if ($2 == "A" && n !~ /@/) n = n "@" n; sub(/@@/, "@", n); print n }' |
	LC_ALL=C sort >"$T/exports"

# allowed: sbat_NAME@LIBSBAT_N and the nodes' own definitions LIBSBAT_N@LIBSBAT_N
grep -v -e '^sbat_[A-Za-z0-9_]*@LIBSBAT_[0-9.]*$' -e '^\(LIBSBAT_[0-9.]*\)@\1$' "$T/exports" >"$T/unversioned"
if [ -s "$T/exports" ] && [ ! -s "$T/unversioned" ]; then
	ok "every export is an sbat_* symbol in a LIBSBAT_* version node"
else
	not_ok "every export is an sbat_* symbol in a LIBSBAT_* version node"
	show "$T/unversioned"
fi

# the symbols file: its entries (name@NODE MINVER) without the header lines
awk '/^ / { print $1 }' "$symbols" | LC_ALL=C sort >"$T/listed"
if diff -u "$T/listed" "$T/exports" >"$T/diff"; then
	ok "the exports are exactly those of data/libsbat0.symbols"
else
	not_ok "the exports are exactly those of data/libsbat0.symbols (- listed only, + exported only)"
	show "$T/diff"
fi

# each node of the symbols file is declared in the version script, and no
# entry claims a release after this one
bad=
for node in $(sed 's/.*@//' "$T/listed" | LC_ALL=C sort -u); do
	grep -q "^$node[[:space:]]*{" "$map" || bad="$bad $node (not in src/libsbat.map)"
done
while read -r sym ver; do
	[ "$(printf '%s\n%s\n' "$ver" "$PROJECT_VERSION" | sort -V | tail -n1)" = "$PROJECT_VERSION" ] ||
		bad="$bad $sym (version $ver is after $PROJECT_VERSION)"
done < <(awk '/^ / { print $1, $2 }' "$symbols")
head -n1 "$symbols" | grep -q '^libsbat\.so\.0 libsbat0 #MINVER#$' || bad="$bad (first line is not 'libsbat.so.0 libsbat0 #MINVER#')"
if [ -z "$bad" ]; then ok "the symbols file's version nodes and versions agree with src/libsbat.map and the project"; else not_ok "the symbols file's version nodes and versions agree with src/libsbat.map and the project" "$bad"; fi

# C++ callers: every public header opens and closes extern "C"
bad=
for h in "$headers"/*.h "$headers"/version.h.in; do
	[ "$(grep -c '^extern "C" {$' "$h")" = 1 ] && grep -q '^#ifdef __cplusplus$' "$h" || bad="$bad ${h##*/}"
done
if [ -z "$bad" ]; then ok 'every public header has extern "C" guards'; else not_ok 'every public header has extern "C" guards' "missing in:$bad"; fi

# nothing whose size follows _FILE_OFFSET_BITS: off_t, struct stat, ino_t...
# (in the code: comment lines, " * ..." and "/* ... */", may name them)
if grep -n -E '\b(off_t|off64_t|struct stat|ino_t|blkcnt_t|fsblkcnt_t|fsfilcnt_t|loff_t)\b' "$headers"/*.h |
	grep -v -E '^[^:]*:[0-9]+:[[:space:]]*(\*|/\*)' | grep -v -E '/\*.*\b(off_t|struct stat)\b' >"$T/lfs"; then
	not_ok "the public headers use no type whose size depends on _FILE_OFFSET_BITS"
	show "$T/lfs"
else
	ok "the public headers use no type whose size depends on _FILE_OFFSET_BITS"
fi

tap_finish
