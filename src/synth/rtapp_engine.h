/* SPDX-License-Identifier: GPL-2.0-only */
/* The rt-app engine behind is_synth for a config with an rtapp program. */
#ifndef IDLESIM_RTAPP_ENGINE_H
#define IDLESIM_RTAPP_ENGINE_H

#include "idlesim/synth.h"

struct rt_engine;
struct rt_engine *rt_engine_new(const struct is_synth_config *cfg, GError **error);
void rt_engine_free(struct rt_engine *e);
/*
 * 1: a record; 0: the end (the file's duration, the horizon, or nothing
 * can happen any more); -1: the program keeps every CPU busy
 * (rt_engine_error()).
 */
int rt_engine_next(struct rt_engine *e, struct is_record *rec);
/* No event at or after @until_ns is run (0: no horizon). */
void rt_engine_set_horizon(struct rt_engine *e, int64_t until_ns);
const char *rt_engine_error(const struct rt_engine *e);
void rt_engine_feedback(struct rt_engine *e, int cpu, int64_t resume_ns);
int64_t rt_engine_min_start(const struct rt_engine *e);
uint64_t rt_engine_records(const struct rt_engine *e);

#endif
