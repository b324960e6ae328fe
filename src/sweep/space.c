// SPDX-License-Identifier: GPL-2.0-only
/*
 * The space of a sweep: axes of governor params, their expansion into
 * numbered points (grid or seeded random sample) and shard membership.
 */
#include <string.h>

#include "idlesim/sweep.h"

void is_sweep_space_init(struct is_sweep_space *s, const struct is_governor *g)
{
	memset(s, 0, sizeof(*s));
	s->gov = g;
	is_params_defaults(g, &s->base);
	s->random_seed = 1;
}

void is_sweep_space_clear(struct is_sweep_space *s)
{
	for (int a = 0; a < s->naxes; a++)
		g_free(s->axes[a].values);
	s->naxes = 0;
}

/* One value, checked and converted by the params parser itself. */
static bool axis_value(const struct is_governor *g, const char *key, const char *v,
		       int64_t *out, GError **error)
{
	g_autofree char *kv = g_strdup_printf("%s=%s", key, v);
	struct is_params p;
	int i = is_params_index(g, key);

	is_params_defaults(g, &p);
	if (!is_params_set(g, &p, kv, error))
		return false;
	*out = p.v[i];
	return true;
}

static bool axis_range(const struct is_governor *g, const char *key, const char *spec,
		       GArray *vals, GError **error)
{
	g_auto(GStrv) f = g_strsplit(spec, ":", -1);
	gint64 a, b, step;
	int i = is_params_index(g, key);

	if (g_strv_length(f) != 3 || !f[0][0] || !f[1][0] || !f[2][0]) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "--grid %s=%s: a range is FIRST:LAST:STEP", key, spec);
		return false;
	}
	if (g->params[i].choices) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "--grid %s=%s: '%s' takes names, list them (v1,v2,...)", key, spec, key);
		return false;
	}
	if (!g_ascii_string_to_signed(f[0], 10, G_MININT64, G_MAXINT64, &a, NULL) ||
	    !g_ascii_string_to_signed(f[1], 10, G_MININT64, G_MAXINT64, &b, NULL) ||
	    !g_ascii_string_to_signed(f[2], 10, G_MININT64, G_MAXINT64, &step, NULL)) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "--grid %s=%s: FIRST, LAST and STEP must be integers", key, spec);
		return false;
	}
	if (step <= 0) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "--grid %s=%s: the step must be > 0", key, spec);
		return false;
	}
	if (b < a) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "--grid %s=%s: inverted range (%" G_GINT64_FORMAT " > %" G_GINT64_FORMAT ")",
			    key, spec, a, b);
		return false;
	}
	/* Both ends are checked against the param's range, hence every value. */
	for (int e = 0; e < 2; e++) {
		int64_t dummy;

		if (!axis_value(g, key, f[e], &dummy, error)) {
			g_prefix_error(error, "--grid %s=%s: ", key, spec);
			return false;
		}
	}
	for (int64_t v = a;; v += step) {
		g_array_append_val(vals, v);
		if (v > b - step)  /* no overflow past b */
			break;
	}
	return true;
}

bool is_sweep_space_add_axis(struct is_sweep_space *s, const char *spec, GError **error)
{
	const struct is_governor *g = s->gov;
	const char *eq = strchr(spec, '=');
	g_autofree char *key = eq ? g_strndup(spec, (gsize)(eq - spec)) : g_strdup(spec);
	g_autoptr(GArray) vals = g_array_new(FALSE, FALSE, sizeof(int64_t));
	int i = is_params_index(g, key);

	if (i < 0) {
		int64_t dummy;

		/* The params parser names the governor's params. */
		axis_value(g, key, "0", &dummy, error);
		g_prefix_error(error, "--grid %s: ", spec);
		return false;
	}
	for (int a = 0; a < s->naxes; a++)
		if (s->axes[a].param == i) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "--grid %s: param '%s' has an axis already", spec, key);
			return false;
		}
	if (s->naxes >= IS_PARAM_MAX) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "--grid %s: too many axes", spec);
		return false;
	}
	if (!eq || !eq[1]) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "--grid %s: no values (key=FIRST:LAST:STEP or key=v1,v2,...)", spec);
		return false;
	}
	if (strchr(eq + 1, ':')) {
		if (!axis_range(g, key, eq + 1, vals, error))
			return false;
	} else {
		g_auto(GStrv) list = g_strsplit(eq + 1, ",", -1);

		for (int k = 0; list[k]; k++) {
			int64_t v;

			if (!list[k][0]) {
				g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
					    "--grid %s: empty value in the list", spec);
				return false;
			}
			if (!axis_value(g, key, list[k], &v, error)) {
				g_prefix_error(error, "--grid %s: ", spec);
				return false;
			}
			for (guint m = 0; m < vals->len; m++)
				if (g_array_index(vals, int64_t, m) == v) {
					g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
						    "--grid %s: value '%s' listed twice", spec, list[k]);
					return false;
				}
			g_array_append_val(vals, v);
		}
	}
	s->axes[s->naxes].param = i;
	s->axes[s->naxes].n = (int)vals->len;
	s->axes[s->naxes].values = (int64_t *)(void *)g_array_free(g_steal_pointer(&vals), FALSE);
	s->naxes++;
	return true;
}

bool is_sweep_space_size(const struct is_sweep_space *s, uint64_t *n, GError **error)
{
	uint64_t size = 1;

	if (s->random_n) {
		*n = s->random_n;
		return true;
	}
	for (int a = 0; a < s->naxes; a++) {
		if (size > UINT64_MAX / (uint64_t)s->axes[a].n) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "the grid has more than 2^64 points");
			return false;
		}
		size *= (uint64_t)s->axes[a].n;
	}
	*n = size;
	return true;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void is_sweep_space_point(const struct is_sweep_space *s, uint64_t i, struct is_params *out)
{
	*out = s->base;
	if (s->random_n) {
		/* Each point has its own stream: independent of order and shards. */
		uint64_t x = s->random_seed ^ (i * 0xd1b54a32d192ed03ULL);

		splitmix64(&x);
		for (int a = 0; a < s->naxes; a++) {
			const struct is_sweep_axis *ax = &s->axes[a];
			/* Lemire's multiply-shift: an unbiased-enough index in [0, n). */
			uint64_t k = (uint64_t)(((unsigned __int128)splitmix64(&x) * (uint64_t)ax->n) >> 64);

			out->v[ax->param] = ax->values[k];
		}
		return;
	}
	for (int a = s->naxes - 1; a >= 0; a--) {
		const struct is_sweep_axis *ax = &s->axes[a];

		out->v[ax->param] = ax->values[i % (uint64_t)ax->n];
		i /= (uint64_t)ax->n;
	}
}

int *is_sweep_space_reps(const struct is_sweep_space *s, const struct is_state_table *drv)
{
	const struct is_governor *g = s->gov;
	int total = 0, off = 0;
	bool shared = false;
	int *reps;

	if (!g || !g->canon_param || s->random_n || !drv)
		return NULL;
	for (int a = 0; a < s->naxes; a++)
		total += s->axes[a].n;
	reps = g_new(int, total ? total : 1);
	for (int a = 0; a < s->naxes; a++) {
		const struct is_sweep_axis *ax = &s->axes[a];
		/* each class's value -> the index of its first value on the axis */
		g_autoptr(GHashTable) first = g_hash_table_new_full(g_int64_hash, g_int64_equal,
								      g_free, NULL);

		for (int k = 0; k < ax->n; k++) {
			int64_t *c = g_new(int64_t, 1);
			gpointer f;

			*c = g->canon_param(drv, ax->param, ax->values[k]);
			if (g_hash_table_lookup_extended(first, c, NULL, &f)) {
				g_free(c);
				reps[off + k] = GPOINTER_TO_INT(f);
				shared = true;
			} else {
				g_hash_table_insert(first, c, GINT_TO_POINTER(k));
				reps[off + k] = k;
			}
		}
		off += ax->n;
	}
	if (!shared) {
		g_free(reps);
		return NULL;
	}
	return reps;
}

uint64_t is_sweep_space_rep(const struct is_sweep_space *s, const int *reps, uint64_t i)
{
	uint64_t r = 0, scale = 1;
	int off = 0;

	for (int a = 0; a < s->naxes; a++)
		off += s->axes[a].n;
	for (int a = s->naxes - 1; a >= 0; a--) {
		const struct is_sweep_axis *ax = &s->axes[a];

		off -= ax->n;
		r += (uint64_t)reps[off + (int)(i % (uint64_t)ax->n)] * scale;
		scale *= (uint64_t)ax->n;
		i /= (uint64_t)ax->n;
	}
	return r;
}

bool is_sweep_shard_parse(const char *spec, uint32_t *k, uint32_t *n, GError **error)
{
	g_auto(GStrv) f = g_strsplit(spec, "/", -1);
	guint64 a, b;

	if (g_strv_length(f) != 2 ||
	    !g_ascii_string_to_unsigned(f[0], 10, 1, G_MAXUINT32, &a, NULL) ||
	    !g_ascii_string_to_unsigned(f[1], 10, 1, G_MAXUINT32, &b, NULL) || a > b) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "--shard %s: expected K/N with 1 <= K <= N", spec);
		return false;
	}
	*k = (uint32_t)a;
	*n = (uint32_t)b;
	return true;
}
