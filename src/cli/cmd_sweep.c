// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlesim sweep: run a governor over a space of params x traces, one row
 * per job; idlesim merge: join shard outputs into the unsharded result.
 * The protocol (journal, resume, row identity, merge, Pareto) is the
 * library's (idlesim/sweep.h); this file parses, reports progress and
 * prints the summary.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "idlesim/sweep.h"

struct sweep {
	struct is_sweep_space space;
	struct is_sweep_trace **traces;
	struct is_sweep_def def;
	struct is_sweep_journal j;
	uint64_t ntodo;           /* of this shard, this run */
	/* progress */
	bool progress;
	gint64 t0, last_print;
	uint64_t run_done;
	GString *line;
};

static volatile int interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

/* Writes DIR/points.dat, DIR/pareto.dat and, with gnuplot, the figures. */
static bool write_plots(const struct sweep *sw, const char *dir, const struct is_sweep_agg *g,
			const uint64_t *front, uint64_t nfront)
{
	const struct is_sweep_space *sp = &sw->space;
	g_autoptr(GString) pts = g_string_new("# point");
	g_autoptr(GString) par = g_string_new("# point energy_active_ns lat_p99_ns\n");
	g_autoptr(GString) gp = g_string_new(NULL);

	for (int a = 0; a < sp->naxes; a++)
		g_string_append_printf(pts, " %s", sp->gov->params[sp->axes[a].param].name);
	g_string_append(pts, " objective energy_active_ns lat_p99_ns\n");
	for (uint64_t i = 0; i < sw->def.points; i++) {
		struct is_params p;

		if (!g[i].n)
			continue;
		is_sweep_space_point(sp, i, &p);
		g_string_append_printf(pts, "%" G_GUINT64_FORMAT, i);
		for (int a = 0; a < sp->naxes; a++)
			g_string_append_printf(pts, " %" G_GINT64_FORMAT, p.v[sp->axes[a].param]);
		g_string_append_printf(pts, " %s %s %s\n", fmt_f(g[i].objective / g[i].n, 4),
				       fmt_f(g[i].energy / g[i].n, 1), fmt_f(g[i].p99 / g[i].n, 1));
	}
	for (uint64_t i = 0; i < nfront; i++)
		g_string_append_printf(par, "%" G_GUINT64_FORMAT " %s %s\n", front[i],
				       fmt_f(g[front[i]].energy / g[front[i]].n, 1),
				       fmt_f(g[front[i]].p99 / g[front[i]].n, 1));
	/*
	 * Axes in units people read (active-ms, us) with plain tick labels;
	 * the heatmap's colour bar names the objective and its unit, and
	 * where the objective varies by less than 5% it shows % above the
	 * best point instead (labels like 5.574e+08 differed in a digit
	 * gnuplot cut off).
	 */
	g_string_append_printf(gp, "set terminal pngcairo noenhanced size 900,700 font ',11'\n"
			       "set datafile commentschars '#'\nset grid\n"
			       "set output 'pareto.png'\nset xlabel 'energy (active-ms)'\n"
			       "set ylabel 'p99 wakeup latency (us)'\n"
			       "set format x '%%.6g'\nset format y '%%.6g'\n"
			       "set title 'energy vs p99 wakeup latency, %s (mean over sources)'\n"
			       "plot 'points.dat' using ($%d/1e6):($%d/1e3) with points pt 7 ps 0.5 "
			       "title 'points', 'pareto.dat' using ($2/1e6):($3/1e3) with linespoints "
			       "lw 2 title 'Pareto front'\n",
			       sp->gov->name, sp->naxes + 3, sp->naxes + 4);
	if (sp->naxes == 2) {
		g_autoptr(GString) lab = g_string_new(NULL);
		/* a single term in a unit people read: energy in active-ms, p99 in us */
		static const struct { const char *unit, *scale; } unit[IS_OBJ_COUNT] = {
			{ "active-ms", "1e6" }, { "us", "1e3" }, { "% not the ideal state", "1" },
			{ "% of selections", "1" },
		};
		double best = 0, worst = 0;
		bool any = false, rel;
		const char *scale = "1";
		int nterms = 0, only = -1;

		for (int k = 0; k < IS_OBJ_COUNT; k++)
			if (sw->def.obj.w[k] != 0) {
				char w[G_ASCII_DTOSTR_BUF_SIZE];

				nterms++;
				only = k;
				g_string_append_printf(lab, "%s%s*%s", lab->len ? " + " : "",
						       g_ascii_formatd(w, sizeof(w), "%g",
								       sw->def.obj.w[k]),
						       is_sweep_objective_names[k]);
			}
		if (nterms == 1 && sw->def.obj.w[only] == 1) {
			g_string_printf(lab, "%s (%s)", is_sweep_objective_names[only], unit[only].unit);
			scale = unit[only].scale;
		}
		for (uint64_t i = 0; i < sw->def.points; i++) {
			double v;

			if (!g[i].n)
				continue;
			v = g[i].objective / g[i].n;
			if (!any || v < best)
				best = v;
			if (!any || v > worst)
				worst = v;
			any = true;
		}
		rel = any && best > 0 && (worst - best) < 0.05 * best;
		g_string_append_printf(gp, "set output 'heatmap.png'\nset xlabel '%s'\nset ylabel '%s'\n"
				       "set view map\nunset key\nset grid front\nset rmargin 14\n",
				       sp->gov->params[sp->axes[0].param].name,
				       sp->gov->params[sp->axes[1].param].name);
		if (rel)
			g_string_append_printf(gp, "set title 'objective %s: %% above the best point "
					       "(%s); lower is better'\nset format cb '%%.3g%%%%'\n"
					       "set cblabel '%% above the best'\n"
					       "plot 'points.dat' using 2:3:(100*($4-%s)/%s) with image\n",
					       lab->str, fmt_f(best / g_ascii_strtod(scale, NULL), 1),
					       fmt_f(best, 6), fmt_f(best, 6));
		else
			g_string_append_printf(gp, "set title 'objective: %s; lower is better'\n"
					       "set format cb '%%.6g'\nset cblabel '%s'\n"
					       "plot 'points.dat' using 2:3:($4/%s) with image\n",
					       lab->str, lab->str, scale);
	}
	return cli_plot_dir(dir) && cli_plot_file(dir, "points.dat", pts->str) &&
	       cli_plot_file(dir, "pareto.dat", par->str) && cli_plot_file(dir, "plots.gp", gp->str) &&
	       cli_plot_run(dir, "plots.gp");
}

#define P(...) do { if (f) fprintf(f, __VA_ARGS__); } while (0)

/* Prints the summary (when @print) and writes the plots; false: plots failed. */
static bool summary(const struct sweep *sw, const struct is_sweep_agg *g, const char *plot,
		    bool print)
{
	const struct is_sweep_space *sp = &sw->space;
	const struct is_sweep_def *d = &sw->def;
	g_autoptr(GString) lab = g_string_new(NULL);
	g_autofree uint64_t *idx = g_new(uint64_t, d->points ? d->points : 1);
	g_autofree uint64_t *front = g_new(uint64_t, d->points ? d->points : 1);
	uint64_t n = is_sweep_best(g, d->points, idx);
	uint64_t nfront = is_sweep_pareto(g, d->points, front);
	FILE *f = print ? stdout : NULL;

	P("sweep %s: %" G_GUINT64_FORMAT " points x %d source(s), governor %s",
	  d->id, d->points, d->ntraces, sp->gov->name);
	if (sp->random_n)
		P(", random sample (--random-seed %" G_GUINT64_FORMAT ")", sp->random_seed);
	P("\nobjective (lower is better):");
	for (int k = 0; k < IS_OBJ_COUNT; k++)
		if (d->obj.w[k] != 0)
			P(" %s*%s", fmt_f(d->obj.w[k], 4), is_sweep_objective_names[k]);
	for (int i = 0; i < d->ntraces; i++)
		if (is_states_power_is_default(d->traces[i]->table)) {
			P("\nenergy uses the default power model's figures for %s, not the "
			  "machine's (docs/states.md)", d->traces[i]->table->name);
			break;
		}
	P("\n\nbest points (mean over traces)\n%8s %14s %16s %12s  params\n",
	  "point", "objective", "energy", "p99_ns");
	for (uint64_t i = 0; i < n && i < 10; i++) {
		const struct is_sweep_agg *a = &g[idx[i]];

		is_sweep_point_label(sp, idx[i], lab);
		P("%8" G_GUINT64_FORMAT " %14s %16s %12s  %s\n", idx[i],
		  fmt_f(a->objective / a->n, 4), fmt_f(a->energy / a->n, 1),
		  fmt_f(a->p99 / a->n, 1), lab->str);
	}
	P("\nenergy vs p99 latency Pareto front: %" G_GUINT64_FORMAT " point(s)\n", nfront);
	for (uint64_t i = 0; i < nfront && i < 20; i++) {
		const struct is_sweep_agg *a = &g[front[i]];

		is_sweep_point_label(sp, front[i], lab);
		P("%8" G_GUINT64_FORMAT " %16s %12s  %s\n", front[i],
		  fmt_f(a->energy / a->n, 1), fmt_f(a->p99 / a->n, 1), lab->str);
	}
	if (nfront > 20)
		P("     ... %" G_GUINT64_FORMAT " more\n", nfront - 20);
	return !plot || write_plots(sw, plot, g, front, nfront);
}

#undef P

/* ---- running ------------------------------------------------------------ */

static void progress(struct sweep *sw, bool final)
{
	gint64 now = g_get_monotonic_time();
	double el = (double)(now - sw->t0) / 1e6, rate;
	uint64_t left;

	if (!sw->progress || (!final && now - sw->last_print < 200000))
		return;
	sw->last_print = now;
	rate = el > 0 ? (double)sw->run_done / el : 0;
	left = sw->ntodo - sw->run_done;
	fprintf(stderr, "\rsweep: %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " jobs, %s jobs/s, ETA %s s   %s",
		sw->j.ndone + sw->run_done, sw->j.ndone + sw->ntodo, fmt_f(rate, 1),
		rate > 0 ? fmt_f((double)left / rate, 0) : "?", final ? "\n" : "");
}

static bool on_done(void *ctx, uint64_t job, const struct is_params *p,
		    const struct is_sweep_trace *t, uint64_t seed, const struct is_metrics *m,
		    GError **error)
{
	struct sweep *sw = ctx;

	is_sweep_row(&sw->def, sw->line, job, p, t, seed, m);
	if (!is_sweep_journal_append(&sw->j, job, sw->line->str, sw->line->len, error))
		return false;
	sw->run_done++;
	progress(sw, false);
	return true;
}

/* "A:B" (inclusive) or "a,b,c"; NULL: the one default seed. */
static bool parse_seeds(const char *spec, uint64_t def, GArray *out)
{
	guint64 a, b;

	if (!spec) {
		g_array_append_val(out, def);
		return true;
	}
	if (strchr(spec, ':')) {
		g_auto(GStrv) f = g_strsplit(spec, ":", -1);

		if (g_strv_length(f) != 2 ||
		    !g_ascii_string_to_unsigned(f[0], 10, 0, G_MAXUINT64, &a, NULL) ||
		    !g_ascii_string_to_unsigned(f[1], 10, 0, G_MAXUINT64, &b, NULL) || b < a ||
		    b - a >= 100000) {
			cli_error("--seeds %s: expected A:B with A <= B (at most 100000 seeds)", spec);
			return false;
		}
		for (uint64_t x = a; x <= b; x++)
			g_array_append_val(out, x);
		return true;
	}
	{
		g_auto(GStrv) f = g_strsplit(spec, ",", -1);

		if (!f[0]) {
			cli_error("--seeds: no seeds (A:B or a,b,c)");
			return false;
		}
		for (int i = 0; f[i]; i++) {
			if (!g_ascii_string_to_unsigned(f[i], 10, 0, G_MAXUINT64, &a, NULL)) {
				cli_error("--seeds %s: '%s' is not a seed", spec, f[i]);
				return false;
			}
			for (guint k = 0; k < out->len; k++)
				if (g_array_index(out, uint64_t, k) == a) {
					cli_error("--seeds %s: seed %s given twice", spec, f[i]);
					return false;
				}
			g_array_append_val(out, a);
		}
	}
	return true;
}

int cmd_sweep(int argc, char **argv)
{
	g_auto(GStrv) traces = NULL, grids = NULL, params = NULL;
	g_autofree char *gov = NULL, *out = NULL, *format = NULL, *objective = NULL;
	g_autofree char *shard = NULL, *states = NULL, *mode = NULL;
	g_autofree char *plot = NULL, *seeds = NULL;
	gint64 random_n = 0, random_seed = 1, seed = -1, max_points = 1000000;
	gint jobs_j = 0;
	gboolean resume = FALSE, quiet = FALSE, force = FALSE, scalar = FALSE, every = FALSE;
	GOptionEntry entries[] = {
		{ "trace", 't', 0, G_OPTION_ARG_FILENAME_ARRAY, &traces, "a trace (repeatable)", "FILE" },
		{ "seeds", 0, 0, G_OPTION_ARG_STRING, &seeds, "--workload seeds, each a source: A:B or a,b,c (default: --wseed)", "A:B" },
		{ "governor", 'g', 0, G_OPTION_ARG_STRING, &gov, "the governor", "NAME" },
		{ "grid", 0, 0, G_OPTION_ARG_STRING_ARRAY, &grids, "an axis: key=FIRST:LAST:STEP or key=v1,v2,...", "AXIS" },
		{ "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &params, "a fixed param: key=value", "KV" },
		{ "random", 0, 0, G_OPTION_ARG_INT64, &random_n, "sample N points of the grid at random instead", "N" },
		{ "random-seed", 0, 0, G_OPTION_ARG_INT64, &random_seed, "seed of --random (default 1)", "S" },
		{ "objective", 0, 0, G_OPTION_ARG_STRING, &objective, "energy (default), p99, accuracy, above_below, or a weighted sum: energy=1,p99=1000", "SPEC" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs_j, "worker threads (default: online CPUs)", "N" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "result file (required)", "FILE" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format, "csv (default) or jsonl", "FMT" },
		{ "shard", 0, 0, G_OPTION_ARG_STRING, &shard, "run only shard K of N (1 <= K <= N)", "K/N" },
		{ "resume", 0, 0, G_OPTION_ARG_NONE, &resume, "continue an interrupted run of the same sweep", NULL },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no progress line, no summary", NULL },
		{ "states", 's', 0, G_OPTION_ARG_FILENAME, &states, "state table for every trace (default: each trace's)", "NAME|FILE|DIR" },
		{ "mode", 'm', 0, G_OPTION_ARG_STRING, &mode, "model (default) or exact", "MODE" },
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "seed of the governors' streams (default: the trace's, else 1)", "N" },
		{ "max-points", 0, 0, G_OPTION_ARG_INT64, &max_points, "refuse larger spaces without --force (default 1000000)", "N" },
		{ "force", 0, 0, G_OPTION_ARG_NONE, &force, "run a space larger than --max-points", NULL },
		{ "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot, "write the Pareto scatter (and a heatmap for 2 axes) here", "DIR" },
		{ "scalar", 0, 0, G_OPTION_ARG_NONE, &scalar, "one simulation per point, never eight in lockstep (the same bytes, slower: for benchmarks and checks; docs/benchmark.md)", NULL },
		{ "every-point", 0, 0, G_OPTION_ARG_NONE, &every, "simulate every point, also those the governor cannot tell from another on the trace's table (the same bytes, slower: for benchmarks and checks; docs/sweeps.md)", NULL },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- sweep a governor's params over traces");
	struct sweep sw = { .j = { .fd = -1 } };
	struct cli_workload wl = { 0 };
	struct is_synth_config scfg = { 0 };
	g_autoptr(GArray) seedv = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	struct sigaction sa = { 0 }, old_int, old_term;
	enum is_sim_mode smode = IS_SIM_MODEL;
	const struct is_governor *g;
	struct is_sweep_agg *aggs = NULL;
	uint64_t *todo = NULL, nt = 0, points;
	uint32_t shard_k = 1, shard_n = 1;
	GError *err = NULL;
	int code = EXIT_USAGE;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_add_group(ctx, cli_workload_options(&wl));
	g_option_context_set_description(ctx,
		"Jobs are (point, trace) pairs numbered point-major; rows are written in job\n"
		"order whatever -j is.  Rows finish into OUT.partial; OUT appears when\n"
		"complete.  See docs/sweeps.md for sharding with GNU parallel or Slurm.");
	if (!cli_parse(ctx, &argc, &argv, &code))
		goto cleanup;
	code = EXIT_USAGE;
	if (argc > 1) {
		cli_error("unexpected argument '%s'", argv[1]);
		goto cleanup;
	}
	if (!!traces == !!wl.name || !gov || !out) {
		cli_error("sweep needs --trace FILE... or --workload NAME, --governor NAME and -o FILE "
			  "(see --help)");
		goto cleanup;
	}
	if (!cli_out_check("--output", out, &code) || !cli_plot_check(plot, &code))
		goto cleanup;
	code = EXIT_USAGE;
	if (seeds && !wl.name) {
		cli_error("--seeds is for --workload");
		goto cleanup;
	}
	if (wl.name) {
		if (mode && strcmp(mode, "model") != 0) {
			cli_error("--workload runs in model mode only (there are no recorded inputs)");
			goto cleanup;
		}
		if (!cli_workload_config(&wl, &scfg, &code))
			goto cleanup;
		code = EXIT_USAGE;
		if (!parse_seeds(seeds, (uint64_t)wl.seed, seedv))
			goto cleanup;
	}
	if (format && strcmp(format, "csv") && strcmp(format, "jsonl")) {
		cli_error("--format must be csv or jsonl, not '%s'", format);
		goto cleanup;
	}
	sw.def.format = format && strcmp(format, "jsonl") == 0 ? IS_SWEEP_JSONL : IS_SWEEP_CSV;
	if (mode && !is_run_mode_parse(mode, &smode)) {
		cli_error("--mode must be model or exact, not '%s'", mode);
		goto cleanup;
	}
	if (random_n < 0 || random_seed < 0 || seed < -1 || max_points < 1 || jobs_j < 0) {
		cli_error("--random, --random-seed, --seed and -j must not be negative, "
			  "--max-points must be >= 1");
		goto cleanup;
	}
	g = is_governor_lookup(gov, &err);
	if (!g) {
		cli_error("--governor: %s", err->message);
		g_clear_error(&err);
		if (g_str_has_prefix(gov, "plugin:"))
			code = EXIT_RUNTIME;
		goto cleanup;
	}
	is_sweep_space_init(&sw.space, g);
	sw.space.random_n = (uint64_t)random_n;
	sw.space.random_seed = (uint64_t)random_seed;
	if (!is_sweep_objective_parse(objective ? objective : "energy", &sw.def.obj, &err))
		goto usage;
	for (int i = 0; params && params[i]; i++)
		if (!is_params_set(g, &sw.space.base, params[i], &err)) {
			g_prefix_error(&err, "--param %s: ", params[i]);
			goto usage;
		}
	for (int i = 0; grids && grids[i]; i++)
		if (!is_sweep_space_add_axis(&sw.space, grids[i], &err))
			goto usage;
	/* an axis overrides a fixed value at every point: both is a mistake */
	for (int i = 0; params && params[i]; i++) {
		g_autofree char *key = g_strndup(params[i], strcspn(params[i], "="));
		int pi = is_params_index(g, key);

		for (int a = 0; a < sw.space.naxes; a++)
			if (sw.space.axes[a].param == pi) {
				cli_error("--param %s: '%s' has a --grid axis too; give one or the other",
					  params[i], key);
				goto out;
			}
	}
	if (random_n && !sw.space.naxes) {
		cli_error("--random needs at least one --grid axis to sample from");
		goto out;
	}
	if (shard && !is_sweep_shard_parse(shard, &shard_k, &shard_n, &err))
		goto usage;
	if (!is_sweep_space_size(&sw.space, &points, &err))
		goto usage;
	if (points > (uint64_t)max_points && !force) {
		cli_error("the space has %" G_GUINT64_FORMAT " points, more than --max-points %"
			  G_GINT64_FORMAT ": pass --force to run it", points, max_points);
		goto out;
	}

	code = EXIT_RUNTIME;
	sw.def.space = &sw.space;
	sw.def.ntraces = traces ? (int)g_strv_length(traces) : (int)seedv->len;
	sw.traces = g_new0(struct is_sweep_trace *, sw.def.ntraces);
	sw.def.traces = sw.traces;
	for (int i = 0; i < sw.def.ntraces; i++) {
		if (traces) {
			sw.traces[i] = is_sweep_trace_load(traces[i], states, &err);
		} else {
			scfg.seed = g_array_index(seedv, uint64_t, i);
			sw.traces[i] = is_sweep_workload_new(&scfg, (uint64_t)wl.periods, wl.until_ns,
							     states, &err);
		}
		if (!sw.traces[i])
			goto fail;
	}
	sw.def.mode = smode;
	sw.def.seed = seed;
	if (!is_sweep_def_init(&sw.def, &err))
		goto fail;
	sw.line = g_string_new(NULL);
	switch (is_sweep_journal_open(&sw.j, &sw.def, shard_k, shard_n, out, resume, &err)) {
	case IS_SWEEP_FAILED:
		goto fail;
	case IS_SWEEP_COMPLETE:
		if (!quiet)
			fprintf(stderr, "sweep: %s is complete already\n", out);
		code = EXIT_OK;
		goto out;
	case IS_SWEEP_OPENED:
		break;
	}
	todo = g_new(uint64_t, is_sweep_shard_jobs(sw.def.jobs, shard_k, shard_n) + 1);
	nt = is_sweep_journal_todo(&sw.j, todo);
	sw.ntodo = nt;
	sw.progress = !quiet && isatty(STDERR_FILENO);
	sw.t0 = g_get_monotonic_time();

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	{
		struct is_sweep_exec x = {
			.space = &sw.space,
			.traces = sw.traces,
			.ntraces = sw.def.ntraces,
			.mode = smode,
			.seed = seed,
			.jobs = todo,
			.njobs = nt,
			.threads = jobs_j ? jobs_j : (int)g_get_num_processors(),
			.scalar = scalar,
			.every_point = every,
			.cancel = &interrupted,
			.done = on_done,
			.ctx = &sw,
		};
		bool ok = is_sweep_execute(&x, &err);

		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		progress(&sw, true);
		if (!ok)
			goto fail;
	}
	if (!is_sweep_journal_close(&sw.j, &err))
		goto fail;
	if (interrupted) {
		cli_error("interrupted: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " jobs are in %s; "
			  "run the same command with --resume to finish", sw.j.ndone + sw.run_done,
			  sw.j.ndone + sw.ntodo, sw.j.path);
		code = 128 + interrupted;
		goto out;
	}
	aggs = g_new0(struct is_sweep_agg, sw.def.points ? sw.def.points : 1);
	if (!is_sweep_journal_finalize(&sw.j, aggs, &err))
		goto fail;
	/* the result is complete; figures that could not be made still fail */
	code = summary(&sw, aggs, plot, !quiet) ? EXIT_OK : EXIT_RUNTIME;
	goto out;
usage:
	code = EXIT_USAGE;
fail:
	cli_error("%s", err->message);
	g_error_free(err);
out:
	is_sweep_journal_clear(&sw.j);
	for (int i = 0; sw.traces && i < sw.def.ntraces; i++)
		is_sweep_trace_free(sw.traces[i]);
	g_free(sw.traces);
	is_sweep_space_clear(&sw.space);
	if (sw.line)
		g_string_free(sw.line, TRUE);
	g_free(todo);
	g_free(aggs);
cleanup:
	cli_workload_clear(&wl);
	return code;
}

int cmd_merge(int argc, char **argv)
{
	g_autofree char *out = NULL;
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "the merged result (required)", "FILE" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("SHARD... - join sweep shards");
	GError *err = NULL;
	int code = EXIT_USAGE;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse(ctx, &argc, &argv, &code))
		return code;
	if (argc < 2 || !out) {
		cli_error("merge needs SHARD files and -o FILE");
		return EXIT_USAGE;
	}
	if (!cli_out_check("--output", out, &code))
		return code;
	if (!is_sweep_merge((const char *const *)argv + 1, argc - 1, out, &err)) {
		cli_error("%s", err->message);
		g_error_free(err);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}
