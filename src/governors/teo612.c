// SPDX-License-Identifier: GPL-2.0-only
/**
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
 * state0_sleep_length=skip (not the default) leaves out one 6.12 commit,
 * 4b20b07ce72f: the sleep length read when the intercepts logic picks
 * state 0.  Without it a tick wakeup from state 0 is a hit in the deepest
 * state's bin, which is how 6.6 got out of the lock-in that a linux-pm
 * report of 6.12 bisected to that commit (docs/governors.md).
 *
 * dev->last_state_idx starts at 0 (the per-CPU cpuidle_device is
 * zero-initialised), so the first select runs teo_update() on the zeroed
 * data, as a kernel booted with cpuidle.governor=teo does.
 */

/**
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
 *
 * Two params try the RFC's own choices on 6.12; the series has both as
 * module parameters, and their defaults are its default algorithm:
 *  - range=chosen (teo.wteo_range=1): the candidates are 0..I, not 0..P
 *    (or 0..the timer candidate), as the RFC's pick never went deeper than
 *    the state its intervals logic chose;
 *  - trigger=timer (teo.wteo_trigger=1): the pick runs only when I is
 *    shallower than the state the sleep length alone gives (P clamped to
 *    the latency constraint, then teo_find_shallower_state() for the sleep
 *    length), as the RFC compared with its timer-based candidate.  That
 *    needs the sleep length whenever the intercepts logic moved, so it is
 *    read then (the lazy query is given up for those selections), kept
 *    for teo_update() and used later in the select.  The series reads it
 *    once there and skips its later reads, as a second
 *    tick_nohz_get_sleep_length() would see a later clock; the simulator's
 *    accessor returns the same value on every call, which is the same.
 *
 * A third, poll=avoid (teo.wteo_avoid_poll=1), is not the RFC's: the pick
 * leaves polling states out (with no candidate left, TEO's choice stays).
 * A row that learnt short idle durations sends the CPU to the polling
 * state far more often than TEO does, and teo_reflect() takes each expiry
 * of the poll time limit as a non-genuine wakeup, i.e. as a hit in the
 * sleep length's bin: with no timer armed that is the deepest state,
 * which the next selection then enters (hackbench in
 * docs/rfc-summary.md).  pick=random draws either way, so the random
 * stream does not shift.
 */
#include <string.h>

#include "governors.h"
#include "wteo_weights.h"
#include "../sim/lanes_vec.h"

enum { P_PULSE, P_DECAY_SHIFT, P_RESIDENCY_THRESHOLD_NS, P_STATE0_SLEEP_LENGTH,
       P_LEARNING_RATE, P_INIT_SELF_WEIGHT, P_PICK, P_TRIGGER, P_RANGE, P_POLL,
       P_AGING, P_AGING_RATE, P_AGING_PERIOD_MS };

static const char *const pick_names[] = { "random", "argmax", NULL };
static const char *const trigger_names[] = { "deepest", "timer", NULL };
static const char *const range_names[] = { "reference", "chosen", NULL };
static const char *const poll_names[] = { "allow", "avoid", NULL };
static const char *const state0_sl_names[] = { "read", "skip", NULL };
enum { AGING_NONE, AGING_MAX, AGING_MAX_PERIODIC, AGING_INITIAL, AGING_RESET };
static const char *const aging_names[] = { "none", "max", "max-periodic", "initial", "reset",
					   NULL };

#define TEO_COMMON_PARAMS \
	[P_PULSE] = { "pulse", "PULSE: metric increment per wakeup", 1024, 1, 1 << 20, NULL }, \
	[P_DECAY_SHIFT] = { "decay_shift", "DECAY_SHIFT: bins decay by 1/2^n per wakeup", 3, \
			    1, 31, NULL }, \
	[P_RESIDENCY_THRESHOLD_NS] = { "residency_threshold_ns", \
				       "RESIDENCY_THRESHOLD_NS (gov.h): skip the timer check below it", \
				       15000, 0, 1000000000, NULL }, \
	[P_STATE0_SLEEP_LENGTH] = { "state0_sleep_length", \
				    "when the intercepts logic picks state 0: read (6.12, commit " \
				    "4b20b07ce72f) or skip (before it) the sleep length", 0, 0, 1, \
				    state0_sl_names }

static const struct is_param_desc teo_params[] = {
	TEO_COMMON_PARAMS,
};

static const struct is_param_desc wteo_params[] = {
	TEO_COMMON_PARAMS,
	[P_LEARNING_RATE] = { "learning_rate", "weight moved per wakeup, in 1/1024 (102 ~ 10%)",
			      102, 0, 1024, NULL },
	[P_INIT_SELF_WEIGHT] = { "init_self_weight",
				 "initial diagonal weight, in 1/1024 (614 ~ 60%)", 614, 0, 1024,
				 NULL },
	[P_PICK] = { "pick", "random: weighted draw (the kernel's); argmax: heaviest state",
		     0, 0, 1, pick_names },
	[P_TRIGGER] = { "trigger",
			"pick when TEO went shallower than: deepest or timer (the sleep-length "
			"candidate, as the RFC; the series' teo.wteo_trigger=1)",
			0, 0, 1, trigger_names },
	[P_RANGE] = { "range",
		      "candidates: reference (up to the trigger's state) or chosen (up to "
		      "TEO's choice, as the RFC; the series' teo.wteo_range=1)", 0, 0, 1,
		      range_names },
	[P_POLL] = { "poll",
		     "polling states as the pick's candidates: allow, or avoid (never; the "
		     "series' teo.wteo_avoid_poll=1)", 0, 0, 1, poll_names },
	[P_AGING] = { "aging",
		      "aging of the weights (docs/aging.md): none; max (the talk's: each update's "
		      "row gives aging_rate of its heaviest weight to the others); max-periodic "
		      "(the cover letter's: every row, every aging_period_ms); initial (every "
		      "row moves aging_rate of the way back to its initial weights, every "
		      "aging_period_ms); reset (a row whose target weighed under 1/16 four "
		      "updates in a row starts again from its initial weights)", 0, 0, 4,
		      aging_names },
	[P_AGING_RATE] = { "aging_rate", "aging's share, in 1/1024 (64 = 1/16)", 64, 0, 1024,
			   NULL },
	[P_AGING_PERIOD_MS] = { "aging_period_ms", "the period of max-periodic and initial",
				100, 1, 600000, NULL },
};

/*
 * Bins are kept as two arrays (the kernel has an array of struct
 * teo_bin): the decay pass then runs over whole vectors.  Entries past the
 * table's last state stay zero, so decaying and summing them changes
 * nothing.
 */
#define TEO_BINS 16

/*
 * What select and update read of the driver, the disable mask and the
 * latency limit, gathered once per change instead of walking the table
 * on every call.  Not kernel state: a cache of its inputs, keyed on the
 * table's address (a CPU's table does not change under it, as a cpuidle
 * driver's does not).
 */
struct teo_env_cache {
	const struct is_state_table *drv;
	int64_t residency[TEO_BINS];     /* target_residency_ns */
	int64_t exit_latency[TEO_BINS];  /* exit_latency_ns */
	uint32_t polling;                /* CPUIDLE_FLAG_POLLING, per state */
	/* for (disabled, latency_req): the first loop of teo_select() */
	bool valid;
	uint32_t disabled;
	int64_t latency_req;
	int64_t tick_nsec;
	uint32_t long_ok;                /* enabled states passing teo_state_ok()
					    with the tick stopped */
	int deepest;                     /* its idx: deepest enabled, -1 if none */
	unsigned int below[TEO_BINS];    /* ~0 for the bins below it, else 0 */
	int idx0;
	int constraint_idx;
};

struct teo_cpu {
	int64_t time_span_ns;
	int64_t sleep_length_ns;
	unsigned int hits[TEO_BINS];       /* state_bins[i].hits */
	unsigned int intercepts[TEO_BINS]; /* state_bins[i].intercepts */
	unsigned int total;
	unsigned int tick_hits;
	int last_state_idx;  /* dev->last_state_idx */
	struct teo_env_cache ec;
	/* wteo only; rows padded with zeros for wteo_update_row_padded() */
	uint16_t weights[IS_STATE_MAX][WTEO_ROW];
	/* aging: the last periodic pass, and each row's surprises in a row */
	int64_t aged_ns;
	uint8_t surprises[IS_STATE_MAX];
};

#define KTIME_MAX INT64_MAX

static void teo_env_fill(struct teo_env_cache *ec, const struct is_state_table *drv)
{
	memset(ec, 0, sizeof(*ec));
	ec->drv = drv;
	for (int i = drv->count; i < TEO_BINS; i++)
		ec->residency[i] = INT64_MAX;
	for (int i = 0; i < drv->count; i++) {
		ec->residency[i] = drv->s[i].target_residency_ns;
		ec->exit_latency[i] = drv->s[i].exit_latency_ns;
		if (drv->s[i].flags & IS_STATE_POLLING)
			ec->polling |= 1u << i;
	}
}

static inline const struct teo_env_cache *teo_driver(struct teo_cpu *cpu_data,
						     const struct is_gov_env *env)
{
	struct teo_env_cache *ec = &cpu_data->ec;

	if (__builtin_expect(ec->drv != env->drv, 0))
		teo_env_fill(ec, env->drv);
	return ec;
}

/*
 * The hot path is instantiated twice: for tables of up to 7 states it
 * touches only the first 8 bins (the rest stay zero), otherwise all 16.
 */
#define TEO_HOT static inline __attribute__((always_inline))

/* Number of states (of @count) whose residency is at most @x. */
TEO_HOT int teo_count_le(const struct teo_env_cache *ec, int count, int64_t x, int nb)
{
	int n = nb == 8 ? is_count_le8(ec->residency, x) : is_count_le16(ec->residency, x);

	G_STATIC_ASSERT(TEO_BINS == 16 && IS_STATE_MAX < TEO_BINS);
	return n < count ? n : count;
}

typedef unsigned int teo_v4 __attribute__((vector_size(16)));

#if defined(__clang__)
#define TEO_SHUF(x, y, ...) __builtin_shufflevector(x, y, __VA_ARGS__)
#else
#define TEO_SHUF(x, y, ...) __builtin_shuffle(x, y, (teo_v4){ __VA_ARGS__ })
#endif

/* The lanes of a, b, c and d summed into lanes 0, 1, 2 and 3 (wrapping). */
TEO_HOT teo_v4 teo_hsum4(teo_v4 a, teo_v4 b, teo_v4 c, teo_v4 d)
{
	teo_v4 ab = TEO_SHUF(a, b, 0, 4, 1, 5) + TEO_SHUF(a, b, 2, 6, 3, 7);
	teo_v4 cd = TEO_SHUF(c, d, 0, 4, 1, 5) + TEO_SHUF(c, d, 2, 6, 3, 7);

	return TEO_SHUF(ab, cd, 0, 1, 4, 5) + TEO_SHUF(ab, cd, 2, 3, 6, 7);
}

/*
 * A bin never exceeds (PULSE + 1) << DECAY_SHIFT: if x <= B then
 * x - (x >> s) + PULSE <= B - (B >> s) + PULSE < B for that B.  Up to
 * this bound eight bins sum to less than 2^30, so no sum of the intercepts
 * scan, nor twice it, wraps.
 */
#define TEO_SCAN_MAX_BIN (1u << 27)

/*
 * teo_select()'s intercepts scan when every state below @idx is enabled
 * and passes teo_state_ok(), on at most 8 bins whose sums cannot wrap.
 * The loop stops at the first i (going down from idx - 1) where twice
 * the intercepts of bins i..idx-1 exceed @idx_intercept_sum.  Those sums
 * only grow as i falls, so the i where it holds are 0..k and the loop
 * returns k: one less than their number, or @idx when there are none.
 * Counted without a loop, whose exit is data-dependent and mispredicts.
 */
TEO_HOT int teo_scan_intercepts8(const struct teo_cpu *cpu_data,
				 const struct teo_env_cache *ec, int idx,
				 unsigned int idx_intercept_sum)
{
	typedef int v4s __attribute__((vector_size(16)));
	const teo_v4 z = { 0 };
	const v4s t = { (int)idx_intercept_sum, (int)idx_intercept_sum,
			(int)idx_intercept_sum, (int)idx_intercept_sum };
	teo_v4 a, b, ma, mb, n;

	memcpy(&a, cpu_data->intercepts, sizeof(a));
	memcpy(&b, cpu_data->intercepts + 4, sizeof(b));
	memcpy(&ma, ec->below, sizeof(ma));
	memcpy(&mb, ec->below + 4, sizeof(mb));
	a &= ma;
	b &= mb;
	/* sums of lanes i..7 */
	b += TEO_SHUF(b, z, 1, 2, 3, 4);
	b += TEO_SHUF(b, z, 2, 3, 4, 4);
	a += TEO_SHUF(a, z, 1, 2, 3, 4);
	a += TEO_SHUF(a, z, 2, 3, 4, 4);
	a += TEO_SHUF(b, b, 0, 0, 0, 0);
	/* lanes where the loop would stop: -1 each */
	n = (teo_v4)((v4s)(a + a) > t) + (teo_v4)((v4s)(b + b) > t);
	n = teo_hsum4(n, z, z, z);
	return n[0] ? (int)(0u - n[0]) - 1 : idx;
}

/*
 * The sums of the kernel's first loop in teo_select(): idx_*_sum cover the
 * bins below the deepest enabled state, tick_intercept_sum all of them.
 */
struct teo_sums {
	unsigned int idx_intercept;
	unsigned int idx_hit;
	unsigned int tick_intercept;
};

/*
 * teo_update(); @sums receives the first loop's sums of teo_select() over
 * the bins as this leaves them, taken in the decay pass (unsigned sums
 * wrap, so the order of the additions does not matter).
 */
TEO_HOT void teo_update(struct teo_cpu *cpu_data, const struct is_gov_env *env,
			const struct teo_env_cache *ec, bool weighted, int nb,
			struct teo_sums *sums)
{
	const int count = env->drv->count;
	const unsigned int pulse = (unsigned int)env->params->v[P_PULSE];
	const int shift = (int)env->params->v[P_DECAY_SHIFT];
	const int64_t tick_nsec = env->tick_nsec;
	const int64_t sleep_length_ns = cpu_data->sleep_length_ns;
	int i, idx_timer, idx_duration, n_timer, n_duration;
	int64_t target_residency_ns;
	unsigned int total = 0, ii = 0, ih = 0, ti = 0;
	uint64_t measured_ns;

	/* as selects (cmov): whether the timer came first is a coin toss */
	{
		uint64_t lat_ns = (uint64_t)ec->exit_latency[cpu_data->last_state_idx];
		uint64_t res_ns = (uint64_t)env->last_residency_ns;
		uint64_t m = res_ns >= lat_ns ? res_ns - lat_ns / 2 : res_ns / 2;

		/* masks, not a ternary: the compiler turned that into a branch */
		measured_ns = m | (0 - (uint64_t)(cpu_data->time_span_ns >= sleep_length_ns));
	}

	/*
	 * Four lanes at a time, by hand: the compiler's version of this loop
	 * checked for aliasing and reduced each sum on its own.
	 */
	{
		teo_v4 vt = { 0 }, vii = { 0 }, vih = { 0 }, vti = { 0 }, sum;

		for (i = 0; i < nb; i += 4) {
			teo_v4 h, n, b;

			memcpy(&h, cpu_data->hits + i, sizeof(h));
			memcpy(&n, cpu_data->intercepts + i, sizeof(n));
			memcpy(&b, ec->below + i, sizeof(b));
			h -= h >> shift;
			n -= n >> shift;
			memcpy(cpu_data->hits + i, &h, sizeof(h));
			memcpy(cpu_data->intercepts + i, &n, sizeof(n));
			vt += h + n;
			vii += n & b;
			vih += h & b;
			vti += n;
		}
		sum = teo_hsum4(vt, vii, vih, vti);
		total = sum[0];
		ii = sum[1];
		ih = sum[2];
		ti = sum[3];
	}
	cpu_data->total = total;

	/*
	 * The kernel's loop keeps the last state whose residency is within
	 * the sleep length (idx_timer), and of those the last also within
	 * the measured duration (s64 <= u64: compared as u64; idx_duration),
	 * both 0 if none.  Residencies are non-negative and non-decreasing
	 * (is_states_validate()), so each is a prefix and its length is
	 * enough; a residency is within a measured duration above S64_MAX.
	 */
	n_timer = teo_count_le(ec, count, sleep_length_ns, nb);
	{
		uint64_t big = 0 - (uint64_t)(measured_ns > (uint64_t)INT64_MAX);

		n_duration = teo_count_le(ec, count,
					  (int64_t)((measured_ns & ~big) | ((uint64_t)INT64_MAX & big)),
					  nb);
	}
	if (n_duration > n_timer)
		n_duration = n_timer;
	idx_timer = n_timer ? n_timer - 1 : 0;
	idx_duration = n_duration ? n_duration - 1 : 0;
	target_residency_ns = ec->residency[count - 1];

	if (target_residency_ns < tick_nsec) {
		cpu_data->tick_hits -= cpu_data->tick_hits >> shift;

		cpu_data->total += cpu_data->tick_hits;

		if (tick_nsec <= sleep_length_ns) {
			idx_timer = count;
			if ((uint64_t)tick_nsec <= measured_ns) {
				cpu_data->tick_hits += pulse;
				goto end;
			}
		}
	}

	if (idx_timer == idx_duration) {
		cpu_data->hits[idx_timer] += pulse;
		ih += pulse & ec->below[idx_timer];
	} else {
		cpu_data->intercepts[idx_duration] += pulse;
		ii += pulse & ec->below[idx_duration];
		ti += pulse;
	}

end:
	cpu_data->total += pulse;
	sums->idx_intercept = ii;
	sums->idx_hit = ih;
	sums->tick_intercept = ti;

	if (weighted) {
		const int r = cpu_data->last_state_idx;
		uint16_t *row = cpu_data->weights[r];
		const int64_t aging = env->params->v[P_AGING];

		if (__builtin_expect(aging == AGING_RESET, 0)) {
			/* a row that kept being wrong: the pattern changed */
			cpu_data->surprises[r] = row[idx_duration] < WTEO_ONE / 16 ?
						 cpu_data->surprises[r] + 1 : 0;
			if (cpu_data->surprises[r] >= 4) {
				wteo_init_row(row, env->drv->count, r,
					      (unsigned int)env->params->v[P_INIT_SELF_WEIGHT]);
				cpu_data->surprises[r] = 0;
			}
		}
		wteo_update_row_padded(row, idx_duration,
				       (unsigned int)env->params->v[P_LEARNING_RATE], nb);
		if (__builtin_expect(aging == AGING_MAX, 0))
			wteo_age_max(row, env->drv->count,
				     (unsigned int)env->params->v[P_AGING_RATE]);
	}
}

/*
 * The periodic aging variants, at a select: one pass over every row per
 * aging_period_ms elapsed since the last (at most 64 passes at once).
 */
static void wteo_age_periodic(struct teo_cpu *cpu_data, const struct is_gov_env *env,
			      int64_t now_ns)
{
	const int64_t period = env->params->v[P_AGING_PERIOD_MS] * 1000000;
	const unsigned int rate = (unsigned int)env->params->v[P_AGING_RATE];
	const int n = env->drv->count;
	int64_t k;

	if (!cpu_data->aged_ns || now_ns < cpu_data->aged_ns) {
		cpu_data->aged_ns = now_ns ? now_ns : 1;
		return;
	}
	k = (now_ns - cpu_data->aged_ns) / period;
	if (!k)
		return;
	cpu_data->aged_ns += k * period;
	for (k = MIN(k, 64); k > 0; k--)
		for (int r = 0; r < n; r++) {
			if (env->params->v[P_AGING] == AGING_MAX_PERIODIC) {
				wteo_age_max(cpu_data->weights[r], n, rate);
			} else {
				uint16_t init[WTEO_ROW] = { 0 };

				wteo_init_row(init, n, r,
					      (unsigned int)env->params->v[P_INIT_SELF_WEIGHT]);
				wteo_age_toward(cpu_data->weights[r], init, n, r, rate);
			}
		}
}

static inline bool teo_state_ok(const struct teo_env_cache *ec, int i,
				const struct is_gov_env *env, const struct is_gov_call *c)
{
	return !c->tick_stopped || ec->residency[i] >= env->tick_nsec;
}

TEO_HOT int teo_find_shallower_state(const struct teo_env_cache *ec,
				     const struct is_gov_env *env, int state_idx,
				     int64_t duration_ns, bool no_poll, int nb)
{
	int i;

	/*
	 * With no state below skipped, the loop ends at the deepest state
	 * below whose residency is within @duration_ns, else at state 0;
	 * residencies are non-decreasing, so that is a count (its exit is
	 * data-dependent and would mispredict).
	 */
	if (!no_poll && !(env->disabled & ((1u << state_idx) - 1))) {
		int n = teo_count_le(ec, state_idx, duration_ns, nb);

		return n ? n - 1 : 0;
	}

	for (i = state_idx - 1; i >= 0; i--) {
		if (is_disabled(env, i) || (no_poll && (ec->polling & (1u << i))))
			continue;

		state_idx = i;
		if (ec->residency[i] <= duration_ns)
			break;
	}
	return state_idx;
}

/* The first loop of teo_select() without its sums: idx, idx0, constraint_idx. */
static void teo_env_refresh(struct teo_env_cache *ec, const struct is_gov_env *env,
			    int64_t latency_req)
{
	int idx = is_disabled(env, 0) ? -1 : 0, idx0 = 0, constraint_idx = 0;

	for (int i = 1; i < env->drv->count; i++) {
		if (is_disabled(env, i))
			continue;
		if (idx < 0)
			idx0 = i;
		idx = i;
		if (ec->exit_latency[i] <= latency_req)
			constraint_idx = i;
	}
	ec->valid = true;
	ec->disabled = env->disabled;
	ec->latency_req = latency_req;
	ec->tick_nsec = env->tick_nsec;
	ec->long_ok = 0;
	for (int i = 0; i < env->drv->count; i++)
		if (!is_disabled(env, i) && ec->residency[i] >= env->tick_nsec)
			ec->long_ok |= 1u << i;
	ec->deepest = idx;
	for (int i = 0; i < TEO_BINS; i++)
		ec->below[i] = i < idx ? ~0u : 0;
	ec->idx0 = idx0;
	ec->constraint_idx = constraint_idx;
}

TEO_HOT int teo_select_common(void *st, const struct is_gov_env *env,
			      struct is_gov_call *call, bool *stop_tick, bool weighted, int nb)
{
	struct teo_cpu *cpu_data = st;
	const int count = env->drv->count;
	const int64_t tick_nsec = env->tick_nsec;
	int64_t latency_req = call->latency_req_ns;
	int64_t delta_tick = tick_nsec / 2;
	unsigned int tick_intercept_sum;
	unsigned int idx_intercept_sum;
	unsigned int intercept_sum = 0;
	unsigned int idx_hit_sum;
	const struct teo_env_cache *ec = teo_driver(cpu_data, env);
	struct teo_sums sums;
	int constraint_idx;
	int idx0, idx;
	int prev_intercept_idx;
	int64_t duration_ns;
	int i;

	/* teo_update() does not depend on it; its sums need the mask below */
	if (__builtin_expect(!ec->valid || ec->disabled != env->disabled ||
			     ec->latency_req != latency_req || ec->tick_nsec != tick_nsec, 0))
		teo_env_refresh(&cpu_data->ec, env, latency_req);

	if (__builtin_expect(cpu_data->last_state_idx >= 0, 1)) {
		teo_update(cpu_data, env, ec, weighted, nb, &sums);
		cpu_data->last_state_idx = -1;
	} else {
		sums = (struct teo_sums){ 0 };
		for (i = 0; i < nb; i++) {
			sums.idx_intercept += cpu_data->intercepts[i] & ec->below[i];
			sums.idx_hit += cpu_data->hits[i] & ec->below[i];
			sums.tick_intercept += cpu_data->intercepts[i];
		}
	}

	cpu_data->time_span_ns = call->now_ns;
	/*
	 * The periodic aging variants: at the clock reading that starts the
	 * span, after the update, as the series places them (its own
	 * local_clock() read there).
	 */
	if (weighted && __builtin_expect(env->params->v[P_AGING] == AGING_MAX_PERIODIC ||
					 env->params->v[P_AGING] == AGING_INITIAL, 0))
		wteo_age_periodic(cpu_data, env, call->now_ns);
	cpu_data->sleep_length_ns = KTIME_MAX;

	if (count < 2) {
		idx = 0;
		goto out_tick;
	}

	idx = ec->deepest;
	idx0 = ec->idx0;
	constraint_idx = ec->constraint_idx;

	if (idx < 0) {
		idx = 0;
		goto out_tick;
	}

	if (idx == idx0) {
		duration_ns = ec->residency[idx];
		goto end;
	}

	idx_intercept_sum = sums.idx_intercept;
	idx_hit_sum = sums.idx_hit;
	tick_intercept_sum = sums.tick_intercept;

	prev_intercept_idx = idx;
	if (2 * idx_intercept_sum > cpu_data->total - idx_hit_sum) {
		/* enabled and teo_state_ok(): one bit test instead of two */
		const uint32_t ok = call->tick_stopped ? ec->long_ok : ~env->disabled;
		const uint32_t below_idx = (1u << idx) - 1;
		int first_suitable_idx = idx;

		if (nb == 8 && (ok & below_idx) == below_idx &&
		    ((uint64_t)env->params->v[P_PULSE] + 1) << env->params->v[P_DECAY_SHIFT] <=
			    TEO_SCAN_MAX_BIN) {
			idx = teo_scan_intercepts8(cpu_data, ec, idx, idx_intercept_sum);
			goto scanned;
		}

		intercept_sum = 0;

		for (i = idx - 1; i >= 0; i--) {
			intercept_sum += cpu_data->intercepts[i];

			if (2 * intercept_sum > idx_intercept_sum) {
				if (ok & (1u << i))
					idx = i;
				else
					idx = first_suitable_idx;

				break;
			}

			if (__builtin_expect(!(ok & (1u << i)), 0)) {
				if (is_disabled(env, i))
					continue;

				/* !teo_state_ok() */
				if (first_suitable_idx != idx)
					continue;

				break;
			}

			first_suitable_idx = i;
		}
	}
scanned:
	if (weighted && idx < prev_intercept_idx) {
		int ref = prev_intercept_idx, top;
		uint32_t mask;
		int j;

		if (env->params->v[P_TRIGGER] == 1) {
			/*
			 * The RFC's trigger: the state the sleep length alone
			 * gives, as this function would find it with no
			 * intercepts (constraint, then a shallower state that
			 * fits).  The kernel would have to read the sleep length
			 * here, so it is read, kept for teo_update(), and used
			 * below with its delta_next, as the kernel would.
			 */
			duration_ns = is_gov_sleep_length(call, &delta_tick);
			cpu_data->sleep_length_ns = duration_ns;
			if (ref > constraint_idx)
				ref = constraint_idx;
			if (ec->residency[ref] > duration_ns)
				ref = teo_find_shallower_state(ec, env, ref, duration_ns, false, nb);
			if (idx >= ref)
				goto picked;
		}
		/* states 0..top, enabled and teo_state_ok() */
		top = env->params->v[P_RANGE] == 1 ? idx : ref;
		mask = (call->tick_stopped ? ec->long_ok : ~env->disabled) & ((2u << top) - 1);
		if (env->params->v[P_POLL] == 1)
			mask &= ~ec->polling;

		if (env->params->v[P_PICK] == 1)
			j = wteo_argmax(cpu_data->weights[idx], count, mask);
		else
			j = wteo_pick_padded(cpu_data->weights[idx], mask,
					     is_gov_random_u32(call), nb);
		if (j >= 0)
			idx = j;
	}
picked:
	/*
	 * 4b20b07ce72f ("cpuidle: teo: Don't count non-existent intercepts",
	 * in 6.12) added this read.  state0_sleep_length=skip leaves
	 * sleep_length_ns at KTIME_MAX as before it, so that a tick wakeup
	 * from state 0 counts as a hit in the deepest state's bin.  A
	 * linux-pm report of an idle 6.12 machine staying in state 0
	 * bisected to this commit (docs/governors.md, "The same lock-in was
	 * reported upstream").
	 */
	if (!idx && prev_intercept_idx && !env->params->v[P_STATE0_SLEEP_LENGTH]) {
		duration_ns = is_gov_sleep_length(call, &delta_tick);
		cpu_data->sleep_length_ns = duration_ns;
		goto out_tick;
	}

	if (idx > constraint_idx)
		idx = constraint_idx;

	if (!idx)
		goto out_tick;

	if ((ec->polling & 1u) &&
	    ec->residency[idx] < env->params->v[P_RESIDENCY_THRESHOLD_NS])
		goto out_tick;

	duration_ns = is_gov_sleep_length(call, &delta_tick);
	cpu_data->sleep_length_ns = duration_ns;

	/* The stable backport: no teo_state_ok() condition here. */
	if (ec->residency[idx] > duration_ns)
		idx = teo_find_shallower_state(ec, env, idx, duration_ns, false, nb);

	if (ec->residency[idx] < tick_nsec &&
	    tick_intercept_sum > cpu_data->total / 2 + cpu_data->total / 8)
		duration_ns = tick_nsec / 2;

end:
	if ((!(ec->polling & (1u << idx)) && duration_ns >= tick_nsec) ||
	    call->tick_stopped)
		return idx;

	if (idx > idx0 && ec->residency[idx] > delta_tick)
		idx = teo_find_shallower_state(ec, env, idx, delta_tick, false, nb);

out_tick:
	*stop_tick = false;
	return idx;
}

static int teo_select(void *st, const struct is_gov_env *env, struct is_gov_call *call,
		      bool *stop_tick)
{
	if (env->drv->count < 8)
		return teo_select_common(st, env, call, stop_tick, false, 8);
	return teo_select_common(st, env, call, stop_tick, false, 16);
}

static int wteo_select(void *st, const struct is_gov_env *env, struct is_gov_call *call,
		       bool *stop_tick)
{
	if (env->drv->count < 8)
		return teo_select_common(st, env, call, stop_tick, true, 8);
	return teo_select_common(st, env, call, stop_tick, true, 16);
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

/*
 * teo's metrics for one CPU (6.12 struct teo_cpu: state_bins[].hits and
 * .intercepts, tick_hits, total), one line each: what a history left,
 * e.g. the residues of 7 its decay keeps for good.
 */
static void teo_dump(const void *st, const struct is_gov_env *env, GString *out)
{
	const struct teo_cpu *cpu_data = st;
	const int n = env->drv->count;

	g_string_append_printf(out, "cpu%d\nhits:", env->cpu);
	for (int i = 0; i < n; i++)
		g_string_append_printf(out, " %u", cpu_data->hits[i]);
	g_string_append(out, "\nintercepts:");
	for (int i = 0; i < n; i++)
		g_string_append_printf(out, " %u", cpu_data->intercepts[i]);
	g_string_append_printf(out, "\ntick_hits: %u\ntotal: %u\n", cpu_data->tick_hits,
			       cpu_data->total);
}

/* The same text as the kernel's debugfs wteo/weights, for one CPU. */
static void wteo_dump(const void *st, const struct is_gov_env *env, GString *out)
{
	const struct teo_cpu *cpu_data = st;
	int m[IS_STATE_MAX * IS_STATE_MAX];

	for (int i = 0; i < IS_STATE_MAX * IS_STATE_MAX; i++)
		m[i] = cpu_data->weights[i / IS_STATE_MAX][i % IS_STATE_MAX];
	G_STATIC_ASSERT(WTEO_ROW >= IS_STATE_MAX);
	is_gov_dump_matrix(out, env->cpu, env->drv->count, m, IS_STATE_MAX);
}

#if IS_HAVE_LANES
/*
 * Lanes (governor.h): teo-6.12 and wteo for IS_LANES points at once, on
 * tables of 2 to 7 states none of which is ever disabled.  The same steps
 * as teo_update() and teo_select_common() above, each taken for every lane
 * as one vector operation with the lanes' choices as masks, so that one
 * point's branch does not mispredict for the others.  Short per-lane work
 * stays a loop over the lanes: the exit-latency lookup, the weights'
 * update and the weighted pick.  Bins are u32 vectors (hits[bin] holds
 * that bin of every lane), times s64 vectors (../sim/lanes_vec.h).
 */
#define TL_BINS 8

struct teo_lanes {
	tl_u hits[TL_BINS];
	tl_u intercepts[TL_BINS];
	tl_u total;
	tl_u tick_hits;
	tl_q time_span_ns;
	tl_q sleep_length_ns;
	tl_q last_state_idx;
	/* the lanes' params */
	tl_u pulse;
	tl_u shift;
	tl_q residency_threshold_ns;
	tl_q state0_skip;            /* mask: state0_sleep_length=skip */
	unsigned int learning_rate[IS_LANES];
	tl_q pick_argmax;            /* masks: pick=argmax, range=chosen, poll=avoid, */
	tl_q range_chosen;
	tl_q poll_avoid;
	tl_q trigger_timer;          /* trigger=timer */
	bool any_argmax;
	bool any_trigger;
	bool weighted;
	struct teo_env_cache ec;
	uint16_t weights[IS_LANES][TL_BINS][WTEO_ROW];
};

/* teo_count_le() lane by lane: states (of @count) whose residency is at most x */
TEO_HOT tl_q tl_count_le(const struct teo_env_cache *ec, int count, tl_q x)
{
	tl_q n = { 0 };

	for (int s = 0; s < count; s++)
		n -= (tl_q)(TL_Q(ec->residency[s]) <= x);
	return n;
}

/* n ? n - 1 : 0, lane by lane */
TEO_HOT tl_q tl_last_of(tl_q n)
{
	return n + (tl_q)(n != 0);
}

/* ec->residency[idx], lane by lane (idx 0..7) */
TEO_HOT tl_q tl_residency(const struct teo_env_cache *ec, tl_q idx)
{
	G_STATIC_ASSERT(IS_LANES == TL_BINS);
	return tl_lookup(ec->residency, idx);
}

/* teo_find_shallower_state() with no state disabled, lane by lane */
TEO_HOT tl_q tl_find_shallower(const struct teo_env_cache *ec, int count, tl_q idx,
				     tl_q duration_ns)
{
	return tl_last_of(tl_min_q(tl_count_le(ec, count, duration_ns), idx));
}

/*
 * wteo_update_row_padded() on the first 8 weights of @row as one vector,
 * kept only if @keep (a lane mask): with no 16-bit store for the next
 * load to wait on.  The moved share is (w * (rate << 6)) >> 16 in 32 bits,
 * which is (w * rate) >> 10 for every rate up to 1024; at 1024 the row
 * becomes its sum at the target, as wteo_update_row() makes it.
 */
TEO_HOT void wteo_lanes_update_row(uint16_t *row, int target, unsigned int rate, int64_t keep)
{
	typedef uint16_t v8 __attribute__((vector_size(16)));
	typedef uint32_t v8w __attribute__((vector_size(32)));
	const v8 lane = { 0, 1, 2, 3, 4, 5, 6, 7 };
	const v8 m = (v8){ 0 } + (uint16_t)keep;
	v8 r, d, n;
	unsigned int moved = 0, w;

	memcpy(&r, row, sizeof(r));
	w = r[target];
	d = __builtin_convertvector((__builtin_convertvector(r, v8w) * ((v8w){ 0 } + (rate << 6))) >> 16,
				    v8);
	for (int j = 0; j < 8; j++)
		moved += d[j];
	moved -= (w * rate) >> WTEO_SHIFT;
	n = r - d;
	n = ((v8)(lane == (uint16_t)target) & ((v8){ 0 } + (uint16_t)(w + moved))) |
	    (n & ~(v8)(lane == (uint16_t)target));
	r = (n & m) | (r & ~m);
	memcpy(row, &r, sizeof(r));
}

/* teo_update() for the lanes of @upd (the others' bins stay). */
TEO_HOT void teo_lanes_update(struct teo_lanes *tl, const struct teo_env_cache *ec,
				    int count, int64_t tick_nsec, tl_q upd, tl_q lres)
{
	const tl_u pulse = tl->pulse, sh = tl->shift, um = tl_mask_u(upd);
	const tl_q sl = tl->sleep_length_ns;
	tl_u h[TL_BINS], n[TL_BINS], total = { 0 }, th = tl->tick_hits, hit, icp;
	tl_q nt, nd, it, id, mx, skip = { 0 };
	tl_uq lat, res = (tl_uq)lres, measured;

	lat = (tl_uq)tl_lookup(ec->exit_latency, tl_max_q(tl->last_state_idx, TL_Q(0)));
	measured = (tl_uq)tl_blend_q((tl_q)(res >= lat), (tl_q)(res - lat / 2), (tl_q)(res / 2));
	measured |= (tl_uq)(tl->time_span_ns >= sl);

	for (int b = 0; b < TL_BINS; b++) {
		h[b] = tl->hits[b] - (tl->hits[b] >> sh);
		n[b] = tl->intercepts[b] - (tl->intercepts[b] >> sh);
		total += h[b] + n[b];
	}
	nt = tl_count_le(ec, count, sl);
	mx = tl_blend_q((tl_q)measured < 0, TL_Q(INT64_MAX), (tl_q)measured);
	nd = tl_min_q(tl_count_le(ec, count, mx), nt);
	it = tl_last_of(nt);
	id = tl_last_of(nd);
	if (ec->residency[count - 1] < tick_nsec) {
		tl_q timer = TL_Q(tick_nsec) <= sl;

		th -= th >> sh;
		total += th;
		it = tl_blend_q(timer, TL_Q(count), it);
		skip = timer & (tl_q)((tl_uq)TL_Q(tick_nsec) <= measured);
		th += tl_mask_u(skip) & pulse;
	}
	hit = tl_mask_u(~skip & (it == id)) & pulse;
	icp = tl_mask_u(~skip & (it != id)) & pulse;
	{
		const tl_u itu = __builtin_convertvector(it, tl_u);
		const tl_u idu = __builtin_convertvector(id, tl_u);

		for (int b = 0; b < TL_BINS; b++) {
			h[b] += hit & (tl_u)(itu == TL_U(b));
			n[b] += icp & (tl_u)(idu == TL_U(b));
			tl->hits[b] = tl_blend_u(um, h[b], tl->hits[b]);
			tl->intercepts[b] = tl_blend_u(um, n[b], tl->intercepts[b]);
		}
	}
	total += pulse;
	tl->total = tl_blend_u(um, total, tl->total);
	tl->tick_hits = tl_blend_u(um, th, tl->tick_hits);
	if (tl->weighted)
		for (int l = 0; l < IS_LANES; l++)
			wteo_lanes_update_row(tl->weights[l][tl->last_state_idx[l] < 0 ? 0 :
							     tl->last_state_idx[l]],
					      (int)id[l], tl->learning_rate[l], upd[l]);
}

/*
 * wteo's pick (teo_select_common() from "if (weighted && idx <
 * prev_intercept_idx)") for every lane at once: wteo_pick_padded()'s
 * running sums and count, on the lanes' rows turned into columns across
 * the lanes (16-bit: a row sums to 1024), with no branch on which lanes
 * pick (a coin toss per lane).  A lane's stream moves only where it draws.
 * A lane with pick=argmax takes wteo_argmax() on its own.
 */
TEO_HOT tl_q wteo_lanes_pick(struct teo_lanes *tl, const struct teo_env_cache *ec,
			     uint32_t disabled, struct is_gov_lanes_call *call, tl_q pick, tl_q ts,
			     tl_q ref, int count, tl_q idx)
{
	typedef uint16_t v8 __attribute__((vector_size(16)));
	const v8 lo = { 0, 8, 1, 9, 2, 10, 3, 11 }, hi = { 4, 12, 5, 13, 6, 14, 7, 15 };
	const v8 lo2 = { 0, 1, 8, 9, 2, 3, 10, 11 }, hi2 = { 4, 5, 12, 13, 6, 7, 14, 15 };
	const v8 lo4 = { 0, 1, 2, 3, 8, 9, 10, 11 }, hi4 = { 4, 5, 6, 7, 12, 13, 14, 15 };
	const tl_q has_draw = tl_load(call->has_draw);
	const tl_q random = pick & ~tl->pick_argmax;
	const tl_q top = tl_blend_q(tl->range_chosen, idx, ref);
	v8 r[8], a[8], b[8], col[8], m16, p = { 0 }, x16, cnt = { 0 };
	tl_q mask, x, draw;
	tl_uq z;

	G_STATIC_ASSERT(IS_LANES == 8);
	/* enabled and teo_state_ok(), 0..top, polling states out on poll=avoid */
	mask = tl_blend_q(ts, TL_Q(ec->long_ok), TL_Q((uint32_t)~disabled)) &
	       ((TL_Q(2) << top) - 1) &
	       tl_blend_q(tl->poll_avoid, TL_Q((uint32_t)~ec->polling), TL_Q(-1));
	m16 = __builtin_convertvector(mask, v8);
	/* is_rng_next()'s splitmix64 */
	memcpy(&z, call->rng, sizeof(z));
	z += (tl_uq)(random & ~has_draw) & IS_RNG_GOLDEN;
	memcpy(call->rng, &z, sizeof(z));
	z = (z ^ (z >> 30)) * IS_RNG_MUL1;
	z = (z ^ (z >> 27)) * IS_RNG_MUL2;
	z ^= z >> 31;
	draw = tl_blend_q(has_draw, tl_load(call->draw) & 0xffffffff, (tl_q)(z >> 32));
	/* the lanes' rows as columns: interleave 16-, 32-, then 64-bit pieces */
	for (int l = 0; l < 8; l++)
		memcpy(&r[l], tl->weights[l][idx[l]], sizeof(r[l]));
	for (int k = 0; k < 4; k++) {
		a[2 * k] = __builtin_shuffle(r[2 * k], r[2 * k + 1], lo);
		a[2 * k + 1] = __builtin_shuffle(r[2 * k], r[2 * k + 1], hi);
	}
	for (int k = 0; k < 2; k++) {
		b[4 * k] = __builtin_shuffle(a[4 * k], a[4 * k + 2], lo2);
		b[4 * k + 1] = __builtin_shuffle(a[4 * k], a[4 * k + 2], hi2);
		b[4 * k + 2] = __builtin_shuffle(a[4 * k + 1], a[4 * k + 3], lo2);
		b[4 * k + 3] = __builtin_shuffle(a[4 * k + 1], a[4 * k + 3], hi2);
	}
	for (int k = 0; k < 4; k++) {
		col[2 * k] = __builtin_shuffle(b[k], b[k + 4], lo4);
		col[2 * k + 1] = __builtin_shuffle(b[k], b[k + 4], hi4);
	}
	/* running sums of the candidates' weights; the state is the first past x */
	for (int j = 0; j < 8; j++)
		col[j] = p += col[j] & -((m16 >> j) & 1);
	x = (tl_q)(((tl_uq)draw * __builtin_convertvector(p, tl_uq)) >> 32);
	x16 = __builtin_convertvector(x, v8);
	for (int j = 0; j < 8; j++)
		cnt -= (v8)(col[j] <= x16);
	tl_store(call->draw_used, random);
	if (__builtin_expect(tl->any_argmax, 0))
		for (int l = 0; l < IS_LANES; l++) {
			int j;

			if (!(pick[l] & tl->pick_argmax[l]))
				continue;
			j = wteo_argmax(tl->weights[l][idx[l]], count, (uint32_t)mask[l]);
			if (j >= 0)
				idx[l] = j;
		}
	return tl_blend_q(random & __builtin_convertvector(p != 0, tl_q),
			  __builtin_convertvector(cnt, tl_q), idx);
}

TL_TARGET static void teo_lanes_select(void *st, const struct is_gov_env *env,
			     struct is_gov_lanes_call *call)
{
	struct teo_lanes *tl = st;
	struct teo_env_cache *ec = &tl->ec;
	const int count = env->drv->count;
	const int64_t tick_nsec = env->tick_nsec;
	const tl_q act = tl_load(call->active), ts = tl_load(call->tick_stopped);
	tl_q now, sl_in, dn_in, lres, idx, cond, done, fs, okbits, s0, zero, thr, rd, read, r;
	tl_q duration, dt, pb, keep, trig = { 0 };
	tl_u ii = { 0 }, ih = { 0 }, ti = { 0 }, isum = { 0 };
	int deepest;

	if (__builtin_expect(ec->drv != env->drv, 0))
		teo_env_fill(ec, env->drv);
	if (__builtin_expect(!ec->valid || ec->disabled != env->disabled ||
			     ec->latency_req != call->latency_req_ns || ec->tick_nsec != tick_nsec, 0))
		teo_env_refresh(ec, env, call->latency_req_ns);
	now = tl_load(call->now_ns);
	sl_in = tl_load(call->sleep_length_ns);
	dn_in = tl_load(call->delta_next_ns);
	lres = tl_load(call->last_residency_ns);

	teo_lanes_update(tl, ec, count, tick_nsec, act & (tl->last_state_idx >= 0), lres);
	deepest = ec->deepest;
	/* the first loop's sums, over the bins as the update left them */
	for (int b = 0; b < TL_BINS; b++) {
		ti += tl->intercepts[b];
		if (b < deepest) {
			ii += tl->intercepts[b];
			ih += tl->hits[b];
		}
	}
	tl->time_span_ns = tl_blend_q(act, now, tl->time_span_ns);
	tl->sleep_length_ns = tl_blend_q(act, TL_Q(KTIME_MAX), tl->sleep_length_ns);
	tl->last_state_idx = tl_blend_q(act, TL_Q(-1), tl->last_state_idx);

	/* count >= 2 and no state disabled: idx0 is 0, deepest count - 1 */
	idx = TL_Q(deepest);
	cond = tl_mask_q((tl_i)(ii + ii > tl->total - ih));
	/* enabled and teo_state_ok(), per lane */
	okbits = tl_blend_q(ts, TL_Q(ec->long_ok), TL_Q(~env->disabled));
	done = ~cond;
	fs = idx;
	for (int i = deepest - 1; i >= 0; i--) {
		const tl_q ok = ((okbits >> i) & 1) != 0;
		tl_q c2, hit, brk;

		isum += tl->intercepts[i];
		c2 = tl_mask_q((tl_i)(isum + isum > ii));
		hit = ~done & c2;
		idx = tl_blend_q(hit, tl_blend_q(ok, TL_Q(i), fs), idx);
		/* !teo_state_ok(): on if a suitable state was seen, else stop */
		brk = ~done & ~c2 & ~ok & (fs == TL_Q(deepest));
		fs = tl_blend_q(~done & ~c2 & ok, TL_Q(i), fs);
		done |= hit | brk;
	}
	tl_store(call->draw_used, TL_Q(0));
	if (tl->weighted) {
		/* the intercepts logic moved: wteo's row picks */
		const tl_q moved = act & (idx < TL_Q(deepest));
		tl_q ref = TL_Q(deepest), pick = moved;

		if (tl->any_trigger) {
			/*
			 * trigger=timer: the sleep length read here (kept for
			 * teo_update()), the state it alone gives as the
			 * reference, no pick unless TEO went shallower than it
			 */
			trig = moved & tl->trigger_timer;
			ref = tl_blend_q(trig, tl_min_q(ref, TL_Q(ec->constraint_idx)), ref);
			ref = tl_blend_q(trig & (tl_residency(ec, ref) > sl_in),
					 tl_find_shallower(ec, count, ref, sl_in), ref);
			pick = moved & ~(trig & (idx >= ref));
		}
		idx = wteo_lanes_pick(tl, ec, env->disabled, call, pick, ts, ref, count, idx);
	}
	/* 4b20b07ce72f's read when the intercepts logic picked state 0 */
	s0 = (idx == 0) & ~tl->state0_skip;
	idx = tl_min_q(idx, TL_Q(ec->constraint_idx));
	zero = ~s0 & (idx == 0);
	thr = (ec->polling & 1u) ? ~s0 & ~zero &
		(tl_residency(ec, idx) < tl->residency_threshold_ns) : TL_Q(0);
	rd = ~s0 & ~zero & ~thr;
	dt = tl_blend_q(s0 | rd, dn_in, TL_Q(tick_nsec / 2));
	read = s0 | rd | trig;
	tl->sleep_length_ns = tl_blend_q(act & read, sl_in, tl->sleep_length_ns);
	r = tl_residency(ec, idx);
	idx = tl_blend_q(rd & (r > sl_in), tl_find_shallower(ec, count, idx, sl_in), idx);
	r = tl_residency(ec, idx);
	duration = tl_blend_q(rd & (r < TL_Q(tick_nsec)) &
			      tl_mask_q((tl_i)(ti > tl->total / 2 + tl->total / 8)),
			      TL_Q(tick_nsec / 2), sl_in);
	pb = ((TL_Q(ec->polling) >> idx) & 1) != 0;
	keep = rd & ((~pb & (duration >= TL_Q(tick_nsec))) | ts);
	idx = tl_blend_q(rd & ~keep & (idx > 0) & (r > dt), tl_find_shallower(ec, count, idx, dt),
			 idx);
	tl_store(call->idx, idx);
	tl_store(call->stop_tick, keep);
	tl_store(call->sleep_length_read, read);
}

TL_TARGET static void teo_lanes_reflect(void *st, const struct is_gov_env *env,
			      const struct is_gov_lanes_wake *w)
{
	struct teo_lanes *tl = st;
	const tl_q act = tl_load(w->active), sl = tl->sleep_length_ns, now = tl_load(w->now_ns);
	const tl_q span_sl = tl_load(w->poll_time_limit) |
			     (tl_load(w->got_tick) & (sl > TL_Q(env->tick_nsec)));

	tl->last_state_idx = tl_blend_q(act, tl_load(w->entered), tl->last_state_idx);
	/* local_clock() is u64: the subtraction wraps like the kernel's */
	tl->time_span_ns = tl_blend_q(act, tl_blend_q(span_sl, sl,
						      (tl_q)((tl_uq)now - (tl_uq)tl->time_span_ns)),
				      tl->time_span_ns);
}

static bool teo_lanes_ok(const struct is_state_table *drv, uint32_t disabled,
			 const struct is_params *p, int n)
{
	if (drv->count < 2 || drv->count > TL_BINS - 1 || disabled)
		return false;
	for (int l = 0; l < n; l++)
		if (p[l].v[P_AGING] != AGING_NONE)
			return false;
	return true;
}

static int teo_lanes_init_common(void *st, const struct is_gov_env *env,
				 const struct is_params *p, bool weighted)
{
	struct teo_lanes *tl = st;
	const int count = env->drv->count;

	/* dev->last_state_idx starts at 0, as after teo_enable_device() */
	memset(tl, 0, sizeof(*tl));
	tl->weighted = weighted;
	teo_env_fill(&tl->ec, env->drv);
	for (int l = 0; l < IS_LANES; l++) {
		tl->pulse[l] = (uint32_t)p[l].v[P_PULSE];
		tl->shift[l] = (uint32_t)p[l].v[P_DECAY_SHIFT];
		tl->residency_threshold_ns[l] = p[l].v[P_RESIDENCY_THRESHOLD_NS];
		tl->state0_skip[l] = p[l].v[P_STATE0_SLEEP_LENGTH] ? -1 : 0;
		if (!weighted)
			continue;
		tl->learning_rate[l] = (unsigned int)p[l].v[P_LEARNING_RATE];
		tl->pick_argmax[l] = -(int64_t)(p[l].v[P_PICK] == 1);
		tl->range_chosen[l] = -(int64_t)(p[l].v[P_RANGE] == 1);
		tl->poll_avoid[l] = -(int64_t)(p[l].v[P_POLL] == 1);
		tl->any_argmax |= p[l].v[P_PICK] == 1;
		tl->trigger_timer[l] = -(int64_t)(p[l].v[P_TRIGGER] == 1);
		tl->any_trigger |= p[l].v[P_TRIGGER] == 1;
		for (int i = 0; i < count; i++)
			wteo_init_row(tl->weights[l][i], count, i,
				      (unsigned int)p[l].v[P_INIT_SELF_WEIGHT]);
	}
	return 0;
}

static int teo_lanes_init(void *st, const struct is_gov_env *env, const struct is_params *p)
{
	return teo_lanes_init_common(st, env, p, false);
}

static int wteo_lanes_init(void *st, const struct is_gov_env *env, const struct is_params *p)
{
	return teo_lanes_init_common(st, env, p, true);
}

#endif /* IS_HAVE_LANES */

/*
 * RESIDENCY_THRESHOLD_NS is read only in teo_select()'s
 * "drv->states[idx].target_residency_ns < RESIDENCY_THRESHOLD_NS" (Linux
 * 6.12, drivers/cpuidle/governors/teo.c), after "if (!idx) goto
 * out_tick", so idx is a state of the table other than 0 (here and in
 * teo_lanes_select()): two thresholds with the same residencies of states
 * 1.. below them are one.  The class stands as the smallest of those
 * residencies at or above the threshold (INT64_MAX: above them all).
 */
static int64_t teo_canon_param(const struct is_state_table *drv, int param, int64_t v)
{
	int64_t c = INT64_MAX;

	if (param != P_RESIDENCY_THRESHOLD_NS)
		return v;
	for (int i = 1; i < drv->count; i++)
		if (drv->s[i].target_residency_ns >= v && drv->s[i].target_residency_ns < c)
			c = drv->s[i].target_residency_ns;
	return c;
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
	.canon_param = teo_canon_param,
#if IS_HAVE_LANES
	.lanes_state_size = sizeof(struct teo_lanes),
	.lanes_ok = teo_lanes_ok,
	.lanes_init = wteo_lanes_init,
	.lanes_select = teo_lanes_select,
	.lanes_reflect = teo_lanes_reflect,
#endif
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
	.canon_param = teo_canon_param,
#if IS_HAVE_LANES
	.lanes_state_size = sizeof(struct teo_lanes),
	.lanes_ok = teo_lanes_ok,
	.lanes_init = teo_lanes_init,
	.lanes_select = teo_lanes_select,
	.lanes_reflect = teo_lanes_reflect,
#endif
};

