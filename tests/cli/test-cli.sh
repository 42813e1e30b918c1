#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-cli.sh - black-box tests of the sbat-add command: options, exit codes,
# messages, file handling, every kind of edit (insert, remove, relocate,
# header growth, merge), --print --json, --check-level, and agreement
# between --help and the manual page.
#
# Environment (set by meson):
#   SBAT_ADD      path of the built sbat-add
#   GEN_FIXTURES  path of the built gen-fixtures
#   FIXTURES_SRC  the tests/fixtures source directory (holds csv/)
# Optional: MANPAGE (the manual page to compare with --help) and PYTHON3
# (default /usr/bin/python3, for the JSON checks; they are skipped without it).
# Output: TAP (meson runs it with protocol 'tap'): one "ok N - ..." or
# "not ok N - ..." line per check, the plan "1..N" at the end and then the
# comment "# P passed, F failed". Exits 1 when a check failed.

set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env SBAT_ADD GEN_FIXTURES FIXTURES_SRC

script_dir=$(cd "$(dirname "$0")" && pwd)
MANPAGE="${MANPAGE:-$script_dir/../../build/sbat-add.1}"
CSV="$FIXTURES_SRC/csv/linux.sbat"

T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-cli.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT

. "$(dirname "$0")/../lib/cli.sh"

# entries DIR: ENTRIES = the names in DIR (hidden ones too), each followed by
# a space, sorted; like $(ls -A DIR | tr '\n' ' ') without a process.
entries() {
	local e
	ENTRIES=""
	for e in "$1"/* "$1"/.*; do
		e=${e##*/}
		case "$e" in . | .. | '*' | '.*') continue ;; esac
		ENTRIES+="$e "
	done
}

# expect_usage DESCRIPTION ARGS...: exit 2, nothing on stdout, a "sbat-add: " message
# and a pointer to --help on stderr.
expect_usage() {
	local desc="$1"
	shift
	run "$@"
	# getopt may add its own line first, so look for ours anywhere
	if [ "$RC" -eq 2 ] && [ -z "$OUT" ] && [[ $'\n'"$ERR" == *$'\n''sbat-add: '* ]] &&
	   [[ "$ERR" == *"--help"* ]]; then
		ok "$desc"
	else
		local details
		mapfile -t details < <(echo "expected exit status 2 and a usage message"; what_ran)
		not_ok "$desc" "${details[@]}"
	fi
}

mode() {
	stat -c %a -- "$1"
}

# one_line TEXT: TEXT (captured output, trailing newlines removed) is one line
one_line() {
	[ -n "$1" ] && [[ "$1" != *$'\n'* ]]
}

# fresh NAME DIR: copy the pristine fixture NAME into DIR; F = its path.
fresh() {
	[ -d "$2" ] || mkdir -p -- "$2"
	F="$2/$1"
	cp -- "$FIX/$1" "$F"
}

# ---------------------------------------------------------------- fixtures

FIX="$T/fixtures"
mkdir -p -- "$FIX"
if "$GEN_FIXTURES" "$FIX" >/dev/null 2>"$T/gen.err"; then
	ok "gen-fixtures writes the example images"
else
	not_ok "gen-fixtures writes the example images" "$(cat "$T/gen.err")"
	tap_finish
	exit 1
fi
chmod a-w -- "$FIX"/*

# every image but the boot loader stand-ins of the boot-path tests and the
# release-check images of the profile tests (plain EFI applications with a
# few more sections or other header flags: nothing new for an edit)
mapfile -t images < <(cd "$FIX" && ls -1 | grep -v -x -e sd-boot.efi -e grub-core.efi -e uki.efi -e uki-kernel-sbat.efi \
	-e 'release-.*' -e 'review-.*' -e 'uefi-ca-.*')
check "gen-fixtures wrote no-room.efi and signed.efi" \
	test -f "$FIX/no-room.efi" -a -f "$FIX/signed.efi"

# ------------------------------------------------------ help and version

run --help
if [ "$RC" -eq 0 ] && [[ "$OUT" == "Usage: sbat-add "* ]] && [ -z "$ERR" ]; then
	ok "--help exits 0 and prints the usage on stdout"
else
	mapfile -t d < <(what_ran)
	not_ok "--help exits 0 and prints the usage on stdout" "${d[@]}"
fi
HELP="$OUT"

run -h
if [ "$RC" -eq 0 ] && [ "$OUT" = "$HELP" ]; then
	ok "-h is the same as --help"
else
	mapfile -t d < <(what_ran)
	not_ok "-h is the same as --help" "${d[@]}"
fi

for opt in --version -V; do
	run "$opt"
	if [ "$RC" -eq 0 ] && [[ "$OUT" =~ ^sbat-add\ [0-9]+\.[0-9]+ ]] && [ -z "$ERR" ]; then
		ok "$opt prints 'sbat-add VERSION' and exits 0"
	else
		mapfile -t d < <(what_ran)
		not_ok "$opt prints 'sbat-add VERSION' and exits 0" "${d[@]}"
	fi
done

# ---------------------------------------------------------- usage errors
# Nonexistent paths: usage errors are found before any file is opened.

NOFILE="$T/does-not-exist.efi"
expect_usage "no arguments is a usage error"
expect_usage "an unknown option is a usage error" --no-such-option "$NOFILE"
expect_usage "--print with --csv is a usage error" --print --csv "$CSV" "$NOFILE"
expect_usage "--print with --output is a usage error" --print --output "$T/x" "$NOFILE"
expect_usage "--print with --dry-run is a usage error" --print --dry-run "$NOFILE"
expect_usage "--print with --strip-signature is a usage error" --print --strip-signature "$NOFILE"
expect_usage "a missing --csv is a usage error" --file "$NOFILE"
expect_usage "two IMAGE arguments are a usage error" --csv "$CSV" "$NOFILE" "$NOFILE.2"
expect_usage "--file and an IMAGE argument is a usage error" --csv "$CSV" --file "$NOFILE" "$NOFILE.2"
expect_usage "--output with --dry-run is a usage error" \
	--file "$NOFILE" --csv "$CSV" --output "$T/x" --dry-run
expect_usage "--csv without its argument is a usage error" --file "$NOFILE" --csv
expect_usage "--remove with --csv is a usage error" --remove --csv "$CSV" --file "$NOFILE"
expect_usage "--remove with --relocate is a usage error" --remove --relocate --file "$NOFILE"
expect_usage "--remove with --merge is a usage error" --remove --merge --file "$NOFILE"
expect_usage "--force without --merge is a usage error" --force --csv "$CSV" --file "$NOFILE"
expect_usage "--json without --print is a usage error" --json "$NOFILE"
expect_usage "--json with an edit is a usage error" --json --csv "$CSV" --file "$NOFILE"
expect_usage "--print with --remove is a usage error" --print --remove "$NOFILE"
expect_usage "--print with --check-level is a usage error" --print --check-level "$NOFILE" "$NOFILE"
expect_usage "--check-level with --output is a usage error" \
	--check-level "$NOFILE" --output "$T/x" "$NOFILE"
expect_usage "--check-level with an IMAGE and --csv is a usage error" \
	--check-level "$NOFILE" --csv "$CSV" "$NOFILE"
expect_usage "--check-level with neither IMAGE nor --csv is a usage error" --check-level "$NOFILE"
expect_usage "--level-payload bogus is a usage error" \
	--check-level "$NOFILE" --level-payload bogus "$NOFILE"
check "usage errors created no files" test ! -e "$T/x"

# ---------------------------------------------- insert, print, idempotence

for img in "${images[@]}"; do
	case "$img" in
	# a signed image, and a UKI whose .pcrsig the edit makes stale (test-uki.sh), are refused
	no-room.efi | signed.efi | uki-257.efi | uki-257-pcrsig-mid.efi | uki-262-machine.efi) continue ;;
	esac
	dir="$T/insert"
	fresh "$img" "$dir"; f=$F
	chmod u+w -- "$f"

	expect_rc "$img: insert/replace exits 0" 0 --file "$f" --csv "$CSV"

	run --print "$f"
	if [ "$RC" -eq 0 ] && cmp -s "$T/out" "$CSV" && [ -z "$ERR" ]; then
		ok "$img: --print shows the stored CSV"
	else
		mapfile -t d < <(what_ran)
		not_ok "$img: --print shows the stored CSV" "${d[@]}"
	fi

	cp -- "$f" "$f.first"
	touch -d '2001-01-01' -- "$f"
	before=$(mtime "$f")
	expect_rc "$img: the same edit again exits 0" 0 --file "$f" --csv "$CSV"
	check "$img: the second run leaves a byte-identical file" cmp -s "$f" "$f.first"
	check "$img: the second in-place run does not rewrite the file (mtime kept)" \
		test "$(mtime "$f")" = "$before"

	expect_rc "$img: --output from the pristine image exits 0" 0 \
		--file "$FIX/$img" --csv "$CSV" --output "$f.out"
	check "$img: --output gives the same bytes as the in-place edit" cmp -s "$f.out" "$f.first"
	rm -f -- "$f" "$f.first" "$f.out"
	entries "$dir"; check "$img: no temporary files are left behind" test -z "$ENTRIES"
done

# ---------------------------------------------------------- refused edits

# expect_refusal NAME DESCRIPTION ARGS...: exit 1, one line naming the file
# with "at offset 0x", the image byte-identical and no new files.
expect_refusal() {
	local img="$1" desc="$2" dir="$T/refuse" f listing
	shift 2
	fresh "$img" "$dir"; f=$F
	entries "$dir"
	listing=$ENTRIES
	run --file "$f" "$@"
	if [ "$RC" -eq 1 ] && one_line "$ERR" && [[ "$ERR" == "sbat-add: $f: "* ]] &&
	   [[ "$ERR" == *"at offset 0x"* ]] && [ -z "$OUT" ]; then
		ok "$img: $desc: exit 1 with a one-line message naming the file and offset"
	else
		mapfile -t d < <(what_ran)
		not_ok "$img: $desc: exit 1 with a one-line message naming the file and offset" "${d[@]}"
	fi
	check "$img: $desc: the image is byte-identical" cmp -s "$f" "$FIX/$img"
	entries "$dir"; check "$img: $desc: no temporary files are left behind" test "$ENTRIES" = "$listing"
	rm -f -- "$f"
}

expect_refusal no-room.efi "no header room" --csv "$CSV"
expect_refusal signed.efi "signed image" --csv "$CSV"

# a CSV too big for a .sbat in the middle of the image cannot grow it
BIG="$T/big.sbat"
{
	cat -- "$CSV"
	for i in $(seq 1 12); do
		echo "component$i,1,Example Vendor,package$i,1.0.$i,https://example.org/packages/package$i"
	done
} >"$BIG"
expect_refusal sbat-mid.efi "mid-file .sbat that must grow" --csv "$BIG"

fresh sbat-last.efi "$T/grow"; f=$F
chmod u+w -- "$f"
expect_rc "sbat-last.efi: a larger CSV grows the last .sbat" 0 --file "$f" --csv "$BIG"
run --print "$f"
check "sbat-last.efi: --print shows the grown CSV" cmp -s "$T/out" "$BIG"

# --strip-signature
fresh signed.efi "$T/strip"; f=$F
chmod u+w -- "$f"
expect_rc "signed.efi: --strip-signature exits 0" 0 --strip-signature --file "$f" --csv "$CSV"
run --print "$f"
check "signed.efi: --print after --strip-signature shows the CSV" cmp -s "$T/out" "$CSV"
check "signed.efi: the stripped image is smaller than the signed one" \
	test "$(stat -c %s "$f")" -lt "$(stat -c %s "$FIX/signed.efi")"
expect_rc "signed.efi: the stripped image is no longer refused as signed" 0 --file "$f" --csv "$CSV"

# ------------------------------------------------------------- CSV checks

for csv in "$FIXTURES_SRC"/csv/invalid/*; do
	name=${csv##*/}
	fresh efi-x86_64.efi "$T/badcsv"; f=$F
	run --file "$f" --csv "$csv"
	rest="${ERR#"sbat-add: $csv:"}"
	good=0
	if [ "$RC" -eq 1 ] && one_line "$ERR" && [ "$rest" != "$ERR" ]; then
		if [[ "$rest" =~ ^[0-9]+:\  ]]; then
			good=1
		elif [ "$(tr -d '\r\n' <"$csv" | wc -c)" -eq 0 ] && [[ "$rest" == " "* ]]; then
			good=1   # a file with no content has no line to name
		fi
	fi
	if [ "$good" -eq 1 ]; then
		ok "invalid CSV $name: exit 1 with 'sbat-add: FILE:LINE: ...'"
	else
		mapfile -t d < <(what_ran)
		not_ok "invalid CSV $name: exit 1 with 'sbat-add: FILE:LINE: ...'" "${d[@]}"
	fi
	check "invalid CSV $name: the image is untouched" cmp -s "$f" "$FIX/efi-x86_64.efi"
	rm -f -- "$f"
done

for csv in "$FIXTURES_SRC"/csv/valid/*; do
	name=${csv##*/}
	fresh efi-x86_64.efi "$T/goodcsv"; f=$F
	chmod u+w -- "$f"
	run --file "$f" --csv "$csv"
	if [ "$RC" -eq 0 ]; then
		run --print "$f"
	fi
	# canonical: LF line endings, a final newline, no empty lines
	if [ "$RC" -eq 0 ] && [ -s "$T/out" ] && ! grep -q $'\r' "$T/out" &&
	   [ "$(tail -c 1 "$T/out" | od -An -c | tr -d ' ')" = '\n' ] && ! grep -q '^$' "$T/out"; then
		ok "valid CSV $name: stored in canonical form (LF, final newline)"
	else
		mapfile -t d < <(what_ran)
		not_ok "valid CSV $name: stored in canonical form (LF, final newline)" "${d[@]}"
	fi
	rm -f -- "$f"
done

expect_rc "a missing CSV file exits 1" 1 --file "$FIX/efi-x86_64.efi" --csv "$T/no-such.csv"
expect_rc "a directory as --csv exits 1" 1 --file "$FIX/efi-x86_64.efi" --csv "$T"

# ---------------------------------------------------------------- --output

dir="$T/output"
fresh efi-x86_64.efi "$dir"; f=$F
chmod 0600 -- "$f"
expect_rc "--output exits 0" 0 --file "$f" --csv "$CSV" --output "$dir/out.efi"
check "--output leaves the input byte-identical" cmp -s "$f" "$FIX/efi-x86_64.efi"
check "--output writes the new file" test -f "$dir/out.efi"
check "--output gives the new file the input's mode (0600)" test "$(mode "$dir/out.efi")" = 600
run --print "$dir/out.efi"
check "--output: the new file holds the CSV" cmp -s "$T/out" "$CSV"
expect_rc "--output: the input still has no .sbat (--print exits 3)" 3 --print "$f"
cp -- "$FIX/efi-ia32.efi" "$dir/existing.efi"
chmod 0644 -- "$dir/existing.efi"
expect_rc "--output over an existing file exits 0" 0 --file "$f" --csv "$CSV" --output "$dir/existing.efi"
check "--output over an existing file takes the input's mode (0600)" \
	test "$(mode "$dir/existing.efi")" = 600
entries "$dir"
check "--output: no temporary files are left behind" \
	test "$ENTRIES" = "efi-x86_64.efi existing.efi out.efi "

# ---------------------------------------------------------- in-place mode

fresh bzimage-new.bin "$T/mode"; f=$F
chmod 0640 -- "$f"
expect_rc "in-place edit of a 0640 file exits 0" 0 --file "$f" --csv "$CSV"
check "in-place edit keeps mode 0640" test "$(mode "$f")" = 640
check "in-place edit changed the file" test -n "$(cmp "$f" "$FIX/bzimage-new.bin" 2>&1)"

# a symbolic link as IMAGE
dir="$T/symlink"
fresh efi-x86_64.efi "$dir"; f=$F
chmod u+w -- "$f"
ln -s efi-x86_64.efi "$dir/link.efi"
run --file "$dir/link.efi" --csv "$CSV"
if [ "$RC" -eq 1 ] && one_line "$ERR" && [[ "$ERR" == "sbat-add: $dir/link.efi: "* ]]; then
	ok "a symbolic link as IMAGE is refused in place (exit 1, names the link)"
else
	mapfile -t d < <(what_ran)
	not_ok "a symbolic link as IMAGE is refused in place (exit 1, names the link)" "${d[@]}"
fi
check "symbolic link: the target is untouched" cmp -s "$f" "$FIX/efi-x86_64.efi"
check "symbolic link: the link is still a link" test -L "$dir/link.efi"
entries "$dir"
check "symbolic link: no temporary files are left behind" \
	test "$ENTRIES" = "efi-x86_64.efi link.efi "
expect_rc "symbolic link: --file TARGET works" 0 --file "$f" --csv "$CSV"
run --print "$dir/link.efi"
check "symbolic link: --print through the link shows the CSV" cmp -s "$T/out" "$CSV"

# --dry-run
dir="$T/dry"
fresh arm64-image.bin "$dir"; f=$F
chmod u+w -- "$f"
touch -d '2001-01-01' -- "$f"
before=$(mtime "$f")
expect_rc "--dry-run exits 0" 0 --dry-run --verbose --file "$f" --csv "$CSV"
check "--dry-run describes the edit on stderr" test -n "$ERR"
check "--dry-run leaves the image byte-identical" cmp -s "$f" "$FIX/arm64-image.bin"
check "--dry-run leaves the mtime alone" test "$(mtime "$f")" = "$before"
entries "$dir"; check "--dry-run creates no files" test "$ENTRIES" = "arm64-image.bin "
expect_rc "--dry-run on a refused edit exits 1" 1 --dry-run --file "$FIX/no-room.efi" --csv "$CSV"

# --print on an image without .sbat
run --print "$FIX/efi-x86_64.efi"
if [ "$RC" -eq 3 ] && [ -z "$OUT" ] && one_line "$ERR"; then
	ok "--print on an image without .sbat exits 3"
else
	mapfile -t d < <(what_ran)
	not_ok "--print on an image without .sbat exits 3" "${d[@]}"
fi
expect_rc "-p IMAGE on an image with .sbat exits 0" 0 -p "$FIX/sbat-mid.efi"
expect_rc "--print --file IMAGE works" 0 --print --file "$FIX/sbat-last.efi"

# ------------------------------------------------------------- bad images

# expect_fail DESCRIPTION ARGS...: exit status exactly 1 (never a signal).
expect_fail() {
	local desc="$1"
	shift
	run "$@"
	if [ "$RC" -eq 1 ] && one_line "$ERR"; then
		ok "$desc"
	else
		mapfile -t d < <(echo "expected exit status 1 and one line on stderr"; what_ran)
		not_ok "$desc" "${d[@]}"
	fi
}

dir="$T/bad"
mkdir -p -- "$dir"
head -c 300 -- "$FIX/efi-x86_64.efi" >"$dir/truncated.efi"
cp -- "$dir/truncated.efi" "$dir/truncated.orig"
printf 'this is not a PE/COFF image\n' >"$dir/text.efi"
: >"$dir/empty.efi"
mkdir -p -- "$dir/a-directory"

expect_fail "a truncated image exits 1" --file "$dir/truncated.efi" --csv "$CSV"
check "a truncated image is left untouched" cmp -s "$dir/truncated.efi" "$dir/truncated.orig"
expect_fail "--print on a truncated image exits 1" --print "$dir/truncated.efi"
expect_fail "a non-PE file exits 1" --file "$dir/text.efi" --csv "$CSV"
expect_fail "--print on a non-PE file exits 1" --print "$dir/text.efi"
expect_fail "an empty file exits 1" --file "$dir/empty.efi" --csv "$CSV"
expect_fail "a directory as IMAGE exits 1" --file "$dir/a-directory" --csv "$CSV"
expect_fail "--print on a directory exits 1" --print "$dir/a-directory"
expect_fail "a missing IMAGE exits 1" --file "$dir/no-such.efi" --csv "$CSV"

# truncations of every fixture: a refusal (1) or a success (0), never a crash
declare -A sizes=()
while read -r size name; do
	sizes[${name##*/}]=$size
done < <(stat -c '%s %n' -- "$FIX"/*)
for img in "${images[@]}"; do
	size=${sizes[$img]}
	bad=""
	for len in 0 2 64 300 512 1024 4096 $((size / 2)) $((size - 1)); do
		head -c "$len" -- "$FIX/$img" >"$dir/cut.efi"
		# at most one line on stderr: a sanitizer report is not a refusal
		"$SBAT_ADD" --file "$dir/cut.efi" --csv "$CSV" >/dev/null 2>"$T/err"
		rc=$?
		mapfile -t lines <"$T/err"
		{ [ "$rc" -le 1 ] && [ "${#lines[@]}" -le 1 ]; } || bad="$bad len=$len:exit=$rc"
		"$SBAT_ADD" --print "$dir/cut.efi" >/dev/null 2>"$T/err"
		rc=$?
		mapfile -t lines <"$T/err"
		{ [ "$rc" -le 1 ] || [ "$rc" -eq 3 ]; } && [ "${#lines[@]}" -le 1 ] ||
			bad="$bad print:len=$len:exit=$rc"
	done
	if [ -z "$bad" ]; then
		ok "$img: truncated copies are refused or edited, never crash"
	else
		not_ok "$img: truncated copies are refused or edited, never crash" "$bad"
	fi
done
# no_hidden DIR: DIR holds no name starting with a dot
no_hidden() {
	entries "$1"
	[[ " $ENTRIES" != *" ."* ]]
}
check "bad images: no temporary files are left behind" no_hidden "$dir"

# ------------------------------------------------------ JSON helpers

PY="${PYTHON3:-/usr/bin/python3}"

# One Python process answers every JSON check (starting one per check is
# what made this script slow). For a check, json_check writes the Python
# code to $T/py.code and the arguments (the output file, IMAGE, ARGs), each
# NUL-terminated, to $T/py.args, then sends a line; the answer is one line,
# "ok" or "fail", with the traceback of a failure in $T/py.err.
JSON_SERVER='import json, sys, traceback
code_file, args_file, err_file = sys.argv[1:4]
for request in sys.stdin:
    try:
        with open(code_file) as f:
            code = f.read()
        with open(args_file, "rb") as f:
            args = [a.decode() for a in f.read().split(b"\0")[:-1]]
        sys.argv = ["-c"] + args
        with open(args[0]) as f:
            d = json.load(f)
        names = [s["name"] for s in d["sections"]]
        exec(code, {"json": json, "sys": sys, "d": d, "path": args[1], "names": names})
        answer = "ok"
    except BaseException:
        with open(err_file, "w") as f:
            f.write(traceback.format_exc())
        answer = "fail"
    print(answer, flush=True)'
JSON_PID=""
if [ -x "$PY" ]; then
	coproc JSON { "$PY" -c "$JSON_SERVER" "$T/py.code" "$T/py.args" "$T/py.err"; }
	JSON_IN=${JSON[1]}
	JSON_OUT=${JSON[0]}
fi

# json_check DESCRIPTION IMAGE CODE [ARG...]: ok when the last run's stdout is
# JSON and the Python CODE, given `d` (the parsed object), `names` (the section
# names), `path` (IMAGE) and sys.argv[3:] (the ARGs), runs without an
# exception (use assert).
json_check() {
	local desc="$1" img="$2" code="$3" answer=""
	shift 3
	if [ ! -x "$PY" ]; then
		skip "$desc" "$PY not found"
		return
	fi
	printf '%s\n' "$code" >"$T/py.code"
	printf '%s\0' "$T/out" "$img" "$@" >"$T/py.args"
	: >"$T/py.err"
	if [ -n "$JSON_PID" ] && printf 'check\n' >&"$JSON_IN" 2>/dev/null; then
		IFS= read -r answer <&"$JSON_OUT" || answer=""
	fi
	if [ "$answer" = ok ]; then
		ok "$desc"
	else
		local details
		mapfile -t details < <(echo "exit status $RC${answer:+, python: $answer}"; tail -n 3 "$T/py.err"; head -c 400 "$T/out")
		not_ok "$desc" "${details[@]}"
	fi
}

# ZEROED: Python that checks the section named .oldsbat holds only NUL bytes.
ZEROED='s = [s for s in d["sections"] if s["name"] == ".oldsbat"][0]
with open(path, "rb") as f:
    f.seek(s["pointer_to_raw_data"])
    assert f.read(s["size_of_raw_data"]) == bytes(s["size_of_raw_data"])'

# ---------------------------------------------------------------- --remove

for img in efi-x86_64.efi bzimage-old.bin bzimage-new.bin arm64-image.bin zboot.efi; do
	dir="$T/remove"
	fresh "$img" "$dir"; f=$F
	chmod u+w -- "$f"
	expect_rc "$img: insert before --remove exits 0" 0 --file "$f" --csv "$CSV"
	cp -- "$f" "$f.with"
	expect_rc "$img: --remove --output exits 0" 0 --remove --file "$f.with" --output "$f.out"
	check "$img: --remove --output gives back the original bytes" cmp -s "$f.out" "$FIX/$img"
	expect_rc "$img: --remove in place exits 0" 0 --remove --file "$f"
	check "$img: --remove in place gives back the original bytes" cmp -s "$f" "$FIX/$img"
	expect_rc "$img: after --remove, --print exits 3" 3 --print "$f"
	rm -f -- "$f" "$f.with" "$f.out"
	entries "$dir"; check "$img: --remove leaves no temporary files behind" test -z "$ENTRIES"
done

# a .sbat in the middle is retired in place: renamed, zeroed, the file keeps its size
fresh sbat-mid.efi "$T/retire"; f=$F
chmod u+w -- "$f"
expect_rc "sbat-mid.efi: --remove exits 0" 0 --remove --file "$f"
expect_rc "sbat-mid.efi: after --remove, --print exits 3" 3 --print "$f"
check "sbat-mid.efi: --remove keeps the file size" \
	test "$(stat -c %s -- "$f")" -eq "$(stat -c %s -- "$FIX/sbat-mid.efi")"
run --print --json "$f"
json_check "sbat-mid.efi: after --remove the JSON shows .oldsbat in place and no .sbat" "$f" \
	'assert names == [".text", ".rodata", ".oldsbat", ".data"], names
assert d["sbat"] is None'
json_check "sbat-mid.efi: the retired section is zero-filled" "$f" "$ZEROED"
expect_fail "sbat-mid.efi: a second --remove exits 1 (no .sbat left)" --remove --file "$f"

fresh efi-x86_64.efi "$T/remove-none"; f=$F
run --remove --file "$f"
if [ "$RC" -eq 1 ] && one_line "$ERR" && [[ "$ERR" == "sbat-add: $f: "* ]] && [ -z "$OUT" ]; then
	ok "--remove on an image without .sbat exits 1 with one line naming the file"
else
	mapfile -t d < <(what_ran)
	not_ok "--remove on an image without .sbat exits 1 with one line naming the file" "${d[@]}"
fi
check "--remove on an image without .sbat leaves it byte-identical" cmp -s "$f" "$FIX/efi-x86_64.efi"

# --dry-run --remove
dir="$T/dry-remove"
fresh sbat-last.efi "$dir"; f=$F
chmod u+w -- "$f"
touch -d '2001-01-01' -- "$f"
before=$(mtime "$f")
expect_rc "--dry-run --remove exits 0" 0 --dry-run --remove --file "$f"
check "--dry-run --remove describes the edit on stderr" test -n "$ERR"
check "--dry-run --remove leaves the image byte-identical" cmp -s "$f" "$FIX/sbat-last.efi"
check "--dry-run --remove leaves the mtime alone" test "$(mtime "$f")" = "$before"
entries "$dir"; check "--dry-run --remove creates no files" test "$ENTRIES" = "sbat-last.efi "

# -------------------------------------------------------------- --relocate

check "the long CSV is larger than the 0x200-byte .sbat of sbat-mid.efi" \
	test "$(stat -c %s -- "$BIG")" -gt 512
dir="$T/relocate"
fresh sbat-mid.efi "$dir"; f=$F
chmod u+w -- "$f"
expect_rc "sbat-mid.efi: the long CSV without --relocate exits 1" 1 --file "$f" --csv "$BIG"
check "sbat-mid.efi: the refusal is one line" one_line "$ERR"
check "sbat-mid.efi: the refusal states both sizes and the way out" \
	grep -qF "needs $(stat -c %s -- "$BIG") bytes, has 512; use --relocate" "$T/err"
check "sbat-mid.efi: the refused edit left the image byte-identical" cmp -s "$f" "$FIX/sbat-mid.efi"
expect_rc "sbat-mid.efi: the long CSV with --relocate exits 0" 0 --relocate --file "$f" --csv "$BIG"
run --print "$f"
check "sbat-mid.efi: after --relocate, --print shows the new CSV" cmp -s "$T/out" "$BIG"
run --print --json "$f"
json_check "sbat-mid.efi: after --relocate the JSON shows .oldsbat and a last section .sbat" "$f" \
	'assert names == [".text", ".rodata", ".oldsbat", ".data", ".sbat"], names
assert d["sbat"]["section"] == 4 and d["sbat"]["valid"] is True
assert len(d["sbat"]["entries"]) == 15'
json_check "sbat-mid.efi: after --relocate the old section is zero-filled" "$f" "$ZEROED"
cp -- "$f" "$f.first"
expect_rc "sbat-mid.efi: --relocate again with the same CSV exits 0" 0 --relocate --file "$f" --csv "$BIG"
check "sbat-mid.efi: the second --relocate changes nothing" cmp -s "$f" "$f.first"
rm -f -- "$f" "$f.first"
entries "$dir"; check "--relocate leaves no temporary files behind" test -z "$ENTRIES"

# ---------------------------------------------------------- header growth

dir="$T/grow-headers"
fresh grow-headers.efi "$dir"; f=$F
chmod u+w -- "$f"
run --verbose --file "$f" --csv "$CSV"
if [ "$RC" -eq 0 ] && printf '%s\n' "$ERR" | grep -qi 'moved.*section data'; then
	ok "grow-headers.efi: insert exits 0 and --verbose says the section data moved"
else
	mapfile -t d < <(what_ran)
	not_ok "grow-headers.efi: insert exits 0 and --verbose says the section data moved" "${d[@]}"
fi
run --print "$f"
check "grow-headers.efi: --print shows the CSV" cmp -s "$T/out" "$CSV"
run --print --json "$f"
json_check "grow-headers.efi: SizeOfHeaders grew and .sbat is the last section" "$f" \
	'assert d["size_of_headers"] == 0x400, d["size_of_headers"]
assert names[-1] == ".sbat" and names.count(".sbat") == 1
assert min(s["pointer_to_raw_data"] for s in d["sections"]) >= 0x400'

fresh no-room.efi "$T/no-room"; f=$F
run --verbose --file "$f" --csv "$CSV"
if [ "$RC" -eq 1 ] && printf '%s\n' "$ERR" | grep -q "^sbat-add: $f: no room"; then
	ok "no-room.efi: refused (exit 1) with a 'no room' message"
else
	mapfile -t d < <(what_ran)
	not_ok "no-room.efi: refused (exit 1) with a 'no room' message" "${d[@]}"
fi
check "no-room.efi: the refused image is byte-identical" cmp -s "$f" "$FIX/no-room.efi"
entries "$T/no-room"; check "no-room.efi: no temporary files are left behind" test "$ENTRIES" = "no-room.efi "

# ------------------------------------------------------------------ --merge

SBAT_ROW="sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md"
FX_ROW="fxtest,1,Fixture Test Project,fxtest,0.1,https://example.invalid/fxtest"
NEW_ROW="newcomp,3,Example Vendor,newcomp,1.0,https://example.org/newcomp"
FX2_ROW="fxtest,2,Fixture Test Project,fxtest,0.2,https://example.invalid/fxtest"
printf '%s\n%s\n' "$SBAT_ROW" "$NEW_ROW" >"$T/add.csv"
printf '%s\n%s\n' "$SBAT_ROW" "$FX2_ROW" >"$T/conflict.csv"
printf '%s\n%s\n%s\n' "$SBAT_ROW" "$FX_ROW" "$NEW_ROW" >"$T/merged.expected"
printf '%s\n%s\n' "$SBAT_ROW" "$FX2_ROW" >"$T/forced.expected"

run --print "$FIX/sbat-last.efi"
check "sbat-last.efi holds the sbat and fxtest,1 rows" test "$OUT" = "$SBAT_ROW"$'\n'"$FX_ROW"

dir="$T/merge"
fresh sbat-last.efi "$dir"; f=$F
chmod u+w -- "$f"
expect_rc "sbat-last.efi: --merge of a new component exits 0" 0 --merge --file "$f" --csv "$T/add.csv"
run --print "$f"
check "sbat-last.efi: --merge keeps the old rows, then adds the new one" cmp -s "$T/out" "$T/merged.expected"
cp -- "$f" "$f.first"
expect_rc "sbat-last.efi: the same --merge again exits 0" 0 --merge --file "$f" --csv "$T/add.csv"
check "sbat-last.efi: the same --merge again changes nothing" cmp -s "$f" "$f.first"
rm -f -- "$f" "$f.first"

fresh sbat-last.efi "$dir"; f=$F
chmod u+w -- "$f"
run --merge --file "$f" --csv "$T/conflict.csv"
if [ "$RC" -eq 1 ] && one_line "$ERR" && [[ "$ERR" == "sbat-add: "* ]] && [ -z "$OUT" ]; then
	ok "sbat-last.efi: --merge of a conflicting generation exits 1 with one line"
else
	mapfile -t d < <(what_ran)
	not_ok "sbat-last.efi: --merge of a conflicting generation exits 1 with one line" "${d[@]}"
fi
check "sbat-last.efi: the refused --merge leaves the image byte-identical" cmp -s "$f" "$FIX/sbat-last.efi"
expect_rc "sbat-last.efi: --merge --force of a conflicting generation exits 0" 0 \
	--merge --force --file "$f" --csv "$T/conflict.csv"
run --print "$f"
check "sbat-last.efi: after --merge --force, --print shows the new generation" \
	cmp -s "$T/out" "$T/forced.expected"
rm -f -- "$f"
entries "$dir"; check "--merge leaves no temporary files behind" test -z "$ENTRIES"

fresh efi-x86_64.efi "$dir"; f=$F
chmod u+w -- "$f"
expect_rc "efi-x86_64.efi: --merge into an image without .sbat exits 0" 0 --merge --file "$f" --csv "$CSV"
run --print "$f"
check "efi-x86_64.efi: --merge into an image without .sbat stores the CSV" cmp -s "$T/out" "$CSV"
rm -f -- "$f"

# ------------------------------------------------------------ --print --json

for img in "${images[@]}"; do
	run --print --json "$FIX/$img"
	json_check "$img: --print --json exits 0 (3 without .sbat) with one valid JSON object, schema 1" "$FIX/$img" \
		"assert $RC == (0 if d['sbat'] else 3)
assert d['schema'] == 1
assert d['file'] == path and len(d['sections']) >= 1"
done

run --print --json "$FIX/sbat-mid.efi"
json_check "sbat-mid.efi: --print --json lists 4 sections and the sbat and fxtest rows" "$FIX/sbat-mid.efi" \
	'assert names == [".text", ".rodata", ".sbat", ".data"], names
s = d["sbat"]
assert s["section"] == 2 and s["valid"] is True
assert [e["component_name"] for e in s["entries"]] == ["sbat", "fxtest"]
assert [e["component_generation"] for e in s["entries"]] == [1, 1]
assert s["entries"][1]["vendor_url"] == "https://example.invalid/fxtest"'

run --print --json "$FIX/efi-x86_64.efi"
json_check "efi-x86_64.efi: --print --json exits 3 and shows 3 sections and no .sbat" "$FIX/efi-x86_64.efi" \
	"assert $RC == 3
assert len(names) == 3 and '.sbat' not in names
assert d['sbat'] is None"

# a .sbat that does not validate: insert, then break a byte of the CSV text
dir="$T/json"
fresh efi-x86_64.efi "$dir"; f=$F
chmod u+w -- "$f"
expect_rc "efi-x86_64.efi: insert before the JSON checks exits 0" 0 --file "$f" --csv "$CSV"
run --print --json "$f"
json_check "efi-x86_64.efi: --print --json shows 4 sections and the 3 CSV rows" "$f" \
	'assert len(names) == 4 and names[3] == ".sbat"
assert d["sbat"]["valid"] is True
assert [e["component_name"] for e in d["sbat"]["entries"]] == ["sbat", "linux", "linux.debian"]
assert d["sbat"]["text"] == open(sys.argv[3]).read()' "$CSV"

# the '1' of "sbat,1,SBAT Version" becomes 'X': generation not a number
off=$(LC_ALL=C grep -obUa -m1 'sbat,1,SBAT Version' -- "$f" | head -n1 | cut -d: -f1)
if [ -n "$off" ] && printf 'X' | dd of="$f" bs=1 seek=$((off + 5)) conv=notrunc status=none; then
	ok "efi-x86_64.efi: broke a byte of the stored CSV"
else
	not_ok "efi-x86_64.efi: broke a byte of the stored CSV" "CSV text not found in $f"
fi
run --print --json "$f"
json_check "invalid .sbat: --print --json exits 0 and says \"valid\": false, line 1, field 2" "$f" \
	"assert $RC == 0
assert d['sbat']['valid'] is False and 'entries' not in d['sbat']
assert d['sbat']['error']['line'] == 1 and d['sbat']['error']['field'] == 2
assert d['sbat']['text'].startswith('sbat,X,')"
run --print "$f"
if [ "$RC" -eq 0 ] && [[ "$OUT" == "sbat,X,"* ]] && printf '%s\n' "$ERR" | grep -q 'warning'; then
	ok "invalid .sbat: --print shows it with a warning on stderr"
else
	mapfile -t d < <(what_ran)
	not_ok "invalid .sbat: --print shows it with a warning on stderr" "${d[@]}"
fi
cp -- "$f" "$T/invalid-sbat.efi"

# a file name that needs escaping in JSON
weird="$dir/we\"ird\\name.efi"
cp -- "$FIX/sbat-last.efi" "$weird"
run --print --json "$weird"
json_check "--print --json escapes a file name with a quote and a backslash" "$weird" \
	'assert d["file"] == path, d["file"]'

# an image whose .sbat is invalid: --merge refuses it, --merge --force replaces it
fresh efi-x86_64.efi "$T/merge-invalid"; f=$F
chmod u+w -- "$f"   # the fixture copy is read-only; not writable without root
cp -- "$T/invalid-sbat.efi" "$f"
expect_rc "invalid .sbat: --merge exits 1" 1 --merge --file "$f" --csv "$T/add.csv"
check "invalid .sbat: the refused --merge leaves the image byte-identical" cmp -s "$f" "$T/invalid-sbat.efi"
expect_rc "invalid .sbat: --merge --force exits 0" 0 --merge --force --file "$f" --csv "$T/add.csv"
run --print "$f"
check "invalid .sbat: after --merge --force, --print shows the new CSV" cmp -s "$T/out" "$T/add.csv"

# ---------------------------------------------------------- --check-level

printf 'sbat,1,2025051000\nfxtest,2\n' >"$T/level-revokes"
printf 'sbat,1,2025051000\nfxtest,1\n' >"$T/level-passes"
printf 'sbat,1,2025051000\nfxtest\n' >"$T/level-invalid"
printf '%s\n%s\n' "$SBAT_ROW" "$FX_ROW" >"$T/fxtest.csv"

run --check-level "$T/level-revokes" "$FIX/sbat-mid.efi"
if [ "$RC" -eq 4 ] && printf '%s\n' "$OUT" | grep -q 'revoked.*fxtest'; then
	ok "--check-level fxtest,2 on sbat-mid.efi (fxtest,1) exits 4 and prints 'revoked'"
else
	mapfile -t d < <(what_ran)
	not_ok "--check-level fxtest,2 on sbat-mid.efi (fxtest,1) exits 4 and prints 'revoked'" "${d[@]}"
fi
run --check-level "$T/level-passes" "$FIX/sbat-mid.efi"
if [ "$RC" -eq 0 ] && ! printf '%s\n' "$OUT" | grep -q 'revoked:'; then
	ok "--check-level fxtest,1 on sbat-mid.efi exits 0 and revokes nothing"
else
	mapfile -t d < <(what_ran)
	not_ok "--check-level fxtest,1 on sbat-mid.efi exits 0 and revokes nothing" "${d[@]}"
fi
expect_rc "--check-level --file IMAGE works too" 4 --check-level "$T/level-revokes" --file "$FIX/sbat-last.efi"
expect_rc "--check-level on an image without .sbat exits 3" 3 \
	--check-level "$T/level-revokes" "$FIX/efi-x86_64.efi"
expect_rc "--check-level on an image with an invalid .sbat exits 4" 4 \
	--check-level "$T/level-passes" "$T/invalid-sbat.efi"
expect_rc "--check-level POLICY --csv FILE (revoked) exits 4 without an image" 4 \
	--check-level "$T/level-revokes" --csv "$T/fxtest.csv"
expect_rc "--check-level POLICY --csv FILE (not revoked) exits 0 without an image" 0 \
	--check-level "$T/level-revokes" --csv "$CSV"
run --check-level "$T/level-invalid" "$FIX/sbat-mid.efi"
if [ "$RC" -eq 1 ] && one_line "$ERR" && [[ "$ERR" == "sbat-add: $T/level-invalid:2: "* ]]; then
	ok "an invalid policy exits 1 with 'sbat-add: FILE:LINE: ...'"
else
	mapfile -t d < <(what_ran)
	not_ok "an invalid policy exits 1 with 'sbat-add: FILE:LINE: ...'" "${d[@]}"
fi
expect_rc "a missing policy file exits 1" 1 --check-level "$T/no-such-level" "$FIX/sbat-mid.efi"
expect_usage "--level-payload bogus exits 2" \
	--check-level "$T/level-revokes" --level-payload bogus "$FIX/sbat-mid.efi"
expect_rc "--level-payload latest is accepted with a text policy" 4 \
	--check-level "$T/level-revokes" --level-payload latest "$FIX/sbat-mid.efi"

# a shim-like binary as POLICY: sbat-mid.efi with its .sbat turned into
# ".sbatlev" (the 8-byte form of .sbatlevel) holding version 0, the offsets
# of the automatic and the latest payload (counted from byte 4), then both
u32_at() {
	od -An -tu4 -j "$2" -N 4 -- "$1" | tr -d ' '
}
shim="$T/shim-like.efi"
cp -- "$FIX/sbat-mid.efi" "$shim"
chmod u+w -- "$shim"
hdr=$(LC_ALL=C grep -obUa -m1 '\.sbat' -- "$shim" | head -n1 | cut -d: -f1)
raw=$(u32_at "$shim" $((hdr + 20)))
automatic='sbat,1,2024010100\nfxtest,1\n'   # 27 bytes and a NUL: latest at 8 + 28
if [ -n "$hdr" ] && [ -n "$raw" ] &&
   printf '.sbatlev' | dd of="$shim" bs=1 seek="$hdr" conv=notrunc status=none &&
   { printf '\0\0\0\0\10\0\0\0\44\0\0\0'; printf "$automatic"'\0'; printf 'sbat,1,2025051000\nfxtest,2\n\0'; } |
	dd of="$shim" bs=1 seek="$raw" conv=notrunc status=none; then
	ok "made a shim-like binary with a .sbatlevel section"
else
	not_ok "made a shim-like binary with a .sbatlevel section" "no .sbat header found in sbat-mid.efi"
fi
expect_rc "shim binary as POLICY: the latest SbatLevel (default) revokes fxtest,1 (exit 4)" 4 \
	--check-level "$shim" "$FIX/sbat-last.efi"
expect_rc "shim binary as POLICY: --level-payload latest revokes fxtest,1 (exit 4)" 4 \
	--check-level "$shim" --level-payload latest "$FIX/sbat-last.efi"
run --check-level "$shim" --level-payload automatic "$FIX/sbat-last.efi"
if [ "$RC" -eq 0 ] && [[ "$OUT" == *"2024010100"* ]]; then
	ok "shim binary as POLICY: --level-payload automatic (SbatLevel 2024010100) passes fxtest,1"
else
	mapfile -t d < <(what_ran)
	not_ok "shim binary as POLICY: --level-payload automatic (SbatLevel 2024010100) passes fxtest,1" "${d[@]}"
fi
expect_rc "a PE image without .sbatlevel as POLICY exits 1" 1 \
	--check-level "$FIX/sbat-last.efi" "$FIX/sbat-mid.efi"

# ---------------------------------------------- --help and the manual page

# in_list WORD LIST...: WORD is one of the LIST
in_list() {
	local w="$1"
	shift
	while [ $# -gt 0 ]; do
		[ "$1" = "$w" ] && return 0
		shift
	done
	return 1
}

if [ -r "$MANPAGE" ]; then
	ok "the manual page exists"
	slurp MANTEXT "$MANPAGE"
	mapfile -t man_lines < <(sed 's/\\-/-/g' "$MANPAGE")
	# long options named anywhere in --help
	mapfile -t help_opts < <(printf '%s\n' "$HELP" | grep -oE -- '--[a-z][a-z-]*' | sort -u)
	# long options listed in the manual's OPTIONS section, hyphens unescaped
	mapfile -t man_opts < <(sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$MANPAGE" |
		sed 's/\\-/-/g' | grep -oE -- '--[a-z][a-z-]*' | sort -u)
	for opt in "${help_opts[@]}"; do
		escaped=${opt//-/\\-}
		if [[ "$MANTEXT" == *"$escaped"* || "$MANTEXT" == *"$opt"* ]]; then
			ok "$opt from --help is documented in sbat-add.1"
		else
			not_ok "$opt from --help is documented in sbat-add.1"
		fi
	done
	for opt in "${man_opts[@]}"; do
		if in_list "$opt" "${help_opts[@]}"; then
			ok "$opt from sbat-add.1 OPTIONS is in --help"
		else
			not_ok "$opt from sbat-add.1 OPTIONS is in --help"
		fi
	done
	# every "-x, --name" pair of --help appears together in the manual
	while read -r short long; do
		found=0
		for line in "${man_lines[@]}"; do
			if [[ "$line" == *"$long"* && "$line" =~ (^|[^a-z-])$short([^[:alnum:]_]|$) ]]; then
				found=1
				break
			fi
		done
		if [ "$found" = 1 ]; then
			ok "$short, $long from --help is documented together in sbat-add.1"
		else
			not_ok "$short, $long from --help is documented together in sbat-add.1"
		fi
	done < <(printf '%s\n' "$HELP" | sed -nE 's/^ +(-[a-zA-Z]), (--[a-z][a-z-]*).*/\1 \2/p')
	# every exit status that --help names has an entry in the manual's EXIT STATUS
	mapfile -t help_status < <(printf '%s\n' "$HELP" | sed -n '/^Exit status:/,$p' |
		sed 's/^Exit status://' | grep -oE '(^|[ ,])[0-9]+ [a-z]' | grep -oE '[0-9]+' | sort -un)
	mapfile -t man_status < <(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$MANPAGE" |
		sed -nE 's/^\.B ([0-9]+)$/\1/p' | sort -un)
	if [ "${#help_status[@]}" -ge 5 ]; then
		ok "--help names the exit statuses (${help_status[*]})"
	else
		not_ok "--help names the exit statuses" "found: ${help_status[*]}"
	fi
	for st in "${help_status[@]}"; do
		if in_list "$st" "${man_status[@]}"; then
			ok "exit status $st from --help is in the EXIT STATUS section of sbat-add.1"
		else
			not_ok "exit status $st from --help is in the EXIT STATUS section of sbat-add.1" \
				"EXIT STATUS lists: ${man_status[*]}"
		fi
	done
	# the version is written once, in meson.build; both must show it
	man_version=$(sed -n 's/^\.TH [^"]*"sbat-add \([^"]*\)".*/\1/p' "$MANPAGE")
	tool_version=$("$SBAT_ADD" --version | sed -n 's/^sbat-add //p')
	if [ -n "$man_version" ] && [ "$man_version" = "$tool_version" ]; then
		ok "the manual page and --version name the same version ($tool_version)"
	else
		not_ok "the manual page and --version name the same version" "man: $man_version, --version: $tool_version"
	fi
else
	not_ok "the manual page exists" "not readable: $MANPAGE"
fi

tap_finish
