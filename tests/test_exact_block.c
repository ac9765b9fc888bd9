/* SPDX-License-Identifier: BSD-3-Clause */
/* The block-wise exact sums (src/kernels/exact_block.h) against the accumulator fed one term at a
 * time (src/kernels/exact_sum.h, itself checked against an independent oracle in
 * test_exact_sum.c): the same normalised words, so the same sum to the last bit, on blocks of
 * every length, terms of one size and of wildly different sizes, cancellation, subnormals,
 * terms near the overflow threshold, NaN and infinities; products and squares too. */
#include "kernels/exact_block.h"
#include "testing.h"

#include <math.h>
#include <string.h>

/* A term of the given kind: 0 similar sizes, 1 exponents over [-300, 300], 2 any bit pattern
 * (finite), 3 subnormal or tiny, 4 near the overflow threshold. */
static double term(csrt_rng *rng, int kind) {
  double sign = csrt_below(rng, 2) ? -1.0 : 1.0;
  switch (kind) {
  case 0: return sign * csrt_uniform(rng, 0.5, 1.0);
  case 1: return sign * ldexp(csrt_uniform(rng, 0.5, 1.0), (int)csrt_below(rng, 601) - 300);
  case 2: {
    uint64_t bits = csrt_next(rng);
    double v;
    memcpy(&v, &bits, sizeof v);
    return isfinite(v) ? v : 1.0;
  }
  case 3: return sign * ldexp(csrt_uniform(rng, 0.5, 1.0), -1074 + (int)csrt_below(rng, 80));
  default: return sign * ldexp(csrt_uniform(rng, 0.5, 1.0), 1024 - (int)csrt_below(rng, 12));
  }
}

static void check_blocks(csrt_rng *rng) {
  double t[CSRI_EXACT_BLOCK], copy[CSRI_EXACT_BLOCK];
  for (int kind = 0; kind < 5; kind++)
    for (int rep = 0; rep < 200; rep++) {
      int n = 1 + (int)csrt_below(rng, CSRI_EXACT_BLOCK);
      for (int i = 0; i < n; i++)
        t[i] = term(rng, kind);
      if (rep % 3 == 0) /* cancellation: the negatives of the first half follow */
        for (int i = n / 2; i < n; i++)
          t[i] = -t[i - n / 2];
      memcpy(copy, t, sizeof t);
      csri_exact_acc a, b;
      csri_exact_init(&a);
      csri_exact_init(&b);
      csri_exact_add_block(&a, t, n);
      for (int i = 0; i < n; i++)
        csri_exact_add(&b, copy[i]);
      CHECKF(csrt_exact_same(&a, &b), "kind %d, %d terms: the block's sum differs from the terms'",
             kind, n);
    }
  /* Specials: a NaN, infinities of both signs. */
  double specials[3][4] = {
      {1.0, NAN, 2.0, 3.0}, {1.0, INFINITY, 2.0, 0.0}, {INFINITY, -INFINITY, 1.0, 1.0}};
  for (int k = 0; k < 3; k++) {
    csri_exact_acc a, b;
    csri_exact_init(&a);
    csri_exact_init(&b);
    double c[4];
    memcpy(c, specials[k], sizeof c);
    csri_exact_add_block(&a, c, 4);
    for (int i = 0; i < 4; i++)
      csri_exact_add(&b, specials[k][i]);
    double ra = csri_exact_round(&a), rb = csri_exact_round(&b);
    CHECKF(memcmp(&ra, &rb, sizeof ra) == 0 || (isnan(ra) && isnan(rb)), "specials %d: %g, %g", k,
           ra, rb);
  }
}

/* Products, squares and absolute values over long vectors (several blocks). */
static void check_vectors(csrt_rng *rng) {
  enum { N = 1000 };
  static double x[N], y[N];
  for (int kind = 0; kind < 5; kind++) {
    for (int i = 0; i < N; i++) {
      x[i] = term(rng, kind == 4 ? 1 : kind);
      y[i] = term(rng, kind == 4 ? 0 : kind);
    }
    int64_t n = 1 + (int64_t)csrt_below(rng, N);
    csri_exact_acc a, b;
    csri_exact_init(&a);
    csri_exact_init(&b);
    csri_exact_add_products(&a, x, y, n);
    for (int64_t i = 0; i < n; i++)
      csri_exact_add(&b, x[i] * y[i]);
    CHECKF(csrt_exact_same(&a, &b), "products, kind %d, %lld terms", kind, (long long)n);
    csri_exact_init(&a);
    csri_exact_init(&b);
    csri_exact_add_abs(&a, x, n);
    for (int64_t i = 0; i < n; i++)
      csri_exact_add(&b, fabs(x[i]));
    CHECKF(csrt_exact_same(&a, &b), "absolute values, kind %d", kind);
  }
  /* Squares of ordinary entries are rounded squares; of huge or tiny ones, exact squares. */
  for (int scale = -1; scale <= 1; scale++) {
    for (int i = 0; i < N; i++)
      x[i] = ldexp(term(rng, 0), scale * 600);
    csri_exact_acc a, b;
    csri_exact_init(&a);
    csri_exact_init(&b);
    csri_exact_add_squares(&a, x, N);
    for (int i = 0; i < N; i++) {
      if (scale == 0)
        csri_exact_add(&b, x[i] * x[i]);
      else
        csri_exact_add_square(&b, x[i]);
    }
    CHECKF(csrt_exact_same(&a, &b), "squares at 2^%d", scale * 600);
    double root = csri_exact_sqrt_round(&a);
    CHECKF(isfinite(root) && root > 0.0, "the norm at 2^%d is %g", scale * 600, root);
  }
  /* Entries of every scale side by side: each square follows its own entry's rule, so the sum is
   * the same wherever the vector is cut into blocks (as processes cut it). */
  for (int i = 0; i < N; i++)
    x[i] = ldexp(term(rng, 0), (int)csrt_below(rng, 1201) - 600);
  x[7] = 0x1p480;
  x[8] = 0x1p-480;
  x[9] = 0x1.0000000000001p480; /* just outside: exact */
  csri_exact_acc whole, oracle, cut;
  csri_exact_init(&whole);
  csri_exact_init(&oracle);
  csri_exact_init(&cut);
  csri_exact_add_squares(&whole, x, N);
  for (int i = 0; i < N; i++) {
    double a = fabs(x[i]);
    if (a >= 0x1p-480 && a <= 0x1p480)
      csri_exact_add(&oracle, x[i] * x[i]);
    else
      csri_exact_add_square(&oracle, x[i]);
  }
  int64_t at = 1 + (int64_t)csrt_below(rng, N - 1);
  csri_exact_add_squares(&cut, x, at);
  csri_exact_add_squares(&cut, x + at, N - at);
  CHECK(csrt_exact_same(&whole, &oracle));
  CHECKF(csrt_exact_same(&cut, &oracle), "squares cut at %lld", (long long)at);
}

int main(void) {
  csrt_rng rng = {csrt_seed("test_exact_block")};
  check_blocks(&rng);
  check_vectors(&rng);
  return csrt_finish("test_exact_block");
}
