// SPDX-License-Identifier: GPL-2.0-only
/*
 * Idle-state tables: built-in tables, GKeyFile tables and sysfs dumps.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlesim/states.h"

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

static const char *const builtin_names[] = {
	"power9", "power9-full", "pseries", NULL,
};

const char *const *is_states_builtin_names(void)
{
	return builtin_names;
}

const struct is_state_table *is_states_builtin(const char *name)
{
	for (int i = 0; builtins[i]; i++)
		if (strcmp(builtins[i]->name, name) == 0)
			return builtins[i];
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

/*
 * Power of a state with no figure of its own: polling burns busy power,
 * each deeper state 15% less than the one above it, down to 5%.
 */
static double default_power(int i, uint32_t flags)
{
	double p = 1.0 - 0.15 * i;

	if (flags & IS_STATE_POLLING)
		return 1.0;
	return p < 0.05 ? 0.05 : p;
}

/* Fill unset (negative) transition energies by the break-even rule. */
static void derive_transition_energy(struct is_state_table *t)
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

/* ---- key files -------------------------------------------------------- */

/* Line number of "key" in "[group]" of @text, 0 when not found. */
static int keyfile_line(const char *text, const char *group, const char *key)
{
	int line = 0;
	bool in_group = false;
	size_t klen = key ? strlen(key) : 0;

	for (const char *p = text; *p; ) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		line++;
		while (len && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		if (len && *p == '[') {
			in_group = len >= strlen(group) + 2 &&
				   strncmp(p + 1, group, strlen(group)) == 0 &&
				   p[1 + strlen(group)] == ']';
			if (in_group && !key)
				return line;
		} else if (in_group && key && len > klen &&
			   strncmp(p, key, klen) == 0 &&
			   (p[klen] == '=' || p[klen] == ' ')) {
			return line;
		}
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

struct kf_ctx {
	GKeyFile *kf;
	const char *path;
	const char *text;
	GError **error;
};

static void kf_err(struct kf_ctx *c, const char *group, const char *key,
		   const char *fmt, const char *val)
{
	int line = keyfile_line(c->text, group, key);

	if (!line)
		line = keyfile_line(c->text, group, NULL);
	g_set_error(c->error, IS_ERROR, IS_ERROR_PARSE, "%s:%d: [%s] field '%s': %s%s%s",
		    c->path, line, group, key, fmt, val ? ": " : "",
		    val ? val : "");
}

static bool kf_int(struct kf_ctx *c, const char *group, const char *key,
		   bool required, int64_t scale, int64_t *out)
{
	g_autofree char *v = g_key_file_get_value(c->kf, group, key, NULL);
	gint64 n;

	if (!v) {
		if (required)
			kf_err(c, group, key, "missing", NULL);
		return !required;
	}
	g_strstrip(v);
	if (!g_ascii_string_to_signed(v, 10, 0, INT64_MAX / 1000000, &n, NULL)) {
		kf_err(c, group, key, "not a non-negative integer", v);
		return false;
	}
	*out = n * scale;
	return true;
}

static bool kf_double(struct kf_ctx *c, const char *group, const char *key,
		      double *out)
{
	g_autofree char *v = g_key_file_get_value(c->kf, group, key, NULL);
	char *end;
	double d;

	if (!v)
		return true;
	g_strstrip(v);
	d = g_ascii_strtod(v, &end);
	if (!*v || *end || !(d >= 0) || d > 1e12) {
		kf_err(c, group, key, "not a non-negative number", v);
		return false;
	}
	*out = d;
	return true;
}

static bool parse_flags(struct kf_ctx *c, const char *group, uint32_t *flags)
{
	g_autofree char *v = g_key_file_get_value(c->kf, group, "flags", NULL);
	g_auto(GStrv) parts = NULL;

	*flags = 0;
	if (!v)
		return true;
	parts = g_strsplit_set(v, ",; \t", -1);
	for (int i = 0; parts[i]; i++) {
		if (!parts[i][0])
			continue;
		if (strcmp(parts[i], "polling") == 0)
			*flags |= IS_STATE_POLLING;
		else if (strcmp(parts[i], "off") == 0)
			*flags |= IS_STATE_OFF;
		else if (strcmp(parts[i], "timer-stop") == 0)
			*flags |= IS_STATE_TIMER_STOP;
		else {
			kf_err(c, group, "flags",
			       "unknown flag (polling, off, timer-stop)", parts[i]);
			return false;
		}
	}
	return true;
}

/*
 * @name's N when it is "stateN" as the loaders spell it ("state01" and
 * "state+1" are not), else -1.
 */
static int state_index(const char *name)
{
	char canon[16];
	guint64 i;

	if (!g_str_has_prefix(name, "state") ||
	    !g_ascii_string_to_unsigned(name + 5, 10, 0, G_MAXINT, &i, NULL))
		return -1;
	snprintf(canon, sizeof(canon), "state%d", (int)i);
	return strcmp(canon, name) == 0 ? (int)i : -1;
}

/*
 * Every group and key must be one the loader reads: a [state3] after a
 * missing [state2], or a misspelt "powr=", would otherwise be dropped
 * without a word and the table silently be another one.
 */
static bool kf_check_names(struct kf_ctx *c, int count)
{
	static const char *const table_keys[] = { "name", NULL };
	static const char *const state_keys[] = {
		"name", "exit_latency_us", "exit_latency_ns", "target_residency_us",
		"target_residency_ns", "flags", "power", "transition_energy", NULL
	};
	g_auto(GStrv) groups = g_key_file_get_groups(c->kf, NULL);

	for (int g = 0; groups[g]; g++) {
		const char *const *known = table_keys;
		g_auto(GStrv) keys = NULL;

		if (strcmp(groups[g], "table") != 0) {
			int i = state_index(groups[g]);

			if (i < 0 || i >= count) {
				g_set_error(c->error, IS_ERROR, IS_ERROR_PARSE,
					    "%s:%d: [%s]: unknown group: a table has [table] and "
					    "[state0]..[state%d], numbered without gaps", c->path,
					    keyfile_line(c->text, groups[g], NULL), groups[g], count - 1);
				return false;
			}
			known = state_keys;
		}
		keys = g_key_file_get_keys(c->kf, groups[g], NULL, NULL);
		for (int k = 0; keys && keys[k]; k++)
			if (!g_strv_contains(known, keys[k])) {
				kf_err(c, groups[g], keys[k], known == table_keys ?
				       "unknown field (name)" :
				       "unknown field (name, exit_latency_us|_ns, target_residency_us|_ns, "
				       "flags, power, transition_energy)", NULL);
				return false;
			}
	}
	return true;
}

struct is_state_table *is_states_load_file(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree struct is_state_table *t = g_new0(struct is_state_table, 1);
	GError *err = NULL;
	struct kf_ctx c = { .path = path, .error = error };
	int n = 0;

	if (!g_file_get_contents(path, &text, NULL, &err)) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", path, err->message);
		g_error_free(err);
		return NULL;
	}
	if (!g_key_file_load_from_data(kf, text, (gsize)-1, G_KEY_FILE_NONE, &err)) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE, "%s: %s", path, err->message);
		g_error_free(err);
		return NULL;
	}
	c.kf = kf;
	c.text = text;
	{
		g_autofree char *name = g_key_file_get_string(kf, "table", "name", NULL);
		g_autofree char *base = g_path_get_basename(path);

		g_strlcpy(t->name, name ? name : base, sizeof(t->name));
	}
	for (;;) {
		char group[16];
		struct is_state *s;
		g_autofree char *name = NULL;

		snprintf(group, sizeof(group), "state%d", n);
		if (!g_key_file_has_group(kf, group))
			break;
		if (n >= IS_STATE_MAX) {
			kf_err(&c, group, "name", "too many states (max 10)", NULL);
			return NULL;
		}
		s = &t->s[n];
		name = g_key_file_get_value(kf, group, "name", NULL);
		if (!name || !*g_strstrip(name)) {
			kf_err(&c, group, "name", "missing", NULL);
			return NULL;
		}
		if (strlen(name) >= IS_NAME_LEN) {
			kf_err(&c, group, "name", "longer than 15 characters", name);
			return NULL;
		}
		g_strlcpy(s->name, name, sizeof(s->name));
		/* Either _ns or _us spelling; _ns wins when both are present. */
		s->exit_latency_ns = -1;
		s->target_residency_ns = -1;
		if (!kf_int(&c, group, "exit_latency_us", false, 1000, &s->exit_latency_ns) ||
		    !kf_int(&c, group, "exit_latency_ns", false, 1, &s->exit_latency_ns) ||
		    !kf_int(&c, group, "target_residency_us", false, 1000,
			    &s->target_residency_ns) ||
		    !kf_int(&c, group, "target_residency_ns", false, 1,
			    &s->target_residency_ns))
			return NULL;
		if (s->exit_latency_ns < 0) {
			kf_err(&c, group, "exit_latency_ns", "missing", NULL);
			return NULL;
		}
		if (s->target_residency_ns < 0) {
			kf_err(&c, group, "target_residency_ns", "missing", NULL);
			return NULL;
		}
		if (!parse_flags(&c, group, &s->flags))
			return NULL;
		s->power = default_power(n, s->flags);
		s->transition_energy = -1;
		if (!kf_double(&c, group, "power", &s->power) ||
		    !kf_double(&c, group, "transition_energy", &s->transition_energy))
			return NULL;
		n++;
	}
	t->count = n;
	if (n == 0) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s: no [state0] group: not a state table", path);
		return NULL;
	}
	if (!kf_check_names(&c, n))
		return NULL;
	derive_transition_energy(t);
	if (!is_states_validate(t, path, error))
		return NULL;
	return g_steal_pointer(&t);
}

/* ---- sysfs dumps ------------------------------------------------------ */

static bool read_sysfs_value(const char *dir, int i, const char *field,
			     char **out, GError **error)
{
	g_autofree char *p = g_strdup_printf("%s/state%d/%s", dir, i, field);
	GError *err = NULL;

	if (!g_file_get_contents(p, out, NULL, &err)) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: field '%s': %s", p,
			    field, err->message);
		g_error_free(err);
		return false;
	}
	g_strstrip(*out);
	return true;
}

static bool read_sysfs_int(const char *dir, int i, const char *field,
			   int64_t *out, GError **error)
{
	g_autofree char *v = NULL;
	guint64 n;

	if (!read_sysfs_value(dir, i, field, &v, error))
		return false;
	if (!g_ascii_string_to_unsigned(v, 10, 0, INT64_MAX / 1000, &n, NULL)) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s/state%d/%s:1: field '%s': not a non-negative integer: '%s'",
			    dir, i, field, field, v);
		return false;
	}
	*out = (int64_t)n;
	return true;
}

struct is_state_table *is_states_load_sysfs(const char *dir, uint32_t *disabled,
					    GError **error)
{
	g_autofree struct is_state_table *t = g_new0(struct is_state_table, 1);
	uint32_t dis = 0;
	int n = 0;

	for (;;) {
		g_autofree char *sd = g_strdup_printf("%s/state%d", dir, n);
		g_autofree char *name = NULL;
		struct is_state *s;
		const struct is_state *known = NULL;
		int64_t v;

		if (!g_file_test(sd, G_FILE_TEST_IS_DIR))
			break;
		if (n >= IS_STATE_MAX) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: more than %d states", dir, IS_STATE_MAX);
			return NULL;
		}
		s = &t->s[n];
		if (!read_sysfs_value(dir, n, "name", &name, error))
			return NULL;
		if (!name[0] || strlen(name) >= IS_NAME_LEN) {
			g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
				    "%s/state%d/name:1: field 'name': empty or longer than 15 characters",
				    dir, n);
			return NULL;
		}
		g_strlcpy(s->name, name, sizeof(s->name));
		if (!read_sysfs_int(dir, n, "latency", &v, error))
			return NULL;
		s->exit_latency_ns = v * 1000;
		if (!read_sysfs_int(dir, n, "residency", &v, error))
			return NULL;
		s->target_residency_ns = v * 1000;
		{
			g_autofree char *p = g_strdup_printf("%s/disable", sd);

			if (g_file_test(p, G_FILE_TEST_EXISTS)) {
				if (!read_sysfs_int(dir, n, "disable", &v, error))
					return NULL;
				if (v)
					dis |= 1u << n;
			}
		}
		/*
		 * sysfs has no flags: the kernel's polling states are state0
		 * named POLL (cpuidle_poll_state_init) or snooze (powernv,
		 * pseries).
		 */
		if (n == 0 && (strcmp(name, "POLL") == 0 || strcmp(name, "snooze") == 0))
			s->flags |= IS_STATE_POLLING;
		/* Power figures: those of a built-in state of the same name. */
		for (int b = 0; builtins[b] && !known; b++)
			for (int j = 0; j < builtins[b]->count; j++)
				if (strcmp(builtins[b]->s[j].name, name) == 0) {
					known = &builtins[b]->s[j];
					break;
				}
		if (known) {
			s->power = known->power;
			s->transition_energy = known->transition_energy;
		} else {
			s->power = default_power(n, s->flags);
			s->transition_energy = -1;
		}
		n++;
	}
	if (n == 0) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO,
			    "%s: no state0/ directory: not a cpuidle sysfs dump", dir);
		return NULL;
	}
	/* a stateN/ past a gap would be dropped without a word */
	{
		g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
		const char *e;

		while (d && (e = g_dir_read_name(d)))
			if (state_index(e) >= n) {
				g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
					    "%s/%s: the states are not numbered without gaps "
					    "(state%d/ is missing)", dir, e, n);
				return NULL;
			}
	}
	t->count = n;
	derive_transition_energy(t);
	{
		g_autofree char *base = g_path_get_basename(dir);

		g_snprintf(t->name, sizeof(t->name), "sysfs:%s", base);
	}
	if (!is_states_validate(t, dir, error))
		return NULL;
	if (disabled)
		*disabled = dis;
	return g_steal_pointer(&t);
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
		t = is_states_load_file(spec, error);
		if (t && disabled)
			*disabled = is_states_default_disabled(t);
		return t;
	}
	g_set_error(error, IS_ERROR, IS_ERROR_IO,
		    "%s: not a built-in state table (power9, power9-full, pseries), a file or a directory",
		    spec);
	return NULL;
}
