#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-fat.sh - sbat-add on a real vfat, inside a VM (this machine's kernel
# may have no vfat): in-place edits, signals and kill -9 mid-edit, a write
# during an edit, ENOSPC and a full root directory. The guest (guest/fat.sh)
# prints TAP on the serial console; this script passes it on.
#
# Environment (set by meson): SBAT_SRC (source root, for the static build),
# GEN_FIXTURES, FIXTURES_SRC, SBAT_VM_WORKDIR; optionally SBAT_VM_STATIC_BUILD
# (an existing static build directory), SBAT_VM_BIG_MB (default 32),
# SBAT_VM_FAT_BENCH_MB (unset: no benchmark; else the guest also times
# in-place edits of an image this large with a static build made without
# the content check, and prints what the check costs on vfat as notes).
# TAP. Skips (the plan 1..0 # SKIP, exit 0; meson's TAP parser takes exit 77
# for an error) when qemu, a kernel or busybox-static is missing, unless CI=true.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

skip_or_fail() {
	if [ "${CI:-}" = true ]; then
		echo "not ok 1 - VM harness: $1"
		echo "1..1"
		exit 1
	fi
	echo "1..0 # SKIP $1"
	exit 0
}

SRC="${SBAT_SRC:-$(cd "$HERE/../.." && pwd)}"
W="${SBAT_VM_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/sbat-vm.XXXXXX")}"
mkdir -p "$W"
vm_missing && skip_or_fail "$VM_WHY"
command -v cc >/dev/null 2>&1 || skip_or_fail "no C compiler for the static binaries"
vm_kernel || skip_or_fail "$VM_WHY"
[ -n "${GEN_FIXTURES:-}" ] && [ -n "${FIXTURES_SRC:-}" ] || skip_or_fail "GEN_FIXTURES/FIXTURES_SRC not set (run through meson test)"

# the statically linked sbat-add, from its own build directory
vm_static_sbat_add "$SRC" "$W"
case $? in
1) skip_or_fail "$VM_WHY" ;;
2)
	echo "not ok 1 - the static sbat-add builds"
	echo "1..1"
	exit 1
	;;
esac
bench_files=()
if [ -n "${SBAT_VM_FAT_BENCH_MB:-}" ]; then
	nb="$W/build-static-nocheck"
	[ -f "$nb/build.ninja" ] || meson setup "$nb" "$SRC" -Ddefault_library=static -Dc_link_args=-static \
		-Dc_args=-DSBAT_BENCH_WITHOUT_CONTENT_CHECK -Dtests=disabled -Dintegration=disabled \
		-Dbuildtype=release >"$W/nocheck-setup.log" 2>&1 || skip_or_fail "the static build without the content check"
	ninja -C "$nb" sbat-add >"$W/nocheck-build.log" 2>&1 || skip_or_fail "the static build without the content check"
	cp "$nb/sbat-add" "$W/sbat-add-nocheck"
	bench_files=("$W/sbat-add-nocheck")
fi
cc -std=c99 -O2 -static -o "$W/make-large-pe" "$SRC/bench/make-large-pe.c" || skip_or_fail "cannot link make-large-pe statically"
rm -rf "$W/fix"
"$GEN_FIXTURES" "$W/fix" >/dev/null || exit 1
printf 'BIG_MB=%s\nBENCH_MB=%s\n' "${SBAT_VM_BIG_MB:-32}" "${SBAT_VM_FAT_BENCH_MB:-}" >"$W/params"

vm_initramfs "$W/initrd.gz" "$HERE/guest/fat.sh" "vfat nls_cp437 nls_ascii nls_utf8 virtio_blk virtio_pci" \
	"$VM_SBAT_STATIC" "$W/make-large-pe" "$W/fix/efi-x86_64.efi" "$W/fix/checksummed.efi" \
	"$FIXTURES_SRC/csv/linux.sbat" "$W/params" "${bench_files[@]}" || skip_or_fail "cannot build the initramfs"

# the disks: empty file systems the guest fills
rm -f "$W"/disk-*.img
truncate -s $((256 + 3 * ${SBAT_VM_FAT_BENCH_MB:-0}))M "$W/disk-big.img" && mkfs.vfat -F 32 -n BIG "$W/disk-big.img" >/dev/null &&
	truncate -s 1M "$W/disk-small.img" && mkfs.vfat -F 12 -n SMALL "$W/disk-small.img" >/dev/null &&
	truncate -s 1M "$W/disk-root.img" && mkfs.vfat -F 12 -r 16 -n ROOT "$W/disk-root.img" >/dev/null ||
	skip_or_fail "mkfs.vfat failed"

vm_boot_direct fat "$W/serial.log" "$W/initrd.gz" \
	-drive "file=$W/disk-big.img,format=raw,if=virtio" \
	-drive "file=$W/disk-small.img,format=raw,if=virtio" \
	-drive "file=$W/disk-root.img,format=raw,if=virtio"
booted=$?
vm_log "guest ran from uptime ${VM_GUEST_START:-?}s to ${VM_GUEST_END:-?}s; console log: $W/serial.log"
# the guest's TAP, its plan included
grep -E '^(ok|not ok|#|1\.\.)' "$W/serial.log.out"
if [ "$booted" != 0 ]; then
	echo "not ok - the VM ran the guest to its end ($VM_RESULT after ${VM_SECS}s)"
	vm_serial_text "$W/serial.log" | tail -n 20 | sed 's/^/#   /'
	exit 1
fi
grep -q '^1\.\.[0-9]' "$W/serial.log.out" || { echo "Bail out! the guest printed no TAP plan"; exit 1; }
[ "${VM_GUEST_RC:-1}" = 0 ]
