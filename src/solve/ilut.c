/* SPDX-License-Identifier: BSD-3-Clause */
/* Saad's ILUT(tau, p): B ~ L U row by row, w = b_i, then for k < i in ascending order
 * w_k /= u_kk and w -= w_k u_k (row k of U), dropping what falls below tau ||b_i||_2 and keeping
 * the p largest of each triangle (Saad, "ILUT: a dual threshold incomplete LU factorization",
 * 1994). Unlike ILU(0) the fill is allowed where it matters by magnitude, not by position, which
 * is what matrices far from diagonal dominance need; the two rules bound both the work and the
 * memory (at most p + 1 + p entries a row).
 * With a pivot threshold it is ILUTP (Saad, "Iterative methods for sparse linear systems", 10.4.4;
 * SPARSKIT's ilutp): when row i's diagonal is small against the largest entry its U part keeps,
 * columns i and that entry's swap, so the factorization is of B Q. A matching puts large entries
 * on the diagonal, but elimination can still shrink a pivot to nothing (a skew-symmetric B has
 * u_00 = 0 and no scaling helps); the swap keeps |u_ii| >= threshold |u_ij| and so bounds U's
 * growth. Columns are numbered by their place ("position") in the new order as it stands: L's
 * columns lie before row i and never move again, so L is stored in positions; U's lie at or after
 * it and may still move, so U is stored in B's columns and renumbered at the end.
 * Row i is eliminated in a dense work row of n values (indexed by B's columns) with a marker of
 * the columns it holds: its L columns wait in a min-heap of positions, so they are eliminated in
 * ascending order although fill adds new ones as it goes (each new one lies right of the column
 * that made it), and its U columns in an unordered list. With no swap every position is B's own
 * column and the arithmetic is ILUT's. */
#include "solve/factor.h"
#include "solve/ilut_rows.h"

#include <math.h>
#include <stdlib.h>

typedef csri_ilut_entry entry;

typedef struct work {
  int64_t n;
  double *w;           /* n: the row being eliminated, 0 outside its columns */
  unsigned char *mark; /* n: 1 where w holds a column of the row */
  int32_t *heap;       /* the positions of the L columns still to eliminate, a min-heap */
  int32_t *upper;      /* the U columns (position >= i), unordered */
  int32_t *perm;       /* n: perm[s], the column of B at position s */
  int32_t *iperm;      /* n: its inverse, the position of B's column c */
  entry *kept;         /* the candidates of one triangle */
  int64_t heap_size, upper_count;
  int swapped; /* whether any two columns swapped */
  csri_ilut_rows L, U;
} work;

static void work_free(work *k) {
  csri_free(k->w);
  csri_free(k->mark);
  csri_free(k->heap);
  csri_free(k->perm);
  csri_free(k->kept);
  csri_ilut_rows_free(&k->L);
  csri_ilut_rows_free(&k->U);
}

static void heap_push(work *k, int32_t pos) {
  int64_t at = k->heap_size++;
  while (at > 0 && k->heap[(at - 1) / 2] > pos) {
    k->heap[at] = k->heap[(at - 1) / 2];
    at = (at - 1) / 2;
  }
  k->heap[at] = pos;
}

static int32_t heap_pop(work *k) {
  int32_t top = k->heap[0], last = k->heap[--k->heap_size];
  int64_t at = 0;
  for (;;) {
    int64_t child = 2 * at + 1;
    if (child >= k->heap_size)
      break;
    if (child + 1 < k->heap_size && k->heap[child + 1] < k->heap[child])
      child++;
    if (k->heap[child] >= last)
      break;
    k->heap[at] = k->heap[child];
    at = child;
  }
  if (k->heap_size > 0)
    k->heap[at] = last;
  return top;
}

/* B's column j joins row i's pattern (w_j is 0 until it is updated). */
static void add_column(work *k, int64_t i, int32_t j) {
  k->mark[j] = 1;
  if (k->iperm[j] < i)
    heap_push(k, k->iperm[j]);
  else
    k->upper[k->upper_count++] = j;
}

/* Swaps positions a and b of the column order. */
static void swap_positions(work *k, int32_t a, int32_t b) {
  int32_t ca = k->perm[a], cb = k->perm[b];
  k->perm[a] = cb, k->perm[b] = ca;
  k->iperm[cb] = a, k->iperm[ca] = b;
  k->swapped = 1;
}

/* Row i's pivot against the `count` kept U candidates (positions): when |pivot| < threshold
 * times the largest (ties: the lower position), that one becomes the pivot, and the old pivot,
 * unless dropped (`drop`), takes its place among the candidates. */
static void choose_pivot(work *k, int64_t i, double threshold, double drop, entry *pivot,
                         int64_t *count) {
  int64_t best = -1;
  for (int64_t e = 0; e < *count; e++)
    if (best < 0 || fabs(k->kept[e].val) > fabs(k->kept[best].val) ||
        (fabs(k->kept[e].val) == fabs(k->kept[best].val) && k->kept[e].col < k->kept[best].col))
      best = e;
  if (best < 0 || !(fabs(pivot->val) < threshold * fabs(k->kept[best].val)))
    return;
  entry old = {k->kept[best].col, pivot->val};
  pivot->val = k->kept[best].val;
  swap_positions(k, (int32_t)i, old.col);
  if (old.val != 0.0 && fabs(old.val) >= drop)
    k->kept[best] = old;
  else
    k->kept[best] = k->kept[--*count];
}

/* Row i of L and U; *failed = 1 when its pivot fails or a kept value is not finite. */
static csr_status factor_row(csr_context *ctx, const csri_factor_csr *B, double tau,
                             double fill_factor, double threshold, work *k, int64_t i,
                             int *failed) {
  const int64_t n = B->n, begin = B->off[i], end = B->off[i + 1];
  double scale = 0.0, sum = 0.0;
  for (int64_t e = begin; e < end; e++) {
    if (!isfinite(B->val[e])) {
      *failed = 1;
      return CSR_SUCCESS;
    }
    scale = fmax(scale, fabs(B->val[e]));
  }
  for (int64_t e = begin; e < end; e++) { /* ||b_i||_2 without overflow */
    double x = scale > 0.0 ? B->val[e] / scale : 0.0;
    sum += x * x;
  }
  const double drop = tau * scale * sqrt(sum), rowmax = scale;
  /* The fill allowance is pooled, as SuperLU bounds the whole factor rather than each row: row i
   * may keep, in each triangle, half of what fill_factor times B's entries up to row i allows
   * beyond what the rows before it kept (its own share fill_factor nnz(b_i) / 2 and whatever they
   * left). A row that needs little leaves room for one that needs more. */
  const double budget = fill_factor * (double)B->off[i + 1] - (double)(k->L.off[i] + k->U.off[i]);
  const double want = budget / 2.0;
  const int64_t p = want >= (double)n ? n : want < 1.0 ? 1 : (int64_t)want;
  k->heap_size = k->upper_count = 0;
  for (int64_t e = begin; e < end; e++) {
    add_column(k, i, B->col[e]);
    k->w[B->col[e]] = B->val[e];
  }
  int64_t lower = 0;
  while (k->heap_size > 0) {
    int32_t pos = heap_pop(k), c = k->perm[pos];
    const int64_t u0 = k->U.off[pos], u1 = k->U.off[pos + 1];
    double x = k->w[c] / k->U.val[u0]; /* U row pos starts at its pivot */
    k->w[c] = 0.0;
    k->mark[c] = 0;
    if (isfinite(x) && (x == 0.0 || fabs(x) < drop)) /* dropped (a non-finite x fails the row) */
      continue;
    *failed |= !isfinite(x);
    k->kept[lower++] = (entry){pos, x};
    for (int64_t e = u0 + 1; e < u1; e++) {
      int32_t j = k->U.col[e];
      if (!k->mark[j])
        add_column(k, i, j);
      k->w[j] -= x * k->U.val[e];
    }
  }
  if (!*failed) {
    lower = csri_ilut_keep_largest(k->kept, lower, p);
    CSRI_TRY(csri_ilut_rows_append(ctx, &k->L, i, k->kept, lower, NULL));
  }
  entry pivot = {(int32_t)i, k->w[k->perm[i]]};
  int64_t upper = 0;
  for (int64_t e = 0; e < k->upper_count; e++) {
    int32_t j = k->upper[e], pos = k->iperm[j];
    double x = k->w[j];
    k->w[j] = 0.0;
    k->mark[j] = 0;
    *failed |= !isfinite(x);
    if (pos > i && x != 0.0 && fabs(x) >= drop)
      k->kept[upper++] = (entry){pos, x};
  }
  upper = csri_ilut_keep_largest(k->kept, upper, p);
  if (threshold > 0.0)
    choose_pivot(k, i, threshold, drop, &pivot, &upper);
  *failed |= !isfinite(pivot.val) || !(fabs(pivot.val) > 1e-14 * rowmax);
  if (*failed)
    return CSR_SUCCESS;
  pivot.col = k->perm[i];
  for (int64_t e = 0; e < upper; e++) /* positions after i may still move */
    k->kept[e].col = k->perm[k->kept[e].col];
  return csri_ilut_rows_append(ctx, &k->U, i, k->kept, upper, &pivot);
}

static csr_status run(csr_context *ctx, const csri_factor_csr *B, double tau, double fill_factor,
                      double threshold, work *k, csr_matrix **L, csr_matrix **U, int32_t *col_order,
                      int64_t *failed_row) {
  const int64_t n = B->n;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&k->w, n, sizeof(double), CSR_HOST, CSRI_ARRAY_ZERO));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&k->mark, n, 1, CSR_HOST, CSRI_ARRAY_ZERO));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&k->heap, 2 * n, sizeof(int32_t), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&k->perm, 2 * n, sizeof(int32_t), CSR_HOST, 0));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&k->kept, n, sizeof(entry), CSR_HOST, 0));
  CSRI_TRY(
      csri_array_alloc(ctx, (void **)&k->L.off, n + 1, sizeof(int64_t), CSR_HOST, CSRI_ARRAY_ZERO));
  CSRI_TRY(
      csri_array_alloc(ctx, (void **)&k->U.off, n + 1, sizeof(int64_t), CSR_HOST, CSRI_ARRAY_ZERO));
  k->upper = k->heap + n;
  k->iperm = k->perm + n;
  for (int64_t s = 0; s < n; s++)
    k->perm[s] = k->iperm[s] = (int32_t)s;
  k->L.what = "for ILUT's factor L";
  k->U.what = "for ILUT's factor U";
  /* The first guess: B's own entries split between the triangles. */
  CSRI_TRY(csri_ilut_rows_reserve(ctx, &k->L, B->off[n] / 2 + 1));
  CSRI_TRY(csri_ilut_rows_reserve(ctx, &k->U, B->off[n] / 2 + n));
  for (int64_t i = 0; i < n; i++) {
    int failed = 0;
    CSRI_TRY(factor_row(ctx, B, tau, fill_factor, threshold, k, i, &failed));
    if (failed) {
      *failed_row = i;
      return CSR_SUCCESS;
    }
  }
  if (k->swapped)
    csri_ilut_rows_renumber(&k->U, n, k->iperm, 1, k->kept);
  if (col_order != NULL)
    for (int64_t s = 0; s < n; s++)
      col_order[s] = k->perm[s];
  CSRI_TRY(csri_ilut_rows_finish(ctx, &k->L, n, L));
  return csri_ilut_rows_finish(ctx, &k->U, n, U);
}

csr_status csri_ilut(csr_context *ctx, const csri_factor_csr *B, double tau, double fill_factor,
                     double pivot_threshold, csr_matrix **L, csr_matrix **U, int32_t *col_order,
                     int64_t *failed_row) {
  CSRI_CHECK_NULL(ctx, B);
  CSRI_CHECK_NULL(ctx, L);
  CSRI_CHECK_NULL(ctx, U);
  CSRI_CHECK_NULL(ctx, failed_row);
  *L = *U = NULL;
  *failed_row = -1;
  if (!(tau >= 0.0) || !(fill_factor >= 0.0))
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "ILUT: the drop tolerance (%g) and fill factor (%g) must be >= 0", tau,
                     fill_factor);
  if (!(pivot_threshold >= 0.0 && pivot_threshold <= 1.0))
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "ILUT: the pivot threshold (%g) must be in [0, 1]",
                     pivot_threshold);
  work k = {.n = B->n};
  csr_status s = run(ctx, B, tau, fill_factor, pivot_threshold, &k, L, U, col_order, failed_row);
  work_free(&k);
  if (s < 0 || *failed_row >= 0) {
    csr_matrix_free(L);
    csr_matrix_free(U);
  }
  return s < 0 ? s : CSR_SUCCESS;
}
