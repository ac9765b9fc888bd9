/* SPDX-License-Identifier: BSD-3-Clause */
/* How scattered a matrix's columns are, from a sample: what the OpenMP SpMV's gather prefetch and
 * PageRank's renumbering decide by. Host arrays. Internal. */
#ifndef CSR_KERNELS_SCATTERED_H
#define CSR_KERNELS_SCATTERED_H

#include "csr.h"

/* The share of A's entries, sampled in 64 rows spread over A (at most 64 in each), that lie more
 * than 2^16 columns (512 KiB of x in F64) from the diagonal (row i's at i cols / rows); 0 for no
 * entries sampled. */
static inline double csri_scattered_share(const csr_matrix *A) {
  int64_t far = 0, seen = 0, step = A->rows / 64 > 0 ? A->rows / 64 : 1;
  for (int64_t i = 0; i < A->rows; i += step) {
    const int64_t diagonal = (int64_t)((double)i * (double)A->cols / (double)A->rows);
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1] && k < A->row_offsets[i] + 64;
         k++, seen++) {
      const int64_t distance = A->col_indices[k] - diagonal;
      far += distance > 65536 || distance < -65536;
    }
  }
  return seen > 0 ? (double)far / (double)seen : 0.0;
}

#endif /* CSR_KERNELS_SCATTERED_H */
