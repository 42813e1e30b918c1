# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# tap.sh - what the shell test scripts share: numbered TAP lines, skips,
# and the closing plan and count. Source it, report each check with ok,
# not_ok, skip or check, and end with tap_finish. A script may define
# tap_details to add lines (what ran, its output) to a failed check.
# Scripts that run sbat-add source lib/cli.sh after it.

n=0
passed=0
failed=0
skipped=0

# ok DESCRIPTION
ok() {
	n=$((n + 1))
	passed=$((passed + 1))
	echo "ok $n - $1"
}

# not_ok DESCRIPTION [DETAIL...]: each detail becomes a "#" line
not_ok() {
	local desc="$1" line
	shift
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $desc"
	for line in "$@"; do
		printf '#   %s\n' "$line"
	done
}

# skip WHY, or skip DESCRIPTION WHY: a check that cannot run here; TAP's
# SKIP directive, so that it is counted as a skip, never as a pass
skip() {
	n=$((n + 1))
	skipped=$((skipped + 1))
	if [ $# -ge 2 ]; then
		echo "ok $n - $1 # SKIP $2"
	else
		echo "ok $n - # SKIP $1"
	fi
}

# skip_all WHY: nothing in this script can run here; the TAP plan that says
# so, which meson counts as a skipped test (exit 77 would be an error in TAP)
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# need_env VAR...: each VAR is set and not empty; else say which is not and exit 1
need_env() {
	local var
	for var in "$@"; do
		if [ -z "${!var:-}" ]; then
			echo "${0##*/}: $var is not set (run through 'meson test')" >&2
			exit 1
		fi
	done
}

# What a failed check adds; scripts redefine it.
tap_details() {
	:
}

# check DESCRIPTION COMMAND...: ok when COMMAND succeeds, else not ok with what ran and tap_details
check() {
	local desc="$1" details
	shift
	if "$@"; then
		ok "$desc"
	else
		mapfile -t details < <(printf 'failed: %s\n' "$*"; tap_details)
		not_ok "$desc" "${details[@]}"
	fi
}

# check_todo DESC WHY CMD...: a check that waits for a change still to come:
# "not ok ... # TODO WHY" when CMD fails (not counted as a failure), "ok ...
# # TODO WHY" (an unexpected pass: drop the directive) when it passes
check_todo() {
	local desc="$1" why="$2"
	shift 2
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc # TODO $why"
	else
		echo "not ok $n - $desc # TODO $why"
	fi
}

# The TAP plan and the count; the exit status says whether everything passed.
tap_finish() {
	echo "1..$n"
	echo "# $passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
}
