// SPDX-License-Identifier: GPL-2.0-only
/*
 * Import of the idlesim kernel series' cpuidle trace events (ftrace text).
 *
 * Per CPU the events of one idle-loop pass come in this order:
 *   [cpuidle_gov_clock]      governor's clock at select (TEO)
 *   [cpuidle_sleep_length]   only if the governor asked for it
 *   [cpuidle_gov_draw]       the random draw of wteo's weighted choice
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
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "idlesim/import.h"
#include "idlesim/states.h"
#include "ftrace_line.h"

struct kcpu {
	bool after_select;
	bool has_sel_clock, has_refl_clock, slr, has_gt, gt, has_draw;
	uint32_t draw;
	int64_t sel_clock, refl_clock, sleep, delta;
	int64_t ts_select;        /* ftrace time of the select event */
	int state;
	bool stop, tick_stopped;
	int64_t lat;
};

struct item {
	struct is_record rec;
	uint64_t seq;
};

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
	FILE *f = strcmp(in, "-") == 0 ? stdin : fopen(in, "r");
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
	if (!f) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", in, g_strerror(errno));
		goto out;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		struct ftrace_line l;
		const char *name, *payload, *why;
		struct kcpu *c;
		int64_t cpu_id, v, ts;
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
		      IS("cpuidle_gov_draw"))) {
			st.other_events++;
			continue;
		}
		st.events++;
		if (!ftrace_field_i64(payload, "cpu_id", &cpu_id) || cpu_id < 0 || cpu_id >= IS_TRACE_MAX_CPUS) {
			ierr(error, in, st.lines, "cpu_id", "missing or out of range");
			goto out;
		}
		if (cpu_id > maxcpu)
			maxcpu = (int)cpu_id;
		c = &cpu[cpu_id];
		if (IS("cpuidle_gov_clock")) {
			if (!ftrace_field_i64(payload, "clock_ns", &v)) {
				ierr(error, in, st.lines, "clock_ns", "missing or not an integer");
				goto out;
			}
			if (c->after_select) {
				c->refl_clock = v;
				c->has_refl_clock = true;
			} else {
				c->sel_clock = v;
				c->has_sel_clock = true;
			}
		} else if (IS("cpuidle_gov_draw")) {
			if (!ftrace_field_i64(payload, "draw", &v) || v < 0 || v > UINT32_MAX) {
				ierr(error, in, st.lines, "draw", "missing or not a 32-bit value");
				goto out;
			}
			c->draw = (uint32_t)v;
			c->has_draw = true;
		} else if (IS("cpuidle_sleep_length")) {
			int64_t d;

			if (!ftrace_field_i64(payload, "sleep_length_ns", &v) ||
			    !ftrace_field_i64(payload, "delta_next_ns", &d)) {
				ierr(error, in, st.lines, "sleep_length_ns", "missing or not an integer");
				goto out;
			}
			c->sleep = v;
			c->delta = d;
			c->slr = true;
		} else if (IS("cpuidle_got_tick")) {
			if (!ftrace_field_i64(payload, "got_tick", &v)) {
				ierr(error, in, st.lines, "got_tick", "missing or not an integer");
				goto out;
			}
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

			if (!ftrace_field_i64(payload, "state", &v) || !ftrace_field_i64(payload, "stop_tick", &stop) ||
			    !ftrace_field_i64(payload, "tick_stopped", &tstop) ||
			    !ftrace_field_i64(payload, "latency_req", &lat)) {
				ierr(error, in, st.lines, "state", "select event lacks a field");
				goto out;
			}
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
			c->lat = lat;
			c->ts_select = ts;
			c->has_refl_clock = false;
			c->has_gt = false;
		} else if (IS("cpuidle_reflect")) {
			int64_t lres, pl;
			struct item it = { 0 };
			struct is_record *r = &it.rec;

			if (!ftrace_field_i64(payload, "state", &v) ||
			    !ftrace_field_i64(payload, "last_residency_ns", &lres) ||
			    !ftrace_field_i64(payload, "poll_time_limit", &pl)) {
				ierr(error, in, st.lines, "state", "reflect event lacks a field");
				goto out;
			}
			if (!c->after_select) {
				/* the capture started inside this idle period */
				st.partial++;
				memset(c, 0, sizeof(*c));
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
			r->lat_ns = c->lat < 0 ? 0 : c->lat;
			r->idle_ns = lres < 0 ? 0 : lres;
			r->cause = IS_CAUSE_UNKNOWN;
			r->kstate = (int8_t)c->state;
			r->lres_ns = lres < 0 ? 0 : lres;
			r->span_ns = c->has_sel_clock && c->has_refl_clock ?
				     c->refl_clock - c->sel_clock : r->lres_ns;
			if (r->span_ns < 0)
				r->span_ns = 0;
			r->has = IS_HAS_KSTATE | IS_HAS_KSTOP | IS_HAS_SPAN | IS_HAS_LRES |
				 IS_HAS_GT | IS_HAS_PL | IS_HAS_SLR |
				 (c->has_draw ? IS_HAS_DRAW : 0);
			r->draw = c->draw;
			r->flags = (c->tick_stopped ? IS_F_TS : 0) | (c->stop ? IS_F_KSTOP : 0) |
				   (c->gt ? IS_F_GT : 0) | (pl ? IS_F_PL : 0) |
				   (c->slr ? IS_F_SLR : 0) | (v < 0 ? IS_F_REJ : 0);
			if (v < 0)
				st.rejected++;
			it.seq = items->len;
			g_array_append_val(items, it);
			memset(c, 0, sizeof(*c));
		}
#undef IS
	}
	if (ferror(f)) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO,
			    "%s: read error after line %" G_GUINT64_FORMAT ": %s", in, st.lines,
			    g_strerror(errno));
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
