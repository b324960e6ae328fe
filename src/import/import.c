// SPDX-License-Identifier: GPL-2.0-only
/* Stock-capture import: the format names, detection and dispatch to a front end. */
#include <errno.h>
#include <string.h>

#include "capture.h"

const char *is_capture_format_name(enum is_capture_format f)
{
	switch (f) {
	case IS_CAP_FTRACE:
		return "ftrace";
	case IS_CAP_TRACECMD:
		return "trace-cmd";
	case IS_CAP_DAT:
		return "dat";
	default:
		return "auto";
	}
}

int is_capture_format_parse(const char *s)
{
	for (int f = IS_CAP_AUTO; f <= IS_CAP_DAT; f++)
		if (strcmp(s, is_capture_format_name(f)) == 0)
			return f;
	return -1;
}

const char *is_running_tick_sleep_name(enum is_running_tick_sleep r)
{
	return r == IS_RTS_TICK ? "tick" : "timers";
}

int is_running_tick_sleep_parse(const char *s)
{
	for (int r = IS_RTS_TIMERS; r <= IS_RTS_TICK; r++)
		if (strcmp(s, is_running_tick_sleep_name(r)) == 0)
			return r;
	return -1;
}

static const unsigned char dat_magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

bool is_import_capture(const char *in, const char *out, enum is_trace_format fmt,
		       const struct is_trace_header *h, const struct is_state_table *t,
		       uint32_t disabled, const struct is_capture_options *o,
		       struct is_capture_stats *stats, GError **error)
{
	struct cap_ctx *c = cap_new(in, o, t, disabled);
	enum is_capture_format f = o->format;
	FILE *file = NULL;
	unsigned char m[10];
	size_t n;
	bool ok = false;

	if (f != IS_CAP_DAT && strcmp(in, "-") != 0) {
		/* trace.dat is told by its magic; libtracecmd reads it by path */
		FILE *raw = fopen(in, "rb");

		if (!raw) {
			g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", in, g_strerror(errno));
			goto out;
		}
		n = fread(m, 1, sizeof(m), raw);
		fclose(raw);
		if (n == sizeof(m) && memcmp(m, dat_magic, sizeof(m)) == 0) {
			if (f != IS_CAP_AUTO) {
				g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
					    "%s: this is a trace.dat file, not %s text (use --format dat "
					    "or auto)", in, is_capture_format_name(f));
				goto out;
			}
			f = IS_CAP_DAT;
		}
	}
	if (f == IS_CAP_DAT) {
		if (!is_capture_dat_supported()) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: reading trace.dat needs a build with libtracecmd "
				    "(meson -Dtracecmd=enabled, Debian libtracecmd-dev); convert it "
				    "instead with: trace-cmd report -i %s > capture.txt", in, in);
			goto out;
		}
		cap_set_where_name(c, "record");
		if (!is_capture_read_dat(c, in, error))
			goto out;
	} else {
		file = is_open_input(in, error);
		if (!file || !is_capture_read_text(c, file, in, &f, error))
			goto out;
	}
	if (!cap_finish(c, out, fmt, h, stats, error))
		goto out;
	if (stats)
		stats->format = f;
	ok = true;
out:
	if (file)
		fclose(file);
	cap_free(c);
	return ok;
}
