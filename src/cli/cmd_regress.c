// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlesim regress OLD NEW: a governor patch's verdict over the corpus
 * (docs/regress.md).  OLD and NEW are built-in governors, plugins, or
 * governor source files built here with `idlesim kgov build`.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "cli.h"

#define EXIT_WORSE 3

/*
 * SIGINT, SIGTERM, SIGHUP while regress runs: it stops starting runs and
 * removes its scratch directory (plugins, patched trees) before it exits,
 * which main()'s handler, made for single files, cannot do.
 */
static volatile int interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

struct side {
	const char *arg;
	struct is_regress_spec spec;
	char *plugin;             /* a source file's plugin (in tmpdir) */
	char *file;               /* FILE.c[+PATCH]: the file ... */
	char *patch;              /* ... the patch applied to it, its subject, and */
	char *subject;
	char *reverts;            /* ... the commit a "Revert" patch names */
};

/* Builds FILE.c with this program's kgov build into @dir; prints its errors. */
static char *build_source(const char *file, const char *tree, const char *dir, const char *tag)
{
	g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
	char *out = g_strdup_printf("%s/%s.so", dir, tag);
	const char *av[] = { self, "kgov", "build", file, "-o", out, tree ? "--tree" : NULL,
			     tree, NULL };
	g_autofree char *serr = NULL;
	GError *err = NULL;
	int st = 0;

	if (!self || !g_spawn_sync(NULL, (char **)av, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
				   NULL, &serr, &st, &err) || !g_spawn_check_wait_status(st, NULL)) {
		/* a build that Ctrl-C stopped is not a build error */
		if (serr && !interrupted)
			fputs(serr, stderr);
		if (!interrupted)
			cli_error("regress: %s: kgov build failed%s%s", file, err ? ": " : "",
				  err ? err->message : "");
		g_clear_error(&err);
		g_free(out);
		return NULL;
	}
	return out;
}

/*
 * FILE.c+PATCH: FILE copied to where PATCH's "+++ b/PATH" puts it in a
 * tree of its own (with the header files beside FILE, e.g. gov.h), the
 * patch applied with git apply, and the result built.  Sets the side's
 * patch subject (and the commit a revert names).
 */
static char *patched_source(struct side *s, const char *dir, const char *tag)
{
	g_autofree char *text = NULL, *target = NULL, *root = NULL, *dst = NULL, *ddir = NULL;
	g_autofree char *fdir = g_path_get_dirname(s->file), *serr = NULL;
	g_auto(GStrv) lines = NULL, envp = NULL;
	GError *err = NULL;
	GDir *d;
	const char *name;
	int st = 0;

	if (!g_file_get_contents(s->patch, &text, NULL, &err)) {
		cli_error("regress: %s", err->message);
		g_error_free(err);
		return NULL;
	}
	lines = g_strsplit(text, "\n", -1);
	for (int i = 0; lines[i]; i++) {
		const char *l = lines[i];

		if (!target && g_str_has_prefix(l, "+++ b/"))
			target = g_strdup(l + 6);
		else if (!s->subject && g_str_has_prefix(l, "Subject: "))
			s->subject = g_strdup(l[9] == '[' && strchr(l, ']') ?
					      g_strchug(strchr(l, ']') + 1) : l + 9);
		else if (!s->reverts && g_str_has_prefix(l, "This reverts commit "))
			s->reverts = g_strndup(l + 20, strcspn(l + 20, " ,."));
	}
	if (!target || strstr(target, "..")) {
		cli_error("regress: %s: no \"+++ b/PATH\" line naming the file it patches", s->patch);
		return NULL;
	}
	root = g_strdup_printf("%s/%s-tree", dir, tag);
	dst = g_build_filename(root, target, NULL);
	ddir = g_path_get_dirname(dst);
	g_mkdir_with_parents(ddir, 0700);
	d = g_dir_open(fdir, 0, NULL);
	while (d && (name = g_dir_read_name(d)))
		if (g_str_has_suffix(name, ".h")) {
			g_autofree char *from = g_build_filename(fdir, name, NULL);
			g_autofree char *to = g_build_filename(ddir, name, NULL);
			g_autofree char *h = NULL;
			gsize n;

			if (g_file_get_contents(from, &h, &n, NULL))
				g_file_set_contents(to, h, (gssize)n, NULL);
		}
	if (d)
		g_dir_close(d);
	{
		g_autofree char *src = NULL;
		gsize n;

		if (!g_file_get_contents(s->file, &src, &n, &err) ||
		    !g_file_set_contents(dst, src, (gssize)n, &err)) {
			cli_error("regress: %s", err->message);
			g_error_free(err);
			return NULL;
		}
	}
	{
		g_autofree char *abs = g_canonicalize_filename(s->patch, NULL);
		const char *av[] = { "git", "apply", abs, NULL };

		/* git apply outside any repository: GIT_CEILING_DIRECTORIES stops the search */
		envp = g_environ_setenv(g_get_environ(), "GIT_CEILING_DIRECTORIES", dir, TRUE);
		if (!g_spawn_sync(root, (char **)av, envp, G_SPAWN_SEARCH_PATH |
				  G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &serr, &st, &err) ||
		    !g_spawn_check_wait_status(st, NULL)) {
			cli_error("regress: %s does not apply to %s (git apply: %s)", s->patch, s->file,
				  err ? err->message : serr ? g_strstrip(serr) : "failed");
			g_clear_error(&err);
			return NULL;
		}
	}
	return build_source(dst, root, dir, tag);
}

static bool resolve(struct side *s, char **params, const char *tree, const char *dir,
		    const char *tag, int *code)
{
	g_autofree char *spec = NULL;
	const char *plus = strstr(s->arg, ".c+");
	GError *err = NULL;

	*code = EXIT_USAGE;
	if (g_str_has_suffix(s->arg, ".c") || plus) {
		*code = EXIT_RUNTIME;
		s->file = plus ? g_strndup(s->arg, (gsize)(plus + 2 - s->arg)) : g_strdup(s->arg);
		s->patch = plus ? g_strdup(plus + 3) : NULL;
		if (!g_file_test(s->file, G_FILE_TEST_IS_REGULAR) ||
		    (s->patch && !g_file_test(s->patch, G_FILE_TEST_IS_REGULAR))) {
			cli_error("regress: %s: no such file",
				  g_file_test(s->file, G_FILE_TEST_IS_REGULAR) ? s->patch : s->file);
			return false;
		}
		s->plugin = s->patch ? patched_source(s, dir, tag) : build_source(s->file, tree, dir, tag);
		if (!s->plugin)
			return false;
		spec = g_strconcat("plugin:", s->plugin, NULL);
	} else {
		spec = g_strdup(s->arg);
	}
	s->spec.gov = is_governor_lookup(spec, &err);
	if (!s->spec.gov) {
		cli_error("regress: %s: %s", s->arg, err->message);
		g_error_free(err);
		*code = g_str_has_prefix(spec, "plugin:") ? EXIT_RUNTIME : EXIT_USAGE;
		return false;
	}
	is_params_defaults(s->spec.gov, &s->spec.params);
	for (int i = 0; params && params[i]; i++)
		if (!is_params_set(s->spec.gov, &s->spec.params, params[i], &err)) {
			cli_error("regress: --%s-param %s: %s", tag, params[i], err->message);
			g_error_free(err);
			*code = EXIT_USAGE;
			return false;
		}
	return true;
}

static void progress(void *ctx, int done, int total)
{
	bool *tty = ctx;

	if (*tty)
		fprintf(stderr, "\rregress: %d/%d runs", done, total);
	if (*tty && done == total)
		fputc('\n', stderr);
}

static const char *pct_change(double o, double n, char buf[32])
{
	if (o == n)
		snprintf(buf, 32, "=");
	else if (o == 0)
		snprintf(buf, 32, "new");
	else
		g_snprintf(buf, 32, "%+.1f%%", 100.0 * (n - o) / o);
	return buf;
}

static void print_table(FILE *f, GPtrArray *res, const struct side *o, const struct side *n)
{
	int worse = 0, better = 0;

	fprintf(f, "%-20s %9s %9s %15s %15s %15s  %s\n", "case", "energy", "p99", "sel/period",
		"above%", "below%", "verdict");
	for (guint i = 0; i < res->len; i++) {
		const struct is_regress_result *r = g_ptr_array_index(res, i);
		const struct is_regress_metric *m = r->metric;
		char a[32], b[32], spp[32], ab[32], be[32];

		g_snprintf(spp, sizeof(spp), "%.2f->%.2f", m[IS_RM_SPP].old_mean, m[IS_RM_SPP].new_mean);
		g_snprintf(ab, sizeof(ab), "%.1f->%.1f", r->above_pct[0], r->above_pct[1]);
		g_snprintf(be, sizeof(be), "%.1f->%.1f", r->below_pct[0], r->below_pct[1]);
		fprintf(f, "%-20s %9s %9s %15s %15s %15s  %s\n", r->c->name,
			pct_change(m[IS_RM_ENERGY].old_mean, m[IS_RM_ENERGY].new_mean, a),
			pct_change(m[IS_RM_P99].old_mean, m[IS_RM_P99].new_mean, b), spp, ab, be,
			is_verdict_name(r->v));
		worse += r->v == IS_WORSE;
		better += r->v == IS_BETTER;
	}
	for (guint i = 0; i < res->len; i++) {
		const struct is_regress_result *r = g_ptr_array_index(res, i);

		if (r->v != IS_SAME)
			fprintf(f, "%s %s: %s\n", r->c->name, is_verdict_name(r->v), r->reason);
	}
	fprintf(f, "%s -> %s: %d of %u cases worse, %d better, %u the same within their seeds' "
		"noise\n", o->arg, n->arg, worse, res->len, better, res->len - worse - better);
	if (worse + better && o->file && n->file && !strcmp(o->file, n->file) &&
	    !!o->patch != !!n->patch) {
		/* one file, one side patched: the patch is the whole change */
		const struct side *p = o->patch ? o : n;

		fprintf(f, "the change from OLD to NEW: %s %s (\"%s\")", o->patch ? "leaving out" :
			"applying", p->patch, p->subject ? p->subject : "no subject");
		if (o->patch && p->reverts)
			fprintf(f, ", i.e. NEW has commit %s back", p->reverts);
		fprintf(f, ": the cause of the %d worse and %d better cases\n", worse, better);
	}
}

/* the JSON keys and CSV names of enum is_rmetric */
static const char *const rmetric_keys[IS_RM_COUNT] = {
	"energy_active_ns", "lat_p99_ns", "selections_per_period"
};

static void json_num(GString *s, double v)
{
	char b[G_ASCII_DTOSTR_BUF_SIZE];

	g_string_append(s, g_ascii_formatd(b, sizeof(b), "%.6g", v));
}

static void print_json(FILE *f, GPtrArray *res, const struct side *o, const struct side *n,
		       const char *corpus)
{
	g_autoptr(GString) s = g_string_new(NULL);

	g_string_append_printf(s, "{\n  \"idlesim_version\": \"%s\",\n  \"old\": ", IDLESIM_VERSION);
	is_json_string(s, o->arg);
	g_string_append(s, ",\n  \"new\": ");
	is_json_string(s, n->arg);
	g_string_append(s, ",\n  \"corpus\": ");
	is_json_string(s, corpus);
	g_string_append(s, ",\n  \"cases\": [");
	for (guint i = 0; i < res->len; i++) {
		const struct is_regress_result *r = g_ptr_array_index(res, i);

		g_string_append(s, i ? ",\n    {" : "\n    {");
		g_string_append(s, "\"name\": ");
		is_json_string(s, r->c->name);
		g_string_append(s, ", \"catches\": ");
		is_json_string(s, r->c->catches);
		g_string_append_printf(s, ", \"seeds\": %d, \"verdict\": \"%s\", \"reason\": ",
				       r->c->seeds, is_verdict_name(r->v));
		is_json_string(s, r->reason);
		g_string_append(s, ", \"metrics\": {");
		for (int m = 0; m < IS_RM_COUNT; m++) {
			g_string_append_printf(s, "%s\"%s\": {\"old\": ", m ? ", " : "", rmetric_keys[m]);
			json_num(s, r->metric[m].old_mean);
			g_string_append(s, ", \"new\": ");
			json_num(s, r->metric[m].new_mean);
			g_string_append(s, ", \"noise\": ");
			json_num(s, r->metric[m].noise);
			g_string_append_printf(s, ", \"verdict\": \"%s\"}", is_verdict_name(r->metric[m].v));
		}
		g_string_append(s, "}");
		for (int side = 0; side < 2; side++) {
			g_string_append_printf(s, ", \"%s\": {\"above_pct\": ", side ? "new_run" : "old_run");
			json_num(s, r->above_pct[side]);
			g_string_append(s, ", \"below_pct\": ");
			json_num(s, r->below_pct[side]);
			g_string_append(s, ", \"time_pct\": [");
			for (int k = 0; k < r->states; k++) {
				if (k)
					g_string_append(s, ", ");
				json_num(s, r->time_pct[side][k]);
			}
			g_string_append(s, "], \"findings\": [");
			for (int sd = 0, first = 1; sd < r->c->seeds; sd++)
				for (int k = 0; k < IS_FIND_COUNT; k++) {
					const struct is_finding *x = &(side ? r->new : r->old)[sd].find[k];

					if (!x->found)
						continue;
					g_string_append_printf(s, "%s{\"seed\": %d, \"kind\": \"%s\", "
							       "\"cpu\": %d, \"state\": %d, \"since_ns\": %"
							       G_GINT64_FORMAT ", \"count\": %" G_GUINT64_FORMAT
							       ", \"pct\": ", first ? "" : ", ", sd + 1,
							       is_finding_name(k), x->cpu, x->state, x->since_ns,
							       x->count);
					json_num(s, x->pct);
					g_string_append(s, ", \"ratio\": ");
					json_num(s, x->ratio);
					g_string_append(s, "}");
					first = 0;
				}
			g_string_append(s, "]}");
		}
		g_string_append(s, "}");
	}
	g_string_append(s, "\n  ]\n}\n");
	fputs(s->str, f);
}

static void print_csv(FILE *f, GPtrArray *res)
{
	fprintf(f, "case,metric,old,new,noise,verdict,case_verdict\n");
	for (guint i = 0; i < res->len; i++) {
		const struct is_regress_result *r = g_ptr_array_index(res, i);

		for (int m = 0; m < IS_RM_COUNT; m++) {
			char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE], c[G_ASCII_DTOSTR_BUF_SIZE];

			fprintf(f, "%s,%s,%s,%s,%s,%s,%s\n", r->c->name, rmetric_keys[m],
				g_ascii_formatd(a, sizeof(a), "%.6g", r->metric[m].old_mean),
				g_ascii_formatd(b, sizeof(b), "%.6g", r->metric[m].new_mean),
				g_ascii_formatd(c, sizeof(c), "%.6g", r->metric[m].noise),
				is_verdict_name(r->metric[m].v), is_verdict_name(r->v));
		}
	}
}

/* The corpus of the source tree this idlesim was built from. */
static const char *default_corpus(void)
{
	const char *env = g_getenv("IDLESIM_CORPUS");

	return env && *env ? env : IDLESIM_REGRESS_CORPUS;
}

int cmd_regress(int argc, char **argv)
{
	g_autofree char *corpus = NULL, *format = NULL, *out = NULL, *tree = NULL, *cases = NULL;
	g_auto(GStrv) oparams = NULL, nparams = NULL;
	gboolean full = FALSE, quiet = FALSE;
	gint jobs = 0;
	GOptionEntry entries[] = {
		{ "corpus", 0, 0, G_OPTION_ARG_FILENAME, &corpus, "the corpus (default: traces/regress/corpus.ini of the source tree)", "FILE" },
		{ "full", 0, 0, G_OPTION_ARG_NONE, &full, "also the cases marked full (longer)", NULL },
		{ "case", 0, 0, G_OPTION_ARG_STRING, &cases, "only these cases", "NAME[,NAME...]" },
		{ "old-param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &oparams, "a param of OLD: key=value", "KV" },
		{ "new-param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &nparams, "a param of NEW: key=value", "KV" },
		{ "tree", 0, 0, G_OPTION_ARG_FILENAME, &tree, "a kernel tree for source files' \"...\" includes (kgov build --tree)", "DIR" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "threads (default: the CPUs)", "N" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format, "table (default), json or csv", "FMT" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "write the report here (complete or not at all)", "FILE" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no progress", NULL },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new(
		"OLD NEW - a governor change's verdict over a corpus of cases");
	struct side o = { 0 }, n = { 0 };
	struct is_regress_corpus *cp = NULL;
	struct is_regress_options ro = { 0 };
	static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { 0 }, old_sa[3];
	GPtrArray *res = NULL;
	g_autofree char *tmp = NULL;
	struct cli_out co;
	GError *err = NULL;
	bool tty = false;
	int code;

	g_option_context_set_description(ctx,
		"OLD and NEW: built-in governors (teo-6.12), plugins (plugin:FILE.so[:NAME]),\n"
		"governor source files (teo.c), built with idlesim kgov build, or a source file\n"
		"with a patch applied (teo.c+fix.patch, git format-patch output).\n"
		"Exit status: 0 nothing worse, 3 a case worse, 1 an error, 2 a usage error.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse(ctx, &argc, &argv, &code))
		return code;
	if (argc != 3) {
		cli_error("regress needs OLD and NEW (see --help)");
		return EXIT_USAGE;
	}
	if (format && strcmp(format, "table") && strcmp(format, "json") && strcmp(format, "csv")) {
		cli_error("--format must be table, json or csv, not '%s'", format);
		return EXIT_USAGE;
	}
	if (jobs < 0) {
		cli_error("--jobs must be >= 1");
		return EXIT_USAGE;
	}
	if (!cli_out_check("--output", out, &code))
		return code;
	o.arg = argv[1];
	n.arg = argv[2];
	tmp = g_dir_make_tmp("idlesim-regress-XXXXXX", &err);
	if (!tmp) {
		cli_error("regress: %s", err->message);
		g_error_free(err);
		return EXIT_RUNTIME;
	}
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old_sa[i]);
	if (!resolve(&o, oparams, tree, tmp, "old", &code) ||
	    !resolve(&n, nparams, tree, tmp, "new", &code))
		goto out;
	code = EXIT_RUNTIME;
	cp = is_regress_corpus_load(corpus ? corpus : default_corpus(), &err);
	if (!cp)
		goto fail;
	if (cases) {
		g_auto(GStrv) want = g_strsplit(cases, ",", -1);

		for (int i = 0; want[i]; i++) {
			bool found = false;

			for (guint k = 0; k < cp->cases->len; k++)
				found |= !strcmp(((struct is_regress_case *)
						  g_ptr_array_index(cp->cases, k))->name, want[i]);
			if (!found) {
				cli_error("--case %s: no such case in %s", want[i], cp->path);
				code = EXIT_USAGE;
				goto out;
			}
		}
		for (guint k = cp->cases->len; k-- > 0;) {
			struct is_regress_case *c = g_ptr_array_index(cp->cases, k);

			if (!g_strv_contains((const char *const *)want, c->name))
				g_ptr_array_remove_index(cp->cases, k);
			else
				c->full = false;
		}
	}
	tty = !quiet && isatty(STDERR_FILENO);
	ro = (struct is_regress_options){
		.full = full, .jobs = jobs ? jobs : (int)g_get_num_processors(),
		.progress = progress, .progress_ctx = &tty, .cancel = &interrupted,
	};
	res = is_regress_run(cp, &o.spec, &n.spec, &ro, &err);
	if (!res)
		goto fail;
	if (!cli_out_open(&co, out))
		goto out;
	if (format && !strcmp(format, "json"))
		print_json(co.f, res, &o, &n, cp->path);
	else if (format && !strcmp(format, "csv"))
		print_csv(co.f, res);
	else
		print_table(co.f, res, &o, &n);
	if (!cli_out_commit(&co))
		goto out;
	code = EXIT_OK;
	for (guint i = 0; i < res->len; i++)
		if (((struct is_regress_result *)g_ptr_array_index(res, i))->v == IS_WORSE)
			code = EXIT_WORSE;
	goto out;
fail:
	if (!interrupted)
		cli_error("%s", err->message);
	g_error_free(err);
	code = EXIT_RUNTIME;
out:
	is_regress_results_free(res);
	is_regress_corpus_free(cp);
	for (struct side *s = &o; s; s = s == &o ? &n : NULL)
	{
		if (s->plugin)
			unlink(s->plugin);
		g_free(s->plugin);
		g_free(s->file);
		g_free(s->patch);
		g_free(s->subject);
		g_free(s->reverts);
	}
	if (tmp) {
		/* the patched trees */
		const char *av[] = { "rm", "-rf", tmp, NULL };

		g_spawn_sync(NULL, (char **)av, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
			     NULL, NULL);
		for (int i = 0; i < 3; i++)
			sigaction(sigs[i], &old_sa[i], NULL);
	}
	if (interrupted) {
		cli_error("interrupted: nothing written, the scratch directory removed");
		code = 128 + interrupted;
	}
	return code;
}
