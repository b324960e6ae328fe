// SPDX-License-Identifier: GPL-2.0-only
/*
 * REFERENCE COPY, for tests/test-reference.c only: the line-by-line port
 * of teo.c that src/governors/teo612.c was before it was reorganised for
 * speed.  It is the test oracle of that file; change it only when the
 * kernel code it mirrors changes.
 *
 * DOC: teo-6.12 - Timer Events Oriented governor (Linux 6.12)
 *
 * Follows drivers/cpuidle/governors/teo.c of Debian's linux-source-6.12
 * (6.12.118): teo_update(), teo_state_ok(), teo_find_shallower_state(),
 * teo_select(), teo_reflect(), teo_enable_device().
 *
 * Each idle state has a bin covering idle durations from its target
 * residency up to the next state's.  After every wakeup the bins decay by
 * 1/2^DECAY_SHIFT and the bin the measured idle duration fell into gains
 * PULSE: as a "hit" when it is also the bin of the sleep length seen at
 * selection time, as an "intercept" otherwise (a non-timer wakeup came
 * first).  Selection starts from the deepest enabled state and moves to a
 * shallower one when intercepts below the candidate outweigh the rest;
 * only then, and only if needed, is the sleep length queried (lazy query:
 * when the candidate is state 0, or the candidate's target residency is
 * below RESIDENCY_THRESHOLD_NS with a polling state 0, it is never read).
 * If the deepest state's residency is below the tick period, "tick_hits"
 * acts as one more hits-only bin.  The tick is kept when the chosen state
 * polls, when the expected idle duration is shorter than a tick, or when
 * intercepts before the tick are the clear majority.
 *
 * Debian's 6.12 carries the stable backport "cpuidle: teo: Drop misguided
 * target residency check": the teo_find_shallower_state() call after the
 * sleep length is read no longer requires teo_state_ok().  Integer types
 * are the kernel's: bins and sums are unsigned int (wrapping), the
 * measured duration is u64, times are s64, and the kernel's implicit
 * signed/unsigned conversions are spelled out as casts.
 *
 * dev->last_state_idx starts at 0 (the per-CPU cpuidle_device is
 * zero-initialised), so the first select runs teo_update() on the zeroed
 * data, as a kernel booted with cpuidle.governor=teo does.
 *
 * DOC: wteo - weighted history on top of teo-6.12
 *
 * The RFC's idea ported onto 6.12 TEO, the same algorithm as the kernel
 * series' "wteo" governor (tools/kernel/patches, teo.c + wteo.h):
 *  - every CPU keeps an N x N matrix of u16 weights in units of 1/1024,
 *    each row summing to 1024; row i starts with init_self_weight on the
 *    diagonal (default 614 ~ the RFC's 60%) and the rest split evenly, the
 *    truncation remainder kept on the diagonal;
 *  - when TEO's intercepts logic moved the candidate from state P (the
 *    deepest enabled, latency aside) to a shallower state I, the row of I
 *    chooses among the enabled states 0..P that pass teo_state_ok(), with
 *    probability proportional to weight, from one get_random_u32() draw at
 *    full 32-bit resolution (pick=argmax takes the heaviest instead); TEO's
 *    logic then goes on from the chosen state;
 *  - in teo_update(), the row of the state entered last moves
 *    learning_rate/1024 (default 102 ~ the RFC's 10%) of every other weight
 *    to the state whose bin the measured idle duration fell into
 *    (idx_duration): rows keep their sum and every weight stays within
 *    [0, 1024]; a weight w stops shrinking once w * rate < 1024.
 * Only shifts, products and sums: no division by 100 in the hot path.
 */
#include <string.h>

#include "governors.h"
#include "wteo_weights.h"

enum { P_PULSE, P_DECAY_SHIFT, P_RESIDENCY_THRESHOLD_NS, P_LEARNING_RATE,
       P_INIT_SELF_WEIGHT, P_PICK };

static const char *const pick_names[] = { "random", "argmax", NULL };

static const struct is_param_desc teo_params[] = {
	[P_PULSE] = { "pulse", "PULSE: metric increment per wakeup", 1024, 1, 1 << 20, NULL },
	[P_DECAY_SHIFT] = { "decay_shift", "DECAY_SHIFT: bins decay by 1/2^n per wakeup", 3,
			    1, 31, NULL },
	[P_RESIDENCY_THRESHOLD_NS] = { "residency_threshold_ns",
				       "RESIDENCY_THRESHOLD_NS (gov.h): skip the timer check below it",
				       15000, 0, 1000000000, NULL },
};

static const struct is_param_desc wteo_params[] = {
	[P_PULSE] = { "pulse", "PULSE: metric increment per wakeup", 1024, 1, 1 << 20, NULL },
	[P_DECAY_SHIFT] = { "decay_shift", "DECAY_SHIFT: bins decay by 1/2^n per wakeup", 3,
			    1, 31, NULL },
	[P_RESIDENCY_THRESHOLD_NS] = { "residency_threshold_ns",
				       "RESIDENCY_THRESHOLD_NS (gov.h): skip the timer check below it",
				       15000, 0, 1000000000, NULL },
	[P_LEARNING_RATE] = { "learning_rate", "weight moved per wakeup, in 1/1024 (102 ~ 10%)",
			      102, 0, 1024, NULL },
	[P_INIT_SELF_WEIGHT] = { "init_self_weight",
				 "initial diagonal weight, in 1/1024 (614 ~ 60%)", 614, 0, 1024,
				 NULL },
	[P_PICK] = { "pick", "random: weighted draw (the kernel's); argmax: heaviest state",
		     0, 0, 1, pick_names },
};

struct teo_bin {
	unsigned int intercepts;
	unsigned int hits;
};

struct teo_cpu {
	int64_t time_span_ns;
	int64_t sleep_length_ns;
	struct teo_bin state_bins[IS_STATE_MAX];
	unsigned int total;
	unsigned int tick_hits;
	int last_state_idx;  /* dev->last_state_idx */
	uint16_t weights[IS_STATE_MAX][IS_STATE_MAX]; /* wteo only */
};

#define KTIME_MAX INT64_MAX

static void teo_update(struct teo_cpu *cpu_data, const struct is_gov_env *env, bool weighted)
{
	const struct is_state_table *drv = env->drv;
	const unsigned int pulse = (unsigned int)env->params->v[P_PULSE];
	const int shift = (int)env->params->v[P_DECAY_SHIFT];
	const int64_t tick_nsec = env->tick_nsec;
	int i, idx_timer = 0, idx_duration = 0;
	int64_t target_residency_ns = 0;
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
		struct teo_bin *bin = &cpu_data->state_bins[i];

		bin->hits -= bin->hits >> shift;
		bin->intercepts -= bin->intercepts >> shift;

		cpu_data->total += bin->hits + bin->intercepts;

		target_residency_ns = drv->s[i].target_residency_ns;

		if (target_residency_ns <= cpu_data->sleep_length_ns) {
			idx_timer = i;
			/* s64 <= u64: compared as u64 */
			if ((uint64_t)target_residency_ns <= measured_ns)
				idx_duration = i;
		}
	}

	if (target_residency_ns < tick_nsec) {
		cpu_data->tick_hits -= cpu_data->tick_hits >> shift;

		cpu_data->total += cpu_data->tick_hits;

		if (tick_nsec <= cpu_data->sleep_length_ns) {
			idx_timer = drv->count;
			if ((uint64_t)tick_nsec <= measured_ns) {
				cpu_data->tick_hits += pulse;
				goto end;
			}
		}
	}

	if (idx_timer == idx_duration)
		cpu_data->state_bins[idx_timer].hits += pulse;
	else
		cpu_data->state_bins[idx_duration].intercepts += pulse;

end:
	cpu_data->total += pulse;

	if (weighted)
		wteo_update_row(cpu_data->weights[cpu_data->last_state_idx], drv->count,
				idx_duration,
				(unsigned int)env->params->v[P_LEARNING_RATE]);
}

static bool teo_state_ok(int i, const struct is_gov_env *env, const struct is_gov_call *c)
{
	return !c->tick_stopped || env->drv->s[i].target_residency_ns >= env->tick_nsec;
}

static int teo_find_shallower_state(const struct is_gov_env *env, int state_idx,
				    int64_t duration_ns, bool no_poll)
{
	const struct is_state_table *drv = env->drv;
	int i;

	for (i = state_idx - 1; i >= 0; i--) {
		if (is_disabled(env, i) || (no_poll && (drv->s[i].flags & IS_STATE_POLLING)))
			continue;

		state_idx = i;
		if (drv->s[i].target_residency_ns <= duration_ns)
			break;
	}
	return state_idx;
}

static int teo_select_common(void *st, const struct is_gov_env *env,
			     struct is_gov_call *call, bool *stop_tick, bool weighted)
{
	struct teo_cpu *cpu_data = st;
	const struct is_state_table *drv = env->drv;
	const int64_t tick_nsec = env->tick_nsec;
	int64_t latency_req = call->latency_req_ns;
	int64_t delta_tick = tick_nsec / 2;
	unsigned int tick_intercept_sum = 0;
	unsigned int idx_intercept_sum = 0;
	unsigned int intercept_sum = 0;
	unsigned int idx_hit_sum = 0;
	unsigned int hit_sum = 0;
	int constraint_idx = 0;
	int idx0 = 0, idx = -1;
	int prev_intercept_idx;
	int64_t duration_ns;
	int i;

	if (cpu_data->last_state_idx >= 0) {
		teo_update(cpu_data, env, weighted);
		cpu_data->last_state_idx = -1;
	}

	cpu_data->time_span_ns = call->now_ns;
	cpu_data->sleep_length_ns = KTIME_MAX;

	if (drv->count < 2) {
		idx = 0;
		goto out_tick;
	}

	if (!is_disabled(env, 0))
		idx = 0;

	for (i = 1; i < drv->count; i++) {
		struct teo_bin *prev_bin = &cpu_data->state_bins[i - 1];
		const struct is_state *s = &drv->s[i];

		intercept_sum += prev_bin->intercepts;
		hit_sum += prev_bin->hits;

		if (is_disabled(env, i))
			continue;

		if (idx < 0)
			idx0 = i;

		idx = i;

		if (s->exit_latency_ns <= latency_req)
			constraint_idx = i;

		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
	}

	if (idx < 0) {
		idx = 0;
		goto out_tick;
	}

	if (idx == idx0) {
		duration_ns = drv->s[idx].target_residency_ns;
		goto end;
	}

	tick_intercept_sum = intercept_sum + cpu_data->state_bins[drv->count - 1].intercepts;

	prev_intercept_idx = idx;
	if (2 * idx_intercept_sum > cpu_data->total - idx_hit_sum) {
		int first_suitable_idx = idx;

		intercept_sum = 0;

		for (i = idx - 1; i >= 0; i--) {
			struct teo_bin *bin = &cpu_data->state_bins[i];

			intercept_sum += bin->intercepts;

			if (2 * intercept_sum > idx_intercept_sum) {
				if (teo_state_ok(i, env, call) && !is_disabled(env, i))
					idx = i;
				else
					idx = first_suitable_idx;

				break;
			}

			if (is_disabled(env, i))
				continue;

			if (!teo_state_ok(i, env, call)) {
				if (first_suitable_idx != idx)
					continue;

				break;
			}

			first_suitable_idx = i;
		}
	}
	if (weighted && idx < prev_intercept_idx) {
		uint32_t mask = 0;
		int j;

		for (i = 0; i <= prev_intercept_idx; i++)
			if (!is_disabled(env, i) && teo_state_ok(i, env, call))
				mask |= 1u << i;
		if (env->params->v[P_PICK] == 1)
			j = wteo_argmax(cpu_data->weights[idx], drv->count, mask);
		else
			j = wteo_pick(cpu_data->weights[idx], drv->count, mask,
				      is_gov_random_u32(call));
		if (j >= 0)
			idx = j;
	}
	if (!idx && prev_intercept_idx) {
		duration_ns = is_gov_sleep_length(call, &delta_tick);
		cpu_data->sleep_length_ns = duration_ns;
		goto out_tick;
	}

	if (idx > constraint_idx)
		idx = constraint_idx;

	if (!idx)
		goto out_tick;

	if ((drv->s[0].flags & IS_STATE_POLLING) &&
	    drv->s[idx].target_residency_ns < env->params->v[P_RESIDENCY_THRESHOLD_NS])
		goto out_tick;

	duration_ns = is_gov_sleep_length(call, &delta_tick);
	cpu_data->sleep_length_ns = duration_ns;

	/* The stable backport: no teo_state_ok() condition here. */
	if (drv->s[idx].target_residency_ns > duration_ns)
		idx = teo_find_shallower_state(env, idx, duration_ns, false);

	if (drv->s[idx].target_residency_ns < tick_nsec &&
	    tick_intercept_sum > cpu_data->total / 2 + cpu_data->total / 8)
		duration_ns = tick_nsec / 2;

end:
	if ((!(drv->s[idx].flags & IS_STATE_POLLING) && duration_ns >= tick_nsec) ||
	    call->tick_stopped)
		return idx;

	if (idx > idx0 && drv->s[idx].target_residency_ns > delta_tick)
		idx = teo_find_shallower_state(env, idx, delta_tick, false);

out_tick:
	*stop_tick = false;
	return idx;
}

static int teo_select(void *st, const struct is_gov_env *env, struct is_gov_call *call,
		      bool *stop_tick)
{
	return teo_select_common(st, env, call, stop_tick, false);
}

static int wteo_select(void *st, const struct is_gov_env *env, struct is_gov_call *call,
		       bool *stop_tick)
{
	return teo_select_common(st, env, call, stop_tick, true);
}

static void teo_reflect(void *st, const struct is_gov_env *env, const struct is_gov_wake *w)
{
	struct teo_cpu *cpu_data = st;

	cpu_data->last_state_idx = w->entered;
	if (w->poll_time_limit ||
	    (w->got_tick && cpu_data->sleep_length_ns > env->tick_nsec))
		cpu_data->time_span_ns = cpu_data->sleep_length_ns;
	else
		/* local_clock() is u64: the subtraction wraps like the kernel's */
		cpu_data->time_span_ns = (int64_t)((uint64_t)w->now_ns -
						   (uint64_t)cpu_data->time_span_ns);
}

static int teo_enable_device(void *st, const struct is_gov_env *env)
{
	(void)env;
	memset(st, 0, sizeof(struct teo_cpu));
	return 0;
}

static int wteo_enable_device(void *st, const struct is_gov_env *env)
{
	struct teo_cpu *cpu_data = st;
	const int n = env->drv->count;

	teo_enable_device(st, env);
	for (int i = 0; i < n; i++)
		wteo_init_row(cpu_data->weights[i], n, i,
			      (unsigned int)env->params->v[P_INIT_SELF_WEIGHT]);
	return 0;
}

/* The same text as the kernel's debugfs wteo/weights, for one CPU. */
static void wteo_dump(const void *st, const struct is_gov_env *env, GString *out)
{
	const struct teo_cpu *cpu_data = st;
	int m[IS_STATE_MAX * IS_STATE_MAX];

	for (int i = 0; i < IS_STATE_MAX * IS_STATE_MAX; i++)
		m[i] = cpu_data->weights[i / IS_STATE_MAX][i % IS_STATE_MAX];
	is_gov_dump_matrix(out, env->cpu, env->drv->count, m, IS_STATE_MAX);
}

/* As idlesim's teo_dump(): the bins, tick_hits and total, for one CPU. */
static void teo_dump(const void *st, const struct is_gov_env *env, GString *out)
{
	const struct teo_cpu *cpu_data = st;
	const int n = env->drv->count;

	g_string_append_printf(out, "cpu%d\nhits:", env->cpu);
	for (int i = 0; i < n; i++)
		g_string_append_printf(out, " %u", cpu_data->state_bins[i].hits);
	g_string_append(out, "\nintercepts:");
	for (int i = 0; i < n; i++)
		g_string_append_printf(out, " %u", cpu_data->state_bins[i].intercepts);
	g_string_append_printf(out, "\ntick_hits: %u\ntotal: %u\n", cpu_data->tick_hits,
			       cpu_data->total);
}

const struct is_governor is_gov_wteo = {
	.name = "wteo",
	.description = "weighted history on teo-6.12, as the kernel series' wteo",
	.state_size = sizeof(struct teo_cpu),
	.params = wteo_params,
	.nparams = G_N_ELEMENTS(wteo_params),
	.init = wteo_enable_device,
	.select = wteo_select,
	.reflect = teo_reflect,
	.dump = wteo_dump,
};

const struct is_governor is_gov_teo612 = {
	.name = "teo-6.12",
	.description = "Linux 6.12 TEO (Debian linux-source-6.12, with the stable backport)",
	.state_size = sizeof(struct teo_cpu),
	.params = teo_params,
	.nparams = G_N_ELEMENTS(teo_params),
	.init = teo_enable_device,
	.select = teo_select,
	.reflect = teo_reflect,
	.dump = teo_dump,
};
