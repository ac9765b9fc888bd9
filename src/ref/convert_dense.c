/* SPDX-License-Identifier: BSD-3-Clause */
/* A = the nonzeros of D row by row (exact zeros skipped); D(i, j) = sum of A's (i, j) entries. */
#include "kernels/rows.h"
#include "ref/ref.h"

csr_status csri_ref_from_dense(csr_context *ctx, const csr_dense *D, csr_matrix **A) {
  int64_t nnz = 0;
  for (int64_t i = 0; i < D->rows; i++)
    for (int64_t j = 0; j < D->cols; j++)
      nnz += csri_dense_get(D, i, j) != 0.0; /* NaN != 0: kept, as it is not an exact zero */
  csr_matrix *out = NULL;
  CSRI_TRY(csri_matrix_create(ctx, &out, D->rows, D->cols, nnz, D->value_type, CSR_HOST));
  int64_t k = 0;
  for (int64_t i = 0; i < D->rows; i++) {
    for (int64_t j = 0; j < D->cols; j++) {
      double v = csri_dense_get(D, i, j);
      if (v != 0.0) {
        out->col_indices[k] = (int32_t)j;
        csri_value_put(out->values, out->value_type, k++, v);
      }
    }
    out->row_offsets[i + 1] = k;
  }
  out->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  *A = out;
  return CSR_SUCCESS;
}

csr_status csri_ref_to_dense(csr_context *ctx, const csr_matrix *A, csr_dense *D) {
  int64_t k = csri_to_dense_rows(A, D, 0, A->rows);
  return k >= 0 ? csri_column_error(ctx, A, k) : CSR_SUCCESS;
}
