/* y = alpha*x + beta*y, x = alpha*x, x = alpha, y = x: checks and dispatch. */
#include "ops_impl.h"

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

csr_status csri_check_host(csr_context *ctx, csr_location location, const char *what) {
  if (location == CSR_DEVICE)
    return CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED,
                     "%s on device operands is not available: copy them to the host", what);
  return CSR_SUCCESS;
}

/* Shape, type and location agreement; the location test comes last so copy can reuse it. */
static csr_status check_pair_shape(csr_context *ctx, const csr_vector *x, const csr_vector *y) {
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
  CSRI_TRY(check_pair_shape(ctx, x, y));
  if (x->location != y->location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH, "x and y live in different places");
  return CSR_SUCCESS;
}

csr_status csr_axpby(csr_context *ctx, double alpha, const csr_vector *x, double beta,
                     csr_vector *y) {
  CSRI_TRY(csri_check_vector_pair(ctx, x, y));
  csr_backend backend;
  csr_status status = csri_backend_at(ctx, y->location, &backend);
  CSRI_TRY(status);
  /* A zero coefficient drops its term: alpha == 0 ignores x (even NaN), beta == 0 ignores y. */
  if (backend == CSR_BACKEND_CUDA) {
    CSRI_TRY(alpha == 0.0 ? csri_cuda_scale(ctx, beta, y)
                          : csri_cuda_axpby(ctx, alpha, x, beta, y));
  } else if (backend == CSR_BACKEND_OMP) {
    if (alpha == 0.0)
      csri_omp_scale(ctx, beta, y);
    else
      csri_omp_axpby(ctx, alpha, x, beta, y);
  } else {
    if (alpha == 0.0)
      csri_ref_scale(beta, y);
    else
      csri_ref_axpby(alpha, x, beta, y);
  }
  csri_set_last_backend(ctx, backend);
  return status;
}

csr_status csr_axpy(csr_context *ctx, double alpha, const csr_vector *x, csr_vector *y) {
  return csr_axpby(ctx, alpha, x, 1.0, y); /* 1*y is exact: same bits as y + alpha*x */
}

csr_status csr_scale(csr_context *ctx, double alpha, csr_vector *x) {
  CSRI_TRY(csri_check_vector(ctx, x, "x"));
  csr_backend backend;
  csr_status status = csri_backend_at(ctx, x->location, &backend);
  CSRI_TRY(status);
  if (backend == CSR_BACKEND_CUDA)
    CSRI_TRY(csri_cuda_scale(ctx, alpha, x));
  else if (backend == CSR_BACKEND_OMP)
    csri_omp_scale(ctx, alpha, x);
  else
    csri_ref_scale(alpha, x);
  csri_set_last_backend(ctx, backend);
  return status;
}

csr_status csr_fill(csr_context *ctx, double alpha, csr_vector *x) {
  CSRI_TRY(csri_check_vector(ctx, x, "x"));
  csr_backend backend;
  csr_status status = csri_backend_at(ctx, x->location, &backend);
  CSRI_TRY(status);
  if (backend == CSR_BACKEND_CUDA)
    CSRI_TRY(csri_cuda_fill(ctx, alpha, x));
  else if (backend == CSR_BACKEND_OMP)
    csri_omp_fill(ctx, alpha, x);
  else
    csri_ref_fill(alpha, x);
  csri_set_last_backend(ctx, backend);
  return status;
}

csr_status csr_copy(csr_context *ctx, const csr_vector *x, csr_vector *y) {
  CSRI_TRY(check_pair_shape(ctx, x, y));
  if (x->location == CSR_DEVICE || y->location == CSR_DEVICE) { /* a transfer: CUDA backend */
    size_t bytes = (size_t)x->n * csri_value_size(x->value_type);
    CSRI_TRY(csri_array_copy(ctx, y->data, y->location, x->data, x->location, bytes));
    csri_set_last_backend(ctx, CSR_BACKEND_CUDA);
    return CSR_SUCCESS;
  }
  csr_backend backend;
  csr_status status = csri_backend_at(ctx, CSR_HOST, &backend);
  if (backend == CSR_BACKEND_OMP)
    csri_omp_copy(ctx, x, y);
  else
    csri_ref_copy(x, y);
  csri_set_last_backend(ctx, backend);
  return status;
}
