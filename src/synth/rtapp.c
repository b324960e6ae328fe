// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rt-app file parser: rt-app 1.0's grammar (doc/tutorial.txt of the
 * Debian package rt-app 1.0-1) read with json-glib into a program
 * (rtapp_internal.h).
 *
 * JSON as rt-app's json-c reads it: C comments, both kinds (json-glib
 * takes the block ones; line comments are blanked here first, keeping
 * every line and column).  A repeated key in one object is refused: json-c
 * keeps only the last, and workgen numbers them (run0, run1, ...) before
 * rt-app sees the file.
 *
 * Event keys match by prefix, as in rt-app ("run0", "timer1"); "runtime"
 * before "run".  A thread object without "phases" is its own single
 * phase, run once per thread loop; with phases, a phase's "loop" defaults
 * to 1 and the thread's to -1 (forever).  Every key is either modelled,
 * listed as ignored (it does not change when tasks wake), or refused with
 * its JSON path and line.
 */
#include <errno.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "idlesim/idlesim.h"
#include "rtapp_internal.h"

#define MAX_US 3600000000LL      /* one hour, in microseconds */
#define MAX_BYTES (1LL << 40)     /* mem and iorun sizes: 1 TiB */
#define MAX_INSTANCES 4096
#define MAX_SPIN 1000000         /* zero-time repetitions at one instant */

struct pctx {
	const char *file;
	struct is_rtapp *p;
	GHashTable *lines;       /* JsonNode * -> line (scalar member values) */
	GHashTable *objlines;    /* JsonObject * -> line of its '{' */
	GHashTable *arrlines;    /* JsonArray * -> line of its '[' */
	GHashTable *counts;      /* JsonObject * -> members seen */
	GArray *open;            /* lines of the '{' and '[' not closed yet */
	char *dup;               /* the first repeated key, and its line */
	unsigned dup_line;
	GHashTable *names[4];    /* timers, mutexes, conds, barriers: name -> index + 1 */
	GHashTable *suspends;    /* cond names some suspend waits on */
	GPtrArray *resumes;      /* struct resume_ref * */
	GHashTable *barrier_refs; /* per task object: barrier index + 1 -> references */
	int pol;                 /* the last policy read: 1 rt or deadline, 0 other, -1 none */
	bool def_rt;             /* global.default_policy is rt or deadline */
};

enum { K_TIMER, K_MUTEX, K_COND, K_BARRIER };

struct resume_ref {
	char *name;
	char *where;
};

static void resume_ref_free(gpointer x)
{
	struct resume_ref *r = x;

	g_free(r->name);
	g_free(r->where);
	g_free(r);
}

/* ---- positions and messages ------------------------------------------- */

static void on_object_start(JsonParser *parser, gpointer data)
{
	struct pctx *c = data;
	unsigned line = json_parser_get_current_line(parser);

	g_array_append_val(c->open, line);
}

static void on_object_end(JsonParser *parser, JsonObject *obj, gpointer data)
{
	struct pctx *c = data;

	(void)parser;
	if (c->open->len) {
		g_hash_table_insert(c->objlines, obj,
				    GUINT_TO_POINTER(g_array_index(c->open, unsigned, c->open->len - 1)));
		g_array_set_size(c->open, c->open->len - 1);
	}
}

static void on_array_end(JsonParser *parser, JsonArray *arr, gpointer data)
{
	struct pctx *c = data;

	(void)parser;
	if (c->open->len) {
		g_hash_table_insert(c->arrlines, arr,
				    GUINT_TO_POINTER(g_array_index(c->open, unsigned, c->open->len - 1)));
		g_array_set_size(c->open, c->open->len - 1);
	}
}

static void on_member(JsonParser *parser, JsonObject *obj, const char *name, gpointer data)
{
	struct pctx *c = data;
	unsigned n = GPOINTER_TO_UINT(g_hash_table_lookup(c->counts, obj)) + 1;
	const unsigned line = json_parser_get_current_line(parser);

	g_hash_table_insert(c->counts, obj, GUINT_TO_POINTER(n));
	if (n > json_object_get_size(obj) && !c->dup) {
		c->dup = g_strdup(name);
		c->dup_line = line;
	}
	g_hash_table_insert(c->lines, json_object_get_member(obj, name), GUINT_TO_POINTER(line));
}

static void on_element(JsonParser *parser, JsonArray *arr, int idx, gpointer data)
{
	struct pctx *c = data;

	g_hash_table_insert(c->lines, json_array_get_element(arr, (guint)idx),
			    GUINT_TO_POINTER(json_parser_get_current_line(parser)));
}

static unsigned node_line(const struct pctx *c, JsonNode *n)
{
	if (JSON_NODE_HOLDS_OBJECT(n))
		return GPOINTER_TO_UINT(g_hash_table_lookup(c->objlines, json_node_get_object(n)));
	if (JSON_NODE_HOLDS_ARRAY(n))
		return GPOINTER_TO_UINT(g_hash_table_lookup(c->arrlines, json_node_get_array(n)));
	return GPOINTER_TO_UINT(g_hash_table_lookup(c->lines, n));
}

G_GNUC_PRINTF(5, 6)
static bool fail(const struct pctx *c, GError **error, JsonNode *n, const char *path,
		 const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "%s:%u: %s: %s", c->file, node_line(c, n),
		    path, msg);
	return false;
}

G_GNUC_PRINTF(4, 5)
static void note(struct pctx *c, JsonNode *n, const char *path, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_ptr_array_add(c->p->notes, g_strdup_printf("%s (line %u): %s", path, node_line(c, n), msg));
}

static char *sub(const char *path, const char *key)
{
	return *path ? g_strdup_printf("%s.%s", path, key) : g_strdup(key);
}

static void *keep(struct is_rtapp *p, void *block)
{
	g_ptr_array_add(p->blocks, block);
	return block;
}

/* ---- values ------------------------------------------------------------ */

static bool get_int(const struct pctx *c, JsonNode *n, const char *path, int64_t min, int64_t max,
		    int64_t *out, GError **error)
{
	int64_t v;

	if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
		return fail(c, error, n, path, "expected an integer");
	v = json_node_get_int(n);
	if (v < min || v > max)
		return fail(c, error, n, path, "%" G_GINT64_FORMAT " is out of range %" G_GINT64_FORMAT
			    "..%" G_GINT64_FORMAT, (gint64)v, (gint64)min, (gint64)max);
	*out = v;
	return true;
}

static bool get_str(const struct pctx *c, JsonNode *n, const char *path, bool empty_ok,
		    const char **out, GError **error)
{
	if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
		return fail(c, error, n, path, "expected a string");
	*out = json_node_get_string(n);
	if (!empty_ok && !**out)
		return fail(c, error, n, path, "expected a name, not an empty string");
	return true;
}

static int intern(struct pctx *c, int kind, const char *name)
{
	static const size_t counts[] = {
		offsetof(struct is_rtapp, ntimers), offsetof(struct is_rtapp, nmutexes),
		offsetof(struct is_rtapp, nconds), offsetof(struct is_rtapp, nbarriers),
	};
	gpointer v = g_hash_table_lookup(c->names[kind], name);
	int *n;

	if (v)
		return GPOINTER_TO_INT(v) - 1;
	n = (int *)((char *)c->p + counts[kind]);
	g_hash_table_insert(c->names[kind], g_strdup(name), GINT_TO_POINTER(*n + 1));
	return (*n)++;
}

/* "cpus": a non-empty array of CPU numbers; the set, sorted. */
static bool get_cpus(struct pctx *c, JsonNode *n, const char *path, const int **cpus, int *ncpus,
		     GError **error)
{
	JsonArray *a;
	int *v;
	int k = 0;

	if (!JSON_NODE_HOLDS_ARRAY(n))
		return fail(c, error, n, path, "expected an array of CPU numbers");
	a = json_node_get_array(n);
	if (json_array_get_length(a) == 0)
		return fail(c, error, n, path, "an empty CPU set");
	v = keep(c->p, g_new0(int, json_array_get_length(a)));
	for (guint i = 0; i < json_array_get_length(a); i++) {
		g_autofree char *ep = g_strdup_printf("%s[%u]", path, i);
		JsonNode *e = json_array_get_element(a, i);
		int64_t cpu;
		bool seen = false;

		if (!get_int(c, e, ep, 0, IS_TRACE_MAX_CPUS - 1, &cpu, error))
			return false;
		for (int j = 0; j < k; j++)
			seen |= v[j] == cpu;
		if (!seen)
			v[k++] = (int)cpu;
		if (cpu > c->p->max_cpu) {
			c->p->max_cpu = (int)cpu;
			g_free(c->p->max_cpu_where);
			c->p->max_cpu_where = g_strdup_printf("%s (line %u)", ep, node_line(c, e));
		}
	}
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			int t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	*cpus = v;
	*ncpus = k;
	return true;
}

/* ---- events ------------------------------------------------------------ */

enum ev_kind {
	E_RUNTIME, E_RUN, E_SLEEP, E_TIMER, E_LOCK, E_UNLOCK, E_WAIT, E_SIGNAL, E_BROAD,
	E_SYNC, E_SUSPEND, E_RESUME, E_BARRIER, E_YIELD, E_MEM, E_IORUN,
	E_UNMODELLED,
};

/* rt-app's event names, matched as key prefixes in this order. */
static const struct { const char *prefix; enum ev_kind kind; } ev_names[] = {
	{ "runtime", E_RUNTIME }, { "run", E_RUN }, { "sleep", E_SLEEP }, { "timer", E_TIMER },
	{ "lock", E_LOCK }, { "unlock", E_UNLOCK }, { "wait", E_WAIT }, { "signal", E_SIGNAL },
	{ "broad", E_BROAD }, { "sync", E_SYNC }, { "suspend", E_SUSPEND },
	{ "resume", E_RESUME }, { "barrier", E_BARRIER }, { "yield", E_YIELD },
	{ "mem", E_MEM }, { "iorun", E_IORUN }, { "fork", E_UNMODELLED },
	{ "external_workload", E_UNMODELLED },
};

static int ev_kind_of(const char *key)
{
	for (size_t i = 0; i < G_N_ELEMENTS(ev_names); i++)
		if (g_str_has_prefix(key, ev_names[i].prefix))
			return (int)ev_names[i].kind;
	return -1;
}

static void push(GArray *evs, enum rt_op op, int64_t ns, int res, int mutex)
{
	struct rt_event e = { .op = op, .ns = ns, .res = res, .mutex = mutex };

	g_array_append_val(evs, e);
}

/* {"ref": NAME, "mutex": NAME} of wait and sync; mutex -1 when absent. */
static bool ref_mutex(struct pctx *c, JsonNode *n, const char *path, int *cond, int *mutex,
		      GError **error)
{
	JsonObject *o;
	JsonNode *r, *m;
	const char *s;
	g_autoptr(GList) keys = NULL;

	if (!JSON_NODE_HOLDS_OBJECT(n))
		return fail(c, error, n, path, "expected an object {\"ref\": NAME, \"mutex\": NAME}");
	o = json_node_get_object(n);
	keys = json_object_get_members(o);
	for (GList *k = keys; k; k = k->next)
		if (strcmp(k->data, "ref") && strcmp(k->data, "mutex")) {
			g_autofree char *kp = sub(path, k->data);

			return fail(c, error, json_object_get_member(o, k->data), kp,
				    "unknown key (expected \"ref\" and \"mutex\")");
		}
	r = json_object_get_member(o, "ref");
	if (!r)
		return fail(c, error, n, path, "\"ref\" missing");
	{
		g_autofree char *rp = sub(path, "ref");

		if (!get_str(c, r, rp, false, &s, error))
			return false;
	}
	*cond = intern(c, K_COND, s);
	*mutex = -1;
	m = json_object_get_member(o, "mutex");
	if (m) {
		g_autofree char *mp = sub(path, "mutex");

		if (!get_str(c, m, mp, false, &s, error))
			return false;
		*mutex = intern(c, K_MUTEX, s);
	}
	return true;
}

static bool parse_timer(struct pctx *c, JsonNode *n, const char *path, GArray *evs, GError **error)
{
	JsonObject *o;
	g_autoptr(GList) keys = NULL;
	struct rt_event e = { .op = RT_TIMER, .mutex = -1 };
	const char *ref = NULL;
	bool have_period = false;

	if (!JSON_NODE_HOLDS_OBJECT(n))
		return fail(c, error, n, path, "expected an object {\"ref\", \"period\", \"mode\"}");
	o = json_node_get_object(n);
	keys = json_object_get_members(o);
	for (GList *k = keys; k; k = k->next) {
		JsonNode *v = json_object_get_member(o, k->data);
		g_autofree char *kp = sub(path, k->data);

		if (!strcmp(k->data, "ref")) {
			if (!get_str(c, v, kp, false, &ref, error))
				return false;
		} else if (!strcmp(k->data, "period")) {
			int64_t us;

			if (!get_int(c, v, kp, 1, MAX_US, &us, error))
				return false;
			e.ns = us * 1000;
			have_period = true;
		} else if (!strcmp(k->data, "mode")) {
			const char *m;

			if (!get_str(c, v, kp, false, &m, error))
				return false;
			if (strcmp(m, "relative") && strcmp(m, "absolute"))
				return fail(c, error, v, kp, "\"%s\": expected \"relative\" or \"absolute\"", m);
			e.absolute = !strcmp(m, "absolute");
		} else {
			return fail(c, error, v, kp, "unknown key (expected \"ref\", \"period\", \"mode\")");
		}
	}
	if (!have_period)
		return fail(c, error, n, path, "\"period\" missing");
	if (!ref)
		ref = "unknown"; /* rt-app's default */
	e.unique = g_str_has_prefix(ref, "unique");
	e.res = intern(c, K_TIMER, ref);
	g_array_append_val(evs, e);
	return true;
}

static bool parse_event(struct pctx *c, const struct rt_task *t, int kind, const char *key,
			JsonNode *n, const char *path, GArray *evs, GError **error)
{
	const char *s;
	int64_t us;
	int cond, mutex;

	switch ((enum ev_kind)kind) {
	case E_RUNTIME:
	case E_RUN:
	case E_SLEEP:
		if (!get_int(c, n, path, 0, MAX_US, &us, error))
			return false;
		push(evs, kind == E_SLEEP ? RT_SLEEP : RT_RUN, us * 1000, -1, -1);
		return true;
	case E_TIMER:
		return parse_timer(c, n, path, evs, error);
	case E_LOCK:
	case E_UNLOCK:
		if (!get_str(c, n, path, false, &s, error))
			return false;
		push(evs, kind == E_LOCK ? RT_LOCK : RT_UNLOCK, 0, intern(c, K_MUTEX, s), -1);
		return true;
	case E_WAIT:
		if (!ref_mutex(c, n, path, &cond, &mutex, error))
			return false;
		push(evs, RT_WAIT, 0, cond, mutex);
		return true;
	case E_SIGNAL:
	case E_BROAD:
		if (!get_str(c, n, path, false, &s, error))
			return false;
		push(evs, kind == E_SIGNAL ? RT_SIGNAL : RT_BROAD, 0, intern(c, K_COND, s), -1);
		return true;
	case E_SYNC:
		/* tutorial.txt: lock, signal, wait, unlock */
		if (!ref_mutex(c, n, path, &cond, &mutex, error))
			return false;
		if (mutex >= 0)
			push(evs, RT_LOCK, 0, mutex, -1);
		push(evs, RT_SIGNAL, 0, cond, -1);
		push(evs, RT_WAIT, 0, cond, mutex);
		if (mutex >= 0)
			push(evs, RT_UNLOCK, 0, mutex, -1);
		return true;
	case E_SUSPEND:
		/* a wait on the thread's own condition; "" is the thread's name (workgen) */
		if (!get_str(c, n, path, true, &s, error))
			return false;
		if (!*s)
			s = t->name;
		g_hash_table_add(c->suspends, g_strdup(s));
		push(evs, RT_WAIT, 0, intern(c, K_COND, s), -1);
		return true;
	case E_RESUME: {
		struct resume_ref *r;

		if (!get_str(c, n, path, false, &s, error))
			return false;
		r = g_new0(struct resume_ref, 1);
		r->name = g_strdup(s);
		r->where = g_strdup_printf("%s (line %u)", path, node_line(c, n));
		g_ptr_array_add(c->resumes, r);
		push(evs, RT_BROAD, 0, intern(c, K_COND, s), -1);
		return true;
	}
	case E_BARRIER: {
		int b;

		if (!get_str(c, n, path, false, &s, error))
			return false;
		b = intern(c, K_BARRIER, s);
		g_hash_table_insert(c->barrier_refs, GINT_TO_POINTER(b + 1),
				    GINT_TO_POINTER(GPOINTER_TO_INT(g_hash_table_lookup(
					    c->barrier_refs, GINT_TO_POINTER(b + 1))) + 1));
		push(evs, RT_BARRIER, 0, b, -1);
		return true;
	}
	case E_YIELD:
		if (!get_str(c, n, path, true, &s, error))
			return false;
		push(evs, RT_YIELD, 0, -1, -1);
		return true;
	case E_MEM:
	case E_IORUN:
		/*
		 * rt-app writes that many bytes (a memory buffer; io_device,
		 * /dev/null by default): busy time at the workload's stated
		 * rate (params mem_mb_s, io_mb_s), no other effect modelled
		 */
		if (!get_int(c, n, path, 0, MAX_BYTES, &us, error))
			return false;
		push(evs, kind == E_MEM ? RT_MEM : RT_IORUN, us, -1, -1);
		return true;
	case E_UNMODELLED:
		break;
	}
	return fail(c, error, n, path, "the \"%s\" event is not modelled (%s)", key,
		    g_str_has_prefix(key, "fork") ? "a new thread per use" :
		    "it loads a shared library and calls it: code idlesim does not run");
}

/* ---- threads and phases ------------------------------------------------ */

/* The keys parse_task() reads from a thread object itself. */
static bool thread_key(const char *key)
{
	return !strcmp(key, "instance") || !strcmp(key, "loop") || !strcmp(key, "delay") ||
	       !strcmp(key, "cpus");
}

/* Whether @n phases from @ph spend time or may block. */
static bool takes_time(const struct rt_phase *ph, int n)
{
	for (int k = 0; k < n; k++)
		for (int e = 0; e < ph[k].nev; e++) {
			const struct rt_event *ev = &ph[k].ev[e];

			if (((ev->op == RT_RUN || ev->op == RT_SLEEP || ev->op == RT_MEM ||
			      ev->op == RT_IORUN) && ev->ns > 0) ||
			    ev->op == RT_TIMER || ev->op == RT_WAIT || ev->op == RT_BARRIER)
				return true;
		}
	return false;
}

/*
 * Settings a thread or phase may carry besides events: true when @key is
 * one (handled: checked, noted, or refused with an error).
 */
/*
 * rt-app's policies (SCHED_OTHER, SCHED_FIFO, SCHED_RR, SCHED_DEADLINE;
 * rt-app also takes SCHED_IDLE and SCHED_BATCH): all run here as
 * SCHED_OTHER on FIFO run queues, said for each other one.  What differs
 * is who runs first where tasks share a CPU (no preemption).  One thing
 * is kept: the kernel gives a real-time or deadline task no timer slack
 * (6.12 kernel/sched/syscalls.c, __setscheduler_params()), so its sleeps
 * wake on time where the others' wake up to timer_slack_us late
 * (c->pol).
 */
static bool policy(struct pctx *c, JsonNode *v, const char *kp, const char *s, GError **error)
{
	static const char *const others[] = {
		"SCHED_FIFO", "SCHED_RR", "SCHED_DEADLINE", "SCHED_IDLE", "SCHED_BATCH", NULL
	};
	const bool rt = !strcmp(s, "SCHED_FIFO") || !strcmp(s, "SCHED_RR") ||
			!strcmp(s, "SCHED_DEADLINE");

	if (!strcmp(s, "SCHED_OTHER")) {
		c->pol = 0;
		return true;
	}
	if (!g_strv_contains(others, s))
		return fail(c, error, v, kp, "\"%s\": not a policy rt-app knows (SCHED_OTHER, "
			    "SCHED_FIFO, SCHED_RR, SCHED_DEADLINE, SCHED_IDLE, SCHED_BATCH)", s);
	c->pol = rt;
	note(c, v, kp, "\"%s\" taken as SCHED_OTHER: no real-time or deadline scheduling is "
	     "modelled (FIFO run queues, no preemption): the same wakeups where the task has "
	     "its CPU to itself%s", s, rt ? "; its sleeps and timers have no timer slack, as "
	     "the kernel gives such a task none" : "");
	return true;
}

static bool setting(struct pctx *c, const char *key, JsonNode *v, const char *kp, bool *ok,
		    GError **error)
{
	const char *s;
	int64_t i;

	*ok = true;
	if (!strcmp(key, "policy")) {
		*ok = get_str(c, v, kp, false, &s, error) && policy(c, v, kp, s, error);
		return true;
	}
	if (!strcmp(key, "priority")) {
		*ok = get_int(c, v, kp, INT32_MIN, INT32_MAX, &i, error);
		if (*ok && i)
			note(c, v, kp, "%" G_GINT64_FORMAT ": ignored: priorities (nice or "
			     "real-time) are not modelled, run queues are FIFO: the same wakeups "
			     "where the task has its CPU to itself", (gint64)i);
		return true;
	}
	if (g_str_has_prefix(key, "dl-")) {
		note(c, v, kp, "ignored: SCHED_DEADLINE's budget is not modelled (the task runs "
		     "as SCHED_OTHER)");
		return true;
	}
	if (!strcmp(key, "util_min") || !strcmp(key, "util_max") || !strcmp(key, "taskgroup") ||
	    !strcmp(key, "nodes_membind")) {
		note(c, v, kp, "ignored: no frequency, cgroup or NUMA model (does not change "
		     "when tasks wake here)");
		return true;
	}
	return false;
}

/* @inherit_rt: the policy the phase runs with if it names none */
static bool parse_phase(struct pctx *c, struct rt_task *t, JsonObject *o, JsonNode *on,
			const char *path, bool thread_level, bool inherit_rt,
			struct rt_phase *ph, GError **error)
{
	g_autoptr(GList) keys = json_object_get_members(o);
	GArray *evs = g_array_new(FALSE, FALSE, sizeof(struct rt_event));
	bool ok = true;

	ph->loop = 1;
	c->pol = -1;
	for (GList *k = keys; k && ok; k = k->next) {
		const char *key = k->data;
		JsonNode *v = json_object_get_member(o, key);
		g_autofree char *kp = sub(path, key);
		int kind;

		if (thread_level && thread_key(key))
			continue; /* the thread's own, read by parse_task() */
		if (!strcmp(key, "loop")) {
			ok = get_int(c, v, kp, -1, INT64_MAX, &ph->loop, error) &&
			     (ph->loop != 0 || fail(c, error, v, kp, "a loop of 0 runs nothing"));
			continue;
		}
		if (!strcmp(key, "cpus")) {
			ok = get_cpus(c, v, kp, &ph->cpus, &ph->ncpus, error);
			continue;
		}
		if (setting(c, key, v, kp, &ok, error))
			continue;
		kind = ev_kind_of(key);
		if (kind < 0) {
			ok = fail(c, error, v, kp, "unknown key (not an rt-app 1.0 event or setting)");
			break;
		}
		ok = parse_event(c, t, kind, key, v, kp, evs, error);
	}
	if (ok && evs->len == 0)
		ok = fail(c, error, on, path, "no events");
	ph->rt_policy = c->pol >= 0 ? c->pol : inherit_rt;
	ph->nev = (int)evs->len;
	ph->ev = keep(c->p, g_array_free(evs, FALSE));
	return ok;
}

static bool parse_task(struct pctx *c, const char *name, JsonNode *n, const char *path,
		       struct rt_task *t, GError **error)
{
	JsonObject *o;
	JsonNode *phases, *v;
	int64_t i;

	if (!JSON_NODE_HOLDS_OBJECT(n))
		return fail(c, error, n, path, "expected a thread object");
	o = json_node_get_object(n);
	t->name = g_string_chunk_insert(c->p->strings, name);
	t->instance = 1;
	t->loop = -1;
	g_hash_table_remove_all(c->barrier_refs);
	if ((v = json_object_get_member(o, "instance"))) {
		g_autofree char *kp = sub(path, "instance");

		/* rt-app takes 0: the thread object starts no thread */
		if (!get_int(c, v, kp, 0, MAX_INSTANCES, &i, error))
			return false;
		t->instance = (int)i;
		if (!i)
			note(c, v, kp, "0: no thread of it runs, as in rt-app");
	}
	if ((v = json_object_get_member(o, "delay"))) {
		g_autofree char *kp = sub(path, "delay");

		if (!get_int(c, v, kp, 0, MAX_US, &i, error))
			return false;
		t->delay_ns = i * 1000;
	}
	if ((v = json_object_get_member(o, "cpus"))) {
		g_autofree char *kp = sub(path, "cpus");

		if (!get_cpus(c, v, kp, &t->cpus, &t->ncpus, error))
			return false;
	}
	if ((v = json_object_get_member(o, "loop"))) {
		g_autofree char *kp = sub(path, "loop");

		if (!get_int(c, v, kp, -1, INT64_MAX, &t->loop, error))
			return false;
		if (t->loop == 0)
			return fail(c, error, v, kp, "a loop of 0 runs nothing");
	}
	phases = json_object_get_member(o, "phases");
	if (!phases) {
		/* the thread object is its one phase */
		t->nph = 1;
		t->ph = keep(c->p, g_new0(struct rt_phase, 1));
		if (!parse_phase(c, t, o, n, path, true, c->def_rt, &t->ph[0], error))
			return false;
	} else {
		g_autoptr(GList) keys = json_object_get_members(o);
		g_autofree char *pp = sub(path, "phases");
		g_autoptr(GList) pk = NULL;
		JsonObject *po;
		bool thread_rt;
		int k = 0;

		c->pol = -1;
		for (GList *x = keys; x; x = x->next) {
			const char *key = x->data;
			g_autofree char *kp = sub(path, key);
			bool ok;

			if (thread_key(key) || !strcmp(key, "phases"))
				continue;
			if (setting(c, key, json_object_get_member(o, key), kp, &ok, error)) {
				if (!ok)
					return false;
				continue;
			}
			return fail(c, error, json_object_get_member(o, key), kp,
				    ev_kind_of(key) >= 0 ? "an event beside \"phases\" (rt-app "
				    "would not run it): move it into a phase"
				    : "unknown key (not an rt-app 1.0 thread setting)");
		}
		thread_rt = c->pol >= 0 ? c->pol : c->def_rt;
		if (!JSON_NODE_HOLDS_OBJECT(phases))
			return fail(c, error, phases, pp, "expected an object of phases");
		po = json_node_get_object(phases);
		pk = json_object_get_members(po);
		if (!pk)
			return fail(c, error, phases, pp, "no phases");
		t->nph = (int)g_list_length(pk);
		t->ph = keep(c->p, g_new0(struct rt_phase, t->nph));
		for (GList *x = pk; x; x = x->next, k++) {
			JsonNode *ph = json_object_get_member(po, x->data);
			g_autofree char *php = sub(pp, x->data);

			if (!JSON_NODE_HOLDS_OBJECT(ph))
				return fail(c, error, ph, php, "expected a phase object");
			if (!parse_phase(c, t, json_node_get_object(ph), ph, php, false, thread_rt,
					 &t->ph[k], error))
				return false;
		}
	}
	/*
	 * A thread that loops forever must spend time or block somewhere in
	 * what it repeats, or the model (like rt-app) would spin in zero time.
	 */
	for (int k = 0; k < t->nph; k++) {
		const bool forever = t->ph[k].loop < 0;

		if ((forever && !takes_time(&t->ph[k], 1)) || (t->loop < 0 && !takes_time(t->ph, t->nph)))
			return fail(c, error, n, path, "%s forever without a run, runtime or sleep "
				    "longer than 0, a timer, a wait, a suspend or a barrier: it would "
				    "spin in zero time", forever ? "a phase loops" : "the thread loops");
		/* nor, at one instant, more than MAX_SPIN runs of such a phase */
		if (!takes_time(&t->ph[k], 1) && t->ph[k].loop > MAX_SPIN)
			return fail(c, error, n, path, "a phase repeats %" G_GINT64_FORMAT " times "
				    "without spending time (at most %d)", (gint64)t->ph[k].loop,
				    MAX_SPIN);
	}
	if (!takes_time(t->ph, t->nph) && t->loop > MAX_SPIN)
		return fail(c, error, n, path, "the thread repeats %" G_GINT64_FORMAT " times "
			    "without spending time (at most %d)", (gint64)t->loop, MAX_SPIN);
	return true;
}

/* ---- the file ---------------------------------------------------------- */

static bool parse_global(struct pctx *c, JsonNode *n, GError **error)
{
	static const char *const ignored[] = {
		"lock_pages", "logdir", "log_basename", "log_size", "ftrace", "gnuplot",
		"io_device", "mem_buffer_size", "cumulative_slack", NULL,
	};
	JsonObject *o;
	g_autoptr(GList) keys = NULL;

	if (!JSON_NODE_HOLDS_OBJECT(n))
		return fail(c, error, n, "global", "expected an object");
	o = json_node_get_object(n);
	keys = json_object_get_members(o);
	for (GList *k = keys; k; k = k->next) {
		const char *key = k->data;
		JsonNode *v = json_object_get_member(o, key);
		g_autofree char *kp = sub("global", key);
		bool known = false;

		if (!strcmp(key, "duration")) {
			int64_t d;

			if (!get_int(c, v, kp, -1, 3600 * 24 * 365, &d, error))
				return false;
			if (d == 0)
				return fail(c, error, v, kp, "0: expected -1 (none) or seconds");
			c->p->duration_ns = d < 0 ? -1 : d * 1000000000LL;
			continue;
		}
		if (!strcmp(key, "calibration")) {
			if (JSON_NODE_HOLDS_VALUE(v) && json_node_get_value_type(v) == G_TYPE_INT64) {
				if (json_node_get_int(v) < 1)
					return fail(c, error, v, kp, "expected ns per loop (> 0)");
				note(c, v, kp, "%" G_GINT64_FORMAT " ns per loop: a run event of N us is "
				     "N us of work here", (gint64)json_node_get_int(v));
			} else if (JSON_NODE_HOLDS_VALUE(v) &&
				   json_node_get_value_type(v) == G_TYPE_STRING &&
				   g_str_has_prefix(json_node_get_string(v), "CPU")) {
				note(c, v, kp, "\"%s\" calibrates on the machine; here a run event of "
				     "N us is taken as N us of work", json_node_get_string(v));
			} else {
				return fail(c, error, v, kp, "expected ns per loop or \"CPUn\"");
			}
			continue;
		}
		if (!strcmp(key, "default_policy")) {
			const char *s;

			if (!get_str(c, v, kp, false, &s, error) || !policy(c, v, kp, s, error))
				return false;
			c->def_rt = c->pol == 1;
			continue;
		}
		if (!strcmp(key, "pi_enabled")) {
			note(c, v, kp, "ignored: priority inheritance changes nothing without priorities");
			continue;
		}
		for (int i = 0; ignored[i]; i++)
			known |= !strcmp(key, ignored[i]);
		/*
		 * rt-app reads the global keys it knows and never looks at
		 * others (its examples carry "frag"): ignored too, but said as
		 * unknown, since a typo of a known one lands here
		 */
		if (!known) {
			note(c, v, kp, "ignored: not an rt-app 1.0 global setting, which rt-app "
			     "ignores too (a typo?)");
			continue;
		}
		note(c, v, kp, "ignored: does not change when tasks wake");
	}
	return true;
}

/*
 * rt-app's json-c takes C comments of both kinds; json-glib takes neither
 * reliably (a '/' inside a block comment ends it): blank them, outside
 * strings, keeping every newline so that lines and columns stay.  An
 * unterminated block comment is refused (its position in *bad, 1-based).
 */
static bool blank_comments(char *s, size_t n, size_t *bad)
{
	bool str = false;

	for (size_t i = 0; i < n; i++) {
		if (str) {
			if (s[i] == '\\' && i + 1 < n)
				i++;
			else if (s[i] == '"')
				str = false;
		} else if (s[i] == '"') {
			str = true;
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
			const size_t start = i;

			s[i++] = ' ';
			s[i++] = ' ';
			while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
				if (s[i] != '\n')
					s[i] = ' ';
				i++;
			}
			if (i >= n) {
				*bad = start;
				return false;
			}
			s[i++] = ' ';
			s[i] = ' ';
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				s[i++] = ' ';
		}
	}
	return true;
}

/*
 * rt-app's parser is json-c's in its default mode, which takes a comma
 * before '}' or ']'; rt-app's documentation runs files through workgen
 * (doc/workgen), which numbers a key repeated in one object: per object a
 * counter from 1, the repeat becomes KEY + counter, the counter raised
 * while that name is taken ("run", "run1", "run2"; then "sleep", whose
 * repeat is "sleep2").  Both done on @in (comments blanked) into @out,
 * lines kept; each renamed key and the first trailing comma are noted.
 * A string is copied as it stands; keys compare as written.
 */
struct lax_obj {
	GHashTable *keys;
	unsigned curid;
	bool want_key;
};

/* NULL-tolerant: an array's place on the stack is NULL */
static void lax_obj_free(gpointer x)
{
	struct lax_obj *o = x;

	if (o) {
		g_hash_table_destroy(o->keys);
		g_free(o);
	}
}

/* The line of @s[i], counted on from the last call's position (i only grows). */
static unsigned line_at(const char *s, size_t i, size_t *pos, unsigned *line)
{
	for (; *pos < i; (*pos)++)
		*line += s[*pos] == '\n';
	return *line;
}

static void lax_pass(const char *in, size_t n, GString *out, GPtrArray *notes, const char *name)
{
	/* struct lax_obj *, or NULL for an array */
	GPtrArray *stack = g_ptr_array_new_with_free_func(lax_obj_free);
	unsigned commas = 0, first_comma = 0, line = 1;
	size_t pos = 0;

	for (size_t i = 0; i < n; i++) {
		const char ch = in[i];
		struct lax_obj *top = stack->len ? stack->pdata[stack->len - 1] : NULL;

		if (ch == '"') {
			size_t j = i + 1;

			while (j < n && in[j] != '"')
				j += in[j] == '\\' ? 2 : 1;
			if (j >= n) { /* unterminated: the parser says where */
				g_string_append_len(out, in + i, (gssize)(n - i));
				break;
			}
			if (top && top->want_key) {
				g_autofree char *key = g_strndup(in + i + 1, j - i - 1);

				top->want_key = false;
				if (g_hash_table_contains(top->keys, key)) {
					char *nk = g_strdup_printf("%s%u", key, top->curid);

					while (g_hash_table_contains(top->keys, nk)) {
						g_free(nk);
						nk = g_strdup_printf("%s%u", key, ++top->curid);
					}
					g_ptr_array_add(notes, g_strdup_printf(
						"%s:%u: the key \"%s\" repeated in one object: read as "
						"\"%s\", as workgen numbers it (--rtapp-strict refuses it)",
						name, line_at(in, i, &pos, &line), key, nk));
					g_string_append_printf(out, "\"%s\"", nk);
					g_hash_table_add(top->keys, nk);
					i = j;
					continue;
				}
				g_hash_table_add(top->keys, g_steal_pointer(&key));
			}
			g_string_append_len(out, in + i, (gssize)(j - i + 1));
			i = j;
			continue;
		}
		if (ch == '{') {
			struct lax_obj *o = g_new0(struct lax_obj, 1);

			o->keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
			o->curid = 1;
			o->want_key = true;
			g_ptr_array_add(stack, o);
		} else if (ch == '[') {
			g_ptr_array_add(stack, NULL);
		} else if ((ch == '}' || ch == ']') && stack->len) {
			g_ptr_array_set_size(stack, stack->len - 1); /* frees top */
		} else if (ch == ',') {
			size_t j = i + 1;

			while (j < n && g_ascii_isspace(in[j]))
				j++;
			if (j < n && (in[j] == '}' || in[j] == ']')) {
				if (!commas++)
					first_comma = line_at(in, i, &pos, &line);
				g_string_append_c(out, ' ');
				continue;
			}
			if (top)
				top->want_key = true;
		}
		g_string_append_c(out, ch);
	}
	if (commas)
		g_ptr_array_add(notes, g_strdup_printf(
			"%s:%u: %u comma%s before '}' or ']' accepted, as rt-app's parser (json-c) "
			"does (--rtapp-strict refuses them)", name, first_comma, commas,
			commas == 1 ? "" : "s"));
	g_ptr_array_free(stack, TRUE);
}

static void pctx_clear(struct pctx *c)
{
	g_hash_table_destroy(c->lines);
	g_hash_table_destroy(c->objlines);
	g_hash_table_destroy(c->arrlines);
	g_hash_table_destroy(c->counts);
	g_array_unref(c->open);
	for (int i = 0; i < 4; i++)
		g_hash_table_destroy(c->names[i]);
	g_hash_table_destroy(c->suspends);
	g_ptr_array_unref(c->resumes);
	g_hash_table_destroy(c->barrier_refs);
	g_free(c->dup);
}

static bool parse_tasks(struct pctx *c, JsonNode *n, GError **error)
{
	JsonObject *o;
	g_autoptr(GList) keys = NULL;
	int k = 0;
	int64_t total = 0;
	GArray *users = g_array_new(FALSE, TRUE, sizeof(int));

	if (!JSON_NODE_HOLDS_OBJECT(n)) {
		g_array_unref(users);
		return fail(c, error, n, "tasks", "expected an object of threads");
	}
	o = json_node_get_object(n);
	keys = json_object_get_members(o);
	if (!keys) {
		g_array_unref(users);
		return fail(c, error, n, "tasks", "no threads");
	}
	c->p->ntasks = (int)g_list_length(keys);
	c->p->tasks = keep(c->p, g_new0(struct rt_task, c->p->ntasks));
	for (GList *x = keys; x; x = x->next, k++) {
		g_autofree char *tp = sub("tasks", x->data);
		struct rt_task *t = &c->p->tasks[k];
		GHashTableIter it;
		gpointer key, val;

		if (!parse_task(c, x->data, json_object_get_member(o, x->data), tp, t, error)) {
			g_array_unref(users);
			return false;
		}
		total += t->instance;
		if (total > MAX_INSTANCES) {
			g_array_unref(users);
			return fail(c, error, json_object_get_member(o, x->data), tp,
				    "more than %d thread instances in all", MAX_INSTANCES);
		}
		/* barrier users: references in this thread object times its instances */
		g_array_set_size(users, (guint)c->p->nbarriers);
		g_hash_table_iter_init(&it, c->barrier_refs);
		while (g_hash_table_iter_next(&it, &key, &val))
			g_array_index(users, int, GPOINTER_TO_INT(key) - 1) +=
				GPOINTER_TO_INT(val) * t->instance;
	}
	if (!total) {
		g_array_unref(users);
		return fail(c, error, n, "tasks", "every thread object has instance 0: no thread runs");
	}
	c->p->ninstances = (int)total;
	g_array_set_size(users, (guint)c->p->nbarriers);
	c->p->barrier_users = keep(c->p, g_array_free(users, FALSE));
	return true;
}

struct is_rtapp *is_rtapp_parse(const char *data, size_t len, const char *name, GError **error)
{
	return is_rtapp_parse_strict(data, len, name, false, error);
}

struct is_rtapp *is_rtapp_parse_strict(const char *data, size_t len, const char *name,
				       bool strict, GError **error)
{
	g_autoptr(JsonParser) parser = json_parser_new_immutable();
	g_autoptr(GError) jerr = NULL;
	struct pctx c = { 0 };
	struct is_rtapp *p;
	g_autofree char *buf = g_strndup(data, len);
	JsonNode *root;
	JsonObject *o;
	g_autoptr(GList) keys = NULL;
	bool ok = true;

	if (memchr(data, 0, len)) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "%s: a NUL byte: not a JSON text", name);
		return NULL;
	}
	p = g_new0(struct is_rtapp, 1);
	p->file = g_strdup(name);
	p->duration_ns = -1;
	p->max_cpu = -1;
	p->notes = g_ptr_array_new_with_free_func(g_free);
	p->strings = g_string_chunk_new(256);
	p->blocks = g_ptr_array_new_with_free_func(g_free);
	{
		g_autofree char *d = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
								 (const guchar *)data, len);

		g_strlcpy(p->digest, d, sizeof(p->digest));
	}
	c.file = name;
	c.p = p;
	c.lines = g_hash_table_new(NULL, NULL);
	c.objlines = g_hash_table_new(NULL, NULL);
	c.arrlines = g_hash_table_new(NULL, NULL);
	c.counts = g_hash_table_new(NULL, NULL);
	c.open = g_array_new(FALSE, FALSE, sizeof(unsigned));
	for (int i = 0; i < 4; i++)
		c.names[i] = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	c.suspends = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	c.resumes = g_ptr_array_new_with_free_func(resume_ref_free);
	c.barrier_refs = g_hash_table_new(NULL, NULL);

	{
		size_t bad = 0;

		if (!blank_comments(buf, len, &bad)) {
			unsigned line = 1, col = 1;

			for (size_t i = 0; i < bad; i++, col++)
				if (data[i] == '\n') {
					line++;
					col = 0;
				}
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s:%u:%u: a comment that is never closed", name, line, col);
			ok = false;
			goto out;
		}
	}
	if (!strict) {
		GString *lax = g_string_sized_new(len + 64);

		lax_pass(buf, len, lax, p->notes, name);
		g_free(buf);
		len = lax->len;
		buf = g_string_free(lax, FALSE);
	}
	g_signal_connect(parser, "object-start", G_CALLBACK(on_object_start), &c);
	g_signal_connect(parser, "object-end", G_CALLBACK(on_object_end), &c);
	g_signal_connect(parser, "array-start", G_CALLBACK(on_object_start), &c);
	g_signal_connect(parser, "array-end", G_CALLBACK(on_array_end), &c);
	g_signal_connect(parser, "object-member", G_CALLBACK(on_member), &c);
	g_signal_connect(parser, "array-element", G_CALLBACK(on_element), &c);
	if (!json_parser_load_from_data(parser, buf, (gssize)len, &jerr)) {
		/* json-glib says "<data>:LINE:COL: Parse error: ..." */
		const char *m = jerr->message;

		if (g_str_has_prefix(m, "<data>:"))
			m += strlen("<data>:");
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "%s:%s", name, m);
		ok = false;
		goto out;
	}
	if (c.dup) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s:%u: the key \"%s\" appears twice in one object (--rtapp-strict): "
			    "rt-app would keep only the last; number them (\"%s\", \"%s1\", ...) as "
			    "workgen does",
			    name, c.dup_line, c.dup, c.dup, c.dup);
		ok = false;
		goto out;
	}
	root = json_parser_get_root(parser);
	if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: expected an object with \"tasks\" (and \"global\")", name);
		ok = false;
		goto out;
	}
	o = json_node_get_object(root);
	keys = json_object_get_members(o);
	for (GList *k = keys; k && ok; k = k->next) {
		const char *key = k->data;
		JsonNode *v = json_object_get_member(o, key);

		if (!strcmp(key, "global"))
			ok = parse_global(&c, v, error);
		else if (!strcmp(key, "resources"))
			note(&c, v, "resources", "ignored: rt-app 1.0 creates resources as the "
			     "events name them");
		else if (strcmp(key, "tasks"))
			ok = fail(&c, error, v, key, "unknown key (expected \"global\", \"tasks\", "
				  "\"resources\")");
	}
	if (ok && !json_object_get_member(o, "tasks")) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "%s: no \"tasks\" object", name);
		ok = false;
	}
	if (ok)
		ok = parse_tasks(&c, json_object_get_member(o, "tasks"), error);
	for (guint i = 0; ok && i < c.resumes->len; i++) {
		const struct resume_ref *r = c.resumes->pdata[i];

		if (!g_hash_table_contains(c.suspends, r->name))
			g_ptr_array_add(p->notes, g_strdup_printf(
				"%s: no effect: no thread suspends on \"%s\"", r->where, r->name));
	}
out:
	pctx_clear(&c);
	if (!ok) {
		is_rtapp_free(p);
		return NULL;
	}
	g_ptr_array_add(p->notes, NULL);
	return p;
}

struct is_rtapp *is_rtapp_load_strict(const char *path, bool strict, GError **error)
{
	g_autofree char *data = NULL;
	gsize len;
	GError *e = NULL;

	if (!g_file_get_contents(path, &data, &len, &e)) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s", e->message);
		g_error_free(e);
		return NULL;
	}
	return is_rtapp_parse_strict(data, len, path, strict, error);
}

struct is_rtapp *is_rtapp_load(const char *path, GError **error)
{
	return is_rtapp_load_strict(path, false, error);
}

void is_rtapp_free(struct is_rtapp *p)
{
	if (!p)
		return;
	g_free(p->file);
	g_free(p->max_cpu_where);
	g_ptr_array_unref(p->notes);
	g_string_chunk_free(p->strings);
	g_ptr_array_unref(p->blocks);
	g_free(p);
}

const char *is_rtapp_file(const struct is_rtapp *p)
{
	return p->file;
}

const char *is_rtapp_digest(const struct is_rtapp *p)
{
	return p->digest;
}

const char *const *is_rtapp_notes(const struct is_rtapp *p)
{
	return (const char *const *)p->notes->pdata;
}

int64_t is_rtapp_duration_ns(const struct is_rtapp *p)
{
	return p->duration_ns;
}

bool is_rtapp_ends(const struct is_rtapp *p)
{
	if (p->duration_ns > 0)
		return true;
	for (int i = 0; i < p->ntasks; i++) {
		if (p->tasks[i].loop < 0)
			return false;
		for (int k = 0; k < p->tasks[i].nph; k++)
			if (p->tasks[i].ph[k].loop < 0)
				return false;
	}
	return true;
}

int is_rtapp_max_cpu(const struct is_rtapp *p)
{
	return p->max_cpu;
}

int is_rtapp_instances(const struct is_rtapp *p)
{
	return p->ninstances;
}
