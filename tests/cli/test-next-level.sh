#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-next-level.sh - black-box tests of --check-level next:SHIM: the
# SbatLevel shim 16.x will hold and enforce at the next boot and the one
# after, from a fake efivarfs directory (SecureBoot, SetupMode, SbatPolicy,
# SbatLevelRT; every file 4 attribute bytes, then the data), a shim-like
# binary with Debian shim 16.1's .sbatlevel payloads and its own .sbat, and
# a revocations_sbat.efi next to it.
#
# Environment (set by meson): SBAT_ADD, GEN_FIXTURES, FIXTURES_SRC.
# Optional: PYTHON3 for the JSON checks.

set -u

for var in SBAT_ADD GEN_FIXTURES FIXTURES_SRC; do
	if [ -z "${!var:-}" ]; then
		echo "test-next-level.sh: $var is not set (run through 'meson test')" >&2
		exit 1
	fi
done
PYTHON3="${PYTHON3:-/usr/bin/python3}"
LATEST="$FIXTURES_SRC/level/debian-shim-16.1-latest.txt"
AUTOMATIC="$FIXTURES_SRC/level/debian-shim-16.1-automatic.txt"
SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
EFI_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c

T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-next.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/efi.sh"

# var DIR NAME-GUID DATA (printf format): one efivarfs file, attributes NV|BS|RT first
var() {
	mkdir -p -- "$1"
	{ printf '\7\0\0\0'; printf "$3"; } >"$1/$2"
}

# machine DIR SECUREBOOT POLICY|- LEVEL-TEXT|-: a fake efivarfs
machine() {
	rm -rf -- "$1"
	mkdir -p -- "$1"
	var "$1" "SecureBoot-$EFI_GUID" "\\$2"
	var "$1" "SetupMode-$EFI_GUID" '\0'
	[ "$3" = - ] || var "$1" "SbatPolicy-$SHIM_GUID" "\\$3"
	[ "$4" = - ] || var "$1" "SbatLevelRT-$SHIM_GUID" "$4"
}

# ---------------------------------------------------------------- fixtures

FIX="$T/fixtures"
mkdir -p -- "$FIX"
"$GEN_FIXTURES" "$FIX" >/dev/null 2>&1 || { not_ok "gen-fixtures writes the example images"; tap_finish; exit 1; }

SBAT_ROW="sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md"
IMG="$T/img"
mkdir -p -- "$IMG"
for g in 3 5; do
	printf '%s\ngrub,%s,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n' \
		"$SBAT_ROW" "$g" >"$T/grub$g.csv"
	"$SBAT_ADD" --file "$FIX/efi-x86_64.efi" --csv "$T/grub$g.csv" --output "$IMG/grub$g.efi" >/dev/null 2>&1
done

u32_at() {
	od -An -tu4 -j "$2" -N 4 -- "$1" | tr -d ' '
}
# header offset of section NAME in FILE
section_header() {
	LC_ALL=C grep -obUa -m1 -- "$2" "$1" | head -n1 | cut -d: -f1
}

# make_shim OUT GENERATION: sbat-mid.efi's .sbat renamed .sbatlev holding
# Debian shim 16.1's payloads, then a new .sbat "shim,GENERATION"
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
	printf '%s\nshim,%s,UEFI shim,shim,1,https://github.com/rhboot/shim\n' "$SBAT_ROW" "$2" >"$T/shim.csv"
	mkdir -p -- "$(dirname "$1")"
	rm -f -- "$1"
	"$SBAT_ADD" --file "$tmp" --csv "$T/shim.csv" --output "$1" >/dev/null 2>&1
}

# make_revocations OUT AUTOMATIC-TEXT LATEST-TEXT: .rodata and .data of
# efi-x86_64.efi renamed .sbata and .sbatl, holding the texts, plus a .sbat
make_revocations() {
	local tmp="$T/rev-base.efi" hdr raw
	cp -- "$FIX/efi-x86_64.efi" "$tmp"
	chmod u+w -- "$tmp"
	for s in ".rodata:.sbata\\0\\0:$2" ".data:.sbatl\\0\\0\\0:$3"; do
		IFS=: read -r from to text <<<"$s"
		hdr=$(section_header "$tmp" "\\$from")
		raw=$(u32_at "$tmp" $((hdr + 20)))
		printf "$to" | dd of="$tmp" bs=1 seek="$hdr" conv=notrunc status=none
		head -c 512 /dev/zero | dd of="$tmp" bs=1 seek="$raw" conv=notrunc status=none
		printf "$text" | dd of="$tmp" bs=1 seek="$raw" conv=notrunc status=none
	done
	printf '%s\nshim.revocations,1,UEFI shim,shim,1,https://github.com/rhboot/shim\n' "$SBAT_ROW" >"$T/rev.csv"
	rm -f -- "$1"
	"$SBAT_ADD" --file "$tmp" --csv "$T/rev.csv" --output "$1" >/dev/null 2>&1
}

SHIM="$T/esp/EFI/debian/shimx64.efi"
make_shim "$SHIM" 4
SELF="$T/self/shimx64.efi"
make_shim "$SELF" 3
if [ -s "$SHIM" ] && [ -s "$SELF" ] && [ -s "$IMG/grub3.efi" ] && [ -s "$IMG/grub5.efi" ]; then
	ok "made shim-like binaries (shim,4 and shim,3) with Debian shim 16.1's payloads, grub3.efi and grub5.efi"
else
	not_ok "made shim-like binaries, grub3.efi and grub5.efi"
fi

L2024='sbat,1,2024010900\nshim,4\ngrub,3\ngrub.debian,4\n'
AUTO_TEXT=$(cat "$AUTOMATIC")

# ------------------------------------------------------------ the rules

EV="$T/efivars"
machine "$EV" 1 - "$L2024"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" "$IMG/grub3.efi" "$IMG/grub5.efi"
expect "Secure Boot on, no SbatPolicy: the automatic payload replaces an older level; grub,3 revoked (exit 4)" \
	'[ "$RC" -eq 4 ] && has_line "$IMG/grub3.efi: next boot: revoked: grub,3 is below grub,5 (SbatLevel 2025021800)" &&
	 has_line "$IMG/grub5.efi: next boot: allowed: not revoked by SbatLevel 2025021800 (2 rows checked)"'
expect "... the boot after next judges the same: one line per image" '[ "$(printf "%s\n" "$OUT" | wc -l)" -eq 2 ]'

SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub5.efi"
expect "--verbose shows the inputs and the rule that decided" \
	'[ "$RC" -eq 0 ] && has_line "inputs: SecureBoot 1, SetupMode 0 (Secure Boot on for shim), SbatPolicy absent, SbatLevelRT 2024010900 (shim,4 grub,3 grub.debian,4)" &&
	 has_line "  shim'"'"'s .sbatlevel: candidate automatic (SbatPolicy default) 2025021800 (shim,4 grub,5): written: newer than the stored level" &&
	 has_line "  revocations_sbat.efi: not run"'

machine "$EV" 1 - "$(cat "$LATEST")\n"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub5.efi"
expect "never downgrade: a stored level with a newer datestamp is kept" \
	'[ "$RC" -eq 0 ] && has_line "  shim'"'"'s .sbatlevel: candidate automatic (SbatPolicy default) 2025021800 (shim,4 grub,5): kept the stored level: its datestamp is not older" &&
	 has_line "$IMG/grub5.efi: next boot: allowed: not revoked by SbatLevel 2025051000 (2 rows checked)"'

machine "$EV" 1 1 "$AUTO_TEXT\n"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub5.efi"
expect "SbatPolicy 1: the latest payload" \
	'[ "$RC" -eq 0 ] && has_line "  shim'"'"'s .sbatlevel: candidate latest (SbatPolicy latest) 2025051000 (shim,4 grub,5 grub.proxmox,2): written: newer than the stored level"'

machine "$EV" 1 3 "$L2024"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub3.efi"
expect "SbatPolicy 3 with Secure Boot on: reset refused, automatic applied" \
	'[ "$RC" -eq 4 ] && has_line "  shim'"'"'s .sbatlevel: candidate automatic (SbatPolicy reset-refused) 2025021800 (shim,4 grub,5): written: newer than the stored level"'

machine "$EV" 0 - "$(cat "$LATEST")\n"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub3.efi"
expect "Secure Boot off, no SbatPolicy: reset to the original level, nothing enforced (exit 0)" \
	'[ "$RC" -eq 0 ] && has_line "  shim'"'"'s .sbatlevel: candidate original (SbatPolicy default) 2021030218: reset to the original level" &&
	 has_line "$IMG/grub3.efi: next boot: not-enforced: Secure Boot is off, so shim checks no SBAT"'

machine "$EV" 1 - "$L2024"
var "$EV" "SetupMode-$EFI_GUID" '\1'
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" "$IMG/grub3.efi"
expect "SetupMode 1: shim is not in secure mode" \
	'[ "$RC" -eq 0 ] && has_line "$IMG/grub3.efi: next boot: not-enforced: Secure Boot is off, so shim checks no SBAT"'

machine "$EV" 1 - "$L2024"
var "$EV" "MokSBStateRT-$SHIM_GUID" '\1'
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" "$IMG/grub3.efi"
expect "MokSBStateRT 1 (mokutil --disable-validation): shim in insecure mode checks no SBAT, a revoked GRUB boots (exit 0)" \
	'[ "$RC" -eq 0 ] && has_line "$IMG/grub3.efi: next boot: insecure-mode: shim runs in insecure mode (MokSBState), so it checks no SBAT"'
var "$EV" "MokSBStateRT-$SHIM_GUID" '\0'
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" "$IMG/grub3.efi"
expect "MokSBStateRT 0: shim checks SBAT (exit 4)" '[ "$RC" -eq 4 ]'

machine "$EV" 0 1 "$L2024"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub3.efi"
expect "Secure Boot off with SbatPolicy latest: stored at the next boot, reset at the one after; both reported" \
	'[ "$RC" -eq 0 ] && has_line "  stored SbatLevel: 2025051000 (shim,4 grub,5 grub.proxmox,2)" &&
	 has_line "  stored SbatLevel: 2021030218" &&
	 has_line "$IMG/grub3.efi: boot after next: not-enforced: Secure Boot is off, so shim checks no SBAT"'

machine "$EV" 1 - "$L2024"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SELF" --verbose "$IMG/grub5.efi"
expect "a level that revokes shim itself is not written, and shim stops the machine (exit 4)" \
	'[ "$RC" -eq 4 ] && has_line "  shim'"'"'s .sbatlevel: candidate automatic (SbatPolicy default) 2025021800 (shim,4 grub,5): not written: it would revoke shim itself" &&
	 has_line "$IMG/grub5.efi: next boot: shim-stops: SbatLevel 2024010900 revokes shim itself, so shim stops the machine before starting anything"'

machine "$EV" 1 - 'sbat,1,2099010100\nshim,\n'
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub5.efi"
expect "a stored level kept but that shim cannot parse: shim stops the machine (exit 4), not an error" \
	'[ "$RC" -eq 4 ] && has_line "  images after shim are checked against: nothing starts: shim stops the machine (it cannot parse the stored SbatLevel)" &&
	 has_line "$IMG/grub5.efi: next boot: shim-stops: shim cannot parse the stored SbatLevel, so it stops the machine before starting anything"'


REV_AUTO='sbat,1,2026010100\nshim,4\ngrub,6\n'
make_revocations "$T/esp/EFI/debian/REVOCATIONS_SBAT.EFI" "$REV_AUTO" "$REV_AUTO"
machine "$EV" 1 - "$AUTO_TEXT\n"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub5.efi"
expect "revocations_sbat.efi (any case) next to shim counts in the same boot: grub,5 revoked by grub,6" \
	'[ "$RC" -eq 4 ] && has_line "  revocations_sbat.efi: candidate automatic (SbatPolicy default) 2026010100 (shim,4 grub,6): written: newer than the stored level" &&
	 has_line "$IMG/grub5.efi: next boot: revoked: grub,5 is below grub,6 (SbatLevel 2026010100)"'

machine "$EV" 0 - "$AUTO_TEXT\n"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub5.efi"
expect "... and is not read with Secure Boot off" \
	'[ "$RC" -eq 0 ] && ! printf "%s\n" "$OUT" | grep -q "revocations_sbat.efi: candidate"'

# shim verifies revocations_sbat.efi as an image (verify_image) before taking its payloads: db and dbx read
# (empty), the file unsigned: refused, and the level stays
machine "$EV" 1 - "$AUTO_TEXT\n"
var "$EV" "db-d719b2cb-3d3a-4596-a3bc-dad00e67656f" ''
var "$EV" "dbx-d719b2cb-3d3a-4596-a3bc-dad00e67656f" ''
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub5.efi"
expect "an unsigned revocations_sbat.efi with Secure Boot on: shim refuses it, the level stays (grub,5 allowed)" \
	'[ "$RC" -eq 0 ] && has_line "inputs: $T/esp/EFI/debian/REVOCATIONS_SBAT.EFI: refused by shim: its signature does not verify (not-allowed): its SBAT update is not applied" &&
	 has_line "  revocations_sbat.efi: not run: shim refuses the file'"'"'s signature" &&
	 has_line "$IMG/grub5.efi: next boot: allowed: not revoked by SbatLevel 2025021800 (2 rows checked)"'
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --json "$IMG/grub5.efi"
expect "... --json: revocations_signature refused, and why" \
	'[[ "$OUT" == *"\"revocations_signature\": \"refused\", \"revocations_signature_reason\": \"not-allowed\""* ]]'
REV_HASH=$("$SBAT_ADD" --print --json "$T/esp/EFI/debian/REVOCATIONS_SBAT.EFI" 2>/dev/null |
	sed -n 's/.*"authenticode_sha256": *"\([0-9a-f]\{64\}\)".*/\1/p')
sha256_var "$EV/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$REV_HASH"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub5.efi"
expect "... its hash in db: shim takes it, said, and grub,5 is revoked by grub,6" \
	'[ "$RC" -eq 4 ] && [ ${#REV_HASH} -eq 64 ] && has_line "inputs: $T/esp/EFI/debian/REVOCATIONS_SBAT.EFI: its signature verifies for shim (hash-allowed)" &&
	 has_line "$IMG/grub5.efi: next boot: revoked: grub,5 is below grub,6 (SbatLevel 2026010100)"'
sha256_var "$EV/dbx-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$REV_HASH"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub5.efi"
expect "... its hash in db and in dbx: refused (dbx first), the level stays" \
	'[ "$RC" -eq 0 ] && has_line "inputs: $T/esp/EFI/debian/REVOCATIONS_SBAT.EFI: refused by shim: its signature does not verify (hash-forbidden): its SBAT update is not applied"'
# shim reads the file before it imports its MOK state (efi_main: load_unbundled_trust, then import_mok_state):
# MokListRT is not there yet to allow it, and MokIgnoreDB not yet heeded
sha256_var "$EV/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f"
sha256_var "$EV/dbx-d719b2cb-3d3a-4596-a3bc-dad00e67656f"
sha256_var "$EV/MokListRT-$SHIM_GUID" "$REV_HASH"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub5.efi"
expect "... its hash in MokListRT alone: refused (MokListRT is made after the file is read), the level stays" \
	'[ "$RC" -eq 0 ] && has_line "inputs: $T/esp/EFI/debian/REVOCATIONS_SBAT.EFI: refused by shim: its signature does not verify (not-allowed): its SBAT update is not applied"'
rm -f -- "$EV/MokListRT-$SHIM_GUID"
sha256_var "$EV/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$REV_HASH"
printf '\6\0\0\0\1' >"$EV/MokIgnoreDB-$SHIM_GUID"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub5.efi"
expect "... its hash in db with MokIgnoreDB 1: still taken (MokIgnoreDB is heeded only after the file is read)" \
	'[ "$RC" -eq 4 ] && has_line "inputs: $T/esp/EFI/debian/REVOCATIONS_SBAT.EFI: its signature verifies for shim (hash-allowed)"'
machine "$EV" 1 - "$AUTO_TEXT\n"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub5.efi"
expect "... without db and dbx, whether shim takes it is not known: said, and its payloads counted as before" \
	'[ "$RC" -eq 4 ] && has_line "inputs: $T/esp/EFI/debian/REVOCATIONS_SBAT.EFI: whether shim accepts its signature is not known (db not read): its SBAT update is counted"'
mkdir -p -- "$T/elsewhere"
mv -- "$T/esp/EFI/debian/REVOCATIONS_SBAT.EFI" "$T/elsewhere/big.efi"
head -c 70000 /dev/zero >>"$T/elsewhere/big.efi"
ln -s -- "$T/elsewhere/big.efi" "$T/esp/EFI/debian/revocations_sbat.efi"
machine "$EV" 1 - "$AUTO_TEXT\n"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" "$IMG/grub5.efi"
expect "a revocations_sbat.efi that is a symbolic link is not followed: named, exit 1, nothing judged" \
	'[ "$RC" -eq 1 ] && [ -z "$OUT" ] && [ "$ERR" = "sbat-add: $T/esp/EFI/debian/revocations_sbat.efi: is a symbolic link, not followed" ]'
rm -f -- "$T/esp/EFI/debian/revocations_sbat.efi"

# fwupd writes revocations.efi, which shim 15.8 read and 16.0 and later do not
printf 'an SBAT update shim 16 does not read\n' >"$T/esp/EFI/debian/Revocations.efi"
machine "$EV" 1 - "$AUTO_TEXT\n"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub5.efi"
expect "revocations.efi (any case) beside a shim that reads revocations_sbat.efi: said to be ignored, and nothing else changes" \
	'[ "$RC" -eq 0 ] && has_line "inputs: $T/esp/EFI/debian/Revocations.efi: not read by this shim (it reads revocations_sbat.efi): the SBAT update it carries will not be applied" &&
	 [[ "$OUT" == *"$IMG/grub5.efi: next boot: allowed: not revoked by SbatLevel 2025021800 "* ]]'
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --json "$IMG/grub5.efi"
expect "... --json: revocations_ignored names it" \
	'[[ "$OUT" == *"\"revocations_ignored\": \"$T/esp/EFI/debian/Revocations.efi\""* ]]'
cp -- "$SHIM" "$T/esp/EFI/debian/shim158.efi"
printf 'UEFI SHIM\n$Version: 15.8 $' >>"$T/esp/EFI/debian/shim158.efi"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$T/esp/EFI/debian/shim158.efi" --verbose "$IMG/grub5.efi"
expect "... beside shim 15.8, which read it (a release older than the rules modelled): not said to be ignored" \
	'[ "$RC" -eq 0 ] && [[ "$OUT" == *"grub5.efi: next boot: allowed"* ]] && [[ "$OUT" != *"not read by this shim"* ]]'
rm -f -- "$T/esp/EFI/debian/Revocations.efi" "$T/esp/EFI/debian/shim158.efi"

# ------------------------------------------------------------ bad input

machine "$EV" 1 - "$L2024"
printf '\7\0\0\0\1\1' >"$EV/SecureBoot-$EFI_GUID"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" "$IMG/grub5.efi"
expect "SecureBoot of the wrong size: one line naming the variable and the offset, exit 1" \
	'[ "$RC" -eq 1 ] && [ "$ERR" = "sbat-add: SecureBoot-$EFI_GUID: expected 1 data byte: needs 1 bytes, has 2 (at offset 0x4)" ]'

machine "$EV" 1 - "$L2024"
rm -f -- "$EV/SecureBoot-$EFI_GUID"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" "$IMG/grub3.efi"
expect "no SecureBoot variable: whether shim checks SBAT is not known, so nothing is judged (exit 6), not taken as Secure Boot off" \
	'[ "$RC" -eq 6 ] && [ -z "$OUT" ] && [[ "$ERR" == "sbat-add: $EV: no SecureBoot variable: whether shim checks SBAT at the next boot is not known"* ]]'
SBAT_ADD_EFIVARFS="$T/no-such-efivarfs" run --check-level "next:$SHIM" "$IMG/grub3.efi"
expect "no efivarfs at all: exit 6 too" '[ "$RC" -eq 6 ] && [ -z "$OUT" ]'

machine "$EV" 1 - "$L2024"
printf '\7\0' >"$EV/SbatLevelRT-$SHIM_GUID"
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" "$IMG/grub5.efi"
expect "SbatLevelRT shorter than its attributes: named, with the offset" \
	'[ "$RC" -eq 1 ] && [[ "$ERR" == *"SbatLevelRT-$SHIM_GUID: variable shorter than its 4 attribute bytes: needs 4 bytes, has 2 (at offset 0x0)" ]]'

machine "$EV" 1 - -
SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --verbose "$IMG/grub3.efi"
expect "no SbatLevelRT yet: the candidate is written" \
	'[ "$RC" -eq 4 ] && printf "%s\n" "$OUT" | grep -q "written: there was no SbatLevel"'

SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$IMG/grub5.efi" "$IMG/grub5.efi"
expect "next: with a binary that has no .sbatlevel: exit 1, named" \
	'[ "$RC" -eq 1 ] && [[ "$ERR" == *"$IMG/grub5.efi"* ]]'

run --check-level next "$IMG/grub5.efi"
expect "POLICY next without a shim: usage error" '[ "$RC" -eq 2 ]'
run --check-level next: "$IMG/grub5.efi"
expect "next: with nothing after it: usage error" '[ "$RC" -eq 2 ]'
run --check-level "next:$SHIM" --level-payload latest "$IMG/grub5.efi"
expect "next:SHIM and --level-payload exclude each other" '[ "$RC" -eq 2 ]'

# ------------------------------------------------------------ JSON

if [ -x "$PYTHON3" ]; then
	machine "$EV" 0 1 "$L2024"
	SBAT_ADD_EFIVARFS="$EV" run --check-level "next:$SHIM" --json "$IMG/grub3.efi"
	printf '%s' "$OUT" >"$T/out.json"
	expect "--json: the prediction with its inputs, both boots and a result per boot" \
		'[ "$RC" -eq 0 ] && "$PYTHON3" -c "
import json, sys
d = json.load(open(sys.argv[1]))
p = d[\"policy\"]
assert d[\"schema\"] == 1 and p[\"source\"] == \"next\", p
q = p[\"prediction\"]
assert q[\"secure_boot\"] == 0 and q[\"sbat_policy\"] == 1 and q[\"shim_secure_mode\"] is False, q
b = q[\"boots\"]
assert b[0][\"builtin\"][\"rule\"] == \"replaced\" and b[0][\"builtin\"][\"payload\"] == \"latest\", b[0]
assert b[1][\"builtin\"][\"rule\"] == \"reset\" and b[1][\"stored\"] == \"sbat,1,2021030218\n\", b[1]
assert q[\"boots_differ\"] is True
r = d[\"results\"]
assert [x[\"boot\"] for x in r] == [\"next\", \"after-next\"], r
assert all(x[\"verdict\"] == \"not-enforced\" for x in r), r
" "$T/out.json"'
else
	skip "JSON checks" "no $PYTHON3"
fi

tap_finish
