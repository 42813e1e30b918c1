#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
#
# test-man.sh MANPAGE - the manual page passes `mandoc -Tlint` and renders
# without warnings through man-db (`man --warnings`, when installed).
# Exits 77 (skipped) without mandoc.

set -u
page=${1:?usage: test-man.sh MANPAGE}

if ! command -v mandoc >/dev/null 2>&1; then
	echo "SKIP: mandoc is not installed (Debian: apt-get install mandoc)"
	exit 77
fi

status=0
out=$(mandoc -Tlint -W style "$page" 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ -z "$out" ]; then
	echo "ok - mandoc -Tlint: no messages"
else
	echo "FAIL - mandoc -Tlint (exit $rc):"
	printf '%s\n' "$out"
	status=1
fi

if command -v man >/dev/null 2>&1 && man --help 2>&1 | grep -q -- '--warnings'; then
	out=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -eq 0 ] && [ -z "$out" ]; then
		echo "ok - man --warnings: no warnings"
	else
		echo "FAIL - man --warnings (exit $rc):"
		printf '%s\n' "$out"
		status=1
	fi
else
	echo "man-db is not installed: man --warnings not run"
fi
# one ENVIRONMENT section; the SYNOPSIS names every edit option
n=$(grep -c '^\.SH ENVIRONMENT' "$page")
if [ "$n" -eq 1 ]; then
	echo "ok - one ENVIRONMENT section"
else
	echo "FAIL - $n ENVIRONMENT sections"
	status=1
fi
synopsis=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$page")
for opt in quiet 'no\-sync' relocate 'lock\-timeout' 'level\-payload'; do
	if printf '%s\n' "$synopsis" | grep -qF -- "\\-\\-$opt"; then
		echo "ok - SYNOPSIS names --$opt"
	else
		echo "FAIL - SYNOPSIS does not name --$opt"
		status=1
	fi
done
exit "$status"
