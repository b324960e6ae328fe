/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * GSL's exponential draw truncated to nanoseconds, computed faster with
 * the same uniform and the same result.  (The uniform is read inline
 * from an is_rng_mt19937 generator, through GSL's call from any other.)
 *
 * GSL 2.x's gsl_ran_exponential(r, mu) is -mu * log1p(-u) with
 * u = gsl_rng_uniform(r) (randist/exponential.c), and glibc's log1p() is
 * the dearest part of a synthetic period: about 14 ns a call here, against
 * 6 ns for log().  When 1 - u is exact (always for mt19937, whose u is a
 * multiple of 2^-32), log(1 - u) and log1p(-u) approximate the same real
 * number, and glibc's two results differ by at most one ulp for every one
 * of mt19937's 2^32 values of u (checked by tests/test-synth.c).  With the
 * two roundings of each product, a duration computed from log(1 - u) lies
 * within a relative 2^-49 of the one computed from log1p(-u).  Only its
 * integer part is used: when the whole interval +-2^-40 around the fast
 * value truncates to one integer, that integer is GSL's; otherwise (a
 * value within 2^-40 of an integer, about one draw in 50,000 at 10 ms)
 * GSL's formula itself decides.  The uniform is drawn once either way, so
 * the stream does not change.
 */
#ifndef IDLESIM_SYNTH_EXPDRAW_H
#define IDLESIM_SYNTH_EXPDRAW_H

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>

#include "mt19937.h"

/* Guard band: 512 times the largest relative gap the argument allows. */
#define IS_EXPDRAW_BAND 0x1p-40

/*
 * (int64_t)(v * k), v = gsl_ran_exponential(r, mu) clamped to [0, max]
 * (max may be INFINITY: no clamp), for mu >= 0, k > 0 and the product in
 * int64_t's range, bit for bit as with GSL's own call.  A draw whose fast
 * value cannot be trusted (1 - u inexact, near the clamp, or within the
 * band of an integer) takes GSL's formula.
 */
static inline int64_t is_exp_trunc(gsl_rng *r, double mu, double max, double k)
{
	double u = is_rng_uniform(r);
	double a = 1.0 - u;
	double v = -mu * log(a), y = v * k;

	if (__builtin_expect(1.0 - a == u && v >= 0 && v * (1 + IS_EXPDRAW_BAND) < max &&
			     (int64_t)(y * (1 - IS_EXPDRAW_BAND)) ==
			     (int64_t)(y * (1 + IS_EXPDRAW_BAND)), 1))
		return (int64_t)y;
	v = -mu * log1p(-u);
	if (!(v >= 0))
		v = 0;
	if (v > max)
		v = max;
	return (int64_t)(v * k);
}

#endif
