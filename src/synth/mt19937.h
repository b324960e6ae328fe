/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IDLESIM_SYNTH_MT19937_H
#define IDLESIM_SYNTH_MT19937_H

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
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

/* gsl_ran_lognormal() of an is_rng_mt19937 generator's state. */
double is_mt_lognormal(struct is_mt_state *s, double zeta, double sigma);

/* gsl_rng_uniform(@r), read inline when @r is an is_rng_mt19937. */
static inline double is_rng_uniform(const gsl_rng *r)
{
	struct is_mt_state *s = is_mt_of(r);

	return s ? is_mt_uniform(s) : gsl_rng_uniform(r);
}

/* gsl_ran_lognormal(@r, ...), the same double for any generator. */
static inline double is_rng_lognormal(const gsl_rng *r, double zeta, double sigma)
{
	struct is_mt_state *s = is_mt_of(r);

	return s ? is_mt_lognormal(s, zeta, sigma) : gsl_ran_lognormal(r, zeta, sigma);
}

#endif
