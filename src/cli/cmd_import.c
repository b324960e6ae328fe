// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlesim import: captures from real kernels into native traces.
 *
 * Stock captures (ftrace text, trace-cmd report text, trace.dat) go
 * through the reconstructing importer; --format cpuidle-events reads the
 * idlesim kernel series' own events (exact inputs).  --report then scores
 * the kernel's decisions and replays governors on the same periods.
 */
#include <string.h>

#include "cli.h"
#include "idlesim/import.h"

/* the bundle's strings, freed on every return */
typedef struct is_bundle IsBundle;
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(IsBundle, is_bundle_clear)

static void pct_line(FILE *f, const char *what, uint64_t n, uint64_t of)
{
	fprintf(f, "  %-34s %10" G_GUINT64_FORMAT "  %5.1f%%\n", what, n, cli_pct(n, of));
}

static void print_stats(FILE *f, const char *in, const char *out, const struct is_capture_stats *s,
			int hz)
{
	static const char *const miss[] = { "none", "above", "below" };
	uint64_t judged = s->miss_agree + s->miss_disagree;

	fprintf(f, "capture %s: %s, %.1f MB, %" G_GUINT64_FORMAT " %s, %" G_GUINT64_FORMAT
	       " events (%" G_GUINT64_FORMAT " used, %" G_GUINT64_FORMAT " other, ignored)\n",
	       in, is_capture_format_name(s->format), (double)s->bytes / 1e6, s->lines,
	       s->format == IS_CAP_DAT ? "records" : "lines", s->events, s->used_events,
	       s->unknown_events);
	if (s->cut_line)
		fprintf(f, "warning: line %" G_GUINT64_FORMAT " is cut off (the capture stopped "
			"mid-write): dropped\n", s->cut_line);
	fprintf(f, "%s: %" G_GUINT64_FORMAT " idle periods on %d CPUs over %.3f s\n", out,
	       s->records, s->cpus, (double)(s->last_ns - s->first_ns) / 1e9);
	fprintf(f, "inputs (see traces/README.md, \"Importing stock captures\"):\n");
	pct_line(f, "all exact", s->exact, s->records);
	pct_line(f, "sleep length estimated (est=sleep)", s->est_sleep, s->records);
	pct_line(f, "tick state estimated (est=ts)", s->est_ts, s->records);
	pct_line(f, "idle duration estimated (est=idle)", s->est_idle, s->records);
	if (s->probe_sleep + s->probe_latreq + s->probe_stop + s->probe_reflect == 0) {
		fprintf(f, "  kprobes: none in the capture (tools/capture/probes.sh records the "
			"governor's inputs)\n");
	} else if (s->probes_ignored) {
		fprintf(f, "  kprobes: %" G_GUINT64_FORMAT " sleep-length, %" G_GUINT64_FORMAT
			" latency, %" G_GUINT64_FORMAT " stop-tick, %" G_GUINT64_FORMAT
			" reflect events, not used (--no-probes)\n",
			s->probe_sleep, s->probe_latreq, s->probe_stop, s->probe_reflect);
	} else {
		fprintf(f, "  kprobes: %" G_GUINT64_FORMAT " sleep-length (%s), %"
			G_GUINT64_FORMAT " latency, %" G_GUINT64_FORMAT " stop-tick, %" G_GUINT64_FORMAT
			" draw, %" G_GUINT64_FORMAT " select events; %" G_GUINT64_FORMAT
			" periods take the sleep length (or that none was read) from them\n",
			s->probe_sleep, s->probe_delta ? "delta_next read" :
			s->probe_sleep ? "delta_next not readable: estimated" : "no select read it",
			s->probe_latreq, s->probe_stop, s->probe_draw, s->probe_select,
			s->probe_sleep_records);
		if (s->probe_iowait_records)
			fprintf(f, "  nr_iowait probes: %" G_GUINT64_FORMAT "; %" G_GUINT64_FORMAT
				" periods carry the select's reading (io=, menu of 6.1)\n",
				s->probe_iowait, s->probe_iowait_records);
		if (s->probe_reflect)
			fprintf(f, "  reflect probes: %" G_GUINT64_FORMAT " (got-tick %" G_GUINT64_FORMAT
				"); %" G_GUINT64_FORMAT " periods take the kernel's residency from them (%"
				G_GUINT64_FORMAT " passes not entered, %" G_GUINT64_FORMAT
				" for another state, %" G_GUINT64_FORMAT " outside their period: not "
				"taken)\n", s->probe_reflect, s->probe_got_tick, s->probe_lres_records,
				s->probe_reflect_busy, s->probe_reflect_other, s->probe_reflect_off);
		if (s->probe_teo_span)
			fprintf(f, "  teo span probes: %" G_GUINT64_FORMAT "; %" G_GUINT64_FORMAT
				" periods take teo's time span from them (%" G_GUINT64_FORMAT
				" set to the sleep length by a safety net, %" G_GUINT64_FORMAT
				" too far from the trace's: not taken)\n", s->probe_teo_span,
				s->probe_span_records, s->probe_span_net, s->probe_span_off);
		if (s->probe_got_tick_unknown)
			fprintf(f, "  %" G_GUINT64_FORMAT " got-tick readings given by address before "
				"any select probe's: their caller (a governor or do_idle()) unknown, "
				"not taken\n", s->probe_got_tick_unknown);
		if (s->probe_reflect_busy)
			fprintf(f, "  refused selects (need_resched): %" G_GUINT64_FORMAT " written as "
				"rej=1 records, %" G_GUINT64_FORMAT " dropped%s\n",
				s->probe_rejected_records, s->probe_rejected_dropped,
				s->probe_select ? "" : " (no select probe: their state is unknown)");
	}
	if (s->start_lres_cpus || s->start_lres_unknown)
		fprintf(f, "  dev->last_residency_ns at each CPU's first record, from the reflect probe: "
			"%" G_GUINT64_FORMAT " CPUs in the header (last_residency_ns), %" G_GUINT64_FORMAT
			" not known (0 assumed, as at boot)\n", s->start_lres_cpus, s->start_lres_unknown);
	if (s->reset_dropped)
		fprintf(f, "  %" G_GUINT64_FORMAT " periods came before their CPU's first select "
			"after the governor's reset (its state then is not known): dropped\n",
			s->reset_dropped);
	if (s->probe_unselected)
		fprintf(f, "  %" G_GUINT64_FORMAT " idle periods had no governor's select (no "
			"latency probe: the default idle loop, e.g. before the cpuidle driver "
			"registered): dropped\n", s->probe_unselected);
	fprintf(f, "  tick timer function: %s\n",
	       s->tick_function[0] ? s->tick_function : "not identified");
	if (hz > 0 && s->hz_seen && s->hz_seen != hz)
		fprintf(f, "warning: HZ %d given, but the tick timer (%s) runs at HZ %d\n", hz,
			s->hz_function, s->hz_seen);
	else if (hz > 0)
		fprintf(f, "  HZ %d (given)\n", hz);
	else if (s->hz_seen)
		fprintf(f, "  HZ %d (the tick timer %s's grid)\n", s->hz_seen, s->hz_function);
	else
		fprintf(f, "  HZ 100 assumed: the capture shows no tick timer (--hz sets it)\n");
	if (s->tick_expiries >= 20)
		fprintf(f, "  tick lateness %.1f us: the median of %" G_GUINT64_FORMAT " tick expiries "
			"after their time (the model's retained tick arrives as late: header "
			"tick_late_ns)\n", (double)s->tick_late_median_ns / 1e3, s->tick_expiries);
	else
		fprintf(f, "  tick lateness 0: %" G_GUINT64_FORMAT " tick expiries seen, fewer than 20\n",
			s->tick_expiries);
	if (s->poll_limit_periods >= 20)
		fprintf(f, "  poll overrun %.1f us: %" G_GUINT64_FORMAT " polls ended at their time "
			"limit (%.1f us), median %.1f us (the model's poll lasts as long: "
			"header poll_overrun_ns)\n",
			(double)MAX(s->poll_median_ns - s->poll_limit_ns, 0) / 1e3,
			s->poll_limit_periods, (double)s->poll_limit_ns / 1e3,
			(double)s->poll_median_ns / 1e3);
	else if (s->poll_limit_periods)
		fprintf(f, "  poll overrun 0: %" G_GUINT64_FORMAT " polls ended at their time limit "
			"(20 needed to measure it)\n", s->poll_limit_periods);
	fprintf(f, "wakeup causes:\n");
	for (int c = 0; c < IS_CAUSE_COUNT; c++)
		if (s->cause[c])
			pct_line(f, is_cause_name(c), s->cause[c], s->records);
	fprintf(f, "dropped: %" G_GUINT64_FORMAT " cut by the capture's start, %" G_GUINT64_FORMAT
	       " by its end, %" G_GUINT64_FORMAT " with no exit, %" G_GUINT64_FORMAT
	       " at lost-events markers (%" G_GUINT64_FORMAT " markers), %" G_GUINT64_FORMAT
	       " by CPU hotplug; %" G_GUINT64_FORMAT " stray exits, %" G_GUINT64_FORMAT
	       " events reordered, %" G_GUINT64_FORMAT " buffer-start markers\n",
	       s->partial_start, s->partial_end, s->no_exit, s->lost_dropped, s->lost_markers,
	       s->hotplug_dropped, s->stray_exit, s->reordered, s->buffer_starts);
	if (s->miss_events) {
		fprintf(f, "cpu_idle_miss cross-check: %" G_GUINT64_FORMAT
		       " kernel events; per period, the kernel's verdict equals the rule "
		       "applied to the imported idle duration in %.1f%% of %" G_GUINT64_FORMAT "\n",
		       s->miss_events, cli_pct(s->miss_agree, judged), judged);
		for (int k = 0; k < 3; k++)
			fprintf(f, "  %-6s kernel %10" G_GUINT64_FORMAT "  imported %10" G_GUINT64_FORMAT
			       "\n", miss[k], s->miss_kernel[k], s->miss_ours[k]);
	} else {
		fprintf(f, "cpu_idle_miss cross-check: no cpu_idle_miss events in the capture\n");
	}
}

int cmd_import(int argc, char **argv)
{
	g_autofree char *out = NULL, *format = NULL, *states = NULL, *govs = NULL;
	gint hz = -1;
	gint64 window = IS_CAPTURE_DEFAULT_WINDOW;
	gboolean report = FALSE, quiet = FALSE, tick_traced = FALSE, no_probes = FALSE;
	g_autofree char *rts_arg = NULL, *reset_gov = NULL;
	int rts = IS_RTS_TIMERS;
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "native trace to write (.istb = binary)", "FILE" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format,
		  "auto (default: by content), ftrace (tracefs text), trace-cmd (report text), dat "
		  "(trace.dat), or cpuidle-events (the idlesim kernel series' events)", "FMT" },
		{ "states", 's', 0, G_OPTION_ARG_FILENAME, &states, "state table of the captured machine (required): a built-in name, a key file, or a sysfs dump", "NAME|FILE|DIR" },
		{ "hz", 0, 0, G_OPTION_ARG_INT, &hz, "CONFIG_HZ of the captured kernel (default: the capture's tick timer, else 100, said)", "N" },
		{ "reorder-window", 0, 0, G_OPTION_ARG_INT64, &window,
		  "events held to sort out-of-order input (default 65536)", "N" },
		{ "tick-stop-traced", 0, 0, G_OPTION_ARG_NONE, &tick_traced,
		  "timer:tick_stop was enabled: once a CPU is seen entering or leaving the idle loop, no tick_stop event means its tick runs (exact, not est=ts)", NULL },
		{ "running-tick-sleep", 0, 0, G_OPTION_ARG_STRING, &rts_arg,
		  "sleep length of a selection that kept a running tick (stock events cannot tell): "
		  "timers (the next hrtimer, default) or tick (the next tick, as when "
		  "tick_nohz_next_event() returns 0)", "timers|tick" },
		{ "governor-reset", 0, 0, G_OPTION_ARG_STRING, &reset_gov,
		  "the capture reset the governor by switching to NAME and back (idlesim-capture's "
		  "trace markers): each CPU's periods before its first select after the reset "
		  "are dropped", "NAME" },
		{ "no-probes", 0, 0, G_OPTION_ARG_NONE, &no_probes,
		  "ignore the capture's kprobe events (tools/capture/probes.sh): the stock "
		  "tracepoints' reconstruction alone", NULL },
		{ "report", 'r', 0, G_OPTION_ARG_NONE, &report,
		  "score the kernel's decisions and replay governors on the same periods", NULL },
		{ "governor", 'g', 0, G_OPTION_ARG_STRING, &govs,
		  "governors for --report (default teo-6.12,menu-6.12,wteo,oracle)", "NAME[,NAME...]" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no import summary", NULL },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("IN - turn a kernel capture into a native trace");
	struct is_trace_header h;
	struct is_state_table *t;
	g_auto(IsBundle) bundle = { 0 };
	const char *in = NULL;
	uint32_t disabled = 0;
	GError *err = NULL;
	int code, f;
	bool kevents;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"Stock captures need power:cpu_idle; timer:hrtimer_*, timer:tick_stop, irq:*,\n"
		"ipi:*, sched:sched_wakeup/sched_switch and power:cpu_idle_miss refine them.\n"
		"gzip and xz input is decompressed transparently.");
	if (!cli_parse(ctx, &argc, &argv, &code))
		return code;
	if (argc != 2 || !out) {
		cli_error("import needs one input and -o OUT (see --help)");
		return EXIT_USAGE;
	}
	if (!cli_out_check("--output", out, &code))
		return code;
	in = argv[1];
	kevents = format && strcmp(format, "cpuidle-events") == 0;
	/*
	 * A bundle of tools/capture/idlesim-capture carries the capture, the
	 * table, HZ and the tick_stop setting: no flag needed (given ones win).
	 */
	if (!kevents && is_bundle_is(argv[1])) {
		if (!is_bundle_read(argv[1], &bundle, &err))
			goto fail;
		in = bundle.trace;
		if (!states)
			states = g_strdup(bundle.states);
		if (hz == -1 && bundle.hz > 0)
			hz = bundle.hz;
		if (bundle.tick_stop_traced)
			tick_traced = TRUE;
		if (!reset_gov && bundle.reset_governor[0])
			reset_gov = g_strdup(bundle.reset_governor);
		if (!quiet) {
			FILE *q = strcmp(out, "-") ? stdout : stderr;

			fprintf(q, "bundle %s: %s%s, %d CPUs, governor %s, HZ %s (%s)\n",
				argv[1],
				g_str_has_prefix(bundle.release, IS_EXPORT_RELEASE) ? "" : "Linux ",
				bundle.release[0] ? bundle.release : "?", bundle.cpus,
				bundle.governor[0] ? bundle.governor : "?",
				bundle.hz > 0 ? "from the bundle" : "from the capture",
				bundle.hz_source[0] ? bundle.hz_source : "unknown");
			fprintf(q, "  capture %s\n", bundle.trace);
			if (bundle.note[0])
				fprintf(q, "  note: %s\n", bundle.note);
			for (guint k = 0; k < bundle.probes->len; k++)
				fprintf(q, "  probe %s\n", (const char *)bundle.probes->pdata[k]);
			if (bundle.lost_events)
				fprintf(q, "warning: the capture lost %" G_GINT64_FORMAT " events "
					"(its ring buffer overran): periods at the losses are "
					"dropped\n", bundle.lost_events);
		}
	}
	f = format && !kevents ? is_capture_format_parse(format) : IS_CAP_AUTO;
	if (f < 0) {
		cli_error("--format: '%s' is not auto, ftrace, trace-cmd, dat or cpuidle-events",
			  format);
		return EXIT_USAGE;
	}
	if (!states) {
		/*
		 * Every figure of the import rests on the table (which state
		 * polls, the misses, the energy): a guess would score the
		 * capture on another machine, as power9 silently did.
		 */
		cli_error("import needs --states: the captured machine's state table: a sysfs "
			  "dump of it (cp -r /sys/devices/system/cpu/cpu0/cpuidle DIR), a key file "
			  "(docs/states.md), or a built-in name (idlesim states --list)");
		return EXIT_USAGE;
	}
	if (hz != -1 && (hz < 1 || hz > 100000)) {
		cli_error("--hz must be 1..100000");
		return EXIT_USAGE;
	}
	if (rts_arg && (rts = is_running_tick_sleep_parse(rts_arg)) < 0) {
		cli_error("--running-tick-sleep: '%s' is not timers or tick", rts_arg);
		return EXIT_USAGE;
	}
	if (rts_arg && kevents) {
		cli_error("--running-tick-sleep is for stock captures: the series' events carry "
			  "the kernel's sleep lengths");
		return EXIT_USAGE;
	}
	if (reset_gov && kevents) {
		cli_error("--governor-reset is for stock captures: the series' events start at "
			  "boot, with the governor's own state");
		return EXIT_USAGE;
	}
	if (reset_gov && (!*reset_gov || strlen(reset_gov) >= sizeof(bundle.reset_governor))) {
		cli_error("--governor-reset: '%s' is not a governor's name", reset_gov);
		return EXIT_USAGE;
	}
	if (window < 1 || window > 100000000) {
		cli_error("--reorder-window must be 1..100000000");
		return EXIT_USAGE;
	}
	if (report && strcmp(out, "-") == 0) {
		cli_error("--report replays the written trace: give -o a file");
		return EXIT_USAGE;
	}
	if (govs && !report) {
		cli_error("--governor goes with --report");
		return EXIT_USAGE;
	}
	/* the report runs after the import: a bad list must not wait for it */
	if (govs) {
		g_auto(GStrv) names = NULL;

		if (!cli_governors_check(govs))
			return EXIT_USAGE;
		names = g_strsplit(govs, ",", -1);
		if (g_strv_contains((const char *const *)names, "recorded")) {
			cli_error("--governor: 'recorded' is always in the report");
			return EXIT_USAGE;
		}
	}
	t = is_states_open(states, &disabled, &err);
	if (!t)
		goto fail;
	is_trace_header_init(&h);
	/* the trace carries the table: it replays from any directory */
	is_trace_header_set_table(&h, t);
	h.hz = hz > 0 ? hz : 100;
	h.cpus = 0;
	if (kevents) {
		struct is_import_stats st;

		g_snprintf(h.source, sizeof(h.source), "idlesim import --format cpuidle-events");
		if (hz < 0)
			is_trace_header_add_comment(&h, "# assumed: hz 100: not given (import --hz "
						    "sets it)");
		if (!is_import_cpuidle_events(in, out, is_trace_format_for_path(out), &h, &st,
					      &err)) {
			is_states_free(t);
			is_trace_header_clear(&h);
			goto fail;
		}
		if (!quiet)
			fprintf(stderr, "%s: %" G_GUINT64_FORMAT " records (%" G_GUINT64_FORMAT
				" not entered) on %d CPUs from %" G_GUINT64_FORMAT " events; %"
				G_GUINT64_FORMAT " partial periods at the capture's edges dropped; %"
				G_GUINT64_FORMAT " other events ignored; %" G_GUINT64_FORMAT
				" passes whose clock ran backwards (kept verbatim), %"
				G_GUINT64_FORMAT " select clocks raised to keep a CPU's order\n",
				out, st.records, st.rejected, st.cpus, st.events, st.partial,
				st.other_events, st.backwards, st.raised);
	} else {
		struct is_capture_options o = { .format = f, .hz = hz > 0 ? hz : 0,
						.reorder_window = (size_t)window,
						.tick_stop_traced = tick_traced,
						.running_tick_sleep = rts,
						.no_probes = no_probes };
		struct is_capture_stats st;

		if (reset_gov)
			g_strlcpy(o.reset_governor, reset_gov, sizeof(o.reset_governor));
		g_snprintf(h.source, sizeof(h.source), "idlesim import of a stock capture");
		if (!is_import_capture(in, out, is_trace_format_for_path(out), &h, t, disabled,
				       &o, &st, &err)) {
			is_states_free(t);
			is_trace_header_clear(&h);
			goto fail;
		}
		/* with -o - the trace itself goes to stdout */
		if (!quiet)
			print_stats(strcmp(out, "-") ? stdout : stderr, in, out, &st, hz);
	}
	is_states_free(t);
	is_trace_header_clear(&h);
	if (report) {
		g_autofree char *list = g_strconcat("recorded,",
						    govs ? govs : "teo-6.12,menu-6.12,wteo,oracle",
						    NULL);
		struct cli_run_opts ro = { .trace = out, .states = states, .govs = list,
					   .baseline = "recorded", .mode = IS_SIM_MODEL,
					   .seed = -1, .poll_overrun_ns = -1,
					   .tick_late_ns = -1 };

		fflush(stdout);
		printf("\nThe capture's own decisions (\"recorded\") and each governor replayed on "
		       "the same periods.\nCaveat: replaying a real capture is open-loop: the "
		       "wakeup times are those the\ntraced kernel produced with its own choices; a "
		       "governor's deeper state or kept\ntick would have moved them.  Periods "
		       "with estimated inputs are included.\n\n");
		fflush(stdout);
		return cli_run(&ro);
	}
	return EXIT_OK;
fail:
	cli_error("%s", err->message);
	g_error_free(err);
	return EXIT_RUNTIME;
}
