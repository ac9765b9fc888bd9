/* SPDX-License-Identifier: BSD-3-Clause */
/* The C benchmarks' clock and median: every timing in bench/ is a median of several runs of the
 * monotonic clock. */
#ifndef CSR_BENCH_CLOCK_H
#define CSR_BENCH_CLOCK_H

#include <stdlib.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int bench_compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of t[0, n) (n >= 1; sorted in place; the mean of the middle two for even n). */
static inline double bench_median(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, bench_compare_double);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

#endif /* CSR_BENCH_CLOCK_H */
