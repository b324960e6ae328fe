// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: trace.dat through libtracecmd and our front end
 * (src/import/tracedat.c).  libtracecmd itself is not instrumented, so
 * coverage guidance only sees our side; run with -detect_leaks=0, as the
 * library leaks on some malformed files (not ours to fix).  In a build
 * without libtracecmd the import fails at once and this tests little.
 *
 * The import runs libtracecmd in a forked child, which crashes on many
 * malformed files (README, "Fuzzing"); the parent reports that as an
 * error, which is the behaviour under test.  The child inherits
 * libFuzzer's death callback, though, which would stop the run at each
 * such crash as if it were ours: the child drops it, so it dies alone and
 * the parent carries on.
 */
#include <pthread.h>

#include "fuzz.h"
#include "idlesim/import.h"
#ifdef HAVE_TRACECMD
#include <trace-cmd.h>
#endif

/* compiler-rt's; absent (NULL) in a build without sanitizers */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static void child_dies_alone(void)
{
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(NULL);
}

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
	if (!quiet)
		pthread_atfork(NULL, NULL, child_dies_alone);
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
