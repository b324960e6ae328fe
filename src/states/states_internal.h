/* SPDX-License-Identifier: GPL-2.0-only */
/* What states.c shares with the loaders (keyfile.c, sysfs.c). */
#ifndef IDLESIM_STATES_INTERNAL_H
#define IDLESIM_STATES_INTERNAL_H

#include "idlesim/states.h"

/* The built-in tables, NULL-terminated. */
const struct is_state_table *const *is_states_builtin_tables(void);
/* The power model (states.c's header): a state's power with no figure. */
double is_states_default_power(int i, uint32_t flags);
/* Unset (negative) transition energies by the break-even rule. */
void is_states_derive_energy(struct is_state_table *t);
/* @name's N when it is "stateN" as the loaders spell it, else -1. */
int is_states_dir_index(const char *name);

#endif
