// SPDX-License-Identifier: GPL-2.0-only
/* Tests of the state tables: built-ins, key files, sysfs dumps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <glib/gstdio.h>
#include <math.h>
#include <unistd.h>

#include "idlesim/states.h"

static const struct {
	const char *name;
	int64_t lat_us, res_us;
} p9[] = {
	{ "snooze", 0, 0 }, { "stop0_lite", 1, 10 }, { "stop0", 2, 20 }, { "stop1", 5, 50 },
	{ "stop2", 10, 100 }, { "stop4", 100, 10000 }, { "stop5", 200, 20000 },
};

static void test_power9(void **state)
{
	const struct is_state_table *t = is_states_builtin("power9");

	(void)state;
	assert_non_null(t);
	assert_int_equal(t->count, 7);
	for (int i = 0; i < 7; i++) {
		assert_string_equal(t->s[i].name, p9[i].name);
		assert_int_equal(t->s[i].exit_latency_ns, p9[i].lat_us * 1000);
		assert_int_equal(t->s[i].target_residency_ns, p9[i].res_us * 1000);
	}
	assert_true(t->s[0].flags & IS_STATE_POLLING);
	assert_int_equal(is_states_default_disabled(t), 0);
	assert_true(is_states_validate(t, "power9", NULL));
}

static void test_power9_full(void **state)
{
	const struct is_state_table *t = is_states_builtin("power9-full");

	(void)state;
	assert_int_equal(t->count, 9);
	assert_string_equal(t->s[7].name, "stop8");
	assert_int_equal(t->s[7].exit_latency_ns, 2000000);
	assert_string_equal(t->s[8].name, "stop11");
	assert_int_equal(t->s[8].target_residency_ns, 100000000);
	/* Linux drops states above 200 us exit latency: off by default. */
	assert_int_equal(is_states_default_disabled(t), (1u << 7) | (1u << 8));
}

/* The power model's rule: target residency = break-even time. */
static void test_break_even(void **state)
{
	(void)state;
	for (const char *const *n = is_states_builtin_names(); *n; n++) {
		const struct is_state_table *t = is_states_builtin(*n);

		assert_true(t->s[0].transition_energy == 0);
		for (int i = 1; i < t->count; i++) {
			double x = t->s[i - 1].transition_energy +
				   (t->s[i - 1].power - t->s[i].power) *
				   (double)t->s[i].target_residency_ns;

			assert_true(fabs(x - t->s[i].transition_energy) < 1e-6);
			/* Equal energy at exactly the target residency. */
			double tr = (double)t->s[i].target_residency_ns;
			double ea = t->s[i - 1].power * tr + t->s[i - 1].transition_energy;
			double eb = t->s[i].power * tr + t->s[i].transition_energy;

			assert_true(fabs(ea - eb) < 1e-3);
		}
	}
}

static char *write_tmp(const char *text)
{
	char *path = g_build_filename(g_get_tmp_dir(), "idlesim-test-XXXXXX.ini", NULL);
	int fd = g_mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_keyfile_ok(void **state)
{
	char *p = write_tmp("[table]\nname=two\n\n[state0]\nname=POLL\nexit_latency_ns=0\n"
			    "target_residency_ns=0\nflags=polling\n\n[state1]\nname=C1\n"
			    "exit_latency_us=2\ntarget_residency_us=4\npower=0.25\n");
	GError *err = NULL;
	struct is_state_table *t = is_states_load_file(p, &err);

	(void)state;
	assert_null(err);
	assert_string_equal(t->name, "two");
	assert_int_equal(t->count, 2);
	assert_int_equal(t->s[1].exit_latency_ns, 2000);
	assert_int_equal(t->s[1].target_residency_ns, 4000);
	assert_true(t->s[1].power == 0.25);
	/* Derived: (1.0 - 0.25) * 4000 */
	assert_true(fabs(t->s[1].transition_energy - 3000) < 1e-9);
	is_states_free(t);
	g_unlink(p);
	g_free(p);
}

static const struct {
	const char *text;
	const char *expect[3]; /* substrings of the message */
} bad_files[] = {
	{ "[state0]\nname=a\ntarget_residency_ns=0\n", { ":1:", "'exit_latency_ns'", "missing" } },
	{ "[state0]\nname=a\nexit_latency_ns=x1\ntarget_residency_ns=0\n",
	  { ":3:", "'exit_latency_ns'", "x1" } },
	{ "[state0]\nname=a\nexit_latency_ns=-5\ntarget_residency_ns=0\n",
	  { ":3:", "'exit_latency_ns'", "non-negative" } },
	{ "[state0]\nname=a\nexit_latency_ns=0\ntarget_residency_ns=0\nflags=poling\n",
	  { ":5:", "'flags'", "poling" } },
	{ "[state0]\nname=a\nexit_latency_ns=5\ntarget_residency_ns=9\n"
	  "[state1]\nname=b\nexit_latency_ns=1\ntarget_residency_ns=10\n",
	  { "state1", "'exit_latency_ns'", "ordered" } },
	{ "[state0]\nexit_latency_ns=5\ntarget_residency_ns=9\n", { ":1:", "'name'", "missing" } },
	{ "[state0]\nname=a\nexit_latency_ns=0\ntarget_residency_ns=0\npower=lots\n",
	  { ":5:", "'power'", "lots" } },
	{ "[table]\nname=x\n", { "no [state0]", "", "" } },
	/* groups and fields the loader does not read are errors, not dropped */
	{ "[state0]\nname=a\nexit_latency_ns=0\ntarget_residency_ns=0\n"
	  "[state2]\nname=b\nexit_latency_ns=1\ntarget_residency_ns=2\n",
	  { ":5:", "[state2]", "numbered without gaps" } },
	{ "[state0]\nname=a\nexit_latency_ns=0\ntarget_residency_ns=0\n"
	  "[state01]\nname=b\nexit_latency_ns=1\ntarget_residency_ns=2\n",
	  { ":5:", "[state01]", "unknown group" } },
	{ "[state0]\nname=a\nexit_latency_ns=0\ntarget_residency_ns=0\npowr=0.1\n",
	  { ":5:", "'powr'", "unknown field" } },
	{ "[table]\nname=x\nsource=y\n[state0]\nname=a\nexit_latency_ns=0\ntarget_residency_ns=0\n",
	  { ":3:", "'source'", "unknown field (name)" } },
	{ "not a key file\n", { "idlesim-test", "", "" } },
};

static void test_keyfile_bad(void **state)
{
	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(bad_files); i++) {
		char *p = write_tmp(bad_files[i].text);
		GError *err = NULL;
		struct is_state_table *t = is_states_load_file(p, &err);

		assert_null(t);
		assert_non_null(err);
		assert_non_null(strstr(err->message, p));
		for (int k = 0; k < 3; k++)
			if (!strstr(err->message, bad_files[i].expect[k]))
				fail_msg("case %zu: '%s' lacks '%s'", i, err->message,
					 bad_files[i].expect[k]);
		g_error_free(err);
		g_unlink(p);
		g_free(p);
	}
}

static void put(const char *dir, int i, const char *field, const char *val)
{
	g_autofree char *d = g_strdup_printf("%s/state%d", dir, i);
	g_autofree char *f = g_strdup_printf("%s/%s", d, field);

	g_mkdir_with_parents(d, 0755);
	assert_true(g_file_set_contents(f, val, -1, NULL));
}

static void test_sysfs(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("idlesim-sysfs-XXXXXX", NULL);
	struct is_state_table *t;
	GError *err = NULL;
	uint32_t dis = 0;

	(void)state;
	put(dir, 0, "name", "snooze\n");
	put(dir, 0, "latency", "0\n");
	put(dir, 0, "residency", "0\n");
	put(dir, 0, "disable", "0\n");
	put(dir, 1, "name", "stop0_lite\n");
	put(dir, 1, "latency", "1\n");
	put(dir, 1, "residency", "10\n");
	put(dir, 1, "disable", "1\n");
	put(dir, 2, "name", "mystery\n");
	put(dir, 2, "latency", "30\n");
	put(dir, 2, "residency", "300\n");
	t = is_states_load_sysfs(dir, &dis, &err);
	assert_null(err);
	assert_int_equal(t->count, 3);
	assert_true(t->s[0].flags & IS_STATE_POLLING);
	assert_int_equal(t->s[1].exit_latency_ns, 1000);
	assert_int_equal(t->s[2].target_residency_ns, 300000);
	assert_int_equal(dis, 1u << 1);
	/* A known name takes the built-in power figure. */
	assert_true(t->s[1].power == is_states_builtin("power9")->s[1].power);
	is_states_free(t);

	put(dir, 2, "latency", "thirty\n");
	dis = 77;
	t = is_states_load_sysfs(dir, &dis, &err);
	assert_null(t);
	assert_int_equal(dis, 77); /* untouched on failure */
	assert_non_null(strstr(err->message, "state2/latency"));
	assert_non_null(strstr(err->message, "'latency'"));
	g_clear_error(&err);

	/* a state past a gap is an error, not a shorter table */
	put(dir, 2, "latency", "30\n");
	put(dir, 4, "name", "stop4\n");
	t = is_states_load_sysfs(dir, &dis, &err);
	assert_null(t);
	assert_int_equal(dis, 77);
	assert_non_null(strstr(err->message, "state4: the states are not numbered without gaps"));
	assert_non_null(strstr(err->message, "state3/ is missing"));
	g_clear_error(&err);

	t = is_states_open("no-such-table", NULL, &err);
	assert_null(t);
	assert_non_null(strstr(err->message, "no-such-table"));
	g_clear_error(&err);
	is_states_free(NULL);
}

/*
 * The tables from the kernel's sources: every one valid, named with its
 * source; two checked by hand against the files.  juno-r2.dts:
 * cpu-sleep-0 entry 300 + exit 1200 us, min-residency 2000; cluster-sleep-0
 * 400 + 1200, 2500; both local-timer-stop; WFI 1/1 from cpuidle-psci.
 * intel_idle.c skl_cstates[]: C3 70/100, C10 890/5000, POLL first.
 */
static void test_kernel_tables(void **state)
{
	static const struct {
		const char *table;
		int idx;
		const char *name;
		int64_t lat_us, res_us;
		uint32_t flags;
	} cases[] = {
		{ "juno-r2", 0, "WFI", 1, 1, 0 },
		{ "juno-r2", 1, "cpu-sleep-0", 1500, 2000, IS_STATE_TIMER_STOP },
		{ "juno-r2", 2, "cluster-sleep-0", 1600, 2500, IS_STATE_TIMER_STOP },
		{ "intel-skl", 0, "POLL", 0, 0, IS_STATE_POLLING },
		{ "intel-skl", 3, "C3", 70, 100, 0 },
		{ "intel-skl", 8, "C10", 890, 5000, 0 },
	};
	int n = 0;

	(void)state;
	for (const char *const *name = is_states_builtin_names(); *name; name++, n++) {
		const struct is_state_table *t = is_states_builtin(*name);
		GError *err = NULL;

		assert_non_null(t);
		if (!is_states_validate(t, *name, &err))
			fail_msg("%s", err->message);
	}
	assert_true(n >= 20);
	assert_null(is_states_builtin_source("power9"));
	assert_non_null(strstr(is_states_builtin_source("juno-r2"), "arm/juno-r2.dts"));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct is_state_table *t = is_states_builtin(cases[i].table);
		const struct is_state *st = &t->s[cases[i].idx];

		assert_string_equal(st->name, cases[i].name);
		assert_int_equal(st->exit_latency_ns, cases[i].lat_us * 1000);
		assert_int_equal(st->target_residency_ns, cases[i].res_us * 1000);
		assert_int_equal(st->flags, cases[i].flags);
	}
	assert_int_equal(is_states_builtin("juno-r2")->count, 3);
	assert_int_equal(is_states_builtin("intel-skl")->count, 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_power9),
		cmocka_unit_test(test_power9_full),
		cmocka_unit_test(test_break_even),
		cmocka_unit_test(test_keyfile_ok),
		cmocka_unit_test(test_keyfile_bad),
		cmocka_unit_test(test_sysfs),
		cmocka_unit_test(test_kernel_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
