// SPDX-License-Identifier: GPL-2.0-only
/* Debian 6.12's drivers/cpuidle/governors/teo.c as an idlesim governor. */
#include "kc.h"

#include "teo.inc"

KC_GOVERNOR(kc_teo, "kernel-teo", teo_governor, teo_cpus);
