#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# idlesim regress (docs/regress.md): the two known lock-ins flagged as
# worse in one direction and better in the other, no alarm when OLD = NEW,
# each pathology detector triggered, the corpus' errors, the exit status,
# the same bytes for any -j.  With KERNEL_C (the kernel's own teo.c files,
# tests/kernel-c): the same from the source files, and the revert of
# 4b20b07ce72f named as the cause.
set -u
: "${IDLESIM:?}" "${TRACES:?}" "${TESTDATA:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
SRC=$(cd "$(dirname "$0")/.." && pwd)

# has FILE LINE-PATTERN: a line of FILE matching both the case and pattern
has() { grep -q -- "$2" "$1" || { bad "$3"; sed 's/^/  | /' "$1" | tail -20; return 1; }; ok; }

"$IDLESIM" regress -q teo-6.1 teo-6.12 > "$T/fwd" 2> "$T/fwd.err"
[ $? = 3 ] && ok || bad "teo-6.1 -> teo-6.12: exit status not 3 (a case worse)"
has "$T/fwd" "^mt8196-idle worse: locks in WFI from 63.2 s on CPU 0 (seed 1)" "MT8196 lock-in not flagged"
has "$T/fwd" "^mt8196-idle worse: .*keeps the tick on idle CPU 0" "MT8196's kept tick not flagged"
has "$T/fwd" "^power9-mixed worse: .*polls on CPU [0-9] (seed 1): [0-9.]* selections per idle period" \
	"POWER9 polling lock-in not flagged"
"$IDLESIM" regress -q teo-6.12 teo-6.1 > "$T/rev" 2>&1
has "$T/rev" "^mt8196-idle better: no longer locks in WFI" "reverse: MT8196 not better"
has "$T/rev" "^power9-mixed better: .*no longer polls" "reverse: POWER9 not better"
"$IDLESIM" regress -q teo-6.12 teo-6.12 > "$T/same" 2>&1
[ $? = 0 ] && ok || bad "OLD = NEW: exit status not 0"
has "$T/same" ": 0 of 12 cases worse, 0 better, 12 the same" "OLD = NEW: a case not the same"
# the skip param is the revert of 4b20b07ce72f in the built-in
"$IDLESIM" regress -q teo-6.12 teo-6.12 --old-param state0_sleep_length=skip \
	--case mt8196-idle,power9-mixed > "$T/skip" 2>&1
has "$T/skip" "^mt8196-idle worse: locks in WFI" "state0_sleep_length=skip -> read: no lock-in"
# the same bytes for 1 and 2 threads
"$IDLESIM" regress -q -j 1 -f json -o "$T/j1.json" teo-6.1 teo-6.12
"$IDLESIM" regress -q -j 2 -f json -o "$T/j2.json" teo-6.1 teo-6.12
cmp -s "$T/j1.json" "$T/j2.json" && ok || bad "-j 1 and -j 2 differ"
"$IDLESIM" regress -q -f csv teo-6.1 teo-6.12 | head -1 |
	grep -q '^case,metric,old,new,noise,verdict,case_verdict$' && ok || bad "csv header"

# A signal while it builds or runs: nothing written, the scratch directory
# (plugins, patched trees) removed, the exit status 128 + the signal.
mkdir "$T/tmp"
TMPDIR="$T/tmp" "$IDLESIM" regress -q -j 1 --full -o "$T/sig.out" "$TESTDATA/kgov/toy.c" teo-6.12 \
	> /dev/null 2> "$T/sig.err" &
pid=$!
i=0
while [ -z "$(ls "$T/tmp")" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.3
kill -TERM $pid
wait $pid
st=$?
[ $st = 143 ] && ok || bad "regress killed by SIGTERM: exit status $st, not 143 (finished first?)"
[ -z "$(ls "$T/tmp")" ] && ok || bad "regress killed by SIGTERM left $(ls "$T/tmp")"
[ ! -e "$T/sig.out" ] && ok || bad "regress killed by SIGTERM wrote its output"
grep -q "interrupted: nothing written" "$T/sig.err" && ok || bad "regress killed: no message"

# Each detector, with the toy governor of test-kgov.sh (tests/data/kgov)
# against teo-6.12 on small cases of their own.
if "$IDLESIM" kgov build "$TESTDATA/kgov/toy.c" -o "$T/toy.so" > /dev/null 2> "$T/kgov.err"; then
	cat > "$T/corpus.ini" <<EOF
[idle-p9]
catches=the detectors
workload=idle
states=power9
cpus=1
duration_ms=20000
seeds=2
idle=true

[qos]
catches=latency limit
workload=mixed
states=intel-adl-l
cpus=1
periods=3000
latency_us=20
seeds=1
EOF
	"$IDLESIM" regress -q --corpus "$T/corpus.ini" teo-6.12 "plugin:$T/toy.so" \
		--new-param step=0 --new-param keep_tick=1 > "$T/toy0" 2>&1
	has "$T/toy0" "^idle-p9 worse: .*locks in snooze from 0.0 s on CPU 0" "lock-in detector"
	has "$T/toy0" "^idle-p9 worse: .*polls on CPU 0" "polling detector"
	has "$T/toy0" "^idle-p9 worse: .*keeps the tick on idle CPU 0 (seed 1) in 100.0%" "tick detector"
	"$IDLESIM" regress -q --corpus "$T/corpus.ini" --case qos teo-6.12 "plugin:$T/toy.so" > "$T/toy1" 2>&1
	has "$T/toy1" "^qos worse: .*enters states slower to leave than the latency limit" "latency detector"
else
	bad "kgov build of the toy governor failed"; cat "$T/kgov.err"
fi

# the corpus' errors name file, case and key
printf '[a]\ncatches=x\nworkload=idle\nduration_ms=10\nbogus=1\n' > "$T/c1.ini"
"$IDLESIM" regress --corpus "$T/c1.ini" teo-6.12 teo-6.12 > /dev/null 2> "$T/err"
[ $? = 1 ] && grep -q "c1.ini: \[a\] bogus: unknown key" "$T/err" && ok || bad "unknown key: $(cat "$T/err")"
printf '[a]\nworkload=idle\nduration_ms=10\n' > "$T/c2.ini"
"$IDLESIM" regress --corpus "$T/c2.ini" teo-6.12 teo-6.12 > /dev/null 2> "$T/err"
grep -q "c2.ini: \[a\] catches: missing" "$T/err" && ok || bad "missing catches: $(cat "$T/err")"
printf '[a]\ncatches=x\nworkload=idle\nduration_ms=10\nseeds=0\n' > "$T/c3.ini"
"$IDLESIM" regress --corpus "$T/c3.ini" teo-6.12 teo-6.12 > /dev/null 2> "$T/err"
grep -q "c3.ini: \[a\] seeds: '0' is not an integer 1..1000" "$T/err" && ok || bad "seeds 0: $(cat "$T/err")"
printf '[a]\ncatches=x\nworkload=idle\nduration_ms=10\nidle=maybe\n' > "$T/c4.ini"
"$IDLESIM" regress --corpus "$T/c4.ini" teo-6.12 teo-6.12 > /dev/null 2> "$T/err"
grep -q "c4.ini: \[a\] idle: 'maybe' is not true or false" "$T/err" && ok || bad "idle=maybe: $(cat "$T/err")"
"$IDLESIM" regress teo-6.12 nope > /dev/null 2> "$T/err"
[ $? = 2 ] && ok || bad "an unknown governor is not a usage error"
"$IDLESIM" regress --case nope teo-6.12 teo-6.12 > /dev/null 2> "$T/err"
[ $? = 2 ] && grep -q "no such case" "$T/err" && ok || bad "--case nope"

# The kernel's own files (tests/kernel-c extracts them at build time).
if [ -n "${KERNEL_C:-}" ]; then
	"$IDLESIM" regress -q "$KERNEL_C/teo-6.1.c" "$KERNEL_C/teo-6.12.c" > "$T/kfwd" 2>&1
	[ $? = 3 ] && ok || bad "kernel teo.c 6.1 -> 6.12: exit status not 3"
	has "$T/kfwd" "^mt8196-idle worse: locks in WFI" "kernel files: MT8196 lock-in"
	has "$T/kfwd" "^power9-mixed worse: .*polls on CPU" "kernel files: POWER9 polling"
	"$IDLESIM" regress -q "$KERNEL_C/teo-6.12.c" "$KERNEL_C/teo-6.1.c" > "$T/krev" 2>&1
	has "$T/krev" "^mt8196-idle better: no longer locks in WFI" "kernel files reversed: MT8196"
	has "$T/krev" "^power9-mixed better: .*no longer polls" "kernel files reversed: POWER9"
	"$IDLESIM" regress -q "$KERNEL_C/teo-6.1.c" "$KERNEL_C/teo-6.1.c" > "$T/ksame" 2>&1
	[ $? = 0 ] && ok || bad "kernel teo.c 6.1 = 6.1: exit status not 0"
	"$IDLESIM" regress -q "$KERNEL_C/teo-6.12.c+$SRC/tests/regress/revert-4b20b07ce72f.patch" \
		"$KERNEL_C/teo-6.12.c" > "$T/kcause" 2>&1
	has "$T/kcause" "^mt8196-idle worse: locks in WFI" "4b20b07ce72f: lock-in"
	has "$T/kcause" "i.e. NEW has commit 4b20b07ce72f back: the cause of the 2 worse" \
		"4b20b07ce72f not named as the cause"
fi

echo "regress: $pass passed, $fail failed"
[ "$fail" = 0 ]
