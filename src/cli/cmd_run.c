// SPDX-License-Identifier: GPL-2.0-only
/* idlesim run: replay a trace through governors and report metrics. */
#include <string.h>

#include "cli.h"
#include "idlesim/synth.h"

static bool apply_params(struct is_run_gov *res, int ngov, char **kvs, int *code)
{
	for (int k = 0; kvs && kvs[k]; k++) {
		const char *kv = kvs[k];
		const char *eq = strchr(kv, '=');
		/* the last dot before '=': governor names have dots (teo-6.12), keys none */
		const char *dot = g_strrstr_len(kv, eq ? eq - kv : -1, ".");
		g_autofree char *gname = NULL;
		bool used = false;

		if (dot) {
			gname = g_strndup(kv, (gsize)(dot - kv));
			kv = dot + 1;
		}
		for (int i = 0; i < ngov; i++) {
			GError *err = NULL;
			g_autofree char *key = NULL;

			if (gname && strcmp(gname, res[i].gov->name) != 0)
				continue;
			key = g_strndup(kv, eq ? (gsize)(eq - kv) : strlen(kv));
			if (!gname && is_params_index(res[i].gov, key) < 0)
				continue;
			if (!is_params_set(res[i].gov, &res[i].params, kv, &err)) {
				cli_error("--param %s: %s", kvs[k], err->message);
				g_error_free(err);
				*code = EXIT_USAGE;
				return false;
			}
			used = true;
		}
		if (!used) {
			cli_error("--param %s: %s", kvs[k],
				  gname ? "that governor is not selected" :
				  "no selected governor has this param (see idlesim governors)");
			*code = EXIT_USAGE;
			return false;
		}
	}
	return true;
}

/* --window FROM_NS,TO_NS: two integers, 0 <= FROM < TO */
static bool parse_window(const char *s, gint64 *from, gint64 *to)
{
	g_auto(GStrv) v = g_strsplit(s, ",", -1);
	guint64 a, b;

	if (g_strv_length(v) != 2 ||
	    !g_ascii_string_to_unsigned(v[0], 10, 0, G_MAXINT64, &a, NULL) ||
	    !g_ascii_string_to_unsigned(v[1], 10, 0, G_MAXINT64, &b, NULL) || a >= b) {
		cli_error("--window must be FROM_NS,TO_NS with 0 <= FROM < TO, not '%s'", s);
		return false;
	}
	*from = (gint64)a;
	*to = (gint64)b;
	return true;
}

int cmd_run(int argc, char **argv)
{
	g_autofree char *trace = NULL, *govs = NULL, *states = NULL, *format = NULL;
	g_autofree char *mode = NULL, *baseline = NULL, *out = NULL, *window = NULL, *warm = NULL;
	g_autofree char *export_dir = NULL;
	g_auto(GStrv) params = NULL;
	gint64 seed = -1, wfrom = 0, wto = 0, overrun = -1, late = -1;
	gboolean exit_free = FALSE;
	GOptionEntry entries[] = {
		{ "trace", 't', 0, G_OPTION_ARG_FILENAME, &trace, "trace to replay (text or binary)", "FILE" },
		{ "governor", 'g', 0, G_OPTION_ARG_STRING, &govs, "governors, comma-separated", "NAME[,NAME...]" },
		{ "states", 's', 0, G_OPTION_ARG_FILENAME, &states, "state table (default: the trace's)", "NAME|FILE|DIR" },
		{ "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &params, "set a param: key=value, or governor.key=value", "KV" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format, "table (default), csv or json", "FMT" },
		{ "mode", 'm', 0, G_OPTION_ARG_STRING, &mode, "model (default): simulate the idle loop; exact: recorded raw inputs", "MODE" },
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "seed of the governors' random streams (default: the trace's, else 1)", "N" },
		{ "baseline", 'b', 0, G_OPTION_ARG_STRING, &baseline, "governor normalised to 100 (default: the first)", "NAME" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "write the report here (complete or not at all)", "FILE" },
		{ "poll-overrun-ns", 0, 0, G_OPTION_ARG_INT64, &overrun, "the machine's poll overrun in the model: a poll lasts cpuidle_poll_time() plus this (default: the trace's poll_overrun_ns, else 0)", "N" },
		{ "tick-late-ns", 0, 0, G_OPTION_ARG_INT64, &late, "the machine's tick lateness in the model: a retained tick's interrupt arrives this long after its expiry (default: the trace's tick_late_ns, else 0)", "N" },
		{ "exit-free", 0, 0, G_OPTION_ARG_NONE, &exit_free, "the machine's idle states cost nothing to leave: a recorded period's length holds no exit latency (a TCG guest; default: it holds the kernel's state's, as on hardware)", NULL },
		{ "export", 'e', 0, G_OPTION_ARG_FILENAME, &export_dir, "write each governor's simulated run as a capture of the same machine and clock, DIR/GOVERNOR/ (trace.dat, ftrace text, state table: docs/export.md)", "DIR" },
		{ "window", 0, 0, G_OPTION_ARG_STRING, &window, "measure only the records starting in [FROM, TO) (trace time, ns); the governors run on every record", "FROM_NS,TO_NS" },
		{ "warm", 0, 0, G_OPTION_ARG_FILENAME, &warm, "--workload: each governor first runs this trace (nothing measured), so that it meets the scenario with the history the machine gave it, not from a reset; the scenario follows on the next tick after the trace (docs/synthetic.md)", "TRACE" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- replay a trace through governors");
	struct cli_workload wl = { 0 };
	struct is_synth_config scfg = { 0 };
	enum is_sim_mode smode = IS_SIM_MODEL;
	struct cli_run_opts ro;
	int code = EXIT_RUNTIME;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_add_group(ctx, cli_workload_options(&wl));
	g_option_context_set_description(ctx,
		"With --workload instead of --trace, each governor runs the scenario\n"
		"closed-loop: its exit latencies and retained ticks move the work.");
	if (!cli_parse(ctx, &argc, &argv, &code))
		goto out;
	code = EXIT_USAGE;
	if (argc > 1) {
		cli_error("unexpected argument '%s'", argv[1]);
		goto out;
	}
	if (!!trace == !!wl.name || !govs) {
		cli_error("run needs --trace FILE or --workload NAME, and --governor NAME (see --help)");
		goto out;
	}
	if (!cli_out_check("--output", out, &code))
		goto out;
	code = EXIT_USAGE;
	if (wl.name && mode && strcmp(mode, "model") != 0) {
		cli_error("--workload runs in model mode only (there are no recorded inputs)");
		goto out;
	}
	if (wl.name && !cli_workload_config(&wl, &scfg, &code))
		goto out;
	code = EXIT_USAGE;
	if (format && strcmp(format, "table") && strcmp(format, "csv") && strcmp(format, "json")) {
		cli_error("--format must be table, csv or json, not '%s'", format);
		goto out;
	}
	if (mode && !is_run_mode_parse(mode, &smode)) {
		cli_error("--mode must be model or exact, not '%s'", mode);
		goto out;
	}
	if (seed < -1) {
		cli_error("--seed must be >= 0");
		goto out;
	}
	if (window && !parse_window(window, &wfrom, &wto))
		goto out;
	if (warm && !wl.name) {
		cli_error("--warm starts a --workload's governors from a trace's history; a --trace has its own");
		goto out;
	}
	if (export_dir && smode != IS_SIM_MODEL) {
		cli_error("--export writes the model's run; in exact mode the run is the recording");
		goto out;
	}
	if (export_dir && !*export_dir) {
		cli_error("--export needs a directory name");
		goto out;
	}
	if (late < -1 || late > 1000000000) {
		cli_error("--tick-late-ns must be 0..1000000000");
		goto out;
	}
	if (overrun < -1 || overrun > 1000000000) {
		cli_error("--poll-overrun-ns must be 0..1000000000");
		goto out;
	}
	ro = (struct cli_run_opts){
		.trace = trace, .wl = wl.name ? &wl : NULL, .scfg = &scfg, .states = states,
		.govs = govs, .params = params, .baseline = baseline, .mode = smode,
		.seed = seed, .format = format, .out = out,
		.window_from_ns = wfrom, .window_to_ns = wto, .poll_overrun_ns = overrun,
		.tick_late_ns = late, .exit_free = exit_free, .export_dir = export_dir,
		.warm = warm,
	};
	code = cli_run(&ro);
out:
	cli_workload_clear(&wl);
	return code;
}

/*
 * What `idlesim run` does once its options are checked (also `import
 * --report`): the governors with their params, then the run and the report.
 * Prints its errors; returns the exit code.
 */
int cli_run(const struct cli_run_opts *ro)
{
	g_auto(GStrv) names = NULL;
	GError *err = NULL;
	struct is_run_input *in = NULL;
	struct is_run_gov *res = NULL;
	struct is_export **xp = NULL;
	struct run_report rep = { 0 };
	struct cli_out o;
	int code = EXIT_USAGE, ngov = 0, failed;

	if (!cli_governors_check(ro->govs))
		goto out;
	names = g_strsplit(ro->govs, ",", -1);
	ngov = (int)g_strv_length(names);
	res = g_new0(struct is_run_gov, ngov);
	rep.baseline = 0;
	for (int i = 0; i < ngov; i++) {
		res[i].gov = is_governor_lookup(names[i], NULL);
		is_params_defaults(res[i].gov, &res[i].params);
		if (ro->baseline && strcmp(ro->baseline, names[i]) == 0)
			rep.baseline = i;
	}
	if (ro->baseline && strcmp(res[rep.baseline].gov->name, ro->baseline) != 0) {
		cli_error("--baseline %s is not among the --governor list", ro->baseline);
		code = EXIT_USAGE;
		goto out;
	}
	if (!apply_params(res, ngov, ro->params, &code))
		goto out;
	code = EXIT_RUNTIME;

	if (ro->wl)
		in = is_run_open_workload(ro->scfg, (uint64_t)ro->wl->periods, ro->wl->until_ns,
					  ro->states, ro->wl->latency_us >= 0, &err);
	else
		in = is_run_open_trace(ro->trace, ro->states, &err);
	if (!in)
		goto fail;
	if (ro->poll_overrun_ns >= 0)
		in->poll_overrun_ns = ro->poll_overrun_ns;
	if (ro->tick_late_ns >= 0)
		in->tick_late_ns = ro->tick_late_ns;
	in->exit_free = ro->exit_free;
	in->warm_path = ro->warm;
	in->measure_from_ns = ro->window_from_ns;
	in->measure_to_ns = ro->window_to_ns;
	rep.window_from_ns = ro->window_from_ns;
	rep.window_to_ns = ro->window_to_ns;
	for (int i = 0; i < ngov; i++)
		res[i].seed = is_run_seed(ro->seed, &in->hdr);
	if (ro->export_dir) {
		g_autofree char *src = ro->wl ?
			g_strdup_printf("workload %s", ro->wl->name) : g_strdup(ro->trace);

		xp = g_new0(struct is_export *, ngov);
		for (int i = 0; i < ngov; i++) {
			xp[i] = cli_export_new(in, res[i].gov->name, src);
			if (!xp[i])
				goto out;
			res[i].observer = is_export_observe;
			res[i].observer_ctx = xp[i];
		}
	}
	if (!is_run_build(in, ro->mode, res, ngov, &err))
		goto fail;
	in->count_estimates = true;
	if (!is_run_execute(in, res, ngov, &rep.records, &failed, &err)) {
		if (failed >= 0 && ro->wl)
			g_prefix_error(&err, "workload %s: %s: ", ro->wl->name, res[failed].gov->name);
		else if (failed >= 0)
			g_prefix_error(&err, "%s: %s: ", ro->trace, res[failed].gov->name);
		goto fail;
	}

	for (int i = 0; xp && i < ngov; i++) {
		g_autofree char *name = g_strdelimit(g_strdup(res[i].gov->name), "/", '_');
		g_autofree char *dir = g_build_filename(ro->export_dir, name, NULL);

		if (!cli_export_write(xp[i], dir))
			goto out;
	}
	rep.trace_path = ro->trace ? ro->trace : in->hdr.source;
	rep.hdr = &in->hdr;
	rep.states = in->table;
	rep.mode = ro->mode == IS_SIM_EXACT ? "exact" : "model";
	rep.ngov = ngov;
	rep.res = res;
	rep.cpus = in->hdr.cpus;
	rep.est = &in->est;
	if (!cli_out_open(&o, ro->out))
		goto out;
	if (ro->format && strcmp(ro->format, "csv") == 0) {
		/* CSV has no place for them: said on stderr */
		g_autofree char *cav = report_caveats(&rep);

		if (*cav)
			fprintf(stderr, "%s", cav);
	}
	if (ro->format && strcmp(ro->format, "json") == 0)
		report_json(o.f, &rep);
	else if (ro->format && strcmp(ro->format, "csv") == 0)
		report_csv(o.f, &rep);
	else
		report_table(o.f, &rep);
	code = cli_out_commit(&o) ? EXIT_OK : EXIT_RUNTIME;
	goto out;
fail:
	cli_error("%s", err->message);
	g_error_free(err);
	code = EXIT_RUNTIME;
out:
	for (int i = 0; xp && i < ngov; i++)
		is_export_free(xp[i]);
	g_free(xp);
	is_run_gov_clear(res, ngov);
	g_free(res);
	is_run_input_free(in);
	return code;
}
