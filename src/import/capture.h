/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal: the format-independent half of the stock-capture importer.
 * A front end (ftrace text, trace.dat) turns each event into a
 * struct cap_event and pushes it; capture.c reorders them within a bounded
 * window, reconstructs the idle periods per CPU and spools the records.
 */
#ifndef IDLESIM_CAPTURE_H
#define IDLESIM_CAPTURE_H

#include "idlesim/import.h"

enum cap_type {
	CAP_IDLE = 1,      /* power:cpu_idle; a = state, -1 = exit (need_resched at it) */
	CAP_MISS,          /* power:cpu_idle_miss; a = state, b = 1 below / 0 above */
	CAP_HR_START,      /* timer:hrtimer_start; a = expires, b = was_armed */
	CAP_HR_CANCEL,     /* timer:hrtimer_cancel */
	CAP_HR_EXPIRE,     /* timer:hrtimer_expire_entry; a = now */
	CAP_TICK_STOP,     /* timer:tick_stop; a = success */
	CAP_IRQ,           /* irq:irq_handler_entry and similar: a device irq ran */
	CAP_IPI_RECV,      /* an IPI handler ran here (ipi_entry, reschedule_entry...) */
	CAP_TIMER_IRQ,     /* x86 local_timer_entry: a timer interrupt, refined by expiry */
	CAP_IRQ_EXIT,      /* an interrupt handler returned (irq_handler_exit, hrtimer_expire_exit...) */
	CAP_IPI_SEND,      /* ipi_send_cpu(mask), ipi_raise; a = target CPU */
	CAP_WAKEUP,        /* sched:sched_wakeup; a = target CPU */
	CAP_SWITCH,        /* sched:sched_switch; a = prev_pid, b = next_pid */
	CAP_LOST,          /* the ring buffer lost events on this CPU */
	CAP_HOTPLUG,       /* cpuhp:cpuhp_enter/exit; a = the CPU changing state */
	CAP_PR_SLEEP,      /* kprobe idlesim_sleep_length; a = sleep_ns, b = delta_next_ns
			      (INT64_MIN: the kernel let the probe read no argument) */
	CAP_PR_LATREQ,     /* kprobe idlesim_latency_req; a = latency_req_ns, func = the
			      caller (the governor's select; 0: not known) */
	CAP_PR_STOP,       /* kprobes idlesim_stop_tick (a = 1), idlesim_retain_tick (a = 0) */
	CAP_PR_DRAW,       /* kprobe idlesim_draw; a = the u32 drawn */
	CAP_PR_IOWAIT,     /* kprobe idlesim_nr_iowait; a = nr_iowait_cpu()'s return */
	CAP_MARK,          /* trace marker "idlesim-capture: governor NAME": func = NAME */
	CAP_PR_GOTTICK,    /* kprobe idlesim_got_tick; a = tick_nohz_idle_got_tick()'s return,
			      b = 1 where its caller was do_idle(), not a governor */
	CAP_PR_SELECT,     /* kprobe idlesim_select; a = cpuidle_select()'s state, b = its
			      *stop_tick (-1: the kernel let the probe read no argument) */
	CAP_PR_REFLECT,    /* kprobe idlesim_reflect; a = dev->last_residency_ns, b = the
			      index entered (negative: not entered), pl = dev->poll_time_limit */
	CAP_PR_TEOSPAN,    /* kprobe idlesim_teo_span (teo_reflect()'s return); a = teo's
			      time_span_ns, b = its sleep_length_ns, this CPU's */
	CAP_OTHER,         /* any other event: only its CPU and time matter */
};

struct cap_event {
	int64_t ts_ns;
	uint64_t where;    /* line number (text) or record number (trace.dat) */
	int cpu;
	uint8_t type;
	int64_t a, b;
	uint64_t timer;    /* hrtimer identity; 0 = not known (hashed-out pointer) */
	uint32_t func;     /* interned timer function; 0 = none */
	int8_t need_resched; /* the event's irq flags: 1 set, 0 clear, -1 not known */
	int8_t pl;         /* CAP_PR_REFLECT: poll_time_limit 1/0, -1 not traced */
	/*
	 * CAP_PR_SELECT, CAP_PR_GOTTICK: the return probe's return address
	 * where the capture gives it as a number, not a symbol (trace-cmd
	 * report prints kprobes' "(%lx <- %lx)"); 0 = not given.
	 */
	uint64_t ret_ip;
};

struct cap_ctx;

/* The trace marker idlesim-capture writes at each switch of its reset. */
#define MARK_GOVERNOR "idlesim-capture: governor "

struct cap_ctx *cap_new(const char *path, const struct is_capture_options *o,
			const struct is_state_table *t, uint32_t disabled);
void cap_free(struct cap_ctx *c);
/* Name of the input in messages, and what "where" counts ("line", "record"). */
void cap_set_where_name(struct cap_ctx *c, const char *unit);
/* Interns a timer function name ("tick_nohz_handler", "0xffff..."). */
uint32_t cap_intern(struct cap_ctx *c, const char *name, size_t len);
/*
 * The event type of an irq:irq_handler_entry by the irq's name: where
 * timer interrupts and IPIs are ordinary irqs (arm64's GIC: "arch_timer",
 * "IPI"; powerpc's XIVE/XICS: "IPI"), a timer interrupt (refined by the
 * expiry that follows) or an IPI; any other name is a device irq.
 */
int cap_irq_type(const char *name, size_t len);
/* The capture's own CPU count (tracefs "#P:", trace-cmd "cpus="). */
void cap_hint_cpus(struct cap_ctx *c, int n);
bool cap_push(struct cap_ctx *c, const struct cap_event *e, GError **error);
/* Counts one line/record that carried no event (header, marker). */
void cap_count_unknown_event(struct cap_ctx *c);
void cap_count_line(struct cap_ctx *c, uint64_t bytes);
/* Events pushed so far. */
uint64_t cap_event_count(const struct cap_ctx *c);
/* The last line, cut off mid-write, was dropped. */
void cap_note_cut_line(struct cap_ctx *c, uint64_t line);
/* The input's size where it has no lines (trace.dat). */
void cap_add_bytes(struct cap_ctx *c, uint64_t bytes);
void cap_count_buffer_start(struct cap_ctx *c);
/* Drains the window, closes the periods and writes the native trace. */
bool cap_finish(struct cap_ctx *c, const char *out, enum is_trace_format fmt,
		const struct is_trace_header *h, struct is_capture_stats *stats,
		GError **error);

/* An error naming the input, the position and the field. */
bool cap_error(struct cap_ctx *c, GError **error, uint64_t where, const char *field,
	       const char *fmt, ...) G_GNUC_PRINTF(5, 6);



/* Front ends. */
bool is_capture_read_text(struct cap_ctx *c, FILE *f, const char *path,
			  enum is_capture_format *fmt, GError **error);
bool is_capture_read_dat(struct cap_ctx *c, const char *path, GError **error);
int64_t cap_last_ts(const struct cap_ctx *c);
/* Functions interned so far (the ids are 1..count). */
uint32_t cap_func_count(const struct cap_ctx *c);
#endif
