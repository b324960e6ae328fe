/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The experiments of the 2020 weighted-TEO RFC's cover letter, rerun on
 * the model (idlesim rfc): the workload rows, the governors compared, the
 * runner and the statistics over seeds.  The report is the CLI's.
 *
 *  1. History length: teo-5.7 with INTERVALS 8..128 on schbench threads
 *     2/4/8/16: p99 wakeup latency and energy normalised to 8 = 100, and
 *     the share of shallow selections (stop2 and shallower).
 *  2. teo-5.7 vs wteo-rfc on schbench, ebizzy-sleep (the cover letter's
 *     three parameter rows), pgbench (4..32 clients) and hackbench (loops,
 *     socket and pipe): accuracy distributions and energy and p99
 *     normalised to TEO = 100.  Schbench also with CPU 0 as the message
 *     thread (waker=cpu0), which the cover letter does not have.
 *  3. teo-6.12 vs wteo vs menu-6.12 vs oracle on the same rows.
 *  4. wteo with the RFC's own choices on the same rows: candidates only
 *     up to TEO's shallower choice (range=chosen), and that with the pick
 *     triggered against the sleep-length candidate (trigger=timer) or
 *     leaving polling states out (poll=avoid), beside experiment 3's
 *     teo-6.12 and wteo runs.
 */
#ifndef IDLESIM_RFC_H
#define IDLESIM_RFC_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include "idlesim/metric_table.h"
#include "idlesim/metrics.h"
#include "idlesim/states.h"

struct is_rfc_row {
	const char *label;
	const char *workload;
	const char *wparams;          /* "k=v,k=v" */
};

struct is_rfc_group {
	const char *title, *rowname;
	const struct is_rfc_row *rows;
	int n;
	const char *note;             /* printed under the title, if any */
};

/* Schbench, Schbench waker=cpu0, Sleeping Ebizzy, Pgbench, Hackbench. */
extern const struct is_rfc_group is_rfc_groups[];
extern const int is_rfc_ngroups;

/* Experiment 1's axis: teo-5.7's INTERVALS. */
extern const int is_rfc_intervals[5];
/* Experiment 3's governors (teo-6.12 first: the baseline). */
extern const char *const is_rfc_gov612[4];
/* Experiment 4: wteo's variants, as params and as labels. */
extern const char *const is_rfc_variant_params[3];
extern const char *const is_rfc_variant_names[3];
/* Experiment 4's title and what its variants are (markdown). */
extern const char is_rfc_variants_title[];
extern const char is_rfc_variants_text[];

struct is_rfc_config {
	int seeds;                    /* seeds 1 .. seeds per cell */
	int threads;
	int cpus;
	uint64_t periods;             /* idle periods per run */
	const struct is_state_table *table;
};

/* One run's metrics and its table (the config's). */
struct is_rfc_run {
	struct is_metrics m;
	const struct is_state_table *t;
};

/*
 * Runs governor @gov (fixed params @gparams "k=v,..." or NULL, and with
 * @axis one point per axis value) closed-loop on @row for every seed:
 * out[point * seeds + seed - 1], @npoints points.  @out holds 8 * seeds.
 */
bool is_rfc_run_row(const struct is_rfc_config *c, const struct is_rfc_row *row, const char *gov,
		    const char *gparams, const char *axis, struct is_rfc_run *out, int *npoints,
		    GError **error);
/* The params of point @point of such a run, formatted as is_params_format(). */
char *is_rfc_point_params(const char *gov, const char *gparams, const char *axis, int point);

/* The raw figures' CSV: the header line and run @run's line (no newline). */
void is_rfc_csv_header(GString *s, const struct is_state_table *t);
void is_rfc_csv_row(GString *s, const char *experiment, const char *label,
		    const struct is_rfc_row *row, const char *gov, const char *params, int seed,
		    const struct is_rfc_run *run);

/* Mean over @n runs of metric @id (value @i), and its sample sd if @sd. */
double is_rfc_mean(const struct is_rfc_run *x, int n, enum is_metric_id id, int i, double *sd);
/* Mean over @n seeds of 100 * x / base of metric @id, and its sd. */
double is_rfc_norm(const struct is_rfc_run *x, const struct is_rfc_run *base, int n,
		   enum is_metric_id id, double *sd);
/* Metric @id (value @i) of @n runs, as doubles. */
void is_rfc_values(const struct is_rfc_run *r, int n, enum is_metric_id id, int i, double *out);
/* Mean and sample standard deviation. */
void is_rfc_mean_sd(const double *a, int n, double *mean, double *sd);
/* Mean and sd over seeds of 100 * a[s] / b[s] (common random numbers). */
void is_rfc_ratio(const double *a, const double *b, int n, double *mean, double *sd);

#endif
