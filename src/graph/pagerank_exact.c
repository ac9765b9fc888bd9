/* SPDX-License-Identifier: BSD-3-Clause */
/* Dispatch of the distributed PageRank's update with exact sums (src/core/backend.h,
 * csri_pagerank_exact) to the backend where the ranks live; the caller (src/dist/pagerank.c) has
 * checked the operands. */
#include "core/backend.h"
#include "graph/pagerank.h"

csr_status csri_pagerank_exact_update(csr_context *ctx, const csri_pagerank_exact *u,
                                      csri_exact_acc *acc) {
  if (u->x->n == 0)
    return CSR_SUCCESS;
  const csri_backend *b;
  csr_status status =
      CSRI_DISPATCH(ctx, u->x->location, graph.pagerank_exact_update, "PageRank", &b);
  CSRI_TRY(status);
  return csri_ran(ctx, b, status, b->graph.pagerank_exact_update(ctx, u, acc));
}
