#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-cli.sh - black-box tests of the sbat-add command: options, exit codes,
# messages, file handling, and agreement between --help and the manual page.
#
# Environment (set by meson):
#   SBAT_ADD      path of the built sbat-add
#   GEN_FIXTURES  path of the built gen-fixtures
#   FIXTURES_SRC  the tests/fixtures source directory (holds csv/)
# Output: one "ok N - ..." or "not ok N - ..." line per check, then
# "P passed, F failed". Exits 1 when a check failed.

set -u

for var in SBAT_ADD GEN_FIXTURES FIXTURES_SRC; do
	if [ -z "${!var:-}" ]; then
		echo "test-cli.sh: $var is not set (run through 'meson test')" >&2
		exit 1
	fi
done

script_dir=$(cd "$(dirname "$0")" && pwd)
MANPAGE="${MANPAGE:-$script_dir/../../man/sbat-add.1}"
CSV="$FIXTURES_SRC/csv/linux.sbat"

T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-cli.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT

n=0
passed=0
failed=0

# ok DESCRIPTION / not_ok DESCRIPTION [DETAIL...]
ok() {
	n=$((n + 1))
	passed=$((passed + 1))
	echo "ok $n - $1"
}

not_ok() {
	local desc="$1" line
	shift
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $desc"
	for line in "$@"; do
		printf '#   %s\n' "$line"
	done
}

# check DESCRIPTION COMMAND...: ok when COMMAND succeeds.
check() {
	local desc="$1"
	shift
	if "$@"; then
		ok "$desc"
	else
		not_ok "$desc" "failed: $*"
	fi
}

# run ARGS...: run sbat-add; sets RC, and OUT and ERR to the captured output.
run() {
	"$SBAT_ADD" "$@" >"$T/out" 2>"$T/err"
	RC=$?
	OUT=$(cat "$T/out")
	ERR=$(cat "$T/err")
}

# what_ran: details for a failed check.
what_ran() {
	printf 'exit status %s\n' "$RC"
	printf 'stdout: %s\n' "$(head -c 400 "$T/out")"
	printf 'stderr: %s\n' "$(head -c 400 "$T/err")"
}

# expect_rc DESCRIPTION STATUS ARGS...
expect_rc() {
	local desc="$1" want="$2"
	shift 2
	run "$@"
	if [ "$RC" -eq "$want" ]; then
		ok "$desc"
	else
		local details
		mapfile -t details < <(echo "expected exit status $want"; what_ran)
		not_ok "$desc" "${details[@]}"
	fi
}

# expect_usage DESCRIPTION ARGS...: exit 2, nothing on stdout, a "sbat-add: " message
# and a pointer to --help on stderr.
expect_usage() {
	local desc="$1"
	shift
	run "$@"
	# getopt may add its own line first, so look for ours anywhere
	if [ "$RC" -eq 2 ] && [ -z "$OUT" ] && printf '%s\n' "$ERR" | grep -q '^sbat-add: ' &&
	   [[ "$ERR" == *"--help"* ]]; then
		ok "$desc"
	else
		local details
		mapfile -t details < <(echo "expected exit status 2 and a usage message"; what_ran)
		not_ok "$desc" "${details[@]}"
	fi
}

mtime() {
	stat -c %Y -- "$1"
}

mode() {
	stat -c %a -- "$1"
}

one_line() {
	[ -n "$1" ] && [ "$(printf '%s\n' "$1" | wc -l)" -eq 1 ]
}

# fresh NAME DIR: copy the pristine fixture NAME into DIR, print the path.
fresh() {
	mkdir -p -- "$2"
	cp -- "$FIX/$1" "$2/$1"
	printf '%s\n' "$2/$1"
}

# ---------------------------------------------------------------- fixtures

FIX="$T/fixtures"
mkdir -p -- "$FIX"
if "$GEN_FIXTURES" "$FIX" >/dev/null 2>"$T/gen.err"; then
	ok "gen-fixtures writes the example images"
else
	not_ok "gen-fixtures writes the example images" "$(cat "$T/gen.err")"
	echo "$passed passed, $failed failed"
	exit 1
fi
chmod a-w -- "$FIX"/*

mapfile -t images < <(cd "$FIX" && ls -1)
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
check "usage errors created no files" test ! -e "$T/x"

# ---------------------------------------------- insert, print, idempotence

for img in "${images[@]}"; do
	case "$img" in
	no-room.efi | signed.efi) continue ;;
	esac
	dir="$T/insert"
	f=$(fresh "$img" "$dir")
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
	check "$img: no temporary files are left behind" test -z "$(ls -A "$dir")"
done

# ---------------------------------------------------------- refused edits

# expect_refusal NAME DESCRIPTION ARGS...: exit 1, one line naming the file
# with "at offset 0x", the image byte-identical and no new files.
expect_refusal() {
	local img="$1" desc="$2" dir="$T/refuse" f listing
	shift 2
	f=$(fresh "$img" "$dir")
	listing=$(ls -A "$dir")
	run --file "$f" "$@"
	if [ "$RC" -eq 1 ] && one_line "$ERR" && [[ "$ERR" == "sbat-add: $f: "* ]] &&
	   [[ "$ERR" == *"at offset 0x"* ]] && [ -z "$OUT" ]; then
		ok "$img: $desc: exit 1 with a one-line message naming the file and offset"
	else
		mapfile -t d < <(what_ran)
		not_ok "$img: $desc: exit 1 with a one-line message naming the file and offset" "${d[@]}"
	fi
	check "$img: $desc: the image is byte-identical" cmp -s "$f" "$FIX/$img"
	check "$img: $desc: no temporary files are left behind" test "$(ls -A "$dir")" = "$listing"
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

f=$(fresh sbat-last.efi "$T/grow")
chmod u+w -- "$f"
expect_rc "sbat-last.efi: a larger CSV grows the last .sbat" 0 --file "$f" --csv "$BIG"
run --print "$f"
check "sbat-last.efi: --print shows the grown CSV" cmp -s "$T/out" "$BIG"

# --strip-signature
f=$(fresh signed.efi "$T/strip")
chmod u+w -- "$f"
expect_rc "signed.efi: --strip-signature exits 0" 0 --strip-signature --file "$f" --csv "$CSV"
run --print "$f"
check "signed.efi: --print after --strip-signature shows the CSV" cmp -s "$T/out" "$CSV"
check "signed.efi: the stripped image is smaller than the signed one" \
	test "$(stat -c %s "$f")" -lt "$(stat -c %s "$FIX/signed.efi")"
expect_rc "signed.efi: the stripped image is no longer refused as signed" 0 --file "$f" --csv "$CSV"

# ------------------------------------------------------------- CSV checks

for csv in "$FIXTURES_SRC"/csv/invalid/*; do
	name=$(basename -- "$csv")
	f=$(fresh efi-x86_64.efi "$T/badcsv")
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
	name=$(basename -- "$csv")
	f=$(fresh efi-x86_64.efi "$T/goodcsv")
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
f=$(fresh efi-x86_64.efi "$dir")
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
check "--output: no temporary files are left behind" \
	test "$(ls -A "$dir" | tr '\n' ' ')" = "efi-x86_64.efi existing.efi out.efi "

# ---------------------------------------------------------- in-place mode

f=$(fresh bzimage-new.bin "$T/mode")
chmod 0640 -- "$f"
expect_rc "in-place edit of a 0640 file exits 0" 0 --file "$f" --csv "$CSV"
check "in-place edit keeps mode 0640" test "$(mode "$f")" = 640
check "in-place edit changed the file" test -n "$(cmp "$f" "$FIX/bzimage-new.bin" 2>&1)"

# a symbolic link as IMAGE
dir="$T/symlink"
f=$(fresh efi-x86_64.efi "$dir")
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
check "symbolic link: no temporary files are left behind" \
	test "$(ls -A "$dir" | tr '\n' ' ')" = "efi-x86_64.efi link.efi "
expect_rc "symbolic link: --file TARGET works" 0 --file "$f" --csv "$CSV"
run --print "$dir/link.efi"
check "symbolic link: --print through the link shows the CSV" cmp -s "$T/out" "$CSV"

# --dry-run
dir="$T/dry"
f=$(fresh arm64-image.bin "$dir")
chmod u+w -- "$f"
touch -d '2001-01-01' -- "$f"
before=$(mtime "$f")
expect_rc "--dry-run exits 0" 0 --dry-run --verbose --file "$f" --csv "$CSV"
check "--dry-run describes the edit on stderr" test -n "$ERR"
check "--dry-run leaves the image byte-identical" cmp -s "$f" "$FIX/arm64-image.bin"
check "--dry-run leaves the mtime alone" test "$(mtime "$f")" = "$before"
check "--dry-run creates no files" test "$(ls -A "$dir")" = "arm64-image.bin"
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
for img in "${images[@]}"; do
	size=$(stat -c %s -- "$FIX/$img")
	bad=""
	for len in 0 2 64 300 512 1024 4096 $((size / 2)) $((size - 1)); do
		head -c "$len" -- "$FIX/$img" >"$dir/cut.efi"
		# at most one line on stderr: a sanitizer report is not a refusal
		"$SBAT_ADD" --file "$dir/cut.efi" --csv "$CSV" >/dev/null 2>"$T/err"
		rc=$?
		{ [ "$rc" -le 1 ] && [ "$(wc -l <"$T/err")" -le 1 ]; } || bad="$bad len=$len:exit=$rc"
		"$SBAT_ADD" --print "$dir/cut.efi" >/dev/null 2>"$T/err"
		rc=$?
		{ [ "$rc" -le 1 ] || [ "$rc" -eq 3 ]; } && [ "$(wc -l <"$T/err")" -le 1 ] ||
			bad="$bad print:len=$len:exit=$rc"
	done
	if [ -z "$bad" ]; then
		ok "$img: truncated copies are refused or edited, never crash"
	else
		not_ok "$img: truncated copies are refused or edited, never crash" "$bad"
	fi
done
check "bad images: no temporary files are left behind" \
	test -z "$(find "$dir" -mindepth 1 -maxdepth 1 -name '.*')"

# ---------------------------------------------- --help and the manual page

if [ -r "$MANPAGE" ]; then
	ok "the manual page exists"
	# long options named anywhere in --help
	mapfile -t help_opts < <(printf '%s\n' "$HELP" | grep -oE -- '--[a-z][a-z-]*' | sort -u)
	# long options listed in the manual's OPTIONS section, hyphens unescaped
	mapfile -t man_opts < <(sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$MANPAGE" |
		sed 's/\\-/-/g' | grep -oE -- '--[a-z][a-z-]*' | sort -u)
	for opt in "${help_opts[@]}"; do
		escaped=${opt//-/\\-}
		if grep -qF -- "$escaped" "$MANPAGE" || grep -qF -- "$opt" "$MANPAGE"; then
			ok "$opt from --help is documented in sbat-add.1"
		else
			not_ok "$opt from --help is documented in sbat-add.1"
		fi
	done
	for opt in "${man_opts[@]}"; do
		if printf '%s\n' "${help_opts[@]}" | grep -qxF -- "$opt"; then
			ok "$opt from sbat-add.1 OPTIONS is in --help"
		else
			not_ok "$opt from sbat-add.1 OPTIONS is in --help"
		fi
	done
	# every "-x, --name" pair of --help appears together in the manual
	while read -r short long; do
		if sed 's/\\-/-/g' "$MANPAGE" | grep -E -- "(^|[^a-z-])$short\\b" | grep -qF -- "$long"; then
			ok "$short, $long from --help is documented together in sbat-add.1"
		else
			not_ok "$short, $long from --help is documented together in sbat-add.1"
		fi
	done < <(printf '%s\n' "$HELP" | sed -nE 's/^ +(-[a-zA-Z]), (--[a-z][a-z-]*).*/\1 \2/p')
else
	not_ok "the manual page exists" "not readable: $MANPAGE"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
