/* SPDX-License-Identifier: BSD-3-Clause */
/* GMRES(m) across ranks: src/solve/gmres.c's method with the basis distributed like x, right-
 * preconditioned by block Jacobi (src/dist/block_jacobi.c); the cycles are csri_gmres_iterate's.
 * Orthogonalisation is classical Gram-Schmidt, repeated once when a pass leaves less than
 * 1/sqrt(2) of the vector's norm (as PETSc's default, "refine if needed"): a pass's dots against
 * v_0..v_k are independent, so they travel in ceil((k + 1) / 5) reductions instead of the k + 1
 * that modified Gram-Schmidt's dependent dots would take. Every dot and norm is an exact sum
 * across ranks, so the Hessenberg matrix, rotated and solved on every rank alike, is the same on
 * each, and without a preconditioner (or with Jacobi) the iterates have the same bits for any
 * number of ranks. */
#include "dist/solver.h"

#include <math.h>

enum { default_restart = 30 };

typedef struct work {
  int64_t m;
  csr_dist_vector **v; /* m + 1 basis vectors; v[0] holds b - A x between cycles */
  csr_dist_vector *z;  /* M^-1 v_k, or NULL without a preconditioner */
  csri_precond pc;
  double *h, *c, *s, *g; /* as src/solve/gmres.c */
  double *kept;          /* m + 1: a Gram-Schmidt pass's coefficients before it */
} work;

static void work_free(work *w) {
  for (int64_t i = 0; w->v != NULL && i <= w->m; i++)
    csr_dist_vector_free(&w->v[i]);
  csri_free(w->v);
  csr_dist_vector_free(&w->z);
  csri_precond_free(&w->pc);
  csri_free(w->h);
}

static csr_status setup(csri_dist_run *run, work *w) {
  csr_context *ctx = run->base.ctx;
  int64_t n = run->A->global_rows;
  int64_t m = run->base.options->restart > 0 ? run->base.options->restart : default_restart;
  w->m = m = m < n ? m : n;
  csr_status status = csri_dist_block_jacobi(run, &w->pc);
  CSRI_TRY(status);
  size_t doubles = (size_t)(m + 1) * (size_t)(m + 4);
  w->h = csri_malloc(doubles * sizeof(double));
  w->v = csri_calloc((size_t)m + 1, sizeof *w->v);
  if (w->h == NULL || w->v == NULL)
    status = CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "GMRES: no host memory for restart %lld",
                       (long long)m);
  if (status >= 0) {
    w->c = w->h + (size_t)(m + 1) * (size_t)m;
    w->s = w->c + m;
    w->g = w->s + m;
    w->kept = w->g + m + 1;
  }
  if (status >= 0 && csri_precond_active(&w->pc))
    status = csri_dist_run_vector(run, &w->z);
  for (int64_t i = 0; i <= m && status >= 0; i++)
    status = csri_dist_run_vector(run, &w->v[i]);
  return csri_dist_agree(ctx, run->A->rows->comm, status);
}

/* z = M^-1 v on this rank's entries (block Jacobi needs no other rank's). */
static csr_status precondition(csri_dist_run *run, work *w, const csr_dist_vector *v,
                               csr_dist_vector *z) {
  csr_vector vv = csri_dist_own(v), zv = csri_dist_own(z);
  return csri_precond_apply(run->base.ctx, &w->pc, &vv, &zv);
}

/* One classical Gram-Schmidt pass of u against v_0..v_k: the dots in batches of a reduction's
 * width, added to h (the updates follow in subtract). */
static csr_status orthogonalise(csri_dist_run *run, work *w, int64_t k, csr_dist_vector *u,
                                double *h) {
  const csr_dist_vector *us[CSRI_DIST_MAX_SUMS];
  double d[CSRI_DIST_MAX_SUMS];
  for (int j = 0; j < CSRI_DIST_MAX_SUMS; j++)
    us[j] = u;
  for (int64_t first = 0; first <= k; first += CSRI_DIST_MAX_SUMS) {
    int count = (int)(k + 1 - first < CSRI_DIST_MAX_SUMS ? k + 1 - first : CSRI_DIST_MAX_SUMS);
    CSRI_TRY(csri_dist_dots(run, count, us, (const csr_dist_vector *const *)w->v + first,
                            CSR_SUCCESS, d));
    for (int j = 0; j < count; j++)
      h[first + j] += d[j];
  }
  return CSR_SUCCESS;
}

/* u -= sum_i (h[i] - before[i]) v_i: the pass's own coefficients. */
static csr_status subtract(csri_dist_run *run, work *w, int64_t k, csr_dist_vector *u,
                           const double *h, const double *before) {
  csr_status local = CSR_SUCCESS;
  for (int64_t i = 0; i <= k && local >= 0; i++)
    local = csri_dist_axpby(run, -(h[i] - before[i]), w->v[i], 1.0, u);
  return local;
}

static csr_status not_finite(csri_dist_run *run, const char *what, double value) {
  return CSRI_FAIL(run->base.ctx, CSR_ERR_INVALID_VALUE,
                   "GMRES: %s is %g at iteration %lld (overflow: scale the system)", what, value,
                   (long long)run->base.iterations + 1);
}

/* The distributed run and its work, as the driver's self. */
typedef struct ranks {
  csri_dist_run *run;
  work *w;
} ranks;

/* Arnoldi step k: v_{k+1} = A M^-1 v_k orthogonalised, its coefficients added to h. */
static csr_status arnoldi(void *self, int64_t k, double *h, double *norm) {
  csri_dist_run *run = ((ranks *)self)->run;
  work *w = ((ranks *)self)->w;
  csr_dist_vector *u = w->v[k + 1];
  const csr_dist_vector *in = w->v[k];
  double before = 0.0, after = 0.0;
  csr_status local = CSR_SUCCESS;
  if (w->z != NULL) {
    local = precondition(run, w, in, w->z);
    in = w->z;
  }
  if (local >= 0)
    local = csri_dist_spmv(run->base.ctx, 1.0, run->A, in, 0.0, u);
  CSRI_TRY(csri_dist_norm(run, u, local, &before));
  if (!isfinite(before))
    return not_finite(run, "||A M^-1 v_k||", before);
  csr_status status = CSR_SUCCESS;
  for (int pass = 0; pass < 2 && status >= 0; pass++) {
    for (int64_t i = 0; i <= k; i++)
      w->kept[i] = h[i];
    status = orthogonalise(run, w, k, u, h);
    if (status >= 0)
      status = csri_dist_norm(run, u, subtract(run, w, k, u, h, w->kept), &after);
    /* Cancellation: most of u lay in the basis; a second pass restores orthogonality. */
    if (status >= 0 && !(after < before * 0.70710678118654752))
      break;
  }
  *norm = after;
  return status;
}

/* x += M^-1 V_k y. */
static csr_status update(void *self, int64_t k, const double *y) {
  csri_dist_run *run = ((ranks *)self)->run;
  work *w = ((ranks *)self)->w;
  csr_status local = CSR_SUCCESS;
  if (w->z == NULL) {
    for (int64_t i = 0; i < k && local >= 0; i++)
      local = csri_dist_axpby(run, y[i], w->v[i], 1.0, run->x);
  } else {
    csr_dist_vector *sum = w->v[k];
    for (int64_t i = 0; i < k && local >= 0; i++)
      local = csri_dist_axpby(run, y[i], w->v[i], i == 0 ? 0.0 : 1.0, sum);
    if (local >= 0)
      local = precondition(run, w, sum, w->z);
    if (local >= 0)
      local = csri_dist_axpby(run, 1.0, w->z, 1.0, run->x);
  }
  return csri_dist_agree(run->base.ctx, run->A->rows->comm, local);
}

static csr_status scale(void *self, int64_t i, double alpha) {
  csri_dist_run *run = ((ranks *)self)->run;
  csr_dist_vector *v = ((ranks *)self)->w->v[i];
  return csri_dist_agree(run->base.ctx, run->A->rows->comm, csri_dist_axpby(run, alpha, v, 0.0, v));
}

static csr_status residual(void *self, double *rn) {
  csri_dist_run *run = ((ranks *)self)->run;
  CSRI_TRY(csri_dist_residual(run, ((ranks *)self)->w->v[0], rn));
  return isfinite(*rn) ? CSR_SUCCESS : not_finite(run, "the residual norm", *rn);
}

csr_status csri_dist_gmres(csri_dist_run *run) {
  work w = {0};
  ranks self = {run, &w};
  csr_status status = setup(run, &w);
  csri_gmres_ops ops = {&self,       w.m,      w.h,   w.c,     w.s,   w.g,
                        w.z != NULL, residual, scale, arnoldi, update};
  if (status >= 0)
    status = csri_gmres_iterate(&run->base, &ops);
  work_free(&w);
  return status;
}
