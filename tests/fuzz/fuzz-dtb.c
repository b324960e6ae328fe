// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: device tree blobs into state tables (src/states/dtb.c).
 * The first byte picks the CPU (0..7); the rest is the blob.  A blob that
 * is not one, a missing CPU or a bad idle-state node must be an error,
 * never a crash.
 */
#include "fuzz.h"
#include "idlesim/states.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct is_state_table *t;
	GError *err = NULL;
	/* aligned, as a blob read from a file is */
	g_autofree void *blob = NULL;

	if (size < 1 || !is_states_dtb_supported())
		return 0;
	blob = g_memdup2(data + 1, size - 1);
	t = is_states_load_dtb(blob, size - 1, data[0] & 7, "fuzz", &err);
	if (!t && !err)
		__builtin_trap();
	g_clear_error(&err);
	is_states_free(t);
	return 0;
}
