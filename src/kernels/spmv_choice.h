/* The SpMV kernel for a matrix, from its row-length statistics alone: a pure function, the same
 * for C and CUDA, so that the CPU tests check every threshold either side. Internal.
 *
 * The row kernels (scalar: a thread per row; vector: a group of lanes per row) read each row in
 * one pass and need no second kernel, so they win when the rows are alike; when they are not,
 * lanes idle while a few groups finish long rows, and one very long row runs on a single group.
 * The segmented kernel costs the same per nonzero whatever the lengths. The stream kernel sits
 * between them: it stages tiles of whole rows with coalesced loads, like the segmented kernel,
 * and sums each row in shared memory with no carries between threads, so it wins whenever every
 * row fits a tile and no row holds its tile up for long. So: scalar for regular short rows;
 * stream when the rows fit its tiles; otherwise the vector kernel for regular rows that fill its
 * groups, and segmented for the rest. Thresholds: src/kernels/spmv_tuning.h. */
#ifndef CSR_KERNELS_SPMV_CHOICE_H
#define CSR_KERNELS_SPMV_CHOICE_H

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
  csr_spmv_kernel kernel; /* SCALAR, VECTOR, SEGMENTED or STREAM */
  int lanes;              /* per row: 1 (scalar), 2..32 (vector), 0 (segmented, stream) */
  csri_spmv_why why;
  /* The figures the choice read, for the reason it gives: */
  int typical_bin;       /* the log2 bin holding the median nonzero */
  double regular_share;  /* share of nonzeros in bins typical_bin - 1 .. typical_bin + 1 */
  double nonempty_mean;  /* nnz / non-empty rows */
  double longest_steps;  /* the longest row's steps on its group: longest / group lanes */
  double lane_share;     /* nnz / lanes resident on the GPU */
  double group_fill;     /* mean / (lanes x passes) of the vector kernel's groups */
  double spread_squared; /* (standard deviation of the row lengths / mean)^2 */
  double stream_steps;   /* the longest row's steps on its lanes in a stream tile of typical rows */
  double stream_share;   /* a lane's even share of such a tile's nonzeros */
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

/* The pick for a forced kernel (lanes for VECTOR from the mean, as a row kernel's rule). */
static inline csri_spmv_pick csri_spmv_forced(const csr_row_stats *s, csr_spmv_kernel kernel) {
  csri_spmv_pick p;
  memset(&p, 0, sizeof p);
  p.kernel = kernel;
  p.why = CSRI_WHY_FORCED;
  p.lanes = kernel == CSR_KERNEL_SCALAR   ? 1
            : kernel == CSR_KERNEL_VECTOR ? csri_vector_lanes(s->mean)
                                          : 0;
  return p;
}

/* The kernel for a matrix with statistics s on a GPU holding `resident_lanes` threads at once
 * (CSRI_SPMV_RESIDENT_LANES; the tests vary it). */
static inline csri_spmv_pick csri_spmv_choose(const csr_row_stats *s, double resident_lanes) {
  csri_spmv_pick p;
  memset(&p, 0, sizeof p);
  p.kernel = CSR_KERNEL_SEGMENTED;
  p.why = CSRI_WHY_NO_WORK;
  int64_t nonempty = s->rows - s->empty_rows;
  if (s->rows == 0 || s->nnz == 0 || nonempty <= 0) {
    p.kernel = CSR_KERNEL_SCALAR; /* nothing to balance; csr_spmv only scales y */
    p.lanes = 1;
    return p;
  }
  p.nonempty_mean = (double)s->nnz / (double)nonempty;
  p.lane_share = (double)s->nnz / (resident_lanes > 1.0 ? resident_lanes : 1.0);
  double total = 0.0, below = 0.0;
  for (int b = 1; b < CSR_HIST_BINS; b++)
    total += csri_bin_nonzeros(s, b);
  p.typical_bin = 1;
  for (int b = 1; b < CSR_HIST_BINS; b++) { /* the bin where half the nonzeros are reached */
    below += csri_bin_nonzeros(s, b);
    if (below >= 0.5 * total) {
      p.typical_bin = b;
      break;
    }
  }
  double near = 0.0;
  for (int b = p.typical_bin - 1; b <= p.typical_bin + 1; b++)
    if (b >= 1 && b < CSR_HIST_BINS)
      near += csri_bin_nonzeros(s, b);
  p.regular_share = total > 0.0 ? near / total : 1.0;
  int lanes = p.nonempty_mean <= CSRI_SPMV_SCALAR_MEAN ? 1 : csri_vector_lanes(p.nonempty_mean);
  p.longest_steps = (double)s->longest / (double)lanes;
  double passes = (double)(int64_t)(p.nonempty_mean / (double)lanes); /* rounded up: */
  passes += passes * (double)lanes < p.nonempty_mean ? 1.0 : 0.0;
  p.group_fill = p.nonempty_mean / ((double)lanes * passes);
  p.spread_squared = s->variance / (s->mean * s->mean);
  csri_stream_estimate(s, &p.stream_steps, &p.stream_share);
  const int many_empty = (double)s->empty_rows > CSRI_SPMV_EMPTY_SHARE * (double)s->rows;
  const int uneven = p.regular_share < CSRI_SPMV_REGULAR_SHARE;
  const int long_row = p.longest_steps > csri_longest_steps_allowed(p.lane_share);
  if (!many_empty && !uneven && !long_row && lanes == 1) {
    p.kernel = CSR_KERNEL_SCALAR;
    p.lanes = 1;
    p.why = CSRI_WHY_SHORT_ROWS;
  } else if (s->longest <= CSRI_SPMV_STREAM_LONGEST &&
             p.stream_steps <= CSRI_SPMV_STREAM_STEPS_FACTOR * p.stream_share) {
    p.kernel = CSR_KERNEL_STREAM;
    p.why = CSRI_WHY_ROWS_FIT;
  } else if (many_empty) {
    p.why = CSRI_WHY_EMPTY_ROWS;
  } else if (uneven) {
    p.why = CSRI_WHY_UNEVEN;
  } else if (long_row) {
    p.why = CSRI_WHY_LONGEST_ROW;
  } else if (p.group_fill >= CSRI_SPMV_VECTOR_FILL &&
             p.spread_squared <= CSRI_SPMV_VECTOR_SPREAD * CSRI_SPMV_VECTOR_SPREAD) {
    p.kernel = CSR_KERNEL_VECTOR;
    p.lanes = lanes;
    p.why = CSRI_WHY_FULL_GROUPS;
  } else {
    p.why = CSRI_WHY_IDLE_LANES;
  }
  return p;
}

#endif /* CSR_KERNELS_SPMV_CHOICE_H */
