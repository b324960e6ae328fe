// SPDX-License-Identifier: GPL-2.0-only
/*
 * The runtime every kernel governor plugin is linked with (`idlesim kgov
 * build` compiles it beside the governor file): it answers the kernel
 * interfaces the shim declares from the simulation's call in progress and
 * exports is_kgov_plugin (kgov-abi.h).
 *
 * Per simulated CPU, idlesim keeps a struct kgov_cpu (the cpuidle driver
 * and device the governor sees); dev->last_residency_ns and
 * dev->poll_time_limit are written as the cpuidle core writes them before
 * reflect() and the next select() (drivers/cpuidle/cpuidle.c,
 * cpuidle_enter_state()).  Everything else here is one per plugin copy,
 * and idlesim loads one copy per simulation, run on one thread.
 */
#include <stdarg.h>

#include <linux/cpuidle.h>
#include <linux/debugfs.h>
#include <linux/random.h>
#include <linux/sched/clock.h>
#include <linux/sched/stat.h>
#include <linux/seq_file.h>
#include <linux/tick.h>

/* the C library's (no stdio.h: the build is -nostdinc) */
int snprintf(char *buf, size_t len, const char *fmt, ...);
int vsnprintf(char *buf, size_t len, const char *fmt, va_list ap);

#define KGOV_EXPORT __attribute__((visibility("default")))
#define KGOV_MAX_GOVERNORS 8
#define KGOV_MAX_FILES 8

long kgov_tick_nsec;
unsigned int kgov_this_cpu;
bool tick_nohz_enabled = true;
int kgov_dump_cpu;

static const struct is_kgov_host *host;
static const struct is_kgov_call *cur_call;
static const struct is_kgov_wake *cur_wake;
static uint64_t nwarn;

static struct cpuidle_governor *govs[KGOV_MAX_GOVERNORS];
static const char *gov_names[KGOV_MAX_GOVERNORS];
static int ngovs;
static bool overflow;

static struct kgov_file {
	char name[64];
	const struct file_operations *fops;
} files[KGOV_MAX_FILES];
static int nfiles;

struct kgov_cpu {
	struct cpuidle_driver drv;
	struct cpuidle_device dev;
	uint32_t disabled;
};

void kgov_warn(const char *file, int line)
{
	(void)file;
	(void)line;
	nwarn++;
}

int cpuidle_register_governor(struct cpuidle_governor *gov)
{
	if (ngovs == KGOV_MAX_GOVERNORS) {
		overflow = true;
		return -1;
	}
	govs[ngovs] = gov;
	gov_names[ngovs++] = gov->name;
	return 0;
}

/* A directory is a name prefix: its address is that of a static string. */
struct dentry *debugfs_create_dir(const char *name, struct dentry *parent)
{
	(void)parent;
	return (struct dentry *)name;
}

struct dentry *debugfs_create_file(const char *name, unsigned int mode, struct dentry *parent,
				   void *data, const struct file_operations *fops)
{
	(void)mode;
	(void)data;
	if (nfiles == KGOV_MAX_FILES) {
		overflow = true;
		return NULL;
	}
	snprintf(files[nfiles].name, sizeof(files[0].name), "%s%s%s",
		 parent ? (const char *)parent : "", parent ? "/" : "", name);
	files[nfiles++].fops = fops;
	return (struct dentry *)files[nfiles - 1].name;
}

s64 cpuidle_governor_latency_req(unsigned int cpu)
{
	(void)cpu;
	return cur_call->latency_req_ns;
}

bool tick_nohz_tick_stopped(void)
{
	return cur_call->tick_stopped;
}

ktime_t tick_nohz_get_sleep_length(ktime_t *delta_next)
{
	return host->sleep_length(cur_call->call, delta_next);
}

bool tick_nohz_idle_got_tick(void)
{
	return cur_wake->got_tick;
}

u32 get_random_u32(void)
{
	return host->random_u32(cur_call->call);
}

unsigned int nr_iowait_cpu(int cpu)
{
	(void)cpu;
	return cur_call->nr_iowait;
}

u64 local_clock(void)
{
	return (u64)(cur_wake ? cur_wake->now_ns : cur_call->now_ns);
}

struct seq_file {
	char *buf;
	size_t len, used;
};

static void seq_vprintf(struct seq_file *m, const char *fmt, va_list ap)
{
	size_t room = m->used < m->len ? m->len - m->used : 0;
	int n = vsnprintf(room ? m->buf + m->used : NULL, room, fmt, ap);

	if (n > 0)
		m->used += (size_t)n;
}

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	seq_vprintf(m, fmt, ap);
	va_end(ap);
}

void seq_puts(struct seq_file *m, const char *s)
{
	seq_printf(m, "%s", s);
}

static void sync_disabled(struct kgov_cpu *k, uint32_t disabled)
{
	for (int i = 0; i < CPUIDLE_STATE_MAX; i++)
		k->dev.states_usage[i].disable = (disabled >> i) & 1;
	k->disabled = disabled;
}

/* The initcalls of one level: the section kgov_init_<level>. */
#define KGOV_LEVEL(l)									\
	extern const kgov_initcall_t __start_kgov_init_##l[] __attribute__((weak));	\
	extern const kgov_initcall_t __stop_kgov_init_##l[] __attribute__((weak));
KGOV_LEVEL(1)
KGOV_LEVEL(2)
KGOV_LEVEL(3)
KGOV_LEVEL(4)
KGOV_LEVEL(5)
KGOV_LEVEL(6)
KGOV_LEVEL(7)

static int run_level(const kgov_initcall_t *a, const kgov_initcall_t *b, int level, char *err,
		     size_t errlen)
{
	for (; a && a < b; a++) {
		int ret = (*a)();

		if (ret) {
			snprintf(err, errlen, "an initcall of level %d returned %d", level, ret);
			return -1;
		}
	}
	return 0;
}

static int kgov_start(const struct is_kgov_host *h, char *err, size_t errlen)
{
	host = h;
	if (run_level(__start_kgov_init_1, __stop_kgov_init_1, 1, err, errlen) ||
	    run_level(__start_kgov_init_2, __stop_kgov_init_2, 2, err, errlen) ||
	    run_level(__start_kgov_init_3, __stop_kgov_init_3, 3, err, errlen) ||
	    run_level(__start_kgov_init_4, __stop_kgov_init_4, 4, err, errlen) ||
	    run_level(__start_kgov_init_5, __stop_kgov_init_5, 5, err, errlen) ||
	    run_level(__start_kgov_init_6, __stop_kgov_init_6, 6, err, errlen) ||
	    run_level(__start_kgov_init_7, __stop_kgov_init_7, 7, err, errlen))
		return -1;
	if (overflow) {
		snprintf(err, errlen, "more than %d governors or %d debugfs files",
			 KGOV_MAX_GOVERNORS, KGOV_MAX_FILES);
		return -1;
	}
	return 0;
}

static int kgov_governors(const char *const **names)
{
	*names = gov_names;
	return ngovs;
}

static int kgov_enable(int gov, void *cs, int cpu, const struct is_kgov_state *st, int count,
		       uint32_t disabled, int64_t tick_nsec)
{
	struct kgov_cpu *k = cs;

	if (gov < 0 || gov >= ngovs || cpu < 0 || cpu >= KGOV_NR_CPUS ||
	    count > CPUIDLE_STATE_MAX)
		return -1;
	memset(k, 0, sizeof(*k));
	k->drv.name = "idlesim";
	k->drv.state_count = count;
	for (int i = 0; i < count; i++) {
		struct cpuidle_state *s = &k->drv.states[i];

		memcpy(s->name, st[i].name, sizeof(s->name) - 1);
		s->exit_latency_ns = st[i].exit_latency_ns;
		s->target_residency_ns = st[i].target_residency_ns;
		/* drivers/cpuidle/driver.c: the us fields from the ns ones */
		s->exit_latency = (unsigned int)(st[i].exit_latency_ns / NSEC_PER_USEC);
		s->target_residency = (unsigned int)(st[i].target_residency_ns / NSEC_PER_USEC);
		s->flags = st[i].polling ? CPUIDLE_FLAG_POLLING : 0;
	}
	k->dev.cpu = (unsigned int)cpu;
	sync_disabled(k, disabled);
	kgov_tick_nsec = (long)tick_nsec;
	kgov_this_cpu = (unsigned int)cpu;
	cur_call = NULL;
	cur_wake = NULL;
	return govs[gov]->enable ? govs[gov]->enable(&k->drv, &k->dev) : 0;
}

static int kgov_select(int gov, void *cs, const struct is_kgov_call *c, bool *stop_tick)
{
	struct kgov_cpu *k = cs;

	if (k->disabled != c->disabled)
		sync_disabled(k, c->disabled);
	/* cpuidle_enter_state() wrote it after the last period */
	k->dev.last_residency_ns = (u64)c->last_residency_ns;
	kgov_tick_nsec = (long)c->tick_nsec;
	kgov_this_cpu = k->dev.cpu;
	cur_call = c;
	cur_wake = NULL;
	return govs[gov]->select(&k->drv, &k->dev, stop_tick);
}

static void kgov_reflect(int gov, void *cs, const struct is_kgov_wake *w)
{
	struct kgov_cpu *k = cs;

	k->dev.last_residency_ns = (u64)w->last_residency_ns;
	/* set by the polling state's enter when it hit its time limit */
	k->dev.poll_time_limit = w->poll_time_limit;
	kgov_tick_nsec = (long)w->tick_nsec;
	kgov_this_cpu = k->dev.cpu;
	cur_wake = w;
	if (govs[gov]->reflect)
		govs[gov]->reflect(&k->dev, w->entered);
}

static size_t kgov_dump(void *cs, char *buf, size_t len)
{
	struct kgov_cpu *k = cs;
	struct seq_file m = { buf, len, 0 };

	if (len)
		buf[0] = 0;
	kgov_dump_cpu = (int)k->dev.cpu;
	for (int i = 0; i < nfiles; i++) {
		if (nfiles > 1)
			seq_printf(&m, "== %s ==\n", files[i].name);
		if (files[i].fops && files[i].fops->show)
			files[i].fops->show(&m, NULL);
	}
	return m.used;
}

static uint64_t kgov_warnings(void)
{
	return nwarn;
}

extern const struct is_kgov_param __start_kgov_param[] __attribute__((weak));
extern const struct is_kgov_param __stop_kgov_param[] __attribute__((weak));
extern const struct is_kgov_param_desc __start_kgov_pdesc[] __attribute__((weak));
extern const struct is_kgov_param_desc __stop_kgov_pdesc[] __attribute__((weak));

KGOV_EXPORT const struct is_kgov_plugin is_kgov_plugin = {
	.abi = IS_KGOV_ABI,
	.nr_cpus = KGOV_NR_CPUS,
	.cpu_size = sizeof(struct kgov_cpu),
	.params = __start_kgov_param,
	.params_end = __stop_kgov_param,
	.descs = __start_kgov_pdesc,
	.descs_end = __stop_kgov_pdesc,
	.start = kgov_start,
	.governors = kgov_governors,
	.enable = kgov_enable,
	.select = kgov_select,
	.reflect = kgov_reflect,
	.dump = kgov_dump,
	.warnings = kgov_warnings,
};
