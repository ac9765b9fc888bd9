/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_solve on one backend (argv: ref, omp, cuda; A, b and x placed where it runs): CG,
 * Jacobi-PCG and BiCGSTAB on generated 2D Poisson and convection-diffusion matrices and on SPD /
 * unsymmetric Matrix Market files, with b = A * ones (so x = ones is the exact solution), against
 * a dense LAPACK solve where the matrix is small enough; then breakdowns, NaN and infinity in A, b
 * or x (refused, the first one named), singular matrices (a zero row or column named; A p = 0;
 * a consistent singular system still solved), the iteration limit, the residual history, b = 0
 * and argument errors. Matrices and vectors are built on the host with the reference backend
 * (ref), and solved by the backend under test (ctx). */
#include "testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static csr_backend backend;
static csr_context *ref; /* builds the inputs on the host */

/* csr_solve with copies of the host A, b and x where the backend runs; x comes back. */
static csr_status solve_placed(csr_context *ctx, const csr_matrix *A, const csr_vector *b,
                               csr_vector *x, const csr_solver_options *o, csr_solver_info *info) {
  return csrt_solve_placed(backend, ctx, A, b, x, o, info);
}

/* The 5-point stencil on an m x m grid: 4 + shift on the diagonal, -1 - c (west, north) and
 * -1 + c (east, south) off it. c = 0: the SPD Poisson matrix; c != 0: unsymmetric
 * convection-diffusion (central differences). */
static csr_matrix *stencil(csr_context *ctx, int64_t m, double shift, double c) {
  int64_t n = m * m;
  csr_matrix *A = NULL;
  CHECK_OK(ctx, csr_matrix_create(ctx, &A, n, n, 5 * n, CSR_F64, CSR_HOST));
  double *v = A->values;
  int64_t k = 0;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < m; j++) {
      int64_t row = i * m + j;
      struct {
        int ok;
        int64_t col;
        double val;
      } e[5] = {{i > 0, row - m, -1.0 - c},
                {j > 0, row - 1, -1.0 - c},
                {1, row, 4.0 + shift},
                {j < m - 1, row + 1, -1.0 + c},
                {i < m - 1, row + m, -1.0 + c}};
      for (int t = 0; t < 5; t++)
        if (e[t].ok) {
          A->col_indices[k] = (int32_t)e[t].col;
          v[k++] = e[t].val;
        }
      A->row_offsets[row + 1] = k;
    }
  A->nnz = k;
  A->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  return A;
}

/* A diagonal matrix with the given entries (F64). */
static csr_matrix *diagonal(csr_context *ctx, int64_t n, const double *d) {
  csr_matrix *A = NULL;
  CHECK_OK(ctx, csr_matrix_create(ctx, &A, n, n, n, CSR_F64, CSR_HOST));
  for (int64_t i = 0; i < n; i++) {
    A->row_offsets[i + 1] = i + 1;
    A->col_indices[i] = (int32_t)i;
    ((double *)A->values)[i] = d[i];
  }
  A->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  return A;
}

static double norm_inf(const csr_vector *v) {
  double m = 0.0;
  for (int64_t i = 0; i < v->n; i++)
    m = fmax(m, fabs(csrt_value(v->data, v->value_type, i)));
  return m;
}

/* max_i sum_j |a_ij| */
static double matrix_norm_inf(const csr_matrix *A) {
  double m = 0.0;
  for (int64_t i = 0; i < A->rows; i++) {
    double s = 0.0;
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      s += fabs(csrt_value(A->values, A->value_type, k));
    m = fmax(m, s);
  }
  return m;
}

/* ||A x - b|| / (||A|| ||x|| + ||b||), infinity norms, residual computed here in long double. */
static double scaled_residual(const csr_matrix *A, const csr_vector *x, const csr_vector *b) {
  double worst = 0.0;
  for (int64_t i = 0; i < A->rows; i++) {
    long double s = -(long double)csrt_value(b->data, b->value_type, i);
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      s += (long double)csrt_value(A->values, A->value_type, k) *
           csrt_value(x->data, x->value_type, A->col_indices[k]);
    worst = fmax(worst, fabs((double)s));
  }
  return worst / (matrix_norm_inf(A) * norm_inf(x) + norm_inf(b));
}

static const char *method_name(csr_solver_method m) {
  return m == CSR_SOLVER_CG           ? "CG"
         : m == CSR_SOLVER_PCG_JACOBI ? "PCG"
         : m == CSR_SOLVER_BICGSTAB   ? "BiCGSTAB"
                                      : "GMRES";
}

/* b = A * ones, x = 0, solve; expects convergence, the scaled residual below 1e-10 and
 * |x - 1| <= xtol; checks the history against info. */
#ifdef CSR_TEST_HAVE_LAPACKE
#include <lapacke.h>
/* The independent answer: A x = b solved densely by LAPACK (dposv for the symmetric methods,
 * Cholesky; dgesv otherwise). Returns max_i |x_i - lapack_i|, or -1 when LAPACK fails. */
static double lapack_distance(const csr_matrix *A, const csr_vector *b, const csr_vector *x,
                              int spd) {
  csr_dense *D = NULL;
  CHECK_OK(ref, csr_to_dense(ref, A, CSR_COL_MAJOR, &D));
  int n = (int)A->rows;
  double *sol = malloc((size_t)n * sizeof *sol);
  lapack_int *piv = malloc((size_t)n * sizeof *piv);
  memcpy(sol, b->data, (size_t)n * sizeof *sol);
  lapack_int info = spd ? LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', n, 1, D->data, (int)D->ld, sol, n)
                        : LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, D->data, (int)D->ld, piv, sol, n);
  double dist = info == 0 ? 0.0 : -1.0;
  for (int i = 0; info == 0 && i < n; i++)
    dist = fmax(dist, fabs(((double *)x->data)[i] - sol[i]));
  free(sol);
  free(piv);
  csr_dense_free(&D);
  return dist;
}
#endif

/* b = A * ones (so the solution is ones) and x = 0, both F64 on the host. */
static void ones_system(const csr_matrix *A, csr_vector **b, csr_vector **x) {
  csr_vector *ones = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &ones, A->rows, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, b, A->rows, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, x, A->rows, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 1.0, ones));
  CHECK_OK(ref, csr_spmv(ref, 1.0, A, ones, 0.0, *b));
  csr_vector_free(&ones);
}

/* What the progress callback saw: the iterations in order, each with its residual norm. */
typedef struct progress_log {
  int64_t calls, capacity, out_of_order;
  double *norms; /* norms[k - 1]: the value reported for iteration k */
} progress_log;

static void log_progress(void *user, int64_t iteration, double residual_norm) {
  progress_log *log = user;
  if (iteration != log->calls + 1)
    log->out_of_order++;
  if (log->calls < log->capacity)
    log->norms[log->calls] = residual_norm;
  log->calls++;
}

static void solve_ones(csr_context *ctx, const char *name, const csr_matrix *A,
                       csr_solver_method method, int64_t max_iter, double xtol) {
  int64_t n = A->rows;
  csr_vector *b = NULL, *x = NULL;
  ones_system(A, &b, &x);
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.method = method;
  o.rtol = 1e-12;
  o.max_iter = max_iter;
  o.history_capacity = max_iter + 1;
  o.history = malloc((size_t)o.history_capacity * sizeof *o.history);
  progress_log log = {0, max_iter, 0, malloc((size_t)max_iter * sizeof(double))};
  o.progress = log_progress;
  o.progress_user = &log;
  csr_solver_info info;
  CHECK_OK(ctx, solve_placed(ctx, A, b, x, &o, &info));
  double bnorm = 0.0, err = 0.0, scaled = scaled_residual(A, x, b);
  csr_vector *bp = csrt_place_vector(backend, b); /* ||b|| as the backend sums it */
  CHECK_OK(ctx, csr_nrm2(ctx, bp, &bnorm));
  csr_vector_free(&bp);
  for (int64_t i = 0; i < n; i++)
    err = fmax(err, fabs(((double *)x->data)[i] - 1.0));
  CHECKF(scaled <= 1e-10 && err <= xtol && info.stop == CSR_SOLVER_CONVERGED &&
             info.relative_residual <= 1e-12 && info.residual_norm <= 1e-12 * bnorm,
         "%s %s: %lld iterations, scaled residual %.3g, |x - 1| %.3g (<= %.1g), relative %.3g",
         name, method_name(method), (long long)info.iterations, scaled, err, xtol,
         info.relative_residual);
#ifdef CSR_TEST_HAVE_LAPACKE
  /* The dense O(n^3) solve (reference LAPACK: ~30 s each at n = 4884) up to n = 5000 on the
   * ref backend outside ASan; up to 2500 otherwise. */
  int64_t dense_max = !csrt_under_asan() && backend == CSR_BACKEND_REF ? 5000 : 2500;
  if (n <= dense_max) {
    double dist = lapack_distance(A, b, x, method != CSR_SOLVER_BICGSTAB);
    CHECKF(dist >= 0.0 && dist <= xtol, "%s %s: max |x - LAPACK's x| = %.3g (<= %.1g)", name,
           method_name(method), dist, xtol);
  }
#endif
  /* k = 0 is the initial residual b (x = 0); the last entry is the recomputed b - A x. */
  CHECK(info.history_length == info.iterations + 1);
  CHECK(o.history[0] == bnorm && o.history[info.history_length - 1] == info.residual_norm);
  /* Progress: iterations 1, 2, ... once each, with the history's value, except where the history
   * entry was replaced by the recomputed b - A x, which happens only once the tracked norm met the
   * tolerance. */
  CHECKF(log.calls == info.iterations && log.out_of_order == 0, "%s %s: %lld progress calls", name,
         method_name(method), (long long)log.calls);
  int64_t mismatched = 0;
  for (int64_t k = 1; k <= log.calls && k <= log.capacity; k++)
    mismatched += log.norms[k - 1] != o.history[k] && !(log.norms[k - 1] <= 1e-12 * bnorm);
  CHECKF(mismatched == 0, "%s %s: %lld progress values differ from the history", name,
         method_name(method), (long long)mismatched);
  free(log.norms);
  printf("  %-22s %-8s n %6lld: %5lld iterations, scaled residual %.2e, |x - 1| %.2e\n", name,
         method_name(method), (long long)n, (long long)info.iterations, scaled, err);
  free(o.history);
  csr_vector_free(&b);
  csr_vector_free(&x);
}

static void test_generated(csr_context *ctx) {
  csr_matrix *P = stencil(ref, 60, 0.0, 0.0), *C = stencil(ref, 50, 0.0, 0.4);
  solve_ones(ctx, "poisson 60x60", P, CSR_SOLVER_CG, 2000, 1e-8);
  solve_ones(ctx, "poisson 60x60", P, CSR_SOLVER_PCG_JACOBI, 2000, 1e-8);
  solve_ones(ctx, "poisson 60x60", P, CSR_SOLVER_BICGSTAB, 2000, 1e-8);
  solve_ones(ctx, "convection-diffusion", C, CSR_SOLVER_BICGSTAB, 2000, 1e-8);
  csr_matrix_free(&P);
  csr_matrix_free(&C);
}

/* The file's matrix + shift * I (assembled through COO, so duplicates on the diagonal add up);
 * NULL when the file is absent. */
static csr_matrix *read_shifted_if_present(const char *path, double shift) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    printf("  %s: absent, skipped\n", path);
    return NULL;
  }
  fclose(f);
  csr_coo *T = NULL, *S = NULL;
  CHECK_OK(ref, csr_read_coo(ref, path, NULL, &T, NULL));
  int64_t extra = shift != 0.0 ? T->rows : 0;
  CHECK_OK(ref, csr_coo_create(ref, &S, T->rows, T->cols, T->nnz + extra, CSR_F64, CSR_HOST));
  for (int64_t k = 0; k < S->nnz; k++) {
    int in_T = k < T->nnz;
    S->row_indices[k] = in_T ? T->row_indices[k] : (int32_t)(k - T->nnz);
    S->col_indices[k] = in_T ? T->col_indices[k] : (int32_t)(k - T->nnz);
    ((double *)S->values)[k] = in_T ? ((double *)T->values)[k] : shift;
  }
  csr_matrix *A = NULL;
  CHECK_OK(ref, csr_from_coo(ref, S, 0, &A));
  csr_coo_free(&T);
  csr_coo_free(&S);
  return A;
}

static int all_finite(const csr_vector *x) {
  for (int64_t i = 0; i < x->n; i++)
    if (!isfinite(csrt_value(x->data, x->value_type, i)))
      return 0;
  return 1;
}

/* Unpreconditioned CG on bcsstk13 (condition number ~1e10) stalls near a relative residual of
 * 1e-7: it must say so (CSR_INFO_NOT_CONVERGED, finite x, residual reported), where Jacobi-PCG
 * converges. */
static void cg_stalls(csr_context *ctx, const char *name, const csr_matrix *A, int64_t max_iter) {
  int64_t n = A->rows;
  csr_vector *b = NULL, *x = NULL;
  ones_system(A, &b, &x);
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.rtol = 1e-12;
  o.max_iter = max_iter;
  csr_solver_info info;
  CHECK_STATUS(ctx, solve_placed(ctx, A, b, x, &o, &info), CSR_INFO_NOT_CONVERGED);
  CHECK(info.stop == CSR_SOLVER_MAX_ITER && info.iterations == max_iter && all_finite(x) &&
        info.relative_residual > 1e-12 && info.relative_residual < 1e-2);
  printf("  %-22s %-8s n %6lld: %5lld iterations, not converged (relative residual %.2e), "
         "as expected\n",
         name, "CG", (long long)n, (long long)info.iterations, info.relative_residual);
  csr_vector_free(&b);
  csr_vector_free(&x);
}

static void test_files(csr_context *ctx) {
  static const struct {
    const char *path;
    int cg_converges;
    int64_t max_iter;
    double xtol;
  } spd[] = {{"matrices/1138_bus.mtx", 1, 10000, 1e-8},
             {"../shared/matrices/bcsstk13.mtx", 0, 5000, 1e-5},
             {"matrices/bcsstk16.mtx.gz", 1, 5000, 1e-8}};
  for (size_t f = 0; f < sizeof spd / sizeof *spd; f++) {
    csr_matrix *A = csrt_read_if_present(ref, spd[f].path);
    if (A == NULL)
      continue;
    const char *name = strrchr(spd[f].path, '/') + 1;
    if (spd[f].cg_converges)
      solve_ones(ctx, name, A, CSR_SOLVER_CG, spd[f].max_iter, spd[f].xtol);
    else
      cg_stalls(ctx, name, A, 2 * A->rows);
    solve_ones(ctx, name, A, CSR_SOLVER_PCG_JACOBI, spd[f].max_iter, spd[f].xtol);
    csr_matrix_free(&A);
  }
  /* Unsymmetric: BiCGSTAB, against LAPACK's dgesv where n <= 2500 (cage11's 39082^2 dense
   * matrix would take 12 GB: there the scaled residual and x = ones decide). west0067 stores no
   * diagonal entry in most rows: + 10 I makes it diagonally dominant. adder_dcop_05 has 12 zero
   * diagonal entries and a condition number of ~2.5e12 (numpy), ~53 after + 0.1 I. */
  static const struct {
    const char *path;
    double shift, xtol;
  } general[] = {{"matrices/west0067.mtx", 10.0, 1e-8},
                 {"../shared/matrices/adder_dcop_05.mtx", 0.1, 1e-8},
                 {"../shared/matrices/cage11.mtx.gz", 0.0, 1e-8}};
  for (size_t f = 0; f < sizeof general / sizeof *general; f++) {
    csr_matrix *A = read_shifted_if_present(general[f].path, general[f].shift);
    if (A == NULL)
      continue;
    char name[64];
    snprintf(name, sizeof name, "%s", strrchr(general[f].path, '/') + 1);
    if (general[f].shift != 0.0)
      snprintf(name + strlen(name), sizeof name - strlen(name), " + %g I", general[f].shift);
    solve_ones(ctx, name, A, CSR_SOLVER_BICGSTAB, 2000, general[f].xtol);
    csr_matrix_free(&A);
  }
}

/* Breakdowns: x stays finite (the last good iterate), the status and message say why. */
static void test_breakdowns(csr_context *ctx) {
  csr_vector *b = NULL, *x = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &b, 4, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x, 4, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 1.0, b));
  csr_solver_options o;
  csr_solver_options_init(&o);
  csr_solver_info info;
  /* Indefinite: p = r = b = ones, p'Ap = 1 + 2 - 3 - 4 < 0 at once. */
  const double indefinite[4] = {1.0, 2.0, -3.0, -4.0};
  csr_matrix *A = diagonal(ref, 4, indefinite);
  CHECK_STATUS(ctx, solve_placed(ctx, A, b, x, &o, &info), CSR_ERR_INVALID_MATRIX);
  CHECK(info.stop == CSR_SOLVER_BREAKDOWN && info.iterations == 0 && all_finite(x));
  CHECK(strstr(csr_context_last_error(ctx), "not symmetric positive definite") != NULL);
  /* The same after some progress: diag(1, 2, 3, -0.5) passes p'Ap > 0 first. */
  ((double *)A->values)[2] = 3.0;
  ((double *)A->values)[3] = -0.5;
  CHECK_STATUS(ctx, solve_placed(ctx, A, b, x, &o, &info), CSR_ERR_INVALID_MATRIX);
  CHECKF(info.stop == CSR_SOLVER_BREAKDOWN && all_finite(x) && isfinite(info.residual_norm),
         "CG on diag(1, 2, 3, -0.5): stop %d after %lld iterations", (int)info.stop,
         (long long)info.iterations);
  /* PCG: a negative diagonal entry is named. */
  o.method = CSR_SOLVER_PCG_JACOBI;
  CHECK_STATUS(ctx, solve_placed(ctx, A, b, x, &o, &info), CSR_ERR_INVALID_MATRIX);
  CHECK(strstr(csr_context_last_error(ctx), "A(3,3)") != NULL && all_finite(x));
  /* PCG: a missing diagonal entry is named (rows 1 and 2 store (1, 2) and (2, 1) instead: A
   * stays nonsingular, every row and column holding a nonzero). */
  A->col_indices[1] = 2;
  A->col_indices[2] = 1;
  CHECK_STATUS(ctx, solve_placed(ctx, A, b, x, &o, &info), CSR_ERR_INVALID_MATRIX);
  CHECK(strstr(csr_context_last_error(ctx),
               "row 1 (0-based; 2 in a Matrix Market file) has no diagonal") != NULL);
  csr_matrix_free(&A);
  /* BiCGSTAB on the swap [[0 1] [1 0]] with b = e0: v = A b = e1 is orthogonal to rhat = b. */
  csr_vector *b2 = NULL, *x2 = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &b2, 2, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x2, 2, CSR_F64, CSR_HOST));
  ((double *)b2->data)[0] = 1.0;
  CHECK_OK(ref, csr_matrix_create(ref, &A, 2, 2, 2, CSR_F64, CSR_HOST));
  A->row_offsets[1] = 1;
  A->row_offsets[2] = 2;
  A->col_indices[0] = 1;
  A->col_indices[1] = 0;
  ((double *)A->values)[0] = ((double *)A->values)[1] = 1.0;
  o.method = CSR_SOLVER_BICGSTAB;
  CHECK_STATUS(ctx, solve_placed(ctx, A, b2, x2, &o, &info), CSR_ERR_INVALID_MATRIX);
  CHECK(info.stop == CSR_SOLVER_BREAKDOWN && all_finite(x2));
  CHECK(strstr(csr_context_last_error(ctx), "BiCGSTAB breakdown") != NULL);
  csr_matrix_free(&A);
  csr_vector_free(&b2);
  csr_vector_free(&x2);
  csr_vector_free(&b);
  csr_vector_free(&x);
}

/* --- bad values and singular matrices ---------------------------------------------------- */

/* The stored index of A(i, j), or -1. */
static int64_t entry_of(const csr_matrix *A, int64_t i, int64_t j) {
  for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
    if (A->col_indices[k] == j)
      return k;
  return -1;
}

static double *values_of(const csr_matrix *A) {
  return A->values;
}

/* csr_solve refuses (A, b, x) with `status` before any iteration: the message holds `text` (and
 * not `not_text` unless NULL), info says so, x is left as it was (bit for bit). */
static void expect_refused(csr_context *ctx, const char *name, const csr_matrix *A,
                           const csr_vector *b, csr_vector *x, csr_solver_method method,
                           csr_status status, const char *text, const char *not_text) {
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.method = method;
  o.max_iter = 100;
  csr_solver_info info;
  csr_vector *before = NULL;
  CHECK_OK(ref, csr_vector_clone(ref, x, &before, CSR_HOST));
  CHECK_STATUS(ctx, solve_placed(ctx, A, b, x, &o, &info), status);
  const char *message = csr_context_last_error(ctx);
  CHECKF(strstr(message, text) != NULL && (not_text == NULL || strstr(message, not_text) == NULL),
         "%s %s: message '%s', expected '%s'", name, method_name(method), message, text);
  CHECKF(info.iterations == 0 && info.stop == CSR_SOLVER_FAILED, "%s %s: %lld iterations, stop %d",
         name, method_name(method), (long long)info.iterations, (int)info.stop);
  CHECK(memcmp(before->data, x->data, (size_t)x->n * sizeof(double)) == 0);
  csr_vector_free(&before);
}

/* A NaN or an infinity in A, b or the initial guess is refused up front, the first one named, A's
 * before b's (b = A * ones then holds A's NaN too). */
static void test_bad_values(csr_context *ctx) {
  csr_matrix *P = stencil(ref, 4, 0.0, 0.0);
  csr_vector *b = NULL, *x = NULL;
  ones_system(P, &b, &x);
  double *a = values_of(P), *bv = b->data, *xv = x->data;
  int64_t k56 = entry_of(P, 5, 6), k21 = entry_of(P, 2, 1);
  CHECK(k56 >= 0 && k21 >= 0);
  for (int m = 0; m < 4; m++) {
    csr_solver_method method = (csr_solver_method)m;
    a[k56] = NAN;
    expect_refused(ctx, "A(5,6) = NaN", P, b, x, method, CSR_ERR_INVALID_VALUE,
                   "A holds a non-finite value: A(5,6) = nan (0-based; row 6, column 7 in a "
                   "Matrix Market file)",
                   "b holds");
    /* b = A * ones with that A: b(5) is NaN too, and A is still the one blamed. */
    csr_vector *ones = NULL, *bnan = NULL;
    CHECK_OK(ref, csr_vector_create(ref, &ones, P->rows, CSR_F64, CSR_HOST));
    CHECK_OK(ref, csr_vector_create(ref, &bnan, P->rows, CSR_F64, CSR_HOST));
    CHECK_OK(ref, csr_fill(ref, 1.0, ones));
    CHECK_OK(ref, csr_spmv(ref, 1.0, P, ones, 0.0, bnan));
    CHECK(isnan(((double *)bnan->data)[5]));
    expect_refused(ctx, "A(5,6) = NaN, b = A ones", P, bnan, x, method, CSR_ERR_INVALID_VALUE,
                   "A holds a non-finite value: A(5,6) = nan", "b holds");
    csr_vector_free(&ones);
    csr_vector_free(&bnan);
    a[k21] = -INFINITY; /* before (5, 6) in row order */
    expect_refused(ctx, "A(2,1) = -inf", P, b, x, method, CSR_ERR_INVALID_VALUE,
                   "A holds a non-finite value: A(2,1) = -inf", NULL);
    a[k56] = a[k21] = -1.0;
    /* b: the first non-finite entry, and A is not blamed. */
    bv[7] = NAN;
    bv[3] = INFINITY;
    expect_refused(ctx, "b(3) = inf", P, b, x, method, CSR_ERR_INVALID_VALUE,
                   "b holds a non-finite value: b(3) = inf (0-based; 4 in a Matrix Market file)",
                   "A holds");
    bv[3] = bv[7] = 2.0;
    /* The initial guess. */
    xv[9] = -INFINITY;
    expect_refused(ctx, "x(9) = -inf", P, b, x, method, CSR_ERR_INVALID_VALUE,
                   "the initial guess x holds a non-finite value: x(9) = -inf", NULL);
    xv[9] = 0.0;
  }
  /* A column index outside [0, n) in a host A: named, not followed (the device's SpMV trusts
   * A's structure, as csr_spmv does: csr_matrix_validate checks it). */
  if (csrt_location(backend) == CSR_HOST) {
    int32_t saved = P->col_indices[k56];
    P->col_indices[k56] = (int32_t)P->rows;
    expect_refused(ctx, "column 16", P, b, x, CSR_SOLVER_CG, CSR_ERR_INDEX_OUT_OF_BOUNDS,
                   "(row 5) has column 16, outside [0, 16)", NULL);
    P->col_indices[k56] = saved;
  }
  /* b = 0 does not read the guess: x = 0, success. */
  CHECK_OK(ref, csr_fill(ref, 0.0, b));
  xv[9] = NAN;
  csr_solver_info info;
  CHECK_OK(ctx, solve_placed(ctx, P, b, x, NULL, &info));
  CHECK(norm_inf(x) == 0.0 && info.stop == CSR_SOLVER_CONVERGED);
  csr_vector_free(&b);
  csr_vector_free(&x);
  /* F32: the value named as stored. */
  csr_matrix *P32 = NULL;
  CHECK_OK(ref, csr_matrix_create(ref, &P32, P->rows, P->cols, P->nnz, CSR_F32, CSR_HOST));
  memcpy(P32->row_offsets, P->row_offsets, (size_t)(P->rows + 1) * sizeof(int64_t));
  memcpy(P32->col_indices, P->col_indices, (size_t)P->nnz * sizeof(int32_t));
  for (int64_t k = 0; k < P->nnz; k++)
    ((float *)P32->values)[k] = (float)a[k];
  ((float *)P32->values)[entry_of(P32, 11, 15)] = INFINITY;
  csr_vector *b32 = NULL, *x32 = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &b32, P->rows, CSR_F32, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x32, P->rows, CSR_F32, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 1.0, b32));
  csr_solver_options o;
  csr_solver_options_init(&o);
  CHECK_STATUS(ctx, solve_placed(ctx, P32, b32, x32, &o, &info), CSR_ERR_INVALID_VALUE);
  CHECK(strstr(csr_context_last_error(ctx), "A(11,15) = inf") != NULL);
  csr_matrix_free(&P32);
  csr_vector_free(&b32);
  csr_vector_free(&x32);
  csr_matrix_free(&P);
}

/* The Poisson matrix of a 4 x 4 grid without row 6's entries (none stored). */
static csr_matrix *without_row(const csr_matrix *P, int64_t row) {
  csr_matrix *A = NULL;
  CHECK_OK(ref, csr_matrix_create(ref, &A, P->rows, P->cols, P->nnz, CSR_F64, CSR_HOST));
  int64_t n = 0;
  for (int64_t i = 0; i < P->rows; i++) {
    for (int64_t k = P->row_offsets[i]; i != row && k < P->row_offsets[i + 1]; k++) {
      A->col_indices[n] = P->col_indices[k];
      ((double *)A->values)[n++] = ((const double *)P->values)[k];
    }
    A->row_offsets[i + 1] = n;
  }
  A->nnz = n;
  A->flags = P->flags;
  return A;
}

/* A solve that must fail because A is singular: CSR_ERR_INVALID_MATRIX naming `text`. On the host
 * it is found before any iteration; on the device, a row or column whose stored values are all
 * zero is found once the method has failed (an inconsistent b makes sure it does). */
static void expect_singular(csr_context *ctx, const char *name, const csr_matrix *A,
                            const csr_vector *b, csr_solver_method method, const char *text) {
  csr_vector *x = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &x, A->rows, CSR_F64, CSR_HOST));
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.method = method;
  o.max_iter = 200;
  csr_solver_info info;
  const csr_status status = solve_placed(ctx, A, b, x, &o, &info);
  /* The device sees a row or column of stored zeros only when the method breaks down; at the
   * iteration limit it says so instead (include/csr.h). Never a success. */
  if (csrt_location(backend) != CSR_HOST && status == CSR_INFO_NOT_CONVERGED) {
    CHECK(info.stop == CSR_SOLVER_MAX_ITER && info.iterations == o.max_iter);
    csr_vector_free(&x);
    return;
  }
  CHECK_STATUS(ctx, status, CSR_ERR_INVALID_MATRIX);
  const char *message = csr_context_last_error(ctx);
  CHECKF(strstr(message, text) != NULL, "%s %s: message '%s', expected '%s'", name,
         method_name(method), message, text);
  CHECKF(csrt_location(backend) != CSR_HOST || info.iterations == 0,
         "%s %s: %lld iterations on the host", name, method_name(method),
         (long long)info.iterations);
  csr_vector_free(&x);
}

static void test_singular(csr_context *ctx) {
  csr_matrix *P = stencil(ref, 4, 0.0, 0.0), *E = without_row(P, 6);
  int64_t n = P->rows;
  csr_vector *b = NULL, *x = NULL, *ones = NULL;
  ones_system(E, &b, &x);
  CHECK_OK(ref, csr_vector_create(ref, &ones, n, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 1.0, ones));
  const char *row6 = "A is singular: row 6 (0-based; 7 in a Matrix Market file) has no nonzero "
                     "entry";
  /* Row 6 stores nothing: refused everywhere before any iteration, b consistent or not, and
   * b = 0 too (A is checked first). */
  for (int m = 0; m < 4; m++) {
    expect_refused(ctx, "empty row 6", E, b, x, (csr_solver_method)m, CSR_ERR_INVALID_MATRIX, row6,
                   NULL);
    expect_refused(ctx, "empty row 6, b = ones", E, ones, x, (csr_solver_method)m,
                   CSR_ERR_INVALID_MATRIX, row6, NULL);
  }
  CHECK_OK(ref, csr_fill(ref, 0.0, b));
  expect_refused(ctx, "empty row 6, b = 0", E, b, x, CSR_SOLVER_CG, CSR_ERR_INVALID_MATRIX, row6,
                 NULL);
  /* Row and column 6 stored but all zero (A symmetric, semidefinite), b = ones (inconsistent:
   * r_6 = 1 whatever x). */
  csr_matrix *Z = stencil(ref, 4, 0.0, 0.0);
  for (int64_t i = 0; i < n; i++)
    for (int64_t k = Z->row_offsets[i]; k < Z->row_offsets[i + 1]; k++)
      if (i == 6 || Z->col_indices[k] == 6)
        values_of(Z)[k] = 0.0;
  expect_singular(ctx, "zero row 6", Z, ones, CSR_SOLVER_CG, row6);
  expect_singular(ctx, "zero row 6", Z, ones, CSR_SOLVER_PCG_JACOBI, row6);
  expect_singular(ctx, "zero row 6", Z, ones, CSR_SOLVER_BICGSTAB, row6);
  /* The same with b = A * ones (consistent): x = ones is one of many solutions and the methods
   * would report success with x_6 arbitrary. The host's check refuses it up front; the device's
   * sees only rows that store nothing (include/csr.h). */
  if (csrt_location(backend) == CSR_HOST) {
    csr_vector *bz = NULL, *xz = NULL;
    ones_system(Z, &bz, &xz);
    for (int m = 0; m < 4; m++)
      expect_refused(ctx, "zero row 6, b = A ones", Z, bz, xz, (csr_solver_method)m,
                     CSR_ERR_INVALID_MATRIX, row6, NULL);
    csr_vector_free(&bz);
    csr_vector_free(&xz);
  }
  /* Column 6 all zero, every row holding a nonzero (A unsymmetric); ones is not in A's range
   * (the left null vector, column 6 of the Poisson matrix's positive inverse, is not orthogonal
   * to it). */
  for (int64_t k = 0; k < Z->nnz; k++)
    values_of(Z)[k] = values_of(P)[k] * (Z->col_indices[k] != 6);
  expect_singular(ctx, "zero column 6", Z, ones, CSR_SOLVER_BICGSTAB,
                  "A is singular: column 6 (0-based; 7 in a Matrix Market file) has no nonzero "
                  "entry");
  expect_singular(ctx, "zero column 6", Z, ones, CSR_SOLVER_CG, "A is singular: column 6");
  csr_matrix_free(&Z);
  /* No zero row or column, but A p = 0 for the first direction p = b: [1 -1; -1 1], b = (1, 1).
   * Every method breaks down at once, saying A is singular. */
  csr_matrix *S = NULL;
  CHECK_OK(ref, csr_matrix_create(ref, &S, 2, 2, 4, CSR_F64, CSR_HOST));
  const double s_values[4] = {1.0, -1.0, -1.0, 1.0};
  for (int k = 0; k < 4; k++) {
    S->col_indices[k] = k % 2;
    values_of(S)[k] = s_values[k];
  }
  S->row_offsets[1] = 2;
  S->row_offsets[2] = 4;
  S->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  csr_vector *b2 = NULL, *x2 = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &b2, 2, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x2, 2, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 1.0, b2));
  for (int m = 0; m < 3; m++) {
    csr_solver_options o;
    csr_solver_options_init(&o);
    o.method = (csr_solver_method)m;
    csr_solver_info info;
    CHECK_OK(ref, csr_fill(ref, 0.0, x2));
    CHECK_STATUS(ctx, solve_placed(ctx, S, b2, x2, &o, &info), CSR_ERR_INVALID_MATRIX);
    const char *message = csr_context_last_error(ctx);
    CHECKF(info.stop == CSR_SOLVER_BREAKDOWN && info.iterations == 0 &&
               strstr(message, "A p = 0 for a direction p != 0: A is singular") != NULL &&
               info.relative_residual == 1.0 && all_finite(x2),
           "[1 -1; -1 1] %s: stop %d, %lld iterations, relative residual %g, '%s'",
           method_name(o.method), (int)info.stop, (long long)info.iterations,
           info.relative_residual, message);
  }
  csr_matrix_free(&S);
  csr_vector_free(&b2);
  csr_vector_free(&x2);
  /* A consistent singular system with no zero row or column is still solved: the 1D Neumann
   * Laplacian (null space: constants) and b = A v, v_i = i, from x = 0. */
  int64_t m1 = 10;
  csr_matrix *N = NULL;
  CHECK_OK(ref, csr_matrix_create(ref, &N, m1, m1, 3 * m1, CSR_F64, CSR_HOST));
  int64_t k = 0;
  for (int64_t i = 0; i < m1; i++) {
    if (i > 0) {
      N->col_indices[k] = (int32_t)(i - 1);
      values_of(N)[k++] = -1.0;
    }
    N->col_indices[k] = (int32_t)i;
    values_of(N)[k++] = (i > 0) + (i < m1 - 1);
    if (i < m1 - 1) {
      N->col_indices[k] = (int32_t)(i + 1);
      values_of(N)[k++] = -1.0;
    }
    N->row_offsets[i + 1] = k;
  }
  N->nnz = k;
  N->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  csr_vector *v = NULL, *bn = NULL, *xn = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &v, m1, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &bn, m1, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &xn, m1, CSR_F64, CSR_HOST));
  for (int64_t i = 0; i < m1; i++)
    ((double *)v->data)[i] = (double)i;
  CHECK_OK(ref, csr_spmv(ref, 1.0, N, v, 0.0, bn));
  for (int m = 0; m < 2; m++) {
    csr_solver_options o;
    csr_solver_options_init(&o);
    o.method = (csr_solver_method)m;
    o.rtol = 1e-10;
    csr_solver_info info;
    CHECK_OK(ref, csr_fill(ref, 0.0, xn));
    CHECK_OK(ctx, solve_placed(ctx, N, bn, xn, &o, &info));
    CHECKF(info.stop == CSR_SOLVER_CONVERGED && info.relative_residual <= 1e-10 &&
               scaled_residual(N, xn, bn) <= 1e-10,
           "Neumann Laplacian %s: relative residual %g", method_name(o.method),
           info.relative_residual);
  }
  csr_matrix_free(&N);
  csr_vector_free(&v);
  csr_vector_free(&bn);
  csr_vector_free(&xn);
  csr_vector_free(&ones);
  csr_vector_free(&b);
  csr_vector_free(&x);
  csr_matrix_free(&E);
  csr_matrix_free(&P);
}

/* The iteration limit, the history, b = 0, an exact guess, F32, NULL options. */
static void test_limits(csr_context *ctx) {
  csr_matrix *P = stencil(ref, 20, 0.0, 0.0);
  int64_t n = P->rows;
  csr_vector *b = NULL, *x = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &b, n, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x, n, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 1.0, x));
  CHECK_OK(ref, csr_spmv(ref, 1.0, P, x, 0.0, b));
  CHECK_OK(ref, csr_fill(ref, 0.0, x));
  double history[8];
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.max_iter = 2;
  o.history = history;
  o.history_capacity = 8;
  csr_solver_info info;
  for (int m = 0; m < 4; m++) {
    o.method = (csr_solver_method)m;
    CHECK_OK(ref, csr_fill(ref, 0.0, x));
    CHECK_STATUS(ctx, solve_placed(ctx, P, b, x, &o, &info), CSR_INFO_NOT_CONVERGED);
    CHECK(info.stop == CSR_SOLVER_MAX_ITER && info.iterations == 2 && info.history_length == 3);
    CHECK(all_finite(x) && history[2] < history[0] && info.relative_residual < 1.0);
  }
  /* A short history keeps the first entries. */
  o.method = CSR_SOLVER_CG;
  o.max_iter = 0;
  o.history_capacity = 4;
  CHECK_OK(ref, csr_fill(ref, 0.0, x));
  CHECK_OK(ctx, solve_placed(ctx, P, b, x, &o, &info));
  CHECK(info.iterations > 4 && info.history_length == 4);
  /* An exact guess: no iteration. */
  CHECK_OK(ref, csr_fill(ref, 1.0, x));
  CHECK_OK(ctx, solve_placed(ctx, P, b, x, &o, &info));
  CHECK(info.iterations == 0 && info.history_length == 1 && info.residual_norm == 0.0);
  /* b = 0: x = 0 whatever the guess, success, no iteration. */
  CHECK_OK(ref, csr_fill(ref, 0.0, b));
  CHECK_OK(ref, csr_fill(ref, 5.0, x));
  for (int m = 0; m < 4; m++) {
    o.method = (csr_solver_method)m;
    CHECK_OK(ctx, solve_placed(ctx, P, b, x, &o, &info));
    CHECK(norm_inf(x) == 0.0 && info.iterations == 0 && info.residual_norm == 0.0 &&
          info.stop == CSR_SOLVER_CONVERGED);
  }
  /* NULL options: CG with the defaults (rtol 1e-8). */
  CHECK_OK(ref, csr_fill(ref, 1.0, b));
  CHECK_OK(ctx, solve_placed(ctx, P, b, x, NULL, &info));
  CHECK(info.relative_residual <= 1e-8 && info.iterations > 0);
  CHECK_OK(ctx, solve_placed(ctx, P, b, x, NULL, NULL));
  /* F32 throughout. */
  csr_matrix *P32 = NULL;
  CHECK_OK(ref, csr_matrix_create(ref, &P32, n, n, P->nnz, CSR_F32, CSR_HOST));
  for (int64_t i = 0; i <= n; i++)
    P32->row_offsets[i] = P->row_offsets[i];
  for (int64_t k = 0; k < P->nnz; k++) {
    P32->col_indices[k] = P->col_indices[k];
    ((float *)P32->values)[k] = (float)((double *)P->values)[k];
  }
  csr_vector *b32 = NULL, *x32 = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &b32, n, CSR_F32, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x32, n, CSR_F32, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 1.0, b32));
  csr_solver_options_init(&o);
  o.rtol = 1e-5;
  for (int m = 0; m < 4; m++) {
    o.method = (csr_solver_method)m;
    CHECK_OK(ref, csr_fill(ref, 0.0, x32));
    CHECK_OK(ctx, solve_placed(ctx, P32, b32, x32, &o, &info));
    CHECK(info.relative_residual <= 1e-5 && all_finite(x32));
  }
  csr_matrix_free(&P32);
  csr_vector_free(&b32);
  csr_vector_free(&x32);
  csr_vector_free(&b);
  csr_vector_free(&x);
  csr_matrix_free(&P);
}

/* Argument errors leave x and info untouched. The operands live where the backend runs. */
static void test_errors(csr_context *ctx) {
  csr_location at = csrt_location(backend);
  csr_matrix *H = stencil(ref, 3, 0.0, 0.0), *P = csrt_place_matrix(backend, H), *W = NULL;
  CHECK_OK(ctx, csr_matrix_create(ctx, &W, 9, 8, 0, CSR_F64, at));
  csr_vector *b = NULL, *x = NULL, *short_x = NULL, *x32 = NULL, *xh = NULL, *bh = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &b, 9, CSR_F64, at));
  CHECK_OK(ctx, csr_vector_create(ctx, &x, 9, CSR_F64, at));
  CHECK_OK(ctx, csr_vector_create(ctx, &short_x, 8, CSR_F64, at));
  CHECK_OK(ctx, csr_vector_create(ctx, &x32, 9, CSR_F32, at));
  CHECK_OK(ctx, csr_fill(ctx, 1.0, b));
  CHECK_OK(ctx, csr_fill(ctx, 0.0, x));
  csr_solver_options o;
  csr_solver_options_init(&o);
  csr_solver_info info;
  info.iterations = -7;
  CHECK_STATUS(ctx, csr_solve(ctx, NULL, b, x, &o, &info), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_solve(ctx, P, NULL, x, &o, &info), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, NULL, &o, &info), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_solve(ctx, W, b, short_x, &o, &info), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, short_x, &o, &info), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_STATUS(ctx, csr_solve(ctx, P, short_x, x, &o, &info), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, x32, &o, &info), CSR_ERR_TYPE_MISMATCH);
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, b, &o, &info), CSR_ERR_INVALID_VALUE);
  o.method = (csr_solver_method)4;
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, x, &o, &info), CSR_ERR_INVALID_VALUE);
  csr_solver_options_init(&o);
  o.preconditioner = (csr_solver_preconditioner)9;
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, x, &o, &info), CSR_ERR_INVALID_VALUE);
  o.preconditioner = CSR_PRECOND_JACOBI;
  o.method = CSR_SOLVER_BICGSTAB;
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, x, &o, &info), CSR_ERR_UNSUPPORTED);
  csr_solver_options_init(&o);
  o.method = CSR_SOLVER_GMRES;
  o.restart = -1;
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, x, &o, &info), CSR_ERR_INVALID_VALUE);
  csr_solver_options_init(&o);
  o.rtol = -1.0;
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, x, &o, &info), CSR_ERR_INVALID_VALUE);
  o.rtol = NAN;
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, x, &o, &info), CSR_ERR_INVALID_VALUE);
  o.rtol = 0.0;
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, x, &o, &info), CSR_ERR_INVALID_VALUE);
  csr_solver_options_init(&o);
  o.max_iter = -1;
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, x, &o, &info), CSR_ERR_INVALID_VALUE);
  csr_solver_options_init(&o);
  o.history_capacity = 3;
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, x, &o, &info), CSR_ERR_INVALID_VALUE);
  xh = csrt_host_vector(x);
  CHECK(info.iterations == -7 && norm_inf(xh) == 0.0);
  /* Non-finite b is refused before any iteration (test_bad_values has more). */
  bh = csrt_host_vector(b);
  ((double *)bh->data)[4] = NAN;
  csrt_set_vector(b, bh);
  CHECK_STATUS(ctx, csr_solve(ctx, P, b, x, NULL, &info), CSR_ERR_INVALID_VALUE);
  CHECK(strstr(csr_context_last_error(ctx), "b holds a non-finite value: b(4) = nan") != NULL);
  csrt_set_vector(xh, x);
  CHECK(info.stop == CSR_SOLVER_FAILED && norm_inf(xh) == 0.0);
  if (at == CSR_DEVICE) /* operands in two places */
    CHECK_STATUS(ctx, csr_solve(ctx, H, b, x, NULL, &info), CSR_ERR_LOCATION_MISMATCH);
  csr_vector_free(&xh);
  csr_vector_free(&bh);
  csr_matrix_free(&H);
  csr_matrix_free(&P);
  csr_matrix_free(&W);
  csr_vector_free(&b);
  csr_vector_free(&x);
  csr_vector_free(&short_x);
  csr_vector_free(&x32);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  csrt_seed("backend_solve");
  csr_context *ctx = csrt_context(backend);
  ref = csrt_context(CSR_BACKEND_REF);
  test_generated(ctx);
  test_files(ctx);
  test_breakdowns(ctx);
  test_bad_values(ctx);
  test_singular(ctx);
  test_limits(ctx);
  test_errors(ctx);
  CHECK(csr_context_last_backend(ctx) == backend);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_solve");
}
