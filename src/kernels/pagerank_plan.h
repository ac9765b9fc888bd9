/* SPDX-License-Identifier: BSD-3-Clause */
/* How a PageRank iteration on the GPU is laid out, in one definition for C and CUDA so that the
 * CPU tests know which form a graph gets. Internal.
 *
 * Fused: one pass over the pull graph, each page's update done where its row's sum is finished
 * (the tiled SpMV kernels keep a tile's sums and finish its rows together at the tile's end).
 * That costs a tile a fixed amount of work after its walk: a barrier, the rows' update, the
 * warps' two sums. With many links a page a tile holds few rows, and a few of its warps do that
 * work while the rest wait. Split: the SpMV alone (s_i into x_next), then one pass over the
 * pages (read s_i, x_i and the page's links, or 1/w_i when weighted, write x_next_i, and the two
 * sums): 28 bytes a page (32 weighted) at the memory's speed, whatever the tile. Measured
 * (docs/benchmarks.md, PageRank on the GPU): split is faster on every graph of 8 links a page or
 * more (web graphs of 10 and 30, R-MAT of 8 to 64: 4 to 12 %); below, R-MAT of 2 and 4 favoured
 * split too, web-NotreDame (4.6) the fused form by 2 %, and by 3 % once the split pass read the
 * links. */
#ifndef CSR_KERNELS_PAGERANK_PLAN_H
#define CSR_KERNELS_PAGERANK_PLAN_H

#include "kernels/host_device.h"

#include <math.h>
#include <stdint.h>

/* Pull graphs with at least this many links a page on average take the split form: where it
 * won on every graph measured. */
#ifndef CSRI_PAGERANK_SPLIT_LINKS
#define CSRI_PAGERANK_SPLIT_LINKS 8
#endif

/* 1: the iteration over a pull graph of `pages` rows and `links` entries runs split. */
CSRI_HD int csri_pagerank_split(int64_t pages, int64_t links) {
  return pages > 0 && links / pages >= CSRI_PAGERANK_SPLIT_LINKS;
}

/* A page's number of links from its 1 / out-weight, inv_w = 1 / d correctly rounded for a count
 * 0 < d < 2^31: 1 / inv_w lies within two roundings of d, far less than 1/2, so rounding it to
 * an integer gives d back; 0 for a dangling page (inv_w 0). The split update pass reads these 4
 * bytes a page in place of inv_w's 8 and computes 1 / d again, with the same bits. */
CSRI_HD int32_t csri_pagerank_links(double inv_w) {
  return inv_w > 0.0 ? (int32_t)rint(1.0 / inv_w) : 0;
}

#endif
