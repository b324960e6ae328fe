// SPDX-License-Identifier: GPL-2.0-only
/**
 * DOC: recorded - the traced kernel's own decisions
 *
 * Returns the state the trace says the kernel chose (k=) and its
 * stop-tick decision (stop=, else "stop", so that the model does not cut
 * the recorded idle period at a tick the kernel may not have kept).  It
 * lets a capture's decisions be scored by exactly the metrics and model
 * the other governors get, side by side with them.  A trace without k=
 * makes select() fail (state -1), which the event loop reports.  It never
 * reads the sleep length.
 */
#include "governors.h"

static int recorded_select(void *st, const struct is_gov_env *env,
			   struct is_gov_call *call, bool *stop_tick)
{
	(void)st;
	(void)env;
	*stop_tick = call->recorded_stop != 0;
	return call->recorded_state;
}

const struct is_governor is_gov_recorded = {
	.name = "recorded",
	.description = "the decisions recorded in the trace (k=): the traced kernel's own",
	.state_size = 0,
	.needs_recorded = true,
	.select = recorded_select,
};
