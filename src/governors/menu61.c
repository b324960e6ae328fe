// SPDX-License-Identifier: GPL-2.0-only
/**
 * DOC: menu-6.1 - the menu governor (Linux 6.1)
 *
 * Follows drivers/cpuidle/governors/menu.c of Debian's linux-source-6.1
 * (6.1.192): which_bucket(), performance_multiplier(),
 * menu_update_intervals(), get_typical_interval(), menu_select(),
 * menu_reflect(), menu_update(), menu_enable_device(), with the kernel's
 * integer types and its implicit conversions spelled out as casts.
 *
 * What 6.1 does that 6.12 (menu-6.12) no longer does:
 *  - it reads the sleep length at every selection, first (6.12 only when
 *    the typical interval exceeds RESIDENCY_THRESHOLD_NS or the tick is
 *    stopped), so the early "state 0 anyway" exit comes after it;
 *  - the correction factor's prediction is computed first, and
 *    get_typical_interval() returns "none" at once when the smallest
 *    sample is not below it;
 *  - I/O waiters weigh in: BUCKETS is 12, the upper six used when
 *    nr_iowait_cpu() > 0, and with the tick running the latency limit is
 *    capped at the prediction divided by 1 + 10 * nr_iowait_cpu();
 *  - in the state loop, a state whose target residency exceeds the
 *    prediction is judged before its exit latency (6.12: after), and the
 *    polling-state exception asks the state's exit latency to be within
 *    the latency limit (6.12: within the prediction, and the residency
 *    below RESIDENCY_THRESHOLD_NS).
 *
 * nr_iowait_cpu(): the record's "io" field where it has one (a stock
 * capture's idlesim_nr_iowait probe, taken inside the select), else 0,
 * which is what a CPU with no task blocked on I/O reads (struct
 * is_gov_call's nr_iowait).  A synthetic or series trace has none: under
 * block I/O, menu-6.1 chooses otherwise where the CPU had waiters.
 */
#include <string.h>

#include "governors.h"

#define BUCKETS 12
#define INTERVAL_SHIFT 3
#define INTERVALS (1ul << INTERVAL_SHIFT)
#define RESOLUTION 1024
#define DECAY 8
#define MAX_INTERESTING (50000 * 1000LL)
#define NSEC_PER_USEC 1000LL

struct menu_device {
	int needs_update;
	int tick_wakeup;
	uint64_t next_timer_ns;
	unsigned int bucket;
	unsigned int correction_factor[BUCKETS];
	unsigned int intervals[INTERVALS];
	int interval_ptr;
	/* struct cpuidle_device fields menu reads */
	int last_state_idx;
	bool poll_time_limit;
};

static inline int which_bucket(uint64_t duration_ns, unsigned int nr_iowaiters)
{
	int bucket = 0;

	if (nr_iowaiters)
		bucket = BUCKETS / 2;

	if (duration_ns < 10ULL * NSEC_PER_USEC)
		return bucket;
	if (duration_ns < 100ULL * NSEC_PER_USEC)
		return bucket + 1;
	if (duration_ns < 1000ULL * NSEC_PER_USEC)
		return bucket + 2;
	if (duration_ns < 10000ULL * NSEC_PER_USEC)
		return bucket + 3;
	if (duration_ns < 100000ULL * NSEC_PER_USEC)
		return bucket + 4;
	return bucket + 5;
}

static inline int performance_multiplier(unsigned int nr_iowaiters)
{
	return (int)(1 + 10 * nr_iowaiters);
}

static void menu_update_intervals(struct menu_device *data, unsigned int interval_us)
{
	data->intervals[data->interval_ptr++] = interval_us;
	if (data->interval_ptr >= (int)INTERVALS)
		data->interval_ptr = 0;
}

static unsigned int get_typical_interval(const struct menu_device *data,
					 unsigned int predicted_us)
{
	int i, divisor;
	unsigned int min, max, thresh, avg;
	uint64_t sum, variance;

	thresh = INT32_MAX; /* Discard outliers above this value */

again:
	min = UINT32_MAX;
	max = 0;
	sum = 0;
	divisor = 0;
	for (i = 0; i < (int)INTERVALS; i++) {
		unsigned int value = data->intervals[i];

		if (value <= thresh) {
			sum += value;
			divisor++;
			if (value > max)
				max = value;

			if (value < min)
				min = value;
		}
	}

	/* If the smallest sample is not below the prediction: none. */
	if (min >= predicted_us)
		return UINT32_MAX;

	if (divisor == (int)INTERVALS)
		avg = (unsigned int)(sum >> INTERVAL_SHIFT);
	else
		avg = (unsigned int)(sum / (uint32_t)divisor); /* div_u64() */

	variance = 0;
	for (i = 0; i < (int)INTERVALS; i++) {
		unsigned int value = data->intervals[i];

		if (value <= thresh) {
			int64_t diff = (int64_t)value - avg;

			/* s64 product, wrapping (-fno-strict-overflow) */
			variance += (uint64_t)diff * (uint64_t)diff;
		}
	}
	if (divisor == (int)INTERVALS)
		variance >>= INTERVAL_SHIFT;
	else
		variance /= (uint32_t)divisor; /* do_div() */

	if (variance <= UINT64_MAX / 36) {
		if ((((uint64_t)avg * avg > variance * 36) &&
		     ((unsigned long)divisor * 4 >= INTERVALS * 3)) ||
		    variance <= 400)
			return avg;
	}

	if ((unsigned long)divisor * 4 <= INTERVALS * 3)
		return UINT32_MAX;

	thresh = max - 1;
	goto again;
}

static void menu_update(struct menu_device *data, const struct is_gov_env *env)
{
	const struct is_state_table *drv = env->drv;
	int last_idx = data->last_state_idx;
	const struct is_state *target = &drv->s[last_idx];
	uint64_t measured_ns;
	unsigned int new_factor;

	if (data->tick_wakeup && data->next_timer_ns > (uint64_t)env->tick_nsec) {
		measured_ns = 9 * MAX_INTERESTING / 10;
	} else if ((drv->s[last_idx].flags & IS_STATE_POLLING) && data->poll_time_limit) {
		measured_ns = data->next_timer_ns;
	} else {
		measured_ns = (uint64_t)env->last_residency_ns;
		if (measured_ns > 2 * (uint64_t)target->exit_latency_ns)
			measured_ns -= (uint64_t)target->exit_latency_ns;
		else
			measured_ns /= 2;
	}

	if (measured_ns > data->next_timer_ns)
		measured_ns = data->next_timer_ns;

	new_factor = data->correction_factor[data->bucket];
	new_factor -= new_factor / DECAY;

	if (data->next_timer_ns > 0 && measured_ns < (uint64_t)MAX_INTERESTING)
		new_factor += (unsigned int)((RESOLUTION * measured_ns) / data->next_timer_ns);
	else
		new_factor += RESOLUTION;

	data->correction_factor[data->bucket] = new_factor;

	/* ktime_to_us(): s64 / 1000, then truncated to unsigned int */
	menu_update_intervals(data, (unsigned int)((int64_t)measured_ns / NSEC_PER_USEC));
}

static int menu_select(void *st, const struct is_gov_env *env, struct is_gov_call *call,
		       bool *stop_tick)
{
	struct menu_device *data = st;
	const struct is_state_table *drv = env->drv;
	const int64_t tick_nsec = env->tick_nsec;
	int64_t latency_req = call->latency_req_ns;
	unsigned int predicted_us, typical_us;
	uint64_t predicted_ns;
	uint64_t interactivity_req;
	unsigned int nr_iowaiters;
	int64_t delta, delta_tick;
	int i, idx;

	if (data->needs_update) {
		menu_update(data, env);
		data->needs_update = 0;
	} else if (!env->last_residency_ns) {
		menu_update_intervals(data, UINT32_MAX);
	}

	delta = is_gov_sleep_length(call, &delta_tick);
	if (delta < 0) {
		delta = 0;
		delta_tick = 0;
	}
	data->next_timer_ns = (uint64_t)delta;

	nr_iowaiters = call->nr_iowait;
	data->bucket = (unsigned int)which_bucket(data->next_timer_ns, nr_iowaiters);

	if (drv->count <= 1 || latency_req == 0 ||
	    ((data->next_timer_ns < (uint64_t)drv->s[1].target_residency_ns ||
	      latency_req < drv->s[1].exit_latency_ns) &&
	     !is_disabled(env, 0))) {
		*stop_tick = !(drv->s[0].flags & IS_STATE_POLLING);
		return 0;
	}

	/* div_u64(): the u64 product wraps; the quotient kept in 32 bits */
	predicted_us = (unsigned int)((data->next_timer_ns *
				       data->correction_factor[data->bucket] +
				       (uint64_t)(RESOLUTION * DECAY * NSEC_PER_USEC) / 2) /
				      (uint32_t)(RESOLUTION * DECAY * NSEC_PER_USEC));
	typical_us = get_typical_interval(data, predicted_us);
	predicted_ns = (uint64_t)(predicted_us < typical_us ? predicted_us : typical_us) *
		       NSEC_PER_USEC;

	if (call->tick_stopped) {
		if (predicted_ns < (uint64_t)tick_nsec)
			predicted_ns = data->next_timer_ns;
	} else {
		interactivity_req = predicted_ns /
				    (uint64_t)performance_multiplier(nr_iowaiters);
		/* s64 > u64: compared as u64 */
		if ((uint64_t)latency_req > interactivity_req)
			latency_req = (int64_t)interactivity_req;
	}

	idx = -1;
	for (i = 0; i < drv->count; i++) {
		const struct is_state *s = &drv->s[i];

		if (is_disabled(env, i))
			continue;

		if (idx == -1)
			idx = i; /* first enabled state */

		if ((uint64_t)s->target_residency_ns > predicted_ns) {
			if ((drv->s[idx].flags & IS_STATE_POLLING) &&
			    s->exit_latency_ns <= latency_req &&
			    (uint64_t)s->target_residency_ns <= data->next_timer_ns) {
				predicted_ns = (uint64_t)s->target_residency_ns;
				idx = i;
				break;
			}
			if (predicted_ns < (uint64_t)tick_nsec)
				break;

			if (!call->tick_stopped) {
				predicted_ns = (uint64_t)drv->s[idx].target_residency_ns;
				break;
			}

			if (drv->s[idx].target_residency_ns < tick_nsec &&
			    s->target_residency_ns <= delta_tick)
				idx = i;

			return idx;
		}
		if (s->exit_latency_ns > latency_req)
			break;

		idx = i;
	}

	if (idx == -1)
		idx = 0; /* No states enabled. Must use 0. */

	if (((drv->s[idx].flags & IS_STATE_POLLING) || predicted_ns < (uint64_t)tick_nsec) &&
	    !call->tick_stopped) {
		*stop_tick = false;

		if (idx > 0 && drv->s[idx].target_residency_ns > delta_tick) {
			for (i = idx - 1; i >= 0; i--) {
				if (is_disabled(env, i))
					continue;

				idx = i;
				if (drv->s[i].target_residency_ns <= delta_tick)
					break;
			}
		}
	}

	return idx;
}

static void menu_reflect(void *st, const struct is_gov_env *env, const struct is_gov_wake *w)
{
	struct menu_device *data = st;

	(void)env;
	data->last_state_idx = w->entered;
	data->needs_update = 1;
	data->tick_wakeup = w->got_tick;
	/* dev->poll_time_limit keeps this value till menu_update() reads it */
	data->poll_time_limit = w->poll_time_limit;
}

static int menu_enable_device(void *st, const struct is_gov_env *env)
{
	struct menu_device *data = st;

	(void)env;
	memset(data, 0, sizeof(*data));
	for (int i = 0; i < BUCKETS; i++)
		data->correction_factor[i] = RESOLUTION * DECAY;
	return 0;
}

const struct is_governor is_gov_menu61 = {
	.name = "menu-6.1",
	.description = "Linux 6.1 menu, iowait-aware (Debian linux-source-6.1)",
	.state_size = sizeof(struct menu_device),
	.init = menu_enable_device,
	.select = menu_select,
	.reflect = menu_reflect,
};
