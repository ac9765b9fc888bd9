/* SPDX-License-Identifier: BSD-3-Clause */
/* A = the nonzeros of D (exact zeros skipped, sorted); D = A as dense (duplicates summed). */
#include "ops/ops.h"

static csr_status check_layout(csr_context *ctx, csr_layout layout) {
  if (layout != CSR_ROW_MAJOR && layout != CSR_COL_MAJOR)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "layout %d is not CSR_ROW_MAJOR or CSR_COL_MAJOR",
                     (int)layout);
  return CSR_SUCCESS;
}

static csr_status check_dense(csr_context *ctx, const csr_dense *D) {
  CSRI_TRY(csri_check_value_type(ctx, D->value_type, 0));
  CSRI_TRY(check_layout(ctx, D->layout));
  CSRI_TRY(csri_check_shape(ctx, D->rows, D->cols, 0));
  if (D->rows == 0 || D->cols == 0)
    return CSR_SUCCESS;
  int64_t inner = D->layout == CSR_ROW_MAJOR ? D->cols : D->rows;
  int64_t outer = D->layout == CSR_ROW_MAJOR ? D->rows : D->cols;
  if (D->ld < inner)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "leading dimension %lld is below %lld",
                     (long long)D->ld, (long long)inner);
  if (D->ld > INT64_MAX / outer) /* the last element's index must fit */
    return CSRI_FAIL(ctx, CSR_ERR_OVERFLOW, "leading dimension %lld overflows the index",
                     (long long)D->ld);
  if (D->data == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "D->data is NULL");
  return CSR_SUCCESS;
}

csr_status csr_from_dense(csr_context *ctx, const csr_dense *D, csr_matrix **A) {
  CSRI_CHECK_NULL(ctx, A);
  *A = NULL;
  CSRI_CHECK_NULL(ctx, D);
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, D->location, convert.from_dense, "dense to CSR", &b);
  CSRI_TRY(status);
  CSRI_TRY(check_dense(ctx, D));
  if (D->rows == 0 || D->cols == 0) {
    CSRI_TRY(csr_matrix_create(ctx, A, D->rows, D->cols, 0, D->value_type, D->location));
    (*A)->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
    return csri_ran(ctx, b, status, CSR_SUCCESS);
  }
  return csri_ran(ctx, b, status, b->convert.from_dense(ctx, D, A));
}

csr_status csr_to_dense(csr_context *ctx, const csr_matrix *A, csr_layout layout, csr_dense **D) {
  CSRI_CHECK_NULL(ctx, D);
  *D = NULL;
  CSRI_CHECK_NULL(ctx, A);
  CSRI_TRY(check_layout(ctx, layout));
  const csri_backend *b;
  csr_status status =
      csri_convert_dispatch(ctx, A, offsetof(csri_backend, convert.to_dense), "CSR to dense", &b);
  CSRI_TRY(status);
  /* Dense matrices always hold values: a pattern becomes F64 with each entry counting 1. */
  csr_value_type type = A->value_type == CSR_F32 ? CSR_F32 : CSR_F64;
  csr_dense *out = NULL;
  CSRI_TRY(csr_dense_create(ctx, &out, A->rows, A->cols, layout, type, A->location));
  /* create zeroes D: entries are added in */
  csr_status st = A->nnz > 0 ? b->convert.to_dense(ctx, A, out) : CSR_SUCCESS;
  if (st < 0) {
    csr_dense_free(&out);
    return st;
  }
  *D = out;
  return csri_ran(ctx, b, status, st);
}
