# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# efivars.sh - runs inside the VM (busybox sh) after a firmware boot: mount
# efivarfs and print the variables of interest, one "var NAME-GUID HEX" line
# each (HEX: the 4 attribute bytes, then the data, as efivarfs gives them),
# then "# " lines with the text of the SBAT ones. Exit 1 when efivarfs
# cannot be mounted (not booted through UEFI).
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
for f in $V/*; do
	name=${f##*/}
	case "$name" in
	SecureBoot-* | SetupMode-* | SbatLevel* | MokListRT-* | MokListXRT-* | MokSBStateRT-* | \
		BootOrder-* | BootCurrent-* | Boot[0-9A-F][0-9A-F][0-9A-F][0-9A-F]-* | LoaderEntrySelected-* | \
		LoaderDevicePartUUID-* | StubPcrKernelImage-* | LoaderInfo-* | PK-* | KEK-*)
		echo "var $name $(od -An -v -tx1 "$f" | tr -d ' \n' | head -c 4096)"
		;;
	esac
	case "$name" in
	SbatLevelRT-* | SbatLevel-*) tail -c +5 "$f" | tr -d '\0' | sed 's/^/# /' ;;
	esac
done
exit 0
