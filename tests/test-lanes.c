// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lanes (src/sim/lanes.c and the governors' lanes ops) against one
 * simulation per point: every metric of every lane, bit for bit, over the
 * bundled captures (the series' inputs: sleep-length reads, got-tick and
 * poll-limit flags, spans, draws), a random trace that takes every branch
 * of the model (refused entries, stopped ticks, recorded poll limits and
 * ticks, draws), machines with and without exit latency, tick lateness and
 * poll overrun, and params of every kind in every lane.  Then the sweep's
 * own path: is_sweep_execute() with lanes and with --scalar, same metrics.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "idlesim/sim.h"
#include "idlesim/sweep.h"

static uint64_t rnd_state;

static uint64_t rnd(void)
{
	return is_rng_next(&rnd_state);
}

static int pidx(const struct is_governor *g, const char *name)
{
	int i = is_params_index_of(g->params, g->nparams, name);

	assert_true(i >= 0);
	return i;
}

/* Point @k of a varied set: every param of the governor takes several values. */
static void varied_params(const struct is_governor *g, int k, struct is_params *p)
{
	static const int64_t pulse[] = { 1024, 64, 3000, 1 << 20 };
	static const int64_t shift[] = { 3, 1, 5, 31 };
	static const int64_t thr[] = { 15000, 0, 50000, 1000000 };
	static const int64_t rate[] = { 102, 0, 1024, 517, 1, 1023 };
	static const int64_t self[] = { 614, 0, 1024, 300, 900 };

	is_params_defaults_of(g->params, g->nparams, p);
	if (k == 0)
		return;  /* the defaults */
	p->v[pidx(g, "pulse")] = pulse[k % 4];
	p->v[pidx(g, "decay_shift")] = shift[(k / 2) % 4];
	p->v[pidx(g, "residency_threshold_ns")] = thr[(k / 3) % 4];
	p->v[pidx(g, "state0_sleep_length")] = (k / 5) % 2;
	if (strcmp(g->name, "wteo"))
		return;
	p->v[pidx(g, "learning_rate")] = rate[k % 6];
	p->v[pidx(g, "init_self_weight")] = self[(k / 2) % 5];
	p->v[pidx(g, "pick")] = (k / 7) % 2;
	p->v[pidx(g, "range")] = (k / 3) % 2;
	p->v[pidx(g, "poll")] = (k / 4) % 2;
	p->v[pidx(g, "trigger")] = (k / 6) % 2;
}

struct machine {
	bool exit_free;
	int64_t tick_late_ns, poll_overrun_ns;
};

/* Lanes of @n points (params from @k0 on) against their own simulations. */
static void compare(const struct is_state_table *table, const struct is_trace_header *hdr,
		    const struct is_record *recs, size_t nrec, const struct is_governor *g,
		    int k0, int n, const struct machine *mc, const char *what)
{
	struct is_params p[IS_LANES];
	uint64_t seed[IS_LANES];
	struct is_sim_config cfg = {
		.states = table,
		.gov = g,
		.cpus = hdr->cpus,
		.hz = hdr->hz,
		.mode = IS_SIM_MODEL,
		.poll_overrun_ns = mc->poll_overrun_ns,
		.tick_late_ns = mc->tick_late_ns,
		.exit_free = mc->exit_free,
		.start_lres_ns = hdr->start_lres_ns,
	};
	struct is_sim_lanes *l;
	GError *err = NULL;

	for (int i = 0; i < n; i++) {
		varied_params(g, k0 + i, &p[i]);
		seed[i] = 42 + 1000003ull * (uint64_t)i;
	}
	assert_true(is_sim_lanes_supported(&cfg, p, n));
	l = is_sim_lanes_new(&cfg, p, seed, n, &err);
	if (!l)
		fail_msg("%s: %s", what, err->message);
	for (size_t i = 0; i < nrec; i++)
		if (!is_sim_lanes_feed(l, &recs[i], &err))
			fail_msg("%s: %s", what, err->message);
	for (int i = 0; i < n; i++) {
		struct is_metrics ml, ms;
		struct is_sim *s;

		cfg.params = p[i];
		cfg.seed = seed[i];
		s = is_sim_new(&cfg, &err);
		if (!s)
			fail_msg("%s: %s", what, err->message);
		for (size_t r = 0; r < nrec; r++)
			if (!is_sim_feed(s, &recs[r], &err))
				fail_msg("%s: %s", what, err->message);
		is_sim_total(s, &ms);
		is_sim_lanes_total(l, i, &ml);
		if (memcmp(&ms, &ml, sizeof(ms)))
			fail_msg("%s: %s, point %d of %d (params from %d): lanes differ from "
				 "its own simulation (%" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT
				 " selections, energy %.17g and %.17g)", what, g->name, i, n, k0,
				 ms.selections, ml.selections, ms.energy, ml.energy);
		is_sim_free(s);
	}
	is_sim_lanes_free(l);
}

static bool lanes_here(void)
{
	struct is_params p;
	struct is_sim_config cfg = {
		.states = is_states_builtin("power9"),
		.gov = is_governor_find("teo-6.12"),
		.cpus = 1,
		.hz = 100,
		.mode = IS_SIM_MODEL,
	};

	is_params_defaults_of(cfg.gov->params, cfg.gov->nparams, &p);
	return is_sim_lanes_supported(&cfg, &p, 1);
}

#define SKIP_WITHOUT_LANES() \
	do { \
		if (!lanes_here()) { \
			print_message("no lanes here (they need a GCC build and a CPU with " \
				      "AVX-512 F, DQ, BW and VL): sweeps run one simulation " \
				      "per point, and there is nothing to compare\n"); \
			skip(); \
		} \
	} while (0)

static const char *const govs[] = { "teo-6.12", "wteo" };

static const struct machine machines[] = {
	{ false, 0, 0 },          /* hardware */
	{ true, 0, 0 },           /* a TCG guest without exit latency */
	{ false, 50000, 18000 },  /* late ticks, a poll overrun */
};

static void test_captures(void **state)
{
	static const char *const files[] = {
		"qemu-x86-teo.trace", "qemu-x86-wteo.trace", "qemu-x86-menu.trace",
		"qemu-ppc64le-teo.trace", "qemu-ppc64le-wteo.trace", "qemu-ppc64le-menu.trace",
		"basic.trace", "recorded.trace",
	};

	(void)state;
	SKIP_WITHOUT_LANES();
	for (size_t f = 0; f < G_N_ELEMENTS(files); f++) {
		g_autofree char *path = g_build_filename(getenv("TRACES"), files[f], NULL);
		GError *err = NULL;
		struct is_sweep_trace *t = is_sweep_trace_load(path, NULL, &err);

		if (!t)
			fail_msg("%s", err->message);
		assert_false(t->state_recs);
		for (size_t gi = 0; gi < G_N_ELEMENTS(govs); gi++) {
			const struct is_governor *g = is_governor_find(govs[gi]);
			struct machine own = { false, t->hdr.tick_late_ns, t->hdr.poll_overrun_ns };

			compare(t->table, &t->hdr, t->recs, t->n, g, 0, IS_LANES, &own, files[f]);
			compare(t->table, &t->hdr, t->recs, t->n, g, 8, IS_LANES, &machines[1],
				files[f]);
			compare(t->table, &t->hdr, t->recs, t->n, g, 16, 3, &machines[2], files[f]);
		}
		is_sweep_trace_free(t);
	}
}

/* Records that take every branch of the model, on @cpus CPUs. */
static struct is_record *random_trace(const struct is_state_table *table, int cpus, size_t n,
				      bool series)
{
	struct is_record *r = g_new0(struct is_record, n);
	int64_t t[8] = { 0 };

	for (size_t i = 0; i < n; i++) {
		const int cpu = (int)(rnd() % (uint64_t)cpus);
		const uint64_t x = rnd(), y = rnd();
		/* idle lengths from 0 to 60 ms, most of them short */
		const int64_t idle = (int64_t)((x & 0xffff) * (uint64_t)(1 + (y & 0x3ff)) % 60000000);
		static const uint8_t causes[] = { IS_CAUSE_TIMER, IS_CAUSE_IRQ, IS_CAUSE_IPI,
						  IS_CAUSE_TICK, IS_CAUSE_POLL, IS_CAUSE_UNKNOWN };

		r[i].kind = IS_REC_IDLE;
		r[i].cpu = (uint16_t)cpu;
		r[i].t_ns = t[cpu] += 1000 + (int64_t)(x >> 52);
		r[i].idle_ns = idle;
		r[i].cause = causes[(x >> 20) % 6];
		r[i].sleep_ns = (y >> 40) & 1 ? idle + (int64_t)((y >> 8) % 5000000) :
			(int64_t)((y >> 12) % 40000000) - 100000;
		r[i].tick_ns = (int64_t)((x >> 24) % 10000000);
		r[i].lat_ns = (y >> 50) & 7 ? 2000000000 : (int64_t)((y >> 30) % 300000);
		r[i].flags = (uint8_t)((x >> 32) & (IS_F_TS | IS_F_NOWORK)) |
			     (((x >> 40) % 23) == 0 ? IS_F_REJ : 0);
		if ((x >> 45) & 1) {
			r[i].has |= IS_HAS_DRAW;
			r[i].draw = (uint32_t)y;
		}
		if (series) {
			r[i].has |= IS_HAS_KSTATE | IS_HAS_SPAN | IS_HAS_LRES | IS_HAS_GT | IS_HAS_PL |
				    IS_HAS_SLR;
			r[i].kstate = (int8_t)((y >> 20) % (uint64_t)table->count);
			r[i].lres_ns = idle;
			r[i].span_ns = idle + (int64_t)((y >> 24) % 20000);
			r[i].flags |= (uint8_t)((y >> 33) & (IS_F_GT | IS_F_PL | IS_F_SLR));
			if (!(r[i].flags & IS_F_SLR))
				r[i].sleep_ns = r[i].tick_ns = 0;
			else if ((y >> 44) & 1)
				r[i].tick_ns = INT64_MAX;  /* a periodic tick's read */
		}
		t[cpu] += idle;
	}
	return r;
}

static void test_random(void **state)
{
	static const char *const tables[] = { "power9", "intel-icx", "mt8195-little", "juno" };

	(void)state;
	SKIP_WITHOUT_LANES();
	rnd_state = 7;
	for (size_t ti = 0; ti < G_N_ELEMENTS(tables); ti++) {
		const struct is_state_table *table = is_states_builtin(tables[ti]);
		/* each CPU's dev->last_residency_ns at the start (a capture's header) */
		int64_t lres0[3] = { 0, 150000, -3 };
		struct is_trace_header hdr = { .cpus = 3, .hz = 250,
					       .start_lres_ns = ti % 2 ? lres0 : NULL };

		if (!table || table->count > 7)
			continue;
		for (int series = 0; series < 2; series++) {
			const size_t n = 20000;
			g_autofree struct is_record *r = random_trace(table, hdr.cpus, n, series);
			g_autofree char *what = g_strdup_printf("random trace on %s%s", tables[ti],
								 series ? ", the series' fields" : "");

			for (size_t gi = 0; gi < G_N_ELEMENTS(govs); gi++)
				for (size_t mi = 0; mi < G_N_ELEMENTS(machines); mi++)
					for (int k0 = 0; k0 < 32; k0 += IS_LANES)
						compare(table, &hdr, r, n, is_governor_find(govs[gi]),
							k0 + (int)mi, IS_LANES, &machines[mi], what);
		}
	}
}

/* Where lanes do not apply, they say so; a disable-mask change is refused, not ignored. */
static void test_not_supported(void **state)
{
	struct is_params p[IS_LANES];
	const struct is_governor *w = is_governor_find("wteo");
	struct is_sim_config cfg = {
		.states = is_states_builtin("power9"),
		.gov = w,
		.cpus = 1,
		.hz = 100,
		.mode = IS_SIM_MODEL,
	};
	struct is_record rec = { .kind = IS_REC_STATE, .cpu = 0, .kstate = 2, .disable = 1 };
	struct is_sim_lanes *l;
	GError *err = NULL;
	uint64_t seed[IS_LANES] = { 0 };

	(void)state;
	SKIP_WITHOUT_LANES();
	for (int i = 0; i < IS_LANES; i++)
		varied_params(w, 0, &p[i]);
	assert_true(is_sim_lanes_supported(&cfg, p, IS_LANES));
	assert_false(is_sim_lanes_supported(&cfg, p, IS_LANES + 1));
	p[3].v[pidx(w, "trigger")] = 1;
	assert_true(is_sim_lanes_supported(&cfg, p, IS_LANES));
	p[3].v[pidx(w, "trigger")] = 0;
	p[5].v[pidx(w, "aging")] = 1;
	assert_false(is_sim_lanes_supported(&cfg, p, IS_LANES));
	p[5].v[pidx(w, "aging")] = 0;
	cfg.mode = IS_SIM_EXACT;
	assert_false(is_sim_lanes_supported(&cfg, p, IS_LANES));
	cfg.mode = IS_SIM_MODEL;
	cfg.disabled = 2;
	assert_false(is_sim_lanes_supported(&cfg, p, IS_LANES));
	cfg.disabled = 0;
	cfg.measure_to_ns = 1000;
	assert_false(is_sim_lanes_supported(&cfg, p, IS_LANES));
	cfg.measure_to_ns = 0;
	cfg.gov = is_governor_find("menu-6.12");
	assert_false(is_sim_lanes_supported(&cfg, p, 1));
	cfg.gov = w;
	l = is_sim_lanes_new(&cfg, p, seed, IS_LANES, &err);
	assert_non_null(l);
	assert_false(is_sim_lanes_feed(l, &rec, &err));
	assert_non_null(strstr(err->message, "disable mask"));
	g_clear_error(&err);
	is_sim_lanes_free(l);
	is_sim_lanes_free(NULL);
}

struct collect {
	struct is_metrics *m;
};

static bool collect_done(void *ctx, uint64_t job, const struct is_params *p,
			 const struct is_sweep_trace *t, uint64_t seed,
			 const struct is_metrics *m, GError **error)
{
	struct collect *c = ctx;

	(void)p, (void)t, (void)seed, (void)error;
	c->m[job] = *m;
	return true;
}

/*
 * The sweep's path: 13 points (a group of lanes and a part-filled one)
 * over two traces, one of which changes a disable mask (one simulation
 * per point there), at 1 and 2 threads, equal to --scalar.
 */
static void test_sweep(void **state)
{
	static const char *const files[] = { "qemu-x86-wteo.trace", "events.trace" };
	struct is_sweep_trace *ts[2];
	GError *err = NULL;

	(void)state;
	SKIP_WITHOUT_LANES();
	for (int f = 0; f < 2; f++) {
		g_autofree char *path = g_build_filename(getenv("TRACES"), files[f], NULL);

		ts[f] = is_sweep_trace_load(path, NULL, &err);
		if (!ts[f])
			fail_msg("%s", err->message);
	}
	assert_true(ts[1]->state_recs);
	for (size_t gi = 0; gi < G_N_ELEMENTS(govs); gi++) {
		struct is_sweep_space s;
		struct is_metrics *ref = NULL;
		uint64_t n, jobs[64];

		is_sweep_space_init(&s, is_governor_find(govs[gi]));
		assert_true(is_sweep_space_add_axis(&s, "pulse=100:1300:100", &err));
		assert_true(is_sweep_space_size(&s, &n, &err));
		assert_int_equal(n, 13);
		for (uint64_t i = 0; i < 2 * n; i++)
			jobs[i] = i;
		for (int run = 0; run < 3; run++) {
			struct collect c = { .m = g_new0(struct is_metrics, 2 * n) };
			struct is_sweep_exec x = {
				.space = &s, .traces = ts, .ntraces = 2, .mode = IS_SIM_MODEL,
				.seed = -1, .jobs = jobs, .njobs = 2 * n, .threads = run ? run : 1,
				.scalar = run == 0, .done = collect_done, .ctx = &c,
			};

			assert_true(is_sweep_execute(&x, &err));
			if (!ref) {
				ref = c.m;
				continue;
			}
			assert_memory_equal(ref, c.m, 2 * n * sizeof(*ref));
			g_free(c.m);
		}
		g_free(ref);
		is_sweep_space_clear(&s);
	}
	is_sweep_trace_free(ts[0]);
	is_sweep_trace_free(ts[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_captures),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_not_supported),
		cmocka_unit_test(test_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
