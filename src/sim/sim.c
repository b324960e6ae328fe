// SPDX-License-Identifier: GPL-2.0-only
/*
 * The event loop.
 *
 * Each idle record is one pass of the kernel's cpuidle_idle_call()
 * (kernel/sched/idle.c, Linux 6.12): cpuidle_select(), then the tick is
 * stopped if the governor asked for it or it was already stopped, then the
 * state is entered (cpuidle_enter_state(), drivers/cpuidle/cpuidle.c), then
 * cpuidle_reflect().
 *
 * IDLE-LOOP MODEL (IS_SIM_MODEL), the assumptions:
 *  - The record's idle_ns is the true time from select till the wakeup
 *    event named by its cause; it does not depend on the governor.
 *  - A retained tick fires at the record's tick boundary (t + tick_ns) and
 *    every TICK_NSEC after it, its interrupt arriving the machine's tick
 *    lateness later (is_sim_config.tick_late_ns, measured by the import
 *    from the tick timer's expiries, 0 by default; a tick still to arrive
 *    stays the next one, as the kernel's overdue delta_next shows); if it
 *    comes first it ends the period (got_tick), and the CPU, having
 *    nothing to run, selects again.  The
 *    polling state is the exception: poll_idle() (poll_state.c) is left
 *    only by need_resched() or its time limit, so a tick inside it only
 *    sets got_tick and moves idle_entrytime (below).
 *  - The polling state ends at cpuidle_poll_time() (6.12: the first enabled
 *    state's target residency of at least 10 us, capped at TICK_NSEC/16)
 *    with poll_time_limit set, and the CPU selects again.  The kernel checks
 *    the limit every POLL_IDLE_RELAX_COUNT (200) relax loops, so it notices
 *    it late: by well under a microsecond on hardware, by about 18 us in
 *    the QEMU (TCG) guests.  That overrun is a property of the machine
 *    (is_sim_config.poll_overrun_ns, measured by the import from the polls
 *    that ended at their limit, 0 by default): the poll ends at the limit
 *    plus the overrun.  A record that the kernel's own poll limit ended
 *    (cause poll, or the series' pl=1 on a polling state) says when this
 *    poll noticed its limit: a poll over it ends at the record's end with
 *    poll_time_limit set, whatever the median overrun (otherwise the half
 *    of such polls that overran less than the median ended "by a wakeup",
 *    and menu and teo learnt a short interval where the kernel's learnt
 *    the sleep length).
 *  - Leaving a non-polling state costs its exit latency: the CPU resumes
 *    exit_latency_ns after the wakeup event, and last_residency_ns (which the
 *    kernel measures around the enter call) includes it.  Entry latency and
 *    the governor's own run time are not modelled: a re-selection after a
 *    tick or poll-limit wakeup starts when the previous state was left.
 *  - A recorded period's length already holds the exit latency of the
 *    state the kernel entered (the kernel's own measurement, and a stock
 *    capture's exit event, come after it): the wakeup event is taken that
 *    much before the record's end (not before its start), so that the
 *    kernel's state gives back the kernel's measured residency and
 *    another state shifts it by the difference of the exit latencies.
 *    Where the machine paid less than the table's exit latency the
 *    kernel's own state is still exact; a machine that pays none (a TCG
 *    guest: is_sim_config.exit_free) records the wakeup itself, and its
 *    states cost nothing to leave in the model either: the CPU resumes
 *    at the wakeup and last_residency_ns is the time to it (the ppc64le
 *    guest's kernel measures exactly its recorded length).  Until
 *    2026-12-06 the model added the exit latency to a duration that held
 *    it already, and on the guests this was the first place the model's
 *    history parted from the kernel's (docs/model.md).
 *  - A record that the kernel's retained tick ended (cause tick in a stock
 *    import; got_tick in a non-polling state in the series' events) says
 *    when this CPU's tick interrupt came: a tick the model keeps, due
 *    before the record's end, ends the period there, with got_tick,
 *    whatever the machine's median tick lateness.  Before, the lateness
 *    put the model's tick after the record's end in about half of them
 *    (no got_tick: menu learnt a 10 ms interval where the kernel's
 *    learnt a long one) or before it (a re-selection the kernel did not
 *    make), as the poll limit's median overrun once did.
 *  - The tick stays stopped into the next record only if the wakeup ran no
 *    task (record flag nw), as tick_nohz_idle_exit() restarts it otherwise.
 *    When it is stopped, tick_nohz_get_sleep_length()'s *delta_next is the
 *    next programmed event, i.e. the sleep length.
 *  - A re-selection inside a record sees a sleep length that reaches at
 *    least the record's end: no timer of the CPU expired before it, or
 *    the record would have ended there (a cancelled or moved timer aside).
 *    The record's own sleep length, taken down by the time spent, may fall
 *    short of it when the capture's estimate was short or the kernel's
 *    timer moved; the kernel would read the timers anew.  Without this
 *    floor, a sleep length gone negative kept the model polling until the
 *    record's end (up to 1,300 re-selections per kernel selection in the
 *    guests' runs).
 *  - tick_nohz_get_sleep_length() measures from ts->idle_entrytime, which
 *    is set when the idle loop begins and at every irq exit in it
 *    (tick_nohz_start_idle(), kernel/time/tick-sched.c, 6.12).  So a
 *    re-selection after a retained tick sees the record's sleep length
 *    minus the time till the tick's irq (it may become negative, as the
 *    kernel's can) and delta_next from that moment, and so does one after
 *    a poll time limit with a tick inside the poll; one after a poll time
 *    limit with no irq in between sees the same sleep length and
 *    delta_next as the selection before it.  The series' traces show this
 *    in QEMU.
 * The ideal state of every selection is judged on the time left till the
 * true wakeup event, so wakeups the governor caused itself (retained tick,
 * poll limit) do not make its choice look right.
 *
 * EXACT mode (IS_SIM_EXACT) gives the governor the recorded raw inputs
 * verbatim and takes the recorded state as the one entered: a negative
 * last_residency_ns or span (the clock ran backwards within the pass) is
 * handed on as it is, and each governor applies the kernel's types to it.
 * The metrics score such a period as the kernel's cpuidle_enter_state()
 * counts it: its s64 residency is added to the state's time (which goes
 * down) and judged against the target residency (an "above" miss).
 *
 * In MODEL mode a record's idle_ns is the period's length; an importer
 * gives a pass whose clock ran backwards idle_ns 0 (and marks it
 * est=idle): the model takes it as a wakeup at once.
 */
#include <string.h>

#include "idlesim/sim.h"
#include "model.h"

/* Records decoded per call to a source that can hand out several. */
#define SIM_BATCH 4

struct sim_cpu {
	void *gov;
	struct is_gov_env env;
	uint64_t rng;
	bool tick_stopped;
	int64_t poll_lim;         /* for env.disabled (INT64_MAX: none) */
	struct is_tick_track tt;  /* model.h */
	struct is_scorer score;
	struct is_metrics_acc acc;
	struct is_metrics m;      /* is_sim_cpu_metrics()'s copy */
};

struct is_sim {
	struct is_sim_config cfg;
	int64_t tick_nsec;
	struct sim_cpu *cpu;
	uint64_t records;
	is_decision_fn observer;
	void *observer_ctx;
	const struct is_source *src;
	void *inst;  /* the governor's instance_new() */
};

/*
 * a + b as the kernel's u64 clock arithmetic does it, wrapping: the exact
 * path hands the governor local_clock() at reflect as t + span, and the
 * governor's (u64)now - (u64)then must give back the recorded span, even a
 * negative one or one near KTIME_MAX.
 */
static inline int64_t wrap_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

/* Whether @rec's selections count in the metrics (is_sim_config's window). */
static inline bool measured(const struct is_sim *s, const struct is_record *rec)
{
	return !s->cfg.measure_to_ns ||
	       (rec->t_ns >= s->cfg.measure_from_ns && rec->t_ns < s->cfg.measure_to_ns);
}

int64_t is_tick_nsec(int hz)
{
	/* include/vdso/jiffies.h: TICK_NSEC ((NSEC_PER_SEC + HZ / 2) / HZ) */
	return (1000000000LL + hz / 2) / hz;
}

int64_t is_poll_time_limit(const struct is_state_table *t, uint32_t disabled,
			   int64_t tick_nsec)
{
	/* cpuidle_poll_time(), drivers/cpuidle/cpuidle.c, Linux 6.12 */
	const uint64_t poll_min = 10000, poll_max = (uint64_t)tick_nsec / 16;
	uint64_t limit_ns = poll_max;

	for (int i = 1; i < t->count; i++) {
		uint64_t state_limit;

		if (disabled & (1u << i))
			continue;
		state_limit = (uint64_t)t->s[i].target_residency_ns;
		if (state_limit < poll_min)
			continue;
		limit_ns = state_limit < poll_max ? state_limit : poll_max;
		break;
	}
	return (int64_t)limit_ns;
}

/* Every change of a CPU's disable mask goes through here. */
static void set_disabled(const struct is_sim *s, struct sim_cpu *c, uint32_t disabled)
{
	c->env.disabled = disabled;
	/*
	 * cpuidle_poll_time() for the new mask.  A recorded decision's period
	 * already ended where the kernel's poll loop did (its own limit, e.g.
	 * powernv's snooze timeout): the model must not cut it again.
	 */
	c->poll_lim = s->cfg.gov->needs_recorded ? INT64_MAX :
		      is_poll_time_limit(s->cfg.states, disabled, s->tick_nsec) +
			      s->cfg.poll_overrun_ns;
}

struct is_sim *is_sim_new(const struct is_sim_config *cfg, GError **error)
{
	struct is_sim *s;

	if (!is_sim_config_ok(cfg, error))
		return NULL;
	s = g_new0(struct is_sim, 1);
	s->cfg = *cfg;
	s->tick_nsec = is_tick_nsec(cfg->hz);
	s->cpu = g_new0(struct sim_cpu, cfg->cpus);
	if (cfg->gov->instance_new) {
		s->inst = cfg->gov->instance_new(cfg->gov, &s->cfg.params, cfg->cpus, error);
		if (!s->inst) {
			g_free(s->cpu);
			g_free(s);
			return NULL;
		}
	}
	for (int i = 0; i < cfg->cpus; i++) {
		struct sim_cpu *c = &s->cpu[i];

		c->env.drv = cfg->states;
		c->env.params = &s->cfg.params;
		c->env.tick_nsec = s->tick_nsec;
		c->env.cpu = i;
		c->env.inst = s->inst;
		c->env.last_residency_ns = cfg->start_lres_ns ? cfg->start_lres_ns[i] : 0;
		/* Per-CPU stream: independent of thread count and CPU order. */
		c->rng = is_model_rng_seed(cfg->seed, i);
		c->tt.tick_at = c->tt.timer_at = INT64_MIN;
		set_disabled(s, c, cfg->disabled);
		is_metrics_acc_init(&c->acc);
		c->gov = cfg->gov->state_size ? g_malloc0(cfg->gov->state_size) : NULL;
		if (cfg->gov->init && cfg->gov->init(c->gov, &c->env) < 0) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "governor %s failed to initialise CPU %d", cfg->gov->name, i);
			is_sim_free(s);
			return NULL;
		}
	}
	return s;
}

void is_sim_free(struct is_sim *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->cfg.cpus; i++)
		g_free(s->cpu[i].gov);
	if (s->inst)
		s->cfg.gov->instance_free(s->inst);
	g_free(s->cpu);
	g_free(s);
}

void is_sim_set_observer(struct is_sim *s, is_decision_fn fn, void *ctx)
{
	s->observer = fn;
	s->observer_ctx = ctx;
}

void is_sim_set_window(struct is_sim *s, int64_t from_ns, int64_t to_ns)
{
	s->cfg.measure_from_ns = from_ns;
	s->cfg.measure_to_ns = to_ns;
}

static bool bad_state(struct is_sim *s, int idx, GError **error)
{
	if (idx < 0 && s->cfg.gov->needs_recorded) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "record %" G_GUINT64_FORMAT ": no recorded decision (k=) to replay",
			    s->records + 1);
		return false;
	}
	g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
		    "record %" G_GUINT64_FORMAT ": governor %s returned state %d outside 0..%d",
		    s->records + 1, s->cfg.gov->name, idx, s->cfg.states->count - 1);
	return false;
}

static void observe(struct is_sim *s, const struct is_record *rec, int idx, bool stop,
		    const struct is_gov_call *call, bool cont, const struct is_gov_wake *w,
		    int64_t idle_ns, enum is_cause cause)
{
	struct is_decision d = {
		.cpu = rec->cpu,
		.record = s->records,
		.t_ns = call->now_ns,
		.state = idx,
		.ideal = call->oracle_state,
		.stop_tick = stop,
		.sleep_length_read = call->sleep_length_read_,
		.draw_used = call->draw_used_,
		.draw = call->draw_,
		.rec = rec,
		.continuation = cont,
		.sleep_ns = call->sleep_length_ns_,
		.delta_next_ns = call->delta_next_ns_,
		.latency_req_ns = call->latency_req_ns,
		.tick_stopped = call->tick_stopped,
		.entered = w->entered,
		.idle_ns = idle_ns,
		.last_residency_ns = w->last_residency_ns,
		.span_ns = (int64_t)((uint64_t)w->now_ns - (uint64_t)call->now_ns),
		.cause = cause,
		.got_tick = w->got_tick,
		.poll_time_limit = w->poll_time_limit,
	};

	s->observer(s->observer_ctx, &d);
}

/*
 * A pass whose entry the kernel refused (rej=1; call_cpuidle(): a task
 * woke between select and entry, -EBUSY): no entry, no reflect, and
 * last_residency_ns 0, as cpuidle_enter_state() leaves it.  @count: add
 * it to the rejected counts (the exact path counts every one, the model
 * those in the measured window).
 */
static void refused(struct is_sim *s, struct sim_cpu *c, const struct is_record *rec, int idx,
		    bool stop, const struct is_gov_call *call, bool count)
{
	const struct is_gov_wake none = { .entered = -1, .now_ns = rec->t_ns };

	c->env.last_residency_ns = 0;
	if (count)
		c->acc.rejected[idx]++;
	if (s->observer)
		observe(s, rec, idx, stop, call, false, &none, 0, rec->cause);
}

static bool feed_exact(struct is_sim *s, struct sim_cpu *c, const struct is_record *rec,
		       GError **error)
{
	const struct is_governor *g = s->cfg.gov;
	const unsigned need = IS_HAS_KSTATE | IS_HAS_SPAN | IS_HAS_LRES | IS_HAS_GT | IS_HAS_PL;
	struct is_gov_call call = {
		.now_ns = rec->t_ns,
		.latency_req_ns = rec->lat_ns,
		.tick_stopped = rec->flags & IS_F_TS,
		.sleep_length_ns_ = rec->sleep_ns,
		.delta_next_ns_ = rec->tick_ns,
		.nr_iowait = (rec->flags & IS_F_IOW) ? rec->iowait : 0,
		.has_draw_ = rec->has & IS_HAS_DRAW,
		.draw_ = rec->draw,
		.rng_ = &c->rng,
		.oracle_idle_ns = rec->idle_ns,
		.recorded_state = (rec->has & IS_HAS_KSTATE) ? rec->kstate : -1,
		.recorded_stop = (rec->has & IS_HAS_KSTOP) ? !!(rec->flags & IS_F_KSTOP) : -1,
	};
	int ideal = is_ideal_cached(&c->score, s->cfg.states, c->env.disabled, rec->lat_ns,
				    rec->idle_ns);
	struct is_gov_wake wake;
	struct is_period_score sc;
	bool stop = true;
	int idx, entered;

	call.oracle_state = ideal;
	if ((rec->has & need) != need) {
		static const char *const names[] = { "k", "stop", "span", "lres", "gt", "pl" };
		unsigned missing = need & ~rec->has;

		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "record %" G_GUINT64_FORMAT ": field '%s' is required for exact replay",
			    s->records + 1, names[__builtin_ctz(missing)]);
		return false;
	}
	idx = g->select(c->gov, &c->env, &call, &stop);
	if (idx < 0 || idx >= s->cfg.states->count)
		return bad_state(s, idx, error);
	if (rec->flags & IS_F_REJ) {
		refused(s, c, rec, idx, stop, &call, true);
		return true;
	}
	entered = rec->kstate;
	c->env.last_residency_ns = rec->lres_ns;
	wake = (struct is_gov_wake){
		.entered = entered,
		.now_ns = wrap_add(rec->t_ns, rec->span_ns),
		.last_residency_ns = rec->lres_ns,
		.got_tick = rec->flags & IS_F_GT,
		.poll_time_limit = rec->flags & IS_F_PL,
	};
	if (g->reflect)
		g->reflect(c->gov, &c->env, &wake);
	if (s->observer)
		observe(s, rec, idx, stop, &call, false, &wake, rec->idle_ns, rec->cause);
	sc = (struct is_period_score){
		.chosen = entered,
		.stop_tick = stop,
		.tick_stopped = stop || (rec->flags & IS_F_TS),
		.sleep_length_read = call.sleep_length_read_,
		.draw_used = call.draw_used_,
		.ideal = ideal,
		.idle_ns = rec->idle_ns,
		.last_residency_ns = rec->lres_ns,
		.cause = rec->cause,
		.disabled = c->env.disabled,
		.latency_req_ns = rec->lat_ns,
	};
	if (measured(s, rec))
		is_metrics_acc_score(&c->acc, &c->score, &sc);
	return true;
}


static bool feed_model(struct is_sim *s, struct sim_cpu *c, const struct is_record *rec,
		       GError **error)
{
	const struct is_governor *g = s->cfg.gov;
	const struct is_state_table *drv = s->cfg.states;
	const int64_t tick_nsec = s->tick_nsec, tick_late = s->cfg.tick_late_ns;
	struct is_scorer *score = &c->score;
	struct is_model_rec m;
	struct is_model_pass p;

	is_model_rec_init(&m, &c->tt, drv, tick_nsec, s->cfg.exit_free, rec);
	is_model_pass_init(&p, &m, rec, c->tick_stopped);
	/* What stays the same over the re-selections of one record. */
	struct is_gov_call call = {
		.latency_req_ns = rec->lat_ns,
		.nr_iowait = (rec->flags & IS_F_IOW) ? rec->iowait : 0,
		.has_draw_ = rec->has & IS_HAS_DRAW,
		.draw_ = rec->draw,
		.rng_ = &c->rng,
		.recorded_state = (rec->has & IS_HAS_KSTATE) ? rec->kstate : -1,
		.recorded_stop = (rec->has & IS_HAS_KSTOP) ? !!(rec->flags & IS_F_KSTOP) : -1,
	};

	is_scorer_use(score, drv, c->env.disabled, rec->lat_ns);
	for (;;) {
		struct is_gov_wake wake;
		struct is_period_score sc;
		struct is_model_end e;
		bool stop = true, stopped;
		int64_t delta_tick;
		int idx, ideal;

		delta_tick = is_model_delta_tick(&p, tick_nsec, tick_late);
		ideal = is_scorer_ideal(score, p.left);
		call.now_ns = p.t;
		call.tick_stopped = p.ts;
		call.sleep_length_ns_ = p.sleep;
		call.delta_next_ns_ = is_model_delta_next(&p, &m);
		call.sleep_length_read_ = false;
		call.draw_used_ = false;
		call.oracle_idle_ns = p.left;
		call.oracle_state = ideal;
		idx = g->select(c->gov, &c->env, &call, &stop);
		if (__builtin_expect(idx < 0 || idx >= drv->count, 0))
			return bad_state(s, idx, error);
		if (__builtin_expect(g->needs_recorded, 0) && measured(s, rec))
			c->acc.tick_assumed += call.recorded_stop < 0;
		stopped = stop || p.ts;
		if (rec->flags & IS_F_REJ) {
			/* whatever the state: the kernel's entry was refused */
			refused(s, c, rec, idx, stop, &call, measured(s, rec));
			c->tick_stopped = stopped && (rec->flags & IS_F_NOWORK);
			if (s->src && s->src->feedback)
				s->src->feedback(s->src->ctx, rec->cpu, p.t);
			return true;
		}
		is_model_end(&m, score, rec->cause, idx, stopped, delta_tick, p.left, c->poll_lim,
			     s->cfg.exit_free, &e);
		c->env.last_residency_ns = e.lres;
		wake = (struct is_gov_wake){
			.entered = idx,
			.now_ns = p.t + e.lres + m.pass_ns,
			.last_residency_ns = e.lres,
			.got_tick = e.got_tick,
			.poll_time_limit = e.pl,
		};
		if (g->reflect)
			g->reflect(c->gov, &c->env, &wake);
		if (s->observer)
			observe(s, rec, idx, stop, &call, p.cont, &wake, e.end, e.cause);
		sc = (struct is_period_score){
			.chosen = idx,
			.stop_tick = stop,
			.tick_stopped = stopped,
			.sleep_length_read = call.sleep_length_read_,
			.draw_used = call.draw_used_,
			.ideal = ideal,
			.idle_ns = e.end,
			.last_residency_ns = e.lres,
			.cause = e.cause,
			.disabled = c->env.disabled,
			.latency_req_ns = rec->lat_ns,
		};
		if (measured(s, rec))
			is_metrics_acc_score(&c->acc, score, &sc);
		if (is_model_next(&p, &e, rec->cause, delta_tick, stopped)) {
			/* a recorded draw belongs to the record's first selection */
			call.has_draw_ = false;
			continue;
		}
		c->tick_stopped = stopped && (rec->flags & IS_F_NOWORK);
		if (s->src && s->src->feedback)
			s->src->feedback(s->src->ctx, rec->cpu, p.t);
		return true;
	}
}

bool is_sim_feed(struct is_sim *s, const struct is_record *rec, GError **error)
{
	bool ok = true;

	if (rec->cpu >= s->cfg.cpus && !(rec->kind == IS_REC_STATE && rec->cpu == IS_CPU_ALL)) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "record %" G_GUINT64_FORMAT ": cpu %u but the simulation has %d CPUs",
			    s->records + 1, rec->cpu, s->cfg.cpus);
		return false;
	}
	if (rec->kind == IS_REC_STATE) {
		int lo = rec->cpu == IS_CPU_ALL ? 0 : rec->cpu;
		int hi = rec->cpu == IS_CPU_ALL ? s->cfg.cpus : rec->cpu + 1;

		for (int i = lo; i < hi; i++)
			set_disabled(s, &s->cpu[i], rec->disable ?
				     s->cpu[i].env.disabled | 1u << rec->kstate :
				     s->cpu[i].env.disabled & ~(1u << rec->kstate));
	} else if (s->cfg.mode == IS_SIM_EXACT) {
		ok = feed_exact(s, &s->cpu[rec->cpu], rec, error);
	} else {
		ok = feed_model(s, &s->cpu[rec->cpu], rec, error);
	}
	if (ok)
		s->records++;
	return ok;
}

bool is_sim_run(struct is_sim *s, const struct is_source *src, GError **error)
{
	struct is_record rec;
	int r;

	s->src = src;
	if (src->next_batch && !src->feedback) {
		struct is_record recs[SIM_BATCH];

		while ((r = src->next_batch(src->ctx, recs, SIM_BATCH, error)) > 0)
			for (int i = 0; i < r; i++)
				if (!is_sim_feed(s, &recs[i], error)) {
					s->src = NULL;
					return false;
				}
	} else {
		while ((r = src->next(src->ctx, &rec, error)) > 0)
			if (!is_sim_feed(s, &rec, error)) {
				r = -1;
				break;
			}
	}
	s->src = NULL;
	return r == 0;
}

const struct is_metrics *is_sim_cpu_metrics(struct is_sim *s, int cpu)
{
	is_metrics_acc_finish(&s->cpu[cpu].acc, &s->cpu[cpu].m);
	return &s->cpu[cpu].m;
}

void is_sim_total(const struct is_sim *s, struct is_metrics *out)
{
	struct is_metrics m;

	is_metrics_init(out);
	for (int i = 0; i < s->cfg.cpus; i++) {
		is_metrics_acc_finish(&s->cpu[i].acc, &m);
		is_metrics_add(out, &m);
	}
}

uint64_t is_sim_records(const struct is_sim *s)
{
	return s->records;
}

bool is_sim_dump(const struct is_sim *s, GString *out)
{
	if (!s->cfg.gov->dump)
		return false;
	for (int i = 0; i < s->cfg.cpus; i++)
		s->cfg.gov->dump(s->cpu[i].gov, &s->cpu[i].env, out);
	return true;
}

const void *is_sim_gov_state(const struct is_sim *s, int cpu)
{
	return s->cpu[cpu].gov;
}

static int reader_next(void *ctx, struct is_record *rec, GError **error)
{
	return is_trace_next(ctx, rec, error);
}

static int reader_next_batch(void *ctx, struct is_record *recs, int max, GError **error)
{
	return is_trace_next_batch(ctx, recs, max, error);
}

void is_source_from_reader(struct is_source *src, struct is_trace_reader *r)
{
	src->ctx = r;
	src->next = reader_next;
	src->next_batch = reader_next_batch;
	src->feedback = NULL;
}
