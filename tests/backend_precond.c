/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_solve with incomplete factorizations on one backend (argv: ref, omp, cuda; A, b and x
 * where it runs): GMRES(30) with ILU(0) on upwind convection-diffusion in 2D and 3D (Peclet
 * 1 to 1000) in fewer iterations than without; GMRES(30) with ILUT (rows matched when the
 * diagonal has holes) on the real matrices of ../shared/matrices to a scaled residual of 1e-10;
 * PCG with IC(0) on SPD matrices in fewer iterations than Jacobi; a factor made once and passed
 * in; what a singular A, and one no preconditioner helps, stop with. Every answer is checked by
 * a residual computed here. */
#include "testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static csr_backend backend;
static csr_context *ref;

typedef struct outcome {
  csr_status status;
  csr_solver_info info;
  double relative; /* ||b - A x|| / ||b|| computed here */
} outcome;

/* Solves A x = A * ones (x from 0) with the method and preconditioner given. */
static outcome solve(csr_context *ctx, const csr_matrix *A, csr_solver_method method,
                     csr_solver_preconditioner pc, double rtol, int64_t max_iter) {
  csr_vector *b = csrt_times_ones(ref, A), *x = csrt_zeros(ref, A->rows);
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.method = method;
  o.preconditioner = pc;
  o.rtol = rtol;
  o.max_iter = max_iter;
  outcome r;
  r.status = csrt_solve_placed(backend, ctx, A, b, x, &o, &r.info);
  r.relative = csrt_residual_norm(A, x, b) / csrt_norm2(b);
  csr_vector_free(&b), csr_vector_free(&x);
  return r;
}

/* Converged to rtol by the residual computed here (and the one reported). */
static int converged(const outcome *r, double rtol) {
  return r->status == CSR_SUCCESS && r->info.stop == CSR_SOLVER_CONVERGED &&
         r->relative <= rtol * 1.001 &&
         fabs(r->info.relative_residual - r->relative) <= 1e-3 * r->relative + 1e-15;
}

static void test_convection_diffusion(csr_context *ctx) {
  static const double peclet[] = {1.0, 10.0, 100.0, 1000.0};
  /* Under a sanitizer (csrt_quick): smaller grids and every third Peclet number (the same
   * kernels run for each), since an iteration is many instrumented launches. */
  const size_t step = csrt_quick() ? 3 : 1;
  for (int dims = 2; dims <= 3; dims++)
    for (size_t p = 0; p < sizeof peclet / sizeof *peclet; p += step) {
      const int64_t m = dims == 2 ? (csrt_quick() ? 16 : 60) : (csrt_quick() ? 6 : 16);
      csr_matrix *A = csrt_convection_diffusion(ref, dims, m, peclet[p]);
      snprintf(csrt_case, sizeof csrt_case, "%dD convection-diffusion Pe %g", dims, peclet[p]);
      outcome plain = solve(ctx, A, CSR_SOLVER_GMRES, CSR_PRECOND_NONE, 1e-10, 5000);
      outcome ilu = solve(ctx, A, CSR_SOLVER_GMRES, CSR_PRECOND_ILU0, 1e-10, 5000);
      CHECKF(converged(&ilu, 1e-10) && converged(&plain, 1e-10) &&
                 ilu.info.iterations < plain.info.iterations,
             "ILU(0): status %d, %lld iterations, %.2e; none: %lld iterations, %.2e", ilu.status,
             (long long)ilu.info.iterations, ilu.relative, (long long)plain.info.iterations,
             plain.relative);
      printf("  %dD Pe %-5g n %-6lld GMRES(30): ILU(0) %3lld iterations, none %4lld\n", dims,
             peclet[p], (long long)A->rows, (long long)ilu.info.iterations,
             (long long)plain.info.iterations);
      csr_matrix_free(&A);
    }
}

/* The real matrices: GMRES with ILUT reaches 1e-10; ILU(0) where the diagonal lets it (else its
 * failure, or its stagnation, is said clearly); PCG with IC(0) on the SPD ones. */
static void test_files(csr_context *ctx) {
  static const struct {
    const char *path;
    int spd;
  } files[] = {{"matrices/west0067.mtx", 0},           {"../shared/matrices/adder_dcop_05.mtx", 0},
               {"../shared/matrices/plskz362.mtx", 0}, {"../shared/matrices/Pd.mtx", 0},
               {"../shared/matrices/1138_bus.mtx", 1}, {"../shared/matrices/bcsstk13.mtx", 1}};
  for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
    /* Under a sanitizer (csrt_quick) bcsstk13's thousand-odd Jacobi iterations are left out. */
    if (csrt_quick() && strstr(files[f].path, "bcsstk13") != NULL)
      continue;
    csr_matrix *A = csrt_read_if_present(ref, files[f].path);
    if (A == NULL)
      continue;
    const char *name = strrchr(files[f].path, '/') + 1;
    snprintf(csrt_case, sizeof csrt_case, "%s", name);
    outcome ilut = solve(ctx, A, CSR_SOLVER_GMRES, CSR_PRECOND_ILUT, 1e-10, 3000);
    CHECKF(converged(&ilut, 1e-10), "GMRES(30) ILUT: status %d (%s), %lld iterations, %.2e",
           ilut.status, csr_context_last_message(ctx), (long long)ilut.info.iterations,
           ilut.relative);
    printf("  %-18s GMRES(30) ILUT  : %4lld iterations, relative residual %.2e\n", name,
           (long long)ilut.info.iterations, ilut.relative);
    if (files[f].spd) {
      outcome ic = solve(ctx, A, CSR_SOLVER_CG, CSR_PRECOND_IC0, 1e-10, 20000);
      outcome jacobi = solve(ctx, A, CSR_SOLVER_CG, CSR_PRECOND_JACOBI, 1e-10, 20000);
      CHECKF(converged(&ic, 1e-10) && ic.info.iterations < jacobi.info.iterations,
             "PCG IC(0): status %d (%s), %lld iterations (Jacobi %lld), %.2e", ic.status,
             csr_context_last_message(ctx), (long long)ic.info.iterations,
             (long long)jacobi.info.iterations, ic.relative);
      printf("  %-18s PCG IC(0)       : %4lld iterations (Jacobi %lld)\n", name,
             (long long)ic.info.iterations, (long long)jacobi.info.iterations);
    }
    csr_matrix_free(&A);
  }
}

/* A factor made once, passed in for two right-hand sides; the options refuse a NULL one. */
static void test_given_factor(csr_context *ctx) {
  snprintf(csrt_case, sizeof csrt_case, "given factor");
  csr_matrix *A = csrt_convection_diffusion(ref, 2, 30, 10.0);
  csr_matrix *Ad = csrt_place_matrix(backend, A);
  csr_factor *F = NULL;
  CHECK_OK(ctx, csr_factor_compute(ctx, Ad, NULL, &F));
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.method = CSR_SOLVER_GMRES;
  o.preconditioner = CSR_PRECOND_FACTOR;
  o.factor = F;
  o.rtol = 1e-10;
  csr_vector *x = NULL;
  csrt_rng rng = {csrt_seed("backend_precond")};
  for (int rhs = 0; rhs < 2; rhs++) {
    csr_vector *bh = csrt_random_vector(ref, A->rows, CSR_F64, &rng);
    CHECK_OK(ref, csr_vector_create(ref, &x, A->rows, CSR_F64, CSR_HOST));
    CHECK_OK(ref, csr_fill(ref, 0.0, x));
    csr_solver_info info;
    CHECK_OK(ctx, csrt_solve_placed(backend, ctx, A, bh, x, &o, &info));
    EXPECT(csrt_residual_norm(A, x, bh) <= 1.001e-10 * csrt_norm2(bh));
    csr_vector_free(&bh), csr_vector_free(&x);
  }
  o.factor = NULL;
  csr_vector *bh = csrt_random_vector(ref, A->rows, CSR_F64, &rng);
  CHECK_OK(ref, csr_vector_create(ref, &x, A->rows, CSR_F64, CSR_HOST));
  CHECK_STATUS(ctx, csrt_solve_placed(backend, ctx, A, bh, x, &o, NULL), CSR_ERR_NULL_POINTER);
  csr_vector_free(&bh), csr_vector_free(&x);
  csr_factor_free(&F);
  csr_matrix_free(&Ad), csr_matrix_free(&A);
}

/* Singular: a row of stored zeros, refused by name before any iteration; and a factorization
 * that fails with shift 0 stops the solve before any iteration, its row named. */
static void test_hopeless(csr_context *ctx) {
  snprintf(csrt_case, sizeof csrt_case, "hopeless");
  csr_matrix *A = csrt_convection_diffusion(ref, 2, 10, 5.0);
  csr_vector *b = NULL, *x = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &b, A->rows, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x, A->rows, CSR_F64, CSR_HOST));
  /* The last row's stored values all zero, b = 1 there: no x satisfies that row. */
  for (int64_t k = A->row_offsets[A->rows - 1]; k < A->row_offsets[A->rows]; k++)
    ((double *)A->values)[k] = 0.0;
  CHECK_OK(ref, csr_fill(ref, 1.0, b));
  CHECK_OK(ref, csr_fill(ref, 0.0, x));
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.method = CSR_SOLVER_GMRES;
  o.preconditioner = CSR_PRECOND_ILU0;
  o.max_iter = 200;
  csr_solver_info info;
  csr_status s = csrt_solve_placed(backend, ctx, A, b, x, &o, &info);
  CHECKF(s < 0 && info.stop != CSR_SOLVER_CONVERGED &&
             strstr(csr_context_last_message(ctx), "singular") != NULL,
         "singular: status %d, stop %d: %s", s, (int)info.stop, csr_context_last_message(ctx));
  printf("  singular A, GMRES ILU(0): %s\n", csr_context_last_message(ctx));
  csr_matrix_free(&A);
  /* No pivot survives without a shift: [0 1; 1 0] under ILU(0) in natural order, shift 0. */
  csr_matrix *Z = NULL;
  CHECK_OK(ref, csr_matrix_create(ref, &Z, 2, 2, 2, CSR_F64, CSR_HOST));
  Z->row_offsets[1] = 1, Z->row_offsets[2] = 2;
  Z->col_indices[0] = 1, Z->col_indices[1] = 0;
  ((double *)Z->values)[0] = ((double *)Z->values)[1] = 1.0;
  csr_vector *b2 = NULL, *x2 = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &b2, 2, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x2, 2, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 1.0, b2));
  CHECK_OK(ref, csr_fill(ref, 0.0, x2));
  o.factor_options.ordering = CSR_FACTOR_ORDER_NATURAL;
  o.factor_options.shift = 0.0;
  CHECK_STATUS(ctx, csrt_solve_placed(backend, ctx, Z, b2, x2, &o, &info), CSR_ERR_INVALID_MATRIX);
  EXPECT(info.stop == CSR_SOLVER_FAILED && info.iterations == 0 &&
         strstr(csr_context_last_message(ctx), "ILU(0) failed at row 0") != NULL);
  /* With the rows matched, the same system is solved at once. */
  o.factor_options.ordering = CSR_FACTOR_ORDER_AUTO;
  CHECK_OK(ctx, csrt_solve_placed(backend, ctx, Z, b2, x2, &o, &info));
  EXPECT(info.iterations == 1 && fabs(((double *)x2->data)[0] - 1.0) <= 1e-15 &&
         fabs(((double *)x2->data)[1] - 1.0) <= 1e-15);
  csr_vector_free(&b), csr_vector_free(&x), csr_vector_free(&b2), csr_vector_free(&x2);
  csr_matrix_free(&Z);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  csr_context *ctx = csrt_context(backend);
  ref = csrt_context(CSR_BACKEND_REF);
  if (csrt_part(argc, argv, "convection"))
    test_convection_diffusion(ctx);
  if (csrt_part(argc, argv, "files"))
    test_files(ctx);
  if (csrt_part(argc, argv, "given"))
    test_given_factor(ctx);
  if (csrt_part(argc, argv, "hopeless"))
    test_hopeless(ctx);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_precond");
}
