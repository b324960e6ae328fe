// SPDX-License-Identifier: GPL-2.0-only
/*
 * teo-5.7: hand-computed decisions, worked from drivers/cpuidle/governors/
 * teo.c of Linux v5.7 in the comments.  White-box: the source is included.
 * Table power9, HZ=100 (TICK_NSEC = 10 ms).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#define is_gov_teo57 test_copy_of_teo57
#define is_gov_wteo_rfc test_copy_of_wteo_rfc
#include "../src/governors/teo57.c"
#include "idlesim/synth.h"

#define NOLIM 2147483647000LL
#define MS 1000000LL
#define US 1000LL

struct fx {
	struct is_params p;
	struct is_gov_env env;
	struct teo_cpu cpu;
	uint64_t rng;
};

static void fx_init(struct fx *f)
{
	memset(f, 0, sizeof(*f));
	is_params_defaults(&test_copy_of_teo57, &f->p);
	f->env = (struct is_gov_env){ .drv = is_states_builtin("power9"), .params = &f->p,
				      .tick_nsec = 10 * MS };
	assert_int_equal(teo_enable_device(&f->cpu, &f->env), 0);
}

struct sel {
	int state;
	bool stop;
};

static struct sel sel(struct fx *f, int64_t now, int64_t sleep, int64_t delta, bool ts)
{
	struct is_gov_call c = {
		.now_ns = now, .latency_req_ns = NOLIM, .tick_stopped = ts,
		.sleep_length_ns_ = sleep, .delta_next_ns_ = delta, .rng_ = &f->rng,
	};
	struct sel r;

	r.stop = true;
	r.state = teo_select(&f->cpu, &f->env, &c, &r.stop);
	assert_true(c.sleep_length_read_); /* 5.7 always asks */
	return r;
}

static void refl(struct fx *f, int entered, int64_t now, int64_t lres)
{
	struct is_gov_wake w = { .entered = entered, .now_ns = now, .last_residency_ns = lres };

	f->env.last_residency_ns = lres;
	teo_reflect(&f->cpu, &f->env, &w);
}

static void test_sequence(void **state)
{
	struct fx f;
	struct sel r;

	(void)state;
	fx_init(&f);
	/*
	 * A. last_state_idx 0 on a zeroed device: teo_update() with
	 * time_span 0 >= sleep_length 0 -> measured U64_MAX; only state0 is
	 * within sleep_length 0: idx_timer = idx_hit = 0, hits[0] = 1024;
	 * intervals[0] = U64_MAX.  Select, 1 ms: candidates up to stop2;
	 * hits 0 <= misses 0 but no early-hits state; no interval is below
	 * 1 ms.  1 ms < TICK: keep the tick; 100 us <= delta 4 ms.
	 */
	r = sel(&f, 1000, 1 * MS, 4 * MS, false);
	assert_int_equal(r.state, 4);
	assert_false(r.stop);
	assert_int_equal(f.cpu.states[0].hits, 1024);
	assert_true(f.cpu.intervals[0] == UINT64_MAX);
	assert_int_equal(f.cpu.interval_idx, 1);
	/*
	 * B. 505 us in stop2: measured 500 us; timer bin (1 ms) = measured
	 * bin = 4: hits[4] = 1024; intervals[1] = 500 us.  50 ms: stop5 with
	 * hits 0 <= misses 0, no early hits; one interval below 50 ms (not > 4).
	 */
	refl(&f, 4, 1000 + 505 * US, 505 * US);
	r = sel(&f, 600 * US, 50 * MS, 9400 * US, false);
	assert_int_equal(f.cpu.states[4].hits, 1024);
	assert_true(f.cpu.intervals[1] == 500 * US);
	assert_int_equal(r.state, 6);
	assert_true(r.stop);
	/*
	 * C. 2.2 ms in stop5 (200 us exit): measured 2.1 ms; timer bin 6,
	 * measured bin 4: misses[6] = 1024, early_hits[4] = 1024.  50 ms:
	 * max_early_idx 4; at stop5 hits 0 <= misses 1024 -> stop2 with
	 * duration 100 us; no interval below 100 us; 100 us < TICK: keep the
	 * tick.
	 */
	refl(&f, 6, 600 * US + 2200 * US, 2200 * US);
	r = sel(&f, 3 * MS, 50 * MS, 7 * MS, false);
	assert_int_equal(f.cpu.states[6].misses, 1024);
	assert_int_equal(f.cpu.states[4].early_hits, 1024);
	assert_int_equal(r.state, 4);
	assert_false(r.stop);
}

/* Five 30 us intervals out of 8 (> 8 / 2): average 30 us -> stop0 (20 us);
 * with intervals=16 five are not a majority. */
static void test_pattern(void **state)
{
	struct fx f;
	struct sel r;

	(void)state;
	for (int n = 8; n <= 16; n += 8) {
		fx_init(&f);
		f.p.v[P_INTERVALS] = n;
		f.cpu.last_state_idx = -1;
		for (int i = 0; i < 5; i++)
			f.cpu.intervals[i] = 30 * US;
		r = sel(&f, 0, 50 * MS, 5 * MS, false);
		assert_int_equal(r.state, n == 8 ? 2 : 6);
		assert_int_equal(r.stop, n != 8);
	}
	/* tick stopped: 30 us < TICK fails teo_time_ok(): stay at stop5 */
	fx_init(&f);
	f.cpu.last_state_idx = -1;
	for (int i = 0; i < 5; i++)
		f.cpu.intervals[i] = 30 * US;
	r = sel(&f, 0, 50 * MS, 50 * MS, true);
	assert_int_equal(r.state, 6);
	assert_true(r.stop);
}

/* v5.7's u64 times: a negative sleep length is huge -> the deepest state
 * and the tick stopped. */
static void test_negative_sleep(void **state)
{
	struct fx f;
	struct sel r;

	(void)state;
	fx_init(&f);
	f.cpu.last_state_idx = -1;
	r = sel(&f, 0, -500, -500, false);
	assert_int_equal(r.state, 6);
	assert_true(r.stop);
	assert_true(f.cpu.sleep_length_ns == (uint64_t)-500);
}

/* A disabled deepest state lends its hits/misses; the candidate is stop4. */
static void test_disabled(void **state)
{
	struct fx f;
	struct sel r;

	(void)state;
	fx_init(&f);
	f.cpu.last_state_idx = -1;
	f.env.disabled = 1u << 6;
	r = sel(&f, 0, 50 * MS, 5 * MS, false);
	assert_int_equal(r.state, 5);
	assert_true(r.stop);
}

/* intervals=8 is the default: same decisions through the event loop. */
static void test_intervals_default(void **state)
{
	struct is_basic_params bp;
	struct is_basic_gen *g;
	struct is_sim_config c1 = { .states = is_states_builtin("power9"), .cpus = 2, .hz = 100 };
	struct is_sim_config c2;
	struct is_sim *s1, *s2;
	struct is_metrics m1, m2;

	(void)state;
	c1.gov = is_governor_find("teo-5.7");
	is_params_defaults(c1.gov, &c1.params);
	c2 = c1;
	assert_true(is_params_set(c2.gov, &c2.params, "intervals=8", NULL));
	s1 = is_sim_new(&c1, NULL);
	s2 = is_sim_new(&c2, NULL);
	is_basic_params_default(&bp);
	g = is_basic_new(&bp);
	for (int i = 0; i < 20000; i++) {
		struct is_record rec;

		is_basic_next(g, &rec);
		assert_true(is_sim_feed(s1, &rec, NULL));
		assert_true(is_sim_feed(s2, &rec, NULL));
	}
	is_sim_total(s1, &m1);
	is_sim_total(s2, &m2);
	assert_memory_equal(&m1, &m2, sizeof(m1));
	assert_memory_equal(is_sim_gov_state(s1, 0), is_sim_gov_state(s2, 0),
			    sizeof(struct teo_cpu));
	is_basic_free(g);
	is_sim_free(s1);
	is_sim_free(s2);
}

/* ---- wteo-rfc ------------------------------------------------------- */

static void rfc_fx(struct fx *f, bool fixed)
{
	memset(f, 0, sizeof(*f));
	is_params_defaults(&test_copy_of_wteo_rfc, &f->p);
	f->p.v[P_FIXED] = fixed;
	f->env = (struct is_gov_env){ .drv = is_states_builtin("power9"), .params = &f->p,
				      .tick_nsec = 10 * MS };
	assert_int_equal(wteo_rfc_enable_device(&f->cpu, &f->env), 0);
}

static int rowsum(const int *row)
{
	int s = 0;

	for (int j = 0; j < 7; j++)
		s += row[j];
	return s;
}

static void test_rfc_init(void **state)
{
	struct fx f;

	(void)state;
	/* QUIRK init-trunc: 4000 / 6 = 666, rows sum to 9996 */
	rfc_fx(&f, false);
	assert_int_equal(f.cpu.state_mat[3][3], 6000);
	assert_int_equal(f.cpu.state_mat[3][0], 666);
	assert_int_equal(rowsum(f.cpu.state_mat[3]), 9996);
	/* fixed: the remainder stays on the diagonal */
	rfc_fx(&f, true);
	assert_int_equal(f.cpu.state_mat[3][3], 6004);
	assert_int_equal(rowsum(f.cpu.state_mat[3]), 10000);
}

static void test_rfc_update(void **state)
{
	struct fx f;
	int *row;

	(void)state;
	rfc_fx(&f, false);
	row = f.cpu.state_mat[3];
	/*
	 * Row 3 toward 5: 666 + 10 * 666 / 100 = 732 (< 9000); the others
	 * would lose 10 * w / 600: 666 - 11 = 655 <= 1000: skipped (the floor);
	 * 6000 - 100 = 5900.  QUIRK row-sum: 9996 -> 9962.
	 */
	rfc_update(&f.cpu, &f.env, 3, 5);
	assert_int_equal(row[5], 732);
	assert_int_equal(row[0], 666);
	assert_int_equal(row[3], 5900);
	assert_int_equal(rowsum(row), 9962);
	/* the ceiling: 8500 + 850 >= 9000 is skipped */
	row[2] = 8500;
	rfc_update(&f.cpu, &f.env, 3, 2);
	assert_int_equal(row[2], 8500);
	/* idx -1 (no timer state): nothing */
	rfc_update(&f.cpu, &f.env, 3, -1);
	assert_int_equal(row[2], 8500);
	/* fixed: 10% of every other weight moves, the sum stays 10000 */
	rfc_fx(&f, true);
	row = f.cpu.state_mat[3];
	rfc_update(&f.cpu, &f.env, 3, 5);
	assert_int_equal(row[0], 666 - 66);
	assert_int_equal(row[3], 6004 - 600);
	assert_int_equal(row[5], 666 + 5 * 66 + 600);
	assert_int_equal(rowsum(row), 10000);
}

static void test_rfc_pick(void **state)
{
	struct fx f;
	struct is_gov_call c = { .has_draw_ = true, .rng_ = &f.rng };

	(void)state;
	rfc_fx(&f, false);
	/* row 2 over states 0..2: 666 | 1332 | 7332; draw % 100 scales it */
	c.draw_ = 5;   /* 5 * 7332 / 100 = 366 */
	assert_int_equal(rfc_pick(&f.cpu, &f.env, &c, 2), 0);
	c.draw_ = 110; /* 110 % 100 = 10: 733 */
	assert_int_equal(rfc_pick(&f.cpu, &f.env, &c, 2), 1);
	c.draw_ = 50;  /* 3666 */
	assert_int_equal(rfc_pick(&f.cpu, &f.env, &c, 2), 2);
	/* QUIRK list-index: stop0_lite disabled, the list is {0, 2}; the draw
	 * lands on position 1, returned as state 1, a disabled state */
	f.env.disabled = 1u << 1;
	assert_int_equal(rfc_pick(&f.cpu, &f.env, &c, 2), 1);
	/* fixed maps the position back to state 2, and draws at full width */
	f.p.v[P_FIXED] = 1;
	c.draw_ = 0x80000000u; /* half of 6666 -> state 2 */
	assert_int_equal(rfc_pick(&f.cpu, &f.env, &c, 2), 2);
	c.draw_ = 0x10000000u; /* 416 < 666 -> state 0 */
	assert_int_equal(rfc_pick(&f.cpu, &f.env, &c, 2), 0);
	/* argmax: the diagonal */
	f.p.v[P_PICK] = 1;
	c.draw_used_ = false;
	assert_int_equal(rfc_pick(&f.cpu, &f.env, &c, 2), 2);
	assert_false(c.draw_used_);
}

/* Long seeded streams: fixed keeps every row at 10000; faithful weights
 * stay within [0, 10000]; same seed, same decisions. */
static void test_rfc_properties(void **state)
{
	(void)state;
	for (int fixed = 0; fixed <= 1; fixed++) {
		struct is_basic_params bp;
		struct is_basic_gen *g;
		struct is_sim_config c = { .states = is_states_builtin("power9"), .cpus = 2,
					   .hz = 100, .seed = 9 };
		struct is_sim *s1, *s2;

		c.gov = is_governor_find("wteo-rfc");
		is_params_defaults(c.gov, &c.params);
		c.params.v[P_FIXED] = fixed;
		s1 = is_sim_new(&c, NULL);
		s2 = is_sim_new(&c, NULL);
		is_basic_params_default(&bp);
		bp.irq_rate_hz = 2000;
		g = is_basic_new(&bp);
		for (int i = 0; i < 30000; i++) {
			struct is_record rec;

			is_basic_next(g, &rec);
			assert_true(is_sim_feed(s1, &rec, NULL));
			assert_true(is_sim_feed(s2, &rec, NULL));
			if (i % 101)
				continue;
			for (int cpu = 0; cpu < 2; cpu++) {
				const struct teo_cpu *t = is_sim_gov_state(s1, cpu);

				for (int r = 0; r < 7; r++) {
					if (fixed)
						assert_int_equal(rowsum(t->state_mat[r]), 10000);
					for (int j = 0; j < 7; j++)
						assert_true(t->state_mat[r][j] >= 0 &&
							    t->state_mat[r][j] <= 10000);
				}
			}
		}
		for (int cpu = 0; cpu < 2; cpu++)
			assert_memory_equal(is_sim_gov_state(s1, cpu), is_sim_gov_state(s2, cpu),
					    sizeof(struct teo_cpu));
		is_basic_free(g);
		is_sim_free(s1);
		is_sim_free(s2);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequence),
		cmocka_unit_test(test_pattern),
		cmocka_unit_test(test_negative_sleep),
		cmocka_unit_test(test_disabled),
		cmocka_unit_test(test_intervals_default),
		cmocka_unit_test(test_rfc_init),
		cmocka_unit_test(test_rfc_update),
		cmocka_unit_test(test_rfc_pick),
		cmocka_unit_test(test_rfc_properties),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
