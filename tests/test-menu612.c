// SPDX-License-Identifier: GPL-2.0-only
/*
 * menu-6.12: hand-computed decisions and metrics, worked from
 * drivers/cpuidle/governors/menu.c of Debian's 6.12 in the comments.
 * White-box: the governor's source is included to reach its state.
 * Table power9, HZ=100 (TICK_NSEC = 10 ms).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#define is_gov_menu612 test_copy_of_menu612
#include "../src/governors/menu612.c"

#define NOLIM 2147483647000LL
#define MS 1000000LL
#define US 1000LL

struct fx {
	struct is_params p;
	struct is_gov_env env;
	struct menu_device d;
	uint64_t rng;
};

static void fx_init(struct fx *f)
{
	memset(f, 0, sizeof(*f));
	is_params_defaults(&test_copy_of_menu612, &f->p);
	f->env = (struct is_gov_env){ .drv = is_states_builtin("power9"), .params = &f->p,
				      .tick_nsec = 10 * MS };
	assert_int_equal(menu_enable_device(&f->d, &f->env), 0);
}

struct sel {
	int state;
	bool stop, read;
};

static struct sel sel(struct fx *f, int64_t sleep, int64_t delta, bool ts, int64_t lat)
{
	struct is_gov_call c = {
		.latency_req_ns = lat, .tick_stopped = ts, .sleep_length_ns_ = sleep,
		.delta_next_ns_ = delta, .rng_ = &f->rng,
	};
	struct sel r;

	r.stop = true;
	r.state = menu_select(&f->d, &f->env, &c, &r.stop);
	r.read = c.sleep_length_read_;
	return r;
}

static void refl(struct fx *f, int entered, int64_t lres, bool gt, bool pl)
{
	struct is_gov_wake w = { .entered = entered, .last_residency_ns = lres, .got_tick = gt,
				 .poll_time_limit = pl };

	f->env.last_residency_ns = lres;
	menu_reflect(&f->d, &f->env, &w);
}

static void set_intervals(struct fx *f, unsigned int us)
{
	for (unsigned i = 0; i < INTERVALS; i++)
		f->d.intervals[i] = us;
	f->env.last_residency_ns = 1; /* no UINT_MAX push */
}

static void test_sequence(void **state)
{
	struct fx f;
	struct sel r;

	(void)state;
	fx_init(&f);
	/*
	 * A. Fresh: needs_update 0 and last_residency_ns 0 -> intervals[0] =
	 * UINT_MAX.  Typical interval: UINT_MAX is above INT_MAX, the rest are
	 * 0, max 0 -> UINT_MAX: predicted 4294967295000 ns > 15 us: read the
	 * sleep length, 1 ms -> bucket 3; timer_us = (4096000 + 1e6 * 8192) /
	 * 8192000 = 1000 -> predicted 1 ms.  States up to stop2 (100 us) fit;
	 * stop4 (10 ms) does not and 1 ms < TICK: break at 4.  Predicted < TICK:
	 * keep the tick; stop2's 100 us <= delta_tick 4 ms.
	 */
	r = sel(&f, 1 * MS, 4 * MS, false, NOLIM);
	assert_int_equal(r.state, 4);
	assert_false(r.stop);
	assert_true(r.read);
	assert_int_equal(f.d.intervals[0], UINT32_MAX);
	assert_int_equal(f.d.bucket, 3);
	assert_true(f.d.next_timer_ns == 1 * MS);
	refl(&f, 4, 510 * US, false, false);
	/*
	 * B. menu_update: measured 510 us > 2 * 10 us -> 500 us.  Factor[3]:
	 * 8192 - 1024 + 1024 * 500000 / 1000000 = 7680; intervals[1] = 500.
	 * Typical interval of {UINT_MAX, 500, 0 x 6}: avg 500 / 7 = 71,
	 * variance (429^2 + 6 * 71^2) / 7 = 30612: not typical; 7 * 4 > 24, so
	 * drop 500 (thresh 499): six zeros, max 0 -> UINT_MAX.  Sleep 2 ms:
	 * timer_us = (4096000 + 2e6 * 7680) / 8192000 = 1875 -> 1.875 ms:
	 * stop2 again, tick kept.
	 */
	r = sel(&f, 2 * MS, 3 * MS, false, NOLIM);
	assert_int_equal(f.d.correction_factor[3], 7680);
	assert_int_equal(f.d.intervals[1], 500);
	assert_int_equal(f.d.interval_ptr, 2);
	assert_int_equal(r.state, 4);
	assert_false(r.stop);
	/*
	 * C. A tick wakeup with next_timer 2 ms (not > TICK): measured is the
	 * residency: 3 ms + 10 us exit -> 3 ms, clamped to next_timer 2 ms:
	 * factor[3] = 7680 - 960 + 1024 = 7744; interval 2000 us.
	 */
	refl(&f, 4, 3010 * US, true, false);
	sel(&f, 2 * MS, 3 * MS, false, NOLIM);
	assert_int_equal(f.d.correction_factor[3], 7744);
	assert_int_equal(f.d.intervals[2], 2000);
}

/* Tick already stopped: a short prediction is replaced by next_timer. */
static void test_tick_stopped(void **state)
{
	struct fx f;
	struct sel r;

	(void)state;
	fx_init(&f);
	/* 30 ms sleep: bucket 4, timer_us 30000: stop4 and stop5 fit -> 6 */
	r = sel(&f, 30 * MS, 30 * MS, true, NOLIM);
	assert_int_equal(r.state, 6);
	assert_true(r.stop);
	assert_int_equal(f.d.bucket, 4);
	/* typical 300 us with the tick stopped: the sleep length (30 ms) wins */
	fx_init(&f);
	set_intervals(&f, 300);
	r = sel(&f, 30 * MS, 30 * MS, true, NOLIM);
	assert_int_equal(r.state, 6);
}

static void test_early_returns(void **state)
{
	struct fx f;
	struct sel r;

	(void)state;
	fx_init(&f);
	/* next timer 5 us < stop0_lite's 10 us: snooze, tick kept (polling) */
	r = sel(&f, 5 * US, 5 * US, false, NOLIM);
	assert_int_equal(r.state, 0);
	assert_false(r.stop);
	r = sel(&f, 50 * MS, 5 * MS, false, 0);          /* latency_req 0 */
	assert_int_equal(r.state, 0);
	r = sel(&f, 50 * MS, 5 * MS, false, 500);        /* below stop0_lite's 1 us */
	assert_int_equal(r.state, 0);
	/* negative sleep length: delta = delta_tick = 0 -> snooze */
	r = sel(&f, -300, -300, false, NOLIM);
	assert_int_equal(r.state, 0);
	assert_true(f.d.next_timer_ns == 0);
	/* snooze disabled: no early return; stop0_lite is the first enabled */
	f.env.disabled = 1;
	r = sel(&f, 5 * US, 5 * US, false, NOLIM);
	assert_int_equal(r.state, 1);
}

static void test_typical_interval(void **state)
{
	struct fx f;
	struct sel r;

	(void)state;
	/* eight 300 us intervals: avg 300, variance 0: predicted 300 us */
	fx_init(&f);
	set_intervals(&f, 300);
	assert_int_equal(get_typical_interval(&f.d), 300);
	r = sel(&f, 50 * MS, 5 * MS, false, NOLIM);
	assert_int_equal(r.state, 4);
	assert_false(r.stop);
	/* 10 us typical: 10 us <= 15 us and the tick runs: no sleep length
	 * query (next_timer KTIME_MAX, bucket 5); stop0_lite (10 us) fits */
	fx_init(&f);
	set_intervals(&f, 10);
	r = sel(&f, 50 * MS, 5 * MS, false, NOLIM);
	assert_false(r.read);
	assert_int_equal(r.state, 1);
	assert_false(r.stop);
	assert_int_equal(f.d.bucket, 5);
	/* 8 us typical: stop0_lite (10 us) is over it, but snooze polls and
	 * stop0_lite is below 15 us with a 1 us exit latency: take it */
	fx_init(&f);
	set_intervals(&f, 8);
	r = sel(&f, 50 * MS, 5 * MS, false, NOLIM);
	assert_int_equal(r.state, 1);
	/* outliers: {1000 x 6, 50000 x 2}: avg 13250, large variance; drop
	 * above 49999: six 1000s, variance 0 -> 1000 */
	fx_init(&f);
	set_intervals(&f, 1000);
	f.d.intervals[2] = f.d.intervals[5] = 50000;
	assert_int_equal(get_typical_interval(&f.d), 1000);
	/* {1000 x 5, 50000 x 3}: the five 1000s left have variance 0 <= 400,
	 * which returns whatever the sample count */
	f.d.intervals[7] = 50000;
	assert_int_equal(get_typical_interval(&f.d), 1000);
	/* {1000 x 3, 2000 x 2, 50000 x 3}: left {1000 x 3, 2000 x 2}: avg 1400,
	 * variance 240000, 1400^2 < 36 * 240000; 5 * 4 <= 24: UINT_MAX */
	f.d.intervals[0] = f.d.intervals[1] = 2000;
	assert_int_equal(get_typical_interval(&f.d), UINT32_MAX);
}

/* The poll time limit: measured = next_timer (the timer would have come). */
static void test_poll_limit(void **state)
{
	struct fx f;

	(void)state;
	fx_init(&f);
	sel(&f, 40 * US, 4 * MS, false, NOLIM);  /* bucket 1 (40 us) */
	refl(&f, 0, 10 * US, false, true);
	sel(&f, 40 * US, 4 * MS, false, NOLIM);
	/* 8192 - 1024 + 1024 * 40000 / 40000 */
	assert_int_equal(f.d.correction_factor[1], 8192);
	assert_int_equal(f.d.intervals[1], 40);
}

/* Saturation: half-length wakeups drive factor[3] to the fixed point of
 * f - f / 8 + 512, i.e. 4103 (7680, 7232, 6840, 6497, ...). */
static void test_saturation(void **state)
{
	struct fx f;
	static const unsigned int first[] = { 7680, 7232, 6840, 6497 };

	(void)state;
	fx_init(&f);
	for (int n = 0; n < 200; n++) {
		sel(&f, 2 * MS, 3 * MS, false, NOLIM);
		if (n >= 1 && n <= 4)
			assert_int_equal(f.d.correction_factor[3], first[n - 1]);
		refl(&f, 4, 1010 * US, false, false);
	}
	assert_int_equal(f.d.correction_factor[3], 4103);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequence),
		cmocka_unit_test(test_tick_stopped),
		cmocka_unit_test(test_early_returns),
		cmocka_unit_test(test_typical_interval),
		cmocka_unit_test(test_poll_limit),
		cmocka_unit_test(test_saturation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
