/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The members of include/linux/cpuidle.h (6.1 and 6.12 agree on them) the
 * governors use, with the kernel's types: note dev->last_residency_ns is
 * u64 and states_usage[].disable unsigned long long.
 */
#ifndef KGOV_SHIM_CPUIDLE_H
#define KGOV_SHIM_CPUIDLE_H

#include <linux/kernel.h>

#define CPUIDLE_STATE_MAX 10
#define CPUIDLE_NAME_LEN 16
#define CPUIDLE_FLAG_NONE (0x00)
#define CPUIDLE_FLAG_POLLING BIT(0)

struct cpuidle_state {
	char name[CPUIDLE_NAME_LEN];
	s64 exit_latency_ns;
	s64 target_residency_ns;
	unsigned int flags;
	unsigned int exit_latency;     /* us */
	int power_usage;
	unsigned int target_residency; /* us */
};

struct cpuidle_state_usage {
	unsigned long long disable;
};

struct cpuidle_device {
	unsigned int poll_time_limit:1;
	unsigned int cpu;
	int last_state_idx;
	u64 last_residency_ns;
	struct cpuidle_state_usage states_usage[CPUIDLE_STATE_MAX];
};

struct cpuidle_driver {
	const char *name;
	struct cpuidle_state states[CPUIDLE_STATE_MAX];
	int state_count;
};

struct cpuidle_governor {
	char name[CPUIDLE_NAME_LEN];
	unsigned int rating;
	int (*enable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	void (*disable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	int (*select)(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick);
	void (*reflect)(struct cpuidle_device *dev, int index);
};

s64 cpuidle_governor_latency_req(unsigned int cpu);
/* Records @gov for idlesim (plugin:FILE:NAME picks it by name). */
int cpuidle_register_governor(struct cpuidle_governor *gov);

#endif
