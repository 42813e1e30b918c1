#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# check-skips.sh - a skipped cmocka test is counted as skipped, not passed.
# cmocka_run_group_tests() returns the number of failed tests only, so a
# unit test binary whose every test called skip() would exit 0, a pass to
# meson. tests/unit/test-util.h's run_group() exits 77 (meson's SKIP) then,
# and prints the count. This runs tests/unit/skip-probe.c, whose tests
# skip, pass or fail as asked, and checks that every unit test ends
# through run_group(). And a TAP test skips with its plan "1..0 # SKIP"
# and exit 0: meson's TAP parser takes any other exit status, 77 too, for
# an error.
# Usage: check-skips.sh SKIP-PROBE TESTS-DIR
set -u
usage="usage: check-skips.sh SKIP-PROBE TESTS-DIR"
probe=${1:?$usage}
tests=${2:?$usage}
unit=$tests/unit
. "$(dirname "$0")/../lib/tap.sh"

OUT= RC=
tap_details() {
	[ -z "$RC" ] || printf 'exit %s, output:\n%s\n' "$RC" "$OUT"
}

# probe MODE: run the probe, its output in OUT and its exit status in RC
probe() {
	OUT=$("$probe" "$1" 2>&1)
	RC=$?
}

# has_count LINE: the probe printed LINE as its count
has_count() {
	printf '%s\n' "$OUT" | grep -qx -- "$1"
}

probe all
check "every test skipped: the binary exits 77, which meson counts as a skipped test" test "$RC" -eq 77
check "every test skipped: the count says so" has_count "# 0 passed, 0 failed, 2 skipped"

probe some
check "a test skipped, the others passed: exit 0" test "$RC" -eq 0
check "a test skipped, the others passed: the skip is counted" has_count "# 2 passed, 0 failed, 1 skipped"

probe fail
check "a test skipped, one failed: exit 1" test "$RC" -eq 1
check "a test skipped, one failed: the count" has_count "# 1 passed, 1 failed, 1 skipped"

# every unit test binary returns run_group(...), none cmocka's count itself
OUT= RC=
direct=() missing=()
for f in "$unit"/test-*.c; do
	grep -q 'cmocka_run_group_tests' "$f" && direct+=("${f##*/}")
	grep -q 'return run_group(' "$f" || missing+=("${f##*/}")
done
check "no unit test returns cmocka_run_group_tests() itself" test ${#direct[@]} -eq 0
[ ${#direct[@]} -eq 0 ] || printf '#   %s\n' "${direct[@]}"
check "every unit test returns run_group()" test ${#missing[@]} -eq 0
[ ${#missing[@]} -eq 0 ] || printf '#   %s\n' "${missing[@]}"

# no TAP test (a script that sources lib/tap.sh or prints a plan, a C
# program that prints one) exits 77
exits77=()
while IFS= read -r f; do
	case $f in
	*.sh)
		grep -qE 'lib/tap\.sh|1\.\.[0-9$]' "$f" || continue
		grep -vE '^[[:space:]]*#' "$f" | grep -qE '\bexit 7[7]\b' && exits77+=("${f#"$tests"/}")
		;;
	*)
		grep -qE '1\.\.[0-9%]' "$f" || continue
		grep -qE '\b(return 7[7]|exit\(7[7]\))' "$f" && exits77+=("${f#"$tests"/}")
		;;
	esac
done < <(find "$tests" \( -name '*.sh' -o -name '*.c' \) ! -path '*/lib/tap.sh' | sort)
check "no TAP test exits 77 (meson's TAP parser calls that an error)" test ${#exits77[@]} -eq 0
[ ${#exits77[@]} -eq 0 ] || printf '#   %s\n' "${exits77[@]}"

tap_finish
