/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IDLESIM_GOVERNORS_INTERNAL_H
#define IDLESIM_GOVERNORS_INTERNAL_H

#include "idlesim/governor.h"

extern const struct is_governor is_gov_oracle;
extern const struct is_governor is_gov_recorded;
extern const struct is_governor is_gov_ladder;
extern const struct is_governor is_gov_teo57;
extern const struct is_governor is_gov_wteo_rfc;
extern const struct is_governor is_gov_teo612;
extern const struct is_governor is_gov_menu612;
extern const struct is_governor is_gov_wteo;
extern const struct is_governor is_gov_teo61;
extern const struct is_governor is_gov_menu61;

/* "cpuN" then "i: w0 w1 ..." rows: the kernel's debugfs wteo/weights form. */
void is_gov_dump_matrix(GString *out, int cpu, int n, const int *m, int stride);

static inline bool is_disabled(const struct is_gov_env *env, int i)
{
	return env->disabled & (1u << i);
}

#endif
