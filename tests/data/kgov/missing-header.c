// SPDX-License-Identifier: GPL-2.0-only
/* Includes a header the shim does not provide (test-kgov.sh). */
#include <linux/cpuidle.h>
#include <linux/percpu-defs.h>
