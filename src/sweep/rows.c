// SPDX-License-Identifier: GPL-2.0-only
/*
 * A sweep's rows: the objective, the sweep's identity, the CSV and JSON
 * Lines rows and reading their leading fields back (idlesim/sweep.h has
 * the protocol).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "idlesim/metric_table.h"
#include "idlesim/sweep.h"

const char *const is_sweep_objective_names[IS_OBJ_COUNT] = {
	"energy", "p99", "accuracy", "above_below",
};

bool is_sweep_objective_parse(const char *spec, struct is_sweep_objective *o, GError **error)
{
	g_auto(GStrv) terms = g_strsplit(spec, ",", -1);

	memset(o, 0, sizeof(*o));
	if (!terms[0]) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "--objective: no terms");
		return false;
	}
	for (int i = 0; terms[i]; i++) {
		char *eq = strchr(terms[i], '=');
		double w = 1.0;
		int k;

		if (eq) {
			char *end;

			*eq = 0;
			w = g_ascii_strtod(eq + 1, &end);
			if (end == eq + 1 || *end || !isfinite(w)) {
				g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
					    "--objective: '%s' is not a number", eq + 1);
				return false;
			}
		}
		for (k = 0; k < IS_OBJ_COUNT; k++)
			if (strcmp(terms[i], is_sweep_objective_names[k]) == 0)
				break;
		if (k == IS_OBJ_COUNT) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "--objective: unknown term '%s' (energy, p99, accuracy, "
				    "above_below, or a weighted sum like energy=1,p99=1000)", terms[i]);
			return false;
		}
		o->w[k] += w;
	}
	return true;
}

static double objective_of(const struct is_sweep_objective *o, const struct is_metric_ctx *c)
{
	const struct is_metrics *m = c->m;
	double sel = m->selections ? (double)m->selections : 1.0;
	double term[IS_OBJ_COUNT];
	double v = 0;
	struct is_metric_value above, below;

	is_metric_get(c, IS_M_ABOVE, 0, &above);
	is_metric_get(c, IS_M_BELOW, 0, &below);
	term[IS_OBJ_ENERGY] = m->energy;
	term[IS_OBJ_P99] = (double)c->lat.p99_ns;
	term[IS_OBJ_ACCURACY] = 100.0 - 100.0 * (double)m->acc[IS_ACC_MID] / sel;
	term[IS_OBJ_ABOVE_BELOW] = 100.0 * (double)(above.u + below.u) / sel;
	for (int k = 0; k < IS_OBJ_COUNT; k++)
		if (o->w[k] != 0)
			v += o->w[k] * term[k];
	return v;
}

double is_sweep_objective_value(const struct is_sweep_objective *o, const struct is_metrics *m,
				const struct is_state_table *t)
{
	struct is_metric_ctx c;

	is_metric_ctx_init(&c, m, t, NULL);
	return objective_of(o, &c);
}

const char *is_sweep_param_value(const struct is_param_desc *d, int64_t v)
{
	static _Thread_local char buf[32];

	if (d->choices)
		return d->choices[v];
	g_snprintf(buf, sizeof(buf), "%" G_GINT64_FORMAT, v);
	return buf;
}

/* The identity of a sweep: everything that determines its rows. */
static void identity(struct is_sweep_def *d)
{
	const struct is_sweep_space *sp = d->space;
	const struct is_governor *g = sp->gov;
	g_autoptr(GString) s = g_string_new("idlesim-sweep 2\n");
	g_autofree char *sum = NULL;

	g_string_append_printf(s, "governor %s\nbase", g->name);
	for (int i = 0; i < g->nparams; i++)
		g_string_append_printf(s, " %" G_GINT64_FORMAT, sp->base.v[i]);
	for (int a = 0; a < sp->naxes; a++) {
		g_string_append_printf(s, "\naxis %s", g->params[sp->axes[a].param].name);
		for (int k = 0; k < sp->axes[a].n; k++)
			g_string_append_printf(s, " %" G_GINT64_FORMAT, sp->axes[a].values[k]);
	}
	g_string_append_printf(s, "\nrandom %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
			       sp->random_n, sp->random_seed);
	for (int i = 0; i < d->ntraces; i++)
		g_string_append_printf(s, "\ntrace %s %s %u", d->traces[i]->sha256,
				       d->traces[i]->table->name, d->traces[i]->disabled);
	g_string_append_printf(s, "\nmode %d\nseed %" G_GINT64_FORMAT "\nformat %d\nobjective",
			       (int)d->mode, d->seed, (int)d->format);
	for (int k = 0; k < IS_OBJ_COUNT; k++)
		g_string_append_printf(s, " %a", d->obj.w[k]);
	sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, s->str, (gssize)s->len);
	g_strlcpy(d->id, sum, sizeof(d->id));
}

bool is_sweep_def_init(struct is_sweep_def *d, GError **error)
{
	if (!is_sweep_space_size(d->space, &d->points, error))
		return false;
	for (int i = 1; i < d->ntraces; i++)
		if (d->traces[i]->table->count != d->traces[0]->table->count) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: %d states, but %s has %d: the rows' per-state columns "
				    "need one state count", d->traces[i]->path,
				    d->traces[i]->table->count, d->traces[0]->path,
				    d->traces[0]->table->count);
			return false;
		}
	if (d->ntraces < 1 || d->points > UINT64_MAX / (uint64_t)d->ntraces) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "too many jobs");
		return false;
	}
	d->jobs = d->points * (uint64_t)d->ntraces;
	identity(d);
	return true;
}

static void csv_field(GString *s, const char *v)
{
	if (!strpbrk(v, ",\"\n\r")) {
		g_string_append(s, v);
		return;
	}
	g_string_append_c(s, '"');
	for (; *v; v++) {
		if (*v == '"')
			g_string_append_c(s, '"');
		g_string_append_c(s, *v);
	}
	g_string_append_c(s, '"');
}

char *is_sweep_header(const struct is_sweep_def *d)
{
	const struct is_governor *g = d->space->gov;
	GString *s;

	if (d->format != IS_SWEEP_CSV)
		return NULL;
	s = g_string_new("sweep,job,jobs,point,objective,energy_active_ns,lat_p99_ns,governor");
	for (int i = 0; i < g->nparams; i++)
		g_string_append_printf(s, ",%s", g->params[i].name);
	g_string_append(s, ",trace,trace_sha256,seed");
	is_metric_csv_header(s, IS_MW_SWEEP, d->traces[0]->table, false);
	g_string_append_c(s, '\n');
	return g_string_free(s, FALSE);
}

void is_sweep_row(const struct is_sweep_def *d, GString *s, uint64_t job,
		  const struct is_params *p, const struct is_sweep_trace *t, uint64_t seed,
		  const struct is_metrics *m)
{
	const struct is_metric *en = &is_metric_table[IS_M_ENERGY];
	const struct is_governor *g = d->space->gov;
	bool js = d->format == IS_SWEEP_JSONL;
	struct is_metric_value v;
	struct is_metric_ctx c;
	char obj[G_ASCII_DTOSTR_BUF_SIZE];

	is_metric_ctx_init(&c, m, t->table, NULL);
	g_ascii_formatd(obj, sizeof(obj), "%.4f", objective_of(&d->obj, &c));
	g_string_truncate(s, 0);
	g_string_append_printf(s, js ? "{\"sweep\": \"%s\", \"job\": %" G_GUINT64_FORMAT
				       ", \"jobs\": %" G_GUINT64_FORMAT ", \"point\": %"
				       G_GUINT64_FORMAT ", \"objective\": %s, \"energy_active_ns\": " :
				       "%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
				       G_GUINT64_FORMAT ",%s,",
			       d->id, job, d->jobs, job / (uint64_t)d->ntraces, obj);
	is_metric_get(&c, IS_M_ENERGY, 0, &v);
	is_metric_append(s, en, &v);
	g_string_append_printf(s, js ? ", \"lat_p99_ns\": %" G_GINT64_FORMAT ", \"governor\": " :
				       ",%" G_GINT64_FORMAT ",", c.lat.p99_ns);
	(js ? is_json_string : csv_field)(s, g->name);
	if (js)
		g_string_append(s, ", \"params\": {");
	for (int i = 0; i < g->nparams; i++) {
		const struct is_param_desc *pd = &g->params[i];

		if (js) {
			g_string_append_printf(s, "%s\"%s\": ", i ? ", " : "", pd->name);
			if (pd->choices)
				is_json_string(s, pd->choices[p->v[i]]);
			else
				g_string_append(s, is_sweep_param_value(pd, p->v[i]));
		} else {
			g_string_append_printf(s, ",%s", is_sweep_param_value(pd, p->v[i]));
		}
	}
	g_string_append(s, js ? "}, \"trace\": " : ",");
	(js ? is_json_string : csv_field)(s, t->path);
	g_string_append_printf(s, js ? ", \"trace_sha256\": \"%s\", \"seed\": %" G_GUINT64_FORMAT :
				       ",%s,%" G_GUINT64_FORMAT, t->sha256, seed);
	if (js) {
		g_string_append(s, ", ");
		is_metric_json_flat(s, IS_MW_SWEEP, &c);
		g_string_append_c(s, '}');
	} else {
		is_metric_csv_row(s, IS_MW_SWEEP, &c);
	}
	g_string_append_c(s, '\n');
}

static bool parse_u64(const char **p, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = g_ascii_strtoull(*p, &end, 10);
	if (end == *p || errno)
		return false;
	*p = end;
	return true;
}

static bool parse_double(const char **p, double *v)
{
	char *end;

	*v = g_ascii_strtod(*p, &end);
	if (end == *p)
		return false;
	*p = end;
	return true;
}

static bool expect(const char **p, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(*p, lit, n) != 0)
		return false;
	*p += n;
	return true;
}

bool is_sweep_row_parse(const char *line, enum is_sweep_format f, struct is_sweep_row_key *k)
{
	const char *p = line;
	bool js = f == IS_SWEEP_JSONL;

	if (!expect(&p, js ? "{\"sweep\": \"" : ""))
		return false;
	if (strspn(p, "0123456789abcdef") != 16)
		return false;
	memcpy(k->sweep, p, 16);
	k->sweep[16] = 0;
	p += 16;
	return expect(&p, js ? "\", \"job\": " : ",") && parse_u64(&p, &k->job) &&
	       expect(&p, js ? ", \"jobs\": " : ",") && parse_u64(&p, &k->jobs) &&
	       expect(&p, js ? ", \"point\": " : ",") && parse_u64(&p, &k->point) &&
	       expect(&p, js ? ", \"objective\": " : ",") && parse_double(&p, &k->objective) &&
	       expect(&p, js ? ", \"energy_active_ns\": " : ",") && parse_double(&p, &k->energy) &&
	       expect(&p, js ? ", \"lat_p99_ns\": " : ",") && parse_double(&p, &k->p99) &&
	       k->job < k->jobs;
}

enum is_sweep_format is_sweep_format_of_line(const char *line)
{
	return line[0] == '{' ? IS_SWEEP_JSONL : IS_SWEEP_CSV;
}
