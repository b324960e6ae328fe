/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One line of ftrace text: the tracefs "trace" file (with or without the
 * irq-info columns) and "trace-cmd report" output share the layout
 *   <comm>-<pid>  [<cpu>] [<irq flags>]  <sec>.<frac>: <event>: <payload>
 * (trace-cmd pads the payload with spaces; the comm may hold anything).
 */
#ifndef IDLESIM_FTRACE_LINE_H
#define IDLESIM_FTRACE_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ftrace_line {
	int cpu;                 /* the buffer's CPU column */
	int64_t ts_ns;
	const char *event;       /* not NUL-terminated: event_len bytes */
	size_t event_len;
	const char *payload;     /* NUL-terminated (the line's end) */
	int need_resched;        /* irq-info column: 1 'N'/'n', 0 other, -1 no column */
};

/*
 * Splits @line (NUL-terminated, no newline).  Returns NULL on success,
 * else the name of the field that does not parse ("cpu", "timestamp",
 * "event").
 */
const char *ftrace_line_parse(const char *line, struct ftrace_line *out);

/* "<sec>.<frac>" with 1..9 fraction digits, in ns. */
bool ftrace_parse_ts(const char *s, size_t len, int64_t *out);

/*
 * The value of "key=" in @payload (at the start or after a space): its
 * start and length (up to the next space), or false when absent.
 */
bool ftrace_field(const char *payload, const char *key, const char **val, size_t *len);
/* The same, as a decimal integer (optionally negative); false when absent
 * or not a number.  Values above INT64_MAX (unsigned fields) saturate. */
bool ftrace_field_i64(const char *payload, const char *key, int64_t *out);
/* The same, but a value outside int64 is refused (false), not saturated:
 * for the raw inputs of exact replay, which must be carried verbatim. */
bool ftrace_field_s64(const char *payload, const char *key, int64_t *out);

#endif
