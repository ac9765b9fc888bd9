/* SPDX-License-Identifier: BSD-3-Clause */
/* Dispatch of CG's fused step, of its element-wise half alone and of the Jacobi diagonal to the
 * backend where the operands live (the solver has checked them: one location, one value type,
 * matching sizes). */
#include "solve/solver.h"

csr_status csri_cg_step(csr_context *ctx, const csr_spmv_plan *planned, const csr_matrix *A,
                        double alpha, double beta, const csri_cg_vectors *v, double *sums) {
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, A->location, solve.cg_step, "CG", &b);
  CSRI_TRY(status);
  csri_spmv_plan plan;
  const csri_spmv_plan *handed;
  CSRI_TRY(csri_spmv_plan_for(ctx, b, A, &plan, &handed));
  handed = csri_spmv_plan_packed(&plan, handed, planned);
  return csri_ran(ctx, b, status, b->solve.cg_step(ctx, handed, A, alpha, beta, v, sums));
}

csr_status csri_cg_update(csr_context *ctx, double alpha, double beta, const csri_cg_vectors *v) {
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, v->x->location, solve.cg_update, "CG", &b);
  CSRI_TRY(status);
  return csri_ran(ctx, b, status, b->solve.cg_update(ctx, alpha, beta, v));
}

csr_status csri_jacobi(csr_context *ctx, const csr_matrix *A, csr_vector *d) {
  const csri_backend *b;
  CSRI_TRY(CSRI_DISPATCH(ctx, A->location, solve.jacobi, "Jacobi preconditioning", &b));
  csri_bad_diagonal bad = {-1, 0, 0.0};
  CSRI_TRY(b->solve.jacobi(ctx, A, d, &bad));
  long long row = (long long)bad.row;
  if (row < 0)
    return CSR_SUCCESS;
  /* Rows are counted from 0, as in the API; the Matrix Market file numbers them from 1. */
  if (bad.why == 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                     "PCG (Jacobi): row %lld (0-based; %lld in a Matrix Market file) has no "
                     "diagonal entry: A is not symmetric positive definite",
                     row, row + 1);
  if (bad.why == 1)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "PCG (Jacobi): A(%lld,%lld) = %g (0-based)", row,
                     row, bad.value);
  return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                   "PCG (Jacobi): A(%lld,%lld) = %g <= 0 (0-based): A is not symmetric positive "
                   "definite",
                   row, row, bad.value);
}
