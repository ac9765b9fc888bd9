/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the distributed solvers (src/dist/solve.c, cg.c, bicgstab.c). Internal. */
#ifndef CSR_DIST_SOLVER_H
#define CSR_DIST_SOLVER_H

#include "dist/dist.h"
#include "solve/solver.h"

/* One csr_dist_solve run: the single-process run's record (context, options, threshold, counts,
 * history, stop: src/solve/solver.h, whose bookkeeping it shares; its A, b and x unused) and the
 * distributed operands. */
typedef struct csri_dist_run {
  csri_solve_run base;
  const csr_dist_matrix *A;
  const csr_dist_vector *b;
  csr_dist_vector *x;
} csri_dist_run;

/* A vector like x (with room for A's ghosts). */
csr_status csri_dist_run_vector(csri_dist_run *run, csr_dist_vector **v);
/* r = b - A x; its norm when rn is not NULL (one exact reduction). */
csr_status csri_dist_residual(csri_dist_run *run, csr_dist_vector *r, double *rn);
/* y = alpha x + beta y on this rank's entries (no communication). */
csr_status csri_dist_axpby(csri_dist_run *run, double alpha, const csr_dist_vector *x, double beta,
                           csr_dist_vector *y);
/* out[k] = the exact dot of the pairs (a[k], b[k]), k < count <= CSRI_DIST_MAX_SUMS, in one
 * reduction that also agrees on `local`. */
csr_status csri_dist_dots(csri_dist_run *run, int count, const csr_dist_vector *const *a,
                          const csr_dist_vector *const *b, csr_status local, double *out);
/* ||x|| in one exact reduction that also agrees on `local` (this rank's status so far). */
csr_status csri_dist_norm(csri_dist_run *run, const csr_dist_vector *x, csr_status local,
                          double *out);
/* The local entries of v as a csr_vector (the ghost area left out). */
csr_vector csri_dist_own(const csr_dist_vector *v);

csr_status csri_dist_cg(csri_dist_run *run, int jacobi);
csr_status csri_dist_bicgstab(csri_dist_run *run);
/* Restarted GMRES(options->restart), right-preconditioned by block Jacobi (src/dist/gmres.c). */
csr_status csri_dist_gmres(csri_dist_run *run);
/* Block Jacobi (src/dist/block_jacobi.c): M from each rank's diagonal block as
 * options->preconditioner says (NONE: nothing); agreed across ranks. */
csr_status csri_dist_block_jacobi(csri_dist_run *run, csri_precond *pc);

#endif
