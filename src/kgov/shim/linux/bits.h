/* SPDX-License-Identifier: GPL-2.0-only */
/* What the kernel's linux/bits.h provides is in the shim's linux/kernel.h. */
#ifndef KGOV_SHIM_LINUX_BITS_H
#define KGOV_SHIM_LINUX_BITS_H
#include <linux/kernel.h>
#endif
