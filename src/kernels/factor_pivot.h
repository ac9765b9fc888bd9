/* SPDX-License-Identifier: BSD-3-Clause */
/* When a pivot of ILU(0), IC(0) or ILUT fails: one rule for every backend (C and CUDA), so each
 * names the same row. Internal. */
#ifndef CSR_KERNELS_FACTOR_PIVOT_H
#define CSR_KERNELS_FACTOR_PIVOT_H

#include "kernels/host_device.h"

/* A pivot this small against its row's largest entry would multiply the rows below by more than
 * 1e14: the factor it gives preconditions nothing, so it counts as zero. */
#define CSRI_PIVOT_RELATIVE 1e-14

/* ILU: u_ii fails when it is not finite or |u_ii| <= 1e-14 scale_i. IC: the value under the
 * square root, l_ii^2, must be finite and above 1e-14 scale_i (positive). NaN fails both. */
CSRI_HD int csri_factor_pivot_fails(double pivot, double scale, int ic) {
  const double largest = 1.7976931348623157e308;
  double size = ic ? pivot : (pivot < 0 ? -pivot : pivot);
  return !(size > CSRI_PIVOT_RELATIVE * scale) || !(size <= largest);
}

#endif
