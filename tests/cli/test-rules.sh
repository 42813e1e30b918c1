#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-rules.sh - black-box tests of the rules every mode shares: one
# reading of --csv (file, @FILE, -, inline text; an existing file is
# always a file), JSON that keeps its shape when an input cannot be read,
# which options each mode takes, and the wording of input failures.
#
# Environment (set by meson): SBAT_ADD, GEN_FIXTURES, FIXTURES_SRC.
# Optional: PYTHON3 for the JSON checks.
# Output: "ok N - ..." or "not ok N - ..." per check, then the TAP plan.

set -u

for var in SBAT_ADD GEN_FIXTURES FIXTURES_SRC; do
	if [ -z "${!var:-}" ]; then
		echo "test-rules.sh: $var is not set (run through 'meson test')" >&2
		exit 1
	fi
done
PYTHON3="${PYTHON3:-/usr/bin/python3}"
LATEST="$FIXTURES_SRC/level/debian-shim-16.1-latest.txt"

T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-rules.XXXXXX") || exit 1
trap 'chmod -R u+rwx -- "$T" 2>/dev/null; rm -rf -- "$T"' EXIT

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/cli.sh"

tap_details() {
	printf 'exit status %s\n' "$RC"
	printf 'stdout: %s\n' "$(head -c 600 "$T/out")"
	printf 'stderr: %s\n' "$(head -c 400 "$T/err")"
}

FIX="$T/fixtures"
mkdir -p -- "$FIX"
if ! "$GEN_FIXTURES" "$FIX" >/dev/null 2>"$T/gen.err"; then
	not_ok "gen-fixtures writes the example images" "$(cat "$T/gen.err")"
	tap_finish
	exit 1
fi
EFI="$FIX/efi-x86_64.efi"
SBAT_ROW="sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md"
for g in 3 5; do
	printf '%s\ngrub,%s,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n' \
		"$SBAT_ROW" "$g" >"$T/grub$g.csv"
done

# ---------------------------------------------------------------- --csv: one rule everywhere

run --check-level "$LATEST" --csv - <"$T/grub5.csv"
expect "--check-level --csv - reads standard input" \
	'[ "$RC" -eq 0 ] && [[ "$OUT" == "standard input: allowed"* ]]'
run --check-level "$LATEST" --csv "@$T/grub3.csv"
expect "--check-level --csv @FILE reads FILE" \
	'[ "$RC" -eq 4 ] && [[ "$OUT" == "$T/grub3.csv: revoked"* ]]'
run --check-level "$LATEST" --csv "$(cat "$T/grub5.csv")"
expect "--check-level --csv TEXT judges the text itself" \
	'[ "$RC" -eq 0 ] && [[ "$OUT" == "inline CSV: allowed"* ]]'
sed 's/grub,3,/grub,5,/' "$T/grub3.csv" | "$SBAT_ADD" --check-level "$LATEST" --csv - >"$T/out" 2>"$T/err"
RC=$?
expect "sed ... | sbat-add --check-level POLICY --csv - works" '[ "$RC" -eq 0 ]'

# a file whose name looks like inline text is still a file
mkdir -p -- "$T/cwd"
cp -- "$T/grub5.csv" "$T/cwd/sbat,x.csv"
(cd "$T/cwd" && "$SBAT_ADD" --file "$EFI" --csv 'sbat,x.csv' --output out.efi) >"$T/out" 2>"$T/err"
RC=$?
run --print "$T/cwd/out.efi"
expect "an existing file named 'sbat,x.csv' is read as a file by an edit" \
	'[ "$RC" -eq 0 ] && [ "$OUT" = "$(cat "$T/grub5.csv")" ]'
(cd "$T/cwd" && "$SBAT_ADD" --check-level "$LATEST" --csv 'sbat,x.csv') >"$T/out" 2>"$T/err"
RC=$?
OUT=$(cat "$T/out")
expect "... and by --check-level" '[ "$RC" -eq 0 ] && [[ "$OUT" == "sbat,x.csv: allowed"* ]]'

# ---------------------------------------------------------------- JSON keeps its shape on errors

if [ -x "$PYTHON3" ]; then
	run --lint --json "$EFI" "$T/absent.efi"
	printf '%s\n' "$OUT" >"$T/lint.json"
	check "--lint --json: an unreadable image has the keys of any result, and the errno text" \
		"$PYTHON3" -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
keys = {"file", "findings", "errors", "warnings", "notes"}
assert keys <= set(r[0]) and keys <= set(r[1]), r
assert r[1]["errors"] == 1 and r[1]["warnings"] == 0 and r[1]["notes"] == 0, r[1]
assert r[1]["error"] == "cannot open" and r[1]["system_error"] == "No such file or directory", r[1]
' "$T/lint.json"
	mkdir -p -- "$T/efivars"
	SBAT_ADD_EFIVARFS="$T/efivars" run --check-level running --json "$EFI"
	printf '%s\n' "$OUT" >"$T/level.json"
	check "--check-level running --json without an SbatLevel (exit 6) still prints a report" \
		"$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert int(sys.argv[2]) == 6 and d["exit_status"] == 6, d
assert d["schema"] == 1 and d["results"] == [] and d["skipped"] == {"not_pe": 0, "symbolic_links": 0}
p = d["policy"]
assert p["source"] == "running" and p["datestamp"] is None and p["entries"] == []
assert "no such variable" in p["absent"], p
' "$T/level.json" "$RC"
else
	skip "JSON checks: no $PYTHON3"
fi

# ---------------------------------------------------------------- input failures, worded once

# /proc files report a size of 0 and have contents: one explanation, whichever mode reads them
if [ -s /proc/self/status ] || [ "$(head -c 1 /proc/self/status | wc -c)" -eq 1 ]; then
	PROC_MSG="reports a size of 0 but has contents"
	for mode in "--print /proc/self/status" "--lint /proc/self/status" \
		"--file /proc/self/status --csv $T/grub5.csv --output $T/proc.out" \
		"--file $EFI --csv /proc/self/status --output $T/proc.out" \
		"--check-level /proc/self/status $EFI" "--check-level $LATEST --csv /proc/self/status"; do
		# shellcheck disable=SC2086
		run $mode
		m=${mode//$T/T}
		expect "size-0 /proc file (${m//$FIXTURES_SRC/FIXTURES_SRC}): '$PROC_MSG'" \
			'[ "$RC" -eq 1 ] && [[ "$ERR" == *"/proc/self/status: $PROC_MSG"* ]]'
	done
else
	skip "no /proc/self/status"
fi

# --dry-run's scratch file goes where TMPDIR says
mkdir -p -- "$T/scratch"
TMPDIR="$T/scratch" run --dry-run --file "$EFI" --csv "$T/grub5.csv"
expect "--dry-run with TMPDIR set to a directory works" '[ "$RC" -eq 0 ]'
TMPDIR="$T/no-such-dir" run --dry-run --file "$EFI" --csv "$T/grub5.csv"
expect "--dry-run uses TMPDIR (a missing TMPDIR is reported, not bypassed)" \
	'[ "$RC" -eq 1 ] && [[ "$ERR" == *"scratch file in \$TMPDIR: No such file or directory"* ]]'

# ---------------------------------------------------------------- what each mode takes

run ''
expect "an empty IMAGE argument is blamed as an IMAGE, not as --file" \
	'[ "$RC" -eq 2 ] && [[ "$ERR" == *"empty file name given as an IMAGE"* ]] && [[ "$ERR" != *--file* ]]'
run --print ''
expect "--print '': blamed as an IMAGE, not as --file" \
	'[ "$RC" -eq 2 ] && [[ "$ERR" == *"empty file name given as an IMAGE"* ]] && [[ "$ERR" != *--file* ]]'
run --file "$EFI" --csv "$T/grub5.csv" --output "$T/o1.efi" --output "$T/o2.efi"
expect "--output twice is a usage error, as --file twice is" \
	'[ "$RC" -eq 2 ] && [[ "$ERR" == *"--output given twice"* ]] && [ ! -e "$T/o1.efi" ] && [ ! -e "$T/o2.efi" ]'
(cd "$T/cwd" && "$SBAT_ADD" --file "$EFI" --csv "$T/grub5.csv" --output -) >"$T/out" 2>"$T/err"
RC=$?
ERR=$(cat "$T/err")
expect "--output - is refused (not a file named -), and ./- is suggested" \
	'[ "$RC" -eq 2 ] && [ ! -e "$T/cwd/-" ] && [[ "$ERR" == *"./-"* ]]'
(cd "$T/cwd" && "$SBAT_ADD" --file "$EFI" --csv "$T/grub5.csv" --output ./-) >"$T/out" 2>"$T/err"
RC=$?
expect "--output ./- writes a file named -" '[ "$RC" -eq 0 ] && [ -s "$T/cwd/-" ]'
cp -- "$T/cwd/out.efi" "$T/with-sbat.efi"
for opt in "--lock-timeout 5" --no-sync; do
	# shellcheck disable=SC2086
	run --print $opt "$T/with-sbat.efi"
	expect "--print $opt is a usage error (it would be ignored)" \
		'[ "$RC" -eq 2 ] && [[ "$ERR" == *"goes with an edit"* ]]'
	# shellcheck disable=SC2086
	run --check-level "$LATEST" $opt "$T/with-sbat.efi"
	expect "--check-level $opt is a usage error" '[ "$RC" -eq 2 ]'
	# shellcheck disable=SC2086
	run --lint $opt "$T/with-sbat.efi"
	expect "--lint $opt is a usage error" '[ "$RC" -eq 2 ]'
done
run --print --level-payload latest "$T/with-sbat.efi"
expect "--print --level-payload is a usage error" '[ "$RC" -eq 2 ]'
run --file "$EFI" --csv "$T/grub5.csv" --output "$T/o3.efi" --level-payload latest
expect "an edit with --level-payload is a usage error" '[ "$RC" -eq 2 ] && [ ! -e "$T/o3.efi" ]'
run --check-level "$LATEST" --level-payload automatic "$T/with-sbat.efi"
expect "--level-payload with a text POLICY says it is ignored" \
	'[ "$RC" -eq 0 ] && [[ "$ERR" == *"warning:"*"text SbatLevel"*"ignored"* ]]'
run --json --file "$EFI" --csv "$T/grub5.csv" --output "$T/o4.efi"
expect "--json in an edit names every mode it goes with, --lint too" \
	'[ "$RC" -eq 2 ] && [[ "$ERR" == *"--json goes with --print, --check-level or --lint"* ]]'

# --print, like --lint, takes many images: one block each, the worst status
run --print "$T/with-sbat.efi" "$EFI" "$T/cwd/out.efi"
expect "--print IMAGE... prints one block per image, headed by its name" \
	'[ "$RC" -eq 3 ] && [ "$(grep -c "^==> " "$T/out")" -eq 3 ] &&
	 [ "$(grep -c "^grub,5," "$T/out")" -eq 2 ] && [[ "$ERR" == *"$EFI: no .sbat section"* ]]'
run --print "$T/with-sbat.efi" "$T/absent.efi" "$EFI"
expect "--print IMAGE...: an unreadable image (1) outweighs one without .sbat (3)" '[ "$RC" -eq 1 ]'
run --print "$T/with-sbat.efi"
expect "--print with one image has no header" '[ "$RC" -eq 0 ] && [ "$OUT" = "$(cat "$T/grub5.csv")" ]'

# a zero-size .sbat that is the last section: refused for what it is
u32_at() {
	od -An -tu4 -j "$2" -N 4 -- "$1" | tr -d ' '
}
u16_at() {
	od -An -tu2 -j "$2" -N 2 -- "$1" | tr -d ' '
}
Z="$T/zero-last.efi"
cp -- "$FIX/sbat-last.efi" "$Z"
pe=$(u32_at "$Z" 60)
nsec=$(u16_at "$Z" $((pe + 6)))
sh=$((pe + 24 + $(u16_at "$Z" $((pe + 20))) + 40 * (nsec - 1)))
if [ "$(head -c $((sh + 5)) -- "$Z" | tail -c 5)" = ".sbat" ]; then
	printf '\0\0\0\0\0\0\0\0' | dd of="$Z" bs=1 seek=$((sh + 16)) conv=notrunc status=none
	run --file "$Z" --csv "$T/grub5.csv" --output "$T/z.efi"
	expect "a zero-size last .sbat is refused for having no data, not as 'not the last section'" \
		'[ "$RC" -eq 1 ] && [[ "$ERR" == *"SizeOfRawData 0"* ]] && [[ "$ERR" != *"not the last section"* ]]'
else
	not_ok "sbat-last.efi's last section is .sbat"
fi

# --help's synopsis (the lines up to the first empty one) names every mode's options
"$SBAT_ADD" --help >"$T/help" 2>&1
sed -n '1,/^$/p' "$T/help" >"$T/synopsis"
for opt in --relocate --level-payload --merge --force --remove --json; do
	check "--help's synopsis names $opt" grep -qF -- "$opt" "$T/synopsis"
done
check "--help's synopsis shows that --print takes several images" grep -qF -- "--print [--json] IMAGE..." "$T/synopsis"

tap_finish
