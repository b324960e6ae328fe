/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Synthetic workloads.  For now one open-loop generator, "basic", used for
 * the bundled sample traces and the replay benchmark: per CPU, one-shot
 * timers re-armed after each burst of work (lognormal sleep), Poisson
 * device interrupts and Poisson IPIs, exponential busy periods.
 */
#ifndef IDLESIM_SYNTH_H
#define IDLESIM_SYNTH_H

#include <stdint.h>
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

#endif
