// SPDX-License-Identifier: GPL-2.0-only
/**
 * DOC: ladder - step one state at a time (Linux 6.12)
 *
 * Follows drivers/cpuidle/governors/ladder.c of Debian's linux-source-6.12
 * (6.12.118): ladder_enable_device(), ladder_select_state(),
 * ladder_reflect().  The governor climbs to the next deeper state after
 * PROMOTION_COUNT consecutive idle periods longer than the current state's
 * exit latency and falls back one state after DEMOTION_COUNT shorter ones;
 * it never touches the tick (stop_tick stays true) and never reads the
 * sleep length.
 *
 * Kernel quirk kept on purpose: last_residency is s64 while the thresholds
 * are u64, so the comparisons are unsigned.  A residency shorter than the
 * exit latency (negative last_residency) therefore counts as "long" for
 * promotion and never as "short" for demotion.
 */
#include <string.h>

#include "governors.h"

enum { P_PROMOTION_COUNT, P_DEMOTION_COUNT };

static const struct is_param_desc ladder_params[] = {
	[P_PROMOTION_COUNT] = { "promotion_count", "PROMOTION_COUNT", 4, 1, 1000000, NULL },
	[P_DEMOTION_COUNT] = { "demotion_count", "DEMOTION_COUNT", 1, 1, 1000000, NULL },
};

struct ladder_device_state {
	struct {
		uint32_t promotion_count;
		uint32_t demotion_count;
		uint64_t promotion_time_ns;
		uint64_t demotion_time_ns;
	} threshold;
	struct {
		int promotion_count;
		int demotion_count;
	} stats;
};

struct ladder_device {
	struct ladder_device_state states[IS_STATE_MAX];
	int last_state_idx;  /* dev->last_state_idx */
};

static inline void ladder_do_selection(struct ladder_device *ldev, int old_idx,
				       int new_idx)
{
	ldev->states[old_idx].stats.promotion_count = 0;
	ldev->states[old_idx].stats.demotion_count = 0;
	ldev->last_state_idx = new_idx;
}

static int ladder_select(void *st, const struct is_gov_env *env,
			 struct is_gov_call *call, bool *stop_tick)
{
	struct ladder_device *ldev = st;
	const struct is_state_table *drv = env->drv;
	struct ladder_device_state *last_state;
	int last_idx = ldev->last_state_idx;
	int first_idx = drv->s[0].flags & IS_STATE_POLLING ? 1 : 0;
	int64_t latency_req = call->latency_req_ns;
	int64_t last_residency;

	(void)stop_tick;
	if (latency_req == 0) {
		ladder_do_selection(ldev, last_idx, 0);
		return 0;
	}

	last_state = &ldev->states[last_idx];
	last_residency = env->last_residency_ns - drv->s[last_idx].exit_latency_ns;

	/* The (uint64_t) casts are the kernel's implicit s64 -> u64 ones. */
	if (last_idx < drv->count - 1 &&
	    !is_disabled(env, last_idx + 1) &&
	    (uint64_t)last_residency > last_state->threshold.promotion_time_ns &&
	    drv->s[last_idx + 1].exit_latency_ns <= latency_req) {
		last_state->stats.promotion_count++;
		last_state->stats.demotion_count = 0;
		if ((uint32_t)last_state->stats.promotion_count >=
		    last_state->threshold.promotion_count) {
			ladder_do_selection(ldev, last_idx, last_idx + 1);
			return last_idx + 1;
		}
	}

	if (last_idx > first_idx &&
	    (is_disabled(env, last_idx) ||
	     drv->s[last_idx].exit_latency_ns > latency_req)) {
		int i;

		for (i = last_idx - 1; i > first_idx; i--) {
			if (drv->s[i].exit_latency_ns <= latency_req)
				break;
		}
		ladder_do_selection(ldev, last_idx, i);
		return i;
	}

	if (last_idx > first_idx &&
	    (uint64_t)last_residency < last_state->threshold.demotion_time_ns) {
		last_state->stats.demotion_count++;
		last_state->stats.promotion_count = 0;
		if ((uint32_t)last_state->stats.demotion_count >=
		    last_state->threshold.demotion_count) {
			ladder_do_selection(ldev, last_idx, last_idx - 1);
			return last_idx - 1;
		}
	}

	return last_idx;
}

static int ladder_init(void *st, const struct is_gov_env *env)
{
	struct ladder_device *ldev = st;
	const struct is_state_table *drv = env->drv;
	int first_idx = drv->s[0].flags & IS_STATE_POLLING ? 1 : 0;

	ldev->last_state_idx = first_idx;
	for (int i = first_idx; i < drv->count; i++) {
		struct ladder_device_state *lstate = &ldev->states[i];

		lstate->stats.promotion_count = 0;
		lstate->stats.demotion_count = 0;
		lstate->threshold.promotion_count =
			(uint32_t)env->params->v[P_PROMOTION_COUNT];
		lstate->threshold.demotion_count =
			(uint32_t)env->params->v[P_DEMOTION_COUNT];
		if (i < drv->count - 1)
			lstate->threshold.promotion_time_ns =
				(uint64_t)drv->s[i].exit_latency_ns;
		if (i > first_idx)
			lstate->threshold.demotion_time_ns =
				(uint64_t)drv->s[i].exit_latency_ns;
	}
	return 0;
}

static void ladder_reflect(void *st, const struct is_gov_env *env,
			   const struct is_gov_wake *wake)
{
	struct ladder_device *ldev = st;

	(void)env;
	if (wake->entered > 0)
		ldev->last_state_idx = wake->entered;
}

const struct is_governor is_gov_ladder = {
	.name = "ladder",
	.description = "Linux 6.12 ladder: one state deeper or shallower at a time",
	.state_size = sizeof(struct ladder_device),
	.params = ladder_params,
	.nparams = G_N_ELEMENTS(ladder_params),
	.init = ladder_init,
	.select = ladder_select,
	.reflect = ladder_reflect,
};
