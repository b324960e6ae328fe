#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Sweep benchmark: a 1,000-point LEARNING_RATE x initial-weight grid of wteo
# and a 1,000-point PULSE x RESIDENCY_THRESHOLD_NS grid of teo-6.12
# over a 1-million-period trace, at -j 1 and -j 2: points/s, idle periods/s,
# the -j 2 speedup and the peak RSS.  Run by `meson test --benchmark`.
#
# Read as ratios in the same run (docs/benchmark.md): lanes (eight points in
# lockstep, the default where the CPU has AVX-512) against --scalar (one
# simulation per point, the sweep before lanes); points alike shared (one
# simulation per class, the default) against --every-point; and, with
# PREV=/path/to/an older idlesim, that binary's time on the same grid.
# Every output is compared byte for byte with the others.
set -eu
: "${IDLESIM:?}"
PREV=${PREV:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PERIODS=${PERIODS:-1000000}
"$IDLESIM" bench -n "$PERIODS" -g oracle -r 1 --save "$T/t.bin" >/dev/null
recs=$PERIODS
run() {  # run NAME BINARY J GRID...
	name=$1 bin=$2 j=$3
	shift 3
	s=$(date +%s.%N)
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o "$T/rss" "$bin" sweep -q -t "$T/t.bin" -j "$j" -o "$T/$name-$j.csv" "$@"
		rss="$(( $(cat "$T/rss") / 1024 )) MiB"
	else
		"$bin" sweep -q -t "$T/t.bin" -j "$j" -o "$T/$name-$j.csv" "$@"
		rss="? (install 'time')"
	fi
	e=$(date +%s.%N)
	pts=$(($(wc -l < "$T/$name-$j.csv") - 1))
	awk -v n="$name" -v j="$j" -v p="$pts" -v r="$recs" -v s="$s" -v e="$e" -v m="$rss" 'BEGIN {
		t = e - s; printf "%-16s -j %d: %d points in %.1f s: %.1f points/s, %.2f M periods/s (%.2f M/s per thread), peak RSS %s\n",
		n, j, p, t, p / t, p * r / t / 1e6, p * r / t / 1e6 / j, m }'
	echo "$e $s" > "$T/time-$name-$j"
}
same() {  # same A B: the two outputs' bytes
	cmp -s "$T/$1.csv" "$T/$2.csv" || { echo "FAIL: $1 and $2 outputs differ"; exit 1; }
}
ratio() {  # ratio LABEL SLOW FAST
	awk -v l="$1" '{ t[NR] = $1 - $2 } END { printf "%-40s %.2fx\n", l ":", t[1] / t[2] }' \
		"$T/time-$2" "$T/time-$3"
}
echo "trace: $PERIODS idle periods (basic workload, binary), $(nproc) CPUs"
for g in wteo teo-6.12; do
	case $g in
	wteo) grid="--grid learning_rate=1:40:1 --grid init_self_weight=400:880:20" ;;
	teo-6.12) grid="--grid pulse=64:2560:64 --grid residency_threshold_ns=0:24000:1000" ;;
	esac
	# shellcheck disable=SC2086
	run $g "$IDLESIM" 1 -g $g $grid
	# shellcheck disable=SC2086
	run $g "$IDLESIM" 2 -g $g $grid
	# shellcheck disable=SC2086
	run $g-scalar "$IDLESIM" 2 -g $g $grid --scalar
	# shellcheck disable=SC2086
	run $g-every "$IDLESIM" 2 -g $g $grid --every-point
	same $g-1 $g-2
	same $g-2 $g-scalar-2
	same $g-2 $g-every-2
	ratio "$g -j 2 speedup over -j 1" $g-1 $g-2
	ratio "$g lanes over --scalar, -j 2" $g-scalar-2 $g-2
	ratio "$g alike points shared, over --every-point, -j 2" $g-every-2 $g-2
	if [ -n "$PREV" ]; then
		# shellcheck disable=SC2086
		run $g-prev "$PREV" 2 -g $g $grid
		same $g-2 $g-prev-2
		ratio "$g over $PREV, -j 2" $g-prev-2 $g-2
	fi
done
