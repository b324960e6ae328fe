#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# idlesim rfc: the report's tables have the cover letter's shape and are
# internally consistent (accuracy rows sum to 100 %, baseline columns are
# 100, the oracle is always correct), and with --full, the committed
# docs/rfc-reproduction.{md,csv} are exactly what the command makes now.
set -u
: "${IDLESIM:?}"
SRC=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if [ "${1:-}" = "--full" ]; then
	# Reproducibility of the committed report (about 16 s on 2 cores).
	"$IDLESIM" rfc --summary "$SRC/docs/rfc-summary.md" -o "$T/r.md" --csv "$T/r.csv" || bad "rfc failed"
	cmp -s "$T/r.md" "$SRC/docs/rfc-reproduction.md" && ok ||
		{ bad "docs/rfc-reproduction.md is not what idlesim rfc makes now (regenerate it, see its summary)"; diff "$T/r.md" "$SRC/docs/rfc-reproduction.md" | head -10; }
	cmp -s "$T/r.csv" "$SRC/docs/rfc-reproduction.csv" && ok || bad "docs/rfc-reproduction.csv differs from a fresh run"
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi

"$IDLESIM" rfc --quick -j 2 -o "$T/q.md" --csv "$T/q.csv" --plot "$T/plots" 2>"$T/err" || bad "rfc --quick failed: $(cat "$T/err")"
"$IDLESIM" rfc --quick -j 1 -o "$T/q1.md" 2>/dev/null
cmp -s "$T/q.md" "$T/q1.md" && ok || bad "the report depends on -j"

# Every accuracy row: US + Correct + OS = 100 (13 cells rounded to 0.01).
awk '/prediction distribution/ { t = 1; next } t && /^\|/ { in_t = 1 }
	t && /^\|/ && !/^\|---/ && !/US 1/ {
	s = 0; n_c = split($0, c, "|"); for (i = 3; i < n_c; i++) s += c[i]
	n++; if (s < 99.93 || s > 100.07) { print "row sums to " s ": " $0; bad++ } }
	t && in_t && /^$/ { t = 0; in_t = 0 } END { print n + 0 " rows"; exit bad > 0 }' "$T/q.md" > "$T/sums" && ok ||
	{ bad "accuracy rows do not sum to 100"; head -5 "$T/sums"; }
[ "$(tail -1 "$T/sums")" = "126 rows" ] && ok || bad "expected 126 accuracy rows (21 rows x 6 governor tables), got $(tail -1 "$T/sums")"
# Table counts: 30 accuracy tables (5 groups x 6 governors), 10 normalised energy/p99 tables.
[ "$(grep -c 'prediction distribution' "$T/q.md")" -eq 30 ] && ok || bad "30 accuracy tables"
[ "$(grep -c '^Energy and p99 latency, normalised' "$T/q.md")" -eq 10 ] && ok || bad "10 normalised tables"
# Weighted picks: one table per group for wteo-rfc, one for wteo; the others never draw.
[ "$(grep -c '^Weighted picks' "$T/q.md")" -eq 10 ] && ok || bad "10 weighted-pick tables"
awk -F, 'NR > 1 && $12 > 0 && $5 != "wteo-rfc" && $5 != "wteo" { bad++ }
	NR > 1 && ($5 == "wteo-rfc" || $5 == "wteo") { w += $12 }
	END { exit bad > 0 || w <= 0 }' "$T/q.csv" && ok || bad "random draws outside wteo-rfc/wteo, or none in them"
# The history tables' baseline column (8 intervals) is exactly 100.
awk '/normalised \(8 intervals = 100\)/ { t = 1; next } t && /^\|/ { in_t = 1 }
	t && /^\| [0-9]/ { split($0, c, "|"); n++; if (c[3] + 0 != 100) bad++ }
	t && in_t && /^$/ { t = 0; in_t = 0 } END { exit bad > 0 || n != 8 }' "$T/q.md" && ok || bad "baseline column is not 100"
# The oracle is always correct.
awk '/^oracle: prediction distribution/ { t = 1; next } t && /^\|/ { in_t = 1 }
	t && /^\|/ && !/^\|---/ && !/US 1/ { split($0, c, "|"); n++; if (c[9] + 0 != 100) bad++ }
	t && in_t && /^$/ { t = 0; in_t = 0 } END { exit bad > 0 || n != 21 }' "$T/q.md" && ok || bad "the oracle is not 100% correct"
# Experiment 4: one table per group, 21 rows of 18 cells; its teo-6.12 and
# wteo correct figures are experiment 3's (there to 2 decimals, here to 1).
[ "$(grep -c '^| [A-Za-z]* | teo-6.12 correct |' "$T/q.md")" -eq 5 ] && ok || bad "5 wteo-variant tables"
awk '/^teo-6.12: prediction distribution/ { g = "t"; next } /^wteo: prediction distribution/ { g = "w"; next }
	/prediction distribution/ { g = ""; next } /^## 4\./ { e4 = 1 }
	!e4 && g != "" && /^\| / && !/US 1/ { split($0, c, "|"); v[g, ++n[g]] = c[9] }
	e4 && /^\| / && !/correct/ { k++
		if (split($0, c, "|") != 20) { print "cells: " $0; bad++ }
		d1 = c[3] - v["t", k]; d2 = c[6] - v["w", k]
		if (d1 > 0.051 || d1 < -0.051 || d2 > 0.051 || d2 < -0.051) { print "differs: " $0; bad++ } }
	END { exit bad > 0 || k != 21 || n["t"] != 21 || n["w"] != 21 }' "$T/q.md" && ok ||
	bad "experiment 4's rows do not match experiment 3's teo-6.12 and wteo"
awk -F, '$1 == "wteo-variants" { n++; if ($5 != "wteo" || $6 !~ /range=chosen/) bad++ }
	END { exit bad > 0 || n != 315 }' "$T/q.csv" && ok || bad "315 wteo-variant runs, all wteo range=chosen"
# CSV: one line per run (100 history + 210 RFC + 420 6.12 + 315 variant runs),
# shares sum to 100.
[ "$(wc -l < "$T/q.csv")" -eq 1046 ] && ok || bad "CSV should have 1045 runs and a header"
# (columns: 10 correct_pct, 11 shallow_pct, 12 random_draws_pct, 13.. us and os)
awk -F, 'NR > 1 { s = $10; for (i = 13; i <= NF; i++) s += $i; if (s < 99.99 || s > 100.01) bad++ }
	END { exit bad > 0 }' "$T/q.csv" && ok || bad "CSV accuracy shares do not sum to 100"
[ "$(cut -d, -f7 "$T/q.csv" | tail -n +2 | sort -u | tr '\n' ' ')" = "1 2 3 4 5 " ] && ok || bad "seeds 1..5 in every cell"
if command -v gnuplot >/dev/null; then
	[ -s "$T/plots/accuracy.png" ] && [ -s "$T/plots/residency.png" ] && [ -s "$T/plots/energy-p99.png" ] && ok ||
		bad "--plot made no figures"
	# gnuplot's columnheader() takes the first line that is not a comment:
	# the governors' names, then one row per state from the first (snooze).
	[ "$(head -1 "$T/plots/residency.dat")" = "state teo-6.12 wteo menu-6.12 oracle" ] &&
		[ "$(sed -n 2p "$T/plots/residency.dat" | cut -d' ' -f1)" = snooze ] &&
		[ "$(wc -l < "$T/plots/residency.dat")" -eq 8 ] && ok ||
		bad "residency.dat: a header line, then the power9 table's 7 states"
else
	bad "gnuplot is not installed (tools/install-deps installs gnuplot-nox)"
fi
"$IDLESIM" rfc --seeds 1 -o "$T/x.md" 2>/dev/null; [ $? -eq 2 ] && ok || bad "--seeds 1 should be a usage error"
"$IDLESIM" rfc --summary /nonexistent -o "$T/x.md" 2>"$T/err"; [ $? -eq 1 ] && grep -q nonexistent "$T/err" && ok ||
	bad "a missing --summary file should fail naming it"
[ ! -e "$T/x.md" ] && ok || bad "a refused rfc left a file"
# --plot naming a file: refused before the run (it exited 0 after it)
touch "$T/afile"
"$IDLESIM" rfc --quick --plot "$T/afile" -o "$T/x.md" 2>"$T/err"; [ $? -eq 1 ] &&
	grep -q "afile: Not a directory" "$T/err" && [ ! -e "$T/x.md" ] && ok ||
	bad "rfc --plot FILE should fail before the run, naming it"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
