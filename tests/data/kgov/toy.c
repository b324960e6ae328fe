// SPDX-License-Identifier: GPL-2.0-only
/*
 * A toy out-of-tree governor for test-kgov.sh: it picks
 * (selections of this CPU * step) modulo the state count, keeps its count
 * per CPU and shows it in debugfs.  Its module params cover the types.
 */
#include <linux/cpuidle.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>

static unsigned int step = 1;
module_param(step, uint, 0644);
MODULE_PARM_DESC(step, "states to move per selection");

static bool keep_tick;
module_param(keep_tick, bool, 0444);

static int offset_value = -1;
module_param_named(offset, offset_value, int, 0);

struct toy_cpu {
	unsigned long count;
};

static DEFINE_PER_CPU(struct toy_cpu, toy_cpus);

static int toy_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct toy_cpu *t = per_cpu_ptr(&toy_cpus, dev->cpu);
	int idx = (int)((t->count++ * step + (unsigned int)(offset_value + 1)) %
			(unsigned int)drv->state_count);

	if (keep_tick)
		*stop_tick = false;
	return idx;
}

static int toy_show(struct seq_file *m, void *unused)
{
	int cpu;

	for_each_possible_cpu(cpu)
		seq_printf(m, "cpu%d count=%lu\n", cpu, per_cpu(toy_cpus, cpu).count);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(toy);

static struct cpuidle_governor toy_governor = {
	.name = "toy",
	.rating = 1,
	.select = toy_select,
};

static int __init toy_init(void)
{
	debugfs_create_file("toy", 0444, NULL, NULL, &toy_fops);
	return cpuidle_register_governor(&toy_governor);
}
postcore_initcall(toy_init);
