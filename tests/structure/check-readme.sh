#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# check-readme.sh - README's first screen (everything before "## Why") is
# true. It has two apt-get lines, for root shells and containers (no sudo):
# the first installs what building and running the tool needs, the second
# what the tests add. Every package of both is in .ci/run's list. Each tool
# a test script probes with "command -v" (and the completion and
# kernel-hook packages it needs) maps to a Debian package that must be on
# one of the lines, so "meson test" after the quick start runs every check
# instead of quietly skipping some; a tool with no entry in the map below
# fails too: add it here and to README. The first screen says that a
# distribution's (signed) kernel is refused and what to do. With SBAT_ADD
# and GEN_FIXTURES (set by meson), the example command runs as written and
# its output names no image but the one it edits.
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
	[osslsigncode]=osslsigncode [python3]=python3 [sbsign]=sbsigntool [sbverify]=sbsigntool [setfacl]=acl
	[setfattr]=attr [zsh]=zsh [mkfs.ext4]=e2fsprogs [setpriv]=util-linux [strace]=strace
	[abidiff]=abigail-tools [abidw]=abigail-tools [nm]=binutils [readelf]=binutils [reuse]=reuse
)
# tools a test looks for to know that they are absent (its check skips where
# one is there): ukify, which Debian 12 does not have, for the kernel hooks'
# line on a system without it
absent_ok=(ukify)
# what meson.build needs to build the command and the library (the rest is optional)
build_needs=(meson ninja-build gcc libc6-dev)

first=$(sed -n '1,/^## Why/p' "$src/README.md")
mapfile -t apt_lines < <(printf '%s\n' "$first" | grep -E '^(sudo )?apt-get install')
check "README's first screen has two apt-get install lines (build, then tests)" test "${#apt_lines[@]}" -eq 2
check "... on its first 30 lines" test "$(grep -n -m1 -E '^(sudo )?apt-get install' "$src/README.md" | cut -d: -f1)" -le 30
check "... written for a root shell or container (no sudo on them)" \
	test -z "$(printf '%s\n' "${apt_lines[@]}" | grep '^sudo')"
check "... and the text says so (as root, or prefix sudo)" grep -q 'as root.*sudo' <<<"$(tr '\n' ' ' <<<"$first")"
# packages PKG...: the words of an apt-get line after its options
packages() {
	printf '%s\n' "$@" | sed -E 's/^(sudo )?apt-get install//' | tr ' ' '\n' | grep -v -e '^-' -e '^$'
}
mapfile -t build_list < <(packages "${apt_lines[0]:-}")
mapfile -t test_list < <(packages "${apt_lines[1]:-}")
apt=" ${build_list[*]} ${test_list[*]} "
has() {
	[[ "$apt" == *" $1 "* ]]
}
in_list() {
	local w=$1
	shift
	[[ " $* " == *" $w "* ]]
}

for pkg in "${build_needs[@]}"; do
	check "the build line installs $pkg" in_list "$pkg" "${build_list[@]}"
done
check "the build line installs only what the build needs (${build_needs[*]})" \
	test "${#build_list[@]}" -eq "${#build_needs[@]}"
# the packages .ci/run installs, from its apt-get install command (to the >/dev/null)
ci=" $(sed -n '/apt-get install/,/>\/dev\/null/p' "$src/.ci/run" | tr -d '\\' | tr -s ' \t\n' ' ') "
for pkg in "${build_list[@]}" "${test_list[@]}"; do
	check "README's $pkg is in .ci/run's apt-get list" test "${ci/ $pkg /}" != "$ci"
done

mapfile -t tools < <(grep -rhoE 'command -v [a-z0-9_.+-]+' "$src/tests/cli" "$src/tests/trust" \
	"$src/tests/example" "$src/tests/unit" "$src/tests/abi" "$src/tests/structure" | awk '{ print $3 }' | LC_ALL=C sort -u)
for tool in "${tools[@]}"; do
	pkg=${package[$tool]:-}
	if in_list "$tool" "${absent_ok[@]}"; then
		ok "the tests look for $tool to know it is absent: nothing to install"
	elif [ -z "$pkg" ]; then
		not_ok "the tests probe for $tool: its package is not known to check-readme.sh"
	else
		check "the tests probe for $tool: README installs $pkg" has "$pkg"
	fi
done
# what the completion test and the installed-tree tests need beyond command -v
for pkg in bash-completion zsh libcmocka-dev; do
	check "README installs $pkg for the tests" in_list "$pkg" "${test_list[@]}"
done

# a distribution's kernel is signed: the one-command example is refused there
check "the first screen says a distribution's kernel is signed" grep -qiw 'signed' <<<"$first"
check "... and to sign after adding .sbat (sbsign or pesign)" grep -qwE 'sbsign|pesign' <<<"$first"

# the example, run as written from a scratch directory that stands for the source tree
example=$(printf '%s\n' "$first" | grep -m1 'gen-fixtures')
check "the first screen has an example that makes images with gen-fixtures" test -n "$example"
if [ -z "${SBAT_ADD:-}" ] || [ -z "${GEN_FIXTURES:-}" ] || [ -z "$example" ]; then
	skip "the example runs" "SBAT_ADD and GEN_FIXTURES are not set (run through meson test)"
else
	T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-readme.XXXXXX") || exit 1
	trap 'rm -rf -- "$T"' EXIT
	mkdir -p "$T/build/tests/fixtures"
	ln -s "$SBAT_ADD" "$T/build/sbat-add"
	ln -s "$GEN_FIXTURES" "$T/build/tests/fixtures/gen-fixtures"
	ln -s "$src/tests" "$T/tests"
	tap_details() {
		sed 's/^/  /' "$T/out" | head -20
	}
	check "the example runs" sh -c "cd '$T' && { $example; } >'$T/out' 2>&1"
	check "... and prints the stored rows" grep -q '^sbat,1,' "$T/out"
	# the first file named is the one it edits; the generator wrote all of these
	edited=$(grep -oE 'build/examples/[^ ]+' <<<"$example" | head -n1)
	listed=0
	for f in "$T"/build/examples/*; do
		name=${f##*/}
		[ "build/examples/$name" = "$edited" ] && continue
		grep -qF "$name" "$T/out" && listed=$((listed + 1))
	done
	check "... and names no other example image ($listed named)" test "$listed" -eq 0
fi
tap_finish
