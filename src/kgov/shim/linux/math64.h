/* SPDX-License-Identifier: GPL-2.0-only */
/* include/linux/math64.h on a 64-bit build. */
#ifndef KGOV_SHIM_MATH64_H
#define KGOV_SHIM_MATH64_H

#include <linux/kernel.h>

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

/* asm-generic/div64.h: divides @n in place, yields the remainder. */
#define do_div(n, base) ({ \
	u32 __base = (base); \
	u32 __rem = (u32)((u64)(n) % __base); \
	(n) = (u64)(n) / __base; \
	__rem; })

#endif
