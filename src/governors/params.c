// SPDX-License-Identifier: GPL-2.0-only
/* Governor tunables as "key=value" strings. */
#include <string.h>

#include "idlesim/governor.h"

void is_params_defaults_of(const struct is_param_desc *d, int n, struct is_params *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < n; i++)
		p->v[i] = d[i].def;
}

void is_params_defaults(const struct is_governor *g, struct is_params *p)
{
	is_params_defaults_of(g->params, g->nparams, p);
}

int is_params_index_of(const struct is_param_desc *d, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(d[i].name, name) == 0)
			return i;
	return -1;
}

int is_params_index(const struct is_governor *g, const char *name)
{
	return is_params_index_of(g->params, g->nparams, name);
}

static char *param_names(const struct is_param_desc *d, int n)
{
	GString *s = g_string_new(NULL);

	for (int i = 0; i < n; i++)
		g_string_append_printf(s, "%s%s", i ? ", " : "", d[i].name);
	if (!n)
		g_string_append(s, "none");
	return g_string_free(s, FALSE);
}

static char *param_range(const struct is_param_desc *d)
{
	GString *s = g_string_new(NULL);

	if (d->choices) {
		for (int i = 0; d->choices[i]; i++)
			g_string_append_printf(s, "%s%s", i ? "|" : "", d->choices[i]);
	} else {
		g_string_append_printf(s, "%" G_GINT64_FORMAT "..%" G_GINT64_FORMAT,
				       d->min, d->max);
	}
	return g_string_free(s, FALSE);
}

bool is_params_set_of(const char *kind, const char *owner,
		      const struct is_param_desc *descs, int nd,
		      struct is_params *p, const char *kv, GError **error)
{
	const char *eq = strchr(kv, '=');
	g_autofree char *key = eq ? g_strndup(kv, (gsize)(eq - kv)) : g_strdup(kv);
	const struct is_param_desc *d;
	gint64 v = 0;
	int i;

	i = is_params_index_of(descs, nd, key);
	if (i < 0) {
		g_autofree char *names = param_names(descs, nd);

		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s %s has no param '%s' (params: %s)", kind, owner, key, names);
		return false;
	}
	d = &descs[i];
	if (!eq || !eq[1]) {
		g_autofree char *range = param_range(d);

		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "param '%s' of %s needs a value (%s)", key, owner, range);
		return false;
	}
	if (d->choices) {
		bool found = false;

		for (int c = 0; d->choices[c]; c++)
			if (strcmp(d->choices[c], eq + 1) == 0) {
				v = c;
				found = true;
			}
		if (!found) {
			g_autofree char *range = param_range(d);

			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "param '%s' of %s: '%s' is not one of %s", key, owner,
				    eq + 1, range);
			return false;
		}
	} else {
		/* "3.0", "0x3", "1e3": not integers, which "out of range" would hide */
		GError *perr = NULL;
		bool num = g_ascii_string_to_signed(eq + 1, 10, G_MININT64, G_MAXINT64, &v, &perr) ||
			   g_error_matches(perr, G_NUMBER_PARSER_ERROR,
					   G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS);

		g_clear_error(&perr);
		if (!num || v < d->min || v > d->max) {
			g_autofree char *range = param_range(d);

			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "param '%s' of %s: '%s' is %s %s", key, owner, eq + 1,
				    num ? "out of range" : "not a decimal integer; range", range);
			return false;
		}
	}
	p->v[i] = v;
	return true;
}

bool is_params_set(const struct is_governor *g, struct is_params *p,
		   const char *kv, GError **error)
{
	return is_params_set_of("governor", g->name, g->params, g->nparams, p, kv, error);
}

char *is_params_format(const struct is_governor *g, const struct is_params *p)
{
	GString *s = g_string_new(NULL);

	for (int i = 0; i < g->nparams; i++) {
		const struct is_param_desc *d = &g->params[i];

		if (i)
			g_string_append_c(s, ',');
		if (d->choices)
			g_string_append_printf(s, "%s=%s", d->name, d->choices[p->v[i]]);
		else
			g_string_append_printf(s, "%s=%" G_GINT64_FORMAT, d->name, p->v[i]);
	}
	return g_string_free(s, FALSE);
}
