/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IDLESIM_SYNTH_MT19937_H
#define IDLESIM_SYNTH_MT19937_H

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>

/* GSL's gsl_rng_mt19937, number for number, faster (see mt19937.c). */
extern const gsl_rng_type *const is_rng_mt19937;

#define IS_MT_N 624

/* The state of an is_rng_mt19937 generator: gsl_rng's ->state. */
struct is_mt_state {
	uint32_t out[IS_MT_N];  /* the current block, tempered */
	uint32_t mt[IS_MT_N];
	int next;               /* index into out[]; IS_MT_N: refill first */
};

void is_mt_refill(struct is_mt_state *s);

static inline uint32_t is_mt_word(struct is_mt_state *s)
{
	if (__builtin_expect(s->next >= IS_MT_N, 0))
		is_mt_refill(s);
	return s->out[s->next++];
}

/* gsl_rng_uniform() of an is_rng_mt19937 generator's state, inline. */
static inline double is_mt_uniform(struct is_mt_state *s)
{
	/* times 2^-32: exact, so equal to GSL's division by 2^32 */
	return is_mt_word(s) * 0x1p-32;
}

/* The state of @r when it is an is_rng_mt19937 generator, else NULL. */
static inline struct is_mt_state *is_mt_of(const gsl_rng *r)
{
	return r->type == is_rng_mt19937 ? r->state : NULL;
}

/* gsl_rng_uniform(@r), read inline when @r is an is_rng_mt19937. */
static inline double is_rng_uniform(const gsl_rng *r)
{
	struct is_mt_state *s = is_mt_of(r);

	return s ? is_mt_uniform(s) : gsl_rng_uniform(r);
}

/*
 * A lognormal draw, exp(zeta + sigma * N), with the standard normal N from
 * GSL's gsl_ran_gaussian_ziggurat(): Marsaglia and Tsang's ziggurat (2000),
 * which takes one 32-bit word, a table lookup and a compare for about 99%
 * of draws.  GSL's own gsl_ran_lognormal() draws N with the polar method
 * (about 2.5 uniforms, log(), a division and sqrt(), one chain of
 * dependent latencies), which made the two lognormal draws of a `mixed` or
 * `pgbench` period about 40% of a closed-loop period; with the ziggurat the
 * closed loop on them runs about 1.3 times faster.  Both are exact
 * lognormals.  The draw is a different number from gsl_ran_lognormal()'s,
 * so every synthetic stream with lognormal durations changed when this
 * replaced it (2026-12-05, see docs/synthetic.md).
 */
static inline double is_rng_lognormal(const gsl_rng *r, double zeta, double sigma)
{
	return exp(gsl_ran_gaussian_ziggurat(r, sigma) + zeta);
}

#endif
