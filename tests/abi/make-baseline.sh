#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# make-baseline.sh - record the ABI of libsbat.so.0 as a release shipped it,
# for tests/abi/check-abi-baseline.sh to hold later versions to.
#
# Usage: tests/abi/make-baseline.sh COMMIT VERSION
#   COMMIT   the release commit (a tag such as v0.3.0, or a commit id)
#   VERSION  its version, as project() in its meson.build says (0.3.0)
#
# It builds COMMIT's library from a `git archive` of it in a scratch
# directory (shared, with debug information, no tests), and writes
# tests/abi/baseline/libsbat-VERSION.abi: the output of abidw (package
# abigail-tools) with the public headers include/sbat, so that only the types
# a caller sees are recorded. Paths of the build are left out, so the file
# is the same whoever makes it with the same compiler; it records the
# architecture (the check skips on another one).
#
# 0.2.0's baseline was made with
#   tests/abi/make-baseline.sh e1010d677871d08cf4a25d7aaa02d35ea680273c 0.2.0
# (the commit before "Version 0.3.0 in development"; Debian 12: gcc 12.2,
# abigail-tools 2.2.0, x86_64).
set -euo pipefail

if [ $# -ne 2 ]; then
	echo "usage: $0 COMMIT VERSION" >&2
	exit 2
fi
commit=$1
version=$2
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
out=$root/tests/abi/baseline/libsbat-$version.abi
command -v abidw >/dev/null || {
	echo "$0: abidw not found (package abigail-tools)" >&2
	exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sbat-baseline.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT
git -C "$root" archive --format=tar --prefix=src/ "$commit" | tar -x -C "$tmp"
built=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$tmp/src/meson.build" | head -n1)
if [ "$built" != "$version" ]; then
	echo "$0: $commit is version '$built', not $version" >&2
	exit 1
fi
meson setup "$tmp/build" "$tmp/src" -Ddefault_library=shared -Dtests=disabled -Dbuildtype=debugoptimized >"$tmp/setup.log"
ninja -C "$tmp/build" >"$tmp/build.log"

abidw --headers-dir "$tmp/src/include/sbat" --drop-private-types \
	--no-corpus-path --no-comp-dir-path --short-locs \
	--out-file "$out" "$tmp/build/libsbat.so.$version"
echo "wrote $out"
