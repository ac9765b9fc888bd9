/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the csr_solve front end (src/solve/solve.c) and its methods (src/solve/cg.c,
 * src/solve/bicgstab.c). Internal. */
#ifndef CSR_SOLVE_SOLVER_H
#define CSR_SOLVE_SOLVER_H

#include "ops/ops.h"

/* One csr_solve run: checked operands, the stopping threshold, and what has been done so far. */
typedef struct csri_solve_run {
  csr_context *ctx;
  const csr_matrix *A;
  const csr_vector *b;
  csr_vector *x;
  const csr_solver_options *options;
  double tol;       /* stop when ||r|| <= tol = max(rtol * ||b||, atol) */
  int64_t max_iter; /* >= 1 */
  int64_t iterations;
  int64_t history_length;
  csr_solver_stop stop; /* set by the method before it returns */
  csr_spmv_plan *plan;  /* A's planned SpMV (columns packed or plain), which every product with A
                           reads: csri_solve_spmv */
} csri_solve_run;

/* The options' method, preconditioner, restart, tolerances, limit and history, checked; messages
 * start with `who`. */
csr_status csri_solve_check_options(csr_context *ctx, const csr_solver_options *o, const char *who);
/* y = alpha A x + beta y through the run's plan. */
csr_status csri_solve_spmv(csri_solve_run *run, double alpha, const csr_vector *x, double beta,
                           csr_vector *y);
/* r = b - A x (r of b's size and type). */
csr_status csri_solve_residual(csri_solve_run *run, csr_vector *r);
/* For an iterate whose (checked) residual norm is rn: 1 when the run is over, converged (rn <= tol)
 * or at the iteration limit, with run->stop set and *status what the method returns; else 0. */
int csri_solve_finished(csri_solve_run *run, double rn, csr_status *status);
/* Appends ||r_k|| to the caller's history while it has room, and reports it to the caller's
 * progress callback (k >= 1). */
void csri_solve_record(csri_solve_run *run, double rnorm);
/* Replaces the last history entry (the same iterate's recomputed residual norm). */
void csri_solve_rerecord(csri_solve_run *run, double rnorm);

/* CG's fused step (src/core/backend.h) on the backend where A lives (src/solve/cg_step.c). */
csr_status csri_cg_step(csr_context *ctx, const csr_spmv_plan *planned, const csr_matrix *A,
                        double alpha, double beta, const csri_cg_vectors *v, double *sums);
/* Its element-wise half alone (csri_cg_update_fn) on the backend where v->x lives. */
csr_status csri_cg_update(csr_context *ctx, double alpha, double beta, const csri_cg_vectors *v);
/* d = 1 / diag(A) in d's type; CSR_ERR_INVALID_MATRIX (no diagonal entry, a_ii <= 0) or
 * CSR_ERR_INVALID_VALUE (non-finite a_ii) naming the first bad row. */
csr_status csri_jacobi(csr_context *ctx, const csr_matrix *A, csr_vector *d);

/* The checks of src/solve/check.c, each CSR_SUCCESS or an error naming what it found.
 * A: every value finite (CSR_ERR_INVALID_VALUE naming the first non-finite a_ij in row order), no
 * row and no column without a nonzero value (CSR_ERR_INVALID_MATRIX: "A is singular", naming the
 * first). On the host this is exact; on the device it finds the non-finite values and the rows
 * that store nothing, and rows or columns whose stored values are all zero are left to
 * csri_solve_explain_failure. */
csr_status csri_solve_check_matrix(csr_context *ctx, const csr_matrix *A);
/* v finite; else CSR_ERR_INVALID_VALUE naming the first non-finite entry ("WHAT holds a non-finite
 * value: NAME(i) = nan"). */
csr_status csri_solve_check_vector(csr_context *ctx, const csr_vector *v, const char *what,
                                   const char *name);
/* CSR_ERR_INVALID_VALUE naming v's first non-finite entry, for a v whose norm came out not
 * finite; CSR_SUCCESS when every entry is finite (the norm overflowed). */
csr_status csri_solve_name_non_finite(csr_context *ctx, const csr_vector *v, const char *what,
                                      const char *name);
/* After a method broke down on a device A: the host's exact check of a copy of A, which names an
 * all-zero row or column that the device's check could not see; CSR_SUCCESS when there is none
 * (and always for a host A, which was checked in full before the method ran). */
csr_status csri_solve_explain_failure(csr_context *ctx, const csr_matrix *A);

/* The methods: x holds the initial guess; on return run->stop and run->iterations say what
 * happened. CSR_SUCCESS, CSR_INFO_NOT_CONVERGED, or an error. */
csr_status csri_cg(csri_solve_run *run, int jacobi);

/* What CG's iteration needs of where it runs: one process (src/solve/cg.c) or across ranks
 * (src/dist/cg.c). The iteration itself (the stopping rule, the recomputed residual, alpha and
 * beta from the recurrence, the refusals) is csri_cg_iterate's, shared by both. */
typedef struct csri_cg_ops {
  void *self;
  const double *sums; /* this iterate's r.r, r.z, p.q, z.q, q.Dq, updated by step */
  /* r = b - A x, then step(0, 0): p = z, q = A p and the sums of the true residual. */
  csr_status (*restart)(void *self);
  /* The fused step to the next iterate (r' = r - alpha q, x += alpha p, p' = z' + beta p,
   * q' = A p', the sums), which becomes this one. */
  csr_status (*step)(void *self, double alpha, double beta);
  /* ||r|| from sums[0]; an error when it is not finite. */
  csr_status (*residual_norm)(void *self, double *rn);
  /* p'Ap = pq <= 0: sets run->stop to CSR_SOLVER_BREAKDOWN and returns the error. */
  csr_status (*breakdown)(void *self, double pq);
} csri_cg_ops;
/* CG's iteration from x, until converged, at the limit, or refused (src/solve/cg.c). */
csr_status csri_cg_iterate(csri_solve_run *run, const csri_cg_ops *ops);
csr_status csri_bicgstab(csri_solve_run *run);
/* The run's preconditioner M (src/solve/precond.c): none, Jacobi's diag(A)^-1 as a diagonal
 * matrix, or an incomplete factorization, the run's own or the caller's. */
typedef struct csri_precond {
  csr_matrix *inverse_diagonal;
  csr_factor *owned;
  const csr_factor *factor;
} csri_precond;
/* Makes M as options->preconditioner says (NONE: nothing); a failed factorization's error. */
csr_status csri_precond_setup(csri_solve_run *run, csri_precond *pc);
int csri_precond_active(const csri_precond *pc);
/* z = M^-1 r (r copied for no M). */
csr_status csri_precond_apply(csr_context *ctx, const csri_precond *pc, const csr_vector *r,
                              csr_vector *z);
void csri_precond_free(csri_precond *pc);

/* Restarted GMRES(options->restart), right-preconditioned by pc's M (src/solve/gmres.c). */
csr_status csri_gmres(csri_solve_run *run, const csri_precond *pc);
/* What restarted GMRES needs of where it runs: one process (src/solve/gmres.c) or across ranks
 * (src/dist/gmres.c). The cycles, the rotations of the Hessenberg matrix and its solve, the
 * stopping rule, the history and the breakdowns are csri_gmres_iterate's, shared by both. */
typedef struct csri_gmres_ops {
  void *self;
  int64_t m;             /* steps per cycle, 1 <= m <= n */
  double *h, *c, *s, *g; /* host: (m + 1) x m Hessenberg (column k at h + k (m + 1)), the
                            rotations (m each), the rotated r.h.s. (m + 1) */
  int preconditioned;    /* said in a breakdown's message */
  /* v_0 = b - A x and *rn = ||v_0||; an error when it is not finite. */
  csr_status (*residual)(void *self, double *rn);
  /* v_i = alpha v_i. */
  csr_status (*scale)(void *self, int64_t i, double alpha);
  /* v_{k+1} = A M^-1 v_k orthogonalised against v_0..v_k, the coefficients added to h (column
   * k, zeroed by the driver), *norm = ||v_{k+1}||. */
  csr_status (*arnoldi)(void *self, int64_t k, double *h, double *norm);
  /* x += M^-1 (v_0 y_0 + ... + v_{k-1} y_{k-1}), k >= 1. */
  csr_status (*update)(void *self, int64_t k, const double *y);
} csri_gmres_ops;
/* GMRES's cycles from x, until converged, at the limit, or broken down (src/solve/gmres.c). */
csr_status csri_gmres_iterate(csri_solve_run *run, const csri_gmres_ops *ops);
/* CG preconditioned by pc's factorization, from the public operations (src/solve/pcg.c). */
csr_status csri_pcg(csri_solve_run *run, const csri_precond *pc);
/* *D = diag(A)^-1 as a diagonal matrix of `type` where A lives, for a preconditioner applied by
 * csr_spmv; CSR_ERR_INVALID_MATRIX naming the first row whose a_ii is missing or zero,
 * CSR_ERR_INVALID_VALUE when 1 / a_ii overflows (src/solve/inverse_diagonal.c). */
csr_status csri_inverse_diagonal(csr_context *ctx, const csr_matrix *A, csr_value_type type,
                                 csr_matrix **D);
/* 1 when the options ask for Jacobi preconditioning (the PCG method or the preconditioner). */
int csri_solve_jacobi(const csr_solver_options *o);
/* BiCGSTAB's refusals, shared with the distributed method (src/dist/bicgstab.c): a breakdown
 * (what = value, CSR_ERR_INVALID_MATRIX, run->stop set), and a quantity that overflowed
 * (CSR_ERR_INVALID_VALUE), each naming the iteration. */
csr_status csri_bicgstab_breakdown(csri_solve_run *run, const char *what, double value);
csr_status csri_bicgstab_not_finite(csri_solve_run *run, const char *what, double value);

#endif /* CSR_SOLVE_SOLVER_H */
