// SPDX-License-Identifier: GPL-2.0-only
/* Two governors in one file: plugin:FILE:NAME picks one (test-kgov.sh). */
#include <linux/cpuidle.h>

static int shallow_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			  bool *stop_tick)
{
	return 0;
}

static int deep_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	return drv->state_count - 1;
}

static struct cpuidle_governor shallow = { .name = "shallow", .select = shallow_select };
static struct cpuidle_governor deep = { .name = "deep", .select = deep_select };

static int __init two_init(void)
{
	return cpuidle_register_governor(&shallow) ?: cpuidle_register_governor(&deep);
}
postcore_initcall(two_init);
