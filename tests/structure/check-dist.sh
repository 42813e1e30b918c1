#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# check-dist.sh - the release tarball holds exactly the files git tracks at
# the commit it was made from: none missing (a distribution's build would
# lack it) and nothing stray (build output, editor files, a local corpus).
# Every file is compared, not only the count.
#
# usage: check-dist.sh TARBALL [SRCDIR [COMMIT]]   (default: the current
# directory and HEAD, which meson dist archives). Output: TAP.
set -u
tarball=${1:?usage: check-dist.sh TARBALL [SRCDIR [COMMIT]]}
src=${2:-.}
commit=${3:-HEAD}
. "$(dirname "$0")/../lib/tap.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-dist.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT

if ! tar -tf "$tarball" >"$T/raw" 2>"$T/err"; then
	not_ok "the tarball can be listed" "$(head -c 400 "$T/err")"
	tap_finish
	exit 1
fi
ok "the tarball can be listed"
top=$(head -n 1 "$T/raw" | cut -d/ -f1)
check "every entry is under one top directory ($top/)" \
	test -z "$(grep -v -e "^$top/" -e "^$top\$" "$T/raw")"
# files and links only: directories are implied
grep -v '/$' "$T/raw" | sed "s|^$top/||" | grep -v "^$top\$" | LC_ALL=C sort -u >"$T/dist"
git -C "$src" ls-tree -r --name-only "$commit" | LC_ALL=C sort -u >"$T/git"
LC_ALL=C comm -13 "$T/dist" "$T/git" >"$T/missing"
LC_ALL=C comm -23 "$T/dist" "$T/git" >"$T/stray"
if [ -s "$T/missing" ]; then
	mapfile -t d <"$T/missing"
	not_ok "every tracked file is in the tarball ($(wc -l <"$T/missing") missing)" "${d[@]:0:20}"
else
	ok "every tracked file is in the tarball ($(wc -l <"$T/git") files)"
fi
if [ -s "$T/stray" ]; then
	mapfile -t d <"$T/stray"
	not_ok "nothing but tracked files is in the tarball ($(wc -l <"$T/stray") stray)" "${d[@]:0:20}"
else
	ok "nothing but tracked files is in the tarball"
fi
ver=$(sed -n "s/^  version : '\\(.*\\)',\$/\\1/p" "$src/meson.build" | head -n 1)
check "the top directory is sbat-add-VERSION (sbat-add-$ver)" test "$top" = "sbat-add-$ver"
tap_finish
