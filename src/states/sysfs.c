// SPDX-License-Identifier: GPL-2.0-only
/*
 * State tables from a copy of /sys/devices/system/cpu/cpuN/cpuidle/
 * (is_states_load_sysfs()): one stateN/ directory per state.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlesim/states.h"
#include "states_internal.h"

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
	const struct is_state_table *const *bt = is_states_builtin_tables();
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
		for (int b = 0; bt[b] && !known; b++)
			for (int j = 0; j < bt[b]->count; j++)
				if (strcmp(bt[b]->s[j].name, name) == 0) {
					known = &bt[b]->s[j];
					break;
				}
		if (known) {
			s->power = known->power;
			s->transition_energy = known->transition_energy;
		} else {
			s->power = is_states_default_power(n, s->flags);
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
			if (is_states_dir_index(e) >= n) {
				g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
					    "%s/%s: the states are not numbered without gaps "
					    "(state%d/ is missing)", dir, e, n);
				return NULL;
			}
	}
	t->count = n;
	is_states_derive_energy(t);
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
