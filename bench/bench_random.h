/* SPDX-License-Identifier: BSD-3-Clause */
/* The C benchmarks' random stream: splitmix64 from a fixed seed, so that every run makes the same
 * data. */
#ifndef CSR_BENCH_RANDOM_H
#define CSR_BENCH_RANDOM_H

#include <stdint.h>

typedef struct bench_rng {
  uint64_t state;
} bench_rng;

static inline uint64_t bench_random(bench_rng *rng) {
  uint64_t z = (rng->state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* The top 53 bits of r as a double in [0, 1), each of that grid's 2^53 values equally likely. */
static inline double bench_unit(uint64_t r) {
  return (double)(r >> 11) * 0x1.0p-53;
}

#endif
