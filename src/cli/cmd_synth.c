// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlesim synth: write a synthetic scenario as a native trace (an
 * open-loop rendering: work starts at each wakeup), or list the scenarios.
 * The workload options (workload.c) are shared with `run --workload`,
 * which runs the same scenario closed-loop against each governor, and
 * `sweep`.
 */
#include <string.h>

#include "cli.h"
#include "idlesim/synth.h"

static void list_workloads(void)
{
	for (const struct is_workload *const *w = is_workloads(); *w; w++) {
		printf("%s: %s\n  approximates: %s\n  leaves out: %s\n", (*w)->name,
		       (*w)->description, (*w)->approximates, (*w)->leaves_out);
		print_params(stdout, (*w)->params, (*w)->nparams);
	}
	{
		const struct is_workload *r = is_rtapp_workload();

		printf("rt-app:FILE.json: %s (docs/rt-app.md)\n  approximates: %s\n  leaves out: %s\n",
		       r->description, r->approximates, r->leaves_out);
		print_params(stdout, r->params, r->nparams);
	}
}

int cmd_synth(int argc, char **argv)
{
	g_autofree char *out = NULL, *states = NULL, *to = NULL;
	gboolean list = FALSE;
	gint64 seed = INT64_MIN;
	struct cli_workload w = { 0 };
	g_auto(GStrv) params = NULL;
	GOptionEntry entries[] = {
		{ "list", 'l', 0, G_OPTION_ARG_NONE, &list, "list the scenarios and their params", NULL },
		{ "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &params, "a scenario param: key=value (as --wparam)", "KV" },
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "seed of the scenario's streams (as --wseed)", "S" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "the trace to write (complete or not at all)", "FILE" },
		{ "states", 's', 0, G_OPTION_ARG_STRING, &states, "state table named in the header (default power9)", "NAME|FILE|DIR" },
		{ "to", 0, 0, G_OPTION_ARG_STRING, &to, "text or binary (default: by the file name, .trace = text)", "FMT" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- write a synthetic workload as a trace");
	struct is_synth_config cfg = { 0 };
	struct is_state_table *table = NULL;
	struct is_trace_writer *wr = NULL;
	struct is_synth *g = NULL;
	struct is_trace_header h;
	struct is_synth_bounded lim = { 0 };
	struct is_synth_sorted *sorted = NULL;
	struct is_record rec;
	enum is_trace_format fmt;
	GError *err = NULL;
	uint32_t disabled = 0;
	int code = EXIT_USAGE, n;

	is_trace_header_init(&h);
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_add_group(ctx, cli_workload_options(&w));
	w.seed = INT64_MIN;     /* to tell whether --wseed was given */
	g_option_context_set_description(ctx,
		"The file is an open-loop rendering: work starts at each wakeup.  `idlesim run\n"
		"--workload NAME` runs the same scenario closed-loop (exit latency and tick\n"
		"wakeups move the work) against each governor.");
	if (!cli_parse(ctx, &argc, &argv, &code))
		goto out;
	code = EXIT_USAGE;
	if (list) {
		list_workloads();
		code = EXIT_OK;
		goto out;
	}
	if (argc > 1) {
		cli_error("unexpected argument '%s'", argv[1]);
		goto out;
	}
	if (!w.name || !out) {
		cli_error("synth needs --workload NAME and -o FILE (or --list)");
		goto out;
	}
	/* --seed, as the synthetic issue names it; --wseed, as run and sweep do */
	if (seed != INT64_MIN && w.seed != INT64_MIN) {
		cli_error("--seed and --wseed are the same option: give one");
		goto out;
	}
	if (w.seed == INT64_MIN)
		w.seed = seed != INT64_MIN ? seed : 1;
	if (!cli_out_check("--output", out, &code))
		goto out;
	code = EXIT_USAGE;
	if (to && strcmp(to, "text") && strcmp(to, "binary")) {
		cli_error("--to must be text or binary, not '%s'", to);
		goto out;
	}
	if (params) {
		/* --param and --wparam both name scenario params here. */
		GStrvBuilder *b = g_strv_builder_new();

		if (w.params)
			g_strv_builder_addv(b, (const char **)w.params);
		g_strv_builder_addv(b, (const char **)params);
		g_strfreev(w.params);
		w.params = g_strv_builder_end(b);
		g_strv_builder_unref(b);
	}
	if (!cli_workload_config(&w, &cfg, &code))
		goto out;
	code = EXIT_RUNTIME;
	table = is_states_open(states ? states : "power9", &disabled, &err);
	if (!table)
		goto fail;
	cli_workload_header(&w, &cfg, table, &h);
	fmt = to ? (strcmp(to, "text") == 0 ? IS_FMT_TEXT : IS_FMT_BINARY) :
		   is_trace_format_for_path(out);
	g = is_synth_new(&cfg, &err);
	if (!g)
		goto fail;
	wr = is_trace_writer_open(out, fmt, &h, &err);
	if (!wr)
		goto fail;
	lim.g = g;
	lim.periods = (uint64_t)w.periods;
	lim.until_ns = w.until_ns;
	/* a waker's periods can come before earlier ones of other CPUs */
	sorted = is_synth_sorted_new(&lim);
	while ((n = is_synth_sorted_next(sorted, &rec)) > 0)
		if (!is_trace_write(wr, &rec, &err)) {
			n = -1;
			break;
		}
	if (n != 0) {
		if (!err)
			g_set_error(&err, IS_ERROR, IS_ERROR_INVALID, "%s", is_synth_error(g));
		is_trace_writer_abort(wr);
		goto fail;
	}
	/* commit frees the writer whether it succeeds or not */
	if (!is_trace_writer_commit(wr, &err))
		goto fail;
	fprintf(stderr, "%s: %" G_GUINT64_FORMAT " idle periods on %d CPUs, workload %s, seed %"
		G_GUINT64_FORMAT "\n", out, lim.n, cfg.cpus, cfg.w->name, cfg.seed);
	code = EXIT_OK;
	goto out;
fail:
	cli_error("%s", err->message);
	g_error_free(err);
out:
	is_trace_header_clear(&h);
	is_synth_sorted_free(sorted);
	is_synth_free(g);
	is_states_free(table);
	cli_workload_clear(&w);
	return code;
}
