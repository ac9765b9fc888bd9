/* SPDX-License-Identifier: BSD-3-Clause */
/* The bin of a histogram sample, one definition for every backend (C and CUDA), so that the
 * reference, OpenMP and the GPU count alike, bit for bit. Internal.
 *   INTEGER: b = x - offset                         for 0 <= x - offset < bins
 *   EVEN:    b = floor((x - lower) * scale)         for lower <= x < upper, in double;
 *            scale = bins / (upper - lower); a product rounded up to bins lands in bins - 1
 *   LOG2:    b = 0 for x == 0, floor(log2 x) + 1    for x >= 1 and b < bins
 * A sample that has no bin gives -1. */
#ifndef CSR_BINS_H
#define CSR_BINS_H

#include "core/backend.h"
#include "kernels/host_device.h"

/* Bit length of x (0 for 0): floor(log2 x) + 1. */
CSRI_HD int csri_bit_length(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return 64 - __clzll((long long)x);
#else
  return x == 0 ? 0 : 64 - __builtin_clzll(x);
#endif
}

CSRI_HD int csri_even_bin(const csri_bins *b, double x) {
  if (!(x >= b->lower && x < b->upper)) /* also NaN */
    return -1;
  double t = (x - b->lower) * b->scale;
  int bin = (int)t; /* t >= 0: truncation is floor */
  return bin < b->bins ? bin : b->bins - 1;
}

/* INTEGER, signed sample: x - offset in unsigned arithmetic (exact when x >= offset). */
CSRI_HD int csri_integer_bin_i64(const csri_bins *b, int64_t x) {
  if (x < b->offset)
    return -1;
  uint64_t d = (uint64_t)x - (uint64_t)b->offset;
  return d < (uint64_t)b->bins ? (int)d : -1;
}

/* INTEGER, unsigned sample. */
CSRI_HD int csri_integer_bin_u64(const csri_bins *b, uint64_t x) {
  if (b->offset >= 0) {
    if (x < (uint64_t)b->offset)
      return -1;
    uint64_t d = x - (uint64_t)b->offset;
    return d < (uint64_t)b->bins ? (int)d : -1;
  }
  if (x >= (uint64_t)b->bins) /* x + |offset| >= bins too (and might wrap) */
    return -1;
  uint64_t d = x + (uint64_t)(-b->offset);
  return d < (uint64_t)b->bins ? (int)d : -1;
}

/* LOG2 of a non-negative sample. */
CSRI_HD int csri_log2_bin_u64(const csri_bins *b, uint64_t x) {
  int bin = csri_bit_length(x);
  return bin < b->bins ? bin : -1;
}
CSRI_HD int csri_log2_bin_i64(const csri_bins *b, int64_t x) {
  return x < 0 ? -1 : csri_log2_bin_u64(b, (uint64_t)x);
}

/* Bin of a signed integer sample. */
CSRI_HD int csri_bin_of_i64(const csri_bins *b, int64_t x) {
  switch (b->rule) {
  case CSR_BINS_INTEGER: return csri_integer_bin_i64(b, x);
  case CSR_BINS_EVEN: return csri_even_bin(b, (double)x);
  default: return csri_log2_bin_i64(b, x);
  }
}

/* Bin of an unsigned integer sample. */
CSRI_HD int csri_bin_of_u64(const csri_bins *b, uint64_t x) {
  switch (b->rule) {
  case CSR_BINS_INTEGER: return csri_integer_bin_u64(b, x);
  case CSR_BINS_EVEN: return csri_even_bin(b, (double)x);
  default: return csri_log2_bin_u64(b, x);
  }
}

/* Bin of a floating sample (the front end allows floats with EVEN only). */
CSRI_HD int csri_bin_of_f64(const csri_bins *b, double x) {
  return csri_even_bin(b, x);
}

#endif
