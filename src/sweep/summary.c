// SPDX-License-Identifier: GPL-2.0-only
/*
 * A sweep's summary figures: the best points by objective and the energy
 * vs p99 latency Pareto front, over the per-point means of the rows.
 */
#include <math.h>

#include "idlesim/sweep.h"

static int cmp_by_objective(const void *a, const void *b, void *data)
{
	const struct is_sweep_agg *g = data;
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	double u = g[x].objective / g[x].n, v = g[y].objective / g[y].n;

	return u < v ? -1 : u > v ? 1 : x < y ? -1 : x > y;
}

static int cmp_by_energy(const void *a, const void *b, void *data)
{
	const struct is_sweep_agg *g = data;
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	double u = g[x].energy / g[x].n, v = g[y].energy / g[y].n;
	double pu = g[x].p99 / g[x].n, pv = g[y].p99 / g[y].n;

	if (u != v)
		return u < v ? -1 : 1;
	if (pu != pv)
		return pu < pv ? -1 : 1;
	return x < y ? -1 : x > y;
}

static uint64_t points_with_rows(const struct is_sweep_agg *g, uint64_t points, uint64_t *idx)
{
	uint64_t n = 0;

	for (uint64_t i = 0; i < points; i++)
		if (g[i].n)
			idx[n++] = i;
	return n;
}

uint64_t is_sweep_best(const struct is_sweep_agg *g, uint64_t points, uint64_t *idx)
{
	uint64_t n = points_with_rows(g, points, idx);

	g_qsort_with_data(idx, (gint)n, sizeof(*idx), cmp_by_objective, (gpointer)g);
	return n;
}

uint64_t is_sweep_pareto(const struct is_sweep_agg *g, uint64_t points, uint64_t *front)
{
	uint64_t n = points_with_rows(g, points, front), nfront = 0;
	double best_p99 = INFINITY;

	g_qsort_with_data(front, (gint)n, sizeof(*front), cmp_by_energy, (gpointer)g);
	/* in place: the front is a subsequence of the energy order */
	for (uint64_t i = 0; i < n; i++) {
		double p = g[front[i]].p99 / g[front[i]].n;

		if (p < best_p99) {
			best_p99 = p;
			front[nfront++] = front[i];
		}
	}
	return nfront;
}

void is_sweep_point_label(const struct is_sweep_space *sp, uint64_t point, GString *s)
{
	struct is_params p;

	is_sweep_space_point(sp, point, &p);
	g_string_truncate(s, 0);
	for (int a = 0; a < sp->naxes; a++) {
		const struct is_param_desc *d = &sp->gov->params[sp->axes[a].param];

		g_string_append_printf(s, "%s%s=%s", a ? " " : "", d->name,
				       is_sweep_param_value(d, p.v[sp->axes[a].param]));
	}
	if (!sp->naxes)
		g_string_append(s, "(defaults)");
}
