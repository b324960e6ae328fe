/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A parsed rt-app file (src/synth/rtapp.c), as the engine
 * (src/synth/rtapp_engine.c) executes it.  Immutable once parsed.
 */
#ifndef IDLESIM_RTAPP_INTERNAL_H
#define IDLESIM_RTAPP_INTERNAL_H

#include "idlesim/rtapp.h"

enum rt_op {
	RT_RUN,        /* busy for ns (run: calibrated loops; runtime: CPU time) */
	RT_SLEEP,      /* sleep ns from now */
	RT_TIMER,      /* sleep till the timer's next period from its reference */
	RT_LOCK,       /* take mutex res, or wait for it */
	RT_UNLOCK,     /* release mutex res, handing it to its first waiter */
	RT_WAIT,       /* release mutex (if any), wait on cond res, retake mutex */
	RT_SIGNAL,     /* wake cond res's first waiter */
	RT_BROAD,      /* wake all of cond res's waiters */
	RT_BARRIER,    /* wait till barrier res's users have all arrived */
	RT_YIELD,      /* to the back of the CPU's run queue */
	RT_MEM,        /* busy writing ns bytes of memory (the mem_mb_s param's rate) */
	RT_IORUN,      /* busy writing ns bytes to io_device (the io_mb_s param's rate) */
};

struct rt_event {
	enum rt_op op;
	int64_t ns;          /* RT_RUN, RT_SLEEP; RT_TIMER: the period; RT_MEM, RT_IORUN: bytes */
	int res;             /* timer, mutex, cond or barrier index */
	int mutex;           /* RT_WAIT: the mutex released while waiting, -1 none */
	bool absolute;       /* RT_TIMER: "mode": "absolute" */
	bool unique;         /* RT_TIMER: a "unique*" ref, one timer per instance */
};

struct rt_phase {
	int64_t loop;        /* times the phase runs before the next (>= 1) */
	const int *cpus;     /* NULL: the task's */
	int ncpus;
	struct rt_event *ev;
	int nev;
	/*
	 * Its policy is a real-time or deadline one (the phase's, else the
	 * thread's, else global.default_policy): its sleeps and timers have
	 * no timer slack (6.12 kernel/sched/syscalls.c, __setscheduler_params()).
	 */
	bool rt_policy;
};

struct rt_task {
	const char *name;
	int instance;
	int64_t loop;        /* runs of all phases, -1 forever */
	int64_t delay_ns;
	const int *cpus;     /* NULL: every CPU */
	int ncpus;
	struct rt_phase *ph;
	int nph;
};

struct is_rtapp {
	char *file;
	char digest[65];
	int64_t duration_ns;         /* -1: none */
	struct rt_task *tasks;
	int ntasks;
	int ninstances;
	int ntimers, nmutexes, nconds, nbarriers;
	int *barrier_users;          /* per barrier: references x instances */
	int max_cpu;                 /* -1: none named */
	char *max_cpu_where;         /* "PATH (line N)" of the highest CPU named */
	GPtrArray *notes;            /* char *, NULL-terminated */
	GStringChunk *strings;
	GPtrArray *blocks;           /* every other allocation, freed together */
};

#endif
