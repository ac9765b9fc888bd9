/* SPDX-License-Identifier: BSD-3-Clause */
/* AT = A^T by counting sort on columns: scatter rows in order, so each AT row is stable. */
#include "kernels/rows.h"
#include "ref/ref.h"

#include <string.h>

csr_status csri_ref_transpose(csr_context *ctx, const csr_matrix *A, csr_matrix *AT) {
  int64_t *off = AT->row_offsets, *cursor = NULL; /* off arrives zeroed from create */
  for (int64_t k = 0; k < A->nnz; k++) {
    int32_t j = A->col_indices[k];
    if (j < 0 || j >= A->cols)
      return csri_column_error(ctx, A, k);
    off[j + 1]++;
  }
  for (int64_t j = 0; j < A->cols; j++)
    off[j + 1] += off[j];
  CSRI_TRY(csri_array_alloc(ctx, (void **)&cursor, A->cols, sizeof *cursor, CSR_HOST, 0));
  memcpy(cursor, off, (size_t)A->cols * sizeof *cursor);
  size_t vs = csri_value_size(A->value_type);
  /* Rows ascend, so AT's columns ascend in each row; equal ones keep A's stored order. */
  for (int64_t i = 0; i < A->rows; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int64_t p = cursor[A->col_indices[k]]++;
      AT->col_indices[p] = (int32_t)i;
      if (vs > 0)
        memcpy((char *)AT->values + (size_t)p * vs, (const char *)A->values + (size_t)k * vs, vs);
    }
  csri_array_free(cursor, CSR_HOST);
  return CSR_SUCCESS;
}
