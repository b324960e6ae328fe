// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt-app files: per construct, a small program whose idle periods are
 * derived by hand in the comment above its case; the closed loop (a CPU's
 * exit latency delays its tasks and the IPIs they send); determinism of
 * the jitter stream; and the messages bad input gets (path and line).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <glib.h>

#include "idlesim/idlesim.h"
#include "idlesim/rtapp.h"
#include "idlesim/synth.h"

#define MS 1000000LL
#define US 1000LL

/*
 * Runs @json on @cpus CPUs, each CPU resuming @lat_ns[cpu] after its
 * wakeup (NULL: at the wakeup), for at most @max records; returns them as
 * "cpu start idle cause" lines (ns; cause t or i; '*' after a record that
 * runs no task), and the sleep lengths as "cpu sleep" when @sleeps.
 */
static char *run_json_slack(const char *json, int cpus, const int64_t *lat_ns, int max,
			    bool sleeps, uint64_t seed, int jitter, int slack_us)
{
	GError *err = NULL;
	struct is_rtapp *p = is_rtapp_parse(json, strlen(json), "t.json", &err);
	struct is_synth_config cfg = { 0 };
	struct is_synth *g;
	GString *s = g_string_new(NULL);
	struct is_record r;

	if (!p)
		fail_msg("%s", err->message);
	cfg.w = is_rtapp_workload();
	cfg.rtapp = p;
	cfg.cpus = cpus;
	cfg.hz = 100;
	cfg.seed = seed;
	cfg.latency_req_ns = 2147483647000LL;
	is_params_defaults_of(cfg.w->params, cfg.w->nparams, &cfg.params);
	cfg.params.v[0] = jitter;
	cfg.params.v[3] = slack_us;
	g = is_synth_new(&cfg, &err);
	if (!g)
		fail_msg("%s", err->message);
	for (int n = 0; n < max && is_synth_next(g, &r); n++) {
		g_string_append_printf(s, "%d %" PRId64 " %" PRId64 " %c%s", r.cpu, r.t_ns, r.idle_ns,
				       r.cause == IS_CAUSE_IPI ? 'i' : 't',
				       (r.flags & IS_F_NOWORK) ? "*" : "");
		if (sleeps)
			g_string_append_printf(s, " s%" PRId64, r.sleep_ns);
		g_string_append_c(s, '\n');
		if (lat_ns)
			is_synth_feedback(g, r.cpu, r.t_ns + r.idle_ns + lat_ns[r.cpu]);
	}
	is_synth_free(g);
	is_rtapp_free(p);
	return g_string_free(s, FALSE);
}

/*
 * The constructs' cases are derived with timers that fire on time
 * (timer_slack_us=0); test_slack() has the kernel's default.
 */
static char *run_json(const char *json, int cpus, const int64_t *lat_ns, int max, bool sleeps,
		      uint64_t seed, int jitter)
{
	return run_json_slack(json, cpus, lat_ns, max, sleeps, seed, jitter, 0);
}

static void expect(const char *json, int cpus, const int64_t *lat, int max, const char *want)
{
	g_autofree char *got = run_json(json, cpus, lat, max, false, 1, 0);

	if (strcmp(got, want))
		fail_msg("records:\n%s\nexpected:\n%s", got, want);
}

/*
 * run 1000, sleep 9000 on CPU 0: idle 1-10 ms, 11-20, 21-30 (timer).  With
 * a 100 us exit latency the work starts at 10.1 ms and the sleep, which
 * counts from its own start, drifts: idle 11.1-20.1, 21.2-30.2.  CPU 1 has
 * nothing: no record within the second.
 */
static void test_run_sleep(void **state)
{
	const char *j = "{\"tasks\": {\"t\": {\"cpus\": [0], \"run\": 1000, \"sleep\": 9000}}}";
	const int64_t lat[2] = { 100 * US, 0 };

	(void)state;
	expect(j, 2, NULL, 3, "0 1000000 9000000 t\n0 11000000 9000000 t\n0 21000000 9000000 t\n");
	expect(j, 2, lat, 3, "0 1000000 9000000 t\n0 11100000 9000000 t\n0 21200000 9000000 t\n");
}

/*
 * run 1000, timer 10000: the timer counts from the thread's start, so
 * the period holds whatever the latency: idle 1-10, 11-20; with 100 us of
 * exit latency, 1-10, 11.1-20, 21.1-30.
 */
static void test_timer_period(void **state)
{
	const char *j = "{\"tasks\": {\"t\": {\"cpus\": [0], \"run\": 1000,"
			" \"timer\": {\"ref\": \"a\", \"period\": 10000}}}}";
	const int64_t lat[2] = { 100 * US, 0 };

	(void)state;
	expect(j, 2, NULL, 2, "0 1000000 9000000 t\n0 11000000 9000000 t\n");
	expect(j, 2, lat, 3, "0 1000000 9000000 t\n0 11100000 8900000 t\n0 21100000 8900000 t\n");
}

/*
 * A first phase of 25 ms overruns the 10 ms timer shared with the second.
 * relative: the missed use moves the reference to 25; then run 25-27,
 * next 35: idle 27-35, 37-45.  absolute: the reference stays at 10: run
 * 25-27, next 20 missed too; run 27-29, next 30: idle 29-30; run 30-32,
 * next 40: idle 32-40.
 */
static void test_timer_modes(void **state)
{
	static const char *fmt =
		"{\"tasks\": {\"t\": {\"cpus\": [0], \"phases\": {"
		" \"slow\": {\"run\": 25000, \"timer\": {\"ref\": \"x\", \"period\": 10000, \"mode\": \"%s\"}},"
		" \"fast\": {\"loop\": -1, \"run\": 2000, \"timer\": {\"ref\": \"x\", \"period\": 10000, \"mode\": \"%s\"}}}}}}";
	g_autofree char *rel = g_strdup_printf(fmt, "relative", "relative");
	g_autofree char *abs = g_strdup_printf(fmt, "absolute", "absolute");

	(void)state;
	expect(rel, 1, NULL, 2, "0 27000000 8000000 t\n0 37000000 8000000 t\n");
	expect(abs, 1, NULL, 3, "0 29000000 1000000 t\n0 32000000 8000000 t\n0 42000000 8000000 t\n");
}

/*
 * The waker (CPU 0) sleeps on its timer till 10 ms, runs 100 us and
 * resumes the worker (CPU 1), whose idle period ends by an IPI at
 * 10.1 ms; with 50 us of exit latency on CPU 0, at 10.15 ms.  The
 * worker's sleep length is the 5 s housekeeping timer (it has no timer).
 * The worker then runs 500 us: idle again from 10.6 (10.15 + its own
 * 20 us + 500 in the closed loop: 10.67) till the next message at 20.1
 * (20.15), after CPU 0's period 10.1-20 (10.15-20) is given.
 */
static void test_resume_ipi(void **state)
{
	const char *j = "{\"tasks\": {"
			" \"waker\": {\"cpus\": [0], \"timer\": {\"ref\": \"unique\", \"period\": 10000},"
			"  \"run\": 100, \"resume\": \"w\"},"
			" \"w\": {\"cpus\": [1], \"suspend\": \"w\", \"run\": 500}}}";
	const int64_t lat[2] = { 50 * US, 20 * US };
	g_autofree char *open = run_json(j, 2, NULL, 4, true, 1, 0);
	g_autofree char *closed = run_json(j, 2, lat, 4, true, 1, 0);

	(void)state;
	assert_string_equal(open, "0 0 10000000 t s10000000\n1 0 10100000 i s5000000000\n"
			    "0 10100000 9900000 t s9900000\n1 10600000 9500000 i s5000000000\n");
	assert_string_equal(closed, "0 0 10000000 t s10000000\n1 0 10150000 i s5000000000\n"
			    "0 10150000 9850000 t s9850000\n1 10670000 9480000 i s5000000000\n");
}

/*
 * Two tasks share CPU 0, FIFO, no preemption.  A: run 3, sleep 7; B:
 * delay 1, run 2, sleep 8 (ms).  B's start at 1 finds A running: queued.
 * A sleeps at 3 (till 10), B runs 3-5 and sleeps till 13: idle 5-10.  A
 * runs 10-13; B's timer at 13 finds CPU 0 busy (queued), A sleeps till
 * 20, B runs 13-15, sleeps till 23: idle 15-20.
 */
static void test_shared_cpu(void **state)
{
	const char *j = "{\"tasks\": {"
			" \"a\": {\"cpus\": [0], \"run\": 3000, \"sleep\": 7000},"
			" \"b\": {\"cpus\": [0], \"delay\": 1000, \"run\": 2000, \"sleep\": 8000}}}";

	(void)state;
	expect(j, 1, NULL, 2, "0 5000000 5000000 t\n0 15000000 5000000 t\n");
}

/*
 * Unpinned instances start on the CPU with the fewest so far: one per
 * CPU, each back on its own CPU after its sleep.
 */
static void test_placement(void **state)
{
	const char *j = "{\"tasks\": {\"t\": {\"instance\": 2, \"run\": 1000, \"sleep\": 4000}}}";

	(void)state;
	expect(j, 2, NULL, 4, "0 1000000 4000000 t\n1 1000000 4000000 t\n"
	       "0 6000000 4000000 t\n1 6000000 4000000 t\n");
}

/*
 * A holds m 0-2 ms.  B (CPU 1) starts at 1 (its delay: idle 0-1, timer),
 * finds m held and blocks: idle from 1.  A's unlock at 2 hands m to B,
 * whose CPU wakes by an IPI: idle 1-2.  B runs 2-2.5, sleeps till 12:
 * idle 2.5-12.  CPU 0: A sleeps 2-10.
 */
static void test_mutex(void **state)
{
	const char *j = "{\"tasks\": {"
			" \"a\": {\"cpus\": [0], \"lock\": \"m\", \"run\": 2000, \"unlock\": \"m\", \"sleep\": 8000},"
			" \"b\": {\"cpus\": [1], \"delay\": 1000, \"lock\": \"m\", \"run\": 500,"
			"  \"unlock\": \"m\", \"sleep\": 9500}}}";

	(void)state;
	expect(j, 2, NULL, 4, "1 0 1000000 t\n1 1000000 1000000 i\n0 2000000 8000000 t\n"
	       "1 2500000 9500000 t\n");
}

/*
 * A reaches the barrier at 1 ms and waits; B at 3 ms is the last of its
 * two users and wakes A (IPI): idle 1-3.  Both run 100 us and sleep 10 ms
 * from 3.1: idle 3.1-13.1 on each, B's first (its timer was armed first:
 * A's work began after the IPI was given).
 */
static void test_barrier(void **state)
{
	const char *j = "{\"tasks\": {"
			" \"a\": {\"cpus\": [0], \"run0\": 1000, \"barrier\": \"b\", \"run1\": 100, \"sleep\": 10000},"
			" \"b\": {\"cpus\": [1], \"run0\": 3000, \"barrier\": \"b\", \"run1\": 100, \"sleep\": 10000}}}";

	(void)state;
	expect(j, 2, NULL, 3, "0 1000000 2000000 i\n1 3100000 10000000 t\n0 3100000 10000000 t\n");
}

/*
 * Two waiters on c (CPUs 1 and 2, in that order).  signal wakes the first
 * only; broad, both.  The signaller on CPU 0 runs 1 ms first.
 */
static void test_signal_broad(void **state)
{
	static const char *fmt =
		"{\"tasks\": {"
		" \"s\": {\"cpus\": [0], \"loop\": 1, \"run\": 1000, \"%s\": \"c\"},"
		" \"w1\": {\"cpus\": [1], \"loop\": 1, \"wait\": {\"ref\": \"c\"}, \"run\": 10},"
		" \"w2\": {\"cpus\": [2], \"loop\": 1, \"wait\": {\"ref\": \"c\"}, \"run\": 10}}}";
	g_autofree char *sig = g_strdup_printf(fmt, "signal");
	g_autofree char *broad = g_strdup_printf(fmt, "broad");

	(void)state;
	/* then nothing can happen: the end */
	expect(sig, 3, NULL, 10, "1 0 1000000 i\n");
	expect(broad, 3, NULL, 10, "1 0 1000000 i\n2 0 1000000 i\n");
}

/*
 * wait releases its mutex and takes it back when woken: w holds m, waits
 * on c (m released); s (delay 1 ms) locks m, signals c and holds m 2 ms
 * more; w wakes at 1 ms by an IPI but blocks on m (idle again from 1),
 * and gets m when s unlocks at 3: idle 1-3.
 */
static void test_wait_mutex(void **state)
{
	const char *j = "{\"tasks\": {"
			" \"w\": {\"cpus\": [1], \"loop\": 1, \"lock\": \"m\", \"wait\": {\"ref\": \"c\", \"mutex\": \"m\"},"
			"  \"run\": 10, \"unlock\": \"m\"},"
			" \"s\": {\"cpus\": [0], \"loop\": 1, \"delay\": 1000, \"lock\": \"m\", \"signal\": \"c\","
			"  \"run\": 2000, \"unlock\": \"m\"}}}";

	(void)state;
	expect(j, 2, NULL, 10, "0 0 1000000 t\n1 0 1000000 i\n1 1000000 2000000 i\n");
}

/*
 * yield hands CPU 0 to the other queued task: a runs 1 ms and yields to
 * b (queued since 0), which runs 1 ms and sleeps 8; a runs 1 ms more and
 * sleeps 7: idle from 3 ms to b's timer at 10.
 */
static void test_yield(void **state)
{
	const char *j = "{\"tasks\": {"
			" \"a\": {\"cpus\": [0], \"run0\": 1000, \"yield\": \"\", \"run1\": 1000, \"sleep\": 7000},"
			" \"b\": {\"cpus\": [0], \"run\": 1000, \"sleep\": 8000}}}";

	(void)state;
	expect(j, 1, NULL, 1, "0 3000000 7000000 t\n");
}

/*
 * A finite program ends by itself (no housekeeping records after it): 3
 * loops of run 1, sleep 4 ms: idle 1-5, 6-10, 11-15, then the end (the
 * third sleep's wakeup finishes the thread).
 */
static void test_ends(void **state)
{
	const char *fin = "{\"tasks\": {\"t\": {\"loop\": 3, \"run\": 1000, \"sleep\": 4000}}}";

	(void)state;
	expect(fin, 1, NULL, 100, "0 1000000 4000000 t\n0 6000000 4000000 t\n0 11000000 4000000 t\n");
}

/*
 * jitter_pct: the same seed gives the same records, another seed others;
 * each instance's stream is its own, so CPU 0's records are the same with
 * 1 or 3 CPUs.  Without jitter the seed changes nothing.
 */
static void test_jitter(void **state)
{
	const char *j = "{\"tasks\": {\"t\": {\"cpus\": [0], \"run\": 1000, \"sleep\": 9000}}}";
	g_autofree char *a = run_json(j, 1, NULL, 50, false, 7, 20);
	g_autofree char *b = run_json(j, 1, NULL, 50, false, 7, 20);
	g_autofree char *c = run_json(j, 1, NULL, 50, false, 8, 20);
	g_autofree char *d = run_json(j, 3, NULL, 50, false, 7, 20);
	g_autofree char *e = run_json(j, 1, NULL, 50, false, 7, 0);
	g_autofree char *f = run_json(j, 1, NULL, 50, false, 8, 0);

	(void)state;
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
	assert_string_equal(a, d);
	assert_string_equal(e, f);
	assert_string_not_equal(a, e);
}

/* ---- bad input ------------------------------------------------------------ */

struct bad_case {
	const char *json;
	const char *msg;       /* a substring of the error */
};

static void test_bad_input(void **state)
{
	static const struct bad_case cases[] = {
		{ "{\"tasks\": {\"t\": {\"run\": 10,\n \"sleep\": 10,, }}}",
		  "t.json:2:13: Parse error" },
		{ "{\"tasks\": {\"t\": {\"phases\": {\"p1\": {\"run\": 10,\n \"fork\": \"x\"}}}}}",
		  "t.json:2: tasks.t.phases.p1.fork: the \"fork\" event is not modelled (a new thread per use)" },
		{ "{\"tasks\": {\"t\": {\"phases\": {\"p\": {\"external_workload0\": {\"library_name\": \"x.so\"}}}}}}",
		  "tasks.t.phases.p.external_workload0: the \"external_workload0\" event is not modelled (it loads a shared library" },
		{ "{\"tasks\": {\"t\": {\"run\": 10, \"sleep\": 10,\n \"mem\": -5}}}",
		  "t.json:2: tasks.t.mem: -5 is out of range" },
		{ "{\"tasks\": {\"t\": {\"run\": 10, \"sleep\": 10, \"policy\": \"SCHED_FAST\"}}}",
		  "tasks.t.policy: \"SCHED_FAST\": not a policy rt-app knows" },
		{ "{\"tasks\": {\"t\": {\"run\": 10, \"sleep\": 10, \"priority\": \"high\"}}}",
		  "tasks.t.priority: expected an integer" },
		{ "{\"tasks\": {\"t\": {\"run\": 10, \"sleep\": 10, \"bogus\": 5}}}",
		  "tasks.t.bogus: unknown key" },
		{ "{\"tasks\": {\"t\": {\"run\": -1, \"sleep\": 10}}}",
		  "tasks.t.run: -1 is out of range" },
		{ "{\"tasks\": {\"t\": {\"run\": 1.5, \"sleep\": 10}}}",
		  "tasks.t.run: expected an integer" },
		{ "{\"tasks\": {\"t\": {\"sleep\": 10, \"timer\": {\"ref\": \"a\"}}}}",
		  "tasks.t.timer: \"period\" missing" },
		{ "{\"tasks\": {\"t\": {\"sleep\": 10, \"timer\": {\"period\": 5, \"mode\": \"x\"}}}}",
		  "tasks.t.timer.mode: \"x\": expected \"relative\" or \"absolute\"" },
		{ "{\"tasks\": {\"t\": {\"cpus\": [0, \"x\"], \"sleep\": 10}}}",
		  "tasks.t.cpus[1]: expected an integer" },
		{ "{\"tasks\": {\"t\": {\"phases\": {\"a\": {\"sleep\": 1}}, \"run\": 5}}}",
		  "tasks.t.run: an event beside \"phases\"" },
		{ "{\"global\": {\"default_policy\": \"RR\"}, \"tasks\": {\"t\": {\"sleep\": 10}}}",
		  "global.default_policy: \"RR\": not a policy rt-app knows" },
		{ "{\"global\": {}}", "no \"tasks\" object" },
		{ "[1, 2]", "expected an object with \"tasks\"" },
		{ "{\"tasks\": {\"t\": {\"run\": 0, \"signal\": \"x\"}}}",
		  "tasks.t: the thread loops forever without" },
		{ "{\"tasks\": {\"t\": {\"loop\": 0, \"sleep\": 1}}}",
		  "tasks.t.loop: a loop of 0 runs nothing" },
		{ "{\"tasks\": {}}", "tasks: no threads" },
		{ "/* never closed\n{\"tasks\": {}}", "t.json:1:1: a comment that is never closed" },
		{ "{\"tasks\": {\"t\": {\"suspend\": \"\", \"run\": 10, \"sync\": {\"mutex\": \"m\"}}}}",
		  "tasks.t.sync: \"ref\" missing" },
	};

	static const struct bad_case strict_cases[] = {
		{ "{\"tasks\": {\"t\": {\"run\": 10,\n \"sleep\": 10,\n}}}",
		  "t.json:2:13: Parse error" },
		{ "{\"tasks\": {\"t\": {\"run\": 10,\n \"run\": 20, \"sleep\": 1}}}",
		  "t.json:2: the key \"run\" appears twice in one object (--rtapp-strict)" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		GError *err = NULL;
		struct is_rtapp *p = is_rtapp_parse(cases[i].json, strlen(cases[i].json), "t.json",
						    &err);

		if (p)
			fail_msg("case %zu parsed: %s", i, cases[i].json);
		if (!strstr(err->message, cases[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err->message, cases[i].msg);
		g_error_free(err);
	}
	/* --rtapp-strict: plain JSON, as before workgen's rules were taken */
	for (size_t i = 0; i < G_N_ELEMENTS(strict_cases); i++) {
		GError *err = NULL;
		struct is_rtapp *p = is_rtapp_parse_strict(strict_cases[i].json,
							   strlen(strict_cases[i].json), "t.json",
							   true, &err);

		if (p)
			fail_msg("strict case %zu parsed: %s", i, strict_cases[i].json);
		if (!strstr(err->message, strict_cases[i].msg))
			fail_msg("strict case %zu: '%s' lacks '%s'", i, err->message,
				 strict_cases[i].msg);
		g_error_free(err);
	}
}

/* Comments of both kinds, anywhere outside strings, as rt-app's json-c takes them. */
static void test_comments_notes(void **state)
{
	const char *j = "/* sender/receiver: I/O, it's fine */\n"
			"{ // a line comment\n"
			" \"global\": {\"duration\": 2, \"logdir\": \"/a//b\", \"calibration\": 320},\n"
			" \"resources\": {},\n"
			" \"tasks\": {\"t\": {\"run\": 10, \"sleep\": 10, \"util_min\": 5,"
			" \"resume\": \"nobody\"}}}";
	GError *err = NULL;
	struct is_rtapp *p = is_rtapp_parse(j, strlen(j), "t.json", &err);
	g_autofree char *notes = NULL;

	(void)state;
	if (!p)
		fail_msg("%s", err->message);
	notes = g_strjoinv("|", (char **)is_rtapp_notes(p));
	assert_non_null(strstr(notes, "global.logdir (line 3): ignored"));
	assert_non_null(strstr(notes, "global.calibration (line 3): 320 ns per loop"));
	assert_non_null(strstr(notes, "resources (line 4): ignored"));
	assert_non_null(strstr(notes, "tasks.t.util_min (line 5): ignored"));
	assert_non_null(strstr(notes, "tasks.t.resume (line 5): no effect: no thread suspends on \"nobody\""));
	assert_int_equal(is_rtapp_duration_ns(p), 2000000000LL);
	assert_true(is_rtapp_ends(p));
	is_rtapp_free(p);
}

/*
 * As rt-app runs a file through workgen: trailing commas taken (json-c
 * does), a key repeated in one object numbered as workgen numbers it (one
 * counter per object from 1, raised while the name is taken: run, run1,
 * run2, then sleep's repeat is sleep2), each said; the program equals the
 * one written with those names.  Strings are not touched.
 */
static void test_workgen(void **state)
{
	const char *lax = "{\"tasks\": {\"t\": {\"loop\": 2, \"run\": 100,\n"
			  " \"sleep\": 200, \"run\": 300,\n \"run\": 400, \"sleep\": 500,\n"
			  " \"sleep\": 600, \"lock\": \"m,}\", \"unlock\": \"m,}\",},},\n}";
	const char *named = "{\"tasks\": {\"t\": {\"loop\": 2, \"run\": 100,\n"
			    " \"sleep\": 200, \"run1\": 300,\n \"run2\": 400, \"sleep2\": 500,\n"
			    " \"sleep3\": 600, \"lock\": \"m,}\", \"unlock\": \"m,}\"}}\n}";
	GError *err = NULL;
	struct is_rtapp *p = is_rtapp_parse(lax, strlen(lax), "t.json", &err);
	g_autofree char *notes = NULL;
	g_autofree char *a = run_json(lax, 1, NULL, 20, false, 1, 0);
	g_autofree char *b = run_json(named, 1, NULL, 20, false, 1, 0);

	(void)state;
	if (!p)
		fail_msg("%s", err->message);
	notes = g_strjoinv("|", (char **)is_rtapp_notes(p));
	assert_non_null(strstr(notes, "t.json:2: the key \"run\" repeated in one object: read as \"run1\", as workgen numbers it"));
	assert_non_null(strstr(notes, "t.json:3: the key \"run\" repeated in one object: read as \"run2\""));
	assert_non_null(strstr(notes, "t.json:3: the key \"sleep\" repeated in one object: read as \"sleep2\""));
	assert_non_null(strstr(notes, "t.json:4: the key \"sleep\" repeated in one object: read as \"sleep3\""));
	assert_non_null(strstr(notes, "t.json:4: 3 commas before '}' or ']' accepted, as rt-app's parser (json-c) does"));
	assert_string_equal(a, b);
	is_rtapp_free(p);
	assert_null(is_rtapp_parse_strict(lax, strlen(lax), "t.json", true, &err));
	g_error_free(err);
}

/*
 * "instance": 0, which rt-app takes: the thread object starts no thread
 * (said); the run equals the file without it.  With no thread at all the
 * file is refused.
 */
static void test_instance_zero(void **state)
{
	const char *z = "{\"tasks\": {\"a\": {\"cpus\": [0], \"run\": 100, \"sleep\": 900},\n"
			" \"b\": {\"instance\": 0, \"run\": 50, \"sleep\": 70}}}";
	const char *one = "{\"tasks\": {\"a\": {\"cpus\": [0], \"run\": 100, \"sleep\": 900}}}";
	const char *none = "{\"tasks\": {\"b\": {\"instance\": 0, \"run\": 50, \"sleep\": 70}}}";
	GError *err = NULL;
	struct is_rtapp *p = is_rtapp_parse(z, strlen(z), "t.json", &err);
	g_autofree char *notes = NULL;
	g_autofree char *a = run_json(z, 2, NULL, 30, false, 1, 0);
	g_autofree char *b = run_json(one, 2, NULL, 30, false, 1, 0);

	(void)state;
	if (!p)
		fail_msg("%s", err->message);
	notes = g_strjoinv("|", (char **)is_rtapp_notes(p));
	assert_non_null(strstr(notes, "tasks.b.instance (line 2): 0: no thread of it runs"));
	assert_int_equal(is_rtapp_instances(p), 1);
	assert_string_equal(a, b);
	is_rtapp_free(p);
	assert_null(is_rtapp_parse(none, strlen(none), "t.json", &err));
	assert_non_null(strstr(err->message, "every thread object has instance 0"));
	g_error_free(err);
}

/*
 * mem and iorun: busy for their bytes at the params' rates, rounded up
 * to the ns: 25,000 bytes of mem at 10,000 MB/s (10 bytes/ns) are 2.5 us,
 * 3,001 bytes of iorun at 1,000 MB/s are 3.001 us; then sleep 100 us.
 * One loop: busy 0-5.501 us, idle to 105.501 us, and so on.
 */
static void test_mem_iorun(void **state)
{
	const char *j = "{\"tasks\": {\"t\": {\"loop\": 2, \"mem\": 25000, \"iorun\": 3001,"
			" \"sleep\": 100}}}";

	(void)state;
	expect(j, 1, NULL, 10, "0 5501 100000 t\n0 111002 100000 t\n");
}

/*
 * rt-app's other policies and priorities run as SCHED_OTHER on FIFO run
 * queues, each said: a task alone on its CPU wakes the same whatever its
 * policy, so the run equals the one without them.
 */
static void test_policies(void **state)
{
	const char *j = "{\"global\": {\"default_policy\": \"SCHED_FIFO\"},\n"
			" \"tasks\": {\"t\": {\"cpus\": [0], \"priority\": 10, \"run\": 100, \"sleep\": 900},\n"
			" \"d\": {\"cpus\": [1], \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 100,"
			" \"run\": 50, \"sleep\": 450}}}";
	const char *frag = "{\"global\": {\"frag\": 1}, \"tasks\": {\"t\": {\"run\": 1, \"sleep\": 10}}}";
	const char *plain = "{\"tasks\": {\"t\": {\"cpus\": [0], \"run\": 100, \"sleep\": 900},\n"
			    " \"d\": {\"cpus\": [1], \"run\": 50, \"sleep\": 450}}}";
	GError *err = NULL;
	struct is_rtapp *p = is_rtapp_parse(j, strlen(j), "t.json", &err);
	g_autofree char *notes = NULL;
	g_autofree char *a = run_json(j, 2, NULL, 40, false, 1, 0);
	g_autofree char *b = run_json(plain, 2, NULL, 40, false, 1, 0);

	(void)state;
	if (!p)
		fail_msg("%s", err->message);
	notes = g_strjoinv("|", (char **)is_rtapp_notes(p));
	assert_non_null(strstr(notes, "global.default_policy (line 1): \"SCHED_FIFO\" taken as SCHED_OTHER"));
	assert_non_null(strstr(notes, "tasks.t.priority (line 2): 10: ignored: priorities"));
	assert_non_null(strstr(notes, "tasks.d.policy (line 3): \"SCHED_DEADLINE\" taken as SCHED_OTHER"));
	assert_non_null(strstr(notes, "tasks.d.dl-runtime (line 3): ignored: SCHED_DEADLINE's budget"));
	is_rtapp_free(p);
	/* an unknown global key, ignored by rt-app: said */
	p = is_rtapp_parse(frag, strlen(frag), "t.json", &err);
	if (!p)
		fail_msg("%s", err->message);
	g_free(notes);
	notes = g_strjoinv("|", (char **)is_rtapp_notes(p));
	assert_non_null(strstr(notes, "global.frag (line 1): ignored: not an rt-app 1.0 global setting"));
	assert_string_equal(a, b);
	is_rtapp_free(p);
}

/*
 * Timer slack, 50 us (the kernel's default), hand-derived.  HZ=100: ticks
 * at multiples of 10 ms.
 * - run 1000, sleep 8000 (SCHED_OTHER): the sleep's range is [9, 9.05]
 *   ms and the CPU's timer is programmed for its end, which the sleep
 *   length reads too: idle 1-9.05, 10.05-18.10 (no tick in either range).
 * - SCHED_FIFO (global default, or the thread's over phases): no slack,
 *   idle 1-9, 10-18.  A thread's SCHED_OTHER under a SCHED_FIFO default
 *   has it again.
 * - Per phase: "fifo" (SCHED_FIFO) then "other" (the thread's default):
 *   idle 1-9 (no slack), 10-18.05, then 19.05-27.05 (fifo again).
 * - A 10 ms timer: its range [10, 10.05] begins on a tick, and the idle
 *   CPU's sleep length (9.05 ms) is below TICK_NSEC, so the tick runs and
 *   the thread wakes at 10, then 20: idle 1-10, 11-20 (sleep lengths 9.05).
 * - run 1000, sleep 19000: the range [20, 20.05] begins on a tick, but
 *   the sleep length is 19.05 ms: the tick is taken as stopped, and the
 *   thread wakes at 20.05; then 21.05-40.10.
 * - Two threads on one CPU: a sleeps 10000 (range 10-10.05), b 10020
 *   (10.02-10.07), each then runs 10.  The CPU idles from 0 with a sleep
 *   length of 10.05 ms (no tick).  At 10.05 a's timer fires and runs b's
 *   too, whose range has begun: a runs 10.05-10.06, b 10.06-10.07, then
 *   idle till a's next end, 20.11 (b's range, from 20.09, has begun
 *   again).  Were b's timer left to its end, the CPU would idle
 *   10.06-10.07 for it.
 * - A busy CPU's tick: on CPU 0, a (any CPU) sleeps 29990, range
 *   [29.99, 30.04], and b (CPU 0 only) 20000, range [20, 20.05]: CPU 0
 *   idles from 0 with a sleep length of 20.05 ms, so the tick at 20 is
 *   taken as stopped, and b wakes at 20.05 to run 15 ms.  CPU 0's tick
 *   at 30, busy, runs a's timer: a, its CPU busy, goes to idle CPU 1 by
 *   an IPI at 30 (not 30.04).
 */
static void test_slack(void **state)
{
	const char *other = "{\"tasks\": {\"t\": {\"cpus\": [0], \"run\": 1000, \"sleep\": 8000}}}";
	const char *fifo = "{\"global\": {\"default_policy\": \"SCHED_FIFO\"}, \"tasks\": "
			   "{\"t\": {\"cpus\": [0], \"run\": 1000, \"sleep\": 8000}}}";
	const char *thread = "{\"global\": {\"default_policy\": \"SCHED_FIFO\"}, \"tasks\": "
			     "{\"t\": {\"cpus\": [0], \"policy\": \"SCHED_OTHER\", \"run\": 1000, "
			     "\"sleep\": 8000}}}";
	const char *rr = "{\"tasks\": {\"t\": {\"cpus\": [0], \"policy\": \"SCHED_RR\", "
			 "\"phases\": {\"p\": {\"run\": 1000, \"sleep\": 8000}}}}}";
	const char *phases = "{\"tasks\": {\"t\": {\"cpus\": [0], \"phases\": {"
			     "\"fifo\": {\"policy\": \"SCHED_FIFO\", \"run\": 1000, \"sleep\": 8000},"
			     " \"other\": {\"run\": 1000, \"sleep\": 8000}}}}}";
	const char *timer = "{\"tasks\": {\"t\": {\"cpus\": [0], \"run\": 1000,"
			    " \"timer\": {\"ref\": \"a\", \"period\": 10000}}}}";
	const char *longer = "{\"tasks\": {\"t\": {\"cpus\": [0], \"run\": 1000, \"sleep\": 19000}}}";
	const char *two = "{\"tasks\": {\"a\": {\"cpus\": [0], \"sleep\": 10000, \"run\": 10},"
			  " \"b\": {\"cpus\": [0], \"sleep\": 10020, \"run\": 10}}}";
	const char *busy = "{\"tasks\": {\"a\": {\"sleep\": 29990, \"run\": 10},"
			   " \"b\": {\"cpus\": [0], \"sleep\": 20000, \"run\": 15000}}}";
	const struct {
		const char *const *json;
		int cpus, max;
		const char *want;
	} cases[] = {
		{ &other, 1, 2, "0 1000000 8050000 t s8050000\n0 10050000 8050000 t s8050000\n" },
		{ &fifo, 1, 2, "0 1000000 8000000 t s8000000\n0 10000000 8000000 t s8000000\n" },
		{ &thread, 1, 2, "0 1000000 8050000 t s8050000\n0 10050000 8050000 t s8050000\n" },
		{ &rr, 1, 2, "0 1000000 8000000 t s8000000\n0 10000000 8000000 t s8000000\n" },
		{ &phases, 1, 3, "0 1000000 8000000 t s8000000\n0 10000000 8050000 t s8050000\n"
				 "0 19050000 8000000 t s8000000\n" },
		{ &timer, 1, 2, "0 1000000 9000000 t s9050000\n0 11000000 9000000 t s9050000\n" },
		{ &longer, 1, 2, "0 1000000 19050000 t s19050000\n0 21050000 19050000 t s19050000\n" },
		{ &two, 1, 3, "0 0 10050000 t s10050000\n0 10070000 10040000 t s10040000\n"
			      "0 20130000 10040000 t s10040000\n" },
		{ &busy, 2, 2, "0 0 20050000 t s20050000\n1 0 30000000 i s5000000000\n" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *got = run_json_slack(*cases[i].json, cases[i].cpus, NULL,
						      cases[i].max, true, 1, 0, 50);

		if (strcmp(got, cases[i].want))
			fail_msg("case %zu:\n%s\nexpected:\n%s", i, got, cases[i].want);
	}
}

/* A file naming CPU 3 needs 4 CPUs: the engine says where. */
static void test_cpus_check(void **state)
{
	const char *j = "{\"tasks\": {\"t\": {\"cpus\": [1,\n 3], \"sleep\": 10}}}";
	GError *err = NULL;
	struct is_rtapp *p = is_rtapp_parse(j, strlen(j), "t.json", &err);
	struct is_synth_config cfg = { .w = is_rtapp_workload(), .rtapp = p, .cpus = 2, .hz = 100 };

	(void)state;
	assert_non_null(p);
	assert_int_equal(is_rtapp_max_cpu(p), 3);
	assert_null(is_synth_new(&cfg, &err));
	assert_non_null(strstr(err->message, "tasks.t.cpus[1] (line 2) names CPU 3, but the run has 2 CPUs"));
	g_error_free(err);
	is_rtapp_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_sleep),
		cmocka_unit_test(test_timer_period),
		cmocka_unit_test(test_timer_modes),
		cmocka_unit_test(test_resume_ipi),
		cmocka_unit_test(test_shared_cpu),
		cmocka_unit_test(test_slack),
		cmocka_unit_test(test_placement),
		cmocka_unit_test(test_mutex),
		cmocka_unit_test(test_barrier),
		cmocka_unit_test(test_signal_broad),
		cmocka_unit_test(test_wait_mutex),
		cmocka_unit_test(test_yield),
		cmocka_unit_test(test_ends),
		cmocka_unit_test(test_jitter),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_comments_notes),
		cmocka_unit_test(test_workgen),
		cmocka_unit_test(test_instance_zero),
		cmocka_unit_test(test_mem_iorun),
		cmocka_unit_test(test_policies),
		cmocka_unit_test(test_cpus_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
