// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text form of the native trace: line-oriented, one record per line.
 * See traces/README.md for the grammar.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "idlesim/states.h"
#include "trace_internal.h"

#define TEXT_MAGIC "idlesim-trace"

static bool read_line(struct is_trace_reader *r, size_t *len, GError **error,
		      bool *eof)
{
	ssize_t n;

	errno = 0;
	n = getline(&r->lbuf, &r->lcap, r->f);
	*eof = false;
	/* getline() hands out the part of a line read before an error */
	if ((n < 0 || r->lbuf[n - 1] != '\n') && ferror(r->f)) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO,
			    "%s: read error after line %" G_GUINT64_FORMAT ": %s", r->path,
			    r->line, g_strerror(errno ? errno : EIO));
		return false;
	}
	if (n < 0) {
		*eof = true;
		return true;
	}
	r->line++;
	if (memchr(r->lbuf, 0, (size_t)n)) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s:%" G_GUINT64_FORMAT ": NUL byte: not a text trace",
			    r->path, r->line);
		return false;
	}
	if (n == 0 || r->lbuf[n - 1] != '\n') {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s:%" G_GUINT64_FORMAT ": last line has no newline: truncated trace",
			    r->path, r->line);
		return false;
	}
	n--;
	if (n && r->lbuf[n - 1] == '\r')
		n--;
	r->lbuf[n] = 0;
	*len = (size_t)n;
	return true;
}

bool is_text_open(struct is_trace_reader *r, GError **error)
{
	size_t len;
	bool eof;
	unsigned seen = 0;
	int64_t v;

	if (!read_line(r, &len, error, &eof))
		return false;
	if (eof || len < sizeof(TEXT_MAGIC) ||
	    memcmp(r->lbuf, TEXT_MAGIC " ", sizeof(TEXT_MAGIC)) != 0) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s:1: header field 'version': first line must be 'idlesim-trace VERSION': not an idlesim trace",
			    r->path);
		return false;
	}
	if (!is_parse_i64(r->lbuf + sizeof(TEXT_MAGIC), len - sizeof(TEXT_MAGIC), &v) ||
	    v < IS_TRACE_VERSION_MIN || v > IS_TRACE_VERSION) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s:1: header field 'version': unsupported version '%s' (this build reads %d..%d)",
			    r->path, r->lbuf + sizeof(TEXT_MAGIC), IS_TRACE_VERSION_MIN,
			    IS_TRACE_VERSION);
		return false;
	}
	r->h.version = (int)v;
	for (;;) {
		if (!read_line(r, &len, error, &eof))
			return false;
		if (eof) {
			g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
				    "%s:%" G_GUINT64_FORMAT ": header has no 'data' line: truncated trace",
				    r->path, r->line);
			return false;
		}
		if (len == 4 && memcmp(r->lbuf, "data", 4) == 0)
			break;
		if (!is_trace_parse_header_line(&r->h, r->lbuf, len, &seen, r->path,
						r->line, error))
			return false;
	}
	return is_trace_header_complete(&r->h, seen, r->path, r->line, error);
}

static int field_err(struct is_trace_reader *r, GError **error, const char *field,
		     const char *msg, const char *v, size_t vlen)
{
	g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
		    "%s:%" G_GUINT64_FORMAT ": field '%s': %s%s%.*s%s", r->path, r->line,
		    field, msg, v ? " ('" : "", (int)(v ? vlen : 0), v ? v : "", v ? "')" : "");
	return -1;
}

/* Splits on single spaces; returns the token count (max @max). */
static int tokenize(char *s, size_t len, const char **tok, size_t *tlen, int max)
{
	int n = 0;
	size_t i = 0;

	while (i < len && n < max) {
		size_t j = i;

		while (j < len && s[j] != ' ' && s[j] != '\t')
			j++;
		if (j > i) {
			tok[n] = s + i;
			tlen[n] = j - i;
			n++;
		}
		i = j + 1;
	}
	return i < len ? max + 1 : n;
}

#define MAXTOK 24

static const char *const idle_fields[] = {
	"kind", "cpu", "t_ns", "sleep_ns", "tick_ns", "tick_stopped", "lat_ns",
	"idle_ns", "cause",
};

/* Names of the IS_EST_* bits, bit 0 first. */
static const char *const est_names[] = { "sleep", "ts", "idle" };

/* "sleep+ts" -> IS_EST_SLEEP | IS_EST_TS; 0 or -1 when malformed. */
static int parse_est(const char *s, size_t n)
{
	int e = 0;

	while (n) {
		const char *plus = memchr(s, '+', n);
		size_t l = plus ? (size_t)(plus - s) : n;
		unsigned b;

		for (b = 0; b < G_N_ELEMENTS(est_names); b++)
			if (strlen(est_names[b]) == l && memcmp(s, est_names[b], l) == 0)
				break;
		if (b == G_N_ELEMENTS(est_names) || (e & (1 << b)))
			return -1;
		e |= 1 << b;
		if (!plus)
			break;
		s += l + 1;
		n -= l + 1;
		if (!n)
			return -1;
	}
	return e;
}

static int parse_bool(const char *s, size_t n)
{
	if (n == 1 && (s[0] == '0' || s[0] == '1'))
		return s[0] - '0';
	return -1;
}

static int parse_idle(struct is_trace_reader *r, const char **tok, size_t *tl,
		      int nt, struct is_record *rec, GError **error)
{
	int64_t v[8];
	int c;

	if (nt < 9)
		return field_err(r, error, idle_fields[nt], "missing", NULL, 0);
	for (int i = 1; i < 8; i++)
		if (!is_parse_i64(tok[i], tl[i], &v[i]))
			return field_err(r, error, idle_fields[i], "not an integer", tok[i],
					 tl[i]);
	if (v[1] < 0 || v[1] >= r->h.cpus)
		return field_err(r, error, "cpu", "not below the header's cpus", tok[1], tl[1]);
	if (v[5] != 0 && v[5] != 1)
		return field_err(r, error, "tick_stopped", "must be 0 or 1", tok[5], tl[5]);
	c = is_cause_parse(tok[8], tl[8]);
	if (c < 0)
		return field_err(r, error, "cause",
				 "unknown wakeup cause (timer, tick, irq, ipi, poll, unknown)",
				 tok[8], tl[8]);
	rec->kind = IS_REC_IDLE;
	rec->cpu = (uint16_t)v[1];
	rec->t_ns = v[2];
	rec->sleep_ns = v[3];
	rec->tick_ns = v[4];
	rec->flags = v[5] ? IS_F_TS : 0;
	rec->est = 0;
	rec->lat_ns = v[6];
	rec->idle_ns = v[7];
	rec->cause = (uint8_t)c;
	for (int i = 9; i < nt; i++) {
		const char *eq = memchr(tok[i], '=', tl[i]);
		size_t kl = eq ? (size_t)(eq - tok[i]) : 0;
		const char *val = eq ? eq + 1 : NULL;
		size_t vl = eq ? tl[i] - kl - 1 : 0;
		int64_t x;
		unsigned bit = 0, fbit = 0;
		bool io = false;

		if (!eq)
			return field_err(r, error, "?", "expected key=value", tok[i], tl[i]);
#define K(s) (kl == sizeof(s) - 1 && memcmp(tok[i], s, kl) == 0)
		if (K("k"))
			bit = IS_HAS_KSTATE;
		else if (K("stop"))
			bit = IS_HAS_KSTOP, fbit = IS_F_KSTOP;
		else if (K("span"))
			bit = IS_HAS_SPAN;
		else if (K("lres"))
			bit = IS_HAS_LRES;
		else if (K("gt"))
			bit = IS_HAS_GT, fbit = IS_F_GT;
		else if (K("pl"))
			bit = IS_HAS_PL, fbit = IS_F_PL;
		else if (K("rnd"))
			bit = IS_HAS_DRAW;
		else if (K("slr"))
			bit = IS_HAS_SLR, fbit = IS_F_SLR;
		else if (K("io"))
			io = true;
		else if (K("nw"))
			fbit = IS_F_NOWORK;
		else if (K("rej"))
			fbit = IS_F_REJ;
		else if (K("est")) {
			int e = parse_est(val, vl);

			if (e <= 0)
				return field_err(r, error, "est",
						 "must be names from sleep, ts, idle joined by '+'",
						 val, vl);
			if (rec->est)
				return field_err(r, error, "est", "given twice", NULL, 0);
			rec->est = (uint8_t)e;
			continue;
		} else
			return field_err(r, error, "?", "unknown optional field", tok[i], kl);
		if (io) { /* nr_iowait_cpu(), an unsigned int */
			if (rec->flags & IS_F_IOW)
				return field_err(r, error, "io", "given twice", NULL, 0);
			if (!is_parse_i64(val, vl, &x) || x < 0 || x > UINT32_MAX)
				return field_err(r, error, "io", "must be 0..4294967295", val, vl);
			rec->iowait = (uint32_t)x;
			rec->flags |= IS_F_IOW;
			continue;
		}
		if ((bit && (rec->has & bit)) || (!bit && (rec->flags & fbit)))
			return field_err(r, error, tok[i], "given twice", NULL, 0);
		if (!is_parse_i64(val, vl, &x))
			return field_err(r, error, tok[i], "not an integer", val, vl);
#undef K
		if (fbit) {
			int b = parse_bool(val, vl);

			if (b < 0 || (!bit && b == 0)) {
				g_autofree char *f = g_strndup(tok[i], kl);

				return field_err(r, error, f, bit ? "must be 0 or 1" :
						 "must be 1 (omit it for 0)", val, vl);
			}
			if (b)
				rec->flags |= fbit;
		} else if (bit == IS_HAS_KSTATE) {
			if (x < 0 || x >= r->h.state_count)
				return field_err(r, error, "k", "state index outside the state table",
						 val, vl);
			rec->kstate = (int8_t)x;
		} else if (bit == IS_HAS_SPAN) {
			rec->span_ns = x;
		} else if (bit == IS_HAS_LRES) {
			rec->lres_ns = x;
		} else if (bit == IS_HAS_DRAW) {
			if (x < 0 || x > UINT32_MAX)
				return field_err(r, error, "rnd", "must be 0..4294967295", val, vl);
			rec->draw = (uint32_t)x;
		}
		rec->has |= bit;
	}
	return 1;
}

static int parse_state(struct is_trace_reader *r, const char **tok, size_t *tl,
		       int nt, struct is_record *rec, GError **error)
{
	static const char *const f[] = { "kind", "t_ns", "cpu", "state", "disable" };
	int64_t t, st, cpu = IS_CPU_ALL;

	if (nt != 5)
		return field_err(r, error, nt < 5 ? f[nt] : "?",
				 nt < 5 ? "missing" : "unexpected extra field", NULL, 0);
	if (!is_parse_i64(tok[1], tl[1], &t))
		return field_err(r, error, "t_ns", "not an integer", tok[1], tl[1]);
	if (!(tl[2] == 1 && tok[2][0] == '*') &&
	    (!is_parse_i64(tok[2], tl[2], &cpu) || cpu < 0 || cpu >= r->h.cpus))
		return field_err(r, error, "cpu", "must be '*' or below the header's cpus",
				 tok[2], tl[2]);
	if (!is_parse_i64(tok[3], tl[3], &st))
		return field_err(r, error, "state", "not an integer", tok[3], tl[3]);
	if (st < 0 || st >= r->h.state_count)
		return field_err(r, error, "state", "state index outside the state table",
				 tok[3], tl[3]);
	if (tl[4] == 2 && memcmp(tok[4], "on", 2) == 0)
		rec->disable = 0;
	else if (tl[4] == 3 && memcmp(tok[4], "off", 3) == 0)
		rec->disable = 1;
	else
		return field_err(r, error, "disable", "must be 'on' or 'off'", tok[4], tl[4]);
	rec->kind = IS_REC_STATE;
	rec->t_ns = t;
	rec->cpu = (uint16_t)cpu;
	rec->kstate = (int8_t)st;
	return 1;
}

int is_text_next(struct is_trace_reader *r, struct is_record *rec, GError **error)
{
	const char *tok[MAXTOK];
	size_t tl[MAXTOK], len;
	bool eof;
	int nt, ret;
	const char *msg, *field;

	if (!read_line(r, &len, error, &eof))
		return -1;
	if (eof) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s:%" G_GUINT64_FORMAT ": no 'end' line after %" G_GUINT64_FORMAT
			    " records: truncated trace", r->path, r->line, r->count);
		return -1;
	}
	nt = tokenize(r->lbuf, len, tok, tl, MAXTOK);
	if (nt > MAXTOK)
		return field_err(r, error, "?", "too many fields", NULL, 0);
	if (nt == 0)
		return field_err(r, error, "kind", "empty line", NULL, 0);
	memset(rec, 0, sizeof(*rec));
	if (tl[0] == 1 && tok[0][0] == 'I') {
		ret = parse_idle(r, tok, tl, nt, rec, error);
	} else if (tl[0] == 1 && tok[0][0] == 'S') {
		ret = parse_state(r, tok, tl, nt, rec, error);
	} else if (tl[0] == 3 && memcmp(tok[0], "end", 3) == 0) {
		int64_t n;

		if (nt != 2 || !is_parse_i64(tok[1], tl[1], &n))
			return field_err(r, error, "end", "expected 'end COUNT'", NULL, 0);
		if ((uint64_t)n != r->count)
			return field_err(r, error, "end",
					 "record count does not match the records read", tok[1],
					 tl[1]);
		if (!read_line(r, &len, error, &eof))
			return -1;
		if (!eof)
			return field_err(r, error, "end", "data after the 'end' line", NULL, 0);
		r->done = true;
		return 0;
	} else {
		return field_err(r, error, "kind", "unknown record kind (I, S, end)", tok[0],
				 tl[0]);
	}
	if (ret < 0)
		return ret;
	field = is_trace_check(&r->h, r->last_t, rec, &msg);
	if (field)
		return field_err(r, error, field, msg, NULL, 0);
	r->last_t = rec->t_ns;
	r->count++;
	return 1;
}

bool is_text_write_header(struct is_trace_writer *w)
{
	g_autofree char *body = is_trace_header_body(&w->h);

	return fprintf(w->f, TEXT_MAGIC " %d\n%sdata\n", w->h.version, body) > 0;
}

bool is_text_write(struct is_trace_writer *w, const struct is_record *rec)
{
	FILE *f = w->f;

	if (rec->kind == IS_REC_STATE) {
		if (rec->cpu == IS_CPU_ALL)
			fprintf(f, "S %" PRId64 " * %d %s\n", rec->t_ns, rec->kstate,
				rec->disable ? "off" : "on");
		else
			fprintf(f, "S %" PRId64 " %u %d %s\n", rec->t_ns, rec->cpu, rec->kstate,
				rec->disable ? "off" : "on");
		return !ferror(f);
	}
	fprintf(f, "I %u %" PRId64 " %" PRId64 " %" PRId64 " %d %" PRId64 " %" PRId64 " %s",
		rec->cpu, rec->t_ns, rec->sleep_ns, rec->tick_ns, !!(rec->flags & IS_F_TS),
		rec->lat_ns, rec->idle_ns, is_cause_name(rec->cause));
	if (rec->has & IS_HAS_KSTATE)
		fprintf(f, " k=%d", rec->kstate);
	if (rec->has & IS_HAS_KSTOP)
		fprintf(f, " stop=%d", !!(rec->flags & IS_F_KSTOP));
	if (rec->has & IS_HAS_SPAN)
		fprintf(f, " span=%" PRId64, rec->span_ns);
	if (rec->has & IS_HAS_LRES)
		fprintf(f, " lres=%" PRId64, rec->lres_ns);
	if (rec->has & IS_HAS_GT)
		fprintf(f, " gt=%d", !!(rec->flags & IS_F_GT));
	if (rec->has & IS_HAS_PL)
		fprintf(f, " pl=%d", !!(rec->flags & IS_F_PL));
	if (rec->has & IS_HAS_DRAW)
		fprintf(f, " rnd=%" PRIu32, rec->draw);
	if (rec->has & IS_HAS_SLR)
		fprintf(f, " slr=%d", !!(rec->flags & IS_F_SLR));
	if (rec->flags & IS_F_IOW)
		fprintf(f, " io=%" PRIu32, rec->iowait);
	if (rec->flags & IS_F_NOWORK)
		fputs(" nw=1", f);
	if (rec->flags & IS_F_REJ)
		fputs(" rej=1", f);
	if (rec->est) {
		const char *sep = " est=";

		for (unsigned b = 0; b < G_N_ELEMENTS(est_names); b++)
			if (rec->est & (1u << b)) {
				fputs(sep, f);
				fputs(est_names[b], f);
				sep = "+";
			}
	}
	fputc('\n', f);
	return !ferror(f);
}

bool is_text_write_end(struct is_trace_writer *w)
{
	return fprintf(w->f, "end %" G_GUINT64_FORMAT "\n", w->count) > 0;
}
