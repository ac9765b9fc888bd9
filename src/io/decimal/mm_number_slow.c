/* SPDX-License-Identifier: BSD-3-Clause */
/* Exact decimal -> double for the inputs Eisel-Lemire leaves undecided (mm_number.c, step 4).
 *
 * The number is held as decimal digits, value = 0.d[0]d[1]...d[nd-1] * 10^dp, and multiplied or
 * divided by powers of two (at most 2^60 at a time, so one digit times 2^60 plus a carry fits in
 * 64 bits) until it lies in [1/2, 1); the binary exponent is the sum of the shifts. Then it is
 * multiplied by 2^53 (fewer bits for subnormals), the integer part is the mantissa and the
 * digits after it decide the rounding. Every shift is exact: division by 2^k appends at most k
 * digits, and from at most MAX_SIG significant digits of a value in [1e-325, 1e310] no step
 * needs more than about 1600 digits (CAP leaves room). The one approximation is at input: only
 * the first MAX_SIG significant digits are kept and `tail` records whether any dropped digit
 * was nonzero. That is enough because a midpoint between adjacent doubles has at most 767
 * significant digits: if the kept prefix is below a midpoint it is below it by at least one unit
 * of its last digit, more than the dropped tail adds; if the prefix equals a midpoint, the tail
 * breaks the tie upward. Slow (thousands of digit operations) but only for rare inputs. */
#include "mm_number.h"

#include <string.h>

#define MAX_SIG 800 /* significant digits kept from the input (> 767, see above) */
#define CAP 2048    /* digit capacity; the bound above keeps every shift exact */

typedef struct {
  int nd;   /* number of digits, no trailing zeros; 0 means the value is zero */
  int dp;   /* decimal point position: value = 0.d[0]d[1]... * 10^dp, d[0] != 0 */
  int tail; /* nonzero digits were dropped after d[nd-1] */
  unsigned char d[CAP];
} decimal;

static void trim(decimal *a) {
  while (a->nd > 0 && a->d[a->nd - 1] == 0)
    a->nd--;
}

/* value /= 2^k, 1 <= k <= 60. Long division, written in place (output never overtakes input). */
static void shift_right(decimal *a, int k) {
  uint64_t acc = 0, mask = (UINT64_C(1) << k) - 1;
  int r = 0, w = 0;
  while ((acc >> k) == 0) { /* read until the quotient has a first nonzero digit */
    acc = acc * 10 + (r < a->nd ? a->d[r] : 0);
    r++;
  }
  a->dp -= r - 1;
  for (; r < a->nd; r++) {
    a->d[w++] = (unsigned char)(acc >> k);
    acc = (acc & mask) * 10 + a->d[r];
  }
  for (; acc != 0; acc = (acc & mask) * 10) {
    if (w < CAP)
      a->d[w++] = (unsigned char)(acc >> k);
    else if ((acc >> k) != 0) /* cannot happen within the bound above; stay safe anyway */
      a->tail = 1;
  }
  a->nd = w;
  trim(a);
}

/* value *= 2^k, 1 <= k <= 60. Multiplies from the last digit up; the new leading digits number
 * at most floor(k log10 2) + 1, so the result is first written that far to the right. */
static void shift_left(decimal *a, int k) {
  int extra = ((k * 1233) >> 12) + 1; /* 1233 / 4096 > log10(2) */
  while (a->nd + extra > CAP) {       /* cannot happen within the bound above */
    a->tail |= a->d[a->nd - 1] != 0;
    a->nd--;
  }
  uint64_t carry = 0;
  int w = a->nd + extra - 1;
  for (int r = a->nd - 1; r >= 0; r--, w--) {
    uint64_t n = ((uint64_t)a->d[r] << k) + carry;
    a->d[w] = (unsigned char)(n % 10);
    carry = n / 10;
  }
  for (; carry != 0; carry /= 10, w--)
    a->d[w] = (unsigned char)(carry % 10);
  int unused = w + 1; /* leading slots the estimate reserved but the carry did not fill */
  memmove(a->d, a->d + unused, (size_t)(a->nd + extra - unused));
  a->nd += extra - unused;
  a->dp += extra - unused;
  trim(a);
}

/* Reads the mantissa text into a; returns 1 if the value is certainly zero (or below 1e-325),
 * 2 if certainly above DBL_MAX (>= 1e309), else 0 with a->dp in [-324, 309]. */
static int decimal_from_text(decimal *a, const char *s, const char *end, int64_t exp10) {
  int64_t dp = 0;
  int point = 0;
  a->nd = 0;
  a->tail = 0;
  for (; s < end; s++) {
    if (*s == '.') {
      point = 1;
    } else if (a->nd == 0 && !a->tail && *s == '0') {
      dp -= point; /* a leading zero after the point moves the first digit right */
    } else {
      dp += !point;
      if (a->nd < MAX_SIG)
        a->d[a->nd++] = (unsigned char)(*s - '0');
      else
        a->tail |= *s != '0';
    }
  }
  trim(a);
  if (a->nd == 0)
    return 1;
  dp += exp10; /* exp10 is saturated near +-1e17 and dp is bounded by the text length */
  if (dp < -324)
    return 1;
  if (dp > 309)
    return 2;
  a->dp = (int)dp;
  return 0;
}

int csri_decimal_to_double_slow(const char *begin, const char *end, int64_t exp10, uint64_t *bits) {
  decimal a; /* 2 KB on the stack: reentrant, unlike a static buffer */
  int range = decimal_from_text(&a, begin, end, exp10);
  if (range != 0) {
    *bits = range == 1 ? 0 : UINT64_C(0x7FF0000000000000);
    return range == 1 ? CSRI_NUM_OK : CSRI_NUM_OUT_OF_RANGE;
  }
  int e2 = 0;        /* value = (digits) * 2^e2 */
  while (a.dp > 0) { /* >= 1: divide, by 2^(3(dp-1)) <= 10^(dp-1) <= value while that is > 1 */
    int k = a.dp > 1 ? (a.dp - 1 > 20 ? 60 : 3 * (a.dp - 1)) : 1;
    shift_right(&a, k);
    e2 += k;
  }
  while (a.dp < 0 || (a.dp == 0 && a.d[0] < 5)) { /* < 1/2: multiply, staying below 1 */
    int k = a.dp < 0 ? (-a.dp > 20 ? 60 : -3 * a.dp) : 1;
    shift_left(&a, k);
    e2 -= k;
  }
  int e = e2 - 1; /* value in [1/2, 1), so the leading one is 2^e */
  if (e > 1023) {
    *bits = UINT64_C(0x7FF0000000000000);
    return CSRI_NUM_OUT_OF_RANGE;
  }
  int subnormal = e < -1022;
  for (int extra = subnormal ? -1022 - e : 0; extra > 0; extra -= 60) /* to the 2^-1074 grid */
    shift_right(&a, extra > 60 ? 60 : extra);
  shift_left(&a, 53); /* now the integer part is the mantissa: < 2^53, at most 16 digits */
  uint64_t mant = 0;
  for (int i = 0; i < a.dp; i++)
    mant = mant * 10 + (i < a.nd ? a.d[i] : 0);
  if (a.dp >= 0 && a.dp < a.nd) { /* digits after the point: round half to even */
    int first = a.d[a.dp];
    int more = a.dp + 1 < a.nd || a.tail;
    mant += (uint64_t)(first > 5 || (first == 5 && (more || (mant & 1))));
  }
  /* As in mm_number.c: a normal's implicit bit adds one to the exponent field; a subnormal that
   * rounds up to 2^52 becomes the least normal by itself; a carry past 2^53 bumps the exponent. */
  *bits = subnormal ? mant : ((uint64_t)(e + 1022) << 52) + mant;
  if (*bits >= UINT64_C(0x7FF0000000000000)) {
    *bits = UINT64_C(0x7FF0000000000000);
    return CSRI_NUM_OUT_OF_RANGE;
  }
  return CSRI_NUM_OK;
}
