// SPDX-License-Identifier: GPL-2.0-only
/* Tests of the trace format: round trips and bad input. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <glib/gstdio.h>

#include "idlesim/trace.h"
#include "idlesim/states.h"
#include "../src/trace/trace_internal.h"

static char *tmpname(const char *suffix)
{
	g_autofree char *tmpl = g_strdup_printf("idlesim-trace-XXXXXX%s", suffix);
	char *path = g_build_filename(g_get_tmp_dir(), tmpl, NULL);
	int fd = g_mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	return path;
}

static char *write_tmp(const char *text, size_t len)
{
	char *p = tmpname(".trace");

	assert_true(g_file_set_contents(p, text, (gssize)len, NULL));
	return p;
}

static void header(struct is_trace_header *h)
{
	is_trace_header_init(h);
	strcpy(h->states, "power9");
	h->state_count = 7;
	h->hz = 250;
	h->cpus = 3;
	h->has_seed = true;
	h->seed = 18446744073709551615ull;
	strcpy(h->source, "unit test");
	h->poll_overrun_ns = 18000;
	h->tick_late_ns = 213000;
	/* CPU 1's dev->last_residency_ns at the start; 0 and 2 without a line */
	is_trace_header_set_start_lres(h, 1, -5);
	is_trace_header_set_start_lres(h, 3, 7); /* no CPU 3: ignored */
	is_trace_header_add_comment(h, "# a comment");
}

static const struct is_record recs[] = {
	{ .kind = IS_REC_IDLE, .cpu = 0, .t_ns = 0, .sleep_ns = -5, .tick_ns = 4000000,
	  .lat_ns = 2147483647000LL, .idle_ns = 0, .cause = IS_CAUSE_UNKNOWN },
	{ .kind = IS_REC_STATE, .cpu = IS_CPU_ALL, .t_ns = 10, .kstate = 6, .disable = 1 },
	{ .kind = IS_REC_IDLE, .cpu = 2, .t_ns = 10, .sleep_ns = INT64_MAX, .tick_ns = -1,
	  .lat_ns = 0, .idle_ns = 123456789, .cause = IS_CAUSE_IPI,
	  .flags = IS_F_TS | IS_F_KSTOP | IS_F_GT | IS_F_SLR | IS_F_NOWORK,
	  .has = IS_HAS_ALL, .kstate = 6, .span_ns = 77, .lres_ns = 66, .draw = 4294967295u },
	{ .kind = IS_REC_STATE, .cpu = 1, .t_ns = 1000000000000LL, .kstate = 0, .disable = 0 },
	{ .kind = IS_REC_IDLE, .cpu = 1, .t_ns = 1000000000001LL, .sleep_ns = 1, .tick_ns = 2,
	  .lat_ns = 3, .idle_ns = 4, .cause = IS_CAUSE_POLL, .has = IS_HAS_PL | IS_HAS_KSTATE,
	  .flags = IS_F_PL, .kstate = 0 },
	{ .kind = IS_REC_IDLE, .cpu = 1, .t_ns = 1000000000002LL, .sleep_ns = 1, .tick_ns = 2,
	  .lat_ns = 3, .idle_ns = 4, .cause = IS_CAUSE_UNKNOWN, .has = IS_HAS_KSTATE,
	  .kstate = 3, .est = IS_EST_SLEEP | IS_EST_IDLE },
	{ .kind = IS_REC_IDLE, .cpu = 0, .t_ns = 1000000000003LL, .sleep_ns = 1, .tick_ns = 2,
	  .lat_ns = 3, .idle_ns = 4, .cause = IS_CAUSE_TICK, .est = IS_EST_ALL },
	/* nr_iowait (io=): after every other optional field, and alone */
	{ .kind = IS_REC_IDLE, .cpu = 2, .t_ns = 1000000000004LL, .sleep_ns = 1, .tick_ns = 2,
	  .lat_ns = 3, .idle_ns = 4, .cause = IS_CAUSE_IRQ, .has = IS_HAS_ALL,
	  .flags = IS_F_IOW | IS_F_SLR, .kstate = 1, .span_ns = -9, .lres_ns = 8, .draw = 7,
	  .iowait = 4294967295u },
	{ .kind = IS_REC_IDLE, .cpu = 1, .t_ns = 1000000000005LL, .sleep_ns = 1, .tick_ns = 2,
	  .lat_ns = 3, .idle_ns = 4, .cause = IS_CAUSE_TIMER, .flags = IS_F_IOW, .iowait = 0 },
	{ .kind = IS_REC_IDLE, .cpu = 1, .t_ns = 1000000000006LL, .sleep_ns = 1, .tick_ns = 2,
	  .lat_ns = 3, .idle_ns = 4, .cause = IS_CAUSE_TIMER, .has = IS_HAS_SPAN,
	  .flags = IS_F_IOW, .span_ns = 5, .iowait = 3 },
};

static void write_all(const char *path, enum is_trace_format fmt)
{
	struct is_trace_header h;
	GError *err = NULL;
	struct is_trace_writer *w;

	header(&h);
	w = is_trace_writer_open(path, fmt, &h, &err);
	assert_non_null(w);
	for (size_t i = 0; i < G_N_ELEMENTS(recs); i++)
		assert_true(is_trace_write(w, &recs[i], &err));
	assert_true(is_trace_writer_commit(w, &err));
	is_trace_header_clear(&h);
}

static void read_all(const char *path, enum is_trace_format fmt)
{
	GError *err = NULL;
	struct is_trace_reader *r = is_trace_open(path, &err);
	struct is_record rec;
	const struct is_trace_header *h;

	assert_non_null(r);
	assert_int_equal(is_trace_reader_format(r), fmt);
	h = is_trace_reader_header(r);
	assert_int_equal(h->hz, 250);
	assert_int_equal(h->cpus, 3);
	assert_true(h->seed == 18446744073709551615ull);
	assert_string_equal(h->source, "unit test");
	assert_int_equal(h->poll_overrun_ns, 18000);
	assert_int_equal(h->tick_late_ns, 213000);
	assert_non_null(h->start_lres_ns);
	assert_int_equal(h->start_lres_ns[0], 0);
	assert_int_equal(h->start_lres_ns[1], -5);
	assert_int_equal(h->start_lres_ns[2], 0);
	assert_int_equal(h->ncomments, 1);
	for (size_t i = 0; i < G_N_ELEMENTS(recs); i++) {
		assert_int_equal(is_trace_next(r, &rec, &err), 1);
		assert_memory_equal(&rec, &recs[i], sizeof(rec));
	}
	assert_int_equal(is_trace_next(r, &rec, &err), 0);
	assert_null(err);
	is_trace_close(r);
}

static void test_roundtrip(void **state)
{
	g_autofree char *t1 = tmpname(".trace"), *b = tmpname(".istb"), *t2 = tmpname(".trace");
	g_autofree char *a = NULL, *c = NULL;
	gsize al, cl;
	GError *err = NULL;
	struct is_trace_reader *r;
	struct is_trace_writer *w;
	struct is_record rec;

	(void)state;
	write_all(t1, IS_FMT_TEXT);
	read_all(t1, IS_FMT_TEXT);
	write_all(b, IS_FMT_BINARY);
	read_all(b, IS_FMT_BINARY);
	/* binary -> text gives the text bytes exactly */
	r = is_trace_open(b, &err);
	w = is_trace_writer_open(t2, IS_FMT_TEXT, is_trace_reader_header(r), &err);
	while (is_trace_next(r, &rec, &err) > 0)
		assert_true(is_trace_write(w, &rec, &err));
	assert_null(err);
	assert_true(is_trace_writer_commit(w, &err));
	is_trace_close(r);
	assert_true(g_file_get_contents(t1, &a, &al, NULL));
	assert_true(g_file_get_contents(t2, &c, &cl, NULL));
	assert_int_equal(al, cl);
	assert_memory_equal(a, c, al);
	g_unlink(t1);
	g_unlink(t2);
	g_unlink(b);
}

/* An aborted writer leaves nothing under the final name. */
static void test_abort(void **state)
{
	g_autofree char *p = tmpname(".trace");
	struct is_trace_header h;
	struct is_trace_writer *w;
	struct is_record bad = recs[0];
	GError *err = NULL;

	(void)state;
	g_unlink(p);
	header(&h);
	w = is_trace_writer_open(p, IS_FMT_TEXT, &h, &err);
	assert_true(is_trace_write(w, &recs[2], &err));
	/* Going backwards in time is refused by the writer too. */
	bad.t_ns = 5;
	assert_false(is_trace_write(w, &bad, &err));
	assert_non_null(strstr(err->message, "'t_ns'"));
	g_clear_error(&err);
	assert_false(is_trace_writer_commit(w, &err));
	g_clear_error(&err);
	assert_false(g_file_test(p, G_FILE_TEST_EXISTS));
	is_trace_header_clear(&h);
}

/*
 * A path that rename() would refuse at commit, after the whole trace, is
 * refused at open: an empty name and an existing directory.
 */
static void test_open_refused(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("idlesim-trace-XXXXXX", NULL);
	struct is_trace_header h;
	GError *err = NULL;

	(void)state;
	assert_non_null(dir);
	header(&h);
	assert_null(is_trace_writer_open("", IS_FMT_TEXT, &h, &err));
	assert_non_null(strstr(err->message, "an empty file name"));
	g_clear_error(&err);
	assert_null(is_trace_writer_open(dir, IS_FMT_BINARY, &h, &err));
	assert_true(g_str_has_prefix(err->message, dir));
	assert_non_null(strstr(err->message, g_strerror(EISDIR)));
	g_clear_error(&err);
	/* left as it was: still an empty directory */
	assert_int_equal(g_rmdir(dir), 0);
	is_trace_header_clear(&h);
}

#define HDR "idlesim-trace 1\nstates power9 7\nhz 100\ncpus 2\ndata\n"
#define I0 "I 0 100 5000 3000 0 1000000 4000 timer\n"

static const struct {
	const char *name, *text;
	const char *expect[3];
} bad_text[] = {
	{ "wrong version", "idlesim-trace 3\nstates power9 7\nhz 100\ncpus 1\ndata\nend 0\n",
	  { ":1:", "'version'", "unsupported version '3' (this build reads 1..2)" } },
	/* version 2's embedded table */
	{ "state line in version 1", "idlesim-trace 1\nstates t 1\nstate 0 a exit_latency_ns=0 "
	  "target_residency_ns=0 flags=none power=1 transition_energy=0\nhz 100\ncpus 1\ndata\n",
	  { ":3:", "'?'", "unknown header key" } },
	{ "state out of order", "idlesim-trace 2\nstates t 2\nstate 1 a exit_latency_ns=0 "
	  "target_residency_ns=0 flags=none power=1 transition_energy=0\nhz 100\ncpus 1\ndata\n",
	  { ":3:", "'state'", "in order from 0" } },
	{ "state key missing", "idlesim-trace 2\nstates t 1\nstate 0 a exit_latency_ns=0 "
	  "target_residency_ns=0 flags=none power=1 power=0\nhz 100\ncpus 1\ndata\n",
	  { ":3:", "'state'", "missing or given twice" } },
	{ "state bad flag", "idlesim-trace 2\nstates t 1\nstate 0 a exit_latency_ns=0 "
	  "target_residency_ns=0 flags=spin power=1 transition_energy=0\nhz 100\ncpus 1\ndata\n",
	  { ":3:", "'flags'", "unknown flag" } },
	{ "state bad power", "idlesim-trace 2\nstates t 1\nstate 0 a exit_latency_ns=0 "
	  "target_residency_ns=0 flags=none power=-1 transition_energy=0\nhz 100\ncpus 1\ndata\n",
	  { ":3:", "'power'", "not a number >= 0" } },
	{ "state count", "idlesim-trace 2\nstates t 2\nstate 0 a exit_latency_ns=0 "
	  "target_residency_ns=0 flags=none power=1 transition_energy=0\nhz 100\ncpus 1\ndata\n",
	  { "'state'", "1 state lines for 'states t 2'", NULL } },
	{ "state table invalid", "idlesim-trace 2\nstates t 2\nstate 0 a exit_latency_ns=5 "
	  "target_residency_ns=0 flags=none power=1 transition_energy=0\nstate 1 b "
	  "exit_latency_ns=1 target_residency_ns=9 flags=none power=1 transition_energy=0\n"
	  "hz 100\ncpus 1\ndata\n", { "'state'", "state1", "ordered shallow to deep" } },
	{ "not a trace", "hello\n", { ":1:", "'version'", "not an idlesim trace" } },
	{ "missing hz", "idlesim-trace 1\nstates power9 7\ncpus 1\ndata\nend 0\n",
	  { ":4:", "'hz'", "missing" } },
	{ "bad state count", "idlesim-trace 1\nstates power9 11\nhz 100\ncpus 1\ndata\nend 0\n",
	  { ":2:", "'states'", "1..10" } },
	{ "unknown header key", "idlesim-trace 1\nstates power9 7\nhz 100\ncpus 1\nfoo 1\ndata\n",
	  { ":5:", "unknown header key", "foo" } },
	{ "header key twice", "idlesim-trace 1\nstates power9 7\nhz 100\ncpus 1\nhz 1000\ndata\n",
	  { ":5:", "'hz'", "given twice" } },
	{ "poll overrun negative", "idlesim-trace 2\nstates power9 7\nhz 100\ncpus 1\n"
	  "poll_overrun_ns -1\ndata\n", { ":5:", "'poll_overrun_ns'", "0..1000000000" } },
	{ "poll overrun twice", "idlesim-trace 2\nstates power9 7\nhz 100\ncpus 1\n"
	  "poll_overrun_ns 1\npoll_overrun_ns 2\ndata\n", { ":6:", "'poll_overrun_ns'", "given twice" } },
	{ "tick lateness too large", "idlesim-trace 2\nstates power9 7\nhz 100\ncpus 1\n"
	  "tick_late_ns 1000000001\ndata\n", { ":5:", "'tick_late_ns'", "0..1000000000" } },
	{ "last residency before cpus", "idlesim-trace 2\nstates power9 7\nhz 100\n"
	  "last_residency_ns 0 5\ncpus 1\ndata\n", { ":4:", "'last_residency_ns'", "after 'cpus'" } },
	{ "last residency cpu", "idlesim-trace 2\nstates power9 7\nhz 100\ncpus 2\n"
	  "last_residency_ns 2 5\ndata\n", { ":5:", "'last_residency_ns'", "CPU below cpus" } },
	{ "last residency twice", "idlesim-trace 2\nstates power9 7\nhz 100\ncpus 2\n"
	  "last_residency_ns 1 5\nlast_residency_ns 1 6\ndata\n",
	  { ":6:", "'last_residency_ns'", "given twice" } },
	{ "last residency value", "idlesim-trace 2\nstates power9 7\nhz 100\ncpus 2\n"
	  "last_residency_ns 1 5us\ndata\n", { ":5:", "'last_residency_ns'", "not an integer" } },
	{ "tick lateness twice", "idlesim-trace 2\nstates power9 7\nhz 100\ncpus 1\n"
	  "tick_late_ns 1\ntick_late_ns 2\ndata\n", { ":6:", "'tick_late_ns'", "given twice" } },
	{ "missing field", HDR "I 0 100 5000 3000 0 1000000\n", { ":6:", "'idle_ns'", "missing" } },
	{ "non-numeric", HDR "I 0 100 5000 3000 0 1000000 4k timer\n",
	  { ":6:", "'idle_ns'", "not an integer" } },
	{ "negative idle", HDR "I 0 100 5000 3000 0 1000000 -4 timer\n",
	  { ":6:", "'idle_ns'", "negative" } },
	{ "negative latency", HDR "I 0 100 5000 3000 0 -1 4 timer\n",
	  { ":6:", "'lat_ns'", "negative" } },
	{ "backwards", HDR I0 "I 1 99 5000 3000 0 1000000 4000 timer\n",
	  { ":7:", "'t_ns'", "backwards" } },
	{ "unknown cause", HDR "I 0 100 5000 3000 0 1000000 4000 alarm\n",
	  { ":6:", "'cause'", "alarm" } },
	{ "state outside table", HDR "I 0 100 5000 3000 0 1000000 4000 timer k=7\n",
	  { ":6:", "'k'", "outside the state table" } },
	{ "state event outside table", HDR "S 100 * 9 off\n",
	  { ":6:", "'state'", "outside the state table" } },
	{ "cpu out of range", HDR "I 2 100 5000 3000 0 1000000 4000 timer\n",
	  { ":6:", "'cpu'", "cpus" } },
	{ "tick flag", HDR "I 0 100 5000 3000 2 1000000 4000 timer\n",
	  { ":6:", "'tick_stopped'", "0 or 1" } },
	{ "duplicate option", HDR "I 0 100 5000 3000 0 1000000 4000 timer k=1 k=2\n",
	  { ":6:", "'k=2'", "twice" } },
	{ "unknown option", HDR "I 0 100 5000 3000 0 1000000 4000 timer zz=1\n",
	  { ":6:", "unknown optional field", "zz" } },
	{ "no end", HDR I0, { ":6:", "no 'end' line", "truncated" } },
	{ "cut mid line", HDR "I 0 100 5000 3000 0 10", { ":6:", "no newline", "truncated" } },
	{ "end count", HDR I0 "end 2\n", { ":7:", "'end'", "does not match" } },
	{ "after end", HDR I0 "end 1\nI 0 100 5000 3000 0 1000000 4000 timer\n",
	  { ":8:", "'end'", "after" } },
	{ "iowait twice", HDR "I 0 100 5000 3000 0 1000000 4000 timer io=1 io=1\n",
	  { ":6:", "'io'", "given twice" } },
	{ "iowait negative", HDR "I 0 100 5000 3000 0 1000000 4000 timer io=-1\n",
	  { ":6:", "'io'", "0..4294967295" } },
	{ "iowait too large", HDR "I 0 100 5000 3000 0 1000000 4000 timer io=4294967296\n",
	  { ":6:", "'io'", "0..4294967295" } },
	{ "estimate twice", HDR "I 0 100 5000 3000 0 1000000 4000 timer est=ts est=sleep\n",
	  { ":6:", "'est'", "twice" } },
	{ "estimate repeated", HDR "I 0 100 5000 3000 0 1000000 4000 timer est=ts+ts\n",
	  { ":6:", "'est'", "sleep, ts, idle" } },
	{ "estimate unknown", HDR "I 0 100 5000 3000 0 1000000 4000 timer est=cause\n",
	  { ":6:", "'est'", "sleep, ts, idle" } },
	{ "estimate trailing +", HDR "I 0 100 5000 3000 0 1000000 4000 timer est=ts+\n",
	  { ":6:", "'est'", "sleep, ts, idle" } },
	{ "unknown kind", HDR "X 1 2\n", { ":6:", "'kind'", "unknown record kind" } },
	{ "huge idle", HDR "I 0 100 5000 3000 0 1000 99999999999999999 timer\n",
	  { ":6:", "'idle_ns'", "10^15" } },
	{ "overflow", HDR "I 0 100 5000 3000 0 1000 99999999999999999999 timer\n",
	  { ":6:", "'idle_ns'", "not an integer" } },
};

/* Reads a whole trace; returns the last is_trace_next() result (0 if the
 * open failed) and sets *opened. */
static int drain(const char *path, GError **err, bool *opened)
{
	struct is_trace_reader *r = is_trace_open(path, err);
	struct is_record rec;
	int n = 0;

	*opened = r != NULL;
	if (r) {
		while ((n = is_trace_next(r, &rec, err)) > 0)
			;
		is_trace_close(r);
	}
	return n;
}

static void expect_error(const char *path, const char *name, const char *const expect[3])
{
	GError *err = NULL;
	bool opened;
	int n = drain(path, &err, &opened);

	if (!err)
		fail_msg("%s: no error", name);
	assert_int_equal(n, opened ? -1 : 0);
	if (!strstr(err->message, path))
		fail_msg("%s: '%s' does not name the file", name, err->message);
	for (int k = 0; k < 3; k++)
		if (expect[k] && !strstr(err->message, expect[k]))
			fail_msg("%s: '%s' lacks '%s'", name, err->message, expect[k]);
	g_error_free(err);
}

static void test_bad_text(void **state)
{
	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(bad_text); i++) {
		g_autofree char *p = write_tmp(bad_text[i].text, strlen(bad_text[i].text));

		expect_error(p, bad_text[i].name, bad_text[i].expect);
		g_unlink(p);
	}
}

static void test_bad_binary(void **state)
{
	g_autofree char *b = tmpname(".istb");
	g_autofree char *data = NULL;
	gsize len;

	(void)state;
	write_all(b, IS_FMT_BINARY);
	assert_true(g_file_get_contents(b, &data, &len, NULL));
	/* Every truncation point is an error naming a record or the header. */
	for (gsize cut = 1; cut < len; cut++) {
		g_autofree char *p = write_tmp(data, cut);
		GError *err = NULL;
		bool opened;

		drain(p, &err, &opened);
		if (!err)
			fail_msg("truncation at %zu of %zu bytes accepted", (size_t)cut, (size_t)len);
		if (cut > 8 && !strstr(err->message, "truncated") && !strstr(err->message, "record"))
			fail_msg("cut %zu: '%s'", (size_t)cut, err->message);
		g_error_free(err);
		g_unlink(p);
	}
	/* Wrong version in the binary header. */
	{
		g_autofree char *v = g_memdup2(data, len);
		g_autofree char *p = NULL;
		const char *const e[3] = { "'version'", "unsupported version 9", NULL };

		v[8] = 9;
		p = write_tmp(v, len);
		expect_error(p, "binary version", e);
		g_unlink(p);
	}
	/* An unknown estimate bit in the first (idle) record's byte 7. */
	{
		g_autofree char *v = g_memdup2(data, len);
		g_autofree char *p = NULL;
		const char *const e[3] = { "record 1", "'est'", "unknown estimate bits" };
		uint32_t hlen = (uint8_t)v[12] | (uint8_t)v[13] << 8 | (uint8_t)v[14] << 16 |
				(uint32_t)(uint8_t)v[15] << 24;

		v[16 + hlen + 7] = 0x08;
		p = write_tmp(v, len);
		expect_error(p, "binary est", e);
		g_unlink(p);
	}
	/*
	 * A value bit without its field in the first (idle) record's flags
	 * (every bit of the byte has a meaning since io took bit 6).
	 */
	{
		g_autofree char *v = g_memdup2(data, len);
		g_autofree char *p = NULL;
		const char *const e[3] = { "record 1", "'flags'", "field is absent" };
		uint32_t hlen = (uint8_t)v[12] | (uint8_t)v[13] << 8 | (uint8_t)v[14] << 16 |
				(uint32_t)(uint8_t)v[15] << 24;

		v[16 + hlen + 2] = IS_F_PL;
		p = write_tmp(v, len);
		expect_error(p, "binary flag value", e);
		g_unlink(p);
	}
	/* Trailing garbage after the end record. */
	{
		g_autofree char *v = g_malloc(len + 1);
		g_autofree char *p = NULL;
		const char *const e[3] = { "'end'", "after the end record", NULL };

		memcpy(v, data, len);
		v[len] = 1;
		p = write_tmp(v, len + 1);
		expect_error(p, "binary trailing", e);
		g_unlink(p);
	}
	g_unlink(b);
}

static void assert_rec_equal(const struct is_record *a, const struct is_record *b)
{
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->cause, b->cause);
	assert_int_equal(a->flags, b->flags);
	assert_int_equal(a->has, b->has);
	assert_int_equal(a->cpu, b->cpu);
	assert_int_equal(a->kstate, b->kstate);
	assert_int_equal(a->est, b->est);
	assert_int_equal(a->t_ns, b->t_ns);
	assert_int_equal(a->sleep_ns, b->sleep_ns);
	assert_int_equal(a->tick_ns, b->tick_ns);
	assert_int_equal(a->lat_ns, b->lat_ns);
	assert_int_equal(a->idle_ns, b->idle_ns);
	assert_int_equal(a->span_ns, b->span_ns);
	assert_int_equal(a->lres_ns, b->lres_ns);
	assert_int_equal(a->draw, b->draw);
	assert_int_equal(a->iowait, b->iowait);
}

/* The i-th record of a long generated trace: idle records, some with every
 * optional field, and now and then a state event. */
static struct is_record long_rec(uint32_t i)
{
	uint32_t x = i * 2654435761u;

	if (i % 997 == 500)
		return (struct is_record){ .kind = IS_REC_STATE, .cpu = i % 3,
					   .t_ns = (int64_t)i * 1000, .kstate = (int8_t)(i % 7),
					   .disable = (i / 997) & 1 };
	if (i % 7 == 3)
		return (struct is_record){
			.kind = IS_REC_IDLE, .cpu = i % 3, .t_ns = (int64_t)i * 1000,
			.sleep_ns = x, .tick_ns = x >> 3, .lat_ns = i, .idle_ns = x >> 5,
			.cause = IS_CAUSE_IPI, .has = IS_HAS_ALL, .flags = IS_F_TS | IS_F_GT,
			.kstate = (int8_t)(x % 7), .span_ns = x >> 2, .lres_ns = x >> 4, .draw = x };
	if (i % 11 == 5) /* nr_iowait alone: the batch decoder's slow path */
		return (struct is_record){
			.kind = IS_REC_IDLE, .cpu = i % 3, .t_ns = (int64_t)i * 1000,
			.sleep_ns = x, .tick_ns = 4000000, .lat_ns = i, .idle_ns = x >> 6,
			.cause = IS_CAUSE_TIMER, .flags = IS_F_IOW, .iowait = x >> 28 };
	return (struct is_record){ .kind = IS_REC_IDLE, .cpu = i % 3, .t_ns = (int64_t)i * 1000,
				   .sleep_ns = x, .tick_ns = 4000000, .lat_ns = i,
				   .idle_ns = x >> 6, .cause = IS_CAUSE_TIMER };
}

/* Writes long_rec(0..n-1) to @path in @fmt; returns the file's bytes. */
static char *write_long(const char *path, enum is_trace_format fmt, uint32_t n, gsize *len)
{
	struct is_trace_header h;
	struct is_trace_writer *w;
	GError *err = NULL;
	char *data = NULL;

	header(&h);
	w = is_trace_writer_open(path, fmt, &h, &err);
	assert_non_null(w);
	for (uint32_t i = 0; i < n; i++) {
		struct is_record rec = long_rec(i);

		assert_true(is_trace_write(w, &rec, &err));
	}
	assert_true(is_trace_writer_commit(w, &err));
	is_trace_header_clear(&h);
	assert_true(g_file_get_contents(path, &data, len, NULL));
	return data;
}

/*
 * A 10 MB trace, many times the reader's buffer, gives the same records
 * from a file, from stdin and in batches, and its truncation is an error
 * each way.
 */
static void test_long_binary(void **state)
{
	g_autofree char *b = tmpname(".istb"), *cut = NULL;
	const uint32_t n = 200000;
	GError *err = NULL;
	gsize len;
	g_autofree char *data = write_long(b, IS_FMT_BINARY, n, &len);

	(void)state;
	assert_true(len > (8u << 20));
	cut = write_tmp(data, len - 1000);
	/* 0: a file, 1: stdin, 2: a file in batches of up to 5 */
	for (int mode = 0; mode < 3; mode++) {
		for (int truncated = 0; truncated < 2; truncated++) {
			const char *path = truncated ? cut : b;
			struct is_trace_reader *r;
			struct is_record rec[5];
			uint32_t i = 0;
			int ret;

			if (mode == 1)
				assert_non_null(freopen(path, "rb", stdin));
			r = is_trace_open(mode == 1 ? "-" : path, &err);
			assert_non_null(r);
			while ((ret = mode == 2 ? is_trace_next_batch(r, rec, 5, &err) :
						  is_trace_next(r, rec, &err)) > 0) {
				assert_true(ret <= 5);
				for (int k = 0; k < ret; k++) {
					struct is_record want = long_rec(i++);

					assert_rec_equal(&rec[k], &want);
				}
				assert_int_equal(is_trace_reader_count(r), i);
			}
			if (truncated) {
				assert_int_equal(ret, -1);
				assert_non_null(strstr(err->message, "truncated"));
				g_clear_error(&err);
				assert_true(i < n);
			} else {
				assert_int_equal(ret, 0);
				assert_null(err);
				assert_int_equal(i, n);
			}
			is_trace_close(r);
		}
	}
	g_unlink(cut);
	g_unlink(b);
}

/* A stream of @data whose reads fail with EIO from byte @limit on. */
struct failing {
	const char *data;
	size_t len, pos, limit;
};

static ssize_t failing_read(void *cookie, char *buf, size_t size)
{
	struct failing *f = cookie;
	size_t end = f->limit < f->len ? f->limit : f->len;
	size_t n = end - f->pos < size ? end - f->pos : size;

	if (n == 0 && f->pos < f->len) {
		errno = EIO;
		return -1;
	}
	memcpy(buf, f->data + f->pos, n);
	f->pos += n;
	return (ssize_t)n;
}

static int failing_close(void *cookie)
{
	(void)cookie;
	return 0;
}

/*
 * A read error is named as one, by file and place, in either format and
 * wherever it strikes (magic, header, a record's middle, a line's middle,
 * the end record, after many buffers), and never passes for a truncated
 * or bad trace; the records before it come through intact.
 */
static void test_read_error(void **state)
{
	static const cookie_io_functions_t io = { .read = failing_read, .close = failing_close };
	g_autofree char *t = tmpname(".trace"), *b = tmpname(".istb");
	GError *err = NULL;

	(void)state;
	for (int fmt = 0; fmt < 2; fmt++) {
		const char *path = fmt ? b : t;
		gsize len;
		g_autofree char *data = write_long(path, fmt ? IS_FMT_BINARY : IS_FMT_TEXT, 40000,
						   &len);

		assert_true(len > (1u << 20));  /* several of the reader's buffers */
		{
			const size_t cuts[] = { 0, 3, 8, 20, 200, len / 3, len / 3 + 1,
						len / 2 + 7, len - 1000, len - 1, len };

			for (size_t k = 0; k < G_N_ELEMENTS(cuts); k++) {
				struct failing fc = { .data = data, .len = len, .limit = cuts[k] };
				FILE *f = fopencookie(&fc, "r", io);
				struct is_trace_reader *r;
				struct is_record rec;
				uint32_t i = 0;
				int ret = 0;

				assert_non_null(f);
				r = is_trace_open_stream(f, "cut.trace", &err);
				if (r) {
					while ((ret = is_trace_next(r, &rec, &err)) > 0) {
						struct is_record want = long_rec(i++);

						assert_rec_equal(&rec, &want);
					}
					is_trace_close(r);
				}
				if (cuts[k] == len) {
					assert_int_equal(ret, 0);
					assert_null(err);
					assert_int_equal(i, 40000);
					continue;
				}
				if (!err)
					fail_msg("format %d, cut at %zu: no error", fmt, cuts[k]);
				if (err->domain != IS_ERROR || err->code != IS_ERROR_IO ||
				    !strstr(err->message, "cut.trace") ||
				    !strstr(err->message, g_strerror(EIO)))
					fail_msg("format %d, cut at %zu: '%s'", fmt, cuts[k],
						 err->message);
				assert_true(r == NULL || ret == -1);
				/* len - 1: in the end record or last line, the records all read */
				assert_true(i < 40000 || cuts[k] == len - 1);
				g_clear_error(&err);
			}
		}
		g_unlink(path);
	}
}

static void test_cause_names(void **state)
{
	(void)state;
	for (int c = 0; c < IS_CAUSE_COUNT; c++) {
		const char *n = is_cause_name(c);

		assert_int_equal(is_cause_parse(n, strlen(n)), c);
	}
	assert_int_equal(is_cause_parse("nope", 4), -1);
}

/*
 * Version 2 carries its table: written, read back bit for bit, used when
 * no --states is given; another table must fit it (timing and polling;
 * power may differ); version 1 still reads, by the table's name.
 */
static void test_embedded_table(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("idlesim-test-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "t.trace", NULL);
	g_autofree char *bin = g_build_filename(dir, "t.istb", NULL);
	g_autofree char *v1 = g_build_filename(dir, "v1.trace", NULL);
	struct is_state_table tab = *is_states_builtin("power9"), *t, other;
	struct is_trace_header h;
	struct is_trace_reader *r;
	GError *err = NULL;
	uint32_t dis = 99;

	(void)state;
	g_strlcpy(tab.name, "my-machine", sizeof(tab.name));
	tab.s[3].power = 0.123456789012345;
	tab.s[2].flags |= IS_STATE_OFF | IS_STATE_TIMER_STOP;
	is_trace_header_init(&h);
	is_trace_header_set_table(&h, &tab);
	for (int f = 0; f < 2; f++) {
		const char *p = f ? bin : path;
		struct is_trace_writer *w = is_trace_writer_open(p, IS_FMT_AUTO, &h, &err);

		assert_non_null(w);
		assert_true(is_trace_writer_commit(w, &err));
		r = is_trace_open(p, &err);
		assert_non_null(r);
		assert_int_equal(is_trace_reader_header(r)->version, 2);
		assert_true(is_trace_reader_header(r)->has_table);
		t = is_trace_states_open(p, is_trace_reader_header(r), NULL, &dis, &err);
		assert_non_null(t);
		assert_memory_equal(t, &tab, sizeof(tab));
		assert_int_equal(dis, 1u << 2);
		is_states_free(t);
		/* power9 fits (only power and flags other than polling differ) */
		t = is_trace_states_open(p, is_trace_reader_header(r), "power9", &dis, &err);
		assert_non_null(t);
		assert_string_equal(t->name, "power9");
		is_states_free(t);
		/* pseries does not: another state count */
		assert_null(is_trace_states_open(p, is_trace_reader_header(r), "pseries", &dis, &err));
		assert_non_null(strstr(err->message, "the trace has 7 states but table pseries has 2"));
		g_clear_error(&err);
		other = tab;
		other.s[4].target_residency_ns++;
		{
			/* a table differing in one residency: named */
			g_autofree char *kf = g_build_filename(dir, "other.states", NULL);
			g_autofree char *text = NULL;
			GString *s = g_string_new("[table]\nname=other\n");

			for (int i = 0; i < other.count; i++)
				g_string_append_printf(s, "[state%d]\nname=%s\nexit_latency_ns=%"
						       G_GINT64_FORMAT "\ntarget_residency_ns=%"
						       G_GINT64_FORMAT "\n%s", i,
						       other.s[i].name, other.s[i].exit_latency_ns,
						       other.s[i].target_residency_ns,
						       i ? "" : "flags=polling\n");
			text = g_string_free(s, FALSE);
			assert_true(g_file_set_contents(kf, text, -1, NULL));
			t = is_trace_states_open(p, is_trace_reader_header(r), kf, &dis, &err);
			if (t)
				fail_msg("a table with another residency fits");
			assert_non_null(strstr(err->message, "state4 (stop2 here, stop2 in the trace) "
							     "differs in 'target_residency_ns'"));
			g_clear_error(&err);
			g_unlink(kf);
		}
		is_trace_close(r);
		g_unlink(p);
	}
	/* version 1: no table, resolved by name */
	assert_true(g_file_set_contents(v1, "idlesim-trace 1\nstates power9 7\nhz 100\ncpus 1\n"
				       "data\nend 0\n", -1, NULL));
	r = is_trace_open(v1, &err);
	assert_non_null(r);
	assert_false(is_trace_reader_header(r)->has_table);
	t = is_trace_states_open(v1, is_trace_reader_header(r), NULL, &dis, &err);
	assert_non_null(t);
	assert_string_equal(t->name, "power9");
	is_states_free(t);
	is_trace_close(r);
	g_unlink(v1);
	/* a name a header line cannot carry is refused, not mangled */
	g_strlcpy(tab.s[1].name, "C1 E", sizeof(tab.s[1].name));
	is_trace_header_set_table(&h, &tab);
	assert_null(is_trace_writer_open(path, IS_FMT_AUTO, &h, &err));
	assert_non_null(strstr(err->message, "state1's name 'C1 E' has a space"));
	g_clear_error(&err);
	assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	is_trace_header_clear(&h);
	g_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_abort),
		cmocka_unit_test(test_open_refused),
		cmocka_unit_test(test_bad_text),
		cmocka_unit_test(test_bad_binary),
		cmocka_unit_test(test_long_binary),
		cmocka_unit_test(test_read_error),
		cmocka_unit_test(test_cause_names),
		cmocka_unit_test(test_embedded_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
