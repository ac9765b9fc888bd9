/* SPDX-License-Identifier: BSD-3-Clause */
/* x . y, sqrt(sum x_i^2), sum |x_i|, max |x_i|: checks and dispatch (all summed in double). */
#include "ops/ops.h"

/* Runs a reduction on the backend for x's location; `which` picks the operation. */
static csr_status reduce(csr_context *ctx, csri_reduction which, const csr_vector *x,
                         const csr_vector *y, double *result) {
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, x->location, vector.reduce, "reduction", &b);
  CSRI_TRY(status);
  return csri_ran(ctx, b, status, b->vector.reduce(ctx, which, x, y, result));
}

csr_status csr_dot(csr_context *ctx, const csr_vector *x, const csr_vector *y, double *result) {
  CSRI_CHECK_NULL(ctx, result);
  CSRI_TRY(csri_check_vector_pair(ctx, x, y));
  return reduce(ctx, CSRI_DOT, x, y, result);
}

static csr_status norm(csr_context *ctx, csri_reduction which, const csr_vector *x,
                       double *result) {
  CSRI_CHECK_NULL(ctx, result);
  CSRI_TRY(csri_check_vector(ctx, x, "x"));
  return reduce(ctx, which, x, NULL, result);
}

csr_status csr_nrm2(csr_context *ctx, const csr_vector *x, double *result) {
  return norm(ctx, CSRI_NRM2, x, result);
}

csr_status csr_nrm1(csr_context *ctx, const csr_vector *x, double *result) {
  return norm(ctx, CSRI_NRM1, x, result);
}

csr_status csr_nrminf(csr_context *ctx, const csr_vector *x, double *result) {
  return norm(ctx, CSRI_NRMINF, x, result);
}
