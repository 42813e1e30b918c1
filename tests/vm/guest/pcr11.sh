# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# pcr11.sh - runs inside the VM (busybox sh) after a UKI booted under OVMF
# with a TPM: prints PCR 11 of every bank the kernel shows, one
# "pcr11 BANK HEX" line each (lower-case hex), then the firmware's event log
# (securityfs) as "eventlog HEX" lines for the host to decode, every PCR of
# every bank as "pcr BANK N HEX" lines and the variables PCR 7 measures as
# "efivar NAME-GUID HEX" lines (efivarfs: the attributes, then the data), for
# the replay of the whole log. Nothing in this
# initramfs extends PCR 11, so the values are what systemd-stub left. For a
# UKI with profiles, the first line of the .profile the stub booted (it
# passes it as /.extra/profile) and the kernel's command line. Exit 1
# without a TPM.
[ -r /.extra/profile ] && echo "profile: $(head -n 1 /.extra/profile)" && echo "cmdline: $(cat /proc/cmdline)"
T=/sys/class/tpm/tpm0
i=0
while [ ! -d $T ] && [ $i -lt 50 ]; do
	usleep 100000
	i=$((i + 1))
done
if [ ! -d $T ]; then
	echo "tpm: no $T"
	exit 1
fi
echo "tpm: $(cat $T/tpm_version_major 2>/dev/null) $(ls -d $T/pcr-* 2>/dev/null | sed 's|.*/pcr-||' | tr '\n' ' ')"
n=0
for d in $T/pcr-*; do
	[ -r "$d/11" ] || continue
	echo "pcr11 ${d##*/pcr-} $(tr 'A-F' 'a-f' <"$d/11")"
	n=$((n + 1))
done
[ $n -gt 0 ] || {
	echo "tpm: no pcr-*/11 in $T"
	exit 1
}
for d in $T/pcr-*; do
	for n in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23; do
		[ -r "$d/$n" ] && echo "pcr ${d##*/pcr-} $n $(tr 'A-F' 'a-f' <"$d/$n")"
	done
done
V=/sys/firmware/efi/efivars
if mount -t efivarfs efivarfs $V 2>/dev/null || grep -q " $V efivarfs" /proc/mounts; then
	for f in $V/SecureBoot-8be4df61-* $V/PK-8be4df61-* $V/KEK-8be4df61-* $V/db-d719b2cb-* $V/dbx-d719b2cb-* \
		$V/dbt-d719b2cb-*; do
		[ -r "$f" ] && echo "efivar ${f##*/} $(od -An -v -tx1 "$f" | tr -d ' \n')"
	done
fi
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
L=/sys/kernel/security/tpm0/binary_bios_measurements
if [ -r $L ]; then
	od -An -v -tx1 $L | tr -d ' \n' | fold -w 1024 | sed 's/^/eventlog /'
	echo
else
	echo "tpm: no event log at $L"
fi
exit 0
