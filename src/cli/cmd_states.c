// SPDX-License-Identifier: GPL-2.0-only
/* idlesim states, idlesim governors */
#include <string.h>

#include "cli.h"

static const char *flag_str(uint32_t f)
{
	static char b[48];

	b[0] = 0;
	if (f & IS_STATE_POLLING)
		strcat(b, "polling,");
	if (f & IS_STATE_OFF)
		strcat(b, "off,");
	if (f & IS_STATE_TIMER_STOP)
		strcat(b, "timer-stop,");
	if (b[0])
		b[strlen(b) - 1] = 0;
	else
		strcpy(b, "-");
	return b;
}

void print_states(FILE *f, const struct is_state_table *t, uint32_t disabled)
{
	int w = 12;

	for (int i = 0; i < t->count; i++)
		w = MAX(w, (int)strlen(t->s[i].name));
	fprintf(f, "table %s: %d states\n", t->name, t->count);
	fprintf(f, "%-3s %-*s %12s %12s %-18s %6s %12s %s\n", "idx", w, "name", "exit_lat_us",
		"residency_us", "flags", "power", "trans_en_ns", "default");
	for (int i = 0; i < t->count; i++) {
		const struct is_state *s = &t->s[i];

		fprintf(f, "%-3d %-*s %12s %12s %-18s %6s %12s %s\n", i, w, s->name,
			fmt_f((double)s->exit_latency_ns / 1000.0, 3),
			fmt_f((double)s->target_residency_ns / 1000.0, 3), flag_str(s->flags),
			fmt_f(s->power, 3), fmt_f(s->transition_energy, 0),
			(disabled & (1u << i)) ? "disabled" : "enabled");
	}
}

int cmd_states(int argc, char **argv)
{
	g_autofree char *format = NULL, *dts = NULL, *tree = NULL;
	gboolean list = FALSE;
	gint cpu = 0;
	GOptionEntry entries[] = {
		{ "format", 0, 0, G_OPTION_ARG_STRING, &format, "table (default) or keyfile", "FMT" },
		{ "list", 0, 0, G_OPTION_ARG_NONE, &list, "list the built-in tables", NULL },
		{ "dts", 0, 0, G_OPTION_ARG_FILENAME, &dts,
		  "a device tree: a .dts (compiled with cpp and dtc) or a .dtb", "FILE" },
		{ "cpu", 0, 0, G_OPTION_ARG_INT, &cpu,
		  "--dts: the CPU whose states to take (the N-th cpu node, default 0)", "N" },
		{ "tree", 0, 0, G_OPTION_ARG_FILENAME, &tree,
		  "--dts: a kernel tree for the .dts's includes", "DIR" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("[NAME|FILE|DIR] - print an idle-state table");
	GError *err = NULL;
	struct is_state_table *t;
	uint32_t disabled = 0;
	int code;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"NAME is a built-in table (--list; default power9), some from the kernel's own\n"
		"sources (arm64 device trees, intel_idle.c),\n"
		"FILE a key file ([stateN] groups), DIR a copy of a cpuidle sysfs directory\n"
		"(stateN/{name,latency,residency,disable}).  Power figures are a model:\n"
		"see docs/states.md.");
	if (!cli_parse(ctx, &argc, &argv, &code))
		return code;
	if (list) {
		for (const char *const *n = is_states_builtin_names(); *n; n++) {
			const char *src = is_states_builtin_source(*n);

			printf("%-14s %s\n", *n, src ? src : "(hand-written: docs/states.md)");
		}
		return EXIT_OK;
	}
	if (argc > 2) {
		cli_error("states takes one table, got %d", argc - 1);
		return EXIT_USAGE;
	}
	if (format && strcmp(format, "table") != 0 && strcmp(format, "keyfile") != 0) {
		cli_error("--format must be table or keyfile, not '%s'", format);
		return EXIT_USAGE;
	}
	if ((cpu || tree) && !dts) {
		cli_error("--cpu and --tree go with --dts");
		return EXIT_USAGE;
	}
	if (dts && argc > 1) {
		cli_error("give --dts FILE or a table, not both");
		return EXIT_USAGE;
	}
	if (cpu < 0) {
		cli_error("--cpu must not be negative");
		return EXIT_USAGE;
	}
	if (dts) {
		g_autofree char *blob = NULL, *base = g_path_get_basename(dts);
		g_autofree char *name = g_strdup_printf("%s:cpu%d", base, cpu);
		gsize len = 0;

		if (is_states_file_is_dtb(dts))
			g_file_get_contents(dts, &blob, &len, &err);
		else
			blob = is_states_dts_compile(dts, tree, &len, &err);
		t = blob ? is_states_load_dtb(blob, len, cpu, name, &err) : NULL;
	} else {
		t = is_states_open(argc > 1 ? argv[1] : "power9", &disabled, &err);
	}
	if (!t) {
		cli_error("%s", err->message);
		g_error_free(err);
		return EXIT_RUNTIME;
	}
	if (format && strcmp(format, "keyfile") == 0) {
		g_autoptr(GString) kf = g_string_new(NULL);

		is_states_keyfile(kf, t);
		fputs(kf->str, stdout);
	} else {
		print_states(stdout, t, disabled);
	}
	is_states_free(t);
	return EXIT_OK;
}

int cmd_governors(int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("- list the governors, their params, defaults and ranges");
	int code;

	if (!cli_parse(ctx, &argc, &argv, &code))
		return code;
	if (argc > 1) {
		cli_error("governors takes no arguments");
		return EXIT_USAGE;
	}
	for (const struct is_governor *const *g = is_governors(); *g; g++) {
		printf("%s: %s\n", (*g)->name, (*g)->description);
		print_params(stdout, (*g)->params, (*g)->nparams);
	}
	return EXIT_OK;
}
