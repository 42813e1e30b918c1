# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# lib.sh - the timing loop the benchmarks share: each tool's command run N
# times, interleaved so that a slow moment of the machine falls on all of
# them, the median wall time and the peak RSS (/usr/bin/time) of each.
#
# Source it, then set `tools` (an array of names), `cmd` (an associative
# array: name -> command line, split on blanks) and `work` (a directory),
# and call bench_run RUNS and bench_table. The results are in `med` and
# `rss` (associative arrays: name -> seconds, KiB).

declare -A times=() rss=() med=()
BENCH_TIME=/usr/bin/time
[ -x "$BENCH_TIME" ] || { echo "$0: $BENCH_TIME not found (package 'time'): no peak RSS" >&2; BENCH_TIME=""; }

# bench_one NAME: one timed run; appends the wall time (s), keeps the peak RSS (KiB)
bench_one() {
	local t=$1 start end kb=0
	start=$(date +%s.%N)
	if [ -n "$BENCH_TIME" ]; then
		# shellcheck disable=SC2086 # the command line is split on purpose
		$BENCH_TIME -f %M -o "$work/rss" ${cmd[$t]} >/dev/null 2>&1
		kb=$(tail -n1 "$work/rss")
	else
		# shellcheck disable=SC2086
		${cmd[$t]} >/dev/null 2>&1
	fi
	end=$(date +%s.%N)
	times[$t]="${times[$t]:-} $(echo "$end - $start" | bc -l)"
	[ "$kb" -gt "${rss[$t]:-0}" ] && rss[$t]=$kb
}

# bench_median "T1 T2 ...": the median of the numbers
bench_median() {
	# shellcheck disable=SC2086
	printf '%s\n' $1 | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# bench_run RUNS: every tool RUNS times, the order rotated each round
bench_run() {
	local r i
	for ((r = 0; r < $1; r++)); do
		for ((i = 0; i < ${#tools[@]}; i++)); do
			bench_one "${tools[(i + r) % ${#tools[@]}]}"
		done
	done
}

# bench_table: a line per tool with its median and peak RSS; fills med
bench_table() {
	local t
	printf '%-12s %10s %12s\n' tool median_s peak_rss_KiB
	for t in "${tools[@]}"; do
		med[$t]=$(bench_median "${times[$t]}")
		printf '%-12s %10.3f %12s\n' "$t" "${med[$t]}" "${rss[$t]:-n/a}"
	done
}

# bench_ratio A B: med[A] / med[B]
bench_ratio() {
	echo "${med[$1]} / ${med[$2]}" | bc -l
}

# bench_pair A B: the ratio of A's run to B's in each round (interleaved pairs: a slow moment slows
# both); prints "MEDIAN MIN MAX" of those ratios
bench_pair() {
	local -a a b
	local i
	read -r -a a <<<"${times[$1]}"
	read -r -a b <<<"${times[$2]}"
	for ((i = 0; i < ${#a[@]} && i < ${#b[@]}; i++)); do
		echo "${a[i]} / ${b[i]}" | bc -l
	done | sort -g | awk '{ v[NR] = $1 } END { printf "%.2f %.2f %.2f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
}
