/* SPDX-License-Identifier: BSD-3-Clause */
/* The SpMV kernels, one row each: the kernel, its name, whether it is a row kernel, the lanes it
 * gives a row when forced, and its rule (when the plan picks it). The plan weighs the rows in the
 * order below and takes the first kernel whose rule takes the matrix; the last takes every
 * matrix. Adding a kernel is a row here, its launcher in the CUDA backend's table (cuda/spmv.cu)
 * and its value in csr_spmv_kernel (include/csr.h): docs/design.md, "Adding an SpMV kernel".
 * Shared by C and CUDA, so that the CPU tests check each rule. Internal.
 *
 * Why this order: the row kernels (scalar: a thread per row; vector: a group of lanes per row)
 * read each row in one pass and need no second kernel, so they win when the rows are alike; when
 * they are not, lanes idle while a few groups finish long rows, and one very long row runs on a
 * single group. The segmented kernel costs the same per nonzero whatever the lengths. The stream
 * kernel sits between them: it stages tiles of whole rows with coalesced loads, like the
 * segmented kernel, and sums each row in shared memory with no carries between threads, so it
 * wins whenever every row fits a tile and no row holds its tile up for long. */
#ifndef CSR_KERNELS_SPMV_REGISTRY_H
#define CSR_KERNELS_SPMV_REGISTRY_H

#include "kernels/spmv_figures.h"

#include <stddef.h>

/* Each rule reads the figures in p (csri_spmv_figures) and, when it takes the matrix, sets
 * p->why and p->lanes and returns 1. */
typedef int csri_spmv_rule(const csr_row_stats *s, csri_spmv_pick *p);

/* Regular short rows: a thread per row. */
static inline int csri_rule_scalar(const csr_row_stats *s, csri_spmv_pick *p) {
  (void)s;
  if (p->many_empty || p->uneven || p->long_row || p->row_lanes != 1 || p->scattered)
    return 0;
  p->why = CSRI_WHY_SHORT_ROWS;
  p->lanes = 1;
  return 1;
}

/* Every row fits a stream tile, and the longest holds its tile up no longer than
 * CSRI_SPMV_STREAM_STEPS_FACTOR times a lane's share of it. */
static inline int csri_rule_stream(const csr_row_stats *s, csri_spmv_pick *p) {
  if (s->longest > CSRI_SPMV_STREAM_LONGEST ||
      p->stream_steps > CSRI_SPMV_STREAM_STEPS_FACTOR * p->stream_share)
    return 0;
  p->why = CSRI_WHY_ROWS_FIT;
  p->lanes = 0;
  return 1;
}

/* Regular longer rows, alike enough to fill the groups of lanes (short rows whose gathers
 * scatter do not come here: a group of one lane is the scalar kernel). */
static inline int csri_rule_vector(const csr_row_stats *s, csri_spmv_pick *p) {
  (void)s;
  if (p->many_empty || p->uneven || p->long_row || p->row_lanes < 2 ||
      p->group_fill < CSRI_SPMV_VECTOR_FILL ||
      p->spread_squared > CSRI_SPMV_VECTOR_SPREAD * CSRI_SPMV_VECTOR_SPREAD)
    return 0;
  p->why = CSRI_WHY_FULL_GROUPS;
  p->lanes = p->row_lanes;
  return 1;
}

/* Everything else; the reason is the first thing that kept the row kernels away. */
static inline int csri_rule_segmented(const csr_row_stats *s, csri_spmv_pick *p) {
  (void)s;
  p->why = p->many_empty ? CSRI_WHY_EMPTY_ROWS
           : p->uneven   ? CSRI_WHY_UNEVEN
           : p->long_row ? CSRI_WHY_LONGEST_ROW
                         : CSRI_WHY_IDLE_LANES;
  p->lanes = 0;
  return 1;
}

/* The lanes a forced kernel gives a row: a count, or this for the vector kernel's rule (from the
 * mean row length). */
enum { CSRI_LANES_FROM_MEAN = -1 };

typedef struct csri_spmv_kernel_info {
  csr_spmv_kernel kernel;
  const char *name; /* csr_spmv_kernel_name's, and the apps' --kernel value */
  int row_kernel;   /* 1: a group of `lanes` lanes sums each row in one pass (CG's fused step
                       takes only these); 0: tiles of nonzeros */
  int forced_lanes; /* the lanes a row when the context forces the kernel */
  csri_spmv_rule *picks;
} csri_spmv_kernel_info;

static const csri_spmv_kernel_info csri_spmv_kernels[] = {
    {CSR_KERNEL_SCALAR, "scalar", 1, 1, csri_rule_scalar},
    {CSR_KERNEL_STREAM, "stream", 0, 0, csri_rule_stream},
    {CSR_KERNEL_VECTOR, "vector", 1, CSRI_LANES_FROM_MEAN, csri_rule_vector},
    {CSR_KERNEL_SEGMENTED, "segmented", 0, 0, csri_rule_segmented},
};
enum { CSRI_SPMV_KERNEL_COUNT = sizeof csri_spmv_kernels / sizeof csri_spmv_kernels[0] };

/* The registry's row for `kernel`, or NULL (AUTO and unknown values). */
static inline const csri_spmv_kernel_info *csri_spmv_kernel_of(csr_spmv_kernel kernel) {
  for (int k = 0; k < CSRI_SPMV_KERNEL_COUNT; k++)
    if (csri_spmv_kernels[k].kernel == kernel)
      return &csri_spmv_kernels[k];
  return NULL;
}

#endif /* CSR_KERNELS_SPMV_REGISTRY_H */
