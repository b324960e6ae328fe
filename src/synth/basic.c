// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "basic" open-loop workload: each CPU alternates busy and idle.  An
 * idle period ends at the earliest of its re-armed timer, the next device
 * interrupt and the next IPI; nothing here depends on governor choices.
 * One gsl_rng (mt19937) per CPU, seeded from (seed, cpu), so a CPU's stream
 * does not depend on how many CPUs are generated.
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

#include "idlesim/synth.h"
#include "expdraw.h"
#include "mt19937.h"

struct basic_cpu {
	gsl_rng *rng;
	int64_t t;          /* start of the next idle period */
	int64_t timer;      /* absolute expiry of the armed timer */
	int64_t irq, ipi;   /* absolute times of the next interrupts */
};

struct is_basic_gen {
	struct is_basic_params p;
	double sleep_zeta;  /* log(p.sleep_median_ns), once */
	int64_t tick_nsec;
	struct basic_cpu *cpu;
};

void is_basic_params_default(struct is_basic_params *p)
{
	*p = (struct is_basic_params){
		.cpus = 2,
		.hz = 100,
		.seed = 1,
		.sleep_median_ns = 400000,
		.sleep_sigma = 2.0,
		.irq_rate_hz = 300,
		.ipi_rate_hz = 200,
		.busy_mean_ns = 30000,
		.nowork_share = 0.3,
		.latency_req_ns = 2147483647000LL,
	};
}

static int64_t draw_exp(gsl_rng *r, double rate_hz)
{
	if (rate_hz <= 0)
		return INT64_MAX / 4;
	return is_exp_trunc(r, 1e9 / rate_hz, INFINITY, 1) + 1;
}

static int64_t draw_sleep(struct is_basic_gen *g, gsl_rng *r)
{
	/*
	 * GSL's own lognormal (polar method), not is_rng_lognormal()'s
	 * ziggurat: this generator makes the bundled sample traces, which
	 * must come out the same (test-samples.sh) and whose replays are the
	 * governors' golden digests.
	 */
	double v = gsl_ran_lognormal(r, g->sleep_zeta, g->p.sleep_sigma);

	return v > 5e9 ? (int64_t)5e9 : (int64_t)v + 1;
}

struct is_basic_gen *is_basic_new(const struct is_basic_params *p)
{
	struct is_basic_gen *g = g_new0(struct is_basic_gen, 1);

	g->p = *p;
	g->sleep_zeta = log(p->sleep_median_ns);
	g->tick_nsec = is_tick_nsec(p->hz);
	g->cpu = g_new0(struct basic_cpu, p->cpus);
	for (int i = 0; i < p->cpus; i++) {
		struct basic_cpu *c = &g->cpu[i];

		c->rng = gsl_rng_alloc(is_rng_mt19937);
		gsl_rng_set(c->rng, (unsigned long)(p->seed * 1000003u + (uint64_t)i));
		c->t = (int64_t)gsl_rng_uniform_int(c->rng, 100000);
		c->timer = c->t + draw_sleep(g, c->rng);
		c->irq = c->t + draw_exp(c->rng, p->irq_rate_hz);
		c->ipi = c->t + draw_exp(c->rng, p->ipi_rate_hz);
	}
	return g;
}

void is_basic_free(struct is_basic_gen *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->p.cpus; i++)
		gsl_rng_free(g->cpu[i].rng);
	g_free(g->cpu);
	g_free(g);
}

int is_basic_next(struct is_basic_gen *g, struct is_record *rec)
{
	int n = 0;
	struct basic_cpu *c;
	int64_t wake, busy;

	for (int i = 1; i < g->p.cpus; i++)
		if (g->cpu[i].t < g->cpu[n].t)
			n = i;
	c = &g->cpu[n];
	*rec = (struct is_record){ .kind = IS_REC_IDLE, .cpu = (uint16_t)n };
	rec->t_ns = c->t;
	rec->sleep_ns = c->timer - c->t;
	/* Ticks at multiples of TICK_NSEC since time 0. */
	rec->tick_ns = (c->t / g->tick_nsec + 1) * g->tick_nsec - c->t;
	rec->lat_ns = g->p.latency_req_ns;
	wake = c->timer;
	rec->cause = IS_CAUSE_TIMER;
	if (c->irq < wake) {
		wake = c->irq;
		rec->cause = IS_CAUSE_IRQ;
	}
	if (c->ipi < wake) {
		wake = c->ipi;
		rec->cause = IS_CAUSE_IPI;
	}
	rec->idle_ns = wake - c->t;
	busy = is_exp_trunc(c->rng, g->p.busy_mean_ns, INFINITY, 1);
	if (rec->cause == IS_CAUSE_TIMER) {
		c->timer = wake + busy + draw_sleep(g, c->rng);
	} else if (rec->cause == IS_CAUSE_IRQ) {
		c->irq = wake + draw_exp(c->rng, g->p.irq_rate_hz);
		if (is_rng_uniform(c->rng) < g->p.nowork_share) {
			rec->flags |= IS_F_NOWORK;
			busy = 2000;
		}
	} else {
		c->ipi = wake + draw_exp(c->rng, g->p.ipi_rate_hz);
	}
	c->t = wake + busy;
	/* Interrupts that fell inside the busy period are taken while busy. */
	while (c->irq <= c->t)
		c->irq += draw_exp(c->rng, g->p.irq_rate_hz);
	while (c->ipi <= c->t)
		c->ipi += draw_exp(c->rng, g->p.ipi_rate_hz);
	if (c->timer <= c->t)
		c->timer = c->t + draw_sleep(g, c->rng);
	return 1;
}

static int basic_next(void *ctx, struct is_record *rec, GError **error)
{
	(void)error;
	return is_basic_next(ctx, rec);
}

void is_source_from_basic(struct is_source *src, struct is_basic_gen *g)
{
	src->ctx = g;
	src->next = basic_next;
	src->next_batch = NULL;
	src->feedback = NULL;
}
