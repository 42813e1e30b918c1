#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-boot-paths.sh - black-box tests of --check-level next without IMAGEs:
# BootNext, BootOrder and Boot#### load options (HD(), File(), optional
# data) in a fake efivarfs directory, followed on an ESP given with --esp:
# one line per path and stage, the default path marked, non-shim entries not
# governed by SBAT, shim's second stage judged as shim judges what it starts
# itself, exit 4 for the default path refused and 7 for another one; stage
# 3: systemd-boot's entries and UKIs (ESP and XBOOTLDR, loader.conf, its
# variables) and GRUB's kernels (the ESP's stub, /boot/grub/grub.cfg given
# with --boot, grubenv), judged as shim checks what a loader hands it.
# Its machines have no db or dbx: the checks of the paths and of SBAT give
# --no-signatures; those of the signature gate, judged by default, do not.
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
# no history to explain a level with (the command has one built in): the
# refusals below are worded without it; one check gives the real file
export SBAT_ADD_HISTORY="$T/no-history.txt"
trap 'rm -rf -- "$T"' EXIT

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/efi.sh"

# ---------------------------------------------------------------- encoders (and ../lib/efi.sh)

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

SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "the default path boots: shim, then grub,5 under the automatic payload" \
	'has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: boots: shim, next boot enforces SbatLevel 2025021800" &&
	 has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\grubx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required]"'
expect "another path (found case-insensitively) is refused: grub,4 below grub,5, with the fix; exit 8, as the default path's GRUB has no grub.cfg and so is not known to boot" \
	'[ "$RC" -eq 8 ] && has_line "Boot0002 fedora: stage 2 \\EFI\\FEDORA\\grubx64.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800); install one with grub,5 or later [shim starts it itself: .sbat required]"'
expect "--esp whose partition is not known here: taken for the options' HD() partition, and that is said, once" \
	'[ "$(printf "%s\n" "$OUT" | grep -c "^  --esp ")" -eq 1 ] &&
	 has_line "  --esp $ESP: taken as the partition of the options'"'"' HD() nodes (c12a7328-f81f-11d2-ba4b-00a0c93ec93b): which partition it is is not known here"'
SBAT_ADD_HISTORY="$FIXTURES_SRC/../../data/sbat-level-history.txt" SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "with the shipped history, a refusal says when the row was published and why" \
	'has_line "Boot0002 fedora: stage 2 \\EFI\\FEDORA\\grubx64.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800; since SbatLevel 2025021800: GRUB flaws disclosed in February 2025); install one with grub,5 or later [shim starts it itself: .sbat required]"'
expect "Windows Boot Manager is not governed by SBAT; an inactive option is skipped" \
	'has_line "Boot0000 Windows Boot Manager: stage 1 \\EFI\\Microsoft\\Boot\\bootmgfw.efi: not governed by SBAT: the firmware starts it, not shim" &&
	 has_line "Boot0003 old entry: inactive: the firmware skips it"'
expect "the removable-media fallback: its grub has no .sbat, which shim refuses" \
	'has_line "removable media fallback: stage 2 \\EFI\\BOOT\\grubx64.efi: refused: no .sbat, which shim requires of what it starts itself [shim starts it itself: .sbat required]"'

SBAT_ADD_EFIVARFS="$T/no-such-efivarfs" run --check-level next --esp "$ESP"
expect "no efivarfs: the boot paths are not known, exit 6 (not an empty report and exit 0)" \
	'[ "$RC" -eq 6 ] && [ -z "$OUT" ] && [[ "$ERR" == "sbat-add: $T/no-such-efivarfs: no UEFI variables:"* ]]'
mkdir -p -- "$T/efivars-bare"
SBAT_ADD_EFIVARFS="$T/efivars-bare" run --check-level next --no-signatures
expect "neither BootOrder nor BootNext, and no --esp: the default path is not known, exit 8; the removable-media name is this build's, and that is said" \
	'[ "$RC" -eq 8 ] && [[ "$OUT" == *"BootOrder [default]: cannot be followed: neither BootOrder nor BootNext is set, so the firmware makes boot options of its own and starts \\EFI\\BOOT\\BOOT"*".EFI of the first device that holds it (give --esp DIR)"* ]] &&
	 has_line "  the removable-media path is taken as this build'"'"'s machine'"'"'s: without --esp nothing tells the firmware'"'"'s machine"'
cp -- "$EV"/Boot0001-* "$EV"/BootOrder-* "$T/efivars-bare/"
SBAT_ADD_EFIVARFS="$T/efivars-bare" run --check-level next --no-signatures --esp "$ESP"
expect "no SecureBoot variable: shim's stage is not known (not taken as Secure Boot off, where nothing is refused), exit 8" \
	'[ "$RC" -eq 8 ] && has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: cannot be followed: shim'"'"'s inputs do not read (see above)" &&
	 [[ "$ERR" == *"no SecureBoot variable: whether shim checks SBAT at the next boot is not known"* ]]'

# next:SHIM without IMAGE: the whole walk with the shim about to be installed
printf 'sbat,1,2026010100\nshim,4\ngrub,6\n' >"$T/grub6-level.txt"
AUTOMATIC="$T/grub6-level.txt" LATEST="$T/grub6-level.txt" make_shim "$T/new-shim.efi"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$T/new-shim.efi" --no-signatures --esp "$ESP"
expect "next:SHIM without IMAGE: every path is walked with SHIM as the shim the firmware starts (a package update): its level revokes the default path's grub,5 (exit 4)" \
	'[ "$RC" -eq 4 ] && has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: boots: shim (judged as the shim given to next:), next boot enforces SbatLevel 2026010100" &&
	 has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\grubx64.efi: refused: grub,5 is below grub,6 (SbatLevel 2026010100); install one with grub,6 or later [shim starts it itself: .sbat required]"'
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$T/new-shim.efi" "$ESP/EFI/debian/grubx64.efi"
expect "... and with an IMAGE, that image alone is judged: one line, for it, and no boot path (exit 4)" \
	'[ "$RC" -eq 4 ] && [ "$OUT" = "$ESP/EFI/debian/grubx64.efi: next boot: revoked: grub,5 is below grub,6 (SbatLevel 2026010100)" ]'
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$T/new-shim.efi" --esp "$ESP" "$ESP/EFI/debian/grubx64.efi"
expect "... and --esp with an IMAGE is refused, by a message that says the IMAGE is judged alone; nothing on stdout (exit 2)" \
	'[ "$RC" -eq 2 ] && [ -z "$OUT" ] &&
	 [ "$(head -n 1 "$T/err")" = "sbat-add: --esp goes with --check-level next without IMAGEs: next:SHIM with IMAGEs judges those images alone" ]'

# one judge: a .sbat vendor field with a byte that is not ASCII (shim reads it)
cp -- "$ESP/EFI/debian/grubx64.efi" "$T/grub5.saved"
off=$(LC_ALL=C grep -obUa -m1 -- 'Free Software' "$ESP/EFI/debian/grubx64.efi" | head -n1 | cut -d: -f1)
printf '\351' | dd of="$ESP/EFI/debian/grubx64.efi" bs=1 seek="$off" conv=notrunc status=none
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
walk_rc=$RC walk_out=$OUT
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$ESP/EFI/debian/shimx64.efi" "$ESP/EFI/debian/grubx64.efi"
expect "a GRUB whose .sbat vendor field holds the byte 0xE9: judged as shim parses it, alike by the walk (stage 2 boots) and by next:SHIM IMAGE (allowed)" \
	'[ -n "$off" ] && [ "$RC" -eq 0 ] &&
	 printf "%s\n" "$walk_out" | grep -qxF "Boot0001 debian [default]: stage 2 \\EFI\\debian\\grubx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required]"'
cp -- "$T/grub5.saved" "$ESP/EFI/debian/grubx64.efi"

# the stored SbatLevel, kept (its datestamp is newer than shim's payloads), read as shim reads it
LV="$EV/SbatLevelRT-$SHIM_GUID"
cp -- "$LV" "$T/level.saved"
printf '\7\0\0\0sbat,1,2099010100\rshim,05\r' >"$LV"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "a stored level that revokes shim's own row (shim,05 after a lone CR, as shim reads it): every path through that shim is refused at shim, none goes on to its second stage (exit 4)" \
	'[ "$RC" -eq 4 ] &&
	 has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: refused: shim, SbatLevel 2099010100 revokes shim itself, so it stops the machine" &&
	 has_line "Boot0002 fedora: stage 1 \\EFI\\FEDORA\\SHIMX64.EFI: refused: shim, SbatLevel 2099010100 revokes shim itself, so it stops the machine" &&
	 ! printf "%s\n" "$OUT" | grep -q "stage 2 .*grubx64.efi"'
printf '\7\0\0\0sbat,1,2099010100\r\rshim,04,x,y\ngrub,+9\n\n\0grub,5\n' >"$LV"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "a stored level shim reads (lone CRs, a 4th field, shim,04, grub,+9 as 0, a row behind a NUL): shim goes on; the first grub row, grub,+9, is 0 and revokes no grub (grub,5, read behind the NUL, comes after it)" \
	'has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: boots: shim, next boot enforces SbatLevel 2099010100" &&
	 has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\grubx64.efi: boots: not revoked by SbatLevel 2099010100 [shim starts it itself: .sbat required]" &&
	 has_line "Boot0002 fedora: stage 2 \\EFI\\FEDORA\\grubx64.efi: boots: not revoked by SbatLevel 2099010100 [shim starts it itself: .sbat required]"'
printf '\7\0\0\0sbat,1,2099010100\nshim,\n' >"$LV"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "a stored level kept but that shim cannot parse (an empty generation): shim stops, every path through it is refused at stage 1 (exit 4), not an error" \
	'[ "$RC" -eq 4 ] &&
	 has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: refused: shim cannot parse the stored SbatLevel, so it stops the machine" &&
	 has_line "Boot0002 fedora: stage 1 \\EFI\\FEDORA\\SHIMX64.EFI: refused: shim cannot parse the stored SbatLevel, so it stops the machine"'
cp -- "$T/level.saved" "$LV"

order "$EV" BootNext 0002
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "BootNext is the default path: refused is exit 4, and it is listed once" \
	'[ "$RC" -eq 4 ] && has_line "Boot0002 fedora [default]: stage 1 \\EFI\\FEDORA\\SHIMX64.EFI: boots: shim, next boot enforces SbatLevel 2025021800" &&
	 [ "$(printf "%s\n" "$OUT" | grep -c "^Boot0002")" -eq 2 ]'
rm -f -- "$EV/BootNext-$EFI_GUID"

bootvar "$EV" 0001 1 debian '\EFI\debian\shimx64.efi' 'fedora.efi'
cp -- "$ESP/EFI/fedora/grubx64.efi" "$ESP/EFI/debian/fedora.efi"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "optional data names the second stage, relative to shim's directory" \
	'[ "$RC" -eq 4 ] && has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\fedora.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800); install one with grub,5 or later [shim starts it itself: .sbat required]"'
bootvar "$EV" 0001 1 debian '\EFI\debian\shimx64.efi' '  fedora.efi --verbose'
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "shim skips leading spaces and cuts its second stage at the first space" \
	'[ "$RC" -eq 4 ] && has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\fedora.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800); install one with grub,5 or later [shim starts it itself: .sbat required]"'
bootvar "$EV" 0001 1 debian '\EFI\debian\shimx64.efi' '\efi\other\fedora.efi'
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "a second stage not under \\EFI\\ (in that case) is its last component next to shim" \
	'[ "$RC" -eq 4 ] && has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\fedora.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800); install one with grub,5 or later [shim starts it itself: .sbat required]"'
bootvar "$EV" 0001 1 debian '\EFI\debian\shimx64.efi' 'vmlinuz'
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "shim needs no .efi; a second stage it does not find makes shim start its default loader (init_grub: EFI_NOT_FOUND)" \
	'[ "$RC" -eq 8 ] && has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\vmlinuz: skipped: missing under $ESP, so shim'"'"'s start_image fails and shim starts its default loader \\EFI\\debian\\grubx64.efi instead" &&
	 has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\grubx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required]"'
bootvar "$EV" 0001 1 debian '\EFI\debian\shimx64.efi' "$(printf 'fe\tdora.efi')"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "optional data that is no path cannot be followed" \
	'[ "$RC" -eq 8 ] && has_line "Boot0001 debian [default]: stage 2 (its load options): cannot be followed: shim'"'"'s load options name no path it can open: control character in CHAR16 text in the optional data"'
bootvar "$EV" 0001 1 debian '\EFI\debian\shimx64.efi'

rm -f -- "$ESP/EFI/debian/grubx64.efi"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "a missing second stage cannot be followed, and does not make the path refused: the default path is unknown, exit 8" \
	'[ "$RC" -eq 8 ] && has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\grubx64.efi: cannot be followed: missing under $ESP"'
grub "$ESP/EFI/debian/grubx64.efi" 5

printf '\0\0\0\0\0' >"$ESP/EFI/debian/notashim.efi"
bootvar "$EV" 0004 1 loop '\EFI\debian\..\debian\shimx64.efi'
order "$EV" BootOrder 0004 0001
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "a Boot#### path with a .. component opens as EDK2 opens it (.. goes up), and so does the second stage shim names from it; GRUB's own files with .. are not followed" \
	'has_line "Boot0004 loop [default]: stage 1 \\EFI\\debian\\..\\debian\\shimx64.efi: boots: shim, next boot enforces SbatLevel 2025021800" &&
	 has_line "Boot0004 loop [default]: stage 2 \\EFI\\debian\\..\\debian\\grubx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required]" &&
	 has_line "Boot0004 loop [default]: stage 3 \\EFI\\debian\\..\\debian\\grub.cfg: cannot be followed: has a . or .. component: GRUB finds no grub.cfg next to it" && [ "$RC" -eq 8 ]'

# ------------------------------------------------------------ JSON

if command -v python3 >/dev/null; then
	order "$EV" BootOrder 0001 0002 0000 0003
	SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP" --json
	printf '%s' "$OUT" >"$T/out.json"
	expect "--json: schema 1, one object per stage, the default marked, the exit status" \
		'[ "$RC" -eq 8 ] && python3 -c "
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
assert d[\"default_refused\"] is False and d[\"other_refused\"] is True and d[\"exit_status\"] == 8, d
assert d[\"default_unknown\"] is True and d[\"other_unknown\"] is False, d
" "$T/out.json"'
	SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP" --json
	printf '%s' "$OUT" >"$T/sig.json"
	expect "--json, signatures judged by default: without db and dbx in efivarfs the firmware's check of a first stage is not known, and each stage says so" \
		'[ "$RC" -eq 8 ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
first = d[\"stages\"][0]
assert first[\"verdict\"] == \"unknown\" and first[\"reason\"] == \"signature\", first
assert first[\"signature_verdict\"] == \"unknown\" and first[\"signature\"] == \"db or dbx does not read here\", first
assert any(n[\"kind\"] == \"assumed\" and \"RSA\" in n[\"text\"] for n in d[\"notes\"]), d[\"notes\"]
" "$T/sig.json"'
else
	skip "JSON checks" "no python3"
	skip "--json, signatures judged by default" "no python3"
fi

printf 'an SBAT update shim 16 does not read\n' >"$ESP/EFI/debian/revocations.efi"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "fwupd's revocations.efi beside a shim that reads revocations_sbat.efi: shim's line says the update it carries will not be applied" \
	'has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: boots: shim, next boot enforces SbatLevel 2025021800; revocations.efi beside it is not read (this shim reads revocations_sbat.efi): the SBAT update it carries will not be applied" &&
	 has_line "Boot0002 fedora: stage 1 \\EFI\\FEDORA\\SHIMX64.EFI: boots: shim, next boot enforces SbatLevel 2025021800"'
if command -v python3 >/dev/null; then
	SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP" --json
	printf '%s' "$OUT" >"$T/rev.json"
	expect "... --json: the stage's revocations_ignored names the file" 'python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))[\"stages\"]
first = [x for x in s if x[\"entry\"].startswith(\"Boot0001\") and x[\"stage\"] == 1][0]
assert first[\"revocations_ignored\"] == sys.argv[2], first
assert all(\"revocations_ignored\" not in x for x in s if not x[\"entry\"].startswith(\"Boot0001\")), s
" "$T/rev.json" "$ESP/EFI/debian/revocations.efi"'
else
	skip "... --json: the stage's revocations_ignored names the file" "no python3"
fi
rm -f -- "$ESP/EFI/debian/revocations.efi"

# ------------------------------------------------------------ signatures, judged by default
SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP"
expect "signatures judged by default: without db and dbx in efivarfs a first stage is not known, never boots (exit 8), and the SBAT words follow" \
	'[ "$RC" -eq 8 ] && has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: cannot be followed: signature: db or dbx does not read here [SBAT: boots: shim, next boot enforces SbatLevel 2025021800]" &&
	 ! printf "%s\n" "$OUT" | grep -q "^[^[]*: boots: " && [[ "$OUT" == *"  signatures: every RSA signature is verified"* ]]'
SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP" --no-signatures
expect "--no-signatures: SBAT alone, and a note says the signatures were not judged" \
	'[ "$RC" -eq 8 ] && has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: boots: shim, next boot enforces SbatLevel 2025021800" &&
	 has_line "  signatures: not judged: each verdict is the SBAT gate'"'"'s; the firmware and shim must also accept each image'"'"'s signature"'
SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP" --signatures
expect "--signatures is the default, still taken" \
	'[ "$RC" -eq 8 ] && has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: cannot be followed: signature: db or dbx does not read here [SBAT: boots: shim, next boot enforces SbatLevel 2025021800]"'
expect "--signatures: a stage SBAT refuses whose signature is not known says so, not that it was accepted" \
	'has_line "Boot0002 fedora: stage 2 \\EFI\\FEDORA\\grubx64.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800); install one with grub,5 or later [signature not known: db or dbx does not read here] [shim starts it itself: .sbat required]" &&
	 ! grep -qF "[signature accepted: db or dbx" "$T/out"'
run --check-level next --esp "$ESP" --signatures --no-signatures
expect "--signatures and --no-signatures together: a usage error" \
	'[ "$RC" -eq 2 ] && err_has "--no-signatures contradicts --signatures and --pending"'
run --check-level next --esp "$ESP" --no-signatures --pending dbx="$T/no-such-update.bin"
expect "--pending with --no-signatures: a usage error (a pending update is judged by the signature gate)" \
	'[ "$RC" -eq 2 ] && err_has "--no-signatures contradicts --signatures and --pending"'
run --check-level running --no-signatures "$ESP/EFI/debian/grubx64.efi"
expect "--no-signatures goes with next only" '[ "$RC" -eq 2 ] && err_has "--no-signatures goes with --check-level next"'
SV="$T/efivars-sig"
rm -rf -- "$SV"
cp -R -- "$EV" "$SV"
SHIM_HASH=$("$SBAT_ADD" --print --json "$ESP/EFI/debian/shimx64.efi" 2>/dev/null |
	sed -n 's/.*"authenticode_sha256": *"\([0-9a-f]\{64\}\)".*/\1/p')
sha256_var "$SV/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f"
sha256_var "$SV/dbx-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$SHIM_HASH"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "by default, a shim whose hash dbx holds is refused (exit 4), though SBAT alone lets it boot" \
	'[ "$RC" -eq 4 ] && [ ${#SHIM_HASH} -eq 64 ] && has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: refused: signature: its hash is in dbx"'
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP" --no-signatures
expect "the same with --no-signatures: the SBAT gate alone says it boots" \
	'[ "$RC" -eq 8 ] && has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: boots: shim, next boot enforces SbatLevel 2025021800"'
# EDK2 hashes an unsigned image by each algorithm it has (SHA-1, SHA-256, SHA-384, SHA-512) and looks each up in
# dbx: shim's SHA-384 or SHA-512 there refuses it, though db holds its SHA-256. The digests are those osslsigncode
# signs (the signed copy hashes as the unsigned shim: its SHA-256 is the same).
for alg in sha384 sha512; do
	name=SHA-${alg#sha}
	other=
	if command -v osslsigncode >/dev/null 2>&1 &&
		openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj /CN=Digest -keyout "$T/digest.key" \
			-out "$T/digest.pem" >/dev/null 2>&1 &&
		osslsigncode sign -h "$alg" -certs "$T/digest.pem" -key "$T/digest.key" \
			-in "$ESP/EFI/debian/shimx64.efi" -out "$T/shim-$alg.efi" >/dev/null 2>&1; then
		other=$("$SBAT_ADD" --print --json "$T/shim-$alg.efi" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["signatures"][0]["image_digest"] if d["authenticode_sha256"] == sys.argv[1] else "")' "$SHIM_HASH")
	fi
	if [ -z "$other" ]; then
		skip "an unsigned shim whose $name hash dbx holds is refused" "no osslsigncode"
		continue
	fi
	sha256_var "$SV/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$SHIM_HASH"
	digest_var "$SV/dbx-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$alg" "$other"
	SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
	expect "an unsigned shim whose $name hash dbx holds is refused (EDK2 hashes it by each algorithm it has)" \
		'[ "$RC" -eq 4 ] && has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: refused: signature: its $name hash is in dbx"'
	SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP" --json
	printf '%s' "$OUT" >"$T/hash-$alg.json"
	expect "... --json: signature_hash $name" 'python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))[\"stages\"]
g = [x for x in s if x[\"entry\"].startswith(\"Boot0001\") and x[\"stage\"] == 1][0]
assert g[\"signature_reason\"] == \"hash-forbidden\" and g[\"signature_hash\"] == sys.argv[2], g
" "$T/hash-$alg.json" "$name"'
done
# MokIgnoreDB (shim's mirror of MokDBState, after mokutil --ignore-db): shim no longer trusts db, the firmware still does
GRUB_HASH=$("$SBAT_ADD" --print --json "$ESP/EFI/debian/grubx64.efi" 2>/dev/null |
	sed -n 's/.*"authenticode_sha256": *"\([0-9a-f]\{64\}\)".*/\1/p')
sha256_var "$SV/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$SHIM_HASH" "$GRUB_HASH"
sha256_var "$SV/dbx-d719b2cb-3d3a-4596-a3bc-dad00e67656f"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "shim and GRUB whose hashes db holds: both accepted" \
	'[ ${#GRUB_HASH} -eq 64 ] && [[ "$OUT" == *"Boot0001 debian [default]: stage 2 \EFI\debian\grubx64.efi: boots: "*"[signature accepted: its hash is in db]"* ]]'
printf '\6\0\0\0\1' >"$SV/MokIgnoreDB-605dab50-e046-4300-abb6-3dd810dd8b23"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "... with MokIgnoreDB 1: the firmware still takes shim by db, shim refuses a GRUB only db allows" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" == *"Boot0001 debian [default]: stage 1 \EFI\debian\shimx64.efi: boots: "*"[signature accepted: its hash is in db]"* ]] &&
	 [[ "$OUT" == *"Boot0001 debian [default]: stage 2 \EFI\debian\grubx64.efi: refused: signature: "* ]]'
# mokutil --use-db writes MokDB (state 1, the password): MokManager asks at the next boot, then clears MokDBState
MOK_DB="$SV/MokDB-605dab50-e046-4300-abb6-3dd810dd8b23"
{ printf '\7\0\0\0'; le32 1; le32 8; printf 'p\0a\0s\0s\0w\0o\0r\0d\0'; head -c 16 /dev/zero; } >"$MOK_DB"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "... and a pending mokutil --use-db (MokDB): said to be pending, not applied: shim still refuses GRUB" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" == *"Boot0001 debian [default]: stage 2 \EFI\debian\grubx64.efi: refused: signature: "* ]] &&
	 [[ "$OUT" == *"MokDB-605dab50-e046-4300-abb6-3dd810dd8b23: mokutil --use-db is pending: "* ]]'
rm -f -- "$SV/MokIgnoreDB-605dab50-e046-4300-abb6-3dd810dd8b23"
{ printf '\7\0\0\0'; le32 0; le32 8; printf 'p\0a\0s\0s\0w\0o\0r\0d\0'; head -c 16 /dev/zero; } >"$MOK_DB"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "... a pending mokutil --ignore-db without MokIgnoreDB: pending, shim still takes GRUB by db" \
	'[[ "$OUT" == *"Boot0001 debian [default]: stage 2 \EFI\debian\grubx64.efi: boots: "*"[signature accepted: its hash is in db]"* ]] &&
	 [[ "$OUT" == *"MokDB-605dab50-e046-4300-abb6-3dd810dd8b23: mokutil --ignore-db is pending: "* ]]'
head -c 20 "$MOK_DB" >"$T/mokdb-short" && mv -- "$T/mokdb-short" "$MOK_DB"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "... a MokDB of another size, which MokManager refuses: no note" '! [[ "$OUT" == *"--ignore-db is pending"* ]]'
rm -f -- "$MOK_DB"
# MokSBStateRT (shim's mirror of MokSBState, after mokutil --disable-validation): shim runs in insecure mode and
# checks neither the signature nor the SBAT of what it starts; the firmware still checks shim
printf '\6\0\0\0\1' >"$SV/MokIgnoreDB-605dab50-e046-4300-abb6-3dd810dd8b23"
printf '\6\0\0\0\1' >"$SV/MokSBStateRT-605dab50-e046-4300-abb6-3dd810dd8b23"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "... with MokSBStateRT 1 too: shim in insecure mode starts the GRUB whose signature it would refuse" \
	'[[ "$OUT" == *"Boot0001 debian [default]: stage 1 \EFI\debian\shimx64.efi: boots: "*"[signature accepted: its hash is in db]"* ]] &&
	 [[ "$OUT" == *"Boot0001 debian [default]: stage 2 \EFI\debian\grubx64.efi: boots: shim runs in insecure mode (MokSBState), so it checks no SBAT [signature accepted: shim runs in insecure mode, so it checks no signature]"* ]]'
rm -f -- "$SV/MokIgnoreDB-605dab50-e046-4300-abb6-3dd810dd8b23"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP" --no-signatures
expect "... and a GRUB SBAT revokes: shim in insecure mode checks no SBAT, the path boots" \
	'has_line "Boot0002 fedora: stage 2 \\EFI\\FEDORA\\grubx64.efi: boots: shim runs in insecure mode (MokSBState), so it checks no SBAT [shim starts it itself: .sbat required]" &&
	 has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: boots: shim, next boot enforces SbatLevel 2025021800"'
printf '\6\0\0\0\0' >"$SV/MokSBStateRT-605dab50-e046-4300-abb6-3dd810dd8b23"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP" --no-signatures
expect "... MokSBStateRT 0: shim checks SBAT again" \
	'has_line "Boot0002 fedora: stage 2 \\EFI\\FEDORA\\grubx64.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800); install one with grub,5 or later [shim starts it itself: .sbat required]"'
rm -f -- "$SV/MokSBStateRT-605dab50-e046-4300-abb6-3dd810dd8b23"
# mokutil --disable-validation writes MokSB (state 0, then the password's length and 16 CHAR16); MokManager asks for
# the password at the next boot and only then sets MokSBState: until then shim checks as before
MOK_SB="$SV/MokSB-605dab50-e046-4300-abb6-3dd810dd8b23"
{ printf '\7\0\0\0'; le32 0; le32 8; printf 'p\0a\0s\0s\0w\0o\0r\0d\0'; head -c 16 /dev/zero; } >"$MOK_SB"
printf '\6\0\0\0\1' >"$SV/MokIgnoreDB-605dab50-e046-4300-abb6-3dd810dd8b23"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "a pending mokutil --disable-validation (MokSB): said to be pending, not applied: shim still refuses GRUB" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" == *"Boot0001 debian [default]: stage 2 \EFI\debian\grubx64.efi: refused: signature: "* ]] &&
	 [[ "$OUT" == *"MokSB-605dab50-e046-4300-abb6-3dd810dd8b23: mokutil --disable-validation is pending: "* ]]'
expect "... with MokIgnoreDB 1 and GRUB's hash in db alone: the reason says shim ignores db" \
	'[[ "$OUT" == *"Boot0001 debian [default]: stage 2 \EFI\debian\grubx64.efi: refused: signature: its hash is in db, which shim ignores (MokIgnoreDB, set by mokutil --ignore-db)"* ]]'
{ printf '\7\0\0\0'; le32 1; le32 8; printf 'p\0a\0s\0s\0w\0o\0r\0d\0'; head -c 16 /dev/zero; } >"$MOK_SB"
printf '\6\0\0\0\1' >"$SV/MokSBStateRT-605dab50-e046-4300-abb6-3dd810dd8b23"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "... a pending --enable-validation in insecure mode: pending too, shim still runs in insecure mode" \
	'[[ "$OUT" == *"Boot0001 debian [default]: stage 2 \EFI\debian\grubx64.efi: boots: shim runs in insecure mode"* ]] &&
	 [[ "$OUT" == *"MokSB-605dab50-e046-4300-abb6-3dd810dd8b23: mokutil --enable-validation is pending: "* ]]'
rm -f -- "$MOK_SB" "$SV/MokIgnoreDB-605dab50-e046-4300-abb6-3dd810dd8b23" "$SV/MokSBStateRT-605dab50-e046-4300-abb6-3dd810dd8b23"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "... no MokSB: no such note" '! [[ "$OUT" == *"is pending: "* ]]'
# shim's check reads the variable MokListRT alone (check_allowlist: get_variable), not the pieces MokListRT1..N it
# mirrors for the OS when the list is too large for one variable
MOK_RT="$SV/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23"
MOK_RT1="$SV/MokListRT1-605dab50-e046-4300-abb6-3dd810dd8b23"
sha256_var "$SV/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$SHIM_HASH"
sha256_var "$MOK_RT" "$SHIM_HASH"
sha256_var "$MOK_RT1" "$GRUB_HASH"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "GRUB's hash only in MokListRT1, a piece shim mirrors for the OS: shim's own check does not read it, GRUB is refused" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" == *"Boot0001 debian [default]: stage 2 \EFI\debian\grubx64.efi: refused: signature: "* ]]'
sha256_var "$MOK_RT" "$SHIM_HASH" "$GRUB_HASH"
sha256_var "$MOK_RT1" "$SHIM_HASH"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "... in MokListRT itself: accepted" \
	'[[ "$OUT" == *"Boot0001 debian [default]: stage 2 \EFI\debian\grubx64.efi: boots: "*"[signature accepted: its hash is in MokListRT]"* ]]'
# --pending MokList=FILE: what MokManager enrolls after mokutil --import, appended as given: shim's MokListRT of
# the next boot holds it, and GRUB's hash there makes it accepted
sha256_var "$MOK_RT" "$SHIM_HASH"
rm -f -- "$MOK_RT1"
sha256_var "$T/grub-hash.var" "$GRUB_HASH"
tail -c +5 "$T/grub-hash.var" >"$T/grub-hash.esl"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP" --pending MokList="$T/grub-hash.esl"
expect "--pending MokList=FILE with GRUB's hash: accepted through MokListRT, the note says MokManager enrolls it" \
	'[[ "$OUT" == *"Boot0001 debian [default]: stage 2 \EFI\debian\grubx64.efi: boots: "*"[signature accepted: its hash is in MokListRT]"* ]] &&
	 [[ "$OUT" == *"pending: $T/grub-hash.esl appended to MokList (1 new entries): MokManager enrolls it as given once mokutil'"'"'s request is confirmed at the next boot"* ]]'
rm -f -- "$MOK_RT" "$MOK_RT1"
sha256_var "$SV/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$SHIM_HASH" "$GRUB_HASH"
# MokPolicy (mirrored to MokPolicyRT, one byte): bit 1 (MOK_POLICY_REQUIRE_NX) makes shim's read_header refuse an
# image whose DllCharacteristics lack NX_COMPAT, before any signature check
MOK_POLICY="$SV/MokPolicyRT-605dab50-e046-4300-abb6-3dd810dd8b23"
printf '\6\0\0\0\1' >"$MOK_POLICY"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "MokPolicyRT 1 and a GRUB that declares NX compatibility: accepted" \
	'[[ "$OUT" == *"Boot0001 debian [default]: stage 2 \EFI\debian\grubx64.efi: boots: "*"[signature accepted: its hash is in db]"* ]]'
cp -- "$ESP/EFI/debian/grubx64.efi" "$T/grub-nx.efi"
DLL_AT=$(($(u32_at "$T/grub-nx.efi" 60) + 24 + 70))
printf '\0\0' | dd of="$ESP/EFI/debian/grubx64.efi" bs=1 seek="$DLL_AT" conv=notrunc 2>/dev/null
GRUB_NONX_HASH=$("$SBAT_ADD" --print --json "$ESP/EFI/debian/grubx64.efi" 2>/dev/null |
	sed -n 's/.*"authenticode_sha256": *"\([0-9a-f]\{64\}\)".*/\1/p')
sha256_var "$SV/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$SHIM_HASH" "$GRUB_NONX_HASH"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "... and a GRUB without NX_COMPAT, its hash in db: shim refuses to load it (exit 4)" \
	'[ "$RC" -eq 4 ] && [ "$GRUB_NONX_HASH" != "$GRUB_HASH" ] &&
	 [[ "$OUT" == *"Boot0001 debian [default]: stage 2 \EFI\debian\grubx64.efi: refused: signature: shim'"'"'s MokPolicy requires NX compatibility"* ]]'
if command -v python3 >/dev/null; then
	SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP" --json
	printf '%s' "$OUT" >"$T/nx.json"
	expect "... --json: signature_reason nx-required" 'python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))[\"stages\"]
g = [x for x in s if x[\"entry\"].startswith(\"Boot0001\") and x[\"stage\"] == 2][0]
assert g[\"verdict\"] == \"refused\" and g[\"signature_reason\"] == \"nx-required\", g
" "$T/nx.json"'
else
	skip "... --json: signature_reason nx-required" "no python3"
fi
printf '\6\0\0\0\0' >"$MOK_POLICY"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "... MokPolicyRT 0: the same GRUB is accepted" \
	'[[ "$OUT" == *"Boot0001 debian [default]: stage 2 \EFI\debian\grubx64.efi: boots: "*"[signature accepted: its hash is in db]"* ]]'
rm -f -- "$MOK_POLICY"
cp -- "$T/grub-nx.efi" "$ESP/EFI/debian/grubx64.efi"
sha256_var "$SV/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$SHIM_HASH" "$GRUB_HASH"
# shim verifies revocations_sbat.efi as an image before taking its payloads: an unsigned one is refused
sha256_var "$SV/dbx-d719b2cb-3d3a-4596-a3bc-dad00e67656f"
cp -- "$FIX/efi-x86_64.efi" "$ESP/EFI/debian/revocations_sbat.efi"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP" --no-signatures
expect "an unsigned revocations_sbat.efi beside shim (db and dbx read): shim's line says shim refuses it and its update is not applied" \
	'has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: boots: shim, next boot enforces SbatLevel 2025021800; revocations_sbat.efi beside it is refused: its signature does not verify for shim (not-allowed), so the SBAT update it carries is not applied"'
if command -v python3 >/dev/null; then
	SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP" --no-signatures --json
	printf '%s' "$OUT" >"$T/revsig.json"
	expect "... --json: the stage's revocations_signature is refused, with the reason" 'python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))[\"stages\"]
first = [x for x in s if x[\"entry\"].startswith(\"Boot0001\") and x[\"stage\"] == 1][0]
assert first[\"revocations_signature\"] == \"refused\" and first[\"revocations_signature_reason\"] == \"not-allowed\", first
" "$T/revsig.json"'
else
	skip "... --json: the stage's revocations_signature is refused" "no python3"
fi
rm -f -- "$ESP/EFI/debian/revocations_sbat.efi"
rm -f -- "$SV"/db-* "$SV"/dbx-*
printf '\7\0\0\0\0' >"$SV/SecureBoot-$EFI_GUID"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --esp "$ESP"
expect "Secure Boot off, no db or dbx: nothing checks a signature, so the stages boot (not unknown for want of db)" \
	'has_line "Boot0001 debian [default]: stage 1 \\EFI\\debian\\shimx64.efi: boots: shim, next boot enforces nothing (Secure Boot off), stores SbatLevel 2021030218 [signature accepted: Secure Boot is off]" &&
	 has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\grubx64.efi: boots: Secure Boot is off, so shim checks no SBAT [signature accepted: Secure Boot is off] [shim starts it itself: .sbat required]" &&
	 [[ "$OUT" != *"does not read here"* ]]'
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
SBAT_ADD_EFIVARFS="$OV" run --check-level next --no-signatures --esp "$OESP"
BOOTED='Boot0002 UEFI QEMU HARDDISK QM00001  [booted this time] [default]'
expect "OVMF's variables: the whole disk that booted (BootCurrent) is followed to \\EFI\\BOOT\\BOOTX64.EFI on --esp, and it is the default" \
	'[ "$RC" -eq 8 ] && has_line "$BOOTED: stage 1 \\EFI\\BOOT\\BOOTX64.EFI: boots: shim, next boot enforces SbatLevel 2025021800" &&
	 has_line "$BOOTED: stage 2 \\EFI\\BOOT\\grubx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required]"'
expect "OVMF's variables: UiApp is an application the boot order never starts, and not the default" \
	'has_line "Boot0000 UiApp: not governed by SBAT: an application (not LOAD_OPTION_CATEGORY_BOOT), started from a menu only"'
expect "OVMF's variables: the DVD ahead of the booted disk had nothing to start, and is not the default" \
	'has_line "Boot0001 UEFI QEMU DVD-ROM QM00005 : stage 1 \\EFI\\BOOT\\BOOTX64.EFI: cannot be followed: the firmware starts \\EFI\\BOOT\\BOOTX64.EFI from this device if it holds one; it did not this boot, which came from Boot0002"'
expect "OVMF's variables: the built-in shell, a file of the firmware's volume, is not governed by SBAT, and the line says the firmware checks no signature of it" \
	'has_line "Boot0003 EFI Internal Shell: not governed by SBAT: a file of the firmware'"'"'s own volume (its shell or another built-in application), which EDK2 starts without a signature check, Secure Boot on or off"'
grub "$OESP/EFI/BOOT/grubx64.efi" 4
SBAT_ADD_EFIVARFS="$OV" run --check-level next --no-signatures --esp "$OESP"
expect "OVMF's variables, grub,4 behind Debian shim 16.1 on the disk that booted: the default path is refused (exit 4)" \
	'[ "$RC" -eq 4 ] && has_line "$BOOTED: stage 2 \\EFI\\BOOT\\grubx64.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800); install one with grub,5 or later [shim starts it itself: .sbat required]"'
# shim run from the removable-media path starts its fallback when it is there
cp -- "$ESP/EFI/debian/grubx64.efi" "$OESP/EFI/BOOT/fbx64.efi"
SBAT_ADD_EFIVARFS="$OV" run --check-level next --no-signatures --esp "$OESP"
expect "shim from \\EFI\\BOOT\\BOOTX64.EFI with fbx64.efi next to it: the second stage is the fallback, judged as shim judges it; without a BOOT CSV it makes no entry, so the path is not known to boot" \
	'[ "$RC" -eq 8 ] && has_line "$BOOTED: stage 2 \\EFI\\BOOT\\fbx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required; shim'"'"'s fallback, run from the removable-media path: it makes boot entries from BOOT*.CSV and starts the first (or resets, with a TPM, and the firmware does)]" &&
	 has_line "$BOOTED: stage 3 \\EFI: cannot be followed: fallback finds no BOOT CSV in \\EFI'"'"'s directories, so it makes no entry and resets"'
mkdir -p -- "$OESP/EFI/debian" "$OESP/EFI/other"
cp -- "$ESP/EFI/debian/shimx64.efi" "$OESP/EFI/debian/shimx64.efi"
grub "$OESP/EFI/debian/grubx64.efi" 4
{ printf '\377\376'; ucs2 "shimx64.efi,debian,,This is the boot entry for debian"; } >"$OESP/EFI/debian/BOOTX64.CSV"
printf 'not a directory\n' >"$OESP/EFI/notes.txt"
SBAT_ADD_EFIVARFS="$OV" run --check-level next --no-signatures --esp "$OESP"
FB='Boot0002 UEFI QEMU HARDDISK QM00001  [booted this time], fallback'"'"'s entry [default]'
expect "the fallback's entry from \\EFI\\debian\\BOOTX64.CSV is judged in the same power-on (shim, then its revoked grub,4: exit 4)" \
	'[ "$RC" -eq 4 ] && has_line "$FB: stage 1 \\EFI\\debian\\shimx64.efi: boots: shim, next boot enforces SbatLevel 2025021800" &&
	 has_line "$FB: stage 2 \\EFI\\debian\\grubx64.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800); install one with grub,5 or later [shim starts it itself: .sbat required]"'
{ printf '\377\376'; ucs2 "shimx64.efi,other,,x"; } >"$OESP/EFI/other/boot.csv"
SBAT_ADD_EFIVARFS="$OV" run --check-level next --no-signatures --esp "$OESP"
expect "two vendor directories with a BOOT CSV: which one fallback reads first is the order on disk, not known (exit 8)" \
	'[ "$RC" -eq 8 ] && has_line "$BOOTED: stage 3 \\EFI: cannot be followed: more than one directory of \\EFI holds a BOOT CSV; which fallback reads first is the order of the directory on disk"'
rm -rf -- "$OESP/EFI/debian" "$OESP/EFI/other" "$OESP/EFI/notes.txt"
SBAT_ADD_EFIVARFS="$OV" run --check-level next --no-signatures
expect "OVMF's variables without --esp: the disk that booted cannot be followed, and the line says why" \
	'[ "$RC" -eq 8 ] && has_line "Boot0002 UEFI QEMU HARDDISK QM00001  [booted this time] [default]: stage 1 \\EFI\\BOOT\\BOOTX64.EFI: cannot be followed: the firmware starts \\EFI\\BOOT\\BOOTX64.EFI from this device; which ESP it holds the variables do not say (--esp is taken for the device this boot came from)"'

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
SBAT_ADD_EFIVARFS="$PV" run --check-level next --no-signatures --esp "$PESP"
expect "no SbatPolicy: a GRUB with grub.proxmox,1 boots under the automatic payload" \
	'[ "$RC" -eq 8 ] && has_line "Boot0001 proxmox [default]: stage 2 \\EFI\\proxmox\\grubx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required]"'
printf '\7\0\0\0\7' >"$PV/SbatPolicy-$SHIM_GUID"
SBAT_ADD_EFIVARFS="$PV" run --check-level next --no-signatures --esp "$PESP"
expect "SbatPolicy 7: shim shows an error and waits for a key, so the path is not known to boot unattended" \
	'[ "$RC" -eq 8 ] && has_line "Boot0001 proxmox [default]: stage 1 \\EFI\\proxmox\\shimx64.efi: cannot be followed: SbatPolicy is not 1, 2 or 3, so shim shows an error and waits for a key press, which an unattended machine does not get; after one it goes on as shim, next boot enforces SbatLevel 2025021800" &&
	 has_line "Boot0001 proxmox [default]: stage 2 \\EFI\\proxmox\\grubx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required]"'
printf '\7\0\0\0\1' >"$PV/SbatPolicy-$SHIM_GUID"
SBAT_ADD_EFIVARFS="$PV" run --check-level next --no-signatures --esp "$PESP"
expect "SbatPolicy latest: refused by the latest payload, and the refusal says that withdrawing the pending request fixes it" \
	'[ "$RC" -eq 4 ] && has_line "Boot0001 proxmox [default]: stage 2 \\EFI\\proxmox\\grubx64.efi: refused: grub.proxmox,1 is below grub.proxmox,2 (SbatLevel 2025051000); install one with grub.proxmox,2 or later; SbatPolicy latest is pending: without it shim'"'"'s automatic level would let it boot (mokutil --set-sbat-policy delete) [shim starts it itself: .sbat required]"'
cp -- "$ESP/EFI/fedora/grubx64.efi" "$PESP/EFI/proxmox/grubx64.efi"
SBAT_ADD_EFIVARFS="$PV" run --check-level next --no-signatures --esp "$PESP"
expect "SbatPolicy latest with a GRUB that the automatic payload revokes too (grub,4): refused, no such hint" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" == *"proxmox"*"refused: grub,4 is below grub,5"* ]] && [[ "$OUT" != *"SbatPolicy latest is pending"* ]]'

# ------------------------------------------------------------ bad input

printf '\7\0\0\0\1\0\0\0\100\0a\0' >"$EV/Boot0004-$EFI_GUID"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "a malformed Boot####: one line naming the variable and the offset; the rest of the report still given" \
	'[[ "$ERR" == *"Boot0004-$EFI_GUID"*"offset"* ]] && has_line "Boot0004: cannot be followed: malformed load option" &&
	 has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\grubx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required]"'

printf '\7\0\0\0\1' >"$EV/BootOrder-$EFI_GUID"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "a BootOrder of odd length: exit 1, naming it and the offset" \
	'[ "$RC" -eq 1 ] && [[ "$ERR" == *"BootOrder-$EFI_GUID"*"odd length for an array of UINT16"* ]]'
order "$EV" BootOrder 0001 $(seq 256 455 | xargs printf '%04X ')
SBAT_ADD_EFIVARFS="$EV" run --check-level next --no-signatures --esp "$ESP"
expect "a BootOrder of 201 numbers: every one followed, not an error (exit 8, as the default path's GRUB has no grub.cfg)" \
	'[ "$RC" -eq 8 ] && has_line "Boot0001 debian [default]: stage 2 \\EFI\\debian\\grubx64.efi: boots: not revoked by SbatLevel 2025021800 [shim starts it itself: .sbat required]" &&
	 has_line "Boot01C7: skipped: no such variable; the firmware goes on to the next option"'
order "$EV" BootOrder 0001

run --check-level next "$ESP/EFI/debian/grubx64.efi"
expect "POLICY next takes no IMAGE" '[ "$RC" -eq 2 ]'
run --check-level running --esp "$ESP" "$ESP/EFI/debian/grubx64.efi"
expect "--esp goes with next only" '[ "$RC" -eq 2 ]'

# ------------------------------------------------------------ stage 3: systemd-boot
# shim -> systemd-boot (the fixture's stand-in: .sdmagic "LoaderInfo:
# systemd-boot", given a .sbat) -> Type #1 entries and UKIs on the ESP.

# sdboot OUT: systemd-boot with a .sbat shim accepts
sdboot() {
	printf '%s\nsystemd-boot,1,The systemd Developers,systemd,257.9,https://systemd.io/\n' "$SBAT_ROW" >"$T/sd.csv"
	rm -f -- "$1"
	"$SBAT_ADD" --file "$FIX/sd-boot.efi" --csv "$T/sd.csv" --output "$1" >/dev/null 2>&1
}
# kernel OUT [GENERATION]: a bzImage; with GENERATION, a .sbat with linux,GENERATION
kernel() {
	rm -f -- "$1"
	if [ -z "${2:-}" ]; then
		cp -- "$FIX/bzimage-new.bin" "$1"
		return
	fi
	printf '%s\nlinux,%s,The Linux Kernel Organization,linux,6.12,https://linux.org\n' "$SBAT_ROW" "$2" >"$T/linux.csv"
	"$SBAT_ADD" --file "$FIX/bzimage-new.bin" --csv "$T/linux.csv" --output "$1" >/dev/null 2>&1
}
# uki OUT FIXTURE: a UKI with systemd-stub's .sbat (FIXTURE uki.efi or uki-kernel-sbat.efi)
uki() {
	printf '%s\nsystemd-stub,1,The systemd Developers,systemd,257.9,https://systemd.io/\n' "$SBAT_ROW" >"$T/stub.csv"
	rm -f -- "$1"
	"$SBAT_ADD" --file "$FIX/$2" --csv "$T/stub.csv" --output "$1" >/dev/null 2>&1
}
# a level newer than shim's payloads, kept by shim, that revokes linux,1
LINUX2='\7\0\0\0sbat,1,2099010100\nshim,4\ngrub,5\nlinux,2\n'

SESP="$T/esp-sd"
mkdir -p -- "$SESP/EFI/debian" "$SESP/EFI/Linux" "$SESP/loader/entries" "$SESP/6.1" "$SESP/6.12"
cp -- "$ESP/EFI/debian/shimx64.efi" "$SESP/EFI/debian/shimx64.efi"
sdboot "$SESP/EFI/debian/grubx64.efi"
kernel "$SESP/6.1/linux"
kernel "$SESP/6.12/linux" 1
printf 'initrd\n' >"$SESP/6.1/initrd.img"
printf 'title Debian GNU/Linux 12, 6.1\nversion 6.1\nlinux /6.1/linux\ninitrd /6.1/initrd.img\n' >"$SESP/loader/entries/debian-6.1.conf"
printf 'title Debian GNU/Linux 12, 6.12\nversion 6.12\nlinux /6.12/linux\n' >"$SESP/loader/entries/debian-6.12.conf"
SV="$T/efivars-sd"
machine "$SV"
bootvar "$SV" 0001 1 debian '\EFI\debian\shimx64.efi'
order "$SV" BootOrder 0001
if [ -s "$SESP/EFI/debian/grubx64.efi" ] && [ -s "$SESP/6.12/linux" ]; then
	ok "made an ESP: shim, systemd-boot as its second stage, Type #1 entries with a kernel without and with a .sbat"
else
	not_ok "made an ESP with systemd-boot"
fi
SD='Boot0001 debian [default]: stage 3'
LOADIMAGE='[systemd-boot starts it with LoadImage, which shim hooks: a missing .sbat passes]'

SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP"
expect "systemd-boot: Type #1 entries, newest first; without loader.conf the first one is the default; a kernel without .sbat boots (shim's LoadImage hook lets it pass)" \
	'[ "$RC" -eq 0 ] && has_line "$SD \\6.12\\linux (entry debian-6.12.conf) [default entry]: boots: not revoked by SbatLevel 2025021800 $LOADIMAGE" &&
	 has_line "$SD \\6.1\\linux (entry debian-6.1.conf): boots: no .sbat, which this check lets pass $LOADIMAGE" &&
	 [ "$(printf "%s\n" "$OUT" | grep -n "stage 3" | head -n 1 | grep -c "6.12")" -eq 1 ]'

order "$SV" BootOrder 0001 0009
SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP" --json
expect "every stage of the default path followed: exit 0; a BootOrder number without its variable and a removable-media path with nothing there are skipped, as the firmware passes over them" \
	'[ "$RC" -eq 0 ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
v = {(x[\"entry\"], x[\"stage\"]): x[\"verdict\"] for x in d[\"stages\"]}
assert v[(\"Boot0009\", 0)] == \"skipped\" and v[(\"removable media fallback\", 1)] == \"skipped\", v
assert not d[\"default_unknown\"] and not d[\"other_unknown\"] and d[\"exit_status\"] == 0, d
" "$T/out"'
order "$SV" BootOrder 0001

# no BootOrder: the firmware makes its own options and starts the removable-media path
NESP="$T/esp-removable"
cp -R -- "$SESP" "$NESP"
mkdir -p -- "$NESP/EFI/BOOT"
cp -- "$SESP/EFI/debian/shimx64.efi" "$NESP/EFI/BOOT/BOOTX64.EFI"
cp -- "$SESP/EFI/debian/grubx64.efi" "$NESP/EFI/BOOT/grubx64.efi"
NV="$T/efivars-no-order"
machine "$NV"
SBAT_ADD_EFIVARFS="$NV" run --check-level next --no-signatures --esp "$NESP"
expect "no BootOrder: the removable-media path is what the firmware starts, the one default path, followed to the kernel (exit 0), and what is taken is said" \
	'[ "$RC" -eq 0 ] && has_line "removable media fallback [default]: stage 1 \\EFI\\BOOT\\BOOTX64.EFI: boots: shim, next boot enforces SbatLevel 2025021800" &&
	 [ "$(printf "%s\n" "$OUT" | grep -c "\[default\]: stage 1")" -eq 1 ] && [[ "$OUT" != *"BootOrder [default]"* ]] &&
	 [[ "$OUT" == *"  no BootOrder"* ]]'
# an arm64 ESP checked by any build: \EFI\BOOT\BOOTAA64.EFI, shim's machine, then grubaa64.efi
set_machine() {
	local pe
	pe=$(od -An -tu4 -j 60 -N 4 -- "$1" | tr -d ' ')
	printf "\\$(printf '%03o' $(($2 & 255)))\\$(printf '%03o' $(($2 >> 8)))" |
		dd of="$1" bs=1 seek=$((pe + 4)) conv=notrunc status=none
}
AESP="$T/esp-arm64"
mkdir -p -- "$AESP/EFI/BOOT"
cp -- "$ESP/EFI/debian/shimx64.efi" "$AESP/EFI/BOOT/BOOTAA64.EFI"
set_machine "$AESP/EFI/BOOT/BOOTAA64.EFI" $((0xaa64))
grub "$AESP/EFI/BOOT/grubaa64.efi" 4
SBAT_ADD_EFIVARFS="$NV" run --check-level next --no-signatures --esp "$AESP"
expect "an arm64 ESP: the firmware starts \\EFI\\BOOT\\BOOTAA64.EFI whatever machine sbat-add was built for, and shim refuses its grub,4 (exit 4)" \
	'[ "$RC" -eq 4 ] && has_line "removable media fallback [default]: stage 1 \\EFI\\BOOT\\BOOTAA64.EFI: boots: shim, next boot enforces SbatLevel 2025021800" &&
	 has_line "removable media fallback [default]: stage 2 \\EFI\\BOOT\\grubaa64.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800); install one with grub,5 or later [shim starts it itself: .sbat required]"'

printf "$LINUX2" >"$SV/SbatLevelRT-$SHIM_GUID"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP"
expect "systemd-boot: the default entry's kernel with a revoked .sbat refuses the default path (exit 4), naming the row and the fix" \
	'[ "$RC" -eq 4 ] && has_line "$SD \\6.12\\linux (entry debian-6.12.conf) [default entry]: refused: linux,1 is below linux,2 (SbatLevel 2099010100); install one with linux,2 or later $LOADIMAGE"'

printf 'timeout 5\n# the old kernel\ndefault debian-6.1.conf\n' >"$SESP/loader/loader.conf"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP" --verbose
expect "systemd-boot: loader.conf's default pattern marks its entry; the revoked kernel of another entry is another path refused (exit 7); --verbose says what chose it" \
	'[ "$RC" -eq 7 ] && has_line "$SD \\6.1\\linux (entry debian-6.1.conf) [default entry]: boots: no .sbat, which this check lets pass $LOADIMAGE" &&
	 has_line "$SD \\6.12\\linux (entry debian-6.12.conf): refused: linux,1 is below linux,2 (SbatLevel 2099010100); install one with linux,2 or later $LOADIMAGE" &&
	 has_line "  Boot0001 debian: systemd-boot default entry: loader.conf'"'"'s default \"debian-6.1.conf\" (line 3)"'

printf '\7\0\0\0d\0e\0b\0i\0a\0n\0-\0\066\0.\0\061\0\062\0*\0\0\0' >"$SV/LoaderEntryOneShot-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP" --verbose
expect "systemd-boot: LoaderEntryOneShot wins over loader.conf for the next boot (exit 4)" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" == *"(entry debian-6.12.conf) [default entry]: refused"* ]] &&
	 has_line "  Boot0001 debian: systemd-boot default entry: the variable LoaderEntryOneShot \"debian-6.12*\" (this boot only)"'
if command -v python3 >/dev/null; then
	SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP" --json
	printf '%s' "$OUT" >"$T/oneshot.json"
	expect "systemd-boot --json: what chose the default entry is a code, LoaderEntryOneShot told apart from loader.conf without reading English (default_code, default_value, gate)" \
		'[ "$RC" -eq 4 ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
s3 = [x for x in d[\"stages\"] if x[\"stage\"] == 3]
assert s3 and all(x[\"default_code\"] == \"oneshot\" and x[\"default_value\"] == \"debian-6.12*\" for x in s3), s3
refused = [x for x in s3 if x[\"verdict\"] == \"refused\"]
assert refused and all(x[\"gate\"] == \"sbat\" and x[\"menu_why\"] is None for x in refused), refused
assert all(\"gate\" in x and \"signature_reason\" in x for x in d[\"stages\"]), d
" "$T/oneshot.json"'
	rm -f -- "$SV/LoaderEntryOneShot-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
	SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP" --json
	printf '%s' "$OUT" >"$T/conf.json"
	expect "systemd-boot --json: without it the code says loader.conf's default chose the entry" \
		'python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
s3 = [x for x in d[\"stages\"] if x[\"stage\"] == 3]
assert s3 and all(x[\"default_code\"] == \"conf-default\" and x[\"default_value\"] == \"debian-6.1.conf\" for x in s3), s3
" "$T/conf.json"'
else
	skip "systemd-boot: the default entry's code in --json" "no python3"
fi
rm -f -- "$SV/LoaderEntryOneShot-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"

printf 'timeout menu-force\ndefault debian-6.1.conf\n' >"$SESP/loader/loader.conf"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP"
expect "systemd-boot: with timeout menu-force no entry starts by itself (a line says so), so any refused kernel refuses the path" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" != *"[default entry]"* ]] && [[ "$OUT" == *"(entry debian-6.12.conf): refused"* ]] &&
	 has_line "  Boot0001 debian: systemd-boot default entry: none: the menu waits for a key (timeout menu-force)"'
if command -v python3 >/dev/null; then
	SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP" --json
	printf '%s' "$OUT" >"$T/sd.json"
	expect "systemd-boot: --json gives the stage-3 keys (loader, menu_entry, default_entry, default_by, rule, config)" \
		'[ "$RC" -eq 4 ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
s3 = [x for x in d[\"stages\"] if x[\"stage\"] == 3]
assert [x[\"menu_entry\"] for x in s3] == [\"entry debian-6.12.conf\", \"entry debian-6.1.conf\"], s3
assert all(x[\"loader\"] == \"systemd-boot\" and x[\"default_entry\"] is False for x in s3), s3
assert all(x[\"default_by\"] == \"none: the menu waits for a key (timeout menu-force)\" for x in s3), s3
assert [x[\"rule\"] for x in s3] == [\"loadimage-hook\", \"loadimage-hook\"], s3
assert s3[0][\"verdict\"] == \"refused\" and s3[1][\"verdict\"] == \"boots\", s3
assert s3[0][\"config\"].endswith(\"/loader/entries/debian-6.12.conf:3\") and s3[0][\"more_entries\"] == 0, s3
assert d[\"default_refused\"] is True and d[\"exit_status\"] == 4, d
" "$T/sd.json"'
else
	skip "systemd-boot: the stage-3 JSON keys" "no python3"
fi
printf 'timeout 5\ndefault debian-6.1.conf\n' >"$SESP/loader/loader.conf"

# Type #2: UKIs under \EFI\Linux, named by their .osrel; systemd-stub hands
# the kernel in .linux to LoadImage too, and shim checks its .sbat
uki "$SESP/EFI/Linux/debian-uki.efi" uki.efi
uki "$SESP/EFI/Linux/debian-uki-linux1.efi" uki-kernel-sbat.efi
cp -- "$FIX/efi-x86_64.efi" "$SESP/EFI/Linux/no-osrel.efi"
rm -f -- "$SESP/6.12/linux"
printf "$LINUX2" >"$SV/SbatLevelRT-$SHIM_GUID"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP"
expect "systemd-boot: UKIs (type #2) boot when their .sbat passes; one whose own kernel carries a revoked .sbat is refused; a UKI without .osrel and an entry whose kernel is missing are left out, refusing nothing" \
	'[ "$RC" -eq 7 ] && has_line "$SD \\EFI\\Linux\\debian-uki.efi (UKI debian-uki.efi): boots: not revoked by SbatLevel 2099010100 $LOADIMAGE" &&
	 has_line "$SD \\EFI\\Linux\\debian-uki-linux1.efi (UKI debian-uki-linux1.efi): refused: the kernel in its .linux section: linux,1 is below linux,2 (SbatLevel 2099010100); install one with linux,2 or later $LOADIMAGE" &&
	 has_line "$SD \\EFI\\Linux\\no-osrel.efi (UKI no-osrel.efi): skipped: no .osrel section, so systemd-boot does not list it" &&
	 has_line "$SD \\6.12\\linux (entry debian-6.12.conf): skipped: \\6.12\\linux is missing, so systemd-boot leaves the entry out of its menu" &&
	 has_line "$SD \\6.1\\linux (entry debian-6.1.conf) [default entry]: boots: no .sbat, which this check lets pass $LOADIMAGE"'
rm -f -- "$SESP/EFI/Linux/"*.efi
kernel "$SESP/6.12/linux" 1

# the XBOOTLDR partition: its entries join the ESP's in one menu
XB="$T/xbootldr"
mkdir -p -- "$XB/loader/entries" "$XB/7.0"
kernel "$XB/7.0/linux" 1
printf 'title Debian 13\nversion 7.0\nlinux /7.0/linux\n' >"$XB/loader/entries/debian-7.0.conf"
printf 'timeout 5\ndefault debian-7*\n' >"$SESP/loader/loader.conf"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP" --xbootldr "$XB"
expect "systemd-boot: --xbootldr adds that partition's entries (marked), and the default pattern can pick one (exit 4)" \
	'[ "$RC" -eq 4 ] && has_line "$SD \\7.0\\linux (entry debian-7.0.conf on XBOOTLDR) [default entry]: refused: linux,1 is below linux,2 (SbatLevel 2099010100); install one with linux,2 or later $LOADIMAGE"'
SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP"
expect "systemd-boot: without --xbootldr (and with --esp) no XBOOTLDR is read: the pattern matches nothing, the first entry is the default" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" != *"debian-7.0"* ]] && [[ "$OUT" == *"(entry debian-6.12.conf) [default entry]: refused"* ]]'

# bad input: a NUL byte, a key without a value; the rest is still given
printf 'title broken\nversion\nlinux /6.1/linux\0efi /x.efi\n' >"$SESP/loader/entries/broken.conf"
printf 'default debian-6.1.conf\ntimeout soon\n' >"$SESP/loader/loader.conf"
SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP"
expect "systemd-boot: a malformed entry and loader.conf: one line each naming the file and the line; the report still given" \
	'[ "$RC" -eq 7 ] && err_has "$SESP/loader/entries/broken.conf:2: a key without a value: systemd-boot ignores the line" &&
	 err_has "$SESP/loader/entries/broken.conf:3: a NUL byte: systemd-boot reads nothing after it" &&
	 err_has "$SESP/loader/loader.conf:2: a timeout systemd-boot cannot read: ignored" &&
	 has_line "$SD \\6.1\\linux (entry debian-6.1.conf and 1 more) [default entry]: boots: no .sbat, which this check lets pass $LOADIMAGE"'
rm -f -- "$SESP/loader/entries/"*.conf
SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP"
expect "systemd-boot without entries: cannot be followed, so the default path is not known to boot (exit 8), and it is not refused" \
	'[ "$RC" -eq 8 ] && has_line "$SD \\loader\\entries: cannot be followed: systemd-boot finds no entries (no loader/entries/*.conf, no EFI/Linux/*.efi)"'

for i in $(seq 1 300); do printf 'title e%s\nversion 6.1.%s\nlinux /6.1/linux\n' "$i" "$i" >"$SESP/loader/entries/e$i.conf"; done
SBAT_ADD_EFIVARFS="$SV" run --check-level next --no-signatures --esp "$SESP"
expect "systemd-boot with more entries than are read: said, and the menu's default is not known (exit 8), never cut silently" \
	'[ "$RC" -eq 8 ] && has_line "$SD \\loader\\entries: cannot be followed: 44 entries more than the 256 read on a partition, so systemd-boot'"'"'s menu and the entry it starts are not known" &&
	 ! printf "%s\n" "$OUT" | grep -q "default entry\]"'
rm -f -- "$SESP/loader/entries/"*.conf

# ------------------------------------------------------------ stage 3: GRUB
# shim -> GRUB (the fixture's stand-in: a "mods" section, given a .sbat) ->
# the stub grub-install writes next to it -> /boot/grub/grub.cfg as
# grub-mkconfig writes it on Debian 12 (given with --boot) -> kernels.
UUID=7e2c1a32-5b1f-4a8e-9d4e-0c3b2a1f9e88
GESP="$T/esp-grub"
GB="$T/boot"
mkdir -p -- "$GESP/EFI/debian" "$GB/grub"
cp -- "$ESP/EFI/debian/shimx64.efi" "$GESP/EFI/debian/shimx64.efi"
printf '%s\ngrub,5,Free Software Foundation,grub,2.12,https://www.gnu.org/software/grub/\n' "$SBAT_ROW" >"$T/grub5.csv"
"$SBAT_ADD" --file "$FIX/grub-core.efi" --csv "$T/grub5.csv" --output "$GESP/EFI/debian/grubx64.efi" >/dev/null 2>&1
printf "search.fs_uuid %s root hd0,gpt2 \nset prefix=(\$root)'/boot/grub'\nconfigfile \$prefix/grub.cfg\n" "$UUID" >"$GESP/EFI/debian/grub.cfg"
sed "s/7e2c1a32-5b1f-4a8e-9d4e-0c3b2a1f9e88/$UUID/g; s/6.1.0-18-amd64 (recovery mode)/6.1.0-9-amd64/; /recovery-/,/}/s/6.1.0-18-amd64/6.1.0-9-amd64/g" \
	"$FIXTURES_SRC/../fuzz/corpus/bootcfg/grub-debian" >"$GB/grub/grub.cfg"
kernel "$GB/vmlinuz-6.1.0-18-amd64"
kernel "$GB/vmlinuz-6.1.0-9-amd64" 1
printf 'initrd\n' >"$GB/initrd.img-6.1.0-18-amd64"
printf 'initrd\n' >"$GB/initrd.img-6.1.0-9-amd64"
GV="$T/efivars-grub"
machine "$GV"
bootvar "$GV" 0001 1 debian '\EFI\debian\shimx64.efi'
order "$GV" BootOrder 0001
G='Boot0001 debian [default]: stage 3'
SHIMLOCK='[GRUB has shim verify it through the shim_lock protocol: a missing .sbat passes]'
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB" --verbose
expect "GRUB: the ESP's stub hands over to /boot/grub/grub.cfg; its default entry's kernel without .sbat boots (shim_lock lets it pass); --verbose names the files and the default" \
	'[ "$RC" -eq 0 ] && has_line "$G /boot/vmlinuz-6.1.0-18-amd64 (menuentry '"'"'Debian GNU/Linux'"'"' and 1 more) [default entry]: boots: no .sbat, which this check lets pass $SHIMLOCK" &&
	 has_line "$G /boot/vmlinuz-6.1.0-9-amd64 (menuentry '"'"'Advanced options for Debian GNU/Linux>Debian GNU/Linux, with Linux 6.1.0-9-amd64'"'"'): boots: not revoked by SbatLevel 2025021800 $SHIMLOCK" &&
	 has_line "  Boot0001 debian: GRUB menu: \\EFI\\debian\\grub.cfg -> ($UUID)/boot/grub/grub.cfg ($GB/grub/grub.cfg)" &&
	 has_line "  Boot0001 debian: GRUB default entry: set default=\"0\" (line 19)"'

# a GRUB whose shim_lock verifier has the code for shim's image loader protocol
# (its "bad shim loader signature" error) uses it when the shim installs it
cp -- "$GESP/EFI/debian/grubx64.efi" "$T/grub-core.saved"
cp -- "$GESP/EFI/debian/shimx64.efi" "$T/shim-core.saved"
printf 'bad shim loader signature' >>"$GESP/EFI/debian/grubx64.efi"
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB"
expect "GRUB with the loader-protocol code behind a shim without that protocol: shim_lock's Verify is the rule" \
	'[ "$RC" -eq 0 ] && has_line "$G /boot/vmlinuz-6.1.0-18-amd64 (menuentry '"'"'Debian GNU/Linux'"'"' and 1 more) [default entry]: boots: no .sbat, which this check lets pass $SHIMLOCK"'
printf '\101\040\111\037\333\372\131\116\236\127\174\257\347\072\125\253' >>"$GESP/EFI/debian/shimx64.efi"
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB" --json
expect "GRUB with the loader-protocol code behind a shim that installs it (SHIM_IMAGE_LOADER_GUID): the rule is shim's loader protocol, the verdict the same" \
	'[ "$RC" -eq 0 ] && printf "%s" "$OUT" | python3 -c "import json,sys; d=json.load(sys.stdin); s=[x for x in d[\"stages\"] if x[\"stage\"]==3 and x[\"default_entry\"]]; sys.exit(not (s and s[0][\"rule\"]==\"shim-loader\" and s[0][\"verdict\"]==\"boots\"))"'
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB"
expect "... and the line names it" \
	'[ "$RC" -eq 0 ] && has_line "$G /boot/vmlinuz-6.1.0-18-amd64 (menuentry '"'"'Debian GNU/Linux'"'"' and 1 more) [default entry]: boots: no .sbat, which this check lets pass [GRUB has shim load it through shim'"'"'s image loader protocol: a missing .sbat passes]"'
cp -- "$T/grub-core.saved" "$GESP/EFI/debian/grubx64.efi"
cp -- "$T/shim-core.saved" "$GESP/EFI/debian/shimx64.efi"

printf "$LINUX2" >"$GV/SbatLevelRT-$SHIM_GUID"
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB"
expect "GRUB: a revoked kernel in another entry than the default is another path refused (exit 7)" \
	'[ "$RC" -eq 7 ] && has_line "$G /boot/vmlinuz-6.1.0-9-amd64 (menuentry '"'"'Advanced options for Debian GNU/Linux>Debian GNU/Linux, with Linux 6.1.0-9-amd64'"'"'): refused: linux,1 is below linux,2 (SbatLevel 2099010100); install one with linux,2 or later $SHIMLOCK"'

printf '# GRUB Environment Block\nnext_entry=gnulinux-advanced-%s>gnulinux-6.1.0-9-amd64-recovery-%s\n####\n' "$UUID" "$UUID" >"$GB/grub/grubenv"
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB" --verbose
expect "GRUB: grubenv's next_entry (grub-reboot) makes the revoked kernel's entry the default: exit 4" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" == *"6.1.0-9-amd64'"'"') [default entry]: refused: linux,1 is below linux,2"* ]] &&
	 [[ "$OUT" == *"GRUB default entry: grubenv'"'"'s next_entry \"gnulinux-advanced-$UUID>gnulinux-6.1.0-9-amd64-recovery-$UUID\" (this boot only; line 14)"* ]]'
rm -f -- "$GB/grub/grubenv"

rm -f -- "$GB/vmlinuz-6.1.0-9-amd64"
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB"
expect "GRUB: a missing kernel cannot be followed and refuses nothing" \
	'[ "$RC" -eq 9 ] && has_line "$G /boot/vmlinuz-6.1.0-9-amd64 (menuentry '"'"'Advanced options for Debian GNU/Linux>Debian GNU/Linux, with Linux 6.1.0-9-amd64'"'"'): cannot be followed: /boot/vmlinuz-6.1.0-9-amd64 is missing"'

kernel "$GB/vmlinuz-6.1.0-9-amd64" 1
printf 'set timeout=5\nmenuentry "Debian, 6.1.0-9" {\n\tlinux /boot/vmlinuz-6.1.0-9-amd64 ro\n}\nmenuentry "broken {\n\tlinux /boot/vmlinuz-6.1.0-18-amd64\n}\n' >"$GB/grub/grub.cfg"
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB"
expect "GRUB: an unparsable line (a quote never closed) is named with its file and line; what comes before it is still judged (no default set: the first entry)" \
	'[ "$RC" -eq 4 ] && err_has "$GB/grub/grub.cfg:5: a quote that is never closed: GRUB reads nothing after it" &&
	 has_line "$G /boot/vmlinuz-6.1.0-9-amd64 (menuentry '"'"'Debian, 6.1.0-9'"'"') [default entry]: refused: linux,1 is below linux,2 (SbatLevel 2099010100); install one with linux,2 or later $SHIMLOCK" &&
	 [ "$(printf "%s\n" "$OUT" | grep -c "stage 3")" -eq 1 ]'

printf 'menuentry "Debian" {\n\tlinux /boot/vmlinuz-$kver ro\n}\nmenuentry "other disk" {\n\tlinux (hd1,gpt2)/vmlinuz\n}\n' >"$GB/grub/grub.cfg"
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB"
expect "GRUB: kernel paths with unknown variables or firmware disk names cannot be followed; no timeout means GRUB waits, so no default entry" \
	'[ "$RC" -eq 8 ] && has_line "$G /boot/vmlinuz-\$kver (menuentry '"'"'Debian'"'"'): cannot be followed: linux it uses a variable that this file does not set ($GB/grub/grub.cfg:2)" &&
	 has_line "$G (hd1,gpt2)/vmlinuz (menuentry '"'"'other disk'"'"'): cannot be followed: linux a device named by the firmware'"'"'s disk numbering, not by a file-system UUID ($GB/grub/grub.cfg:5)"'

ln -s vmlinuz-6.1.0-18-amd64 "$GB/vmlinuz"
printf 'set timeout=0\nmenuentry "link" {\n\tlinux /boot/vmlinuz\n}\n' >"$GB/grub/grub.cfg"
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB"
expect "GRUB: a kernel that is a symbolic link is not followed" \
	'[ "$RC" -eq 8 ] && has_line "$G /boot/vmlinuz (menuentry '"'"'link'"'"') [default entry]: cannot be followed: /boot/vmlinuz is a symbolic link"'
rm -f -- "$GB/vmlinuz"

printf 'set timeout=0\nif [ "$grub_platform" = efi ]; then\nmenuentry "maybe" {\n\tlinux /boot/vmlinuz-6.1.0-18-amd64\n}\nfi\nif false; then\nmenuentry "never" {\n\tlinux /boot/vmlinuz-never\n}\nfi\nset k=none\nmenuentry "late" {\n\tlinux /boot/vmlinuz-$k\n}\nset k=6.1.0-18-amd64\n' >"$GB/grub/grub.cfg"
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB"
expect "GRUB: an entry under a condition sbat-add cannot know is not known (nor then the default), one under a false one does not count, and a body runs with the variables the whole file leaves" \
	'[ "$RC" -eq 8 ] && has_line "$G /boot/vmlinuz-6.1.0-18-amd64 (menuentry '"'"'maybe'"'"'): cannot be followed: it is inside an if or a loop that sbat-add cannot run, so whether GRUB adds it is not known ($GB/grub/grub.cfg:3)" &&
	 [[ "$OUT" == *"(menuentry '"'"'late'"'"'): boots: "* ]] && [[ "$OUT" != *never* ]]'
printf 'set timeout=0\nset k=6.1.0-9-amd64 j=none\nmenuentry "by variable" {\n\tlinux /boot/vmlinuz-$k\n\tinitrd /boot/initrd.img-$k\n}\nsubmenu "more" {\nmenuentry "device and variable" {\n\tlinux ($root)/boot/vmlinuz-$j\n\tinitrd /boot/initrd.img-$j.gone\n}\n}\nset j=6.1.0-18-amd64\n' >"$GB/grub/grub.cfg"
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB"
expect "GRUB: a kernel named with variables the file sets is named by the file GRUB opens (the path on \$root, or (UUID)path when the word names the device), its missing initrd too" \
	'[ "$RC" -eq 4 ] &&
	 has_line "$G /boot/vmlinuz-6.1.0-9-amd64 (menuentry '"'"'by variable'"'"') [default entry]: refused: linux,1 is below linux,2 (SbatLevel 2099010100); install one with linux,2 or later $SHIMLOCK" &&
	 has_line "$G ($UUID)/boot/vmlinuz-6.1.0-18-amd64 (menuentry '"'"'more>device and variable'"'"'): boots: no .sbat, which this check lets pass $SHIMLOCK (its initrd /boot/initrd.img-6.1.0-18-amd64.gone is missing: GRUB fails to start the entry)" &&
	 [[ "$OUT" != *"\$"* ]]'
printf 'set timeout=0\nconfigfile $prefix/grub.cfg\n' >"$GB/grub/grub.cfg"
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB"
expect "GRUB: a grub.cfg that hands over to itself is a loop, said and not followed" \
	'[ "$RC" -eq 8 ] && has_line "$G ($UUID)/boot/grub/grub.cfg: cannot be followed: a loop: $GB/grub/grub.cfg is read again"'

head -c 1100000 /dev/zero | tr '\0' '#' >"$GB/grub/grub.cfg"
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB"
expect "GRUB: a grub.cfg over 1 MiB is refused with a line naming it; the report is still given" \
	'[ "$RC" -eq 8 ] && [[ "$ERR" == *"$GB/grub/grub.cfg"* ]] &&
	 has_line "$G ($UUID)/boot/grub/grub.cfg: cannot be followed: it cannot be read (see above)"'

SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP"
expect "GRUB without --boot: the file system of the search's UUID is not mounted here, and the line says to give --boot" \
	'[ "$RC" -eq 8 ] && has_line "$G ($UUID)/boot/grub/grub.cfg: cannot be followed: the file system with UUID $UUID is not mounted (give --boot DIR)"'

rm -f -- "$GESP/EFI/debian/grub.cfg"
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP" --boot "$GB"
expect "GRUB without a grub.cfg next to it: cannot be followed, nothing refused" \
	'[ "$RC" -eq 8 ] && has_line "$G \\EFI\\debian\\grub.cfg: cannot be followed: missing: GRUB finds no grub.cfg next to it"'

"$SBAT_ADD" --file "$FIX/efi-x86_64.efi" --csv "$T/sd.csv" --output "$GESP/EFI/debian/other.efi" >/dev/null 2>&1
bootvar "$GV" 0001 1 debian '\EFI\debian\shimx64.efi' 'other.efi'
SBAT_ADD_EFIVARFS="$GV" run --check-level next --no-signatures --esp "$GESP"
expect "a second stage that is neither systemd-boot nor GRUB: stage 3 cannot be followed" \
	'[ "$RC" -eq 8 ] && has_line "$G \\EFI\\debian\\other.efi: cannot be followed: neither systemd-boot nor GRUB, so what it starts next is not known from the files"'

run --check-level running --boot "$GB" "$ESP/EFI/debian/grubx64.efi"
expect "--boot and --xbootldr go with next only" '[ "$RC" -eq 2 ] && err_has "--boot goes with --check-level next"'
run --check-level running --signatures "$ESP/EFI/debian/grubx64.efi"
expect "--signatures goes with next only" '[ "$RC" -eq 2 ] && err_has "--signatures goes with --check-level next"'
run --check-level next --pending dbt="$ESP/EFI/debian/grubx64.efi"
expect "--pending names db, dbx, KEK, PK, MokList or MokListX" '[ "$RC" -eq 2 ] && err_has "--pending VAR is db, dbx, KEK, PK, MokList or MokListX, not '"'"'dbt'"'"'"'
SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP" --pending dbx="$T/no-such-update.bin"
expect "a pending update that does not read: exit 1, naming it" '[ "$RC" -eq 1 ] && err_has "no-such-update.bin"'

# Microsoft's dbx update, signed under the Microsoft Corporation KEK CA 2011: this machine (user mode) has no KEK
UPD="$FIXTURES_SRC/secureboot-updates"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP" --pending dbx="$UPD/DBXUpdate.bin"
expect "a pending dbx update no KEK of the machine signed: not applied, and the note says the firmware would refuse it" \
	'has_line "  pending: $UPD/DBXUpdate.bin not applied to dbx: not signed by any KEK of this machine: the firmware would refuse this update"'
PV="$T/efivars-kek"
rm -rf -- "$PV" && cp -r -- "$EV" "$PV"
{ printf '\7\0\0\0'; printf '\241\131\300\245\344\224\247\112\207\265\253\025\134\053\360\162'
  kek_len=$(wc -c <"$UPD/MicCorKEKCA2011_2011-06-24.der"); le32 $((44 + kek_len)); le32 0; le32 $((16 + kek_len))
  head -c 16 /dev/zero; cat "$UPD/MicCorKEKCA2011_2011-06-24.der"; } >"$PV/KEK-$EFI_GUID"
SBAT_ADD_EFIVARFS="$PV" run --check-level next --esp "$ESP" --pending dbx="$UPD/DBXUpdate.bin"
expect "the same update with Microsoft's KEK CA 2011 in KEK: appended, naming the key" \
	'has_line "  pending: $UPD/DBXUpdate.bin appended to dbx (443 new entries); the firmware takes it: signed under the KEK certificate C=US, O=Microsoft Corporation, CN=Microsoft Corporation KEK CA 2011"'

# A plain signature list (no authentication header): applied as given, and the note says the firmware would not take it so
{ printf '\046\026\304\301\114\120\222\100\254\251\101\371\066\223\103\050'; le32 76; le32 0; le32 48
  head -c 16 /dev/zero; printf '%032d' 7; } >"$T/plain-dbx.esl"
SBAT_ADD_EFIVARFS="$EV" run --check-level next --esp "$ESP" --pending dbx="$T/plain-dbx.esl"
expect "a plain signature list in --pending: appended as given, and said to be no write the firmware takes" \
	'has_line "  pending: $T/plain-dbx.esl appended to dbx (1 new entries); a plain signature list, taken as given: the firmware takes only an authenticated write (one with its EFI_VARIABLE_AUTHENTICATION_2 header)"'

# Microsoft's SVN entries (Windows boot manager, cdboot, wdsmgfw): named by application, not counted as image hashes
SBAT_ADD_EFIVARFS="$PV" run --check-level next --esp "$ESP" --pending dbx="$UPD/DBXUpdate2024.bin" \
	--pending dbx="$UPD/DBXUpdateSVN.bin"
KEK2011="C=US, O=Microsoft Corporation, CN=Microsoft Corporation KEK CA 2011"
expect "Microsoft's SVN updates: their new entries named as SVN entries by application, at 2.0, then 9.0, 3.0, 3.0" \
	'has_line "  pending: $UPD/DBXUpdate2024.bin appended to dbx (4 new entries, 3 of them SVN entries: bootmgr 2.0, cdboot 2.0, wdsmgfw 2.0); the firmware takes it: signed under the KEK certificate $KEK2011" &&
	 has_line "  pending: $UPD/DBXUpdateSVN.bin appended to dbx (3 new entries, 3 of them SVN entries: bootmgr 9.0, cdboot 3.0, wdsmgfw 3.0); the firmware takes it: signed under the KEK certificate $KEK2011"'
expect "the dbx they make: 1 certificate and 6 SVN entries, no image hash" \
	'has_line "  its dbx forbids: 1 certificates (CN=Microsoft Windows Production PCA 2011); 0 image hashes; 6 SVN entries (bootmgr 2.0, cdboot 2.0, wdsmgfw 2.0, bootmgr 9.0, cdboot 3.0, wdsmgfw 3.0); 0 other entries"'
SBAT_ADD_EFIVARFS="$PV" run --check-level next --esp "$ESP" --pending dbx="$UPD/DBXUpdateSVN.bin" --json
expect "--json: the dbx note lists its SVN entries by application, GUID and SVN" \
	'python3 -c "
import json, sys
notes = json.loads(sys.argv[1])[\"notes\"]
dbx = [n for n in notes if n[\"text\"].startswith(\"its dbx forbids\")][0]
assert [(s[\"application\"], s[\"guid\"], s[\"major\"], s[\"minor\"]) for s in dbx[\"svns\"]] == [
    (\"bootmgr\", \"9d132b61-59d5-4388-ab1c-185c3cb2eb92\", 9, 0),
    (\"cdboot\", \"e8f82e9d-e127-4158-a488-4c18abe2f284\", 3, 0),
    (\"wdsmgfw\", \"c999cac2-7ffe-496f-8127-9e2a8a535976\", 3, 0)], dbx
" "$OUT"'

# A Windows boot manager against dbx's SVN floor for it (Microsoft's DBXUpdateSVN.bin: bootmgr 9.0), on a machine
# whose db holds the images' hashes: the firmware starts each, and the boot manager's own check of dbx stops one
# whose SVN (its BOOTMGRSECURITYVERSIONNUMBER resource) is below the floor
WESP="$T/win-esp" WV="$T/efivars-win"
mkdir -p -- "$WESP/EFI/Microsoft/Boot" "$WESP/EFI/other"
machine "$WV"
cp -- "$PV/KEK-$EFI_GUID" "$WV/"
bootvar "$WV" 0000 1 'Windows Boot Manager' '\EFI\Microsoft\Boot\bootmgfw.efi'
order "$WV" BootOrder 0000
hash_of() { "$SBAT_ADD" --print --json "$1" 2>/dev/null | sed -n 's/.*"authenticode_sha256": *"\([0-9a-f]\{64\}\)".*/\1/p'; }
sha256_var "$WV/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$(hash_of "$FIX/bootmgr-svn-8.0.efi")" \
	"$(hash_of "$FIX/bootmgr-svn-9.0.efi")" "$(hash_of "$FIX/efi-x86_64.efi")"
sha256_var "$WV/dbx-d719b2cb-3d3a-4596-a3bc-dad00e67656f"
WIN="Boot0000 Windows Boot Manager [default]: stage 1 \\EFI\\Microsoft\\Boot\\bootmgfw.efi"
SVNUPD="--pending dbx=$UPD/DBXUpdateSVN.bin"
cp -- "$FIX/bootmgr-svn-8.0.efi" "$WESP/EFI/Microsoft/Boot/bootmgfw.efi"
SBAT_ADD_EFIVARFS="$WV" run --check-level next --esp "$WESP" $SVNUPD
expect "a Windows boot manager of SVN 8.0 under dbx's floor 9.0 (DBXUpdateSVN.bin): refused by its own check of dbx, exit 4" \
	'[ "$RC" -eq 4 ] && has_line "$WIN: refused: dbx'"'"'s SVN floor for the Windows boot manager, 9.0, revokes it (its SVN is 8.0): the firmware starts it, and the boot manager'"'"'s own check of dbx stops it [signature accepted: its hash is in db]"'
SBAT_ADD_EFIVARFS="$WV" run --check-level next --esp "$WESP"
expect "... and without the update (dbx holds no SVN entry): not governed by SBAT, as before, exit 0" \
	'[ "$RC" -eq 0 ] && has_line "$WIN: not governed by SBAT: the firmware starts it, not shim [signature accepted: its hash is in db]"'
printf '\7\0\0\0\0' >"$WV/SecureBoot-$EFI_GUID"
SBAT_ADD_EFIVARFS="$WV" run --check-level next --esp "$WESP" $SVNUPD
expect "... and with Secure Boot off (the boot manager checks no SVN): not governed by SBAT, exit 0" \
	'[ "$RC" -eq 0 ] && [[ "$OUT" == *"$WIN: not governed by SBAT: the firmware starts it, not shim [signature accepted: "* ]]'
printf '\7\0\0\0\1' >"$WV/SecureBoot-$EFI_GUID"
SBAT_ADD_EFIVARFS="$WV" run --check-level next --esp "$WESP" $SVNUPD --json
expect "--json: reason and gate bootmgr-svn, the image's SVN and dbx's floor" \
	'python3 -c "
import json, sys
st = json.loads(sys.argv[1])[\"stages\"][0]
assert (st[\"verdict\"], st[\"reason\"], st[\"gate\"]) == (\"refused\", \"bootmgr-svn\", \"bootmgr-svn\"), st
assert st[\"svn\"] == {\"major\": 8, \"minor\": 0} and st[\"svn_floor\"] == {\"major\": 9, \"minor\": 0}, st
assert st[\"svn_unread\"] is None, st
" "$OUT"'
cp -- "$FIX/bootmgr-svn-9.0.efi" "$WESP/EFI/Microsoft/Boot/bootmgfw.efi"
SBAT_ADD_EFIVARFS="$WV" run --check-level next --esp "$WESP" $SVNUPD --json
expect "a Windows boot manager of SVN 9.0, at the floor: started as before, not governed by SBAT, exit 0; --json gives its SVN" \
	'[ "$RC" -eq 0 ] && python3 -c "
import json, sys
st = json.loads(sys.argv[1])[\"stages\"][0]
assert (st[\"verdict\"], st[\"reason\"], st[\"gate\"]) == (\"not-governed\", \"not-shim\", \"none\"), st
assert st[\"svn\"] == {\"major\": 9, \"minor\": 0} and st[\"svn_floor\"] == {\"major\": 9, \"minor\": 0}, st
" "$OUT"'
cp -- "$FIX/efi-x86_64.efi" "$WESP/EFI/Microsoft/Boot/bootmgfw.efi"
SBAT_ADD_EFIVARFS="$WV" run --check-level next --esp "$WESP" $SVNUPD
expect "a bootmgfw.efi that carries no SVN resource, under dbx's floor: cannot be followed, with the reason, exit 8" \
	'[ "$RC" -eq 8 ] && has_line "$WIN: cannot be followed: dbx holds an SVN floor for the Windows boot manager (9.0), and its SVN cannot be read: it carries no BOOTMGRSECURITYVERSIONNUMBER resource [signature accepted: its hash is in db]"'
cp -- "$FIX/bootmgr-svn-8.0.efi" "$WESP/EFI/Microsoft/Boot/bootmgfw.efi"
printf '\360\377\377\377' | dd of="$WESP/EFI/Microsoft/Boot/bootmgfw.efi" bs=1 seek=$((0x2000 + 28)) conv=notrunc status=none
sha256_var "$WV/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$(hash_of "$WESP/EFI/Microsoft/Boot/bootmgfw.efi")"
SBAT_ADD_EFIVARFS="$WV" run --check-level next --esp "$WESP" $SVNUPD
expect "a bootmgfw.efi whose resource directory is malformed: cannot be followed, naming the field and its offset" \
	'[ "$RC" -eq 8 ] && has_line "$WIN: cannot be followed: dbx holds an SVN floor for the Windows boot manager (9.0), and its SVN cannot be read: resource directory table past the end of the resource directory (offset 0x201c) [signature accepted: its hash is in db]"'
cp -- "$FIX/bootmgr-svn-8.0.efi" "$WESP/EFI/other/loader.efi"
cp -- "$FIX/efi-x86_64.efi" "$WESP/EFI/Microsoft/Boot/bootmgfw.efi"
sha256_var "$WV/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$(hash_of "$FIX/bootmgr-svn-8.0.efi")" "$(hash_of "$FIX/efi-x86_64.efi")"
bootvar "$WV" 0001 1 'other' '\EFI\other\loader.efi'
bootvar "$WV" 0002 1 'plain' '\EFI\Microsoft\Boot\plain.efi'
cp -- "$FIX/efi-x86_64.efi" "$WESP/EFI/Microsoft/Boot/plain.efi"
order "$WV" BootOrder 0002 0001
SBAT_ADD_EFIVARFS="$WV" run --check-level next --esp "$WESP" $SVNUPD
expect "another name carrying the resource at SVN 8.0 is refused alike; one without it, not named bootmgfw.efi, is not judged by SVN" \
	'[ "$RC" -eq 7 ] && has_line "Boot0002 plain [default]: stage 1 \\EFI\\Microsoft\\Boot\\plain.efi: not governed by SBAT: the firmware starts it, not shim [signature accepted: its hash is in db]" &&
	 has_line "Boot0001 other: stage 1 \\EFI\\other\\loader.efi: refused: dbx'"'"'s SVN floor for the Windows boot manager, 9.0, revokes it (its SVN is 8.0): the firmware starts it, and the boot manager'"'"'s own check of dbx stops it [signature accepted: its hash is in db]"'

tap_finish
