#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
#
# test-man.sh SBAT-ADD.1 SBAT-ADD-BOOT.7 LIBSBAT.3 - the manual pages, as
# built: the command's, the rules of --check-level next (will the machine
# still boot) and the library's. Each exists, its .TH names it, it passes
# `mandoc -Tlint` (warnings and style messages too) and renders without
# warnings through man-db (`man --warnings`, when installed), and its SEE
# ALSO names the other two. sbat-add(1) stays a command reference: at most
# 2600 lines, one ENVIRONMENT section, a SYNOPSIS naming every edit option.
# Exits 77 (skipped) without mandoc.

set -u
if [ "$#" -ne 3 ]; then
	echo "usage: test-man.sh SBAT-ADD.1 SBAT-ADD-BOOT.7 LIBSBAT.3" >&2
	exit 2
fi
command_page=$1

if ! command -v mandoc >/dev/null 2>&1; then
	echo "SKIP: mandoc is not installed (Debian: apt-get install mandoc)"
	exit 77
fi

status=0
pass() {
	echo "ok - $1"
}
fail() {
	echo "FAIL - $1"
	status=1
}

# the page's name and section from its file name: sbat-add-boot.7 -> SBAT-ADD-BOOT 7
for page in "$@"; do
	base=${page##*/}
	if [ ! -r "$page" ]; then
		fail "$base: not readable: $page"
		continue
	fi
	title=$(printf '%s\n' "${base%.*}" | tr '[:lower:]' '[:upper:]')
	if grep -q "^\\.TH $title ${base##*.} " "$page"; then
		pass "$base: .TH $title ${base##*.}"
	else
		fail "$base: no .TH $title ${base##*.} line"
	fi
	out=$(mandoc -Tlint -W style "$page" 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && [ -z "$out" ]; then
		pass "$base: mandoc -Tlint: no messages"
	else
		fail "$base: mandoc -Tlint (exit $rc):"
		printf '%s\n' "$out"
	fi
	if command -v man >/dev/null 2>&1 && man --help 2>&1 | grep -q -- '--warnings'; then
		out=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
		rc=$?
		if [ "$rc" -eq 0 ] && [ -z "$out" ]; then
			pass "$base: man --warnings: no warnings"
		else
			fail "$base: man --warnings (exit $rc):"
			printf '%s\n' "$out"
		fi
	else
		echo "man-db is not installed: man --warnings not run on $base"
	fi
	# SEE ALSO names the other pages, as .BR NAME (SECTION)
	see_also=$(sed -n '/^\.SH SEE ALSO/,/^\.SH /p' "$page" | sed 's/\\-/-/g')
	for other in "$@"; do
		[ "$other" = "$page" ] && continue
		o=${other##*/}
		if printf '%s\n' "$see_also" | grep -q "^\\.BR ${o%.*} (${o##*.})"; then
			pass "$base: SEE ALSO names ${o%.*}(${o##*.})"
		else
			fail "$base: SEE ALSO does not name ${o%.*}(${o##*.})"
		fi
	done
done

# sbat-add-boot(7) answers the three questions users ask, each with its
# command: will my next boot work, what does this dbx update do to my paths,
# is this ESP safe to ship; its examples fit 80 columns as mandoc renders them
boot_page=$2
examples=$(sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$boot_page" | sed 's/\\-/-/g')
if [ -n "$examples" ]; then
	pass "sbat-add-boot.7 has an EXAMPLES section"
else
	fail "sbat-add-boot.7 has no EXAMPLES section"
fi
for q in 'Will my next boot work?|sbat-add --check-level next --esp /boot/efi' \
	'What does this dbx update do to my paths?|    --pending dbx=' \
	'Is this ESP safe to ship?|sbat-add --check-level latest:'; do
	question=${q%%|*}
	command=${q#*|}
	case $command in
	' '*) line=$command ;;
	*) line="\$ $command" ;;
	esac
	if printf '%s\n' "$examples" | grep -qF -- "$question" && printf '%s\n' "$examples" | grep -qF -- "$line"; then
		pass "sbat-add-boot.7 EXAMPLES: \"$question\" with $command"
	else
		fail "sbat-add-boot.7 EXAMPLES: no \"$question\" with \"$line\""
	fi
done
bs=$(printf '\b')
wide=$(mandoc -Tascii -Owidth=80 "$boot_page" | sed "s/.$bs//g" | awk 'length > 80' | head -n 3)
if [ -z "$wide" ]; then
	pass "sbat-add-boot.7 fits 80 columns"
else
	fail "sbat-add-boot.7 has lines over 80 columns:"
	printf '%s\n' "$wide"
fi

# sbat-add(1) is the command reference; the rules of a boot are sbat-add-boot(7)
lines=$(wc -l <"$command_page")
if [ "$lines" -le 2600 ]; then
	pass "sbat-add.1 has $lines lines (at most 2600)"
else
	fail "sbat-add.1 has $lines lines, more than 2600: the rules of a boot go to sbat-add-boot(7)"
fi
# one ENVIRONMENT section; the SYNOPSIS names every edit option
n=$(grep -c '^\.SH ENVIRONMENT' "$command_page")
if [ "$n" -eq 1 ]; then
	pass "one ENVIRONMENT section"
else
	fail "$n ENVIRONMENT sections"
fi
synopsis=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$command_page")
for opt in quiet 'no\-sync' relocate 'lock\-timeout' 'level\-payload'; do
	if printf '%s\n' "$synopsis" | grep -qF -- "\\-\\-$opt"; then
		pass "SYNOPSIS names --$opt"
	else
		fail "SYNOPSIS does not name --$opt"
	fi
done
exit "$status"
