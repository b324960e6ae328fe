// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: trace.dat through libtracecmd and our front end
 * (src/import/tracedat.c).  libtracecmd itself is not instrumented, so
 * coverage guidance only sees our side; run with -detect_leaks=0, as the
 * library leaks on some malformed files (not ours to fix).  In a build
 * without libtracecmd the import fails at once and this tests little.
 */
#include "fuzz.h"
#include "idlesim/import.h"
#ifdef HAVE_TRACECMD
#include <trace-cmd.h>
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet;
	const struct is_state_table *t = is_states_builtin("power9");
	g_autofree char *out = g_build_filename(fuzz_dir(), "dat.trace", NULL);
	struct is_capture_options o = { .format = IS_CAP_DAT, .hz = 100 };
	struct is_capture_stats st;
	struct is_trace_header h;
	GError *err = NULL;
	const char *in = fuzz_file("in.dat", data, size);

#ifdef HAVE_TRACECMD
	if (!quiet)
		tracecmd_set_loglevel(TEP_LOG_NONE);
#endif
	quiet = true;
	is_trace_header_init(&h);
	g_strlcpy(h.states, t->name, sizeof(h.states));
	h.state_count = t->count;
	h.hz = 100;
	if (!is_import_capture(in, out, IS_FMT_TEXT, &h, t, 0, &o, &st, &err))
		g_error_free(err);
	is_trace_header_clear(&h);
	return 0;
}
