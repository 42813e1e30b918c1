#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
#
# test-kernel-hooks.sh - the kernel-install plugin and the Debian
# postinst.d hook on generated kernels, offline, in a temporary directory.
#
# The plugin runs under the real kernel-install(8) when it is installed,
# confined to the temporary directory through kernel-install's own
# variables (KERNEL_INSTALL_PLUGINS, KERNEL_INSTALL_CONF_ROOT, BOOT_ROOT,
# MACHINE_ID), together with the system's 90-loaderentry.install, which
# copies the kernel to the entry directory. Without kernel-install the
# plugin is called the way kernel-install calls it (same arguments and
# KERNEL_INSTALL_* variables). The uki layout runs with stand-ins for
# 60-ukify.install and 90-uki-copy.install (a fixed UKI into the staging
# area, then into BOOT_ROOT/EFI/Linux). A target that may not be written is
# a wrapper that fails as sbat-add does, and, as root on a file system with
# the attribute, a real immutable file. The hook runs under run-parts(8) as
# Debian's kernel packages run /etc/kernel/postinst.d, or directly without
# run-parts.
#
# Environment (set by meson): SBAT_ADD, GEN_FIXTURES, FIXTURES_SRC, and
# KERNEL_INSTALL_PLUGIN and KERNEL_POSTINST_HOOK, the configured scripts.
# Optional: KERNEL_INSTALL (default: kernel-install from $PATH; "none" to
# call the plugin directly) and TEST_KERNEL (a kernel image to use instead
# of the generated bzImage; the integration suite passes a real one).
# Output: TAP.

set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env SBAT_ADD GEN_FIXTURES FIXTURES_SRC KERNEL_INSTALL_PLUGIN KERNEL_POSTINST_HOOK
export SBAT_ADD

T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-hooks.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT

. "$(dirname "$0")/../lib/cli.sh"
tap_details() {
	printf 'exit status %s\n' "$RC"
	printf 'output: %s\n' "$(head -c 600 "$T/log")"
}
finish() {
	tap_finish
	exit
}

# holds IMAGE CSV: IMAGE's .sbat is CSV (in canonical form)
holds() {
	"$SBAT_ADD" --print "$1" >"$T/print" 2>/dev/null && cmp -s "$T/print" "$2"
}
# logged PATTERN: the last run's output has a line matching PATTERN
logged() {
	grep -q -- "$1" "$T/log"
}
# quiet: the last run printed nothing from sbat-add's scripts
quiet() {
	! grep -q '[0-9]-sbat-add' "$T/log"
}
# said_once: the last run printed exactly one line from sbat-add's scripts
said_once() {
	test "$(grep -c '[0-9]-sbat-add' "$T/log")" = 1
}

FIX="$T/fixtures"
mkdir -p "$FIX"
if ! "$GEN_FIXTURES" "$FIX" >/dev/null 2>"$T/log"; then
	not_ok "gen-fixtures writes the example images" "$(cat "$T/log")"
	finish
fi
KERNEL=${TEST_KERNEL:-$FIX/bzimage-new.bin}
check "the test kernel $(basename -- "$KERNEL") has no .sbat yet" \
	test "$("$SBAT_ADD" --print "$KERNEL" >/dev/null 2>&1; echo $?)" = 3

# the CSV to store, and the same in canonical form (what --print returns)
CSV="$FIXTURES_SRC/csv/linux.sbat"
CSV2="$T/other.csv"
printf '%s\n' 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md' \
	'linux,1,The Linux Developers,linux,6.1,https://linux.org' \
	'linux.example,1,Example Distribution,linux,6.1.0-test,https://example.org/kernel' >"$CSV2"

# a unified kernel image: an EFI program with a .linux section
UKI="$T/uki.efi"
cp -- "$FIX/efi-x86_64.efi" "$UKI"
hdr=$(LC_ALL=C grep -obUa -m1 '\.rodata' -- "$UKI" | head -n1 | cut -d: -f1)
printf '.linux\0\0' | dd of="$UKI" bs=1 seek="$hdr" conv=notrunc status=none

# ------------------------------------------------------ kernel-install plugin

KI=${KERNEL_INSTALL:-$(command -v kernel-install || echo none)}
LOADERENTRY=""
for d in /usr/lib/kernel/install.d /lib/kernel/install.d; do
	if [ -x "$d/90-loaderentry.install" ]; then
		LOADERENTRY="$d/90-loaderentry.install"
		break
	fi
done
[ -n "$LOADERENTRY" ] || KI=none
if [ "$KI" = none ]; then
	echo "# kernel-install or its 90-loaderentry.install not found: calling the plugin as kernel-install does"
else
	echo "# running the plugin under $KI ($("$KI" --version 2>/dev/null | head -n1)) with $LOADERENTRY"
fi

MACHINE_ID=0f0e0d0c0b0a09080706050403020100
BOOT="$T/ki/boot"
CONF="$T/ki/conf"
mkdir -p "$BOOT" "$CONF" "$T/ki/src"
printf 'layout=bls\n' >"$CONF/install.conf"
# the checks below run the plugin before 90-loaderentry.install with the
# packaged image chosen explicitly (edit=image); the default, which leaves it
# alone and edits the entry's copy, is checked at the end
printf 'edit=image\n' >"$CONF/sbat-add.conf"
printf 'root=/dev/vda1 ro\n' >"$CONF/cmdline"
mkdir -p "$T/ki/plugins"
PLUGIN="$T/ki/plugins/50-sbat-add.install"
cp -- "$KERNEL_INSTALL_PLUGIN" "$PLUGIN"
chmod 0755 -- "$PLUGIN"

# ki_add VERSION IMAGE: install IMAGE as kernel VERSION; RC, output in $T/log
ki_add() {
	local version="$1" image="$2" staging
	RC=0
	if [ "$KI" != none ]; then
		KERNEL_INSTALL_PLUGINS="$PLUGIN $LOADERENTRY" KERNEL_INSTALL_CONF_ROOT="$CONF" \
			BOOT_ROOT="$BOOT" MACHINE_ID="$MACHINE_ID" \
			"$KI" add "$version" "$image" >"$T/log" 2>&1 || RC=$?
	else
		staging=$(mktemp -d "$T/staging.XXXXXX")
		mkdir -p "$BOOT/$MACHINE_ID/$version"
		KERNEL_INSTALL_MACHINE_ID="$MACHINE_ID" KERNEL_INSTALL_ENTRY_TOKEN="$MACHINE_ID" \
			KERNEL_INSTALL_BOOT_ROOT="$BOOT" KERNEL_INSTALL_LAYOUT=bls \
			KERNEL_INSTALL_INITRD_GENERATOR="" KERNEL_INSTALL_STAGING_AREA="$staging" \
			KERNEL_INSTALL_VERBOSE=0 KERNEL_INSTALL_CONF_ROOT="$CONF" \
			"$PLUGIN" add "$version" "$BOOT/$MACHINE_ID/$version" "$image" >"$T/log" 2>&1 || RC=$?
		rm -rf -- "$staging"
		# what 90-loaderentry.install does with the image
		[ "$RC" -ne 0 ] || cp -- "$image" "$BOOT/$MACHINE_ID/$version/linux"
	fi
}
# installed VERSION: the kernel as installed in the entry directory
installed() {
	printf '%s\n' "$BOOT/$MACHINE_ID/$1/linux"
}

# configured: $CONF/sbat.csv
cp -- "$CSV" "$CONF/sbat.csv"
img="$T/ki/src/vmlinuz-6.1.0-sbat"
cp -- "$KERNEL" "$img"
ki_add 6.1.0-sbat "$img"
check "kernel-install add with sbat.csv configured exits 0" test "$RC" = 0
check "the plugin says it stored the CSV" logged "50-sbat-add.install: stored $CONF/sbat.csv in the .sbat section of $img"
check "the installed kernel holds the CSV in .sbat" holds "$(installed 6.1.0-sbat)" "$CSV"
check "the plugin edited the image it was given, before it was copied" holds "$img" "$CSV"
if [ "$KI" != none ]; then
	check "kernel-install wrote the loader entry" test -f "$BOOT/loader/entries/$MACHINE_ID-6.1.0-sbat.conf"
else
	skip "kernel-install wrote the loader entry" "no kernel-install"
fi
before=$(mtime "$img")
touch -d '2001-01-01' -- "$img"
before=$(mtime "$img")
cp -- "$img" "$T/first"
ki_add 6.1.0-sbat "$img"
check "installing the same kernel again exits 0" test "$RC" = 0
check "the second run prints nothing" quiet
check "the second run does not rewrite the image (same bytes, mtime kept)" \
	eval 'cmp -s "$img" "$T/first" && test "$(mtime "$img")" = "$before"'

# SBAT_ADD_CSV names another CSV, which replaces the first one
SBAT_ADD_CSV="$CSV2" ki_add 6.1.0-sbat "$img"
check "SBAT_ADD_CSV=OTHER: exits 0" test "$RC" = 0
check "SBAT_ADD_CSV=OTHER: the installed kernel holds the other CSV" holds "$(installed 6.1.0-sbat)" "$CSV2"

# configured, but sbat-add is gone: a message, the installation goes on
img="$T/ki/src/vmlinuz-6.1.0-nobin"
cp -- "$KERNEL" "$img"
SBAT_ADD="$T/no-such-sbat-add" ki_add 6.1.0-nobin "$img"
check "sbat-add not installed: kernel-install add exits 0" test "$RC" = 0
check "sbat-add not installed: the plugin says so" logged "50-sbat-add.install: $T/no-such-sbat-add is not installed, kernel 6.1.0-nobin left as it is"
check "sbat-add not installed: the image is byte-identical" cmp -s "$img" "$KERNEL"

# not configured: nothing happens, silently
rm -f -- "$CONF/sbat.csv"
img="$T/ki/src/vmlinuz-6.1.0-plain"
cp -- "$KERNEL" "$img"
ki_add 6.1.0-plain "$img"
check "not configured: kernel-install add exits 0" test "$RC" = 0
check "not configured: the plugin prints nothing" quiet
check "not configured: the image is byte-identical" cmp -s "$img" "$KERNEL"
check "not configured: the installed kernel is byte-identical" cmp -s "$(installed 6.1.0-plain)" "$KERNEL"
cp -- "$CSV" "$CONF/sbat.csv"

# a signed kernel is left alone, and the installation goes on
img="$T/ki/src/vmlinuz-6.1.0-signed"
cp -- "$FIX/signed.efi" "$img"
ki_add 6.1.0-signed "$img"
check "signed kernel: kernel-install add exits 0" test "$RC" = 0
check "signed kernel: one message says it is left alone" logged "50-sbat-add.install: $img is signed, left alone"
# a distribution's kernel cannot be signed again by its user: the message
# says what holds for it, and suggests stripping its signature to nobody
check "signed kernel without .sbat: the message says a distribution's kernel boots without one (shim lets it pass)" \
	eval 'said_once && logged "a distribution.s kernel" && logged "without .sbat" && ! logged "strip-signature" && ! logged "sign it again"'
check "signed kernel: the image is byte-identical" cmp -s "$img" "$FIX/signed.efi"
# a signed kernel that carries a .sbat (a vendor's): that one is what shim checks
if command -v sbsign >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1 &&
	openssl req -new -x509 -newkey rsa:2048 -nodes -subj /CN=sbat-add-test -days 2 \
		-keyout "$T/key.pem" -out "$T/cert.pem" >/dev/null 2>&1 &&
	"$SBAT_ADD" --file "$KERNEL" --csv "$CSV2" -o "$T/vendor.bin" 2>/dev/null &&
	sbsign --key "$T/key.pem" --cert "$T/cert.pem" --output "$T/vendor-signed.bin" "$T/vendor.bin" >/dev/null 2>&1; then
	img="$T/ki/src/vmlinuz-6.1.0-vendor"
	cp -- "$T/vendor-signed.bin" "$img"
	ki_add 6.1.0-vendor "$img"
	check "signed kernel with its vendor's .sbat: exits 0, one line: it carries its own .sbat, which shim checks" \
		eval 'test "$RC" = 0 && said_once && logged "$img is signed, left alone" && logged "carries the .sbat it was signed with" &&
			! logged "strip-signature" && ! logged "sign it again"'
	check "signed kernel with its vendor's .sbat: the image is byte-identical" cmp -s "$img" "$T/vendor-signed.bin"
else
	skip "a signed kernel with its vendor's .sbat" "no sbsign or openssl"
fi

# a unified kernel image is left alone
img="$T/ki/src/vmlinuz-6.1.0-uki"
cp -- "$UKI" "$img"
ki_add 6.1.0-uki "$img"
check "unified kernel image: kernel-install add exits 0" test "$RC" = 0
check "unified kernel image: the message says it is left alone" logged "unified kernel image"
check "unified kernel image: the image is byte-identical" cmp -s "$img" "$UKI"

# an invalid CSV (edit=image here) is warned about and the kernel is installed
# as it came: failing would leave the kernel package half-configured
cp -- "$FIXTURES_SRC/csv/invalid/generation-zero.csv" "$CONF/sbat.csv"
img="$T/ki/src/vmlinuz-6.1.0-badcsv"
cp -- "$KERNEL" "$img"
ki_add 6.1.0-badcsv "$img"
check "invalid sbat.csv, edit=image: kernel-install add exits 0" test "$RC" = 0
check "invalid sbat.csv: sbat-add names the line" logged "sbat-add: $CONF/sbat.csv:2: "
check "invalid sbat.csv: one line says the kernel is installed without it" \
	eval 'said_once && logged "50-sbat-add.install: $CONF/sbat.csv is not a valid SBAT CSV" && logged "kernel 6.1.0-badcsv is installed without it"'
check "invalid sbat.csv: the image is byte-identical" cmp -s "$img" "$KERNEL"
check "invalid sbat.csv: the installed kernel is byte-identical" cmp -s "$(installed 6.1.0-badcsv)" "$KERNEL"
cp -- "$CSV" "$CONF/sbat.csv"

# remove: nothing to do for the plugin
RC=0
if [ "$KI" != none ]; then
	KERNEL_INSTALL_PLUGINS="$PLUGIN $LOADERENTRY" KERNEL_INSTALL_CONF_ROOT="$CONF" \
		BOOT_ROOT="$BOOT" MACHINE_ID="$MACHINE_ID" \
		"$KI" remove 6.1.0-sbat >"$T/log" 2>&1 || RC=$?
else
	"$PLUGIN" remove 6.1.0-sbat "$BOOT/$MACHINE_ID/6.1.0-sbat" >"$T/log" 2>&1 || RC=$?
fi
check "kernel-install remove exits 0 and the plugin prints nothing" eval 'test "$RC" = 0 && quiet'

# ------------------------------------------------------------ postinst.d hook

HOOKS="$T/postinst.d"
mkdir -p "$HOOKS" "$T/boot"
HOOK="$HOOKS/50-sbat-add"
cp -- "$KERNEL_POSTINST_HOOK" "$HOOK"
chmod 0755 -- "$HOOK"
if command -v run-parts >/dev/null 2>&1 && run-parts --help 2>&1 | grep -q -- '--arg'; then
	echo "# running the hook under run-parts, as Debian's kernel packages do"
	RUN_PARTS=1
else
	echo "# run-parts with --arg not found: calling the hook directly"
	RUN_PARTS=0
fi

# postinst VERSION IMAGE: run the hooks; RC, output in $T/log
postinst() {
	RC=0
	if [ "$RUN_PARTS" = 1 ]; then
		run-parts --report --exit-on-error --arg="$1" --arg="$2" "$HOOKS" >"$T/log" 2>&1 || RC=$?
	else
		"$HOOK" "$1" "$2" >"$T/log" 2>&1 || RC=$?
	fi
}

export SBAT_ADD_CSV="$T/sbat.csv"
# as above: the packaged image chosen explicitly; the default is checked at the end
export SBAT_ADD_EDIT=image
img="$T/boot/vmlinuz-6.1.0-hook"
cp -- "$KERNEL" "$img"
postinst 6.1.0-hook "$img"
check "hook, not configured: exits 0" test "$RC" = 0
check "hook, not configured: prints nothing" quiet
check "hook, not configured: the image is byte-identical" cmp -s "$img" "$KERNEL"

cp -- "$CSV" "$SBAT_ADD_CSV"
postinst 6.1.0-hook "$img"
check "hook: exits 0" test "$RC" = 0
check "hook: says it stored the CSV" logged "50-sbat-add: stored $SBAT_ADD_CSV in the .sbat section of $img"
check "hook: the kernel holds the CSV" holds "$img" "$CSV"
img2="$T/boot/vmlinuz-6.1.0-hook-nobin"
cp -- "$KERNEL" "$img2"
SBAT_ADD="$T/no-such-sbat-add" postinst 6.1.0-hook-nobin "$img2"
check "hook, sbat-add removed (the hook stayed): exits 0 and prints nothing" eval 'test "$RC" = 0 && quiet'
check "hook, sbat-add removed: the image is byte-identical" cmp -s "$img2" "$KERNEL"
rm -f -- "$img2"
touch -d '2001-01-01' -- "$img"
before=$(mtime "$img")
cp -- "$img" "$T/first"
postinst 6.1.0-hook "$img"
check "hook, second run: exits 0 and prints nothing" eval 'test "$RC" = 0 && quiet'
check "hook, second run: the image is not rewritten (same bytes, mtime kept)" \
	eval 'cmp -s "$img" "$T/first" && test "$(mtime "$img")" = "$before"'

# a self-built kernel is signed afterwards: the hook leaves a signed one alone
img="$T/boot/vmlinuz-6.1.0-signed"
cp -- "$FIX/signed.efi" "$img"
postinst 6.1.0-signed "$img"
check "hook, signed kernel: exits 0" test "$RC" = 0
check "hook, signed kernel: says it is left alone" logged "50-sbat-add: $img is signed, left alone"
check "hook, signed kernel: says what holds for a distribution's kernel, suggests no stripping" \
	eval 'logged "a distribution.s kernel" && ! logged "strip-signature" && ! logged "sign it again"'
check "hook, signed kernel: the image is byte-identical" cmp -s "$img" "$FIX/signed.efi"

# /boot/vmlinuz as a symbolic link: the file it points to is edited
img="$T/boot/vmlinuz-6.1.0-link"
cp -- "$KERNEL" "$img"
ln -s vmlinuz-6.1.0-link "$T/boot/vmlinuz"
postinst 6.1.0-link "$T/boot/vmlinuz"
check "hook, symbolic link: exits 0" test "$RC" = 0
check "hook, symbolic link: the target holds the CSV, the link is still a link" \
	eval 'holds "$img" "$CSV" && test -L "$T/boot/vmlinuz"'

# not a PE image (a kernel without EFI stub): left alone
img="$T/boot/vmlinuz-6.1.0-noefi"
head -c 4096 /dev/zero >"$img"
cp -- "$img" "$T/noefi"
postinst 6.1.0-noefi "$img"
check "hook, not a PE image: exits 0 with a message" eval 'test "$RC" = 0 && logged "left alone"'
check "hook, not a PE image: the file is byte-identical" cmp -s "$img" "$T/noefi"

# an invalid CSV with edit=image: Debian's kernel postinst runs the hooks
# with --exit-on-error, so a failure would leave the package half-configured;
# the hook warns and the kernel is installed as it came
cp -- "$FIXTURES_SRC/csv/invalid/generation-zero.csv" "$SBAT_ADD_CSV"
img="$T/boot/vmlinuz-6.1.0-hook-badcsv"
cp -- "$KERNEL" "$img"
postinst 6.1.0-hook-badcsv "$img"
check "hook, invalid sbat.csv, edit=image: exits 0 (the kernel package's postinst finishes)" test "$RC" = 0
check "hook, invalid sbat.csv: sbat-add names the line, one line says the kernel is installed without it" \
	eval 'logged "sbat-add: $SBAT_ADD_CSV:2: " && test "$(grep -c "^50-sbat-add: " "$T/log")" = 1 &&
		logged "50-sbat-add: $SBAT_ADD_CSV is not a valid SBAT CSV"'
check "hook, invalid sbat.csv: the image is byte-identical" cmp -s "$img" "$KERNEL"
: >"$SBAT_ADD_CSV"
postinst 6.1.0-hook-badcsv "$img"
check "hook, empty sbat.csv: exits 0, the image is byte-identical" \
	eval 'test "$RC" = 0 && logged "is not a valid SBAT CSV" && cmp -s "$img" "$KERNEL"'
cp -- "$CSV" "$SBAT_ADD_CSV"

# ------------------------------------------- the default: package files untouched

unset SBAT_ADD_EDIT SBAT_ADD_CSV
rm -f -- "$CONF/sbat-add.conf"
cp -- "$CSV" "$CONF/sbat.csv"
PLUGIN90="$T/ki/plugins/90-sbat-add.install"
cp -- "$KERNEL_INSTALL_PLUGIN" "$PLUGIN90"
chmod 0755 -- "$PLUGIN90"

# ki_add_after VERSION IMAGE [LAYOUT [OPTION]]: install IMAGE, the plugin after
# 90-loaderentry.install, between $UKIFY and $UKICOPY when they are set (the
# UKI generator and 90-uki-copy.install); OPTION for kernel-install (-v)
ki_add_after() {
	local version="$1" image="$2" layout="${3:-bls}" staging
	RC=0
	printf 'layout=%s\n' "$layout" >"$CONF/install.conf"
	if [ "$KI" != none ]; then
		KERNEL_INSTALL_PLUGINS="${UKIFY:-} $LOADERENTRY $PLUGIN90 ${UKICOPY:-}" KERNEL_INSTALL_CONF_ROOT="$CONF" \
			BOOT_ROOT="$BOOT" MACHINE_ID="$MACHINE_ID" \
			"$KI" ${4:+"$4"} add "$version" "$image" >"$T/log" 2>&1 || RC=$?
	else
		staging=$(mktemp -d "$T/staging.XXXXXX")
		mkdir -p "$BOOT/$MACHINE_ID/$version"
		[ "$layout" != bls ] || cp -- "$image" "$BOOT/$MACHINE_ID/$version/linux"
		[ -z "${UKIFY:-}" ] || KERNEL_INSTALL_LAYOUT="$layout" KERNEL_INSTALL_STAGING_AREA="$staging" \
			"$UKIFY" add "$version" "$BOOT/$MACHINE_ID/$version" "$image"
		KERNEL_INSTALL_MACHINE_ID="$MACHINE_ID" KERNEL_INSTALL_ENTRY_TOKEN="$MACHINE_ID" \
			KERNEL_INSTALL_BOOT_ROOT="$BOOT" KERNEL_INSTALL_LAYOUT="$layout" \
			KERNEL_INSTALL_INITRD_GENERATOR="" KERNEL_INSTALL_STAGING_AREA="$staging" \
			KERNEL_INSTALL_VERBOSE="${KERNEL_INSTALL_VERBOSE:-0}" KERNEL_INSTALL_CONF_ROOT="$CONF" \
			"$PLUGIN90" add "$version" "$BOOT/$MACHINE_ID/$version" "$image" >"$T/log" 2>&1 || RC=$?
		[ "$RC" -ne 0 ] || [ -z "${UKICOPY:-}" ] ||
			KERNEL_INSTALL_LAYOUT="$layout" KERNEL_INSTALL_STAGING_AREA="$staging" \
				KERNEL_INSTALL_BOOT_ROOT="$BOOT" KERNEL_INSTALL_ENTRY_TOKEN="$MACHINE_ID" \
				"$UKICOPY" add "$version" "$BOOT/$MACHINE_ID/$version" "$image" || RC=$?
		rm -rf -- "$staging"
	fi
	printf 'layout=bls\n' >"$CONF/install.conf"
}

# kernel-install's option for KERNEL_INSTALL_VERBOSE=1 (which the direct call sets itself)
KI_V=-v
[ "$KI" != none ] || KI_V=""

img="$T/ki/src/vmlinuz-6.1.0-default"
cp -- "$KERNEL" "$img"
ki_add_after 6.1.0-default "$img"
check "default: kernel-install add exits 0" test "$RC" = 0
check "default: the packaged image is byte-identical (dpkg --verify, rpm -V stay quiet)" cmp -s "$img" "$KERNEL"
check "default: the entry's copy, which the boot loader reads, holds the CSV" \
	holds "$(installed 6.1.0-default)" "$CSV"
check "default: the message names the entry's copy" \
	logged "90-sbat-add.install: stored $CONF/sbat.csv in the .sbat section of $(installed 6.1.0-default)"

img="$T/ki/src/vmlinuz-6.1.0-other"
cp -- "$KERNEL" "$img"
ki_add_after 6.1.0-other "$img" other
check "layout other (the loader reads the packaged file): exits 0" test "$RC" = 0
check "layout other: the packaged image is byte-identical" cmp -s "$img" "$KERNEL"
check "layout other: nothing to do by design, so nothing is printed" quiet
KERNEL_INSTALL_VERBOSE=1 ki_add_after 6.1.0-other "$img" other "$KI_V"
check "layout other, kernel-install -v: the message says why and names edit=image" \
	eval 'test "$RC" = 0 && logged "reads $img itself" && logged "edit=image in $CONF/sbat-add.conf"'

printf '# edit the packaged image too\nedit = image\n' >"$CONF/sbat-add.conf"
img="$T/ki/src/vmlinuz-6.1.0-image"
cp -- "$KERNEL" "$img"
ki_add_after 6.1.0-image "$img"
check "edit=image after 90-loaderentry: exits 0" test "$RC" = 0
check "edit=image: the packaged image and the entry's copy both hold the CSV" \
	eval 'holds "$img" "$CSV" && holds "$(installed 6.1.0-image)" "$CSV"'
printf 'edit=everything\n' >"$CONF/sbat-add.conf"
img="$T/ki/src/vmlinuz-6.1.0-badconf"
cp -- "$KERNEL" "$img"
ki_add_after 6.1.0-badconf "$img"
check "edit=everything: the installation goes on (exit 0) with a message naming sbat-add.conf" \
	eval 'test "$RC" = 0 && logged "sbat-add.conf: edit=everything: expected edit=boot-copy or edit=image" &&
		logged "kernel 6.1.0-badconf is installed as it came"'
check "edit=everything: the image is byte-identical" cmp -s "$img" "$KERNEL"
rm -f -- "$CONF/sbat-add.conf"

# an invalid CSV stops the installation in the default mode too
cp -- "$FIXTURES_SRC/csv/invalid/generation-zero.csv" "$CONF/sbat.csv"
img="$T/ki/src/vmlinuz-6.1.0-badcsv2"
cp -- "$KERNEL" "$img"
ki_add_after 6.1.0-badcsv2 "$img"
check "default, invalid sbat.csv: kernel-install add exits 0, sbat-add names the line" \
	eval 'test "$RC" = 0 && logged "sbat-add: $CONF/sbat.csv:2: " && logged "is not a valid SBAT CSV"'
check "default, invalid sbat.csv: the entry's copy is byte-identical" cmp -s "$(installed 6.1.0-badcsv2)" "$KERNEL"
check "default, invalid sbat.csv: the packaged image is byte-identical" cmp -s "$img" "$KERNEL"
cp -- "$CSV" "$CONF/sbat.csv"

# KERNEL_INSTALL_VERBOSE that is not a number is taken as 0, without a shell error
img="$T/ki/src/vmlinuz-6.1.0-verbose"
cp -- "$KERNEL" "$img"
mkdir -p "$BOOT/$MACHINE_ID/6.1.0-verbose"
RC=0
SBAT_ADD_CSV="$T/no-such.csv" KERNEL_INSTALL_VERBOSE=abc KERNEL_INSTALL_CONF_ROOT="$CONF" \
	"$PLUGIN90" add 6.1.0-verbose "$BOOT/$MACHINE_ID/6.1.0-verbose" "$img" >"$T/log" 2>&1 || RC=$?
check "KERNEL_INSTALL_VERBOSE=abc: exits 0 and prints nothing (no shell error)" \
	eval 'test "$RC" = 0 && test ! -s "$T/log"'

# a target that cannot be written (read-only /usr, ostree): said, and the installation goes on
cat >"$T/ro-sbat-add" <<EOS
#!/bin/sh
case " \$* " in
*" --file "*) echo "sbat-add: \$2: cannot create a temporary file: Read-only file system" >&2; exit 1 ;;
esac
exec "$SBAT_ADD" "\$@"
EOS
chmod 0755 -- "$T/ro-sbat-add"
img="$T/ki/src/vmlinuz-6.1.0-ro"
cp -- "$KERNEL" "$img"
SBAT_ADD="$T/ro-sbat-add" ki_add_after 6.1.0-ro "$img"
check "read-only target: kernel-install add exits 0" test "$RC" = 0
check "read-only target: the message says it is on a read-only file system and the kernel goes without the CSV" \
	logged "$(installed 6.1.0-ro) is on a read-only file system: kernel 6.1.0-ro is installed without $CONF/sbat.csv"

# a target sbat-add may not write (EACCES, EPERM) is not a read-only file
# system: the installation stops, the message names the file and the reason
for reason in 'Permission denied' 'Operation not permitted'; do
	cat >"$T/denied-sbat-add" <<EOS
#!/bin/sh
case " \$* " in
*" --file "*) echo "sbat-add: \$2: cannot create a temporary file next to it: $reason" >&2; exit 1 ;;
esac
exec "$SBAT_ADD" "\$@"
EOS
	chmod 0755 -- "$T/denied-sbat-add"
	img="$T/ki/src/vmlinuz-6.1.0-denied"
	cp -- "$KERNEL" "$img"
	SBAT_ADD="$T/denied-sbat-add" ki_add_after 6.1.0-denied "$img"
	check "target not writable ($reason): kernel-install add fails" test "$RC" -ne 0
	check "target not writable ($reason): the message names the file and the reason, not a read-only file system" \
		eval 'logged "$(installed 6.1.0-denied) cannot be written ($reason" && ! logged "read-only file system"'
	check "target not writable ($reason): the packaged image is byte-identical" cmp -s "$img" "$KERNEL"
done

# ------------------------------------------------------------- layout uki

# kernel-install's layout=uki: 60-ukify.install builds the UKI from
# KERNEL_IMAGE in the staging area before this plugin, 90-uki-copy.install
# installs it after; stand-ins for both, named as systemd names them
UKIFY="$T/ki/plugins/60-ukify.install"
UKICOPY="$T/ki/plugins/90-uki-copy.install"
cat >"$UKIFY" <<EOS
#!/bin/sh
[ "\$1" = add ] && [ "\$KERNEL_INSTALL_LAYOUT" = uki ] || exit 0
cp -- "$UKI" "\$KERNEL_INSTALL_STAGING_AREA/uki.efi"
EOS
cat >"$UKICOPY" <<'EOS'
#!/bin/sh
[ "$1" = add ] && [ "$KERNEL_INSTALL_LAYOUT" = uki ] || exit 0
src=$KERNEL_INSTALL_STAGING_AREA/uki.efi
[ -f "$src" ] || src=$4
mkdir -p "$KERNEL_INSTALL_BOOT_ROOT/EFI/Linux"
cp -- "$src" "$KERNEL_INSTALL_BOOT_ROOT/EFI/Linux/$KERNEL_INSTALL_ENTRY_TOKEN-$2.efi"
EOS
chmod 0755 -- "$UKIFY" "$UKICOPY"
check "the plugin sorts after 60-ukify.install and 90-loaderentry.install, before 90-uki-copy.install" \
	test "$(printf '%s\n' 90-uki-copy.install "${KERNEL_INSTALL_PLUGIN##*/}" 90-loaderentry.install 60-ukify.install |
		LC_ALL=C sort | tr '\n' ' ')" = "60-ukify.install 90-loaderentry.install ${KERNEL_INSTALL_PLUGIN##*/} 90-uki-copy.install "

# installed_uki VERSION: the UKI the boot loader reads
installed_uki() {
	printf '%s\n' "$BOOT/EFI/Linux/$MACHINE_ID-$1.efi"
}
# a system with ukify (systemd 254 and later): a stand-in on PATH
mkdir -p "$T/ukify-bin"
printf '#!/bin/sh\nexit 0\n' >"$T/ukify-bin/ukify"
chmod 0755 -- "$T/ukify-bin/ukify"
NO_UKIFY_PATH=$PATH
PATH="$T/ukify-bin:$PATH"
img="$T/ki/src/vmlinuz-6.1.0-ukify"
cp -- "$KERNEL" "$img"
ki_add_after 6.1.0-ukify "$img" uki
check "layout uki (ukify): kernel-install add exits 0" test "$RC" = 0
check "layout uki (ukify): one line says the UKI is not edited and how ukify adds the CSV" \
	eval 'said_once && logged "layout=uki: " && logged "SBAT=@$CONF/sbat.csv"'
check "layout uki (ukify): the kernel image and the installed UKI are byte-identical" \
	eval 'cmp -s "$img" "$KERNEL" && cmp -s "$(installed_uki 6.1.0-ukify)" "$UKI"'
printf 'edit=image\n' >"$CONF/sbat-add.conf"
ki_add_after 6.1.0-ukify "$img" uki
check "layout uki, edit=image: exits 0, one line, the kernel image (ukify's input, already read) byte-identical" \
	eval 'test "$RC" = 0 && said_once && logged "layout=uki: " && cmp -s "$img" "$KERNEL"'
rm -f -- "$CONF/sbat-add.conf"
# ukify told to add the CSV (SBAT= in uki.conf): nothing left to say
printf '[UKI]\nSBAT = @%s\n' "$CONF/sbat.csv" >"$CONF/uki.conf"
ki_add_after 6.1.0-ukify "$img" uki
check "layout uki, uki.conf has SBAT=@sbat.csv: exits 0 and prints nothing" eval 'test "$RC" = 0 && quiet'
KERNEL_INSTALL_VERBOSE=1 ki_add_after 6.1.0-ukify "$img" uki "$KI_V"
check "layout uki, uki.conf has SBAT=@sbat.csv, verbose: says ukify adds it" \
	eval 'test "$RC" = 0 && logged "layout=uki: ukify adds $CONF/sbat.csv"'
rm -f -- "$CONF/uki.conf"
img="$T/ki/src/vmlinuz-6.1.0-givenuki.efi"
cp -- "$UKI" "$img"
UKIFY="" ki_add_after 6.1.0-givenuki "$img" uki
check "layout uki, KERNEL_IMAGE a UKI: exits 0, one line says it is left alone" \
	eval 'test "$RC" = 0 && said_once && logged "$img is a unified kernel image"'
check "layout uki, KERNEL_IMAGE a UKI: it is installed byte-identical" \
	eval 'cmp -s "$img" "$UKI" && cmp -s "$(installed_uki 6.1.0-givenuki)" "$UKI"'
# no ukify here (systemd 252, as Debian 12 has): the message names no
# ukify setting, and says where the CSV goes instead
PATH=$NO_UKIFY_PATH
if command -v ukify >/dev/null 2>&1 || [ -e /usr/lib/systemd/ukify ]; then
	skip "layout uki without ukify" "this system has ukify"
else
	img="$T/ki/src/vmlinuz-6.1.0-noukify"
	cp -- "$KERNEL" "$img"
	UKIFY="" ki_add_after 6.1.0-noukify "$img" uki
	check "layout uki, no ukify: exits 0, one line that names no ukify setting and says where the CSV goes" \
		eval 'test "$RC" = 0 && said_once && logged "layout=uki: " && logged "there is no ukify here" && ! logged "SBAT=@" &&
			logged "sbat-add --file UKI --csv @$CONF/sbat.csv --merge"'
	check "layout uki, no ukify: the kernel image is byte-identical" cmp -s "$img" "$KERNEL"
fi
# another UKI generator than ukify (uki_generator= in install.conf)
img="$T/ki/src/vmlinuz-6.1.0-othergen"
cp -- "$KERNEL" "$img"
mkdir -p "$BOOT/$MACHINE_ID/6.1.0-othergen"
RC=0
KERNEL_INSTALL_LAYOUT=uki KERNEL_INSTALL_UKI_GENERATOR=mkosi KERNEL_INSTALL_CONF_ROOT="$CONF" \
	KERNEL_INSTALL_BOOT_ROOT="$BOOT" KERNEL_INSTALL_VERBOSE=0 \
	"$PLUGIN90" add 6.1.0-othergen "$BOOT/$MACHINE_ID/6.1.0-othergen" "$img" >"$T/log" 2>&1 || RC=$?
check "layout uki, UKI generator mkosi: exits 0, one line naming the generator and no ukify setting" \
	eval 'test "$RC" = 0 && said_once && logged "layout=uki: " && logged "the UKI generator mkosi builds that UKI" && ! logged "SBAT=@"'
UKIFY="" UKICOPY=""

# the plugin run before 90-loaderentry.install in the default mode: there
# is no copy to edit yet, which is said
img="$T/ki/src/vmlinuz-6.1.0-early"
cp -- "$KERNEL" "$img"
SBAT_ADD_EDIT=boot-copy ki_add 6.1.0-early "$img"
check "layout bls, plugin before 90-loaderentry.install: exits 0, one line says the kernel goes without the CSV" \
	eval 'test "$RC" = 0 && said_once && logged "this plugin must sort after 90-loaderentry.install"'
check "layout bls, plugin before 90-loaderentry.install: the packaged image is byte-identical" cmp -s "$img" "$KERNEL"

# the Debian hook: /boot/vmlinuz-VERSION is dpkg's, and GRUB reads it itself
export SBAT_ADD_CSV="$T/sbat.csv"
img="$T/boot/vmlinuz-6.1.0-hook-default"
cp -- "$KERNEL" "$img"
postinst 6.1.0-hook-default "$img"
check "hook, default: exits 0" test "$RC" = 0
check "hook, default: the packaged image is byte-identical (dpkg --verify stays quiet)" cmp -s "$img" "$KERNEL"
check "hook, default: nothing to do by design (GRUB reads the packaged file), so nothing is printed" quiet
SBAT_ADD_VERBOSE=1 postinst 6.1.0-hook-default "$img"
check "hook, default, SBAT_ADD_VERBOSE=1: the message says how to choose editing it" \
	eval 'test "$RC" = 0 && logged "50-sbat-add: the boot loader reads $img itself" && logged "edit=image"'
export SBAT_ADD_CONF="$T/sbat-add.conf"
printf 'verbose = yes\n' >"$SBAT_ADD_CONF"
postinst 6.1.0-hook-default "$img"
check "hook, default, verbose=yes in sbat-add.conf: the message says how to choose editing it" \
	eval 'test "$RC" = 0 && logged "50-sbat-add: the boot loader reads $img itself"'
printf 'verbose=loud\n' >"$SBAT_ADD_CONF"
postinst 6.1.0-hook-default "$img"
check "hook, verbose=loud in sbat-add.conf: the installation goes on with a message naming it" \
	eval 'test "$RC" = 0 && logged "sbat-add.conf: verbose=loud: expected verbose=yes or verbose=no"'
rm -f -- "$SBAT_ADD_CONF"
check "hook, default: the packaged image is still byte-identical" cmp -s "$img" "$KERNEL"

# an immutable file (chattr +i) cannot be written, even by root: the hook
# says why and stops the installation (edit=image: /boot/vmlinuz is edited)
img="$T/boot/vmlinuz-6.1.0-immutable"
cp -- "$KERNEL" "$img"
if [ "$(id -u)" = 0 ] && chattr +i -- "$img" 2>/dev/null; then
	SBAT_ADD_EDIT=image postinst 6.1.0-immutable "$img"
	chattr -i -- "$img"
	check "hook, immutable kernel (chattr +i): exits non-zero" test "$RC" -ne 0
	check "hook, immutable kernel: the message names the file and the reason" \
		eval 'logged "50-sbat-add: $img cannot be written (Operation not permitted" && ! logged "read-only file system"'
	check "hook, immutable kernel: the image is byte-identical" cmp -s "$img" "$KERNEL"
else
	skip "hook, immutable kernel (chattr +i)" "not root, or the file system has no immutable attribute"
fi

finish
