/* SPDX-License-Identifier: BSD-3-Clause */
/* What csr_pagerank (src/graph/pagerank.c) shares with the distributed PageRank
 * (src/dist/pagerank.c). Internal. */
#ifndef CSR_GRAPH_PAGERANK_H
#define CSR_GRAPH_PAGERANK_H

#include "csr.h"

/* The options' damping, tolerance, limit, and weights for a matrix of value_type: CSR_SUCCESS
 * or CSR_ERR_INVALID_VALUE naming what is wrong. */
csr_status csri_pagerank_check_options(csr_context *ctx, const csr_pagerank_options *o,
                                       csr_value_type value_type);

#endif /* CSR_GRAPH_PAGERANK_H */
