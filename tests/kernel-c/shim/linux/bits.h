/* SPDX-License-Identifier: GPL-2.0-only */
/* What the kernel's linux/bits.h provides is in the shim's linux/kernel.h. */
#ifndef KC_SHIM_LINUX_BITS_H
#define KC_SHIM_LINUX_BITS_H
#include <linux/kernel.h>
#endif
