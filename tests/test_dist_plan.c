/* SPDX-License-Identifier: BSD-3-Clause */
/* The distributed matrix's arithmetic (src/kernels/dist_plan.h), its ranks simulated in one
 * process: the row split by weight (contiguous, covering, within one row's weight of the mean,
 * more ranks than rows), the owner of every index, and each rank's halo plan (ghosts sorted,
 * distinct and foreign, slices per owner, the rows that wait for them), checked by the product it
 * gives: every row of [A_r] [x_own ; x_ghost] bitwise equal to the single-process row sum in
 * stored order, on random, power-law, banded, empty-row and dense-row matrices, for 1 to 16
 * ranks. */
#include "kernels/dist_plan.h"
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A global matrix: rows x rows, entries in stored order (columns unsorted within a row). */
typedef struct matrix {
  int64_t rows, *offsets, *cols;
  double *values;
} matrix;

enum { RANDOM, POWER_LAW, BANDED, EMPTY_ROWS, DENSE_ROW, SHAPES };
static const char *shape_names[SHAPES] = {"random", "power-law", "banded", "empty rows",
                                          "dense row"};

static int64_t row_length(int shape, int64_t i, int64_t n, csrt_rng *rng) {
  switch (shape) {
  case RANDOM: return (int64_t)csrt_below(rng, 13);
  case POWER_LAW: { /* P(length >= L) ~ 1/L: a few rows hold a large share */
    double u = csrt_uniform(rng, 1e-6, 1.0);
    int64_t len = (int64_t)(1.0 / u);
    return len < n ? len : n;
  }
  case BANDED: return i < 3 || i >= n - 3 ? 3 : 7;
  case EMPTY_ROWS: return i % 2 ? 0 : 1 + (int64_t)csrt_below(rng, 6);
  default: return i == n / 2 ? n : 2;
  }
}

static matrix make(int shape, int64_t n, csrt_rng *rng) {
  matrix m = {n, malloc((size_t)(n + 1) * sizeof(int64_t)), NULL, NULL};
  m.offsets[0] = 0;
  for (int64_t i = 0; i < n; i++)
    m.offsets[i + 1] = m.offsets[i] + row_length(shape, i, n, rng);
  const int64_t nnz = m.offsets[n];
  m.cols = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof(int64_t));
  m.values = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof(double));
  for (int64_t i = 0; i < n; i++)
    for (int64_t k = m.offsets[i]; k < m.offsets[i + 1]; k++) {
      const int64_t t = k - m.offsets[i];
      if (shape == BANDED)
        m.cols[k] = i + t - 3 < 0 ? t : i + t - 3 >= n ? n - 1 - t : i + t - 3;
      else if (shape == DENSE_ROW && i == n / 2)
        m.cols[k] = (t * 7919) % n; /* every column once (7919 is prime, n is not its multiple) */
      else
        m.cols[k] = (int64_t)csrt_below(rng, (uint64_t)n);
      m.values[k] = csrt_uniform(rng, -1.0, 1.0);
    }
  return m;
}

static void release(matrix *m) {
  free(m->offsets);
  free(m->cols);
  free(m->values);
}

/* The split's contract: starts from 0 to rows, never decreasing, each block's weight within one
 * row's weight (plus one for rounding) of the mean, and csri_dist_owner agreeing everywhere. */
static void check_split(const matrix *m, int P, const int64_t *starts, const char *name) {
  const int64_t total = m->offsets[m->rows] + m->rows;
  int64_t heaviest_row = 0;
  for (int64_t i = 0; i < m->rows; i++)
    if (m->offsets[i + 1] - m->offsets[i] + 1 > heaviest_row)
      heaviest_row = m->offsets[i + 1] - m->offsets[i] + 1;
  CHECKF(starts[0] == 0 && starts[P] == m->rows, "%s P=%d: starts %lld..%lld", name, P,
         (long long)starts[0], (long long)starts[P]);
  for (int r = 0; r < P; r++) {
    CHECKF(starts[r] <= starts[r + 1], "%s P=%d: block %d decreases", name, P, r);
    const int64_t weight =
        m->offsets[starts[r + 1]] + starts[r + 1] - (m->offsets[starts[r]] + starts[r]);
    CHECKF(weight <= total / P + 1 + heaviest_row, "%s P=%d: block %d weighs %lld, mean %lld", name,
           P, r, (long long)weight, (long long)(total / P));
  }
  for (int64_t i = 0; i < m->rows; i++) {
    const int q = csri_dist_owner(starts, P, i);
    CHECKF(q >= 0 && q < P && starts[q] <= i && i < starts[q + 1], "%s P=%d: owner of %lld is %d",
           name, P, (long long)i, q);
  }
}

/* Rank r's plan, then its rows' products from [x_own ; x_ghost] against the global row sums. */
static void check_rank(const matrix *m, int P, const int64_t *starts, int r, const double *x,
                       const double *y, const char *name) {
  const int64_t first = starts[r], rows = starts[r + 1] - first, base = m->offsets[first];
  const int64_t nnz = m->offsets[starts[r + 1]] - base, own = rows;
  int64_t *offsets = malloc((size_t)(rows + 1) * sizeof *offsets);
  for (int64_t i = 0; i <= rows; i++)
    offsets[i] = m->offsets[first + i] - base;
  int64_t *ghosts = malloc((size_t)(nnz + 1) * sizeof *ghosts), count = -1;
  int32_t *local = malloc((size_t)(nnz + 1) * sizeof *local);
  uint8_t *boundary = malloc((size_t)(rows + 1));
  int64_t *from = malloc((size_t)(P + 1) * sizeof *from);
  CHECKF(csri_dist_plan(rows, offsets, m->cols + base, r, P, starts, ghosts, &count, local,
                        boundary, from) == 0,
         "%s P=%d rank %d: plan refused", name, P, r);
  for (int64_t g = 0; g < count; g++) {
    CHECKF(ghosts[g] < first || ghosts[g] >= starts[r + 1], "%s: ghost %lld is owned", name,
           (long long)ghosts[g]);
    CHECKF(g == 0 || ghosts[g - 1] < ghosts[g], "%s P=%d rank %d: ghosts not sorted and distinct",
           name, P, r);
  }
  CHECKF(from[0] == 0 && from[P] == count && from[r] == from[r + 1], "%s P=%d rank %d: slices",
         name, P, r);
  for (int q = 0; q < P; q++)
    for (int64_t g = from[q]; g < from[q + 1]; g++)
      CHECKF(csri_dist_owner(starts, P, ghosts[g]) == q, "%s P=%d rank %d: ghost %lld not %d's",
             name, P, r, (long long)ghosts[g], q);
  /* x as the rank sees it once the halo has arrived */
  double *xs = malloc((size_t)(own + count + 1) * sizeof *xs);
  for (int64_t j = 0; j < own; j++)
    xs[j] = x[first + j];
  for (int64_t g = 0; g < count; g++)
    xs[own + g] = x[ghosts[g]];
  for (int64_t i = 0; i < rows; i++) {
    double sum = 0.0;
    int reads_ghost = 0;
    for (int64_t k = offsets[i]; k < offsets[i + 1]; k++) {
      CHECK(local[k] >= 0 && local[k] < own + count);
      reads_ghost |= local[k] >= own;
      sum += m->values[base + k] * xs[local[k]];
    }
    CHECKF(boundary[i] == reads_ghost, "%s P=%d rank %d: row %lld boundary %d", name, P, r,
           (long long)(first + i), boundary[i]);
    CHECKF(memcmp(&sum, &y[first + i], sizeof sum) == 0,
           "%s P=%d rank %d: row %lld sums to %.17g, one process %.17g", name, P, r,
           (long long)(first + i), sum, y[first + i]);
  }
  free(xs);
  free(offsets);
  free(ghosts);
  free(local);
  free(boundary);
  free(from);
}

static void check_matrix(const matrix *m, const char *name, csrt_rng *rng) {
  const int ranks[] = {1, 2, 3, 4, 7, 16};
  double *x = malloc((size_t)(m->rows + 1) * sizeof *x), *y = malloc((size_t)(m->rows + 1) * 8);
  for (int64_t j = 0; j < m->rows; j++)
    x[j] = csrt_uniform(rng, -1.0, 1.0);
  for (int64_t i = 0; i < m->rows; i++) { /* the single process: each row in stored order */
    double sum = 0.0;
    for (int64_t k = m->offsets[i]; k < m->offsets[i + 1]; k++)
      sum += m->values[k] * x[m->cols[k]];
    y[i] = sum;
  }
  for (size_t p = 0; p < sizeof ranks / sizeof *ranks; p++) {
    const int P = ranks[p];
    int64_t starts[17];
    csri_dist_split(m->offsets, m->rows, P, starts);
    check_split(m, P, starts, name);
    for (int r = 0; r < P; r++)
      check_rank(m, P, starts, r, x, y, name);
  }
  free(x);
  free(y);
}

/* A column outside the matrix is refused, not renamed. */
static void test_bad_column(void) {
  const int64_t offsets[2] = {0, 2}, cols[2] = {0, 5}, starts[3] = {0, 1, 3};
  int64_t ghosts[2], count = 0, from[3];
  int32_t local[2];
  uint8_t boundary[1];
  CHECK(csri_dist_plan(1, offsets, cols, 0, 2, starts, ghosts, &count, local, boundary, from) ==
        -1);
}

/* The targets never overflow: total near 2^62 over 2^31 - 1 ranks. */
static void test_targets(void) {
  const int64_t total = (int64_t)1 << 62;
  const int P = 2147483647;
  CHECK(csri_dist_target(total, 0, P) == 0);
  CHECK(csri_dist_target(total, P, P) == total);
  CHECK(csri_dist_target(total, P / 2, P) < total / 2 &&
        csri_dist_target(total, P / 2 + 1, P) > total / 2);
  for (int P2 = 1; P2 <= 9; P2++)
    for (int r = 0; r <= P2; r++)
      CHECK(csri_dist_target(1000003, r, P2) == (int64_t)(1000003.0 * r / P2));
}

int main(void) {
  csrt_rng rng = {csrt_seed("test_dist_plan")};
  const int64_t sizes[] = {3, 50, 2000};
  for (int s = 0; s < SHAPES; s++)
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
      matrix m = make(s, sizes[z], &rng);
      char name[64];
      snprintf(name, sizeof name, "%s n=%lld", shape_names[s], (long long)sizes[z]);
      check_matrix(&m, name, &rng);
      release(&m);
    }
  test_bad_column();
  test_targets();
  return csrt_finish("test_dist_plan");
}
