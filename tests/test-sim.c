// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of the event loop with a scripted governor that records what it
 * was given.  Expected values are worked out by hand in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "idlesim/idlesim.h"

#define NOLIM 2147483647000LL
#define MAXC 16

struct seen {
	int64_t now, sleep, delta, lres_env;
	bool ts;
	uint32_t disabled;
	int64_t w_now, w_lres;
	bool w_gt, w_pl;
	uint32_t draw;
};

static struct {
	int state;
	bool stop;
	bool read_sleep;
	bool draw;
	int n, nw;
	struct seen s[MAXC];
} script;

static int scripted_select(void *st, const struct is_gov_env *env, struct is_gov_call *c,
			   bool *stop_tick)
{
	struct seen *s = &script.s[script.n < MAXC ? script.n : MAXC - 1];

	(void)st;
	s->now = c->now_ns;
	s->ts = c->tick_stopped;
	s->lres_env = env->last_residency_ns;
	s->disabled = env->disabled;
	if (script.read_sleep)
		s->sleep = is_gov_sleep_length(c, &s->delta);
	if (script.draw)
		s->draw = is_gov_random_u32(c);
	*stop_tick = script.stop;
	script.n++;
	return script.state;
}

static void scripted_reflect(void *st, const struct is_gov_env *env,
			     const struct is_gov_wake *w)
{
	struct seen *s = &script.s[script.nw < MAXC ? script.nw : MAXC - 1];

	(void)st;
	(void)env;
	s->w_now = w->now_ns;
	s->w_lres = w->last_residency_ns;
	s->w_gt = w->got_tick;
	s->w_pl = w->poll_time_limit;
	script.nw++;
}

static const struct is_governor scripted = {
	.name = "scripted",
	.select = scripted_select,
	.reflect = scripted_reflect,
};

static struct is_sim *mk(int cpus, enum is_sim_mode mode, uint64_t seed)
{
	struct is_sim_config cfg = {
		.states = is_states_builtin("power9"), .gov = &scripted, .cpus = cpus,
		.hz = 100, .mode = mode, .seed = seed,
	};
	struct is_sim *s = is_sim_new(&cfg, NULL);

	assert_non_null(s);
	memset(&script, 0, sizeof(script));
	script.read_sleep = true;
	return s;
}

static struct is_record idle(int cpu, int64_t t, int64_t sleep, int64_t tick, int64_t w,
			     enum is_cause cause)
{
	return (struct is_record){ .kind = IS_REC_IDLE, .cpu = (uint16_t)cpu, .t_ns = t,
				   .sleep_ns = sleep, .tick_ns = tick, .lat_ns = NOLIM,
				   .idle_ns = w, .cause = (uint8_t)cause };
}

/*
 * HZ=100 (TICK_NSEC 10 ms).  Idle at 0 for 25 ms till a timer; next tick in
 * 4 ms; the governor keeps the tick and picks stop1 (5 us exit latency).
 *  1: woken by the tick at 4 ms; lres 4.005 ms; resumes at 4.005 ms.
 *  2: next tick 14 ms: delta 9.995 ms; lres 10 ms; resumes at 14.005 ms.
 *  3: next tick 24 ms: same; resumes at 24.005 ms, 0.995 ms left.
 *  4: next tick 34 ms is after the timer: ends by the timer, lres 1 ms.
 * Ideal states on the time left: 25 ms and 20.995 ms -> stop5 (OS 3),
 * 10.995 ms -> stop4 (OS 2), 0.995 ms -> stop2 (OS 1).
 */
static void test_tick_retained(void **state)
{
	struct is_sim *s = mk(1, IS_SIM_MODEL, 1);
	struct is_record r = idle(0, 0, 25000000, 4000000, 25000000, IS_CAUSE_TIMER);
	const struct is_metrics *m;
	static const int64_t now[] = { 0, 4005000, 14005000, 24005000 };
	static const int64_t delta[] = { 4000000, 9995000, 9995000, 9995000 };
	static const int64_t lres[] = { 4005000, 10000000, 10000000, 1000000 };

	(void)state;
	script.state = 3;
	script.stop = false;
	assert_true(is_sim_feed(s, &r, NULL));
	assert_int_equal(script.n, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(script.s[i].now, now[i]);
		assert_int_equal(script.s[i].delta, delta[i]);
		assert_int_equal(script.s[i].sleep, 25000000 - now[i]);
		assert_false(script.s[i].ts);
		assert_int_equal(script.s[i].w_lres, lres[i]);
		assert_int_equal(script.s[i].w_now, now[i] + lres[i]);
		assert_int_equal(script.s[i].w_gt, i < 3);
		/* dev->last_residency_ns seen by the next select */
		if (i)
			assert_int_equal(script.s[i].lres_env, lres[i - 1]);
	}
	m = is_sim_cpu_metrics(s, 0);
	assert_int_equal(m->selections, 4);
	assert_int_equal(m->wakeups[IS_CAUSE_TICK], 3);
	assert_int_equal(m->wakeups[IS_CAUSE_TIMER], 1);
	assert_int_equal(m->acc[IS_ACC_MID - 3], 2);
	assert_int_equal(m->acc[IS_ACC_MID - 2], 1);
	assert_int_equal(m->acc[IS_ACC_MID - 1], 1);
	assert_int_equal(m->idle_ns, 4000000 + 9995000 * 2 + 995000);
	assert_int_equal(m->tick_stops, 0);
	is_sim_free(s);
}

/*
 * The same with the machine's tick lateness at 300 us: each tick's
 * interrupt arrives 300 us after its expiry.  The governor still sees the
 * kernel's delta_next (4 ms at first); the CPU resumes after stop1's 5 us:
 *  1: woken by the tick at 4.3 ms; lres 4.305 ms; resumes at 4.305 ms;
 *     idle_entrytime there, next tick 14 ms: delta_next 9.695 ms;
 *  2: the tick at 14.3 ms; lres 10 ms; resumes at 14.305 ms;
 *  3: the same; resumes at 24.305 ms, 0.695 ms left;
 *  4: the tick would come at 34.3 ms: ends by the timer, lres 0.7 ms.
 */
static void test_tick_late(void **state)
{
	struct is_sim_config cfg = {
		.states = is_states_builtin("power9"), .gov = &scripted, .cpus = 1,
		.hz = 100, .mode = IS_SIM_MODEL, .seed = 1, .tick_late_ns = 300000,
	};
	struct is_sim *s = is_sim_new(&cfg, NULL);
	struct is_record r = idle(0, 0, 25000000, 4000000, 25000000, IS_CAUSE_TIMER);
	static const int64_t now[] = { 0, 4305000, 14305000, 24305000 };
	static const int64_t delta[] = { 4000000, 9695000, 9695000, 9695000 };
	static const int64_t lres[] = { 4305000, 10000000, 10000000, 700000 };

	(void)state;
	assert_non_null(s);
	memset(&script, 0, sizeof(script));
	script.read_sleep = true;
	script.state = 3;
	script.stop = false;
	assert_true(is_sim_feed(s, &r, NULL));
	assert_int_equal(script.n, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(script.s[i].now, now[i]);
		assert_int_equal(script.s[i].delta, delta[i]);
		assert_int_equal(script.s[i].sleep, 25000000 - now[i]);
		assert_int_equal(script.s[i].w_lres, lres[i]);
		assert_int_equal(script.s[i].w_gt, i < 3);
	}
	is_sim_free(s);
	/* out of range: refused */
	cfg.tick_late_ns = 1000000001;
	assert_null(is_sim_new(&cfg, NULL));
}

/*
 * A recorded period holds the kernel's state's exit latency.  The kernel
 * entered stop2 (10 us) and measured 200 us, so its wakeup event came at
 * 190 us.  The model in stop2 measures 200 us; in stop0 (2 us) 192 us; in
 * stop5 (200 us) 390 us.  A record without the kernel's state is taken
 * as the wakeup (210 us in stop2); so is a record whose kernel state
 * polls.  A recorded length shorter than the exit latency gives a wakeup
 * at once.  With exit_free (a TCG guest) the record is the wakeup: 210 us.
 */
static void test_exit_latency_recorded(void **state)
{
	static const struct {
		int kstate, state;
		int64_t idle, lres;
	} c[] = {
		{ 4, 4, 200000, 200000 },
		{ 4, 2, 200000, 192000 },
		{ 4, 6, 200000, 390000 },
		{ -1, 4, 200000, 210000 },
		{ 0, 4, 200000, 210000 },
		{ 6, 3, 150000, 5000 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct is_sim *s = mk(1, IS_SIM_MODEL, 1);
		struct is_record r = idle(0, 1000, 900000, 5000000, c[i].idle, IS_CAUSE_IRQ);

		if (c[i].kstate >= 0) {
			r.has = IS_HAS_KSTATE;
			r.kstate = (uint8_t)c[i].kstate;
		}
		memset(&script, 0, sizeof(script));
		script.state = c[i].state;
		script.stop = true;
		assert_true(is_sim_feed(s, &r, NULL));
		assert_int_equal(script.nw, 1);
		assert_int_equal(script.s[0].w_lres, c[i].lres);
		is_sim_free(s);
	}
	/* a machine whose states cost nothing to leave: the record is the wakeup */
	{
		struct is_sim_config cfg = {
			.states = is_states_builtin("power9"), .gov = &scripted, .cpus = 1,
			.hz = 100, .mode = IS_SIM_MODEL, .seed = 1, .exit_free = true,
		};
		struct is_sim *s = is_sim_new(&cfg, NULL);
		struct is_record r = idle(0, 1000, 900000, 5000000, 200000, IS_CAUSE_IRQ);

		assert_non_null(s);
		r.has = IS_HAS_KSTATE;
		r.kstate = 4;
		memset(&script, 0, sizeof(script));
		script.state = 4;
		script.stop = true;
		assert_true(is_sim_feed(s, &r, NULL));
		/* and it resumes at once: no exit latency on top either */
		assert_int_equal(script.s[0].w_lres, 200000);
		assert_int_equal(script.s[0].w_now, 201000);
		is_sim_free(s);
	}
}

/*
 * A record whose kernel polled and was woken before its poll noticed the
 * limit: snooze for 18 us where cpuidle_poll_time() is 10 us (stop0_lite),
 * no overrun.  The series says so with pl=0 on a polling state, a stock
 * import with a cause other than poll: one selection, ended by the wakeup
 * at 18 us.  A record with no kernel state (a workload's) is cut at the
 * limit: a poll-limit wakeup at 10 us, then one more selection.
 */
static void test_poll_no_limit_recorded(void **state)
{
	static const struct {
		int kstate;
		bool series;
		int n;
		int64_t lres;
		bool pl;
	} c[] = {
		{ 0, true, 1, 18000, false },
		{ 0, false, 1, 18000, false },
		{ -1, false, 2, 10000, true },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct is_sim *s = mk(1, IS_SIM_MODEL, 1);
		struct is_record r = idle(0, 1000, 900000, 5000000, 18000, IS_CAUSE_IRQ);

		if (c[i].kstate >= 0) {
			r.has = IS_HAS_KSTATE | (c[i].series ? IS_HAS_PL : 0);
			r.kstate = (uint8_t)c[i].kstate;
		}
		script.state = 0;
		script.stop = false;
		assert_true(is_sim_feed(s, &r, NULL));
		assert_int_equal(script.n, c[i].n);
		assert_int_equal(script.s[0].w_lres, c[i].lres);
		assert_int_equal(script.s[0].w_pl, c[i].pl);
		is_sim_free(s);
	}
}

/*
 * A tick that expired between idle_entrytime and the select.  CPU 0,
 * HZ=100, snooze (polling) in both records, the tick kept:
 *  1: at 1000, read: sleep 5 ms, delta_next 4 ms: the tick's grid is
 *     4001000 + k * 10 ms;
 *  2: at 24003000, read: sleep 5 ms, delta_next 1 us from an entry time
 *     4 us before the select: the grid point 24001000, 2 us before the
 *     select, is this reading's own; the kernel polled 31 us, woken
 *     (pl=0), and the tick's interrupt came in it (gt=1, as the ppc64le
 *     guest's menu on hackbench recorded).  The model's tick is that
 *     point, already due: inside the poll, got_tick.  Before, it was the
 *     grid's next point after the select, 10 ms on: no got_tick.
 */
static void test_pending_tick(void **state)
{
	struct is_sim *s = mk(1, IS_SIM_MODEL, 1);
	struct is_record r1 = idle(0, 1000, 5000000, 4000000, 50000, IS_CAUSE_UNKNOWN);
	struct is_record r2 = idle(0, 24003000, 5000000, 1000, 31000, IS_CAUSE_UNKNOWN);

	(void)state;
	script.state = 0;
	script.stop = false;
	r1.has = r2.has = IS_HAS_KSTATE | IS_HAS_SLR | IS_HAS_PL | IS_HAS_GT;
	r1.kstate = r2.kstate = 0;
	r1.flags = IS_F_SLR;
	r2.flags = IS_F_SLR | IS_F_GT;
	assert_true(is_sim_feed(s, &r1, NULL));
	script.n = script.nw = 0;
	assert_true(is_sim_feed(s, &r2, NULL));
	assert_int_equal(script.n, 1);
	assert_int_equal(script.s[0].delta, 1000);
	assert_int_equal(script.s[0].w_lres, 31000);
	assert_true(script.s[0].w_gt);
	is_sim_free(s);
}

/*
 * The governor's clock at reflect: the series' record measured its pass
 * (span 108703 ns, of which lres 104026 in the state: 4677 outside it, the
 * governor and the entry and exit paths).  The model's reflect comes that
 * much after its residency: at 1000 + 104026 + 4677.  teo compares this
 * span with the sleep length (107404: a hit, as in the kernel, where the
 * residency alone would say an intercept).  A record without span (a
 * stock import's) keeps the residency alone.
 */
static void test_pass_overhead(void **state)
{
	(void)state;
	for (int v = 0; v < 2; v++) {
		struct is_sim *s = mk(1, IS_SIM_MODEL, 1);
		struct is_record r = idle(0, 1000, 107404, 107404, 104026, IS_CAUSE_UNKNOWN);

		r.has = IS_HAS_KSTATE;
		r.kstate = 4;
		if (v) {
			r.has |= IS_HAS_SPAN | IS_HAS_LRES;
			r.span_ns = 108703;
			r.lres_ns = 104026;
		}
		script.state = 4;
		script.stop = false;
		assert_true(is_sim_feed(s, &r, NULL));
		assert_int_equal(script.n, 1);
		assert_int_equal(script.s[0].w_lres, 104026);
		assert_int_equal(script.s[0].w_now, 1000 + 104026 + (v ? 4677 : 0));
		is_sim_free(s);
	}
}

/*
 * A record whose entry the kernel refused (rej=1: a task woke between
 * select and entry; call_cpuidle() returns -EBUSY, no reflect).  CPU 0
 * idles 1 ms in stop2 at 1000, then its refused pass at 2 ms, then 50 us
 * at 3 ms.  The refused pass selects (the second select) but reflects
 * nothing: two reflects in all, and the third select sees
 * last_residency_ns 0, as the kernel's cpuidle_enter_state() leaves it.
 */
static void test_rejected(void **state)
{
	struct is_sim *s = mk(1, IS_SIM_MODEL, 1);
	struct is_record r1 = idle(0, 1000, 900000, 5000000, 1000000, IS_CAUSE_TIMER);
	struct is_record r2 = idle(0, 2000000, 900000, 5000000, 0, IS_CAUSE_UNKNOWN);
	struct is_record r3 = idle(0, 3000000, 900000, 5000000, 50000, IS_CAUSE_IRQ);

	(void)state;
	script.state = 2;
	script.stop = false;
	r2.flags = IS_F_REJ;
	assert_true(is_sim_feed(s, &r1, NULL));
	assert_true(is_sim_feed(s, &r2, NULL));
	assert_true(is_sim_feed(s, &r3, NULL));
	assert_int_equal(script.n, 3);
	assert_int_equal(script.nw, 2);
	assert_int_equal(script.s[1].now, 2000000);
	assert_int_equal(script.s[2].lres_env, 0);
	assert_int_equal(script.s[1].w_now, 3000000 + 50000 + 2000);
	assert_int_equal(is_sim_cpu_metrics(s, 0)->rejected[2], 1);
	is_sim_free(s);
}

/*
 * The tick's grid, and the series' records whose governor read no sleep
 * length (they carry 0 for it and for delta_next: "not read").  CPU 0,
 * HZ=100, stop0 (2 us exit latency) in every record, the tick kept:
 *  1: at 1000, read: sleep 5 ms (a timer at 5001000), delta_next 4 ms,
 *     shorter: the tick's, whose grid is 4001000 + k * 10 ms.
 *  2: at 2 ms, not read, 100 us of idle: the timer read in 1 is 3.001 ms
 *     ahead, later than the record's wakeup (98 us, less the exit
 *     latency): the sleep length; the tick 2.001 ms ahead (4001000).
 *  3: at 6 ms, not read, 60 us: that timer has passed: the sleep length
 *     is the time to the wakeup, 58 us; the tick's next point is
 *     14001000, 8.001 ms ahead.
 *  4: at 7 ms, read: sleep 9 ms, delta_next 7.2 ms, measured from an
 *     entry time 199 us before the select (one after a poll limit shares
 *     the entry time of the one before): 14200000 is a later reading of
 *     the grid's point 14001000, and the grid stays.
 *  5: at 8 ms, not read, 50 us: the timer of 4 is 8 ms ahead; the tick
 *     6.001 ms ahead.
 *  6: at 9 ms, read: sleep and delta_next 246 us, equal: an hrtimer came
 *     before the tick, and the kernel slept 500 us all the same (the timer
 *     was cancelled).  The governor reads 246 us; the timeline's tick is
 *     the grid's, 14001000: no tick cuts the period at 246 us.
 *  7: at 10 ms, not read, 40 us, gt=1: the kernel's tick ended it, so it
 *     was due by its end: delta_next 38 us (40 less the exit latency),
 *     and the model's tick ends it there.
 */
static void test_unread_inputs(void **state)
{
	static const struct {
		int64_t t, sleep, tick, w;
		bool slr, gt;
		int64_t want_sleep, want_delta;
		bool want_gt;
	} c[] = {
		{ 1000, 5000000, 4000000, 50000, true, false, 5000000, 4000000, false },
		{ 2000000, 0, 0, 100000, false, false, 3001000, 2001000, false },
		{ 6000000, 0, 0, 60000, false, false, 58000, 8001000, false },
		{ 7000000, 9000000, 7200000, 30000, true, false, 9000000, 7200000, false },
		{ 8000000, 0, 0, 50000, false, false, 8000000, 6001000, false },
		{ 9000000, 246000, 246000, 500000, true, false, 246000, 246000, false },
		{ 10000000, 0, 0, 40000, false, true, 6000000, 38000, true },
	};
	struct is_sim *s = mk(1, IS_SIM_MODEL, 1);

	(void)state;
	script.state = 2;
	script.stop = false;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct is_record r = idle(0, c[i].t, c[i].sleep, c[i].tick, c[i].w, IS_CAUSE_UNKNOWN);

		r.has = IS_HAS_KSTATE | IS_HAS_SLR | IS_HAS_GT;
		r.kstate = 2;
		r.flags = (c[i].slr ? IS_F_SLR : 0) | (c[i].gt ? IS_F_GT : 0);
		script.n = script.nw = 0;
		assert_true(is_sim_feed(s, &r, NULL));
		assert_int_equal(script.n, 1);
		if (c[i].slr || !c[i].gt)
			assert_int_equal(script.s[0].sleep, c[i].want_sleep);
		assert_int_equal(script.s[0].delta, c[i].want_delta);
		assert_int_equal(script.s[0].w_gt, c[i].want_gt);
	}
	is_sim_free(s);
}

/*
 * Before the tick goes NOHZ one-shot (the x86_64 guests' boots): a read,
 * with the tick running, of KTIME_MAX (the clock event device has no next
 * event: periodic mode), then a record whose governor read none, 19.98 ms
 * long, which the kernel slept through (ticks came inside it without
 * ending it, got_tick 0).  CPU 0, HZ=100, stop0 (2 us exit latency), the
 * tick kept:
 *  1: at 1000, read: sleep = delta_next = KTIME_MAX - 1000, 50 us;
 *  2: at 1 ms, not read, 19.98 ms: the model places no tick (periodic
 *     mode): one selection, no got_tick, to the record's end.  Before, a
 *     tick one TICK_NSEC on cut it at 10 ms and the CPU selected again.
 *  3: at 30 ms, read: sleep 5 ms, delta_next 4 ms (NOHZ now);
 *  4: at 31 ms, not read, 19.98 ms: the tick is placed again (the grid of
 *     3: 34 and 44 ms): cut at both, got_tick, three selections.
 */
static void test_periodic_tick(void **state)
{
	static const struct {
		int64_t t, sleep, tick, w;
		bool slr;
		int selections;
		bool first_gt;
	} c[] = {
		{ 1000, INT64_MAX - 1000, INT64_MAX - 1000, 50000, true, 1, false },
		{ 1000000, 0, 0, 19980000, false, 1, false },
		{ 30000000, 5000000, 4000000, 50000, true, 1, false },
		{ 31000000, 0, 0, 19980000, false, 3, true },
	};
	struct is_sim *s = mk(1, IS_SIM_MODEL, 1);

	(void)state;
	script.state = 2;
	script.stop = false;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct is_record r = idle(0, c[i].t, c[i].sleep, c[i].tick, c[i].w, IS_CAUSE_UNKNOWN);

		r.has = IS_HAS_KSTATE | IS_HAS_SLR | IS_HAS_GT;
		r.kstate = 2;
		r.flags = c[i].slr ? IS_F_SLR : 0;
		script.n = script.nw = 0;
		assert_true(is_sim_feed(s, &r, NULL));
		assert_int_equal(script.n, c[i].selections);
		assert_int_equal(script.s[0].w_gt, c[i].first_gt);
	}
	is_sim_free(s);
}

/*
 * A record the kernel's retained tick ended.  The tick is due at 4 ms
 * (tick_ns); the machine's median tick lateness is 300 us; the kernel's
 * period lasted 4.1 ms: its tick came 100 us late.  Kept by the model
 * (stop1, 5 us exit latency, also the kernel's state), it ends the period
 * at the record's end with got_tick, one selection, whether the record
 * says tick by its cause (a stock import) or by got_tick (the series'
 * events).  Without either, the median's tick at 4.3 ms comes after the
 * record's end: no got_tick.  The record's tick ends it also where the
 * model stopped its tick (the tick's hrtimer, then armed at the next timer
 * event, fired there: tick_nohz_handler() sets got_idle_tick all the same)
 * and where the tick seems due after the record's end (4.2 ms: the kernel
 * measured *delta_next from idle_entrytime, before the select).
 */
static void test_tick_recorded(void **state)
{
	static const struct {
		enum is_cause cause;
		bool gt, stop;
		int64_t tick;
		bool w_gt;
	} c[] = {
		{ IS_CAUSE_TICK, false, false, 4000000, true },
		{ IS_CAUSE_UNKNOWN, true, false, 4000000, true },
		{ IS_CAUSE_UNKNOWN, false, false, 4000000, false },
		{ IS_CAUSE_UNKNOWN, true, true, 4000000, true },
		{ IS_CAUSE_UNKNOWN, true, false, 4200000, true },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct is_sim_config cfg = {
			.states = is_states_builtin("power9"), .gov = &scripted, .cpus = 1,
			.hz = 100, .mode = IS_SIM_MODEL, .seed = 1, .tick_late_ns = 300000,
		};
		struct is_sim *s = is_sim_new(&cfg, NULL);
		struct is_record r = idle(0, 0, 25000000, c[i].tick, 4100000, c[i].cause);

		assert_non_null(s);
		r.has = IS_HAS_KSTATE | IS_HAS_GT;
		r.kstate = 3;
		if (c[i].gt)
			r.flags |= IS_F_GT;
		memset(&script, 0, sizeof(script));
		script.state = 3;
		script.stop = c[i].stop;
		assert_true(is_sim_feed(s, &r, NULL));
		assert_int_equal(script.n, 1);
		assert_int_equal(script.s[0].w_lres, 4100000);
		assert_int_equal(script.s[0].w_gt, c[i].w_gt);
		is_sim_free(s);
	}
}

/*
 * Snooze for 50 us with the tick stopped: cpuidle_poll_time() is stop0_lite's
 * 10 us, so four poll-limit wakeups (pl set) and a final 10 us period that
 * ends by the irq (10 us is not > the limit).  The tick stays stopped.  No
 * irq comes between the selections, so idle_entrytime stays at 1000 and
 * every one sees the first one's 900 us sleep length.
 */
static void test_poll_limit(void **state)
{
	struct is_sim *s = mk(1, IS_SIM_MODEL, 1);
	struct is_record r = idle(0, 1000, 900000, 5000000, 50000, IS_CAUSE_IRQ);
	const struct is_metrics *m;

	(void)state;
	script.state = 0;
	script.stop = true;
	assert_true(is_sim_feed(s, &r, NULL));
	assert_int_equal(script.n, 5);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(script.s[i].now, 1000 + 10000 * i);
		assert_int_equal(script.s[i].w_lres, 10000);
		assert_int_equal(script.s[i].w_pl, i < 4);
		assert_int_equal(script.s[i].ts, i > 0);
		assert_int_equal(script.s[i].sleep, 900000);
		/* tick stopped: delta_next is the next event, the sleep length */
		assert_int_equal(script.s[i].delta, i ? 900000 : 5000000);
	}
	m = is_sim_cpu_metrics(s, 0);
	assert_int_equal(m->wakeups[IS_CAUSE_POLL], 4);
	assert_int_equal(m->wakeups[IS_CAUSE_IRQ], 1);
	assert_int_equal(m->nt_wakeups[0], 1);
	is_sim_free(s);
}

/*
 * The same poll with the machine's poll overrun at 5 us: each poll lasts
 * the 10 us limit plus 5 us.  Selections at 1000, 16000, 31000 and 46000;
 * at 46000 5 us are left, under 15 us, so the irq at 51000 ends the
 * fourth: three poll-limit wakeups.
 */
static void test_poll_overrun(void **state)
{
	struct is_sim_config cfg = {
		.states = is_states_builtin("power9"), .gov = &scripted, .cpus = 1,
		.hz = 100, .mode = IS_SIM_MODEL, .seed = 1, .poll_overrun_ns = 5000,
	};
	struct is_sim *s = is_sim_new(&cfg, NULL);
	struct is_record r = idle(0, 1000, 900000, 5000000, 50000, IS_CAUSE_IRQ);
	const struct is_metrics *m;

	(void)state;
	assert_non_null(s);
	memset(&script, 0, sizeof(script));
	script.state = 0;
	script.stop = true;
	assert_true(is_sim_feed(s, &r, NULL));
	assert_int_equal(script.n, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(script.s[i].now, 1000 + 15000 * i);
		assert_int_equal(script.s[i].w_lres, i < 3 ? 15000 : 5000);
		assert_int_equal(script.s[i].w_pl, i < 3);
	}
	m = is_sim_cpu_metrics(s, 0);
	assert_int_equal(m->wakeups[IS_CAUSE_POLL], 3);
	is_sim_free(s);
	/* out of range: refused */
	cfg.poll_overrun_ns = -1;
	assert_null(is_sim_new(&cfg, NULL));
}

/*
 * A record the kernel's poll limit ended (cause poll) says when this
 * CPU's poll notices its limit, whatever the machine's median overrun
 * (5 us here): polled over, it ends at the record's end with
 * poll_time_limit set.
 *  - 12 us (overrun 2 us, under the median): one selection, pl set, where
 *    the limit plus the median (15 us) would have ended it by the record's
 *    "wakeup" with pl clear;
 *  - 18 us (overrun 8 us, over the median): one selection lasting 18 us,
 *    not a cut at 15 us and a second selection for the last 3 us.
 * The same with the series' pl=1 flag on a polling kstate, cause unknown.
 * A non-polling state over such a record still ends at its end.
 */
static void test_poll_limit_recorded(void **state)
{
	struct is_sim_config cfg = {
		.states = is_states_builtin("power9"), .gov = &scripted, .cpus = 1,
		.hz = 100, .mode = IS_SIM_MODEL, .seed = 1, .poll_overrun_ns = 5000,
	};
	static const int64_t len[] = { 12000, 18000 };

	(void)state;
	for (int k = 0; k < 2; k++) {
		for (int v = 0; v < 2; v++) {
			struct is_sim *s = is_sim_new(&cfg, NULL);
			struct is_record r = idle(0, 1000, 900000, 5000000, len[k],
						  v ? IS_CAUSE_UNKNOWN : IS_CAUSE_POLL);

			assert_non_null(s);
			if (v) {
				r.kstate = 0;
				r.has |= IS_HAS_KSTATE | IS_HAS_PL;
				r.flags |= IS_F_PL;
			}
			memset(&script, 0, sizeof(script));
			script.state = 0;
			script.stop = false;
			assert_true(is_sim_feed(s, &r, NULL));
			assert_int_equal(script.n, 1);
			assert_int_equal(script.s[0].w_lres, len[k]);
			assert_true(script.s[0].w_pl);
			assert_int_equal(is_sim_cpu_metrics(s, 0)->wakeups[IS_CAUSE_POLL], 1);
			is_sim_free(s);
		}
	}
	{
		struct is_sim *s = is_sim_new(&cfg, NULL);
		struct is_record r = idle(0, 1000, 900000, 5000000, 12000, IS_CAUSE_POLL);

		memset(&script, 0, sizeof(script));
		script.state = 1;
		script.stop = false;
		assert_true(is_sim_feed(s, &r, NULL));
		assert_int_equal(script.n, 1);
		assert_false(script.s[0].w_pl);
		/* stop0_lite's 1 us exit latency on top */
		assert_int_equal(script.s[0].w_lres, 13000);
		is_sim_free(s);
	}
}

/*
 * The sleep-length floor: idle at 1000 for 50 us (irq), but the record's
 * sleep length says 5 us (a short estimate, or a timer that moved).  The
 * polls end at 11000, 21000, 31000 and 41000, no irq in between: the
 * kernel would read its timers again, and none expires before the record's
 * end at 51000, so every re-selection sees a sleep length of at least
 * 50 us from idle_entrytime (1000); the first selection keeps the
 * record's 5 us.
 */
static void test_sleep_floor(void **state)
{
	struct is_sim *s = mk(1, IS_SIM_MODEL, 1);
	struct is_record r = idle(0, 1000, 5000, 5000000, 50000, IS_CAUSE_IRQ);

	(void)state;
	script.state = 0;
	script.stop = false;
	assert_true(is_sim_feed(s, &r, NULL));
	assert_int_equal(script.n, 5);
	assert_int_equal(script.s[0].sleep, 5000);
	for (int i = 1; i < 5; i++) {
		assert_int_equal(script.s[i].now, 1000 + 10000 * i);
		assert_int_equal(script.s[i].sleep, 50000);
	}
	is_sim_free(s);
}

/*
 * Snooze with the tick kept: idle at 1000 for 50 us (irq), sleep length
 * 900 us, next tick at 26000.  Poll limits at 11000 and 21000 leave
 * idle_entrytime at 1000: the same sleep length and delta_next (25 us).
 * The tick at 26000 falls inside the third poll, which runs on to its
 * limit at 31000 (poll_idle() ignores interrupts) with got_tick set; the
 * tick's irq exit moved idle_entrytime to 26000: 875 us and 10 ms from
 * there for the fourth selection; at 41000 10 us are left, not more than
 * the limit, so the irq at 51000 ends the fifth.
 */
static void test_poll_then_tick(void **state)
{
	struct is_sim *s = mk(1, IS_SIM_MODEL, 1);
	struct is_record r = idle(0, 1000, 900000, 25000, 50000, IS_CAUSE_IRQ);
	static const int64_t now[] = { 1000, 11000, 21000, 31000, 41000 };
	static const int64_t sleep[] = { 900000, 900000, 900000, 875000, 875000 };
	static const int64_t delta[] = { 25000, 25000, 25000, 10000000, 10000000 };
	static const bool gt[] = { false, false, true, false, false };
	static const bool pl[] = { true, true, true, true, false };
	const struct is_metrics *m;

	(void)state;
	script.state = 0;
	script.stop = false;
	assert_true(is_sim_feed(s, &r, NULL));
	assert_int_equal(script.n, 5);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(script.s[i].now, now[i]);
		assert_int_equal(script.s[i].sleep, sleep[i]);
		assert_int_equal(script.s[i].delta, delta[i]);
		assert_false(script.s[i].ts);
		assert_int_equal(script.s[i].w_gt, gt[i]);
		assert_int_equal(script.s[i].w_pl, pl[i]);
		assert_int_equal(script.s[i].w_now, i < 4 ? now[i + 1] : 51000);
	}
	m = is_sim_cpu_metrics(s, 0);
	assert_int_equal(m->wakeups[IS_CAUSE_POLL], 4);
	assert_int_equal(m->wakeups[IS_CAUSE_TICK], 0);
	assert_int_equal(m->wakeups[IS_CAUSE_IRQ], 1);
	is_sim_free(s);
}

/* The tick stays stopped into the next record only after a no-work wakeup. */
static void test_nowork(void **state)
{
	struct is_sim *s = mk(1, IS_SIM_MODEL, 1);
	struct is_record r1 = idle(0, 0, 900000, 5000000, 300000, IS_CAUSE_IRQ);
	struct is_record r2 = idle(0, 400000, 500000, 4600000, 200000, IS_CAUSE_IRQ);
	struct is_record r3 = idle(0, 700000, 200000, 4300000, 100000, IS_CAUSE_TIMER);

	(void)state;
	r1.flags = IS_F_NOWORK;
	script.state = 4;
	script.stop = true;
	assert_true(is_sim_feed(s, &r1, NULL));
	assert_true(is_sim_feed(s, &r2, NULL));
	assert_true(is_sim_feed(s, &r3, NULL));
	assert_int_equal(script.n, 3);
	assert_false(script.s[0].ts);
	assert_true(script.s[1].ts);
	assert_int_equal(script.s[1].delta, 500000);
	assert_false(script.s[2].ts);
	assert_int_equal(script.s[2].delta, 4300000);
	/* stop2: 10 us exit latency is in last_residency_ns */
	assert_int_equal(script.s[0].w_lres, 310000);
	is_sim_free(s);
}

/* Exact mode hands the recorded raw inputs over verbatim. */
static void test_exact(void **state)
{
	struct is_sim *s = mk(1, IS_SIM_EXACT, 1);
	struct is_record r = idle(0, 500, -20, 7, 1234, IS_CAUSE_TICK);
	GError *err = NULL;

	(void)state;
	script.state = 2;
	script.draw = true;
	r.flags = IS_F_TS | IS_F_GT;
	r.has = IS_HAS_KSTATE | IS_HAS_SPAN | IS_HAS_LRES | IS_HAS_GT | IS_HAS_PL | IS_HAS_DRAW;
	r.kstate = 5;
	r.span_ns = 999;
	r.lres_ns = 888;
	r.draw = 4242;
	assert_true(is_sim_feed(s, &r, &err));
	assert_int_equal(script.s[0].sleep, -20);
	assert_int_equal(script.s[0].delta, 7);
	assert_true(script.s[0].ts);
	assert_int_equal(script.s[0].draw, 4242);
	assert_int_equal(script.s[0].w_now, 1499);
	assert_int_equal(script.s[0].w_lres, 888);
	assert_true(script.s[0].w_gt);
	assert_false(script.s[0].w_pl);
	/* the recorded state is the one entered */
	assert_int_equal(is_sim_cpu_metrics(s, 0)->usage[5], 1);
	/* the recorded draw used counts as a draw, the read as a read */
	assert_int_equal(is_sim_cpu_metrics(s, 0)->random_draws, 1);
	assert_int_equal(is_sim_cpu_metrics(s, 0)->sleep_length_reads, 1);
	/*
	 * A rejected selection (rej=1): the governor's choice (2) counts as
	 * rejected, no reflect, nothing entered, not a selection.
	 */
	r.t_ns = 5000;
	r.flags |= IS_F_REJ;
	assert_true(is_sim_feed(s, &r, &err));
	assert_int_equal(script.nw, 1);
	assert_int_equal(is_sim_cpu_metrics(s, 0)->rejected[2], 1);
	assert_int_equal(is_sim_cpu_metrics(s, 0)->rejected[5], 0);
	assert_int_equal(is_sim_cpu_metrics(s, 0)->selections, 1);
	assert_int_equal(is_sim_cpu_metrics(s, 0)->usage[5], 1);
	r.flags &= ~IS_F_REJ;
	r.has &= ~IS_HAS_SPAN;
	assert_false(is_sim_feed(s, &r, &err));
	assert_non_null(strstr(err->message, "'span'"));
	g_clear_error(&err);
	is_sim_free(s);
}

static void test_disable_events(void **state)
{
	struct is_sim *s = mk(2, IS_SIM_MODEL, 1);
	struct is_record off = { .kind = IS_REC_STATE, .cpu = 1, .t_ns = 0, .kstate = 4,
				 .disable = 1 };
	struct is_record all = { .kind = IS_REC_STATE, .cpu = IS_CPU_ALL, .t_ns = 0,
				 .kstate = 2, .disable = 1 };
	struct is_record r0 = idle(0, 10, 1000, 1000, 100, IS_CAUSE_IRQ);
	struct is_record r1 = idle(1, 20, 1000, 1000, 100, IS_CAUSE_IRQ);

	(void)state;
	script.state = 1;
	assert_true(is_sim_feed(s, &off, NULL));
	assert_true(is_sim_feed(s, &all, NULL));
	assert_true(is_sim_feed(s, &r0, NULL));
	assert_true(is_sim_feed(s, &r1, NULL));
	assert_int_equal(script.s[0].disabled, 1u << 2);
	assert_int_equal(script.s[1].disabled, (1u << 2) | (1u << 4));
	off.disable = 0;
	assert_true(is_sim_feed(s, &off, NULL));
	r1.t_ns = 30;
	assert_true(is_sim_feed(s, &r1, NULL));
	assert_int_equal(script.s[2].disabled, 1u << 2);
	is_sim_free(s);
}

/* A CPU's random stream depends only on (seed, cpu), not on the CPU count. */
static void test_rng_streams(void **state)
{
	uint32_t a[4], b[4];
	struct is_sim *s;

	(void)state;
	s = mk(1, IS_SIM_MODEL, 99);
	script.draw = true;
	script.state = 2;
	for (int i = 0; i < 4; i++) {
		struct is_record r = idle(0, i * 1000, 100000, 1000000, 500, IS_CAUSE_IRQ);

		assert_true(is_sim_feed(s, &r, NULL));
		a[i] = script.s[i].draw;
	}
	/* four selections that drew, then two that did not */
	script.draw = false;
	for (int i = 4; i < 6; i++) {
		struct is_record r = idle(0, i * 1000, 100000, 1000000, 500, IS_CAUSE_IRQ);

		assert_true(is_sim_feed(s, &r, NULL));
	}
	assert_int_equal(is_sim_cpu_metrics(s, 0)->selections, 6);
	assert_int_equal(is_sim_cpu_metrics(s, 0)->random_draws, 4);
	is_sim_free(s);
	s = mk(8, IS_SIM_MODEL, 99);
	script.draw = true;
	script.state = 2;
	for (int i = 0; i < 4; i++) {
		struct is_record r = idle(0, i * 1000, 100000, 1000000, 500, IS_CAUSE_IRQ);
		struct is_record o = idle(5, i * 1000 + 1, 100000, 1000000, 500, IS_CAUSE_IRQ);

		assert_true(is_sim_feed(s, &r, NULL));
		b[i] = script.s[2 * i].draw;
		assert_true(is_sim_feed(s, &o, NULL));
	}
	is_sim_free(s);
	assert_memory_equal(a, b, sizeof(a));
	assert_true(a[0] != a[1] || a[1] != a[2]);
}

static void test_bad_state(void **state)
{
	struct is_sim *s = mk(1, IS_SIM_MODEL, 1);
	struct is_record r = idle(0, 0, 100, 100, 100, IS_CAUSE_IRQ);
	GError *err = NULL;

	(void)state;
	script.state = 7;
	assert_false(is_sim_feed(s, &r, &err));
	assert_non_null(strstr(err->message, "outside 0..6"));
	g_clear_error(&err);
	is_sim_free(s);
	is_sim_free(NULL);
}

/*
 * The measurement window [400 us, 700 us): the governor is asked on all
 * three records (its history), the metrics count only the one that starts
 * at 400 us (stop2, idle 200 us, woken by an irq).  Both modes.
 */
static void test_window(void **state)
{
	for (int mode = IS_SIM_MODEL; mode <= IS_SIM_EXACT; mode++) {
		struct is_sim_config cfg = {
			.states = is_states_builtin("power9"), .gov = &scripted, .cpus = 1,
			.hz = 100, .mode = (enum is_sim_mode)mode, .seed = 1,
			.measure_from_ns = 400000, .measure_to_ns = 700000,
		};
		struct is_sim *s = is_sim_new(&cfg, NULL);
		struct is_record r[3] = {
			idle(0, 0, 900000, 5000000, 300000, IS_CAUSE_IRQ),
			idle(0, 400000, 500000, 4600000, 200000, IS_CAUSE_IRQ),
			idle(0, 700000, 200000, 4300000, 100000, IS_CAUSE_TIMER),
		};
		struct is_metrics m;

		(void)state;
		assert_non_null(s);
		memset(&script, 0, sizeof(script));
		script.state = 4;
		for (int i = 0; i < 3; i++) {
			/* exact: the kernel entered stop2, recorded lres = idle */
			r[i].has = IS_HAS_KSTATE | IS_HAS_SPAN | IS_HAS_LRES | IS_HAS_GT | IS_HAS_PL;
			r[i].kstate = 4;
			r[i].span_ns = r[i].lres_ns = r[i].idle_ns;
			assert_true(is_sim_feed(s, &r[i], NULL));
		}
		assert_int_equal(script.n, 3);
		is_sim_total(s, &m);
		assert_int_equal(m.selections, 1);
		assert_int_equal(m.usage[4], 1);
		/*
		 * The recorded 200 us hold the exit latency of the kernel's
		 * stop2: the model, entering stop2 too, measures the same
		 * (the wakeup event 10 us before the end, then 10 us out).
		 */
		assert_int_equal(m.time_ns[4], 200000);
		assert_int_equal(m.wakeups[IS_CAUSE_IRQ], 1);
		assert_int_equal(m.wakeups[IS_CAUSE_TIMER], 0);
		is_sim_free(s);
	}
}

static void test_tick_nsec(void **state)
{
	(void)state;
	assert_int_equal(is_tick_nsec(100), 10000000);
	assert_int_equal(is_tick_nsec(250), 4000000);
	assert_int_equal(is_tick_nsec(300), 3333333);
	assert_int_equal(is_tick_nsec(1000), 1000000);
	/* poll limit: stop0_lite's 10 us; stop0_lite off -> stop0's 20 us;
	 * all off -> TICK_NSEC / 16 */
	assert_int_equal(is_poll_time_limit(is_states_builtin("power9"), 0, 10000000), 10000);
	assert_int_equal(is_poll_time_limit(is_states_builtin("power9"), 2, 10000000), 20000);
	assert_int_equal(is_poll_time_limit(is_states_builtin("power9"), 0x7e, 10000000), 625000);
	assert_int_equal(is_poll_time_limit(is_states_builtin("power9"), 0x0e, 4000000), 100000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tick_retained),
		cmocka_unit_test(test_poll_limit),
		cmocka_unit_test(test_poll_overrun),
		cmocka_unit_test(test_tick_late),
		cmocka_unit_test(test_exit_latency_recorded),
		cmocka_unit_test(test_tick_recorded),
		cmocka_unit_test(test_poll_limit_recorded),
		cmocka_unit_test(test_poll_no_limit_recorded),
		cmocka_unit_test(test_unread_inputs),
		cmocka_unit_test(test_periodic_tick),
		cmocka_unit_test(test_rejected),
		cmocka_unit_test(test_pass_overhead),
		cmocka_unit_test(test_pending_tick),
		cmocka_unit_test(test_sleep_floor),
		cmocka_unit_test(test_poll_then_tick),
		cmocka_unit_test(test_nowork),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_disable_events),
		cmocka_unit_test(test_rng_streams),
		cmocka_unit_test(test_bad_state),
		cmocka_unit_test(test_tick_nsec),
		cmocka_unit_test(test_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
