#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Simulations as captures (docs/export.md): an exported run read back by
# `idlesim import` gives the simulated states, entry times and residencies
# exactly (trace.dat and the text), trace-cmd report reads the trace.dat,
# and the refusals.
set -u
: "${IDLESIM:?}" "${TRACES:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# The inputs: many short periods (pages fill and turn), long idle periods
# (gaps past the 27-bit time delta: time-extend events), and a hand-made
# trace whose recorded polls are replayed in a state with an exit latency
# (the simulated exit passes the next record's start: a shifted period),
# with a refused pass (nothing traced).
"$IDLESIM" synth --workload mixed --periods 3000 -o "$T/mixed.trace" 2>/dev/null
"$IDLESIM" synth --workload idle --periods 300 -o "$T/idle.trace" 2>/dev/null
sed '/^data$/q' "$TESTDATA/cpuidle-events.expected.trace" | grep -v '^source\|^#' > "$T/shift.trace"
cat >> "$T/shift.trace" <<'EOF'
I 0 1000000 5000000 3000000 0 2147483647000 200000 unknown k=0
I 0 1200000 5000000 3000000 0 2147483647000 200000 unknown k=0
I 1 1300000 0 0 1 50000 0 unknown k=0 stop=0 span=0 lres=0 gt=0 pl=0 slr=0 rej=1
I 0 1400000 5000000 3000000 0 2147483647000 300000 unknown k=0
I 1 1500000 5000000 3000000 0 2147483647000 900000 unknown k=2
I 1 3000000 5000000 3000000 0 2147483647000 20000 unknown k=0
end 6
EOF

# roundtrip NAME TRACE GOVERNOR: replay with --inputs and --export, import
# the bundle (trace.dat where this build reads it) and its text, compare.
roundtrip() {
	name=$1 trace=$2 gov=$3
	b="$T/$name"
	if ! "$IDLESIM" replay --mode model -g "$gov" --inputs "$T/$name.in" --export "$b" \
		"$trace" > /dev/null 2> "$T/$name.err"; then
		bad "$name: replay --export failed"; sed 's/^/  | /' "$T/$name.err"; return
	fi
	# the simulated passes that entered a state: cpu, entry (moved to the
	# CPU's previous exit where it came before it), residency, state
	awk '$12 >= 0 { c = $1; t = $3; if ((c in ex) && t < ex[c]) t = ex[c]
		ex[c] = t + $14; printf "%s %.0f %s %s\n", c, t, $14, $12 }' "$T/$name.in" > "$T/$name.want"
	n=$(wc -l < "$T/$name.want")
	[ "$n" -gt 0 ] || { bad "$name: no periods simulated"; return; }
	for src in bundle text; do
		if [ "$src" = bundle ]; then
			"$IDLESIM" import "$b" -o "$T/$name.$src.trace" > "$T/$name.$src.log" 2>&1
		else
			"$IDLESIM" import "$b/trace.txt" --states "$b/states" --hz 100 \
				-o "$T/$name.$src.trace" > "$T/$name.$src.log" 2>&1
		fi || { bad "$name: import of the $src failed"; sed 's/^/  | /' "$T/$name.$src.log"; continue; }
		awk '$1 == "I" { k = ""; for (i = 10; i <= NF; i++) if ($i ~ /^k=/) k = substr($i, 3)
			print $2, $3, $8, k }' "$T/$name.$src.trace" | sort -s -n -k1,1 > "$T/$name.got"
		sort -s -n -k1,1 "$T/$name.want" > "$T/$name.want.s"
		if cmp -s "$T/$name.want.s" "$T/$name.got"; then
			ok
		else
			bad "$name: the $src's import differs from the simulation ($n periods)"
			diff "$T/$name.want.s" "$T/$name.got" | head -5 | sed 's/^/  | /'
		fi
		grep -q "verdict equals the rule applied to the imported idle duration in 100.0%" \
			"$T/$name.$src.log" && ok || bad "$name: cpu_idle_miss of the $src disagrees with the rule"
	done
	if ! command -v trace-cmd > /dev/null; then
		bad "$name: trace-cmd is not installed (tools/install-deps all): trace.dat not read by it"
	else
		lines=$(trace-cmd report -i "$b/trace.dat" 2>/dev/null | grep -c ' cpu_idle')
		want=$(grep -c ' cpu_idle' "$b/trace.txt")
		[ "$lines" = "$want" ] && [ "$lines" -ge $((2 * n)) ] && ok ||
			bad "$name: trace-cmd report printed $lines cpu_idle events, the text has $want"
		trace-cmd report -i "$b/trace.dat" 2>/dev/null | awk '/ cpu_idle: /' | head -1 |
			grep -q 'cpu_idle: *state=[0-9]* cpu_id=[0-9]' && ok ||
			bad "$name: trace-cmd report's first line is not a cpu_idle event"
	fi
}
roundtrip mixed "$T/mixed.trace" menu-6.12
roundtrip idle "$T/idle.trace" teo-6.12
roundtrip shift "$T/shift.trace" menu-6.12
grep -q "^exported .*: 5 idle periods (1 above, 0 below; 1 refused passes" "$T/shift.err" && ok ||
	{ bad "shift: the refused pass is not counted"; cat "$T/shift.err"; }
grep -q "2 periods began before their CPU's previous simulated exit" "$T/shift.err" && ok ||
	{ bad "shift: the shifted period is not reported"; cat "$T/shift.err"; }
# (the second of them only because the first moved: its exit moved with it)
# time extends: the idle run's gaps exceed 2^27 ns
awk '$12 >= 0 && $14 > 134217728 { n++ } END { exit !n }' "$T/idle.in" && ok ||
	bad "idle: no period longer than a 27-bit time delta (no time extend tested)"

# run --export: one bundle per governor, and the bundle replaced on a rerun
"$IDLESIM" run --workload mixed --periods 500 -g menu-6.12,teo-6.12 --export "$T/run" \
	-o /dev/null 2> "$T/run.err" && [ -f "$T/run/menu-6.12/meta" ] && [ -f "$T/run/teo-6.12/trace.dat" ] &&
	ok || { bad "run --export"; cat "$T/run.err"; }
"$IDLESIM" run --workload mixed --periods 400 -g menu-6.12 --export "$T/run" -o /dev/null 2> /dev/null &&
	[ "$(ls -A "$T/run/menu-6.12" | tr '\n' ' ')" = "meta states trace.dat trace.txt " ] &&
	[ -z "$(ls -A "$T/run" | grep -v '^menu-6.12$\|^teo-6.12$')" ] && ok ||
	bad "a rerun did not replace the bundle cleanly: $(ls -A "$T/run" "$T/run/menu-6.12")"

# refusals: exact mode, a directory that is not an exported simulation
"$IDLESIM" replay --mode exact -g menu-6.12 --export "$T/x" "$T/shift.trace" > /dev/null 2> "$T/err"
[ $? = 2 ] && grep -q "in exact mode the run is the recording" "$T/err" && [ ! -e "$T/x" ] && ok ||
	bad "--export in exact mode is not refused"
mkdir "$T/mine" && echo keep > "$T/mine/notes"
"$IDLESIM" replay --mode model -g menu-6.12 --export "$T/mine" "$T/shift.trace" > /dev/null 2> "$T/err"
[ $? = 1 ] && grep -q "not (only) a simulation that idlesim wrote: not replaced" "$T/err" &&
	[ "$(cat "$T/mine/notes")" = keep ] && ok || bad "--export over a user's directory is not refused"
cp "$T/shift/meta" "$T/shift/states" "$T/mine/"
"$IDLESIM" replay --mode model -g menu-6.12 --export "$T/mine" "$T/shift.trace" > /dev/null 2>&1
[ $? = 1 ] && [ -f "$T/mine/notes" ] && ok || bad "--export replaced a bundle holding a user's file"
[ -z "$(ls -A "$T" | grep '\.tmp\.\|\.old\.')" ] && ok || bad "temporary directories left: $(ls -A "$T")"

echo "export: $pass passed, $fail failed"
[ "$fail" = 0 ]
