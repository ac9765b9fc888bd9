/* SPDX-License-Identifier: BSD-3-Clause */
/* y = alpha*x + beta*y, x = alpha*x, x = alpha, y = x: checks and dispatch. */
#include "ops/ops.h"

csr_status csr_axpby(csr_context *ctx, double alpha, const csr_vector *x, double beta,
                     csr_vector *y) {
  CSRI_TRY(csri_check_vector_pair(ctx, x, y));
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, y->location, vector.axpby, "axpby", &b);
  CSRI_TRY(status);
  /* A zero coefficient drops its term: alpha == 0 ignores x (even NaN), beta == 0 ignores y. */
  if (alpha == 0.0)
    return csri_ran(ctx, b, status, b->vector.scale(ctx, beta, y));
  return csri_ran(ctx, b, status, b->vector.axpby(ctx, alpha, x, beta, y));
}

csr_status csr_axpy(csr_context *ctx, double alpha, const csr_vector *x, csr_vector *y) {
  return csr_axpby(ctx, alpha, x, 1.0, y); /* 1*y is exact: same bits as y + alpha*x */
}

/* x checked, and the backend of an operation on x alone (entry: its member of the table). */
static csr_status on_x(csr_context *ctx, const csr_vector *x, size_t entry, const char *operation,
                       const csri_backend **b) {
  CSRI_TRY(csri_check_vector(ctx, x, "x"));
  return csri_dispatch(ctx, x->location, entry, operation, b);
}

csr_status csr_scale(csr_context *ctx, double alpha, csr_vector *x) {
  const csri_backend *b;
  csr_status status = on_x(ctx, x, offsetof(csri_backend, vector.scale), "scale", &b);
  return status < 0 ? status : csri_ran(ctx, b, status, b->vector.scale(ctx, alpha, x));
}

csr_status csr_fill(csr_context *ctx, double alpha, csr_vector *x) {
  const csri_backend *b;
  csr_status status = on_x(ctx, x, offsetof(csri_backend, vector.fill), "fill", &b);
  return status < 0 ? status : csri_ran(ctx, b, status, b->vector.fill(ctx, alpha, x));
}

csr_status csr_copy(csr_context *ctx, const csr_vector *x, csr_vector *y) {
  CSRI_TRY(csri_check_vector_shapes(ctx, x, y));
  /* Device operands: a transfer (host <-> device, or device -> device) by the CUDA backend's
   * copy engine, whatever CPU backend the context names. */
  if (x->location == CSR_DEVICE || y->location == CSR_DEVICE) {
    size_t bytes = (size_t)x->n * csri_value_size(x->value_type);
    CSRI_TRY(csri_array_copy(ctx, y->data, y->location, x->data, x->location, bytes));
    csri_set_last_backend(ctx, CSR_BACKEND_CUDA);
    return CSR_SUCCESS;
  }
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, y->location, vector.copy, "copy", &b);
  CSRI_TRY(status);
  return csri_ran(ctx, b, status, b->vector.copy(ctx, x, y));
}
