/* SPDX-License-Identifier: BSD-3-Clause */
/* What reordering buys a GPU SpMV, against cuSPARSE on the matrix as the user gave it.
 *
 * Cases: the SpMV benchmark's matrices (bench/spmv_cases.h: generated classes, replicas of the
 * real matrices of --matrices past --target-nnz entries), each as given and with its vertices
 * randomly relabelled (B = S A S', S seeded), fp64 or fp32 (--fp32). For each case: cuSPARSE's
 * SpMV (best of CSR ALG1 / ALG2, after its preprocessing) and csr_spmv on the input; then per
 * csr_reorder method (--methods, default rcm,degree,appearance) the time to compute the order on
 * the device matrix (RCM: on the host, pattern copied there), to permute the matrix
 * (csr_permute, on the device), and csr_spmv and cuSPARSE on the reordered matrix. SpMV times
 * are medians of --reps runs after a warm-up (CUDA events); the order and permutation times one
 * run after a warm-up (host clock, device synchronised). Ratios: cuSPARSE's time on the input over
 * ours on the reordered matrix (what a user gains by calling us), and the order's time in SpMVs
 * of ours on the input (the set-up, in iterations).
 * Usage: gpu_bench_reorder [--reps N] [--csv FILE] [--matrices DIR] [--cases TEXT]
 *                          [--target-nnz N] [--methods LIST] [--fp32] [--quick] */
#include "csr.h"
#include "gpu_bench_common.cuh"
#include "spmv_cases.h"

#include <cuda_runtime.h>
#include <cusparse.h>

#include "gpu_bench_csr.cuh"

#include <cmath>
#include <cstring>

static int g_reps = 20;
static FILE *g_csv = NULL;
static char g_device[320] = "?", g_date[32] = "?";
static cusparseHandle_t g_sparse;

/* cuSPARSE's best of ALG1 and ALG2 on the device matrix A, in ms. */
template <typename T> static double cusparse_ms(const csr_matrix *A, const csr_vector *x) {
  int32_t *off32 = bench_offsets32(A);
  T *y = NULL;
  CHECK_CUDA(cudaMalloc(&y, A->rows * sizeof(T) + 8));
  double best = INFINITY;
  {
    bench_cusparse_spmv<T> spmv(g_sparse, A, off32, x->data, y);
    for (int a = 0; a < 2; a++)
      best = std::fmin(best, bench_median_ms(g_reps, [&] { spmv.run(a); }));
  }
  cudaFree(off32);
  cudaFree(y);
  return best;
}

static double ours_ms(csr_context *ctx, const csr_matrix *A, const csr_vector *x, csr_vector *y) {
  return bench_median_ms(g_reps, [&] { CSR_OK(ctx, csr_spmv(ctx, 1.0, A, x, 0.0, y)); });
}

/* Seconds of one call of f after a warm-up call, the device synchronised around it. */
template <typename F> static double once_seconds(F f) {
  f();
  CHECK_CUDA(cudaDeviceSynchronize());
  const double began = bench_now_s();
  f();
  CHECK_CUDA(cudaDeviceSynchronize());
  return bench_now_s() - began;
}

/* A on the device with values of T, and a random x. */
template <typename T>
static csr_matrix *upload(csr_context *ctx, const host_csr &H, csr_vector **x) {
  std::vector<double> hx(H.cols);
  for (double &v : hx)
    v = 0.5 + uniform01();
  CSR_OK(ctx, csr_vector_create(ctx, x, H.cols, sizeof(T) == 8 ? CSR_F64 : CSR_F32, CSR_DEVICE));
  bench_upload_values<T>((*x)->data, hx);
  return bench_upload_csr<T>(ctx, H);
}

/* S A S' for a random permutation S (seeded), on the device. */
static csr_matrix *relabelled(csr_context *ctx, csr_matrix *A) {
  std::vector<int32_t> s(A->rows);
  for (int64_t i = 0; i < A->rows; i++)
    s[i] = (int32_t)i;
  for (int64_t i = A->rows - 1; i > 0; i--)
    std::swap(s[i], s[next_u64() % (uint64_t)(i + 1)]);
  csr_permutation *S = NULL;
  csr_matrix *B = NULL;
  CSR_OK(ctx, csr_permutation_create(ctx, &S, A->rows, s.data(), CSR_DEVICE));
  CSR_OK(ctx, csr_permute(ctx, A, S, S, &B));
  csr_permutation_free(&S);
  csr_matrix_free(&A);
  return B;
}

template <typename T>
static void run_case(csr_context *ctx, const std::string &name, const host_csr &H, bool relabel,
                     const char *methods) {
  csr_vector *x = NULL, *y = NULL, *xp = NULL;
  csr_matrix *A = upload<T>(ctx, H, &x);
  if (relabel)
    A = relabelled(ctx, A);
  const csr_value_type type = sizeof(T) == 8 ? CSR_F64 : CSR_F32;
  CSR_OK(ctx, csr_vector_create(ctx, &y, A->rows, type, CSR_DEVICE));
  CSR_OK(ctx, csr_vector_create(ctx, &xp, A->rows, type, CSR_DEVICE));
  const double theirs_in = cusparse_ms<T>(A, x), ours_in = ours_ms(ctx, A, x, y);
  const char *precision = sizeof(T) == 8 ? "fp64" : "fp32";
  const std::string label = name + (relabel ? "_relabelled" : "");
  printf("%-28s %s n %9lld nnz %10lld: cuSPARSE %.3f ms, libcsr %.3f ms (x%.2f)\n", label.c_str(),
         precision, (long long)A->rows, (long long)A->nnz, theirs_in, ours_in, theirs_in / ours_in);
  char list[256];
  snprintf(list, sizeof list, "%s", methods);
  for (char *m = strtok(list, ","); m != NULL; m = strtok(NULL, ",")) {
    csr_reorder_method method;
    if (csr_reorder_method_from_name(m, &method) < 0) {
      fprintf(stderr, "no method %s\n", m);
      exit(2);
    }
    csr_permutation *P = NULL;
    csr_matrix *B = NULL;
    const double order_s = once_seconds([&] {
      csr_permutation_free(&P);
      CSR_OK(ctx, csr_reorder(ctx, A, method, &P));
    });
    const double permute_s = once_seconds([&] {
      csr_matrix_free(&B);
      CSR_OK(ctx, csr_permute(ctx, A, P, P, &B));
    });
    CSR_OK(ctx, csr_permute_vector(ctx, P, CSR_PERMUTE_FORWARD, x, xp));
    const double ours = ours_ms(ctx, B, xp, y), theirs = cusparse_ms<T>(B, xp);
    printf("  %-10s order %9.2f ms (%7.1f SpMVs)  permute %8.2f ms  libcsr %.3f ms  cuSPARSE "
           "%.3f ms  cuSPARSE(input)/libcsr x%.2f\n",
           m, 1e3 * order_s, 1e3 * order_s / ours_in, 1e3 * permute_s, ours, theirs,
           theirs_in / ours);
    if (g_csv)
      fprintf(g_csv,
              "gpu_reorder,%s,%s+%s,%.6g,cuSPARSE on the input,%.6g,%.4f,,,,,,,order_s=%.6g;"
              "permute_s=%.6g;order_spmvs=%.1f;ours_input_s=%.6g;cusparse_reordered_s=%.6g;"
              "n=%lld;nnz=%lld,%s,%s,bash bench/run_gpu.sh reorder\n",
              label.c_str(), precision, m, 1e-3 * ours, 1e-3 * theirs_in, theirs_in / ours, order_s,
              permute_s, 1e3 * order_s / ours_in, 1e-3 * ours_in, 1e-3 * theirs, (long long)A->rows,
              (long long)A->nnz, g_device, g_date);
    csr_permutation_free(&P);
    csr_matrix_free(&B);
  }
  if (g_csv)
    fflush(g_csv);
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_vector_free(&xp);
  csr_matrix_free(&A);
}

int main(int argc, char **argv) {
  const char *matrices = bench_default_matrices(), *only = NULL;
  const char *methods = "rcm,degree,appearance";
  int64_t target_nnz = 50000000;
  int quick = 0, fp32 = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      g_reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
      g_csv = fopen(argv[++i], "w");
    else if (!strcmp(argv[i], "--matrices") && i + 1 < argc)
      matrices = argv[++i];
    else if (!strcmp(argv[i], "--cases") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp(argv[i], "--target-nnz") && i + 1 < argc)
      target_nnz = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--methods") && i + 1 < argc)
      methods = argv[++i];
    else if (!strcmp(argv[i], "--fp32"))
      fp32 = 1;
    else if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else
      fprintf(stderr, "ignored: %s (options: the head of bench/gpu_bench_reorder.cu)\n", argv[i]);
  }
  if (g_reps < 1) {
    fprintf(stderr, "--reps must be at least 1\n");
    return 2;
  }
  bench_device_and_date(g_device, sizeof g_device, g_date, sizeof g_date);
  bench_csv_header(g_csv);
  CHECK_SPARSE(cusparseCreate(&g_sparse));
  csr_context *ctx = NULL;
  CSR_OK(ctx, csr_context_create(&ctx));
  printf("gpu_bench_reorder: %s, %s; SpMV medians of %d\n", g_device, g_date, g_reps);
  for (const spmv_case &c : spmv_cases(ctx, matrices, quick, target_nnz)) {
    if (!bench_name_selected(c.name, only))
      continue;
    host_csr H = c.make();
    if (H.rows != H.cols || (int64_t)H.col.size() > INT32_MAX)
      continue; /* reordering is for square matrices; cuSPARSE's copy has 32-bit offsets */
    for (int relabel = 0; relabel < 2; relabel++) {
      if (fp32)
        run_case<float>(ctx, c.name, H, relabel, methods);
      else
        run_case<double>(ctx, c.name, H, relabel, methods);
    }
  }
  csr_context_free(&ctx);
  cusparseDestroy(g_sparse);
  if (g_csv)
    fclose(g_csv);
  return 0;
}
