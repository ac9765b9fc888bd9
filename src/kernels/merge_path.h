/* SPDX-License-Identifier: BSD-3-Clause */
/* The merge path of a CSR matrix (Merrill and Garland, "Merge-based parallel sparse matrix-vector
 * multiplication", SC 2016), the partition of the segmented SpMV kernel, in one definition for C
 * and CUDA so that the CPU tests check the GPU's arithmetic. Internal.
 *
 * The path merges the rows' ends e_i = row_offsets[i + 1] (i = 0 .. rows - 1) with the nonzero
 * indices k = 0 .. nnz - 1, a nonzero first when k < e_i: walking it, nonzero k adds a_k x_{c_k}
 * into the open row's sum and a row end closes the row. It has rows + nnz items; cutting it into
 * pieces of equal length gives every thread the same work whatever the row lengths, and a piece
 * starts at coordinate (i, k), i row ends and k nonzeros before it, found by a binary search on
 * the diagonal i + k = d. */
#ifndef CSR_KERNELS_MERGE_PATH_H
#define CSR_KERNELS_MERGE_PATH_H

#include "kernels/host_device.h"

#include <stdint.h>

/* A point of the path: `row` row ends and `nz` nonzeros lie before it. */
typedef struct csri_merge_coord {
  int64_t row, nz;
} csri_merge_coord;

/* The point on diagonal d (0 <= d <= rows + nnz) of the path of row ends `ends[0 .. rows)`, each
 * an offset counted from `base` (ends[i] - base is row i's end among the nnz nonzeros): the
 * largest i with ends[i - 1] - base <= d - i, i.e. every row end before the point has no nonzero
 * of its row after it. */
CSRI_HD csri_merge_coord csri_merge_path_search(int64_t d, const int64_t *ends, int64_t base,
                                                int64_t rows, int64_t nnz) {
  int64_t lo = d > nnz ? d - nnz : 0, hi = d < rows ? d : rows;
  while (lo < hi) {
    int64_t pivot = lo + (hi - lo) / 2;
    if (ends[pivot] - base <= d - pivot - 1)
      lo = pivot + 1;
    else
      hi = pivot;
  }
  csri_merge_coord c = {lo, d - lo};
  return c;
}

/* Tiles of `tile_items` path items (the last one shorter) covering the whole path: the grid of
 * the segmented kernel; 0 for an empty path. */
CSRI_HD int64_t csri_merge_tiles(int64_t rows, int64_t nnz, int64_t tile_items) {
  return (rows + nnz + tile_items - 1) / tile_items;
}

/* Where tile t starts: the point on diagonal min(t * tile_items, rows + nnz) of the whole matrix's
 * path (row_offsets[1 ..] as the ends, base 0). Tile t covers [start(t), start(t + 1)). */
CSRI_HD csri_merge_coord csri_merge_tile_start(int64_t t, int64_t tile_items,
                                               const int64_t *row_offsets, int64_t rows,
                                               int64_t nnz) {
  int64_t d = t * tile_items, total = rows + nnz;
  return csri_merge_path_search(d < total ? d : total, row_offsets + 1, 0, rows, nnz);
}

/* The fix-up's group sums (cuda/spmv_merge.cu): the carries of every `group` consecutive tiles
 * are summed once, so that a row spanning many tiles is assembled from the sums of the whole
 * groups inside its run of tiles and the carries at the run's two ends. The full groups to sum:
 * tiles / group when a row of `longest` entries (-1: not known) may give a run of more than two
 * groups (a row of L entries ends at most L / tile_items + 1 tiles), else 0. */
CSRI_HD int64_t csri_merge_groups(int64_t tiles, int64_t tile_items, int64_t group,
                                  int64_t longest) {
  const int long_run = longest < 0 || longest > (2 * group - 2) * tile_items;
  return long_run && tiles > 2 * group ? tiles / group : 0;
}

/* The whole groups [*g0, *g1) inside a run of tiles [t0, t) longer than two groups; the run's
 * carries outside them are [t0, *g0 group) and [*g1 group, t). */
CSRI_HD void csri_merge_run_groups(int64_t t0, int64_t t, int64_t group, int64_t *g0, int64_t *g1) {
  *g0 = (t0 + group - 1) / group;
  *g1 = t / group;
}

/* Whether tile t's (t >= 1) head row, the row open where it starts (start_row), has tile t - 1
 * alone as its run of carries: tile s's carry is the row open at its end, starts[s + 1].row, so
 * the run reaches back past t - 1 exactly when that row was already open where t - 1 started
 * (prev_start_row). The fix-up finishes such a head with one addition, carry[t - 1] + head[t]. */
CSRI_HD int csri_merge_single_run(int64_t t, int64_t prev_start_row, int64_t start_row) {
  return t == 1 || prev_start_row != start_row;
}

/* The first tile of a head row's run, from the row's own offset instead of a search over the
 * carries: tile s's carry is row r exactly when the start of tile s + 1, diagonal (s + 1)
 * tile_items, lies on row r's stretch of the path, which begins at diagonal r + row_offsets[r] (r
 * row ends and row_offsets[r] nonzeros before it), so the run starts at the smallest such s. Only
 * for a row that some tile t > s starts on, as a head row does. */
CSRI_HD int64_t csri_merge_run_start(int64_t row, int64_t row_begin, int64_t tile_items) {
  const int64_t s = (row + row_begin + tile_items - 1) / tile_items - 1;
  return s > 0 ? s : 0;
}

/* A point of one tile's path, counted from the tile's start: the kernel walks a tile in 32-bit
 * arithmetic (a tile holds far fewer than 2^31 items), half the instructions of 64-bit. */
typedef struct csri_tile_coord {
  int row, nz;
} csri_tile_coord;

/* Row i's end within a tile that starts at nonzero `base` and holds `nnz` nonzeros: counted from
 * the tile's first nonzero and clamped to nnz (the row open at the tile's end ends, as far as the
 * tile's walk can tell, where the tile does). */
CSRI_HD int csri_tile_end(int64_t row_end, int64_t base, int nnz) {
  int64_t e = row_end - base;
  return e < nnz ? (int)e : nnz;
}

/* Where a thread of a tile starts: the point on the tile's diagonal d (clamped to the tile's
 * length), from the tile's start, by csri_merge_path_search's rule on the tile's `rows` row ends
 * (tile_ends[0 .. rows), made by csri_tile_end) and `nnz` nonzeros. */
CSRI_HD csri_tile_coord csri_merge_tile_search(int d, const int *tile_ends, int rows, int nnz) {
  d = d < rows + nnz ? d : rows + nnz;
  int lo = d > nnz ? d - nnz : 0, hi = d < rows ? d : rows;
  while (lo < hi) {
    int pivot = lo + (hi - lo) / 2;
    if (tile_ends[pivot] <= d - pivot - 1)
      lo = pivot + 1;
    else
      hi = pivot;
  }
  csri_tile_coord c = {lo, d - lo};
  return c;
}

#endif
