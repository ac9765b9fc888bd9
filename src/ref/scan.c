/* SPDX-License-Identifier: BSD-3-Clause */
/* out[i] = in[s] + ... + in[i-1] (exclusive) or + in[i] (inclusive), s = 0 or the start of i's
 * segment; sums modulo 2^bits. Serial, one sweep: the oracle of every scan test. */
#include "ref/ref.h"

/* One sweep in the unsigned type U of the element's width (wraps, no signed overflow). Each
 * in[i] is read before out[i] is written, so out may equal in. */
#define SCAN_SWEEP(U)                                                                              \
  do {                                                                                             \
    const U *x = in;                                                                               \
    U *y = out, sum = 0;                                                                           \
    for (int64_t i = 0; i < n; i++) {                                                              \
      if (heads && heads[i])                                                                       \
        sum = 0;                                                                                   \
      U v = x[i];                                                                                  \
      if (kind == CSR_SCAN_INCLUSIVE)                                                              \
        sum += v;                                                                                  \
      y[i] = sum;                                                                                  \
      if (kind == CSR_SCAN_EXCLUSIVE)                                                              \
        sum += v;                                                                                  \
    }                                                                                              \
  } while (0)

size_t csri_ref_scan_bytes(const csr_context *ctx, csr_data_type type, int64_t n, int segmented) {
  (void)ctx, (void)type, (void)n, (void)segmented;
  return 0;
}

csr_status csri_ref_scan(csr_context *ctx, csr_data_type type, csr_scan_kind kind, const void *in,
                         const uint8_t *heads, void *out, int64_t n, void *workspace) {
  (void)ctx, (void)workspace;
  if (type == CSR_DATA_I32 || type == CSR_DATA_U32)
    SCAN_SWEEP(uint32_t);
  else
    SCAN_SWEEP(uint64_t);
  return CSR_SUCCESS;
}
