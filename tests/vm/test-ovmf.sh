#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-ovmf.sh - the harness's firmware path: OVMF boots systemd-boot from
# an ESP, systemd-boot the Debian kernel with the harness's initramfs, and
# the guest (guest/efivars.sh) prints the EFI variables from efivarfs.
# Checks that the boot went through UEFI (SecureBoot present and 0, BootOrder
# and BootCurrent there, systemd-boot's LoaderEntrySelected names the entry).
# Writes the variables to $SBAT_VM_WORKDIR/efivars.txt.
# Exit 77 (skip) when qemu, OVMF, a kernel, systemd-boot or busybox-static is
# missing, unless CI=true.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
. "$HERE/../lib/tap.sh"

skip_or_fail() {
	if [ "${CI:-}" = true ]; then
		not_ok "VM harness: $1"
		tap_finish
		exit 1
	fi
	echo "1..0 # SKIP $1"
	exit 77
}

W="${SBAT_VM_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/sbat-vm.XXXXXX")}"
mkdir -p "$W"
vm_missing && skip_or_fail "$VM_WHY"
[ -f "$VM_OVMF_CODE" ] && [ -f "$VM_OVMF_VARS" ] || skip_or_fail "no $VM_OVMF_CODE (apt-get install ovmf)"
vm_kernel || skip_or_fail "$VM_WHY"
vm_systemd_boot || skip_or_fail "$VM_WHY"

vm_initramfs "$W/initrd.gz" "$HERE/guest/efivars.sh" "efivarfs" || skip_or_fail "cannot build the initramfs"
vm_make_esp "$W/esp" "$W/initrd.gz"
cp "$VM_OVMF_VARS" "$W/vars.fd"
vm_boot_ovmf ovmf "$W/serial.log" "$W/esp" "$W/vars.fd"
booted=$?
vm_log "guest ran from uptime ${VM_GUEST_START:-?}s to ${VM_GUEST_END:-?}s; console log: $W/serial.log"
cp "$W/serial.log.out" "$W/efivars.txt"
sed 's/^/# /' "$W/serial.log.out"
check "OVMF -> systemd-boot -> kernel -> initramfs ran the guest to its end ($VM_RESULT after ${VM_SECS}s)" test "$booted" = 0
check "the guest mounted efivarfs (exit ${VM_GUEST_RC:-none})" test "${VM_GUEST_RC:-1}" = 0
# var NAME-GUID HEX: attributes (4 bytes, little-endian) then data
var() { sed -n "s/^var $1-[0-9a-f-]* //p" "$W/efivars.txt" | head -n 1; }
check "SecureBoot is there and 0 (attributes 0x06: boot service and runtime access)" test "$(var SecureBoot)" = 0600000000
check "BootOrder is there" test -n "$(var BootOrder)"
check "BootCurrent is there" test -n "$(var BootCurrent)"
# LoaderEntrySelected: UTF-16LE "vm.conf"
check "systemd-boot's LoaderEntrySelected is the harness's entry (vm.conf)" \
	test "$(var LoaderEntrySelected | cut -c9-)" = "76006d002e0063006f006e0066000000"
tap_finish
