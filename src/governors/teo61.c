// SPDX-License-Identifier: GPL-2.0-only
/**
 * DOC: teo-6.1 - Timer Events Oriented governor (Linux 6.1)
 *
 * Follows drivers/cpuidle/governors/teo.c of Debian's linux-source-6.1
 * (6.1.192): teo_update(), teo_time_ok(), teo_middle_of_bin(),
 * teo_find_shallower_state(), teo_select(), teo_reflect(),
 * teo_enable_device(), in the kernel's order of updates, its integer types
 * (bins, sums and the total unsigned int, wrapping; the measured duration
 * u64; times s64) and with its implicit conversions spelled out as casts.
 *
 * What 6.1 does that 6.12 (teo-6.12) no longer does:
 *  - it reads the sleep length at every selection, first (6.12 reads it
 *    only when the intercepts logic needs it);
 *  - besides the decaying "hits" and "intercepts" of every bin it keeps
 *    the last NR_RECENT (9) wakeups' bins: an intercept in bin i counts in
 *    that bin's "recent" until it falls out of the ring, and a hit clears
 *    its slot.  The intercepts logic runs when the intercepts below the
 *    candidate outweigh the hits and intercepts at or above it
 *    (alt_intercepts), or when more than NR_RECENT / 2 of the recent
 *    wakeups were intercepts below it (alt_recent);
 *  - the shallower state it then looks for is the deepest whose bin, with
 *    the bins below, holds more than half of both (as enabled); the
 *    expected duration becomes the middle of that state's bin
 *    (teo_middle_of_bin()), checked against the tick when it is stopped
 *    (teo_time_ok());
 *  - there are no "tick_hits", no utilization check, no
 *    RESIDENCY_THRESHOLD_NS, and the tick is kept exactly when the chosen
 *    state polls or the expected duration is under a tick (6.12 also
 *    keeps it when intercepts before the tick dominate).
 *
 * dev->last_state_idx starts at 0 (the per-CPU cpuidle_device is
 * zero-initialised), so the first select runs teo_update() on the zeroed
 * data, as a kernel booted with cpuidle.governor=teo does.
 */
#include <string.h>

#include "governors.h"

#define NR_RECENT_MAX 32

enum { P_PULSE, P_DECAY_SHIFT, P_NR_RECENT };

static const struct is_param_desc teo61_params[] = {
	[P_PULSE] = { "pulse", "PULSE: metric increment per wakeup", 1024, 1, 1 << 20, NULL },
	[P_DECAY_SHIFT] = { "decay_shift", "DECAY_SHIFT: bins decay by 1/2^n per wakeup", 3, 1,
			    31, NULL },
	[P_NR_RECENT] = { "nr_recent", "NR_RECENT: wakeups kept for the recent intercepts", 9, 1,
			  NR_RECENT_MAX, NULL },
};

struct teo_bin {
	unsigned int intercepts;
	unsigned int hits;
	unsigned int recent;
};

struct teo_cpu {
	int64_t time_span_ns;
	int64_t sleep_length_ns;
	struct teo_bin state_bins[IS_STATE_MAX];
	unsigned int total;
	int next_recent_idx;
	int recent_idx[NR_RECENT_MAX];
	/* dev->last_state_idx */
	int last_state_idx;
};

static void teo_update(struct teo_cpu *cpu_data, const struct is_gov_env *env)
{
	const struct is_state_table *drv = env->drv;
	const unsigned int pulse = (unsigned int)env->params->v[P_PULSE];
	const int shift = (int)env->params->v[P_DECAY_SHIFT];
	const int nr_recent = (int)env->params->v[P_NR_RECENT];
	int i, idx_timer = 0, idx_duration = 0;
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

	cpu_data->total = 0;
	for (i = 0; i < drv->count; i++) {
		int64_t target_residency_ns = drv->s[i].target_residency_ns;
		struct teo_bin *bin = &cpu_data->state_bins[i];

		bin->hits -= bin->hits >> shift;
		bin->intercepts -= bin->intercepts >> shift;

		cpu_data->total += bin->hits + bin->intercepts;

		if (target_residency_ns <= cpu_data->sleep_length_ns) {
			idx_timer = i;
			/* s64 <= u64: compared as u64 */
			if ((uint64_t)target_residency_ns <= measured_ns)
				idx_duration = i;
		}
	}

	i = cpu_data->next_recent_idx++;
	if (cpu_data->next_recent_idx >= nr_recent)
		cpu_data->next_recent_idx = 0;

	if (cpu_data->recent_idx[i] >= 0)
		cpu_data->state_bins[cpu_data->recent_idx[i]].recent--;

	if (idx_timer == idx_duration) {
		cpu_data->state_bins[idx_timer].hits += pulse;
		cpu_data->recent_idx[i] = -1;
	} else {
		cpu_data->state_bins[idx_duration].intercepts += pulse;
		cpu_data->state_bins[idx_duration].recent++;
		cpu_data->recent_idx[i] = idx_duration;
	}

	cpu_data->total += pulse;
}

/* teo_time_ok(u64 interval_ns): TICK_NSEC (long) compared as u64 */
static bool teo_time_ok(const struct is_gov_env *env, const struct is_gov_call *c,
			uint64_t interval_ns)
{
	return !c->tick_stopped || interval_ns >= (uint64_t)env->tick_nsec;
}

static int64_t teo_middle_of_bin(int idx, const struct is_state_table *drv)
{
	return (drv->s[idx].target_residency_ns + drv->s[idx + 1].target_residency_ns) / 2;
}

static int teo_find_shallower_state(const struct is_gov_env *env, int state_idx,
				    int64_t duration_ns)
{
	int i;

	for (i = state_idx - 1; i >= 0; i--) {
		if (is_disabled(env, i))
			continue;

		state_idx = i;
		if (env->drv->s[i].target_residency_ns <= duration_ns)
			break;
	}
	return state_idx;
}

static int teo_select(void *st, const struct is_gov_env *env, struct is_gov_call *call,
		      bool *stop_tick)
{
	struct teo_cpu *cpu_data = st;
	const struct is_state_table *drv = env->drv;
	const int nr_recent = (int)env->params->v[P_NR_RECENT];
	int64_t latency_req = call->latency_req_ns;
	unsigned int idx_intercept_sum = 0;
	unsigned int intercept_sum = 0;
	unsigned int idx_recent_sum = 0;
	unsigned int recent_sum = 0;
	unsigned int idx_hit_sum = 0;
	unsigned int hit_sum = 0;
	int constraint_idx = 0;
	int idx0 = 0, idx = -1;
	bool alt_intercepts, alt_recent;
	int64_t delta_tick;
	int64_t duration_ns;
	int i;

	if (cpu_data->last_state_idx >= 0) {
		teo_update(cpu_data, env);
		cpu_data->last_state_idx = -1;
	}

	/* local_clock() is u64, kept in an s64 */
	cpu_data->time_span_ns = call->now_ns;

	duration_ns = is_gov_sleep_length(call, &delta_tick);
	cpu_data->sleep_length_ns = duration_ns;

	/* Check if there is any choice in the first place. */
	if (drv->count < 2) {
		idx = 0;
		goto end;
	}
	if (!is_disabled(env, 0)) {
		idx = 0;
		if (drv->s[1].target_residency_ns > duration_ns)
			goto end;
	}

	for (i = 1; i < drv->count; i++) {
		const struct teo_bin *prev_bin = &cpu_data->state_bins[i - 1];
		const struct is_state *s = &drv->s[i];

		intercept_sum += prev_bin->intercepts;
		hit_sum += prev_bin->hits;
		recent_sum += prev_bin->recent;

		if (is_disabled(env, i))
			continue;

		if (idx < 0) {
			idx = i; /* first enabled state */
			idx0 = i;
		}

		if (s->target_residency_ns > duration_ns)
			break;

		idx = i;

		if (s->exit_latency_ns <= latency_req)
			constraint_idx = i;

		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
		idx_recent_sum = recent_sum;
	}

	/* Avoid unnecessary overhead. */
	if (idx < 0) {
		idx = 0; /* No states enabled, must use 0. */
		goto end;
	} else if (idx == idx0) {
		goto end;
	}

	alt_intercepts = 2 * idx_intercept_sum > cpu_data->total - idx_hit_sum;
	/* unsigned int > int constant: compared as unsigned */
	alt_recent = idx_recent_sum > (unsigned int)(nr_recent / 2);
	if (alt_recent || alt_intercepts) {
		int64_t first_suitable_span_ns = duration_ns;
		int first_suitable_idx = idx;

		intercept_sum = 0;
		recent_sum = 0;

		for (i = idx - 1; i >= 0; i--) {
			const struct teo_bin *bin = &cpu_data->state_bins[i];
			int64_t span_ns;

			intercept_sum += bin->intercepts;
			recent_sum += bin->recent;

			span_ns = teo_middle_of_bin(i, drv);

			if ((!alt_recent || 2 * recent_sum > idx_recent_sum) &&
			    (!alt_intercepts || 2 * intercept_sum > idx_intercept_sum)) {
				if (teo_time_ok(env, call, (uint64_t)span_ns) && !is_disabled(env, i)) {
					idx = i;
					duration_ns = span_ns;
				} else {
					idx = first_suitable_idx;
					duration_ns = first_suitable_span_ns;
				}
				break;
			}

			if (is_disabled(env, i))
				continue;

			if (!teo_time_ok(env, call, (uint64_t)span_ns)) {
				if (first_suitable_idx != idx)
					continue;

				break;
			}

			first_suitable_span_ns = span_ns;
			first_suitable_idx = i;
		}
	}

	if (idx > constraint_idx)
		idx = constraint_idx;

end:
	if (((drv->s[idx].flags & IS_STATE_POLLING) || duration_ns < env->tick_nsec) &&
	    !call->tick_stopped) {
		*stop_tick = false;

		if (idx > idx0 && drv->s[idx].target_residency_ns > delta_tick)
			idx = teo_find_shallower_state(env, idx, delta_tick);
	}

	return idx;
}

static void teo_reflect(void *st, const struct is_gov_env *env, const struct is_gov_wake *w)
{
	struct teo_cpu *cpu_data = st;

	cpu_data->last_state_idx = w->entered;
	if (w->poll_time_limit ||
	    (w->got_tick && cpu_data->sleep_length_ns > env->tick_nsec)) {
		/* dev->poll_time_limit = false */
		cpu_data->time_span_ns = cpu_data->sleep_length_ns;
	} else {
		/* u64 local_clock() minus the s64 kept at select, wrapping */
		cpu_data->time_span_ns = (int64_t)((uint64_t)w->now_ns -
						   (uint64_t)cpu_data->time_span_ns);
	}
}

static int teo_enable_device(void *st, const struct is_gov_env *env)
{
	struct teo_cpu *cpu_data = st;

	(void)env;
	memset(cpu_data, 0, sizeof(*cpu_data));
	for (int i = 0; i < NR_RECENT_MAX; i++)
		cpu_data->recent_idx[i] = -1;
	return 0;
}

const struct is_governor is_gov_teo61 = {
	.name = "teo-6.1",
	.description = "Linux 6.1 TEO, recent intercepts (Debian linux-source-6.1)",
	.state_size = sizeof(struct teo_cpu),
	.params = teo61_params,
	.nparams = G_N_ELEMENTS(teo61_params),
	.init = teo_enable_device,
	.select = teo_select,
	.reflect = teo_reflect,
};
