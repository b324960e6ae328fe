/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Metrics of a simulation: the RFC's accuracy distribution, the kernel's
 * above/below counters, usage/residency per state, energy, wakeup latency.
 */
#ifndef IDLESIM_METRICS_H
#define IDLESIM_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include "idlesim/states.h"
#include "idlesim/trace.h"

/* Accuracy bins: index IS_ACC_MID + (chosen - ideal). */
#define IS_ACC_MID (IS_STATE_MAX - 1)
#define IS_ACC_BINS (2 * IS_STATE_MAX - 1)

struct is_metrics {
	uint64_t selections;
	/* acc[IS_ACC_MID + k]: k > 0 "US k" (too deep), k < 0 "OS -k". */
	uint64_t acc[IS_ACC_BINS];
	uint64_t usage[IS_STATE_MAX];
	uint64_t above[IS_STATE_MAX];
	uint64_t below[IS_STATE_MAX];
	int64_t time_ns[IS_STATE_MAX];       /* sum of last_residency_ns */
	uint64_t wakeups[IS_CAUSE_COUNT];    /* by cause */
	/* Non-timer (irq, ipi) wakeups by entered state: latency histogram. */
	uint64_t nt_wakeups[IS_STATE_MAX];
	uint64_t tick_stops;                 /* selections leaving the tick stopped */
	uint64_t tick_stop_requests;         /* governor returned stop_tick */
	uint64_t sleep_length_reads;
	uint64_t random_draws;               /* selections that drew a random
						number (wteo-rfc, wteo: the
						weighted pick) */
	double energy;                       /* active-ns */
	int64_t idle_ns;                     /* time in idle periods */
	/*
	 * Selections of the state that did not enter it (exact mode: the
	 * recording's rej=1; the model never refuses).  Not in selections.
	 */
	uint64_t rejected[IS_STATE_MAX];
	/*
	 * Selections whose stop-tick decision is an assumption: the recorded
	 * governor on a record without stop= (it then stops the tick).
	 */
	uint64_t tick_assumed;
};

/* One finished selection, as the event loop scores it. */
struct is_period_score {
	int chosen;               /* state entered */
	bool stop_tick;           /* governor's decision */
	bool tick_stopped;        /* tick left stopped for the period */
	bool sleep_length_read;
	bool draw_used;           /* the governor drew a random number */
	int ideal;                /* the ideal state (is_ideal_state()) */
	int64_t idle_ns;          /* time spent in the state (before exit) */
	int64_t last_residency_ns;
	enum is_cause cause;
	uint32_t disabled;
	int64_t latency_req_ns;
};

void is_metrics_init(struct is_metrics *m);

/* The kernel's cpu_idle_miss verdict on one period (cpuidle_enter_state()). */
enum is_miss { IS_MISS_NONE = 0, IS_MISS_ABOVE, IS_MISS_BELOW };
enum is_miss is_miss_kind(const struct is_state_table *t, uint32_t disabled, int state,
			  int64_t last_residency_ns);
void is_metrics_add(struct is_metrics *dst, const struct is_metrics *src);
/*
 * The RFC's ideal state: the deepest enabled state whose target residency
 * does not exceed @idle_ns and whose exit latency is within @latency_req.
 * When none fits: the shallowest enabled state (0 if every state is off).
 */
int is_ideal_state(const struct is_state_table *t, uint32_t disabled,
		   int64_t latency_req_ns, int64_t idle_ns);
/* Score one period into @m (the table's scorer built on the fly). */
void is_metrics_score(struct is_metrics *m, const struct is_state_table *t,
		      const struct is_period_score *p);

struct is_latency_summary {
	uint64_t count;
	double mean_ns;
	int64_t p50_ns, p99_ns, max_ns;
};
void is_metrics_latency(const struct is_metrics *m,
			const struct is_state_table *t,
			struct is_latency_summary *out);

#endif
