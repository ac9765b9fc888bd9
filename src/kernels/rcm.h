/* SPDX-License-Identifier: BSD-3-Clause */
/* Reverse Cuthill-McKee on the host (src/kernels/rcm.c): the incomplete factorizations' ordering
 * and csr_reorder's for symmetric (solver) matrices. Internal. */
#ifndef CSR_KERNELS_RCM_H
#define CSR_KERNELS_RCM_H

#include "core/internal.h"

/* The pattern of a square host matrix: row i's columns col[off[i] .. off[i + 1]), in [0, n). */
typedef struct csri_pattern {
  int64_t n;
  const int64_t *off; /* n + 1 */
  const int32_t *col; /* off[n] */
} csri_pattern;

/* order[k] = the row numbered k by reverse Cuthill-McKee of the pattern of B + B' (diagonal and
 * repeated entries ignored): each connected part from a pseudo-peripheral row, neighbours by
 * increasing degree, rows without neighbours where the scan meets them; order holds n entries.
 * Takes 8 bytes per off-diagonal entry of B (the graph of B + B') and 32 per row.
 * CSR_ERR_OUT_OF_MEMORY. */
csr_status csri_rcm(csr_context *ctx, const csri_pattern *B, int32_t *order);

#endif /* CSR_KERNELS_RCM_H */
