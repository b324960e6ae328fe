// SPDX-License-Identifier: GPL-2.0-only
/*
 * The synthetic workload options shared by synth, run and sweep
 * (--workload, --wparam, --cpus, --wseed, --periods, --duration, --hz,
 * --latency-us): parsing and checking them into an is_synth_config.
 */
#include <string.h>

#include "cli.h"
#include "idlesim/synth.h"

bool cli_parse_duration(const char *s, int64_t *ns)
{
	static const struct { const char *suffix; int64_t mul; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	char *end;
	double v;

	v = g_ascii_strtod(s, &end);
	if (end == s || !(v > 0))
		return false;
	if (!*end) {
		*ns = (int64_t)v;
		return true;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(units); i++)
		if (strcmp(end, units[i].suffix) == 0) {
			if (v * (double)units[i].mul > 9.2e18)
				return false;
			*ns = (int64_t)(v * (double)units[i].mul);
			return true;
		}
	return false;
}

GOptionGroup *cli_workload_options(struct cli_workload *w)
{
	GOptionEntry entries[] = {
		{ "workload", 'w', 0, G_OPTION_ARG_STRING, &w->name, "a synthetic scenario (see idlesim synth --list)", "NAME" },
		{ "wparam", 0, 0, G_OPTION_ARG_STRING_ARRAY, &w->params, "a scenario param: key=value", "KV" },
		{ "cpus", 0, 0, G_OPTION_ARG_INT, &w->cpus, "CPUs to generate (default 2)", "N" },
		{ "wseed", 0, 0, G_OPTION_ARG_INT64, &w->seed, "seed of the scenario's streams (default 1)", "S" },
		{ "periods", 'n', 0, G_OPTION_ARG_INT64, &w->periods, "stop after N idle periods", "N" },
		{ "duration", 0, 0, G_OPTION_ARG_STRING, &w->duration, "stop at this time (e.g. 10s, 500ms)", "T" },
		{ "hz", 0, 0, G_OPTION_ARG_INT, &w->hz, "CONFIG_HZ (default 100, as powernv kernels)", "N" },
		{ "latency-us", 0, 0, G_OPTION_ARG_INT64, &w->latency_us, "PM QoS CPU latency limit (default none)", "N" },
		G_OPTION_ENTRY_NULL
	};
	GOptionGroup *g = g_option_group_new("workload", "Synthetic workload options",
					     "Show the synthetic workload options", NULL, NULL);

	w->cpus = 2;
	w->seed = 1;
	w->hz = 100;
	w->latency_us = -1;
	g_option_group_add_entries(g, entries);
	return g;
}

bool cli_workload_config(struct cli_workload *w, struct is_synth_config *cfg, int *code)
{
	GError *err = NULL;

	*code = EXIT_USAGE;
	cfg->w = is_workload_find(w->name);
	if (!cfg->w) {
		cli_error("--workload: unknown scenario '%s' (see idlesim synth --list)", w->name);
		return false;
	}
	if (w->cpus < 1 || w->cpus > IS_TRACE_MAX_CPUS) {
		cli_error("--cpus must be 1..%d", IS_TRACE_MAX_CPUS);
		return false;
	}
	if (w->hz < 1 || w->hz > 10000) {
		cli_error("--hz must be 1..10000");
		return false;
	}
	if (w->seed < 0) {
		cli_error("the scenario's seed (--wseed) must be >= 0, not %" G_GINT64_FORMAT,
			  (gint64)w->seed);
		return false;
	}
	if ((w->periods > 0) == (w->duration != NULL) || w->periods < 0) {
		cli_error("give exactly one of --periods N (N > 0) and --duration T");
		return false;
	}
	w->until_ns = 0;
	if (w->duration && !cli_parse_duration(w->duration, &w->until_ns)) {
		cli_error("--duration %s: expected a positive time like 10s, 500ms, 200us or 1000ns",
			  w->duration);
		return false;
	}
	is_params_defaults_of(cfg->w->params, cfg->w->nparams, &cfg->params);
	for (int i = 0; w->params && w->params[i]; i++)
		if (!is_params_set_of("workload", cfg->w->name, cfg->w->params, cfg->w->nparams,
				      &cfg->params, w->params[i], &err)) {
			cli_error("--wparam %s: %s", w->params[i], err->message);
			g_error_free(err);
			return false;
		}
	cfg->cpus = w->cpus;
	cfg->hz = w->hz;
	cfg->seed = (uint64_t)w->seed;
	cfg->latency_req_ns = w->latency_us >= 0 ? w->latency_us * 1000 : 2147483647000LL;
	return true;
}

/* "idlesim synth --workload NAME k=v ...": how the records were made. */
void cli_workload_header(const struct cli_workload *w, const struct is_synth_config *cfg,
			 const struct is_state_table *t, struct is_trace_header *h)
{
	is_synth_header(cfg, t, w->latency_us >= 0, h);
}
