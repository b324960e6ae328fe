# SPDX-License-Identifier: GPL-2.0-only
#
# docs/sim-vs-kernel.md from tools/sim-vs-kernel's rows (-F,):
#   arch,workload,kind,source,governor,rep,metric,value
# -v cmd: the command line to print; -v check=1: exit 1 when a check that
# holds today fails (see checks() below).  The summary at the top is
# tools/svk/summary.md, written by hand.

function add(list, n, x) { if (!((list, x) in seen)) { seen[list, x] = 1; n++; order[list, n] = x } return n }
function f1(x) { return sprintf("%.1f", x) }
# the set of a workload (docs/held-out.md): "held-out" or "training"
function setof(w) { return w ~ /^held-out\// ? "held-out" : "training" }
function f2(x) { return sprintf("%.2f", x) }
function abs(x) { return x < 0 ? -x : x }
# statistics over the repetitions of v[kind, a, w, src, g, *, m] -> M, LO, HI, N
function stat(kind, a, w, src, g, m,   r, x) {
	M = 0; N = 0; LO = ""; HI = ""
	for (r = 1; r <= nrep; r++) {
		if (!((kind, a, w, src, g, r, m) in v)) continue
		x = v[kind, a, w, src, g, r, m] + 0; M += x; N++
		if (LO == "" || x < LO) LO = x
		if (HI == "" || x > HI) HI = x
	}
	if (N) M /= N
	return N
}
# a prediction P (kind, src -> g) against g's guest runs: sets DS (max
# |time share difference|, pp), DSS (its state), SPR (the guest's largest
# share range over its repetitions), EA, EB, EE (relative errors, %), and
# INA, INB, INE (1: within the guest's range over its repetitions)
function compare(kind, a, w, src, g,   s, p, gm, d, glo, ghi) {
	DS = -1; SPR = 0
	for (s = 0; s < nst[a]; s++) {
		if (!stat(kind, a, w, src, g, "time_pct_s" s)) return 0
		p = M
		stat("guest", a, w, g, g, "time_pct_s" s)
		d = abs(p - M); if (d > DS) { DS = d; DSS = s }
		if (HI - LO > SPR) SPR = HI - LO
	}
	rel(kind, a, w, src, g, "above_per_sel"); EA = E; INA = IN
	rel(kind, a, w, src, g, "below_per_sel"); EB = E; INB = IN
	rel(kind, a, w, src, g, "erate"); EE = E; INE = IN
	return 1
}
function rel(kind, a, w, src, g, m,   p) {
	stat(kind, a, w, src, g, m); p = M
	stat("guest", a, w, g, g, m)
	E = M ? 100 * (p - M) / M : 0
	IN = N > 1 && p >= LO && p <= HI
}
function mark(ok, within) { return ok ? "" : within ? " ~" : " ✗" }
function row_cmp(label,   t) {
	t = sprintf("| %s | %s (s%d) | %s | %s%s | %s%s | %s%s |", label, f1(DS), DSS, f1(SPR),
		f1(EA), mark(abs(EA) <= 10, INA), f1(EB), mark(abs(EB) <= 10, INB), f1(EE), mark(abs(EE) <= 5, INE))
	goals_n++
	if (DS <= 3) g_share++
	if (abs(EA) <= 10 || INA) g_above++
	if (abs(EB) <= 10 || INB) g_below++
	if (abs(EE) <= 5 || INE) g_energy++
	return t
}
# the median of x[a, 1..n] (mawk has no asort: an insertion sort of a copy)
function median(x, a, n,   i, j, y, t) {
	for (i = 1; i <= n; i++) y[i] = x[a, i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && y[j] < y[j - 1]; j--) { t = y[j]; y[j] = y[j - 1]; y[j - 1] = t }
	return n % 2 ? y[(n + 1) / 2] : (y[n / 2] + y[n / 2 + 1]) / 2
}
function include(path,   line) {
	while ((getline line < path) > 0) print line
	close(path)
}
# governors of (a, w) ranked by metric m of kind (guest: means; counterfactual:
# the mean over every source's prediction; closed)
function ranking(kind, a, w, m,   i, j, k, g, x, src, n, t, r, key, val) {
	n = 0
	for (i = 1; i <= ngov; i++) {
		g = order["gov", i]
		if (kind == "counterfactual") {
			x = 0; k = 0
			for (j = 1; j <= ngov; j++) {
				src = order["gov", j]
				if (src != g && stat(kind, a, w, src, g, m)) { x += M; k++ }
			}
			if (!k) continue
			x /= k
		} else {
			if (!stat(kind, a, w, (kind == "closed" ? "rt-app" : g), g, m)) continue
			x = M
		}
		n++; key[n] = g; val[n] = x
	}
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && val[j] < val[j - 1]; j--) {
			t = val[j]; val[j] = val[j - 1]; val[j - 1] = t
			t = key[j]; key[j] = key[j - 1]; key[j - 1] = t
		}
	r = ""
	for (i = 1; i <= n; i++) r = r (i > 1 ? " < " : "") key[i]
	return r
}
# 1 if every pair of adjacent governors in the guest's energy ranking is
# apart by more than both ranges over the repetitions
function separated(a, w, rank,   n, i, p, lo1, hi1) {
	n = split(rank, p, " < ")
	for (i = 1; i < n; i++) {
		if (stat("guest", a, w, p[i], p[i], "erate") < 2) return -1
		hi1 = HI
		if (stat("guest", a, w, p[i + 1], p[i + 1], "erate") < 2) return -1
		if (LO <= hi1) return 0
	}
	return n > 1
}

# the mean erate of g predicted by kind (counterfactual: over every other
# source; closed: the rt-app run) -> P; 0 when none
function predicted(kind, a, w, g,   j, src, k) {
	P = 0; k = 0
	if (kind == "closed") { if (stat(kind, a, w, "rt-app", g, "erate")) { P = M; return 1 } return 0 }
	for (j = 1; j <= ngov; j++) {
		src = order["gov", j]
		if (src != g && stat(kind, a, w, src, g, "erate")) { P += M; k++ }
	}
	if (k) P /= k
	return k > 0
}
# variant x against teo on (a, w): a table cell; counts the verdicts
function wcell(a, w, x,   te, tlo, thi, tn, xe, xlo, xhi, xn, d, apart, tp, xp, sg, c, bp, cp, pb, pc) {
	if (!stat("guest", a, w, "teo", "teo", "erate")) return "| - | - | - |"
	te = M; tlo = LO; thi = HI; tn = N
	if (!stat("guest", a, w, x, x, "erate")) return "| - | - | - |"
	xe = M; xlo = LO; xhi = HI; xn = N
	d = te ? 100 * (xe - te) / te : 0
	apart = tn > 1 && xn > 1 && (xhi < tlo || xlo > thi)
	stat("guest", a, w, "teo", "teo", "wu_lat_p99_us"); tp = M
	stat("guest", a, w, x, x, "wu_lat_p99_us"); xp = M
	sg = xe < te ? -1 : 1
	wq_n[x]++
	if (apart && sg < 0) wq_less[x]++
	if (apart && sg > 0) wq_more[x]++
	c = ""
	if (predicted("counterfactual", a, w, x)) { bp = P; if (predicted("counterfactual", a, w, "teo")) { pb = (bp < P ? -1 : 1) == sg; wq_b[x] += pb; wq_bn[x]++; c = c (pb ? "yes" : "no") } }
	c = c " / "
	if (predicted("closed", a, w, x)) { cp = P; if (predicted("closed", a, w, "teo")) { pc = (cp < P ? -1 : 1) == sg; wq_c[x] += pc; wq_cn[x]++; c = c (pc ? "yes" : "no") } }
	if (apart) { wq_an[x]++; wq_ab[x] += pb; wq_ac[x] += pc }
	return sprintf("| %s%s | %s | %s |", (d >= 0 ? "+" : "") f1(d), apart ? " (apart)" : (tn > 1 && xn > 1 ? " (within ranges)" : " (one run)"),
		xp || tp ? sprintf("%d / %d", xp, tp) : "-", c)
}
function weighted(   i, j, a, w, x) {
	print "## The weighted TEO on a kernel"
	print ""
	print "Each weighted variant against teo in the guest: its idle energy per ms of the workload's window (the kernel's own states and residencies under idlesim's power model, as in the tables below; % of teo's; *apart*: the two governors' ranges over the repetitions do not overlap), rt-app's p99 wakeup latency (us, variant / teo; - where the file's tasks do not sleep), and whether idlesim predicted the sign of the energy difference by (b) counterfactual replay (the mean over the other governors' captures) / (c) the closed loop. wteo: the series' weighted TEO with its defaults; wteo-chosen: with `range=chosen,poll=avoid`."
	print ""
	print "| arch | workload | wteo: energy vs teo % | p99 us | predicted (b) / (c) | wteo-chosen: energy vs teo % | p99 us | predicted (b) / (c) |"
	print "|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= narch; i++) for (j = 1; j <= nwl; j++) {
		a = order["arch", i]; w = order["wl", j]
		if (!stat("guest", a, w, "teo", "teo", "erate")) continue
		printf "| %s | %s %s %s\n", a, w, wcell(a, w, "wteo"), substr(wcell(a, w, "wteo-chosen"), 3)
	}
	print ""
	for (x in wq_n)
		printf "- %s: less energy than teo beyond the ranges in %d of %d cells, more in %d; the sign predicted by (b) in %d of %d, by (c) in %d of %d; where apart (%d cells): (b) %d, (c) %d.\n", x, wq_less[x], wq_n[x], wq_more[x], wq_b[x], wq_bn[x], wq_c[x], wq_cn[x], wq_an[x], wq_ab[x], wq_ac[x]
	print ""
}

NR == 1 { next }
{
	a = $1; w = $2; kind = $3; src = $4; g = $5; r = $6; m = $7
	v[kind, a, w, src, g, r, m] = $8
	narch = add("arch", narch, a)
	nwl = add("wl", nwl, w)
	if (kind == "guest") ngov = add("gov", ngov, g)
	if (r + 0 > nrep) nrep = r + 0
	if (m ~ /^time_pct_s/ && substr(m, 11) + 1 > nst[a]) nst[a] = substr(m, 11) + 1
	if (kind == "meta" && m == "collect_s") { collect += $8; nruns[a, w]++ }
	if (kind == "guest" && m == "selections") { nrun[a, w, g]++; guest_runs++ }
}
END {
	# energy per ms of the window: the guest's and the model's over the
	# capture's window, the closed loop's over its duration
	for (k in v) {
		split(k, x, SUBSEP)
		if (x[7] != "energy") continue
		if (x[1] == "self" || x[1] == "counterfactual")  # the source run's window
			wk = "guest" SUBSEP x[2] SUBSEP x[3] SUBSEP x[4] SUBSEP x[4] SUBSEP x[6] SUBSEP "window_ms"
		else
			wk = x[1] SUBSEP x[2] SUBSEP x[3] SUBSEP x[4] SUBSEP x[5] SUBSEP x[6] SUBSEP "window_ms"
		if (wk in v && v[wk] > 0)
			v[x[1], x[2], x[3], x[4], x[5], x[6], "erate"] = v[k] / v[wk]
	}

	print "<!-- generated by " cmd ": do not edit; the summary is tools/svk/summary.md -->"
	print "# Does idlesim predict the kernel?"
	print ""
	include(summary)
	print ""
	weighted()
	print "## How this was measured"
	print ""
	printf "`%s`, from the runs in `%s` (collect: %d guest runs in %.0f minutes of this machine; ", cmd, runs == "" ? ".cache/sim-vs-kernel" : runs, guest_runs, collect / 60
	printf "the analysis: a few minutes).  Per architecture and workload, repetitions:"
	for (i = 1; i <= narch; i++) for (j = 1; j <= nwl; j++)
		if ((order["arch", i], order["wl", j]) in nruns) printf " %s/%s %d;", order["arch", i], order["wl", j], nruns[order["arch", i], order["wl", j]]
	print ""
	print ""
	print "- **The guest's figures** are idlesim's exact replay of the series' decision events: the kernel's own states and residencies, scored with idlesim's power model; its per-state time shares are held against the guest's sysfs counters below. rt-app's `wu_lat` comes from its logs."
	print "- Everything is measured over the span of rt-app's threads in the capture (the first switch to a thread named as one of its tasks, the last switch away from one): `idlesim run --window`. The governors run from boot (the captures start there). The guest's sysfs counters are read around rt-app (trace markers `idlesim: rt-app start`, `end`), so their cross-check replays that span; inside it, rt-app calibrates and writes its logs (6 of 16 s in an x86_64 run)."
	print "- **(a) self-replay**: the stock capture (`idlesim import`, no series events) through the same governor in model mode. *agree*: the first selection of an idle period equals the kernel's state and stop-tick; *state*: the state alone; baselines: always polling, and the other governor (teo for menu's runs, menu for the others) replayed the same way; *the kernel's inputs*: the same model mode on the series' events (the kernel's own sleep lengths, tick states and idle durations) instead of the stock import: what the idle-loop model loses without the importer's reconstruction. The stock capture holds the kprobe events a user's capture adds on a stock kernel (tools/capture/probes.sh: the sleep length the governor read, the latency limit, the stop decision; runs collected before 2026-12-06 have none); *tracepoints only*: the same capture imported with `--no-probes`. Periods are matched by time (the series' times are the governor's clock: mapped by its cpuidle_gov_clock events)."
	print "- **(b) counterfactual**: governor A's stock capture replayed through B, against B's own runs (the mean over B's repetitions)."
	print "- **(c) closed loop**: the same rt-app file run by idlesim under B (`idlesim run --workload rt-app:FILE`), against B's runs."
	print "- Columns: *Δshare*: the largest difference of a state's share of idle time (percentage points; which state); *range*: the guest's largest range of a state's share over its repetitions; *above*, *below*: relative error of the count per selection (%); *energy*: relative error of the idle energy per ms of the window (%). ✗: misses the goal (3 pp, 10%, 10%, 5%); ~: misses it but lies within the guest's range over its repetitions."
	print ""

	# the guest's method: exact replay vs its sysfs counters
	print "## The guest's figures against its sysfs counters"
	print ""
	print "| arch | workload | governor | runs | largest share difference, exact replay vs sysfs (pp) |"
	print "|---|---|---|---|---|"
	for (i = 1; i <= narch; i++) for (j = 1; j <= nwl; j++) for (k = 1; k <= ngov; k++) {
		a = order["arch", i]; w = order["wl", j]; g = order["gov", k]
		worst = 0; n = 0
		for (r = 1; r <= nrep; r++) for (s = 0; s < nst[a]; s++)
			if (("guest", a, w, g, g, r, "sysfs_time_pct_s" s) in v) {
				d = abs(v["guest", a, w, g, g, r, "marker_time_pct_s" s] - v["guest", a, w, g, g, r, "sysfs_time_pct_s" s])
				if (d > worst) worst = d
				n = 1
			}
		if (!n) continue
		printf "| %s | %s | %s | %d | %s |\n", a, w, g, nrun[a, w, g], f2(worst)
		if (worst > sysfs_worst) sysfs_worst = worst
	}
	print ""

	print "## (a) Self-replay"
	print ""
	print "| arch | workload | governor | periods | agree % | state % | always poll % | other governor % | state %, the kernel's inputs | state %, tracepoints only | Δshare | above | below | energy |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= narch; i++) for (j = 1; j <= nwl; j++) for (k = 1; k <= ngov; k++) {
		a = order["arch", i]; w = order["wl", j]; g = order["gov", k]
		if (!stat("self", a, w, g, g, "agree_pct")) continue
		ag = M; agl = LO; agh = HI
		stat("self", a, w, g, g, "agree_periods"); per = M
		stat("self", a, w, g, g, "agree_state_pct"); st = M
		stat("self", a, w, g, g, "agree_poll_pct"); po = M
		stat("self", a, w, g, g, "agree_other_pct"); ot = M
		stat("self", a, w, g, g, "agree_series_state_pct"); se = M; sel = LO
		stat("self", a, w, g, g, "agree_state_pct"); stl = LO
		# from the tracepoints alone (no kprobes), and how many periods
		# the probes gave (reports before them: the same figure)
		tp = st; tpl = stl; pp = 0
		if (stat("self", a, w, g, g, "agree_tp_state_pct")) { tp = M; tpl = LO }
		if (stat("self", a, w, g, g, "import_probe_pct")) pp = M
		compare("self", a, w, g, g)
		printf "| %s | %s | %s | %d | %s [%s-%s] | %s | %s | %s | %s | %s | %s (s%d) | %s | %s | %s |\n", a, w, g, per, f1(ag), f1(agl), f1(agh), f1(st), f1(po), f1(ot), f1(se), f1(tp),
			f1(DS), DSS, f1(EA), f1(EB), f1(EE)
		ck = a " " setof(w)
		ma_tp[ck] += tp; ma_pp[ck] += pp
		if (!(ck in ma_tpl) || tpl < ma_tpl[ck]) ma_tpl[ck] = tpl
		ma_n[ck]++; ma_st[ck] += st; ma_ag[ck] += ag; ma_se[ck] += se; ma_ds[ck] += DS; ma_e[ck, ma_n[ck]] = abs(EE)
		if (!(ck in ma_sel) || sel < ma_sel[ck]) ma_sel[ck] = sel
		if (!(ck in ma_stl) || stl < ma_stl[ck]) ma_stl[ck] = stl
		self_n++; if (agl >= 99) self_ok++
		if (st > po) self_poll++
		if (st > ot) self_other++
		if (abs(EE) > self_energy) self_energy = abs(EE)
		stat("self", a, w, g, g, "selections"); xs = M
		stat("guest", a, w, g, g, "selections")
		if (M && xs / M > self_sel) self_sel = xs / M
		if (agl < self_worst || self_worst == "") self_worst = agl
		if (sel < series_worst || series_worst == "") series_worst = sel
	}
	print ""

	print "### The kprobe capture's inputs against the kernel's"
	print ""
	print "The stock capture's records (the probes of tools/capture/probes.sh, imported as a user's capture is) against the series' own records of the same selections, matched by time, over the window: the share of periods whose field equals the kernel's. *slr*: whether the governor read the sleep length; *sleep*, *delta_next*: its value and `*delta_next`, where both read one; *lat*: the latency limit; *stop*: the stop-tick decision where the tick ran at the select; *lres*, *gt*, *pl*: the residency, got-tick and poll limit the governor's reflect took. *exact replay*: `replay --check` of the stock import through the governor that ran, over the whole capture: the share of the kernel's decisions it makes. `-`: the run's capture lacks that probe (runs before 2026-12-07). The x86_64 runs import the guest's trace.dat (`trace-cmd extract` of the same buffer, since 2026-12-07): its stamps are nanoseconds, where the text rounds them to the microsecond, which flipped teo's hit test (`time_span_ns >= sleep_length_ns`); the ppc64le guest has no trace-cmd, and its runs import the text."
	print ""
	print "| arch | workload | governor | periods | slr % | sleep % | delta_next % | lat % | stop % | lres % | gt % | pl % | exact replay % |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= narch; i++) for (j = 1; j <= nwl; j++) for (k = 1; k <= ngov; k++) {
		a = order["arch", i]; w = order["wl", j]; g = order["gov", k]
		if (!stat("self", a, w, g, g, "probe_eq_periods")) continue
		line = sprintf("| %s | %s | %s | %d", a, w, g, M)
		nf = split("slr sleep delta_next lat stop lres gt pl", fld, " ")
		for (q = 1; q <= nf; q++) {
			if (stat("self", a, w, g, g, "probe_eq_" fld[q])) {
				line = line " | " f2(LO)
				ck = a " " setof(w)
				if (!((ck, fld[q]) in pe_lo) || LO < pe_lo[ck, fld[q]]) pe_lo[ck, fld[q]] = LO
			} else line = line " | -"
		}
		if (stat("self", a, w, g, g, "stock_exact_pct")) {
			line = line " | " f2(LO) " |"
			if (!((a, g) in ex_lo) || LO < ex_lo[a, g]) ex_lo[a, g] = LO
		} else line = line " | - |"
		print line
	}
	print ""
	print "Each cell: the lowest of its repetitions."
	print ""

	print "## (b) Counterfactual replay"
	print ""
	print "| arch / workload / A → B | Δshare pp | guest range pp | above % | below % | energy % |"
	print "|---|---|---|---|---|---|"
	for (i = 1; i <= narch; i++) for (j = 1; j <= nwl; j++) for (k = 1; k <= ngov; k++) for (l = 1; l <= ngov; l++) {
		a = order["arch", i]; w = order["wl", j]; src = order["gov", k]; g = order["gov", l]
		if (src == g || !compare("counterfactual", a, w, src, g)) continue
		print row_cmp(a " / " w " / " src " → " g)
		ck = a " " setof(w)
		mb_n[ck]++; mb_ds[ck] += DS; mb_e[ck, mb_n[ck]] = abs(EE)
	}
	print ""

	print "## (c) Closed loop"
	print ""
	print "Each governor runs the file from the history its guest run had when rt-app's threads began (`idlesim run --warm`: the stock capture's records before the window), one closed loop per repetition, averaged as the guest's are (until 2026-12-07 it started from a reset: docs/held-out.md has the change's before and after)."
	print ""
	print "*wakeup latency p50 / p99 (us)*: idlesim's (the exit latency paid by each irq or IPI wakeup: the engine does not model timer slack, scheduling or queueing) against the guest's rt-app `wu_lat` (from a task's due wakeup to its running: all of those; mean over the repetitions). - where the file's tasks do not sleep."
	print ""
	print "| arch / workload / B | Δshare pp | guest range pp | above % | below % | energy % | wakeup latency p50 / p99 us: idlesim | guest rt-app |"
	print "|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= narch; i++) for (j = 1; j <= nwl; j++) for (l = 1; l <= ngov; l++) {
		a = order["arch", i]; w = order["wl", j]; g = order["gov", l]
		if (!compare("closed", a, w, "rt-app", g)) continue
		t = row_cmp(a " / " w " / " g)
		ck = a " " setof(w)
		mc_n[ck]++; mc_ds[ck] += DS; mc_e[ck, mc_n[ck]] = abs(EE)
		lat = "-"; glat = "-"
		if (stat("closed", a, w, "rt-app", g, "lat_p50_us")) { p50 = M; stat("closed", a, w, "rt-app", g, "lat_p99_us"); lat = f1(p50) " / " f1(M) }
		if (stat("guest", a, w, g, g, "wu_lat_p50_us")) { p50 = M; stat("guest", a, w, g, g, "wu_lat_p99_us"); glat = sprintf("%d / %d", p50, M) }
		if (glat == "0 / 0") glat = lat = "-"
		print t " " lat " | " glat " |"
	}
	print ""

	print "## (d) Verdicts: governors ranked by energy (least first)"
	print ""
	print "| arch | workload | guest | apart beyond the guest's range? | (b) counterfactual | (c) closed loop | guest by p99 wu_lat |"
	print "|---|---|---|---|---|---|---|"
	for (i = 1; i <= narch; i++) for (j = 1; j <= nwl; j++) {
		a = order["arch", i]; w = order["wl", j]
		gr = ranking("guest", a, w, "erate")
		if (gr == "") continue
		sep = separated(a, w, gr)
		br = ranking("counterfactual", a, w, "erate"); cr = ranking("closed", a, w, "erate")
		printf "| %s | %s | %s | %s | %s%s | %s%s | %s |\n", a, w, gr, sep < 0 ? "one run: no range" : sep ? "yes" : "no", br, br == gr ? " (same)" : "", cr, cr == gr ? " (same)" : "",
			ranking("guest", a, w, "wu_lat_p99_us")
		if (sep > 0) { d_n++; if (br == gr) d_b++; if (cr == gr) d_c++ }
	}
	print ""
	print "## Where the goals stand"
	print ""
	print "Over the cells (each cell: the mean over its repetitions): agreement and Δshare are means, with the lowest single run in brackets; the energy errors (absolute) are medians, as a few cells are off by several times (the closed loop on hackbench). The held-out set (docs/held-out.md: no model change was tuned on it) comes first."
	print ""
	print "| arch | set | (a) cells | state agreement % [lowest run] | state and stop-tick % | state, the kernel's inputs % [lowest run] | state, tracepoints only % [lowest run] | periods with the probes' sleep length % | Δshare pp | energy error % | (b) Δshare pp | (b) energy error % | (c) Δshare pp | (c) energy error % |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= narch; i++) for (j = 1; j <= 2; j++) {
		a = order["arch", i]
		ck = a " " (j == 1 ? "held-out" : "training")
		if (!ma_n[ck]) continue
		printf "| %s | %s | %d | %s [%s] | %s | %s [%s] | %s [%s] | %s | %s | %s | %s | %s | %s | %s |\n", a, j == 1 ? "held-out" : "training", ma_n[ck],
			f1(ma_st[ck] / ma_n[ck]), f1(ma_stl[ck]), f1(ma_ag[ck] / ma_n[ck]), f2(ma_se[ck] / ma_n[ck]), f2(ma_sel[ck]),
			f1(ma_tp[ck] / ma_n[ck]), f1(ma_tpl[ck]), f1(ma_pp[ck] / ma_n[ck]),
			f1(ma_ds[ck] / ma_n[ck]), f1(median(ma_e, ck, ma_n[ck])),
			mb_n[ck] ? f1(mb_ds[ck] / mb_n[ck]) : "-", mb_n[ck] ? f1(median(mb_e, ck, mb_n[ck])) : "-",
			mc_n[ck] ? f1(mc_ds[ck] / mc_n[ck]) : "-", mc_n[ck] ? f1(median(mc_e, ck, mc_n[ck])) : "-"
	}
	print ""
	printf "- (a) agreement >= 99%% on every run: %d of %d cells (lowest run: %s%%); above the always-poll baseline: %d of %d. The model on the kernel's own inputs: lowest run %s%%.\n", self_ok, self_n, f1(self_worst), self_poll, self_n, f2(series_worst)
	printf "- (b) and (c), %d comparisons: time shares within 3 pp: %d; above within 10%% or the guest's range: %d; below: %d; energy within 5%% or the range: %d.\n", goals_n, g_share, g_above, g_below, g_energy
	printf "- (d) where the guest's energy ranking is apart beyond its range (%d cells): counterfactual same ranking %d, closed loop %d.\n", d_n, d_b, d_c
	printf "- The guest's method: exact replay vs sysfs, largest share difference %s pp.\n", f2(sysfs_worst)
	printf "- Self-replay: state agreement above the other governor's in %d of %d cells; largest energy error %s%%; at most %s model selections per kernel selection.\n", self_other, self_n, f1(self_energy), f2(self_sel)
	line = ""
	for (i = 1; i <= narch; i++) for (j = 1; j <= 2; j++) {
		a = order["arch", i]; ck = a " " (j == 1 ? "held-out" : "training")
		nf = split("slr sleep delta_next lat stop lres gt pl", fld, " ")
		part = ""
		for (q = 1; q <= nf; q++) if ((ck, fld[q]) in pe_lo) part = part (part == "" ? "" : ", ") fld[q] " " f2(pe_lo[ck, fld[q]])
		if (part != "") line = line sprintf("%s %s: %s. ", a, j == 1 ? "held-out" : "training", part)
	}
	if (line != "") printf "- The kprobe capture's inputs equal to the kernel's, lowest run per field: %s\n", line
	line = ""
	for (i = 1; i <= narch; i++) for (k = 1; k <= ngov; k++) {
		a = order["arch", i]; g = order["gov", k]
		if ((a, g) in ex_lo) line = line sprintf("%s%s %s %s%%", line == "" ? "" : "; ", a, g, f2(ex_lo[a, g]))
	}
	if (line != "") printf "- Exact replay of the stock import (`replay --check`), lowest run: %s.\n", line
	if (check) {
		# What holds today on CI's reduced run (x86_64, pgbench, menu and
		# teo, seeds 1 and 2, 3 s) on the deterministic guest (QEMU's
		# instruction-count clock, the same kernel and image bytes on any
		# machine: docs/kernel-validation.md): its 3 s runs were the same
		# bytes in two clean clones' runs beside a CPU-bound load.
		# Measured 2026-12-06 on the guests that wait for NOHZ and carry
		# the kprobes from boot (tools/capture/probes.sh): the kernel's
		# side agrees with its sysfs counters within 0.28 pp; self-replay
		# keeps 99.9% of the kernel's selections at the lowest (before the
		# probes and the wait: 63.7%, teo), its largest energy error is
		# 1.1% (before: 32.3%), 1.00 model selections per kernel
		# selection (before: 1.31); the model on the kernel's own inputs
		# keeps 100.00%.  The checks: 2 pp, above always polling, 99%,
		# 5%, 1.05, 99.5%.
		if (sysfs_worst > 2) fail = fail "exact replay vs sysfs differ by more than 2 pp; "
		if (self_poll < self_n) fail = fail "a self-replay agrees less than always polling; "
		if (self_worst < 99.9) fail = fail "a self-replay agrees in less than 99.9% of its periods; "
		if (series_worst < 99.5) fail = fail "the model on the kernel's own inputs keeps less than 99.5% of its selections; "
		if (self_energy > 5) fail = fail "a self-replay's energy is off by more than 5%; "
		if (self_sel > 1.05) fail = fail "a self-replay makes more than 1.05 selections per kernel selection; "
		# With all nine probes (2026-12-07) the reduced run's self-replays
		# keep 100.0% of the kernel's states (energy error 1.2% at most):
		# the agreement check is 99.9%.
		# The kprobe capture (2026-12-07, issue 40): its inputs equal the
		# series' in 100.00% of the reduced run's matched periods, field
		# by field, and its exact replay makes every decision of menu
		# and teo (one pgbench run of each: 0 mismatches).  Checked at
		# 99.9% where the runs carry the probes.
		for (key in pe_lo) if (pe_lo[key] < 99.9) { split(key, kk, SUBSEP); fail = fail "the kprobe capture's " kk[2] " equals the kernel's in less than 99.9% (" kk[1] "); " }
		for (key in ex_lo) { split(key, kk, SUBSEP); if (kk[2] ~ /^(menu|teo)$/ && ex_lo[key] < 99.9) fail = fail "the exact replay of " kk[1] " " kk[2] "'s stock capture makes less than 99.9% of its decisions; " }
		if (fail != "") { print "check failed: " fail > "/dev/stderr"; exit 1 }
		print "check passed: sysfs, always-poll baseline, agreement, energy, selections, the kprobe capture's inputs and exact replay" > "/dev/stderr"
	}
}
