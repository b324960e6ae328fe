/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two governors side by side on long seeded random streams that reach
 * every branch: random sleep lengths (negative, within a tick, beyond it,
 * KTIME_MAX), negative residencies and time spans (a clock that ran
 * backwards), latency limits, stopped ticks, states disabled and enabled
 * on the fly, tables with ties, a non-polling state 0, one state and
 * CPUIDLE_STATE_MAX states, in model and exact mode.  Every decision
 * (state, stop_tick, whether the sleep length was read, the random draw),
 * the final metrics and the governors' dumps must be the same.  Shared by
 * test-reference (the library against its literal ports) and
 * test-kernel-c (the library against the kernel's own files).
 */
#ifndef TESTS_REF_COMPARE_H
#define TESTS_REF_COMPARE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "idlesim/sim.h"

struct pair {
	const char *lib;
	const struct is_governor *ref;
	/* @ref's spelling of the library's params (NULL: the same); caller frees */
	char *(*ref_param)(const char *lib_param);
};


static uint64_t rnd(uint64_t *s)
{
	/* splitmix64 */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A duration spread over many decades (up to 90 ms), sometimes 0. */
static int64_t span(uint64_t *s)
{
	uint64_t r = rnd(s);
	int decade = (int)(r % 8);
	int64_t v = 1;

	for (int i = 0; i < decade; i++)
		v *= 10;
	return (int64_t)((r >> 8) % (uint64_t)(9 * v + 1));
}

struct stream {
	uint64_t s;
	int cpus, nstates;
	int64_t t;
	bool exact;
};

static void next_record(struct stream *st, struct is_record *r)
{
	uint64_t x = rnd(&st->s);

	memset(r, 0, sizeof(*r));
	r->cpu = (uint16_t)(x % (uint64_t)st->cpus);
	st->t += span(&st->s) / 4;
	r->t_ns = st->t;
	if ((x >> 8) % 64 == 0) {
		r->kind = IS_REC_STATE;
		r->kstate = (int8_t)((x >> 16) % (uint64_t)st->nstates);
		r->disable = (x >> 24) % 3 != 0;
		if ((x >> 32) % 4 == 0)
			r->cpu = IS_CPU_ALL;
		return;
	}
	r->kind = IS_REC_IDLE;
	r->idle_ns = span(&st->s);
	switch ((x >> 12) % 8) {
	case 0: r->sleep_ns = -span(&st->s); break;
	case 1: r->sleep_ns = INT64_MAX; break;
	case 2: r->sleep_ns = r->idle_ns; break;
	default: r->sleep_ns = r->idle_ns + span(&st->s); break;
	}
	r->tick_ns = (x >> 20) % 2 ? r->sleep_ns : (int64_t)((x >> 24) % 10000000);
	switch ((x >> 40) % 8) {
	case 0: r->lat_ns = 0; break;
	case 1: r->lat_ns = 1500; break;
	case 2: r->lat_ns = 20000; break;
	default: r->lat_ns = 2147483647000LL; break;
	}
	r->cause = r->idle_ns < r->sleep_ns ? 1 + (x >> 44) % (IS_CAUSE_COUNT - 1) : IS_CAUSE_TIMER;
	if ((x >> 48) % 4 == 0)
		r->flags |= IS_F_TS;
	if ((x >> 50) % 2)
		r->flags |= IS_F_NOWORK;
	/* nr_iowait_cpu() (menu of 6.1 reads it), often 0 or absent */
	if ((x >> 36) % 4 == 0) {
		r->flags |= IS_F_IOW;
		r->iowait = (uint32_t)((x >> 38) % 4);
	}
	if (!st->exact)
		return;
	r->has = IS_HAS_KSTATE | IS_HAS_KSTOP | IS_HAS_SPAN | IS_HAS_LRES | IS_HAS_GT |
		 IS_HAS_PL;
	r->kstate = (int8_t)((x >> 52) % (uint64_t)st->nstates);
	r->span_ns = r->idle_ns + span(&st->s) / 100;
	r->lres_ns = (x >> 56) % 8 == 0 ? span(&st->s) : r->idle_ns;
	if ((x >> 56) % 8 == 1) {
		/* the clock ran backwards within the pass: both negative */
		r->lres_ns = -span(&st->s);
		r->span_ns = r->lres_ns - span(&st->s) / 100;
	}
	if ((x >> 58) % 4 == 0)
		r->flags |= IS_F_GT;
	if ((x >> 60) % 8 == 0)
		r->flags |= IS_F_PL;
	if ((x >> 61) % 16 == 0)
		r->flags |= IS_F_REJ;
	if ((x >> 62) % 2) {
		r->has |= IS_HAS_DRAW;
		r->draw = (uint32_t)rnd(&st->s);
	}
}

struct log {
	GArray *d;
};

struct entry {
	int cpu, state, entered;
	bool stop, read, drew;
	uint32_t draw;
};

static void observe(void *ctx, const struct is_decision *d)
{
	struct log *l = ctx;
	struct entry e;

	/* compared with memcmp(): no stray padding bytes */
	memset(&e, 0, sizeof(e));
	e.cpu = d->cpu;
	e.state = d->state;
	e.entered = d->entered;
	e.stop = d->stop_tick;
	e.read = d->sleep_length_read;
	e.drew = d->draw_used;
	e.draw = d->draw_used ? d->draw : 0;

	g_array_append_val(l->d, e);
}

static struct is_state_table *table(const char *which)
{
	struct is_state_table *t = is_states_dup(is_states_builtin("power9"));

	if (!strcmp(which, "power9"))
		return t;
	if (!strcmp(which, "power9-full") || !strcmp(which, "pseries")) {
		is_states_free(t);
		return is_states_dup(is_states_builtin(which));
	}
	if (!strcmp(which, "one")) {
		t->count = 1;
		return t;
	}
	if (!strcmp(which, "ties")) {
		/* no polling state, repeated residencies and latencies */
		static const int64_t res[] = { 0, 0, 5000, 5000, 10000000, 10000000, 30000000 };
		static const int64_t lat[] = { 0, 1000, 1000, 1000, 20000, 20000, 100000 };

		for (int i = 0; i < 7; i++) {
			t->s[i].target_residency_ns = res[i];
			t->s[i].exit_latency_ns = lat[i];
			t->s[i].flags = 0;
		}
		return t;
	}
	/* "max": CPUIDLE_STATE_MAX states, the deepest below a 100 HZ tick */
	t->count = IS_STATE_MAX;
	for (int i = 0; i < IS_STATE_MAX; i++) {
		snprintf(t->s[i].name, sizeof(t->s[i].name), "s%d", i);
		t->s[i].target_residency_ns = i * 900000LL;
		t->s[i].exit_latency_ns = i * 1000LL;
		t->s[i].flags = i ? 0 : IS_STATE_POLLING;
		t->s[i].power = 1.0 / (i + 1);
		t->s[i].transition_energy = 0;
	}
	return t;
}

static GArray *run(const struct is_governor *g, const char *param, const struct is_state_table *t,
		   bool exact, uint64_t seed, int n, struct is_metrics *tot, GString *dump)
{
	struct is_sim_config cfg = { .states = t, .gov = g, .cpus = 3, .hz = (seed % 2) ? 100 : 250,
				     .mode = exact ? IS_SIM_EXACT : IS_SIM_MODEL, .seed = seed };
	struct stream st = { .s = seed, .cpus = 3, .nstates = t->count, .exact = exact };
	struct log l = { g_array_new(false, false, sizeof(struct entry)) };
	struct is_sim *s;
	GError *err = NULL;

	is_params_defaults(g, &cfg.params);
	if (param) {
		char **kv = g_strsplit(param, " ", -1);

		for (int i = 0; kv[i]; i++)
			assert_true(is_params_set(g, &cfg.params, kv[i], NULL));
		g_strfreev(kv);
	}
	s = is_sim_new(&cfg, &err);
	assert_non_null(s);
	is_sim_set_observer(s, observe, &l);
	for (int i = 0; i < n; i++) {
		struct is_record r;

		next_record(&st, &r);
		if (!is_sim_feed(s, &r, &err))
			fail_msg("record %d: %s", i, err->message);
	}
	is_sim_total(s, tot);
	is_sim_dump(s, dump);
	is_sim_free(s);
	return l.d;
}

/*
 * Runs @a and @b (with their metrics and dumps) must be the same; @what
 * names the case in a failure.  Frees them.  An empty @db is a governor
 * with no state to show (a kernel file without debugfs, as stock teo.c
 * built as a plugin): its dump is not compared.
 */
static void assert_same_runs(const char *what, GArray *a, GArray *b, const struct is_metrics *ma,
			     const struct is_metrics *mb, GString *da, GString *db)
{
	assert_int_equal(a->len, b->len);
	for (guint i = 0; i < a->len; i++) {
		const struct entry *x = &g_array_index(a, struct entry, i);
		const struct entry *y = &g_array_index(b, struct entry, i);

		if (memcmp(x, y, sizeof(*x)))
			fail_msg("%s: selection %u differs: cpu %d/%d state %d/%d entered %d/%d stop %d/%d read %d/%d draw %d:%u/%d:%u",
				 what, i, x->cpu, y->cpu, x->state, y->state, x->entered,
				 y->entered, x->stop, y->stop, x->read, y->read, x->drew, x->draw,
				 y->drew, y->draw);
	}
	assert_memory_equal(ma, mb, sizeof(*ma));
	if (db->len)
		assert_string_equal(da->str, db->str);
	g_array_free(a, true);
	g_array_free(b, true);
	g_string_free(da, true);
	g_string_free(db, true);
}

static void compare(const struct pair *p, const char *param, const char *tab, bool exact,
		    uint64_t seed, int n)
{
	struct is_state_table *t = table(tab);
	struct is_metrics ma, mb;
	GString *da = g_string_new(NULL), *db = g_string_new(NULL);
	char *rp = p->ref_param && param ? p->ref_param(param) : NULL;
	GArray *a = run(is_governor_find(p->lib), param, t, exact, seed, n, &ma, da);
	GArray *b = run(p->ref, rp ? rp : param, t, exact, seed, n, &mb, db);
	char *what = g_strdup_printf("%s %s table %s %s seed %" G_GUINT64_FORMAT, p->lib,
				     param ? param : "", tab, exact ? "exact" : "model", seed);

	assert_same_runs(what, a, b, &ma, &mb, da, db);
	g_free(what);
	g_free(rp);
	is_states_free(t);
}

/* Every table x param set, model and exact mode, each with its own seed. */
static void compare_all(const struct pair *p, const char *const *tabs, size_t ntabs,
			const char *const *params, size_t nparams, uint64_t seed, int n)
{
	for (size_t k = 0; k < ntabs; k++)
		for (size_t j = 0; j < nparams; j++)
			for (int exact = 0; exact < 2; exact++)
				compare(p, params[j], tabs[k], exact, seed + k * 7 + j, n);
}

static const char *const all_tables[] = { "power9", "power9-full", "pseries", "one", "ties",
					  "max" };

#endif
