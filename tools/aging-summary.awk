# SPDX-License-Identifier: GPL-2.0-only
# The tables of docs/aging.md from tools/aging-study's CSVs:
#   awk -F, -f tools/aging-summary.awk .cache/aging/held.csv
#   awk -F, -v init=1 -f tools/aging-summary.awk .cache/aging/init.csv
# Per governor/variant over the workloads and seeds of the file:
# accuracy, energy against un-aged wteo, teo-6.12 and the oracle (per
# workload and seed, then averaged), p99, the recovery after the pattern
# change (where measurable) and the spread of energy over the seeds (the
# coefficient of variation per workload, averaged).
function key() { return $3 == "wteo" ? $4 ($5 == "" ? "" : " " $5) : $3 }
{
	if (init) {
		# set initNNN: the init weight; per variant
		w = substr($1, 5); k = $4
		acc[k, w] += $8; en[k, w] += $9; n[k, w]++; ws[w] = 1; ks[k] = 1
		next
	}
	k = key(); ks[k] = 1; wl[$2] = 1
	E[k, $2, $6] = $9
	acc[k] += $8; nacc[k]++
	p99[k] += $10
	if ($13 > 0) { rec[k] += $13; nrec[k]++ }
	es[k, $2] += $9; ess[k, $2] += $9 * $9; en[k, $2]++
	seeds[$6] = 1
}
function rel(k, b,    s, c, w, sd) {
	s = 0; c = 0
	for (w in wl) for (sd in seeds)
		if ((k, w, sd) in E && (b, w, sd) in E && E[b, w, sd] > 0) { s += E[k, w, sd] / E[b, w, sd]; c++ }
	return c ? sprintf("%+.1f%%", 100 * (s / c - 1)) : "-"
}
END {
	if (init) {
		printf "%-14s", "init_self_weight"
		nw = split("100 300 500 614 800 1000", order, " ")
		for (i = 1; i <= nw; i++) printf " %12d", order[i]
		printf " %14s\n", "spread"
		for (k in ks) {
			for (m = 0; m < 2; m++) {
				printf "%-14s", k (m ? " energy" : " accuracy")
				lo = 1e300; hi = -1e300; sum = 0
				for (i = 1; i <= nw; i++) {
					w = order[i]; v = m ? en[k, w] / n[k, w] / 1e6 : acc[k, w] / n[k, w]
					printf m ? " %12.1f" : " %11.2f%%", v
					lo = v < lo ? v : lo; hi = v > hi ? v : hi; sum += v
				}
				printf " %13.1f%%\n", 100 * (hi - lo) / (sum / nw)
			}
		}
		exit
	}
	printf "%-44s %9s %10s %10s %10s %9s %10s %9s\n", "governor", "accuracy", "E vs wteo", "E vs teo", "E vs oracle", "p99 us", "recovery", "seed CV"
	for (k in ks) {
		cv = 0; c = 0
		for (w in wl) if (en[k, w] > 1) {
			m = es[k, w] / en[k, w]; v = ess[k, w] / en[k, w] - m * m
			cv += (v > 0 ? sqrt(v) : 0) / m; c++
		}
		printf "%-44s %8.2f%% %10s %10s %10s %9.1f %10s %8.2f%%\n", k, acc[k] / nacc[k],
			rel(k, "none"), rel(k, "teo-6.12"), rel(k, "oracle"), p99[k] / nacc[k] / 1e3,
			nrec[k] ? sprintf("%.0f", rec[k] / nrec[k]) : "-", c ? 100 * cv / c : 0
	}
}
