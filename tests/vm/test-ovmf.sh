#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-ovmf.sh - the harness's firmware path: OVMF boots systemd-boot from
# an ESP, systemd-boot the Debian kernel with the harness's initramfs, and
# the guest (guest/efivars.sh) prints the EFI variables from efivarfs.
# Checks that the boot went through UEFI (SecureBoot present and 0, BootOrder
# and BootCurrent there, systemd-boot's LoaderEntrySelected names the entry).
# Writes the variables to $SBAT_VM_WORKDIR/efivars.txt.
# TAP. Skips (the plan 1..0 # SKIP, exit 0) when qemu, OVMF, a kernel,
# systemd-boot or busybox-static is missing, unless CI=true.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
. "$HERE/../lib/tap.sh"

FIXTURES="${FIXTURES_SRC:-$HERE/../fixtures}"
W="${SBAT_VM_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/sbat-vm.XXXXXX")}"
mkdir -p "$W"
vm_missing && vm_skip_or_fail "$VM_WHY"
[ -f "$VM_OVMF_CODE" ] && [ -f "$VM_OVMF_VARS" ] || vm_skip_or_fail "no $VM_OVMF_CODE (apt-get install ovmf)"
vm_kernel || vm_skip_or_fail "$VM_WHY"
vm_systemd_boot || vm_skip_or_fail "$VM_WHY"

# the statically linked sbat-add judges the boot paths inside the guest
vm_efivars_guest "$W"
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

# judge_boot_paths: what sbat-add said in the Secure Boot guest about the
# path that booted it, then the same variables on the host with a revoked
# second stage put on a copy of the ESP
judge_boot_paths() {
	local cur line1 line2 line3 json
	cur=$(sbvar BootCurrent | cut -c9-12)
	cur=$(printf '%s' "$cur" | sed -E 's/(..)(..)/\2\1/' | tr a-f A-F)
	sed -n 's/^paths: //p' "$W/efivars-sb.txt" >"$W/paths.txt"
	line1=$(grep -F "Boot$cur " "$W/paths.txt" | grep -F "[booted this time]" | grep -F ': stage 1 \EFI\BOOT\BOOTX64.EFI: ')
	line2=$(grep -F "Boot$cur " "$W/paths.txt" | grep -F "[booted this time]" | grep -F ': stage 2 \EFI\BOOT\grubx64.efi: ')
	line3=$(grep -F "Boot$cur " "$W/paths.txt" | grep -F "[booted this time]" | grep -F ': stage 3 \vmlinuz (entry vm.conf) [default entry]: ')
	vm_log "guest: sbat-add --check-level next --esp /mnt/esp:"
	sed 's/^/#   /' "$W/paths.txt"
	check "Secure Boot, in the guest: the path that booted (BootCurrent Boot$cur) is found and marked" test -n "$line1"
	check "... stage 1, real shim from the removable-media path: boots under SbatLevel 2025021800" \
		grep -qF 'boots: shim, next boot enforces SbatLevel 2025021800' <<<"$line1"
	check "... stage 1: the firmware accepts its signature (judged by default, on the firmware's db and dbx)" \
		grep -qF '[signature accepted: its signature chains to ' <<<"$line1"
	check "... stage 2, the second stage shim started: boots (not revoked), its signature accepted by shim" \
		grep -qF 'boots: not revoked by SbatLevel 2025021800 [signature accepted: ' <<<"$line2"
	grep -qF '] [shim starts it itself: .sbat required]' <<<"$line2" || not_ok "... and says shim starts it itself"
	check "... and it is the default path" grep -qF '[default]' <<<"$line1"
	check "... stage 3, the entry systemd-boot booted (vm.conf, its loader.conf default): boots, checked as shim checks what comes through its LoadImage hook" \
		grep -qF 'boots: no .sbat, which this check lets pass [signature accepted: ' <<<"$line3"
	grep -qF '] [systemd-boot starts it with LoadImage, which shim hooks: a missing .sbat passes]' <<<"$line3" ||
		not_ok "... and says which rule checked it"
	# 9 when another option (a DVD drive, the network) cannot be followed
	check "... exit 0 or 9: no path refused, the default one followed to the end (paths-rc $(sed -n 's/^paths-rc //p' "$W/efivars-sb.txt"))" \
		grep -qxE 'paths-rc (0|9)' "$W/efivars-sb.txt"
	sed -n 's/^paths-json: //p' "$W/efivars-sb.txt" >"$W/paths.json"
	check "... the JSON report: nothing refused, the default path not unknown" python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert not d["default_refused"] and not d["other_refused"] and not d["default_unknown"], d' "$W/paths.json"
	json=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(s["verdict"] for s in d["stages"] if "[booted this time]" in s["entry"]))' "$W/paths.json" 2>&1)
	check "... the JSON report says the same (booted path: $json)" test "$json" = "boots boots boots"
	# the same variables on the host: a GRUB with grub,4 behind Debian shim 16.1 is refused
	vm_efivarfs "$W/efivars-sb.txt" "$W/efivarfs-sb"
	rm -rf "$W/esp-grub4"
	cp -r "$E" "$W/esp-grub4"
	printf 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\ngrub,4,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n' >"$W/grub4.csv"
	rm -f "$W/esp-grub4/EFI/BOOT/grubx64.efi"
	"$SBAT_ADD" --file "$E/EFI/BOOT/grubx64.efi" --csv "$W/grub4.csv" --output "$W/esp-grub4/EFI/BOOT/grubx64.efi" \
		--strip-signature >/dev/null 2>&1
	SBAT_ADD_HISTORY="${SBAT_SRC:-$HERE/../..}/data/sbat-level-history.txt" SBAT_ADD_EFIVARFS="$W/efivarfs-sb" "$SBAT_ADD" --check-level next --no-signatures --esp "$W/esp-grub4" >"$W/paths-grub4.txt" 2>&1
	local rc=$?
	vm_log "host, the guest's variables, grub,4 as the second stage:"
	sed 's/^/#   /' "$W/paths-grub4.txt"
	check "the guest's variables on the host, grub,4 behind shim 16.1: the default path is refused (exit 4, got $rc)" test "$rc" = 4
	check "... naming the row, the level, the published revocation and the fix" grep -qF \
		"stage 2 \EFI\BOOT\grubx64.efi: refused: grub,4 is below grub,5 (SbatLevel 2025021800; since SbatLevel 2025021800:" "$W/paths-grub4.txt"
	grep -qF "install one with grub,5 or later" "$W/paths-grub4.txt" || not_ok "... and says what fixes it"
}

# ------------------------------------------------ Secure Boot through real shim
# OVMF with Debian's snakeoil PK/KEK/db: Debian's shim (shim-unsigned from the
# corpus cache, signed here with the snakeoil key) -> systemd-boot as shim's
# second stage (snakeoil-signed) -> the Debian-signed kernel, which shim
# verifies against the Debian certificate built into it.
SB_CODE=/usr/share/OVMF/OVMF_CODE_4M.secboot.fd
SB_VARS=/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd
SB_KEY=/usr/share/ovmf/PkKek-1-snakeoil.key
SB_CERT=/usr/share/ovmf/PkKek-1-snakeoil.pem
SHIM=$(ls "$VM_CACHE"/extract/shim-unsigned_*_amd64/usr/lib/shim/shimx64.efi 2>/dev/null | tail -n 1)
why=""
for f in "$SB_CODE" "$SB_VARS" "$SB_KEY" "$SB_CERT"; do [ -f "$f" ] || why="no $f (ovmf)"; done
command -v sbsign >/dev/null 2>&1 || why="no sbsign (sbsigntool)"
command -v openssl >/dev/null 2>&1 || why="no openssl"
[ -n "$SHIM" ] || why="no shimx64.efi (shim-unsigned) in $VM_CACHE/extract: run tests/integration/fetch-corpus.sh"
if [ -n "$why" ] && [ "${CI:-}" != true ]; then
	skip "Secure Boot through shim: $why"
elif [ -n "$why" ]; then
	not_ok "Secure Boot through shim: $why"
else
	E="$W/esp-sb"
	vm_make_esp "$E" "$W/initrd.gz"
	openssl rsa -in "$SB_KEY" -passin pass:snakeoil -out "$W/snakeoil.key" >"$W/sign.log" 2>&1
	signed=1
	sbsign --key "$W/snakeoil.key" --cert "$SB_CERT" --output "$E/EFI/BOOT/BOOTX64.EFI" "$SHIM" >>"$W/sign.log" 2>&1 || signed=0
	sbsign --key "$W/snakeoil.key" --cert "$SB_CERT" --output "$E/EFI/BOOT/grubx64.efi" "$VM_SDBOOT" >>"$W/sign.log" 2>&1 || signed=0
	check "shim and systemd-boot signed with the snakeoil key" test "$signed" = 1
	cp "$SB_VARS" "$W/vars-sb.fd"
	# shellcheck disable=SC2054 # commas belong to qemu option values
	VM_MACHINE=q35,smm=on VM_FW_CODE="$SB_CODE" vm_boot_ovmf ovmf-secureboot "$W/serial-sb.log" "$E" "$W/vars-sb.fd" \
		-global driver=cfi.pflash01,property=secure,value=on
	booted=$?
	cp "$W/serial-sb.log.out" "$W/efivars-sb.txt"
	sed 's/^/# /' "$W/serial-sb.log.out"
	check "Secure Boot: OVMF -> shim -> systemd-boot -> Debian-signed kernel ran the guest ($VM_RESULT after ${VM_SECS}s)" \
		test "$booted" = 0 -a "${VM_GUEST_RC:-1}" = 0
	sbvar() { sed -n "s/^var $1-[0-9a-f-]* //p" "$W/efivars-sb.txt" | head -n 1; }
	check "Secure Boot: SecureBoot is 1" test "$(sbvar SecureBoot)" = 0600000001
	check "Secure Boot: shim published SbatLevelRT" test -n "$(sbvar SbatLevelRT)"
	check "Secure Boot: shim published MokListRT" test -n "$(sbvar MokListRT)"
	# the data after the 4 attribute bytes, as text
	sbatrt=$(sbvar SbatLevelRT | cut -c9- | sed 's/../\\x&/g')
	printf "$sbatrt" >"$W/SbatLevelRT.txt"
	check "Secure Boot: SbatLevelRT is shim 16.1's automatic payload (tests/fixtures/level/debian-shim-16.1-automatic.txt)" \
		cmp -s "$W/SbatLevelRT.txt" "$FIXTURES/level/debian-shim-16.1-automatic.txt"
	judge_boot_paths
fi
tap_finish
