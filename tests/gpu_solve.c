/* SPDX-License-Identifier: BSD-3-Clause */
/* What only the GPU has of csr_solve (label gpu); the solvers themselves are checked on every
 * backend by tests/backend_solve.c. Here: CG, Jacobi-PCG and BiCGSTAB with each SpMV kernel
 * forced (one thread or a group of lanes per row in the fused CG step; segmented in the split
 * step) converge to x = ones with a scaled residual ||b - A x|| / (||A|| ||x|| + ||b||) <= 1e-10
 * computed on the host, in about as many iterations as the host solve (the same algorithm, sums
 * in another order). */
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double scaled_residual(csr_context *ref, const csr_matrix *A, const csr_vector *x,
                              const csr_vector *b) {
  csr_vector *r = NULL;
  CHECK_OK(ref, csr_vector_clone(ref, b, &r, CSR_HOST));
  CHECK_OK(ref, csr_spmv(ref, -1.0, A, x, 1.0, r));
  double rn = 0.0, xn = 0.0, bn = 0.0, an = 0.0;
  CHECK_OK(ref, csr_nrminf(ref, r, &rn));
  CHECK_OK(ref, csr_nrminf(ref, x, &xn));
  CHECK_OK(ref, csr_nrminf(ref, b, &bn));
  for (int64_t i = 0; i < A->rows; i++) {
    double s = 0.0;
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      s += fabs(csrt_value(A->values, A->value_type, k));
    an = fmax(an, s);
  }
  csr_vector_free(&r);
  return rn / (an * xn + bn);
}

static const char *method_name(csr_solver_method m) {
  return m == CSR_SOLVER_CG ? "CG" : m == CSR_SOLVER_PCG_JACOBI ? "PCG" : "BiCGSTAB";
}

/* Solves A x = A ones on the device and on the host; compares. */
static void solve_both(csr_context *ctx, csr_context *ref, const char *name, const csr_matrix *A,
                       csr_solver_method method, csr_value_type type, csr_spmv_kernel kernel) {
  int64_t n = A->rows;
  int f32 = type == CSR_F32;
  csr_matrix *AT = NULL, *D = NULL;
  if (f32) {
    CHECK_OK(ref, csr_matrix_create(ref, &AT, A->rows, A->cols, A->nnz, CSR_F32, CSR_HOST));
    memcpy(AT->row_offsets, A->row_offsets, (size_t)(n + 1) * 8);
    memcpy(AT->col_indices, A->col_indices, (size_t)A->nnz * 4);
    for (int64_t k = 0; k < A->nnz; k++)
      ((float *)AT->values)[k] = (float)((double *)A->values)[k];
    AT->flags = A->flags;
  }
  const csr_matrix *H = f32 ? AT : A;
  csr_vector *ones = NULL, *b = NULL, *x = NULL, *bd = NULL, *xd = NULL, *xh = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &ones, n, type, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &b, n, type, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x, n, type, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 1.0, ones));
  CHECK_OK(ref, csr_spmv(ref, 1.0, H, ones, 0.0, b));
  CHECK_OK(ctx, csr_matrix_copy(ctx, H, &D, CSR_DEVICE));
  CHECK_OK(ctx, csr_vector_clone(ctx, b, &bd, CSR_DEVICE));
  CHECK_OK(ctx, csr_vector_clone(ctx, x, &xd, CSR_DEVICE)); /* zeros */
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.method = method;
  o.rtol = f32 ? 1e-5 : 1e-12;
  o.max_iter = 20000;
  csr_solver_info host_info, dev_info;
  CHECK_OK(ref, csr_solve(ref, H, b, x, &o, &host_info));
  CHECK_OK(ctx, csr_context_set_kernel(ctx, kernel));
  CHECK_OK(ctx, csr_solve(ctx, D, bd, xd, &o, &dev_info));
  CHECK_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
  CHECK(csr_context_last_backend(ctx) == CSR_BACKEND_CUDA);
  CHECK_OK(ctx, csr_vector_clone(ctx, xd, &xh, CSR_HOST));
  double err = 0.0, scaled = 0.0;
  for (int64_t i = 0; i < n; i++)
    err = fmax(err, fabs(csrt_value(xh->data, type, i) - 1.0));
  if (!f32)
    scaled = scaled_residual(ref, H, xh, b);
  int64_t hi = host_info.iterations, di = dev_info.iterations;
  /* Sums in another order change the iterates a little: allow 10 % more or fewer iterations. */
  int close = llabs(hi - di) <= 2 + hi / 10;
  CHECKF(dev_info.stop == CSR_SOLVER_CONVERGED && close && (f32 || scaled <= 1e-10) &&
             err <= (f32 ? 1e-2 : 1e-6),
         "%s %s (%s, kernel %d): device %lld iterations, host %lld, scaled residual %.3g, "
         "|x - 1| %.3g",
         name, method_name(method), f32 ? "f32" : "f64", (int)kernel, (long long)di, (long long)hi,
         scaled, err);
  printf("  %-18s %-8s %s kernel %d: device %5lld iterations (host %5lld), scaled residual "
         "%.2e, |x - 1| %.2e\n",
         name, method_name(method), f32 ? "f32" : "f64", (int)kernel, (long long)di, (long long)hi,
         scaled, err);
  csr_matrix_free(&AT);
  csr_matrix_free(&D);
  csr_vector *all[] = {ones, b, x, bd, xd, xh};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++)
    csr_vector_free(&all[k]);
}

/* CSR_GPU_QUICK (under compute-sanitizer): smaller grids, no files. */
static void convergence(csr_context *ctx, csr_context *ref) {
  int quick = getenv("CSR_GPU_QUICK") != NULL;
  csr_matrix *P = csrt_poisson_2d(ref, quick ? 30 : 100, 0.0),
             *S = csrt_poisson_2d(ref, quick ? 20 : 60, 0.5);
  /* SEGMENTED and STREAM: CG's step in three passes (update, SpMV, sums) instead of one. */
  for (int k = 0; k < csrt_spmv_kernel_count(); k++) {
    solve_both(ctx, ref, "poisson 100x100", P, CSR_SOLVER_CG, CSR_F64, csrt_spmv_kernel(k));
    solve_both(ctx, ref, "poisson 100x100", P, CSR_SOLVER_PCG_JACOBI, CSR_F64, csrt_spmv_kernel(k));
    solve_both(ctx, ref, "poisson 100x100", P, CSR_SOLVER_BICGSTAB, CSR_F64, csrt_spmv_kernel(k));
  }
  for (int k = 0; k < 5; k++)
    solve_both(ctx, ref, "poisson 60x60 + I/2", S, CSR_SOLVER_CG, CSR_F32, csrt_spmv_kernel(k));
  csr_matrix_free(&P);
  csr_matrix_free(&S);
}

int main(void) {
  if (!csr_backend_available(CSR_BACKEND_CUDA) || !csr_cuda_device_present()) {
    printf("gpu_solve: no CUDA device (or CUDA backend not built): skipped\n");
    return 77;
  }
  csr_context *ctx = csrt_context(CSR_BACKEND_AUTO), *ref = csrt_context(CSR_BACKEND_REF);
  convergence(ctx, ref);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("gpu_solve");
}
