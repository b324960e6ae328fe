/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The run layer: one input through one or more governors, one simulation
 * each, as the kernel has one select -> enter -> reflect path.
 *
 * An input is opened once (is_run_open_trace(), is_run_open_workload()):
 * its header and its state table are resolved there, the trace's own
 * table or a named one, a scenario's header as `idlesim synth` writes it.
 * is_run_build() then makes a simulation per governor and
 * is_run_execute() feeds them:
 * a trace in one pass (memory O(CPUs), however many governors), a
 * scenario closed loop, each simulation driving its own copy of it,
 * generated from the scenario's seed, so that a deeper state's exit
 * latency or a kept tick moves that governor's work and no other's.
 *
 * Users: `idlesim run`, `replay`, `bench`, `import --report` (through
 * run), the sweep's scenarios and tools/mksample.  Nothing here prints.
 */
#ifndef IDLESIM_RUN_H
#define IDLESIM_RUN_H

#include "idlesim/sim.h"
#include "idlesim/synth.h"

/* "model" or "exact" into *mode; false for anything else. */
bool is_run_mode_parse(const char *s, enum is_sim_mode *mode);

/*
 * The seed of the governors' random streams: @seed when >= 0, else the
 * input's (a scenario's, or a trace header's "seed"), else 1.
 */
uint64_t is_run_seed(int64_t seed, const struct is_trace_header *h);

struct is_run_input {
	char *path;                     /* the trace; NULL otherwise */
	struct is_trace_reader *reader; /* a trace: read by the one execution */
	struct is_source src;           /* a trace's reader, or a caller's source */
	bool synthetic;
	struct is_synth_config syn;     /* a scenario, and its bounds: */
	uint64_t periods;               /* ... stop after this many periods */
	int64_t until_ns;               /* ... or at this time (0: no bound) */
	struct is_trace_header hdr;     /* the trace's, or the scenario's */
	/* is_sim_config's measurement window (to 0: the whole input) */
	int64_t measure_from_ns, measure_to_ns;
	/* is_sim_config's; set from the trace's header, the caller may change it */
	int64_t poll_overrun_ns, tick_late_ns;
	bool exit_free;                 /* is_sim_config's; the caller's (default false) */
	/*
	 * A scenario's warm start (NULL: none; the caller's string): each
	 * simulation first runs this trace (model mode, nothing measured),
	 * so that its governor meets the scenario with the history the
	 * machine gave it rather than from enable_device(); the scenario then
	 * runs from warm_off_ns on (the trace's last wakeup rounded up to a
	 * whole tick, so that the scenario keeps its tick phase), its times
	 * and measurement window shifted by that much.  warm_off_ns: set by
	 * is_run_execute() (the last governor's).
	 */
	const char *warm_path;
	int64_t warm_off_ns;
	struct is_state_table *table;
	uint32_t disabled;              /* the table's states disabled by default */
	/*
	 * Set by the caller before is_run_execute() to fill @est: idle
	 * records, and those with estimated inputs (a report says so first;
	 * a benchmark leaves it off: a test per record).
	 */
	bool count_estimates;
	struct is_run_estimates {
		uint64_t idle, any, sleep, ts, idle_ns;
	} est;
	/* is_run_execute()'s tally: [idle << 3 | est], idle records with est 0 not counted */
	uint64_t est_hist[16];
};

/*
 * A trace file (text or binary); @states: NULL for the table its header
 * names, else NAME|FILE|DIR (is_trace_states_open()).
 */
struct is_run_input *is_run_open_trace(const char *path, const char *states, GError **error);
/*
 * A scenario (@cfg as is_synth_new() takes it), bounded by @periods or
 * @until_ns (an rt-app program may have neither: it ends by itself, see
 * is_rtapp_ends()); @states: NULL for power9.  The header is what `idlesim
 * synth` writes (is_synth_header()).
 */
struct is_run_input *is_run_open_workload(const struct is_synth_config *cfg, uint64_t periods,
					  int64_t until_ns, const char *states,
					  bool latency_given, GError **error);
/*
 * Open-loop records from @src (no feedback; the caller's, it must outlive
 * the input), under a copy of header @h, on @states (NULL: the table @h
 * names).  E.g. a generator that is not a scenario.
 */
struct is_run_input *is_run_open_source(const struct is_source *src,
					const struct is_trace_header *h, const char *states,
					GError **error);
void is_run_input_free(struct is_run_input *in);

/* One governor of a run. */
struct is_run_gov {
	/* set by the caller */
	const struct is_governor *gov;
	struct is_params params;
	uint64_t seed;                  /* is_run_seed() */
	is_decision_fn observer;        /* optional, with its context */
	void *observer_ctx;
	/* made by is_run_build(), the caller's to free (is_run_gov_clear()),
	 * for its per-CPU metrics and dumps; total: by is_run_execute() */
	struct is_sim *sim;
	struct is_metrics total;
};

/*
 * Builds the simulations of the @n governors of @g over @in in @mode (their
 * observers set); on an error the ones built so far stay in @g.
 */
bool is_run_build(const struct is_run_input *in, enum is_sim_mode mode, struct is_run_gov *g,
		  int n, GError **error);
/*
 * Runs @in through the built simulations of @g and fills their totals.
 * A trace can be run once (it is read as it goes).  On an error, *failed
 * is the index of the governor whose simulation refused a record, or -1
 * when the input did (a read error, a scenario that does not start), so
 * that the caller can say which.  *records: the input's records (a
 * scenario: those of the last governor's run).
 */
bool is_run_execute(struct is_run_input *in, struct is_run_gov *g, int n, uint64_t *records,
		    int *failed, GError **error);
/* Frees the simulations of @g[0..n). */
void is_run_gov_clear(struct is_run_gov *g, int n);

/*
 * The governor alone, no idle loop (bench --governor-only): select() then
 * reflect() for each idle record of @recs, with the record's sleep length,
 * next tick, tick state and latency limit; the state chosen is the one
 * entered and the record's idle time its residency.  *decisions: the
 * selections made.  Fails when the governor returns no valid state.
 */
bool is_run_governor_only(const struct is_governor *g, const struct is_record *recs, size_t n,
			  const struct is_trace_header *h, const struct is_state_table *table,
			  uint32_t disabled, uint64_t *decisions, GError **err);

#endif
