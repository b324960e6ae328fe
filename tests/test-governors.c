// SPDX-License-Identifier: GPL-2.0-only
/*
 * Governor tests: hand-computed decisions of oracle and ladder (worked from
 * drivers/cpuidle/governors/ladder.c of 6.12 in the comments), params.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "idlesim/idlesim.h"

#define NOLIM 2147483647000LL

struct ladder_fixture {
	const struct is_governor *g;
	struct is_params p;
	struct is_gov_env env;
	uint64_t rng;
	void *st;
};

static void setup_ladder(struct ladder_fixture *f)
{
	f->g = is_governor_find("ladder");
	assert_non_null(f->g);
	is_params_defaults(f->g, &f->p);
	f->env = (struct is_gov_env){ .drv = is_states_builtin("power9"), .params = &f->p,
				      .tick_nsec = 10000000 };
	f->st = g_malloc0(f->g->state_size);
	assert_int_equal(f->g->init(f->st, &f->env), 0);
}

/* One select with dev->last_residency_ns = lres, then reflect(entered). */
static int step(struct ladder_fixture *f, int64_t lres, int64_t lat, bool *stop)
{
	struct is_gov_call c = { .latency_req_ns = lat, .rng_ = &f->rng };
	struct is_gov_wake w = { 0 };
	int idx;

	f->env.last_residency_ns = lres;
	*stop = true;
	idx = f->g->select(f->st, &f->env, &c, stop);
	assert_false(c.sleep_length_read_);  /* ladder never asks */
	w.entered = idx;
	f->g->reflect(f->st, &f->env, &w);
	return idx;
}

static void test_ladder_golden(void **state)
{
	struct ladder_fixture f;
	bool stop;

	(void)state;
	setup_ladder(&f);
	/*
	 * Start at first_idx = 1 (state 0 polls).  dev->last_residency_ns = 0:
	 * last_residency = 0 - 1000 = -1000, compared as u64 against
	 * promotion_time_ns = 1000: "longer" (the kernel's quirk) -> count 1.
	 */
	assert_int_equal(step(&f, 0, NOLIM, &stop), 1);
	assert_true(stop);
	/* 50 us - 1 us > 1 us: counts 2 and 3, then the 4th promotes to 2. */
	assert_int_equal(step(&f, 50000, NOLIM, &stop), 1);
	assert_int_equal(step(&f, 50000, NOLIM, &stop), 1);
	assert_int_equal(step(&f, 50000, NOLIM, &stop), 2);
	/* In stop0: 2.5 us - 2 us = 500 ns < demotion_time 2 us: demote at once. */
	assert_int_equal(step(&f, 2500, NOLIM, &stop), 1);
	/* Residency below the exit latency never demotes (u64 compare). */
	assert_int_equal(step(&f, 0, NOLIM, &stop), 1);
	/* latency_req == 0: state 0, counters of state 1 reset. */
	assert_int_equal(step(&f, 50000, 0, &stop), 0);
	/*
	 * reflect(0) leaves last_state_idx at 0 (index > 0 only).  State 0's
	 * thresholds were never set (ladder_enable_device starts at first_idx):
	 * promotion_count threshold 0, so the next long period promotes at once.
	 */
	assert_int_equal(step(&f, 50000, NOLIM, &stop), 1);
	assert_int_equal(step(&f, 50000, NOLIM, &stop), 1);
	g_free(f.st);
}

static void test_ladder_disabled_and_latency(void **state)
{
	struct ladder_fixture f;
	bool stop;

	(void)state;
	setup_ladder(&f);
	/* Promote 1 -> 2 with four long periods. */
	for (int i = 0; i < 3; i++)
		assert_int_equal(step(&f, 1000000, NOLIM, &stop), 1);
	assert_int_equal(step(&f, 1000000, NOLIM, &stop), 2);
	/* stop0 (2) disabled: promotion count 1 of 4 first, then the demotion
	 * loop for (i = 1; i > first_idx; ) does not run: state 1. */
	f.env.disabled = 1u << 2;
	assert_int_equal(step(&f, 1000000, NOLIM, &stop), 1);
	f.env.disabled = 0;
	/* Climb to stop4 (5): 4 promotions per level from 1. */
	for (int lvl = 1; lvl < 5; lvl++)
		for (int i = 0; i < 4; i++)
			assert_int_equal(step(&f, 50000000, NOLIM, &stop), i < 3 ? lvl : lvl + 1);
	/* 50 us limit: stop5's 200 us blocks promotion; stop4's 100 us is over
	 * it, so demote to the deepest state within it: stop2 (4). */
	assert_int_equal(step(&f, 50000000, 50000, &stop), 4);
	g_free(f.st);
}

static void test_ladder_params(void **state)
{
	struct ladder_fixture f;
	GError *err = NULL;
	bool stop;

	(void)state;
	setup_ladder(&f);
	assert_true(is_params_set(f.g, &f.p, "promotion_count=1", &err));
	assert_int_equal(f.g->init(f.st, &f.env), 0);
	assert_int_equal(step(&f, 50000, NOLIM, &stop), 2);
	g_free(f.st);
}

/* The oracle through the event loop: 100% correct, tick always stopped. */
static void test_oracle(void **state)
{
	struct is_sim_config cfg = {
		.states = is_states_builtin("power9"), .gov = is_governor_find("oracle"),
		.cpus = 1, .hz = 100,
	};
	static const int64_t idle[] = { 5000, 10000, 150000, 30000000, 30000000, 150000 };
	static const int64_t lat[] = { NOLIM, NOLIM, NOLIM, NOLIM, 150000, NOLIM };
	static const int expect[] = { 0, 1, 4, 6, 5, 3 };
	struct is_sim *s;
	const struct is_metrics *m;

	(void)state;
	s = is_sim_new(&cfg, NULL);
	for (int i = 0; i < 6; i++) {
		struct is_record dis = { .kind = IS_REC_STATE, .cpu = 0, .t_ns = i * 100000000LL,
					 .kstate = 4, .disable = i == 5 };
		struct is_record r = { .kind = IS_REC_IDLE, .t_ns = i * 100000000LL,
				       .sleep_ns = idle[i], .tick_ns = 1000, .lat_ns = lat[i],
				       .idle_ns = idle[i], .cause = IS_CAUSE_IRQ };

		assert_true(is_sim_feed(s, &dis, NULL));
		assert_true(is_sim_feed(s, &r, NULL));
		m = is_sim_cpu_metrics(s, 0);
		assert_int_equal(m->usage[expect[i]], 1 + (i == 4 && expect[i] == expect[3]));
	}
	m = is_sim_cpu_metrics(s, 0);
	assert_int_equal(m->acc[IS_ACC_MID], 6);
	assert_int_equal(m->tick_stops, 6);
	assert_int_equal(m->sleep_length_reads, 0);
	is_sim_free(s);
}

static void test_params_errors(void **state)
{
	const struct is_governor *g = is_governor_find("ladder");
	struct is_params p, before;
	GError *err = NULL;
	g_autofree char *s = NULL;

	(void)state;
	is_params_defaults(g, &p);
	before = p;
	assert_false(is_params_set(g, &p, "nope=1", &err));
	assert_non_null(strstr(err->message, "'nope'"));
	assert_non_null(strstr(err->message, "promotion_count"));
	g_clear_error(&err);
	assert_false(is_params_set(g, &p, "promotion_count=0", &err));
	assert_non_null(strstr(err->message, "1..1000000"));
	g_clear_error(&err);
	assert_false(is_params_set(g, &p, "promotion_count=x", &err));
	g_clear_error(&err);
	assert_false(is_params_set(g, &p, "promotion_count", &err));
	g_clear_error(&err);
	assert_memory_equal(&p, &before, sizeof(p));
	s = is_params_format(g, &p);
	assert_string_equal(s, "promotion_count=4,demotion_count=1");
	assert_null(is_governor_find("nope"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ladder_golden),
		cmocka_unit_test(test_ladder_disabled_and_latency),
		cmocka_unit_test(test_ladder_params),
		cmocka_unit_test(test_oracle),
		cmocka_unit_test(test_params_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
