/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Simulations as captures: a simulated run written as the kernel would
 * have traced it on the same machine and clock, so that it opens in
 * trace-cmd report, KernelShark and Perfetto beside the capture it came
 * from, and `idlesim import` reads it back (docs/export.md).
 *
 * Each pass of the simulation that entered a state becomes a
 * power:cpu_idle entry at its selection time and an exit (state
 * 4294967295, PWR_EVENT_EXIT) at the end of its residency (the state's
 * exit latency included, as cpuidle_enter_state() measures it), followed
 * by power:cpu_idle_miss where the kernel's rule of 6.12 says "above" or
 * "below".  A pass refused by need_resched traces nothing, as in the
 * kernel.
 */
#ifndef IDLESIM_EXPORT_H
#define IDLESIM_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include "idlesim/sim.h"
#include "idlesim/states.h"

struct is_export_config {
	const struct is_state_table *states;   /* copied */
	uint32_t disabled;                     /* for cpu_idle_miss's rule */
	int cpus;                              /* 1..IS_TRACE_MAX_CPUS */
	int hz;
	const char *governor;                  /* the simulated governor's name */
	const char *source;                    /* what ran (free text, one line) */
};

struct is_export_stats {
	uint64_t periods;        /* passes entered: two cpu_idle events each */
	uint64_t refused;        /* passes refused (need_resched): nothing traced */
	uint64_t above, below;   /* cpu_idle_miss events */
	/*
	 * Passes that began before their CPU's previous simulated exit (an
	 * open-loop replay whose simulated state's exit latency exceeds the
	 * recorded one's, so the record's next period starts inside it):
	 * written at that exit, their length and state unchanged.
	 */
	uint64_t shifted;
	int64_t shift_max_ns;
	int64_t first_ns, last_ns;
	uint64_t dat_bytes, text_bytes;
};

struct is_export;

/* NULL with an error for a configuration out of range. */
struct is_export *is_export_new(const struct is_export_config *cfg, GError **error);
void is_export_free(struct is_export *x);
/*
 * The simulation's observer (an is_decision_fn, is_sim_set_observer()):
 * called in each CPU's time order, as the event loop does.
 */
void is_export_observe(void *x, const struct is_decision *d);
/*
 * Writes the bundle @dir: trace.dat (trace-cmd's version 6 format), the
 * same events as ftrace text (trace.txt, nanosecond stamps), the state
 * table (states, a key file) and meta, as tools/capture/idlesim-capture
 * lays them out, so `idlesim import DIR` needs no flag.  Written in a
 * temporary directory renamed into place; an existing @dir is replaced
 * only if it is a bundle that this function wrote.
 */
bool is_export_write(struct is_export *x, const char *dir, GError **error);
const struct is_export_stats *is_export_get_stats(const struct is_export *x);

/* The release line of an exported bundle's meta (its prefix). */
#define IS_EXPORT_RELEASE "idlesim-simulation"

#endif
