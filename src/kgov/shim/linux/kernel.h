/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space stand-ins for the kernel interfaces the cpuidle governors use,
 * so that a kernel's own drivers/cpuidle/governors/{teo,menu,ladder}.c
 * (Debian 6.1 and 6.12) and governors like them compile unchanged into an
 * idlesim plugin (`idlesim kgov build`).  Types, constants and integer
 * semantics are the kernel's (include/linux/types.h, vdso/time64.h,
 * include/linux/math64.h and ktime.h on a 64-bit build); the idle loop's
 * inputs (sleep length, tick, latency limit, clock) are answered by
 * runtime.c from the simulation's call in progress.  What is not here is
 * a build error, never a silent stub.
 */
#ifndef KGOV_SHIM_KERNEL_H
#define KGOV_SHIM_KERNEL_H

/*
 * Built -nostdinc -ffreestanding (as the kernel is): only the compiler's
 * own headers, so that a header the shim lacks cannot be taken from the
 * host's /usr/include/linux (the UAPI) in silence.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kgov-abi.h"

/* lib/string.c's, from the C library the plugin is linked with */
void *memset(void *s, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
#define memset(s, c, n) __builtin_memset(s, c, n)
#define memcpy(d, s, n) __builtin_memcpy(d, s, n)

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef s64 ktime_t;

/* include/vdso/limits.h */
#define INT_MAX ((int)(~0U >> 1))
#define INT_MIN (-INT_MAX - 1)
#define UINT_MAX (~0U)
#define LONG_MAX ((long)(~0UL >> 1))
#define LONG_MIN (-LONG_MAX - 1)
#define ULONG_MAX (~0UL)
#define U32_MAX ((u32)~0U)
#define S32_MAX ((s32)(U32_MAX >> 1))

#define BIT(n) (1UL << (n))
#define U64_MAX ((u64)~0ULL)
#define S64_MAX ((s64)(U64_MAX >> 1))
#define KTIME_MAX ((s64)~((u64)1 << 63))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* vdso/time64.h */
#define NSEC_PER_USEC 1000L
#define NSEC_PER_MSEC 1000000L
#define NSEC_PER_SEC 1000000000L
#define USEC_PER_SEC 1000000L

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
/* The kernel prints a warning and goes on: counted (kgov-abi.h warnings). */
void kgov_warn(const char *file, int line);
#define WARN_ON(x) ({ bool __c = !!(x); if (unlikely(__c)) kgov_warn(__FILE__, __LINE__); __c; })
#define WARN_ON_ONCE(x) WARN_ON(x)

/* The kernel's min()/max() refuse mixed types; the governors pass one type. */
#define min(a, b) ({ __auto_type _a = (a); __auto_type _b = (b); _a < _b ? _a : _b; })
#define max(a, b) ({ __auto_type _a = (a); __auto_type _b = (b); _a > _b ? _a : _b; })
#define min_t(t, a, b) min((t)(a), (t)(b))
#define max_t(t, a, b) max((t)(a), (t)(b))

#define __init
#define __initdata
#define __read_mostly

/*
 * Initcalls run in their level's order when idlesim loads the plugin
 * (runtime.c): each level is a section of function pointers.
 */
typedef int (*kgov_initcall_t)(void);
#define KGOV_INITCALL(level, fn) \
	static kgov_initcall_t const kgov_initcall_##fn \
	__attribute__((used, section("kgov_init_" #level))) = fn
#define core_initcall(fn) KGOV_INITCALL(1, fn)
#define postcore_initcall(fn) KGOV_INITCALL(2, fn)
#define arch_initcall(fn) KGOV_INITCALL(3, fn)
#define subsys_initcall(fn) KGOV_INITCALL(4, fn)
#define fs_initcall(fn) KGOV_INITCALL(5, fn)
#define device_initcall(fn) KGOV_INITCALL(6, fn)
#define late_initcall(fn) KGOV_INITCALL(7, fn)
#define module_init(fn) device_initcall(fn)

/*
 * One copy per simulated CPU (and per simulation: idlesim loads a private
 * copy of the plugin for each); which CPU is "this" one is the runtime's.
 */
extern unsigned int kgov_this_cpu;
#define DEFINE_PER_CPU(type, name) type name[KGOV_NR_CPUS]
#define DECLARE_PER_CPU(type, name) extern type name[KGOV_NR_CPUS]
#define per_cpu(var, cpu) ((var)[cpu])
#define per_cpu_ptr(ptr, cpu) (&(*(ptr))[cpu])
#define this_cpu_ptr(ptr) per_cpu_ptr(ptr, kgov_this_cpu)
#define smp_processor_id() kgov_this_cpu
#define raw_smp_processor_id() kgov_this_cpu

#endif
