/* SPDX-License-Identifier: BSD-3-Clause */
/* CG and Jacobi-PCG across ranks, in the single-reduction form of src/solve/cg.c: a step updates
 * r, x and p' = z' + beta p (the element-wise kernel of the single-process step), multiplies
 * q' = A p' (halo overlapped), and sums r'r', r'z', p'q', z'q', q'Dq' in one exact reduction:
 * one MPI_Allreduce per iteration, and the same bits on any number of ranks. beta comes from the
 * recurrence r'z' = rz - 2 alpha zq + alpha^2 qDq, as on one process. */
#include "dist/solver.h"
#include "kernels/rows.h"

#include <math.h>

typedef struct work {
  csr_dist_vector *d;
  csr_dist_vector *r[2], *p[2], *q[2];
  int now;
  double sums[CSRI_CG_SUMS];
} work;

static void work_free(work *w) {
  csr_dist_vector_free(&w->d);
  for (int k = 0; k < 2; k++) {
    csr_dist_vector_free(&w->r[k]);
    csr_dist_vector_free(&w->p[k]);
    csr_dist_vector_free(&w->q[k]);
  }
}

/* d_p = 1 / a_pp for this rank's rows (the diagonal of local row p is local column p, since the
 * owned columns are renamed like the rows); the first bad row named by its global index. */
static csr_status jacobi_rows(csr_context *ctx, const csr_dist_matrix *A,
                              const csr_matrix *const *part, double *d);

/* d on the host (from a host copy of a device A's parts, once), then where A lives. */
static csr_status jacobi(csr_context *ctx, const csr_dist_matrix *A, work *w) {
  int64_t n = A->rows->count;
  double *d = csri_malloc(((size_t)n + 1) * sizeof *d);
  csr_matrix *part[2] = {A->interior, A->boundary}, *host[2] = {NULL, NULL};
  csr_status status =
      d ? CSR_SUCCESS : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the diagonal failed");
  for (int h = 0; h < 2 && status >= 0; h++)
    status =
        A->location == CSR_DEVICE ? csr_matrix_copy(ctx, part[h], &host[h], CSR_HOST) : CSR_SUCCESS;
  if (status >= 0)
    status = jacobi_rows(ctx, A,
                         A->location == CSR_DEVICE ? (const csr_matrix *const *)host
                                                   : (const csr_matrix *const *)part,
                         d);
  if (status >= 0)
    status = csri_dist_store_local(ctx, w->d, d);
  for (int h = 0; h < 2; h++)
    csr_matrix_free(&host[h]);
  csri_free(d);
  return status;
}

static csr_status jacobi_rows(csr_context *ctx, const csr_dist_matrix *A,
                              const csr_matrix *const *part, double *d) {
  int64_t p = 0;
  for (int h = 0; h < 2; h++)
    for (int64_t i = 0; i < part[h]->rows; i++, p++) {
      int found = 0;
      double a = csri_row_diagonal(part[h], i, p, &found);
      int64_t row = A->rows->first + A->rows->order[p];
      if (!found)
        return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                         "PCG (Jacobi): row %lld has no diagonal entry", (long long)row);
      if (!isfinite(a))
        return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                         "PCG (Jacobi): the diagonal entry of row %lld is %g", (long long)row, a);
      if (!(a > 0.0))
        return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                         "PCG (Jacobi): the diagonal entry of row %lld is %g <= 0: A is not "
                         "symmetric positive definite",
                         (long long)row, a);
      d[p] = 1.0 / a;
    }
  return CSR_SUCCESS;
}

static csr_status setup(csri_dist_run *run, int precondition, work *w) {
  csr_status status = CSR_SUCCESS;
  if (precondition) {
    status = csri_dist_run_vector(run, &w->d);
    if (status >= 0)
      status = jacobi(run->base.ctx, run->A, w);
  }
  for (int k = 0; k < 2 && status >= 0; k++) {
    status = csri_dist_run_vector(run, &w->r[k]);
    if (status >= 0)
      status = csri_dist_run_vector(run, &w->p[k]);
    if (status >= 0)
      status = csri_dist_run_vector(run, &w->q[k]);
  }
  return csri_dist_agree(run->base.ctx, run->A->rows->comm, status);
}

/* The five sums' terms of this rank, as the single-process step forms them, summed exactly by
 * the backend where the vectors live. */
static csr_status deposit(csr_context *ctx, work *w, int b, csri_dist_sums *s) {
  csr_vector r = csri_dist_own(w->r[b]), p = csri_dist_own(w->p[b]), q = csri_dist_own(w->q[b]),
             d = w->d ? csri_dist_own(w->d) : r;
  const csr_vector *v[4] = {&r, &p, &q, w->d ? &d : NULL};
  return csri_exact_sums(ctx, CSRI_TERMS_CG, v, s->acc);
}

/* One fused step from this iterate to the next; the next becomes this one. */
static csr_status step(csri_dist_run *run, work *w, double alpha, double beta) {
  int a = w->now, b = 1 - w->now;
  csr_vector x = csri_dist_own(run->x), r = csri_dist_own(w->r[a]), p = csri_dist_own(w->p[a]),
             q = csri_dist_own(w->q[a]), rn = csri_dist_own(w->r[b]), pn = csri_dist_own(w->p[b]),
             qn = csri_dist_own(w->q[b]), d = w->d ? csri_dist_own(w->d) : x;
  csri_cg_vectors v = {&x, &r, &p, &q, &rn, &pn, &qn, w->d ? &d : NULL};
  /* The element-wise half on the backend where the vectors live (an empty rank has none). */
  csr_status status = x.n > 0 ? csri_cg_update(run->base.ctx, alpha, beta, &v) : CSR_SUCCESS;
  /* The product runs whatever the update said: every rank takes part in the exchange. */
  csr_status product = csri_dist_spmv(run->base.ctx, 1.0, run->A, w->p[b], 0.0, w->q[b]);
  status = status < 0 ? status : product;
  csri_dist_sums s;
  csri_dist_sums_init(&s, CSRI_CG_SUMS);
  if (status >= 0)
    status = deposit(run->base.ctx, w, b, &s);
  w->now = b;
  status = csri_dist_sums_finish(run->base.ctx, run->A->rows->comm, &s, status, 0u, w->sums);
  if (w->d == NULL)
    w->sums[1] = w->sums[0];
  return status;
}

/* Starts (again) from the true residual: r = b - A x, p = z, q = A p. */
static csr_status restart(csri_dist_run *run, work *w) {
  CSRI_TRY(csri_dist_residual(run, w->r[w->now], NULL));
  return step(run, w, 0.0, 0.0);
}

static csr_status residual_norm(csri_dist_run *run, work *w, double *rn) {
  *rn = sqrt(w->sums[0]);
  if (isfinite(*rn))
    return CSR_SUCCESS;
  return CSRI_FAIL(run->base.ctx, CSR_ERR_INVALID_VALUE,
                   "CG: the residual norm is %g at iteration %lld (the iterates overflowed: "
                   "scale the system)",
                   *rn, (long long)run->base.iterations);
}

/* p'Ap <= 0: A is not SPD (or, at 0, singular). */
static csr_status breakdown(csri_dist_run *run, double pq) {
  run->base.stop = CSR_SOLVER_BREAKDOWN;
  return CSRI_FAIL(run->base.ctx, CSR_ERR_INVALID_MATRIX,
                   "CG breakdown at iteration %lld: p'Ap = %g <= 0: A is not symmetric positive "
                   "definite%s",
                   (long long)run->base.iterations + 1, pq,
                   pq == 0.0 ? " (or singular: A p = 0 for a direction p != 0)" : "");
}

/* The distributed run and its work, as the shared driver's self (src/solve/cg.c). */
typedef struct ranks {
  csri_dist_run *run;
  work *w;
} ranks;

static csr_status ranks_restart(void *self) {
  ranks *r = self;
  return restart(r->run, r->w);
}
static csr_status ranks_step(void *self, double alpha, double beta) {
  ranks *r = self;
  return step(r->run, r->w, alpha, beta);
}
static csr_status ranks_residual_norm(void *self, double *rn) {
  ranks *r = self;
  return residual_norm(r->run, r->w, rn);
}
static csr_status ranks_breakdown(void *self, double pq) {
  ranks *r = self;
  return breakdown(r->run, pq);
}

csr_status csri_dist_cg(csri_dist_run *run, int jacobi_preconditioned) {
  work w = {0};
  csr_status status = setup(run, jacobi_preconditioned, &w);
  ranks self = {run, &w};
  csri_cg_ops ops = {&self,          w.sums, ranks_restart, ranks_step, ranks_residual_norm,
                     ranks_breakdown};
  if (status >= 0) /* the iteration of one process, on the ranks' operations */
    status = csri_cg_iterate(&run->base, &ops);
  work_free(&w);
  return status;
}
