/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_spsv_analyze: the triangle of a host matrix copied into a plan (its strictly triangular
 * entries in stored order, its diagonal), the diagonal checked, and the rows sorted into levels
 * (a row one level past the highest row it reads), which the OpenMP backend solves one level at a
 * time. Host work shared by every backend; serial (one pass over A, one over the triangle). */
#include "ops/ops.h"

#include <math.h>

void csr_spsv_plan_free(csr_spsv_plan **plan) {
  if (plan == NULL || *plan == NULL)
    return;
  csr_spsv_plan *p = *plan;
  if (p->free_device != NULL)
    p->free_device(p->device);
  csri_free(p->offsets);
  csri_free(p->cols);
  csri_free(p->values);
  csri_free(p->diag);
  csri_free(p->level_offsets);
  csri_free(p->level_rows);
  csri_free(p->level_work);
  csri_free(p);
  *plan = NULL;
}

int64_t csr_spsv_levels(const csr_spsv_plan *plan) {
  return plan ? plan->levels : 0;
}

static csr_status check(csr_context *ctx, const csr_matrix *A, csr_triangle triangle,
                        csr_diagonal diagonal) {
  CSRI_CHECK_NULL(ctx, A);
  if (triangle != CSR_LOWER && triangle != CSR_UPPER)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "csr_spsv_analyze: triangle %d is neither CSR_LOWER nor CSR_UPPER",
                     (int)triangle);
  if (diagonal != CSR_DIAGONAL_STORED && diagonal != CSR_DIAGONAL_UNIT)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "csr_spsv_analyze: diagonal %d is neither CSR_DIAGONAL_STORED nor "
                     "CSR_DIAGONAL_UNIT",
                     (int)diagonal);
  CSRI_TRY(csri_check_value_type(ctx, A->value_type, 1));
  CSRI_TRY(csri_check_shape(ctx, A->rows, A->cols, A->nnz));
  if (A->rows != A->cols)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "csr_spsv_analyze: A is %lld x %lld; a triangular solve needs a square A",
                     (long long)A->rows, (long long)A->cols);
  return CSR_SUCCESS;
}

/* The host A's offsets and arrays, before any entry is read. */
static csr_status check_arrays(csr_context *ctx, const csr_matrix *A) {
  if (A->row_offsets == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "A->row_offsets is NULL");
  if (A->nnz > 0 && (A->col_indices == NULL || (A->value_type != CSR_PATTERN && !A->values)))
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "A has nonzeros but no index or value array");
  const int64_t *off = A->row_offsets;
  if (off[0] != 0 || off[A->rows] != A->nnz)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                     "A's row offsets run from %lld to %lld; expected 0 to nnz = %lld",
                     (long long)off[0], (long long)off[A->rows], (long long)A->nnz);
  for (int64_t i = 0; i < A->rows; i++)
    if (off[i + 1] < off[i])
      return csri_offsets_error(ctx);
  return CSR_SUCCESS;
}

static int in_triangle(csr_triangle triangle, int64_t i, int64_t j) {
  return triangle == CSR_LOWER ? j < i : j > i;
}

static double value_of(const csr_matrix *A, int64_t k) {
  if (A->value_type == CSR_F64)
    return ((const double *)A->values)[k];
  return A->value_type == CSR_F32 ? (double)((const float *)A->values)[k] : 1.0;
}

/* Row i's diagonal sum d (found: whether it stores one), refused unless usable. */
static csr_status check_diagonal(csr_context *ctx, int64_t i, int found, double d) {
  if (!found)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                     "csr_spsv_analyze: row %lld has no diagonal entry (use CSR_DIAGONAL_UNIT "
                     "for a unit diagonal)",
                     (long long)i);
  if (d == 0.0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                     "csr_spsv_analyze: row %lld's diagonal entry is zero: A(%lld,%lld) = %g, so "
                     "the triangle is singular",
                     (long long)i, (long long)i, (long long)i, d);
  if (!isfinite(d))
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                     "csr_spsv_analyze: row %lld's diagonal entry is not finite: A(%lld,%lld) = %g",
                     (long long)i, (long long)i, (long long)i, d);
  return CSR_SUCCESS;
}

/* Pass 1, in row order: columns in range, the diagonal summed and checked, and how many entries
 * of each row the plan keeps (p->offsets[i + 1], not yet summed). */
static csr_status count_rows(csr_context *ctx, const csr_matrix *A, csr_spsv_plan *p) {
  for (int64_t i = 0; i < p->n; i++) {
    int64_t kept = 0;
    double d = 0.0;
    int found = 0;
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int64_t j = A->col_indices[k];
      if (j < 0 || j >= p->n)
        return csri_column_error(ctx, A, k);
      if (j == i) {
        found = 1;
        d += value_of(A, k);
      }
      kept += in_triangle(p->triangle, i, j);
    }
    p->offsets[i + 1] = kept;
    if (p->diag) {
      CSRI_TRY(check_diagonal(ctx, i, found, d));
      p->diag[i] = d;
    }
  }
  return CSR_SUCCESS;
}

/* Pass 2: the kept entries copied in stored order. */
static void copy_entries(const csr_matrix *A, csr_spsv_plan *p) {
  for (int64_t i = 0; i < p->n; i++)
    p->offsets[i + 1] += p->offsets[i];
  for (int64_t i = 0; i < p->n; i++) {
    int64_t out = p->offsets[i];
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int32_t j = A->col_indices[k];
      if (!in_triangle(p->triangle, i, j))
        continue;
      p->cols[out] = j;
      if (p->values)
        p->values[out] = value_of(A, k);
      out++;
    }
  }
}

/* Each row's level in substitution order (a row reads only rows solved before it), then the rows
 * bucketed by level, ascending within each; level_of has n entries. */
static csr_status find_levels(csr_context *ctx, csr_spsv_plan *p, int32_t *level_of) {
  int64_t n = p->n, top = -1;
  for (int64_t t = 0; t < n; t++) {
    int64_t i = p->triangle == CSR_LOWER ? t : n - 1 - t;
    int64_t level = 0;
    for (int64_t k = p->offsets[i]; k < p->offsets[i + 1]; k++)
      if (level_of[p->cols[k]] + 1 > level)
        level = level_of[p->cols[k]] + 1;
    level_of[i] = (int32_t)level; /* level < n <= CSR_MAX_DIM */
    if (level > top)
      top = level;
  }
  p->levels = top + 1;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&p->level_offsets, p->levels + 1, sizeof(int64_t),
                            CSR_HOST, CSRI_ARRAY_ZERO));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&p->level_work, p->levels, sizeof(int64_t), CSR_HOST,
                            CSRI_ARRAY_ZERO));
  for (int64_t i = 0; i < n; i++) {
    p->level_offsets[level_of[i] + 1]++;
    p->level_work[level_of[i]] += 1 + p->offsets[i + 1] - p->offsets[i];
  }
  for (int64_t l = 0; l < p->levels; l++)
    p->level_offsets[l + 1] += p->level_offsets[l];
  /* level_of[i] becomes the next free slot of row i's level as the rows are placed. */
  int64_t *next = p->level_offsets; /* reused below, then restored */
  for (int64_t i = 0; i < n; i++)
    p->level_rows[next[level_of[i]]++] = (int32_t)i;
  for (int64_t l = p->levels; l > 0; l--) /* next[l - 1] now ends level l - 1: shift back */
    next[l] = next[l - 1];
  next[0] = 0;
  return CSR_SUCCESS;
}

static csr_status build(csr_context *ctx, const csr_matrix *A, csr_spsv_plan *p) {
  int64_t n = p->n;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&p->offsets, n + 1, sizeof(int64_t), CSR_HOST,
                            CSRI_ARRAY_ZERO));
  if (p->diagonal == CSR_DIAGONAL_STORED)
    CSRI_TRY(csri_array_alloc(ctx, (void **)&p->diag, n, sizeof(double), CSR_HOST, 0));
  CSRI_TRY(count_rows(ctx, A, p));
  int64_t kept = 0;
  for (int64_t i = 0; i < n; i++)
    kept += p->offsets[i + 1];
  CSRI_TRY(csri_array_alloc(ctx, (void **)&p->cols, kept, sizeof(int32_t), CSR_HOST, 0));
  if (A->value_type != CSR_PATTERN)
    CSRI_TRY(csri_array_alloc(ctx, (void **)&p->values, kept, sizeof(double), CSR_HOST, 0));
  copy_entries(A, p);
  CSRI_TRY(csri_array_alloc(ctx, (void **)&p->level_rows, n, sizeof(int32_t), CSR_HOST, 0));
  int32_t *level_of = NULL;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&level_of, n, sizeof(int32_t), CSR_HOST, 0));
  csr_status status = find_levels(ctx, p, level_of);
  csri_free(level_of);
  return status;
}

csr_status csri_spsv_analyze_host(csr_context *ctx, const csr_matrix *A, csr_triangle triangle,
                                  csr_diagonal diagonal, csr_spsv_plan **plan) {
  *plan = NULL;
  if (A->rows > 0)
    CSRI_TRY(check_arrays(ctx, A));
  csr_spsv_plan *p = csri_calloc(1, sizeof *p);
  if (p == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "csr_spsv_analyze: no memory for the plan");
  p->n = A->rows;
  p->triangle = triangle;
  p->diagonal = diagonal;
  p->value_type = A->value_type;
  p->location = CSR_HOST;
  csr_status status = build(ctx, A, p);
  if (status < 0) {
    csr_spsv_plan_free(&p);
    return status;
  }
  *plan = p;
  return CSR_SUCCESS;
}

csr_status csri_spsv_analyze_for(csr_context *ctx, const csr_matrix *host_A, csr_triangle triangle,
                                 csr_diagonal diagonal, csr_location where, csr_spsv_plan **plan) {
  CSRI_TRY(csri_spsv_analyze_host(ctx, host_A, triangle, diagonal, plan));
  if (where == CSR_HOST)
    return CSR_SUCCESS;
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, where, solve.spsv, "the triangular solve", &b);
  if (status >= 0)
    status = b->solve.spsv_prepare(ctx, *plan);
  if (status < 0)
    csr_spsv_plan_free(plan);
  return status;
}

/* A device matrix: analysed on a host copy, the plan then mirrored by the backend. */
static csr_status analyze_device(csr_context *ctx, const csr_matrix *A, csr_triangle triangle,
                                 csr_diagonal diagonal, csr_spsv_plan **plan) {
  csr_matrix *host = NULL;
  CSRI_TRY(csr_matrix_copy(ctx, A, &host, CSR_HOST));
  csr_status status = csri_spsv_analyze_for(ctx, host, triangle, diagonal, A->location, plan);
  csr_matrix_free(&host);
  return status;
}

csr_status csr_spsv_analyze(csr_context *ctx, const csr_matrix *A, csr_triangle triangle,
                            csr_diagonal diagonal, csr_spsv_plan **plan) {
  CSRI_CHECK_NULL(ctx, plan);
  *plan = NULL;
  CSRI_TRY(check(ctx, A, triangle, diagonal));
  const csri_backend *b;
  csr_status dispatched = CSRI_DISPATCH(ctx, A->location, solve.spsv, "the triangular solve", &b);
  CSRI_TRY(dispatched);
  csr_status status = A->location == CSR_HOST
                          ? csri_spsv_analyze_host(ctx, A, triangle, diagonal, plan)
                          : analyze_device(ctx, A, triangle, diagonal, plan);
  return csri_ran(ctx, b, dispatched, status);
}
