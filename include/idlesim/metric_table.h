/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The metric table: every figure idlesim writes about a simulation, once,
 * with its name, unit, shape and how to read it from struct is_metrics.
 * Every writer (run's JSON, CSV and table, sweep rows, rfc's CSV and
 * figures) walks this table; a new metric is its computation (in
 * struct is_metrics) and one row here (src/metrics/table.c).
 *
 * The names are the stable JSON keys and CSV columns of docs/metrics.md:
 * a row may be added, never renamed.  A row's place in each writer is
 * its at[] position there (0: not written there), so a new row can be
 * put anywhere without moving the others; new rows go last.
 */
#ifndef IDLESIM_METRIC_TABLE_H
#define IDLESIM_METRIC_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include "idlesim/metrics.h"
#include "idlesim/states.h"

enum is_mshape {
	IS_MSHAPE_ONE,        /* one value */
	IS_MSHAPE_STATE,      /* one per state, index 0 .. count - 1 */
	IS_MSHAPE_DEPTH,      /* one per depth k = 1 .. count - 1 (US k / OS k) */
	IS_MSHAPE_CAUSE,      /* one per wakeup cause (enum is_cause) */
};

enum is_mtype { IS_MTYPE_U64, IS_MTYPE_I64, IS_MTYPE_F };

enum is_mwriter {
	IS_MW_JSON,        /* run -f json: "total" and "per_cpu" objects; at = 10 * line + place */
	IS_MW_JSON_NORM,   /* run -f json: a governor's "normalized" object */
	IS_MW_CSV,         /* run -f csv */
	IS_MW_TEXT,        /* run's table: the summary block */
	IS_MW_SWEEP,       /* sweep rows (CSV and JSON Lines), after the row's identity */
	IS_MW_RFC,         /* rfc --csv, after the run's identity */
	IS_MW_COUNT
};

/* What the table reads one metric from. */
struct is_metric_ctx {
	const struct is_metrics *m;
	const struct is_state_table *t;
	struct is_latency_summary lat;
	int64_t total_time_ns;              /* sum of time_ns over the states */
	const struct is_metrics *base;      /* normalised rows: the baseline (NULL: m) */
	struct is_latency_summary base_lat;
};

struct is_metric_value {
	enum is_mtype type;
	union {
		uint64_t u;
		int64_t i;
		double f;
	};
};

/* How the run's table shows a row: "%*s" of value / div, then a suffix. */
struct is_metric_text {
	const char *label;
	int width;                 /* of the column, suffix included */
	int decimals;              /* of a double */
	double div;                /* 0: 1 */
	const char *suffix;
};

struct is_metric {
	const char *key;           /* CSV column (stem) and JSON key */
	const char *json;          /* run's JSON key when it differs, else NULL */
	const char *group;         /* run's JSON: the object the row sits in, or NULL */
	const char *csv;           /* a DEPTH row's CSV column, "%d" for k, else NULL */
	const char *unit;          /* "", "ns", "%", "active-ns", ... */
	const char *help;
	enum is_mshape shape;
	enum is_mtype type;
	int decimals;              /* of a double, in JSON and CSV */
	uint8_t at[IS_MW_COUNT];
	struct is_metric_text text;
	/* Value @i (0 for IS_MSHAPE_ONE) of the metric. */
	void (*get)(const struct is_metric *d, const struct is_metric_ctx *c, int i,
		    struct is_metric_value *v);
	size_t off;                /* for the plain readers: the field in struct is_metrics */
};

/* Ids of the rows other code reads by name (the rfc's figures, sweeps). */
enum is_metric_id {
	IS_M_SELECTIONS,
	IS_M_CORRECT_PCT,
	IS_M_US_PCT,
	IS_M_OS_PCT,
	IS_M_CORRECT,
	IS_M_US,
	IS_M_OS,
	IS_M_ABOVE,
	IS_M_BELOW,
	IS_M_USAGE,
	IS_M_TIME_NS,
	IS_M_RESIDENCY_PCT,
	IS_M_STATE_ABOVE,
	IS_M_STATE_BELOW,
	IS_M_WAKEUPS,
	IS_M_TICK_STOP_REQUESTS,
	IS_M_TICK_STOPPED,
	IS_M_SLEEP_LENGTH_READS,
	IS_M_RANDOM_DRAWS,
	IS_M_IDLE_NS,
	IS_M_ENERGY,
	IS_M_AVG_IDLE_POWER,
	IS_M_ENERGY_NORM,
	IS_M_LAT_COUNT,
	IS_M_LAT_MEAN,
	IS_M_LAT_P50,
	IS_M_LAT_P99,
	IS_M_LAT_MAX,
	IS_M_LAT_MEAN_NORM,
	IS_M_LAT_P99_NORM,
	IS_M_TICK_STOPPED_PCT,
	IS_M_SHALLOW_PCT,
	IS_M_RANDOM_DRAWS_PCT,
	IS_M_REJECTED,
	IS_M_TICK_ASSUMED,
	IS_M_COUNT
};

/* The table, indexed by enum is_metric_id. */
extern const struct is_metric is_metric_table[IS_M_COUNT];

/* @base: the baseline of the normalised rows (NULL: @m itself). */
void is_metric_ctx_init(struct is_metric_ctx *c, const struct is_metrics *m,
			const struct is_state_table *t, const struct is_metrics *base);
/* Number of values of a row on @t. */
int is_metric_count(const struct is_metric *d, const struct is_state_table *t);
void is_metric_get(const struct is_metric_ctx *c, enum is_metric_id id, int i,
		   struct is_metric_value *v);
/* A value as a double (for means over seeds and the like). */
double is_metric_double(const struct is_metric_ctx *c, enum is_metric_id id, int i);
/* Appends a value as the JSON and CSV writers print it (locale-independent). */
void is_metric_append(GString *s, const struct is_metric *d, const struct is_metric_value *v);
/*
 * The rows of writer @w in their order: fills @ids (IS_M_COUNT long),
 * returns their number.
 */
int is_metric_layout(enum is_mwriter w, enum is_metric_id *ids);
/*
 * Appends the CSV column names of @w's rows (",name" each), per-state rows
 * at consecutive places interleaved state by state; @state_names: named
 * after the states ("usage_snooze", run's CSV), else by index
 * ("usage_s0", sweep rows).
 */
void is_metric_csv_header(GString *s, enum is_mwriter w, const struct is_state_table *t,
			  bool state_names);
/* The matching values, ",v" each. */
void is_metric_csv_row(GString *s, enum is_mwriter w, const struct is_metric_ctx *c);
/* @w's rows as JSON members, ", "-separated ("key": v, "arr": [v, v]). */
void is_metric_json_flat(GString *s, enum is_mwriter w, const struct is_metric_ctx *c);
/*
 * run's JSON metrics object, "{" to "}", lines indented by @ind: lines by
 * at[IS_MW_JSON] / 10, per-state rows in a "states" array of objects.
 */
void is_metric_json_object(GString *s, const struct is_metric_ctx *c, const char *ind);

/* Appends @s as a JSON string literal (quoted, escaped). */
void is_json_string(GString *out, const char *s);

#endif
