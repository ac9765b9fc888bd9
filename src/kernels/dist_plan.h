/* SPDX-License-Identifier: BSD-3-Clause */
/* The arithmetic of a matrix distributed over P ranks by 1D row blocks: where each rank's rows
 * start (split by weight, nonzeros + rows), which rank owns a column, and a rank's halo plan:
 *   A_r x = A_r [x_own ; x_ghost],  x_ghost = x(ghosts_r), ghosts_r the sorted distinct columns
 * of rank r's rows that another rank owns. A row keeps its entries in stored order, each column
 * renamed into [0, own + ghosts), so that it is summed in one pass in the order a single process
 * sums it: the same bits, whatever P. Pure functions over caller-given arrays, no MPI, so that
 * the CPU tests check every split and plan by simulating the ranks in one process. Internal. */
#ifndef CSR_KERNELS_DIST_PLAN_H
#define CSR_KERNELS_DIST_PLAN_H

#include <stdint.h>
#include <stdlib.h>

/* floor(r * total / P) without overflow for total < 2^63 and P < 2^31: the weight at which rank
 * r's block starts. */
static inline int64_t csri_dist_target(int64_t total, int r, int P) {
  const int64_t q = total / P, rem = total % P;
  return q * r + (rem * r) / P;
}

/* Row starts of P blocks (starts[0] = 0, starts[P] = rows, never decreasing) from the global row
 * offsets: block r begins at the first row i whose weight before it, offsets[i] + i (each row
 * costs its nonzeros and the write of y_i), reaches csri_dist_target(nnz + rows, r, P). So a
 * block's weight exceeds the mean by less than one row's, and a power-law row lands where its
 * weight falls instead of crowding one rank. More ranks than rows leave some blocks empty. */
static inline void csri_dist_split(const int64_t *offsets, int64_t rows, int P, int64_t *starts) {
  const int64_t total = offsets[rows] + rows;
  starts[0] = 0;
  for (int r = 1; r < P; r++) {
    const int64_t target = csri_dist_target(total, r, P);
    int64_t lo = starts[r - 1], hi = rows; /* the first i in [lo, rows] with weight >= target */
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (offsets[mid] + mid >= target)
        hi = mid;
      else
        lo = mid + 1;
    }
    starts[r] = lo;
  }
  starts[P] = rows;
}

/* The rank whose block [starts[r], starts[r + 1]) holds index i (0 <= i < starts[P]); of empty
 * blocks at the same place, the last, which is the one holding i. */
static inline int csri_dist_owner(const int64_t *starts, int P, int64_t i) {
  int lo = 0, hi = P - 1; /* the last r with starts[r] <= i */
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (starts[mid] <= i)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

static inline int csri_dist_compare_i64(const void *a, const void *b) {
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The position of column j in the sorted ghosts[0, count). j is among them. */
static inline int64_t csri_dist_ghost_of(const int64_t *ghosts, int64_t count, int64_t j) {
  int64_t lo = 0, hi = count - 1;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (ghosts[mid] < j)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Rank r's halo plan, for its rows' entries (offsets[0, rows] from 0, global columns cols) and
 * the column blocks col_starts[0, P] (the x each rank owns):
 * - ghosts[0, *ghost_count): the distinct columns outside [col_starts[r], col_starts[r + 1]),
 *   sorted; `ghosts` has room for every entry (it is also the sort's scratch);
 * - local[k]: entry k's column renamed, j - col_starts[r] for an owned column, own + its place in
 *   ghosts for a ghost (own = the owned columns' count): x as [x_own ; x_ghost];
 * - boundary[i]: 1 when row i reads a ghost (its product waits for the halo), else 0;
 * - from[q] (P + 1 entries): ghosts[from[q], from[q + 1]) are rank q's, a contiguous slice since
 *   the ghosts are sorted and q's columns are one block; from[r + 1] == from[r].
 * Returns 0, or -1 when a column lies outside [0, col_starts[P]) or a renamed column would not
 * fit 31 bits (own + ghosts >= 2^31). */
static inline int csri_dist_plan(int64_t rows, const int64_t *offsets, const int64_t *cols, int r,
                                 int P, const int64_t *col_starts, int64_t *ghosts,
                                 int64_t *ghost_count, int32_t *local, uint8_t *boundary,
                                 int64_t *from) {
  const int64_t first = col_starts[r], end = col_starts[r + 1], own = end - first;
  const int64_t nnz = offsets[rows];
  int64_t g = 0;
  for (int64_t k = 0; k < nnz; k++) {
    if (cols[k] < 0 || cols[k] >= col_starts[P])
      return -1;
    if (cols[k] < first || cols[k] >= end)
      ghosts[g++] = cols[k];
  }
  qsort(ghosts, (size_t)g, sizeof *ghosts, csri_dist_compare_i64);
  int64_t distinct = 0;
  for (int64_t k = 0; k < g; k++)
    if (distinct == 0 || ghosts[k] != ghosts[distinct - 1])
      ghosts[distinct++] = ghosts[k];
  *ghost_count = distinct;
  if (own + distinct > INT32_MAX)
    return -1;
  for (int64_t i = 0; i < rows; i++) {
    boundary[i] = 0;
    for (int64_t k = offsets[i]; k < offsets[i + 1]; k++) {
      const int64_t j = cols[k];
      if (j >= first && j < end) {
        local[k] = (int32_t)(j - first);
      } else {
        local[k] = (int32_t)(own + csri_dist_ghost_of(ghosts, distinct, j));
        boundary[i] = 1;
      }
    }
  }
  int64_t at = 0; /* ghosts before rank q's: the first at or past col_starts[q] */
  for (int q = 0; q <= P; q++) {
    while (at < distinct && ghosts[at] < col_starts[q])
      at++;
    from[q] = at;
  }
  from[P] = distinct;
  return 0;
}

#endif /* CSR_KERNELS_DIST_PLAN_H */
