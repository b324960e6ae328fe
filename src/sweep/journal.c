// SPDX-License-Identifier: GPL-2.0-only
/*
 * A sweep's files: the journal of finished rows (OUT.partial), resuming
 * it, writing OUT in job order, and merging shards (the protocol is in
 * idlesim/sweep.h).  Every error names the file, and the line when a line
 * is at fault.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "idlesim/sweep.h"

#define IO_ERROR(error, path) \
	g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", path, g_strerror(errno))

static bool bit(const uint8_t *b, uint64_t i)
{
	return b[i >> 3] & (1u << (i & 7));
}

static void set_bit(uint8_t *b, uint64_t i)
{
	b[i >> 3] |= (uint8_t)(1u << (i & 7));
}

static bool write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

uint64_t is_sweep_shard_jobs(uint64_t jobs, uint32_t k, uint32_t n)
{
	return jobs / n + (jobs % n > k - 1 ? 1 : 0);
}

typedef bool (*row_fn)(struct is_sweep_journal *j, const struct is_sweep_row_key *k,
		       uint64_t lineno, off_t pos, void *ctx, GError **error);

/*
 * Walks the journal's whole rows: checks the header line, parses each row
 * and hands it to @fn with its line number and offset.  A torn last line
 * (cut by an interruption) ends the walk; *end is the offset after the
 * last whole line.
 */
static bool journal_each(struct is_sweep_journal *j, row_fn fn, void *ctx, off_t *end,
			 GError **error)
{
	FILE *f = fopen(j->path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	off_t pos = 0;
	uint64_t lineno = 0;
	bool ok = true;

	if (!f) {
		IO_ERROR(error, j->path);
		return false;
	}
	while (ok && (len = getline(&line, &cap, f)) > 0) {
		struct is_sweep_row_key k;

		lineno++;
		if (line[len - 1] != '\n')
			break;
		if (lineno == 1 && j->header) {
			if (strcmp(line, j->header) != 0) {
				g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
					    "%s: line 1: the columns differ from this sweep's: "
					    "a resume file from a different sweep", j->path);
				ok = false;
			}
		} else if (!is_sweep_row_parse(line, j->def->format, &k)) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: line %" G_GUINT64_FORMAT ": not a sweep row", j->path, lineno);
			ok = false;
		} else {
			ok = fn(j, &k, lineno, pos, ctx, error);
		}
		pos += len;
	}
	free(line);
	fclose(f);
	*end = pos;
	return ok;
}

/* An interrupted run's row: this sweep's, this shard's, not there twice. */
static bool resume_row(struct is_sweep_journal *j, const struct is_sweep_row_key *k,
		       uint64_t lineno, off_t pos, void *ctx, GError **error)
{
	(void)pos, (void)ctx;
	if (strcmp(k->sweep, j->def->id) != 0 || k->jobs != j->def->jobs) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: line %" G_GUINT64_FORMAT ": field 'sweep': row of sweep %s, "
			    "this is sweep %s (params, traces or options differ): "
			    "a resume file from a different sweep", j->path, lineno,
			    k->sweep, j->def->id);
		return false;
	}
	if (!is_sweep_in_shard(k->job, j->shard_k, j->shard_n) || bit(j->done, k->job)) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: line %" G_GUINT64_FORMAT ": field 'job': job %" G_GUINT64_FORMAT
			    " is %s", j->path, lineno, k->job,
			    bit(j->done, k->job) ? "there twice" : "not in this shard");
		return false;
	}
	set_bit(j->done, k->job);
	j->ndone++;
	return true;
}

/*
 * Reads the journal of an interrupted run: keeps its whole rows, checks
 * they belong to this sweep and shard, truncates a torn last line.
 */
static bool journal_load(struct is_sweep_journal *j, GError **error)
{
	off_t good;

	if (!journal_each(j, resume_row, NULL, &good, error))
		return false;
	if (truncate(j->path, good) != 0) {
		IO_ERROR(error, j->path);
		return false;
	}
	return true;
}

/* An OUT that already exists: the same sweep, complete? */
static bool out_is_this_sweep(const struct is_sweep_journal *j)
{
	FILE *f = fopen(j->out, "r");
	char *line = NULL;
	size_t cap = 0;
	struct is_sweep_row_key k;
	bool same = false;

	if (!f)
		return false;
	if (getline(&line, &cap, f) > 0 && (!j->header || strcmp(line, j->header) == 0)) {
		if (!j->header || getline(&line, &cap, f) > 0)
			same = is_sweep_row_parse(line, j->def->format, &k) &&
			       strcmp(k.sweep, j->def->id) == 0;
	}
	free(line);
	fclose(f);
	return same;
}

enum is_sweep_open is_sweep_journal_open(struct is_sweep_journal *j, const struct is_sweep_def *d,
					 uint32_t shard_k, uint32_t shard_n, const char *out,
					 bool resume, GError **error)
{
	bool have;

	memset(j, 0, sizeof(*j));
	j->def = d;
	j->shard_k = shard_k;
	j->shard_n = shard_n;
	j->fd = -1;
	j->out = g_strdup(out);
	j->path = g_strdup_printf("%s.partial", out);
	j->header = is_sweep_header(d);
	j->done = g_malloc0(d->jobs / 8 + 1);

	have = g_file_test(j->path, G_FILE_TEST_EXISTS);
	if (have && !resume) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: an interrupted sweep's rows are here: pass --resume to continue it, "
			    "or remove the file", j->path);
		return IS_SWEEP_FAILED;
	}
	if (!have && resume && g_file_test(out, G_FILE_TEST_EXISTS)) {
		if (!out_is_this_sweep(j)) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: --resume: this file is not a result of this sweep "
				    "(params, traces or options differ)", out);
			return IS_SWEEP_FAILED;
		}
		return IS_SWEEP_COMPLETE;
	}
	if (have) {
		if (!journal_load(j, error))
			return IS_SWEEP_FAILED;
		j->fd = open(j->path, O_WRONLY | O_APPEND | O_CLOEXEC);
	} else {
		j->fd = open(j->path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0666);
		if (j->fd >= 0 && j->header && !write_all(j->fd, j->header, strlen(j->header))) {
			IO_ERROR(error, j->path);
			return IS_SWEEP_FAILED;
		}
	}
	if (j->fd < 0) {
		IO_ERROR(error, j->path);
		return IS_SWEEP_FAILED;
	}
	return IS_SWEEP_OPENED;
}

uint64_t is_sweep_journal_todo(const struct is_sweep_journal *j, uint64_t *todo)
{
	uint64_t nt = 0;

	for (uint64_t k = j->shard_k - 1; k < j->def->jobs; k += j->shard_n)
		if (!bit(j->done, k))
			todo[nt++] = k;
	return nt;
}

bool is_sweep_journal_append(struct is_sweep_journal *j, uint64_t job, const char *row,
			     size_t len, GError **error)
{
	if (!write_all(j->fd, row, len)) {
		IO_ERROR(error, j->path);
		return false;
	}
	set_bit(j->done, job);
	return true;
}

bool is_sweep_journal_close(struct is_sweep_journal *j, GError **error)
{
	int fd = j->fd;

	j->fd = -1;
	if (fd >= 0 && close(fd) != 0) {
		IO_ERROR(error, j->path);
		return false;
	}
	return true;
}

struct finalize {
	off_t *off;                   /* of each of the shard's rows, in job order */
	uint64_t rows;
	struct is_sweep_agg *agg;
};

static bool finalize_row(struct is_sweep_journal *j, const struct is_sweep_row_key *k,
			 uint64_t lineno, off_t pos, void *ctx, GError **error)
{
	struct finalize *x = ctx;

	(void)lineno, (void)error;
	x->off[(k->job - (j->shard_k - 1)) / j->shard_n] = pos;
	x->rows++;
	x->agg[k->point].objective += k->objective;
	x->agg[k->point].energy += k->energy;
	x->agg[k->point].p99 += k->p99;
	x->agg[k->point].n++;
	return true;
}

bool is_sweep_journal_finalize(struct is_sweep_journal *j, struct is_sweep_agg *g,
			       GError **error)
{
	uint64_t n = is_sweep_shard_jobs(j->def->jobs, j->shard_k, j->shard_n);
	g_autofree off_t *off = g_new(off_t, n ? n : 1);
	struct finalize x = { off, 0, g };
	struct is_outfile o;
	char *line = NULL;
	size_t cap = 0;
	off_t end;
	bool ok = true;
	FILE *f;

	if (!journal_each(j, finalize_row, &x, &end, error))
		return false;
	if (x.rows != n) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: %" G_GUINT64_FORMAT " rows, expected %" G_GUINT64_FORMAT,
			    j->path, x.rows, n);
		return false;
	}
	f = fopen(j->path, "r");
	if (!f) {
		IO_ERROR(error, j->path);
		return false;
	}
	if (!is_outfile_open(&o, j->out, error)) {
		fclose(f);
		return false;
	}
	if (j->header)
		fputs(j->header, o.f);
	for (uint64_t r = 0; r < n && ok; r++) {
		if (fseeko(f, off[r], SEEK_SET) != 0 || getline(&line, &cap, f) <= 0) {
			IO_ERROR(error, j->path);
			ok = false;
			break;
		}
		fputs(line, o.f);
	}
	free(line);
	fclose(f);
	if (!ok) {
		is_outfile_abort(&o);
		return false;
	}
	o.sync = true;
	if (!is_outfile_commit(&o, error))
		return false;
	unlink(j->path);
	return true;
}

void is_sweep_journal_clear(struct is_sweep_journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	g_clear_pointer(&j->out, g_free);
	g_clear_pointer(&j->path, g_free);
	g_clear_pointer(&j->header, g_free);
	g_clear_pointer(&j->done, g_free);
}

/* ---- merge -------------------------------------------------------------- */

struct shard_in {
	const char *path;
	FILE *f;
	char *line;
	size_t cap;
	bool have;
	struct is_sweep_row_key k;
	uint64_t lineno;
};

static bool shard_next(struct shard_in *s, enum is_sweep_format format, const char *ref_id,
		       uint64_t ref_jobs, GError **error)
{
	ssize_t len = getline(&s->line, &s->cap, s->f);
	uint64_t prev = s->have ? s->k.job : 0;
	bool had = s->have;

	s->have = false;
	if (len <= 0)
		return true;
	s->lineno++;
	if (s->line[len - 1] != '\n' || !is_sweep_row_parse(s->line, format, &s->k)) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: line %" G_GUINT64_FORMAT ": not a whole sweep row (a partial file?)",
			    s->path, s->lineno);
		return false;
	}
	if (ref_id && (strcmp(s->k.sweep, ref_id) != 0 || s->k.jobs != ref_jobs)) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: line %" G_GUINT64_FORMAT ": field 'sweep': row of sweep %s with %"
			    G_GUINT64_FORMAT " jobs, the others are sweep %s with %" G_GUINT64_FORMAT
			    ": shards of different sweeps", s->path, s->lineno, s->k.sweep, s->k.jobs,
			    ref_id, ref_jobs);
		return false;
	}
	if (had && s->k.job <= prev) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: line %" G_GUINT64_FORMAT ": field 'job': %" G_GUINT64_FORMAT
			    " after %" G_GUINT64_FORMAT ": rows out of order", s->path, s->lineno,
			    s->k.job, prev);
		return false;
	}
	s->have = true;
	return true;
}

/* Opens shard @i and reads its first row; the first shard sets the format, header and sweep. */
static bool shard_open(struct shard_in *sh, int i, enum is_sweep_format *format, char **header,
		       char *id, uint64_t *jobs, GError **error)
{
	struct shard_in *s = &sh[i];

	s->f = fopen(s->path, "r");
	if (!s->f) {
		IO_ERROR(error, s->path);
		return false;
	}
	for (int k = 0; k < i; k++) {
		struct stat a, b;

		if (stat(s->path, &a) == 0 && stat(sh[k].path, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "%s: given twice", s->path);
			return false;
		}
	}
	/* The first line tells the format; CSV files start with the header. */
	if (getline(&s->line, &s->cap, s->f) <= 0) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "%s: empty: not a sweep result",
			    s->path);
		return false;
	}
	s->lineno = 1;
	if (i == 0)
		*format = is_sweep_format_of_line(s->line);
	if (is_sweep_format_of_line(s->line) != *format) {
		bool csv = *format == IS_SWEEP_CSV;

		g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "%s: a %s file among %s files",
			    s->path, csv ? "JSON Lines" : "CSV", csv ? "CSV" : "JSON Lines");
		return false;
	}
	if (*format == IS_SWEEP_CSV) {
		if (!*header) {
			*header = g_strdup(s->line);
		} else if (strcmp(*header, s->line) != 0) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: line 1: columns differ from %s's", s->path, sh[0].path);
			return false;
		}
		if (!shard_next(s, *format, id[0] ? id : NULL, *jobs, error))
			return false;
	} else {
		if (!is_sweep_row_parse(s->line, *format, &s->k)) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "%s: line 1: not a sweep row",
				    s->path);
			return false;
		}
		s->have = true;
		if (id[0] && (strcmp(s->k.sweep, id) || s->k.jobs != *jobs)) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: line 1: field 'sweep': shards of different sweeps", s->path);
			return false;
		}
	}
	if (s->have && !id[0]) {
		g_strlcpy(id, s->k.sweep, 17);
		*jobs = s->k.jobs;
	}
	return true;
}

/* Writes the rows of every job in order; each job must be in exactly one shard. */
static bool merge_rows(struct shard_in *sh, int n, enum is_sweep_format format, const char *id,
		       uint64_t jobs, FILE *out, GError **error)
{
	for (uint64_t j = 0; j < jobs; j++) {
		int who = -1;

		for (int i = 0; i < n; i++) {
			if (!sh[i].have || sh[i].k.job != j)
				continue;
			if (who >= 0) {
				g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
					    "job %" G_GUINT64_FORMAT " is in %s and in %s: "
					    "overlapping shards", j, sh[who].path, sh[i].path);
				return false;
			}
			who = i;
		}
		if (who < 0) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "job %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
				    " is in no shard: a shard is missing or incomplete", j, jobs);
			return false;
		}
		fputs(sh[who].line, out);
		if (!shard_next(&sh[who], format, id, jobs, error))
			return false;
	}
	for (int i = 0; i < n; i++)
		if (sh[i].have) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: line %" G_GUINT64_FORMAT ": job %" G_GUINT64_FORMAT
				    " is beyond the sweep's %" G_GUINT64_FORMAT " jobs", sh[i].path,
				    sh[i].lineno, sh[i].k.job, jobs);
			return false;
		}
	return true;
}

bool is_sweep_merge(const char *const *paths, int n, const char *out, GError **error)
{
	g_autofree char *header = NULL;
	struct shard_in *sh = g_new0(struct shard_in, n);
	enum is_sweep_format format = IS_SWEEP_CSV;
	struct is_outfile o = { 0 };
	char id[17] = "";
	uint64_t jobs = 0;
	bool ok = false;

	for (int i = 0; i < n; i++)
		sh[i].path = paths[i];
	for (int i = 0; i < n; i++)
		if (!shard_open(sh, i, &format, &header, id, &jobs, error))
			goto out;
	if (!id[0]) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID, "no rows in any shard");
		goto out;
	}
	if (!is_outfile_open(&o, out, error))
		goto out;
	if (header)
		fputs(header, o.f);
	if (merge_rows(sh, n, format, id, jobs, o.f, error))
		ok = is_outfile_commit(&o, error);
	else
		is_outfile_abort(&o);
out:
	for (int i = 0; i < n; i++) {
		if (sh[i].f)
			fclose(sh[i].f);
		free(sh[i].line);
	}
	g_free(sh);
	return ok;
}
