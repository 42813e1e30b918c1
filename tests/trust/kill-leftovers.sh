#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# kill-leftovers.sh - SIGKILL in-place edits at random moments and count
# what they leave behind, on real ext4, XFS and btrfs file systems.
#
# Not a test: meson and CI never run it. Needs root (loop mounts),
# mkfs.ext4, mkfs.xfs, mkfs.btrfs (those missing are skipped), and cc.
#
# Usage: tests/trust/kill-leftovers.sh [--sbat-add PATH] [--runs N] [--size MIB]
#                                      [--fs "ext4 xfs btrfs"] [--backing DIR]
#
# For each file system: a loop-mounted file system on a file in DIR
# ($TMPDIR or /tmp; /dev/shm makes the fsyncs fast), a PE image of
# MIB MiB (bench/make-large-pe.c) in it, and N runs of
# `sbat-add --file IMAGE --csv CSV`, each sent SIGKILL after a delay drawn
# uniformly from [0, 1.2 x the median time of an uninterrupted run]. After
# each run the directory is listed and the image compared with the old and
# the new content. Printed per file system: runs, runs killed before they
# ended, runs that left a temporary file, runs whose image was neither the
# old nor the new content (must be 0), and the median run time.

set -u
export LC_ALL=C

runs=200
size=64
fs_list="ext4 xfs btrfs"
sbat_add=""
backing=""

usage() {
	sed -n '3,21s/^# \{0,1\}//p' "$0"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--sbat-add) sbat_add="${2:?--sbat-add needs a path}"; shift 2 ;;
	--runs) runs="${2:?--runs needs a number}"; shift 2 ;;
	--size) size="${2:?--size needs a number}"; shift 2 ;;
	--fs) fs_list="${2:?--fs needs a list}"; shift 2 ;;
	--backing) backing="${2:?--backing needs a directory}"; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) echo "kill-leftovers.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
	esac
done

here=$(cd "$(dirname "$0")" && pwd)
[ -n "$sbat_add" ] || sbat_add="$here/../../build/sbat-add"
if [ ! -x "$sbat_add" ]; then
	echo "kill-leftovers.sh: $sbat_add is not built; pass --sbat-add PATH" >&2
	exit 1
fi
sbat_add=$(cd "$(dirname "$sbat_add")" && pwd)/$(basename "$sbat_add")
if [ "$(id -u)" != 0 ]; then
	echo "kill-leftovers.sh: needs root for loop mounts" >&2
	exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sbat-kill.XXXXXX") || exit 1
mnt="$work/mnt"
fsimg=$(mktemp "${backing:-${TMPDIR:-/tmp}}/sbat-kill-fs.XXXXXX") || exit 1
cleanup() {
	mountpoint -q "$mnt" && umount "$mnt"
	rm -rf -- "$work" "$fsimg"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$mnt"

cc -std=c99 -O2 -o "$work/make-large-pe" "$here/../../bench/make-large-pe.c" || exit 1
"$work/make-large-pe" "$work/old.efi" "$size" >/dev/null || exit 1
cat >"$work/linux.sbat" <<'EOF'
sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md
linux,1,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux
EOF
cp -- "$work/old.efi" "$work/new.efi"
"$sbat_add" --file "$work/new.efi" --csv "$work/linux.sbat" || exit 1

# now_ms: the clock in milliseconds
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# one_fs FS: make, mount, measure, unmount
one_fs() {
	local fs=$1 img="$mnt/vmlinuz.efi" i t0 t1 med delay rc killed=0 left=0 torn=0 times=()

	command -v "mkfs.$fs" >/dev/null || { echo "$fs: mkfs.$fs missing, skipped"; return; }
	rm -f -- "$fsimg"
	truncate -s 1G "$fsimg"
	case $fs in
	ext4) mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$fsimg" ;;
	xfs) mkfs.xfs -q -f "$fsimg" ;;
	btrfs) mkfs.btrfs -q -f "$fsimg" >/dev/null ;;
	esac || { echo "$fs: mkfs failed, skipped"; return; }
	mount -o loop "$fsimg" "$mnt" || { echo "$fs: mount failed, skipped"; return; }

	# the time of an uninterrupted run: the median of 7, after 3 to warm up
	for i in $(seq 1 10); do
		cp -- "$work/old.efi" "$img"
		sync
		t0=$(now_ms)
		"$sbat_add" --file "$img" --csv "$work/linux.sbat" || { echo "$fs: the edit fails"; umount "$mnt"; return; }
		t1=$(now_ms)
		[ "$i" -gt 3 ] && times+=($((t1 - t0)))
	done
	med=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 4p)

	for i in $(seq 1 "$runs"); do
		cp -- "$work/old.efi" "$img"
		sync
		# uniform in [0, 1.2 x med) ms, in microseconds
		delay=$(((RANDOM * 32768 + RANDOM) % (med * 1200)))
		delay=$(printf '%d.%06d' $((delay / 1000000)) $((delay % 1000000)))
		"$sbat_add" --file "$img" --csv "$work/linux.sbat" >/dev/null 2>&1 &
		sleep "$delay"
		kill -KILL $! 2>/dev/null
		wait $! 2>/dev/null
		rc=$?
		[ "$rc" -eq 137 ] && killed=$((killed + 1))
		if [ "$(ls -A "$mnt" | grep -v -x -e vmlinuz.efi -e lost+found | wc -l)" -gt 0 ]; then
			left=$((left + 1))
			find "$mnt" -maxdepth 1 -name '.vmlinuz.efi.*' -delete
		fi
		cmp -s "$img" "$work/old.efi" || cmp -s "$img" "$work/new.efi" || torn=$((torn + 1))
	done
	umount "$mnt"
	rm -f -- "$fsimg"
	printf '%-6s runs %d  killed %d  temporary left %d (%s %% of runs, %s %% of killed runs)  neither old nor new %d  median run %d ms\n' \
		"$fs" "$runs" "$killed" "$left" "$(awk "BEGIN { printf \"%.1f\", 100 * $left / $runs }")" \
		"$(awk "BEGIN { printf \"%.1f\", $killed ? 100 * $left / $killed : 0 }")" "$torn" "$med"
}

echo "sbat-add: $sbat_add; image: $size MiB; $runs runs per file system"
for fs in $fs_list; do
	one_fs "$fs"
done
