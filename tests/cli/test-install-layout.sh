#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-install-layout.sh - what meson install puts where, as a packager
# finds it: the command, its manual pages, the kernel hooks under the names
# kernel-install and run-parts sort, the completions in directories bash
# and zsh search, and README, NEWS and an example sbat.csv under the
# documentation directory.
#
# Environment (set by meson): BUILD_ROOT, SBAT_ADD. Optional: ZSH (default
# zsh from $PATH) to ask zsh for its search path.
# Output: TAP.
set -u

for var in BUILD_ROOT SBAT_ADD; do
	[ -n "${!var:-}" ] || { echo "test-install-layout.sh: $var is not set (run through 'meson test')" >&2; exit 1; }
done
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-layout.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
tap_details() {
	sed 's/^/  /' "$T/log" | head -20
}

if ! meson install -C "$BUILD_ROOT" --no-rebuild --quiet --destdir "$T/root" >"$T/log" 2>&1; then
	not_ok "meson install into a scratch root" "$(head -c 600 "$T/log")"
	tap_finish
	exit 1
fi
ok "meson install into a scratch root"
(cd "$T/root" && find . -type f -o -type l | sed 's|^\.||' | sort) >"$T/files"
cp -- "$T/files" "$T/log"
prefix=$(dirname "$(dirname "$(grep -m1 '/bin/sbat-add$' "$T/files")")")

# installed PATTERN: one installed file matches the extended regular expression
installed() {
	grep -qE -- "$1" "$T/files"
}
check "the command is in PREFIX/bin" installed "^$prefix/bin/sbat-add\$"
check "the manual page is installed" installed "/man/man1/sbat-add\\.1\$"
check "the boot rules' manual page is installed in section 7" installed "/man/man7/sbat-add-boot\\.7\$"
check "the library's manual page is installed in section 3" installed "/man/man3/libsbat\\.3\$"
check "the kernel-install plugin sorts after 90-loaderentry.install: 90-sbat-add.install" \
	installed "/kernel/install\\.d/90-sbat-add\\.install\$"
check "the Debian kernel hook is postinst.d/50-sbat-add" installed "/kernel/postinst\\.d/50-sbat-add\$"
doc="$prefix/share/doc/sbat-add"
check "README.md is in the documentation directory" installed "^$doc/README\\.md\$"
check "NEWS is in the documentation directory" installed "^$doc/NEWS\$"
check "an example sbat.csv is in the documentation directory" installed "^$doc/examples/sbat\\.csv\$"
if [ -f "$T/root$doc/examples/sbat.csv" ]; then
	"$SBAT_ADD" --check-level "$(dirname "$0")/../fixtures/level/debian-shim-16.1-latest.txt" \
		--csv "$T/root$doc/examples/sbat.csv" >"$T/log" 2>&1
	check "the example sbat.csv is valid and not revoked" test "$?" -eq 0
else
	not_ok "the example sbat.csv is valid and not revoked"
fi

zdir=$(grep -E '/_sbat-add$' "$T/files" | head -n 1)
zdir=${zdir%/_sbat-add}
check "the zsh completion is installed" test -n "$zdir"
case "$zdir" in
*/zsh/site-functions | */zsh/vendor-completions) ok "the zsh completion directory is one zsh uses ($zdir)" ;;
*) not_ok "the zsh completion directory is one zsh uses" "installed in '$zdir'" ;;
esac
ZSH=${ZSH:-$(command -v zsh || true)}
if [ -n "$ZSH" ]; then
	"$ZSH" -fc 'print -l $fpath' >"$T/log" 2>&1
	check "zsh searches $zdir" grep -qxF -- "$zdir" "$T/log"
else
	skip "no zsh to ask for its search path"
fi

tap_finish
