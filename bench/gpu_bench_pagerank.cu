/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU benchmark of csr_pagerank on device operands, against a cuSPARSE power loop and against one
 * pattern SpMV of ours on the same pull graph, in the same run, on the graphs of
 * bench/spmv_cases.h (graph_cases: the square pattern matrices and edge lists of --matrices DIR
 * replicated to at least 50M links, R-MAT of scale 23 and 24), ranks in fp64, d = 0.85.
 *   ours:      time per iteration = (T(K2) - T(K1)) / (K2 - K1), T(K) the median of 3 host-clock
 *              times of csr_pagerank stopped after K iterations (tol 1e-300): the set-up
 * (out-degrees, the pull graph, the first spread, the last iteration run again to write r)
 * cancels; set-up = T(K1) - K1 * iteration. SpMV:
 * csr_spmv of the pull graph (pattern, f64 x and y, AUTO), median of --reps after warm-up (CUDA
 * events); goal: iteration <= 1.15 SpMV. cuSPARSE:  the pull graph with values 1 / out-degree
 * (32-bit offsets), per iteration cusparseSpMV (best of CSR ALG1 / ALG2, buffer and preprocessing
 * outside the timing), an element-wise update kernel (r' = d (y + dangling / n) + (1 - d) / n, |r'
 * - r|, r' on dangling pages), two cub::DeviceReduce::Sum (L1 change, next dangling sum) and one
 * copy of the L1 change to the host; timed as ours. Goal: ours >= 1.5x faster. floor:     4 bytes
 * per link + the ranks read and written once (16 n) at the copy bandwidth of the same run; links
 * per second = links / iteration time. The ranks of ours after K2 iterations are compared with
 * cuSPARSE's (L1) and with a second run of ours (same bits). --sweep: instead of those graphs,
 * R-MAT of 2^26 links with 2, 4, ..., 64 links a page (scale 25 down to 20), which places the
 * links a page where the iteration's fused and split forms cost the same (the row reports
 * links_per_page). usage: gpu_bench_pagerank [--csv FILE] [--reps N] [--quick] [--matrices DIR]
 * [--cases TEXT] [--sweep] [--compress auto|on|off]
 * --compress: whether csr_pagerank packs the pull graph's column indices (default auto). */
#include "csr.h"
#include "gpu_bench_common.cuh"
#include "spmv_cases.h"

#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <cmath>
#include <stdio.h>
#include <string.h>
#include <string>
#include <time.h>
#include <vector>

static const double DAMPING = 0.85;
static const int K1 = 5, K2 = 45;
static int g_reps = 20;
static int g_profile = 0; /* > 0: only our PageRank, that many iterations (--profile) */
static csr_compress g_compress = CSR_COMPRESS_AUTO; /* --compress auto|on|off: the pull graph's */
static double g_copy_gbps = 0.0;

/* Median of 3 host-clock times of f() (which ends with the device idle), in ms. */
template <typename F> static double median3_ms(F f) {
  std::vector<double> t;
  for (int i = 0; i < 3; i++) {
    double a = bench_now_s();
    f();
    CHECK_CUDA(cudaDeviceSynchronize());
    t.push_back((bench_now_s() - a) * 1e3);
  }
  std::sort(t.begin(), t.end());
  return t[1];
}

/* --- ours ------------------------------------------------------------------------------------ */

static csr_matrix *upload_graph(csr_context *ctx, const host_csr &H) {
  csr_matrix *A = NULL;
  const int64_t m = (int64_t)H.col.size();
  CSR_OK(ctx, csr_matrix_create(ctx, &A, H.rows, H.cols, m, CSR_PATTERN, CSR_DEVICE));
  CHECK_CUDA(cudaMemcpy(A->row_offsets, H.off.data(), (H.rows + 1) * sizeof(int64_t),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(A->col_indices, H.col.data(), m * sizeof(int32_t), cudaMemcpyHostToDevice));
  A->flags = CSR_FLAG_SORTED;
  return A;
}

static csr_status ours(csr_context *ctx, const csr_matrix *A, int64_t iterations, csr_vector *r) {
  csr_pagerank_options o;
  csr_pagerank_options_init(&o);
  o.damping = DAMPING;
  o.tol = 1e-300;
  o.max_iter = iterations;
  o.compress = g_compress;
  csr_status s = csr_pagerank(ctx, A, &o, r, NULL);
  return s == CSR_INFO_NOT_CONVERGED ? CSR_SUCCESS : s;
}

/* --- the cuSPARSE power loop ----------------------------------------------------------------- */

/* r'_i = d (y_i + dangling / n) + (1 - d) / n; diff_i = |r'_i - r_i|; hang_i = r'_i on a
 * dangling page, else 0. */
__global__ void update_kernel(int64_t n, double d, const double *y, const double *dangling,
                              const double *r, const unsigned char *is_dangling, double *r_next,
                              double *diff, double *hang) {
  const double base = *dangling / (double)n, teleport = (1.0 - d) / (double)n;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    double next = d * (y[i] + base) + teleport;
    diff[i] = fabs(next - r[i]);
    hang[i] = is_dangling[i] ? next : 0.0;
    r_next[i] = next;
  }
}

__global__ void fill_kernel(int64_t n, double v, double *x) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    x[i] = v;
}

__global__ void dangling_kernel(int64_t n, const double *r, const unsigned char *is_dangling,
                                double *hang) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    hang[i] = is_dangling[i] ? r[i] : 0.0;
}

struct power_loop {
  int64_t n = 0, m = 0;
  cusparseHandle_t h = NULL;
  cusparseSpMatDescr_t AT = NULL;
  cusparseDnVecDescr_t vr = NULL, vnext = NULL, vy = NULL;
  int *off = NULL, *col = NULL;
  double *val = NULL, *r = NULL, *next = NULL, *y = NULL, *diff = NULL, *hang = NULL, *sums = NULL;
  unsigned char *is_dangling = NULL;
  void *buffer[2] = {NULL, NULL}, *cub_temp = NULL;
  size_t cub_bytes = 0;

  /* The pull graph A^T of H with values 1 / out-degree, built on the host. */
  void build(const host_csr &H) {
    n = H.rows;
    m = (int64_t)H.col.size();
    std::vector<int> toff(n + 1, 0), tcol(m);
    std::vector<double> tval(m);
    std::vector<unsigned char> dang(n);
    for (int64_t k = 0; k < m; k++)
      toff[H.col[k] + 1]++;
    for (int64_t i = 0; i < n; i++)
      toff[i + 1] += toff[i];
    std::vector<int> next_slot(toff.begin(), toff.end() - 1);
    for (int64_t i = 0; i < n; i++) {
      const int64_t deg = H.off[i + 1] - H.off[i];
      dang[i] = deg == 0;
      for (int64_t k = H.off[i]; k < H.off[i + 1]; k++) {
        int slot = next_slot[H.col[k]]++;
        tcol[slot] = (int)i;
        tval[slot] = 1.0 / (double)deg;
      }
    }
    CHECK_CUDA(cudaMalloc(&off, (n + 1) * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&col, m * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&val, m * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&is_dangling, n));
    for (double **v : {&r, &next, &y, &diff, &hang})
      CHECK_CUDA(cudaMalloc(v, n * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&sums, 2 * sizeof(double)));
    CHECK_CUDA(cudaMemcpy(off, toff.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(col, tcol.data(), m * sizeof(int), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(val, tval.data(), m * sizeof(double), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(is_dangling, dang.data(), n, cudaMemcpyHostToDevice));
    CHECK_SPARSE(cusparseCreate(&h));
    CHECK_SPARSE(cusparseCreateCsr(&AT, n, n, m, off, col, val, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CHECK_SPARSE(cusparseCreateDnVec(&vr, n, r, CUDA_R_64F));
    CHECK_SPARSE(cusparseCreateDnVec(&vy, n, y, CUDA_R_64F));
    CHECK_CUDA(cub::DeviceReduce::Sum(NULL, cub_bytes, diff, sums, n));
    CHECK_CUDA(cudaMalloc(&cub_temp, cub_bytes));
    const double one = 1.0, zero = 0.0;
    const cusparseSpMVAlg_t algs[2] = {CUSPARSE_SPMV_CSR_ALG1, CUSPARSE_SPMV_CSR_ALG2};
    for (int a = 0; a < 2; a++) {
      size_t bytes = 0;
      CHECK_SPARSE(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, AT, vr, &zero,
                                           vy, CUDA_R_64F, algs[a], &bytes));
      CHECK_CUDA(cudaMalloc(&buffer[a], bytes + 1));
      CHECK_SPARSE(cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, AT, vr, &zero,
                                           vy, CUDA_R_64F, algs[a], buffer[a]));
    }
  }

  /* `iterations` of the loop from r = 1/n (ALG1 or ALG2); the ranks end in r. */
  void run(int alg, int64_t iterations) {
    const double one = 1.0, zero = 0.0;
    const cusparseSpMVAlg_t a = alg == 0 ? CUSPARSE_SPMV_CSR_ALG1 : CUSPARSE_SPMV_CSR_ALG2;
    fill_kernel<<<1024, 256>>>(n, 1.0 / (double)n, r);
    dangling_kernel<<<1024, 256>>>(n, r, is_dangling, hang);
    CHECK_CUDA(cub::DeviceReduce::Sum(cub_temp, cub_bytes, hang, sums + 1, n));
    for (int64_t it = 0; it < iterations; it++) {
      CHECK_SPARSE(cusparseDnVecSetValues(vr, r));
      CHECK_SPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, AT, vr, &zero, vy,
                                CUDA_R_64F, a, buffer[alg]));
      update_kernel<<<1024, 256>>>(n, DAMPING, y, sums + 1, r, is_dangling, next, diff, hang);
      CHECK_CUDA(cub::DeviceReduce::Sum(cub_temp, cub_bytes, diff, sums, n));
      CHECK_CUDA(cub::DeviceReduce::Sum(cub_temp, cub_bytes, hang, sums + 1, n));
      double l1 = 0.0; /* the host learns the change, as a loop that tests convergence must */
      CHECK_CUDA(cudaMemcpy(&l1, sums, sizeof l1, cudaMemcpyDeviceToHost));
      std::swap(r, next);
    }
  }

  void release() {
    cusparseDestroySpMat(AT);
    cusparseDestroyDnVec(vr);
    cusparseDestroyDnVec(vy);
    cusparseDestroy(h);
    for (void *p :
         {(void *)off, (void *)col, (void *)val, (void *)r, (void *)next, (void *)y, (void *)diff,
          (void *)hang, (void *)sums, (void *)is_dangling, buffer[0], buffer[1], cub_temp})
      cudaFree(p);
  }
};

/* --- one graph ------------------------------------------------------------------------------- */

static void run_case(csr_context *ctx, const spmv_case &c, FILE *csv, const char *device,
                     const char *date) {
  double t0 = bench_now_s();
  host_csr H = c.make();
  const int64_t n = H.rows, m = (int64_t)H.col.size();
  printf("%s: %lld pages, %lld links (built in %.1f s)\n", c.name.c_str(), (long long)n,
         (long long)m, bench_now_s() - t0);
  csr_matrix *A = upload_graph(ctx, H);
  csr_vector *r = NULL, *r2 = NULL;
  CSR_OK(ctx, csr_vector_create(ctx, &r, n, CSR_F64, CSR_DEVICE));
  CSR_OK(ctx, csr_vector_create(ctx, &r2, n, CSR_F64, CSR_DEVICE));
  CSR_OK(ctx, ours(ctx, A, 1, r)); /* warm-up */
  if (g_profile > 0) {
    CSR_OK(ctx, ours(ctx, A, g_profile, r));
    csr_matrix *AT = NULL; /* then one SpMV of the pull graph, to compare */
    CSR_OK(ctx, csr_transpose(ctx, A, &AT));
    CSR_OK(ctx, csr_spmv(ctx, 1.0, AT, r, 0.0, r2));
    CHECK_CUDA(cudaDeviceSynchronize());
    csr_matrix_free(&AT);
    csr_vector_free(&r);
    csr_vector_free(&r2);
    csr_matrix_free(&A);
    return;
  }
  const double t1 = median3_ms([&] { CSR_OK(ctx, ours(ctx, A, K1, r)); });
  const double t2 = median3_ms([&] { CSR_OK(ctx, ours(ctx, A, K2, r)); });
  const double iteration = (t2 - t1) / (K2 - K1), setup = t1 - K1 * iteration;
  CSR_OK(ctx, ours(ctx, A, K2, r2));
  std::vector<double> ranks(n), again(n), theirs(n);
  CHECK_CUDA(cudaMemcpy(ranks.data(), r->data, n * 8, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(again.data(), r2->data, n * 8, cudaMemcpyDeviceToHost));
  const int same_bits = memcmp(ranks.data(), again.data(), n * 8) == 0;

  /* Our pattern SpMV of the pull graph, and the kernel AUTO names for it. */
  csr_matrix *AT = NULL;
  CSR_OK(ctx, csr_transpose(ctx, A, &AT));
  csr_spmv_choice choice;
  CSR_OK(ctx, csr_spmv_choose(ctx, AT, &choice));
  const double spmv = bench_median_ms(g_reps, [&] { csr_spmv(ctx, 1.0, AT, r, 0.0, r2); });
  csr_matrix_free(&AT);

  power_loop loop;
  loop.build(H);
  double best = INFINITY;
  int best_alg = 0;
  for (int a = 0; a < 2; a++) {
    loop.run(a, 1);
    double u1 = median3_ms([&] { loop.run(a, K1); }), u2 = median3_ms([&] { loop.run(a, K2); });
    double per = (u2 - u1) / (K2 - K1);
    if (per < best)
      best = per, best_alg = a;
  }
  loop.run(best_alg, K2);
  CHECK_CUDA(cudaMemcpy(theirs.data(), loop.r, n * 8, cudaMemcpyDeviceToHost));
  loop.release();
  double l1 = 0.0;
  for (int64_t i = 0; i < n; i++)
    l1 += fabs(ranks[i] - theirs[i]);

  const double bytes = 4.0 * m + 16.0 * n, floor_ms = bytes / (g_copy_gbps * 1e9) * 1e3;
  printf("  ours %.3f ms/iteration (set-up %.2f ms), %.2f G links/s, %.0f %% of the floor; "
         "SpMV %.3f ms (%s): iteration / SpMV %.3f; cuSPARSE loop %.3f ms (ALG%d): %.2fx; "
         "L1 to cuSPARSE %.2g; same bits %d\n",
         iteration, setup, m / (iteration * 1e-3) / 1e9, 100.0 * floor_ms / iteration, spmv,
         csr_spmv_kernel_name(choice.kernel), iteration / spmv, best, best_alg + 1,
         best / iteration, l1, same_bits);
  if (csv)
    fprintf(csv,
            "gpu_pagerank,%s,iteration_f64,%.6g,cuSPARSE power loop (CSR ALG%d + CUB),%.6g,%.4f,"
            "1.5,%.0f,%.1f,%.1f,%.4f,,pages=%lld;links=%lld;setup_ms=%.4f;spmv_ms=%.5f;"
            "iteration_over_spmv=%.4f;kernel=%s;links_per_page=%.2f;glinks_per_s=%.3f;"
            "l1_to_anchor=%.3g;"
            "same_bits=%d,%s,%s,CSR_GPU_BENCH=gpu_bench_pagerank bash bench/run_gpu.sh bench\n",
            c.name.c_str(), iteration * 1e-3, best_alg + 1, best * 1e-3, best / iteration, bytes,
            bytes / (iteration * 1e-3) / 1e9, g_copy_gbps, floor_ms / iteration, (long long)n,
            (long long)m, setup, spmv, iteration / spmv, csr_spmv_kernel_name(choice.kernel),
            n > 0 ? (double)m / (double)n : 0.0, m / (iteration * 1e-3) / 1e9, l1, same_bits,
            device, date);
  csr_vector_free(&r);
  csr_vector_free(&r2);
  csr_matrix_free(&A);
}

int main(int argc, char **argv) {
  FILE *csv = NULL;
  const char *matrices = NULL, *only = NULL;
  int quick = 0, sweep = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--csv") && i + 1 < argc)
      csv = fopen(argv[++i], "w");
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      g_reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--sweep"))
      sweep = 1;
    else if (!strcmp(argv[i], "--matrices") && i + 1 < argc)
      matrices = argv[++i];
    else if (!strcmp(argv[i], "--cases") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp(argv[i], "--profile") && i + 1 < argc)
      g_profile = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--compress") && i + 1 < argc) {
      const char *c = argv[++i];
      g_compress = !strcmp(c, "on")    ? CSR_COMPRESS_ON
                   : !strcmp(c, "off") ? CSR_COMPRESS_OFF
                                       : CSR_COMPRESS_AUTO;
    } else
      fprintf(stderr, "ignored: %s (options: the head of bench/gpu_bench_pagerank.cu)\n", argv[i]);
  }
  if (matrices == NULL)
    matrices = bench_default_matrices();
  if (g_reps < 1)
    g_reps = 1;
  char device[320], date[32];
  bench_device_and_date(device, sizeof device, date, sizeof date);
  bench_csv_header(csv);
  double copy_ms = 0.0;
  g_copy_gbps = bench_copy_gbs(g_reps, &copy_ms);
  printf("device %s, copy %.0f GB/s (read + write); iterations %d and %d, median of 3\n", device,
         g_copy_gbps, K1, K2);
  csr_context *ctx = NULL;
  CSR_OK(ctx, csr_context_create(&ctx));
  CSR_OK(ctx, csr_context_set_backend(ctx, CSR_BACKEND_CUDA));
  std::vector<spmv_case> cases;
  if (sweep) /* 2^26 links (2^20 with --quick) at 2, 4, ..., 64 links a page */
    for (int factor = 2; factor <= 64; factor *= 2) {
      const int scale = (quick ? 20 : 26) - (int)log2((double)factor);
      cases.push_back({"rmat_" + std::to_string(scale) + "_" + std::to_string(factor), 0,
                       [scale, factor] { return rmat(scale, factor); }});
    }
  else
    cases = graph_cases(ctx, matrices, quick, quick ? 2000000 : 50000000);
  for (const spmv_case &c : cases)
    if (only == NULL || c.name.find(only) != std::string::npos)
      run_case(ctx, c, csv, device, date);
  csr_context_free(&ctx);
  if (csv)
    fclose(csv);
  return 0;
}
