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
	/* Polled between jobs: nonzero stops dispatch (in-flight jobs finish). */
	const volatile int *cancel;
	is_sweep_done_fn done;
	void *ctx;
};

/* Seed a job uses on trace @t. */
uint64_t is_sweep_job_seed(int64_t seed, const struct is_sweep_trace *t);
/* Runs the jobs; false with the first error (a job's or done()'s). */
bool is_sweep_execute(const struct is_sweep_exec *x, GError **error);

#endif
