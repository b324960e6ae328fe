// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the native trace reader, text and binary (detected).  The
 * file is read twice, record by record and in batches of three, and the
 * two must give the same records and end the same way: the batch path
 * decodes plain idle records on its own.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "idlesim/trace.h"

#define MAX_KEPT 4096

static bool same_rec(const struct is_record *a, const struct is_record *b)
{
	return a->kind == b->kind && a->cause == b->cause && a->flags == b->flags &&
	       a->has == b->has && a->cpu == b->cpu && a->kstate == b->kstate &&
	       a->est == b->est && a->t_ns == b->t_ns && a->sleep_ns == b->sleep_ns &&
	       a->tick_ns == b->tick_ns && a->lat_ns == b->lat_ns && a->idle_ns == b->idle_ns &&
	       a->span_ns == b->span_ns && a->lres_ns == b->lres_ns && a->draw == b->draw;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("in.trace", data, size);
	static struct is_record kept[MAX_KEPT];
	g_autofree char *msg = NULL;
	GError *err = NULL;
	struct is_trace_reader *r = is_trace_open(path, &err);
	struct is_record rec[3];
	size_t n = 0, m = 0;
	int ret, ret2;

	if (!r) {
		g_error_free(err);
		return 0;
	}
	while ((ret = is_trace_next(r, &rec[0], &err)) > 0)
		if (n < MAX_KEPT)
			kept[n++] = rec[0];
	msg = err ? g_strdup(err->message) : NULL;
	g_clear_error(&err);
	is_trace_close(r);
	if (n == MAX_KEPT)
		return 0;

	r = is_trace_open(path, &err);
	if (!r)
		abort();        /* it opened a moment ago */
	while ((ret2 = is_trace_next_batch(r, rec, 3, &err)) > 0) {
		if (ret2 > 3)
			abort();
		for (int i = 0; i < ret2; i++, m++)
			if (m >= n || !same_rec(&kept[m], &rec[i]))
				abort();
	}
	if (m != n || ret2 != ret || (msg == NULL) != (err == NULL) ||
	    (msg && strcmp(msg, err->message) != 0))
		abort();
	g_clear_error(&err);
	is_trace_close(r);
	return 0;
}
