/* SPDX-License-Identifier: GPL-2.0-only */
/* The series' trace events: nothing is traced in user space. */
#ifndef KGOV_SHIM_TRACE_POWER_H
#define KGOV_SHIM_TRACE_POWER_H

#include <linux/kernel.h>

#define trace_cpuidle_gov_clock(cpu, ns) ((void)(cpu), (void)(ns))
#define trace_cpuidle_gov_draw(cpu, draw) ((void)(cpu), (void)(draw))

#endif
