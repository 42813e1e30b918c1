# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# fat.sh - runs inside the VM (busybox sh): sbat-add on a real vfat.
# Disks (made on the host with mkfs.vfat, empty):
#   /dev/vda  FAT32, large: in-place edits, signals, a write during an edit
#   /dev/vdb  FAT12, small: filled up for ENOSPC
#   /dev/vdc  FAT12 with a 16-entry root directory: filled up
# /files holds sbat-add and make-large-pe (static), the fixtures and
# linux.sbat. Prints TAP; the host renumbers nothing, it passes it on.
# BIG_MB (from /files/params) is the size of the large image; with BENCH_MB
# and /files/sbat-add-nocheck, in-place edits of a BENCH_MB image are timed
# with and without the content check (notes only: no timing is a check).

F=/files
SBAT="$F/sbat-add"
CSV="$F/linux.sbat"
BIG_MB=32
KILL_AT="15 45 75"
[ -f "$F/params" ] && . "$F/params"
n=0
failed=0

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}
not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	for l in "$@"; do echo "#   $l"; done
}
check() { # check DESCRIPTION COMMAND...
	local desc="$1"
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc" "failed: $*" "exit status of sbat-add: ${RC:-}" "stderr: $(head -c 300 /tmp/err 2>/dev/null)"; fi
}
note() { echo "# $*"; }
section() { echo "# -- $* (uptime $(cut -d' ' -f1 /proc/uptime) s)"; }

run() {
	"$SBAT" "$@" >/tmp/out 2>/tmp/err
	RC=$?
}
entries() { ls -A "$1" | tr '\n' ' ' | sed 's/ $//'; }
one_line_err() { [ -s /tmp/err ] && [ "$(wc -l </tmp/err)" -eq 1 ]; }
has_sbat() { "$SBAT" --print "$1" >/dev/null 2>&1; }
# centiseconds since boot
now_cs() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }

wait_dev() {
	local i=0
	while [ ! -b "$1" ] && [ $i -lt 100 ]; do
		usleep 100000
		i=$((i + 1))
	done
	[ -b "$1" ]
}

for d in vda vdb vdc; do
	wait_dev /dev/$d || {
		not_ok "disk /dev/$d is there"
		echo "1..$n"
		exit 1
	}
	mkdir -p /mnt/$d
	mount -t vfat /dev/$d /mnt/$d || {
		not_ok "mount -t vfat /dev/$d"
		echo "1..$n"
		exit 1
	}
done
note "$(grep ' /mnt/vda ' /proc/mounts)"

# ------------------------------------------------ in-place edit on FAT
section "in-place edits"
D=/mnt/vda/EFI/debian
mkdir -p $D
cp $F/efi-x86_64.efi $D/grubx64.efi
cp $F/efi-x86_64.efi /tmp/orig.efi
mode0=$(stat -c %a $D/grubx64.efi)
mt0=$(stat -c %Y $D/grubx64.efi)
run --file $D/grubx64.efi --csv "$CSV"
check "in-place edit on vfat succeeds" test "$RC" -eq 0
check "... the result has the new .sbat (--print)" sh -c "'$SBAT' --print '$D/grubx64.efi' | cmp -s - '$CSV'"
check "... no temporary file is left" test "$(entries $D)" = "grubx64.efi"
check "... the name keeps its case" test -n "$(ls $D | grep -x grubx64.efi)"
mode1=$(stat -c %a $D/grubx64.efi)
mt1=$(stat -c %Y $D/grubx64.efi)
check "... the mode is the one vfat gives every file ($mode0 before, $mode1 after)" test "$mode0" = "$mode1"
check "... the modification time is on FAT's 2-second grid and not earlier ($mt0 -> $mt1)" \
	sh -c "test \$(($mt1 % 2)) -eq 0 && test $mt1 -ge $mt0"
# survives a remount (what is on disk, not in the page cache)
sum1=$(sha256sum <$D/grubx64.efi)
umount /mnt/vda && mount -t vfat /dev/vda /mnt/vda
check "... and is on the disk after a remount" test "$(sha256sum <$D/grubx64.efi)" = "$sum1"
run --file $D/grubx64.efi --remove
check "removing .sbat again on vfat succeeds" test "$RC" -eq 0
check "... the image has no .sbat any more" sh -c "! '$SBAT' --print '$D/grubx64.efi' >/dev/null 2>&1"
cmp -s $D/grubx64.efi /tmp/orig.efi && note "insert then remove gave back the original bytes"
check "... no temporary file is left" test "$(entries $D)" = "grubx64.efi"

# a checksummed image, and --output into the same directory
cp $F/checksummed.efi $D/BOOTX64.EFI
run --file $D/BOOTX64.EFI --csv "$CSV" --output $D/new.efi
check "--output next to the input on vfat" test "$RC" -eq 0 -a "$(entries $D)" = "BOOTX64.EFI grubx64.efi new.efi"
check "... the input is untouched" cmp -s $D/BOOTX64.EFI $F/checksummed.efi
rm -f $D/new.efi

# ------------------------------------------------ signals mid-edit on a large image
section "signals mid-edit"
B=/mnt/vda/big
mkdir -p $B
$F/make-large-pe $B/orig.efi "$BIG_MB" >/dev/null || not_ok "make-large-pe $BIG_MB MiB"
cp $B/orig.efi $B/new.efi
t0=$(now_cs)
run --file $B/new.efi --csv "$CSV"
t1=$(now_cs)
EDIT_CS=$((t1 - t0))
check "an edit of a $BIG_MB MiB image on vfat succeeds (took ${EDIT_CS}0 ms)" test "$RC" -eq 0
[ "$EDIT_CS" -lt 4 ] && EDIT_CS=4

# state FILE: old | new | mixed
state() {
	if cmp -s "$1" $B/orig.efi; then
		echo old
	elif cmp -s "$1" $B/new.efi; then
		echo new
	else
		echo mixed
	fi
}

# kill_mid SIG PERCENT: start an edit of a fresh copy, send SIG after PERCENT
# of a full edit's time; sets LANDED (yes: it was still running and died of
# SIG), ST, LEFT. sbat-add runs in the foreground and the killer in the
# background: a non-interactive shell starts background commands with SIGINT
# ignored, and sbat-add keeps an ignored SIGINT ignored.
kill_mid() {
	local sig="$1" pct="$2" killer us num
	rm -rf $B/w /tmp/pid
	mkdir $B/w
	cp $B/orig.efi $B/w/vmlinuz.efi
	sync
	us=$((EDIT_CS * 10000 * pct / 100))
	(
		while [ ! -s /tmp/pid ]; do usleep 1000; done
		usleep $us
		kill -$sig "$(cat /tmp/pid)" 2>/dev/null
	) &
	killer=$!
	sh -c 'echo $$ >/tmp/pid.new && mv /tmp/pid.new /tmp/pid && exec "$@"' sh \
		"$SBAT" --file $B/w/vmlinuz.efi --csv "$CSV" >/tmp/out 2>/tmp/err
	RC=$?
	wait $killer
	num=$(kill -l $sig)
	if [ "$RC" -eq $((128 + num)) ]; then LANDED=yes; else LANDED=no; fi
	ST=$(state $B/w/vmlinuz.efi)
	LEFT=$(entries $B/w)
}

for sig in TERM INT KILL; do
	landed=0
	for pct in $KILL_AT; do
		kill_mid $sig $pct
		[ "$LANDED" = yes ] && landed=$((landed + 1))
		note "SIG$sig after $pct% of ${EDIT_CS}0 ms: running=$LANDED exit=$RC file=$ST dir: $LEFT"
		check "SIG$sig at $pct%: the image is the old or the new version, never mixed ($ST)" test "$ST" != mixed
		if [ "$sig" = KILL ]; then
			if [ "$LEFT" != vmlinuz.efi ]; then
				note "kill -9 left: $LEFT"
				# a temporary this young may be a live run's: the next edit keeps it
				run --file $B/w/vmlinuz.efi --csv "$CSV"
				check "SIGKILL at $pct%: the next edit succeeds" test "$RC" -eq 0
				check "SIGKILL at $pct%: ... and keeps the temporary, younger than a minute" \
					test "$(entries $B/w)" = "$LEFT"
				# an hour later nobody holds it: the next edit removes it
				for t in $LEFT; do [ "$t" = vmlinuz.efi ] || touch -d @$(($(date +%s) - 3600)) "$B/w/$t"; done
				run --remove --file $B/w/vmlinuz.efi
				check "SIGKILL at $pct%: an edit an hour later removes the stale temporary" \
					test "$(entries $B/w)" = vmlinuz.efi
			fi
		else
			check "SIG$sig at $pct%: no temporary file is left" test "$LEFT" = vmlinuz.efi
			[ "$LANDED" = yes ] && check "SIG$sig at $pct%: interrupted, the image is unchanged" test "$ST" = old
		fi
	done
	check "SIG$sig: at least one signal landed mid-edit ($landed of $(echo $KILL_AT | wc -w))" test "$landed" -ge 1
done

# ------------------------------------------------ a write during the edit
section "a write during an edit"
# Another program rewrites 4 bytes in place (same size) while sbat-add runs:
# the tool must refuse and leave that write in the file.
write_mid() {
	local pct="$1" pid us
	rm -rf $B/w
	mkdir $B/w
	cp $B/orig.efi $B/w/vmlinuz.efi
	sync
	us=$((EDIT_CS * 10000 * pct / 100))
	MT_BEFORE=$(stat -c %Y $B/w/vmlinuz.efi)
	"$SBAT" --file $B/w/vmlinuz.efi --csv "$CSV" >/tmp/out 2>/tmp/err &
	pid=$!
	usleep $us
	if kill -0 $pid 2>/dev/null; then LANDED=yes; else LANDED=no; fi
	# from a file, not a pipe: dd opens of= before it reads if=, and a write
	# that waits on a pipe while the edit renames goes to the replaced file
	dd if=/tmp/xxxx of=$B/w/vmlinuz.efi bs=1 seek=65536 conv=notrunc 2>/dev/null
	MT_AFTER=$(stat -c %Y $B/w/vmlinuz.efi)
	wait $pid
	RC=$?
	GOT=$(dd if=$B/w/vmlinuz.efi bs=1 skip=65536 count=4 2>/dev/null)
	LEFT=$(entries $B/w)
}
printf 'XXXX' >/tmp/xxxx
# ndiff A B: how many bytes differ
ndiff() { cmp -l "$1" "$2" 2>/dev/null | wc -l; }
for pct in 20 50 85; do
	write_mid $pct
	note "write at $pct%: running=$LANDED exit=$RC mtime $MT_BEFORE -> $MT_AFTER bytes=$GOT dir: $LEFT; stderr: $(cat /tmp/err)"
	# within one 2-second mtime tick only the content can tell
	check "a write at $pct% of an edit is never lost: the file holds it" test "$GOT" = XXXX
	check "... no temporary file is left" test "$LEFT" = vmlinuz.efi
	if [ "$RC" -ne 0 ]; then
		check "... the edit was refused with one line" one_line_err
		check "... which says the file was modified while being edited (not an internal error)" \
			grep -qE 'modified (or replaced )?while being edited' /tmp/err
		check "... and the rest of the file is the original" test "$(ndiff $B/w/vmlinuz.efi $B/orig.efi)" -le 4
		if [ "$MT_BEFORE" = "$MT_AFTER" ]; then
			note "the write fell in the same 2-second mtime tick: only ctime (10 ms on vfat) or the content could tell"
		fi
	else
		# the write came after the rename: it went into the new file
		note "the edit committed before the write at $pct% reached the file"
		check "... committed first: the file is the new version with the write" test "$(ndiff $B/w/vmlinuz.efi $B/new.efi)" -le 4
	fi
done
rm -rf $B/w

# ------------------------------------------------ ENOSPC on a nearly full FAT
section "ENOSPC"
S=/mnt/vdb
cp $F/efi-x86_64.efi $S/grubx64.efi
i=0
while dd if=/dev/zero of=$S/fill$i bs=1024 count=64 2>/dev/null; do i=$((i + 1)); done
dd if=/dev/zero of=$S/last bs=512 2>/dev/null
sync
note "small vfat: $(df -k $S | tail -n 1)"
run --file $S/grubx64.efi --csv "$CSV"
check "ENOSPC: the edit fails (exit $RC)" test "$RC" -ne 0
check "... with one line naming the image" sh -c "[ \$(wc -l </tmp/err) -eq 1 ] && grep -q grubx64.efi /tmp/err"
note "stderr: $(cat /tmp/err)"
check "... the original is untouched" cmp -s $S/grubx64.efi $F/efi-x86_64.efi
check "... no temporary file is left" test -z "$(ls -A $S | grep -v '^fill[0-9]*$' | grep -v -x -e last -e grubx64.efi)"
rm -f $S/last $S/fill*
run --file $S/grubx64.efi --csv "$CSV"
check "... and with room again the edit succeeds" test "$RC" -eq 0

# ------------------------------------------------ a full root directory
section "a full root directory"
R=/mnt/vdc
cp $F/efi-x86_64.efi $R/grubx64.efi
i=0
while [ $i -lt 600 ] && touch $R/F$i 2>/dev/null; do i=$((i + 1)); done
note "root directory full after $i more files: $(ls -A $R | wc -l) entries"
run --file $R/grubx64.efi --csv "$CSV"
note "full root directory: exit $RC, stderr: $(cat /tmp/err)"
if [ "$RC" -eq 0 ]; then
	check "full root directory: the edit succeeded and the image has the new .sbat" has_sbat $R/grubx64.efi
else
	check "full root directory: the edit fails with one line" one_line_err
	check "... the original is untouched" cmp -s $R/grubx64.efi $F/efi-x86_64.efi
fi
check "... the image is still there under its name" test -f $R/grubx64.efi
check "... no temporary file is left" test -z "$(ls -A $R | grep -v '^F[0-9]*$' | grep -v -x grubx64.efi)"
rm -f $R/F*
run --file $R/grubx64.efi --csv "$CSV"
check "... and with a free entry again the edit succeeds" test "$RC" -eq 0

# ------------------------------------------------ what the content check costs on vfat
if [ -n "${BENCH_MB:-}" ] && [ -x "$F/sbat-add-nocheck" ]; then
	section "the content check's cost, $BENCH_MB MiB, in place"
	mkdir -p $B/bench
	$F/make-large-pe $B/bench/orig.efi "$BENCH_MB" >/dev/null
	with=""
	without=""
	ratios=""
	for r in 1 2 3 4 5 6 7; do
		for tool in sbat-add sbat-add-nocheck; do
			cp $B/bench/orig.efi $B/bench/w.efi
			sync
			t0=$(now_cs)
			"$F/$tool" --file $B/bench/w.efi --csv "$CSV" >/dev/null 2>&1 || not_ok "$tool: in-place edit for the benchmark"
			t1=$(now_cs)
			[ $tool = sbat-add ] && a=$((t1 - t0)) || b=$((t1 - t0))
		done
		with="$with $a"
		without="$without $b"
		ratios="$ratios $(awk -v a=$a -v b=$b 'BEGIN { printf "%.3f", a / b }')"
	done
	note "in place on vfat, centiseconds, with the check:$with; without:$without"
	note "content check on vfat: median ratio $(printf '%s\n' $ratios | sort -n | sed -n 4p) (7 interleaved pairs)"
	rm -rf $B/bench
fi

for d in vda vdb vdc; do umount /mnt/$d; done
section "done"
echo "1..$n"
[ "$failed" -eq 0 ]
