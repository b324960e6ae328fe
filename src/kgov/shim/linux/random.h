/* SPDX-License-Identifier: GPL-2.0-only */
/* get_random_u32(): the simulation's draw (is_gov_random_u32()). */
#ifndef KGOV_SHIM_RANDOM_H
#define KGOV_SHIM_RANDOM_H

#include <linux/kernel.h>

u32 get_random_u32(void);

#endif
