/* SPDX-License-Identifier: BSD-3-Clause */
/* Solves A x = b across ranks as csr_solve does on one (src/solve/solve.c): the same checks,
 * stopping rule, history and info; every inner product and norm exact (src/dist/reduce.c), so
 * that the run is the same on any number of ranks. */
#include "dist/solver.h"

#include <math.h>

csr_vector csri_dist_own(const csr_dist_vector *v) {
  return csri_dist_view(v, 0, v->layout->count);
}

csr_status csri_dist_run_vector(csri_dist_run *run, csr_dist_vector **v) {
  return csri_dist_vector_make(run->base.ctx, run->A->cols, run->A->halo.ghosts, run->x->value_type,
                               run->x->location, v);
}

csr_status csri_dist_residual(csri_dist_run *run, csr_dist_vector *r, double *rn) {
  csr_vector rv = csri_dist_own(r), bv = csri_dist_own(run->b);
  csr_status status = csr_copy(run->base.ctx, &bv, &rv);
  if (status >= 0)
    status = csri_dist_spmv(run->base.ctx, -1.0, run->A, run->x, 1.0, r);
  if (rn == NULL)
    return csri_dist_agree(run->base.ctx, run->A->rows->comm, status);
  return csri_dist_norm(run, r, status, rn);
}

csr_status csri_dist_axpby(csri_dist_run *run, double alpha, const csr_dist_vector *x, double beta,
                           csr_dist_vector *y) {
  csr_vector xv = csri_dist_own(x), yv = csri_dist_own(y);
  return csr_axpby(run->base.ctx, alpha, &xv, beta, &yv);
}

csr_status csri_dist_dots(csri_dist_run *run, int count, const csr_dist_vector *const *a,
                          const csr_dist_vector *const *b, csr_status local, double *out) {
  csri_dist_sums s;
  csri_dist_sums_init(&s, count);
  for (int k = 0; k < count && local >= 0; k++)
    local = csri_dist_deposit_dot(run->base.ctx, &s.acc[k], a[k], b[k]);
  return csri_dist_sums_finish(run->base.ctx, run->A->rows->comm, &s, local, 0u, out);
}

csr_status csri_dist_norm(csri_dist_run *run, const csr_dist_vector *x, csr_status local,
                          double *out) {
  csri_dist_sums s;
  csri_dist_sums_init(&s, 1);
  if (local >= 0)
    local = csri_dist_deposit_squares(run->base.ctx, &s.acc[0], x);
  return csri_dist_sums_finish(run->base.ctx, run->A->rows->comm, &s, local, 1u, out);
}

static csr_status check(csr_context *ctx, const csr_dist_matrix *A, const csr_dist_vector *b,
                        const csr_dist_vector *x, const csr_solver_options *o) {
  if (A == NULL || b == NULL || x == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "csr_dist_solve: A, b and x must not be NULL");
  if (A->global_rows != A->global_cols || A->rows != A->cols)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "csr_dist_solve needs a square A whose rows and columns are split alike: A "
                     "is %lld x %lld",
                     (long long)A->global_rows, (long long)A->global_cols);
  if (!csri_dist_layout_same(b->layout, A->rows) || !csri_dist_layout_same(x->layout, A->rows))
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "csr_dist_solve: b and x must be laid out like A's rows (b has %lld entries, "
                     "x %lld, A %lld rows, or another split)",
                     (long long)b->layout->n, (long long)x->layout->n, (long long)A->global_rows);
  if (b->location != A->location || x->location != A->location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH,
                     "csr_dist_solve: A, b and x must all be on the host or all on the device");
  if (b->value_type != x->value_type ||
      (A->value_type != CSR_PATTERN && A->value_type != x->value_type))
    return CSRI_FAIL(ctx, CSR_ERR_TYPE_MISMATCH,
                     "csr_dist_solve: b, x and A's values must share one type (A may be a "
                     "pattern)");
  if (b == x || b->data == x->data)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "csr_dist_solve: b and x are the same vector");
  if (x->capacity < A->cols->count + A->halo.ghosts)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "csr_dist_solve: x has no room for A's ghosts: make it with "
                     "csr_dist_vector_create from A");
  CSRI_TRY(csri_solve_check_options(ctx, o, "csr_dist_solve"));
  if (o->reorder != CSR_REORDER_NONE && o->reorder != CSR_REORDER_AUTO)
    return CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED,
                     "csr_dist_solve keeps the rows' numbering: reorder %s is for one process "
                     "(AUTO and NONE keep it)",
                     csr_reorder_method_name(o->reorder));
  if (o->preconditioner == CSR_PRECOND_FACTOR)
    return CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED,
                     "csr_dist_solve: a factor of the whole A (CSR_PRECOND_FACTOR) does not split "
                     "over ranks: use ILU0, ILUT or IC0, factored block by block");
  if (o->preconditioner > CSR_PRECOND_JACOBI && o->method != CSR_SOLVER_GMRES)
    return CSRI_FAIL(
        ctx, CSR_ERR_UNSUPPORTED,
        "csr_dist_solve: the block-Jacobi factorizations (ILU0, ILUT, IC0) precondition "
        "GMRES; CG takes Jacobi or none");
  return CSR_SUCCESS;
}

/* The first non-finite entry of a local vector, named by its global index; CSR_SUCCESS if none. */
static csr_status finite_entries(csr_context *ctx, const csr_dist_vector *v, const char *what,
                                 const char *name) {
  const csri_dist_layout *L = v->layout;
  double *all = csri_malloc(((size_t)L->count + 1) * sizeof *all);
  if (all == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a host copy failed");
  csr_status status = csr_dist_vector_get_local(ctx, v, all);
  for (int64_t i = 0; status >= 0 && i < L->count; i++)
    if (!isfinite(all[i]))
      status = CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "%s holds a non-finite value: %s(%lld) = %g",
                         what, name, (long long)(L->first + i), all[i]);
  csri_free(all);
  return status;
}

/* A's values finite, and no row without a nonzero value (local rows; named globally). Columns
 * are not checked across ranks: a column of zeros shows as a breakdown. */
static csr_status check_matrix(csr_context *ctx, const csr_dist_matrix *A) {
  if (A->location != CSR_HOST)
    return CSR_SUCCESS; /* the device parts are checked by the method's own breakdowns */
  const csr_matrix *part[2] = {A->interior, A->boundary};
  int64_t p = 0;
  for (int h = 0; h < 2; h++)
    for (int64_t i = 0; i < part[h]->rows; i++, p++) {
      int64_t row = A->rows->first + A->rows->order[p];
      int nonzero = part[h]->value_type == CSR_PATTERN &&
                    part[h]->row_offsets[i + 1] > part[h]->row_offsets[i];
      for (int64_t k = part[h]->row_offsets[i]; k < part[h]->row_offsets[i + 1]; k++) {
        if (part[h]->value_type == CSR_PATTERN)
          break;
        double a = part[h]->value_type == CSR_F64 ? ((const double *)part[h]->values)[k]
                                                  : ((const float *)part[h]->values)[k];
        if (!isfinite(a))
          return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "A holds a non-finite value in row %lld: %g",
                           (long long)row, a);
        nonzero |= a != 0.0;
      }
      if (!nonzero)
        return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                         "A is singular: row %lld has no nonzero entry", (long long)row);
    }
  return CSR_SUCCESS;
}

static csr_status run_method(csri_dist_run *run, double *rnorm) {
  csr_solver_method method = run->base.options->method;
  csr_status status = method == CSR_SOLVER_BICGSTAB ? csri_dist_bicgstab(run)
                      : method == CSR_SOLVER_GMRES
                          ? csri_dist_gmres(run)
                          : csri_dist_cg(run, csri_solve_jacobi(run->base.options));
  /* ||b - A x|| of the x returned, on every outcome the ranks agreed on. */
  csr_dist_vector *r = NULL;
  *rnorm = NAN;
  csr_status s = csri_dist_agree(run->base.ctx, run->A->rows->comm, csri_dist_run_vector(run, &r));
  if (s >= 0)
    s = csri_dist_residual(run, r, rnorm);
  csr_dist_vector_free(&r);
  if (status >= 0 && s < 0) {
    run->base.stop = CSR_SOLVER_FAILED;
    return s;
  }
  return status;
}

csr_status csr_dist_solve(csr_context *ctx, const csr_dist_matrix *A, const csr_dist_vector *b,
                          csr_dist_vector *x, const csr_solver_options *options,
                          csr_solver_info *info) {
  csr_solver_options defaults;
  csr_solver_options_init(&defaults);
  const csr_solver_options *o = options ? options : &defaults;
  MPI_Comm comm = A ? A->rows->comm : b ? b->layout->comm : x ? x->layout->comm : MPI_COMM_SELF;
  CSRI_TRY(csri_dist_agree(ctx, comm, check(ctx, A, b, x, o)));
  csri_dist_run run = {
      {ctx, NULL, NULL, NULL, o, 0.0, o->max_iter, 0, 0, CSR_SOLVER_FAILED, NULL}, A, b, x};
  if (run.base.max_iter == 0)
    run.base.max_iter = 10 * A->global_rows > 1000 ? 10 * A->global_rows : 1000;
  double bnorm = 0.0, rnorm = 0.0;
  csr_status status = csri_dist_agree(ctx, comm, check_matrix(ctx, A));
  if (status >= 0)
    status = csr_dist_nrm2(ctx, b, &bnorm);
  if (status >= 0 && !isfinite(bnorm))
    status = csri_dist_agree(ctx, comm, finite_entries(ctx, b, "b", "b"));
  if (status >= 0 && !isfinite(bnorm))
    status = CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                       "csr_dist_solve: ||b|| overflows (%g): scale the system", bnorm);
  if (status >= 0 && bnorm == 0.0) {
    status = csr_dist_fill(ctx, 0.0, x);
    run.base.stop = CSR_SOLVER_CONVERGED;
    csri_solve_record(&run.base, 0.0);
  } else if (status >= 0) {
    status = csri_dist_agree(ctx, comm, finite_entries(ctx, x, "the initial guess x", "x"));
    run.base.tol = o->rtol * bnorm > o->atol ? o->rtol * bnorm : o->atol;
    if (status >= 0)
      status = run_method(&run, &rnorm);
  }
  if (status < 0 && run.base.stop != CSR_SOLVER_BREAKDOWN)
    run.base.stop = CSR_SOLVER_FAILED;
  if (info) {
    info->iterations = run.base.iterations;
    info->residual_norm = rnorm;
    info->relative_residual = bnorm > 0.0 ? rnorm / bnorm : 0.0;
    info->history_length = run.base.history_length;
    info->stop = run.base.stop;
    info->packed = 0; /* the local products read plain CSR */
    info->reordered = CSR_REORDER_NONE;
    info->reorder_seconds = 0.0;
  }
  return status < 0 ? status : run.base.stop == CSR_SOLVER_CONVERGED ? CSR_SUCCESS : status;
}
