/* SPDX-License-Identifier: BSD-3-Clause */
/* The OpenMP backend's grouping of items by row through buckets of rows
 * (src/omp/scatter_buckets.c), for csri_omp_group_sort when the rows are many. Internal. */
#ifndef CSR_OMP_SCATTER_BUCKETS_H
#define CSR_OMP_SCATTER_BUCKETS_H

#include "omp/omp.h"

/* Whether grouping n items over nb groups is worth the buckets: enough groups that their
 * counters leave the cache, enough items to pay for the second pass. */
int csri_omp_buckets_pay(int64_t n, int64_t nb);

/* The items k with rkey[k] >= 0 grouped by rkey (nb groups): off[0..nb], and for each item in
 * group order, stable, its ckey in cols and its index k in src; the same arrays as a direct
 * stable scatter. With `in` (values of vsize 4 or 8 bytes, item k's at in + k vsize), each item's
 * value goes, in group order too, to *moved (n values, allocated here; the caller frees it), and
 * src holds its place there instead of k (the same order within a group). *done = 0 (and nothing
 * written or allocated) when one bucket of rows holds so many of the items that its scratch would
 * cost more than it saves. T threads. */
csr_status csri_omp_scatter_buckets(csr_context *ctx, int64_t n, const int32_t *rkey,
                                    const int32_t *ckey, int64_t nb, int64_t *off, int32_t *cols,
                                    int64_t *src, const void *in, size_t vsize, void **moved, int T,
                                    int *done);

#endif
