// SPDX-License-Identifier: GPL-2.0-only
/*
 * wteo: weight arithmetic (hand cases, the same as the kernel series'
 * KUnit test) and property tests over long seeded input streams.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#define is_gov_teo612 test_copy_of_teo612
#define is_gov_wteo test_copy_of_wteo
#include "../src/governors/teo612.c"
#include "idlesim/synth.h"

static unsigned int row_sum(const uint16_t *row, int n)
{
	unsigned int s = 0;

	for (int j = 0; j < n; j++)
		s += row[j];
	return s;
}

static void test_init_rows(void **state)
{
	uint16_t row[IS_STATE_MAX];

	(void)state;
	/* 7 states, self 614: off (1024 - 614) / 6 = 68, diagonal 1024 - 408 */
	wteo_init_row(row, 7, 3, 614);
	assert_int_equal(row[3], 616);
	assert_int_equal(row[0], 68);
	assert_int_equal(row[6], 68);
	for (int n = 1; n <= IS_STATE_MAX; n++)
		for (int i = 0; i < n; i++)
			for (unsigned self = 0; self <= 1024; self += 64) {
				wteo_init_row(row, n, i, self);
				assert_int_equal(row_sum(row, n), 1024);
			}
}

static void test_update_rows(void **state)
{
	uint16_t row[7];
	uint64_t rng = 5;

	(void)state;
	/* rate 102: 68 -> 68 - 6; 616 -> 616 - 61; target gets 5 * 6 + 61 */
	wteo_init_row(row, 7, 3, 614);
	wteo_update_row(row, 7, 5, 102);
	assert_int_equal(row[0], 62);
	assert_int_equal(row[3], 555);
	assert_int_equal(row[5], 68 + 5 * 6 + 61);
	/* property: any rate and target keep the sum and the bounds */
	for (int k = 0; k < 100000; k++) {
		uint64_t r = is_rng_next(&rng);

		wteo_update_row(row, 7, (int)(r % 7), (unsigned)((r >> 8) % 1025));
		assert_int_equal(row_sum(row, 7), 1024);
		for (int j = 0; j < 7; j++)
			assert_true(row[j] <= 1024);
	}
	for (int k = 0; k < 100; k++)
		wteo_update_row(row, 7, 2, 1024);
	assert_int_equal(row[2], 1024);
}

static void test_pick(void **state)
{
	uint16_t row[4] = { 256, 0, 512, 256 };

	(void)state;
	assert_int_equal(wteo_pick(row, 4, 0xf, 0), 0);
	assert_int_equal(wteo_pick(row, 4, 0xf, 0x3fffffff), 0);
	assert_int_equal(wteo_pick(row, 4, 0xf, 0x40000000), 2);
	assert_int_equal(wteo_pick(row, 4, 0xf, 0xbfffffff), 2);
	assert_int_equal(wteo_pick(row, 4, 0xf, 0xc0000000), 3);
	assert_int_equal(wteo_pick(row, 4, 0xf, 0xffffffff), 3);
	assert_int_equal(wteo_pick(row, 4, 0x2, 0x12345678), -1);
	assert_int_equal(wteo_pick(row, 4, 0x6, 0), 2);
	assert_int_equal(wteo_pick(row, 4, 0x9, 0x7fffffff), 0);
	assert_int_equal(wteo_pick(row, 4, 0x9, 0x80000000), 3);
	assert_int_equal(wteo_argmax(row, 4, 0xf), 2);
	assert_int_equal(wteo_argmax(row, 4, 0x9), 0); /* tie: the shallower */
	assert_int_equal(wteo_argmax(row, 4, 0x2), -1);
}

static char *run(const char *params[], uint64_t seed, uint64_t bseed, int n,
		 struct is_metrics *tot, bool check_rows)
{
	struct is_basic_params bp;
	struct is_basic_gen *g;
	struct is_sim_config c = { .states = is_states_builtin("power9"), .cpus = 2, .hz = 100,
				   .seed = seed, .gov = is_governor_find("wteo") };
	struct is_sim *s;
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	char *out;

	is_params_defaults(c.gov, &c.params);
	for (int i = 0; params && params[i]; i++)
		assert_true(is_params_set(c.gov, &c.params, params[i], NULL));
	s = is_sim_new(&c, NULL);
	is_basic_params_default(&bp);
	bp.seed = bseed;
	bp.irq_rate_hz = 2000; /* plenty of intercepts: the weights get used */
	g = is_basic_new(&bp);
	for (int i = 0; i < n; i++) {
		struct is_record rec;

		is_basic_next(g, &rec);
		assert_true(is_sim_feed(s, &rec, NULL));
		if (check_rows && i % 97 == 0)
			for (int cpu = 0; cpu < 2; cpu++) {
				const struct teo_cpu *t = is_sim_gov_state(s, cpu);

				for (int r = 0; r < 7; r++) {
					assert_int_equal(row_sum(t->weights[r], 7), 1024);
					for (int j = 0; j < 7; j++)
						assert_true(t->weights[r][j] <= 1024);
				}
			}
	}
	for (int cpu = 0; cpu < 2; cpu++)
		g_checksum_update(sum, is_sim_gov_state(s, cpu), sizeof(struct teo_cpu));
	is_sim_total(s, tot);
	g_checksum_update(sum, (const guchar *)tot, sizeof(*tot));
	out = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	is_basic_free(g);
	is_sim_free(s);
	return out;
}

/* Rows keep their sums and bounds over long random streams, for several
 * learning rates and initial weights. */
static void test_rows_invariant(void **state)
{
	static const char *const sets[][3] = {
		{ NULL }, { "learning_rate=1", NULL }, { "learning_rate=1024", NULL },
		{ "init_self_weight=0", "learning_rate=500", NULL },
		{ "init_self_weight=1024", NULL }, { "pick=argmax", NULL },
		{ "trigger=timer", NULL }, { "range=chosen", "learning_rate=500", NULL },
		{ "poll=avoid", NULL }, { "poll=avoid", "range=chosen", NULL },
		{ "aging=max", "aging_rate=64", NULL }, { "aging=max-periodic", "aging_period_ms=1", NULL },
		{ "aging=initial", "aging_period_ms=1", NULL }, { "aging=reset", NULL },
	};
	struct is_metrics m;

	(void)state;
	for (size_t k = 0; k < G_N_ELEMENTS(sets); k++) {
		char *d = run((const char **)sets[k], 3, 17 + k, 20000, &m, true);

		assert_true(m.selections >= 20000);
		g_free(d);
	}
}

/* Aging's arithmetic by hand (docs/aging.md). */
static void test_aging_rows(void **state)
{
	uint16_t row[WTEO_ROW] = { 100, 700, 124, 100 }, init[WTEO_ROW];

	(void)state;
	/* the heaviest (700) gives 700 * 64 >> 10 = 43, 14 to each of 3, keeps the 1 left */
	wteo_age_max(row, 4, 64);
	assert_int_equal(row[0], 114);
	assert_int_equal(row[1], 658);
	assert_int_equal(row[2], 138);
	assert_int_equal(row[3], 114);
	assert_int_equal(row[0] + row[1] + row[2] + row[3], 1024);
	/* a tie goes to the lowest index; one state: nothing moves */
	memcpy(row, (uint16_t[]){ 512, 512 }, 4);
	wteo_age_max(row, 2, 1024);
	assert_int_equal(row[0], 0);
	assert_int_equal(row[1], 1024);
	wteo_age_max(row, 1, 1024);
	assert_int_equal(row[0], 0);
	/* toward the initial row: 1/4 of each difference, the diagonal takes the rest */
	wteo_init_row(init, 4, 1, 614);           /* 136 616 136 136 */
	memcpy(row, (uint16_t[]){ 0, 1024, 0, 0 }, 8);
	wteo_age_toward(row, init, 4, 1, 256);
	assert_int_equal(row[0], 34);
	assert_int_equal(row[2], 34);
	assert_int_equal(row[3], 34);
	assert_int_equal(row[1], 1024 - 102);
	/* the whole way: the initial row exactly */
	wteo_age_toward(row, init, 4, 1, 1024);
	assert_memory_equal(row, init, 8);
}

/* aging=reset: four surprises in a row start the row again from its init. */
static void test_aging_reset(void **state)
{
	struct is_params p;
	struct is_gov_env env;
	struct teo_cpu t;
	struct teo_sums sums;
	uint16_t init[WTEO_ROW] = { 0 };

	(void)state;
	is_params_defaults(&test_copy_of_wteo, &p);
	assert_true(is_params_set(&test_copy_of_wteo, &p, "aging=reset", NULL));
	assert_true(is_params_set(&test_copy_of_wteo, &p, "learning_rate=0", NULL));
	env = (struct is_gov_env){ .drv = is_states_builtin("power9"), .params = &p,
				   .tick_nsec = 10000000 };
	wteo_enable_device(&t, &env);
	wteo_init_row(init, env.drv->count, 2, 614);
	/* row 2 taught that state 6 never comes: its weight there below 1/16 */
	t.weights[2][6] = 10;
	t.weights[2][2] = (uint16_t)(t.weights[2][2] + init[6] - 10);
	for (int k = 1; k <= 4; k++) {
		/* a wakeup that ends up in state 6's bin, after state 2 */
		t.last_state_idx = 2;
		t.sleep_length_ns = 30000000;
		t.time_span_ns = 30000000;
		teo_update(&t, &env, teo_driver(&t, &env), true, 8, &sums);
		if (k < 4)
			assert_int_equal(t.weights[2][6], 10);
	}
	assert_memory_equal(t.weights[2], init, sizeof(init));
}

/* Determinism: the same seeds give the same state and metrics; another
 * governor seed changes the draws. */
static void test_determinism(void **state)
{
	struct is_metrics m1, m2, m3;
	char *a = run(NULL, 7, 1, 30000, &m1, false);
	char *b = run(NULL, 7, 1, 30000, &m2, false);
	char *c = run(NULL, 8, 1, 30000, &m3, false);

	(void)state;
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
	g_free(a);
	g_free(b);
	g_free(c);
}

/* A select with all intercepts in @bin: TEO moves to @bin (test_range_and_trigger). */
static int select_with(struct teo_cpu *t, const struct is_gov_env *env,
		       struct is_gov_call *call, int bin, uint32_t draw)
{
	bool stop = true;

	t->last_state_idx = -1;
	memset(t->intercepts, 0, sizeof(t->intercepts));
	t->intercepts[bin] = 8000;
	t->total = 8000;
	t->sleep_length_ns = 0;
	call->has_draw_ = true;
	call->draw_ = draw;
	call->draw_used_ = false;
	call->sleep_length_read_ = false;
	return wteo_select(t, env, call, &stop);
}

/* The hand-computed selects' fixture: power9, default params, fresh rows. */
struct hand {
	struct is_gov_call call;
	struct is_gov_env env;
	struct is_params p;
	struct teo_cpu t;
	uint64_t rng;
};

static void hand_init(struct hand *h)
{
	h->rng = 1;
	h->call = (struct is_gov_call){ .latency_req_ns = 2147483647000LL, .rng_ = &h->rng,
					.sleep_length_ns_ = 50000000, .delta_next_ns_ = 5000000 };
	is_params_defaults(&test_copy_of_wteo, &h->p);
	h->env = (struct is_gov_env){ .drv = is_states_builtin("power9"), .params = &h->p,
				      .tick_nsec = 10000000 };
	wteo_enable_device(&h->t, &h->env);
}

/* argmax never draws; the weights are used (decisions differ from teo). */
static void test_argmax_and_use(void **state)
{
	struct hand h;

	(void)state;
	hand_init(&h);
	/* intercepts send TEO to 0; row 0 (616 on 0, 68 elsewhere) picks with
	 * the draw: 0x00000000 -> state 0, 0xffffffff -> state 6 */
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 0, 0xffffffffu), 6);
	assert_true(h.call.draw_used_);
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 0, 0), 0);
	/* argmax: the diagonal of row 0 wins, no draw */
	assert_true(is_params_set(&test_copy_of_wteo, &h.p, "pick=argmax", NULL));
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 0, 0), 0);
	assert_false(h.call.draw_used_);
}

/*
 * range=chosen and trigger=timer, by hand (power9, 7 states; rows start
 * at 616 on the diagonal and 68 elsewhere).  With all intercepts in bin b,
 * idx_intercept_sum = total = 8000, so 2 * 8000 > 8000 - 0 and the scan
 * stops at i = b, where 2 * 8000 > 8000 first holds: TEO's choice is b.
 */
static void test_range_and_trigger(void **state)
{
	struct hand h;

	(void)state;
	hand_init(&h);

	/* default range: row 2 over 0..6 (sum 1024); x = 1023 falls in state 6 */
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 2, 0xffffffffu), 6);
	assert_true(h.call.draw_used_);

	/*
	 * range=chosen: row 2 over 0..2 only, sum 68 + 68 + 616 = 752.
	 * x = draw * 752 >> 32: 0xffffffff -> 751: past 68 and 68+68, in 2;
	 * x = 68 (draw = ceil(68 * 2^32 / 752) = 0x172620AF) -> state 1;
	 * x = 67 (draw one less) -> state 0.  State 1 (10 us, below
	 * RESIDENCY_THRESHOLD_NS with a polling state 0) returns before the
	 * sleep length is read; state 2 reads it (20 us).
	 */
	assert_true(is_params_set(&test_copy_of_wteo, &h.p, "range=chosen", NULL));
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 2, 0xffffffffu), 2);
	assert_true(h.call.sleep_length_read_);
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 2, 0x172620afu), 1);
	assert_false(h.call.sleep_length_read_);
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 2, 0x172620aeu), 0);
	assert_true(h.call.draw_used_);

	/*
	 * trigger=timer with range=chosen.  TEO's choice is 1.  Sleep length
	 * 30 us: the sleep-length candidate is the deepest state within it,
	 * 2 (20 us); 1 < 2, so row 1 picks over 0..1 (68 + 616 = 684):
	 * 0xffffffff -> 1, 0 -> 0.  The sleep length was read and is kept for
	 * teo_update(), although state 1 alone would not have read it.
	 */
	assert_true(is_params_set(&test_copy_of_wteo, &h.p, "trigger=timer", NULL));
	h.call.sleep_length_ns_ = 30000;
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 1, 0), 0);
	assert_true(h.call.draw_used_);
	assert_true(h.call.sleep_length_read_);
	assert_int_equal(h.t.sleep_length_ns, 30000);
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 1, 0xffffffffu), 1);
	/* sleep length 15 us: the candidate is 1 itself; no pick, no draw */
	h.call.sleep_length_ns_ = 15000;
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 1, 0), 1);
	assert_false(h.call.draw_used_);
	assert_true(h.call.sleep_length_read_);
	assert_int_equal(h.t.sleep_length_ns, 15000);
	/* a latency limit of 3 us caps the candidate at stop0 (2 us exit) */
	h.call.sleep_length_ns_ = 50000000;
	h.call.latency_req_ns = 3000;
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 2, 0xffffffffu), 2);
	assert_false(h.call.draw_used_);
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 1, 0), 0);
	assert_true(h.call.draw_used_);
	/* trigger=timer, range=reference: row 1 over 0..2 (the candidate) */
	h.call.latency_req_ns = 2147483647000LL;
	h.call.sleep_length_ns_ = 30000;
	assert_true(is_params_set(&test_copy_of_wteo, &h.p, "range=reference", NULL));
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 1, 0xffffffffu), 2);
}

/*
 * poll=avoid, by hand (power9: state 0, snooze, polls; rows start at 616
 * on the diagonal and 68 elsewhere).  The draw is taken as before.
 */
static void test_avoid_poll(void **state)
{
	struct hand h;

	(void)state;
	hand_init(&h);
	assert_true(is_params_set(&test_copy_of_wteo, &h.p, "poll=avoid", NULL));

	/*
	 * Row 0 over 1..6 (6 x 68 = 408, snooze's 616 left out): x = draw *
	 * 408 >> 32; draw 0 -> x = 0, state 1 (it was state 0 with poll=allow,
	 * test_argmax_and_use); 0xffffffff -> x = 407, state 6.
	 */
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 0, 0), 1);
	assert_true(h.call.draw_used_);
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 0, 0xffffffffu), 6);

	/*
	 * range=chosen, TEO's choice 2: row 2 over 1..2, 68 + 616 = 684.
	 * x = 68 first at draw = ceil(68 * 2^32 / 684) = 0x1973465D -> state 2;
	 * one less -> x = 67, state 1; draw 0 -> state 1, never 0.
	 */
	assert_true(is_params_set(&test_copy_of_wteo, &h.p, "range=chosen", NULL));
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 2, 0x1973465du), 2);
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 2, 0x1973465cu), 1);
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 2, 0), 1);

	/*
	 * range=chosen, TEO's choice 0: the only candidate polls, none is
	 * left, and TEO's choice stays: state 0 whatever the draw, and the
	 * draw is still taken (the random stream does not shift).
	 */
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 0, 0xffffffffu), 0);
	assert_true(h.call.draw_used_);

	/* poll=allow again: draw 0 over 0..2 (68 + 68 + 616) -> state 0 */
	assert_true(is_params_set(&test_copy_of_wteo, &h.p, "poll=allow", NULL));
	assert_int_equal(select_with(&h.t, &h.env, &h.call, 2, 0), 0);
}

/*
 * With range=chosen the pick can only make TEO's choice shallower, and
 * the later steps of teo_select() keep that order but one: a state below
 * RESIDENCY_THRESHOLD_NS (with a polling state 0) is returned without the
 * sleep length, while a deeper one may read it and fall below that state
 * (e.g. TEO's stop0 with a 9 us sleep length ends at snooze, a pick of
 * stop0_lite stays there).  Checked in lockstep on a long stream: each
 * wteo select also runs teo-6.12 on a copy of its data.  With the default
 * range the pick goes deeper past that case, and does so often.
 */
static int lockstep_deeper, lockstep_unread;

static int lockstep_select(void *st, const struct is_gov_env *env, struct is_gov_call *call,
			   bool *stop_tick)
{
	struct teo_cpu copy = *(struct teo_cpu *)st;
	struct is_gov_call c2 = *call;
	bool s2 = true;
	int t = teo_select(&copy, env, &c2, &s2);
	int w = wteo_select(st, env, call, stop_tick);

	if (w > t && env->drv->s[w].target_residency_ns < env->params->v[P_RESIDENCY_THRESHOLD_NS]
	    && !call->sleep_length_read_ && c2.sleep_length_read_)
		lockstep_unread++;
	else if (w > t)
		lockstep_deeper++;
	return w;
}

static void test_chosen_never_deeper(void **state)
{
	struct is_governor lock = test_copy_of_wteo;
	struct is_basic_params bp;
	const char *ranges[] = { "range=chosen", "range=reference" };

	(void)state;
	lock.select = lockstep_select;
	for (int k = 0; k < 2; k++) {
		struct is_sim_config c = { .states = is_states_builtin("power9"), .cpus = 2,
					   .hz = 100, .seed = 5, .gov = &lock };
		struct is_basic_gen *g;
		struct is_sim *s;

		is_params_defaults(&lock, &c.params);
		assert_true(is_params_set(&lock, &c.params, ranges[k], NULL));
		s = is_sim_new(&c, NULL);
		is_basic_params_default(&bp);
		bp.seed = 9;
		bp.irq_rate_hz = 2000;
		g = is_basic_new(&bp);
		lockstep_deeper = 0;
		lockstep_unread = 0;
		for (int i = 0; i < 100000; i++) {
			struct is_record rec;

			is_basic_next(g, &rec);
			assert_true(is_sim_feed(s, &rec, NULL));
		}
		if (k == 0) {
			assert_int_equal(lockstep_deeper, 0);
			assert_true(lockstep_unread > 10);
		} else {
			assert_true(lockstep_deeper > 1000);
		}
		is_basic_free(g);
		is_sim_free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_rows),
		cmocka_unit_test(test_update_rows),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_rows_invariant),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_argmax_and_use),
		cmocka_unit_test(test_range_and_trigger),
		cmocka_unit_test(test_chosen_never_deeper),
		cmocka_unit_test(test_avoid_poll),
		cmocka_unit_test(test_aging_rows),
		cmocka_unit_test(test_aging_reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
