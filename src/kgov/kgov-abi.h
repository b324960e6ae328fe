/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The interface between idlesim and a kernel governor plugin (`idlesim
 * kgov build`): plain C, no glib, so that a plugin needs nothing but a C
 * compiler and libc.  Installed with idlesim beside the shim headers and
 * runtime.c, which every plugin is linked with.
 *
 * A plugin exports one symbol, is_kgov_plugin (struct is_kgov_plugin).
 * idlesim loads one private copy of the plugin per simulation, so the
 * governor file's globals (its module parameters, its DEFINE_PER_CPU
 * arrays, which the shim indexes by simulated CPU) belong to that
 * simulation alone: sweeps on several threads and several plugin
 * governors in one run do not share them.
 */
#ifndef IDLESIM_KGOV_ABI_H
#define IDLESIM_KGOV_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bumped on any change below; idlesim refuses a plugin of another. */
#define IS_KGOV_ABI 1

/* Per-CPU arrays of the governor file: CPUs a plugin can simulate. */
#ifndef KGOV_NR_CPUS
#define KGOV_NR_CPUS 4096
#endif

/* The types module_param() accepts (include/linux/moduleparam.h). */
enum is_kgov_ptype {
	IS_KGOV_PT_BOOL,
	IS_KGOV_PT_INVBOOL,
	IS_KGOV_PT_BYTE,
	IS_KGOV_PT_SHORT,
	IS_KGOV_PT_USHORT,
	IS_KGOV_PT_INT,
	IS_KGOV_PT_UINT,
	IS_KGOV_PT_HEXINT,
	IS_KGOV_PT_LONG,
	IS_KGOV_PT_ULONG,
	IS_KGOV_PT_ULLONG,
};

/* One module_param()/module_param_named() of the file. */
struct is_kgov_param {
	const char *name;
	enum is_kgov_ptype type;
	unsigned int perm;     /* 0444, 0644, ...: writable when perm & 0222 */
	void *addr;            /* the variable */
	size_t size;           /* sizeof the variable */
	long line;             /* of the declaration: the section's order is the linker's */
};

/* MODULE_PARM_DESC(). */
struct is_kgov_param_desc {
	const char *name;
	const char *desc;
};

struct is_kgov_state {
	char name[16];
	int64_t exit_latency_ns;
	int64_t target_residency_ns;
	bool polling;
};

/* What idlesim answers on the governor's queries; opaque @call. */
struct is_kgov_host {
	int64_t (*sleep_length)(void *call, int64_t *delta_next);
	uint32_t (*random_u32)(void *call);
};

/* The inputs of one cpuidle_select(). */
struct is_kgov_call {
	void *call;               /* passed back to the host's callbacks */
	int64_t now_ns;           /* local_clock() */
	int64_t latency_req_ns;   /* cpuidle_governor_latency_req() */
	int64_t last_residency_ns;
	int64_t tick_nsec;
	uint32_t disabled;        /* states_usage[i].disable */
	unsigned int nr_iowait;   /* nr_iowait_cpu() */
	bool tick_stopped;        /* tick_nohz_tick_stopped() */
};

/* What cpuidle_reflect() sees. */
struct is_kgov_wake {
	int entered;
	int64_t now_ns;
	int64_t last_residency_ns;
	int64_t tick_nsec;
	bool got_tick;
	bool poll_time_limit;
};

struct is_kgov_plugin {
	uint32_t abi;                  /* IS_KGOV_ABI */
	uint32_t nr_cpus;              /* KGOV_NR_CPUS of the build */
	size_t cpu_size;               /* bytes of per-CPU state the host keeps */
	/* the file's module parameters and their descriptions (sections) */
	const struct is_kgov_param *params, *params_end;
	const struct is_kgov_param_desc *descs, *descs_end;
	/*
	 * Runs the file's initcalls (cpuidle_register_governor(), debugfs);
	 * 0, or -1 with a message in @err.
	 */
	int (*start)(const struct is_kgov_host *host, char *err, size_t errlen);
	/* The governors registered, by name; their count. */
	int (*governors)(const char *const **names);
	/* enable_device() of governor @gov on CPU @cpu, state @cs (cpu_size bytes). */
	int (*enable)(int gov, void *cs, int cpu, const struct is_kgov_state *states, int count,
		      uint32_t disabled, int64_t tick_nsec);
	int (*select)(int gov, void *cs, const struct is_kgov_call *c, bool *stop_tick);
	void (*reflect)(int gov, void *cs, const struct is_kgov_wake *w);
	/*
	 * The text of the debugfs files the file created, shown for @cpu, into
	 * @buf; returns the length it needs (as snprintf does).
	 */
	size_t (*dump)(void *cs, char *buf, size_t len);
	/* WARN_ON()s that fired so far (the kernel would have printed them). */
	uint64_t (*warnings)(void);
};

#endif
