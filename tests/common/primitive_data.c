/* SPDX-License-Identifier: BSD-3-Clause */
/* Inputs for the primitives' tests: see primitive_data.h. */
#include "primitive_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *csrt_xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (p == NULL) {
    fprintf(stderr, "out of host memory\n");
    exit(1);
  }
  return p;
}

void csrt_fill_random(csrt_rng *rng, void *p, size_t bytes) {
  unsigned char *b = p;
  for (size_t i = 0; i < bytes; i += 8) {
    uint64_t r = csrt_next(rng);
    memcpy(b + i, &r, bytes - i < 8 ? bytes - i : 8);
  }
}

void csrt_draw_near(csrt_rng *rng, csr_data_type type, void *p, int64_t i, const void *op) {
  size_t size = csr_data_type_size(type);
  char *dst = (char *)p + (size_t)i * size;
  uint64_t r = csrt_next(rng), pick = r % 16;
  if (type == CSR_DATA_F32 || type == CSR_DATA_F64) {
    double v = pick == 0   ? NAN
               : pick == 1 ? -0.0
               : pick == 2 ? 0.0
               : pick < 6  ? (type == CSR_DATA_F32 ? *(const float *)op : *(const double *)op)
                           : (double)(int64_t)(r >> 40) / 65536.0 - 64.0;
    if (type == CSR_DATA_F32) {
      float f = (float)v;
      memcpy(dst, &f, 4);
    } else
      memcpy(dst, &v, 8);
    return;
  }
  uint64_t o = 0, v;
  memcpy(&o, op, size); /* little-endian: the low bytes */
  v = pick < 4 ? o : pick == 4 ? o + 1 : pick == 5 ? o - 1 : pick == 6 ? 0 : pick == 7 ? ~0ull : r;
  memcpy(dst, &v, size);
}

double csrt_sample_value(csrt_rng *rng, const csr_histogram_bins *b, int skewed) {
  uint64_t r = csrt_next(rng);
  double lo = b->rule == CSR_BINS_EVEN ? b->lower : 0.0;
  double hi = b->rule == CSR_BINS_EVEN ? b->upper : b->rule == CSR_BINS_LOG2 ? 0.0 : b->bins;
  if (skewed && r % 100 != 0)
    return b->rule == CSR_BINS_LOG2 ? 5.0 : lo + (hi - lo) * 0.37;
  if (b->rule == CSR_BINS_LOG2) /* exponents up to ~bins + 8, either sign, zeros */
    return r % 7 == 0 ? 0.0
                      : (r % 11 == 0 ? -1.0 : 1.0) * ldexp(1.0 + (double)(r >> 40) * 0x1p-24,
                                                           (int)(r % (unsigned)(b->bins + 8)));
  double width = hi - lo;
  return lo - width / 2 + 2 * width * csrt_uniform(rng, 0.0, 1.0);
}

void csrt_store_sample(csr_data_type type, void *p, int64_t i, double v, uint64_t r) {
  switch (type) {
  case CSR_DATA_I32: ((int32_t *)p)[i] = (int32_t)fmax(fmin(floor(v), 2e9), -2e9); break;
  case CSR_DATA_I64: ((int64_t *)p)[i] = (int64_t)fmax(fmin(floor(v), 9e18), -9e18); break;
  case CSR_DATA_U32: ((uint32_t *)p)[i] = v < 0 ? (uint32_t)r : (uint32_t)fmin(v, 4e9); break;
  case CSR_DATA_U64: ((uint64_t *)p)[i] = v < 0 ? r : (uint64_t)fmin(v, 1.8e19); break;
  case CSR_DATA_U16: ((uint16_t *)p)[i] = v < 0 ? (uint16_t)r : (uint16_t)fmin(v, 65535); break;
  case CSR_DATA_U8: ((uint8_t *)p)[i] = v < 0 ? (uint8_t)r : (uint8_t)fmin(v, 255); break;
  case CSR_DATA_F32:
    ((float *)p)[i] = r % 97 == 0 ? NAN : r % 101 == 0 ? -INFINITY : (float)v;
    break;
  default: ((double *)p)[i] = r % 97 == 0 ? NAN : r % 101 == 0 ? INFINITY : v; break;
  }
}

uint64_t csrt_bit_mask(int begin, int end) {
  return end - begin == 64 ? UINT64_MAX : ((UINT64_C(1) << (end - begin)) - 1) << begin;
}
