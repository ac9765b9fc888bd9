/* SPDX-License-Identifier: BSD-3-Clause */
/* counts[b] = #{i : bin(samples[i]) = b}, bin from src/bins.h; U32 counts wrap modulo 2^32, U16
 * counts saturate at 65535. OpenMP: each chunk (one per thread) counts into its own uint64 array
 * in the workspace, then the arrays are summed per bin and stored as the count type (the sum
 * truncated for U32, clamped for U16: what the reference's increments give). Inputs too short
 * to pay for the private arrays are counted by one thread straight into counts. */
#include "kernels/bins.h"
#include "omp/omp.h"

#include <string.h>

#define MIN_PARALLEL 65536 /* shorter inputs are counted by one thread */

/* One chunk per thread, unless the input is short or the private arrays would hold more
 * counters than there are samples. */
static int64_t chunk_count(const csr_context *ctx, const csri_bins *bins, int64_t n) {
  int64_t threads = csri_omp_threads(ctx);
  return n < MIN_PARALLEL || threads < 2 || bins->bins * threads > n ? 1 : threads;
}

/* Increments: plain (wraps in the type), or saturating at 65535. */
#define ADD(c) ((c)++)
#define ADD_SAT(c) ((c) += (c) < UINT16_MAX)

/* Counts samples [b, e) of type ST (bin by BIN) into counts of type CT, incremented by INC. */
#define COUNT_CHUNK(name, ST, BIN, CT, INC)                                                        \
  static void name(const void *samples, int64_t b, int64_t e, const csri_bins *bins,               \
                   void *counts) {                                                                 \
    const ST *x = samples;                                                                         \
    CT *c = counts;                                                                                \
    for (int64_t i = b; i < e; i++) {                                                              \
      int k = BIN(bins, x[i]);                                                                     \
      if (k >= 0)                                                                                  \
        INC(c[k]);                                                                                 \
    }                                                                                              \
  }
#define COUNT_TYPES(name, ST, BIN)                                                                 \
  COUNT_CHUNK(name##_u64, ST, BIN, uint64_t, ADD)                                                  \
  COUNT_CHUNK(name##_u32, ST, BIN, uint32_t, ADD)                                                  \
  COUNT_CHUNK(name##_u16, ST, BIN, uint16_t, ADD_SAT)
COUNT_TYPES(count_i32, int32_t, csri_bin_of_i64)
COUNT_TYPES(count_i64, int64_t, csri_bin_of_i64)
COUNT_TYPES(count_u32, uint32_t, csri_bin_of_u64)
COUNT_TYPES(count_u64, uint64_t, csri_bin_of_u64)
COUNT_TYPES(count_u16, uint16_t, csri_bin_of_u64)
COUNT_TYPES(count_u8, uint8_t, csri_bin_of_u64)
COUNT_TYPES(count_f32, float, csri_bin_of_f64)
COUNT_TYPES(count_f64, double, csri_bin_of_f64)

typedef void (*count_fn)(const void *, int64_t, int64_t, const csri_bins *, void *);

/* By sample type (csr_data_type order) and count type (U64, U32, U16). */
static const count_fn count_table[8][3] = {
    {count_i32_u64, count_i32_u32, count_i32_u16}, {count_i64_u64, count_i64_u32, count_i64_u16},
    {count_u32_u64, count_u32_u32, count_u32_u16}, {count_u64_u64, count_u64_u32, count_u64_u16},
    {count_u16_u64, count_u16_u32, count_u16_u16}, {count_u8_u64, count_u8_u32, count_u8_u16},
    {count_f32_u64, count_f32_u32, count_f32_u16}, {count_f64_u64, count_f64_u32, count_f64_u16}};

size_t csri_omp_histogram_bytes(const csr_context *ctx, const csri_bins *bins,
                                csr_data_type count_type, int64_t n) {
  (void)count_type;
  int64_t chunks = chunk_count(ctx, bins, n);
  return chunks == 1 ? 0 : (size_t)chunks * (size_t)bins->bins * sizeof(uint64_t);
}

csr_status csri_omp_histogram(csr_context *ctx, csr_data_type sample_type, const void *samples,
                              int64_t n, const csri_bins *bins, csr_data_type count_type,
                              void *counts, void *workspace) {
  int64_t chunks = chunk_count(ctx, bins, n), nb = bins->bins;
  int ct = count_type == CSR_DATA_U64 ? 0 : count_type == CSR_DATA_U32 ? 1 : 2;
  if (chunks == 1) {
    memset(counts, 0, (size_t)nb * csri_data_type_size(count_type));
    count_table[sample_type][ct](samples, 0, n, bins, counts);
    return CSR_SUCCESS;
  }
  uint64_t *part = workspace; /* chunk c's counts: part[c * nb, (c + 1) * nb) */
  count_fn run = count_table[sample_type][0];
#pragma omp parallel num_threads(csri_omp_threads(ctx))
  {
#pragma omp for schedule(static)
    for (int64_t c = 0; c < chunks; c++) {
      memset(part + c * nb, 0, (size_t)nb * sizeof *part);
      run(samples, csri_chunk_begin(n, chunks, c), csri_chunk_begin(n, chunks, c + 1), bins,
          part + c * nb);
    }
#pragma omp for schedule(static)
    for (int64_t b = 0; b < nb; b++) {
      uint64_t sum = 0;
      for (int64_t c = 0; c < chunks; c++)
        sum += part[c * nb + b];
      if (ct == 0)
        ((uint64_t *)counts)[b] = sum;
      else if (ct == 1)
        ((uint32_t *)counts)[b] = (uint32_t)sum;
      else
        ((uint16_t *)counts)[b] = (uint16_t)(sum < UINT16_MAX ? sum : UINT16_MAX);
    }
  }
  return CSR_SUCCESS;
}
