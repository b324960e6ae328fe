/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Vectors of IS_LANES lanes (GCC's vector extensions) for the lockstep
 * event loop (lanes.c) and the governors' lanes (governor.h): s64 and u64
 * lanes for times, u32 lanes for teo's bins, f64 lanes for energy.  A mask
 * is all ones or zero per lane, as the extensions' comparisons give it.
 * Private to the library.
 *
 * Every helper is static and always inlined: the vector ABI that -Wpsabi
 * warns about (a function passing a 512-bit vector) is never used across
 * files, so meson.build turns the warning off.
 */
#ifndef IDLESIM_SIM_LANES_VEC_H
#define IDLESIM_SIM_LANES_VEC_H

#include <stdint.h>
#include <string.h>
#include "idlesim/governor.h"

/*
 * The functions that run lanes are built for AVX-512 (F, DQ, BW, VL: one
 * instruction per 8 x s64 operation, and the variable permutes of
 * tl_lookup()) and run only where the CPU has it (tl_cpu_ok()).  Built for
 * anything less, the same code was slower than one simulation per point
 * on this project's machine (AVX2: 4x slower; SSE2: 2.6x), so there lanes
 * are not used at all.  GCC's only: clang has no __builtin_shuffle with a
 * variable mask (a clang build, e.g. the fuzzers', has no lanes).
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define IS_HAVE_LANES 1
#define TL_TARGET __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl")))
static inline bool tl_cpu_ok(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
	       __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
}
#else
#define IS_HAVE_LANES 0
static inline bool tl_cpu_ok(void)
{
	return false;
}
#endif

#if IS_HAVE_LANES

typedef int64_t tl_q __attribute__((vector_size(8 * IS_LANES)));
typedef uint64_t tl_uq __attribute__((vector_size(8 * IS_LANES)));
typedef uint32_t tl_u __attribute__((vector_size(4 * IS_LANES)));
typedef int32_t tl_i __attribute__((vector_size(4 * IS_LANES)));
typedef double tl_d __attribute__((vector_size(8 * IS_LANES)));

#define TL_HOT static inline __attribute__((always_inline))

#define TL_Q(x) ((tl_q){ 0 } + (int64_t)(x))
#define TL_U(x) ((tl_u){ 0 } + (uint32_t)(x))

TL_HOT tl_q tl_load(const int64_t *p)
{
	tl_q v;

	memcpy(&v, p, sizeof(v));
	return v;
}

TL_HOT void tl_store(int64_t *p, tl_q v)
{
	memcpy(p, &v, sizeof(v));
}

/* m ? a : b, lane by lane */
TL_HOT tl_q tl_blend_q(tl_q m, tl_q a, tl_q b)
{
	return (a & m) | (b & ~m);
}

TL_HOT tl_u tl_blend_u(tl_u m, tl_u a, tl_u b)
{
	return (a & m) | (b & ~m);
}

TL_HOT tl_d tl_blend_d(tl_q m, tl_d a, tl_d b)
{
	return (tl_d)tl_blend_q(m, (tl_q)a, (tl_q)b);
}

/* a 64-bit lane mask as a 32-bit one and back */
TL_HOT tl_u tl_mask_u(tl_q m)
{
	return (tl_u)__builtin_convertvector(m, tl_i);
}

TL_HOT tl_q tl_mask_q(tl_i m)
{
	return __builtin_convertvector(m, tl_q);
}

TL_HOT tl_q tl_min_q(tl_q a, tl_q b)
{
	return tl_blend_q(a < b, a, b);
}

TL_HOT tl_q tl_max_q(tl_q a, tl_q b)
{
	return tl_blend_q(a > b, a, b);
}

/* Whether any lane of the mask is set. */
TL_HOT bool tl_any(tl_q m)
{
	G_STATIC_ASSERT(IS_LANES == 8);
	m |= __builtin_shuffle(m, (tl_q){ 4, 5, 6, 7, 0, 1, 2, 3 });
	m |= __builtin_shuffle(m, (tl_q){ 2, 3, 0, 1, 6, 7, 4, 5 });
	m |= __builtin_shuffle(m, (tl_q){ 1, 0, 3, 2, 5, 4, 7, 6 });
	return m[0] != 0;
}

/* table[idx], lane by lane, for a table of IS_LANES entries and idx 0..IS_LANES-1 */
TL_HOT tl_q tl_lookup(const int64_t *table, tl_q idx)
{
	return __builtin_shuffle(tl_load(table), idx);
}

/* a + b saturated at the s64 limits, as sim.c's sat_add() (model.h) */
TL_HOT tl_q tl_sat_add(tl_q a, tl_q b)
{
	const tl_q r = (tl_q)((tl_uq)a + (tl_uq)b);
	const tl_q over = ((a ^ r) & (b ^ r)) < 0;

	return tl_blend_q(over, tl_blend_q(b > 0, TL_Q(INT64_MAX), TL_Q(INT64_MIN)), r);
}

#endif /* IS_HAVE_LANES */

#endif
