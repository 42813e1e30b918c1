#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-installed.sh - install the build into a scratch root and use the
# library the way another project would: the example program compiled with
# pkg-config against the installed headers, linked with the installed
# library (the shared one, and the static one when default_library installs
# it), and run on a generated image; a C++ program likewise. Also checks
# that the libraries export nothing but sbat_* symbols (the shared one each
# in the LIBSBAT_0 version node or a later one), that the installed kinds are those
# default_library asks for, and that sbat-add links the installed library and
# runs from the build tree and from the install.
#
# Environment (set by meson): BUILD_ROOT, EXAMPLE, EXAMPLE_CXX, GEN_FIXTURES,
# CC, CXX (empty: no C++ compiler), DEFAULT_LIBRARY, PROJECT_VERSION, MAN_LIBSBAT (the built
# libsbat.3, whose example program is compiled and run too).
# Skipped (a TAP plan of 1..0) when no C compiler or pkg-config is there.
set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env BUILD_ROOT EXAMPLE GEN_FIXTURES PROJECT_VERSION
CC=${CC:-cc}
CXX=${CXX:-}
DEFAULT_LIBRARY=${DEFAULT_LIBRARY:-shared}
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
# the module is libsbat (libsbat.pc, the library's name, as a packager and
# meson's dependency('libsbat') look for it); sbat.pc, the name 0.1.0 and
# 0.2.0 shipped, stays for the programs built with it and gives the same flags
pc=$(find "$T/root" -name libsbat.pc | head -n1)
check "libsbat.pc is installed" quiet test -n "$pc"
[ -n "$pc" ] || pc=$(find "$T/root" -name sbat.pc | head -n1)
export PKG_CONFIG_SYSROOT_DIR="$T/root" PKG_CONFIG_PATH="$(dirname "$pc")"
libdir=$(dirname "$(dirname "$pc")")
check "the installed headers compile the example (C99, all warnings, pedantic)" quiet \
	sh -c "$CC -std=c99 -Wall -Wextra -Wpedantic -Werror $EXAMPLE \$(pkg-config --cflags --libs libsbat) -o $T/show-shared"
check "pkg-config libsbat: the installed version, the include directory and -lsbat" quiet \
	sh -c "test \"\$(pkg-config --modversion libsbat)\" = '$PROJECT_VERSION' &&
	pkg-config --cflags libsbat | grep -q -e '-I$T/root/[^ ]*/include' && pkg-config --libs libsbat | grep -q -e '-lsbat'"
check "sbat.pc, the module of 0.1.0 and 0.2.0, is still installed beside it" quiet test -f "$(dirname "$pc")/sbat.pc"
check "... and gives the flags libsbat gives" quiet \
	sh -c "test \"\$(pkg-config --cflags --libs sbat)\" = \"\$(pkg-config --cflags --libs libsbat)\" &&
	test \"\$(pkg-config --static --libs sbat)\" = \"\$(pkg-config --static --libs libsbat)\" &&
	test \"\$(pkg-config --modversion sbat)\" = '$PROJECT_VERSION'"
check "the example compiles with pkg-config sbat too" quiet \
	sh -c "$CC -std=c99 -Wall -Wextra -Wpedantic -Werror $EXAMPLE \$(pkg-config --cflags --libs sbat) -o $T/show-old-name"
# another meson project: dependency('libsbat') finds the installed library
mkdir -p "$T/user"
cp -- "$EXAMPLE" "$T/user/show.c"
printf '%s\n' "project('user', 'c')" "executable('show', 'show.c', dependencies : dependency('libsbat'))" >"$T/user/meson.build"
check "a meson project's dependency('libsbat') finds the installed library and builds the example" quiet \
	sh -c "CC='$CC' meson setup $T/user/build $T/user && ninja -C $T/user/build"
case $DEFAULT_LIBRARY in
shared) check "default_library=shared installs no static library" quiet test ! -e "$libdir/libsbat.a" ;;
static) check "default_library=static installs no shared library" quiet test ! -e "$libdir/libsbat.so" ;;
*) check "default_library=both installs both libraries" quiet test -e "$libdir/libsbat.so" -a -e "$libdir/libsbat.a" ;;
esac
if [ -e "$libdir/libsbat.so" ]; then
	check "libsbat.so has a versioned SONAME" quiet sh -c "readelf -d $libdir/libsbat.so | grep -q 'SONAME.*libsbat.so.0'"
	# (a single @: an older version kept for the programs built against it, sbat_edit_opts_init@LIBSBAT_0)
	check "libsbat.so exports only sbat_* symbols, each in a LIBSBAT_0 or later version node" quiet \
		sh -c "nm -D --defined-only $libdir/libsbat.so >$T/exports && grep -q '^[0-9a-f]* T sbat_strerror@@LIBSBAT_0\$' $T/exports &&
		test -z \"\$(awk '{print \$3}' $T/exports | grep -v -e '^sbat_[a-z0-9_]*@@\\{0,1\\}LIBSBAT_0[.0-9]*\$' -e '^LIBSBAT_0[.0-9]*\$')\""
fi
if [ -e "$libdir/libsbat.a" ]; then
	# the internal functions are named by module and hidden: they stay
	# global in an archive, but none is visible by default beside the exports
	# and the functions behind the versions of sbat_edit_opts_init,
	# sbat_boot_stage_init and sbat_boot_note_init (.symver)
	check "libsbat.a gives default visibility to its sbat_* exports only; the rest is hidden" quiet \
		sh -c "readelf -sW $libdir/libsbat.a >$T/static-syms 2>&1 && grep -q ' sbat_edit_fd\$' $T/static-syms &&
		test -z \"\$(awk '\$5 == \"GLOBAL\" && \$6 == \"DEFAULT\" && \$7 != \"UND\" {print \$8}' $T/static-syms |
			grep -v -e '^sbat_' -e '^edit_opts_init_0_[23]$' -e '^report_\(stage\|note\)_init_0_[34]$' -e '^__odr_asan[.]')\""
	check "the example links against the static library too" quiet \
		sh -c "$CC -std=c99 $EXAMPLE \$(pkg-config --cflags libsbat) $libdir/libsbat.a -o $T/show-static"
fi
"$GEN_FIXTURES" "$T/fx" >/dev/null
check "the installed-library example describes an image with .sbat" quiet \
	sh -c "LD_LIBRARY_PATH=$libdir $T/show-shared $T/fx/sbat-last.efi | grep -q '^  fxtest 1\$'"
if [ -e "$libdir/libsbat.a" ]; then
	check "the static example reports an image without .sbat (exit 3)" quiet \
		sh -c "$T/show-static $T/fx/efi-x86_64.efi >/dev/null; test \$? -eq 3"
else
	check "the installed-library example reports an image without .sbat (exit 3)" quiet \
		sh -c "LD_LIBRARY_PATH=$libdir $T/show-shared $T/fx/efi-x86_64.efi >/dev/null; test \$? -eq 3"
fi

# the program of libsbat(3)'s EXAMPLES, as the page prints it: an edit in place
if [ -n "${MAN_LIBSBAT:-}" ]; then
	sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$MAN_LIBSBAT" | sed -n '/^\.EX$/,/^\.EE$/p' | sed '1d;$d' |
		sed -e 's/\\e/\\/g' -e 's/\\-/-/g' >"$T/add-sbat.c"
	check "libsbat(3) has an example program" quiet grep -q 'main(int argc' "$T/add-sbat.c"
	check "the example of libsbat(3) compiles against the installed library (C99, all warnings, pedantic)" quiet \
		sh -c "$CC -std=c99 -Wall -Wextra -Wpedantic -Werror $T/add-sbat.c \$(pkg-config --cflags --libs libsbat) -o $T/add-sbat"
	cp "$T/fx/efi-x86_64.efi" "$T/man-example.efi"
	check "... adds a .sbat in place" quiet \
		sh -c "LD_LIBRARY_PATH=$libdir $T/add-sbat $T/man-example.efi | grep -q ': insert\$' &&
		LD_LIBRARY_PATH=$libdir $T/show-shared $T/man-example.efi | grep -q '^  example 1\$'"
	check "... and leaves an image that has it unchanged" quiet \
		sh -c "LD_LIBRARY_PATH=$libdir $T/add-sbat $T/man-example.efi | grep -q ': unchanged\$'"
else
	skip "the example of libsbat(3)" "MAN_LIBSBAT is not set"
fi
# the command links the library it ships: the shared one (its sbat_*
# functions imported from libsbat.so.0, none of them built in twice) with a
# run path to the build tree that the install takes out, or, with
# default_library=static, the static one
cmd=$(find "$T/root" -path '*/bin/sbat-add' | head -n1)
check "sbat-add is installed" quiet test -n "$cmd"
readelf -d "$cmd" >"$T/dynamic" 2>&1
readelf --dyn-syms -W "$cmd" >"$T/dynsyms" 2>&1
if [ "$DEFAULT_LIBRARY" = static ]; then
	check "the installed sbat-add (default_library=static) needs no libsbat.so" quiet \
		sh -c "! grep -q 'NEEDED.*libsbat' $T/dynamic"
else
	check "the installed sbat-add needs libsbat.so.0" quiet grep -q 'NEEDED.*\[libsbat\.so\.0\]' "$T/dynamic"
	check "... and imports its sbat_* functions from it (undefined in sbat-add)" quiet \
		sh -c "grep -q ' UND sbat_strerror@LIBSBAT_0' $T/dynsyms && grep -q ' UND sbat_edit_fd@LIBSBAT_0' $T/dynsyms"
	check "... and defines none of them itself" quiet sh -c "! nm \"$cmd\" 2>/dev/null | grep -q ' [TtDdBbRr] sbat_'"
	check "... and has no run path into the build tree" quiet \
		sh -c "! grep -E '(RPATH|RUNPATH)' $T/dynamic | grep -q -F -e '$BUILD_ROOT' -e ORIGIN"
	check "the build tree's sbat-add has a run path to the build tree's library" quiet \
		sh -c "readelf -d $BUILD_ROOT/sbat-add | grep -q 'RUNPATH.*ORIGIN'"
fi
check "the build tree's sbat-add runs (no LD_LIBRARY_PATH)" quiet \
	sh -c "env -u LD_LIBRARY_PATH $BUILD_ROOT/sbat-add --print $T/fx/sbat-last.efi | grep -q '^fxtest,1,'"
check "the installed sbat-add runs with the installed library" quiet \
	sh -c "LD_LIBRARY_PATH=$libdir $cmd --print $T/fx/sbat-last.efi | grep -q '^fxtest,1,'"

# C++: the headers' extern "C" blocks make the names link
if [ -n "$CXX" ] && [ -n "${EXAMPLE_CXX:-}" ]; then
	check "a C++ program compiles against the installed headers and links the installed library (C++11, all warnings, pedantic)" quiet \
		sh -c "$CXX -std=c++11 -Wall -Wextra -Wpedantic -Werror $EXAMPLE_CXX \$(pkg-config --cflags --libs libsbat) -o $T/edit-cxx"
	check "the C++ program inserts a .sbat in memory and reads it back" quiet \
		sh -c "LD_LIBRARY_PATH=$libdir $T/edit-cxx $T/fx/efi-x86_64.efi >$T/cxx.out && grep -q ': insert (report version 2, library ' $T/cxx.out &&
		grep -q '^  example 1\$' $T/cxx.out && grep -q '^  sbat 1\$' $T/cxx.out"
else
	skip "a C++ program against the installed library: no C++ compiler"
fi

tap_finish
