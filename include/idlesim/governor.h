/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Governor interface, modelled on the kernel's struct cpuidle_governor.
 *
 * A governor is a static const ops table.  It owns one opaque state blob
 * per simulated CPU (state_size bytes, zeroed before init) and sees only
 * what the kernel governor would see: the state table (the driver), the
 * per-CPU disable mask, the tunables, and the per-call inputs below.
 */
#ifndef IDLESIM_GOVERNOR_H
#define IDLESIM_GOVERNOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <glib.h>
#include "idlesim/states.h"

#define IS_PARAM_MAX 16

struct is_param_desc {
	const char *name;
	const char *help;
	int64_t def, min, max;
	/* For enumerated params: NULL-terminated names of values 0..n-1. */
	const char *const *choices;
};

struct is_params {
	int64_t v[IS_PARAM_MAX];
};

/* What a governor may read about its CPU (struct cpuidle_device + driver). */
struct is_gov_env {
	const struct is_state_table *drv;
	const struct is_params *params;
	uint32_t disabled;     /* bit i: dev->states_usage[i].disable */
	int64_t tick_nsec;     /* TICK_NSEC for the trace's HZ */
	int64_t last_residency_ns; /* dev->last_residency_ns */
	int cpu;
	void *inst;            /* the simulation's instance (instance_new()), or NULL */
};

/*
 * Inputs of one cpuidle_select() call.  The sleep length must be read
 * through is_gov_sleep_length() so that the simulator knows whether the
 * governor queried it (6.12 TEO queries it lazily).
 */
struct is_gov_call {
	int64_t now_ns;          /* local_clock() at select */
	int64_t latency_req_ns;  /* cpuidle_governor_latency_req() */
	bool tick_stopped;       /* tick_nohz_tick_stopped() */
	/*
	 * nr_iowait_cpu() (6.1's menu): the record's "io" where it carries
	 * one (a stock capture's nr_iowait probe), else 0: no task of the CPU
	 * waits on I/O.  The same for every re-selection of a record.
	 */
	unsigned int nr_iowait;
	/* private to the accessors */
	int64_t sleep_length_ns_;
	int64_t delta_next_ns_;
	bool sleep_length_read_;
	bool has_draw_;
	bool draw_used_;
	uint32_t draw_;
	uint64_t *rng_;          /* simulation-owned random stream */
	/*
	 * Only the oracle may read these: the true time till the wakeup and
	 * the ideal state for it (is_ideal_state(), which the metrics use).
	 */
	int64_t oracle_idle_ns;
	int oracle_state;
	/*
	 * Only "recorded" may read these: the decision in the trace (k=,
	 * stop=), -1 when absent, so a capture's own choices can be scored
	 * by the same model as a governor's.
	 */
	int recorded_state;
	int recorded_stop;
};

/* tick_nohz_get_sleep_length(): returns the sleep length, sets *delta_next. */
static inline int64_t is_gov_sleep_length(struct is_gov_call *c,
					  int64_t *delta_next)
{
	c->sleep_length_read_ = true;
	*delta_next = c->delta_next_ns_;
	return c->sleep_length_ns_;
}

/*
 * A 32-bit random draw (get_random_u32()): the recorded one when the trace
 * carries it, else the next value of the simulation's seeded stream.
 */
uint32_t is_gov_random_u32(struct is_gov_call *c);

/* The next value of a simulated CPU's random stream (splitmix64). */
uint64_t is_rng_next(uint64_t *s);
/* splitmix64's constants, for the lanes' copy of is_rng_next() (governor lanes) */
#define IS_RNG_GOLDEN 0x9e3779b97f4a7c15ull
#define IS_RNG_MUL1 0xbf58476d1ce4e5b9ull
#define IS_RNG_MUL2 0x94d049bb133111ebull

/* What cpuidle_reflect() and the next select see of the finished period. */
struct is_gov_wake {
	int entered;               /* state entered (>= 0) */
	int64_t now_ns;            /* local_clock() at reflect */
	int64_t last_residency_ns; /* dev->last_residency_ns */
	bool got_tick;             /* tick_nohz_idle_got_tick() */
	bool poll_time_limit;      /* dev->poll_time_limit */
};

/*
 * Lanes: IS_LANES simulations of one governor with different params over
 * the same records, in lockstep (a sweep's points, src/sim/lanes.c), so
 * that the per-state loops run across lanes with no branch per lane.  A
 * governor that offers them must give every lane exactly what select()
 * and reflect() would give it (tests/test-lanes.c checks the sweeps bit
 * for bit against one simulation per point).
 */
#define IS_LANES 8

/* Masks are 0 or -1 (all ones) per lane, flags and indices s64: vector lanes. */
struct is_gov_lanes_call {
	int64_t latency_req_ns;      /* the same for every lane */
	uint64_t *rng;               /* [IS_LANES]: each lane's stream of this CPU */
	int64_t draw[IS_LANES];      /* the record's draw, for the lanes with has_draw */
	int64_t active[IS_LANES];    /* mask: the lanes that select; the others keep their state */
	int64_t tick_stopped[IS_LANES];  /* mask */
	int64_t has_draw[IS_LANES];      /* mask */
	int64_t now_ns[IS_LANES];
	int64_t sleep_length_ns[IS_LANES];
	int64_t delta_next_ns[IS_LANES];
	int64_t last_residency_ns[IS_LANES];
	/* out, for the active lanes */
	int64_t idx[IS_LANES];
	int64_t stop_tick[IS_LANES];     /* mask */
	int64_t sleep_length_read[IS_LANES];  /* mask */
	int64_t draw_used[IS_LANES];     /* mask */
};

struct is_gov_lanes_wake {
	int64_t active[IS_LANES];    /* mask: the lanes that reflect */
	int64_t entered[IS_LANES];
	int64_t got_tick[IS_LANES];  /* mask */
	int64_t poll_time_limit[IS_LANES];  /* mask */
	int64_t now_ns[IS_LANES];
};

struct is_governor {
	const char *name;
	const char *description;
	size_t state_size;
	bool needs_recorded;   /* replays the trace's k=: not for synthetic input */
	const struct is_param_desc *params;
	int nparams;
	/* enable_device(): 0 or a negative errno-style code. */
	int (*init)(void *st, const struct is_gov_env *env);
	/* select(): returns the state index; *stop_tick starts true. */
	int (*select)(void *st, const struct is_gov_env *env,
		      struct is_gov_call *call, bool *stop_tick);
	/* reflect(): may be NULL. */
	void (*reflect)(void *st, const struct is_gov_env *env,
			const struct is_gov_wake *wake);
	/* dump(): optional text form of a CPU's state (e.g. weights). */
	void (*dump)(const void *st, const struct is_gov_env *env, GString *out);
	/*
	 * Optional: one instance per simulation, made before its CPUs' init()
	 * (with the simulation's params and CPU count) and freed after them;
	 * every call sees it as env->inst.  A plugin (plugin:FILE) keeps its
	 * private copy of the governor file's globals there.
	 */
	void *(*instance_new)(const struct is_governor *g, const struct is_params *p, int cpus,
			      GError **error);
	void (*instance_free)(void *inst);
	/*
	 * Optional lanes (above), for a driver whose states never change
	 * their disable mask.  lanes_ok(): whether lanes_select() covers this
	 * table with these params (@p: one set per lane, @n of them);
	 * lanes_init(): enable_device() for every lane (@p: IS_LANES sets), on
	 * a zeroed state of lanes_state_size bytes aligned to 64.
	 */
	size_t lanes_state_size;
	bool (*lanes_ok)(const struct is_state_table *drv, uint32_t disabled,
			 const struct is_params *p, int n);
	int (*lanes_init)(void *st, const struct is_gov_env *env, const struct is_params *p);
	void (*lanes_select)(void *st, const struct is_gov_env *env,
			     struct is_gov_lanes_call *call);
	void (*lanes_reflect)(void *st, const struct is_gov_env *env,
			      const struct is_gov_lanes_wake *wake);
	/*
	 * Optional: the value of param @param that stands for @v's class on
	 * @drv, @v itself for a param it does not reduce.  Two values of one
	 * class must give the same decisions on every input with this table
	 * (any disable mask, latency limit, trace or other params): a sweep
	 * simulates one point of each class and gives its metrics to the
	 * others (is_sweep_space_reps()).  Only for a param read nowhere but
	 * in comparisons with the table's own values.
	 */
	int64_t (*canon_param)(const struct is_state_table *drv, int param, int64_t v);
};

/* Registry: NULL-terminated list; lookup by name. */
const struct is_governor *const *is_governors(void);
const struct is_governor *is_governor_find(const char *name);

/*
 * A governor by the name users give: a built-in one (is_governor_find()),
 * or "plugin:FILE[:NAME]", a kernel governor file built by `idlesim kgov
 * build` (NAME: which of the governors it registers; needed when it
 * registers several).  A plugin is loaded once per spec and stays loaded
 * until is_governor_plugins_free(); nothing is loaded that @spec does not
 * name.  NULL with an error naming the spec (IS_ERROR_INVALID: unknown
 * name; IS_ERROR_IO: the file).
 */
const struct is_governor *is_governor_lookup(const char *spec, GError **error);
void is_governor_plugins_free(void);
/*
 * The plugin whose code this thread runs, as "plugin FILE (governor NAME),
 * CALL on CPU N", or NULL: for a fatal signal's report.  Async-signal-safe.
 */
const char *is_governor_plugin_running(void);

/*
 * The same on any param list (governors, workloads); @kind and @owner name
 * the list's owner in messages ("governor wteo", "workload schbench").
 */
void is_params_defaults_of(const struct is_param_desc *d, int n, struct is_params *p);
int is_params_index_of(const struct is_param_desc *d, int n, const char *name);
bool is_params_set_of(const char *kind, const char *owner, const struct is_param_desc *d,
		      int n, struct is_params *p, const char *kv, GError **error);

/* Fill @p with the defaults. */
void is_params_defaults(const struct is_governor *g, struct is_params *p);
/*
 * Apply "key=value"; on failure returns false with a message naming the
 * param and its range (IS_ERROR_INVALID) and leaves @p untouched.
 */
bool is_params_set(const struct is_governor *g, struct is_params *p,
		   const char *kv, GError **error);
/* Index of a param or -1. */
int is_params_index(const struct is_governor *g, const char *name);
/* Canonical "k=v,k=v" form; caller frees. */
char *is_params_format(const struct is_governor *g, const struct is_params *p);

#endif
