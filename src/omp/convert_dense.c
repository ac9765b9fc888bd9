/* SPDX-License-Identifier: BSD-3-Clause */
/* A = the nonzeros of D, D = A as dense: in parallel over blocks of rows. */
#include "kernels/rows.h"
#include "omp/omp.h"

/* counts[i + 1] = nonzeros of row i, i in [r0, r1). Column-major storage is walked column by
 * column over the block's rows, so each thread reads contiguous runs. */
static void count_rows(const csr_dense *D, int64_t r0, int64_t r1, int64_t *counts) {
  for (int64_t i = r0; i < r1; i++)
    counts[i + 1] = 0;
  if (D->layout == CSR_ROW_MAJOR) {
    for (int64_t i = r0; i < r1; i++)
      for (int64_t j = 0; j < D->cols; j++)
        counts[i + 1] += csri_dense_get(D, i, j) != 0.0;
  } else {
    for (int64_t j = 0; j < D->cols; j++)
      for (int64_t i = r0; i < r1; i++)
        counts[i + 1] += csri_dense_get(D, i, j) != 0.0;
  }
}

static void emit(const csr_dense *D, int64_t i, int64_t j, int64_t *cursor, csr_matrix *A) {
  double v = csri_dense_get(D, i, j);
  if (v != 0.0) {
    int64_t p = cursor[i]++;
    A->col_indices[p] = (int32_t)j;
    csri_value_put(A->values, A->value_type, p, v);
  }
}

/* Fills rows [r0, r1) of A; cursor[i] starts at row i's offset and advances. j ascends in both
 * walks, so the columns come out sorted. */
static void fill_rows(const csr_dense *D, int64_t r0, int64_t r1, int64_t *cursor, csr_matrix *A) {
  if (D->layout == CSR_ROW_MAJOR) {
    for (int64_t i = r0; i < r1; i++)
      for (int64_t j = 0; j < D->cols; j++)
        emit(D, i, j, cursor, A);
  } else {
    for (int64_t j = 0; j < D->cols; j++)
      for (int64_t i = r0; i < r1; i++)
        emit(D, i, j, cursor, A);
  }
}

csr_status csri_omp_from_dense(csr_context *ctx, const csr_dense *D, csr_matrix **A) {
  int64_t bounds[CSRI_MAX_BLOCKS + 1], *off = NULL;
  int th = csri_omp_threads(ctx), nblk = csri_omp_blocks(NULL, D->rows, th, bounds);
  CSRI_TRY(csri_array_alloc(ctx, (void **)&off, D->rows + 1, sizeof *off, CSR_HOST, 0));
#pragma omp parallel for num_threads(th) schedule(dynamic, 1)
  for (int b = 0; b < nblk; b++)
    count_rows(D, bounds[b], bounds[b + 1], off);
  off[0] = 0;
  csri_omp_scan_i64(off + 1, D->rows, th);
  csr_matrix *out = NULL;
  csr_status st =
      csri_matrix_create(ctx, &out, D->rows, D->cols, off[D->rows], D->value_type, CSR_HOST);
  if (st >= 0) {
#pragma omp parallel for num_threads(th) schedule(dynamic, 1)
    for (int b = 0; b < nblk; b++) { /* publish the block's offsets, then use them as cursors */
      for (int64_t i = bounds[b]; i < bounds[b + 1]; i++)
        out->row_offsets[i] = off[i];
      fill_rows(D, bounds[b], bounds[b + 1], off, out);
    }
    out->row_offsets[D->rows] = out->nnz;
    out->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
    *A = out;
  }
  csri_array_free(off, CSR_HOST);
  return st < 0 ? st : CSR_SUCCESS;
}

csr_status csri_omp_to_dense(csr_context *ctx, const csr_matrix *A, csr_dense *D) {
  int64_t bounds[CSRI_MAX_BLOCKS + 1], bad = A->nnz;
  int th = csri_omp_threads(ctx), nblk = csri_omp_blocks(A->row_offsets, A->rows, th, bounds);
  /* Each block owns whole rows of D, so no two threads add to one element. */
#pragma omp parallel for num_threads(th) schedule(dynamic, 1) reduction(min : bad)
  for (int b = 0; b < nblk; b++) {
    int64_t k = csri_to_dense_rows(A, D, bounds[b], bounds[b + 1]);
    if (k >= 0 && k < bad)
      bad = k;
  }
  return bad < A->nnz ? csri_column_error(ctx, A, bad) : CSR_SUCCESS;
}
