// SPDX-License-Identifier: GPL-2.0-only
/* idlesim command-line tool: subcommand dispatch and shared helpers. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("idlesim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool cli_parse(GOptionContext *ctx, int *argc, char ***argv, int *code)
{
	GError *err = NULL;

	if (!g_option_context_parse(ctx, argc, argv, &err)) {
		cli_error("%s (see --help)", err->message);
		g_error_free(err);
		*code = EXIT_USAGE;
		return false;
	}
	return true;
}

const char *fmt_f(double v, int decimals)
{
	static char ring[16][G_ASCII_DTOSTR_BUF_SIZE];
	static unsigned next;
	char *b = ring[next++ % 16];
	char fmt[8];

	snprintf(fmt, sizeof(fmt), "%%.%df", decimals);
	return g_ascii_formatd(b, G_ASCII_DTOSTR_BUF_SIZE, fmt, v);
}

bool cli_out_check(const char *opt, const char *path, int *code)
{
	if (!path)
		return true;
	if (!*path) {
		cli_error("%s: an empty file name", opt);
		*code = EXIT_USAGE;
		return false;
	}
	if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
		cli_error("%s %s: %s", opt, path, g_strerror(EISDIR));
		*code = EXIT_RUNTIME;
		return false;
	}
	return true;
}

bool cli_governors_check(const char *spec)
{
	g_auto(GStrv) names = g_strsplit(spec, ",", -1);

	if (!names[0]) {
		cli_error("--governor: no governor named (see idlesim governors)");
		return false;
	}
	for (int i = 0; names[i]; i++) {
		GError *err = NULL;

		if (!is_governor_lookup(names[i], &err)) {
			cli_error("--governor: %s", err->message);
			g_error_free(err);
			return false;
		}
		for (int j = 0; j < i; j++)
			if (strcmp(names[i], names[j]) == 0) {
				cli_error("--governor: '%s' given twice", names[i]);
				return false;
			}
	}
	return true;
}

bool cli_plot_check(const char *dir, int *code)
{
	if (!dir)
		return true;
	if (!*dir) {
		cli_error("--plot: an empty directory name");
		*code = EXIT_USAGE;
		return false;
	}
	if (g_file_test(dir, G_FILE_TEST_EXISTS) && !g_file_test(dir, G_FILE_TEST_IS_DIR)) {
		cli_error("--plot %s: %s", dir, g_strerror(ENOTDIR));
		*code = EXIT_RUNTIME;
		return false;
	}
	return true;
}

bool cli_plot_dir(const char *dir)
{
	if (g_mkdir_with_parents(dir, 0777) != 0) {
		cli_error("--plot %s: %s", dir, g_strerror(errno));
		return false;
	}
	return true;
}

bool cli_plot_file(const char *dir, const char *name, const char *text)
{
	g_autofree char *p = g_build_filename(dir, name, NULL);
	GError *err = NULL;

	if (!g_file_set_contents(p, text, -1, &err)) {
		cli_error("--plot: %s", err->message);
		g_error_free(err);
		return false;
	}
	return true;
}

bool cli_plot_run(const char *dir, const char *script)
{
	g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
	const char *argv[] = { gnuplot, script, NULL };
	GError *err = NULL;
	gint st = 0;

	if (!gnuplot) {
		cli_error("--plot: gnuplot is not installed (apt-get install gnuplot-nox); "
			  "the data and %s are in %s", script, dir);
		return true;
	}
	if (!g_spawn_sync(dir, (char **)argv, NULL,
			  G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
			  NULL, NULL, &st, &err) || !g_spawn_check_wait_status(st, &err)) {
		cli_error("--plot: gnuplot failed: %s", err->message);
		g_error_free(err);
		return false;
	}
	return true;
}

bool cli_out_open(struct cli_out *o, const char *path)
{
	GError *err = NULL;

	if (is_outfile_open(o, path, &err))
		return true;
	cli_error("%s", err->message);
	g_error_free(err);
	return false;
}

bool cli_out_commit(struct cli_out *o)
{
	GError *err = NULL;

	if (is_outfile_commit(o, &err))
		return true;
	cli_error("%s", err->message);
	g_error_free(err);
	return false;
}

void cli_out_abort(struct cli_out *o)
{
	is_outfile_abort(o);
}

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} cmds[] = {
	{ "states", cmd_states, "print a state table (built-in name, key file or sysfs dump)" },
	{ "governors", cmd_governors, "list the governors with their params" },
	{ "run", cmd_run, "replay a trace through one or more governors" },
	{ "replay", cmd_replay, "replay one governor decision by decision (--check, --digest)" },
	{ "import", cmd_import, "turn a kernel capture into a native trace" },
	{ "synth", cmd_synth, "write a synthetic workload scenario as a trace" },
	{ "rfc", cmd_rfc, "rerun the weighted-TEO RFC's experiments on the model" },
	{ "sweep", cmd_sweep, "run a governor over a grid of params x traces" },
	{ "merge", cmd_merge, "join the shards of a sweep" },
	{ "convert", cmd_convert, "convert a trace between text and binary" },
	{ "bench", cmd_bench, "replay benchmark: idle periods per second" },
	{ "kgov", cmd_kgov, "build a kernel governor file into a plugin (-g plugin:FILE)" },
	{ "regress", cmd_regress, "a governor change's verdict over a corpus (OLD NEW)" },
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: idlesim COMMAND [OPTION...]\n\n"
		   "A simulator of Linux cpuidle governors.\n\nCommands:\n");
	for (size_t i = 0; i < G_N_ELEMENTS(cmds); i++)
		fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\nidlesim COMMAND --help shows a command's options.\n"
		   "Exit status: 0 ok, 1 runtime error (bad input), 2 usage error.\n");
}

/*
 * As coreutils' close_stdout(): a report lost to a full disk or a failed
 * pipe must not exit 0.  A command that failed already said why.
 */
static int close_stdout(int code)
{
	int e = fflush(stdout) != 0 ? errno : 0;

	if ((e || ferror(stdout)) && code == EXIT_OK) {
		cli_error("standard output: %s", e ? g_strerror(e) : "write error");
		return EXIT_RUNTIME;
	}
	return code;
}

static int run_command(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("idlesim %s\n", IDLESIM_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(cmds); i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1);
	cli_error("unknown command '%s'", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}

/*
 * Ctrl-C, kill, a closed terminal: every output being written is a
 * temporary file, removed here, so that an interrupted synth, convert,
 * import or merge leaves nothing behind; then the signal's default action.
 * (sweep keeps its journal: it handles SIGINT and SIGTERM itself while its
 * jobs run.)
 */
static void on_fatal_signal(int sig)
{
	is_outfile_unlink_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * A crash (a fault, or abort()): in a plugin (code the user built, run in
 * this process) it is named, with the call and CPU; outputs being written
 * are removed; then the handler that was there before (the default, or a
 * sanitizer's, which then reports it) takes the signal: a fault recurs
 * when this returns, abort() raises again.
 */
static struct sigaction crash_old[NSIG];

static void on_crash(int sig)
{
	const char *who = is_governor_plugin_running();

	if (who) {
		static const char pre[] = "idlesim: crashed inside ", post[] = " (signal ";
		char num[4] = { (char)('0' + sig / 10 % 10), (char)('0' + sig % 10), ')', '\n' };

		if (write(STDERR_FILENO, pre, sizeof(pre) - 1) < 0 ||
		    write(STDERR_FILENO, who, strlen(who)) < 0 ||
		    write(STDERR_FILENO, post, sizeof(post) - 1) < 0 ||
		    write(STDERR_FILENO, num, sizeof(num)) < 0)
			sig = sig + 0;
	}
	is_outfile_unlink_all();
	sigaction(sig, &crash_old[sig], NULL);
}

int main(int argc, char **argv)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_fatal_signal };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++) {
		struct sigaction old;

		/* a signal ignored by whoever started us (nohup, a background job) stays so */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	static const int crashes[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction ca = { .sa_handler = on_crash };
	int code;

	sigemptyset(&ca.sa_mask);
	for (size_t i = 0; i < G_N_ELEMENTS(crashes); i++)
		sigaction(crashes[i], &ca, &crash_old[crashes[i]]);
	code = close_stdout(run_command(argc, argv));
	is_governor_plugins_free();
	return code;
}
