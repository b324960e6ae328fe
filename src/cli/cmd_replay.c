// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlesim replay: run one governor over a trace and look at its decisions
 * one by one: --check compares them with the decisions recorded in the
 * trace (k=, stop=), --digest prints a SHA-256 of the decision sequence
 * (the golden replay tests), --decisions writes them out.
 */
#include <string.h>

#include "cli.h"

struct replay_ctx {
	struct is_export *xp;      /* --export */
	GChecksum *sum;
	FILE *dec, *inputs;
	bool check;
	uint64_t compared, mismatches;
	struct is_decision first;
	struct is_record first_rec;
	bool have_first;
};

static void on_decision(void *p, const struct is_decision *d)
{
	struct replay_ctx *c = p;
	char line[160];
	int n;

	if (c->xp)
		is_export_observe(c->xp, d);
	n = snprintf(line, sizeof(line), "%d %" G_GINT64_FORMAT " %d %d %d\n", d->cpu, d->t_ns,
		     d->state, d->stop_tick, d->sleep_length_read);
	if (c->sum)
		g_checksum_update(c->sum, (const guchar *)line, n);
	if (c->dec)
		fputs(line, c->dec);
	if (c->inputs)
		fprintf(c->inputs,
			"%d %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT " %d %d %d %d %d %" G_GINT64_FORMAT
			" %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
			" %" G_GINT64_FORMAT " %s %d %d\n",
			d->cpu, d->record, d->t_ns, d->continuation, d->state, d->stop_tick,
			d->sleep_length_read, d->tick_stopped, d->sleep_ns, d->delta_next_ns,
			d->latency_req_ns, d->entered, d->idle_ns, d->last_residency_ns, d->span_ns,
			is_cause_name(d->cause), d->got_tick, d->poll_time_limit);
	if (!c->check || d->continuation || !(d->rec->has & IS_HAS_KSTATE))
		return;
	c->compared++;
	if (d->state != d->rec->kstate ||
	    ((d->rec->has & IS_HAS_KSTOP) && d->stop_tick != !!(d->rec->flags & IS_F_KSTOP)) ||
	    ((d->rec->has & IS_HAS_SLR) &&
	     d->sleep_length_read != !!(d->rec->flags & IS_F_SLR))) {
		if (!c->mismatches) {
			c->first = *d;
			c->first_rec = *d->rec;
			c->first.rec = &c->first_rec;
		}
		c->mismatches++;
	}
}

int cmd_replay(int argc, char **argv)
{
	g_autofree char *gov = NULL, *states = NULL, *mode = NULL, *decisions = NULL;
	g_autofree char *inputs = NULL, *export_dir = NULL;
	g_auto(GStrv) params = NULL;
	gboolean check = FALSE, digest = FALSE, dump = FALSE, exit_free = FALSE;
	gint64 seed = -1;
	GOptionEntry entries[] = {
		{ "governor", 'g', 0, G_OPTION_ARG_STRING, &gov, "governor", "NAME" },
		{ "check", 'c', 0, G_OPTION_ARG_NONE, &check, "compare with the recorded decisions (k=, stop=, slr=); exit 1 on a mismatch", NULL },
		{ "digest", 'd', 0, G_OPTION_ARG_NONE, &digest, "print the SHA-256 of the decision sequence", NULL },
		{ "dump-state", 0, 0, G_OPTION_ARG_NONE, &dump,
		  "print each CPU's final governor state (wteo: the weight matrix, as the kernel's debugfs wteo/weights; teo-6.12: its bins' hits and intercepts, tick_hits and total)", NULL },
		{ "decisions", 0, 0, G_OPTION_ARG_FILENAME, &decisions, "write 'cpu t_ns state stop_tick sleep_read' lines", "FILE" },
		{ "inputs", 0, 0, G_OPTION_ARG_FILENAME, &inputs,
		  "write every selection with the governor's inputs and what its reflect was told: "
		  "'cpu record t_ns continuation state stop_tick sleep_read tick_stopped sleep_ns delta_next_ns "
		  "latency_req_ns entered idle_ns last_residency_ns span_ns cause got_tick poll_time_limit' "
		  "(the recorded values in exact mode, the model's in model mode)", "FILE" },
		{ "export", 'e', 0, G_OPTION_ARG_FILENAME, &export_dir, "model mode: write the simulated run as a capture of the same machine and clock, a bundle DIR (trace.dat, ftrace text, state table: docs/export.md)", "DIR" },
		{ "states", 's', 0, G_OPTION_ARG_FILENAME, &states, "state table (default: the trace's)", "NAME|FILE|DIR" },
		{ "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &params, "set a param: key=value", "KV" },
		{ "mode", 'm', 0, G_OPTION_ARG_STRING, &mode, "exact (default with --check) or model", "MODE" },
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "seed of the governor's random stream", "N" },
		{ "exit-free", 0, 0, G_OPTION_ARG_NONE, &exit_free, "model mode: the machine's idle states cost nothing to leave: a recorded period's length holds no exit latency (a TCG guest; default: it holds the kernel's state's, as on hardware)", NULL },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("TRACE - replay one governor decision by decision");
	struct replay_ctx rc = { 0 };
	struct is_run_gov g = { 0 };
	struct is_run_input *in = NULL;
	enum is_sim_mode smode;
	struct cli_out o = { 0 }, oi = { 0 };
	uint64_t records;
	GError *err = NULL;
	int code, failed;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse(ctx, &argc, &argv, &code))
		return code;
	if (argc != 2 || !gov) {
		cli_error("replay needs one TRACE and --governor NAME (see --help)");
		return EXIT_USAGE;
	}
	if (!cli_out_check("--decisions", decisions, &code) ||
	    !cli_out_check("--inputs", inputs, &code))
		return code;
	if (seed < -1) {  /* -1, the default: the trace's seed, else 1 */
		cli_error("--seed must be >= 0");
		return EXIT_USAGE;
	}
	smode = check ? IS_SIM_EXACT : IS_SIM_MODEL;
	if (mode && !is_run_mode_parse(mode, &smode)) {
		cli_error("--mode must be model or exact, not '%s'", mode);
		return EXIT_USAGE;
	}
	if (export_dir && (smode != IS_SIM_MODEL || !*export_dir)) {
		cli_error(*export_dir ? "--export writes the model's run (--mode model); in exact "
			  "mode the run is the recording" : "--export needs a directory name");
		return EXIT_USAGE;
	}
	g.gov = is_governor_lookup(gov, &err);
	if (!g.gov) {
		cli_error("--governor: %s", err->message);
		g_error_free(err);
		return g_str_has_prefix(gov, "plugin:") ? EXIT_RUNTIME : EXIT_USAGE;
	}
	is_params_defaults(g.gov, &g.params);
	for (int i = 0; params && params[i]; i++)
		if (!is_params_set(g.gov, &g.params, params[i], &err)) {
			cli_error("--param %s: %s", params[i], err->message);
			g_error_free(err);
			return EXIT_USAGE;
		}
	in = is_run_open_trace(argv[1], states, &err);
	if (!in)
		goto fail;
	g.seed = is_run_seed(seed, &in->hdr);
	in->exit_free = exit_free;
	if (export_dir) {
		rc.xp = cli_export_new(in, g.gov->name, argv[1]);
		if (!rc.xp) {
			code = EXIT_USAGE;
			goto out;
		}
	}
	g.observer = on_decision;
	g.observer_ctx = &rc;
	if (!is_run_build(in, smode, &g, 1, &err))
		goto fail;
	rc.check = check;
	if (digest)
		rc.sum = g_checksum_new(G_CHECKSUM_SHA256);
	if (decisions) {
		if (!cli_out_open(&o, decisions)) {
			code = EXIT_RUNTIME;
			goto out;
		}
		rc.dec = o.f;
	}
	if (inputs) {
		if (!cli_out_open(&oi, inputs)) {
			code = EXIT_RUNTIME;
			goto out;
		}
		rc.inputs = oi.f;
	}
	if (!is_run_execute(in, &g, 1, &records, &failed, &err)) {
		g_prefix_error(&err, "%s: ", argv[1]);
		goto fail;
	}
	if (rc.dec && !cli_out_commit(&o)) {
		rc.dec = NULL;
		code = EXIT_RUNTIME;
		goto out;
	}
	rc.dec = NULL;
	if (rc.inputs && !cli_out_commit(&oi)) {
		rc.inputs = NULL;
		code = EXIT_RUNTIME;
		goto out;
	}
	rc.inputs = NULL;
	if (rc.xp && !cli_export_write(rc.xp, export_dir)) {
		code = EXIT_RUNTIME;
		goto out;
	}
	code = EXIT_OK;
	if (digest)
		printf("%s %s %s\n", g_checksum_get_string(rc.sum), g.gov->name, argv[1]);
	if (dump) {
		GString *text = g_string_new(NULL);

		if (!is_sim_dump(g.sim, text)) {
			cli_error("--dump-state: governor %s has no state to print", g.gov->name);
			code = EXIT_USAGE;
		}
		fputs(text->str, stdout);
		g_string_free(text, TRUE);
	}
	if (check) {
		printf("%s: %" G_GUINT64_FORMAT " decisions compared, %" G_GUINT64_FORMAT
		       " mismatches\n", g.gov->name, rc.compared, rc.mismatches);
		if (rc.mismatches) {
			const struct is_decision *d = &rc.first;

			printf("first mismatch: record %" G_GUINT64_FORMAT " cpu %d t %" G_GINT64_FORMAT
			       ": recorded state %d stop %d slr %d, %s chose state %d stop %d slr %d"
			       " (sleep %" G_GINT64_FORMAT " delta_next %" G_GINT64_FORMAT
			       " tick_stopped %d lat %" G_GINT64_FORMAT ")\n",
			       d->record + 1, d->cpu, d->t_ns, d->rec->kstate,
			       !!(d->rec->flags & IS_F_KSTOP), !!(d->rec->flags & IS_F_SLR),
			       g.gov->name, d->state, d->stop_tick, d->sleep_length_read,
			       d->sleep_ns, d->delta_next_ns, d->tick_stopped, d->latency_req_ns);
			code = EXIT_RUNTIME;
		}
		if (!rc.compared) {
			cli_error("%s: no record carries a recorded decision (k=)", argv[1]);
			code = EXIT_RUNTIME;
		}
	}
	goto out;
fail:
	cli_error("%s", err->message);
	g_error_free(err);
	code = EXIT_RUNTIME;
out:
	if (rc.dec)
		cli_out_abort(&o);
	if (rc.inputs)
		cli_out_abort(&oi);
	if (rc.sum)
		g_checksum_free(rc.sum);
	is_export_free(rc.xp);
	is_run_gov_clear(&g, 1);
	is_run_input_free(in);
	return code;
}
