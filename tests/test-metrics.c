// SPDX-License-Identifier: GPL-2.0-only
/* Tests of the metrics: ideal state, above/below, energy, latency. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>

#include <string.h>

#include "idlesim/metric_table.h"
#include "idlesim/metrics.h"
#include "../src/metrics/scorer.h"

#define NOLIM 2147483647000LL

static const struct {
	int64_t idle, lat;
	uint32_t disabled;
	int expect;
} ideal_cases[] = {
	{ 0, NOLIM, 0, 0 },              /* only snooze fits */
	{ 9999, NOLIM, 0, 0 },
	{ 10000, NOLIM, 0, 1 },          /* stop0_lite's residency, inclusive */
	{ 99999, NOLIM, 0, 3 },
	{ 100000, NOLIM, 0, 4 },
	{ 25000000, NOLIM, 0, 6 },
	{ 25000000, 50000, 0, 4 },       /* 50 us limit: stop4/stop5 out */
	{ 25000000, 0, 0, 0 },           /* limit 0: only the 0-latency snooze */
	{ 200000, NOLIM, 1u << 4, 3 },   /* stop2 disabled */
	{ 0, NOLIM, 0x5f, 5 },           /* only stop4 and stop5 enabled: the shallowest */
};

static void test_ideal(void **state)
{
	const struct is_state_table *t = is_states_builtin("power9");

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(ideal_cases); i++)
	{
		struct is_scorer c = { 0 };

		if (is_ideal_state(t, ideal_cases[i].disabled, ideal_cases[i].lat,
				   ideal_cases[i].idle) != ideal_cases[i].expect)
			fail_msg("case %zu", i);
		/* The event loop's cached form agrees. */
		if (is_ideal_cached(&c, t, ideal_cases[i].disabled, ideal_cases[i].lat,
				    ideal_cases[i].idle) != ideal_cases[i].expect)
			fail_msg("cached case %zu", i);
	}
}

static void score(struct is_metrics *m, int chosen, int64_t lres, uint32_t disabled)
{
	struct is_period_score p = {
		.chosen = chosen, .idle_ns = lres,
		.ideal = is_ideal_state(is_states_builtin("power9"), disabled, NOLIM, lres),
		.last_residency_ns = lres, .cause = IS_CAUSE_TIMER, .disabled = disabled,
		.latency_req_ns = NOLIM,
	};

	is_metrics_score(m, is_states_builtin("power9"), &p);
}

/* cpuidle_enter_state() of 6.12, worked by hand. */
static void test_above_below(void **state)
{
	struct is_metrics m;

	(void)state;
	is_metrics_init(&m);
	score(&m, 3, 40000, 0);       /* 40 us < stop1's 50 us: above */
	assert_int_equal(m.above[3], 1);
	score(&m, 0, 5000, 0);        /* snooze: 5 us - 0 < stop0_lite's 10 us: nothing */
	assert_int_equal(m.above[0] + m.below[0], 0);
	score(&m, 1, 31000, 0);       /* 31 - 1 us >= stop0's 20 us: below */
	assert_int_equal(m.below[1], 1);
	score(&m, 1, 31000, 1u << 2); /* stop0 disabled: stop1's 50 us does not fit */
	assert_int_equal(m.below[1], 1);
	score(&m, 1, 5000, 1u << 0);  /* no enabled shallower state: no above */
	assert_int_equal(m.above[1], 0);
	assert_int_equal(m.usage[1], 3);
	assert_int_equal(m.time_ns[1], 31000 + 31000 + 5000);
	/* accuracy: stop1 for 40 us: ideal stop0 (2) -> US 1 */
	assert_int_equal(m.acc[IS_ACC_MID + 1], 1);
	assert_int_equal(m.selections, 5);
}

static void test_energy(void **state)
{
	struct is_metrics m;
	struct is_period_score p = {
		.chosen = 3, .idle_ns = 100000, .last_residency_ns = 105000,
		.ideal = 4, .latency_req_ns = NOLIM,
	};

	(void)state;
	is_metrics_init(&m);
	is_metrics_score(&m, is_states_builtin("power9"), &p);
	/* 0.55 * 100000 + 11500 */
	assert_true(fabs(m.energy - 66500.0) < 1e-9);
	p.chosen = 0; /* polling: busy power, no transition */
	is_metrics_score(&m, is_states_builtin("power9"), &p);
	assert_true(fabs(m.energy - 166500.0) < 1e-9);
	assert_int_equal(m.acc[IS_ACC_MID - 4], 1); /* snooze vs ideal stop2: OS 4 */
}

static void test_latency(void **state)
{
	const struct is_state_table *t = is_states_builtin("power9");
	struct is_metrics m;
	struct is_latency_summary l;

	(void)state;
	is_metrics_init(&m);
	is_metrics_latency(&m, t, &l);
	assert_int_equal(l.count, 0);
	m.nt_wakeups[1] = 98;
	m.nt_wakeups[6] = 2;
	is_metrics_latency(&m, t, &l);
	assert_int_equal(l.count, 100);
	assert_true(fabs(l.mean_ns - 4980.0) < 1e-9);
	assert_int_equal(l.p50_ns, 1000);
	assert_int_equal(l.p99_ns, 200000);  /* rank 99 falls on stop5 */
	assert_int_equal(l.max_ns, 200000);
	m.nt_wakeups[1] = 99;
	m.nt_wakeups[6] = 1;
	is_metrics_latency(&m, t, &l);
	assert_int_equal(l.p99_ns, 1000);
}

static void test_add(void **state)
{
	struct is_metrics a, b;

	(void)state;
	is_metrics_init(&a);
	is_metrics_init(&b);
	score(&a, 2, 30000, 0);
	score(&b, 2, 30000, 0);
	score(&b, 4, 300000, 0);
	is_metrics_add(&a, &b);
	assert_int_equal(a.selections, 3);
	assert_int_equal(a.usage[2], 2);
	assert_int_equal(a.usage[4], 1);
	assert_int_equal(a.acc[IS_ACC_MID], 3);
}

/*
 * The event loop's scorer (cached per disable mask and latency limit) and
 * tally against the plain functions, on random periods over three tables:
 * the same ideal state, the same above/below verdicts, and over a whole
 * sequence the same metrics, energy to the bit.
 */
static void test_scorer_random(void **state)
{
	static const char *const tabs[] = { "power9", "power9-full", "pseries" };
	uint64_t x = 12345;

	(void)state;
	for (int t_i = 0; t_i < 3; t_i++) {
		const struct is_state_table *t = is_states_builtin(tabs[t_i]);
		struct is_scorer c = { 0 };
		struct is_metrics plain, fast;
		struct is_metrics_acc a;
		uint64_t draws = 0, reads = 0;

		is_metrics_init(&plain);
		is_metrics_acc_init(&a);
		for (int k = 0; k < 100000; k++) {
			struct is_metrics one;
			struct is_metrics_acc a1;
			struct is_period_score p;
			uint32_t disabled;
			int64_t lat, idle;
			enum is_miss want;

			x = x * 6364136223846793005ull + 1442695040888963407ull;
			disabled = (uint32_t)(x >> 20) & ((1u << t->count) - 1);
			lat = (x >> 40) % 4 == 0 ? (int64_t)((x >> 44) % 300000) : NOLIM;
			idle = (int64_t)((x >> 8) % 30000000) >> ((x >> 3) % 16);
			if ((x >> 58) == 0)
				idle = IS_TRACE_MAX_IDLE_NS;  /* the longest a trace allows */
			p = (struct is_period_score){
				.chosen = (int)((x >> 50) % (uint64_t)t->count),
				.stop_tick = (x >> 1) & 1, .tick_stopped = (x >> 2) & 1,
				.sleep_length_read = (x >> 60) & 1, .draw_used = (x >> 61) & 1,
				.idle_ns = idle, .last_residency_ns = idle + (int64_t)((x >> 30) % 3000),
				.cause = (enum is_cause)((x >> 33) % IS_CAUSE_COUNT),
				.disabled = disabled, .latency_req_ns = lat,
			};
			p.ideal = is_ideal_state(t, disabled, lat, idle);
			draws += p.draw_used;
			reads += p.sleep_length_read;
			if (is_ideal_cached(&c, t, disabled, lat, idle) != p.ideal)
				fail_msg("ideal: case %d", k);
			is_metrics_score(&plain, t, &p);
			is_metrics_acc_score(&a, &c, &p);
			/* this period alone: the verdict of is_miss_kind() */
			is_metrics_acc_init(&a1);
			is_metrics_acc_score(&a1, &c, &p);
			is_metrics_acc_finish(&a1, &one);
			want = is_miss_kind(t, disabled, p.chosen, p.last_residency_ns);
			assert_int_equal(one.above[p.chosen], want == IS_MISS_ABOVE);
			assert_int_equal(one.below[p.chosen], want == IS_MISS_BELOW);
		}
		is_metrics_acc_finish(&a, &fast);
		assert_memory_equal(&plain, &fast, sizeof(plain));
		assert_true(draws > 0 && plain.random_draws == draws);
		assert_true(reads > 0 && plain.sleep_length_reads == reads);
	}
}

/* ---- the metric table ------------------------------------------------- */

/* A hand-filled result on a 3-state table (two CPUs' worth of counts). */
static void hand_metrics(struct is_metrics *m)
{
	is_metrics_init(m);
	m->selections = 8;
	m->acc[IS_ACC_MID] = 4;          /* correct */
	m->acc[IS_ACC_MID + 1] = 2;      /* US 1 */
	m->acc[IS_ACC_MID - 2] = 2;      /* OS 2 */
	m->usage[0] = 2, m->usage[1] = 5, m->usage[2] = 1;
	m->time_ns[0] = 1000, m->time_ns[1] = 3000, m->time_ns[2] = -0;
	m->above[1] = 1, m->below[0] = 2;
	m->wakeups[IS_CAUSE_TIMER] = 6, m->wakeups[IS_CAUSE_IRQ] = 2;
	m->tick_stops = 2, m->tick_stop_requests = 3, m->sleep_length_reads = 7;
	m->random_draws = 1, m->energy = 12345.67, m->idle_ns = 4000;
	m->rejected[1] = 3;
}

static void test_table_rows(void **state)
{
	(void)state;
	/* every row readable; no two rows share a place in a writer */
	for (int w = 0; w < IS_MW_COUNT; w++) {
		bool seen[256] = { false };

		for (int i = 0; i < IS_M_COUNT; i++) {
			const struct is_metric *d = &is_metric_table[i];

			assert_non_null(d->key);
			assert_non_null(d->get);
			assert_non_null(d->help);
			if (!d->at[w])
				continue;
			assert_false(seen[d->at[w]]);
			seen[d->at[w]] = true;
			if (d->shape == IS_MSHAPE_DEPTH && (w == IS_MW_CSV || w == IS_MW_SWEEP ||
							    w == IS_MW_RFC))
				assert_non_null(d->csv);
			if (w == IS_MW_TEXT)
				assert_non_null(d->text.label);
		}
	}
}

static void test_table_csv(void **state)
{
	struct is_state_table *t = is_states_dup(is_states_builtin("power9"));
	g_autoptr(GString) h = g_string_new(NULL), v = g_string_new(NULL);
	struct is_metric_ctx c;
	struct is_metrics m;

	(void)state;
	assert_non_null(t);
	/* power9's first three states stand in for a 3-state table */
	t->count = 3;
	hand_metrics(&m);
	is_metric_ctx_init(&c, &m, t, NULL);
	is_metric_csv_header(h, IS_MW_SWEEP, t, false);
	assert_string_equal(h->str, ",selections,correct_pct,us1_pct,us2_pct,os1_pct,os2_pct,"
			    "above,below,lat_mean_ns,lat_p50_ns,lat_max_ns,tick_stop_requests,"
			    "tick_stopped,sleep_length_reads,random_draws,idle_ns,usage_s0,time_ns_s0,"
			    "usage_s1,time_ns_s1,usage_s2,time_ns_s2,rejected_s0,rejected_s1,rejected_s2");
	is_metric_csv_row(v, IS_MW_SWEEP, &c);
	assert_string_equal(v->str, ",8,50.0000,25.0000,0.0000,0.0000,25.0000,1,2,0.00,0,0,3,2,7,1,"
			    "4000,2,1000,5,3000,1,0,0,3,0");
	g_string_truncate(h, 0);
	is_metric_csv_header(h, IS_MW_CSV, t, true);
	assert_non_null(strstr(h->str, ",energy_active_ns,energy_norm,lat_mean_ns,lat_p50_ns,"
				       "lat_p99_ns,usage_"));
	is_states_free(t);
}

static void test_table_json(void **state)
{
	struct is_state_table *t = is_states_dup(is_states_builtin("power9"));
	g_autoptr(GString) s = g_string_new(NULL);
	struct is_metric_ctx c;
	struct is_metrics m, base;

	(void)state;
	t->count = 2;
	hand_metrics(&m);
	m.time_ns[2] = 0;
	is_metric_ctx_init(&c, &m, t, NULL);
	is_metric_json_object(s, &c, "");
	assert_string_equal(s->str,
		"{\n"
		"  \"selections\": 8,\n"
		"  \"accuracy\": {\"correct_pct\": 50.0000, \"us_pct\": [25.0000], \"os_pct\": [0.0000], "
		"\"correct\": 4, \"us\": [2], \"os\": [0]},\n"
		"  \"above\": 1, \"below\": 2,\n"
		"  \"states\": [\n"
		"    {\"name\": \"snooze\", \"usage\": 2, \"time_ns\": 1000, \"residency_pct\": 25.0000, "
		"\"above\": 0, \"below\": 2, \"rejected\": 0},\n"
		"    {\"name\": \"stop0_lite\", \"usage\": 5, \"time_ns\": 3000, \"residency_pct\": 75.0000, "
		"\"above\": 1, \"below\": 0, \"rejected\": 3}\n"
		"  ],\n"
		"  \"wakeups\": {\"unknown\": 0, \"timer\": 6, \"tick\": 0, \"irq\": 2, \"ipi\": 0, \"poll\": 0},\n"
		"  \"tick_stop_requests\": 3, \"tick_stopped\": 2, \"sleep_length_reads\": 7, "
		"\"random_draws\": 1, \"tick_assumed\": 0,\n"
		"  \"idle_ns\": 4000, \"energy_active_ns\": 12345.7, \"avg_idle_power\": 3.086418,\n"
		"  \"wakeup_latency\": {\"count\": 0, \"mean_ns\": 0.00, \"p50_ns\": 0, \"p99_ns\": 0, "
		"\"max_ns\": 0}\n"
		"}");
	/* normalised rows against a baseline with twice the energy */
	base = m;
	base.energy *= 2;
	is_metric_ctx_init(&c, &m, t, &base);
	g_string_truncate(s, 0);
	is_metric_json_flat(s, IS_MW_JSON_NORM, &c);
	assert_string_equal(s->str, "\"energy\": 50.00, \"latency_mean\": 100.00, \"latency_p99\": 100.00");
	is_states_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ideal),
		cmocka_unit_test(test_scorer_random),
		cmocka_unit_test(test_above_below),
		cmocka_unit_test(test_energy),
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_table_csv),
		cmocka_unit_test(test_table_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
