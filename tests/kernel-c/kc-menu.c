// SPDX-License-Identifier: GPL-2.0-only
/* Debian 6.12's drivers/cpuidle/governors/menu.c as an idlesim governor. */
#include "kc.h"

#include "menu.inc"

KC_GOVERNOR(kc_menu, "kernel-menu", menu_governor, menu_devices);
