/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Synthetic workloads.
 *
 * "basic" is the fixed open-loop generator behind the bundled sample traces
 * and the replay benchmark (per CPU: one-shot timers re-armed after each
 * burst of work, Poisson interrupts and IPIs, exponential busy periods).
 *
 * The named scenarios (is_workloads(): idle, ebizzy-sleep, schbench,
 * pgbench, hackbench, mixed) are built from the blocks of struct
 * is_synth_blocks and run closed-loop: see src/synth/workload.c for which
 * quantities are drawn and which follow the governor's choices.
 */
#ifndef IDLESIM_SYNTH_H
#define IDLESIM_SYNTH_H

#include <stdint.h>
#include <gsl/gsl_rng.h>
#include "idlesim/governor.h"
#include "idlesim/sim.h"

struct is_basic_params {
	int cpus;
	int hz;
	uint64_t seed;
	double sleep_median_ns;   /* lognormal median of the re-armed timer */
	double sleep_sigma;       /* lognormal sigma */
	double irq_rate_hz;       /* Poisson device interrupts per CPU */
	double ipi_rate_hz;       /* Poisson IPIs per CPU */
	double busy_mean_ns;      /* exponential busy period after a wakeup */
	double nowork_share;      /* share of irq wakeups that run no task */
	int64_t latency_req_ns;   /* PM QoS limit written into every record */
};

void is_basic_params_default(struct is_basic_params *p);

struct is_basic_gen;
struct is_basic_gen *is_basic_new(const struct is_basic_params *p);
void is_basic_free(struct is_basic_gen *g);
/* Next record in time order over all CPUs (always 1). */
int is_basic_next(struct is_basic_gen *g, struct is_record *rec);
void is_source_from_basic(struct is_source *src, struct is_basic_gen *g);

/* ---- named scenarios -------------------------------------------------- */

enum is_dist_kind {
	IS_DIST_NONE = 0,
	IS_DIST_FIXED,      /* a */
	IS_DIST_EXP,        /* mean a */
	IS_DIST_LOGNORMAL,  /* median a, sigma b */
	IS_DIST_PARETO,     /* scale (minimum) a, shape b */
	IS_DIST_UNIFORM,    /* [a, b) */
};

/* A duration distribution in ns; draws are clamped to [0, 5 s]. */
struct is_dist {
	enum is_dist_kind kind;
	double a, b;
};

double is_dist_draw(const struct is_dist *d, gsl_rng *r);

/* What ended an idle period, as the one-shot arming rule sees it. */
enum is_synth_src {
	IS_SRC_PERIODIC = 0,
	IS_SRC_ONESHOT,
	IS_SRC_MODULATED,
	IS_SRC_IPI,
};

/* One CPU's wakeup sources (all times in ns; 0 / IS_DIST_NONE = absent). */
struct is_synth_blocks {
	double period_ns, jitter_ns;      /* periodic timer, uniform +-jitter */
	int64_t timer_busy_ns;            /* work after it (else busy) */
	struct is_dist sleep;             /* one-shot wait ... */
	enum is_cause sleep_cause;        /* ... ended by a timer or an irq */
	uint32_t arm_after;               /* bits 1 << IS_SRC_*: arm it after these */
	double irq_on_hz, irq_off_hz;     /* modulated Poisson arrivals ... */
	double on_mean_ns, off_mean_ns;   /* ... sojourns (0: always "on") */
	enum is_cause mod_cause;          /* ... delivered as irq or IPI */
	double nowork_share;              /* irqs that wake no task */
	struct is_dist ipi_gap;           /* IPIs: inter-arrival gaps ... */
	int64_t ipi_busy_ns;              /* ... work after one (else busy) */
	bool ipi_nowork;                  /* ... handled in irq context only */
	struct is_dist busy;              /* work after each wakeup */
	int64_t phase_ns;                 /* from then on, sleeps, IPI gaps ... */
	double phase_scale_pct;           /* ... and the period are scaled ... */
	int64_t phase_every_ns;           /* ... for this long, then not for as
					     long, and so on (0: for good) */
	/*
	 * A waker (only CPU 0 may be one) sends one IPI to every CPU with
	 * from_waker each time its one-shot wait ends, send_ns apart in CPU
	 * order, starting when it resumes work: its own wakeup latency delays
	 * them (closed loop across CPUs).
	 */
	bool waker;
	int64_t send_ns;
	bool from_waker;
};

struct is_workload {
	const char *name;
	const char *description;
	const char *approximates;  /* the real behaviour it models */
	const char *leaves_out;    /* what it does not */
	const struct is_param_desc *params;
	int nparams;
	/* Fills CPU @cpu's blocks; must not depend on the CPU count. */
	void (*build)(const struct is_params *p, int cpu, struct is_synth_blocks *b);
};

const struct is_workload *const *is_workloads(void);
const struct is_workload *is_workload_find(const char *name);
/*
 * The workload of rt-app files (not in is_workloads()): its params
 * (jitter_pct) apply to the program in is_synth_config.rtapp.
 */
const struct is_workload *is_rtapp_workload(void);

struct is_rtapp;

struct is_synth_config {
	const struct is_workload *w;       /* a scenario, or is_rtapp_workload() with ... */
	const struct is_rtapp *rtapp;      /* ... an rt-app program (rtapp.h; the caller's) */
	struct is_params params;
	int cpus;
	int hz;
	uint64_t seed;
	int64_t latency_req_ns;   /* PM QoS limit in every record */
};

/*
 * The header of a trace of scenario @cfg on table @t, as `idlesim synth`
 * writes it (its source line names the scenario and every param, and
 * latency_us= when @latency_given).  Clears @h first.
 */
void is_synth_header(const struct is_synth_config *cfg, const struct is_state_table *t,
		     bool latency_given, struct is_trace_header *h);

struct is_synth;
struct is_synth *is_synth_new(const struct is_synth_config *cfg, GError **error);
void is_synth_free(struct is_synth *g);
/*
 * Next record: 1, or 0 at the end of an rt-app program (a scenario has
 * none), or -1 when the program keeps every CPU busy for ten million
 * events without an idle period (is_synth_error() says so).  A scenario's: the CPU whose idle period starts first, lowest
 * CPU on ties; except that with a waker, a worker's period whose end could
 * be the waker's next IPI waits, and the waker's periods come first until
 * that IPI is known (so records are then not in time order across CPUs;
 * see struct is_synth_sorted).
 */
int is_synth_next(struct is_synth *g, struct is_record *rec);
/* Why is_synth_next() returned -1 (NULL otherwise). */
const char *is_synth_error(const struct is_synth *g);
/*
 * An rt-app program runs no event at or after @until_ns (a scenario
 * ignores it): a program that keeps its CPUs busy ends at the bound
 * instead of running on without records.  The bounded source sets it.
 */
void is_synth_set_horizon(struct is_synth *g, int64_t until_ns);
/* No record to come starts before this (the earliest next start). */
int64_t is_synth_min_start(const struct is_synth *g);
/* The CPU of the last record resumed work at @resume_ns (closed loop). */
void is_synth_feedback(struct is_synth *g, int cpu, int64_t resume_ns);
uint64_t is_synth_records(const struct is_synth *g);
/* As a simulation source, with feedback: closed loop. */
void is_source_from_synth(struct is_source *src, struct is_synth *g);

/*
 * The same, ending after @periods records (0: no bound) or once no record
 * to come starts before @until_ns (0: no bound), leaving out those that
 * start at or after it.
 */
struct is_synth_bounded {
	struct is_synth *g;
	uint64_t periods;
	int64_t until_ns;
	uint64_t n;              /* records given so far */
};
void is_source_from_synth_bounded(struct is_source *src, struct is_synth_bounded *b);

/*
 * A bounded generator's records in time order (by start, then in the
 * order generated), for writing a trace: open loop, no feedback.
 */
struct is_synth_sorted;
struct is_synth_sorted *is_synth_sorted_new(struct is_synth_bounded *b);
void is_synth_sorted_free(struct is_synth_sorted *s);
/* 1: a record, 0: the end, -1: the generator's error (is_synth_error()). */
int is_synth_sorted_next(struct is_synth_sorted *s, struct is_record *rec);

#endif
