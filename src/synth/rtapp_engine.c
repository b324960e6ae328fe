// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rt-app engine: a discrete-event model of an rt-app program's thread
 * instances on the simulated CPUs, giving the simulation one record per
 * idle period and taking back, through feedback, when each CPU resumed
 * work (closed loop).  docs/rt-app.md states the model; in short:
 *
 * - Tasks run on CPUs with FIFO run queues, no preemption and no time
 *   slices: a task keeps its CPU until it sleeps, blocks, yields or ends.
 *   run and runtime are busy time of their length (no frequency model).
 * - A task woken by its own timer runs on the CPU whose timer fired (it
 *   slept there) when that CPU was idle.  Any other wakeup (a timer firing
 *   on a busy CPU, resume, signal, broad, barrier, a mutex handed over)
 *   places the task on its previous CPU if that is idle and allowed, else
 *   on the allowed CPU idle the longest (lowest number on ties), else on
 *   its previous CPU's run queue (if allowed, else the lowest allowed
 *   CPU's).  At start each instance, in file order, goes to the allowed
 *   CPU with the fewest instances so far.  This is not the kernel's
 *   scheduler: no load balancing, no migration of queued tasks.
 * - A wakeup made by a running task reaches an idle CPU as an IPI at the
 *   moment the waker runs the event: the waker's own exit latency and run
 *   queue delay it.  A timer's expiry reaches its CPU as a timer interrupt.
 * - An idle CPU with nothing pending wakes after 5 s (a housekeeping
 *   timer that runs no task), as the built-in scenarios do.
 * - The tick and the poll limit are the simulation's (sim.c), not this
 *   file's: a record is one whole idle period, from when the CPU's run
 *   queue emptied to the event that ended it; its sleep length is the
 *   CPU's next timer at that moment.
 *
 * Timers follow rt-app's run() (src/rt-app.c): a timer's reference starts
 * at the thread's start (the use case's start plus its delay), each use
 * adds the period and sleeps till there, and a use that finds the time
 * passed does not sleep and, in relative mode, moves the reference to
 * now.  Non-"unique" timers are shared by every instance that names them.
 *
 * Timer slack: a sleep or timer event of a thread that is not real-time
 * or deadline sets an hrtimer with the range [t, t + timer_slack_us]
 * (6.12 hrtimer_nanosleep(); init_task's timer_slack_ns is 50 us).  The
 * kernel programs the CPU's timer for the range's end (its hard expiry,
 * which tick_nohz_get_sleep_length() also reads: the record's sleep
 * length) and runs, at any timer interrupt, every timer whose start has
 * passed (__hrtimer_run_queues()).  So the thread wakes at t + slack,
 * or at an interrupt of its CPU inside its range, when every timer whose
 * range has begun runs, in the order of their ends: another timer's, or
 * the tick's.  The tick is the simulation's; here it is taken to run at
 * each multiple of TICK_NSEC on a CPU that is busy, or idle with a sleep
 * length (its next timer's end, from when it went idle) shorter than
 * TICK_NSEC, for which the kernel keeps the tick whatever the governor
 * asks (tick_nohz_next_event(): "there's a timer in the next period, so
 * no point in stopping it"); on an idle CPU with a longer one it is
 * taken as stopped, as menu and teo usually ask.  (A timer with a period
 * of a whole number of ticks, as rt-app files have, begins its range on
 * a tick: it wakes there, not slack later.)  The tick's lateness, the
 * simulation's --tick-late-ns, is not added here, nor does the 5 s
 * housekeeping timer run others.  Real-time and deadline threads have
 * no slack (__setscheduler_params()).  Before 2026-12-07 every timer
 * fired at t: the rt-app files' relative sleeps were 50 us shorter than
 * the guests' kernels made them (docs/rt-app.md).
 *
 * Random: none unless --wparam jitter_pct=N, which scales each run,
 * runtime and sleep by a uniform factor in [1 - N/100, 1 + N/100) drawn
 * from the instance's own splitmix64 stream, seeded from (seed, instance
 * number): the same for any CPU count.
 */
#include <string.h>

#include "idlesim/idlesim.h"
#include "idlesim/synth.h"
#include "../heap.h"
#include "rtapp_engine.h"
#include "rtapp_internal.h"

/*
 * mem and iorun are busy time at a stated rate: 10,000 MB/s is a memset()
 * of one core out of cache on a current desktop or server (an
 * assumption, not a measure of any machine here); 1,000 MB/s for iorun,
 * rt-app's write() of its buffer to io_device (/dev/null by default),
 * where the system call, not a device, sets the pace.  Set both to the
 * machine studied.
 */
static const struct is_param_desc rtapp_params[] = {
	{ "jitter_pct", "scale each run, runtime and sleep by a uniform factor in "
	  "[1 - N/100, 1 + N/100) (0: the file's times exactly)", 0, 0, 100, NULL },
	{ "mem_mb_s", "the rate of a mem event's writes, MB/s (bytes per us): its busy time",
	  10000, 1, 10000000, NULL },
	{ "io_mb_s", "the rate of an iorun event's writes, MB/s (bytes per us): its busy time",
	  1000, 1, 10000000, NULL },
	{ "timer_slack_us", "the timer slack of a thread that is not real-time or deadline, "
	  "us: its sleeps and timers wake this much after their time (the kernel's default, "
	  "init_task.c: 50)", 50, 0, 1000000, NULL },
};

static const struct is_workload rtapp_workload = {
	.name = "rt-app",
	.description = "an rt-app 1.0 JSON file (--workload rt-app:FILE.json)",
	.approximates = "the file's threads, their phases and events, on FIFO run queues",
	.leaves_out = "the kernel's scheduler (placement is a stated rule; no preemption, "
		      "time slices or load balancing), frequency, and memory and I/O beyond "
		      "mem and iorun as busy time at a stated rate",
	.params = rtapp_params,
	.nparams = G_N_ELEMENTS(rtapp_params),
	.build = NULL,
};

const struct is_workload *is_rtapp_workload(void)
{
	return &rtapp_workload;
}

#define NEVER INT64_MAX
#define HOUSEKEEPING_NS 5000000000LL
/* events without an idle period before the run is refused (every CPU kept busy) */
#define MAX_BUSY_EVENTS 10000000
/* records ending at one instant before the run is refused (time stands still) */
#define MAX_SAME_INSTANT 1000000

enum { EV_TIMER, EV_RUNEND, EV_RESUME, EV_HOUSE };
enum { I_READY, I_RUN, I_SLEEP, I_BLOCK, I_DONE };
enum { C_IDLE, C_WAKING, C_BUSY };
enum { STAY, LEAVE };

struct ev {
	int64_t t;
	uint64_t seq;
	int kind;
	int who;           /* instance (EV_TIMER) or CPU */
	uint64_t gen;      /* EV_HOUSE: the CPU's idle generation */
};

struct tstate {
	bool init;
	int64_t next;
};

struct queue {
	int head, tail;    /* instances, linked through inst.qnext; -1: empty */
};

struct inst {
	const struct rt_task *t;
	int ph, ev;
	int64_t ph_loop, th_loop;
	int st;
	int cpu;           /* current or previous CPU */
	int timer_cpu;     /* I_SLEEP: the CPU its timer is on, and ... */
	int64_t wake_at;   /* ... when it expires: its range's end, and ... */
	int64_t soft_at;   /* ... start (the time the event asked for) */
	uint64_t arm_gen;  /* its EV_TIMER's gen: an earlier one is stale */
	int qnext;
	int retake;        /* the mutex to take back after a wait, or -1 */
	int64_t t_first;
	struct tstate *ut; /* its "unique" timers */
	uint64_t rng;
};

struct ecpu {
	int curr;
	struct queue rq;
	int st;
	int64_t idle_since, sleep_at;
	uint64_t gen;
	int placed;        /* instances placed here at start */
	GArray *sleepers;  /* instances whose timer is on this CPU */
};

struct mtx {
	int owner;
	struct queue q;
};

struct barrier {
	int arrived;
	struct queue q;
};

struct rt_engine {
	const struct is_rtapp *p;
	int ncpu;
	int64_t tick_nsec, lat_ns, end_ns;
	int64_t horizon;   /* the caller's bound: no event at or after it is run (0: none) */
	uint64_t busy_events; /* events since the last record */
	int64_t last_wake;    /* the last record's wakeup, and ... */
	uint64_t same_wake;   /* ... how many records in a row woke then */
	char *error;
	int jitter_pct;
	int64_t mem_mb_s, io_mb_s, slack_ns;
	struct inst *in;
	int nin, live;
	struct ecpu *cpu;
	struct mtx *mx;
	struct queue *cond;
	struct barrier *bar;
	struct tstate *timers;
	struct ev *heap;   /* a min-heap (heap.h) of hn events, hcap allocated */
	size_t hn, hcap;
	uint64_t seq;
	int64_t now;
	int nreal;         /* events in the heap other than EV_HOUSE */
	struct is_record *ready; /* records to give, a ring: one per CPU at most */
	int rhead, nready;
	bool ended;
	int fb_cpu;        /* the CPU of the record last given, awaiting feedback */
	int64_t fb_resume;
	uint64_t records;
};

/* ---- the event heap ---------------------------------------------------- */

static bool ev_less(const struct ev *a, const struct ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

DEFINE_HEAP(evq, struct ev, ev_less)

static void push_ev(struct rt_engine *e, int64_t t, int kind, int who, uint64_t gen)
{
	const struct ev x = { .t = t, .seq = e->seq++, .kind = kind, .who = who, .gen = gen };

	evq_push(&e->heap, &e->hn, &e->hcap, &x);
	e->nreal += kind != EV_HOUSE;
}

static struct ev pop_ev(struct rt_engine *e)
{
	const struct ev top = evq_pop(e->heap, &e->hn);

	e->nreal -= top.kind != EV_HOUSE;
	return top;
}

/* ---- queues ------------------------------------------------------------ */

static void q_push(struct rt_engine *e, struct queue *q, int i)
{
	e->in[i].qnext = -1;
	if (q->tail >= 0)
		e->in[q->tail].qnext = i;
	else
		q->head = i;
	q->tail = i;
}

static int q_pop(struct rt_engine *e, struct queue *q)
{
	const int i = q->head;

	if (i >= 0) {
		q->head = e->in[i].qnext;
		if (q->head < 0)
			q->tail = -1;
	}
	return i;
}

/* ---- CPUs -------------------------------------------------------------- */

static int64_t jitter(struct rt_engine *e, struct inst *in, int64_t ns)
{
	double u, v;

	if (!e->jitter_pct || !ns)
		return ns;
	u = (double)(is_rng_next(&in->rng) >> 11) * 0x1.0p-53;
	v = (double)ns * (1.0 + (double)e->jitter_pct / 100.0 * (2.0 * u - 1.0));
	return v > 0 ? (int64_t)(v + 0.5) : 0;
}

static bool allowed(const struct inst *in, int c)
{
	const struct rt_phase *ph = &in->t->ph[in->ph];
	const int *cpus = ph->cpus ? ph->cpus : in->t->cpus;
	const int n = ph->cpus ? ph->ncpus : in->t->ncpus;

	if (!cpus)
		return true;
	for (int k = 0; k < n; k++)
		if (cpus[k] == c)
			return true;
	return false;
}

static int first_allowed(const struct inst *in)
{
	const struct rt_phase *ph = &in->t->ph[in->ph];
	const int *cpus = ph->cpus ? ph->cpus : in->t->cpus;

	return cpus ? cpus[0] : 0;
}

/* The placement rule of a wakeup (the file's head comment). */
static int place(const struct rt_engine *e, const struct inst *in)
{
	int best = -1;

	if (in->cpu >= 0 && allowed(in, in->cpu) && e->cpu[in->cpu].st == C_IDLE)
		return in->cpu;
	for (int c = 0; c < e->ncpu; c++)
		if (e->cpu[c].st == C_IDLE && allowed(in, c) &&
		    (best < 0 || e->cpu[c].idle_since < e->cpu[best].idle_since))
			best = c;
	if (best >= 0)
		return best;
	return in->cpu >= 0 && allowed(in, in->cpu) ? in->cpu : first_allowed(in);
}

/* CPU @c's idle period ends now, by @cause: a record to give. */
static void end_idle(struct rt_engine *e, int c, enum is_cause cause, bool nowork)
{
	struct ecpu *cp = &e->cpu[c];
	struct is_record *r = &e->ready[(e->rhead + e->nready++) % e->ncpu];
	const int64_t t0 = cp->idle_since;

	*r = (struct is_record){ .kind = IS_REC_IDLE, .cpu = (uint16_t)c, .cause = (uint8_t)cause };
	r->t_ns = t0;
	r->sleep_ns = cp->sleep_at - t0;
	r->tick_ns = (t0 / e->tick_nsec + 1) * e->tick_nsec - t0;
	r->lat_ns = e->lat_ns;
	r->idle_ns = e->now - t0;
	if (nowork)
		r->flags |= IS_F_NOWORK;
	cp->st = C_WAKING;
}

static void go_idle(struct rt_engine *e, int c)
{
	struct ecpu *cp = &e->cpu[c];
	int64_t next = e->now + HOUSEKEEPING_NS;

	cp->curr = -1;
	cp->st = C_IDLE;
	cp->idle_since = e->now;
	cp->gen++;
	/* what tick_nohz_get_sleep_length() sees: the CPU's next timer */
	for (guint k = 0; k < cp->sleepers->len; k++)
		next = MIN(next, e->in[g_array_index(cp->sleepers, int, k)].wake_at);
	cp->sleep_at = next;
	push_ev(e, e->now + HOUSEKEEPING_NS, EV_HOUSE, c, cp->gen);
}

/* The first multiple of TICK_NSEC at or after @t (t >= 0). */
static int64_t first_tick(const struct rt_engine *e, int64_t t)
{
	return (t + e->tick_nsec - 1) / e->tick_nsec * e->tick_nsec;
}

/* Whether CPU @c's tick runs now (the file's comment). */
static bool tick_runs(const struct rt_engine *e, int c)
{
	const struct ecpu *cp = &e->cpu[c];

	return cp->st != C_IDLE || cp->sleep_at - cp->idle_since < e->tick_nsec;
}

/* Instance @i sleeps on CPU @c till @t, with its timer slack. */
static void arm(struct rt_engine *e, int i, int c, int64_t t)
{
	struct inst *in = &e->in[i];
	const int64_t slack = in->t->ph[in->ph].rt_policy ? 0 : e->slack_ns;

	in->st = I_SLEEP;
	in->timer_cpu = c;
	in->soft_at = t;
	in->wake_at = t + slack;
	in->arm_gen++;
	g_array_append_val(e->cpu[c].sleepers, i);
	/* the first tick in its range, where it may wake (step()), else its end */
	push_ev(e, MIN(first_tick(e, t), in->wake_at), EV_TIMER, i, in->arm_gen);
}

static void disarm(struct rt_engine *e, int i)
{
	GArray *s = e->cpu[e->in[i].timer_cpu].sleepers;

	for (guint k = 0; k < s->len; k++)
		if (g_array_index(s, int, k) == i) {
			g_array_remove_index_fast(s, k);
			break;
		}
}

/* Instance @i becomes runnable: placed, queued, its CPU woken by an IPI if idle. */
static void wake(struct rt_engine *e, int i)
{
	struct inst *in = &e->in[i];
	const int b = place(e, in);

	in->st = I_READY;
	in->cpu = b;
	q_push(e, &e->cpu[b].rq, i);
	if (e->cpu[b].st == C_IDLE)
		end_idle(e, b, IS_CAUSE_IPI, false);
}

static void unlock(struct rt_engine *e, int m)
{
	const int w = q_pop(e, &e->mx[m].q);

	e->mx[m].owner = w;
	if (w >= 0) {
		e->in[w].retake = -1;
		wake(e, w);
	}
}

/*
 * Runs instance @i, current on CPU @c, from its next event at e->now till
 * it is busy (STAY: its run ends at an EV_RUNEND) or leaves the CPU
 * (LEAVE: asleep, blocked, yielded or done).
 */
static int run_task(struct rt_engine *e, int i, int c)
{
	struct inst *in = &e->in[i];
	const struct rt_task *t = in->t;

	in->st = I_RUN;
	in->cpu = c;
	for (;;) {
		const struct rt_phase *ph = &t->ph[in->ph];
		const struct rt_event *ev;

		if (in->retake >= 0) {
			struct mtx *m = &e->mx[in->retake];

			if (m->owner >= 0 && m->owner != i) {
				in->st = I_BLOCK;
				q_push(e, &m->q, i);
				return LEAVE;
			}
			m->owner = i;
			in->retake = -1;
		}
		if (in->ev >= ph->nev) {
			/* the end of one run of the phase */
			in->ev = 0;
			if (ph->loop > 0 && ++in->ph_loop >= ph->loop) {
				in->ph_loop = 0;
				if (++in->ph >= t->nph) {
					in->ph = 0;
					if (t->loop > 0 && ++in->th_loop >= t->loop) {
						in->st = I_DONE;
						e->live--;
						return LEAVE;
					}
				}
			}
			continue;
		}
		ev = &ph->ev[in->ev++];
		switch (ev->op) {
		case RT_RUN: {
			const int64_t d = jitter(e, in, ev->ns);

			if (d > 0) {
				push_ev(e, e->now + d, EV_RUNEND, c, 0);
				return STAY;
			}
			break;
		}
		case RT_MEM:
		case RT_IORUN: {
			const int64_t rate = ev->op == RT_MEM ? e->mem_mb_s : e->io_mb_s;
			/* bytes / (bytes per us), in ns, rounded up: a write takes time */
			const int64_t d = ev->ns ? (ev->ns * 1000 + rate - 1) / rate : 0;

			if (d > 0) {
				push_ev(e, e->now + d, EV_RUNEND, c, 0);
				return STAY;
			}
			break;
		}
		case RT_SLEEP:
			arm(e, i, c, e->now + jitter(e, in, ev->ns));
			return LEAVE;
		case RT_TIMER: {
			struct tstate *ts = ev->unique ? &in->ut[ev->res] : &e->timers[ev->res];

			if (!ts->init) {
				ts->init = true;
				ts->next = in->t_first;
			}
			ts->next += ev->ns;
			if (e->now < ts->next) {
				arm(e, i, c, ts->next);
				return LEAVE;
			}
			if (!ev->absolute)
				ts->next = e->now;
			break;
		}
		case RT_LOCK: {
			struct mtx *m = &e->mx[ev->res];

			if (m->owner < 0 || m->owner == i) {
				m->owner = i;
				break;
			}
			in->st = I_BLOCK;
			q_push(e, &m->q, i);
			return LEAVE;
		}
		case RT_UNLOCK:
			if (e->mx[ev->res].owner == i)
				unlock(e, ev->res);
			break;
		case RT_WAIT:
			if (ev->mutex >= 0 && e->mx[ev->mutex].owner == i) {
				unlock(e, ev->mutex);
				in->retake = ev->mutex;
			}
			in->st = I_BLOCK;
			q_push(e, &e->cond[ev->res], i);
			return LEAVE;
		case RT_SIGNAL: {
			const int w = q_pop(e, &e->cond[ev->res]);

			if (w >= 0)
				wake(e, w);
			break;
		}
		case RT_BROAD:
			for (int w; (w = q_pop(e, &e->cond[ev->res])) >= 0;)
				wake(e, w);
			break;
		case RT_BARRIER: {
			struct barrier *b = &e->bar[ev->res];

			if (++b->arrived < e->p->barrier_users[ev->res]) {
				in->st = I_BLOCK;
				q_push(e, &b->q, i);
				return LEAVE;
			}
			b->arrived = 0;
			for (int w; (w = q_pop(e, &b->q)) >= 0;)
				wake(e, w);
			break;
		}
		case RT_YIELD:
			if (e->cpu[c].rq.head >= 0) {
				in->st = I_READY;
				q_push(e, &e->cpu[c].rq, i);
				return LEAVE;
			}
			break;
		}
	}
}

/* CPU @c runs its queue till a task stays busy, else goes idle. */
static void pick_next(struct rt_engine *e, int c)
{
	struct ecpu *cp = &e->cpu[c];

	cp->st = C_BUSY;
	for (int i; (i = q_pop(e, &cp->rq)) >= 0;) {
		cp->curr = i;
		if (run_task(e, i, c) == STAY)
			return;
	}
	go_idle(e, c);
}

/* Instance @i's timer expires now on its CPU. */
static void fire(struct rt_engine *e, int i)
{
	struct inst *in = &e->in[i];
	const int c = in->timer_cpu;

	disarm(e, i);
	if (e->cpu[c].st == C_IDLE && allowed(in, c)) {
		/* its CPU wakes for it, and it runs there */
		end_idle(e, c, IS_CAUSE_TIMER, false);
		in->st = I_READY;
		in->cpu = c;
		q_push(e, &e->cpu[c].rq, i);
	} else {
		if (e->cpu[c].st == C_IDLE)
			end_idle(e, c, IS_CAUSE_TIMER, true);
		wake(e, i);
	}
}

/*
 * The timer interrupt on CPU @c runs every timer whose range has begun,
 * in the order of their ends (then of instance numbers, as they were
 * armed in no particular order here).
 */
static void fire_begun(struct rt_engine *e, int c)
{
	GArray *s = e->cpu[c].sleepers;

	for (;;) {
		int best = -1;

		for (guint k = 0; k < s->len; k++) {
			const int j = g_array_index(s, int, k);

			if (e->in[j].soft_at <= e->now &&
			    (best < 0 || e->in[j].wake_at < e->in[best].wake_at ||
			     (e->in[j].wake_at == e->in[best].wake_at && j < best)))
				best = j;
		}
		if (best < 0)
			return;
		fire(e, best);
	}
}

static void step(struct rt_engine *e, const struct ev *x)
{
	e->now = x->t;
	switch (x->kind) {
	case EV_TIMER: {
		const int c = e->in[x->who].timer_cpu;

		/* an instance a timer before its own already woke */
		if (e->in[x->who].st != I_SLEEP || x->gen != e->in[x->who].arm_gen)
			break;
		/* a tick inside its range: it wakes there if the tick runs */
		if (x->t < e->in[x->who].wake_at && !tick_runs(e, c)) {
			push_ev(e, e->in[x->who].wake_at, EV_TIMER, x->who, x->gen);
			break;
		}
		fire(e, x->who);
		fire_begun(e, c);
		break;
	}
	case EV_RUNEND:
		if (run_task(e, e->cpu[x->who].curr, x->who) == LEAVE)
			pick_next(e, x->who);
		break;
	case EV_RESUME:
		pick_next(e, x->who);
		break;
	case EV_HOUSE:
		if (e->cpu[x->who].st == C_IDLE && e->cpu[x->who].gen == x->gen)
			end_idle(e, x->who, IS_CAUSE_TIMER, true);
		break;
	}
}

/* ---- the source -------------------------------------------------------- */

struct rt_engine *rt_engine_new(const struct is_synth_config *cfg, GError **error)
{
	const struct is_rtapp *p = cfg->rtapp;
	struct rt_engine *e;
	int k = 0;

	if (p->max_cpu >= cfg->cpus) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: %s names CPU %d, but the run has %d CPUs (--cpus)", p->file,
			    p->max_cpu_where, p->max_cpu, cfg->cpus);
		return NULL;
	}
	if (cfg->params.v[1] < 1 || cfg->params.v[2] < 1) {
		/* a caller that left them 0 (the CLI sets the defaults) */
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: mem_mb_s and io_mb_s must be at least 1 (%" G_GINT64_FORMAT
			    ", %" G_GINT64_FORMAT ")", p->file, (gint64)cfg->params.v[1],
			    (gint64)cfg->params.v[2]);
		return NULL;
	}
	e = g_new0(struct rt_engine, 1);
	e->p = p;
	e->ncpu = cfg->cpus;
	e->tick_nsec = is_tick_nsec(cfg->hz);
	e->lat_ns = cfg->latency_req_ns;
	e->end_ns = p->duration_ns;
	e->jitter_pct = (int)cfg->params.v[0];
	e->mem_mb_s = cfg->params.v[1];
	e->io_mb_s = cfg->params.v[2];
	e->slack_ns = cfg->params.v[3] * 1000;
	e->fb_cpu = -1;
	e->last_wake = -1;
	e->ready = g_new0(struct is_record, e->ncpu);
	e->cpu = g_new0(struct ecpu, e->ncpu);
	e->mx = g_new0(struct mtx, MAX(p->nmutexes, 1));
	e->cond = g_new0(struct queue, MAX(p->nconds, 1));
	e->bar = g_new0(struct barrier, MAX(p->nbarriers, 1));
	e->timers = g_new0(struct tstate, MAX(p->ntimers, 1));
	for (int m = 0; m < p->nmutexes; m++)
		e->mx[m] = (struct mtx){ .owner = -1, .q = { -1, -1 } };
	for (int m = 0; m < p->nconds; m++)
		e->cond[m] = (struct queue){ -1, -1 };
	for (int m = 0; m < p->nbarriers; m++)
		e->bar[m].q = (struct queue){ -1, -1 };
	for (int c = 0; c < e->ncpu; c++) {
		e->cpu[c] = (struct ecpu){ .curr = -1, .rq = { -1, -1 }, .st = C_BUSY };
		e->cpu[c].sleepers = g_array_new(FALSE, FALSE, sizeof(int));
	}
	e->nin = p->ninstances;
	e->live = e->nin;
	e->in = g_new0(struct inst, MAX(e->nin, 1));
	/* instances in file order, each to the allowed CPU with the fewest so far */
	for (int ti = 0; ti < p->ntasks; ti++) {
		const struct rt_task *t = &p->tasks[ti];

		for (int n = 0; n < t->instance; n++, k++) {
			struct inst *in = &e->in[k];
			int best = -1;

			*in = (struct inst){ .t = t, .cpu = -1, .qnext = -1, .retake = -1,
					     .t_first = t->delay_ns };
			in->rng = cfg->seed ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(k + 1));
			if (p->ntimers)
				in->ut = g_new0(struct tstate, p->ntimers);
			for (int c = 0; c < e->ncpu; c++)
				if (allowed(in, c) && (best < 0 || e->cpu[c].placed < e->cpu[best].placed))
					best = c;
			e->cpu[best].placed++;
			in->cpu = best;
			if (t->delay_ns > 0) {
				arm(e, k, best, t->delay_ns);
			} else {
				in->st = I_READY;
				q_push(e, &e->cpu[best].rq, k);
			}
		}
	}
	/* every CPU starts busy and runs its queue at 0 (or goes idle) */
	for (int c = 0; c < e->ncpu; c++)
		push_ev(e, 0, EV_RESUME, c, 0);
	return e;
}

void rt_engine_free(struct rt_engine *e)
{
	if (!e)
		return;
	for (int c = 0; c < e->ncpu; c++)
		g_array_unref(e->cpu[c].sleepers);
	for (int i = 0; i < e->nin; i++)
		g_free(e->in[i].ut);
	g_free(e->in);
	g_free(e->ready);
	g_free(e->cpu);
	g_free(e->mx);
	g_free(e->cond);
	g_free(e->bar);
	g_free(e->timers);
	g_free(e->heap);
	g_free(e->error);
	g_free(e);
}

void rt_engine_set_horizon(struct rt_engine *e, int64_t until_ns)
{
	e->horizon = until_ns;
}

const char *rt_engine_error(const struct rt_engine *e)
{
	return e->error;
}

int rt_engine_next(struct rt_engine *e, struct is_record *rec)
{
	if (e->error)
		return -1;
	if (e->fb_cpu >= 0) {
		push_ev(e, e->fb_resume, EV_RESUME, e->fb_cpu, 0);
		e->fb_cpu = -1;
	}
	while (!e->nready) {
		struct ev x;

		/*
		 * The end: the file's duration, or nothing left that can happen
		 * (every CPU idle with only housekeeping to come: the tasks are
		 * done or blocked for good).
		 */
		if (e->ended || e->nreal == 0) {
			e->ended = true;
			return 0;
		}
		x = pop_ev(e);
		if ((e->end_ns > 0 && x.t >= e->end_ns) || (e->horizon > 0 && x.t >= e->horizon)) {
			e->ended = true;
			return 0;
		}
		if (++e->busy_events > MAX_BUSY_EVENTS) {
			e->error = g_strdup_printf(
				"%s: no CPU went idle in %d events (up to %.3f s): the program keeps "
				"every CPU busy (a thread that never sleeps or blocks?); bound the run "
				"with --duration", e->p->file, MAX_BUSY_EVENTS, (double)x.t * 1e-9);
			e->ended = true;
			return -1;
		}
		step(e, &x);
	}
	*rec = e->ready[e->rhead];
	e->rhead = (e->rhead + 1) % e->ncpu;
	e->nready--;
	e->fb_cpu = rec->cpu;
	e->fb_resume = rec->t_ns + rec->idle_ns;
	e->records++;
	e->busy_events = 0;
	/*
	 * Tasks that hand work to each other without spending time (sync
	 * with no run between) make records at one instant for ever when no
	 * exit latency moves them (open loop): refused, not written out.
	 */
	e->same_wake = e->fb_resume == e->last_wake ? e->same_wake + 1 : 0;
	e->last_wake = e->fb_resume;
	if (e->same_wake >= MAX_SAME_INSTANT) {
		e->error = g_strdup_printf(
			"%s: %d idle periods in a row end at %.6f s: the tasks wake each other "
			"without spending time (a run or sleep between their events?)", e->p->file,
			MAX_SAME_INSTANT, (double)e->fb_resume * 1e-9);
		e->ended = true;
		return -1;
	}
	return 1;
}

void rt_engine_feedback(struct rt_engine *e, int cpu, int64_t resume_ns)
{
	if (cpu == e->fb_cpu && resume_ns > e->fb_resume)
		e->fb_resume = resume_ns;
}

int64_t rt_engine_min_start(const struct rt_engine *e)
{
	int64_t m = e->now;

	for (int c = 0; c < e->ncpu; c++)
		if (e->cpu[c].st == C_IDLE)
			m = MIN(m, e->cpu[c].idle_since);
	for (int r = 0; r < e->nready; r++)
		m = MIN(m, e->ready[(e->rhead + r) % e->ncpu].t_ns);
	return m;
}

uint64_t rt_engine_records(const struct rt_engine *e)
{
	return e->records;
}
