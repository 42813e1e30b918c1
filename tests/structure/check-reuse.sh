#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# check-reuse.sh - every file of the tree says under which licence and by
# whom, as the REUSE specification asks (`reuse lint`: a licence and
# copyright line in the file, a .license file beside it, or .reuse/dep5),
# and the text of each licence named is in LICENSES/.
#
# Without reuse (package reuse) it skips, unless CI=true, when that is a
# failure. Outside a git checkout (a release tarball) it skips: reuse would
# read the build directory too, which git's ignore list keeps out.
#
# usage: check-reuse.sh SRCDIR. Output: TAP.
set -u
src=${1:?usage: check-reuse.sh SRCDIR}
. "$(dirname "$0")/../lib/tap.sh"

if ! command -v reuse >/dev/null 2>&1; then
	if [ "${CI:-}" = true ]; then
		echo "1..1"
		echo "not ok 1 - reuse lint: no reuse (package reuse) (CI=true)"
		exit 1
	fi
	skip_all "no reuse (package reuse)"
fi
[ -e "$src/.git" ] || skip_all "not a git checkout"

T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-reuse.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
# reuse's report, each list of files cut to its first 5
tap_details() {
	awk '/^$/ { next } /^\* / { if (++k > 5) { more++; next } } !/^\* / { if (more) print "* ... and " more " more"; k = more = 0 }
		{ print } END { if (more) print "* ... and " more " more" }' "$T/lint" | head -80
}

check "reuse lint: every file has its licence and copyright, and LICENSES/ the text of each licence" \
	sh -c 'reuse --root "$1" lint >"$2" 2>&1' sh "$src" "$T/lint"
tap_details() {
	:
}
for lic in LGPL-2.1-or-later BSD-2-Clause-Patent; do
	check "LICENSES/$lic.txt is there" test -s "$src/LICENSES/$lic.txt"
done
check "LICENSES/LGPL-2.1-or-later.txt is the text of COPYING" cmp -s "$src/COPYING" "$src/LICENSES/LGPL-2.1-or-later.txt"
# the firmware variable dump is the project's own (a VM it booted): no
# variable that holds keys or certificates (PK, KEK, db, dbx, MokList*)
check "the efivars fixture holds no key or certificate variable" \
	sh -c '! grep -E "^var (PK|KEK|db|dbx|dbt|MokList[A-Za-z]*)-" "$1"/tests/fixtures/efivars/*.txt' sh "$src"

tap_finish
