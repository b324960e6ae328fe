// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz target: the native trace reader, text and binary (detected). */
#include "fuzz.h"
#include "idlesim/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("in.trace", data, size);
	GError *err = NULL;
	struct is_trace_reader *r = is_trace_open(path, &err);
	struct is_record rec;

	if (!r) {
		g_error_free(err);
		return 0;
	}
	while (is_trace_next(r, &rec, &err) > 0)
		;
	g_clear_error(&err);
	is_trace_close(r);
	return 0;
}
