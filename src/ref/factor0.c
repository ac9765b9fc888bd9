/* SPDX-License-Identifier: BSD-3-Clause */
/* ILU(0) / IC(0) by rows in order (src/kernels/factor_rows.c does a row): the elimination as a
 * textbook writes it, which checks the OpenMP level schedule and the CUDA kernel. It stops at the
 * first failed pivot, the row every backend names. */
#include "kernels/rows.h"
#include "ref/ref.h"

csr_status csri_ref_factor0(csr_context *ctx, const csri_factor0_plan *plan, double *values,
                            int64_t *failed_row) {
  (void)ctx;
  *failed_row = -1;
  for (int64_t i = 0; i < plan->n; i++)
    if (csri_factor0_row(plan, values, i)) {
      *failed_row = i;
      break;
    }
  return CSR_SUCCESS;
}
