/* SPDX-License-Identifier: BSD-3-Clause */
/* A == B exactly (structure and bitwise values), or values within atol + rtol*max(|a|,|b|). */
#include "core/internal.h"

#include <math.h>
#include <string.h>

static csr_status same_structure(csr_context *ctx, const csr_matrix *A, const csr_matrix *B,
                                 int *same) {
  CSRI_CHECK_NULL(ctx, A);
  CSRI_CHECK_NULL(ctx, B);
  CSRI_CHECK_NULL(ctx, same);
  if (A->location != CSR_HOST || B->location != CSR_HOST)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH, "comparison needs host matrices");
  *same = A->rows == B->rows && A->cols == B->cols && A->nnz == B->nnz &&
          A->value_type == B->value_type &&
          memcmp(A->row_offsets, B->row_offsets, (size_t)(A->rows + 1) * sizeof(int64_t)) == 0 &&
          (A->nnz == 0 ||
           memcmp(A->col_indices, B->col_indices, (size_t)A->nnz * sizeof(int32_t)) == 0);
  return CSR_SUCCESS;
}

csr_status csr_matrix_equal(csr_context *ctx, const csr_matrix *A, const csr_matrix *B,
                            int *equal) {
  CSRI_TRY(same_structure(ctx, A, B, equal));
  if (*equal && A->nnz > 0 && A->value_type != CSR_PATTERN)
    *equal = memcmp(A->values, B->values, (size_t)A->nnz * csri_value_size(A->value_type)) == 0;
  return CSR_SUCCESS;
}

static int close_enough(double a, double b, double rtol, double atol) {
  if (a == b) /* also equal infinities */
    return 1;
  double scale = fmax(fabs(a), fabs(b));
  return fabs(a - b) <= atol + rtol * scale; /* false for NaN */
}

csr_status csr_matrix_near(csr_context *ctx, const csr_matrix *A, const csr_matrix *B, double rtol,
                           double atol, int *equal) {
  if (!(rtol >= 0) || !(atol >= 0))
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "tolerances must be >= 0 (rtol %g, atol %g)", rtol,
                     atol);
  CSRI_TRY(same_structure(ctx, A, B, equal));
  for (int64_t k = 0; *equal && k < A->nnz; k++) {
    if (A->value_type == CSR_F64)
      *equal =
          close_enough(((const double *)A->values)[k], ((const double *)B->values)[k], rtol, atol);
    else if (A->value_type == CSR_F32)
      *equal =
          close_enough(((const float *)A->values)[k], ((const float *)B->values)[k], rtol, atol);
  }
  return CSR_SUCCESS;
}
