/* SPDX-License-Identifier: BSD-3-Clause */
/* The distributed PageRank's update over a range of host entries (src/core/backend.h,
 * csri_pagerank_exact): the terms of a block of entries formed, then summed exactly
 * (src/kernels/exact_block.h). The reference backend runs the whole range, the OpenMP backend one
 * chunk a thread. Each rounding is a statement of its own, as the GPU's __dmul_rn / __dadd_rn
 * are, so that no compiler contracts them into a fused multiply-add. */
#include "kernels/pagerank_exact.h"
#include "kernels/exact_block.h"

#include <math.h>

/* The next rank of entry i, rounded to the ranks' type. */
static double next_rank(const csri_pagerank_exact *u, double keep, int f32, int64_t i) {
  double next = u->uniform;
  if (u->y != NULL) {
    double y = f32 ? (double)((const float *)u->y->data)[i] : ((const double *)u->y->data)[i];
    double pulled = y + u->base;
    pulled = u->d * pulled;
    double teleport = u->p ? u->p[i] : u->uniform;
    teleport = keep * teleport;
    next = pulled + teleport;
  }
  return f32 ? (double)(float)next : next;
}

void csri_pagerank_exact_range(const csri_pagerank_exact *u, int64_t begin, int64_t end,
                               csri_exact_acc *acc) {
  const int f32 = u->x->value_type == CSR_F32;
  const double keep = 1.0 - u->d; /* the teleport's share */
  double change[CSRI_EXACT_BLOCK], hanging[CSRI_EXACT_BLOCK];
  for (int64_t b = begin; b < end; b += CSRI_EXACT_BLOCK) {
    const int len = end - b < CSRI_EXACT_BLOCK ? (int)(end - b) : CSRI_EXACT_BLOCK;
    int dangling = 0;
    for (int k = 0; k < len; k++) {
      const int64_t i = b + k;
      const double next = next_rank(u, keep, f32, i);
      if (u->y != NULL) {
        double step = next - u->r[i];
        change[k] = fabs(step);
      }
      u->r[i] = next;
      if (u->inv_w[i] == 0.0)
        hanging[dangling++] = next;
      double spread = next;
      if (u->scale)
        spread = next * u->inv_w[i];
      if (f32)
        ((float *)u->x->data)[i] = (float)spread;
      else
        ((double *)u->x->data)[i] = spread;
    }
    if (u->y != NULL) /* the first iteration counts no change */
      csri_exact_add_block(&acc[0], change, len);
    if (dangling > 0)
      csri_exact_add_block(&acc[1], hanging, dangling);
  }
}
