/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the fuzz targets: the parsers under test read files, so each
 * input is written to a scratch file under one private directory (on
 * tmpfs when /dev/shm exists) and parsed from there.
 */
#ifndef IDLESIM_FUZZ_H
#define IDLESIM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <glib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The private scratch directory, created on first use (never NULL). */
const char *fuzz_dir(void);
/* Writes @data to fuzz_dir()/@name and returns the path (static buffer
 * per name slot: valid until the next call with the same @name). */
const char *fuzz_file(const char *name, const void *data, size_t size);

#endif
