/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TICK_NSEC is ((NSEC_PER_SEC + HZ/2) / HZ), a long; here a long variable,
 * so one build serves every HZ the tests use.
 */
#ifndef KGOV_SHIM_JIFFIES_H
#define KGOV_SHIM_JIFFIES_H

#include <linux/kernel.h>

extern long kgov_tick_nsec;
#define TICK_NSEC kgov_tick_nsec

#endif
