/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU benchmark of libcsr's sparse triangular solve (csr_spsv_analyze + csr_spsv) against
 * cusparseSpSV, fp64, on the triangles of an ILU(0) factorization, in the same run.
 *
 * Each case is built on the host (bench/gpu_bench_factor_cases.cuh), copied to the device and
 * factored there by csr_factor_compute (ILU0, natural order; a matrix with a zero or missing
 * diagonal entry with the MATCHING order, and skipped when that fails too). Its factors give the
 * two triangles timed:
 *   L: strictly lower, unit diagonal not stored: libcsr CSR_LOWER + CSR_DIAGONAL_UNIT, cuSPARSE
 *      CUSPARSE_FILL_MODE_LOWER + CUSPARSE_DIAG_TYPE_UNIT (the same triangle, the same matrix);
 *   U: upper with its stored diagonal: CSR_UPPER + CSR_DIAGONAL_STORED against FILL_MODE_UPPER +
 *      DIAG_TYPE_NON_UNIT.
 * cuSPARSE gets the factor's own column indices and values and a 32-bit copy of its offsets
 * (made outside the timing). Before timing, x = T^-1 b of both (b random, the same) must agree to
 * 1e-10 relative (max norm): a triangle that does not is reported and not timed.
 * Two times per side, each the median of --reps calls after a warm-up (CUDA events):
 *   solve:          the solve alone, the analysis made once before;
 *   with analysis:  analysis + solve + freeing the analysis, as a one-off solve costs (libcsr:
 *                   csr_spsv_analyze, csr_spsv, csr_spsv_plan_free; cuSPARSE: createDescr,
 *                   bufferSize, cudaMalloc of the buffer, analysis, solve, cudaFree,
 *                   destroyDescr).
 * ratio = cuSPARSE time / libcsr time (> 1: libcsr faster). levels: libcsr's
 * (csr_spsv_levels), the length of the dependency chain each solve must walk.
 * usage: gpu_bench_spsv [--csv FILE] [--reps N] [--quick] [--cases TEXT] [--matrices DIR]
 *                       [FILE.mtx ...]
 *   --quick: 3D 60^3 and 100^3, 2D 1000^2 instead of 100^3, 160^3 and 2000^2; --cases: only the
 *   cases whose name contains TEXT (or one of its comma-separated parts); --matrices: every .mtx
 *   and .mtx.gz of DIR besides the files named (those not square and real are skipped).
 * CSV (--csv, one row per triangle): case,n,nnz,triangle,levels,libcsr_solve_us,
 * cusparse_solve_us,ratio_solve,libcsr_with_analysis_us,cusparse_with_analysis_us,
 * ratio_with_analysis,ordering,max_rel_diff,device,date_utc. Exit status 1 when a triangle's
 * results disagree. */
#include "csr.h"
#include "gpu_bench_common.cuh"
#include "gpu_bench_factor_cases.cuh"

#include <cuda_runtime.h>
#include <cusparse.h>

#include <cmath>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>

static int g_reps = 20;
static FILE *g_csv = NULL;
static char g_device[320] = "?", g_date[32] = "?";
static cusparseHandle_t g_sparse;

/* cuSPARSE's view of one triangle of a factor: T's arrays with 32-bit offsets, its fill mode and
 * diagonal type, and the dense vectors b and x. */
struct cusparse_triangle {
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t b, x;
};

static cusparse_triangle cusparse_view(const csr_matrix *T, int32_t *off32, bool lower, void *b,
                                       void *x) {
  cusparse_triangle t;
  CHECK_SPARSE(cusparseCreateCsr(&t.mat, T->rows, T->cols, T->nnz, off32, T->col_indices, T->values,
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                 CUDA_R_64F));
  cusparseFillMode_t fill = lower ? CUSPARSE_FILL_MODE_LOWER : CUSPARSE_FILL_MODE_UPPER;
  cusparseDiagType_t diag = lower ? CUSPARSE_DIAG_TYPE_UNIT : CUSPARSE_DIAG_TYPE_NON_UNIT;
  CHECK_SPARSE(cusparseSpMatSetAttribute(t.mat, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
  CHECK_SPARSE(cusparseSpMatSetAttribute(t.mat, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag));
  CHECK_SPARSE(cusparseCreateDnVec(&t.b, T->rows, b, CUDA_R_64F));
  CHECK_SPARSE(cusparseCreateDnVec(&t.x, T->rows, x, CUDA_R_64F));
  return t;
}

static void cusparse_view_free(cusparse_triangle &t) {
  cusparseDestroySpMat(t.mat);
  cusparseDestroyDnVec(t.b);
  cusparseDestroyDnVec(t.x);
}

/* cuSPARSE's analysis of a triangle: the descriptor and the buffer it keeps. */
struct cusparse_analysis {
  cusparseSpSVDescr_t descr = NULL;
  void *buffer = NULL;
};

static const double one = 1.0;
static const cusparseOperation_t no_transpose = CUSPARSE_OPERATION_NON_TRANSPOSE;

static cusparse_analysis cusparse_analyse(const cusparse_triangle &t) {
  cusparse_analysis a;
  size_t bytes = 0;
  CHECK_SPARSE(cusparseSpSV_createDescr(&a.descr));
  CHECK_SPARSE(cusparseSpSV_bufferSize(g_sparse, no_transpose, &one, t.mat, t.b, t.x, CUDA_R_64F,
                                       CUSPARSE_SPSV_ALG_DEFAULT, a.descr, &bytes));
  CHECK_CUDA(cudaMalloc(&a.buffer, bytes + 8));
  CHECK_SPARSE(cusparseSpSV_analysis(g_sparse, no_transpose, &one, t.mat, t.b, t.x, CUDA_R_64F,
                                     CUSPARSE_SPSV_ALG_DEFAULT, a.descr, a.buffer));
  return a;
}

static void cusparse_solve(const cusparse_triangle &t, const cusparse_analysis &a) {
  CHECK_SPARSE(cusparseSpSV_solve(g_sparse, no_transpose, &one, t.mat, t.b, t.x, CUDA_R_64F,
                                  CUSPARSE_SPSV_ALG_DEFAULT, a.descr));
}

static void cusparse_analysis_free(cusparse_analysis &a) {
  CHECK_CUDA(cudaFree(a.buffer));
  cusparseSpSV_destroyDescr(a.descr);
  a = cusparse_analysis();
}

/* One triangle of a factor: verified, then timed; a line on stdout and a CSV row. Returns false
 * when the two results disagree. */
static bool bench_triangle(csr_context *ctx, const char *name, const char *ordering,
                           const csr_matrix *T, bool lower, const csr_vector *b) {
  const csr_triangle triangle = lower ? CSR_LOWER : CSR_UPPER;
  const csr_diagonal diagonal = lower ? CSR_DIAGONAL_UNIT : CSR_DIAGONAL_STORED;
  const char *which = lower ? "L" : "U";
  csr_spsv_plan *plan = NULL;
  csr_status s = csr_spsv_analyze(ctx, T, triangle, diagonal, &plan);
  if (s == CSR_ERR_UNSUPPORTED) { /* a libcsr without the device triangular solve */
    printf("%-16s %s  skipped: %s\n", name, which, csr_context_last_error(ctx));
    return true;
  }
  CSR_OK(ctx, s);
  csr_vector *x = NULL;
  CSR_OK(ctx, csr_vector_create(ctx, &x, T->rows, CSR_F64, CSR_DEVICE));
  double *x_anchor = NULL;
  CHECK_CUDA(cudaMalloc(&x_anchor, T->rows * sizeof(double) + 8));
  int32_t *off32 = offsets32(T);
  if (off32 == NULL) {
    printf("%-16s %s  skipped: %lld nonzeros, past cuSPARSE's 32-bit offsets\n", name, which,
           (long long)T->nnz);
    csr_spsv_plan_free(&plan);
    csr_vector_free(&x);
    cudaFree(x_anchor);
    return true;
  }
  cusparse_triangle view = cusparse_view(T, off32, lower, b->data, x_anchor);
  cusparse_analysis analysis = cusparse_analyse(view);

  /* The same x from both before anything is timed. */
  CSR_OK(ctx, csr_spsv(ctx, plan, 1.0, b, x));
  cusparse_solve(view, analysis);
  CHECK_CUDA(cudaDeviceSynchronize());
  const double diff = relative_difference((const double *)x->data, x_anchor, T->rows);
  const int64_t levels = csr_spsv_levels(plan);
  const bool agree = diff <= 1e-10;
  double ours = NAN, theirs = NAN, ours_all = NAN, theirs_all = NAN;
  if (agree) {
    ours = bench_median_ms(g_reps, [&] { CSR_OK(ctx, csr_spsv(ctx, plan, 1.0, b, x)); });
    theirs = bench_median_ms(g_reps, [&] { cusparse_solve(view, analysis); });
    ours_all = bench_median_ms(g_reps, [&] {
      csr_spsv_plan *p = NULL;
      CSR_OK(ctx, csr_spsv_analyze(ctx, T, triangle, diagonal, &p));
      CSR_OK(ctx, csr_spsv(ctx, p, 1.0, b, x));
      csr_spsv_plan_free(&p);
    });
    theirs_all = bench_median_ms(g_reps, [&] {
      cusparse_analysis a = cusparse_analyse(view);
      cusparse_solve(view, a);
      cusparse_analysis_free(a);
    });
    printf("%-16s %s  n %9lld  nnz %10lld  levels %6lld  solve %9.1f / %9.1f us (x%.2f)  "
           "with analysis %9.1f / %9.1f us (x%.2f)  diff %.1e\n",
           name, which, (long long)T->rows, (long long)T->nnz, (long long)levels, 1e3 * ours,
           1e3 * theirs, theirs / ours, 1e3 * ours_all, 1e3 * theirs_all, theirs_all / ours_all,
           diff);
  } else {
    printf("%-16s %s  MISMATCH: libcsr and cuSPARSE differ by %.3e (relative, max norm); not "
           "timed\n",
           name, which, diff);
  }
  if (g_csv) {
    fprintf(g_csv, "%s,%lld,%lld,%s,%lld,%.3f,%.3f,%.4f,%.3f,%.3f,%.4f,%s,%.3e,%s,%s\n", name,
            (long long)T->rows, (long long)T->nnz, which, (long long)levels, 1e3 * ours,
            1e3 * theirs, theirs / ours, 1e3 * ours_all, 1e3 * theirs_all, theirs_all / ours_all,
            ordering, diff, g_device, g_date);
    fflush(g_csv);
  }
  cusparse_analysis_free(analysis);
  cusparse_view_free(view);
  cudaFree(off32);
  cudaFree(x_anchor);
  csr_vector_free(&x);
  csr_spsv_plan_free(&plan);
  return agree;
}

/* Factors the case on the device and benches its two triangles; false on a mismatch. */
static bool bench_case(csr_context *ctx, const factor_case &c) {
  csr_matrix *A = upload_case(ctx, c);
  csr_factor_options options;
  csr_factor_options_init(&options);
  options.kind = CSR_FACTOR_ILU0;
  options.ordering = c.zero_diagonal ? CSR_FACTOR_ORDER_MATCHING : CSR_FACTOR_ORDER_NATURAL;
  const char *ordering = c.zero_diagonal ? "matching" : "natural";
  csr_factor *F = NULL;
  if (csr_factor_compute(ctx, A, &options, &F) < 0) {
    printf("%-16s skipped: ILU(0) (%s order) failed: %s\n", c.name.c_str(), ordering,
           csr_context_last_error(ctx));
    csr_matrix_free(&A);
    return true;
  }
  csr_factor_info info;
  CSR_OK(ctx, csr_factor_get_info(F, &info));
  std::vector<double> hb(c.n);
  for (int64_t i = 0; i < c.n; i++) /* random in [-1, 1), the same every run */
    hb[i] = (double)((i * 2654435761u) % 2000003) / 1000001.5 - 1.0;
  csr_vector *b = upload_vector(ctx, hb);
  bool ok = bench_triangle(ctx, c.name.c_str(), ordering, info.L, true, b);
  ok = bench_triangle(ctx, c.name.c_str(), ordering, info.U, false, b) && ok;
  csr_vector_free(&b);
  csr_factor_free(&F);
  csr_matrix_free(&A);
  return ok;
}

int main(int argc, char **argv) {
  factor_bench_args a;
  a.reps = g_reps;
  for (int i = 1; i < argc; i++) {
    int taken = factor_bench_option(argc, argv, &i, &a);
    if (taken < 0)
      return 2;
    if (taken == 0)
      fprintf(stderr, "ignored: %s (options: the head of bench/gpu_bench_spsv.cu)\n", argv[i]);
  }
  g_reps = a.reps;
  g_csv = a.csv;
  if (g_reps < 1) {
    fprintf(stderr, "--reps must be at least 1\n");
    return 2;
  }
  bench_device_and_date(g_device, sizeof g_device, g_date, sizeof g_date);
  CHECK_SPARSE(cusparseCreate(&g_sparse));
  csr_context *ctx = NULL;
  CSR_OK(ctx, csr_context_create(&ctx));
  printf("gpu_bench_spsv: %s, %s; x = T^-1 b of ILU(0)'s L (unit) and U, fp64; median of %d "
         "(CUDA events); libcsr / cuSPARSE, (xR: cuSPARSE time / libcsr time)\n",
         g_device, g_date, g_reps);
  if (g_csv)
    fprintf(g_csv, "case,n,nnz,triangle,levels,libcsr_solve_us,cusparse_solve_us,ratio_solve,"
                   "libcsr_with_analysis_us,cusparse_with_analysis_us,ratio_with_analysis,"
                   "ordering,max_rel_diff,device,date_utc\n");
  /* Convection-diffusion (wind 0.5: non-symmetric) stencils; the 3D ones have 3m - 2 levels in
   * natural order, the 2D one 2m - 1: long chains, where triangular solves are hardest. */
  struct generated {
    const char *name;
    int dims;
    int64_t m;
  };
  const std::vector<generated> full = {
      {"convdiff3d_100", 3, 100}, {"convdiff3d_160", 3, 160}, {"convdiff2d_2000", 2, 2000}};
  const std::vector<generated> small = {
      {"convdiff3d_60", 3, 60}, {"convdiff3d_100", 3, 100}, {"convdiff2d_1000", 2, 1000}};
  bool ok = true;
  for (const generated &g : a.quick ? small : full)
    if (bench_name_selected(g.name, a.only))
      ok = bench_case(ctx, stencil_case(g.name, g.dims, g.m, 0.5)) && ok;
  for (const std::string &path : case_files(a.files, a.matrices)) {
    factor_case c;
    if (file_case(ctx, path, &c) && bench_name_selected(c.name, a.only))
      ok = bench_case(ctx, c) && ok;
  }
  csr_context_free(&ctx);
  cusparseDestroy(g_sparse);
  if (g_csv)
    fclose(g_csv);
  return ok ? 0 : 1;
}
