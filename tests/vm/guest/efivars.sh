# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# efivars.sh - runs inside the VM (busybox sh) after a firmware boot: mount
# efivarfs and print the variables of interest, one "var NAME-GUID HEX" line
# each (HEX: the 4 attribute bytes, then the data, as efivarfs gives them),
# then "# " lines with the text of the SBAT ones, and the kernel command
# line ("cmdline: "). With /files/sbat-add, the ESP's start and size in
# sectors ("part: "), then mounts the ESP the firmware booted from
# (read-only) and prints what
# `sbat-add --check-level next --esp` says about every boot path (the
# signatures judged too, by default, on the firmware's own db and dbx), as
# "paths: " lines, "paths-rc N" and "paths-json: " lines. Exit 1 when
# efivarfs cannot be mounted (not booted through UEFI).
V=/sys/firmware/efi/efivars
if [ ! -d /sys/firmware/efi ]; then
	echo "efi: no /sys/firmware/efi (not a UEFI boot)"
	exit 1
fi
mount -t efivarfs efivarfs $V 2>/dev/null || grep -q " $V efivarfs" /proc/mounts || {
	echo "efi: cannot mount efivarfs"
	exit 1
}
echo "efi: $(ls $V | wc -l) variables"
# which loader configuration the kernel came from (a token test-paths.sh puts in each)
echo "cmdline: $(cat /proc/cmdline)"
for f in $V/*; do
	name=${f##*/}
	case "$name" in
	SecureBoot-* | SetupMode-* | SbatLevel* | MokListRT-* | MokListXRT-* | MokSBStateRT-* | MokPolicyRT-* | MokIgnoreDB-* | \
		BootOrder-* | BootNext-* | BootCurrent-* | Boot[0-9A-F][0-9A-F][0-9A-F][0-9A-F]-* | LoaderEntrySelected-* | \
		LoaderDevicePartUUID-* | StubPcrKernelImage-* | LoaderInfo-* | PK-* | KEK-* | db-* | dbx-*)
		echo "var $name $(od -An -v -tx1 "$f" | tr -d ' \n' | head -c 131072)"
		;;
	esac
	case "$name" in
	SbatLevelRT-* | SbatLevel-*) tail -c +5 "$f" | tr -d '\0' | sed 's/^/# /' ;;
	esac
done
# the ESP: QEMU's FAT disk, one partition
if [ -x /files/sbat-add ]; then
	i=0
	while [ ! -b /dev/sda1 ] && [ $i -lt 100 ]; do
		usleep 100000
		i=$((i + 1))
	done
	mkdir -p /mnt/esp
	# the partition as an HD() device path node names it: start and size in sectors
	echo "part: sda1 start $(cat /sys/class/block/sda1/start 2>/dev/null) size $(cat /sys/class/block/sda1/size 2>/dev/null)"
	if mount -t vfat -o ro /dev/sda1 /mnt/esp; then
		/files/sbat-add --check-level next --esp /mnt/esp >/tmp/paths.out 2>/tmp/paths.err
		echo "paths-rc $?"
		sed 's/^/paths: /' /tmp/paths.out
		sed 's/^/paths-err: /' /tmp/paths.err
		/files/sbat-add --check-level next --esp /mnt/esp --json 2>/dev/null | sed 's/^/paths-json: /'
		umount /mnt/esp
	else
		echo "paths: cannot mount /dev/sda1 ($(ls /dev/sd* 2>/dev/null | tr '\n' ' '))"
	fi
fi
exit 0
