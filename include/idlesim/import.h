/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Importers: turn captures from real kernels into native traces.
 */
#ifndef IDLESIM_IMPORT_H
#define IDLESIM_IMPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include "idlesim/trace.h"

struct is_import_stats {
	uint64_t lines;
	uint64_t events;          /* cpuidle events parsed */
	uint64_t records;         /* idle records written */
	uint64_t rejected;        /* selections whose state was not entered */
	uint64_t partial;         /* selections cut off by the capture's end/start */
	uint64_t other_events;    /* lines of other events, ignored */
	int cpus;
};

/*
 * ftrace text (the tracefs "trace" file) carrying the power:cpuidle_select,
 * power:cpuidle_reflect, power:cpuidle_sleep_length, power:cpuidle_got_tick,
 * power:cpuidle_gov_clock and power:cpuidle_gov_draw events of the idlesim kernel patch series
 * (tools/kernel/patches): every selection becomes one idle record with the
 * raw inputs for exact replay.  @h supplies states/state_count/hz (cpus is
 * taken from the capture when h->cpus is 0).  Writes @out atomically.
 */
bool is_import_cpuidle_events(const char *in, const char *out, enum is_trace_format fmt,
			      const struct is_trace_header *h,
			      struct is_import_stats *stats, GError **error);

#endif
