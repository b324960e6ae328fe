#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# idlesim sweep / merge end to end: byte-identical output for any -j,
# resume after a killed run, shards run by GNU parallel and merged equal the
# unsharded result, merge refusing overlapping, incomplete or foreign
# shards, and bad input refused with exit 2/1 and no result file.
set -u
: "${IDLESIM:?}" "${TRACES:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect CODE PATTERN -- CMD...: exit code and a pattern in stderr+stdout
expect() {
	code=$1 pat=$2
	shift 3
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" != "$code" ]; then
		bad "exit $rc, wanted $code: $*"; sed 's/^/  | /' "$T/err" | head -5; return
	fi
	cat "$T/out" "$T/err" | grep -qF -- "$pat" && ok ||
		{ bad "no '$pat' from: $*"; sed 's/^/  | /' "$T/err" | head -5; }
}

B="$TRACES/basic.trace"
S="$IDLESIM sweep -q -t $B -g wteo --grid learning_rate=20:200:20 --grid init_self_weight=500,614,700"

# --- determinism across -j, both formats
for f in csv jsonl; do
	for j in 1 2 4; do
		$S -f $f -j $j -o "$T/j$j.$f" || bad "sweep -j $j -f $f failed"
	done
	cmp -s "$T/j1.$f" "$T/j2.$f" && cmp -s "$T/j1.$f" "$T/j4.$f" && ok ||
		bad "$f output differs between -j 1, 2 and 4"
done
# Lanes (eight points in lockstep) and --scalar (one simulation per point):
# the same bytes, for wteo and teo-6.12, the bundled captures too, every
# param kind of wteo; a trace that disables a state (no lanes) beside one.
$S -j 2 --scalar -o "$T/sc.csv" && cmp -s "$T/j1.csv" "$T/sc.csv" && ok ||
	bad "sweep --scalar differs from the default (lanes)"
for g in "wteo --grid pick=random,argmax --grid range=reference,chosen --grid poll=allow,avoid --grid trigger=deepest,timer --grid learning_rate=0,517,1024" \
	"teo-6.12 --grid pulse=1,1024,3000 --grid decay_shift=1,3 --grid state0_sleep_length=read,skip --grid residency_threshold_ns=0,50000"; do
	for t in "qemu-x86-wteo.trace -t $TRACES/events.trace" qemu-ppc64le-teo.trace; do
		# shellcheck disable=SC2086
		L="$IDLESIM sweep -q -t $TRACES/$t -g $g"
		rm -f "$T/ln.csv" "$T/lns.csv"
		$L -j 2 -o "$T/ln.csv" && $L -j 2 --scalar -o "$T/lns.csv" &&
			cmp -s "$T/ln.csv" "$T/lns.csv" && ok ||
			bad "sweep -g ${g%% *} over ${t%% *}: lanes and --scalar differ"
	done
done
# Points alike (a threshold teo reads only against the table's residencies):
# one simulated per class, the same bytes as --every-point, whole and in
# shards, over a capture on power9's table and a synthetic workload closed
# loop on Skylake's (POLL first, 9 states: no lanes).
for g in teo-6.12 wteo; do
	for t in "-t $TRACES/qemu-x86-wteo.trace" "-w schbench -n 20000 -s intel-skl"; do
		for sh in "" "--shard 2/3"; do
			# shellcheck disable=SC2086
			L="$IDLESIM sweep -q $t -g $g --grid pulse=512,1024 --grid residency_threshold_ns=0:120000:7500 $sh"
			rm -f "$T/al.csv" "$T/ale.csv"
			$L -j 2 -o "$T/al.csv" && $L -j 2 --every-point -o "$T/ale.csv" &&
				cmp -s "$T/al.csv" "$T/ale.csv" && ok ||
				bad "sweep -g $g over $t $sh: alike points differ from --every-point"
		done
	done
done
[ "$(wc -l < "$T/j1.csv")" -eq 31 ] && ok || bad "30 points should give a header and 30 rows"
[ "$(wc -l < "$T/j1.jsonl")" -eq 30 ] && ok || bad "30 points should give 30 JSON lines"
[ ! -e "$T/j1.csv.partial" ] && ok || bad "the journal is left after a complete run"
# Rows are in job order and carry the params of their point (last axis fastest).
awk -F, 'NR > 1 && $2 != NR - 2 { exit 1 }' "$T/j1.csv" && ok || bad "rows not in job order"
lr=$(head -1 "$T/j1.csv" | tr , '\n' | grep -nx learning_rate | cut -d: -f1)
sw=$(head -1 "$T/j1.csv" | tr , '\n' | grep -nx init_self_weight | cut -d: -f1)
[ "$(sed -n 7p "$T/j1.csv" | cut -d, -f"$lr,$sw")" = "40,700" ] && ok ||
	bad "job 5 should be learning_rate=40 init_self_weight=700"
# The same point twice (through --param and a one-value axis) gives the same metrics.
$IDLESIM sweep -q -t "$B" -g wteo -p learning_rate=40 --grid init_self_weight=700 -o "$T/one.csv" -j 1
[ "$(sed -n 2p "$T/one.csv" | cut -d, -f5-7)" = "$(sed -n 7p "$T/j1.csv" | cut -d, -f5-7)" ] && ok ||
	bad "a point's metrics depend on the sweep it is in"
# Several traces: job = point * ntraces + trace.
$IDLESIM sweep -q -t "$B" -t "$TRACES/events.trace" -g teo-6.12 --grid pulse=256,1024 -o "$T/two.csv"
[ "$(cut -d, -f2-4 "$T/two.csv" | tail -n +2 | tr '\n' ' ')" = "0,4,0 1,4,0 2,4,1 3,4,1 " ] && ok ||
	bad "job numbering over two traces"
# Random samples are reproducible and within the axes.
$IDLESIM sweep -q -t "$B" -g wteo --grid learning_rate=1:1024:1 --random 8 --random-seed 5 -o "$T/r1.csv" -j 2
$IDLESIM sweep -q -t "$B" -g wteo --grid learning_rate=1:1024:1 --random 8 --random-seed 5 -o "$T/r2.csv" -j 1
cmp -s "$T/r1.csv" "$T/r2.csv" && ok || bad "--random is not reproducible"
[ "$(tail -n +2 "$T/r1.csv" | wc -l)" -eq 8 ] && ok || bad "--random 8 should give 8 rows"
# The summary ranks points and prints the Pareto front.
expect 0 "Pareto front" -- $IDLESIM sweep -t "$B" -g wteo --grid learning_rate=50,100 -o "$T/s.csv" --objective energy=1,p99=1000

# Synthetic scenarios as sources: one per seed, run closed-loop per job.
W="$IDLESIM sweep -q --workload schbench --wparam threads=4 --seeds 1:3 --periods 4000 -g wteo --grid learning_rate=50,100"
$W -j 1 -o "$T/w1.csv" && $W -j 2 -o "$T/w2.csv" && cmp -s "$T/w1.csv" "$T/w2.csv" && ok ||
	bad "workload sweep differs between -j 1 and -j 2"
[ "$(tail -n +2 "$T/w1.csv" | cut -d, -f2,4 | tr '\n' ' ')" = "0,0 1,0 2,0 3,1 4,1 5,1 " ] && ok ||
	bad "workload sweep: 2 points x 3 seeds should be jobs 0..5, point-major"
tail -n +2 "$T/w1.csv" | grep -c 'workload:schbench seed=2' | grep -qx 2 && ok || bad "workload sweep: seed 2 should be a source twice"
# The same point and seed as a closed-loop run: the same energy.
# (the first energy_active_ns of run's JSON is the all-CPU total)
e_run=$("$IDLESIM" run -w schbench --wparam threads=4 --wseed 2 --periods 4000 -g wteo -p learning_rate=100 -f json |
	grep -o '"energy_active_ns": [0-9.]*' | head -1 | cut -d' ' -f2)
e_sw=$(sed -n 6p "$T/w1.csv" | cut -d, -f6)
[ -n "$e_sw" ] && [ "$e_sw" = "$e_run" ] && ok || bad "workload sweep job 4 ($e_sw) differs from run --workload ($e_run)"
for k in 1 2; do $W --shard $k/2 -o "$T/ws$k.csv"; done
"$IDLESIM" merge "$T/ws1.csv" "$T/ws2.csv" -o "$T/wm.csv" && cmp -s "$T/wm.csv" "$T/w1.csv" && ok ||
	bad "merged workload shards differ"

# --plot: the data always, the figures with gnuplot (tools/install-deps installs it)
$IDLESIM sweep -q -t "$B" -g wteo --grid learning_rate=20:100:20 --grid init_self_weight=500,700 -o "$T/pl.csv" --plot "$T/plots"
[ "$(grep -vc '^#' "$T/plots/points.dat")" -eq 10 ] && [ -s "$T/plots/pareto.dat" ] && ok || bad "--plot data files"
if command -v gnuplot >/dev/null; then
	[ -s "$T/plots/pareto.png" ] && [ -s "$T/plots/heatmap.png" ] && ok || bad "--plot made no figures"
else
	bad "gnuplot is not installed (tools/install-deps installs gnuplot-nox)"
fi
# Plots that cannot be made fail the command (the result is complete):
# refused before the run when --plot names a file, after it when the
# directory cannot be made.  Without gnuplot: the data, a message, exit 0.
touch "$T/afile"
expect 1 "--plot $T/afile: Not a directory" -- $IDLESIM sweep -q -t "$B" -g wteo --grid learning_rate=20,40 -o "$T/pf.csv" --plot "$T/afile"
[ ! -e "$T/pf.csv" ] && [ ! -e "$T/pf.csv.partial" ] && ok || bad "a refused --plot left a file"
expect 1 "--plot $T/afile/sub" -- $IDLESIM sweep -q -t "$B" -g wteo --grid learning_rate=20,40 -o "$T/pf.csv" --plot "$T/afile/sub"
[ -s "$T/pf.csv" ] && ok || bad "the sweep result is missing when only its plots failed"
expect 2 "--plot: an empty directory name" -- $IDLESIM sweep -q -t "$B" -g wteo --grid learning_rate=20,40 -o "$T/pf.csv" --plot ""
mkdir "$T/nognuplot"  # a PATH without gnuplot (idlesim runs nothing else)
expect 0 "gnuplot is not installed" -- env PATH="$T/nognuplot" $IDLESIM sweep -q -t "$B" -g wteo --grid learning_rate=20,40 -o "$T/png.csv" --plot "$T/plots2"
[ -s "$T/plots2/points.dat" ] && [ -s "$T/plots2/plots.gp" ] && [ ! -e "$T/plots2/pareto.png" ] && ok ||
	bad "--plot without gnuplot: the data and script should be there, no figure"

# --- the final write fails (a file size limit): the journal is complete, so
# --resume only writes the result; the error names it, no temporary file
# stays (it did, without a message), and the journal is kept
$S -j 1 -o "$T/fw.csv"
mkdir "$T/fw" && cp "$T/fw.csv" "$T/fw/y.csv.partial"
sh -c 'trap "" XFSZ; ulimit -f 4; exec "$@"' sh $S -j 1 -o "$T/fw/y.csv" --resume 2>"$T/err"
rc=$?
[ "$rc" = 1 ] && grep -q "y.csv: File too large" "$T/err" && [ "$(ls "$T/fw")" = y.csv.partial ] && ok ||
	bad "a failed final write: exit $rc, $(cat "$T/err"), left: $(ls "$T/fw")"

# --- resume after a kill
"$IDLESIM" bench -n 200000 -g oracle -r 1 --save "$T/big.bin" >/dev/null
BIG="$IDLESIM sweep -q -t $T/big.bin -g wteo --grid learning_rate=10:400:10 -f jsonl"
$BIG -j 2 -o "$T/ref.jsonl" || bad "uninterrupted big sweep failed"
for sig in KILL INT; do
	rm -f "$T/k.jsonl" "$T/k.jsonl.partial"
	$BIG -j 2 -o "$T/k.jsonl" &
	pid=$!
	n=0
	while [ "$n" -lt 5 ] && kill -0 $pid 2>/dev/null; do
		n=$(cat "$T/k.jsonl.partial" 2>/dev/null | wc -l)
	done
	kill -$sig $pid 2>/dev/null
	wait $pid
	rc=$?
	if [ -e "$T/k.jsonl" ]; then
		bad "SIGKILL/INT came too late to test resume ($sig)"
		continue
	fi
	[ "$rc" -ne 0 ] && ok || bad "a killed sweep exited 0"
	done_rows=$(wc -l < "$T/k.jsonl.partial")
	[ "$done_rows" -lt 40 ] && ok || bad "all rows were done before the $sig"
	expect 1 "pass --resume" -- $BIG -j 2 -o "$T/k.jsonl"
	$BIG -j 2 -o "$T/k.jsonl" --resume || bad "resume after SIG$sig failed"
	cmp -s "$T/k.jsonl" "$T/ref.jsonl" && ok || bad "resumed output differs from the uninterrupted one ($sig)"
	[ ! -e "$T/k.jsonl.partial" ] && ok || bad "journal left after the resume"
done
expect 0 "complete already" -- "$IDLESIM" sweep -t "$T/big.bin" -g wteo --grid learning_rate=10:400:10 -f jsonl -o "$T/k.jsonl" --resume
# A torn last line (killed mid-write) is dropped and redone.
head -c 20000 "$T/ref.jsonl" > "$T/torn.jsonl.partial"
$BIG -o "$T/torn.jsonl" --resume -j 1 && cmp -s "$T/torn.jsonl" "$T/ref.jsonl" && ok ||
	bad "resume from a journal with a torn line"
# A journal of another sweep is refused, and kept.
head -3 "$T/ref.jsonl" > "$T/other.jsonl.partial"
expect 1 "different sweep" -- $IDLESIM sweep -q -t "$T/big.bin" -g wteo --grid learning_rate=10:300:10 -f jsonl -o "$T/other.jsonl" --resume
[ -e "$T/other.jsonl.partial" ] && [ ! -e "$T/other.jsonl" ] && ok || bad "a refused resume touched the files"
expect 1 "not a result of this sweep" -- $IDLESIM sweep -q -t "$B" -g wteo --grid learning_rate=20,30 -o "$T/j1.csv" --resume

# --- shards with GNU parallel, merged = unsharded
if command -v parallel >/dev/null; then
	parallel --will-cite -j 2 "$S -j 1 --shard {}/3 -o $T/sh{}.csv" ::: 1 2 3 || bad "parallel shards failed"
	"$IDLESIM" merge "$T/sh1.csv" "$T/sh2.csv" "$T/sh3.csv" -o "$T/merged.csv" &&
		cmp -s "$T/merged.csv" "$T/j1.csv" && ok || bad "merged shards differ from the unsharded result"
	"$IDLESIM" merge "$T/sh3.csv" "$T/sh1.csv" "$T/sh2.csv" -o "$T/merged2.csv" &&
		cmp -s "$T/merged2.csv" "$T/j1.csv" && ok || bad "merge depends on the order of its arguments"
	for k in 1 2 3 4 5; do $S -f jsonl --shard $k/5 -o "$T/js$k.jsonl"; done
	"$IDLESIM" merge "$T"/js[1-5].jsonl -o "$T/mj.jsonl" && cmp -s "$T/mj.jsonl" "$T/j1.jsonl" && ok ||
		bad "merged JSONL shards differ"
	expect 1 "is in no shard" -- "$IDLESIM" merge "$T/sh1.csv" "$T/sh2.csv" -o "$T/m.csv"
	cp "$T/sh1.csv" "$T/sh1copy.csv"
	expect 1 "overlapping shards" -- "$IDLESIM" merge "$T/sh1.csv" "$T/sh1copy.csv" "$T/sh2.csv" "$T/sh3.csv" -o "$T/m.csv"
	expect 1 "given twice" -- "$IDLESIM" merge "$T/sh1.csv" "$T/sh1.csv" -o "$T/m.csv"
	$IDLESIM sweep -q -t "$B" -g wteo --grid learning_rate=20:200:20 --grid init_self_weight=500,614,701 --shard 2/3 -o "$T/foreign.csv"
	expect 1 "different sweeps" -- "$IDLESIM" merge "$T/sh1.csv" "$T/foreign.csv" "$T/sh3.csv" -o "$T/m.csv"
	head -c -30 "$T/sh3.csv" > "$T/sh3torn.csv"
	expect 1 "not a whole sweep row" -- "$IDLESIM" merge "$T/sh1.csv" "$T/sh2.csv" "$T/sh3torn.csv" -o "$T/m.csv"
	expect 1 "a JSON Lines file among CSV" -- "$IDLESIM" merge "$T/sh1.csv" "$T/js2.jsonl" -o "$T/m.csv"
	[ ! -e "$T/m.csv" ] && ok || bad "a refused merge left an output file"
else
	bad "GNU parallel is not installed (tools/install-deps installs it)"
fi

# --- bad input: exit 2 for usage, 1 for runtime; never a result file
expect 2 "no param 'nope'" -- "$IDLESIM" sweep -t "$B" -g wteo --grid nope=1:2:1 -o "$T/x.csv"
expect 2 "inverted range" -- "$IDLESIM" sweep -t "$B" -g wteo --grid learning_rate=9:1:1 -o "$T/x.csv"
expect 2 "step must be > 0" -- "$IDLESIM" sweep -t "$B" -g wteo --grid learning_rate=1:9:0 -o "$T/x.csv"
expect 2 "no values" -- "$IDLESIM" sweep -t "$B" -g wteo --grid learning_rate= -o "$T/x.csv"
expect 2 "out of range 0..1024" -- "$IDLESIM" sweep -t "$B" -g wteo --grid learning_rate=1000:2000:10 -o "$T/x.csv"
expect 2 "more than --max-points 10" -- "$IDLESIM" sweep -t "$B" -g wteo --grid learning_rate=1:20:1 --max-points 10 -o "$T/x.csv"
expect 2 "unknown governor" -- "$IDLESIM" sweep -t "$B" -g nope -o "$T/x.csv"
expect 2 "--shard 4/3" -- "$IDLESIM" sweep -t "$B" -g wteo --shard 4/3 -o "$T/x.csv"
expect 2 "unknown term" -- "$IDLESIM" sweep -t "$B" -g wteo --objective speed -o "$T/x.csv"
expect 2 "exactly one of --periods" -- "$IDLESIM" sweep --workload schbench -g wteo -o "$T/x.csv"
expect 2 "--seeds 5:1" -- "$IDLESIM" sweep --workload schbench --periods 100 --seeds 5:1 -g wteo -o "$T/x.csv"
expect 2 "given twice" -- "$IDLESIM" sweep --workload schbench --periods 100 --seeds 1,2,1 -g wteo -o "$T/x.csv"
expect 2 "--seeds is for --workload" -- "$IDLESIM" sweep -t "$B" --seeds 1:2 -g wteo -o "$T/x.csv"
# Empty lists (g_strsplit("") is an empty vector): no seeds crashed, no
# terms gave an objective of 0 everywhere.
expect 2 "'learning_rate' has a --grid axis too" -- "$IDLESIM" sweep -t "$B" -g wteo --grid learning_rate=20,40 -p learning_rate=30 -o "$T/x.csv"
expect 2 "--max-points must be >= 1" -- "$IDLESIM" sweep -t "$B" -g wteo --max-points 0 -o "$T/x.csv"
expect 2 "--seeds: no seeds" -- "$IDLESIM" sweep --workload schbench --periods 100 --seeds "" -g wteo -o "$T/x.csv"
expect 2 "--objective: no terms" -- "$IDLESIM" sweep -t "$B" -g wteo --objective "" -o "$T/x.csv"
# An output that rename() would refuse is refused before the sweep runs.
mkdir "$T/adir"
expect 1 "--output $T/adir: Is a directory" -- "$IDLESIM" sweep -t "$B" -g wteo -o "$T/adir"
[ ! -e "$T/adir.partial" ] && ok || bad "a sweep into a directory left a journal"
expect 2 "--output: an empty file name" -- "$IDLESIM" sweep -t "$B" -g wteo -o ""
expect 1 "--output $T/adir: Is a directory" -- "$IDLESIM" merge -o "$T/adir" "$B"
expect 2 "model mode only" -- "$IDLESIM" sweep --workload idle --periods 10 -m exact -g wteo -o "$T/x.csv"
expect 2 "needs --trace FILE... or --workload" -- "$IDLESIM" sweep -t "$B" --workload idle --periods 10 -g wteo -o "$T/x.csv"
expect 1 "/nonexistent.trace" -- "$IDLESIM" sweep -t /nonexistent.trace -g wteo -o "$T/x.csv"
# A trace that opens but cannot be read: its read error, named.
expect 1 "$T/adir: read error: Is a directory" -- "$IDLESIM" sweep -t "$T/adir" -g wteo -o "$T/x.csv"
[ ! -e "$T/x.csv" ] && [ ! -e "$T/x.csv.partial" ] && ok || bad "a refused sweep left a file"
expect 2 "merge needs" -- "$IDLESIM" merge -o "$T/x.csv"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
