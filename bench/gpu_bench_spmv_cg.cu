/* GPU benchmark of libcsr's SpMV against cuSPARSE, and of one CG iteration against one SpMV of
 * ours, in the same run on the same matrices (generated here: stencils, uniform random rows,
 * R-MAT, a few very long rows; all larger than the L2 cache, values random and non-zero).
 *   SpMV: y = A x, median of --reps calls after warm-up, CUDA events; floor bytes
 *         12 nnz + 8 (rows + 1) + 8 cols + 8 rows (our 64-bit offsets; cuSPARSE gets a copy
 *         with 32-bit offsets, so its floor is 4 (rows + 1) bytes smaller); the fraction of the
 *         device-to-device copy bandwidth measured in the same run.
 *   CG:   time per iteration of csr_solve (CG and Jacobi-PCG) = (T(K2) - T(K1)) / (K2 - K1),
 *         setup and final residual cancelling, over one SpMV of ours (libcsr's goal: <= 1.6).
 * usage: gpu_bench_spmv_cg [--csv FILE] [--reps N] [--quick] [--only-cg] (--quick: smaller
 * matrices; --only-cg: the two Poisson matrices, SpMV and CG, nothing else). */
#include "csr.h"

#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vector>

#define CUDA_OK(call)                                                                              \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));       \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)
#define CSR_OK(ctx, call)                                                                          \
  do {                                                                                             \
    csr_status s_ = (call);                                                                        \
    if (s_ < 0) {                                                                                  \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, csr_context_last_error(ctx));  \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)
#define SPARSE_OK(call)                                                                            \
  do {                                                                                             \
    cusparseStatus_t s_ = (call);                                                                  \
    if (s_ != CUSPARSE_STATUS_SUCCESS) {                                                           \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cusparseGetErrorString(s_));   \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static int g_reps = 30;
static FILE *g_csv = NULL;
static char g_device[128] = "?", g_date[32] = "?";
static double g_copy_gbps = 0.0;

/* --- generators (host, CSR with random values in [0.5, 1.5) or stencil values) -------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_u64() { /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double uniform01() {
  return (double)(next_u64() >> 11) * 0x1p-53;
}

struct host_csr {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> off;
  std::vector<int32_t> col;
  std::vector<double> val;
};

/* Stencil on an n^d grid (d = 2 or 3): the 5/7-point Laplacian (diagonal 2d, -1 off), or with
 * full = 1 the 27-point box (diagonal 26, -1 off). SPD. */
static host_csr stencil(int d, int64_t n, int full) {
  host_csr A;
  int64_t nz = d == 3 ? n : 1, rows = n * n * nz;
  A.rows = A.cols = rows;
  A.off.resize(rows + 1);
  A.off[0] = 0;
  A.col.reserve(rows * (full ? 27 : 2 * d + 1));
  A.val.reserve(A.col.capacity());
  for (int64_t z = 0; z < nz; z++)
    for (int64_t y = 0; y < n; y++)
      for (int64_t x = 0; x < n; x++) {
        int64_t i = (z * n + y) * n + x;
        for (int dz = (d == 3 ? -1 : 0); dz <= (d == 3 ? 1 : 0); dz++)
          for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
              int far = (dx != 0) + (dy != 0) + (dz != 0);
              if (!full && far > 1)
                continue;
              int64_t X = x + dx, Y = y + dy, Z = z + dz;
              if (X < 0 || X >= n || Y < 0 || Y >= n || Z < 0 || Z >= nz)
                continue;
              A.col.push_back((int32_t)((Z * n + Y) * n + X));
              A.val.push_back(far == 0 ? (full ? 26.0 : 2.0 * d) : -1.0);
            }
        A.off[i + 1] = (int64_t)A.col.size();
      }
  return A;
}

/* rows x cols, row i with len(i) distinct-enough random columns (sorted), random values. */
template <typename Len> static host_csr random_rows(int64_t rows, int64_t cols, Len len) {
  host_csr A;
  A.rows = rows;
  A.cols = cols;
  A.off.resize(rows + 1);
  A.off[0] = 0;
  for (int64_t i = 0; i < rows; i++)
    A.off[i + 1] = A.off[i] + len(i);
  A.col.resize(A.off[rows]);
  A.val.resize(A.off[rows]);
  for (int64_t i = 0; i < rows; i++) {
    for (int64_t k = A.off[i]; k < A.off[i + 1]; k++) {
      A.col[k] = (int32_t)(next_u64() % (uint64_t)cols);
      A.val[k] = 0.5 + uniform01();
    }
    std::sort(A.col.begin() + A.off[i], A.col.begin() + A.off[i + 1]);
  }
  return A;
}

/* R-MAT (a, b, c, d) = (0.57, 0.19, 0.19, 0.05): 2^scale vertices, edge_factor edges each,
 * duplicate edges kept (a row may hold a column more than once). */
static host_csr rmat(int scale, int64_t edge_factor) {
  int64_t n = (int64_t)1 << scale, m = n * edge_factor;
  std::vector<int32_t> src(m), dst(m);
  for (int64_t e = 0; e < m; e++) {
    int64_t i = 0, j = 0;
    for (int l = 0; l < scale; l++) {
      double u = uniform01();
      int bi = u >= 0.76, bj = (u >= 0.57 && u < 0.76) || u >= 0.95;
      i = 2 * i + bi;
      j = 2 * j + bj;
    }
    src[e] = (int32_t)i;
    dst[e] = (int32_t)j;
  }
  host_csr A;
  A.rows = A.cols = n;
  A.off.assign(n + 1, 0);
  for (int64_t e = 0; e < m; e++)
    A.off[src[e] + 1]++;
  for (int64_t i = 0; i < n; i++)
    A.off[i + 1] += A.off[i];
  A.col.resize(m);
  A.val.resize(m);
  std::vector<int64_t> next(A.off.begin(), A.off.end() - 1);
  for (int64_t e = 0; e < m; e++) {
    int64_t k = next[src[e]]++;
    A.col[k] = dst[e];
    A.val[k] = 0.5 + uniform01();
  }
  for (int64_t i = 0; i < n; i++)
    std::sort(A.col.begin() + A.off[i], A.col.begin() + A.off[i + 1]);
  return A;
}

/* --- timing ------------------------------------------------------------------------------------
 */

template <typename F> static double median_ms(F call) {
  cudaEvent_t a, b;
  CUDA_OK(cudaEventCreate(&a));
  CUDA_OK(cudaEventCreate(&b));
  for (int w = 0; w < 3; w++)
    call();
  std::vector<float> t(g_reps);
  for (int r = 0; r < g_reps; r++) {
    CUDA_OK(cudaEventRecord(a));
    call();
    CUDA_OK(cudaEventRecord(b));
    CUDA_OK(cudaEventSynchronize(b));
    CUDA_OK(cudaEventElapsedTime(&t[r], a, b));
  }
  std::sort(t.begin(), t.end());
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return t[g_reps / 2];
}

static double now_s() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
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
}

static double copy_bandwidth() {
  size_t bytes = (size_t)1 << 30;
  void *a = NULL, *b = NULL;
  CUDA_OK(cudaMalloc(&a, bytes));
  CUDA_OK(cudaMalloc(&b, bytes));
  CUDA_OK(cudaMemset(a, 1, bytes));
  double ms = median_ms([&] { CUDA_OK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); });
  cudaFree(a);
  cudaFree(b);
  return 2.0 * (double)bytes / (ms * 1e-3) * 1e-9; /* read + write */
}

/* --- one matrix ---------------------------------------------------------------------------- */

struct device_matrix {
  csr_matrix *A = NULL; /* ours, on the device */
  csr_vector *x = NULL, *y = NULL;
  void *off32 = NULL; /* cuSPARSE's copy of the offsets, 32-bit */
};

static device_matrix upload(csr_context *ctx, const host_csr &H) {
  device_matrix d;
  csr_matrix *A = NULL;
  int64_t nnz = (int64_t)H.col.size();
  CSR_OK(ctx, csr_matrix_create(ctx, &A, H.rows, H.cols, nnz, CSR_F64, CSR_HOST));
  memcpy(A->row_offsets, H.off.data(), (H.rows + 1) * sizeof(int64_t));
  memcpy(A->col_indices, H.col.data(), nnz * sizeof(int32_t));
  memcpy(A->values, H.val.data(), nnz * sizeof(double));
  A->flags = CSR_FLAG_SORTED;
  CSR_OK(ctx, csr_matrix_copy(ctx, A, &d.A, CSR_DEVICE));
  csr_matrix_free(&A);
  csr_vector *xh = NULL;
  CSR_OK(ctx, csr_vector_create(ctx, &xh, H.cols, CSR_F64, CSR_HOST));
  for (int64_t j = 0; j < H.cols; j++)
    ((double *)xh->data)[j] = 0.5 + uniform01();
  CSR_OK(ctx, csr_vector_clone(ctx, xh, &d.x, CSR_DEVICE));
  CSR_OK(ctx, csr_vector_create(ctx, &d.y, H.rows, CSR_F64, CSR_DEVICE));
  csr_vector_free(&xh);
  std::vector<int32_t> o32(H.rows + 1);
  for (int64_t i = 0; i <= H.rows; i++)
    o32[i] = (int32_t)H.off[i];
  CUDA_OK(cudaMalloc(&d.off32, (H.rows + 1) * sizeof(int32_t)));
  CUDA_OK(cudaMemcpy(d.off32, o32.data(), (H.rows + 1) * sizeof(int32_t), cudaMemcpyHostToDevice));
  return d;
}

static void release(device_matrix &d) {
  csr_matrix_free(&d.A);
  csr_vector_free(&d.x);
  csr_vector_free(&d.y);
  cudaFree(d.off32);
}

/* max_i |a_i - b_i| / max_i |b_i| over two device vectors. */
static double relative_difference(const double *a, const double *b, int64_t n) {
  std::vector<double> ha(n), hb(n);
  CUDA_OK(cudaMemcpy(ha.data(), a, n * 8, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(hb.data(), b, n * 8, cudaMemcpyDeviceToHost));
  double diff = 0.0, mag = 0.0;
  for (int64_t i = 0; i < n; i++) {
    diff = fmax(diff, fabs(ha[i] - hb[i]));
    mag = fmax(mag, fabs(hb[i]));
  }
  return mag > 0 ? diff / mag : diff;
}

/* SpMV: ours with each kernel, cuSPARSE ALG1 and ALG2; returns our AUTO time in ms. row_kernels
 * = 0 times the segmented kernel alone (a row of millions of entries keeps the row-per-thread
 * kernels busy for seconds per call); the others are then reported as not measured (NaN). */
static double bench_spmv(csr_context *ctx, const char *name, device_matrix &d,
                         int row_kernels = 1) {
  csr_matrix *A = d.A;
  double floor_bytes = 12.0 * A->nnz + 8.0 * (A->rows + 1) + 8.0 * A->cols + 8.0 * A->rows;
  const csr_spmv_kernel kernels[4] = {CSR_KERNEL_AUTO, CSR_KERNEL_SCALAR, CSR_KERNEL_VECTOR,
                                      CSR_KERNEL_SEGMENTED};
  const char *kname[4] = {"auto", "scalar", "vector", "segmented"};
  double ours[4];
  for (int k = 0; k < 4; k++) {
    ours[k] = NAN;
    if (!row_kernels && kernels[k] != CSR_KERNEL_SEGMENTED)
      continue;
    CSR_OK(ctx, csr_context_set_kernel(ctx, kernels[k]));
    ours[k] = median_ms([&] { CSR_OK(ctx, csr_spmv(ctx, 1.0, A, d.x, 0.0, d.y)); });
  }
  /* The segmented kernel gives the same bits on every call. */
  double *y_first = NULL;
  int same_bits = 1;
  CSR_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_SEGMENTED));
  CUDA_OK(cudaMalloc(&y_first, A->rows * 8 + 8));
  CSR_OK(ctx, csr_spmv(ctx, 1.0, A, d.x, 0.0, d.y));
  CUDA_OK(cudaMemcpy(y_first, d.y->data, A->rows * 8, cudaMemcpyDeviceToDevice));
  for (int r = 0; r < 5; r++) {
    CSR_OK(ctx, csr_spmv(ctx, 1.0, A, d.x, 0.0, d.y));
    same_bits &= relative_difference(y_first, (const double *)d.y->data, A->rows) == 0.0;
  }
  cudaFree(y_first);
  /* The y the comparison with cuSPARSE reads: AUTO's, or the segmented kernel's alone (already
   * in d.y). */
  CSR_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
  if (row_kernels)
    CSR_OK(ctx, csr_spmv(ctx, 1.0, A, d.x, 0.0, d.y));
  /* cuSPARSE on the same arrays (32-bit offsets), into its own y. */
  double *ys = NULL;
  CUDA_OK(cudaMalloc(&ys, A->rows * 8 + 8));
  cusparseHandle_t h;
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t vx, vy;
  SPARSE_OK(cusparseCreate(&h));
  SPARSE_OK(cusparseCreateCsr(&mat, A->rows, A->cols, A->nnz, d.off32, A->col_indices, A->values,
                              CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                              CUDA_R_64F));
  SPARSE_OK(cusparseCreateDnVec(&vx, A->cols, d.x->data, CUDA_R_64F));
  SPARSE_OK(cusparseCreateDnVec(&vy, A->rows, ys, CUDA_R_64F));
  double one = 1.0, zero = 0.0, theirs[2], diff[2];
  cusparseSpMVAlg_t algs[2] = {CUSPARSE_SPMV_CSR_ALG1, CUSPARSE_SPMV_CSR_ALG2};
  for (int a = 0; a < 2; a++) {
    size_t bytes = 0;
    void *buffer = NULL;
    SPARSE_OK(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy,
                                      CUDA_R_64F, algs[a], &bytes));
    CUDA_OK(cudaMalloc(&buffer, bytes + 8));
    SPARSE_OK(cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy,
                                      CUDA_R_64F, algs[a], buffer));
    theirs[a] = median_ms([&] {
      SPARSE_OK(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy,
                             CUDA_R_64F, algs[a], buffer));
    });
    diff[a] = relative_difference((const double *)d.y->data, ys, A->rows);
    cudaFree(buffer);
  }
  cusparseDestroySpMat(mat);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroy(h);
  cudaFree(ys);
  double best = fmin(theirs[0], theirs[1]);
  printf("%-28s rows %9lld nnz %10lld | ours auto %.3f scalar %.3f vector %.3f segmented %.3f ms "
         "| cuSPARSE ALG1 %.3f ALG2 %.3f ms | best cuSPARSE / ours auto %.2f, segmented %.2f | "
         "copy fraction auto %.0f%% segmented %.0f%% | max rel diff %.1e %.1e | segmented "
         "repeats its bits: %s\n",
         name, (long long)A->rows, (long long)A->nnz, ours[0], ours[1], ours[2], ours[3], theirs[0],
         theirs[1], best / ours[0], best / ours[3],
         floor_bytes / (ours[0] * 1e-3) * 1e-9 / g_copy_gbps * 100,
         floor_bytes / (ours[3] * 1e-3) * 1e-9 / g_copy_gbps * 100, diff[0], diff[1],
         same_bits ? "yes" : "NO");
  char extra[192];
  snprintf(extra, sizeof extra,
           "rows=%lld;nnz=%lld;alg1_ms=%.4f;alg2_ms=%.4f;max_rel_diff_alg1=%.1e;alg2=%.1e;"
           "segmented_same_bits=%d",
           (long long)A->rows, (long long)A->nnz, theirs[0], theirs[1], diff[0], diff[1],
           same_bits);
  for (int k = 0; k < 4; k++)
    if (!std::isnan(ours[k]))
      csv_row("gpu_spmv", name, kname[k], ours[k] * 1e-3,
              "cuSPARSE 12 best of CSR ALG1/ALG2 (CUDA 13.0)", best * 1e-3, 1.0, floor_bytes,
              extra);
  return row_kernels ? ours[0] : ours[3];
}

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
    CUDA_OK(cudaDeviceSynchronize());
    double t0 = now_s();
    CSR_OK(ctx, csr_solve(ctx, d.A, b, d.y, &o, &info));
    CUDA_OK(cudaDeviceSynchronize());
    t.push_back(now_s() - t0);
    *iterations = info.iterations;
  }
  std::sort(t.begin(), t.end());
  return t[1];
}

static void bench_cg(csr_context *ctx, const char *name, device_matrix &d, double spmv_ms) {
  csr_vector *b = NULL;
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
    double t0 = now_s();
    CSR_OK(ctx, csr_dot(ctx, a, b, &r));
    t.push_back(now_s() - t0);
  }
  std::sort(t.begin(), t.end());
  printf("overhead: csr_dot of 1024 device entries %.1f us (median of 200)\n", t[100] * 1e6);
  csv_row("gpu_overhead", "dot_1024", "per_call", t[100], "", 0.0, 0.0, 0.0, "");
  csr_vector_free(&a);
  csr_vector_free(&b);
  host_csr H = stencil(3, 16, 0);
  device_matrix d = upload(ctx, H);
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

int main(int argc, char **argv) {
  int quick = 0, only_cg = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--csv") && i + 1 < argc)
      g_csv = fopen(argv[++i], "w");
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      g_reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--only-cg"))
      only_cg = 1;
  }
  if (g_reps < 1)
    g_reps = 1;
  cudaDeviceProp prop;
  CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  snprintf(g_device, sizeof g_device, "%s %d SMs CUDA %d.%d", prop.name, prop.multiProcessorCount,
           runtime / 1000, runtime % 1000 / 10);
  for (char *c = g_device; *c; c++)
    if (*c == ',')
      *c = ' ';
  time_t now = time(NULL);
  strftime(g_date, sizeof g_date, "%Y-%m-%dT%H:%MZ", gmtime(&now));
  if (g_csv)
    fprintf(g_csv, "benchmark,case,variant,ours_seconds,anchor_name,anchor_seconds,ratio,"
                   "target_ratio,bytes,ours_gbs,floor_gbs,fraction_of_floor,"
                   "anchor_fraction_of_floor,extra,device,date_utc,command\n");
  g_copy_gbps = copy_bandwidth();
  printf("device %s, L2 %d MB, copy %.0f GB/s (read + write), median of %d\n", prop.name,
         prop.l2CacheSize >> 20, g_copy_gbps, g_reps);
  csr_context *ctx = NULL;
  CSR_OK(ctx, csr_context_create(&ctx));

  bench_overheads(ctx);
  int64_t n3 = quick ? 64 : 193; /* 193^3: 7.19M rows, 50.1M nonzeros */
  {
    host_csr H = stencil(3, n3, 0);
    device_matrix d = upload(ctx, H);
    char name[64];
    snprintf(name, sizeof name, "poisson3d_7pt_%lld", (long long)n3);
    double ms = bench_spmv(ctx, name, d);
    bench_cg(ctx, name, d, ms);
    release(d);
  }
  if (!quick) {
    host_csr H = stencil(3, 256, 0); /* 16.8M rows, 117M nonzeros */
    device_matrix d = upload(ctx, H);
    double ms = bench_spmv(ctx, "poisson3d_7pt_256", d);
    bench_cg(ctx, "poisson3d_7pt_256", d, ms);
    release(d);
  }
  struct {
    const char *name;
    host_csr (*make)(int);
  } others[] = {
      {"poisson2d_5pt_3000", [](int q) { return stencil(2, q ? 500 : 3000, 0); }},
      {"stencil3d_27pt_150", [](int q) { return stencil(3, q ? 40 : 150, 1); }},
      {"uniform_16_per_row",
       [](int q) {
         return random_rows(q ? 1 << 18 : 4000000, q ? 1 << 18 : 4000000,
                            [](int64_t) { return (int64_t)16; });
       }},
      {"8_per_row_40_long_rows",
       [](int q) {
         int64_t n = q ? 1 << 18 : 4000000;
         return random_rows(
             n, n, [n](int64_t i) { return i % (n / 40) == 0 ? (int64_t)(n / 20) : (int64_t)8; });
       }},
      {"rmat_22_16", [](int q) { return rmat(q ? 16 : 22, 16); }},
  };
  for (auto &o : others) {
    if (only_cg)
      break;
    host_csr H = o.make(quick);
    device_matrix d = upload(ctx, H);
    bench_spmv(ctx, o.name, d);
    release(d);
  }
  if (!only_cg) { /* one row holds half of the nonzeros: the segmented kernel alone */
    int64_t n = quick ? 1 << 18 : 4000000;
    host_csr H = random_rows(n, n, [n](int64_t i) { return i == n / 3 ? 8 * n : (int64_t)8; });
    device_matrix d = upload(ctx, H);
    bench_spmv(ctx, "one_row_half_of_nnz", d, 0);
    release(d);
  }
  csr_context_free(&ctx);
  if (g_csv)
    fclose(g_csv);
  return 0;
}
