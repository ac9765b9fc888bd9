/* SPDX-License-Identifier: BSD-3-Clause */
/* ILU(0) / IC(0) a level at a time: the rows of a level read only rows of earlier levels, so they
 * are eliminated at once, with a barrier before the next level. Each row is the shared kernel's
 * (src/kernels/factor_rows.c) with final inputs, so the bits are the reference's for every thread
 * count. A failed pivot does not stop the levels: the lowest failing row over all of them is the
 * one a serial elimination stops at (the rows before it never read a failed one). */
#include "kernels/rows.h"
#include "omp/omp.h"

csr_status csri_omp_factor0(csr_context *ctx, const csri_factor0_plan *plan, double *values,
                            int64_t *failed_row) {
  int threads = csri_omp_threads(ctx);
  int64_t first_failed = plan->n;
  for (int64_t l = 0; l < plan->levels; l++) {
    const int32_t *rows = plan->level_rows + plan->level_offsets[l];
    int64_t count = plan->level_offsets[l + 1] - plan->level_offsets[l];
    int64_t level_failed = plan->n;
    /* A level of few rows is not worth waking the team (its work is about a row's length). */
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64) if (count >= 256)              \
    reduction(min                                                                                  \
              : level_failed)
    for (int64_t t = 0; t < count; t++)
      if (csri_factor0_row(plan, values, rows[t]) && rows[t] < level_failed)
        level_failed = rows[t];
    if (level_failed < first_failed)
      first_failed = level_failed;
  }
  *failed_row = first_failed < plan->n ? first_failed : -1;
  return CSR_SUCCESS;
}
