/* SPDX-License-Identifier: BSD-3-Clause */
/* The shortest decimal that rounds back to a binary floating-point value: a Schubfach-style
 * search (R. Giulietti, "The Schubfach way to render doubles", 2020), written from the paper's
 * mathematics; the arithmetic and the undecidable-case handling below are our own.
 *
 * The value v = c * 2^q reads back from every decimal in its rounding interval R: the points
 * closer to v than to its neighbours, [v - 2^(q-1), v + 2^(q-1)] (the lower half-width is
 * 2^(q-2) when `irregular`), endpoints included iff c is even (ties-to-even reading). In units
 * of 2^(q-2) its ends and centre are the integers cbl = 4c - 2 (4c - 1), cbr = 4c + 2, cb = 4c.
 *
 * Pick k = floor(log10 of the width of R): 10^k <= width < 10^(k+1). Then
 *  - R holds at most one multiple of 10^(k+1) (it is narrower than their spacing);
 *  - R holds s*10^k or t*10^k, where s = floor(v / 10^k) and t = s + 1: the nearer of the two
 *    is at most 10^k / 2 <= 2^(q-1) from v (equal only for q = 0, where v = s). Irregular
 *    (10^k <= 3/4 2^q): s is within 10^k / 3 <= 2^(q-2) below v, or t is less than
 *    2/3 10^k <= 2^(q-1) above it.
 * So if a multiple D of 10^(k+1) lies in R and s >= 10, D is the shortest decimal: any other
 * decimal in R is a multiple of 10^k within 10^(k+1) of D with at least as many digits, and
 * with as many only when it is farther from v (below 10 * 10^k, so D lies between it and v).
 * Otherwise every decimal of R with fewest digits is a multiple of 10^k with the same number of
 * digits (none of them ends in 0) and the one closest to v is s or t: whichever lies in R, and
 * if both do, the closer, the even one on a tie. With s < 10 the multiples of 10^(k+1) (only
 * 10 * 10^k can be near) have one digit like s and t, and are never closer to v than both.
 *
 * The arithmetic. For m in {cbl, cb, cbr} we need X = m 2^(q-2) / 10^k * 4 = m 2^q 10^-k
 * "rounded to odd": floor(X), with the lowest bit set when X is not an integer. Comparisons of
 * that with multiples of 4 (4s, 4t, 4(s + 1/2) = 4s + 2) come out as they would on X itself.
 * With j = -k, the table row M = floor(5^j 2^-r), 2^127 <= M < 2^128, gives
 * X = m 2^h (M + f) / 2^128 where h = 1 + q + floor(j log2 10) is 1..4 and 0 <= f < 1
 * (f = 0 exactly when 0 <= j <= 55). With mh = m 2^h < 2^60, P = mh M = H 2^128 + L (192
 * bits): X = H + (L + mh f) / 2^128.
 *  - f = 0: floor(X) = H, integer iff L = 0.
 *  - f > 0 and L <= 2^128 - mh: floor(X) = H and X is not an integer (0 < L + mh f < 2^128).
 *  - otherwise (L within mh < 2^60 of 2^128: chance about 2^-68 for a random value, but every
 *    time X is an integer with k > 0, e.g. v = 10^22): X is in [H, H + 2); with k <= 27 the
 *    exact test m 2^(q-k) >= (H + 1) 5^k in 128 bits decides; beyond that we give up (-1) and
 *    the caller uses the slow path. There X is never an integer (k > 27: 5^k > 2^62 > m;
 *    j > 55: 2^127 or more divides its denominator), and the paper's analysis (126 bits of
 *    10^-k always decide for doubles) suggests X is never that close to one either: the tests
 *    count slow-path uses and have seen none, and the exact test above ran only on integer X. */
#include "mm_number.h"
#include "mm_print.h"

static inline void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
#if defined(__SIZEOF_INT128__)
  __extension__ unsigned __int128 prod = (unsigned __int128)a * b;
  *hi = (uint64_t)(prod >> 64);
  *lo = (uint64_t)prod;
#else /* 32-bit halves; the middle sum cannot overflow (3 * (2^32 - 1) < 2^64) */
  uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
  *lo = (mid << 32) | (uint32_t)p00;
  *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

typedef struct scale {
  const uint64_t *m; /* the table row of 5^j */
  int h, q, k, exact;
} scale;

/* The undecided case: X = m 2^(q-k) / 5^k lies in [H, H + 2); compare with H + 1 exactly.
 * Returns 0 and the rounded-to-odd X, or -1 when k is out of this test's reach. */
static int settle(const scale *sc, uint64_t m, uint64_t H, uint64_t *x) {
  int k = sc->k, sh = sc->q - sc->k;
  if (k < 1 || k > 27 || sh > 70) /* 5^27 < 2^63; m < 2^56, so m 2^70 < 2^126 */
    return -1;
  uint64_t p5 = 1, rh, rl, lh, ll;
  for (int i = 0; i < k; i++)
    p5 *= 5;
  mul_64x64(H + 1, p5, &rh, &rl);
  lh = sh >= 64 ? m << (sh - 64) : sh == 0 ? 0 : m >> (64 - sh);
  ll = sh >= 64 ? 0 : m << sh;
  if (lh > rh || (lh == rh && ll >= rl)) /* X >= H + 1 */
    *x = (H + 1) | (uint64_t)(lh != rh || ll != rl);
  else
    *x = H | 1;
  return 0;
}

/* X = m 2^q 10^-k rounded to odd; -1 when undecidable here. */
static inline int scaled(const scale *sc, uint64_t m, uint64_t *x) {
  uint64_t mh = m << sc->h, a1, a0, b1, b0;
  mul_64x64(mh, sc->m[0], &a1, &a0);
  mul_64x64(mh, sc->m[1], &b1, &b0);
  uint64_t p1 = a0 + b1, H = a1 + (p1 < b1); /* P = H : p1 : b0 */
  if (sc->exact) {
    *x = H | (uint64_t)((p1 | b0) != 0);
    return 0;
  }
  if (p1 != UINT64_MAX || b0 <= 0 - mh) { /* L <= 2^128 - mh */
    *x = H | 1;
    return 0;
  }
  return settle(sc, m, H, x);
}

/* Removes the trailing zeros of d != 0, adding their count to *e. */
static uint64_t strip_zeros(uint64_t d, int *e) {
  while (d % 100000000 == 0) {
    d /= 100000000;
    *e += 8;
  }
  if (d % 10000 == 0) {
    d /= 10000;
    *e += 4;
  }
  if (d % 100 == 0) {
    d /= 100;
    *e += 2;
  }
  if (d % 10 == 0) {
    d /= 10;
    *e += 1;
  }
  return d;
}

int csri_shortest_fast(uint64_t c, int q, int irregular, uint64_t *digits, int *exp10) {
  scale sc;
  sc.k = irregular ? csri_floor_log10_three_quarters_pow2(q) : csri_floor_log10_pow2(q);
  int j = -sc.k;
  if (j < CSRI_POW5_MIN_Q || j > CSRI_PRINT_POW5_MAX_J)
    return -1; /* not for binary64 or binary32 values */
  sc.m = j <= CSRI_POW5_MAX_Q ? csri_pow5_128[j - CSRI_POW5_MIN_Q] : csri_print_pow5_ext[j - 309];
  sc.h = 1 + q + csri_floor_log2_pow10(j);
  sc.q = q;
  sc.exact = j >= 0 && j <= 55;
  uint64_t cb = c << 2, cbl = cb - 2 + (uint64_t)(irregular != 0), cbr = cb + 2;
  uint64_t vb, vbl, vbr;
  if (scaled(&sc, cb, &vb) || scaled(&sc, cbl, &vbl) || scaled(&sc, cbr, &vbr))
    return -1;
  uint64_t open = c & 1; /* odd c: R excludes its ends */
  uint64_t s = vb >> 2, d;
  int e = sc.k;
  if (s >= 10) { /* a multiple of 10^(k+1) in R? */
    uint64_t sp10 = s / 10 * 10, tp10 = sp10 + 10;
    int u_in = vbl + open <= sp10 << 2, w_in = (tp10 << 2) + open <= vbr;
    if (u_in != w_in) { /* never both: R is narrower than 10^(k+1) */
      *digits = strip_zeros(u_in ? sp10 : tp10, &e);
      *exp10 = e;
      return 0;
    }
  }
  uint64_t t = s + 1;
  int u_in = vbl + open <= s << 2, w_in = (t << 2) + open <= vbr;
  if (u_in != w_in)
    d = u_in ? s : t;
  else /* both: the closer, the even one on a tie */
    d = vb < (s << 2) + 2 || (vb == (s << 2) + 2 && !(s & 1)) ? s : t;
  *digits = d == 10 ? 1 : d; /* 10 only when s = 9 */
  *exp10 = e + (d == 10);
  return 0;
}
