/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Idle-state tables: the simulator's equivalent of a cpuidle driver's
 * struct cpuidle_state array, plus the power figures of the energy model.
 */
#ifndef IDLESIM_STATES_H
#define IDLESIM_STATES_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

/* Same bound as the kernel's CPUIDLE_STATE_MAX. */
#define IS_STATE_MAX 10
#define IS_NAME_LEN 16

/* State flags, mirroring CPUIDLE_FLAG_POLLING / _OFF / _TIMER_STOP. */
enum {
	IS_STATE_POLLING    = 1u << 0,
	IS_STATE_OFF        = 1u << 1, /* disabled by default */
	IS_STATE_TIMER_STOP = 1u << 2, /* informational only */
};

struct is_state {
	char name[IS_NAME_LEN];
	int64_t exit_latency_ns;
	int64_t target_residency_ns;
	uint32_t flags;
	/* Power while resident, relative to a busy core (1.0). */
	double power;
	/*
	 * Energy of one entry+exit, expressed as nanoseconds of busy-core
	 * power ("active-ns").
	 */
	double transition_energy;
};

struct is_state_table {
	char name[64];
	int count;
	struct is_state s[IS_STATE_MAX];
};

/*
 * How many of the 16 non-decreasing values @r are <= @x: a branch-free
 * binary search (lookups of residencies against random durations would
 * mispredict a linear scan).  Pad past the table with INT64_MAX and clamp
 * the result to the table's length: the padding counts when x is INT64_MAX.
 */
static inline int is_count_le16(const int64_t r[16], int64_t x)
{
	int n = 0;

	n += (r[n + 7] <= x) * 8;
	n += (r[n + 3] <= x) * 4;
	n += (r[n + 1] <= x) * 2;
	n += r[n] <= x;
	return n;
}

/* is_count_le16() over 8 values; it counts at most 7, so for up to 7 states. */
static inline int is_count_le8(const int64_t r[8], int64_t x)
{
	int n = 0;

	n += (r[n + 3] <= x) * 4;
	n += (r[n + 1] <= x) * 2;
	n += r[n] <= x;
	return n;
}

/* Built-in tables; NULL-terminated list of names. */
const char *const *is_states_builtin_names(void);
/*
 * Where a built-in table taken from the kernel's sources came from (file,
 * node or array; Debian linux-source-6.12), NULL for the hand-written ones.
 */
const char *is_states_builtin_source(const char *name);
/* Returns a static table or NULL. */
const struct is_state_table *is_states_builtin(const char *name);

/*
 * Load a GKeyFile table ([table] name=..., [stateN] name=, exit_latency_ns=,
 * target_residency_ns=, flags=, power=, transition_energy=).
 */
struct is_state_table *is_states_load_file(const char *path, GError **error);
/*
 * Appends @t as a key file that is_states_load_file() reads back to the
 * same table (powers and energies as the shortest decimals that do).
 */
void is_states_keyfile(GString *out, const struct is_state_table *t);
/*
 * The shortest decimal that reads back as @v ("0.8", "2000"), else
 * "%.17g", locale-independent: tables written with it round-trip bit for
 * bit.  Returns @buf.
 */
const char *is_format_shortest(char buf[G_ASCII_DTOSTR_BUF_SIZE], double v);
/* Appends the names of @flags, comma-separated ("polling,off"); false if none. */
bool is_state_flags_append(GString *out, uint32_t flags);
/*
 * Load a sysfs dump directory laid out as .../cpuidle/stateN/{name,latency,
 * residency,disable}.  Reads only; latency/residency are in microseconds.
 * If @disabled is not NULL it receives the mask of states whose "disable"
 * file holds a non-zero value.
 */
struct is_state_table *is_states_load_sysfs(const char *dir, uint32_t *disabled,
					    GError **error);
/*
 * The idle states of CPU @cpu (the @cpu-th "cpu" node under /cpus) in a
 * flattened device tree, as Linux 6.12's cpuidle-psci/cpuidle-arm build
 * them: WFI, then the CPU's idle-state nodes (src/states/dtb.c).  The
 * table is named @where.  Needs a build with libfdt.
 */
bool is_states_dtb_supported(void);
/*
 * A device tree source compiled into a blob (g_free() it) by cpp and dtc,
 * as the kernel's build does; @tree: a kernel tree for the includes, or
 * NULL.
 */
char *is_states_dts_compile(const char *dts, const char *tree, gsize *len, GError **error);
/* Whether @path starts with the device tree blob magic. */
bool is_states_file_is_dtb(const char *path);
struct is_state_table *is_states_load_dtb(const void *blob, size_t len, int cpu,
					  const char *where, GError **error);
/*
 * A built-in name, a key file, a sysfs dump directory, or a device tree
 * blob (.dtb, told by its magic: CPU 0's states).
 */
struct is_state_table *is_states_open(const char *spec, uint32_t *disabled,
				      GError **error);
struct is_state_table *is_states_dup(const struct is_state_table *t);
void is_states_free(struct is_state_table *t);

/*
 * Whether every power figure of @t is the default model's (tables from the
 * kernel's sources, device trees, most sysfs dumps): energy then rests on
 * an assumption, which reports say.
 */
bool is_states_power_is_default(const struct is_state_table *t);
/* Mask of states flagged IS_STATE_OFF. */
uint32_t is_states_default_disabled(const struct is_state_table *t);
/* Check internal consistency (monotonic latencies, count); false + error. */
bool is_states_validate(const struct is_state_table *t, const char *where,
			GError **error);

#define IS_ERROR (is_error_quark())
GQuark is_error_quark(void);
enum {
	IS_ERROR_IO,
	IS_ERROR_PARSE,
	IS_ERROR_INVALID,
	IS_ERROR_CANCELLED,   /* the caller's cancel flag was raised */
};

#endif
