/* Dispatch of CG's fused step and of the Jacobi diagonal to the backend where the operands live
 * (the solver has checked them: one location, one value type, matching sizes). */
#include "ops_impl.h"
#include "solver_impl.h"

csr_status csri_cg_step(csr_context *ctx, const csr_matrix *A, double alpha, double beta,
                        const csri_cg_vectors *v, double *sums) {
  csr_backend backend;
  csr_status status = csri_backend_at(ctx, A->location, &backend);
  CSRI_TRY(status);
  if (backend == CSR_BACKEND_CUDA)
    CSRI_TRY(csri_cuda_cg_step(ctx, A, alpha, beta, v, sums));
  else if (backend == CSR_BACKEND_OMP)
    csri_omp_cg_step(ctx, A, alpha, beta, v, sums);
  else
    csri_ref_cg_step(A, alpha, beta, v, sums);
  return status;
}

csr_status csri_jacobi(csr_context *ctx, const csr_matrix *A, csr_vector *d) {
  int why = 0;
  double value = 0.0;
  int64_t row = A->location == CSR_DEVICE ? csri_cuda_jacobi(ctx, A, d, &why, &value)
                                          : csri_ref_jacobi(A, d, &why, &value);
  if (row == -2)
    return csr_context_last_status(ctx) < 0 ? csr_context_last_status(ctx) : CSR_ERR_DEVICE;
  if (row < 0)
    return CSR_SUCCESS;
  /* Rows are counted from 0, as in the API; the Matrix Market file numbers them from 1. */
  if (why == 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                     "PCG (Jacobi): row %lld (0-based; %lld in a Matrix Market file) has no "
                     "diagonal entry: A is not symmetric positive definite",
                     (long long)row, (long long)row + 1);
  if (why == 1)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "PCG (Jacobi): A(%lld,%lld) = %g (0-based)",
                     (long long)row, (long long)row, value);
  return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                   "PCG (Jacobi): A(%lld,%lld) = %g <= 0 (0-based): A is not symmetric positive "
                   "definite",
                   (long long)row, (long long)row, value);
}
