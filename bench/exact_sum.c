/* SPDX-License-Identifier: BSD-3-Clause */
/* Cost per term of the exact dot product (src/kernels/exact_sum.h) against the plain loop.
 *
 *   exact_sum [count]     (default 10,000,000 pairs)
 *
 * Two vectors of `count` random doubles in +-[0.5, 1) 2^e, e uniform in [-20, 20] (values of
 * mixed magnitude, as in a residual), summed as x . y four ways: the plain loop (one fused
 * multiply-add or multiply and add per term, as the compiler makes it), csri_exact_add_product,
 * csri_exact_add_square on x alone (a norm), and csri_exact_add on x alone (a sum). The median
 * of 5 runs is reported in ns per term. Single-threaded; the machine should be otherwise idle. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include "../src/kernels/exact_sum.h"
#include "bench_clock.h"
#include "bench_random.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define RUNS 5

enum { PLAIN, PRODUCT, SQUARE, VALUE, WAYS };
static const char *names[WAYS] = {"plain dot", "exact add_product", "exact add_square",
                                  "exact add"};

/* One pass of way w; returns its result so the work cannot be dropped. */
static double pass(int w, const double *x, const double *y, long n) {
  if (w == PLAIN) {
    double s = 0;
    for (long i = 0; i < n; i++)
      s += x[i] * y[i];
    return s;
  }
  csri_exact_acc acc;
  csri_exact_init(&acc);
  for (long i = 0; i < n; i++) {
    if (w == PRODUCT)
      csri_exact_add_product(&acc, x[i], y[i]);
    else if (w == SQUARE)
      csri_exact_add_square(&acc, x[i]);
    else
      csri_exact_add(&acc, x[i]);
  }
  return w == SQUARE ? csri_exact_sqrt_round(&acc) : csri_exact_round(&acc);
}

int main(int argc, char **argv) {
  const long n = argc > 1 ? atol(argv[1]) : 10000000;
  if (n <= 0) {
    fprintf(stderr, "usage: exact_sum [count > 0]\n");
    return 2;
  }
  double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
  if (!x || !y) {
    fprintf(stderr, "exact_sum: out of memory for %ld pairs\n", n);
    return 1;
  }
  bench_rng rng = {12345};
  for (long i = 0; i < n; i++) {
    const uint64_t a = bench_random(&rng), b = bench_random(&rng);
    x[i] = ldexp(0.5 + 0.5 * bench_unit(a), (int)(a % 41) - 20) * (a & 1024 ? -1 : 1);
    y[i] = ldexp(0.5 + 0.5 * bench_unit(b), (int)(b % 41) - 20) * (b & 1024 ? -1 : 1);
  }
  printf("%ld terms, median of %d runs\n", n, RUNS);
  for (int w = 0; w < WAYS; w++) {
    double t[RUNS], result = 0;
    for (int r = 0; r < RUNS; r++) {
      const double t0 = bench_now();
      result = pass(w, x, y, n);
      t[r] = bench_now() - t0;
    }
    printf("%-18s %6.2f ns/term   result %.17g\n", names[w],
           1e9 * bench_median(t, RUNS) / (double)n, result);
  }
  free(x);
  free(y);
  return 0;
}
