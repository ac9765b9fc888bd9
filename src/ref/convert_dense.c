/* A = the nonzeros of D row by row (exact zeros skipped); D(i, j) = sum of A's (i, j) entries. */
#include "convert_impl.h"

csr_status csri_ref_from_dense(csr_context *ctx, const csr_dense *D, csr_matrix **A) {
  int64_t nnz = 0;
  for (int64_t i = 0; i < D->rows; i++)
    for (int64_t j = 0; j < D->cols; j++)
      nnz += csri_dense_get(D, i, j) != 0.0; /* NaN != 0: kept, as it is not an exact zero */
  csr_matrix *out = NULL;
  CSRI_TRY(csr_matrix_create(ctx, &out, D->rows, D->cols, nnz, D->value_type, CSR_HOST));
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

int64_t csri_to_dense_rows(const csr_matrix *A, csr_dense *D, int64_t r0, int64_t r1) {
  for (int64_t i = r0; i < r1; i++) {
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int64_t j = A->col_indices[k];
      if (j < 0 || j >= A->cols)
        return k;
      int64_t p = D->layout == CSR_ROW_MAJOR ? i * D->ld + j : i + j * D->ld;
      if (D->value_type == CSR_F32) /* A is F32 too: add in float, as stored */
        ((float *)D->data)[p] += ((const float *)A->values)[k];
      else if (A->value_type == CSR_F64)
        ((double *)D->data)[p] += ((const double *)A->values)[k];
      else /* pattern: each stored entry counts as 1 */
        ((double *)D->data)[p] += 1.0;
    }
  }
  return -1;
}

csr_status csri_ref_to_dense(csr_context *ctx, const csr_matrix *A, csr_dense *D) {
  int64_t k = csri_to_dense_rows(A, D, 0, A->rows);
  return k >= 0 ? csri_column_error(ctx, A, k) : CSR_SUCCESS;
}
