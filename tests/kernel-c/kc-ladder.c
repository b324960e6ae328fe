// SPDX-License-Identifier: GPL-2.0-only
/* Debian 6.12's drivers/cpuidle/governors/ladder.c as an idlesim governor. */
#include "kc.h"

#include "ladder.inc"

KC_GOVERNOR(kc_ladder, "kernel-ladder", ladder_governor, ladder_devices);
