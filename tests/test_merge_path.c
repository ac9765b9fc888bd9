/* SPDX-License-Identifier: BSD-3-Clause */
/* The merge path of the segmented SpMV (src/kernels/merge_path.h), on the CPU:
 *  - the search against a walk of the merged sequence, on every diagonal of many row-length
 *    patterns (empty matrices, empty rows, one long row, rows ending on tile boundaries);
 *  - the cut into tiles and threads: consecutive pieces, each of the stated length, covering
 *    every nonzero and every row end once, for several tile shapes;
 *  - the whole kernel's bookkeeping emulated in the order cuda/spmv_merge.cu follows (each
 *    thread's walk, the carries combined across a tile's threads, the rows closed in a later
 *    tile than they began finished by the fix-up from the tiles' carries): y = alpha*A*x + beta*y
 *    within 4 (len + 2) eps sum_j |a_ij x_j| of a direct row sum. */
#include "kernels/merge_path.h"
#include "testing.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A pattern of row lengths as CSR offsets and random values, columns and x. */
typedef struct matrix {
  int64_t rows, nnz, cols;
  int64_t *off;
  int32_t *col;
  double *val, *x;
} matrix;

static matrix make(const int64_t *lengths, int64_t rows, csrt_rng *rng) {
  matrix m = {rows, 0, 97, calloc((size_t)rows + 1, sizeof(int64_t)), NULL, NULL, NULL};
  for (int64_t i = 0; i < rows; i++)
    m.off[i + 1] = m.off[i] + lengths[i];
  m.nnz = m.off[rows];
  m.col = malloc((size_t)(m.nnz + 1) * sizeof *m.col);
  m.val = malloc((size_t)(m.nnz + 1) * sizeof *m.val);
  m.x = malloc((size_t)m.cols * sizeof *m.x);
  for (int64_t k = 0; k < m.nnz; k++) {
    m.col[k] = (int32_t)csrt_below(rng, (uint64_t)m.cols);
    m.val[k] = csrt_uniform(rng, -1.0, 1.0);
  }
  for (int64_t j = 0; j < m.cols; j++)
    m.x[j] = csrt_uniform(rng, 0.5, 1.5);
  return m;
}

static void release(matrix *m) {
  free(m->off);
  free(m->col);
  free(m->val);
  free(m->x);
}

/* Every point of the path, found by walking the merge: a nonzero first while k < the row's end.
 * path[d] is the point on diagonal d. */
static csri_merge_coord *walk(const matrix *m) {
  int64_t total = m->rows + m->nnz;
  csri_merge_coord *path = malloc((size_t)(total + 1) * sizeof *path), c = {0, 0};
  for (int64_t d = 0; d <= total; d++) {
    path[d] = c;
    if (c.row < m->rows && c.nz < m->off[c.row + 1])
      c.nz++;
    else
      c.row++;
  }
  return path;
}

static void check_search(const matrix *m, const csri_merge_coord *path, const char *name) {
  int64_t total = m->rows + m->nnz, bad = 0;
  for (int64_t d = 0; d <= total; d++) {
    csri_merge_coord want = path[d];
    csri_merge_coord got = csri_merge_path_search(d, m->off + 1, 0, m->rows, m->nnz);
    bad += got.row != want.row || got.nz != want.nz;
  }
  CHECKF(bad == 0, "%s: %lld diagonals of %lld found the wrong point", name, (long long)bad,
         (long long)total + 1);
}

/* What the fix-up needs from each tile: the row open at its end and that row's sum within the
 * tile (its carry), and the sum of the tile's first closed row when an earlier tile holds part of
 * it (its head). */
typedef struct tile_out {
  int64_t carry_row;
  double carry, head;
  int has_head;
} tile_out;

static double finish(double alpha, double sum, double beta, double y) {
  return beta == 0.0 ? alpha * sum : alpha * sum + beta * y;
}

/* One tile as the kernel does it: every thread walks its items, closing rows; the first row a
 * thread closes takes the carries of the tile's earlier threads that hold it; the tile's first
 * closed row, when it began in an earlier tile, becomes the head. Counts what each thread
 * consumes in seen_nz / seen_row. */
static tile_out run_tile(const matrix *m, const csri_merge_coord *path, int64_t t, int threads,
                         int items, double alpha, double beta, double *y, unsigned char *seen_nz,
                         unsigned char *seen_row, int64_t *bad) {
  int64_t tile_items = (int64_t)threads * items;
  csri_merge_coord start = csri_merge_tile_start(t, tile_items, m->off, m->rows, m->nnz);
  csri_merge_coord end = csri_merge_tile_start(t + 1, tile_items, m->off, m->rows, m->nnz);
  int64_t length = (end.row - start.row) + (end.nz - start.nz);
  tile_out out = {start.row, 0.0, 0.0, 0};
  int64_t scan_row = -1; /* the inclusive carry of the threads so far: (scan_row, scan_val) */
  double scan_val = 0.0;
  /* The tile's row ends as the kernel stages them: from the tile's first nonzero, clamped. */
  int rows_in = (int)(end.row - start.row), nonzeros = (int)(end.nz - start.nz);
  int *ends = malloc((size_t)(rows_in + 1) * sizeof *ends);
  for (int i = 0; i <= rows_in && start.row + i < m->rows; i++)
    ends[i] = csri_tile_end(m->off[start.row + 1 + i], start.nz, nonzeros);
  for (int j = 0; j < threads; j++) {
    /* The tile's own 32-bit search finds the whole path's point on the tile's diagonal. */
    int64_t d = (int64_t)j * items < length ? (int64_t)j * items : length;
    csri_merge_coord g = path[start.row + start.nz + d];
    csri_tile_coord tc = csri_merge_tile_search(j * items, ends, rows_in, nonzeros);
    *bad += start.row + tc.row != g.row || start.nz + tc.nz != g.nz;
    csri_merge_coord c = {start.row + tc.row, start.nz + tc.nz}; /* the same point, whole matrix */
    int64_t mine = length - d < items ? length - d : items;      /* the thread's items */
    double sum = 0.0, first_sum = 0.0;
    int64_t first_row = -1, start_row = c.row;
    for (int64_t k = 0; k < mine; k++) {
      if (tc.nz < ends[tc.row]) { /* the walk reads only the tile's clamped ends */
        int64_t nz = start.nz + tc.nz;
        sum += m->val[nz] * m->x[m->col[nz]];
        seen_nz[nz]++;
        tc.nz++;
        c.nz++;
      } else {
        seen_row[c.row]++;
        if (first_row < 0) {
          first_row = c.row;
          first_sum = sum;
        } else {
          y[c.row] = finish(alpha, sum, beta, y[c.row]);
        }
        sum = 0.0;
        tc.row++;
        c.row++;
      }
    }
    /* The thread's carry-in: the earlier threads' carries of the row it starts in. */
    double carry_in = scan_row == start_row ? scan_val : 0.0;
    if (first_row >= 0) {
      double total = carry_in + first_sum;
      if (t > 0 && first_row == start.row) {
        out.head = total;
        out.has_head = 1;
      } else {
        y[first_row] = finish(alpha, total, beta, y[first_row]);
      }
    }
    scan_val = scan_row == c.row ? scan_val + sum : sum;
    scan_row = c.row;
  }
  free(ends);
  out.carry_row = scan_row;
  out.carry = scan_val;
  *bad += scan_row != end.row;
  return out;
}

/* The whole segmented SpMV emulated with tiles of threads x items, against direct row sums. */
static void check_kernel(const matrix *m, const csri_merge_coord *path, int threads, int items,
                         const char *name) {
  const double alpha = 1.25, beta = -0.5;
  int64_t tile_items = (int64_t)threads * items;
  int64_t tiles = csri_merge_tiles(m->rows, m->nnz, tile_items);
  double *y = malloc((size_t)(m->rows + 1) * sizeof *y);
  double *y0 = malloc((size_t)(m->rows + 1) * sizeof *y0);
  unsigned char *seen_nz = calloc((size_t)m->nnz + 1, 1),
                *seen_row = calloc((size_t)m->rows + 1, 1);
  tile_out *out = malloc((size_t)(tiles + 1) * sizeof *out);
  for (int64_t i = 0; i < m->rows; i++)
    y[i] = y0[i] = 0.25 + (double)(i % 7);
  int64_t bad = 0;
  for (int64_t t = 0; t < tiles; t++)
    out[t] = run_tile(m, path, t, threads, items, alpha, beta, y, seen_nz, seen_row, &bad);
  CHECKF(bad == 0, "%s, tiles of %d x %d: %lld thread starts or tile ends off the path", name,
         threads, items, (long long)bad);
  /* The fix-up: a head's row sums the carries of the run of earlier tiles that end in it; a run
   * of more than two groups (of GROUP tiles: small, so that short rows make long runs) reads the
   * whole groups inside it as their sums, which csri_merge_groups must have asked for. */
  enum { GROUP = 3 };
  int64_t longest = 0;
  for (int64_t i = 0; i < m->rows; i++)
    longest = m->off[i + 1] - m->off[i] > longest ? m->off[i + 1] - m->off[i] : longest;
  const int64_t groups = csri_merge_groups(tiles, tile_items, GROUP, longest);
  CHECK(groups == 0 || groups == csri_merge_groups(tiles, tile_items, GROUP, -1));
  double *group_sum = malloc((size_t)(groups + 1) * sizeof *group_sum);
  for (int64_t g = 0; g < groups; g++) {
    group_sum[g] = 0.0;
    for (int64_t s = g * GROUP; s < (g + 1) * GROUP; s++)
      group_sum[g] += out[s].carry;
  }
  int64_t unasked = 0, misplaced = 0, single_wrong = 0, run_start_wrong = 0;
  for (int64_t t = 1; t < tiles; t++) {
    if (!out[t].has_head)
      continue;
    int64_t r = csri_merge_tile_start(t, tile_items, m->off, m->rows, m->nnz).row, t0 = t - 1;
    CHECK(out[t - 1].carry_row == r);
    while (t0 > 0 && out[t0 - 1].carry_row == r)
      t0--;
    run_start_wrong += csri_merge_run_start(r, m->off[r], tile_items) != t0;
    const int64_t prev = csri_merge_tile_start(t - 1, tile_items, m->off, m->rows, m->nnz).row;
    single_wrong += csri_merge_single_run(t, prev, r) != (t0 == t - 1);
    double total = 0.0;
    if (t - t0 > 2 * GROUP && groups == 0) {
      unasked++;
    } else if (t - t0 > 2 * GROUP) {
      int64_t g0, g1;
      csri_merge_run_groups(t0, t, GROUP, &g0, &g1);
      misplaced += !(g0 * GROUP >= t0 && g0 < g1 && g1 * GROUP <= t && g1 <= groups);
      for (int64_t s = t0; s < g0 * GROUP; s++)
        total += out[s].carry;
      for (int64_t g = g0; g < g1 && g < groups; g++)
        total += group_sum[g];
      for (int64_t s = g1 * GROUP; s < t; s++)
        total += out[s].carry;
    } else {
      for (int64_t s = t0; s < t; s++)
        total += out[s].carry;
    }
    y[r] = finish(alpha, total + out[t].head, beta, y[r]);
  }
  CHECKF(unasked == 0, "%s, tiles of %d x %d: %lld runs longer than two groups, none summed", name,
         threads, items, (long long)unasked);
  CHECKF(misplaced == 0, "%s, tiles of %d x %d: %lld runs' groups outside them", name, threads,
         items, (long long)misplaced);
  CHECKF(single_wrong == 0, "%s, tiles of %d x %d: %lld heads' runs misjudged single or longer",
         name, threads, items, (long long)single_wrong);
  CHECKF(run_start_wrong == 0, "%s, tiles of %d x %d: %lld heads' runs started elsewhere", name,
         threads, items, (long long)run_start_wrong);
  free(group_sum);
  int64_t wrong = 0, once = 0;
  for (int64_t k = 0; k < m->nnz; k++)
    once += seen_nz[k] != 1;
  for (int64_t i = 0; i < m->rows; i++) {
    once += seen_row[i] != 1;
    double sum = 0.0, size = 0.0;
    for (int64_t k = m->off[i]; k < m->off[i + 1]; k++) {
      sum += m->val[k] * m->x[m->col[k]];
      size += fabs(m->val[k] * m->x[m->col[k]]);
    }
    double want = alpha * sum + beta * y0[i];
    double bound = 4.0 * (double)(m->off[i + 1] - m->off[i] + 2) * DBL_EPSILON *
                   (fabs(alpha) * size + fabs(beta * y0[i]));
    wrong += !(fabs(y[i] - want) <= bound);
  }
  CHECKF(once == 0, "%s, tiles of %d x %d: %lld nonzeros or row ends not consumed exactly once",
         name, threads, items, (long long)once);
  CHECKF(wrong == 0, "%s, tiles of %d x %d: %lld rows outside the bound", name, threads, items,
         (long long)wrong);
  free(y);
  free(y0);
  free(seen_nz);
  free(seen_row);
  free(out);
}

/* The tile shapes tried: tiny ones put every row across many tiles and threads; the last two are
 * the CUDA kernel's (CSRI_SPMV_MERGE_THREADS x CSRI_SPMV_MERGE_ITEMS for f64, _ITEMS_F32 for
 * f32). */
static const int shapes[][2] = {{1, 1},  {1, 3},   {2, 1},   {3, 2},  {4, 7},
                                {32, 5}, {128, 7}, {256, 7}, {256, 9}};

static void check_all(const int64_t *lengths, int64_t rows, const char *name, csrt_rng *rng) {
  matrix m = make(lengths, rows, rng);
  csri_merge_coord *path = walk(&m);
  check_search(&m, path, name);
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    check_kernel(&m, path, shapes[s][0], shapes[s][1], name);
  free(path);
  release(&m);
}

int main(void) {
  csrt_rng rng = {csrt_seed("test_merge_path")};
  static const int64_t none[1] = {0}, one_empty[1] = {0}, empties[5] = {0, 0, 0, 0, 0};
  static const int64_t single[1] = {9}, mixed[8] = {1, 0, 3, 0, 0, 7, 2, 0};
  check_all(none, 0, "0 x 0", &rng);
  check_all(one_empty, 1, "one empty row", &rng);
  check_all(empties, 5, "five empty rows", &rng);
  check_all(single, 1, "one row of 9", &rng);
  check_all(mixed, 8, "mixed with empty rows", &rng);
  /* Rows either side of a tile of 128 x 7 = 896 and of 256 x 7 = 1792 items (a row end is an
   * item too), and one row holding most of the entries among short ones. */
  int64_t around[9] = {895, 1, 896, 0, 897, 6, 7, 8, 0};
  check_all(around, 9, "rows around a 896-item tile", &rng);
  int64_t around_big[9] = {1791, 1, 1792, 0, 1793, 6, 7, 8, 0};
  check_all(around_big, 9, "rows around a 1792-item tile", &rng);
  enum { R = 700 };
  int64_t lengths[R];
  for (int i = 0; i < R; i++)
    lengths[i] = (int64_t)csrt_below(&rng, 4);
  lengths[R / 3] = 5000;
  check_all(lengths, R, "one long row among short ones", &rng);
  for (int i = 0; i < R; i++) /* uneven: lengths spread over four decades */
    lengths[i] = (int64_t)pow(10.0, csrt_uniform(&rng, 0.0, 3.0)) - 1;
  check_all(lengths, R, "uneven rows", &rng);
  for (int i = 0; i < R; i++)
    lengths[i] = i % 2 ? 0 : 16;
  check_all(lengths, R, "every other row empty", &rng);
  return csrt_finish("test_merge_path");
}
