// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stock captures as text: the tracefs "trace" file (with or without the
 * irq-info columns) and "trace-cmd report" output.  Lines are parsed one
 * at a time and streamed into capture.c, so memory does not grow with the
 * input.  Header lines ("#" in tracefs, "cpus=" and "version =" in
 * trace-cmd), "CPU N buffer started" and lost-events markers are
 * recognised; every other line must be an event line, else it is an error
 * naming the line.  Events the importer does not use are counted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "ftrace_line.h"

#define IS_EV(name) (l->event_len == sizeof(name) - 1 && \
		     memcmp(l->event, name, sizeof(name) - 1) == 0)

/* An hrtimer's identity from "hrtimer=": a hashed or raw pointer, else 0. */
static uint64_t timer_id(const char *payload)
{
	const char *v;
	size_t n;
	uint64_t x = 0;

	if (!ftrace_field(payload, "hrtimer", &v, &n))
		return 0;
	if (n > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		v += 2;
		n -= 2;
	}
	if (n == 0 || n > 16)
		return 0;
	for (size_t i = 0; i < n; i++) {
		int d = g_ascii_xdigit_value(v[i]);

		if (d < 0)
			return 0; /* "(____ptrval____)": not printable yet */
		x = x << 4 | (uint64_t)d;
	}
	return x ? x : 1;
}

static bool need(struct cap_ctx *c, GError **error, uint64_t line, const char *payload,
		 const char *key, int64_t *v)
{
	if (ftrace_field_i64(payload, key, v))
		return true;
	return cap_error(c, error, line, key, "missing or not an integer");
}

/* Pushes one IPI per CPU of a cpumask list ("0-3,6"). */
static bool push_cpulist(struct cap_ctx *c, struct cap_event *e, const char *v, size_t n,
			 GError **error)
{
	const char *p = v, *end = v + n;

	while (p < end) {
		char *q;
		long a = strtol(p, &q, 10), b = a;

		if (q == p || a < 0 || a >= IS_TRACE_MAX_CPUS)
			return cap_error(c, error, e->where, "cpumask", "not a CPU list");
		if (q < end && *q == '-') {
			p = q + 1;
			b = strtol(p, &q, 10);
			if (q == p || b < a || b >= IS_TRACE_MAX_CPUS)
				return cap_error(c, error, e->where, "cpumask", "not a CPU list");
		}
		for (long k = a; k <= b; k++) {
			e->a = k;
			if (!cap_push(c, e, error))
				return false;
		}
		p = q;
		if (p < end && *p == ',')
			p++;
		else if (p < end)
			return cap_error(c, error, e->where, "cpumask", "not a CPU list");
	}
	return true;
}

/* ipi_raise's "target_mask=0000000a" (hex words, comma-separated, high first). */
static bool push_hexmask(struct cap_ctx *c, struct cap_event *e, const char *v, size_t n,
			 GError **error)
{
	int bit = 0;

	for (size_t i = n; i-- > 0;) {
		int d;

		if (v[i] == ',')
			continue;
		d = g_ascii_xdigit_value(v[i]);
		if (d < 0)
			return cap_error(c, error, e->where, "target_mask", "not a hex mask");
		for (int k = 0; k < 4; k++, bit++)
			if ((d >> k) & 1) {
				if (bit >= IS_TRACE_MAX_CPUS)
					return cap_error(c, error, e->where, "target_mask",
							 "CPU beyond %d", IS_TRACE_MAX_CPUS - 1);
				e->a = bit;
				if (!cap_push(c, e, error))
					return false;
			}
	}
	return true;
}

/* The pid of "comm:pid [prio]" ending at @end (the " [" after it). */
static bool plugin_pid(const char *start, const char *end, int64_t *pid)
{
	const char *colon = NULL;
	char *stop;
	long v;

	for (const char *p = start; p < end; p++)
		if (*p == ':')
			colon = p;
	if (!colon)
		return false;
	v = strtol(colon + 1, &stop, 10);
	if (stop != end || v < 0)
		return false;
	*pid = v;
	return true;
}

/*
 * A timer function's name as tracefs prints it (%ps: "tick_nohz_handler"):
 * trace-cmd report adds libtraceevent's "/0x0" (or "+0x10/0x40" inside a
 * function), which kept the tick from being known by its name.
 */
static size_t fn_name_len(const char *v, size_t n)
{
	if (n > 2 && v[0] == '0' && v[1] == 'x')
		return n;
	for (size_t i = 1; i < n; i++)
		if (v[i] == '/' || v[i] == '+')
			return i;
	return n;
}

/* A run of 8 to 16 hex digits at *q, passed over; 0 if shorter. */
static uint64_t hex_run(const char **q)
{
	uint64_t v = 0;
	int n = 0;

	for (; g_ascii_isxdigit(**q) && n < 16; (*q)++, n++)
		v = v << 4 | (uint64_t)g_ascii_xdigit_value(**q);
	return n >= 8 ? v : 0;
}

/*
 * A return probe's return address where trace-cmd report prints both as
 * bare numbers, "(FUNC <- RET)" (the event's print format "(%lx <- %lx)"
 * with __probe_func, __probe_ret_ip): "(ffffffff8109cb72 <-
 * ffffffff8106498b)".  0 where they are symbols (tracefs prints "(RET
 * <- FUNC)" then: "(do_idle+0x14d/0x183 <- tick_nohz_idle_got_tick)").
 */
static uint64_t probe_ret_ip(const char *pl)
{
	const char *q = pl + 1;
	uint64_t v;

	if (*pl != '(' || !hex_run(&q) || strncmp(q, " <- ", 4) != 0)
		return 0;
	q += 4;
	v = hex_run(&q);
	return *q == ')' ? v : 0;
}

/*
 * A return probe's caller by name, "(teo_select+0x37/0x5fc <- ...)",
 * interned; 0 where the capture gives it as a number.
 */
static uint32_t probe_caller(struct cap_ctx *c, const char *pl)
{
	size_t n;

	if (*pl != '(')
		return 0;
	n = strcspn(pl + 1, "+ ");
	if (!n || pl[1 + n] != '+' || probe_ret_ip(pl))
		return 0;
	return cap_intern(c, pl + 1, n);
}

/* trace-cmd's sched plugin: "prev:pid [prio] S ==> next:pid [prio]". */
static bool plugin_switch(const char *pl, int64_t *prev, int64_t *next)
{
	const char *arrow = strstr(pl, " ==> "), *b1 = strstr(pl, " ["), *b2;

	if (!arrow || !b1 || b1 > arrow)
		return false;
	b2 = strstr(arrow + 5, " [");
	return b2 && plugin_pid(pl, b1, prev) && plugin_pid(arrow + 5, b2, next);
}

static bool event(struct cap_ctx *c, const struct ftrace_line *l, uint64_t line,
		  GError **error)
{
	struct cap_event e = { .ts_ns = l->ts_ns, .where = line, .cpu = l->cpu,
			       .type = CAP_OTHER, .need_resched = (int8_t)l->need_resched };
	const char *pl = l->payload, *v;
	size_t n;
	int64_t x;

	if (IS_EV("cpu_idle")) {
		int64_t id;

		if (!need(c, error, line, pl, "state", &x) || !need(c, error, line, pl, "cpu_id", &id))
			return false;
		if (id != l->cpu)
			return cap_error(c, error, line, "cpu_id",
					 "%" G_GINT64_FORMAT " is not the line's CPU %d", id, l->cpu);
		if (x == 4294967295LL || x == -1)
			x = -1;
		else if (x < 0 || x > IS_STATE_MAX * 100)
			return cap_error(c, error, line, "state", "not a state index");
		e.type = CAP_IDLE;
		e.a = x;
	} else if (IS_EV("cpu_idle_miss")) {
		if (!need(c, error, line, pl, "state", &x))
			return false;
		if (!ftrace_field(pl, "type", &v, &n) ||
		    !((n == 5 && !memcmp(v, "above", 5)) || (n == 5 && !memcmp(v, "below", 5))))
			return cap_error(c, error, line, "type", "must be above or below");
		e.type = CAP_MISS;
		e.a = x;
		e.b = v[0] == 'b';
	} else if (IS_EV("hrtimer_start")) {
		if (!need(c, error, line, pl, "expires", &x))
			return false;
		if (!ftrace_field(pl, "function", &v, &n) || !n)
			return cap_error(c, error, line, "function", "missing");
		e.type = CAP_HR_START;
		e.a = x;
		/* before 6.x a restart emitted hrtimer_cancel first: was_armed 0 */
		e.b = ftrace_field_i64(pl, "was_armed", &x) && x != 0;
		e.timer = timer_id(pl);
		e.func = cap_intern(c, v, fn_name_len(v, n));
	} else if (IS_EV("hrtimer_cancel")) {
		e.type = CAP_HR_CANCEL;
		e.timer = timer_id(pl);
	} else if (IS_EV("hrtimer_expire_entry")) {
		if (!need(c, error, line, pl, "now", &x))
			return false;
		if (!ftrace_field(pl, "function", &v, &n) || !n)
			return cap_error(c, error, line, "function", "missing");
		e.type = CAP_HR_EXPIRE;
		e.a = x;
		e.timer = timer_id(pl);
		e.func = cap_intern(c, v, fn_name_len(v, n));
	} else if (IS_EV("tick_stop")) {
		if (!need(c, error, line, pl, "success", &x))
			return false;
		e.type = CAP_TICK_STOP;
		e.a = x != 0;
	} else if (IS_EV("irq_handler_entry")) {
		e.type = ftrace_field(pl, "name", &v, &n) ? cap_irq_type(v, n) : CAP_IRQ;
	} else if (IS_EV("ipi_entry") || IS_EV("reschedule_entry") ||
		   IS_EV("call_function_entry") || IS_EV("call_function_single_entry")) {
		e.type = CAP_IPI_RECV;
	} else if (IS_EV("local_timer_entry")) {
		e.type = CAP_TIMER_IRQ;
	} else if (IS_EV("irq_handler_exit") || IS_EV("hrtimer_expire_exit") || IS_EV("ipi_exit") ||
		   IS_EV("local_timer_exit") || IS_EV("reschedule_exit") ||
		   IS_EV("call_function_exit") || IS_EV("call_function_single_exit")) {
		e.type = CAP_IRQ_EXIT;
	} else if (IS_EV("ipi_send_cpu")) {
		if (!need(c, error, line, pl, "cpu", &x))
			return false;
		e.type = CAP_IPI_SEND;
		e.a = x;
	} else if (IS_EV("ipi_send_cpumask")) {
		if (!ftrace_field(pl, "cpumask", &v, &n))
			return cap_error(c, error, line, "cpumask", "missing");
		e.type = CAP_IPI_SEND;
		return push_cpulist(c, &e, v, n, error);
	} else if (IS_EV("ipi_raise")) {
		if (!ftrace_field(pl, "target_mask", &v, &n))
			return cap_error(c, error, line, "target_mask", "missing");
		e.type = CAP_IPI_SEND;
		return push_hexmask(c, &e, v, n, error);
	} else if (IS_EV("sched_wakeup")) {
		const char *q;

		/* trace-cmd's sched plugin prints "comm:pid [prio] CPU:003" */
		if (!ftrace_field_i64(pl, "target_cpu", &x) &&
		    !((q = strstr(pl, " CPU:")) && (x = strtol(q + 5, NULL, 10)) >= 0))
			return cap_error(c, error, line, "target_cpu", "missing or not an integer");
		e.type = CAP_WAKEUP;
		e.a = x;
	} else if (IS_EV("cpuhp_enter") || IS_EV("cpuhp_multi_enter") || IS_EV("cpuhp_exit")) {
		const char *q = strstr(pl, "cpu:");

		if (!q || (x = strtol(q + 4, NULL, 10)) < 0 || x >= IS_TRACE_MAX_CPUS)
			return cap_error(c, error, line, "cpu", "missing or out of range");
		e.type = CAP_HOTPLUG;
		e.a = x;
	} else if (IS_EV("idlesim_sleep_length")) {
		if (!need(c, error, line, pl, "sleep_ns", &x))
			return false;
		e.type = CAP_PR_SLEEP;
		e.a = x;
		if (!ftrace_field_i64(pl, "delta_next_ns", &e.b))
			e.b = INT64_MIN;
	} else if (IS_EV("idlesim_latency_req")) {
		if (!need(c, error, line, pl, "latency_req_ns", &x))
			return false;
		e.type = CAP_PR_LATREQ;
		e.a = x;
		e.func = probe_caller(c, pl);
	} else if (IS_EV("tracing_mark_write") || IS_EV("print")) {
		/* trace-cmd report: "print: tracing_mark_write: TEXT" */
		const char *m = strstr(pl, MARK_GOVERNOR);

		if (m) {
			m += sizeof(MARK_GOVERNOR) - 1;
			e.type = CAP_MARK;
			e.func = cap_intern(c, m, strcspn(m, " \t\r\n"));
		}
	} else if (IS_EV("idlesim_draw")) {
		if (!need(c, error, line, pl, "draw", &x))
			return false;
		if (x < 0 || x > UINT32_MAX)
			return cap_error(c, error, line, "draw", "not a u32");
		e.type = CAP_PR_DRAW;
		e.a = x;
	} else if (IS_EV("idlesim_nr_iowait")) {
		if (!need(c, error, line, pl, "nr_iowait", &x))
			return false;
		if (x < 0 || x > UINT32_MAX)
			return cap_error(c, error, line, "nr_iowait", "not a u32");
		e.type = CAP_PR_IOWAIT;
		e.a = x;
	} else if (l->event_len >= 16 && !memcmp(l->event, "idlesim_teo_span", 16)) {
		/*
		 * idlesim_teo_span, idlesim_teo_span32...: a pair of fields
		 * per CPU, s<CPU> and l<CPU>; an event without this CPU's pair
		 * is another event's share of the CPUs.
		 */
		char sk[16], lk[16];

		snprintf(sk, sizeof(sk), "s%d", l->cpu);
		snprintf(lk, sizeof(lk), "l%d", l->cpu);
		if (ftrace_field(pl, sk, &v, &n)) {
			if (!need(c, error, line, pl, sk, &x) || !need(c, error, line, pl, lk, &e.b))
				return false;
			e.type = CAP_PR_TEOSPAN;
			e.a = x;
		}
	} else if (IS_EV("idlesim_select")) {
		if (!need(c, error, line, pl, "state", &x))
			return false;
		e.type = CAP_PR_SELECT;
		e.a = x;
		e.ret_ip = probe_ret_ip(pl);
		if (!ftrace_field_i64(pl, "stop_tick", &e.b))
			e.b = -1;
		else
			e.b = e.b != 0;
	} else if (IS_EV("idlesim_got_tick")) {
		if (!need(c, error, line, pl, "got_tick", &x))
			return false;
		e.type = CAP_PR_GOTTICK;
		e.a = x != 0;
		/*
		 * "(do_idle+0x14d/0x183 <- tick_nohz_idle_got_tick)": the idle
		 * loop's own call.  trace-cmd report prints numbers instead:
		 * the caller is then told from the select probe's (-1 here).
		 */
		e.ret_ip = probe_ret_ip(pl);
		e.b = e.ret_ip ? -1 : !strncmp(pl, "(do_idle+", 9);
	} else if (IS_EV("idlesim_reflect")) {
		int64_t lim;

		if (!need(c, error, line, pl, "residency_ns", &x) ||
		    !need(c, error, line, pl, "index", &e.b))
			return false;
		e.type = CAP_PR_REFLECT;
		e.a = x;
		e.pl = !ftrace_field_i64(pl, "poll_limit", &lim) ? -1 : lim != 0;
	} else if (IS_EV("idlesim_stop_tick") || IS_EV("idlesim_retain_tick")) {
		e.type = CAP_PR_STOP;
		e.a = IS_EV("idlesim_stop_tick");
	} else if (IS_EV("sched_switch")) {
		int64_t y;

		if (!(ftrace_field_i64(pl, "prev_pid", &x) && ftrace_field_i64(pl, "next_pid", &y)) &&
		    !plugin_switch(pl, &x, &y))
			return cap_error(c, error, line,
					 ftrace_field_i64(pl, "prev_pid", &x) ? "next_pid" : "prev_pid",
					 "missing or not an integer");
		e.type = CAP_SWITCH;
		e.a = x;
		e.b = y;
	}
	return cap_push(c, &e, error);
}

/* "CPU:3 [LOST 120 EVENTS]" (tracefs) or "CPU:3 [120 EVENTS DROPPED]". */
static int lost_marker(const char *s)
{
	char *end;
	long cpu;

	if (strncmp(s, "CPU:", 4) != 0 ||
	    !(strstr(s, "[LOST ") || strstr(s, " EVENTS DROPPED]")))
		return -1;
	cpu = strtol(s + 4, &end, 10);
	if (end == s + 4 || cpu < 0 || cpu >= IS_TRACE_MAX_CPUS)
		return -1;
	return (int)cpu;
}

/*
 * Reads the text stream @f into @c.  A lost-events marker is pushed with
 * the time of the CPU's next event (tracefs prints it just before that).
 */
bool is_capture_read_text(struct cap_ctx *c, FILE *f, const char *path,
			  enum is_capture_format *fmt, GError **error)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	uint64_t lineno = 0;
	bool first = true, ok = false;
	GHashTable *lost = g_hash_table_new(g_direct_hash, g_direct_equal);

	while ((n = getline(&line, &cap, f)) >= 0) {
		struct ftrace_line l;
		const char *why;
		uint64_t pushed;
		bool cut;
		int cpu;

		/* a line cut by a read error (getline() hands out its start) */
		if (line[n - 1] != '\n' && ferror(f))
			break;
		/* the last line, without its newline: the capture may have stopped mid-write */
		cut = line[n - 1] != '\n';
		lineno++;
		cap_count_line(c, (uint64_t)n);
		if (lineno == 1 && n >= 10 && memcmp(line, "\x17\x08\x44tracing", 10) == 0) {
			cap_error(c, error, 0, "format", "a compressed trace.dat (or one on stdin): "
				  "decompress it into a file first; libtracecmd reads files");
			goto out;
		}
		if (memchr(line, 0, (size_t)n)) {
			cap_error(c, error, lineno, "line", "NUL byte: not a text capture");
			goto out;
		}
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		if (!n)
			continue;
		if (first) {
			first = false;
			if (*fmt == IS_CAP_AUTO)
				*fmt = strncmp(line, "cpus=", 5) == 0 ||
				       strncmp(line, "version = ", 10) == 0 ?
				       IS_CAP_TRACECMD : IS_CAP_FTRACE;
		}
		if (line[0] == '#') {
			const char *p = strstr(line, "#P:");
			int k;

			if (p)
				cap_hint_cpus(c, atoi(p + 3));
			if (sscanf(line, "##### CPU %d buffer started ####", &k) == 1)
				cap_count_buffer_start(c);
			continue;
		}
		if (strncmp(line, "cpus=", 5) == 0) {
			cap_hint_cpus(c, atoi(line + 5));
			continue;
		}
		if (strncmp(line, "version = ", 10) == 0 || strncmp(line, "CPU ", 4) == 0)
			continue; /* trace-cmd: "version = 7", "CPU 1 is empty" */
		if ((cpu = lost_marker(line)) >= 0) {
			g_hash_table_insert(lost, GINT_TO_POINTER(cpu + 1),
					    GSIZE_TO_POINTER((gsize)lineno));
			continue;
		}
		why = ftrace_line_parse(line, &l);
		if (why && cut) {
			cap_note_cut_line(c, lineno);
			break;
		}
		if (why) {
			cap_error(c, error, lineno, why, "not an ftrace event line: '%.60s'", line);
			goto out;
		}
		if (g_hash_table_size(lost)) {
			gpointer w = g_hash_table_lookup(lost, GINT_TO_POINTER(l.cpu + 1));

			if (w) {
				struct cap_event e = { .ts_ns = l.ts_ns,
						       .where = (uint64_t)GPOINTER_TO_SIZE(w),
						       .cpu = l.cpu, .type = CAP_LOST,
						       .need_resched = -1 };

				g_hash_table_remove(lost, GINT_TO_POINTER(l.cpu + 1));
				if (!cap_push(c, &e, error))
					goto out;
			}
		}
		pushed = cap_event_count(c);
		if (!event(c, &l, lineno, error)) {
			/* a cut-off last event line that did not parse: dropped with a warning */
			if (!cut || cap_event_count(c) != pushed)
				goto out;
			g_clear_error(error);
			cap_note_cut_line(c, lineno);
			break;
		}
	}
	if (ferror(f)) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO,
			    "%s: read error after line %" G_GUINT64_FORMAT ": %s", path, lineno,
			    is_input_strerror(errno));
		goto out;
	}
	{
		/* markers with no later event on their CPU: at the capture's end */
		GHashTableIter it;
		gpointer k, w;

		g_hash_table_iter_init(&it, lost);
		while (g_hash_table_iter_next(&it, &k, &w)) {
			struct cap_event e = { .ts_ns = cap_last_ts(c),
					       .where = (uint64_t)GPOINTER_TO_SIZE(w),
					       .cpu = GPOINTER_TO_INT(k) - 1, .type = CAP_LOST };

			if (!cap_push(c, &e, error))
				goto out;
		}
	}
	ok = true;
out:
	free(line);
	g_hash_table_destroy(lost);
	return ok;
}
