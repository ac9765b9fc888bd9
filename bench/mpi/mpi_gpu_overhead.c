/* SPDX-License-Identifier: BSD-3-Clause */
/* What the distributed path costs on a GPU rank: SpMV and a CG iteration through csr_dist_* on a
 * device matrix, against csr_spmv and csr_solve on the same matrix as one csr_matrix on the same
 * GPU, same run. Meant for one rank (the distributed path then exchanges nothing, and what is
 * left is its own overhead: the split into interior and boundary parts, the agreement, the exact
 * sums); with P ranks sharing the GPU, rank 0 times the single-GPU calls on the gathered matrix.
 *   mpiexec -n 1 mpi_gpu_overhead (--stencil M | --file F --copies K) [--reps R] [--iters N]
 * One CSV line on rank 0:
 *   case,ranks,rows,nnz,spmv_single_s,spmv_dist_s,spmv_ratio,cg_single_s,cg_dist_s,cg_ratio
 * Times: medians over R repetitions after a warm-up; an SpMV time is a batch of 20 products
 * ended by one synchronising reduction, over 20; a CG iteration is the difference of runs of 2N
 * and N iterations, over N (set-up, checks and the final residual cancel). */
#include "cases.h"
#include "csr_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BATCH = 20 };

static int rank, ranks;

static void die(csr_context *ctx, const char *what) {
  fprintf(stderr, "mpi_gpu_overhead: rank %d: %s: %s\n", rank, what, csr_context_last_message(ctx));
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static void ok(csr_context *ctx, csr_status s, const char *what) {
  if (s < 0)
    die(ctx, what);
}

static double now(void) {
  return MPI_Wtime();
}

/* The stencil's rows of this rank, global columns (as mpi_scaling.c builds them). */
static csr_dist_matrix *stencil(csr_context *ctx, int64_t m) {
  int64_t n = m * m * m, first = n * rank / ranks, count = n * (rank + 1) / ranks - first;
  int64_t *off = malloc((size_t)(count + 1) * sizeof *off);
  int64_t *col = malloc((size_t)count * 27 * sizeof *col + 8);
  double *val = malloc((size_t)count * 27 * sizeof *val + 8);
  off[0] = 0;
  for (int64_t i = 0; i < count; i++)
    off[i + 1] = off[i] + case_stencil_row(m, first + i, col + off[i], val + off[i]);
  csr_dist_matrix *A = NULL;
  ok(ctx,
     csr_dist_matrix_from_rows(ctx, MPI_COMM_WORLD, n, count, off, col, val, CSR_F64, CSR_DEVICE,
                               &A),
     "building the matrix");
  free(off);
  free(col);
  free(val);
  return A;
}

/* Seconds of one CG iteration from runs of N and 2N iterations. */
typedef csr_status (*cg_run)(csr_context *ctx, void *self, int iters);

static double cg_iteration(csr_context *ctx, void *self, cg_run run, int iters, int reps) {
  double t[64];
  for (int k = 0; k <= reps; k++) {
    double t0 = now();
    ok(ctx, run(ctx, self, iters), "CG");
    double once = now() - t0;
    t0 = now();
    ok(ctx, run(ctx, self, 2 * iters), "CG");
    double twice = now() - t0;
    if (k > 0)
      t[k - 1] = (twice - once) / iters;
  }
  return bench_median(t, reps);
}

typedef struct dist_cg {
  csr_dist_matrix *A;
  csr_dist_vector *b, *x;
} dist_cg;

typedef struct single_cg {
  csr_matrix *A;
  csr_vector *b, *x;
} single_cg;

static void options(csr_solver_options *o, int iters) {
  csr_solver_options_init(o);
  o->rtol = 1e-300; /* a tolerance no run meets: every run takes its iterations */
  o->atol = 1e-300;
  o->max_iter = iters;
}

static csr_status run_dist(csr_context *ctx, void *self, int iters) {
  dist_cg *c = self;
  csr_solver_options o;
  options(&o, iters);
  csr_solver_info info;
  csr_status s = csr_dist_fill(ctx, 0.0, c->x);
  return s < 0 ? s : csr_dist_solve(ctx, c->A, c->b, c->x, &o, &info);
}

static csr_status run_single(csr_context *ctx, void *self, int iters) {
  single_cg *c = self;
  csr_solver_options o;
  options(&o, iters);
  csr_solver_info info;
  csr_status s = csr_fill(ctx, 0.0, c->x);
  return s < 0 ? s : csr_solve(ctx, c->A, c->b, c->x, &o, &info);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  case_options c;
  case_parse(argc, argv, ranks, &c);
  if (c.file != NULL) {
    if (rank == 0)
      fprintf(stderr, "mpi_gpu_overhead: --stencil M only\n");
    MPI_Finalize();
    return 2;
  }
  csr_context *ctx = NULL;
  csr_context_create(&ctx);
  ok(ctx, csr_dist_select_device(ctx, MPI_COMM_WORLD, NULL), "choosing a GPU");
  csr_dist_matrix *A = stencil(ctx, c.side);
  int64_t rows, nnz;
  csr_dist_matrix_size(A, &rows, NULL, &nnz);
  dist_cg d = {A, NULL, NULL};
  csr_dist_vector *x = NULL, *y = NULL;
  ok(ctx, csr_dist_vector_create(ctx, A, CSR_DIST_COLS, CSR_F64, CSR_DEVICE, &x), "vectors");
  ok(ctx, csr_dist_vector_create(ctx, A, CSR_DIST_ROWS, CSR_F64, CSR_DEVICE, &y), "vectors");
  ok(ctx, csr_dist_vector_create(ctx, A, CSR_DIST_ROWS, CSR_F64, CSR_DEVICE, &d.b), "vectors");
  ok(ctx, csr_dist_vector_create(ctx, A, CSR_DIST_COLS, CSR_F64, CSR_DEVICE, &d.x), "vectors");
  ok(ctx, csr_dist_fill(ctx, 1.0, x), "fill");
  ok(ctx, csr_dist_spmv(ctx, 1.0, A, x, 0.0, d.b), "b = A 1");

  /* The same matrix and vectors as single-GPU objects on rank 0. */
  csr_matrix *global = NULL;
  ok(ctx, csr_dist_matrix_gather(ctx, A, 0, &global), "gathering A");
  single_cg s = {NULL, NULL, NULL};
  csr_vector *xs = NULL, *ys = NULL;
  if (rank == 0) {
    ok(ctx, csr_matrix_copy(ctx, global, &s.A, CSR_DEVICE), "A to the device");
    ok(ctx, csr_vector_create(ctx, &xs, rows, CSR_F64, CSR_DEVICE), "vectors");
    ok(ctx, csr_vector_create(ctx, &ys, rows, CSR_F64, CSR_DEVICE), "vectors");
    ok(ctx, csr_vector_create(ctx, &s.b, rows, CSR_F64, CSR_DEVICE), "vectors");
    ok(ctx, csr_vector_create(ctx, &s.x, rows, CSR_F64, CSR_DEVICE), "vectors");
    ok(ctx, csr_fill(ctx, 1.0, xs), "fill");
    ok(ctx, csr_spmv(ctx, 1.0, s.A, xs, 0.0, s.b), "b = A 1");
  }
  csr_matrix_free(&global);

  double t[64], dist_spmv, single_spmv = 0.0, sink;
  for (int k = 0; k <= c.reps; k++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now();
    for (int j = 0; j < BATCH; j++)
      ok(ctx, csr_dist_spmv(ctx, 1.0, A, x, 0.0, y), "SpMV");
    ok(ctx, csr_dist_nrminf(ctx, y, &sink), "SpMV");
    if (k > 0)
      t[k - 1] = (now() - t0) / BATCH;
  }
  dist_spmv = bench_median(t, c.reps);
  if (rank == 0) {
    for (int k = 0; k <= c.reps; k++) {
      double t0 = now();
      for (int j = 0; j < BATCH; j++)
        ok(ctx, csr_spmv(ctx, 1.0, s.A, xs, 0.0, ys), "SpMV");
      ok(ctx, csr_nrminf(ctx, ys, &sink), "SpMV");
      if (k > 0)
        t[k - 1] = (now() - t0) / BATCH;
    }
    single_spmv = bench_median(t, c.reps);
  }
  int cg_reps = c.reps / 4 > 0 ? c.reps / 4 : 1;
  double dist_cg_s = cg_iteration(ctx, &d, run_dist, c.iters, cg_reps), single_cg_s = 0.0;
  if (rank == 0)
    single_cg_s = cg_iteration(ctx, &s, run_single, c.iters, cg_reps);
  if (rank == 0)
    printf("%s,%d,%lld,%lld,%.6e,%.6e,%.3f,%.6e,%.6e,%.3f\n", c.name, ranks, (long long)rows,
           (long long)nnz, single_spmv, dist_spmv, dist_spmv / single_spmv, single_cg_s, dist_cg_s,
           dist_cg_s / single_cg_s);
  csr_vector_free(&xs);
  csr_vector_free(&ys);
  csr_vector_free(&s.b);
  csr_vector_free(&s.x);
  csr_matrix_free(&s.A);
  csr_dist_vector_free(&x);
  csr_dist_vector_free(&y);
  csr_dist_vector_free(&d.b);
  csr_dist_vector_free(&d.x);
  csr_dist_matrix_free(&A);
  csr_context_free(&ctx);
  MPI_Finalize();
  return 0;
}
