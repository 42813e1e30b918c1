#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# check-readme.sh - README's first apt-get line installs everything the
# test suite looks for: each tool a test script probes with "command -v"
# (and the completion and kernel-hook packages it needs) maps to a Debian
# package that must be on that line, so "meson test" after the quick start
# runs every check instead of quietly skipping some. A tool with no entry
# in the map below fails too: add it here and to README.
#
# usage: check-readme.sh SRCDIR. Output: TAP.
set -u
src=${1:?usage: check-readme.sh SRCDIR}
. "$(dirname "$0")/../lib/tap.sh"

# the Debian 12 package of each tool the tests probe for
declare -A package=(
	[flock]=util-linux [kernel-install]=systemd [run-parts]=debianutils
	[llvm-objcopy]=llvm [objcopy]=binutils [man]=man-db [mandoc]=mandoc
	[mkfs.vfat]=dosfstools [openssl]=openssl [perl]=perl [pkg-config]=pkg-config
	[python3]=python3 [sbsign]=sbsigntool [sbverify]=sbsigntool [setfacl]=acl
	[setfattr]=attr [zsh]=zsh [mkfs.ext4]=e2fsprogs [setpriv]=util-linux [strace]=strace
	[abidiff]=abigail-tools [abidw]=abigail-tools [nm]=binutils [readelf]=binutils
)

apt=$(grep -m1 -E '^(sudo )?apt-get install' "$src/README.md")
check "README has an apt-get install line" test -n "$apt"
# the line must be on README's first screen (its first 30 lines)
check "... on its first screen" test "$(grep -n -m1 -E '^(sudo )?apt-get install' "$src/README.md" | cut -d: -f1)" -le 30
has() {
	[[ " $apt " == *" $1 "* ]]
}

mapfile -t tools < <(grep -rhoE 'command -v [a-z0-9_.+-]+' "$src/tests/cli" "$src/tests/trust" \
	"$src/tests/example" "$src/tests/unit" "$src/tests/abi" | awk '{ print $3 }' | LC_ALL=C sort -u)
for tool in "${tools[@]}"; do
	pkg=${package[$tool]:-}
	if [ -z "$pkg" ]; then
		not_ok "the tests probe for $tool: its package is not known to check-readme.sh"
	else
		check "the tests probe for $tool: README installs $pkg" has "$pkg"
	fi
done
# what the completion test and the installed-tree tests need beyond command -v
for pkg in bash-completion zsh libcmocka-dev meson ninja-build gcc; do
	check "README installs $pkg" has "$pkg"
done
tap_finish
