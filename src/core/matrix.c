/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_matrix: create, free, deep copy (also across host and device). */
#include "core/internal.h"

/* The serial of the next matrix: unique in the process, so that a cache keyed by it never takes
 * a new matrix for a freed one that lay at the same addresses. */
static _Atomic uint64_t next_serial = 1;

uint64_t csri_matrix_serial(void) {
  return next_serial++;
}

/* offsets_flags: the row offsets' csri_array_alloc flags; the other arrays get them less
 * CSRI_ARRAY_ZERO. */
static csr_status create(csr_context *ctx, csr_matrix **A, int64_t rows, int64_t cols, int64_t nnz,
                         csr_value_type value_type, csr_location location, int offsets_flags) {
  CSRI_CHECK_NULL(ctx, A);
  *A = NULL;
  CSRI_TRY(csri_check_shape(ctx, rows, cols, nnz));
  CSRI_TRY(csri_check_value_type(ctx, value_type, 1));
  CSRI_TRY(csri_check_location(ctx, location));
  csr_matrix *M = csri_calloc(1, sizeof *M);
  if (M == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "matrix descriptor allocation failed");
  M->rows = rows;
  M->cols = cols;
  M->nnz = nnz;
  M->value_type = value_type;
  M->location = location;
  M->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES; /* true of the empty structure */
  M->serial = csri_matrix_serial();
  const int flags = offsets_flags & ~CSRI_ARRAY_ZERO;
  csr_status s = csri_array_alloc(ctx, (void **)&M->row_offsets, rows + 1, sizeof(int64_t),
                                  location, offsets_flags);
  if (s == CSR_SUCCESS)
    s = csri_array_alloc(ctx, (void **)&M->col_indices, nnz, sizeof(int32_t), location, flags);
  if (s == CSR_SUCCESS && value_type != CSR_PATTERN)
    s = csri_array_alloc(ctx, &M->values, nnz, csri_value_size(value_type), location, flags);
  if (s != CSR_SUCCESS) {
    csri_matrix_free(&M);
    return s;
  }
  *A = M;
  return CSR_SUCCESS;
}

csr_status csri_matrix_create(csr_context *ctx, csr_matrix **A, int64_t rows, int64_t cols,
                              int64_t nnz, csr_value_type value_type, csr_location location) {
  return create(ctx, A, rows, cols, nnz, value_type, location, CSRI_ARRAY_ZERO);
}

csr_status csr_matrix_create(csr_context *ctx, csr_matrix **A, int64_t rows, int64_t cols,
                             int64_t nnz, csr_value_type value_type, csr_location location) {
  return csri_matrix_create(ctx, A, rows, cols, nnz, value_type, location);
}

csr_status csri_matrix_create_unset(csr_context *ctx, csr_matrix **A, int64_t rows, int64_t cols,
                                    int64_t nnz, csr_value_type value_type, csr_location location) {
  return create(ctx, A, rows, cols, nnz, value_type, location, CSRI_ARRAY_ORDERED);
}

void csr_matrix_free(csr_matrix **A) {
  csri_matrix_free(A);
}

void csri_matrix_free(csr_matrix **A) {
  if (A == NULL || *A == NULL)
    return;
  const unsigned borrowed = (*A)->borrowed;
  if (!(borrowed & CSR_BORROWED_OFFSETS))
    csri_array_free((*A)->row_offsets, (*A)->location);
  if (!(borrowed & CSR_BORROWED_INDICES))
    csri_array_free((*A)->col_indices, (*A)->location);
  if (!(borrowed & CSR_BORROWED_VALUES))
    csri_array_free((*A)->values, (*A)->location);
  csri_free(*A);
  *A = NULL;
}

csr_status csr_matrix_copy(csr_context *ctx, const csr_matrix *src, csr_matrix **dst,
                           csr_location location) {
  CSRI_CHECK_NULL(ctx, dst);
  *dst = NULL;
  CSRI_CHECK_NULL(ctx, src);
  csr_matrix *M = NULL;
  CSRI_TRY(csr_matrix_create(ctx, &M, src->rows, src->cols, src->nnz, src->value_type, location));
  /* rows + 1 and nnz were checked by create, so these byte counts cannot overflow. */
  size_t offset_bytes = (size_t)(src->rows + 1) * sizeof(int64_t);
  size_t index_bytes = (size_t)src->nnz * sizeof(int32_t);
  size_t value_bytes = (size_t)src->nnz * csri_value_size(src->value_type);
  csr_status s =
      csri_array_copy(ctx, M->row_offsets, location, src->row_offsets, src->location, offset_bytes);
  if (s == CSR_SUCCESS)
    s = csri_array_copy(ctx, M->col_indices, location, src->col_indices, src->location,
                        index_bytes);
  if (s == CSR_SUCCESS)
    s = csri_array_copy(ctx, M->values, location, src->values, src->location, value_bytes);
  if (s != CSR_SUCCESS) {
    csri_matrix_free(&M);
    return s;
  }
  M->flags = src->flags;
  *dst = M;
  return CSR_SUCCESS;
}
