#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-boot-paths.sh - black-box tests of --check-level next without IMAGEs:
# BootNext, BootOrder and Boot#### load options (HD(), File(), optional
# data) in a fake efivarfs directory, followed on an ESP given with --esp:
# one line per path and stage, the default path marked, non-shim entries not
# governed by SBAT, shim's second stage judged as shim judges what it starts
# itself, exit 4 for the default path refused and 7 for another one.
#
# Environment (set by meson): SBAT_ADD, GEN_FIXTURES, FIXTURES_SRC.

set -u

for var in SBAT_ADD GEN_FIXTURES FIXTURES_SRC; do
	if [ -z "${!var:-}" ]; then
		echo "test-boot-paths.sh: $var is not set (run through 'meson test')" >&2
		exit 1
	fi
done
LATEST="$FIXTURES_SRC/level/debian-shim-16.1-latest.txt"
AUTOMATIC="$FIXTURES_SRC/level/debian-shim-16.1-automatic.txt"
SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
EFI_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c

T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-boot.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/cli.sh"

# ---------------------------------------------------------------- encoders

# le16 N / le32 N: little-endian bytes on stdout
le16() { printf "\\$(printf '%03o' $(($1 & 255)))\\$(printf '%03o' $((($1 >> 8) & 255)))"; }
le32() { le16 $(($1 & 65535)); le16 $((($1 >> 16) & 65535)); }
# ucs2 TEXT: CHAR16 with its NUL
ucs2() { printf '%s' "$1" | sed 's/./&\x00/g' | tr -d '\n'; printf '\0\0'; }
# the ESP's partition GUID c12a7328-f81f-11d2-ba4b-00a0c93ec93b as an HD() node stores it
hd_node() {
	le16 $((0x0104)); le16 42; le32 1; le32 2048; le32 0; le32 1048576; le32 0
	printf '\050\163\052\301\037\370\322\021\272\113\000\240\311\076\311\073\002\002'
}
file_node() {
	ucs2 "$1" >"$T/fn"
	le16 $((0x0404)); le16 $((4 + $(wc -c <"$T/fn"))); cat -- "$T/fn"
}
end_node() { printf '\177\377\004\000'; }

# bootvar DIR NUM ATTR DESCRIPTION PATH [OPTIONAL-TEXT]: a Boot#### for PATH on the ESP
bootvar() {
	{ hd_node; file_node "$5"; end_node; } >"$T/dp"
	{
		printf '\7\0\0\0'
		le32 "$3"
		le16 "$(wc -c <"$T/dp")"
		ucs2 "$4"
		cat -- "$T/dp"
		[ -z "${6:-}" ] || ucs2 "$6"
	} >"$1/Boot$2-$EFI_GUID"
}

# order DIR NAME NUM...: BootOrder or BootNext
order() {
	local dir=$1 name=$2
	shift 2
	{ printf '\7\0\0\0'; for num in "$@"; do le16 $((16#$num)); done; } >"$dir/$name-$EFI_GUID"
}

# machine DIR: Secure Boot on, no SbatPolicy, SbatLevelRT from 2024
machine() {
	rm -rf -- "$1"
	mkdir -p -- "$1"
	printf '\7\0\0\0\1' >"$1/SecureBoot-$EFI_GUID"
	printf '\7\0\0\0\0' >"$1/SetupMode-$EFI_GUID"
	printf '\7\0\0\0sbat,1,2024010900\nshim,4\ngrub,3\ngrub.debian,4\n' >"$1/SbatLevelRT-$SHIM_GUID"
}

# ---------------------------------------------------------------- fixtures

FIX="$T/fixtures"
mkdir -p -- "$FIX"
"$GEN_FIXTURES" "$FIX" >/dev/null 2>&1 || { not_ok "gen-fixtures writes the example images"; tap_finish; exit 1; }
SBAT_ROW="sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md"

u32_at() { od -An -tu4 -j "$2" -N 4 -- "$1" | tr -d ' '; }
section_header() { LC_ALL=C grep -obUa -m1 -- "$2" "$1" | head -n1 | cut -d: -f1; }

# make_shim OUT: Debian shim 16.1's payloads in .sbatlev, and a .sbat shim,4
make_shim() {
	local tmp="$T/shim-base.efi" hdr raw alen
	cp -- "$FIX/sbat-mid.efi" "$tmp"
	chmod u+w -- "$tmp"
	hdr=$(section_header "$tmp" '\.sbat')
	raw=$(u32_at "$tmp" $((hdr + 20)))
	alen=$(($(wc -c <"$AUTOMATIC") + 1))
	printf '.sbatlev' | dd of="$tmp" bs=1 seek="$hdr" conv=notrunc status=none
	{ printf '\0\0\0\0\10\0\0\0'; printf "\\$(printf '%03o' $((8 + alen)))\\0\\0\\0";
	  cat -- "$AUTOMATIC"; printf '\0'; cat -- "$LATEST"; printf '\0'; } |
		dd of="$tmp" bs=1 seek="$raw" conv=notrunc status=none
	printf '%s\nshim,4,UEFI shim,shim,1,https://github.com/rhboot/shim\n' "$SBAT_ROW" >"$T/shim.csv"
	rm -f -- "$1"
	"$SBAT_ADD" --file "$tmp" --csv "$T/shim.csv" --output "$1" >/dev/null 2>&1
}
# grub OUT GENERATION [ROW]: ROW, when given, follows the grub row
grub() {
	printf '%s\ngrub,%s,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n' "$SBAT_ROW" "$2" >"$T/grub.csv"
	[ -z "${3:-}" ] || printf '%s\n' "$3" >>"$T/grub.csv"
	rm -f -- "$1"
	"$SBAT_ADD" --file "$FIX/efi-x86_64.efi" --csv "$T/grub.csv" --output "$1" >/dev/null 2>&1
}

ESP="$T/esp"
mkdir -p -- "$ESP/EFI/debian" "$ESP/EFI/fedora" "$ESP/EFI/Microsoft/Boot" "$ESP/EFI/BOOT"
make_shim "$ESP/EFI/debian/shimx64.efi"
grub "$ESP/EFI/debian/grubx64.efi" 5
cp -- "$ESP/EFI/debian/shimx64.efi" "$ESP/EFI/fedora/shimx64.efi"
grub "$ESP/EFI/fedora/grubx64.efi" 4
cp -- "$FIX/efi-x86_64.efi" "$ESP/EFI/Microsoft/Boot/bootmgfw.efi"
cp -- "$ESP/EFI/debian/shimx64.efi" "$ESP/EFI/BOOT/BOOTX64.EFI"
cp -- "$FIX/efi-x86_64.efi" "$ESP/EFI/BOOT/grubx64.efi"
if [ -s "$ESP/EFI/debian/shimx64.efi" ] && [ -s "$ESP/EFI/debian/grubx64.efi" ] && [ -s "$ESP/EFI/fedora/grubx64.efi" ]; then
	ok "made an ESP: debian shim + grub,5, fedora shim + grub,4, Windows, a fallback shim + grub without .sbat"
else
	not_ok "made an ESP"
fi

EV="$T/efivars"
machine "$EV"
bootvar "$EV" 0001 1 debian '\EFI\debian\shimx64.efi'
bootvar "$EV" 0002 1 fedora '\EFI\FEDORA\SHIMX64.EFI'
bootvar "$EV" 0000 1 'Windows Boot Manager' '\EFI\Microsoft\Boot\bootmgfw.efi'
bootvar "$EV" 0003 0 'old entry' '\EFI\old\shimx64.efi'
order "$EV" BootOrder 0001 0002 0000 0003

# ------------------------------------------------------------ the paths

SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP"
expect "the default path boots: shim, then grub,5 under the automatic payload" \
	'has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: boots: shim, next boot enforces SbatLevel 2025021800" &&
	 has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\grubx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required]"'
expect "another path (found case-insensitively) is refused: grub,4 below grub,5, with the fix; exit 7" \
	'[ "$RC" -eq 7 ] && has_line "Boot0002 fedora: stage 2 \\EFI\\FEDORA\\grubx64.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800); install one with grub,5 or later [shim starts it itself: .sbat required]"'
SBAT_ADD_HISTORY="$FIXTURES_SRC/../../data/sbat-level-history.txt" SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP"
expect "with the shipped history, a refusal says when the row was published and why" \
	'has_line "Boot0002 fedora: stage 2 \\EFI\\FEDORA\\grubx64.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800; since SbatLevel 2025021800: GRUB flaws disclosed in February 2025); install one with grub,5 or later [shim starts it itself: .sbat required]"'
expect "Windows Boot Manager is not governed by SBAT; an inactive option is skipped" \
	'has_line "Boot0000 Windows Boot Manager: stage 1 \\EFI\\Microsoft\\Boot\\bootmgfw.efi: not governed by SBAT: the firmware starts it, not shim" &&
	 has_line "Boot0003 old entry: inactive: the firmware skips it"'
expect "the removable-media fallback: its grub has no .sbat, which shim refuses" \
	'has_line "removable media fallback: stage 2 \\EFI\\BOOT\\grubx64.efi: refused: no .sbat, which shim requires of what it starts itself [shim starts it itself: .sbat required]"'

order "$EV" BootNext 0002
SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP"
expect "BootNext is the default path: refused is exit 4, and it is listed once" \
	'[ "$RC" -eq 4 ] && has_line "Boot0002 fedora [default]: stage 1 \\EFI\\FEDORA\\SHIMX64.EFI: boots: shim, next boot enforces SbatLevel 2025021800" &&
	 [ "$(printf "%s\n" "$OUT" | grep -c "^Boot0002")" -eq 2 ]'
rm -f -- "$EV/BootNext-$EFI_GUID"

bootvar "$EV" 0001 1 debian '\EFI\debian\shimx64.efi' 'fedora.efi'
cp -- "$ESP/EFI/fedora/grubx64.efi" "$ESP/EFI/debian/fedora.efi"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP"
expect "optional data names the second stage, relative to shim's directory" \
	'[ "$RC" -eq 4 ] && has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\fedora.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800); install one with grub,5 or later [shim starts it itself: .sbat required]"'
bootvar "$EV" 0001 1 debian '\EFI\debian\shimx64.efi'

rm -f -- "$ESP/EFI/debian/grubx64.efi"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP"
expect "a missing second stage cannot be followed, and does not make the path refused" \
	'[ "$RC" -eq 7 ] && has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\grubx64.efi: cannot be followed: missing under $ESP"'
grub "$ESP/EFI/debian/grubx64.efi" 5

printf '\0\0\0\0\0' >"$ESP/EFI/debian/notashim.efi"
bootvar "$EV" 0004 1 loop '\EFI\debian\..\debian\shimx64.efi'
order "$EV" BootOrder 0004 0001
SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP"
expect "a path with a .. component is not followed" \
	'has_line "Boot0004 loop [default]: stage 1 \\EFI\\debian\\..\\debian\\shimx64.efi: cannot be followed: has a . or .. component under $ESP" && [ "$RC" -eq 7 ]'

# ------------------------------------------------------------ JSON

if command -v python3 >/dev/null; then
	order "$EV" BootOrder 0001 0002 0000 0003
	SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP" --json
	printf '%s' "$OUT" >"$T/out.json"
	expect "--json: schema 1, one object per stage, the default marked, the exit status" \
		'[ "$RC" -eq 7 ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d[\"schema\"] == 1 and d[\"mode\"] == \"boot-paths\", d
s = d[\"stages\"]
first = s[0]
assert first[\"entry\"] == \"Boot0001 debian\" and first[\"default\"] is True and first[\"stage\"] == 1, first
assert first[\"verdict\"] == \"boots\", first
fed = [x for x in s if x[\"entry\"] == \"Boot0002 fedora\" and x[\"stage\"] == 2][0]
assert fed[\"verdict\"] == \"refused\" and fed[\"detail\"].startswith(\"grub,4 is below grub,5\"), fed
assert [x[\"verdict\"] for x in s if x[\"entry\"] == \"Boot0003 old entry\"] == [\"inactive\"]
assert d[\"default_refused\"] is False and d[\"other_refused\"] is True and d[\"exit_status\"] == 7, d
" "$T/out.json"'
else
	skip "JSON checks" "no python3"
fi
order "$EV" BootOrder 0004 0001

# ------------------------------------------------------------ real firmware's variables
# What OVMF and Debian's shim 16.1 published in the vm-ovmf test: Boot0000
# UiApp (an application), Boot0001/0002 whole devices (DVD, the disk that
# booted: BootCurrent 0002, no HD() and no File(): the firmware's
# removable-media path), Boot0003 the built-in shell (a firmware volume file).
OV="$T/ovmf"
mkdir -p -- "$OV"
grep '^var ' "$FIXTURES_SRC/efivars/ovmf-secureboot-shim-16.1.txt" | while read -r _ name hex; do
	printf '%s' "$hex" | sed 's/../\\x&/g' | xargs -0 printf -- >"$OV/$name"
done
OESP="$T/esp-ovmf"
mkdir -p -- "$OESP/EFI/BOOT"
cp -- "$ESP/EFI/debian/shimx64.efi" "$OESP/EFI/BOOT/BOOTX64.EFI"
cp -- "$ESP/EFI/debian/grubx64.efi" "$OESP/EFI/BOOT/grubx64.efi"
SBAT_ADD_EFIVARFS="$OV" run --check-level next --esp "$OESP"
BOOTED='Boot0002 UEFI QEMU HARDDISK QM00001  [booted this time] [default]'
expect "OVMF's variables: the whole disk that booted (BootCurrent) is followed to \\EFI\\BOOT\\BOOTX64.EFI on --esp, and it is the default" \
	'[ "$RC" -eq 0 ] && has_line "$BOOTED: stage 1 \\EFI\\BOOT\\BOOTX64.EFI: boots: shim, next boot enforces SbatLevel 2025021800" &&
	 has_line "$BOOTED: stage 2 \\EFI\\BOOT\\grubx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required]"'
expect "OVMF's variables: UiApp is an application the boot order never starts, and not the default" \
	'has_line "Boot0000 UiApp: not governed by SBAT: an application (not LOAD_OPTION_CATEGORY_BOOT), started from a menu only"'
expect "OVMF's variables: the DVD ahead of the booted disk had nothing to start, and is not the default" \
	'has_line "Boot0001 UEFI QEMU DVD-ROM QM00005 : stage 1 \\EFI\\BOOT\\BOOTX64.EFI: cannot be followed: the firmware starts \\EFI\\BOOT\\BOOTX64.EFI from this device if it holds one; it did not this boot, which came from Boot0002"'
expect "OVMF's variables: the built-in shell is not governed by SBAT" \
	'has_line "Boot0003 EFI Internal Shell: not governed by SBAT: not a file on a disk (network boot or a firmware application)"'
grub "$OESP/EFI/BOOT/grubx64.efi" 4
SBAT_ADD_EFIVARFS="$OV" run --check-level next --esp "$OESP"
expect "OVMF's variables, grub,4 behind Debian shim 16.1 on the disk that booted: the default path is refused (exit 4)" \
	'[ "$RC" -eq 4 ] && has_line "$BOOTED: stage 2 \\EFI\\BOOT\\grubx64.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800); install one with grub,5 or later [shim starts it itself: .sbat required]"'
# shim run from the removable-media path starts its fallback when it is there
cp -- "$ESP/EFI/debian/grubx64.efi" "$OESP/EFI/BOOT/fbx64.efi"
SBAT_ADD_EFIVARFS="$OV" run --check-level next --esp "$OESP"
expect "shim from \\EFI\\BOOT\\BOOTX64.EFI with fbx64.efi next to it: the second stage is the fallback, judged as shim judges it" \
	'[ "$RC" -eq 0 ] && has_line "$BOOTED: stage 2 \\EFI\\BOOT\\fbx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required; shim'"'"'s fallback, run from the removable-media path: it makes boot entries from BOOT*.CSV and resets, and those entries are judged on the next boot]"'
SBAT_ADD_EFIVARFS="$OV" run --check-level next
expect "OVMF's variables without --esp: the disk that booted cannot be followed, and the line says why" \
	'[ "$RC" -eq 0 ] && has_line "Boot0002 UEFI QEMU HARDDISK QM00001  [booted this time] [default]: stage 1 \\EFI\\BOOT\\BOOTX64.EFI: cannot be followed: the firmware starts \\EFI\\BOOT\\BOOTX64.EFI from this device; which ESP it holds the variables do not say (--esp is taken for the device this boot came from)"'

# SbatPolicy latest pending: shim's latest payload (grub.proxmox,2) revokes a
# GRUB that its automatic one (and the stored level) let boot
PESP="$T/esp-proxmox"
mkdir -p -- "$PESP/EFI/proxmox"
cp -- "$ESP/EFI/debian/shimx64.efi" "$PESP/EFI/proxmox/shimx64.efi"
grub "$PESP/EFI/proxmox/grubx64.efi" 5 'grub.proxmox,1,Proxmox,grub2,2.06-1,https://www.proxmox.com/'
PV="$T/efivars-proxmox"
machine "$PV"
bootvar "$PV" 0001 1 proxmox '\EFI\proxmox\shimx64.efi'
order "$PV" BootOrder 0001
SBAT_ADD_EFIVARFS="$PV" run --check-level next --esp "$PESP"
expect "no SbatPolicy: a GRUB with grub.proxmox,1 boots under the automatic payload" \
	'[ "$RC" -eq 0 ] && has_line "Boot0001 proxmox [default]: stage 2 \\EFI\\proxmox\\grubx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required]"'
printf '\7\0\0\0\1' >"$PV/SbatPolicy-$SHIM_GUID"
SBAT_ADD_EFIVARFS="$PV" run --check-level next --esp "$PESP"
expect "SbatPolicy latest: refused by the latest payload, and the refusal says that withdrawing the pending request fixes it" \
	'[ "$RC" -eq 4 ] && has_line "Boot0001 proxmox [default]: stage 2 \\EFI\\proxmox\\grubx64.efi: refused: grub.proxmox,1 is below grub.proxmox,2 (SbatLevel 2025051000); install one with grub.proxmox,2 or later; SbatPolicy latest is pending: without it shim'"'"'s automatic level would let it boot (mokutil --set-sbat-policy delete) [shim starts it itself: .sbat required]"'
cp -- "$ESP/EFI/fedora/grubx64.efi" "$PESP/EFI/proxmox/grubx64.efi"
SBAT_ADD_EFIVARFS="$PV" run --check-level next --esp "$PESP"
expect "SbatPolicy latest with a GRUB that the automatic payload revokes too (grub,4): refused, no such hint" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" == *"proxmox"*"refused: grub,4 is below grub,5"* ]] && [[ "$OUT" != *"SbatPolicy latest is pending"* ]]'

# ------------------------------------------------------------ bad input

printf '\7\0\0\0\1\0\0\0\100\0a\0' >"$EV/Boot0004-$EFI_GUID"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP"
expect "a malformed Boot####: one line naming the variable and the offset; the rest of the report still given" \
	'[[ "$ERR" == *"Boot0004-$EFI_GUID"*"offset"* ]] && has_line "Boot0004: cannot be followed: malformed load option" &&
	 has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\grubx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required]"'

printf '\7\0\0\0\1' >"$EV/BootOrder-$EFI_GUID"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP"
expect "a BootOrder of odd length: exit 1, naming it and the offset" \
	'[ "$RC" -eq 1 ] && [[ "$ERR" == *"BootOrder-$EFI_GUID"*"odd length for an array of UINT16"* ]]'
order "$EV" BootOrder 0001

run --check-level next "$ESP/EFI/debian/grubx64.efi"
expect "POLICY next takes no IMAGE" '[ "$RC" -eq 2 ]'
run --check-level running --esp "$ESP" "$ESP/EFI/debian/grubx64.efi"
expect "--esp goes with next only" '[ "$RC" -eq 2 ]'

tap_finish
