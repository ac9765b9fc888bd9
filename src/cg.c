/* Solves A x = b for SPD A by conjugate gradients (Hestenes-Stiefel), optionally Jacobi-
 * preconditioned (z = diag(A)^-1 r, applied as an SpMV with the diagonal matrix). */
#include "solver_impl.h"

#include <math.h>

typedef struct work {
  csr_matrix *Dinv; /* diag(A)^-1 as a CSR; NULL without a preconditioner */
  csr_vector *r, *z, *p, *q;
} work;

static void work_free(work *w) {
  csr_matrix_free(&w->Dinv);
  csr_vector_free(&w->r);
  csr_vector_free(&w->z);
  csr_vector_free(&w->p);
  csr_vector_free(&w->q);
}

/* Dinv = diag(1 / a_ii) in x's value type; duplicates on the diagonal are summed. Every a_ii must
 * be positive and finite (A SPD). */
static csr_status jacobi(csr_context *ctx, const csr_matrix *A, csr_value_type type,
                         csr_matrix **Dinv) {
  int64_t n = A->rows;
  CSRI_TRY(csr_matrix_create(ctx, Dinv, n, n, n, type, CSR_HOST));
  csr_matrix *D = *Dinv;
  for (int64_t i = 0; i < n; i++) {
    double d = 0.0;
    int found = 0;
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      if (A->col_indices[k] == i) {
        found = 1;
        d += A->value_type == CSR_PATTERN ? 1.0
             : A->value_type == CSR_F64   ? ((const double *)A->values)[k]
                                          : (double)((const float *)A->values)[k];
      }
    if (!found)
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                       "PCG (Jacobi): row %lld has no diagonal entry: A is not symmetric positive "
                       "definite",
                       (long long)i);
    if (!isfinite(d))
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "PCG (Jacobi): A(%lld,%lld) = %g", (long long)i,
                       (long long)i, d);
    if (!(d > 0.0))
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                       "PCG (Jacobi): A(%lld,%lld) = %g <= 0: A is not symmetric positive definite",
                       (long long)i, (long long)i, d);
    D->row_offsets[i + 1] = i + 1;
    D->col_indices[i] = (int32_t)i;
    if (type == CSR_F64)
      ((double *)D->values)[i] = 1.0 / d;
    else
      ((float *)D->values)[i] = (float)(1.0 / d);
  }
  D->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  return CSR_SUCCESS;
}

static csr_status setup(csri_solve_run *run, int precondition, work *w) {
  csr_context *ctx = run->ctx;
  int64_t n = run->b->n;
  csr_value_type type = run->x->value_type;
  if (precondition) {
    CSRI_TRY(jacobi(ctx, run->A, type, &w->Dinv));
    CSRI_TRY(csr_vector_create(ctx, &w->z, n, type, CSR_HOST));
  }
  CSRI_TRY(csr_vector_create(ctx, &w->r, n, type, CSR_HOST));
  CSRI_TRY(csr_vector_create(ctx, &w->p, n, type, CSR_HOST));
  return csr_vector_create(ctx, &w->q, n, type, CSR_HOST);
}

/* The iteration; x and r hold the current iterate and its residual norm rn. */
static csr_status iterate(csri_solve_run *run, work *w) {
  csr_context *ctx = run->ctx;
  csr_vector *x = run->x, *r = w->r, *p = w->p, *q = w->q, *z = w->Dinv ? w->z : w->r;
  double rn = 0.0, rz = 0.0;
  int fresh = 1, restart = 1; /* r was just computed as b - A x; p must start from z */
  CSRI_TRY(csri_solve_residual(run, r));
  CSRI_TRY(csr_nrm2(ctx, r, &rn));
  csri_solve_record(run, rn);
  for (;;) {
    if (!isfinite(rn)) {
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                       "CG: the residual norm is %g at iteration %lld (non-finite x or A?)", rn,
                       (long long)run->iterations);
    }
    if (rn <= run->tol && !fresh) { /* the recurrence says so: check b - A x itself */
      CSRI_TRY(csri_solve_residual(run, r));
      CSRI_TRY(csr_nrm2(ctx, r, &rn));
      csri_solve_rerecord(run, rn);
      fresh = restart = 1;
      continue;
    }
    if (rn <= run->tol) {
      run->stop = CSR_SOLVER_CONVERGED;
      return CSR_SUCCESS;
    }
    if (run->iterations >= run->max_iter) {
      run->stop = CSR_SOLVER_MAX_ITER;
      return CSR_INFO_NOT_CONVERGED;
    }
    double rz_new = 0.0;
    if (w->Dinv)
      CSRI_TRY(csr_spmv(ctx, 1.0, w->Dinv, r, 0.0, z));
    CSRI_TRY(csr_dot(ctx, r, z, &rz_new));
    if (restart) {
      CSRI_TRY(csr_copy(ctx, z, p));
      restart = 0;
    } else {
      CSRI_TRY(csr_axpby(ctx, 1.0, z, rz_new / rz, p)); /* p = z + beta p */
    }
    rz = rz_new;
    double pq = 0.0;
    CSRI_TRY(csr_spmv(ctx, 1.0, run->A, p, 0.0, q));
    CSRI_TRY(csr_dot(ctx, p, q, &pq));
    if (isnan(pq) || isinf(pq))
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "CG: p'Ap = %g at iteration %lld", pq,
                       (long long)run->iterations + 1);
    if (!(pq > 0.0)) {
      run->stop = CSR_SOLVER_BREAKDOWN;
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                       "CG breakdown at iteration %lld: p'Ap = %g <= 0: A is not symmetric "
                       "positive definite",
                       (long long)run->iterations + 1, pq);
    }
    double alpha = rz / pq;
    CSRI_TRY(csr_axpy(ctx, alpha, p, x));
    CSRI_TRY(csr_axpy(ctx, -alpha, q, r));
    CSRI_TRY(csr_nrm2(ctx, r, &rn));
    run->iterations++;
    csri_solve_record(run, rn);
    fresh = 0;
  }
}

csr_status csri_cg(csri_solve_run *run, int jacobi_preconditioned) {
  work w = {NULL, NULL, NULL, NULL, NULL};
  csr_status status = setup(run, jacobi_preconditioned, &w);
  if (status >= 0)
    status = iterate(run, &w);
  work_free(&w);
  return status;
}
