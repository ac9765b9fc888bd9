/* SPDX-License-Identifier: BSD-3-Clause */
/* The messages for bad entries of an object, in one place: the front ends and the backends that
 * find them report them alike. */
#include "core/internal.h"

csr_status csri_column_error(csr_context *ctx, const csr_matrix *A, int64_t k) {
  return csri_column_error_at(ctx, A, k, A->col_indices[k]);
}

csr_status csri_column_error_at(csr_context *ctx, const csr_matrix *A, int64_t k, int32_t col) {
  return CSRI_FAIL(ctx, CSR_ERR_INDEX_OUT_OF_BOUNDS, "entry %lld has column %d outside [0, %lld)",
                   (long long)k, (int)col, (long long)A->cols);
}

csr_status csri_skew_diagonal_error(csr_context *ctx, int64_t k, int32_t j) {
  return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                   "skew-symmetric matrix has a nonzero diagonal entry at (%d, %d) (entry %lld)",
                   (int)j, (int)j, (long long)k);
}

csr_status csri_coo_index_error(csr_context *ctx, const csr_coo *T, int64_t k) {
  return csri_coo_index_error_at(ctx, T, k, T->row_indices[k], T->col_indices[k]);
}

csr_status csri_coo_index_error_at(csr_context *ctx, const csr_coo *T, int64_t k, int32_t row,
                                   int32_t col) {
  return CSRI_FAIL(ctx, CSR_ERR_INDEX_OUT_OF_BOUNDS,
                   "triple %lld at (%d, %d) lies outside the %lld x %lld matrix", (long long)k,
                   (int)row, (int)col, (long long)T->rows, (long long)T->cols);
}

csr_status csri_offsets_error(csr_context *ctx) {
  return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX, "row offsets decrease: a row length is negative");
}
