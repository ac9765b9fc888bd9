/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_matrix_wrap: a matrix over the caller's CSR arrays (scipy's, CuPy's, a solver's), its
 * nonzeros used in place; 32-bit row offsets widened into an array the matrix owns. */
#include "core/backend.h"

/* The end offsets of the caller's array: first = offsets[0], last = offsets[rows]. */
static csr_status end_offsets(csr_context *ctx, const void *offsets, csr_index_width width,
                              int64_t rows, csr_location location, int64_t *first, int64_t *last) {
  const size_t bytes = width == CSR_INDEX_32 ? sizeof(int32_t) : sizeof(int64_t);
  const char *base = offsets;
  union {
    int32_t i32;
    int64_t i64;
  } ends[2];
  CSRI_TRY(csri_array_copy(ctx, &ends[0], CSR_HOST, base, location, bytes));
  CSRI_TRY(csri_array_copy(ctx, &ends[1], CSR_HOST, base + (size_t)rows * bytes, location, bytes));
  *first = width == CSR_INDEX_32 ? ends[0].i32 : ends[0].i64;
  *last = width == CSR_INDEX_32 ? ends[1].i32 : ends[1].i64;
  return CSR_SUCCESS;
}

/* rows + 1 int64 offsets at `location` from the caller's 32-bit ones. */
static csr_status widened_offsets(csr_context *ctx, const int32_t *src, int64_t rows,
                                  csr_location location, int64_t **dst) {
  CSRI_TRY(csri_array_alloc(ctx, (void **)dst, rows + 1, sizeof(int64_t), location, 0));
  if (location == CSR_HOST) {
    for (int64_t i = 0; i <= rows; i++)
      (*dst)[i] = src[i];
    return CSR_SUCCESS;
  }
  csr_status s = csri_backend_of(CSR_BACKEND_CUDA)->device.widen(ctx, *dst, src, rows + 1);
  if (s < 0) {
    csri_array_free(*dst, location);
    *dst = NULL;
  }
  return s;
}

csr_status csr_matrix_wrap(csr_context *ctx, csr_matrix **A, int64_t rows, int64_t cols,
                           int64_t nnz, const void *row_offsets, csr_index_width offset_width,
                           const int32_t *col_indices, const void *values,
                           csr_value_type value_type, csr_location location, unsigned flags) {
  CSRI_CHECK_NULL(ctx, A);
  *A = NULL;
  CSRI_TRY(csri_check_shape(ctx, rows, cols, nnz));
  CSRI_TRY(csri_check_value_type(ctx, value_type, 1));
  CSRI_TRY(csri_check_location(ctx, location));
  if (offset_width != CSR_INDEX_32 && offset_width != CSR_INDEX_64)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "row offsets of %d bits: libcsr takes 32 (CSR_INDEX_32) or 64 "
                     "(CSR_INDEX_64)",
                     (int)offset_width);
  if (offset_width == CSR_INDEX_32 && nnz > INT32_MAX)
    return CSRI_FAIL(ctx, CSR_ERR_OVERFLOW,
                     "%lld entries do not fit 32-bit row offsets (at most 2147483647)",
                     (long long)nnz);
  if (flags & ~(unsigned)(CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES))
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "flags 0x%x: only CSR_FLAG_SORTED and CSR_FLAG_NO_DUPLICATES are known",
                     flags);
  CSRI_CHECK_NULL(ctx, row_offsets);
  if (nnz > 0) {
    CSRI_CHECK_NULL(ctx, col_indices);
    if (value_type != CSR_PATTERN)
      CSRI_CHECK_NULL(ctx, values);
  }
  if (location == CSR_DEVICE && csri_backend_of(CSR_BACKEND_CUDA) == NULL)
    return csri_not_compiled(ctx);
  int64_t first = 0, last = 0;
  CSRI_TRY(end_offsets(ctx, row_offsets, offset_width, rows, location, &first, &last));
  if (first != 0 || last != nnz)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                     "row offsets run from %lld to %lld: a matrix of %lld entries needs 0 to %lld",
                     (long long)first, (long long)last, (long long)nnz, (long long)nnz);

  csr_matrix *M = csri_calloc(1, sizeof *M);
  if (M == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "matrix descriptor allocation failed");
  *M = (csr_matrix){.rows = rows,
                    .cols = cols,
                    .nnz = nnz,
                    .col_indices = (int32_t *)col_indices, /* read, never written */
                    .values = value_type == CSR_PATTERN ? NULL : (void *)values,
                    .value_type = value_type,
                    .location = location,
                    .flags = flags,
                    .serial = csri_matrix_serial(),
                    .borrowed = CSR_BORROWED_INDICES | CSR_BORROWED_VALUES};
  if (offset_width == CSR_INDEX_64) {
    M->row_offsets = (int64_t *)row_offsets;
    M->borrowed |= CSR_BORROWED_OFFSETS;
  } else {
    csr_status s = widened_offsets(ctx, row_offsets, rows, location, &M->row_offsets);
    if (s < 0) {
      csri_free(M);
      return s;
    }
  }
  *A = M;
  return CSR_SUCCESS;
}
