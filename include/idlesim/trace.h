/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Native trace format: per-CPU idle periods and state enable/disable
 * events.  Text and binary forms carry exactly the same information; see
 * traces/README.md for the specification.
 */
#ifndef IDLESIM_TRACE_H
#define IDLESIM_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <glib.h>
#include "idlesim/states.h"

/*
 * Version 2 adds the "state" header lines: the state table the trace was
 * made with travels with it.  Version 1 traces (no table) still read, and
 * a trace written without a table is still version 1.
 */
#define IS_TRACE_VERSION 2
#define IS_TRACE_VERSION_MIN 1
#define IS_TRACE_MAX_CPUS 4096
#define IS_CPU_ALL 0xffffu
#define IS_TRACE_MAX_IDLE_NS 1000000000000000LL

/* What ended an idle period. */
enum is_cause {
	IS_CAUSE_UNKNOWN = 0,
	IS_CAUSE_TIMER,  /* a timer event (the sleep length) */
	IS_CAUSE_TICK,   /* the scheduler tick */
	IS_CAUSE_IRQ,    /* a device interrupt */
	IS_CAUSE_IPI,    /* an inter-processor interrupt */
	IS_CAUSE_POLL,   /* the polling state's time limit */
	IS_CAUSE_COUNT
};

enum is_rec_kind {
	IS_REC_IDLE = 1,  /* one governor selection and what followed */
	IS_REC_STATE = 2, /* a state enabled or disabled */
};

/* Presence bits of optional idle-record fields. */
enum {
	IS_HAS_KSTATE = 1u << 0, /* state the recorded kernel selected */
	IS_HAS_KSTOP  = 1u << 1, /* its stop-tick decision */
	IS_HAS_SPAN   = 1u << 2, /* clock at reflect - clock at select */
	IS_HAS_LRES   = 1u << 3, /* dev->last_residency_ns after the period */
	IS_HAS_GT     = 1u << 4, /* tick_nohz_idle_got_tick() at reflect */
	IS_HAS_PL     = 1u << 5, /* dev->poll_time_limit at reflect */
	IS_HAS_DRAW   = 1u << 6, /* random draw used by the governor */
	IS_HAS_SLR    = 1u << 7, /* whether the governor read the sleep length */
	IS_HAS_ALL    = 0xffu,
};

/*
 * Boolean values, in is_record.flags.  A value that belongs to an optional
 * field sits at the same bit as its presence bit in "has", so one mask
 * test finds a value set for an absent field.
 */
enum {
	IS_F_TS     = 1u << 0, /* tick already stopped at select */
	IS_F_KSTOP  = IS_HAS_KSTOP,
	IS_F_NOWORK = 1u << 2, /* the wakeup ran no task: idle loop continues */
	IS_F_REJ    = 1u << 3, /* selected state not entered (need_resched):
				  no reflect, last_residency_ns = 0 */
	IS_F_GT     = IS_HAS_GT,
	IS_F_PL     = IS_HAS_PL,
	/*
	 * The record carries "io" (iowait): a presence bit kept here because
	 * "has" is full; bit 6 is free in flags because the draw (has bit 6)
	 * has no boolean value.
	 */
	IS_F_IOW    = 1u << 6,
	IS_F_SLR    = IS_HAS_SLR,
	IS_F_VALUES = IS_F_KSTOP | IS_F_GT | IS_F_PL | IS_F_SLR,
	IS_F_ALL    = IS_F_TS | IS_F_NOWORK | IS_F_REJ | IS_F_IOW | IS_F_VALUES,
};

/*
 * Inputs that an importer could not observe and filled in by a documented
 * fallback (is_record.est of idle records).  A replay on such a record is
 * an approximation; reports count these periods apart from exact ones.
 */
enum {
	IS_EST_SLEEP = 1u << 0, /* sleep_ns / tick_ns not from tracked timers */
	IS_EST_TS    = 1u << 1, /* tick_stopped not from tick_stop events */
	IS_EST_IDLE  = 1u << 2, /* idle_ns not from an observed exit */
	IS_EST_ALL   = 0x7u,
};

struct is_record {
	uint8_t kind;
	uint8_t cause;     /* enum is_cause (idle records) */
	uint8_t flags;     /* IS_F_* */
	uint8_t has;       /* IS_HAS_* */
	uint16_t cpu;      /* IS_CPU_ALL allowed for state events */
	int8_t kstate;     /* idle: recorded state; state event: state index */
	union {
		uint8_t disable; /* state event: 1 = disabled, 0 = enabled */
		uint8_t est;     /* idle record: IS_EST_* bits */
	};
	int64_t t_ns;      /* clock at select (or at the state event) */
	int64_t sleep_ns;  /* tick_nohz_get_sleep_length() return value */
	int64_t tick_ns;   /* its *delta_next: time till the next tick */
	int64_t lat_ns;    /* PM QoS latency limit (cpuidle_governor_latency_req) */
	int64_t idle_ns;   /* time from select till the wakeup event */
	int64_t span_ns;   /* any int64: negative when the clock ran backwards */
	int64_t lres_ns;   /* any int64 (s64 dev->last_residency_ns), likewise */
	uint32_t draw;
	uint32_t iowait;   /* nr_iowait_cpu() at select (IS_F_IOW; menu of 6.1 reads it) */
};

#define IS_TRACE_MAX_COMMENTS 64

struct is_trace_header {
	int version;
	char states[64];     /* state table name */
	int state_count;
	int hz;
	int cpus;
	bool has_seed;
	uint64_t seed;
	char source[256];    /* free text: how the trace was made */
	/*
	 * The machine's poll overrun: how long a polling state runs past
	 * cpuidle_poll_time() before poll_idle() notices (it reads the clock
	 * once every POLL_IDLE_RELAX_COUNT relaxes); measured by the import,
	 * used by the model.  0: none ("poll_overrun_ns", optional).
	 */
	int64_t poll_overrun_ns;
	/*
	 * How late the machine's tick interrupt runs after its expiry (the
	 * median of the tick hrtimer's "now" less its expiry at
	 * hrtimer_expire_entry); measured by the import, used by the model
	 * for the retained tick.  0: none ("tick_late_ns", optional).
	 */
	int64_t tick_late_ns;
	/*
	 * dev->last_residency_ns of each CPU when the trace begins (lines
	 * "last_residency_ns CPU NS", optional): what the kernel measured in
	 * the pass before the CPU's first record, which a capture that begins
	 * in the governor's life knows from its reflect probe and menu's,
	 * ladder's and teo's first select may read.  NULL, or a CPU without
	 * a line: 0, as at boot.  Else h->cpus entries, owned.
	 */
	int64_t *start_lres_ns;
	/* the table itself ("state" lines, version 2); a writer embeds it when set */
	bool has_table;
	struct is_state_table table;
	int ncomments;
	char *comments[IS_TRACE_MAX_COMMENTS]; /* "# ..." header lines, owned */
};

enum is_trace_format { IS_FMT_AUTO = 0, IS_FMT_TEXT, IS_FMT_BINARY };

const char *is_cause_name(enum is_cause c);
/* Returns -1 when unknown. */
int is_cause_parse(const char *s, size_t len);

void is_trace_header_init(struct is_trace_header *h);
void is_trace_header_clear(struct is_trace_header *h);
void is_trace_header_copy(struct is_trace_header *dst,
			  const struct is_trace_header *src);
bool is_trace_header_add_comment(struct is_trace_header *h, const char *text);
/* CPU @cpu's dev->last_residency_ns at the trace's start (h->cpus set first). */
void is_trace_header_set_start_lres(struct is_trace_header *h, int cpu, int64_t ns);
/* Embeds @t (and names it in "states NAME COUNT"). */
void is_trace_header_set_table(struct is_trace_header *h, const struct is_state_table *t);

/* Streaming reader; the format is detected from the content. */
struct is_trace_reader;
struct is_trace_reader *is_trace_open(const char *path, GError **error);
enum is_trace_format is_trace_reader_format(const struct is_trace_reader *r);
const struct is_trace_header *is_trace_reader_header(const struct is_trace_reader *r);
/* 1: a record; 0: clean end (end marker checked); -1: error. */
int is_trace_next(struct is_trace_reader *r, struct is_record *rec,
		  GError **error);
/*
 * Up to @max (>= 1) records into @recs: the number read (> 0), 0 at a
 * clean end, -1 on an error (then nothing was read: records before a bad
 * one come back from the call before).
 */
int is_trace_next_batch(struct is_trace_reader *r, struct is_record *recs, int max,
			GError **error);
/* Records read so far. */
uint64_t is_trace_reader_count(const struct is_trace_reader *r);
/*
 * The state table to replay trace @path (header @h) on: @spec (as
 * is_states_open()) or, when NULL, the table the header names; its state
 * count must be the header's.  Errors name the trace and the header field.
 */
struct is_state_table *is_trace_states_open(const char *path, const struct is_trace_header *h,
					    const char *spec, uint32_t *disabled,
					    GError **error);
void is_trace_close(struct is_trace_reader *r);

/*
 * Writer: writes to PATH.tmp.XXXXXX and renames onto PATH in
 * is_trace_writer_commit(); is_trace_writer_abort() (or closing an
 * uncommitted writer) removes the temporary file, so no partial trace is
 * ever left under the final name.  PATH "-" writes to stdout directly.
 */
struct is_trace_writer;
struct is_trace_writer *is_trace_writer_open(const char *path,
					     enum is_trace_format fmt,
					     const struct is_trace_header *h,
					     GError **error);
bool is_trace_write(struct is_trace_writer *w, const struct is_record *rec,
		    GError **error);
bool is_trace_writer_commit(struct is_trace_writer *w, GError **error);
void is_trace_writer_abort(struct is_trace_writer *w);

/* The process umask, read without changing it for long. */
#include <sys/types.h>
/*
 * A file that appears under its name only when complete: written as
 * PATH.tmp.XXXXXX (mode 0666 & ~umask) and renamed by commit; abort
 * removes it.  PATH NULL or "-": stdout, which commit flushes.  A PATH
 * that exists and is not a regular file (/dev/null, a FIFO, a terminal)
 * is written directly: renaming over it would replace the device.
 */
struct is_outfile {
	FILE *f;
	char *path, *tmp;
	bool sync;            /* commit fsync()s the file before the rename */
};
bool is_outfile_open(struct is_outfile *o, const char *path, GError **error);
/*
 * Removes the temporary file of every is_outfile (and trace writer) being
 * written, up to 16 at once.  Async-signal-safe: for the program's
 * SIGINT/SIGTERM handler, so that an interrupted writer leaves nothing.
 */
void is_outfile_unlink_all(void);
/*
 * Adds a temporary file or directory of the caller's to those
 * is_outfile_unlink_all() removes (files first, then directories, which
 * must be empty by then), and takes it out again.  @path must stay valid
 * till untracked.
 */
void is_outfile_track(const char *path);
void is_outfile_untrack(const char *path);
/* Flushes, closes and renames; on failure the temporary file is removed. */
bool is_outfile_commit(struct is_outfile *o, GError **error);
void is_outfile_abort(struct is_outfile *o);
mode_t is_current_umask(void);

/* Format chosen from a file name: is_trace_format_of_name(), text when it does not tell. */
/* The form a file name asks for: .istb, .bin binary; .trace, .txt, .text text; else AUTO. */
enum is_trace_format is_trace_format_of_name(const char *path);
enum is_trace_format is_trace_format_for_path(const char *path);

#endif
