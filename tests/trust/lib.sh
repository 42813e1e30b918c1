# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# lib.sh - sourced by the trust tests (test-trust.sh, test-trust-metadata.sh),
# after tests/lib/cli.sh; they set FIX, the generated fixtures' directory.

# fresh NAME DIR: a writable copy of fixture NAME in DIR; prints its path.
# Written an hour ago, to the nanosecond: the time stamps show any later
# write, and the edit takes no content fingerprint (a file written in the
# current clock tick gets one; the SBAT_TEST_COARSE_TIME checks take it).
fresh() {
	mkdir -p -- "$2"
	cp -- "$FIX/$1" "$2/$1"
	chmod 0644 -- "$2/$1"
	touch -d "@$(($(date +%s) - 3600)).123456789" -- "$2/$1"
	printf '%s\n' "$2/$1"
}
