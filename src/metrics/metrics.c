// SPDX-License-Identifier: GPL-2.0-only
/*
 * Metrics.  above/below follow cpuidle_enter_state() of Linux 6.12
 * (drivers/cpuidle/cpuidle.c); the accuracy distribution follows the 2020
 * weighted-TEO RFC cover letter: the ideal state of a period is the
 * deepest enabled state whose target residency does not exceed the idle
 * duration and whose exit latency is within the latency limit; "US k"
 * means the chosen state is k indices deeper, "OS k" k indices shallower.
 */
#include <math.h>
#include <string.h>

#include "idlesim/metrics.h"
#include "scorer.h"

void is_metrics_init(struct is_metrics *m)
{
	memset(m, 0, sizeof(*m));
}

void is_metrics_add(struct is_metrics *d, const struct is_metrics *s)
{
	d->selections += s->selections;
	for (int i = 0; i < IS_ACC_BINS; i++)
		d->acc[i] += s->acc[i];
	for (int i = 0; i < IS_STATE_MAX; i++) {
		d->usage[i] += s->usage[i];
		d->above[i] += s->above[i];
		d->below[i] += s->below[i];
		d->time_ns[i] += s->time_ns[i];
		d->nt_wakeups[i] += s->nt_wakeups[i];
		d->rejected[i] += s->rejected[i];
	}
	for (int i = 0; i < IS_CAUSE_COUNT; i++)
		d->wakeups[i] += s->wakeups[i];
	d->tick_stops += s->tick_stops;
	d->tick_stop_requests += s->tick_stop_requests;
	d->sleep_length_reads += s->sleep_length_reads;
	d->random_draws += s->random_draws;
	d->energy += s->energy;
	d->idle_ns += s->idle_ns;
	d->tick_assumed += s->tick_assumed;
}

/* Number of states i with key(i) <= v; keys non-decreasing in i. */
#define COUNT_LE(t, field, v) ({ \
	int base_ = 0, len_ = (t)->count; \
	while (len_ > 1) { \
		int half_ = len_ / 2; \
		base_ = (t)->s[base_ + half_].field <= (v) ? base_ + half_ : base_; \
		len_ -= half_; \
	} \
	base_ + ((t)->s[base_].field <= (v)); })

int is_ideal_state(const struct is_state_table *t, uint32_t disabled,
		   int64_t latency_req_ns, int64_t idle_ns)
{
	/*
	 * Tables are ordered by exit latency and target residency
	 * (is_states_validate), so the states that fit the idle time and the
	 * latency limit form a prefix; the answer is its deepest enabled state.
	 * Branch-free binary searches: random idle times would mispredict a
	 * linear search, and this runs twice per period with the oracle.
	 */
	uint32_t enabled = ~disabled & ((1u << t->count) - 1), fit;
	int n = COUNT_LE(t, target_residency_ns, idle_ns);

	if (G_UNLIKELY(t->s[t->count - 1].exit_latency_ns > latency_req_ns)) {
		int l = COUNT_LE(t, exit_latency_ns, latency_req_ns);

		n = l < n ? l : n;
	}
	fit = enabled & ((1u << n) - 1);
	if (G_LIKELY(fit))
		return 31 - __builtin_clz(fit);
	/* Nothing fits: the shallowest enabled state (0 if all are off). */
	return enabled ? __builtin_ctz(enabled) : 0;
}

void is_scorer_init(struct is_scorer *c, const struct is_state_table *t,
		    uint32_t disabled, int64_t latency_req_ns)
{
	uint32_t enabled = ~disabled & ((1u << t->count) - 1);

	memset(c, 0, sizeof(*c));
	c->t = t;
	c->disabled = disabled;
	c->latency_req_ns = latency_req_ns;
	c->pick[0] = (int8_t)(enabled ? __builtin_ctz(enabled) : 0);
	/* is_count_le16() searches all 16; the unused tail is INT64_MAX */
	G_STATIC_ASSERT(G_N_ELEMENTS(c->thr) == 16 && IS_STATE_MAX < 16);
	for (int i = 0; i < 16; i++)
		c->thr[i] = INT64_MAX;
	for (int i = 0; i < t->count; i++) {
		uint32_t deeper = enabled & ~((2u << i) - 1);

		c->residency[i] = t->s[i].target_residency_ns;
		c->delay[i] = t->s[i].exit_latency_ns;
		c->power[i] = t->s[i].power;
		c->transition[i] = t->s[i].transition_energy;
		if (t->s[i].flags & IS_STATE_POLLING)
			c->polling |= 1u << i;
		if (enabled & ((1u << i) - 1))
			c->above_ok |= 1u << i;
		if (deeper) {
			c->below_ok |= 1u << i;
			c->below_thr[i] = t->s[__builtin_ctz(deeper)].target_residency_ns;
		}
		if (!(enabled & (1u << i)) || t->s[i].exit_latency_ns > latency_req_ns)
			continue;
		c->thr[c->m] = t->s[i].target_residency_ns;
		c->m++;
		c->pick[c->m] = (int8_t)i;
	}
}

/*
 * cpuidle_enter_state(), Linux 6.12: "above" if any shallower state is
 * enabled; "below" if the first enabled deeper state's target residency
 * fits in diff - delay.  Same result as the kernel's loops.
 */
static inline enum is_miss miss_kind(const struct is_state_table *t, uint32_t disabled,
				     int i, int64_t diff)
{
	uint32_t enabled = ~disabled & ((1u << t->count) - 1);
	int64_t delay = t->s[i].exit_latency_ns;

	if (diff < t->s[i].target_residency_ns)
		return (enabled & ((1u << i) - 1)) ? IS_MISS_ABOVE : IS_MISS_NONE;
	if (diff > delay) {
		uint32_t deeper = enabled & ~((2u << i) - 1);

		if (deeper && diff - delay >= t->s[__builtin_ctz(deeper)].target_residency_ns)
			return IS_MISS_BELOW;
	}
	return IS_MISS_NONE;
}

enum is_miss is_miss_kind(const struct is_state_table *t, uint32_t disabled, int i,
			  int64_t diff)
{
	return miss_kind(t, disabled, i, diff);
}

void is_metrics_acc_init(struct is_metrics_acc *a)
{
	memset(a, 0, sizeof(*a));
}

void is_metrics_acc_finish(const struct is_metrics_acc *a, struct is_metrics *m)
{
	is_metrics_init(m);
	for (int i = 0; i < IS_STATE_MAX; i++) {
		for (int k = 0; k < IS_CAUSE_COUNT; k++) {
			m->usage[i] += a->count[i][k];
			m->wakeups[k] += a->count[i][k];
		}
		m->nt_wakeups[i] = a->count[i][IS_CAUSE_IRQ] + a->count[i][IS_CAUSE_IPI];
		m->selections += m->usage[i];
		m->above[i] = a->above[i];
		m->below[i] = a->below[i];
		m->time_ns[i] = a->time_ns[i];
		m->rejected[i] = a->rejected[i];
	}
	for (int i = 0; i < IS_ACC_BINS; i++)
		m->acc[i] = a->acc[i];
	for (unsigned f = 0; f < G_N_ELEMENTS(a->flags); f++) {
		m->tick_stop_requests += (f & 1) ? a->flags[f] : 0;
		m->tick_stops += (f & 2) ? a->flags[f] : 0;
		m->sleep_length_reads += (f & 4) ? a->flags[f] : 0;
		m->random_draws += (f & 8) ? a->flags[f] : 0;
	}
	m->energy = a->energy;
	m->idle_ns = a->idle_ns;
	m->tick_assumed = a->tick_assumed;
}

void is_metrics_score(struct is_metrics *m, const struct is_state_table *t,
		      const struct is_period_score *p)
{
	int i = p->chosen;
	int64_t diff = p->last_residency_ns;

	m->selections++;
	m->acc[IS_ACC_MID + i - p->ideal]++;
	m->usage[i]++;
	m->time_ns[i] += diff;
	m->idle_ns += p->idle_ns;
	m->wakeups[p->cause]++;
	m->nt_wakeups[i] += p->cause == IS_CAUSE_IRQ || p->cause == IS_CAUSE_IPI;
	m->tick_stop_requests += p->stop_tick;
	m->tick_stops += p->tick_stopped;
	m->sleep_length_reads += p->sleep_length_read;
	m->random_draws += p->draw_used;
	m->energy += t->s[i].power * (double)p->idle_ns;
	if (!(t->s[i].flags & IS_STATE_POLLING))
		m->energy += t->s[i].transition_energy;
	switch (miss_kind(t, p->disabled, i, diff)) {
	case IS_MISS_ABOVE:
		m->above[i]++;
		break;
	case IS_MISS_BELOW:
		m->below[i]++;
		break;
	default:
		break;
	}
}

static int64_t percentile(const struct is_metrics *m, const struct is_state_table *t,
			  uint64_t n, double q)
{
	/* Nearest-rank: the smallest latency covering ceil(q * n) wakeups. */
	uint64_t rank = (uint64_t)ceil(q * (double)n), acc = 0;
	int64_t best = 0;

	if (rank == 0)
		rank = 1;
	/* Exit latencies are non-decreasing with the index. */
	for (int i = 0; i < t->count; i++) {
		acc += m->nt_wakeups[i];
		if (m->nt_wakeups[i])
			best = t->s[i].exit_latency_ns;
		if (acc >= rank)
			return best;
	}
	return best;
}

void is_metrics_latency(const struct is_metrics *m, const struct is_state_table *t,
			struct is_latency_summary *out)
{
	uint64_t n = 0;
	double sum = 0;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < t->count; i++) {
		n += m->nt_wakeups[i];
		sum += (double)m->nt_wakeups[i] * (double)t->s[i].exit_latency_ns;
		if (m->nt_wakeups[i])
			out->max_ns = t->s[i].exit_latency_ns;
	}
	out->count = n;
	if (!n)
		return;
	out->mean_ns = sum / (double)n;
	out->p50_ns = percentile(m, t, n, 0.50);
	out->p99_ns = percentile(m, t, n, 0.99);
}
