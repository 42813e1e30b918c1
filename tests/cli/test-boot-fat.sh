#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-boot-fat.sh - black-box tests of --check-level next following a
# Boot#### option's File() nodes to a file as EDK2 opens it (its FAT driver
# and boot manager): '/' is no separator, a trailing '\' asks for a
# directory, an empty name after the leading '\' ends the path at the root,
# runs of '\' inside count as one, trailing dots are cut, each File() node
# opens from the one before, and a path of File() nodes alone is looked for
# on --esp (said so), or not known when the options name another partition.
# Where the firmware opens nothing, the option does not start and the next
# one is the default. The machine has no db or dbx: SBAT alone is judged
# (--no-signatures), the paths being what is tested.
#
# Environment (set by meson): SBAT_ADD, GEN_FIXTURES.

set -u

for var in SBAT_ADD GEN_FIXTURES; do
	if [ -z "${!var:-}" ]; then
		echo "test-boot-fat.sh: $var is not set (run through 'meson test')" >&2
		exit 1
	fi
done
EFI_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c

T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-fat.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/efi.sh"

# ---------------------------------------------------------------- encoders (and ../lib/efi.sh)

# option NUM DESCRIPTION: Boot#### active, its device path the nodes in $T/dp, then an end node
option() {
	end_node >>"$T/dp"
	{
		printf '\7\0\0\0'
		le32 1
		le16 "$(wc -c <"$T/dp")"
		ucs2 "$2"
		cat -- "$T/dp"
	} >"$EV/Boot$1-$EFI_GUID"
	rm -f -- "$T/dp"
}
# on_esp NUM DESCRIPTION PATH...: HD() then one File() node per PATH
on_esp() {
	local num=$1 desc=$2
	shift 2
	hd_node >"$T/dp"
	for p in "$@"; do file_node "$p" >>"$T/dp"; done
	option "$num" "$desc"
}
order() {
	{ printf '\7\0\0\0'; for num in "$@"; do le16 $((16#$num)); done; } >"$EV/BootOrder-$EFI_GUID"
}

# ---------------------------------------------------------------- fixtures

FIX="$T/fixtures"
mkdir -p -- "$FIX"
"$GEN_FIXTURES" "$FIX" >/dev/null 2>&1 || { not_ok "gen-fixtures writes the example images"; tap_finish; exit 1; }
ESP="$T/esp"
mkdir -p -- "$ESP/EFI/test"
cp -- "$FIX/efi-x86_64.efi" "$ESP/EFI/test/app.efi"
EV="$T/efivars"
mkdir -p -- "$EV"
on_esp 0002 plain '\EFI\test\app.efi'
boot0002=$(option_text "$EV/Boot0002-$EFI_GUID")
if cmp -s -- "$FIX/efi-x86_64.efi" "$ESP/EFI/test/app.efi" && [ "$(head -c 2 -- "$ESP/EFI/test/app.efi")" = MZ ] &&
	! LC_ALL=C grep -qa -- '\.sbat' "$ESP/EFI/test/app.efi" &&
	[ "$boot0002" = 'attributes 7, option attributes 1, description "plain", HD(1) File(\EFI\test\app.efi) End, 0 bytes of optional data' ]; then
	ok "made an ESP with \\EFI\\test\\app.efi (an application without .sbat) and Boot0002 for it (read back: active, HD() then File(\\EFI\\test\\app.efi))"
else
	not_ok "made an ESP with \\EFI\\test\\app.efi (an application without .sbat) and Boot0002 for it" \
		"app.efi: $(ls -l -- "$ESP/EFI/test/app.efi" 2>&1)" "Boot0002: $boot0002"
fi

STARTS='not governed by SBAT: the firmware starts it, not shim'
NEXT='the firmware goes on to the next option'

# ---------------------------------------------------------------- one File() node

on_esp 0001 slash '/EFI/test/app.efi'
order 0001 0002
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "a File() path with / separators does not start (EDK2's FAT driver refuses a / in a name): the next option is the default" \
	'has_line "Boot0001 slash: stage 1 /EFI/test/app.efi: skipped: does not start: the path has a / in a name: EDK2'"'"'s FAT driver splits paths at \\ only and refuses a / in a name; $NEXT" &&
	 has_line "Boot0002 plain [default]: stage 1 \\EFI\\test\\app.efi: $STARTS" && [ "$RC" -eq 0 ]'

on_esp 0003 trailing '\EFI\test\app.efi\'
order 0003 0002
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "a File() path with a trailing \\ does not start (it asks for a directory): the next option is the default" \
	'has_line "Boot0003 trailing: stage 1 \\EFI\\test\\app.efi\\: skipped: does not start: ends in \\, which asks for a directory, but names a file; $NEXT" &&
	 has_line "Boot0002 plain [default]: stage 1 \\EFI\\test\\app.efi: $STARTS"'

on_esp 0004 empty '\EFI\\test\app.efi'
order 0004 0002
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "an empty name inside a File() path is skipped, as EDK2's FatGetNextNameComponent skips a run of \\" \
	'has_line "Boot0004 empty [default]: stage 1 \\EFI\\\\test\\app.efi: $STARTS"'

on_esp 0005 rooted '\\EFI\test\app.efi'
order 0005 0002
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "an empty name right after the leading \\ ends the path at the root directory: it does not start" \
	'has_line "Boot0005 rooted: stage 1 \\\\EFI\\test\\app.efi: skipped: does not start: the path opens the root directory: EDK2'"'"'s FAT driver ends a path at an empty name right after its leading \\; $NEXT" &&
	 has_line "Boot0002 plain [default]: stage 1 \\EFI\\test\\app.efi: $STARTS"'

on_esp 0006 dots '\EFI\test\app.efi. '
order 0006 0002
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "trailing dots and blanks are cut from a name, as EDK2's FatFileNameIsValid cuts them" \
	'has_line "Boot0006 dots [default]: stage 1 \\EFI\\test\\app.efi. : $STARTS"'

# ---------------------------------------------------------------- several File() nodes

on_esp 0007 split '\EFI\test' 'app.efi'
order 0007 0002
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "two File() nodes: the second opens in the directory the first opened" \
	'has_line "Boot0007 split [default]: stage 1 \\EFI\\test\\app.efi: $STARTS"'

on_esp 0008 absolute '\EFI\test' '\app.efi'
order 0002 0008
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "a second File() node that starts with \\ opens from the root: \\app.efi is missing, so the option does not start" \
	'has_line "Boot0008 absolute: stage 1 \\EFI\\test\\app.efi: skipped: does not start: missing under $ESP; $NEXT"'

# ---------------------------------------------------------------- File() alone

file_node '\EFI\test\app.efi' >"$T/dp"
option 0009 fileonly
order 0009
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "a device path of File() alone is looked for on --esp, and the report says that --esp is taken as the only file system searched" \
	'has_line "  --esp $ESP: taken as the only file system the firmware searches for options of File() nodes alone (EDK2 looks on each, removable media first)" &&
	 has_line "Boot0009 fileonly [default]: stage 1 \\EFI\\test\\app.efi: $STARTS" && [ "$RC" -eq 0 ]'

hd_node 60 >"$T/dp"
file_node '\EFI\other\app.efi' >>"$T/dp"
option 000A other
order 0009 0002 000A
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "File() alone when the options name two partitions: which one the firmware finds it on first is not known" \
	'has_line "Boot0009 fileonly [default]: stage 1 \\EFI\\test\\app.efi: cannot be followed: the firmware looks for \\EFI\\test\\app.efi on every file system, removable media first, and the options name a partition that --esp is not (c12a7328-f81f-11d2-ba4b-00a0c93ec93c)" &&
	 [ "$RC" -eq 8 ]'

# ---------------------------------------------------------------- JSON

if command -v python3 >/dev/null; then
	order 0001 0002
	SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP" --json
	printf '%s' "$OUT" >"$T/out.json"
	expect "--json: the option that does not start is skipped and not the default; the next one is" \
		'python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))[\"stages\"]
assert s[0][\"verdict\"] == \"skipped\" and s[0][\"default\"] is False, s[0]
assert s[0][\"detail\"].startswith(\"does not start: the path has a / in a name\"), s[0]
assert s[1][\"entry\"] == \"Boot0002 plain\" and s[1][\"default\"] is True, s[1]
" "$T/out.json"'
else
	skip "JSON checks" "no python3"
fi

tap_finish
