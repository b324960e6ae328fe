#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# idlesim kgov build and -g plugin:FILE end to end, on the small governors
# of tests/data/kgov: module params as params (types, ranges, defaults),
# per-CPU data per simulated CPU, one private copy per simulation (two
# specs of one file in one run, a sweep on 1 or 4 threads: the same
# bytes), debugfs as --dump-state, and the errors: a header or symbol the
# shim lacks (named, no plugin file left), an unsupported param type,
# a file with two governors, a file that is not a plugin, and a crash
# inside a plugin (named, with the call and CPU; no output left behind).
set -u
: "${IDLESIM:?}" "${TRACES:?}" "${TESTDATA:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
K="$TESTDATA/kgov"
B="$TRACES/basic.trace"

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

cd "$T" || exit 1
expect 0 "wrote toy.so" -- "$IDLESIM" kgov build "$K/toy.c" -o toy.so
P="plugin:./toy.so"

# params: the module params with their types' ranges and the files' defaults
expect 0 "toy.so" -- "$IDLESIM" run -g "$P" -t "$B" -p step=3 -p keep_tick=1 -p offset=-5
expect 2 "'step' of plugin:./toy.so: '-1' is out of range 0..4294967295" -- \
	"$IDLESIM" run -g "$P" -t "$B" -p step=-1
expect 2 "'keep_tick' of plugin:./toy.so: '2' is out of range 0..1" -- \
	"$IDLESIM" run -g "$P" -t "$B" -p keep_tick=2
expect 2 "no selected governor has this param" -- "$IDLESIM" run -g "$P" -t "$B" -p nope=1
expect 2 "params: step, keep_tick, offset" -- "$IDLESIM" replay -g "$P" -p nope=1 "$B"
# step=0, offset=-1: always state 0; the default (step 1): round robin
"$IDLESIM" run -g "$P" -t "$B" -p step=0 -f csv > s0.csv 2>/dev/null &&
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		NR == 2 { gsub(/"[^"]*"/, "P"); exit !($c["usage_snooze"] == $c["selections"] && $4 > 0) }' s0.csv && ok ||
	bad "step=0: not every selection in state 0"

# per-CPU data: each simulated CPU counts its own selections
"$IDLESIM" replay -g "$P" --dump-state "$B" > dump.txt 2>/dev/null || bad "replay --dump-state"
"$IDLESIM" replay -g "$P" --decisions dec.txt "$B" >/dev/null 2>&1 || bad "replay --decisions"
for c in $(awk '{ print $1 }' dec.txt | sort -u); do
	n=$(awk -v c="$c" '$1 == c' dec.txt | wc -l)
	grep -qx "cpu$c count=$n" dump.txt && ok || bad "cpu$c: debugfs count is not its $n selections"
done

# one private copy per simulation: two specs of the file in one run agree
"$IDLESIM" run -g "$P,plugin:$T/toy.so" -t "$B" -f csv > two.csv 2>/dev/null || bad "two specs"
[ "$(cut -d, -f3- two.csv | sed -n 2p)" = "$(cut -d, -f3- two.csv | sed -n 3p)" ] && ok ||
	bad "two copies of toy.so in one run differ (shared globals?)"
# ... and threads: a sweep is the same bytes on 1 and 4 threads
for j in 1 4; do
	"$IDLESIM" sweep -q -t "$B" -g "$P" --grid step=0:7:1 --grid offset=-1,0,1 -j $j \
		-o "sw$j.csv" || bad "sweep -j $j"
done
cmp -s sw1.csv sw4.csv && ok || bad "plugin sweep differs between -j 1 and -j 4"
[ "$(wc -l < sw1.csv)" -eq 25 ] && ok || bad "24 points should give 25 lines"

# two governors in a file: name one
expect 0 "wrote two.so" -- "$IDLESIM" kgov build "$K/two.c" -o two.so
expect 2 "registers several governors (shallow, deep): name one" -- \
	"$IDLESIM" run -g plugin:./two.so -t "$B"
expect 0 "plugin:./two.so:deep" -- "$IDLESIM" run -g plugin:./two.so:deep -t "$B"
expect 2 "registers no governor 'medium' (it registers shallow, deep)" -- \
	"$IDLESIM" run -g plugin:./two.so:medium -t "$B"

# build errors: named, and no plugin file left
expect 1 "missing-header.c includes linux/percpu-defs.h, which idlesim's kernel shim does not provide" -- \
	"$IDLESIM" kgov build "$K/missing-header.c" -o mh.so
expect 1 "missing-symbol.c uses cpuidle_foo, which idlesim's kernel shim does not provide" -- \
	"$IDLESIM" kgov build "$K/missing-symbol.c" -o ms.so
expect 1 "charp.c declares a module param of type charp, which idlesim does not support" -- \
	"$IDLESIM" kgov build "$K/charp.c" -o cp.so
[ -z "$(ls | grep -E '^(mh|ms|cp)\.so')" ] && ok || bad "a failed build left a file: $(ls)"
expect 2 "kgov build needs FILE.c... and -o NAME.so" -- "$IDLESIM" kgov build "$K/toy.c"
expect 1 "nope.c: no such file" -- "$IDLESIM" kgov build nope.c -o x.so

# not a plugin; a missing file
cp /bin/true notaplugin.so
expect 2 "notaplugin.so: cannot load it" -- "$IDLESIM" run -g plugin:./notaplugin.so -t "$B"
expect 2 "plugin:./absent.so:" -- "$IDLESIM" run -g plugin:./absent.so -t "$B"

# a crash inside a plugin: named, and the report file not left behind
expect 0 "wrote crash.so" -- "$IDLESIM" kgov build "$K/crash.c" -o crash.so
"$IDLESIM" run -g plugin:./crash.so -t "$B" -o report.txt >out 2>err
rc=$?
# death by the signal; under a sanitizer, its report of the fault (exit 1)
{ [ "$rc" -gt 128 ] || { [ "$rc" -ne 0 ] && grep -q "Sanitizer: SEGV" err; }; } && ok ||
	bad "crash: exit $rc, wanted death by a signal (or a sanitizer's report)"
grep -qF "idlesim: crashed inside plugin ./crash.so (governor crashy), select() on CPU 1 (signal 11)" err &&
	ok || { bad "crash not reported"; cat err; }
[ -z "$(ls | grep report)" ] && ok || bad "crash left $(ls | grep report)"

echo "test-kgov: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
