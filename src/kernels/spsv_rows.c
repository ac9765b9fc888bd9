/* SPDX-License-Identifier: BSD-3-Clause */
/* The rows of a sparse triangular solve (src/core/backend.h, csri_spsv_fn), shared by the
 * reference backend (every row in substitution order) and the OpenMP backend (the rows of a level
 * at once): one row's arithmetic, written once, is why the two give the same bits. */
#include "kernels/rows.h"

/* Row i: s = the sum of its entries' a_ij x_j in stored order, in double; then
 * x_i = (alpha b_i - s) / a_ii (unit: alpha b_i - s), rounded once to x's type T. The loops are
 * plain sums (no reassociation: ISO C without fast-math), the same code whoever calls it. */
#define SOLVE_ROWS(T)                                                                              \
  do {                                                                                             \
    const T *restrict bv = b->data;                                                                \
    T *restrict xv = x->data;                                                                      \
    for (int64_t t = 0; t < count; t++) {                                                          \
      int64_t i = rows ? rows[t] : backward ? count - 1 - t : t;                                   \
      double s = 0.0;                                                                              \
      if (values)                                                                                  \
        for (int64_t k = off[i]; k < off[i + 1]; k++)                                              \
          s += values[k] * (double)xv[cols[k]];                                                    \
      else                                                                                         \
        for (int64_t k = off[i]; k < off[i + 1]; k++)                                              \
          s += (double)xv[cols[k]];                                                                \
      double r = alpha * (double)bv[i] - s;                                                        \
      xv[i] = (T)(diag ? r / diag[i] : r);                                                         \
    }                                                                                              \
  } while (0)

void csri_spsv_rows(const csr_spsv_plan *p, double alpha, const csr_vector *b, csr_vector *x,
                    const int32_t *rows, int64_t count) {
  const int64_t *restrict off = p->offsets;
  const int32_t *restrict cols = p->cols;
  const double *restrict values = p->values, *restrict diag = p->diag;
  int backward = p->triangle == CSR_UPPER;
  if (x->value_type == CSR_F64)
    SOLVE_ROWS(double);
  else
    SOLVE_ROWS(float);
}
