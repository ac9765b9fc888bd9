/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_dense: create (zeroed), wrap a user array, free, deep copy across locations. */
#include "core/internal.h"

/* Elements spanned by a rows x cols array with leading dimension ld, overflow-checked. */
static csr_status dense_extent(csr_context *ctx, int64_t rows, int64_t cols, int64_t ld,
                               csr_layout layout, int64_t *count) {
  int64_t inner = layout == CSR_ROW_MAJOR ? cols : rows;
  int64_t outer = layout == CSR_ROW_MAJOR ? rows : cols;
  if (ld < inner || ld < 1)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "leading dimension %lld is below %lld",
                     (long long)ld, (long long)(inner > 1 ? inner : 1));
  if (outer == 0 || inner == 0) {
    *count = 0;
    return CSR_SUCCESS;
  }
  if (outer - 1 > (INT64_MAX - inner) / ld)
    return CSRI_FAIL(ctx, CSR_ERR_OVERFLOW, "dense %lld x %lld (ld %lld) overflows 64 bits",
                     (long long)rows, (long long)cols, (long long)ld);
  *count = (outer - 1) * ld + inner;
  return CSR_SUCCESS;
}

static csr_status dense_descriptor(csr_context *ctx, csr_dense **D, int64_t rows, int64_t cols,
                                   int64_t ld, csr_layout layout, csr_value_type value_type,
                                   csr_location location, int64_t *count) {
  CSRI_CHECK_NULL(ctx, D);
  *D = NULL;
  CSRI_TRY(csri_check_shape(ctx, rows, cols, 0));
  CSRI_TRY(csri_check_value_type(ctx, value_type, 0));
  CSRI_TRY(csri_check_location(ctx, location));
  if (layout != CSR_ROW_MAJOR && layout != CSR_COL_MAJOR)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "layout %d is not row- or column-major",
                     (int)layout);
  CSRI_TRY(dense_extent(ctx, rows, cols, ld, layout, count));
  csr_dense *M = csri_calloc(1, sizeof *M);
  if (M == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "dense descriptor allocation failed");
  M->rows = rows;
  M->cols = cols;
  M->ld = ld;
  M->layout = layout;
  M->value_type = value_type;
  M->location = location;
  *D = M;
  return CSR_SUCCESS;
}

csr_status csr_dense_create(csr_context *ctx, csr_dense **D, int64_t rows, int64_t cols,
                            csr_layout layout, csr_value_type value_type, csr_location location) {
  int64_t inner = layout == CSR_ROW_MAJOR ? cols : rows, count = 0;
  CSRI_TRY(dense_descriptor(ctx, D, rows, cols, inner > 1 ? inner : 1, layout, value_type, location,
                            &count));
  csr_status s = csri_array_alloc(ctx, &(*D)->data, count, csri_value_size(value_type), location,
                                  CSRI_ARRAY_ZERO);
  if (s != CSR_SUCCESS) {
    csri_free(*D);
    *D = NULL;
    return s;
  }
  (*D)->owns_data = 1;
  return CSR_SUCCESS;
}

csr_status csr_dense_wrap(csr_context *ctx, csr_dense **D, int64_t rows, int64_t cols, int64_t ld,
                          csr_layout layout, csr_value_type value_type, csr_location location,
                          void *data) {
  int64_t count = 0;
  if (D)
    *D = NULL;
  if (data == NULL && rows > 0 && cols > 0)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "argument 'data' is NULL");
  CSRI_TRY(dense_descriptor(ctx, D, rows, cols, ld, layout, value_type, location, &count));
  (*D)->data = data;
  return CSR_SUCCESS;
}

void csr_dense_free(csr_dense **D) {
  if (D == NULL || *D == NULL)
    return;
  if ((*D)->owns_data)
    csri_array_free((*D)->data, (*D)->location);
  csri_free(*D);
  *D = NULL;
}

csr_status csr_dense_copy(csr_context *ctx, const csr_dense *src, csr_dense **dst,
                          csr_location location) {
  CSRI_CHECK_NULL(ctx, dst);
  *dst = NULL;
  CSRI_CHECK_NULL(ctx, src);
  int64_t count = 0;
  CSRI_TRY(dense_extent(ctx, src->rows, src->cols, src->ld, src->layout, &count));
  csr_dense *M = NULL;
  CSRI_TRY(dense_descriptor(ctx, &M, src->rows, src->cols, src->ld, src->layout, src->value_type,
                            location, &count));
  size_t elem = csri_value_size(src->value_type);
  csr_status s = csri_array_alloc(ctx, &M->data, count, elem, location, 0);
  M->owns_data = 1;
  if (s == CSR_SUCCESS) /* the same ld: the padding travels too, one contiguous copy */
    s = csri_array_copy(ctx, M->data, location, src->data, src->location, (size_t)count * elem);
  if (s != CSR_SUCCESS) {
    csr_dense_free(&M);
    return s;
  }
  *dst = M;
  return CSR_SUCCESS;
}
