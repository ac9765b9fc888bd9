/* SPDX-License-Identifier: BSD-3-Clause */
/* Exact sums of terms over host vectors (src/core/backend.h, csri_terms), in one sweep. */
#include "kernels/exact_terms.h"
#include "ref/ref.h"

csr_status csri_ref_exact_sums(csr_context *ctx, csri_terms terms, const csr_vector *const *v,
                               csri_exact_acc *acc) {
  (void)ctx;
  csri_exact_terms(terms, v, 0, v[0]->n, acc);
  return CSR_SUCCESS;
}
