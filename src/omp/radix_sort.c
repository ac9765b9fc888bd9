/* SPDX-License-Identifier: BSD-3-Clause */
/* keys (and values) stably reordered so that (key >> begin_bit) mod 2^(end_bit - begin_bit)
 * ascends: LSD radix sort by 8-bit digits (the last one narrower), OpenMP over one chunk per
 * thread. Each pass: every chunk counts its digits, the counts are scanned digit-major and
 * chunk-minor (digit d of chunk c goes after all smaller digits and after digit d of chunks
 * before c), then every chunk scatters its elements in order. That is the stable order of the
 * reference exactly. A pass whose digit is the same for every key moves nothing and is skipped. */
#include "omp/omp.h"

#include <string.h>

#define MIN_PARALLEL 65536 /* shorter inputs are sorted by one thread */
#define RADIX 256

static size_t round16(size_t bytes) {
  return (bytes + 15) / 16 * 16;
}

/* Workspace: the keys' second buffer, the values' second buffer, RADIX counts per chunk. */
size_t csri_omp_radix_sort_bytes(const csr_context *ctx, size_t key_size, size_t value_size,
                                 int64_t n, int begin_bit, int end_bit) {
  (void)begin_bit, (void)end_bit;
  return round16((size_t)n * key_size) + round16((size_t)n * value_size) +
         (size_t)csri_thread_chunks(ctx, n, MIN_PARALLEL) * RADIX * sizeof(int64_t);
}

/* Per key type K: the digit counts of [b, e) into cnt (zeroed here), and the scatter of [b, e)
 * to the cursors cur (one per digit, advanced), values of value_size bytes carried along. */
#define SORT_CHUNK(K)                                                                              \
  static void count_##K(const void *keys, int64_t b, int64_t e, int shift, unsigned mask,          \
                        int64_t *cnt) {                                                            \
    const K *k = keys;                                                                             \
    memset(cnt, 0, RADIX * sizeof *cnt);                                                           \
    for (int64_t i = b; i < e; i++)                                                                \
      cnt[(k[i] >> shift) & mask]++;                                                               \
  }                                                                                                \
  static void scatter_##K(const void *keys, void *out_keys, const void *values, void *out_values,  \
                          size_t value_size, int64_t b, int64_t e, int shift, unsigned mask,       \
                          int64_t *cur) {                                                          \
    const K *k = keys;                                                                             \
    K *ok = out_keys;                                                                              \
    if (value_size == 0) {                                                                         \
      for (int64_t i = b; i < e; i++)                                                              \
        ok[cur[(k[i] >> shift) & mask]++] = k[i];                                                  \
    } else if (value_size == 4) {                                                                  \
      const uint32_t *v = values;                                                                  \
      uint32_t *ov = out_values;                                                                   \
      for (int64_t i = b; i < e; i++) {                                                            \
        int64_t p = cur[(k[i] >> shift) & mask]++;                                                 \
        ok[p] = k[i];                                                                              \
        ov[p] = v[i];                                                                              \
      }                                                                                            \
    } else {                                                                                       \
      const uint64_t *v = values;                                                                  \
      uint64_t *ov = out_values;                                                                   \
      for (int64_t i = b; i < e; i++) {                                                            \
        int64_t p = cur[(k[i] >> shift) & mask]++;                                                 \
        ok[p] = k[i];                                                                              \
        ov[p] = v[i];                                                                              \
      }                                                                                            \
    }                                                                                              \
  }
SORT_CHUNK(uint32_t)
SORT_CHUNK(uint64_t)

/* Turns the chunks' digit counts into their first output places; returns 1 when one digit
 * takes all n keys (the pass would move nothing). */
static int offsets(int64_t *cnt, int64_t chunks, int64_t n) {
  int64_t run = 0;
  for (int d = 0; d < RADIX; d++) {
    int64_t digit_total = 0;
    for (int64_t c = 0; c < chunks; c++) {
      int64_t count = cnt[c * RADIX + d];
      cnt[c * RADIX + d] = run;
      run += count;
      digit_total += count;
    }
    if (digit_total == n)
      return 1;
  }
  return 0;
}

csr_status csri_omp_radix_sort(csr_context *ctx, size_t key_size, void *keys, size_t value_size,
                               void *values, int64_t n, int begin_bit, int end_bit,
                               void *workspace) {
  int64_t chunks = csri_thread_chunks(ctx, n, MIN_PARALLEL);
  char *ws = workspace;
  void *src_k = keys, *src_v = values;
  void *dst_k = ws, *dst_v = ws + round16((size_t)n * key_size);
  int64_t *cnt = (int64_t *)(ws + round16((size_t)n * key_size) + round16((size_t)n * value_size));
  int wide = key_size == 8;
  for (int shift = begin_bit; shift < end_bit; shift += 8) {
    int width = end_bit - shift < 8 ? end_bit - shift : 8, skip = 0;
    unsigned mask = (1u << width) - 1;
#pragma omp parallel num_threads(csri_omp_threads(ctx)) if (chunks > 1)
    {
#pragma omp for schedule(static)
      for (int64_t c = 0; c < chunks; c++) {
        int64_t b = csri_chunk_begin(n, chunks, c), e = csri_chunk_begin(n, chunks, c + 1);
        if (wide)
          count_uint64_t(src_k, b, e, shift, mask, cnt + c * RADIX);
        else
          count_uint32_t(src_k, b, e, shift, mask, cnt + c * RADIX);
      }
#pragma omp single
      skip = offsets(cnt, chunks, n);
      if (!skip) {
#pragma omp for schedule(static)
        for (int64_t c = 0; c < chunks; c++) {
          int64_t b = csri_chunk_begin(n, chunks, c), e = csri_chunk_begin(n, chunks, c + 1);
          if (wide)
            scatter_uint64_t(src_k, dst_k, src_v, dst_v, value_size, b, e, shift, mask,
                             cnt + c * RADIX);
          else
            scatter_uint32_t(src_k, dst_k, src_v, dst_v, value_size, b, e, shift, mask,
                             cnt + c * RADIX);
        }
      }
    }
    if (!skip) { /* ping-pong */
      void *t = src_k;
      src_k = dst_k, dst_k = t;
      t = src_v, src_v = dst_v, dst_v = t;
    }
  }
  if (src_k != keys) { /* the result is in the workspace */
#pragma omp parallel for num_threads(csri_omp_threads(ctx)) if (chunks > 1) schedule(static)
    for (int64_t c = 0; c < chunks; c++) {
      int64_t b = csri_chunk_begin(n, chunks, c), e = csri_chunk_begin(n, chunks, c + 1);
      memcpy((char *)keys + (size_t)b * key_size, (char *)src_k + (size_t)b * key_size,
             (size_t)(e - b) * key_size);
      if (value_size)
        memcpy((char *)values + (size_t)b * value_size, (char *)src_v + (size_t)b * value_size,
               (size_t)(e - b) * value_size);
    }
  }
  return CSR_SUCCESS;
}
