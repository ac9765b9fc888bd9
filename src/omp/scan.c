/* SPDX-License-Identifier: BSD-3-Clause */
/* out[i] = in[s] + ... + in[i-1] (exclusive) or + in[i] (inclusive), s = 0 or the start of i's
 * segment; sums modulo 2^bits. OpenMP in three steps over one chunk per thread: each chunk's
 * total (of its elements after its last head), the chunks' carries in chunk order (a chunk with a
 * head passes on only its own total), then each chunk swept again from its carry. Integer sums
 * wrap alike in any order, so the result is the reference's, bit for bit. */
#include "omp/omp.h"

#define MIN_PARALLEL 32768 /* shorter inputs are swept by one thread */

/* Per width (U: uint32_t or uint64_t; sums in U wrap): the total of [b, e) after its last head
 * (*headed = 1 when it has one), and the sweep of [b, e) starting from `carry`. The sweep reads
 * in[i] before writing out[i]: out may equal in. */
#define SCAN_CHUNK(U)                                                                              \
  static uint64_t total_##U(const void *in, const uint8_t *heads, int64_t b, int64_t e,            \
                            uint64_t *headed) {                                                    \
    const U *x = in;                                                                               \
    U sum = 0;                                                                                     \
    *headed = 0;                                                                                   \
    if (heads == NULL) {                                                                           \
      for (int64_t i = b; i < e; i++)                                                              \
        sum += x[i];                                                                               \
      return sum;                                                                                  \
    }                                                                                              \
    for (int64_t i = b; i < e; i++) {                                                              \
      if (heads[i])                                                                                \
        sum = 0, *headed = 1;                                                                      \
      sum += x[i];                                                                                 \
    }                                                                                              \
    return sum;                                                                                    \
  }                                                                                                \
  static void sweep_##U(csr_scan_kind kind, const void *in, const uint8_t *heads, void *out,       \
                        int64_t b, int64_t e, uint64_t carry) {                                    \
    const U *x = in;                                                                               \
    U *y = out, sum = (U)carry;                                                                    \
    int inclusive = kind == CSR_SCAN_INCLUSIVE;                                                    \
    if (heads == NULL && inclusive) {                                                              \
      for (int64_t i = b; i < e; i++)                                                              \
        y[i] = sum += x[i];                                                                        \
    } else if (heads == NULL) {                                                                    \
      for (int64_t i = b; i < e; i++) {                                                            \
        U v = x[i];                                                                                \
        y[i] = sum;                                                                                \
        sum += v;                                                                                  \
      }                                                                                            \
    } else {                                                                                       \
      for (int64_t i = b; i < e; i++) {                                                            \
        U v = x[i];                                                                                \
        if (heads[i])                                                                              \
          sum = 0;                                                                                 \
        y[i] = inclusive ? (U)(sum + v) : sum;                                                     \
        sum += v;                                                                                  \
      }                                                                                            \
    }                                                                                              \
  }
SCAN_CHUNK(uint32_t)
SCAN_CHUNK(uint64_t)

size_t csri_omp_scan_bytes(const csr_context *ctx, csr_data_type type, int64_t n, int segmented) {
  (void)type, (void)segmented;
  int64_t chunks = csri_thread_chunks(ctx, n, MIN_PARALLEL);
  return chunks == 1 ? 0 : 3 * (size_t)chunks * sizeof(uint64_t);
}

csr_status csri_omp_scan(csr_context *ctx, csr_data_type type, csr_scan_kind kind, const void *in,
                         const uint8_t *heads, void *out, int64_t n, void *workspace) {
  int wide = type == CSR_DATA_I64 || type == CSR_DATA_U64;
  int64_t chunks = csri_thread_chunks(ctx, n, MIN_PARALLEL);
  if (chunks == 1) {
    if (wide)
      sweep_uint64_t(kind, in, heads, out, 0, n, 0);
    else
      sweep_uint32_t(kind, in, heads, out, 0, n, 0);
    return CSR_SUCCESS;
  }
  uint64_t *total = workspace, *headed = total + chunks, *carry = headed + chunks;
  uint64_t mask = wide ? UINT64_MAX : UINT32_MAX;
#pragma omp parallel num_threads(csri_omp_threads(ctx))
  {
#pragma omp for schedule(static)
    for (int64_t c = 0; c < chunks; c++) {
      int64_t b = csri_chunk_begin(n, chunks, c), e = csri_chunk_begin(n, chunks, c + 1);
      total[c] = wide ? total_uint64_t(in, heads, b, e, &headed[c])
                      : total_uint32_t(in, heads, b, e, &headed[c]);
    }
#pragma omp single
    {
      carry[0] = 0;
      for (int64_t c = 0; c + 1 < chunks; c++)
        carry[c + 1] = (headed[c] ? total[c] : carry[c] + total[c]) & mask;
    }
#pragma omp for schedule(static)
    for (int64_t c = 0; c < chunks; c++) {
      int64_t b = csri_chunk_begin(n, chunks, c), e = csri_chunk_begin(n, chunks, c + 1);
      if (wide)
        sweep_uint64_t(kind, in, heads, out, b, e, carry[c]);
      else
        sweep_uint32_t(kind, in, heads, out, b, e, carry[c]);
    }
  }
  return CSR_SUCCESS;
}
