/* SPDX-License-Identifier: BSD-3-Clause */
/* Operand checks the front ends share: a vector, a pair of vectors, overlap. */
#include "ops/ops.h"

#include <stdint.h>

csr_status csri_check_vector(csr_context *ctx, const csr_vector *v, const char *name) {
  if (v == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "argument '%s' is NULL", name);
  CSRI_TRY(csri_check_value_type(ctx, v->value_type, 0));
  CSRI_TRY(csri_check_location(ctx, v->location));
  if (v->n < 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "%s has negative length", name);
  if (v->n > 0 && v->data == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "%s->data is NULL", name);
  return CSR_SUCCESS;
}

int csri_vectors_overlap(const csr_vector *x, const csr_vector *y) {
  size_t elem = csri_value_size(x->value_type);
  uintptr_t x0 = (uintptr_t)x->data, x1 = x0 + (size_t)x->n * elem;
  uintptr_t y0 = (uintptr_t)y->data, y1 = y0 + (size_t)y->n * elem;
  return x->n > 0 && y->n > 0 && x0 < y1 && y0 < x1;
}

csr_status csri_check_vector_shapes(csr_context *ctx, const csr_vector *x, const csr_vector *y) {
  CSRI_TRY(csri_check_vector(ctx, x, "x"));
  CSRI_TRY(csri_check_vector(ctx, y, "y"));
  if (x->n != y->n)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH, "x has %lld entries, y %lld", (long long)x->n,
                     (long long)y->n);
  if (x->value_type != y->value_type)
    return CSRI_FAIL(ctx, CSR_ERR_TYPE_MISMATCH, "x and y have different value types");
  /* The same array is fine for element-wise work (y = x, y = a*y + b*y); a shifted one is not. */
  if (x->location == y->location && x->data != y->data && csri_vectors_overlap(x, y))
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "x and y partly overlap in memory");
  return CSR_SUCCESS;
}

csr_status csri_check_vector_pair(csr_context *ctx, const csr_vector *x, const csr_vector *y) {
  CSRI_TRY(csri_check_vector_shapes(ctx, x, y));
  if (x->location != y->location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH, "x and y live in different places");
  return CSR_SUCCESS;
}

int csri_matrix_vector_types_fit(csr_value_type a, csr_value_type x, csr_value_type y) {
  if (x != y || (x != CSR_F64 && x != CSR_F32))
    return 0;
  return a == CSR_PATTERN || a == x; /* a pattern matrix takes either vector type */
}
