// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlesim sweep: run a governor over a space of params x traces, one row
 * per job; idlesim merge: join shard outputs into the unsharded result.
 *
 * Output protocol.  Finished rows go, as they finish, to a journal
 * OUT.partial, one whole line per write(2), so that an interrupt (Ctrl-C,
 * kill) loses no finished job and --resume appends only the missing ones
 * (a torn last line is dropped).  When every job of the shard is in the
 * journal, the rows are written in job order to a temporary file that is
 * renamed to OUT: OUT exists only when complete, and its bytes do not
 * depend on -j or scheduling.  A shard's OUT holds its own rows in job
 * order with the same columns, so merge is an ordered interleave.
 *
 * Every row starts with the sweep's identity (a hash of everything that
 * determines the rows: governor, fixed params, axes, sample, traces'
 * SHA-256, state tables, mode, seed, objective, format) and its job number
 * and count, which is how resume and merge refuse foreign or mixed files.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "idlesim/sweep.h"

enum { F_CSV, F_JSONL };

/* --objective: a weighted sum of terms, all minimised. */
enum { O_ENERGY, O_P99, O_ACCURACY, O_ABOVE_BELOW, O_COUNT };
static const char *const objective_names[O_COUNT] = {
	"energy", "p99", "accuracy", "above_below",
};

struct objective {
	double w[O_COUNT];
};

struct row_key {
	char sweep[17];
	uint64_t job, jobs, point;
	double objective, energy, p99;
};

struct sweep {
	struct is_sweep_space space;
	struct is_sweep_trace **traces;
	int ntraces;
	int format;
	struct objective obj;
	char id[17];
	uint64_t points, jobs;
	uint32_t shard_k, shard_n;
	/* journal */
	char *out, *journal;
	int fd;
	uint8_t *done;            /* bitmap over jobs */
	uint64_t ndone, ntodo;    /* of this shard */
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

static bool objective_parse(const char *spec, struct objective *o, GError **error)
{
	g_auto(GStrv) terms = g_strsplit(spec, ",", -1);

	memset(o, 0, sizeof(*o));
	if (!terms[0]) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "--objective: no terms");
		return false;
	}
	for (int i = 0; terms[i]; i++) {
		char *eq = strchr(terms[i], '=');
		double w = 1.0;
		int k;

		if (eq) {
			char *end;

			*eq = 0;
			w = g_ascii_strtod(eq + 1, &end);
			if (end == eq + 1 || *end || !isfinite(w)) {
				g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
					    "--objective: '%s' is not a number", eq + 1);
				return false;
			}
		}
		for (k = 0; k < O_COUNT; k++)
			if (strcmp(terms[i], objective_names[k]) == 0)
				break;
		if (k == O_COUNT) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "--objective: unknown term '%s' (energy, p99, accuracy, "
				    "above_below, or a weighted sum like energy=1,p99=1000)", terms[i]);
			return false;
		}
		o->w[k] += w;
	}
	return true;
}

static double objective_value(const struct objective *o, const struct is_metrics *m,
			      const struct is_state_table *t, const struct is_latency_summary *l)
{
	double sel = m->selections ? (double)m->selections : 1.0;
	uint64_t above, below;
	double term[O_COUNT];
	double v = 0;

	cli_above_below(m, t, &above, &below);
	term[O_ENERGY] = m->energy;
	term[O_P99] = (double)l->p99_ns;
	term[O_ACCURACY] = 100.0 - 100.0 * (double)m->acc[IS_ACC_MID] / sel;
	term[O_ABOVE_BELOW] = 100.0 * (double)(above + below) / sel;
	for (int k = 0; k < O_COUNT; k++)
		if (o->w[k] != 0)
			v += o->w[k] * term[k];
	return v;
}

static const char *param_value(const struct is_param_desc *d, int64_t v)
{
	static _Thread_local char buf[32];

	if (d->choices)
		return d->choices[v];
	g_snprintf(buf, sizeof(buf), "%" G_GINT64_FORMAT, v);
	return buf;
}

/* The identity of a sweep: everything that determines its rows. */
static void sweep_identity(struct sweep *sw, enum is_sim_mode mode, int64_t seed)
{
	const struct is_sweep_space *sp = &sw->space;
	const struct is_governor *g = sp->gov;
	g_autoptr(GString) s = g_string_new("idlesim-sweep 1\n");
	g_autofree char *sum = NULL;

	g_string_append_printf(s, "governor %s\nbase", g->name);
	for (int i = 0; i < g->nparams; i++)
		g_string_append_printf(s, " %" G_GINT64_FORMAT, sp->base.v[i]);
	for (int a = 0; a < sp->naxes; a++) {
		g_string_append_printf(s, "\naxis %s", g->params[sp->axes[a].param].name);
		for (int k = 0; k < sp->axes[a].n; k++)
			g_string_append_printf(s, " %" G_GINT64_FORMAT, sp->axes[a].values[k]);
	}
	g_string_append_printf(s, "\nrandom %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
			       sp->random_n, sp->random_seed);
	for (int i = 0; i < sw->ntraces; i++)
		g_string_append_printf(s, "\ntrace %s %s %u", sw->traces[i]->sha256,
				       sw->traces[i]->table->name, sw->traces[i]->disabled);
	g_string_append_printf(s, "\nmode %d\nseed %" G_GINT64_FORMAT "\nformat %d\nobjective",
			       (int)mode, seed, sw->format);
	for (int k = 0; k < O_COUNT; k++)
		g_string_append_printf(s, " %a", sw->obj.w[k]);
	sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, s->str, (gssize)s->len);
	g_strlcpy(sw->id, sum, sizeof(sw->id));
}

static void csv_field(GString *s, const char *v)
{
	if (!strpbrk(v, ",\"\n\r")) {
		g_string_append(s, v);
		return;
	}
	g_string_append_c(s, '"');
	for (; *v; v++) {
		if (*v == '"')
			g_string_append_c(s, '"');
		g_string_append_c(s, *v);
	}
	g_string_append_c(s, '"');
}

static char *csv_header(const struct sweep *sw)
{
	const struct is_governor *g = sw->space.gov;
	int n = sw->traces[0]->table->count;
	GString *s = g_string_new("sweep,job,jobs,point,objective,energy_active_ns,lat_p99_ns,governor");

	for (int i = 0; i < g->nparams; i++)
		g_string_append_printf(s, ",%s", g->params[i].name);
	g_string_append(s, ",trace,trace_sha256,seed,selections,correct_pct");
	for (int k = 1; k < n; k++)
		g_string_append_printf(s, ",us%d_pct", k);
	for (int k = 1; k < n; k++)
		g_string_append_printf(s, ",os%d_pct", k);
	g_string_append(s, ",above,below,lat_mean_ns,lat_p50_ns,lat_max_ns,tick_stop_requests,"
			   "tick_stopped,sleep_length_reads,random_draws,idle_ns");
	for (int i = 0; i < n; i++)
		g_string_append_printf(s, ",usage_s%d,time_ns_s%d", i, i);
	g_string_append_c(s, '\n');
	return g_string_free(s, FALSE);
}

static void format_row(struct sweep *sw, GString *s, uint64_t job, const struct is_params *p,
		       const struct is_sweep_trace *t, uint64_t seed, const struct is_metrics *m)
{
	const struct is_governor *g = sw->space.gov;
	const struct is_state_table *tb = t->table;
	bool js = sw->format == F_JSONL;
	struct is_latency_summary l;
	uint64_t above, below;
	const char *sep = js ? ", " : ",";

	is_metrics_latency(m, tb, &l);
	cli_above_below(m, tb, &above, &below);
	g_string_truncate(s, 0);
	if (js)
		g_string_append_printf(s, "{\"sweep\": \"%s\", \"job\": %" G_GUINT64_FORMAT
				       ", \"jobs\": %" G_GUINT64_FORMAT ", \"point\": %" G_GUINT64_FORMAT
				       ", \"objective\": %s, \"energy_active_ns\": %s, \"lat_p99_ns\": %"
				       G_GINT64_FORMAT ", \"governor\": ",
				       sw->id, job, sw->jobs, job / (uint64_t)sw->ntraces,
				       fmt_f(objective_value(&sw->obj, m, tb, &l), 4),
				       fmt_f(m->energy, 1), l.p99_ns);
	else
		g_string_append_printf(s, "%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
				       G_GUINT64_FORMAT ",%s,%s,%" G_GINT64_FORMAT ",",
				       sw->id, job, sw->jobs, job / (uint64_t)sw->ntraces,
				       fmt_f(objective_value(&sw->obj, m, tb, &l), 4),
				       fmt_f(m->energy, 1), l.p99_ns);
	(js ? is_json_string : csv_field)(s, g->name);
	if (js)
		g_string_append(s, ", \"params\": {");
	for (int i = 0; i < g->nparams; i++) {
		const struct is_param_desc *d = &g->params[i];

		if (js) {
			g_string_append_printf(s, "%s\"%s\": ", i ? ", " : "", d->name);
			if (d->choices)
				is_json_string(s, d->choices[p->v[i]]);
			else
				g_string_append(s, param_value(d, p->v[i]));
		} else {
			g_string_append_printf(s, ",%s", param_value(d, p->v[i]));
		}
	}
	g_string_append(s, js ? "}, \"trace\": " : ",");
	(js ? is_json_string : csv_field)(s, t->path);
	if (js)
		g_string_append_printf(s, ", \"trace_sha256\": \"%s\", \"seed\": %" G_GUINT64_FORMAT
				       ", \"selections\": %" G_GUINT64_FORMAT ", \"correct_pct\": %s, \"us_pct\": [",
				       t->sha256, seed, m->selections,
				       fmt_f(cli_pct(m->acc[IS_ACC_MID], m->selections), 4));
	else
		g_string_append_printf(s, ",%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s",
				       t->sha256, seed, m->selections,
				       fmt_f(cli_pct(m->acc[IS_ACC_MID], m->selections), 4));
	for (int k = 1; k < tb->count; k++)
		g_string_append_printf(s, "%s%s", js && k == 1 ? "" : sep,
				       fmt_f(cli_pct(m->acc[IS_ACC_MID + k], m->selections), 4));
	if (js)
		g_string_append(s, "], \"os_pct\": [");
	for (int k = 1; k < tb->count; k++)
		g_string_append_printf(s, "%s%s", js && k == 1 ? "" : sep,
				       fmt_f(cli_pct(m->acc[IS_ACC_MID - k], m->selections), 4));
	if (js)
		g_string_append_printf(s, "], \"above\": %" G_GUINT64_FORMAT ", \"below\": %"
				       G_GUINT64_FORMAT ", \"lat_mean_ns\": %s, \"lat_p50_ns\": %"
				       G_GINT64_FORMAT ", \"lat_max_ns\": %" G_GINT64_FORMAT
				       ", \"tick_stop_requests\": %" G_GUINT64_FORMAT
				       ", \"tick_stopped\": %" G_GUINT64_FORMAT
				       ", \"sleep_length_reads\": %" G_GUINT64_FORMAT
				       ", \"random_draws\": %" G_GUINT64_FORMAT
				       ", \"idle_ns\": %" G_GINT64_FORMAT ", \"usage\": [",
				       above, below, fmt_f(l.mean_ns, 2), l.p50_ns, l.max_ns,
				       m->tick_stop_requests, m->tick_stops, m->sleep_length_reads,
				       m->random_draws, m->idle_ns);
	else
		g_string_append_printf(s, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s,%"
				       G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GUINT64_FORMAT
				       ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
				       ",%" G_GINT64_FORMAT,
				       above, below, fmt_f(l.mean_ns, 2), l.p50_ns, l.max_ns,
				       m->tick_stop_requests, m->tick_stops, m->sleep_length_reads,
				       m->random_draws, m->idle_ns);
	if (js) {
		for (int i = 0; i < tb->count; i++)
			g_string_append_printf(s, "%s%" G_GUINT64_FORMAT, i ? ", " : "", m->usage[i]);
		g_string_append(s, "], \"time_ns\": [");
		for (int i = 0; i < tb->count; i++)
			g_string_append_printf(s, "%s%" G_GINT64_FORMAT, i ? ", " : "", m->time_ns[i]);
		g_string_append(s, "]}");
	} else {
		for (int i = 0; i < tb->count; i++)
			g_string_append_printf(s, ",%" G_GUINT64_FORMAT ",%" G_GINT64_FORMAT,
					       m->usage[i], m->time_ns[i]);
	}
	g_string_append_c(s, '\n');
}

/* ---- reading rows back (resume, finalize, merge) ----------------------- */

static bool parse_u64(const char **p, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = g_ascii_strtoull(*p, &end, 10);
	if (end == *p || errno)
		return false;
	*p = end;
	return true;
}

static bool parse_double(const char **p, double *v)
{
	char *end;

	*v = g_ascii_strtod(*p, &end);
	if (end == *p)
		return false;
	*p = end;
	return true;
}

static bool expect(const char **p, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(*p, lit, n) != 0)
		return false;
	*p += n;
	return true;
}

/* The leading columns every row has, in either format. */
static bool row_parse(const char *line, int format, struct row_key *k)
{
	const char *p = line;
	bool js = format == F_JSONL;

	if (!expect(&p, js ? "{\"sweep\": \"" : ""))
		return false;
	if (strspn(p, "0123456789abcdef") != 16)
		return false;
	memcpy(k->sweep, p, 16);
	k->sweep[16] = 0;
	p += 16;
	return expect(&p, js ? "\", \"job\": " : ",") && parse_u64(&p, &k->job) &&
	       expect(&p, js ? ", \"jobs\": " : ",") && parse_u64(&p, &k->jobs) &&
	       expect(&p, js ? ", \"point\": " : ",") && parse_u64(&p, &k->point) &&
	       expect(&p, js ? ", \"objective\": " : ",") && parse_double(&p, &k->objective) &&
	       expect(&p, js ? ", \"energy_active_ns\": " : ",") && parse_double(&p, &k->energy) &&
	       expect(&p, js ? ", \"lat_p99_ns\": " : ",") && parse_double(&p, &k->p99) &&
	       k->job < k->jobs;
}

static int format_of_line(const char *line)
{
	return line[0] == '{' ? F_JSONL : F_CSV;
}

/* ---- the summary: best points and the energy-vs-p99 Pareto front -------- */

struct agg {
	double objective, energy, p99;
	uint32_t n;
};

static int cmp_by_objective(const void *a, const void *b, void *data)
{
	const struct agg *g = data;
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	double u = g[x].objective / g[x].n, v = g[y].objective / g[y].n;

	return u < v ? -1 : u > v ? 1 : x < y ? -1 : x > y;
}

static int cmp_by_energy(const void *a, const void *b, void *data)
{
	const struct agg *g = data;
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	double u = g[x].energy / g[x].n, v = g[y].energy / g[y].n;
	double pu = g[x].p99 / g[x].n, pv = g[y].p99 / g[y].n;

	if (u != v)
		return u < v ? -1 : 1;
	if (pu != pv)
		return pu < pv ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void point_label(const struct is_sweep_space *sp, uint64_t point, GString *s)
{
	struct is_params p;

	is_sweep_space_point(sp, point, &p);
	g_string_truncate(s, 0);
	for (int a = 0; a < sp->naxes; a++) {
		const struct is_param_desc *d = &sp->gov->params[sp->axes[a].param];

		g_string_append_printf(s, "%s%s=%s", a ? " " : "", d->name,
				       param_value(d, p.v[sp->axes[a].param]));
	}
	if (!sp->naxes)
		g_string_append(s, "(defaults)");
}

/* Writes DIR/points.dat, DIR/pareto.dat and, with gnuplot, the figures. */
static bool write_plots(const struct sweep *sw, const char *dir, const struct agg *g,
			const uint64_t *front, uint64_t nfront)
{
	const struct is_sweep_space *sp = &sw->space;
	g_autoptr(GString) pts = g_string_new("# point");
	g_autoptr(GString) par = g_string_new("# point energy_active_ns lat_p99_ns\n");
	g_autoptr(GString) gp = g_string_new(NULL);

	for (int a = 0; a < sp->naxes; a++)
		g_string_append_printf(pts, " %s", sp->gov->params[sp->axes[a].param].name);
	g_string_append(pts, " objective energy_active_ns lat_p99_ns\n");
	for (uint64_t i = 0; i < sw->points; i++) {
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
	g_string_append_printf(gp, "set terminal pngcairo noenhanced size 900,700\n"
			       "set datafile commentschars '#'\n"
			       "set output 'pareto.png'\nset xlabel 'energy (active-ns)'\n"
			       "set ylabel 'p99 wakeup latency (ns)'\nset title 'energy vs p99 latency'\n"
			       "plot 'points.dat' using %d:%d with points pt 7 ps 0.5 title 'points', "
			       "'pareto.dat' using 2:3 with linespoints lw 2 title 'Pareto front'\n",
			       sp->naxes + 3, sp->naxes + 4);
	if (sp->naxes == 2)
		g_string_append_printf(gp, "set output 'heatmap.png'\nset xlabel '%s'\nset ylabel '%s'\n"
				       "set title 'objective'\nset view map\nunset key\nset format cb '%%.4g'\n"
				       "plot 'points.dat' using 2:3:4 with image\n",
				       sp->gov->params[sp->axes[0].param].name,
				       sp->gov->params[sp->axes[1].param].name);
	return cli_plot_dir(dir) && cli_plot_file(dir, "points.dat", pts->str) &&
	       cli_plot_file(dir, "pareto.dat", par->str) && cli_plot_file(dir, "plots.gp", gp->str) &&
	       cli_plot_run(dir, "plots.gp");
}

#define P(...) do { if (f) fprintf(f, __VA_ARGS__); } while (0)

/* Prints the summary (when @print) and writes the plots; false: plots failed. */
static bool summary(const struct sweep *sw, const struct agg *g, const char *plot, bool print)
{
	const struct is_sweep_space *sp = &sw->space;
	g_autoptr(GString) lab = g_string_new(NULL);
	uint64_t *idx, n = 0, nfront = 0, *front;
	double best_p99 = INFINITY;
	FILE *f = print ? stdout : NULL;
	bool ok;

	idx = g_new(uint64_t, sw->points ? sw->points : 1);
	for (uint64_t i = 0; i < sw->points; i++)
		if (g[i].n)
			idx[n++] = i;
	g_qsort_with_data(idx, (gint)n, sizeof(*idx), cmp_by_objective, (gpointer)g);
	P("sweep %s: %" G_GUINT64_FORMAT " points x %d source(s), governor %s",
	       sw->id, sw->points, sw->ntraces, sp->gov->name);
	if (sp->random_n)
		P(", random sample (--random-seed %" G_GUINT64_FORMAT ")", sp->random_seed);
	P("\nobjective (lower is better):");
	for (int k = 0; k < O_COUNT; k++)
		if (sw->obj.w[k] != 0)
			P(" %s*%s", fmt_f(sw->obj.w[k], 4), objective_names[k]);
	P("\n\nbest points (mean over traces)\n%8s %14s %16s %12s  params\n",
	       "point", "objective", "energy", "p99_ns");
	for (uint64_t i = 0; i < n && i < 10; i++) {
		const struct agg *a = &g[idx[i]];

		point_label(sp, idx[i], lab);
		P("%8" G_GUINT64_FORMAT " %14s %16s %12s  %s\n", idx[i],
		       fmt_f(a->objective / a->n, 4), fmt_f(a->energy / a->n, 1),
		       fmt_f(a->p99 / a->n, 1), lab->str);
	}
	/* The front: sorted by energy, each point with a p99 below all cheaper ones. */
	g_qsort_with_data(idx, (gint)n, sizeof(*idx), cmp_by_energy, (gpointer)g);
	front = g_new(uint64_t, n ? n : 1);
	for (uint64_t i = 0; i < n; i++) {
		double p = g[idx[i]].p99 / g[idx[i]].n;

		if (p < best_p99) {
			best_p99 = p;
			front[nfront++] = idx[i];
		}
	}
	P("\nenergy vs p99 latency Pareto front: %" G_GUINT64_FORMAT " point(s)\n",
	       nfront);
	for (uint64_t i = 0; i < nfront && i < 20; i++) {
		const struct agg *a = &g[front[i]];

		point_label(sp, front[i], lab);
		P("%8" G_GUINT64_FORMAT " %16s %12s  %s\n", front[i],
		       fmt_f(a->energy / a->n, 1), fmt_f(a->p99 / a->n, 1), lab->str);
	}
	if (nfront > 20)
		P("     ... %" G_GUINT64_FORMAT " more\n", nfront - 20);
	ok = !plot || write_plots(sw, plot, g, front, nfront);
	g_free(front);
	g_free(idx);
	return ok;
}

#undef P

/* ---- running ------------------------------------------------------------ */

static bool bit(const uint8_t *b, uint64_t i)
{
	return b[i >> 3] & (1u << (i & 7));
}

static void set_bit(uint8_t *b, uint64_t i)
{
	b[i >> 3] |= (uint8_t)(1u << (i & 7));
}

static bool write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

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
		sw->ndone + sw->run_done, sw->ndone + sw->ntodo, fmt_f(rate, 1),
		rate > 0 ? fmt_f((double)left / rate, 0) : "?", final ? "\n" : "");
}

static bool on_done(void *ctx, uint64_t job, const struct is_params *p,
		    const struct is_sweep_trace *t, uint64_t seed, const struct is_metrics *m,
		    GError **error)
{
	struct sweep *sw = ctx;

	format_row(sw, sw->line, job, p, t, seed, m);
	if (!write_all(sw->fd, sw->line->str, sw->line->len)) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", sw->journal, g_strerror(errno));
		return false;
	}
	set_bit(sw->done, job);
	sw->run_done++;
	progress(sw, false);
	return true;
}

static uint64_t shard_count(uint64_t jobs, uint32_t k, uint32_t n)
{
	return jobs / n + (jobs % n > k - 1 ? 1 : 0);
}

/*
 * Reads the journal of an interrupted run: keeps its whole rows, checks
 * they belong to this sweep and shard, truncates a torn last line.
 */
static bool journal_load(struct sweep *sw, const char *header, int *code)
{
	FILE *f = fopen(sw->journal, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	off_t good = 0;
	uint64_t lineno = 0;
	bool ok = true;

	if (!f) {
		cli_error("%s: %s", sw->journal, g_strerror(errno));
		return false;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		struct row_key k;

		lineno++;
		if (line[len - 1] != '\n')
			break;  /* torn by the interruption: dropped */
		if (lineno == 1 && header) {
			if (strcmp(line, header) != 0) {
				cli_error("%s: line 1: the columns differ from this sweep's: "
					  "a resume file from a different sweep", sw->journal);
				ok = false;
				break;
			}
			good += len;
			continue;
		}
		if (!row_parse(line, sw->format, &k)) {
			cli_error("%s: line %" G_GUINT64_FORMAT ": not a sweep row", sw->journal, lineno);
			ok = false;
			break;
		}
		if (strcmp(k.sweep, sw->id) != 0 || k.jobs != sw->jobs) {
			cli_error("%s: line %" G_GUINT64_FORMAT ": field 'sweep': row of sweep %s, "
				  "this is sweep %s (params, traces or options differ): "
				  "a resume file from a different sweep", sw->journal, lineno,
				  k.sweep, sw->id);
			ok = false;
			break;
		}
		if (!is_sweep_in_shard(k.job, sw->shard_k, sw->shard_n) || bit(sw->done, k.job)) {
			cli_error("%s: line %" G_GUINT64_FORMAT ": field 'job': job %" G_GUINT64_FORMAT
				  " is %s", sw->journal, lineno, k.job,
				  bit(sw->done, k.job) ? "there twice" : "not in this shard");
			ok = false;
			break;
		}
		set_bit(sw->done, k.job);
		sw->ndone++;
		good += len;
	}
	free(line);
	fclose(f);
	if (!ok) {
		*code = EXIT_RUNTIME;
		return false;
	}
	if (truncate(sw->journal, good) != 0) {
		cli_error("%s: %s", sw->journal, g_strerror(errno));
		return false;
	}
	return true;
}

/*
 * Writes the journal's rows in job order to OUT (complete or not at all),
 * aggregating the summary's figures on the way.
 */
static bool finalize(struct sweep *sw, const char *header, struct agg *g)
{
	uint64_t n = shard_count(sw->jobs, sw->shard_k, sw->shard_n);
	g_autofree off_t *off = g_new(off_t, n ? n : 1);
	FILE *f = fopen(sw->journal, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	off_t pos = 0;
	struct cli_out o;
	uint64_t rows = 0;
	bool ok = true;

	if (!f) {
		cli_error("%s: %s", sw->journal, g_strerror(errno));
		return false;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		struct row_key k;

		if (header && pos == 0) {
			pos += len;
			continue;
		}
		if (!row_parse(line, sw->format, &k)) {
			cli_error("%s: a row could not be read back", sw->journal);
			ok = false;
			break;
		}
		off[(k.job - (sw->shard_k - 1)) / sw->shard_n] = pos;
		rows++;
		g[k.point].objective += k.objective;
		g[k.point].energy += k.energy;
		g[k.point].p99 += k.p99;
		g[k.point].n++;
		pos += len;
	}
	if (ok && rows != n) {
		cli_error("%s: %" G_GUINT64_FORMAT " rows, expected %" G_GUINT64_FORMAT,
			  sw->journal, rows, n);
		ok = false;
	}
	if (!ok || !cli_out_open(&o, sw->out)) {
		free(line);
		fclose(f);
		return false;
	}
	if (header)
		fputs(header, o.f);
	for (uint64_t r = 0; r < n && ok; r++) {
		if (fseeko(f, off[r], SEEK_SET) != 0 || getline(&line, &cap, f) <= 0) {
			cli_error("%s: %s", sw->journal, g_strerror(errno));
			ok = false;
			break;
		}
		fputs(line, o.f);
	}
	free(line);
	fclose(f);
	if (!ok) {
		cli_out_abort(&o);
		return false;
	}
	if (fflush(o.f) != 0 || fsync(fileno(o.f)) != 0) {
		cli_error("%s: %s", sw->out, g_strerror(errno));
		cli_out_abort(&o);
		return false;
	}
	if (!cli_out_commit(&o))
		return false;
	unlink(sw->journal);
	return true;
}

/* An OUT that already exists: the same sweep, complete? */
static int check_complete(struct sweep *sw, const char *header)
{
	FILE *f = fopen(sw->out, "r");
	char *line = NULL;
	size_t cap = 0;
	struct row_key k;
	bool same = false;

	if (!f)
		return -1;
	if (getline(&line, &cap, f) > 0 && (!header || strcmp(line, header) == 0)) {
		if (!header || getline(&line, &cap, f) > 0)
			same = row_parse(line, sw->format, &k) && strcmp(k.sweep, sw->id) == 0;
	}
	free(line);
	fclose(f);
	return same;
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
	g_autofree char *plot = NULL, *seeds = NULL, *header = NULL;
	gint64 random_n = 0, random_seed = 1, seed = -1, max_points = 1000000;
	gint jobs_j = 0;
	gboolean resume = FALSE, quiet = FALSE, force = FALSE;
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
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- sweep a governor's params over traces");
	struct sweep sw = { .fd = -1 };
	struct cli_workload wl = { 0 };
	struct is_synth_config scfg = { 0 };
	g_autoptr(GArray) seedv = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	struct sigaction sa = { 0 }, old_int, old_term;
	enum is_sim_mode smode = IS_SIM_MODEL;
	const struct is_governor *g;
	struct agg *aggs = NULL;
	uint64_t *todo = NULL, nt = 0;
	GError *err = NULL;
	int code = EXIT_USAGE, have;

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
	sw.format = format && strcmp(format, "jsonl") == 0 ? F_JSONL : F_CSV;
	if (mode && !is_run_mode_parse(mode, &smode)) {
		cli_error("--mode must be model or exact, not '%s'", mode);
		goto cleanup;
	}
	if (random_n < 0 || random_seed < 0 || seed < -1 || max_points < 1 || jobs_j < 0) {
		cli_error("--random, --random-seed, --seed and -j must not be negative, "
			  "--max-points must be >= 1");
		goto cleanup;
	}
	g = is_governor_find(gov);
	if (!g) {
		cli_error("--governor: unknown governor '%s' (see idlesim governors)", gov);
		goto cleanup;
	}
	is_sweep_space_init(&sw.space, g);
	sw.space.random_n = (uint64_t)random_n;
	sw.space.random_seed = (uint64_t)random_seed;
	sw.shard_k = sw.shard_n = 1;
	if (!objective_parse(objective ? objective : "energy", &sw.obj, &err))
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
	if (shard && !is_sweep_shard_parse(shard, &sw.shard_k, &sw.shard_n, &err))
		goto usage;
	if (!is_sweep_space_size(&sw.space, &sw.points, &err))
		goto usage;
	if (sw.points > (uint64_t)max_points && !force) {
		cli_error("the space has %" G_GUINT64_FORMAT " points, more than --max-points %"
			  G_GINT64_FORMAT ": pass --force to run it", sw.points, max_points);
		goto out;
	}

	code = EXIT_RUNTIME;
	sw.ntraces = traces ? (int)g_strv_length(traces) : (int)seedv->len;
	sw.traces = g_new0(struct is_sweep_trace *, sw.ntraces);
	for (int i = 0; i < sw.ntraces; i++) {
		if (traces) {
			sw.traces[i] = is_sweep_trace_load(traces[i], states, &err);
		} else {
			scfg.seed = g_array_index(seedv, uint64_t, i);
			sw.traces[i] = is_sweep_workload_new(&scfg, (uint64_t)wl.periods, wl.until_ns,
							     states, &err);
		}
		if (!sw.traces[i])
			goto fail;
		if (!traces)
			continue;
		if (sw.traces[i]->table->count != sw.traces[0]->table->count) {
			cli_error("%s: %d states, but %s has %d: the rows' per-state columns "
				  "need one state count", traces[i], sw.traces[i]->table->count,
				  traces[0], sw.traces[0]->table->count);
			goto out;
		}
	}
	if (sw.points > UINT64_MAX / (uint64_t)sw.ntraces) {
		cli_error("too many jobs");
		goto out;
	}
	sw.jobs = sw.points * (uint64_t)sw.ntraces;
	sweep_identity(&sw, smode, seed);
	header = sw.format == F_CSV ? csv_header(&sw) : NULL;
	sw.out = out;
	sw.journal = g_strdup_printf("%s.partial", out);
	sw.done = g_malloc0(sw.jobs / 8 + 1);
	sw.line = g_string_new(NULL);

	have = g_file_test(sw.journal, G_FILE_TEST_EXISTS);
	if (have && !resume) {
		cli_error("%s: an interrupted sweep's rows are here: pass --resume to continue it, "
			  "or remove the file", sw.journal);
		goto out;
	}
	if (!have && resume && g_file_test(out, G_FILE_TEST_EXISTS)) {
		if (check_complete(&sw, header) != 1) {
			cli_error("%s: --resume: this file is not a result of this sweep "
				  "(params, traces or options differ)", out);
			goto out;
		}
		if (!quiet)
			fprintf(stderr, "sweep: %s is complete already\n", out);
		code = EXIT_OK;
		goto out;
	}
	if (have) {
		if (!journal_load(&sw, header, &code))
			goto out;
		sw.fd = open(sw.journal, O_WRONLY | O_APPEND | O_CLOEXEC);
	} else {
		sw.fd = open(sw.journal, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0666);
		if (sw.fd >= 0 && header && !write_all(sw.fd, header, strlen(header)))
			goto io;
	}
	if (sw.fd < 0)
		goto io;

	todo = g_new(uint64_t, shard_count(sw.jobs, sw.shard_k, sw.shard_n) + 1);
	for (uint64_t j = sw.shard_k - 1; j < sw.jobs; j += sw.shard_n)
		if (!bit(sw.done, j))
			todo[nt++] = j;
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
			.ntraces = sw.ntraces,
			.mode = smode,
			.seed = seed,
			.jobs = todo,
			.njobs = nt,
			.threads = jobs_j ? jobs_j : (int)g_get_num_processors(),
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
	if (close(sw.fd) != 0) {
		sw.fd = -1;
		goto io;
	}
	sw.fd = -1;
	if (interrupted) {
		cli_error("interrupted: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " jobs are in %s; "
			  "run the same command with --resume to finish", sw.ndone + sw.run_done,
			  sw.ndone + sw.ntodo, sw.journal);
		code = 128 + interrupted;
		goto out;
	}
	aggs = g_new0(struct agg, sw.points ? sw.points : 1);
	if (!finalize(&sw, header, aggs))
		goto out;
	/* the result is complete; figures that could not be made still fail */
	code = summary(&sw, aggs, plot, !quiet) ? EXIT_OK : EXIT_RUNTIME;
	goto out;
io:
	cli_error("%s: %s", sw.journal, g_strerror(errno));
	code = EXIT_RUNTIME;
	goto out;
usage:
	code = EXIT_USAGE;
fail:
	cli_error("%s", err->message);
	g_error_free(err);
out:
	if (sw.fd >= 0)
		close(sw.fd);
	for (int i = 0; sw.traces && i < sw.ntraces; i++)
		is_sweep_trace_free(sw.traces[i]);
	g_free(sw.traces);
	is_sweep_space_clear(&sw.space);
	g_free(sw.journal);
	g_free(sw.done);
	if (sw.line)
		g_string_free(sw.line, TRUE);
	g_free(todo);
	g_free(aggs);
cleanup:
	g_free(wl.name);
	g_strfreev(wl.params);
	g_free(wl.duration);
	return code;
}

/* ---- merge -------------------------------------------------------------- */

struct shard_in {
	const char *path;
	FILE *f;
	char *line;
	size_t cap;
	bool have;
	struct row_key k;
	uint64_t lineno;
};

static bool shard_next(struct shard_in *s, int format, const char *ref_id, uint64_t ref_jobs)
{
	ssize_t len = getline(&s->line, &s->cap, s->f);
	uint64_t prev = s->have ? s->k.job : 0;
	bool had = s->have;

	s->have = false;
	if (len <= 0)
		return true;
	s->lineno++;
	if (s->line[len - 1] != '\n' || !row_parse(s->line, format, &s->k)) {
		cli_error("%s: line %" G_GUINT64_FORMAT ": not a whole sweep row (a partial file?)",
			  s->path, s->lineno);
		return false;
	}
	if (ref_id && (strcmp(s->k.sweep, ref_id) != 0 || s->k.jobs != ref_jobs)) {
		cli_error("%s: line %" G_GUINT64_FORMAT ": field 'sweep': row of sweep %s with %"
			  G_GUINT64_FORMAT " jobs, the others are sweep %s with %" G_GUINT64_FORMAT
			  ": shards of different sweeps", s->path, s->lineno, s->k.sweep, s->k.jobs,
			  ref_id, ref_jobs);
		return false;
	}
	if (had && s->k.job <= prev) {
		cli_error("%s: line %" G_GUINT64_FORMAT ": field 'job': %" G_GUINT64_FORMAT
			  " after %" G_GUINT64_FORMAT ": rows out of order", s->path, s->lineno,
			  s->k.job, prev);
		return false;
	}
	s->have = true;
	return true;
}

int cmd_merge(int argc, char **argv)
{
	g_autofree char *out = NULL;
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "the merged result (required)", "FILE" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("SHARD... - join sweep shards");
	g_autofree char *header = NULL;
	struct shard_in *sh = NULL;
	struct cli_out o = { 0 };
	int n, code = EXIT_USAGE, format = F_CSV;
	char id[17] = "";
	uint64_t jobs = 0;
	bool opened = false;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse(ctx, &argc, &argv, &code))
		return code;
	if (argc < 2 || !out) {
		cli_error("merge needs SHARD files and -o FILE");
		return EXIT_USAGE;
	}
	if (!cli_out_check("--output", out, &code))
		return code;
	code = EXIT_RUNTIME;
	n = argc - 1;
	sh = g_new0(struct shard_in, n);
	for (int i = 0; i < n; i++) {
		sh[i].path = argv[i + 1];
		sh[i].f = fopen(sh[i].path, "r");
		if (!sh[i].f) {
			cli_error("%s: %s", sh[i].path, g_strerror(errno));
			goto out;
		}
		for (int j = 0; j < i; j++) {
			struct stat a, b;

			if (stat(sh[i].path, &a) == 0 && stat(sh[j].path, &b) == 0 &&
			    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
				cli_error("%s: given twice", sh[i].path);
				goto out;
			}
		}
		/* The first line tells the format; CSV files start with the header. */
		if (getline(&sh[i].line, &sh[i].cap, sh[i].f) <= 0) {
			cli_error("%s: empty: not a sweep result", sh[i].path);
			goto out;
		}
		sh[i].lineno = 1;
		if (i == 0)
			format = format_of_line(sh[i].line);
		if (format_of_line(sh[i].line) != format) {
			cli_error("%s: a %s file among %s files", sh[i].path,
				  format == F_CSV ? "JSON Lines" : "CSV", format == F_CSV ? "CSV" : "JSON Lines");
			goto out;
		}
		if (format == F_CSV) {
			if (!header) {
				header = g_strdup(sh[i].line);
			} else if (strcmp(header, sh[i].line) != 0) {
				cli_error("%s: line 1: columns differ from %s's", sh[i].path, sh[0].path);
				goto out;
			}
			if (!shard_next(&sh[i], format, id[0] ? id : NULL, jobs))
				goto out;
		} else {
			if (!row_parse(sh[i].line, format, &sh[i].k)) {
				cli_error("%s: line 1: not a sweep row", sh[i].path);
				goto out;
			}
			sh[i].have = true;
			if (id[0] && (strcmp(sh[i].k.sweep, id) || sh[i].k.jobs != jobs)) {
				cli_error("%s: line 1: field 'sweep': shards of different sweeps", sh[i].path);
				goto out;
			}
		}
		if (sh[i].have && !id[0]) {
			g_strlcpy(id, sh[i].k.sweep, sizeof(id));
			jobs = sh[i].k.jobs;
		}
	}
	if (!id[0]) {
		cli_error("no rows in any shard");
		goto out;
	}
	if (!cli_out_open(&o, out))
		goto out;
	opened = true;
	if (header)
		fputs(header, o.f);
	for (uint64_t j = 0; j < jobs; j++) {
		int who = -1;

		for (int i = 0; i < n; i++) {
			if (!sh[i].have || sh[i].k.job != j)
				continue;
			if (who >= 0) {
				cli_error("job %" G_GUINT64_FORMAT " is in %s and in %s: overlapping shards",
					  j, sh[who].path, sh[i].path);
				goto out;
			}
			who = i;
		}
		if (who < 0) {
			cli_error("job %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
				  " is in no shard: a shard is missing or incomplete", j, jobs);
			goto out;
		}
		fputs(sh[who].line, o.f);
		if (!shard_next(&sh[who], format, id, jobs))
			goto out;
	}
	for (int i = 0; i < n; i++)
		if (sh[i].have) {
			cli_error("%s: line %" G_GUINT64_FORMAT ": job %" G_GUINT64_FORMAT
				  " is beyond the sweep's %" G_GUINT64_FORMAT " jobs", sh[i].path,
				  sh[i].lineno, sh[i].k.job, jobs);
			goto out;
		}
	opened = false;
	code = cli_out_commit(&o) ? EXIT_OK : EXIT_RUNTIME;
out:
	if (opened)
		cli_out_abort(&o);
	for (int i = 0; sh && i < n; i++) {
		if (sh[i].f)
			fclose(sh[i].f);
		free(sh[i].line);
	}
	g_free(sh);
	return code;
}
