/* SPDX-License-Identifier: BSD-3-Clause */
/* LAPACK 3.10 dnrm2's final step: the three scaled sums of src/kernels/nrm2.h to one norm. */
#include "kernels/nrm2.h"

#include <math.h>

/* Rescales the medium sum into the big or small one, then takes the root. */
double csri_nrm2_finish(csri_nrm2_acc acc) {
  if (acc.big > 0) { /* small squares are negligible next to a big one */
    if (acc.medium > 0 || isnan(acc.medium))
      acc.big += (acc.medium * 0x1p-538) * 0x1p-538;
    return sqrt(acc.big) * 0x1p538;
  }
  if (acc.small > 0) {
    if (!(acc.medium > 0 || isnan(acc.medium)))
      return sqrt(acc.small) * 0x1p-537;
    double m = sqrt(acc.medium), s = sqrt(acc.small) * 0x1p-537;
    double hi = m > s ? m : s, lo = m > s ? s : m;
    return hi * sqrt(1 + (lo / hi) * (lo / hi));
  }
  return sqrt(acc.medium);
}
