/* SPDX-License-Identifier: BSD-3-Clause */
/* What reordering buys a CPU SpMV: y = B x with B = P A P' for each csr_reorder method, against
 * y = A x, in one run, on the OpenMP backend.
 *
 * A is the matrix of each file, or for a graph (an edge list, or --pull) its pull graph A^T (the
 * SpMV of a PageRank iteration), square, with random nonzero fp64 values. --relabel first gives
 * A's vertices random labels (seeded): how graphs often arrive. Per method: the time to compute
 * the order (csr_reorder) and to apply it (csr_permute), and the SpMV time, each the median of
 * --reps runs after a warm-up; the ratio is A's SpMV time over B's (above 1: the order pays).
 * Usage: reorder_cpu [--reps R] [--relabel] [--pull] [--methods a,b,...] [--csv PATH] FILE...
 *   defaults: --reps 20, every method but none and auto. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include "bench_clock.h"
#include "bench_random.h"
#include "csr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static csr_context *ctx;
static int reps = 20;

static void die(const char *what) {
  fprintf(stderr, "reorder_cpu: %s: %s\n", what, csr_context_last_error(ctx));
  exit(1);
}
#define OK(call)                                                                                   \
  do {                                                                                             \
    if ((call) < 0)                                                                                \
      die(#call);                                                                                  \
  } while (0)

/* Median seconds of y = A x over reps runs, after a warm-up. */
static double spmv_seconds(const csr_matrix *A, const csr_vector *x, csr_vector *y) {
  double *t = malloc((size_t)reps * sizeof *t);
  OK(csr_spmv(ctx, 1.0, A, x, 0.0, y));
  for (int r = 0; r < reps; r++) {
    double began = bench_now();
    OK(csr_spmv(ctx, 1.0, A, x, 0.0, y));
    t[r] = bench_now() - began;
  }
  double m = bench_median(t, reps);
  free(t);
  return m;
}

/* A with random nonzero values in [-1, 1), F64 (a pattern gets values). */
static csr_matrix *with_values(csr_matrix *A, bench_rng *rng) {
  csr_matrix *B = NULL;
  OK(csr_matrix_create(ctx, &B, A->rows, A->cols, A->nnz, CSR_F64, CSR_HOST));
  memcpy(B->row_offsets, A->row_offsets, (size_t)(A->rows + 1) * sizeof(int64_t));
  memcpy(B->col_indices, A->col_indices, (size_t)A->nnz * sizeof(int32_t));
  for (int64_t k = 0; k < A->nnz; k++) {
    double v = 2.0 * bench_unit(bench_random(rng)) - 1.0;
    ((double *)B->values)[k] = v != 0.0 ? v : 0.5;
  }
  B->flags = A->flags;
  csr_matrix_free(&A);
  return B;
}

/* P A P' with P a random permutation (seeded). */
static csr_matrix *relabelled(csr_matrix *A, bench_rng *rng) {
  int32_t *p = malloc((size_t)A->rows * sizeof *p);
  for (int64_t i = 0; i < A->rows; i++)
    p[i] = (int32_t)i;
  for (int64_t i = A->rows - 1; i > 0; i--) {
    int64_t j = (int64_t)(bench_random(rng) % (uint64_t)(i + 1));
    int32_t t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  csr_permutation *P = NULL;
  csr_matrix *B = NULL;
  OK(csr_permutation_create(ctx, &P, A->rows, p, CSR_HOST));
  OK(csr_permute(ctx, A, P, P, &B));
  csr_permutation_free(&P);
  csr_matrix_free(&A);
  free(p);
  return B;
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

int main(int argc, char **argv) {
  int relabel = 0, pull = 0;
  const char *csv_path = NULL, *methods = "rcm,degree,hub,appearance";
  OK(csr_context_create(&ctx));
  OK(csr_context_set_backend(ctx, CSR_BACKEND_OMP));
  FILE *csv = NULL;
  const char **files = malloc((size_t)argc * sizeof *files);
  int nfiles = 0;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--reps") && a + 1 < argc)
      reps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--relabel"))
      relabel = 1;
    else if (!strcmp(argv[a], "--pull"))
      pull = 1;
    else if (!strcmp(argv[a], "--methods") && a + 1 < argc)
      methods = argv[++a];
    else if (!strcmp(argv[a], "--csv") && a + 1 < argc)
      csv_path = argv[++a];
    else
      files[nfiles++] = argv[a];
  }
  if (reps < 1) {
    fprintf(stderr, "reorder_cpu: --reps must be at least 1\n");
    return 2;
  }
  if (csv_path != NULL && (csv = fopen(csv_path, "w")) == NULL) {
    fprintf(stderr, "reorder_cpu: cannot write %s\n", csv_path);
    return 2;
  }
  if (csv)
    fprintf(csv, "case,relabelled,method,n,nnz,order_seconds,permute_seconds,spmv_seconds,"
                 "input_spmv_seconds,ratio\n");
  printf("reorder_cpu: OpenMP SpMV, fp64, median of %d; ratio = input SpMV time / reordered\n",
         reps);
  for (int f = 0; f < nfiles; f++) {
    bench_rng rng = {42};
    csr_matrix *A = NULL;
    csr_file_info info;
    OK(csr_read_csr(ctx, files[f], NULL, &A, &info));
    if (A->rows != A->cols) {
      printf("%s: %lld x %lld is not square, skipped\n", files[f], (long long)A->rows,
             (long long)A->cols);
      csr_matrix_free(&A);
      continue;
    }
    if (pull || info.format == CSR_FORMAT_EDGE_LIST) { /* the graph's pull form */
      csr_matrix *T = NULL;
      OK(csr_transpose(ctx, A, &T));
      csr_matrix_free(&A);
      A = T;
    }
    A = with_values(A, &rng);
    if (relabel)
      A = relabelled(A, &rng);
    csr_vector *x = NULL, *y = NULL, *xp = NULL;
    OK(csr_vector_create(ctx, &x, A->rows, CSR_F64, CSR_HOST));
    OK(csr_vector_create(ctx, &y, A->rows, CSR_F64, CSR_HOST));
    OK(csr_vector_create(ctx, &xp, A->rows, CSR_F64, CSR_HOST));
    for (int64_t i = 0; i < A->rows; i++)
      ((double *)x->data)[i] = 0.5 + bench_unit(bench_random(&rng));
    const double base = spmv_seconds(A, x, y);
    printf("%-24s n %9lld nnz %10lld%s: input SpMV %.3f ms\n", base_name(files[f]),
           (long long)A->rows, (long long)A->nnz, relabel ? " (relabelled)" : "", 1e3 * base);
    char list[256];
    snprintf(list, sizeof list, "%s", methods);
    for (char *name = strtok(list, ","); name != NULL; name = strtok(NULL, ",")) {
      csr_reorder_method m;
      if (csr_reorder_method_from_name(name, &m) < 0) {
        fprintf(stderr, "reorder_cpu: no method %s\n", name);
        return 2;
      }
      csr_permutation *P = NULL;
      csr_matrix *B = NULL;
      double t0 = bench_now();
      OK(csr_reorder(ctx, A, m, &P));
      double t1 = bench_now();
      OK(csr_permute(ctx, A, P, P, &B));
      double t2 = bench_now();
      OK(csr_permute_vector(ctx, P, CSR_PERMUTE_FORWARD, x, xp));
      const double t = spmv_seconds(B, xp, y);
      printf("  %-11s order %8.2f ms  permute %8.2f ms  SpMV %8.3f ms  ratio %.2f\n", name,
             1e3 * (t1 - t0), 1e3 * (t2 - t1), 1e3 * t, base / t);
      if (csv)
        fprintf(csv, "%s,%d,%s,%lld,%lld,%.6g,%.6g,%.6g,%.6g,%.4f\n", base_name(files[f]), relabel,
                name, (long long)A->rows, (long long)A->nnz, t1 - t0, t2 - t1, t, base, base / t);
      csr_permutation_free(&P);
      csr_matrix_free(&B);
    }
    csr_vector_free(&x);
    csr_vector_free(&y);
    csr_vector_free(&xp);
    csr_matrix_free(&A);
  }
  if (csv)
    fclose(csv);
  csr_context_free(&ctx);
  free(files);
  return 0;
}
