/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_coo: create, free, deep copy (also across host and device). */
#include "core/internal.h"

csr_status csr_coo_create(csr_context *ctx, csr_coo **T, int64_t rows, int64_t cols, int64_t nnz,
                          csr_value_type value_type, csr_location location) {
  CSRI_CHECK_NULL(ctx, T);
  *T = NULL;
  CSRI_TRY(csri_check_shape(ctx, rows, cols, nnz));
  CSRI_TRY(csri_check_value_type(ctx, value_type, 1));
  CSRI_TRY(csri_check_location(ctx, location));
  csr_coo *M = csri_calloc(1, sizeof *M);
  if (M == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "COO descriptor allocation failed");
  M->rows = rows;
  M->cols = cols;
  M->nnz = nnz;
  M->value_type = value_type;
  M->location = location;
  csr_status s = csri_array_alloc(ctx, (void **)&M->row_indices, nnz, sizeof(int32_t), location, 0);
  if (s == CSR_SUCCESS)
    s = csri_array_alloc(ctx, (void **)&M->col_indices, nnz, sizeof(int32_t), location, 0);
  if (s == CSR_SUCCESS && value_type != CSR_PATTERN)
    s = csri_array_alloc(ctx, &M->values, nnz, csri_value_size(value_type), location, 0);
  if (s != CSR_SUCCESS) {
    csr_coo_free(&M);
    return s;
  }
  *T = M;
  return CSR_SUCCESS;
}

void csr_coo_free(csr_coo **T) {
  if (T == NULL || *T == NULL)
    return;
  csri_array_free((*T)->row_indices, (*T)->location);
  csri_array_free((*T)->col_indices, (*T)->location);
  csri_array_free((*T)->values, (*T)->location);
  csri_free(*T);
  *T = NULL;
}

csr_status csr_coo_copy(csr_context *ctx, const csr_coo *src, csr_coo **dst,
                        csr_location location) {
  CSRI_CHECK_NULL(ctx, dst);
  *dst = NULL;
  CSRI_CHECK_NULL(ctx, src);
  csr_coo *M = NULL;
  CSRI_TRY(csr_coo_create(ctx, &M, src->rows, src->cols, src->nnz, src->value_type, location));
  size_t index_bytes = (size_t)src->nnz * sizeof(int32_t);
  size_t value_bytes = (size_t)src->nnz * csri_value_size(src->value_type);
  csr_status s =
      csri_array_copy(ctx, M->row_indices, location, src->row_indices, src->location, index_bytes);
  if (s == CSR_SUCCESS)
    s = csri_array_copy(ctx, M->col_indices, location, src->col_indices, src->location,
                        index_bytes);
  if (s == CSR_SUCCESS)
    s = csri_array_copy(ctx, M->values, location, src->values, src->location, value_bytes);
  if (s != CSR_SUCCESS) {
    csr_coo_free(&M);
    return s;
  }
  M->flags = src->flags;
  *dst = M;
  return CSR_SUCCESS;
}
