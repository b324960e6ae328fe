/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IDLESIM_CLI_H
#define IDLESIM_CLI_H

#include <stdio.h>
#include "idlesim/idlesim.h"

/* Exit codes. */
enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

int cmd_states(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_kgov(int argc, char **argv);
int cmd_governors(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_synth(int argc, char **argv);
int cmd_rfc(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_regress(int argc, char **argv);

/* Parse options; prints errors and returns false with *code set. */
bool cli_parse(GOptionContext *ctx, int *argc, char ***argv, int *code);
void cli_error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* Locale-independent number formatting into a static ring of buffers. */
const char *fmt_f(double v, int decimals);

/*
 * Output to a file that appears under its name only when complete: opens
 * PATH.tmp.XXXXXX (or stdout for NULL / "-").
 */
#define cli_out is_outfile
bool cli_out_open(struct cli_out *o, const char *path);
/*
 * Checks an output path before the work that fills it: refuses an empty
 * name (usage error) and an existing directory (runtime error), which
 * the final rename() would refuse only after a long run.  NULL passes.
 */
bool cli_out_check(const char *opt, const char *path, int *code);
bool cli_out_commit(struct cli_out *o);
void cli_out_abort(struct cli_out *o);
/*
 * Checks a comma-separated --governor list before any work: at least one
 * name, each a governor, none twice.  Prints the error.
 */
bool cli_governors_check(const char *spec);
/*
 * --plot DIR: checked before the work (a usage error if empty, a runtime
 * error if it exists and is not a directory); then made, its data files
 * written and gnuplot run on @script there.  Without gnuplot the data and
 * script stay, with a message, and that is not an error.  Each prints its
 * error and returns false on failure.
 */
bool cli_plot_check(const char *dir, int *code);
bool cli_plot_dir(const char *dir);
bool cli_plot_file(const char *dir, const char *name, const char *text);
bool cli_plot_run(const char *dir, const char *script);

struct run_report {
	const char *trace_path;
	const struct is_trace_header *hdr;
	uint64_t records;
	const struct is_state_table *states;
	const char *mode;
	int baseline;
	int ngov;
	struct is_run_gov *res;
	int cpus;
	const struct is_run_estimates *est;  /* the input's estimated records */
	int64_t window_from_ns, window_to_ns; /* measured records (to 0: all) */
};
/*
 * What the report rests on that the input did not measure, one line each,
 * "\n"-terminated: the header's "# assumed:" lines and the share of
 * periods with estimated inputs.  Empty when nothing.
 */
char *report_caveats(const struct run_report *r);

void report_json(FILE *f, const struct run_report *r);
void report_csv(FILE *f, const struct run_report *r);
void report_table(FILE *f, const struct run_report *r);
/* 100 * n / d, 0 for d = 0. */
double cli_pct(uint64_t n, uint64_t d);
/* "  name=default (range)  help" lines of a param list. */
void print_params(FILE *f, const struct is_param_desc *d, int n);
void print_states(FILE *f, const struct is_state_table *t, uint32_t disabled);

/* Synthetic workload options (workload.c), shared by synth, run and sweep. */
struct is_synth_config;
struct is_synth;
struct cli_workload {
	char *name;
	char **params;
	int cpus, hz;
	gint64 seed, periods, latency_us;
	char *duration;
	int64_t until_ns;
	gboolean rtapp_strict;           /* --rtapp-strict: JSON as written, no workgen */
	struct is_rtapp *rtapp;          /* --workload rt-app:FILE, loaded */
};
GOptionGroup *cli_workload_options(struct cli_workload *w);
bool cli_workload_config(struct cli_workload *w, struct is_synth_config *cfg, int *code);
/* Frees what the options and cli_workload_config() allocated. */
void cli_workload_clear(struct cli_workload *w);
void cli_workload_header(const struct cli_workload *w, const struct is_synth_config *cfg,
			 const struct is_state_table *t, struct is_trace_header *h);
bool cli_parse_duration(const char *s, int64_t *ns);

/* `idlesim run` after its option checks (cmd_run.c); also import --report. */
struct cli_run_opts {
	const char *trace;                 /* a trace, or ... */
	const struct cli_workload *wl;     /* ... a scenario (checked), with */
	const struct is_synth_config *scfg;
	const char *states;                /* NULL: the input's own table */
	const char *govs;                  /* comma-separated */
	char **params;                     /* --param KVs, may be NULL */
	const char *baseline;              /* NULL: the first governor */
	enum is_sim_mode mode;
	int64_t seed;                      /* < 0: the input's, else 1 */
	const char *format;                /* NULL: table */
	const char *out;                   /* NULL or "-": stdout */
	int64_t window_from_ns, window_to_ns; /* --window (to 0: none) */
	int64_t poll_overrun_ns;           /* < 0: the input's */
	int64_t tick_late_ns;              /* < 0: the input's */
	bool exit_free;                    /* is_sim_config's */
	const char *export_dir;            /* --export: DIR/<governor>/ each */
	const char *warm;                  /* --warm: a scenario's warm start (is_run_input) */
};
int cli_run(const struct cli_run_opts *ro);

/*
 * --export DIR (src/cli/export.c): an exporter of @in's machine for
 * governor @gov, and its bundle written with a summary on stderr.  Both
 * print their errors.
 */
struct is_export *cli_export_new(const struct is_run_input *in, const char *gov,
				 const char *source);
bool cli_export_write(struct is_export *x, const char *dir);

#endif
