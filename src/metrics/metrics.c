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
	}
	for (int i = 0; i < IS_CAUSE_COUNT; i++)
		d->wakeups[i] += s->wakeups[i];
	d->tick_stops += s->tick_stops;
	d->tick_stop_requests += s->tick_stop_requests;
	d->sleep_length_reads += s->sleep_length_reads;
	d->energy += s->energy;
	d->idle_ns += s->idle_ns;
}

int is_ideal_state(const struct is_state_table *t, uint32_t disabled,
		   int64_t latency_req_ns, int64_t idle_ns)
{
	int idx = -1, first = -1;

	for (int i = 0; i < t->count; i++) {
		if (disabled & (1u << i))
			continue;
		if (first < 0)
			first = i;
		/* Tables are ordered by exit latency (is_states_validate). */
		if (t->s[i].exit_latency_ns > latency_req_ns)
			break;
		if (t->s[i].target_residency_ns <= idle_ns)
			idx = i;
	}
	if (idx >= 0)
		return idx;
	return first >= 0 ? first : 0;
}

void is_metrics_score(struct is_metrics *m, const struct is_state_table *t,
		      const struct is_period_score *p)
{
	int i = p->chosen;
	int ideal = is_ideal_state(t, p->disabled, p->latency_req_ns, p->ideal_idle_ns);
	int64_t diff = p->last_residency_ns, delay = t->s[i].exit_latency_ns;

	m->selections++;
	m->acc[IS_ACC_MID + i - ideal]++;
	m->usage[i]++;
	m->time_ns[i] += diff;
	m->idle_ns += p->idle_ns;
	m->wakeups[p->cause]++;
	if (p->cause == IS_CAUSE_IRQ || p->cause == IS_CAUSE_IPI)
		m->nt_wakeups[i]++;
	m->tick_stop_requests += p->stop_tick;
	m->tick_stops += p->tick_stopped;
	m->sleep_length_reads += p->sleep_length_read;
	m->energy += t->s[i].power * (double)p->idle_ns;
	if (!(t->s[i].flags & IS_STATE_POLLING))
		m->energy += t->s[i].transition_energy;

	/* cpuidle_enter_state(), Linux 6.12: the above/below counters. */
	if (diff < t->s[i].target_residency_ns) {
		for (int j = i - 1; j >= 0; j--) {
			if (p->disabled & (1u << j))
				continue;
			m->above[i]++;
			break;
		}
	} else if (diff > delay) {
		for (int j = i + 1; j < t->count; j++) {
			if (p->disabled & (1u << j))
				continue;
			if (diff - delay >= t->s[j].target_residency_ns)
				m->below[i]++;
			break;
		}
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
