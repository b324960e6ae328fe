// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: rt-app files (src/synth/rtapp.c) and, when one parses, its
 * first 2000 idle periods or 2 simulated seconds through the engine
 * (src/synth/rtapp_engine.c) on the CPUs it needs (at most 8), open loop
 * and with a 30 us exit latency fed back.  Bad JSON or a bad program must be an error, never a
 * crash; the engine must give records whose times make sense.
 */
#include "fuzz.h"
#include "idlesim/rtapp.h"
#include "idlesim/synth.h"

static void run(const struct is_rtapp *p, int64_t lat)
{
	struct is_synth_config cfg = {
		.w = is_rtapp_workload(), .rtapp = p, .hz = 100, .seed = 3,
		.latency_req_ns = 2147483647000LL,
	};
	struct is_synth *g;
	struct is_record r;
	GError *err = NULL;

	cfg.cpus = is_rtapp_max_cpu(p) < 2 ? 2 : is_rtapp_max_cpu(p) + 1;
	cfg.params.v[0] = lat ? 10 : 0;   /* jitter with feedback */
	g = is_synth_new(&cfg, &err);
	if (!g) {
		if (!err)
			__builtin_trap();
		g_error_free(err);
		return;
	}
	is_synth_set_horizon(g, 2000000000LL);
	for (int n = 0; n < 2000 && is_synth_next(g, &r) > 0; n++) {
		if (r.cpu >= cfg.cpus || r.idle_ns < 0 || r.sleep_ns < 0 || r.t_ns < 0)
			__builtin_trap();
		if (lat)
			is_synth_feedback(g, r.cpu, r.t_ns + r.idle_ns + lat);
	}
	is_synth_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GError *err = NULL;
	struct is_rtapp *p = is_rtapp_parse((const char *)data, size, "fuzz", &err);

	if (!p) {
		if (!err)
			__builtin_trap();
		g_error_free(err);
		return 0;
	}
	if (is_rtapp_max_cpu(p) < 8) {
		run(p, 0);
		run(p, 30000);
	}
	is_rtapp_free(p);
	return 0;
}
