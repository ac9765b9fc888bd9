/* SPDX-License-Identifier: BSD-3-Clause */
/* Output for the writers: a file or standard output, plain or gzip. gzip output is written as
 * one gzip member per formatted chunk, each deflated by its own thread (the pigz approach): a
 * concatenation of members is a valid gzip file that zlib, gzip and Python read whole. Internal. */
#ifndef CSR_MM_SINK_H
#define CSR_MM_SINK_H

#include "core/internal.h"

typedef struct csri_sink csri_sink;

/* Opens path ("-" = standard output) for writing; level 1..9 when gzip. */
csr_status csri_sink_open(csr_context *ctx, const char *path, int gzip, int level,
                          csri_sink **sink);
/* Writes `count` chunks of text in order; with gzip they are deflated in parallel first. */
csr_status csri_sink_write_chunks(csr_context *ctx, csri_sink *sink, char *const *chunk,
                                  const size_t *size, int count, int threads);
/* Flushes and closes; reports a failed close (a full disk shows up here). */
csr_status csri_sink_close(csr_context *ctx, csri_sink **sink);
/* Closes without reporting, after an earlier error (and removes a partial file). */
void csri_sink_abort(csri_sink **sink);

#endif
