// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static char *dir;

/* Best effort: the tree only ever holds our scratch files. */
static void remove_tree(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	const char *n;

	if (d) {
		while ((n = g_dir_read_name(d)) != NULL) {
			g_autofree char *p = g_build_filename(path, n, NULL);

			remove_tree(p);
		}
		g_dir_close(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static void cleanup(void)
{
	remove_tree(dir);
}

const char *fuzz_dir(void)
{
	if (!dir) {
		const char *base = g_file_test("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" :
				   g_get_tmp_dir();
		char *tmpl = g_build_filename(base, "idlesim-fuzz-XXXXXX", NULL);

		if (!g_mkdtemp(tmpl)) {
			fprintf(stderr, "fuzz: cannot create %s: %s\n", tmpl, g_strerror(errno));
			abort();
		}
		dir = tmpl;
		atexit(cleanup);
	}
	return dir;
}

const char *fuzz_file(const char *name, const void *data, size_t size)
{
	static GHashTable *paths;
	char *path;
	int fd;
	const char *p = data;

	if (!paths)
		paths = g_hash_table_new(g_str_hash, g_str_equal);
	path = g_hash_table_lookup(paths, name);
	if (!path) {
		path = g_build_filename(fuzz_dir(), name, NULL);
		g_hash_table_insert(paths, g_strdup(name), path);
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		fprintf(stderr, "fuzz: %s: %s\n", path, g_strerror(errno));
		abort();
	}
	while (size) {
		ssize_t n = write(fd, p, size);

		if (n <= 0) {
			fprintf(stderr, "fuzz: write %s: %s\n", path, g_strerror(errno));
			abort();
		}
		p += n;
		size -= (size_t)n;
	}
	close(fd);
	return path;
}
