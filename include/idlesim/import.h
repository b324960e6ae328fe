/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Importers: turn captures from real kernels into native traces.
 */
#ifndef IDLESIM_IMPORT_H
#define IDLESIM_IMPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include "idlesim/metrics.h"
#include "idlesim/states.h"
#include "idlesim/trace.h"

struct is_import_stats {
	uint64_t lines;
	uint64_t events;          /* cpuidle events parsed */
	uint64_t records;         /* idle records written */
	uint64_t rejected;        /* selections whose state was not entered */
	uint64_t partial;         /* selections cut off by the capture's end/start */
	uint64_t other_events;    /* lines of other events, ignored */
	uint64_t backwards;       /* passes whose clock ran backwards (lres or
				     span < 0), carried verbatim */
	uint64_t raised;          /* select clocks below the CPU's previous
				     record's, t_ns raised to keep its order */
	int cpus;
};

/*
 * ftrace text (the tracefs "trace" file) carrying the power:cpuidle_select,
 * power:cpuidle_reflect, power:cpuidle_sleep_length, power:cpuidle_got_tick,
 * power:cpuidle_gov_clock and power:cpuidle_gov_draw events of the idlesim kernel patch series
 * (tools/kernel/patches): every selection becomes one idle record with the
 * raw inputs for exact replay.  @h supplies states/state_count/hz (cpus is
 * taken from the capture when h->cpus is 0).  Writes @out atomically.
 */
bool is_import_cpuidle_events(const char *in, const char *out, enum is_trace_format fmt,
			      const struct is_trace_header *h,
			      struct is_import_stats *stats, GError **error);

/*
 * Stock captures: the tracepoints of an unpatched kernel (power:cpu_idle,
 * power:cpu_idle_miss, timer:hrtimer_*, timer:tick_stop, irq:*, ipi:*,
 * sched:sched_wakeup/sched_switch) as ftrace text, trace-cmd report text
 * or trace.dat.  Each cpu_idle entry/exit pair becomes one idle record
 * with the kernel's state (k=); the inputs a governor needs are
 * reconstructed from the other events, and each one that could not be is
 * filled in by a documented fallback and marked (is_record.est).  See
 * traces/README.md, "Importing stock captures".
 */
enum is_capture_format {
	IS_CAP_AUTO = 0,
	IS_CAP_FTRACE,     /* tracefs "trace" file */
	IS_CAP_TRACECMD,   /* "trace-cmd report" text */
	IS_CAP_DAT,        /* trace.dat, through libtracecmd */
};

const char *is_capture_format_name(enum is_capture_format f);
/* -1 when unknown. */
int is_capture_format_parse(const char *s);
/* Whether this build reads trace.dat (meson -Dtracecmd). */
bool is_capture_dat_supported(void);

/*
 * The sleep length of a selection made with the tick running that did not
 * stop it (linux 6.12 tick_nohz_get_sleep_length()): the next tick,
 * *delta_next, when tick_nohz_next_event() returned 0 (RCU callbacks
 * queued, irq_work, a pending timer softirq, or a timer-wheel timer due
 * within a jiffy), else the next timer-wheel or hrtimer event.  Stock
 * tracepoints show neither RCU's state nor wheel timers.
 */
enum is_running_tick_sleep {
	IS_RTS_TIMERS = 0,   /* the next hrtimer other than the tick; 1 s if none */
	IS_RTS_TICK,         /* the next tick (or an earlier hrtimer): delta_next */
};
const char *is_running_tick_sleep_name(enum is_running_tick_sleep r);
/* -1 when unknown. */
int is_running_tick_sleep_parse(const char *s);

struct is_capture_options {
	enum is_capture_format format;
	int hz;                      /* CONFIG_HZ of the captured kernel; 0: the
					capture's tick timer's, else 100 (assumed,
					said in a header comment) */
	size_t reorder_window;       /* events held to sort out-of-order input; 0 = default */
	bool tick_stop_traced;       /* timer:tick_stop was on: none seen since a
					sched_switch to or from idle = tick running */
	enum is_running_tick_sleep running_tick_sleep;
	bool no_probes;              /* ignore the kprobe events of
					tools/capture/probes.sh (the stock
					tracepoints' reconstruction alone) */
	/*
	 * The capture reset the governor by switching to this one and back
	 * (idlesim-capture: "idlesim-capture: governor NAME" trace markers):
	 * each CPU's periods before its first select after the reset are
	 * dropped, so the replay starts from the governor's initial state.
	 * Empty: no reset.
	 */
	char reset_governor[32];
};
#define IS_CAPTURE_DEFAULT_WINDOW 65536

struct is_capture_stats {
	enum is_capture_format format;  /* as detected */
	uint64_t bytes, lines;          /* input size (decompressed), lines (text)
					   or records (trace.dat) */
	uint64_t cut_line;              /* a cut-off last line, dropped (0: none) */
	uint64_t events;                /* events parsed */
	uint64_t used_events;           /* of which the importer uses */
	uint64_t unknown_events;        /* other events (counted, ignored) */
	uint64_t idle_events;           /* cpu_idle entries and exits */
	uint64_t records;               /* idle records written */
	uint64_t exact;                 /* records with no estimated input */
	uint64_t est_sleep, est_ts, est_idle;
	uint64_t cause[IS_CAUSE_COUNT];
	uint64_t partial_start;         /* capture began inside the period */
	uint64_t partial_end;           /* capture ended inside it */
	uint64_t no_exit;               /* entry without exit and no later event: dropped */
	uint64_t stray_exit;            /* exit without an entry (not at the start) */
	uint64_t lost_markers;          /* lost-events markers */
	uint64_t lost_dropped;          /* periods open at a lost-events marker: dropped */
	uint64_t hotplug_dropped;       /* periods open when their CPU was hotplugged */
	uint64_t buffer_starts;         /* "CPU N buffer started" markers */
	uint64_t reordered;             /* events that arrived out of time order */
	uint64_t timers_unknown_id;     /* hrtimer cancels whose timer was not identifiable */
	/* cpu_idle_miss cross-check: the kernel's verdicts against the rule
	 * applied to the imported periods. */
	uint64_t miss_events;
	uint64_t miss_agree, miss_disagree;   /* over records */
	uint64_t miss_kernel[3], miss_ours[3]; /* by enum is_miss */
	int cpus;
	int64_t first_ns, last_ns;
	char tick_function[64];         /* timer function taken for the tick */
	int hz_seen;                    /* HZ of the tick timer's grid (0: none seen) */
	char hz_function[64];           /* the timer it was seen on */
	/* polls that ended at their time limit (cause poll), their median
	 * duration, and the table's cpuidle_poll_time(): the header's
	 * poll_overrun_ns is the difference (with 20 polls or more) */
	uint64_t poll_limit_periods;
	int64_t poll_median_ns, poll_limit_ns;
	/* the tick timer's expiries seen with their expiry time, and the
	 * median of "now" less it: the header's tick_late_ns (with 20 or more) */
	uint64_t tick_expiries;
	int64_t tick_late_median_ns;
	/* the kprobe events (tools/capture/probes.sh): how many of each were
	 * seen, and the records whose inputs they gave */
	uint64_t probe_sleep, probe_latreq, probe_stop, probe_draw, probe_reflect, probe_got_tick;
	uint64_t probe_got_tick_unknown; /* got-tick readings given by address before any
					   select probe's: their caller unknown, not taken */
	uint64_t probe_sleep_records;   /* sleep length (and read or not) from the probe */
	uint64_t probe_iowait;          /* nr_iowait readings, and the records that carry
					   one read inside their select (io=) */
	uint64_t probe_iowait_records;
	/* periods dropped as made before the governor's reset (reset_governor) */
	uint64_t reset_dropped;
	/* CPUs whose dev->last_residency_ns at their first record the reflect
	 * probe gave (the header's last_residency_ns), and that had none yet */
	uint64_t start_lres_cpus, start_lres_unknown;
	uint64_t probe_unselected;      /* periods with no governor's select (no latency
					   probe: the default idle loop): dropped */
	bool probe_delta;               /* its delta_next_ns was readable */
	bool probes_ignored;            /* probe events seen, not used (--no-probes) */
	/* records whose residency (and poll limit) the reflect probe gave,
	 * and reflect probes not used: a state other than the traced entry's,
	 * a pass not entered (need_resched: -EBUSY), or a residency outside
	 * the traced period (a kernel whose struct cpuidle_device differs) */
	uint64_t probe_lres_records, probe_reflect_other, probe_reflect_busy,
		 probe_reflect_off;
	/* teo_span probes (teo's time_span_ns at its reflect), the records
	 * whose span they gave, passes whose span a safety net set to the
	 * sleep length (the trace's estimate kept), and readings too far from
	 * the estimate to be the period's (not taken) */
	uint64_t probe_teo_span, probe_span_records, probe_span_net, probe_span_off;
	/* selects whose state was refused (need_resched), written as rej=1
	 * records: the select probe gave their state; without it, dropped */
	uint64_t probe_select, probe_rejected_records, probe_rejected_dropped;
};

/*
 * Imports @in (gzip/xz-compressed input is read transparently) into @out,
 * written atomically.  @h supplies states/state_count/hz/cpus (cpus 0 =
 * from the capture); @t is the captured machine's table (indices above it
 * are refused).
 */
bool is_import_capture(const char *in, const char *out, enum is_trace_format fmt,
		       const struct is_trace_header *h, const struct is_state_table *t,
		       uint32_t disabled, const struct is_capture_options *o,
		       struct is_capture_stats *stats, GError **error);

/*
 * A bundle of tools/capture/idlesim-capture: the capture, the state table
 * and what the machine said of itself (tools/capture/idlesim-capture).
 */
struct is_bundle {
	char *trace;              /* the capture inside it */
	char *states;             /* its states/ directory (a sysfs copy), or
				     key file (an exported simulation) */
	int hz;                   /* 0: not known */
	char hz_source[64];       /* "config ...", "measured (...)", "unknown" */
	int cpus;
	bool tick_stop_traced;
	int64_t lost_events;
	char release[128], governor[32];
	char reset_governor[32];  /* governor_reset=NAME: the capture switched to
				     NAME and back (empty: no reset) */
	GPtrArray *probes;        /* "NAME ok ARGS" / "NAME failed: WHY" */
	char note[128];           /* "" or what the import could not read */
};

/* The first line of a bundle's meta. */
#define IS_BUNDLE_MAGIC "idlesim-capture 1"

/* Whether @path is a bundle (a directory whose meta has the magic line). */
bool is_bundle_is(const char *path);
/* Reads it; an error names the meta file's line and key. */
bool is_bundle_read(const char *path, struct is_bundle *b, GError **error);
void is_bundle_clear(struct is_bundle *b);

/*
 * Opens @path for reading, decompressing gzip or xz by content; "-" is
 * stdin.  The FILE is closed with fclose().
 */
FILE *is_open_input(const char *path, GError **error);
/*
 * strerror() for a failed read of is_open_input()'s stream: its decoders
 * fail with EILSEQ on corrupt or cut-short compressed data.
 */
const char *is_input_strerror(int err);

#endif
