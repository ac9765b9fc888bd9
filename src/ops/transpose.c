/* SPDX-License-Identifier: BSD-3-Clause */
/* AT = A^T (the CSC arrays of A): columns sorted, duplicates kept in A's stored order. */
#include "ops/ops.h"

csr_status csr_transpose(csr_context *ctx, const csr_matrix *A, csr_matrix **AT) {
  CSRI_CHECK_NULL(ctx, AT);
  *AT = NULL;
  CSRI_CHECK_NULL(ctx, A);
  const csri_backend *b;
  csr_status status =
      csri_convert_dispatch(ctx, A, offsetof(csri_backend, convert.transpose), "transpose", &b);
  CSRI_TRY(status);
  csr_matrix *out = NULL;
  CSRI_TRY(csr_matrix_create(ctx, &out, A->cols, A->rows, A->nnz, A->value_type, A->location));
  /* nnz == 0: create's zeroed offsets are the answer */
  csr_status st = A->nnz > 0 ? b->convert.transpose(ctx, A, out) : CSR_SUCCESS;
  if (st < 0) {
    csr_matrix_free(&out);
    return st;
  }
  /* Row i of A feeds AT's rows in ascending i, so AT is always sorted; (i, j) repeats in AT
   * exactly when it repeats in A. */
  out->flags = CSR_FLAG_SORTED | (A->flags & CSR_FLAG_NO_DUPLICATES);
  *AT = out;
  return csri_ran(ctx, b, status, st);
}
