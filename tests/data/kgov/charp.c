// SPDX-License-Identifier: GPL-2.0-only
/* A module param of a type idlesim does not take (test-kgov.sh). */
#include <linux/cpuidle.h>
#include <linux/moduleparam.h>

static char *mode = "x";
module_param(mode, charp, 0444);
