/* SPDX-License-Identifier: BSD-3-Clause */
/* One row of ILU(0) / IC(0) (src/core/backend.h, csri_factor0_plan), shared by the reference
 * backend (rows in order) and the OpenMP backend (the rows of a level at once). The CUDA kernel
 * (cuda/factor0.cu) makes the same operations in the same order on each entry, so all three give
 * the same bits. */
#include "kernels/factor_pivot.h"
#include "kernels/rows.h"

#include <math.h>

/* Subtracts w times the update list of row k from the entries of row i in (t, last]: both lists
 * ascend, so one merge walk finds the columns they share. Each entry of row i is touched once per
 * k, and the k ascend, so the order of its updates is fixed whoever runs the row. */
static void update_row(const csri_factor0_plan *p, double *val, int64_t k, double w, int64_t t,
                       int64_t last) {
  const int32_t *col = p->col;
  int64_t u = p->ic ? p->coff[k] : p->dpos[k] + 1;
  int64_t u_end = p->ic ? p->coff[k + 1] : p->off[k + 1];
  const int32_t *u_col = p->ic ? p->crow : col;
  int64_t q = t + 1;
  while (u < u_end && q <= last) {
    int32_t j = u_col[u];
    if (col[q] < j) {
      q++;
    } else if (col[q] > j) {
      u++;
    } else {
      double factor = val[p->ic ? p->cpos[u] : u];
      double product = w * factor; /* two roundings, never a fused multiply-add: */
      val[q] = val[q] - product;   /* the CUDA kernel rounds the same two */
      q++;
      u++;
    }
  }
}

int csri_factor0_row(const csri_factor0_plan *p, double *val, int64_t i) {
  int64_t d = p->dpos[i];
  int64_t last = p->ic ? d : p->off[i + 1] - 1;
  for (int64_t t = p->off[i]; t < d; t++) {
    int64_t k = p->col[t];
    double w = val[t] / val[p->dpos[k]];
    val[t] = w;
    update_row(p, val, k, w, t, last);
  }
  if (csri_factor_pivot_fails(val[d], p->scale[i], p->ic))
    return 1;
  if (p->ic)
    val[d] = sqrt(val[d]);
  return 0;
}
