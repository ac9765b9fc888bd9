/* SPDX-License-Identifier: BSD-3-Clause */
/* Dispatch of the exact sums (src/core/backend.h, csri_terms) to the backend where the vectors
 * live; the caller (the distributed reductions) has checked them. */
#include "ops/ops.h"

csr_status csri_exact_sums(csr_context *ctx, csri_terms terms, const csr_vector *const *v,
                           csri_exact_acc *acc) {
  if (v[0]->n == 0)
    return CSR_SUCCESS;
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, v[0]->location, vector.exact_sums, "exact sums", &b);
  CSRI_TRY(status);
  return csri_ran(ctx, b, status, b->vector.exact_sums(ctx, terms, v, acc));
}
