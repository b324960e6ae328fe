// SPDX-License-Identifier: GPL-2.0-only
/*
 * mksample: writes the sample traces bundled in traces/ (see
 * traces/README.md).  Deterministic: the same build gives the same bytes.
 *
 *   mksample basic OUT      basic workload, 2 CPUs, seed 7, 2000 periods
 *   mksample events OUT     basic workload with state disable/enable events
 *                           and a latency limit, 2 CPUs, seed 11
 *   mksample recorded OUT   every selection of the ladder governor on the
 *                           basic workload (seed 3), with the raw inputs an
 *                           exact replay needs, as a kernel recording has
 */
#include <stdio.h>
#include <string.h>

#include "idlesim/idlesim.h"
#include "idlesim/run.h"
#include "idlesim/synth.h"

static void header(struct is_trace_header *h, const struct is_basic_params *p,
		   const char *source)
{
	is_trace_header_init(h);
	is_trace_header_set_table(h, is_states_builtin("power9"));
	h->hz = p->hz;
	h->cpus = p->cpus;
	h->has_seed = true;
	h->seed = p->seed;
	g_strlcpy(h->source, source, sizeof(h->source));
}

struct rec_ctx {
	struct is_trace_writer *w;
	GError **err;
	bool ok;
};

static void record_decision(void *ctx, const struct is_decision *d)
{
	struct rec_ctx *c = ctx;
	struct is_record r = {
		.kind = IS_REC_IDLE,
		.cpu = (uint16_t)d->cpu,
		.cause = (uint8_t)d->cause,
		.kstate = (int8_t)d->state,
		.t_ns = d->t_ns,
		.sleep_ns = d->sleep_ns,
		.tick_ns = d->delta_next_ns,
		.lat_ns = d->latency_req_ns,
		.idle_ns = d->idle_ns,
		.span_ns = d->span_ns,
		.lres_ns = d->last_residency_ns,
		.has = IS_HAS_KSTATE | IS_HAS_KSTOP | IS_HAS_SPAN | IS_HAS_LRES | IS_HAS_GT |
		       IS_HAS_PL | IS_HAS_SLR,
	};

	r.flags = (d->tick_stopped ? IS_F_TS : 0) | (d->stop_tick ? IS_F_KSTOP : 0) |
		  (d->got_tick ? IS_F_GT : 0) | (d->poll_time_limit ? IS_F_PL : 0) |
		  (d->sleep_length_read ? IS_F_SLR : 0);
	if (c->ok)
		c->ok = is_trace_write(c->w, &r, c->err);
}

/* The first @left records of a basic generator, as an open-loop source. */
struct basic_src {
	struct is_basic_gen *g;
	int left;
};

static int basic_next(void *ctx, struct is_record *rec, GError **error)
{
	struct basic_src *b = ctx;

	(void)error;
	if (!b->left)
		return 0;
	b->left--;
	is_basic_next(b->g, rec);
	return 1;
}

int main(int argc, char **argv)
{
	struct is_basic_params p;
	struct is_trace_header h;
	struct is_trace_writer *w;
	struct is_basic_gen *g;
	struct is_record rec;
	GError *err = NULL;
	bool ok = true;

	if (argc != 3) {
		fprintf(stderr, "usage: mksample basic|events|recorded OUT\n");
		return 2;
	}
	is_basic_params_default(&p);
	if (strcmp(argv[1], "basic") == 0) {
		p.seed = 7;
		header(&h, &p, "mksample basic: basic workload, 2000 periods");
		w = is_trace_writer_open(argv[2], IS_FMT_AUTO, &h, &err);
		if (!w)
			goto fail;
		g = is_basic_new(&p);
		for (int i = 0; i < 2000 && ok; i++) {
			is_basic_next(g, &rec);
			ok = is_trace_write(w, &rec, &err);
		}
		is_basic_free(g);
	} else if (strcmp(argv[1], "events") == 0) {
		p.seed = 11;
		p.latency_req_ns = 50000;
		header(&h, &p, "mksample events: basic workload, 50 us latency limit, state events");
		is_trace_header_add_comment(&h, "# stop2 off for CPU 1 from record 400; stop0 off for all CPUs from 800 to 1200");
		w = is_trace_writer_open(argv[2], IS_FMT_AUTO, &h, &err);
		if (!w)
			goto fail;
		g = is_basic_new(&p);
		for (int i = 0; i < 1600 && ok; i++) {
			is_basic_next(g, &rec);
			if (i == 400 || i == 800 || i == 1200) {
				struct is_record ev = {
					.kind = IS_REC_STATE, .t_ns = rec.t_ns,
					.cpu = i == 400 ? 1 : IS_CPU_ALL,
					.kstate = i == 400 ? 4 : 2, .disable = i != 1200,
				};

				ok = is_trace_write(w, &ev, &err);
			}
			ok = ok && is_trace_write(w, &rec, &err);
		}
		is_basic_free(g);
	} else if (strcmp(argv[1], "recorded") == 0) {
		struct is_run_gov rg = { .gov = is_governor_find("ladder"), .seed = 1,
					 .observer = record_decision };
		struct rec_ctx rc = { .err = &err, .ok = true };
		struct basic_src bs = { .left = 1500 };
		struct is_source src = { .ctx = &bs, .next = basic_next };
		struct is_run_input *in;
		uint64_t records;
		int failed;

		p.seed = 3;
		header(&h, &p, "mksample recorded: ladder's selections on the basic workload, raw inputs");
		w = is_trace_writer_open(argv[2], IS_FMT_AUTO, &h, &err);
		if (!w)
			goto fail;
		rc.w = w;
		rg.observer_ctx = &rc;
		is_params_defaults(rg.gov, &rg.params);
		bs.g = is_basic_new(&p);
		in = is_run_open_source(&src, &h, NULL, &err);
		ok = in && is_run_build(in, IS_SIM_MODEL, &rg, 1, &err) &&
		     is_run_execute(in, &rg, 1, &records, &failed, &err) && rc.ok;
		is_run_gov_clear(&rg, 1);
		is_run_input_free(in);
		is_basic_free(bs.g);
	} else {
		fprintf(stderr, "mksample: unknown sample '%s'\n", argv[1]);
		return 2;
	}
	if (!ok) {
		is_trace_writer_abort(w);
		goto fail;
	}
	if (!is_trace_writer_commit(w, &err))
		goto fail;
	is_trace_header_clear(&h);
	return 0;
fail:
	fprintf(stderr, "mksample: %s\n", err->message);
	return 1;
}
