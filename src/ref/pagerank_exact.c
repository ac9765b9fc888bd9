/* SPDX-License-Identifier: BSD-3-Clause */
/* The distributed PageRank's update with exact sums (src/core/backend.h, csri_pagerank_exact)
 * over host entries, in one sweep. */
#include "kernels/pagerank_exact.h"
#include "ref/ref.h"

csr_status csri_ref_pagerank_exact_update(csr_context *ctx, const csri_pagerank_exact *u,
                                          csri_exact_acc *acc) {
  (void)ctx;
  csri_pagerank_exact_range(u, 0, u->x->n, acc);
  return CSR_SUCCESS;
}
