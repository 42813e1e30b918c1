#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# bench.sh - time sbat-add against cp and objcopy on large PE images.
#
# Not a test: meson and CI never run it. See bench/README.md.
#
# Usage: bench/bench.sh [--sizes "100 1000"] [--runs N] [--fs "here ext4 vfat"] [--sbat-add PATH]
#                       [--before PATH] [--no-pcr11] [--no-esp] [IMAGE...]
#
# For each file system and size (MiB) two images are generated with
# make-large-pe: CheckSum 0 and a real CheckSum (sbat-add must then recompute
# it, which reads every byte). IMAGE arguments replace the generated images.
# --fs: `here` is ${TMPDIR:-/tmp}; ext4, ext4-128 (128-byte inodes: times in
# whole seconds), xfs, btrfs and vfat are made on loop devices (root only;
# the default as root is "ext4 ext4-128 xfs btrfs vfat", else "here"; one
# whose mkfs is missing is skipped). Every tool runs once to warm the page
# cache and to see whether it works, then N rounds, each tool once per round,
# interleaved, with `sync` (untimed) before each run. Printed per tool: the
# median wall time, the median over the rounds of its ratio to cp, to
# cp+fsync (sbat-add fsyncs what it writes) and to llvm-objcopy in the same
# round, and the peak RSS over all runs; then the issue's summary: each
# target ratio with its lowest and highest round. --before PATH: another
# sbat-add build timed in the same rounds (rows before-*). Last, unless
# --no-pcr11, bench-pcr11.sh with the same --runs (and --before); then,
# unless --no-esp, bench-esp-signatures.sh (a Debian ESP judged with
# signatures and with the --event-log prediction against sha256sum; skipped
# when its corpus is missing).

set -u
export LC_ALL=C

sizes="100 1000"
runs=5
fs_list=""
sbat_add=""
before=""
pcr11=1
esp=1
images=()

usage() {
	sed -n '3,28s/^# \{0,1\}//p' "$0"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--sizes) sizes="${2:?--sizes needs a list}"; shift 2 ;;
	--runs) runs="${2:?--runs needs a number}"; shift 2 ;;
	--fs) fs_list="${2:?--fs needs a list}"; shift 2 ;;
	--sbat-add) sbat_add="${2:?--sbat-add needs a path}"; shift 2 ;;
	--before) before="${2:?--before needs a path}"; shift 2 ;;
	--no-pcr11) pcr11=0; shift ;;
	--no-esp) esp=0; shift ;;
	-h | --help) usage; exit 0 ;;
	--) shift; images+=("$@"); break ;;
	-*) echo "bench.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
	*) images+=("$1"); shift ;;
	esac
done
case "$runs" in
'' | *[!0-9]* | 0) echo "bench.sh: --runs takes a positive number" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$sbat_add" ]; then
	if [ -n "${SBAT_ADD:-}" ]; then
		sbat_add=$SBAT_ADD
	elif [ -x "$here/../build/sbat-add" ]; then
		sbat_add="$here/../build/sbat-add"
	else
		sbat_add=$(command -v sbat-add || true)
	fi
fi
if [ -z "$sbat_add" ] || [ ! -x "$sbat_add" ]; then
	echo "bench.sh: sbat-add not found; build it (meson setup build && ninja -C build)" \
		"or pass --sbat-add PATH" >&2
	exit 1
fi
sbat_add=$(cd "$(dirname "$sbat_add")" && pwd)/$(basename "$sbat_add")

TIME=/usr/bin/time
if [ ! -x "$TIME" ]; then
	echo "bench.sh: $TIME not found (install the 'time' package); peak RSS is not measured" >&2
	TIME=""
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sbat-bench.XXXXXX") || exit 1
trap 'rm -rf -- "$work"' EXIT # replaced by cleanup once file systems may be mounted
trap 'exit 130' INT TERM

# the SBAT CSV to insert: a typical kernel's
CSV="$work/linux.sbat"
cat >"$CSV" <<'EOF'
sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md
linux,1,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux
linux.debian,1,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux
EOF

if [ ${#images[@]} -eq 0 ]; then
	if ! cc -std=c99 -O2 -o "$work/make-large-pe" "$here/make-large-pe.c"; then
		echo "bench.sh: cannot compile make-large-pe.c" >&2
		exit 1
	fi
fi

# ------------------------------------------------------------------ tools

tools=(cp cp+fsync cp+fsync+mv cp-over sbat-add-output sbat-add-inplace sbat-add-inplace-settled sbat-add-nosync
	sbat-add-nosync-over)
if [ -n "$before" ]; then
	before=$(cd "$(dirname "$before")" && pwd)/$(basename "$before")
	tools+=(before-output before-nosync-over)
fi
command -v objcopy >/dev/null && tools+=(objcopy)
# the newest llvm-objcopy installed (Debian names them llvm-objcopy-N)
llvm_objcopy=""
for v in 21 20 19 18 17 16 15 14 ""; do
	if command -v "llvm-objcopy${v:+-$v}" >/dev/null; then
		llvm_objcopy="llvm-objcopy${v:+-$v}"
		break
	fi
done
[ -n "$llvm_objcopy" ] && tools+=(llvm-objcopy)
# from a source tree: the tool built without its content check, to time what that check costs
nocheck=""
if [ -f "$here/../meson.build" ] && command -v meson >/dev/null && command -v ninja >/dev/null; then
	if meson setup "$work/build-nocheck" "$here/.." -Dtests=disabled \
		-Dc_args=-DSBAT_BENCH_WITHOUT_CONTENT_CHECK >"$work/nocheck.log" 2>&1 &&
		ninja -C "$work/build-nocheck" sbat-add >>"$work/nocheck.log" 2>&1; then
		nocheck="$work/build-nocheck/sbat-add"
		tools+=(sbat-add-inplace-nocheck)
	else
		echo "bench.sh: cannot build sbat-add without the content check (see meson); that row is left out" >&2
	fi
fi

# prepare TOOL IMG OUT: untimed setup before a run. An in-place copy is dated
# an hour back: an image written in the last 50 ms gets the content check
# on any file system (its time stamps cannot yet tell a second write).
prepare() {
	rm -f -- "$3" "$3.new"
	case "$1" in
	*inplace* | *+mv | *-over) cp -- "$2" "$3" ;;
	esac
	case "$1" in
	*inplace*) touch -d "@$(($(date +%s) - 3600)).123456789" -- "$3" ;;
	esac
	sync
	# settled: the second of the copy's change time is over (as for an image not written just now), so
	# that on ext4 with whole-second times the time stamps show any later write and no content check is due
	case "$1" in
	*settled*) sleep "$(awk -v t="$EPOCHREALTIME" 'BEGIN { printf "%.3f", 1.08 - (t - int(t)) }')" ;;
	esac
}

# command_for TOOL IMG OUT: sets CMD to the command line to time
command_for() {
	case "$1" in
	cp | cp-over) CMD=(cp -- "$2" "$3") ;;
	cp+fsync) CMD=(sh -c 'cp -- "$1" "$2" && sync -- "$2"' sh "$2" "$3") ;;
	cp+fsync+mv) CMD=(sh -c 'cp -- "$1" "$1.new" && sync -- "$1.new" && mv -- "$1.new" "$1"' sh "$3") ;;
	sbat-add-output) CMD=("$sbat_add" --file "$2" --csv "$CSV" --output "$3") ;;
	sbat-add-inplace | sbat-add-inplace-settled) CMD=("$sbat_add" --file "$3" --csv "$CSV") ;;
	sbat-add-nosync | sbat-add-nosync-over) CMD=("$sbat_add" --no-sync --file "$2" --csv "$CSV" --output "$3") ;;
	before-output) CMD=("$before" --file "$2" --csv "$CSV" --output "$3") ;;
	before-nosync-over) CMD=("$before" --no-sync --file "$2" --csv "$CSV" --output "$3") ;;
	sbat-add-inplace-nocheck) CMD=("$nocheck" --file "$3" --csv "$CSV") ;;
	objcopy) CMD=(objcopy --add-section ".sbat=$CSV"
		--set-section-flags .sbat=contents,alloc,load,readonly,data "$2" "$3") ;;
	llvm-objcopy) CMD=("$llvm_objcopy" --add-section ".sbat=$CSV"
		--set-section-flags .sbat=alloc,load,readonly,data "$2" "$3") ;;
	esac
}

# now_us: wall clock in microseconds, without forking
now_us() {
	local t=${EPOCHREALTIME/[.,]/}
	printf '%s\n' "$t"
}

# timed TOOL IMG OUT: run once; sets WALL_US and RSS_KB, returns the exit status
timed() {
	local t0 t1 rc
	command_for "$@"
	t0=$(now_us)
	if [ -n "$TIME" ]; then
		"$TIME" -f %M -o "$work/rss" "${CMD[@]}" >/dev/null 2>"$work/err"
		rc=$?
	else
		"${CMD[@]}" >/dev/null 2>"$work/err"
		rc=$?
	fi
	t1=$(now_us)
	WALL_US=$((t1 - t0))
	RSS_KB=$( [ -n "$TIME" ] && tail -n 1 "$work/rss" || echo 0)
	return $rc
}

median() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) exit
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

results="$work/results"
checkcost="$work/checkcost"
summary="$work/summary"
: >"$results"
: >"$checkcost"
: >"$summary"
data="$work"

# bench_image LABEL CHECKSUM IMG: warm up, then RUNS interleaved rounds
bench_image() {
	local label="$1" ck="$2" img="$3" out="$data/out.efi" tool r i n ok_tools=() status
	declare -A walls=() round=() peak=() state=()

	echo "== $label, CheckSum $ck: $img ($(stat -c %s -- "$img") bytes)" >&2
	cat -- "$img" >/dev/null  # warm the page cache: the same for every tool
	for tool in "${tools[@]}"; do
		prepare "$tool" "$img" "$out"
		if timed "$tool" "$img" "$out"; then
			status=ok
			# sbat-add must be able to read back what it wrote
			if [[ "$tool" == sbat-add-* || "$tool" == before-* ]] &&
				! "$sbat_add" --print "$out" >/dev/null 2>"$work/err"; then
				status=unread
				echo "   $tool: exit 0, but --print of its output fails: $(head -c 300 "$work/err")" >&2
			fi
		else
			status="n/a"
			[[ "$tool" == sbat-add-* || "$tool" == before-* ]] && status=FAIL
			echo "   $tool: failed: $(head -c 300 "$work/err")" >&2
		fi
		state[$tool]=$status
		[ "$status" = ok ] || [ "$status" = unread ] && ok_tools+=("$tool")
	done
	n=${#ok_tools[@]}
	for ((r = 0; r < runs; r++)); do
		for ((i = 0; i < n; i++)); do
			tool=${ok_tools[$(((i + r) % n))]}  # rotate the order each round
			prepare "$tool" "$img" "$out"
			if timed "$tool" "$img" "$out"; then
				walls[$tool]="${walls[$tool]:-} $WALL_US"
				round[$tool]="${round[$tool]:-} $WALL_US"
				[ "$RSS_KB" -gt "${peak[$tool]:-0}" ] && peak[$tool]=$RSS_KB
			else
				state[$tool]=FAIL
				round[$tool]="${round[$tool]:-} -"
			fi
		done
		echo "   round $((r + 1))/$runs done" >&2
	done
	rm -f -- "$out"

	# the ratios: per round, against the baseline's run in the same round; their median
	local tool med
	for tool in "${tools[@]}"; do
		med=""
		[ -n "${walls[$tool]:-}" ] && med=$(printf '%s\n' ${walls[$tool]} | median)
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$ck" "$tool" "${state[$tool]}" \
			"${med:--}" "$(ratio "${round[$tool]:-}" "${round[cp]:-}")" \
			"$(ratio "${round[$tool]:-}" "${round[cp+fsync]:-}")" \
			"$(ratio "${round[$tool]:-}" "${round[llvm-objcopy]:-}")" "${peak[$tool]:-0}" >>"$results"
		[ -n "$med" ] && echo "   $tool:${walls[$tool]} us" >&2
	done
	# the issue's ratios, each with its lowest and highest round
	summary_line "$label" "$ck" "--no-sync --output over a file / cp over it" sbat-add-nosync-over cp-over
	summary_line "$label" "$ck" "(before)" before-nosync-over cp-over
	summary_line "$label" "$ck" "durable --output / cp + sync" sbat-add-output cp+fsync
	summary_line "$label" "$ck" "(before)" before-output cp+fsync
	summary_line "$label" "$ck" "in place / cp + sync + mv" sbat-add-inplace cp+fsync+mv
	summary_line "$label" "$ck" "content check: in place / without it" sbat-add-inplace sbat-add-inplace-nocheck
	summary_line "$label" "$ck" "(image not changed this second)" sbat-add-inplace-settled sbat-add-inplace-nocheck
	# what the content check costs: in place with it against without it, round by round
	if [ -n "${round[sbat-add-inplace-nocheck]:-}" ]; then
		printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$ck" "$(ratio "${round[sbat-add-inplace]:-}" \
			"${round[sbat-add-inplace-nocheck]}")" \
			"$(printf '%s\n' ${walls[sbat-add-inplace]:-} | median)" \
			"$(printf '%s\n' ${walls[sbat-add-inplace-nocheck]:-} | median)" >>"$checkcost"
	fi
}

# summary_line LABEL CK WHAT TOOL BASE: WHAT, the median, lowest and highest of TOOL's ratio to BASE by round
summary_line() {
	local spread
	[ -n "${round[$4]:-}" ] && [ -n "${round[$5]:-}" ] || return 0
	spread=$(paste <(printf '%s\n' ${round[$4]}) <(printf '%s\n' ${round[$5]}) |
		awk '$1 != "-" && $2 != "-" && $2 > 0 { print $1 / $2 }' | sort -g |
		awk '{ v[NR] = $1 } END { if (NR) printf "%.2f (%.2f..%.2f)", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }')
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${spread:--}" >>"$summary"
}

# ratio "T1 T2 ..." "B1 B2 ...": the median of Ti/Bi over the rounds both ran in, or -
ratio() {
	[ -n "$1" ] && [ -n "$2" ] || { echo -; return; }
	paste <(printf '%s\n' $1) <(printf '%s\n' $2) |
		awk '$1 != "-" && $2 != "-" && $2 > 0 { print $1 / $2 }' | median | awk '{ printf "%.2f\n", $1 } END { if (NR == 0) print "-" }'
}

# free_mib: free space in the data directory
free_mib() {
	df -Pk -- "$data" | awk 'NR == 2 { print int($4 / 1024) }'
}

echo "sbat-add: $("$sbat_add" --version) ($sbat_add)" >&2
echo "work dir: $work ($(stat -f -c %T -- "$work"), $(free_mib) MiB free); kernel $(uname -r); $(nproc) CPUs" >&2
echo "runs: $runs per tool, interleaved, after one warm-up run (page cache warm, not dropped)" >&2

if [ -z "$fs_list" ]; then
	fs_list=here
	if [ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null && command -v mkfs.vfat >/dev/null; then
		fs_list="ext4 ext4-128 xfs btrfs vfat"
	fi
fi

mounted=()
cleanup() {
	local m
	for m in "${mounted[@]}"; do umount -- "$m" 2>/dev/null; done
	rm -rf -- "$work"
}
trap cleanup EXIT

# use_fs FS: point data at a directory on FS (made on a loop device unless `here`); 1 when it cannot
use_fs() {
	local fs=$1 biggest=0 mb dev="$work/$1.img" mnt="$work/mnt-$1"
	data="$work"
	[ "$fs" = here ] && return 0
	if [ "$(id -u)" != 0 ]; then
		echo "== $fs: skipped, a loop file system needs root" >&2
		return 1
	fi
	for mb in $sizes; do [ "$mb" -gt "$biggest" ] && biggest=$mb; done
	[ ${#images[@]} -gt 0 ] && biggest=$(($(du -cm -- "${images[@]}" | tail -n 1 | cut -f 1) + 1))
	truncate -s $((3 * biggest + 256))M -- "$dev" && mkdir -p -- "$mnt" || return 1
	case "$fs" in
	ext4) mkfs.ext4 -q -F -- "$dev" ;;
	ext4-128) mkfs.ext4 -q -F -I 128 -- "$dev" >/dev/null 2>&1 ;;
	xfs) command -v mkfs.xfs >/dev/null && mkfs.xfs -q -f -- "$dev" ;;
	btrfs) command -v mkfs.btrfs >/dev/null && mkfs.btrfs -q -f -- "$dev" >/dev/null ;;
	vfat) mkfs.vfat -F 32 -- "$dev" >/dev/null ;;
	*) echo "bench.sh: unknown file system $fs (here, ext4, ext4-128, xfs, btrfs, vfat)" >&2; return 1 ;;
	esac || { echo "== $fs: skipped, mkfs failed" >&2; return 1; }
	mount -o loop -- "$dev" "$mnt" || { echo "== $fs: skipped, cannot mount it" >&2; return 1; }
	mounted+=("$mnt")
	data="$mnt"
}

# done_fs FS: unmount what use_fs mounted
done_fs() {
	[ "$data" = "$work" ] && return 0
	umount -- "$data" && rm -f -- "$work/$1.img"
	data="$work"
}

for fs in $fs_list; do
	use_fs "$fs" || continue
	tag=$fs
	[ "$fs" = here ] && tag=$(stat -f -c %T -- "$data" | tr -d '/')
	echo "== file system: $fs ($data)" >&2
	if [ ${#images[@]} -gt 0 ]; then
		for img in "${images[@]}"; do
			ck=$(od -An -tx4 -j $(( $(od -An -tu4 -j 60 -N 4 -- "$img") + 88 )) -N 4 -- "$img" | tr -d ' ')
			cp -- "$img" "$data/$(basename -- "$img")"
			bench_image "$tag:$(basename -- "$img")" "0x$ck" "$data/$(basename -- "$img")"
			rm -f -- "$data/$(basename -- "$img")"
		done
	else
		for mb in $sizes; do
			need=$((3 * mb))
			if [ "$(free_mib)" -lt "$need" ]; then
				echo "== ${mb} MiB: skipped, needs $need MiB free in $data, $(free_mib) MiB available" >&2
				printf '%s\t-\tall\tskipped (disk space)\t-\t-\t-\t-\t0\n' "$tag:${mb}MiB" >>"$results"
				continue
			fi
			for ck in 0 real; do
				img="$data/large-${mb}.efi"
				if [ "$ck" = real ]; then
					"$work/make-large-pe" "$img" "$mb" --checksum >/dev/null || exit 1
				else
					"$work/make-large-pe" "$img" "$mb" >/dev/null || exit 1
				fi
				bench_image "$tag:${mb}MiB" "$ck" "$img"
				rm -f -- "$img"
			done
		done
	fi
	done_fs "$fs"
done

# ------------------------------------------------------------------ table

echo
fmt='%-18s %-8s %-24s %-6s %9s %6s %9s %9s %8s\n'
printf "$fmt" image CheckSum tool status "median s" "x cp" "x cp+sync" "x llvm-oc" "RSS MiB"
printf "$fmt" ------- -------- ---- ------ -------- ---- --------- --------- -------
while IFS=$'\t' read -r label ck tool status med r_cp r_sync r_llvm rss; do
	if [ "$med" = - ]; then
		printf "$fmt" "$label" "$ck" "$tool" "$status" - - - - -
	else
		printf "$fmt" "$label" "$ck" "$tool" "$status" "$(awk -v m="$med" 'BEGIN { printf "%.3f", m / 1e6 }')" \
			"$r_cp" "$r_sync" "$r_llvm" "$(awk -v r="$rss" 'BEGIN { printf "%.1f", r / 1024 }')"
	fi
done <"$results"
# what the content check costs: in place with it against in place without it
while IFS=$'\t' read -r label ck r with without; do
	awk -v l="$label" -v c="$ck" -v r="$r" -v a="$with" -v b="$without" 'BEGIN {
		printf "content check, %s (CheckSum %s): in place %.3f s, without the check %.3f s: %s x (median of the rounds)\n",
			l, c, a / 1e6, b / 1e6, r }'
done <"$checkcost"
echo
echo "the issue's ratios (median of the per-round ratios, lowest..highest round):"
while IFS=$'\t' read -r label ck what r; do
	printf '%-18s %-5s %-42s %s\n' "$label" "$ck" "$what" "$r"
done <"$summary"
echo "targets: --no-sync over a file <= 1.1 x cp over it in every round; durable <= 1.0 x cp + sync;"
echo "the content check where it is taken <= 1.05."
echo
echo "status: ok; unread = exit 0 but sbat-add --print cannot read the output back;"
echo "n/a = the tool refused this image; FAIL = sbat-add failed."
echo "llvm-oc: $( [ -n "$llvm_objcopy" ] && "$llvm_objcopy" --version | sed -n 's/.*LLVM version /LLVM /p' | head -n 1 || echo none)."
echo "Targets: sbat-add-nosync <= 1.0 x llvm-objcopy and <= 1.2 x cp;"
echo "sbat-add-output and -inplace (durable) <= 1.0 x cp+sync; peak RSS <= 8 MiB;"
echo "the content check (sbat-add-inplace against sbat-add-inplace-nocheck) <= 10 %."
if [ "$pcr11" = 1 ]; then
	echo
	echo "== PCR 11 and the Authenticode hash of a 250 MiB UKI (bench-pcr11.sh):"
	"$here/bench-pcr11.sh" --runs "$runs" --sbat-add "$sbat_add" ${before:+--before "$before"}
fi
if [ "$esp" = 1 ]; then
	echo
	echo "== a Debian ESP judged with signatures, and the --event-log prediction (bench-esp-signatures.sh):"
	"$here/bench-esp-signatures.sh" --runs "$((runs < 9 ? 9 : runs))" --sbat-add "$sbat_add" ${before:+--before "$before"} ||
		echo "(skipped: see above)"
fi
