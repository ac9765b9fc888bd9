/* SPDX-License-Identifier: BSD-3-Clause */
/* Ordered triples with their repeats taken out (a repeat: a triple whose (row, column) is the one
 * before's), one definition for C and CUDA: the device converter's copy (cuda/coo_check.cuh) uses
 * it, tests/test_repeats.c checks it on the CPU. R holds the D repeats' positions, ascending.
 *   entry q of A is triple p = q + |{j : R_j - j <= q}|   (R_j - j never descends)
 *   an offset o of the triples becomes o - |{j : R_j < o}|                          Internal. */
#ifndef CSR_KERNELS_REPEATS_H
#define CSR_KERNELS_REPEATS_H

#include "kernels/host_device.h"

#include <stdint.h>

/* The first j in [lo, hi] with R_j - step * j > limit (R_j - step * j never descends for step 0
 * or 1), when every j < lo is below it and every j >= hi is not: the one search of both counts
 * below. */
CSRI_HD int64_t csri_repeats_search(const int64_t *R, int64_t lo, int64_t hi, int64_t limit,
                                    int64_t step) {
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (R[mid] - step * mid <= limit)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The j in [lo, hi] with R_j - j <= q for every j below it and for none from it on (the repeats
 * before the triple that entry q is), when every j < lo has R_j - j <= q and none >= hi does:
 * [0, D] for any q; a tile of entries narrows it to the counts of its first and last entry. */
CSRI_HD int64_t csri_repeats_before_entry(const int64_t *R, int64_t lo, int64_t hi, int64_t q) {
  return csri_repeats_search(R, lo, hi, q, 1);
}

/* |{j : R_j < o}| (the repeats below triple o), searched in [lo, hi] when every j < lo has
 * R_j < o and none >= hi does: [0, D] for any o; ascending offsets narrow it to the counts of the
 * first and the last. */
CSRI_HD int64_t csri_repeats_below(const int64_t *R, int64_t lo, int64_t hi, int64_t o) {
  return csri_repeats_search(R, lo, hi, o - 1, 0);
}

#endif
