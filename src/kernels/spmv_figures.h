/* SPDX-License-Identifier: BSD-3-Clause */
/* The figures the SpMV plan reads from a matrix's row-length statistics: the typical row, the
 * share of nonzeros near it, the steps the longest row takes on its lanes, the fill of a vector
 * kernel's groups, a stream tile's estimates. Pure functions, the same for C and CUDA, so that
 * the CPU tests check every threshold (src/kernels/spmv_tuning.h) either side. Internal. */
#ifndef CSR_KERNELS_SPMV_FIGURES_H
#define CSR_KERNELS_SPMV_FIGURES_H

#include "csr.h"
#include "kernels/row_tiles.h"
#include "kernels/spmv_tuning.h"

#include <string.h>

/* What decided (csri_spmv_pick.why); src/ops/spmv_choice.c words each one. */
typedef enum csri_spmv_why {
  CSRI_WHY_FORCED = 0,  /* the context's kernel override */
  CSRI_WHY_NO_WORK,     /* no rows or no nonzeros */
  CSRI_WHY_EMPTY_ROWS,  /* too many empty rows for a row kernel */
  CSRI_WHY_UNEVEN,      /* the nonzeros spread over rows of very different lengths */
  CSRI_WHY_LONGEST_ROW, /* rows regular, but the longest would hold up its group */
  CSRI_WHY_SHORT_ROWS,  /* regular short rows: scalar */
  CSRI_WHY_FULL_GROUPS, /* regular longer rows of one length that fills its groups: vector */
  CSRI_WHY_IDLE_LANES,  /* regular longer rows that would leave lanes idle: segmented */
  CSRI_WHY_ROWS_FIT     /* every row fits a stream tile, none holds its tile up: stream */
} csri_spmv_why;

typedef struct csri_spmv_pick {
  csr_spmv_kernel kernel; /* one of the registry's (src/kernels/spmv_registry.h), never AUTO */
  int lanes;              /* per row: 1 (scalar), 2..32 (vector), 0 (a tiled kernel) */
  csri_spmv_why why;
  /* The figures the rules read, and the reason words: */
  int typical_bin;       /* the log2 bin holding the median nonzero */
  double regular_share;  /* share of nonzeros in bins typical_bin - 1 .. typical_bin + 1 */
  double nonempty_mean;  /* nnz / non-empty rows */
  int row_lanes;         /* a row kernel's lanes a row: 1 for short rows, else the vector's */
  double longest_steps;  /* the longest row's steps on its group: longest / row_lanes */
  double lane_share;     /* nnz / lanes resident on the GPU */
  double group_fill;     /* mean / (lanes x passes) of the vector kernel's groups */
  double spread_squared; /* (standard deviation of the row lengths / mean)^2 */
  double stream_steps;   /* the longest row's steps on its lanes in a stream tile of typical rows */
  double stream_share;   /* a lane's even share of such a tile's nonzeros */
  double gather_lines;   /* x lines a scalar warp's step touches per lane (csri_gather_lines) */
  /* What keeps a row kernel away (each alone is enough): */
  int many_empty; /* more than CSRI_SPMV_EMPTY_SHARE of the rows are empty */
  int uneven;     /* regular_share below CSRI_SPMV_REGULAR_SHARE */
  int long_row;   /* longest_steps above csri_longest_steps_allowed */
  int scattered;  /* gather_lines above CSRI_SPMV_SCALAR_LINES: keeps the scalar kernel away */
} csri_spmv_pick;

/* Nonzeros in log2 bin b, estimated as its rows times the bin's middle length (0.75 * 2^b; bin 0
 * holds the empty rows). The shares below only compare bins, so the estimate's error cancels. */
static inline double csri_bin_nonzeros(const csr_row_stats *s, int b) {
  return b == 0 ? 0.0 : (double)s->histogram[b] * 0.75 * (double)((int64_t)1 << b);
}

/* The lanes per row of the vector kernel for rows of `mean` entries: the smallest power of two
 * from 2 to 32 covering it. */
static inline int csri_vector_lanes(double mean) {
  int w = 2;
  while (w < 32 && w < mean)
    w *= 2;
  return w;
}

/* The steps a row kernel may spend on the longest row, for a lane's share of the product. */
static inline double csri_longest_steps_allowed(double lane_share) {
  double steps = CSRI_SPMV_LONGEST_STEPS_FACTOR * lane_share;
  return steps > CSRI_SPMV_LONGEST_STEPS_MIN ? steps : CSRI_SPMV_LONGEST_STEPS_MIN;
}

/* A stream tile of typical rows (mean: nnz / rows, empty rows counted, since each row takes one
 * item of the tile's window): the longest row's steps on the lanes that such a tile gives a row
 * (csri_row_tile_lanes), and a lane's even share of the tile's nonzeros. The window is f64's, the
 * smaller: the figures are estimates, and the choice must not depend on the value type. */
static inline void csri_stream_estimate(const csr_row_stats *s, double *steps, double *share) {
  const double window =
      (double)(CSRI_SPMV_STREAM_THREADS * CSRI_SPMV_STREAM_ITEMS - CSRI_SPMV_STREAM_LONGEST);
  double tile_rows = window / (s->mean + 1.0);
  int lanes = csri_row_tile_lanes(tile_rows < 1.0 ? 1 : (int)tile_rows, CSRI_SPMV_STREAM_THREADS);
  *steps = (double)s->longest / (double)lanes;
  *share = window * s->mean / (s->mean + 1.0) / (double)CSRI_SPMV_STREAM_THREADS;
}

/* The share of A's nonzeros in the typical row's bin and those either side, and that bin. */
static inline double csri_regular_share(const csr_row_stats *s, int *typical_bin) {
  double total = 0.0, below = 0.0, near = 0.0;
  for (int b = 1; b < CSR_HIST_BINS; b++)
    total += csri_bin_nonzeros(s, b);
  *typical_bin = 1;
  for (int b = 1; b < CSR_HIST_BINS; b++) { /* the bin where half the nonzeros are reached */
    below += csri_bin_nonzeros(s, b);
    if (below >= 0.5 * total) {
      *typical_bin = b;
      break;
    }
  }
  for (int b = *typical_bin - 1; b <= *typical_bin + 1; b++)
    if (b >= 1 && b < CSR_HIST_BINS)
      near += csri_bin_nonzeros(s, b);
  return total > 0.0 ? near / total : 1.0;
}

/* Every figure of p for a matrix with statistics s and gather lines `gather_lines` on a GPU
 * holding `resident_lanes` threads at once (CSRI_SPMV_RESIDENT_LANES; the tests vary it). A matrix
 * without a non-empty row has none: 0, with p zeroed and p->why CSRI_WHY_NO_WORK; else 1. */
static inline int csri_spmv_figures(const csr_row_stats *s, double gather_lines,
                                    double resident_lanes, csri_spmv_pick *p) {
  memset(p, 0, sizeof *p);
  p->why = CSRI_WHY_NO_WORK;
  int64_t nonempty = s->rows - s->empty_rows;
  if (s->rows == 0 || s->nnz == 0 || nonempty <= 0)
    return 0;
  p->nonempty_mean = (double)s->nnz / (double)nonempty;
  p->lane_share = (double)s->nnz / (resident_lanes > 1.0 ? resident_lanes : 1.0);
  p->regular_share = csri_regular_share(s, &p->typical_bin);
  const int lanes =
      p->nonempty_mean <= CSRI_SPMV_SCALAR_MEAN ? 1 : csri_vector_lanes(p->nonempty_mean);
  p->row_lanes = lanes;
  p->longest_steps = (double)s->longest / (double)lanes;
  double passes = (double)(int64_t)(p->nonempty_mean / (double)lanes); /* rounded up: */
  passes += passes * (double)lanes < p->nonempty_mean ? 1.0 : 0.0;
  p->group_fill = p->nonempty_mean / ((double)lanes * passes);
  p->spread_squared = s->variance / (s->mean * s->mean);
  csri_stream_estimate(s, &p->stream_steps, &p->stream_share);
  p->many_empty = (double)s->empty_rows > CSRI_SPMV_EMPTY_SHARE * (double)s->rows;
  p->uneven = p->regular_share < CSRI_SPMV_REGULAR_SHARE;
  p->long_row = p->longest_steps > csri_longest_steps_allowed(p->lane_share);
  p->gather_lines = gather_lines;
  p->scattered = gather_lines > CSRI_SPMV_SCALAR_LINES;
  return 1;
}

#endif /* CSR_KERNELS_SPMV_FIGURES_H */
