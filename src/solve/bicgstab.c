/* SPDX-License-Identifier: BSD-3-Clause */
/* Solves A x = b for square nonsingular A by BiCGSTAB (van der Vorst 1992), unpreconditioned,
 * with the shadow residual rhat = r_0 (reset to r whenever the iteration restarts). */
#include "solve/solver.h"

#include <math.h>

typedef struct work {
  csr_vector *r, *rhat, *p, *v, *s, *t;
} work;

static void work_free(work *w) {
  csr_vector_free(&w->r);
  csr_vector_free(&w->rhat);
  csr_vector_free(&w->p);
  csr_vector_free(&w->v);
  csr_vector_free(&w->s);
  csr_vector_free(&w->t);
}

static csr_status setup(csri_solve_run *run, work *w) {
  csr_context *ctx = run->ctx;
  int64_t n = run->b->n;
  csr_value_type type = run->x->value_type;
  csr_vector **all[] = {&w->r, &w->rhat, &w->p, &w->v, &w->s, &w->t};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    CSRI_TRY(csr_vector_create(ctx, all[i], n, type, run->x->location));
  return CSR_SUCCESS;
}

csr_status csri_bicgstab_breakdown(csri_solve_run *run, const char *what, double value) {
  run->stop = CSR_SOLVER_BREAKDOWN;
  return CSRI_FAIL(run->ctx, CSR_ERR_INVALID_MATRIX,
                   "BiCGSTAB breakdown at iteration %lld: %s = %g (A singular, or a restart with "
                   "another method is needed)",
                   (long long)run->iterations + 1, what, value);
}

/* A u = 0 for a u != 0 (v = A p or t = A s): A is singular. */
static csr_status singular(csri_solve_run *run, const char *what) {
  run->stop = CSR_SOLVER_BREAKDOWN;
  return CSRI_FAIL(run->ctx, CSR_ERR_INVALID_MATRIX,
                   "BiCGSTAB breakdown at iteration %lld: %s: A is singular",
                   (long long)run->iterations + 1, what);
}

/* A, b and the initial guess were checked finite: what is not finite has overflowed. */
csr_status csri_bicgstab_not_finite(csri_solve_run *run, const char *what, double value) {
  return CSRI_FAIL(run->ctx, CSR_ERR_INVALID_VALUE,
                   "BiCGSTAB: %s is %g at iteration %lld (overflow: scale the system)", what, value,
                   (long long)run->iterations + 1);
}

/* *zero = 1 when u = 0 and w != 0 (both finite), as their largest entries say. */
static csr_status zero_image(csr_context *ctx, const csr_vector *u, const csr_vector *w,
                             int *zero) {
  double un = 1.0, wn = 0.0;
  CSRI_TRY(csr_nrminf(ctx, u, &un));
  CSRI_TRY(csr_nrminf(ctx, w, &wn));
  *zero = un == 0.0 && wn > 0.0;
  return CSR_SUCCESS;
}

/* The iteration; r (a pointer into w, swapped with s) holds the current residual, norm rn. */
static csr_status iterate(csri_solve_run *run, work *w) {
  csr_context *ctx = run->ctx;
  csr_vector *x = run->x, *r = w->r, *s = w->s, *rhat = w->rhat, *p = w->p, *v = w->v, *t = w->t;
  double rn = 0.0, rho = 1.0, alpha = 1.0, omega = 1.0;
  int fresh = 1, restart = 1; /* r was just computed as b - A x; rhat and p start from r */
  CSRI_TRY(csri_solve_residual(run, r));
  CSRI_TRY(csr_nrm2(ctx, r, &rn));
  csri_solve_record(run, rn);
  for (;;) {
    if (!isfinite(rn))
      return csri_bicgstab_not_finite(run, "the residual norm", rn);
    if (rn <= run->tol && !fresh) { /* the recurrence says so: check b - A x itself */
      CSRI_TRY(csri_solve_residual(run, r));
      CSRI_TRY(csr_nrm2(ctx, r, &rn));
      csri_solve_rerecord(run, rn);
      fresh = restart = 1;
      continue;
    }
    csr_status finished;
    if (csri_solve_finished(run, rn, &finished))
      return finished;
    if (restart) {
      CSRI_TRY(csr_copy(ctx, r, rhat));
      CSRI_TRY(csr_copy(ctx, r, p));
      CSRI_TRY(csr_dot(ctx, rhat, r, &rho));
      restart = 0;
    } else {
      double rho_new = 0.0;
      CSRI_TRY(csr_dot(ctx, rhat, r, &rho_new));
      if (!isfinite(rho_new))
        return csri_bicgstab_not_finite(run, "rho = rhat'r", rho_new);
      if (rho_new == 0.0)
        return csri_bicgstab_breakdown(run, "rho = rhat'r", rho_new);
      if (omega == 0.0)
        return csri_bicgstab_breakdown(run, "omega = t's / t't", omega);
      double beta = (rho_new / rho) * (alpha / omega);
      CSRI_TRY(csr_axpy(ctx, -omega, v, p));     /* p = p - omega v */
      CSRI_TRY(csr_axpby(ctx, 1.0, r, beta, p)); /* p = r + beta p */
      rho = rho_new;
    }
    double rv = 0.0, sn = 0.0;
    CSRI_TRY(csri_solve_spmv(run, 1.0, p, 0.0, v));
    CSRI_TRY(csr_dot(ctx, rhat, v, &rv));
    if (!isfinite(rv))
      return csri_bicgstab_not_finite(run, "rhat'Ap", rv);
    if (rv == 0.0) {
      int zero = 0;
      CSRI_TRY(zero_image(ctx, v, p, &zero));
      return zero ? singular(run, "A p = 0 for a direction p != 0")
                  : csri_bicgstab_breakdown(run, "rhat'Ap", rv);
    }
    alpha = rho / rv;
    CSRI_TRY(csr_copy(ctx, r, s));
    CSRI_TRY(csr_axpy(ctx, -alpha, v, s)); /* s = r - alpha v */
    CSRI_TRY(csr_nrm2(ctx, s, &sn));
    if (isfinite(sn) && sn <= run->tol) { /* the half step is enough */
      CSRI_TRY(csr_axpy(ctx, alpha, p, x));
      csr_vector *swap = r;
      r = s;
      s = swap;
      rn = sn;
      run->iterations++;
      csri_solve_record(run, rn);
      fresh = 0;
      continue;
    }
    double tt = 0.0, ts = 0.0;
    CSRI_TRY(csri_solve_spmv(run, 1.0, s, 0.0, t));
    CSRI_TRY(csr_dot(ctx, t, t, &tt));
    CSRI_TRY(csr_dot(ctx, t, s, &ts));
    if (!isfinite(tt) || !isfinite(ts))
      return csri_bicgstab_not_finite(run, "t't", tt);
    if (tt == 0.0) /* t = A s = 0, and s != 0 (||s|| > tol) */
      return singular(run, "A s = 0 for s = r - alpha A p != 0");
    omega = ts / tt;
    CSRI_TRY(csr_axpy(ctx, alpha, p, x));
    CSRI_TRY(csr_axpy(ctx, omega, s, x));
    CSRI_TRY(csr_axpy(ctx, -omega, t, s)); /* r = s - omega t */
    csr_vector *swap = r;
    r = s;
    s = swap;
    CSRI_TRY(csr_nrm2(ctx, r, &rn));
    run->iterations++;
    csri_solve_record(run, rn);
    fresh = 0;
  }
}

csr_status csri_bicgstab(csri_solve_run *run) {
  work w = {NULL, NULL, NULL, NULL, NULL, NULL};
  csr_status status = setup(run, &w);
  if (status >= 0)
    status = iterate(run, &w);
  work_free(&w);
  return status;
}
