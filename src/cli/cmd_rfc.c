// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlesim rfc: the experiments of the 2020 weighted-TEO RFC's cover letter
 * (../shared/seeds in the project's workspace) rerun on the power9 model,
 * closed-loop on the synthetic scenarios, every cell over several seeds.
 *
 *  1. History length: teo-5.7 with INTERVALS 8..128 on schbench threads
 *     2/4/8/16: p99 wakeup latency and energy normalised to 8 = 100, and
 *     the share of shallow selections (stop2 and shallower).
 *  2. teo-5.7 vs wteo-rfc on schbench, ebizzy-sleep (the cover letter's
 *     three parameter rows), pgbench (4..32 clients) and hackbench (loops,
 *     socket and pipe): accuracy distributions and energy and p99
 *     normalised to TEO = 100.  Schbench also with CPU 0 as the message
 *     thread (waker=cpu0), which the cover letter does not have.
 *  3. teo-6.12 vs wteo vs menu-6.12 vs oracle on the same rows.
 *  4. wteo with the RFC's own choices on the same rows: candidates only
 *     up to TEO's shallower choice (range=chosen), and that with the pick
 *     triggered against the sleep-length candidate (trigger=timer) or
 *     leaving polling states out (poll=avoid), beside experiment 3's
 *     teo-6.12 and wteo runs.
 *
 * Spread: every normalised figure is the mean over seeds of the per-seed
 * ratio to the baseline run on the same seed (common random numbers), with
 * its sample standard deviation; a figure within one standard deviation of
 * 100 is marked "~" (not significant).
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "cli.h"
#include "idlesim/sweep.h"
#include "idlesim/synth.h"

struct row {
	const char *label;
	const char *workload;
	const char *wparams;  /* "k=v,k=v" */
};

static const struct row schbench_rows[] = {
	{ "2", "schbench", "threads=2" }, { "4", "schbench", "threads=4" },
	{ "8", "schbench", "threads=8" }, { "16", "schbench", "threads=16" },
};
/*
 * The same with CPU 0 running the message thread: its exit latency delays
 * every worker's wakeup, the closed-loop coupling between CPUs that the
 * drawn message streams above leave out.  Not in the cover letter; shown
 * beside it because which of the two is closer to schbench is a modelling
 * choice.
 */
static const struct row schbench_waker_rows[] = {
	{ "2", "schbench", "threads=2,waker=cpu0" }, { "4", "schbench", "threads=4,waker=cpu0" },
	{ "8", "schbench", "threads=8,waker=cpu0" }, { "16", "schbench", "threads=16,waker=cpu0" },
};
static const struct row ebizzy_rows[] = {
	{ "-S 60 -i 10000", "ebizzy-sleep", "sleep_us=10000,alloc=default" },
	{ "-m -S 60 -i 10000", "ebizzy-sleep", "sleep_us=10000,alloc=mmap" },
	{ "-M -S 60 -i 10000", "ebizzy-sleep", "sleep_us=10000,alloc=malloc" },
};
static const struct row pgbench_rows[] = {
	{ "4", "pgbench", "clients=4" }, { "8", "pgbench", "clients=8" },
	{ "16", "pgbench", "clients=16" }, { "32", "pgbench", "clients=32" },
};
static const struct row hackbench_rows[] = {
	{ "100 sockets", "hackbench", "loops=100,mode=socket" },
	{ "100 pipe", "hackbench", "loops=100,mode=pipe" },
	{ "10000 sockets", "hackbench", "loops=10000,mode=socket" },
	{ "10000 pipe", "hackbench", "loops=10000,mode=pipe" },
	{ "1000000 sockets", "hackbench", "loops=1000000,mode=socket" },
	{ "1000000 pipe", "hackbench", "loops=1000000,mode=pipe" },
};

struct group {
	const char *title, *rowname;
	const struct row *rows;
	int n;
	const char *note;     /* printed under the title, if any */
};

static const struct group groups[] = {
	{ "Schbench", "Threads", schbench_rows, G_N_ELEMENTS(schbench_rows), NULL },
	{ "Schbench, waker=cpu0", "Threads", schbench_waker_rows, G_N_ELEMENTS(schbench_waker_rows),
	  "Not in the cover letter: schbench with CPU 0 running the message thread, whose "
	  "exit latency delays every worker's wakeup (`idlesim synth --list`). The rows above "
	  "draw each worker's messages as an open-loop stream." },
	{ "Sleeping Ebizzy", "Parameters", ebizzy_rows, G_N_ELEMENTS(ebizzy_rows), NULL },
	{ "Pgbench", "Clients", pgbench_rows, G_N_ELEMENTS(pgbench_rows), NULL },
	{ "Hackbench", "Loops", hackbench_rows, G_N_ELEMENTS(hackbench_rows), NULL },
};

/* One run's figures. */
struct fig {
	double energy, p99, correct, shallow;
	double draws;               /* % of selections that drew a random number */
	double us[IS_STATE_MAX], os[IS_STATE_MAX];
	double res[IS_STATE_MAX];   /* % of idle time per state */
};

struct rfc {
	int seeds, threads, cpus;
	uint64_t periods;
	const struct is_state_table *table;
	FILE *csv;
	const char *experiment, *row;
	struct fig *out;      /* [point * seeds + seed] */
	uint64_t jobs_done;
};

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void to_fig(const struct is_metrics *m, const struct is_state_table *t, struct fig *f)
{
	struct is_latency_summary l;
	uint64_t shallow = 0, all = 0;

	is_metrics_latency(m, t, &l);
	memset(f, 0, sizeof(*f));
	f->energy = m->energy;
	f->p99 = (double)l.p99_ns;
	f->correct = pct(m->acc[IS_ACC_MID], m->selections);
	for (int k = 1; k < t->count; k++) {
		f->us[k] = pct(m->acc[IS_ACC_MID + k], m->selections);
		f->os[k] = pct(m->acc[IS_ACC_MID - k], m->selections);
	}
	for (int i = 0; i < t->count; i++) {
		all += m->usage[i];
		if (t->s[i].target_residency_ns <= 100000)
			shallow += m->usage[i];
	}
	f->shallow = pct(shallow, all);
	f->draws = pct(m->random_draws, m->selections);
	{
		int64_t total = 0;

		for (int i = 0; i < t->count; i++)
			total += m->time_ns[i];
		for (int i = 0; i < t->count; i++)
			f->res[i] = total ? 100.0 * (double)m->time_ns[i] / (double)total : 0;
	}
}

static bool done_cb(void *ctx, uint64_t job, const struct is_params *p,
		    const struct is_sweep_trace *t, uint64_t seed, const struct is_metrics *m,
		    GError **error)
{
	struct rfc *r = ctx;
	struct fig *f = &r->out[job];

	(void)p, (void)error;
	to_fig(m, t->table, f);
	r->jobs_done++;
	(void)seed;
	return true;
}

/*
 * Runs governor @gov (with fixed params @gparams and, if @axis, one point
 * per axis value) on @row for every seed: r->out[point * seeds + s].
 */
static bool run_row(struct rfc *r, const struct row *row, const char *gov, const char *gparams,
		    const char *axis, int *npoints, GError **error)
{
	const struct is_governor *g = is_governor_find(gov);
	struct is_synth_config scfg = { .cpus = r->cpus, .hz = 100, .latency_req_ns = 2147483647000LL };
	struct is_sweep_trace **src;
	struct is_sweep_space sp;
	g_auto(GStrv) wkv = g_strsplit(row->wparams, ",", -1);
	g_auto(GStrv) gkv = gparams ? g_strsplit(gparams, ",", -1) : NULL;
	uint64_t points, *jobs;
	bool ok = false;

	scfg.w = is_workload_find(row->workload);
	is_params_defaults_of(scfg.w->params, scfg.w->nparams, &scfg.params);
	for (int i = 0; wkv[i]; i++)
		if (!is_params_set_of("workload", scfg.w->name, scfg.w->params, scfg.w->nparams,
				      &scfg.params, wkv[i], error))
			return false;
	is_sweep_space_init(&sp, g);
	for (int i = 0; gkv && gkv[i]; i++)
		if (!is_params_set(g, &sp.base, gkv[i], error))
			goto out_space;
	if (axis && !is_sweep_space_add_axis(&sp, axis, error))
		goto out_space;
	is_sweep_space_size(&sp, &points, NULL);
	*npoints = (int)points;
	src = g_new0(struct is_sweep_trace *, r->seeds);
	jobs = g_new(uint64_t, points * (uint64_t)r->seeds);
	for (int s = 0; s < r->seeds; s++) {
		scfg.seed = (uint64_t)s + 1;
		src[s] = is_sweep_workload_new(&scfg, r->periods, 0, "power9", error);
		if (!src[s])
			goto out;
	}
	for (uint64_t j = 0; j < points * (uint64_t)r->seeds; j++)
		jobs[j] = j;
	{
		struct is_sweep_exec x = {
			.space = &sp, .traces = src, .ntraces = r->seeds, .mode = IS_SIM_MODEL,
			.seed = -1, .jobs = jobs, .njobs = points * (uint64_t)r->seeds,
			.threads = r->threads, .done = done_cb, .ctx = r,
		};

		ok = is_sweep_execute(&x, error);
	}
	/* Raw figures, one CSV line per run. */
	for (uint64_t j = 0; ok && r->csv && j < points * (uint64_t)r->seeds; j++) {
		const struct fig *f = &r->out[j];
		struct is_params p;
		g_autofree char *ps = NULL, *wp = NULL;

		is_sweep_space_point(&sp, j / (uint64_t)r->seeds, &p);
		/* Lists space-separated: the CSV needs no quoting. */
		ps = g_strdelimit(is_params_format(g, &p), ",", ' ');
		wp = g_strdelimit(g_strdup(row->wparams), ",", ' ');
		fprintf(r->csv, "%s,%s,%s,%s,%s,%s,%" G_GUINT64_FORMAT ",%s,%s,%s,%s,%s",
			r->experiment, r->row, row->workload, wp, gov, ps,
			j % (uint64_t)r->seeds + 1, fmt_f(f->energy, 1), fmt_f(f->p99, 0),
			fmt_f(f->correct, 4), fmt_f(f->shallow, 4), fmt_f(f->draws, 4));
		for (int k = 1; k < r->table->count; k++)
			fprintf(r->csv, ",%s", fmt_f(f->us[k], 4));
		for (int k = 1; k < r->table->count; k++)
			fprintf(r->csv, ",%s", fmt_f(f->os[k], 4));
		fputc('\n', r->csv);
	}
out:
	for (int s = 0; s < r->seeds; s++)
		is_sweep_trace_free(src[s]);
	g_free(src);
	g_free(jobs);
out_space:
	is_sweep_space_clear(&sp);
	return ok;
}

/* Mean and sd over seeds of 100 * a[s] / b[s]. */
static void ratio(const double *a, const double *b, int n, double *mean, double *sd)
{
	double s = 0, ss = 0;

	for (int i = 0; i < n; i++) {
		double v = b[i] != 0 ? 100.0 * a[i] / b[i] : (a[i] == 0 ? 100.0 : 0.0);

		s += v;
		ss += v * v;
	}
	*mean = s / n;
	*sd = n > 1 ? sqrt(fmax(0, (ss - s * s / n) / (n - 1))) : 0;
}

static void mean_sd(const double *a, int n, double *mean, double *sd)
{
	double s = 0, ss = 0;

	for (int i = 0; i < n; i++) {
		s += a[i];
		ss += a[i] * a[i];
	}
	*mean = s / n;
	*sd = n > 1 ? sqrt(fmax(0, (ss - s * s / n) / (n - 1))) : 0;
}

/* "101.3 ±0.5", with "~" when within one sd of 100. */
static const char *norm_cell(double mean, double sd, bool baseline)
{
	static char buf[8][48];
	static int k;
	char *b = buf[k++ & 7];

	if (baseline)
		return "100";
	g_snprintf(b, 48, "%s ±%s%s", fmt_f(mean, 1), fmt_f(sd, 1),
		   fabs(mean - 100) <= sd ? " ~" : "");
	return b;
}

#define FIELD(f, name) offsetof(struct fig, name)

static void pick(const struct fig *f, int n, size_t off, double *out)
{
	for (int i = 0; i < n; i++)
		out[i] = *(const double *)(const void *)((const char *)&f[i] + off);
}

static void acc_row(FILE *o, const char *label, const struct fig *f, int seeds, int nst)
{
	double v[64], m, sd;

	fprintf(o, "| %s |", label);
	for (int k = 1; k < nst; k++) {
		for (int s = 0; s < seeds; s++)
			v[s] = f[s].us[k];
		mean_sd(v, seeds, &m, &sd);
		fprintf(o, " %s |", fmt_f(m, 2));
	}
	pick(f, seeds, FIELD(f, correct), v);
	mean_sd(v, seeds, &m, &sd);
	fprintf(o, " %s |", fmt_f(m, 2));
	for (int k = 1; k < nst; k++) {
		for (int s = 0; s < seeds; s++)
			v[s] = f[s].os[k];
		mean_sd(v, seeds, &m, &sd);
		fprintf(o, " %s |", fmt_f(m, 2));
	}
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

/* Two cells: energy and p99 of @x's runs normalised to @base's, seed by seed. */
static void norm_cells(FILE *f, const struct fig *x, const struct fig *base, int seeds)
{
	double a[64], b[64], m, sd;

	pick(x, seeds, FIELD(x, energy), a);
	pick(base, seeds, FIELD(x, energy), b);
	ratio(a, b, seeds, &m, &sd);
	fprintf(f, " %s |", norm_cell(m, sd, false));
	pick(x, seeds, FIELD(x, p99), a);
	pick(base, seeds, FIELD(x, p99), b);
	ratio(a, b, seeds, &m, &sd);
	fprintf(f, " %s |", norm_cell(m, sd, false));
}

/*
 * How often each weighted governor of the group's runs (@all: [row][gov]
 * [seed]) drew a random number, i.e. made its weighted pick: the reason
 * wteo-rfc differs from teo-5.7, or does not.  Nothing for a group whose
 * governors never draw.
 */
static void draws_table(FILE *f, const struct group *gr, const char *const *govs, int ng,
			const struct fig *all, int seeds)
{
	bool any[8] = { false }, some = false;

	for (int i = 0; i < gr->n; i++)
		for (int k = 0; k < ng; k++)
			for (int s = 0; s < seeds; s++)
				if (all[((size_t)i * ng + k) * seeds + s].draws > 0)
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
			const struct fig *x = &all[((size_t)i * ng + k) * seeds];
			double a[64], m, sd;

			if (!any[k])
				continue;
			pick(x, seeds, FIELD(x, draws), a);
			mean_sd(a, seeds, &m, &sd);
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
static void variants_table(FILE *f, const struct group *gr, const struct fig *base, int nb,
			   const struct fig *var, const char *const *names, int nv, int seeds)
{
	fprintf(f, "| %s | teo-6.12 correct |", gr->rowname);
	for (int k = 0; k <= nv; k++)
		fprintf(f, " %s energy | p99 | correct | picks |", k ? names[k - 1] : "wteo");
	fprintf(f, "\n|---|---|");
	for (int k = 0; k <= nv; k++)
		fprintf(f, "---|---|---|---|");
	fputc('\n', f);
	for (int i = 0; i < gr->n; i++) {
		const struct fig *teo = &base[(size_t)i * nb * seeds];
		double a[64], m, sd;

		pick(teo, seeds, FIELD(teo, correct), a);
		mean_sd(a, seeds, &m, &sd);
		fprintf(f, "| %s | %s |", gr->rows[i].label, fmt_f(m, 1));
		for (int k = 0; k <= nv; k++) {
			const struct fig *x = k ? &var[((size_t)i * nv + k - 1) * seeds] : teo + seeds;

			norm_cells(f, x, teo, seeds);
			pick(x, seeds, FIELD(x, correct), a);
			mean_sd(a, seeds, &m, &sd);
			fprintf(f, " %s |", fmt_f(m, 1));
			pick(x, seeds, FIELD(x, draws), a);
			mean_sd(a, seeds, &m, &sd);
			fprintf(f, " %s |", fmt_f(m, 1));
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
		"set xtics rotate by -45\nset yrange [0:100]\n"
		"plot for [g in 'teo-6.12 wteo menu-6.12 oracle'] '< grep \" '.g.' \" accuracy.dat' "
		"using 3:xtic(1) title g\n"
		"set output 'residency.png'\nset title 'Residency per state (% of idle time), mean over rows'\n"
		"set xtics norotate\n"
		"plot for [c=2:5] 'residency.dat' using c:xtic(1) title columnheader(c)\n"
		"set output 'energy-p99.png'\nset title 'Energy vs p99 wakeup latency, every row'\n"
		"set style data points\nset logscale x\nset xlabel 'energy (active-ns)'\n"
		"set ylabel 'p99 latency (ns)'\nset yrange [*:*]\n"
		"plot for [g in 'teo-6.12 wteo menu-6.12 oracle'] '< grep \"^'.g.' \" scatter.dat' "
		"using 2:3 pt 7 title g\n";

	return cli_plot_dir(dir) && cli_plot_file(dir, "accuracy.dat", acc) &&
	       cli_plot_file(dir, "scatter.dat", sc) && cli_plot_file(dir, "residency.dat", res) &&
	       cli_plot_file(dir, "rfc.gp", gp) && cli_plot_run(dir, "rfc.gp");
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
	static const char *const g612[] = { "teo-6.12", "wteo", "menu-6.12", "oracle" };
	static const int intervals[] = { 8, 16, 32, 64, 128 };
	struct cli_out o = { 0 }, c = { 0 };
	struct rfc r = { 0 };
	struct is_state_table *table = NULL;
	g_autofree char *summary_text = NULL;
	GError *err = NULL;
	uint32_t disabled;
	int code = EXIT_USAGE, np, nst;
	FILE *f;
	/* figures kept for the plots: per group row, per 6.12 governor */
	GString *plot_acc = g_string_new(NULL), *plot_sc = g_string_new(NULL);
	bool plotted = true;
	double res_sum[4][IS_STATE_MAX] = { { 0 } };
	int res_n = 0;
	/* experiment 3's runs per group, for experiment 4 */
	struct fig *runs612[G_N_ELEMENTS(groups)] = { NULL };

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
	nst = table->count;
	r.table = table;
	r.seeds = seeds;
	r.cpus = 2;
	r.threads = threads ? threads : (int)g_get_num_processors();
	r.periods = periods ? (uint64_t)periods : quick ? 20000 : 200000;
	r.out = g_new0(struct fig, 8 * seeds);
	if (!cli_out_open(&o, out))
		goto done;
	if (csv) {
		if (!cli_out_open(&c, csv)) {
			cli_out_abort(&o);
			goto done;
		}
		r.csv = c.f;
		fprintf(r.csv, "experiment,row,workload,workload_params,governor,governor_params,seed,"
			       "energy_active_ns,lat_p99_ns,correct_pct,shallow_pct,random_draws_pct");
		for (int k = 1; k < nst; k++)
			fprintf(r.csv, ",us%d_pct", k);
		for (int k = 1; k < nst; k++)
			fprintf(r.csv, ",os%d_pct", k);
		fputc('\n', r.csv);
	}
	f = o.f;
	fprintf(f, "# The weighted-TEO RFC's experiments on idlesim\n\n");
	if (summary_text)
		fprintf(f, "%s\n", summary_text);
	fprintf(f, "## How these tables were made\n\n"
		   "`idlesim rfc%s` (idlesim %s): the power9 state table, HZ=100, %d CPUs, "
		   "%" G_GUINT64_FORMAT " idle periods per run, closed-loop on the synthetic "
		   "scenarios (`idlesim synth --list`), every cell over seeds 1..%d. "
		   "Normalised figures are the mean over seeds of the per-seed ratio to the "
		   "baseline on the same seed, ± its standard deviation; `~` marks a figure within "
		   "one standard deviation of 100 (not significant). Accuracy cells are means over "
		   "seeds, in %% of selections (US k: k states too deep, OS k: too shallow, as the "
		   "RFC's tables). Energy is the model's (README: power model); latency is the exit "
		   "latency paid on interrupt and IPI wakeups.\n\n",
		quick ? " --quick" : "", IDLESIM_VERSION, r.cpus, r.periods, seeds);

	/* 1. history length */
	{
		const struct group *gr = &groups[0];
		struct fig *all = g_new0(struct fig, (size_t)gr->n * 5 * seeds);
		static const char *const what[] = { "p99 latency", "Energy" };

		r.experiment = "history";
		for (int i = 0; i < gr->n; i++) {
			r.row = gr->rows[i].label;
			if (!run_row(&r, &gr->rows[i], "teo-5.7", NULL, "intervals=8,16,32,64,128", &np,
				     &err))
				goto fail;
			memcpy(&all[(size_t)i * 5 * seeds], r.out, sizeof(struct fig) * 5 * seeds);
		}
		fprintf(f, "## 1. History length: teo-5.7 with 8..128 intervals, schbench\n\n");
		for (int w = 0; w < 3; w++) {
			if (w < 2)
				fprintf(f, "%s, normalised (8 intervals = 100)\n\n", what[w]);
			else
				fprintf(f, "Shallow selections (stop2 and shallower), %% of selections\n\n");
			fprintf(f, "| Threads |");
			for (int k = 0; k < 5; k++)
				fprintf(f, " %d Intervals |", intervals[k]);
			fprintf(f, "\n|---|---|---|---|---|---|\n");
			for (int i = 0; i < gr->n; i++) {
				const struct fig *base = &all[(size_t)i * 5 * seeds];

				fprintf(f, "| %s |", gr->rows[i].label);
				for (int k = 0; k < 5; k++) {
					const struct fig *x = base + k * seeds;
					double a[64], b[64], m, sd;
					size_t off = w == 0 ? FIELD(x, p99) : w == 1 ? FIELD(x, energy) :
						     FIELD(x, shallow);

					pick(x, seeds, off, a);
					pick(base, seeds, off, b);
					if (w < 2) {
						ratio(a, b, seeds, &m, &sd);
						fprintf(f, " %s |", norm_cell(m, sd, k == 0));
					} else {
						mean_sd(a, seeds, &m, &sd);
						fprintf(f, " %s ±%s |", fmt_f(m, 1), fmt_f(sd, 1));
					}
				}
				fputc('\n', f);
			}
			fputc('\n', f);
		}
		g_free(all);
	}

	/* 2. teo-5.7 vs wteo-rfc; 3. the 6.12 governors and the oracle */
	for (int e = 0; e < 2; e++) {
		const char *const *govs = e == 0 ? (const char *const[]){ "teo-5.7", "wteo-rfc" } : g612;
		int ng = e == 0 ? 2 : 4;

		r.experiment = e == 0 ? "rfc" : "612";
		fprintf(f, e == 0 ? "## 2. TEO (v5.7) and weighted TEO (the RFC)\n\n" :
				    "## 3. Linux 6.12: teo, wteo (the kernel series), menu and the oracle\n\n");
		for (size_t gi = 0; gi < G_N_ELEMENTS(groups); gi++) {
			const struct group *gr = &groups[gi];
			struct fig *all = g_new0(struct fig, (size_t)gr->n * ng * seeds);

			for (int i = 0; i < gr->n; i++)
				for (int k = 0; k < ng; k++) {
					r.row = gr->rows[i].label;
					if (!run_row(&r, &gr->rows[i], govs[k], NULL, NULL, &np, &err)) {
						g_free(all);
						goto fail;
					}
					memcpy(&all[((size_t)i * ng + k) * seeds], r.out,
					       sizeof(struct fig) * seeds);
				}
			fprintf(f, "### %s\n\n", gr->title);
			if (gr->note)
				fprintf(f, "%s\n\n", gr->note);
			for (int k = 0; k < ng; k++) {
				fprintf(f, "%s: prediction distribution %%\n\n", govs[k]);
				acc_header(f, gr->rowname, nst);
				for (int i = 0; i < gr->n; i++)
					acc_row(f, gr->rows[i].label, &all[((size_t)i * ng + k) * seeds],
						seeds, nst);
				fputc('\n', f);
			}
			fprintf(f, "Energy and p99 latency, normalised (%s = 100)\n\n| %s |", govs[0],
				gr->rowname);
			for (int k = 1; k < ng; k++)
				fprintf(f, " %s energy | %s p99 |", govs[k], govs[k]);
			fprintf(f, "\n|---|");
			for (int k = 1; k < ng; k++)
				fprintf(f, "---|---|");
			fputc('\n', f);
			for (int i = 0; i < gr->n; i++) {
				const struct fig *base = &all[(size_t)i * ng * seeds];

				fprintf(f, "| %s |", gr->rows[i].label);
				for (int k = 1; k < ng; k++) {
					norm_cells(f, base + k * seeds, base, seeds);
				}
				fputc('\n', f);
				if (e == 1) {
					/* plot data: mean accuracy and energy vs p99 per governor */
					for (int k = 0; k < ng; k++) {
						const struct fig *x = base + k * seeds;
						double a[64], m, sd, en, p9;

						pick(x, seeds, FIELD(x, correct), a);
						mean_sd(a, seeds, &m, &sd);
						g_string_append_printf(plot_acc, "\"%s %s\" %s %s\n", gr->title,
								       gr->rows[i].label, govs[k], fmt_f(m, 3));
						pick(x, seeds, FIELD(x, energy), a);
						mean_sd(a, seeds, &en, &sd);
						pick(x, seeds, FIELD(x, p99), a);
						mean_sd(a, seeds, &p9, &sd);
						g_string_append_printf(plot_sc, "%s %s %s \"%s %s\"\n", govs[k],
								       fmt_f(en, 1), fmt_f(p9, 1), gr->title,
								       gr->rows[i].label);
						for (int s2 = 0; s2 < seeds; s2++)
							for (int st = 0; st < nst; st++)
								res_sum[k][st] += x[s2].res[st];
					}
					res_n += seeds;
				}
			}
			fputc('\n', f);
			draws_table(f, gr, govs, ng, all, seeds);
			if (e == 1)
				runs612[gi] = all;
			else
				g_free(all);
		}
	}

	/* 4. wteo's variants, beside experiment 3's teo-6.12 and wteo */
	{
		static const char *const vparams[] = { "range=chosen", "trigger=timer,range=chosen",
						       "range=chosen,poll=avoid" };
		static const char *const vnames[] = { "range=chosen", "trigger=timer range=chosen",
						      "range=chosen poll=avoid" };
		const int nv = G_N_ELEMENTS(vparams);

		r.experiment = "wteo-variants";
		fprintf(f, "## 4. wteo with the RFC's choices: candidates up to TEO's choice, the timer "
			   "trigger\n\n"
			   "wteo (experiment 3, the kernel series' default) lets the row of TEO's "
			   "shallower choice pick among all states up to the deepest enabled one. "
			   "The RFC's pick never went deeper than the state its intervals logic "
			   "chose: `range=chosen` (the series' `teo.wteo_range=1`) does the same "
			   "on 6.12. `trigger=timer` (`teo.wteo_trigger=1`) also picks only when "
			   "TEO's choice is shallower than the state the sleep length alone gives, "
			   "the RFC's comparison; it reads the sleep length on every such "
			   "selection. `poll=avoid` (`teo.wteo_avoid_poll=1`, not the RFC's) "
			   "leaves polling states out of the pick: each poll time limit counts "
			   "as a hit in the sleep length's bin, which drives TEO deeper. All "
			   "three are checked in QEMU by `tools/kernel/validate`. Energy "
			   "and p99 normalised to "
			   "teo-6.12 = 100 on the same seed; correct and picks (selections that drew "
			   "a random number) in %% of selections.\n\n");
		for (size_t gi = 0; gi < G_N_ELEMENTS(groups); gi++) {
			const struct group *gr = &groups[gi];
			struct fig *var = g_new0(struct fig, (size_t)gr->n * nv * seeds);

			for (int i = 0; i < gr->n; i++)
				for (int k = 0; k < nv; k++) {
					r.row = gr->rows[i].label;
					if (!run_row(&r, &gr->rows[i], "wteo", vparams[k], NULL, &np, &err)) {
						g_free(var);
						goto fail;
					}
					memcpy(&var[((size_t)i * nv + k) * seeds], r.out,
					       sizeof(struct fig) * seeds);
				}
			fprintf(f, "### %s\n\n", gr->title);
			variants_table(f, gr, runs612[gi], (int)G_N_ELEMENTS(g612), var, vnames, nv,
				       seeds);
			g_free(var);
		}
	}
	if (c.f && !cli_out_commit(&c)) {
		cli_out_abort(&o);
		goto done;
	}
	c.f = NULL;
	if (!cli_out_commit(&o))
		goto done;
	o.f = NULL;
	if (plot) {
		GString *res = g_string_new("state");

		for (int k = 0; k < 4; k++)
			g_string_append_printf(res, " %s", g612[k]);
		g_string_append_c(res, '\n');
		for (int st = 0; st < nst; st++) {
			g_string_append(res, table->s[st].name);
			for (int k = 0; k < 4; k++)
				g_string_append_printf(res, " %s", fmt_f(res_sum[k][st] / (res_n ? res_n : 1), 3));
			g_string_append_c(res, '\n');
		}
		plotted = write_plots(plot, plot_acc->str, plot_sc->str, res->str);
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
	for (size_t gi = 0; gi < G_N_ELEMENTS(groups); gi++)
		g_free(runs612[gi]);
	g_string_free(plot_acc, TRUE);
	g_string_free(plot_sc, TRUE);
	g_free(r.out);
	is_states_free(table);
	return code;
}
