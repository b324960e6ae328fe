// SPDX-License-Identifier: GPL-2.0-only
/*
 * The library's teo-6.12, menu-6.12, ladder and wteo against the kernel's
 * own files: Debian linux-source-6.12's drivers/cpuidle/governors/{teo,
 * menu,ladder}.c, and teo.c with the series of tools/kernel/patches
 * applied for wteo, extracted at build time and built unchanged into
 * plugins by `idlesim kgov build` (tests/kernel-c), run as users run them,
 * -g plugin:FILE; likewise teo-6.1 and menu-6.1 against Debian
 * linux-source-6.1's teo.c and menu.c.  Both run on the random streams of
 * ref/compare.h, with the governors' default tunables (the kernel files
 * have them as constants) except wteo's two module parameters; every
 * decision (with wteo's random draws), the final metrics and wteo's
 * debugfs weights text must be the same.
 *
 * With --bench it instead times select()+reflect() of each kernel file and
 * of the library's governor on the same inputs held in memory (the figure
 * the governors issue sets beside "the kernel's own teo.c compiled in user
 * space"): a random stream and the mixed scenario.  It checks each pair
 * made the same decisions and prints decisions/s, best of N runs.
 */
#include <time.h>
#include <unistd.h>

#include "ref/compare.h"
#include "idlesim/import.h"
#include "idlesim/synth.h"
#include "idlesim/run.h"

/*
 * The series' module parameters for the library wteo's params (wteo.c):
 * learning_rate=N is wteo_learning_rate=N, range=chosen wteo_range=1, ...
 */
static char *wteo_ref_param(const char *param)
{
	static const char *const map[][2] = {
		{ "learning_rate=", "wteo_learning_rate=" },
		{ "init_self_weight=", "wteo_init_self_weight=" },
		{ "range=reference", "wteo_range=0" }, { "range=chosen", "wteo_range=1" },
		{ "trigger=deepest", "wteo_trigger=0" }, { "trigger=timer", "wteo_trigger=1" },
		{ "poll=allow", "wteo_avoid_poll=0" }, { "poll=avoid", "wteo_avoid_poll=1" },
		{ "aging=none", "wteo_aging=0" }, { "aging=max-periodic", "wteo_aging=2" },
		{ "aging=max", "wteo_aging=1" }, { "aging=initial", "wteo_aging=3" },
		{ "aging=reset", "wteo_aging=4" }, { "aging_rate=", "wteo_aging_rate=" },
		{ "aging_period_ms=", "wteo_aging_period_ms=" },
	};
	g_auto(GStrv) kv = g_strsplit(param, " ", -1);
	GString *out = g_string_new(NULL);

	for (int i = 0; kv[i]; i++) {
		const char *v = kv[i];
		size_t k;

		for (k = 0; k < G_N_ELEMENTS(map); k++)
			if (g_str_has_prefix(v, map[k][0]))
				break;
		g_assert(k < G_N_ELEMENTS(map));
		/* a value mapped whole ("aging=max" -> "wteo_aging=1") has no rest */
		g_string_append_printf(out, "%s%s%s", i ? " " : "", map[k][1],
				       map[k][0][strlen(map[k][0]) - 1] == '=' ?
				       v + strlen(map[k][0]) : "");
	}
	return g_string_free(out, false);
}

/* The plugins of tests/kernel-c, looked up in main() */
static struct pair pairs[] = {
	{ "teo-6.12", NULL, NULL },
	{ "menu-6.12", NULL, NULL },
	{ "ladder", NULL, NULL },
	{ "wteo", NULL, wteo_ref_param },
	{ "teo-6.1", NULL, NULL },
	{ "menu-6.1", NULL, NULL },
};
static const char *const plugin_specs[] = {
	"plugin:" KC_PLUGIN_DIR "/kernel-teo-6.12.so",
	"plugin:" KC_PLUGIN_DIR "/kernel-menu-6.12.so",
	"plugin:" KC_PLUGIN_DIR "/kernel-ladder-6.12.so",
	"plugin:" KC_PLUGIN_DIR "/kernel-wteo-6.12.so:wteo",
	"plugin:" KC_PLUGIN_DIR "/kernel-teo-6.1.so",
	"plugin:" KC_PLUGIN_DIR "/kernel-menu-6.1.so",
};
#define kc_teo (*pairs[0].ref)

static const char *const defaults[] = { NULL };

static void test_teo(void **state)
{
	(void)state;
	compare_all(&pairs[0], all_tables, G_N_ELEMENTS(all_tables), defaults, 1, 301, 200000);
}

static void test_menu(void **state)
{
	(void)state;
	compare_all(&pairs[1], all_tables, G_N_ELEMENTS(all_tables), defaults, 1, 401, 200000);
}

static void test_teo61(void **state)
{
	static const char *const params[] = { NULL };

	(void)state;
	compare_all(&pairs[4], all_tables, G_N_ELEMENTS(all_tables), params, 1, 701, 200000);
}

static void test_menu61(void **state)
{
	(void)state;
	compare_all(&pairs[5], all_tables, G_N_ELEMENTS(all_tables), defaults, 1, 801, 200000);
}

static void test_ladder(void **state)
{
	/*
	 * Not "one": with a lone polling state ladder_enable_device() starts
	 * at index 1, which does not exist (the kernel's file and the
	 * library's alike); the simulator refuses that choice.
	 */
	static const char *const tabs[] = { "power9", "power9-full", "pseries", "ties", "max" };

	(void)state;
	compare_all(&pairs[2], tabs, G_N_ELEMENTS(tabs), defaults, 1, 501, 200000);
}

static void test_wteo(void **state)
{
	/* the module parameters; the rest are constants in teo.c */
	static const char *const params[] = { NULL, "learning_rate=51", "learning_rate=1024",
					      "learning_rate=1", "init_self_weight=0",
					      "init_self_weight=1024", "range=chosen",
					      "range=chosen learning_rate=1024", "trigger=timer",
					      "trigger=timer range=chosen", "poll=avoid",
					      "poll=avoid range=chosen", "aging=max",
					      "aging=max aging_rate=1024",
					      "aging=max-periodic aging_period_ms=1",
					      "aging=initial aging_period_ms=1 aging_rate=256",
					      "aging=initial aging_period_ms=1000 aging_rate=1024",
					      "aging=reset", "aging=reset learning_rate=1" };
	static const char *const tabs[] = { "power9", "power9-full", "ties", "max" };

	(void)state;
	compare_all(&pairs[3], tabs, G_N_ELEMENTS(tabs), params, G_N_ELEMENTS(params), 601,
		    50000);
}

/*
 * Closed loop: a scenario generated and simulated together, each decision
 * moving the workload (exit latencies delay the work, kept ticks wake the
 * CPU), so equal decisions throughout mean equal runs.  Realistic inputs
 * for the RFC report's scenarios, beside the random streams' corners.
 */
static GArray *run_synth_on(const struct is_governor *g, const char *gparam,
			    const char *workload, const char *wparams, int64_t latency_req_ns,
			    uint64_t seed, uint64_t periods, const struct is_state_table *t, int hz,
			    struct is_metrics *tot, GString *dump)
{
	struct is_synth_config scfg = { .w = is_workload_find(workload), .cpus = 4, .hz = hz,
					.seed = seed, .latency_req_ns = latency_req_ns };
	struct is_synth_bounded b = { .periods = periods };
	struct is_sim_config cfg = { .gov = g, .cpus = 4, .hz = hz, .seed = 7 };
	struct log l = { g_array_new(false, false, sizeof(struct entry)) };
	struct is_source src;
	struct is_sim *s;
	GError *err = NULL;

	assert_non_null(scfg.w);
	is_params_defaults_of(scfg.w->params, scfg.w->nparams, &scfg.params);
	if (wparams)
		assert_true(is_params_set_of("workload", workload, scfg.w->params,
					     scfg.w->nparams, &scfg.params, wparams, NULL));
	cfg.states = t;
	cfg.disabled = is_states_default_disabled(cfg.states);
	is_params_defaults(g, &cfg.params);
	if (gparam)
		assert_true(is_params_set(g, &cfg.params, gparam, NULL));
	b.g = is_synth_new(&scfg, &err);
	assert_non_null(b.g);
	s = is_sim_new(&cfg, &err);
	assert_non_null(s);
	is_sim_set_observer(s, observe, &l);
	is_source_from_synth_bounded(&src, &b);
	if (!is_sim_run(s, &src, &err))
		fail_msg("%s: %s", workload, err->message);
	is_sim_total(s, tot);
	is_sim_dump(s, dump);
	is_sim_free(s);
	is_synth_free(b.g);
	return l.d;
}

/* run_synth_on() on power9 at HZ=100 */
static GArray *run_synth(const struct is_governor *g, const char *gparam, const char *workload,
			 const char *wparams, int64_t latency_req_ns, uint64_t seed,
			 uint64_t periods, struct is_metrics *tot, GString *dump)
{
	return run_synth_on(g, gparam, workload, wparams, latency_req_ns, seed, periods,
			    is_states_builtin("power9"), 100, tot, dump);
}

static void test_closed_loop(void **state)
{
	static const struct {
		const char *workload, *wparams;
		int64_t latency_req_ns;
	} cases[] = {
		{ "schbench", "threads=8", 2147483647000LL },
		{ "schbench", "waker=cpu0", 2147483647000LL },
		{ "ebizzy-sleep", NULL, 2147483647000LL },
		{ "pgbench", "clients=32", 2147483647000LL },
		{ "hackbench", NULL, 2147483647000LL },
		{ "mixed", NULL, 2147483647000LL },
		{ "idle", NULL, 2147483647000LL },
		{ "mixed", NULL, 20000 },
	};

	/* every pair with its defaults, then wteo with its variant params */
	static const struct {
		const struct pair *p;
		const char *param;
	} runs[] = {
		{ &pairs[0], NULL }, { &pairs[1], NULL }, { &pairs[2], NULL }, { &pairs[3], NULL },
		{ &pairs[4], NULL }, { &pairs[5], NULL },
		{ &pairs[3], "range=chosen" }, { &pairs[3], "trigger=timer" },
		{ &pairs[3], "poll=avoid" },
	};

	(void)state;
	for (size_t r = 0; r < G_N_ELEMENTS(runs); r++)
		for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
			const struct pair *p = runs[r].p;
			const char *gparam = runs[r].param;
			struct is_metrics ma, mb;
			GString *da = g_string_new(NULL), *db = g_string_new(NULL);
			GArray *a = run_synth(is_governor_find(p->lib), gparam, cases[c].workload,
					      cases[c].wparams, cases[c].latency_req_ns, 7, 150000,
					      &ma, da);
			g_autofree char *rp = p->ref_param && gparam ? p->ref_param(gparam) : NULL;
			GArray *b = run_synth(p->ref, rp ? rp : gparam, cases[c].workload,
					      cases[c].wparams, cases[c].latency_req_ns, 7, 150000,
					      &mb, db);
			char *what = g_strdup_printf("%s%s%s on %s %s", p->lib, gparam ? " " : "",
						     gparam ? gparam : "", cases[c].workload,
						     cases[c].wparams ? cases[c].wparams : "");

			assert_true(a->len >= 150000);  /* a selection per period at least */
			assert_same_runs(what, a, b, &ma, &mb, da, db);
			g_free(what);
		}
}

/*
 * Every bundled trace (traces' .trace files: the QEMU recordings, the
 * samples), in model mode and, where it records the kernel's decisions
 * (the QEMU ones), in exact mode, through each port and its kernel file's
 * plugin in one run: the same decisions, metrics and dumps.
 */
static void test_bundled_traces(void **state)
{
	g_autoptr(GDir) d = g_dir_open(getenv("TRACES"), 0, NULL);
	const char *name;
	int ntraces = 0, nexact = 0;

	(void)state;
	assert_non_null(d);
	while ((name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(getenv("TRACES"), name, NULL);

		if (!g_str_has_suffix(name, ".trace"))
			continue;
		ntraces++;
		for (size_t p = 0; p < G_N_ELEMENTS(pairs); p++)
			for (int exact = 0; exact < 2; exact++) {
				struct log l[2] = { { g_array_new(false, false, sizeof(struct entry)) },
						    { g_array_new(false, false, sizeof(struct entry)) } };
				struct is_run_gov g[2] = {
					{ .gov = is_governor_find(pairs[p].lib), .seed = 1,
					  .observer = observe, .observer_ctx = &l[0] },
					{ .gov = pairs[p].ref, .seed = 1, .observer = observe,
					  .observer_ctx = &l[1] },
				};
				struct is_run_input *in = is_run_open_trace(path, NULL, NULL);
				GString *da = g_string_new(NULL), *db = g_string_new(NULL);
				char *what = g_strdup_printf("%s on %s, %s mode", pairs[p].lib, name,
							     exact ? "exact" : "model");
				uint64_t records;
				GError *err = NULL;
				int failed;

				assert_non_null(in);
				is_params_defaults(g[0].gov, &g[0].params);
				is_params_defaults(g[1].gov, &g[1].params);
				if (!is_run_build(in, exact ? IS_SIM_EXACT : IS_SIM_MODEL, g, 2, &err) ||
				    !is_run_execute(in, g, 2, &records, &failed, &err)) {
					/* a trace without k= cannot be replayed exactly */
					if (!exact || !strstr(err->message, "'k' is required"))
						fail_msg("%s: %s", what, err->message);
					g_error_free(err);
					g_array_free(l[0].d, true);
					g_array_free(l[1].d, true);
					g_string_free(da, true);
					g_string_free(db, true);
					g_free(what);
					is_run_gov_clear(g, 2);
					is_run_input_free(in);
					continue;
				}
				nexact += exact;
				assert_true(l[0].d->len > 0);
				is_sim_dump(g[0].sim, da);
				is_sim_dump(g[1].sim, db);
				assert_same_runs(what, l[0].d, l[1].d, &g[0].total, &g[1].total, da, db);
				g_free(what);
				is_run_gov_clear(g, 2);
				is_run_input_free(in);
			}
	}
	assert_true(ntraces >= 10);
	/* the eight QEMU recordings, through every pair */
	assert_true(nexact >= 8 * (int)G_N_ELEMENTS(pairs));
}

/*
 * teo-6.12 locked in polling (test-teo612's test_poll_lock_in): with this
 * seed two of the four CPUs of mixed spend nearly all of the 30,000
 * periods polling, re-selecting snooze at every 10 us poll limit (25
 * selections per period).  The kernel's teo.c does the same, selection for
 * selection.
 */
static void test_poll_lock_in(void **state)
{
	struct is_metrics ma, mb;
	GString *da = g_string_new(NULL), *db = g_string_new(NULL);
	GArray *a = run_synth(is_governor_find("teo-6.12"), NULL, "mixed", NULL,
			      2147483647000LL, 1, 30000, &ma, da);
	GArray *b = run_synth(&kc_teo, NULL, "mixed", NULL, 2147483647000LL, 1, 30000, &mb,
			      db);

	(void)state;
	/* with seed 7 (test_closed_loop) about 1.3 selections per period */
	assert_true(a->len > 10 * 30000);
	assert_true(ma.wakeups[IS_CAUSE_POLL] > 9 * 30000);
	assert_same_runs("teo-6.12 on mixed seed 1", a, b, &ma, &mb, da, db);
}

/*
 * The linux-pm report of an idle 6.12 machine staying in WFI
 * (docs/governors.md): its MT8196 table at HZ=1000, the idle scenario, seed 1, 4 CPUs
 * for about 300 s each.  CPUs lock into WFI with the tick kept (about 1000
 * selections a second) and the kernel's teo.c makes the same selections.
 */
static void test_report_mt8196(void **state)
{
	g_autofree char *path = g_build_filename(getenv("TRACES"), "mt8196-little.states", NULL);
	struct is_state_table *t = is_states_load_file(path, NULL);
	struct is_metrics ma, mb;
	GString *da = g_string_new(NULL), *db = g_string_new(NULL);
	GArray *a, *b;

	(void)state;
	assert_non_null(t);
	a = run_synth_on(is_governor_find("teo-6.12"), NULL, "idle", NULL, 2147483647000LL, 1,
			 2400, t, 1000, &ma, da);
	b = run_synth_on(&kc_teo, NULL, "idle", NULL, 2147483647000LL, 1, 2400, t, 1000, &mb, db);
	/* unlocked, a selection or two per period; locked, one per tick */
	assert_true(a->len > 100 * 2400);
	assert_true(ma.usage[0] * 10 > (uint64_t)a->len * 9);
	assert_same_runs("teo-6.12 on idle, mt8196-little, HZ=1000", a, b, &ma, &mb, da, db);
	is_states_free(t);
}

/*
 * Passes whose clock ran backwards (a negative last_residency_ns and time
 * span, as a loaded QEMU guest records them): the hand-made captures
 * tests/data/cpuidle-events-backwards-GOV.txt, imported as the validation
 * imports the guest's, replayed exactly through the kernel's own file and
 * the library's port.  Both must make the recorded decisions (k=, stop=,
 * slr=), selection for selection.  With the two backwards passes' lres and
 * span put to 0, as the importer once clamped them, the kernel's teo.c,
 * menu.c and the series' teo.c decide otherwise at least once (ladder.c
 * does not: last_residency_ns minus the exit latency is negative either
 * way), so the captures do test the verbatim values.
 */
struct backwards_log {
	GArray *d;
	int mismatches;
};

static void backwards_observe(void *ctx, const struct is_decision *d)
{
	struct backwards_log *l = ctx;
	const struct is_record *r = d->rec;
	int rec[5] = { d->state, d->stop_tick, d->sleep_length_read, d->draw_used,
		       (int)(d->draw_used ? d->draw : 0) };

	g_array_append_vals(l->d, rec, 5);
	if (d->state != r->kstate || d->stop_tick != !!(r->flags & IS_F_KSTOP) ||
	    d->sleep_length_read != !!(r->flags & IS_F_SLR))
		l->mismatches++;
}

static GArray *replay_backwards(const struct is_governor *g, const char *trace, bool clamp,
				int *mismatches)
{
	GError *err = NULL;
	struct is_trace_reader *r = is_trace_open(trace, &err);
	const struct is_trace_header *h;
	struct is_sim_config cfg = { .mode = IS_SIM_EXACT, .seed = 1 };
	struct backwards_log l = { g_array_new(false, false, sizeof(int)), 0 };
	struct is_record rec;
	struct is_sim *s;
	int ret, neg = 0;

	assert_non_null(r);
	h = is_trace_reader_header(r);
	cfg.states = is_states_builtin(h->states);
	cfg.gov = g;
	cfg.cpus = h->cpus;
	cfg.hz = h->hz;
	is_params_defaults(g, &cfg.params);
	s = is_sim_new(&cfg, &err);
	assert_non_null(s);
	is_sim_set_observer(s, backwards_observe, &l);
	while ((ret = is_trace_next(r, &rec, &err)) > 0) {
		if (rec.kind == IS_REC_IDLE && (rec.lres_ns < 0 || rec.span_ns < 0)) {
			neg++;
			if (clamp)
				rec.lres_ns = rec.span_ns = 0;
		}
		assert_true(is_sim_feed(s, &rec, &err));
	}
	assert_int_equal(ret, 0);
	assert_int_equal(neg, 2);
	is_sim_free(s);
	is_trace_close(r);
	*mismatches = l.mismatches;
	return l.d;
}

static void test_backwards_clock(void **state)
{
	/* captures of the 6.12 series' kernels: pairs[0..3] */
	static const char *const files[] = { "teo", "menu", "ladder", "wteo" };
	g_autofree char *dir = g_dir_make_tmp("kc-backwards-XXXXXX", NULL);

	(void)state;
	assert_non_null(dir);
	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *name = g_strdup_printf("cpuidle-events-backwards-%s.txt", files[i]);
		g_autofree char *in = g_build_filename(getenv("TESTDATA"), name, NULL);
		g_autofree char *out = g_build_filename(dir, "t.trace", NULL);
		struct is_trace_header h;
		struct is_import_stats st;
		GError *err = NULL;
		GArray *a, *b;
		int ma, mb, mc;

		is_trace_header_init(&h);
		g_strlcpy(h.states, "power9", sizeof(h.states));
		h.state_count = 7;
		h.hz = 100;
		if (!is_import_cpuidle_events(in, out, IS_FMT_TEXT, &h, &st, &err))
			fail_msg("%s: %s", in, err->message);
		is_trace_header_clear(&h);
		assert_int_equal(st.backwards, 2);
		assert_int_equal(st.raised, 1);
		a = replay_backwards(is_governor_find(pairs[i].lib), out, false, &ma);
		b = replay_backwards(pairs[i].ref, out, false, &mb);
		assert_int_equal(ma, 0);
		assert_int_equal(mb, 0);
		assert_int_equal(a->len, b->len);
		assert_memory_equal(a->data, b->data, a->len * sizeof(int));
		g_array_free(a, true);
		g_array_free(b, true);
		/* clamped: the kernel's file and the port still agree, not with k= */
		a = replay_backwards(is_governor_find(pairs[i].lib), out, true, &mc);
		b = replay_backwards(pairs[i].ref, out, true, &mb);
		assert_memory_equal(a->data, b->data, a->len * sizeof(int));
		if (strcmp(files[i], "ladder"))
			assert_true(mc > 0);
		else
			assert_int_equal(mc, 0);
		g_array_free(a, true);
		g_array_free(b, true);
		unlink(out);
	}
	rmdir(dir);
}

/* ---- --bench ------------------------------------------------------------ */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * select() then reflect() for every idle record on its CPU's instance,
 * the record's idle time as the residency; returns seconds, the chosen
 * states in @out.
 */
static double time_governor(const struct is_governor *g, const struct is_state_table *t,
			    int hz, const struct is_record *recs, size_t n, int cpus, int8_t *out)
{
	struct is_params params;
	struct is_gov_env env[4];
	void *st[4], *inst = NULL;
	uint64_t rng = 1;
	double t0, dt;

	g_assert(cpus <= 4);
	is_params_defaults(g, &params);
	if (g->instance_new)
		g_assert((inst = g->instance_new(g, &params, cpus, NULL)));
	for (int c = 0; c < cpus; c++) {
		env[c] = (struct is_gov_env){ .drv = t, .params = &params,
					      .disabled = is_states_default_disabled(t),
					      .tick_nsec = is_tick_nsec(hz), .cpu = c, .inst = inst };
		st[c] = g_malloc0(g->state_size);
		g_assert(!g->init || g->init(st[c], &env[c]) == 0);
	}
	t0 = now_s();
	for (size_t i = 0; i < n; i++) {
		const struct is_record *r = &recs[i];
		struct is_gov_call call = {
			.now_ns = r->t_ns, .latency_req_ns = r->lat_ns,
			.tick_stopped = r->flags & IS_F_TS, .sleep_length_ns_ = r->sleep_ns,
			.delta_next_ns_ = r->tick_ns, .rng_ = &rng, .recorded_state = -1,
			.recorded_stop = -1,
		};
		struct is_gov_env *e = &env[r->cpu];
		bool stop = true;
		int idx = g->select(st[r->cpu], e, &call, &stop);

		out[i] = (int8_t)(idx * 2 + stop);
		e->last_residency_ns = r->idle_ns;
		g->reflect(st[r->cpu], e, &(struct is_gov_wake){
			.entered = idx, .now_ns = r->t_ns + r->idle_ns,
			.last_residency_ns = r->idle_ns });
	}
	dt = now_s() - t0;
	for (int c = 0; c < cpus; c++)
		g_free(st[c]);
	if (inst)
		g->instance_free(inst);
	return dt;
}

static void bench_inputs(const char *what, const struct is_record *recs, size_t n, int cpus,
			 int hz, int repeat)
{
	const struct is_state_table *t = is_states_builtin("power9");
	int8_t *a = g_malloc(n), *b = g_malloc(n);

	for (size_t p = 0; p < G_N_ELEMENTS(pairs); p++) {
		const struct is_governor *lib = is_governor_find(pairs[p].lib);
		double best_k = 1e30, best_l = 1e30;

		/* interleaved, so that a slow spell of the machine hits both */
		for (int r = 0; r < repeat; r++) {
			double k = time_governor(pairs[p].ref, t, hz, recs, n, cpus, a);
			double l = time_governor(lib, t, hz, recs, n, cpus, b);

			best_k = k < best_k ? k : best_k;
			best_l = l < best_l ? l : best_l;
			if (memcmp(a, b, n)) {
				fprintf(stderr, "%s: %s and %s decided differently\n", what,
					pairs[p].ref->name, lib->name);
				exit(1);
			}
		}
		printf("%-7s %-10s %zu decisions  kernel's file %6.2f M/s   idlesim %6.2f M/s  (%.2fx; best of %d)\n",
		       what, lib->name, n, (double)n / best_k / 1e6, (double)n / best_l / 1e6,
		       best_k / best_l, repeat);
	}
	g_free(a);
	g_free(b);
}

static int bench(size_t n, int repeat)
{
	struct is_record *recs = g_new(struct is_record, n);
	struct stream st = { .s = 42, .cpus = 4, .nstates = 7 };
	struct is_synth_config cfg = { 0 };
	struct is_synth *g;
	size_t k = 0;

	/* random inputs: the comparison stream's idle records */
	while (k < n) {
		next_record(&st, &recs[k]);
		k += recs[k].kind == IS_REC_IDLE;
	}
	bench_inputs("random", recs, n, 4, 100, repeat);

	/* the mixed scenario as `idlesim bench -w mixed` renders it */
	cfg.w = is_workload_find("mixed");
	is_params_defaults_of(cfg.w->params, cfg.w->nparams, &cfg.params);
	cfg.cpus = 4;
	cfg.hz = 100;
	cfg.seed = 42;
	cfg.latency_req_ns = 2147483647000LL;
	g = is_synth_new(&cfg, NULL);
	g_assert(g);
	for (k = 0; k < n; k++)
		is_synth_next(g, &recs[k]);
	is_synth_free(g);
	bench_inputs("mixed", recs, n, 4, 100, repeat);
	g_free(recs);
	/* what a simulation of a plugin pays once: its private copy */
	for (size_t p = 0; p < G_N_ELEMENTS(pairs); p++) {
		const struct is_governor *g = pairs[p].ref;
		struct is_params params;
		double t0 = now_s();

		is_params_defaults(g, &params);
		for (int i = 0; i < 200; i++)
			g->instance_free(g->instance_new(g, &params, 4, NULL));
		printf("%-10s plugin instance (memfd copy, dlopen, initcalls, dlclose): %.0f us\n",
		       pairs[p].lib, (now_s() - t0) / 200 * 1e6);
	}
	return 0;
}

/*
 * --replay TRACE: a recorded trace (an imported capture of the series'
 * events) through each kernel file and its port, exactly: the selections
 * where each differs from the recording, and from the other.  For
 * looking into a mismatch that validate or run-workload reported.
 */
static int replay_main(const char *trace)
{
	for (size_t i = 0; i < G_N_ELEMENTS(pairs); i++) {
		GError *err = NULL;
		struct is_trace_reader *r[2];
		struct is_sim *s[2];
		struct backwards_log l[2] = { { g_array_new(false, false, sizeof(int)), 0 },
					      { g_array_new(false, false, sizeof(int)), 0 } };
		const struct is_governor *g[2] = { is_governor_find(pairs[i].lib), pairs[i].ref };
		struct is_record rec;
		int ret = 0, differ = 0;
		guint first = 0;

		for (int k = 0; k < 2; k++) {
			const struct is_trace_header *h;
			struct is_sim_config cfg = { .mode = IS_SIM_EXACT, .seed = 1 };

			r[k] = is_trace_open(trace, &err);
			if (!r[k]) {
				fprintf(stderr, "%s\n", err->message);
				return 1;
			}
			h = is_trace_reader_header(r[k]);
			cfg.states = h->has_table ? &h->table : is_states_builtin(h->states);
			cfg.gov = g[k];
			cfg.cpus = h->cpus;
			cfg.hz = h->hz;
			is_params_defaults(g[k], &cfg.params);
			s[k] = is_sim_new(&cfg, &err);
			is_sim_set_observer(s[k], backwards_observe, &l[k]);
			while ((ret = is_trace_next(r[k], &rec, &err)) > 0)
				if (!is_sim_feed(s[k], &rec, &err))
					break;
		}
		for (guint j = 0; j < MIN(l[0].d->len, l[1].d->len); j += 5)
			if (g_array_index(l[0].d, int, j) != g_array_index(l[1].d, int, j)) {
				if (!differ++)
					first = j / 5;
			}
		printf("%s: port %d mismatches with the recording, kernel file %d; they differ "
		       "in %d selections (first: %u)\n", pairs[i].lib, l[0].mismatches,
		       l[1].mismatches, differ, first);
		for (int k = 0; k < 2; k++) {
			is_sim_free(s[k]);
			is_trace_close(r[k]);
			g_array_free(l[k].d, true);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_teo),
		cmocka_unit_test(test_menu),
		cmocka_unit_test(test_ladder),
		cmocka_unit_test(test_wteo),
		cmocka_unit_test(test_teo61),
		cmocka_unit_test(test_menu61),
		cmocka_unit_test(test_closed_loop),
		cmocka_unit_test(test_bundled_traces),
		cmocka_unit_test(test_poll_lock_in),
		cmocka_unit_test(test_report_mt8196),
		cmocka_unit_test(test_backwards_clock),
	};

	int ret;

	for (size_t i = 0; i < G_N_ELEMENTS(pairs); i++) {
		GError *err = NULL;

		pairs[i].ref = is_governor_lookup(plugin_specs[i], &err);
		if (!pairs[i].ref) {
			fprintf(stderr, "%s\n", err->message);
			return 1;
		}
	}
	if (argc > 2 && !strcmp(argv[1], "--replay"))
		return replay_main(argv[2]);
	if (argc > 1 && !strcmp(argv[1], "--bench"))
		return bench(argc > 2 ? strtoull(argv[2], NULL, 10) : 2000000,
			     argc > 3 ? atoi(argv[3]) : 5);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	is_governor_plugins_free();
	return ret;
}
