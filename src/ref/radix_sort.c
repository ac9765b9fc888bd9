/* SPDX-License-Identifier: BSD-3-Clause */
/* keys (and values) stably reordered so that (key >> begin_bit) mod 2^(end_bit - begin_bit)
 * ascends: LSD radix sort, one stable counting sort per 8-bit digit (the last one narrower). */
#include "ref/ref.h"

#include <string.h>

/* Keys' copy first, then the values' copy, at a 16-byte boundary. */
static size_t keys_room(size_t key_size, int64_t n) {
  return ((size_t)n * key_size + 15) / 16 * 16;
}

size_t csri_ref_radix_sort_bytes(const csr_context *ctx, size_t key_size, size_t value_size,
                                 int64_t n, int begin_bit, int end_bit) {
  (void)ctx, (void)begin_bit, (void)end_bit;
  return keys_room(key_size, n) + (size_t)n * value_size;
}

static uint64_t key_at(const void *keys, size_t key_size, int64_t i) {
  return key_size == 4 ? ((const uint32_t *)keys)[i] : ((const uint64_t *)keys)[i];
}

csr_status csri_ref_radix_sort(csr_context *ctx, size_t key_size, void *keys, size_t value_size,
                               void *values, int64_t n, int begin_bit, int end_bit,
                               void *workspace) {
  (void)ctx;
  void *src_k = keys, *src_v = values;
  void *dst_k = workspace, *dst_v = (char *)workspace + keys_room(key_size, n);
  for (int shift = begin_bit; shift < end_bit; shift += 8) {
    int width = end_bit - shift < 8 ? end_bit - shift : 8;
    uint64_t mask = (UINT64_C(1) << width) - 1;
    int64_t start[257] = {0}; /* start[d + 1] counts digit d, then the scan: where d goes */
    for (int64_t i = 0; i < n; i++)
      start[((key_at(src_k, key_size, i) >> shift) & mask) + 1]++;
    for (int d = 0; d < 256; d++)
      start[d + 1] += start[d];
    for (int64_t i = 0; i < n; i++) { /* in order: equal digits keep their order (stable) */
      int64_t p = start[(key_at(src_k, key_size, i) >> shift) & mask]++;
      memcpy((char *)dst_k + (size_t)p * key_size, (char *)src_k + (size_t)i * key_size, key_size);
      if (value_size)
        memcpy((char *)dst_v + (size_t)p * value_size, (char *)src_v + (size_t)i * value_size,
               value_size);
    }
    void *t = src_k; /* ping-pong */
    src_k = dst_k, dst_k = t;
    t = src_v, src_v = dst_v, dst_v = t;
  }
  if (src_k != keys) { /* an odd number of passes: the result is in the workspace */
    memcpy(keys, src_k, (size_t)n * key_size);
    if (value_size)
      memcpy(values, src_v, (size_t)n * value_size);
  }
  return CSR_SUCCESS;
}
