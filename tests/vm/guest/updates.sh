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
#   check  the boot after: sbat-add --event-log running ("now: " lines)
#
# Both print the TPM's PCR 7 of every bank ("pcr7 BANK HEX"), the variables
# PCR 7 measures ("var NAME-GUID HEX": the attributes, then the data, as
# efivarfs gives them), the event log ("eventlog HEX" lines) and each
# variable's size after the writes ("size NAME BYTES"). Exit 1 without a TPM
# or efivarfs.
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

for d in $T/pcr-*; do
	[ -r "$d/7" ] && echo "pcr7 ${d##*/pcr-} $(tr 'A-F' 'a-f' <"$d/7")"
done
for f in $V/SecureBoot-8be4df61-* $V/PK-8be4df61-* $V/KEK-8be4df61-* $V/db-d719b2cb-* $V/dbx-d719b2cb-*; do
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

if [ "$phase" = check ]; then
	predict now
	for f in $V/KEK-8be4df61-* $V/db-d719b2cb-* $V/dbx-d719b2cb-*; do
		echo "size ${f##*/} $(wc -c <"$f")"
	done
	exit 0
fi

# the ESP, for the walk's view of each pending write
i=0
while [ ! -b /dev/sda1 ] && [ $i -lt 100 ]; do
	usleep 100000
	i=$((i + 1))
done
mkdir -p /mnt/esp
mount -t vfat -o ro /dev/sda1 /mnt/esp || echo "esp: cannot mount /dev/sda1"

all=""
while read -r name var guid file; do
	all="$all --pending $var=/files/$file"
done </files/updates.list
# shellcheck disable=SC2086 # a word list of options
predict pred-all $all
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
