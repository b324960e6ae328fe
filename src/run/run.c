// SPDX-License-Identifier: GPL-2.0-only
/* The run layer: one input through one or more governors (idlesim/run.h). */
#include <string.h>

#include "idlesim/run.h"

bool is_run_mode_parse(const char *s, enum is_sim_mode *mode)
{
	if (strcmp(s, "model") == 0)
		*mode = IS_SIM_MODEL;
	else if (strcmp(s, "exact") == 0)
		*mode = IS_SIM_EXACT;
	else
		return false;
	return true;
}

uint64_t is_run_seed(int64_t seed, const struct is_trace_header *h)
{
	if (seed >= 0)
		return (uint64_t)seed;
	return h->has_seed ? h->seed : 1;
}

struct is_run_input *is_run_open_trace(const char *path, const char *states, GError **error)
{
	struct is_run_input *in = g_new0(struct is_run_input, 1);

	is_trace_header_init(&in->hdr);
	in->path = g_strdup(path);
	in->reader = is_trace_open(path, error);
	if (!in->reader)
		goto fail;
	is_trace_header_copy(&in->hdr, is_trace_reader_header(in->reader));
	in->poll_overrun_ns = in->hdr.poll_overrun_ns;
	in->tick_late_ns = in->hdr.tick_late_ns;
	in->table = is_trace_states_open(path, &in->hdr, states, &in->disabled, error);
	if (!in->table)
		goto fail;
	is_source_from_reader(&in->src, in->reader);
	return in;
fail:
	is_run_input_free(in);
	return NULL;
}

struct is_run_input *is_run_open_workload(const struct is_synth_config *cfg, uint64_t periods,
					  int64_t until_ns, const char *states,
					  bool latency_given, GError **error)
{
	struct is_run_input *in;

	/* an rt-app program may end by itself: then neither bound is needed */
	if (!cfg->w || (periods > 0 && until_ns > 0) ||
	    (!cfg->rtapp && periods == 0 && until_ns <= 0)) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "a synthetic source needs a scenario and one of periods and a duration");
		return NULL;
	}
	in = g_new0(struct is_run_input, 1);
	is_trace_header_init(&in->hdr);
	in->synthetic = true;
	in->syn = *cfg;
	in->periods = periods;
	in->until_ns = until_ns;
	in->table = is_states_open(states ? states : "power9", &in->disabled, error);
	if (!in->table) {
		is_run_input_free(in);
		return NULL;
	}
	is_synth_header(cfg, in->table, latency_given, &in->hdr);
	return in;
}

struct is_run_input *is_run_open_source(const struct is_source *src,
					const struct is_trace_header *h, const char *states,
					GError **error)
{
	struct is_run_input *in = g_new0(struct is_run_input, 1);

	is_trace_header_init(&in->hdr);
	is_trace_header_copy(&in->hdr, h);
	in->poll_overrun_ns = in->hdr.poll_overrun_ns;
	in->tick_late_ns = in->hdr.tick_late_ns;
	in->table = is_trace_states_open(h->source, &in->hdr, states, &in->disabled, error);
	if (!in->table) {
		is_run_input_free(in);
		return NULL;
	}
	in->src = *src;
	return in;
}

void is_run_input_free(struct is_run_input *in)
{
	if (!in)
		return;
	is_trace_close(in->reader);
	is_states_free(in->table);
	is_trace_header_clear(&in->hdr);
	g_free(in->path);
	g_free(in);
}

void is_run_gov_clear(struct is_run_gov *g, int n)
{
	for (int i = 0; g && i < n; i++) {
		is_sim_free(g[i].sim);
		g[i].sim = NULL;
	}
}

bool is_run_build(const struct is_run_input *in, enum is_sim_mode mode, struct is_run_gov *g,
		  int n, GError **error)
{
	for (int i = 0; i < n; i++) {
		struct is_sim_config cfg = {
			.states = in->table,
			.gov = g[i].gov,
			.params = g[i].params,
			.cpus = in->hdr.cpus,
			.hz = in->hdr.hz,
			.mode = mode,
			.seed = g[i].seed,
			.disabled = in->disabled,
			.measure_from_ns = in->measure_from_ns,
			.measure_to_ns = in->measure_to_ns,
			.poll_overrun_ns = in->poll_overrun_ns,
			.tick_late_ns = in->tick_late_ns,
			.exit_free = in->exit_free,
			.start_lres_ns = in->hdr.start_lres_ns,
		};

		g[i].sim = is_sim_new(&cfg, error);
		if (!g[i].sim)
			return false;
		if (g[i].observer)
			is_sim_set_observer(g[i].sim, g[i].observer, g[i].observer_ctx);
	}
	return true;
}

/* A source that counts the records it hands out. */
struct counted {
	const struct is_source *src;
	uint64_t n;
	uint64_t *hist;
};

/*
 * Which inputs of an idle record an importer estimated (is_record.est).
 * This runs for every record of every replay: two tests that are almost
 * never taken (records of other kinds are rare, and only imports estimate),
 * summed by est_finish() with the record count.
 */
static inline void tally(uint64_t *hist, const struct is_record *r)
{
	if (__builtin_expect(r->est != 0 || r->kind != IS_REC_IDLE, 0))
		hist[(r->kind == IS_REC_IDLE) << 3 | (r->est & 7)]++;
}

static void est_finish(struct is_run_input *in, uint64_t records)
{
	struct is_run_estimates *e = &in->est;
	uint64_t other = 0;

	memset(e, 0, sizeof(*e));
	for (unsigned k = 0; k < 8; k++)
		other += in->est_hist[k];
	e->idle = records - other;
	for (unsigned k = 1; k < 8; k++) {
		uint64_t n = in->est_hist[8 | k];

		e->any += n;
		e->sleep += k & IS_EST_SLEEP ? n : 0;
		e->ts += k & IS_EST_TS ? n : 0;
		e->idle_ns += k & IS_EST_IDLE ? n : 0;
	}
}

static int counted_next(void *ctx, struct is_record *rec, GError **error)
{
	struct counted *c = ctx;
	int r = c->src->next(c->src->ctx, rec, error);

	if (r > 0) {
		c->n++;
		if (c->hist)
			tally(c->hist, rec);
	}
	return r;
}

static int counted_next_batch(void *ctx, struct is_record *recs, int max, GError **error)
{
	struct counted *c = ctx;
	int r = c->src->next_batch(c->src->ctx, recs, max, error);

	for (int i = 0; c->hist && i < r; i++)
		tally(c->hist, &recs[i]);
	c->n += r > 0 ? (uint64_t)r : 0;
	return r;
}

/* A scenario's records @off later, its feedback @off earlier (a warm start). */
struct shifted {
	const struct is_source *src;
	int64_t off;
};

static int shifted_next(void *ctx, struct is_record *rec, GError **error)
{
	struct shifted *sh = ctx;
	int r = sh->src->next(sh->src->ctx, rec, error);

	if (r > 0)
		rec->t_ns += sh->off;
	return r;
}

static void shifted_feedback(void *ctx, int cpu, int64_t resume_ns)
{
	struct shifted *sh = ctx;

	sh->src->feedback(sh->src->ctx, cpu, resume_ns - sh->off);
}

/* @t_ns moved @off_ns >= 0 later, INT64_MAX where that is past it. */
static int64_t later(int64_t t_ns, int64_t off_ns)
{
	int64_t r;

	return __builtin_add_overflow(t_ns, off_ns, &r) ? INT64_MAX : r;
}

/* The warm trace's records, noting where the last one ends. */
struct warm {
	struct is_trace_reader *r;
	int64_t end_ns;
};

static int warm_next(void *ctx, struct is_record *rec, GError **error)
{
	struct warm *w = ctx;
	int r = is_trace_next(w->r, rec, error);
	int64_t end;

	if (r <= 0)
		return r;
	/* a wakeup past INT64_MAX is refused by warm_up() like any too late an end */
	end = rec->kind == IS_REC_IDLE && rec->idle_ns > 0 ? later(rec->t_ns, rec->idle_ns) :
							      rec->t_ns;
	if (end > w->end_ns)
		w->end_ns = end;
	return r;
}

/*
 * is_run_input's warm start for @sim: the trace, nothing measured, then the
 * window (shifted) for the scenario; *off: where the scenario starts.
 */
static bool warm_up(const struct is_run_input *in, struct is_sim *sim, int64_t *off,
		    GError **error)
{
	const struct is_trace_header *h;
	struct warm w = { .end_ns = 0 };
	struct is_source src = { .ctx = &w, .next = warm_next };
	const int64_t tick = is_tick_nsec(in->hdr.hz);
	bool ok = false;

	w.r = is_trace_open(in->warm_path, error);
	if (!w.r)
		return false;
	h = is_trace_reader_header(w.r);
	if (h->cpus > in->hdr.cpus || h->hz != in->hdr.hz || h->state_count != in->table->count) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: warm start: header fields cpus, hz and states: the trace has %d "
			    "CPUs, HZ=%d and %d states, the scenario %d CPUs (at least as many "
			    "needed), HZ=%d and %d states",
			    in->warm_path, h->cpus, h->hz, h->state_count, in->hdr.cpus,
			    in->hdr.hz, in->table->count);
		goto out;
	}
	is_sim_set_window(sim, INT64_MAX, INT64_MAX);
	if (!is_sim_run(sim, &src, error)) {
		g_prefix_error(error, "%s: warm start: ", in->warm_path);
		goto out;
	}
	if (w.end_ns > INT64_MAX / 4) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: warm start: the trace ends at %" G_GINT64_FORMAT " ns, too late "
			    "for a scenario after it", in->warm_path, w.end_ns);
		goto out;
	}
	*off = w.end_ns <= 0 ? 0 : (w.end_ns + tick - 1) / tick * tick;
	if (in->measure_to_ns)
		is_sim_set_window(sim, later(in->measure_from_ns, *off),
				  later(in->measure_to_ns, *off));
	else
		is_sim_set_window(sim, *off, INT64_MAX);
	ok = true;
out:
	is_trace_close(w.r);
	return ok;
}

bool is_run_execute(struct is_run_input *in, struct is_run_gov *g, int n, uint64_t *records,
		    int *failed, GError **error)
{
	struct is_record rec;
	int r;

	*failed = -1;
	*records = 0;
	memset(in->est_hist, 0, sizeof(in->est_hist));
	if (in->synthetic) {
		/* closed loop: each governor drives its own copy of the scenario */
		for (int i = 0; i < n; i++) {
			struct is_synth_bounded lim = { .periods = in->periods,
							.until_ns = in->until_ns };
			struct is_source src, ssrc;
			struct shifted sh = { .src = &src, .off = 0 };
			bool ok;

			if (in->warm_path) {
				if (!warm_up(in, g[i].sim, &sh.off, error)) {
					*failed = i;
					return false;
				}
				in->warm_off_ns = sh.off;
			}
			lim.g = is_synth_new(&in->syn, error);
			if (!lim.g)
				return false;
			is_source_from_synth_bounded(&src, &lim);
			ssrc = (struct is_source){ .ctx = &sh, .next = shifted_next,
						   .feedback = src.feedback ? shifted_feedback : NULL };
			ok = is_sim_run(g[i].sim, in->warm_path ? &ssrc : &src, error);
			*records = lim.n;
			is_synth_free(lim.g);
			if (!ok) {
				*failed = i;
				return false;
			}
		}
	} else if (n == 1) {
		/* one simulation: the source's batches straight into it */
		struct counted c = { &in->src, 0, in->count_estimates ? in->est_hist : NULL };
		struct is_source src = { .ctx = &c, .next = counted_next,
					 .next_batch = in->src.next_batch ? counted_next_batch : NULL };

		if (!is_sim_run(g[0].sim, &src, error)) {
			/* every record handed out was fed, unless the simulation refused one */
			*failed = is_sim_records(g[0].sim) < c.n ? 0 : -1;
			return false;
		}
		*records = c.n;
	} else {
		/* One pass over the input feeds every governor: memory is O(CPUs). */
		while ((r = in->src.next(in->src.ctx, &rec, error)) > 0) {
			(*records)++;
			if (in->count_estimates)
				tally(in->est_hist, &rec);
			for (int i = 0; i < n; i++)
				if (!is_sim_feed(g[i].sim, &rec, error)) {
					*failed = i;
					return false;
				}
		}
		if (r < 0)
			return false;
	}
	for (int i = 0; i < n; i++)
		is_sim_total(g[i].sim, &g[i].total);
	if (in->count_estimates && !in->synthetic)
		est_finish(in, *records);
	return true;
}

/*
 * select() then reflect() for every record, with the record's sleep
 * length, next tick, tick state and latency limit; the state chosen is
 * the one entered and the record's idle time its residency.
 */
bool is_run_governor_only(const struct is_governor *g, const struct is_record *recs, size_t n,
			  const struct is_trace_header *h, const struct is_state_table *table,
			  uint32_t disabled, uint64_t *decisions, GError **err)
{
	struct is_params params;
	struct is_gov_env *env;
	void **st;
	void *inst = NULL;
	uint64_t rng = 1;
	int64_t bad = -1;

	*decisions = 0;
	is_params_defaults(g, &params);
	if (g->instance_new && !(inst = g->instance_new(g, &params, h->cpus, err)))
		return false;
	env = g_new0(struct is_gov_env, h->cpus);
	st = g_new0(void *, h->cpus);
	for (int c = 0; c < h->cpus; c++) {
		env[c] = (struct is_gov_env){ .drv = table, .params = &params,
					      .disabled = disabled,
					      .tick_nsec = is_tick_nsec(h->hz), .cpu = c,
					      .inst = inst };
		st[c] = g_malloc0(g->state_size ? g->state_size : 1);
		if (g->init && g->init(st[c], &env[c]) < 0 && bad == -1)
			bad = -2 - c;
	}
	for (size_t i = 0; i < n && bad == -1; i++) {
		const struct is_record *r = &recs[i];
		struct is_gov_call call = {
			.now_ns = r->t_ns, .latency_req_ns = r->lat_ns,
			.tick_stopped = r->flags & IS_F_TS, .sleep_length_ns_ = r->sleep_ns,
			.delta_next_ns_ = r->tick_ns, .rng_ = &rng,
			.oracle_idle_ns = r->idle_ns, .recorded_state = -1, .recorded_stop = -1,
		};
		struct is_gov_env *e = &env[r->cpu];
		bool stop = true;
		int idx;

		if (r->kind != IS_REC_IDLE)
			continue;
		idx = g->select(st[r->cpu], e, &call, &stop);
		if (idx < 0 || idx >= table->count) {
			bad = (int64_t)i;
			break;
		}
		++*decisions;
		e->last_residency_ns = r->idle_ns;
		if (g->reflect)
			g->reflect(st[r->cpu], e, &(struct is_gov_wake){
				.entered = idx, .now_ns = r->t_ns + r->idle_ns,
				.last_residency_ns = r->idle_ns });
	}
	for (int c = 0; c < h->cpus; c++)
		g_free(st[c]);
	g_free(st);
	g_free(env);
	if (inst)
		g->instance_free(inst);
	if (bad < -1) {
		g_set_error(err, IS_ERROR, IS_ERROR_INVALID, "governor %s failed to initialise CPU %d",
			    g->name, (int)(-2 - bad));
		return false;
	}
	if (bad >= 0) {
		g_set_error(err, IS_ERROR, IS_ERROR_INVALID,
			    "record %" G_GINT64_FORMAT ": governor %s returned no state", bad + 1,
			    g->name);
		return false;
	}
	return true;
}
