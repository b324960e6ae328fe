// SPDX-License-Identifier: GPL-2.0-only
/*
 * The synthetic workload options shared by synth, run and sweep
 * (--workload, --wparam, --cpus, --wseed, --periods, --duration, --hz,
 * --latency-us): parsing and checking them into an is_synth_config.
 */
#include <string.h>

#include "cli.h"
#include "idlesim/rtapp.h"
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
		{ "workload", 'w', 0, G_OPTION_ARG_STRING, &w->name, "a synthetic scenario (see idlesim synth --list), or rt-app:FILE.json", "NAME" },
		{ "wparam", 0, 0, G_OPTION_ARG_STRING_ARRAY, &w->params, "a scenario param: key=value", "KV" },
		{ "cpus", 0, 0, G_OPTION_ARG_INT, &w->cpus, "CPUs to generate (default 2; an rt-app file: at least its highest CPU + 1)", "N" },
		{ "wseed", 0, 0, G_OPTION_ARG_INT64, &w->seed, "seed of the scenario's streams (default 1)", "S" },
		{ "periods", 'n', 0, G_OPTION_ARG_INT64, &w->periods, "stop after N idle periods", "N" },
		{ "duration", 0, 0, G_OPTION_ARG_STRING, &w->duration, "stop at this time (e.g. 10s, 500ms)", "T" },
		{ "hz", 0, 0, G_OPTION_ARG_INT, &w->hz, "CONFIG_HZ (default 100, as powernv kernels)", "N" },
		{ "latency-us", 0, 0, G_OPTION_ARG_INT64, &w->latency_us, "PM QoS CPU latency limit (default none)", "N" },
		{ "rtapp-strict", 0, 0, G_OPTION_ARG_NONE, &w->rtapp_strict, "an rt-app file as plain JSON: refuse a trailing comma or a repeated key (default: as rt-app runs it through workgen, each said)", NULL },
		G_OPTION_ENTRY_NULL
	};
	GOptionGroup *g = g_option_group_new("workload", "Synthetic workload options",
					     "Show the synthetic workload options", NULL, NULL);

	w->cpus = 0;            /* not given: 2, or what an rt-app file needs */
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
	if (g_str_has_prefix(w->name, "rt-app:")) {
		const char *const *notes;

		w->rtapp = is_rtapp_load_strict(w->name + strlen("rt-app:"), w->rtapp_strict, &err);
		if (!w->rtapp) {
			cli_error("--workload %s: %s", w->name, err->message);
			g_error_free(err);
			*code = EXIT_RUNTIME;
			return false;
		}
		/* what the run takes differently from rt-app on a machine, said once */
		for (notes = is_rtapp_notes(w->rtapp); *notes; notes++)
			fprintf(stderr, "idlesim: %s: %s\n", is_rtapp_file(w->rtapp), *notes);
		cfg->w = is_rtapp_workload();
		cfg->rtapp = w->rtapp;
		if (!w->cpus)
			w->cpus = MAX(2, is_rtapp_max_cpu(w->rtapp) + 1);
	} else {
		cfg->w = is_workload_find(w->name);
		cfg->rtapp = NULL;
	}
	if (!cfg->w) {
		cli_error("--workload: unknown scenario '%s' (see idlesim synth --list)", w->name);
		return false;
	}
	if (!w->cpus)
		w->cpus = 2;
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
	if (w->rtapp && !w->periods && !w->duration) {
		/* the file's duration, or its tasks' ends, bound the run */
		if (!is_rtapp_ends(w->rtapp)) {
			cli_error("%s: a thread loops forever and global.duration is -1: give "
				  "--duration T or --periods N", is_rtapp_file(w->rtapp));
			return false;
		}
	} else if ((w->periods > 0) == (w->duration != NULL) || w->periods < 0) {
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

void cli_workload_clear(struct cli_workload *w)
{
	g_free(w->name);
	g_strfreev(w->params);
	g_free(w->duration);
	is_rtapp_free(w->rtapp);
	memset(w, 0, sizeof(*w));
}

/* "idlesim synth --workload NAME k=v ...": how the records were made. */
void cli_workload_header(const struct cli_workload *w, const struct is_synth_config *cfg,
			 const struct is_state_table *t, struct is_trace_header *h)
{
	is_synth_header(cfg, t, w->latency_us >= 0, h);
}
