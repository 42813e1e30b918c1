#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# check-ci-counts.sh - .ci/run's closing count, held to recorded output of
# `meson test -v`: skips are counted as skipped, not passed, timeouts and
# unexpected passes as failures, and the skipped checks inside tests that
# passed (TAP SKIP subtests, a unit test's skip()) are counted too.
# Usage: check-ci-counts.sh CI-DIR (the .ci folder: counts.sh and run)
set -u
ci=${1:?usage: check-ci-counts.sh CI-DIR}
. "$(dirname "$0")/../lib/tap.sh"
. "$ci/counts.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-ci-counts.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
GOT=
tap_details() {
	printf 'meson_counts printed: %s\n' "$GOT"
}

# summary OK XFAIL FAIL XPASS SKIPPED TIMEOUT: meson 1.0.1's closing summary
summary() {
	printf '\nOk:                 %-4s\nExpected Fail:      %-4s\nFail:               %-4s\n' "$1" "$2" "$3"
	printf 'Unexpected Pass:    %-4s\nSkipped:            %-4s\nTimeout:            %-4s\n' "$4" "$5" "$6"
	printf '\nFull log written to build-ci/meson-logs/testlog.txt\n'
}

# counts_are EXPECTED LOG: meson_counts prints EXPECTED for LOG
counts_are() {
	GOT=$(meson_counts "$2")
	[ "$GOT" = "$1" ]
}

summary 40 0 0 0 3 0 >"$T/skips.log"
check "Skipped: 3 is three skipped tests, not passed ones" counts_are "40 0 3 0" "$T/skips.log"

summary 38 1 1 1 0 2 >"$T/bad.log"
check "Expected Fail passes; Fail, Unexpected Pass and Timeout fail" counts_are "39 4 0 0" "$T/bad.log"

{
	echo ' 5/31 sbat-add:unit / fileio              RUNNING'
	echo '# 23 passed, 0 failed, 1 skipped'
	echo ' 5/31 sbat-add:unit / fileio              OK               0.78s'
	echo '>>> MALLOC_PERTURB_=60 /usr/bin/bash tests/cli/test-lint.sh'
	printf '\342\226\266 12/31 - python3 is missing: JSON checks   SKIP          \n'
	printf '\342\226\266 12/31 - --lint on a clean image      OK            \n'
	echo '| 12/31 - zsh completion   SKIP          '
	echo '12/31 sbat-add:lint / cli-lint            OK              2.10s   40 subtests passed'
	summary 31 0 0 0 0 0
} >"$T/checks.log"
check "skipped checks inside passing tests: TAP SKIP subtests and a unit test's count" \
	counts_are "31 0 0 3" "$T/checks.log"

printf 'ERROR: the build directory is not there\n' >"$T/none.log"
check "no summary (meson stopped before its tests) is a failure" counts_are "0 1 0 0" "$T/none.log"

{
	summary 1 0 1 0 0 0
	summary 5 0 0 0 2 0
} >"$T/two.log"
check "the last summary counts" counts_are "5 0 2 0" "$T/two.log"

# .ci/run counts through meson_counts and ends with "N passed, N failed, N skipped"
GOT=$(grep -c 'meson_counts' "$ci/run")
check ".ci/run counts through meson_counts" test "$GOT" -ge 2
GOT=$(grep -E '^[[:space:]]*echo ' "$ci/run" | tail -n1)
check ".ci/run's last line is \"N passed, N failed, N skipped\"" \
	test "$GOT" = 'echo "${passed} passed, ${failed} failed, ${skipped} skipped"'

tap_finish
