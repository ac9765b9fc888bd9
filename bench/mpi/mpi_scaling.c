/* SPDX-License-Identifier: BSD-3-Clause */
/* Distributed SpMV and CG iteration times with libcsr on P ranks, and the copy bandwidth of the
 * same P ranks, for the scaling table of docs/benchmarks.md (bench/mpi/run_scaling.sh runs it
 * with PETSc's counterpart, petsc_scaling.c, on the same matrices).
 *   mpiexec -n P mpi_scaling (--stencil M [--weak] | --file F --copies K) [--reps R] [--iters N]
 * --stencil M: the 27-point stencil on M^3 points (--weak: on M^3 points per rank, the grid's
 * side the cube root of P M^3 rounded); --file F --copies K: K copies of the matrix in F down the
 * diagonal. One CSV line on rank 0:
 *   library,case,ranks,rows,nnz,spmv_seconds,spmv_gbs,cg_iteration_seconds,copy_gbs
 * Times: the median over R repetitions of the slowest rank's time, after a warm-up. */
#include "cases.h"
#include "csr_mpi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, ranks;

static void die(csr_context *ctx, const char *what) {
  if (rank == 0)
    fprintf(stderr, "mpi_scaling: %s: %s\n", what, csr_context_last_message(ctx));
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/* This rank's rows [first, first + count) of the case, as CSR with global columns. */
typedef struct rows {
  int64_t n, first, count;
  int64_t *off, *col;
  double *val;
} rows;

static void stencil_rows(int64_t m, rows *r) {
  r->n = m * m * m;
  r->first = r->n * rank / ranks;
  r->count = r->n * (rank + 1) / ranks - r->first;
  r->off = malloc((size_t)(r->count + 1) * sizeof *r->off);
  r->col = malloc((size_t)r->count * 27 * sizeof *r->col + 8);
  r->val = malloc((size_t)r->count * 27 * sizeof *r->val + 8);
  r->off[0] = 0;
  for (int64_t i = 0; i < r->count; i++)
    r->off[i + 1] =
        r->off[i] + case_stencil_row(m, r->first + i, r->col + r->off[i], r->val + r->off[i]);
}

/* K copies of the file's matrix down the diagonal: rank 0 reads it, every rank gets it. */
static void replica_rows(csr_context *ctx, const char *path, int64_t copies, rows *r) {
  int64_t shape[3] = {0, 0, 0};
  csr_matrix *A = NULL;
  if (rank == 0) {
    if (csr_read_csr(ctx, path, NULL, &A, NULL) < 0)
      die(ctx, path);
    shape[0] = A->rows, shape[1] = A->nnz, shape[2] = A->value_type;
  }
  MPI_Bcast(shape, 3, MPI_INT64_T, 0, MPI_COMM_WORLD);
  int64_t *off = malloc((size_t)(shape[0] + 1) * sizeof *off);
  int32_t *col = malloc((size_t)shape[1] * sizeof *col + 4);
  double *val = malloc((size_t)shape[1] * sizeof *val + 8);
  if (rank == 0) {
    memcpy(off, A->row_offsets, (size_t)(shape[0] + 1) * sizeof *off);
    memcpy(col, A->col_indices, (size_t)shape[1] * sizeof *col);
    for (int64_t k = 0; k < shape[1]; k++)
      val[k] = A->value_type == CSR_F64   ? ((double *)A->values)[k]
               : A->value_type == CSR_F32 ? ((float *)A->values)[k]
                                          : 1.0;
  }
  csr_matrix_free(&A);
  MPI_Bcast(off, (int)shape[0] + 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  MPI_Bcast(col, (int)shape[1], MPI_INT32_T, 0, MPI_COMM_WORLD);
  MPI_Bcast(val, (int)shape[1], MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int64_t n1 = shape[0];
  r->n = n1 * copies;
  r->first = r->n * rank / ranks;
  r->count = r->n * (rank + 1) / ranks - r->first;
  r->off = malloc((size_t)(r->count + 1) * sizeof *r->off);
  r->off[0] = 0;
  for (int64_t i = 0; i < r->count; i++) {
    int64_t g = (r->first + i) % n1;
    r->off[i + 1] = r->off[i] + off[g + 1] - off[g];
  }
  r->col = malloc((size_t)r->off[r->count] * sizeof *r->col + 8);
  r->val = malloc((size_t)r->off[r->count] * sizeof *r->val + 8);
  for (int64_t i = 0; i < r->count; i++) {
    int64_t g = (r->first + i) % n1, c = (r->first + i) / n1, at = r->off[i];
    for (int64_t k = off[g]; k < off[g + 1]; k++, at++) {
      r->col[at] = c * n1 + col[k];
      r->val[at] = val[k];
    }
  }
  free(off);
  free(col);
  free(val);
}

/* The aggregate copy bandwidth of all ranks at once (each its own 64 MiB array). */
static double copy_gbs(int reps) {
  size_t n = (size_t)8 << 20;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), t[64], s;
  for (size_t i = 0; i < n; i++)
    a[i] = (double)i, b[i] = 0.0;
  for (int k = 0; k <= reps; k++) {
    CASE_TIMED(s, memcpy(b, a, n * sizeof *a));
    if (k > 0)
      t[k - 1] = s;
  }
  double seconds = bench_median(t, reps);
  free(a);
  free(b);
  return 2.0 * (double)n * 8.0 * ranks / seconds / 1e9;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  case_options c;
  case_parse(argc, argv, ranks, &c);
  int reps = c.reps, iters = c.iters;
  csr_context *ctx = NULL;
  csr_context_create(&ctx);
  csr_context_set_threads(ctx, 1);
  rows r;
  if (c.file != NULL)
    replica_rows(ctx, c.file, c.copies, &r);
  else
    stencil_rows(c.side, &r);
  csr_dist_matrix *A = NULL;
  if (csr_dist_matrix_from_rows(ctx, MPI_COMM_WORLD, r.n, r.count, r.off, r.col, r.val, CSR_F64,
                                CSR_HOST, &A) < 0)
    die(ctx, "building the matrix");
  free(r.off);
  free(r.col);
  free(r.val);
  csr_dist_vector *x = NULL, *y = NULL, *b = NULL;
  if (csr_dist_vector_create(ctx, A, CSR_DIST_COLS, CSR_F64, CSR_HOST, &x) < 0 ||
      csr_dist_vector_create(ctx, A, CSR_DIST_ROWS, CSR_F64, CSR_HOST, &y) < 0 ||
      csr_dist_vector_create(ctx, A, CSR_DIST_ROWS, CSR_F64, CSR_HOST, &b) < 0)
    die(ctx, "vectors");
  csr_dist_fill(ctx, 1.0, x);
  int64_t rows_total, nnz;
  csr_dist_matrix_size(A, &rows_total, NULL, &nnz);
  double t[64], s;
  for (int k = 0; k <= reps; k++) {
    CASE_TIMED(s, csr_dist_spmv(ctx, 1.0, A, x, 0.0, y));
    if (k > 0)
      t[k - 1] = s;
  }
  double spmv = bench_median(t, reps);
  double bytes = 12.0 * (double)nnz + 8.0 * (double)(rows_total + 1) + 16.0 * (double)rows_total;
  /* CG iterations: b = A 1, x = 0, a tolerance it cannot meet; time / iterations. */
  csr_dist_spmv(ctx, 1.0, A, x, 0.0, b);
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.rtol = 1e-300;
  o.atol = 1e-300;
  o.max_iter = iters;
  csr_solver_info info;
  /* An iteration's cost: the difference of runs of 2N and N iterations, over N (the set-up,
   * the checks and the final residual cancel). */
  int cg_reps = reps / 4 > 0 ? reps / 4 : 1;
  for (int k = 0; k <= cg_reps; k++) {
    double once, twice;
    o.max_iter = iters;
    csr_dist_fill(ctx, 0.0, x);
    CASE_TIMED(once, csr_dist_solve(ctx, A, b, x, &o, &info));
    o.max_iter = 2 * iters;
    csr_dist_fill(ctx, 0.0, x);
    CASE_TIMED(twice, csr_dist_solve(ctx, A, b, x, &o, &info));
    if (k > 0)
      t[k - 1] = (twice - once) / iters;
  }
  double cg = bench_median(t, cg_reps);
  double copy = copy_gbs(reps);
  if (rank == 0)
    printf("libcsr,%s,%d,%lld,%lld,%.6e,%.2f,%.6e,%.2f\n", c.name, ranks, (long long)rows_total,
           (long long)nnz, spmv, bytes / spmv / 1e9, cg, copy);
  csr_dist_vector_free(&x);
  csr_dist_vector_free(&y);
  csr_dist_vector_free(&b);
  csr_dist_matrix_free(&A);
  csr_context_free(&ctx);
  MPI_Finalize();
  return 0;
}
