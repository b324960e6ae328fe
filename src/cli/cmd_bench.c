// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlesim bench: writes a binary trace of N idle periods from the "basic"
 * workload or a scenario (--workload; unless --trace is given), then replays
 * it through each governor from the file, streaming, and reports idle
 * periods per second on one core together with the peak resident set size.
 * --closed-loop instead times generation and simulation together, closed
 * loop, without a file.  --governor-only times the governor's select() and
 * reflect() alone on the trace's inputs held in memory, without the event
 * loop, the idle-loop model or the metrics: the figure to set beside the
 * kernel's own governor code compiled in user space.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "idlesim/rtapp.h"
#include "idlesim/sweep.h"
#include "idlesim/synth.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --workload rt-app:FILE, loaded once by cmd_bench() */
static struct is_rtapp *bench_rtapp;

/* The benchmark's scenario: default params, 4 CPUs (or what an rt-app file pins), seed 42. */
static bool synth_config(const char *name, struct is_synth_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->w = bench_rtapp ? is_rtapp_workload() : is_workload_find(name);
	cfg->rtapp = bench_rtapp;
	if (!cfg->w)
		return false;
	is_params_defaults_of(cfg->w->params, cfg->w->nparams, &cfg->params);
	cfg->cpus = bench_rtapp ? MAX(4, is_rtapp_max_cpu(bench_rtapp) + 1) : 4;
	cfg->hz = 100;
	cfg->seed = 42;
	cfg->latency_req_ns = 2147483647000LL;
	return true;
}

static bool make_trace(const char *path, gint64 periods, const char *workload, gint64 *made,
		       GError **err)
{
	struct is_basic_params p;
	struct is_basic_gen *g = NULL;
	struct is_synth_config scfg;
	struct is_synth *sg = NULL;
	struct is_trace_header h;
	struct is_trace_writer *w;
	struct is_record rec;
	bool ok = true;

	is_basic_params_default(&p);
	p.cpus = 4;
	p.seed = 42;
	is_trace_header_init(&h);
	is_trace_header_set_table(&h, is_states_builtin("power9"));
	h.hz = p.hz;
	h.cpus = p.cpus;
	h.has_seed = true;
	h.seed = p.seed;
	g_snprintf(h.source, sizeof(h.source), "idlesim bench: %s workload",
		   workload ? workload : "basic");
	if (workload) {
		synth_config(workload, &scfg);
		sg = is_synth_new(&scfg, err);
		if (!sg)
			return false;
	} else {
		g = is_basic_new(&p);
	}
	w = is_trace_writer_open(path, IS_FMT_BINARY, &h, err);
	if (!w) {
		is_basic_free(g);
		is_synth_free(sg);
		return false;
	}
	if (sg) {
		/* records in time order (a waker's or an rt-app file's are not) */
		struct is_synth_bounded lim = { .g = sg, .periods = (uint64_t)periods };
		struct is_synth_sorted *sorted = is_synth_sorted_new(&lim);

		int n = 0;

		while (ok && (n = is_synth_sorted_next(sorted, &rec)) > 0)
			ok = is_trace_write(w, &rec, err);
		if (ok && n < 0) {
			g_set_error(err, IS_ERROR, IS_ERROR_INVALID, "%s", is_synth_error(sg));
			ok = false;
		}
		is_synth_sorted_free(sorted);
		*made = (gint64)lim.n;
	} else {
		for (gint64 i = 0; i < periods && ok; i++) {
			is_basic_next(g, &rec);
			ok = is_trace_write(w, &rec, err);
		}
		*made = periods;
	}
	is_basic_free(g);
	is_synth_free(sg);
	if (!ok) {
		is_trace_writer_abort(w);
		return false;
	}
	return is_trace_writer_commit(w, err);
}

/* Generation and simulation in one process, closed loop: periods/s. */
static bool run_closed(const struct is_governor *g, const char *workload, gint64 periods,
		       double *secs, uint64_t *n, uint64_t *sel, GError **err)
{
	struct is_synth_config scfg;
	struct is_run_gov rg = { .gov = g, .seed = 1 };
	struct is_run_input *in;
	uint64_t records;
	double t0;
	int failed;
	bool ok;

	synth_config(workload, &scfg);
	in = is_run_open_workload(&scfg, (uint64_t)periods, 0, NULL, false, err);
	if (!in)
		return false;
	is_params_defaults(g, &rg.params);
	t0 = now_s();
	ok = is_run_build(in, IS_SIM_MODEL, &rg, 1, err) &&
	     is_run_execute(in, &rg, 1, &records, &failed, err);
	*secs = now_s() - t0;
	*n = rg.sim ? is_sim_records(rg.sim) : 0;
	*sel = ok ? rg.total.selections : 0;
	is_run_gov_clear(&rg, 1);
	is_run_input_free(in);
	return ok;
}

static int bench_main(int argc, char **argv)
{
	gint64 periods = 10000000;
	g_autofree char *trace = NULL, *govs = NULL, *save = NULL, *workload = NULL;
	gboolean closed = FALSE, gov_only = FALSE;
	gint64 repeat = 3;
	struct is_sweep_trace *inmem = NULL;
	GOptionEntry entries[] = {
		{ "periods", 'n', 0, G_OPTION_ARG_INT64, &periods, "idle periods to generate (default 10000000)", "N" },
		{ "trace", 't', 0, G_OPTION_ARG_FILENAME, &trace, "replay this trace instead", "FILE" },
		{ "governor", 'g', 0, G_OPTION_ARG_STRING, &govs, "governors (default: all)", "NAME[,NAME...]" },
		{ "save", 0, 0, G_OPTION_ARG_FILENAME, &save, "keep the generated trace here", "FILE" },
		{ "workload", 'w', 0, G_OPTION_ARG_STRING, &workload, "generate from this scenario or rt-app:FILE.json (default params, 4 CPUs, seed 42) instead of basic", "NAME" },
		{ "closed-loop", 0, 0, G_OPTION_ARG_NONE, &closed, "with --workload: no file, generate and simulate closed-loop in one process", NULL },
		{ "governor-only", 0, 0, G_OPTION_ARG_NONE, &gov_only, "time select()+reflect() alone on the trace's inputs in memory (decisions/s)", NULL },
		{ "repeat", 'r', 0, G_OPTION_ARG_INT64, &repeat, "replays per governor; the fastest is reported (default 3)", "N" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- replay benchmark");
	g_auto(GStrv) names = NULL;
	g_autofree char *tmp = NULL;
	GError *err = NULL;
	int code = EXIT_OK;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse(ctx, &argc, &argv, &code))
		return code;
	if (periods < 1 || repeat < 1) {
		cli_error("--periods and --repeat must be >= 1");
		return EXIT_USAGE;
	}
	if (save && trace) {
		cli_error("--save and --trace exclude each other");
		return EXIT_USAGE;
	}
	if (!cli_out_check("--save", save, &code))
		return code;
	if (workload && !trace && g_str_has_prefix(workload, "rt-app:")) {
		bench_rtapp = is_rtapp_load(workload + strlen("rt-app:"), &err);
		if (!bench_rtapp) {
			cli_error("--workload %s: %s", workload, err->message);
			g_error_free(err);
			return EXIT_RUNTIME;
		}
	}
	if (workload && (trace || (!bench_rtapp && !is_workload_find(workload)))) {
		cli_error(trace ? "--workload and --trace exclude each other" :
			  "--workload: unknown scenario (see idlesim synth --list)");
		return EXIT_USAGE;
	}
	if (closed && (!workload || save)) {
		cli_error("--closed-loop needs --workload and writes no file (no --save)");
		return EXIT_USAGE;
	}
	if (closed && gov_only) {
		cli_error("--governor-only and --closed-loop exclude each other");
		return EXIT_USAGE;
	}
	if (govs) {
		if (!cli_governors_check(govs))
			return EXIT_USAGE;
		names = g_strsplit(govs, ",", -1);
	}
	if (!trace && !closed) {
		double t0 = now_s();
		gint64 made = 0;
		int fd;

		if (save) {
			trace = g_strdup(save);
		} else {
			tmp = g_build_filename(g_get_tmp_dir(), "idlesim-bench-XXXXXX.istb", NULL);
			fd = g_mkstemp(tmp);
			if (fd < 0) {
				cli_error("%s: cannot create", tmp);
				return EXIT_RUNTIME;
			}
			close(fd);
			trace = g_strdup(tmp);
		}
		if (!make_trace(trace, periods, workload, &made, &err)) {
			cli_error("%s", err->message);
			g_error_free(err);
			if (tmp)
				unlink(tmp);
			return EXIT_RUNTIME;
		}
		printf("generated %" G_GINT64_FORMAT " idle periods in %s s\n", made,
		       fmt_f(now_s() - t0, 2));
	}
	if (gov_only) {
		/* the sweeps' in-memory copy of a trace */
		inmem = is_sweep_trace_load(trace, NULL, &err);
		if (!inmem)
			goto fail;
	}
	/* the named governors in their order (plugins too), else every built-in one */
	for (int gi = 0; names ? names[gi] != NULL : is_governors()[gi] != NULL; gi++) {
		const struct is_governor *g = names ? is_governor_lookup(names[gi], NULL)
						    : is_governors()[gi];
		struct rusage ru;
		double t0, dt, best;
		uint64_t n = 0, sel = 0;

		if (!names && g->needs_recorded) /* synthetic: no k= */
			continue;
		best = 0;
		if (gov_only) {
			for (gint64 rep = 0; rep < repeat; rep++) {
				double t0 = now_s();
				bool ok = is_run_governor_only(g, inmem->recs, inmem->n, &inmem->hdr,
							       inmem->table, inmem->disabled, &n, &err);

				dt = now_s() - t0;
				if (!ok)
					goto fail;
				if (!best || dt < best)
					best = dt;
			}
			printf("%-10s %12" G_GUINT64_FORMAT " decisions %8s s %8s M decisions/s  (select+reflect only, best of %"
			       G_GINT64_FORMAT ")\n", g->name, n, fmt_f(best, 3),
			       fmt_f((double)n / best / 1e6, 2), repeat);
			fflush(stdout);
			continue;
		}
		for (gint64 rep = 0; rep < repeat && closed; rep++) {
			if (!run_closed(g, workload, periods, &dt, &n, &sel, &err))
				goto fail;
			if (!best || dt < best)
				best = dt;
		}
		for (gint64 rep = 0; rep < repeat && !closed; rep++) {
			struct is_run_gov rg = { .gov = g, .seed = 1 };
			struct is_run_input *in = is_run_open_trace(trace, NULL, &err);
			int failed;
			bool ok;

			if (!in)
				goto fail;
			is_params_defaults(g, &rg.params);
			ok = is_run_build(in, IS_SIM_MODEL, &rg, 1, &err);
			t0 = now_s();
			ok = ok && is_run_execute(in, &rg, 1, &n, &failed, &err);
			dt = now_s() - t0;
			sel = ok ? rg.total.selections : 0;
			is_run_gov_clear(&rg, 1);
			is_run_input_free(in);
			if (!ok)
				goto fail;
			if (!best || dt < best)
				best = dt;
		}
		getrusage(RUSAGE_SELF, &ru);
		/*
		 * A period is a trace record (a workload wakeup); the model may
		 * select more than once in it (tick and poll-limit wakeups),
		 * each a cpuidle entry of its own: both rates are printed.
		 */
		printf("%-10s %12" G_GUINT64_FORMAT " periods %8s s %8s M periods/s  %8s M selections/s  (best of %"
		       G_GINT64_FORMAT ", peak RSS %ld MiB)\n", g->name, n, fmt_f(best, 3),
		       fmt_f((double)n / best / 1e6, 2), fmt_f((double)sel / best / 1e6, 2), repeat,
		       ru.ru_maxrss / 1024);
		fflush(stdout);
	}
	goto out;
fail:
	cli_error("%s", err->message);
	g_error_free(err);
	code = EXIT_RUNTIME;
out:
	is_sweep_trace_free(inmem);
	if (tmp)
		unlink(tmp);
	return code;
}

int cmd_bench(int argc, char **argv)
{
	const int code = bench_main(argc, argv);

	is_rtapp_free(bench_rtapp);
	bench_rtapp = NULL;
	return code;
}
