/* SPDX-License-Identifier: BSD-3-Clause */
/* Full = A + op(A)^T without doubling the diagonal (op = negation for skew-symmetric). */
#include "ops/ops.h"

csr_status csr_symmetric_expand(csr_context *ctx, const csr_matrix *A, csr_triangle stored,
                                csr_symmetry symmetry, csr_matrix **full) {
  CSRI_CHECK_NULL(ctx, full);
  *full = NULL;
  CSRI_CHECK_NULL(ctx, A);
  /* Entries of either triangle are mirrored (Matrix Market readers accept both), so `stored`
   * does not change the result; it is still checked so a bad value is caught. */
  if (stored != CSR_LOWER && stored != CSR_UPPER)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "triangle %d is not CSR_LOWER or CSR_UPPER",
                     (int)stored);
  if (symmetry != CSR_SYMMETRIC && symmetry != CSR_SKEW_SYMMETRIC)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "symmetry %d is not CSR_SYMMETRIC or CSR_SKEW_SYMMETRIC", (int)symmetry);
  const csri_backend *b;
  csr_status status = csri_convert_dispatch(
      ctx, A, offsetof(csri_backend, convert.symmetric_expand), "symmetric expansion", &b);
  CSRI_TRY(status);
  if (A->rows != A->cols)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "a symmetric matrix is square, not %lld x %lld", (long long)A->rows,
                     (long long)A->cols);
  if (symmetry == CSR_SKEW_SYMMETRIC && A->value_type == CSR_PATTERN)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "a pattern matrix cannot hold the negated entries of a skew-symmetric one");
  if (A->nnz == 0) {
    CSRI_TRY(csr_matrix_create(ctx, full, A->rows, A->cols, 0, A->value_type, A->location));
    (*full)->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
    return csri_ran(ctx, b, status, CSR_SUCCESS);
  }
  return csri_ran(ctx, b, status, b->convert.symmetric_expand(ctx, A, symmetry, full));
}
