/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Weight arithmetic of wteo, the same as the kernel series'
 * drivers/cpuidle/governors/wteo.h (tools/kernel/patches): rows of u16
 * weights in units of 1/1024 that always sum to 1024.
 */
#ifndef IDLESIM_WTEO_WEIGHTS_H
#define IDLESIM_WTEO_WEIGHTS_H

#include <stdint.h>
#include <string.h>
#include <glib.h>

#define WTEO_SHIFT 10
#define WTEO_ONE (1u << WTEO_SHIFT)

/* @self on the diagonal, the rest split evenly, remainder on the diagonal. */
static inline void wteo_init_row(uint16_t *row, int n, int i, unsigned int self)
{
	unsigned int off;

	if (self > WTEO_ONE)
		self = WTEO_ONE;
	off = n > 1 ? (WTEO_ONE - self) / (unsigned int)(n - 1) : 0;
	for (int j = 0; j < n; j++)
		row[j] = (uint16_t)off;
	row[i] = (uint16_t)(WTEO_ONE - off * (unsigned int)(n - 1));
}

/* Move @rate/1024 of every other weight to @target; the sum is kept. */
static inline void wteo_update_row(uint16_t *row, int n, int target, unsigned int rate)
{
	unsigned int moved = 0;

	if (rate > WTEO_ONE)
		rate = WTEO_ONE;
	for (int j = 0; j < n; j++) {
		unsigned int d;

		if (j == target)
			continue;
		d = (row[j] * rate) >> WTEO_SHIFT;
		row[j] = (uint16_t)(row[j] - d);
		moved += d;
	}
	row[target] = (uint16_t)(row[target] + moved);
}

/*
 * wteo_update_row() on a row padded with zeros to WTEO_ROW entries, in
 * one pass over the first @n of them (8 or 16, more than the table's
 * states; vectorisable): every d is taken from the old weights as there,
 * the target's own d is taken back out of the sum, and padding moves
 * nothing, so the row ends up the same.
 */
#define WTEO_ROW 16

static inline void wteo_update_row_padded(uint16_t *row, int target, unsigned int rate, int n)
{
	unsigned int keep = row[target];
	uint16_t moved = 0, r6;

	if (rate >= WTEO_ONE) {
		wteo_update_row(row, WTEO_ROW, target, rate);
		return;
	}
	/*
	 * (w * rate) >> 10 == (w * (rate << 6)) >> 16, a 16-bit high
	 * multiply, for rate < 1024; the moved weights sum to at most the
	 * row's 1024, so 16 bits hold them.
	 */
	r6 = (uint16_t)(rate << 6);
	for (int j = 0; j < n; j++) {
		uint16_t d = (uint16_t)(((uint32_t)row[j] * r6) >> 16);

		row[j] = (uint16_t)(row[j] - d);
		moved = (uint16_t)(moved + d);
	}
	moved = (uint16_t)(moved - ((keep * rate) >> WTEO_SHIFT));
	row[target] = (uint16_t)(keep + moved);
}

/*
 * Aging (issue 42, docs/aging.md; not yet in the kernel series' wteo.h).
 *
 * wteo_age_max(): the row's heaviest weight (the lowest index on a tie)
 * gives @rate/1024 of itself to the other n - 1, in equal shares; what
 * does not divide evenly stays with it, so the row keeps its sum.
 */
static inline void wteo_age_max(uint16_t *row, int n, unsigned int rate)
{
	unsigned int d, each;
	int m = 0;

	if (n < 2)
		return;
	for (int j = 1; j < n; j++)
		if (row[j] > row[m])
			m = j;
	d = (row[m] * (rate > WTEO_ONE ? WTEO_ONE : rate)) >> WTEO_SHIFT;
	each = d / (unsigned int)(n - 1);
	for (int j = 0; j < n; j++)
		if (j != m)
			row[j] = (uint16_t)(row[j] + each);
	row[m] = (uint16_t)(row[m] - each * (unsigned int)(n - 1));
}

/*
 * wteo_age_toward(): every weight but the diagonal's moves @rate/1024 of
 * the way to @init's (rounded toward the initial value), the diagonal
 * takes what keeps the sum at 1024.
 */
static inline void wteo_age_toward(uint16_t *row, const uint16_t *init, int n, int diag,
				   unsigned int rate)
{
	unsigned int sum = 0;

	if (rate > WTEO_ONE)
		rate = WTEO_ONE;
	for (int j = 0; j < n; j++) {
		int diff = (int)init[j] - (int)row[j];
		int step = (int)(((unsigned int)(diff < 0 ? -diff : diff) * rate) >> WTEO_SHIFT);

		if (j == diag)
			continue;
		row[j] = (uint16_t)((int)row[j] + (diff < 0 ? -step : step));
		sum += row[j];
	}
	row[diag] = (uint16_t)(WTEO_ONE - sum);
}

#if defined(__clang__)
#define WTEO_SHUF(x, y, ...) __builtin_shufflevector(x, y, __VA_ARGS__)
#else
#define WTEO_SHUF(x, y, ...) __builtin_shuffle(x, y, (v8){ __VA_ARGS__ })
#endif

/*
 * wteo_pick() on a padded row (@mask has no bit at or past the table's
 * end, nor at or past @n, 8 or 16).
 */
static inline int wteo_pick_padded(const uint16_t *row, uint32_t mask, uint32_t draw, int n)
{
	typedef uint16_t v8 __attribute__((vector_size(16)));
	static const v8 lo = { 1, 2, 4, 8, 16, 32, 64, 128 };
	static const v8 hi = { 256, 512, 1024, 2048, 4096, 8192, 16384, 32768 };
	const v8 mv = { (uint16_t)mask, (uint16_t)mask, (uint16_t)mask, (uint16_t)mask,
			(uint16_t)mask, (uint16_t)mask, (uint16_t)mask, (uint16_t)mask };
	v8 r0, r1, sum;
	uint32_t total = 0, x;

	/* the candidates' weights summed in two 8-lane vectors (<= 1024 in all) */
	G_STATIC_ASSERT(WTEO_ROW == 16);
	memcpy(&r0, row, sizeof(r0));
	sum = r0 & (v8)((mv & lo) == lo);
	if (n > 8) {
		memcpy(&r1, row + 8, sizeof(r1));
		sum += r1 & (v8)((mv & hi) == hi);
	}
	if (n == 8) {
		/*
		 * Without the search loop, whose exit is random by design: the
		 * state is the first lane whose running total exceeds x, i.e.
		 * the number of lanes whose running total is at most x (a lane
		 * outside the mask adds nothing, so it is never the first).
		 */
		const v8 z = { 0 };
		v8 p = sum, le;
		int cnt = 0;

		p += WTEO_SHUF(p, z, 8, 0, 1, 2, 3, 4, 5, 6);
		p += WTEO_SHUF(p, z, 8, 8, 0, 1, 2, 3, 4, 5);
		p += WTEO_SHUF(p, z, 8, 8, 8, 8, 0, 1, 2, 3);
		total = p[7];
		if (!total)
			return -1;
		x = (uint32_t)(((uint64_t)draw * total) >> 32);
		le = (v8)(p <= (v8){ (uint16_t)x, (uint16_t)x, (uint16_t)x, (uint16_t)x,
				     (uint16_t)x, (uint16_t)x, (uint16_t)x, (uint16_t)x });
		for (int j = 0; j < 8; j++)
			cnt += le[j] & 1;
		return cnt;
	}
	for (int j = 0; j < 8; j++)
		total += sum[j];
	if (!total)
		return -1;
	x = (uint32_t)(((uint64_t)draw * total) >> 32);
	for (; mask; mask &= mask - 1) {
		int j = __builtin_ctz(mask);

		if (x < row[j])
			return j;
		x -= row[j];
	}
	return -1;
}

/* Weighted choice among @mask with a full 32-bit draw; -1 if all zero. */
static inline int wteo_pick(const uint16_t *row, int n, uint32_t mask, uint32_t draw)
{
	uint32_t total = 0, x;

	for (int j = 0; j < n; j++)
		if (mask & (1u << j))
			total += row[j];
	if (!total)
		return -1;
	x = (uint32_t)(((uint64_t)draw * total) >> 32);
	for (int j = 0; j < n; j++) {
		if (!(mask & (1u << j)))
			continue;
		if (x < row[j])
			return j;
		x -= row[j];
	}
	return -1;
}

/* The most probable candidate (ties: the shallower); -1 if all zero. */
static inline int wteo_argmax(const uint16_t *row, int n, uint32_t mask)
{
	int best = -1;

	for (int j = 0; j < n; j++)
		if ((mask & (1u << j)) && row[j] && (best < 0 || row[j] > row[best]))
			best = j;
	return best;
}

#endif
