/* SPDX-License-Identifier: BSD-3-Clause */
/* CG's fused step, serial: the element-wise half over every row, then q' = A p' with the five
 * sums in row order (the row kernels of src/kernels/cg_rows.c); and the Jacobi diagonal
 * d = 1 / diag(A). */
#include "kernels/rows.h"
#include "ref/ref.h"

csr_status csri_ref_cg_step(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A,
                            double alpha, double beta, const csri_cg_vectors *v, double *sums) {
  (void)ctx;
  for (int k = 0; k < CSRI_CG_SUMS; k++)
    sums[k] = 0.0;
  csri_cg_update_rows(alpha, beta, v, 0, A->rows);
  csri_cg_product_rows(A, plan != NULL ? plan->packed : NULL, v, 0, A->rows, sums);
  return CSR_SUCCESS;
}

csr_status csri_ref_cg_update(csr_context *ctx, double alpha, double beta,
                              const csri_cg_vectors *v) {
  (void)ctx;
  csri_cg_update_rows(alpha, beta, v, 0, v->x->n);
  return CSR_SUCCESS;
}

csr_status csri_ref_jacobi(csr_context *ctx, const csr_matrix *A, csr_vector *d,
                           csri_bad_diagonal *bad) {
  (void)ctx;
  bad->row = csri_jacobi_rows(A, d, 0, A->rows, &bad->why, &bad->value);
  return CSR_SUCCESS;
}
