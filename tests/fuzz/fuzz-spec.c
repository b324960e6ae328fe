// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the command-line value parsers of the library.  The input
 * is lines: the first byte picks a governor and a workload; each line is
 * then tried as a sweep axis ("key=a:b:step" / "key=v1,v2"), a governor
 * param ("key=value"), a workload param and a shard ("k/n").  A grid that
 * parses must have a size, and every point of a small one must lie
 * within the params' ranges.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "idlesim/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct is_governor *const *gs = is_governors();
	const struct is_workload *const *ws = is_workloads();
	const struct is_governor *g;
	const struct is_workload *w;
	struct is_sweep_space sp;
	struct is_params gp, wp;
	char *text, *save = NULL;
	int ng = 0, nw = 0;
	uint64_t n;
	GError *err = NULL;

	if (size < 1)
		return 0;
	while (gs[ng])
		ng++;
	while (ws[nw])
		nw++;
	g = gs[data[0] % ng];
	w = ws[(data[0] / ng) % nw];
	text = g_strndup((const char *)data + 1, size - 1);
	is_sweep_space_init(&sp, g);
	is_params_defaults(g, &gp);
	is_params_defaults_of(w->params, w->nparams, &wp);
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		uint32_t k, shards;

		if (!is_sweep_space_add_axis(&sp, line, &err))
			g_clear_error(&err);
		if (!is_params_set(g, &gp, line, &err))
			g_clear_error(&err);
		if (!is_params_set_of("workload", w->name, w->params, w->nparams, &wp, line, &err))
			g_clear_error(&err);
		if (!is_sweep_shard_parse(line, &k, &shards, &err))
			g_clear_error(&err);
		else if (k < 1 || k > shards)
			abort();
	}
	if (is_sweep_space_size(&sp, &n, &err)) {
		for (uint64_t i = 0; i < n && i < 64; i++) {
			struct is_params pt;

			is_sweep_space_point(&sp, i, &pt);
			for (int a = 0; a < sp.naxes; a++) {
				const struct is_param_desc *d = &g->params[sp.axes[a].param];
				int64_t v = pt.v[sp.axes[a].param];

				if (v < d->min || v > d->max)
					abort();
			}
		}
	} else {
		g_clear_error(&err);
	}
	g_free(is_params_format(g, &gp));
	is_sweep_space_clear(&sp);
	g_free(text);
	return 0;
}
