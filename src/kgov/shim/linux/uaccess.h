/* SPDX-License-Identifier: GPL-2.0-only */
/* Included by a governor, nothing of it used. */
#ifndef KGOV_SHIM_LINUX_UACCESS_H
#define KGOV_SHIM_LINUX_UACCESS_H
#include <linux/kernel.h>
#endif
