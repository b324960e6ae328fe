/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * debugfs: the files a governor creates are recorded (runtime.c); idlesim's
 * --dump-state shows them for each CPU, as reading them would.
 */
#ifndef KGOV_SHIM_DEBUGFS_H
#define KGOV_SHIM_DEBUGFS_H

#include <linux/seq_file.h>

struct dentry;

struct dentry *debugfs_create_dir(const char *name, struct dentry *parent);
struct dentry *debugfs_create_file(const char *name, unsigned int mode, struct dentry *parent,
				   void *data, const struct file_operations *fops);

#endif
