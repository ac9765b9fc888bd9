/* SPDX-License-Identifier: BSD-3-Clause */
/* y = alpha*A*x + beta*y: operand checks, empty shapes, dispatch to the backends. */
#include "ops/ops.h"

#include <string.h>

static csr_status check(csr_context *ctx, const csr_matrix *A, const csr_vector *x,
                        const csr_vector *y) {
  CSRI_CHECK_NULL(ctx, A);
  CSRI_TRY(csri_check_vector(ctx, x, "x"));
  CSRI_TRY(csri_check_vector(ctx, y, "y"));
  if (x->n != A->cols || y->n != A->rows)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "A is %lld x %lld but x has %lld entries and y %lld", (long long)A->rows,
                     (long long)A->cols, (long long)x->n, (long long)y->n);
  CSRI_TRY(csri_check_value_type(ctx, A->value_type, 1));
  if (!csri_matrix_vector_types_fit(A->value_type, x->value_type, y->value_type))
    return CSRI_FAIL(ctx, CSR_ERR_TYPE_MISMATCH,
                     "value types A %d, x %d, y %d: need all F64, all F32, or a pattern A "
                     "with x and y both F64 or both F32",
                     (int)A->value_type, (int)x->value_type, (int)y->value_type);
  if (A->location != x->location || A->location != y->location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH,
                     "A, x and y must all be on the host or all on the device");
  if (A->rows > 0 && A->row_offsets == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "A->row_offsets is NULL");
  if (A->nnz > 0 && (A->col_indices == NULL || (A->value_type != CSR_PATTERN && !A->values)))
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "A has nonzeros but no index or value array");
  if (csri_vectors_overlap(x, y)) /* a row would read x entries already overwritten */
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "x and y overlap in memory");
  return CSR_SUCCESS;
}

const csri_spmv_plan *csri_spmv_plan_packed(csri_spmv_plan *plan, const csri_spmv_plan *handed,
                                            const csr_spmv_plan *planned) {
  if (planned == NULL || planned->packed.heads == NULL)
    return handed;
  if (handed == NULL) /* every backend reads a packed index: hand it even a plan-less one */
    memset(plan, 0, sizeof *plan);
  plan->packed = &planned->packed;
  return plan;
}

/* y = alpha*A*x + beta*y on checked operands, the columns from `planned`'s packed index when it
 * holds one. */
static csr_status spmv(csr_context *ctx, double alpha, const csr_matrix *A,
                       const csr_spmv_plan *planned, const csr_vector *x, double beta,
                       csr_vector *y) {
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, A->location, sparse.spmv, "SpMV", &b);
  CSRI_TRY(status);
  /* No product to add: y = beta*y (beta == 0 writes zeros, so NaN in y does not survive). A
   * backend with an SpMV has a scale too. */
  if (alpha == 0.0 || A->rows == 0 || A->nnz == 0)
    return csri_ran(ctx, b, status, b->vector.scale(ctx, beta, y));
  csri_spmv_plan plan;
  const csri_spmv_plan *handed;
  CSRI_TRY(csri_spmv_plan_for(ctx, b, A, &plan, &handed));
  handed = csri_spmv_plan_packed(&plan, handed, planned);
  return csri_ran(ctx, b, status, b->sparse.spmv(ctx, handed, alpha, A, x, beta, y));
}

csr_status csr_spmv(csr_context *ctx, double alpha, const csr_matrix *A, const csr_vector *x,
                    double beta, csr_vector *y) {
  CSRI_TRY(check(ctx, A, x, y));
  return spmv(ctx, alpha, A, NULL, x, beta, y);
}

csr_status csr_spmv_run(csr_context *ctx, const csr_spmv_plan *plan, double alpha,
                        const csr_vector *x, double beta, csr_vector *y) {
  CSRI_CHECK_NULL(ctx, plan);
  CSRI_TRY(check(ctx, plan->A, x, y));
  return spmv(ctx, alpha, plan->A, plan, x, beta, y);
}
