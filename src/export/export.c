// SPDX-License-Identifier: GPL-2.0-only
/*
 * Simulations as captures (include/idlesim/export.h, docs/export.md).
 *
 * trace.dat is written here, in trace-cmd's version 6 format
 * (trace-cmd.dat.v6(5)): Debian 12's libtracecmd 3.1 reads that format but
 * declares no writer in its headers, and the two events need no more than
 * the ring buffer's page layout that the file's own header_page and
 * header_event sections describe.  The text beside it is the tracefs
 * "trace" file's layout with nanosecond stamps (what Perfetto's ftrace
 * text import and idlesim's importer read; the kernel prints
 * microseconds, which would round the durations).
 *
 * The periods are held in memory until written: 24 bytes each.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "idlesim/export.h"
#include "idlesim/import.h"
#include "idlesim/metrics.h"
#include "idlesim/trace.h"
#include "../heap.h"

/* one pass that entered a state */
struct xp_period {
	int64_t t_ns, dur_ns;
	int16_t state;
	int8_t miss;              /* enum is_miss */
};

struct is_export {
	struct is_state_table table;
	uint32_t disabled;
	int cpus, hz;
	char *governor, *source;
	GArray **per_cpu;         /* struct xp_period, in time order */
	int64_t *last_exit;
	struct is_export_stats st;
};

struct is_export *is_export_new(const struct is_export_config *cfg, GError **error)
{
	struct is_export *x;

	if (cfg->cpus < 1 || cfg->cpus > IS_TRACE_MAX_CPUS || !cfg->states ||
	    cfg->states->count < 1 || cfg->hz < 1) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "export: a CPU count 1..%d, a state table and HZ are needed",
			    IS_TRACE_MAX_CPUS);
		return NULL;
	}
	x = g_new0(struct is_export, 1);
	x->table = *cfg->states;
	x->disabled = cfg->disabled;
	x->cpus = cfg->cpus;
	x->hz = cfg->hz;
	x->governor = g_strdup(cfg->governor ? cfg->governor : "unknown");
	x->source = g_strdup(cfg->source ? cfg->source : "");
	g_strdelimit(x->source, "\n\r", ' ');
	x->per_cpu = g_new0(GArray *, cfg->cpus);
	x->last_exit = g_new0(int64_t, cfg->cpus);
	for (int c = 0; c < cfg->cpus; c++) {
		x->per_cpu[c] = g_array_new(FALSE, FALSE, sizeof(struct xp_period));
		x->last_exit[c] = INT64_MIN;
	}
	x->st.first_ns = INT64_MAX;
	x->st.last_ns = INT64_MIN;
	return x;
}

void is_export_free(struct is_export *x)
{
	if (!x)
		return;
	for (int c = 0; c < x->cpus; c++)
		g_array_free(x->per_cpu[c], TRUE);
	g_free(x->per_cpu);
	g_free(x->last_exit);
	g_free(x->governor);
	g_free(x->source);
	g_free(x);
}

const struct is_export_stats *is_export_get_stats(const struct is_export *x)
{
	return &x->st;
}

void is_export_observe(void *ctx, const struct is_decision *d)
{
	struct is_export *x = ctx;
	struct xp_period p;
	int64_t t = d->t_ns;

	if (d->cpu < 0 || d->cpu >= x->cpus)
		return;
	if (d->entered < 0) {
		x->st.refused++;
		return;
	}
	if (t < x->last_exit[d->cpu]) {
		x->st.shifted++;
		x->st.shift_max_ns = MAX(x->st.shift_max_ns, x->last_exit[d->cpu] - t);
		t = x->last_exit[d->cpu];
	}
	/* the kernel's residency, as cpuidle_enter_state() measures it */
	p = (struct xp_period){
		.t_ns = t,
		.dur_ns = d->last_residency_ns,
		.state = (int16_t)d->entered,
		.miss = (int8_t)is_miss_kind(&x->table, x->disabled, d->entered,
					     d->last_residency_ns),
	};
	g_array_append_val(x->per_cpu[d->cpu], p);
	x->last_exit[d->cpu] = t + p.dur_ns;
	x->st.periods++;
	x->st.above += p.miss == IS_MISS_ABOVE;
	x->st.below += p.miss == IS_MISS_BELOW;
	x->st.first_ns = MIN(x->st.first_ns, t);
	x->st.last_ns = MAX(x->st.last_ns, t + p.dur_ns);
}

/* ------------------------------------------------------------------ */
/* The events: what the kernel's power.h records (6.12's formats). */

enum { EV_CPU_IDLE = 1, EV_CPU_IDLE_MISS = 2 };
#define PWR_EVENT_EXIT 4294967295u

/* the fields every event starts with (struct trace_entry) */
#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n"

static const char fmt_cpu_idle[] =
	"name: cpu_idle\n"
	"ID: 1\n"
	"format:\n"
	COMMON_FIELDS
	"\tfield:u32 state;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 cpu_id;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"state=%lu cpu_id=%lu\", (unsigned long)REC->state, "
	"(unsigned long)REC->cpu_id\n";

static const char fmt_cpu_idle_miss[] =
	"name: cpu_idle_miss\n"
	"ID: 2\n"
	"format:\n"
	COMMON_FIELDS
	"\tfield:u32 cpu_id;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 state;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:bool below;\toffset:16;\tsize:1;\tsigned:0;\n"
	"\n"
	"print fmt: \"cpu_id=%lu state=%lu type=%s\", (unsigned long)REC->cpu_id, "
	"(unsigned long)REC->state, (REC->below)?\"below\":\"above\"\n";

/* the ring buffer's page and event headers of a 64-bit kernel (events/header_*) */
static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

#define PAGE_SIZE 4096
#define PAGE_HDR 16               /* timestamp, commit */
#define TS_BITS 27                /* an event header's time_delta */
#define TYPE_TIME_EXTEND 30

/* Little-endian, whatever the host: the file says so (byte 0 after the version). */
static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A CPU's ring buffer, page by page: counted first (f NULL), then written. */
struct pager {
	FILE *f;
	uint8_t page[PAGE_SIZE];
	size_t used;              /* data bytes after the page header */
	int64_t last_ts;
	bool open;
	uint64_t pages;
	bool ok;
};

static void page_flush(struct pager *p)
{
	if (!p->open)
		return;
	put_le(p->page + 8, p->used, 8);
	memset(p->page + PAGE_HDR + p->used, 0, PAGE_SIZE - PAGE_HDR - p->used);
	if (p->f && fwrite(p->page, PAGE_SIZE, 1, p->f) != 1)
		p->ok = false;
	p->pages++;
	p->open = false;
}

static void page_start(struct pager *p, int64_t ts)
{
	put_le(p->page, (uint64_t)ts, 8);
	p->used = 0;
	p->last_ts = ts;
	p->open = true;
}

/* One event of @len payload bytes (a multiple of 4, at most 112) at @ts. */
static void page_event(struct pager *p, int64_t ts, const uint8_t *payload, size_t len)
{
	uint64_t delta;
	size_t need;
	uint8_t *w;

	if (!p->open)
		page_start(p, ts);
	delta = (uint64_t)(ts - p->last_ts);
	need = 4 + len + (delta >> TS_BITS ? 8 : 0);
	if (p->used + need > PAGE_SIZE - PAGE_HDR) {
		page_flush(p);
		page_start(p, ts);
		delta = 0;
		need = 4 + len;
	}
	w = p->page + PAGE_HDR + p->used;
	if (delta >> TS_BITS) {
		/* a time extend: the delta's upper bits in the next word */
		put_le(w, TYPE_TIME_EXTEND | (delta & ((1u << TS_BITS) - 1)) << 5, 4);
		put_le(w + 4, delta >> TS_BITS, 4);
		w += 8;
		delta = 0;
	}
	put_le(w, (uint32_t)(len / 4) | (uint32_t)delta << 5, 4);
	memcpy(w + 4, payload, len);
	p->used += need;
	p->last_ts = ts;
}

/* The common fields: a task in the idle loop (pid 0), interrupts off. */
static void put_common(uint8_t *e, int type)
{
	put_le(e, (uint64_t)type, 2);
	e[2] = 0x01;              /* TRACE_FLAG_IRQS_OFF */
	e[3] = 0;
	put_le(e + 4, 0, 4);
}

static void cpu_pages(struct pager *p, const struct is_export *x, int cpu)
{
	const GArray *a = x->per_cpu[cpu];

	for (guint i = 0; i < a->len; i++) {
		const struct xp_period *q = &g_array_index(a, struct xp_period, i);
		uint8_t e[20];

		put_common(e, EV_CPU_IDLE);
		put_le(e + 8, (uint64_t)q->state, 4);
		put_le(e + 12, (uint64_t)cpu, 4);
		page_event(p, q->t_ns, e, 16);
		put_le(e + 8, PWR_EVENT_EXIT, 4);
		page_event(p, q->t_ns + q->dur_ns, e, 16);
		if (q->miss != IS_MISS_NONE) {
			put_common(e, EV_CPU_IDLE_MISS);
			put_le(e + 8, (uint64_t)cpu, 4);
			put_le(e + 12, (uint64_t)q->state, 4);
			e[16] = q->miss == IS_MISS_BELOW;
			e[17] = e[18] = e[19] = 0;
			page_event(p, q->t_ns + q->dur_ns, e, 20);
		}
	}
	page_flush(p);
}

static void put_u(FILE *f, uint64_t v, int n)
{
	uint8_t b[8];

	put_le(b, v, n);
	fwrite(b, (size_t)n, 1, f);
}

static void put_section(FILE *f, const char *name, const char *text, int size_bytes)
{
	if (name)
		fwrite(name, strlen(name) + 1, 1, f);
	put_u(f, strlen(text), size_bytes);
	fputs(text, f);
}

static bool write_dat(const struct is_export *x, FILE *f)
{
	static const uint8_t magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	g_autofree uint64_t *pages = g_new0(uint64_t, x->cpus);
	struct pager *p = g_new0(struct pager, 1);
	uint64_t off;
	bool ok;

	for (int c = 0; c < x->cpus; c++) {
		memset(p, 0, sizeof(*p));
		cpu_pages(p, x, c);
		pages[c] = p->pages;
	}
	fwrite(magic, sizeof(magic), 1, f);
	fwrite("6", 2, 1, f);
	fputc(0, f);                      /* little endian */
	fputc(8, f);                      /* bytes in a long */
	put_u(f, PAGE_SIZE, 4);
	put_section(f, "header_page", header_page, 8);
	put_section(f, "header_event", header_event, 8);
	put_u(f, 0, 4);                   /* no ftrace (function tracer) formats */
	put_u(f, 1, 4);                   /* one event system */
	fwrite("power", 6, 1, f);
	put_u(f, 2, 4);
	put_section(f, NULL, fmt_cpu_idle, 8);
	put_section(f, NULL, fmt_cpu_idle_miss, 8);
	put_u(f, 0, 4);                   /* kallsyms */
	put_u(f, 0, 4);                   /* trace_printk formats */
	put_u(f, 0, 8);                   /* saved command lines */
	put_u(f, (uint64_t)x->cpus, 4);
	fwrite("options  ", 10, 1, f);
	put_u(f, 0, 2);                   /* none */
	fwrite("flyrecord", 10, 1, f);
	off = (uint64_t)ftell(f) + 16u * (uint64_t)x->cpus;
	off = (off + PAGE_SIZE - 1) / PAGE_SIZE * PAGE_SIZE;
	for (int c = 0; c < x->cpus; c++) {
		put_u(f, off, 8);
		put_u(f, pages[c] * PAGE_SIZE, 8);
		off += pages[c] * PAGE_SIZE;
	}
	for (long pad = (long)((PAGE_SIZE - (uint64_t)ftell(f) % PAGE_SIZE) % PAGE_SIZE); pad > 0;
	     pad--)
		fputc(0, f);
	ok = true;
	for (int c = 0; c < x->cpus && ok; c++) {
		memset(p, 0, sizeof(*p));
		p->f = f;
		p->ok = true;
		cpu_pages(p, x, c);
		ok = p->ok;
	}
	g_free(p);
	return ok && !ferror(f);
}

/* ------------------------------------------------------------------ */
/* The text: every CPU's events merged in time order. */

struct xp_cursor {
	int64_t ts;
	int cpu;
	guint i;                  /* period index */
	int step;                 /* 0 entry, 1 exit, 2 miss */
};

static inline bool cur_less(const struct xp_cursor *a, const struct xp_cursor *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->cpu < b->cpu);
}

DEFINE_HEAP(xcur, struct xp_cursor, cur_less)

static void cur_ts(const struct is_export *x, struct xp_cursor *k)
{
	const struct xp_period *q = &g_array_index(x->per_cpu[k->cpu], struct xp_period, k->i);

	k->ts = k->step == 0 ? q->t_ns : q->t_ns + q->dur_ns;
}

/* the cursor's next event on its CPU: false at the CPU's end */
static bool cur_next(const struct is_export *x, struct xp_cursor *k)
{
	const GArray *a = x->per_cpu[k->cpu];
	const struct xp_period *q = &g_array_index(a, struct xp_period, k->i);

	if (k->step == 0 || (k->step == 1 && q->miss != IS_MISS_NONE)) {
		k->step++;
	} else {
		if (++k->i >= a->len)
			return false;
		k->step = 0;
	}
	cur_ts(x, k);
	return true;
}

static bool write_text(const struct is_export *x, FILE *f)
{
	uint64_t n = 2 * x->st.periods + x->st.above + x->st.below;
	struct xp_cursor *h = NULL, k;
	size_t hn = 0, hcap = 0;

	fprintf(f, "# tracer: nop\n#\n# entries-in-buffer/entries-written: %" G_GUINT64_FORMAT
		"/%" G_GUINT64_FORMAT "   #P:%d\n#\n", n, n, x->cpus);
	fputs("#                                _-----=> irqs-off/BH-disabled\n"
	      "#                               / _----=> need-resched\n"
	      "#                              | / _---=> hardirq/softirq\n"
	      "#                              || / _--=> preempt-depth\n"
	      "#                              ||| / _-=> migrate-disable\n"
	      "#                              |||| /     delay\n"
	      "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	      "#              | |         |   |||||     |         |\n", f);
	for (int c = 0; c < x->cpus; c++)
		if (x->per_cpu[c]->len) {
			k = (struct xp_cursor){ .cpu = c };
			cur_ts(x, &k);
			xcur_push(&h, &hn, &hcap, &k);
		}
	while (hn) {
		const struct xp_period *q;

		k = xcur_pop(h, &hn);
		q = &g_array_index(x->per_cpu[k.cpu], struct xp_period, k.i);
		fprintf(f, "          <idle>-0       [%03d] d.... %5" G_GINT64_FORMAT ".%09"
			G_GINT64_FORMAT ": ", k.cpu, k.ts / 1000000000, k.ts % 1000000000);
		if (k.step == 0)
			fprintf(f, "cpu_idle: state=%d cpu_id=%d\n", q->state, k.cpu);
		else if (k.step == 1)
			fprintf(f, "cpu_idle: state=%u cpu_id=%d\n", PWR_EVENT_EXIT, k.cpu);
		else
			fprintf(f, "cpu_idle_miss: cpu_id=%d state=%d type=%s\n", k.cpu, q->state,
				q->miss == IS_MISS_BELOW ? "below" : "above");
		if (cur_next(x, &k))
			xcur_push(&h, &hn, &hcap, &k);
	}
	g_free(h);
	return !ferror(f);
}

/* ------------------------------------------------------------------ */
/* The bundle. */

static bool write_meta(const struct is_export *x, FILE *f)
{
	fprintf(f, IS_BUNDLE_MAGIC "\n");
	fprintf(f, "release=%s %s %s\n", IS_EXPORT_RELEASE, IDLESIM_VERSION, x->governor);
	fprintf(f, "governor=%s\n", x->governor);
	fprintf(f, "cpus=%d\nhz=%d\n", x->cpus, x->hz);
	fprintf(f, "hz_source=the simulated input's: %s\n", x->source);
	fprintf(f, "events=power:cpu_idle,power:cpu_idle_miss\n");
	fprintf(f, "tick_stop_traced=0\n");
	fprintf(f, "lost_events=0\n");
	fprintf(f, "trace_dat=written\n");
	fprintf(f, "trace_clock=the simulated input's\n");
	return !ferror(f);
}

static bool write_states(const struct is_export *x, FILE *f)
{
	g_autoptr(GString) s = g_string_new(NULL);

	is_states_keyfile(s, &x->table);
	fputs(s->str, f);
	return !ferror(f);
}

static const char *const bundle_files[] = { "trace.dat", "trace.txt", "states", "meta" };

/*
 * Whether @dir is a bundle that is_export_write() wrote and holds nothing
 * else: safe to replace.
 */
static bool is_export_bundle(const char *dir)
{
	g_autofree char *meta = g_build_filename(dir, "meta", NULL);
	g_autofree char *text = NULL;
	GDir *d;
	const char *name;
	bool only = true;

	if (!g_file_get_contents(meta, &text, NULL, NULL) ||
	    !g_str_has_prefix(text, IS_BUNDLE_MAGIC "\nrelease=" IS_EXPORT_RELEASE " "))
		return false;
	d = g_dir_open(dir, 0, NULL);
	if (!d)
		return false;
	while (only && (name = g_dir_read_name(d))) {
		only = false;
		for (size_t i = 0; i < G_N_ELEMENTS(bundle_files); i++)
			only |= !strcmp(name, bundle_files[i]);
	}
	g_dir_close(d);
	return only;
}

static void remove_bundle(const char *dir, char *const *paths)
{
	for (size_t i = 0; i < G_N_ELEMENTS(bundle_files); i++)
		if (paths[i])
			unlink(paths[i]);
	rmdir(dir);
}

static bool io_fail(GError **error, const char *path)
{
	g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", path,
		    errno ? g_strerror(errno) : "write error");
	return false;
}

bool is_export_write(struct is_export *x, const char *dir, GError **error)
{
	bool (*const writers[])(const struct is_export *, FILE *) = {
		write_dat, write_text, write_states, write_meta
	};
	g_autofree char *parent = g_path_get_dirname(dir);
	g_autofree char *base = g_path_get_basename(dir);
	g_autofree char *tmpl = g_strdup_printf("%s.tmp.XXXXXX", base);
	g_autofree char *tmp = NULL, *old = NULL;
	char *paths[G_N_ELEMENTS(bundle_files)] = { NULL };
	bool ok = false;

	if (g_file_test(dir, G_FILE_TEST_EXISTS) && !is_export_bundle(dir)) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO,
			    "%s: exists and is not (only) a simulation that idlesim wrote: not replaced",
			    dir);
		return false;
	}
	if (g_mkdir_with_parents(parent, 0777) != 0)
		return io_fail(error, parent);
	tmp = g_build_filename(parent, tmpl, NULL);
	if (!g_mkdtemp_full(tmp, 0777))
		return io_fail(error, dir);
	is_outfile_track(tmp);
	for (size_t i = 0; i < G_N_ELEMENTS(bundle_files); i++) {
		FILE *f;

		paths[i] = g_build_filename(tmp, bundle_files[i], NULL);
		is_outfile_track(paths[i]);
		errno = 0;
		f = fopen(paths[i], "w");
		if (!f) {
			io_fail(error, paths[i]);
			goto out;
		}
		ok = writers[i](x, f);
		if (fclose(f) != 0)
			ok = false;
		if (!ok) {
			io_fail(error, paths[i]);
			goto out;
		}
		if (i < 2) {
			struct stat st;

			*(i ? &x->st.text_bytes : &x->st.dat_bytes) =
				stat(paths[i], &st) == 0 ? (uint64_t)st.st_size : 0;
		}
	}
	ok = false;
	/*
	 * The previous simulation and the new one swapped in one step
	 * (renameat2(RENAME_EXCHANGE), Linux 3.15, most local file systems):
	 * at no instant is there no bundle at @dir.  @tmp then holds the
	 * previous one under the tracked names, so that a signal from here on
	 * removes it and leaves the new one in place.
	 */
	if (g_file_test(dir, G_FILE_TEST_EXISTS)) {
		if (renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE) == 0) {
			ok = true;
			remove_bundle(tmp, paths);
			goto out;
		}
		if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) {
			io_fail(error, dir);
			goto out;
		}
		/*
		 * No exchange on this file system: the previous simulation
		 * moved aside, removed once replaced (a signal between the two
		 * renames loses it).
		 */
		old = g_strdup_printf("%s.old.XXXXXX", tmp);
		if (!g_mkdtemp(old) || rmdir(old) != 0 || rename(dir, old) != 0) {
			g_clear_pointer(&old, g_free);
			io_fail(error, dir);
			goto out;
		}
	}
	if (rename(tmp, dir) != 0) {
		io_fail(error, dir);
		if (old && rename(old, dir) == 0)
			g_clear_pointer(&old, g_free);
		goto out;
	}
	ok = true;
out:
	if (!ok)
		remove_bundle(tmp, paths);
	for (size_t i = 0; i < G_N_ELEMENTS(bundle_files); i++) {
		is_outfile_untrack(paths[i]);
		g_free(paths[i]);
	}
	is_outfile_untrack(tmp);
	if (old) {
		char *op[G_N_ELEMENTS(bundle_files)];

		for (size_t i = 0; i < G_N_ELEMENTS(bundle_files); i++)
			op[i] = g_build_filename(old, bundle_files[i], NULL);
		remove_bundle(old, op);
		for (size_t i = 0; i < G_N_ELEMENTS(bundle_files); i++)
			g_free(op[i]);
	}
	return ok;
}
