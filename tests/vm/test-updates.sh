#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-updates.sh - Secure Boot variable updates through the firmware's
# SetVariable, and PCR 7 of the boot after them, on real firmware: OVMF with
# Secure Boot (SMM) and OVMF's Microsoft varstore (PK and a KEK Debian's, the
# Microsoft Corporation KEK CA 2011 a KEK too; db the Microsoft Windows
# Production PCA 2011 and the Microsoft Corporation UEFI CA 2011), a
# software TPM, Debian's Microsoft-signed shim 16.1 -> the Debian-signed
# GRUB 2.14 -> the Debian-signed kernel. Two boots of the same varstore and
# the same TPM (guest/updates.sh):
#
#   apply  the static sbat-add in the guest predicts PCR 7 for each pending
#          update (--event-log running --pending VAR=FILE) and says whether
#          the firmware takes the write, then the guest writes it through
#          efivarfs (an authenticated append write), in this order:
#            kek-other      KEK: Microsoft's KEK 2023 update made for the
#                           PK "Windows OEM Devices PK": refused
#            dbx-throwaway  dbx: a hash, signed by a key of no KEK: refused
#            dbx-ms         dbx: Microsoft's DBXUpdate.bin: taken
#            db-2023        db: Microsoft's DBUpdate3P2023.bin (the
#                           Microsoft UEFI CA 2023): taken
#          the firmware's answer must be sbat-add's for each
#          and, before any write, `sbat-add --check-level next --event-log
#          running --pending dbx=DBXUpdate.bin --pending db=DBUpdate3P2023.bin
#          --json`: PCR 4, 7 and 14 of the default path, every bank
#   check  the TPM's PCR 7 of every bank must be what sbat-add predicted in
#          the first boot before any write, bit for bit, and so must PCR 4,
#          7 and 14 as --check-level next predicted them (4 and 14 today's);
#          then the guest writes SbatPolicy as `mokutil --set-sbat-policy
#          latest` does and --check-level next predicts PCR 7 and the
#          SbatLevel shim will store
#   policy the TPM's PCR 7 must be that prediction, SbatLevelRT that level,
#          and SbatPolicy gone (shim takes it once); --check-level next
#          predicts with MokList=mok.esl pending (a throwaway certificate)
#   mok    after the host wrote MokList as MokManager does: the TPM's PCR
#          4, 7 and 14 must be that prediction (14 changes), MokListRT the
#          old mirror with the list after it
#
# And a real unlock attempt: in apply, before any write, the TPM seals secret
# A to its PCR 7 (sha256) and secret B to the PCR 7 --check-level next
# predicted after the dbx and db updates (tpm-seal.c: a trial session's
# PolicyPCR, Create of a sealed data object with that policy); sbat-add
# --check-level next --luks judges a LUKS2 image holding a systemd-tpm2 token
# of each policy hash with the same updates pending: A "will unlock today;
# will not unlock after the update", B the other way round. The sealed objects
# go to the ESP of the second boot, where the TPM unseals B and refuses A
# (TPM_RC_POLICY_FAIL): the TAP output shows sbat-add's verdicts beside them.
#
# TAP. Skips (the plan 1..0 # SKIP, exit 0) without qemu, OVMF, swtpm, a C
# compiler with a static libc, the kernel, shim-signed or GRUB 2.14, unless
# CI=true.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
. "$HERE/../lib/tap.sh"

SRC="${SBAT_SRC:-$HERE/../..}"
W="${SBAT_VM_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/sbat-vm-updates.XXXXXX")}"
rm -rf "$W"
mkdir -p "$W"
SB_CODE=/usr/share/OVMF/OVMF_CODE_4M.secboot.fd
MS_VARS=/usr/share/OVMF/OVMF_VARS_4M.ms.fd
UPD="$SRC/tests/fixtures/secureboot-updates"
EFI_GLOBAL=8be4df61-93ca-11d2-aa0d-00e098032b8c
IMAGE_SECURITY=d719b2cb-3d3a-4596-a3bc-dad00e67656f
vm_missing && vm_skip_or_fail "$VM_WHY"
for f in "$SB_CODE" "$MS_VARS"; do
	[ -f "$f" ] || vm_skip_or_fail "no $f (apt-get install ovmf)"
done
for c in swtpm openssl python3 cc; do
	command -v "$c" >/dev/null 2>&1 || vm_skip_or_fail "no $c"
done
vm_kernel || vm_skip_or_fail "$VM_WHY"
MSSHIM=$(ls "$VM_CACHE"/extract/shim-signed_*_amd64/usr/lib/shim/shimx64.efi.signed 2>/dev/null | tail -n 1)
[ -n "$MSSHIM" ] || vm_skip_or_fail "no shimx64.efi.signed (shim-signed) in $VM_CACHE/extract: run tests/integration/fetch-corpus.sh"
vm_sid grub-efi-amd64-signed || vm_skip_or_fail "$VM_WHY"
GRUB="$VM_SID_DIR/usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed"
[ -f "$GRUB" ] || vm_skip_or_fail "no grubx64.efi.signed in $VM_SID_DIR"
vm_log "GRUB ${VM_SID_DIR##*_}, shim $MSSHIM, kernel $VM_VMLINUZ; $(swtpm --version 2>&1 | head -n 1)"

T="$W/tpm"
[ "${#T}" -lt 90 ] || T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-tpm.XXXXXX")
vm_swtpm_args "$T"
trap 'vm_swtpm_stop; [ "$T" = "$W/tpm" ] || rm -rf "$T"' EXIT

# ------------------------------------------------------------ the guest
vm_static_sbat_add "$SRC" "$W"
case $? in
1) vm_skip_or_fail "$VM_WHY" ;;
2) vm_skip_or_fail "the static sbat-add does not build" ;;
esac
cc -std=c99 -O2 -static -o "$W/efivar-write" "$HERE/efivar-write.c" >"$W/cc.log" 2>&1 ||
	vm_skip_or_fail "cannot link efivar-write statically: $(head -n 3 "$W/cc.log" | tr '\n' '|')"
cc -std=c99 -O2 -static -o "$W/tpm-seal" "$HERE/tpm-seal.c" >"$W/cc.log" 2>&1 ||
	vm_skip_or_fail "cannot link tpm-seal statically: $(head -n 3 "$W/cc.log" | tr '\n' '|')"

# a dbx update signed by a key that no KEK of the machine holds or issued
made=1
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 -subj "/CN=sbat-add vm throwaway key/" \
	-keyout "$W/throwaway.key" -out "$W/throwaway.pem" >"$W/sign.log" 2>&1 &&
	python3 "$HERE/secure-boot.py" sha256 "$W/throwaway.esl" "$(printf 'sbat-add vm' | sha256sum | cut -c1-64)" &&
	python3 "$HERE/secure-boot.py" update dbx "$W/throwaway.esl" "$W/throwaway.key" "$W/throwaway.pem" \
		"$W/dbx-throwaway.bin" >>"$W/sign.log" 2>&1 || made=0
check "an authenticated dbx update signed by a throwaway key (openssl cms)" test "$made" = 1
# MokList's boot: the throwaway certificate as one EFI_CERT_X509 list, what mokutil --import asks MokManager to enroll
openssl x509 -in "$W/throwaway.pem" -outform DER -out "$W/throwaway.der" 2>>"$W/sign.log" &&
	python3 "$HERE/secure-boot.py" x509 "$W/mok.esl" "$W/throwaway.der" || made=0
cat >"$W/updates.list" <<EOF
kek-other KEK $EFI_GLOBAL KEKUpdate_Microsoft_PK3d8660c0.bin
dbx-throwaway dbx $IMAGE_SECURITY dbx-throwaway.bin
dbx-ms dbx $IMAGE_SECURITY DBXUpdate.bin
db-2023 db $IMAGE_SECURITY DBUpdate3P2023.bin
EOF
vm_initramfs "$W/initrd.gz" "$HERE/guest/updates.sh" "efivarfs ahci sd_mod vfat nls_cp437 nls_ascii" \
	"$VM_SBAT_STATIC" "$W/efivar-write" "$W/updates.list" "$W/dbx-throwaway.bin" \
	"$UPD/kek/Microsoft/KEKUpdate_Microsoft_PK3d8660c0.bin" "$UPD/DBXUpdate.bin" "$UPD/DBUpdate3P2023.bin" \
	"$W/mok.esl" "$W/tpm-seal" "$SRC/tests/fixtures/luks/tpm2-tokens.luks2" ||
	vm_skip_or_fail "cannot build the initramfs"

# esp PHASE: the ESP of a boot: shim as \EFI\BOOT\BOOTX64.EFI, GRUB next to it,
# a grub.cfg that boots the kernel with sbatvm.phase=PHASE; the objects the
# TPM sealed in the boot before in \sealed
esp() {
	local e="$W/esp"
	rm -rf "$e"
	mkdir -p "$e/EFI/BOOT"
	cp "$MSSHIM" "$e/EFI/BOOT/BOOTX64.EFI"
	cp "$GRUB" "$e/EFI/BOOT/grubx64.efi"
	cp "$VM_VMLINUZ" "$e/vmlinuz"
	cp "$W/initrd.gz" "$e/initrd.img"
	[ -d "$W/sealed" ] && cp -r "$W/sealed" "$e/sealed"
	printf 'set timeout=0\nset default=0\nmenuentry "sbat-add vm" {\n\tlinux /vmlinuz %s sbatvm.phase=%s\n\tinitrd /initrd.img\n}\n' \
		"$VM_CMDLINE" "$1" >"$e/EFI/BOOT/grub.cfg"
}

# boot PHASE: a Secure Boot boot of the varstore and TPM both boots share; the
# guest's lines in $W/PHASE.txt; BOOTED 0 when the guest ran to its end
boot() {
	local t0=$SECONDS
	esp "$1"
	# shellcheck disable=SC2054 # commas belong to qemu option values
	VM_SWTPM_KEEP=1 VM_PRE_BOOT=vm_swtpm_start VM_MACHINE=q35,smm=on VM_FW_CODE="$SB_CODE" \
		vm_boot_ovmf "$1" "$W/serial-$1.log" "$W/esp" "$W/vars.fd" \
		-global driver=cfi.pflash01,property=secure,value=on "${VM_TPM_ARGS[@]}"
	BOOTED=$?
	vm_swtpm_stop
	[ "${VM_GUEST_RC:-1}" = 0 ] || BOOTED=1
	cp "$W/serial-$1.log.out" "$W/$1.txt"
	vm_log "$1: QEMU start to power-off ${VM_SECS}s (guest script from ${VM_GUEST_START:-?} to ${VM_GUEST_END:-?} s of uptime), $((SECONDS - t0))s in all"
	grep -v -e '^eventlog ' -e '^var ' -e '^pcr ' -e '^[a-z-]*-value: ' -e '^[a-z-]*-event: ' -e '^[a-z-]*-shim: ' \
		-e '^sealed-[AB] ' -e '^luks-json: ' -e '^$' "$W/$1.txt" | sed "s/^/# $1 guest: /"
}

# gline PHASE PREFIX: the guest's lines of PHASE that start with "PREFIX: ", without it
gline() { sed -n "s/^$2: //p" "$W/$1.txt"; }

# predicted PHASE TAG BANK: the PCR 7 value sbat-add's lines TAG gave BANK ("" when none)
predicted() {
	gline "$1" "$2" | sed -n "s/^$3 PCR 7 [a-z ]*: \([0-9a-f]*\) (today [0-9a-f]*): [a-z]*\$/\1/p" | head -n 1
}

# tpm PHASE BANK: the TPM's PCR 7 of BANK in PHASE's boot
tpm() { sed -n "s/^pcr7 $2 //p" "$W/$1.txt" | head -n 1; }

# tpmpcr PHASE BANK N: the TPM's PCR N of BANK in PHASE's boot
tpmpcr() { sed -n "s/^pcr $2 $3 //p" "$W/$1.txt" | head -n 1; }

# nextval PHASE TAG N BANK: PCR N of BANK as --check-level next's JSON (lines TAG) gave it ("" when unknown)
nextval() {
	sed -n "s/^$2-value: {\"pcr\": $3, \"bank\": \"$4\", \"value\": \"\([0-9a-f]*\)\".*/\1/p" "$W/$1.txt" | head -n 1
}

# nextwhy PHASE TAG N BANK: why PCR N of BANK is unknown in those lines
nextwhy() {
	sed -n "s/^$2-value: {\"pcr\": $3, \"bank\": \"$4\", .*\"unknown_reason\": \(.*\)}.*/\1/p" "$W/$1.txt" | head -n 1
}

# unknown VALUE PHASE TAG N BANK: " (unknown: why)" when VALUE is empty
unknown() { [ -n "$1" ] || echo " (unknown: $(nextwhy "$2" "$3" "$4" "$5"))"; }

# side PCR BANK WHAT PREDICTED TPM: the two values, one above the other, for the transcript
side() {
	printf '# PCR %-2s %-7s %-14s predicted %s\n# PCR %-2s %-7s %-14s TPM       %s\n' "$1" "$2" "$3" "${4:-unknown}" \
		"$1" "$2" "$3" "$5"
}

cp "$MS_VARS" "$W/vars.fd"
# ------------------------------------------------------------ first boot: predict, then write
boot apply
check "apply: the guest ran to its end with Secure Boot through the Microsoft-signed shim ($VM_RESULT after ${VM_SECS}s)" \
	test "$BOOTED" = 0 -a "$(sed -n "s/^var SecureBoot-$EFI_GLOBAL //p" "$W/apply.txt")" = 0600000001
check "apply: sbat-add --event-log running: the log matches the TPM (exit $(sed -n 's/^pred-all-rc //p' "$W/apply.txt"))" \
	grep -q '^pred-all: the log matches the TPM' "$W/apply.txt"

# expect NAME VERDICT FIRMWARE: sbat-add's word on the write (the walk's note and
# --event-log's), and the firmware's answer
expect() {
	local name="$1" verdict="$2" fw="$3" walk pred write
	walk=$(gline apply "walk-$name")
	pred=$(gline apply "pred-$name" | grep '^pending')
	write=$(gline apply "write-$name")
	case $verdict in
	takes) check "$name: the walk says the firmware takes the write ($walk)" grep -q 'the firmware takes it' <<<"$walk" ;;
	refuses) check "$name: the walk says the firmware refuses the write ($walk)" \
		grep -q 'the firmware would refuse this update' <<<"$walk" ;;
	esac
	case $verdict in
	takes) check "$name: --event-log's PCR 7 prediction applies it (${pred:-no pending line})" \
		grep -q 'the firmware takes it' <<<"$pred" ;;
	refuses) check "$name: --event-log's PCR 7 prediction does not apply it (${pred:-no pending line})" \
		grep -q 'the firmware would refuse this update' <<<"$pred" ;;
	esac
	case $fw in
	ok) check "$name: the firmware took the write (SetVariable through efivarfs: $write)" test "$write" = ok ;;
	*) check "$name: the firmware refused the write (SetVariable through efivarfs: $write)" \
		grep -q '^failed: ' <<<"$write" ;;
	esac
	vm_log "$name: sha256 PCR 7 predicted with it pending: $(predicted apply "pred-$name" sha256)"
}
expect kek-other refuses failed
expect dbx-throwaway refuses failed
expect dbx-ms takes ok
expect db-2023 takes ok

# ------------------------------------------------------------ the unlock attempt: sealed before the updates
# policypcr7 HEX: the PolicyPCR digest of PCR 7 (sha256) = HEX, as TPM2_PolicyPCR extends an empty policy
policypcr7() {
	python3 -c 'import hashlib, struct, sys
v = bytes.fromhex(sys.argv[1])
sel = struct.pack(">IHB", 1, 0xB, 3) + bytes([0x80, 0, 0])
print(hashlib.sha256(bytes(32) + struct.pack(">I", 0x17F) + sel + hashlib.sha256(v).digest()).hexdigest())' "$1"
}
# luksjson: the --json's "luks" member the guest printed, one line a token: "A today-verdict predicted-verdict
# policy-hash today-policy predicted-policy"
luksjson() {
	gline apply luks-json | python3 -c 'import json, sys
s = sys.stdin.read()
s = s[s.index("["):].rstrip().rstrip(",")
for vol in json.loads(s):
    for t in vol["systemd_tpm2"]:
        print(vol["file"][5], t["today"]["verdict"].replace(" ", "-"), t["predicted"]["verdict"].replace(" ", "-"),
              ",".join(t["policy_hashes"]), t["today"]["policy"], t["predicted"]["policy"])' 2>&1
}
p7now=$(tpmpcr apply sha256 7)
p7next=$(gline apply luks-predicted)
polA=$(gline apply seal-A)
polA=${polA#policy }
polB=$(gline apply seal-B)
polB=${polB#policy }
check "luks: the PCR 7 B is sealed to is --check-level next's sha256 prediction ($p7next)" \
	test "$p7next" = "$(nextval apply next-all 7 sha256)" -a -n "$p7next"
check "luks: the TPM sealed A to today's PCR 7: its policy hash is PolicyPCR's of the TPM's PCR 7 ($polA)" \
	test "$polA" = "$(policypcr7 "$p7now")"
check "luks: the TPM sealed B to the predicted PCR 7: its policy hash is PolicyPCR's of that value ($polB)" \
	test "$polB" = "$(policypcr7 "$p7next")"
mkdir -p "$W/sealed"
for v in A B; do
	sed -n "s/^sealed-$v //p" "$W/apply.txt" | python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(sys.stdin.read().strip()))' \
		>"$W/sealed/$v.blob"
done
check "luks: both sealed objects kept for the next boot ($(wc -c <"$W/sealed/A.blob") and $(wc -c <"$W/sealed/B.blob") bytes)" \
	test -s "$W/sealed/A.blob" -a -s "$W/sealed/B.blob"
# a_verdict LINE: A's line says it unlocks today, not after the updates, as both change PCR 7
a_verdict() {
	grep -q '^/tmp/A\.luks2: token 0 (sha256 PCR 7): will unlock today; will not unlock after the update: PCR 7 changes (.*)$' \
		<<<"$1" && grep -q 'the pending dbx update adds 443 entries' <<<"$1" &&
		grep -q 'the pending db update adds 1 entry' <<<"$1"
}
lA=$(gline apply luks | grep '^/tmp/A\.luks2: token ')
lB=$(gline apply luks | grep '^/tmp/B\.luks2: token ')
check "luks: A (sealed to today's PCR 7): sbat-add --check-level next --luks with the updates pending: will unlock today, will not unlock after them, PCR 7 changed by both (${lA:-no line})" \
	a_verdict "$lA"
check "luks: B (sealed to the predicted PCR 7): will not unlock today, will unlock after them (${lB:-no line})" \
	grep -q '^/tmp/B\.luks2: token 0 (sha256 PCR 7): will not unlock today: .*; will unlock after the update$' <<<"$lB"
check "luks: exit 11 (a volume will not unlock after the update) ($(sed -n 's/^luks-rc //p' "$W/apply.txt"))" test "$(sed -n 's/^luks-rc //p' "$W/apply.txt")" = 11
js=$(luksjson)
printf '%s\n' "$js" | sed 's/^/# luks --json: /'
check "luks --json: A will unlock today, will not unlock after the update; its policy hash the TPM's, today's digest the same" \
	grep -qx "A will-unlock will-not-unlock $polA $polA [0-9a-f]\{64\}" <<<"$js"
check "luks --json: B will not unlock today, will unlock after the update; the digest sbat-add made of the predicted PCR 7 is the TPM's" \
	grep -qx "B will-not-unlock will-unlock $polB [0-9a-f]\{64\} $polB" <<<"$js"
check "luks --json: exit 11 too ($(sed -n 's/^luks-json-rc //p' "$W/apply.txt"))" test "$(sed -n 's/^luks-json-rc //p' "$W/apply.txt")" = 11
# ------------------------------------------------------------ (the unlock attempt goes on after the second boot)

# ------------------------------------------------------------ second boot: the TPM's PCR 7
boot check
check "check: the guest ran to its end, the same varstore and TPM ($VM_RESULT after ${VM_SECS}s)" test "$BOOTED" = 0
d1=$(sed -n "s/^var dbx-$IMAGE_SECURITY //p" "$W/apply.txt")
d2=$(sed -n "s/^var dbx-$IMAGE_SECURITY //p" "$W/check.txt")
check "check: dbx grew by one signature list of the update's 443 hashes ($(((${#d1} - 8) / 2)) -> $(((${#d2} - 8) / 2)) bytes)" \
	test "$(((${#d2} - ${#d1}) / 2))" = $((28 + 443 * 48))
check "check: sbat-add --event-log running: the log matches the TPM (exit $(sed -n 's/^now-rc //p' "$W/check.txt"))" \
	grep -q '^now: the log matches the TPM' "$W/check.txt"

echo "# PCR 7 of the boot after the updates: predicted in the first boot, before any write (pred-all: all four"
echo "# pending; pred-now: nothing pending, the variables as the writes left them), and the TPM's"
n_banks=0
for bank in $(sed -n 's/^pcr7 \([a-z0-9]*\) .*/\1/p' "$W/check.txt"); do
	want=$(tpm check "$bank")
	before=$(tpm apply "$bank")
	for tag in pred-all pred-now; do
		got=$(predicted apply "$tag" "$bank")
		printf '# %-7s %-8s predicted %s\n# %-7s %-8s TPM       %s\n' "$bank" "$tag" "${got:-none}" "$bank" "$tag" "$want"
		check "PCR 7 $bank: $tag's prediction = the TPM's value in the boot after the writes" \
			test -n "$got" -a "$got" = "$want"
	done
	check "PCR 7 $bank: the writes changed it ($before -> $want)" test -n "$before" -a "$before" != "$want"
	n_banks=$((n_banks + 1))
done
check "the TPM showed PCR 7 in sha256 and more banks ($n_banks)" test "$n_banks" -ge 2 -a -n "$(tpm check sha256)"

# ------------------------------------------------------------ --check-level next's PCR 4, 7 and 14
echo "# PCR 4, 7 and 14 of the boot after the updates: predicted by --check-level next in the first boot,"
echo "# before any write (the dbx and db updates pending), and the TPM's in the second"
check "apply: --check-level next --event-log running --json predicted (exit $(sed -n 's/^next-all-rc //p' "$W/apply.txt"))" \
	grep -q '^next-all-value: ' "$W/apply.txt"
gline apply next-all-event | sed 's/^/# apply next-all event not reproduced: /' | cut -c 1-400
for bank in $(sed -n 's/^pcr7 \([a-z0-9]*\) .*/\1/p' "$W/check.txt"); do
	for pcr in 4 7 14; do
		got=$(nextval apply next-all "$pcr" "$bank")
		want=$(tpmpcr check "$bank" "$pcr")
		side "$pcr" "$bank" "next-all" "$got" "$want"
		check "PCR $pcr $bank: --check-level next's prediction = the TPM's value after the updates$(unknown "$got" apply next-all "$pcr" "$bank")" \
			test -n "$got" -a "$got" = "$want"
	done
	check "PCR 4 and 14 $bank: the updates left them as they were" \
		test "$(tpmpcr apply "$bank" 4)" = "$(tpmpcr check "$bank" 4)" -a \
		"$(tpmpcr apply "$bank" 14)" = "$(tpmpcr check "$bank" 14)"
done

# ------------------------------------------------------------ the unlock attempt: unsealed after the updates
# field V N: field N of volume V's line of luksjson (2: the verdict today, 3: after the updates)
field() { awk -v v="$1" -v n="$2" '$1 == v { print $n }' <<<"$js"; }
# tpm_says V LINE: what tpm-seal's LINE for volume V says in sbat-add's words: will-unlock when the TPM gave V's
# secret back, will-not-unlock when it refused the policy (TPM_RC_POLICY_FAIL), else other
tpm_says() {
	if [ "$2" = "unsealed $(gline apply "secret-$1")" ] && [ -n "$(gline apply "secret-$1")" ]; then
		echo will-unlock
	elif grep -q '^failed: 0x[0-9a-f]* (TPM_RC_POLICY_FAIL) from Unseal$' <<<"$2"; then
		echo will-not-unlock
	else
		echo other
	fi
}
echo "# The unlock attempt: sbat-add's verdict for each volume (--check-level next --luks, the updates pending, in"
echo "# the first boot), and the TPM unsealing the object sealed to the same policy, in the first boot and the second"
for v in A B; do
	case $v in
	A) what="A (sealed to PCR 7 today)" ;;
	B) what="B (sealed to the predicted PCR 7)" ;;
	esac
	now=$(gline apply "unseal-today-$v")
	after=$(gline check "unseal-$v")
	printf '# %-33s today:              sbat-add %-16s TPM: %s\n' "$what" "$(field $v 2 | tr - ' ')" "$now"
	printf '# %-33s after the updates:  sbat-add %-16s TPM: %s\n' "$what" "$(field $v 3 | tr - ' ')" "$after"
	check "luks: $v today: sbat-add's verdict ($(field $v 2)) is the TPM's in the first boot (${now:-no line})" \
		test -n "$(field $v 2)" -a "$(field $v 2)" = "$(tpm_says $v "$now")"
	check "luks: $v after the updates: sbat-add's verdict ($(field $v 3)) is the TPM's in the second boot (${after:-no line})" \
		test -n "$(field $v 3)" -a "$(field $v 3)" = "$(tpm_says $v "$after")"
done
printf '# PCR 7 sha256 %-46s %s\n' "today (A sealed to it)" "$p7now" "predicted after the updates (B sealed to it)" \
	"$p7next" "the TPM's in the boot after the updates" "$(tpmpcr check sha256 7)"

# ------------------------------------------------------------ SbatPolicy latest
check "check: SbatPolicy written as mokutil --set-sbat-policy latest writes it ($(gline check write-policy); $(sed -n 's/^policy-var //p' "$W/check.txt"))" \
	test "$(gline check write-policy)" = ok -a "$(sed -n 's/^policy-var //p' "$W/check.txt")" = 0700000001
check "check: --check-level next --event-log running --json predicted with it (exit $(sed -n 's/^policy-rc //p' "$W/check.txt"))" \
	grep -q '^policy-value: ' "$W/check.txt"
gline check policy-event | sed 's/^/# check policy event not reproduced: /' | cut -c 1-400
pol=$(gline check policy-shim)
pol=${pol#*\"shim_stored\": \"}
pol=${pol%%\"*}
# the data of the SbatLevel event predicted: its UEFI_VARIABLE_DATA after shim's GUID, the two lengths and
# "SbatLevel" in UCS-2 (50 bytes)
ev=$(gline check policy-event | grep '"event_data": "[0-9a-f]\{32\}0900000000000000[0-9a-f]\{16\}5300620061007400' |
	sed 's/.*"event_data": "\([0-9a-f]*\)".*/\1/' | head -n 1)
ev=${ev:100}
vm_log "the SbatLevel predicted for the boot after the write: $pol"
boot policy
check "policy: the guest ran to its end ($VM_RESULT after ${VM_SECS}s)" test "$BOOTED" = 0
rt=$(sed -n "s/^var SbatLevelRT-605dab50-e046-4300-abb6-3dd810dd8b23 ........//p" "$W/policy.txt")
before=$(sed -n "s/^var SbatLevelRT-605dab50-e046-4300-abb6-3dd810dd8b23 ........//p" "$W/check.txt")
want=$(printf '%b' "$pol" | od -An -v -tx1 | tr -d ' \n')
printf '# SbatLevelRT before    %s\n# SbatLevelRT predicted %s\n# SbatLevel event data  %s\n# SbatLevelRT after     %s\n' \
	"$before" "$want" "${ev:-none}" "$rt"
check "policy: SbatLevelRT is the level predicted ($(printf '%b' "$pol" | head -n 1)), another than before" \
	test -n "$pol" -a "$rt" = "$want" -a "$rt" != "$before"
check "policy: the predicted SbatLevel event of PCR 7 measures SbatLevelRT's bytes" test -n "$ev" -a "$ev" = "$rt"
check "policy: shim took SbatPolicy once (gone)" test -z "$(sed -n 's/^var SbatPolicy-[-0-9a-f]* //p' "$W/policy.txt")"
for bank in $(sed -n 's/^pcr7 \([a-z0-9]*\) .*/\1/p' "$W/policy.txt"); do
	for pcr in 7 4 14; do
		got=$(nextval check policy "$pcr" "$bank")
		want=$(tpmpcr policy "$bank" "$pcr")
		side "$pcr" "$bank" "policy" "$got" "$want"
		check "PCR $pcr $bank: --check-level next's prediction with SbatPolicy latest = the TPM's value in the boot after$(unknown "$got" check policy "$pcr" "$bank")" \
			test -n "$got" -a "$got" = "$want"
	done
	check "PCR 7 $bank: SbatPolicy latest changed it" test "$(tpmpcr check "$bank" 7)" != "$(tpmpcr policy "$bank" 7)"
done

# ------------------------------------------------------------ MokList: a certificate enrolled as MokManager enrolls it
# The policy boot predicted the next one with MokList=mok.esl pending (--check-level next, "mok-" lines); the host
# writes MokList as shim 16.1's MokManager does once `mokutil --import` is confirmed (write_db: shim's GUID,
# NON_VOLATILE | BOOTSERVICE_ACCESS, the old data and the list; shim deletes a MokList with RUNTIME_ACCESS), and
# the mok boot's TPM must hold the predicted PCR 4, 7 and 14: 14 changes (shim measures MokList's mirror,
# MokListRT: its built-in certificate, then MokList), 7 not (the images are verified by the same entry).
echo "# MokList: PCR 4, 7 and 14 predicted in the policy boot with MokList=mok.esl pending, and the TPM's after it"
check "policy: --check-level next --pending MokList=mok.esl predicted (exit $(sed -n 's/^mok-rc //p' "$W/policy.txt"))" \
	grep -q '^mok-value: ' "$W/policy.txt"
gline policy mok-event | sed 's/^/# policy mok event not reproduced: /' | cut -c 1-400
SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
python3 "$SRC/tests/integration/ovmf-setvar.py" "$W/vars.fd" MokList "$SHIM_GUID" 0x3 "$W/mok.esl" >"$W/setvar.log" 2>&1
check "host: MokList written into the varstore ($(tail -n 1 "$W/setvar.log"))" grep -q 'added MokList' "$W/setvar.log"
boot mok
check "mok: the guest ran to its end ($VM_RESULT after ${VM_SECS}s)" test "$BOOTED" = 0
rt0=$(sed -n "s/^var MokListRT-$SHIM_GUID ........//p" "$W/policy.txt")
rt1=$(sed -n "s/^var MokListRT-$SHIM_GUID ........//p" "$W/mok.txt")
check "mok: shim mirrored MokListRT as its old data with mok.esl after it ($((${#rt0} / 2)) -> $((${#rt1} / 2)) bytes)" \
	test -n "$rt0" -a "$rt1" = "$rt0$(od -An -v -tx1 "$W/mok.esl" | tr -d ' \n')"
for bank in $(sed -n 's/^pcr7 \([a-z0-9]*\) .*/\1/p' "$W/mok.txt"); do
	for pcr in 14 7 4; do
		got=$(nextval policy mok "$pcr" "$bank")
		want=$(tpmpcr mok "$bank" "$pcr")
		side "$pcr" "$bank" "mok" "$got" "$want"
		check "PCR $pcr $bank: --check-level next's prediction with MokList pending = the TPM's value after MokManager's write$(unknown "$got" policy mok "$pcr" "$bank")" \
			test -n "$got" -a "$got" = "$want"
	done
	check "PCR 14 $bank: the MokList write changed it" test "$(tpmpcr policy "$bank" 14)" != "$(tpmpcr mok "$bank" 14)"
done
tap_finish
