/* SPDX-License-Identifier: BSD-3-Clause */
/* Solves A x = b iteratively: checks the operands and options, then runs the method asked for
 * (src/solve/cg.c, src/solve/bicgstab.c, src/solve/gmres.c) and reports ||b - A x|| of what it
 * returns. */
#include "solve/solver.h"

#include <math.h>

void csr_solver_options_init(csr_solver_options *options) {
  if (options == NULL)
    return;
  options->method = CSR_SOLVER_CG;
  options->rtol = 1e-8;
  options->atol = 0.0;
  options->max_iter = 0;
  options->history = NULL;
  options->history_capacity = 0;
  options->progress = NULL;
  options->progress_user = NULL;
  options->preconditioner = CSR_PRECOND_NONE;
  csr_factor_options_init(&options->factor_options);
  options->factor = NULL;
  options->restart = 0;
  options->compress = CSR_COMPRESS_AUTO;
  options->reorder = CSR_REORDER_AUTO;
}

static csr_status check(csr_context *ctx, const csr_matrix *A, const csr_vector *b,
                        const csr_vector *x, const csr_solver_options *o,
                        const csri_backend **backend) {
  CSRI_CHECK_NULL(ctx, A);
  CSRI_TRY(csri_check_vector(ctx, b, "b"));
  CSRI_TRY(csri_check_vector(ctx, x, "x"));
  if (A->location != b->location || A->location != x->location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH,
                     "csr_solve: A, b and x must all be on the host or all on the device");
  /* Every method multiplies by A: the backend of the SpMV is the solve's. */
  CSRI_TRY(CSRI_DISPATCH(ctx, A->location, sparse.spmv, "csr_solve", backend));
  if (A->rows != A->cols || b->n != A->rows || x->n != A->cols)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "csr_solve needs a square A and b, x of its size: A is %lld x %lld, b has "
                     "%lld entries, x %lld",
                     (long long)A->rows, (long long)A->cols, (long long)b->n, (long long)x->n);
  if (b->value_type != x->value_type ||
      (A->value_type != CSR_PATTERN && A->value_type != x->value_type))
    return CSRI_FAIL(ctx, CSR_ERR_TYPE_MISMATCH,
                     "csr_solve: b, x and A's values must share one type (A may be a pattern)");
  if (csri_vectors_overlap(b, x))
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "csr_solve: b and x overlap in memory");
  return csri_solve_check_options(ctx, o, "csr_solve");
}

csr_status csri_solve_check_options(csr_context *ctx, const csr_solver_options *o,
                                    const char *who) {
  if (o->method != CSR_SOLVER_CG && o->method != CSR_SOLVER_PCG_JACOBI &&
      o->method != CSR_SOLVER_BICGSTAB && o->method != CSR_SOLVER_GMRES)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "%s: unknown method %d", who, (int)o->method);
  if (o->preconditioner < CSR_PRECOND_NONE || o->preconditioner > CSR_PRECOND_FACTOR)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "%s: unknown preconditioner %d", who,
                     (int)o->preconditioner);
  if (o->method == CSR_SOLVER_BICGSTAB && o->preconditioner != CSR_PRECOND_NONE)
    return CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED,
                     "%s: BiCGSTAB takes no preconditioner yet (GMRES and CG do)", who);
  if (o->preconditioner == CSR_PRECOND_FACTOR && o->factor == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER,
                     "%s: preconditioner CSR_PRECOND_FACTOR with options->factor NULL", who);
  if (o->reorder < CSR_REORDER_NONE || o->reorder > CSR_REORDER_APPEARANCE)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "%s: reorder %d is no csr_reorder_method", who,
                     (int)o->reorder);
  if (o->preconditioner == CSR_PRECOND_FACTOR && o->reorder != CSR_REORDER_NONE &&
      o->reorder != CSR_REORDER_AUTO)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "%s: reorder %s with CSR_PRECOND_FACTOR: the factor is of A as numbered", who,
                     csr_reorder_method_name(o->reorder));
  if (o->restart < 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "%s: restart %lld (>= 0; 0: the default, 30)", who,
                     (long long)o->restart);
  if (!(o->rtol >= 0.0 && o->atol >= 0.0) || (o->rtol == 0.0 && o->atol == 0.0) ||
      !isfinite(o->rtol) || !isfinite(o->atol))
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "%s: rtol %g and atol %g must be finite, >= 0 and not both 0", who, o->rtol,
                     o->atol);
  if (o->max_iter < 0 || o->history_capacity < 0 || (o->history == NULL && o->history_capacity > 0))
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "%s: max_iter %lld (>= 0) and history_capacity %lld (>= 0, with a history "
                     "array when > 0) expected",
                     who, (long long)o->max_iter, (long long)o->history_capacity);
  return CSR_SUCCESS;
}

csr_status csri_solve_spmv(csri_solve_run *run, double alpha, const csr_vector *x, double beta,
                           csr_vector *y) {
  if (run->plan != NULL)
    return csr_spmv_run(run->ctx, run->plan, alpha, x, beta, y);
  return csr_spmv(run->ctx, alpha, run->A, x, beta, y);
}

csr_status csri_solve_residual(csri_solve_run *run, csr_vector *r) {
  CSRI_TRY(csr_copy(run->ctx, run->b, r));
  return csri_solve_spmv(run, -1.0, run->x, 1.0, r);
}

int csri_solve_finished(csri_solve_run *run, double rn, csr_status *status) {
  if (rn <= run->tol) {
    run->stop = CSR_SOLVER_CONVERGED;
    *status = CSR_SUCCESS;
    return 1;
  }
  if (run->iterations >= run->max_iter) {
    run->stop = CSR_SOLVER_MAX_ITER;
    *status = CSR_INFO_NOT_CONVERGED;
    return 1;
  }
  return 0;
}

void csri_solve_record(csri_solve_run *run, double rnorm) {
  const csr_solver_options *o = run->options;
  if (run->history_length < o->history_capacity)
    o->history[run->history_length++] = rnorm;
  if (o->progress != NULL && run->iterations > 0)
    o->progress(o->progress_user, run->iterations, rnorm);
}

void csri_solve_rerecord(csri_solve_run *run, double rnorm) {
  if (run->history_length > 0 && run->history_length == run->iterations + 1)
    run->options->history[run->history_length - 1] = rnorm; /* that entry is this iterate's */
}

int csri_solve_jacobi(const csr_solver_options *o) {
  return o->method == CSR_SOLVER_PCG_JACOBI || o->preconditioner == CSR_PRECOND_JACOBI;
}

/* The preconditioner of a factorization or GMRES's, then the method. CG with Jacobi keeps its
 * fused step (src/solve/cg.c), which reads the diagonal itself. */
static csr_status method(csri_solve_run *run) {
  const csr_solver_options *o = run->options;
  if (o->method == CSR_SOLVER_BICGSTAB)
    return csri_bicgstab(run);
  int jacobi = csri_solve_jacobi(o);
  if (o->method != CSR_SOLVER_GMRES && (jacobi || o->preconditioner == CSR_PRECOND_NONE))
    return csri_cg(run, jacobi);
  csri_precond pc;
  csr_status status = csri_precond_setup(run, &pc);
  if (status >= 0)
    status = o->method == CSR_SOLVER_GMRES ? csri_gmres(run, &pc) : csri_pcg(run, &pc);
  csri_precond_free(&pc);
  return status;
}

/* The method's run, then ||b - A x|| of the x it leaves. */
static csr_status run_method(csri_solve_run *run, double *residual_norm) {
  csr_status status = method(run);
  *residual_norm = NAN;
  csr_vector *r = NULL;
  csr_status s = csr_vector_create(run->ctx, &r, run->b->n, run->b->value_type, run->x->location);
  if (s >= 0)
    s = csri_solve_residual(run, r);
  if (s >= 0)
    s = csr_nrm2(run->ctx, r, residual_norm);
  csr_vector_free(&r);
  if (status >= 0 && s < 0) {
    run->stop = CSR_SOLVER_FAILED;
    return s;
  }
  return status;
}

/* The solve on checked operands, in A's numbering. */
static csr_status solve(csr_context *ctx, const csri_backend *backend, const csr_matrix *A,
                        const csr_vector *b, csr_vector *x, const csr_solver_options *o,
                        csr_solver_info *info) {
  int64_t n = A->rows;
  csri_solve_run run = {ctx, A, b, x, o, 0.0, o->max_iter, 0, 0, CSR_SOLVER_FAILED, NULL};
  /* The default, max(10n, 1000), is scipy's: in floating point CG on an ill-conditioned SPD
   * matrix needs more than the n steps of exact arithmetic (1138_bus: ~2700 for n = 1138). */
  if (run.max_iter == 0)
    run.max_iter = 10 * n > 1000 ? 10 * n : 1000;
  double bnorm = 0.0, rnorm = 0.0;
  /* A before b: b is often made from A (b = A * ones), and then holds A's NaN too. */
  csr_status status = csri_solve_check_matrix(ctx, A);
  if (status >= 0)
    status = csr_nrm2(ctx, b, &bnorm); /* NaN or infinity when b holds one: then named */
  if (status >= 0 && !isfinite(bnorm))
    status = csri_solve_name_non_finite(ctx, b, "b", "b");
  if (status >= 0 && !isfinite(bnorm))
    status = CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                       "csr_solve: ||b|| overflows (%g): scale the system", bnorm);
  if (status >= 0 && bnorm == 0.0) { /* the solution is 0, whatever the guess */
    status = csr_fill(ctx, 0.0, x);
    run.stop = CSR_SOLVER_CONVERGED;
    csri_solve_record(&run, 0.0);
  } else if (status >= 0) {
    status = csri_solve_check_vector(ctx, x, "the initial guess x", "x");
    run.tol = o->rtol * bnorm > o->atol ? o->rtol * bnorm : o->atol;
    if (status >= 0)
      status = csr_spmv_analyze(ctx, A, o->compress, &run.plan);
    if (status >= 0) {
      status = run_method(&run, &rnorm);
      /* Broken down (a bad Jacobi diagonal included) or overflowed: a device A may have an
       * all-zero row or column its check could not see; when it has, that is the reason. Not at
       * the iteration limit: the look is a copy of A to the host, which a run that merely did not
       * converge must not pay (nor fail for want of host memory). */
      if (status == CSR_ERR_INVALID_MATRIX || status == CSR_ERR_INVALID_VALUE) {
        csr_status why = csri_solve_explain_failure(ctx, A);
        status = why == CSR_ERR_INVALID_MATRIX ? why : status;
      }
    }
  }
  if (status < 0 && run.stop != CSR_SOLVER_BREAKDOWN)
    run.stop = CSR_SOLVER_FAILED;
  if (info) {
    csr_spmv_plan_info planned = {0};
    if (run.plan != NULL)
      csr_spmv_plan_describe(run.plan, &planned);
    info->packed = planned.packed;
    info->iterations = run.iterations;
    info->residual_norm = rnorm;
    info->relative_residual = bnorm > 0.0 ? rnorm / bnorm : 0.0;
    info->history_length = run.history_length;
    info->stop = run.stop;
  }
  csr_spmv_plan_free(&run.plan);
  if (status >= 0)
    csri_set_last_backend(ctx, backend->id);
  return status < 0 ? status : run.stop == CSR_SOLVER_CONVERGED ? CSR_SUCCESS : status;
}

/* A failed renumbered solve's status, its message naming A's rows: the checks that name a row
 * (the entries, the Jacobi diagonal, an empty row or column) run again on A; when none finds
 * anything the solve's own message (a breakdown, say) stands. */
static csr_status name_in_a(csr_context *ctx, const csr_matrix *A, const csr_solver_options *o,
                            csr_status failed) {
  csr_status again = csri_solve_check_matrix(ctx, A);
  if (again >= 0 && csri_solve_jacobi(o)) {
    csr_vector *d = NULL;
    again = csr_vector_create(ctx, &d, A->rows, A->value_type == CSR_F32 ? CSR_F32 : CSR_F64,
                              A->location);
    if (again >= 0)
      again = csri_jacobi(ctx, A, d);
    csr_vector_free(&d);
  }
  if (again >= 0 && csri_solve_explain_failure(ctx, A) == CSR_ERR_INVALID_MATRIX)
    return CSR_ERR_INVALID_MATRIX;
  return again < 0 && again != CSR_ERR_OUT_OF_MEMORY ? again : failed;
}

/* The solve of P A P' (P x) = P b, x brought back: B, b' and x' (the guess) renumbered by a
 * csr_reorder order, the method run on them, x = P' x'. */
static csr_status solve_renumbered(csr_context *ctx, const csri_backend *backend,
                                   const csr_matrix *A, const csr_vector *b, csr_vector *x,
                                   const csr_solver_options *o, csr_solver_info *info) {
  const double start = csri_seconds_now();
  csr_permutation *P = NULL;
  csr_matrix *B = NULL;
  csr_vector *b_new = NULL, *x_new = NULL;
  csr_status s = csr_reorder(ctx, A, o->reorder, &P);
  if (s >= 0)
    s = csr_permute(ctx, A, P, P, &B);
  if (s >= 0)
    s = csr_vector_create(ctx, &b_new, b->n, b->value_type, b->location);
  if (s >= 0)
    s = csr_vector_create(ctx, &x_new, x->n, x->value_type, x->location);
  if (s >= 0)
    s = csr_permute_vector(ctx, P, CSR_PERMUTE_FORWARD, b, b_new);
  if (s >= 0)
    s = csr_permute_vector(ctx, P, CSR_PERMUTE_FORWARD, x, x_new);
  const double renumbering = csri_seconds_now() - start;
  csr_status solved = s >= 0 ? solve(ctx, backend, B, b_new, x_new, o, info) : s;
  if (solved == CSR_ERR_INVALID_MATRIX || solved == CSR_ERR_INVALID_VALUE)
    solved = name_in_a(ctx, A, o, solved); /* B's message would name B's rows */
  if (s >= 0) {                            /* x: the method's last iterate, in A's numbering */
    s = csr_permute_vector(ctx, P, CSR_PERMUTE_BACKWARD, x_new, x);
    solved = solved >= 0 && s < 0 ? s : solved;
  }
  if (info && s >= 0) {
    info->reordered = o->reorder;
    info->reorder_seconds = renumbering;
  }
  csr_vector_free(&x_new);
  csr_vector_free(&b_new);
  csr_matrix_free(&B);
  csr_permutation_free(&P);
  return solved;
}

csr_status csr_solve(csr_context *ctx, const csr_matrix *A, const csr_vector *b, csr_vector *x,
                     const csr_solver_options *options, csr_solver_info *info) {
  csr_solver_options defaults;
  csr_solver_options_init(&defaults);
  const csr_solver_options *o = options ? options : &defaults;
  const csri_backend *backend;
  CSRI_TRY(check(ctx, A, b, x, o, &backend));
  if (info) {
    info->reordered = CSR_REORDER_NONE;
    info->reorder_seconds = 0.0;
  }
  if (o->reorder == CSR_REORDER_NONE || o->reorder == CSR_REORDER_AUTO || A->rows == 0)
    return solve(ctx, backend, A, b, x, o, info);
  return solve_renumbered(ctx, backend, A, b, x, o, info);
}
