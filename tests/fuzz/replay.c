// SPDX-License-Identifier: GPL-2.0-only
/*
 * Runs a fuzz target over every file of the given corpus directories (or
 * files), without libFuzzer: the regression test of the normal suite.
 * Exit 0 when every input ran; a crash is the failure.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	g_autofree char *data = NULL;
	gsize len;
	GError *err = NULL;

	if (!g_file_get_contents(path, &data, &len, &err)) {
		fprintf(stderr, "%s\n", err->message);
		g_error_free(err);
		return 1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)data, len);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned n = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR|FILE...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		if (g_file_test(argv[i], G_FILE_TEST_IS_DIR)) {
			GError *err = NULL;
			GDir *d = g_dir_open(argv[i], 0, &err);
			GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
			const char *e;

			if (!d) {
				fprintf(stderr, "%s\n", err->message);
				return 1;
			}
			while ((e = g_dir_read_name(d)) != NULL)
				g_ptr_array_add(names, g_build_filename(argv[i], e, NULL));
			g_dir_close(d);
			for (guint k = 0; k < names->len; k++) {
				if (run_file(names->pdata[k]))
					return 1;
				n++;
			}
			g_ptr_array_free(names, TRUE);
		} else {
			if (run_file(argv[i]))
				return 1;
			n++;
		}
	}
	if (!n) {
		fprintf(stderr, "no inputs: an empty corpus tests nothing\n");
		return 1;
	}
	printf("%u inputs ran\n", n);
	return 0;
}
