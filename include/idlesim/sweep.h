/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Parameter sweeps: a space of governor params (grids, lists or seeded
 * random samples), crossed with traces, run as independent jobs on a pool
 * of threads sharing one read-only copy of each trace.
 *
 * Job numbering is the contract that makes sweeps deterministic, resumable
 * and shardable: job j is point j / ntraces on trace j % ntraces; point i
 * of a grid is the mixed-radix number i with the last axis varying
 * fastest; point i of a random sample is drawn from its own stream seeded
 * by (random_seed, i), so any job can be computed alone, in any order, on
 * any machine.  Shard k of n (1-based) owns the jobs j with j % n == k - 1.
 */
#ifndef IDLESIM_SWEEP_H
#define IDLESIM_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include "idlesim/governor.h"
#include "idlesim/metrics.h"
#include "idlesim/sim.h"
#include "idlesim/states.h"
#include "idlesim/synth.h"
#include "idlesim/trace.h"

struct is_sweep_axis {
	int param;            /* index into the governor's params */
	int n;
	int64_t *values;      /* owned */
};

struct is_sweep_space {
	const struct is_governor *gov;
	struct is_params base;        /* defaults, then fixed --param values */
	int naxes;
	struct is_sweep_axis axes[IS_PARAM_MAX];
	uint64_t random_n;            /* 0: the whole grid */
	uint64_t random_seed;
};

void is_sweep_space_init(struct is_sweep_space *s, const struct is_governor *g);
void is_sweep_space_clear(struct is_sweep_space *s);
/*
 * Add an axis "key=a:b:step" (a, a+step, ... up to b), "key=v1,v2,..." or
 * "key=v".  Every value is checked against the param's range.  Errors
 * (IS_ERROR_INVALID) name the param: unknown, given twice, empty, inverted
 * range, step <= 0, value out of range.
 */
bool is_sweep_space_add_axis(struct is_sweep_space *s, const char *spec, GError **error);
/* Number of points; fails when the grid's size overflows 64 bits. */
bool is_sweep_space_size(const struct is_sweep_space *s, uint64_t *n, GError **error);
/* The params of point @i (i < size). */
void is_sweep_space_point(const struct is_sweep_space *s, uint64_t i, struct is_params *out);

/*
 * Points the governor cannot tell apart on table @drv (its canon_param()):
 * for each axis value in order, the index of the first value of the same
 * axis in its class.  NULL where no two points of the grid are alike (no
 * canon_param(), a random sample, every value its own class); free with
 * g_free().  is_sweep_space_rep(): the point that stands for point @i,
 * every axis value replaced by its class's first; at most @i.
 */
int *is_sweep_space_reps(const struct is_sweep_space *s, const struct is_state_table *drv);
uint64_t is_sweep_space_rep(const struct is_sweep_space *s, const int *reps, uint64_t i);

/* "k/n" with 1 <= k <= n. */
bool is_sweep_shard_parse(const char *spec, uint32_t *k, uint32_t *n, GError **error);
static inline bool is_sweep_in_shard(uint64_t job, uint32_t k, uint32_t n)
{
	return job % n == k - 1;
}

/*
 * A source of idle periods for the jobs: a trace read once into memory,
 * shared read-only by every worker, or a synthetic scenario that each job
 * runs closed-loop from the same seed.
 */
struct is_sweep_trace {
	char *path;                   /* the file, or "workload:NAME seed=S" */
	char sha256[65];              /* of the file's bytes, or of the scenario's description */
	struct is_trace_header hdr;
	struct is_state_table *table;
	uint32_t disabled;
	struct is_record *recs;
	size_t n;
	bool state_recs;              /* a record changes a disable mask */
	bool synthetic;
	struct is_synth_config syn;
	uint64_t periods;             /* synthetic: stop after this many ... */
	int64_t until_ns;             /* ... or at this time (0: no bound) */
};

/* @states: NULL for the trace's own table, else NAME|FILE|DIR. */
struct is_sweep_trace *is_sweep_trace_load(const char *path, const char *states,
					   GError **error);
/* A scenario as a source; @periods or @until_ns bounds each run. */
struct is_sweep_trace *is_sweep_workload_new(const struct is_synth_config *cfg,
					     uint64_t periods, int64_t until_ns,
					     const char *states, GError **error);
void is_sweep_trace_free(struct is_sweep_trace *t);

/* One job's simulation; @out untouched on failure. */
bool is_sweep_run_one(const struct is_sweep_trace *t, const struct is_governor *g,
		      const struct is_params *p, enum is_sim_mode mode, uint64_t seed,
		      struct is_metrics *out, GError **error);

/*
 * Called once per finished job, never concurrently (under the pool's
 * lock), in completion order.  Returning false stops the pool.
 */
typedef bool (*is_sweep_done_fn)(void *ctx, uint64_t job, const struct is_params *p,
				 const struct is_sweep_trace *t, uint64_t seed,
				 const struct is_metrics *m, GError **error);

struct is_sweep_exec {
	const struct is_sweep_space *space;
	struct is_sweep_trace *const *traces;
	int ntraces;
	enum is_sim_mode mode;
	int64_t seed;                 /* governors' streams; < 0: the trace's, else 1 */
	const uint64_t *jobs;         /* the jobs to run, in dispatch order */
	uint64_t njobs;
	int threads;
	/*
	 * One simulation per point, never lanes (is_sim_lanes_new()): the
	 * same bytes, the time before lanes, for benchmarks and tests.
	 */
	bool scalar;
	/*
	 * Simulate every point, also those that stand in a class of another
	 * (is_sweep_space_reps()): the same bytes, for benchmarks and tests.
	 */
	bool every_point;
	/* Polled between jobs: nonzero stops dispatch (in-flight jobs finish). */
	const volatile int *cancel;
	is_sweep_done_fn done;
	void *ctx;
};

/* Seed a job uses on trace @t. */
uint64_t is_sweep_job_seed(int64_t seed, const struct is_sweep_trace *t);
/* Runs the jobs; false with the first error (a job's or done()'s). */
bool is_sweep_execute(const struct is_sweep_exec *x, GError **error);

/* ---- the output protocol (rows.c, journal.c, summary.c) ----------------
 *
 * Finished rows go, as they finish, to a journal OUT.partial, one whole
 * line per write(2), so that an interrupt loses no finished job and a
 * resumed run appends only the missing ones (a torn last line is
 * dropped).  When every job of the shard is in the journal, the rows are
 * written in job order to a temporary file that is renamed to OUT: OUT
 * exists only when complete, and its bytes do not depend on the thread
 * count or scheduling.  A shard's OUT holds its own rows in job order with
 * the same columns, so merging is an ordered interleave.
 *
 * Every row starts with the sweep's identity (a hash of everything that
 * determines the rows: governor, fixed params, axes, sample, sources'
 * SHA-256, state tables, mode, seed, objective, format), its job number
 * and the job count: how resume and merge refuse foreign or mixed files.
 * The metrics after the row's identity are the metric table's IS_MW_SWEEP
 * rows (idlesim/metric_table.h).
 */
enum is_sweep_format { IS_SWEEP_CSV, IS_SWEEP_JSONL };

/* --objective: a weighted sum of terms, all minimised. */
enum { IS_OBJ_ENERGY, IS_OBJ_P99, IS_OBJ_ACCURACY, IS_OBJ_ABOVE_BELOW, IS_OBJ_COUNT };
extern const char *const is_sweep_objective_names[IS_OBJ_COUNT];

struct is_sweep_objective {
	double w[IS_OBJ_COUNT];
};

/* "energy", "p99", ... or a weighted sum "energy=1,p99=1000". */
bool is_sweep_objective_parse(const char *spec, struct is_sweep_objective *o, GError **error);
double is_sweep_objective_value(const struct is_sweep_objective *o, const struct is_metrics *m,
				const struct is_state_table *t);

/* A sweep as its rows see it. */
struct is_sweep_def {
	const struct is_sweep_space *space;
	struct is_sweep_trace *const *traces;
	int ntraces;
	enum is_sweep_format format;
	struct is_sweep_objective obj;
	enum is_sim_mode mode;
	int64_t seed;
	uint64_t points, jobs;        /* set by is_sweep_def_init() */
	char id[17];                  /* the identity, 16 hex digits */
};

/*
 * Counts points and jobs and computes the identity; fails when the space
 * or the job count overflows, or when the sources' tables differ in their
 * state count (the per-state columns need one).
 */
bool is_sweep_def_init(struct is_sweep_def *d, GError **error);
/* The CSV header line ("\n"-terminated), NULL for JSON Lines. */
char *is_sweep_header(const struct is_sweep_def *d);
/* Job @job's row, "\n"-terminated, into @s (replaced). */
void is_sweep_row(const struct is_sweep_def *d, GString *s, uint64_t job,
		  const struct is_params *p, const struct is_sweep_trace *t, uint64_t seed,
		  const struct is_metrics *m);

/* The leading fields every row has, read back. */
struct is_sweep_row_key {
	char sweep[17];
	uint64_t job, jobs, point;
	double objective, energy, p99;
};
bool is_sweep_row_parse(const char *line, enum is_sweep_format f, struct is_sweep_row_key *k);
/* A file's format from its first line. */
enum is_sweep_format is_sweep_format_of_line(const char *line);
/* The value of @param at a point, as rows and summaries print it. */
const char *is_sweep_param_value(const struct is_param_desc *d, int64_t v);

/* Per point: sums over the point's rows (mean = sum / n). */
struct is_sweep_agg {
	double objective, energy, p99;
	uint32_t n;
};

/*
 * The journal of one shard of a sweep.  Errors name the file and line.
 */
struct is_sweep_journal {
	const struct is_sweep_def *def;
	uint32_t shard_k, shard_n;
	char *out, *path;             /* OUT and OUT.partial */
	char *header;                 /* NULL for JSON Lines */
	int fd;
	uint8_t *done;                /* bitmap over the jobs */
	uint64_t ndone;               /* of this shard, before this run */
};

enum is_sweep_open {
	IS_SWEEP_FAILED,              /* *error set */
	IS_SWEEP_OPENED,              /* a new journal, or one resumed */
	IS_SWEEP_COMPLETE,            /* --resume of a sweep whose OUT is complete */
};

/*
 * Opens OUT.partial: a new one, or with @resume an interrupted run's
 * (whose rows must be this sweep's and shard's; a torn last line is
 * cut).  An existing journal without @resume is an error, as is --resume
 * of an OUT from another sweep.
 */
enum is_sweep_open is_sweep_journal_open(struct is_sweep_journal *j, const struct is_sweep_def *d,
					 uint32_t shard_k, uint32_t shard_n, const char *out,
					 bool resume, GError **error);
/* Number of this shard's jobs, and the ones not done yet into @todo. */
uint64_t is_sweep_journal_todo(const struct is_sweep_journal *j, uint64_t *todo);
uint64_t is_sweep_shard_jobs(uint64_t jobs, uint32_t k, uint32_t n);
/* Appends one finished row (one write(2)). */
bool is_sweep_journal_append(struct is_sweep_journal *j, uint64_t job, const char *row,
			     size_t len, GError **error);
/* Closes the journal (it stays for --resume). */
bool is_sweep_journal_close(struct is_sweep_journal *j, GError **error);
/*
 * When every job is in the journal: writes OUT in job order (complete or
 * not at all), removes the journal and sums the rows per point into @agg
 * (def->points long, zeroed by the caller).
 */
bool is_sweep_journal_finalize(struct is_sweep_journal *j, struct is_sweep_agg *agg,
			       GError **error);
void is_sweep_journal_clear(struct is_sweep_journal *j);

/*
 * Joins shard files into @out (complete or not at all): same format and
 * columns, one sweep, every job exactly once, rows in order.
 */
bool is_sweep_merge(const char *const *paths, int n, const char *out, GError **error);

/*
 * The summary: @idx gets the points that have rows, best objective first
 * (ties: lower point); returns their number.  @front gets the energy-vs-p99
 * Pareto front (by energy, each point with a p99 below every cheaper
 * one's); returns its size through @nfront.
 */
uint64_t is_sweep_best(const struct is_sweep_agg *g, uint64_t points, uint64_t *idx);
uint64_t is_sweep_pareto(const struct is_sweep_agg *g, uint64_t points, uint64_t *front);
/* "name=value ..." of a point's axes, "(defaults)" without axes. */
void is_sweep_point_label(const struct is_sweep_space *sp, uint64_t point, GString *s);

#endif
