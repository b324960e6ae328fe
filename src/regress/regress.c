// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlesim regress: two governors over a corpus (include/idlesim/regress.h,
 * docs/regress.md).
 *
 * Each (case, seed, governor) is one simulation, closed loop for a
 * scenario or an rt-app file, open loop (model mode) for a trace; its
 * observer watches every selection for the pathologies, its metrics give
 * the figures.  A case's verdict compares the two governors' means over
 * the seeds against the spread the seeds themselves give, and says which
 * pathology one governor shows and the other does not.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "idlesim/regress.h"
#include "idlesim/rtapp.h"
#include "idlesim/run.h"
#include "idlesim/synth.h"

static const char *const finding_names[] = { "lock-in", "polling", "tick kept", "latency limit" };
static const char *const verdict_names[] = { "same", "better", "worse" };
static const char *const rmetric_names[] = { "energy", "p99 latency", "selections/period" };

const char *is_finding_name(enum is_finding_kind k)
{
	return finding_names[k];
}

const char *is_verdict_name(enum is_verdict v)
{
	return verdict_names[v];
}

const char *is_rmetric_name(enum is_rmetric m)
{
	return rmetric_names[m];
}

/* ------------------------------------------------------------------ */
/* The corpus. */

static void case_free(gpointer p)
{
	struct is_regress_case *c = p;

	g_free(c->name);
	g_free(c->catches);
	g_free(c->workload);
	g_free(c->trace);
	g_strfreev(c->wparams);
	g_free(c->states);
	g_free(c);
}

void is_regress_corpus_free(struct is_regress_corpus *c)
{
	if (!c)
		return;
	g_free(c->path);
	if (c->cases)
		g_ptr_array_unref(c->cases);
	g_free(c);
}

static bool corpus_err(GError **error, const char *path, const char *group, const char *key,
		       const char *why)
{
	g_set_error(error, IS_ERROR, IS_ERROR_PARSE, "%s: [%s] %s%s%s", path, group,
		    key ? key : "", key ? ": " : "", why);
	return false;
}

/* A path of the corpus: relative to the corpus file's directory. */
static char *corpus_path(const char *dir, const char *p)
{
	return g_path_is_absolute(p) ? g_strdup(p) : g_build_filename(dir, p, NULL);
}

static bool int_key(GKeyFile *kf, const char *path, const char *g, const char *key,
		    int64_t lo, int64_t hi, int64_t def, int64_t *out, GError **error)
{
	g_autofree char *v = g_key_file_get_value(kf, g, key, NULL);
	gint64 x;

	if (!v) {
		*out = def;
		return true;
	}
	if (!g_ascii_string_to_signed(g_strstrip(v), 10, lo, hi, &x, NULL)) {
		g_autofree char *why = g_strdup_printf("'%s' is not an integer %" G_GINT64_FORMAT
						       "..%" G_GINT64_FORMAT, v, lo, hi);

		return corpus_err(error, path, g, key, why);
	}
	*out = x;
	return true;
}

static bool bool_key(GKeyFile *kf, const char *path, const char *g, const char *key,
		     bool *out, GError **error)
{
	g_autofree char *v = g_key_file_get_value(kf, g, key, NULL);

	*out = false;
	if (!v)
		return true;
	g_strstrip(v);
	if (strcmp(v, "true") && strcmp(v, "false")) {
		g_autofree char *why = g_strdup_printf("'%s' is not true or false", v);

		return corpus_err(error, path, g, key, why);
	}
	*out = v[0] == 't';
	return true;
}

static bool parse_case(GKeyFile *kf, const char *path, const char *dir, const char *g,
		       struct is_regress_case *c, GError **error)
{
	static const char *const keys[] = {
		"catches", "workload", "wparams", "trace", "states", "cpus", "hz", "periods",
		"duration_ms", "latency_us", "seeds", "idle", "exit_free", "full", NULL
	};
	g_auto(GStrv) ks = g_key_file_get_keys(kf, g, NULL, NULL);
	g_autofree char *wl = g_key_file_get_string(kf, g, "workload", NULL);
	g_autofree char *tr = g_key_file_get_string(kf, g, "trace", NULL);
	g_autofree char *st = g_key_file_get_string(kf, g, "states", NULL);
	int64_t v;

	for (int i = 0; ks && ks[i]; i++)
		if (!g_strv_contains(keys, ks[i]))
			return corpus_err(error, path, g, ks[i], "unknown key");
	c->name = g_strdup(g);
	c->catches = g_key_file_get_string(kf, g, "catches", NULL);
	if (!c->catches || !*c->catches)
		return corpus_err(error, path, g, "catches", "missing: say what the case is there to catch");
	if (!!wl == !!tr)
		return corpus_err(error, path, g, NULL, "give exactly one of workload= and trace=");
	if (wl && g_str_has_prefix(wl, "rt-app:")) {
		g_autofree char *f = corpus_path(dir, wl + 7);

		c->workload = g_strconcat("rt-app:", f, NULL);
	} else if (wl) {
		if (!is_workload_find(wl))
			return corpus_err(error, path, g, "workload", "not a scenario (idlesim synth --list)");
		c->workload = g_strdup(wl);
	} else {
		c->trace = corpus_path(dir, tr);
	}
	c->wparams = g_key_file_get_string_list(kf, g, "wparams", NULL, NULL);
	if (st)
		c->states = is_states_builtin(st) ? g_strdup(st) : corpus_path(dir, st);
	if (!int_key(kf, path, g, "cpus", 1, IS_TRACE_MAX_CPUS, 2, &v, error))
		return false;
	c->cpus = (int)v;
	if (!int_key(kf, path, g, "hz", 1, 10000, 100, &v, error))
		return false;
	c->hz = (int)v;
	if (!int_key(kf, path, g, "periods", 0, INT64_MAX, 0, &v, error))
		return false;
	c->periods = (uint64_t)v;
	if (!int_key(kf, path, g, "duration_ms", 0, INT64_MAX / 1000000, 0, &v, error))
		return false;
	c->duration_ns = v * 1000000;
	if (!int_key(kf, path, g, "latency_us", 0, INT64_MAX / 1000, 0, &v, error))
		return false;
	c->latency_req_ns = v * 1000;
	if (!int_key(kf, path, g, "seeds", 1, 1000, 3, &v, error))
		return false;
	c->seeds = (int)v;
	if (!bool_key(kf, path, g, "idle", &c->idle, error) ||
	    !bool_key(kf, path, g, "exit_free", &c->exit_free, error) ||
	    !bool_key(kf, path, g, "full", &c->full, error))
		return false;
	if (c->workload && !g_str_has_prefix(c->workload, "rt-app:") &&
	    !c->periods == !c->duration_ns)
		return corpus_err(error, path, g, NULL, "a scenario needs exactly one of periods= "
				  "and duration_ms=");
	return true;
}

struct is_regress_corpus *is_regress_corpus_load(const char *path, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *dir = g_path_get_dirname(path);
	struct is_regress_corpus *c = g_new0(struct is_regress_corpus, 1);
	g_auto(GStrv) groups = NULL;
	GError *e = NULL;

	c->path = g_strdup(path);
	c->cases = g_ptr_array_new_with_free_func(case_free);
	if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, &e)) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE, "%s: %s", path, e->message);
		g_error_free(e);
		goto fail;
	}
	groups = g_key_file_get_groups(kf, NULL);
	for (int i = 0; groups[i]; i++) {
		struct is_regress_case *k = g_new0(struct is_regress_case, 1);

		g_ptr_array_add(c->cases, k);
		if (!parse_case(kf, path, dir, groups[i], k, error))
			goto fail;
	}
	if (!c->cases->len) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE, "%s: no case", path);
		goto fail;
	}
	return c;
fail:
	is_regress_corpus_free(c);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* One run and its observer. */

struct lock_track {
	int state;
	int64_t start_ns;
	uint64_t n, other, deeper;
};

struct cpu_obs {
	uint64_t sel, records;
	int64_t first_ns, last_ns;
	struct lock_track lk;
};

struct run_obs {
	const struct is_state_table *t;
	int cpus;
	struct cpu_obs *c;
	uint64_t sel, lat_violations;
	int lat_state;
	int lat_cpu;
};

/*
 * A lock-in is a run of one state that lasts: it tolerates 1% of other
 * states (plus two), so that a rare wakeup elsewhere does not hide it.
 */
static void on_decision(void *p, const struct is_decision *d)
{
	struct run_obs *o = p;
	struct cpu_obs *c;
	struct lock_track *lk;
	const int ideal = d->ideal;

	if (d->cpu < 0 || d->cpu >= o->cpus || d->entered < 0)
		return;
	c = &o->c[d->cpu];
	if (!c->sel)
		c->first_ns = d->t_ns;
	c->sel++;
	c->records += !d->continuation;
	c->last_ns = d->t_ns;
	o->sel++;
	if (o->t->s[d->entered].exit_latency_ns > d->latency_req_ns) {
		if (!o->lat_violations) {
			o->lat_state = d->entered;
			o->lat_cpu = d->cpu;
		}
		o->lat_violations++;
	}
	lk = &c->lk;
	if (c->sel > 1 && d->entered == lk->state) {
		lk->n++;
		lk->deeper += ideal > d->entered;
	} else if (c->sel > 1 && (lk->other + 1) * 100 <= lk->n + lk->other + 1 + 200) {
		lk->other++;      /* an exception inside the run */
	} else {
		*lk = (struct lock_track){ .state = d->entered, .start_ns = d->t_ns, .n = 1,
					   .deeper = ideal > d->entered };
	}
}

static void findings(const struct run_obs *o, struct is_sim *sim,
		     const struct is_regress_case *k, struct is_regress_run *r)
{
	for (int cpu = 0; cpu < o->cpus; cpu++) {
		const struct cpu_obs *c = &o->c[cpu];
		const struct is_metrics *m = is_sim_cpu_metrics(sim, cpu);
		const struct lock_track *lk = &c->lk;
		int64_t span = c->last_ns - c->first_ns, lspan = c->last_ns - lk->start_ns;
		struct is_finding *f;

		if (!c->sel)
			continue;
		f = &r->find[IS_FIND_LOCK_IN];
		if (lk->n >= IS_LOCK_MIN_SELECTIONS && span > 0 &&
		    (double)lspan * 100 >= IS_LOCK_MIN_SPAN_PCT * (double)span &&
		    lk->deeper * 100 >= IS_LOCK_DEEPER_PCT * lk->n &&
		    (!f->found || lk->n > f->count)) {
			*f = (struct is_finding){
				.found = true, .cpu = cpu, .state = lk->state, .since_ns = lk->start_ns,
				.count = lk->n, .pct = 100.0 * (double)lk->n / (double)c->sel,
				.ratio = 100.0 * (double)lk->deeper / (double)lk->n,
			};
		}
		f = &r->find[IS_FIND_POLLING];
		if (c->records && m->selections) {
			double spp = (double)c->sel / (double)c->records;
			double lim = 100.0 * (double)m->wakeups[IS_CAUSE_POLL] / (double)m->selections;

			if (spp >= IS_POLL_MIN_SPP && lim >= IS_POLL_MIN_LIMIT_PCT &&
			    (!f->found || spp > f->ratio))
				*f = (struct is_finding){ .found = true, .cpu = cpu, .state = 0,
							  .count = m->selections, .pct = lim,
							  .ratio = spp };
		}
		f = &r->find[IS_FIND_TICK_KEPT];
		if (k->idle && m->selections >= 100) {
			double kept = 100.0 - 100.0 * (double)m->tick_stops / (double)m->selections;
			int most = 0;

			for (int i = 1; i < o->t->count; i++)
				if (m->usage[i] > m->usage[most])
					most = i;
			if (kept >= IS_TICK_KEPT_PCT && (!f->found || kept > f->pct))
				*f = (struct is_finding){ .found = true, .cpu = cpu, .state = most,
							  .count = m->selections, .pct = kept };
		}
	}
	if (o->lat_violations)
		r->find[IS_FIND_LATENCY] = (struct is_finding){
			.found = true, .cpu = o->lat_cpu, .state = o->lat_state,
			.count = o->lat_violations,
			.pct = 100.0 * (double)o->lat_violations / (double)MAX(o->sel, 1),
		};
}

static struct is_run_input *open_input(const struct is_regress_case *k, uint64_t seed,
				       struct is_rtapp **rt, GError **error)
{
	struct is_synth_config cfg = { 0 };

	if (k->trace)
		return is_run_open_trace(k->trace, k->states, error);
	if (g_str_has_prefix(k->workload, "rt-app:")) {
		*rt = is_rtapp_load_strict(k->workload + 7, false, error);
		if (!*rt)
			return NULL;
		cfg.w = is_rtapp_workload();
		cfg.rtapp = *rt;
	} else {
		cfg.w = is_workload_find(k->workload);
	}
	is_params_defaults_of(cfg.w->params, cfg.w->nparams, &cfg.params);
	for (int i = 0; k->wparams && k->wparams[i]; i++)
		if (!is_params_set_of("workload", cfg.w->name, cfg.w->params, cfg.w->nparams,
				      &cfg.params, k->wparams[i], error))
			return NULL;
	cfg.cpus = k->cpus;
	cfg.hz = k->hz;
	cfg.seed = seed;
	/* PM_QOS_CPU_LATENCY_DEFAULT_VALUE, 2000 s, as `--latency-us` unset */
	cfg.latency_req_ns = k->latency_req_ns ? k->latency_req_ns : 2147483647000LL;
	return is_run_open_workload(&cfg, k->periods, k->duration_ns, k->states,
				    k->latency_req_ns > 0, error);
}

static bool run_one(const struct is_regress_case *k, const struct is_regress_spec *spec,
		    uint64_t seed, struct is_regress_run *r, GError **error)
{
	struct is_rtapp *rt = NULL;
	struct is_run_input *in = open_input(k, seed, &rt, error);
	struct is_run_gov g = { .gov = spec->gov, .params = spec->params };
	struct run_obs o = { 0 };
	struct is_latency_summary lat;
	uint64_t above = 0, below = 0;
	int failed;
	bool ok = false;

	if (!in)
		goto out;
	in->exit_free = k->exit_free;
	o.t = in->table;
	o.cpus = in->hdr.cpus;
	o.c = g_new0(struct cpu_obs, o.cpus);
	g.seed = k->trace ? seed : 1;
	g.observer = on_decision;
	g.observer_ctx = &o;
	if (!is_run_build(in, IS_SIM_MODEL, &g, 1, error) ||
	    !is_run_execute(in, &g, 1, &r->records, &failed, error))
		goto out;
	r->m = g.total;
	r->table = *in->table;
	r->energy = g.total.energy;
	is_metrics_latency(&g.total, in->table, &lat);
	r->p99_ns = (double)lat.p99_ns;
	r->sel_per_period = r->records ? (double)g.total.selections / (double)r->records : 0;
	for (int i = 0; i < in->table->count; i++) {
		above += g.total.above[i];
		below += g.total.below[i];
	}
	r->above_pct = g.total.selections ? 100.0 * (double)above / (double)g.total.selections : 0;
	r->below_pct = g.total.selections ? 100.0 * (double)below / (double)g.total.selections : 0;
	findings(&o, g.sim, k, r);
	r->done = true;
	ok = true;
out:
	is_run_gov_clear(&g, 1);
	is_run_input_free(in);
	is_rtapp_free(rt);
	g_free(o.c);
	return ok;
}

/* ------------------------------------------------------------------ */
/* The runs, on a pool of threads. */

struct job {
	const struct is_regress_case *k;
	const struct is_regress_spec *spec;
	uint64_t seed;
	struct is_regress_run *r;
	GError *err;
};

struct pool_ctx {
	struct job *jobs;
	const struct is_regress_options *o;
	GMutex lock;
	int done, total;
};

static void pool_fn(gpointer data, gpointer user)
{
	struct pool_ctx *p = user;
	struct job *j = &p->jobs[GPOINTER_TO_INT(data) - 1];

	if (p->o->cancel && *p->o->cancel) {
		g_set_error(&j->err, IS_ERROR, IS_ERROR_CANCELLED, "interrupted");
		return;
	}
	if (!run_one(j->k, j->spec, j->seed, j->r, &j->err) && j->err)
		g_prefix_error(&j->err, "case %s, seed %" G_GUINT64_FORMAT ", %s: ", j->k->name,
			       j->seed, j->spec->gov->name);
	g_mutex_lock(&p->lock);
	p->done++;
	if (p->o->progress)
		p->o->progress(p->o->progress_ctx, p->done, p->total);
	g_mutex_unlock(&p->lock);
}

/* ------------------------------------------------------------------ */
/* The verdicts. */

static double mean_sd(const struct is_regress_run *r, int n, size_t off, double *sd)
{
	double s = 0, ss = 0, m;

	for (int i = 0; i < n; i++)
		s += *(const double *)((const char *)&r[i] + off);
	m = s / n;
	for (int i = 0; i < n; i++) {
		double d = *(const double *)((const char *)&r[i] + off) - m;

		ss += d * d;
	}
	*sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	return m;
}

/* What one side shows of a pathology, over its seeds: the first seed's detail. */
static void finding_text(GString *s, enum is_finding_kind k, const struct is_regress_run *r,
			 int seeds, const char *const *names)
{
	const struct is_finding *f = NULL;
	int first = -1;
	GString *list = g_string_new(NULL);

	for (int i = 0; i < seeds; i++)
		if (r[i].find[k].found) {
			if (first < 0) {
				first = i;
				f = &r[i].find[k];
			}
			g_string_append_printf(list, "%s%d", list->len ? "," : "", i + 1);
		}
	switch (k) {
	case IS_FIND_LOCK_IN:
		g_string_append_printf(s, "locks in %s from %.1f s on CPU %d (seed %d): %"
				       G_GUINT64_FORMAT " selections, %.1f%% of the CPU's, the ideal "
				       "state deeper in %.0f%% of them",
				       names[f->state], (double)f->since_ns / 1e9, f->cpu, first + 1,
				       f->count, f->pct, f->ratio);
		break;
	case IS_FIND_POLLING:
		g_string_append_printf(s, "polls on CPU %d (seed %d): %.2f selections per idle "
				       "period, %.0f%% of them ended by the poll time limit",
				       f->cpu, first + 1, f->ratio, f->pct);
		break;
	case IS_FIND_TICK_KEPT:
		g_string_append_printf(s, "keeps the tick on idle CPU %d (seed %d) in %.1f%% of "
				       "its selections, mostly %s", f->cpu, first + 1, f->pct,
				       names[f->state]);
		break;
	case IS_FIND_LATENCY:
		g_string_append_printf(s, "enters states slower to leave than the latency limit "
				       "(seed %d): %" G_GUINT64_FORMAT " selections, %.2f%%, e.g. %s "
				       "on CPU %d", first + 1, f->count, f->pct, names[f->state], f->cpu);
		break;
	default:
		break;
	}
	g_string_append_printf(s, " [seeds %s of %d]", list->str, seeds);
	g_string_free(list, TRUE);
}

static bool any_found(const struct is_regress_run *r, int seeds, enum is_finding_kind k)
{
	for (int i = 0; i < seeds; i++)
		if (r[i].find[k].found)
			return true;
	return false;
}

static void judge(struct is_regress_result *res, const char *const *names)
{
	static const size_t offs[IS_RM_COUNT] = {
		offsetof(struct is_regress_run, energy), offsetof(struct is_regress_run, p99_ns),
		offsetof(struct is_regress_run, sel_per_period),
	};
	const int n = res->c->seeds;
	GString *worse = g_string_new(NULL), *better = g_string_new(NULL);

	for (int m = 0; m < IS_RM_COUNT; m++) {
		struct is_regress_metric *x = &res->metric[m];
		double sdo, sdn, diff;

		x->old_mean = mean_sd(res->old, n, offs[m], &sdo);
		x->new_mean = mean_sd(res->new, n, offs[m], &sdn);
		x->noise = MAX(IS_NOISE_SIGMAS * MAX(sdo, sdn),
			       IS_NOISE_REL_PCT / 100.0 * fabs(x->old_mean));
		x->noise = MAX(x->noise, 1e-9);
		diff = x->new_mean - x->old_mean;
		x->v = diff > x->noise ? IS_WORSE : diff < -x->noise ? IS_BETTER : IS_SAME;
		if (x->v != IS_SAME) {
			GString *s = x->v == IS_WORSE ? worse : better;

			g_string_append_printf(s, "%s%s %+.1f%% (%.4g -> %.4g; noise %.2g)",
					       s->len ? "; " : "", rmetric_names[m],
					       x->old_mean ? 100.0 * diff / fabs(x->old_mean) : 0.0,
					       x->old_mean, x->new_mean, x->noise);
		}
	}
	for (int k = 0; k < IS_FIND_COUNT; k++) {
		bool o = any_found(res->old, n, k), w = any_found(res->new, n, k);

		if (o == w)
			continue;
		g_string_append(w ? worse : better, (w ? worse : better)->len ? "; " : "");
		if (w) {
			finding_text(worse, k, res->new, n, names);
		} else {
			g_string_append(better, "no longer ");
			finding_text(better, k, res->old, n, names);
		}
	}
	res->v = worse->len ? IS_WORSE : better->len ? IS_BETTER : IS_SAME;
	res->reason = g_strdup(worse->len ? worse->str : better->str);
	g_string_free(worse, TRUE);
	g_string_free(better, TRUE);
}

static void result_free(gpointer p)
{
	struct is_regress_result *r = p;

	g_free(r->old);
	g_free(r->new);
	g_free(r->reason);
	g_free(r);
}

void is_regress_results_free(GPtrArray *results)
{
	if (results)
		g_ptr_array_unref(results);
}

GPtrArray *is_regress_run(const struct is_regress_corpus *corpus,
			  const struct is_regress_spec *old, const struct is_regress_spec *new,
			  const struct is_regress_options *o, GError **error)
{
	GPtrArray *res = g_ptr_array_new_with_free_func(result_free);
	struct pool_ctx p = { .o = o };
	GThreadPool *pool;
	int nj = 0;

	for (guint i = 0; i < corpus->cases->len; i++) {
		const struct is_regress_case *k = g_ptr_array_index(corpus->cases, i);
		struct is_regress_result *r;

		if (k->full && !o->full)
			continue;
		r = g_new0(struct is_regress_result, 1);
		r->c = k;
		r->old = g_new0(struct is_regress_run, k->seeds);
		r->new = g_new0(struct is_regress_run, k->seeds);
		g_ptr_array_add(res, r);
		nj += 2 * k->seeds;
	}
	p.jobs = g_new0(struct job, nj);
	p.total = nj;
	nj = 0;
	for (guint i = 0; i < res->len; i++) {
		struct is_regress_result *r = g_ptr_array_index(res, i);

		for (int s = 0; s < r->c->seeds; s++) {
			p.jobs[nj++] = (struct job){ r->c, old, (uint64_t)s + 1, &r->old[s], NULL };
			p.jobs[nj++] = (struct job){ r->c, new, (uint64_t)s + 1, &r->new[s], NULL };
		}
	}
	g_mutex_init(&p.lock);
	pool = g_thread_pool_new(pool_fn, &p, MAX(o->jobs, 1), TRUE, NULL);
	for (int j = 0; j < nj; j++)
		g_thread_pool_push(pool, GINT_TO_POINTER(j + 1), NULL);
	g_thread_pool_free(pool, FALSE, TRUE);
	g_mutex_clear(&p.lock);
	for (int j = 0; j < nj; j++)
		if (p.jobs[j].err) {
			/* the first in corpus order, whatever finished first */
			g_propagate_error(error, p.jobs[j].err);
			p.jobs[j].err = NULL;
			for (int k = j + 1; k < nj; k++)
				g_clear_error(&p.jobs[k].err);
			g_free(p.jobs);
			g_ptr_array_unref(res);
			return NULL;
		}
	g_free(p.jobs);
	for (guint i = 0; i < res->len; i++) {
		struct is_regress_result *r = g_ptr_array_index(res, i);
		/* the table the case ran on (every run's is the same) */
		const struct is_state_table t = r->old[0].table;
		const char *names[IS_STATE_MAX];
		double tot[2] = { 0, 0 };

		r->states = t.count;
		for (int s = 0; s < t.count; s++)
			names[s] = t.s[s].name;
		for (int side = 0; side < 2; side++) {
			const struct is_regress_run *runs = side ? r->new : r->old;

			for (int sd = 0; sd < r->c->seeds; sd++) {
				r->above_pct[side] += runs[sd].above_pct / r->c->seeds;
				r->below_pct[side] += runs[sd].below_pct / r->c->seeds;
				for (int s = 0; s < t.count; s++) {
					r->time_pct[side][s] += (double)runs[sd].m.time_ns[s];
					tot[side] += (double)runs[sd].m.time_ns[s];
				}
			}
			for (int s = 0; s < t.count; s++)
				r->time_pct[side][s] = tot[side] > 0 ?
					100.0 * r->time_pct[side][s] / tot[side] : 0;
		}
		judge(r, names);
	}
	return res;
}
