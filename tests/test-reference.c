// SPDX-License-Identifier: GPL-2.0-only
/*
 * The library's governors against their literal ports.
 *
 * tests/ref/ holds line-by-line ports of the kernel functions, kept as they
 * were before the library's copies were reorganised for speed (arrays
 * instead of structs, per-change caches of the table, disable mask and
 * latency limit, counts instead of loops).  Both run side by side on the
 * random streams of ref/compare.h; every decision, the final metrics and
 * the wteo weights must be the same.
 */
#include "ref/compare.h"

#define is_gov_teo612 ref_teo612
#define is_gov_wteo ref_wteo
#include "ref/teo612_ref.c"
#undef is_gov_teo612
#undef is_gov_wteo
#define is_gov_menu612 ref_menu612
#define menu_params ref_menu_params
#define P_RESIDENCY_THRESHOLD_NS MENU_P_RESIDENCY_THRESHOLD_NS
#undef KTIME_MAX
#include "ref/menu612_ref.c"
#undef is_gov_menu612

static const struct pair pairs[] = {
	{ "teo-6.12", &ref_teo612, NULL },
	{ "wteo", &ref_wteo, NULL },
	{ "menu-6.12", &ref_menu612, NULL },
};

static void test_teo612(void **state)
{
	/*
	 * Small pulses make ties in the sums' comparisons frequent; a large
	 * pulse with a slow decay makes the unsigned sums wrap.
	 */
	static const char *const params[] = { NULL, "decay_shift=1", "pulse=1000000",
					      "residency_threshold_ns=0", "pulse=1",
					      "pulse=3 decay_shift=1", "pulse=2 decay_shift=2",
					      "pulse=1048576 decay_shift=24" };

	(void)state;
	compare_all(&pairs[0], all_tables, G_N_ELEMENTS(all_tables), params,
		    G_N_ELEMENTS(params), 11, 60000);
}

static void test_wteo(void **state)
{
	static const char *const tabs[] = { "power9", "power9-full", "ties", "max" };
	static const char *const params[] = { NULL, "pick=argmax", "learning_rate=1024",
					      "learning_rate=1", "init_self_weight=0",
					      "pulse=2 decay_shift=1" };

	(void)state;
	compare_all(&pairs[1], tabs, G_N_ELEMENTS(tabs), params, G_N_ELEMENTS(params), 101, 60000);
}

static void test_menu612(void **state)
{
	static const char *const params[] = { NULL, "residency_threshold_ns=0",
					      "residency_threshold_ns=1000000" };

	(void)state;
	compare_all(&pairs[2], all_tables, G_N_ELEMENTS(all_tables), params,
		    G_N_ELEMENTS(params), 201, 60000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_teo612),
		cmocka_unit_test(test_wteo),
		cmocka_unit_test(test_menu612),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
