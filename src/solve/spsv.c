/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_spsv: x = alpha T^-1 b with the plan of csr_spsv_analyze; operand checks, alpha == 0, and
 * dispatch to the backends (src/ref/spsv.c, src/omp/spsv.c). */
#include "ops/ops.h"

static csr_status check(csr_context *ctx, const csr_spsv_plan *plan, const csr_vector *b,
                        const csr_vector *x) {
  CSRI_CHECK_NULL(ctx, plan);
  CSRI_TRY(csri_check_vector(ctx, b, "b"));
  CSRI_TRY(csri_check_vector(ctx, x, "x"));
  if (b->n != plan->n || x->n != plan->n)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "csr_spsv: the triangle is %lld x %lld but b has %lld entries and x %lld",
                     (long long)plan->n, (long long)plan->n, (long long)b->n, (long long)x->n);
  if (!csri_matrix_vector_types_fit(plan->value_type, b->value_type, x->value_type))
    return CSRI_FAIL(ctx, CSR_ERR_TYPE_MISMATCH,
                     "csr_spsv: value types A %d, b %d, x %d: need all F64, all F32, or a pattern "
                     "A with b and x both F64 or both F32",
                     (int)plan->value_type, (int)b->value_type, (int)x->value_type);
  if (b->location != x->location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH,
                     "csr_spsv: b and x must both be on the host or both on the device");
  if (x->location != plan->location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH,
                     "csr_spsv: the plan was made for a matrix on the %s, b and x are on the %s",
                     plan->location == CSR_HOST ? "host" : "device",
                     x->location == CSR_HOST ? "host" : "device");
  if (csri_vectors_overlap(b, x)) /* a row would read b entries already overwritten */
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "csr_spsv: b and x overlap in memory");
  return CSR_SUCCESS;
}

csr_status csr_spsv(csr_context *ctx, const csr_spsv_plan *plan, double alpha, const csr_vector *b,
                    csr_vector *x) {
  CSRI_TRY(check(ctx, plan, b, x));
  const csri_backend *be;
  csr_status status = CSRI_DISPATCH(ctx, x->location, solve.spsv, "the triangular solve", &be);
  CSRI_TRY(status);
  if (plan->n == 0)
    return csri_ran(ctx, be, status, CSR_SUCCESS);
  if (alpha == 0.0) /* x = 0 without reading b (so NaN in b does not survive), as csr_spmv */
    return csri_ran(ctx, be, status, be->vector.fill(ctx, 0.0, x));
  return csri_ran(ctx, be, status, be->solve.spsv(ctx, plan, alpha, b, x));
}
