/* SPDX-License-Identifier: BSD-3-Clause */
/* The SpMV kernel for a matrix, from its row-length statistics and how its gathers of x spread:
 * the figures (src/kernels/spmv_figures.h) weighed by the registry's rules in order
 * (src/kernels/spmv_registry.h). A pure function, the same for C and CUDA, so that the CPU tests
 * check every threshold either side. Thresholds: src/kernels/spmv_tuning.h. Internal. */
#ifndef CSR_KERNELS_SPMV_CHOICE_H
#define CSR_KERNELS_SPMV_CHOICE_H

#include "kernels/spmv_figures.h"
#include "kernels/spmv_registry.h"

/* The pick for a kernel the context forces (lanes for a vector from the mean, as its rule). An
 * unknown kernel gets the last row's (the one that takes every matrix). */
static inline csri_spmv_pick csri_spmv_forced(const csr_row_stats *s, csr_spmv_kernel kernel) {
  csri_spmv_pick p;
  memset(&p, 0, sizeof p);
  const csri_spmv_kernel_info *k = csri_spmv_kernel_of(kernel);
  if (k == NULL)
    k = &csri_spmv_kernels[CSRI_SPMV_KERNEL_COUNT - 1];
  p.kernel = k->kernel;
  p.why = CSRI_WHY_FORCED;
  p.lanes = k->forced_lanes == CSRI_LANES_FROM_MEAN ? csri_vector_lanes(s->mean) : k->forced_lanes;
  return p;
}

/* The kernel for a matrix with statistics s and sampled gather lines (csri_gather_lines; 0 when
 * not sampled: taken as local) on a GPU holding `resident_lanes` threads at once
 * (CSRI_SPMV_RESIDENT_LANES; the tests vary it): the first in the registry whose rule takes it.
 * A matrix without work gets the scalar kernel (csr_spmv only scales y). */
static inline csri_spmv_pick csri_spmv_choose(const csr_row_stats *s, double gather_lines,
                                              double resident_lanes) {
  csri_spmv_pick p;
  if (!csri_spmv_figures(s, gather_lines, resident_lanes, &p)) {
    p.kernel = CSR_KERNEL_SCALAR;
    p.lanes = 1;
    return p;
  }
  for (int k = 0; k < CSRI_SPMV_KERNEL_COUNT; k++)
    if (csri_spmv_kernels[k].picks(s, &p)) {
      p.kernel = csri_spmv_kernels[k].kernel;
      return p;
    }
  return p; /* not reached: the last rule takes every matrix */
}

#endif /* CSR_KERNELS_SPMV_CHOICE_H */
