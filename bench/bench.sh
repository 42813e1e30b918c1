#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# bench.sh - time sbat-add against cp and objcopy on large PE images.
#
# Not a test: meson and CI never run it. See bench/README.md.
#
# Usage: bench/bench.sh [--sizes "100 1000"] [--runs N] [--sbat-add PATH] [IMAGE...]
#
# For each size (MiB) two images are generated with make-large-pe: CheckSum 0
# and a real CheckSum (sbat-add must then recompute it, which reads every
# byte). IMAGE arguments replace the generated images. Every tool runs once
# to warm the page cache and to see whether it works, then N times,
# interleaved, with `sync` (untimed) before each run. Printed per tool: the
# median wall time, its ratio to cp and to cp+fsync (cp, then fsync of the
# copy: sbat-add fsyncs what it writes), and the peak RSS over all runs.

set -u
export LC_ALL=C

sizes="100 1000"
runs=5
sbat_add=""
images=()

usage() {
	sed -n '3,16s/^# \{0,1\}//p' "$0"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--sizes) sizes="${2:?--sizes needs a list}"; shift 2 ;;
	--runs) runs="${2:?--runs needs a number}"; shift 2 ;;
	--sbat-add) sbat_add="${2:?--sbat-add needs a path}"; shift 2 ;;
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
trap 'rm -rf -- "$work"' EXIT
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

tools=(cp cp+fsync cp+fsync+mv sbat-add-output sbat-add-inplace sbat-add-nosync)
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

# prepare TOOL IMG OUT: untimed setup before a run
prepare() {
	rm -f -- "$3" "$3.new"
	case "$1" in
	*inplace* | *+mv) cp -- "$2" "$3" ;;
	esac
	sync
}

# command_for TOOL IMG OUT: sets CMD to the command line to time
command_for() {
	case "$1" in
	cp) CMD=(cp -- "$2" "$3") ;;
	cp+fsync) CMD=(sh -c 'cp -- "$1" "$2" && sync -- "$2"' sh "$2" "$3") ;;
	cp+fsync+mv) CMD=(sh -c 'cp -- "$1" "$1.new" && sync -- "$1.new" && mv -- "$1.new" "$1"' sh "$3") ;;
	sbat-add-output) CMD=("$sbat_add" --file "$2" --csv "$CSV" --output "$3") ;;
	sbat-add-inplace) CMD=("$sbat_add" --file "$3" --csv "$CSV") ;;
	sbat-add-nosync) CMD=("$sbat_add" --no-sync --file "$2" --csv "$CSV" --output "$3") ;;
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
: >"$results"

# bench_image LABEL CHECKSUM IMG: warm up, then RUNS interleaved rounds
bench_image() {
	local label="$1" ck="$2" img="$3" out="$work/out.efi" tool r i n ok_tools=() status
	declare -A walls=() peak=() state=()

	echo "== $label, CheckSum $ck: $img ($(stat -c %s -- "$img") bytes)" >&2
	cat -- "$img" >/dev/null  # warm the page cache: the same for every tool
	for tool in "${tools[@]}"; do
		prepare "$tool" "$img" "$out"
		if timed "$tool" "$img" "$out"; then
			status=ok
			# sbat-add must be able to read back what it wrote
			if [[ "$tool" == sbat-add-* ]] && ! "$sbat_add" --print "$out" >/dev/null 2>"$work/err"; then
				status=unread
				echo "   $tool: exit 0, but --print of its output fails: $(head -c 300 "$work/err")" >&2
			fi
		else
			status="n/a"
			[[ "$tool" == sbat-add-* ]] && status=FAIL
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
				[ "$RSS_KB" -gt "${peak[$tool]:-0}" ] && peak[$tool]=$RSS_KB
			else
				state[$tool]=FAIL
			fi
		done
		echo "   round $((r + 1))/$runs done" >&2
	done
	rm -f -- "$out"

	local cp_med sync_med llvm_med
	cp_med=$(printf '%s\n' ${walls[cp]:-} | median)
	sync_med=$(printf '%s\n' ${walls[cp+fsync]:-} | median)
	llvm_med=$(printf '%s\n' ${walls[llvm-objcopy]:-} | median)
	for tool in "${tools[@]}"; do
		local med=""
		[ -n "${walls[$tool]:-}" ] && med=$(printf '%s\n' ${walls[$tool]} | median)
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$ck" "$tool" "${state[$tool]}" \
			"${med:--}" "${cp_med:--}" "${sync_med:--}" "${llvm_med:--}" "${peak[$tool]:-0}" >>"$results"
		[ -n "$med" ] && echo "   $tool:${walls[$tool]} us" >&2
	done
}

# free_mib: free space in the work directory
free_mib() {
	df -Pk -- "$work" | awk 'NR == 2 { print int($4 / 1024) }'
}

echo "sbat-add: $("$sbat_add" --version) ($sbat_add)" >&2
echo "work dir: $work ($(stat -f -c %T -- "$work"), $(free_mib) MiB free); kernel $(uname -r); $(nproc) CPUs" >&2
echo "runs: $runs per tool, interleaved, after one warm-up run (page cache warm, not dropped)" >&2

if [ ${#images[@]} -gt 0 ]; then
	for img in "${images[@]}"; do
		ck=$(od -An -tx4 -j $(( $(od -An -tu4 -j 60 -N 4 -- "$img") + 88 )) -N 4 -- "$img" | tr -d ' ')
		bench_image "$(basename -- "$img")" "0x$ck" "$img"
	done
else
	for mb in $sizes; do
		need=$((4 * mb))
		if [ "$(free_mib)" -lt "$need" ]; then
			echo "== ${mb} MiB: skipped, needs $need MiB free in $work, $(free_mib) MiB available" >&2
			printf '%s\t-\tall\tskipped (disk space)\t-\t-\t-\t-\t0\n' "${mb}MiB" >>"$results"
			continue
		fi
		for ck in 0 real; do
			img="$work/large-${mb}.efi"
			if [ "$ck" = real ]; then
				"$work/make-large-pe" "$img" "$mb" --checksum >/dev/null || exit 1
			else
				"$work/make-large-pe" "$img" "$mb" >/dev/null || exit 1
			fi
			bench_image "${mb}MiB" "$ck" "$img"
			rm -f -- "$img"
		done
	done
fi

# ------------------------------------------------------------------ table

echo
fmt='%-9s %-8s %-24s %-6s %9s %6s %9s %9s %8s\n'
printf "$fmt" image CheckSum tool status "median s" "x cp" "x cp+sync" "x llvm-oc" "RSS MiB"
printf "$fmt" ------- -------- ---- ------ -------- ---- --------- --------- -------
while IFS=$'\t' read -r label ck tool status med cp_med sync_med llvm_med rss; do
	if [ "$med" = - ]; then
		printf "$fmt" "$label" "$ck" "$tool" "$status" - - - - -
	else
		awk -v f="$fmt" -v l="$label" -v c="$ck" -v t="$tool" -v s="$status" -v m="$med" \
			-v b="$cp_med" -v y="$sync_med" -v o="$llvm_med" -v r="$rss" 'function ratio(x) {
				return (x == "-" || x == 0) ? "-" : sprintf("%.2f", m / x) }
			BEGIN { printf f, l, c, t, s, sprintf("%.3f", m / 1e6), ratio(b), ratio(y), ratio(o),
				sprintf("%.1f", r / 1024) }'
	fi
done <"$results"
# what the content check costs: in place with it against in place without it
awk -F '\t' '$3 == "sbat-add-inplace" && $5 != "-" { with[$1 " " $2] = $5 }
	$3 == "sbat-add-inplace-nocheck" && $5 != "-" { without[$1 " " $2] = $5 }
	END { for (k in with) if (k in without)
		printf "content check, %s (CheckSum %s): in place %.3f s, without the check %.3f s: +%.1f %%\n",
			substr(k, 1, index(k, " ") - 1), substr(k, index(k, " ") + 1), with[k] / 1e6, without[k] / 1e6,
			(with[k] / without[k] - 1) * 100 }' "$results" | sort
echo
echo "status: ok; unread = exit 0 but sbat-add --print cannot read the output back;"
echo "n/a = the tool refused this image; FAIL = sbat-add failed."
echo "llvm-oc: $( [ -n "$llvm_objcopy" ] && "$llvm_objcopy" --version | sed -n 's/.*LLVM version /LLVM /p' | head -n 1 || echo none)."
echo "Targets: sbat-add-nosync <= 1.0 x llvm-objcopy and <= 1.2 x cp;"
echo "sbat-add-output and -inplace (durable) <= 1.0 x cp+sync; peak RSS <= 8 MiB;"
echo "the content check (sbat-add-inplace against sbat-add-inplace-nocheck) <= 10 %."
