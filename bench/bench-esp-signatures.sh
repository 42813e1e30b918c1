#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# bench-esp-signatures.sh - time `sbat-add --check-level next --signatures`
# judging a Debian ESP's boot path against sha256sum over the same files.
#
# Not a test: meson and CI never run it. See bench/README.md.
#
# Usage: bench/bench-esp-signatures.sh [--runs N] [--sbat-add PATH] [--before PATH] [--corpus DIR]
#
# Builds an ESP as Debian installs one: shim 16.1 (shim-unsigned, signed
# here by a key put into db), Debian's signed GRUB and kernel from the
# corpus cache of tests/integration/fetch-corpus.sh (DIR, default
# $SBAT_CORPUS_DIR or ~/.cache/sbat-add-corpus), a grub.cfg; and a UEFI
# variable snapshot: Secure Boot on, Boot0001 for the shim, db with the
# key's certificate, a dbx of 430 SHA-256 hashes as large as Microsoft's.
# Warms the page cache, then runs each command N times, interleaved:
# `sbat-add --check-level next --signatures` (every stage's Authenticode
# hash by the firmware's and shim's rules, every signature against db,
# dbx, MokListRT and MokListXRT, and SBAT; the default), the same with
# --no-signatures, the same with signatures and `--event-log` (the next
# boot's PCRs predicted from the firmware event log of an OVMF boot through
# shim in tests/fixtures/eventlog: PCR 4 made again from every stage's
# Authenticode hash in each bank, PCR 7 from the variables; the log is not
# this ESP's, so most events differ, but each is computed), and `sha256sum`
# of shim, GRUB and the kernel. Prints the median wall times, the ratios
# (the median of the per-round ratios, lowest..highest round) and the peak
# RSS. --before PATH: another sbat-add build timed in the same rounds.

set -u
export LC_ALL=C

runs=9
sbat_add=""
before=""
corpus=${SBAT_CORPUS_DIR:-$HOME/.cache/sbat-add-corpus}

usage() {
	sed -n '4,29s/^# \{0,1\}//p' "$0"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--runs) runs="${2:?--runs needs a number}"; shift 2 ;;
	--sbat-add) sbat_add="${2:?--sbat-add needs a path}"; shift 2 ;;
	--before) before="${2:?--before needs a path}"; shift 2 ;;
	--corpus) corpus="${2:?--corpus needs a directory}"; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) echo "bench-esp-signatures.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
	esac
done
case "$runs" in
'' | *[!0-9]*) echo "bench-esp-signatures.sh: --runs takes a positive number" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
if [ -z "$sbat_add" ]; then
	sbat_add=${SBAT_ADD:-$here/../build/sbat-add}
fi
[ -x "$sbat_add" ] || { echo "bench-esp-signatures.sh: no sbat-add at $sbat_add (build it, or --sbat-add PATH)" >&2; exit 1; }
for tool in sha256sum bc openssl sbsign python3; do
	command -v "$tool" >/dev/null 2>&1 || { echo "bench-esp-signatures.sh: $tool is needed" >&2; exit 1; }
done
x=$corpus/extract
shim=$(ls "$x"/shim-unsigned_*_amd64/usr/lib/shim/shimx64.efi 2>/dev/null | tail -n 1)
grub=$(ls "$x"/grub-efi-amd64-signed_*/usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed 2>/dev/null | tail -n 1)
kernel=$(ls "$x"/linux-image-*-amd64_*_amd64/boot/vmlinuz-* 2>/dev/null | tail -n 1)
[ -n "$shim" ] && [ -n "$grub" ] && [ -n "$kernel" ] || {
	echo "bench-esp-signatures.sh: shim-unsigned, grub-efi-amd64-signed and a signed amd64 kernel are needed in $x" >&2
	echo "  (run tests/integration/fetch-corpus.sh, or give --corpus DIR)" >&2
	exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/sbat-bench-esp.XXXXXX") || exit 1
trap 'rm -rf -- "$work"' EXIT
trap 'exit 130' INT TERM

esp=$work/esp
ev=$work/efivars
mkdir -p "$esp/EFI/debian" "$ev"
openssl req -new -x509 -newkey rsa:2048 -nodes -days 30 -subj '/CN=Benchmark Secure Boot CA/O=Example Org' \
	-keyout "$work/key.pem" -out "$work/cert.pem" >/dev/null 2>&1 &&
	openssl x509 -in "$work/cert.pem" -outform DER -out "$work/cert.der" &&
	sbsign --key "$work/key.pem" --cert "$work/cert.pem" --output "$esp/EFI/debian/shimx64.efi" "$shim" \
		>/dev/null 2>&1 || { echo "bench-esp-signatures.sh: cannot sign shim" >&2; exit 1; }
cp "$grub" "$esp/EFI/debian/grubx64.efi"
cp "$kernel" "$esp/vmlinuz"
printf 'set default=0\nset timeout=0\nmenuentry "Debian GNU/Linux" {\n\tlinux /vmlinuz root=/dev/sda2 ro quiet\n}\n' \
	>"$esp/EFI/debian/grub.cfg"

# the variables, as efivarfs shows them: 4 attribute bytes, then the data
python3 - "$ev" "$work/cert.der" <<'PY'
import os, struct, sys, uuid
ev, der = sys.argv[1], open(sys.argv[2], "rb").read()
glob, sec = "8be4df61-93ca-11d2-aa0d-00e098032b8c", "d719b2cb-3d3a-4596-a3bc-dad00e67656f"
owner = uuid.UUID("77fa9abd-0359-4d32-bd60-28f4e78f784b").bytes_le
def put(name, guid, attrs, data):
    open(os.path.join(ev, "%s-%s" % (name, guid)), "wb").write(struct.pack("<I", attrs) + data)
def esl(kind, entries):
    size = 16 + len(entries[0])
    return uuid.UUID(kind).bytes_le + struct.pack("<III", 28 + size * len(entries), 0, size) + \
        b"".join(owner + e for e in entries)
path = "\\EFI\\debian\\shimx64.efi"
node = struct.pack("<BBH", 4, 4, 4 + 2 * (len(path) + 1)) + (path + "\0").encode("utf-16-le")
dp = node + b"\x7f\xff\x04\x00"
desc = "debian\0".encode("utf-16-le")
put("Boot0001", glob, 7, struct.pack("<IH", 1, len(dp)) + desc + dp)
put("BootOrder", glob, 7, struct.pack("<H", 1))
put("SecureBoot", glob, 6, b"\x01")
put("SetupMode", glob, 6, b"\x00")
put("db", sec, 0x27, esl("a5c059a1-94e4-4aa7-87b5-ab155c2bf072", [der]))
put("dbx", sec, 0x27, esl("c1c41626-504c-4092-aca9-41f936934328", [os.urandom(32) for _ in range(430)]))
PY

run_walk() { env SBAT_ADD_EFIVARFS="$ev" "$sbat_add" --check-level next --esp "$esp" "$@"; }
run_walk --signatures >"$work/walk.txt" 2>&1
grep -q 'stage 3 .*vmlinuz.*signature accepted' "$work/walk.txt" || {
	echo "bench-esp-signatures.sh: the walk did not judge the kernel's signature:" >&2
	cat "$work/walk.txt" >&2
	exit 1
}
files="$esp/EFI/debian/shimx64.efi $esp/EFI/debian/grubx64.efi $esp/vmlinuz"
# shellcheck disable=SC2086
bytes=$(cat $files | wc -c)
echo "ESP: shim, GRUB and the kernel ($((bytes / 1024)) KiB), $runs runs each, the page cache warm"
sed 's/^/  /' "$work/walk.txt"

log=$here/../tests/fixtures/eventlog/ovmf-shim/binary_bios_measurements
tools=(signatures sbat-only sha256sum)
declare -A cmd=(
	[signatures]="env SBAT_ADD_EFIVARFS=$ev $sbat_add --check-level next --esp $esp --signatures"
	[sbat-only]="env SBAT_ADD_EFIVARFS=$ev $sbat_add --check-level next --esp $esp --no-signatures"
	[sha256sum]="sha256sum $files"
)
if [ -f "$log" ] && env SBAT_ADD_EFIVARFS="$ev" "$sbat_add" --check-level next --esp "$esp" --signatures \
	--event-log "$log" >/dev/null 2>&1; then
	tools+=(event-log)
	cmd[event-log]="env SBAT_ADD_EFIVARFS=$ev $sbat_add --check-level next --esp $esp --signatures --event-log $log"
else
	echo "bench-esp-signatures.sh: no event log fixture at $log, or the prediction fails: that row is left out" >&2
fi
if [ -n "$before" ]; then
	tools+=(before-signatures)
	cmd[before-signatures]="env SBAT_ADD_EFIVARFS=$ev $before --check-level next --esp $esp --signatures"
	if [ -n "${cmd[event-log]:-}" ] && env SBAT_ADD_EFIVARFS="$ev" "$before" --check-level next --esp "$esp" \
		--signatures --event-log "$log" >/dev/null 2>&1; then
		tools+=(before-event-log)
		cmd[before-event-log]="${cmd[event-log]/$sbat_add/$before}"
	fi
fi
bench_run "$runs"
bench_table
pair() {
	local r
	read -r -a r <<<"$(bench_pair "$1" "$2")"
	printf '%-44s %5s (%s..%s)  %s\n' "$3" "${r[0]}" "${r[1]}" "${r[2]}" "$4"
}
pair signatures sha256sum "sbat-add --signatures / sha256sum:" "target at most 1.1"
pair sbat-only sha256sum "sbat-add --no-signatures / sha256sum:" "for scale"
[ -n "${cmd[event-log]:-}" ] &&
	pair event-log sha256sum "... with --event-log (prediction) / sha256sum:" "target at most 1.1"
[ -n "${cmd[before-signatures]:-}" ] && pair before-signatures sha256sum "(before) --signatures / sha256sum:" ""
[ -n "${cmd[before-event-log]:-}" ] && pair before-event-log sha256sum "(before) with --event-log / sha256sum:" ""
for t in signatures event-log; do
	[ -n "${rss[$t]:-}" ] && printf 'sbat-add %s peak RSS: %s KiB (target under 8192)\n' "$t" "${rss[$t]}"
done
exit 0
