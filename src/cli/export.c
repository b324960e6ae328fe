// SPDX-License-Identifier: GPL-2.0-only
/* --export DIR of run and replay: the simulated runs as captures (docs/export.md). */
#include <string.h>

#include "cli.h"

struct is_export *cli_export_new(const struct is_run_input *in, const char *gov,
				 const char *source)
{
	struct is_export_config cfg = {
		.states = in->table, .disabled = in->disabled, .cpus = in->hdr.cpus,
		.hz = in->hdr.hz, .governor = gov, .source = source,
	};
	GError *err = NULL;
	struct is_export *x = is_export_new(&cfg, &err);

	if (!x) {
		cli_error("--export: %s", err->message);
		g_error_free(err);
	}
	return x;
}

bool cli_export_write(struct is_export *x, const char *dir)
{
	const struct is_export_stats *s = is_export_get_stats(x);
	GError *err = NULL;

	if (!is_export_write(x, dir, &err)) {
		cli_error("--export: %s", err->message);
		g_error_free(err);
		return false;
	}
	fprintf(stderr, "exported %s: %" G_GUINT64_FORMAT " idle periods (%" G_GUINT64_FORMAT
		" above, %" G_GUINT64_FORMAT " below; %" G_GUINT64_FORMAT " refused passes, "
		"not traced), trace.dat %s MB\n", dir, s->periods, s->above, s->below, s->refused,
		fmt_f((double)s->dat_bytes / 1e6, 1));
	if (s->shifted)
		fprintf(stderr, "  %" G_GUINT64_FORMAT " periods began before their CPU's previous "
			"simulated exit (the simulated state's exit latency is longer than the "
			"recorded one's): written at that exit, up to %s us later, their length "
			"and state unchanged\n", s->shifted, fmt_f((double)s->shift_max_ns / 1e3, 1));
	fprintf(stderr, "  open it: trace-cmd report -i %s/trace.dat; kernelshark %s/trace.dat; "
		"Perfetto: %s/trace.txt; idlesim import %s -o FILE\n", dir, dir, dir, dir);
	return true;
}
