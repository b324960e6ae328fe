/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event loop: steps each CPU through idle periods in time order, calls
 * the governor, models the idle loop (tick, poll limit, exit latency) and
 * feeds the metrics.
 */
#ifndef IDLESIM_SIM_H
#define IDLESIM_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include "idlesim/governor.h"
#include "idlesim/metrics.h"
#include "idlesim/states.h"
#include "idlesim/trace.h"

enum is_sim_mode {
	/*
	 * Model the idle loop: tick retained vs stopped, the poll time limit
	 * and exit latency decide when the CPU wakes and what the governor
	 * sees next (closed loop with respect to the governor's choices).
	 */
	IS_SIM_MODEL = 0,
	/*
	 * Feed the governor the recorded raw inputs verbatim (sleep length,
	 * tick state, clocks, last_residency_ns, got-tick, poll-limit, draw):
	 * exact replay of a kernel recording.
	 */
	IS_SIM_EXACT,
};

struct is_sim_config {
	const struct is_state_table *states;
	const struct is_governor *gov;
	struct is_params params;
	int cpus;
	int hz;
	enum is_sim_mode mode;
	uint64_t seed;            /* random stream of the governors */
	uint32_t disabled;        /* initial disable mask for every CPU */
	/*
	 * Measure only the records that start in [measure_from_ns,
	 * measure_to_ns): the governors run on every record (their history),
	 * the metrics count only these.  measure_to_ns 0: every record.
	 */
	int64_t measure_from_ns, measure_to_ns;
	/*
	 * Model: a polling state ends at cpuidle_poll_time() plus this (the
	 * machine's poll overrun, is_trace_header's): 0 as the kernel's loop
	 * on hardware, which checks every few hundred ns.
	 */
	int64_t poll_overrun_ns;
	/*
	 * Model: a retained tick's interrupt arrives this long after its
	 * expiry (the machine's, is_trace_header's tick_late_ns): 0 as on
	 * hardware, microseconds; hundreds of them under QEMU TCG.
	 */
	int64_t tick_late_ns;
	/*
	 * Model: the machine's idle states cost nothing to leave, so a
	 * recorded period's length holds no exit latency (a TCG guest
	 * without the model driver's pay_exit_latency).  false (as on
	 * hardware): the length holds the exit latency of the state the
	 * kernel entered, and the wakeup event is taken that much earlier.
	 */
	bool exit_free;
	/*
	 * dev->last_residency_ns of each CPU at the start (cpus entries, the
	 * trace header's start_lres_ns), or NULL: 0, as at boot.  Borrowed:
	 * it must outlive the simulation.
	 */
	const int64_t *start_lres_ns;
};

/* One selection as the event loop saw it; passed to the observer. */
struct is_decision {
	int cpu;
	uint64_t record;          /* index of the trace record (0-based) */
	int64_t t_ns;
	int state;
	/*
	 * The ideal state for the pass (is_ideal_state() of the idle time
	 * left in the record, within the latency limit): the one the metrics'
	 * accuracy compares with, and the oracle governor's choice.
	 */
	int ideal;
	bool stop_tick;
	bool sleep_length_read;
	bool draw_used;
	uint32_t draw;
	const struct is_record *rec; /* the record (continuations: same) */
	bool continuation;        /* made by the model after a tick/poll wakeup */
	/* The governor's inputs ... */
	int64_t sleep_ns, delta_next_ns, latency_req_ns;
	bool tick_stopped;
	/* ... and what followed (recorded values in exact mode). */
	int entered;
	int64_t idle_ns, last_residency_ns, span_ns;
	enum is_cause cause;
	bool got_tick, poll_time_limit;
};

typedef void (*is_decision_fn)(void *ctx, const struct is_decision *d);

/*
 * A source of records in time order (a trace reader, or a synthetic
 * workload).  feedback(), if set, is told when each CPU resumes work after
 * an idle record so that closed-loop sources can react.
 */
struct is_source {
	void *ctx;
	/* 1: record, 0: end, -1: error */
	int (*next)(void *ctx, struct is_record *rec, GError **error);
	/*
	 * Optional (NULL: one at a time through next): up to max records, as
	 * is_trace_next_batch().  Only for sources that need no feedback.
	 */
	int (*next_batch)(void *ctx, struct is_record *recs, int max, GError **error);
	void (*feedback)(void *ctx, int cpu, int64_t resume_ns);
};

struct is_sim;

/* Returns NULL with an error for an invalid configuration. */
struct is_sim *is_sim_new(const struct is_sim_config *cfg, GError **error);
void is_sim_free(struct is_sim *s);
void is_sim_set_observer(struct is_sim *s, is_decision_fn fn, void *ctx);
/*
 * Moves the measurement window (is_sim_config's measure_from_ns and
 * measure_to_ns) for the records fed from now on; what was measured stays.
 */
void is_sim_set_window(struct is_sim *s, int64_t from_ns, int64_t to_ns);
/* Process one record.  Returns false on an inconsistent record. */
bool is_sim_feed(struct is_sim *s, const struct is_record *rec, GError **error);
/* Pull all records of @src through the simulation. */
bool is_sim_run(struct is_sim *s, const struct is_source *src, GError **error);
/* Metrics of one CPU so far (valid till the next call for that CPU). */
const struct is_metrics *is_sim_cpu_metrics(struct is_sim *s, int cpu);
void is_sim_total(const struct is_sim *s, struct is_metrics *out);
uint64_t is_sim_records(const struct is_sim *s);
/*
 * IS_LANES simulations in lockstep (src/sim/lanes.c): @cfg for all of
 * them but its params and seed, @p and @seed one per lane (@n of them, at
 * most IS_LANES).  Each lane's metrics equal those of is_sim_new() with its
 * own params and seed, fed the same records.  Only where
 * is_sim_lanes_supported(): model mode, no measurement window, a governor
 * with lanes for this table and these params; a record that changes a
 * disable mask is refused.
 */
struct is_sim_lanes;
bool is_sim_lanes_supported(const struct is_sim_config *cfg, const struct is_params *p, int n);
struct is_sim_lanes *is_sim_lanes_new(const struct is_sim_config *cfg, const struct is_params *p,
				      const uint64_t *seed, int n, GError **error);
void is_sim_lanes_free(struct is_sim_lanes *s);
bool is_sim_lanes_feed(struct is_sim_lanes *s, const struct is_record *rec, GError **error);
/* Runs what the lanes still hold, then lane @lane's metrics. */
void is_sim_lanes_total(struct is_sim_lanes *s, int lane, struct is_metrics *out);
/* Appends every CPU's dump() text; false if the governor has none. */
bool is_sim_dump(const struct is_sim *s, GString *out);
/* Governor state blob of a CPU (for tests and dumps). */
const void *is_sim_gov_state(const struct is_sim *s, int cpu);

/* TICK_NSEC for @hz, as include/vdso/jiffies.h computes it. */
int64_t is_tick_nsec(int hz);
/* cpuidle_poll_time() of 6.12 for a table and disable mask. */
int64_t is_poll_time_limit(const struct is_state_table *t, uint32_t disabled,
			   int64_t tick_nsec);

/* Trace reader as a source. */
void is_source_from_reader(struct is_source *src, struct is_trace_reader *r);

#endif
