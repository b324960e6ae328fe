// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the stock-capture importer (ftrace / trace-cmd text, and
 * gzip/xz input), end to end: parse, reorder, reconstruct, write.  The
 * first byte picks the format, the state table, HZ, a small reorder
 * window (so that the window's error path is reached too) and a reset of
 * the governor through ladder (bit 5).
 */
#include "fuzz.h"
#include "idlesim/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum is_capture_format fmts[4] = { IS_CAP_AUTO, IS_CAP_FTRACE,
							 IS_CAP_TRACECMD, IS_CAP_AUTO };
	g_autofree char *out = NULL;
	const struct is_state_table *t;
	struct is_capture_options o = { 0 };
	struct is_capture_stats st;
	struct is_trace_header h;
	GError *err = NULL;
	const char *in;

	if (size < 1)
		return 0;
	/* trace.dat (by its magic) is fuzz-dat's: keep this target on text */
	if (size >= 4 && data[1] == 0x17 && data[2] == 0x08 && data[3] == 0x44)
		return 0;
	in = fuzz_file("capture.txt", data + 1, size - 1);
	out = g_build_filename(fuzz_dir(), "capture.trace", NULL);
	t = is_states_builtin(data[0] & 4 ? "power9" : is_states_builtin_names()[0]);
	o.format = fmts[data[0] & 3];
	o.hz = data[0] & 8 ? 250 : 100;
	o.reorder_window = data[0] & 16 ? 4 : 0;
	/* idlesim-capture's reset of the governor, through ladder */
	if (data[0] & 32)
		g_strlcpy(o.reset_governor, "ladder", sizeof(o.reset_governor));
	is_trace_header_init(&h);
	g_strlcpy(h.states, t->name, sizeof(h.states));
	h.state_count = t->count;
	h.hz = o.hz;
	if (!is_import_capture(in, out, IS_FMT_TEXT, &h, t, 0, &o, &st, &err))
		g_error_free(err);
	is_trace_header_clear(&h);
	return 0;
}
