// SPDX-License-Identifier: GPL-2.0-only
/*
 * Idle-state tables: the built-in tables, their validation, and
 * is_states_open(), which takes a built-in name, a key file (keyfile.c) or a
 * sysfs dump (sysfs.c).
 *
 * POWER9 latencies and residencies are skiboot's hw/slw.c
 * power9_cpu_idle_states[] as Linux's cpuidle-powernv registers them
 * (rounded to microseconds; snooze added by the driver).  Linux drops states
 * whose exit latency exceeds 200 us, hence "power9" has seven states and
 * "power9-full" adds stop8/stop11 flagged off by default.
 *
 * POWER MODEL (an assumption, not a measurement): no public per-state power
 * figures exist for POWER9.  We take a busy core as 1.0; polling burns busy
 * power; the stop levels save progressively more, with the power-gated
 * levels (stop4 and deeper) near POWER8's published "sleep saves about 80%,
 * winkle more than 95%".  The energy of one entry+exit is not guessed
 * separately: it is derived so that each state's target residency is its
 * break-even time against the next shallower state (the kernel's definition
 * of target residency), i.e. X[i] = X[i-1] + (P[i-1] - P[i]) * T[i] with
 * X[0] = 0.  The ideal state of the RFC's accuracy tables is then also the
 * state of least energy among those that fit.  Override with a table file.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlesim/states.h"
#include "states_internal.h"

G_DEFINE_QUARK(idlesim-error-quark, is_error)

#define US 1000LL
#define ST(n, lat, res, fl, pw, te) \
	{ .name = n, .exit_latency_ns = (lat) * US, \
	  .target_residency_ns = (res) * US, .flags = (fl), .power = (pw), \
	  .transition_energy = (te) }

/* What cpuidle-powernv registers on a typical POWER9 (exit <= 200 us). */
#define POWER9_STATES \
	ST("snooze", 0, 0, IS_STATE_POLLING, 1.0, 0), \
	ST("stop0_lite", 1, 10, 0, 0.80, 2000), \
	ST("stop0", 2, 20, 0, 0.70, 4000), \
	ST("stop1", 5, 50, 0, 0.55, 11500), \
	ST("stop2", 10, 100, 0, 0.40, 26500), \
	ST("stop4", 100, 10000, 0, 0.15, 2526500), \
	ST("stop5", 200, 20000, 0, 0.10, 3526500)

static const struct is_state_table power9 = {
	.name = "power9",
	.count = 7,
	.s = { POWER9_STATES },
};

static const struct is_state_table power9_full = {
	.name = "power9-full",
	.count = 9,
	.s = {
		POWER9_STATES,
		ST("stop8", 2000, 20000, IS_STATE_OFF | IS_STATE_TIMER_STOP, 0.05, 4526500),
		ST("stop11", 10000, 100000, IS_STATE_OFF | IS_STATE_TIMER_STOP, 0.03, 6526500),
	},
};

/* PowerVM guests (cpuidle-pseries): snooze and CEDE. */
static const struct is_state_table pseries = {
	.name = "pseries",
	.count = 2,
	.s = {
		ST("snooze", 0, 0, IS_STATE_POLLING, 1.0, 0),
		ST("CEDE", 10, 100, 0, 0.40, 60000),
	},
};

static const struct is_state_table *const builtins[] = {
	&power9, &power9_full, &pseries, NULL,
};

/*
 * Tables from the kernel's own sources (tools/gen-kernel-tables): arm64
 * device trees and intel_idle.c, latencies and residencies as the kernel
 * registers them, power figures the default model.
 */
#include "kernel_tables.h"

static const struct {
	const char *name;
	int64_t lat, res;
	uint32_t flags;
} kstates[] = {
#define KS(n, l, r, f) { n, l, r, f }
	KERNEL_STATES
#undef KS
};

static const struct {
	const char *name, *source;
	int count;
} ktables[] = {
#define KT(n, s, c) { n, s, c }
	KERNEL_TABLES
#undef KT
};

#define NBUILTIN (G_N_ELEMENTS(builtins) - 1 + G_N_ELEMENTS(ktables))
static struct is_state_table ktabs[G_N_ELEMENTS(ktables)];
static const struct is_state_table *all_tables[NBUILTIN + 1];
static const char *all_names[NBUILTIN + 1];

static void builtins_init(void)
{
	static gsize done;

	if (!g_once_init_enter(&done))
		return;
	for (size_t i = 0, k = 0; i < G_N_ELEMENTS(ktables); i++) {
		struct is_state_table *t = &ktabs[i];

		g_strlcpy(t->name, ktables[i].name, sizeof(t->name));
		t->count = ktables[i].count;
		for (int j = 0; j < t->count; j++, k++) {
			struct is_state *s = &t->s[j];

			g_strlcpy(s->name, kstates[k].name, sizeof(s->name));
			s->exit_latency_ns = kstates[k].lat;
			s->target_residency_ns = kstates[k].res;
			s->flags = kstates[k].flags;
			s->power = is_states_default_power(j, s->flags);
			s->transition_energy = -1;
		}
		is_states_derive_energy(t);
	}
	for (size_t i = 0; builtins[i]; i++)
		all_tables[i] = builtins[i];
	for (size_t i = 0; i < G_N_ELEMENTS(ktables); i++)
		all_tables[G_N_ELEMENTS(builtins) - 1 + i] = &ktabs[i];
	for (size_t i = 0; i < NBUILTIN; i++)
		all_names[i] = all_tables[i]->name;
	g_once_init_leave(&done, 1);
}

const char *const *is_states_builtin_names(void)
{
	builtins_init();
	return all_names;
}

const char *is_states_builtin_source(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(ktables); i++)
		if (strcmp(ktables[i].name, name) == 0)
			return ktables[i].source;
	return NULL;
}

const struct is_state_table *is_states_builtin(const char *name)
{
	builtins_init();
	for (int i = 0; all_tables[i]; i++)
		if (strcmp(all_tables[i]->name, name) == 0)
			return all_tables[i];
	return NULL;
}

struct is_state_table *is_states_dup(const struct is_state_table *t)
{
	return g_memdup2(t, sizeof(*t));
}

void is_states_free(struct is_state_table *t)
{
	g_free(t);
}

bool is_states_power_is_default(const struct is_state_table *t)
{
	struct is_state_table d = *t;

	for (int i = 0; i < d.count; i++) {
		d.s[i].power = is_states_default_power(i, d.s[i].flags);
		d.s[i].transition_energy = -1;
	}
	is_states_derive_energy(&d);
	for (int i = 0; i < d.count; i++)
		if (d.s[i].power != t->s[i].power ||
		    d.s[i].transition_energy != t->s[i].transition_energy)
			return false;
	return true;
}

uint32_t is_states_default_disabled(const struct is_state_table *t)
{
	uint32_t m = 0;

	for (int i = 0; i < t->count; i++)
		if (t->s[i].flags & IS_STATE_OFF)
			m |= 1u << i;
	return m;
}

bool is_states_validate(const struct is_state_table *t, const char *where,
			GError **error)
{
	if (t->count < 1 || t->count > IS_STATE_MAX) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: state count %d out of range 1..%d", where,
			    t->count, IS_STATE_MAX);
		return false;
	}
	for (int i = 0; i < t->count; i++) {
		const struct is_state *s = &t->s[i];

		if (!s->name[0]) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: state%d: field 'name' is empty", where, i);
			return false;
		}
		if (s->exit_latency_ns < 0 || s->target_residency_ns < 0) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: state%d: field '%s' is negative", where, i,
				    s->exit_latency_ns < 0 ? "exit_latency_ns" :
				    "target_residency_ns");
			return false;
		}
		if (!(s->power >= 0) || !(s->transition_energy >= 0)) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: state%d: field '%s' must be >= 0", where, i,
				    !(s->power >= 0) ? "power" : "transition_energy");
			return false;
		}
		if ((s->flags & IS_STATE_POLLING) && i != 0) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: state%d: field 'flags': only state0 may poll",
				    where, i);
			return false;
		}
		for (int j = 0; j < i; j++)
			if (strcmp(t->s[j].name, s->name) == 0) {
				g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
					    "%s: state%d: field 'name': '%s' repeats state%d",
					    where, i, s->name, j);
				return false;
			}
		/* Governors walk the table assuming it is ordered by depth. */
		if (i > 0 && (s->target_residency_ns < t->s[i - 1].target_residency_ns ||
			      s->exit_latency_ns < t->s[i - 1].exit_latency_ns)) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: state%d: field '%s' is below state%d's: states must be ordered shallow to deep",
				    where, i,
				    s->exit_latency_ns < t->s[i - 1].exit_latency_ns ?
				    "exit_latency_ns" : "target_residency_ns", i - 1);
			return false;
		}
	}
	return true;
}

const struct is_state_table *const *is_states_builtin_tables(void)
{
	return builtins;
}

/*
 * Power of a state with no figure of its own: polling burns busy power,
 * each deeper state 15% less than the one above it, down to 5%.
 */
double is_states_default_power(int i, uint32_t flags)
{
	double p = 1.0 - 0.15 * i;

	if (flags & IS_STATE_POLLING)
		return 1.0;
	return p < 0.05 ? 0.05 : p;
}

/* Fill unset (negative) transition energies by the break-even rule. */
void is_states_derive_energy(struct is_state_table *t)
{
	for (int i = 0; i < t->count; i++) {
		struct is_state *s = &t->s[i];

		if (s->transition_energy >= 0)
			continue;
		if (i == 0) {
			s->transition_energy = 0;
			continue;
		}
		s->transition_energy = t->s[i - 1].transition_energy +
				       (t->s[i - 1].power - s->power) *
				       (double)s->target_residency_ns;
		if (s->transition_energy < 0)
			s->transition_energy = 0;
	}
}

/*
 * @name's N when it is "stateN" as the loaders spell it ("state01" and
 * "state+1" are not), else -1.
 */
int is_states_dir_index(const char *name)
{
	char canon[16];
	guint64 i;

	if (!g_str_has_prefix(name, "state") ||
	    !g_ascii_string_to_unsigned(name + 5, 10, 0, G_MAXINT, &i, NULL))
		return -1;
	snprintf(canon, sizeof(canon), "state%d", (int)i);
	return strcmp(canon, name) == 0 ? (int)i : -1;
}

bool is_states_file_is_dtb(const char *path)
{
	static const unsigned char magic[4] = { 0xd0, 0x0d, 0xfe, 0xed };
	unsigned char m[4];
	FILE *f = fopen(path, "rb");
	bool yes;

	if (!f)
		return false;
	yes = fread(m, 1, 4, f) == 4 && memcmp(m, magic, 4) == 0;
	fclose(f);
	return yes;
}

struct is_state_table *is_states_open(const char *spec, uint32_t *disabled,
				      GError **error)
{
	const struct is_state_table *b = is_states_builtin(spec);
	struct is_state_table *t;

	if (b) {
		if (disabled)
			*disabled = is_states_default_disabled(b);
		return is_states_dup(b);
	}
	if (g_file_test(spec, G_FILE_TEST_IS_DIR))
		return is_states_load_sysfs(spec, disabled, error);
	if (g_file_test(spec, G_FILE_TEST_EXISTS)) {
		g_autofree char *blob = NULL;
		gsize len = 0;

		if (is_states_file_is_dtb(spec) &&
		    g_file_get_contents(spec, &blob, &len, NULL)) {
			g_autofree char *base = g_path_get_basename(spec);
			g_autofree char *name = g_strdup_printf("dtb:%s", base);

			t = is_states_load_dtb(blob, len, 0, name, error);
			if (t && disabled)
				*disabled = 0;
			return t;
		}
		t = is_states_load_file(spec, error);
		if (t && disabled)
			*disabled = is_states_default_disabled(t);
		return t;
	}
	g_set_error(error, IS_ERROR, IS_ERROR_IO,
		    "%s: not a built-in state table (idlesim states --list), a file or a directory",
		    spec);
	return NULL;
}

const char *is_format_shortest(char buf[G_ASCII_DTOSTR_BUF_SIZE], double v)
{
	for (int d = 0; fabs(v) < 1e15 && d <= 17; d++) {
		char fmt[8];

		g_snprintf(fmt, sizeof(fmt), "%%.%df", d);
		g_ascii_formatd(buf, G_ASCII_DTOSTR_BUF_SIZE, fmt, v);
		if (g_ascii_strtod(buf, NULL) == v)
			return buf;
	}
	return g_ascii_formatd(buf, G_ASCII_DTOSTR_BUF_SIZE, "%.17g", v);
}

bool is_state_flags_append(GString *out, uint32_t flags)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} fl[] = { { IS_STATE_POLLING, "polling" }, { IS_STATE_OFF, "off" },
		   { IS_STATE_TIMER_STOP, "timer-stop" } };
	bool any = false;

	for (size_t k = 0; k < G_N_ELEMENTS(fl); k++)
		if (flags & fl[k].bit) {
			g_string_append(out, any ? "," : "");
			g_string_append(out, fl[k].name);
			any = true;
		}
	return any;
}
