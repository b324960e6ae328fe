// SPDX-License-Identifier: GPL-2.0-only
/*
 * Report writers for idlesim run.  The JSON keys are documented in
 * docs/metrics.md ("JSON output") and are stable: add keys, never rename them.
 */
#include <string.h>

#include "cli.h"

double cli_pct(uint64_t n, uint64_t d)
{
	return d ? 100.0 * (double)n / (double)d : 0.0;
}

void cli_json_string(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			g_string_append_printf(out, "\\%c", c);
		else if (c < 0x20)
			g_string_append_printf(out, "\\u%04x", c);
		else
			g_string_append_c(out, (char)c);
	}
	g_string_append_c(out, '"');
}

static void json_str(FILE *f, const char *s)
{
	g_autoptr(GString) q = g_string_new(NULL);

	cli_json_string(q, s);
	fputs(q->str, f);
}

void cli_above_below(const struct is_metrics *m, const struct is_state_table *t,
		     uint64_t *above, uint64_t *below)
{
	*above = *below = 0;
	for (int i = 0; i < t->count; i++) {
		*above += m->above[i];
		*below += m->below[i];
	}
}

static double norm(double v, double base)
{
	return base != 0 ? 100.0 * v / base : (v == 0 ? 100.0 : 0.0);
}

static void json_metrics(FILE *f, const struct is_metrics *m, const struct is_state_table *t,
			 const char *ind)
{
	struct is_latency_summary lat;
	uint64_t above, below;
	int64_t total_time = 0;

	is_metrics_latency(m, t, &lat);
	cli_above_below(m, t, &above, &below);
	for (int i = 0; i < t->count; i++)
		total_time += m->time_ns[i];
	fprintf(f, "{\n%s  \"selections\": %" G_GUINT64_FORMAT ",\n", ind, m->selections);
	fprintf(f, "%s  \"accuracy\": {\"correct_pct\": %s, \"us_pct\": [", ind,
		fmt_f(cli_pct(m->acc[IS_ACC_MID], m->selections), 4));
	for (int k = 1; k < t->count; k++)
		fprintf(f, "%s%s", k > 1 ? ", " : "",
			fmt_f(cli_pct(m->acc[IS_ACC_MID + k], m->selections), 4));
	fprintf(f, "], \"os_pct\": [");
	for (int k = 1; k < t->count; k++)
		fprintf(f, "%s%s", k > 1 ? ", " : "",
			fmt_f(cli_pct(m->acc[IS_ACC_MID - k], m->selections), 4));
	fprintf(f, "], \"correct\": %" G_GUINT64_FORMAT ", \"us\": [", m->acc[IS_ACC_MID]);
	for (int k = 1; k < t->count; k++)
		fprintf(f, "%s%" G_GUINT64_FORMAT, k > 1 ? ", " : "", m->acc[IS_ACC_MID + k]);
	fprintf(f, "], \"os\": [");
	for (int k = 1; k < t->count; k++)
		fprintf(f, "%s%" G_GUINT64_FORMAT, k > 1 ? ", " : "", m->acc[IS_ACC_MID - k]);
	fprintf(f, "]},\n");
	fprintf(f, "%s  \"above\": %" G_GUINT64_FORMAT ", \"below\": %" G_GUINT64_FORMAT ",\n",
		ind, above, below);
	fprintf(f, "%s  \"states\": [", ind);
	for (int i = 0; i < t->count; i++) {
		fprintf(f, "%s\n%s    {\"name\": ", i ? "," : "", ind);
		json_str(f, t->s[i].name);
		fprintf(f, ", \"usage\": %" G_GUINT64_FORMAT ", \"time_ns\": %" G_GINT64_FORMAT
			", \"residency_pct\": %s, \"above\": %" G_GUINT64_FORMAT
			", \"below\": %" G_GUINT64_FORMAT "}",
			m->usage[i], m->time_ns[i],
			fmt_f(total_time ? 100.0 * (double)m->time_ns[i] / (double)total_time : 0, 4),
			m->above[i], m->below[i]);
	}
	fprintf(f, "\n%s  ],\n%s  \"wakeups\": {", ind, ind);
	for (int c = 0; c < IS_CAUSE_COUNT; c++)
		fprintf(f, "%s\"%s\": %" G_GUINT64_FORMAT, c ? ", " : "", is_cause_name(c),
			m->wakeups[c]);
	fprintf(f, "},\n");
	fprintf(f, "%s  \"tick_stop_requests\": %" G_GUINT64_FORMAT ", \"tick_stopped\": %"
		G_GUINT64_FORMAT ", \"sleep_length_reads\": %" G_GUINT64_FORMAT
		", \"random_draws\": %" G_GUINT64_FORMAT ",\n", ind,
		m->tick_stop_requests, m->tick_stops, m->sleep_length_reads, m->random_draws);
	fprintf(f, "%s  \"idle_ns\": %" G_GINT64_FORMAT ", \"energy_active_ns\": %s, "
		"\"avg_idle_power\": %s,\n", ind, m->idle_ns, fmt_f(m->energy, 1),
		fmt_f(m->idle_ns ? m->energy / (double)m->idle_ns : 0, 6));
	fprintf(f, "%s  \"wakeup_latency\": {\"count\": %" G_GUINT64_FORMAT ", \"mean_ns\": %s, "
		"\"p50_ns\": %" G_GINT64_FORMAT ", \"p99_ns\": %" G_GINT64_FORMAT ", \"max_ns\": %"
		G_GINT64_FORMAT "}\n%s}", ind, lat.count, fmt_f(lat.mean_ns, 2), lat.p50_ns,
		lat.p99_ns, lat.max_ns, ind);
}

void report_json(FILE *f, const struct run_report *r)
{
	const struct is_run_gov *b = &r->res[r->baseline];
	struct is_latency_summary bl;

	is_metrics_latency(&b->total, r->states, &bl);
	fprintf(f, "{\n  \"idlesim_version\": \"%s\",\n  \"trace\": {\"path\": ", IDLESIM_VERSION);
	json_str(f, r->trace_path);
	fprintf(f, ", \"records\": %" G_GUINT64_FORMAT ", \"states\": ", r->records);
	json_str(f, r->hdr->states);
	fprintf(f, ", \"hz\": %d, \"cpus\": %d", r->hdr->hz, r->hdr->cpus);
	if (r->hdr->has_seed)
		fprintf(f, ", \"seed\": %" G_GUINT64_FORMAT, r->hdr->seed);
	fprintf(f, "},\n  \"state_table\": {\"name\": ");
	json_str(f, r->states->name);
	fprintf(f, ", \"states\": [");
	for (int i = 0; i < r->states->count; i++) {
		const struct is_state *s = &r->states->s[i];

		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		json_str(f, s->name);
		fprintf(f, ", \"exit_latency_ns\": %" G_GINT64_FORMAT ", \"target_residency_ns\": %"
			G_GINT64_FORMAT ", \"power\": %s}", s->exit_latency_ns,
			s->target_residency_ns, fmt_f(s->power, 4));
	}
	fprintf(f, "]},\n  \"mode\": \"%s\",\n  \"baseline\": \"%s\",\n  \"governors\": [",
		r->mode, b->gov->name);
	for (int g = 0; g < r->ngov; g++) {
		const struct is_run_gov *x = &r->res[g];
		g_autofree char *ps = is_params_format(x->gov, &x->params);
		struct is_latency_summary l;

		is_metrics_latency(&x->total, r->states, &l);
		fprintf(f, "%s\n    {\n      \"name\": \"%s\",\n      \"params\": ", g ? "," : "",
			x->gov->name);
		json_str(f, ps);
		fprintf(f, ",\n      \"seed\": %" G_GUINT64_FORMAT ",\n      \"normalized\": {"
			"\"energy\": %s, \"latency_mean\": %s, \"latency_p99\": %s},\n"
			"      \"total\": ", x->seed,
			fmt_f(norm(x->total.energy, b->total.energy), 2),
			fmt_f(norm(l.mean_ns, bl.mean_ns), 2),
			fmt_f(norm((double)l.p99_ns, (double)bl.p99_ns), 2));
		json_metrics(f, &x->total, r->states, "      ");
		fprintf(f, ",\n      \"per_cpu\": [");
		for (int c = 0; c < r->cpus; c++) {
			fprintf(f, "%s\n        ", c ? "," : "");
			json_metrics(f, is_sim_cpu_metrics(x->sim, c), r->states, "        ");
		}
		fprintf(f, "\n      ]\n    }");
	}
	fprintf(f, "\n  ]\n}\n");
}

void report_csv(FILE *f, const struct run_report *r)
{
	const struct is_state_table *t = r->states;
	const struct is_run_gov *b = &r->res[r->baseline];

	fprintf(f, "governor,params,seed,selections,correct_pct");
	for (int k = 1; k < t->count; k++)
		fprintf(f, ",us%d_pct", k);
	for (int k = 1; k < t->count; k++)
		fprintf(f, ",os%d_pct", k);
	fprintf(f, ",above,below,energy_active_ns,energy_norm,lat_mean_ns,lat_p50_ns,lat_p99_ns");
	for (int i = 0; i < t->count; i++)
		fprintf(f, ",usage_%s,time_ns_%s", t->s[i].name, t->s[i].name);
	fprintf(f, "\n");
	for (int g = 0; g < r->ngov; g++) {
		const struct is_run_gov *x = &r->res[g];
		const struct is_metrics *m = &x->total;
		g_autofree char *ps = is_params_format(x->gov, &x->params);
		struct is_latency_summary l;
		uint64_t above, below;

		is_metrics_latency(m, t, &l);
		cli_above_below(m, t, &above, &below);
		fprintf(f, "%s,\"%s\",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s", x->gov->name,
			ps, x->seed, m->selections, fmt_f(cli_pct(m->acc[IS_ACC_MID], m->selections), 4));
		for (int k = 1; k < t->count; k++)
			fprintf(f, ",%s", fmt_f(cli_pct(m->acc[IS_ACC_MID + k], m->selections), 4));
		for (int k = 1; k < t->count; k++)
			fprintf(f, ",%s", fmt_f(cli_pct(m->acc[IS_ACC_MID - k], m->selections), 4));
		fprintf(f, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s,%s,%s,%" G_GINT64_FORMAT
			",%" G_GINT64_FORMAT, above, below, fmt_f(m->energy, 1),
			fmt_f(norm(m->energy, b->total.energy), 2), fmt_f(l.mean_ns, 2), l.p50_ns,
			l.p99_ns);
		for (int i = 0; i < t->count; i++)
			fprintf(f, ",%" G_GUINT64_FORMAT ",%" G_GINT64_FORMAT, m->usage[i], m->time_ns[i]);
		fprintf(f, "\n");
	}
}

void report_table(FILE *f, const struct run_report *r)
{
	const struct is_state_table *t = r->states;
	const struct is_run_gov *b = &r->res[r->baseline];
	struct is_latency_summary bl;

	is_metrics_latency(&b->total, t, &bl);
	fprintf(f, "trace %s: %" G_GUINT64_FORMAT " records, %d CPUs, HZ=%d, table %s, mode %s\n\n",
		r->trace_path, r->records, r->hdr->cpus, r->hdr->hz, t->name, r->mode);
	fprintf(f, "Accuracy (%% of selections; US k = k states too deep, OS k = too shallow)\n");
	fprintf(f, "%-12s", "governor");
	for (int k = t->count - 1; k >= 1; k--)
		fprintf(f, " %6s%d", "US ", k);
	fprintf(f, " %7s", "Correct");
	for (int k = 1; k < t->count; k++)
		fprintf(f, " %6s%d", "OS ", k);
	fprintf(f, "\n");
	for (int g = 0; g < r->ngov; g++) {
		const struct is_metrics *m = &r->res[g].total;

		fprintf(f, "%-12s", r->res[g].gov->name);
		for (int k = t->count - 1; k >= 1; k--)
			fprintf(f, " %7s", fmt_f(cli_pct(m->acc[IS_ACC_MID + k], m->selections), 2));
		fprintf(f, " %7s", fmt_f(cli_pct(m->acc[IS_ACC_MID], m->selections), 2));
		for (int k = 1; k < t->count; k++)
			fprintf(f, " %7s", fmt_f(cli_pct(m->acc[IS_ACC_MID - k], m->selections), 2));
		fprintf(f, "\n");
	}
	fprintf(f, "\nSummary (normalised columns: %s = 100)\n", b->gov->name);
	fprintf(f, "%-12s %10s %9s %9s %12s %8s %10s %10s %8s %8s\n", "governor", "selections",
		"above", "below", "energy", "energy%", "lat_mean", "lat_p99", "lat_p99%",
		"tick_off");
	for (int g = 0; g < r->ngov; g++) {
		const struct is_metrics *m = &r->res[g].total;
		struct is_latency_summary l;
		uint64_t above, below;

		is_metrics_latency(m, t, &l);
		cli_above_below(m, t, &above, &below);
		fprintf(f, "%-12s %10" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT
			" %12s %8s %8sns %8" G_GINT64_FORMAT "ns %8s %7s%%\n", r->res[g].gov->name,
			m->selections, above, below, fmt_f(m->energy / 1e6, 3),
			fmt_f(norm(m->energy, b->total.energy), 2), fmt_f(l.mean_ns, 1), l.p99_ns,
			fmt_f(norm((double)l.p99_ns, (double)bl.p99_ns), 2),
			fmt_f(cli_pct(m->tick_stops, m->selections), 1));
	}
	fprintf(f, "(energy in active-ms: milliseconds of busy-core power; latency = exit latency "
		   "paid on irq/IPI wakeups)\n\nResidency per state (%% of idle time)\n%-12s",
		"governor");
	for (int i = 0; i < t->count; i++)
		fprintf(f, " %10s", t->s[i].name);
	fprintf(f, "\n");
	for (int g = 0; g < r->ngov; g++) {
		const struct is_metrics *m = &r->res[g].total;
		int64_t tot = 0;

		for (int i = 0; i < t->count; i++)
			tot += m->time_ns[i];
		fprintf(f, "%-12s", r->res[g].gov->name);
		for (int i = 0; i < t->count; i++)
			fprintf(f, " %10s", fmt_f(tot ? 100.0 * (double)m->time_ns[i] / (double)tot : 0, 2));
		fprintf(f, "\n");
	}
}

void print_params(FILE *f, const struct is_param_desc *d, int n)
{
	for (int i = 0; i < n; i++, d++) {
		if (d->choices) {
			fprintf(f, "  %s=%s (", d->name, d->choices[d->def]);
			for (int c = 0; d->choices[c]; c++)
				fprintf(f, "%s%s", c ? "|" : "", d->choices[c]);
			fprintf(f, ")  %s\n", d->help);
		} else {
			fprintf(f, "  %s=%" G_GINT64_FORMAT " (%" G_GINT64_FORMAT "..%" G_GINT64_FORMAT
				")  %s\n", d->name, d->def, d->min, d->max, d->help);
		}
	}
}
