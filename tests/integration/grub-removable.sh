#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# grub-removable.sh - the boot-path walk on Debian's signed GRUB started from
# the removable-media path, as the firmware starts it when no boot option
# exists: \EFI\BOOT\BOOTX64.EFI is Debian's signed shim, \EFI\BOOT\grubx64.efi
# Debian's signed GRUB (bookworm and trixie, from fetch-corpus.sh), and the
# grub.cfg grub-install writes is in \EFI\debian only. GRUB's prefix object
# (/EFI/debian) and, in bookworm's, its embedded `normal (memdisk)/grub.cfg`
# and the script in its FAT memdisk lead to \EFI\debian\grub.cfg, which hands
# over to /boot (--boot): the walk must follow them to the kernel. With no
# grub.cfg in \EFI\debian, bookworm's script reads the one beside GRUB, as
# trixie's normal mode does first whenever it is there. Then, when
# grub-mkstandalone, grub-mkimage and the x86_64-efi modules are there
# (fetch-corpus.sh unpacks grub-efi-amd64-bin), images they make: a tar
# memdisk with prefix (memdisk)/boot/grub, and a prefix /EFI/debian alone.
#
# Environment (set by meson): SBAT_ADD. SBAT_CORPUS_DIR as for
# fetch-corpus.sh. Without the corpus every check is skipped, unless CI=true.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/tap.sh"
need_env SBAT_ADD
CACHE="${SBAT_CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sbat-add-corpus}"
export SBAT_CORPUS_DIR="$CACHE"
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-grub-removable.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
EFI_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c
UUID=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0
KVER=6.1.0-test-amd64
STAGE3="removable media fallback [default]: stage 3"

bash "$HERE/fetch-corpus.sh" >"$T/fetch.log" 2>&1 || echo "# fetch-corpus.sh: $(tail -n 1 "$T/fetch.log")"
kernel=$(awk -F'\t' '!/^#/ && $3 == "x64" && $5 == "kernel" { print d "/" $1; exit }' d="$CACHE/corpus" \
	"$CACHE/corpus/MANIFEST.tsv" 2>/dev/null)
if ! grep -q '^grubx64\.efi\.signed-' "$CACHE/signed/MANIFEST.tsv" 2>/dev/null || [ -z "$kernel" ]; then
	[ "${CI:-}" = true ] && { echo "not ok 1 - no signed GRUB or kernel in $CACHE (fetch-corpus.sh needs root and the archive)"; exit 1; }
	skip_all "no signed GRUB or kernel in $CACHE (fetch-corpus.sh needs root and Debian's archive)"
fi

# esp DIR SHIM GRUB: the removable path's shim and GRUB; /boot with grub.cfg and a kernel in DIR/boot
esp() {
	rm -rf -- "$1"
	mkdir -p -- "$1/esp/EFI/BOOT" "$1/esp/EFI/debian" "$1/boot/grub" "$1/ev"
	cp -- "$2" "$1/esp/EFI/BOOT/BOOTX64.EFI"
	cp -- "$3" "$1/esp/EFI/BOOT/grubx64.efi"
	# what grub-install writes beside Debian's GRUB, and grub-mkconfig in /boot/grub
	printf 'search.fs_uuid %s root hd0,gpt2\nset prefix=($root)'"'"'/boot/grub'"'"'\nconfigfile $prefix/grub.cfg\n' \
		"$UUID" >"$1/esp/EFI/debian/grub.cfg"
	printf '%s\n' 'set default="0"' 'set timeout=5' "menuentry 'Debian GNU/Linux' {" \
		"	search --no-floppy --fs-uuid --set=root $UUID" "	linux /boot/vmlinuz-$KVER root=UUID=$UUID ro" \
		"	initrd /boot/initrd.img-$KVER" '}' >"$1/boot/grub/grub.cfg"
	cp -- "$kernel" "$1/boot/vmlinuz-$KVER"
	printf 'initrd' >"$1/boot/initrd.img-$KVER"
	printf '\7\0\0\0\1' >"$1/ev/SecureBoot-$EFI_GUID"
	printf '\7\0\0\0\0' >"$1/ev/SetupMode-$EFI_GUID"
}

# walk DIR [--verbose]: the walk of DIR's machine into OUT; its efivarfs has
# no db or dbx, and the paths are what is tested: SBAT alone (--no-signatures)
walk() {
	OUT=$(SBAT_ADD_EFIVARFS="$1/ev" "$SBAT_ADD" --check-level next --no-signatures --esp "$1/esp" --boot "$1/boot" ${2:-} 2>&1)
	printf '%s\n' "$OUT" | sed 's/^/#   /'
}
has_line() { printf '%s\n' "$OUT" | grep -qxF -- "$1"; }
has_text() { printf '%s\n' "$OUT" | grep -qF -- "$1"; }

BOOTS="$STAGE3 /boot/vmlinuz-$KVER (menuentry 'Debian GNU/Linux') [default entry]: boots:"
# bookworm's GRUB 2.06 carries prefix /EFI/debian, `normal (memdisk)/grub.cfg` and a FAT memdisk with the
# script; trixie's 2.12 the prefix and a squashfs memdisk of modules, no configuration: its normal mode reads
# $fw_path/grub.cfg (beside GRUB) when it is there, else $prefix/grub.cfg
for rel in bookworm trixie; do
	grub=$CACHE/signed/grubx64.efi.signed-$rel shim=$CACHE/signed/shimx64.efi.signed-$rel
	if [ ! -s "$grub" ] || [ ! -s "$shim" ]; then
		skip "Debian $rel's signed GRUB from the removable path" "no $rel shim and GRUB in $CACHE/signed"
		continue
	fi
	M=$T/$rel
	esp "$M" "$shim" "$grub"
	walk "$M" --verbose
	check "$rel: GRUB at \\EFI\\BOOT reads \\EFI\\debian\\grub.cfg through its prefix, and boots the kernel" \
		has_text "$BOOTS"
	first="(ESP)/EFI/debian/grub.cfg ($M/esp/EFI/debian/grub.cfg)"
	[ "$rel" = trixie ] || first="GRUB's embedded configuration -> (memdisk)/grub.cfg -> $first"
	check "$rel: --verbose names the files read, from GRUB's own to /boot's" \
		has_text "GRUB menu: $first -> ($UUID)/boot/grub/grub.cfg ($M/boot/grub/grub.cfg)"
	mv -- "$M/esp/EFI/debian/grub.cfg" "$M/esp/EFI/BOOT/grub.cfg"
	walk "$M" --verbose
	if [ "$rel" = trixie ]; then
		check "$rel: without \\EFI\\debian\\grub.cfg, normal mode reads \$fw_path/grub.cfg, \\EFI\\BOOT\\grub.cfg" \
			has_text "GRUB menu: (ESP)/EFI/BOOT/grub.cfg ($M/esp/EFI/BOOT/grub.cfg) -> ($UUID)"
		# both: the one beside GRUB comes first
		printf 'configfile (hd9)/nowhere\n' >"$M/esp/EFI/debian/grub.cfg"
		walk "$M"
		check "$rel: with both, normal mode reads the one beside GRUB first, and the kernel boots" has_text "$BOOTS"
		rm -f -- "$M/esp/EFI/BOOT/grub.cfg" "$M/esp/EFI/debian/grub.cfg"
		walk "$M"
		check "$rel: with no grub.cfg on the ESP, the walk says which file GRUB misses" \
			has_line "$STAGE3 (ESP)/EFI/debian/grub.cfg: cannot be followed: /EFI/debian/grub.cfg is missing"
		continue
	fi
	# the memdisk's script sources $cmdpath/grub.cfg, the one beside GRUB
	check "$rel: without \\EFI\\debian\\grub.cfg, the memdisk script's else branch reads \\EFI\\BOOT\\grub.cfg" \
		has_text "(memdisk)/grub.cfg -> (ESP)/EFI/BOOT/grub.cfg"
	check "$rel: and the kernel it leads to boots" has_text "$BOOTS"
	rm -f -- "$M/esp/EFI/BOOT/grub.cfg"
	walk "$M"
	check "$rel: with no grub.cfg on the ESP, the walk says which file GRUB misses" \
		has_line "$STAGE3 (ESP)/EFI/BOOT/grub.cfg: cannot be followed: /EFI/BOOT/grub.cfg is missing"
done

# images grub-mkstandalone and grub-mkimage make from Debian's modules
moddir=$(find "$CACHE/extract" -maxdepth 5 -type d -path '*grub-efi-amd64-bin*/usr/lib/grub/x86_64-efi' 2>/dev/null |
	sort | tail -n 1)
shim=$CACHE/signed/shimx64.efi.signed-bookworm
if [ -z "$moddir" ] || ! command -v grub-mkstandalone >/dev/null 2>&1 || ! command -v grub-mkimage >/dev/null 2>&1 ||
	[ ! -s "$shim" ]; then
	skip "grub-mkstandalone and grub-mkimage images from the removable path" \
		"no grub-mkstandalone, grub-mkimage (grub-common) or x86_64-efi modules (grub-efi-amd64-bin)"
	tap_finish
	exit
fi
printf '%s\n' 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md' \
	'grub,5,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/' >"$T/sbat.csv"
M=$T/standalone
esp "$M" "$shim" "$shim"
cp -- "$M/esp/EFI/debian/grub.cfg" "$T/memdisk.cfg"
rm -f -- "$M/esp/EFI/debian/grub.cfg"
grub-mkstandalone -O x86_64-efi -d "$moddir" -o "$T/standalone.efi" --install-modules="normal configfile search" \
	--modules="" --locales="" --fonts="" --themes="" "boot/grub/grub.cfg=$T/memdisk.cfg" >"$T/mk.log" 2>&1
"$SBAT_ADD" --file "$T/standalone.efi" --csv "$T/sbat.csv" --output "$M/esp/EFI/BOOT/grubx64.efi" >>"$T/mk.log" 2>&1
check "grub-mkstandalone made an image, and sbat-add gave it a .sbat" test -s "$M/esp/EFI/BOOT/grubx64.efi" ||
	sed 's/^/#   /' "$T/mk.log"
walk "$M" --verbose
check "grub-mkstandalone: its tar memdisk's boot/grub/grub.cfg is read through prefix (memdisk)/boot/grub" \
	has_text "GRUB menu: (memdisk)/boot/grub/grub.cfg -> ($UUID)/boot/grub/grub.cfg"
check "grub-mkstandalone: and the kernel it leads to boots" has_text "$BOOTS"

M=$T/mkimage
esp "$M" "$shim" "$shim"
grub-mkimage -O x86_64-efi -d "$moddir" -p /EFI/debian -o "$T/mkimage.efi" normal configfile search part_gpt fat \
	>"$T/mk.log" 2>&1
"$SBAT_ADD" --file "$T/mkimage.efi" --csv "$T/sbat.csv" --output "$M/esp/EFI/BOOT/grubx64.efi" >>"$T/mk.log" 2>&1
check "grub-mkimage -p /EFI/debian made an image" test -s "$M/esp/EFI/BOOT/grubx64.efi" || sed 's/^/#   /' "$T/mk.log"
walk "$M" --verbose
check "grub-mkimage -p /EFI/debian: GRUB at \\EFI\\BOOT reads \\EFI\\debian\\grub.cfg, and the kernel boots" \
	has_text "GRUB menu: (ESP)/EFI/debian/grub.cfg ($M/esp/EFI/debian/grub.cfg) -> ($UUID)" && has_text "$BOOTS"
tap_finish
