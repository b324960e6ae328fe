// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlesim kgov build FILE.c... -o NAME.so: a kernel governor source,
 * unchanged, compiled against idlesim's shim of the kernel headers and
 * linked with its runtime into a plugin (-g plugin:NAME.so).  See
 * docs/plugins.md.
 */
#include <string.h>

#include "cli.h"

/*
 * The shim, runtime.c and kgov-abi.h: $IDLESIM_KGOV_DIR, else where
 * `meson install` put them, else the source tree this idlesim was built
 * from.
 */
static const char *kgov_dir(void)
{
	const char *env = g_getenv("IDLESIM_KGOV_DIR");
	static char *installed, *src;

	if (env && *env)
		return env;
	installed = installed ? installed : g_build_filename(IDLESIM_KGOV_INSTALLED, "runtime.c", NULL);
	if (g_file_test(installed, G_FILE_TEST_EXISTS))
		return IDLESIM_KGOV_INSTALLED;
	src = src ? src : g_build_filename(IDLESIM_KGOV_SRCDIR, "runtime.c", NULL);
	if (g_file_test(src, G_FILE_TEST_EXISTS))
		return IDLESIM_KGOV_SRCDIR;
	return NULL;
}

/* @s up to its first @c, or all of it; caller frees. */
static char *upto(const char *s, char c)
{
	const char *e = strchr(s, c);

	return e ? g_strndup(s, (gsize)(e - s)) : g_strdup(s);
}

/*
 * The compiler's complaints that mean "the shim lacks it", said once each
 * in idlesim's words after the compiler's own output.
 */
static void explain(const char *out)
{
	static const char undef[] = "undefined reference to `", fatal[] = ": fatal error: ",
			  implicit[] = "error: implicit declaration of function '",
			  ptype[] = "'KGOV_PTYPE_";
	g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autofree char *from = NULL; /* the file that included the line's header */

	for (int i = 0; lines[i]; i++) {
		const char *l = lines[i], *m;
		g_autofree char *file = NULL, *sym = NULL, *msg = NULL;

		if ((m = strstr(l, "In file included from ")) || (m = strstr(l, "                 from "))) {
			if (strstr(l, "In file included from ") || !from) {
				g_free(from);
				from = upto(strstr(m, "from ") + 5, ':');
			}
			continue;
		}
		if (!g_str_has_prefix(l, " ") && !strstr(l, "note:") && !strstr(l, "shim/"))
			g_clear_pointer(&from, g_free);

		if ((m = strstr(l, undef))) {
			const char *c = strstr(l, ":(");

			sym = upto(m + sizeof(undef) - 1, '\'');
			file = c ? g_strndup(l, (gsize)(c - l)) : g_strdup("the governor file");
			msg = g_strdup_printf("%s uses %s, which idlesim's kernel shim does not provide",
					      file, sym);
		} else if ((m = strstr(l, fatal)) && strstr(l, "No such file")) {
			sym = upto(m + sizeof(fatal) - 1, ':');
			file = upto(l, ':');
			msg = g_strdup_printf("%s includes %s, which idlesim's kernel shim does not "
					      "provide (a \"header\" of the governors' own directory, "
					      "like gov.h, comes with --tree DIR)",
					      file, sym);
		} else if ((m = strstr(l, implicit))) {
			sym = upto(m + sizeof(implicit) - 1, '\'');
			file = upto(l, ':');
			msg = g_strdup_printf("%s calls %s, which idlesim's kernel shim does not "
					      "declare", file, sym);
		} else if ((m = strstr(l, ptype)) && strstr(l, "undeclared")) {
			sym = upto(m + sizeof(ptype) - 1, '\'');
			/* reported in the shim's moduleparam.h: the includer declared it */
			file = from ? g_strdup(from) : upto(l, ':');
			msg = g_strdup_printf("%s declares a module param of type %s, which idlesim "
					      "does not support", file, sym);
		}
		if (msg && !g_hash_table_contains(seen, msg)) {
			cli_error("kgov build: %s", msg);
			g_hash_table_add(seen, g_steal_pointer(&msg));
		}
	}
}

static int kgov_build(int argc, char **argv)
{
	g_autofree char *out = NULL, *tree = NULL, *ccname = NULL;
	g_auto(GStrv) defs = NULL, envp = NULL;
	gboolean verbose = FALSE;
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "the plugin to write", "NAME.so" },
		{ "tree", 't', 0, G_OPTION_ARG_FILENAME, &tree,
		  "a kernel tree: its drivers/cpuidle/governors and drivers/cpuidle for the "
		  "file's \"...\" includes (e.g. gov.h)", "DIR" },
		{ "define", 'D', 0, G_OPTION_ARG_STRING_ARRAY, &defs,
		  "a macro for the file (e.g. CONFIG_CPU_IDLE_GOV_WTEO=1, KGOV_NR_CPUS=8192)",
		  "NAME[=VALUE]" },
		{ "cc", 0, 0, G_OPTION_ARG_STRING, &ccname, "the C compiler (default: $CC, else cc)",
		  "CC" },
		{ "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, "print the compiler's command", NULL },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new(
		"FILE.c... - build kernel governor sources into an idlesim plugin");
	g_autoptr(GPtrArray) av = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *stderr_text = NULL, *shim = NULL, *runtime = NULL, *ccinc = NULL;
	const char *dir;
	struct cli_out o = { 0 };
	GError *err = NULL;
	int code, status = 0;

	g_option_context_set_description(ctx,
		"The file is compiled as it is, against idlesim's stand-ins for the kernel\n"
		"headers a cpuidle governor uses; what they lack is a build error naming\n"
		"the symbol.  Run it with: idlesim run -g plugin:NAME.so[:GOVERNOR] TRACE\n"
		"A plugin is code you build and idlesim runs in its own process.\n");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse(ctx, &argc, &argv, &code))
		return code;
	if (argc < 2 || !out) {
		cli_error("kgov build needs FILE.c... and -o NAME.so (see --help)");
		return EXIT_USAGE;
	}
	if (!cli_out_check("--output", out, &code))
		return code;
	for (int i = 1; i < argc; i++)
		if (!g_file_test(argv[i], G_FILE_TEST_IS_REGULAR)) {
			cli_error("kgov build: %s: no such file", argv[i]);
			return EXIT_RUNTIME;
		}
	if (tree && !g_file_test(tree, G_FILE_TEST_IS_DIR)) {
		cli_error("kgov build: --tree %s: not a directory", tree);
		return EXIT_RUNTIME;
	}
	dir = kgov_dir();
	if (!dir) {
		cli_error("kgov build: the kernel shim is not installed (looked in %s and %s; "
			  "IDLESIM_KGOV_DIR names another place)", IDLESIM_KGOV_INSTALLED,
			  IDLESIM_KGOV_SRCDIR);
		return EXIT_RUNTIME;
	}
	shim = g_build_filename(dir, "shim", NULL);
	runtime = g_build_filename(dir, "runtime.c", NULL);
	if (!ccname)
		ccname = g_strdup(g_getenv("CC") && *g_getenv("CC") ? g_getenv("CC") : "cc");
	/* the compiler's own headers (stddef.h, stdint.h, ...): the only system ones */
	{
		const char *pav[] = { ccname, "-print-file-name=include", NULL };
		int st = 0;

		if (!g_spawn_sync(NULL, (char **)pav, NULL, G_SPAWN_SEARCH_PATH |
				  G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &ccinc, NULL, &st, &err) ||
		    !g_spawn_check_wait_status(st, NULL) || !g_strstrip(ccinc)[0]) {
			cli_error("kgov build: %s: %s", ccname,
				  err ? err->message : "cannot tell its include directory");
			g_clear_error(&err);
			return EXIT_RUNTIME;
		}
	}
	if (!cli_out_open(&o, out))
		return EXIT_RUNTIME;
	g_ptr_array_add(av, g_strdup(ccname));
	/*
	 * The kernel's own integer semantics (-fno-strict-overflow,
	 * -fno-strict-aliasing), C dialect and headers (-nostdinc
	 * -ffreestanding: none of the host's); the warnings the kernel's build
	 * leaves off stay off, those that hide a missing interface are errors.
	 */
	for (const char *const *f = (const char *const[]){ "-std=gnu11", "-O2", "-fPIC", "-shared",
		"-nostdinc", "-ffreestanding", "-fvisibility=hidden", "-fwrapv",
		"-fno-strict-aliasing", "-fno-common", "-Wall", "-Wno-unused-parameter",
		"-Wno-sign-compare", "-Wno-unused-function", "-Wno-maybe-uninitialized",
		"-Werror=implicit-function-declaration", "-Werror=implicit-int",
		"-Werror=incompatible-pointer-types", "-Werror=int-conversion", "-Wl,-z,defs", NULL };
	     *f; f++)
		g_ptr_array_add(av, g_strdup(*f));
	g_ptr_array_add(av, g_strdup("-isystem"));
	g_ptr_array_add(av, g_strdup(ccinc));
	g_ptr_array_add(av, g_strconcat("-I", shim, NULL));
	g_ptr_array_add(av, g_strconcat("-I", dir, NULL));
	if (tree) {
		g_ptr_array_add(av, g_strdup("-iquote"));
		g_ptr_array_add(av, g_build_filename(tree, "drivers/cpuidle/governors", NULL));
		g_ptr_array_add(av, g_strdup("-iquote"));
		g_ptr_array_add(av, g_build_filename(tree, "drivers/cpuidle", NULL));
	}
	for (int i = 0; defs && defs[i]; i++)
		g_ptr_array_add(av, g_strconcat("-D", defs[i], NULL));
	g_ptr_array_add(av, g_strdup("-o"));
	g_ptr_array_add(av, g_strdup(o.tmp ? o.tmp : out));
	for (int i = 1; i < argc; i++)
		g_ptr_array_add(av, g_strdup(argv[i]));
	g_ptr_array_add(av, g_strdup(runtime));
	g_ptr_array_add(av, NULL);
	if (verbose) {
		g_autofree char *line = g_strjoinv(" ", (char **)av->pdata);

		fprintf(stderr, "%s\n", line);
	}
	/* LC_ALL=C: messages explain() can read (ASCII quotes) */
	envp = g_environ_setenv(g_get_environ(), "LC_ALL", "C", TRUE);
	if (!g_spawn_sync(NULL, (char **)av->pdata, envp, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
			  &stderr_text, &status, &err)) {
		cli_error("kgov build: %s: %s", ccname, err->message);
		g_error_free(err);
		cli_out_abort(&o);
		return EXIT_RUNTIME;
	}
	if (stderr_text && *stderr_text)
		fputs(stderr_text, stderr);
	if (!g_spawn_check_wait_status(status, &err)) {
		explain(stderr_text ? stderr_text : "");
		cli_error("kgov build: %s failed (%s); %s not written", ccname, err->message, out);
		g_error_free(err);
		cli_out_abort(&o);
		return EXIT_RUNTIME;
	}
	if (!cli_out_commit(&o))
		return EXIT_RUNTIME;
	printf("wrote %s: run it with -g plugin:%s%s\n", out, strchr(out, '/') ? "" : "./", out);
	return EXIT_OK;
}

int cmd_kgov(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "build") == 0)
		return kgov_build(argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("Usage: idlesim kgov build FILE.c... -o NAME.so [--tree DIR] [-D NAME=VALUE]...\n"
		       "Builds kernel governor sources into a plugin: -g plugin:NAME.so[:GOVERNOR].\n");
		return EXIT_OK;
	}
	cli_error("kgov: the subcommand is build (idlesim kgov build --help)");
	return EXIT_USAGE;
}
