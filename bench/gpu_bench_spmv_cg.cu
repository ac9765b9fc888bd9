/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU benchmark of libcsr's SpMV against cuSPARSE, in fp64 and fp32, and of one CG iteration
 * against one SpMV of ours, in the same run on the same matrices (bench/spmv_cases.h: stencils,
 * uniform random rows, R-MAT, a few very long rows, a tall 64-column matrix, half the rows empty,
 * and every real matrix of --matrices DIR with at least 200 000 nonzeros repeated block-diagonally
 * to at least 30M; all larger than the L2 cache, values random and non-zero). Cases are built
 * one at a time, timed in fp64, then fp32, and freed: the device holds one matrix at a time.
 *   SpMV: y = A x, median of --reps calls after warm-up, CUDA events; floor bytes
 *         (4 + v) nnz + 8 (rows + 1) + v cols + v rows, v the value size (8 or 4), with our
 *         64-bit offsets (cuSPARSE gets a copy with 32-bit offsets, so its floor is 4 (rows + 1)
 *         bytes smaller); the fraction of the device-to-device copy bandwidth measured in the same
 *         run. Each kernel of ours (AUTO, SCALAR, VECTOR, SEGMENTED) is timed, then called 100
 *         more times after a first call: same_bits_100=1 when each gives the first's y bit for bit.
 *         A kernel that would take more than 50 ms a call (a row too long for one thread or one
 *         warp: estimated from the longest row, then checked on the first call) is skipped and
 *         named in the extra field of the case's other rows. The extra field also names AUTO's
 *         kernel (auto_kernel, auto_lanes) and what AUTO's first call on the matrix adds, the row
 *         statistics and the choice (analysis_ms, median of 5, host clock around csr_spmv_choose
 *         after csr_context_forget_matrix), and where x's gathers fall (gather_new_line,
 *         gather_hot_4096: bench/spmv_cases.h), to read the figures by.
 *   Packed: the same product planned by csr_spmv_analyze with the column indices packed in 16
 *         bits (CSR_COMPRESS_ON, AUTO's kernel), against the same cuSPARSE time and the same
 *         floor (plain CSR's: above 100 % is the point); its bits checked against AUTO's plain
 *         y and over 100 calls; the escaped chunks, the index bytes a nonzero, the set-up and
 *         AUTO's choice in the extra field (--packed off: not timed).
 *   CG:   time per iteration of csr_solve (CG and Jacobi-PCG, fp64) = (T(K2) - T(K1)) / (K2 - K1),
 *         setup and final residual cancelling, over one SpMV of ours (libcsr's goal: <= 1.6).
 * usage: gpu_bench_spmv_cg [--csv FILE] [--reps N] [--quick] [--only-cg] [--matrices DIR]
 *          [--kernels auto,scalar,vector,segmented,stream] [--precision f64|f32|both] [--cases
 * TEXT]
 *          [--limit-ms MS] [--packed on|off]
 *   --quick: smaller matrices (real ones replicated to 2M nonzeros); --only-cg: the Poisson
 *   matrices that CG runs on, nothing else; --matrices: default ../shared/matrices, else
 *   shared/matrices (run from the repository root, or beside it); --kernels: ours to time (all
 *   four by default); --cases: only the cases whose name contains TEXT (or one of
 *   TEXT's comma-separated parts); --limit-ms: skip a kernel
 *   of ours whose first call takes longer (default 50; raise it under a profiler). */
#include "csr.h"
#include "gpu_bench_common.cuh"
#include "spmv_cases.h"

#include <cuda_runtime.h>
#include <cusparse.h>

#include "gpu_bench_csr.cuh"

#include <algorithm>
#include <cmath>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <time.h>
#include <vector>

static int g_reps = 30;
static FILE *g_csv = NULL;
static char g_device[320] = "?", g_date[32] = "?", g_anchor[96] = "cuSPARSE";
static double g_copy_gbps = 0.0;
static int g_sms = 1;
static cusparseHandle_t g_sparse;
static unsigned long long *g_count = NULL; /* device counter of the bitwise comparison */

/* A kernel of ours whose call would take longer than this is skipped (see kernel_estimate_ms). */
static double kernel_limit_ms = 50.0;
#define KERNELS 5
static const csr_spmv_kernel kernels[KERNELS] = {
    CSR_KERNEL_AUTO, CSR_KERNEL_SCALAR, CSR_KERNEL_VECTOR, CSR_KERNEL_SEGMENTED, CSR_KERNEL_STREAM};
static const char *kernel_names[KERNELS] = {"auto", "scalar", "vector", "segmented", "stream"};
static int g_kernels = (1 << KERNELS) - 1; /* bit k: kernels[k] is timed */
static int g_packed = 1;                   /* the packed form timed too (--packed off: not) */

/* --- timing ----------------------------------------------------------------------------------- */

/* Median of g_reps timed calls after warm-up; NaN, with *first_ms set, when the first call alone
 * takes longer than limit_ms (then nothing more is called). */
template <typename F>
static double median_ms(F call, double limit_ms = INFINITY, double *first_ms = NULL) {
  cudaEvent_t a, b;
  CHECK_CUDA(cudaEventCreate(&a));
  CHECK_CUDA(cudaEventCreate(&b));
  float first = 0.0f;
  CHECK_CUDA(cudaEventRecord(a));
  call();
  CHECK_CUDA(cudaEventRecord(b));
  CHECK_CUDA(cudaEventSynchronize(b));
  CHECK_CUDA(cudaEventElapsedTime(&first, a, b));
  if (first_ms)
    *first_ms = first;
  double median = NAN;
  if (first <= limit_ms) {
    for (int w = 0; w < 2; w++)
      call();
    std::vector<float> t(g_reps);
    for (int r = 0; r < g_reps; r++) {
      CHECK_CUDA(cudaEventRecord(a));
      call();
      CHECK_CUDA(cudaEventRecord(b));
      CHECK_CUDA(cudaEventSynchronize(b));
      CHECK_CUDA(cudaEventElapsedTime(&t[r], a, b));
    }
    std::sort(t.begin(), t.end());
    median = t[g_reps / 2];
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return median;
}

/* One row in the format of bench/README.md (17 columns; ratio = anchor / ours, > 1: we are
 * faster; empty cells where a value does not apply). */
static void csv_row(const char *bench, const char *name, const char *variant, double ours_s,
                    const char *anchor, double anchor_s, double target, double bytes,
                    const char *extra) {
  if (g_csv == NULL)
    return;
  double ours_gbs = bytes > 0 ? bytes / ours_s * 1e-9 : 0.0;
  fprintf(g_csv, "%s,%s,%s,%.6g,%s,", bench, name, variant, ours_s, anchor);
  if (anchor_s > 0)
    fprintf(g_csv, "%.6g,%.4f,", anchor_s, anchor_s / ours_s);
  else
    fprintf(g_csv, ",,");
  if (target > 0)
    fprintf(g_csv, "%.4g", target);
  if (bytes > 0)
    fprintf(g_csv, ",%.0f,%.1f,%.1f,%.4f,", bytes, ours_gbs, g_copy_gbps, ours_gbs / g_copy_gbps);
  else
    fprintf(g_csv, ",,,%.1f,,", g_copy_gbps);
  if (bytes > 0 && anchor_s > 0)
    fprintf(g_csv, "%.4f", bytes / anchor_s * 1e-9 / g_copy_gbps);
  fprintf(g_csv, ",%s,%s,%s,%s\n", extra, g_device, g_date, "bash bench/run_gpu.sh bench");
  fflush(g_csv);
}

/* --- one matrix on the device --------------------------------------------------------------- */

struct device_matrix {
  csr_matrix *A = NULL; /* ours, on the device */
  csr_vector *x = NULL, *y = NULL;
  int32_t *off32 = NULL; /* cuSPARSE's copy of the offsets, 32-bit */
};

/* H and x with values of type T, straight into device arrays (no host copy of the matrix). */
template <typename T>
static device_matrix upload(csr_context *ctx, const host_csr &H, const std::vector<double> &x) {
  const csr_value_type type = sizeof(T) == 8 ? CSR_F64 : CSR_F32;
  device_matrix d;
  d.A = bench_upload_csr<T>(ctx, H);
  d.off32 = bench_offsets32(d.A); /* exits past 2^31 entries */
  CSR_OK(ctx, csr_vector_create(ctx, &d.x, H.cols, type, CSR_DEVICE));
  bench_upload_values<T>(d.x->data, x);
  CSR_OK(ctx, csr_vector_create(ctx, &d.y, H.rows, type, CSR_DEVICE));
  return d;
}

static void release(device_matrix &d) {
  csr_matrix_free(&d.A);
  csr_vector_free(&d.x);
  csr_vector_free(&d.y);
  cudaFree(d.off32);
  d.off32 = NULL;
}

/* max_i |a_i - b_i| / max_i |b_i| over two device vectors; NaN when a holds a NaN (a row left
 * unwritten shows as one: y is filled with NaN before the call that a comes from). */
template <typename T> static double relative_difference(const T *a, const T *b, int64_t n) {
  std::vector<T> ha(n), hb(n);
  CHECK_CUDA(cudaMemcpy(ha.data(), a, n * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hb.data(), b, n * sizeof(T), cudaMemcpyDeviceToHost));
  double diff = 0.0, mag = 0.0;
  for (int64_t i = 0; i < n; i++) {
    if (std::isnan((double)ha[i]))
      return NAN;
    diff = fmax(diff, fabs((double)ha[i] - (double)hb[i]));
    mag = fmax(mag, fabs((double)hb[i]));
  }
  return mag > 0 ? diff / mag : diff;
}

/* *count += the 32-bit words where a and b differ. */
__global__ void count_differing_words(const uint32_t *a, const uint32_t *b, int64_t n,
                                      unsigned long long *count) {
  unsigned long long differ = 0;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    differ += a[i] != b[i];
  if (differ)
    atomicAdd(count, differ);
}

/* 1 when 100 calls after a first one each leave y bit for bit as the first did. y is filled with
 * NaN bits before each call, so a row a call does not write counts as a difference; the
 * comparison runs on the device (copying 100 y's to the host for memcmp would take longer than
 * the timing). The first call's y is left in `first`. */
template <typename F> static int same_bits_100(F call, csr_vector *y, size_t bytes, void *first) {
  int64_t words = (int64_t)(bytes / 4);
  int blocks = (int)std::min<int64_t>((words + 255) / 256, 8 * (int64_t)g_sms);
  CHECK_CUDA(cudaMemsetAsync(y->data, 0xFF, bytes));
  call();
  CHECK_CUDA(cudaMemcpyAsync(first, y->data, bytes, cudaMemcpyDeviceToDevice));
  CHECK_CUDA(cudaMemsetAsync(g_count, 0, sizeof *g_count));
  for (int r = 0; r < 100; r++) {
    CHECK_CUDA(cudaMemsetAsync(y->data, 0xFF, bytes));
    call();
    count_differing_words<<<std::max(blocks, 1), 256>>>((const uint32_t *)first,
                                                        (const uint32_t *)y->data, words, g_count);
    CHECK_CUDA(cudaGetLastError());
  }
  unsigned long long differ = 0;
  CHECK_CUDA(cudaMemcpy(&differ, g_count, sizeof differ, cudaMemcpyDeviceToHost));
  return differ == 0;
}

/* An estimate of one call of the row-per-thread (scalar) or row-per-warp (vector) kernel from
 * the longest row, which one thread (or warp) walks alone: 0.12 and 0.026 us per entry, measured
 * on an H100 (24 and 5.2 ms on rows of 200 000 entries). 0 for the segmented kernel, which splits
 * long rows, and for AUTO, whose choice is the library's: its first call decides. */
static double kernel_estimate_ms(csr_spmv_kernel kernel, int64_t longest) {
  if (kernel == CSR_KERNEL_SCALAR)
    return 0.12e-3 * (double)longest;
  if (kernel == CSR_KERNEL_VECTOR)
    return 0.026e-3 * (double)longest;
  return 0.0;
}

/* cuSPARSE ALG1 and ALG2 on d's arrays (32-bit offsets) into ys: times in ms, and the largest
 * relative difference of ours (y_ours) from each. */
template <typename T>
static void bench_cusparse(device_matrix &d, const T *y_ours, double theirs[2], double diff[2]) {
  T *ys = NULL;
  CHECK_CUDA(cudaMalloc(&ys, d.A->rows * sizeof(T) + 8));
  {
    bench_cusparse_spmv<T> spmv(g_sparse, d.A, d.off32, d.x->data, ys);
    for (int a = 0; a < 2; a++) {
      theirs[a] = median_ms([&] { spmv.run(a); });
      diff[a] = y_ours ? relative_difference(y_ours, ys, d.A->rows) : NAN;
    }
  }
  cudaFree(ys);
}

/* SpMV in values of type T: each kernel of ours in g_kernels, then cuSPARSE ALG1 and ALG2; one
 * line per kernel on stdout and one CSV row per kernel timed. Returns AUTO's time in ms (NaN when
 * not timed). */
/* The planned SpMV with packed column indices (csr_spmv_analyze with CSR_COMPRESS_ON, AUTO's
 * kernel): timed as the kernels are, its bits checked over 100 calls and against AUTO's plain y
 * (y_auto, NULL when AUTO was not timed); what AUTO's plan would choose, and the set-up, in the
 * extra field. */
template <typename T>
static void bench_packed(csr_context *ctx, const char *name, device_matrix &d, double floor_bytes,
                         double best, const void *y_auto, const std::string &common) {
  const size_t y_bytes = (size_t)d.A->rows * sizeof(T);
  CSR_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
  csr_spmv_plan *plan = NULL, *automatic = NULL;
  csr_spmv_plan_info info, auto_info;
  CSR_OK(ctx, csr_spmv_analyze(ctx, d.A, CSR_COMPRESS_AUTO, &automatic));
  CSR_OK(ctx, csr_spmv_plan_describe(automatic, &auto_info));
  csr_spmv_plan_free(&automatic);
  CSR_OK(ctx, csr_spmv_analyze(ctx, d.A, CSR_COMPRESS_ON, &plan));
  CSR_OK(ctx, csr_spmv_plan_describe(plan, &info));
  auto call = [&] { CSR_OK(ctx, csr_spmv_run(ctx, plan, 1.0, d.x, 0.0, d.y)); };
  const double ms = median_ms(call);
  void *first = NULL;
  CHECK_CUDA(cudaMalloc(&first, y_bytes + 8));
  const int same = same_bits_100(call, d.y, y_bytes, first);
  int as_plain = -1; /* -1: AUTO's plain y not at hand */
  if (y_auto != NULL) {
    std::vector<char> a(y_bytes), b(y_bytes);
    CHECK_CUDA(cudaMemcpy(a.data(), first, y_bytes, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(b.data(), y_auto, y_bytes, cudaMemcpyDeviceToHost));
    as_plain = memcmp(a.data(), b.data(), y_bytes) == 0;
  }
  cudaFree(first);
  csr_spmv_plan_free(&plan);
  const double share = info.chunks > 0 ? (double)info.escaped_chunks / (double)info.chunks : 0.0;
  const double gbs = floor_bytes / (ms * 1e-3) * 1e-9;
  const std::string variant = std::string("packed") + (sizeof(T) == 8 ? "" : "_f32");
  printf("  %-28s %-14s %.3f ms %3.0f%% of plain floor | best cuSPARSE / ours %.2f | escaped "
         "chunks %.1f%% | index %.2f B/nnz | set-up %.3f ms | AUTO would %s | bits as plain: %s, "
         "same in 100 calls: %s\n",
         name, variant.c_str(), ms, gbs / g_copy_gbps * 100, best / ms, 100 * share,
         info.index_bytes / (double)d.A->nnz, info.setup_seconds * 1e3,
         auto_info.packed ? "pack" : "not pack",
         as_plain < 0 ? "n/a"
         : as_plain   ? "yes"
                      : "NO",
         same ? "yes" : "NO");
  char buf[256];
  snprintf(buf, sizeof buf,
           ";escaped_share=%.4f;index_bytes_per_nnz=%.3f;setup_ms=%.4f;auto_packs=%d;"
           "same_bits_as_plain=%d;same_bits_100=%d",
           share, info.index_bytes / (double)d.A->nnz, info.setup_seconds * 1e3, auto_info.packed,
           as_plain, same);
  csv_row("gpu_spmv", name, variant.c_str(), ms * 1e-3, g_anchor, best * 1e-3, 1.3, floor_bytes,
          (common + buf).c_str());
  fflush(stdout);
}

template <typename T>
static double bench_spmv(csr_context *ctx, const char *name, device_matrix &d, int64_t longest,
                         const gather_shape &gathers) {
  const char *suffix = sizeof(T) == 8 ? "" : "_f32", *values = sizeof(T) == 8 ? "f64" : "f32";
  csr_matrix *A = d.A;
  size_t y_bytes = (size_t)A->rows * sizeof(T);
  double floor_bytes =
      (4.0 + sizeof(T)) * A->nnz + 8.0 * (A->rows + 1) + (double)sizeof(T) * (A->cols + A->rows);
  double ours[KERNELS];
  int same[KERNELS] = {0}, reference = -1; /* reference: the kernel compared with cuSPARSE */
  std::string skipped[KERNELS];
  void *first = NULL, *y_ref = NULL;
  CHECK_CUDA(cudaMalloc(&first, y_bytes + 8));
  CHECK_CUDA(cudaMalloc(&y_ref, y_bytes + 8));
  auto call = [&] { CSR_OK(ctx, csr_spmv(ctx, 1.0, A, d.x, 0.0, d.y)); };
  /* What AUTO's first call on a matrix adds: the row statistics and the choice, recomputed after
   * the context forgets the matrix; median of 5. */
  csr_spmv_choice choice;
  std::vector<double> analysis;
  CSR_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
  for (int r = 0; r < 5; r++) {
    csr_context_forget_matrix(ctx, A);
    CSR_OK(ctx, csr_spmv_choose(ctx, A, &choice));
    analysis.push_back(choice.analysis_seconds * 1e3);
  }
  std::sort(analysis.begin(), analysis.end());
  const double analysis_ms = analysis[2];
  for (int k = 0; k < KERNELS; k++) {
    ours[k] = NAN;
    if (!(g_kernels >> k & 1))
      continue;
    CSR_OK(ctx, csr_context_set_kernel(ctx, kernels[k]));
    double estimate = kernel_estimate_ms(kernels[k], longest), first_ms = 0.0;
    char why[64];
    if (estimate > kernel_limit_ms) {
      snprintf(why, sizeof why, "estimate_%.0fms_per_call", estimate);
      skipped[k] = why;
      continue;
    }
    ours[k] = median_ms(call, kernel_limit_ms, &first_ms);
    if (std::isnan(ours[k])) {
      snprintf(why, sizeof why, "first_call_%.0fms", first_ms);
      skipped[k] = why;
      continue;
    }
    same[k] = same_bits_100(call, d.y, y_bytes, first);
    if (reference < 0) {
      reference = k;
      CHECK_CUDA(cudaMemcpy(y_ref, first, y_bytes, cudaMemcpyDeviceToDevice));
    }
  }
  CSR_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
  double theirs[2], diff[2];
  bench_cusparse<T>(d, reference >= 0 ? (const T *)y_ref : NULL, theirs, diff);
  cudaFree(first);
  double best = fmin(theirs[0], theirs[1]);
  auto percent = [&](double ms) { return floor_bytes / (ms * 1e-3) * 1e-9 / g_copy_gbps * 100; };
  printf("%s %s: rows %lld nnz %lld longest row %lld | cuSPARSE ALG1 %.3f ALG2 %.3f ms (%.0f%% of "
         "floor) | max rel diff of ours (%s) from ALG1 %.1e ALG2 %.1e | AUTO: %s, first call adds "
         "%.3f ms\n",
         name, values, (long long)A->rows, (long long)A->nnz, (long long)longest, theirs[0],
         theirs[1], percent(best), reference >= 0 ? kernel_names[reference] : "none", diff[0],
         diff[1], csr_spmv_kernel_name(choice.kernel), analysis_ms);
  std::string common = "values=" + std::string(values) + ";rows=" + std::to_string(A->rows) +
                       ";nnz=" + std::to_string(A->nnz) + ";longest_row=" + std::to_string(longest);
  char buf[160];
  snprintf(buf, sizeof buf, ";gather_new_line=%.3f;gather_hot_4096=%.3f", gathers.new_line,
           gathers.hot);
  common += buf;
  snprintf(buf, sizeof buf,
           ";alg1_ms=%.4f;alg2_ms=%.4f;max_rel_diff_alg1=%.1e;max_rel_diff_alg2=%.1e", theirs[0],
           theirs[1], diff[0], diff[1]);
  common += buf;
  snprintf(buf, sizeof buf, ";auto_kernel=%s;auto_lanes=%d;analysis_ms=%.4f",
           csr_spmv_kernel_name(choice.kernel), choice.lanes, analysis_ms);
  common += buf;
  if (reference >= 0)
    common += ";diff_of=" + std::string(kernel_names[reference]);
  for (int k = 0; k < KERNELS; k++)
    if (!skipped[k].empty())
      common += ";" + std::string(kernel_names[k]) + "_skipped=" + skipped[k];
  for (int k = 0; k < KERNELS; k++) {
    std::string variant = kernel_names[k] + std::string(suffix);
    if (!skipped[k].empty())
      printf("  %-28s %-14s skipped: %s (limit %.0f ms)\n", name, variant.c_str(),
             skipped[k].c_str(), kernel_limit_ms);
    if (std::isnan(ours[k]))
      continue;
    printf("  %-28s %-14s %.3f ms %3.0f%% of floor | best cuSPARSE / ours %.2f | same bits in 100 "
           "calls: %s\n",
           name, variant.c_str(), ours[k], percent(ours[k]), best / ours[k],
           same[k] ? "yes" : "NO");
    std::string extra = common + ";same_bits_100=" + std::to_string(same[k]);
    csv_row("gpu_spmv", name, variant.c_str(), ours[k] * 1e-3, g_anchor, best * 1e-3, 1.0,
            floor_bytes, extra.c_str());
  }
  if (g_packed)
    bench_packed<T>(ctx, name, d, floor_bytes, best, reference == 0 ? y_ref : NULL, common);
  cudaFree(y_ref);
  fflush(stdout);
  return ours[0];
}

/* --- CG -------------------------------------------------------------------------------------- */

/* Seconds of one csr_solve of max_iter iterations (no convergence at rtol 1e-30), median of 3. */
static double solve_seconds(csr_context *ctx, device_matrix &d, csr_vector *b,
                            csr_solver_method method, int64_t max_iter, int64_t *iterations) {
  std::vector<double> t;
  for (int r = 0; r < 3; r++) {
    csr_solver_options o;
    csr_solver_options_init(&o);
    o.method = method;
    o.rtol = 1e-30;
    o.max_iter = max_iter;
    csr_solver_info info;
    CSR_OK(ctx, csr_fill(ctx, 0.0, d.y));
    CHECK_CUDA(cudaDeviceSynchronize());
    double t0 = bench_now_s();
    CSR_OK(ctx, csr_solve(ctx, d.A, b, d.y, &o, &info));
    CHECK_CUDA(cudaDeviceSynchronize());
    t.push_back(bench_now_s() - t0);
    *iterations = info.iterations;
  }
  std::sort(t.begin(), t.end());
  return t[1];
}

static void bench_cg(csr_context *ctx, const char *name, device_matrix &d, double spmv_ms) {
  csr_vector *b = NULL;
  CSR_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
  CSR_OK(ctx, csr_vector_clone(ctx, d.x, &b, CSR_DEVICE)); /* b random, x0 = 0 */
  const csr_solver_method methods[2] = {CSR_SOLVER_CG, CSR_SOLVER_PCG_JACOBI};
  const char *mname[2] = {"cg", "pcg_jacobi"};
  const int64_t k1 = 10, k2 = 110;
  for (int m = 0; m < 2; m++) {
    int64_t i1 = 0, i2 = 0;
    double t1 = solve_seconds(ctx, d, b, methods[m], k1, &i1);
    double t2 = solve_seconds(ctx, d, b, methods[m], k2, &i2);
    double per = (t2 - t1) / (double)(i2 - i1);
    printf("%-28s %-10s %lld vs %lld iterations: %.3f ms per iteration = %.2f x one SpMV of ours "
           "(%.3f ms)\n",
           name, mname[m], (long long)i1, (long long)i2, per * 1e3, per * 1e3 / spmv_ms, spmv_ms);
    char extra[96];
    snprintf(extra, sizeof extra, "iteration_over_spmv=%.3f;iterations=%lld-%lld",
             per * 1e3 / spmv_ms, (long long)i1, (long long)i2);
    /* ratio = SpMV / iteration; libcsr's goal, iteration <= 1.6 SpMV, is ratio >= 1/1.6. */
    csv_row("gpu_cg", name, mname[m], per, "one SpMV of ours (same run)", spmv_ms * 1e-3, 1.0 / 1.6,
            0.0, extra);
  }
  csr_vector_free(&b);
}

/* x for a case: random in [0.5, 1.5), the same for fp64 and fp32 (rounded there). */
static std::vector<double> random_x(int64_t n) {
  std::vector<double> x(n);
  for (double &v : x)
    v = 0.5 + uniform01();
  return x;
}

/* Fixed costs: one device reduction (csr_dot of 1024 entries: launch, synchronisation, result
 * to the host) and one CG iteration on a matrix too small to take time (16^3 Poisson), whose
 * time per iteration is then the per-iteration overhead the large runs also pay. */
static void bench_overheads(csr_context *ctx) {
  csr_vector *a = NULL, *b = NULL;
  CSR_OK(ctx, csr_vector_create(ctx, &a, 1024, CSR_F64, CSR_DEVICE));
  CSR_OK(ctx, csr_vector_create(ctx, &b, 1024, CSR_F64, CSR_DEVICE));
  CSR_OK(ctx, csr_fill(ctx, 1.0, a));
  CSR_OK(ctx, csr_fill(ctx, 2.0, b));
  std::vector<double> t;
  double r = 0.0;
  for (int k = 0; k < 200; k++) {
    double t0 = bench_now_s();
    CSR_OK(ctx, csr_dot(ctx, a, b, &r));
    t.push_back(bench_now_s() - t0);
  }
  std::sort(t.begin(), t.end());
  printf("overhead: csr_dot of 1024 device entries %.1f us (median of 200)\n", t[100] * 1e6);
  csv_row("gpu_overhead", "dot_1024", "per_call", t[100], "", 0.0, 0.0, 0.0, "");
  csr_vector_free(&a);
  csr_vector_free(&b);
  host_csr H = stencil(3, 16, 0);
  device_matrix d = upload<double>(ctx, H, random_x(H.cols));
  csr_vector *rhs = NULL;
  CSR_OK(ctx, csr_vector_clone(ctx, d.x, &rhs, CSR_DEVICE));
  int64_t i1 = 0, i2 = 0;
  double t1 = solve_seconds(ctx, d, rhs, CSR_SOLVER_CG, 10, &i1);
  double t2 = solve_seconds(ctx, d, rhs, CSR_SOLVER_CG, 110, &i2);
  double per = (t2 - t1) / (double)(i2 - i1);
  printf("overhead: one CG iteration on a 16^3 Poisson matrix %.1f us\n", per * 1e6);
  csv_row("gpu_overhead", "cg_iteration_16^3", "per_iteration", per, "", 0.0, 0.0, 0.0, "");
  csr_vector_free(&rhs);
  release(d);
}

/* One case: built on the host, then fp64 (and CG where asked), then fp32, each freed before the
 * next, so the device holds one copy of one matrix at a time. */
static void run_case(csr_context *ctx, const spmv_case &c, int precisions) {
  double t0 = bench_now_s();
  host_csr H = c.make();
  std::vector<double> x = random_x(H.cols);
  int64_t longest = longest_row(H);
  const gather_shape gathers = describe_gathers(H);
  printf("%s: built in %.1f s\n", c.name.c_str(), bench_now_s() - t0);
  if ((precisions & 1) || c.cg) {
    device_matrix d = upload<double>(ctx, H, x);
    double ms =
        (precisions & 1) ? bench_spmv<double>(ctx, c.name.c_str(), d, longest, gathers) : NAN;
    if (c.cg) {
      if (std::isnan(ms)) { /* AUTO was not among the kernels timed: CG compares with it */
        CSR_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
        ms = median_ms([&] { CSR_OK(ctx, csr_spmv(ctx, 1.0, d.A, d.x, 0.0, d.y)); });
      }
      bench_cg(ctx, c.name.c_str(), d, ms);
    }
    release(d);
  }
  if (precisions & 2) {
    device_matrix d = upload<float>(ctx, H, x);
    bench_spmv<float>(ctx, c.name.c_str(), d, longest, gathers);
    release(d);
  }
}

/* --kernels auto,segmented: the bits of g_kernels; -1 for a name that is none of ours. */
static int parse_kernels(const char *list) {
  int bits = 0;
  std::string s = std::string(list) + ",";
  for (size_t at = 0, end; (end = s.find(',', at)) != std::string::npos; at = end + 1) {
    int k = 0;
    while (k < KERNELS && s.compare(at, end - at, kernel_names[k]) != 0)
      k++;
    if (k == KERNELS)
      return -1;
    bits |= 1 << k;
  }
  return bits;
}

int main(int argc, char **argv) {
  int quick = 0, only_cg = 0, precisions = 3; /* bit 0: fp64, bit 1: fp32 */
  const char *matrices = NULL, *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--csv") && i + 1 < argc)
      g_csv = fopen(argv[++i], "w");
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      g_reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--only-cg"))
      only_cg = 1;
    else if (!strcmp(argv[i], "--matrices") && i + 1 < argc)
      matrices = argv[++i];
    else if (!strcmp(argv[i], "--cases") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp(argv[i], "--limit-ms") && i + 1 < argc)
      kernel_limit_ms = atof(argv[++i]);
    else if (!strcmp(argv[i], "--packed") && i + 1 < argc)
      g_packed = strcmp(argv[++i], "off") != 0;
    else if (!strcmp(argv[i], "--kernels") && i + 1 < argc)
      g_kernels = parse_kernels(argv[++i]);
    else if (!strcmp(argv[i], "--precision") && i + 1 < argc) {
      const char *p = argv[++i];
      precisions = !strcmp(p, "f64") ? 1 : !strcmp(p, "f32") ? 2 : !strcmp(p, "both") ? 3 : 0;
    } else /* not fatal: run_gpu.sh passes one CSR_BENCH_ARGS to every GPU benchmark */
      fprintf(stderr, "ignored: %s (options: the head of bench/gpu_bench_spmv_cg.cu)\n", argv[i]);
  }
  if (g_kernels < 0 || precisions == 0) {
    fprintf(stderr,
            "--kernels takes auto,scalar,vector,segmented,stream; --precision f64, f32 or both\n");
    return 2;
  }
  if (matrices == NULL)
    matrices = bench_default_matrices();
  if (g_reps < 1)
    g_reps = 1;
  double start = bench_now_s();
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  g_sms = prop.multiProcessorCount;
  int runtime = 0, major = 0, minor = 0;
  cudaRuntimeGetVersion(&runtime);
  cusparseGetProperty(MAJOR_VERSION, &major);
  cusparseGetProperty(MINOR_VERSION, &minor);
  bench_device_and_date(g_device, sizeof g_device, g_date, sizeof g_date);
  snprintf(g_anchor, sizeof g_anchor, "cuSPARSE %d.%d best of CSR ALG1/ALG2 (CUDA %d.%d)", major,
           minor, runtime / 1000, runtime % 1000 / 10);
  bench_csv_header(g_csv);
  double copy_ms = 0.0;
  g_copy_gbps = bench_copy_gbs(g_reps, &copy_ms);
  printf("device %s, L2 %d MB, copy %.0f GB/s (read + write), median of %d\n", prop.name,
         prop.l2CacheSize >> 20, g_copy_gbps, g_reps);
  csr_context *ctx = NULL;
  CSR_OK(ctx, csr_context_create(&ctx));
  CHECK_SPARSE(cusparseCreate(&g_sparse));
  CHECK_CUDA(cudaMalloc(&g_count, sizeof *g_count));

  if (!only_cg && only == NULL)
    bench_overheads(ctx);
  if (!only_cg)
    printf("matrices: %s\n", matrices);
  std::vector<spmv_case> cases =
      spmv_cases(ctx, only_cg ? NULL : matrices, quick, quick ? 2000000 : 30000000);
  for (const spmv_case &c : cases) {
    if ((only_cg && !c.cg) || !bench_name_selected(c.name, only))
      continue;
    run_case(ctx, c, precisions);
  }
  cudaFree(g_count);
  cusparseDestroy(g_sparse);
  csr_context_free(&ctx);
  printf("total %.0f s\n", bench_now_s() - start);
  if (g_csv)
    fclose(g_csv);
  return 0;
}
