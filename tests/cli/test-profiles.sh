#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-profiles.sh - --lint --profile end to end: each rule of shim-review
# and uefi-ca on the generated image that breaks it and on the release
# image that passes them all, --previous (an image or a CSV) with the
# generation table, --against (the shipped history, a text SbatLevel, a
# shim binary's payloads, this machine's SbatLevelRT, none), exit
# statuses, usage errors and the JSON form.
#
# Environment (set by meson): SBAT_ADD, GEN_FIXTURES, FIXTURES_SRC.
# Output: "ok N - ..." lines, then "P passed, F failed".
set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env SBAT_ADD GEN_FIXTURES FIXTURES_SRC
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-profiles.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
"$GEN_FIXTURES" "$T/fx" >/dev/null || exit 1
FX=$T/fx
export SBAT_ADD_HISTORY="$FIXTURES_SRC/../../data/sbat-level-history.txt"
unset SBAT_ADD_EFIVARFS

. "$(dirname "$0")/../lib/cli.sh"

SBAT_ROW='sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md'
GRUB_ROW='grub,5,Free Software Foundation,grub,2.12,https://www.gnu.org/software/grub/'
VENDOR_ROW='grub.fxdistro,1,Fixture Distro,grub2,2.12-1fx1,https://example.invalid/grub2'

# out_has REGEX / out_lacks REGEX: on the last run's stdout
out_has() { grep -qE -- "$1" "$T/out"; }
out_lacks() { ! grep -qE -- "$1" "$T/out"; }

# breaks RULE SEVERITY STATUS IMAGE [ARGS...]: the rule fires on IMAGE with that severity and exit status
breaks() {
	local rule=$1 sev=$2 want=$3 img=$4
	shift 4
	run --lint --profile shim-review --profile uefi-ca "$@" "$FX/$img"
	expect "$rule: $img breaks it ($sev, exit $want)" \
		"[ \"\$RC\" -eq $want ] && out_has '^[^:]*$img: $sev: $rule: .*\\[[a-z0-9, -]+\\]\$'"
}

# ------------------------------------------------------------ the release image

run --lint --profile shim-review --profile uefi-ca "$FX/release-good.efi"
expect "the release image passes both profiles: clean, exit 0" '[ "$RC" -eq 0 ] && has_line "$FX/release-good.efi: clean"'
run --lint --profile shim-review --profile uefi-ca "$FX/release-uki.efi"
expect "a unified kernel image with systemd-stub and uki.VENDOR rows passes too" '[ "$RC" -eq 0 ] && out_has ": clean$"'
run --lint "$FX/uefi-ca-no-nx.efi"
expect "plain --lint runs no profile rule" '[ "$RC" -eq 0 ] && out_has ": clean$"'

# ------------------------------------------------------------ uefi-ca

breaks uefi-ca-section-alignment error 1 uefi-ca-align-512.efi
breaks uefi-ca-va-page-aligned error 1 uefi-ca-align-512.efi
breaks uefi-ca-headers-executable error 1 uefi-ca-align-512.efi
breaks uefi-ca-write-execute error 1 uefi-ca-write-execute.efi
breaks uefi-ca-nx-compat warning 5 uefi-ca-no-nx.efi
breaks uefi-ca-entry-point error 1 uefi-ca-entry-data.efi
breaks uefi-ca-entry-point error 1 uefi-ca-entry-outside.efi
breaks uefi-ca-relocations error 1 uefi-ca-relocs-stripped.efi
breaks uefi-ca-relocations error 1 uefi-ca-no-reloc-dir.efi
breaks uefi-ca-relocations error 1 uefi-ca-bad-reloc.efi
breaks uefi-ca-raw-page-aligned note 0 uefi-ca-raw-unaligned.efi
run --lint --profile uefi-ca "$FX/uefi-ca-no-nx.efi"
expect "NX_COMPAT missing is a warning (Microsoft signs shim without it) naming the UEFI CA" \
	'[ "$RC" -eq 5 ] && out_has "warning: uefi-ca-nx-compat: .*\\[shim, uefi-ca\\]$"'
run --lint --profile uefi-ca "$FX/bzimage-old.bin"
expect "a kernel before 6.7 (section alignment 32, code in the headers' page) fails uefi-ca" \
	'[ "$RC" -eq 1 ] && out_has "error: uefi-ca-headers-executable: .*\"\\.setup\"" && out_has "error: uefi-ca-section-alignment"'
run --lint --profile uefi-ca "$FX/review-revoked.efi"
expect "--profile uefi-ca alone runs no shim-review rule" '[ "$RC" -eq 0 ] && out_has ": clean$"'

# ------------------------------------------------------------ shim-review: the rows

breaks review-sbat-missing error 1 efi-x86_64.efi
breaks review-header error 1 review-no-header.efi
breaks review-duplicate error 1 review-duplicate.efi
breaks review-vendor-row error 1 review-no-vendor-row.efi
breaks review-upstream-row warning 5 review-no-upstream-row.efi
breaks review-vendor-version warning 5 review-vendor-version.efi
breaks review-url warning 5 review-url.efi
breaks review-component-name warning 5 review-lookalike.efi
breaks review-systemd-shared note 0 review-systemd.efi
breaks review-uki-row warning 5 review-uki.efi
breaks review-revoked error 1 review-revoked.efi
run --lint --profile shim-review "$FX/review-lookalike.efi"
expect "a look-alike name is told with the conventional one" 'out_has "review-component-name: .* \\(line 2: Grub2,5; conventional: grub\\)"'
run --lint --profile shim-review "$FX/bzimage-new.bin"
expect "a kernel without .sbat: only the loader rules' note (reviewers do not ask kernels for one)" \
	'[ "$RC" -eq 0 ] && out_lacks "review-sbat-missing"'

# ------------------------------------------------------------ shim-review: the published revocations

run --lint --profile shim-review "$FX/review-revoked.efi"
expect "dead on arrival: grub,3 is told with the first published level that revokes it and why" \
	'[ "$RC" -eq 1 ] && out_has "error: review-revoked: .*\\(line 2: grub,3 is below grub,4 of the published SbatLevel 2023091900; since SbatLevel 2023091900: GRUB NTFS module flaws.*\\) \\(section 3 \"\\.sbat\"\\) \\(at offset 0x[0-9a-f]+\\) \\[shim, shim-review\\]$"'
expect "... once, however many levels revoke it" '[ "$(grep -c review-revoked "$T/out")" -eq 1 ]'
run --lint --profile shim-review --against none "$FX/review-revoked.efi"
expect "--against none: no revocation check" '[ "$RC" -eq 0 ] && out_lacks "review-revoked:"'
printf 'sbat,1,2099010100\ngrub,6\n' >"$T/future.txt"
run --lint --profile shim-review --against "$T/future.txt" "$FX/release-good.efi"
expect "--against a text SbatLevel: grub,5 is below its grub,6" \
	'[ "$RC" -eq 1 ] && out_has "review-revoked: .*grub,5 is below grub,6 of SbatLevel 2099010100 in .*future.txt"'
run --lint --profile shim-review --against "$T/future.txt" --against history "$FX/review-revoked.efi"
expect "several policies: the first one given that revokes the row is named" \
	'[ "$RC" -eq 1 ] && out_has "grub,3 is below grub,6 of SbatLevel 2099010100"'

# a shim-like binary with Debian shim 16.1's two payloads in ".sbatlev" (see test-check-level.sh)
AUTOMATIC="$FIXTURES_SRC/level/debian-shim-16.1-automatic.txt"
LATEST="$FIXTURES_SRC/level/debian-shim-16.1-latest.txt"
SHIM="$T/shimx64.efi"
cp -- "$FX/sbat-mid.efi" "$SHIM"
hdr=$(LC_ALL=C grep -obUa -m1 '\.sbat' -- "$SHIM" | head -n1 | cut -d: -f1)
raw=$(od -An -tu4 -j $((hdr + 20)) -N 4 -- "$SHIM" | tr -d ' ')
alen=$(($(wc -c <"$AUTOMATIC") + 1))
printf '.sbatlev' | dd of="$SHIM" bs=1 seek="$hdr" conv=notrunc status=none
{
	printf '\0\0\0\0\10\0\0\0'
	printf "\\$(printf '%03o' $((8 + alen)))\\0\\0\\0"
	cat -- "$AUTOMATIC"
	printf '\0'
	cat -- "$LATEST"
	printf '\0'
} | dd of="$SHIM" bs=1 seek="$raw" conv=notrunc status=none
printf '%s\n%s\ngrub.proxmox,1,Proxmox,grub2,2.06-pve1,https://example.invalid/\n' "$SBAT_ROW" "$GRUB_ROW" >"$T/proxmox.csv"
"$SBAT_ADD" --file "$FX/efi-x86_64.efi" --csv "$T/proxmox.csv" --output "$T/proxmox.efi" >/dev/null 2>&1
run --lint --profile shim-review --against "$SHIM" "$T/proxmox.efi"
expect "--against a shim binary: both payloads count, grub.proxmox,1 falls to the latest one" \
	'[ "$RC" -eq 1 ] && out_has "grub.proxmox,1 is below grub.proxmox,2 of SbatLevel 2025051000, the latest payload of .*shimx64.efi"'
run --lint --profile shim-review --against "automatic:$SHIM" "$T/proxmox.efi"
expect "--against automatic:SHIM: that payload alone, which does not revoke it" 'out_lacks "review-revoked:"'

EV="$T/efivars"
mkdir -p -- "$EV"
{
	printf '\6\0\0\0'
	cat -- "$LATEST"
} >"$EV/SbatLevelRT-605dab50-e046-4300-abb6-3dd810dd8b23"
SBAT_ADD_EFIVARFS="$EV" run --lint --profile shim-review --against running "$T/proxmox.efi"
expect "--against running: this machine's SbatLevelRT" \
	'[ "$RC" -eq 1 ] && out_has "of SbatLevel 2025051000, this machine.s SbatLevelRT"'
SBAT_ADD_EFIVARFS="$T/none" run --lint --profile shim-review --against running "$FX/release-good.efi"
expect "--against running without UEFI variables: exit 1 before any image" \
	'[ "$RC" -eq 1 ] && [ -z "$OUT" ] && err_has "no UEFI variables"'
SBAT_ADD_HISTORY="$T/no-history.txt" run --lint --profile shim-review "$FX/release-good.efi"
expect "no readable history and no --against: exit 1, nothing judged" \
	'[ "$RC" -eq 1 ] && [ -z "$OUT" ] && err_has "cannot read the published SbatLevel history"'
mkfifo "$T/history.fifo"
SBAT_ADD_HISTORY="$T/history.fifo" timeout 20 "$SBAT_ADD" --lint --profile shim-review "$FX/release-good.efi" >"$T/out" 2>"$T/err"
RC=$?
slurp ERR "$T/err"
expect "SBAT_ADD_HISTORY naming a FIFO: refused at once (exit 1, not a regular file), not waited on" \
	'[ "$RC" -eq 1 ] && err_has "history.fifo: cannot read the published SbatLevel history: not a regular file"'
SBAT_ADD_HISTORY="$T/no-history.txt" run --lint --profile uefi-ca "$FX/release-good.efi"
expect "... which uefi-ca alone does not read" '[ "$RC" -eq 0 ]'
# without SBAT_ADD_HISTORY: the installed file, or, run from the build tree
# (nothing installed), the copy built in; the same verdict either way
(unset SBAT_ADD_HISTORY && run --lint --profile shim-review "$FX/release-good.efi" &&
	printf '%s\n' "$RC" >"$T/uninstalled.rc" && cat "$T/err" >"$T/uninstalled.err")
expect "no SBAT_ADD_HISTORY, uninstalled: the history built in is read (exit 0, as with the file)" \
	'[ "$(cat "$T/uninstalled.rc")" = 0 ] && ! grep -q "cannot read" "$T/uninstalled.err"'
printf 'level|2099|grub,2\n' >"$T/bad-history.txt"
SBAT_ADD_HISTORY="$T/bad-history.txt" run --lint --profile shim-review "$FX/release-good.efi"
expect "a history line that is no SbatLevel: exit 1 naming the file and line" \
	'[ "$RC" -eq 1 ] && err_has "bad-history.txt: line 1"'
run --lint --profile shim-review --against "$T/missing.txt" "$FX/release-good.efi"
expect "an unreadable --against file: exit 1" '[ "$RC" -eq 1 ] && err_has "missing.txt"'

# ------------------------------------------------------------ shim-review: generations against the release before

csv() { # csv FILE ROW...: a CSV with the sbat row first
	local f=$1
	shift
	printf '%s\n' "$SBAT_ROW" "$@" >"$f"
}
csv "$T/prev-same.csv" "$GRUB_ROW" "$VENDOR_ROW"
run --lint --profile shim-review --previous "$T/prev-same.csv" "$FX/release-good.efi"
expect "--previous with the same rows: clean, and the generation of each component" \
	'[ "$RC" -eq 0 ] && has_line "$FX/release-good.efi: clean" && has_line "$FX/release-good.efi: generation: sbat: 1 -> 1" &&
	 has_line "$FX/release-good.efi: generation: grub: 5 -> 5" && has_line "$FX/release-good.efi: generation: grub.fxdistro: 1 -> 1"'
csv "$T/prev-higher.csv" "grub,6,Free Software Foundation,grub,2.14,https://www.gnu.org/software/grub/" "$VENDOR_ROW"
breaks review-generation-lower error 1 release-good.efi --previous "$T/prev-higher.csv"
expect "... its line says old and new" 'out_has "review-generation-lower: .*\\(grub: 6 -> 5, version 2.14 -> 2.12\\)" && has_line "$FX/release-good.efi: generation: grub: 6 -> 5"'
csv "$T/prev-lower.csv" "grub,3,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/" "$VENDOR_ROW"
breaks review-generation-jump warning 5 release-good.efi --previous "$T/prev-lower.csv"
csv "$T/prev-one.csv" "grub,4,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/" "$VENDOR_ROW"
run --lint --profile shim-review --previous "$T/prev-one.csv" "$FX/release-good.efi"
expect "a generation raised by one needs no reason" '[ "$RC" -eq 0 ] && has_line "$FX/release-good.efi: generation: grub: 4 -> 5"'
csv "$T/prev-gone.csv" "$GRUB_ROW" "$VENDOR_ROW" "grub.fxdistro12,1,Fixture Distro,grub2,2.06-1fx1,https://example.invalid/"
breaks review-component-gone warning 5 release-good.efi --previous "$T/prev-gone.csv"
expect "... listed with no generation now" 'has_line "$FX/release-good.efi: generation: grub.fxdistro12: 1 -> -"'
csv "$T/prev-version.csv" "$GRUB_ROW" "grub.fxdistro,1,Fixture Distro,grub2,2.12-0fx9,https://example.invalid/grub2"
breaks review-generation-same note 0 release-good.efi --previous "$T/prev-version.csv"
run --lint --profile shim-review --previous "$FX/review-revoked.efi" "$FX/release-good.efi"
expect "--previous takes an image: its .sbat as shim reads it (grub 3 -> 5: a jump)" \
	'[ "$RC" -eq 5 ] && out_has "review-generation-jump: .*\\(grub: 3 -> 5" && has_line "$FX/release-good.efi: generation: grub: 3 -> 5"'
run --lint --profile shim-review --previous "$T/prev-same.csv" "$FX/efi-x86_64.efi"
expect "an image that lost its .sbat: every component is gone" \
	'[ "$RC" -eq 1 ] && [ "$(grep -c "review-component-gone" "$T/out")" -eq 3 ] && has_line "$FX/efi-x86_64.efi: generation: grub: 5 -> -"'
run --lint --profile shim-review --previous "$FX/efi-x86_64.efi" "$FX/release-good.efi"
expect "--previous naming an image without .sbat: exit 1" '[ "$RC" -eq 1 ] && [ -z "$OUT" ] && err_has "nothing to compare with"'
printf 'grub,5,x\n' >"$T/bad.csv"
run --lint --profile shim-review --previous "$T/bad.csv" "$FX/release-good.efi"
expect "--previous naming a CSV that does not validate: exit 1 with the line" '[ "$RC" -eq 1 ] && err_has "bad.csv"'

# ------------------------------------------------------------ several images, exit statuses

run --lint --profile shim-review --profile uefi-ca "$FX/release-good.efi" "$FX/review-systemd.efi"
expect "a note only: exit 0" '[ "$RC" -eq 0 ]'
run --lint --profile shim-review --profile uefi-ca "$FX/release-good.efi" "$FX/review-url.efi"
expect "warnings only: exit 5" '[ "$RC" -eq 5 ]'
run --lint --profile shim-review --profile uefi-ca "$FX/review-url.efi" "$FX/review-revoked.efi" "$T/nothing.efi"
expect "an error, a warning, an unreadable file: exit 1, each reported" \
	'[ "$RC" -eq 1 ] && out_has "review-url.efi: warning" && out_has "review-revoked.efi: error" && out_has "nothing.efi: error: unreadable"'

# ------------------------------------------------------------ usage

expect_rc "--profile with an unknown name: usage error" 2 --lint --profile shim "$FX/release-good.efi"
expect "... naming the profiles there are" 'err_has "shim-review" && err_has "uefi-ca"'
expect_rc "--profile without --lint: usage error" 2 --print --profile uefi-ca "$FX/release-good.efi"
expect_rc "--previous without --profile shim-review: usage error" 2 --lint --profile uefi-ca --previous "$T/prev-same.csv" "$FX/release-good.efi"
expect_rc "--against without --profile shim-review: usage error" 2 --lint --against none "$FX/release-good.efi"
expect_rc "--previous twice: usage error" 2 --lint --profile shim-review --previous a --previous b "$FX/release-good.efi"
expect_rc "--against latest: with no file: usage error" 2 --lint --profile shim-review --against latest: "$FX/release-good.efi"
expect_rc "--previous with an empty name: usage error" 2 --lint --profile shim-review --previous "" "$FX/release-good.efi"
expect_rc "--profile with an edit: usage error" 2 --file "$T/x.efi" --csv "$T/prev-same.csv" --profile uefi-ca

# ------------------------------------------------------------ JSON

if command -v python3 >/dev/null 2>&1; then
	run --lint --json "$FX/release-good.efi"
	expect "plain --lint --json has no key of the profiles" \
		'[ "$RC" -eq 0 ] && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert set(d) == {\"schema\", \"results\"}; assert set(d[\"results\"][0]) == {\"file\", \"findings\", \"errors\", \"warnings\", \"notes\"}" "$T/out"'
	run --lint --json --profile shim-review --profile uefi-ca --previous "$T/prev-higher.csv" \
		"$FX/release-good.efi" "$FX/review-revoked.efi" "$FX/uefi-ca-no-nx.efi" "$T/nothing.efi"
	expect "--lint --json --profile: exit status as in text" '[ "$RC" -eq 1 ]'
	expect "--lint --json --profile: schema 1; profiles, rows, policies and generations as documented" 'python3 - "$T/out" <<'"'"'PY'"'"'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == 1
assert d["previous"].endswith("prev-higher.csv")
pol = d["policies"]
assert pol and all(p["source"] == "history" and p["payload"] is None and len(p["datestamp"]) == 10 for p in pol)
assert [p["index"] for p in pol] == list(range(len(pol)))
r = {x["file"].rsplit("/", 1)[-1]: x for x in d["results"]}
good, revoked, nonx, gone = r["release-good.efi"], r["review-revoked.efi"], r["uefi-ca-no-nx.efi"], r["nothing.efi"]
for x in r.values():
    assert x["profiles"] == ["shim-review", "uefi-ca"], x
low = [f for f in good["findings"] if f["rule"] == "review-generation-lower"][0]
assert low["profile"] == "shim-review" and low["severity"] == "error"
assert low["row"]["component_name"] == "grub" and low["row"]["generation"] == 5 and low["row"]["line"] == 2
assert low["previous_row"]["generation"] == 6 and low["policy"] is None and low["conventional_name"] is None
assert {"component_name": "grub", "previous": 6, "generation": 5} in good["generations"]
rv = [f for f in revoked["findings"] if f["rule"] == "review-revoked"][0]
p = rv["policy"]
assert p["source"] == "history" and p["datestamp"] == "2023091900" and p["component_name"] == "grub" and p["generation"] == 4
assert pol[p["index"]]["datestamp"] == "2023091900"
assert rv["loaders"] == ["shim", "shim-review"]
nx = [f for f in nonx["findings"] if f["rule"] == "uefi-ca-nx-compat"][0]
assert nx["profile"] == "uefi-ca" and nx["severity"] == "warning" and nx["row"] is None
assert nonx["warnings"] >= 1
assert gone["findings"] is None and gone["generations"] is None and gone["errors"] == 1
PY'
else
	skip "python3 is missing: JSON checks"
fi

tap_finish
