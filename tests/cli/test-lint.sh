#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-lint.sh - --lint end to end: exit statuses, one line per finding,
# images made by other tools (GNU objcopy, llvm-objcopy when present), a
# shim-unreadable .sbat, every sbat-add output clean, several images at
# once, unreadable files, usage errors and the JSON form.
#
# Environment (set by meson): SBAT_ADD, GEN_FIXTURES, FIXTURES_SRC.
# Output: "ok N - ..." lines, then "P passed, F failed".
set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env SBAT_ADD GEN_FIXTURES FIXTURES_SRC
CSV="$FIXTURES_SRC/csv/linux.sbat"
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-lint.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
"$GEN_FIXTURES" "$T/fx" >/dev/null || exit 1

. "$(dirname "$0")/../lib/cli.sh"
tap_details() {
	printf 'exit %s; stdout: %s\n' "${RC:-}" "$(head -c 600 "$T/out" 2>/dev/null)"
	printf 'stderr: %s\n' "$(head -c 300 "$T/err" 2>/dev/null)"
}
lint() {
	"$SBAT_ADD" --lint "$@" >"$T/out" 2>"$T/err"
	RC=$?
}
out_has() { grep -qE -- "$1" "$T/out"; }
out_lacks() { ! grep -qE -- "$1" "$T/out"; }

lint "$T/fx/sbat-last.efi"
check "an image with a good .sbat lints clean (exit 0)" test "$RC" -eq 0
check "... and says so" out_has ': clean$'
lint "$T/fx/efi-x86_64.efi"
check "an EFI application without .sbat: exit 5 (warnings only)" test "$RC" -eq 5
check "... one line naming the rule, the offset and shim" out_has '^.*efi-x86_64.efi: warning: sbat-missing: .*\(at offset 0x[0-9a-f]+\) \[shim\]$'
lint "$T/fx/bzimage-new.bin"
check "a kernel without .sbat: only a note (exit 0)" test "$RC" -eq 0
check "... the note says how each boot path treats it" out_has 'note: sbat-missing: .*protocol'

for f in efi-x86_64.efi efi-ia32.efi efi-aarch64.efi bzimage-old.bin bzimage-new.bin arm64-image.bin zboot.efi \
	checksummed.efi overlay.efi grow-headers.efi sbat-mid.efi; do
	cp -- "$T/fx/$f" "$T/edited-$f"
	"$SBAT_ADD" --file "$T/edited-$f" --csv "$CSV" >/dev/null 2>&1
	lint "$T/edited-$f"
	check "sbat-add's output for $f lints without errors or warnings" test "$RC" -eq 0
done

# a .sbat whose second row has 5 fields, as memtest86+ 6.10 ships it
cp -- "$T/fx/sbat-last.efi" "$T/five.efi"
off=$("$SBAT_ADD" --print --json "$T/five.efi" | sed -n 's/.*"name": ".sbat", "virtual_address": [0-9]*, "virtual_size": [0-9]*, "pointer_to_raw_data": \([0-9]*\).*/\1/p')
printf 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\nmemtest86+,1,Memtest86+,6.10,https://memtest.org\n\0' |
	dd of="$T/five.efi" bs=1 seek="$off" conv=notrunc status=none
lint "$T/five.efi"
check "a 5-field .sbat row: exit 1" test "$RC" -eq 1
check "... sbat-unparsable names shim" out_has 'error: sbat-unparsable: .*\[shim\]'

# memtest86+ 7.20: the same row in a .sbat whose SizeOfRawData is below its
# VirtualSize; shim ignores the section and never parses the row
cp -- "$T/five.efi" "$T/five-ignored.efi"
hdr=$(LC_ALL=C grep -obUa -m1 '\.sbat' -- "$T/five-ignored.efi" | head -n1 | cut -d: -f1)
printf '\0\20\0\0' | dd of="$T/five-ignored.efi" bs=1 seek=$((hdr + 8)) conv=notrunc status=none
lint "$T/five-ignored.efi"
check "an ignored .sbat with a 5-field row: sbat-ignored, an error" out_has 'error: sbat-ignored: .*\[shim\]'
check "... not also sbat-unparsable: shim never parses it" out_lacks 'sbat-unparsable'
check "... the row is told as a format warning" out_has 'warning: sbat-invalid: '

# a long section name ("/4" in the header, ".eh_frame" in the COFF string table) is shown resolved
lint "$T/fx/long-name.efi"
check "a long section name is shown resolved in --lint" out_has 'section-write-execute: .*\(section 3 "\.eh_frame"\)'
"$SBAT_ADD" --lint --json "$T/fx/long-name.efi" >"$T/out" 2>"$T/err"
check "... and in --lint --json" out_has '"section": \{"index": 3, "name": "\.eh_frame"\}'

if command -v objcopy >/dev/null 2>&1 &&
	objcopy --add-section .sbat="$CSV" "$T/fx/efi-x86_64.efi" "$T/objcopy.efi" 2>/dev/null; then
	lint "$T/objcopy.efi"
	check "objcopy --add-section: exit 1 (a loader refuses it)" test "$RC" -eq 1
	check "... the .sbat is placed where shim and EDK2 refuse it" out_has 'error: section-(in-headers|outside-image): .*"\.sbat".*shim.*edk2'
else
	skip "GNU objcopy cannot write PE here"
fi
if command -v llvm-objcopy >/dev/null 2>&1 &&
	llvm-objcopy --add-section .sbat="$CSV" "$T/fx/efi-x86_64.efi" "$T/llvm.efi" 2>/dev/null; then
	lint "$T/llvm.efi"
	check "llvm-objcopy --add-section: a finding for its .sbat, exit 1 or 5" test "$RC" -eq 1 -o "$RC" -eq 5
	check "... one line per finding, each ending with its loaders" sh -c "! grep -v ': clean\$' '$T/out' | grep -qvE '\\[[a-z0-9, -]+\\]\$'"
else
	skip "llvm-objcopy is missing or cannot write PE"
fi

lint "$T/fx/sbat-last.efi" "$T/fx/efi-x86_64.efi" "$T/five.efi"
check "several images: the worst result counts (error: 1)" test "$RC" -eq 1
check "... every image is reported" test "$(grep -c -e 'sbat-last.efi: clean' -e 'efi-x86_64.efi: warning' -e 'five.efi: error' "$T/out")" -ge 3
lint "$T/fx/sbat-last.efi" "$T/fx/efi-x86_64.efi"
check "warnings and clean: 5" test "$RC" -eq 5
lint "$T/fx/sbat-last.efi" "$T/no-such-file.efi"
check "an unreadable image: exit 1" test "$RC" -eq 1
check "... reported on stdout and stderr" sh -c "grep -q 'no-such-file.efi: error: unreadable' '$T/out' && grep -q 'no-such-file.efi: cannot open' '$T/err'"
printf 'not a PE image' >"$T/text.efi"
lint "$T/text.efi"
check "a file that is no PE image: exit 1" test "$RC" -eq 1

"$SBAT_ADD" --lint --csv "$CSV" "$T/fx/sbat-last.efi" >/dev/null 2>&1
RC=$?
check "--lint with --csv is a usage error" test "$RC" -eq 2
"$SBAT_ADD" --lint >/dev/null 2>&1
RC=$?
check "--lint without an image is a usage error" test "$RC" -eq 2
"$SBAT_ADD" --lint --file "$T/fx/sbat-last.efi" >"$T/out" 2>&1
RC=$?
check "--lint --file IMAGE works like one argument" test "$RC" -eq 0

if command -v python3 >/dev/null 2>&1; then
	"$SBAT_ADD" --lint --json "$T/fx/sbat-last.efi" "$T/five.efi" "$T/no-such-file.efi" >"$T/out" 2>/dev/null
	RC=$?
	check "--lint --json: the exit status is the same" test "$RC" -eq 1
	check "--lint --json: one object, schema 1, a result per image with counts and findings" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == 1, d
r = d["results"]
assert [x["file"].rsplit("/", 1)[-1] for x in r] == ["sbat-last.efi", "five.efi", "no-such-file.efi"], r
assert r[0]["findings"] == [] and r[0]["errors"] == 0
f = [x for x in r[1]["findings"] if x["rule"] == "sbat-unparsable"][0]
assert f["severity"] == "error" and f["loaders"] == ["shim"] and isinstance(f["offset"], int)
assert f["section"]["name"] == ".sbat" and isinstance(f["message"], str)
assert r[1]["errors"] >= 1
assert r[2]["findings"] is None and r[2]["error"]
' "$T/out"
else
	skip "python3 is missing: JSON checks"
fi

tap_finish
