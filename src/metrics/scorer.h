/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event loop's scoring internals (sim.c, metrics.c): a per-CPU scorer
 * of the table's constants and the per-CPU tally behind struct is_metrics.
 * Private to the library: the public side is idlesim/metrics.h.
 */
#ifndef IDLESIM_METRICS_SCORER_H
#define IDLESIM_METRICS_SCORER_H

#include "idlesim/metrics.h"

/*
 * Everything the scoring of one period needs that depends only on the
 * table, the disable mask and the latency limit, kept per CPU by the event
 * loop and rebuilt when one of them changes: the ideal state's candidates
 * and the per-state constants of above/below and energy.
 */
struct is_scorer {
	const struct is_state_table *t;
	uint32_t disabled;
	int64_t latency_req_ns;
	int m;                         /* ideal-state candidates */
	int64_t thr[16];               /* their target residencies, ascending,
					  then INT64_MAX */
	/* pick[n]: the answer when n candidates fit (pick[0]: none fits) */
	int8_t pick[17];
	uint32_t above_ok;             /* bit i: an enabled state shallower than i */
	uint32_t below_ok;             /* bit i: an enabled state deeper than i */
	uint32_t polling;              /* bit i: state i polls */
	int64_t residency[IS_STATE_MAX];
	int64_t delay[IS_STATE_MAX];   /* exit latency */
	int64_t below_thr[IS_STATE_MAX]; /* the first enabled deeper state's residency */
	double power[IS_STATE_MAX];
	double transition[IS_STATE_MAX];
};

void is_scorer_init(struct is_scorer *c, const struct is_state_table *t,
		    uint32_t disabled, int64_t latency_req_ns);

/* Make @c current for (t, disabled, latency_req_ns). */
static inline void is_scorer_use(struct is_scorer *c, const struct is_state_table *t,
				 uint32_t disabled, int64_t latency_req_ns)
{
	if (__builtin_expect(c->t != t || c->disabled != disabled ||
			     c->latency_req_ns != latency_req_ns, 0))
		is_scorer_init(c, t, disabled, latency_req_ns);
}

/* is_ideal_state() on a current scorer. */
static inline int is_scorer_ideal(const struct is_scorer *c, int64_t idle_ns)
{
	/*
	 * thr[] is INT64_MAX past the candidates.  Up to 7, seven independent
	 * compares: the period's score waits on this count, and the binary
	 * search's three dependent loads took longer (oracle replay +8%).
	 */
	const int64_t *r = c->thr;
	int n = c->m < 8 ? (r[0] <= idle_ns) + (r[1] <= idle_ns) + (r[2] <= idle_ns) +
			   (r[3] <= idle_ns) + (r[4] <= idle_ns) + (r[5] <= idle_ns) +
			   (r[6] <= idle_ns) :
			   is_count_le16(r, idle_ns);

	n = n < c->m ? n : c->m;
	/* a table, not a test: whether any fits is hard to predict */
	return c->pick[n];
}

/* is_ideal_state() through a scorer kept by the caller. */
static inline int is_ideal_cached(struct is_scorer *c, const struct is_state_table *t,
				  uint32_t disabled, int64_t latency_req_ns, int64_t idle_ns)
{
	is_scorer_use(c, t, disabled, latency_req_ns);
	return is_scorer_ideal(c, idle_ns);
}

/*
 * The event loop's per-CPU tally: the same information as struct
 * is_metrics in fewer counters (usage, wakeups by cause and non-timer
 * wakeups are one matrix; the three tick and sleep-length flags one
 * histogram), so that scoring a period touches fewer of them.
 * is_metrics_acc_finish() turns it into struct is_metrics.
 */
struct is_metrics_acc {
	uint64_t count[IS_STATE_MAX][IS_CAUSE_COUNT];  /* entered state x cause */
	uint64_t acc[IS_ACC_BINS];
	uint64_t flags[16];          /* stop_tick | tick_stopped << 1 | read << 2 |
					draw_used << 3 */
	uint64_t above[IS_STATE_MAX];
	uint64_t below[IS_STATE_MAX];
	int64_t time_ns[IS_STATE_MAX];
	int64_t idle_ns;
	double energy;
	uint64_t rejected[IS_STATE_MAX];   /* selected, not entered */
	uint64_t tick_assumed;             /* see struct is_metrics */
};

void is_metrics_acc_init(struct is_metrics_acc *a);
/* Overwrites @m with the tally's metrics. */
void is_metrics_acc_finish(const struct is_metrics_acc *a, struct is_metrics *m);

/*
 * Score one period into @a with a current scorer for p->disabled: the
 * event loop's path.  The energy is summed in the same order as
 * is_metrics_score(), so both give the same bits.
 */
static inline void is_metrics_acc_score(struct is_metrics_acc *a, const struct is_scorer *c,
					const struct is_period_score *p)
{
	int i = p->chosen;
	int64_t diff = p->last_residency_ns;

	a->count[i][p->cause]++;
	a->acc[IS_ACC_MID + i - p->ideal]++;
	a->flags[p->stop_tick | p->tick_stopped << 1 | p->sleep_length_read << 2 |
		 p->draw_used << 3]++;
	a->time_ns[i] += diff;
	a->idle_ns += p->idle_ns;
	a->energy += c->power[i] * (double)p->idle_ns;
	if (!(c->polling & (1u << i)))
		a->energy += c->transition[i];
	/* cpuidle_enter_state(), Linux 6.12; see is_miss_kind() */
	a->above[i] += diff < c->residency[i] && (c->above_ok & (1u << i));
	a->below[i] += diff >= c->residency[i] && diff > c->delay[i] &&
		       (c->below_ok & (1u << i)) && diff - c->delay[i] >= c->below_thr[i];
}

#endif
