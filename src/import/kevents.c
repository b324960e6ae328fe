// SPDX-License-Identifier: GPL-2.0-only
/*
 * Import of the idlesim kernel series' cpuidle trace events (ftrace text).
 *
 * Per CPU the events of one idle-loop pass come in this order:
 *   [cpuidle_gov_clock]      governor's clock at select (TEO)
 *   [cpuidle_sleep_length]   only if the governor asked for it
 *   [cpuidle_gov_draw]       the random draw of wteo's weighted choice
 *   [cpuidle_gov_iowait]     nr_iowait_cpu() as menu of 6.1 read it (io=)
 *   cpuidle_select           state, stop_tick, tick_stopped, latency_req
 *   (power:cpu_idle enter/exit, ignored)
 *   [cpuidle_got_tick]       only if the governor asked for it
 *   [cpuidle_gov_clock]      governor's clock at reflect (TEO)
 *   cpuidle_reflect          entered state (< 0: not entered),
 *                            last_residency_ns, poll_time_limit
 *   cpuidle_got_tick         do_idle() (6.12.118) after every pass: ignored
 * The record's t_ns is the governor's select clock when it reported one
 * (so that time_span_ns replays exactly), else the ftrace timestamp.
 * idle_ns is last_residency_ns (the capture has no separate wakeup time)
 * and the cause is "unknown".  Records are sorted by t_ns (stable), as the
 * native format requires; each CPU's order is kept.
 *
 * The raw inputs are carried verbatim, with the kernel's own types: every
 * field is read as an s64 (a value beyond it is refused, never saturated),
 * lres= is last_residency_ns as printed and span= is the reflect clock
 * minus the select clock, both negative when the guest's clock ran
 * backwards within the pass (seen in QEMU under load; the governors then
 * apply the kernel's u64/s64 arithmetic to them).  Such a pass's idle_ns,
 * the model's input, is 0, marked est=idle: the model takes it as a
 * wakeup at once.  If a CPU's select clock runs back below its previous
 * record's t_ns, the record's t_ns is raised to that value, so that the
 * sort keeps the CPU's order; its span is kept, and the governors use the
 * clock only through the span, so its decisions are unchanged.  Both are
 * counted in the import's summary.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "idlesim/import.h"
#include "idlesim/states.h"
#include "ftrace_line.h"

/* A series event's integer field: any s64 value, verbatim. */
#define FIELD(key, dst) ftrace_field_s64(payload, key, dst)
#define NEED(key, dst)								\
	do {									\
		if (!FIELD(key, dst)) {						\
			ierr(error, in, st.lines, key,				\
			     "missing, not an integer or beyond s64");		\
			goto out;						\
		}								\
	} while (0)
/* A u32 field (the draw, the I/O-waiter count): in the kernel's range. */
#define NEED_U32(key, dst)							\
	do {									\
		if (!FIELD(key, &v) || v < 0 || v > UINT32_MAX) {		\
			ierr(error, in, st.lines, key,				\
			     "missing or not a 32-bit value");			\
			goto out;						\
		}								\
		*(dst) = (uint32_t)v;						\
	} while (0)

struct kcpu {
	bool after_select;
	bool has_sel_clock, has_refl_clock, slr, has_gt, gt, has_draw, has_iow;
	uint32_t draw, iow;
	int64_t sel_clock, refl_clock, sleep, delta;
	int64_t ts_select;        /* ftrace time of the select event */
	int state;
	bool stop, tick_stopped;
	int64_t lat;
	bool has_last;
	int64_t last_t;           /* t_ns of the CPU's previous record */
};

struct item {
	struct is_record rec;
	uint64_t seq;
};

/*
 * nw=1 where the events show that the wakeup ran no task: a pass that
 * stopped the tick (or found it stopped) followed, on its CPU, by a select
 * that finds it still stopped.  tick_nohz_idle_exit() restarts a stopped
 * tick whenever the idle loop is left, so the tick stays stopped from one
 * pass to the next only if no task ran in between.  Where the kernel kept
 * the tick, the events cannot say (nw unset).  @items: in time order.
 */
static void mark_nowork(GArray *items, int maxcpu)
{
	g_autofree gint *last = g_new(gint, maxcpu + 1);

	for (int i = 0; i <= maxcpu; i++)
		last[i] = -1;
	for (guint i = 0; i < items->len; i++) {
		struct is_record *r = &g_array_index(items, struct item, i).rec;
		gint j = last[r->cpu];

		if (j >= 0 && (r->flags & IS_F_TS)) {
			struct is_record *p = &g_array_index(items, struct item, j).rec;

			if (p->flags & (IS_F_KSTOP | IS_F_TS))
				p->flags |= IS_F_NOWORK;
		}
		last[r->cpu] = (gint)i;
	}
}

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->rec.t_ns != y->rec.t_ns)
		return x->rec.t_ns < y->rec.t_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static bool ierr(GError **error, const char *path, uint64_t line, const char *field_name,
		 const char *msg)
{
	g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
		    "%s:%" G_GUINT64_FORMAT ": field '%s': %s", path, line, field_name, msg);
	return false;
}

bool is_import_cpuidle_events(const char *in, const char *out, enum is_trace_format fmt,
			      const struct is_trace_header *hdr,
			      struct is_import_stats *stats, GError **error)
{
	FILE *f = is_open_input(in, error);
	GArray *items = g_array_new(FALSE, FALSE, sizeof(struct item));
	struct kcpu *cpu = g_new0(struct kcpu, IS_TRACE_MAX_CPUS);
	struct is_import_stats st = { 0 };
	struct is_trace_header h;
	struct is_trace_writer *w = NULL;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	bool ok = false;
	int maxcpu = -1;

	is_trace_header_copy(&h, hdr);
	if (!f)
		goto out;
	while ((n = getline(&line, &cap, f)) >= 0) {
		struct ftrace_line l;
		const char *name, *payload, *why;
		struct kcpu *c;
		int64_t cpu_id, v, ts, last_t;
		size_t nl;

		/* a line cut by a read error (getline() hands out its start) */
		if (line[n - 1] != '\n' && ferror(f))
			break;
		st.lines++;
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		if (!n || line[0] == '#')
			continue;
		if (strstr(line, "[LOST ") && strstr(line, " EVENTS]")) {
			ierr(error, in, st.lines, "events",
			     "the ring buffer lost events: the capture is incomplete");
			goto out;
		}
		why = ftrace_line_parse(line, &l);
		if (why) {
			/* a series event that does not parse is an error, other lines are not ours */
			if (strstr(line, ": cpuidle_")) {
				ierr(error, in, st.lines, why, "not an ftrace event line");
				goto out;
			}
			continue;
		}
		name = l.event;
		nl = l.event_len;
		payload = l.payload;
		ts = l.ts_ns;
#define IS(ev) (nl == sizeof(ev) - 1 && memcmp(name, ev, nl) == 0)
		if (!(IS("cpuidle_select") || IS("cpuidle_reflect") || IS("cpuidle_sleep_length") ||
		      IS("cpuidle_got_tick") || IS("cpuidle_gov_clock") ||
		      IS("cpuidle_gov_draw") || IS("cpuidle_gov_iowait"))) {
			st.other_events++;
			continue;
		}
		st.events++;
		if (!FIELD("cpu_id", &cpu_id) || cpu_id < 0 || cpu_id >= IS_TRACE_MAX_CPUS) {
			ierr(error, in, st.lines, "cpu_id", "missing or out of range");
			goto out;
		}
		if (cpu_id > maxcpu)
			maxcpu = (int)cpu_id;
		c = &cpu[cpu_id];
		if (IS("cpuidle_gov_clock")) {
			NEED("clock_ns", &v);
			if (c->after_select) {
				c->refl_clock = v;
				c->has_refl_clock = true;
			} else {
				c->sel_clock = v;
				c->has_sel_clock = true;
			}
		} else if (IS("cpuidle_gov_draw")) {
			NEED_U32("draw", &c->draw);
			c->has_draw = true;
		} else if (IS("cpuidle_gov_iowait")) {
			NEED_U32("nr_iowait", &c->iow);
			c->has_iow = true;
		} else if (IS("cpuidle_sleep_length")) {
			int64_t d;

			NEED("sleep_length_ns", &v);
			NEED("delta_next_ns", &d);
			c->sleep = v;
			c->delta = d;
			c->slr = true;
		} else if (IS("cpuidle_got_tick")) {
			NEED("got_tick", &v);
			/*
			 * Only calls between select and reflect are the
			 * governor's; do_idle() calls it after every pass.
			 */
			if (c->after_select) {
				c->gt = v != 0;
				c->has_gt = true;
			}
		} else if (IS("cpuidle_select")) {
			int64_t stop, tstop, lat;

			NEED("state", &v);
			NEED("stop_tick", &stop);
			NEED("tick_stopped", &tstop);
			NEED("latency_req", &lat);
			if (v < 0 || v >= hdr->state_count) {
				ierr(error, in, st.lines, "state", "state index outside the state table");
				goto out;
			}
			if (c->after_select)
				st.partial++; /* a select whose reflect is missing */
			c->after_select = true;
			c->state = (int)v;
			c->stop = stop;
			c->tick_stopped = tstop;
			if (lat < 0) {
				/*
				 * cpuidle_governor_latency_req() is a PM QoS
				 * limit (>= 0) times 1000: never negative.
				 */
				ierr(error, in, st.lines, "latency_req", "negative");
				goto out;
			}
			c->lat = lat;
			c->ts_select = ts;
			c->has_refl_clock = false;
			c->has_gt = false;
		} else if (IS("cpuidle_reflect")) {
			int64_t lres, pl;
			struct item it = { 0 };
			struct is_record *r = &it.rec;

			NEED("state", &v);
			NEED("last_residency_ns", &lres);
			NEED("poll_time_limit", &pl);
			if (!c->after_select) {
				/* the capture started inside this idle period */
				st.partial++;
				c->has_sel_clock = c->has_refl_clock = c->slr = false;
				c->has_gt = c->gt = c->has_draw = c->has_iow = false;
				continue;
			}
			if (v >= 0 && v != c->state) {
				ierr(error, in, st.lines, "state",
				     "entered state differs from the selected one");
				goto out;
			}
			r->kind = IS_REC_IDLE;
			r->cpu = (uint16_t)cpu_id;
			r->t_ns = c->has_sel_clock ? c->sel_clock : c->ts_select;
			r->sleep_ns = c->slr ? c->sleep : 0;
			r->tick_ns = c->slr ? c->delta : 0;
			r->lat_ns = c->lat;
			r->cause = IS_CAUSE_UNKNOWN;
			r->kstate = (int8_t)c->state;
			r->lres_ns = lres;
			/* local_clock() is u64: the kernel's difference wraps */
			r->span_ns = c->has_sel_clock && c->has_refl_clock ?
				     (int64_t)((uint64_t)c->refl_clock - (uint64_t)c->sel_clock) :
				     lres;
			if (lres < 0 || r->span_ns < 0)
				st.backwards++;
			/* the model's input: a backwards clock is a wakeup at once */
			r->idle_ns = lres < 0 ? 0 : MIN(lres, IS_TRACE_MAX_IDLE_NS);
			if (r->idle_ns != lres)
				r->est = IS_EST_IDLE;
			if (r->t_ns < 0) {
				ierr(error, in, st.lines, "clock_ns", "negative select clock");
				goto out;
			}
			if (c->has_last && r->t_ns < c->last_t) {
				r->t_ns = c->last_t;
				st.raised++;
			}
			r->has = IS_HAS_KSTATE | IS_HAS_KSTOP | IS_HAS_SPAN | IS_HAS_LRES |
				 IS_HAS_GT | IS_HAS_PL | IS_HAS_SLR |
				 (c->has_draw ? IS_HAS_DRAW : 0);
			r->draw = c->draw;
			r->flags = (c->tick_stopped ? IS_F_TS : 0) | (c->stop ? IS_F_KSTOP : 0) |
				   (c->gt ? IS_F_GT : 0) | (pl ? IS_F_PL : 0) |
				   (c->slr ? IS_F_SLR : 0) | (v < 0 ? IS_F_REJ : 0) |
				   (c->has_iow ? IS_F_IOW : 0);
			r->iowait = c->iow;
			if (v < 0)
				st.rejected++;
			it.seq = items->len;
			g_array_append_val(items, it);
			last_t = r->t_ns;
			memset(c, 0, sizeof(*c));
			c->has_last = true;
			c->last_t = last_t;
		}
#undef IS
	}
	if (ferror(f)) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO,
			    "%s: read error after line %" G_GUINT64_FORMAT ": %s", in, st.lines,
			    is_input_strerror(errno));
		goto out;
	}
	for (int i = 0; i <= maxcpu; i++)
		if (cpu[i].after_select)
			st.partial++;
	if (!items->len) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: no complete cpuidle_select/cpuidle_reflect pair found", in);
		goto out;
	}
	qsort(items->data, items->len, sizeof(struct item), cmp_item);
	mark_nowork(items, maxcpu);
	if (h.cpus <= maxcpu)
		h.cpus = maxcpu + 1;
	st.cpus = h.cpus;
	w = is_trace_writer_open(out, fmt, &h, error);
	if (!w)
		goto out;
	for (guint i = 0; i < items->len; i++)
		if (!is_trace_write(w, &g_array_index(items, struct item, i).rec, error)) {
			is_trace_writer_abort(w);
			goto out;
		}
	if (!is_trace_writer_commit(w, error))
		goto out;
	st.records = items->len;
	ok = true;
out:
	if (ok && stats)
		*stats = st;
	if (f && f != stdin)
		fclose(f);
	free(line);
	g_free(cpu);
	g_array_free(items, TRUE);
	is_trace_header_clear(&h);
	return ok;
}
