/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU benchmark of time to solution with incomplete factorizations, fp64: libcsr's csr_solve
 * against the same algorithm built from cuSPARSE and cuBLAS calls, in the same run.
 *   GMRES(30) + ILU(0), right-preconditioned, on convection-diffusion stencils (non-symmetric;
 *     bench/gpu_bench_factor_cases.cuh) and the Matrix Market files given: libcsr csr_solve
 *     (CSR_SOLVER_GMRES, CSR_PRECOND_ILU0, the factor options' defaults) against
 *     cusparseDcsrilu02 (no non-deprecated ILU(0) exists in CUDA 13's cuSPARSE), cusparseSpSV
 *     for L (unit) and U, cusparseSpMV, Arnoldi with modified Gram-Schmidt in cuBLAS (Ddot,
 *     Daxpy, Dnrm2, Dscal; a second pass when one leaves less than 1/sqrt(2) of the vector's
 *     norm, as csr_solve does) and the Hessenberg least squares by Givens rotations on the host.
 *   PCG + IC(0) on the SPD 3D Laplacian: libcsr csr_solve (CSR_SOLVER_CG, CSR_PRECOND_IC0)
 *     against cusparseDcsric02, L' made explicit by cusparseCsr2cscEx2 (SpSV of L' as a
 *     transpose is far slower than of an upper CSR), SpSV, SpMV and cuBLAS.
 * Both sides: b = A * ones, x0 = 0, stop when ||b - A x||_2 <= rtol ||b||_2 (GMRES: the
 * Givens estimate within a cycle, the true residual at its end; PCG: the recurrence residual),
 * the same restart and iteration limit. Timed as a user sees it: everything from A on the
 * device to x, the factorization, the analyses, allocations and the final residual included;
 * the library handles (cuSPARSE, cuBLAS, libcsr's context) are made once before. Host clock
 * around the call and a device synchronisation; median of --reps runs after a warm-up run.
 * cuSPARSE gets a 32-bit copy of A's offsets, made outside the timing.
 * ratio = anchor seconds / libcsr seconds (> 1: libcsr faster). The iteration counts may differ:
 * the factors are the same in exact arithmetic, the rounding is not.
 * usage: gpu_bench_gmres [--csv FILE] [--reps N] [--quick] [--cases TEXT] [--matrices DIR]
 *                        [--rtol T] [--restart M] [--max-iter N] [FILE.mtx ...]
 *   defaults: --reps 5, --rtol 1e-8, --restart 30, --max-iter 10000; --quick: 60^3 grids
 *   instead of 100^3 and 160^3; --cases: names containing TEXT (or one of its comma-separated
 *   parts); --matrices: every .mtx / .mtx.gz of DIR besides the files named (GMRES only).
 * CSV (--csv): case,n,nnz,method,preconditioner,rtol,restart,libcsr_iterations,
 * anchor_iterations,libcsr_seconds,anchor_seconds,ratio,libcsr_relative_residual,
 * anchor_relative_residual,libcsr_converged,anchor_converged,notes,device,date_utc. */
#include "csr.h"
#include "gpu_bench_common.cuh"
#include "gpu_bench_factor_cases.cuh"

/* csrilu02 and csric02 are deprecated in CUDA 13 with no replacement in the generic API: the
 * anchor is what cuSPARSE offers for ILU(0) and IC(0). */
#define DISABLE_CUSPARSE_DEPRECATED
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <cmath>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>

/* Exits with 3 when a cuBLAS call fails. */
#define CHECK_BLAS(call)                                                                           \
  do {                                                                                             \
    cublasStatus_t s_ = (call);                                                                    \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                             \
      fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #call, (int)s_);        \
      exit(3);                                                                                     \
    }                                                                                              \
  } while (0)

static int g_reps = 5;
static FILE *g_csv = NULL;
static char g_device[320] = "?", g_date[32] = "?";
static cusparseHandle_t g_sparse;
static cublasHandle_t g_blas;

/* What the solvers are asked, the same for both sides. */
struct solve_request {
  double rtol = 1e-8;
  int restart = 30;
  int64_t max_iter = 10000;
};

/* What one solve did. */
struct solve_result {
  int64_t iterations = 0;
  double relative_residual = NAN;
  bool converged = false;
  const char *note = ""; /* why the anchor did not run or stopped, empty otherwise */
};

/* A on the device as both sides see it: libcsr's matrix and cuSPARSE's 32-bit offsets. */
struct linear_system {
  csr_matrix *A = NULL;
  int32_t *off32 = NULL;
  csr_vector *b = NULL, *x = NULL;
  int n = 0, nnz = 0;
};

static const double one = 1.0, zero = 0.0;
static const cusparseOperation_t no_transpose = CUSPARSE_OPERATION_NON_TRANSPOSE;

/* --- cuSPARSE building blocks ------------------------------------------------------------------
 */

static cusparseSpMatDescr_t csr_descr(const linear_system &s, const int32_t *off,
                                      const int32_t *col, const double *val) {
  cusparseSpMatDescr_t m;
  CHECK_SPARSE(cusparseCreateCsr(&m, s.n, s.n, s.nnz, (void *)off, (void *)col, (void *)val,
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                 CUDA_R_64F));
  return m;
}

static cusparseDnVecDescr_t vec_descr(int n, double *v) {
  cusparseDnVecDescr_t d;
  CHECK_SPARSE(cusparseCreateDnVec(&d, n, v, CUDA_R_64F));
  return d;
}

/* One triangle of a factored matrix for SpSV: its fill mode, diagonal type and analysis. */
struct triangle_solver {
  cusparseSpMatDescr_t mat = NULL;
  cusparseSpSVDescr_t descr = NULL;
  void *buffer = NULL;
};

static triangle_solver triangle_setup(cusparseSpMatDescr_t mat, cusparseFillMode_t fill,
                                      cusparseDiagType_t diag, cusparseDnVecDescr_t in,
                                      cusparseDnVecDescr_t out) {
  triangle_solver t;
  t.mat = mat;
  CHECK_SPARSE(cusparseSpMatSetAttribute(mat, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
  CHECK_SPARSE(cusparseSpMatSetAttribute(mat, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag));
  size_t bytes = 0;
  CHECK_SPARSE(cusparseSpSV_createDescr(&t.descr));
  CHECK_SPARSE(cusparseSpSV_bufferSize(g_sparse, no_transpose, &one, mat, in, out, CUDA_R_64F,
                                       CUSPARSE_SPSV_ALG_DEFAULT, t.descr, &bytes));
  CHECK_CUDA(cudaMalloc(&t.buffer, bytes + 8));
  CHECK_SPARSE(cusparseSpSV_analysis(g_sparse, no_transpose, &one, mat, in, out, CUDA_R_64F,
                                     CUSPARSE_SPSV_ALG_DEFAULT, t.descr, t.buffer));
  return t;
}

static void triangle_solve(const triangle_solver &t, cusparseDnVecDescr_t in,
                           cusparseDnVecDescr_t out) {
  CHECK_SPARSE(cusparseSpSV_solve(g_sparse, no_transpose, &one, t.mat, in, out, CUDA_R_64F,
                                  CUSPARSE_SPSV_ALG_DEFAULT, t.descr));
}

static void triangle_free(triangle_solver &t) {
  cusparseSpSV_destroyDescr(t.descr);
  cusparseDestroySpMat(t.mat);
  CHECK_CUDA(cudaFree(t.buffer));
}

/* y = alpha A x + beta y: A (cuSPARSE's view) and the SpMV buffer, made once per solve. */
struct spmv_op {
  cusparseSpMatDescr_t A = NULL;
  void *buffer = NULL;
};

static spmv_op spmv_setup(const linear_system &s, cusparseDnVecDescr_t x, cusparseDnVecDescr_t y) {
  spmv_op op;
  op.A = csr_descr(s, s.off32, s.A->col_indices, (const double *)s.A->values);
  size_t bytes = 0;
  CHECK_SPARSE(cusparseSpMV_bufferSize(g_sparse, no_transpose, &one, op.A, x, &zero, y, CUDA_R_64F,
                                       CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  CHECK_CUDA(cudaMalloc(&op.buffer, bytes + 8));
  return op;
}

static void spmv(const spmv_op &op, double alpha, cusparseDnVecDescr_t x, double beta,
                 cusparseDnVecDescr_t y) {
  CHECK_SPARSE(cusparseSpMV(g_sparse, no_transpose, &alpha, op.A, x, &beta, y, CUDA_R_64F,
                            CUSPARSE_SPMV_ALG_DEFAULT, op.buffer));
}

static void spmv_free(spmv_op &op) {
  cusparseDestroySpMat(op.A);
  CHECK_CUDA(cudaFree(op.buffer));
}

static double nrm2(int n, const double *v) {
  double r = 0.0;
  CHECK_BLAS(cublasDnrm2(g_blas, n, v, 1, &r));
  return r;
}

static double dot(int n, const double *a, const double *b) {
  double r = 0.0;
  CHECK_BLAS(cublasDdot(g_blas, n, a, 1, b, 1, &r));
  return r;
}

/* ||b - A x||_2 into r (a scratch vector) and returned. */
static double true_residual(const linear_system &s, const spmv_op &op, const double *b,
                            cusparseDnVecDescr_t x, double *r, cusparseDnVecDescr_t r_descr) {
  CHECK_CUDA(cudaMemcpyAsync(r, b, s.n * sizeof(double), cudaMemcpyDeviceToDevice));
  spmv(op, -1.0, x, 1.0, r_descr);
  return nrm2(s.n, r);
}

/* --- the anchor: GMRES(m) + ILU(0) from cuSPARSE and cuBLAS ------------------------------------
 */

/* The ILU(0) factors of A in one matrix (L strictly below the diagonal, U on and above) by
 * csrilu02; false when a pivot is zero (cuSPARSE does not shift). */
static bool cusparse_ilu0(const linear_system &s, double *lu) {
  CHECK_CUDA(cudaMemcpyAsync(lu, s.A->values, s.nnz * sizeof(double), cudaMemcpyDeviceToDevice));
  cusparseMatDescr_t descr;
  csrilu02Info_t info;
  CHECK_SPARSE(cusparseCreateMatDescr(&descr));
  CHECK_SPARSE(cusparseCreateCsrilu02Info(&info));
  int bytes = 0, pivot = -1;
  CHECK_SPARSE(cusparseDcsrilu02_bufferSize(g_sparse, s.n, s.nnz, descr, lu, s.off32,
                                            s.A->col_indices, info, &bytes));
  void *buffer = NULL;
  CHECK_CUDA(cudaMalloc(&buffer, (size_t)bytes + 8));
  const cusparseSolvePolicy_t policy = CUSPARSE_SOLVE_POLICY_USE_LEVEL;
  CHECK_SPARSE(cusparseDcsrilu02_analysis(g_sparse, s.n, s.nnz, descr, lu, s.off32,
                                          s.A->col_indices, info, policy, buffer));
  bool ok = cusparseXcsrilu02_zeroPivot(g_sparse, info, &pivot) != CUSPARSE_STATUS_ZERO_PIVOT;
  if (ok) {
    CHECK_SPARSE(cusparseDcsrilu02(g_sparse, s.n, s.nnz, descr, lu, s.off32, s.A->col_indices, info,
                                   policy, buffer));
    ok = cusparseXcsrilu02_zeroPivot(g_sparse, info, &pivot) != CUSPARSE_STATUS_ZERO_PIVOT;
  }
  CHECK_CUDA(cudaFree(buffer));
  cusparseDestroyCsrilu02Info(info);
  cusparseDestroyMatDescr(descr);
  return ok;
}

/* Applies one Givens rotation (c, s) to the pair (a, b). */
static void rotate(double c, double s, double &a, double &b) {
  const double t = c * a + s * b;
  b = -s * a + c * b;
  a = t;
}

/* GMRES(m), right-preconditioned by ILU(0), x0 = 0 (s.x is zeroed by the caller). */
static solve_result anchor_gmres(const linear_system &s, const solve_request &q) {
  solve_result res;
  const int n = s.n, m = q.restart;
  double *lu = NULL, *V = NULL, *t = NULL, *z = NULL, *r = NULL, *y_dev = NULL;
  CHECK_CUDA(cudaMalloc(&lu, s.nnz * sizeof(double)));
  if (!cusparse_ilu0(s, lu)) {
    CHECK_CUDA(cudaFree(lu));
    res.note = "cusparse_ilu0_zero_pivot";
    return res;
  }
  CHECK_CUDA(cudaMalloc(&V, (size_t)n * (m + 1) * sizeof(double))); /* the Krylov basis */
  CHECK_CUDA(cudaMalloc(&t, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&z, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&r, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&y_dev, (m + 1) * sizeof(double)));
  double *x = (double *)s.x->data, *b = (double *)s.b->data;
  cusparseDnVecDescr_t vin = vec_descr(n, V), vout = vec_descr(n, V), vt = vec_descr(n, t),
                       vz = vec_descr(n, z), vx = vec_descr(n, x), vr = vec_descr(n, r);
  triangle_solver L = triangle_setup(csr_descr(s, s.off32, s.A->col_indices, lu),
                                     CUSPARSE_FILL_MODE_LOWER, CUSPARSE_DIAG_TYPE_UNIT, vin, vt);
  triangle_solver U = triangle_setup(csr_descr(s, s.off32, s.A->col_indices, lu),
                                     CUSPARSE_FILL_MODE_UPPER, CUSPARSE_DIAG_TYPE_NON_UNIT, vt, vz);
  spmv_op A = spmv_setup(s, vz, vout);
  /* z = M^-1 (the vector vin points at) = U^-1 L^-1 in */
  const auto precondition = [&] {
    triangle_solve(L, vin, vt);
    triangle_solve(U, vt, vz);
  };
  std::vector<double> H((size_t)(m + 1) * m), cs(m), sn(m), g(m + 1), y(m);
  const auto h = [&](int i, int j) -> double & { return H[(size_t)j * (m + 1) + i]; };
  const double target = q.rtol * nrm2(n, b);
  double beta = true_residual(s, A, b, vx, r, vr);
  res.converged = beta <= target;
  while (!res.converged && res.iterations < q.max_iter) {
    CHECK_CUDA(cudaMemcpyAsync(V, r, n * sizeof(double), cudaMemcpyDeviceToDevice));
    const double inv = 1.0 / beta;
    CHECK_BLAS(cublasDscal(g_blas, n, &inv, V, 1));
    std::fill(g.begin(), g.end(), 0.0);
    g[0] = beta;
    int k = 0;
    bool happy = false; /* h_{k+1,k} = 0: the solution lies in the Krylov space */
    for (int j = 0; j < m && res.iterations < q.max_iter; j++) {
      double *vj = V + (size_t)j * n, *w = V + (size_t)(j + 1) * n;
      CHECK_SPARSE(cusparseDnVecSetValues(vin, vj));
      CHECK_SPARSE(cusparseDnVecSetValues(vout, w));
      precondition();
      spmv(A, 1.0, vz, 0.0, vout);
      const double before = nrm2(n, w);
      for (int i = 0; i <= j; i++)
        h(i, j) = 0.0;
      double after = before;
      for (int pass = 0; pass < 2; pass++) { /* modified Gram-Schmidt, a second pass if needed */
        for (int i = 0; i <= j; i++) {
          const double c = dot(n, V + (size_t)i * n, w), minus_c = -c;
          CHECK_BLAS(cublasDaxpy(g_blas, n, &minus_c, V + (size_t)i * n, 1, w, 1));
          h(i, j) += c;
        }
        after = nrm2(n, w);
        if (after >= before / std::sqrt(2.0))
          break;
      }
      h(j + 1, j) = after;
      if (after > 0) {
        const double inv_h = 1.0 / after;
        CHECK_BLAS(cublasDscal(g_blas, n, &inv_h, w, 1));
      }
      for (int i = 0; i < j; i++)
        rotate(cs[i], sn[i], h(i, j), h(i + 1, j));
      const double d = std::hypot(h(j, j), h(j + 1, j));
      cs[j] = d > 0 ? h(j, j) / d : 1.0;
      sn[j] = d > 0 ? h(j + 1, j) / d : 0.0;
      h(j, j) = d;
      h(j + 1, j) = 0.0;
      g[j + 1] = -sn[j] * g[j];
      g[j] *= cs[j];
      res.iterations++;
      k = j + 1;
      happy = after == 0.0;
      if (std::fabs(g[j + 1]) <= target || happy)
        break;
    }
    for (int i = k - 1; i >= 0; i--) { /* H y = g, H upper triangular after the rotations */
      double sum = g[i];
      for (int l = i + 1; l < k; l++)
        sum -= h(i, l) * y[l];
      y[i] = sum / h(i, i);
    }
    /* x += M^-1 (V y), V y formed in r */
    CHECK_CUDA(cudaMemcpyAsync(y_dev, y.data(), k * sizeof(double), cudaMemcpyHostToDevice));
    CHECK_BLAS(cublasDgemv(g_blas, CUBLAS_OP_N, n, k, &one, V, n, y_dev, 1, &zero, r, 1));
    CHECK_SPARSE(cusparseDnVecSetValues(vin, r));
    precondition();
    CHECK_BLAS(cublasDaxpy(g_blas, n, &one, z, 1, x, 1));
    beta = true_residual(s, A, b, vx, r, vr);
    res.converged = beta <= target;
    if (happy && !res.converged) {
      res.note = "anchor_breakdown";
      break;
    }
  }
  res.relative_residual = beta / (target / q.rtol);
  spmv_free(A);
  triangle_free(L);
  triangle_free(U);
  for (cusparseDnVecDescr_t d : {vin, vout, vt, vz, vx, vr})
    cusparseDestroyDnVec(d);
  for (double *p : {lu, V, t, z, r, y_dev})
    CHECK_CUDA(cudaFree(p));
  return res;
}

/* --- the anchor: PCG + IC(0) from cuSPARSE and cuBLAS ------------------------------------------
 */

/* IC(0) of A's lower triangle by csric02, in place on a copy of A's values (the upper triangle is
 * left as A's); false when a pivot is not positive. */
static bool cusparse_ic0(const linear_system &s, double *ic) {
  CHECK_CUDA(cudaMemcpyAsync(ic, s.A->values, s.nnz * sizeof(double), cudaMemcpyDeviceToDevice));
  cusparseMatDescr_t descr;
  csric02Info_t info;
  CHECK_SPARSE(cusparseCreateMatDescr(&descr));
  CHECK_SPARSE(cusparseCreateCsric02Info(&info));
  int bytes = 0, pivot = -1;
  CHECK_SPARSE(cusparseDcsric02_bufferSize(g_sparse, s.n, s.nnz, descr, ic, s.off32,
                                           s.A->col_indices, info, &bytes));
  void *buffer = NULL;
  CHECK_CUDA(cudaMalloc(&buffer, (size_t)bytes + 8));
  const cusparseSolvePolicy_t policy = CUSPARSE_SOLVE_POLICY_USE_LEVEL;
  CHECK_SPARSE(cusparseDcsric02_analysis(g_sparse, s.n, s.nnz, descr, ic, s.off32, s.A->col_indices,
                                         info, policy, buffer));
  bool ok = cusparseXcsric02_zeroPivot(g_sparse, info, &pivot) != CUSPARSE_STATUS_ZERO_PIVOT;
  if (ok) {
    CHECK_SPARSE(cusparseDcsric02(g_sparse, s.n, s.nnz, descr, ic, s.off32, s.A->col_indices, info,
                                  policy, buffer));
    ok = cusparseXcsric02_zeroPivot(g_sparse, info, &pivot) != CUSPARSE_STATUS_ZERO_PIVOT;
  }
  CHECK_CUDA(cudaFree(buffer));
  cusparseDestroyCsric02Info(info);
  cusparseDestroyMatDescr(descr);
  return ok;
}

/* PCG preconditioned by IC(0), x0 = 0 (s.x zeroed by the caller). */
static solve_result anchor_pcg(const linear_system &s, const solve_request &q) {
  solve_result res;
  const int n = s.n;
  double *ic = NULL, *icT = NULL, *r = NULL, *z = NULL, *t = NULL, *p = NULL, *w = NULL;
  int32_t *offT = NULL, *colT = NULL;
  CHECK_CUDA(cudaMalloc(&ic, s.nnz * sizeof(double)));
  if (!cusparse_ic0(s, ic)) {
    CHECK_CUDA(cudaFree(ic));
    res.note = "cusparse_ic0_zero_pivot";
    return res;
  }
  /* The transpose of the factored matrix: its upper triangle is L'. */
  CHECK_CUDA(cudaMalloc(&icT, s.nnz * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&offT, (n + 1) * sizeof(int32_t)));
  CHECK_CUDA(cudaMalloc(&colT, s.nnz * sizeof(int32_t)));
  size_t bytes = 0;
  void *buffer = NULL;
  CHECK_SPARSE(cusparseCsr2cscEx2_bufferSize(
      g_sparse, n, n, s.nnz, ic, s.off32, s.A->col_indices, icT, offT, colT, CUDA_R_64F,
      CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &bytes));
  CHECK_CUDA(cudaMalloc(&buffer, bytes + 8));
  CHECK_SPARSE(cusparseCsr2cscEx2(g_sparse, n, n, s.nnz, ic, s.off32, s.A->col_indices, icT, offT,
                                  colT, CUDA_R_64F, CUSPARSE_ACTION_NUMERIC,
                                  CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, buffer));
  CHECK_CUDA(cudaFree(buffer));
  for (double **v : {&r, &z, &t, &p, &w})
    CHECK_CUDA(cudaMalloc(v, n * sizeof(double)));
  double *x = (double *)s.x->data, *b = (double *)s.b->data;
  cusparseDnVecDescr_t vr = vec_descr(n, r), vz = vec_descr(n, z), vt = vec_descr(n, t),
                       vp = vec_descr(n, p), vw = vec_descr(n, w), vx = vec_descr(n, x);
  triangle_solver L = triangle_setup(csr_descr(s, s.off32, s.A->col_indices, ic),
                                     CUSPARSE_FILL_MODE_LOWER, CUSPARSE_DIAG_TYPE_NON_UNIT, vr, vt);
  triangle_solver LT = triangle_setup(csr_descr(s, offT, colT, icT), CUSPARSE_FILL_MODE_UPPER,
                                      CUSPARSE_DIAG_TYPE_NON_UNIT, vt, vz);
  spmv_op A = spmv_setup(s, vp, vw);
  const double bnorm = nrm2(n, b), target = q.rtol * bnorm;
  CHECK_CUDA(cudaMemcpyAsync(r, b, n * sizeof(double), cudaMemcpyDeviceToDevice));
  double rnorm = bnorm, rz = 0.0;
  res.converged = rnorm <= target;
  if (!res.converged) {
    triangle_solve(L, vr, vt);
    triangle_solve(LT, vt, vz);
    CHECK_CUDA(cudaMemcpyAsync(p, z, n * sizeof(double), cudaMemcpyDeviceToDevice));
    rz = dot(n, r, z);
  }
  while (!res.converged && res.iterations < q.max_iter) {
    spmv(A, 1.0, vp, 0.0, vw);
    const double pw = dot(n, p, w);
    if (!(pw > 0)) {
      res.note = "anchor_breakdown";
      break;
    }
    const double alpha = rz / pw, minus_alpha = -alpha;
    CHECK_BLAS(cublasDaxpy(g_blas, n, &alpha, p, 1, x, 1));
    CHECK_BLAS(cublasDaxpy(g_blas, n, &minus_alpha, w, 1, r, 1));
    rnorm = nrm2(n, r);
    res.iterations++;
    if (rnorm <= target)
      break;
    triangle_solve(L, vr, vt);
    triangle_solve(LT, vt, vz);
    const double rz_next = dot(n, r, z), beta = rz_next / rz;
    rz = rz_next;
    CHECK_BLAS(cublasDscal(g_blas, n, &beta, p, 1));
    CHECK_BLAS(cublasDaxpy(g_blas, n, &one, z, 1, p, 1));
  }
  /* The true residual decides, as csr_solve's does (w as scratch). */
  const double final_norm = true_residual(s, A, b, vx, w, vw);
  res.converged = final_norm <= target;
  res.relative_residual = final_norm / bnorm;
  spmv_free(A);
  triangle_free(L);
  triangle_free(LT);
  for (cusparseDnVecDescr_t d : {vr, vz, vt, vp, vw, vx})
    cusparseDestroyDnVec(d);
  for (double *v : {ic, icT, r, z, t, p, w})
    CHECK_CUDA(cudaFree(v));
  CHECK_CUDA(cudaFree(offT));
  CHECK_CUDA(cudaFree(colT));
  return res;
}

/* --- libcsr's side and the comparison --------------------------------------------------- */

static solve_result libcsr_solve(csr_context *ctx, const linear_system &s, const solve_request &q,
                                 bool gmres) {
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.method = gmres ? CSR_SOLVER_GMRES : CSR_SOLVER_CG;
  o.preconditioner = gmres ? CSR_PRECOND_ILU0 : CSR_PRECOND_IC0;
  o.restart = q.restart;
  o.rtol = q.rtol;
  o.atol = 0.0;
  o.max_iter = q.max_iter;
  csr_solver_info info;
  solve_result res;
  csr_status st = csr_solve(ctx, s.A, s.b, s.x, &o, &info);
  if (st < 0) {
    fprintf(stderr, "csr_solve: %s\n", csr_context_last_error(ctx));
    res.note = "libcsr_failed";
    return res;
  }
  res.iterations = info.iterations;
  res.relative_residual = info.relative_residual;
  res.converged = info.stop == CSR_SOLVER_CONVERGED;
  return res;
}

/* Median seconds of g_reps runs of solve() after a warm-up, x zeroed before each (untimed);
 * *last: the last run's result. */
template <typename F>
static double median_seconds(const linear_system &s, F solve, solve_result *last) {
  std::vector<double> t;
  for (int r = 0; r <= g_reps; r++) {
    CHECK_CUDA(cudaMemset(s.x->data, 0, s.n * sizeof(double)));
    CHECK_CUDA(cudaDeviceSynchronize());
    const double began = bench_now_s();
    *last = solve();
    CHECK_CUDA(cudaDeviceSynchronize());
    if (r > 0) /* run 0 warms up */
      t.push_back(bench_now_s() - began);
    if (last->note[0] != '\0') /* a side that cannot solve this system: once is enough */
      return NAN;
  }
  std::sort(t.begin(), t.end());
  return t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
}

/* One system, both sides: a line on stdout and a CSV row. */
static void bench_system(csr_context *ctx, const factor_case &c, const solve_request &q,
                         bool gmres) {
  linear_system s;
  s.A = upload_case(ctx, c);
  s.off32 = offsets32(s.A);
  if (s.off32 == NULL || c.n > INT32_MAX) {
    printf("%-16s skipped: past cuSPARSE's 32-bit indices\n", c.name.c_str());
    csr_matrix_free(&s.A);
    return;
  }
  s.n = (int)c.n;
  s.nnz = (int)s.A->nnz;
  std::vector<double> hb(c.n, 0.0); /* b = A * ones, summed in row order on the host */
  for (int64_t i = 0; i < c.n; i++)
    for (int64_t k = c.off[i]; k < c.off[i + 1]; k++)
      hb[i] += c.val[k];
  s.b = upload_vector(ctx, hb);
  CSR_OK(ctx, csr_vector_create(ctx, &s.x, c.n, CSR_F64, CSR_DEVICE));
  solve_result ours, theirs;
  const double t_ours = median_seconds(
      s, [&] { return libcsr_solve(ctx, s, q, gmres); }, &ours);
  const double t_theirs = median_seconds(
      s, [&] { return gmres ? anchor_gmres(s, q) : anchor_pcg(s, q); }, &theirs);
  const char *method = gmres ? "gmres" : "pcg", *precond = gmres ? "ilu0" : "ic0";
  printf("%-16s %s+%s  n %9d  nnz %10d  libcsr %8.4f s (%5lld its, %s, rel %.1e)  cuSPARSE %8.4f "
         "s (%5lld its, %s, rel %.1e)  x%.2f %s%s\n",
         c.name.c_str(), method, precond, s.n, s.nnz, t_ours, (long long)ours.iterations,
         ours.converged ? "converged" : "NOT converged", ours.relative_residual, t_theirs,
         (long long)theirs.iterations, theirs.converged ? "converged" : "NOT converged",
         theirs.relative_residual, t_theirs / t_ours, ours.note, theirs.note);
  if (g_csv) {
    fprintf(g_csv, "%s,%d,%d,%s,%s,%g,%d,%lld,%lld,%.6g,%.6g,%.4f,%.3e,%.3e,%d,%d,%s%s%s,%s,%s\n",
            c.name.c_str(), s.n, s.nnz, method, precond, q.rtol, gmres ? q.restart : 0,
            (long long)ours.iterations, (long long)theirs.iterations, t_ours, t_theirs,
            t_theirs / t_ours, ours.relative_residual, theirs.relative_residual, ours.converged,
            theirs.converged, ours.note, ours.note[0] && theirs.note[0] ? ";" : "", theirs.note,
            g_device, g_date);
    fflush(g_csv);
  }
  csr_vector_free(&s.b);
  csr_vector_free(&s.x);
  cudaFree(s.off32);
  csr_matrix_free(&s.A);
}

int main(int argc, char **argv) {
  factor_bench_args a;
  a.reps = g_reps;
  solve_request q;
  for (int i = 1; i < argc; i++) {
    int taken = factor_bench_option(argc, argv, &i, &a);
    if (taken < 0)
      return 2;
    if (taken > 0)
      continue;
    if (!strcmp(argv[i], "--rtol") && i + 1 < argc) {
      q.rtol = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--restart") && i + 1 < argc) {
      q.restart = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--max-iter") && i + 1 < argc) {
      q.max_iter = atoll(argv[++i]);
    } else {
      fprintf(stderr, "ignored: %s (options: the head of bench/gpu_bench_gmres.cu)\n", argv[i]);
    }
  }
  g_reps = a.reps;
  g_csv = a.csv;
  if (g_reps < 1 || q.restart < 1 || !(q.rtol > 0) || q.max_iter < 1) {
    fprintf(stderr, "--reps, --restart and --max-iter must be at least 1, --rtol positive\n");
    return 2;
  }
  bench_device_and_date(g_device, sizeof g_device, g_date, sizeof g_date);
  CHECK_SPARSE(cusparseCreate(&g_sparse));
  CHECK_BLAS(cublasCreate(&g_blas));
  csr_context *ctx = NULL;
  CSR_OK(ctx, csr_context_create(&ctx));
  printf("gpu_bench_gmres: %s, %s; time to solution, fp64, b = A*ones, x0 = 0, rtol %g, GMRES "
         "restart %d, at most %lld iterations; median of %d after a warm-up; xR: cuSPARSE time / "
         "libcsr time\n",
         g_device, g_date, q.rtol, q.restart, (long long)q.max_iter, g_reps);
  if (g_csv)
    fprintf(g_csv, "case,n,nnz,method,preconditioner,rtol,restart,libcsr_iterations,"
                   "anchor_iterations,libcsr_seconds,anchor_seconds,ratio,"
                   "libcsr_relative_residual,anchor_relative_residual,libcsr_converged,"
                   "anchor_converged,notes,device,date_utc\n");
  const std::vector<int64_t> sides =
      a.quick ? std::vector<int64_t>{60} : std::vector<int64_t>{100, 160};
  /* GMRES + ILU(0): convection-diffusion (wind 0.5, non-symmetric), then the files. */
  for (int64_t m : sides) {
    const std::string name = "convdiff3d_" + std::to_string(m);
    if (bench_name_selected(name, a.only))
      bench_system(ctx, stencil_case(name.c_str(), 3, m, 0.5), q, true);
  }
  for (const std::string &path : case_files(a.files, a.matrices)) {
    factor_case c;
    if (file_case(ctx, path, &c) && bench_name_selected(c.name, a.only))
      bench_system(ctx, c, q, true);
  }
  /* PCG + IC(0): the SPD Laplacian (wind 0). */
  for (int64_t m : sides) {
    const std::string name = "laplace3d_" + std::to_string(m);
    if (bench_name_selected(name, a.only))
      bench_system(ctx, stencil_case(name.c_str(), 3, m, 0.0), q, false);
  }
  csr_context_free(&ctx);
  cublasDestroy(g_blas);
  cusparseDestroy(g_sparse);
  if (g_csv)
    fclose(g_csv);
  return 0;
}
