// SPDX-License-Identifier: GPL-2.0-only
/**
 * DOC: oracle - the upper bound
 *
 * Knows the true time till the next wakeup (is_gov_call.oracle_*, a
 * channel no real governor gets) and picks the deepest enabled state whose
 * target residency fits in it and whose exit latency is within the latency
 * limit: exactly the RFC's "ideal state", so its accuracy is 100% correct
 * by construction.  It always stops the tick, because the simulator charges
 * nothing for stopping it.  It never reads the sleep length.
 */
#include "governors.h"

static int oracle_select(void *st, const struct is_gov_env *env,
			 struct is_gov_call *call, bool *stop_tick)
{
	(void)st;
	(void)env;
	*stop_tick = true;
	/* The event loop computed it once for both us and the metrics. */
	return call->oracle_state;
}

const struct is_governor is_gov_oracle = {
	.name = "oracle",
	.description = "knows the actual idle duration; the upper bound",
	.state_size = 0,
	.select = oracle_select,
};
