/* SPDX-License-Identifier: BSD-3-Clause */
/* The distributed PageRank's update with exact sums (src/core/backend.h, csri_pagerank_exact)
 * over host entries [begin, end): shared by the CPU backends. Internal. */
#ifndef CSR_KERNELS_PAGERANK_EXACT_H
#define CSR_KERNELS_PAGERANK_EXACT_H

#include "core/backend.h"

/* acc[0] and acc[1] += the change and hanging terms of entries [begin, end); r and x written
 * there. */
void csri_pagerank_exact_range(const csri_pagerank_exact *u, int64_t begin, int64_t end,
                               csri_exact_acc *acc);

#endif
