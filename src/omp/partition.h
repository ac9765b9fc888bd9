/* SPDX-License-Identifier: BSD-3-Clause */
/* How the OpenMP backend splits work: row ranges of equal rows + entries (src/omp/partition.c),
 * and the fixed chunks of its reductions and primitives. Internal. */
#ifndef CSR_OMP_PARTITION_H
#define CSR_OMP_PARTITION_H

#include "core/internal.h"

/* Most blocks csri_omp_blocks makes (callers keep bounds[CSRI_MAX_BLOCKS + 1] on the stack). */
#define CSRI_MAX_BLOCKS 1024

/* First row of part t of nt: the smallest r with r + off[r] >= floor(t * work / nt), where
 * work = rows + off[rows] (off NULL: rows alone). Counting a row as one unit besides its entries
 * keeps runs of empty rows balanced; a dense row lands whole in one part. */
int64_t csri_omp_part_begin(const int64_t *off, int64_t rows, int64_t t, int64_t nt);
/* Splits rows [0, rows) into up to 4 blocks per thread (at most CSRI_MAX_BLOCKS) of about
 * equal work; bounds[0..nblocks]. */
int csri_omp_blocks(const int64_t *off, int64_t rows, int threads, int64_t *bounds);
/* In-place inclusive prefix sum of a[0..n). */
void csri_omp_scan_i64(int64_t *a, int64_t n, int threads);

/* --- deterministic reductions ------------------------------------------------------------- */

/* [0, n) is cut into csri_reduce_chunks(n) contiguous chunks whose bounds depend on n only. Each
 * chunk is reduced in index order, the chunk partials in chunk order, so an OpenMP reduction
 * gives the same bits for every thread count and every run. */
#define CSRI_REDUCE_MAX_CHUNKS 256
#define CSRI_REDUCE_MIN_CHUNK 4096

static inline int64_t csri_reduce_chunks(int64_t n) {
  int64_t c = n / CSRI_REDUCE_MIN_CHUNK;
  return c < 1 ? 1 : (c > CSRI_REDUCE_MAX_CHUNKS ? CSRI_REDUCE_MAX_CHUNKS : c);
}

/* First index of chunk c of `chunks` over [0, n): floor(c*n/chunks) without overflow. */
static inline int64_t csri_chunk_begin(int64_t n, int64_t chunks, int64_t c) {
  return n / chunks * c + n % chunks * c / chunks;
}

/* --- the primitives: one chunk per thread ---------------------------------------------------- */

/* Chunks for a primitive over n elements: one per thread, or a single one when n is below
 * min_parallel (a parallel region would cost more than it saves) or one thread is asked for. */
static inline int64_t csri_thread_chunks(const csr_context *ctx, int64_t n, int64_t min_parallel) {
  int threads = csri_omp_threads(ctx);
  return n < min_parallel || threads < 2 ? 1 : threads;
}

#endif
