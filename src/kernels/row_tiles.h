/* SPDX-License-Identifier: BSD-3-Clause */
/* The row tiles of the stream SpMV kernel (CSR-stream: Greathouse and Daga, "Efficient sparse
 * matrix-vector multiplication on GPUs using the CSR storage format", SC 2014), in one definition
 * for C and CUDA so that the CPU tests check the GPU's arithmetic. Internal.
 *
 * A tile is a run of whole rows: tile t holds the rows whose start lies in the window
 * [t * window, (t + 1) * window) of the merge path (src/kernels/merge_path.h), where row r starts
 * at item row_offsets[r] + r. Every row, empty or not, takes at least one item, so a tile holds at
 * most `window` rows; and its nonzeros are fewer than window + the longest row, since its last row
 * starts inside the window. A tile whose nonzeros fit the block's staging capacity is staged whole
 * in shared memory and each row summed there by a group of lanes; a tile that does not (it holds a
 * row longer than capacity - window) is summed row by row from global memory. */
#ifndef CSR_KERNELS_ROW_TILES_H
#define CSR_KERNELS_ROW_TILES_H

#include "kernels/host_device.h"

#include <stdint.h>

/* Tiles of `window` path items covering the whole path (rows + nnz items); 0 when there is
 * nothing (no rows). */
CSRI_HD int64_t csri_row_tiles(int64_t rows, int64_t nnz, int64_t window) {
  return (rows + nnz + window - 1) / window;
}

/* The first row of tile t: the smallest r in [0, rows] with row_offsets[r] + r >= t * window
 * (rows when there is none: the end of the last tile). row_offsets[r] + r grows strictly with r,
 * so the tiles' rows are disjoint and cover every row once. */
CSRI_HD int64_t csri_row_tile_start(int64_t t, int64_t window, const int64_t *row_offsets,
                                    int64_t rows) {
  int64_t d = t * window, lo = 0, hi = rows;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (row_offsets[mid] + mid < d)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The lanes that sum each row of a staged tile of `tile_rows` rows on `threads` threads: the
 * largest power of two up to 32 with every row its own group at once (at least 1). A tile's rows
 * number about window / (mean length + 1), so each lane sums about window / threads products,
 * whatever the mean length. */
CSRI_HD int csri_row_tile_lanes(int tile_rows, int threads) {
  int lanes = 1;
  while (lanes < 32 && 2 * lanes * tile_rows <= threads)
    lanes *= 2;
  return lanes;
}

#endif
