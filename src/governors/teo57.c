// SPDX-License-Identifier: GPL-2.0-only
/**
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
 *
 * DOC: wteo-rfc - the 2020 RFC "weighted approach to gather and use history
 * in TEO governor" (P. Sampat) on top of teo-5.7, as posted
 * (../shared/seeds/002-patch-...): an N x N int matrix per CPU, initial
 * self weight 6000 and 4000 / (N - 1) elsewhere, LEARNING_RATE 10.
 * teo_update(): the row of the state entered last moves toward the "state
 * that should have been chosen" - the early-hit state on a miss with an
 * early hit, the timer state on a plain miss, and (QUIRK: hit-target) the
 * entered state itself on a hit: its weight grows by LEARNING_RATE% unless
 * that would reach 9000, the others shrink by LEARNING_RATE / (N - 1) %
 * unless that would reach 1000.  teo_select(): only when the intervals
 * logic moved the candidate to a shallower state, the row of that shallower
 * state drives a weighted random pick among the enabled states up to it.
 * Quirks kept in the faithful mode (fixed=0), each named where it acts:
 *  - QUIRK row-sum: increase and decreases differ, so rows drift from 10000;
 *  - QUIRK list-index: the pick builds a list that skips disabled states and
 *    then uses the list position as the state index;
 *  - QUIRK draw-100: the draw has 100 levels (get_random_bytes() % 100);
 *  - QUIRK init-trunc: 4000 / (N - 1) truncates, so rows start below 10000;
 *  - only states up to the already shallower idx are candidates, and the
 *    matrix is used only when the intervals logic moved to a shallower state
 *    (both kept in the fixed mode too: they are the design, not bugs).
 * fixed=1 corrects the first four: list positions map back to state
 * indices, the update moves LEARNING_RATE% of every other weight to the
 * target (sums conserved, so every weight stays within [0, 10000] and the
 * floor/ceiling skips are not needed), the draw uses all 32 bits, the
 * truncation remainder stays on the diagonal.  pick=argmax takes the
 * heaviest candidate instead of drawing (ties: the shallower).
 */
#include <string.h>

#include "governors.h"

#define TEO57_MAX_INTERVALS 1024

enum { P_PULSE, P_DECAY_SHIFT, P_INTERVALS, P_LEARNING_RATE, P_INIT_SELF_WEIGHT, P_FIXED,
       P_PICK };

static const char *const rfc_pick_names[] = { "random", "argmax", NULL };

static const struct is_param_desc teo57_params[] = {
	[P_PULSE] = { "pulse", "PULSE: metric increment", 1024, 1, 1 << 20, NULL },
	[P_DECAY_SHIFT] = { "decay_shift", "DECAY_SHIFT: metrics decay by 1/2^n", 3, 1, 31, NULL },
	[P_INTERVALS] = { "intervals", "INTERVALS: idle durations kept for pattern detection",
			  8, 1, TEO57_MAX_INTERVALS, NULL },
};

static const struct is_param_desc wteo_rfc_params[] = {
	[P_PULSE] = { "pulse", "PULSE: metric increment", 1024, 1, 1 << 20, NULL },
	[P_DECAY_SHIFT] = { "decay_shift", "DECAY_SHIFT: metrics decay by 1/2^n", 3, 1, 31, NULL },
	[P_INTERVALS] = { "intervals", "INTERVALS: idle durations kept for pattern detection",
			  8, 1, TEO57_MAX_INTERVALS, NULL },
	[P_LEARNING_RATE] = { "learning_rate", "LEARNING_RATE: percent of weight moved", 10, 0,
			      100, NULL },
	[P_INIT_SELF_WEIGHT] = { "init_self_weight", "initial diagonal weight (of 10000)", 6000,
				 0, 10000, NULL },
	[P_FIXED] = { "fixed", "1: correct the posted code's quirks", 0, 0, 1, NULL },
	[P_PICK] = { "pick", "random: the RFC's weighted draw; argmax: the heaviest state", 0, 0,
		     1, rfc_pick_names },
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
	int state_mat[IS_STATE_MAX][IS_STATE_MAX]; /* wteo-rfc only */
	uint64_t intervals[TEO57_MAX_INTERVALS];
};

/* The RFC's update of row @last toward @idx (teo_update() of the patch). */
static void rfc_update(struct teo_cpu *cpu_data, const struct is_gov_env *env, int last,
		       int idx)
{
	const int n = env->drv->count;
	const unsigned int lr = (unsigned int)env->params->v[P_LEARNING_RATE];
	int *row = cpu_data->state_mat[last];

	if (idx == -1)
		return;
	if (env->params->v[P_FIXED]) {
		int moved = 0;

		for (int i = 0; i < n; i++) {
			int d;

			if (i == idx)
				continue;
			d = (int)((unsigned int)row[i] * lr / 100);
			row[i] -= d;
			moved += d;
		}
		row[idx] += moved;
		return;
	}
	for (int i = 0; i < n; i++) {
		unsigned int delta;

		if (i == idx) {
			delta = (lr * (unsigned int)row[i]) / 100;
			/* int + unsigned: compared as unsigned */
			if ((unsigned int)row[i] + delta >= (100 - lr) * 100)
				continue;
			row[i] += (int)delta;
			continue;
		}
		/* QUIRK row-sum: 1/(N-1) of the target's rate, so sums drift */
		delta = (lr * (unsigned int)row[i]) / ((unsigned int)(n - 1) * 100);
		if ((unsigned int)row[i] - delta <= lr * 100)
			continue;
		row[i] -= (int)delta;
	}
}

static void teo_update(struct teo_cpu *cpu_data, const struct is_gov_env *env, bool rfc)
{
	int idx = -1, last_idx = cpu_data->last_state_idx;
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
			idx = idx_timer;
			if (idx_hit >= 0) {
				cpu_data->states[idx_hit].early_hits += pulse;
				idx = idx_hit;
			}
		} else {
			hits += pulse;
			idx = last_idx; /* QUIRK hit-target: the entered state */
		}

		cpu_data->states[idx_timer].misses = misses;
		cpu_data->states[idx_timer].hits = hits;
	}

	if (rfc)
		rfc_update(cpu_data, env, last_idx, idx);

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

/* The RFC's weighted pick among the enabled states 0..idx (row idx). */
static int rfc_pick(struct teo_cpu *cpu_data, const struct is_gov_env *env,
		    struct is_gov_call *call, int idx)
{
	const bool fixed = env->params->v[P_FIXED];
	unsigned int weights_list[IS_STATE_MAX];
	int states[IS_STATE_MAX];
	unsigned int sum_weights = 0, rnd_wt, rnd_num;
	int i, j = 0;

	for (i = 0; i <= idx; i++) {
		if (is_disabled(env, i))
			continue;
		sum_weights += (unsigned int)cpu_data->state_mat[idx][i];
		states[j] = i;
		weights_list[j++] = sum_weights;
	}
	if (env->params->v[P_PICK] == 1) {
		int best = -1;

		for (i = 0; i < j; i++)
			if (best < 0 || cpu_data->state_mat[idx][states[i]] >
					cpu_data->state_mat[idx][states[best]])
				best = i;
		i = best < 0 ? 0 : best;
	} else {
		rnd_num = is_gov_random_u32(call);
		if (fixed) {
			rnd_wt = (unsigned int)(((uint64_t)rnd_num * sum_weights) >> 32);
		} else {
			/* QUIRK draw-100: 100 levels only */
			rnd_num = rnd_num % 100;
			rnd_wt = (rnd_num * sum_weights) / 100;
		}
		for (i = 0; i < j; i++)
			if (rnd_wt < weights_list[i])
				break;
	}
	/* QUIRK list-index: the list position is taken as the state index */
	if (fixed)
		return j ? states[i < j ? i : j - 1] : idx;
	return i;
}

static int teo_select_common(void *st, const struct is_gov_env *env,
			     struct is_gov_call *call, bool *stop_tick, bool rfc)
{
	struct teo_cpu *cpu_data = st;
	const struct is_state_table *drv = env->drv;
	const int nintervals = (int)env->params->v[P_INTERVALS];
	int64_t latency_req = call->latency_req_ns;
	uint64_t duration_ns;
	unsigned int hits, misses, early_hits;
	int max_early_idx, prev_max_early_idx, constraint_idx, idx, i, og_idx;
	int64_t delta_tick;

	if (cpu_data->last_state_idx >= 0) {
		teo_update(cpu_data, env, rfc);
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

	og_idx = idx;

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
		if (rfc && og_idx != idx)
			idx = rfc_pick(cpu_data, env, call, idx);
	}

	if (((drv->s[idx].flags & IS_STATE_POLLING) ||
	     duration_ns < (uint64_t)env->tick_nsec) && !call->tick_stopped) {
		*stop_tick = false;

		if (idx > 0 && drv->s[idx].target_residency_ns > delta_tick)
			idx = teo_find_shallower_state(env, idx, (uint64_t)delta_tick);
	}

	return idx;
}

static int teo_select(void *st, const struct is_gov_env *env, struct is_gov_call *call,
		      bool *stop_tick)
{
	return teo_select_common(st, env, call, stop_tick, false);
}

static int wteo_rfc_select(void *st, const struct is_gov_env *env, struct is_gov_call *call,
			   bool *stop_tick)
{
	return teo_select_common(st, env, call, stop_tick, true);
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

static int wteo_rfc_enable_device(void *st, const struct is_gov_env *env)
{
	struct teo_cpu *cpu_data = st;
	const int n = env->drv->count;
	const int self = (int)env->params->v[P_INIT_SELF_WEIGHT];

	teo_enable_device(st, env);
	for (int i = 0; i < n; i++) {
		int off = n > 1 ? (10000 - self) / (n - 1) : 0; /* QUIRK init-trunc */

		for (int j = 0; j < n; j++)
			cpu_data->state_mat[i][j] = i == j ? self : off;
		if (env->params->v[P_FIXED])
			cpu_data->state_mat[i][i] = 10000 - off * (n - 1);
	}
	return 0;
}

static void wteo_rfc_dump(const void *st, const struct is_gov_env *env, GString *out)
{
	const struct teo_cpu *cpu_data = st;

	is_gov_dump_matrix(out, env->cpu, env->drv->count, &cpu_data->state_mat[0][0],
			   IS_STATE_MAX);
}

const struct is_governor is_gov_wteo_rfc = {
	.name = "wteo-rfc",
	.description = "the 2020 weighted-TEO RFC on teo-5.7 (fixed=1 corrects its quirks)",
	.state_size = sizeof(struct teo_cpu),
	.params = wteo_rfc_params,
	.nparams = G_N_ELEMENTS(wteo_rfc_params),
	.init = wteo_rfc_enable_device,
	.select = wteo_rfc_select,
	.reflect = teo_reflect,
	.dump = wteo_rfc_dump,
};

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
