/* SPDX-License-Identifier: GPL-2.0-only */
/* include/linux/tick.h (CONFIG_NO_HZ_COMMON): answered by runtime.c. */
#ifndef KGOV_SHIM_TICK_H
#define KGOV_SHIM_TICK_H

#include <linux/jiffies.h>

extern bool tick_nohz_enabled;
bool tick_nohz_tick_stopped(void);
bool tick_nohz_idle_got_tick(void);
ktime_t tick_nohz_get_sleep_length(ktime_t *delta_next);

#endif
