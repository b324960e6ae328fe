// SPDX-License-Identifier: GPL-2.0-only
/* idlesim convert: text <-> binary, lossless. */
#include <string.h>

#include "cli.h"

int cmd_convert(int argc, char **argv)
{
	g_autofree char *out = NULL, *to = NULL, *states = NULL;
	gint64 limit = -1;
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "output trace", "FILE" },
		{ "to", 0, 0, G_OPTION_ARG_STRING, &to,
		  "text or binary (default: from the output name, .istb/.bin = binary, .trace/.txt/.text = text; else the other form, said on stderr)",
		  "FORM" },
		{ "states", 's', 0, G_OPTION_ARG_FILENAME, &states,
		  "embed this state table (it must fit the trace's; format version 2)", "NAME|FILE|DIR" },
		{ "limit", 0, 0, G_OPTION_ARG_INT64, &limit,
		  "keep only the first N records (a shorter but complete trace)", "N" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("IN - convert a trace between text and binary");
	GError *err = NULL;
	struct is_trace_reader *r;
	struct is_trace_writer *w;
	struct is_trace_header h;
	struct is_record rec;
	enum is_trace_format fmt;
	int code, n = 0;

	is_trace_header_init(&h);
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse(ctx, &argc, &argv, &code))
		return code;
	if (argc != 2 || !out) {
		cli_error("convert needs one input and -o OUT (see --help)");
		return EXIT_USAGE;
	}
	if (!cli_out_check("--output", out, &code))
		return code;
	if (limit < -1) {  /* -1, the default: no limit */
		cli_error("--limit must be >= 0, not %" G_GINT64_FORMAT, limit);
		return EXIT_USAGE;
	}
	if (to && strcmp(to, "text") && strcmp(to, "binary")) {
		cli_error("--to must be text or binary, not '%s'", to);
		return EXIT_USAGE;
	}
	r = is_trace_open(argv[1], &err);
	if (!r)
		goto fail_noreader;
	if (to)
		fmt = strcmp(to, "binary") == 0 ? IS_FMT_BINARY : IS_FMT_TEXT;
	else if ((fmt = is_trace_format_of_name(out)) == IS_FMT_AUTO) {
		fmt = is_trace_reader_format(r) == IS_FMT_TEXT ? IS_FMT_BINARY : IS_FMT_TEXT;
		fprintf(stderr, "convert: %s: the name does not tell the form: writing %s, the "
			"other form (--to sets it)\n", out, fmt == IS_FMT_TEXT ? "text" : "binary");
	}
	is_trace_header_copy(&h, is_trace_reader_header(r));
	if (states) {
		struct is_state_table *t = is_trace_states_open(argv[1], &h, states, NULL, &err);

		if (!t) {
			is_trace_close(r);
			goto fail_noreader;
		}
		is_trace_header_set_table(&h, t);
		is_states_free(t);
	}
	w = is_trace_writer_open(out, fmt, &h, &err);
	if (!w) {
		is_trace_close(r);
		goto fail_noreader;
	}
	while ((limit < 0 || (gint64)is_trace_reader_count(r) < limit) &&
	       (n = is_trace_next(r, &rec, &err)) > 0)
		if (!is_trace_write(w, &rec, &err))
			break;
	if (limit >= 0 && (gint64)is_trace_reader_count(r) >= limit && !err)
		n = 0;
	if (n != 0 || err) {
		/* Nothing appears under the output name. */
		is_trace_writer_abort(w);
		is_trace_close(r);
		goto fail_noreader;
	}
	is_trace_close(r);
	if (!is_trace_writer_commit(w, &err))
		goto fail_noreader;
	is_trace_header_clear(&h);
	return EXIT_OK;
fail_noreader:
	is_trace_header_clear(&h);
	cli_error("%s", err->message);
	g_error_free(err);
	return EXIT_RUNTIME;
}
