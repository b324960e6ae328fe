// SPDX-License-Identifier: GPL-2.0-only
/*
 * Binary form of the native trace: the text header verbatim, then
 * fixed-layout little-endian records (48 bytes per idle period plus 8 per
 * optional raw field, 16 per state event), then an end record carrying the
 * record count.  Fixed offsets make decoding a few loads per record, which is
 * what the replay speed target needs.  See traces/README.md for the layout.
 */
#include <errno.h>
#include <string.h>

#include "idlesim/states.h"
#include "trace_internal.h"

#define BUFSZ (1u << 18)
#define MAXREC 80   /* upper bound of one record */

/*
 * Files are read through this buffer, not mmap()ed: on this project's
 * machines (virtual, where a page fault is costly) touching a mapped
 * trace took 3.5 times as long as read()ing it, 50 ms against 14 ms for
 * 96 MB, a quarter of a replay.
 */
static void set_refill(struct is_trace_reader *r)
{
	r->refill = r->blen >= MAXREC ? r->blen - MAXREC + 1 : 0;
}

static void fill(struct is_trace_reader *r)
{
	size_t left = r->blen - r->bpos;

	if (r->eof || left >= MAXREC)
		return;
	memmove(r->buf, r->buf + r->bpos, left);
	r->boff += r->bpos;
	r->bpos = 0;
	r->blen = left;
	while (!r->eof && r->blen < BUFSZ) {
		size_t n;

		errno = 0;
		n = fread(r->buf + r->blen, 1, BUFSZ - r->blen, r->f);
		r->blen += n;
		if (n == 0) {
			r->eof = true;
			if (ferror(r->f))
				r->read_errno = errno ? errno : EIO;
		}
	}
	set_refill(r);
}

static int bin_err(struct is_trace_reader *r, GError **error, const char *field,
		   const char *msg)
{
	g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
		    "%s: record %" G_GUINT64_FORMAT " (byte %" G_GUINT64_FORMAT "): field '%s': %s",
		    r->path, r->count + 1, r->boff + r->bpos, field, msg);
	return -1;
}

/* The data ran out: a read error, if one ended it, else what @msg says. */
static int bin_short(struct is_trace_reader *r, GError **error, const char *field,
		     const char *msg)
{
	if (!r->read_errno)
		return bin_err(r, error, field, msg);
	g_set_error(error, IS_ERROR, IS_ERROR_IO,
		    "%s: record %" G_GUINT64_FORMAT ": read error after byte %" G_GUINT64_FORMAT
		    ": %s", r->path, r->count + 1, r->boff + r->blen, g_strerror(r->read_errno));
	return -1;
}

/* fread() of the header, with a read error told from a short file. */
static bool header_read(struct is_trace_reader *r, void *buf, size_t len, const char *field,
			GError **error)
{
	errno = 0;
	if (fread(buf, 1, len, r->f) == len)
		return true;
	if (ferror(r->f))
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: header field '%s': read error: %s",
			    r->path, field, g_strerror(errno ? errno : EIO));
	else
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s: header field '%s': truncated binary header", r->path, field);
	return false;
}

bool is_bin_open(struct is_trace_reader *r, GError **error)
{
	unsigned char hv[8];
	uint32_t version, hlen;
	g_autofree char *hdr = NULL;
	unsigned seen = 0;
	uint64_t line = 1;

	if (!header_read(r, hv, 8, "version", error))
		return false;
	version = hv[0] | hv[1] << 8 | hv[2] << 16 | (uint32_t)hv[3] << 24;
	hlen = hv[4] | hv[5] << 8 | hv[6] << 16 | (uint32_t)hv[7] << 24;
	if (version < IS_TRACE_VERSION_MIN || version > IS_TRACE_VERSION) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s: header field 'version': unsupported version %u (this build reads %d..%d)",
			    r->path, version, IS_TRACE_VERSION_MIN, IS_TRACE_VERSION);
		return false;
	}
	r->h.version = (int)version;
	if (hlen > (1u << 20)) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s: header field 'length': %u bytes is implausible", r->path, hlen);
		return false;
	}
	hdr = g_malloc(hlen + 1);
	if (!header_read(r, hdr, hlen, "length", error))
		return false;
	hdr[hlen] = 0;
	for (char *p = hdr; *p; line++) {
		char *e = strchr(p, '\n');

		if (!e) {
			g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
				    "%s: header line %" G_GUINT64_FORMAT ": no newline", r->path,
				    line + 1);
			return false;
		}
		if (!is_trace_parse_header_line(&r->h, p, (size_t)(e - p), &seen, r->path,
						line + 1, error))
			return false;
		p = e + 1;
	}
	if (!is_trace_header_complete(&r->h, seen, r->path, line, error))
		return false;
	r->buf = g_malloc(BUFSZ);
	r->boff = 16 + hlen;
	return true;
}

static inline uint64_t ld64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return GUINT64_FROM_LE(v);
}

static inline uint32_t ld32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return GUINT32_FROM_LE(v);
}

static inline void st64(unsigned char *p, int64_t v)
{
	uint64_t u = GUINT64_TO_LE((uint64_t)v);

	memcpy(p, &u, 8);
}

static inline void st32(unsigned char *p, uint32_t v)
{
	v = GUINT32_TO_LE(v);
	memcpy(p, &v, 4);
}

/* Size of a record from its first byte and presence mask. */
static inline size_t rec_size(unsigned kind, unsigned flags, unsigned has)
{
	if (kind == IS_BIN_REC_STATE)
		return 16;
	if (kind == IS_BIN_REC_END)
		return 16;
	return 48 + ((has & IS_HAS_SPAN) ? 8 : 0) + ((has & IS_HAS_LRES) ? 8 : 0) +
	       ((has & IS_HAS_DRAW) ? 8 : 0) + ((flags & IS_F_IOW) ? 8 : 0);
}

/* An idle record of the fixed 48 bytes alone (the decoders' fast path). */
static inline bool plain_idle(const unsigned char *p)
{
	return p[0] == IS_BIN_REC_IDLE && !(p[3] & (IS_HAS_SPAN | IS_HAS_LRES | IS_HAS_DRAW)) &&
	       !(p[2] & IS_F_IOW);
}

/* The fixed 48 bytes of an idle record; the optional fields are zeroed. */
static inline void decode_idle(const unsigned char *p, struct is_record *rec)
{
	rec->kind = IS_REC_IDLE;
	rec->cause = p[1];
	rec->flags = p[2];
	rec->has = p[3];
	rec->cpu = (uint16_t)(p[4] | p[5] << 8);
	rec->kstate = (rec->has & IS_HAS_KSTATE) ? (int8_t)p[6] : 0;
	rec->est = p[7];
	rec->t_ns = (int64_t)ld64(p + 8);
	rec->sleep_ns = (int64_t)ld64(p + 16);
	rec->tick_ns = (int64_t)ld64(p + 24);
	rec->lat_ns = (int64_t)ld64(p + 32);
	rec->idle_ns = (int64_t)ld64(p + 40);
	rec->span_ns = rec->lres_ns = 0;
	rec->draw = rec->iowait = 0;
}

int is_bin_next(struct is_trace_reader *r, struct is_record *rec, GError **error)
{
	const unsigned char *p;
	unsigned kind;
	size_t need;
	const char *msg, *field;

	if (G_UNLIKELY(r->bpos >= r->refill))
		fill(r);
	p = r->buf + r->bpos;
	/* The common case first: a whole idle record without optional fields. */
	if (G_LIKELY(r->blen - r->bpos >= MAXREC && plain_idle(p))) {
		decode_idle(p, rec);
		if (G_LIKELY(is_trace_check_fast(&r->h, r->last_t, rec))) {
			r->bpos += 48;
			r->last_t = rec->t_ns;
			r->count++;
			return 1;
		}
		/* the general path below names the bad field */
	}
	if (r->bpos == r->blen)
		return bin_short(r, error, "kind",
				 "end of file without an end record: truncated trace");
	p = r->buf + r->bpos;
	kind = p[0];
	if (kind != IS_BIN_REC_IDLE && kind != IS_BIN_REC_STATE && kind != IS_BIN_REC_END)
		return bin_err(r, error, "kind", "unknown record kind");
	/* flags and has, where the buffer holds them (else "truncated" below) */
	need = r->blen - r->bpos > 3 ? rec_size(kind, p[2], p[3]) : rec_size(kind, 0, 0);
	if (r->blen - r->bpos < need)
		return bin_short(r, error, "kind", "truncated record");
	if (kind == IS_BIN_REC_END) {
		if (ld64(p + 8) != r->count)
			return bin_err(r, error, "end",
				       "record count does not match the records read");
		r->bpos += need;
		fill(r);
		if (r->read_errno)
			return bin_short(r, error, "end", "read error");
		if (r->bpos != r->blen)
			return bin_err(r, error, "end", "data after the end record");
		r->done = true;
		return 0;
	}
	if (kind == IS_BIN_REC_STATE) {
		*rec = (struct is_record){
			.kind = IS_REC_STATE,
			.cpu = (uint16_t)(p[4] | p[5] << 8),
			.kstate = (int8_t)p[6],
			.disable = p[7],
			.t_ns = (int64_t)ld64(p + 8),
		};
		if (rec->disable > 1)
			return bin_err(r, error, "disable", "must be 0 or 1");
	} else {
		const unsigned char *q = p + 48;

		decode_idle(p, rec);
		if (rec->has & IS_HAS_SPAN) {
			rec->span_ns = (int64_t)ld64(q);
			q += 8;
		}
		if (rec->has & IS_HAS_LRES) {
			rec->lres_ns = (int64_t)ld64(q);
			q += 8;
		}
		if (rec->has & IS_HAS_DRAW) {
			rec->draw = ld32(q);
			q += 8;
		}
		if (rec->flags & IS_F_IOW)
			rec->iowait = ld32(q);
	}
	if (G_UNLIKELY(!is_trace_check_fast(&r->h, r->last_t, rec))) {
		field = is_trace_check(&r->h, r->last_t, rec, &msg);
		if (field)
			return bin_err(r, error, field, msg);
	}
	r->bpos += need;
	r->last_t = rec->t_ns;
	r->count++;
	return 1;
}

/*
 * is_bin_next() for up to @max records: plain idle records are decoded in
 * a loop; the first record that needs more (a state event, optional
 * fields, the end, an error) ends the batch, or goes through
 * is_bin_next() when it is the batch's first.
 */
int is_bin_next_batch(struct is_trace_reader *r, struct is_record *recs, int max,
		      GError **error)
{
	int n = 0;

	while (n < max) {
		const unsigned char *p;

		if (G_UNLIKELY(r->bpos >= r->refill))
			fill(r);
		p = r->buf + r->bpos;
		if (!(r->blen - r->bpos >= MAXREC && plain_idle(p)))
			break;
		decode_idle(p, &recs[n]);
		if (G_UNLIKELY(!is_trace_check_fast(&r->h, r->last_t, &recs[n])))
			break;
		r->bpos += 48;
		r->last_t = recs[n].t_ns;
		r->count++;
		n++;
	}
	return n ? n : is_bin_next(r, recs, error);
}

bool is_bin_write_header(struct is_trace_writer *w)
{
	g_autofree char *body = is_trace_header_body(&w->h);
	uint32_t hlen = (uint32_t)strlen(body);
	unsigned char hv[8] = {
		w->h.version & 0xff, (w->h.version >> 8) & 0xff, 0, 0,
		hlen & 0xff, (hlen >> 8) & 0xff, (hlen >> 16) & 0xff, hlen >> 24,
	};

	return fwrite(IS_BIN_MAGIC, 1, 8, w->f) == 8 && fwrite(hv, 1, 8, w->f) == 8 &&
	       fwrite(body, 1, hlen, w->f) == hlen;
}

bool is_bin_write(struct is_trace_writer *w, const struct is_record *rec)
{
	unsigned char buf[MAXREC], *q = buf + 48;
	bool idle = rec->kind == IS_REC_IDLE;
	unsigned has = idle ? rec->has : 0;
	unsigned flags = idle ? rec->flags : 0;
	size_t n = rec_size(idle ? IS_BIN_REC_IDLE : IS_BIN_REC_STATE, flags, has);

	memset(buf, 0, n);
	buf[0] = idle ? IS_BIN_REC_IDLE : IS_BIN_REC_STATE;
	buf[4] = rec->cpu & 0xff;
	buf[5] = rec->cpu >> 8;
	st64(buf + 8, rec->t_ns);
	if (!idle) {
		buf[6] = (unsigned char)rec->kstate;
		buf[7] = rec->disable ? 1 : 0;
	} else {
		buf[1] = rec->cause;
		buf[2] = rec->flags;
		buf[3] = (unsigned char)has;
		buf[6] = (has & IS_HAS_KSTATE) ? (unsigned char)rec->kstate : 0;
		buf[7] = rec->est;
		st64(buf + 16, rec->sleep_ns);
		st64(buf + 24, rec->tick_ns);
		st64(buf + 32, rec->lat_ns);
		st64(buf + 40, rec->idle_ns);
		if (has & IS_HAS_SPAN) {
			st64(q, rec->span_ns);
			q += 8;
		}
		if (has & IS_HAS_LRES) {
			st64(q, rec->lres_ns);
			q += 8;
		}
		if (has & IS_HAS_DRAW) {
			st32(q, rec->draw);
			q += 8;
		}
		if (flags & IS_F_IOW)
			st32(q, rec->iowait);
	}
	return fwrite(buf, 1, n, w->f) == n;
}

bool is_bin_write_end(struct is_trace_writer *w)
{
	unsigned char buf[16] = { IS_BIN_REC_END };

	st64(buf + 8, (int64_t)w->count);
	return fwrite(buf, 1, 16, w->f) == 16;
}
