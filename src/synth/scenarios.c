// SPDX-License-Identifier: GPL-2.0-only
/*
 * Named scenarios modelled on the 2020 weighted-TEO RFC's benchmarks, each
 * a mapping from the benchmark's own knobs onto the generator's blocks
 * (src/synth/workload.c).  They reproduce the shape of the wakeup stream a
 * benchmark causes on a CPU, not the benchmark: every figure not taken
 * from the benchmark's options is a stated assumption, overridable with
 * --param.  Every scenario ends with three common params, phase_ms,
 * phase_scale_pct and phase_every_ms: after phase_ms the sleeps, IPI gaps
 * and the timer period are multiplied by phase_scale_pct / 100; with
 * phase_every_ms the workload then switches back and forth every
 * phase_every_ms (scaled, plain, scaled, ...), a schedule of changes for
 * studying how fast a governor's history adapts.
 */
#include <string.h>

#include "idlesim/rtapp.h"
#include "idlesim/synth.h"

#define US 1000.0
#define MS 1000000.0

#define COMMON_PARAMS \
	{ "phase_ms", "switch behaviour at this time (0: never)", 0, 0, 3600000, NULL }, \
	{ "phase_scale_pct", "after the switch, sleeps and gaps scaled by this %", 100, 1, 100000, NULL }, \
	{ "phase_every_ms", "then switch back and forth every this many ms (0: once)", 0, 0, 3600000, NULL }

static void common(const struct is_params *p, int first, struct is_synth_blocks *b)
{
	b->phase_ns = p->v[first] * (int64_t)MS;
	b->phase_scale_pct = (double)p->v[first + 1];
	b->phase_every_ns = p->v[first + 2] * (int64_t)MS;
}

/* A slow housekeeping timer every CPU has (vmstat, RCU, watchdogs...). */
static void housekeeping(struct is_synth_blocks *b, double period_ns)
{
	b->period_ns = period_ns;
	b->jitter_ns = period_ns / 100;
	b->timer_busy_ns = 5000;
}

/* ---- idle --------------------------------------------------------------- */

enum { IDLE_TIMER_MS, IDLE_IRQ, IDLE_BUSY_US, IDLE_N };
static const struct is_param_desc idle_params[] = {
	{ "timer_ms", "period of the housekeeping timer", 1000, 1, 60000, NULL },
	{ "irq_per_s", "Poisson device interrupts per second", 1, 0, 1000000, NULL },
	{ "busy_us", "work after each wakeup", 20, 1, 1000000, NULL },
	COMMON_PARAMS,
};

static void idle_build(const struct is_params *p, int cpu, struct is_synth_blocks *b)
{
	(void)cpu;
	housekeeping(b, (double)p->v[IDLE_TIMER_MS] * MS);
	b->timer_busy_ns = p->v[IDLE_BUSY_US] * 1000;
	b->irq_on_hz = (double)p->v[IDLE_IRQ];
	b->nowork_share = 0.5;
	b->busy = (struct is_dist){ IS_DIST_FIXED, (double)p->v[IDLE_BUSY_US] * US, 0 };
	common(p, IDLE_N, b);
}

/* ---- ebizzy-sleep --------------------------------------------------------- */

enum { EB_SLEEP_US, EB_WORK_US, EB_SLACK_US, EB_ALLOC, EB_N };
static const char *const eb_alloc[] = { "default", "mmap", "malloc", NULL };
static const struct is_param_desc ebizzy_params[] = {
	{ "sleep_us", "ebizzy -i: sleep after each chunk of work", 10000, 1, 10000000, NULL },
	{ "work_us", "median CPU time of one chunk of record searching (lognormal, sigma 0.5)", 1000, 1, 10000000, NULL },
	{ "slack_us", "hrtimer slack of the sleep (usleep's default 50 us)", 50, 0, 100000, NULL },
	{ "alloc", "ebizzy -m (mmap: munmap TLB-shootdown IPIs) / -M (malloc: none)", 0, 0, 2, eb_alloc },
	COMMON_PARAMS,
};

static void ebizzy_build(const struct is_params *p, int cpu, struct is_synth_blocks *b)
{
	static const double ipi_hz[] = { 200, 2000, 0 };
	double sl = (double)p->v[EB_SLEEP_US] * US;

	(void)cpu;
	housekeeping(b, 1000 * MS);
	b->sleep = (struct is_dist){ IS_DIST_UNIFORM, sl, sl + (double)p->v[EB_SLACK_US] * US };
	b->sleep_cause = IS_CAUSE_TIMER;
	b->arm_after = 1u << IS_SRC_ONESHOT;
	b->busy = (struct is_dist){ IS_DIST_LOGNORMAL, (double)p->v[EB_WORK_US] * US, 0.5 };
	if (ipi_hz[p->v[EB_ALLOC]] > 0) {
		/* A TLB flush runs in the IPI handler: no task, the tick stays off. */
		b->ipi_gap = (struct is_dist){ IS_DIST_EXP, 1e9 / ipi_hz[p->v[EB_ALLOC]], 0 };
		b->ipi_busy_ns = 3000;
		b->ipi_nowork = true;
	}
	b->irq_on_hz = 20;
	b->nowork_share = 0.5;
	common(p, EB_N, b);
}

/* ---- schbench --------------------------------------------------------------- */

enum { SB_THREADS, SB_MSG_US, SB_WORK_US, SB_WAKER, SB_SEND_US, SB_N };
static const char *const sb_waker[] = { "open", "cpu0", NULL };
static const struct is_param_desc schbench_params[] = {
	{ "threads", "schbench -t: worker threads per message thread", 2, 1, 4096, NULL },
	{ "msg_us", "mean time between two messages to one worker (schbench -s, 30 ms)", 30000, 1, 10000000, NULL },
	{ "work_us", "mean CPU time a worker spends per message (exponential; an assumption)", 200, 1, 1000000, NULL },
	{ "waker", "open: each worker's messages are a drawn stream; cpu0: CPU 0 runs the "
		   "message thread and sends them, delayed by its own wakeup latency", 0, 0, 1,
	  sb_waker },
	{ "send_us", "waker=cpu0: CPU time per message sent (an assumption)", 2, 1, 10000, NULL },
	COMMON_PARAMS,
};

static void schbench_build(const struct is_params *p, int cpu, struct is_synth_blocks *b)
{
	double gap = (double)p->v[SB_MSG_US] * US / (double)p->v[SB_THREADS];

	housekeeping(b, 1000 * MS);
	b->irq_on_hz = 20;
	b->nowork_share = 0.5;
	if (p->v[SB_WAKER] == 1 && cpu == 0) {
		/*
		 * The message thread: sleeps, then messages every worker CPU
		 * once; each worker sees messages at the same mean rate as
		 * with waker=open.
		 */
		b->waker = true;
		b->send_ns = p->v[SB_SEND_US] * 1000;
		b->sleep = (struct is_dist){ IS_DIST_EXP, gap, 0 };
		b->sleep_cause = IS_CAUSE_TIMER;
		b->arm_after = 1u << IS_SRC_ONESHOT;
		b->busy = (struct is_dist){ IS_DIST_FIXED, 5 * US, 0 };
	} else {
		/* More threads per message thread: more wakeups on every CPU. */
		if (p->v[SB_WAKER] == 1)
			b->from_waker = true;
		else
			b->ipi_gap = (struct is_dist){ IS_DIST_EXP, gap, 0 };
		b->busy = (struct is_dist){ IS_DIST_EXP, (double)p->v[SB_WORK_US] * US, 0 };
	}
	common(p, SB_N, b);
}

/* ---- pgbench ---------------------------------------------------------------- */

enum { PG_CLIENTS, PG_TPS, PG_TXN_US, PG_IO_US, PG_N };
static const struct is_param_desc pgbench_params[] = {
	{ "clients", "pgbench -c: concurrent client sessions", 8, 1, 4096, NULL },
	{ "tps_per_client", "transactions a client issues per second to this CPU's backends", 50, 1, 1000000, NULL },
	{ "txn_us", "median backend CPU time per step of a transaction (lognormal, sigma 0.7)", 150, 1, 1000000, NULL },
	{ "io_us", "median storage latency of the transaction's I/O (lognormal, sigma 0.8)", 400, 1, 10000000, NULL },
	COMMON_PARAMS,
};

static void pgbench_build(const struct is_params *p, int cpu, struct is_synth_blocks *b)
{
	double rate = (double)p->v[PG_CLIENTS] * (double)p->v[PG_TPS];

	(void)cpu;
	housekeeping(b, 1000 * MS);
	/* A client's request wakes a backend (IPI); the backend works, issues
	 * its I/O, and the completion interrupt ends the wait. */
	b->ipi_gap = (struct is_dist){ IS_DIST_EXP, 1e9 / rate, 0 };
	b->sleep = (struct is_dist){ IS_DIST_LOGNORMAL, (double)p->v[PG_IO_US] * US, 0.8 };
	b->sleep_cause = IS_CAUSE_IRQ;
	b->arm_after = 1u << IS_SRC_IPI;
	b->busy = (struct is_dist){ IS_DIST_LOGNORMAL, (double)p->v[PG_TXN_US] * US, 0.7 };
	b->irq_on_hz = 50;
	b->nowork_share = 0.8;
	common(p, PG_N, b);
}

/* ---- hackbench -------------------------------------------------------------- */

enum { HB_LOOPS, HB_GROUPS, HB_MODE, HB_GAP_MS, HB_N };
static const char *const hb_mode[] = { "socket", "pipe", NULL };
static const struct is_param_desc hackbench_params[] = {
	{ "loops", "hackbench -l: messages each sender sends per run", 1000, 1, 100000000, NULL },
	{ "groups", "hackbench -g: groups of 20 senders and 20 receivers", 1, 1, 1024, NULL },
	{ "mode", "socket (default) or pipe (hackbench -p): per-message cost", 0, 0, 1, hb_mode },
	{ "gap_ms", "mean idle gap between two runs", 5, 0, 100000, NULL },
	COMMON_PARAMS,
};

static void hackbench_build(const struct is_params *p, int cpu, struct is_synth_blocks *b)
{
	/* Assumed per-message CPU time: a socket round costs more than a pipe. */
	double msg_ns = p->v[HB_MODE] == 1 ? 4 * US : 7 * US;
	double groups = (double)p->v[HB_GROUPS];

	(void)cpu;
	housekeeping(b, 1000 * MS);
	/* During a run, receivers are woken by messages in a storm (IPIs); a
	 * run's length grows with loops; between runs the CPU idles. */
	b->mod_cause = IS_CAUSE_IPI;
	b->irq_on_hz = 1e9 / (msg_ns * 3) * (groups < 4 ? groups : 4) / 4;
	b->irq_off_hz = 0;
	b->on_mean_ns = (double)p->v[HB_LOOPS] * msg_ns;
	b->off_mean_ns = (double)p->v[HB_GAP_MS] * MS + 1;
	b->busy = (struct is_dist){ IS_DIST_EXP, msg_ns, 0 };
	common(p, HB_N, b);
}

/* ---- mixed ------------------------------------------------------------------ */

enum { MX_TIMER_US, MX_SLEEP_US, MX_IRQ_ON, MX_IPI_US, MX_BUSY_US, MX_N };
static const struct is_param_desc mixed_params[] = {
	{ "timer_us", "period of an application timer (jitter 10%)", 4000, 1, 10000000, NULL },
	{ "sleep_us", "median of lognormal sleeps (sigma 1.5)", 400, 1, 10000000, NULL },
	{ "irq_on_per_s", "device interrupts per second in bursts (5 ms on, 20 ms at 1/20 the rate)", 2000, 0, 10000000, NULL },
	{ "ipi_us", "mean gap between IPIs (exponential)", 2000, 1, 100000000, NULL },
	{ "busy_us", "median work after a wakeup (lognormal, sigma 1)", 20, 1, 1000000, NULL },
	COMMON_PARAMS,
};

static void mixed_build(const struct is_params *p, int cpu, struct is_synth_blocks *b)
{
	(void)cpu;
	b->period_ns = (double)p->v[MX_TIMER_US] * US;
	b->jitter_ns = b->period_ns / 10;
	b->timer_busy_ns = 10000;
	b->sleep = (struct is_dist){ IS_DIST_LOGNORMAL, (double)p->v[MX_SLEEP_US] * US, 1.5 };
	b->sleep_cause = IS_CAUSE_TIMER;
	b->arm_after = (1u << IS_SRC_ONESHOT) | (1u << IS_SRC_IPI);
	b->irq_on_hz = (double)p->v[MX_IRQ_ON];
	b->irq_off_hz = (double)p->v[MX_IRQ_ON] / 20;
	b->on_mean_ns = 5 * MS;
	b->off_mean_ns = 20 * MS;
	b->nowork_share = 0.3;
	b->ipi_gap = (struct is_dist){ IS_DIST_EXP, (double)p->v[MX_IPI_US] * US, 0 };
	b->busy = (struct is_dist){ IS_DIST_LOGNORMAL, (double)p->v[MX_BUSY_US] * US, 1.0 };
	common(p, MX_N, b);
}

#define W(id, desc, appr, omit, prm, fn) \
	static const struct is_workload id = { \
		.name = #id, .description = desc, .approximates = appr, .leaves_out = omit, \
		.params = prm, .nparams = sizeof(prm) / sizeof(prm[0]), .build = fn, \
	}

W(idle, "an idle system: the tick and rare timers",
  "a quiet machine: a housekeeping timer and occasional device interrupts",
  "deferrable timers, RCU and softirq work, anything the tick itself runs",
  idle_params, idle_build);
static const struct is_workload ebizzy = {
	.name = "ebizzy-sleep",
	.description = "ebizzy with -i: work, then sleep the interval",
	.approximates = "each ebizzy thread searching records for work_us, then usleep(-i) with "
			"hrtimer slack; -m adds munmap TLB-shootdown IPIs, -M removes them",
	.leaves_out = "memory-bandwidth effects, thread migration, the record count as a "
		      "throughput figure (exit latency delaying work is the only coupling)",
	.params = ebizzy_params, .nparams = sizeof(ebizzy_params) / sizeof(ebizzy_params[0]),
	.build = ebizzy_build,
};
W(schbench, "schbench: message threads waking worker threads",
  "workers woken by messages (IPIs) at a rate growing with -t, each doing a short "
  "piece of work; the wakeup latency schbench reports is the exit latency paid",
  "the message thread's own CPU unless waker=cpu0, futex hand-off chains, run-queue "
  "waiting, migration",
  schbench_params, schbench_build);
W(pgbench, "pgbench: client transactions with I/O completion interrupts",
  "backends woken by client requests (IPIs) at clients x tps_per_client, working, "
  "issuing an I/O and waiting for its completion interrupt (closed loop), then working",
  "more than one outstanding I/O per CPU (a request arriving during another's I/O "
  "is served without its own I/O), locks, WAL flush batching, client think time, "
  "the database's own timers",
  pgbench_params, pgbench_build);
W(hackbench, "hackbench: storms of messages between socket or pipe pairs",
  "runs of message wakeups (IPIs) microseconds apart, a run's length growing with "
  "loops, separated by idle gaps; pipe messages cheaper than socket ones",
  "the scheduler's load balancing, the 40 tasks per group as separate entities, "
  "the run time as a figure (only the wakeup stream is modelled)",
  hackbench_params, hackbench_build);
W(mixed, "a mix of every block: timers, sleeps, bursty interrupts, IPIs",
  "a general-purpose server CPU: an application timer, lognormal sleeps, bursty "
  "device interrupts (some waking no task), IPIs",
  "any one benchmark's structure; used for speed measurements and sweeps",
  mixed_params, mixed_build);

static const struct is_workload *const all[] = {
	&idle, &ebizzy, &schbench, &pgbench, &hackbench, &mixed, NULL,
};

const struct is_workload *const *is_workloads(void)
{
	return all;
}

const struct is_workload *is_workload_find(const char *name)
{
	for (int i = 0; all[i]; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

void is_synth_header(const struct is_synth_config *cfg, const struct is_state_table *t,
		     bool latency_given, struct is_trace_header *h)
{
	g_autoptr(GString) src = g_string_new("idlesim synth --workload ");

	is_trace_header_clear(h);
	is_trace_header_init(h);
	is_trace_header_set_table(h, t);
	h->hz = cfg->hz;
	h->cpus = cfg->cpus;
	h->has_seed = true;
	h->seed = cfg->seed;
	if (cfg->rtapp) {
		/* the file as named, its digest, and what the run takes differently */
		const char *const *n = is_rtapp_notes(cfg->rtapp);
		g_autofree char *d = g_strdup_printf("# rt-app: sha256 %s",
						     is_rtapp_digest(cfg->rtapp));

		g_string_append_printf(src, "rt-app:%s", is_rtapp_file(cfg->rtapp));
		is_trace_header_add_comment(h, d);
		for (; *n; n++) {
			g_autofree char *c = NULL;
			int more = 0;

			if (h->ncomments == IS_TRACE_MAX_COMMENTS - 1 && n[1]) {
				while (n[more])
					more++;
				c = g_strdup_printf("# rt-app: %d more notes (the run prints them all)", more);
				is_trace_header_add_comment(h, c);
				break;
			}
			c = g_strdup_printf("# rt-app: %s", *n);
			is_trace_header_add_comment(h, c);
		}
	} else {
		g_string_append(src, cfg->w->name);
	}
	for (int i = 0; i < cfg->w->nparams; i++) {
		const struct is_param_desc *d = &cfg->w->params[i];

		if (d->choices)
			g_string_append_printf(src, " %s=%s", d->name, d->choices[cfg->params.v[i]]);
		else
			g_string_append_printf(src, " %s=%" G_GINT64_FORMAT, d->name, cfg->params.v[i]);
	}
	if (latency_given)
		g_string_append_printf(src, " latency_us=%" G_GINT64_FORMAT,
				       cfg->latency_req_ns / 1000);
	g_strlcpy(h->source, src->str, sizeof(h->source));
}
