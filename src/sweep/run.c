// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running a sweep: traces loaded once and shared read-only, one simulation
 * per job, a pool of threads taking jobs in dispatch order.
 *
 * Results do not depend on the thread count or on scheduling: a job's
 * metrics are a function of (point, trace, seed) only, because every
 * simulation owns its state (one governor blob per simulated CPU) and its
 * random streams are seeded from the job's seed, never from a shared
 * generator.  Ordering the output is the caller's business (done() sees
 * completion order).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "idlesim/run.h"
#include "idlesim/rtapp.h"
#include "idlesim/sweep.h"

/*
 * The file's SHA-256, read, not mapped: a mapped file cut short while
 * being read (a trace rewritten under a running sweep) raises SIGBUS.
 */
static char *file_sha256(const char *path, GError **error)
{
	g_autoptr(GChecksum) ck = g_checksum_new(G_CHECKSUM_SHA256);
	g_autofree guchar *buf = g_malloc(1u << 18);
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", path, g_strerror(errno));
		return NULL;
	}
	errno = 0;
	while ((n = fread(buf, 1, 1u << 18, f)) > 0)
		g_checksum_update(ck, buf, (gssize)n);
	if (ferror(f)) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: read error: %s", path,
			    g_strerror(errno ? errno : EIO));
		fclose(f);
		return NULL;
	}
	fclose(f);
	return g_strdup(g_checksum_get_string(ck));
}

struct is_sweep_trace *is_sweep_trace_load(const char *path, const char *states,
					   GError **error)
{
	g_autofree char *sum = NULL;
	struct is_sweep_trace *t;
	struct is_run_input *in;
	GArray *recs;
	struct is_record rec;
	int n;

	sum = file_sha256(path, error);
	if (!sum)
		return NULL;
	in = is_run_open_trace(path, states, error);
	if (!in)
		return NULL;
	t = g_new0(struct is_sweep_trace, 1);
	t->path = g_strdup(path);
	g_strlcpy(t->sha256, sum, sizeof(t->sha256));
	is_trace_header_init(&t->hdr);
	is_trace_header_copy(&t->hdr, &in->hdr);
	t->table = g_steal_pointer(&in->table);
	t->disabled = in->disabled;
	/* held in memory: every job of the sweep runs over the same records */
	recs = g_array_new(FALSE, FALSE, sizeof(struct is_record));
	while ((n = is_trace_next(in->reader, &rec, error)) > 0) {
		t->state_recs |= rec.kind == IS_REC_STATE;
		g_array_append_val(recs, rec);
	}
	t->n = recs->len;
	t->recs = (struct is_record *)(void *)g_array_free(recs, n < 0);
	is_run_input_free(in);
	if (n < 0) {
		is_sweep_trace_free(t);
		return NULL;
	}
	return t;
}

struct is_sweep_trace *is_sweep_workload_new(const struct is_synth_config *cfg,
					     uint64_t periods, int64_t until_ns,
					     const char *states, GError **error)
{
	g_autoptr(GString) id = g_string_new(NULL);
	g_autofree char *sum = NULL;
	struct is_run_input *in = is_run_open_workload(cfg, periods, until_ns, states, false,
							 error);
	struct is_sweep_trace *t;

	if (!in)
		return NULL;
	t = g_new0(struct is_sweep_trace, 1);
	t->synthetic = true;
	t->syn = *cfg;
	t->periods = periods;
	t->until_ns = until_ns;
	t->table = g_steal_pointer(&in->table);
	t->disabled = in->disabled;
	is_trace_header_init(&t->hdr);
	is_trace_header_copy(&t->hdr, &in->hdr);
	is_run_input_free(in);
	/* an rt-app file by its name, and in the identity by its bytes' digest */
	if (cfg->rtapp)
		t->path = g_strdup_printf("workload:rt-app:%s seed=%" G_GUINT64_FORMAT,
					  is_rtapp_file(cfg->rtapp), cfg->seed);
	else
		t->path = g_strdup_printf("workload:%s seed=%" G_GUINT64_FORMAT, cfg->w->name,
					  cfg->seed);
	g_string_append_printf(id, "workload %s cpus %d hz %d seed %" G_GUINT64_FORMAT
			       " latency %" G_GINT64_FORMAT " periods %" G_GUINT64_FORMAT
			       " until %" G_GINT64_FORMAT " params", cfg->w->name, cfg->cpus, cfg->hz,
			       cfg->seed, cfg->latency_req_ns, periods, until_ns);
	for (int i = 0; i < cfg->w->nparams; i++)
		g_string_append_printf(id, " %" G_GINT64_FORMAT, cfg->params.v[i]);
	if (cfg->rtapp)
		g_string_append_printf(id, " rt-app %s", is_rtapp_digest(cfg->rtapp));
	sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, id->str, (gssize)id->len);
	g_strlcpy(t->sha256, sum, sizeof(t->sha256));
	return t;
}

void is_sweep_trace_free(struct is_sweep_trace *t)
{
	if (!t)
		return;
	g_free(t->path);
	is_trace_header_clear(&t->hdr);
	is_states_free(t->table);
	g_free(t->recs);
	g_free(t);
}

uint64_t is_sweep_job_seed(int64_t seed, const struct is_sweep_trace *t)
{
	return is_run_seed(seed, &t->hdr);
}

/*
 * Simulations of several jobs over the same in-memory trace, in one pass:
 * each block of records is fed to every simulation in turn while it is in
 * the cache, so a trace larger than the cache is read from memory once per
 * group instead of once per job.  Where the governor has lanes for these
 * params (and @lanes), the group's points run IS_LANES at a time in
 * lockstep (is_sim_lanes_new()), else one simulation each.  Either way
 * each job's metrics are exactly those of is_sweep_run_one().
 */
#define GROUP_MAX 16
#define BLOCK 64

struct group_sims {
	struct is_sim *s[GROUP_MAX];
	struct is_sim_lanes *l[GROUP_MAX];
	int ns, nl;
};

static bool group_feed(struct group_sims *gs, const struct is_record *recs, size_t n,
		       GError **error)
{
	for (int k = 0; k < gs->ns; k++)
		for (size_t i = 0; i < n; i++)
			if (!is_sim_feed(gs->s[k], &recs[i], error))
				return false;
	for (int k = 0; k < gs->nl; k++)
		for (size_t i = 0; i < n; i++)
			if (!is_sim_lanes_feed(gs->l[k], &recs[i], error))
				return false;
	return true;
}

static bool run_group(const struct is_sweep_trace *t, const struct is_governor *g,
		      const struct is_params *p, enum is_sim_mode mode, const uint64_t *seed,
		      int n, bool lanes, struct is_metrics *out, GError **error)
{
	struct group_sims gs = { 0 };
	struct is_sim_config cfg = {
		.states = t->table,
		.gov = g,
		.cpus = t->hdr.cpus,
		.hz = t->hdr.hz,
		.mode = mode,
		.disabled = t->disabled,
		.poll_overrun_ns = t->hdr.poll_overrun_ns,
		.tick_late_ns = t->hdr.tick_late_ns,
		.start_lres_ns = t->hdr.start_lres_ns,
	};
	bool ok = true;

	lanes = lanes && !t->state_recs;
	for (int k = 0; k < n && ok; k += lanes ? IS_LANES : 1) {
		int m = n - k < IS_LANES ? n - k : IS_LANES;

		if (lanes && is_sim_lanes_supported(&cfg, &p[k], m)) {
			gs.l[gs.nl] = is_sim_lanes_new(&cfg, &p[k], &seed[k], m, error);
			ok = gs.l[gs.nl++] != NULL;
			continue;
		}
		lanes = false;
		for (int j = k; j < n && ok; j++) {
			cfg.params = p[j];
			cfg.seed = seed[j];
			gs.s[gs.ns] = is_sim_new(&cfg, error);
			ok = gs.s[gs.ns++] != NULL;
		}
		break;
	}
	for (size_t i0 = 0; i0 < t->n && ok; i0 += BLOCK) {
		size_t i1 = t->n - i0 < BLOCK ? t->n : i0 + BLOCK;

		ok = group_feed(&gs, &t->recs[i0], i1 - i0, error);
		if (!ok)
			g_prefix_error(error, "%s: %s: ", t->path, g->name);
	}
	/* the jobs in order: the lanes' first (they ran the first points), then the rest */
	for (int k = 0, j = 0; k < gs.nl && ok; k++)
		for (int l = 0; l < IS_LANES && j < n; l++, j++)
			is_sim_lanes_total(gs.l[k], l, &out[j]);
	for (int k = 0; k < gs.ns; k++)
		if (ok)
			is_sim_total(gs.s[k], &out[n - gs.ns + k]);
	for (int k = 0; k < gs.nl; k++)
		is_sim_lanes_free(gs.l[k]);
	for (int k = 0; k < gs.ns; k++)
		is_sim_free(gs.s[k]);
	return ok;
}

bool is_sweep_run_one(const struct is_sweep_trace *t, const struct is_governor *g,
		      const struct is_params *p, enum is_sim_mode mode, uint64_t seed,
		      struct is_metrics *out, GError **error)
{
	if (t->synthetic) {
		struct is_sim_config cfg = {
			.states = t->table,
			.gov = g,
			.params = *p,
			.cpus = t->hdr.cpus,
			.hz = t->hdr.hz,
			.mode = mode,
			.seed = seed,
			.disabled = t->disabled,
			.poll_overrun_ns = t->hdr.poll_overrun_ns,
			.tick_late_ns = t->hdr.tick_late_ns,
		};
		struct is_sim *s = is_sim_new(&cfg, error);
		/* Closed loop: the job's own copy of the scenario, from its seed. */
		struct is_synth_bounded b = { .periods = t->periods, .until_ns = t->until_ns };
		struct is_source src;
		bool ok;

		if (!s)
			return false;
		is_source_from_synth_bounded(&src, &b);
		b.g = is_synth_new(&t->syn, error);
		ok = b.g && is_sim_run(s, &src, error);
		is_synth_free(b.g);
		if (ok)
			is_sim_total(s, out);
		is_sim_free(s);
		return ok;
	}
	return run_group(t, g, p, mode, &seed, 1, false, out, error);
}

/*
 * Points alike (is_sweep_space_reps()): of the jobs to run, only the first
 * of each class on its trace is simulated, and its metrics are given to
 * the others, with their own params, right after its own.  A job whose
 * class's first is not among the jobs to run (another shard's, or one
 * finished before a resume) is simulated itself.
 */
#define SHARE_END UINT64_MAX

struct share {
	uint64_t *uniq;       /* positions in x->jobs of the jobs simulated; NULL: all */
	uint64_t n;
	uint64_t *head;       /* per position, its copies: a list through next[] */
	uint64_t *next;
};

/* The position of @job in the ascending @jobs[0..n), or SHARE_END. */
static uint64_t find_job(const uint64_t *jobs, uint64_t n, uint64_t job)
{
	uint64_t lo = 0, hi = n;

	while (lo < hi) {
		const uint64_t mid = lo + (hi - lo) / 2;

		if (jobs[mid] < job)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && jobs[lo] == job ? lo : SHARE_END;
}

static void share_build(const struct is_sweep_exec *x, struct share *sh)
{
	const uint64_t nt = (uint64_t)x->ntraces;
	int **reps;
	bool any = false;

	memset(sh, 0, sizeof(*sh));
	sh->n = x->njobs;
	if (x->every_point)
		return;
	for (uint64_t k = 1; k < x->njobs; k++)
		if (x->jobs[k] <= x->jobs[k - 1])
			return;
	reps = g_new0(int *, nt);
	for (uint64_t k = 0; k < nt; k++) {
		reps[k] = is_sweep_space_reps(x->space, x->traces[k]->table);
		any |= reps[k] != NULL;
	}
	if (any) {
		sh->uniq = g_new(uint64_t, x->njobs);
		sh->head = g_new(uint64_t, x->njobs);
		sh->next = g_new(uint64_t, x->njobs);
		sh->n = 0;
		for (uint64_t pos = 0; pos < x->njobs; pos++) {
			const uint64_t j = x->jobs[pos], tr = j % nt;
			uint64_t rpos = SHARE_END;

			sh->head[pos] = sh->next[pos] = SHARE_END;
			if (reps[tr]) {
				const uint64_t rj = is_sweep_space_rep(x->space, reps[tr], j / nt) * nt + tr;

				if (rj != j)
					rpos = find_job(x->jobs, pos, rj);
			}
			if (rpos == SHARE_END) {
				sh->uniq[sh->n++] = pos;
				continue;
			}
			sh->next[pos] = sh->head[rpos];
			sh->head[rpos] = pos;
		}
	}
	for (uint64_t k = 0; k < nt; k++)
		g_free(reps[k]);
	g_free(reps);
}

static void share_clear(struct share *sh)
{
	g_free(sh->uniq);
	g_free(sh->head);
	g_free(sh->next);
}

struct pool {
	const struct is_sweep_exec *x;
	struct share sh;
	atomic_uint_fast64_t next;
	atomic_int stop;
	uint64_t group;       /* jobs taken at a time */
	GMutex lock;
	GError *error;        /* the first one, under lock */
};

static gpointer worker(gpointer data)
{
	struct pool *pl = data;
	const struct is_sweep_exec *x = pl->x;
	uint64_t group = pl->group;

	for (;;) {
		uint64_t k0, pos[GROUP_MAX], job[GROUP_MAX], seed[GROUP_MAX];
		const struct is_sweep_trace *t[GROUP_MAX];
		struct is_params p[GROUP_MAX];
		struct is_metrics m[GROUP_MAX];
		GError *err = NULL;
		int n, done = 0;
		bool ok = true;

		if (atomic_load(&pl->stop) || (x->cancel && *x->cancel))
			break;
		k0 = atomic_fetch_add(&pl->next, group);
		if (k0 >= pl->sh.n)
			break;
		n = (int)(pl->sh.n - k0 < group ? pl->sh.n - k0 : group);
		for (int i = 0; i < n; i++) {
			pos[i] = pl->sh.uniq ? pl->sh.uniq[k0 + (uint64_t)i] : k0 + (uint64_t)i;
			job[i] = x->jobs[pos[i]];
			t[i] = x->traces[job[i] % (uint64_t)x->ntraces];
			is_sweep_space_point(x->space, job[i] / (uint64_t)x->ntraces, &p[i]);
			seed[i] = is_sweep_job_seed(x->seed, t[i]);
		}
		/* Runs of jobs on the same trace share a pass over it. */
		while (done < n && ok) {
			int run = 1;

			while (done + run < n && t[done + run] == t[done] && !t[done]->synthetic)
				run++;
			if (t[done]->synthetic)
				ok = is_sweep_run_one(t[done], x->space->gov, &p[done], x->mode,
						      seed[done], &m[done], &err);
			else
				ok = run_group(t[done], x->space->gov, &p[done], x->mode, &seed[done],
					       run, !x->scalar, &m[done], &err);
			g_mutex_lock(&pl->lock);
			for (int i = done; i < done + run && ok; i++) {
				if (atomic_load(&pl->stop))
					continue;
				ok = x->done(x->ctx, job[i], &p[i], t[i], seed[i], &m[i], &err);
				for (uint64_t c = pl->sh.uniq ? pl->sh.head[pos[i]] : SHARE_END;
				     c != SHARE_END && ok; c = pl->sh.next[c]) {
					struct is_params pc;

					is_sweep_space_point(x->space, x->jobs[c] / (uint64_t)x->ntraces,
							     &pc);
					ok = x->done(x->ctx, x->jobs[c], &pc, t[i], seed[i], &m[i],
						     &err);
				}
			}
			if (!ok) {
				atomic_store(&pl->stop, 1);
				if (!pl->error)
					pl->error = g_steal_pointer(&err);
				g_clear_error(&err);
			}
			g_mutex_unlock(&pl->lock);
			done += run;
		}
		if (!ok)
			break;
	}
	return NULL;
}

bool is_sweep_execute(const struct is_sweep_exec *x, GError **error)
{
	int n = x->threads > 0 ? x->threads : 1;
	GThread **th;
	struct pool pl;

	pl.x = x;
	share_build(x, &pl.sh);
	if ((uint64_t)n > pl.sh.n)
		n = pl.sh.n ? (int)pl.sh.n : 1;
	/* Groups of up to GROUP_MAX jobs, but enough groups to keep every thread busy. */
	pl.group = pl.sh.n / ((uint64_t)n * 4);
	pl.group = pl.group < 1 ? 1 : pl.group > GROUP_MAX ? GROUP_MAX : pl.group;
	atomic_init(&pl.next, 0);
	atomic_init(&pl.stop, 0);
	g_mutex_init(&pl.lock);
	pl.error = NULL;
	th = g_new(GThread *, n);
	/* The calling thread is worker 0. */
	for (int i = 1; i < n; i++)
		th[i] = g_thread_new("sweep", worker, &pl);
	worker(&pl);
	for (int i = 1; i < n; i++)
		g_thread_join(th[i]);
	g_free(th);
	g_mutex_clear(&pl.lock);
	share_clear(&pl.sh);
	if (pl.error) {
		g_propagate_error(error, pl.error);
		return false;
	}
	return true;
}
