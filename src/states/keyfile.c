// SPDX-License-Identifier: GPL-2.0-only
/*
 * State tables from GKeyFile files (is_states_load_file()): the format is
 * in docs/states.md; unset powers and transition energies
 * follow the power model of states.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlesim/states.h"
#include "states_internal.h"

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
			int i = is_states_dir_index(groups[g]);

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
		s->power = is_states_default_power(n, s->flags);
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
	is_states_derive_energy(t);
	if (!is_states_validate(t, path, error))
		return NULL;
	return g_steal_pointer(&t);
}

void is_states_keyfile(GString *out, const struct is_state_table *t)
{
	char b[G_ASCII_DTOSTR_BUF_SIZE];

	g_string_append_printf(out, "[table]\nname=%s\n", t->name);
	for (int i = 0; i < t->count; i++) {
		const struct is_state *s = &t->s[i];
		size_t at;

		g_string_append_printf(out, "\n[state%d]\nname=%s\nexit_latency_ns=%" G_GINT64_FORMAT
				       "\ntarget_residency_ns=%" G_GINT64_FORMAT "\nflags=", i, s->name,
				       s->exit_latency_ns, s->target_residency_ns);
		at = out->len;
		if (!is_state_flags_append(out, s->flags))
			g_string_truncate(out, at - strlen("flags="));
		else
			g_string_append_c(out, '\n');
		g_string_append_printf(out, "power=%s\n", is_format_shortest(b, s->power));
		g_string_append_printf(out, "transition_energy=%s\n",
				       is_format_shortest(b, s->transition_energy));
	}
}
