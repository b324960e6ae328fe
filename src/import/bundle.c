// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bundle written by tools/capture/idlesim-capture: a directory with
 * the capture (trace.txt, .xz or .gz, and trace.dat where the machine had
 * trace-cmd), the machine's state table (states/, a sysfs copy; a key
 * file "states" in a simulation that idlesim exported) and
 * "meta" (first line "idlesim-capture 1", then key=value lines).  Every
 * key of version 1 is known; any other, a malformed line or a value out
 * of range is an error naming the line.
 *
 * trace.dat is read first when this build reads trace.dat (libtracecmd):
 * its stamps are the trace clock's nanoseconds, where the text's are
 * rounded to the microsecond, and teo's hit test (time_span_ns against
 * sleep_length_ns, teo_update() of 6.12) sits within a microsecond of its
 * edge on a machine whose timers fire on time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "idlesim/import.h"
#include "idlesim/states.h"

#define MAGIC IS_BUNDLE_MAGIC

static bool bad(GError **error, const char *path, int line, const char *key, const char *why)
{
	g_set_error(error, IS_ERROR, IS_ERROR_PARSE, "%s: line %d: %s%s%s", path, line,
		    key ? key : "", key ? ": " : "", why);
	return false;
}

static bool int_value(const char *v, int64_t lo, int64_t hi, int64_t *out)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(v, &end, 10);
	if (errno || end == v || *end || x < lo || x > hi)
		return false;
	*out = x;
	return true;
}

bool is_bundle_is(const char *path)
{
	g_autofree char *meta = g_build_filename(path, "meta", NULL);
	g_autofree char *text = NULL;

	if (!g_file_test(path, G_FILE_TEST_IS_DIR))
		return false;
	if (!g_file_get_contents(meta, &text, NULL, NULL))
		return false;
	return g_str_has_prefix(text, MAGIC "\n");
}

bool is_bundle_read(const char *path, struct is_bundle *b, GError **error)
{
	static const char *const text_keys[] = {
		"release", "hz_source", "governor", "driver", "events", "events_missing",
		"buffer_kb", "command_status", "seconds", "trace_dat", "trace_clock", NULL
	};
	g_autofree char *meta = g_build_filename(path, "meta", NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	GError *e = NULL;
	const char *traces[] = {
#ifdef HAVE_TRACECMD
		"trace.dat",
#endif
		"trace.txt.xz", "trace.txt.gz", "trace.txt"
	};

	memset(b, 0, sizeof(*b));
	b->probes = g_ptr_array_new_with_free_func(g_free);
	if (!g_file_get_contents(meta, &text, NULL, &e)) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: not a capture bundle: %s", path,
			    e->message);
		g_error_free(e);
		return false;
	}
	lines = g_strsplit(text, "\n", -1);
	if (!lines[0] || strcmp(lines[0], MAGIC) != 0)
		return bad(error, meta, 1, NULL, "not \"" MAGIC "\" (written by idlesim-capture)");
	for (int i = 1; lines[i]; i++) {
		char *l = lines[i], *eq = strchr(l, '=');
		const char *v;

		if (!*l)
			continue;
		if (!eq || eq == l)
			return bad(error, meta, i + 1, NULL, "not key=value");
		*eq = '\0';
		v = eq + 1;
		if (!strcmp(l, "hz")) {
			int64_t x;

			if (!int_value(v, 1, 100000, &x))
				return bad(error, meta, i + 1, l, "not 1..100000");
			b->hz = (int)x;
		} else if (!strcmp(l, "cpus")) {
			int64_t x;

			if (!int_value(v, 1, IS_TRACE_MAX_CPUS, &x))
				return bad(error, meta, i + 1, l, "not a CPU count");
			b->cpus = (int)x;
		} else if (!strcmp(l, "lost_events")) {
			if (!int_value(v, 0, INT64_MAX, &b->lost_events))
				return bad(error, meta, i + 1, l, "not a count");
		} else if (!strcmp(l, "tick_stop_traced")) {
			if (strcmp(v, "0") && strcmp(v, "1"))
				return bad(error, meta, i + 1, l, "not 0 or 1");
			b->tick_stop_traced = v[0] == '1';
		} else if (!strcmp(l, "governor_reset")) {
			/* "off: WHY", or the governor switched to and back */
			if (!g_str_has_prefix(v, "off")) {
				if (!*v || strlen(v) >= sizeof(b->reset_governor) ||
				    strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(v))
					return bad(error, meta, i + 1, l, "not a governor's name or off");
				g_strlcpy(b->reset_governor, v, sizeof(b->reset_governor));
			}
		} else if (g_str_has_prefix(l, "probe_")) {
			g_ptr_array_add(b->probes, g_strdup_printf("%s %s", l + 6, v));
		} else if (g_strv_contains(text_keys, l)) {
			if (!strcmp(l, "release"))
				g_strlcpy(b->release, v, sizeof(b->release));
			else if (!strcmp(l, "governor"))
				g_strlcpy(b->governor, v, sizeof(b->governor));
			else if (!strcmp(l, "hz_source"))
				g_strlcpy(b->hz_source, v, sizeof(b->hz_source));
		} else {
			return bad(error, meta, i + 1, l, "unknown key");
		}
	}
	b->states = g_build_filename(path, "states", NULL);
	if (!g_file_test(b->states, G_FILE_TEST_EXISTS)) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: missing (the state table: a sysfs "
			    "copy, or a key file in an exported simulation)", b->states);
		return false;
	}
	for (size_t k = 0; k < G_N_ELEMENTS(traces) && !b->trace; k++) {
		char *t = g_build_filename(path, traces[k], NULL);

		if (g_file_test(t, G_FILE_TEST_IS_REGULAR))
			b->trace = t;
		else
			g_free(t);
	}
	if (!b->trace) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: no trace.txt, trace.txt.xz or "
			    "trace.txt.gz%s", path,
#ifdef HAVE_TRACECMD
			    ", and no trace.dat"
#else
			    " (a trace.dat needs a build with libtracecmd)"
#endif
			    );
		return false;
	}
#ifndef HAVE_TRACECMD
	{
		g_autofree char *dat = g_build_filename(path, "trace.dat", NULL);

		if (g_file_test(dat, G_FILE_TEST_IS_REGULAR))
			g_strlcpy(b->note, "trace.dat not read (this build has no libtracecmd): "
				  "the text's stamps, to the microsecond", sizeof(b->note));
	}
#endif
	return true;
}

void is_bundle_clear(struct is_bundle *b)
{
	if (!b)
		return;
	g_free(b->states);
	g_free(b->trace);
	if (b->probes)
		g_ptr_array_unref(b->probes);
	memset(b, 0, sizeof(*b));
}
