/* SPDX-License-Identifier: BSD-3-Clause */
/* The row tiles of the stream SpMV (src/kernels/row_tiles.h), on the CPU, for many row-length
 * patterns (no rows, empty rows and runs of them, one long row, rows either side of the longest
 * a tile stages, rows ending on window boundaries) and several windows:
 *  - the tiles' first rows against a direct scan of the rows' path positions;
 *  - the tiles cover every row once, in order, each holding at most `window` rows and fewer than
 *    window + longest nonzeros, so that rows of at most capacity - window entries always fit;
 *  - the lanes per row: a power of two up to 32 whose groups cover the tile's rows in one round
 *    when they can, and not half as many. */
#include "kernels/row_tiles.h"
#include "testing.h"

#include <stdlib.h>

/* The first row r with off[r] + r >= d, by a scan (rows when none). */
static int64_t first_row_at(const int64_t *off, int64_t rows, int64_t d) {
  int64_t r = 0;
  while (r < rows && off[r] + r < d)
    r++;
  return r;
}

static void check_tiles(const int64_t *len, int64_t rows, int64_t window, const char *what) {
  int64_t *off = calloc((size_t)rows + 1, sizeof *off), longest = 0;
  for (int64_t i = 0; i < rows; i++) {
    off[i + 1] = off[i] + len[i];
    longest = len[i] > longest ? len[i] : longest;
  }
  int64_t nnz = off[rows], tiles = csri_row_tiles(rows, nnz, window);
  CHECKF(tiles == (rows + nnz + window - 1) / window, "%s: %lld tiles", what, (long long)tiles);
  int64_t covered = 0;
  for (int64_t t = 0; t < tiles; t++) {
    int64_t first = csri_row_tile_start(t, window, off, rows);
    int64_t end = csri_row_tile_start(t + 1, window, off, rows);
    CHECKF(first == first_row_at(off, rows, t * window), "%s: tile %lld starts at row %lld", what,
           (long long)t, (long long)first);
    CHECKF(first == covered, "%s: tile %lld starts at %lld, not where the last ended (%lld)", what,
           (long long)t, (long long)first, (long long)covered);
    CHECKF(end - first <= window, "%s: tile %lld holds %lld rows", what, (long long)t,
           (long long)(end - first));
    int64_t tile_nnz = off[end] - off[first];
    CHECKF(tile_nnz < window + longest || tile_nnz == 0, "%s: tile %lld holds %lld nonzeros", what,
           (long long)t, (long long)tile_nnz);
    covered = end;
  }
  CHECKF(covered == rows, "%s: the tiles end at row %lld of %lld", what, (long long)covered,
         (long long)rows);
  CHECK(csri_row_tile_start(tiles, window, off, rows) == rows);
  free(off);
}

static void test_tiles(csrt_rng *rng) {
  const int64_t windows[] = {1, 7, 64, 1024, 1280};
  enum { N = 6000 };
  int64_t *len = malloc(N * sizeof *len);
  for (int w = 0; w < 5; w++) {
    int64_t window = windows[w];
    check_tiles(len, 0, window, "no rows");
    for (int64_t i = 0; i < N; i++)
      len[i] = 0;
    check_tiles(len, N, window, "all rows empty");
    for (int64_t i = 0; i < N; i++)
      len[i] = (int64_t)csrt_below(rng, 30);
    check_tiles(len, N, window, "random rows of 0 to 29");
    for (int64_t i = 0; i < N; i++)
      len[i] = (i / 500) % 2 ? 0 : 1 + (int64_t)csrt_below(rng, 20);
    check_tiles(len, N, window, "runs of 500 empty rows");
    for (int64_t i = 0; i < N; i++)
      len[i] = i % 7 ? 3 : 254 + (int64_t)csrt_below(rng, 5);
    check_tiles(len, N, window, "rows either side of 256");
    for (int64_t i = 0; i < N; i++)
      len[i] = i == N / 3 ? 100000 : 2;
    check_tiles(len, N, window, "one long row");
    for (int64_t i = 0; i < N; i++) /* each row and its end fill a window exactly */
      len[i] = window - 1;
    check_tiles(len, N, window, "rows of window - 1");
    check_tiles(len, 1, window, "one row");
  }
  free(len);
}

static void test_lanes(void) {
  for (int threads = 32; threads <= 1024; threads *= 2)
    for (int rows = 0; rows <= 2 * threads; rows++) {
      int lanes = csri_row_tile_lanes(rows, threads);
      CHECK(lanes >= 1 && lanes <= 32 && (lanes & (lanes - 1)) == 0);
      if (lanes > 1) /* every row a group at once */
        CHECKF(lanes * rows <= threads, "%d rows on %d threads: %d lanes", rows, threads, lanes);
      if (lanes < 32) /* and no more lanes would do */
        CHECKF(2 * lanes * rows > threads, "%d rows on %d threads: %d lanes", rows, threads, lanes);
    }
  CHECK(csri_row_tile_lanes(37, 256) == 4 && csri_row_tile_lanes(300, 256) == 1);
  CHECK(csri_row_tile_lanes(1, 256) == 32 && csri_row_tile_lanes(0, 256) == 32);
}

int main(void) {
  csrt_rng rng = {csrt_seed("test_row_tiles")};
  test_tiles(&rng);
  test_lanes();
  return csrt_finish("test_row_tiles");
}
