// SPDX-License-Identifier: GPL-2.0-only
/*
 * DOC: plugin:FILE[:NAME] - a kernel governor file as an idlesim governor
 *
 * FILE is a shared object made by `idlesim kgov build` from a kernel's
 * governor source (teo.c, menu.c, ladder.c, a patched one, an out-of-tree
 * one that calls cpuidle_register_governor()), linked with src/kgov's
 * runtime (kgov-abi.h is the interface).  Its decisions are the file's own:
 * nothing is ported.
 *
 * Isolation: each simulation loads a private copy of FILE (its bytes are
 * read once, then each instance_new() puts them in a memfd and dlopen()s
 * it), so the file's globals - module parameters, DEFINE_PER_CPU arrays
 * (indexed by simulated CPU), anything static - belong to that simulation:
 * sweeps on several threads and several plugin governors in one run share
 * nothing.  The cost is one dlopen() per simulation (docs/plugins.md gives
 * the figures).
 *
 * Params: every module_param()/module_param_named() of the file, with its
 * type's range and the variable's initial value as default, set before the
 * initcalls run, as the kernel's command line sets a built-in governor's.
 *
 * Safety: a plugin is code the user chose to build and runs inside
 * idlesim's process; nothing is loaded that a spec does not name.  A fatal
 * signal in it is reported by the CLI with is_governor_plugin_running().
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "idlesim/governor.h"
#include "../kgov/kgov-abi.h"

struct plugin {
	struct is_governor g; /* first: the ops table users see */
	char *file, *govname;
	int gov;              /* index among the governors the file registers */
	GBytes *image;
	int np;
	int pidx[IS_PARAM_MAX];            /* its is_kgov_param, by index */
	enum is_kgov_ptype ptype[IS_PARAM_MAX];
	struct is_param_desc pd[IS_PARAM_MAX];
	char *label;          /* "plugin FILE (governor NAME)" */
};

struct inst {
	const struct plugin *p;
	int fd;          /* its memfd, open while loaded: see load_copy() */
	void *handle;
	const struct is_kgov_plugin *k;
};

static GMutex lock;
static GHashTable *plugins; /* spec -> struct plugin */

/* What this thread runs inside a plugin, for a fatal signal's report. */
static __thread const struct plugin *run_p;
static __thread const char *run_what;
static __thread int run_cpu;
static __thread char run_buf[512];

static void append(char **at, char *end, const char *s)
{
	while (*s && *at < end - 1)
		*(*at)++ = *s++;
}

const char *is_governor_plugin_running(void)
{
	char *at = run_buf, *end = run_buf + sizeof(run_buf);
	char num[16];
	int n = 0;
	unsigned int v;

	if (!run_p)
		return NULL;
	append(&at, end, run_p->label);
	append(&at, end, ", ");
	append(&at, end, run_what);
	append(&at, end, "() on CPU ");
	v = (unsigned int)run_cpu;
	do
		num[n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < 15);
	while (n && at < end - 1)
		*at++ = num[--n];
	*at = 0;
	return run_buf;
}

static inline void running(const struct plugin *p, const char *what, int cpu)
{
	run_p = p;
	run_what = what;
	run_cpu = cpu;
}

static int64_t host_sleep_length(void *call, int64_t *delta_next)
{
	return is_gov_sleep_length(call, delta_next);
}

static uint32_t host_random_u32(void *call)
{
	return is_gov_random_u32(call);
}

static const struct is_kgov_host host = {
	.sleep_length = host_sleep_length,
	.random_u32 = host_random_u32,
};

static const size_t type_size[] = {
	[IS_KGOV_PT_BOOL] = sizeof(bool), [IS_KGOV_PT_INVBOOL] = sizeof(bool),
	[IS_KGOV_PT_BYTE] = 1, [IS_KGOV_PT_SHORT] = 2, [IS_KGOV_PT_USHORT] = 2,
	[IS_KGOV_PT_INT] = 4, [IS_KGOV_PT_UINT] = 4, [IS_KGOV_PT_HEXINT] = 4,
	[IS_KGOV_PT_LONG] = 8, [IS_KGOV_PT_ULONG] = 8, [IS_KGOV_PT_ULLONG] = 8,
};
static const char *const type_name[] = {
	"bool", "invbool", "byte", "short", "ushort", "int", "uint", "hexint", "long", "ulong",
	"ullong",
};

static void type_range(enum is_kgov_ptype t, int64_t *lo, int64_t *hi)
{
	switch (t) {
	case IS_KGOV_PT_BOOL:
	case IS_KGOV_PT_INVBOOL: *lo = 0; *hi = 1; break;
	case IS_KGOV_PT_BYTE: *lo = 0; *hi = UINT8_MAX; break;
	case IS_KGOV_PT_SHORT: *lo = INT16_MIN; *hi = INT16_MAX; break;
	case IS_KGOV_PT_USHORT: *lo = 0; *hi = UINT16_MAX; break;
	case IS_KGOV_PT_INT: *lo = INT32_MIN; *hi = INT32_MAX; break;
	case IS_KGOV_PT_UINT:
	case IS_KGOV_PT_HEXINT: *lo = 0; *hi = UINT32_MAX; break;
	case IS_KGOV_PT_LONG: *lo = INT64_MIN; *hi = INT64_MAX; break;
	default: *lo = 0; *hi = INT64_MAX; break;
	}
}

/* The param's value as the kernel shows it (invbool: the inverse). */
static int64_t param_get(enum is_kgov_ptype t, const void *a)
{
	switch (t) {
	case IS_KGOV_PT_BOOL: return *(const bool *)a;
	case IS_KGOV_PT_INVBOOL: return !*(const bool *)a;
	case IS_KGOV_PT_BYTE: return *(const uint8_t *)a;
	case IS_KGOV_PT_SHORT: return *(const int16_t *)a;
	case IS_KGOV_PT_USHORT: return *(const uint16_t *)a;
	case IS_KGOV_PT_INT: return *(const int32_t *)a;
	case IS_KGOV_PT_UINT:
	case IS_KGOV_PT_HEXINT: return *(const uint32_t *)a;
	case IS_KGOV_PT_LONG: return *(const int64_t *)a;
	default: {
		uint64_t v = *(const uint64_t *)a;

		return v > INT64_MAX ? INT64_MAX : (int64_t)v;
	}
	}
}

static void param_put(enum is_kgov_ptype t, void *a, int64_t v)
{
	switch (t) {
	case IS_KGOV_PT_BOOL: *(bool *)a = v; break;
	case IS_KGOV_PT_INVBOOL: *(bool *)a = !v; break;
	case IS_KGOV_PT_BYTE: *(uint8_t *)a = (uint8_t)v; break;
	case IS_KGOV_PT_SHORT: *(int16_t *)a = (int16_t)v; break;
	case IS_KGOV_PT_USHORT: *(uint16_t *)a = (uint16_t)v; break;
	case IS_KGOV_PT_INT: *(int32_t *)a = (int32_t)v; break;
	case IS_KGOV_PT_UINT:
	case IS_KGOV_PT_HEXINT: *(uint32_t *)a = (uint32_t)v; break;
	case IS_KGOV_PT_LONG: *(int64_t *)a = v; break;
	default: *(uint64_t *)a = (uint64_t)v; break;
	}
}

/* A private copy of @p's file: its own globals. */
static bool load_copy(const struct plugin *p, struct inst *in, GError **error)
{
	gsize len;
	const char *data = g_bytes_get_data(p->image, &len);
	int fd = memfd_create("idlesim-plugin", MFD_CLOEXEC);
	char path[64];

	if (fd < 0) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: memfd_create: %s", p->file,
			    g_strerror(errno));
		return false;
	}
	for (gsize off = 0; off < len;) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: copying it: %s", p->file,
				    g_strerror(errno));
			close(fd);
			return false;
		}
		off += (gsize)w;
	}
	/*
	 * dlopen() returns an object already loaded under the same name: the
	 * fd stays open until dlclose() so that no other live copy has it.
	 */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	in->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!in->handle) {
		close(fd);
		const char *e = dlerror();
		const char *colon = e ? strstr(e, ": ") : NULL;

		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: cannot load it: %s", p->file,
			    colon ? colon + 2 : e ? e : "dlopen failed");
		return false;
	}
	in->fd = fd;
	in->k = dlsym(in->handle, "is_kgov_plugin");
	if (!in->k || in->k->abi != IS_KGOV_ABI) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    in->k ? "%s: built for another idlesim (plugin interface %u, this "
				    "idlesim's is %u): build it again with idlesim kgov build"
				  : "%s: not an idlesim plugin (build it with idlesim kgov build)",
			    p->file, in->k ? in->k->abi : 0, IS_KGOV_ABI);
		dlclose(in->handle);
		close(fd);
		return false;
	}
	in->p = p;
	return true;
}

static void inst_free(void *v)
{
	struct inst *in = v;

	if (!in)
		return;
	dlclose(in->handle);
	close(in->fd);
	g_free(in);
}

static bool inst_start(struct inst *in, GError **error)
{
	char msg[256] = "";

	running(in->p, "initcall", 0);
	if (in->k->start(&host, msg, sizeof(msg)) < 0) {
		running(NULL, NULL, 0);
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "%s: %s", in->p->file, msg);
		return false;
	}
	running(NULL, NULL, 0);
	return true;
}

static void *inst_new(const struct is_governor *g, const struct is_params *params, int cpus,
		      GError **error)
{
	const struct plugin *p = (const struct plugin *)g;
	struct inst *in = g_new0(struct inst, 1);

	if (!load_copy(p, in, error)) {
		g_free(in);
		return NULL;
	}
	if ((uint32_t)cpus > in->k->nr_cpus) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: built for %u CPUs, the input has %d (idlesim kgov build "
			    "-D KGOV_NR_CPUS=N)", p->file, in->k->nr_cpus, cpus);
		inst_free(in);
		return NULL;
	}
	/* the command line's teo.NAME=VALUE: before the initcalls */
	for (int i = 0; i < p->np; i++)
		param_put(p->ptype[i], in->k->params[p->pidx[i]].addr, params->v[i]);
	if (!inst_start(in, error)) {
		inst_free(in);
		return NULL;
	}
	return in;
}

static int plug_init(void *st, const struct is_gov_env *env)
{
	const struct inst *in = env->inst;
	const struct is_state_table *t = env->drv;
	struct is_kgov_state s[16];
	int ret;

	if (t->count > (int)G_N_ELEMENTS(s))
		return -1;
	memset(s, 0, sizeof(s));
	for (int i = 0; i < t->count; i++) {
		g_strlcpy(s[i].name, t->s[i].name, sizeof(s[i].name));
		s[i].exit_latency_ns = t->s[i].exit_latency_ns;
		s[i].target_residency_ns = t->s[i].target_residency_ns;
		s[i].polling = t->s[i].flags & IS_STATE_POLLING;
	}
	running(in->p, "enable", env->cpu);
	ret = in->k->enable(in->p->gov, st, env->cpu, s, t->count, env->disabled, env->tick_nsec);
	running(NULL, NULL, 0);
	return ret < 0 ? -1 : 0;
}

static int plug_select(void *st, const struct is_gov_env *env, struct is_gov_call *call,
		       bool *stop_tick)
{
	const struct inst *in = env->inst;
	const struct is_kgov_call c = {
		.call = call,
		.now_ns = call->now_ns,
		.latency_req_ns = call->latency_req_ns,
		.last_residency_ns = env->last_residency_ns,
		.tick_nsec = env->tick_nsec,
		.disabled = env->disabled,
		.nr_iowait = call->nr_iowait,
		.tick_stopped = call->tick_stopped,
	};
	int idx;

	running(in->p, "select", env->cpu);
	idx = in->k->select(in->p->gov, st, &c, stop_tick);
	run_p = NULL;
	return idx;
}

static void plug_reflect(void *st, const struct is_gov_env *env, const struct is_gov_wake *w)
{
	const struct inst *in = env->inst;
	const struct is_kgov_wake kw = {
		.entered = w->entered,
		.now_ns = w->now_ns,
		.last_residency_ns = w->last_residency_ns,
		.tick_nsec = env->tick_nsec,
		.got_tick = w->got_tick,
		.poll_time_limit = w->poll_time_limit,
	};

	running(in->p, "reflect", env->cpu);
	in->k->reflect(in->p->gov, st, &kw);
	run_p = NULL;
}

static void plug_dump(const void *st, const struct is_gov_env *env, GString *out)
{
	const struct inst *in = env->inst;
	size_t n;
	char *buf;

	running(in->p, "dump", env->cpu);
	n = in->k->dump((void *)st, NULL, 0);
	buf = g_malloc(n + 1);
	in->k->dump((void *)st, buf, n + 1);
	run_p = NULL;
	g_string_append_len(out, buf, (gssize)n);
	g_free(buf);
}

static void plugin_free(gpointer v)
{
	struct plugin *p = v;

	for (int i = 0; i < p->np; i++) {
		g_free((char *)p->pd[i].name);
		g_free((char *)p->pd[i].help);
	}
	g_bytes_unref(p->image);
	g_free((char *)p->g.name);
	g_free((char *)p->g.description);
	g_free(p->file);
	g_free(p->govname);
	g_free(p->label);
	g_free(p);
}

/* Reads FILE's params and governors from a first copy. */
static bool probe(struct plugin *p, const char *want, GError **error)
{
	struct inst in = { 0 };
	g_autofree const struct is_kgov_param **order = NULL;
	const struct is_kgov_param *q;
	const char *const *names;
	int n, nq;

	if (!load_copy(p, &in, error))
		return false;
	/* in the order of their declarations */
	nq = in.k->params ? (int)(in.k->params_end - in.k->params) : 0;
	order = g_new(const struct is_kgov_param *, MAX(nq, 1));
	for (int i = 0; i < nq; i++) {
		int j = i;

		for (; j > 0 && order[j - 1]->line > in.k->params[i].line; j--)
			order[j] = order[j - 1];
		order[j] = &in.k->params[i];
	}
	for (int o = 0; o < nq; o++) {
		int i = p->np;
		const struct is_kgov_param_desc *d;
		const char *text = "";

		q = order[o];
		if (q->type > IS_KGOV_PT_ULLONG || q->size != type_size[q->type]) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: module param %s: a %s of %zu bytes", p->file, q->name,
				    q->type <= IS_KGOV_PT_ULLONG ? type_name[q->type] : "?", q->size);
			goto fail;
		}
		if (i == IS_PARAM_MAX) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: more than %d module params (idlesim's limit)", p->file,
				    IS_PARAM_MAX);
			goto fail;
		}
		for (d = in.k->descs; d && d < in.k->descs_end; d++)
			if (strcmp(d->name, q->name) == 0)
				text = d->desc;
		p->pidx[i] = (int)(q - in.k->params);
		p->ptype[i] = q->type;
		p->pd[i].name = g_strdup(q->name);
		p->pd[i].help = g_strdup_printf("module_param %s (%s, %s, perm %04o)%s%s", q->name,
						type_name[q->type],
						q->perm & 0222 ? "writable" : "boot only",
						q->perm, *text ? ": " : "", text);
		p->pd[i].def = param_get(q->type, q->addr);
		type_range(q->type, &p->pd[i].min, &p->pd[i].max);
		p->np++;
	}
	if (!inst_start(&in, error))
		goto fail;
	n = in.k->governors(&names);
	p->gov = -1;
	for (int i = 0; i < n; i++)
		if (want ? strcmp(names[i], want) == 0 : n == 1)
			p->gov = i;
	if (p->gov < 0) {
		GString *all = g_string_new(NULL);

		for (int i = 0; i < n; i++)
			g_string_append_printf(all, "%s%s", i ? ", " : "", names[i]);
		if (!n)
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: registers no governor (no cpuidle_register_governor() in an "
				    "initcall)", p->file);
		else if (want)
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: registers no governor '%s' (it registers %s)", p->file, want,
				    all->str);
		else
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: registers several governors (%s): name one, plugin:FILE:NAME",
				    p->file, all->str);
		g_string_free(all, TRUE);
		goto fail;
	}
	p->govname = g_strdup(names[p->gov]);
	p->g.state_size = in.k->cpu_size;
	dlclose(in.handle);
	close(in.fd);
	return true;
fail:
	dlclose(in.handle);
	close(in.fd);
	return false;
}

static struct plugin *plugin_open(const char *spec, GError **error)
{
	const char *rest = spec + strlen("plugin:");
	const char *colon = strrchr(rest, ':');
	g_autofree char *want = NULL;
	struct plugin *p = g_new0(struct plugin, 1);
	GError *e = NULL;
	char *data;
	gsize len;

	/* FILE:NAME, unless FILE itself has the colon */
	if (colon && colon > rest && !strchr(colon, '/') && !g_file_test(rest, G_FILE_TEST_EXISTS)) {
		p->file = g_strndup(rest, (gsize)(colon - rest));
		want = g_strdup(colon + 1);
	} else {
		p->file = g_strdup(rest);
	}
	if (!*p->file) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: no file (plugin:FILE[:NAME], FILE from idlesim kgov build)", spec);
		plugin_free(p);
		return NULL;
	}
	if (!g_file_get_contents(p->file, &data, &len, &e)) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", spec, e->message);
		g_error_free(e);
		plugin_free(p);
		return NULL;
	}
	p->image = g_bytes_new_take(data, len);
	if (!probe(p, want, error)) {
		plugin_free(p);
		return NULL;
	}
	p->label = g_strdup_printf("plugin %s (governor %s)", p->file, p->govname);
	p->g.name = g_strdup(spec);
	p->g.description = g_strdup_printf("governor %s of %s, a kernel governor file built by "
					   "idlesim kgov build", p->govname, p->file);
	p->g.params = p->pd;
	p->g.nparams = p->np;
	p->g.init = plug_init;
	p->g.select = plug_select;
	p->g.reflect = plug_reflect;
	p->g.dump = plug_dump;
	p->g.instance_new = inst_new;
	p->g.instance_free = inst_free;
	return p;
}

const struct is_governor *is_governor_lookup(const char *spec, GError **error)
{
	const struct is_governor *g;
	struct plugin *p;

	if (!g_str_has_prefix(spec, "plugin:")) {
		g = is_governor_find(spec);
		if (!g)
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "unknown governor '%s' (see idlesim governors; a kernel "
				    "governor file: plugin:FILE from idlesim kgov build)", spec);
		return g;
	}
	g_mutex_lock(&lock);
	if (!plugins)
		plugins = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, plugin_free);
	p = g_hash_table_lookup(plugins, spec);
	if (!p) {
		p = plugin_open(spec, error);
		if (p)
			g_hash_table_insert(plugins, g_strdup(spec), p);
	}
	g_mutex_unlock(&lock);
	return p ? &p->g : NULL;
}

void is_governor_plugins_free(void)
{
	g_mutex_lock(&lock);
	if (plugins)
		g_hash_table_destroy(plugins);
	plugins = NULL;
	g_mutex_unlock(&lock);
}
