// SPDX-License-Identifier: GPL-2.0-only
/*
 * is_rng_mt19937: a GSL generator type that gives, for every seed, the
 * same numbers as GSL's own gsl_rng_mt19937, only faster.  The synthetic
 * workloads draw through it with GSL's distribution functions.
 *
 * Why: GSL 2.7's mt19937 (rng/mt.c) refills its 624-word state with a
 * data-dependent branch per word (the MAGIC(y) test of the low bit,
 * random by construction, so half of them mispredict) on unsigned longs,
 * and tempers each word when it is drawn.  That came to 7.3 ns a uniform
 * on this project's machines, a third of a closed-loop period on the
 * lognormal scenarios.  Here the refill is branch-free on 32-bit words and
 * tempers the whole block at once into a second array, so a draw is a
 * load.
 *
 * What must stay equal to GSL, and is checked by test-synth against
 * gsl_rng_mt19937 on twin streams: the seeding (mt_set(): seed 0 means
 * 4357, the seed's low 32 bits, Knuth's multiplier 1812433253, the first
 * refill on the first draw), the recurrence (Matsumoto and Nishimura,
 * 1998: N = 624, M = 397, matrix 0x9908b0df), the tempering, and the
 * range (0 .. 2^32 - 1, so gsl_rng_uniform_int() takes the same path)
 * with get_double = word / 2^32.
 */
#include <stdint.h>

#include "mt19937.h"

#define N IS_MT_N
#define M 397
#define MATRIX_A 0x9908b0dfu
#define UPPER 0x80000000u
#define LOWER 0x7fffffffu

static inline uint32_t twist(uint32_t a, uint32_t b, uint32_t m)
{
	uint32_t y = (a & UPPER) | (b & LOWER);

	return m ^ (y >> 1) ^ (-(y & 1u) & MATRIX_A);
}

void is_mt_refill(struct is_mt_state *s)
{
	uint32_t *mt = s->mt;
	int k;

	for (k = 0; k < N - M; k++)
		mt[k] = twist(mt[k], mt[k + 1], mt[k + M]);
	for (; k < N - 1; k++)
		mt[k] = twist(mt[k], mt[k + 1], mt[k + M - N]);
	mt[N - 1] = twist(mt[N - 1], mt[0], mt[M - 1]);
	for (k = 0; k < N; k++) {
		uint32_t y = mt[k];

		y ^= y >> 11;
		y ^= (y << 7) & 0x9d2c5680u;
		y ^= (y << 15) & 0xefc60000u;
		y ^= y >> 18;
		s->out[k] = y;
	}
	s->next = 0;
}

static void mt_set(void *vstate, unsigned long seed)
{
	struct is_mt_state *s = vstate;

	if (seed == 0)
		seed = 4357;
	s->mt[0] = (uint32_t)seed;
	for (uint32_t i = 1; i < N; i++)
		s->mt[i] = 1812433253u * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + i;
	s->next = N;
}

static unsigned long mt_get(void *vstate)
{
	return is_mt_word(vstate);
}

static double mt_get_double(void *vstate)
{
	return is_mt_word(vstate) * 0x1p-32;
}

static const gsl_rng_type mt_type = {
	.name = "mt19937 (idlesim)",
	.max = 0xffffffffUL,
	.min = 0,
	.size = sizeof(struct is_mt_state),
	.set = mt_set,
	.get = mt_get,
	.get_double = mt_get_double,
};

const gsl_rng_type *const is_rng_mt19937 = &mt_type;
