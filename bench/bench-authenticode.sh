#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# bench-authenticode.sh - time what sbat-add --print says about a large
# signed image's signatures against sha256sum over the same file.
#
# Not a test: meson and CI never run it. See bench/README.md.
#
# Usage: bench/bench-authenticode.sh [--size MiB] [--runs N] [--sbat-add PATH] [IMAGE]
#
# Generates a PE32+ EFI application of --size MiB (make-large-pe.c) and
# signs it with sbsign, or osslsigncode, and a key and certificate made by
# openssl, unless a signed IMAGE is given; warms the page cache, then runs
# each command N times, interleaved: `sbat-add --print IMAGE` (its
# Authenticode SHA-256, every signature read and compared with it),
# `sbat-add --print --json IMAGE`, `sha256sum IMAGE` and, when installed,
# `openssl dgst -sha256 IMAGE`. Prints the median wall times, the ratios
# and the peak RSS.

set -u
export LC_ALL=C

size=250
runs=5
sbat_add=""
image=""

usage() {
	sed -n '4,18s/^# \{0,1\}//p' "$0"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--size) size="${2:?--size needs a number of MiB}"; shift 2 ;;
	--runs) runs="${2:?--runs needs a number}"; shift 2 ;;
	--sbat-add) sbat_add="${2:?--sbat-add needs a path}"; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	-*) echo "bench-authenticode.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
	*) image=$1; shift ;;
	esac
done
case "$runs$size" in
*[!0-9]*) echo "bench-authenticode.sh: --runs and --size take positive numbers" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
if [ -z "$sbat_add" ]; then
	sbat_add=${SBAT_ADD:-$here/../build/sbat-add}
fi
[ -x "$sbat_add" ] || { echo "bench-authenticode.sh: no sbat-add at $sbat_add (build it, or --sbat-add PATH)" >&2; exit 1; }
for tool in sha256sum bc; do
	command -v "$tool" >/dev/null 2>&1 || { echo "bench-authenticode.sh: $tool is needed" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/sbat-bench-authenticode.XXXXXX") || exit 1
trap 'rm -rf -- "$work"' EXIT
trap 'exit 130' INT TERM

# sign IN OUT: with sbsign, else osslsigncode, and a fresh self-signed key
sign() {
	openssl req -new -x509 -newkey rsa:2048 -nodes -days 30 -subj '/CN=Benchmark Signer/O=Example Org' \
		-keyout "$work/key.pem" -out "$work/cert.pem" >/dev/null 2>&1 ||
		{ echo "bench-authenticode.sh: openssl could not make a key" >&2; return 1; }
	if command -v sbsign >/dev/null 2>&1; then
		sbsign --key "$work/key.pem" --cert "$work/cert.pem" --output "$2" "$1" >/dev/null 2>&1 && return 0
	fi
	if command -v osslsigncode >/dev/null 2>&1; then
		osslsigncode sign -certs "$work/cert.pem" -key "$work/key.pem" -h sha256 -in "$1" -out "$2" \
			>/dev/null 2>&1 && return 0
	fi
	echo "bench-authenticode.sh: neither sbsign nor osslsigncode could sign (give a signed IMAGE)" >&2
	return 1
}

if [ -z "$image" ]; then
	command -v cc >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1 ||
		{ echo "bench-authenticode.sh: cc and openssl are needed to make an image (or give a signed IMAGE)" >&2; exit 1; }
	cc -std=c99 -O2 -o "$work/make-large-pe" "$here/make-large-pe.c" ||
		{ echo "bench-authenticode.sh: cannot compile make-large-pe.c" >&2; exit 1; }
	"$work/make-large-pe" "$work/unsigned.efi" "$size" >/dev/null || exit 1
	image=$work/large-signed.efi
	sign "$work/unsigned.efi" "$image" || exit 1
	rm -f -- "$work/unsigned.efi"
fi
bytes=$(stat -c %s "$image")
echo "image: $image ($((bytes / 1024 / 1024)) MiB), $runs runs each, the page cache warm"
"$sbat_add" --print "$image" >/dev/null 2>"$work/sigs.txt"
grep -q ': Authenticode SHA-256 [0-9a-f]\{64\}, [1-9]' "$work/sigs.txt" ||
	{ echo "bench-authenticode.sh: sbat-add lists no signature: not signed?" >&2; cat "$work/sigs.txt" >&2; exit 1; }
grep -q 'no longer covers' "$work/sigs.txt" && echo "note: a signature no longer covers the image"
cat "$image" >/dev/null

tools=(print print-json sha256sum)
declare -A cmd=(
	[print]="$sbat_add --print $image"
	[print-json]="$sbat_add --print --json $image"
	[sha256sum]="sha256sum $image"
	[openssl]="openssl dgst -sha256 $image"
)
command -v openssl >/dev/null 2>&1 && tools+=(openssl)
bench_run "$runs"

bench_table
for t in print print-json; do
	printf 'sbat-add --%s / sha256sum: %.2f (target at most 1.1)\n' "${t/-/ --}" \
		"$(bench_ratio "$t" sha256sum)"
	[ -n "${med[openssl]:-}" ] && printf 'sbat-add --%s / openssl dgst -sha256: %.2f (for scale)\n' "${t/-/ --}" \
		"$(bench_ratio "$t" openssl)"
done
for t in print print-json; do
	[ -n "${rss[$t]:-}" ] && printf 'sbat-add --%s peak RSS: %s KiB (target under 8192)\n' "${t/-/ --}" "${rss[$t]}"
done
exit 0
