/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_vector: create (zeroed), wrap a user array, free, clone across locations. */
#include "core/internal.h"

static csr_status vector_descriptor(csr_context *ctx, csr_vector **v, int64_t n,
                                    csr_value_type value_type, csr_location location) {
  CSRI_CHECK_NULL(ctx, v);
  *v = NULL;
  if (n < 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "vector length %lld is negative", (long long)n);
  CSRI_TRY(csri_check_value_type(ctx, value_type, 0));
  CSRI_TRY(csri_check_location(ctx, location));
  csr_vector *w = csri_calloc(1, sizeof *w);
  if (w == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "vector descriptor allocation failed");
  w->n = n;
  w->value_type = value_type;
  w->location = location;
  *v = w;
  return CSR_SUCCESS;
}

csr_status csr_vector_create(csr_context *ctx, csr_vector **v, int64_t n, csr_value_type value_type,
                             csr_location location) {
  CSRI_TRY(vector_descriptor(ctx, v, n, value_type, location));
  csr_status s =
      csri_array_alloc(ctx, &(*v)->data, n, csri_value_size(value_type), location, CSRI_ARRAY_ZERO);
  if (s != CSR_SUCCESS) {
    csri_free(*v);
    *v = NULL;
    return s;
  }
  (*v)->owns_data = 1;
  return CSR_SUCCESS;
}

csr_status csr_vector_wrap(csr_context *ctx, csr_vector **v, int64_t n, csr_value_type value_type,
                           csr_location location, void *data) {
  if (v)
    *v = NULL;
  if (data == NULL && n > 0)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "argument 'data' is NULL");
  CSRI_TRY(vector_descriptor(ctx, v, n, value_type, location));
  (*v)->data = data;
  return CSR_SUCCESS;
}

void csr_vector_free(csr_vector **v) {
  if (v == NULL || *v == NULL)
    return;
  if ((*v)->owns_data)
    csri_array_free((*v)->data, (*v)->location);
  csri_free(*v);
  *v = NULL;
}

csr_status csr_vector_clone(csr_context *ctx, const csr_vector *src, csr_vector **dst,
                            csr_location location) {
  CSRI_CHECK_NULL(ctx, dst);
  *dst = NULL;
  CSRI_CHECK_NULL(ctx, src);
  csr_vector *w = NULL;
  CSRI_TRY(vector_descriptor(ctx, &w, src->n, src->value_type, location));
  size_t elem = csri_value_size(src->value_type);
  csr_status s = csri_array_alloc(ctx, &w->data, src->n, elem, location, 0);
  w->owns_data = 1;
  if (s == CSR_SUCCESS)
    s = csri_array_copy(ctx, w->data, location, src->data, src->location, (size_t)src->n * elem);
  if (s != CSR_SUCCESS) {
    csr_vector_free(&w);
    return s;
  }
  *dst = w;
  return CSR_SUCCESS;
}
