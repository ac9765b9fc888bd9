/* SPDX-License-Identifier: BSD-3-Clause */
/* The triangular solve by plain substitution: row after row, forward for a lower triangle,
 * backward for an upper one. The levels are not read, so this order checks the OpenMP backend's
 * level schedule (the row arithmetic the two share, src/kernels/spsv_rows.c, is checked against
 * the dense substitution of tests/backend_spsv.c). */
#include "kernels/rows.h"
#include "ref/ref.h"

csr_status csri_ref_spsv(csr_context *ctx, const csr_spsv_plan *plan, double alpha,
                         const csr_vector *b, csr_vector *x) {
  (void)ctx;
  csri_spsv_rows(plan, alpha, b, x, NULL, plan->n);
  return CSR_SUCCESS;
}
