/* SPDX-License-Identifier: BSD-3-Clause */
/* The exact accumulator's carries, merge and rounding (src/kernels/exact_sum.h): S is read as a
 * sign and a magnitude of 32-bit digits, from which a window of 64 or 128 bits below the leading
 * one and a sticky bit (anything nonzero below the window) decide the rounding. */
#include "kernels/exact_sum.h"

#include <math.h>

/* Limbs in [-2^63 + 2^31, 2^63 - 2^31] (units <= 2^31) carry at most 2^31 in either direction,
 * so limb + carry stays within int64, and so does the next carry: no step overflows. */
void csri_exact_normalize(csri_exact_acc *acc) {
  int64_t *w = acc->w;
  for (int i = 0; i < CSRI_EXACT_LIMBS - 1; i++) {
    const int64_t digit = (int64_t)((uint64_t)w[i] & 0xffffffffu);
    const int64_t carry = (w[i] - digit) / ((int64_t)1 << 32); /* exact: floor(w[i] / 2^32) */
    w[i] = digit;
    w[i + 1] += carry;
  }
  /* The top limb keeps the signed rest, in [-2^31, 2^31) while |S| < 2^2143 (fewer than 2^95
   * terms, each below 2^2048): the canonical form is reached and counts for one unit. */
  w[CSRI_EXACT_UNITS] = 1;
}

void csri_exact_merge(csri_exact_acc *dst, const csri_exact_acc *src) {
  csri_exact_acc copy;
  if (dst->w[CSRI_EXACT_UNITS] + src->w[CSRI_EXACT_UNITS] > CSRI_EXACT_MAX_UNITS) {
    csri_exact_normalize(dst);
    if (1 + src->w[CSRI_EXACT_UNITS] > CSRI_EXACT_MAX_UNITS) {
      copy = *src;
      csri_exact_normalize(&copy);
      src = &copy;
    }
  }
  for (int i = 0; i < CSRI_EXACT_WORDS; i++)
    dst->w[i] += src->w[i];
}

/* |S| as digits mag[0, CSRI_EXACT_LIMBS) of a normalised accumulator; 1 when S < 0. */
static int csri_exact_magnitude(const csri_exact_acc *acc, uint32_t *mag) {
  const int negative = acc->w[CSRI_EXACT_LIMBS - 1] < 0;
  uint64_t carry = 1; /* two's complement negation: ~digits + 1 */
  for (int i = 0; i < CSRI_EXACT_LIMBS; i++) {
    const uint32_t digit = (uint32_t)acc->w[i];
    if (negative) {
      const uint64_t t = (uint64_t)(uint32_t)~digit + carry;
      mag[i] = (uint32_t)t;
      carry = t >> 32;
    } else {
      mag[i] = digit;
    }
  }
  return negative;
}

/* The position of the leading bit of mag (bit 0 weighs 2^CSRI_EXACT_LOW); -1 for zero. */
static int csri_exact_leading_bit(const uint32_t *mag) {
  for (int i = CSRI_EXACT_LIMBS - 1; i >= 0; i--)
    if (mag[i])
      return 32 * i + 31 - __builtin_clz(mag[i]);
  return -1;
}

static uint32_t csri_exact_digit(const uint32_t *mag, int i) {
  return i >= 0 && i < CSRI_EXACT_LIMBS ? mag[i] : 0;
}

/* floor(pos / 32) for any sign of pos. */
static int csri_exact_digit_of(int pos) {
  return pos >= 0 ? pos / 32 : -((31 - pos) / 32);
}

/* Bits [pos, pos + 128) of mag, zeros outside it (pos may be negative). */
static csri_exact_u128 csri_exact_window(const uint32_t *mag, int pos) {
  const int q = csri_exact_digit_of(pos), r = pos - 32 * q;
  csri_exact_u128 x = 0;
  for (int j = 3; j >= 0; j--)
    x = (x << 32) | csri_exact_digit(mag, q + j);
  x >>= r;
  if (r)
    x |= (csri_exact_u128)csri_exact_digit(mag, q + 4) << (128 - r);
  return x;
}

/* 1 when a bit below pos is set. */
static int csri_exact_below(const uint32_t *mag, int pos) {
  if (pos <= 0)
    return 0;
  const int q = csri_exact_digit_of(pos), r = pos - 32 * q;
  for (int j = 0; j < q && j < CSRI_EXACT_LIMBS; j++)
    if (mag[j])
      return 1;
  return q < CSRI_EXACT_LIMBS && r && (mag[q] & ((1u << r) - 1));
}

/* (m + f) 2^e rounded to a double, to nearest, ties to even, where f = 0 when !inexact and f is in
 * (0, 1) otherwise; m != 0 with at least two bits below the double's last place when inexact
 * (so the half-way bit and f decide). The last place is 2^(E - 52) for a leading bit 2^E, or the
 * subnormals' 2^-1074; ldexp of the rounded integer (<= 2^53) is exact, or +inf. */
static double csri_exact_pack(uint64_t m, int e, int inexact, int negative) {
  const int lead = e + 63 - __builtin_clzll(m);
  const int last = lead - 52 < -1074 ? -1074 : lead - 52;
  const int drop = last - e;
  uint64_t q = m;
  int place = e;
  if (drop > 64) { /* below half the least subnormal */
    q = 0;
    place = last;
  } else if (drop > 0) {
    const uint64_t mask = drop == 64 ? ~(uint64_t)0 : ((uint64_t)1 << drop) - 1;
    const uint64_t half = (uint64_t)1 << (drop - 1), rest = m & mask;
    q = drop == 64 ? 0 : m >> drop;
    if (rest > half || (rest == half && (inexact || (q & 1))))
      q++;
    place = last;
  }
  const double v = ldexp((double)q, place);
  return negative ? -v : v;
}

/* IEEE's special cases of the plain sum, or 0 when there are none. */
static int csri_exact_specials(const csri_exact_acc *acc, double *result) {
  const int64_t *w = acc->w;
  if (w[CSRI_EXACT_NAN] || (w[CSRI_EXACT_POS_INF] && w[CSRI_EXACT_NEG_INF]))
    *result = NAN;
  else if (w[CSRI_EXACT_POS_INF])
    *result = INFINITY;
  else if (w[CSRI_EXACT_NEG_INF])
    *result = -INFINITY;
  else
    return 0;
  return 1;
}

double csri_exact_round(const csri_exact_acc *acc) {
  double special;
  if (csri_exact_specials(acc, &special))
    return special;
  csri_exact_acc s = *acc;
  csri_exact_normalize(&s);
  uint32_t mag[CSRI_EXACT_LIMBS];
  const int negative = csri_exact_magnitude(&s, mag);
  const int lead = csri_exact_leading_bit(mag);
  if (lead < 0)
    return 0.0; /* an exact zero is +0 */
  /* The 64 bits from the leading one down: 11 or more below the last place of any double. */
  const int pos = lead - 63;
  const uint64_t m = (uint64_t)csri_exact_window(mag, pos);
  return csri_exact_pack(m, pos + CSRI_EXACT_LOW, csri_exact_below(mag, pos), negative);
}

/* With S = T 2^(2k) + (a rest below 2^(2k)) and T an integer of 109 or 110 bits, r = isqrt(T) has
 * 55 bits and sqrt(S) lies in [r, r + 1) 2^k, equal to r 2^k only when r^2 = T and the rest is
 * zero: r, 2^k and that inexact flag round sqrt(S) correctly (at least 2 bits of r lie below the
 * last place). */
double csri_exact_sqrt_round(const csri_exact_acc *acc) {
  const int64_t *w = acc->w;
  if (w[CSRI_EXACT_NAN] || w[CSRI_EXACT_NEG_INF])
    return NAN;
  if (w[CSRI_EXACT_POS_INF])
    return INFINITY;
  csri_exact_acc s = *acc;
  csri_exact_normalize(&s);
  uint32_t mag[CSRI_EXACT_LIMBS];
  if (csri_exact_magnitude(&s, mag))
    return NAN; /* S < 0 */
  const int lead = csri_exact_leading_bit(mag);
  if (lead < 0)
    return 0.0;
  int two_k = lead + CSRI_EXACT_LOW - 108;
  if (two_k % 2)
    two_k--; /* even, rounding down: T gets 109 or 110 bits */
  const csri_exact_u128 t = csri_exact_window(mag, two_k - CSRI_EXACT_LOW);
  const int rest = csri_exact_below(mag, two_k - CSRI_EXACT_LOW);
  uint64_t r = (uint64_t)sqrt((double)t); /* within a few units of isqrt(t) */
  while ((csri_exact_u128)r * r > t)
    r--;
  while ((csri_exact_u128)(r + 1) * (r + 1) <= t)
    r++;
  return csri_exact_pack(r, two_k / 2, rest || (csri_exact_u128)r * r != t, 0);
}
