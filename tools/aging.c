// SPDX-License-Identifier: GPL-2.0-only
/*
 * aging: one governor closed loop on one workload and seed, with what
 * docs/aging.md measures: the RFC's accuracy (the state entered against
 * the ideal one) over the run and in windows of 500 selections around a
 * pattern change, energy and the p99 wakeup latency.  One CSV line.
 *
 *   aging WORKLOAD SEED DURATION_MS PHASE_MS GOVERNOR [WPARAM=V|GPARAM=V]...
 *
 * WORKLOAD is a scenario or rt-app:FILE; arguments "w:KEY=V" are the
 * workload's params, "g:KEY=V" the governor's.  PHASE_MS is the time of
 * the pattern change (0: none) the recovery is measured after.  Prints:
 * selections,accuracy_pct,energy,p99_ns,pre_pct,post_pct,recovery_sel
 * (recovery_sel: selections after the change until a window's accuracy is
 * within 2 points of the post-change steady state, the mean of the last
 * half of the windows after it; -1 without a change).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlesim/idlesim.h"
#include "idlesim/rtapp.h"
#include "idlesim/run.h"
#include "idlesim/synth.h"

#define WINDOW 500

struct obs {
	uint64_t n, correct, wn, wc;
	GArray *win_t, *win_acc;   /* int64 end time, double accuracy */
};

static void on_decision(void *p, const struct is_decision *d)
{
	struct obs *o = p;
	const int ideal = d->ideal;

	if (d->entered < 0)
		return;
	o->n++;
	o->wn++;
	o->correct += d->entered == ideal;
	o->wc += d->entered == ideal;
	if (o->wn == WINDOW) {
		double acc = 100.0 * (double)o->wc / WINDOW;

		g_array_append_val(o->win_t, d->t_ns);
		g_array_append_val(o->win_acc, acc);
		o->wn = o->wc = 0;
	}
}

static double mean_half(GArray *acc, guint from, guint to)
{
	double s = 0;
	guint a = from + (to - from) / 2, n = 0;

	for (guint i = a; i < to; i++, n++)
		s += g_array_index(acc, double, i);
	return n ? s / n : 0;
}

int main(int argc, char **argv)
{
	struct is_synth_config cfg = { 0 };
	struct is_rtapp *rt = NULL;
	struct is_run_input *in;
	struct is_run_gov g = { 0 };
	struct obs o = { 0 };
	struct is_latency_summary lat;
	GError *err = NULL;
	uint64_t records;
	int64_t phase_ns;
	guint first_post = 0;
	int failed;

	if (argc < 6) {
		fprintf(stderr, "usage: aging WORKLOAD SEED DURATION_MS PHASE_MS GOVERNOR [w:K=V|g:K=V]...\n");
		return 2;
	}
	if (g_str_has_prefix(argv[1], "rt-app:")) {
		rt = is_rtapp_load_strict(argv[1] + 7, false, &err);
		if (!rt)
			goto fail;
		cfg.w = is_rtapp_workload();
		cfg.rtapp = rt;
	} else {
		cfg.w = is_workload_find(argv[1]);
		if (!cfg.w) {
			fprintf(stderr, "aging: %s: no such scenario\n", argv[1]);
			return 2;
		}
	}
	is_params_defaults_of(cfg.w->params, cfg.w->nparams, &cfg.params);
	g.gov = is_governor_lookup(argv[5], &err);
	if (!g.gov)
		goto fail;
	is_params_defaults(g.gov, &g.params);
	for (int i = 6; i < argc; i++) {
		bool ok = g_str_has_prefix(argv[i], "w:") ?
			is_params_set_of("workload", cfg.w->name, cfg.w->params, cfg.w->nparams,
					 &cfg.params, argv[i] + 2, &err) :
			g_str_has_prefix(argv[i], "g:") ?
			is_params_set(g.gov, &g.params, argv[i] + 2, &err) : false;

		if (!ok) {
			if (!err)
				fprintf(stderr, "aging: %s: not w:K=V or g:K=V\n", argv[i]);
			goto fail;
		}
	}
	cfg.cpus = rt ? MAX(2, is_rtapp_max_cpu(rt) + 1) : 2;
	cfg.hz = 100;
	cfg.seed = strtoull(argv[2], NULL, 10);
	cfg.latency_req_ns = 2147483647000LL;
	phase_ns = strtoll(argv[4], NULL, 10) * 1000000;
	in = is_run_open_workload(&cfg, 0, strtoll(argv[3], NULL, 10) * 1000000, "power9", false,
				  &err);
	if (!in)
		goto fail;
	o.win_t = g_array_new(FALSE, FALSE, sizeof(int64_t));
	o.win_acc = g_array_new(FALSE, FALSE, sizeof(double));
	g.seed = 1;
	g.observer = on_decision;
	g.observer_ctx = &o;
	if (!is_run_build(in, IS_SIM_MODEL, &g, 1, &err) ||
	    !is_run_execute(in, &g, 1, &records, &failed, &err))
		goto fail;
	is_metrics_latency(&g.total, in->table, &lat);
	while (first_post < o.win_t->len && g_array_index(o.win_t, int64_t, first_post) < phase_ns)
		first_post++;
	printf("%" G_GUINT64_FORMAT ",%.3f,%.1f,%" G_GINT64_FORMAT, o.n,
	       100.0 * (double)o.correct / (double)MAX(o.n, 1), g.total.energy, lat.p99_ns);
	if (phase_ns > 0 && first_post > 1 && first_post + 4 < o.win_t->len) {
		double pre = mean_half(o.win_acc, 0, first_post);
		double post = mean_half(o.win_acc, first_post, o.win_t->len);
		guint i = first_post;

		while (i < o.win_t->len && g_array_index(o.win_acc, double, i) < post - 2.0)
			i++;
		printf(",%.2f,%.2f,%u\n", pre, post, (i - first_post + 1) * WINDOW);
	} else {
		printf(",,,-1\n");
	}
	is_run_gov_clear(&g, 1);
	is_run_input_free(in);
	is_rtapp_free(rt);
	g_array_free(o.win_t, TRUE);
	g_array_free(o.win_acc, TRUE);
	return 0;
fail:
	fprintf(stderr, "aging: %s\n", err ? err->message : "failed");
	return 1;
}
