/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_solve's GMRES(m) on one backend (argv: ref, omp, cuda; A, b and x placed where it runs):
 * 2D upwind convection-diffusion (mesh Peclet numbers 1 to 1000) and Poisson, unpreconditioned
 * and Jacobi, with restarts 1, 5, 30 and m >= n, the answer checked by a residual computed here
 * and against a dense LAPACK solve; a cyclic permutation on which GMRES(m < n) stagnates; the
 * lucky breakdown (A = I, b an eigenvector); singular systems, consistent and not; west0067 and
 * adder_dcop_05 as they come; the memory the basis needs against the context's limit, and every
 * allocation failing in turn. */
#include "testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CSR_TEST_HAVE_LAPACKE
#include <lapacke.h>
#endif

static csr_backend backend;
static csr_context *ref; /* builds the inputs on the host */

/* csr_solve with copies of the host A, b and x where the backend runs; x comes back. */
static csr_status solve_placed(csr_context *ctx, const csr_matrix *A, const csr_vector *b,
                               csr_vector *x, const csr_solver_options *o, csr_solver_info *info) {
  return csrt_solve_placed(backend, ctx, A, b, x, o, info);
}

/* A matrix from (row, column, value) triples, summed where they repeat. */
static csr_matrix *from_triples(int64_t n, int64_t count, const int32_t *rows, const int32_t *cols,
                                const double *values) {
  csr_coo *T = NULL;
  CHECK_OK(ref, csr_coo_create(ref, &T, n, n, count, CSR_F64, CSR_HOST));
  memcpy(T->row_indices, rows, (size_t)count * sizeof *rows);
  memcpy(T->col_indices, cols, (size_t)count * sizeof *cols);
  memcpy(T->values, values, (size_t)count * sizeof *values);
  csr_matrix *A = NULL;
  CHECK_OK(ref, csr_from_coo(ref, T, 0, &A));
  csr_coo_free(&T);
  return A;
}

/* -laplace(u) + w . grad(u) on an m x m grid, w = (1, 1) scaled to the mesh Peclet number
 * pe = |w_x| h (per unit diffusion), first-order upwind: 4 + 2 pe on the diagonal, -1 - pe
 * west and south (upstream), -1 east and north. pe = 0: Poisson. Unsymmetric for pe > 0, an
 * M-matrix whose unsymmetric part grows with pe; `sign` = -1 flips it (a negative diagonal). */
static csr_matrix *convection_diffusion(int64_t m, double pe, double sign) {
  int64_t n = m * m, count = 0;
  int32_t *rows = malloc((size_t)(5 * n) * sizeof *rows);
  int32_t *cols = malloc((size_t)(5 * n) * sizeof *cols);
  double *values = malloc((size_t)(5 * n) * sizeof *values);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < m; j++) {
      int64_t row = i * m + j;
      const struct {
        int ok;
        int64_t col;
        double value;
      } e[5] = {{i > 0, row - m, -1.0 - pe},
                {j > 0, row - 1, -1.0 - pe},
                {1, row, 4.0 + 2.0 * pe},
                {j < m - 1, row + 1, -1.0},
                {i < m - 1, row + m, -1.0}};
      for (int t = 0; t < 5; t++)
        if (e[t].ok) {
          rows[count] = (int32_t)row;
          cols[count] = (int32_t)e[t].col;
          values[count++] = sign * e[t].value;
        }
    }
  csr_matrix *A = from_triples(n, count, rows, cols, values);
  free(rows);
  free(cols);
  free(values);
  return A;
}

/* ||b - A x||_2, summed here in long double: the test's own residual, not the solver's. */
static int all_finite(const csr_vector *x) {
  for (int64_t i = 0; i < x->n; i++)
    if (!isfinite(csrt_value(x->data, x->value_type, i)))
      return 0;
  return 1;
}

/* max_i |x_i - (the dense LU solution)_i|; -1 when LAPACK fails or is not built in; 0 skipped
 * (n too large for the dense matrix). */
static double lapack_distance(const csr_matrix *A, const csr_vector *b, const csr_vector *x) {
#ifdef CSR_TEST_HAVE_LAPACKE
  if (A->rows > 2500)
    return 0.0;
  csr_dense *D = NULL;
  CHECK_OK(ref, csr_to_dense(ref, A, CSR_COL_MAJOR, &D));
  int n = (int)A->rows;
  double *sol = malloc((size_t)n * sizeof *sol), dist = 0.0;
  lapack_int *pivots = malloc((size_t)n * sizeof *pivots);
  memcpy(sol, b->data, (size_t)n * sizeof *sol);
  lapack_int info = LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, D->data, (int)D->ld, pivots, sol, n);
  for (int i = 0; info == 0 && i < n; i++)
    dist = fmax(dist, fabs(((double *)x->data)[i] - sol[i]));
  free(sol);
  free(pivots);
  csr_dense_free(&D);
  return info == 0 ? dist : -1.0;
#else
  (void)A, (void)b, (void)x;
  return 0.0;
#endif
}

typedef struct progress_log {
  int64_t calls, out_of_order;
} progress_log;

static void log_progress(void *user, int64_t iteration, double residual_norm) {
  progress_log *log = user;
  log->out_of_order += iteration != log->calls + 1 || !(residual_norm >= 0.0);
  log->calls++;
}

/* Options for GMRES(restart) with `preconditioner`, a history of max_iter + 1 entries. */
static csr_solver_options gmres_options(int64_t restart, csr_solver_preconditioner preconditioner,
                                        double rtol, int64_t max_iter) {
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.method = CSR_SOLVER_GMRES;
  o.preconditioner = preconditioner;
  o.restart = restart;
  o.rtol = rtol;
  o.max_iter = max_iter;
  o.history_capacity = max_iter + 1;
  o.history = malloc((size_t)(max_iter + 1) * sizeof *o.history);
  return o;
}

/* b = A * ones, x = 0, GMRES(restart): converges, the residual computed here meets rtol and
 * equals the one reported, x is LAPACK's; the history and the progress reports agree with info,
 * and within each cycle the residual estimates do not grow (GMRES minimises over a growing
 * space). Returns the iterations. */
static int64_t solve_ones(csr_context *ctx, const char *name, const csr_matrix *A, int64_t restart,
                          csr_solver_preconditioner preconditioner, int64_t max_iter) {
  int64_t n = A->rows;
  const double rtol = 1e-10;
  csr_vector *ones = NULL, *b = NULL, *x = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &ones, n, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &b, n, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x, n, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 1.0, ones));
  CHECK_OK(ref, csr_spmv(ref, 1.0, A, ones, 0.0, b));
  CHECK_OK(ref, csr_fill(ref, 0.0, x));
  csr_solver_options o = gmres_options(restart, preconditioner, rtol, max_iter);
  progress_log log = {0, 0};
  o.progress = log_progress;
  o.progress_user = &log;
  csr_solver_info info;
  csr_status s = solve_placed(ctx, A, b, x, &o, &info);
  double bnorm = csrt_norm2(b), rn = csrt_residual_norm(A, x, b), dist = lapack_distance(A, b, x);
  const char *how = preconditioner == CSR_PRECOND_JACOBI ? "Jacobi" : "plain";
  CHECKF(s == CSR_SUCCESS && info.stop == CSR_SOLVER_CONVERGED && rn <= rtol * bnorm * 1.001 &&
             fabs(rn - info.residual_norm) <= 1e-3 * rn + 1e-14 * bnorm &&
             fabs(info.relative_residual - info.residual_norm / bnorm) <= 1e-12,
         "%s GMRES(%lld) %s: status %d, stop %d, %lld iterations, residual %.3g (reported %.3g), "
         "||b|| %.3g",
         name, (long long)restart, how, (int)s, (int)info.stop, (long long)info.iterations, rn,
         info.residual_norm, bnorm);
  CHECKF(dist >= 0.0 && dist <= 1e-6, "%s GMRES(%lld) %s: max |x - LAPACK's x| = %.3g", name,
         (long long)restart, how, dist);
  CHECK(info.history_length == info.iterations + 1 && fabs(o.history[0] - bnorm) <= 1e-12 * bnorm);
  CHECK(o.history[info.history_length - 1] == info.residual_norm);
  CHECKF(log.calls == info.iterations && log.out_of_order == 0, "%s: %lld progress calls", name,
         (long long)log.calls);
  int64_t m = restart < n ? restart : n, grew = 0;
  for (int64_t k = 2; k < info.history_length - 1; k++)
    if ((k - 1) % m != 0) /* k - 1 ends a cycle: its entry is the recomputed b - A x */
      grew += o.history[k] > o.history[k - 1] * (1.0 + 1e-12);
  CHECKF(grew == 0, "%s GMRES(%lld): the estimate grew within a cycle %lld times", name,
         (long long)restart, (long long)grew);
  printf("  %-28s GMRES(%4lld) %-6s n %5lld: %5lld iterations, relative residual %.2e\n", name,
         (long long)restart, how, (long long)n, (long long)info.iterations, rn / bnorm);
  free(o.history);
  csr_vector_free(&ones);
  csr_vector_free(&b);
  csr_vector_free(&x);
  return info.iterations;
}

static void test_generated(csr_context *ctx) {
  const double peclet[] = {1.0, 10.0, 100.0, 1000.0};
  /* Under a sanitizer (csrt_quick): a smaller grid and every third Peclet number (the same
   * kernels run for each), since an iteration is many instrumented launches. */
  const int64_t m = csrt_quick() ? 8 : 30;
  const size_t step = csrt_quick() ? 3 : 1;
  for (size_t p = 0; p < sizeof peclet / sizeof *peclet; p += step) {
    csr_matrix *A = convection_diffusion(m, peclet[p], 1.0);
    char name[64];
    snprintf(name, sizeof name, "upwind %lldx%lld, Pe %g", (long long)m, (long long)m, peclet[p]);
    solve_ones(ctx, name, A, 30, CSR_PRECOND_NONE, 3000);
    solve_ones(ctx, name, A, 30, CSR_PRECOND_JACOBI, 3000);
    int64_t five = solve_ones(ctx, name, A, 5, CSR_PRECOND_NONE, 20000);
    /* Full GMRES minimises over K_k(A, r_0), where every restarted iterate lies: it needs no more
     * steps than any restarted run (give or take rounding). */
    int64_t full = solve_ones(ctx, name, A, A->rows, CSR_PRECOND_NONE, 3000);
    CHECKF(full <= five + 1, "%s: full GMRES %lld iterations, GMRES(5) %lld", name, (long long)full,
           (long long)five);
    csr_matrix_free(&A);
  }
  /* A negative diagonal is fine for GMRES's Jacobi. */
  csr_matrix *N = convection_diffusion(20, 10.0, -1.0);
  solve_ones(ctx, "-(upwind 20x20, Pe 10)", N, 30, CSR_PRECOND_JACOBI, 3000);
  csr_matrix_free(&N);
  /* Restart 1 (minimal residual steps) and m >= n (full GMRES: at most n steps, here taken as
   * m = n whatever was asked). */
  csr_matrix *S = convection_diffusion(8, 1.0, 1.0);
  solve_ones(ctx, "upwind 8x8, Pe 1", S, 1, CSR_PRECOND_NONE, 20000);
  int64_t full = solve_ones(ctx, "upwind 8x8, Pe 1", S, 64, CSR_PRECOND_NONE, 1000);
  int64_t more = solve_ones(ctx, "upwind 8x8, Pe 1", S, 500, CSR_PRECOND_NONE, 1000);
  CHECKF(full <= S->rows && more == full, "full GMRES: %lld and %lld iterations (n = %lld)",
         (long long)full, (long long)more, (long long)S->rows);
  csr_matrix_free(&S);
  /* Symmetric: Poisson. */
  csr_matrix *P = convection_diffusion(m, 0.0, 1.0);
  solve_ones(ctx, "poisson", P, 30, CSR_PRECOND_NONE, 5000);
  solve_ones(ctx, "poisson", P, 30, CSR_PRECOND_JACOBI, 5000);
  csr_matrix_free(&P);
}

/* A x = b with the given system, expecting `status` and `stop`; returns info. */
static csr_solver_info expect(csr_context *ctx, const char *name, const csr_matrix *A,
                              const csr_vector *b, csr_vector *x, const csr_solver_options *o,
                              csr_status status, csr_solver_stop stop) {
  csr_solver_info info;
  CHECK_OK(ref, csr_fill(ref, 0.0, x));
  csr_status s = solve_placed(ctx, A, b, x, o, &info);
  double rn = csrt_residual_norm(A, x, b);
  CHECKF(s == status && info.stop == stop && all_finite(x) && isfinite(info.residual_norm) &&
             fabs(rn - info.residual_norm) <= 1e-12 * (1.0 + rn),
         "%s: status %d (expected %d), stop %d (expected %d), residual %.3g, reported %.3g: '%s'",
         name, (int)s, (int)status, (int)info.stop, (int)stop, rn, info.residual_norm,
         csr_context_last_error(ctx));
  printf("  %-28s %5lld iterations, stop %d, residual %.3g\n", name, (long long)info.iterations,
         (int)info.stop, info.residual_norm);
  return info;
}

/* The cyclic permutation P e_i = e_{i+1 mod n}, b = e_0: K_m(P, b) = span(e_0..e_{m-1}) and
 * P K_m is orthogonal to b, so GMRES(m < n) cannot reduce ||r|| = 1 at all; GMRES(n) reaches
 * the Krylov space that holds x = e_{n-1} at step n, a lucky breakdown. */
static void test_stagnation(csr_context *ctx) {
  enum { n = 12 };
  int32_t rows[n], cols[n];
  double values[n];
  for (int i = 0; i < n; i++) {
    rows[i] = (int32_t)((i + 1) % n);
    cols[i] = (int32_t)i;
    values[i] = 1.0;
  }
  csr_matrix *P = from_triples(n, n, rows, cols, values);
  csr_vector *b = NULL, *x = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &b, n, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x, n, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 0.0, b));
  ((double *)b->data)[0] = 1.0;
  const int64_t restarts[] = {1, 5, n - 1};
  for (size_t r = 0; r < sizeof restarts / sizeof *restarts; r++) {
    csr_solver_options o = gmres_options(restarts[r], CSR_PRECOND_NONE, 1e-8, 100);
    char name[64];
    snprintf(name, sizeof name, "cyclic %d, GMRES(%lld)", n, (long long)restarts[r]);
    csr_solver_info info =
        expect(ctx, name, P, b, x, &o, CSR_INFO_NOT_CONVERGED, CSR_SOLVER_MAX_ITER);
    CHECK(info.iterations == 100 && fabs(info.residual_norm - 1.0) <= 1e-12);
    free(o.history);
  }
  csr_solver_options o = gmres_options(n, CSR_PRECOND_NONE, 1e-8, 100);
  csr_solver_info info =
      expect(ctx, "cyclic 12, GMRES(12)", P, b, x, &o, CSR_SUCCESS, CSR_SOLVER_CONVERGED);
  CHECK(info.iterations == n && fabs(((double *)x->data)[n - 1] - 1.0) <= 1e-12);
  free(o.history);
  csr_matrix_free(&P);
  csr_vector_free(&b);
  csr_vector_free(&x);
}

/* Lucky breakdowns: the Krylov space of A = I, and of a diagonal A with b an eigenvector, is one
 * vector; one step solves the system exactly. */
static void test_lucky(csr_context *ctx) {
  enum { n = 50 };
  int32_t idx[n];
  double ones[n], diag[n];
  for (int i = 0; i < n; i++) {
    idx[i] = (int32_t)i;
    ones[i] = 1.0;
    diag[i] = 1.0 + i;
  }
  csr_matrix *Id = from_triples(n, n, idx, idx, ones), *D = from_triples(n, n, idx, idx, diag);
  csr_vector *b = NULL, *x = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &x, n, CSR_F64, CSR_HOST));
  csrt_rng rng = {csrt_seed("backend_gmres")};
  b = csrt_random_vector(ref, n, CSR_F64, &rng);
  csr_solver_options o = gmres_options(30, CSR_PRECOND_NONE, 1e-12, 100);
  csr_solver_info info = expect(ctx, "A = I", Id, b, x, &o, CSR_SUCCESS, CSR_SOLVER_CONVERGED);
  CHECK(info.iterations == 1 && info.residual_norm <= 1e-14 * csrt_norm2(b));
  CHECK_OK(ref, csr_fill(ref, 0.0, b));
  ((double *)b->data)[7] = 3.0; /* an eigenvector of D, eigenvalue 8 */
  info = expect(ctx, "diag(1..50), b = 3 e_7", D, b, x, &o, CSR_SUCCESS, CSR_SOLVER_CONVERGED);
  CHECK(info.iterations == 1 && fabs(((double *)x->data)[7] - 3.0 / 8.0) <= 1e-15);
  free(o.history);
  csr_matrix_free(&Id);
  csr_matrix_free(&D);
  csr_vector_free(&b);
  csr_vector_free(&x);
}

/* Singular A with no zero row or column. [1 1; 1 1]: b = (1, 1) is in its range (a lucky
 * breakdown, converged); b = (1, 0) is not: the Krylov space stops growing with H singular, a
 * breakdown that says A is singular, x the least-squares solution (||r|| = 1/sqrt(2)). [1 -1;
 * -1 1] with b = (1, 1): A b = 0 at the first step. The 1D Neumann Laplacian with a consistent
 * b converges. */
static void test_singular(csr_context *ctx) {
  const int32_t r2[4] = {0, 0, 1, 1}, c2[4] = {0, 1, 0, 1};
  const double ones[4] = {1.0, 1.0, 1.0, 1.0}, sign[4] = {1.0, -1.0, -1.0, 1.0};
  csr_matrix *J = from_triples(2, 4, r2, c2, ones), *K = from_triples(2, 4, r2, c2, sign);
  csr_vector *b = NULL, *x = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &b, 2, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x, 2, CSR_F64, CSR_HOST));
  csr_solver_options o = gmres_options(30, CSR_PRECOND_NONE, 1e-10, 100);
  CHECK_OK(ref, csr_fill(ref, 1.0, b));
  expect(ctx, "[1 1; 1 1], b = (1, 1)", J, b, x, &o, CSR_SUCCESS, CSR_SOLVER_CONVERGED);
  ((double *)b->data)[1] = 0.0;
  csr_solver_info info = expect(ctx, "[1 1; 1 1], b = (1, 0)", J, b, x, &o, CSR_ERR_INVALID_MATRIX,
                                CSR_SOLVER_BREAKDOWN);
  CHECK(fabs(info.residual_norm - sqrt(0.5)) <= 1e-14 && info.iterations == 2);
  CHECKF(strstr(csr_context_last_error(ctx), "A is singular") != NULL, "'%s'",
         csr_context_last_error(ctx));
  CHECK_OK(ref, csr_fill(ref, 1.0, b));
  info = expect(ctx, "[1 -1; -1 1], b = (1, 1)", K, b, x, &o, CSR_ERR_INVALID_MATRIX,
                CSR_SOLVER_BREAKDOWN);
  CHECK(info.iterations == 1 && fabs(info.relative_residual - 1.0) <= 1e-15);
  free(o.history);
  enum { m = 10 };
  int32_t rows[3 * m], cols[3 * m];
  double values[3 * m];
  int64_t count = 0;
  for (int i = 0; i < m; i++)
    for (int j = i - 1; j <= i + 1; j++)
      if (j >= 0 && j < m) {
        rows[count] = i;
        cols[count] = j;
        values[count++] = j != i ? -1.0 : (i > 0) + (i < m - 1);
      }
  csr_matrix *N = from_triples(m, count, rows, cols, values);
  csr_vector *v = NULL, *bn = NULL, *xn = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &v, m, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &bn, m, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &xn, m, CSR_F64, CSR_HOST));
  for (int i = 0; i < m; i++)
    ((double *)v->data)[i] = i;
  CHECK_OK(ref, csr_spmv(ref, 1.0, N, v, 0.0, bn));
  o = gmres_options(5, CSR_PRECOND_NONE, 1e-10, 1000);
  info = expect(ctx, "Neumann 1D, GMRES(5)", N, bn, xn, &o, CSR_SUCCESS, CSR_SOLVER_CONVERGED);
  CHECK(info.residual_norm <= 1e-10 * csrt_norm2(bn));
  free(o.history);
  csr_matrix_free(&J);
  csr_matrix_free(&K);
  csr_matrix_free(&N);
  csr_vector_free(&b);
  csr_vector_free(&x);
  csr_vector_free(&v);
  csr_vector_free(&bn);
  csr_vector_free(&xn);
}

/* Full GMRES (restart n) finds the solution in the Krylov space of dimension n at the latest: a
 * basis kept orthogonal to working precision reaches it in n steps. */
static void full_gmres(csr_context *ctx, const char *name, const csr_matrix *A, const csr_vector *b,
                       csr_vector *x) {
  csr_solver_options o = gmres_options(A->rows, CSR_PRECOND_NONE, 1e-8, 3 * A->rows);
  csr_solver_info info;
  CHECK_OK(ref, csr_fill(ref, 0.0, x));
  csr_status s = solve_placed(ctx, A, b, x, &o, &info);
  double rn = csrt_residual_norm(A, x, b);
  CHECKF(s == CSR_SUCCESS && info.iterations <= A->rows && rn <= 1e-8 * csrt_norm2(b),
         "%s full GMRES: status %d, %lld iterations, residual %.3g", name, (int)s,
         (long long)info.iterations, rn);
  printf("  %-28s GMRES(%lld): converged after %lld iterations, relative residual %.2e\n", name,
         (long long)A->rows, (long long)info.iterations, rn / csrt_norm2(b));
  free(o.history);
}

/* The unsymmetric files as they are (no shift): whatever GMRES(30) reaches in 2000 steps (300 under
 * a sanitizer) must be what it reports: converged with the residual computed here meeting rtol, or
 * not converged with that residual finite and reported; Jacobi may instead refuse a zero diagonal
 * entry, naming it. */
static void test_files(csr_context *ctx) {
  const char *paths[] = {"matrices/west0067.mtx", "../shared/matrices/adder_dcop_05.mtx"};
  const int64_t limit = csrt_quick() ? 90 : 2000; /* fewer steps under a sanitizer */
  for (size_t f = 0; f < sizeof paths / sizeof *paths; f++) {
    csr_matrix *A = csrt_read_if_present(ref, paths[f]);
    if (A == NULL)
      continue;
    csr_vector *ones = NULL, *b = NULL, *x = NULL;
    CHECK_OK(ref, csr_vector_create(ref, &ones, A->rows, CSR_F64, CSR_HOST));
    CHECK_OK(ref, csr_vector_create(ref, &b, A->rows, CSR_F64, CSR_HOST));
    CHECK_OK(ref, csr_vector_create(ref, &x, A->rows, CSR_F64, CSR_HOST));
    CHECK_OK(ref, csr_fill(ref, 1.0, ones));
    CHECK_OK(ref, csr_spmv(ref, 1.0, A, ones, 0.0, b));
    for (int jacobi = 0; jacobi < 2; jacobi++) {
      csr_solver_options o =
          gmres_options(30, jacobi ? CSR_PRECOND_JACOBI : CSR_PRECOND_NONE, 1e-8, limit);
      csr_solver_info info;
      CHECK_OK(ref, csr_fill(ref, 0.0, x));
      csr_status s = solve_placed(ctx, A, b, x, &o, &info);
      double bnorm = csrt_norm2(b), rn = csrt_residual_norm(A, x, b);
      const char *name = strrchr(paths[f], '/') + 1, *how = jacobi ? "Jacobi" : "plain";
      if (jacobi && s == CSR_ERR_INVALID_MATRIX) {
        CHECKF(strstr(csr_context_last_error(ctx), "diagonal entry") != NULL &&
                   info.iterations == 0 && info.stop == CSR_SOLVER_FAILED,
               "%s: '%s'", name, csr_context_last_error(ctx));
        printf("  %-28s GMRES(30) %-6s: refused: %s\n", name, how, csr_context_last_message(ctx));
      } else {
        int converged =
            s == CSR_SUCCESS && info.stop == CSR_SOLVER_CONVERGED && rn <= 1e-8 * bnorm * 1.001;
        int stalled = s == CSR_INFO_NOT_CONVERGED && info.stop == CSR_SOLVER_MAX_ITER &&
                      info.iterations == limit && isfinite(rn) && rn > 1e-8 * bnorm;
        CHECKF((converged || stalled) && fabs(rn - info.residual_norm) <= 1e-6 * rn,
               "%s GMRES(30) %s: status %d, stop %d, %lld iterations, residual %.3g (reported "
               "%.3g)",
               name, how, (int)s, (int)info.stop, (long long)info.iterations, rn,
               info.residual_norm);
        printf("  %-28s GMRES(30) %-6s: %s after %lld iterations, relative residual %.2e\n", name,
               how, converged ? "converged" : "not converged", (long long)info.iterations,
               rn / bnorm);
      }
      free(o.history);
    }
    if (A->rows <= 100) /* adder_dcop_05's 1814 vectors would cost seconds */
      full_gmres(ctx, strrchr(paths[f], '/') + 1, A, b, x);
    csr_vector_free(&ones);
    csr_vector_free(&b);
    csr_vector_free(&x);
    csr_matrix_free(&A);
  }
}

/* Refusals: a zero diagonal entry under Jacobi, named; on the host, a basis the context's memory
 * limit cannot hold although each of its vectors fits; every allocation failing in turn. */
static void test_refusals(csr_context *ctx) {
  const int32_t r[3] = {0, 0, 1}, c[3] = {0, 1, 0};
  const double v[3] = {2.0, 1.0, 1.0}; /* a_11 is not stored */
  csr_matrix *Z = from_triples(2, 3, r, c, v);
  csr_vector *b = NULL, *x = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &b, 2, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x, 2, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 1.0, b));
  csr_solver_options o = gmres_options(30, CSR_PRECOND_JACOBI, 1e-10, 100);
  expect(ctx, "Jacobi, a_11 missing", Z, b, x, &o, CSR_ERR_INVALID_MATRIX, CSR_SOLVER_FAILED);
  CHECKF(strstr(csr_context_last_error(ctx), "row 1 (0-based; 2 in a Matrix Market file) has no "
                                             "diagonal entry") != NULL,
         "'%s'", csr_context_last_error(ctx));
  o.preconditioner = CSR_PRECOND_NONE;
  expect(ctx, "no preconditioner, a_11 missing", Z, b, x, &o, CSR_SUCCESS, CSR_SOLVER_CONVERGED);
  free(o.history);
  csr_vector_free(&b);
  csr_vector_free(&x);
  csr_matrix_free(&Z);
  if (csrt_location(backend) != CSR_HOST)
    return;
  /* 101 vectors of 10000 doubles (7.7 MiB) against a limit of 1 MiB, which one vector (78 KiB)
   * fits. */
  csr_matrix *P = convection_diffusion(100, 1.0, 1.0);
  CHECK_OK(ref, csr_vector_create(ref, &b, P->rows, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x, P->rows, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 1.0, b));
  CHECK_OK(ref, csr_fill(ref, 0.0, x));
  csr_solver_options_init(&o);
  o.method = CSR_SOLVER_GMRES;
  o.restart = 100;
  o.max_iter = 50;
  csr_solver_info info;
  CHECK_OK(ctx, csr_context_set_memory_limit(ctx, (size_t)1 << 20));
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, x, &o, &info), CSR_ERR_OUT_OF_MEMORY);
  CHECKF(strstr(csr_context_last_error(ctx), "Krylov basis") != NULL &&
             info.stop == CSR_SOLVER_FAILED && info.iterations == 0,
         "'%s'", csr_context_last_error(ctx));
  o.restart = 10; /* 11 vectors, 0.8 MiB */
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, x, &o, &info), CSR_INFO_NOT_CONVERGED);
  CHECK_OK(ctx, csr_context_set_memory_limit(ctx, 0));
  /* Each allocation of a run failing in turn: refused cleanly (the sanitizers watch for leaks),
   * until the run has all it needs. */
  o.preconditioner = CSR_PRECOND_JACOBI;
  o.restart = 5;
  o.max_iter = 3;
  int64_t k = 1;
  csr_status s = CSR_ERR_OUT_OF_MEMORY;
  for (; k <= 2000 && s == CSR_ERR_OUT_OF_MEMORY; k++) {
    CHECK_OK(ref, csr_fill(ref, 0.0, x));
    csr_debug_fail_allocation_after(k);
    s = csr_solve(ctx, P, b, x, &o, &info);
    csr_debug_fail_allocation_after(0);
  }
  CHECKF(s == CSR_INFO_NOT_CONVERGED && k > 10,
         "allocation failures: status %d after failing allocation %lld", (int)s, (long long)k - 1);
  csr_matrix_free(&P);
  csr_vector_free(&b);
  csr_vector_free(&x);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  csrt_seed("backend_gmres");
  csr_context *ctx = csrt_context(backend);
  ref = csrt_context(CSR_BACKEND_REF);
  if (csrt_part(argc, argv, "generated"))
    test_generated(ctx);
  if (csrt_part(argc, argv, "stagnation"))
    test_stagnation(ctx);
  if (csrt_part(argc, argv, "lucky"))
    test_lucky(ctx);
  if (csrt_part(argc, argv, "singular"))
    test_singular(ctx);
  if (csrt_part(argc, argv, "files"))
    test_files(ctx);
  if (csrt_part(argc, argv, "refusals"))
    test_refusals(ctx);
  if (argc < 3) /* the last solve of the whole run ran where it was asked to */
    CHECK(csr_context_last_backend(ctx) == backend);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_gmres");
}
