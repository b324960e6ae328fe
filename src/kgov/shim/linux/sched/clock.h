/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KGOV_SHIM_SCHED_CLOCK_H
#define KGOV_SHIM_SCHED_CLOCK_H

#include <linux/kernel.h>

u64 local_clock(void);

#endif
