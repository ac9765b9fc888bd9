/* SPDX-License-Identifier: BSD-3-Clause */
/* Block-wise exact sums (exact_block.h): error-free extraction, level by level. */
#include "kernels/exact_block.h"

#include <math.h>

/* The largest |t_i|, and whether every t_i is finite (t_i * 0 is 0 for a finite t_i, NaN for a
 * NaN or an infinity: their sum says it without a branch). */
static double largest(const double *t, int n, int *finite) {
  double m0 = 0.0, m1 = 0.0, z0 = 0.0, z1 = 0.0;
  int i = 0;
  for (; i + 2 <= n; i += 2) {
    double a = fabs(t[i]), b = fabs(t[i + 1]);
    m0 = a > m0 ? a : m0;
    m1 = b > m1 ? b : m1;
    z0 += t[i] * 0.0;
    z1 += t[i + 1] * 0.0;
  }
  for (; i < n; i++) {
    double a = fabs(t[i]);
    m0 = a > m0 ? a : m0;
    z0 += t[i] * 0.0;
  }
  *finite = z0 + z1 == 0.0;
  return m0 > m1 ? m0 : m1;
}

/* One level: sum of the extracted high parts (exact), the rests left in t, their largest. */
static double extract(double *t, int n, double sigma, double *rest_max) {
  double s0 = 0.0, s1 = 0.0, m0 = 0.0, m1 = 0.0;
  int i = 0;
  for (; i + 2 <= n; i += 2) { /* two chains: every order gives the same exact sum */
    double q0 = (sigma + t[i]) - sigma, q1 = (sigma + t[i + 1]) - sigma;
    double r0 = t[i] - q0, r1 = t[i + 1] - q1;
    s0 += q0;
    s1 += q1;
    t[i] = r0;
    t[i + 1] = r1;
    m0 = fabs(r0) > m0 ? fabs(r0) : m0;
    m1 = fabs(r1) > m1 ? fabs(r1) : m1;
  }
  for (; i < n; i++) {
    double q = (sigma + t[i]) - sigma, r = t[i] - q;
    s0 += q;
    t[i] = r;
    m0 = fabs(r) > m0 ? fabs(r) : m0;
  }
  *rest_max = m0 > m1 ? m0 : m1;
  return s0 + s1;
}

void csri_exact_add_block(csri_exact_acc *acc, double *t, int n) {
  int finite = 1;
  double m = largest(t, n, &finite);
  /* sigma = 2^k >= 2 n m: 2 n < 2^10 for the block size. */
  for (int level = 0; finite && m > 0.0 && level < 8; level++) {
    int e = 0;
    frexp(m, &e); /* m < 2^e */
    if (e + 10 > 1023)
      break; /* sigma would overflow: the terms one by one */
    double sigma = ldexp(1.0, e + 10), rest = 0.0;
    csri_exact_add(acc, extract(t, n, sigma, &rest));
    m = rest;
  }
  if (finite && m == 0.0)
    return;
  for (int i = 0; i < n; i++) /* what is left (or non-finite terms), exactly, one by one */
    if (t[i] != 0.0)
      csri_exact_add(acc, t[i]);
}

void csri_exact_add_products(csri_exact_acc *acc, const double *x, const double *y, int64_t n) {
  double t[CSRI_EXACT_BLOCK];
  for (int64_t b = 0; b < n; b += CSRI_EXACT_BLOCK) {
    int len = n - b < CSRI_EXACT_BLOCK ? (int)(n - b) : CSRI_EXACT_BLOCK;
    for (int i = 0; i < len; i++)
      t[i] = x[b + i] * y[b + i];
    csri_exact_add_block(acc, t, len);
  }
}

void csri_exact_add_squares(csri_exact_acc *acc, const double *x, int64_t n) {
  double t[CSRI_EXACT_BLOCK];
  for (int64_t b = 0; b < n; b += CSRI_EXACT_BLOCK) {
    int len = n - b < CSRI_EXACT_BLOCK ? (int)(n - b) : CSRI_EXACT_BLOCK;
    for (int i = 0; i < len; i++) {
      double a = fabs(x[b + i]);
      if (a >= 0x1p-480 && a <= 0x1p480) {
        t[i] = x[b + i] * x[b + i];
      } else { /* a square that could overflow or underflow (or a NaN, an infinity): exact */
        t[i] = 0.0;
        if (a != 0.0)
          csri_exact_add_square(acc, x[b + i]);
      }
    }
    csri_exact_add_block(acc, t, len);
  }
}

void csri_exact_add_abs(csri_exact_acc *acc, const double *x, int64_t n) {
  double t[CSRI_EXACT_BLOCK];
  for (int64_t b = 0; b < n; b += CSRI_EXACT_BLOCK) {
    int len = n - b < CSRI_EXACT_BLOCK ? (int)(n - b) : CSRI_EXACT_BLOCK;
    for (int i = 0; i < len; i++)
      t[i] = fabs(x[b + i]);
    csri_exact_add_block(acc, t, len);
  }
}
