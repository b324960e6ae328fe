// SPDX-License-Identifier: GPL-2.0-only
/* Governor registry. */
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
	&is_gov_teo61,
	&is_gov_menu61,
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
