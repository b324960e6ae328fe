// SPDX-License-Identifier: GPL-2.0-only
/* Sweep library: axes, point numbering, random samples, shards, pool. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "idlesim/idlesim.h"

static const struct is_governor *wteo(void)
{
	const struct is_governor *g = is_governor_find("wteo");

	assert_non_null(g);
	return g;
}

static int pidx(const char *name)
{
	int i = is_params_index(wteo(), name);

	assert_true(i >= 0);
	return i;
}

static void test_axis_forms(void **state)
{
	static const struct {
		const char *spec;
		int n;
		int64_t v[6];
	} cases[] = {
		{ "learning_rate=1:10:4", 3, { 1, 5, 9 } },
		{ "learning_rate=5:5:1", 1, { 5 } },
		{ "learning_rate=10:20:5", 3, { 10, 15, 20 } },
		{ "learning_rate=7", 1, { 7 } },
		{ "learning_rate=30,10,20", 3, { 30, 10, 20 } },
		{ "pick=argmax,random", 2, { 1, 0 } },
	};
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct is_sweep_space s;
		GError *err = NULL;

		is_sweep_space_init(&s, wteo());
		assert_true(is_sweep_space_add_axis(&s, cases[c].spec, &err));
		assert_int_equal(s.naxes, 1);
		assert_int_equal(s.axes[0].n, cases[c].n);
		for (int k = 0; k < cases[c].n; k++)
			assert_int_equal(s.axes[0].values[k], cases[c].v[k]);
		is_sweep_space_clear(&s);
	}
}

static void test_axis_errors(void **state)
{
	static const struct {
		const char *spec, *msg;
	} cases[] = {
		{ "nosuch=1:2:1", "no param 'nosuch'" },
		{ "learning_rate=10:1:1", "inverted range" },
		{ "learning_rate=1:10:0", "step must be > 0" },
		{ "learning_rate=1:10:-2", "step must be > 0" },
		{ "learning_rate=", "no values" },
		{ "learning_rate", "no values" },
		{ "learning_rate=1,,3", "empty value" },
		{ "learning_rate=1,2,1", "listed twice" },
		{ "learning_rate=1:x:1", "must be integers" },
		{ "learning_rate=1:2", "FIRST:LAST:STEP" },
		{ "learning_rate=-1:10:1", "out of range" },
		{ "learning_rate=99999", "out of range" },
		{ "pick=0:1:1", "takes names" },
		{ "pick=random,best", "not one of" },
	};
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct is_sweep_space s;
		GError *err = NULL;

		is_sweep_space_init(&s, wteo());
		assert_false(is_sweep_space_add_axis(&s, cases[c].spec, &err));
		assert_non_null(err);
		if (!strstr(err->message, cases[c].msg))
			fail_msg("%s: '%s' lacks '%s'", cases[c].spec, err->message, cases[c].msg);
		assert_int_equal(s.naxes, 0);
		g_error_free(err);
		is_sweep_space_clear(&s);
	}
}

static void test_axis_twice(void **state)
{
	struct is_sweep_space s;
	GError *err = NULL;

	(void)state;
	is_sweep_space_init(&s, wteo());
	assert_true(is_sweep_space_add_axis(&s, "learning_rate=1,2", &err));
	assert_false(is_sweep_space_add_axis(&s, "learning_rate=3", &err));
	assert_non_null(strstr(err->message, "has an axis already"));
	g_error_free(err);
	is_sweep_space_clear(&s);
}

/* Grid points: mixed radix, the last axis fastest, other params = base. */
static void test_grid_order(void **state)
{
	struct is_sweep_space s;
	struct is_params p;
	GError *err = NULL;
	uint64_t n;
	int lr = pidx("learning_rate"), sw = pidx("init_self_weight");
	static const int64_t want[6][2] = {
		{ 10, 500 }, { 10, 600 }, { 20, 500 }, { 20, 600 }, { 30, 500 }, { 30, 600 },
	};

	(void)state;
	is_sweep_space_init(&s, wteo());
	assert_true(is_params_set(wteo(), &s.base, "pulse=512", &err));
	assert_true(is_sweep_space_add_axis(&s, "learning_rate=10:30:10", &err));
	assert_true(is_sweep_space_add_axis(&s, "init_self_weight=500,600", &err));
	assert_true(is_sweep_space_size(&s, &n, &err));
	assert_int_equal(n, 6);
	for (uint64_t i = 0; i < n; i++) {
		is_sweep_space_point(&s, i, &p);
		assert_int_equal(p.v[lr], want[i][0]);
		assert_int_equal(p.v[sw], want[i][1]);
		assert_int_equal(p.v[pidx("pulse")], 512);
		assert_int_equal(p.v[pidx("decay_shift")], wteo()->params[pidx("decay_shift")].def);
	}
	is_sweep_space_clear(&s);

	/* No axis: one point, the base params. */
	is_sweep_space_init(&s, wteo());
	assert_true(is_sweep_space_size(&s, &n, &err));
	assert_int_equal(n, 1);
	is_sweep_space_clear(&s);
}

static void test_grid_overflow(void **state)
{
	struct is_sweep_space s;
	GError *err = NULL;
	uint64_t n = 77;

	(void)state;
	/* Sizes only: three axes of 2^31 - 1 values are 2^93 points. */
	is_sweep_space_init(&s, wteo());
	s.naxes = 2;
	s.axes[0].n = s.axes[1].n = INT32_MAX;
	assert_true(is_sweep_space_size(&s, &n, &err));
	assert_int_equal(n, (uint64_t)INT32_MAX * INT32_MAX);
	s.naxes = 3;
	s.axes[2].n = INT32_MAX;
	n = 77;
	assert_false(is_sweep_space_size(&s, &n, &err));
	assert_int_equal(n, 77);
	assert_non_null(strstr(err->message, "2^64"));
	g_error_free(err);
	s.naxes = 0;
}

/* Random points: reproducible, order-free, on the axes' values. */
static void test_random_points(void **state)
{
	struct is_sweep_space s, s2;
	struct is_params p, q;
	GError *err = NULL;
	int lr = pidx("learning_rate"), sw = pidx("init_self_weight");
	int same = 0, hits[5] = { 0 };

	(void)state;
	is_sweep_space_init(&s, wteo());
	assert_true(is_sweep_space_add_axis(&s, "learning_rate=10:50:10", &err));
	assert_true(is_sweep_space_add_axis(&s, "init_self_weight=400:900:1", &err));
	s.random_n = 1000;
	s.random_seed = 42;
	s2 = s;
	s2.random_seed = 43;
	for (uint64_t i = 0; i < 1000; i++) {
		is_sweep_space_point(&s, i, &p);
		assert_true(p.v[lr] % 10 == 0 && p.v[lr] >= 10 && p.v[lr] <= 50);
		assert_true(p.v[sw] >= 400 && p.v[sw] <= 900);
		hits[p.v[lr] / 10 - 1]++;
		is_sweep_space_point(&s, i, &q);
		assert_memory_equal(&p, &q, sizeof(p));
		is_sweep_space_point(&s2, i, &q);
		same += p.v[lr] == q.v[lr] && p.v[sw] == q.v[sw];
	}
	/* Asking for point 999 first gives the same point. */
	is_sweep_space_point(&s, 999, &q);
	is_sweep_space_point(&s, 0, &p);
	is_sweep_space_point(&s, 999, &p);
	assert_memory_equal(&p, &q, sizeof(p));
	/*
	 * Each of the 5 rates has p = 1/5: expected 200 of 1000, sd = 12.6;
	 * 5.5 sd either side is 130..270.
	 */
	for (int k = 0; k < 5; k++)
		assert_true(hits[k] > 130 && hits[k] < 270);
	/* Another seed is another sample: 1/(5*501) chance per point to agree. */
	assert_true(same < 10);
	is_sweep_space_clear(&s);
}

static void test_shards(void **state)
{
	uint32_t k, n;
	GError *err = NULL;
	const char *bad[] = { "0/3", "4/3", "3", "a/b", "1/0", "1/2/3", "" };

	(void)state;
	for (uint32_t shards = 1; shards <= 7; shards++)
		for (uint64_t job = 0; job < 60; job++) {
			int owners = 0;

			for (uint32_t s = 1; s <= shards; s++)
				owners += is_sweep_in_shard(job, s, shards);
			assert_int_equal(owners, 1);
		}
	assert_true(is_sweep_shard_parse("2/5", &k, &n, &err));
	assert_int_equal(k, 2);
	assert_int_equal(n, 5);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		k = n = 99;
		assert_false(is_sweep_shard_parse(bad[i], &k, &n, &err));
		assert_int_equal(k, 99);
		assert_int_equal(n, 99);
		g_clear_error(&err);
	}
}

/* The pool: the same metrics per job for any thread count. */
struct collect {
	struct is_metrics *m;
	struct is_params *p;  /* optional: each job's params as done() saw them */
	uint64_t calls;
};

static bool collect_done(void *ctx, uint64_t job, const struct is_params *p,
			 const struct is_sweep_trace *t, uint64_t seed,
			 const struct is_metrics *m, GError **error)
{
	struct collect *c = ctx;

	(void)t, (void)seed, (void)error;
	c->m[job] = *m;
	if (c->p)
		c->p[job] = *p;
	c->calls++;
	return true;
}

static void test_pool_determinism(void **state)
{
	g_autofree char *path = g_build_filename(getenv("TRACES"), "basic.trace", NULL);
	struct is_sweep_trace *t;
	struct is_sweep_space s;
	GError *err = NULL;
	struct is_metrics *ref = NULL;
	uint64_t jobs[12], n;

	(void)state;
	t = is_sweep_trace_load(path, NULL, &err);
	if (!t)
		fail_msg("%s", err->message);
	assert_true(t->n > 1000);
	is_sweep_space_init(&s, wteo());
	assert_true(is_sweep_space_add_axis(&s, "learning_rate=20:240:20", &err));
	assert_true(is_sweep_space_size(&s, &n, &err));
	assert_int_equal(n, 12);
	for (uint64_t i = 0; i < n; i++)
		jobs[i] = i;
	for (int threads = 1; threads <= 4; threads++) {
		struct collect c = { .m = g_new0(struct is_metrics, n) };
		struct is_sweep_trace *ts[] = { t };
		struct is_sweep_exec x = {
			.space = &s, .traces = ts, .ntraces = 1, .mode = IS_SIM_MODEL,
			.seed = -1, .jobs = jobs, .njobs = n, .threads = threads,
			.done = collect_done, .ctx = &c,
		};

		assert_true(is_sweep_execute(&x, &err));
		assert_int_equal(c.calls, n);
		if (!ref) {
			ref = c.m;
			continue;
		}
		assert_memory_equal(ref, c.m, n * sizeof(*ref));
		g_free(c.m);
	}
	/* And equal to a job run on its own; different points differ. */
	{
		struct is_params p;
		struct is_metrics m;

		is_sweep_space_point(&s, 5, &p);
		assert_true(is_sweep_run_one(t, s.gov, &p, IS_SIM_MODEL,
					     is_sweep_job_seed(-1, t), &m, &err));
		assert_memory_equal(&m, &ref[5], sizeof(m));
		assert_true(memcmp(&ref[0], &ref[11], sizeof(m)) != 0);
	}
	g_free(ref);
	is_sweep_space_clear(&s);
	is_sweep_trace_free(t);
}

/*
 * Points alike: teo-6.12 reads RESIDENCY_THRESHOLD_NS only against the
 * target residencies of states 1.. (power9: 10, 20, 50, 100 us, 10, 20
 * ms; state 0 leaves before the test), so on basic.trace thresholds 0,
 * 5000, 10000 | 15000 | 25000, 50000 are classes.  Hand-derived classes and stand-ins; then every job's metrics
 * and params as when every point is simulated, at 1 and 2 threads, also
 * for a shard (odd jobs only: a class's first may be another shard's).
 */
static void test_alike_points(void **state)
{
	g_autofree char *path = g_build_filename(getenv("TRACES"), "basic.trace", NULL);
	const struct is_governor *g = is_governor_find("teo-6.12");
	static const struct {
		int64_t v, canon;
	} cases[] = {
		{ 0, 10000 }, { 1, 10000 }, { 10000, 10000 }, { 10001, 20000 }, { 20000, 20000 },
		{ 20001, 50000 }, { 15000000, 20000000 }, { 20000001, INT64_MAX },
		{ 1000000000, INT64_MAX },
	};
	static const int want_reps[] = { 0, 0, 0, 3, 4, 4 };
	struct is_sweep_trace *t;
	struct is_sweep_space s;
	GError *err = NULL;
	int thr, pulse, *reps;
	uint64_t n, jobs[12];

	(void)state;
	assert_non_null(g);
	assert_non_null(g->canon_param);
	thr = is_params_index(g, "residency_threshold_ns");
	pulse = is_params_index(g, "pulse");
	t = is_sweep_trace_load(path, NULL, &err);
	if (!t)
		fail_msg("%s", err->message);
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++)
		assert_int_equal(g->canon_param(t->table, thr, cases[i].v), cases[i].canon);
	assert_int_equal(g->canon_param(t->table, pulse, 5000), 5000);

	/* pulse: each its own class; thresholds 0 5000 10000 | 15000 | 25000 50000 */
	is_sweep_space_init(&s, g);
	assert_true(is_sweep_space_add_axis(&s, "pulse=512,1024", &err));
	assert_true(is_sweep_space_add_axis(&s, "residency_threshold_ns=0,5000,10000,15000,25000,50000",
					    &err));
	assert_true(is_sweep_space_size(&s, &n, &err));
	assert_int_equal(n, 12);
	reps = is_sweep_space_reps(&s, t->table);
	assert_non_null(reps);
	/* pulse's two values, then the thresholds' */
	assert_int_equal(reps[0], 0);
	assert_int_equal(reps[1], 1);
	for (int k = 0; k < 6; k++)
		assert_int_equal(reps[2 + k], want_reps[k]);
	/* point i = (pulse i / 6, threshold i % 6) stands as its class's first */
	for (uint64_t i = 0; i < n; i++)
		assert_int_equal(is_sweep_space_rep(&s, reps, i), i / 6 * 6 + (uint64_t)want_reps[i % 6]);
	g_free(reps);

	for (int shard = 0; shard < 2; shard++) {
		struct is_metrics *ref = NULL;
		uint64_t nj = 0;

		for (uint64_t i = 0; i < n; i++)
			if (!shard || i % 2)
				jobs[nj++] = i;
		for (int run = 0; run < 3; run++) {
			struct collect c = { .m = g_new0(struct is_metrics, n),
					     .p = g_new0(struct is_params, n) };
			struct is_sweep_trace *ts[] = { t };
			struct is_sweep_exec x = {
				.space = &s, .traces = ts, .ntraces = 1, .mode = IS_SIM_MODEL,
				.seed = -1, .jobs = jobs, .njobs = nj, .threads = run ? run : 1,
				.every_point = run == 0, .done = collect_done, .ctx = &c,
			};

			assert_true(is_sweep_execute(&x, &err));
			assert_int_equal(c.calls, nj);
			for (uint64_t k = 0; k < nj; k++) {
				struct is_params p;

				is_sweep_space_point(&s, jobs[k], &p);
				assert_memory_equal(&p, &c.p[jobs[k]], sizeof(p));
			}
			if (!ref) {
				ref = c.m;
				g_free(c.p);
				continue;
			}
			assert_memory_equal(ref, c.m, n * sizeof(*ref));
			g_free(c.m);
			g_free(c.p);
		}
		/* alike points are alike; the classes differ */
		if (!shard) {
			assert_memory_equal(&ref[0], &ref[2], sizeof(*ref));
			assert_memory_equal(&ref[1], &ref[2], sizeof(*ref));
			assert_memory_equal(&ref[10], &ref[11], sizeof(*ref));
			assert_true(memcmp(&ref[1], &ref[3], sizeof(*ref)) != 0);
			assert_true(memcmp(&ref[3], &ref[4], sizeof(*ref)) != 0);
		}
		g_free(ref);
	}
	is_sweep_space_clear(&s);

	/* no class of two: no stand-ins; nor for a governor without canon_param() */
	is_sweep_space_init(&s, g);
	assert_true(is_sweep_space_add_axis(&s, "residency_threshold_ns=0,15000,25000", &err));
	assert_null(is_sweep_space_reps(&s, t->table));
	is_sweep_space_clear(&s);
	is_sweep_space_init(&s, is_governor_find("menu-6.12"));
	assert_true(is_sweep_space_add_axis(&s, "residency_threshold_ns=5000,10000", &err));
	assert_null(is_sweep_space_reps(&s, t->table));
	is_sweep_space_clear(&s);
	is_sweep_trace_free(t);
}

static bool fail_at_3(void *ctx, uint64_t job, const struct is_params *p,
		      const struct is_sweep_trace *t, uint64_t seed,
		      const struct is_metrics *m, GError **error)
{
	(void)ctx, (void)p, (void)t, (void)seed, (void)m;
	if (job == 3) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "disk full at job 3");
		return false;
	}
	return true;
}

static void test_pool_error(void **state)
{
	g_autofree char *path = g_build_filename(getenv("TRACES"), "basic.trace", NULL);
	struct is_sweep_trace *t = is_sweep_trace_load(path, NULL, NULL);
	struct is_sweep_trace *ts[] = { t };
	struct is_sweep_space s;
	GError *err = NULL;
	uint64_t jobs[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct is_sweep_exec x = {
		.space = &s, .traces = ts, .ntraces = 1, .seed = 1, .jobs = jobs,
		.njobs = 8, .threads = 2, .done = fail_at_3,
	};

	(void)state;
	assert_non_null(t);
	is_sweep_space_init(&s, wteo());
	assert_true(is_sweep_space_add_axis(&s, "learning_rate=1:8:1", &err));
	assert_false(is_sweep_execute(&x, &err));
	assert_non_null(err);
	assert_string_equal(err->message, "disk full at job 3");
	g_error_free(err);
	is_sweep_space_clear(&s);
	is_sweep_trace_free(t);
}

static void test_trace_load_errors(void **state)
{
	GError *err = NULL;

	(void)state;
	assert_null(is_sweep_trace_load("/nonexistent/x.trace", NULL, &err));
	assert_non_null(strstr(err->message, "/nonexistent/x.trace"));
	g_clear_error(&err);
	is_sweep_trace_free(NULL);
}

/* ---- the output protocol: journal, resume, merge, Pareto ----------------- */

struct proto {
	struct is_sweep_trace *t, *ts[1];
	struct is_sweep_space s;
	struct is_sweep_def d;
	char *dir;
};

static void proto_init(struct proto *p, enum is_sweep_format f, const char *objective)
{
	g_autofree char *path = g_build_filename(getenv("TRACES"), "basic.trace", NULL);
	GError *err = NULL;

	memset(p, 0, sizeof(*p));
	p->t = is_sweep_trace_load(path, NULL, &err);
	assert_non_null(p->t);
	p->ts[0] = p->t;
	is_sweep_space_init(&p->s, wteo());
	assert_true(is_sweep_space_add_axis(&p->s, "learning_rate=10:80:10", &err));
	p->d = (struct is_sweep_def){ .space = &p->s, .traces = p->ts, .ntraces = 1,
				      .format = f, .mode = IS_SIM_MODEL, .seed = -1 };
	assert_true(is_sweep_objective_parse(objective, &p->d.obj, &err));
	assert_true(is_sweep_def_init(&p->d, &err));
	assert_int_equal(p->d.jobs, 8);
	p->dir = g_dir_make_tmp("idlesim-sweep-XXXXXX", &err);
	assert_non_null(p->dir);
}

static void proto_clear(struct proto *p)
{
	g_autoptr(GDir) d = g_dir_open(p->dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *f = g_build_filename(p->dir, name, NULL);

		unlink(f);
	}
	rmdir(p->dir);
	g_free(p->dir);
	is_sweep_space_clear(&p->s);
	is_sweep_trace_free(p->t);
}

struct journal_ctx {
	struct is_sweep_journal *j;
	GString *line;
	uint64_t stop_after, done;     /* fail with "interrupted" after this many */
};

static bool journal_done(void *ctx, uint64_t job, const struct is_params *p,
			 const struct is_sweep_trace *t, uint64_t seed,
			 const struct is_metrics *m, GError **error)
{
	struct journal_ctx *c = ctx;

	if (c->done == c->stop_after) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "interrupted");
		return false;
	}
	is_sweep_row(c->j->def, c->line, job, p, t, seed, m);
	c->done++;
	return is_sweep_journal_append(c->j, job, c->line->str, c->line->len, error);
}

/*
 * Runs shard k/n of the sweep into @out, stopping after @stop_after rows
 * (UINT64_MAX: to the end, then finalize).  Returns the open status.
 */
static enum is_sweep_open proto_run(struct proto *p, const char *out, uint32_t k, uint32_t n,
				    bool resume, uint64_t stop_after, GError **err)
{
	struct is_sweep_journal j;
	enum is_sweep_open st = is_sweep_journal_open(&j, &p->d, k, n, out, resume, err);
	uint64_t todo[8], nt;
	struct journal_ctx c = { .j = &j, .line = g_string_new(NULL), .stop_after = stop_after };

	if (st == IS_SWEEP_OPENED) {
		struct is_sweep_exec x = {
			.space = &p->s, .traces = p->ts, .ntraces = 1, .mode = IS_SIM_MODEL,
			.seed = -1, .jobs = todo, .threads = 1, .done = journal_done, .ctx = &c,
		};
		struct is_sweep_agg agg[8] = { { 0 } };
		bool ok;

		nt = is_sweep_journal_todo(&j, todo);
		x.njobs = nt;
		ok = is_sweep_execute(&x, err);
		assert_true(is_sweep_journal_close(&j, NULL));
		if (ok)
			assert_true(is_sweep_journal_finalize(&j, agg, err));
		else
			g_clear_error(err);
	}
	g_string_free(c.line, TRUE);
	is_sweep_journal_clear(&j);
	return st;
}

static char *slurp(const char *path)
{
	char *s = NULL;

	assert_true(g_file_get_contents(path, &s, NULL, NULL));
	return s;
}

static void test_resume(void **state)
{
	for (int f = IS_SWEEP_CSV; f <= IS_SWEEP_JSONL; f++) {
		struct proto p;
		g_autofree char *ref = NULL, *out = NULL, *part = NULL, *got = NULL;
		g_autofree char *other = NULL;
		GError *err = NULL;
		FILE *fp;

		(void)state;
		proto_init(&p, (enum is_sweep_format)f, "energy");
		ref = g_build_filename(p.dir, "ref", NULL);
		out = g_build_filename(p.dir, "out", NULL);
		part = g_strdup_printf("%s.partial", out);
		assert_int_equal(proto_run(&p, ref, 1, 1, false, UINT64_MAX, &err), IS_SWEEP_OPENED);
		assert_true(g_file_test(ref, G_FILE_TEST_EXISTS));

		/* interrupted after 3 rows, and a torn row at the end */
		assert_int_equal(proto_run(&p, out, 1, 1, false, 3, &err), IS_SWEEP_OPENED);
		assert_false(g_file_test(out, G_FILE_TEST_EXISTS));
		fp = fopen(part, "a");
		fputs(f == IS_SWEEP_CSV ? "0123456789abcdef,3,8,3,12" : "{\"sweep\": \"01", fp);
		fclose(fp);
		/* without --resume: refused, the journal named */
		assert_int_equal(proto_run(&p, out, 1, 1, false, UINT64_MAX, &err), IS_SWEEP_FAILED);
		assert_non_null(strstr(err->message, "pass --resume"));
		assert_non_null(strstr(err->message, part));
		g_clear_error(&err);
		/* resumed: the same bytes as the uninterrupted run */
		assert_int_equal(proto_run(&p, out, 1, 1, true, UINT64_MAX, &err), IS_SWEEP_OPENED);
		got = slurp(out);
		{
			g_autofree char *want = slurp(ref);

			assert_string_equal(got, want);
		}
		assert_false(g_file_test(part, G_FILE_TEST_EXISTS));
		/* once more: complete already */
		assert_int_equal(proto_run(&p, out, 1, 1, true, UINT64_MAX, &err), IS_SWEEP_COMPLETE);
		proto_clear(&p);

		/* another sweep's journal (another objective) is refused, with its line */
		proto_init(&p, (enum is_sweep_format)f, "energy");
		g_free(out);
		g_free(part);
		out = g_build_filename(p.dir, "out", NULL);
		part = g_strdup_printf("%s.partial", out);
		assert_int_equal(proto_run(&p, out, 1, 1, false, 2, &err), IS_SWEEP_OPENED);
		assert_true(is_sweep_objective_parse("p99", &p.d.obj, &err));
		assert_true(is_sweep_def_init(&p.d, &err));
		assert_int_equal(proto_run(&p, out, 1, 1, true, UINT64_MAX, &err), IS_SWEEP_FAILED);
		other = g_strdup_printf(f == IS_SWEEP_CSV ? "%s: line 2: field 'sweep'" :
				       "%s: line 1: field 'sweep'", part);
		assert_non_null(strstr(err->message, other));
		assert_non_null(strstr(err->message, "a resume file from a different sweep"));
		g_clear_error(&err);
		proto_clear(&p);
	}
}

static void test_merge(void **state)
{
	for (int f = IS_SWEEP_CSV; f <= IS_SWEEP_JSONL; f++) {
		struct proto p;
		g_autofree char *ref = NULL, *s1 = NULL, *s2 = NULL, *s3 = NULL, *m = NULL;
		GError *err = NULL;

		(void)state;
		proto_init(&p, (enum is_sweep_format)f, "energy=1,p99=1000");
		ref = g_build_filename(p.dir, "ref", NULL);
		s1 = g_build_filename(p.dir, "s1", NULL);
		s2 = g_build_filename(p.dir, "s2", NULL);
		s3 = g_build_filename(p.dir, "s3", NULL);
		m = g_build_filename(p.dir, "merged", NULL);
		assert_int_equal(proto_run(&p, ref, 1, 1, false, UINT64_MAX, &err), IS_SWEEP_OPENED);
		assert_int_equal(proto_run(&p, s1, 1, 3, false, UINT64_MAX, &err), IS_SWEEP_OPENED);
		assert_int_equal(proto_run(&p, s2, 2, 3, false, UINT64_MAX, &err), IS_SWEEP_OPENED);
		assert_int_equal(proto_run(&p, s3, 3, 3, false, UINT64_MAX, &err), IS_SWEEP_OPENED);
		{
			/* in any order of the arguments: the unsharded bytes */
			const char *const args[] = { s3, s1, s2 };
			g_autofree char *want = slurp(ref), *got = NULL;

			assert_true(is_sweep_merge(args, 3, m, &err));
			got = slurp(m);
			assert_string_equal(got, want);
		}
		{
			const char *const missing[] = { s1, s3 };
			const char *const twice[] = { s1, s2, s3, s1 };

			unlink(m);
			assert_false(is_sweep_merge(missing, 2, m, &err));
			assert_non_null(strstr(err->message, "job 1 of 8 is in no shard"));
			g_clear_error(&err);
			assert_false(g_file_test(m, G_FILE_TEST_EXISTS));
			assert_false(is_sweep_merge(twice, 4, m, &err));
			assert_non_null(strstr(err->message, "given twice"));
			g_clear_error(&err);
			assert_false(g_file_test(m, G_FILE_TEST_EXISTS));
		}
		proto_clear(&p);
	}
}

static void test_row_parse(void **state)
{
	struct proto p;
	struct is_metrics m;
	struct is_params pa;
	struct is_sweep_row_key k;
	g_autoptr(GString) line = g_string_new(NULL);
	GError *err = NULL;

	(void)state;
	for (int f = IS_SWEEP_CSV; f <= IS_SWEEP_JSONL; f++) {
		proto_init(&p, (enum is_sweep_format)f, "energy");
		is_sweep_space_point(&p.s, 5, &pa);
		assert_true(is_sweep_run_one(p.t, p.s.gov, &pa, IS_SIM_MODEL,
					     is_sweep_job_seed(-1, p.t), &m, &err));
		is_sweep_row(&p.d, line, 5, &pa, p.t, 1, &m);
		assert_int_equal(is_sweep_format_of_line(line->str), f);
		assert_true(is_sweep_row_parse(line->str, (enum is_sweep_format)f, &k));
		assert_string_equal(k.sweep, p.d.id);
		assert_int_equal(k.job, 5);
		assert_int_equal(k.jobs, 8);
		assert_int_equal(k.point, 5);
		/* the objective is the energy, printed to 4 and 1 decimals */
		assert_true(k.objective == k.energy || fabs(k.objective - k.energy) < 0.06);
		assert_true(fabs(k.energy - m.energy) < 0.06);
		/* a row of the other format does not parse */
		assert_false(is_sweep_row_parse(line->str, (enum is_sweep_format)!f, &k));
		proto_clear(&p);
	}
}

static void test_pareto(void **state)
{
	/* energy, p99 per point (n = 2: sums of two rows) */
	static const double e[] = { 10, 8, 8, 12, 6, 9 }, l[] = { 5, 7, 6, 1, 9, 6 };
	/* point 6 has no rows: in neither list */
	static const uint64_t front[] = { 4, 2, 0, 3 }, best[] = { 3, 2, 0, 1, 4, 5 };
	struct is_sweep_agg g[7] = { { 0 } };
	uint64_t idx[7], n;

	(void)state;
	for (int i = 0; i < 6; i++)
		g[i] = (struct is_sweep_agg){ .objective = 2 * (e[i] + l[i]), .energy = 2 * e[i],
					      .p99 = 2 * l[i], .n = 2 };
	/* by energy: 4 (6,9), 2 (8,6), 1 (8,7), 5 (9,6), 0 (10,5), 3 (12,1) */
	n = is_sweep_pareto(g, 7, idx);
	assert_int_equal(n, 4);
	assert_memory_equal(idx, front, sizeof(front));
	/* objectives 30, 30, 28, 26, 30, 30: ties by point */
	n = is_sweep_best(g, 7, idx);
	assert_int_equal(n, 6);
	assert_memory_equal(idx, best, sizeof(best));
}

/* ---- the rfc experiments' runner and statistics ------------------------- */

static void test_rfc_stats(void **state)
{
	static const double a[] = { 110, 90, 100, 120 }, b[] = { 100, 100, 100, 100 };
	static const double z[] = { 0, 5 }, zb[] = { 0, 0 };
	double m, sd;

	(void)state;
	is_rfc_mean_sd(a, 4, &m, &sd);
	assert_true(fabs(m - 105) < 1e-12);
	/* deviations 5 -15 -5 15: 500 / 3 */
	assert_true(fabs(sd - sqrt(500.0 / 3)) < 1e-12);
	is_rfc_ratio(a, b, 4, &m, &sd);
	assert_true(fabs(m - 105) < 1e-12);
	/* a zero baseline: 100 when the run is zero too, else 0 */
	is_rfc_ratio(z, zb, 2, &m, &sd);
	assert_true(fabs(m - 50) < 1e-12);
	is_rfc_mean_sd(a, 1, &m, &sd);
	assert_true(sd == 0);
}

static void test_rfc_run_row(void **state)
{
	const struct is_state_table *t = is_states_builtin("power9");
	const struct is_rfc_row *row = &is_rfc_groups[3].rows[0];    /* pgbench 4 clients */
	struct is_rfc_config c = { .seeds = 3, .threads = 1, .cpus = 2, .periods = 2000, .table = t };
	struct is_rfc_run one[6], two[6];
	g_autofree char *ps = NULL;
	GError *err = NULL;
	int np;

	(void)state;
	assert_true(is_rfc_run_row(&c, row, "teo-5.7", NULL, "intervals=8,16", one, &np, &err));
	assert_int_equal(np, 2);
	c.threads = 2;
	assert_true(is_rfc_run_row(&c, row, "teo-5.7", NULL, "intervals=8,16", two, &np, &err));
	for (int j = 0; j < 6; j++) {
		assert_memory_equal(&one[j].m, &two[j].m, sizeof(one[j].m));
		assert_int_equal(one[j].t->count, t->count);
		assert_true(one[j].m.selections >= 2000);
	}
	/* seeds differ, so do their runs; the mean is over them */
	assert_true(memcmp(&one[0].m, &one[1].m, sizeof(one[0].m)) != 0);
	assert_true(fabs(is_rfc_mean(one, 3, IS_M_SELECTIONS, 0, NULL) -
			 (double)(one[0].m.selections + one[1].m.selections +
				  one[2].m.selections) / 3) < 1e-9);
	ps = is_rfc_point_params("teo-5.7", NULL, "intervals=8,16", 1);
	assert_non_null(strstr(ps, "intervals=16"));
	assert_false(is_rfc_run_row(&c, row, "no-such-gov", NULL, NULL, one, &np, &err));
	assert_non_null(strstr(err->message, "no-such-gov"));
	g_clear_error(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_axis_forms),
		cmocka_unit_test(test_axis_errors),
		cmocka_unit_test(test_axis_twice),
		cmocka_unit_test(test_grid_order),
		cmocka_unit_test(test_grid_overflow),
		cmocka_unit_test(test_random_points),
		cmocka_unit_test(test_shards),
		cmocka_unit_test(test_pool_determinism),
		cmocka_unit_test(test_pool_error),
		cmocka_unit_test(test_alike_points),
		cmocka_unit_test(test_trace_load_errors),
		cmocka_unit_test(test_resume),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_row_parse),
		cmocka_unit_test(test_pareto),
		cmocka_unit_test(test_rfc_stats),
		cmocka_unit_test(test_rfc_run_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
