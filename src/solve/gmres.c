/* SPDX-License-Identifier: BSD-3-Clause */
/* Solves A x = b for square A by restarted GMRES(m) (Saad and Schultz 1986), right-preconditioned
 * (A M^-1 u = b, x = M^-1 u: the residual it minimises is b - A x itself). Each cycle builds an
 * orthonormal basis v_0..v_k of the Krylov space of A M^-1 and r_0 by Arnoldi with modified
 * Gram-Schmidt, orthogonalising a second time when the first pass left less than 1/sqrt(2) of the
 * vector's norm (Daniel, Gragg, Kaufman and Stewart 1976); Givens rotations keep the Hessenberg
 * matrix triangular, so |g_{k+1}| is the least-squares residual after every step without solving.
 * The vectors live where A is and are combined by the public operations, so the same code runs on
 * the host and the device; the (m + 1) x m Hessenberg matrix, the rotations and the triangular
 * solve are small and run on the host in double. The cycles (csri_gmres_iterate) are written once
 * against csri_gmres_ops, which the distributed method (src/dist/gmres.c) provides too. Notes:
 * docs/algorithms.md. */
#include "solve/solver.h"

#include <math.h>

enum { default_restart = 30 };

typedef struct work {
  int64_t m;      /* steps per cycle, 1 <= m <= n */
  csr_vector **v; /* m + 1 basis vectors; v[0] also holds b - A x between cycles */
  csr_vector *z;  /* M^-1 v_k, or NULL without a preconditioner */
  const csri_precond *pc;
  double *h;         /* Hessenberg, column k at h + k (m + 1), rotated to R as it fills */
  double *c, *s, *g; /* the rotations (m each) and the rotated r.h.s. beta e_1 (m + 1) */
} work;

/* The one-process run and its work, as the driver's self. */
typedef struct one {
  csri_solve_run *run;
  work *w;
} one;

static void work_free(work *w) {
  for (int64_t i = 0; w->v != NULL && i <= w->m; i++)
    csr_vector_free(&w->v[i]);
  csri_free(w->v);
  csr_vector_free(&w->z);
  csri_free(w->h);
}

/* The host arrays and the vectors. On the host the basis is checked against the memory the
 * context allows before any is taken: its limit bounds each allocation, and m + 1 of them can
 * exceed what one may take many times over. */
static csr_status setup(csri_solve_run *run, const csri_precond *pc, work *w) {
  int precondition = csri_precond_active(pc);
  csr_context *ctx = run->ctx;
  int64_t n = run->b->n;
  int64_t m = run->options->restart > 0 ? run->options->restart : default_restart;
  w->m = m = m < n ? m : n;
  csr_value_type type = run->x->value_type;
  csr_location where = run->x->location;
  size_t vector_bytes = 0, basis_bytes = 0, count = (size_t)m + 1 + (precondition ? 1 : 0);
  size_t doubles = 0, host_bytes = 0;
  if (csri_mul_overflows((size_t)n, csri_value_size(type), &vector_bytes) ||
      csri_mul_overflows(vector_bytes, count, &basis_bytes) ||
      csri_mul_overflows((size_t)m + 1, (size_t)m + 3, &doubles) ||
      csri_mul_overflows(doubles, sizeof(double), &host_bytes))
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY,
                     "GMRES: a restart of %lld for n = %lld needs more memory than can be "
                     "addressed",
                     (long long)m, (long long)n);
  if (where == CSR_HOST)
    CSRI_TRY(csri_check_host_bytes(ctx, basis_bytes,
                                   "for GMRES's Krylov basis (restart + 1 vectors of n entries: a "
                                   "smaller restart needs less)"));
  CSRI_TRY(csri_check_host_bytes(ctx, host_bytes, "for GMRES's Hessenberg matrix"));
  w->h = csri_malloc(host_bytes);
  w->v = csri_calloc((size_t)m + 1, sizeof *w->v);
  if (w->h == NULL || w->v == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY,
                     "GMRES: no host memory for the Hessenberg matrix of restart %lld",
                     (long long)m);
  w->c = w->h + (size_t)(m + 1) * (size_t)m;
  w->s = w->c + m;
  w->g = w->s + m;
  w->pc = pc;
  if (precondition)
    CSRI_TRY(csr_vector_create(ctx, &w->z, n, type, where));
  for (int64_t i = 0; i <= m; i++)
    CSRI_TRY(csr_vector_create(ctx, &w->v[i], n, type, where));
  return CSR_SUCCESS;
}

/* out = A M^-1 in. */
static csr_status apply(csri_solve_run *run, work *w, const csr_vector *in, csr_vector *out) {
  if (w->z != NULL) {
    CSRI_TRY(csri_precond_apply(run->ctx, w->pc, in, w->z));
    in = w->z;
  }
  return csri_solve_spmv(run, 1.0, in, 0.0, out);
}

/* One modified Gram-Schmidt pass of u against v_0..v_k, adding the coefficients to h. */
static csr_status orthogonalise(csr_context *ctx, work *w, int64_t k, csr_vector *u, double *h) {
  for (int64_t i = 0; i <= k; i++) {
    double d = 0.0;
    CSRI_TRY(csr_dot(ctx, u, w->v[i], &d));
    CSRI_TRY(csr_axpy(ctx, -d, w->v[i], u));
    h[i] += d;
  }
  return CSR_SUCCESS;
}

/* A, b and the initial guess were checked finite: what is not finite has overflowed. */
static csr_status not_finite(csri_solve_run *run, const char *what, double value) {
  return CSRI_FAIL(run->ctx, CSR_ERR_INVALID_VALUE,
                   "GMRES: %s is %g at iteration %lld (overflow: scale the system)", what, value,
                   (long long)run->iterations + 1);
}

/* Arnoldi step k: v_{k+1} = A M^-1 v_k orthogonalised, its coefficients added to column k of
 * the Hessenberg matrix (h, zeroed); *norm is h_{k+1,k}, the norm of what is left. */
static csr_status arnoldi(void *self, int64_t k, double *h, double *norm) {
  one *o = self;
  csri_solve_run *run = o->run;
  work *w = o->w;
  csr_context *ctx = run->ctx;
  csr_vector *u = w->v[k + 1];
  double before = 0.0, after = 0.0;
  CSRI_TRY(apply(run, w, w->v[k], u));
  CSRI_TRY(csr_nrm2(ctx, u, &before));
  if (!isfinite(before))
    return not_finite(run, "||A M^-1 v_k||", before);
  CSRI_TRY(orthogonalise(ctx, w, k, u, h));
  CSRI_TRY(csr_nrm2(ctx, u, &after));
  /* Cancellation: most of u lay in the basis, and what is left carries the rounding errors of
   * the subtractions, no longer orthogonal to it. A second pass restores orthogonality. */
  if (after < before * 0.70710678118654752) { /* 1 / sqrt(2) */
    CSRI_TRY(orthogonalise(ctx, w, k, u, h));
    CSRI_TRY(csr_nrm2(ctx, u, &after));
  }
  *norm = after;
  return CSR_SUCCESS;
}

/* Rotates column k of h (ld rows) by the earlier rotations, then makes and applies rotation k,
 * which zeroes h_{k+1,k} and moves the residual into g_{k+1}. 0 when column k is all zero below
 * row k - 1 after the earlier rotations (r_kk = 0: A M^-1 is singular on the Krylov space). */
static int rotate(double *h, double *c, double *s, double *g, int64_t k) {
  for (int64_t i = 0; i < k; i++) {
    double t = c[i] * h[i] + s[i] * h[i + 1];
    h[i + 1] = -s[i] * h[i] + c[i] * h[i + 1];
    h[i] = t;
  }
  double r = hypot(h[k], h[k + 1]);
  if (r == 0.0)
    return 0;
  c[k] = h[k] / r;
  s[k] = h[k + 1] / r;
  h[k] = r;
  h[k + 1] = 0.0;
  g[k + 1] = -s[k] * g[k];
  g[k] = c[k] * g[k];
  return 1;
}

/* y = R^-1 y in place for the k x k upper triangle R of the rotated h (column j at h + j ld):
 * y_i needs only y_i and the y_j, j > i, already solved. */
static void back_substitute(const double *h, int64_t ld, double *y, int64_t k) {
  for (int64_t i = k - 1; i >= 0; i--) {
    double t = y[i];
    for (int64_t j = i + 1; j < k; j++)
      t -= h[i + j * ld] * y[j];
    y[i] = t / h[i + i * ld];
  }
}

/* x += M^-1 V_k y (k >= 1 columns). The sum V_k y is formed in v_k, which the update does not
 * read, when M^-1 has to be applied to it. */
static csr_status update(void *self, int64_t k, const double *y) {
  one *o = self;
  csr_context *ctx = o->run->ctx;
  work *w = o->w;
  if (w->z == NULL) {
    for (int64_t i = 0; i < k; i++)
      CSRI_TRY(csr_axpy(ctx, y[i], w->v[i], o->run->x));
    return CSR_SUCCESS;
  }
  csr_vector *sum = w->v[k];
  for (int64_t i = 0; i < k; i++)
    CSRI_TRY(csr_axpby(ctx, y[i], w->v[i], i == 0 ? 0.0 : 1.0, sum));
  CSRI_TRY(csri_precond_apply(ctx, w->pc, sum, w->z));
  return csr_axpy(ctx, 1.0, w->z, o->run->x);
}

/* One cycle from x, whose residual r (norm beta > 0) is in v_0: steps until m of them ran, the
 * estimate |g_{k+1}| met the tolerance, the iteration limit came, or the Krylov space stopped
 * growing; then x moves to the cycle's minimiser. *singular = 1 when it stopped growing with
 * A M^-1 singular on it: restarting would build the same space, and nothing reduces the residual
 * further. */
static csr_status cycle(csri_solve_run *run, const csri_gmres_ops *ops, double beta,
                        int *singular) {
  int64_t k = 0, ld = ops->m + 1;
  CSRI_TRY(ops->scale(ops->self, 0, 1.0 / beta));
  ops->g[0] = beta;
  for (; k < ops->m; k++) {
    double norm = 0.0, *h = ops->h + k * ld;
    for (int64_t i = 0; i <= k + 1; i++)
      h[i] = 0.0;
    CSRI_TRY(ops->arnoldi(ops->self, k, h, &norm));
    h[k + 1] = norm;
    run->iterations++;
    if (!rotate(h, ops->c, ops->s, ops->g, k)) {
      *singular = 1;
      csri_solve_record(run, fabs(ops->g[k]));
      break;
    }
    csri_solve_record(run, fabs(ops->g[k + 1]));
    /* norm = 0: the lucky breakdown, A M^-1 maps the Krylov space into itself and the cycle's
     * minimiser solves the system. A norm whose reciprocal overflows is that too. */
    int stopped = norm == 0.0 || !isfinite(1.0 / norm);
    if (stopped || fabs(ops->g[k + 1]) <= run->tol || run->iterations >= run->max_iter) {
      k++;
      break;
    }
    CSRI_TRY(ops->scale(ops->self, k + 1, 1.0 / norm));
  }
  back_substitute(ops->h, ld, ops->g, k); /* y, in g's place */
  return k == 0 ? CSR_SUCCESS : ops->update(ops->self, k, ops->g);
}

csr_status csri_gmres_iterate(csri_solve_run *run, const csri_gmres_ops *ops) {
  double rn = 0.0;
  int singular = 0;
  CSRI_TRY(ops->residual(ops->self, &rn));
  csri_solve_record(run, rn);
  for (;;) {
    csr_status finished;
    if (csri_solve_finished(run, rn, &finished))
      return finished;
    if (singular) {
      run->stop = CSR_SOLVER_BREAKDOWN;
      return CSRI_FAIL(run->ctx, CSR_ERR_INVALID_MATRIX,
                       "GMRES breakdown at iteration %lld: the Krylov space stopped growing with "
                       "A%s singular on it, ||b - A x|| = %g: A is singular (b is not in its "
                       "range)",
                       (long long)run->iterations, ops->preconditioned ? " M^-1" : "", rn);
    }
    CSRI_TRY(cycle(run, ops, rn, &singular));
    CSRI_TRY(ops->residual(ops->self, &rn));
    csri_solve_rerecord(run, rn); /* the cycle's last estimate becomes the true ||b - A x|| */
  }
}

/* v_0 = b - A x and its norm, refused when not finite. */
static csr_status residual(void *self, double *rn) {
  one *o = self;
  csri_solve_run *run = o->run;
  CSRI_TRY(csri_solve_residual(run, o->w->v[0]));
  CSRI_TRY(csr_nrm2(run->ctx, o->w->v[0], rn));
  if (isfinite(*rn))
    return CSR_SUCCESS;
  return CSRI_FAIL(run->ctx, CSR_ERR_INVALID_VALUE,
                   "GMRES: the residual norm is %g at iteration %lld (the iterates overflowed: "
                   "scale the system)",
                   *rn, (long long)run->iterations);
}

static csr_status scale(void *self, int64_t i, double alpha) {
  one *o = self;
  return csr_scale(o->run->ctx, alpha, o->w->v[i]);
}

csr_status csri_gmres(csri_solve_run *run, const csri_precond *pc) {
  work w = {0};
  one self = {run, &w};
  csr_status status = setup(run, pc, &w);
  csri_gmres_ops ops = {&self,       w.m,      w.h,   w.c,     w.s,   w.g,
                        w.z != NULL, residual, scale, arnoldi, update};
  if (status >= 0)
    status = csri_gmres_iterate(run, &ops);
  work_free(&w);
  return status;
}
