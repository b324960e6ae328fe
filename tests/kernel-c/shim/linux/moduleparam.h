/* SPDX-License-Identifier: GPL-2.0-only */
/* Module parameters are plain variables here; the wrapper sets them. */
#ifndef KC_SHIM_MODULEPARAM_H
#define KC_SHIM_MODULEPARAM_H

#include <linux/kernel.h>

#define module_param(name, type, perm)
#define MODULE_PARM_DESC(name, desc)

#endif
