/* SPDX-License-Identifier: GPL-2.0-only */
/* Included by a governor (6.1's menu.c), nothing of it used. */
#ifndef KGOV_SHIM_LINUX_SCHED_LOADAVG_H
#define KGOV_SHIM_LINUX_SCHED_LOADAVG_H
#include <linux/kernel.h>
#endif
