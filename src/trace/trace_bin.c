// SPDX-License-Identifier: GPL-2.0-only
/*
 * Binary form of the native trace: the text header verbatim, then records
 * encoded with LEB128 varints (signed values zigzag-encoded, the time as a
 * delta from the previous record), then an end record carrying the count.
 * See traces/README.md for the layout.
 */
#include <errno.h>
#include <string.h>

#include "idlesim/states.h"
#include "trace_internal.h"

#define BUFSZ (1u << 16)
#define MAXREC 128  /* upper bound of one encoded record */

static inline uint64_t zz(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t unzz(uint64_t u)
{
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
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
		size_t n = fread(r->buf + r->blen, 1, BUFSZ - r->blen, r->f);

		r->blen += n;
		if (n == 0)
			r->eof = true;
	}
}

static int bin_err(struct is_trace_reader *r, GError **error, const char *field,
		   const char *msg)
{
	g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
		    "%s: record %" G_GUINT64_FORMAT " (byte %" G_GUINT64_FORMAT "): field '%s': %s",
		    r->path, r->count + 1, r->boff + r->bpos, field, msg);
	return -1;
}

bool is_bin_open(struct is_trace_reader *r, GError **error)
{
	unsigned char hv[8];
	uint32_t version, hlen;
	g_autofree char *hdr = NULL;
	unsigned seen = 0;
	uint64_t line = 1;

	if (fread(hv, 1, 8, r->f) != 8) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s: header field 'version': truncated binary header", r->path);
		return false;
	}
	version = hv[0] | hv[1] << 8 | hv[2] << 16 | (uint32_t)hv[3] << 24;
	hlen = hv[4] | hv[5] << 8 | hv[6] << 16 | (uint32_t)hv[7] << 24;
	if (version != IS_TRACE_VERSION) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s: header field 'version': unsupported version %u (this build reads %d)",
			    r->path, version, IS_TRACE_VERSION);
		return false;
	}
	if (hlen > (1u << 20)) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s: header field 'length': %u bytes is implausible", r->path, hlen);
		return false;
	}
	hdr = g_malloc(hlen + 1);
	if (fread(hdr, 1, hlen, r->f) != hlen) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
			    "%s: header field 'length': truncated binary header", r->path);
		return false;
	}
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

/* Decoding cursor over the buffer; sets *bad on running past the end. */
struct cur {
	const unsigned char *p, *end;
	bool bad;
};

static inline uint64_t get_varint(struct cur *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (c->p < c->end) {
		unsigned char b = *c->p++;

		if (shift == 63 && b > 1) {
			c->bad = true;
			return 0;
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
		shift += 7;
		if (shift > 63) {
			c->bad = true;
			return 0;
		}
	}
	c->bad = true;
	return 0;
}

static inline unsigned get_byte(struct cur *c)
{
	if (c->p >= c->end) {
		c->bad = true;
		return 0;
	}
	return *c->p++;
}

int is_bin_next(struct is_trace_reader *r, struct is_record *rec, GError **error)
{
	struct cur c;
	unsigned kind;
	uint64_t u;
	const char *msg, *field;

	fill(r);
	if (r->bpos == r->blen)
		return bin_err(r, error, "kind",
			       "end of file without an end record: truncated trace");
	c.p = r->buf + r->bpos;
	c.end = r->buf + r->blen;
	c.bad = false;
	kind = get_byte(&c);
	memset(rec, 0, sizeof(*rec));
	if (kind == IS_BIN_REC_IDLE) {
		rec->kind = IS_REC_IDLE;
		rec->cause = (uint8_t)get_byte(&c);
		rec->flags = (uint8_t)get_byte(&c);
		rec->has = (uint8_t)get_byte(&c);
		u = get_varint(&c);
		if (u >= (uint64_t)r->h.cpus && !c.bad)
			return bin_err(r, error, "cpu", "not below the header's cpus");
		rec->cpu = (uint16_t)u;
		u = get_varint(&c);
		if (u > (uint64_t)INT64_MAX - (uint64_t)r->last_t && !c.bad)
			return bin_err(r, error, "t_ns", "time overflows");
		rec->t_ns = r->last_t + (int64_t)u;
		rec->sleep_ns = unzz(get_varint(&c));
		rec->tick_ns = unzz(get_varint(&c));
		rec->lat_ns = unzz(get_varint(&c));
		rec->idle_ns = unzz(get_varint(&c));
		if (rec->has & IS_HAS_KSTATE) {
			int64_t k = unzz(get_varint(&c));

			if ((k < 0 || k >= r->h.state_count) && !c.bad)
				return bin_err(r, error, "k", "state index outside the state table");
			rec->kstate = (int8_t)k;
		}
		if (rec->has & IS_HAS_SPAN)
			rec->span_ns = unzz(get_varint(&c));
		if (rec->has & IS_HAS_LRES)
			rec->lres_ns = unzz(get_varint(&c));
		if (rec->has & IS_HAS_DRAW) {
			u = get_varint(&c);
			if (u > UINT32_MAX && !c.bad)
				return bin_err(r, error, "rnd", "must be 0..4294967295");
			rec->draw = (uint32_t)u;
		}
		if (rec->flags & ~(IS_F_TS | IS_F_KSTOP | IS_F_GT | IS_F_PL | IS_F_SLR |
				   IS_F_NOWORK) && !c.bad)
			return bin_err(r, error, "flags", "unknown flag bits");
	} else if (kind == IS_BIN_REC_STATE) {
		unsigned st;

		rec->kind = IS_REC_STATE;
		u = get_varint(&c);
		if (u >= (uint64_t)r->h.cpus && u != IS_CPU_ALL && !c.bad)
			return bin_err(r, error, "cpu", "not below the header's cpus");
		rec->cpu = (uint16_t)u;
		u = get_varint(&c);
		if (u > (uint64_t)INT64_MAX - (uint64_t)r->last_t && !c.bad)
			return bin_err(r, error, "t_ns", "time overflows");
		rec->t_ns = r->last_t + (int64_t)u;
		st = get_byte(&c);
		if (st >= (unsigned)r->h.state_count && !c.bad)
			return bin_err(r, error, "state", "state index outside the state table");
		rec->kstate = (int8_t)st;
		rec->disable = (uint8_t)get_byte(&c);
		if (rec->disable > 1 && !c.bad)
			return bin_err(r, error, "disable", "must be 0 or 1");
	} else if (kind == IS_BIN_REC_END) {
		u = get_varint(&c);
		if (c.bad)
			return bin_err(r, error, "end", "truncated end record");
		if (u != r->count)
			return bin_err(r, error, "end",
				       "record count does not match the records read");
		r->bpos = (size_t)(c.p - r->buf);
		fill(r);
		if (r->bpos != r->blen)
			return bin_err(r, error, "end", "data after the end record");
		r->done = true;
		return 0;
	} else {
		return bin_err(r, error, "kind", "unknown record kind");
	}
	if (c.bad)
		return bin_err(r, error, "kind", "truncated record");
	field = is_trace_check(&r->h, r->last_t, rec, &msg);
	if (field)
		return bin_err(r, error, field, msg);
	r->bpos = (size_t)(c.p - r->buf);
	r->last_t = rec->t_ns;
	r->count++;
	return 1;
}

static inline unsigned char *put_varint(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

bool is_bin_write_header(struct is_trace_writer *w)
{
	g_autofree char *body = is_trace_header_body(&w->h);
	uint32_t hlen = (uint32_t)strlen(body);
	unsigned char hv[8] = {
		IS_TRACE_VERSION & 0xff, (IS_TRACE_VERSION >> 8) & 0xff, 0, 0,
		hlen & 0xff, (hlen >> 8) & 0xff, (hlen >> 16) & 0xff, hlen >> 24,
	};

	return fwrite(IS_BIN_MAGIC, 1, 8, w->f) == 8 && fwrite(hv, 1, 8, w->f) == 8 &&
	       fwrite(body, 1, hlen, w->f) == hlen;
}

bool is_bin_write(struct is_trace_writer *w, const struct is_record *rec)
{
	unsigned char buf[MAXREC], *p = buf;
	uint64_t dt = (uint64_t)(rec->t_ns - w->last_t);

	if (rec->kind == IS_REC_STATE) {
		*p++ = IS_BIN_REC_STATE;
		p = put_varint(p, rec->cpu);
		p = put_varint(p, dt);
		*p++ = (unsigned char)rec->kstate;
		*p++ = rec->disable ? 1 : 0;
	} else {
		*p++ = IS_BIN_REC_IDLE;
		*p++ = rec->cause;
		*p++ = rec->flags;
		*p++ = rec->has;
		p = put_varint(p, rec->cpu);
		p = put_varint(p, dt);
		p = put_varint(p, zz(rec->sleep_ns));
		p = put_varint(p, zz(rec->tick_ns));
		p = put_varint(p, zz(rec->lat_ns));
		p = put_varint(p, zz(rec->idle_ns));
		if (rec->has & IS_HAS_KSTATE)
			p = put_varint(p, zz(rec->kstate));
		if (rec->has & IS_HAS_SPAN)
			p = put_varint(p, zz(rec->span_ns));
		if (rec->has & IS_HAS_LRES)
			p = put_varint(p, zz(rec->lres_ns));
		if (rec->has & IS_HAS_DRAW)
			p = put_varint(p, rec->draw);
	}
	return fwrite(buf, 1, (size_t)(p - buf), w->f) == (size_t)(p - buf);
}

bool is_bin_write_end(struct is_trace_writer *w)
{
	unsigned char buf[16], *p = buf;

	*p++ = IS_BIN_REC_END;
	p = put_varint(p, w->count);
	return fwrite(buf, 1, (size_t)(p - buf), w->f) == (size_t)(p - buf);
}
