/* SPDX-License-Identifier: BSD-3-Clause */
/* counts[b] = #{i : bin(samples[i]) = b}, bin from src/bins.h; U32 counts wrap modulo 2^32, U16
 * counts saturate at 65535. Serial, one sweep: the oracle of every histogram test. */
#include "kernels/bins.h"
#include "ref/ref.h"

#include <string.h>

/* Bin of sample i of `type` (-1: counted nowhere). */
static int bin_at(const csri_bins *b, csr_data_type type, const void *s, int64_t i) {
  switch (type) {
  case CSR_DATA_I32: return csri_bin_of_i64(b, ((const int32_t *)s)[i]);
  case CSR_DATA_I64: return csri_bin_of_i64(b, ((const int64_t *)s)[i]);
  case CSR_DATA_U32: return csri_bin_of_u64(b, ((const uint32_t *)s)[i]);
  case CSR_DATA_U64: return csri_bin_of_u64(b, ((const uint64_t *)s)[i]);
  case CSR_DATA_U16: return csri_bin_of_u64(b, ((const uint16_t *)s)[i]);
  case CSR_DATA_U8: return csri_bin_of_u64(b, ((const uint8_t *)s)[i]);
  case CSR_DATA_F32: return csri_bin_of_f64(b, ((const float *)s)[i]);
  default: return csri_bin_of_f64(b, ((const double *)s)[i]);
  }
}

size_t csri_ref_histogram_bytes(const csr_context *ctx, const csri_bins *bins,
                                csr_data_type count_type, int64_t n) {
  (void)ctx, (void)bins, (void)count_type, (void)n;
  return 0;
}

csr_status csri_ref_histogram(csr_context *ctx, csr_data_type sample_type, const void *samples,
                              int64_t n, const csri_bins *bins, csr_data_type count_type,
                              void *counts, void *workspace) {
  (void)ctx, (void)workspace;
  memset(counts, 0, (size_t)bins->bins * csri_data_type_size(count_type));
  for (int64_t i = 0; i < n; i++) {
    int b = bin_at(bins, sample_type, samples, i);
    if (b < 0)
      continue;
    if (count_type == CSR_DATA_U64)
      ((uint64_t *)counts)[b]++;
    else if (count_type == CSR_DATA_U32)
      ((uint32_t *)counts)[b]++; /* wraps modulo 2^32 */
    else if (((uint16_t *)counts)[b] < UINT16_MAX)
      ((uint16_t *)counts)[b]++; /* saturates */
  }
  return CSR_SUCCESS;
}
