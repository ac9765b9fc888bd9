/* SPDX-License-Identifier: BSD-3-Clause */
/* The converters' shared check of a CSR operand, and their dispatch (src/ops/ops.h). */
#include "ops/ops.h"

csr_status csri_convert_check_csr(csr_context *ctx, const csri_backend *b, const csr_matrix *A) {
  CSRI_TRY(csri_check_value_type(ctx, A->value_type, 1));
  CSRI_TRY(csri_check_shape(ctx, A->rows, A->cols, A->nnz));
  if (A->row_offsets == NULL ||
      (A->nnz > 0 && (A->col_indices == NULL || (A->value_type != CSR_PATTERN && !A->values))))
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "matrix with %lld entries lacks an array",
                     (long long)A->nnz);
  csri_csr_findings f;
  csri_csr_findings_init(&f);
  if (A->location == CSR_DEVICE) { /* the dispatch chose the CUDA backend, which checks */
    CSRI_TRY(b->sparse.check_csr(ctx, A, 0, &f));
  } else {
    const int64_t *off = A->row_offsets;
    f.first_offset = off[0];
    f.last_offset = off[A->rows];
    /* Monotone offsets make the rows partition [0, nnz): every backend relies on it. */
    int64_t bad = A->rows;
#pragma omp parallel for if (csri_host_backend(ctx) == CSR_BACKEND_OMP)                            \
    num_threads(csri_omp_threads(ctx)) reduction(min                                               \
                                                 : bad)
    for (int64_t i = 0; i < A->rows; i++)
      if (off[i + 1] < off[i] && i < bad)
        bad = i;
    f.decreasing_row = bad < A->rows ? bad : -1;
  }
  if (f.first_offset != 0 || f.last_offset != A->nnz)
    return CSRI_FAIL(
        ctx, CSR_ERR_INVALID_MATRIX,
        "row_offsets[0] = %lld and row_offsets[rows] = %lld, expected 0 and nnz = %lld",
        (long long)f.first_offset, (long long)f.last_offset, (long long)A->nnz);
  if (f.decreasing_row >= 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX, "row_offsets decrease after row %lld",
                     (long long)f.decreasing_row);
  return CSR_SUCCESS;
}

csr_status csri_convert_dispatch(csr_context *ctx, const csr_matrix *A, size_t entry,
                                 const char *operation, const csri_backend **b) {
  csr_status status = csri_dispatch(ctx, A->location, entry, operation, b);
  CSRI_TRY(status);
  CSRI_TRY(csri_convert_check_csr(ctx, *b, A));
  return status;
}
