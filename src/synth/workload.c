// SPDX-License-Identifier: GPL-2.0-only
/*
 * Synthetic wakeup workloads: per-CPU event generators built from a few
 * blocks, driven by one GSL generator per CPU, closed-loop through the
 * simulation's feedback.
 *
 * Per CPU the pending wakeup sources are
 *   - a periodic timer (period, uniform jitter), re-armed open-loop from its
 *     previous expiry;
 *   - a one-shot wait armed when the work after a wakeup of a chosen kind
 *     ends (a sleep re-armed after each sleep, or an I/O issued after each
 *     request whose completion interrupt ends it), so it moves with the
 *     CPU's resume time: the closed-loop part;
 *   - Poisson arrivals (device interrupts, or IPIs for bursty messaging)
 *     whose rate switches between an "on" and an "off" value after
 *     exponential sojourns (a Markov-modulated Poisson process);
 *   - IPIs from another CPU's thread, with drawn inter-arrival gaps, or
 *     from a waker: CPU 0's thread, which after each of its one-shot waits
 *     sends one IPI to every worker CPU (send_ns apart, in CPU order)
 *     once it runs, i.e. when CPU 0 resumes work;
 * and each wakeup is followed by a busy period drawn from its distribution
 * (an interrupt that wakes no task runs 2 us and leaves the tick stopped).
 * Events that fall inside a busy period are taken while busy.  After
 * `phase_ns` the sleeps, IPI gaps and timer period are scaled by
 * `phase_scale_pct` / 100 (a workload changing behaviour, for aging), for
 * good or, with `phase_every_ns`, in alternate windows of that length
 * (scaled, plain, scaled, ...).  A draw is scaled by the phase in force
 * when it is made.
 *
 * OPEN LOOP (drawn from the CPU's stream, whatever the governor does): the
 * periodic timer's expiries, interrupt and IPI arrival times, the sleep and
 * I/O durations and the busy durations.  CLOSED LOOP (through feedback):
 * when the work starts, i.e. the wakeup time plus the exit latency the
 * governor's state cost (and every tick or poll-limit re-selection the
 * simulation made on the way), hence when the next one-shot wait begins,
 * when the CPU next goes idle, and which open-loop events it sleeps
 * through or takes while busy.  Between CPUs only through a waker: its
 * messages leave when it resumes, so the exit latency of CPU 0's state
 * delays every worker's wakeup (drawn IPI streams are open-loop: their
 * sender's latency does not delay them).  A worker's idle period that the
 * waker's next message could end is produced only once that message's
 * time is known, i.e. after the waker's period that precedes it, even if
 * that one starts later: records then leave time order across CPUs
 * (is_synth_sorted restores it for trace files).  Without feedback
 * (writing a trace file) the work starts at the wakeup itself: the file
 * is an open-loop rendering.
 *
 * One gsl_rng (mt19937) per CPU seeded from (seed, cpu), and CPU roles that
 * do not depend on the CPU count: CPU 0's open-loop stream is the same
 * whether 1 or 64 CPUs are generated.
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

#include "idlesim/synth.h"
#include "expdraw.h"
#include "mt19937.h"
#include "rtapp_engine.h"

#define NEVER INT64_MAX
#define MAX_DRAW_NS 5e9  /* no single drawn duration above 5 s */

struct syn_cpu {
	gsl_rng *rng;
	struct is_synth_blocks b;
	int64_t start;          /* the next idle period starts here */
	int64_t periodic, oneshot, irq, ipi;
	bool irq_on;
	int64_t irq_switch;     /* next on/off flip */
	/* the last record's outcome, finished when the next one is asked for */
	int64_t wake, resume, busy;
	enum is_synth_src last_src; /* what ended the last idle period */
	/* dist_zeta() of the three distributions, once */
	double zeta_sleep, zeta_ipi, zeta_busy;
};

struct is_synth {
	struct is_synth_config cfg;
	int64_t tick_nsec;
	struct syn_cpu *cpu;
	int pending;            /* CPU whose last record awaits its end */
	uint64_t records;
	bool waker;             /* CPU 0 is a waker */
	int nworkers;           /* CPUs with from_waker */
	struct rt_engine *rt;   /* an rt-app program's, instead of the above */
};

/* A lognormal's zeta, log(median): computed once, the same double. */
static double dist_zeta(const struct is_dist *d)
{
	return d->kind == IS_DIST_LOGNORMAL ? log(d->a) : 0;
}

/* @zeta: dist_zeta(d). */
static double dist_draw(const struct is_dist *d, double zeta, gsl_rng *r)
{
	double v;

	switch (d->kind) {
	case IS_DIST_FIXED:
		v = d->a;
		break;
	case IS_DIST_EXP:
		v = gsl_ran_exponential(r, d->a);
		break;
	case IS_DIST_LOGNORMAL:
		v = is_rng_lognormal(r, zeta, d->b);
		break;
	case IS_DIST_PARETO:
		v = gsl_ran_pareto(r, d->b, d->a);
		break;
	case IS_DIST_UNIFORM:
		v = d->a + is_rng_uniform(r) * (d->b - d->a);
		break;
	default:
		return MAX_DRAW_NS;
	}
	if (!(v >= 0))
		v = 0;
	return v > MAX_DRAW_NS ? MAX_DRAW_NS : v;
}

static double scale(const struct syn_cpu *c, int64_t t)
{
	const struct is_synth_blocks *b = &c->b;

	if (b->phase_ns <= 0 || t < b->phase_ns)
		return 1.0;
	if (b->phase_every_ns > 0 && ((t - b->phase_ns) / b->phase_every_ns) % 2)
		return 1.0;
	return b->phase_scale_pct / 100.0;
}

double is_dist_draw(const struct is_dist *d, gsl_rng *r)
{
	return dist_draw(d, dist_zeta(d), r);
}

static int64_t draw_ns(const struct is_dist *d, double zeta, gsl_rng *r, double k)
{
	if (d->kind == IS_DIST_EXP)
		return is_exp_trunc(r, d->a, MAX_DRAW_NS, k) + 1;
	return (int64_t)(dist_draw(d, zeta, r) * k) + 1;
}

static int64_t next_periodic(struct syn_cpu *c, int64_t prev)
{
	double j = c->b.jitter_ns > 0 ? (is_rng_uniform(c->rng) * 2 - 1) * c->b.jitter_ns : 0;
	int64_t p = (int64_t)(c->b.period_ns * scale(c, prev) + j);

	return prev + (p > 1000 ? p : 1000);
}

/* Next interrupt after @t of the on/off modulated Poisson process. */
static int64_t next_irq(struct syn_cpu *c, int64_t t)
{
	const struct is_synth_blocks *b = &c->b;

	if (b->irq_on_hz <= 0 && b->irq_off_hz <= 0)
		return NEVER;
	for (int guard = 0; guard < 1000000; guard++) {
		double rate = c->irq_on ? b->irq_on_hz : b->irq_off_hz;
		int64_t cand = rate > 0 ? t + is_exp_trunc(c->rng, 1e9 / rate, INFINITY, 1) + 1 : NEVER;

		if (b->on_mean_ns <= 0 || cand < c->irq_switch)
			return cand;
		/* Memoryless: restart the draw at the flip. */
		t = c->irq_switch;
		c->irq_on = !c->irq_on;
		c->irq_switch = t + is_exp_trunc(c->rng, c->irq_on ? b->on_mean_ns : b->off_mean_ns,
						 INFINITY, 1) + 1;
	}
	return NEVER;
}

static int64_t next_ipi(struct syn_cpu *c, int64_t t)
{
	if (c->b.ipi_gap.kind == IS_DIST_NONE)
		return NEVER;
	return t + draw_ns(&c->b.ipi_gap, c->zeta_ipi, c->rng, scale(c, t));
}

static int64_t arm_oneshot(struct syn_cpu *c, int64_t t)
{
	if (c->b.sleep.kind == IS_DIST_NONE)
		return NEVER;
	return t + draw_ns(&c->b.sleep, c->zeta_sleep, c->rng, scale(c, t));
}

struct is_synth *is_synth_new(const struct is_synth_config *cfg, GError **error)
{
	struct is_synth *g;

	if (!cfg->w || cfg->cpus < 1 || cfg->cpus > IS_TRACE_MAX_CPUS || cfg->hz < 1) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "a workload needs a scenario, 1..%d CPUs and HZ >= 1", IS_TRACE_MAX_CPUS);
		return NULL;
	}
	if (cfg->rtapp) {
		struct rt_engine *rt = rt_engine_new(cfg, error);

		if (!rt)
			return NULL;
		g = g_new0(struct is_synth, 1);
		g->cfg = *cfg;
		g->rt = rt;
		return g;
	}
	g = g_new0(struct is_synth, 1);
	g->cfg = *cfg;
	g->tick_nsec = is_tick_nsec(cfg->hz);
	g->pending = -1;
	g->cpu = g_new0(struct syn_cpu, cfg->cpus);
	for (int i = 0; i < cfg->cpus; i++) {
		struct syn_cpu *c = &g->cpu[i];

		memset(&c->b, 0, sizeof(c->b));
		c->b.phase_scale_pct = 100;
		c->b.sleep_cause = IS_CAUSE_TIMER;
		c->b.mod_cause = IS_CAUSE_IRQ;
		c->b.arm_after = 1u << IS_SRC_ONESHOT;
		cfg->w->build(&cfg->params, i, &c->b);
		if (c->b.from_waker)
			c->b.ipi_gap.kind = IS_DIST_NONE;  /* only the waker's */
		c->zeta_sleep = dist_zeta(&c->b.sleep);
		c->zeta_ipi = dist_zeta(&c->b.ipi_gap);
		c->zeta_busy = dist_zeta(&c->b.busy);
		c->rng = gsl_rng_alloc(is_rng_mt19937);
		gsl_rng_set(c->rng, (unsigned long)(cfg->seed * 1000003u + (uint64_t)i));
		c->start = (int64_t)gsl_rng_uniform_int(c->rng, 100000);
		c->irq_on = true;  /* "on" first; always, without sojourns */
		c->irq_switch = c->b.on_mean_ns > 0 ?
			c->start + is_exp_trunc(c->rng, c->b.on_mean_ns, INFINITY, 1) + 1 : NEVER;
		c->periodic = c->b.period_ns > 0 ? next_periodic(c, c->start) : NEVER;
		c->oneshot = arm_oneshot(c, c->start);
		c->irq = next_irq(c, c->start);
		c->ipi = next_ipi(c, c->start);
		g->nworkers += c->b.from_waker;
	}
	g->waker = g->cpu[0].b.waker;
	if (!g->waker)
		g->nworkers = 0;
	return g;
}

void is_synth_free(struct is_synth *g)
{
	if (!g)
		return;
	rt_engine_free(g->rt);
	for (int i = 0; g->cpu && i < g->cfg.cpus; i++)
		gsl_rng_free(g->cpu[i].rng);
	g_free(g->cpu);
	g_free(g);
}

void is_synth_feedback(struct is_synth *g, int cpu, int64_t resume_ns)
{
	if (g->rt) {
		rt_engine_feedback(g->rt, cpu, resume_ns);
		return;
	}
	if (cpu == g->pending && resume_ns > g->cpu[cpu].resume)
		g->cpu[cpu].resume = resume_ns;
}

/*
 * The waker's thread runs at @t: one IPI to each worker, send_ns apart.
 * A worker busy at the arrival (its next idle period not begun) takes it
 * in its running work; one still pending keeps the earlier arrival.
 */
static void send_ipis(struct is_synth *g, int64_t t)
{
	int k = 0;

	for (int i = 1; i < g->cfg.cpus; i++) {
		struct syn_cpu *w = &g->cpu[i];
		int64_t at;

		if (!w->b.from_waker)
			continue;
		at = t + ++k * g->cpu[0].b.send_ns;
		if (at > w->start && at < w->ipi)
			w->ipi = at;
	}
}

/* The work after the last wakeup: from the resume time to the next idle. */
static void finish(struct is_synth *g, int cpu)
{
	struct syn_cpu *c = &g->cpu[cpu];
	int64_t end = c->resume + c->busy;

	if (cpu == 0 && g->waker) {
		/* the one-shot wait ended the period: the thread runs now */
		if (c->last_src == IS_SRC_ONESHOT)
			send_ipis(g, c->resume);
		/* it ended during the work: the thread runs after it */
		if (c->oneshot <= end) {
			send_ipis(g, end);
			end += g->nworkers * c->b.send_ns;
		}
	}
	while (c->irq <= end)
		c->irq = next_irq(c, c->irq);
	while (c->ipi <= end)
		c->ipi = next_ipi(c, c->ipi);
	while (c->periodic <= end)
		c->periodic = next_periodic(c, c->periodic);
	if (c->oneshot <= end) {
		/* expired while busy: consumed by the running work */
		c->oneshot = NEVER;
		c->last_src = IS_SRC_ONESHOT;
	}
	if (c->oneshot == NEVER && (c->b.arm_after & (1u << c->last_src)))
		c->oneshot = arm_oneshot(c, end);
	c->start = end;
}

int is_synth_next(struct is_synth *g, struct is_record *rec)
{
	struct syn_cpu *c;
	int64_t wake, timer;
	enum is_cause cause;
	int n = 0;

	if (g->rt)
		return rt_engine_next(g->rt, rec);
	if (g->pending >= 0)
		finish(g, g->pending);
	/* the earliest start, lowest CPU on ties; selects, not branches (random) */
	{
		int64_t best = g->cpu[0].start;

		for (int i = 1; i < g->cfg.cpus; i++) {
			const int64_t st = g->cpu[i].start;
			const bool lt = st < best;

			n = lt ? i : n;
			best = lt ? st : best;
		}
	}
	/*
	 * A worker's period may end with the waker's next IPI, which comes
	 * no earlier than the waker's one-shot expiry plus send_ns but is
	 * known only once the waker's period ending there has run: until
	 * then, unless the worker's own sources end it by that expiry, the
	 * waker's periods go first.
	 */
	if (g->waker && n != 0 && g->cpu[n].b.from_waker) {
		const struct syn_cpu *w = &g->cpu[n];
		int64_t own = w->periodic;

		own = w->oneshot < own ? w->oneshot : own;
		own = w->irq < own ? w->irq : own;
		own = w->ipi < own ? w->ipi : own;
		if (own == NEVER)
			own = w->start + (int64_t)MAX_DRAW_NS;
		if (own > g->cpu[0].oneshot)
			n = 0;
	}
	c = &g->cpu[n];
	/* The earliest source ends the period; ties go to the timer. */
	wake = c->periodic;
	cause = IS_CAUSE_TIMER;
	if (c->oneshot < wake) {
		wake = c->oneshot;
		cause = c->b.sleep_cause;
	}
	if (c->irq < wake) {
		wake = c->irq;
		cause = c->b.mod_cause;
	}
	if (c->ipi < wake) {
		wake = c->ipi;
		cause = IS_CAUSE_IPI;
	}
	if (wake == NEVER) {
		cause = IS_CAUSE_TIMER;
		wake = c->start + (int64_t)MAX_DRAW_NS;
	}
	/* What tick_nohz_get_sleep_length() sees: the timers, not interrupts. */
	timer = c->periodic;
	if (c->b.sleep_cause == IS_CAUSE_TIMER && c->oneshot < timer)
		timer = c->oneshot;
	if (timer == NEVER)
		timer = c->start + (int64_t)MAX_DRAW_NS;
	*rec = (struct is_record){ .kind = IS_REC_IDLE, .cpu = (uint16_t)n, .cause = (uint8_t)cause };
	rec->t_ns = c->start;
	rec->sleep_ns = timer - c->start;
	rec->tick_ns = (c->start / g->tick_nsec + 1) * g->tick_nsec - c->start;
	rec->lat_ns = g->cfg.latency_req_ns;
	rec->idle_ns = wake - c->start;
	c->busy = draw_ns(&c->b.busy, c->zeta_busy, c->rng, 1.0);
	if (wake == c->periodic) {
		c->last_src = IS_SRC_PERIODIC;
		c->periodic = next_periodic(c, wake);
		if (c->b.timer_busy_ns > 0)
			c->busy = c->b.timer_busy_ns;
	} else if (wake == c->oneshot) {
		c->last_src = IS_SRC_ONESHOT;
		c->oneshot = NEVER;
		if (n == 0 && g->waker)
			c->busy += g->nworkers * c->b.send_ns;
	} else if (wake == c->irq) {
		c->last_src = IS_SRC_MODULATED;
		c->irq = next_irq(c, wake);
		if (is_rng_uniform(c->rng) < c->b.nowork_share) {
			rec->flags |= IS_F_NOWORK;
			c->busy = 2000;
		}
	} else if (wake == c->ipi) {
		c->last_src = IS_SRC_IPI;
		c->ipi = next_ipi(c, wake);
		if (c->b.ipi_busy_ns > 0)
			c->busy = c->b.ipi_busy_ns;
		if (c->b.ipi_nowork)
			rec->flags |= IS_F_NOWORK;
	} else {
		c->last_src = IS_SRC_PERIODIC;  /* nothing pending: a 5 s housekeeping wakeup */
	}
	c->wake = c->resume = wake;
	g->pending = n;
	g->records++;
	return 1;
}

static int synth_next(void *ctx, struct is_record *rec, GError **error)
{
	const int n = is_synth_next(ctx, rec);

	if (n < 0)
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "%s", is_synth_error(ctx));
	return n;
}

static void synth_feedback(void *ctx, int cpu, int64_t resume_ns)
{
	is_synth_feedback(ctx, cpu, resume_ns);
}

void is_source_from_synth(struct is_source *src, struct is_synth *g)
{
	src->ctx = g;
	src->next = synth_next;
	src->next_batch = NULL;
	src->feedback = synth_feedback;
}

const char *is_synth_error(const struct is_synth *g)
{
	return g->rt ? rt_engine_error(g->rt) : NULL;
}

void is_synth_set_horizon(struct is_synth *g, int64_t until_ns)
{
	if (g->rt)
		rt_engine_set_horizon(g->rt, until_ns);
}

static int bounded_next(void *ctx, struct is_record *rec, GError **error)
{
	struct is_synth_bounded *b = ctx;

	if (b->periods && b->n >= b->periods)
		return 0;
	if (b->until_ns > 0)
		is_synth_set_horizon(b->g, b->until_ns);
	for (;;) {
		const int n = is_synth_next(b->g, rec);

		if (n < 0) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "%s", is_synth_error(b->g));
			return -1;
		}
		if (!n)
			return 0;
		if (b->until_ns <= 0 || rec->t_ns < b->until_ns)
			break;
		/* past the end: done once every CPU is */
		if (is_synth_min_start(b->g) >= b->until_ns)
			return 0;
	}
	b->n++;
	return 1;
}

static void bounded_feedback(void *ctx, int cpu, int64_t resume_ns)
{
	is_synth_feedback(((struct is_synth_bounded *)ctx)->g, cpu, resume_ns);
}

void is_source_from_synth_bounded(struct is_source *src, struct is_synth_bounded *b)
{
	src->ctx = b;
	src->next = bounded_next;
	src->next_batch = NULL;
	src->feedback = bounded_feedback;
}

uint64_t is_synth_records(const struct is_synth *g)
{
	return g->rt ? rt_engine_records(g->rt) : g->records;
}

int64_t is_synth_min_start(const struct is_synth *g)
{
	int64_t m;

	if (g->rt)
		return rt_engine_min_start(g->rt);
	m = g->cpu[0].start;

	for (int i = 1; i < g->cfg.cpus; i++)
		m = g->cpu[i].start < m ? g->cpu[i].start : m;
	return m;
}

/* ---- records in time order -------------------------------------------- */

struct sorted_ent {
	struct is_record rec;
	uint64_t seq;
};

struct is_synth_sorted {
	struct is_synth_bounded *b;
	GArray *heap;           /* struct sorted_ent, a binary min-heap */
	uint64_t seq;
	bool done;              /* the source has ended */
};

static bool ent_less(const struct sorted_ent *x, const struct sorted_ent *y)
{
	return x->rec.t_ns < y->rec.t_ns || (x->rec.t_ns == y->rec.t_ns && x->seq < y->seq);
}

static void heap_push(GArray *h, const struct sorted_ent *e)
{
	size_t i = h->len;

	g_array_append_val(h, *e);
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct sorted_ent *a = &g_array_index(h, struct sorted_ent, i);
		struct sorted_ent *pa = &g_array_index(h, struct sorted_ent, p);
		struct sorted_ent t;

		if (!ent_less(a, pa))
			break;
		t = *a;
		*a = *pa;
		*pa = t;
		i = p;
	}
}

static void heap_pop(GArray *h, struct sorted_ent *out)
{
	size_t i = 0, n;

	*out = g_array_index(h, struct sorted_ent, 0);
	g_array_index(h, struct sorted_ent, 0) = g_array_index(h, struct sorted_ent, h->len - 1);
	g_array_set_size(h, h->len - 1);
	n = h->len;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct sorted_ent t;

		if (l < n && ent_less(&g_array_index(h, struct sorted_ent, l),
				      &g_array_index(h, struct sorted_ent, m)))
			m = l;
		if (r < n && ent_less(&g_array_index(h, struct sorted_ent, r),
				      &g_array_index(h, struct sorted_ent, m)))
			m = r;
		if (m == i)
			break;
		t = g_array_index(h, struct sorted_ent, i);
		g_array_index(h, struct sorted_ent, i) = g_array_index(h, struct sorted_ent, m);
		g_array_index(h, struct sorted_ent, m) = t;
		i = m;
	}
}

struct is_synth_sorted *is_synth_sorted_new(struct is_synth_bounded *b)
{
	struct is_synth_sorted *s = g_new0(struct is_synth_sorted, 1);

	s->b = b;
	s->heap = g_array_new(FALSE, FALSE, sizeof(struct sorted_ent));
	return s;
}

void is_synth_sorted_free(struct is_synth_sorted *s)
{
	if (!s)
		return;
	g_array_unref(s->heap);
	g_free(s);
}

/*
 * Records start where their CPU's next period starts, and those starts
 * only grow: a record no later than the earliest of them precedes every
 * record still to come.
 */
int is_synth_sorted_next(struct is_synth_sorted *s, struct is_record *rec)
{
	struct sorted_ent e;

	while (!s->done &&
	       (s->heap->len == 0 ||
		g_array_index(s->heap, struct sorted_ent, 0).rec.t_ns >
			is_synth_min_start(s->b->g))) {
		const int n = bounded_next(s->b, &e.rec, NULL);

		if (n < 0)
			return -1;
		if (n == 0) {
			s->done = true;
			break;
		}
		e.seq = s->seq++;
		heap_push(s->heap, &e);
	}
	if (s->heap->len == 0)
		return 0;
	heap_pop(s->heap, &e);
	*rec = e.rec;
	return 1;
}
