/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The idle-loop model's per-record steps (sim.c's IDLE-LOOP MODEL), shared
 * by the event loop of one simulation (sim.c) and the lockstep loop of a
 * sweep's points (lanes.c), so that both take every step the same way.
 * Private to the library.
 */
#ifndef IDLESIM_SIM_MODEL_H
#define IDLESIM_SIM_MODEL_H

#include "idlesim/sim.h"
#include "../metrics/scorer.h"


/* a + b without overflow: kernel recordings carry near-KTIME_MAX deltas. */
static inline int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/*
 * What every simulation of @cfg needs (is_sim_new(), is_sim_lanes_new());
 * false with an error.  Governors and metrics rely on a table ordered
 * shallow to deep.
 */
static inline bool is_sim_config_ok(const struct is_sim_config *cfg, GError **error)
{
	if (!cfg->states || !cfg->gov || cfg->cpus < 1 || cfg->cpus > IS_TRACE_MAX_CPUS ||
	    cfg->poll_overrun_ns < 0 || cfg->poll_overrun_ns > 1000000000 ||
	    cfg->tick_late_ns < 0 || cfg->tick_late_ns > 1000000000 ||
	    cfg->hz < 1) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "simulation needs a state table, a governor, 1..4096 CPUs, HZ >= 1 "
			    "and a poll overrun and tick lateness of 0..1 s each");
		return false;
	}
	return is_states_validate(cfg->states, cfg->states->name, error);
}

/* A simulated CPU's random stream: independent of thread count and CPU order. */
static inline uint64_t is_model_rng_seed(uint64_t seed, int cpu)
{
	return seed ^ (IS_RNG_GOLDEN * (uint64_t)(cpu + 1));
}

/*
 * What the kernel's last sleep-length read said, for the records whose
 * governor did not read one (model mode): a tick expiry (tick_at, with the
 * tick running) and the next timer's expiry (timer_at); INT64_MIN: none
 * seen yet.  It follows the records only, never a decision.
 */
struct is_tick_track {
	int64_t tick_at, timer_at;
	/*
	 * The last read, with the tick running, saw no next event at all
	 * (KTIME_MAX): the tick device is not in NOHZ one-shot mode but
	 * periodic (boot, before the switch), whose ticks the model does
	 * not place.
	 */
	bool periodic;
};

/* The state the kernel entered in @rec: 1 a polling one, 0 another, -1 none recorded. */
static inline int kstate_polls(const struct is_record *rec, const struct is_state_table *drv)
{
	if (!(rec->has & IS_HAS_KSTATE) || rec->kstate < 0 || rec->kstate >= drv->count)
		return -1;
	return !!(drv->s[rec->kstate].flags & IS_STATE_POLLING);
}


/*
 * The tick of the model's timeline, and the inputs of a record whose
 * governor read none, from the series' sleep-length reads (records with
 * slr; a stock import's records keep t + tick_ns for both).
 *
 * The tick keeps a grid.  *delta_next is the time to the clock event
 * device's next event (tick_nohz_get_sleep_length()): the tick, or an
 * hrtimer before it.  Where the sleep length came out longer, that event
 * is the tick's; the kernel measured it from idle_entrytime, at or before
 * the select (a select after a poll limit shares the entry time of the
 * one before), so t plus it is the expiry or later and the earliest
 * reading of a grid point is the best.  The timeline's tick is the grid's
 * next point after @t once one is known: before 2026-12-06 it was
 * t + delta_next, and an hrtimer that delta_next named (246 us, in the
 * x86_64 guest's ebizzy runs) became a tick that cut the period where the
 * kernel's slept on.
 *
 * A record with slr=0 carries 0 for the sleep length and delta_next:
 * "not read", not "now".  Its delta_next is the grid's (one tick from @t
 * if none yet), due by the record's end if the kernel's retained tick
 * ended it; its sleep length reaches the later of the record's end (no
 * timer of the CPU expired before it, or it would have ended there) and a
 * timer read before, if still ahead.  Before 2026-12-06 the model took
 * the zeros as read: its tick was due at once (the ppc64le guest's teo on
 * hackbench: first divergence at its 856th period).
 */
/*
 * The sleep length of a record whose governor read none: the later of
 * its end (no timer of the CPU expired before it) and a timer read
 * before, if still ahead.
 */
static inline int64_t unread_sleep(const struct is_tick_track *c, int64_t t, int64_t left)
{
	return c->timer_at != INT64_MIN && c->timer_at - t > left ? c->timer_at - t : left;
}

static inline void tick_inputs(int64_t tick_nsec, const struct is_state_table *drv,
			       struct is_tick_track *c, const struct is_record *rec, int64_t left,
			       int64_t *sleep, int64_t *tick, int64_t *next_tick)
{
	const int64_t t = rec->t_ns;
	const bool read = rec->flags & IS_F_SLR;
	/* a reading of the tick itself: read, running, the sleep length longer */
	const bool tick_read = read && !(rec->flags & IS_F_TS) && rec->sleep_ns > rec->tick_ns;
	const int64_t at = sat_add(t, rec->tick_ns);
	int64_t grid;

	/*
	 * A stock import's records (no slr) keep their estimate: learning
	 * the grid from them too was tried (2026-12-06) and not made; see
	 * docs/model.md.
	 */
	*next_tick = at;
	if (!(rec->has & IS_HAS_SLR))
		return;
	if (read && !(rec->flags & IS_F_TS))
		c->periodic = rec->tick_ns >= INT64_MAX / 2;
	if (!read && c->periodic) {
		/*
		 * No tick the model can place (periodic mode): the recorded
		 * period stands, ended by what ended it in the kernel.  In
		 * the x86_64 guests' boots ticks came inside 20 ms periods
		 * without ending them; a tick one TICK_NSEC after the select
		 * cut them, and wteo-chosen's history parted there in 7 of
		 * the fourth collection's 30 runs (docs/model.md).
		 */
		*next_tick = INT64_MAX;
		*tick = INT64_MAX;
		*sleep = unread_sleep(c, t, left);
		return;
	}
	if (read) {
		c->timer_at = sat_add(t, rec->sleep_ns);
		if (tick_read) {
			int64_t d = INT64_MAX;

			if (c->tick_at != INT64_MIN) {
				d = (at - c->tick_at) % tick_nsec;
				if (d < 0)
					d += tick_nsec;
				if (d > tick_nsec / 2)
					d -= tick_nsec;
			}
			if (d == INT64_MAX || d < 0 || d > tick_nsec / 4)
				c->tick_at = at;
		}
	}
	if (c->tick_at == INT64_MIN) {
		if (read)
			return;
		grid = sat_add(t, tick_nsec);
	} else if (c->tick_at >= t) {
		grid = c->tick_at;
	} else {
		grid = t + (tick_nsec - (t - c->tick_at) % tick_nsec) % tick_nsec;
	}
	*next_tick = grid;
	if (read) {
		/*
		 * A reading of the tick (sleep length longer) names its own
		 * grid point, the last at or before t + delta_next, which
		 * may lie before the select: the tick expired between
		 * idle_entrytime and the select, with interrupts off, and
		 * comes as soon as the state is entered.
		 */
		if (tick_read) {
			int64_t p = grid;

			/* at < grid by less than a tick and a quarter, or no match */
			if (at < grid && grid - at <= tick_nsec + tick_nsec / 4)
				p = grid - tick_nsec;
			if (p <= at && at - p <= tick_nsec / 4)
				*next_tick = p;
		}
		return;
	}
	*tick = grid - t;
	/* the kernel's retained tick ended it: it was due by the end */
	if ((rec->has & IS_HAS_GT) && (rec->flags & IS_F_GT) && kstate_polls(rec, drv) == 0 &&
	    *tick > left) {
		*tick = left;
		*next_tick = t + left;
	}
	*sleep = unread_sleep(c, t, left);
}

/*
 * What a record gives every model selection in it, whatever the governor
 * chose: the same for every point of a sweep over the record.
 */
struct is_model_rec {
	int64_t left;        /* till the wakeup event: the exit latency taken out */
	int64_t sleep;       /* the first selection's sleep length */
	int64_t rtick;       /* and its *delta_next */
	int64_t next_tick;   /* the timeline's next tick */
	int64_t pass_ns;     /* each pass's time outside the state */
	bool rec_limit;      /* the kernel's poll time limit ended the period */
	bool rec_nolimit;    /* the kernel's poll ended by its wakeup */
	bool rec_tick;       /* the kernel's retained tick ended the period */
};

static inline void is_model_rec_init(struct is_model_rec *m, struct is_tick_track *tt,
				     const struct is_state_table *drv, int64_t tick_nsec,
				     bool exit_free, const struct is_record *rec)
{
	const int kpoll = kstate_polls(rec, drv);

	m->left = rec->idle_ns;
	m->sleep = rec->sleep_ns;
	m->rtick = rec->tick_ns;
	m->pass_ns = 0;
	m->rec_limit = rec->cause == IS_CAUSE_POLL ||
		       ((rec->has & IS_HAS_PL) && (rec->flags & IS_F_PL) && kpoll == 1);
	/*
	 * the kernel's poll in this record ended by its wakeup before it
	 * noticed its limit (poll_idle() reads the clock every 200 loops)
	 */
	m->rec_nolimit = kpoll == 1 && !m->rec_limit;
	m->rec_tick = rec->cause == IS_CAUSE_TICK ||
		      ((rec->has & IS_HAS_GT) && (rec->flags & IS_F_GT) && kpoll == 0);
	/* the recorded length holds the kernel's state's exit latency */
	if (!exit_free && kpoll == 0) {
		const int64_t paid = drv->s[rec->kstate].exit_latency_ns;

		m->left = m->left > paid ? m->left - paid : 0;
	}
	tick_inputs(tick_nsec, drv, tt, rec, m->left, &m->sleep, &m->rtick, &m->next_tick);
	/*
	 * The governor's clock runs from its select to its reflect: the pass
	 * outside the state (the governor, the entry and exit paths) on top
	 * of the residency.  The series' records measured it (span less
	 * lres); each of the model's passes in the record takes as long.
	 * teo's hit test compares it with the sleep length (time_span_ns,
	 * teo_reflect()).  Before 2026-12-06 the model's span was the
	 * residency alone: 4.7-16 us short in the guests, and teo counted a
	 * timer wakeup as an intercept in 5-80% of the training runs'
	 * periods where the kernel's counted a hit.
	 */
	if ((rec->has & (IS_HAS_SPAN | IS_HAS_LRES)) == (IS_HAS_SPAN | IS_HAS_LRES) &&
	    rec->span_ns > rec->lres_ns && rec->lres_ns >= 0)
		m->pass_ns = rec->span_ns - rec->lres_ns;
}

/* One CPU's timeline through the model's selections of one record. */
struct is_model_pass {
	int64_t t;           /* this selection's clock */
	int64_t left;        /* till the wakeup event */
	int64_t sleep;       /* the sleep length it reads */
	int64_t next_tick;
	int64_t entry;       /* ts->idle_entrytime */
	bool ts;             /* the tick stopped at this selection */
	bool cont;           /* a re-selection within the record */
};

static inline void is_model_pass_init(struct is_model_pass *p, const struct is_model_rec *m,
				      const struct is_record *rec, bool tick_stopped)
{
	p->t = rec->t_ns;
	p->left = m->left;
	p->sleep = m->sleep;
	p->next_tick = m->next_tick;
	p->entry = rec->t_ns;
	p->ts = tick_stopped;
	p->cont = false;
}

/*
 * The time till the tick's interrupt, which comes the machine's lateness
 * after its expiry; a tick whose interrupt is still to come is still the
 * next one.
 */
static inline int64_t is_model_delta_tick(struct is_model_pass *p, int64_t tick_nsec,
					  int64_t tick_late)
{
	int64_t delta_tick = sat_add(p->next_tick, tick_late) - p->t;

	if (p->cont && delta_tick <= 0) {
		p->next_tick += ((p->t - p->next_tick) / tick_nsec + 1) * tick_nsec;
		delta_tick = sat_add(p->next_tick, tick_late) - p->t;
	}
	return delta_tick;
}

/* *delta_next: the kernel's own reading first, then the timeline's tick. */
static inline int64_t is_model_delta_next(const struct is_model_pass *p,
					  const struct is_model_rec *m)
{
	return p->ts ? p->sleep : !p->cont ? m->rtick : p->next_tick - p->entry;
}

/* How a period in the chosen state ends. */
struct is_model_end {
	int64_t end;         /* its length till the wakeup */
	int64_t lres;        /* last_residency_ns: with the exit latency */
	enum is_cause cause;
	bool pl;             /* poll_time_limit */
	bool tick_in;        /* a tick inside a poll */
	bool got_tick;
};

static inline void is_model_end(const struct is_model_rec *m, const struct is_scorer *score,
				enum is_cause rcause, int idx, bool stopped, int64_t delta_tick,
				int64_t left, int64_t poll_lim, bool exit_free,
				struct is_model_end *e)
{
	int64_t exit_lat;

	e->end = left;
	e->cause = rcause;
	e->pl = false;
	e->tick_in = false;
	if (score->polling & (1u << idx)) {
		/*
		 * poll_idle() runs on through interrupts till
		 * need_resched() or its limit: a tick in it is handled
		 * (got_idle_tick, idle_entrytime) but does not end it.
		 * A record the kernel's own poll limit ended says when
		 * this CPU's poll notices its limit: there, whatever
		 * the machine's median overrun.
		 */
		if (m->rec_limit) {
			e->cause = IS_CAUSE_POLL;
			e->pl = true;
		} else if (e->end > poll_lim && !m->rec_nolimit) {
			e->end = poll_lim;
			e->cause = IS_CAUSE_POLL;
			e->pl = true;
		}
		e->tick_in = !stopped && delta_tick < e->end;
		exit_lat = 0;
	} else {
		if (m->rec_tick) {
			/*
			 * The recorded tick: at the record's end, even
			 * where the tick seems due later (the kernel
			 * measured *delta_next from idle_entrytime, up to
			 * 100 us before the select in the x86_64 guest).
			 * With the tick stopped, the tick's hrtimer waits
			 * for the next timer event, and its handler sets
			 * got_idle_tick all the same (tick_nohz_handler()).
			 */
			e->cause = IS_CAUSE_TICK;
		} else if (!stopped && delta_tick < e->end) {
			e->end = delta_tick > 0 ? delta_tick : 0;
			e->cause = IS_CAUSE_TICK;
		}
		/* an exit-free machine resumes at the wakeup */
		exit_lat = exit_free ? 0 : score->delay[idx];
	}
	e->lres = e->end + exit_lat;
	e->got_tick = e->cause == IS_CAUSE_TICK || e->tick_in;
}

/*
 * After the period: the clock moves on, and true if the model woke the
 * CPU (tick or poll limit) before the record's wakeup, so that it selects
 * again, with the inputs the kernel's next select would read.
 */
static inline bool is_model_next(struct is_model_pass *p, const struct is_model_end *e,
				 enum is_cause rcause, int64_t delta_tick, bool stopped)
{
	const int64_t lres = e->lres;

	p->t += lres;
	if (e->cause == rcause || p->left <= lres)
		return false;
	p->left -= lres;
	if (e->got_tick) {
		/*
		 * The tick's irq exit set idle_entrytime: when the CPU
		 * resumed, or inside a poll at the tick.
		 */
		int64_t at = !e->tick_in ? p->t : delta_tick > 0 ? p->t - lres + delta_tick :
								    p->t - lres;

		p->sleep = sat_add(p->sleep, -(at - p->entry));
		p->entry = at;
	}
	/*
	 * No timer of this CPU expires before the record's end, or it would
	 * have ended there: the kernel's next sleep length reaches at least
	 * that far.
	 */
	if (p->sleep < p->left + (p->t - p->entry))
		p->sleep = p->left + (p->t - p->entry);
	p->ts = e->cause == IS_CAUSE_POLL ? stopped : false;
	p->cont = true;
	return true;
}

#endif
