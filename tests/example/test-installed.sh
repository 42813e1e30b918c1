#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-installed.sh - install the build into a scratch root and use the
# library the way another project would: the example program compiled with
# pkg-config against the installed headers, linked once with the shared and
# once with the static library, and run on a generated image. Also checks
# that both libraries export nothing but sbat_* symbols.
#
# Environment (set by meson): BUILD_ROOT, EXAMPLE, GEN_FIXTURES, CC.
# Skipped (a TAP plan of 1..0) when no C compiler or pkg-config is there.
set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env BUILD_ROOT EXAMPLE GEN_FIXTURES
CC=${CC:-cc}
command -v "${CC%% *}" >/dev/null 2>&1 || skip_all "no C compiler"
command -v pkg-config >/dev/null 2>&1 || skip_all "no pkg-config"

T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-installed.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
tap_details() {
	sed 's/^/  /' "$T/log" | head -20
}
# quiet COMMAND...: its output goes to the log that tap_details shows
quiet() {
	"$@" >"$T/log" 2>&1
}
check "meson install into a scratch root" quiet meson install -C "$BUILD_ROOT" --no-rebuild --quiet --destdir "$T/root"
pc=$(find "$T/root" -name sbat.pc | head -n1)
check "sbat.pc is installed" quiet test -n "$pc"
export PKG_CONFIG_SYSROOT_DIR="$T/root" PKG_CONFIG_PATH="$(dirname "$pc")"
libdir=$(dirname "$(dirname "$pc")")
check "the installed headers compile the example (C99, all warnings, pedantic)" quiet \
	sh -c "$CC -std=c99 -Wall -Wextra -Wpedantic -Werror $EXAMPLE \$(pkg-config --cflags --libs sbat) -o $T/show-shared"
check "libsbat.so has a versioned SONAME" quiet sh -c "readelf -d $libdir/libsbat.so | grep -q 'SONAME.*libsbat.so.0'"
check "libsbat.so exports only sbat_* symbols" quiet \
	sh -c "test -z \"\$(nm -D --defined-only $libdir/libsbat.so | awk '{print \$3}' | grep -v '^sbat_')\""
# (AddressSanitizer adds an __odr_asan.NAME marker for each global variable)
check "libsbat.a defines only sbat_* global symbols" quiet \
	sh -c "test -z \"\$(nm -g --defined-only $libdir/libsbat.a 2>/dev/null | awk 'NF == 3 {print \$3}' | grep -v '^sbat_' | grep -v '^__odr_asan[.]sbat_')\""
check "the example links against the static library too" quiet \
	sh -c "$CC -std=c99 $EXAMPLE \$(pkg-config --cflags sbat) $libdir/libsbat.a -o $T/show-static"
"$GEN_FIXTURES" "$T/fx" >/dev/null
check "the shared-library example describes an image with .sbat" quiet \
	sh -c "LD_LIBRARY_PATH=$libdir $T/show-shared $T/fx/sbat-last.efi | grep -q '^  fxtest 1\$'"
check "the static example reports an image without .sbat (exit 3)" quiet \
	sh -c "$T/show-static $T/fx/efi-x86_64.efi >/dev/null; test \$? -eq 3"

tap_finish
