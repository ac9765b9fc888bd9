/* SPDX-License-Identifier: BSD-3-Clause */
/* y = alpha*A*x + beta*y, OpenMP: rows split into contiguous parts of equal nnz + rows. */
#include "kernels/packed_layout.h"
#include "kernels/scattered.h"
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

/* Where a kernel reads the columns: A's array, or the packed index (src/kernels/packed_layout.h)
 * of csr_spmv_run's plan. */
typedef struct columns {
  const int32_t *col;
  const int32_t *heads;
  const uint16_t *lo, *hi;
} columns;

/* One row range of one type combination. Each row is summed by one thread in stored order with
 * one accumulator, so the result does not depend on the thread count, the run or where the
 * columns are read from. ACC is double for F64 and float for F32 (the F32 ref sums in double:
 * results differ within float rounding). TERM(k, c) is the product of entry k, of column c;
 * PREFETCH_VALUES(k) prefetches the value stream (nothing for a pattern matrix). */
#define ROWS(name, VT, XT, ACC, TERM, PREFETCH_VALUES)                                             \
  static void name(const int64_t *restrict off, columns ix, const VT *restrict a,                  \
                   const XT *restrict x, XT *restrict y, int64_t r0, int64_t r1, double alpha,     \
                   double beta, int gather) {                                                      \
    (void)a;                                                                                       \
    const int32_t *restrict col = ix.col;                                                          \
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
          sum += TERM(k, col[k]);                                                                  \
        }                                                                                          \
      } else {                                                                                     \
        for (int64_t k = b; k < e; k++)                                                            \
          sum += TERM(k, col[k]);                                                                  \
      }                                                                                            \
      y[i] = (XT)(beta == 0.0 ? alpha * sum : alpha * sum + beta * y[i]);                          \
    }                                                                                              \
  }

/* The same over the packed index: a row's entries chunk by chunk, each chunk's head read once,
 * then its columns head + lo_k, or (escaped) hi_k << 16 | lo_k; the terms in the same order into
 * the same accumulator as ROWS, so the same bits. */
#define PACKED_ROWS(name, VT, XT, ACC, TERM, PREFETCH_VALUES)                                      \
  static void name(const int64_t *restrict off, columns ix, const VT *restrict a,                  \
                   const XT *restrict x, XT *restrict y, int64_t r0, int64_t r1, double alpha,     \
                   double beta, int gather) {                                                      \
    (void)a;                                                                                       \
    (void)gather;                                                                                  \
    const uint16_t *restrict lo = ix.lo;                                                           \
    int64_t end = off[r1];                                                                         \
    for (int64_t i = r0; i < r1; i++) {                                                            \
      int64_t k = off[i], e = off[i + 1];                                                          \
      if (k + AHEAD_BYTES / 2 < end) {                                                             \
        PREFETCH(&lo[k + AHEAD_BYTES / 2]);                                                        \
        PREFETCH_VALUES(k + AHEAD_BYTES / (int64_t)sizeof(VT));                                    \
      }                                                                                            \
      ACC sum = 0;                                                                                 \
      while (k < e) {                                                                              \
        const int64_t c = csri_pack_chunk_of(k), chunk_end = csri_pack_chunk_begin(c + 1);         \
        const int64_t stop = chunk_end < e ? chunk_end : e;                                        \
        const int32_t head = ix.heads[c];                                                          \
        if (head >= 0) {                                                                           \
          for (; k < stop; k++)                                                                    \
            sum += TERM(k, head + (int32_t)lo[k]);                                                 \
        } else {                                                                                   \
          const uint16_t *restrict high =                                                          \
              ix.hi + csri_pack_high_at(head, csri_pack_chunk_begin(c));                           \
          for (; k < stop; k++)                                                                    \
            sum += TERM(k, (int32_t)((uint32_t)high[k & (CSRI_PACK_CHUNK - 1)] << 16 | lo[k]));    \
        }                                                                                          \
      }                                                                                            \
      y[i] = (XT)(beta == 0.0 ? alpha * sum : alpha * sum + beta * y[i]);                          \
    }                                                                                              \
  }
#define PREFETCH_A(k) PREFETCH(&a[k])
#define NO_PREFETCH(k) ((void)0)
#define PRODUCT(k, c) a[k] * x[c]
#define ENTRY(k, c) x[c]
/* The four type combinations, each over plain and packed columns. */
#define ROW_KINDS(ROWS_OF, suffix)                                                                 \
  ROWS_OF(rows_f64##suffix, double, double, double, PRODUCT, PREFETCH_A)                           \
  ROWS_OF(rows_f32##suffix, float, float, float, PRODUCT, PREFETCH_A)                              \
  ROWS_OF(rows_pattern_f64##suffix, void, double, double, ENTRY, NO_PREFETCH)                      \
  ROWS_OF(rows_pattern_f32##suffix, void, float, float, ENTRY, NO_PREFETCH)
ROW_KINDS(ROWS, )
ROW_KINDS(PACKED_ROWS, _packed)

/* 1 when most of A's sampled entries lie far from the diagonal: x is then gathered from all over
 * memory and the gather prefetch pays. */
static int scattered(const csr_matrix *A) {
  return csri_scattered_share(A) > 0.5;
}

/* Rows [r0, r1) of y = alpha*A*x + beta*y, the row kernel of A's types and index form. */
static void rows_of(const csr_matrix *A, const csri_packed *p, const csr_vector *x, csr_vector *y,
                    int64_t r0, int64_t r1, double alpha, double beta, int gather) {
  const int64_t *off = A->row_offsets;
  const columns ix = {A->col_indices, p ? p->heads : NULL, p ? p->lo : NULL, p ? p->hi : NULL};
  if (A->value_type == CSR_F64)
    (p ? rows_f64_packed : rows_f64)(off, ix, A->values, x->data, y->data, r0, r1, alpha, beta,
                                     gather);
  else if (A->value_type == CSR_F32)
    (p ? rows_f32_packed : rows_f32)(off, ix, A->values, x->data, y->data, r0, r1, alpha, beta,
                                     gather);
  else if (x->value_type == CSR_F64)
    (p ? rows_pattern_f64_packed : rows_pattern_f64)(off, ix, NULL, x->data, y->data, r0, r1, alpha,
                                                     beta, gather);
  else
    (p ? rows_pattern_f32_packed : rows_pattern_f32)(off, ix, NULL, x->data, y->data, r0, r1, alpha,
                                                     beta, gather);
}

csr_status csri_omp_spmv(csr_context *ctx, const csri_spmv_plan *plan, double alpha,
                         const csr_matrix *A, const csr_vector *x, double beta, csr_vector *y) {
  (void)ctx;                                                      /* used only by OpenMP clauses */
  const csri_packed *packed = plan != NULL ? plan->packed : NULL; /* one kernel otherwise */
  const int64_t *off = A->row_offsets;
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
    rows_of(A, packed, x, y, r0, r1, alpha, beta, gather);
  }
  return CSR_SUCCESS;
}
