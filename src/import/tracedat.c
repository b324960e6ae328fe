// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat through libtracecmd/libtraceevent (meson -Dtracecmd): events
 * come in time order from tracecmd_iterate_events(); their fields are read
 * by name, with the raw hrtimer pointer as the timer's identity and the
 * function resolved through the file's kallsyms when present.
 *
 * libtracecmd 1.3 trusts the file: fuzzing found malformed files on which
 * tracecmd_open() dereferences NULL.  So the library runs in a child
 * process that sends the events over a pipe; a crash there becomes an
 * error naming the file, never a crash of idlesim.
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
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <trace-cmd.h>
#include <event-parse.h>

bool is_capture_dat_supported(void)
{
	return true;
}

struct dat_ctx {
	struct cap_ctx *c;       /* the child's copy: names are interned there too */
	struct tep_handle *tep;
	FILE *out;               /* the pipe to the parent */
	uint64_t n;
	GError *err;
	bool failed;
};

/*
 * Messages on the pipe: 'E' + struct cap_event (same binary on both
 * ends), 'F' + u32 length + a newly interned function name (ids are
 * assigned in the same order on both ends), 'X' + u32 length + an error
 * message, 'Z' + u64 record count at the clean end.
 */
static void send_blob(FILE *f, char type, const void *p, uint32_t len)
{
	fputc(type, f);
	fwrite(&len, sizeof(len), 1, f);
	fwrite(p, 1, len, f);
}

static bool send_event(struct dat_ctx *d, const struct cap_event *e)
{
	fputc('E', d->out);
	return fwrite(e, sizeof(*e), 1, d->out) == 1;
}

static bool field_u64(struct tep_event *ev, struct tep_record *r, const char *name,
		      unsigned long long *v)
{
	return tep_get_any_field_val(NULL, ev, name, r, v, 0) == 0;
}

/* Interns @name here and, when new, in the parent (same ids on both ends). */
static uint32_t name_id(struct dat_ctx *d, const char *name, size_t len)
{
	uint32_t before = cap_func_count(d->c), id;

	id = cap_intern(d->c, name, len);
	if (cap_func_count(d->c) != before)
		send_blob(d->out, 'F', name, (uint32_t)len);
	return id;
}

static uint32_t func_id(struct dat_ctx *d, unsigned long long addr)
{
	const char *name = tep_find_function(d->tep, addr);
	char buf[24];

	if (!name) {
		g_snprintf(buf, sizeof(buf), "0x%llx", addr);
		name = buf;
	}
	return name_id(d, name, strlen(name));
}

static int fail(struct dat_ctx *d, const char *field)
{
	if (!d->err)
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
	/* the first error ends the import (whether or not the library stops) */
	if (d->failed)
		return 1;
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
		if (!send_event(d, &l))
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
		struct tep_format_field *f = tep_find_field(ev, "name");
		const char *p = NULL;
		int len = 0;

		if (f)
			p = tep_get_field_raw(NULL, ev, f->name, r, &len, 0);
		/* a __string: NUL-terminated within len */
		e.type = p ? cap_irq_type(p, strnlen(p, (size_t)MAX(len, 0))) : CAP_IRQ;
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
				if (!send_event(d, &e))
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
	} else if (!strcmp(name, "idlesim_sleep_length")) {
		/* the kprobes of tools/capture/probes.sh: s64 fields */
		if (!field_u64(ev, r, "sleep_ns", &v))
			return fail(d, "sleep_ns");
		e.type = CAP_PR_SLEEP;
		e.a = (int64_t)v;
		e.b = field_u64(ev, r, "delta_next_ns", &w) ? (int64_t)w : INT64_MIN;
	} else if (!strcmp(name, "idlesim_latency_req")) {
		if (!field_u64(ev, r, "latency_req_ns", &v))
			return fail(d, "latency_req_ns");
		e.type = CAP_PR_LATREQ;
		e.a = (int64_t)v;
		/* the caller, where the file has the kernel's symbols */
		if (field_u64(ev, r, "__probe_ret_ip", &w)) {
			const char *fn = tep_find_function(d->tep, w);

			if (fn)
				e.func = name_id(d, fn, strlen(fn));
		}
	} else if (!strcmp(name, "print")) {
		/*
		 * A trace marker: idlesim-capture's reset of the governor.
		 * ftrace's print event ends in "char buf[]", a flexible
		 * array: the text runs to its NUL within the record.
		 */
		struct tep_format_field *f = tep_find_field(ev, "buf");
		const char *buf = f && (int)f->offset < r->size ? (const char *)r->data + f->offset :
				  NULL;
		size_t len = buf ? strnlen(buf, (size_t)(r->size - (int)f->offset)) : 0;
		const char *m = len ? g_strstr_len(buf, (gssize)len, MARK_GOVERNOR) : NULL;

		if (m) {
			size_t n = 0;

			m += sizeof(MARK_GOVERNOR) - 1;
			while (m + n < buf + len && !g_ascii_isspace(m[n]))
				n++;
			e.type = CAP_MARK;
			e.func = name_id(d, m, n);
		}
	} else if (!strcmp(name, "idlesim_draw")) {
		if (!field_u64(ev, r, "draw", &v))
			return fail(d, "draw");
		e.type = CAP_PR_DRAW;
		e.a = (int64_t)(v & 0xffffffffULL);
	} else if (!strcmp(name, "idlesim_nr_iowait")) {
		if (!field_u64(ev, r, "nr_iowait", &v))
			return fail(d, "nr_iowait");
		e.type = CAP_PR_IOWAIT;
		e.a = (int64_t)(v & 0xffffffffULL);
	} else if (!strncmp(name, "idlesim_teo_span", 16)) {
		/* a pair of fields per CPU; without this CPU's: another event's share */
		char sk[16], lk[16];

		snprintf(sk, sizeof(sk), "s%d", cpu);
		snprintf(lk, sizeof(lk), "l%d", cpu);
		if (tep_find_field(ev, sk)) {
			if (!field_u64(ev, r, sk, &v))
				return fail(d, sk);
			if (!field_u64(ev, r, lk, &w))
				return fail(d, lk);
			e.type = CAP_PR_TEOSPAN;
			e.a = (int64_t)v;
			e.b = (int64_t)w;
		}
	} else if (!strcmp(name, "idlesim_select")) {
		if (!field_u64(ev, r, "state", &v))
			return fail(d, "state");
		e.type = CAP_PR_SELECT;
		e.a = (int32_t)(uint32_t)v;
		if (field_u64(ev, r, "__probe_ret_ip", &w) && !tep_find_function(d->tep, w))
			e.ret_ip = w;
		e.b = field_u64(ev, r, "stop_tick", &w) ? (w & 0xff) != 0 : -1;
	} else if (!strcmp(name, "idlesim_got_tick")) {
		if (!field_u64(ev, r, "got_tick", &v))
			return fail(d, "got_tick");
		e.type = CAP_PR_GOTTICK;
		e.a = (v & 0xff) != 0;
		if (field_u64(ev, r, "__probe_ret_ip", &w)) {
			const char *fn = tep_find_function(d->tep, w);

			/*
			 * the idle loop's own call, not a governor's; with no
			 * symbols in the file, told from the select probe's
			 */
			e.b = fn ? !strcmp(fn, "do_idle") : -1;
			e.ret_ip = fn ? 0 : w;
		}
	} else if (!strcmp(name, "idlesim_reflect")) {
		if (!field_u64(ev, r, "residency_ns", &v))
			return fail(d, "residency_ns");
		if (!field_u64(ev, r, "index", &w))
			return fail(d, "index");
		e.type = CAP_PR_REFLECT;
		e.a = (int64_t)v;
		e.b = (int32_t)(uint32_t)w; /* s32: -EBUSY when not entered */
		e.pl = field_u64(ev, r, "poll_limit", &w) ? w != 0 : -1;
	} else if (!strcmp(name, "idlesim_stop_tick") || !strcmp(name, "idlesim_retain_tick")) {
		e.type = CAP_PR_STOP;
		e.a = name[8] == 's';
	} else if (!strcmp(name, "sched_switch")) {
		if (!field_u64(ev, r, "prev_pid", &v) || !field_u64(ev, r, "next_pid", &w))
			return fail(d, "prev_pid");
		e.type = CAP_SWITCH;
		e.a = (int64_t)v;
		e.b = (int64_t)w;
	}
	if (send_event(d, &e))
		return 0;
fail:
	d->failed = true;
	return 1;
}

/* The child: read @path with libtracecmd, send everything to @fd. */
static G_NORETURN void dat_child(struct cap_ctx *c, const char *path, int fd)
{
	struct dat_ctx d = { .c = c, .out = fdopen(fd, "w") };
	struct tracecmd_input *h;

	if (!d.out)
		_exit(3);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, 0);
	if (!h) {
		static const char msg[] = "libtracecmd cannot open it as a trace.dat file";

		send_blob(d.out, 'X', msg, sizeof(msg) - 1);
	} else {
		d.tep = tracecmd_get_tep(h);
		tracecmd_iterate_events(h, NULL, 0, on_event, &d);
		tracecmd_close(h);
		if (d.failed) {
			const char *m = d.err ? d.err->message : "write to the parent failed";

			send_blob(d.out, 'X', m, (uint32_t)strlen(m));
		} else {
			fputc('Z', d.out);
			fwrite(&d.n, sizeof(d.n), 1, d.out);
		}
	}
	fflush(d.out);
	_exit(ferror(d.out) ? 3 : 0);
}

static bool read_blob(FILE *f, char **out)
{
	uint32_t len;

	if (fread(&len, sizeof(len), 1, f) != 1 || len > 65536)
		return false;
	*out = g_malloc(len + 1);
	if (len && fread(*out, 1, len, f) != len) {
		g_free(*out);
		return false;
	}
	(*out)[len] = 0;
	return true;
}

bool is_capture_read_dat(struct cap_ctx *c, const char *path, GError **error)
{
	int fds[2], status = 0;
	bool done = false, ok = false;
	FILE *in;
	pid_t pid;

	if (pipe(fds) != 0) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "pipe: %s", g_strerror(errno));
		return false;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "fork: %s", g_strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (pid == 0) {
		close(fds[0]);
		dat_child(c, path, fds[1]);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	while (in && !done) {
		int t = getc(in);
		struct cap_event e;
		g_autofree char *s = NULL;

		if (t == EOF)
			break;
		if (t == 'E') {
			if (fread(&e, sizeof(e), 1, in) != 1)
				break;
			if (!cap_push(c, &e, error))
				goto out;
		} else if (t == 'F') {
			if (!read_blob(in, &s))
				break;
			cap_intern(c, s, strlen(s));
		} else if (t == 'X') {
			if (!read_blob(in, &s))
				break;
			g_set_error(error, IS_ERROR, IS_ERROR_PARSE, "%s: %s", path, s);
			goto out;
		} else if (t == 'Z') {
			uint64_t records;
			struct stat st;

			if (fread(&records, sizeof(records), 1, in) != 1)
				break;
			/* a trace.dat has no lines: its records count as them */
			for (uint64_t i = 0; i < records; i++)
				cap_count_line(c, 0);
			if (stat(path, &st) == 0)
				cap_add_bytes(c, (uint64_t)st.st_size);
			done = true;
		} else {
			break;
		}
	}
	ok = done;
out:
	if (!ok)
		kill(pid, SIGKILL);
	if (in)
		fclose(in);
	else
		close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (ok && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		ok = false;
	if (!ok && !(error && *error)) {
		/* a signal, or a sanitizer's report and exit in an instrumented build */
		char how[32];

		if (WIFSIGNALED(status))
			g_snprintf(how, sizeof(how), "signal %d", WTERMSIG(status));
		else
			g_snprintf(how, sizeof(how), "exit status %d",
				   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s: libtracecmd crashed reading it (%s): a malformed trace.dat; "
			    "check it with: trace-cmd report -i %s", path, how, path);
	}
	return ok;
}
#endif
