#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-pipeline.sh - sbat-add in packaging pipelines: CSV from standard
# input, @FILE and inline text, several --csv merged, conflicts that name
# the component, warnings for dropped rows and --quiet, the --dry-run diff,
# a signed image that needs no change, --print --json as a contract, and
# --no-sync. With sbsign and openssl, the whole "sed | sbat-add && sbsign"
# pipeline on a generated image.
#
# Environment (set by meson): SBAT_ADD, GEN_FIXTURES, FIXTURES_SRC, SBAT_HOOKS.
set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env SBAT_ADD GEN_FIXTURES FIXTURES_SRC SBAT_HOOKS
CSV="$FIXTURES_SRC/csv/linux.sbat"
HDR='sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md'
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-pipe.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
"$GEN_FIXTURES" "$T/fx" >/dev/null || exit 1
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

. "$(dirname "$0")/../lib/cli.sh"
tap_details() {
	printf 'exit %s; stdout: %s\n' "${RC:-}" "$(head -c 400 "$T/out" 2>/dev/null)"
	printf 'stderr: %s\n' "$(head -c 400 "$T/err" 2>/dev/null)"
}
fresh() {
	cp -- "$T/fx/$1" "$T/$1"
	chmod u+w -- "$T/$1"
	printf '%s\n' "$T/$1"
}
printed() {
	"$SBAT_ADD" --print "$1" 2>/dev/null
}
out_has() { grep -qF -- "$1" "$T/out"; }

# ----------------------------------------------------------- where the CSV comes from

img=$(fresh efi-x86_64.efi)
sed 's/6\.1\.0/6.1.99/' "$CSV" | "$SBAT_ADD" --file "$img" --csv - >"$T/out" 2>"$T/err"
RC=$?
check "--csv - reads the CSV from a pipe" test "$RC" -eq 0
check "... and stores it" test "$(printed "$img")" = "$(sed 's/6\.1\.0/6.1.99/' "$CSV")"
run --file "$img" --csv "@$CSV"
check "--csv @FILE reads FILE" test "$(printed "$img")" = "$(cat "$CSV")"
run --file "$img" --csv "$HDR
inline,1,Inline,inline,1,https://example.invalid/inline"
check "--csv with the text itself (it holds a newline) stores it" test "$(printed "$img")" = "$HDR
inline,1,Inline,inline,1,https://example.invalid/inline"
printf '%s\ninline,1,Inline,inline,1,https://example.invalid/inline\n' "$HDR" >"$T/sbat,odd.csv"
run --file "$img" --csv "@$T/sbat,odd.csv"
check "a file whose name looks like CSV text is reached with @" test "$RC" -eq 0
run --file "$img" --csv - --csv -
check "standard input twice is a usage error" test "$RC" -eq 2

img=$(fresh efi-x86_64.efi)
run --file "$img" --csv "$CSV" --csv "$HDR
extra,1,Extra,extra,1,https://example.invalid/extra"
check "two --csv: merged in order" test "$(printed "$img")" = "$(cat "$CSV")
extra,1,Extra,extra,1,https://example.invalid/extra"
run --file "$img" --csv "$CSV" --csv "$HDR
linux,2,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux"
check "a component given twice with another generation: exit 1" test "$RC" -eq 1
check "... the error names the component and both generations" \
	err_has "component already present with a different generation: linux is at generation 1, this row says 2"
check "... and the source and line of the later row" err_has "inline CSV:2: field 2"
run --file "$img" --csv "$CSV" --csv "$HDR
linux,2,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux" --force
check "--force lets the later row win" sh -c "'$SBAT_ADD' --print '$img' | grep -q '^linux,2,'"

# ----------------------------------------------------------- no silent loss

img=$(fresh sbat-last.efi)
run --file "$img" --csv "$CSV"
check "a replace that drops a component: exit 0" test "$RC" -eq 0
check "... with a warning that names it" err_has "warning:"
check "... namely fxtest" err_has "drops rows the image had: fxtest"
img=$(fresh sbat-last.efi)
run --quiet --file "$img" --csv "$CSV"
check "--quiet: the same edit says nothing" test ! -s "$T/err"
img=$(fresh sbat-last.efi)
run --dry-run --file "$img" --csv "$CSV"
check "--dry-run prints a unified diff of the old and new .sbat" \
	sh -c "grep -q '^--- ' '$T/out' && grep -q '^+++ ' '$T/out' && grep -q '^-fxtest,1,' '$T/out' && grep -q '^+linux,1,' '$T/out' && grep -q '^ sbat,1,' '$T/out'"
check "--dry-run leaves the image alone" cmp -s "$img" "$T/fx/sbat-last.efi"

# a signed image that already holds the CSV: nothing to do, the signature stays
img=$(fresh signed.efi)
run --file "$img" --csv "$CSV"
check "a signed image that would change: refused (exit 1)" test "$RC" -eq 1
check "... with the way out" err_has "pass --strip-signature"
run --strip-signature --file "$img" --csv "$CSV" --output "$T/unsigned.efi"
check "stripped and edited into another file" test "$RC" -eq 0
if command -v sbsign >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1 && command -v sbverify >/dev/null 2>&1 &&
	openssl req -new -x509 -newkey rsa:2048 -nodes -subj /CN=sbat-add-test -days 2 \
		-keyout "$T/key.pem" -out "$T/cert.pem" >/dev/null 2>&1; then
	# the pipeline a packager writes: CSV from a template on stdin, then sign
	sed 's/6\.1\.0/6.1.42/' "$CSV" | "$SBAT_ADD" --file "$T/unsigned.efi" --csv - &&
		sbsign --key "$T/key.pem" --cert "$T/cert.pem" --output "$T/signed.efi" "$T/unsigned.efi" >/dev/null 2>&1
	RC=$?
	check "sed | sbat-add --csv - && sbsign: exit 0" test "$RC" -eq 0
	check "... sbverify accepts the result" sh -c "sbverify --cert '$T/cert.pem' '$T/signed.efi' >/dev/null 2>&1"
	cp -- "$T/signed.efi" "$T/signed.before"
	sed 's/6\.1\.0/6.1.42/' "$CSV" | "$SBAT_ADD" --file "$T/signed.efi" --csv - >"$T/out" 2>"$T/err"
	RC=$?
	check "the same CSV again on the signed image: exit 0" test "$RC" -eq 0
	check "... nothing written, the signature still verifies" \
		sh -c "cmp -s '$T/signed.efi' '$T/signed.before' && sbverify --cert '$T/cert.pem' '$T/signed.efi' >/dev/null 2>&1"
else
	skip "sbsign, sbverify or openssl missing: the signing pipeline"
fi

# ----------------------------------------------------------- JSON as a contract

img=$(fresh sbat-last.efi)
off=$("$SBAT_ADD" --print --json "$img" | sed -n 's/.*"name": ".sbat", "virtual_address": [0-9]*, "virtual_size": [0-9]*, "pointer_to_raw_data": \([0-9]*\).*/\1/p')
printf '%s\ncaf\xc3\xa9,1,Caf\xc3\xa9 \xff,p,1,u\n\0' "$HDR" | dd of="$img" bs=1 seek="$off" conv=notrunc status=none
run --print --json "$img"
if command -v python3 >/dev/null 2>&1; then
	check "--print --json: schema 1, the .sbat size, UTF-8 passed through, bad bytes as U+FFFD" python3 -c '
import json, sys
raw = open(sys.argv[1], "rb").read()
assert "caf\u00e9".encode() in raw and b"\\u00c3" not in raw, raw[:200]
d = json.loads(raw.decode("utf-8"))
assert d["schema"] == 1
s = d["sbat"]
sec = [x for x in d["sections"] if x["name"] == ".sbat"][0]
data = open(sys.argv[2], "rb").read()[sec["pointer_to_raw_data"]:]
assert s["size"] == data.index(b"\0"), (s["size"], data.index(b"\0"))
assert "caf\u00e9" in s["text"] and "\ufffd" in s["text"], s["text"]
' "$T/out" "$img"
	run --print --json "$T/fx/efi-x86_64.efi"
	check "--print --json without .sbat: exit 3, the JSON still printed" \
		sh -c "test $RC -eq 3 && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[\"sbat\"] is None' '$T/out'"
else
	skip "python3 is missing: JSON checks"
fi

# ----------------------------------------------------------- --no-sync

img=$(fresh checksummed.efi)
SBAT_TEST_AT=fsync SBAT_TEST_DO=kill:9 LD_PRELOAD="$SBAT_HOOKS" "$SBAT_ADD" --no-sync --file "$img" --csv "$CSV" \
	>"$T/out" 2>"$T/err"
RC=$?
check "--no-sync: no fsync at all (a hook that kills at the first fsync never fires)" test "$RC" -eq 0
check "... and the edit is in place" sh -c "'$SBAT_ADD' --print '$img' >/dev/null"
img=$(fresh checksummed.efi)
SBAT_TEST_AT=fsync SBAT_TEST_DO=kill:9 LD_PRELOAD="$SBAT_HOOKS" "$SBAT_ADD" --file "$img" --csv "$CSV" \
	>"$T/out" 2>"$T/err"
RC=$?
check "without --no-sync the result is fsynced (the same hook fires)" test "$RC" -eq 137
run --no-sync --dry-run --file "$img" --csv "$CSV"
check "--no-sync with --dry-run is a usage error" test "$RC" -eq 2

# --no-sync over an existing file: the names are exchanged (a rename over a file with data makes ext4 and
# btrfs start writing the new file back), the old file removed; durable: a rename
mkdir -p "$T/xchg"
cp -- "$T/fx/checksummed.efi" "$T/xchg/out.efi"
img=$(fresh checksummed.efi)
: >"$T/renames"
SBAT_TEST_LOG="$T/renames" LD_PRELOAD="$SBAT_HOOKS" "$SBAT_ADD" --no-sync --file "$img" --csv "$CSV" \
	--output "$T/xchg/out.efi" >"$T/out" 2>"$T/err"
RC=$?
check "--no-sync --output over a file: exit 0" test "$RC" -eq 0
check "... the names exchanged, no rename over the file" test "$(cat "$T/renames")" = "renameat2 exchange"
check "... the new content in place" sh -c "'$SBAT_ADD' --print '$T/xchg/out.efi' | grep -q linux"
check "... nothing else left in the directory" test "$(ls -A "$T/xchg")" = "out.efi"
: >"$T/renames"
SBAT_TEST_LOG="$T/renames" LD_PRELOAD="$SBAT_HOOKS" "$SBAT_ADD" --file "$img" --csv "$CSV" \
	--output "$T/xchg/out.efi" >"$T/out" 2>"$T/err"
check "without --no-sync: a rename over the file" test "$(cat "$T/renames")" = "renameat"
check "... nothing else left in the directory" test "$(ls -A "$T/xchg")" = "out.efi"
rm -f -- "$T/xchg/out.efi"
: >"$T/renames"
SBAT_TEST_LOG="$T/renames" LD_PRELOAD="$SBAT_HOOKS" "$SBAT_ADD" --no-sync --file "$img" --csv "$CSV" \
	--output "$T/xchg/out.efi" >"$T/out" 2>"$T/err"
check "--no-sync --output to a new name: a rename" test "$(cat "$T/renames")" = "renameat"

tap_finish
