/* SPDX-License-Identifier: GPL-2.0-only */
/* A seq_file that appends to the dump's buffer (runtime.c). */
#ifndef KGOV_SHIM_SEQ_FILE_H
#define KGOV_SHIM_SEQ_FILE_H

#include <linux/kernel.h>

struct seq_file;
void seq_printf(struct seq_file *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void seq_puts(struct seq_file *m, const char *s);

struct file_operations {
	int (*show)(struct seq_file *m, void *unused);
};

#define DEFINE_SHOW_ATTRIBUTE(name) \
	static const struct file_operations name##_fops = { .show = name##_show }

/* A show function walks one CPU: the one being dumped. */
extern int kgov_dump_cpu;
#define for_each_possible_cpu(cpu) for ((cpu) = kgov_dump_cpu; (cpu) == kgov_dump_cpu; (cpu)++)

#endif
