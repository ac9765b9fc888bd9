/* SPDX-License-Identifier: BSD-3-Clause */
/* A maximum-product perfect matching of a square A: the permutation sigma maximising
 * prod_j |a_sigma(j),j|, as the min-cost perfect matching on the costs
 * c_ij = log(max_k |a_kj|) - log|a_ij| >= 0 of A's nonzero entries (Duff and Koster 2001, MC64
 * job 5). Rows permuted by it put large entries on the diagonal, which an incomplete LU without
 * pivoting needs, and its dual variables u (rows), v (columns) give scalings that make those
 * entries +-1 and every other at most 1 in magnitude.
 * The duals stay feasible (u_i + v_j <= c_ij, equality on matched entries) throughout: a greedy
 * pass matches entries of zero reduced cost, then each column left over is matched by the
 * shortest augmenting path on reduced costs (Dijkstra, a binary heap over rows), after which the
 * duals move by the path's distances. A search resets only the rows it reached, so a matrix whose
 * diagonal the greedy pass already matches costs a pass over its entries. The scalings' logs are
 * centred on 0 (u + s, v - s are duals too) to keep e^u and e^v within double's range where the
 * matrix allows it. Duplicate entries are
 * summed (|a_ij| is the magnitude of the sum; a sum of 0 is no edge); a pattern A weighs every
 * entry 1. */
#include "solve/factor.h"

#include <math.h>

typedef struct matching {
  int64_t n;
  int64_t *cptr;        /* n + 1: column j's entries are [cptr[j], cptr[j + 1]) */
  int32_t *crow;        /* their rows */
  double *cost;         /* their c_ij */
  double *cmax;         /* n: max_k |a_kj| */
  double *u, *v, *d;    /* n each: the duals of rows and columns; a search's distances */
  int32_t *col_of_row;  /* n: -1 when row i is free */
  int32_t *pred;        /* n: the column a search reached row i from */
  int32_t *heap, *hpos; /* n each: rows by d; hpos: -1 not reached, -2 settled, else index */
  int32_t *touched;     /* n: the rows a search reached, to reset */
  int64_t heap_size, touched_count;
} matching;

/* u, v, d are one block, col_of_row and pred another, heap, hpos and touched a third. */
static void matching_free(matching *m) {
  csri_free(m->cptr);
  csri_free(m->crow);
  csri_free(m->cost);
  csri_free(m->cmax);
  csri_free(m->u);
  csri_free(m->col_of_row);
  csri_free(m->heap);
}

static double value_at(const csr_matrix *A, int64_t k) {
  if (A->value_type == CSR_F64)
    return ((const double *)A->values)[k];
  if (A->value_type == CSR_F32)
    return ((const float *)A->values)[k];
  return 1.0; /* a pattern entry, duplicates merged */
}

static csr_status singular(csr_context *ctx, int64_t j) {
  return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                   "A is structurally singular: column %lld (0-based) cannot be matched to a row "
                   "of its own (no perfect matching uses only A's nonzero entries)",
                   (long long)j);
}

/* A's columns from AT = A^T (rows ascending in each, duplicates adjacent): summed, zeros left out,
 * then the costs. */
static csr_status build_columns(csr_context *ctx, const csr_matrix *AT, matching *m) {
  int64_t n = m->n, count = 0;
  for (int64_t j = 0; j < n; j++) {
    double largest = 0.0;
    for (int64_t k = AT->row_offsets[j]; k < AT->row_offsets[j + 1];) {
      int32_t i = AT->col_indices[k];
      double sum = value_at(AT, k++);
      for (; k < AT->row_offsets[j + 1] && AT->col_indices[k] == i; k++)
        sum = AT->value_type == CSR_PATTERN ? 1.0 : sum + value_at(AT, k);
      if (!isfinite(sum))
        return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                         "matching: A(%lld,%lld) is %g (0-based): the weights need finite values",
                         (long long)i, (long long)j, sum);
      if (sum == 0.0)
        continue;
      m->crow[count] = i;
      m->cost[count++] = fabs(sum);
      largest = fabs(sum) > largest ? fabs(sum) : largest;
    }
    m->cptr[j + 1] = count;
    if (count == m->cptr[j])
      return singular(ctx, j);
    m->cmax[j] = largest;
    for (int64_t k = m->cptr[j]; k < count; k++)
      m->cost[k] = log(largest) - log(m->cost[k]);
  }
  return CSR_SUCCESS;
}

/* u_i = min_j c_ij, v_j = min_i (c_ij - u_i): feasible duals; then each column takes a free row
 * whose reduced cost is 0 (the one that attained v_j when it is free). */
static void greedy(matching *m, int32_t *row_of_col) {
  int64_t n = m->n;
  for (int64_t i = 0; i < n; i++)
    m->u[i] = INFINITY;
  for (int64_t k = 0; k < m->cptr[n]; k++)
    m->u[m->crow[k]] = fmin(m->u[m->crow[k]], m->cost[k]);
  for (int64_t i = 0; i < n; i++)
    m->u[i] = isinf(m->u[i]) ? 0.0 : m->u[i]; /* an empty row: singular, found by the search */
  for (int64_t j = 0; j < n; j++) {
    double least = INFINITY;
    for (int64_t k = m->cptr[j]; k < m->cptr[j + 1]; k++)
      least = fmin(least, m->cost[k] - m->u[m->crow[k]]);
    m->v[j] = least;
    for (int64_t k = m->cptr[j]; k < m->cptr[j + 1]; k++) {
      int32_t i = m->crow[k];
      if (m->col_of_row[i] < 0 && m->cost[k] - m->u[i] - least <= 0.0) {
        m->col_of_row[i] = (int32_t)j;
        row_of_col[j] = i;
        break;
      }
    }
  }
}

static void heap_up(matching *m, int64_t at) {
  int32_t row = m->heap[at];
  while (at > 0 && m->d[m->heap[(at - 1) / 2]] > m->d[row]) {
    m->heap[at] = m->heap[(at - 1) / 2];
    m->hpos[m->heap[at]] = (int32_t)at;
    at = (at - 1) / 2;
  }
  m->heap[at] = row;
  m->hpos[row] = (int32_t)at;
}

static int32_t heap_pop(matching *m) {
  int32_t top = m->heap[0], row = m->heap[--m->heap_size];
  int64_t at = 0;
  for (;;) {
    int64_t child = 2 * at + 1;
    if (child >= m->heap_size)
      break;
    if (child + 1 < m->heap_size && m->d[m->heap[child + 1]] < m->d[m->heap[child]])
      child++;
    if (m->d[m->heap[child]] >= m->d[row])
      break;
    m->heap[at] = m->heap[child];
    m->hpos[m->heap[at]] = (int32_t)at;
    at = child;
  }
  if (m->heap_size > 0) {
    m->heap[at] = row;
    m->hpos[row] = (int32_t)at;
  }
  m->hpos[top] = -2;
  return top;
}

/* Row i reached from column j at distance dist (kept if shorter than what it has). */
static void relax(matching *m, int32_t i, int32_t j, double dist) {
  if (m->hpos[i] == -2 || dist >= m->d[i])
    return;
  if (m->hpos[i] == -1) {
    m->touched[m->touched_count++] = i;
    m->hpos[i] = (int32_t)m->heap_size;
    m->heap[m->heap_size++] = i;
  }
  m->d[i] = dist;
  m->pred[i] = j;
  heap_up(m, m->hpos[i]);
}

/* Matches column j0 by a shortest augmenting path; 0 when none exists. */
static int augment(matching *m, int32_t j0, int32_t *row_of_col) {
  m->heap_size = m->touched_count = 0;
  int32_t found = -1, j = j0;
  double dist = 0.0;
  for (;;) { /* scan column j, reached at distance dist */
    for (int64_t k = m->cptr[j]; k < m->cptr[j + 1]; k++) {
      int32_t i = m->crow[k];
      relax(m, i, j, dist + fmax(0.0, m->cost[k] - m->u[i] - m->v[j]));
    }
    if (m->heap_size == 0)
      break;
    int32_t i = heap_pop(m);
    if (m->col_of_row[i] < 0) {
      found = i;
      break;
    }
    j = m->col_of_row[i]; /* its matched entry has reduced cost 0 */
    dist = m->d[i];
  }
  if (found >= 0) { /* the duals move by the distances of the settled rows and their columns */
    double length = m->d[found];
    m->v[j0] += length;
    for (int64_t t = 0; t < m->touched_count; t++) {
      int32_t i = m->touched[t];
      if (m->hpos[i] == -2 && m->col_of_row[i] >= 0) {
        m->u[i] -= length - m->d[i];
        m->v[m->col_of_row[i]] += length - m->d[i];
      }
    }
    for (int32_t i = found;;) { /* flip the path */
      int32_t jj = m->pred[i], next = row_of_col[jj];
      row_of_col[jj] = i;
      m->col_of_row[i] = jj;
      if (jj == j0)
        break;
      i = next;
    }
  }
  for (int64_t t = 0; t < m->touched_count; t++) {
    m->d[m->touched[t]] = INFINITY;
    m->hpos[m->touched[t]] = -1;
  }
  return found >= 0;
}

/* u_i + v_j <= c_ij: |a_ij| e^{u_i} e^{v_j} / cmax_j <= 1, equal to 1 when matched. The logs
 * u_i + s and v_j - log cmax_j - s, with s centring them on 0 (u + s, v - s are duals too). */
static csr_status scalings(csr_context *ctx, matching *m, double *row_scale, double *col_scale) {
  int64_t n = m->n;
  double high_r = -INFINITY, low_r = INFINITY, high_c = -INFINITY, low_c = INFINITY;
  for (int64_t i = 0; i < n; i++) {
    m->v[i] -= log(m->cmax[i]);
    high_r = fmax(high_r, m->u[i]), low_r = fmin(low_r, m->u[i]);
    high_c = fmax(high_c, m->v[i]), low_c = fmin(low_c, m->v[i]);
  }
  const double s = (fmax(-low_r, high_c) - fmax(high_r, -low_c)) / 2.0, limit = 700.0;
  for (int64_t i = 0; i < 2 * n; i++) {
    double x = i < n ? m->u[i] + s : m->v[i - n] - s;
    if (!(fabs(x) <= limit)) /* e^700 ~ 1e304: near the ends of double's range */
      return CSRI_FAIL(ctx, CSR_ERR_OVERFLOW,
                       "matching: the scaling of %s %lld (0-based) would be e^%.4g, past double's "
                       "range: A's magnitudes along the matching span too many orders",
                       i < n ? "row" : "column", (long long)(i < n ? i : i - n), x);
    if (i < n)
      row_scale[i] = exp(x);
    else
      col_scale[i - n] = exp(x);
  }
  return CSR_SUCCESS;
}

static csr_status run(csr_context *ctx, const csr_matrix *A, matching *m, int32_t *row_of_col,
                      double *row_scale, double *col_scale) {
  int64_t n = m->n;
  csr_matrix *AT = NULL;
  CSRI_TRY(csr_transpose(ctx, A, &AT));
  int64_t nnz = AT->nnz;
  csr_status s =
      csri_array_alloc(ctx, (void **)&m->cptr, n + 1, sizeof(int64_t), CSR_HOST, CSRI_ARRAY_ZERO);
  if (s >= 0)
    s = csri_array_alloc(ctx, (void **)&m->crow, nnz, sizeof(int32_t), CSR_HOST, 0);
  if (s >= 0)
    s = csri_array_alloc(ctx, (void **)&m->cost, nnz, sizeof(double), CSR_HOST, 0);
  if (s >= 0)
    s = csri_array_alloc(ctx, (void **)&m->cmax, n, sizeof(double), CSR_HOST, 0);
  if (s >= 0)
    s = build_columns(ctx, AT, m);
  csr_matrix_free(&AT);
  CSRI_TRY(s);
  CSRI_TRY(csri_array_alloc(ctx, (void **)&m->u, 3 * n, sizeof(double), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&m->col_of_row, 3 * n, sizeof(int32_t), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&m->heap, 3 * n, sizeof(int32_t), CSR_HOST, 0));
  m->v = m->u + n;
  m->d = m->v + n;
  m->pred = m->col_of_row + n;
  m->hpos = m->heap + n;
  m->touched = m->hpos + n;
  for (int64_t i = 0; i < n; i++) {
    row_of_col[i] = m->col_of_row[i] = m->hpos[i] = -1;
    m->d[i] = INFINITY;
  }
  greedy(m, row_of_col);
  for (int64_t j = 0; j < n; j++)
    if (row_of_col[j] < 0 && !augment(m, (int32_t)j, row_of_col))
      return singular(ctx, j);
  return scalings(ctx, m, row_scale, col_scale);
}

csr_status csri_weighted_matching(csr_context *ctx, const csr_matrix *A, int32_t *row_of_col,
                                  double *row_scale, double *col_scale) {
  CSRI_CHECK_NULL(ctx, A);
  if (A->rows != A->cols)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "matching: A is %lld x %lld, a square matrix is needed", (long long)A->rows,
                     (long long)A->cols);
  if (A->location != CSR_HOST)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH, "matching: A must be on the host");
  if (A->rows > 0 && (row_of_col == NULL || row_scale == NULL || col_scale == NULL))
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "matching: an output array is NULL");
  matching m = {.n = A->rows};
  csr_status s = run(ctx, A, &m, row_of_col, row_scale, col_scale);
  matching_free(&m);
  return s < 0 ? s : CSR_SUCCESS;
}
