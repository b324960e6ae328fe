/* SPDX-License-Identifier: GPL-2.0-only */
/* include/linux/ktime.h, the 64-bit branch. */
#ifndef KGOV_SHIM_KTIME_H
#define KGOV_SHIM_KTIME_H

#include <linux/kernel.h>

static inline s64 ktime_divns(const ktime_t kt, s64 div)
{
	return kt / div;
}

static inline s64 ktime_to_us(const ktime_t kt)
{
	return ktime_divns(kt, NSEC_PER_USEC);
}

#endif
