#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-trust.sh - what a root-run editor of /boot and the EFI System Partition
# must survive: a directory swapped mid-run, concurrent edits, malformed
# layouts, an input changed mid-run, metadata, long names, signals without
# O_TMPFILE, unwritable standard output and hostile file names.
#
# Environment (set by meson):
#   SBAT_ADD      path of the built sbat-add
#   GEN_FIXTURES  path of the built gen-fixtures
#   FIXTURES_SRC  the tests/fixtures source directory
#   SBAT_HOOKS    the LD_PRELOAD library built from tests/trust/hooks.c
# Output: one "ok N - ..." or "not ok N - ..." line per check, then
# "P passed, F failed". Exits 1 when a check failed.

set -u

# The signal checks need each signal's default disposition, and an ignored
# signal stays ignored in every child: a package build run under nohup (or
# any parent that ignores SIGHUP, SIGINT...) would hand that on. Start again
# with the defaults, and say so.
if [ -z "${SBAT_TEST_SIGNALS_DEFAULT:-}" ]; then
	export SBAT_TEST_SIGNALS_DEFAULT=1
	if env --default-signal=HUP true 2>/dev/null; then
		exec env --default-signal=HUP,INT,QUIT,TERM,ALRM,USR1,USR2,PIPE bash "$0" "$@"
	elif command -v perl >/dev/null 2>&1; then
		exec perl -e '$SIG{$_} = "DEFAULT" for qw(HUP INT QUIT TERM ALRM USR1 USR2 PIPE); exec @ARGV or die' \
			bash "$0" "$@"
	fi
	echo "# neither env --default-signal nor perl: signal dispositions are inherited"
fi

. "$(dirname "$0")/../lib/tap.sh"
need_env SBAT_ADD GEN_FIXTURES FIXTURES_SRC SBAT_HOOKS

CSV="$FIXTURES_SRC/csv/linux.sbat"
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-trust.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
FIX="$T/fixtures"
"$GEN_FIXTURES" "$FIX" >/dev/null || exit 1
# an ASan build wants its runtime first; the hooks library comes first here
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/lib.sh"
tap_details() {
	printf 'exit status of sbat-add: %s\n' "${RC:-}"
	printf 'stderr: %s\n' "$(head -c 400 "$T/err" 2>/dev/null)"
}

# hooked AT ACTION ARGS...: run sbat-add with the hooks library acting before the first AT call.
hooked() {
	local at="$1" action="$2"
	shift 2
	SBAT_TEST_AT="$at" SBAT_TEST_DO="$action" LD_PRELOAD="$SBAT_HOOKS" "$SBAT_ADD" "$@" >"$T/out" 2>"$T/err"
	RC=$?
}

has_sbat() {
	"$SBAT_ADD" --print "$1" >/dev/null 2>&1
}

one_line_err() {
	[ -s "$T/err" ] && [ "$(wc -l <"$T/err")" -eq 1 ]
}

entries() {
	ls -A -- "$1" | tr '\n' ' ' | sed 's/ $//'
}

inode() {
	stat -c %i -- "$1"
}

# poke32 FILE OFFSET VALUE: store VALUE little-endian at OFFSET.
poke32() {
	local v=$3
	printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $(((v >> 8) & 255)) \
		$(((v >> 16) & 255)) $(((v >> 24) & 255)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# peek32 FILE OFFSET
peek32() {
	od -An -tu4 -j "$2" -N4 -- "$1" | tr -d ' '
}

# a CSV too large for the 0x200-byte .sbat of sbat-mid.efi
printf 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n' >"$T/big.csv"
for i in $(seq 1 40); do printf 'c%d,1,Vendor %d,p,1,https://example.invalid/%d\n' "$i" "$i" "$i"; done >>"$T/big.csv"

# ------------------------------------------------ 1. directory swapped mid-run

dir="$T/swap"
mkdir -p "$dir/sub" "$T/elsewhere"
img=$(fresh efi-x86_64.efi "$dir/sub")
mv -- "$img" "$dir/sub/passwd"
printf 'root:x:0:0::/root:/bin/sh\n' >"$T/elsewhere/passwd"
cp -- "$T/elsewhere/passwd" "$T/passwd.orig"
hooked fsync "swap:$dir/sub:$T/elsewhere" --file "$dir/sub/passwd" --csv "$CSV"
check "swap: the file in the directory swapped in is untouched" cmp -s "$T/elsewhere/passwd" "$T/passwd.orig"
check "swap: nothing else appeared there" test "$(entries "$T/elsewhere")" = "passwd"
check "swap: the result went to the directory first opened (exit 0)" test "$RC" -eq 0
check "swap: ... where the image now has .sbat" has_sbat "$dir/sub.old/passwd"
check "swap: no temporary file is left in the original directory" test "$(entries "$dir/sub.old")" = "passwd"

# the same without O_TMPFILE (vfat): the named temporary is in the held directory too
rm -rf -- "$dir" "$T/elsewhere"
mkdir -p "$dir/sub" "$T/elsewhere"
img=$(fresh efi-x86_64.efi "$dir/sub")
cp -- "$T/passwd.orig" "$T/elsewhere/efi-x86_64.efi"
SBAT_TEST_NO_TMPFILE=1 hooked fsync "swap:$dir/sub:$T/elsewhere" --file "$img" --csv "$CSV"
check "swap without O_TMPFILE: the file elsewhere is untouched" \
	cmp -s "$T/elsewhere/efi-x86_64.efi" "$T/passwd.orig"
check "swap without O_TMPFILE: nothing else appeared there" test "$(entries "$T/elsewhere")" = "efi-x86_64.efi"
check "swap without O_TMPFILE: the edit lands in the directory first opened" has_sbat "$dir/sub.old/efi-x86_64.efi"
check "swap without O_TMPFILE: no temporary file is left" test "$(entries "$dir/sub.old")" = "efi-x86_64.efi"

# ------------------------------------------------ 2. concurrent edits

dir="$T/concurrent"
img=$(fresh efi-x86_64.efi "$dir")
run --file "$img" --csv "$CSV"
printf 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\nalpha,1,A,alpha,1,https://a.invalid\n' >"$T/a.csv"
printf 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\nbravo,1,B,bravo,1,https://b.invalid\n' >"$T/b.csv"
# A reads, then stalls 1.5 s before writing; B starts while A stalls
(SBAT_TEST_AT=fsync SBAT_TEST_DO=sleep:1500 LD_PRELOAD="$SBAT_HOOKS" \
	"$SBAT_ADD" --merge --file "$img" --csv "$T/a.csv" >"$T/a.out" 2>&1; echo $? >"$T/a.rc") &
sleep 0.4
"$SBAT_ADD" --merge --file "$img" --csv "$T/b.csv" >"$T/b.out" 2>&1
echo $? >"$T/b.rc"
wait
"$SBAT_ADD" --print "$img" >"$T/out" 2>/dev/null
check "concurrent --merge: the first run exits 0" test "$(cat "$T/a.rc")" = 0
check "concurrent --merge: the second run exits 0" test "$(cat "$T/b.rc")" = 0
check "concurrent --merge: the first run's row is kept" grep -q '^alpha,' "$T/out"
check "concurrent --merge: the second run's row is kept" grep -q '^bravo,' "$T/out"
check "concurrent --merge: the original rows are kept" grep -q '^linux,' "$T/out"

if command -v flock >/dev/null 2>&1; then
	cp -- "$img" "$T/locked.before"
	flock "$img" sleep 3 &
	holder=$!
	sleep 0.3
	start=$SECONDS
	run --lock-timeout 1 --file "$img" --csv "$T/a.csv"
	took=$((SECONDS - start))
	check "lock held elsewhere: --lock-timeout 1 gives up with exit 1" test "$RC" -eq 1
	check "lock held elsewhere: the message says the image is being edited" err_has "another process is editing it"
	check "lock held elsewhere: gave up within the timeout (took ${took}s)" test "$took" -le 2
	check "lock held elsewhere: the image is untouched" cmp -s "$img" "$T/locked.before"
	start=$SECONDS
	run --file "$img" --csv "$CSV" --merge
	took=$((SECONDS - start))
	check "lock held elsewhere: by default the edit waits for it and succeeds" test "$RC" -eq 0
	check "lock held elsewhere: ... after the holder let go (waited ${took}s)" test "$took" -ge 1
	wait "$holder"
else
	skip "flock(1) is missing: lock timeout checks"
fi
run --lock-timeout -1 --file "$img" --csv "$CSV"
check "--lock-timeout -1 is a usage error" test "$RC" -eq 2

# ------------------------------------------------ 3. malformed layouts lose no data

# sbat-mid.efi: .text .rodata .sbat .data; section table at 0x188
SH=0x188
rodata_ptr=$(peek32 "$FIX/sbat-mid.efi" $((SH + 40 + 20)))
for mode in relocate remove replace; do
	dir="$T/overlap-$mode"
	img=$(fresh sbat-mid.efi "$dir")
	poke32 "$img" $((SH + 2 * 40 + 20)) "$rodata_ptr"   # .sbat's raw data is now .rodata's
	cp -- "$img" "$T/overlap.before"
	case $mode in
	relocate) run --relocate --file "$img" --csv "$T/big.csv" ;;
	remove) run --remove --file "$img" ;;
	replace) run --file "$img" --csv "$CSV" ;;
	esac
	check "overlapping .sbat, $mode: refused with exit 1" test "$RC" -eq 1
	check "overlapping .sbat, $mode: the message names the other section" err_has 'section 1 ".rodata"'
	check "overlapping .sbat, $mode: one line" one_line_err
	check "overlapping .sbat, $mode: the image is byte-identical" cmp -s "$img" "$T/overlap.before"
done

# ------------------------------------------------ 4. the input changes mid-run

# with and without a CheckSum to recompute: poked after the input was read,
# before the first write of the output
for name in efi-x86_64.efi checksummed.efi; do
	dir="$T/changed-$name"
	img=$(fresh "$name" "$dir")
	before=$(inode "$img")
	hooked pwrite "poke:$img" --file "$img" --csv "$CSV"
	check "$name modified mid-run: refused with exit 1" test "$RC" -eq 1
	check "$name modified mid-run: the message says so" err_has "modified while being edited"
	check "$name modified mid-run: the file was not replaced" test "$(inode "$img")" = "$before"
	check "$name modified mid-run: it has no .sbat from us" test "$(has_sbat "$img"; echo $?)" = 3
	check "$name modified mid-run: no temporary file is left" test "$(entries "$dir")" = "$name"
done

# rewritten in place (same size, as cp and grub-install do) after the parse
# decided what to merge: before the temporary is opened, and before the
# edit's first read of the input; with time stamps that show the write and
# with time stamps too coarse to
for at in tmpfile pread; do
	for coarse in 0 1; do
		dir="$T/rewritten-$at-$coarse"
		img=$(fresh sbat-last.efi "$dir")
		before=$(inode "$img")
		row=$(grep -boa 'fxtest,1' "$img" | head -n1 | cut -d: -f1)
		SBAT_TEST_COARSE_TIME=$coarse hooked "$at" "write:$img:$row:fxtest,2" --merge --file "$img" --csv "$CSV"
		what="rewritten before the $at call (coarse time stamps: $coarse)"
		check "$what: refused with exit 1" test "$RC" -eq 1
		check "$what: the message says so" err_has "modified"
		check "$what: the file was not replaced" test "$(inode "$img")" = "$before"
		check "$what: the writer's row is there" grep -qa 'fxtest,2' "$img"
		check "$what: no temporary file is left" test "$(entries "$dir")" = sbat-last.efi
	done
done

# written through a shared mapping that was dirty before the edit started:
# no time stamp moves (the documented limit), so the write shows only where
# the output is compared with the input, here in .text (file offset 0x500),
# after the output was written; the failure says the file changed
dir="$T/mapped-writer"
img=$(fresh efi-x86_64.efi "$dir")
before=$(inode "$img")
SBAT_TEST_MAP="$img" hooked ftruncate "mapwrite:1280:written-through-a-mapping" --file "$img" --csv "$CSV"
check "written through a mapping: refused with exit 1" test "$RC" -eq 1
check "written through a mapping: the message says the file changed" err_has "changed while being edited"
check "written through a mapping: no internal error is claimed" test "$(grep -c 'internal error' "$T/err")" = 0
check "written through a mapping: the message names the offset" err_has "offset 0x500"
check "written through a mapping: one line" one_line_err
check "written through a mapping: the file was not replaced" test "$(inode "$img")" = "$before"
check "written through a mapping: the writer's bytes are there" grep -qa 'written-through-a-mapping' "$img"
check "written through a mapping: no temporary file is left" test "$(entries "$dir")" = efi-x86_64.efi

# ------------------------------------------------ 5. metadata

dir="$T/meta"
img=$(fresh efi-x86_64.efi "$dir")
if command -v setfacl >/dev/null 2>&1 && command -v setfattr >/dev/null 2>&1 &&
	setfacl -m u:nobody:r -- "$img" 2>/dev/null && setfattr -n user.sbat-test -v kept -- "$img" 2>/dev/null; then
	if [ "$(id -u)" = 0 ]; then
		chown 4321:4322 -- "$img"
		chmod 02750 -- "$img"
		setfacl -m u:nobody:r -- "$img"
	fi
	getfacl -cp -- "$img" >"$T/acl.before" 2>/dev/null
	getfattr -d -m - --absolute-names -- "$img" 2>/dev/null | sed 1d >"$T/xattr.before"
	stat -c '%u:%g:%a' -- "$img" >"$T/stat.before"
	run --file "$img" --csv "$CSV"
	getfacl -cp -- "$img" >"$T/acl.after" 2>/dev/null
	getfattr -d -m - --absolute-names -- "$img" 2>/dev/null | sed 1d >"$T/xattr.after"
	stat -c '%u:%g:%a' -- "$img" >"$T/stat.after"
	check "in place: the edit succeeds" test "$RC" -eq 0
	check "in place: the image has .sbat" has_sbat "$img"
	check "in place: the POSIX ACL is kept" cmp -s "$T/acl.before" "$T/acl.after"
	check "in place: the extended attributes are kept" cmp -s "$T/xattr.before" "$T/xattr.after"
	check "in place: owner, group and mode are kept ($(cat "$T/stat.before"))" cmp -s "$T/stat.before" "$T/stat.after"
else
	skip "no ACL or user xattr support here (setfacl/setfattr or the file system)"
fi

dir="$T/output-mode"
img=$(fresh efi-x86_64.efi "$dir")
[ "$(id -u)" = 0 ] && chown 4321:4322 -- "$img"
chmod 04755 -- "$img"
(umask 027 && "$SBAT_ADD" --file "$img" --csv "$CSV" --output "$dir/new.efi" >"$T/out" 2>"$T/err")
RC=$?
check "--output: the edit succeeds" test "$RC" -eq 0
check "--output: IMAGE's permission bits less the umask, no setuid ($(stat -c %a -- "$dir/new.efi"))" \
	test "$(stat -c %a -- "$dir/new.efi")" = 750
check "--output: owned by the caller" test "$(stat -c %u -- "$dir/new.efi")" = "$(id -u)"

# the umask is read, never set (setting it for a moment changes what the
# caller's other threads create): from /proc/self/status; without /proc
# from the mode a nameless probe file gets; without that either, as if it
# were 077. A call to umask() ends the hooked run with exit 98.
for how in proc no-proc no-proc-no-tmpfile; do
	rm -f -- "$dir/new.efi"
	noproc=0
	notmp=0
	expect=750
	case $how in
	no-proc) noproc=1 ;;
	no-proc-no-tmpfile) noproc=1 notmp=1 expect=700 ;;
	esac
	(umask 027 && SBAT_TEST_NO_UMASK=1 SBAT_TEST_NO_PROC=$noproc SBAT_TEST_NO_TMPFILE=$notmp \
		LD_PRELOAD="$SBAT_HOOKS" "$SBAT_ADD" --file "$img" --csv "$CSV" --output "$dir/new.efi" >"$T/out" 2>"$T/err")
	RC=$?
	check "--output, umask read ($how): the edit succeeds without calling umask()" test "$RC" -eq 0
	check "--output, umask read ($how): mode $expect ($(stat -c %a -- "$dir/new.efi" 2>/dev/null))" \
		test "$(stat -c %a -- "$dir/new.efi" 2>/dev/null)" = $expect
	check "--output, umask read ($how): no temporary file is left" \
		test "$(entries "$dir")" = "efi-x86_64.efi new.efi"
done
check "--output: the input keeps its own mode" test "$(stat -c %a -- "$img")" = 4755

# ------------------------------------------------ 6. long names

dir="$T/long"
name250=$(printf 'k%.0s' $(seq 1 246)).efi
img=$(fresh efi-x86_64.efi "$dir")
mv -- "$img" "$dir/$name250"
run --file "$dir/$name250" --csv "$CSV"
check "a 250-byte name is edited in place" test "$RC" -eq 0
check "... and has .sbat" has_sbat "$dir/$name250"
SBAT_TEST_NO_TMPFILE=1 LD_PRELOAD="$SBAT_HOOKS" "$SBAT_ADD" --remove --file "$dir/$name250" >"$T/out" 2>"$T/err"
RC=$?
check "a 250-byte name without O_TMPFILE: its temporary name fits" test "$RC" -eq 0
run --file "$dir/$name250" --csv "$CSV" --output "$dir/o$(printf 'k%.0s' $(seq 1 245)).efi"
check "a 250-byte --output name works" test "$RC" -eq 0
check "no temporary files are left" test "$(ls -A "$dir" | wc -l)" -eq 2
name256=$(printf 'k%.0s' $(seq 1 252)).efi
run --file "$dir/$name250" --csv "$CSV" --output "$dir/$name256"
check "a 256-byte --output name is refused (exit 1)" test "$RC" -eq 1
check "... as too long" err_has "File name too long"
check "... before anything was written" test "$(ls -A "$dir" | wc -l)" -eq 2
run --file "$dir/$name250" --csv "$CSV" --output "$dir/no/such/dir/out.efi"
check "an --output in a missing directory is refused (exit 1)" test "$RC" -eq 1
mkdir -p "$dir/adir"
run --file "$dir/$name250" --csv "$CSV" --output "$dir/adir"
check "an --output that is a directory is refused (exit 1)" test "$RC" -eq 1
check "... and the directory is empty" test -z "$(ls -A "$dir/adir")"

# ------------------------------------------------ 7. signals without O_TMPFILE

for sig in HUP INT QUIT TERM ALRM USR1 USR2; do
	num=$(kill -l "$sig")
	dir="$T/signal-$sig"
	img=$(fresh checksummed.efi "$dir")
	SBAT_TEST_NO_TMPFILE=1 hooked fsync "kill:$num" --file "$img" --csv "$CSV"
	check "SIG$sig mid-run without O_TMPFILE: the process ends by the signal" test "$RC" -eq $((128 + num))
	check "SIG$sig: the named temporary file is removed" test "$(entries "$dir")" = "checksummed.efi"
	check "SIG$sig: the image is byte-identical" cmp -s "$img" "$FIX/checksummed.efi"
done
# a signal just after the rename: the new file is in place, so the edit is done
for sig in INT TERM; do
	num=$(kill -l "$sig")
	dir="$T/signal-renamed-$sig"
	img=$(fresh checksummed.efi "$dir")
	hooked renamed "kill:$num" --file "$img" --csv "$CSV"
	check "SIG$sig just after the rename: the edit is reported done (exit 0, not $((128 + num)))" test "$RC" -eq 0
	check "SIG$sig just after the rename: the image has the new .sbat" has_sbat "$img"
	check "SIG$sig just after the rename: no temporary file is left" test "$(entries "$dir")" = "checksummed.efi"
done
dir="$T/signal-PIPE"
img=$(fresh checksummed.efi "$dir")
SBAT_TEST_NO_TMPFILE=1 hooked fsync "kill:$(kill -l PIPE)" --file "$img" --csv "$CSV"
check "SIGPIPE mid-run is ignored: the edit completes" test "$RC" -eq 0
check "SIGPIPE: no temporary file is left" test "$(entries "$dir")" = "checksummed.efi"
check "SIGPIPE: the image has .sbat" has_sbat "$img"
dir="$T/signal-KILL"
img=$(fresh checksummed.efi "$dir")
SBAT_TEST_NO_TMPFILE=1 hooked fsync "kill:9" --file "$img" --csv "$CSV"
check "SIGKILL mid-run: the image is byte-identical" cmp -s "$img" "$FIX/checksummed.efi"
SBAT_TEST_NO_TMPFILE=1 LD_PRELOAD="$SBAT_HOOKS" "$SBAT_ADD" --file "$img" --csv "$CSV" >"$T/out" 2>"$T/err"
RC=$?
check "after a SIGKILL, a later run succeeds" test "$RC" -eq 0
check "... and the image has .sbat" has_sbat "$img"

# SIGKILL while the input is checked a last time before the rename (its
# identity, then its content read again; coarse times make sure of the
# read): the O_TMPFILE temporary has no name yet, so nothing is left behind
if command -v python3 >/dev/null 2>&1 &&
	! python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_TMPFILE | os.O_RDWR, 0o600))' "$T" 2>/dev/null; then
	skip "no O_TMPFILE in $T: SIGKILL during the final check"
else
	for at in fstat pread; do
		dir="$T/kill-check-$at"
		img=$(fresh checksummed.efi "$dir")
		SBAT_TEST_AFTER=fsync SBAT_TEST_COARSE_TIME=1 hooked "$at" "kill:9" --file "$img" --csv "$CSV"
		check "SIGKILL at the final check's first $at of the input: the process was killed there" \
			test "$RC" -eq 137
		check "SIGKILL at the final check's first $at: no temporary file is left" \
			test "$(entries "$dir")" = "checksummed.efi"
		check "SIGKILL at the final check's first $at: the image is byte-identical" \
			cmp -s "$img" "$FIX/checksummed.efi"
	done
fi
# SIGKILL while a durable output is handed to the device as it is written
# (an image of 12 MiB more, with a CheckSum: written through memory, 8 MiB
# at a time): the original stays, nothing is left; --no-sync hands nothing
dir="$T/kill-writeback"
img=$(fresh checksummed.efi "$dir")
head -c 12582912 /dev/zero >>"$img"
cp -- "$img" "$T/writeback.orig"
hooked sync_file_range "kill:9" --file "$img" --csv "$CSV"
check "SIGKILL at the first writeback of the output: the process was killed there" test "$RC" -eq 137
check "SIGKILL at the first writeback: the image is byte-identical" cmp -s "$img" "$T/writeback.orig"
check "SIGKILL at the first writeback: no file is left beside it" test "$(entries "$dir")" = "checksummed.efi"
hooked sync_file_range "kill:9" --no-sync --file "$img" --csv "$CSV"
check "--no-sync starts no writeback: the edit completes" test "$RC" -eq 0
check "--no-sync: the image has .sbat" has_sbat "$img"
# the name replaced (by a symbolic link) while the content is read that last
# time: the identity is checked again after it, just before the rename
for nt in 0 1; do
	what=$([ $nt = 0 ] && echo "O_TMPFILE" || echo "named temporary")
	dir="$T/swap-check-$nt"
	img=$(fresh checksummed.efi "$dir")
	SBAT_TEST_NO_TMPFILE=$nt SBAT_TEST_AFTER=fsync SBAT_TEST_COARSE_TIME=1 \
		hooked pread "swap:$img:/nowhere" --file "$img" --csv "$CSV"
	check "name replaced during the final content read ($what): refused (exit 1)" test "$RC" -eq 1
	check "name replaced during the final content read ($what): the message says so" \
		err_has "modified or replaced while being edited"
	check "name replaced during the final content read ($what): the link put there is kept" test -L "$img"
	check "name replaced during the final content read ($what): no temporary file is left" \
		test "$(entries "$dir")" = "checksummed.efi checksummed.efi.old"
done

# on a real FAT file system, when this machine can mount one
vfat="$T/vfat"
if [ "$(id -u)" = 0 ] && command -v mkfs.vfat >/dev/null 2>&1 && truncate -s 33M "$T/vfat.img" &&
	mkfs.vfat "$T/vfat.img" >/dev/null 2>&1 && mkdir -p "$vfat" && mount -o loop "$T/vfat.img" "$vfat" 2>/dev/null; then
	cp -- "$FIX/checksummed.efi" "$vfat/grubx64.efi"
	hooked fsync "kill:$(kill -l TERM)" --file "$vfat/grubx64.efi" --csv "$CSV"
	check "vfat: SIGTERM mid-run leaves only the image" test "$(entries "$vfat")" = "grubx64.efi"
	check "vfat: ... byte-identical" cmp -s "$vfat/grubx64.efi" "$FIX/checksummed.efi"
	run --file "$vfat/grubx64.efi" --csv "$CSV"
	check "vfat: an edit succeeds" test "$RC" -eq 0
	check "vfat: ... and leaves no temporary file" test "$(entries "$vfat")" = "grubx64.efi"
	umount "$vfat"
else
	skip "cannot mount a FAT file system here; O_TMPFILE failure is simulated above"
fi

# ------------------------------------------------ 8. standard output must arrive

img=$(fresh efi-x86_64.efi "$T/stdout")
run --file "$img" --csv "$CSV"
for args in "--print IMAGE" "--print --json IMAGE" "--help" "--version"; do
	# shellcheck disable=SC2086
	"$SBAT_ADD" ${args/IMAGE/$img} >/dev/full 2>"$T/err"
	RC=$?
	check "$args >/dev/full: exit 1" test "$RC" -eq 1
	check "$args >/dev/full: says why" err_has "write error"
done
if command -v python3 >/dev/null 2>&1; then
	for restore in True False; do
		RC=$(python3 -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[2:], stdout=w, stderr=subprocess.PIPE, restore_signals=sys.argv[1] == "True")
sys.stderr.write(p.stderr.decode(errors="replace"))
print(p.returncode)' "$restore" "$SBAT_ADD" --print --json "$img" 2>"$T/err")
		what=$([ $restore = True ] && echo "SIGPIPE default" || echo "SIGPIPE ignored by the parent")
		check "--print --json into a closed pipe ($what): exit 1" test "$RC" = 1
		check "--print --json into a closed pipe ($what): says why" err_has "Broken pipe"
	done
else
	skip "python3 is missing: closed-pipe checks"
fi

# ------------------------------------------------ 9. smaller errors

run -nx "$img"
check "-nx: a usage error" test "$RC" -eq 2
check "-nx: names -x, the unknown letter" err_has "unrecognized option '-x'"
cp -- "$img" "$T/before.efi"
run --file "$img" --csv "$CSV" --remove --output ''
run --file "$img" --csv "$CSV" --output ''
check "--output '': a usage error" test "$RC" -eq 2
check "--output '': before any work (the image is untouched)" cmp -s "$img" "$T/before.efi"
run --file '' --csv "$CSV"
check "--file '': a usage error" test "$RC" -eq 2
run --print "$T/no"$'\n'"such"$'\t'"file"
check "a newline in a file name: the error stays one line" one_line_err
check "a newline in a file name: shown escaped" err_has 'no\nsuch\tfile'
nl="$T/new"$'\n'"line.efi"
cp -- "$FIX/sbat-mid.efi" "$nl"
run --file "$nl" --csv "$T/big.csv"
check "a refused edit of a file with a newline in its name: one line" one_line_err

# ------------------------------------------------ an input cut short mid-run

# truncated by someone else while the edit waits at its first copy of the data: said as such
for target in output in-place; do
	dir="$T/shrank-$target"
	img=$(fresh efi-x86_64.efi "$dir")
	{ sleep 0.3; truncate -s 1024 -- "$img"; } &
	if [ "$target" = output ]; then
		hooked copy_file_range sleep:1000 --file "$img" --csv "$CSV" --output "$dir/out.efi"
	else
		hooked copy_file_range sleep:1000 --file "$img" --csv "$CSV"
	fi
	wait
	check "input truncated mid-run ($target): exit 1" test "$RC" -eq 1
	check "input truncated mid-run ($target): 'the input shrank while being read', not an I/O error" \
		eval 'err_has "the input shrank while being read" && ! err_has "Input/output error"'
	check "input truncated mid-run ($target): nothing else is left in the directory" \
		test "$(entries "$dir")" = "efi-x86_64.efi"
done

tap_finish
