/* SPDX-License-Identifier: BSD-3-Clause */
/* B = P Dr A Dc in the form the factorizations read (src/solve/factor.h): A's values checked,
 * the rows matched and scaled when the ordering asks for it (or, by default, when the diagonal
 * has a hole: an ILU of such a matrix fails at its first pivot), then each row gathered in B's
 * order with its columns ascending, duplicates summed and the diagonal stored. Host work, one
 * pass over A plus a sort of the rows that are not sorted already. */
#include "kernels/rcm.h"
#include "kernels/rows.h"
#include "solve/factor.h"

#include <math.h>
#include <stdlib.h>

typedef struct entry {
  int32_t col;
  double val;
} entry;

static int by_column(const void *a, const void *b) {
  int32_t x = ((const entry *)a)->col, y = ((const entry *)b)->col;
  return (x > y) - (x < y);
}

static double value_at(const csr_matrix *A, int64_t k) {
  return A->value_type == CSR_F64 ? ((const double *)A->values)[k]
                                  : (double)((const float *)A->values)[k];
}

static csr_status check_finite(csr_context *ctx, const csr_matrix *A) {
  for (int64_t i = 0; i < A->rows; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int32_t j = A->col_indices[k];
      if (j < 0 || j >= A->cols)
        return csri_column_error(ctx, A, k);
      if (!isfinite(value_at(A, k)))
        return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                         "csr_factor_compute: A holds a non-finite value: A(%lld,%lld) = %g "
                         "(0-based)",
                         (long long)i, (long long)j, value_at(A, k));
    }
  return CSR_SUCCESS;
}

/* Whether some row's diagonal (duplicates summed) is missing or zero. */
static int diagonal_has_hole(const csr_matrix *A) {
  for (int64_t i = 0; i < A->rows; i++) {
    int found = 0;
    if (csri_row_diagonal(A, i, i, &found) == 0.0)
      return 1;
  }
  return 0;
}

static csr_status match(csr_context *ctx, const csr_matrix *A, csr_factor *f) {
  int64_t n = A->rows;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&f->row_order, n, sizeof(int32_t), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&f->row_scale, n, sizeof(double), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&f->col_scale, n, sizeof(double), CSR_HOST, 0));
  /* Column t matched to row r: B's row t is A's row r, whose entry in column t is B's diagonal. */
  return csri_weighted_matching(ctx, A, f->row_order, f->row_scale, f->col_scale);
}

/* B's row t from A's row `src`, into out (room for its entries + 1): scaled, the IC triangle
 * kept, sorted, duplicates summed, the diagonal added. Returns the count; *largest: max |b_tj|
 * over the whole row. */
static int64_t gather_row(const csr_matrix *A, const csr_factor *f, int ic, int64_t t, int64_t src,
                          entry *out, double *largest) {
  int64_t count = 0, sorted = 1;
  double big = 0.0;
  for (int64_t k = A->row_offsets[src]; k < A->row_offsets[src + 1]; k++) {
    int32_t j = A->col_indices[k];
    double v = value_at(A, k);
    if (f->row_scale != NULL)
      v *= f->row_scale[src] * f->col_scale[j];
    if (fabs(v) > big)
      big = fabs(v);
    if (ic && j > t)
      continue;
    if (count > 0 && out[count - 1].col > j)
      sorted = 0;
    out[count++] = (entry){j, v};
  }
  *largest = big;
  if (!sorted)
    qsort(out, (size_t)count, sizeof *out, by_column);
  int64_t kept = 0, has_diagonal = 0;
  for (int64_t k = 0; k < count; k++) {
    if (kept > 0 && out[kept - 1].col == out[k].col)
      out[kept - 1].val += out[k].val;
    else
      out[kept++] = out[k];
    has_diagonal |= out[k].col == t;
  }
  if (!has_diagonal) { /* insert an explicit 0 at its place */
    int64_t p = kept;
    while (p > 0 && out[p - 1].col > t) {
      out[p] = out[p - 1];
      p--;
    }
    out[p] = (entry){(int32_t)t, 0.0};
    kept++;
  }
  return kept;
}

static csr_status gather(csr_context *ctx, const csr_matrix *A, const csr_factor *f, int ic,
                         csri_factor_csr *B, double *scale) {
  int64_t n = A->rows, longest = 0;
  for (int64_t i = 0; i < n; i++)
    if (A->row_offsets[i + 1] - A->row_offsets[i] > longest)
      longest = A->row_offsets[i + 1] - A->row_offsets[i];
  B->n = n;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&B->off, n + 1, sizeof(int64_t), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&B->dpos, n, sizeof(int64_t), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&B->col, A->nnz + n, sizeof(int32_t), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&B->val, A->nnz + n, sizeof(double), CSR_HOST, 0));
  entry *row = NULL;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&row, longest + 1, sizeof(entry), CSR_HOST, 0));
  B->off[0] = 0;
  for (int64_t t = 0; t < n; t++) {
    int64_t src = f->row_order != NULL ? f->row_order[t] : t;
    int64_t count = gather_row(A, f, ic, t, src, row, &scale[t]);
    int64_t at = B->off[t];
    for (int64_t k = 0; k < count; k++) {
      B->col[at + k] = row[k].col;
      B->val[at + k] = row[k].val;
      if (row[k].col == t)
        B->dpos[t] = at + k;
    }
    B->off[t + 1] = at + count;
  }
  csri_free(row);
  return CSR_SUCCESS;
}

/* Keeps each row's entries up to its diagonal (B's rows are sorted), in place. */
static void lower_triangle(csri_factor_csr *B) {
  int64_t out = 0;
  for (int64_t i = 0, begin = 0; i < B->n; i++) {
    int64_t end = B->off[i + 1];
    for (int64_t k = begin; k <= B->dpos[i]; k++, out++) {
      B->col[out] = B->col[k];
      B->val[out] = B->val[k];
    }
    B->dpos[i] = out - 1;
    begin = end;
    B->off[i + 1] = out;
  }
}

void csri_factor_csr_free(csri_factor_csr *B) {
  csri_free(B->off);
  csri_free(B->col);
  csri_free(B->val);
  csri_free(B->dpos);
  *B = (csri_factor_csr){0};
}

/* B' = Q' B Q for the order q (row t of B' is row q[t] of B, column s is column q[s]), replacing
 * B and scale, and f's row and column orders composed with q. */
static csr_status reorder(csr_context *ctx, const int32_t *q, csr_factor *f, csri_factor_csr *B,
                          double *scale) {
  int64_t n = B->n;
  csri_factor_csr R = {.n = n};
  int32_t *inverse = NULL;
  entry *row = NULL;
  int64_t longest = 0;
  for (int64_t i = 0; i < n; i++)
    if (B->off[i + 1] - B->off[i] > longest)
      longest = B->off[i + 1] - B->off[i];
  CSRI_TRY(csri_array_alloc(ctx, (void **)&R.off, n + 1, sizeof(int64_t), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&R.dpos, n, sizeof(int64_t), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&R.col, B->off[n], sizeof(int32_t), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&R.val, B->off[n], sizeof(double), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&inverse, n, sizeof(int32_t), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&row, longest, sizeof(entry), CSR_HOST, 0));
  if (f->col_order == NULL)
    CSRI_TRY(csri_array_alloc(ctx, (void **)&f->col_order, n, sizeof(int32_t), CSR_HOST, 0));
  if (f->row_order == NULL) {
    CSRI_TRY(csri_array_alloc(ctx, (void **)&f->row_order, n, sizeof(int32_t), CSR_HOST, 0));
    for (int64_t t = 0; t < n; t++)
      f->row_order[t] = (int32_t)t;
  }
  for (int64_t t = 0; t < n; t++)
    inverse[q[t]] = (int32_t)t;
  R.off[0] = 0;
  for (int64_t t = 0; t < n; t++) {
    int64_t src = q[t], count = 0;
    for (int64_t k = B->off[src]; k < B->off[src + 1]; k++)
      row[count++] = (entry){inverse[B->col[k]], B->val[k]};
    qsort(row, (size_t)count, sizeof *row, by_column);
    for (int64_t k = 0; k < count; k++) {
      R.col[R.off[t] + k] = row[k].col;
      R.val[R.off[t] + k] = row[k].val;
      if (row[k].col == t)
        R.dpos[t] = R.off[t] + k;
    }
    R.off[t + 1] = R.off[t] + count;
  }
  /* The orders composed: B's row t was A's row row_order[t]; column s A's column s. */
  for (int64_t t = 0; t < n; t++) {
    inverse[t] = f->row_order[q[t]]; /* reused as the new row order */
    f->col_order[t] = q[t];
  }
  for (int64_t t = 0; t < n; t++) {
    f->row_order[t] = inverse[t];
    inverse[t] = (int32_t)t;
  }
  csri_free(row);
  double *old_scale = NULL;
  csr_status status = csri_array_alloc(ctx, (void **)&old_scale, n, sizeof(double), CSR_HOST, 0);
  if (status >= 0) {
    for (int64_t t = 0; t < n; t++)
      old_scale[t] = scale[t];
    for (int64_t t = 0; t < n; t++)
      scale[t] = old_scale[q[t]];
  }
  csri_free(old_scale);
  csri_free(inverse);
  csri_factor_csr_free(B);
  *B = R;
  return status;
}

csr_status csri_factor_build(csr_context *ctx, const csr_matrix *A, const csr_factor_options *o,
                             csr_factor *f, csri_factor_csr *B, double *scale) {
  CSRI_TRY(check_finite(ctx, A));
  int ic = o->kind == CSR_FACTOR_IC0, ilut = o->kind == CSR_FACTOR_ILUT;
  /* ILUT always by default: its drop rule compares entries with their row's norm, which means
   * something only once the rows and columns are scaled alike (SuperLU's ILU does the same). */
  int matched = !ic && (o->ordering == CSR_FACTOR_ORDER_MATCHING ||
                        (o->ordering == CSR_FACTOR_ORDER_AUTO && (ilut || diagonal_has_hole(A))));
  if (matched)
    CSRI_TRY(match(ctx, A, f));
  int rcm = A->rows > 1 && (o->reordering == CSR_FACTOR_REORDER_RCM ||
                            (o->reordering == CSR_FACTOR_REORDER_AUTO && ilut));
  /* IC(0) keeps the lower triangle of the renumbered matrix, so it is cut only after RCM. */
  CSRI_TRY(gather(ctx, A, f, ic && !rcm, B, scale));
  if (!rcm)
    return CSR_SUCCESS;
  int32_t *q = NULL;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&q, B->n, sizeof(int32_t), CSR_HOST, 0));
  const csri_pattern pattern = {B->n, B->off, B->col};
  csr_status status = csri_rcm(ctx, &pattern, q);
  if (status >= 0)
    status = reorder(ctx, q, f, B, scale);
  csri_free(q);
  if (status >= 0 && ic)
    lower_triangle(B);
  return status;
}

void csri_factor_shift(const csri_factor_csr *B, const double *scale, double alpha, int ic,
                       double *val) {
  for (int64_t k = 0; k < B->off[B->n]; k++)
    val[k] = B->val[k];
  if (alpha == 0.0)
    return;
  for (int64_t i = 0; i < B->n; i++) {
    double *d = &val[B->dpos[i]];
    *d += (ic || *d >= 0.0 ? alpha : -alpha) * scale[i];
  }
}
