// SPDX-License-Identifier: GPL-2.0-only
/* Governor registry and the simulation-owned random stream. */
#include <string.h>

#include "idlesim/governor.h"
#include "governors.h"

static const struct is_governor *const all[] = {
	&is_gov_oracle,
	&is_gov_recorded,
	&is_gov_ladder,
	&is_gov_teo57,
	&is_gov_wteo_rfc,
	&is_gov_teo612,
	&is_gov_menu612,
	&is_gov_wteo,
	NULL,
};

const struct is_governor *const *is_governors(void)
{
	return all;
}

const struct is_governor *is_governor_find(const char *name)
{
	for (int i = 0; all[i]; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

void is_gov_dump_matrix(GString *out, int cpu, int n, const int *m, int stride)
{
	g_string_append_printf(out, "cpu%d\n", cpu);
	for (int i = 0; i < n; i++) {
		g_string_append_printf(out, "%d:", i);
		for (int j = 0; j < n; j++)
			g_string_append_printf(out, " %d", m[i * stride + j]);
		g_string_append_c(out, '\n');
	}
}

/* splitmix64: one 64-bit state per CPU, seeded from (seed, cpu). */
uint64_t is_rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint32_t is_gov_random_u32(struct is_gov_call *c)
{
	if (!c->has_draw_)
		c->draw_ = (uint32_t)(is_rng_next(c->rng_) >> 32);
	c->draw_used_ = true;
	return c->draw_;
}
