/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space stand-ins for the few kernel interfaces the 6.12 cpuidle
 * governors use, so that Debian's own drivers/cpuidle/governors/{teo,menu,
 * ladder}.c compile unchanged for tests/kernel-c.  Types, constants and
 * integer semantics are the kernel's (include/linux/types.h, vdso/time64.h,
 * include/linux/math64.h and ktime.h on a 64-bit build); the idle-loop
 * inputs (sleep length, tick, latency limit, clock) come from the adapter
 * in kc.c.
 */
#ifndef KC_SHIM_KERNEL_H
#define KC_SHIM_KERNEL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
typedef s64 ktime_t;

#define BIT(n) (1UL << (n))
#define U64_MAX ((u64)~0ULL)
#define KTIME_MAX ((s64)~((u64)1 << 63))

/* vdso/time64.h */
#define NSEC_PER_USEC 1000L
#define NSEC_PER_MSEC 1000000L
#define NSEC_PER_SEC 1000000000L
#define USEC_PER_SEC 1000000L

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define WARN_ON(x) ((void)(x), 0)
#define BUG_ON(x) ((void)(x))

/* The kernel's min()/max() refuse mixed types; the governors pass one type. */
#define min(a, b) ({ __auto_type _a = (a); __auto_type _b = (b); _a < _b ? _a : _b; })
#define max(a, b) ({ __auto_type _a = (a); __auto_type _b = (b); _a > _b ? _a : _b; })

#define __init
#define __read_mostly
#define postcore_initcall(fn) \
	static int (*const kc_initcall_##fn)(void) __attribute__((unused)) = fn

/* One copy per simulated CPU; which CPU is "this" one is the adapter's. */
#define KC_NR_CPUS 64
extern unsigned int kc_this_cpu;
#define DEFINE_PER_CPU(type, name) type name[KC_NR_CPUS]
#define per_cpu(var, cpu) ((var)[cpu])
#define per_cpu_ptr(ptr, cpu) (&(*(ptr))[cpu])
#define this_cpu_ptr(ptr) per_cpu_ptr(ptr, kc_this_cpu)

#endif
