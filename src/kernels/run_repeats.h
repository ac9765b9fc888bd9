/* SPDX-License-Identifier: BSD-3-Clause */
/* The repeats in a short run of keys, each key's root being the first key of the run equal to it:
 * root(m) = min {q : key_q = key_m}; the keys with root(m) != m are repeats, and a group's values
 * summed in the run's order, root first, are summed in input order when the run is.
 *
 * The radix sort's pass before the last (cuda/radix_sort_agent.cuh, when it takes out repeats)
 * stages its tile sorted by every bit below the last digit, so the tile's equal keys lie in one run
 * of keys that agree in those bits; such runs are short in a sparse matrix (a run is keys that
 * differ in their top digit alone). The roots of a run of up to CSRI_RUN_MOST keys fit 4 bits a
 * key in one 64-bit word, which is what the pass records for the run. Shared by C and CUDA, so
 * that tests/test_run_repeats.c checks the rule on the CPU. Internal. */
#ifndef CSR_KERNELS_RUN_REPEATS_H
#define CSR_KERNELS_RUN_REPEATS_H

#include "kernels/host_device.h"

#include <stdint.h>

/* The longest run whose roots are found; a longer one is left as it is. */
#define CSRI_RUN_MOST 16

/* Key m's root in a word of roots. */
CSRI_HD int csri_run_root(uint64_t roots, int m) {
  return (int)((roots >> (4 * m)) & 15u);
}

/* The roots of keys[0..len), 1 <= len <= CSRI_RUN_MOST, into *roots (4 bits a key, key m at
 * bits 4m to 4m + 3); returns how many keys are repeats. */
CSRI_HD int csri_run_roots(const uint64_t *keys, int len, uint64_t *roots) {
  uint64_t word = 0;
  int repeats = 0;
  for (int m = 1; m < len; m++) {
    int root = m;
    for (int q = 0; q < m; q++)
      if (keys[q] == keys[m]) { /* the first equal key: its own root is itself */
        root = q;
        break;
      }
    word |= (uint64_t)root << (4 * m);
    repeats += root != m;
  }
  *roots = word;
  return repeats;
}

/* A run recorded in the pass's tile: where it starts in the staged tile (below 2^16) and its
 * length. */
CSRI_HD uint32_t csri_run_place(int start, int len) {
  return (uint32_t)start | (uint32_t)len << 16;
}
CSRI_HD int csri_run_start(uint32_t place) {
  return (int)(place & 0xffffu);
}
CSRI_HD int csri_run_length(uint32_t place) {
  return (int)(place >> 16);
}

#endif
