#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-paths.sh - more real boot paths with Secure Boot, each booted once
# under OVMF (Debian's snakeoil PK/KEK/db) through Debian's shim 16.1, and
# in each the static sbat-add run in the guest (guest/efivars.sh) judges the
# path that booted: it must be predicted to boot at every stage, its
# signatures judged (the default) on the firmware's own db and dbx.
#
#   grub      shim -> the Debian-signed GRUB 2.14 (unstable) -> the
#             Debian-signed kernel, from a grub.cfg on the ESP
#   sdboot    shim -> systemd-boot 262 (unstable) -> the kernel
#   bootnext  Boot0101 (GRUB) first in BootOrder, BootNext = Boot0102
#             (systemd-boot 262 in another directory): the firmware boots
#             Boot0102 once
#   fallback  only \EFI\BOOT\BOOTX64.EFI (shim), fbx64.efi and
#             \EFI\debian\BOOTX64.CSV, no Boot#### for \EFI\debian: shim's
#             fallback makes the entry and starts it
#   dbx       four boot options: the firmware refuses a shim by a
#             certificate in dbx and one by its hash in dbx, shim refuses a
#             GRUB by its hash in MokListX, the fourth boots; sbat-add
#             in the guest must say so
#
#   ms        Debian's shim signed by Microsoft's 2011 and 2023 CAs: it
#             boots with only the 2023 CA in db, and is refused with the
#             2011 CA in dbx as well, as sbat-add says
#   sigrules  six boot options: shim's MokPolicy (NX required), MokIgnoreDB
#             and its first-certificate-of-a-list rule refuse three second
#             stages, the firmware a SHA-384-signed shim by its signer's
#             certificate in dbx and one by its SHA-384 hash in dbx, and a
#             SHA-384-signed shim boots; sbat-add in the guest must say so
#
# SBAT_VM_PATHS_CASES picks cases (default: all seven). TAP. Skips (the plan
# 1..0 # SKIP, exit 0) when qemu, OVMF, sbsigntool, a kernel, shim or the
# unstable packages are missing, unless CI=true.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
. "$HERE/../lib/tap.sh"

CASES=" ${SBAT_VM_PATHS_CASES:-grub sdboot bootnext fallback dbx ms sigrules} "
W="${SBAT_VM_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/sbat-vm.XXXXXX")}"
mkdir -p "$W"
SB_CODE=/usr/share/OVMF/OVMF_CODE_4M.secboot.fd
SB_VARS=/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd
SB_KEY=/usr/share/ovmf/PkKek-1-snakeoil.key
SB_CERT=/usr/share/ovmf/PkKek-1-snakeoil.pem
EFI_GLOBAL=8be4df61-93ca-11d2-aa0d-00e098032b8c
IMAGE_SECURITY=d719b2cb-3d3a-4596-a3bc-dad00e67656f
SHIM_LOCK=605dab50-e046-4300-abb6-3dd810dd8b23
vm_missing && vm_skip_or_fail "$VM_WHY"
for f in "$SB_CODE" "$SB_VARS" "$SB_KEY" "$SB_CERT"; do
	[ -f "$f" ] || vm_skip_or_fail "no $f (apt-get install ovmf)"
done
for c in sbsign openssl python3 iconv; do
	command -v "$c" >/dev/null 2>&1 || vm_skip_or_fail "no $c"
done
case $CASES in *" sigrules "*) command -v osslsigncode >/dev/null 2>&1 || vm_skip_or_fail "no osslsigncode" ;; esac
vm_kernel || vm_skip_or_fail "$VM_WHY"
SHIMDIR=$(ls -d "$VM_CACHE"/extract/shim-unsigned_*_amd64/usr/lib/shim 2>/dev/null | tail -n 1)
[ -n "$SHIMDIR" ] && [ -f "$SHIMDIR/shimx64.efi" ] && [ -f "$SHIMDIR/fbx64.efi" ] ||
	vm_skip_or_fail "no shimx64.efi/fbx64.efi (shim-unsigned) in $VM_CACHE/extract: run tests/integration/fetch-corpus.sh"
vm_sid grub-efi-amd64-signed || vm_skip_or_fail "$VM_WHY"
GRUB="$VM_SID_DIR/usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed"
GRUB_VERSION=${VM_SID_DIR##*_}
vm_sid systemd-boot-efi || vm_skip_or_fail "$VM_WHY"
SDBOOT="$VM_SID_DIR/usr/lib/systemd/boot/efi/systemd-bootx64.efi"
SDBOOT_VERSION=${VM_SID_DIR##*_}
[ -f "$GRUB" ] || vm_skip_or_fail "no grubx64.efi.signed in $GRUB"
[ -f "$SDBOOT" ] || vm_skip_or_fail "no systemd-bootx64.efi in $SDBOOT"
case $GRUB_VERSION in *2.14*) ;; *) vm_skip_or_fail "grub-efi-amd64-signed in unstable is $GRUB_VERSION, not 2.14" ;; esac
case $SDBOOT_VERSION in 262*) ;; *) vm_skip_or_fail "systemd-boot-efi in unstable is $SDBOOT_VERSION, not 262" ;; esac
vm_log "GRUB $GRUB_VERSION, systemd-boot $SDBOOT_VERSION, shim $SHIMDIR, kernel $VM_VMLINUZ"

vm_efivars_guest "$W"

# shim, fallback and systemd-boot signed with the snakeoil key, which is in db;
# GRUB and the kernel keep Debian's signatures, which shim checks itself
mkdir -p "$W/signed"
openssl rsa -in "$SB_KEY" -passin pass:snakeoil -out "$W/snakeoil.key" >"$W/sign.log" 2>&1
signed=1
for f in "$SHIMDIR/shimx64.efi" "$SHIMDIR/fbx64.efi" "$SDBOOT"; do
	sbsign --key "$W/snakeoil.key" --cert "$SB_CERT" --output "$W/signed/${f##*/}" "$f" >>"$W/sign.log" 2>&1 ||
		signed=0
done
check "shim, fbx64.efi and systemd-boot $SDBOOT_VERSION signed with the snakeoil key" test "$signed" = 1

# esp_base DIR: an ESP with the kernel and the initramfs at its root
esp_base() {
	rm -rf "$1"
	mkdir -p "$1"
	cp "$VM_VMLINUZ" "$1/vmlinuz"
	cp "$W/initrd.gz" "$1/initrd.img"
}

# grub_cfg FILE TOKEN: a grub.cfg booting the kernel at once, TOKEN on its command line
grub_cfg() {
	printf 'set timeout=0\nset default=0\nmenuentry "sbat-add vm %s" {\n\tlinux /vmlinuz %s sbatvm.cfg=%s\n\tinitrd /initrd.img\n}\n' \
		"$2" "$VM_CMDLINE" "$2" >"$1"
}

# sdboot_dir ESP DIR TOKEN: systemd-boot as shim's second stage in DIR, with shim;
# a loader entry for the kernel, TOKEN on its command line
sdboot_dir() {
	mkdir -p "$1/$2" "$1/loader/entries"
	cp "$W/signed/systemd-bootx64.efi" "$1/$2/grubx64.efi"
	printf 'timeout 0\ndefault vm.conf\nconsole-mode keep\n' >"$1/loader/loader.conf"
	printf 'title sbat-add vm\nlinux /vmlinuz\ninitrd /initrd.img\noptions %s sbatvm.cfg=%s\n' "$VM_CMDLINE" "$3" \
		>"$1/loader/entries/vm.conf"
}

# sb_boot NAME ESP VARS: a Secure Boot boot of ESP; the guest's lines in $W/NAME.txt,
# what sbat-add printed in $W/NAME.paths and $W/NAME.json; BOOTED 0 when the guest ran
sb_boot() {
	local name="$1" esp="$2" vars="$3" t0=$SECONDS
	# shellcheck disable=SC2054 # commas belong to qemu option values
	VM_MACHINE=q35,smm=on VM_FW_CODE="$SB_CODE" vm_boot_ovmf "$name" "$W/serial-$name.log" "$esp" "$vars" \
		-global driver=cfi.pflash01,property=secure,value=on
	BOOTED=$?
	[ "${VM_GUEST_RC:-1}" = 0 ] || BOOTED=1
	vm_log "$name: boot took $((SECONDS - t0))s; console log: $W/serial-$name.log"
	cp "$W/serial-$name.log.out" "$W/$name.txt"
	sed -n 's/^paths: //p' "$W/$name.txt" >"$W/$name.paths"
	sed -n 's/^paths-json: //p' "$W/$name.txt" >"$W/$name.json"
	sed 's/^/# /' "$W/$name.txt"
}

# gvar NAME VAR: the hex of VAR (attributes, then data) the guest of NAME printed
gvar() { sed -n "s/^var $2-[0-9a-f-]* //p" "$W/$1.txt" | head -n 1; }

# gnum NAME VAR: a UINT16 variable (BootCurrent, BootNext) as Boot#### names it
gnum() { gvar "$1" "$2" | cut -c9-12 | sed -E 's/(..)(..)/\2\1/' | tr a-f A-F; }

# booted NAME: the JSON report's stages of the path marked [booted this time],
# one "STAGE VERDICT FILE" line each; then the stage-3 line's loader, rule and config
booted() {
	python3 - "$W/$1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["stages"]:
    if "[booted this time]" in s["entry"]:
        print(s["entry"].split()[0], s["stage"], s["verdict"], s.get("file"), "default" if s["default"] else "-",
              s.get("loader", "-"), s.get("rule", "-"), s.get("config", "-"), sep="\t")
PY
}

# verdicts NAME ENTRY: the verdicts of ENTRY's stages (Boot#### or "removable"), in order
verdicts() {
	python3 - "$W/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(s["verdict"] for s in d["stages"] if s["entry"].split()[0] == sys.argv[2] and s["stage"]))
PY
}

# field NAME ENTRY STAGE KEY: one JSON field of ENTRY's stage STAGE
field() {
	python3 - "$W/$1.json" "$2" "$3" "$4" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["stages"]:
    if s["entry"].split()[0] == sys.argv[2] and str(s["stage"]) == sys.argv[3]:
        print(s.get(sys.argv[4]))
        break
PY
}

# common_checks NAME WHAT: the guest ran with Secure Boot, sbat-add's exit status and JSON
common_checks() {
	check "$2: the guest ran to its end with Secure Boot ($VM_RESULT after ${VM_SECS}s)" test "$BOOTED" = 0
	check "$2: SecureBoot is 1" test "$(gvar "$1" SecureBoot)" = 0600000001
	check "$2: sbat-add in the guest exits 0 or 9 (paths-rc $(sed -n 's/^paths-rc //p' "$W/$1.txt"))" \
		grep -qxE 'paths-rc (0|9)' "$W/$1.txt"
	check "$2: the JSON report: nothing refused, the default path not unknown" python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert not d["default_refused"] and not d["other_refused"] and not d["default_unknown"], d' "$W/$1.json"
	vm_log "$2: the guest's cmdline: $(sed -n 's/^cmdline: //p' "$W/$1.txt")"
	vm_log "$2: the path marked booted (entry, stage, verdict, file, default, loader, rule, config):"
	booted "$1" | sed 's/^/#   /'
}

on() { case $CASES in *" $1 "*) return 0 ;; esac; return 1; }

# ------------------------------------------------ shim -> GRUB 2.14 -> kernel
# From the removable-media path: \EFI\BOOT\BOOTX64.EFI is shim, its second
# stage \EFI\BOOT\grubx64.efi the Debian-signed GRUB. A grub.cfg next to GRUB
# and one in \EFI\debian (the prefix built into Debian's image) differ in a
# command-line token: the guest's /proc/cmdline says which one GRUB read.
if on grub; then
	E="$W/esp-grub"
	esp_base "$E"
	mkdir -p "$E/EFI/BOOT" "$E/EFI/debian"
	cp "$W/signed/shimx64.efi" "$E/EFI/BOOT/BOOTX64.EFI"
	cp "$GRUB" "$E/EFI/BOOT/grubx64.efi"
	grub_cfg "$E/EFI/BOOT/grub.cfg" BOOT
	grub_cfg "$E/EFI/debian/grub.cfg" debian
	cp "$SB_VARS" "$W/vars-grub.fd"
	sb_boot grub "$E" "$W/vars-grub.fd"
	common_checks grub "GRUB $GRUB_VERSION"
	cur=$(gnum grub BootCurrent)
	v=$(verdicts grub "Boot$cur")
	check "GRUB: the path that booted (BootCurrent Boot$cur) is predicted to boot at each stage ($v)" \
		test "$v" = "boots boots boots"
	check "GRUB: ... its stage 2 is \\EFI\\BOOT\\grubx64.efi, judged as shim's second stage" \
		test "$(field grub "Boot$cur" 2 file)" = '\EFI\BOOT\grubx64.efi'
	check "GRUB: ... its stage 3 is GRUB's menu entry (loader grub) starting /vmlinuz" \
		test "$(field grub "Boot$cur" 3 loader) $(field grub "Boot$cur" 3 file)" = 'grub /vmlinuz'
	read_cfg=$(sed -n 's/^cmdline: .*sbatvm\.cfg=\([A-Za-z]*\).*/\1/p' "$W/grub.txt")
	followed=$(field grub "Boot$cur" 3 config)
	vm_log "GRUB read the grub.cfg of \\EFI\\$read_cfg; sbat-add followed $followed"
	check "GRUB: GRUB booted the kernel from one of the two grub.cfg (sbatvm.cfg=$read_cfg)" \
		grep -qxE 'BOOT|debian' <<<"$read_cfg"
	# Debian's image has /EFI/debian built in as its prefix, yet reads the
	# grub.cfg of the directory it was started from first, as sbat-add does
	check "GRUB: sbat-add followed the grub.cfg GRUB read (/EFI/$read_cfg/grub.cfg; sbat-add: $followed)" \
		grep -qF "/EFI/$read_cfg/grub.cfg:" <<<"$followed"
	# GRUB 2.14's shim_lock verifier loads the kernel through shim's image
	# loader protocol (shim 16's shim_load_image, in_protocol set) when shim
	# offers it, and calls shim_lock's Verify only when it does not
	rule=$(field grub "Boot$cur" 3 rule)
	check "GRUB: the kernel is judged by a rule of shim's own (rule $rule): a missing .sbat passes" \
		grep -qxE 'shim-lock|shim-loader|loadimage-hook' <<<"$rule"
	check "GRUB: the rule named for GRUB $GRUB_VERSION behind shim 16.1 is shim's image loader protocol (sbat-add: $rule)" \
		test "$rule" = shim-loader
fi

# ------------------------------------------------ shim -> systemd-boot 262 -> kernel
if on sdboot; then
	E="$W/esp-sdboot"
	esp_base "$E"
	mkdir -p "$E/EFI/BOOT"
	cp "$W/signed/shimx64.efi" "$E/EFI/BOOT/BOOTX64.EFI"
	sdboot_dir "$E" EFI/BOOT sdboot
	cp "$SB_VARS" "$W/vars-sdboot.fd"
	sb_boot sdboot "$E" "$W/vars-sdboot.fd"
	common_checks sdboot "systemd-boot $SDBOOT_VERSION"
	cur=$(gnum sdboot BootCurrent)
	v=$(verdicts sdboot "Boot$cur")
	check "systemd-boot: the path that booted (BootCurrent Boot$cur) is predicted to boot at each stage ($v)" \
		test "$v" = "boots boots boots"
	check "systemd-boot: ... the kernel came from its entry (sbatvm.cfg=sdboot)" grep -q 'sbatvm.cfg=sdboot' "$W/sdboot.txt"
	# LoaderInfo: UTF-16LE "systemd-boot 262..."
	info=$(gvar sdboot LoaderInfo | cut -c9- | sed 's/../\\x&/g' | xargs -0 printf -- | tr -d '\0')
	check "systemd-boot: LoaderInfo says systemd-boot 262 ($info)" grep -q '^systemd-boot 262' <<<"$info"
	check "systemd-boot: ... stage 3 is its default entry vm.conf, loader systemd-boot, rule loadimage-hook" \
		test "$(field sdboot "Boot$cur" 3 loader) $(field sdboot "Boot$cur" 3 menu_entry) $(field sdboot "Boot$cur" 3 rule)" = "systemd-boot entry vm.conf loadimage-hook"
fi

# ------------------------------------------------ BootNext
# Boot0101 (shim -> GRUB 2.14 in \EFI\debian) first in BootOrder, Boot0102
# (shim -> systemd-boot 262 in \EFI\sdboot) second, BootNext = Boot0102: the
# firmware takes BootNext once and deletes it. After the boot the guest sees
# BootCurrent = Boot0102 and no BootNext, so sbat-add in the guest must mark
# Boot0102 as what booted and BootOrder's first, Boot0101, as the next boot's
# default: that is the truth of the next boot. What it would have predicted
# before this one is checked on the host: the guest's variables with BootNext
# put back and BootCurrent taken away, as they were when the firmware started.
if on bootnext; then
	E="$W/esp-bootnext"
	esp_base "$E"
	mkdir -p "$E/EFI/debian" "$E/EFI/sdboot"
	cp "$W/signed/shimx64.efi" "$E/EFI/debian/shimx64.efi"
	cp "$GRUB" "$E/EFI/debian/grubx64.efi"
	grub_cfg "$E/EFI/debian/grub.cfg" debian
	cp "$W/signed/shimx64.efi" "$E/EFI/sdboot/shimx64.efi"
	sdboot_dir "$E" EFI/sdboot sdboot
	cp "$SB_VARS" "$W/vars-bootnext.fd"
	set_ok=1
	python3 "$HERE/load-option.py" option "$W/Boot0101.bin" debian '\EFI\debian\shimx64.efi' &&
		python3 "$HERE/load-option.py" option "$W/Boot0102.bin" sdboot '\EFI\sdboot\shimx64.efi' &&
		python3 "$HERE/load-option.py" numbers "$W/BootOrder.bin" 0101 0102 &&
		python3 "$HERE/load-option.py" numbers "$W/BootNext.bin" 0102 || set_ok=0
	for v in Boot0101 Boot0102 BootOrder BootNext; do
		python3 "$HERE/../integration/ovmf-setvar.py" "$W/vars-bootnext.fd" "$v" "$EFI_GLOBAL" 0x7 "$W/$v.bin" \
			>>"$W/setvar.log" 2>&1 || set_ok=0
	done
	check "BootNext: Boot0101, Boot0102, BootOrder 0101,0102 and BootNext 0102 put into the varstore" test "$set_ok" = 1
	sb_boot bootnext "$E" "$W/vars-bootnext.fd"
	common_checks bootnext BootNext
	cur=$(gnum bootnext BootCurrent)
	check "BootNext: the firmware booted BootNext: BootCurrent is Boot0102 (Boot$cur)" test "$cur" = 0102
	check "BootNext: ... through systemd-boot 262 in \\EFI\\sdboot (sbatvm.cfg=sdboot on the kernel's command line)" \
		grep -q 'sbatvm.cfg=sdboot' "$W/bootnext.txt"
	check "BootNext: ... and consumed it: the guest sees no BootNext" test -z "$(gvar bootnext BootNext)"
	check "BootNext: ... BootOrder is still 0101, 0102 first ($(gvar bootnext BootOrder | cut -c9-16))" \
		test "$(gvar bootnext BootOrder | cut -c9-16)" = 01010201
	v=$(verdicts bootnext Boot0102)
	check "BootNext: in the guest, the path that booted (Boot0102) is predicted to boot at each stage ($v)" \
		test "$v" = "boots boots boots"
	check "BootNext: ... its stages are shim, \\EFI\\sdboot\\grubx64.efi (systemd-boot) and its entry vm.conf" \
		test "$(field bootnext Boot0102 2 file) $(field bootnext Boot0102 3 loader)" = '\EFI\sdboot\grubx64.efi systemd-boot'
	check "BootNext: ... and it is not the next boot's default (BootNext is gone)" \
		test "$(field bootnext Boot0102 1 default)" = False
	v=$(verdicts bootnext Boot0101)
	check "BootNext: in the guest, the next boot's default is BootOrder's first, Boot0101 (GRUB), and it boots ($v)" \
		test "$(field bootnext Boot0101 1 default) $v" = "True boots boots boots"
	# before the boot: BootNext 0102, no BootCurrent
	vm_efivarfs "$W/bootnext.txt" "$W/efivarfs-bootnext"
	rm -f "$W/efivarfs-bootnext/BootCurrent-$EFI_GLOBAL"
	printf '\007\000\000\000\002\001' >"$W/efivarfs-bootnext/BootNext-$EFI_GLOBAL"
	SBAT_ADD_HISTORY="${SBAT_SRC:-$HERE/../..}/data/sbat-level-history.txt" SBAT_ADD_EFIVARFS="$W/efivarfs-bootnext" \
		"$SBAT_ADD" --check-level next --esp "$E" --json >"$W/bootnext-before.json" 2>"$W/bootnext-before.err"
	vm_log "BootNext: host, the variables as the firmware found them (exit $?):"
	python3 -c 'import json, sys
for s in json.load(open(sys.argv[1]))["stages"]:
    print("#  ", s["entry"], "[default]" if s["default"] else "", s["stage"], s["file"], s["verdict"])' "$W/bootnext-before.json"
	v=$(verdicts bootnext-before Boot0102)
	check "BootNext: before the boot, sbat-add predicts the firmware's choice: Boot0102 (BootNext) is the default path and boots ($v)" \
		test "$(field bootnext-before Boot0102 1 default) $v" = "True boots boots boots"
	check "BootNext: ... and BootOrder's Boot0101 is not the default" test "$(field bootnext-before Boot0101 1 default)" = False
fi

# ------------------------------------------------ shim's fallback
# \EFI\BOOT\BOOTX64.EFI (shim) and \EFI\BOOT\fbx64.efi, \EFI\debian holding
# shim, GRUB 2.14, grub.cfg and BOOTX64.CSV; no Boot#### names \EFI\debian.
# shim started from the removable-media path starts fbx64.efi, which makes a
# Boot#### from the CSV, puts it first in BootOrder and, with no TPM, starts
# it at once with LoadImage/StartImage (fallback.c try_start_first_option):
# the firmware did not start that option, so BootCurrent stays the option
# the firmware booted (the disk's).
if on fallback; then
	E="$W/esp-fallback"
	esp_base "$E"
	mkdir -p "$E/EFI/BOOT" "$E/EFI/debian"
	cp "$W/signed/shimx64.efi" "$E/EFI/BOOT/BOOTX64.EFI"
	cp "$W/signed/fbx64.efi" "$E/EFI/BOOT/fbx64.efi"
	cp "$W/signed/shimx64.efi" "$E/EFI/debian/shimx64.efi"
	cp "$GRUB" "$E/EFI/debian/grubx64.efi"
	grub_cfg "$E/EFI/debian/grub.cfg" fallback
	# UCS-2 with a byte order mark, as Debian's shim package installs it
	printf '\377\376' >"$E/EFI/debian/BOOTX64.CSV"
	printf 'shimx64.efi,debian,,This is the boot entry for debian\n' | iconv -f UTF-8 -t UTF-16LE >>"$E/EFI/debian/BOOTX64.CSV"
	cp "$SB_VARS" "$W/vars-fallback.fd"
	sb_boot fallback "$E" "$W/vars-fallback.fd"
	common_checks fallback fallback
	cur=$(gnum fallback BootCurrent)
	check "fallback: the kernel came through the new entry's GRUB (sbatvm.cfg=fallback)" grep -q 'sbatvm.cfg=fallback' "$W/fallback.txt"
	made=$(python3 -c 'import json, sys
for s in json.load(open(sys.argv[1]))["stages"]:
    if s["stage"] == 1 and s["file"] == "\\EFI\\debian\\shimx64.efi" and s["entry"].startswith("Boot"):
        print(s["entry"].split()[0][4:])
        break' "$W/fallback.json")
	check "fallback: fbx64.efi made a boot entry for \\EFI\\debian\\shimx64.efi (Boot${made:-none})" test -n "$made"
	order=$(gvar fallback BootOrder | cut -c9-12 | sed -E 's/(..)(..)/\2\1/' | tr a-f A-F)
	check "fallback: ... first in BootOrder (BootOrder starts with $order)" test -n "$made" -a "$order" = "$made"
	check "fallback: BootCurrent (Boot$cur) is the option the firmware started, not the one fallback made and started itself" \
		test -n "$made" -a "$cur" != "$made"
	v=$(verdicts fallback "Boot$cur")
	check "fallback: the path that booted (Boot$cur) is predicted to boot at each stage ($v)" \
		grep -qxE 'boots( boots)+' <<<"$v"
	check "fallback: ... its stage 2 is shim's fallback, \\EFI\\BOOT\\fbx64.efi ($(field fallback "Boot$cur" 2 file))" \
		test "$(field fallback "Boot$cur" 2 file)" = '\EFI\BOOT\fbx64.efi'
	v=$(verdicts fallback "Boot${made:-none}")
	check "fallback: the entry fallback made is the next boot's default and boots at each stage ($v)" \
		test "$(field fallback "Boot${made:-none}" 1 default) $v" = "True boots boots boots"
	check "fallback: ... through \\EFI\\debian\\grubx64.efi and /EFI/debian/grub.cfg" \
		test "$(field fallback "Boot${made:-none}" 2 file) $(field fallback "Boot${made:-none}" 3 config | sed 's/:[0-9]*$//; s|^.*/EFI/|/EFI/|')" = '\EFI\debian\grubx64.efi /EFI/debian/grub.cfg'
fi
# ------------------------------------------------ dbx and MokListX
# Four boot options in BootOrder; the firmware must refuse the first two and
# shim the third's second stage, and the guest, booted by the fourth, runs
# sbat-add (signatures judged) on the firmware's own db, dbx and MokListXRT:
#   Boot0101  shim signed by the snakeoil key (db) and by a second key whose
#             certificate is in dbx: EDK2 refuses an image with one
#             forbidden signature, whatever the others
#   Boot0102  shim whose .sbat sbat-add edited, signed by the snakeoil key,
#             its Authenticode SHA-256 in dbx
#   Boot0103  shim -> GRUB 2.14, GRUB's hash in MokListX (shim's MokListXRT)
#   Boot0104  shim -> systemd-boot 262 -> the kernel: boots
# dbx and MokListX are written into the varstore; on the host, the guest's
# variables with a pending dbx holding the fourth shim's hash stop that path.
if on dbx; then
	E="$W/esp-dbx"
	esp_base "$E"
	mkdir -p "$E/EFI/cert" "$E/EFI/hash" "$E/EFI/mokx" "$E/EFI/sdboot"
	made=1
	openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 -subj "/CN=sbat-add vm revoked key/" \
		-keyout "$W/revoked.key" -out "$W/revoked.pem" >>"$W/sign.log" 2>&1 &&
		openssl x509 -in "$W/revoked.pem" -outform DER -out "$W/revoked.der" &&
		sbsign --key "$W/revoked.key" --cert "$W/revoked.pem" --output "$W/shim-revoked.efi" \
			"$SHIMDIR/shimx64.efi" >>"$W/sign.log" 2>&1 &&
		python3 "$HERE/secure-boot.py" cosign "$W/signed/shimx64.efi" "$W/shim-revoked.efi" \
			"$E/EFI/cert/shimx64.efi" || made=0
	# a shim of its own hash: its .sbat gets one more line, then the snakeoil signature
	cp "$SHIMDIR/shimx64.efi" "$W/shim-edited.efi"
	{ "$SBAT_ADD" --print --file "$W/shim-edited.efi" && echo 'sbat-add-vm,1,sbat-add,vm,1,https://example.invalid/'; } \
		>"$W/shim-edited.csv" && "$SBAT_ADD" --file "$W/shim-edited.efi" --csv "$W/shim-edited.csv" &&
		sbsign --key "$W/snakeoil.key" --cert "$SB_CERT" --output "$E/EFI/hash/shimx64.efi" \
			"$W/shim-edited.efi" >>"$W/sign.log" 2>&1 || made=0
	cp "$W/signed/shimx64.efi" "$E/EFI/mokx/shimx64.efi"
	cp "$GRUB" "$E/EFI/mokx/grubx64.efi"
	grub_cfg "$E/EFI/mokx/grub.cfg" mokx
	cp "$W/signed/shimx64.efi" "$E/EFI/sdboot/shimx64.efi"
	sdboot_dir "$E" EFI/sdboot dbx
	for d in cert hash; do cp "$GRUB" "$E/EFI/$d/grubx64.efi"; done
	ahash() { "$SBAT_ADD" --print --json --file "$1" | sed -n 's/^  "authenticode_sha256": "\([0-9a-f]*\)",$/\1/p'; }
	hash_edited=$(ahash "$E/EFI/hash/shimx64.efi")
	hash_grub=$(ahash "$GRUB")
	hash_good=$(ahash "$E/EFI/sdboot/shimx64.efi")
	check "dbx: a shim signed twice (snakeoil, revoked key) and one with its own hash made" \
		test "$made" = 1 -a ${#hash_edited} = 64 -a ${#hash_grub} = 64 -a ${#hash_good} = 64
	cp "$SB_VARS" "$W/vars-dbx.fd"
	set_ok=1
	python3 "$HERE/secure-boot.py" x509 "$W/dbx-cert.esl" "$W/revoked.der" &&
		python3 "$HERE/secure-boot.py" sha256 "$W/dbx-hash.esl" "$hash_edited" &&
		python3 "$HERE/secure-boot.py" sha256 "$W/mokx.esl" "$hash_grub" &&
		python3 "$HERE/secure-boot.py" sha256 "$W/pending-dbx.esl" "$hash_good" || set_ok=0
	num=0
	for d in cert hash mokx sdboot; do
		num=$((num + 1))
		python3 "$HERE/load-option.py" option "$W/Boot010$num.bin" "$d" "\\EFI\\$d\\shimx64.efi" &&
			python3 "$HERE/../integration/ovmf-setvar.py" "$W/vars-dbx.fd" "Boot010$num" "$EFI_GLOBAL" 0x7 \
				"$W/Boot010$num.bin" >>"$W/setvar.log" 2>&1 || set_ok=0
	done
	python3 "$HERE/load-option.py" numbers "$W/BootOrder-dbx.bin" 0101 0102 0103 0104 &&
		python3 "$HERE/../integration/ovmf-setvar.py" "$W/vars-dbx.fd" BootOrder "$EFI_GLOBAL" 0x7 \
			"$W/BootOrder-dbx.bin" >>"$W/setvar.log" 2>&1 &&
		python3 "$HERE/../integration/ovmf-setvar.py" --append "$W/vars-dbx.fd" dbx "$IMAGE_SECURITY" \
			"$W/dbx-cert.esl" >>"$W/setvar.log" 2>&1 &&
		python3 "$HERE/../integration/ovmf-setvar.py" --append "$W/vars-dbx.fd" dbx "$IMAGE_SECURITY" \
			"$W/dbx-hash.esl" >>"$W/setvar.log" 2>&1 &&
		python3 "$HERE/../integration/ovmf-setvar.py" "$W/vars-dbx.fd" MokListX "$SHIM_LOCK" 0x3 \
			"$W/mokx.esl" >>"$W/setvar.log" 2>&1 || set_ok=0
	# shim reports a refused image in a box that waits for a key, unless
	# SHIM_VERBOSE is set: then it prints the error and goes on
	printf '\001' >"$W/shim-verbose.bin"
	python3 "$HERE/../integration/ovmf-setvar.py" "$W/vars-dbx.fd" SHIM_VERBOSE "$SHIM_LOCK" 0x3 \
		"$W/shim-verbose.bin" >>"$W/setvar.log" 2>&1 || set_ok=0
	check "dbx: Boot0101-Boot0104, BootOrder, two dbx entries, MokListX and SHIM_VERBOSE put into the varstore" test "$set_ok" = 1
	sb_boot dbx "$E" "$W/vars-dbx.fd"
	check "dbx: the guest ran to its end with Secure Boot ($VM_RESULT after ${VM_SECS}s)" test "$BOOTED" = 0
	check "dbx: SecureBoot is 1" test "$(gvar dbx SecureBoot)" = 0600000001
	cur=$(gnum dbx BootCurrent)
	check "dbx: the firmware booted Boot0104 (BootCurrent Boot$cur): Boot0101-Boot0103 did not start a kernel" \
		test "$cur" = 0104
	serial=$(vm_serial_text "$W/serial-dbx.log")
	vm_log "dbx: what the firmware and shim said:"
	grep -aE 'Boot010[1-4]|Access Denied|Violation|Verification failed|start_image' <<<"$serial" |
		sed 's/^/#   /' | head -n 20
	check "dbx: the firmware refused Boot0101's shim (Access Denied on the console)" \
		grep -aqE 'Boot0101.*Access Denied' <<<"$serial"
	check "dbx: the firmware refused Boot0102's shim (Access Denied on the console)" \
		grep -aqE 'Boot0102.*Access Denied' <<<"$serial"
	check "dbx: shim refused Boot0103's GRUB, and the firmware went on (Verification failed, then failed to start Boot0103)" \
		grep -aqzE 'Verification failed: Security Policy Violation.*failed to start Boot0103' <<<"$serial"
	check "dbx: sbat-add in the guest judged the signatures (by default): exit 4, the default path (BootOrder's first) refused ($(sed -n 's/^paths-rc //p' "$W/dbx.txt"))" \
		grep -qx 'paths-rc 4' "$W/dbx.txt"
	check "dbx: ... and said what db trusts and dbx forbids" \
		grep -qF "db trusts: 1 certificates (C=US, O=SnakeOil); 0 image hashes" "$W/dbx.txt"
	for num in 1 2; do
		v=$(verdicts dbx Boot010$num)
		check "dbx: predicted: Boot010$num's shim refused by the firmware's signature check ($v; $(field dbx Boot010$num 1 signature))" \
			test "$v $(field dbx Boot010$num 1 reason) $(field dbx Boot010$num 1 signature_verdict)" = "refused signature refused"
	done
	check "dbx: ... Boot0101 because of the revoked key's certificate in dbx" \
		grep -q 'sbat-add vm revoked key.*dbx' <<<"$(field dbx Boot0101 1 signature)"
	check "dbx: ... Boot0102 because of its hash in dbx" grep -q 'dbx' <<<"$(field dbx Boot0102 1 signature)"
	v=$(verdicts dbx Boot0103)
	check "dbx: predicted: Boot0103's shim boots, its GRUB refused by shim ($v; $(field dbx Boot0103 2 signature))" \
		test "$v $(field dbx Boot0103 2 reason)" = "boots refused signature"
	check "dbx: ... because of GRUB's hash in MokListXRT" grep -q 'MokListX' <<<"$(field dbx Boot0103 2 signature)"
	v=$(verdicts dbx Boot0104)
	check "dbx: predicted: Boot0104, the path that booted, boots at each stage ($v)" test "$v" = "boots boots boots"
	# on the host: the same variables, with a dbx update naming the fourth shim's hash pending
	vm_efivarfs "$W/dbx.txt" "$W/efivarfs-dbx"
	SBAT_ADD_HISTORY="${SBAT_SRC:-$HERE/../..}/data/sbat-level-history.txt" SBAT_ADD_EFIVARFS="$W/efivarfs-dbx" \
		"$SBAT_ADD" --check-level next --esp "$E" --pending "dbx=$W/pending-dbx.esl" --json \
		>"$W/dbx-pending.json" 2>"$W/dbx-pending.err"
	v=$(verdicts dbx-pending Boot0104)
	check "dbx: host, with the guest's variables and a pending dbx holding its shim's hash: Boot0104 is refused ($v)" \
		test "$v" = refused
	check "dbx: host, without the pending update the same variables give the guest's verdicts" test \
		"$(SBAT_ADD_HISTORY="${SBAT_SRC:-$HERE/../..}/data/sbat-level-history.txt" SBAT_ADD_EFIVARFS="$W/efivarfs-dbx" \
			"$SBAT_ADD" --check-level next --esp "$E" --json 2>/dev/null >"$W/dbx-host.json"
		for num in 1 2 3 4; do verdicts dbx-host Boot010$num; done | tr '\n' /)" = \
		"refused/refused/boots refused/boots boots boots/"
fi
# ------------------------------------------------ Microsoft's 2011 and 2023 CAs
# Debian's shim 16.1 from shim-signed, signed by Microsoft twice: by the
# Microsoft Corporation UEFI CA 2011 and by the Microsoft UEFI CA 2023, in
# two certificate table entries. Two boots:
#   2023   db holds the 2023 CA (and the snakeoil key), not the 2011 one:
#          the firmware takes the second signature; shim -> GRUB 2.14 ->
#          the kernel boots, as sbat-add predicts
#   2011x  the 2011 CA also in dbx: the firmware refuses that shim
#          (Boot0101) though its 2023 signature chains to db: one forbidden
#          signature is enough for EDK2; Boot0102 (a snakeoil-signed shim,
#          systemd-boot) boots and its guest predicts the refusal
if on ms; then
	MSSHIM=$(ls "$VM_CACHE"/extract/shim-signed_*_amd64/usr/lib/shim/shimx64.efi.signed 2>/dev/null | tail -n 1)
	MS_VARS=/usr/share/OVMF/OVMF_VARS_4M.ms.fd
	CA2023="${SBAT_SRC:-$HERE/../..}/tests/fixtures/sigdb/microsoft-uefi-ca-2023.der"
	made=1
	[ -n "$MSSHIM" ] && [ -f "$MS_VARS" ] && [ -f "$CA2023" ] &&
		python3 "$HERE/secure-boot.py" cert "$MS_VARS" db "Microsoft Corporation UEFI CA 2011" "$W/ca2011.der" &&
		python3 "$HERE/secure-boot.py" x509 "$W/ca2011.esl" "$W/ca2011.der" &&
		python3 "$HERE/secure-boot.py" x509 "$W/ca2023.esl" "$CA2023" || made=0
	check "ms: Debian's Microsoft-signed shim ($MSSHIM), the 2011 CA from OVMF's Microsoft varstore, the 2023 CA" \
		test "$made" = 1
	# ms_vars OUT [dbx]: the snakeoil varstore with the 2023 CA added to db (and the 2011 CA to dbx)
	ms_vars() {
		cp "$SB_VARS" "$1" &&
			python3 "$HERE/../integration/ovmf-setvar.py" --append "$1" db "$IMAGE_SECURITY" "$W/ca2023.esl" \
				>>"$W/setvar.log" 2>&1 || return 1
		[ $# = 1 ] || python3 "$HERE/../integration/ovmf-setvar.py" --append "$1" dbx "$IMAGE_SECURITY" \
			"$W/ca2011.esl" >>"$W/setvar.log" 2>&1
	}
	# ms_option VARS NUM DIR: Boot0NUM for \EFI\DIR\shimx64.efi
	ms_option() {
		python3 "$HERE/load-option.py" option "$W/Boot$2.bin" "$3" "\\EFI\\$3\\shimx64.efi" &&
			python3 "$HERE/../integration/ovmf-setvar.py" "$1" "Boot$2" "$EFI_GLOBAL" 0x7 "$W/Boot$2.bin" \
				>>"$W/setvar.log" 2>&1
	}

	E="$W/esp-ms2023"
	esp_base "$E"
	mkdir -p "$E/EFI/debian"
	cp "$MSSHIM" "$E/EFI/debian/shimx64.efi"
	cp "$GRUB" "$E/EFI/debian/grubx64.efi"
	grub_cfg "$E/EFI/debian/grub.cfg" ms2023
	set_ok=1
	ms_vars "$W/vars-ms2023.fd" && ms_option "$W/vars-ms2023.fd" 0101 debian &&
		python3 "$HERE/load-option.py" numbers "$W/BootOrder-ms.bin" 0101 &&
		python3 "$HERE/../integration/ovmf-setvar.py" "$W/vars-ms2023.fd" BootOrder "$EFI_GLOBAL" 0x7 \
			"$W/BootOrder-ms.bin" >>"$W/setvar.log" 2>&1 || set_ok=0
	check "ms: 2023: db gets the 2023 CA; Boot0101 for the shim" test "$set_ok" = 1
	sb_boot ms2023 "$E" "$W/vars-ms2023.fd"
	check "ms: 2023: the guest ran to its end with Secure Boot, booted by Boot0101 ($VM_RESULT; BootCurrent Boot$(gnum ms2023 BootCurrent))" \
		test "$BOOTED $(gnum ms2023 BootCurrent)" = "0 0101"
	v=$(verdicts ms2023 Boot0101)
	check "ms: 2023: predicted: shim, GRUB and the kernel boot, signatures judged ($v)" test "$v" = "boots boots boots"
	check "ms: 2023: ... shim by its second signature, which chains to the 2023 CA in db ($(field ms2023 Boot0101 1 signature))" \
		grep -q 'Microsoft UEFI CA 2023, in db' <<<"$(field ms2023 Boot0101 1 signature)"

	E="$W/esp-ms2011x"
	esp_base "$E"
	mkdir -p "$E/EFI/debian" "$E/EFI/sdboot"
	cp "$MSSHIM" "$E/EFI/debian/shimx64.efi"
	cp "$GRUB" "$E/EFI/debian/grubx64.efi"
	grub_cfg "$E/EFI/debian/grub.cfg" ms2011x
	cp "$W/signed/shimx64.efi" "$E/EFI/sdboot/shimx64.efi"
	sdboot_dir "$E" EFI/sdboot ms2011x
	set_ok=1
	ms_vars "$W/vars-ms2011x.fd" dbx && ms_option "$W/vars-ms2011x.fd" 0101 debian &&
		ms_option "$W/vars-ms2011x.fd" 0102 sdboot &&
		python3 "$HERE/load-option.py" numbers "$W/BootOrder-ms2.bin" 0101 0102 &&
		python3 "$HERE/../integration/ovmf-setvar.py" "$W/vars-ms2011x.fd" BootOrder "$EFI_GLOBAL" 0x7 \
			"$W/BootOrder-ms2.bin" >>"$W/setvar.log" 2>&1 || set_ok=0
	check "ms: 2011x: db gets the 2023 CA, dbx the 2011 CA; Boot0101 (Microsoft-signed shim), Boot0102 (snakeoil shim)" \
		test "$set_ok" = 1
	sb_boot ms2011x "$E" "$W/vars-ms2011x.fd"
	serial=$(vm_serial_text "$W/serial-ms2011x.log")
	check "ms: 2011x: the firmware refused Boot0101's shim (Access Denied on the console)" \
		grep -aqE 'Boot0101.*Access Denied' <<<"$serial"
	check "ms: 2011x: ... and booted Boot0102 ($VM_RESULT; BootCurrent Boot$(gnum ms2011x BootCurrent))" \
		test "$BOOTED $(gnum ms2011x BootCurrent)" = "0 0102"
	check "ms: 2011x: predicted: Boot0101 refused by its 2011 signature, though the 2023 one chains to db ($(field ms2011x Boot0101 1 signature))" \
		test "$(verdicts ms2011x Boot0101) $(field ms2011x Boot0101 1 reason)" = "refused signature" -a \
		-n "$(field ms2011x Boot0101 1 signature | grep 'Microsoft Corporation UEFI CA 2011, which dbx forbids (another signature does not help')"
	v=$(verdicts ms2011x Boot0102)
	check "ms: 2011x: predicted: Boot0102, the path that booted, boots at each stage ($v)" test "$v" = "boots boots boots"
fi
# ------------------------------------------------ shim's MOK rules and SHA-384 at the firmware
# One boot, six boot options in BootOrder; the varstore holds MokPolicy
# (MOK_POLICY_REQUIRE_NX), MokDBState (as MokManager writes it after
# `mokutil --ignore-db`), MokList (one EFI_CERT_X509 list of two
# certificates, MOK A first, MOK B second) and dbx a SHA-384 signer's
# certificate and a SHA-384 Authenticode hash. systemd-boot is the second
# stage of Boot0103-Boot0106, one binary signed four ways:
#   Boot0101  shim signed with SHA-384 digests twice, by the snakeoil key
#             (db) and by a key whose certificate is in dbx: the firmware
#             refuses it
#   Boot0102  shim signed with a SHA-384 digest by the snakeoil key, its
#             SHA-384 Authenticode hash in dbx (EFI_CERT_SHA384): refused
#   Boot0103  systemd-boot without NX_COMPAT, signed by MOK A: shim refuses
#             it by MokPolicy before any signature check
#   Boot0104  systemd-boot signed by the snakeoil key, trusted only through
#             db, which MokIgnoreDB tells shim to ignore: refused
#   Boot0105  systemd-boot signed by MOK B, second in its list: shim 16.1
#             tries only the first certificate of each list: refused
#   Boot0106  shim signed with a SHA-384 digest by the snakeoil key ->
#             systemd-boot signed by MOK A -> the kernel: boots
# \EFI\BOOT\BOOTX64.EFI (shim, SHA-256) -> systemd-boot signed by MOK A is
# there for the firmware to fall back on should it take no SHA-384 digest.
if on sigrules; then
	E="$W/esp-sigrules"
	esp_base "$E"
	mkdir -p "$E/EFI/BOOT" "$E/EFI/c384" "$E/EFI/h384" "$E/EFI/nx" "$E/EFI/db" "$E/EFI/mokb" "$E/EFI/moka"
	made=1
	[ -s "$W/revoked.key" ] || openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 \
		-subj "/CN=sbat-add vm revoked key/" -keyout "$W/revoked.key" -out "$W/revoked.pem" >>"$W/sign.log" 2>&1 &&
		openssl x509 -in "$W/revoked.pem" -outform DER -out "$W/revoked.der" || made=0
	# two certificates of one size (one serial length, subjects of one length): one list holds both
	for k in A B; do
		openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 -set_serial "0x5${k}" \
			-subj "/CN=sbat-add vm MOK $k/" -keyout "$W/mok$k.key" -out "$W/mok$k.pem" >>"$W/sign.log" 2>&1 &&
			openssl x509 -in "$W/mok$k.pem" -outform DER -out "$W/mok$k.der" || made=0
	done
	# sign384 KEY CERT IN OUT: an Authenticode signature with a SHA-384 digest (sbsign makes SHA-256 only)
	sign384() { rm -f "$4" && osslsigncode sign -h sha384 -key "$1" -certs "$2" -in "$3" -out "$4" >>"$W/sign.log" 2>&1; }
	sign384 "$W/snakeoil.key" "$SB_CERT" "$SHIMDIR/shimx64.efi" "$W/shim384.efi" &&
		sign384 "$W/revoked.key" "$W/revoked.pem" "$SHIMDIR/shimx64.efi" "$W/shim384-revoked.efi" &&
		python3 "$HERE/secure-boot.py" cosign "$W/shim384.efi" "$W/shim384-revoked.efi" "$E/EFI/c384/shimx64.efi" ||
		made=0
	# a shim of its own hash: its .sbat gets one more line, then a SHA-384 snakeoil signature
	cp "$SHIMDIR/shimx64.efi" "$W/shim384-edited.efi"
	{ "$SBAT_ADD" --print --file "$W/shim384-edited.efi" && echo 'sbat-add-vm,1,sbat-add,vm,384,https://example.invalid/'; } \
		>"$W/shim384-edited.csv" && "$SBAT_ADD" --file "$W/shim384-edited.efi" --csv "$W/shim384-edited.csv" &&
		sign384 "$W/snakeoil.key" "$SB_CERT" "$W/shim384-edited.efi" "$E/EFI/h384/shimx64.efi" || made=0
	cp "$W/shim384.efi" "$E/EFI/moka/shimx64.efi"
	for d in BOOT nx db mokb; do cp "$W/signed/shimx64.efi" "$E/EFI/$d/shimx64.efi"; done
	mv "$E/EFI/BOOT/shimx64.efi" "$E/EFI/BOOT/BOOTX64.EFI"
	# the loader entry (and a snakeoil-signed systemd-boot, replaced below)
	sdboot_dir "$E" EFI/moka sigrules
	python3 "$HERE/secure-boot.py" nx-off "$SDBOOT" "$W/sdboot-nx-off.efi" &&
		sbsign --key "$W/mokA.key" --cert "$W/mokA.pem" --output "$E/EFI/nx/grubx64.efi" "$W/sdboot-nx-off.efi" \
			>>"$W/sign.log" 2>&1 &&
		cp "$W/signed/systemd-bootx64.efi" "$E/EFI/db/grubx64.efi" &&
		sbsign --key "$W/mokB.key" --cert "$W/mokB.pem" --output "$E/EFI/mokb/grubx64.efi" "$SDBOOT" \
			>>"$W/sign.log" 2>&1 &&
		sbsign --key "$W/mokA.key" --cert "$W/mokA.pem" --output "$E/EFI/moka/grubx64.efi" "$SDBOOT" \
			>>"$W/sign.log" 2>&1 && cp "$E/EFI/moka/grubx64.efi" "$E/EFI/BOOT/grubx64.efi" || made=0
	h384=$(python3 "$HERE/secure-boot.py" authenticode sha384 "$E/EFI/h384/shimx64.efi")
	h384_sbat=$("$SBAT_ADD" --print --json --file "$E/EFI/h384/shimx64.efi" | grep -o '"image_digest": "[0-9a-f]*"' |
		head -n 1 | sed 's/.*: "//; s/"//')
	nx_bits=$(python3 - "$W/sdboot-nx-off.efi" "$SDBOOT" <<'PY'
import struct, sys
for p in sys.argv[1:]:
    b = open(p, "rb").read(4096)
    print(hex(struct.unpack_from("<H", b, struct.unpack_from("<I", b, 0x3C)[0] + 24 + 70)[0] & 0x100), end=" ")
PY
	)
	check "sigrules: shims signed with SHA-384 digests (snakeoil; snakeoil and a key for dbx; one of its own hash), systemd-boot signed by MOK A, MOK B and snakeoil" \
		test "$made" = 1
	check "sigrules: the hash put into dbx is what sbat-add says the SHA-384 signature covers ($h384)" \
		test ${#h384} = 96 -a "$h384" = "$h384_sbat"
	check "sigrules: systemd-boot $SDBOOT_VERSION has NX_COMPAT, the copy for Boot0103 not (${nx_bits})" \
		test "$nx_bits" = "0x0 0x100 "
	cp "$SB_VARS" "$W/vars-sigrules.fd"
	set_ok=1
	python3 "$HERE/secure-boot.py" x509 "$W/sigrules-dbx-cert.esl" "$W/revoked.der" &&
		python3 "$HERE/secure-boot.py" sha384 "$W/sigrules-dbx-hash.esl" "$h384" &&
		python3 "$HERE/secure-boot.py" x509 "$W/moklist.esl" "$W/mokA.der" "$W/mokB.der" || set_ok=0
	num=0
	for d in c384 h384 nx db mokb moka; do
		num=$((num + 1))
		python3 "$HERE/load-option.py" option "$W/Boot010$num.bin" "$d" "\\EFI\\$d\\shimx64.efi" &&
			python3 "$HERE/../integration/ovmf-setvar.py" "$W/vars-sigrules.fd" "Boot010$num" "$EFI_GLOBAL" 0x7 \
				"$W/Boot010$num.bin" >>"$W/setvar.log" 2>&1 || set_ok=0
	done
	# MokPolicy, MokDBState, MokList: non-volatile, boot services only (shim deletes
	# them with the runtime attribute), one byte 1 for MOK_POLICY_REQUIRE_NX and
	# for "ignore db"; SHIM_VERBOSE: shim prints its refusals and goes on
	printf '\001' >"$W/one.bin"
	setvar() { python3 "$HERE/../integration/ovmf-setvar.py" "$@" >>"$W/setvar.log" 2>&1 || set_ok=0; }
	python3 "$HERE/load-option.py" numbers "$W/BootOrder-sigrules.bin" 0101 0102 0103 0104 0105 0106 || set_ok=0
	setvar "$W/vars-sigrules.fd" BootOrder "$EFI_GLOBAL" 0x7 "$W/BootOrder-sigrules.bin"
	setvar --append "$W/vars-sigrules.fd" dbx "$IMAGE_SECURITY" "$W/sigrules-dbx-cert.esl"
	setvar --append "$W/vars-sigrules.fd" dbx "$IMAGE_SECURITY" "$W/sigrules-dbx-hash.esl"
	for v in MokPolicy MokDBState SHIM_VERBOSE; do
		setvar "$W/vars-sigrules.fd" "$v" "$SHIM_LOCK" 0x3 "$W/one.bin"
	done
	setvar "$W/vars-sigrules.fd" MokList "$SHIM_LOCK" 0x3 "$W/moklist.esl"
	check "sigrules: Boot0101-Boot0106, BootOrder, dbx (a certificate, a SHA-384 hash), MokPolicy, MokDBState, MokList (A, B in one list) and SHIM_VERBOSE put into the varstore" \
		test "$set_ok" = 1
	sb_boot sigrules "$E" "$W/vars-sigrules.fd"
	check "sigrules: the guest ran to its end with Secure Boot ($VM_RESULT after ${VM_SECS}s)" test "$BOOTED" = 0
	check "sigrules: SecureBoot is 1" test "$(gvar sigrules SecureBoot)" = 0600000001
	check "sigrules: shim mirrored MokPolicy (MokPolicyRT $(gvar sigrules MokPolicyRT)) and MokDBState (MokIgnoreDB $(gvar sigrules MokIgnoreDB)): both one byte 1" \
		test "$(gvar sigrules MokPolicyRT) $(gvar sigrules MokIgnoreDB)" = "0600000001 0600000001"
	check "sigrules: ... and MokList: MokListRT holds the list of MOK A and MOK B as written" \
		grep -qF "$(od -An -v -tx1 "$W/moklist.esl" | tr -d ' \n')" <<<"$(gvar sigrules MokListRT)"
	cur=$(gnum sigrules BootCurrent)
	serial=$(vm_serial_text "$W/serial-sigrules.log")
	vm_log "sigrules: what the firmware and shim said:"
	grep -aE 'Boot010[1-6]|Access Denied|Violation|Verification failed|requires NX|start_image' <<<"$serial" |
		sed 's/^/#   /' | head -n 30
	check "sigrules: the firmware took a SHA-384 signature: it booted Boot0106, whose shim has only one (BootCurrent Boot$cur)" \
		test "$cur" = 0106
	check "sigrules: the firmware refused Boot0101's shim, SHA-384 signed by a key in dbx (Access Denied)" \
		grep -aqE 'Boot0101.*Access Denied' <<<"$serial"
	check "sigrules: the firmware refused Boot0102's shim, its SHA-384 hash in dbx (Access Denied)" \
		grep -aqE 'Boot0102.*Access Denied' <<<"$serial"
	check "sigrules: shim refused Boot0103's systemd-boot: its MokPolicy requires NX (Policy requires NX, then failed to start Boot0103)" \
		grep -aqzE 'Policy requires NX, but image does not support NX[^\n]*\n.*failed to start Boot0103' <<<"$serial"
	check "sigrules: shim refused Boot0104's systemd-boot, signed by db's key while MokIgnoreDB is set" \
		grep -aqzE 'failed to start Boot0103.*Verification failed: Security Policy Violation.*failed to start Boot0104' <<<"$serial"
	check "sigrules: shim refused Boot0105's systemd-boot, signed by MOK B, second in its list" \
		grep -aqzE 'failed to start Boot0104.*Verification failed: Security Policy Violation.*failed to start Boot0105' <<<"$serial"
	check "sigrules: sbat-add in the guest: exit 4, the default path (BootOrder's first) refused ($(sed -n 's/^paths-rc //p' "$W/sigrules.txt"))" \
		grep -qx 'paths-rc 4' "$W/sigrules.txt"
	for num in 1 2; do
		v=$(verdicts sigrules Boot010$num)
		check "sigrules: predicted: Boot010$num's shim refused by the firmware ($v; $(field sigrules Boot010$num 1 signature))" \
			test "$v $(field sigrules Boot010$num 1 reason) $(field sigrules Boot010$num 1 signature_verdict)" = "refused signature refused"
	done
	check "sigrules: ... Boot0101 because of the revoked key's certificate in dbx" \
		grep -q 'sbat-add vm revoked key.*dbx' <<<"$(field sigrules Boot0101 1 signature)"
	check "sigrules: ... Boot0102 because of its hash in dbx" \
		grep -q 'hash.*dbx' <<<"$(field sigrules Boot0102 1 signature)"
	for num in 3 4 5; do
		v=$(verdicts sigrules Boot010$num)
		check "sigrules: predicted: Boot010$num's shim boots, its systemd-boot refused by shim ($v; $(field sigrules Boot010$num 2 signature_reason): $(field sigrules Boot010$num 2 signature))" \
			test "$v $(field sigrules Boot010$num 2 reason)" = "boots refused signature"
	done
	check "sigrules: ... Boot0103 by MokPolicy's NX rule" \
		test "$(field sigrules Boot0103 2 signature_reason)" = nx-required
	check "sigrules: ... Boot0104 because its signature chains to db's snakeoil certificate, and shim ignores db" \
		test "$(field sigrules Boot0104 2 signature_reason)" = db-ignored -a \
		-n "$(field sigrules Boot0104 2 signature | grep 'SnakeOil, in db, which shim ignores (MokIgnoreDB')"
	check "sigrules: ... Boot0105 because MOK B is not the first certificate of its list in MokListRT" \
		test "$(field sigrules Boot0105 2 signature_reason)" = cert-not-first -a \
		-n "$(field sigrules Boot0105 2 signature | grep 'MOK B, in MokListRT, but that certificate is not the first of its')"
	# the text report says the same, stage by stage
	text_ok=1
	for want in 'Boot0101 c384 \[default\]: stage 1 [^:]*: refused: signature: its signature chains to CN=sbat-add vm revoked key, which dbx forbids' \
		'Boot0102 h384: stage 1 [^:]*: refused: signature: its SHA-384 hash is in dbx' \
		'Boot0103 nx: stage 2 [^:]*: refused: signature: shim.s MokPolicy requires NX' \
		'Boot0104 db: stage 2 [^:]*: refused: signature: its signature chains to C=US, O=SnakeOil, in db, which shim ignores' \
		'Boot0105 mokb: stage 2 [^:]*: refused: signature: its signature chains to CN=sbat-add vm MOK B, in MokListRT, but that certificate is not the first' \
		'Boot0106 moka \[booted this time\]: stage 3 [^:]*: boots'; do
		grep -q "^paths: $want" "$W/sigrules.txt" || {
			vm_log "sigrules: no text line matching: $want"
			text_ok=0
		}
	done
	check "sigrules: the text report predicts the same six, with the same reasons" test "$text_ok" = 1
	v=$(verdicts sigrules Boot0106)
	check "sigrules: predicted: Boot0106, the path that booted, boots at each stage ($v)" test "$v" = "boots boots boots"
	check "sigrules: ... its shim by a SHA-384 signature chaining to db ($(field sigrules Boot0106 1 signature))" \
		grep -q 'SnakeOil, in db' <<<"$(field sigrules Boot0106 1 signature)"
	check "sigrules: ... its systemd-boot by MOK A, first in its list of MokListRT ($(field sigrules Boot0106 2 signature))" \
		grep -q 'MOK A, in MokListRT' <<<"$(field sigrules Boot0106 2 signature)"
fi
tap_finish
