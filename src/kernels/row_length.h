/* SPDX-License-Identifier: BSD-3-Clause */
/* The log2 bin of a row length: bin 0 for empty rows, bin b >= 1 for lengths in [2^(b-1), 2^b),
 * the last bin for everything from 2^(CSR_HIST_BINS - 2) up. The row statistics of every backend
 * and the public csr_row_length_bin bin rows with it. Internal. */
#ifndef CSR_KERNELS_ROW_LENGTH_H
#define CSR_KERNELS_ROW_LENGTH_H

#include "csr.h"

static inline int csri_row_length_bin(int64_t length) {
  if (length <= 0)
    return 0;
  int bin = 0;
#if defined(__GNUC__)
  bin = 64 - __builtin_clzll((unsigned long long)length); /* floor(log2(length)) + 1 */
#else
  for (uint64_t v = (uint64_t)length; v != 0; v >>= 1)
    bin++;
#endif
  return bin < CSR_HIST_BINS ? bin : CSR_HIST_BINS - 1; /* rows of 2^47 or more share the last */
}

#endif /* CSR_KERNELS_ROW_LENGTH_H */
