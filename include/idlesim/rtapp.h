/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rt-app workload files (rt-app 1.0's JSON, doc/tutorial.txt) run
 * closed-loop in the simulator.
 *
 * is_rtapp_load() parses a file into a program: its tasks, their phases and
 * events, and the resources (timers, mutexes, condition variables,
 * barriers) they name.  The program is immutable; a run executes it
 * through the synthetic workload interface (struct is_synth_config's
 * rtapp, see synth.h): a discrete-event model of the tasks on the
 * simulated CPUs (src/synth/rtapp_engine.c, docs/rt-app.md says what is
 * modelled).  Times in the file are microseconds, as in rt-app.
 */
#ifndef IDLESIM_RTAPP_H
#define IDLESIM_RTAPP_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

struct is_rtapp;

/*
 * Parses @path.  Malformed JSON names the line and column; a key or value
 * the model does not support names its JSON path and line
 * ("tasks.thread0.phases.p1.iorun").  Settings that do not change when
 * tasks wake are accepted and listed (is_rtapp_notes()).
 */
struct is_rtapp *is_rtapp_load(const char *path, GError **error);
/* The same on a buffer; @name stands for the file in messages. */
struct is_rtapp *is_rtapp_parse(const char *data, size_t len, const char *name, GError **error);
/*
 * @strict false (is_rtapp_load(), is_rtapp_parse()): as rt-app runs a file
 * through workgen: a comma before '}' or ']' is taken (json-c does), and
 * a key repeated in one object is numbered as workgen numbers it; each is
 * noted.  @strict true refuses both.
 */
struct is_rtapp *is_rtapp_load_strict(const char *path, bool strict, GError **error);
struct is_rtapp *is_rtapp_parse_strict(const char *data, size_t len, const char *name,
				       bool strict, GError **error);
void is_rtapp_free(struct is_rtapp *p);

/* The file as given, and the SHA-256 of its bytes (hex). */
const char *is_rtapp_file(const struct is_rtapp *p);
const char *is_rtapp_digest(const struct is_rtapp *p);
/*
 * What the run should say: the calibration's reading, and each setting
 * accepted but ignored or without effect ("PATH (line N): why").
 * NULL-terminated.
 */
const char *const *is_rtapp_notes(const struct is_rtapp *p);
/* global.duration in ns, or -1 (none: the tasks end it, or the caller). */
int64_t is_rtapp_duration_ns(const struct is_rtapp *p);
/* False when some task loops forever and no duration ends the run. */
bool is_rtapp_ends(const struct is_rtapp *p);
/* The highest CPU a "cpus" array names, or -1. */
int is_rtapp_max_cpu(const struct is_rtapp *p);
/* Thread instances the program starts. */
int is_rtapp_instances(const struct is_rtapp *p);

#endif
