/* SPDX-License-Identifier: GPL-2.0-only */
/* Included by a governor, nothing of it used. */
#ifndef KC_SHIM_LINUX_SCHED_STAT_H
#define KC_SHIM_LINUX_SCHED_STAT_H
#include <linux/kernel.h>
#endif
