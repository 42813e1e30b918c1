# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# updates.sh - runs inside the VM (busybox sh) after OVMF with Secure Boot
# and a TPM booted shim -> GRUB -> the kernel: Secure Boot variable updates
# written through efivarfs, and PCR 7 predicted for the boot after them.
# The kernel command line's sbatvm.phase= says which boot this is:
#
#   apply  for each update of /files/updates.list ("NAME VAR GUID FILE"
#          lines, in order): what `sbat-add --event-log running --pending
#          VAR=FILE` predicts ("pred-NAME: " lines, "pred-NAME-rc N") and
#          what `sbat-add --check-level next --esp --pending VAR=FILE` says of
#          the write ("walk-NAME: " lines), then the write itself (efivar-write:
#          "write-NAME: ok" or "write-NAME: failed: ..."). First all of them
#          pending at once ("pred-all: "), last the variables as the writes
#          left them, nothing pending ("pred-now: ").
#          Before any write, `sbat-add --check-level next --event-log running
#          --json` with dbx-ms's and db-2023's updates pending ("next-all-"
#          lines: see nextjson below).
#   check  the boot after: sbat-add --event-log running ("now: " lines);
#          then SbatPolicy written as `mokutil --set-sbat-policy latest`
#          writes it (shim's GUID, NON_VOLATILE | BOOTSERVICE_ACCESS |
#          RUNTIME_ACCESS, the one byte 1: "write-policy: ok") and the next
#          boot predicted with it ("policy-" lines).
#   policy the boot after that: --check-level next with MokList=/files/mok.esl
#          pending ("mok-" lines), a certificate MokManager would enroll
#   mok    the boot after the host wrote MokList as MokManager writes it:
#          nothing more than the lines below.
#
# The unlock attempt (seal_volumes, unseal_volumes): in apply, before any
# write, secret A is sealed to the TPM's PCR 7 (sha256) and secret B to the
# PCR 7 next-all predicted (tpm-seal: "seal-A: policy HEX", the sealed object
# in "sealed-A HEX" for the host to put on the ESP of the next boot), then
# unsealed at once ("unseal-today-A: unsealed ..." or "...: failed: ..."); a LUKS2
# image for each (the fixture's header, its JSON area one systemd-tpm2 token
# of that policy hash, both checksums made again) is judged by sbat-add
# --check-level next --luks with the same updates pending ("luks: " lines,
# "luks-json: " the --json's "luks" member). In check, the TPM unseals each
# from /mnt/esp/sealed ("unseal-A: unsealed ..." or "unseal-A: failed: ...").
#
# Each prints the TPM's PCR 7 of every bank ("pcr7 BANK HEX"), every PCR
# ("pcr BANK N HEX"), the variables PCR 7 measures and shim's ("var
# NAME-GUID HEX": the attributes, then the data, as efivarfs gives them),
# the event log ("eventlog HEX" lines) and each variable's size after the
# writes ("size NAME BYTES"). Exit 1 without a TPM or efivarfs.
T=/sys/class/tpm/tpm0
V=/sys/firmware/efi/efivars
SBAT=/files/sbat-add
phase=$(sed -n 's/.*sbatvm\.phase=\([a-z]*\).*/\1/p' /proc/cmdline)
echo "phase: $phase"
i=0
while [ ! -d $T ] && [ $i -lt 50 ]; do
	usleep 100000
	i=$((i + 1))
done
[ -d $T ] || {
	echo "tpm: no $T"
	exit 1
}
mount -t efivarfs efivarfs $V 2>/dev/null || grep -q " $V efivarfs" /proc/mounts || {
	echo "efi: cannot mount efivarfs"
	exit 1
}
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null

SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
for d in $T/pcr-*; do
	[ -r "$d/7" ] && echo "pcr7 ${d##*/pcr-} $(tr 'A-F' 'a-f' <"$d/7")"
	n=0
	while [ -r "$d/$n" ]; do
		echo "pcr ${d##*/pcr-} $n $(tr 'A-F' 'a-f' <"$d/$n")"
		n=$((n + 1))
	done
done
for f in $V/SecureBoot-8be4df61-* $V/PK-8be4df61-* $V/KEK-8be4df61-* $V/db-d719b2cb-* $V/dbx-d719b2cb-* \
	$V/*-$SHIM_GUID; do
	[ -r "$f" ] && echo "var ${f##*/} $(od -An -v -tx1 "$f" | tr -d ' \n')"
done
L=/sys/kernel/security/tpm0/binary_bios_measurements
[ -r $L ] && od -An -v -tx1 $L | tr -d ' \n' | fold -w 1024 | sed 's/^/eventlog /'
echo

# predict TAG [--pending VAR=FILE]...: sbat-add --event-log running, its lines as "TAG: ", its exit status
predict() {
	tag=$1
	shift
	$SBAT --event-log running "$@" >/tmp/pred.out 2>/tmp/pred.err
	echo "$tag-rc $?"
	grep -v -e '^sha[0-9]* PCR *[0-9]*: ' /tmp/pred.out | sed "s/^/$tag: /"
	sed "s/^/$tag-err: /" /tmp/pred.err
}

# nextjson TAG [--pending VAR=FILE]...: sbat-add --check-level next --event-log running --json along the
# ESP's default path: its exit status ("TAG-rc N"), each predicted PCR value ("TAG-value: " and the JSON
# object of one PCR and bank), each event not reproduced ("TAG-event: "), the default path's shim stage
# ("TAG-shim: ", which holds the SbatLevel it leaves stored: "shim_stored")
nextjson() {
	tag=$1
	shift
	$SBAT --check-level next --esp /mnt/esp --event-log running "$@" --json >/tmp/next.json 2>/tmp/next.err
	echo "$tag-rc $?"
	grep '^ *{"pcr": [0-9]*, "bank": ' /tmp/next.json | sed "s/^ */$tag-value: /"
	grep '^ *{"recnum": ' /tmp/next.json | grep -v '"state": "reproduced"' | sed "s/^ */$tag-event: /"
	grep '"default": true, "stage": 1, .*"shim_stored": ' /tmp/next.json | head -n 1 | sed "s/^ */$tag-shim: /"
	sed "s/^/$tag-err: /" /tmp/next.err
}

[ "$phase" = mok ] && exit 0

# ------------------------------------------------------------ the unlock attempt
SECRET_A="sbat-add vm: sealed to PCR 7 before the updates"
SECRET_B="sbat-add vm: sealed to the PCR 7 predicted after them"

# hexbin HEX: the bytes
# shellcheck disable=SC2059 # the escapes are the format
hexbin() { printf "$(echo "$1" | sed 's/../\\x&/g')"; }

# make_volume OUT POLICY: the fixture's LUKS2 header with one systemd-tpm2 token (PCR 7, sha256, POLICY) as the
# JSON area of both copies (16 KiB each: the JSON from 4 KiB on), each checksum (SHA-256 of the copy with the
# field, 64 bytes at 448, zeroed) made again
make_volume() {
	cp /files/tpm2-tokens.luks2 "$1"
	json='{"tokens":{"0":{"type":"systemd-tpm2","tpm2-pcrs":[7],"tpm2-pcr-bank":"sha256","tpm2-policy-hash":"'$2'"}}}'
	for c in 0 1; do
		dd if=/dev/zero of="$1" bs=4096 seek=$((c * 4 + 1)) count=3 conv=notrunc 2>/dev/null
		printf '%s' "$json" | dd of="$1" bs=4096 seek=$((c * 4 + 1)) conv=notrunc 2>/dev/null
		dd if=/dev/zero of="$1" bs=64 seek=$((c * 256 + 7)) count=1 conv=notrunc 2>/dev/null
		sum=$(dd if="$1" bs=16384 skip=$c count=1 2>/dev/null | sha256sum | cut -c1-64)
		hexbin "$sum" | dd of="$1" bs=32 seek=$((c * 512 + 14)) conv=notrunc 2>/dev/null
	done
}

# seal_volumes [--pending VAR=FILE]...: after nextjson (its /tmp/next.json: the default path's PCR 7 comes first)
seal_volumes() {
	p7=$(sed -n 's/.*{"pcr": 7, "bank": "sha256", "value": "\([0-9a-f]\{64\}\)".*/\1/p' /tmp/next.json | head -n 1)
	echo "luks-predicted: ${p7:-none}"
	mkdir -p /tmp/sealed
	sa=$(/files/tpm-seal seal "$SECRET_A" /tmp/sealed/A.blob)
	sb=$(/files/tpm-seal seal "$SECRET_B" /tmp/sealed/B.blob "$(hexbin "$p7" | sha256sum | cut -c1-64)")
	printf 'seal-A: %s\nseal-B: %s\nsecret-A: %s\nsecret-B: %s\n' "$sa" "$sb" "$SECRET_A" "$SECRET_B"
	make_volume /tmp/A.luks2 "${sa#policy }"
	make_volume /tmp/B.luks2 "${sb#policy }"
	for v in A B; do
		[ -s /tmp/sealed/$v.blob ] && echo "sealed-$v $(od -An -v -tx1 /tmp/sealed/$v.blob | tr -d ' \n')"
		echo "unseal-today-$v: $(/files/tpm-seal unseal /tmp/sealed/$v.blob)"
	done
	$SBAT --check-level next --esp /mnt/esp --event-log running "$@" --luks /tmp/A.luks2 --luks /tmp/B.luks2 \
		>/tmp/luks.out 2>&1
	echo "luks-rc $?"
	grep '^/tmp/[AB]\.luks2: ' /tmp/luks.out | sed 's/^/luks: /'
	$SBAT --check-level next --esp /mnt/esp --event-log running "$@" --luks /tmp/A.luks2 --luks /tmp/B.luks2 \
		--json >/tmp/luks.json 2>/tmp/luks.err
	echo "luks-json-rc $?"
	sed -n '/^  "luks": \[/,/^  \]/p' /tmp/luks.json | sed 's/^/luks-json: /'
	sed "s/^/luks-err: /" /tmp/luks.err
}

# unseal_volumes: what the TPM says to each sealed object of the boot before
unseal_volumes() {
	for v in A B; do
		echo "unseal-$v: $(/files/tpm-seal unseal /mnt/esp/sealed/$v.blob)"
	done
}
# ------------------------------------------------------------ (end of the unlock attempt's functions)

# the ESP, for the walk's view of each pending write
i=0
while [ ! -b /dev/sda1 ] && [ $i -lt 100 ]; do
	usleep 100000
	i=$((i + 1))
done
mkdir -p /mnt/esp
mount -t vfat -o ro /dev/sda1 /mnt/esp || echo "esp: cannot mount /dev/sda1"

# MokList: the boot after SbatPolicy predicts the next one with /files/mok.esl enrolled as MokManager enrolls
# it ("mok-" lines); the host then writes MokList into the varstore, and the "mok" boot shows the TPM's PCRs
if [ "$phase" = policy ]; then
	nextjson mok --pending MokList=/files/mok.esl
	umount /mnt/esp 2>/dev/null
	exit 0
fi

if [ "$phase" = check ]; then
	unseal_volumes
	predict now
	for f in $V/KEK-8be4df61-* $V/db-d719b2cb-* $V/dbx-d719b2cb-*; do
		echo "size ${f##*/} $(wc -c <"$f")"
	done
	printf '\001' >/tmp/policy
	echo "write-policy: $(/files/efivar-write "$V/SbatPolicy-$SHIM_GUID" /tmp/policy 7)"
	f=$V/SbatPolicy-$SHIM_GUID
	[ -r "$f" ] && echo "policy-var $(od -An -v -tx1 "$f" | tr -d ' \n')"
	nextjson policy
	umount /mnt/esp 2>/dev/null
	exit 0
fi

all=""
while read -r name var guid file; do
	all="$all --pending $var=/files/$file"
done </files/updates.list
# shellcheck disable=SC2086 # a word list of options
predict pred-all $all
taken=""
while read -r name var guid file; do
	case $name in dbx-ms | db-2023) taken="$taken --pending $var=/files/$file" ;; esac
done </files/updates.list
# shellcheck disable=SC2086 # a word list of options
nextjson next-all $taken
# shellcheck disable=SC2086 # a word list of options
seal_volumes $taken
while read -r name var guid file; do
	predict "pred-$name" --pending "$var=/files/$file"
	$SBAT --check-level next --esp /mnt/esp --pending "$var=/files/$file" >/tmp/walk.out 2>&1
	echo "walk-$name-rc $?"
	grep 'pending:' /tmp/walk.out | sed "s/^ *pending: /walk-$name: /"
	echo "write-$name: $(/files/efivar-write "$V/$var-$guid" "/files/$file")"
	echo "size $var-$guid $(wc -c <"$V/$var-$guid")"
done </files/updates.list
predict pred-now
umount /mnt/esp 2>/dev/null
exit 0
