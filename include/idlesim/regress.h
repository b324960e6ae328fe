/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A regression check for governor patches (`idlesim regress OLD NEW`,
 * docs/regress.md): two governors over a corpus of cases, each run on
 * several seeds, compared metric by metric against the spread the seeds
 * themselves give, and searched for pathologies (lock-in, polling loop,
 * tick kept on an idle CPU, latency-limit violations).  Nothing here
 * prints.
 */
#ifndef IDLESIM_REGRESS_H
#define IDLESIM_REGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include "idlesim/governor.h"
#include "idlesim/metrics.h"
#include "idlesim/states.h"

/* One case of the corpus (a group of its key file). */
struct is_regress_case {
	char *name;
	char *catches;             /* what it is there to catch */
	char *workload;            /* a scenario or "rt-app:FILE" (absolute), or NULL ... */
	char *trace;               /* ... a trace (absolute path), replayed in model mode */
	char **wparams;            /* scenario params, key=value */
	char *states;              /* table spec (absolute if a file); NULL: the input's */
	int cpus, hz;
	uint64_t periods;
	int64_t duration_ns;
	int64_t latency_req_ns;    /* 0: none */
	int seeds;                 /* seeds 1..seeds */
	bool idle;                 /* an idle machine: a kept tick is a finding */
	bool exit_free;
	bool full;                 /* only in a --full run */
};

struct is_regress_corpus {
	char *path;
	GPtrArray *cases;          /* struct is_regress_case * */
};

/* Reads a corpus key file; errors name the file, group and key. */
struct is_regress_corpus *is_regress_corpus_load(const char *path, GError **error);
void is_regress_corpus_free(struct is_regress_corpus *c);

/* The pathologies a run is searched for. */
enum is_finding_kind {
	IS_FIND_LOCK_IN,           /* one state to the end while the ideal is deeper */
	IS_FIND_POLLING,           /* re-selection after re-selection at the poll limit */
	IS_FIND_TICK_KEPT,         /* an idle CPU that keeps its tick */
	IS_FIND_LATENCY,           /* states slower to leave than the latency limit */
	IS_FIND_COUNT
};
const char *is_finding_name(enum is_finding_kind k);

/* The worst instance of a kind in one run. */
struct is_finding {
	bool found;
	int cpu;
	int state;
	int64_t since_ns;          /* lock-in: from when */
	uint64_t count;            /* lock-in: selections; latency: violations */
	double pct;                /* share of the CPU's selections (latency: of all) */
	double ratio;              /* polling: selections per idle period; lock-in:
				      % of them with a deeper ideal state */
};

/* One governor on one case and seed. */
struct is_regress_run {
	bool done;
	struct is_metrics m;
	struct is_state_table table;  /* the input's, for the state names */
	uint64_t records;
	double energy, p99_ns, sel_per_period, above_pct, below_pct;
	struct is_finding find[IS_FIND_COUNT];
};

enum is_verdict { IS_SAME = 0, IS_BETTER, IS_WORSE };
const char *is_verdict_name(enum is_verdict v);

/* The metrics a verdict is drawn from (lower is better for each). */
enum is_rmetric { IS_RM_ENERGY, IS_RM_P99, IS_RM_SPP, IS_RM_COUNT };
const char *is_rmetric_name(enum is_rmetric m);

struct is_regress_metric {
	double old_mean, new_mean;
	double noise;              /* the threshold the difference had to pass */
	enum is_verdict v;
};

struct is_regress_result {
	const struct is_regress_case *c;
	struct is_regress_run *old, *new;  /* [seeds] */
	struct is_regress_metric metric[IS_RM_COUNT];
	double above_pct[2], below_pct[2]; /* means, OLD and NEW */
	double time_pct[2][IS_STATE_MAX];  /* share of idle time per state */
	int states;
	enum is_verdict v;
	char *reason;              /* why, for a worse or better verdict ("" for same) */
};

struct is_regress_spec {
	const struct is_governor *gov;
	struct is_params params;
};

struct is_regress_options {
	bool full;                 /* the cases marked full too */
	int jobs;                  /* threads (>= 1) */
	/* called after each run, from the worker that made it (serialised) */
	void (*progress)(void *ctx, int done, int total);
	void *progress_ctx;
	/* polled before each run: nonzero stops them (NULL with IS_ERROR_CANCELLED) */
	const volatile int *cancel;
};

/*
 * Runs every case of @corpus for both governors, seeds 1..case.seeds.
 * Returns the results in corpus order (a GPtrArray of struct
 * is_regress_result *, freed with is_regress_results_free()), or NULL
 * with the first error (naming the case and seed).  The same bytes for
 * any number of jobs: every run is its own simulation, its slot fixed.
 */
GPtrArray *is_regress_run(const struct is_regress_corpus *corpus,
			  const struct is_regress_spec *old, const struct is_regress_spec *new,
			  const struct is_regress_options *o, GError **error);
void is_regress_results_free(GPtrArray *results);

/*
 * Pathology thresholds (docs/regress.md).  Exposed for the tests that
 * trigger each detector.
 */
#define IS_LOCK_MIN_SELECTIONS 1000   /* a lock-in's run holds at least this */
#define IS_LOCK_MIN_SPAN_PCT 20       /* ... over this share of the run's time */
#define IS_LOCK_DEEPER_PCT 80         /* ... with the ideal deeper in this share */
#define IS_POLL_MIN_SPP 1.5           /* polling: selections per idle period */
#define IS_POLL_MIN_LIMIT_PCT 50      /* ... and poll-limit wakeups per selection */
#define IS_TICK_KEPT_PCT 50           /* idle CPU keeping the tick in this share */
/* Metric verdicts: the seeds' spread times this, at least REL % of OLD. */
#define IS_NOISE_SIGMAS 3.0
#define IS_NOISE_REL_PCT 1.0

#endif
