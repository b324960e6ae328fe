// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz target: the importer of the idlesim series' cpuidle events. */
#include "fuzz.h"
#include "idlesim/import.h"
#include "idlesim/states.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = fuzz_file("kevents.txt", data, size);
	g_autofree char *out = g_build_filename(fuzz_dir(), "kevents.trace", NULL);
	struct is_trace_header h;
	struct is_import_stats st;
	GError *err = NULL;

	is_trace_header_init(&h);
	g_strlcpy(h.states, "power9", sizeof(h.states));
	h.state_count = is_states_builtin("power9")->count;
	h.hz = 100;
	if (!is_import_cpuidle_events(in, out, IS_FMT_TEXT, &h, &st, &err))
		g_error_free(err);
	is_trace_header_clear(&h);
	return 0;
}
