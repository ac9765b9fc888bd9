/* SPDX-License-Identifier: BSD-3-Clause */
/* Solves A x = b for SPD A by conjugate gradients, optionally Jacobi-preconditioned
 * (z = diag(A)^-1 r), in the single-reduction form: each iteration is one fused step
 * (src/core/backend.h) that updates r and x, forms the next direction p' = z' + beta p and
 * q' = A p', and returns every inner product the next iteration needs, so it costs one pass over
 * the vectors and one synchronisation on every backend. The price is that beta must be known when
 * the step starts, before r'.z' is summed: it comes from the recurrence
 *   r'.z' = r.z - 2 alpha z.q + alpha^2 q.Dq        (r' = r - alpha q, z' = D r', D symmetric)
 * while alpha uses the r.z that the previous step summed exactly. */
#include "solve/solver.h"

#include <math.h>

typedef struct work {
  csr_vector *d;                  /* 1 / diag(A) (Jacobi), or NULL */
  csr_vector *r[2], *p[2], *q[2]; /* this iterate and the next, swapped after each step */
  int now;                        /* which of each pair is this iterate */
  double sums[CSRI_CG_SUMS];      /* r.r, r.z, p.q, z.q, q.Dq of this iterate */
} work;

static void work_free(work *w) {
  csr_vector_free(&w->d);
  for (int k = 0; k < 2; k++) {
    csr_vector_free(&w->r[k]);
    csr_vector_free(&w->p[k]);
    csr_vector_free(&w->q[k]);
  }
}

static csr_status setup(csri_solve_run *run, int precondition, work *w) {
  csr_context *ctx = run->ctx;
  int64_t n = run->b->n;
  csr_value_type type = run->x->value_type;
  csr_location where = run->x->location;
  if (precondition) {
    CSRI_TRY(csr_vector_create(ctx, &w->d, n, type, where));
    CSRI_TRY(csri_jacobi(ctx, run->A, w->d));
  }
  for (int k = 0; k < 2; k++) {
    CSRI_TRY(csr_vector_create(ctx, &w->r[k], n, type, where));
    CSRI_TRY(csr_vector_create(ctx, &w->p[k], n, type, where));
    CSRI_TRY(csr_vector_create(ctx, &w->q[k], n, type, where));
  }
  return CSR_SUCCESS;
}

/* One fused step from this iterate to the next; the next becomes this one. */
static csr_status step(csri_solve_run *run, work *w, double alpha, double beta) {
  int a = w->now, b = 1 - w->now;
  csri_cg_vectors v = {run->x, w->r[a], w->p[a], w->q[a], w->r[b], w->p[b], w->q[b], w->d};
  CSRI_TRY(csri_cg_step(run->ctx, run->plan, run->A, alpha, beta, &v, w->sums));
  w->now = b;
  return CSR_SUCCESS;
}

/* Starts (again) from the true residual: r = b - A x, p = z, q = A p. */
static csr_status restart(csri_solve_run *run, work *w) {
  CSRI_TRY(csri_solve_residual(run, w->r[w->now]));
  return step(run, w, 0.0, 0.0); /* zero coefficients: r' = r, p' = z' */
}

/* ||r|| from r.r; when that sum overflows, the scaled norm says whether r itself is finite. */
static csr_status residual_norm(csri_solve_run *run, work *w, double *rn) {
  *rn = sqrt(w->sums[0]);
  if (isfinite(*rn))
    return CSR_SUCCESS;
  double scaled = NAN;
  CSRI_TRY(csr_nrm2(run->ctx, w->r[w->now], &scaled));
  if (isfinite(scaled))
    return CSRI_FAIL(run->ctx, CSR_ERR_INVALID_VALUE,
                     "CG: r.r overflows at iteration %lld (||r|| = %g): scale the system",
                     (long long)run->iterations, scaled);
  /* A, b and the initial guess were finite: the iteration overflowed. */
  return CSRI_FAIL(run->ctx, CSR_ERR_INVALID_VALUE,
                   "CG: the residual norm is %g at iteration %lld (the iterates overflowed: "
                   "scale the system)",
                   scaled, (long long)run->iterations);
}

/* p'Ap <= 0: A is not SPD. When A p = 0 for a p != 0, A is singular, and the message says so. */
static csr_status breakdown(csri_solve_run *run, work *w, double pq) {
  double pn = 0.0, qn = 1.0;
  run->stop = CSR_SOLVER_BREAKDOWN;
  if (pq == 0.0) {
    CSRI_TRY(csr_nrminf(run->ctx, w->p[w->now], &pn));
    CSRI_TRY(csr_nrminf(run->ctx, w->q[w->now], &qn));
  }
  if (pn > 0.0 && qn == 0.0)
    return CSRI_FAIL(run->ctx, CSR_ERR_INVALID_MATRIX,
                     "CG breakdown at iteration %lld: A p = 0 for a direction p != 0: A is "
                     "singular",
                     (long long)run->iterations + 1);
  return CSRI_FAIL(run->ctx, CSR_ERR_INVALID_MATRIX,
                   "CG breakdown at iteration %lld: p'Ap = %g <= 0: A is not symmetric positive "
                   "definite",
                   (long long)run->iterations + 1, pq);
}

csr_status csri_cg_iterate(csri_solve_run *run, const csri_cg_ops *ops) {
  double rn = 0.0;
  int fresh = 1; /* r is b - A x itself, not the recurrence's */
  CSRI_TRY(ops->restart(ops->self));
  CSRI_TRY(ops->residual_norm(ops->self, &rn));
  csri_solve_record(run, rn);
  for (;;) {
    if (rn <= run->tol && !fresh) { /* the recurrence says so: check b - A x itself */
      CSRI_TRY(ops->restart(ops->self));
      CSRI_TRY(ops->residual_norm(ops->self, &rn));
      csri_solve_rerecord(run, rn);
      fresh = 1;
      continue;
    }
    csr_status finished;
    if (csri_solve_finished(run, rn, &finished))
      return finished;
    const double *sums = ops->sums;
    double rz = sums[1], pq = sums[2], zq = sums[3], qdq = sums[4];
    if (isnan(pq) || isinf(pq))
      return CSRI_FAIL(run->ctx, CSR_ERR_INVALID_VALUE, "CG: p'Ap = %g at iteration %lld", pq,
                       (long long)run->iterations + 1);
    if (!(pq > 0.0))
      return ops->breakdown(ops->self, pq);
    double alpha = rz / pq;
    double rz_next = rz - 2.0 * alpha * zq + alpha * alpha * qdq;
    /* Cancellation can leave the recurrence <= 0 near convergence: restart the direction. */
    double beta = rz > 0.0 && rz_next > 0.0 ? rz_next / rz : 0.0;
    CSRI_TRY(ops->step(ops->self, alpha, beta));
    run->iterations++;
    CSRI_TRY(ops->residual_norm(ops->self, &rn));
    csri_solve_record(run, rn);
    fresh = 0;
  }
}

/* The one-process run and its work, as the driver's self. */
typedef struct one {
  csri_solve_run *run;
  work *w;
} one;

static csr_status one_restart(void *self) {
  one *o = self;
  return restart(o->run, o->w);
}
static csr_status one_step(void *self, double alpha, double beta) {
  one *o = self;
  return step(o->run, o->w, alpha, beta);
}
static csr_status one_residual_norm(void *self, double *rn) {
  one *o = self;
  return residual_norm(o->run, o->w, rn);
}
static csr_status one_breakdown(void *self, double pq) {
  one *o = self;
  return breakdown(o->run, o->w, pq);
}

csr_status csri_cg(csri_solve_run *run, int jacobi_preconditioned) {
  work w = {0};
  csr_status status = setup(run, jacobi_preconditioned, &w);
  one self = {run, &w};
  csri_cg_ops ops = {&self, w.sums, one_restart, one_step, one_residual_norm, one_breakdown};
  if (status >= 0)
    status = csri_cg_iterate(run, &ops);
  work_free(&w);
  return status;
}
