/* SPDX-License-Identifier: BSD-3-Clause */
/* y = alpha*A*x + beta*y, OpenMP: rows split into contiguous parts of equal nnz + rows. */
#include "omp/omp.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* Software prefetch (GCC / Clang), which never changes a result, only when data arrives:
 *  - streams: once per row, 8 KiB ahead in the value and column arrays. On the 2-core machines
 *    of bench/README.md the hardware prefetcher alone left one thread at 40-45 % of the copy
 *    bandwidth on a 5-point matrix; with this, 55-90 % of it.
 *  - gather: x[col[k + 256]] while at entry k, for matrices whose columns scatter far from the
 *    diagonal (R-MAT: about 1.5x faster); on banded matrices it only costs, so it is off there. */
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)0)
#endif
#define AHEAD_BYTES 8192
#define GATHER_AHEAD 256

/* One row range of one type combination. Each row is summed by one thread in stored order with
 * one accumulator, so the result does not depend on the thread count or the run. ACC is double
 * for F64 and float for F32 (the F32 ref sums in double: results differ within float rounding).
 * PREFETCH_VALUES(k) prefetches the value stream (nothing for a pattern matrix). */
#define ROWS(name, VT, XT, ACC, TERM, PREFETCH_VALUES)                                             \
  static void name(const int64_t *restrict off, const int32_t *restrict col, const VT *restrict a, \
                   const XT *restrict x, XT *restrict y, int64_t r0, int64_t r1, double alpha,     \
                   double beta, int gather) {                                                      \
    (void)a;                                                                                       \
    int64_t end = off[r1];                                                                         \
    for (int64_t i = r0; i < r1; i++) {                                                            \
      int64_t b = off[i], e = off[i + 1];                                                          \
      if (b + AHEAD_BYTES / 4 < end) {                                                             \
        PREFETCH(&col[b + AHEAD_BYTES / 4]);                                                       \
        PREFETCH_VALUES(b + AHEAD_BYTES / (int64_t)sizeof(VT));                                    \
      }                                                                                            \
      ACC sum = 0;                                                                                 \
      if (gather && e + GATHER_AHEAD <= end) {                                                     \
        for (int64_t k = b; k < e; k++) {                                                          \
          PREFETCH(&x[col[k + GATHER_AHEAD]]);                                                     \
          sum += TERM;                                                                             \
        }                                                                                          \
      } else {                                                                                     \
        for (int64_t k = b; k < e; k++)                                                            \
          sum += TERM;                                                                             \
      }                                                                                            \
      y[i] = (XT)(beta == 0.0 ? alpha * sum : alpha * sum + beta * y[i]);                          \
    }                                                                                              \
  }
#define PREFETCH_A(k) PREFETCH(&a[k])
#define NO_PREFETCH(k) ((void)0)
ROWS(rows_f64, double, double, double, a[k] * x[col[k]], PREFETCH_A)
ROWS(rows_f32, float, float, float, a[k] * x[col[k]], PREFETCH_A)
ROWS(rows_pattern_f64, void, double, double, x[col[k]], NO_PREFETCH)
ROWS(rows_pattern_f32, void, float, float, x[col[k]], NO_PREFETCH)

/* 1 when most entries of 64 sampled rows lie more than 2^16 columns (512 KiB of x in F64) from
 * the diagonal: x is then gathered from all over memory and the gather prefetch pays. */
static int scattered(const csr_matrix *A) {
  int64_t far = 0, seen = 0, step = A->rows / 64 > 0 ? A->rows / 64 : 1;
  for (int64_t i = 0; i < A->rows; i += step) {
    int64_t diagonal = (int64_t)((double)i * (double)A->cols / (double)A->rows);
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1] && k < A->row_offsets[i] + 64;
         k++, seen++) {
      int64_t distance = A->col_indices[k] - diagonal;
      far += distance > 65536 || distance < -65536;
    }
  }
  return 2 * far > seen;
}

csr_status csri_omp_spmv(csr_context *ctx, const csri_spmv_plan *plan, double alpha,
                         const csr_matrix *A, const csr_vector *x, double beta, csr_vector *y) {
  (void)plan; /* one kernel: nothing to plan */
  (void)ctx;  /* used only by OpenMP clauses */
  const int64_t *off = A->row_offsets;
  const int32_t *col = A->col_indices;
  int gather = scattered(A);
#pragma omp parallel num_threads(csri_omp_threads(ctx))
  {
    int t = 0, nt = 1;
#ifdef _OPENMP
    t = omp_get_thread_num();
    nt = omp_get_num_threads();
#endif
    int64_t r0 = csri_omp_part_begin(off, A->rows, t, nt),
            r1 = csri_omp_part_begin(off, A->rows, t + 1, nt);
    if (A->value_type == CSR_F64)
      rows_f64(off, col, A->values, x->data, y->data, r0, r1, alpha, beta, gather);
    else if (A->value_type == CSR_F32)
      rows_f32(off, col, A->values, x->data, y->data, r0, r1, alpha, beta, gather);
    else if (x->value_type == CSR_F64)
      rows_pattern_f64(off, col, NULL, x->data, y->data, r0, r1, alpha, beta, gather);
    else
      rows_pattern_f32(off, col, NULL, x->data, y->data, r0, r1, alpha, beta, gather);
  }
  return CSR_SUCCESS;
}
