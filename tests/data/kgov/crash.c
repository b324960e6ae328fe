// SPDX-License-Identifier: GPL-2.0-only
/* A governor that crashes on its CPU 1's 100th selection (test-kgov.sh). */
#include <linux/cpuidle.h>

static int n;

static int crashy_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			 bool *stop_tick)
{
	if (dev->cpu == 1 && ++n == 100)
		return *(volatile int *)0;
	return 0;
}

static struct cpuidle_governor crashy = { .name = "crashy", .select = crashy_select };

static int __init crashy_init(void)
{
	return cpuidle_register_governor(&crashy);
}
postcore_initcall(crashy_init);
