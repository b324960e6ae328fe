// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "ftrace_line.h"

bool ftrace_parse_ts(const char *s, size_t len, int64_t *out)
{
	const char *dot = memchr(s, '.', len);
	int64_t sec = 0, frac = 0;
	size_t flen;

	if (!dot || dot == s || dot - s > 9)
		return false;
	for (const char *p = s; p < dot; p++) {
		if (*p < '0' || *p > '9')
			return false;
		sec = sec * 10 + (*p - '0');
	}
	flen = len - (size_t)(dot + 1 - s);
	if (flen == 0 || flen > 9)
		return false;
	for (const char *p = dot + 1; p < s + len; p++) {
		if (*p < '0' || *p > '9')
			return false;
		frac = frac * 10 + (*p - '0');
	}
	for (size_t i = flen; i < 9; i++)
		frac *= 10;
	*out = sec * 1000000000LL + frac;
	return true;
}

/* A timestamp token "<sec>.<frac>:" at @p; sets *end past the colon. */
static bool ts_token(const char *p, int64_t *ts, const char **end)
{
	const char *q = p;

	while (*q && *q != ' ' && *q != ':')
		q++;
	if (*q != ':' || !ftrace_parse_ts(p, (size_t)(q - p), ts))
		return false;
	*end = q + 1;
	return true;
}

/* After the timestamp's ": ": the event name and the payload. */
static bool event_and_payload(const char *e, struct ftrace_line *out)
{
	const char *t;

	while (*e == ' ')
		e++;
	t = e;
	while (*t && *t != ':' && *t != ' ')
		t++;
	if (*t != ':' || t == e)
		return false;
	out->event = e;
	out->event_len = (size_t)(t - e);
	t++;
	while (*t == ' ')
		t++;
	out->payload = t;
	return true;
}

/*
 * "trace-cmd report -l": "<comm>-<pid>  <cpu><flags>  <ts>: ...", the CPU
 * number fused with the irq-info flags ("0dN.1.").
 */
static bool latency_layout(const char *line, struct ftrace_line *out)
{
	for (const char *p = strchr(line, ' '); p; p = strchr(p + 1, ' ')) {
		const char *tok = p + 1, *f, *t, *e;
		int64_t cpu = 0, ts;

		if (*tok < '0' || *tok > '9')
			continue;
		f = tok;
		while (*f >= '0' && *f <= '9' && cpu < 1000000)
			cpu = cpu * 10 + (*f++ - '0');
		t = f;
		while (*t && *t != ' ')
			t++;
		if (t - f < 4 || t - f > 6 || *t != ' ')
			continue;
		while (*t == ' ')
			t++;
		if (!ts_token(t, &ts, &e) || *e != ' ' || !event_and_payload(e, out))
			continue;
		out->cpu = (int)cpu;
		out->ts_ns = ts;
		out->need_resched = f[1] == 'N' || f[1] == 'n';
		return true;
	}
	return false;
}

const char *ftrace_line_parse(const char *line, struct ftrace_line *out)
{
	const char *p = line, *why = "cpu";

	/*
	 * The comm may itself hold "[...]", so try every "[digits]" until
	 * one is followed by the timestamp (with or without the irq flags).
	 */
	while ((p = strchr(p, '[')) != NULL) {
		const char *q = p + 1, *t, *e;
		int64_t cpu = 0, ts;

		p++;
		if (*q < '0' || *q > '9')
			continue;
		while (*q >= '0' && *q <= '9' && cpu < 1000000)
			cpu = cpu * 10 + (*q++ - '0');
		if (*q != ']' || q[1] != ' ')
			continue;
		t = q + 1;
		while (*t == ' ')
			t++;
		why = "timestamp";
		out->need_resched = -1;
		if (!ts_token(t, &ts, &e)) {
			/* irq-info flags such as "dNh1." come first */
			const char *f = t;

			while (*t && *t != ' ')
				t++;
			if (t - f >= 2)
				out->need_resched = f[1] == 'N' || f[1] == 'n';
			while (*t == ' ')
				t++;
			if (!ts_token(t, &ts, &e))
				continue;
		}
		if (*e != ' ') {
			why = "timestamp";
			continue;
		}
		if (!event_and_payload(e, out)) {
			why = "event";
			continue;
		}
		out->cpu = (int)cpu;
		out->ts_ns = ts;
		return NULL;
	}
	return latency_layout(line, out) ? NULL : why;
}

bool ftrace_field(const char *payload, const char *key, const char **val, size_t *len)
{
	size_t kl = strlen(key);

	for (const char *p = payload; (p = strstr(p, key)) != NULL; p += kl) {
		const char *v, *e;

		if ((p != payload && p[-1] != ' ') || p[kl] != '=')
			continue;
		v = p + kl + 1;
		e = v;
		while (*e && *e != ' ')
			e++;
		*val = v;
		*len = (size_t)(e - v);
		return true;
	}
	return false;
}

static bool field_int(const char *payload, const char *key, int64_t *out, bool strict)
{
	const char *v;
	size_t n, i = 0;
	bool neg = false, over = false;
	uint64_t x = 0;

	if (!ftrace_field(payload, key, &v, &n) || n == 0)
		return false;
	if (v[0] == '-') {
		neg = true;
		i = 1;
		if (n == 1)
			return false;
	}
	for (; i < n; i++) {
		unsigned d = (unsigned)(v[i] - '0');

		if (d > 9)
			return false;
		if (x > (UINT64_MAX - d) / 10) {
			x = UINT64_MAX; /* saturate */
			over = true;
		} else {
			x = x * 10 + d;
		}
	}
	if (x > (uint64_t)INT64_MAX + neg)
		over = true;
	if (over && strict)
		return false;
	if (neg)
		*out = x > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)x;
	else
		*out = x > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)x;
	return true;
}

bool ftrace_field_i64(const char *payload, const char *key, int64_t *out)
{
	return field_int(payload, key, out, false);
}

bool ftrace_field_s64(const char *payload, const char *key, int64_t *out)
{
	return field_int(payload, key, out, true);
}
