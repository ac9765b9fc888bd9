/* SPDX-License-Identifier: BSD-3-Clause */
/* Reordering on the OpenMP backend: the reference's passes split over threads. Every output
 * element is written by one thread from values that do not depend on the split (a gathered row,
 * a count, the least position naming a column), so results equal the reference's bit for bit. */
#include "kernels/rows.h"
#include "omp/omp.h"

/* The first entry in stored order whose column lies outside [0, cols), or nnz. */
static int64_t first_bad_column(const csr_matrix *A, int th) {
  int64_t bad = A->nnz;
#pragma omp parallel for num_threads(th) reduction(min : bad)
  for (int64_t k = 0; k < A->nnz; k++)
    if ((A->col_indices[k] < 0 || A->col_indices[k] >= A->cols) && k < bad)
      bad = k;
  return bad;
}

csr_status csri_omp_permute_rows(csr_context *ctx, const csr_matrix *A, const int32_t *rows,
                                 const int32_t *cols, csr_matrix *B) {
  const int th = csri_omp_threads(ctx);
  const int64_t bad = first_bad_column(A, th);
  if (bad < A->nnz)
    return csri_column_error(ctx, A, bad);
  int64_t *off = B->row_offsets;
  off[0] = 0;
#pragma omp parallel for num_threads(th)
  for (int64_t i = 0; i < A->rows; i++) {
    const int64_t from = rows ? rows[i] : i;
    off[i + 1] = A->row_offsets[from + 1] - A->row_offsets[from];
  }
  csri_omp_scan_i64(off + 1, A->rows, th);
#pragma omp parallel for num_threads(th) schedule(dynamic, 256)
  for (int64_t i = 0; i < A->rows; i++)
    csri_copy_row_renamed(A, rows ? rows[i] : i, cols, B, off[i]);
  return CSR_SUCCESS;
}

csr_status csri_omp_gather(csr_context *ctx, const int32_t *index, const csr_vector *x,
                           csr_vector *y) {
  const int th = csri_omp_threads(ctx);
  if (x->value_type == CSR_F64) {
    const double *in = x->data;
    double *out = y->data;
#pragma omp parallel for num_threads(th)
    for (int64_t i = 0; i < y->n; i++)
      out[i] = in[index[i]];
  } else {
    const float *in = x->data;
    float *out = y->data;
#pragma omp parallel for num_threads(th)
    for (int64_t i = 0; i < y->n; i++)
      out[i] = in[index[i]];
  }
  return CSR_SUCCESS;
}

csr_status csri_omp_invert(csr_context *ctx, const int32_t *p, int64_t n, int32_t *inverse) {
  const int th = csri_omp_threads(ctx);
#pragma omp parallel for num_threads(th)
  for (int64_t k = 0; k < n; k++)
    inverse[p[k]] = (int32_t)k;
  return CSR_SUCCESS;
}

/* *p = min(*p, v), atomically (the GCC/Clang builtins: OpenMP's atomic compare is too new for
 * the compilers libcsr supports). */
static void atomic_min_i64(int64_t *p, int64_t v) {
  int64_t seen = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v < seen &&
         !__atomic_compare_exchange_n(p, &seen, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}

/* One array per order: APPEARANCE reads only the first positions, DEGREE and HUB only the counts
 * (the reference computes both in one serial pass). */
csr_status csri_omp_order_keys(csr_context *ctx, const csr_matrix *A, csri_order which,
                               uint64_t *keys, int32_t *index, int *bits) {
  const int th = csri_omp_threads(ctx);
  const int64_t bad = first_bad_column(A, th), nnz = A->nnz, cols = A->cols;
  if (bad < nnz)
    return csri_column_error(ctx, A, bad);
  const int appearance = which == CSRI_ORDER_APPEARANCE;
  int64_t *use = NULL, max_count = 0; /* first positions, or counts */
  CSRI_TRY(csri_array_alloc(ctx, (void **)&use, cols, sizeof *use, CSR_HOST, 0));
#pragma omp parallel for num_threads(th)
  for (int64_t j = 0; j < cols; j++)
    use[j] = appearance ? nnz : 0;
#pragma omp parallel for num_threads(th) schedule(static)
  for (int64_t k = 0; k < nnz; k++) {
    const int32_t j = A->col_indices[k];
    if (appearance) {
      atomic_min_i64(&use[j], k);
    } else {
#pragma omp atomic
      use[j]++;
    }
  }
  if (!appearance) {
#pragma omp parallel for num_threads(th) reduction(max : max_count)
    for (int64_t j = 0; j < cols; j++)
      max_count = use[j] > max_count ? use[j] : max_count;
  }
#pragma omp parallel for num_threads(th)
  for (int64_t j = 0; j < cols; j++) {
    keys[j] = csri_column_order_key(which, appearance ? 0 : use[j], appearance ? use[j] : nnz,
                                    max_count, nnz, cols);
    index[j] = (int32_t)j;
  }
  *bits = csri_column_order_key_bits(which, max_count, nnz);
  csri_array_free(use, CSR_HOST);
  return CSR_SUCCESS;
}
