// SPDX-License-Identifier: GPL-2.0-only
/*
 * Trace format: shared parts of the text and binary forms (header,
 * record checks, reader/writer dispatch, atomic output).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "idlesim/states.h"
#include "trace_internal.h"

static const char *const cause_names[IS_CAUSE_COUNT] = {
	[IS_CAUSE_UNKNOWN] = "unknown",
	[IS_CAUSE_TIMER] = "timer",
	[IS_CAUSE_TICK] = "tick",
	[IS_CAUSE_IRQ] = "irq",
	[IS_CAUSE_IPI] = "ipi",
	[IS_CAUSE_POLL] = "poll",
};

const char *is_cause_name(enum is_cause c)
{
	return (unsigned)c < IS_CAUSE_COUNT ? cause_names[c] : "?";
}

int is_cause_parse(const char *s, size_t len)
{
	for (int i = 0; i < IS_CAUSE_COUNT; i++)
		if (strlen(cause_names[i]) == len && memcmp(cause_names[i], s, len) == 0)
			return i;
	return -1;
}

bool is_parse_i64(const char *s, size_t len, int64_t *out)
{
	bool neg = false;
	uint64_t v = 0;
	size_t i = 0;

	if (len && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (i == len || len - i > 19)
		return false;
	for (; i < len; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9)
			return false;
		v = v * 10 + d;
	}
	if (v > (uint64_t)INT64_MAX + neg)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

void is_trace_header_init(struct is_trace_header *h)
{
	memset(h, 0, sizeof(*h));
	h->version = IS_TRACE_VERSION;
	h->hz = 100;
	h->cpus = 1;
}

void is_trace_header_clear(struct is_trace_header *h)
{
	for (int i = 0; i < h->ncomments; i++)
		g_free(h->comments[i]);
	h->ncomments = 0;
	g_clear_pointer(&h->start_lres_ns, g_free);
}

void is_trace_header_copy(struct is_trace_header *dst,
			  const struct is_trace_header *src)
{
	*dst = *src;
	for (int i = 0; i < src->ncomments; i++)
		dst->comments[i] = g_strdup(src->comments[i]);
	if (src->start_lres_ns)
		dst->start_lres_ns = g_memdup2(src->start_lres_ns,
					       sizeof(int64_t) * (size_t)src->cpus);
}

void is_trace_header_set_start_lres(struct is_trace_header *h, int cpu, int64_t ns)
{
	if (cpu < 0 || cpu >= h->cpus)
		return;
	if (!h->start_lres_ns)
		h->start_lres_ns = g_new0(int64_t, h->cpus);
	h->start_lres_ns[cpu] = ns;
}

bool is_trace_header_add_comment(struct is_trace_header *h, const char *text)
{
	if (h->ncomments >= IS_TRACE_MAX_COMMENTS || strchr(text, '\n'))
		return false;
	h->comments[h->ncomments++] = g_strdup(text);
	return true;
}

enum { SEEN_STATES = 1, SEEN_HZ = 2, SEEN_CPUS = 4, SEEN_SEED = 8, SEEN_SOURCE = 16, SEEN_POLL = 32,
       SEEN_TLATE = 64 };

static bool hdr_err(GError **error, const char *path, uint64_t line,
		    const char *field, const char *msg, const char *v, size_t vlen)
{
	g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
		    "%s:%" G_GUINT64_FORMAT ": header field '%s': %s%s%.*s%s", path,
		    line, field, msg, v ? " ('" : "", (int)(v ? vlen : 0), v ? v : "",
		    v ? "')" : "");
	return false;
}

void is_trace_header_set_table(struct is_trace_header *h, const struct is_state_table *t)
{
	h->table = *t;
	h->has_table = true;
	g_strlcpy(h->states, t->name, sizeof(h->states));
	h->state_count = t->count;
}

static const struct {
	const char *name;
	uint32_t bit;
} state_flags[] = {
	{ "polling", IS_STATE_POLLING }, { "off", IS_STATE_OFF },
	{ "timer-stop", IS_STATE_TIMER_STOP },
};

/*
 * "state I NAME exit_latency_ns=N target_residency_ns=N flags=F power=P
 * transition_energy=E": state I of the embedded table, in order.
 */
static bool parse_state_line(struct is_trace_header *h, const char *v, size_t vlen,
			     const char *path, uint64_t lineno, GError **error)
{
	g_autofree char *s = g_strndup(v, vlen);
	g_auto(GStrv) f = g_strsplit(s, " ", -1);
	struct is_state *st;
	guint64 idx;
	unsigned got = 0;

	if (g_strv_length(f) != 7 || !g_ascii_string_to_unsigned(f[0], 10, 0, IS_STATE_MAX - 1,
								 &idx, NULL))
		return hdr_err(error, path, lineno, "state", "expected 'state I NAME "
			       "exit_latency_ns=N target_residency_ns=N flags=F power=P "
			       "transition_energy=E'", v, vlen);
	if ((int)idx != h->table.count)
		return hdr_err(error, path, lineno, "state", "states must come in order from 0",
			       f[0], strlen(f[0]));
	if (!f[1][0] || strlen(f[1]) >= IS_NAME_LEN)
		return hdr_err(error, path, lineno, "state", "name must be 1..15 characters",
			       f[1], strlen(f[1]));
	st = &h->table.s[h->table.count];
	memset(st, 0, sizeof(*st));
	g_strlcpy(st->name, f[1], sizeof(st->name));
	for (int i = 2; i < 7; i++) {
		char *eq = strchr(f[i], '=');
		const char *key = f[i], *val;
		char *end;
		int64_t n;

		if (!eq)
			return hdr_err(error, path, lineno, "state", "expected key=value",
				       f[i], strlen(f[i]));
		*eq = 0;
		val = eq + 1;
		if (strcmp(key, "exit_latency_ns") == 0 || strcmp(key, "target_residency_ns") == 0) {
			if (!is_parse_i64(val, strlen(val), &n) || n < 0)
				return hdr_err(error, path, lineno, key, "not a nanosecond count",
					       val, strlen(val));
			*(key[0] == 'e' ? &st->exit_latency_ns : &st->target_residency_ns) = n;
			got |= key[0] == 'e' ? 1 : 2;
		} else if (strcmp(key, "flags") == 0) {
			g_auto(GStrv) fl = g_strsplit(val, ",", -1);

			for (int k = 0; strcmp(val, "none") != 0 && fl[k]; k++) {
				size_t j;

				for (j = 0; j < G_N_ELEMENTS(state_flags); j++)
					if (strcmp(fl[k], state_flags[j].name) == 0)
						break;
				if (j == G_N_ELEMENTS(state_flags))
					return hdr_err(error, path, lineno, "flags",
						       "unknown flag (polling, off, timer-stop, or none)",
						       fl[k], strlen(fl[k]));
				st->flags |= state_flags[j].bit;
			}
			got |= 4;
		} else if (strcmp(key, "power") == 0 || strcmp(key, "transition_energy") == 0) {
			double d = g_ascii_strtod(val, &end);

			if (end == val || *end || !(d >= 0) || !isfinite(d))
				return hdr_err(error, path, lineno, key, "not a number >= 0",
					       val, strlen(val));
			*(key[0] == 'p' ? &st->power : &st->transition_energy) = d;
			got |= key[0] == 'p' ? 8 : 16;
		} else {
			return hdr_err(error, path, lineno, "state", "unknown key", key, strlen(key));
		}
	}
	if (got != 31)
		return hdr_err(error, path, lineno, "state", "a key is missing or given twice",
			       v, vlen);
	h->table.count++;
	h->has_table = true;
	return true;
}


bool is_trace_parse_header_line(struct is_trace_header *h, const char *line,
				size_t len, unsigned *seen, const char *path,
				uint64_t lineno, GError **error)
{
	const char *sp = memchr(line, ' ', len);
	size_t klen = sp ? (size_t)(sp - line) : len;
	const char *v = sp ? sp + 1 : line + len;
	size_t vlen = len - (size_t)(v - line);
	int64_t n;

#define KEY(k) (klen == strlen(k) && memcmp(line, k, klen) == 0)
/* a second 'hz' would silently replace the first */
#define ONCE(bit, k) do { \
		if (*seen & (bit)) \
			return hdr_err(error, path, lineno, k, "given twice", NULL, 0); \
		*seen |= (bit); \
	} while (0)
	if (len && line[0] == '#') {
		g_autofree char *c = g_strndup(line, len);

		if (!is_trace_header_add_comment(h, c))
			return hdr_err(error, path, lineno, "#", "too many comment lines (max 64)",
				       NULL, 0);
		return true;
	}
	if (KEY("states")) {
		const char *sp2 = memchr(v, ' ', vlen);
		size_t nlen = sp2 ? (size_t)(sp2 - v) : vlen;

		ONCE(SEEN_STATES, "states");
		if (!sp2 || nlen == 0 || nlen >= sizeof(h->states))
			return hdr_err(error, path, lineno, "states",
				       "expected 'states NAME COUNT'", v, vlen);
		if (!is_parse_i64(sp2 + 1, vlen - nlen - 1, &n) || n < 1 || n > IS_STATE_MAX)
			return hdr_err(error, path, lineno, "states",
				       "state count must be 1..10", sp2 + 1, vlen - nlen - 1);
		memcpy(h->states, v, nlen);
		h->states[nlen] = 0;
		h->state_count = (int)n;
	} else if (KEY("hz")) {
		ONCE(SEEN_HZ, "hz");
		if (!is_parse_i64(v, vlen, &n) || n < 1 || n > 100000)
			return hdr_err(error, path, lineno, "hz", "must be 1..100000", v, vlen);
		h->hz = (int)n;
	} else if (KEY("cpus")) {
		ONCE(SEEN_CPUS, "cpus");
		if (!is_parse_i64(v, vlen, &n) || n < 1 || n > IS_TRACE_MAX_CPUS)
			return hdr_err(error, path, lineno, "cpus", "must be 1..4096", v, vlen);
		h->cpus = (int)n;
	} else if (KEY("seed")) {
		guint64 u;
		g_autofree char *s = g_strndup(v, vlen);

		ONCE(SEEN_SEED, "seed");
		if (!g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT64, &u, NULL))
			return hdr_err(error, path, lineno, "seed",
				       "not an unsigned integer", v, vlen);
		h->seed = u;
		h->has_seed = true;
	} else if (KEY("poll_overrun_ns")) {
		ONCE(SEEN_POLL, "poll_overrun_ns");
		if (!is_parse_i64(v, vlen, &n) || n < 0 || n > 1000000000)
			return hdr_err(error, path, lineno, "poll_overrun_ns", "must be 0..1000000000",
				       v, vlen);
		h->poll_overrun_ns = n;
	} else if (KEY("tick_late_ns")) {
		ONCE(SEEN_TLATE, "tick_late_ns");
		if (!is_parse_i64(v, vlen, &n) || n < 0 || n > 1000000000)
			return hdr_err(error, path, lineno, "tick_late_ns", "must be 0..1000000000",
				       v, vlen);
		h->tick_late_ns = n;
	} else if (KEY("last_residency_ns")) {
		const char *sp2 = memchr(v, ' ', vlen);
		int64_t cpu;

		if (!(*seen & SEEN_CPUS))
			return hdr_err(error, path, lineno, "last_residency_ns",
				       "comes after 'cpus'", NULL, 0);
		if (!sp2 || !is_parse_i64(v, (size_t)(sp2 - v), &cpu) || cpu < 0 || cpu >= h->cpus)
			return hdr_err(error, path, lineno, "last_residency_ns",
				       "expected 'last_residency_ns CPU NS', CPU below cpus", v, vlen);
		if (!is_parse_i64(sp2 + 1, vlen - (size_t)(sp2 + 1 - v), &n))
			return hdr_err(error, path, lineno, "last_residency_ns",
				       "NS is not an integer", sp2 + 1, vlen - (size_t)(sp2 + 1 - v));
		if (!h->start_lres_ns) {
			h->start_lres_ns = g_new(int64_t, h->cpus);
			for (int i = 0; i < h->cpus; i++)
				h->start_lres_ns[i] = INT64_MIN; /* not given yet */
		}
		if (h->start_lres_ns[cpu] != INT64_MIN)
			return hdr_err(error, path, lineno, "last_residency_ns",
				       "given twice for a CPU", v, vlen);
		h->start_lres_ns[cpu] = n;
	} else if (KEY("state") && h->version >= 2) {
		if (!parse_state_line(h, v, vlen, path, lineno, error))
			return false;
	} else if (KEY("source")) {
		ONCE(SEEN_SOURCE, "source");
		if (vlen >= sizeof(h->source))
			return hdr_err(error, path, lineno, "source",
				       "longer than 255 characters", NULL, 0);
		memcpy(h->source, v, vlen);
		h->source[vlen] = 0;
	} else {
		return hdr_err(error, path, lineno, "?", "unknown header key", line, klen);
	}
#undef ONCE
#undef KEY
	return true;
}

bool is_trace_header_complete(struct is_trace_header *h, unsigned seen,
			      const char *path, uint64_t lineno, GError **error)
{
	if (!(seen & SEEN_STATES))
		return hdr_err(error, path, lineno, "states", "missing", NULL, 0);
	if (h->has_table) {
		GError *e = NULL;

		if (h->table.count != h->state_count) {
			g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
				    "%s: header field 'state': %d state lines for 'states %s %d'",
				    path, h->table.count, h->states, h->state_count);
			return false;
		}
		g_strlcpy(h->table.name, h->states, sizeof(h->table.name));
		if (!is_states_validate(&h->table, "the trace's table", &e)) {
			g_set_error(error, IS_ERROR, IS_ERROR_PARSE, "%s: header field 'state': %s",
				    path, e->message);
			g_error_free(e);
			return false;
		}
	}
	if (!(seen & SEEN_HZ))
		return hdr_err(error, path, lineno, "hz", "missing", NULL, 0);
	if (!(seen & SEEN_CPUS))
		return hdr_err(error, path, lineno, "cpus", "missing", NULL, 0);
	/* a CPU without a last_residency_ns line: 0, as at boot */
	for (int i = 0; h->start_lres_ns && i < h->cpus; i++)
		if (h->start_lres_ns[i] == INT64_MIN)
			h->start_lres_ns[i] = 0;
	return true;
}

char *is_trace_header_body(const struct is_trace_header *h)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, "states %s %d\n", h->states, h->state_count);
	for (int i = 0; h->has_table && i < h->table.count; i++) {
		const struct is_state *st = &h->table.s[i];
		char p[G_ASCII_DTOSTR_BUF_SIZE], e[G_ASCII_DTOSTR_BUF_SIZE];
		bool any = false;

		g_string_append_printf(s, "state %d %s exit_latency_ns=%" G_GINT64_FORMAT
				       " target_residency_ns=%" G_GINT64_FORMAT " flags=", i, st->name,
				       st->exit_latency_ns, st->target_residency_ns);
		any = is_state_flags_append(s, st->flags);
		g_string_append_printf(s, "%s power=%s transition_energy=%s\n", any ? "" : "none",
				       is_format_shortest(p, st->power),
				       is_format_shortest(e, st->transition_energy));
	}
	g_string_append_printf(s, "hz %d\ncpus %d\n", h->hz, h->cpus);
	if (h->has_seed)
		g_string_append_printf(s, "seed %" G_GUINT64_FORMAT "\n", h->seed);
	if (h->poll_overrun_ns)
		g_string_append_printf(s, "poll_overrun_ns %" G_GINT64_FORMAT "\n", h->poll_overrun_ns);
	if (h->tick_late_ns)
		g_string_append_printf(s, "tick_late_ns %" G_GINT64_FORMAT "\n", h->tick_late_ns);
	for (int i = 0; h->start_lres_ns && i < h->cpus; i++)
		if (h->start_lres_ns[i])
			g_string_append_printf(s, "last_residency_ns %d %" G_GINT64_FORMAT "\n", i,
					       h->start_lres_ns[i]);
	if (h->source[0])
		g_string_append_printf(s, "source %s\n", h->source);
	for (int i = 0; i < h->ncomments; i++)
		g_string_append_printf(s, "%s\n", h->comments[i]);
	return g_string_free(s, FALSE);
}

const char *is_trace_check(const struct is_trace_header *h, int64_t last_t,
			   const struct is_record *rec, const char **msg)
{
	if (is_trace_check_fast(h, last_t, rec))
		return NULL;
	if (rec->t_ns < 0) {
		*msg = "negative time";
		return "t_ns";
	}
	if (rec->t_ns < last_t) {
		*msg = "timestamp goes backwards (records must be in time order)";
		return "t_ns";
	}
	if (rec->kind == IS_REC_STATE) {
		if (rec->cpu >= h->cpus && rec->cpu != IS_CPU_ALL) {
			*msg = "cpu not below the header's cpus";
			return "cpu";
		}
		if (rec->kstate < 0 || rec->kstate >= h->state_count) {
			*msg = "state index outside the state table";
			return "state";
		}
		return NULL;
	}
	if (rec->kind != IS_REC_IDLE) {
		*msg = "unknown record kind";
		return "kind";
	}
	if (rec->cpu >= h->cpus) {
		*msg = "cpu not below the header's cpus";
		return "cpu";
	}
	if (rec->lat_ns < 0) {
		*msg = "negative duration";
		return "lat_ns";
	}
	if (rec->idle_ns < 0) {
		*msg = "negative duration";
		return "idle_ns";
	}
	/* The event loop steps retained ticks through an idle period. */
	if (rec->idle_ns > IS_TRACE_MAX_IDLE_NS) {
		*msg = "longer than 10^15 ns (11.6 days)";
		return "idle_ns";
	}
	if (rec->flags & ~rec->has & IS_F_VALUES) {
		*msg = "flag value set but the field is absent";
		return "flags";
	}
	if (rec->flags & ~IS_F_ALL) {
		*msg = "unknown flag bits";
		return "flags";
	}
	if (rec->est & ~IS_EST_ALL) {
		*msg = "unknown estimate bits";
		return "est";
	}
	/*
	 * sleep_ns and tick_ns may be negative: tick_nohz_get_sleep_length()
	 * measures from the idle entry time, so a recorded kernel can report
	 * an event that is already due.
	 */
	if (rec->cause >= IS_CAUSE_COUNT) {
		*msg = "unknown wakeup cause";
		return "cause";
	}
	if ((rec->has & IS_HAS_KSTATE) &&
	    (rec->kstate < 0 || rec->kstate >= h->state_count)) {
		*msg = "state index outside the state table";
		return "k";
	}
	/*
	 * span and lres are any int64, as recorded: both are differences of
	 * local_clock() readings, negative when the clock ran backwards within
	 * the pass (seen in QEMU guests under load), and the governors apply
	 * the kernel's own types to them.
	 */
	return NULL;
}

/* ---- reader ----------------------------------------------------------- */

struct is_trace_reader *is_trace_open(const char *path, GError **error)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");

	if (!f) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", path, g_strerror(errno));
		return NULL;
	}
	return is_trace_open_stream(f, path, error);
}

struct is_trace_reader *is_trace_open_stream(FILE *f, const char *path, GError **error)
{
	struct is_trace_reader *r = g_new0(struct is_trace_reader, 1);
	char magic[8];
	size_t n;
	int c;

	r->path = g_strdup(path);
	is_trace_header_init(&r->h);
	r->f = f;
	/*
	 * The forms differ in their first byte ('I' against 'i'): one byte of
	 * look-ahead, which ungetc() can always give back, tells them apart
	 * on a pipe too.
	 */
	c = getc(r->f);
	if (c == IS_BIN_MAGIC[0]) {
		magic[0] = (char)c;
		errno = 0;
		n = 1 + fread(magic + 1, 1, sizeof(magic) - 1, r->f);
		if (n != sizeof(magic) && ferror(r->f)) {
			g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", path,
				    g_strerror(errno ? errno : EIO));
			goto fail;
		}
		if (n != sizeof(magic) || memcmp(magic, IS_BIN_MAGIC, 8) != 0) {
			g_set_error(error, IS_ERROR, IS_ERROR_PARSE,
				    "%s:1: header field 'version': not an idlesim trace "
				    "(neither 'idlesim-trace VERSION' nor the binary magic)", path);
			goto fail;
		}
		r->fmt = IS_FMT_BINARY;
		if (!is_bin_open(r, error))
			goto fail;
	} else {
		r->fmt = IS_FMT_TEXT;
		if (c != EOF)
			ungetc(c, r->f);
		if (!is_text_open(r, error))
			goto fail;
	}
	return r;
fail:
	is_trace_close(r);
	return NULL;
}

/*
 * Whether @t can stand for the trace's own table @own: the same states as
 * the governors and the metrics see them (count, exit latency, target
 * residency, polling); names and power figures may differ (another power
 * model for the same machine).
 */
static bool table_fits(const char *path, const struct is_state_table *own,
		       const struct is_state_table *t, GError **error)
{
	for (int i = 0; i < t->count && i < own->count; i++) {
		const struct is_state *a = &own->s[i], *b = &t->s[i];
		const char *field = a->exit_latency_ns != b->exit_latency_ns ? "exit_latency_ns" :
				    a->target_residency_ns != b->target_residency_ns ?
				    "target_residency_ns" :
				    (a->flags ^ b->flags) & IS_STATE_POLLING ? "flags" : NULL;

		if (field) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: --states %s does not fit the trace's own table %s: state%d "
				    "(%s here, %s in the trace) differs in '%s'", path, t->name,
				    own->name, i, b->name, a->name, field);
			return false;
		}
	}
	return true;
}

struct is_state_table *is_trace_states_open(const char *path, const struct is_trace_header *h,
					    const char *spec, uint32_t *disabled,
					    GError **error)
{
	uint32_t dis = 0;
	struct is_state_table *t;

	if (!spec && h->has_table) {
		/* the table the trace was made with travels with it */
		t = is_states_dup(&h->table);
		if (disabled)
			*disabled = is_states_default_disabled(t);
		return t;
	}
	t = is_states_open(spec ? spec : h->states, &dis, error);
	if (!t) {
		/* the header's name may be a table of another machine */
		if (!spec && error && *error) {
			GError *e = *error;

			*error = NULL;
			g_set_error(error, e->domain, e->code,
				    "%s: header field 'states': %s; a table of another machine "
				    "can be given as a key file or sysfs dump", path, e->message);
			g_error_free(e);
		}
		return NULL;
	}
	if (t->count != h->state_count) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: header field 'states': the trace has %d states but table %s has %d",
			    path, h->state_count, t->name, t->count);
		is_states_free(t);
		return NULL;
	}
	if (h->has_table && !table_fits(path, &h->table, t, error)) {
		is_states_free(t);
		return NULL;
	}
	if (disabled)
		*disabled = dis;
	return t;
}

enum is_trace_format is_trace_reader_format(const struct is_trace_reader *r)
{
	return r->fmt;
}

const struct is_trace_header *is_trace_reader_header(const struct is_trace_reader *r)
{
	return &r->h;
}

uint64_t is_trace_reader_count(const struct is_trace_reader *r)
{
	return r->count;
}

int is_trace_next(struct is_trace_reader *r, struct is_record *rec, GError **error)
{
	if (r->done)
		return 0;
	return r->fmt == IS_FMT_BINARY ? is_bin_next(r, rec, error) :
					 is_text_next(r, rec, error);
}

int is_trace_next_batch(struct is_trace_reader *r, struct is_record *recs, int max,
			GError **error)
{
	if (r->done)
		return 0;
	return r->fmt == IS_FMT_BINARY ? is_bin_next_batch(r, recs, max, error) :
					 is_text_next(r, recs, error);
}

void is_trace_close(struct is_trace_reader *r)
{
	if (!r)
		return;
	if (r->f && r->f != stdin)
		fclose(r->f);
	is_trace_header_clear(&r->h);
	g_free(r->path);
	g_free(r->lbuf);
	g_free(r->buf);
	g_free(r);
}

mode_t is_current_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

/*
 * The temporary files being written, for is_outfile_unlink_all() in a
 * signal handler: a slot holds its path from the file's creation until
 * just before the path is freed.
 */
#define LIVE_MAX 16
static _Atomic(const char *) live[LIVE_MAX];

void is_outfile_track(const char *tmp)
{
	for (int i = 0; i < LIVE_MAX; i++) {
		const char *none = NULL;

		if (atomic_compare_exchange_strong(&live[i], &none, tmp))
			return;
	}
}

void is_outfile_untrack(const char *tmp)
{
	for (int i = 0; tmp && i < LIVE_MAX; i++) {
		const char *mine = tmp;

		if (atomic_compare_exchange_strong(&live[i], &mine, NULL))
			return;
	}
}

void is_outfile_unlink_all(void)
{
	/* files first, then the directories they were in (rmdir of a file fails) */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < LIVE_MAX; i++) {
			const char *p = atomic_load(&live[i]);

			if (p && pass == 0)
				unlink(p);
			else if (p)
				rmdir(p);
		}
}

bool is_outfile_open(struct is_outfile *o, const char *path, GError **error)
{
	struct stat st;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || strcmp(path, "-") == 0) {
		o->f = stdout;
		return true;
	}
	o->path = g_strdup(path);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		o->f = fopen(path, "w");
		if (!o->f) {
			g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", path, g_strerror(errno));
			g_clear_pointer(&o->path, g_free);
			return false;
		}
		return true;
	}
	o->tmp = g_strdup_printf("%s.tmp.XXXXXX", path);
	fd = g_mkstemp(o->tmp);
	if (fd >= 0) {
		is_outfile_track(o->tmp);
		fchmod(fd, 0666 & ~is_current_umask());
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", path, g_strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		is_outfile_untrack(o->tmp);
		g_clear_pointer(&o->path, g_free);
		g_clear_pointer(&o->tmp, g_free);
		return false;
	}
	return true;
}

bool is_outfile_commit(struct is_outfile *o, GError **error)
{
	bool ok;

	errno = 0;
	ok = fflush(o->f) == 0 && !ferror(o->f);
	if (o->f == stdout) {
		if (!ok)
			g_set_error(error, IS_ERROR, IS_ERROR_IO, "standard output: %s",
				    errno ? g_strerror(errno) : "write error");
		o->f = NULL;
		return ok;
	}
	/* fsync() of a device or FIFO may fail with EINVAL: a regular file's only */
	if (ok && o->sync && o->tmp && fsync(fileno(o->f)) != 0)
		ok = false;
	if (fclose(o->f) != 0)
		ok = false;
	o->f = NULL;
	if (ok && o->tmp && rename(o->tmp, o->path) != 0)
		ok = false;
	if (!ok) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", o->path, g_strerror(errno));
		if (o->tmp)
			unlink(o->tmp);
	}
	is_outfile_untrack(o->tmp);
	g_clear_pointer(&o->path, g_free);
	g_clear_pointer(&o->tmp, g_free);
	return ok;
}

void is_outfile_abort(struct is_outfile *o)
{
	if (o->f && o->f != stdout) {
		fclose(o->f);
		if (o->tmp)
			unlink(o->tmp);
	}
	is_outfile_untrack(o->tmp);
	o->f = NULL;
	g_clear_pointer(&o->path, g_free);
	g_clear_pointer(&o->tmp, g_free);
}

/* ---- writer ----------------------------------------------------------- */

enum is_trace_format is_trace_format_of_name(const char *path)
{
	static const char *const text[] = { ".trace", ".txt", ".text" };
	static const char *const bin[] = { ".istb", ".bin" };

	for (size_t i = 0; i < G_N_ELEMENTS(text); i++)
		if (g_str_has_suffix(path, text[i]))
			return IS_FMT_TEXT;
	for (size_t i = 0; i < G_N_ELEMENTS(bin); i++)
		if (g_str_has_suffix(path, bin[i]))
			return IS_FMT_BINARY;
	return IS_FMT_AUTO;
}

enum is_trace_format is_trace_format_for_path(const char *path)
{
	enum is_trace_format f = is_trace_format_of_name(path);

	return f == IS_FMT_AUTO ? IS_FMT_TEXT : f;
}

struct is_trace_writer *is_trace_writer_open(const char *path,
					     enum is_trace_format fmt,
					     const struct is_trace_header *h,
					     GError **error)
{
	struct is_trace_writer *w;
	bool ok;

	/*
	 * Refuse what rename() would refuse only after the whole trace was
	 * written: an import or a long synth must not run for nothing.
	 */
	if (!*path || g_file_test(path, G_FILE_TEST_IS_DIR)) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", *path ? path : "''",
			    *path ? g_strerror(EISDIR) : "an empty file name");
		return NULL;
	}
	for (int i = 0; h->has_table && i < h->table.count; i++)
		if (strpbrk(h->table.s[i].name, " \t\n\r=")) {
			g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
				    "%s: state%d's name '%s' has a space or '=': a trace cannot "
				    "carry it (rename the state in the table)", path, i,
				    h->table.s[i].name);
			return NULL;
		}
	w = g_new0(struct is_trace_writer, 1);
	w->fmt = fmt == IS_FMT_AUTO ? is_trace_format_for_path(path) : fmt;
	w->path = g_strdup(path);
	is_trace_header_copy(&w->h, h);
	/* version 2 only where it says more: a trace without a table stays 1 */
	w->h.version = h->has_table ? IS_TRACE_VERSION : IS_TRACE_VERSION_MIN;
	if (!is_outfile_open(&w->out, path, error)) {
		is_trace_writer_abort(w);
		return NULL;
	}
	w->f = w->out.f;
	ok = w->fmt == IS_FMT_BINARY ? is_bin_write_header(w) : is_text_write_header(w);
	if (!ok) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: write failed: %s", path,
			    g_strerror(errno));
		is_trace_writer_abort(w);
		return NULL;
	}
	return w;
}

bool is_trace_write(struct is_trace_writer *w, const struct is_record *rec,
		    GError **error)
{
	const char *msg, *field = is_trace_check(&w->h, w->last_t, rec, &msg);

	if (field) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: record %" G_GUINT64_FORMAT ": field '%s': %s", w->path,
			    w->count + 1, field, msg);
		w->failed = true;
		return false;
	}
	if (!(w->fmt == IS_FMT_BINARY ? is_bin_write(w, rec) : is_text_write(w, rec))) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: write failed: %s", w->path,
			    g_strerror(errno));
		w->failed = true;
		return false;
	}
	w->last_t = rec->t_ns;
	w->count++;
	return true;
}

static void writer_free(struct is_trace_writer *w)
{
	is_trace_header_clear(&w->h);
	g_free(w->path);
	g_free(w);
}

bool is_trace_writer_commit(struct is_trace_writer *w, GError **error)
{
	bool ok = !w->failed;

	ok = ok && (w->fmt == IS_FMT_BINARY ? is_bin_write_end(w) : is_text_write_end(w));
	if (!ok) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", w->path,
			    w->failed ? "earlier write failed" : g_strerror(errno));
		is_trace_writer_abort(w);
		return false;
	}
	w->out.sync = true;
	ok = is_outfile_commit(&w->out, error);
	writer_free(w);
	return ok;
}

void is_trace_writer_abort(struct is_trace_writer *w)
{
	if (!w)
		return;
	is_outfile_abort(&w->out);
	writer_free(w);
}
