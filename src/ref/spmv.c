/* SPDX-License-Identifier: BSD-3-Clause */
/* y = alpha*A*x + beta*y, serial: each row summed in double, in stored order (the test oracle). */
#include "ref/ref.h"

/* beta == 0 overwrites: 0*NaN would otherwise keep a NaN of the old y. */
static double combine(double alpha, double sum, double beta, double old) {
  return beta == 0.0 ? alpha * sum : alpha * sum + beta * old;
}

csr_status csri_ref_spmv(csr_context *ctx, const csri_spmv_plan *plan, double alpha,
                         const csr_matrix *A, const csr_vector *x, double beta, csr_vector *y) {
  (void)plan; /* one kernel: nothing to plan */
  (void)ctx;
  const int64_t *off = A->row_offsets;
  const int32_t *col = A->col_indices;
  for (int64_t i = 0; i < A->rows; i++) {
    double sum = 0.0;
    if (A->value_type == CSR_F64) {
      const double *a = A->values, *xv = x->data;
      for (int64_t k = off[i]; k < off[i + 1]; k++)
        sum += a[k] * xv[col[k]];
    } else if (A->value_type == CSR_F32) {
      const float *a = A->values, *xv = x->data;
      for (int64_t k = off[i]; k < off[i + 1]; k++)
        sum += (double)a[k] * (double)xv[col[k]];
    } else if (x->value_type == CSR_F64) { /* pattern: every stored entry is 1 */
      const double *xv = x->data;
      for (int64_t k = off[i]; k < off[i + 1]; k++)
        sum += xv[col[k]];
    } else {
      const float *xv = x->data;
      for (int64_t k = off[i]; k < off[i + 1]; k++)
        sum += (double)xv[col[k]];
    }
    if (y->value_type == CSR_F64) {
      double *yv = y->data;
      yv[i] = combine(alpha, sum, beta, yv[i]);
    } else {
      float *yv = y->data;
      yv[i] = (float)combine(alpha, sum, beta, (double)yv[i]);
    }
  }
  return CSR_SUCCESS;
}
