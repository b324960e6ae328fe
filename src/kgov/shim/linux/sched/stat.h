/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nr_iowait_cpu() (kernel/sched/core.c): the tasks waiting on I/O that
 * last ran on @cpu, which 6.1's menu reads: the record's "io" where it
 * carries one, else 0 (struct is_gov_call's nr_iowait).
 */
#ifndef KGOV_SHIM_LINUX_SCHED_STAT_H
#define KGOV_SHIM_LINUX_SCHED_STAT_H
#include <linux/kernel.h>

unsigned int nr_iowait_cpu(int cpu);
#endif
