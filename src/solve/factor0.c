/* SPDX-License-Identifier: BSD-3-Clause */
/* ILU(0) and IC(0) of B (src/solve/factor.h) on the backend where the factor lives: the plan of
 * src/core/backend.h made on the host (the levels from a triangular-solve analysis of B's lower
 * pattern, IC(0)'s column lists by a counting sort), then the backend's elimination, run again
 * with a larger diagonal shift while a pivot fails and the schedule allows
 * (csri_factor_shifted); then B's values are split into the factors L and U on the host. */
#include "solve/factor.h"

/* IC(0)'s update lists: column k of L below the diagonal, rows ascending, with the position of
 * each entry, from a counting sort of B's strictly lower entries by column. */
static csr_status column_lists(csr_context *ctx, const csri_factor_csr *B, int64_t **coff,
                               int32_t **crow, int64_t **cpos) {
  int64_t n = B->n, strict = B->off[n] - n;
  CSRI_TRY(csri_array_alloc(ctx, (void **)coff, n + 1, sizeof(int64_t), CSR_HOST, CSRI_ARRAY_ZERO));
  CSRI_TRY(csri_array_alloc(ctx, (void **)crow, strict, sizeof(int32_t), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)cpos, strict, sizeof(int64_t), CSR_HOST, 0));
  int64_t *start = *coff;
  for (int64_t k = 0; k < B->off[n]; k++)
    start[B->col[k] + 1] += 1;
  for (int64_t i = 0; i < n; i++) /* the diagonal entries are not in the lists */
    start[i + 1] -= 1;
  for (int64_t j = 0; j < n; j++)
    start[j + 1] += start[j];
  for (int64_t i = 0; i < n; i++) /* rows ascending: each list fills in row order */
    for (int64_t k = B->off[i]; k < B->dpos[i]; k++) {
      int64_t at = start[B->col[k]]++;
      (*crow)[at] = (int32_t)i;
      (*cpos)[at] = k;
    }
  for (int64_t j = n; j > 0; j--) /* start[j - 1] now ends list j - 1: shift back */
    start[j] = start[j - 1];
  start[0] = 0;
  return CSR_SUCCESS;
}

/* The rows' dependency levels: those of a triangular solve with B's strictly lower pattern. */
static csr_status levels(csr_context *ctx, const csri_factor_csr *B, csr_spsv_plan **plan) {
  csr_matrix pattern = {.rows = B->n,
                        .cols = B->n,
                        .nnz = B->off[B->n],
                        .row_offsets = B->off,
                        .col_indices = B->col,
                        .value_type = CSR_PATTERN,
                        .location = CSR_HOST,
                        .flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES};
  return csri_spsv_analyze_host(ctx, &pattern, CSR_LOWER, CSR_DIAGONAL_UNIT, plan);
}

typedef struct factor0_run {
  csri_factor0_plan plan;
  csr_spsv_plan *levels;
  int64_t *coff, *cpos;
  int32_t *crow;
  double *host_val;   /* B's values, shifted, then factored */
  double *device_val; /* their device copy, when the factor lives there */
} factor0_run;

static void run_free(factor0_run *r) {
  csr_spsv_plan_free(&r->levels);
  csri_free(r->coff);
  csri_free(r->cpos);
  csri_free(r->crow);
  csri_free(r->host_val);
  csri_array_free(r->device_val, CSR_DEVICE);
}

static csr_status prepare(csr_context *ctx, const csri_factor_csr *B, const double *scale,
                          csr_factor *f, factor0_run *r) {
  int ic = f->kind == CSR_FACTOR_IC0;
  CSRI_TRY(levels(ctx, B, &r->levels));
  if (ic)
    CSRI_TRY(column_lists(ctx, B, &r->coff, &r->crow, &r->cpos));
  r->plan = (csri_factor0_plan){.n = B->n,
                                .ic = ic,
                                .off = B->off,
                                .col = B->col,
                                .dpos = B->dpos,
                                .coff = r->coff,
                                .crow = r->crow,
                                .cpos = r->cpos,
                                .scale = scale,
                                .levels = r->levels->levels,
                                .level_offsets = r->levels->level_offsets,
                                .level_rows = r->levels->level_rows};
  int64_t nnz = B->off[B->n];
  CSRI_TRY(csri_array_alloc(ctx, (void **)&r->host_val, nnz, sizeof(double), CSR_HOST, 0));
  if (f->location != CSR_HOST)
    CSRI_TRY(csri_array_alloc(ctx, (void **)&r->device_val, nnz, sizeof(double), f->location, 0));
  return CSR_SUCCESS;
}

/* One elimination of B shifted by alpha where f lives; *failed_row as csri_factor0_fn. The
 * factored values end in r->host_val. */
static csr_status eliminate(csr_context *ctx, const csri_backend *be, const csri_factor_csr *B,
                            const double *scale, csr_factor *f, factor0_run *r, double alpha,
                            int64_t *failed_row) {
  size_t bytes = (size_t)B->off[B->n] * sizeof(double);
  csri_factor_shift(B, scale, alpha, r->plan.ic, r->host_val);
  *failed_row = -1;
  if (B->n == 0) /* nothing to eliminate (and no launch of no blocks) */
    return CSR_SUCCESS;
  if (r->device_val == NULL)
    return be->solve.factor0(ctx, &r->plan, r->host_val, failed_row);
  CSRI_TRY(csri_array_copy(ctx, r->device_val, f->location, r->host_val, CSR_HOST, bytes));
  CSRI_TRY(be->solve.factor0(ctx, &r->plan, r->device_val, failed_row));
  return csri_array_copy(ctx, r->host_val, CSR_HOST, r->device_val, f->location, bytes);
}

/* Entries [first(i), last(i)) of each row of B as a host F64 matrix: L's part (strictly lower,
 * or with the diagonal) or U's (from the diagonal on). */
static csr_status part(csr_context *ctx, const csri_factor_csr *B, const double *val, int lower,
                       int with_diagonal, csr_matrix **M) {
  int64_t n = B->n, nnz = 0;
  for (int64_t i = 0; i < n; i++)
    nnz += lower ? B->dpos[i] - B->off[i] + with_diagonal : B->off[i + 1] - B->dpos[i];
  CSRI_TRY(csr_matrix_create(ctx, M, n, n, nnz, CSR_F64, CSR_HOST));
  int64_t at = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t begin = lower ? B->off[i] : B->dpos[i];
    int64_t end = lower ? B->dpos[i] + with_diagonal : B->off[i + 1];
    for (int64_t k = begin; k < end; k++, at++) {
      (*M)->col_indices[at] = B->col[k];
      ((double *)(*M)->values)[at] = val[k];
    }
    (*M)->row_offsets[i + 1] = at;
  }
  (*M)->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  return CSR_SUCCESS;
}

/* f->L and f->U (host, F64) from the factored values. */
static csr_status split(csr_context *ctx, const csri_factor_csr *B, const double *val,
                        csr_factor *f) {
  int ic = f->kind == CSR_FACTOR_IC0;
  CSRI_TRY(part(ctx, B, val, 1, ic, &f->L));
  if (ic) /* U = L' (a host transpose; a CUDA context declines it to a CPU backend) */
    return csr_transpose(ctx, f->L, &f->U);
  return part(ctx, B, val, 0, 1, &f->U);
}

/* What an attempt reads: the backend, B and the run's arrays. */
typedef struct attempt_args {
  csr_context *ctx;
  const csri_backend *be;
  const csri_factor_csr *B;
  const double *scale;
  csr_factor *f;
  factor0_run *r;
} attempt_args;

static csr_status attempt(void *self, double alpha, int64_t *failed_row) {
  attempt_args *a = self;
  return eliminate(a->ctx, a->be, a->B, a->scale, a->f, a->r, alpha, failed_row);
}

csr_status csri_factor0(csr_context *ctx, const csri_factor_csr *B, const double *scale,
                        const csr_factor_options *o, csr_factor *f) {
  const csri_backend *be;
  CSRI_TRY(CSRI_DISPATCH(ctx, f->location, solve.factor0, "the incomplete factorization", &be));
  factor0_run r = {0};
  attempt_args args = {ctx, be, B, scale, f, &r};
  csr_status status = prepare(ctx, B, scale, f, &r);
  if (status >= 0)
    status = csri_factor_shifted(ctx, o, f->kind == CSR_FACTOR_IC0 ? "IC(0)" : "ILU(0)", attempt,
                                 &args, f);
  if (status >= 0)
    status = split(ctx, B, r.host_val, f);
  run_free(&r);
  return status;
}
