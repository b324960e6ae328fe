#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Import benchmark: throughput of idlesim import (MB/s of input, events/s)
# on ftrace text and on trace.dat, side by side with `trace-cmd report >
# /dev/null` on the same trace.dat, best of REPEAT runs each; and the peak
# RSS of a 1x and a 10x text import (memory must not grow with the input).
# The text is the bundled x86 stock capture repeated with shifted times.
# Run by `meson test --benchmark`.
set -eu
: "${IDLESIM:?}" "${TRACES:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
REPEAT=${REPEAT:-5}
COPIES=${COPIES:-10}
xz -dc "$TRACES/qemu-x86-stock.txt.xz" > "$T/one.txt"
xz -dc "$TRACES/qemu-x86-stock.dat.xz" > "$T/stock.dat"
# COPIES back to back, each shifted by 2 s, as one longer capture
awk -v n="$COPIES" 'NR == FNR { l[FNR] = $0; c = FNR; next } END {
	for (k = 0; k < n; k++) for (i = 1; i <= c; i++) {
		s = l[i]
		if (s ~ /^#/) { if (k == 0) print s; continue }
		if (match(s, / [0-9]+\.[0-9]+: /)) {
			t = substr(s, RSTART + 1, RLENGTH - 3) + 2 * k
			s = substr(s, 1, RSTART) sprintf("%.6f", t) substr(s, RSTART + RLENGTH - 2)
		}
		print s } }' "$T/one.txt" /dev/null > "$T/big.txt"

best() {  # best CMD...: the fastest of REPEAT runs, in seconds
	local b="" s e
	for _ in $(seq "$REPEAT"); do
		s=$(date +%s.%N)
		"$@" > /dev/null 2>&1
		e=$(date +%s.%N)
		b=$(awk -v s="$s" -v e="$e" -v b="$b" 'BEGIN { t = e - s; print (b == "" || t < b) ? t : b }')
	done
	echo "$b"
}
events() {  # events counted by the importer
	"$IDLESIM" import -s power9 "$1" -o "$T/x.trace" | sed -n 's/.*MB, [0-9]* lines, \([0-9]*\) events.*/\1/p'
}
rss() {
	/usr/bin/time -f %M "$IDLESIM" import -s power9 -q "$1" -o - 2>&1 >/dev/null | tail -1
}
row() {  # row NAME FILE SECONDS EVENTS
	awk -v n="$1" -v b="$(stat -c %s "$2")" -v t="$3" -v e="$4" 'BEGIN {
		printf "%-34s %8.1f MB %8.3f s %9.1f MB/s %7.2f M events/s\n", n, b / 1e6, t, b / 1e6 / t, e / 1e6 / t }'
}

ev_dat=$(events "$T/stock.dat")
ev_big=$(events "$T/big.txt")
ev_one=$(events "$T/one.txt")
echo "import throughput, best of $REPEAT runs (input bytes as stored)"
row "idlesim import trace.dat" "$T/stock.dat" "$(best "$IDLESIM" import -s power9 -q "$T/stock.dat" -o -)" "$ev_dat"
if command -v trace-cmd >/dev/null; then
	row "trace-cmd report (same trace.dat)" "$T/stock.dat" "$(best trace-cmd report -i "$T/stock.dat")" "$ev_dat"
	trace-cmd report -t -i "$T/stock.dat" > "$T/report.txt" 2>/dev/null
	row "idlesim import trace-cmd report -t" "$T/report.txt" "$(best "$IDLESIM" import -s power9 -q "$T/report.txt" -o -)" "$ev_dat"
else
	echo "trace-cmd is not installed: no side-by-side figure (apt-get install trace-cmd)"
fi
row "idlesim import ftrace text" "$T/one.txt" "$(best "$IDLESIM" import -s power9 -q "$T/one.txt" -o -)" "$ev_one"
row "idlesim import ftrace text, ${COPIES}x" "$T/big.txt" "$(best "$IDLESIM" import -s power9 -q "$T/big.txt" -o -)" "$ev_big"
if [ -x /usr/bin/time ]; then
	echo "peak RSS: 1x text $(( $(rss "$T/one.txt") / 1024 )) MiB, ${COPIES}x text $(( $(rss "$T/big.txt") / 1024 )) MiB, trace.dat $(( $(rss "$T/stock.dat") / 1024 )) MiB"
fi
