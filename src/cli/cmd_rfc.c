// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlesim rfc: the experiments of the 2020 weighted-TEO RFC's cover letter
 * rerun on the power9 model, closed-loop on the synthetic scenarios, every
 * cell over several seeds.  The experiments, the runner and the statistics are the library's
 * (idlesim/rfc.h); this file writes the report.
 *
 * Spread: every normalised figure is the mean over seeds of the per-seed
 * ratio to the baseline run on the same seed (common random numbers), with
 * its sample standard deviation; a figure within one standard deviation of
 * 100 is marked "~" (not significant).
 */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "idlesim/rfc.h"

typedef struct is_rfc_group group_t;

struct rfc {
	struct is_rfc_config cfg;
	FILE *f, *csv;
	const char *experiment, *row;
	struct is_rfc_run *out;      /* [point * seeds + seed] */
	/* experiment 3's runs per group, for experiment 4 */
	struct is_rfc_run *runs612[8];
	/* figures kept for the plots: per group row, per 6.12 governor */
	GString *plot_acc, *plot_sc;
	double res_sum[4][IS_STATE_MAX];
	int res_n;
};

/*
 * Runs @gov on @row (see is_rfc_run_row()) into r->out and writes the raw
 * figures, one CSV line per run.
 */
static bool run_row(struct rfc *r, const struct is_rfc_row *row, const char *gov,
		    const char *gparams, const char *axis, int *np, GError **error)
{
	int seeds = r->cfg.seeds;
	g_autoptr(GString) s = g_string_new(NULL);

	if (!is_rfc_run_row(&r->cfg, row, gov, gparams, axis, r->out, np, error))
		return false;
	for (int j = 0; r->csv && j < *np * seeds; j++) {
		g_autofree char *ps = is_rfc_point_params(gov, gparams, axis, j / seeds);

		g_string_truncate(s, 0);
		is_rfc_csv_row(s, r->experiment, r->row, row, gov, ps, j % seeds + 1, &r->out[j]);
		fprintf(r->csv, "%s\n", s->str);
	}
	return true;
}

static void acc_row(FILE *o, const char *label, const struct is_rfc_run *x, int seeds, int nst)
{
	fprintf(o, "| %s |", label);
	for (int k = 1; k < nst; k++)
		fprintf(o, " %s |", fmt_f(is_rfc_mean(x, seeds, IS_M_US_PCT, k, NULL), 2));
	fprintf(o, " %s |", fmt_f(is_rfc_mean(x, seeds, IS_M_CORRECT_PCT, 0, NULL), 2));
	for (int k = 1; k < nst; k++)
		fprintf(o, " %s |", fmt_f(is_rfc_mean(x, seeds, IS_M_OS_PCT, k, NULL), 2));
	fputc('\n', o);
}

static void acc_header(FILE *o, const char *rowname, int nst)
{
	fprintf(o, "| %s |", rowname);
	for (int k = 1; k < nst; k++)
		fprintf(o, " US %d |", k);
	fprintf(o, " Correct |");
	for (int k = 1; k < nst; k++)
		fprintf(o, " OS %d |", k);
	fprintf(o, "\n|---|");
	for (int k = 1; k < 2 * nst; k++)
		fprintf(o, "---|");
	fputc('\n', o);
}

/*
 * Cell of metric @id of @x's runs normalised to @base's, seed by seed:
 * "101.3 ±0.5", with "~" when within one sd of 100; "100" for the baseline.
 */
static void norm_cell_of(FILE *f, const struct is_rfc_run *x, const struct is_rfc_run *base,
			 int seeds, enum is_metric_id id, bool baseline)
{
	double sd, m = baseline ? 100 : is_rfc_norm(x, base, seeds, id, &sd);

	if (baseline)
		fprintf(f, " 100 |");
	else
		fprintf(f, " %s ±%s%s |", fmt_f(m, 1), fmt_f(sd, 1), fabs(m - 100) <= sd ? " ~" : "");
}

/* Two cells: energy and p99 of @x's runs normalised to @base's. */
static void norm_cells(FILE *f, const struct is_rfc_run *x, const struct is_rfc_run *base,
		       int seeds)
{
	norm_cell_of(f, x, base, seeds, IS_M_ENERGY, false);
	norm_cell_of(f, x, base, seeds, IS_M_LAT_P99, false);
}

/*
 * How often each weighted governor of the group's runs (@all: [row][gov]
 * [seed]) drew a random number, i.e. made its weighted pick: the reason
 * wteo-rfc differs from teo-5.7, or does not.  Nothing for a group whose
 * governors never draw.
 */
static void draws_table(FILE *f, const group_t *gr, const char *const *govs, int ng,
			const struct is_rfc_run *all, int seeds)
{
	bool any[8] = { false }, some = false;

	for (int i = 0; i < gr->n; i++)
		for (int k = 0; k < ng; k++)
			for (int s = 0; s < seeds; s++)
				if (all[((size_t)i * ng + k) * seeds + s].m.random_draws > 0)
					some = any[k] = true;
	if (!some)
		return;
	fprintf(f, "Weighted picks (selections that drew a random number), %% of selections\n\n| %s |",
		gr->rowname);
	for (int k = 0; k < ng; k++)
		if (any[k])
			fprintf(f, " %s |", govs[k]);
	fprintf(f, "\n|---|");
	for (int k = 0; k < ng; k++)
		if (any[k])
			fprintf(f, "---|");
	fputc('\n', f);
	for (int i = 0; i < gr->n; i++) {
		fprintf(f, "| %s |", gr->rows[i].label);
		for (int k = 0; k < ng; k++) {
			const struct is_rfc_run *x = &all[((size_t)i * ng + k) * seeds];
			double m, sd;

			if (!any[k])
				continue;
			m = is_rfc_mean(x, seeds, IS_M_RANDOM_DRAWS_PCT, 0, &sd);
			fprintf(f, " %s ±%s |", fmt_f(m, 1), fmt_f(sd, 1));
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

/*
 * Experiment 4's table for one group: @base is experiment 3's runs of the
 * group ([row][@nb governors][seed]: teo-6.12 first, wteo second), @var the
 * variants' ([row][nv][seed]).  Energy and p99 normalised to teo-6.12 on
 * the same seed; correct and weighted picks in % of selections.
 */
static void variants_table(FILE *f, const group_t *gr, const struct is_rfc_run *base, int nb,
			   const struct is_rfc_run *var, const char *const *names, int nv, int seeds)
{
	fprintf(f, "| %s | teo-6.12 correct |", gr->rowname);
	for (int k = 0; k <= nv; k++)
		fprintf(f, " %s energy | p99 | correct | picks |", k ? names[k - 1] : "wteo");
	fprintf(f, "\n|---|---|");
	for (int k = 0; k <= nv; k++)
		fprintf(f, "---|---|---|---|");
	fputc('\n', f);
	for (int i = 0; i < gr->n; i++) {
		const struct is_rfc_run *teo = &base[(size_t)i * nb * seeds];

		fprintf(f, "| %s | %s |", gr->rows[i].label,
			fmt_f(is_rfc_mean(teo, seeds, IS_M_CORRECT_PCT, 0, NULL), 1));
		for (int k = 0; k <= nv; k++) {
			const struct is_rfc_run *x = k ? &var[((size_t)i * nv + k - 1) * seeds] : teo + seeds;

			norm_cells(f, x, teo, seeds);
			fprintf(f, " %s |", fmt_f(is_rfc_mean(x, seeds, IS_M_CORRECT_PCT, 0, NULL), 1));
			fprintf(f, " %s |", fmt_f(is_rfc_mean(x, seeds, IS_M_RANDOM_DRAWS_PCT, 0, NULL), 1));
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* accuracy.png, residency.png, energy-p99.png via gnuplot, when installed. */
static bool write_plots(const char *dir, const char *acc, const char *sc, const char *res)
{
	static const char gp[] =
		"set terminal pngcairo noenhanced size 1200,700\n"
		/* the legend above the bars; room for the last slanted label */
		"set key outside top center horizontal\nset rmargin 12\n"
		"set output 'accuracy.png'\nset title 'Correct selections (% of selections), 6.12 governors'\n"
		"set style data histogram\nset style histogram cluster gap 1\nset style fill solid\n"
		"set xtics rotate by -45\nset yrange [0:100]\nset ylabel '% of selections'\nset grid ytics\n"
		"plot for [g in 'teo-6.12 wteo menu-6.12 oracle'] '< grep \" '.g.' \" accuracy.dat' "
		"using 3:xtic(1) title g\n"
		"set output 'residency.png'\nset title 'Residency per state (% of idle time), mean over rows'\n"
		"set xtics norotate\nset ylabel '% of idle time'\n"
		"plot for [c=2:5] 'residency.dat' using c:xtic(1) title columnheader(c)\n"
		"set output 'energy-p99.png'\nset title 'Energy vs p99 wakeup latency, every row'\n"
		/* active-ms and us, plain numbers: 1e+09 active-ns read as a code */
		"set style data points\nset logscale x\nset xlabel 'energy (active-ms, log scale)'\n"
		"set ylabel 'p99 wakeup latency (us)'\nset yrange [*:*]\nset grid\n"
		"set format x '%.6g'\nset format y '%.6g'\n"
		"plot for [g in 'teo-6.12 wteo menu-6.12 oracle'] '< grep \"^'.g.' \" scatter.dat' "
		"using ($2/1e6):($3/1e3) pt 7 title g\n";

	return cli_plot_dir(dir) && cli_plot_file(dir, "accuracy.dat", acc) &&
	       cli_plot_file(dir, "scatter.dat", sc) && cli_plot_file(dir, "residency.dat", res) &&
	       cli_plot_file(dir, "rfc.gp", gp) && cli_plot_run(dir, "rfc.gp");
}

/*
 * Runs governor k (govs[k], or wteo with params[k]) of @ng on every row of
 * @gr, row by row, into all[(row * ng + k) * seeds].
 */
static bool run_group(struct rfc *r, const group_t *gr, const char *const *govs,
		      const char *const *params, int ng, struct is_rfc_run *all, GError **error)
{
	int seeds = r->cfg.seeds, np;

	for (int i = 0; i < gr->n; i++)
		for (int k = 0; k < ng; k++) {
			r->row = gr->rows[i].label;
			if (!run_row(r, &gr->rows[i], govs ? govs[k] : "wteo", params ? params[k] : NULL,
				     NULL, &np, error))
				return false;
			memcpy(&all[((size_t)i * ng + k) * seeds], r->out, sizeof(*all) * seeds);
		}
	return true;
}

/* 1. history length: teo-5.7's INTERVALS on schbench */
static bool exp_history(struct rfc *r, GError **error)
{
	static const char *const what[] = { "p99 latency", "Energy" };
	static const enum is_metric_id ids[] = { IS_M_LAT_P99, IS_M_ENERGY, IS_M_SHALLOW_PCT };
	const group_t *gr = &is_rfc_groups[0];
	int seeds = r->cfg.seeds, np;
	FILE *f = r->f;
	g_autofree struct is_rfc_run *all = g_new0(struct is_rfc_run, (size_t)gr->n * 5 * seeds);

	r->experiment = "history";
	for (int i = 0; i < gr->n; i++) {
		r->row = gr->rows[i].label;
		if (!run_row(r, &gr->rows[i], "teo-5.7", NULL, "intervals=8,16,32,64,128", &np, error))
			return false;
		memcpy(&all[(size_t)i * 5 * seeds], r->out, sizeof(*all) * 5 * seeds);
	}
	fprintf(f, "## 1. History length: teo-5.7 with 8..128 intervals, schbench\n\n");
	for (int w = 0; w < 3; w++) {
		if (w < 2)
			fprintf(f, "%s, normalised (8 intervals = 100)\n\n", what[w]);
		else
			fprintf(f, "Shallow selections (stop2 and shallower), %% of selections\n\n");
		fprintf(f, "| Threads |");
		for (int k = 0; k < 5; k++)
			fprintf(f, " %d Intervals |", is_rfc_intervals[k]);
		fprintf(f, "\n|---|---|---|---|---|---|\n");
		for (int i = 0; i < gr->n; i++) {
			const struct is_rfc_run *base = &all[(size_t)i * 5 * seeds];

			fprintf(f, "| %s |", gr->rows[i].label);
			for (int k = 0; k < 5; k++) {
				double m, sd;

				if (w < 2) {
					norm_cell_of(f, base + k * seeds, base, seeds, ids[w], k == 0);
					continue;
				}
				m = is_rfc_mean(base + k * seeds, seeds, ids[w], 0, &sd);
				fprintf(f, " %s ±%s |", fmt_f(m, 1), fmt_f(sd, 1));
			}
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	return true;
}

/* Plot data of experiment 3's row @all ([gov][seed]) of group @gr. */
static void plot_data(struct rfc *r, const group_t *gr, int i, const struct is_rfc_run *all)
{
	int seeds = r->cfg.seeds;

	for (int k = 0; k < 4; k++) {
		const struct is_rfc_run *x = all + k * seeds;

		g_string_append_printf(r->plot_acc, "\"%s %s\" %s %s\n", gr->title, gr->rows[i].label,
				       is_rfc_gov612[k],
				       fmt_f(is_rfc_mean(x, seeds, IS_M_CORRECT_PCT, 0, NULL), 3));
		g_string_append_printf(r->plot_sc, "%s %s %s \"%s %s\"\n", is_rfc_gov612[k],
				       fmt_f(is_rfc_mean(x, seeds, IS_M_ENERGY, 0, NULL), 1),
				       fmt_f(is_rfc_mean(x, seeds, IS_M_LAT_P99, 0, NULL), 1), gr->title,
				       gr->rows[i].label);
		for (int s2 = 0; s2 < seeds; s2++)
			for (int st = 0; st < r->cfg.table->count; st++)
				{
				double v;

				is_rfc_values(&x[s2], 1, IS_M_RESIDENCY_PCT, st, &v);
				r->res_sum[k][st] += v;
			}
	}
	r->res_n += seeds;
}

/* 2. teo-5.7 vs wteo-rfc (@e = 0); 3. the 6.12 governors and the oracle (@e = 1) */
static bool exp_compare(struct rfc *r, int e, GError **error)
{
	static const char *const grfc[] = { "teo-5.7", "wteo-rfc" };
	const char *const *govs = e == 0 ? grfc : is_rfc_gov612;
	int ng = e == 0 ? 2 : 4, seeds = r->cfg.seeds, nst = r->cfg.table->count;
	FILE *f = r->f;

	r->experiment = e == 0 ? "rfc" : "612";
	fprintf(f, e == 0 ? "## 2. TEO (v5.7) and weighted TEO (the RFC)\n\n" :
			    "## 3. Linux 6.12: teo, wteo (the kernel series), menu and the oracle\n\n");
	for (int gi = 0; gi < is_rfc_ngroups; gi++) {
		const group_t *gr = &is_rfc_groups[gi];
		struct is_rfc_run *all = g_new0(struct is_rfc_run, (size_t)gr->n * ng * seeds);

		if (!run_group(r, gr, govs, NULL, ng, all, error)) {
			g_free(all);
			return false;
		}
		fprintf(f, "### %s\n\n", gr->title);
		if (gr->note)
			fprintf(f, "%s\n\n", gr->note);
		for (int k = 0; k < ng; k++) {
			fprintf(f, "%s: prediction distribution %%\n\n", govs[k]);
			acc_header(f, gr->rowname, nst);
			for (int i = 0; i < gr->n; i++)
				acc_row(f, gr->rows[i].label, &all[((size_t)i * ng + k) * seeds], seeds, nst);
			fputc('\n', f);
		}
		fprintf(f, "Energy and p99 latency, normalised (%s = 100)\n\n| %s |", govs[0], gr->rowname);
		for (int k = 1; k < ng; k++)
			fprintf(f, " %s energy | %s p99 |", govs[k], govs[k]);
		fprintf(f, "\n|---|");
		for (int k = 1; k < ng; k++)
			fprintf(f, "---|---|");
		fputc('\n', f);
		for (int i = 0; i < gr->n; i++) {
			const struct is_rfc_run *base = &all[(size_t)i * ng * seeds];

			fprintf(f, "| %s |", gr->rows[i].label);
			for (int k = 1; k < ng; k++)
				norm_cells(f, base + k * seeds, base, seeds);
			fputc('\n', f);
			if (e == 1)
				plot_data(r, gr, i, base);
		}
		fputc('\n', f);
		draws_table(f, gr, govs, ng, all, seeds);
		if (e == 1)
			r->runs612[gi] = all;
		else
			g_free(all);
	}
	return true;
}

/* 4. wteo's variants, beside experiment 3's teo-6.12 and wteo */
static bool exp_variants(struct rfc *r, GError **error)
{
	const int nv = G_N_ELEMENTS(is_rfc_variant_params);
	int seeds = r->cfg.seeds;

	r->experiment = "wteo-variants";
	fprintf(r->f, "## 4. %s\n\n%s\n\n", is_rfc_variants_title, is_rfc_variants_text);
	for (int gi = 0; gi < is_rfc_ngroups; gi++) {
		const group_t *gr = &is_rfc_groups[gi];
		g_autofree struct is_rfc_run *var = g_new0(struct is_rfc_run, (size_t)gr->n * nv * seeds);

		if (!run_group(r, gr, NULL, is_rfc_variant_params, nv, var, error))
			return false;
		fprintf(r->f, "### %s\n\n", gr->title);
		variants_table(r->f, gr, r->runs612[gi], 4, var, is_rfc_variant_names, nv, seeds);
	}
	return true;
}

int cmd_rfc(int argc, char **argv)
{
	g_autofree char *out = NULL, *csv = NULL, *plot = NULL, *summary = NULL;
	gboolean quick = FALSE;
	gint threads = 0, seeds = 5;
	gint64 periods = 0;
	GOptionEntry entries[] = {
		{ "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "20,000 idle periods per run instead of 200,000", NULL },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "the markdown report (default stdout)", "FILE" },
		{ "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv, "every run's raw figures as CSV", "FILE" },
		{ "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot, "figures (gnuplot) into this directory", "DIR" },
		{ "summary", 0, 0, G_OPTION_ARG_FILENAME, &summary, "a hand-written text put before the tables", "FILE" },
		{ "seeds", 0, 0, G_OPTION_ARG_INT, &seeds, "seeds per cell (default 5)", "N" },
		{ "periods", 'n', 0, G_OPTION_ARG_INT64, &periods, "idle periods per run (overrides --quick)", "N" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &threads, "worker threads (default: online CPUs)", "N" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- rerun the weighted-TEO RFC's experiments");
	struct cli_out o = { 0 }, c = { 0 };
	struct rfc r = { 0 };
	struct is_state_table *table = NULL;
	g_autofree char *summary_text = NULL;
	GError *err = NULL;
	uint32_t disabled;
	int code = EXIT_USAGE;
	bool plotted = true;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse(ctx, &argc, &argv, &code))
		goto done;
	code = EXIT_USAGE;
	if (argc > 1) {
		cli_error("unexpected argument '%s'", argv[1]);
		goto done;
	}
	if (!cli_out_check("--output", out, &code) || !cli_out_check("--csv", csv, &code) ||
	    !cli_plot_check(plot, &code))
		goto done;
	code = EXIT_USAGE;
	if (seeds < 2 || seeds > 64 || periods < 0 || threads < 0) {
		cli_error("--seeds must be 2..64; --periods and -j must not be negative");
		goto done;
	}
	if (summary && !g_file_get_contents(summary, &summary_text, NULL, &err)) {
		cli_error("--summary: %s", err->message);
		g_error_free(err);
		code = EXIT_RUNTIME;
		goto done;
	}
	code = EXIT_RUNTIME;
	table = is_states_open("power9", &disabled, &err);
	r.cfg = (struct is_rfc_config){
		.table = table, .seeds = seeds, .cpus = 2,
		.threads = threads ? threads : (int)g_get_num_processors(),
		.periods = periods ? (uint64_t)periods : quick ? 20000 : 200000,
	};
	r.out = g_new0(struct is_rfc_run, 8 * seeds);
	r.plot_acc = g_string_new(NULL);
	r.plot_sc = g_string_new(NULL);
	if (!cli_out_open(&o, out))
		goto done;
	if (csv) {
		g_autoptr(GString) h = g_string_new(NULL);

		if (!cli_out_open(&c, csv)) {
			cli_out_abort(&o);
			goto done;
		}
		r.csv = c.f;
		is_rfc_csv_header(h, table);
		fprintf(r.csv, "%s\n", h->str);
	}
	r.f = o.f;
	fprintf(r.f, "# The weighted-TEO RFC's experiments on idlesim\n\n");
	if (summary_text)
		fprintf(r.f, "%s\n", summary_text);
	fprintf(r.f, "## How these tables were made\n\n"
		   "`idlesim rfc%s` (idlesim %s): the power9 state table, HZ=100, %d CPUs, "
		   "%" G_GUINT64_FORMAT " idle periods per run, closed-loop on the synthetic "
		   "scenarios (`idlesim synth --list`), every cell over seeds 1..%d. "
		   "Normalised figures are the mean over seeds of the per-seed ratio to the "
		   "baseline on the same seed, ± its standard deviation; `~` marks a figure within "
		   "one standard deviation of 100 (not significant). Accuracy cells are means over "
		   "seeds, in %% of selections (US k: k states too deep, OS k: too shallow, as the "
		   "RFC's tables). Energy is the model's (README: power model); latency is the exit "
		   "latency paid on interrupt and IPI wakeups.\n\n",
		quick ? " --quick" : "", IDLESIM_VERSION, r.cfg.cpus, r.cfg.periods, seeds);
	if (!exp_history(&r, &err) || !exp_compare(&r, 0, &err) || !exp_compare(&r, 1, &err) ||
	    !exp_variants(&r, &err))
		goto fail;
	if (c.f && !cli_out_commit(&c)) {
		cli_out_abort(&o);
		goto done;
	}
	if (!cli_out_commit(&o))
		goto done;
	if (plot) {
		GString *res = g_string_new("state");

		for (int k = 0; k < 4; k++)
			g_string_append_printf(res, " %s", is_rfc_gov612[k]);
		g_string_append_c(res, '\n');
		for (int st = 0; st < table->count; st++) {
			g_string_append(res, table->s[st].name);
			for (int k = 0; k < 4; k++)
				g_string_append_printf(res, " %s",
						       fmt_f(r.res_sum[k][st] / (r.res_n ? r.res_n : 1), 3));
			g_string_append_c(res, '\n');
		}
		plotted = write_plots(plot, r.plot_acc->str, r.plot_sc->str, res->str);
		g_string_free(res, TRUE);
	}
	/* the report is complete; figures that could not be made still fail */
	code = plotted ? EXIT_OK : EXIT_RUNTIME;
	goto done;
fail:
	cli_error("%s", err->message);
	g_error_free(err);
	if (c.f)
		cli_out_abort(&c);
	cli_out_abort(&o);
done:
	for (size_t gi = 0; gi < G_N_ELEMENTS(r.runs612); gi++)
		g_free(r.runs612[gi]);
	if (r.plot_acc)
		g_string_free(r.plot_acc, TRUE);
	if (r.plot_sc)
		g_string_free(r.plot_sc, TRUE);
	g_free(r.out);
	is_states_free(table);
	return code;
}
