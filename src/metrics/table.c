// SPDX-License-Identifier: GPL-2.0-only
/*
 * The metric table (idlesim/metric_table.h) and the walkers every writer
 * shares.  To add a metric: compute it into struct is_metrics (metrics.c,
 * and the event loop's tally in scorer.h if it is counted per period),
 * then add one row below with its places in the writers.
 */
#include <stddef.h>
#include <string.h>

#include "idlesim/metric_table.h"

static double pct(uint64_t n, uint64_t d)
{
	return d ? 100.0 * (double)n / (double)d : 0.0;
}

static double norm(double v, double base)
{
	return base != 0 ? 100.0 * v / base : (v == 0 ? 100.0 : 0.0);
}

#define VU(x) (v->type = IS_MTYPE_U64, v->u = (x))
#define VI(x) (v->type = IS_MTYPE_I64, v->i = (x))
#define VF(x) (v->type = IS_MTYPE_F, v->f = (x))

/* A field of struct is_metrics (element @i of an array), of the row's type. */
static void get_field(const struct is_metric *d, const struct is_metric_ctx *c, int i,
		      struct is_metric_value *v)
{
	const char *p = (const char *)c->m + d->off;

	switch (d->type) {
	case IS_MTYPE_U64:
		VU(((const uint64_t *)(const void *)p)[i]);
		break;
	case IS_MTYPE_I64:
		VI(((const int64_t *)(const void *)p)[i]);
		break;
	case IS_MTYPE_F:
		VF(((const double *)(const void *)p)[i]);
		break;
	}
}

/* acc[] bins: correct (i = 0), US k (i = k), OS k (i = -k) */
static uint64_t acc_bin(const struct is_metric *d, const struct is_metric_ctx *c, int i)
{
	ptrdiff_t id = d - is_metric_table;
	int sign = id == IS_M_OS_PCT || id == IS_M_OS ? -1 : 1;

	return c->m->acc[IS_ACC_MID + sign * i];
}

static void get_acc(const struct is_metric *d, const struct is_metric_ctx *c, int i,
		    struct is_metric_value *v)
{
	VU(acc_bin(d, c, d->shape == IS_MSHAPE_ONE ? 0 : i));
}

static void get_acc_pct(const struct is_metric *d, const struct is_metric_ctx *c, int i,
			struct is_metric_value *v)
{
	VF(pct(acc_bin(d, c, d->shape == IS_MSHAPE_ONE ? 0 : i), c->m->selections));
}

static void get_sum(const struct is_metric *d, const struct is_metric_ctx *c, int i,
		    struct is_metric_value *v)
{
	const uint64_t *a = (const uint64_t *)(const void *)((const char *)c->m + d->off);
	uint64_t s = 0;

	(void)i;
	for (int k = 0; k < c->t->count; k++)
		s += a[k];
	VU(s);
}

static void get_residency_pct(const struct is_metric *d, const struct is_metric_ctx *c, int i,
			      struct is_metric_value *v)
{
	(void)d;
	VF(c->total_time_ns ? 100.0 * (double)c->m->time_ns[i] / (double)c->total_time_ns : 0);
}

static void get_avg_idle_power(const struct is_metric *d, const struct is_metric_ctx *c, int i,
			       struct is_metric_value *v)
{
	(void)d, (void)i;
	VF(c->m->idle_ns ? c->m->energy / (double)c->m->idle_ns : 0);
}

static void get_energy_norm(const struct is_metric *d, const struct is_metric_ctx *c, int i,
			    struct is_metric_value *v)
{
	(void)d, (void)i;
	VF(norm(c->m->energy, c->base->energy));
}

static void get_lat(const struct is_metric *d, const struct is_metric_ctx *c, int i,
		    struct is_metric_value *v)
{
	const struct is_latency_summary *l = &c->lat;

	(void)i;
	switch (d - is_metric_table) {
	case IS_M_LAT_COUNT: VU(l->count); break;
	case IS_M_LAT_MEAN: VF(l->mean_ns); break;
	case IS_M_LAT_P50: VI(l->p50_ns); break;
	case IS_M_LAT_P99: VI(l->p99_ns); break;
	default: VI(l->max_ns); break;
	}
}

static void get_lat_norm(const struct is_metric *d, const struct is_metric_ctx *c, int i,
			 struct is_metric_value *v)
{
	(void)i;
	if (d - is_metric_table == IS_M_LAT_MEAN_NORM)
		VF(norm(c->lat.mean_ns, c->base_lat.mean_ns));
	else
		VF(norm((double)c->lat.p99_ns, (double)c->base_lat.p99_ns));
}

static void get_share(const struct is_metric *d, const struct is_metric_ctx *c, int i,
		      struct is_metric_value *v)
{
	const uint64_t *n = (const uint64_t *)(const void *)((const char *)c->m + d->off);

	(void)i;
	VF(pct(*n, c->m->selections));
}

/* The RFC's "shallow" selections: states with a target residency <= 100 us. */
static void get_shallow_pct(const struct is_metric *d, const struct is_metric_ctx *c, int i,
			    struct is_metric_value *v)
{
	uint64_t shallow = 0, all = 0;

	(void)d, (void)i;
	for (int k = 0; k < c->t->count; k++) {
		all += c->m->usage[k];
		if (c->t->s[k].target_residency_ns <= 100000)
			shallow += c->m->usage[k];
	}
	VF(pct(shallow, all));
}

#define OFF(f) offsetof(struct is_metrics, f)
#define ONE IS_MSHAPE_ONE
#define STATE IS_MSHAPE_STATE
#define DEPTH IS_MSHAPE_DEPTH
#define CAUSE IS_MSHAPE_CAUSE
#define U64 IS_MTYPE_U64
#define I64 IS_MTYPE_I64
#define F IS_MTYPE_F
/* places: run JSON (10 * line + place), JSON "normalized", run CSV, run table, sweep, rfc */
#define AT(json, jnorm, csv, text, sweep, rfc) \
	.at = { [IS_MW_JSON] = json, [IS_MW_JSON_NORM] = jnorm, [IS_MW_CSV] = csv, \
		[IS_MW_TEXT] = text, [IS_MW_SWEEP] = sweep, [IS_MW_RFC] = rfc }
#define TEXT(label, width, dec, div, suffix) .text = { label, width, dec, div, suffix }

const struct is_metric is_metric_table[IS_M_COUNT] = {
	[IS_M_SELECTIONS] = { "selections", .unit = "", .shape = ONE, .type = U64,
		.help = "governor selections scored", AT(11, 0, 1, 1, 1, 0),
		TEXT("selections", 10, 0, 0, ""), .get = get_field, .off = OFF(selections) },
	[IS_M_CORRECT_PCT] = { "correct_pct", .group = "accuracy", .unit = "%", .shape = ONE,
		.type = F, .decimals = 4, .help = "selections of the ideal state (the RFC's \"Correct\")",
		AT(21, 0, 2, 0, 2, 3), .get = get_acc_pct },
	[IS_M_US_PCT] = { "us_pct", .group = "accuracy", .csv = "us%d_pct", .unit = "%",
		.shape = DEPTH, .type = F, .decimals = 4,
		.help = "selections k states deeper than the ideal one (\"US k\")",
		AT(22, 0, 3, 0, 3, 6), .get = get_acc_pct },
	[IS_M_OS_PCT] = { "os_pct", .group = "accuracy", .csv = "os%d_pct", .unit = "%",
		.shape = DEPTH, .type = F, .decimals = 4,
		.help = "selections k states shallower than the ideal one (\"OS k\")",
		AT(23, 0, 4, 0, 4, 7), .get = get_acc_pct },
	[IS_M_CORRECT] = { "correct", .group = "accuracy", .unit = "", .shape = ONE, .type = U64,
		.help = "the count behind correct_pct", AT(24, 0, 0, 0, 0, 0), .get = get_acc },
	[IS_M_US] = { "us", .group = "accuracy", .unit = "", .shape = DEPTH, .type = U64,
		.help = "the counts behind us_pct", AT(25, 0, 0, 0, 0, 0), .get = get_acc },
	[IS_M_OS] = { "os", .group = "accuracy", .unit = "", .shape = DEPTH, .type = U64,
		.help = "the counts behind os_pct", AT(26, 0, 0, 0, 0, 0), .get = get_acc },
	[IS_M_ABOVE] = { "above", .unit = "", .shape = ONE, .type = U64,
		.help = "the kernel's cpu_idle_miss \"above\": the state was too deep",
		AT(31, 0, 5, 2, 5, 0), TEXT("above", 9, 0, 0, ""), .get = get_sum, .off = OFF(above) },
	[IS_M_BELOW] = { "below", .unit = "", .shape = ONE, .type = U64,
		.help = "the kernel's cpu_idle_miss \"below\": a deeper state would have fit",
		AT(32, 0, 6, 3, 6, 0), TEXT("below", 9, 0, 0, ""), .get = get_sum, .off = OFF(below) },
	[IS_M_USAGE] = { "usage", .unit = "", .shape = STATE, .type = U64,
		.help = "entries of the state", AT(41, 0, 12, 0, 15, 0), .get = get_field, .off = OFF(usage) },
	[IS_M_TIME_NS] = { "time_ns", .unit = "ns", .shape = STATE, .type = I64,
		.help = "sum of last_residency_ns in the state", AT(42, 0, 13, 0, 16, 0),
		.get = get_field, .off = OFF(time_ns) },
	[IS_M_RESIDENCY_PCT] = { "residency_pct", .unit = "%", .shape = STATE, .type = F, .decimals = 4,
		.help = "the state's share of the time in states", AT(43, 0, 0, 0, 0, 0),
		.get = get_residency_pct },
	[IS_M_STATE_ABOVE] = { "state_above", .json = "above", .unit = "", .shape = STATE, .type = U64,
		.help = "\"above\" misses of the state", AT(44, 0, 0, 0, 0, 0), .get = get_field,
		.off = OFF(above) },
	[IS_M_STATE_BELOW] = { "state_below", .json = "below", .unit = "", .shape = STATE, .type = U64,
		.help = "\"below\" misses of the state", AT(45, 0, 0, 0, 0, 0), .get = get_field,
		.off = OFF(below) },
	[IS_M_WAKEUPS] = { "wakeups", .unit = "", .shape = CAUSE, .type = U64,
		.help = "wakeups by cause", AT(51, 0, 0, 0, 0, 0), .get = get_field, .off = OFF(wakeups) },
	[IS_M_TICK_STOP_REQUESTS] = { "tick_stop_requests", .unit = "", .shape = ONE, .type = U64,
		.help = "selections whose governor asked to stop the tick", AT(61, 0, 0, 0, 10, 0),
		.get = get_field, .off = OFF(tick_stop_requests) },
	[IS_M_TICK_STOPPED] = { "tick_stopped", .unit = "", .shape = ONE, .type = U64,
		.help = "selections that left the tick stopped", AT(62, 0, 0, 0, 11, 0),
		.get = get_field, .off = OFF(tick_stops) },
	[IS_M_SLEEP_LENGTH_READS] = { "sleep_length_reads", .unit = "", .shape = ONE, .type = U64,
		.help = "selections that read the sleep length", AT(63, 0, 0, 0, 12, 0),
		.get = get_field, .off = OFF(sleep_length_reads) },
	[IS_M_RANDOM_DRAWS] = { "random_draws", .unit = "", .shape = ONE, .type = U64,
		.help = "selections that drew a random number (the weighted pick)", AT(64, 0, 0, 0, 13, 0),
		.get = get_field, .off = OFF(random_draws) },
	[IS_M_IDLE_NS] = { "idle_ns", .unit = "ns", .shape = ONE, .type = I64,
		.help = "time in idle periods", AT(71, 0, 0, 0, 14, 0), .get = get_field, .off = OFF(idle_ns) },
	[IS_M_ENERGY] = { "energy_active_ns", .unit = "active-ns", .shape = ONE, .type = F, .decimals = 1,
		.help = "the power model's energy (docs/states.md)", AT(72, 0, 7, 4, 0, 1),
		TEXT("energy", 12, 3, 1e6, ""), .get = get_field, .off = OFF(energy) },
	[IS_M_AVG_IDLE_POWER] = { "avg_idle_power", .unit = "", .shape = ONE, .type = F, .decimals = 6,
		.help = "energy per idle ns", AT(73, 0, 0, 0, 0, 0), .get = get_avg_idle_power },
	[IS_M_ENERGY_NORM] = { "energy_norm", .json = "energy", .unit = "%", .shape = ONE, .type = F,
		.decimals = 2, .help = "energy, baseline = 100", AT(0, 1, 8, 5, 0, 0),
		TEXT("energy%", 8, 2, 0, ""), .get = get_energy_norm },
	[IS_M_LAT_COUNT] = { "lat_count", .json = "count", .group = "wakeup_latency", .unit = "",
		.shape = ONE, .type = U64, .help = "irq and IPI wakeups (they pay the exit latency)",
		AT(81, 0, 0, 0, 0, 0), .get = get_lat },
	[IS_M_LAT_MEAN] = { "lat_mean_ns", .json = "mean_ns", .group = "wakeup_latency", .unit = "ns",
		.shape = ONE, .type = F, .decimals = 2, .help = "mean exit latency paid",
		AT(82, 0, 9, 6, 7, 0), TEXT("lat_mean", 10, 1, 0, "ns"), .get = get_lat },
	[IS_M_LAT_P50] = { "lat_p50_ns", .json = "p50_ns", .group = "wakeup_latency", .unit = "ns",
		.shape = ONE, .type = I64, .help = "median exit latency paid",
		AT(83, 0, 10, 0, 8, 0), .get = get_lat },
	[IS_M_LAT_P99] = { "lat_p99_ns", .json = "p99_ns", .group = "wakeup_latency", .unit = "ns",
		.shape = ONE, .type = I64, .help = "99th percentile of the exit latency paid",
		AT(84, 0, 11, 7, 0, 2), TEXT("lat_p99", 10, 0, 0, "ns"), .get = get_lat },
	[IS_M_LAT_MAX] = { "lat_max_ns", .json = "max_ns", .group = "wakeup_latency", .unit = "ns",
		.shape = ONE, .type = I64, .help = "largest exit latency paid",
		AT(85, 0, 0, 0, 9, 0), .get = get_lat },
	[IS_M_LAT_MEAN_NORM] = { "lat_mean_norm", .json = "latency_mean", .unit = "%", .shape = ONE,
		.type = F, .decimals = 2, .help = "lat_mean_ns, baseline = 100", AT(0, 2, 0, 0, 0, 0),
		.get = get_lat_norm },
	[IS_M_LAT_P99_NORM] = { "lat_p99_norm", .json = "latency_p99", .unit = "%", .shape = ONE,
		.type = F, .decimals = 2, .help = "lat_p99_ns, baseline = 100", AT(0, 3, 0, 8, 0, 0),
		TEXT("lat_p99%", 8, 2, 0, ""), .get = get_lat_norm },
	[IS_M_TICK_STOPPED_PCT] = { "tick_stopped_pct", .unit = "%", .shape = ONE, .type = F,
		.decimals = 1, .help = "selections that left the tick stopped", AT(0, 0, 21, 9, 0, 0),
		TEXT("tick_off", 8, 1, 0, "%"), .get = get_share, .off = OFF(tick_stops) },
	[IS_M_SHALLOW_PCT] = { "shallow_pct", .unit = "%", .shape = ONE, .type = F, .decimals = 4,
		.help = "entries of states with a target residency up to 100 us (the RFC's "
			"\"stop2 and shallower\" on power9)", AT(0, 0, 0, 0, 0, 4), .get = get_shallow_pct },
	[IS_M_RANDOM_DRAWS_PCT] = { "random_draws_pct", .unit = "%", .shape = ONE, .type = F,
		.decimals = 4, .help = "random_draws in % of selections", AT(0, 0, 0, 0, 0, 5),
		.get = get_share, .off = OFF(random_draws) },
	[IS_M_REJECTED] = { "rejected", .unit = "", .shape = STATE, .type = U64,
		.help = "selections of the state that did not enter it: the recording's rej=1 in "
			"exact mode (call_cpuidle() found need_resched, or the driver refused; "
			"the kernel's sysfs `rejected` counts only the latter); the model never "
			"refuses", AT(46, 0, 20, 0, 20, 0), .get = get_field, .off = OFF(rejected) },
	[IS_M_TICK_ASSUMED] = { "tick_assumed", .unit = "", .shape = ONE, .type = U64,
		.help = "selections whose stop-tick decision is assumed (the recorded governor "
			"on a capture that does not record it: it stops the tick)",
		AT(65, 0, 0, 0, 0, 0), .get = get_field, .off = OFF(tick_assumed) },
};

#undef OFF
#undef ONE
#undef STATE
#undef DEPTH
#undef CAUSE
#undef U64
#undef I64
#undef F
#undef AT
#undef TEXT

void is_metric_ctx_init(struct is_metric_ctx *c, const struct is_metrics *m,
			const struct is_state_table *t, const struct is_metrics *base)
{
	c->m = m;
	c->t = t;
	c->base = base ? base : m;
	c->total_time_ns = 0;
	for (int i = 0; i < t->count; i++)
		c->total_time_ns += m->time_ns[i];
	is_metrics_latency(m, t, &c->lat);
	if (c->base == m)
		c->base_lat = c->lat;
	else
		is_metrics_latency(c->base, t, &c->base_lat);
}

int is_metric_count(const struct is_metric *d, const struct is_state_table *t)
{
	switch (d->shape) {
	case IS_MSHAPE_STATE:
		return t->count;
	case IS_MSHAPE_DEPTH:
		return t->count - 1;
	case IS_MSHAPE_CAUSE:
		return IS_CAUSE_COUNT;
	default:
		return 1;
	}
}

/* DEPTH rows are read at k = 1 .. count - 1: value number @n is k = n + 1. */
static void value_at(const struct is_metric *d, const struct is_metric_ctx *c, int n,
		     struct is_metric_value *v)
{
	d->get(d, c, d->shape == IS_MSHAPE_DEPTH ? n + 1 : n, v);
}

void is_metric_get(const struct is_metric_ctx *c, enum is_metric_id id, int i,
		   struct is_metric_value *v)
{
	const struct is_metric *d = &is_metric_table[id];

	d->get(d, c, i, v);
}

double is_metric_double(const struct is_metric_ctx *c, enum is_metric_id id, int i)
{
	struct is_metric_value v;

	is_metric_get(c, id, i, &v);
	switch (v.type) {
	case IS_MTYPE_U64:
		return (double)v.u;
	case IS_MTYPE_I64:
		return (double)v.i;
	default:
		return v.f;
	}
}

void is_metric_append(GString *s, const struct is_metric *d, const struct is_metric_value *v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE], fmt[8];

	switch (v->type) {
	case IS_MTYPE_U64:
		g_string_append_printf(s, "%" G_GUINT64_FORMAT, v->u);
		break;
	case IS_MTYPE_I64:
		g_string_append_printf(s, "%" G_GINT64_FORMAT, v->i);
		break;
	case IS_MTYPE_F:
		g_snprintf(fmt, sizeof(fmt), "%%.%df", d->decimals);
		g_string_append(s, g_ascii_formatd(buf, sizeof(buf), fmt, v->f));
		break;
	}
}

int is_metric_layout(enum is_mwriter w, enum is_metric_id *ids)
{
	int n = 0;

	/* by position; the table is short and the positions distinct */
	for (int pos = 1; pos < 256; pos++)
		for (int i = 0; i < IS_M_COUNT; i++)
			if (is_metric_table[i].at[w] == pos)
				ids[n++] = (enum is_metric_id)i;
	return n;
}

static void csv_name(GString *s, const struct is_metric *d, const struct is_state_table *t,
		     int n, bool state_names)
{
	g_string_append_c(s, ',');
	if (d->shape == IS_MSHAPE_DEPTH)
		g_string_append_printf(s, d->csv, n + 1);
	else if (d->shape == IS_MSHAPE_STATE && state_names)
		g_string_append_printf(s, "%s_%s", d->key, t->s[n].name);
	else if (d->shape == IS_MSHAPE_STATE)
		g_string_append_printf(s, "%s_s%d", d->key, n);
	else
		g_string_append(s, d->key);
}

/*
 * Walks @w's rows for CSV: each value of a row in turn, except that a run
 * of per-state rows at consecutive places goes state by state
 * (usage_s0,time_ns_s0,usage_s1,...).
 * @c NULL: the names.
 */
static void csv_walk(GString *s, enum is_mwriter w, const struct is_state_table *t,
		     const struct is_metric_ctx *c, bool state_names)
{
	enum is_metric_id ids[IS_M_COUNT];
	int n = is_metric_layout(w, ids);

	for (int r = 0; r < n; r++) {
		const struct is_metric *d = &is_metric_table[ids[r]];
		int end = r + 1;

		if (d->shape == IS_MSHAPE_STATE)
			while (end < n && is_metric_table[ids[end]].shape == IS_MSHAPE_STATE &&
			       is_metric_table[ids[end]].at[w] == is_metric_table[ids[end - 1]].at[w] + 1)
				end++;
		for (int k = 0; k < (d->shape == IS_MSHAPE_STATE ? t->count : is_metric_count(d, t));
		     k++)
			for (int q = r; q < end; q++) {
				const struct is_metric *e = &is_metric_table[ids[q]];
				struct is_metric_value v;

				if (!c) {
					csv_name(s, e, t, k, state_names);
					continue;
				}
				value_at(e, c, k, &v);
				g_string_append_c(s, ',');
				is_metric_append(s, e, &v);
			}
		r = end - 1;
	}
}

void is_metric_csv_header(GString *s, enum is_mwriter w, const struct is_state_table *t,
			  bool state_names)
{
	csv_walk(s, w, t, NULL, state_names);
}

void is_metric_csv_row(GString *s, enum is_mwriter w, const struct is_metric_ctx *c)
{
	csv_walk(s, w, c->t, c, false);
}

static const char *json_key(const struct is_metric *d, enum is_mwriter w)
{
	return w != IS_MW_SWEEP && d->json ? d->json : d->key;
}

/* "key": v, or "key": [v, v], or "key": {"cause": v, ...} */
static void json_member(GString *s, const struct is_metric *d, const struct is_metric_ctx *c,
			enum is_mwriter w)
{
	int n = is_metric_count(d, c->t);
	struct is_metric_value v;

	g_string_append_printf(s, "\"%s\": ", json_key(d, w));
	if (d->shape == IS_MSHAPE_ONE) {
		value_at(d, c, 0, &v);
		is_metric_append(s, d, &v);
		return;
	}
	g_string_append_c(s, d->shape == IS_MSHAPE_CAUSE ? '{' : '[');
	for (int k = 0; k < n; k++) {
		if (k)
			g_string_append(s, ", ");
		if (d->shape == IS_MSHAPE_CAUSE)
			g_string_append_printf(s, "\"%s\": ", is_cause_name((enum is_cause)k));
		value_at(d, c, k, &v);
		is_metric_append(s, d, &v);
	}
	g_string_append_c(s, d->shape == IS_MSHAPE_CAUSE ? '}' : ']');
}

void is_metric_json_flat(GString *s, enum is_mwriter w, const struct is_metric_ctx *c)
{
	enum is_metric_id ids[IS_M_COUNT];
	int n = is_metric_layout(w, ids);

	for (int r = 0; r < n; r++) {
		if (r)
			g_string_append(s, ", ");
		json_member(s, &is_metric_table[ids[r]], c, w);
	}
}

void is_json_string(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			g_string_append_printf(out, "\\%c", ch);
		else if (ch < 0x20)
			g_string_append_printf(out, "\\u%04x", ch);
		else
			g_string_append_c(out, (char)ch);
	}
	g_string_append_c(out, '"');
}

/* The "states" line: one object per state with every per-state row of the line. */
static void json_states(GString *s, const enum is_metric_id *ids, int n,
			const struct is_metric_ctx *c, const char *ind)
{
	g_string_append(s, "\"states\": [");
	for (int i = 0; i < c->t->count; i++) {
		g_string_append_printf(s, "%s\n%s    {\"name\": ", i ? "," : "", ind);
		is_json_string(s, c->t->s[i].name);
		for (int r = 0; r < n; r++) {
			const struct is_metric *d = &is_metric_table[ids[r]];
			struct is_metric_value v;

			g_string_append_printf(s, ", \"%s\": ", json_key(d, IS_MW_JSON));
			value_at(d, c, i, &v);
			is_metric_append(s, d, &v);
		}
		g_string_append_c(s, '}');
	}
	g_string_append_printf(s, "\n%s  ]", ind);
}

void is_metric_json_object(GString *s, const struct is_metric_ctx *c, const char *ind)
{
	enum is_metric_id ids[IS_M_COUNT];
	int n = is_metric_layout(IS_MW_JSON, ids);

	g_string_append(s, "{\n");
	for (int r = 0; r < n;) {
		int line = is_metric_table[ids[r]].at[IS_MW_JSON] / 10, end = r;
		const char *group = NULL;

		while (end < n && is_metric_table[ids[end]].at[IS_MW_JSON] / 10 == line)
			end++;
		g_string_append_printf(s, "%s%s  ", r ? ",\n" : "", ind);
		if (is_metric_table[ids[r]].shape == IS_MSHAPE_STATE) {
			json_states(s, ids + r, end - r, c, ind);
			r = end;
			continue;
		}
		for (int q = r; q < end; q++) {
			const struct is_metric *d = &is_metric_table[ids[q]];

			if (group && (!d->group || strcmp(group, d->group) != 0)) {
				g_string_append_c(s, '}');
				group = NULL;
			}
			if (q > r)
				g_string_append(s, ", ");
			if (d->group && !group) {
				group = d->group;
				g_string_append_printf(s, "\"%s\": {", group);
			}
			json_member(s, d, c, IS_MW_JSON);
		}
		if (group)
			g_string_append_c(s, '}');
		r = end;
	}
	g_string_append_printf(s, "\n%s}", ind);
}
