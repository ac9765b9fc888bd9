/* SPDX-License-Identifier: BSD-3-Clause */
/* y = alpha*A*x + beta*y across ranks: the halo exchange overlapped with the interior rows.
 *   post receives, pack and send  ->  y_int = alpha*A_int*x + beta*y_int  ->  wait  ->
 *   y_bnd = alpha*A_bnd*[x_own; x_ghost] + beta*y_bnd
 * Both products are csr_spmv on this rank's parts, so each row is summed by the single-process
 * kernel in its stored order. */
#include "dist/dist.h"

static csr_status check(csr_context *ctx, const csr_dist_matrix *A, const csr_dist_vector *x,
                        const csr_dist_vector *y) {
  if (A == NULL || x == NULL || y == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "SpMV: A, x and y must not be NULL");
  if (!csri_dist_layout_same(x->layout, A->cols) || !csri_dist_layout_same(y->layout, A->rows))
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "SpMV: x must be laid out like A's columns and y like its rows (A is %lld x "
                     "%lld; x has %lld entries, y %lld, or another split or communicator)",
                     (long long)A->global_rows, (long long)A->global_cols, (long long)x->layout->n,
                     (long long)y->layout->n);
  if (x->location != A->location || y->location != A->location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH, "SpMV: A, x and y live in different places");
  if (x->capacity < A->cols->count + A->halo.ghosts)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "SpMV: x has no room for A's %lld ghost entries: make it with "
                     "csr_dist_vector_create from A",
                     (long long)A->halo.ghosts);
  return CSR_SUCCESS;
}

/* The product without the argument agreement (the solvers call it with checked operands). The
 * halo is always completed, whatever the local products return, so that no rank is left waiting;
 * an MPI call that fails ends the program anyway (MPI's default error handler). */
csr_status csri_dist_spmv(csr_context *ctx, double alpha, const csr_dist_matrix *A,
                          const csr_dist_vector *x, double beta, csr_dist_vector *y) {
  csr_dist_matrix *a = (csr_dist_matrix *)A;
  double t0 = MPI_Wtime();
  csr_status status = csri_dist_halo_start(ctx, A, x);
  double t1 = MPI_Wtime();
  int64_t interior = A->interior->rows, own = A->rows->count;
  csr_vector xv = csri_dist_view(x, 0, A->cols->count + A->halo.ghosts);
  csr_vector y_int = csri_dist_view(y, 0, interior), y_bnd = csri_dist_view(y, interior, own);
  csr_status product = csr_spmv(ctx, alpha, A->interior, &xv, beta, &y_int);
  double t2 = MPI_Wtime();
  csr_status finish = csri_dist_halo_finish(ctx, A, x); /* every request was posted */
  finish = status < 0 ? status : finish;
  double t3 = MPI_Wtime();
  if (product >= 0)
    product = csr_spmv(ctx, alpha, A->boundary, &xv, beta, &y_bnd);
  a->comm_seconds += (t1 - t0) + (t3 - t2);
  return finish < 0 ? finish : product;
}

csr_status csr_dist_spmv(csr_context *ctx, double alpha, const csr_dist_matrix *A,
                         const csr_dist_vector *x, double beta, csr_dist_vector *y) {
  MPI_Comm comm = A ? A->rows->comm : x ? x->layout->comm : y ? y->layout->comm : MPI_COMM_SELF;
  CSRI_TRY(csri_dist_agree(ctx, comm, check(ctx, A, x, y)));
  csr_status status = csri_dist_spmv(ctx, alpha, A, x, beta, y);
  if (A->location == CSR_HOST && status >= 0)
    return status; /* a host product that started cannot fail: nothing to agree on */
  return csri_dist_agree(ctx, comm, status);
}
