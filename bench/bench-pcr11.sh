#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# bench-pcr11.sh - time the PCR 11 prediction of a large UKI against
# sha256sum and openssl dgst -sha256 over the same file.
#
# Not a test: meson and CI never run it. See bench/README.md.
#
# Usage: bench/bench-pcr11.sh [--size MiB] [--runs N] [--sbat-add PATH] [--before PATH] [UKI]
#
# Generates a UKI (systemd-stub's .sdmagic, a .linux of --size MiB of
# pseudo-random bytes, small .osrel, .cmdline, .uname, .sbat, .initrd)
# unless one is given, warms the page cache, then runs each command N
# times, interleaved: `sbat-add --print --json UKI` (which predicts PCR 11
# of every phase, SHA-256 bank, and computes the Authenticode hash),
# `sha256sum UKI`, `openssl dgst -sha256 UKI`, and with --before the same
# `--print --json` of another sbat-add build. Prints the median wall times,
# the per-round ratios (median, lowest, highest) and the peak RSS.

set -u
export LC_ALL=C

size=250
runs=5
sbat_add=""
before=""
uki=""

usage() {
	sed -n '3,18s/^# \{0,1\}//p' "$0"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--size) size="${2:?--size needs a number of MiB}"; shift 2 ;;
	--runs) runs="${2:?--runs needs a number}"; shift 2 ;;
	--sbat-add) sbat_add="${2:?--sbat-add needs a path}"; shift 2 ;;
	--before) before="${2:?--before needs a path}"; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	-*) echo "bench-pcr11.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
	*) uki=$1; shift ;;
	esac
done
case "$runs$size" in
*[!0-9]*) echo "bench-pcr11.sh: --runs and --size take positive numbers" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
if [ -z "$sbat_add" ]; then
	sbat_add=${SBAT_ADD:-$here/../build/sbat-add}
fi
[ -x "$sbat_add" ] || { echo "bench-pcr11.sh: no sbat-add at $sbat_add (build it, or --sbat-add PATH)" >&2; exit 1; }
for tool in python3 sha256sum openssl; do
	command -v "$tool" >/dev/null 2>&1 || { echo "bench-pcr11.sh: $tool is needed" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/sbat-bench-pcr11.XXXXXX") || exit 1
trap 'rm -rf -- "$work"' EXIT
trap 'exit 130' INT TERM

if [ -z "$uki" ]; then
	uki=$work/large-uki.efi
	python3 - "$uki" "$size" <<'EOF' || exit 1
import random, struct, sys

path, mib = sys.argv[1], int(sys.argv[2])
FA, SA = 0x200, 0x1000
rng = random.Random(11)
small = [
    (".text", b"\xc3" * 0x200),
    (".sbat", b"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
              b"systemd-stub,1,The systemd Developers,systemd,257,https://systemd.io/\n"),
    (".sdmagic", b"#### LoaderInfo: systemd-stub 257.9-1 ####\0"),
    (".osrel", b"ID=bench\n"), (".cmdline", b"root=/dev/vda1 ro"), (".uname", b"6.12.0-bench"),
]
linux_size = mib * 1024 * 1024
tail = [(".initrd", b"070701 bench initrd")]
names = [n for n, _ in small] + [".linux"] + [n for n, _ in tail]
sizes = [len(d) for _, d in small] + [linux_size] + [len(d) for _, d in tail]
align = lambda v, a: (v + a - 1) // a * a
n = len(names)
soh = align(0x80 + 24 + 240 + 40 * n, FA)
table, ptr, va = b"", soh, SA
for name, sz in zip(names, sizes):
    raw = align(sz, FA)
    table += name.encode().ljust(8, b"\0") + struct.pack("<IIIIIIHHI", sz, va, raw, ptr, 0, 0, 0, 0, 0x40000040)
    ptr += raw
    va += align(sz, SA)
dos = bytearray(0x80); dos[0:2] = b"MZ"; struct.pack_into("<I", dos, 0x3c, 0x80)
coff = b"PE\0\0" + struct.pack("<HHIIIHH", 0x8664, n, 0, 0, 0, 240, 0x22)
opt = bytearray(240)
struct.pack_into("<H", opt, 0, 0x20b); struct.pack_into("<I", opt, 16, SA); struct.pack_into("<Q", opt, 24, 0x140000000)
struct.pack_into("<II", opt, 32, SA, FA); struct.pack_into("<II", opt, 56, va, soh)
struct.pack_into("<H", opt, 68, 10); struct.pack_into("<I", opt, 108, 16)
with open(path, "wb") as f:
    head = bytes(dos) + coff + bytes(opt) + table
    f.write(head + bytes(soh - len(head)))
    for name, data in small:
        f.write(data + bytes(align(len(data), FA) - len(data)))
    left = linux_size
    while left:
        k = min(left, 1 << 22)
        f.write(rng.randbytes(k))
        left -= k
    for name, data in tail:
        f.write(data + bytes(align(len(data), FA) - len(data)))
EOF
fi
bytes=$(stat -c %s "$uki")
echo "UKI: $uki ($((bytes / 1024 / 1024)) MiB), $runs runs each, the page cache warm"
"$sbat_add" --print --json "$uki" >"$work/out.json" || { echo "bench-pcr11.sh: sbat-add --print --json failed" >&2; exit 1; }
grep -q '"enter-initrd:leave-initrd:sysinit:ready": "[0-9a-f]\{64\}"' "$work/out.json" ||
	{ echo "bench-pcr11.sh: no PCR 11 prediction in the output: not a UKI?" >&2; exit 1; }
cat "$uki" >/dev/null

tools=(sbat-add sha256sum openssl)
declare -A cmd=(
	[sbat-add]="$sbat_add --print --json $uki"
	[sha256sum]="sha256sum $uki"
	[openssl]="openssl dgst -sha256 $uki"
)
if [ -n "$before" ]; then
	tools+=(before)
	cmd[before]="$before --print --json $uki"
fi
bench_run "$runs"

bench_table
# pair A B TARGET: A's time over B's, per round
pair() {
	local r
	read -r -a r <<<"$(bench_pair "$1" "$2")"
	printf '%-30s %5s   (%s..%s)  %s\n' "$1 / $2" "${r[0]}" "${r[1]}" "${r[2]}" "$3"
}
echo "ratio (median of the per-round ratios, lowest..highest)"
pair sbat-add openssl "target at most 1.0"
pair sbat-add sha256sum "target at most 0.3"
if [ -n "$before" ]; then
	pair before openssl "(before)"
	pair before sha256sum "(before)"
	pair sbat-add before "(after / before)"
fi
[ -n "${rss[sbat-add]:-}" ] && printf 'sbat-add peak RSS: %s KiB (target under 8192)\n' "${rss[sbat-add]}"
