#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# run-fuzz.sh - build the libFuzzer harnesses with clang and run them for a fixed time
#
# Usage: tests/fuzz/run-fuzz.sh DURATION_SECONDS BUILDDIR
#
# Configures BUILDDIR with clang and -Dfuzz=enabled (reconfigures it if it
# exists), builds the harnesses and runs them one after the other (see the
# split below). Each works on a copy of its committed corpus (tests/fuzz/corpus/NAME) kept in
# BUILDDIR/fuzz-work, so the inputs found there accumulate across runs
# without touching the source tree. The executions and new inputs of each
# run are printed at the end.
#
# A crash, leak, timeout or out-of-memory reproducer is copied to
# tests/fuzz/crashes/NAME/ in the source tree, where the fuzz-replay-NAME
# unit tests replay it, and the script exits 1. Replay one by hand with
#   BUILDDIR/tests/fuzz/fuzz-NAME tests/fuzz/crashes/NAME/crash-...
# (or replay-NAME from any build).
#
# Debian 12 packages: clang (the `clang` command, from clang-14) and
# libclang-rt-14-dev, which holds the libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer runtimes (-fsanitize=fuzzer links its
# libclang_rt.fuzzer-x86_64.a; clang-14 only recommends it, so an install
# with --no-install-recommends must name it), plus meson and ninja-build.
# libfuzzer-14-dev, the stand-alone libFuzzer.a for -lFuzzer, is not needed.
# Set CC to use another clang (e.g. CC=clang-14).
set -euo pipefail

usage() {
	echo "usage: $0 DURATION_SECONDS BUILDDIR" >&2
	exit 2
}

[ $# -eq 2 ] || usage
duration=$1
builddir=$2
case $duration in
'' | *[!0-9]*) usage ;;
esac
# each of the fifteen harnesses sharing the last third gets at least a second (0 would run for ever)
[ "$duration" -ge 43 ] || { echo "$0: DURATION_SECONDS must be at least 43" >&2; exit 2; }

srcdir=$(cd "$(dirname "$0")/../.." && pwd)
fuzzdir=$srcdir/tests/fuzz

if [ -f "$builddir/build.ninja" ]; then
	meson setup --reconfigure "$builddir" "$srcdir" -Dfuzz=enabled -Db_lundef=false
else
	CC=${CC:-clang} meson setup "$builddir" "$srcdir" -Dfuzz=enabled -Db_lundef=false \
		-Dtests=disabled -Dintegration=disabled
fi
ninja -C "$builddir" tests/fuzz/fuzz-edit tests/fuzz/fuzz-edit-fd tests/fuzz/fuzz-csv tests/fuzz/fuzz-loadopt \
	tests/fuzz/fuzz-uki tests/fuzz/fuzz-bootcfg tests/fuzz/fuzz-lint tests/fuzz/fuzz-sigdb tests/fuzz/fuzz-authenticode \
	tests/fuzz/fuzz-fallback tests/fuzz/fuzz-sdboot tests/fuzz/fuzz-partition tests/fuzz/fuzz-grubcore tests/fuzz/fuzz-rsa \
	tests/fuzz/fuzz-eventlog tests/fuzz/fuzz-authvar tests/fuzz/fuzz-luks

builddir=$(cd "$builddir" && pwd)
work=$builddir/fuzz-work
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# fuzz-fallback, fuzz-sdboot and fuzz-partition write a small tree under
# TMPDIR for every input: in memory they run about twice as fast
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	export TMPDIR=/dev/shm
fi

found=0
summary=()

# run_one NAME SECONDS [SEEDS]: fuzz fuzz-NAME from corpus SEEDS (default NAME), then report and keep any reproducer
run_one() {
	local name=$1 seconds=$2 seeds=${3:-$1} corpus=$work/corpus-$1 artifacts=$work/artifacts-$1 log=$work/$1.log
	local rc=0 execs units f kept=0

	mkdir -p "$corpus" "$artifacts" "$fuzzdir/crashes/$name"
	cp "$fuzzdir/corpus/$seeds"/* "$corpus"/
	rm -f "$artifacts"/*
	echo "== fuzz-$name: ${seconds}s on $(find "$corpus" -type f | wc -l) inputs"
	"$builddir/tests/fuzz/fuzz-$name" "$corpus" \
		-max_total_time="$seconds" -max_len=131072 -dict="$fuzzdir/sbat.dict" \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$artifacts/" >"$log" 2>&1 || rc=$?

	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
	units=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -n1)
	grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n1 || true
	for f in "$artifacts"/crash-* "$artifacts"/leak-* "$artifacts"/timeout-* "$artifacts"/oom-*; do
		[ -e "$f" ] || continue
		cp "$f" "$fuzzdir/crashes/$name/"
		echo "fuzz-$name: reproducer saved as tests/fuzz/crashes/$name/$(basename "$f")"
		kept=$((kept + 1))
	done
	if [ "$rc" != 0 ] || [ "$kept" != 0 ]; then
		echo "fuzz-$name: FAILED (exit status $rc); the report:"
		grep -E -A40 '^==[0-9]+==ERROR|invariant violated|runtime error|^SUMMARY' "$log" | head -n 80 || true
		found=1
	fi
	summary+=("fuzz-$name: ${execs:-?} executions in ${seconds}s, ${units:-0} new inputs, $kept reproducers (exit status $rc)")
}

# the same total as ever: a third each for the two edit harnesses, the rest
# shared by the CSV parser, the EFI load option and device path parser,
# the UKI reader, the boot loader configuration parsers, the lint with its
# profiles, the signature database reader, the Authenticode reader, shim
# fallback's BOOT CSV, systemd-boot's menu, EDK2's File() path opening and
# GRUB's core image with its memdisk, RSA signature verification, the TCG
# event log, the check of authenticated variable updates and the LUKS2
# header with its JSON
third=$((duration / 3))
rest=$((duration - 2 * third))
share=$((rest / 15))
run_one edit "$third"
run_one edit-fd "$third" edit
run_one csv $((rest - 14 * share))
run_one loadopt "$share"
run_one uki "$share"
run_one bootcfg "$share"
run_one lint "$share" edit
run_one sigdb "$share"
run_one authenticode "$share"
run_one fallback "$share"
run_one sdboot "$share"
run_one partition "$share"
run_one grubcore "$share"
run_one rsa "$share"
run_one eventlog "$share"
run_one authvar "$share"
run_one luks "$share"

echo "== summary"
printf '%s\n' "${summary[@]}"
if [ "$found" != 0 ]; then
	echo "fuzzing found a problem: see the reports above and tests/fuzz/crashes/"
	exit 1
fi
echo "no crash found"
