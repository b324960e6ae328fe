/* SPDX-License-Identifier: GPL-2.0-only */
/* debugfs files are not created; the wrapper calls the show function. */
#ifndef KC_SHIM_DEBUGFS_H
#define KC_SHIM_DEBUGFS_H

#include <linux/seq_file.h>

struct dentry;

static inline struct dentry *debugfs_create_dir(const char *name, struct dentry *parent)
{
	(void)name;
	(void)parent;
	return NULL;
}

static inline struct dentry *debugfs_create_file(const char *name, unsigned int mode,
						 struct dentry *parent, void *data,
						 const struct file_operations *fops)
{
	(void)name;
	(void)mode;
	(void)parent;
	(void)data;
	(void)fops;
	return NULL;
}

#define late_initcall(fn) postcore_initcall(fn)

#endif
