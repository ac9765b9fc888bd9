/* SPDX-License-Identifier: BSD-3-Clause */
/* BiCGSTAB across ranks: src/solve/bicgstab.c's iteration, with its vector updates done on each
 * rank's entries and its dots and norms exact sums across ranks (src/dist/reduce.c); t's two
 * dots share one reduction. */
#include "dist/solver.h"

#include <math.h>

typedef struct work {
  csr_dist_vector *r, *rhat, *p, *v, *s, *t;
} work;

static void work_free(work *w) {
  csr_dist_vector_free(&w->r);
  csr_dist_vector_free(&w->rhat);
  csr_dist_vector_free(&w->p);
  csr_dist_vector_free(&w->v);
  csr_dist_vector_free(&w->s);
  csr_dist_vector_free(&w->t);
}

static csr_status setup(csri_dist_run *run, work *w) {
  csr_dist_vector **all[] = {&w->r, &w->rhat, &w->p, &w->v, &w->s, &w->t};
  csr_status status = CSR_SUCCESS;
  for (size_t i = 0; i < sizeof all / sizeof *all && status >= 0; i++)
    status = csri_dist_run_vector(run, all[i]);
  return csri_dist_agree(run->base.ctx, run->A->rows->comm, status);
}

static csr_status iterate(csri_dist_run *run, work *w) {
  csr_context *ctx = run->base.ctx;
  const csr_dist_matrix *A = run->A;
  csr_dist_vector *x = run->x, *r = w->r, *s = w->s, *rhat = w->rhat, *p = w->p, *v = w->v,
                  *t = w->t;
  double rn = 0.0, rho = 1.0, alpha = 1.0, omega = 1.0;
  int fresh = 1, restart = 1;
  CSRI_TRY(csri_dist_residual(run, r, &rn));
  csri_solve_record(&run->base, rn);
  for (;;) {
    if (!isfinite(rn))
      return csri_bicgstab_not_finite(&run->base, "the residual norm", rn);
    if (rn <= run->base.tol && !fresh) {
      CSRI_TRY(csri_dist_residual(run, r, &rn));
      csri_solve_rerecord(&run->base, rn);
      fresh = restart = 1;
      continue;
    }
    csr_status finished;
    if (csri_solve_finished(&run->base, rn, &finished))
      return finished;
    if (restart) {
      csr_status local = csri_dist_axpby(run, 1.0, r, 0.0, rhat);
      if (local >= 0)
        local = csri_dist_axpby(run, 1.0, r, 0.0, p);
      CSRI_TRY(csri_dist_dots(run, 1, (const csr_dist_vector *[]){rhat},
                              (const csr_dist_vector *[]){r}, local, &rho));
      restart = 0;
    } else {
      double rho_new = 0.0;
      CSRI_TRY(csri_dist_dots(run, 1, (const csr_dist_vector *[]){rhat},
                              (const csr_dist_vector *[]){r}, CSR_SUCCESS, &rho_new));
      if (!isfinite(rho_new))
        return csri_bicgstab_not_finite(&run->base, "rho = rhat'r", rho_new);
      if (rho_new == 0.0)
        return csri_bicgstab_breakdown(&run->base, "rho = rhat'r", rho_new);
      if (omega == 0.0)
        return csri_bicgstab_breakdown(&run->base, "omega = t's / t't", omega);
      double beta = (rho_new / rho) * (alpha / omega);
      CSRI_TRY(csri_dist_axpby(run, -omega, v, 1.0, p)); /* p = p - omega v */
      CSRI_TRY(csri_dist_axpby(run, 1.0, r, beta, p));   /* p = r + beta p */
      rho = rho_new;
    }
    double rv = 0.0, sn = 0.0;
    csr_status local = csri_dist_spmv(ctx, 1.0, A, p, 0.0, v);
    CSRI_TRY(csri_dist_dots(run, 1, (const csr_dist_vector *[]){rhat},
                            (const csr_dist_vector *[]){v}, local, &rv));
    if (!isfinite(rv))
      return csri_bicgstab_not_finite(&run->base, "rhat'Ap", rv);
    if (rv == 0.0)
      return csri_bicgstab_breakdown(&run->base, "rhat'Ap", rv);
    alpha = rho / rv;
    local = csri_dist_axpby(run, 1.0, r, 0.0, s);
    if (local >= 0)
      local = csri_dist_axpby(run, -alpha, v, 1.0, s); /* s = r - alpha v */
    CSRI_TRY(csri_dist_norm(run, s, local, &sn));
    if (isfinite(sn) && sn <= run->base.tol) {
      CSRI_TRY(csri_dist_axpby(run, alpha, p, 1.0, x));
      csr_dist_vector *swap = r;
      r = s;
      s = swap;
      rn = sn;
      run->base.iterations++;
      csri_solve_record(&run->base, rn);
      fresh = 0;
      continue;
    }
    double tt_ts[2] = {0.0, 0.0};
    local = csri_dist_spmv(ctx, 1.0, A, s, 0.0, t);
    CSRI_TRY(csri_dist_dots(run, 2, (const csr_dist_vector *[]){t, t},
                            (const csr_dist_vector *[]){t, s}, local, tt_ts));
    if (!isfinite(tt_ts[0]) || !isfinite(tt_ts[1]))
      return csri_bicgstab_not_finite(&run->base, "t't", tt_ts[0]);
    if (tt_ts[0] == 0.0) {
      run->base.stop = CSR_SOLVER_BREAKDOWN;
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                       "BiCGSTAB breakdown at iteration %lld: A s = 0 for s = r - alpha A p != 0: "
                       "A is singular",
                       (long long)run->base.iterations + 1);
    }
    omega = tt_ts[1] / tt_ts[0];
    local = csri_dist_axpby(run, alpha, p, 1.0, x);
    if (local >= 0)
      local = csri_dist_axpby(run, omega, s, 1.0, x);
    if (local >= 0)
      local = csri_dist_axpby(run, -omega, t, 1.0, s); /* r = s - omega t */
    csr_dist_vector *swap = r;
    r = s;
    s = swap;
    CSRI_TRY(csri_dist_norm(run, r, local, &rn));
    run->base.iterations++;
    csri_solve_record(&run->base, rn);
    fresh = 0;
  }
}

csr_status csri_dist_bicgstab(csri_dist_run *run) {
  work w = {0};
  csr_status status = setup(run, &w);
  if (status >= 0)
    status = iterate(run, &w);
  work_free(&w);
  return status;
}
