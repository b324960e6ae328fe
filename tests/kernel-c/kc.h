/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tests/kernel-c: Debian 6.12's own governor files (teo.c, menu.c,
 * ladder.c, and teo.c with the series' wteo hunks, extracted from
 * linux-source-6.12 at build time, never committed) compiled in user space
 * against the stand-ins in shim/, each wrapped as an idlesim governor so
 * that it runs through the same event loop and on the same inputs as the
 * library's port of it.
 *
 * The wrapper keeps a struct cpuidle_driver and struct cpuidle_device per
 * simulated CPU and answers the kernel's queries from the call in
 * progress: cpuidle_governor_latency_req(), tick_nohz_tick_stopped(),
 * tick_nohz_get_sleep_length() (through is_gov_sleep_length(), so a lazy
 * query stays visible), local_clock() (the select's now_ns, then the
 * wakeup's) and tick_nohz_idle_got_tick().  dev->last_residency_ns and
 * dev->poll_time_limit are written as the cpuidle core writes them before
 * reflect() and the next select().  The governors' per-CPU data are
 * arrays of KC_NR_CPUS, zeroed at enable as at boot: one simulation at a
 * time, on one thread (a test harness, not a library governor).
 */
#ifndef KC_H
#define KC_H

#include "idlesim/governor.h"

struct cpuidle_driver;
struct cpuidle_device;

/* Per-CPU wrapper state (struct kc_cpu in kc.c) fits in this. */
#define KC_CPU_SIZE 1024
struct kc_cpu;

/* Builds drv and dev for @env; false if the CPU is beyond KC_NR_CPUS. */
bool kc_enable(struct kc_cpu *k, const struct is_gov_env *env,
	       struct cpuidle_driver **drv, struct cpuidle_device **dev);
/* Makes @call the one in progress and syncs the disable mask. */
void kc_begin_select(struct kc_cpu *k, const struct is_gov_env *env, struct is_gov_call *call,
		     struct cpuidle_driver **drv, struct cpuidle_device **dev);
void kc_begin_reflect(struct kc_cpu *k, const struct is_gov_env *env,
		      const struct is_gov_wake *wake, struct cpuidle_device **dev);

/* select() and reflect() of the idlesim governor @sym around @gov. */
#define KC_SELECT_REFLECT(sym, gov)						\
static int sym##_select(void *st, const struct is_gov_env *env,		\
			struct is_gov_call *call, bool *stop_tick)		\
{										\
	struct cpuidle_driver *drv;						\
	struct cpuidle_device *dev;						\
										\
	kc_begin_select(st, env, call, &drv, &dev);				\
	return gov.select(drv, dev, stop_tick);					\
}										\
										\
static void sym##_reflect(void *st, const struct is_gov_env *env,		\
			  const struct is_gov_wake *w)				\
{										\
	struct cpuidle_device *dev;						\
										\
	kc_begin_reflect(st, env, w, &dev);					\
	gov.reflect(dev, w->entered);						\
}

/*
 * The idlesim governor @sym around the kernel's struct cpuidle_governor
 * @gov, whose per-CPU data is @percpu (zeroed at enable, as at boot).
 */
#define KC_GOVERNOR(sym, gname, gov, percpu)					\
static int sym##_init(void *st, const struct is_gov_env *env)			\
{										\
	struct cpuidle_driver *drv;						\
	struct cpuidle_device *dev;						\
										\
	if (!kc_enable(st, env, &drv, &dev))					\
		return -1;							\
	memset(&percpu[env->cpu], 0, sizeof(percpu[0]));			\
	return gov.enable(drv, dev);						\
}										\
										\
KC_SELECT_REFLECT(sym, gov)							\
										\
const struct is_governor sym = {						\
	.name = gname,								\
	.description = "linux-source-6.12 " #gov " compiled in user space",	\
	.state_size = KC_CPU_SIZE,						\
	.init = sym##_init,							\
	.select = sym##_select,							\
	.reflect = sym##_reflect,						\
}

struct seq_file;
/* Runs a debugfs show function on @env's CPU into @out. */
void kc_dump(const struct is_gov_env *env, GString *out, int (*show)(struct seq_file *, void *));

extern const struct is_governor kc_teo;
extern const struct is_governor kc_wteo;
extern const struct is_governor kc_menu;
extern const struct is_governor kc_ladder;

#endif
