#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-check-level.sh - black-box tests of --check-level as an audit: the
# running machine's SbatLevel read from a fake efivarfs directory, POLICY
# forms (running, FILE, latest:SHIM, automatic:SHIM), many images at once
# with the worst verdict as exit status, directory scans (non-PE files
# counted, symbolic links never followed, unreadable entries reported) and
# the JSON report.
#
# Environment (set by meson): SBAT_ADD, GEN_FIXTURES, FIXTURES_SRC (the
# tests/fixtures source directory; level/ holds Debian shim 16.1's two
# SbatLevel payloads as text). Optional: PYTHON3 for the JSON checks.
# Output: "ok N - ..." or "not ok N - ..." per check, then "P passed, F failed".

set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env SBAT_ADD GEN_FIXTURES FIXTURES_SRC
PYTHON3="${PYTHON3:-/usr/bin/python3}"
LATEST="$FIXTURES_SRC/level/debian-shim-16.1-latest.txt"
AUTOMATIC="$FIXTURES_SRC/level/debian-shim-16.1-automatic.txt"
VAR=SbatLevelRT-605dab50-e046-4300-abb6-3dd810dd8b23

T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-level.XXXXXX") || exit 1
trap 'chmod -R u+rwx -- "$T" 2>/dev/null; rm -rf -- "$T"' EXIT

. "$(dirname "$0")/../lib/cli.sh"

# has_line TEXT: stdout holds exactly this line.
has_line() {
	printf '%s\n' "$OUT" | grep -qxF -- "$1"
}

# efivarfs DIR ATTR-OCTAL-ESCAPES PAYLOAD-FILE [NUL]: a fake efivarfs with SbatLevelRT in it.
efivarfs() {
	mkdir -p -- "$1"
	{ printf "$2"; cat -- "$3"; [ -n "${4:-}" ] && printf '\0'; } >"$1/$VAR"
}

# ---------------------------------------------------------------- fixtures

FIX="$T/fixtures"
mkdir -p -- "$FIX"
if ! "$GEN_FIXTURES" "$FIX" >/dev/null 2>"$T/gen.err"; then
	not_ok "gen-fixtures writes the example images" "$(cat "$T/gen.err")"
	tap_finish
	exit 1
fi
ok "gen-fixtures writes the example images"

SBAT_ROW="sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md"
IMG="$T/img"
mkdir -p -- "$IMG"
# grub,3 is what the August 2024 revocation (grub,4 and later grub,5) refuses; grub,5 passes it
for g in 3 5; do
	printf '%s\ngrub,%s,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n' \
		"$SBAT_ROW" "$g" >"$T/grub$g.csv"
	"$SBAT_ADD" --file "$FIX/efi-x86_64.efi" --csv "$T/grub$g.csv" --output "$IMG/grub$g.efi" >/dev/null 2>&1
done
cp -- "$FIX/bzimage-new.bin" "$IMG/vmlinuz"
if [ -s "$IMG/grub3.efi" ] && [ -s "$IMG/grub5.efi" ]; then
	ok "made grub3.efi (revoked by shim 16.1), grub5.efi (allowed) and a kernel without .sbat"
else
	not_ok "made grub3.efi, grub5.efi and a kernel without .sbat"
fi

# a shim-like binary carrying Debian shim 16.1's payloads in ".sbatlev"
# (version 0, the offsets of the automatic and the latest payload counted
# from byte 4, then both strings), made from sbat-mid.efi's .sbat section
u32_at() {
	od -An -tu4 -j "$2" -N 4 -- "$1" | tr -d ' '
}
SHIM="$T/shim/shimx64.efi"
mkdir -p -- "$T/shim"
cp -- "$FIX/sbat-mid.efi" "$SHIM"
chmod u+w -- "$SHIM"
hdr=$(LC_ALL=C grep -obUa -m1 '\.sbat' -- "$SHIM" | head -n1 | cut -d: -f1)
raw=$(u32_at "$SHIM" $((hdr + 20)))
alen=$(($(wc -c <"$AUTOMATIC") + 1))
if [ -n "$hdr" ] && [ -n "$raw" ] &&
   printf '.sbatlev' | dd of="$SHIM" bs=1 seek="$hdr" conv=notrunc status=none &&
   { printf '\0\0\0\0\10\0\0\0'; printf "\\$(printf '%03o' $((8 + alen)))\\0\\0\\0";
     cat -- "$AUTOMATIC"; printf '\0'; cat -- "$LATEST"; printf '\0'; } |
	dd of="$SHIM" bs=1 seek="$raw" conv=notrunc status=none; then
	ok "made a shim-like binary with Debian shim 16.1's .sbatlevel payloads"
else
	not_ok "made a shim-like binary with Debian shim 16.1's .sbatlevel payloads"
fi

# ------------------------------------------ --check-level running (efivarfs)

EV="$T/efivars"
efivarfs "$EV" '\6\0\0\0' "$LATEST" nul
export SBAT_ADD_EFIVARFS="$EV"

run --check-level running "$IMG/grub3.efi"
expect "running: SbatLevelRT (shim 16.1 latest) revokes grub,3 with exit 4" \
	'[ "$RC" -eq 4 ] && has_line "$IMG/grub3.efi: revoked: grub,3 is below grub,5 (SbatLevel 2025051000)"'
run --check-level running "$IMG/grub5.efi"
expect "running: grub,5 is allowed with exit 0" \
	'[ "$RC" -eq 0 ] && has_line "$IMG/grub5.efi: allowed: not revoked by SbatLevel 2025051000 (2 rows checked)"'
efivarfs "$T/efivars-automatic" '\7\0\0\0' "$AUTOMATIC"
SBAT_ADD_EFIVARFS="$T/efivars-automatic" run --check-level running "$IMG/grub5.efi"
expect "running: a payload without NUL (the automatic one) is read too" \
	'[ "$RC" -eq 0 ] && [[ "$OUT" == *"SbatLevel 2025021800"* ]]'

mkdir -p -- "$T/efivars-empty"
SBAT_ADD_EFIVARFS="$T/efivars-empty" run --check-level running "$IMG/grub5.efi"
expect "running: no SbatLevelRT variable exits 6 with one line naming it" \
	'[ "$RC" -eq 6 ] && [ -z "$OUT" ] && [ "$(printf "%s\n" "$ERR" | wc -l)" -eq 1 ] &&
	 [[ "$ERR" == "sbat-add: $T/efivars-empty/$VAR: no such variable"* ]]'
SBAT_ADD_EFIVARFS="$T/no-such-dir" run --check-level running "$IMG/grub5.efi"
expect "running: no efivarfs directory (no UEFI) exits 6" \
	'[ "$RC" -eq 6 ] && [[ "$ERR" == "sbat-add: $T/no-such-dir: no UEFI variables"* ]]'
mkdir -p -- "$T/efivars-link"
efivarfs "$T/efivars-linked" '\6\0\0\0' "$LATEST"
ln -s -- "$T/efivars-linked/$VAR" "$T/efivars-link/$VAR"
SBAT_ADD_EFIVARFS="$T/efivars-link" run --check-level running "$IMG/grub3.efi"
expect "running: an SbatLevelRT that is a symbolic link is not followed (exit 1, naming it), as efivarfs never makes one" \
	'[ "$RC" -eq 1 ] && [[ "$ERR" == "sbat-add: $T/efivars-link/$VAR: "* ]]'
mkdir -p -- "$T/efivars-short"
printf '\6\0' >"$T/efivars-short/$VAR"
SBAT_ADD_EFIVARFS="$T/efivars-short" run --check-level running "$IMG/grub5.efi"
expect "running: a variable shorter than its attributes exits 1" \
	'[ "$RC" -eq 1 ] && [[ "$ERR" == *"shorter than its 4 attribute bytes"* ]]'
mkdir -p -- "$T/efivars-bad"
printf '\6\0\0\0sbat,1,2025051000\ngrub,\n' >"$T/efivars-bad/$VAR"
SBAT_ADD_EFIVARFS="$T/efivars-bad" run --check-level running "$IMG/grub5.efi"
expect "running: a payload shim refuses (an empty field) exits 1 with 'FILE:LINE: field N: ...'" \
	'[ "$RC" -eq 1 ] && [[ "$ERR" == "sbat-add: $T/efivars-bad/$VAR:2: field 2: "* ]]'
mkdir -p -- "$T/efivars-odd"
printf '\6\0\0\0sbat,1,2025051000\r\rgrub,five,x,y\n' >"$T/efivars-odd/$VAR"
SBAT_ADD_EFIVARFS="$T/efivars-odd" run --check-level running "$IMG/grub5.efi"
expect "running: a payload shim reads (lone CRs, grub,five as generation 0, a 4th field) is read as shim reads it: allowed" \
	'[ "$RC" -eq 0 ] && [[ "$OUT" == *"grub5.efi: allowed: not revoked by SbatLevel 2025051000"* ]]'

# ------------------------------------------- a .sbat that shim ignores

# shim skips a .sbat whose SizeOfRawData is 0 or below its VirtualSize and
# never reads its rows: grub,3 in such a section revokes nothing, but the
# image counts as one without .sbat.
mkdir -p -- "$T/ignored"
IGN="$T/ignored/grub3-ignored.efi"
cp -- "$IMG/grub3.efi" "$IGN"
chmod u+w -- "$IGN"
hdr=$(LC_ALL=C grep -obUa -m1 '\.sbat' -- "$IGN" | head -n1 | cut -d: -f1)
raw=$(u32_at "$IGN" $((hdr + 16)))
vs=$((raw + 1))
printf "\\$(printf '%03o' $((vs & 255)))\\$(printf '%03o' $(((vs >> 8) & 255)))\\$(printf '%03o' $(((vs >> 16) & 255)))\\0" |
	dd of="$IGN" bs=1 seek=$((hdr + 8)) conv=notrunc status=none
run --check-level running "$IGN"
expect "a .sbat with SizeOfRawData below VirtualSize: no .sbat as shim reads it (exit 3), not revoked" \
	'[ "$RC" -eq 3 ] && [[ "$OUT" == "$IGN: no .sbat as shim reads it (SizeOfRawData $(printf "%#x" "$raw") is below VirtualSize $(printf "%#x" "$vs"), so shim ignores the section): shim refuses to load it"* ]]'
if [ -x "$PYTHON3" ]; then
	run --check-level running --json "$IGN"
	expect "... --json: verdict no-sbat with sbat_ignored true" \
		'printf "%s" "$OUT" | "$PYTHON3" -c "import json,sys; r=json.load(sys.stdin)[\"results\"][0]; assert r[\"verdict\"]==\"no-sbat\" and r[\"sbat_ignored\"] is True, r"'
fi
run --check-level running "$IMG/grub3.efi"
expect "... while the same rows in a .sbat shim reads are revoked" '[ "$RC" -eq 4 ]'

# ------------------------------------- what shim's parser takes, the verdict takes

# A UTF-8 vendor name breaks the format (printable ASCII) but not shim's
# parser, which counts fields: the verdict follows shim, the rule warns,
# and --lint agrees (a warning, exit 5).
mkdir -p -- "$T/utf8"
for g in 3 5; do
	U8="$T/utf8/grub$g-utf8.efi"
	printf '%s\ngrub,%s,Fr3d3ric GNU,grub,2.06,https://www.gnu.org/software/grub/\n' "$SBAT_ROW" "$g" >"$T/utf8.csv"
	"$SBAT_ADD" --file "$FIX/efi-x86_64.efi" --csv "$T/utf8.csv" --output "$U8" >/dev/null 2>&1
	at=$(LC_ALL=C grep -obUa -m1 'Fr3d3ric' -- "$U8" | head -n1 | cut -d: -f1)
	printf 'Fr\303\251d\303\251ric' | dd of="$U8" bs=1 seek="$at" conv=notrunc status=none
done
run --check-level running "$T/utf8/grub5-utf8.efi"
expect "a UTF-8 vendor name: allowed as shim reads it (exit 0), the format rule only warns" \
	'[ "$RC" -eq 0 ] && [[ "$OUT" == "$T/utf8/grub5-utf8.efi: allowed: not revoked by SbatLevel "* ]] &&
	 [[ "$ERR" == *"warning: "*".sbat breaks a rule of the format that shim does not check"*"non-printable or non-ASCII byte"* ]]'
run --check-level running "$T/utf8/grub3-utf8.efi"
expect "... and grub,3 with a UTF-8 vendor name is revoked by its generation, not as invalid" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" == *": revoked: grub,3 is below grub,"* ]]'
run --lint "$T/utf8/grub5-utf8.efi"
expect "... --lint on the same image: sbat-invalid, a warning (exit 5), not sbat-unparsable" \
	'[ "$RC" -eq 5 ] && [[ "$OUT" == *"warning: sbat-invalid"* ]] && [[ "$OUT" != *"sbat-unparsable"* ]]'
# memtest86+ 6.10: a 5-field row, which shim's parser refuses
FIVE="$T/utf8/five.efi"
printf '%s\nmemtest86+,1,Memtest86+,6.10,https:,/memtest.org/abc\n' "$SBAT_ROW" >"$T/six.csv"
"$SBAT_ADD" --file "$FIX/efi-x86_64.efi" --csv "$T/six.csv" --output "$FIVE" >/dev/null 2>&1
at=$(LC_ALL=C grep -obUa -m1 'https:,/' -- "$FIVE" | head -n1 | cut -d: -f1)
printf 'https://' | dd of="$FIVE" bs=1 seek="$at" conv=notrunc status=none
run --check-level running "$FIVE"
expect "a row with 5 fields: revoked as invalid .sbat, since shim's parser refuses it (exit 4)" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" == "$FIVE: revoked: invalid .sbat, so shim refuses the image: "*"fewer than 6 fields"* ]]'
run --lint "$FIVE"
expect "... --lint agrees: sbat-unparsable, an error (exit 1)" '[ "$RC" -eq 1 ] && [[ "$OUT" == *"error: sbat-unparsable"* ]]'

# ------------------------------- the .sbat sections shim reads (verify_buffer_sbat)

# sect_off FILE NAME: the file offset of the section header named NAME (8 bytes, NUL-padded)
sect_off() {
	local pad
	pad=$(printf '%*s' $((8 - ${#2})) '' | sed 's/ /\\x00/g')
	LC_ALL=C grep -obUaP -m1 "$(printf '%s' "$2" | sed 's/\./\\./g')$pad" -- "$1" | head -n1 | cut -d: -f1
}
# put_le FILE OFFSET BYTES VALUE: VALUE little-endian in BYTES bytes at OFFSET
put_le() {
	local i v=$4 esc=
	for ((i = 0; i < $3; i++)); do
		esc+=$(printf '\\%03o' $((v & 255)))
		v=$((v >> 8))
	done
	printf "$esc" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
SH="$T/shimread"
mkdir -p -- "$SH"
# the fixture's .data has SizeOfRawData below VirtualSize: named .sbat, shim passes it over and takes the next
cp -- "$IMG/grub5.efi" "$SH/skipped-first.efi"
printf '.sbat\0\0\0' | dd of="$SH/skipped-first.efi" bs=1 seek="$(sect_off "$SH/skipped-first.efi" .data)" \
	conv=notrunc status=none
run --check-level running "$SH/skipped-first.efi"
expect "a .sbat shim passes over, then the real one: judged on the second, allowed (exit 0)" \
	'[ "$RC" -eq 0 ] && [[ "$OUT" == "$SH/skipped-first.efi: allowed: not revoked by SbatLevel "* ]]'
# NumberOfRelocations (offset 32 of the header) on .sbat: shim refuses the image
cp -- "$IMG/grub5.efi" "$SH/relocations.efi"
put_le "$SH/relocations.efi" $(($(sect_off "$SH/relocations.efi" .sbat) + 32)) 2 1
run --check-level running "$SH/relocations.efi"
expect "a .sbat section header with relocations: refused as shim refuses it (exit 4)" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" == *": revoked: invalid .sbat, so shim refuses the image: the .sbat section header has relocations"* ]]'
# a .sbat holding only a line end and NULs: shim's parser finds no row, and no row is revoked
cp -- "$IMG/grub5.efi" "$SH/no-rows.efi"
raw=$(od -An -t u4 -j $(($(sect_off "$SH/no-rows.efi" .sbat) + 20)) -N 4 -- "$SH/no-rows.efi" | tr -d ' ')
cp -- "$SH/no-rows.efi" "$SH/behind-nul.efi"
printf '\n\0\0' | dd of="$SH/no-rows.efi" bs=1 seek="$raw" conv=notrunc status=none
# a line end then one NUL: shim's parse_csv_data passes over the NUL and reads the rest ("at,1,..." and grub,5)
printf '\n\0' | dd of="$SH/behind-nul.efi" bs=1 seek="$raw" conv=notrunc status=none
run --check-level running "$SH/behind-nul.efi"
expect "a .sbat whose rows follow a line end and a NUL: read on as shim reads it, 2 rows judged (exit 0)" \
	'[ "$RC" -eq 0 ] && [[ "$OUT" == *": allowed: not revoked by SbatLevel "*"(2 rows checked)" ]]'
run --check-level running "$SH/no-rows.efi"
expect "a .sbat without rows: allowed, as shim's check passes it (exit 0), the format rule only warns" \
	'[ "$RC" -eq 0 ] && [[ "$OUT" == *": allowed: not revoked by SbatLevel "*"(0 rows checked)" ]] &&
	 [[ "$ERR" == *"warning: "*".sbat breaks a rule of the format that shim does not check"* ]]'

# ------------------------------------------------------------ POLICY forms

run --check-level "latest:$SHIM" "$IMG/grub3.efi"
expect "latest:SHIM uses shim's latest payload" '[ "$RC" -eq 4 ] && [[ "$OUT" == *"(SbatLevel 2025051000)" ]]'
run --check-level "automatic:$SHIM" "$IMG/grub3.efi"
expect "automatic:SHIM uses shim's automatic payload" '[ "$RC" -eq 4 ] && [[ "$OUT" == *"(SbatLevel 2025021800)" ]]'
run --check-level "$SHIM" --level-payload automatic "$IMG/grub3.efi"
expect "SHIM --level-payload automatic is the same" '[ "$RC" -eq 4 ] && [[ "$OUT" == *"(SbatLevel 2025021800)" ]]'
expect_rc "--level-payload with latest:SHIM is a usage error" 2 \
	--check-level "latest:$SHIM" --level-payload automatic "$IMG/grub3.efi"
expect_rc "--level-payload with running is a usage error" 2 \
	--check-level running --level-payload latest "$IMG/grub3.efi"
expect_rc "latest: without a file is a usage error" 2 --check-level latest: "$IMG/grub3.efi"
mkdir -p -- "$T/cwd"
cp -- "$AUTOMATIC" "$T/cwd/running"
(cd "$T/cwd" && SBAT_ADD_EFIVARFS="$T/no-such-dir" "$SBAT_ADD" --check-level ./running "$IMG/grub5.efi" \
	>"$T/out" 2>"$T/err")
RC=$?; OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
expect "./running names a file called running" '[ "$RC" -eq 0 ] && [[ "$OUT" == *"SbatLevel 2025021800"* ]]'

printf 'sbat,1,2025051000\r\rshim,4,x,y\ngrub,0004\n' >"$T/odd-level.txt"
run --check-level "$T/odd-level.txt" "$IMG/grub3.efi"
expect "a level file is read as shim reads an SbatLevel (lone CRs, a 4th field, grub,0004): grub,3 revoked (exit 4)" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" == *"revoked: grub,3 is below grub,4 (SbatLevel 2025051000)"* ]]'
printf 'sbat,1,2025051000\ngrub,4,\n' >"$T/bad-level.txt"
expect_rc "a level file shim refuses (a trailing comma) is an error" 1 --check-level "$T/bad-level.txt" "$IMG/grub3.efi"

# ------------------------------------------ many images: the worst verdict

run --check-level running "$IMG/grub5.efi" "$IMG/vmlinuz" "$IMG/grub3.efi"
expect "allowed + no .sbat + revoked: exit 4, one line each, in argument order" \
	'[ "$RC" -eq 4 ] && [ "$(printf "%s\n" "$OUT" | wc -l)" -eq 3 ] &&
	 [ "$(printf "%s\n" "$OUT" | cut -d: -f2 | tr -d " " | tr "\n" " ")" = "allowed no.sbat revoked " ]'
expect "a kernel without .sbat: the verdict says what it means on each boot path" \
	'has_line "$IMG/vmlinuz: no .sbat: boots when verified through shim'"'"'s protocol (GRUB, systemd-boot); refused when shim loads it itself"'
run --check-level running "$IMG/grub5.efi" "$FIX/efi-x86_64.efi"
expect "an EFI application without .sbat: shim refuses to load it; allowed + no .sbat exits 3" \
	'[ "$RC" -eq 3 ] && has_line "$FIX/efi-x86_64.efi: no .sbat: shim refuses to load it (SBAT is mandatory for what shim starts itself)"'
run --check-level running "$IMG/grub5.efi" "$T/no-such.efi" "$IMG/vmlinuz"
expect "an unreadable image outranks no .sbat (exit 1); it gets a line and an error on stderr" \
	'[ "$RC" -eq 1 ] && has_line "$T/no-such.efi: unreadable: cannot open: No such file or directory" &&
	 [ "$ERR" = "sbat-add: $T/no-such.efi: cannot open: No such file or directory" ]'
run --check-level running "$T/no-such.efi" "$IMG/grub3.efi"
expect "revoked outranks unreadable (exit 4)" '[ "$RC" -eq 4 ]'
run --check-level running "$IMG/grub5.efi" "$IMG/grub5.efi"
expect "only allowed images: exit 0" '[ "$RC" -eq 0 ] && [ "$(printf "%s\n" "$OUT" | wc -l)" -eq 2 ]'
printf 'not a PE image\n' >"$T/notes.txt"
run --check-level running "$T/notes.txt"
expect "a non-PE file named on the command line is unreadable (exit 1), not skipped" \
	'[ "$RC" -eq 1 ] && [[ "$OUT" == "$T/notes.txt: unreadable: "* ]]'
run --check-level running --file "$IMG/grub5.efi" "$IMG/grub3.efi"
expect "--file IMAGE and more IMAGE arguments" '[ "$RC" -eq 4 ] && [ "$(printf "%s\n" "$OUT" | wc -l)" -eq 2 ]'
run --check-level running --csv "$T/grub5.csv" --csv "$T/grub3.csv"
expect "several --csv FILEs, one line each" \
	'[ "$RC" -eq 4 ] && has_line "$T/grub3.csv: revoked: grub,3 is below grub,5 (SbatLevel 2025051000)" &&
	 [[ "$OUT" == "$T/grub5.csv: allowed"* ]]'
expect_rc "IMAGEs and --csv together are a usage error" 2 --check-level running --csv "$T/grub5.csv" "$IMG/grub5.efi"

# ------------------------------------------------------- directory scans

D="$T/esp"
mkdir -p -- "$D/EFI/debian" "$D/EFI/BOOT" "$D/boot/sub"
cp -- "$IMG/grub3.efi" "$D/EFI/debian/grubx64.efi"
cp -- "$IMG/grub5.efi" "$D/EFI/BOOT/BOOTX64.EFI"
cp -- "$IMG/vmlinuz" "$D/boot/vmlinuz-6.1"      # a kernel found by content, whatever its name
cp -- "$IMG/grub5.efi" "$D/boot/sub/image.bin"
printf 'timeout 3\n' >"$D/EFI/debian/grub.cfg"
: >"$D/boot/empty"
printf 'MZ but nothing else' >"$D/boot/fake.efi"   # MZ, but no PE image: skipped like the rest
ln -s vmlinuz-6.1 "$D/boot/vmlinuz"
ln -s .. "$D/boot/loop"                            # never followed
mkfifo "$D/boot/fifo" 2>/dev/null || : >"$D/boot/fifo"
run --check-level running "$D"
expect "a directory: every PE image under it gets a line, sorted by path" \
	'[ "$(printf "%s\n" "$OUT" | grep -c ": \(allowed\|revoked\|no .sbat\)")" -eq 4 ] &&
	 [ "$(printf "%s\n" "$OUT" | grep -o "^$D/[^:]*" | tr "\n" " ")" = "$D/EFI/BOOT/BOOTX64.EFI $D/EFI/debian/grubx64.efi $D/boot/sub/image.bin $D/boot/vmlinuz-6.1 " ]'
expect "a directory: non-PE files are skipped with a count, symbolic links not followed; exit 4" \
	'[ "$RC" -eq 4 ] && has_line "4 files skipped: not PE images" && has_line "2 symbolic links skipped: not followed" && [ -z "$ERR" ]'
run --check-level running "$D/boot" "$D"
expect "a directory inside one given earlier is not scanned twice" \
	'[ "$(printf "%s\n" "$OUT" | grep -c "image.bin: allowed")" -eq 1 ] &&
	 [ "$(printf "%s\n" "$OUT" | grep -c "vmlinuz-6.1: no .sbat")" -eq 1 ]'
run --check-level running "$D/EFI/BOOT" "$D/boot/vmlinuz-6.1"
expect "a directory and an image together; allowed + no .sbat exits 3" '[ "$RC" -eq 3 ] && has_line "0 files skipped: not PE images"'

deep="$T/deep"
p="$deep"
for i in $(seq 1 34); do p="$p/d"; done
mkdir -p -- "$p" && cp -- "$IMG/grub5.efi" "$p/x.efi"
run --check-level running "$deep"
expect "directories nested more than 32 levels deep are reported unreadable (exit 1)" \
	'[ "$RC" -eq 1 ] && [[ "$OUT" == *": unreadable: directory nested more than 32 levels deep; not scanned"* ]]'

if [ "$(id -u)" -ne 0 ]; then
	mkdir -p -- "$T/locked"
	cp -- "$IMG/grub5.efi" "$T/locked/a.efi"
	cp -- "$IMG/grub5.efi" "$T/locked/b.efi"
	chmod 000 "$T/locked/a.efi"
	run --check-level running "$T/locked"
	expect "a file in a scanned directory that cannot be opened gets an 'unreadable' line (exit 1)" \
		'[ "$RC" -eq 1 ] && has_line "$T/locked/a.efi: unreadable: cannot open: Permission denied" &&
		 [[ "$OUT" == *"$T/locked/b.efi: allowed"* ]]'
else
	skip "a file in a scanned directory that cannot be opened gets an 'unreadable' line (exit 1)" \
		"root reads everything (covered by the depth limit above)"
fi

# ------------------------------------------------------------------- JSON

run --check-level running --json "$IMG/grub3.efi" "$IMG/grub5.efi" "$IMG/vmlinuz" "$T/no-such.efi" "$D/boot"
if [ -x "$PYTHON3" ]; then
	printf '%s\n' "$OUT" >"$T/report.json"
	if "$PYTHON3" - "$T/report.json" "$RC" "$EV/$VAR" <<'PY' >"$T/py.err" 2>&1; then
import json, sys
d = json.load(open(sys.argv[1]))
rc = int(sys.argv[2])
assert d["schema"] == 1
p = d["policy"]
assert p["source"] == "running" and p["file"] == sys.argv[3] and p["payload"] is None, p
assert p["datestamp"] == "2025051000"
assert [(e["component_name"], e["generation"]) for e in p["entries"]] == \
    [("sbat", 1), ("shim", 4), ("grub", 5), ("grub.proxmox", 2)]
r = d["results"]
assert [x["verdict"] for x in r] == ["revoked", "allowed", "no-sbat", "unreadable", "allowed", "no-sbat"], r
assert r[0]["revoked"] == [{"component_name": "grub", "generation": 3, "minimum": 5}] and r[0]["n_revoked"] == 1
assert r[0]["exit_status"] == 4 and r[0]["input"] == "image" and r[0]["kind"] == "PE/COFF image"
assert r[1]["rows"] == 2 and r[1]["exit_status"] == 0
assert r[2]["kind"] == "x86 bzImage" and r[2]["loaded_by_shim"] == "refused"
assert r[2]["verified_through_protocol"] == "allowed" and r[2]["usual_path"] == "verified_through_protocol"
assert r[3]["kind"] is None and r[3]["error"]["what"] == "cannot open"
assert r[3]["error"]["system_error"] == "No such file or directory" and r[3]["exit_status"] == 1
assert d["skipped"] == {"not_pe": 3, "symbolic_links": 2}, d["skipped"]
assert d["exit_status"] == 4 == rc
PY
		ok "--json: schema 1, the policy, one result per image with its verdict, skipped counts, exit status"
	else
		not_ok "--json report" "$(head -c 600 "$T/py.err")" "$(head -c 400 "$T/report.json")"
	fi
	run --check-level "latest:$SHIM" --json --csv "$T/grub5.csv"
	printf '%s\n' "$OUT" >"$T/report2.json"
	if "$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["policy"]["source"] == "shim" and d["policy"]["payload"] == "latest"
assert d["results"][0]["input"] == "csv" and d["results"][0]["kind"] is None
assert d["results"][0]["verdict"] == "allowed" and d["exit_status"] == 0
' "$T/report2.json" 2>"$T/py.err"; then
		ok "--json with latest:SHIM and --csv"
	else
		not_ok "--json with latest:SHIM and --csv" "$(cat "$T/py.err")"
	fi
else
	skip "JSON checks" "no $PYTHON3"
fi

tap_finish
