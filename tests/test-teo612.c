// SPDX-License-Identifier: GPL-2.0-only
/*
 * teo-6.12: hand-computed decisions and metrics, worked from
 * drivers/cpuidle/governors/teo.c of Debian's 6.12 in the comments.
 * White-box: the governor's source is included to reach struct teo_cpu.
 * Table power9, HZ=100 (TICK_NSEC = 10 ms), no latency limit unless said.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#define is_gov_teo612 test_copy_of_teo612
#define is_gov_wteo test_copy_of_wteo
#include "../src/governors/teo612.c"

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
	is_params_defaults(&test_copy_of_teo612, &f->p);
	f->env = (struct is_gov_env){ .drv = is_states_builtin("power9"), .params = &f->p,
				      .tick_nsec = 10 * MS };
	assert_int_equal(teo_enable_device(&f->cpu, &f->env), 0);
}

struct sel {
	int state;
	bool stop, read;
};

static struct sel sel(struct fx *f, int64_t now, int64_t sleep, int64_t delta, bool ts,
		      int64_t lat)
{
	struct is_gov_call c = {
		.now_ns = now, .latency_req_ns = lat, .tick_stopped = ts,
		.sleep_length_ns_ = sleep, .delta_next_ns_ = delta, .rng_ = &f->rng,
	};
	struct sel r;

	r.stop = true;
	r.state = teo_select(&f->cpu, &f->env, &c, &r.stop);
	r.read = c.sleep_length_read_;
	return r;
}

static void refl(struct fx *f, int entered, int64_t now, int64_t lres, bool gt, bool pl)
{
	struct is_gov_wake w = { .entered = entered, .now_ns = now, .last_residency_ns = lres,
				 .got_tick = gt, .poll_time_limit = pl };

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
	 * A. First select: last_state_idx 0 (zeroed device), so teo_update()
	 * runs: time_span 0 >= sleep_length 0 -> measured = U64_MAX; only
	 * state0's residency (0) is <= sleep_length 0, so idx_timer =
	 * idx_duration = 0: hits[0] = 1024, total = 1024.
	 * Sums: idx = 6, idx0 = 0, idx_intercept_sum = 0, idx_hit_sum = 1024:
	 * 2 * 0 > 1024 - 1024 is false.  Sleep length read: 1 ms; stop5's 20 ms
	 * > 1 ms -> teo_find_shallower_state(): stop4 (10 ms > 1 ms), stop2
	 * (100 us <= 1 ms) -> 4.  tick_intercept_sum 0 <= 640.  1 ms < TICK
	 * and the tick runs: stop2's 100 us <= delta_tick 4 ms -> keep 4, and
	 * the tick is not stopped.
	 */
	r = sel(&f, 1000, 1 * MS, 4 * MS, false, NOLIM);
	assert_int_equal(r.state, 4);
	assert_false(r.stop);
	assert_true(r.read);
	assert_int_equal(f.cpu.hits[0], 1024);
	assert_int_equal(f.cpu.total, 1024);
	assert_int_equal(f.cpu.sleep_length_ns, 1 * MS);
	/* irq after 495 us; 10 us exit latency: lres = span = 505 us */
	refl(&f, 4, 1000 + 505 * US, 505 * US, false, false);
	assert_int_equal(f.cpu.time_span_ns, 505 * US);

	/*
	 * B. teo_update: 505 us < 1 ms; measured = 505 us - 10 us / 2 = 500 us.
	 * Decay: hits[0] = 1024 - 128 = 896.  Residencies <= 1 ms: states 0..4
	 * (idx_timer 4); <= 500 us: 0..4 (idx_duration 4): a hit, hits[4] =
	 * 1024, total = 1920.  Sums: idx_hit_sum = 1920 (bins 0..5), so
	 * 0 > 0 is false; sleep length 50 ms fits stop5: 6, and 50 ms >= TICK
	 * stops the tick.
	 */
	r = sel(&f, 600 * US, 50 * MS, 9400 * US, false, NOLIM);
	assert_int_equal(r.state, 6);
	assert_true(r.stop);
	assert_int_equal(f.cpu.hits[0], 896);
	assert_int_equal(f.cpu.hits[4], 1024);
	assert_int_equal(f.cpu.total, 1920);
	/* irq after 2 ms in stop5 (200 us exit) */
	refl(&f, 6, 600 * US + 2200 * US, 2200 * US, false, false);

	/*
	 * C. measured = 2.2 ms - 100 us = 2.1 ms.  Decay: hits[0] 784,
	 * hits[4] 896, total 1680.  idx_timer 6 (50 ms), idx_duration 4:
	 * an intercept, intercepts[4] = 1024, total 2704.
	 * Sums for idx 6: idx_intercept_sum 1024, idx_hit_sum 1680;
	 * 2048 > 2704 - 1680 = 1024: look shallower.  i = 5: sum 0, not >
	 * 1024 / 2; first_suitable 5.  i = 4: sum 1024, 2048 > 1024: stop2
	 * is ok and enabled -> 4.  Sleep length 50 ms fits; 100 us < TICK but
	 * tick_intercept_sum 1024 <= 1352 + 338; 50 ms >= TICK: stop the tick.
	 */
	r = sel(&f, 3 * MS, 50 * MS, 7 * MS, false, NOLIM);
	assert_int_equal(r.state, 4);
	assert_true(r.stop);
	assert_true(r.read);
	assert_int_equal(f.cpu.hits[0], 784);
	assert_int_equal(f.cpu.hits[4], 896);
	assert_int_equal(f.cpu.intercepts[4], 1024);
	assert_int_equal(f.cpu.total, 2704);

	/*
	 * D. The tick woke us (got_tick, sleep length 50 ms > TICK): a safety
	 * net, time_span = sleep_length, so the next update sees measured =
	 * U64_MAX: a hit in the sleep length's bin (6).
	 */
	refl(&f, 4, 3 * MS + 7 * MS, 7 * MS, true, false);
	assert_int_equal(f.cpu.time_span_ns, 50 * MS);
	r = sel(&f, 10 * MS, 40 * MS, 10 * MS, false, NOLIM);
	assert_int_equal(f.cpu.hits[6], 1024);
	/* total = 686 + 784 + 896 (decayed) + 1024 */
	assert_int_equal(f.cpu.total, 686 + 784 + 896 + 1024);
}

/* Candidate stop0_lite (10 us < RESIDENCY_THRESHOLD_NS) with a polling
 * state 0: the timers check is skipped, the sleep length is never read. */
static void test_lazy_query(void **state)
{
	struct fx f;
	struct sel r;

	(void)state;
	fx_init(&f);
	f.env.disabled = 0x7c; /* only snooze and stop0_lite */
	r = sel(&f, 0, 1 * MS, 4 * MS, false, NOLIM);
	assert_int_equal(r.state, 1);
	assert_false(r.stop);
	assert_false(r.read);
	assert_true(f.cpu.sleep_length_ns == INT64_MAX);
	/* With the threshold at 0 the check runs and reads the sleep length. */
	fx_init(&f);
	f.env.disabled = 0x7c;
	assert_true(is_params_set(&test_copy_of_teo612, &f.p, "residency_threshold_ns=0", NULL));
	r = sel(&f, 0, 1 * MS, 4 * MS, false, NOLIM);
	assert_int_equal(r.state, 1);
	assert_true(r.read);
}

/* Only one state enabled (idx == idx0): use it; keep the tick unless it
 * is already stopped. */
static void test_single_state(void **state)
{
	struct fx f;
	struct sel r;

	(void)state;
	fx_init(&f);
	f.env.disabled = 0x77; /* only stop1 (3) */
	r = sel(&f, 0, 100 * MS, 4 * MS, false, NOLIM);
	assert_int_equal(r.state, 3);
	assert_false(r.stop);
	assert_false(r.read);
	r = sel(&f, 10, 100 * MS, 100 * MS, true, NOLIM);
	assert_int_equal(r.state, 3);
	assert_true(r.stop);
}

/* 50 us latency limit: constraint_idx is stop2 (10 us), stop4 (100 us)
 * is over it. */
static void test_latency_limit(void **state)
{
	struct fx f;
	struct sel r;

	(void)state;
	fx_init(&f);
	r = sel(&f, 0, 1000 * MS, 10 * MS, false, 50 * US);
	assert_int_equal(r.state, 4);
	assert_true(r.stop);
	r = sel(&f, 10, 1000 * MS, 10 * MS, false, 0); /* limit 0: snooze */
	assert_int_equal(r.state, 0);
	assert_false(r.stop);
}

/*
 * Intercepts in bin 0 dominate: the candidate becomes state 0, the
 * sleep length is still read ("we have to query the sleep length here"),
 * and the tick is kept.
 */
static void test_intercepts_to_poll(void **state)
{
	struct fx f;
	struct sel r;

	(void)state;
	fx_init(&f);
	f.cpu.last_state_idx = -1;
	f.cpu.intercepts[0] = 8000;
	f.cpu.total = 8000;
	r = sel(&f, 0, 5 * MS, 4 * MS, false, NOLIM);
	assert_int_equal(r.state, 0);
	assert_false(r.stop);
	assert_true(r.read);
	assert_int_equal(f.cpu.sleep_length_ns, 5 * MS);
	/*
	 * The same with the tick already stopped: only stop4/stop5 have
	 * residencies >= TICK_NSEC, so teo_state_ok() holds for 5 only:
	 * first_suitable_idx 5; states 4..1 fail and are skipped (a candidate
	 * exists); at i = 0 the intercept sum wins but state 0 is not ok, so
	 * idx = 5.  The 5 ms sleep length is below stop4's 10 ms and, since
	 * the backport, teo_find_shallower_state() takes stop2 (4) although it
	 * fails teo_state_ok().  The tick is stopped already: return 4.
	 */
	f.cpu.last_state_idx = -1;
	r = sel(&f, 10, 5 * MS, 5 * MS, true, NOLIM);
	assert_int_equal(r.state, 4);
	assert_true(r.stop);
}

/*
 * The state dump (replay --dump-state): one select and reflect from a
 * reset.  The select finds last_state_idx -1 (no update) and reads the
 * 5 ms sleep length (stop2, 100 us .. 10 ms: bin 4); the CPU wakes on
 * that timer after 5 ms in stop2, and the next select's teo_update()
 * counts a hit in bin 4 (PULSE 1024; the decay of zeros leaves zeros):
 * hits 1024 in bin 4.  A residue: bin 1's intercepts, set to 7 between
 * the two (as a history leaves them), stay 7 through the decay
 * (7 - (7 >> 3)): total 1031.
 */
static void test_dump(void **state)
{
	struct fx f;
	g_autoptr(GString) out = g_string_new(NULL);

	(void)state;
	fx_init(&f);
	f.cpu.last_state_idx = -1;
	assert_int_equal(sel(&f, 0, 5 * MS, 5 * MS, false, NOLIM).state, 4);
	refl(&f, 4, 5 * MS + 10 * US, 5 * MS, false, false);
	f.cpu.intercepts[1] = 7;
	sel(&f, 6 * MS, 5 * MS, 4 * MS, false, NOLIM);
	teo_dump(&f.cpu, &f.env, out);
	assert_string_equal(out->str, "cpu0\nhits: 0 0 0 0 1024 0 0\nintercepts: 0 7 0 0 0 0 0\n"
				      "tick_hits: 0\ntotal: 1031\n");
}

/* A disabled candidate: teo_find_shallower_state() skips it. */
static void test_disabled(void **state)
{
	struct fx f;
	struct sel r;

	(void)state;
	fx_init(&f);
	f.env.disabled = 1u << 4; /* stop2 off */
	/* fresh: idx 6; 1 ms sleep -> stop4 no, stop2 disabled, stop1 (50 us) */
	r = sel(&f, 0, 1 * MS, 4 * MS, false, NOLIM);
	assert_int_equal(r.state, 3);
}

/* Negative sleep length (the kernel can return one): every state is too
 * deep; find_shallower walks to snooze. */
static void test_negative_sleep(void **state)
{
	struct fx f;
	struct sel r;

	(void)state;
	fx_init(&f);
	r = sel(&f, 0, -500, 4 * MS, false, NOLIM);
	assert_int_equal(r.state, 0);
	assert_false(r.stop);
	assert_true(f.cpu.sleep_length_ns == -500);
	/* The next update: time_span (now - 0) >= -500: measured U64_MAX;
	 * no residency <= -500: idx_timer = idx_duration = 0: a hit in bin 0. */
	refl(&f, 0, 7 * US, 7 * US, false, false);
	r = sel(&f, 10 * US, 1 * MS, 4 * MS, false, NOLIM);
	assert_int_equal(f.cpu.hits[0], 1024 - 128 + 1024);
}

/* Saturation: the same hit again and again converges to the fixed point
 * h - h / 8 + 1024 = h, i.e. h >> 3 == 1024: 8192 (1024, 1920, 2704, ...). */
static void test_saturation(void **state)
{
	struct fx f;
	static const unsigned int first[] = { 1024, 1920, 2704, 3390, 3991 };

	(void)state;
	fx_init(&f);
	f.cpu.last_state_idx = -1;
	for (int n = 0; n < 200; n++) {
		/* 300 us sleep length, woken by it: hit in stop2's bin (4) */
		sel(&f, n * MS, 300 * US, 4 * MS, false, NOLIM);
		refl(&f, 4, n * MS + 310 * US, 310 * US, false, false);
		if (n >= 1 && n <= 5)
			assert_int_equal(f.cpu.hits[4], first[n - 1]);
	}
	assert_int_equal(f.cpu.hits[4], 8192);
	for (int i = 0; i < 7; i++)
		if (i != 4)
			assert_int_equal(f.cpu.hits[i] + f.cpu.intercepts[i], 0);
}

/*
 * Locked in polling.  The candidate is the deepest enabled state (stop5,
 * 20 ms) before the sleep length is known, and the check compares the
 * intercepts below it with what is in its own bin and deeper:
 * 2 * idx_intercept_sum > total - idx_hit_sum, where total - idx_hit_sum
 * = idx_intercept_sum + hits[6] + intercepts[6].  Hits in shallower bins
 * cancel out.  With HZ=100 and timers under 20 ms nothing ever lands in
 * bin 6, so any intercept at all sends the CPU to the bin where the
 * intercepts' upper half starts.  If that is bin 0 the CPU polls; each
 * poll-limit wakeup is a hit in the sleep length's bin (ignored), and the
 * genuine wakeup ends a 10 us chunk, so it measures under stop0_lite's
 * 10 us: another intercept in bin 0.  Only a wakeup counted elsewhere
 * pulls it out: an intercept in a deeper bin (a genuine wakeup at 10 us
 * or later into a chunk, which the poll limit nearly rules out) or a hit
 * in bin 6 (a sleep length of 20 ms or more).  test-kernel-c shows the
 * kernel's own teo.c doing the same in a closed-loop run.
 */
static void test_poll_lock_in(void **state)
{
	struct fx f;
	struct sel r;
	int64_t t = 0;

	(void)state;
	fx_init(&f);
	/* a learnt 1 ms timer pattern (stop2's bin, saturated), one intercept */
	f.cpu.last_state_idx = -1;
	f.cpu.hits[4] = 8192;
	f.cpu.intercepts[0] = 1024;
	f.cpu.total = 8192 + 1024;
	/* 2 * 1024 > 9216 - 8192: i = 5..1 add 0, i = 0: 2048 > 1024 -> 0 */
	r = sel(&f, t, 1 * MS, 4 * MS, false, NOLIM);
	assert_int_equal(r.state, 0);
	assert_false(r.stop);
	assert_true(r.read);
	/*
	 * 60 poll-limit wakeups of 10 us each.  With no irq in between,
	 * idle_entrytime stays put and each selection reads the same 1 ms
	 * sleep length (bin 4): time_span = sleep_length, measured U64_MAX,
	 * a hit in bin 4 that stays at 8192 (8192 >> 3 = 1024).
	 * intercepts[0] decays 1024, 896, 784, ..., 8, 7 and stops at 7
	 * (7 >> 3 = 0) after 42 updates; total - idx_hit_sum = 7 and
	 * 2 * 7 > 7: still state 0.
	 */
	for (int n = 0; n < 60; n++) {
		refl(&f, 0, t + 10 * US, 10 * US, false, true);
		t += 10 * US;
		r = sel(&f, t, 1 * MS, 4 * MS, false, NOLIM);
		assert_int_equal(r.state, 0);
		assert_int_equal(f.cpu.hits[4], 8192);
	}
	assert_int_equal(f.cpu.intercepts[0], 7);
	assert_int_equal(f.cpu.total, 8192 + 7);
	/*
	 * An interrupt 4 us into the next chunk: measured 4 us < 10 us, so
	 * idx_duration 0 against idx_timer 4 (sleep length 1 ms): an
	 * intercept in bin 0 again, 7 + 1024; hits[4] only decays, to 7168.
	 */
	refl(&f, 0, t + 4 * US, 4 * US, false, false);
	t += 4 * US;
	r = sel(&f, t, 3 * MS, 3 * MS, false, NOLIM);
	assert_int_equal(r.state, 0);
	assert_int_equal(f.cpu.intercepts[0], 7 + 1024);
	assert_int_equal(f.cpu.hits[4], 7168);
	/*
	 * The way out: a poll-limit wakeup with a 50 ms sleep length, a hit
	 * in bin 6.  Decayed: intercepts[0] 1031 - 128 = 903, hits[4] 7168 -
	 * 896 = 6272; hits[6] 1024, total 8199; 2 * 903 > 8199 - 6272 = 1927
	 * is false:
	 * stop5 stays the candidate, the sleep length (49 ms) fits it, and
	 * 49 ms >= TICK stops the tick.
	 */
	f.cpu.sleep_length_ns = 50 * MS;
	refl(&f, 0, t + 10 * US, 10 * US, false, true);
	t += 10 * US;
	r = sel(&f, t, 49 * MS, 9 * MS, false, NOLIM);
	assert_int_equal(f.cpu.hits[6], 1024);
	assert_int_equal(f.cpu.total, 903 + 6272 + 1024);
	assert_int_equal(r.state, 6);
	assert_true(r.stop);
}

/*
 * The MT8196 LITTLE cluster of the linux-pm report "Regression in TEO
 * cpuidle governor between 6.6 and 6.12" (November 2025), HZ=1000, from
 * traces/mt8196-little.states: the residencies and WFI's exit latency its
 * teo_update() trace shows.  The file's other exit latencies are assumed;
 * no decision below depends on them.  The caller frees the table.
 */
static struct is_state_table *fx_report(struct fx *f, int64_t state0_sleep_length)
{
	g_autofree char *path = g_build_filename(getenv("TRACES"), "mt8196-little.states", NULL);
	struct is_state_table *t = is_states_load_file(path, NULL);

	assert_non_null(t);
	fx_init(f);
	f->env.drv = t;
	f->env.tick_nsec = 1 * MS;
	f->p.v[P_STATE0_SLEEP_LENGTH] = state0_sleep_length;
	assert_int_equal(teo_enable_device(&f->cpu, &f->env), 0);
	/* the report's bins: [0]h=7,i=7 [1]h=0,i=0 [2]h=8192,i=0 [3]h=0,i=0 */
	f->cpu.last_state_idx = -1;
	f->cpu.hits[0] = 7;
	f->cpu.intercepts[0] = 7;
	f->cpu.hits[2] = 8192;
	f->cpu.total = 7 + 7 + 8192;
	return t;
}

/*
 * The report's lock-in, from its trace.  s2idle (4295 s) is the
 * candidate and nothing ever lands in its bin; idx_intercept_sum = 7,
 * idx_hit_sum = 7 + 8192, so 2 * 7 > 8206 - 8199 = 7 and the scan stops
 * at bin 0 (2 * 7 > 7): WFI, tick kept.  4b20b07ce72f reads the sleep
 * length (62.6 ms) there.  The tick wakes the CPU 1 ms later: got_tick
 * and 62.6 ms > TICK_NSEC, so time_span = sleep_length, measured U64_MAX;
 * idx_timer = idx_duration = 2 (s2idle's residency is above 62.6 ms): a
 * hit in bin 2, which stays at 8192 (8192 - 1024 + 1024), while 7 >> 3 = 0
 * keeps bin 0 at 7/7.  The same bins every time: WFI for good, as the
 * report's trace shows (sleep_len_ns 62615312, 61615389, 60615312 ...).
 */
static void test_report_lock_in(void **state)
{
	struct fx f;
	struct sel r;
	int64_t t = 0, sleep = 62615312;
	struct is_state_table *table = fx_report(&f, 0);

	(void)state;
	for (int n = 0; n < 50; n++) {
		r = sel(&f, t, sleep, 1 * MS, false, NOLIM);
		assert_int_equal(r.state, 0);
		assert_false(r.stop);
		assert_true(r.read);
		assert_int_equal(f.cpu.sleep_length_ns, sleep);
		assert_int_equal(f.cpu.hits[0], 7);
		assert_int_equal(f.cpu.intercepts[0], 7);
		assert_int_equal(f.cpu.hits[2], 8192);
		assert_int_equal(f.cpu.hits[3] + f.cpu.intercepts[3], 0);
		assert_int_equal(f.cpu.total, 8206);
		refl(&f, 0, t + 1 * MS, 1 * MS, true, false);
		t += 1 * MS;
		sleep -= 1 * MS;
	}
	is_states_free(table);
}

/*
 * state0_sleep_length=skip, the tree before 4b20b07ce72f: the same first
 * choice (WFI, tick kept) without reading the sleep length, so
 * sleep_length_ns stays KTIME_MAX.  The tick wakeup: time_span = KTIME_MAX
 * >= sleep_length, measured U64_MAX, and every residency is <= KTIME_MAX:
 * idx_timer = idx_duration = 3, a hit in s2idle's bin.  Decayed: h0 7,
 * i0 7, h2 7168, h3 1024, total 8206; idx_hit_sum 7175, so
 * 2 * 7 > 8206 - 7175 = 1031 is false: s2idle stays the candidate, the
 * sleep length (61.6 ms) moves it to clusteroff-l (2.58 ms fits), and
 * 61.6 ms >= TICK_NSEC stops the tick.  Rafael Wysocki's explanation in
 * the thread: a tick wakeup "will be counted as a hit on the deepest
 * state".
 */
static void test_report_before_4b20b07(void **state)
{
	struct fx f;
	struct sel r;
	struct is_state_table *table = fx_report(&f, 1);

	(void)state;
	r = sel(&f, 0, 62615312, 1 * MS, false, NOLIM);
	assert_int_equal(r.state, 0);
	assert_false(r.stop);
	assert_false(r.read);
	assert_int_equal(f.cpu.sleep_length_ns, KTIME_MAX);
	refl(&f, 0, 1 * MS, 1 * MS, true, false);
	r = sel(&f, 1 * MS, 61615312, 1 * MS, false, NOLIM);
	assert_int_equal(f.cpu.hits[3], 1024);
	assert_int_equal(f.cpu.hits[2], 7168);
	assert_int_equal(f.cpu.total, 8206);
	assert_int_equal(r.state, 2);
	assert_true(r.stop);
	assert_true(r.read);
	is_states_free(table);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequence),
		cmocka_unit_test(test_lazy_query),
		cmocka_unit_test(test_single_state),
		cmocka_unit_test(test_latency_limit),
		cmocka_unit_test(test_intercepts_to_poll),
		cmocka_unit_test(test_dump),
		cmocka_unit_test(test_disabled),
		cmocka_unit_test(test_negative_sleep),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_poll_lock_in),
		cmocka_unit_test(test_report_lock_in),
		cmocka_unit_test(test_report_before_4b20b07),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
