/* SPDX-License-Identifier: BSD-3-Clause */
/* What csr_pagerank (src/graph/pagerank.c) shares with the distributed PageRank
 * (src/dist/pagerank.c). Internal. */
#ifndef CSR_GRAPH_PAGERANK_H
#define CSR_GRAPH_PAGERANK_H

#include "core/backend.h"
#include "csr.h"

/* The options' damping, tolerance, limit, and weights for a matrix of value_type: CSR_SUCCESS
 * or CSR_ERR_INVALID_VALUE naming what is wrong. */
csr_status csri_pagerank_check_options(csr_context *ctx, const csr_pagerank_options *o,
                                       csr_value_type value_type);

/* The distributed PageRank's update of one rank's pages with its two sums exact
 * (csri_pagerank_exact), on the backend where u->x lives (src/graph/pagerank_exact.c); nothing
 * to do for no pages. */
csr_status csri_pagerank_exact_update(csr_context *ctx, const csri_pagerank_exact *u,
                                      csri_exact_acc *acc);

#endif /* CSR_GRAPH_PAGERANK_H */
