/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IDLESIM_TRACE_INTERNAL_H
#define IDLESIM_TRACE_INTERNAL_H

#include <stdio.h>
#include "idlesim/trace.h"

#define IS_BIN_MAGIC "IDLESIMB"
#define IS_BIN_REC_IDLE 1
#define IS_BIN_REC_STATE 2
#define IS_BIN_REC_END 0xee

struct is_trace_reader {
	enum is_trace_format fmt;
	char *path;
	FILE *f;
	struct is_trace_header h;
	uint64_t count;     /* records returned */
	uint64_t line;      /* text: line number of the last line read */
	int64_t last_t;
	bool done;
	/* text */
	char *lbuf;
	size_t lcap;
	/* binary */
	unsigned char *buf;
	size_t blen, bpos;
	size_t refill;      /* is_bin_next() calls fill() once bpos reaches it */
	uint64_t boff;      /* file offset of buf[0] */
	bool eof;
	int read_errno;     /* the read error that ended the data, or 0 */
};

/* is_trace_open() on an open stream, which it closes (stdin aside), failing or not. */
struct is_trace_reader *is_trace_open_stream(FILE *f, const char *path, GError **error);

struct is_trace_writer {
	enum is_trace_format fmt;
	char *path;         /* final name */
	struct is_outfile out;
	FILE *f;            /* out.f */
	struct is_trace_header h;
	uint64_t count;
	int64_t last_t;
	bool failed;
};

/* True for a valid idle record; false means "ask is_trace_check()". */
static inline bool is_trace_check_fast(const struct is_trace_header *h, int64_t last_t,
				       const struct is_record *rec)
{
	unsigned has = rec->has;
	bool bad;

	if (rec->kind != IS_REC_IDLE)
		return false;
	bad = (rec->t_ns < last_t) | (rec->cpu >= h->cpus) | (rec->lat_ns < 0) |
	      (rec->idle_ns < 0) | (rec->idle_ns > IS_TRACE_MAX_IDLE_NS) |
	      (rec->cause >= IS_CAUSE_COUNT) | ((rec->flags & ~has & IS_F_VALUES) != 0) |
	      ((rec->flags & ~IS_F_ALL) != 0) | ((rec->est & ~IS_EST_ALL) != 0);
	if (has & IS_HAS_KSTATE)
		bad |= rec->kstate < 0 || rec->kstate >= h->state_count;
	return !bad;
}

/*
 * Checks a record against the header and the previous timestamp; on
 * failure returns the name of the offending field and sets *msg (static).
 */
const char *is_trace_check(const struct is_trace_header *h, int64_t last_t,
			   const struct is_record *rec, const char **msg);

/* Header text parsing shared by both forms; @line is updated. */
bool is_trace_parse_header_line(struct is_trace_header *h, const char *line,
				size_t len, unsigned *seen, const char *path,
				uint64_t lineno, GError **error);
bool is_trace_header_complete(struct is_trace_header *h, unsigned seen,
			      const char *path, uint64_t lineno, GError **error);
/* Canonical header lines (without version line and "data"). */
char *is_trace_header_body(const struct is_trace_header *h);

bool is_text_open(struct is_trace_reader *r, GError **error);
int is_text_next(struct is_trace_reader *r, struct is_record *rec, GError **error);
bool is_text_write_header(struct is_trace_writer *w);
bool is_text_write(struct is_trace_writer *w, const struct is_record *rec);
bool is_text_write_end(struct is_trace_writer *w);

bool is_bin_open(struct is_trace_reader *r, GError **error);
int is_bin_next(struct is_trace_reader *r, struct is_record *rec, GError **error);
int is_bin_next_batch(struct is_trace_reader *r, struct is_record *recs, int max,
		      GError **error);
bool is_bin_write_header(struct is_trace_writer *w);
bool is_bin_write(struct is_trace_writer *w, const struct is_record *rec);
bool is_bin_write_end(struct is_trace_writer *w);

/* Locale-independent decimal int64 parse of [s, s+len). */
bool is_parse_i64(const char *s, size_t len, int64_t *out);

#endif
