// SPDX-License-Identifier: GPL-2.0-only
/**
 * DOC: menu-6.12 - the menu governor (Linux 6.12)
 *
 * Follows drivers/cpuidle/governors/menu.c of Debian's linux-source-6.12
 * (6.12.118): which_bucket(), menu_update_intervals(),
 * get_typical_interval(), menu_select(), menu_reflect(), menu_update(),
 * menu_enable_device().
 *
 * The prediction is the smaller of two guesses: the time till the next
 * timer scaled by a correction factor (one per decade of that time, six
 * buckets, fixed point with RESOLUTION * DECAY = 8192 as unity, decaying by
 * 1/8 per update), and the "typical interval" of the last eight measured
 * idle durations (in microseconds) when their spread is small, discarding
 * high outliers down to three quarters of the samples.  The sleep length
 * is only queried when the typical interval exceeds RESIDENCY_THRESHOLD_NS
 * or the tick is already stopped.  The deepest enabled state whose target
 * residency fits the prediction (and exit latency the latency limit) is
 * chosen; the tick is kept for polling states and for predictions shorter
 * than the tick period.
 *
 * Integer types are the kernel's: the correction factors and intervals are
 * unsigned int (the interval from ktime_to_us() is truncated to 32 bits,
 * as in the kernel), times u64 or s64; the kernel's implicit
 * signed/unsigned conversions are spelled out as casts, and the variance
 * product is computed in u64 so that it wraps as the kernel's does.
 */
#include <string.h>

#include "governors.h"

#define BUCKETS 6
#define INTERVAL_SHIFT 3
#define INTERVALS (1u << INTERVAL_SHIFT)
#define RESOLUTION 1024
#define DECAY 8
#define MAX_INTERESTING (50000 * 1000LL)
#define NSEC_PER_USEC 1000LL
#define KTIME_MAX INT64_MAX

enum { P_RESIDENCY_THRESHOLD_NS };

static const struct is_param_desc menu_params[] = {
	[P_RESIDENCY_THRESHOLD_NS] = { "residency_threshold_ns",
				       "RESIDENCY_THRESHOLD_NS (gov.h): query timers above it",
				       15000, 0, 1000000000, NULL },
};

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

static inline int which_bucket(uint64_t duration_ns)
{
	int bucket = 0;

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

static void menu_update_intervals(struct menu_device *data, unsigned int interval_us)
{
	data->intervals[data->interval_ptr++] = interval_us;
	if (data->interval_ptr >= (int)INTERVALS)
		data->interval_ptr = 0;
}

/*
 * get_typical_interval() of the kernel works on the samples not above a
 * threshold that drops the largest remaining value on each round.  Those
 * are always the smallest few, so here the eight samples are sorted once
 * (a 19-comparator network) and each round takes a prefix of them, with
 * prefix sums of v and v^2 computed once.  The sum, count and maximum are
 * the kernel's because integer sums do not depend on the order of their
 * terms.  The kernel's variance is the sum of (s64)(v - avg)^2 wrapping in
 * u64, i.e. computed modulo 2^64, where sum (v - a)^2 = sum v^2 -
 * 2 a sum v + n a^2 holds exactly: the same u64 before the division.
 */
#define CSWAP(a, b) do { \
	unsigned int lo_ = v[a] < v[b] ? v[a] : v[b]; \
	unsigned int hi_ = v[a] < v[b] ? v[b] : v[a]; \
	v[a] = lo_; \
	v[b] = hi_; \
} while (0)

static unsigned int get_typical_interval(struct menu_device *data)
{
	unsigned int v[INTERVALS], max, avg;
	uint64_t sum, variance, sums[INTERVALS + 1], squares[INTERVALS + 1];
	int i, n, divisor;

	G_STATIC_ASSERT(INTERVALS == 8);
	memcpy(v, data->intervals, sizeof(v));
	CSWAP(0, 2); CSWAP(1, 3); CSWAP(4, 6); CSWAP(5, 7);
	CSWAP(0, 4); CSWAP(1, 5); CSWAP(2, 6); CSWAP(3, 7);
	CSWAP(0, 1); CSWAP(2, 3); CSWAP(4, 5); CSWAP(6, 7);
	CSWAP(2, 4); CSWAP(3, 5);
	CSWAP(1, 4); CSWAP(3, 6);
	CSWAP(1, 2); CSWAP(3, 4); CSWAP(5, 6);

	/* thresh = INT_MAX */
	n = 0;
	for (i = 0; i < (int)INTERVALS; i++)
		n += v[i] <= (UINT32_MAX >> 1);
	sums[0] = squares[0] = 0;
	for (i = 0; i < n; i++) {
		sums[i + 1] = sums[i] + v[i];
		squares[i + 1] = squares[i] + (uint64_t)v[i] * v[i];
	}

	for (;;) {
		/* the samples <= thresh are v[0..n-1] */
		max = n ? v[n - 1] : 0;
		if (!max)
			return UINT32_MAX;

		sum = sums[n];
		divisor = n;

		if (divisor == (int)INTERVALS)
			avg = (unsigned int)(sum >> INTERVAL_SHIFT);
		else
			avg = (unsigned int)(sum / (uint32_t)divisor);

		variance = squares[n] - 2 * (uint64_t)avg * sum +
			   (uint64_t)n * ((uint64_t)avg * avg);
		if (divisor == (int)INTERVALS)
			variance >>= INTERVAL_SHIFT;
		else
			variance /= (uint32_t)divisor;

		if (variance <= UINT64_MAX / 36) {
			if ((((uint64_t)avg * avg > variance * 36) &&
			     ((unsigned long)divisor * 4 >= INTERVALS * 3)) ||
			    variance <= 400)
				return avg;
		}

		if ((unsigned long)divisor * 4 <= INTERVALS * 3)
			return UINT32_MAX;

		/* thresh = max - 1: drop every copy of the maximum */
		while (n && v[n - 1] == max)
			n--;
	}
}

#undef CSWAP

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
	const int64_t threshold = env->params->v[P_RESIDENCY_THRESHOLD_NS];
	int64_t latency_req = call->latency_req_ns;
	uint64_t predicted_ns;
	int64_t delta, delta_tick;
	int i, idx;

	if (data->needs_update) {
		menu_update(data, env);
		data->needs_update = 0;
	} else if (!env->last_residency_ns) {
		menu_update_intervals(data, UINT32_MAX);
	}

	predicted_ns = (uint64_t)get_typical_interval(data) * NSEC_PER_USEC;
	if (predicted_ns > (uint64_t)threshold || call->tick_stopped) {
		unsigned int timer_us;

		delta = is_gov_sleep_length(call, &delta_tick);
		if (delta < 0) {
			delta = 0;
			delta_tick = 0;
		}

		data->next_timer_ns = (uint64_t)delta;
		data->bucket = (unsigned int)which_bucket(data->next_timer_ns);

		timer_us = (unsigned int)(((uint64_t)(RESOLUTION * DECAY * NSEC_PER_USEC) / 2 +
					   data->next_timer_ns *
					   data->correction_factor[data->bucket]) /
					  (uint64_t)(RESOLUTION * DECAY * NSEC_PER_USEC));
		if ((uint64_t)timer_us * NSEC_PER_USEC < predicted_ns)
			predicted_ns = (uint64_t)timer_us * NSEC_PER_USEC;
		if (call->tick_stopped && predicted_ns < (uint64_t)tick_nsec)
			predicted_ns = data->next_timer_ns;
	} else {
		data->next_timer_ns = KTIME_MAX;
		delta_tick = tick_nsec / 2;
		data->bucket = (unsigned int)which_bucket(KTIME_MAX);
	}

	if (drv->count <= 1 || latency_req == 0 ||
	    ((data->next_timer_ns < (uint64_t)drv->s[1].target_residency_ns ||
	      latency_req < drv->s[1].exit_latency_ns) &&
	     !is_disabled(env, 0))) {
		*stop_tick = !(drv->s[0].flags & IS_STATE_POLLING);
		return 0;
	}

	idx = -1;
	for (i = 0; i < drv->count; i++) {
		const struct is_state *s = &drv->s[i];

		if (is_disabled(env, i))
			continue;

		if (idx == -1)
			idx = i;

		if (s->exit_latency_ns > latency_req)
			break;

		if ((uint64_t)s->target_residency_ns <= predicted_ns) {
			idx = i;
			continue;
		}

		if ((drv->s[idx].flags & IS_STATE_POLLING) &&
		    s->target_residency_ns < threshold &&
		    (uint64_t)s->target_residency_ns <= data->next_timer_ns &&
		    (uint64_t)s->exit_latency_ns <= predicted_ns) {
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

	if (idx == -1)
		idx = 0;

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

const struct is_governor is_gov_menu612 = {
	.name = "menu-6.12",
	.description = "Linux 6.12 menu (Debian linux-source-6.12)",
	.state_size = sizeof(struct menu_device),
	.params = menu_params,
	.nparams = G_N_ELEMENTS(menu_params),
	.init = menu_enable_device,
	.select = menu_select,
	.reflect = menu_reflect,
};
