// SPDX-License-Identifier: GPL-2.0-only
/*
 * DOC: teo-5.7 - Timer Events Oriented governor as in Linux v5.7
 *
 * The baseline of the 2020 weighted-TEO RFC.  Follows
 * drivers/cpuidle/governors/teo.c of v5.7: teo_update(), teo_time_ok(),
 * teo_find_shallower_state(), teo_select(), teo_reflect(),
 * teo_enable_device().
 *
 * Per state: "hits" (the measured idle duration fell in the same state's
 * range as the sleep length), "misses" (it did not) and "early hits" (the
 * shallower state it fell in instead), decaying by 1/2^DECAY_SHIFT and
 * growing by PULSE.  Selection takes the deepest state within the sleep
 * length (always queried in 5.7), falls back to the state with the most
 * early hits when hits <= misses, then looks at the last INTERVALS idle
 * durations: if more than half are below the expected duration, their
 * average picks a shallower state.
 *
 * v5.7 arithmetic: times are u64, so a negative sleep length wraps to a
 * huge value; intervals[] start at U64_MAX and every wakeup's measured
 * value (U64_MAX included) is stored; the average is a u64 division.  The
 * "intervals" param sets the history size (default 8, as v5.7) for the
 * cover letter's 8/16/32/64/128 experiment; "count > INTERVALS / 2" uses
 * the param.
 */
#include <string.h>

#include "governors.h"

#define TEO57_MAX_INTERVALS 1024

enum { P_PULSE, P_DECAY_SHIFT, P_INTERVALS };

static const struct is_param_desc teo57_params[] = {
	[P_PULSE] = { "pulse", "PULSE: metric increment", 1024, 1, 1 << 20, NULL },
	[P_DECAY_SHIFT] = { "decay_shift", "DECAY_SHIFT: metrics decay by 1/2^n", 3, 1, 31, NULL },
	[P_INTERVALS] = { "intervals", "INTERVALS: idle durations kept for pattern detection",
			  8, 1, TEO57_MAX_INTERVALS, NULL },
};

struct teo_idle_state {
	unsigned int early_hits;
	unsigned int hits;
	unsigned int misses;
};

struct teo_cpu {
	uint64_t time_span_ns;
	uint64_t sleep_length_ns;
	struct teo_idle_state states[IS_STATE_MAX];
	int interval_idx;
	int last_state_idx;  /* dev->last_state_idx */
	uint64_t intervals[TEO57_MAX_INTERVALS];
};

static void teo_update(struct teo_cpu *cpu_data, const struct is_gov_env *env)
{
	const struct is_state_table *drv = env->drv;
	const unsigned int pulse = (unsigned int)env->params->v[P_PULSE];
	const int shift = (int)env->params->v[P_DECAY_SHIFT];
	const int nintervals = (int)env->params->v[P_INTERVALS];
	int i, idx_hit = -1, idx_timer = -1;
	uint64_t measured_ns;

	if (cpu_data->time_span_ns >= cpu_data->sleep_length_ns) {
		measured_ns = UINT64_MAX;
	} else {
		uint64_t lat_ns = (uint64_t)drv->s[cpu_data->last_state_idx].exit_latency_ns;

		measured_ns = (uint64_t)env->last_residency_ns;
		if (measured_ns >= lat_ns)
			measured_ns -= lat_ns / 2;
		else
			measured_ns /= 2;
	}

	for (i = 0; i < drv->count; i++) {
		unsigned int early_hits = cpu_data->states[i].early_hits;

		cpu_data->states[i].early_hits -= early_hits >> shift;

		/* s64 <= u64: compared as u64 */
		if ((uint64_t)drv->s[i].target_residency_ns <= cpu_data->sleep_length_ns) {
			idx_timer = i;
			if ((uint64_t)drv->s[i].target_residency_ns <= measured_ns)
				idx_hit = i;
		}
	}

	if (idx_timer >= 0) {
		unsigned int hits = cpu_data->states[idx_timer].hits;
		unsigned int misses = cpu_data->states[idx_timer].misses;

		hits -= hits >> shift;
		misses -= misses >> shift;

		if (idx_timer > idx_hit) {
			misses += pulse;
			if (idx_hit >= 0)
				cpu_data->states[idx_hit].early_hits += pulse;
		} else {
			hits += pulse;
		}

		cpu_data->states[idx_timer].misses = misses;
		cpu_data->states[idx_timer].hits = hits;
	}

	cpu_data->intervals[cpu_data->interval_idx++] = measured_ns;
	if (cpu_data->interval_idx >= nintervals)
		cpu_data->interval_idx = 0;
}

static bool teo_time_ok(const struct is_gov_env *env, const struct is_gov_call *c,
			uint64_t interval_ns)
{
	return !c->tick_stopped || interval_ns >= (uint64_t)env->tick_nsec;
}

static int teo_find_shallower_state(const struct is_gov_env *env, int state_idx,
				    uint64_t duration_ns)
{
	int i;

	for (i = state_idx - 1; i >= 0; i--) {
		if (is_disabled(env, i))
			continue;

		state_idx = i;
		if ((uint64_t)env->drv->s[i].target_residency_ns <= duration_ns)
			break;
	}
	return state_idx;
}

static int teo_select(void *st, const struct is_gov_env *env, struct is_gov_call *call,
		      bool *stop_tick)
{
	struct teo_cpu *cpu_data = st;
	const struct is_state_table *drv = env->drv;
	const int nintervals = (int)env->params->v[P_INTERVALS];
	int64_t latency_req = call->latency_req_ns;
	uint64_t duration_ns;
	unsigned int hits, misses, early_hits;
	int max_early_idx, prev_max_early_idx, constraint_idx, idx, i;
	int64_t delta_tick;

	if (cpu_data->last_state_idx >= 0) {
		teo_update(cpu_data, env);
		cpu_data->last_state_idx = -1;
	}

	cpu_data->time_span_ns = (uint64_t)call->now_ns;

	/* ktime_t into u64: a negative sleep length becomes huge */
	duration_ns = (uint64_t)is_gov_sleep_length(call, &delta_tick);
	cpu_data->sleep_length_ns = duration_ns;

	hits = 0;
	misses = 0;
	early_hits = 0;
	max_early_idx = -1;
	prev_max_early_idx = -1;
	constraint_idx = drv->count;
	idx = -1;

	for (i = 0; i < drv->count; i++) {
		const struct is_state *s = &drv->s[i];

		if (is_disabled(env, i)) {
			if ((uint64_t)s->target_residency_ns > duration_ns)
				continue;

			hits = cpu_data->states[i].hits;
			misses = cpu_data->states[i].misses;

			if (early_hits >= cpu_data->states[i].early_hits || idx < 0)
				continue;

			if (max_early_idx == idx) {
				early_hits = cpu_data->states[i].early_hits;
				continue;
			}

			if (teo_time_ok(env, call, (uint64_t)drv->s[idx].target_residency_ns)) {
				prev_max_early_idx = max_early_idx;
				early_hits = cpu_data->states[i].early_hits;
				max_early_idx = idx;
			}

			continue;
		}

		if (idx < 0) {
			idx = i;
			hits = cpu_data->states[i].hits;
			misses = cpu_data->states[i].misses;
		}

		if ((uint64_t)s->target_residency_ns > duration_ns)
			break;

		if (s->exit_latency_ns > latency_req && constraint_idx > i)
			constraint_idx = i;

		idx = i;
		hits = cpu_data->states[i].hits;
		misses = cpu_data->states[i].misses;

		if (early_hits < cpu_data->states[i].early_hits &&
		    teo_time_ok(env, call, (uint64_t)drv->s[i].target_residency_ns)) {
			prev_max_early_idx = max_early_idx;
			early_hits = cpu_data->states[i].early_hits;
			max_early_idx = i;
		}
	}

	if (hits <= misses) {
		if (idx == max_early_idx)
			max_early_idx = prev_max_early_idx;

		if (max_early_idx >= 0) {
			idx = max_early_idx;
			duration_ns = (uint64_t)drv->s[idx].target_residency_ns;
		}
	}

	if (constraint_idx < idx)
		idx = constraint_idx;

	if (idx < 0) {
		idx = 0;
	} else if (idx > 0) {
		unsigned int count = 0;
		uint64_t sum = 0;

		for (i = 0; i < nintervals; i++) {
			uint64_t val = cpu_data->intervals[i];

			if (val >= duration_ns)
				continue;

			count++;
			sum += val;
		}

		if (count > (unsigned int)(nintervals / 2)) {
			uint64_t avg_ns = sum / count;

			if (teo_time_ok(env, call, avg_ns)) {
				duration_ns = avg_ns;
				if ((uint64_t)drv->s[idx].target_residency_ns > avg_ns)
					idx = teo_find_shallower_state(env, idx, avg_ns);
			}
		}
	}

	if (((drv->s[idx].flags & IS_STATE_POLLING) ||
	     duration_ns < (uint64_t)env->tick_nsec) && !call->tick_stopped) {
		*stop_tick = false;

		if (idx > 0 && drv->s[idx].target_residency_ns > delta_tick)
			idx = teo_find_shallower_state(env, idx, (uint64_t)delta_tick);
	}

	return idx;
}

static void teo_reflect(void *st, const struct is_gov_env *env, const struct is_gov_wake *w)
{
	struct teo_cpu *cpu_data = st;

	cpu_data->last_state_idx = w->entered;
	if (w->poll_time_limit ||
	    (w->got_tick && cpu_data->sleep_length_ns > (uint64_t)env->tick_nsec))
		cpu_data->time_span_ns = cpu_data->sleep_length_ns;
	else
		cpu_data->time_span_ns = (uint64_t)w->now_ns - cpu_data->time_span_ns;
}

static int teo_enable_device(void *st, const struct is_gov_env *env)
{
	struct teo_cpu *cpu_data = st;

	(void)env;
	memset(cpu_data, 0, sizeof(*cpu_data));
	for (int i = 0; i < TEO57_MAX_INTERVALS; i++)
		cpu_data->intervals[i] = UINT64_MAX;
	return 0;
}

const struct is_governor is_gov_teo57 = {
	.name = "teo-5.7",
	.description = "Linux v5.7 TEO, the weighted-TEO RFC's baseline",
	.state_size = sizeof(struct teo_cpu),
	.params = teo57_params,
	.nparams = G_N_ELEMENTS(teo57_params),
	.init = teo_enable_device,
	.select = teo_select,
	.reflect = teo_reflect,
};
