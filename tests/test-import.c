// SPDX-License-Identifier: GPL-2.0-only
/*
 * The stock-capture importer on small hand-made captures: each case's
 * expected records are derived by hand in the comments from the rules in
 * src/import/capture.c (power9 table, HZ 100, TICK_NSEC 10 ms).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <cmocka.h>
#include <glib/gstdio.h>

#include "idlesim/import.h"

/* One tracefs line on CPU @c: "<comm>-<pid> [00c] flags ts: event: payload". */
#define L(c, ts, ev) "          <idle>-0       [00" #c "] d....  " ts ": " ev "\n"
#define T(c, ts, ev) "        worker-55      [00" #c "] d....  " ts ": " ev "\n"

#define HEAD "# tracer: nop\n#\n# entries-in-buffer/entries-written: 9/9   #P:2\n#\n"

static char *tmpname(const char *suffix)
{
	char *p = g_build_filename(g_get_tmp_dir(), "idlesim-test-import-XXXXXX", NULL);
	int fd = g_mkstemp(p);
	char *q;

	assert_true(fd >= 0);
	close(fd);
	g_unlink(p);
	q = g_strconcat(p, suffix, NULL);
	g_free(p);
	return q;
}

static char *write_tmp(const char *text, size_t len, const char *suffix)
{
	char *p = tmpname(suffix);

	assert_true(g_file_set_contents(p, text, (gssize)len, NULL));
	return p;
}

/*
 * Imports @path; returns the record lines of the native text trace
 * ("I ..." lines joined with newlines) or NULL with *err set.
 */
static char *import_path(const char *path, const struct is_capture_options *o,
			 struct is_capture_stats *st, GError **err)
{
	const struct is_state_table *t = is_states_builtin("power9");
	g_autofree char *out = tmpname(".trace");
	g_autofree char *text = NULL;
	struct is_trace_header h;
	GString *recs;
	bool ok;

	is_trace_header_init(&h);
	g_strlcpy(h.states, "power9", sizeof(h.states));
	h.state_count = t->count;
	h.hz = 100;
	ok = is_import_capture(path, out, IS_FMT_TEXT, &h, t, 0, o, st, err);
	is_trace_header_clear(&h);
	if (!ok) {
		assert_false(g_file_test(out, G_FILE_TEST_EXISTS)); /* no partial output */
		return NULL;
	}
	assert_true(g_file_get_contents(out, &text, NULL, NULL));
	g_unlink(out);
	recs = g_string_new(NULL);
	{
		g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

		for (char **p = lines; *p; p++)
			if ((*p)[0] == 'I' || (*p)[0] == 'S')
				g_string_append_printf(recs, "%s\n", *p);
	}
	return g_string_free(recs, FALSE);
}

static char *import_text(const char *text, const struct is_capture_options *o,
			 struct is_capture_stats *st, GError **err)
{
	g_autofree char *in = write_tmp(text, strlen(text), ".txt");
	char *r = import_path(in, o, st, err);

	g_unlink(in);
	return r;
}

static const struct is_capture_options defaults = { .format = IS_CAP_AUTO, .hz = 100 };

/*
 * Two periods on CPU 0 with every input observed.
 *  - the expiry at 1.000000 with now=999000000: trace clock - timer clock
 *    = 1 ms.  tick_stop(success=0) makes the tick state known (running).
 *    The switch to the idle task at 1.000400 starts an idle loop: the
 *    sleep length is measured from its idle_entrytime, taken as the
 *    loop's first entry, and after each interrupt the next entry.
 *  - entry at 1.000500 (timer clock 999500000): pending are the tick at
 *    1000000000 and hrtimer_wakeup at 1003000000.  delta_next = the
 *    earliest of both = 500000; sleep = the earliest non-tick = 3500000.
 *    Woken by the tick's expiry at 1.001000 -> cause tick; exit at
 *    1.001100 -> idle 600000.  The next entry comes with no task run in
 *    between -> nw=1.  The kernel's miss event says "below": 600 us in
 *    stop1 (target 50 us) leaves 595 us >= stop2's 100 us: agrees.
 *  - entry at 1.001200 (timer clock 1000200000): the tick re-armed at
 *    1010000000, the wakeup still at 1003000000: sleep = delta = 2800000.
 *    hrtimer_wakeup expires -> timer; exit at 1.004020 -> 2820000.  The
 *    switch to a task ends it (no nw).  No miss event, but 2820 us in
 *    stop0_lite is "below" by the rule: one disagreement.
 */
#define TWO_PERIODS \
	L(0, "1.000000", "hrtimer_expire_entry: hrtimer=00000000aaaa0001 function=tick_nohz_handler now=999000000") \
	L(0, "1.000100", "tick_stop: success=0 dependency=SCHED") \
	L(0, "1.000200", "hrtimer_start: hrtimer=00000000aaaa0001 function=tick_nohz_handler expires=1000000000 softexpires=1000000000 mode=ABS|PINNED|HARD was_armed=0") \
	T(0, "1.000300", "hrtimer_start: hrtimer=00000000bbbb0002 function=hrtimer_wakeup expires=1003000000 softexpires=1003000000 mode=REL was_armed=0") \
	T(0, "1.000400", "sched_switch: prev_comm=worker prev_pid=55 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120") \
	L(0, "1.000500", "cpu_idle: state=3 cpu_id=0") \
	L(0, "1.001000", "hrtimer_expire_entry: hrtimer=00000000aaaa0001 function=tick_nohz_handler now=1000000000") \
	L(0, "1.001010", "hrtimer_start: hrtimer=00000000aaaa0001 function=tick_nohz_handler expires=1010000000 softexpires=1010000000 mode=ABS|PINNED|HARD was_armed=0") \
	L(0, "1.001100", "cpu_idle: state=4294967295 cpu_id=0") \
	L(0, "1.001150", "cpu_idle_miss: cpu_id=0 state=3 type=below") \
	L(0, "1.001200", "cpu_idle: state=1 cpu_id=0") \
	L(0, "1.004000", "hrtimer_expire_entry: hrtimer=00000000bbbb0002 function=hrtimer_wakeup now=1003000000") \
	L(0, "1.004020", "cpu_idle: state=4294967295 cpu_id=0") \
	L(0, "1.004100", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120")

#define TWO_EXPECTED \
	"I 0 1000500000 3500000 500000 0 2147483647000 600000 tick k=3 nw=1\n" \
	"I 0 1001200000 2800000 2800000 0 2147483647000 2820000 timer k=1\n"

static void test_exact(void **state)
{
	struct is_capture_stats st;
	GError *err = NULL;
	g_autofree char *r = import_text(HEAD TWO_PERIODS, &defaults, &st, &err);

	(void)state;
	assert_null(err);
	assert_string_equal(r, TWO_EXPECTED);
	assert_int_equal(st.format, IS_CAP_FTRACE);
	assert_int_equal(st.records, 2);
	assert_int_equal(st.exact, 2);
	assert_int_equal(st.cpus, 2); /* from "#P:2", though CPU 1 has no event */
	assert_int_equal(st.cause[IS_CAUSE_TICK], 1);
	assert_int_equal(st.cause[IS_CAUSE_TIMER], 1);
	assert_int_equal(st.miss_events, 1);
	assert_int_equal(st.miss_agree, 1);
	assert_int_equal(st.miss_disagree, 1);
	assert_string_equal(st.tick_function, "tick_nohz_handler");
}

/* Replaces every occurrence of @from in @s. */
static char *replace(const char *s, const char *from, const char *to)
{
	g_auto(GStrv) parts = g_strsplit(s, from, -1);

	return g_strjoinv(to, parts);
}

/* HEAD TWO_PERIODS in a scratch .txt, beside its .txt.gz and .txt.xz. */
static char *write_compressed(void)
{
	char *in = write_tmp(HEAD TWO_PERIODS, strlen(HEAD TWO_PERIODS), ".txt");
	g_autofree char *cmd = g_strdup_printf("gzip -c %s > %s.gz && xz -c %s > %s.xz",
					       in, in, in, in);

	assert_int_equal(system(cmd), 0);
	return in;
}

static const char *const compressed_ext[] = { ".gz", ".xz" };

static void unlink_compressed(const char *in)
{
	for (size_t k = 0; k < G_N_ELEMENTS(compressed_ext); k++) {
		g_autofree char *p = g_strconcat(in, compressed_ext[k], NULL);

		g_unlink(p);
	}
	g_unlink(in);
}

/*
 * The same capture in other shapes gives the same records: CRLF line
 * ends, no irq-info column, trace-cmd report layout (header "cpus=2",
 * padded payload), its -l layout (the CPU fused with the flags), lines out of order across CPUs or fully reversed
 * (within the reorder window), gzip and xz compression.
 */
static void test_same_records(void **state)
{
	g_autofree char *crlf = replace(HEAD TWO_PERIODS, "\n", "\r\n");
	g_autofree char *noirq = replace(HEAD TWO_PERIODS, "] d....  ", "]  ");
	g_autofree char *tc0 = replace(TWO_PERIODS, ": cpu_idle: ", ": cpu_idle:             ");
	g_autofree char *tc = g_strconcat("cpus=2\n", tc0, NULL);
	g_autofree char *lat0 = replace(HEAD TWO_PERIODS, "[000] d....  ", "0d.... ");
	g_autofree char *lat = replace(lat0, "[001] d....  ", "1d.... ");
	g_autofree char *rev = NULL;
	const char *const cases[][2] = { { "crlf", crlf }, { "noirq", noirq },
					 { "trace-cmd -l", lat }, { "trace-cmd", tc } };
	struct is_capture_stats st;
	GError *err = NULL;

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *r = import_text(cases[i][1], &defaults, &st, &err);

		if (!r)
			fail_msg("%s: %s", cases[i][0], err->message);
		assert_string_equal(r, TWO_EXPECTED);
	}
	assert_int_equal(st.format, IS_CAP_TRACECMD);
	{
		/* every line reversed: the window sorts them back */
		g_auto(GStrv) l = g_strsplit(TWO_PERIODS, "\n", -1);
		guint n = g_strv_length(l);
		GString *s = g_string_new(HEAD);
		g_autofree char *r = NULL;

		for (guint i = n; i-- > 0;)
			if (*l[i])
				g_string_append_printf(s, "%s\n", l[i]);
		rev = g_string_free(s, FALSE);
		r = import_text(rev, &defaults, &st, &err);
		assert_non_null(r);
		assert_string_equal(r, TWO_EXPECTED);
		assert_true(st.reordered > 0);
	}
	{
		/* ... unless the window is smaller than the disorder */
		struct is_capture_options o = defaults;
		g_autofree char *r = NULL;

		o.reorder_window = 2;
		r = import_text(rev, &o, &st, &err);
		assert_null(r);
		assert_non_null(strstr(err->message, "field 'timestamp'"));
		assert_non_null(strstr(err->message, "reorder window (2 events)"));
		assert_non_null(strstr(err->message, ".txt:"));
		g_clear_error(&err);
	}
	{
		g_autofree char *in = write_compressed();

		for (size_t k = 0; k < G_N_ELEMENTS(compressed_ext); k++) {
			g_autofree char *p = g_strconcat(in, compressed_ext[k], NULL);
			g_autofree char *r = import_path(p, &defaults, &st, &err);

			if (!r)
				fail_msg("%s: %s", compressed_ext[k], err->message);
			assert_string_equal(r, TWO_EXPECTED);
		}
		unlink_compressed(in);
	}
}

/*
 * Compressed data cut short or corrupt is named as such, never passed off
 * as a bad capture line (the decoder hands out the start of a cut line
 * before it fails); no output is left behind (import_path() checks).
 */
static void test_compressed_cut(void **state)
{
	g_autofree char *in = write_compressed();
	struct is_capture_stats st;
	GError *err = NULL;

	(void)state;
	for (int k = 0; k < 3; k++) {
		g_autofree char *p = g_strconcat(in, compressed_ext[k % 2], NULL);
		g_autofree char *data = NULL, *cut = NULL, *r = NULL;
		gsize len;

		assert_true(g_file_get_contents(p, &data, &len, NULL));
		if (k < 2) {
			cut = write_tmp(data, len / 2, compressed_ext[k]);  /* cut short */
		} else {
			memset(data + 10, 0x55, len - 20);       /* a gzip header, then junk */
			cut = write_tmp(data, len, ".gz");
		}
		r = import_path(cut, &defaults, &st, &err);
		assert_null(r);
		if (err->code != IS_ERROR_IO || !strstr(err->message, cut) ||
		    !strstr(err->message, "read error after line ") ||
		    !strstr(err->message, "compressed data corrupt or cut short"))
			fail_msg("case %d: '%s'", k, err->message);
		g_clear_error(&err);
		g_unlink(cut);
	}
	unlink_compressed(in);
}

/*
 * Tick handling: tick_stop(success=1) between the exit of one pass and
 * the entry of the next is that pass's stop_tick = 1, with the tick still
 * running at select (ts 0).  The following pass, with no task between,
 * starts with the tick stopped (ts 1); the stopped tick's timer holds the
 * next event, so sleep = delta = its expiry (timer clock = trace clock
 * here: the expiry's now equals its timestamp).
 *  - entry 2.000000: tick pending at 2010000000 (tick running):
 *    delta 10000000; no other hrtimer: sleep unknown -> 1 s (HZ ticks), est=sleep.
 *  - entry 2.000300: stopped this pass (ts 0, stop=1), the tick timer
 *    reprogrammed to the next event the kernel found, 2050000000.  No
 *    interrupt since the loop's first entry: idle_entrytime is still
 *    2.000100, so the sleep length is 2050000000 - 2000100000 = 49900000,
 *    and delta_next the tick on the grid, 2010000000 - 2000100000 =
 *    9900000.
 *    Woken by an irq after the exit (ppc style) -> irq.
 *  - entry 2.001000, after the irq: ts 1 (stopped, not by this pass):
 *    sleep = delta = 2050000000 - 2001000000 = 49000000, exact.  Ended by an IPI from
 *    CPU 1 -> ipi; the switch after it clears the stopped tick.
 */
/*
 * The poll overrun: 21 polls (power9's snooze) left without need_resched
 * and with no interrupt, lasting 25, 26, ... 45 us: cause poll, median
 * 35 us; cpuidle_poll_time() of power9 is 10 us (stop0_lite's target
 * residency, under TICK_NSEC / 16): poll_overrun_ns 25000 in the header.
 * One more poll left with need_resched ('N') is an ipi, not counted.
 * With 19 polls there is no measurement: 0.
 */
static void test_poll_overrun(void **state)
{
	const struct is_state_table *t = is_states_builtin("power9");
	const struct is_trace_header *rh;
	struct is_trace_reader *rd;
	struct is_capture_stats st;
	struct is_trace_header h;
	GError *err = NULL;

	(void)state;
	for (int n = 21; n >= 19; n -= 2) {
		GString *in = g_string_new(HEAD);
		g_autofree char *path = NULL, *out = tmpname(".trace");

		for (int i = 0; i < n; i++) {
			int64_t at = 5000000 + 100 * i;    /* us */

			g_string_append_printf(in, "          <idle>-0       [000] d....  %d.%06d: "
					       "cpu_idle: state=0 cpu_id=0\n", (int)(at / 1000000),
					       (int)(at % 1000000));
			at += 25 + i;
			g_string_append_printf(in, "          <idle>-0       [000] d....  %d.%06d: "
					       "cpu_idle: state=4294967295 cpu_id=0\n",
					       (int)(at / 1000000), (int)(at % 1000000));
		}
		g_string_append(in, L(0, "5.100000", "cpu_idle: state=0 cpu_id=0")
				"          <idle>-0       [000] dN...  5.100050: cpu_idle: "
				"state=4294967295 cpu_id=0\n");
		path = write_tmp(in->str, in->len, ".txt");
		g_string_free(in, TRUE);
		is_trace_header_init(&h);
		g_strlcpy(h.states, "power9", sizeof(h.states));
		h.state_count = t->count;
		h.hz = 100;
		assert_true(is_import_capture(path, out, IS_FMT_TEXT, &h, t, 0, &defaults, &st, &err));
		assert_null(err);
		is_trace_header_clear(&h);
		assert_int_equal(st.poll_limit_ns, 10000);
		rd = is_trace_open(out, &err);
		assert_non_null(rd);
		rh = is_trace_reader_header(rd);
		assert_int_equal(st.cause[IS_CAUSE_IPI], 1);
		assert_int_equal(st.poll_limit_periods, n);
		if (n == 21) {
			assert_int_equal(st.poll_median_ns, 35000);
			assert_int_equal(rh->poll_overrun_ns, 25000);
		} else {
			assert_int_equal(rh->poll_overrun_ns, 0);
		}
		is_trace_close(rd);
		g_unlink(out);
		g_unlink(path);
	}
}

/*
 * The tick's state and the sleep length's "now" through one idle loop
 * (offset 0: trace clock = timer clock):
 *  - 2.000100: the tick runs (success=0 is no stop); nothing but the tick
 *    pending: sleep 1 s (est=sleep), delta_next = 2010000000 - 2000100000;
 *  - 2.000200: the exit from state 2 (no polling, no need_resched) came
 *    on an interrupt, whose exit moved idle_entrytime: the next pass
 *    measures from its own entry, 2.000300 (the tick's timer, stopped by
 *    this pass, at 2.050 s: sleep 49.7 ms; delta_next, the grid, 9.7 ms);
 *  - 2.001000: the tick stopped by the previous pass: sleep = delta_next
 *    = 2.050 s - 2.001 s.
 */
static void test_tick(void **state)
{
	const char *in = HEAD
		L(0, "2.000000", "hrtimer_expire_entry: hrtimer=00000000aaaa0001 function=tick_nohz_handler now=2000000000")
		L(0, "2.000000", "hrtimer_start: hrtimer=00000000aaaa0001 function=tick_nohz_handler expires=2010000000 softexpires=2010000000 mode=ABS was_armed=0")
		T(0, "2.000050", "sched_switch: prev_comm=worker prev_pid=55 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120")
		L(0, "2.000010", "tick_stop: success=0 dependency=SCHED")
		L(0, "2.000100", "cpu_idle: state=2 cpu_id=0")
		L(0, "2.000200", "cpu_idle: state=4294967295 cpu_id=0")
		L(0, "2.000250", "tick_stop: success=1 dependency=NONE")
		L(0, "2.000260", "hrtimer_start: hrtimer=00000000aaaa0001 function=tick_nohz_handler expires=2050000000 softexpires=2050000000 mode=ABS|PINNED|HARD was_armed=1")
		L(0, "2.000300", "cpu_idle: state=4 cpu_id=0")
		L(0, "2.000900", "cpu_idle: state=4294967295 cpu_id=0")
		L(0, "2.000910", "irq_handler_entry: irq=24 name=virtio0")
		L(0, "2.001000", "cpu_idle: state=5 cpu_id=0")
		T(1, "2.003000", "ipi_send_cpu: cpu=0 callsite=foo+0x10/0x20 callback=bar+0x0/0x10")
		L(0, "2.003100", "cpu_idle: state=4294967295 cpu_id=0")
		L(0, "2.003200", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120");
	struct is_capture_stats st;
	GError *err = NULL;
	g_autofree char *r = import_text(in, &defaults, &st, &err);

	(void)state;
	assert_null(err);
	assert_string_equal(r,
		"I 0 2000100000 1000000000 9900000 0 2147483647000 100000 unknown k=2 nw=1 est=sleep\n"
		"I 0 2000300000 49700000 9700000 0 2147483647000 600000 irq k=4 stop=1 nw=1\n"
		"I 0 2001000000 49000000 49000000 1 2147483647000 2100000 ipi k=5\n");
	assert_int_equal(st.exact, 2);
	assert_int_equal(st.est_sleep, 1);
}

/*
 * The kprobes of tools/capture/probes.sh (offset 0: the tick's expiry at
 * 2.000000 has now=2000000000; timer:tick_stop traced, none seen):
 *  - pass 1 (entry 2.000100): the governor read a latency limit of 50 us,
 *    a sleep length of 30 ms and *delta_next 9.939 ms, and said stop; no
 *    tick_stop follows (the kernel kept the tick): stop=1, slr=1, nothing
 *    estimated (from the tracked timers alone: 1 s, est=sleep);
 *  - pass 2 (entry 2.001030, no task in between: nw=1 on pass 1): no
 *    sleep-length probe, so the governor read none: slr=0 and 0, 0 as in
 *    the series' records; the retain probe: no stop; the limit back to
 *    PM QoS's "none" (2000 s).
 * Each has span and lres: the governor's clock from the select (its
 * first latency reading: 2.000060, 2.001020) to the exit (940 and 80 us),
 * and the period (900 and 70 us).  CPU 1's period at 1.9 s, before any
 * probe, had no select (the default idle loop before the cpuidle driver):
 * held, then dropped when the first probe came.  The draw inside pass 1's
 * select is the governor's (rnd=); the one between the passes is not.
 * Likewise nr_iowait: the selects' readings (menu of 6.1 reads it after
 * the sleep length) are io=2 and io=0; the interrupt's from idle
 * (tick_nohz_stop_idle()) is no select's.
 * With no_probes the same capture gives the tracepoints' reconstruction,
 * CPU 1's period included.
 */
static void test_probes(void **state)
{
	const char *in = HEAD
		L(1, "1.899000", "idlesim_draw: (get_random_u32+0x0/0x80 <- get_random_u32) draw=1")
		L(1, "1.899990", "idlesim_stop_tick: (tick_nohz_idle_stop_tick+0x0/0x40)")
		L(1, "1.900000", "cpu_idle: state=1 cpu_id=1")
		L(1, "1.900500", "cpu_idle: state=4294967295 cpu_id=1")
		L(1, "1.900600", "sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=56 next_prio=120")
		L(0, "2.000000", "hrtimer_expire_entry: hrtimer=00000000aaaa0001 function=tick_nohz_handler now=2000000000")
		L(0, "2.000000", "hrtimer_start: hrtimer=00000000aaaa0001 function=tick_nohz_handler expires=2010000000 softexpires=2010000000 mode=ABS was_armed=0")
		T(0, "2.000050", "sched_switch: prev_comm=worker prev_pid=55 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120")
		L(0, "2.000060", "idlesim_latency_req: (teo_select+0x37/0x5fc <- cpuidle_governor_latency_req) latency_req_ns=50000")
		L(0, "2.000061", "idlesim_sleep_length: (teo_select+0x544/0x5fc <- tick_nohz_get_sleep_length) sleep_ns=30000000 delta_next_ns=9939000")
		L(0, "2.000061", "idlesim_draw: (__teo_select+0x123/0x5fc <- get_random_u32) draw=3441808534")
		L(0, "2.000061", "idlesim_nr_iowait: (menu_select+0x9a/0x3a0 <- nr_iowait_cpu) nr_iowait=2")
		L(0, "2.000062", "idlesim_stop_tick: (tick_nohz_idle_stop_tick+0x0/0x40)")
		L(0, "2.000100", "cpu_idle: state=4 cpu_id=0")
		L(0, "2.001000", "cpu_idle: state=4294967295 cpu_id=0")
		L(0, "2.001010", "irq_handler_entry: irq=24 name=virtio0")
		L(0, "2.001011", "idlesim_nr_iowait: (tick_nohz_stop_idle+0x28/0x54 <- nr_iowait_cpu) nr_iowait=5")
		L(0, "2.001012", "idlesim_reflect: (cpuidle_reflect+0x0/0x30) index=4 residency_ns=899321 poll_limit=0")
		L(0, "2.001013", "idlesim_got_tick: (teo_reflect+0x30/0x5c <- tick_nohz_idle_got_tick) got_tick=1")
		L(0, "2.001014", "idlesim_got_tick: (do_idle+0x14d/0x183 <- tick_nohz_idle_got_tick) got_tick=0")
		L(0, "2.001015", "idlesim_draw: (some_irq_work+0x10/0x80 <- get_random_u32) draw=7")
		L(0, "2.001016", "idlesim_latency_req: (teo_select+0x37/0x5fc <- cpuidle_governor_latency_req) latency_req_ns=2000000000000")
		L(0, "2.001016", "idlesim_nr_iowait: (menu_select+0x9a/0x3a0 <- nr_iowait_cpu) nr_iowait=0")
		L(0, "2.001017", "idlesim_retain_tick: (tick_nohz_idle_retain_tick+0x0/0x20)")
		L(0, "2.001017", "idlesim_select: (do_idle+0x14d/0x183 <- cpuidle_select) state=2 stop_tick=0")
		L(0, "2.001018", "idlesim_reflect: (cpuidle_reflect+0x0/0x30) index=-16 residency_ns=0 poll_limit=0")
		L(0, "2.001020", "idlesim_latency_req: (teo_select+0x37/0x5fc <- cpuidle_governor_latency_req) latency_req_ns=2000000000000")
		L(0, "2.001021", "idlesim_retain_tick: (tick_nohz_idle_retain_tick+0x0/0x20)")
		L(0, "2.001030", "cpu_idle: state=1 cpu_id=0")
		L(0, "2.001100", "cpu_idle: state=4294967295 cpu_id=0")
		L(0, "2.001101", "idlesim_reflect: (cpuidle_reflect+0x0/0x30) index=1 residency_ns=72001 poll_limit=0")
		L(0, "2.001200", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120");
	struct is_capture_options o = defaults;
	struct is_capture_stats st;
	GError *err = NULL;
	g_autofree char *r = NULL, *r0 = NULL;

	(void)state;
	o.tick_stop_traced = true;
	r = import_text(in, &o, &st, &err);
	assert_null(err);
	assert_string_equal(r,
		"I 0 2000100000 30000000 9939000 0 50000 899321 irq k=4 stop=1 span=953000 lres=899321 gt=1 pl=0 rnd=3441808534 slr=1 io=2\n"
		"I 0 2001016000 0 0 0 2000000000000 0 unknown k=2 stop=0 span=0 lres=0 gt=0 pl=0 slr=0 io=0 rej=1\n"
		"I 0 2001030000 0 0 0 2000000000000 70000 unknown k=1 stop=0 span=80000 lres=70000 slr=0\n");
	/*
	 * CPU 1's period: held, its stop and draw probes being the default
	 * idle loop's and an early caller's, then dropped at the first
	 * select; the residencies: 899321 taken, -16 a refused entry,
	 * 72001 longer than its traced 70 us by more than the 2 us allowed;
	 * got_tick: the governor's reading, not do_idle()'s after it; no
	 * nw=1 on the first, whose stop probe no tick_stop followed (the
	 * kernel kept the tick); the
	 * refused select (its state from the select probe) a rej=1 record
	 * after the period before it
	 */
	assert_int_equal(st.probe_unselected, 1);
	assert_int_equal(st.probe_sleep, 1);
	assert_int_equal(st.probe_latreq, 3);
	assert_int_equal(st.probe_stop, 4);
	assert_int_equal(st.probe_draw, 3);
	/* nr_iowait: the two selects' readings, not the interrupt's */
	assert_int_equal(st.probe_iowait, 3);
	assert_int_equal(st.probe_iowait_records, 2);
	assert_int_equal(st.probe_reflect, 3);
	assert_int_equal(st.probe_lres_records, 1);
	assert_int_equal(st.probe_reflect_busy, 1);
	assert_int_equal(st.probe_reflect_off, 1);
	assert_int_equal(st.probe_reflect_other, 0);
	assert_int_equal(st.probe_got_tick, 2);
	assert_int_equal(st.probe_select, 1);
	assert_int_equal(st.probe_rejected_records, 1);
	assert_int_equal(st.probe_rejected_dropped, 0);
	assert_int_equal(st.probe_sleep_records, 3);
	assert_true(st.probe_delta);
	assert_int_equal(st.exact, 3);

	o.no_probes = true;
	r0 = import_text(in, &o, &st, &err);
	assert_null(err);
	assert_string_equal(r0,
		"I 1 1900000000 1000000000 10000000 0 2147483647000 500000 unknown k=1 est=sleep+ts\n"
		"I 0 2000100000 1000000000 9900000 0 2147483647000 900000 irq k=4 nw=1 est=sleep\n"
		"I 0 2001030000 1000000000 8970000 0 2147483647000 70000 unknown k=1 est=sleep\n");
	assert_int_equal(st.probe_sleep, 1);
	assert_int_equal(st.probe_sleep_records, 0);
	assert_int_equal(st.probe_iowait_records, 0);
}

/*
 * teo's span from its probe (idlesim_teo_span at teo_reflect()'s return,
 * a pair of fields per CPU): pass 1 takes CPU 0's s0 (952345 ns, where the
 * trace's estimate, latency probe to got-tick probe, is 953 us); pass 2's
 * span is its sleep length (a safety net: the tick ran with a sleep length
 * above a tick), so the estimate (82 us) stays; pass 3's reading lies 4.9 ms
 * from the estimate (92 us): not taken, counted.  An event holding other
 * CPUs' fields only (idlesim_teo_span32) is not this CPU's.  A reading with
 * its s<CPU> but no l<CPU> is refused, naming the file, line and field.
 */
#define TSEL(ts, slp) L(0, ts, "idlesim_latency_req: (teo_select+0x37/0x5fc <- cpuidle_governor_latency_req) latency_req_ns=2000000000000") \
	L(0, ts, "idlesim_sleep_length: (teo_select+0x544/0x5fc <- tick_nohz_get_sleep_length) sleep_ns=" slp " delta_next_ns=" slp) \
	L(0, ts, "idlesim_stop_tick: (tick_nohz_idle_stop_tick+0x0/0x40)")
#define TREFL(ts, idx, res, gt) L(0, ts, "idlesim_reflect: (cpuidle_reflect+0x0/0x30) index=" idx " residency_ns=" res " poll_limit=0") \
	L(0, ts, "idlesim_got_tick: (teo_reflect+0x30/0x5c <- tick_nohz_idle_got_tick) got_tick=" gt)
static void test_teo_span_probe(void **state)
{
	const char *in = HEAD
		T(0, "2.000050", "sched_switch: prev_comm=worker prev_pid=55 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120")
		TSEL("2.000060", "30000000")
		L(0, "2.000100", "cpu_idle: state=4 cpu_id=0")
		L(0, "2.001000", "cpu_idle: state=4294967295 cpu_id=0")
		TREFL("2.001013", "4", "899321", "0")
		L(0, "2.001014", "idlesim_teo_span: (do_idle+0x14d/0x183 <- teo_reflect) s0=952345 l0=30000000 s1=1 l1=2")
		TSEL("2.001020", "29000000")
		L(0, "2.001030", "cpu_idle: state=1 cpu_id=0")
		L(0, "2.001100", "cpu_idle: state=4294967295 cpu_id=0")
		TREFL("2.001102", "1", "69000", "1")
		L(0, "2.001103", "idlesim_teo_span: (do_idle+0x14d/0x183 <- teo_reflect) s0=29000000 l0=29000000 s1=1 l1=2")
		TSEL("2.001110", "28000000")
		L(0, "2.001120", "cpu_idle: state=1 cpu_id=0")
		L(0, "2.001200", "cpu_idle: state=4294967295 cpu_id=0")
		TREFL("2.001202", "1", "79000", "0")
		L(0, "2.001203", "idlesim_teo_span32: (do_idle+0x14d/0x183 <- teo_reflect) s32=92000 l32=1")
		L(0, "2.001203", "idlesim_teo_span: (do_idle+0x14d/0x183 <- teo_reflect) s0=5000000 l0=28000000 s1=1 l1=2")
		L(0, "2.001300", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120");
	struct is_capture_options o = defaults;
	struct is_capture_stats st;
	GError *err = NULL;
	g_autofree char *r = NULL, *bad = NULL, *r2 = NULL;
	g_auto(GStrv) lines = NULL;

	(void)state;
	o.tick_stop_traced = true;
	r = import_text(in, &o, &st, &err);
	assert_null(err);
	lines = g_strsplit(r, "\n", -1);
	assert_int_equal(g_strv_length(lines), 4);
	assert_non_null(strstr(lines[0], " span=952345 "));
	assert_non_null(strstr(lines[1], " span=82000 "));
	assert_non_null(strstr(lines[2], " span=92000 "));
	assert_int_equal(st.probe_teo_span, 3); /* span32: not counted */
	assert_int_equal(st.probe_span_records, 1);
	assert_int_equal(st.probe_span_net, 1);
	assert_int_equal(st.probe_span_off, 1);

	/* without the probe: the estimate */
	{
		g_autofree char *in2 = g_strdup(in);
		char *q = strstr(in2, "s0=952345 l0=");

		q[0] = 'x'; /* "x0=": this CPU's pair absent */
		q[10] = 'y';
		r2 = import_text(in2, &o, &st, &err);
		assert_null(err);
		assert_non_null(strstr(r2, " span=953000 "));
		assert_int_equal(st.probe_span_records, 0);
	}

	bad = import_text(HEAD
		L(0, "2.001014", "idlesim_teo_span: (do_idle+0x14d/0x183 <- teo_reflect) s0=952345 s1=1 l1=2"),
		&o, &st, &err);
	assert_null(bad);
	assert_non_null(err);
	assert_non_null(strstr(err->message, ".txt:5: field 'l0'"));
	g_clear_error(&err);
}

/*
 * need_resched set after a pass's exit, not on it (an interrupt handler
 * after the exit woke a task: "dnh.."): do_idle() leaves its loop at the
 * pass's end (the tick restarts) and may come back with no task switch.
 * The next pass then runs with the tick (ts 0) and the first is not
 * nw=1.  Without the flag the tick stays stopped into the second pass.
 * Seen on the ppc64le guest: one decision of menu's rt-app capture.
 */
#define LF(c, ts, fl, ev) "          <idle>-0       [00" #c "] " fl "  " ts ": " ev "\n"
static void test_need_resched_after_exit(void **state)
{
	const char *in = HEAD
		T(0, "3.000000", "sched_switch: prev_comm=worker prev_pid=55 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120")
		L(0, "3.000010", "tick_stop: success=1 dependency=NONE")
		L(0, "3.000020", "cpu_idle: state=4 cpu_id=0")
		L(0, "3.005000", "cpu_idle: state=4294967295 cpu_id=0")
		LF(0, "3.005001", "d.h..", "hrtimer_expire_entry: hrtimer=00000000bb1cdcaa function=dl_task_timer now=3005001000")
		LF(0, "3.005002", "dnh..", "hrtimer_expire_exit: hrtimer=00000000bb1cdcaa")
		L(0, "3.005100", "cpu_idle: state=2 cpu_id=0")
		L(0, "3.006000", "cpu_idle: state=4294967295 cpu_id=0")
		L(0, "3.006100", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120");
	struct is_capture_options o = defaults;
	struct is_capture_stats st;
	GError *err = NULL;
	g_autofree char *r = NULL, *r0 = NULL, *in0 = NULL;
	g_auto(GStrv) l = NULL, l0 = NULL;

	(void)state;
	o.tick_stop_traced = true;
	r = import_text(in, &o, &st, &err);
	assert_null(err);
	l = g_strsplit(r, "\n", -1);
	assert_int_equal(g_strv_length(l), 3);
	assert_null(strstr(l[0], " nw=1"));
	/* fields: I cpu t sleep tick ts ... */
	assert_true(g_str_has_prefix(l[1], "I 0 3005100000 "));
	assert_int_equal(strtol(strchr(strchr(strchr(strchr(strchr(l[1], ' ') + 1, ' ') + 1, ' ') + 1, ' ') + 1, ' ') + 1, NULL, 10), 0);

	/* the same flag cleared: the tick stays stopped, nw=1 on the first */
	in0 = replace(in, "] dnh..  ", "] d.h..  ");
	r0 = import_text(in0, &o, &st, &err);
	assert_null(err);
	l0 = g_strsplit(r0, "\n", -1);
	assert_int_equal(g_strv_length(l0), 3);
	assert_non_null(strstr(l0[0], " nw=1"));
	assert_int_equal(strtol(strchr(strchr(strchr(strchr(strchr(l0[1], ' ') + 1, ' ') + 1, ' ') + 1, ' ') + 1, ' ') + 1, NULL, 10), 1);
}

/*
 * idlesim-capture's reset of the governor (teo -> ladder -> teo, a trace
 * marker after each switch): each CPU's periods before its first select by
 * teo after the first marker are dropped (their governor state is not
 * known), ladder's own selects too; CPU 1's first select after the reset
 * is teo's, CPU 0's comes after a ladder one.  With the callers given as
 * numbers (no symbols), the first select after the second marker counts
 * instead.  A bundle that says it reset the governor with no marker in
 * its capture is refused.
 */
#define SEL(c, ts, fn) L(c, ts, "idlesim_latency_req: (" fn "+0x37/0x5fc <- cpuidle_governor_latency_req) latency_req_ns=2000000000000")
#define STOP(c, ts) L(c, ts, "idlesim_stop_tick: (tick_nohz_idle_stop_tick+0x0/0x40)")
#define MARK(c, ts, g) T(c, ts, "tracing_mark_write: idlesim-capture: governor " g)
#define PERIOD(c, t0, t1, st) L(c, t0, "cpu_idle: state=" st " cpu_id=" #c) \
	L(c, t1, "cpu_idle: state=4294967295 cpu_id=" #c)
static void test_governor_reset(void **state)
{
	const char *in = HEAD
		SEL(0, "1.000000", "teo_select") STOP(0, "1.000001") PERIOD(0, "1.000010", "1.000100", "2")
		MARK(1, "1.000200", "ladder")
		SEL(0, "1.000300", "ladder_select_state") STOP(0, "1.000301") PERIOD(0, "1.000310", "1.000400", "1")
		MARK(1, "1.000500", "teo")
		SEL(1, "1.000600", "teo_select") STOP(1, "1.000601") PERIOD(1, "1.000610", "1.000700", "3")
		SEL(0, "1.000800", "teo_select") STOP(0, "1.000801") PERIOD(0, "1.000810", "1.000900", "4");
	struct is_capture_options o = defaults;
	struct is_capture_stats st;
	GError *err = NULL;
	g_autofree char *r = NULL, *r2 = NULL, *hex = NULL, *r3 = NULL;
	GString *g;

	(void)state;
	r = import_text(in, &o, &st, &err);
	assert_null(err);
	assert_int_equal(st.records, 4);
	assert_int_equal(st.reset_dropped, 0);
	g_strlcpy(o.reset_governor, "ladder", sizeof(o.reset_governor));
	r2 = import_text(in, &o, &st, &err);
	assert_null(err);
	assert_int_equal(st.records, 2);
	assert_int_equal(st.reset_dropped, 2);
	assert_non_null(strstr(r2, "I 1 1000610000 "));
	assert_non_null(strstr(r2, "I 0 1000810000 "));
	/* callers as numbers: CPU 1's select after the second marker is fresh too */
	g = g_string_new(in);
	g_string_replace(g, "(teo_select+0x37/0x5fc <-", "(ffffffff8109cb72 <-", 0);
	g_string_replace(g, "(ladder_select_state+0x37/0x5fc <-", "(ffffffff8109db72 <-", 0);
	hex = g_string_free(g, FALSE);
	r3 = import_text(hex, &o, &st, &err);
	assert_null(err);
	assert_int_equal(st.records, 2);
	assert_int_equal(st.reset_dropped, 2);
	assert_string_equal(r3, r2);
	/* no marker: refused */
	g_strlcpy(o.reset_governor, "menu", sizeof(o.reset_governor));
	assert_null(import_text(in, &o, &st, &err));
	assert_non_null(err);
	assert_non_null(strstr(err->message, "no \"idlesim-capture: governor menu\" marker"));
	g_clear_error(&err);
}

/*
 * trace-cmd report prints a return probe's addresses as numbers, "(FUNC
 * <- RET)": whose got-tick reading it is (a governor's or do_idle()'s) is
 * told by the return address's distance from the select probe's, which
 * is in do_idle().  A pass like test_probes' first, with a select probe,
 * in both forms gives the same records (gt=1: the governor's reading,
 * not do_idle()'s 0 after it); before any select probe the readings'
 * callers are unknown and not taken (gt=0, as where none came).
 */
static void test_probes_hex(void **state)
{
	const char *sym = HEAD
		T(0, "2.000050", "sched_switch: prev_comm=worker prev_pid=55 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120")
		L(0, "2.000060", "idlesim_latency_req: (teo_select+0x37/0x5fc <- cpuidle_governor_latency_req) latency_req_ns=50000")
		L(0, "2.000061", "idlesim_sleep_length: (teo_select+0x544/0x5fc <- tick_nohz_get_sleep_length) sleep_ns=30000000 delta_next_ns=9939000")
		L(0, "2.000062", "idlesim_select: (do_idle+0xfa/0x183 <- cpuidle_select) state=4 stop_tick=0")
		L(0, "2.000063", "idlesim_retain_tick: (tick_nohz_idle_retain_tick+0x0/0x40)")
		L(0, "2.000100", "cpu_idle: state=4 cpu_id=0")
		L(0, "2.001000", "cpu_idle: state=4294967295 cpu_id=0")
		L(0, "2.001012", "idlesim_reflect: (cpuidle_reflect+0x0/0x30) index=4 residency_ns=899321 poll_limit=0")
		L(0, "2.001013", "idlesim_got_tick: (teo_reflect+0x30/0x5c <- tick_nohz_idle_got_tick) got_tick=1")
		L(0, "2.001014", "idlesim_got_tick: (do_idle+0x14d/0x183 <- tick_nohz_idle_got_tick) got_tick=0")
		L(0, "2.001200", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120");
	g_autofree char *h1 = replace(sym, "(do_idle+0xfa/0x183 <- cpuidle_select)",
				      "(ffffffff8120a125 <- ffffffff81064938)");
	g_autofree char *h2 = replace(h1, "(teo_reflect+0x30/0x5c <- tick_nohz_idle_got_tick)",
				      "(ffffffff8109cb72 <- ffffffff8120b405)");
	g_autofree char *hex = replace(h2, "(do_idle+0x14d/0x183 <- tick_nohz_idle_got_tick)",
				       "(ffffffff8109cb72 <- ffffffff8106498b)");
	g_autofree char *nosel = replace(hex, "idlesim_select: (ffffffff8120a125 <- ffffffff81064938) state=4 stop_tick=0",
					 "idlesim_stop_tick: (ffffffff8109cb23)");
	struct is_capture_options o = defaults;
	struct is_capture_stats st;
	GError *err = NULL;
	g_autofree char *r = NULL, *rh = NULL, *rn = NULL;

	(void)state;
	o.tick_stop_traced = true;
	r = import_text(sym, &o, &st, &err);
	assert_null(err);
	assert_non_null(strstr(r, " gt=1 "));
	rh = import_text(hex, &o, &st, &err);
	assert_null(err);
	assert_string_equal(rh, r);
	assert_int_equal(st.probe_got_tick_unknown, 0);
	rn = import_text(nosel, &o, &st, &err);
	assert_null(err);
	assert_int_equal(st.probe_got_tick_unknown, 2);
	assert_null(strstr(rn, " gt=1 "));
}

/*
 * A refused select with no period open before it (the last one written
 * at the task switch), under a governor that reads no sleep length
 * (ladder): its rej=1 record is written at once, without slr; the next
 * pass's entry is an ordinary period with its own select's inputs.
 */
static void test_probes_refused(void **state)
{
	const char *in = HEAD
		T(0, "3.000000", "sched_switch: prev_comm=worker prev_pid=55 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120")
		L(0, "3.000010", "idlesim_latency_req: (ladder_select+0x20/0x200 <- cpuidle_governor_latency_req) latency_req_ns=30000")
		L(0, "3.000011", "idlesim_select: (do_idle+0x14d/0x183 <- cpuidle_select) state=2 stop_tick=1")
		L(0, "3.000012", "idlesim_stop_tick: (tick_nohz_idle_stop_tick+0x0/0x40)")
		L(0, "3.000013", "idlesim_reflect: (cpuidle_reflect+0x0/0x30) index=-16 residency_ns=0 poll_limit=0")
		L(0, "3.000020", "idlesim_latency_req: (ladder_select+0x20/0x200 <- cpuidle_governor_latency_req) latency_req_ns=30000")
		L(0, "3.000021", "idlesim_select: (do_idle+0x14d/0x183 <- cpuidle_select) state=1 stop_tick=0")
		L(0, "3.000022", "idlesim_retain_tick: (tick_nohz_idle_retain_tick+0x0/0x20)")
		L(0, "3.000030", "cpu_idle: state=1 cpu_id=0")
		L(0, "3.000130", "cpu_idle: state=4294967295 cpu_id=0")
		L(0, "3.000131", "idlesim_reflect: (cpuidle_reflect+0x0/0x30) index=1 residency_ns=99500 poll_limit=0")
		L(0, "3.000140", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120");
	struct is_capture_options o = defaults;
	struct is_capture_stats st;
	GError *err = NULL;
	g_autofree char *r = NULL;

	(void)state;
	o.tick_stop_traced = true;
	r = import_text(in, &o, &st, &err);
	assert_null(err);
	assert_string_equal(r,
		"I 0 3000010000 0 0 0 30000 0 unknown k=2 stop=1 span=0 lres=0 gt=0 pl=0 rej=1\n"
		"I 0 3000030000 1000000000 9970000 0 30000 99500 unknown k=1 stop=0 span=111000 lres=99500 pl=0 est=sleep\n");
	assert_int_equal(st.probe_rejected_records, 1);
	assert_int_equal(st.probe_rejected_dropped, 0);
}

/*
 * A refused select is known only at its reflect probe, but stamped with
 * its pass's start: the periods other CPUs end in between must not be
 * written before it (the x86_64 guest's combined capture of 2026-12-07:
 * "timestamp goes backwards").  Records go out in batches of 64: CPU 1's
 * pass starts at 3.000010 and is refused at 3.000732; CPU 0 ends 70
 * periods in between, from 3.000014 on.
 */
static void test_probes_refused_order(void **state)
{
	GString *in = g_string_new(HEAD);
	struct is_capture_options o = defaults;
	struct is_capture_stats st;
	GError *err = NULL;
	g_autofree char *r = NULL;
	g_auto(GStrv) lines = NULL;

	(void)state;
#define EV(c, us, e) g_string_append_printf(in, "<idle>-0 [00%d] d....  3.%06d: %s\n", c, us, e)
	g_string_append(in, T(1, "3.000000", "sched_switch: prev_comm=worker prev_pid=56 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120")
			    T(0, "3.000001", "sched_switch: prev_comm=worker prev_pid=55 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"));
	EV(1, 10, "idlesim_latency_req: (ladder_select+0x20/0x200 <- cpuidle_governor_latency_req) latency_req_ns=30000");
	for (int k = 0; k < 70; k++) {
		int us = 11 + 10 * k;

		EV(0, us, "idlesim_latency_req: (ladder_select+0x20/0x200 <- cpuidle_governor_latency_req) latency_req_ns=30000");
		EV(0, us + 1, "idlesim_select: (do_idle+0x14d/0x183 <- cpuidle_select) state=1 stop_tick=0");
		EV(0, us + 2, "idlesim_retain_tick: (tick_nohz_idle_retain_tick+0x0/0x20)");
		EV(0, us + 3, "cpu_idle: state=1 cpu_id=0");
		EV(0, us + 8, "cpu_idle: state=4294967295 cpu_id=0");
		EV(0, us + 9, "idlesim_reflect: (cpuidle_reflect+0x0/0x30) index=1 residency_ns=4500 poll_limit=0");
	}
	g_string_append(in, T(0, "3.000720", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120"));
	EV(1, 730, "idlesim_select: (do_idle+0x14d/0x183 <- cpuidle_select) state=2 stop_tick=0");
	EV(1, 731, "idlesim_retain_tick: (tick_nohz_idle_retain_tick+0x0/0x20)");
	EV(1, 732, "idlesim_reflect: (cpuidle_reflect+0x0/0x30) index=-16 residency_ns=0 poll_limit=0");
	g_string_append(in, T(1, "3.000740", "sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=56 next_prio=120"));
#undef EV
	o.tick_stop_traced = true;
	r = import_text(in->str, &o, &st, &err);
	g_string_free(in, TRUE);
	assert_null(err);
	lines = g_strsplit(r, "\n", -1);
	assert_int_equal(g_strv_length(lines), 72);
	assert_string_equal(lines[0], "I 1 3000010000 0 0 0 30000 0 unknown k=2 stop=0 span=0 lres=0 gt=0 pl=0 rej=1");
	assert_true(g_str_has_prefix(lines[1], "I 0 3000014000 "));
	assert_true(g_str_has_prefix(lines[70], "I 0 3000704000 "));
	assert_int_equal(st.probe_rejected_records, 1);
}

/*
 * Tracking the hrtimers (offset 1 ms: trace clock - timer clock).
 * CPU 0, the tick found by its grid, provisionally to the end:
 *  - a boot-time function 0x..f10 starts its timer 8 times on the 10 ms
 *    grid, then 9 times off it (last at 1090000123); the tick proper,
 *    0x..f20, starts 9 times on the grid (last at 1010000000).  0x..f20
 *    is the tick (the most on-grid starts, more on than off); fixing the
 *    answer after 8 such starts (an expiry in between asks) took 0x..f10
 *    for it, and gave sleep = delta_next = 10600000;
 *  - the entry at 1.000400 (timer clock 999400000, the loop's first):
 *    delta_next = the tick - now = 10600000; sleep = the other timer -
 *    now = 90600123.  Ended by an irq at 1.000600: 200 us.
 * CPU 1, the other CPU's cancel and a late interrupt:
 *  - timers d1 (1002000000) and d2 (1004000000) are started on CPU 1;
 *    CPU 0 cancels d1 (a timer is removed wherever it is queued);
 *  - the entry at 1.020000 (timer clock 1019000000; CPU 1's offset is 1 ms too)
 *    comes 15 ms after d2's expiry, with no expiry traced: d2 is still
 *    queued (timer interrupts can be that late: the QEMU guests' kernels
 *    read sleep lengths down to -11 ms), so sleep = delta_next =
 *    1004000000 - 1019000000 = -15 ms.  Dropping timers a tick past
 *    their expiry gave 1 s (est=sleep).  d2's expiry at 1.020100 ends it.
 */
static void test_timer_tracking(void **state)
{
	GString *in = g_string_new(HEAD);
	struct is_capture_stats st;
	GError *err = NULL;
	g_autofree char *r = NULL;
	char ts[32], ev[256];
	int n = 0;

	(void)state;
#define ADD(c, w, t, e) g_string_append_printf(in, "%s-%d [00%d] d....  %s: %s\n", w ? "worker" : "<idle>", w ? 55 : 0, c, t, e)
	ADD(0, 0, "1.000000", "hrtimer_expire_entry: hrtimer=00000000eeee0001 function=0xc000000000000001 now=999000000");
	ADD(1, 0, "1.000050", "hrtimer_expire_entry: hrtimer=00000000eeee0002 function=0xc000000000000001 now=999050000");
	for (int k = 1; k <= 26; k++) {
		int64_t e = k <= 8 ? 1000000000 + k * 10000000LL :
			    k <= 17 ? 1000000000 + (k - 8) * 10000000LL + 123 : 1010000000;

		g_snprintf(ts, sizeof(ts), "1.%06d", 10 + 10 * n++);
		g_snprintf(ev, sizeof(ev), "hrtimer_start: hrtimer=00000000%s function=0xc000000000000%s "
			   "expires=%" PRId64 " softexpires=%" PRId64 " mode=ABS was_armed=0",
			   k <= 17 ? "f1f10001" : "f2f20001", k <= 17 ? "f10" : "f20", e, e);
		ADD(0, 1, ts, ev);
		if (k == 8) /* an expiry asks which function is the tick's */
			ADD(0, 0, "1.000085", "hrtimer_expire_entry: hrtimer=00000000eeee0001 "
			    "function=0xc000000000000001 now=999085000");
	}
	ADD(1, 1, "1.000100", "hrtimer_start: hrtimer=00000000d1d10001 function=0xc000000000000f30 expires=1002000000 softexpires=1002000000 mode=ABS was_armed=0");
	ADD(1, 1, "1.000110", "hrtimer_start: hrtimer=00000000d2d20001 function=0xc000000000000f30 expires=1004000000 softexpires=1004000000 mode=ABS was_armed=0");
	ADD(1, 1, "1.000120", "tick_stop: success=0 dependency=SCHED");
	ADD(1, 1, "1.000130", "sched_switch: prev_comm=worker prev_pid=55 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120");
	ADD(0, 1, "1.000270", "tick_stop: success=0 dependency=SCHED");
	ADD(0, 1, "1.000280", "hrtimer_cancel: hrtimer=00000000d1d10001");
	ADD(0, 1, "1.000300", "sched_switch: prev_comm=worker prev_pid=55 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120");
	ADD(0, 0, "1.000400", "cpu_idle: state=3 cpu_id=0");
	ADD(0, 0, "1.000500", "irq_handler_entry: irq=24 name=virtio0");
	ADD(0, 0, "1.000600", "cpu_idle: state=4294967295 cpu_id=0");
	ADD(0, 0, "1.000700", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120");
	ADD(1, 0, "1.020000", "cpu_idle: state=2 cpu_id=1");
	ADD(1, 0, "1.020100", "hrtimer_expire_entry: hrtimer=00000000d2d20001 function=0xc000000000000f30 now=1019100000");
	ADD(1, 0, "1.020200", "cpu_idle: state=4294967295 cpu_id=1");
	ADD(1, 0, "1.020300", "sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120");
#undef ADD
	r = import_text(in->str, &defaults, &st, &err);
	g_string_free(in, TRUE);
	assert_null(err);
	assert_string_equal(r,
		"I 0 1000400000 90600123 10600000 0 2147483647000 200000 irq k=3\n"
		"I 1 1020000000 -15000000 -15000000 0 2147483647000 200000 timer k=2\n");
	assert_string_equal(st.tick_function, "0xc000000000000f20");
	assert_int_equal(st.est_sleep, 0);
}

/*
 * The machine's tick lateness: 21 expiries of the tick's timer, each
 * traced with now = its expiry + 150 us (one with an unknown expiry, the
 * first, before any start, does not count), give the header's
 * tick_late_ns: their median, 150 us.  With 19 of them: none (0).
 */
static void test_tick_late(void **state)
{
	(void)state;
	for (int n = 19; n <= 21; n += 2) {
		GString *in = g_string_new(HEAD);
		struct is_capture_stats st;
		GError *err = NULL;
		g_autofree char *r = NULL;

		g_string_append(in, L(0, "0.990000", "hrtimer_expire_entry: hrtimer=00000000aaaa0001 function=tick_nohz_handler now=989000000"));
		for (int k = 1; k <= n; k++) {
			int64_t ex = 1000000000 + k * 10000000LL;

			g_string_append_printf(in, "          <idle>-0       [000] d....  %d.%06d: hrtimer_start: "
					       "hrtimer=00000000aaaa0001 function=tick_nohz_handler expires=%" PRId64
					       " softexpires=%" PRId64 " mode=ABS|PINNED|HARD was_armed=0\n",
					       (int)((ex - 8000000) / 1000000000), (int)((ex - 8000000) / 1000 % 1000000), ex, ex);
			g_string_append_printf(in, "          <idle>-0       [000] d.h..  %d.%06d: hrtimer_expire_entry: "
					       "hrtimer=00000000aaaa0001 function=tick_nohz_handler now=%" PRId64 "\n",
					       (int)((ex + 1150000) / 1000000000), (int)((ex + 1150000) / 1000 % 1000000), ex + 150000);
		}
		g_string_append(in, T(0, "1.300000", "sched_switch: prev_comm=worker prev_pid=55 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120")
				    L(0, "1.300100", "cpu_idle: state=2 cpu_id=0")
				    L(0, "1.300200", "cpu_idle: state=4294967295 cpu_id=0")
				    L(0, "1.300300", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120"));
		r = import_text(in->str, &defaults, &st, &err);
		g_string_free(in, TRUE);
		assert_null(err);
		assert_non_null(r);
		assert_int_equal(st.tick_expiries, n);
		assert_int_equal(st.tick_late_median_ns, n >= 20 ? 150000 : 0);
	}
}

/*
 * With timer:tick_stop traced (tick_stop_traced), "no tick_stop seen"
 * means a running tick only once the CPU has been seen entering or
 * leaving the idle loop (sched_switch to or from pid 0): a CPU whose
 * first event is a cpu_idle entry may have stopped its tick before the
 * capture began (a ppc64le guest capture had exactly that), so its
 * periods until then are est=ts.
 *  - CPU 0 starts inside the idle loop: the entry at 4.000100 is est=ts
 *    (and est=sleep: no timer pending); after the switch away and back,
 *    the entry at 4.000500 has ts 0, exact.
 *  - CPU 1 is first seen switching to the idle task: known at once.
 * Without the option every period before a tick_stop event is est=ts.
 */
static void test_tick_traced_start(void **state)
{
	const char *in = HEAD
		L(0, "4.000100", "cpu_idle: state=2 cpu_id=0")
		L(0, "4.000200", "cpu_idle: state=4294967295 cpu_id=0")
		L(0, "4.000300", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120")
		T(0, "4.000400", "sched_switch: prev_comm=worker prev_pid=55 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120")
		L(0, "4.000500", "cpu_idle: state=2 cpu_id=0")
		L(0, "4.000600", "cpu_idle: state=4294967295 cpu_id=0")
		L(0, "4.000700", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120")
		T(1, "4.000100", "sched_switch: prev_comm=worker prev_pid=55 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120")
		L(1, "4.000200", "cpu_idle: state=3 cpu_id=1")
		L(1, "4.000400", "cpu_idle: state=4294967295 cpu_id=1")
		L(1, "4.000500", "sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120");
	const struct is_capture_options traced = { .format = IS_CAP_AUTO, .hz = 100,
						   .tick_stop_traced = true };
	struct is_capture_stats st;
	GError *err = NULL;
	g_autofree char *r = import_text(in, &traced, &st, &err);
	g_autofree char *u = NULL;

	(void)state;
	assert_null(err);
	assert_string_equal(r,
		"I 0 4000100000 1000000000 9900000 0 2147483647000 100000 unknown k=2 est=sleep+ts\n"
		"I 1 4000200000 1000000000 9800000 0 2147483647000 200000 unknown k=3 est=sleep\n"
		"I 0 4000500000 1000000000 9500000 0 2147483647000 100000 unknown k=2 est=sleep\n");
	assert_int_equal(st.est_ts, 1);
	u = import_text(in, &defaults, &st, &err);
	assert_null(err);
	assert_int_equal(st.est_ts, 3);
}

/*
 * Edges and gaps, on a capture whose every period but the cut ones is
 * the same shape (state 2 from t to t+100 us, woken by an irq):
 *  - CPU 1 starts inside a period (an exit first) and ends inside one:
 *    both dropped and counted;
 *  - CPU 0's exit at 3.000300 is missing: a task's event at 3.000250 is
 *    the first thing the CPU did, so the period lasts 250 us, est=idle;
 *    the one at 3.001000 has no exit and nothing after it before the next
 *    entry: dropped (no_exit);
 *  - a lost-events marker on CPU 0 drops the period open across it;
 *  - CPU 1 is taken offline inside a period (cpuhp_enter for cpu 1 on
 *    CPU 0): no period is made of its time offline;
 *  - unknown events are counted, and "CPU 1 buffer started" noted.
 * Every kept period lacks timers (sleep estimated: 1 s, tick_ns to the
 * next 10 ms grid point of the trace clock) and tick_stop (ts).
 */
static void test_gaps(void **state)
{
	const char *in = HEAD
		"##### CPU 1 buffer started ####\n"
		L(1, "3.000010", "cpu_idle: state=4294967295 cpu_id=1")
		L(0, "3.000000", "cpu_idle: state=2 cpu_id=0")
		T(0, "3.000250", "foo_event: x=1")
		L(0, "3.000400", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120")
		L(0, "3.001000", "cpu_idle: state=2 cpu_id=0")
		L(0, "3.002000", "cpu_idle: state=2 cpu_id=0")
		L(0, "3.002100", "cpu_idle: state=4294967295 cpu_id=0")
		L(0, "3.002110", "irq_handler_entry: irq=3 name=x")
		L(0, "3.003000", "cpu_idle: state=2 cpu_id=0")
		"CPU:0 [LOST 7 EVENTS]\n"
		L(0, "3.003100", "cpu_idle: state=4294967295 cpu_id=0")
		L(1, "3.004000", "cpu_idle: state=3 cpu_id=1")
		T(0, "3.004500", "cpuhp_enter: cpu: 0001 target: 0 step: 233 (sched_cpu_dying)")
		T(1, "3.900000", "sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=55 next_prio=120")
		L(1, "3.950000", "cpu_idle: state=4 cpu_id=1");
	struct is_capture_stats st;
	GError *err = NULL;
	g_autofree char *r = import_text(in, &defaults, &st, &err);

	(void)state;
	assert_null(err);
	assert_string_equal(r,
		"I 0 3000000000 1000000000 10000000 0 2147483647000 250000 unknown k=2 est=sleep+ts+idle\n"
		"I 0 3002000000 1000000000 8000000 0 2147483647000 100000 irq k=2 nw=1 est=sleep+ts\n");
	assert_int_equal(st.partial_start, 1);
	assert_int_equal(st.partial_end, 1);
	assert_int_equal(st.no_exit, 1);
	assert_int_equal(st.lost_markers, 1);
	assert_int_equal(st.lost_dropped, 1);
	assert_int_equal(st.hotplug_dropped, 1);
	assert_int_equal(st.buffer_starts, 1);
	assert_int_equal(st.unknown_events, 1);
	assert_int_equal(st.est_idle, 1);
	assert_int_equal(st.records, 2);
}

/* Malformed input: an error naming the file, the line and the field. */
static const struct {
	const char *name, *text;
	const char *expect[2];
} bad[] = {
	{ "state beyond the table", HEAD L(0, "1.0", "cpu_idle: state=7 cpu_id=0"),
	  { ":5: field 'state'", "outside the state table (power9, 7 states)" } },
	{ "cpu_id mismatch", HEAD L(0, "1.0", "cpu_idle: state=1 cpu_id=1"),
	  { ":5: field 'cpu_id'", "not the line's CPU" } },
	{ "no state", HEAD L(0, "1.0", "cpu_idle: cpu_id=0"),
	  { ":5: field 'state'", "missing" } },
	{ "bad timestamp", HEAD "  <idle>-0  [000] d....  1.x: cpu_idle: state=1 cpu_id=0\n",
	  { ":5: field 'timestamp'", "not an ftrace event line" } },
	{ "garbage", HEAD "hello world\n", { ":5: field 'cpu'", "not an ftrace event line" } },
	{ "bad miss type", HEAD L(0, "1.0", "cpu_idle_miss: cpu_id=0 state=1 type=sideways"),
	  { ":5: field 'type'", "above or below" } },
	{ "bad cpumask", HEAD L(0, "1.0", "ipi_send_cpumask: cpumask=3-1 callsite=x callback=y"),
	  { ":5: field 'cpumask'", "not a CPU list" } },
	{ "no period", HEAD L(0, "1.0", "cpu_idle: state=1 cpu_id=0"),
	  { "no complete idle period", "" } },
	{ "NUL byte", HEAD "ab\0cd\n", { ":5: field 'line'", "NUL" } },
	/* the field named is the one missing */
	{ "no next_pid", HEAD TWO_PERIODS L(0, "1.005", "sched_switch: prev_comm=a prev_pid=1 "
					     "prev_prio=120 prev_state=S ==> next_comm=b")
	  "x\n", { ":19: field 'next_pid'", "missing" } },
	/*
	 * One timestamp 85 s back among neighbours that agree: an error naming
	 * the line, not an 85 s idle period.
	 */
	{ "damaged timestamp", HEAD
	  L(0, "100.000100", "cpu_idle: state=1 cpu_id=0")
	  L(0, "15.000200", "cpu_idle: state=4294967295 cpu_id=0")
	  L(0, "100.000300", "cpu_idle: state=2 cpu_id=0")
	  L(0, "100.000400", "cpu_idle: state=4294967295 cpu_id=0"),
	  { ":6: field 'timestamp'", "15.000200 s, but CPU 0's events around it are at "
	    "100.000100 and 100.000300 s: a damaged timestamp" } },
	{ "damaged timestamp, ahead", HEAD
	  L(0, "100.000100", "cpu_idle: state=1 cpu_id=0")
	  L(0, "185.000200", "cpu_idle: state=4294967295 cpu_id=0")
	  L(0, "100.000300", "cpu_idle: state=2 cpu_id=0")
	  L(0, "100.000400", "cpu_idle: state=4294967295 cpu_id=0"),
	  { ":6: field 'timestamp'", "a damaged timestamp" } },
};

static void test_bad(void **state)
{
	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		size_t len = strlen(bad[i].text);
		g_autofree char *in = NULL;
		struct is_capture_stats st;
		GError *err = NULL;
		char *r;

		if (strcmp(bad[i].name, "NUL byte") == 0)
			len = strlen(HEAD) + 6;
		in = write_tmp(bad[i].text, len, ".txt");
		r = import_path(in, &defaults, &st, &err);
		if (r)
			fail_msg("%s: accepted", bad[i].name);
		for (int k = 0; k < 2; k++)
			if (!strstr(err->message, bad[i].expect[k]))
				fail_msg("%s: '%s' lacks '%s'", bad[i].name, err->message,
					 bad[i].expect[k]);
		g_error_free(err);
		g_unlink(in);
	}
}

/*
 * The capture stopped mid-write: a cut-off last line is dropped with a
 * warning naming it, whatever it cut (the event name, or a field).  A
 * last line that is whole but lacks its newline is kept.
 */
static void test_cut_last_line(void **state)
{
	static const char *const cuts[] = {
		L(0, "1.005000", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_s"),
		"          <idle>-0       [000] d....  1.00",
		L(0, "1.005000", "cpu_idle: state=2 cpu_i"),
	};
	struct is_capture_stats st;
	GError *err = NULL;

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cuts); i++) {
		g_autofree char *in = g_strconcat(HEAD TWO_PERIODS, cuts[i], NULL);
		g_autofree char *r = NULL;

		/* without its newline, as a capture cut mid-write ends */
		if (in[strlen(in) - 1] == '\n')
			in[strlen(in) - 1] = 0;
		r = import_text(in, &defaults, &st, &err);
		if (!r)
			fail_msg("cut %zu: %s", i, err->message);
		assert_string_equal(r, TWO_EXPECTED);
		assert_int_equal(st.cut_line, 19);
	}
	{
		/* whole, no newline: kept, no warning */
		g_autofree char *in = g_strdup(HEAD TWO_PERIODS);
		g_autofree char *r = NULL;

		in[strlen(in) - 1] = 0;
		r = import_text(in, &defaults, &st, &err);
		assert_non_null(r);
		assert_string_equal(r, TWO_EXPECTED);
		assert_int_equal(st.cut_line, 0);
	}
	{
		/* a cut line in the middle is still an error */
		g_autofree char *in = g_strconcat(HEAD "          <idle>-0       [000] d....  1.00\n",
						  TWO_PERIODS, NULL);

		assert_null(import_text(in, &defaults, &st, &err));
		assert_non_null(strstr(err->message, ":5: field"));
		g_clear_error(&err);
	}
}

/* Two lines swapped: one event arrived out of time order, and is counted. */
static void test_reordered_count(void **state)
{
	g_auto(GStrv) l = g_strsplit(TWO_PERIODS, "\n", -1);
	GString *s = g_string_new(HEAD);
	g_autofree char *in = NULL, *r = NULL;
	struct is_capture_stats st;
	GError *err = NULL;

	(void)state;
	for (guint i = 0; l[i] && *l[i]; i++)
		g_string_append_printf(s, "%s\n", l[i == 6 ? 7 : i == 7 ? 6 : i]);
	in = g_string_free(s, FALSE);
	r = import_text(in, &defaults, &st, &err);
	assert_non_null(r);
	assert_string_equal(r, TWO_EXPECTED);
	assert_int_equal(st.reordered, 1);
	g_free(r);
	r = import_text(HEAD TWO_PERIODS, &defaults, &st, &err);
	assert_int_equal(st.reordered, 0);
}

/* A trace.dat given to a build without libtracecmd says how to convert. */
static void test_dat_magic(void **state)
{
	static const char dat[] = "\x17\x08\x44tracing6\0\0\0\0\0\0\0\0";
	g_autofree char *in = write_tmp(dat, sizeof(dat), ".dat");
	struct is_capture_stats st;
	GError *err = NULL;
	struct is_capture_options o = defaults;

	(void)state;
	assert_null(import_path(in, &o, &st, &err));
	if (is_capture_dat_supported())
		assert_non_null(strstr(err->message, "libtracecmd cannot open"));
	else
		assert_non_null(strstr(err->message, "trace-cmd report -i"));
	g_clear_error(&err);
	o.format = IS_CAP_FTRACE;
	assert_null(import_path(in, &o, &st, &err));
	assert_non_null(strstr(err->message, "trace.dat file, not ftrace text"));
	g_clear_error(&err);
	g_unlink(in);
}

/* A capture of @n periods on 2 CPUs, each with a timer, an entry, the
 * expiry, the exit and a task switch in and out. */
static char *big_capture(unsigned n)
{
	char *p = tmpname(".txt");
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(HEAD, f);
	for (unsigned i = 0; i < n; i++) {
		int c = i & 1;
		uint64_t t = 1000000 + (uint64_t)i * 500; /* us */

#define P(dt, ev, ...) fprintf(f, "          <idle>-0       [00%d] d....  %u.%06u: " ev "\n", \
			       c, (unsigned)((t + dt) / 1000000), (unsigned)((t + dt) % 1000000), \
			       __VA_ARGS__)
		P(0, "sched_switch: prev_comm=w prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120", c);
		P(1, "hrtimer_start: hrtimer=00000000000%05x function=hrtimer_wakeup expires=%" PRIu64 "000 softexpires=0 mode=REL was_armed=0",
		  i & 0xfffff, t + 300);
		P(2, "cpu_idle: state=%d cpu_id=%d", (int)(i % 7), c);
		P(300, "hrtimer_expire_entry: hrtimer=00000000000%05x function=hrtimer_wakeup now=%" PRIu64 "000",
		  i & 0xfffff, t + 300);
		P(301, "cpu_idle: state=4294967295 cpu_id=%d", c);
		P(302, "sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w next_pid=5 next_prio=120", c);
#undef P
	}
	assert_int_equal(fclose(f), 0);
	return p;
}

/* Imports @in to @out in a child process; returns the child's peak RSS. */
static long child_import_rss_kb(const char *in, const char *out, uint64_t records)
{
	struct rusage ru;
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		const struct is_state_table *t = is_states_builtin("power9");
		struct is_capture_stats st;
		struct is_trace_header h;
		GError *err = NULL;
		bool ok;

		is_trace_header_init(&h);
		g_strlcpy(h.states, "power9", sizeof(h.states));
		h.state_count = t->count;
		h.hz = 100;
		ok = is_import_capture(in, out, IS_FMT_BINARY, &h, t, 0, &defaults, &st, &err);
		_exit(ok && st.records == records ? 0 : 1);
	}
	assert_int_equal(wait4(pid, &status, 0, &ru), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return ru.ru_maxrss;
}

/*
 * Memory does not grow with the input: the peak RSS of an import of a
 * 16 MB capture and of one 8 times as large differ by less than 4 MB (the
 * reorder window and the buffers are bounded, nothing is allocated per
 * event, records go to a temporary file).  Each runs in its own process.
 */
static void test_streaming(void **state)
{
	g_autofree char *small = big_capture(20000), *large = big_capture(160000);
	g_autofree char *out = tmpname(".istb");
	long a, b;

	(void)state;
	a = child_import_rss_kb(small, out, 20000);
	b = child_import_rss_kb(large, out, 160000);
	g_unlink(small);
	g_unlink(large);
	g_unlink(out);
	if (b - a > 4096)
		fail_msg("peak RSS %ld kB for 8x the input, %ld kB for 1x", b, a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_same_records),
		cmocka_unit_test(test_compressed_cut),
		cmocka_unit_test(test_tick),
		cmocka_unit_test(test_probes),
		cmocka_unit_test(test_teo_span_probe),
		cmocka_unit_test(test_need_resched_after_exit),
		cmocka_unit_test(test_governor_reset),
		cmocka_unit_test(test_probes_hex),
		cmocka_unit_test(test_probes_refused),
		cmocka_unit_test(test_probes_refused_order),
		cmocka_unit_test(test_poll_overrun),
		cmocka_unit_test(test_tick_traced_start),
		cmocka_unit_test(test_timer_tracking),
		cmocka_unit_test(test_tick_late),
		cmocka_unit_test(test_gaps),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_cut_last_line),
		cmocka_unit_test(test_reordered_count),
		cmocka_unit_test(test_dat_magic),
		cmocka_unit_test(test_streaming),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
