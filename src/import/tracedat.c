// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat through libtracecmd/libtraceevent (meson -Dtracecmd): events
 * come in time order from tracecmd_iterate_events(); their fields are read
 * by name, with the raw hrtimer pointer as the timer's identity and the
 * function resolved through the file's kallsyms when present.
 */
#include "capture.h"

#ifndef HAVE_TRACECMD

bool is_capture_dat_supported(void)
{
	return false;
}

bool is_capture_read_dat(struct cap_ctx *c, const char *path, GError **error)
{
	(void)c;
	g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "%s: this build cannot read trace.dat",
		    path);
	return false;
}

#else
#include <string.h>
#include <trace-cmd.h>
#include <event-parse.h>

bool is_capture_dat_supported(void)
{
	return true;
}

struct dat_ctx {
	struct cap_ctx *c;
	struct tep_handle *tep;
	uint64_t n;
	GError *err;
	bool failed;
};

static bool field_u64(struct tep_event *ev, struct tep_record *r, const char *name,
		      unsigned long long *v)
{
	return tep_get_any_field_val(NULL, ev, name, r, v, 0) == 0;
}

static uint32_t func_id(struct dat_ctx *d, unsigned long long addr)
{
	const char *name = tep_find_function(d->tep, addr);
	char buf[24];

	if (name)
		return cap_intern(d->c, name, strlen(name));
	g_snprintf(buf, sizeof(buf), "0x%llx", addr);
	return cap_intern(d->c, buf, strlen(buf));
}

static int fail(struct dat_ctx *d, const char *field)
{
	cap_error(d->c, &d->err, d->n, field, "missing in the event's format");
	d->failed = true;
	return 1;
}

static int on_event(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	struct dat_ctx *d = data;
	struct cap_event e = { .where = ++d->n, .cpu = cpu, .type = CAP_OTHER };
	struct tep_event *ev = tep_find_event_by_record(d->tep, r);
	unsigned long long v, w;
	const char *name;

	(void)h;
	e.need_resched = (tep_data_flags(d->tep, r) & TRACE_FLAG_NEED_RESCHED) != 0;
	if (!ev) {
		cap_error(d->c, &d->err, d->n, "event", "unknown event id in the record");
		d->failed = true;
		return 1;
	}
	name = ev->name;
	e.ts_ns = (int64_t)r->ts;
	if (r->missed_events) {
		struct cap_event l = e;

		l.type = CAP_LOST;
		if (!cap_push(d->c, &l, &d->err))
			goto fail;
	}
	if (!strcmp(name, "cpu_idle")) {
		if (!field_u64(ev, r, "state", &v))
			return fail(d, "state");
		e.type = CAP_IDLE;
		e.a = v == 4294967295ULL || v == ~0ULL ? -1 : (int64_t)MIN(v, 1000ULL);
	} else if (!strcmp(name, "cpu_idle_miss")) {
		if (!field_u64(ev, r, "state", &v) || !field_u64(ev, r, "below", &w))
			return fail(d, "state");
		e.type = CAP_MISS;
		e.a = (int64_t)MIN(v, 1000ULL);
		e.b = w != 0;
	} else if (!strcmp(name, "hrtimer_start") || !strcmp(name, "hrtimer_expire_entry")) {
		bool start = name[8] == 's';
		unsigned long long t, fn;

		if (!field_u64(ev, r, start ? "expires" : "now", &v))
			return fail(d, start ? "expires" : "now");
		if (!field_u64(ev, r, "hrtimer", &t) || !field_u64(ev, r, "function", &fn))
			return fail(d, "hrtimer");
		e.type = start ? CAP_HR_START : CAP_HR_EXPIRE;
		e.b = start && field_u64(ev, r, "was_armed", &w) && w;
		e.a = v > INT64_MAX ? INT64_MAX : (int64_t)v;
		e.timer = t ? t : 1;
		e.func = func_id(d, fn);
	} else if (!strcmp(name, "hrtimer_cancel")) {
		if (!field_u64(ev, r, "hrtimer", &v))
			return fail(d, "hrtimer");
		e.type = CAP_HR_CANCEL;
		e.timer = v ? v : 1;
	} else if (!strcmp(name, "tick_stop")) {
		if (!field_u64(ev, r, "success", &v))
			return fail(d, "success");
		e.type = CAP_TICK_STOP;
		e.a = v != 0;
	} else if (!strcmp(name, "irq_handler_entry")) {
		e.type = CAP_IRQ;
	} else if (!strcmp(name, "ipi_entry") || !strcmp(name, "reschedule_entry") ||
		   !strcmp(name, "call_function_entry") ||
		   !strcmp(name, "call_function_single_entry")) {
		e.type = CAP_IPI_RECV;
	} else if (!strcmp(name, "local_timer_entry")) {
		e.type = CAP_TIMER_IRQ;
	} else if (!strcmp(name, "irq_handler_exit") || !strcmp(name, "hrtimer_expire_exit") ||
		   !strcmp(name, "ipi_exit") || !strcmp(name, "local_timer_exit") ||
		   !strcmp(name, "reschedule_exit") || !strcmp(name, "call_function_exit") ||
		   !strcmp(name, "call_function_single_exit")) {
		e.type = CAP_IRQ_EXIT;
	} else if (!strcmp(name, "ipi_send_cpu")) {
		if (!field_u64(ev, r, "cpu", &v))
			return fail(d, "cpu");
		e.type = CAP_IPI_SEND;
		e.a = (int64_t)MIN(v, (unsigned long long)IS_TRACE_MAX_CPUS);
	} else if (!strcmp(name, "ipi_send_cpumask") || !strcmp(name, "ipi_raise")) {
		/* a dynamic bitmap: bit i = CPU i */
		struct tep_format_field *f = tep_find_field(ev, name[4] == 's' ? "cpumask" :
							    "target_cpus");
		const unsigned char *p;
		int len;

		if (!f)
			return fail(d, "cpumask");
		p = tep_get_field_raw(NULL, ev, f->name, r, &len, 0);
		if (!p)
			return fail(d, "cpumask");
		e.type = CAP_IPI_SEND;
		for (int i = 0; i < len * 8 && i < IS_TRACE_MAX_CPUS; i++)
			if (p[i / 8] >> (i % 8) & 1) {
				e.a = i;
				if (!cap_push(d->c, &e, &d->err))
					goto fail;
			}
		return 0;
	} else if (!strcmp(name, "sched_wakeup")) {
		if (!field_u64(ev, r, "target_cpu", &v))
			return fail(d, "target_cpu");
		e.type = CAP_WAKEUP;
		e.a = (int64_t)MIN(v, (unsigned long long)IS_TRACE_MAX_CPUS);
	} else if (!strcmp(name, "cpuhp_enter") || !strcmp(name, "cpuhp_multi_enter") ||
		   !strcmp(name, "cpuhp_exit")) {
		if (!field_u64(ev, r, "cpu", &v))
			return fail(d, "cpu");
		e.type = CAP_HOTPLUG;
		e.a = (int64_t)MIN(v, (unsigned long long)IS_TRACE_MAX_CPUS);
	} else if (!strcmp(name, "sched_switch")) {
		if (!field_u64(ev, r, "prev_pid", &v) || !field_u64(ev, r, "next_pid", &w))
			return fail(d, "prev_pid");
		e.type = CAP_SWITCH;
		e.a = (int64_t)v;
		e.b = (int64_t)w;
	}
	if (cap_push(d->c, &e, &d->err))
		return 0;
fail:
	d->failed = true;
	return 1;
}

bool is_capture_read_dat(struct cap_ctx *c, const char *path, GError **error)
{
	struct tracecmd_input *h = tracecmd_open(path, 0);
	struct dat_ctx d = { .c = c };

	if (!h) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s: libtracecmd cannot open it as a trace.dat file", path);
		return false;
	}
	d.tep = tracecmd_get_tep(h);
	tracecmd_iterate_events(h, NULL, 0, on_event, &d);
	tracecmd_close(h);
	if (d.failed) {
		g_propagate_error(error, d.err);
		return false;
	}
	return true;
}
#endif
