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

static void json_str(FILE *f, const char *s)
{
	g_autoptr(GString) q = g_string_new(NULL);

	is_json_string(q, s);
	fputs(q->str, f);
}

static void json_metrics(FILE *f, const struct is_metrics *m, const struct is_state_table *t,
			 const char *ind)
{
	g_autoptr(GString) s = g_string_new(NULL);
	struct is_metric_ctx c;

	is_metric_ctx_init(&c, m, t, NULL);
	is_metric_json_object(s, &c, ind);
	fputs(s->str, f);
}

char *report_caveats(const struct run_report *r)
{
	GString *s = g_string_new(NULL);
	const struct is_run_estimates *e = r->est;

	if (r->window_to_ns)
		g_string_append_printf(s, "measured: the selections of records starting in [%"
				       G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") ns; the governors ran "
				       "on every record\n", r->window_from_ns, r->window_to_ns);
	for (int i = 0; i < r->hdr->ncomments; i++)
		if (g_str_has_prefix(r->hdr->comments[i], "# assumed: "))
			g_string_append_printf(s, "assumed: %s\n", r->hdr->comments[i] + 11);
	if (e && e->any)
		g_string_append_printf(s, "estimated inputs: %" G_GUINT64_FORMAT " of %"
				       G_GUINT64_FORMAT " periods (%s%%: sleep length %" G_GUINT64_FORMAT
				       ", tick state %" G_GUINT64_FORMAT ", idle duration %"
				       G_GUINT64_FORMAT "): the comparison rests %son the importer's "
				       "estimates (traces/README.md, \"Importing stock captures\")\n",
				       e->any, e->idle, fmt_f(cli_pct(e->any, e->idle), 1), e->sleep, e->ts,
				       e->idle_ns, 2 * e->any >= e->idle ? "mostly " : "partly ");
	return g_string_free(s, FALSE);
}

void report_json(FILE *f, const struct run_report *r)
{
	const struct is_run_gov *b = &r->res[r->baseline];
	g_autoptr(GString) s = g_string_new(NULL);

	fprintf(f, "{\n  \"idlesim_version\": \"%s\",\n  \"trace\": {\"path\": ", IDLESIM_VERSION);
	json_str(f, r->trace_path);
	fprintf(f, ", \"records\": %" G_GUINT64_FORMAT ", \"states\": ", r->records);
	json_str(f, r->hdr->states);
	fprintf(f, ", \"hz\": %d, \"cpus\": %d", r->hdr->hz, r->hdr->cpus);
	if (r->window_to_ns)
		fprintf(f, ", \"window_ns\": [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]",
			r->window_from_ns, r->window_to_ns);
	if (r->hdr->has_seed)
		fprintf(f, ", \"seed\": %" G_GUINT64_FORMAT, r->hdr->seed);
	if (r->est && r->est->any)
		fprintf(f, ", \"estimated\": {\"periods\": %" G_GUINT64_FORMAT ", \"any\": %"
			G_GUINT64_FORMAT ", \"sleep\": %" G_GUINT64_FORMAT ", \"ts\": %"
			G_GUINT64_FORMAT ", \"idle\": %" G_GUINT64_FORMAT "}", r->est->idle,
			r->est->any, r->est->sleep, r->est->ts, r->est->idle_ns);
	{
		bool any = false;

		for (int i = 0; i < r->hdr->ncomments; i++)
			if (g_str_has_prefix(r->hdr->comments[i], "# assumed: ")) {
				fprintf(f, "%s", any ? ", " : ", \"assumed\": [");
				json_str(f, r->hdr->comments[i] + 11);
				any = true;
			}
		if (any)
			fprintf(f, "]");
	}
	fprintf(f, "},\n  \"state_table\": {\"name\": ");
	json_str(f, r->states->name);
	fprintf(f, ", \"states\": [");
	for (int i = 0; i < r->states->count; i++) {
		const struct is_state *st = &r->states->s[i];

		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		json_str(f, st->name);
		fprintf(f, ", \"exit_latency_ns\": %" G_GINT64_FORMAT ", \"target_residency_ns\": %"
			G_GINT64_FORMAT ", \"power\": %s}", st->exit_latency_ns,
			st->target_residency_ns, fmt_f(st->power, 4));
	}
	fprintf(f, "], \"power_model\": \"%s\"},\n  \"mode\": \"%s\",\n  \"baseline\": \"%s\",\n"
		"  \"governors\": [", is_states_power_is_default(r->states) ? "default" : "table",
		r->mode, b->gov->name);
	for (int g = 0; g < r->ngov; g++) {
		const struct is_run_gov *x = &r->res[g];
		g_autofree char *ps = is_params_format(x->gov, &x->params);
		struct is_metric_ctx c;

		is_metric_ctx_init(&c, &x->total, r->states, &b->total);
		g_string_truncate(s, 0);
		is_metric_json_flat(s, IS_MW_JSON_NORM, &c);
		fprintf(f, "%s\n    {\n      \"name\": \"%s\",\n      \"params\": ", g ? "," : "",
			x->gov->name);
		json_str(f, ps);
		fprintf(f, ",\n      \"seed\": %" G_GUINT64_FORMAT ",\n      \"normalized\": {%s},\n"
			"      \"total\": ", x->seed, s->str);
		json_metrics(f, &x->total, r->states, "      ");
		fprintf(f, ",\n      \"per_cpu\": [");
		for (int cpu = 0; cpu < r->cpus; cpu++) {
			fprintf(f, "%s\n        ", cpu ? "," : "");
			json_metrics(f, is_sim_cpu_metrics(x->sim, cpu), r->states, "        ");
		}
		fprintf(f, "\n      ]\n    }");
	}
	fprintf(f, "\n  ]\n}\n");
}

void report_csv(FILE *f, const struct run_report *r)
{
	const struct is_run_gov *b = &r->res[r->baseline];
	g_autoptr(GString) s = g_string_new("governor,params,seed");

	is_metric_csv_header(s, IS_MW_CSV, r->states, true);
	fprintf(f, "%s\n", s->str);
	for (int g = 0; g < r->ngov; g++) {
		const struct is_run_gov *x = &r->res[g];
		g_autofree char *ps = is_params_format(x->gov, &x->params);
		struct is_metric_ctx c;

		is_metric_ctx_init(&c, &x->total, r->states, &b->total);
		g_string_printf(s, "%s,\"%s\",%" G_GUINT64_FORMAT, x->gov->name, ps, x->seed);
		is_metric_csv_row(s, IS_MW_CSV, &c);
		fprintf(f, "%s\n", s->str);
	}
}

/* One summary cell: right-aligned in the column, the suffix last. */
static void text_cell(FILE *f, const struct is_metric *d, const struct is_metric_value *v)
{
	const struct is_metric_text *x = &d->text;
	int w = x->width - (int)strlen(x->suffix);

	switch (v->type) {
	case IS_MTYPE_U64:
		fprintf(f, " %*" G_GUINT64_FORMAT "%s", w, v->u, x->suffix);
		break;
	case IS_MTYPE_I64:
		fprintf(f, " %*" G_GINT64_FORMAT "%s", w, v->i, x->suffix);
		break;
	case IS_MTYPE_F:
		fprintf(f, " %*s%s", w, fmt_f(x->div ? v->f / x->div : v->f, x->decimals), x->suffix);
		break;
	}
}

void report_table(FILE *f, const struct run_report *r)
{
	const struct is_state_table *t = r->states;
	const struct is_run_gov *b = &r->res[r->baseline];
	enum is_metric_id ids[IS_M_COUNT];
	int nsum = is_metric_layout(IS_MW_TEXT, ids);

	g_autofree char *cav = report_caveats(r);
	int w = 12; /* the name column: wider for a long one (plugin:FILE) */

	for (int g = 0; g < r->ngov; g++)
		w = MAX(w, (int)strlen(r->res[g].gov->name));

	fprintf(f, "trace %s: %" G_GUINT64_FORMAT " records, %d CPUs, HZ=%d, table %s, mode %s\n%s\n",
		r->trace_path, r->records, r->hdr->cpus, r->hdr->hz, t->name, r->mode, cav);
	fprintf(f, "Accuracy (%% of selections; US k = k states too deep, OS k = too shallow)\n");
	fprintf(f, "%-*s", w, "governor");
	for (int k = t->count - 1; k >= 1; k--)
		fprintf(f, " %6s%d", "US ", k);
	fprintf(f, " %7s", "Correct");
	for (int k = 1; k < t->count; k++)
		fprintf(f, " %6s%d", "OS ", k);
	fprintf(f, "\n");
	for (int g = 0; g < r->ngov; g++) {
		struct is_metric_ctx c;

		is_metric_ctx_init(&c, &r->res[g].total, t, NULL);
		fprintf(f, "%-*s", w, r->res[g].gov->name);
		for (int k = t->count - 1; k >= 1; k--)
			fprintf(f, " %7s", fmt_f(is_metric_double(&c, IS_M_US_PCT, k), 2));
		fprintf(f, " %7s", fmt_f(is_metric_double(&c, IS_M_CORRECT_PCT, 0), 2));
		for (int k = 1; k < t->count; k++)
			fprintf(f, " %7s", fmt_f(is_metric_double(&c, IS_M_OS_PCT, k), 2));
		fprintf(f, "\n");
	}
	fprintf(f, "\nSummary (normalised columns: %s = 100)\n%-*s", b->gov->name, w, "governor");
	for (int i = 0; i < nsum; i++)
		fprintf(f, " %*s", is_metric_table[ids[i]].text.width, is_metric_table[ids[i]].text.label);
	fprintf(f, "\n");
	for (int g = 0; g < r->ngov; g++) {
		struct is_metric_ctx c;

		is_metric_ctx_init(&c, &r->res[g].total, t, &b->total);
		fprintf(f, "%-*s", w, r->res[g].gov->name);
		for (int i = 0; i < nsum; i++) {
			struct is_metric_value v;

			is_metric_get(&c, ids[i], 0, &v);
			text_cell(f, &is_metric_table[ids[i]], &v);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "(energy in active-ms: milliseconds of busy-core power%s; latency = exit "
		   "latency paid on irq/IPI wakeups)\n", is_states_power_is_default(t) ?
		   ", with the default power model's figures, not this machine's "
		   "(docs/states.md)" : "");
	for (int g = 0; g < r->ngov; g++)
		if (r->res[g].total.tick_assumed)
			fprintf(f, "(tick_off of %s: %" G_GUINT64_FORMAT " of its %" G_GUINT64_FORMAT
				" selections assume the kernel stopped the tick: the capture does not "
				"record that decision)\n", r->res[g].gov->name,
				r->res[g].total.tick_assumed, r->res[g].total.selections);
	for (int g = 0; g < r->ngov; g++)
		if (strcmp(r->mode, "model") == 0 && r->res[g].total.selections > r->records) {
			fprintf(f, "(selections above the %" G_GUINT64_FORMAT " records: a period that "
				"a poll time limit or a kept tick cuts short is selected for again, "
				"as the kernel's idle loop does; docs/model.md)\n", r->records);
			break;
		}
	fprintf(f, "\nResidency per state (%% of idle time)\n%-*s", w, "governor");
	for (int i = 0; i < t->count; i++)
		fprintf(f, " %10s", t->s[i].name);
	fprintf(f, "\n");
	for (int g = 0; g < r->ngov; g++) {
		struct is_metric_ctx c;

		is_metric_ctx_init(&c, &r->res[g].total, t, NULL);
		fprintf(f, "%-*s", w, r->res[g].gov->name);
		for (int i = 0; i < t->count; i++)
			fprintf(f, " %10s", fmt_f(is_metric_double(&c, IS_M_RESIDENCY_PCT, i), 2));
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
