/* SPDX-License-Identifier: BSD-3-Clause */
/* Reordering on the reference backend: the rows of P_r A gathered with columns renamed, vector
 * gathers, inverses, and the counting orders' keys (src/kernels/order_keys.h), all in one pass
 * in index order. */
#include "kernels/rows.h"
#include "ref/ref.h"

csr_status csri_ref_permute_rows(csr_context *ctx, const csr_matrix *A, const int32_t *rows,
                                 const int32_t *cols, csr_matrix *B) {
  for (int64_t k = 0; k < A->nnz; k++)
    if (A->col_indices[k] < 0 || A->col_indices[k] >= A->cols)
      return csri_column_error(ctx, A, k);
  B->row_offsets[0] = 0;
  for (int64_t i = 0; i < A->rows; i++) {
    const int64_t from = rows ? rows[i] : i;
    csri_copy_row_renamed(A, from, cols, B, B->row_offsets[i]);
    B->row_offsets[i + 1] = B->row_offsets[i] + A->row_offsets[from + 1] - A->row_offsets[from];
  }
  return CSR_SUCCESS;
}

csr_status csri_ref_gather(csr_context *ctx, const int32_t *index, const csr_vector *x,
                           csr_vector *y) {
  (void)ctx;
  if (x->value_type == CSR_F64)
    for (int64_t i = 0; i < y->n; i++)
      ((double *)y->data)[i] = ((const double *)x->data)[index[i]];
  else
    for (int64_t i = 0; i < y->n; i++)
      ((float *)y->data)[i] = ((const float *)x->data)[index[i]];
  return CSR_SUCCESS;
}

csr_status csri_ref_invert(csr_context *ctx, const int32_t *p, int64_t n, int32_t *inverse) {
  (void)ctx;
  for (int64_t k = 0; k < n; k++)
    inverse[p[k]] = (int32_t)k;
  return CSR_SUCCESS;
}

csr_status csri_ref_order_keys(csr_context *ctx, const csr_matrix *A, csri_order which,
                               uint64_t *keys, int32_t *index, int *bits) {
  int64_t *count = NULL, *first = NULL, max_count = 0;
  csr_status status = CSR_SUCCESS;
  for (int64_t k = 0; k < A->nnz && status >= 0; k++)
    if (A->col_indices[k] < 0 || A->col_indices[k] >= A->cols)
      status = csri_column_error(ctx, A, k);
  if (status >= 0)
    status =
        csri_array_alloc(ctx, (void **)&count, A->cols, sizeof *count, CSR_HOST, CSRI_ARRAY_ZERO);
  if (status >= 0)
    status = csri_array_alloc(ctx, (void **)&first, A->cols, sizeof *first, CSR_HOST, 0);
  if (status >= 0) {
    for (int64_t j = 0; j < A->cols; j++)
      first[j] = A->nnz;
    for (int64_t k = 0; k < A->nnz; k++) {
      const int32_t j = A->col_indices[k];
      if (count[j]++ == 0)
        first[j] = k;
    }
    for (int64_t j = 0; j < A->cols; j++)
      max_count = count[j] > max_count ? count[j] : max_count;
    for (int64_t j = 0; j < A->cols; j++) {
      keys[j] = csri_column_order_key(which, count[j], first[j], max_count, A->nnz, A->cols);
      index[j] = (int32_t)j;
    }
    *bits = csri_column_order_key_bits(which, max_count, A->nnz);
  }
  csri_array_free(count, CSR_HOST);
  csri_array_free(first, CSR_HOST);
  return status;
}
