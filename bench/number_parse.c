/* SPDX-License-Identifier: BSD-3-Clause */
/* Throughput of csri_parse_double against strtod on realistic Matrix Market value columns.
 *
 *   number_parse [count]     (default 10,000,000 numbers per data set)
 *
 * Data sets of `count` newline-separated values: "%.16e" of random doubles (what most writers
 * emit for real matrices), "%.17g" of the same, "%.6g" of the same, short integers 1..1000
 * (integer matrices, and the index columns of every file), "%.16e" of exact binary fractions k/64
 * (stencil-like values: 1.0000000000000000e+00, -2.5000000000000000e-01), and a random mix of the
 * first four. Each parser reads the whole buffer; the
 * median of 5 runs is reported in MB/s and ns per number, after checking that both parsers agree
 * bit for bit on every value. Single-threaded; the machine should be otherwise idle. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include "../src/io/decimal/mm_number.h"
#include "bench_clock.h"
#include "bench_random.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUNS 5

static bench_rng rng = {12345};

/* A value in +-[1e-8, 1e8) with a uniformly random 53-bit significand. */
static double random_value(void) {
  static const double scale[17] = {1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0,
                                   1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8};
  uint64_t r = bench_random(&rng);
  double x = bench_unit(r) * scale[r % 17];
  return r & 1024 ? -x : x;
}

/* Parses every value of buf with ours (which == 0) or strtod into out; returns seconds. */
static double parse_all(int which, const char *buf, size_t len, double *out, long count) {
  const char *p = buf, *end = buf + len;
  double t0 = bench_now();
  if (which == 0) {
    int status;
    for (long i = 0; i < count; i++)
      p = csri_parse_double(p, end, &out[i], &status) + 1; /* + 1: the newline */
  } else {
    char *e;
    for (long i = 0; i < count; i++) {
      out[i] = strtod(p, &e);
      p = e + 1;
    }
  }
  return bench_now() - t0;
}

int main(int argc, char **argv) {
  long count = argc > 1 ? atol(argv[1]) : 10000000;
  static const char *const names[] = {"%.16e",       "%.17g",      "%.6g",
                                      "int 1..1000", "exact k/64", "mixed"};
  char *buf = malloc((size_t)count * 26 + 1);
  double *a = malloc((size_t)count * sizeof *a), *b = malloc((size_t)count * sizeof *b);
  if (buf == NULL || a == NULL || b == NULL || count <= 0)
    return 1;
  printf("number_parse: %ld numbers per set, median of %d runs\n", count, RUNS);
  printf("%-12s %9s | %10s %8s | %10s %8s | %7s\n", "set", "MB", "ours MB/s", "ns/num",
         "strtod MB/s", "ns/num", "speedup");
  for (int set = 0; set < 6; set++) {
    size_t len = 0;
    for (long i = 0; i < count; i++) {
      int kind = set < 5 ? set : (int)(bench_random(&rng) % 4);
      if (kind == 3)
        len += (size_t)sprintf(buf + len, "%d\n", (int)(bench_random(&rng) % 1000) + 1);
      else if (kind == 4)
        len += (size_t)sprintf(buf + len, "%.16e\n",
                               (double)((int)(bench_random(&rng) % 2001) - 1000) / 64);
      else
        len += (size_t)sprintf(buf + len,
                               kind == 0   ? "%.16e\n"
                               : kind == 1 ? "%.17g\n"
                                           : "%.6g\n",
                               random_value());
    }
    double t[2][RUNS];
    for (int r = 0; r < RUNS; r++) {
      t[0][r] = parse_all(0, buf, len, a, count);
      t[1][r] = parse_all(1, buf, len, b, count);
    }
    if (memcmp(a, b, (size_t)count * sizeof *a) != 0) {
      printf("number_parse: MISMATCH between csri_parse_double and strtod in set %s\n", names[set]);
      return 1;
    }
    double ours = bench_median(t[0], RUNS), ref = bench_median(t[1], RUNS), mb = (double)len / 1e6;
    printf("%-12s %9.1f | %10.0f %8.2f | %10.0f %8.2f | %6.2fx\n", names[set], mb, mb / ours,
           1e9 * ours / (double)count, mb / ref, 1e9 * ref / (double)count, ref / ours);
  }
  free(buf);
  free(a);
  free(b);
  return 0;
}
