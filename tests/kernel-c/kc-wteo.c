// SPDX-License-Identifier: GPL-2.0-only
/*
 * teo.c with the series in tools/kernel/patches applied (its teo.c and
 * wteo.h hunks), CONFIG_CPU_IDLE_GOV_WTEO on: the kernel's wteo as an
 * idlesim governor.  Its module parameters are set from the governor's
 * params; the debugfs wteo/weights text is the dump.
 */
#include "kc.h"

#define CONFIG_CPU_IDLE_GOV_WTEO 1
#include "teo-wteo.inc"

enum { KP_LEARNING_RATE, KP_INIT_SELF_WEIGHT, KP_RANGE, KP_TRIGGER, KP_POLL };

static const char *const kc_range_names[] = { "reference", "chosen", NULL };
static const char *const kc_trigger_names[] = { "deepest", "timer", NULL };
static const char *const kc_poll_names[] = { "allow", "avoid", NULL };

/* The library wteo's names and ranges, the module parameters' defaults. */
static const struct is_param_desc kc_wteo_params[] = {
	[KP_LEARNING_RATE] = { "learning_rate", "teo.wteo_learning_rate", 102, 0, 1024, NULL },
	[KP_INIT_SELF_WEIGHT] = { "init_self_weight", "teo.wteo_init_self_weight", 614, 0, 1024,
				  NULL },
	[KP_RANGE] = { "range", "teo.wteo_range", 0, 0, 1, kc_range_names },
	[KP_TRIGGER] = { "trigger", "teo.wteo_trigger", 0, 0, 1, kc_trigger_names },
	[KP_POLL] = { "poll", "teo.wteo_avoid_poll", 0, 0, 1, kc_poll_names },
};

static int kc_wteo_init(void *st, const struct is_gov_env *env)
{
	struct cpuidle_driver *drv;
	struct cpuidle_device *dev;

	if (!kc_enable(st, env, &drv, &dev))
		return -1;
	wteo_learning_rate = (unsigned int)env->params->v[KP_LEARNING_RATE];
	wteo_init_self_weight = (unsigned int)env->params->v[KP_INIT_SELF_WEIGHT];
	wteo_range = (unsigned int)env->params->v[KP_RANGE];
	wteo_trigger = (unsigned int)env->params->v[KP_TRIGGER];
	wteo_avoid_poll = (unsigned int)env->params->v[KP_POLL];
	memset(&teo_cpus[env->cpu], 0, sizeof(teo_cpus[0]));
	return wteo_governor.enable(drv, dev);
}

KC_SELECT_REFLECT(kc_wteo, wteo_governor)

static void kc_wteo_dump(const void *st, const struct is_gov_env *env, GString *out)
{
	(void)st;
	kc_dump(env, out, wteo_weights_fops.show);
}

const struct is_governor kc_wteo = {
	.name = "kernel-wteo",
	.description = "linux-source-6.12 teo.c + the series' wteo, compiled in user space",
	.state_size = KC_CPU_SIZE,
	.params = kc_wteo_params,
	.nparams = G_N_ELEMENTS(kc_wteo_params),
	.init = kc_wteo_init,
	.select = kc_wteo_select,
	.reflect = kc_wteo_reflect,
	.dump = kc_wteo_dump,
};
