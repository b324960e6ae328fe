// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: state tables.  The first byte picks the parser: even = a
 * key file, odd = a sysfs dump, whose files (stateN/{name,latency,
 * residency,disable}, in that order, N = 0, 1, ...) are the rest of the
 * input split at NUL bytes.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "idlesim/states.h"

static const char *const files[] = { "name", "latency", "residency", "disable" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct is_state_table *t;
	GError *err = NULL;
	uint32_t disabled = 0;

	if (size < 1)
		return 0;
	if (!(data[0] & 1)) {
		t = is_states_load_file(fuzz_file("states.ini", data + 1, size - 1), &err);
	} else {
		char *root = g_build_filename(fuzz_dir(), "sysfs", NULL);
		const uint8_t *p = data + 1, *end = data + size;
		unsigned part = 0;

		/* A fresh tree: remove what the previous input made. */
		for (int n = 0; n < 12; n++)
			for (unsigned f = 0; f < G_N_ELEMENTS(files); f++) {
				char rel[64];
				g_autofree char *q = NULL;

				snprintf(rel, sizeof(rel), "state%d/%s", n, files[f]);
				q = g_build_filename(root, rel, NULL);
				remove(q);
			}
		for (int n = 0; n < 12; n++) {
			char rel[32];
			g_autofree char *q = NULL;

			snprintf(rel, sizeof(rel), "state%d", n);
			q = g_build_filename(root, rel, NULL);
			rmdir(q);
		}
		g_mkdir_with_parents(root, 0700);
		while (p < end && part < 12 * G_N_ELEMENTS(files)) {
			const uint8_t *z = memchr(p, 0, (size_t)(end - p));
			size_t len = z ? (size_t)(z - p) : (size_t)(end - p);
			char rel[64];
			g_autofree char *sd = NULL;
			g_autofree char *path = NULL;
			FILE *f;

			snprintf(rel, sizeof(rel), "state%u", part / 4);
			sd = g_build_filename(root, rel, NULL);
			g_mkdir_with_parents(sd, 0700);
			path = g_build_filename(sd, files[part % 4], NULL);
			f = fopen(path, "wb");
			if (f) {
				fwrite(p, 1, len, f);
				fclose(f);
			}
			part++;
			p += len + (z ? 1 : 0);
		}
		t = is_states_load_sysfs(root, &disabled, &err);
		g_free(root);
	}
	if (t)
		is_states_free(t);
	else
		g_error_free(err);
	return 0;
}
