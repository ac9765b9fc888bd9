/* SPDX-License-Identifier: BSD-3-Clause */
/* Solves A x = b for SPD A by conjugate gradients preconditioned by a factorization M (IC(0) as a
 * rule: M = L L' is then symmetric positive definite), in the textbook form (Saad, Iterative
 * Methods, alg. 9.1):
 *   z = M^-1 r, p = z;  loop: q = A p, alpha = r.z / p.q, x += alpha p, r -= alpha q,
 *   z = M^-1 r, beta = r'.z' / r.z, p = z + beta p.
 * Unlike the Jacobi form of src/solve/cg.c, whose diagonal M lets one fused step sum every inner
 * product, M^-1 here is two triangular solves between the product and the next direction, so the
 * iteration is made of the public operations, with two reductions a step. */
#include "solve/solver.h"

#include <math.h>

typedef struct work {
  csr_vector *r, *z, *p, *q;
  double rz; /* r.z of this iterate */
} work;

static void work_free(work *w) {
  csr_vector_free(&w->r);
  csr_vector_free(&w->z);
  csr_vector_free(&w->p);
  csr_vector_free(&w->q);
}

static csr_status setup(csri_solve_run *run, work *w) {
  csr_context *ctx = run->ctx;
  int64_t n = run->b->n;
  csr_value_type type = run->x->value_type;
  csr_location where = run->x->location;
  CSRI_TRY(csr_vector_create(ctx, &w->r, n, type, where));
  CSRI_TRY(csr_vector_create(ctx, &w->z, n, type, where));
  CSRI_TRY(csr_vector_create(ctx, &w->p, n, type, where));
  return csr_vector_create(ctx, &w->q, n, type, where);
}

static csr_status not_finite(csri_solve_run *run, const char *what, double value) {
  return CSRI_FAIL(run->ctx, CSR_ERR_INVALID_VALUE,
                   "PCG: %s is %g at iteration %lld (overflow: scale the system)", what, value,
                   (long long)run->iterations + 1);
}

static csr_status breakdown(csri_solve_run *run, const char *what, double value, const char *why) {
  run->stop = CSR_SOLVER_BREAKDOWN;
  return CSRI_FAIL(run->ctx, CSR_ERR_INVALID_MATRIX, "PCG breakdown at iteration %lld: %s = %g: %s",
                   (long long)run->iterations + 1, what, value, why);
}

/* z = M^-1 r and rz = r.z for the r in w; a new direction p = z when `restart`. */
static csr_status precondition(csri_solve_run *run, const csri_precond *pc, work *w, int restart) {
  double rz_old = w->rz;
  CSRI_TRY(csri_precond_apply(run->ctx, pc, w->r, w->z));
  CSRI_TRY(csr_dot(run->ctx, w->r, w->z, &w->rz));
  if (!isfinite(w->rz))
    return not_finite(run, "r'M^-1 r", w->rz);
  if (!(w->rz > 0.0))
    return breakdown(run, "r'M^-1 r", w->rz,
                     "M is not positive definite (use GMRES for a non-symmetric preconditioner)");
  if (restart)
    return csr_copy(run->ctx, w->z, w->p);
  return csr_axpby(run->ctx, 1.0, w->z, w->rz / rz_old, w->p);
}

/* r = b - A x, its norm, and a fresh direction. */
static csr_status restart(csri_solve_run *run, const csri_precond *pc, work *w, double *rn) {
  CSRI_TRY(csri_solve_residual(run, w->r));
  CSRI_TRY(csr_nrm2(run->ctx, w->r, rn));
  if (!isfinite(*rn))
    return not_finite(run, "||r||", *rn);
  if (*rn <= run->tol)
    return CSR_SUCCESS;
  return precondition(run, pc, w, 1);
}

static csr_status iterate(csri_solve_run *run, const csri_precond *pc, work *w) {
  csr_context *ctx = run->ctx;
  double rn = 0.0;
  int fresh = 1; /* r is b - A x itself, not the recurrence's */
  CSRI_TRY(restart(run, pc, w, &rn));
  csri_solve_record(run, rn);
  for (;;) {
    if (rn <= run->tol && !fresh) { /* the recurrence says so: check b - A x itself */
      CSRI_TRY(restart(run, pc, w, &rn));
      csri_solve_rerecord(run, rn);
      fresh = 1;
      continue;
    }
    csr_status finished;
    if (csri_solve_finished(run, rn, &finished))
      return finished;
    double pq = 0.0;
    CSRI_TRY(csri_solve_spmv(run, 1.0, w->p, 0.0, w->q));
    CSRI_TRY(csr_dot(ctx, w->p, w->q, &pq));
    if (!isfinite(pq))
      return not_finite(run, "p'Ap", pq);
    if (!(pq > 0.0))
      return breakdown(run, "p'Ap", pq, "A is not symmetric positive definite");
    double alpha = w->rz / pq;
    CSRI_TRY(csr_axpy(ctx, alpha, w->p, run->x));
    CSRI_TRY(csr_axpy(ctx, -alpha, w->q, w->r));
    run->iterations++;
    CSRI_TRY(csr_nrm2(ctx, w->r, &rn));
    if (!isfinite(rn))
      return not_finite(run, "||r||", rn);
    csri_solve_record(run, rn);
    fresh = 0;
    if (rn > run->tol && run->iterations < run->max_iter)
      CSRI_TRY(precondition(run, pc, w, 0));
  }
}

csr_status csri_pcg(csri_solve_run *run, const csri_precond *pc) {
  work w = {0};
  csr_status status = setup(run, &w);
  if (status >= 0)
    status = iterate(run, pc, &w);
  work_free(&w);
  return status;
}
