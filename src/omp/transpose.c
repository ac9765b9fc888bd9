/* SPDX-License-Identifier: BSD-3-Clause */
/* AT = A^T in parallel: group A's entries by column (stable), then gather the values. */
#include "kernels/rows.h"
#include "omp/omp.h"

csr_status csri_omp_transpose(csr_context *ctx, const csr_matrix *A, csr_matrix *AT) {
  int64_t bounds[CSRI_MAX_BLOCKS + 1], bad = A->nnz, *src = NULL;
  int32_t *row_of = NULL; /* row of entry k: AT's column, the group sort's secondary key */
  int th = csri_omp_threads(ctx), nblk = csri_omp_blocks(A->row_offsets, A->rows, th, bounds);
  csr_status st = csri_array_alloc(ctx, (void **)&row_of, A->nnz, sizeof *row_of, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&src, A->nnz, sizeof *src, CSR_HOST, 0);
  if (st < 0)
    goto cleanup;
#pragma omp parallel for num_threads(th) schedule(dynamic, 1) reduction(min : bad)
  for (int b = 0; b < nblk; b++)
    for (int64_t i = bounds[b]; i < bounds[b + 1]; i++)
      for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
        row_of[k] = (int32_t)i;
        if ((A->col_indices[k] < 0 || A->col_indices[k] >= A->cols) && k < bad)
          bad = k;
      }
  if (bad < A->nnz) {
    st = csri_column_error(ctx, A, bad);
    goto cleanup;
  }
  /* Ordering each column group by (row, k) is exactly the stable order of the reference. */
  st = csri_omp_group_sort(ctx, A->nnz, A->col_indices, row_of, A->cols, AT->row_offsets,
                           AT->col_indices, src);
  if (st < 0)
    goto cleanup;
  if (A->value_type == CSR_F64) {
    const double *in = A->values;
    double *out = AT->values;
#pragma omp parallel for num_threads(th)
    for (int64_t p = 0; p < A->nnz; p++)
      out[p] = in[src[p]];
  } else if (A->value_type == CSR_F32) {
    const float *in = A->values;
    float *out = AT->values;
#pragma omp parallel for num_threads(th)
    for (int64_t p = 0; p < A->nnz; p++)
      out[p] = in[src[p]];
  }
cleanup:
  csri_array_free(row_of, CSR_HOST);
  csri_array_free(src, CSR_HOST);
  return st;
}
