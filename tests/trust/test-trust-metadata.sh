#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-trust-metadata.sh - what the in-place edit must keep and check beyond
# the time stamps: a change within one clock tick, exactly the original's
# ACL, an owner that cannot be restored, a failed directory fsync, --output
# onto the input itself, stale temporaries after SIGKILL, a writable but
# unreadable directory, and a directory scan that never follows a link.
#
# Environment (set by meson): SBAT_ADD, GEN_FIXTURES, FIXTURES_SRC, SBAT_HOOKS
# (see test-trust.sh). Output: TAP, one line per check.

set -u

for var in SBAT_ADD GEN_FIXTURES FIXTURES_SRC SBAT_HOOKS; do
	if [ -z "${!var:-}" ]; then
		echo "test-trust-metadata.sh: $var is not set (run through 'meson test')" >&2
		exit 1
	fi
done

CSV="$FIXTURES_SRC/csv/linux.sbat"
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-trust-meta.XXXXXX") || exit 1
MNT=""
cleanup() {
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	chattr -R -a "$T" 2>/dev/null
	chmod -R u+rwx -- "$T" 2>/dev/null
	rm -rf -- "$T"
}
trap cleanup EXIT
chmod 0755 "$T"
FIX="$T/fixtures"
"$GEN_FIXTURES" "$FIX" >/dev/null || exit 1
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
# LeakSanitizer cannot run under ptrace: the strace cases turn it off

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/lib.sh"
tap_details() {
	printf 'exit status of sbat-add: %s\n' "${RC:-}"
	printf 'stderr: %s\n' "$(head -c 400 "$T/err" 2>/dev/null)"
}

# hooked AT ACTION ARGS...: the hooks library acts before the first AT call.
hooked() {
	local at="$1" action="$2"
	shift 2
	SBAT_TEST_AT="$at" SBAT_TEST_DO="$action" LD_PRELOAD="$SBAT_HOOKS" "$SBAT_ADD" "$@" >"$T/out" 2>"$T/err"
	RC=$?
}


has_sbat() {
	"$SBAT_ADD" --print "$1" >/dev/null 2>&1
}

entries() {
	ls -A -- "$1" | tr '\n' ' ' | sed 's/ $//'
}

# byte_at FILE OFFSET: one byte, as a hex pair
byte_at() {
	od -An -tx1 -j "$2" -N1 -- "$1" | tr -d ' '
}

no_access_acl() {
	! getfattr -n system.posix_acl_access --absolute-names -- "$1" >/dev/null 2>&1
}

is_root() {
	[ "$(id -u)" = 0 ]
}

# ------------------------------------------------ 1. a change the time stamps cannot see

# every fstat reports the same times (one tick for the whole run): only the content tells
for tmpfile in 1 0; do
	what=$([ $tmpfile = 1 ] && echo "O_TMPFILE" || echo "named temporary")
	for name in efi-x86_64.efi checksummed.efi; do
		dir="$T/coarse-$tmpfile-$name"
		img=$(fresh "$name" "$dir")
		cp -- "$img" "$T/coarse.orig"
		nt=$([ $tmpfile = 1 ] && echo 0 || echo 1)
		SBAT_TEST_NO_TMPFILE=$nt SBAT_TEST_COARSE_TIME=1 hooked fsync "poke:$img" --file "$img" --csv "$CSV"
		check "coarse times, $name ($what), a byte written during the fsync: refused (exit 1)" test "$RC" -eq 1
		check "coarse times, $name ($what): the message says the file was modified" \
			err_has "modified while being edited"
		check "coarse times, $name ($what): the other program's byte is kept" test "$(byte_at "$img" 256)" = 5a
		check "coarse times, $name ($what): no temporary file is left" test "$(entries "$dir")" = "$name"
	done
done
# coarse_poke DIR AT WHEN: with coarse times, a byte written before the first
# AT call is refused as a modified file, kept, and leaves no temporary
coarse_poke() {
	local dir="$T/$1" at="$2" when="$3" img
	img=$(fresh efi-x86_64.efi "$dir")
	SBAT_TEST_COARSE_TIME=1 hooked "$at" "poke:$img" --file "$img" --csv "$CSV"
	check "coarse times, a byte written $when: refused (exit 1)" test "$RC" -eq 1
	check "coarse times, a byte written $when: the message says the file was modified (not an internal error)" \
		err_has "the file was modified"
	check "coarse times, a byte written $when: the byte is kept" test "$(byte_at "$img" 256)" = 5a
	check "coarse times, a byte written $when: no temporary file is left" test "$(entries "$dir")" = "efi-x86_64.efi"
}
coarse_poke coarse-copy pwrite "after it was read, before the output is written"
# written before the edit reads the data, in the headers the edit decided
# from: refused, as the edit would write the old headers' plan over it
coarse_poke coarse-early pread "in the headers, before the data is read"
# written before the edit reads the data, in .text (byte 1100; the headers
# end at 1024), which it only copies: nothing is lost, the result holds it
# whole-second times on this file system (ext4 with 128-byte inodes): a
# write in the second of the change time shows only in the content; once
# that second is over, any write shows in the time stamps, so the content
# is compared before the fsync, while the device writes, not after it
dir="$T/seconds-same"
img=$(fresh efi-x86_64.efi "$dir")
SBAT_TEST_COARSE_TIME=s hooked pwrite "poke:$img" --file "$img" --csv "$CSV"
check "whole seconds, a byte written while the output is written: refused (exit 1)" test "$RC" -eq 1
check "whole seconds, a byte written while the output is written: the byte is kept" test "$(byte_at "$img" 256)" = 5a
dir="$T/seconds-late"
img=$(fresh efi-x86_64.efi "$dir")
SBAT_TEST_COARSE_TIME=s SBAT_TEST_AT2=pwrite SBAT_TEST_DO2=sleep:1100 hooked fsync "poke:$img" --file "$img" --csv "$CSV"
check "whole seconds, the second over, a byte written during the fsync: refused (exit 1)" test "$RC" -eq 1
check "whole seconds, the second over, a byte written during the fsync: the byte is kept" \
	test "$(byte_at "$img" 256)" = 5a
check "whole seconds, the second over: no temporary file is left" test "$(entries "$dir")" = "efi-x86_64.efi"
dir="$T/seconds-order"
img=$(fresh efi-x86_64.efi "$dir")
SBAT_TEST_COARSE_TIME=s SBAT_TEST_AT2=pwrite SBAT_TEST_DO2=sleep:1100 SBAT_TEST_AFTER=fsync \
	hooked pread "kill:9" --file "$img" --csv "$CSV"
check "whole seconds, the second over by the commit: the input is not read after the fsync (exit 0, not killed)" \
	test "$RC" -eq 0
check "whole seconds, the second over by the commit: the image has .sbat" has_sbat "$img"

dir="$T/coarse-early-text"
img=$(fresh efi-x86_64.efi "$dir")
SBAT_TEST_COARSE_TIME=1 hooked pread "write:$img:1100:Z" --file "$img" --csv "$CSV"
check "coarse times, a byte written in .text before the data is read: the edit goes ahead (exit 0)" test "$RC" -eq 0
check "coarse times, a byte written in .text before the data is read: the result holds it" \
	test "$(byte_at "$img" 1100)" = 5a
check "coarse times, a byte written in .text before the data is read: and the new .sbat" has_sbat "$img"
# written after the copy, before the output is read back: verification sees the change first
coarse_poke coarse-verify ftruncate "before the output is verified"
dir="$T/coarse-output"
img=$(fresh efi-x86_64.efi "$dir")
SBAT_TEST_COARSE_TIME=1 hooked pwrite "poke:$img" --file "$img" --csv "$CSV" --output "$dir/new.efi"
check "coarse times, --output, the input written during the copy: refused (exit 1)" test "$RC" -eq 1
check "coarse times, --output: the message says the file was modified (not an internal error)" \
	err_has "modified while being edited"
check "coarse times, --output: nothing is written" test "$(entries "$dir")" = "efi-x86_64.efi"

# a real file system with 1-second time stamps (ext4 with 128-byte inodes), when this machine can mount one
MNT="$T/ext4"
if is_root && command -v mkfs.ext4 >/dev/null 2>&1 && truncate -s 16M "$T/ext4.img" &&
	mkfs.ext4 -q -F -I 128 "$T/ext4.img" >/dev/null 2>&1 && mkdir -p "$MNT" &&
	mount -o loop "$T/ext4.img" "$MNT" 2>/dev/null; then
	lost=0
	for i in 1 2 3 4; do
		img=$(fresh efi-x86_64.efi "$MNT/r$i")
		hooked fsync "poke:$img" --file "$img" --csv "$CSV"
		[ "$RC" -eq 1 ] && [ "$(byte_at "$img" 256)" = 5a ] || lost=$((lost + 1))
	done
	check "ext4 -I 128: a byte written during the fsync is never lost ($lost of 4 lost)" test "$lost" -eq 0
	umount "$MNT"
else
	skip "cannot mount an ext4 file system with 128-byte inodes here"
fi
MNT=""

# ------------------------------------------------ 2. exactly the original's ACL

if command -v setfacl >/dev/null 2>&1 && mkdir -p "$T/acl-probe" && setfacl -d -m u:1234:rwx "$T/acl-probe" 2>/dev/null; then
	for tmpfile in 1 0; do
		what=$([ $tmpfile = 1 ] && echo "O_TMPFILE" || echo "named temporary")
		nt=$([ $tmpfile = 1 ] && echo 0 || echo 1)
		dir="$T/acl-$tmpfile"
		img=$(fresh efi-x86_64.efi "$dir")
		chmod 0600 -- "$img"
		setfacl -d -m u:1234:rwx "$dir"
		SBAT_TEST_NO_TMPFILE=$nt LD_PRELOAD="$SBAT_HOOKS" "$SBAT_ADD" --file "$img" --csv "$CSV" >"$T/out" 2>"$T/err"
		RC=$?
		check "default ACL on the directory ($what): the edit succeeds" test "$RC" -eq 0
		check "default ACL on the directory ($what): the file still has no ACL" no_access_acl "$img"
		check "default ACL on the directory ($what): mode 600 is kept ($(stat -c %a -- "$img"))" \
			test "$(stat -c %a -- "$img")" = 600
		# the file's own ACL, different from the default, is kept exactly
		setfacl -m u:4321:r -- "$img"
		getfacl -cp -- "$img" >"$T/acl.before" 2>/dev/null
		SBAT_TEST_NO_TMPFILE=$nt LD_PRELOAD="$SBAT_HOOKS" "$SBAT_ADD" --remove --file "$img" >"$T/out" 2>"$T/err"
		getfacl -cp -- "$img" >"$T/acl.after" 2>/dev/null
		check "default ACL on the directory ($what): a file's own ACL is kept exactly" \
			cmp -s "$T/acl.before" "$T/acl.after"
	done
else
	skip "no POSIX ACL support here (setfacl or the file system)"
fi

# ------------------------------------------------ 3. an owner that cannot be restored

if is_root && command -v strace >/dev/null 2>&1; then
	dir="$T/chown"
	img=$(fresh efi-x86_64.efi "$dir")
	chown 5:5 -- "$img"
	chmod 06755 -- "$img"
	cp -p -- "$img" "$T/chown.orig"
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" strace -f -o /dev/null -e trace=fchown -e inject=fchown:error=EPERM \
		"$SBAT_ADD" --file "$img" --csv "$CSV" >"$T/out" 2>"$T/err"
	RC=$?
	check "fchown fails (EPERM): the edit is refused (exit 1)" test "$RC" -eq 1
	check "fchown fails (EPERM): the message names the owner" err_has "owner"
	check "fchown fails (EPERM): the file keeps 6755 5:5 ($(stat -c '%a %u:%g' -- "$img"))" \
		test "$(stat -c '%a %u:%g' -- "$img")" = "6755 5:5"
	check "fchown fails (EPERM): the file is byte-identical" cmp -s "$img" "$T/chown.orig"
	check "fchown fails (EPERM): no temporary file is left" test "$(entries "$dir")" = "efi-x86_64.efi"
else
	skip "needs root and strace: an fchown that fails"
fi

# ------------------------------------------------ 4. the directory fsync is checked

if command -v strace >/dev/null 2>&1; then
	dir="$T/dirsync"
	img=$(fresh efi-x86_64.efi "$dir")
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" strace -f -o /dev/null -e trace=fsync -e inject=fsync:error=EIO:when=2 \
		"$SBAT_ADD" --file "$img" --csv "$CSV" >"$T/out" 2>"$T/err"
	RC=$?
	check "directory fsync fails (EIO): exit 1" test "$RC" -eq 1
	check "directory fsync fails (EIO): the message says the new file is in place" err_has "is in place"
	check "directory fsync fails (EIO): ... and may not survive a crash" err_has "crash"
	check "directory fsync fails (EIO): the new file is there" has_sbat "$img"
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" strace -f -o /dev/null -e trace=fsync -e inject=fsync:error=EIO:when=1 \
		"$SBAT_ADD" --no-sync --file "$img" --remove >"$T/out" 2>"$T/err"
	RC=$?
	check "--no-sync: no fsync is made, exit 0" test "$RC" -eq 0
else
	skip "needs strace: a failing directory fsync"
fi

# ------------------------------------------------ 5. --output onto the input itself

dir="$T/self"
img=$(fresh efi-x86_64.efi "$dir")
chmod 04755 -- "$img"
ln -- "$img" "$dir/link.efi"
cp -p -- "$img" "$T/self.orig"
for target in "$dir/link.efi" "$dir/./efi-x86_64.efi" "$img"; do
	run --file "$img" --csv "$CSV" --output "$target"
	check "--output $(basename "$target") is the input itself: refused (exit 1)" test "$RC" -eq 1
	check "--output $(basename "$target"): the message says it is the same file" err_has "same file"
	check "--output $(basename "$target"): the input is byte-identical" cmp -s "$img" "$T/self.orig"
	check "--output $(basename "$target"): the input keeps mode 4755" test "$(stat -c %a -- "$img")" = 4755
done
check "--output onto the input: no temporary file is left" test "$(entries "$dir")" = "efi-x86_64.efi link.efi"
run --file "$img" --csv "$CSV" --output "$dir/other.efi"
check "--output to another file still works" test "$RC" -eq 0

# ------------------------------------------------ 6. stale named temporaries after SIGKILL

dir="$T/stale"
img=$(fresh checksummed.efi "$dir")
SBAT_TEST_NO_TMPFILE=1 hooked fsync "kill:9" --file "$img" --csv "$CSV"
check "SIGKILL without O_TMPFILE leaves one named temporary" test "$(ls -A "$dir" | wc -l)" -eq 2
stale=$(ls -A "$dir" | grep -v '^checksummed.efi$')
run --file "$img" --csv "$CSV"
check "a temporary from a run killed moments ago is not removed (it may be another's)" test -e "$dir/$stale"
touch -d '-1 hour' -- "$dir/$stale"
# decoys: another target's temporary, one that is locked, one of another owner, a symbolic link
touch -d '-1 hour' -- "$dir/.other.efi.AbC123"
cp -- "$dir/$stale" "$dir/.checksummed.efi.Locked"
touch -d '-1 hour' -- "$dir/.checksummed.efi.Locked"
ln -s "$T/nowhere" "$dir/.checksummed.efi.SymLnk"
if is_root; then
	cp -- "$dir/$stale" "$dir/.checksummed.efi.Others"
	chown 65534 -- "$dir/.checksummed.efi.Others"
	touch -d '-1 hour' -- "$dir/.checksummed.efi.Others"
fi
flock "$dir/.checksummed.efi.Locked" sleep 5 &
holder=$!
sleep 0.3
run --file "$img" --remove
check "a later run succeeds" test "$RC" -eq 0
check "a later run removes the stale temporary of this image" test ! -e "$dir/$stale"
check "... but not another image's" test -e "$dir/.other.efi.AbC123"
check "... nor one that a live process holds locked" test -e "$dir/.checksummed.efi.Locked"
check "... nor a symbolic link" test -L "$dir/.checksummed.efi.SymLnk"
if is_root; then
	check "... nor one owned by another user" test -e "$dir/.checksummed.efi.Others"
fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null

# an append-only directory: the temporary cannot be removed, and the message says so
dir="$T/append"
img=$(fresh checksummed.efi "$dir")
if is_root && chattr +a "$dir" 2>/dev/null; then
	SBAT_TEST_NO_TMPFILE=1 LD_PRELOAD="$SBAT_HOOKS" "$SBAT_ADD" --file "$img" --csv "$CSV" >"$T/out" 2>"$T/err"
	RC=$?
	check "append-only directory: the edit fails (exit 1)" test "$RC" -eq 1
	check "append-only directory: the message names the temporary left behind" err_has "left behind"
	check "append-only directory: the image is byte-identical" cmp -s "$img" "$FIX/checksummed.efi"
	chattr -a "$dir"
else
	skip "cannot make an append-only directory here (chattr +a)"
fi

# ------------------------------------------------ 7. a writable but unreadable directory

if is_root && command -v setpriv >/dev/null 2>&1; then
	dir="$T/wonly"
	img=$(fresh efi-x86_64.efi "$dir")
	chown -R 65534:65534 -- "$dir"
	chmod 0300 -- "$dir"
	as_nobody() {
		setpriv --reuid=65534 --regid=65534 --clear-groups "$SBAT_ADD" "$@" >"$T/out" 2>"$T/err"
		RC=$?
	}
	as_nobody --file "$img" --csv "$CSV"
	check "directory mode 0300 (not root): the in-place edit succeeds" test "$RC" -eq 0
	SBAT_TEST_NO_TMPFILE=1 LD_PRELOAD="$SBAT_HOOKS" as_nobody --remove --file "$img"
	check "directory mode 0300 without O_TMPFILE: the edit succeeds" test "$RC" -eq 0
	chmod 0700 -- "$dir"
	check "directory mode 0300: the image has no .sbat after --remove" test "$(has_sbat "$img"; echo $?)" = 3
	check "directory mode 0300: no temporary file is left" test "$(entries "$dir")" = "efi-x86_64.efi"
else
	skip "needs root and setpriv: a directory of mode 0300"
fi

# ------------------------------------------------ 8. the directory scan never follows a link

SBAT_ROW="sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md"
for g in 3 5; do
	printf '%s\ngrub,%s,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n' \
		"$SBAT_ROW" "$g" >"$T/grub$g.csv"
done
mkdir -p "$T/scan" "$T/scan-else"
"$SBAT_ADD" --file "$FIX/efi-x86_64.efi" --csv "$T/grub5.csv" --output "$T/scan/a.efi" >/dev/null 2>&1
"$SBAT_ADD" --file "$FIX/efi-x86_64.efi" --csv "$T/grub3.csv" --output "$T/scan-else/b.efi" >/dev/null 2>&1
printf 'sbat,1,2024010100\ngrub,4\n' >"$T/level.csv"
hooked read "swap:$T/scan/a.efi:$T/scan-else/b.efi" --check-level "$T/level.csv" "$T/scan"
check "scan, a.efi swapped for a link while being checked: a.efi's own verdict (allowed)" \
	grep -q "a.efi: allowed" "$T/out"
check "scan, a.efi swapped for a link: not the link target's verdict" test "$(grep -c 'a.efi: revoked' "$T/out")" -eq 0
check "scan, a.efi swapped for a link: exit 0" test "$RC" -eq 0

tap_finish
