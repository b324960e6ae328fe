// SPDX-License-Identifier: GPL-2.0-only
/* Calls a kernel function the shim does not provide (test-kgov.sh). */
#include <linux/cpuidle.h>

extern unsigned int cpuidle_foo(int cpu);

static int foo_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	return (int)cpuidle_foo((int)dev->cpu);
}

static struct cpuidle_governor foo = { .name = "foo", .select = foo_select };

static int __init foo_init(void)
{
	return cpuidle_register_governor(&foo);
}
postcore_initcall(foo_init);
