// SPDX-License-Identifier: GPL-2.0-only
/* idlesim import: captures from real kernels into native traces. */
#include <string.h>

#include "cli.h"
#include "idlesim/import.h"

int cmd_import(int argc, char **argv)
{
	g_autofree char *out = NULL, *format = NULL, *states = NULL;
	gint hz = 100;
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "native trace to write (.istb = binary)", "FILE" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format,
		  "cpuidle-events: ftrace text with the idlesim kernel series' power:cpuidle_* events", "FMT" },
		{ "states", 's', 0, G_OPTION_ARG_FILENAME, &states, "state table of the captured machine (default power9)", "NAME|FILE|DIR" },
		{ "hz", 0, 0, G_OPTION_ARG_INT, &hz, "CONFIG_HZ of the captured kernel (default 100)", "N" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("IN - turn a kernel capture into a native trace");
	struct is_trace_header h;
	struct is_import_stats st;
	struct is_state_table *t;
	GError *err = NULL;
	int code;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse(ctx, &argc, &argv, &code))
		return code;
	if (argc != 2 || !out) {
		cli_error("import needs one input and -o OUT (see --help)");
		return EXIT_USAGE;
	}
	if (!format || strcmp(format, "cpuidle-events") != 0) {
		cli_error("--format: only cpuidle-events is supported so far");
		return EXIT_USAGE;
	}
	if (hz < 1 || hz > 100000) {
		cli_error("--hz must be 1..100000");
		return EXIT_USAGE;
	}
	t = is_states_open(states ? states : "power9", NULL, &err);
	if (!t)
		goto fail;
	is_trace_header_init(&h);
	g_strlcpy(h.states, states ? states : "power9", sizeof(h.states));
	if (strchr(h.states, '/') || strchr(h.states, ' '))
		g_strlcpy(h.states, t->name, sizeof(h.states));
	h.state_count = t->count;
	h.hz = hz;
	h.cpus = 0;
	g_snprintf(h.source, sizeof(h.source), "idlesim import --format cpuidle-events");
	is_states_free(t);
	if (!is_import_cpuidle_events(argv[1], out, is_trace_format_for_path(out), &h, &st, &err))
		goto fail;
	fprintf(stderr, "%s: %" G_GUINT64_FORMAT " records (%" G_GUINT64_FORMAT
		" not entered) on %d CPUs from %" G_GUINT64_FORMAT " events; %" G_GUINT64_FORMAT
		" partial periods at the capture's edges dropped; %" G_GUINT64_FORMAT
		" other events ignored\n", out, st.records, st.rejected, st.cpus, st.events,
		st.partial, st.other_events);
	return EXIT_OK;
fail:
	cli_error("%s", err->message);
	g_error_free(err);
	return EXIT_RUNTIME;
}
