# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# counts.sh - what .ci/run counts in the output of one `meson test -v` run.
# Source it; tests/structure/check-ci-counts.sh holds it to recorded output.

# meson_counts LOG: prints "PASSED FAILED SKIPPED CHECKS" from LOG.
# PASSED, FAILED and SKIPPED are meson tests, from its closing summary:
# Ok and Expected Fail passed; Fail, Unexpected Pass and Timeout failed;
# Skipped skipped (a test that exits 77, a TAP test with the plan
# "1..0 # SKIP" or whose every check skipped). No summary (meson stopped
# before it) is one failure. CHECKS counts the checks that skipped inside
# tests that ran: the SKIP lines meson prints for TAP subtests, and the
# "# P passed, F failed, S skipped" lines of the unit test binaries.
meson_counts() {
	awk '
	{ gsub(/\033\[[0-9;]*m/, "") }
	/^Ok:[[:space:]]/ { ok = $2; seen = 1 }
	/^Expected Fail:[[:space:]]/ { xfail = $3 }
	/^Fail:[[:space:]]/ { fail = $2 }
	/^Unexpected Pass:[[:space:]]/ { xpass = $3 }
	/^Skipped:[[:space:]]/ { skipped = $2 }
	/^Timeout:[[:space:]]/ { timeout = $2 }
	/^(▶|\|) +[0-9]+\/[0-9]+ .*[[:space:]]SKIP[[:space:]]*$/ { checks++ }
	/^# [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ { checks += $6 }
	END {
		if (!seen)
			print 0, 1, 0, checks + 0
		else
			print ok + xfail, fail + xpass + timeout, skipped + 0, checks + 0
	}' "$1"
}
