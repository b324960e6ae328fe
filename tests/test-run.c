// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run layer (idlesim/run.h) against the simulations built by hand: a
 * trace through one governor (the reader's batches) and through several
 * in one pass, a scenario closed loop against the sweep's own runner,
 * the seed fallback, the mode names, and which side an error is on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <glib/gstdio.h>

#include "idlesim/idlesim.h"
#include "idlesim/run.h"
#include "idlesim/synth.h"

static char *trace_path(const char *name)
{
	return g_build_filename(getenv("TRACES"), name, NULL);
}

static void test_mode_parse(void **state)
{
	static const struct {
		const char *s;
		bool ok;
		enum is_sim_mode mode;
	} cases[] = {
		{ "model", true, IS_SIM_MODEL }, { "exact", true, IS_SIM_EXACT },
		{ "Model", false, 0 }, { "", false, 0 }, { "exact ", false, 0 },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		enum is_sim_mode m = 99;

		assert_int_equal(is_run_mode_parse(cases[i].s, &m), cases[i].ok);
		if (cases[i].ok)
			assert_int_equal(m, cases[i].mode);
		else
			assert_int_equal(m, 99);
	}
}

static void test_seed(void **state)
{
	struct is_trace_header h;

	(void)state;
	is_trace_header_init(&h);
	assert_int_equal(is_run_seed(-1, &h), 1);
	assert_int_equal(is_run_seed(0, &h), 0);
	h.has_seed = true;
	h.seed = 77;
	assert_int_equal(is_run_seed(-1, &h), 77);
	assert_int_equal(is_run_seed(5, &h), 5);
	is_trace_header_clear(&h);
}

/* @path through @g by hand: is_sim_new() and is_sim_feed() per record. */
static void by_hand(const char *path, const struct is_governor *g, enum is_sim_mode mode,
		    struct is_metrics *out)
{
	struct is_trace_reader *r = is_trace_open(path, NULL);
	const struct is_trace_header *h;
	struct is_sim_config cfg = { .gov = g, .mode = mode };
	struct is_state_table *t;
	struct is_record rec;
	struct is_sim *s;

	assert_non_null(r);
	h = is_trace_reader_header(r);
	t = is_trace_states_open(path, h, NULL, &cfg.disabled, NULL);
	assert_non_null(t);
	cfg.states = t;
	cfg.cpus = h->cpus;
	cfg.hz = h->hz;
	cfg.seed = h->has_seed ? h->seed : 1;
	is_params_defaults(g, &cfg.params);
	s = is_sim_new(&cfg, NULL);
	assert_non_null(s);
	while (is_trace_next(r, &rec, NULL) > 0)
		assert_true(is_sim_feed(s, &rec, NULL));
	is_sim_total(s, out);
	is_sim_free(s);
	is_states_free(t);
	is_trace_close(r);
}

static void test_trace(void **state)
{
	static const char *const traces[] = { "basic.trace", "events.trace", "recorded.trace" };
	static const char *const govs[] = { "teo-6.12", "menu-6.12", "wteo", "ladder" };

	(void)state;
	for (size_t k = 0; k < G_N_ELEMENTS(traces); k++) {
		g_autofree char *path = trace_path(traces[k]);
		struct is_run_gov g[G_N_ELEMENTS(govs)] = { 0 };
		struct is_run_input *in;
		uint64_t records;
		int failed;

		/* all four in one pass, then each alone (the batched path) */
		for (int n = G_N_ELEMENTS(govs); n >= 1; n -= (int)G_N_ELEMENTS(govs) - 1) {
			in = is_run_open_trace(path, NULL, NULL);
			assert_non_null(in);
			for (int i = 0; i < n; i++) {
				g[i].gov = is_governor_find(govs[i]);
				is_params_defaults(g[i].gov, &g[i].params);
				g[i].seed = is_run_seed(-1, &in->hdr);
			}
			assert_true(is_run_build(in, IS_SIM_MODEL, g, n, NULL));
			assert_true(is_run_execute(in, g, n, &records, &failed, NULL));
			assert_int_equal(records, is_trace_reader_count(in->reader));
			for (int i = 0; i < n; i++) {
				struct is_metrics m;

				by_hand(path, g[i].gov, IS_SIM_MODEL, &m);
				assert_memory_equal(&m, &g[i].total, sizeof(m));
			}
			is_run_gov_clear(g, n);
			is_run_input_free(in);
		}
	}
}

static void test_workload(void **state)
{
	struct is_synth_config cfg = { .cpus = 4, .hz = 100, .seed = 9,
				       .latency_req_ns = 2147483647000LL };
	static const char *const govs[] = { "teo-6.12", "menu-6.12" };
	struct is_run_gov g[2] = { 0 };
	struct is_run_input *in;
	struct is_sweep_trace *sw;
	uint64_t records;
	int failed;

	(void)state;
	cfg.w = is_workload_find("schbench");
	assert_non_null(cfg.w);
	is_params_defaults_of(cfg.w->params, cfg.w->nparams, &cfg.params);
	assert_null(is_run_open_workload(&cfg, 0, 0, NULL, false, NULL));
	in = is_run_open_workload(&cfg, 20000, 0, NULL, true, NULL);
	assert_non_null(in);
	assert_true(g_str_has_prefix(in->hdr.source, "idlesim synth --workload schbench "));
	assert_true(g_str_has_suffix(in->hdr.source, " latency_us=2147483647"));
	assert_int_equal(in->hdr.cpus, 4);
	assert_int_equal(is_run_seed(-1, &in->hdr), 9);
	for (int i = 0; i < 2; i++) {
		g[i].gov = is_governor_find(govs[i]);
		is_params_defaults(g[i].gov, &g[i].params);
		g[i].seed = is_run_seed(-1, &in->hdr);
	}
	assert_true(is_run_build(in, IS_SIM_MODEL, g, 2, NULL));
	assert_true(is_run_execute(in, g, 2, &records, &failed, NULL));
	assert_int_equal(records, 20000);
	/* closed loop, each its own copy: as the sweep's runner makes a job */
	sw = is_sweep_workload_new(&cfg, 20000, 0, NULL, NULL);
	assert_non_null(sw);
	for (int i = 0; i < 2; i++) {
		struct is_metrics m;

		assert_true(is_sweep_run_one(sw, g[i].gov, &g[i].params, IS_SIM_MODEL, g[i].seed, &m,
					     NULL));
		assert_memory_equal(&m, &g[i].total, sizeof(m));
	}
	assert_memory_not_equal(&g[0].total, &g[1].total, sizeof(g[0].total));
	is_sweep_trace_free(sw);
	is_run_gov_clear(g, 2);
	is_run_input_free(in);
}

static void test_errors(void **state)
{
	g_autofree char *basic = trace_path("basic.trace");
	struct is_run_gov g[2] = { 0 };
	struct is_run_input *in;
	GError *err = NULL;
	uint64_t records;
	int failed;

	(void)state;
	assert_null(is_run_open_trace("/nonexistent/x.trace", NULL, &err));
	assert_non_null(strstr(err->message, "/nonexistent/x.trace"));
	g_clear_error(&err);
	/* "recorded" needs k=, which basic.trace has not: governor 1 refuses */
	in = is_run_open_trace(basic, NULL, NULL);
	g[0].gov = is_governor_find("teo-6.12");
	g[1].gov = is_governor_find("recorded");
	g[0].seed = g[1].seed = 1;
	for (int i = 0; i < 2; i++)
		is_params_defaults(g[i].gov, &g[i].params);
	assert_true(is_run_build(in, IS_SIM_MODEL, g, 2, NULL));
	assert_false(is_run_execute(in, g, 2, &records, &failed, &err));
	assert_int_equal(failed, 1);
	assert_non_null(strstr(err->message, "no recorded decision"));
	g_clear_error(&err);
	is_run_gov_clear(g, 2);
	is_run_input_free(in);
	/* alone, the batched path says the same */
	in = is_run_open_trace(basic, NULL, NULL);
	assert_true(is_run_build(in, IS_SIM_MODEL, &g[1], 1, NULL));
	assert_false(is_run_execute(in, &g[1], 1, &records, &failed, &err));
	assert_int_equal(failed, 0);
	g_clear_error(&err);
	is_run_gov_clear(&g[1], 1);
	is_run_input_free(in);
	/* a trace cut short: the input's error (-1), alone and in a pass */
	{
		g_autofree char *text = NULL, *dir = g_dir_make_tmp("test-run-XXXXXX", NULL);
		g_autofree char *cut = g_build_filename(dir, "cut.trace", NULL);
		gsize len;

		assert_true(g_file_get_contents(basic, &text, &len, NULL));
		*strstr(text, "\nend ") = 0;
		assert_true(g_file_set_contents(cut, text, -1, NULL));
		g[1].gov = is_governor_find("menu-6.12");
		is_params_defaults(g[1].gov, &g[1].params);
		for (int n = 1; n <= 2; n++) {
			in = is_run_open_trace(cut, NULL, NULL);
			assert_non_null(in);
			assert_true(is_run_build(in, IS_SIM_MODEL, g, n, NULL));
			assert_false(is_run_execute(in, g, n, &records, &failed, &err));
			assert_int_equal(failed, -1);
			assert_non_null(strstr(err->message, "cut.trace"));
			g_clear_error(&err);
			is_run_gov_clear(g, n);
			is_run_input_free(in);
		}
		g_remove(cut);
		g_rmdir(dir);
	}
}

/* A schbench scenario (2 CPUs, HZ=100, power9) through @gov, warm from @warm (NULL: cold). */
static bool warm_run(const char *gov, const char *warm, struct is_metrics *m, int64_t *off,
		     int *failed, GError **error)
{
	struct is_synth_config cfg = { .cpus = 2, .hz = 100, .seed = 5,
				       .latency_req_ns = 2147483647000LL };
	struct is_run_gov g = { 0 };
	struct is_run_input *in;
	uint64_t records;
	bool ok;

	cfg.w = is_workload_find("schbench");
	is_params_defaults_of(cfg.w->params, cfg.w->nparams, &cfg.params);
	in = is_run_open_workload(&cfg, 5000, 0, NULL, true, NULL);
	assert_non_null(in);
	in->warm_path = warm;
	g.gov = is_governor_find(gov);
	is_params_defaults(g.gov, &g.params);
	g.seed = 1;
	assert_true(is_run_build(in, IS_SIM_MODEL, &g, 1, NULL));
	ok = is_run_execute(in, &g, 1, &records, failed, error);
	if (ok) {
		assert_int_equal(records, 5000);
		*m = g.total;
		*off = in->warm_off_ns;
	}
	is_run_gov_clear(&g, 1);
	is_run_input_free(in);
	return ok;
}

/*
 * A scenario's warm start: a governor whose choice has no history (oracle)
 * gives the same metrics warm and cold (the scenario shifted by whole
 * ticks, only its own selections measured); teo's differ; an empty warm
 * trace changes nothing; a trace that does not fit is refused, naming it.
 */
static void test_warm(void **state)
{
	g_autofree char *basic = trace_path("basic.trace");
	g_autofree char *dir = g_dir_make_tmp("test-run-XXXXXX", NULL);
	g_autofree char *empty = g_build_filename(dir, "empty.trace", NULL);
	g_autofree char *wide = g_build_filename(dir, "wide.trace", NULL);
	g_autofree char *hz = g_build_filename(dir, "hz.trace", NULL);
	g_autofree char *late = g_build_filename(dir, "late.trace", NULL);
	g_autofree char *text = NULL;
	struct is_metrics cold, warm;
	GError *err = NULL;
	int64_t off;
	int failed;
	char *p;

	(void)state;
	assert_true(g_file_get_contents(basic, &text, NULL, NULL));
	p = strstr(text, "\ndata\n");
	assert_non_null(p);
	{
		g_autofree char *head = g_strndup(text, (gsize)(p - text));
		g_autofree char *e = g_strdup_printf("%s\ndata\nend 0\n", head);
		g_autofree char *w = g_strdup(e), *h = g_strdup(e);
		/* one wakeup at 2^62 ns: a scenario after it would not fit its clock */
		g_autofree char *l = g_strdup_printf("%s\ndata\nI 0 4611686018427387904 1000 1000 0 "
						     "2147483647000 500 irq\nend 1\n", head);

		assert_true(g_file_set_contents(empty, e, -1, NULL));
		memcpy(strstr(w, "cpus 2"), "cpus 4", 6);
		assert_true(g_file_set_contents(wide, w, -1, NULL));
		memcpy(strstr(h, "hz 100"), "hz 250", 6);
		assert_true(g_file_set_contents(hz, h, -1, NULL));
		assert_true(g_file_set_contents(late, l, -1, NULL));
	}

	assert_true(warm_run("oracle", NULL, &cold, &off, &failed, NULL));
	assert_true(warm_run("oracle", basic, &warm, &off, &failed, NULL));
	/* basic.trace ends 1.24 s in: the scenario starts on the next tick */
	assert_true(off > 1000000000 && off % 10000000 == 0);
	assert_memory_equal(&cold, &warm, sizeof(cold));

	assert_true(warm_run("teo-6.12", NULL, &cold, &off, &failed, NULL));
	assert_true(warm_run("teo-6.12", basic, &warm, &off, &failed, NULL));
	assert_memory_not_equal(&cold, &warm, sizeof(cold));
	assert_true(cold.selections > 0);
	assert_true(warm_run("teo-6.12", empty, &warm, &off, &failed, NULL));
	assert_int_equal(off, 0);
	assert_memory_equal(&cold, &warm, sizeof(cold));

	assert_false(warm_run("teo-6.12", wide, &warm, &off, &failed, &err));
	assert_int_equal(failed, 0);
	assert_non_null(strstr(err->message, "wide.trace: warm start: header fields"));
	assert_non_null(strstr(err->message, "4 CPUs"));
	g_clear_error(&err);
	assert_false(warm_run("teo-6.12", hz, &warm, &off, &failed, &err));
	assert_non_null(strstr(err->message, "HZ=250"));
	g_clear_error(&err);
	assert_false(warm_run("teo-6.12", late, &warm, &off, &failed, &err));
	assert_non_null(strstr(err->message, "late.trace: warm start: the trace ends at"));
	g_clear_error(&err);
	assert_false(warm_run("teo-6.12", "/nonexistent/w.trace", &warm, &off, &failed, &err));
	assert_non_null(strstr(err->message, "/nonexistent/w.trace"));
	g_clear_error(&err);
	g_remove(empty);
	g_remove(wide);
	g_remove(hz);
	g_remove(late);
	g_rmdir(dir);
}

static int bad_select(void *st, const struct is_gov_env *env, struct is_gov_call *c, bool *stop)
{
	(void)st, (void)env, (void)c, (void)stop;
	return 99;
}

/* The governor alone: one decision per idle record; a bad state is an error. */
static void test_governor_only(void **state)
{
	g_autofree char *p = trace_path("basic.trace");
	struct is_sweep_trace *t;
	static const struct is_governor bad = { .name = "bad", .select = bad_select };
	uint64_t idle = 0, n = 0;
	GError *err = NULL;

	(void)state;
	t = is_sweep_trace_load(p, NULL, &err);
	assert_non_null(t);
	for (size_t i = 0; i < t->n; i++)
		idle += t->recs[i].kind == IS_REC_IDLE;
	assert_true(is_run_governor_only(is_governor_find("teo-6.12"), t->recs, t->n, &t->hdr,
					 t->table, t->disabled, &n, &err));
	assert_int_equal(n, idle);
	assert_false(is_run_governor_only(&bad, t->recs, t->n, &t->hdr, t->table, t->disabled,
					  &n, &err));
	assert_string_equal(err->message, "record 1: governor bad returned no state");
	g_clear_error(&err);
	is_sweep_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode_parse),
		cmocka_unit_test(test_seed),
		cmocka_unit_test(test_trace),
		cmocka_unit_test(test_workload),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_warm),
		cmocka_unit_test(test_governor_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
