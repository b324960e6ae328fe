// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reconstruction of idle periods from a stock capture.
 *
 * Events first pass a reorder window (a min-heap on time, then input
 * position) so that lines out of order across CPUs are sorted; an event
 * older than one already processed is an error naming its line.  Each CPU
 * then runs a small state machine:
 *
 *  - cpu_idle(state) opens a period at its timestamp (the record's t_ns;
 *    the governor ran a few microseconds earlier).  The inputs are those
 *    at that moment:
 *      tick_stopped: set by tick_stop(success=1), cleared when the CPU
 *        leaves the idle loop (sched_switch from pid 0).  tick_stop(1)
 *        fires only on the running->stopped transition, after the
 *        governor's select() of the same pass, so the record's
 *        tick_stopped is "stopped, and not by this pass", and a stop in
 *        this pass is the kernel's stop_tick = 1 (stop=1).
 *      sleep_ns / tick_ns: from the CPU's pending hrtimers (start adds or
 *        replaces, cancel and expire remove), converted from the timers'
 *        clock to the trace clock with the offset seen at the last expiry
 *        (ts - now).  tick_ns (delta_next) is the earliest of them with
 *        the tick; sleep_ns is the earliest without the tick while the
 *        tick runs (the kernel adds timer-wheel events, which stock
 *        tracepoints do not show), or with the tick timer when it is
 *        stopped (it is then programmed to the next event).
 *  - cpu_idle(4294967295) closes it: idle_ns = exit - entry.
 *  - the cause is the first wakeup evidence on the CPU between the entry
 *    and the first event after the exit: an hrtimer expiry (tick if its
 *    function is the tick's, else timer), a device irq handler, an IPI
 *    handler; failing those, an IPI or a sched_wakeup aimed at the CPU
 *    from another one during the period, or the need-resched flag on the
 *    exit (irq-info column): ipi; a polling state left without it: poll;
 *    else unknown.
 *  - the record is written when the CPU next enters idle (nw=1: no task
 *    ran in between) or switches away from the idle task.
 *
 * Fallbacks, each marked in the record's est bits:
 *   est=sleep: no clock offset yet, no tracked timer, the earliest timer
 *     of uncertain identity, or tick running with no other hrtimer
 *     pending.  sleep_ns is then 1 s (HZ ticks: "nothing known to be
 *     due"), tick_ns the next tick on the HZ grid (sleep_ns if the tick
 *     is stopped); without a clock offset the trace clock's grid is used.
 *   est=ts: no tick_stop event seen on that CPU yet; tick assumed running
 *     (unless the caller says timer:tick_stop was traced: then none seen
 *     means exactly that the tick ran).
 *   est=idle: the exit was lost (a later entry or switch with no exit):
 *     idle_ns runs to the CPU's first event after the entry.  Without
 *     cpuhp events a CPU taken offline in idle looks like that too; with
 *     them (cpuhp_enter/exit for that CPU) its open period is dropped.
 * lat_ns is always "no constraint" (PM QoS is not traced).
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "../heap.h"
#include "capture.h"
#include "idlesim/metrics.h"
#include "idlesim/sim.h"

#define MAX_TIMERS 64
#define HOLD_MAX 4096

struct held {
	struct is_record r;
	int miss;
	bool est_idle;
};

struct hrt {
	uint64_t id;
	uint32_t func;
	bool uncertain;   /* an unidentifiable cancel may have removed it */
	int64_t expires;  /* timer clock */
};

enum phase { P_NONE = 0, P_IDLE, P_AFTER };

struct ccpu {
	bool seen, idle_seen;
	/* timers */
	struct hrt t[MAX_TIMERS];
	int nt;
	bool have_off;
	int64_t off;
	/* tick */
	bool ts_known, tick_stopped, stopped_this_pass;
	/* ts->idle_entrytime, as the first entry after the loop began or an
	 * irq exit (0: not yet) */
	bool in_loop;
	int64_t idle_enter;
	/* the open period */
	enum phase phase;
	int state;
	int64_t entry, exit, wake;     /* wake: first event after the entry */
	uint64_t where;
	bool ts, kstop;
	uint8_t est;
	int64_t sleep, delta;
	int cause;                     /* -1: none yet */
	bool weak_timer;               /* local_timer_entry seen, no expiry yet */
	bool ipi_hint;
	int exit_nr;                   /* need_resched at the exit: 1, 0, -1 unknown */
	bool left_loop;                /* need_resched seen after the exit (see leave_loop()) */
	bool first_after_exit;         /* the next event may still be evidence */
	int miss;                      /* -1: none; else enum is_miss */
	/*
	 * The kprobes of this pass (since the CPU's last entry; the latest
	 * wins: a select whose state was not entered leaves them to the
	 * next): sleep length and delta_next (INT64_MIN: not readable), the
	 * latency limit, the stop decision (-1: none seen).
	 */
	bool pr_sleep, pr_lat;
	int64_t pr_sleep_ns, pr_delta_ns, pr_lat_ns;
	int pr_stop;
	/*
	 * The governor's select began at the first latency-limit reading
	 * after the last one ended (a stop or retain probe, or an entry):
	 * menu and teo read the limit first.  INT64_MIN: not seen.
	 */
	bool pr_in_select;
	int64_t pr_sel_ts, sel_ts;
	/* the random draw taken inside the select (-1: none) */
	int64_t pr_draw, draw;
	/* nr_iowait_cpu() read inside the select (-1: none; menu of 6.1 reads it) */
	int64_t pr_iow, iow;
	/*
	 * After a capture's reset of the governor: 0 before its first marker,
	 * 1 from there (the other governor selects), 2 from this CPU's first
	 * select by the capture's governor after it; whether the select of
	 * this pass (pr_fresh) and of the open period (fresh) came in phase 2.
	 */
	int reset_phase;
	bool pr_fresh, fresh;
	/*
	 * dev->last_residency_ns as the reflect probes leave it (the last
	 * entered pass's residency, 0 after a refused one; INT64_MIN: no
	 * reflect probe yet), as this pass's select (pr_sel_lres) and the
	 * open period's (sel_lres) found it, and the CPU's first written
	 * record's (start_lres, INT64_MIN: none written yet): the header's
	 * last_residency_ns.
	 */
	int64_t dev_lres, pr_sel_lres, sel_lres, start_lres;
	/*
	 * The reflect after this period's exit: dev->last_residency_ns
	 * (INT64_MIN: none yet), the index it was given, poll_time_limit
	 * (-1: not traced).
	 */
	int64_t pr_lres, pr_lres_ts, pr_gt_ts;
	int pr_lres_idx, pr_pl;
	/*
	 * teo's time_span_ns and sleep_length_ns as its reflect after this
	 * period's exit left them (the teo_span probe; INT64_MIN: none)
	 */
	int64_t pr_span, pr_span_sl;
	/* what the governor's reflect read from tick_nohz_idle_got_tick() (-1: no call) */
	int pr_gt;
	/* cpuidle_select()'s return: the state (-1: none seen) and *stop_tick (-1: not read) */
	int pr_sel_state, pr_sel_stop;
	/* refused selects after the open period, written after it (finalize()) */
	struct is_record rej[4];
	int nrej;
	/* the open period's, from them: slr -1 (no probe), 0 not read, 1 read */
	int slr, gstop;
	int64_t lat;
};

struct func {
	char *name;
	uint64_t on_grid, off_grid;
	bool named_tick;
	/* the governor a capture's reset switched to, or a function of it */
	bool reset_other;
	/*
	 * Its expiry times (> 0) on each candidate HZ's grid (hz_grid[]): a
	 * tick timer's lie on TICK_NSEC multiples, whatever HZ was assumed,
	 * except those armed at a stopped tick's next event (off any grid).
	 */
	uint64_t starts;
	uint64_t grid_hits[14];
};

/*
 * How far teo's span from its probe may lie from the trace's estimate (the
 * latency probe to the got-tick probe: microseconds apart on the guests).
 */
#define CAP_SPAN_SLACK 1000000

/*
 * The HZ values Linux's Kconfig offers on some architecture (kernel/Kconfig.hz
 * and the arch-specific lists): the candidates for a capture's HZ.
 */
static const int hz_grid[14] = { 24, 32, 48, 64, 100, 128, 200, 250, 256, 300, 500, 512, 1000, 1024 };
/* their TICK_NSEC (include/vdso/jiffies.h; is_tick_nsec()) */
#define TNS(hz) ((1000000000LL + (hz) / 2) / (hz))
static const int64_t hz_grid_ns[14] = {
	TNS(24), TNS(32), TNS(48), TNS(64), TNS(100), TNS(128), TNS(200),
	TNS(250), TNS(256), TNS(300), TNS(500), TNS(512), TNS(1000), TNS(1024),
};
#undef TNS

struct cap_ctx {
	char *path;
	const char *unit;
	struct is_capture_options o;
	const struct is_state_table *t;
	uint32_t disabled;
	int64_t tick_nsec;
	bool hz_given;
	/* a kprobe of that kind was seen: from then on, its absence in a pass
	 * is the kernel's (the governor did not read the sleep length) */
	bool pr_sleep_on, pr_lat_on, pr_stop_on, pr_gt_on, pr_select_on, pr_any, pr_lres_on;
	/* the select probe's return address (in do_idle()) where given as a number */
	uint64_t sel_ret_ip;
	/* periods before the first probe (see finalize()) */
	struct held *held;
	int nheld;
	bool hold_off;
	/* the reset's markers: to the other governor, and back */
	bool reset_seen, reset_back;
	struct is_capture_stats st;
	/* reorder window */
	struct cap_event *heap;
	size_t hn, hcap;
	int64_t last_ts;
	bool any;
	uint64_t last_where;
	int64_t max_in_ts;        /* the latest time pushed so far */
	uint64_t pushed;
	/*
	 * Per CPU, in input order: the event before the pending one, and the
	 * pending one, held until the CPU's next event shows whether its
	 * timestamp is an isolated jump (damaged).
	 */
	struct cap_event *pend;
	bool *has_pend, *has_prev;
	int64_t *prev_ts;
	/*
	 * pushed when each pending event was held, and the CPUs that have
	 * held one (0..pend_cpus - 1): see release_stale()
	 */
	uint64_t *pend_at;
	int pend_cpus;
	uint64_t next_stale_scan;
	/* per CPU */
	struct ccpu *cpu;
	int ncpu_alloc, maxcpu, hint_cpus;
	/* timer functions */
	GHashTable *fidx;
	GPtrArray *funcs;              /* struct func *, index = id - 1 */
	uint32_t tick_func;            /* 0: not identified */
	bool tick_named;               /* tick_func found by name: final */
	bool tick_dirty;               /* grid counts changed since tick_func */
	/* output: records wait in a heap until no open period can precede them */
	struct is_record *out;
	size_t on, ocap;
	FILE *spool;
	uint64_t spooled;
	bool failed;
	GError *err;
	GArray *polls;                 /* idle_ns of the polls left at their limit */
	GArray *tick_lates;            /* the tick's expiries: now - expires */
};

static const char *const tick_names[] = {
	"tick_nohz_handler", "tick_sched_timer", "tick_nohz_highres_handler", NULL
};

bool cap_error(struct cap_ctx *c, GError **error, uint64_t where, const char *field,
	       const char *fmt, ...)
{
	va_list ap;
	g_autofree char *msg = NULL;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (where)
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE, "%s:%s%" G_GUINT64_FORMAT
			    ": field '%s': %s", c->path, strcmp(c->unit, "line") ? " record " : "",
			    where, field, msg);
	else
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE, "%s: field '%s': %s", c->path,
			    field, msg);
	return false;
}

static void func_free(gpointer p)
{
	struct func *f = p;

	g_free(f->name);
	g_free(f);
}

struct cap_ctx *cap_new(const char *path, const struct is_capture_options *o,
			const struct is_state_table *t, uint32_t disabled)
{
	struct cap_ctx *c = g_new0(struct cap_ctx, 1);

	c->path = g_strdup(path);
	c->unit = "line";
	c->o = *o;
	if (!c->o.reorder_window)
		c->o.reorder_window = IS_CAPTURE_DEFAULT_WINDOW;
	c->hz_given = c->o.hz > 0;
	if (c->o.hz <= 0)
		c->o.hz = 100;
	c->tick_nsec = (1000000000LL + c->o.hz / 2) / c->o.hz;
	c->t = t;
	c->disabled = disabled;
	c->maxcpu = -1;
	c->fidx = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, NULL);
	c->funcs = g_ptr_array_new_with_free_func(func_free);
	c->polls = g_array_new(FALSE, FALSE, sizeof(int64_t));
	c->tick_lates = g_array_new(FALSE, FALSE, sizeof(int64_t));
	c->st.first_ns = -1;
	return c;
}

void cap_free(struct cap_ctx *c)
{
	if (!c)
		return;
	g_free(c->path);
	g_free(c->heap);
	g_free(c->cpu);
	g_free(c->pend);
	g_free(c->has_pend);
	g_free(c->has_prev);
	g_free(c->prev_ts);
	g_free(c->pend_at);
	g_hash_table_destroy(c->fidx);
	g_ptr_array_free(c->funcs, TRUE);
	g_array_free(c->polls, TRUE);
	g_free(c->held);
	g_array_free(c->tick_lates, TRUE);
	g_free(c->out);
	if (c->spool)
		fclose(c->spool);
	g_clear_error(&c->err);
	g_free(c);
}

uint32_t cap_func_count(const struct cap_ctx *c)
{
	return c->funcs->len;
}

int64_t cap_last_ts(const struct cap_ctx *c)
{
	return c->max_in_ts;
}

void cap_set_where_name(struct cap_ctx *c, const char *unit)
{
	c->unit = unit;
}

void cap_hint_cpus(struct cap_ctx *c, int n)
{
	if (n > 0 && n <= IS_TRACE_MAX_CPUS)
		c->hint_cpus = n;
}

void cap_count_unknown_event(struct cap_ctx *c)
{
	c->st.events++;
	c->st.unknown_events++;
}

void cap_note_cut_line(struct cap_ctx *c, uint64_t line)
{
	c->st.cut_line = line;
}

void cap_add_bytes(struct cap_ctx *c, uint64_t bytes)
{
	c->st.bytes += bytes;
}

void cap_count_line(struct cap_ctx *c, uint64_t bytes)
{
	c->st.lines++;
	c->st.bytes += bytes;
}

void cap_count_buffer_start(struct cap_ctx *c)
{
	c->st.buffer_starts++;
}

uint32_t cap_intern(struct cap_ctx *c, const char *name, size_t len)
{
	char buf[128];
	g_autofree char *big = NULL;
	const char *key = buf;
	gpointer v;
	struct func *f;

	/* no allocation per event: the names are short and few */
	if (len < sizeof(buf)) {
		memcpy(buf, name, len);
		buf[len] = 0;
	} else {
		key = big = g_strndup(name, len);
	}
	v = g_hash_table_lookup(c->fidx, key);
	if (v)
		return GPOINTER_TO_UINT(v);
	f = g_new0(struct func, 1);
	f->name = g_strdup(key);
	for (int i = 0; tick_names[i]; i++)
		if (strcmp(f->name, tick_names[i]) == 0)
			f->named_tick = true;
	/* "ladder", "ladder_select_state": in-tree governors' functions bear their names */
	if (c->o.reset_governor[0] && g_str_has_prefix(f->name, c->o.reset_governor)) {
		char next = f->name[strlen(c->o.reset_governor)];

		f->reset_other = next == '\0' || next == '_';
	}
	g_ptr_array_add(c->funcs, f);
	g_hash_table_insert(c->fidx, f->name, GUINT_TO_POINTER(c->funcs->len));
	return c->funcs->len;
}

/*
 * The tick's timer function: by name when the capture has symbols, else
 * the function whose timers expire on the 1/HZ grid (the 6.12 tick is
 * aligned to multiples of TICK_NSEC) more often than not, with the most
 * such expiries (a stopped tick is programmed to the next event, which
 * may be off the grid: a quarter of the arm64 guest's tick starts).
 * Without names the answer stays provisional for the whole capture: a
 * boot-time timer on the grid can lead until the tick proper (high
 * resolution mode) overtakes it, as on the ppc64le guest, where fixing it
 * after 8 expiries took the wrong function.
 */
static struct func *func_at(struct cap_ctx *c, uint32_t id)
{
	return g_ptr_array_index(c->funcs, id - 1);
}

static uint32_t tick_func(struct cap_ctx *c)
{
	uint32_t best = 0;
	uint64_t most = 2;

	if (c->tick_named || !c->tick_dirty)
		return c->tick_func;
	c->tick_dirty = false;
	for (guint i = 0; i < c->funcs->len; i++) {
		struct func *f = c->funcs->pdata[i];

		if (f->named_tick) {
			c->tick_named = true;
			return c->tick_func = i + 1;
		}
		/* a stopped tick is reprogrammed to the next event: off-grid */
		if (f->on_grid > f->off_grid && f->on_grid > most) {
			most = f->on_grid;
			best = i + 1;
		}
	}
	return c->tick_func = best;
}

static struct ccpu *get_cpu(struct cap_ctx *c, int cpu)
{
	if (cpu >= c->ncpu_alloc) {
		int n = MAX(cpu + 1, c->ncpu_alloc * 2);

		c->cpu = g_renew(struct ccpu, c->cpu, n);
		/*
		 * ts_known starts false even with tick_stop traced: a CPU first
		 * seen inside the idle loop may have stopped its tick before the
		 * capture began.  See CAP_SWITCH and CAP_TICK_STOP.
		 */
		memset(c->cpu + c->ncpu_alloc, 0, sizeof(struct ccpu) * (size_t)(n - c->ncpu_alloc));
		for (int k = c->ncpu_alloc; k < n; k++) {
			c->cpu[k].pr_stop = -1;
			c->cpu[k].pr_sel_ts = c->cpu[k].sel_ts = INT64_MIN;
			c->cpu[k].pr_draw = c->cpu[k].draw = -1;
			c->cpu[k].pr_iow = c->cpu[k].iow = -1;
			c->cpu[k].dev_lres = c->cpu[k].pr_sel_lres = c->cpu[k].sel_lres = INT64_MIN;
			c->cpu[k].start_lres = INT64_MIN;
			c->cpu[k].reset_phase = c->reset_seen ? 1 : 0;
			c->cpu[k].pr_lres = INT64_MIN;
			c->cpu[k].pr_span = INT64_MIN;
			c->cpu[k].pr_gt = -1;
			c->cpu[k].pr_sel_state = c->cpu[k].pr_sel_stop = -1;
		}
		c->ncpu_alloc = n;
	}
	if (cpu > c->maxcpu)
		c->maxcpu = cpu;
	return &c->cpu[cpu];
}

/* ---- output ------------------------------------------------------------ */

static bool rec_less(const struct is_record *a, const struct is_record *b)
{
	if (a->t_ns != b->t_ns)
		return a->t_ns < b->t_ns;
	return a->cpu < b->cpu;
}

/* the reorder window holds events, the output holds records until none can precede */
DEFINE_HEAP(out, struct is_record, rec_less)

static bool spool(struct cap_ctx *c, const struct is_record *r, GError **error)
{
	if (!c->spool) {
		c->spool = tmpfile();
		if (!c->spool) {
			g_set_error(error, IS_ERROR, IS_ERROR_IO, "temporary file: %s",
				    g_strerror(errno));
			return false;
		}
	}
	if (fwrite(r, sizeof(*r), 1, c->spool) != 1) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "temporary file: %s",
			    g_strerror(errno));
		return false;
	}
	c->spooled++;
	return true;
}

/* Writes the records no open period (nor future event) can precede. */
static bool out_release(struct cap_ctx *c, int64_t now, bool all, GError **error)
{
	int64_t limit = now;

	/*
	 * A select pass begun (its first probe) may still become a refused
	 * select's record, stamped with the pass's start: nothing later may
	 * go out before it (x86_64 guest, 2026-12-07: CPU 0's period written
	 * between CPU 1's select at 1.445679 and its -EBUSY reflect).
	 */
	if (!all)
		for (int i = 0; i <= c->maxcpu; i++) {
			const struct ccpu *q = &c->cpu[i];

			if (q->phase != P_NONE && q->entry < limit)
				limit = q->entry;
			if (q->pr_sel_ts != INT64_MIN && q->pr_sel_ts < limit)
				limit = q->pr_sel_ts;
		}
	while (c->on && (all || c->out[0].t_ns <= limit)) {
		struct is_record r = out_pop(c->out, &c->on);

		if (!spool(c, &r, error))
			return false;
	}
	return true;
}

/* ---- per-CPU reconstruction -------------------------------------------- */

static void timer_remove(struct ccpu *p, int i)
{
	p->t[i] = p->t[--p->nt];
}

static int timer_find(struct ccpu *p, uint64_t id)
{
	for (int i = 0; i < p->nt; i++)
		if (p->t[i].id == id)
			return i;
	return -1;
}

/*
 * An hrtimer is queued on one CPU's base at a time, and every removal is
 * traced with its identity (hrtimer_cancel from __remove_hrtimer(), also
 * before an expiry or a restart), possibly by another CPU: forget it on
 * every CPU.
 */
static void timer_forget(struct cap_ctx *c, uint64_t id)
{
	for (int k = 0; k <= c->maxcpu; k++) {
		int j = timer_find(&c->cpu[k], id);

		if (j >= 0)
			timer_remove(&c->cpu[k], j);
	}
}

static void compute_inputs(struct cap_ctx *c, struct ccpu *p, int64_t ts)
{
	const int64_t none = INT64_MAX;
	uint32_t tf = tick_func(c);
	int64_t now, cur, min_other = none, tick_timer = none, next_tick;
	bool unc_other = false, unc_tick = false;

	p->est = 0;
	if (!p->have_off) {
		/* the trace clock's own grid stands in for the timers' clock */
		next_tick = (ts / c->tick_nsec + 1) * c->tick_nsec;
		p->sleep = c->tick_nsec * c->o.hz;
		p->delta = p->ts ? p->sleep : next_tick - ts;
		if (!p->ts && !p->kstop && c->o.running_tick_sleep == IS_RTS_TICK)
			p->sleep = p->delta;
		p->est |= IS_EST_SLEEP;
		return;
	}
	cur = ts - p->off;
	/*
	 * tick_nohz_get_sleep_length() measures from ts->idle_entrytime, set
	 * when the CPU entered the idle loop and at each irq exit in it, not
	 * from the current time: every pass of one loop without an irq sees
	 * the same "now".  That moment is taken as the first entry after the
	 * loop began or an irq returned (the select just before it ran a few
	 * microseconds later than idle_entrytime was set); before the CPU's
	 * first switch to idle or irq exit, as the entry itself, estimated.
	 * The switch to the idle task is nearer the kernel's moment when the
	 * loop begins (under TCG, 20-1000 us before the entry): taken as
	 * "now", the sleep lengths of the guests' first repetition came
	 * within 10 us of the kernel's more often (x86_64 20 -> 34%, ppc64le
	 * 3 -> 11%), but the self-replays agreed with the kernel's selections
	 * less (77.0 -> 75.2%, 95.6 -> 93.3%): not made, the reason not found.
	 */
	if (!p->in_loop)
		p->est |= IS_EST_SLEEP;
	if (!p->in_loop || !p->idle_enter)
		p->idle_enter = ts;
	now = p->idle_enter - p->off;
	/*
	 * A timer long past its expiry was removed by something unseen: one
	 * without identity after a tick.  One with identity is pending until
	 * its removal is traced: timer interrupts may come milliseconds late
	 * (the QEMU guests' kernels read sleep lengths down to -11 ms), so only
	 * after the 1 s horizon.
	 */
	for (int i = 0; i < p->nt; i++)
		if (p->t[i].expires < cur - (p->t[i].id && !p->t[i].uncertain ?
					     c->tick_nsec * c->o.hz : c->tick_nsec))
			timer_remove(p, i--);
	for (int i = 0; i < p->nt; i++) {
		if (tf && p->t[i].func == tf) {
			if (p->t[i].expires < tick_timer) {
				tick_timer = p->t[i].expires;
				unc_tick = p->t[i].uncertain;
			}
		} else if (p->t[i].expires < min_other) {
			min_other = p->t[i].expires;
			unc_other = p->t[i].uncertain;
		}
	}
	if (!tf)
		p->est |= IS_EST_SLEEP;
	if (p->ts) {
		/* stopped: the tick timer holds the next event (or is off) */
		int64_t m = MIN(min_other, tick_timer);

		p->sleep = m == none ? c->tick_nsec * c->o.hz : m - now;
		p->delta = p->sleep;
		if (m == none || (m == min_other ? unc_other : unc_tick))
			p->est |= IS_EST_SLEEP;
		return;
	}
	/*
	 * Running at select: the tick fires on the grid.  If this pass then
	 * stopped it, the timer now holds the next event the kernel computed
	 * for the stop (tick_nohz_next_event(), timer-wheel events included),
	 * which is what the sleep length saw, and the grid is delta_next.
	 */
	next_tick = tick_timer;
	if (p->kstop || next_tick == none || unc_tick)
		next_tick = (cur / c->tick_nsec + 1) * c->tick_nsec;
	p->delta = MIN(min_other, next_tick) - now;
	if (p->kstop && tick_timer != none) {
		int64_t m = MIN(min_other, tick_timer);

		p->sleep = m - now;
		if (m == min_other ? unc_other : unc_tick)
			p->est |= IS_EST_SLEEP;
	} else if (c->o.running_tick_sleep == IS_RTS_TICK) {
		/*
		 * tick_nohz_next_event() returned 0: the sleep length is
		 * delta_next.  An estimate unless a known hrtimer comes first
		 * (then both readings give it, barring a wheel timer before it).
		 */
		p->sleep = p->delta;
		if (min_other == none || min_other >= next_tick || unc_other)
			p->est |= IS_EST_SLEEP;
	} else if (min_other == none) {
		p->sleep = c->tick_nsec * c->o.hz;
		p->est |= IS_EST_SLEEP;
	} else {
		p->sleep = min_other - now;
		if (unc_other)
			p->est |= IS_EST_SLEEP;
	}
}

/* Counts a record in the import's statistics and queues it for output. */
static void account(struct cap_ctx *c, struct is_record *r, int miss, bool est_idle)
{
	enum is_miss ours;

	if (r->cause == IS_CAUSE_POLL)
		g_array_append_val(c->polls, r->idle_ns);
	c->st.probe_sleep_records += !!(r->has & IS_HAS_SLR);
	c->st.probe_iowait_records += !!(r->flags & IS_F_IOW);
	c->st.records++;
	c->st.exact += r->est == 0;
	c->st.est_sleep += !!(r->est & IS_EST_SLEEP);
	c->st.est_ts += !!(r->est & IS_EST_TS);
	c->st.est_idle += !!(r->est & IS_EST_IDLE);
	c->st.cause[r->cause]++;
	if (!est_idle) {
		ours = is_miss_kind(c->t, c->disabled, r->kstate, r->idle_ns);
		c->st.miss_ours[ours]++;
		c->st.miss_kernel[miss < 0 ? IS_MISS_NONE : miss]++;
		if ((miss < 0 ? IS_MISS_NONE : (enum is_miss)miss) == ours)
			c->st.miss_agree++;
		else
			c->st.miss_disagree++;
	}
	out_push(&c->out, &c->on, &c->ocap, r);
}

/* The held periods, counted and queued: no probe came. */
static void release_held(struct cap_ctx *c)
{
	for (int i = 0; i < c->nheld; i++)
		account(c, &c->held[i].r, c->held[i].miss, c->held[i].est_idle);
	c->nheld = 0;
}

/* A governor's select came: the held periods had none. */
static void drop_held(struct cap_ctx *c)
{
	c->st.probe_unselected += (uint64_t)c->nheld;
	c->nheld = 0;
}

/* A probe event: false if they are ignored (--no-probes). */
static bool probe_on(struct cap_ctx *c)
{
	c->st.probes_ignored |= c->o.no_probes;
	return !c->o.no_probes;
}

/*
 * The latency probe: a governor's select.  The first one drops the held
 * periods.  Only this probe tells: the default idle loop calls
 * tick_nohz_idle_stop_tick() too, and get_random_u32() has callers from
 * early boot on (the x86_64 guest: 220 ms of default-idle periods were
 * kept before 2026-12-07, their first event being a stop or draw probe).
 */
static bool select_probe_on(struct cap_ctx *c)
{
	if (!probe_on(c))
		return false;
	if (!c->pr_any) {
		c->pr_any = true;
		drop_held(c);
	}
	return true;
}

static void finalize_one(struct cap_ctx *c, int cpu, struct ccpu *p, bool nowork, bool est_idle,
			 int64_t end);

/*
 * The CPU's first written record: dev->last_residency_ns as its select
 * found it, the trace's start value (unknown where no reflect probe had
 * come yet: 0 then, as at boot, and counted).
 */
static void note_start_lres(struct cap_ctx *c, struct ccpu *p, int64_t lres)
{
	if (p->start_lres != INT64_MIN)
		return;
	p->start_lres = lres == INT64_MIN ? 0 : lres;
	c->st.start_lres_unknown += lres == INT64_MIN && c->pr_lres_on;
}

/*
 * A select made before the capture's reset of the governor (@fresh: after
 * it): its governor's state then is not known.  The selects are told by
 * the latency probe: a capture without it keeps every period.
 */
static bool before_reset(const struct cap_ctx *c, bool fresh)
{
	return c->o.reset_governor[0] && c->pr_lat_on && !fresh;
}

/* A select's probes used up (by its entry, or by its refusal). */
static void clear_pass_probes(struct ccpu *p)
{
	p->pr_draw = p->pr_iow = -1;
	p->pr_sleep = p->pr_lat = p->pr_in_select = p->pr_fresh = false;
	p->pr_stop = -1;
	p->pr_sel_ts = INT64_MIN;
	p->pr_sel_state = p->pr_sel_stop = -1;
}

/* The refused selects that followed the period just written. */
static void flush_rej(struct cap_ctx *c, struct ccpu *p)
{
	/* no state was entered: nothing for the cpu_idle_miss cross-check */
	for (int i = 0; i < p->nrej; i++)
		account(c, &p->rej[i], -1, true);
	c->st.probe_rejected_records += (uint64_t)p->nrej;
	p->nrej = 0;
}

static void finalize(struct cap_ctx *c, int cpu, struct ccpu *p, bool nowork, bool est_idle,
		     int64_t end)
{
	finalize_one(c, cpu, p, nowork, est_idle, end);
	flush_rej(c, p);
}

/*
 * A select whose state call_cpuidle() refused (need_resched: the reflect
 * probe's index is -EBUSY): the kernel ran the governor's select, with its
 * side effects (menu of 6.12 adds an interval when the last residency was
 * 0), and entered no state: a rej=1 record, as the series' (residency 0, no
 * reflect).  Its state comes from the select probe; its inputs from the
 * pass's probes, which are then used up.
 */
static void rejected(struct cap_ctx *c, int cpu, struct ccpu *p)
{
	struct is_record r = { 0 };
	const bool ts = p->tick_stopped && !p->stopped_this_pass;

	if (before_reset(c, p->pr_fresh)) {
		c->st.reset_dropped++;
		goto used;
	}
	if (p->pr_sel_state < 0 || p->pr_sel_state >= c->t->count ||
	    p->pr_sel_ts == INT64_MIN || p->nrej == G_N_ELEMENTS(p->rej)) {
		c->st.probe_rejected_dropped++;
		goto used;
	}
	r.kind = IS_REC_IDLE;
	r.cpu = (uint16_t)cpu;
	r.t_ns = p->pr_sel_ts;
	r.lat_ns = p->pr_lat ? p->pr_lat_ns : 2147483647000LL;
	r.cause = IS_CAUSE_UNKNOWN;
	r.kstate = (int8_t)p->pr_sel_state;
	r.has = IS_HAS_KSTATE | IS_HAS_SPAN | IS_HAS_LRES | IS_HAS_GT | IS_HAS_PL;
	r.flags = IS_F_REJ | (ts ? IS_F_TS : 0);
	/* read or not, where the sleep-length probe is on (ladder reads none) */
	if (c->pr_sleep_on)
		r.has |= IS_HAS_SLR;
	if (p->pr_sleep) {
		r.flags |= IS_F_SLR;
		r.sleep_ns = p->pr_sleep_ns;
		r.tick_ns = p->pr_delta_ns != INT64_MIN ? p->pr_delta_ns : p->pr_sleep_ns;
		if (p->pr_delta_ns == INT64_MIN && !ts)
			r.est |= IS_EST_SLEEP;
	}
	if (!ts && (p->pr_sel_stop >= 0 || p->pr_stop >= 0)) {
		r.has |= IS_HAS_KSTOP;
		if (p->pr_sel_stop >= 0 ? p->pr_sel_stop : p->pr_stop)
			r.flags |= IS_F_KSTOP;
	}
	if (p->pr_draw >= 0) {
		r.has |= IS_HAS_DRAW;
		r.draw = (uint32_t)p->pr_draw;
	}
	if (p->pr_iow >= 0) {
		r.flags |= IS_F_IOW;
		r.iowait = (uint32_t)p->pr_iow;
	}
	note_start_lres(c, p, p->pr_sel_lres);
	p->rej[p->nrej++] = r;
	/* no period open before it (the last one written at a task switch) */
	if (p->phase != P_AFTER)
		flush_rej(c, p);
used:
	/* the tick a refused select stopped stays stopped for the next one */
	p->stopped_this_pass = false;
	clear_pass_probes(p);
}

static void finalize_one(struct cap_ctx *c, int cpu, struct ccpu *p, bool nowork, bool est_idle,
			 int64_t end)
{
	struct is_record r = { 0 };
	int cause = p->cause;

	/*
	 * No wakeup evidence: a need_resched flag on the exit line means
	 * another CPU made work for this one (a resched IPI, or none needed
	 * when polling): ipi.  A polling state left without it ran into its
	 * time limit: poll.
	 */
	if (cause < 0)
		cause = p->weak_timer ? IS_CAUSE_TIMER :
			p->ipi_hint || p->exit_nr == 1 ? IS_CAUSE_IPI :
			p->exit_nr == 0 && (c->t->s[p->state].flags & IS_STATE_POLLING) ?
			IS_CAUSE_POLL : IS_CAUSE_UNKNOWN;
	r.kind = IS_REC_IDLE;
	r.cpu = (uint16_t)cpu;
	r.t_ns = p->entry;
	r.sleep_ns = p->sleep;
	r.tick_ns = p->delta;
	r.lat_ns = p->lat;
	r.idle_ns = end - p->entry;
	if (r.idle_ns < 0)
		r.idle_ns = 0;
	if (r.idle_ns > IS_TRACE_MAX_IDLE_NS)
		r.idle_ns = IS_TRACE_MAX_IDLE_NS;
	r.cause = (uint8_t)cause;
	r.kstate = (int8_t)p->state;
	r.has = IS_HAS_KSTATE;
	r.flags = p->ts ? IS_F_TS : 0;
	/*
	 * The stop decision: the stop or retain probe says either way (the
	 * tick ran at the select); a tick_stop event alone says only "stopped".
	 */
	if (p->gstop >= 0 || p->kstop)
		r.has |= IS_HAS_KSTOP;
	if (p->gstop >= 0 ? p->gstop : p->kstop)
		r.flags |= IS_F_KSTOP;
	if (p->sel_ts != INT64_MIN && !est_idle && end >= p->entry && p->entry >= p->sel_ts) {
		/*
		 * The governor's clock from its select to the period's end
		 * (teo's time_span_ns): the series' records measure it, and
		 * the model adds the part outside the state (span less lres)
		 * to its own residencies.  The reflect follows the exit event
		 * by a microsecond or two, untraced: taken as none.
		 */
		r.has |= IS_HAS_SPAN | IS_HAS_LRES;
		r.lres_ns = r.idle_ns;
		r.span_ns = end - p->sel_ts;
	}
	if (p->pr_lres != INT64_MIN && !est_idle) {
		/*
		 * The kernel's own residency (cpuidle_enter_state() measures
		 * it between its two cpu_idle events): in nanoseconds, where
		 * the trace's timestamps have the text's microseconds.  A
		 * residency within a microsecond of a target residency lands
		 * on the kernel's side of it.  Not taken where it cannot be
		 * this period's (see struct is_import_stats).
		 */
		if (p->pr_lres_idx != p->state) {
			c->st.probe_reflect_other++;
		} else if (p->pr_lres < 0 || p->pr_lres > r.idle_ns + 2000) {
			c->st.probe_reflect_off++;
		} else {
			c->st.probe_lres_records++;
			r.idle_ns = p->pr_lres;
			if (r.has & IS_HAS_LRES)
				r.lres_ns = r.idle_ns;
			if (p->pr_pl >= 0) {
				r.has |= IS_HAS_PL;
				if (p->pr_pl)
					r.flags |= IS_F_PL;
			}
			/*
			 * What the governor's reflect read: menu always calls
			 * tick_nohz_idle_got_tick(), teo only without a poll
			 * limit, ladder never.  Where it made no call the value
			 * was not used: 0.  (do_idle() reads and clears it after
			 * every pass: a governor's reading is its own pass's.)
			 */
			if (c->pr_gt_on) {
				r.has |= IS_HAS_GT;
				if (p->pr_gt > 0)
					r.flags |= IS_F_GT;
			}
			/*
			 * teo's time_span_ns ends at the clock its reflect reads
			 * just after tick_nohz_idle_got_tick() returns; other
			 * governors' reflect, after cpuidle_reflect()'s entry.
			 * The exit event comes before the interrupt's handler:
			 * microseconds earlier (x86_64 pgbench: 1.6 us).
			 */
			if (r.has & IS_HAS_SPAN) {
				int64_t at = p->pr_gt >= 0 ? p->pr_gt_ts : p->pr_lres_ts;

				if (at >= end)
					r.span_ns = at - p->sel_ts;
			}
			/*
			 * teo's own span, where its probe read it: the
			 * clock's difference, unless a safety net set it to
			 * the sleep length (then the governor ignores the
			 * clock: the estimate stays, for the model's time
			 * outside the state).  A reading further than
			 * CAP_SPAN_SLACK from the estimate is not this
			 * period's (a kernel whose struct teo_cpu differs).
			 */
			if ((r.has & IS_HAS_SPAN) && p->pr_span != INT64_MIN) {
				if (p->pr_span == p->pr_span_sl) {
					c->st.probe_span_net++;
				} else if (p->pr_span < 0 || p->pr_span > r.span_ns + CAP_SPAN_SLACK ||
					   p->pr_span < r.span_ns - CAP_SPAN_SLACK) {
					c->st.probe_span_off++;
				} else {
					r.span_ns = p->pr_span;
					c->st.probe_span_records++;
				}
			}
		}
	}
	p->pr_lres = INT64_MIN;
	p->pr_span = INT64_MIN;
	p->pr_gt = -1;
	if (p->slr >= 0) {
		/* as the series' records: a sleep length not read is 0, 0 */
		r.has |= IS_HAS_SLR;
		if (p->slr)
			r.flags |= IS_F_SLR;
		else
			r.sleep_ns = r.tick_ns = 0;
	}
	if (p->draw >= 0) {
		r.has |= IS_HAS_DRAW;
		r.draw = (uint32_t)p->draw;
	}
	if (p->iow >= 0) {
		r.flags |= IS_F_IOW;
		r.iowait = (uint32_t)p->iow;
	}
	/*
	 * nw=1 carries a stopped tick into the next pass.  Where the governor
	 * asked to stop it (the stop probe) and no tick_stop followed, the
	 * kernel kept the tick (before NOHZ, or for a timer, RCU or irq work
	 * within a jiffy): nothing stopped is carried, as in the series'
	 * records (nw=1 only where the next select finds the tick stopped).
	 */
	if (nowork && !(c->o.tick_stop_traced && p->gstop == 1 && !p->kstop && !p->ts))
		r.flags |= IS_F_NOWORK;
	r.est = p->est | (est_idle ? IS_EST_IDLE : 0);
	p->phase = P_NONE;
	/*
	 * A period of a capture with the probes whose pass read no latency
	 * limit had no governor: the default idle loop (before the cpuidle
	 * driver registered, or with cpuidle off) traces cpu_idle too.  Not
	 * a selection: dropped, counted.  Before the capture's first latency
	 * probe that cannot be told yet: such periods are held (up to HOLD_MAX)
	 * and dropped if a probe then comes, kept if none does.
	 */
	if (c->pr_lat_on && p->sel_ts == INT64_MIN) {
		c->st.probe_unselected++;
		return;
	}
	if (before_reset(c, p->fresh)) {
		c->st.reset_dropped++;
		return;
	}
	if (p->sel_ts != INT64_MIN)
		note_start_lres(c, p, p->sel_lres);
	if (!c->o.no_probes && !c->pr_any && !c->hold_off) {
		if (!c->held)
			c->held = g_new(struct held, HOLD_MAX);
		if (c->nheld < HOLD_MAX) {
			c->held[c->nheld++] = (struct held){ r, p->miss, est_idle };
			return;
		}
		release_held(c);
		c->hold_off = true;
	}
	account(c, &r, p->miss, est_idle);
}

/* A period left open by a lost exit: estimate or drop it. */
static void close_lost_exit(struct cap_ctx *c, int cpu, struct ccpu *p)
{
	if (p->wake > p->entry)
		finalize(c, cpu, p, false, true, p->wake);
	else
		c->st.no_exit++;
	p->phase = P_NONE;
}

static void set_cause(struct ccpu *p, int cause)
{
	if ((p->phase == P_IDLE || (p->phase == P_AFTER && p->first_after_exit)) &&
	    p->cause < 0)
		p->cause = cause;
}

/*
 * The kprobes' readings (tools/capture/probes.sh) replace the
 * reconstruction at an entry: the sleep length the governor read and
 * *delta_next (where the kernel let the return probe read it; else the
 * tracked timers' estimate stays, or the sleep length itself with the tick
 * stopped, which then holds the next event), or that it read none; the
 * latency limit; the stop decision where the tick ran (a stop the kernel
 * did not carry out, with no tick_stop after it, is still the governor's
 * stop_tick = 1; with the tick already stopped, tick_nohz_idle_stop_tick()
 * is called whatever the governor said).  Then cleared for the next pass.
 */
static void take_probes(struct cap_ctx *c, struct ccpu *p)
{
	p->slr = -1;
	p->gstop = -1;
	p->lat = 2147483647000LL; /* "no constraint": PM QoS is not traced */
	if (c->pr_sleep_on) {
		p->slr = p->pr_sleep;
		if (p->pr_sleep) {
			p->sleep = p->pr_sleep_ns;
			if (p->pr_delta_ns != INT64_MIN)
				p->delta = p->pr_delta_ns;
			else if (p->ts)
				p->delta = p->sleep;
			if (p->pr_delta_ns != INT64_MIN || p->ts)
				p->est &= (uint8_t)~IS_EST_SLEEP;
		} else {
			p->est &= (uint8_t)~IS_EST_SLEEP;
		}
	}
	if (c->pr_lat_on && p->pr_lat)
		p->lat = p->pr_lat_ns;
	if (c->pr_stop_on && p->pr_stop >= 0 && !p->ts)
		p->gstop = p->pr_stop;
	p->sel_ts = p->pr_sel_ts;
	p->draw = p->pr_draw;
	p->iow = p->pr_iow;
	p->fresh = p->pr_fresh;
	p->sel_lres = p->pr_sel_lres;
	clear_pass_probes(p);
}

/*
 * need_resched seen in a pass: do_idle() leaves its loop when the pass
 * ends (tick_nohz_idle_exit(): the tick restarts; schedule_idle(), which
 * may switch to no task and begin do_idle() again: tick_nohz_idle_enter()
 * sets a new idle_entrytime).  On the exit event, or on any event after
 * it: the flag stays set until schedule() clears it.  Seen on the ppc64le
 * guest (rt-app, menu): a deadline timer's interrupt after the exit set
 * it (the exit itself had none), the tick restarted with no task switch
 * traced, and the next select read the tick running where this import
 * said stopped.
 */
static void leave_loop(struct cap_ctx *c, struct ccpu *p)
{
	p->left_loop = true;
	p->tick_stopped = false;
	if (c->o.tick_stop_traced)
		p->ts_known = true;
	p->in_loop = true;
	p->idle_enter = 0;
}

/* Return addresses this close are in one function (do_idle() is 0x183 bytes). */
#define CAP_SAME_FN 4096u

static bool process(struct cap_ctx *c, const struct cap_event *e, GError **error)
{
	struct ccpu *p = get_cpu(c, e->cpu);
	bool gt_idle;
	bool closes = (e->type == CAP_IDLE && e->a >= 0) || (e->type == CAP_SWITCH && e->a == 0);

	p->seen = true;
	/* the flag after the exit (the entry's and a switch's are their own) */
	if (p->phase == P_AFTER && e->need_resched == 1 && !p->left_loop &&
	    e->type != CAP_IDLE && e->type != CAP_SWITCH)
		leave_loop(c, p);
	/* what the CPU did first after the entry, if not the event closing it */
	if (p->phase == P_IDLE && !p->wake && e->ts_ns > p->entry && !closes)
		p->wake = e->ts_ns;
	switch (e->type) {
	case CAP_IDLE:
		c->st.idle_events++;
		if (e->a >= 0) {
			if (e->a >= c->t->count)
				return cap_error(c, error, e->where, "state",
						 "state index %" G_GINT64_FORMAT
						 " outside the state table (%s, %d states)",
						 e->a, c->t->name, c->t->count);
			if (p->phase == P_AFTER) {
				/*
				 * Another pass without a task switch: after an
				 * exit with need_resched the CPU left the loop
				 * and came back (the exit said so), so work was
				 * found in between (nw=0); so too where an
				 * event after the exit carried the flag.
				 */
				finalize(c, e->cpu, p, p->exit_nr != 1 && !p->left_loop, false, p->exit);
			} else if (p->phase == P_IDLE) {
				close_lost_exit(c, e->cpu, p);
			}
			p->idle_seen = true;
			p->phase = P_IDLE;
			p->state = (int)e->a;
			p->entry = e->ts_ns;
			p->wake = 0;
			p->where = e->where;
			p->ts = p->tick_stopped && !p->stopped_this_pass;
			p->kstop = p->stopped_this_pass;
			compute_inputs(c, p, e->ts_ns);
			take_probes(c, p);
			if (!p->ts_known)
				p->est |= IS_EST_TS;
			p->cause = -1;
			p->weak_timer = p->ipi_hint = false;
			p->miss = -1;
		} else if (p->phase == P_IDLE) {
			p->phase = P_AFTER;
			p->exit = e->ts_ns;
			p->exit_nr = e->need_resched;
			p->first_after_exit = true;
			p->stopped_this_pass = false;
			p->left_loop = false;
			if (e->need_resched == 1) {
				/*
				 * A need_resched flag on the exit leaves the
				 * idle loop: do_idle() calls tick_nohz_idle_exit()
				 * (the tick restarts) and schedule_idle(), which
				 * may find the woken task gone (pulled by another
				 * CPU) and begin do_idle() again without a task
				 * switch: tick_nohz_idle_enter() sets a new
				 * idle_entrytime.  Seen in the x86_64 guest: the
				 * tick's hrtimer restarted between the two passes
				 * (the kernel's next select with the tick
				 * running, where this import said stopped), and
				 * in schbench the previous loop's entry time,
				 * 500 ms earlier (518 ms read where the kernel
				 * read 18.4 ms).  Done here, at the exit, so that
				 * a stop by the next pass's select (traced before
				 * its entry) stands.
				 */
				leave_loop(c, p);
			} else if (e->need_resched != 0 ||
				   !(c->t->s[p->state].flags & IS_STATE_POLLING)) {
				/*
				 * A state that does not poll is left on an
				 * interrupt (or, with need_resched, see above),
				 * whose exit moves idle_entrytime on even when
				 * its handler is not traced (x86_64's
				 * function-call IPIs: seen in schbench, 10 ms
				 * of sleep length off).  A polling state left
				 * without need_resched ran into its limit: no
				 * interrupt.
				 */
				p->idle_enter = 0;
			}
			return true;
		} else {
			if (!p->idle_seen)
				c->st.partial_start++;
			else
				c->st.stray_exit++;
			p->idle_seen = true;
		}
		break;
	case CAP_MISS:
		c->st.miss_events++;
		if (p->phase == P_AFTER && e->a == p->state)
			p->miss = e->b ? IS_MISS_BELOW : IS_MISS_ABOVE;
		return true; /* not evidence, and the exit's next event is still to come */
	case CAP_HR_START: {
		struct func *f = e->func ? c->funcs->pdata[e->func - 1] : NULL;
		int i = -1;

		if (f) {
			c->tick_dirty = true;
			if (e->a % c->tick_nsec == 0)
				f->on_grid++;
			else
				f->off_grid++;
			if (e->a > 0) {
				for (int h = 0; h < (int)G_N_ELEMENTS(hz_grid); h++)
					f->grid_hits[h] += e->a % hz_grid_ns[h] == 0;
				f->starts++;
			}
		}
		if (e->timer) {
			i = timer_find(p, e->timer);
			if (i < 0)
				timer_forget(c, e->timer); /* moved to this CPU */
		} else if (e->func && e->func == tick_func(c)) {
			/*
			 * No identity (hashed-out pointer, or "(____ptrval____)"
			 * before the guest's crng is ready): the tick has one
			 * timer per CPU, so a start of it replaces whatever this
			 * CPU holds of that function.
			 */
			for (int k = 0; k < p->nt; k++)
				if (!p->t[k].id && p->t[k].func == e->func) {
					if (i < 0)
						i = k;
					else
						timer_remove(p, k--);
				}
		} else if (e->func && e->b) {
			/*
			 * No identity: a restart (was_armed=1) replaces an armed
			 * timer, which is the one of that function if it is alone;
			 * otherwise each start is a timer of its own.
			 */
			int n = 0;

			for (int k = 0; k < p->nt; k++)
				if (!p->t[k].id && p->t[k].func == e->func) {
					i = k;
					n++;
				}
			if (n > 1) {
				c->st.timers_unknown_id++;
				for (int k = 0; k < p->nt; k++)
					if (p->t[k].func == e->func)
						p->t[k].uncertain = true;
				i = -1;
			}
		}
		if (i < 0) {
			if (p->nt == MAX_TIMERS) {
				/* drop the latest-expiring one: the earliest matter */
				int m = 0;

				for (int k = 1; k < p->nt; k++)
					if (p->t[k].expires > p->t[m].expires)
						m = k;
				timer_remove(p, m);
			}
			i = p->nt++;
		}
		p->t[i] = (struct hrt){ .id = e->timer, .func = e->func, .expires = e->a };
		break;
	}
	case CAP_HR_CANCEL: {
		if (e->timer) {
			timer_forget(c, e->timer);
		} else {
			c->st.timers_unknown_id++;
			for (int k = 0; k < p->nt; k++)
				p->t[k].uncertain = true;
		}
		break;
	}
	case CAP_HR_EXPIRE: {
		int i = -1;
		int64_t off = e->ts_ns - e->a;

		if (e->timer) {
			i = timer_find(p, e->timer);
		} else {
			/* of several timers of one function, the earliest fires first */
			for (int k = 0; k < p->nt; k++)
				if (!p->t[k].id && p->t[k].func == e->func &&
				    (i < 0 || p->t[k].expires < p->t[i].expires))
					i = k;
		}
		if (i >= 0) {
			/* the tick's interrupt: how late after its expiry */
			if (e->func && e->func == tick_func(c) && !p->t[i].uncertain &&
			    e->a >= p->t[i].expires) {
				int64_t late = e->a - p->t[i].expires;

				g_array_append_val(c->tick_lates, late);
			}
			timer_remove(p, i);
		} else if (e->timer) {
			timer_forget(c, e->timer); /* enqueued from another CPU */
		}
		/* Only a timer on the monotonic clock gives the offset. */
		if (off > -1000000000000LL && off < 1000000000000LL) {
			p->off = off;
			p->have_off = true;
			for (int k = 0; k <= c->maxcpu; k++)
				if (!c->cpu[k].have_off) {
					c->cpu[k].off = off;
					c->cpu[k].have_off = true;
				}
		}
		set_cause(p, e->func && e->func == tick_func(c) ? IS_CAUSE_TICK : IS_CAUSE_TIMER);
		break;
	}
	case CAP_PR_SLEEP:
		c->st.probe_sleep++;
		if (!probe_on(c))
			break;
		c->pr_sleep_on = true;
		if (e->b != INT64_MIN)
			c->st.probe_delta = true;
		p->pr_sleep = true;
		p->pr_sleep_ns = e->a;
		p->pr_delta_ns = e->b;
		break;
	case CAP_PR_LATREQ:
		c->st.probe_latreq++;
		if (!select_probe_on(c))
			break;
		c->pr_lat_on = true;
		p->pr_lat = true;
		p->pr_lat_ns = e->a;
		if (!p->pr_in_select) {
			p->pr_in_select = true;
			p->pr_sel_ts = e->ts_ns;
			p->pr_sel_lres = p->dev_lres;
			/*
			 * The capture governor's first select after the reset:
			 * told by its caller, or where the callers are not
			 * known (a trace.dat without kallsyms), the first after
			 * the marker of the switch back.
			 */
			if (p->reset_phase == 1 &&
			    (e->func ? !func_at(c, e->func)->reset_other : c->reset_back))
				p->reset_phase = 2;
			p->pr_fresh = p->reset_phase == 2;
		}
		break;
	case CAP_MARK:
		if (!c->o.reset_governor[0] || !e->func)
			break;
		if (func_at(c, e->func)->reset_other) {
			c->reset_seen = true;
			for (int k = 0; k < c->ncpu_alloc; k++)
				if (c->cpu[k].reset_phase == 0)
					c->cpu[k].reset_phase = 1;
		} else if (c->reset_seen) {
			c->reset_back = true;
		}
		break;
	case CAP_PR_SELECT:
		c->st.probe_select++;
		if (!probe_on(c))
			break;
		c->pr_select_on = true;
		p->pr_sel_state = (int)e->a;
		p->pr_sel_stop = (int)e->b;
		if (e->ret_ip)
			c->sel_ret_ip = e->ret_ip;
		break;
	case CAP_PR_GOTTICK:
		c->st.probe_got_tick++;
		if (!probe_on(c))
			break;
		c->pr_gt_on = true;
		/*
		 * The governor's reflect reads it after cpuidle_reflect()'s
		 * probe; do_idle() reads it again after every pass (Debian's
		 * 6.1 and 6.12), which is not the governor's reading.  Given as
		 * numbers, the caller is do_idle() when the return address
		 * lies within CAP_SAME_FN of the select probe's, which is in
		 * do_idle() (cpuidle_idle_call() is inlined there); a
		 * governor's reflect is in drivers/cpuidle, far from
		 * kernel/sched/idle.c (x86_64 guest: 0x53 bytes apart against
		 * 1.7 MB).  Before any select probe it cannot be told: not
		 * taken.
		 */
		if (e->b < 0) {
			if (!c->sel_ret_ip) {
				c->st.probe_got_tick_unknown++;
				break;
			}
			gt_idle = e->ret_ip - c->sel_ret_ip + CAP_SAME_FN <= 2 * CAP_SAME_FN;
		} else {
			gt_idle = e->b;
		}
		if (p->phase == P_AFTER && !gt_idle && p->pr_lres != INT64_MIN) {
			p->pr_gt = (int)e->a;
			p->pr_gt_ts = e->ts_ns;
		}
		break;
	case CAP_PR_REFLECT:
		c->st.probe_reflect++;
		if (!probe_on(c))
			break;
		c->pr_lres_on = true;
		/* cpuidle_enter_state() set it, or call_cpuidle() zeroed it */
		p->dev_lres = e->b < 0 ? 0 : e->a;
		if (e->b < 0) {
			/* call_cpuidle() refused the state: need_resched */
			c->st.probe_reflect_busy++;
			if (c->pr_select_on)
				rejected(c, e->cpu, p);
		} else if (p->phase == P_AFTER) {
			p->pr_lres = e->a;
			p->pr_lres_ts = e->ts_ns;
			p->pr_lres_idx = (int)e->b;
			p->pr_pl = e->pl;
		}
		break;
	case CAP_PR_TEOSPAN:
		c->st.probe_teo_span++;
		/* teo_reflect()'s, after this period's cpuidle_reflect() */
		if (probe_on(c) && p->phase == P_AFTER && p->pr_lres != INT64_MIN) {
			p->pr_span = e->a;
			p->pr_span_sl = e->b;
		}
		break;
	case CAP_PR_STOP:
		c->st.probe_stop++;
		if (!probe_on(c))
			break;
		c->pr_stop_on = true;
		p->pr_stop = (int)e->a;
		p->pr_in_select = false;
		break;
	case CAP_PR_DRAW:
		c->st.probe_draw++;
		/*
		 * Only a draw inside a select is the governor's (other
		 * callers draw from early boot on).
		 */
		if (probe_on(c) && p->pr_in_select)
			p->pr_draw = e->a;
		break;
	case CAP_PR_IOWAIT:
		c->st.probe_iowait++;
		/*
		 * Only the select's own reading (menu of 6.1, after the sleep
		 * length): tick_nohz_stop_idle() reads it at every interrupt
		 * from idle, outside any select.
		 */
		if (probe_on(c) && p->pr_in_select)
			p->pr_iow = e->a;
		break;
	case CAP_TICK_STOP:
		p->ts_known = true;
		if (e->a) {
			p->tick_stopped = true;
			p->stopped_this_pass = true;
		}
		break;
	case CAP_IRQ:
		set_cause(p, IS_CAUSE_IRQ);
		break;
	case CAP_IPI_RECV:
		set_cause(p, IS_CAUSE_IPI);
		break;
	case CAP_TIMER_IRQ:
		if (p->phase == P_IDLE || (p->phase == P_AFTER && p->first_after_exit))
			p->weak_timer = true;
		break;
	case CAP_IPI_SEND:
	case CAP_WAKEUP:
		if (e->a >= 0 && e->a < IS_TRACE_MAX_CPUS && e->a != e->cpu) {
			struct ccpu *q = get_cpu(c, (int)e->a);

			p = &c->cpu[e->cpu]; /* get_cpu() may have moved the array */
			if (q->phase == P_IDLE)
				q->ipi_hint = true;
		}
		break;
	case CAP_IRQ_EXIT:
		break;
	case CAP_SWITCH:
		if (e->b == 0) {
			/* do_idle(): tick_nohz_idle_enter() sets idle_entrytime */
			p->in_loop = true;
			p->idle_enter = 0;
		}
		/* either way the tick runs now; traced tick_stops tell the rest */
		if ((e->a == 0 || e->b == 0) && c->o.tick_stop_traced)
			p->ts_known = true;
		if (e->a == 0) {
			/* leaving the idle loop: tick_nohz_idle_exit() restarts the tick */
			if (p->phase == P_AFTER)
				finalize(c, e->cpu, p, false, false, p->exit);
			else if (p->phase == P_IDLE)
				close_lost_exit(c, e->cpu, p);
			p->tick_stopped = false;
			p->stopped_this_pass = false;
		}
		break;
	case CAP_HOTPLUG:
		if (e->a >= 0 && e->a < IS_TRACE_MAX_CPUS) {
			struct ccpu *q = get_cpu(c, (int)e->a);

			p = &c->cpu[e->cpu];
			/* an offline CPU's "idle" is no idle period */
			if (q->phase != P_NONE)
				c->st.hotplug_dropped++;
			q->phase = P_NONE;
			q->nt = 0;
			q->ts_known = c->o.tick_stop_traced;
			q->tick_stopped = false;
			q->in_loop = false;
		}
		break;
	case CAP_LOST:
		c->st.lost_markers++;
		if (p->phase != P_NONE)
			c->st.lost_dropped++;
		p->phase = P_NONE;
		p->nt = 0;
		p->have_off = false;
		p->ts_known = false; /* a lost tick_stop would go unnoticed */
		p->in_loop = false;
		break;
	default:
		break;
	}
	/*
	 * Any interrupt in the idle loop ends with tick_nohz_irq_exit(),
	 * which moves idle_entrytime on (its exit may not be traced).
	 */
	if (p->in_loop && (e->type == CAP_HR_EXPIRE || e->type == CAP_IRQ ||
			   e->type == CAP_IPI_RECV || e->type == CAP_TIMER_IRQ ||
			   e->type == CAP_IRQ_EXIT))
		p->idle_enter = 0;
	/*
	 * Only the first event after the exit can still be its cause; a timer
	 * interrupt traced after the exit (arm64: cpu_idle's exit comes before
	 * the irq is taken) leaves the expiry that follows it the word.
	 */
	if (p->phase == P_AFTER && e->type != CAP_PR_REFLECT && e->type != CAP_PR_GOTTICK &&
	    e->type != CAP_PR_SELECT)
		p->first_after_exit = p->first_after_exit && e->type == CAP_TIMER_IRQ;
	return true;
}

/* ---- reorder window ---------------------------------------------------- */

static bool ev_less(const struct cap_event *a, const struct cap_event *b)
{
	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns;
	return a->where < b->where;
}

DEFINE_HEAP(ev, struct cap_event, ev_less)

static bool release_one(struct cap_ctx *c, GError **error)
{
	struct cap_event e = ev_pop(c->heap, &c->hn);

	if (c->any && e.ts_ns < c->last_ts)
		return cap_error(c, error, e.where, "timestamp",
				 "earlier than events already processed: the input is out of "
				 "order by more than the reorder window (%zu events); sort it "
				 "by time first or raise --reorder-window", c->o.reorder_window);
	c->any = true;
	c->last_ts = e.ts_ns;
	if (!process(c, &e, error))
		return false;
	/* Records are released in batches: the output heap stays small. */
	if (c->on >= 64)
		return out_release(c, e.ts_ns, false, error);
	return true;
}

static bool heap_push(struct cap_ctx *c, const struct cap_event *e, GError **error)
{
	c->st.events++;
	if (e->type == CAP_OTHER)
		c->st.unknown_events++;
	else
		c->st.used_events++;
	if (c->st.first_ns < 0 || e->ts_ns < c->st.first_ns)
		c->st.first_ns = e->ts_ns;
	if (e->ts_ns > c->st.last_ns)
		c->st.last_ns = e->ts_ns;
	ev_push(&c->heap, &c->hn, &c->hcap, e);
	if (c->hn > c->o.reorder_window)
		return release_one(c, error);
	return true;
}

/*
 * A damaged timestamp: an event more than this before (or after) both of
 * its CPU's neighbouring events in the input, which agree with each other.
 * Unsorted input (even every line reversed) keeps each CPU's neighbours
 * on one side; a time that jumped alone does not (a line 85 s back became
 * an 85 s idle period).
 */
#define CAP_JUMP_NS 1000000000LL

static bool jumped(int64_t prev, int64_t cur, int64_t next)
{
	return prev <= next && ((cur < prev - CAP_JUMP_NS && cur < next - CAP_JUMP_NS) ||
				(cur > prev + CAP_JUMP_NS && cur > next + CAP_JUMP_NS));
}

static bool jump_error(struct cap_ctx *c, const struct cap_event *e, int64_t prev, int64_t next,
		       GError **error)
{
	return cap_error(c, error, e->where, "timestamp",
			 "%" G_GINT64_FORMAT ".%06" G_GINT64_FORMAT " s, but CPU %d's events "
			 "around it are at %" G_GINT64_FORMAT ".%06" G_GINT64_FORMAT " and %"
			 G_GINT64_FORMAT ".%06" G_GINT64_FORMAT " s: a damaged timestamp; "
			 "remove the line", e->ts_ns / 1000000000, e->ts_ns / 1000 % 1000000,
			 e->cpu, prev / 1000000000, prev / 1000 % 1000000, next / 1000000000,
			 next / 1000 % 1000000);
}

/*
 * A CPU's pending event waits for the CPU's next event, which may come
 * after any number of other CPUs' events: a CPU that sleeps 400 ms with
 * its tick stopped while another makes 70,000 events (the x86_64 guest's
 * rt-app runs) would reach the reorder window after events it precedes,
 * and an import of a sorted capture failed ("out of order by more than
 * the reorder window").  A pending event held for half the window is
 * pushed without its next neighbour's check: a damaged time is still
 * caught against its previous neighbour by the next event's check.
 * Scanned every 1/16 of the window, so the cost per event stays constant.
 */
static bool release_stale(struct cap_ctx *c, GError **error)
{
	const uint64_t hold = c->o.reorder_window / 2;

	if (c->pushed < c->next_stale_scan)
		return true;
	c->next_stale_scan = c->pushed + MAX(c->o.reorder_window / 16, 1);
	for (int k = 0; k < c->pend_cpus; k++) {
		if (!c->has_pend[k] || c->pushed - c->pend_at[k] < hold)
			continue;
		c->prev_ts[k] = c->pend[k].ts_ns;
		c->has_prev[k] = true;
		c->has_pend[k] = false;
		if (!heap_push(c, &c->pend[k], error))
			return false;
	}
	return true;
}

bool cap_push(struct cap_ctx *c, const struct cap_event *e, GError **error)
{
	int k = e->cpu;

	if (e->cpu < 0 || e->cpu >= IS_TRACE_MAX_CPUS)
		return cap_error(c, error, e->where, "cpu", "CPU %d outside 0..%d", e->cpu,
				 IS_TRACE_MAX_CPUS - 1);
	if (e->ts_ns < 0)
		return cap_error(c, error, e->where, "timestamp", "negative");
	if (!c->pend) {
		c->pend = g_new(struct cap_event, IS_TRACE_MAX_CPUS);
		c->has_pend = g_new0(bool, IS_TRACE_MAX_CPUS);
		c->has_prev = g_new0(bool, IS_TRACE_MAX_CPUS);
		c->prev_ts = g_new0(int64_t, IS_TRACE_MAX_CPUS);
		c->pend_at = g_new0(uint64_t, IS_TRACE_MAX_CPUS);
	}
	/* out of time order: later in the input than an event with a later time */
	if (c->pushed && e->where > c->last_where && e->ts_ns < c->max_in_ts)
		c->st.reordered++;
	c->max_in_ts = MAX(c->max_in_ts, e->ts_ns);
	c->last_where = e->where;
	c->pushed++;
	if (c->has_pend[k]) {
		const struct cap_event *p = &c->pend[k];

		if (c->has_prev[k] && jumped(c->prev_ts[k], p->ts_ns, e->ts_ns))
			return jump_error(c, p, c->prev_ts[k], e->ts_ns, error);
		c->prev_ts[k] = p->ts_ns;
		c->has_prev[k] = true;
		if (!heap_push(c, p, error))
			return false;
	}
	c->pend[k] = *e;
	c->has_pend[k] = true;
	c->pend_at[k] = c->pushed;
	if (k >= c->pend_cpus)
		c->pend_cpus = k + 1;
	return release_stale(c, error);
}

int cap_irq_type(const char *name, size_t len)
{
	static const struct { const char *name; int type; } known[] = {
		/* drivers/clocksource/arm_arch_timer.c request_percpu_irq() */
		{ "arch_timer", CAP_TIMER_IRQ },
		/* arch/arm64/kernel/smp.c, arch/powerpc/sysdev/xive, xics */
		{ "IPI", CAP_IPI_RECV },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(known); i++)
		if (len == strlen(known[i].name) && memcmp(name, known[i].name, len) == 0)
			return known[i].type;
	return CAP_IRQ;
}

uint64_t cap_event_count(const struct cap_ctx *c)
{
	return c->pushed;
}

/* The CPUs' last events, held back by cap_push(), in input order. */
static bool flush_pending(struct cap_ctx *c, GError **error)
{
	for (;;) {
		int best = -1;

		for (int k = 0; c->has_pend && k < IS_TRACE_MAX_CPUS; k++)
			if (c->has_pend[k] && (best < 0 || c->pend[k].where < c->pend[best].where))
				best = k;
		if (best < 0)
			return true;
		c->has_pend[best] = false;
		if (!heap_push(c, &c->pend[best], error))
			return false;
	}
}

/*
 * The HZ of a timer function's expiry grid, or 0: among the candidates
 * whose grid holds at least 9/10 of the best candidate's share of the
 * expiries, the coarsest (a 10 ms grid is also a 5 ms and a 1 ms one),
 * provided the best holds half of them or more (a stopped tick is armed
 * at the next timer event, off the grid: 26% of the tick's expiries in
 * the bundled arm64 capture).  Needs 16 expiries.
 */
static int func_hz(const struct func *f)
{
	uint64_t most = 0;
	int hz = 0;

	if (f->starts < 16)
		return 0;
	for (int h = 0; h < (int)G_N_ELEMENTS(hz_grid); h++)
		most = MAX(most, f->grid_hits[h]);
	if (most * 2 < f->starts)
		return 0;
	for (int h = 0; h < (int)G_N_ELEMENTS(hz_grid); h++)
		if (f->grid_hits[h] * 10 >= most * 9 && (!hz || hz_grid[h] < hz))
			hz = hz_grid[h];
	return hz;
}

/*
 * The capture's HZ, from its tick timer: the function with the most
 * expiries (16 or more) on the grid of some HZ (func_hz()).  Not given and
 * not 100 (the grid the reconstruction used): an error asking for --hz;
 * given and different: a warning in the summary.
 */
static bool hz_check(struct cap_ctx *c, GError **error)
{
	const struct func *best = NULL;
	int best_hz = 0;

	for (guint i = 0; i < c->funcs->len; i++) {
		const struct func *f = c->funcs->pdata[i];
		const int hz = func_hz(f);

		if (hz && (!best || f->starts > best->starts)) {
			best = f;
			best_hz = hz;
		}
	}
	if (!best)
		return true;
	c->st.hz_seen = best_hz;
	g_strlcpy(c->st.hz_function, best->name, sizeof(c->st.hz_function));
	if (!c->hz_given && c->st.hz_seen != c->o.hz) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: the tick timer (%s) runs on a %" G_GINT64_FORMAT " ns grid: HZ %d, "
			    "not the %d assumed: import again with --hz %d", c->path, best->name,
			    (gint64)(1000000000LL + best_hz / 2) / best_hz, c->st.hz_seen, c->o.hz, c->st.hz_seen);
		return false;
	}
	return true;
}

static int cmp_i64(gconstpointer a, gconstpointer b)
{
	const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The (lower) median of @a's non-negative values, sorting it; -1 with fewer than 20. */
static int64_t median20(GArray *a)
{
	if (a->len < 20)
		return -1;
	g_array_sort(a, cmp_i64);
	return g_array_index(a, int64_t, (a->len - 1) / 2);
}

/*
 * The machine's tick lateness (is_trace_header.tick_late_ns): the median,
 * over the tick timer's expiries whose expiry time is known, of the
 * expiry event's "now" (the hrtimer base's clock when the interrupt ran)
 * less that time.  Microseconds on hardware; in the QEMU TCG guests a
 * median of 100-500 us, with a tail of milliseconds.  Needs 20 expiries.
 */
static void tick_late(struct cap_ctx *c, struct is_trace_header *h)
{
	int64_t med = median20(c->tick_lates);

	c->st.tick_expiries = c->tick_lates->len;
	if (med < 0)
		return;
	c->st.tick_late_median_ns = med;
	h->tick_late_ns = MIN(med, 1000000000);
}

/*
 * The machine's poll overrun (is_trace_header.poll_overrun_ns): the median
 * duration of the polls that ended at their time limit (cause poll: left
 * without need_resched and without an interrupt), less cpuidle_poll_time()
 * of the table with its default disabled states.  poll_idle() reads the
 * clock once every POLL_IDLE_RELAX_COUNT relaxes (drivers/cpuidle/
 * poll_state.c, 6.12), so it notices the limit late; on hardware by a
 * fraction of a microsecond, in a TCG guest by tens.  The median: a poll
 * that took an interrupt ran longer.  Needs 20 such polls.
 */
static void poll_overrun(struct cap_ctx *c, struct is_trace_header *h)
{
	const int64_t limit = is_poll_time_limit(c->t, c->disabled, c->tick_nsec);
	int64_t med = median20(c->polls);

	c->st.poll_limit_ns = limit;
	c->st.poll_limit_periods = c->polls->len;
	if (med < 0)
		return;
	c->st.poll_median_ns = med;
	h->poll_overrun_ns = med > limit ? med - limit : 0;
}

bool cap_finish(struct cap_ctx *c, const char *out, enum is_trace_format fmt,
		const struct is_trace_header *hdr, struct is_capture_stats *stats,
		GError **error)
{
	struct is_trace_header h;
	struct is_trace_writer *w = NULL;
	bool ok = false;
	char line[200];

	if (!flush_pending(c, error))
		return false;
	while (c->hn)
		if (!release_one(c, error))
			return false;
	for (int i = 0; i <= c->maxcpu; i++) {
		struct ccpu *p = &c->cpu[i];

		if (p->phase == P_AFTER)
			finalize(c, i, p, false, false, p->exit);
		else if (p->phase == P_IDLE)
			c->st.partial_end++;
		flush_rej(c, p);
		p->phase = P_NONE;
	}
	release_held(c);
	if (!out_release(c, 0, true, error))
		return false;
	if (c->o.reset_governor[0] && !c->reset_seen) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: the governor was reset through %s (the bundle's governor_reset), "
			    "but the capture holds no \"idlesim-capture: governor %s\" marker",
			    c->path, c->o.reset_governor, c->o.reset_governor);
		return false;
	}
	if (!c->spooled) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: no complete idle period (power:cpu_idle entry and exit) found",
			    c->path);
		return false;
	}
	if (!hz_check(c, error))
		return false;
	is_trace_header_copy(&h, hdr);
	if (!c->hz_given && !c->st.hz_seen) {
		g_snprintf(line, sizeof(line), "# assumed: hz %d: the capture shows no tick timer "
			   "(import --hz sets it)", c->o.hz);
		is_trace_header_add_comment(&h, line);
	}
	if (c->o.running_tick_sleep == IS_RTS_TICK)
		is_trace_header_add_comment(&h, "# assumed: the sleep length of a selection that kept "
					    "a running tick is the next tick (import "
					    "--running-tick-sleep tick)");
	poll_overrun(c, &h);
	tick_late(c, &h);
	if (h.cpus <= c->maxcpu)
		h.cpus = c->maxcpu + 1;
	if (h.cpus < c->hint_cpus)
		h.cpus = c->hint_cpus;
	c->st.cpus = h.cpus;
	for (int i = 0; i <= c->maxcpu && i < h.cpus; i++)
		if (c->cpu[i].start_lres != INT64_MIN && c->cpu[i].start_lres) {
			is_trace_header_set_start_lres(&h, i, c->cpu[i].start_lres);
			c->st.start_lres_cpus++;
		}
	if (tick_func(c))
		g_strlcpy(c->st.tick_function,
			  ((struct func *)c->funcs->pdata[c->tick_func - 1])->name,
			  sizeof(c->st.tick_function));
	g_snprintf(line, sizeof(line),
		   "# import: %" G_GUINT64_FORMAT " periods, %" G_GUINT64_FORMAT
		   " with exact inputs; estimated: sleep %" G_GUINT64_FORMAT ", ts %"
		   G_GUINT64_FORMAT ", idle %" G_GUINT64_FORMAT, c->st.records, c->st.exact,
		   c->st.est_sleep, c->st.est_ts, c->st.est_idle);
	is_trace_header_add_comment(&h, line);
	w = is_trace_writer_open(out, fmt, &h, error);
	if (!w)
		goto out;
	rewind(c->spool);
	for (uint64_t i = 0; i < c->spooled; i++) {
		struct is_record r;

		if (fread(&r, sizeof(r), 1, c->spool) != 1) {
			g_set_error(error, IS_ERROR, IS_ERROR_IO, "temporary file: short read");
			is_trace_writer_abort(w);
			goto out;
		}
		if (!is_trace_write(w, &r, error)) {
			is_trace_writer_abort(w);
			goto out;
		}
	}
	if (!is_trace_writer_commit(w, error))
		goto out;
	ok = true;
	if (stats)
		*stats = c->st;
out:
	is_trace_header_clear(&h);
	return ok;
}
