// SPDX-License-Identifier: GPL-2.0-only
/* The shim's answers and the wrapper's per-CPU state; see kc.h. */
#include "kc.h"

#include <stdarg.h>

#include <linux/cpuidle.h>
#include <linux/random.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/tick.h>

long kc_tick_nsec;
unsigned int kc_this_cpu;
bool tick_nohz_enabled = true;
int kc_dump_cpu;

/* The call or wakeup in progress. */
static struct is_gov_call *cur_call;
static const struct is_gov_wake *cur_wake;

struct kc_cpu {
	struct cpuidle_driver drv;
	struct cpuidle_device dev;
	uint32_t disabled;
};

_Static_assert(sizeof(struct kc_cpu) <= KC_CPU_SIZE, "KC_CPU_SIZE too small");

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
	return is_gov_sleep_length(cur_call, delta_next);
}

bool tick_nohz_idle_got_tick(void)
{
	return cur_wake->got_tick;
}

u32 get_random_u32(void)
{
	return is_gov_random_u32(cur_call);
}

struct seq_file {
	GString *out;
};

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_string_append_vprintf(m->out, fmt, ap);
	va_end(ap);
}

void seq_puts(struct seq_file *m, const char *s)
{
	g_string_append(m->out, s);
}

void kc_dump(const struct is_gov_env *env, GString *out, int (*show)(struct seq_file *, void *))
{
	struct seq_file m = { out };

	kc_dump_cpu = env->cpu;
	show(&m, NULL);
}

u64 local_clock(void)
{
	return (u64)(cur_wake ? cur_wake->now_ns : cur_call->now_ns);
}

static void sync_disabled(struct kc_cpu *k, uint32_t disabled)
{
	for (int i = 0; i < CPUIDLE_STATE_MAX; i++)
		k->dev.states_usage[i].disable = (disabled >> i) & 1;
	k->disabled = disabled;
}

bool kc_enable(struct kc_cpu *k, const struct is_gov_env *env, struct cpuidle_driver **drv,
	       struct cpuidle_device **dev)
{
	const struct is_state_table *t = env->drv;

	if (env->cpu < 0 || env->cpu >= KC_NR_CPUS || t->count > CPUIDLE_STATE_MAX)
		return false;
	memset(k, 0, sizeof(*k));
	k->drv.name = t->name;
	k->drv.state_count = t->count;
	for (int i = 0; i < t->count; i++) {
		struct cpuidle_state *s = &k->drv.states[i];

		memcpy(s->name, t->s[i].name, sizeof(s->name) - 1);
		s->exit_latency_ns = t->s[i].exit_latency_ns;
		s->target_residency_ns = t->s[i].target_residency_ns;
		s->exit_latency = (unsigned int)(t->s[i].exit_latency_ns / NSEC_PER_USEC);
		s->target_residency = (unsigned int)(t->s[i].target_residency_ns / NSEC_PER_USEC);
		s->flags = (t->s[i].flags & IS_STATE_POLLING) ? CPUIDLE_FLAG_POLLING : 0;
	}
	k->dev.cpu = (unsigned int)env->cpu;
	sync_disabled(k, env->disabled);
	kc_tick_nsec = (long)env->tick_nsec;
	kc_this_cpu = (unsigned int)env->cpu;
	*drv = &k->drv;
	*dev = &k->dev;
	return true;
}

void kc_begin_select(struct kc_cpu *k, const struct is_gov_env *env, struct is_gov_call *call,
		     struct cpuidle_driver **drv, struct cpuidle_device **dev)
{
	if (k->disabled != env->disabled)
		sync_disabled(k, env->disabled);
	/* cpuidle_enter_state() wrote it after the last period */
	k->dev.last_residency_ns = (u64)env->last_residency_ns;
	kc_tick_nsec = (long)env->tick_nsec;
	kc_this_cpu = k->dev.cpu;
	cur_call = call;
	cur_wake = NULL;
	*drv = &k->drv;
	*dev = &k->dev;
}

void kc_begin_reflect(struct kc_cpu *k, const struct is_gov_env *env,
		      const struct is_gov_wake *wake, struct cpuidle_device **dev)
{
	k->dev.last_residency_ns = (u64)wake->last_residency_ns;
	/* set by the polling state's enter when it hit its time limit */
	k->dev.poll_time_limit = wake->poll_time_limit;
	kc_tick_nsec = (long)env->tick_nsec;
	kc_this_cpu = k->dev.cpu;
	cur_wake = wake;
	*dev = &k->dev;
}
