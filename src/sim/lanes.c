// SPDX-License-Identifier: GPL-2.0-only
/*
 * The event loop for IS_LANES points of a sweep at once: one governor, one
 * trace, different params (and seeds).  Each record is taken once for all
 * lanes: what the idle-loop model makes of it whatever the governor chose
 * (model.h's is_model_rec: the exit latency taken out, the tick timeline,
 * the ideal state of the first selection) is computed once, into its CPU's
 * queue.  Then the governor's lanes_select() makes one selection for every
 * lane at once, and how each lane's period ends, whether it selects again
 * and what it adds to its metrics are sim.c's feed_model() steps done on
 * vectors, the lanes' choices as masks (no branch per lane).
 *
 * Each lane's metrics are bit for bit those of a simulation of its own
 * (is_sim_new() with that lane's params and seed); tests/test-lanes.c
 * checks this.  Only what a sweep needs is here: model mode, no observer,
 * no measurement window, a disable mask that no record changes, and a
 * governor with lanes that covers the table and the params
 * (is_sim_lanes_supported()).
 */
#include <string.h>

#include "idlesim/sim.h"
#include "model.h"
#include "lanes_vec.h"

/*
 * Records of one CPU waiting for its lanes, with what the model makes of
 * each whatever the governor chose (is_model_rec), one 64-byte entry each.
 * Lanes move through them at their own pace: a lane whose selection was
 * its record's last takes the next record while another re-selects within
 * the same one, so no lane idles while others select again (in lockstep by
 * record, a third of wteo's vector selections had idle lanes).  The queue
 * is run to its end when it is full, before a record whose latency limit
 * differs (the governor's and the scorer's constants then hold for every
 * lane), and at the totals.
 */
#define QCAP 256

enum { Q_T, Q_LEFT, Q_SLEEP, Q_NEXT_TICK, Q_RTICK, Q_PASS, Q_BITS, Q_FIELDS = 8 };

/* Q_BITS: the cause, flags and ideal state in the low word, the draw in the high one */
enum {
	QB_HAS_DRAW = 1 << 3, QB_REJ = 1 << 4, QB_NOWORK = 1 << 5, QB_LIMIT = 1 << 6,
	QB_NOLIMIT = 1 << 7, QB_TICK = 1 << 8, QB_IDEAL_SHIFT = 9,
};

struct lanes_queue {
	int n;
	int64_t lat_ns;
	int64_t e[QCAP][Q_FIELDS];
};

struct lanes_cpu {
	void *gov;
	struct is_gov_env env;
	struct is_tick_track tt;
	struct is_scorer score;
	struct lanes_queue q;
	uint64_t rng[IS_LANES];
	int64_t tick_stopped[IS_LANES];      /* mask */
	int64_t last_residency_ns[IS_LANES];
	/* the tally, as struct is_metrics_acc's, the sums held as lanes */
	struct is_metrics_acc acc[IS_LANES];
	int64_t time_ns[IS_STATE_MAX][IS_LANES];
	int64_t above[IS_STATE_MAX][IS_LANES];
	int64_t below[IS_STATE_MAX][IS_LANES];
	int64_t idle_ns[IS_LANES];
	double energy[IS_LANES];
};

struct is_sim_lanes {
	struct is_sim_config cfg;
	struct is_params p[IS_LANES];
	int n;
	int64_t tick_nsec;
	int64_t poll_lim;
	uint64_t records;
	struct lanes_cpu *cpu;
};

bool is_sim_lanes_supported(const struct is_sim_config *cfg, const struct is_params *p, int n)
{
	const struct is_governor *g = cfg->gov;

	return tl_cpu_ok() && g && g->lanes_select && !g->needs_recorded && !g->instance_new &&
	       cfg->mode == IS_SIM_MODEL && !cfg->measure_to_ns && n >= 1 && n <= IS_LANES &&
	       cfg->states && g->lanes_ok(cfg->states, cfg->disabled, p, n);
}

struct is_sim_lanes *is_sim_lanes_new(const struct is_sim_config *cfg, const struct is_params *p,
				      const uint64_t *seed, int n, GError **error)
{
	struct is_sim_lanes *s;

	if (!is_sim_lanes_supported(cfg, p, n)) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "governor %s has no lanes for this table and these params",
			    cfg->gov ? cfg->gov->name : "(none)");
		return NULL;
	}
	if (!is_sim_config_ok(cfg, error))
		return NULL;
	s = g_new0(struct is_sim_lanes, 1);
	s->cfg = *cfg;
	s->n = n;
	/* lanes past n run the last point again; their results are not read */
	for (int l = 0; l < IS_LANES; l++)
		s->p[l] = p[l < n ? l : n - 1];
	s->tick_nsec = is_tick_nsec(cfg->hz);
	s->poll_lim = is_poll_time_limit(cfg->states, cfg->disabled, s->tick_nsec) +
		      cfg->poll_overrun_ns;
	s->cpu = g_new0(struct lanes_cpu, cfg->cpus);
	for (int i = 0; i < cfg->cpus; i++) {
		struct lanes_cpu *c = &s->cpu[i];

		c->env.drv = cfg->states;
		c->env.params = &s->p[0];
		c->env.tick_nsec = s->tick_nsec;
		c->env.cpu = i;
		c->env.disabled = cfg->disabled;
		c->tt.tick_at = c->tt.timer_at = INT64_MIN;
		/* each lane's stream is the one its own simulation would draw from */
		c->env.last_residency_ns = cfg->start_lres_ns ? cfg->start_lres_ns[i] : 0;
		for (int l = 0; l < IS_LANES; l++) {
			c->rng[l] = is_model_rng_seed(seed[l < n ? l : n - 1], i);
			c->last_residency_ns[l] = c->env.last_residency_ns;
			is_metrics_acc_init(&c->acc[l]);
		}
		/* vectors of IS_LANES 64-bit lanes: aligned as the widest loads want */
		c->gov = g_aligned_alloc0(1, cfg->gov->lanes_state_size, 64);
		if (cfg->gov->lanes_init(c->gov, &c->env, s->p) < 0) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "governor %s failed to initialise CPU %d", cfg->gov->name, i);
			is_sim_lanes_free(s);
			return NULL;
		}
	}
	return s;
}

void is_sim_lanes_free(struct is_sim_lanes *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->cfg.cpus; i++)
		g_aligned_free(s->cpu[i].gov);
	g_free(s->cpu);
	g_free(s);
}

#if IS_HAVE_LANES
/* is_scorer_ideal() lane by lane */
TL_HOT tl_q lanes_ideal(const struct is_scorer *c, tl_q idle_ns)
{
	int64_t pick[IS_LANES];
	tl_q n = { 0 };

	/* m <= 7 candidates here (a table of at most 7 states) */
	for (int k = 0; k < c->m; k++)
		n -= (tl_q)(TL_Q(c->thr[k]) <= idle_ns);
	for (int k = 0; k < IS_LANES; k++)
		pick[k] = c->pick[k];
	return tl_lookup(pick, n);
}

/* The entries q->e[at] of the lanes as Q_FIELDS vectors across the lanes. */
TL_HOT void lanes_entries(const struct lanes_queue *q, tl_q at, tl_q f[Q_FIELDS])
{
	const tl_q p0 = { 0, 8, 2, 10, 4, 12, 6, 14 }, p1 = { 1, 9, 3, 11, 5, 13, 7, 15 };
	const tl_q s0 = { 0, 1, 8, 9, 4, 5, 12, 13 }, s1 = { 2, 3, 10, 11, 6, 7, 14, 15 };
	const tl_q h0 = { 0, 1, 2, 3, 8, 9, 10, 11 }, h1 = { 4, 5, 6, 7, 12, 13, 14, 15 };
	tl_q r[8], a[8], b[8];

	G_STATIC_ASSERT(IS_LANES == 8 && Q_FIELDS == 8);
	for (int l = 0; l < 8; l++)
		r[l] = tl_load(q->e[at[l]]);
	for (int k = 0; k < 4; k++) {
		a[2 * k] = __builtin_shuffle(r[2 * k], r[2 * k + 1], p0);
		a[2 * k + 1] = __builtin_shuffle(r[2 * k], r[2 * k + 1], p1);
	}
	for (int k = 0; k < 2; k++) {
		b[4 * k] = __builtin_shuffle(a[4 * k], a[4 * k + 2], s0);
		b[4 * k + 1] = __builtin_shuffle(a[4 * k + 1], a[4 * k + 3], s0);
		b[4 * k + 2] = __builtin_shuffle(a[4 * k], a[4 * k + 2], s1);
		b[4 * k + 3] = __builtin_shuffle(a[4 * k + 1], a[4 * k + 3], s1);
	}
	for (int k = 0; k < 4; k++) {
		f[k] = __builtin_shuffle(b[k], b[k + 4], h0);
		f[k + 4] = __builtin_shuffle(b[k], b[k + 4], h1);
	}
}

/* A mask from a bit of the lanes' Q_BITS */
TL_HOT tl_q qbit(tl_q bits, int bit)
{
	return (bits & bit) != 0;
}

/*
 * feed_model() of sim.c (model.h's steps) for every lane of @c, over the
 * records of its queue: the same arithmetic on vectors, the lanes' choices
 * and their records' flags as masks.
 */
TL_TARGET static void run_queue(struct is_sim_lanes *s, struct lanes_cpu *c)
{
	const struct is_governor *g = s->cfg.gov;
	const struct is_state_table *drv = s->cfg.states;
	const struct lanes_queue *q = &c->q;
	const int64_t tick_nsec = s->tick_nsec, tick_late = s->cfg.tick_late_ns;
	const struct is_scorer *score = &c->score;
	struct is_gov_lanes_call call;
	struct is_gov_lanes_wake wake;
	int64_t delay[IS_LANES] = { 0 }, residency[IS_LANES] = { 0 }, below_thr[IS_LANES] = { 0 };
	double power[IS_LANES] = { 0 }, transition[IS_LANES] = { 0 };
	/* each lane's place: its record (at), and its pass through it */
	tl_q at = { 0 }, fresh = TL_Q(-1), t = { 0 }, left = { 0 }, sleep = { 0 };
	tl_q next_tick = { 0 }, entry = { 0 }, cont = { 0 }, has_draw = { 0 };
	tl_q rtick = { 0 }, pass = { 0 }, bits = { 0 };
	tl_q ts = tl_load(c->tick_stopped), lres_all = tl_load(c->last_residency_ns);
	tl_d energy;

	if (!q->n)
		return;
	for (int i = 0; i < drv->count; i++) {
		delay[i] = s->cfg.exit_free ? 0 : score->delay[i];
		residency[i] = score->residency[i];
		below_thr[i] = score->below_thr[i];
		power[i] = score->power[i];
		transition[i] = score->transition[i];
	}
	call.latency_req_ns = q->lat_ns;
	call.rng = c->rng;
	memcpy(&energy, c->energy, sizeof(energy));
	for (;;) {
		tl_q act, dtk, idx, stop, stopped, polling, plim, end, cause, tick_in, tk, lres, again;
		tl_q ideal, res, got_tick, rcause, rej, live, done, rl;

		act = at < TL_Q(q->n);
		if (!tl_any(act))
			break;
		/* a lane past the end reads the last record, its results unused */
		at = tl_min_q(at, TL_Q(q->n - 1));
		/* lanes done with a record take their next one */
		if (tl_any(fresh)) {
			tl_q f[Q_FIELDS];

			lanes_entries(q, at, f);
			t = tl_blend_q(fresh, f[Q_T], t);
			entry = tl_blend_q(fresh, f[Q_T], entry);
			left = tl_blend_q(fresh, f[Q_LEFT], left);
			sleep = tl_blend_q(fresh, f[Q_SLEEP], sleep);
			next_tick = tl_blend_q(fresh, f[Q_NEXT_TICK], next_tick);
			rtick = tl_blend_q(fresh, f[Q_RTICK], rtick);
			pass = tl_blend_q(fresh, f[Q_PASS], pass);
			bits = tl_blend_q(fresh, f[Q_BITS], bits);
			has_draw = tl_blend_q(fresh, qbit(f[Q_BITS], QB_HAS_DRAW), has_draw);
			cont &= ~fresh;
			fresh = TL_Q(0);
		}
		rcause = bits & 7;
		/* is_model_delta_tick() */
		dtk = tl_sat_add(next_tick, TL_Q(tick_late)) - t;
		if (__builtin_expect(tl_any(act & cont & (dtk <= 0)), 0)) {
			for (int l = 0; l < IS_LANES; l++)
				if (act[l] && cont[l] && dtk[l] <= 0) {
					next_tick[l] += ((t[l] - next_tick[l]) / tick_nsec + 1) * tick_nsec;
					dtk[l] = sat_add(next_tick[l], tick_late) - t[l];
				}
		}
		tl_store(call.active, act);
		tl_store(call.tick_stopped, ts);
		tl_store(call.has_draw, has_draw);
		tl_store(call.draw, (tl_q)((tl_uq)bits >> 32));
		tl_store(call.now_ns, t);
		tl_store(call.sleep_length_ns, sleep);
		tl_store(call.last_residency_ns, lres_all);
		/* is_model_delta_next() */
		tl_store(call.delta_next_ns,
			 tl_blend_q(ts, sleep, tl_blend_q(cont, next_tick - entry,
							  rtick)));
		g->lanes_select(c->gov, &c->env, &call);
		idx = tl_blend_q(act, tl_load(call.idx), TL_Q(0));
		stop = tl_load(call.stop_tick);
		stopped = stop | ts;
		/* refused(): no entry, no reflect, last_residency_ns 0 (at a first select) */
		rej = act & qbit(bits, QB_REJ);
		if (__builtin_expect(tl_any(rej), 0))
			for (int l = 0; l < IS_LANES; l++)
				c->acc[l].rejected[idx[l]] += (uint64_t)rej[l] & 1;
		live = act & ~rej;
		/* is_model_end() */
		polling = ((TL_Q(score->polling) >> idx) & 1) != 0;
		rl = qbit(bits, QB_LIMIT);
		plim = polling & (rl | (~qbit(bits, QB_NOLIMIT) & (left > TL_Q(s->poll_lim))));
		end = tl_blend_q(plim & ~rl, TL_Q(s->poll_lim), left);
		cause = tl_blend_q(plim, TL_Q(IS_CAUSE_POLL), rcause);
		tick_in = polling & ~stopped & (dtk < end);
		tk = ~polling & (qbit(bits, QB_TICK) | (~stopped & (dtk < end)));
		end = tl_blend_q(tk & ~qbit(bits, QB_TICK), tl_max_q(dtk, TL_Q(0)), end);
		cause = tl_blend_q(tk, TL_Q(IS_CAUSE_TICK), cause);
		lres = end + (~polling & tl_lookup(delay, idx));
		got_tick = (cause == TL_Q(IS_CAUSE_TICK)) | tick_in;
		lres_all = tl_blend_q(live, lres, tl_blend_q(rej, TL_Q(0), lres_all));
		tl_store(wake.active, live);
		tl_store(wake.entered, idx);
		tl_store(wake.now_ns, t + lres + pass);
		tl_store(wake.got_tick, got_tick);
		tl_store(wake.poll_time_limit, plim);
		if (g->lanes_reflect)
			g->lanes_reflect(c->gov, &c->env, &wake);

		/* is_metrics_acc_score(), lane by lane where it scatters */
		ideal = (bits >> QB_IDEAL_SHIFT) & 15;
		if (tl_any(cont))
			ideal = tl_blend_q(cont, lanes_ideal(score, left), ideal);
		{
			const tl_q flags = (stop & 1) | ((stopped & 1) << 1) |
					   ((tl_load(call.sleep_length_read) & 1) << 2) |
					   ((tl_load(call.draw_used) & 1) << 3);
			const tl_q acc_bin = TL_Q(IS_ACC_MID) + idx - ideal;

			/* an idle lane adds 0, at indices that stay in range */
#pragma GCC unroll 8
			for (int l = 0; l < IS_LANES; l++) {
				const uint64_t one = (uint64_t)live[l] & 1;

				c->acc[l].count[idx[l]][cause[l]] += one;
				c->acc[l].acc[acc_bin[l]] += one;
				c->acc[l].flags[flags[l]] += one;
			}
		}
		res = tl_lookup(residency, idx);
		/* cpuidle_enter_state(), Linux 6.12; see is_miss_kind() */
		{
			const tl_q dl = tl_lookup(c->score.delay, idx);
			const tl_q above = (lres < res) &
					   (((TL_Q(score->above_ok) >> idx) & 1) != 0);
			const tl_q below = (lres >= res) & (lres > dl) &
					   (((TL_Q(score->below_ok) >> idx) & 1) != 0) &
					   (lres - dl >= tl_lookup(below_thr, idx));
			const tl_q d = live & lres, a = live & above & 1, b = live & below & 1;

#pragma GCC unroll 8
			for (int l = 0; l < IS_LANES; l++) {
				c->time_ns[idx[l]][l] += d[l];
				c->above[idx[l]][l] += a[l];
				c->below[idx[l]][l] += b[l];
			}
		}
		tl_store(c->idle_ns, tl_load(c->idle_ns) + (live & end));
		{
			tl_d pw, tr, e1;

			memcpy(&pw, power, sizeof(pw));
			memcpy(&tr, transition, sizeof(tr));
			pw = __builtin_shuffle(pw, idx);
			tr = __builtin_shuffle(tr, idx);
			/* the same two roundings as the scalar tally, in its order */
			e1 = energy + pw * __builtin_convertvector(end, tl_d);
			e1 = tl_blend_d(polling, e1, e1 + tr);
			energy = tl_blend_d(live, e1, energy);
		}

		/* is_model_next() */
		t += lres;
		again = live & (cause != rcause) & (left > lres);
		left = tl_blend_q(again, left - lres, left);
		{
			const tl_q gt = again & got_tick;
			const tl_q tat = tl_blend_q(tick_in, tl_blend_q(dtk > 0, t - lres + dtk, t - lres), t);

			sleep = tl_blend_q(gt, tl_sat_add(sleep, -(tat - entry)), sleep);
			entry = tl_blend_q(gt, tat, entry);
		}
		{
			const tl_q fl = left + (t - entry);

			sleep = tl_blend_q(again & (sleep < fl), fl, sleep);
		}
		done = act & ~again;
		ts = tl_blend_q(done, stopped & qbit(bits, QB_NOWORK),
				tl_blend_q(again, (cause == TL_Q(IS_CAUSE_POLL)) & stopped, ts));
		cont |= again;
		/* a recorded draw belongs to the record's first selection */
		has_draw &= ~again;
		at = tl_blend_q(act, at - done, TL_Q(q->n));
		fresh = done;
	}
	memcpy(c->energy, &energy, sizeof(energy));
	tl_store(c->tick_stopped, ts);
	tl_store(c->last_residency_ns, lres_all);
	c->q.n = 0;
}

/* A record into its CPU's queue, with what the model makes of it for every lane. */
static void enqueue(struct is_sim_lanes *s, struct lanes_cpu *c, const struct is_record *rec)
{
	struct lanes_queue *q = &c->q;
	struct is_model_rec m;
	int i;

	if (q->n == QCAP || (q->n && q->lat_ns != rec->lat_ns))
		run_queue(s, c);
	i = q->n++;
	q->lat_ns = rec->lat_ns;
	is_model_rec_init(&m, &c->tt, s->cfg.states, s->tick_nsec, s->cfg.exit_free, rec);
	is_scorer_use(&c->score, s->cfg.states, c->env.disabled, rec->lat_ns);
	q->e[i][Q_T] = rec->t_ns;
	q->e[i][Q_LEFT] = m.left;
	q->e[i][Q_SLEEP] = m.sleep;
	q->e[i][Q_NEXT_TICK] = m.next_tick;
	q->e[i][Q_RTICK] = m.rtick;
	q->e[i][Q_PASS] = m.pass_ns;
	q->e[i][Q_BITS] = (int64_t)((uint64_t)rec->draw << 32 | (uint64_t)rec->cause |
				    (rec->has & IS_HAS_DRAW ? QB_HAS_DRAW : 0) |
				    (rec->flags & IS_F_REJ ? QB_REJ : 0) |
				    (rec->flags & IS_F_NOWORK ? QB_NOWORK : 0) |
				    (m.rec_limit ? QB_LIMIT : 0) | (m.rec_nolimit ? QB_NOLIMIT : 0) |
				    (m.rec_tick ? QB_TICK : 0) |
				    (uint64_t)is_scorer_ideal(&c->score, m.left) << QB_IDEAL_SHIFT);
	q->e[i][Q_FIELDS - 1] = 0;
}

#else
static void enqueue(struct is_sim_lanes *s, struct lanes_cpu *c, const struct is_record *rec)
{
	(void)s, (void)c, (void)rec;
}

static void run_queue(struct is_sim_lanes *s, struct lanes_cpu *c)
{
	(void)s, (void)c;
}
#endif /* IS_HAVE_LANES */

bool is_sim_lanes_feed(struct is_sim_lanes *s, const struct is_record *rec, GError **error)
{
	if (rec->cpu >= s->cfg.cpus) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "record %" G_GUINT64_FORMAT ": cpu %u but the simulation has %d CPUs",
			    s->records + 1, rec->cpu, s->cfg.cpus);
		return false;
	}
	if (rec->kind == IS_REC_STATE) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "record %" G_GUINT64_FORMAT ": a state's disable mask changes, which "
			    "lanes do not model", s->records + 1);
		return false;
	}
	enqueue(s, &s->cpu[rec->cpu], rec);
	s->records++;
	return true;
}

void is_sim_lanes_total(struct is_sim_lanes *s, int lane, struct is_metrics *out)
{
	struct is_metrics m;

	for (int i = 0; i < s->cfg.cpus; i++)
		run_queue(s, &s->cpu[i]);
	is_metrics_init(out);
	for (int i = 0; i < s->cfg.cpus; i++) {
		const struct lanes_cpu *c = &s->cpu[i];
		struct is_metrics_acc a = c->acc[lane];

		for (int k = 0; k < IS_STATE_MAX; k++) {
			a.time_ns[k] = c->time_ns[k][lane];
			a.above[k] = (uint64_t)c->above[k][lane];
			a.below[k] = (uint64_t)c->below[k][lane];
		}
		a.idle_ns = c->idle_ns[lane];
		a.energy = c->energy[lane];
		is_metrics_acc_finish(&a, &m);
		is_metrics_add(out, &m);
	}
}
