/* SPDX-License-Identifier: BSD-3-Clause */
/* A gzip stream inflated by its own thread into a pair of buffers, so decompression overlaps the
 * parse (the parse of block k runs while block k+1 is inflated). Internal. */
#ifndef CSR_MM_INFLATE_H
#define CSR_MM_INFLATE_H

#include "core/internal.h"

typedef struct csri_inflater csri_inflater;

/* Compressed input: `prefix` bytes already read, then the file descriptor fd (or -1), or the
 * memory range mem[0, mem_size). Starts the thread. */
csr_status csri_inflater_start(csr_context *ctx, const unsigned char *prefix, size_t prefix_size,
                               int fd, const unsigned char *mem, size_t mem_size,
                               size_t block_bytes, const char *name, csri_inflater **inf);
/* Copies up to max inflated bytes into dst; *got = 0 at the end of the stream. */
csr_status csri_inflater_read(csr_context *ctx, csri_inflater *inf, char *dst, size_t max,
                              size_t *got);
/* Stops the thread (also midway) and frees everything. */
void csri_inflater_stop(csri_inflater **inf);

#endif
