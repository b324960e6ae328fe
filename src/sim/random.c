// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulation's random stream: one splitmix64 state per simulated CPU,
 * seeded by the event loop from (seed, cpu) (sim.c), which the governors
 * draw from through is_gov_random_u32() as the kernel's get_random_u32().
 */
#include "idlesim/governor.h"
#include "idlesim/sim.h"

/* splitmix64: one 64-bit state per CPU, seeded from (seed, cpu). */
uint64_t is_rng_next(uint64_t *s)
{
	uint64_t z = (*s += IS_RNG_GOLDEN);

	z = (z ^ (z >> 30)) * IS_RNG_MUL1;
	z = (z ^ (z >> 27)) * IS_RNG_MUL2;
	return z ^ (z >> 31);
}

uint32_t is_gov_random_u32(struct is_gov_call *c)
{
	if (!c->has_draw_)
		c->draw_ = (uint32_t)(is_rng_next(c->rng_) >> 32);
	c->draw_used_ = true;
	return c->draw_;
}
