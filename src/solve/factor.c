/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_factor_compute and its companions: M = (P Dr)^-1 L U Dc^-1 ~ A (include/csr.h). The
 * options are checked, B = P Dr A Dc made on the host (src/solve/factor_build.c), factored by
 * ILU(0) / IC(0) where A is (src/solve/factor0.c) or by ILUT on the host (src/solve/ilut.c), the
 * shift raised while a pivot fails; then the two triangles are analysed for csr_spsv. Applying M^-1
 * is P Dr as a one-entry-a-row matrix (csr_spmv), two triangular solves and Dc Q as another
 * (csr_spmv): public operations, so it runs wherever the factor lives. The factors are made and
 * analysed on the host, then moved where A is. */
#include "solve/factor.h"

#include <math.h>

void csr_factor_options_init(csr_factor_options *o) {
  if (o == NULL)
    return;
  *o = (csr_factor_options){.kind = CSR_FACTOR_ILU0,
                            .ordering = CSR_FACTOR_ORDER_AUTO,
                            .drop_tolerance = 1e-4,
                            .fill_factor = 10.0,
                            .pivot_threshold = 0.1,
                            .reordering = CSR_FACTOR_REORDER_AUTO,
                            .shift = CSR_FACTOR_SHIFT_AUTO};
}

/* Manteuffel's schedule: 1e-3, doubled while it stays at most 1. */
enum { last_shift_doublings = 10 };
static const double first_shift = 1e-3;

static double next_shift(const csr_factor_options *o, double alpha) {
  if (o->shift != CSR_FACTOR_SHIFT_AUTO)
    return 0.0;
  double next = alpha == 0.0 ? first_shift : 2.0 * alpha;
  return next <= first_shift * (double)(1 << last_shift_doublings) ? next : 0.0;
}

static csr_status pivot_error(csr_context *ctx, const char *method, int64_t row,
                              const csr_factor_options *o, double alpha) {
  const char *tried =
      o->shift == CSR_FACTOR_SHIFT_AUTO ? "after diagonal shifts up to" : "with the diagonal shift";
  return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                   "csr_factor_compute: %s failed at row %lld (0-based, of the ordered matrix): "
                   "its pivot is %s %s %g; %s",
                   method, (long long)row, o->kind == CSR_FACTOR_IC0 ? "not positive" : "zero",
                   tried, alpha,
                   o->kind == CSR_FACTOR_IC0 ? "A is not positive definite enough for IC(0)"
                                             : "try CSR_FACTOR_ORDER_MATCHING or ILUT");
}

csr_status csri_factor_shifted(csr_context *ctx, const csr_factor_options *o, const char *method,
                               csri_factor_attempt_fn *attempt, void *self, csr_factor *f) {
  double alpha = o->shift > 0 ? o->shift : 0.0;
  for (;;) {
    int64_t failed = -1;
    f->attempts++;
    CSRI_TRY(attempt(self, alpha, &failed));
    if (failed < 0) {
      f->shift = alpha;
      return CSR_SUCCESS;
    }
    double next = next_shift(o, alpha);
    if (next == 0.0)
      return pivot_error(ctx, method, failed, o, alpha);
    alpha = next;
  }
}

static csr_status check(csr_context *ctx, const csr_matrix *A, const csr_factor_options *o) {
  CSRI_CHECK_NULL(ctx, A);
  if (o->kind != CSR_FACTOR_ILU0 && o->kind != CSR_FACTOR_IC0 && o->kind != CSR_FACTOR_ILUT)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "csr_factor_compute: unknown kind %d",
                     (int)o->kind);
  if (o->ordering != CSR_FACTOR_ORDER_AUTO && o->ordering != CSR_FACTOR_ORDER_NATURAL &&
      o->ordering != CSR_FACTOR_ORDER_MATCHING)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "csr_factor_compute: unknown ordering %d",
                     (int)o->ordering);
  if (o->reordering != CSR_FACTOR_REORDER_AUTO && o->reordering != CSR_FACTOR_REORDER_NONE &&
      o->reordering != CSR_FACTOR_REORDER_RCM)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "csr_factor_compute: unknown reordering %d",
                     (int)o->reordering);
  if (!(o->pivot_threshold >= 0.0 && o->pivot_threshold <= 1.0))
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "csr_factor_compute: pivot_threshold %g: need 0 to 1", o->pivot_threshold);
  if (!(o->drop_tolerance >= 0.0) || !isfinite(o->drop_tolerance) || !(o->fill_factor >= 1.0) ||
      !isfinite(o->fill_factor))
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "csr_factor_compute: drop_tolerance %g (need >= 0) or fill_factor %g (need "
                     ">= 1) out of range",
                     o->drop_tolerance, o->fill_factor);
  if (o->shift != CSR_FACTOR_SHIFT_AUTO && !(o->shift >= 0.0 && isfinite(o->shift)))
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "csr_factor_compute: shift %g: need >= 0 or CSR_FACTOR_SHIFT_AUTO", o->shift);
  CSRI_TRY(csri_check_shape(ctx, A->rows, A->cols, A->nnz));
  if (A->rows != A->cols)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "csr_factor_compute: A is %lld x %lld; a factorization needs a square A",
                     (long long)A->rows, (long long)A->cols);
  if (A->value_type != CSR_F64 && A->value_type != CSR_F32)
    return CSRI_FAIL(ctx, CSR_ERR_TYPE_MISMATCH,
                     "csr_factor_compute: A must hold F64 or F32 values (a pattern has none)");
  return CSR_SUCCESS;
}

void csr_factor_free(csr_factor **F) {
  if (F == NULL || *F == NULL)
    return;
  csr_factor *f = *F;
  csr_matrix_free(&f->L);
  csr_matrix_free(&f->U);
  csr_spsv_plan_free(&f->solve_L);
  csr_spsv_plan_free(&f->solve_U);
  csr_matrix_free(&f->permute_scale);
  csr_matrix_free(&f->col_scale_matrix);
  csri_free(f->row_order);
  csri_free(f->col_order);
  csri_free(f->row_scale);
  csri_free(f->col_scale);
  csr_vector_free(&f->work[0]);
  csr_vector_free(&f->work[1]);
  csri_free(f);
  *F = NULL;
}

/* The host F64 *M in `type`, in place (F32: each value rounded once). */
static csr_status to_type(csr_context *ctx, csr_value_type type, csr_matrix **M) {
  if (type == CSR_F64)
    return CSR_SUCCESS;
  csr_matrix *host = *M, *typed = NULL;
  CSRI_TRY(csr_matrix_create(ctx, &typed, host->rows, host->cols, host->nnz, type, CSR_HOST));
  for (int64_t i = 0; i <= host->rows; i++)
    typed->row_offsets[i] = host->row_offsets[i];
  for (int64_t k = 0; k < host->nnz; k++) {
    typed->col_indices[k] = host->col_indices[k];
    ((float *)typed->values)[k] = (float)((const double *)host->values)[k];
  }
  typed->flags = host->flags;
  csr_matrix_free(M);
  *M = typed;
  return CSR_SUCCESS;
}

/* The host *M moved to `where` (nothing to do on the host). */
static csr_status move_to(csr_context *ctx, csr_location where, csr_matrix **M) {
  if (where == CSR_HOST)
    return CSR_SUCCESS;
  csr_matrix *moved = NULL;
  CSRI_TRY(csr_matrix_copy(ctx, *M, &moved, where));
  csr_matrix_free(M);
  *M = moved;
  return CSR_SUCCESS;
}

/* The factor's column order after ILUTP's column pivots: column s of L U is B's column
 * pivots[s], which is A's column col_order[pivots[s]]. */
static csr_status compose_pivots(csr_context *ctx, csr_factor *f, const int32_t *pivots) {
  int64_t n = f->n, moved = 0;
  for (int64_t s = 0; s < n; s++)
    moved += pivots[s] != s;
  if (moved == 0)
    return CSR_SUCCESS;
  if (f->col_order == NULL) {
    CSRI_TRY(csri_array_alloc(ctx, (void **)&f->col_order, n, sizeof(int32_t), CSR_HOST, 0));
    for (int64_t s = 0; s < n; s++)
      f->col_order[s] = (int32_t)s;
  }
  int32_t *composed = NULL;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&composed, n, sizeof(int32_t), CSR_HOST, 0));
  for (int64_t s = 0; s < n; s++)
    composed[s] = f->col_order[pivots[s]];
  csri_free(f->col_order);
  f->col_order = composed;
  return CSR_SUCCESS;
}

/* What an ILUT attempt reads and leaves: B, its shifted copy, the factors and the pivots. */
typedef struct ilut_run {
  csr_context *ctx;
  const csri_factor_csr *B;
  const double *scale;
  const csr_factor_options *o;
  csri_factor_csr shifted;
  csr_matrix *L, *U;
  int32_t *pivots; /* column s of L U is B's column pivots[s] */
} ilut_run;

static csr_status ilut_attempt(void *self, double alpha, int64_t *failed_row) {
  ilut_run *r = self;
  csri_factor_shift(r->B, r->scale, alpha, 0, r->shifted.val);
  return csri_ilut(r->ctx, &r->shifted, r->o->drop_tolerance, r->o->fill_factor,
                   r->o->pivot_threshold, &r->L, &r->U, r->pivots, failed_row);
}

csr_status csri_factor_ilut(csr_context *ctx, const csri_factor_csr *B, const double *scale,
                            const csr_factor_options *o, csr_factor *f) {
  ilut_run r = {.ctx = ctx, .B = B, .scale = scale, .o = o, .shifted = *B};
  r.shifted.val = NULL;
  csr_status status =
      csri_array_alloc(ctx, (void **)&r.shifted.val, B->off[B->n], sizeof(double), CSR_HOST, 0);
  if (status >= 0)
    status = csri_array_alloc(ctx, (void **)&r.pivots, B->n, sizeof(int32_t), CSR_HOST, 0);
  if (status >= 0)
    status = csri_factor_shifted(ctx, o, "ILUT", ilut_attempt, &r, f);
  if (status >= 0)
    status = compose_pivots(ctx, f, r.pivots);
  csri_free(r.shifted.val);
  csri_free(r.pivots);
  f->L = r.L;
  f->U = r.U;
  return status;
}

/* The two sides of M^-1 as matrices where f lives: R = P Dr (row t: Dr at column row_order[t])
 * gathers and scales r into B's rows; C = Dc Q (row col_order[s]: Dc at column s) scatters the
 * solution of B's columns back to A's. NULL each when it is the identity. */
static csr_status scalings(csr_context *ctx, csr_factor *f) {
  int64_t n = f->n;
  if (f->row_order == NULL && f->row_scale == NULL && f->col_order == NULL)
    return CSR_SUCCESS;
  csr_matrix *M[2] = {NULL, NULL};
  for (int m = 0; m < 2; m++) {
    CSRI_TRY(csr_matrix_create(ctx, &M[m], n, n, n, CSR_F64, CSR_HOST));
    for (int64_t t = 0; t < n; t++)
      M[m]->row_offsets[t + 1] = t + 1;
    for (int64_t t = 0; t < n; t++) {
      int64_t source =
          m == 0 ? (f->row_order ? f->row_order[t] : t) : (f->col_order ? f->col_order[t] : t);
      const double *scale = m == 0 ? f->row_scale : f->col_scale;
      int64_t row = m == 0 ? t : source; /* C's row is A's column */
      M[m]->col_indices[row] = (int32_t)(m == 0 ? source : t);
      ((double *)M[m]->values)[row] = scale != NULL ? scale[source] : 1.0;
    }
    M[m]->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  }
  f->permute_scale = M[0];
  f->col_scale_matrix = M[1];
  for (int m = 0; m < 2; m++) {
    csr_matrix **side = m == 0 ? &f->permute_scale : &f->col_scale_matrix;
    CSRI_TRY(to_type(ctx, f->value_type, side));
    CSRI_TRY(move_to(ctx, f->location, side));
  }
  return CSR_SUCCESS;
}

/* One triangle, made on the host in F64: in the factor's type, analysed there for solves where
 * the factor lives (a device factor's triangles are not copied back for it), then moved there. */
static csr_status triangle(csr_context *ctx, csr_factor *f, csr_matrix **T, csr_triangle which,
                           csr_diagonal diagonal, csr_spsv_plan **plan) {
  CSRI_TRY(to_type(ctx, f->value_type, T));
  CSRI_TRY(csri_spsv_analyze_for(ctx, *T, which, diagonal, f->location, plan));
  return move_to(ctx, f->location, T);
}

static csr_status compute(csr_context *ctx, const csr_matrix *A, const csr_factor_options *o,
                          csr_factor *f) {
  csr_matrix *host = NULL;
  if (A->location != CSR_HOST)
    CSRI_TRY(csr_matrix_copy(ctx, A, &host, CSR_HOST));
  csri_factor_csr B = {0};
  double *scale = NULL;
  csr_status status = csri_array_alloc(ctx, (void **)&scale, A->rows, sizeof(double), CSR_HOST, 0);
  if (status >= 0)
    status = csri_factor_build(ctx, host != NULL ? host : A, o, f, &B, scale);
  csr_matrix_free(&host);
  if (status >= 0)
    status = o->kind == CSR_FACTOR_ILUT ? csri_factor_ilut(ctx, &B, scale, o, f)
                                        : csri_factor0(ctx, &B, scale, o, f);
  csri_factor_csr_free(&B);
  csri_free(scale);
  if (status >= 0)
    status = scalings(ctx, f);
  if (status >= 0)
    status =
        triangle(ctx, f, &f->L, CSR_LOWER,
                 o->kind == CSR_FACTOR_IC0 ? CSR_DIAGONAL_STORED : CSR_DIAGONAL_UNIT, &f->solve_L);
  if (status >= 0)
    status = triangle(ctx, f, &f->U, CSR_UPPER, CSR_DIAGONAL_STORED, &f->solve_U);
  return status;
}

csr_status csr_factor_compute(csr_context *ctx, const csr_matrix *A,
                              const csr_factor_options *options, csr_factor **F) {
  CSRI_CHECK_NULL(ctx, F);
  *F = NULL;
  csr_factor_options defaults;
  csr_factor_options_init(&defaults);
  const csr_factor_options *o = options != NULL ? options : &defaults;
  CSRI_TRY(check(ctx, A, o));
  csr_factor *f = csri_calloc(1, sizeof *f);
  if (f == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "csr_factor_compute: no memory for the factor");
  *f = (csr_factor){
      .kind = o->kind, .n = A->rows, .location = A->location, .value_type = A->value_type};
  csr_status status = compute(ctx, A, o, f);
  if (status < 0) {
    csr_factor_free(&f);
    return status;
  }
  *F = f;
  return CSR_SUCCESS;
}

csr_status csr_factor_get_info(const csr_factor *F, csr_factor_info *info) {
  if (F == NULL || info == NULL)
    return CSR_ERR_NULL_POINTER;
  *info = (csr_factor_info){.kind = F->kind,
                            .n = F->n,
                            .L = F->L,
                            .U = F->U,
                            .levels_L = csr_spsv_levels(F->solve_L),
                            .levels_U = csr_spsv_levels(F->solve_U),
                            .row_order = F->row_order,
                            .col_order = F->col_order,
                            .row_scale = F->row_scale,
                            .col_scale = F->col_scale,
                            .shift = F->shift,
                            .attempts = F->attempts};
  return CSR_SUCCESS;
}

/* apply's two intermediates, of r's type where the factor is (made once a type). */
static csr_status work_vectors(csr_context *ctx, csr_factor *f, csr_value_type type) {
  for (int k = 0; k < 2; k++) {
    if (f->work[k] != NULL && f->work[k]->value_type != type)
      csr_vector_free(&f->work[k]);
    if (f->work[k] == NULL)
      CSRI_TRY(csr_vector_create(ctx, &f->work[k], f->n, type, f->location));
  }
  return CSR_SUCCESS;
}

csr_status csr_factor_apply(csr_context *ctx, const csr_factor *F, const csr_vector *r,
                            csr_vector *z) {
  CSRI_CHECK_NULL(ctx, F);
  CSRI_TRY(csri_check_vector(ctx, r, "r"));
  CSRI_TRY(csri_check_vector(ctx, z, "z"));
  if (r->n != F->n || z->n != F->n)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "csr_factor_apply: the factor is %lld x %lld but r has %lld entries and z "
                     "%lld",
                     (long long)F->n, (long long)F->n, (long long)r->n, (long long)z->n);
  if (r->value_type != F->value_type || z->value_type != F->value_type)
    return CSRI_FAIL(ctx, CSR_ERR_TYPE_MISMATCH,
                     "csr_factor_apply: r and z must hold the factored matrix's value type");
  if (r->location != F->location || z->location != F->location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH,
                     "csr_factor_apply: r and z must be where the factor is");
  if (csri_vectors_overlap(r, z))
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "csr_factor_apply: r and z overlap in memory");
  csr_factor *f = (csr_factor *)F; /* the intermediates are scratch, not the factor's value */
  CSRI_TRY(work_vectors(ctx, f, r->value_type));
  const csr_vector *in = r;
  if (f->permute_scale != NULL) {
    CSRI_TRY(csr_spmv(ctx, 1.0, f->permute_scale, r, 0.0, f->work[0]));
    in = f->work[0];
  }
  CSRI_TRY(csr_spsv(ctx, f->solve_L, 1.0, in, f->work[1]));
  if (f->col_scale_matrix == NULL)
    return csr_spsv(ctx, f->solve_U, 1.0, f->work[1], z);
  CSRI_TRY(csr_spsv(ctx, f->solve_U, 1.0, f->work[1], f->work[0]));
  return csr_spmv(ctx, 1.0, f->col_scale_matrix, f->work[0], 0.0, z);
}
