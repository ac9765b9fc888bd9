/* SPDX-License-Identifier: BSD-3-Clause */
/* y = A*x on the CPU: ref and OpenMP SpMV, and OpenMP with the column indices packed in 16 bits
 * (csr_spmv_analyze, CSR_COMPRESS_ON), against a copy-bandwidth floor, in one run.
 *
 * Matrices: a 2D 5-point Poisson matrix and an R-MAT power-law matrix, random nonzero values.
 * Bytes moved (fp64, 64-bit offsets, beta = 0): 12*nnz + 8*(rows+1) + 8*cols + 8*rows, plain
 * CSR's for every configuration (the packed one moves fewer: above 100 % of copy is possible).
 * Copy: b[i] = a[i] over arrays far larger than the caches, bytes read + written, with the same
 * thread count (a plain loop and per-thread memcpy; the faster one is the floor). Every
 * configuration is timed once per round (right after an untimed call of the same one), rounds
 * repeated, medians reported.
 * Usage: spmv_omp [--grid N] [--scale S] [--edges E] [--reps R] [--csv PATH] */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include "bench_random.h"
#include "csr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static bench_rng rng = {42};
static double nonzero(void) { /* uniform in [-1, 1) without 0 */
  double v = (double)(bench_random(&rng) >> 11) * 0x1.0p-52 - 1.0;
  return v == 0.0 ? 0.5 : v;
}

static void die(const char *what, csr_status s) {
  fprintf(stderr, "spmv_omp: %s: %s\n", what, csr_status_string(s));
  exit(1);
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, compare_double);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static int64_t longest_row(const csr_matrix *A) {
  int64_t longest = 0;
  for (int64_t i = 0; i < A->rows; i++)
    if (A->row_offsets[i + 1] - A->row_offsets[i] > longest)
      longest = A->row_offsets[i + 1] - A->row_offsets[i];
  return longest;
}

/* 5-point Laplacian on an n x n grid. Filled by one thread, in order: on the 2-core VM of
 * bench/README.md a parallel first touch (each row range by its future owner) made the 2-thread
 * SpMV slower (16.5 ms against 12-13 ms), there being one NUMA node to gain nothing from. */
static csr_matrix *poisson(csr_context *ctx, int64_t n) {
  int64_t rows = n * n, nnz = 5 * rows - 4 * n;
  csr_matrix *A = NULL;
  csr_status s = csr_matrix_create(ctx, &A, rows, rows, nnz, CSR_F64, CSR_HOST);
  if (s != CSR_SUCCESS)
    die("poisson matrix", s);
  for (int64_t i = 0, k = 0; i < rows; i++) {
    int64_t r = i / n, c = i % n;
    A->row_offsets[i] = k;
    k += 1 + (r > 0) + (r < n - 1) + (c > 0) + (c < n - 1);
  }
  A->row_offsets[rows] = nnz;
  double *values = A->values;
  for (int64_t k = 0; k < nnz; k++) /* serial: the random stream stays reproducible */
    values[k] = nonzero();
  for (int64_t i = 0; i < rows; i++) {
    int64_t r = i / n, c = i % n, k = A->row_offsets[i];
    if (r > 0)
      A->col_indices[k++] = (int32_t)(i - n);
    if (c > 0)
      A->col_indices[k++] = (int32_t)(i - 1);
    A->col_indices[k++] = (int32_t)i;
    if (c < n - 1)
      A->col_indices[k++] = (int32_t)(i + 1);
    if (r < n - 1)
      A->col_indices[k++] = (int32_t)(i + n);
  }
  A->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  return A;
}

/* R-MAT (a, b, c, d) = (0.57, 0.19, 0.19, 0.05), 2^scale vertices, edges*2^scale entries.
 * Duplicate edges are kept (summed by SpMV); entries sorted by (row, col) with two counting
 * sorts (column, then a stable pass by row). */
static csr_matrix *rmat(csr_context *ctx, int scale, int64_t edges) {
  int64_t n = (int64_t)1 << scale, nnz = edges * n;
  int32_t *src = malloc((size_t)nnz * 4), *dst = malloc((size_t)nnz * 4);
  int32_t *tmp = malloc((size_t)nnz * 4);
  int64_t *count = calloc((size_t)n + 1, sizeof *count);
  if (!src || !dst || !tmp || !count)
    die("rmat arrays", CSR_ERR_OUT_OF_MEMORY);
  for (int64_t e = 0; e < nnz; e++) {
    int64_t r = 0, c = 0;
    for (int bit = 0; bit < scale; bit++) {
      double u = bench_unit(bench_random(&rng));
      int down = u >= 0.57 + 0.19, right = (u >= 0.57 && u < 0.76) || u >= 0.95;
      r = 2 * r + down;
      c = 2 * c + right;
    }
    src[e] = (int32_t)r;
    dst[e] = (int32_t)c;
  }
  csr_matrix *A = NULL;
  csr_status s = csr_matrix_create(ctx, &A, n, n, nnz, CSR_F64, CSR_HOST);
  if (s != CSR_SUCCESS)
    die("rmat matrix", s);
  /* Pass 1: order edge ids by column (tmp holds ids). */
  for (int64_t e = 0; e < nnz; e++)
    count[dst[e] + 1]++;
  for (int64_t v = 0; v < n; v++)
    count[v + 1] += count[v];
  for (int64_t e = 0; e < nnz; e++)
    tmp[count[dst[e]]++] = (int32_t)e;
  /* Pass 2: stable by row into the CSR. */
  memset(count, 0, ((size_t)n + 1) * sizeof *count);
  for (int64_t e = 0; e < nnz; e++)
    count[src[e] + 1]++;
  for (int64_t v = 0; v < n; v++)
    count[v + 1] += count[v];
  memcpy(A->row_offsets, count, ((size_t)n + 1) * sizeof *count);
  for (int64_t t = 0; t < nnz; t++) {
    int32_t e = tmp[t];
    A->col_indices[count[src[e]]++] = dst[e];
  }
  double *values = A->values;
  for (int64_t k = 0; k < nnz; k++)
    values[k] = nonzero();
  A->flags = CSR_FLAG_SORTED;
  free(src);
  free(dst);
  free(tmp);
  free(count);
  return A;
}

/* The copy arrays: 512 MiB each, far larger than any cache. */
static double *copy_a, *copy_b;
static const int64_t copy_n = (int64_t)1 << 26;

/* One copy b = a on `threads` threads: a plain loop (variant 0) or a memcpy per thread. */
static double time_copy(int threads, int variant) {
  double t0 = now();
  (void)threads;
  if (variant == 0) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < copy_n; i++)
      copy_b[i] = copy_a[i];
  } else {
#pragma omp parallel num_threads(threads)
    {
      int id = 0, nt = 1;
#ifdef _OPENMP
      id = omp_get_thread_num();
      nt = omp_get_num_threads();
#endif
      int64_t lo = copy_n * id / nt, hi = copy_n * (id + 1) / nt;
      memcpy(copy_b + lo, copy_a + lo, (size_t)(hi - lo) * 8);
    }
  }
  return now() - t0;
}

/* Configurations timed side by side, one of each per round, so that noise from other work on
 * the machine hits them alike: copy (loop, memcpy) on 1 and 2 threads, ref, omp on 1 and 2. */
enum {
  COPY_LOOP1,
  COPY_MEMCPY1,
  COPY_LOOP2,
  COPY_MEMCPY2,
  REF,
  OMP1,
  OMP2,
  PACKED1,
  PACKED2,
  CONFIGS
};
static const char *config_name[CONFIGS] = {"copy-loop",   "copy-memcpy", "copy-loop",
                                           "copy-memcpy", "ref",         "omp",
                                           "omp",         "omp-packed",  "omp-packed"};
static const int config_threads[CONFIGS] = {1, 1, 2, 2, 1, 1, 2, 1, 2};

static void run(const char *name, const csr_matrix *A, int reps, FILE *csv) {
  csr_vector *x = NULL, *y = NULL, *yref = NULL;
  if (csr_vector_create(NULL, &x, A->cols, CSR_F64, CSR_HOST) ||
      csr_vector_create(NULL, &y, A->rows, CSR_F64, CSR_HOST) ||
      csr_vector_create(NULL, &yref, A->rows, CSR_F64, CSR_HOST))
    die("vectors", CSR_ERR_OUT_OF_MEMORY);
  for (int64_t j = 0; j < A->cols; j++)
    ((double *)x->data)[j] = nonzero();
  csr_context *ctx[CONFIGS] = {NULL};
  csr_spmv_plan *plan[CONFIGS] = {NULL}; /* the packed configurations' */
  int have_omp = csr_backend_available(CSR_BACKEND_OMP);
  for (int c = REF; c < CONFIGS; c++) {
    csr_backend backend = c == REF ? CSR_BACKEND_REF : CSR_BACKEND_OMP;
    if (c != REF && !have_omp)
      continue;
    if (csr_context_create(&ctx[c]) != CSR_SUCCESS ||
        csr_context_set_backend(ctx[c], backend) != 0 ||
        csr_context_set_threads(ctx[c], config_threads[c]) != 0)
      die("context", CSR_ERR_NOT_COMPILED);
    csr_status s = c >= PACKED1 ? csr_spmv_analyze(ctx[c], A, CSR_COMPRESS_ON, &plan[c]) : 0;
    if (s != CSR_SUCCESS)
      die("csr_spmv_analyze", s);
  }
  static double t[CONFIGS][64];
  /* Per round and configuration: one untimed call, then the timed one. The untimed call wakes
   * the OpenMP workers (asleep after a 1-thread configuration) and measures the steady state. */
  for (int r = -3; r < reps; r++) /* 3 warm-up rounds */
    for (int c = 0; c < CONFIGS; c++)
      for (int timed = 0; timed < 2; timed++) {
        double seconds = 0.0;
        if (c <= COPY_MEMCPY2) {
          seconds = time_copy(config_threads[c], c % 2);
        } else if (ctx[c]) {
          double t0 = now();
          csr_status s = plan[c] ? csr_spmv_run(ctx[c], plan[c], 1.0, x, 0.0, y)
                                 : csr_spmv(ctx[c], 1.0, A, x, 0.0, c == REF ? yref : y);
          seconds = now() - t0;
          if (s != CSR_SUCCESS)
            die("csr_spmv", s);
        }
        if (r >= 0 && timed)
          t[c][r] = seconds;
      }
  double bytes = 12.0 * (double)A->nnz + 8.0 * (double)(A->rows + 1) + 8.0 * (double)A->cols +
                 8.0 * (double)A->rows;
  double ms[CONFIGS], gbs[CONFIGS], copy[3] = {0, 0, 0};
  for (int c = 0; c < CONFIGS; c++) {
    ms[c] = 1e3 * median(t[c], reps);
    gbs[c] = (c <= COPY_MEMCPY2 ? 16.0 * (double)copy_n : bytes) / (ms[c] * 1e-3) / 1e9;
    if (c <= COPY_MEMCPY2 && gbs[c] > copy[config_threads[c]])
      copy[config_threads[c]] = gbs[c]; /* floor: the faster copy of that thread count */
  }
  printf("\n%s: %lld rows, %lld nnz, longest row %lld, floor bytes %.1f MB\n", name,
         (long long)A->rows, (long long)A->nnz, (long long)longest_row(A), bytes / 1e6);
  printf("  %-11s %7s %9s %8s %9s %7s\n", "impl", "threads", "median ms", "GB/s", "% of copy",
         "x ref");
  for (int c = 0; c < CONFIGS; c++) {
    if ((c > COPY_MEMCPY2 && !ctx[c]) || (config_threads[c] > 1 && !have_omp))
      continue;
    int threads = config_threads[c];
    double fraction = gbs[c] / copy[threads], speedup = c > COPY_MEMCPY2 ? ms[REF] / ms[c] : 0;
    printf("  %-11s %7d %9.3f %8.2f %8.1f%% ", config_name[c], threads, ms[c], gbs[c],
           100 * fraction);
    if (c > COPY_MEMCPY2)
      printf("%7.2f\n", speedup);
    else
      printf("%7s\n", "-");
    if (csv)
      fprintf(csv, "%s,%lld,%lld,%s,%d,%.4f,%.3f,%.3f,%.4f,%.3f\n", name, (long long)A->rows,
              (long long)A->nnz, config_name[c], threads, ms[c], gbs[c], copy[threads], fraction,
              speedup);
  }
  if (plan[PACKED1]) {
    csr_spmv_plan_info info;
    csr_spmv_plan_describe(plan[PACKED1], &info);
    printf("  packed: %lld of %lld chunks escaped, %.2f index bytes a nonzero, set-up %.3f ms\n",
           (long long)info.escaped_chunks, (long long)info.chunks,
           info.index_bytes / (double)A->nnz, 1e3 * info.setup_seconds);
  }
  /* Each row is summed in stored order in double on both backends, the packed form included:
   * the same bits (y holds the last configuration's). */
  if (have_omp && memcmp(y->data, yref->data, (size_t)A->rows * 8) != 0)
    printf("  WARNING: omp result differs from ref\n");
  for (int c = 0; c < CONFIGS; c++) {
    csr_spmv_plan_free(&plan[c]);
    csr_context_free(&ctx[c]);
  }
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_vector_free(&yref);
}

int main(int argc, char **argv) {
  int64_t grid = 2100, edges = 5;
  int scale = 22, reps = 21;
  const char *csv_path = NULL;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--grid") == 0)
      grid = atoll(argv[i + 1]);
    else if (strcmp(argv[i], "--scale") == 0)
      scale = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--edges") == 0)
      edges = atoll(argv[i + 1]);
    else if (strcmp(argv[i], "--reps") == 0)
      reps = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--csv") == 0)
      csv_path = argv[i + 1];
  }
  if (reps < 1 || reps > 64 || grid < 2 || scale < 1 || scale > 30 || edges < 1) {
    fprintf(stderr, "usage: spmv_omp [--grid N] [--scale S] [--edges E] [--reps R<=64] "
                    "[--csv PATH]\n");
    return 2;
  }
  FILE *csv = NULL;
  if (csv_path) {
    csv = fopen(csv_path, "w");
    if (!csv)
      die(csv_path, CSR_ERR_IO);
    fprintf(csv, "matrix,rows,nnz,impl,threads,median_ms,gbs,copy_gbs,fraction_of_copy,"
                 "speedup_vs_ref\n");
  }
  copy_a = malloc((size_t)copy_n * 8);
  copy_b = malloc((size_t)copy_n * 8);
  if (!copy_a || !copy_b)
    die("copy arrays", CSR_ERR_OUT_OF_MEMORY);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < copy_n; i++) {
    copy_a[i] = (double)i;
    copy_b[i] = 0.0;
  }
  printf("spmv_omp: y = A*x, fp64, 64-bit offsets; median of %d rounds after 3 warm-up rounds,\n"
         "each round timing every configuration once, right after an untimed call of it;\nbytes = "
         "12*nnz + 8*(rows+1) + 8*cols + "
         "8*rows;\ncopy: b[i] = a[i] over 2 x 512 MiB, bytes read + written; %% of copy is against "
         "the faster\ncopy (loop or memcpy) of the same thread count\n",
         reps);
  csr_matrix *A = poisson(NULL, grid);
  char name[64];
  snprintf(name, sizeof name, "poisson2d-%lld", (long long)grid);
  run(name, A, reps, csv);
  csr_matrix_free(&A);
  A = rmat(NULL, scale, edges);
  snprintf(name, sizeof name, "rmat-s%d-e%lld", scale, (long long)edges);
  run(name, A, reps, csv);
  csr_matrix_free(&A);
  free(copy_a);
  free(copy_b);
  if (csv)
    fclose(csv);
  return 0;
}
