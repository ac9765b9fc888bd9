/* SPDX-License-Identifier: BSD-3-Clause */
/* y = alpha*A*x + beta*y, serial: each row summed in double, in stored order (the test oracle). */
#include "kernels/packed_layout.h"
#include "ref/ref.h"

/* beta == 0 overwrites: 0*NaN would otherwise keep a NaN of the old y. */
static double combine(double alpha, double sum, double beta, double old) {
  return beta == 0.0 ? alpha * sum : alpha * sum + beta * old;
}

/* Row i of A times x, summed in double in stored order, COLUMN(k) giving entry k's column: one
 * function for plain CSR, one for a packed index (src/kernels/packed_layout.h), so that plain
 * rows pay no test for the packed form. */
#define ROW_SUM(name, COLUMN)                                                                      \
  static double name(const csr_matrix *A, const csri_packed *p, const csr_vector *x, int64_t i) {  \
    (void)p;                                                                                       \
    const int64_t begin = A->row_offsets[i], end = A->row_offsets[i + 1];                          \
    const int32_t *col = A->col_indices;                                                           \
    (void)col;                                                                                     \
    double sum = 0.0;                                                                              \
    if (A->value_type == CSR_F64) {                                                                \
      const double *a = A->values, *xv = x->data;                                                  \
      for (int64_t k = begin; k < end; k++)                                                        \
        sum += a[k] * xv[COLUMN(k)];                                                               \
    } else if (A->value_type == CSR_F32) {                                                         \
      const float *a = A->values, *xv = x->data;                                                   \
      for (int64_t k = begin; k < end; k++)                                                        \
        sum += (double)a[k] * (double)xv[COLUMN(k)];                                               \
    } else if (x->value_type == CSR_F64) { /* pattern: every stored entry is 1 */                  \
      const double *xv = x->data;                                                                  \
      for (int64_t k = begin; k < end; k++)                                                        \
        sum += xv[COLUMN(k)];                                                                      \
    } else {                                                                                       \
      const float *xv = x->data;                                                                   \
      for (int64_t k = begin; k < end; k++)                                                        \
        sum += (double)xv[COLUMN(k)];                                                              \
    }                                                                                              \
    return sum;                                                                                    \
  }
#define PLAIN(k) col[k]
#define PACKED(k) csri_packed_column_at(p->heads, p->lo, p->hi, k)
ROW_SUM(plain_row_sum, PLAIN)
ROW_SUM(packed_row_sum, PACKED)

csr_status csri_ref_spmv(csr_context *ctx, const csri_spmv_plan *plan, double alpha,
                         const csr_matrix *A, const csr_vector *x, double beta, csr_vector *y) {
  (void)ctx;
  const csri_packed *p = plan != NULL ? plan->packed : NULL; /* one kernel: nothing else to plan */
  for (int64_t i = 0; i < A->rows; i++) {
    const double sum = p != NULL ? packed_row_sum(A, p, x, i) : plain_row_sum(A, p, x, i);
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
