/* SPDX-License-Identifier: BSD-3-Clause */
/* Numbers -> decimal text: the shortest round-trip digits (mm_print_shortest.c) laid out as
 * plain or scientific text, integers two digits per step. */
#include "mm_print.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930"
    "31323334353637383940414243444546474849505152535455565758596061"
    "62636465666768697071727374757677787980818283848586878889909192"
    "93949596979899";

/* Writes the decimal digits of d so that they end just before `end`; returns their start. */
static char *put_digits(uint64_t d, char *end) {
  while (d >= 100000000) { /* eight digits at a time in 32-bit arithmetic */
    uint32_t lo = (uint32_t)(d % 100000000), a = lo / 10000, b = lo % 10000;
    d /= 100000000;
    end -= 8;
    memcpy(end, digit_pairs + 2 * (a / 100), 2);
    memcpy(end + 2, digit_pairs + 2 * (a % 100), 2);
    memcpy(end + 4, digit_pairs + 2 * (b / 100), 2);
    memcpy(end + 6, digit_pairs + 2 * (b % 100), 2);
  }
  uint32_t x = (uint32_t)d;
  while (x >= 100) {
    end -= 2;
    memcpy(end, digit_pairs + 2 * (x % 100), 2);
    x /= 100;
  }
  if (x >= 10) {
    end -= 2;
    memcpy(end, digit_pairs + 2 * x, 2);
  } else {
    *--end = (char)('0' + x);
  }
  return end;
}

/* The number of decimal digits of d >= 1. */
static inline int digit_count(uint64_t d) {
  static const uint64_t pow10[20] = {// clang-format off
      1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000, 10000000000,
      100000000000, 1000000000000, 10000000000000, 100000000000000, 1000000000000000,
      10000000000000000, 100000000000000000, 1000000000000000000, 10000000000000000000u};
  // clang-format on
#if defined(__GNUC__)
  int bits = 64 - __builtin_clzll(d);
#else
  int bits = 0;
  for (uint64_t x = d; x; x >>= 1)
    bits++;
#endif
  int t = (bits * 1233) >> 12; /* 1233 / 4096 ~ log10(2): 10^t <= 2^bits, d < 10^(t+1) */
  return t + (d >= pow10[t]);
}

int csri_print_int64(int64_t v, char *out) {
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  int neg = v < 0, n = u ? digit_count(u) : 1;
  out[0] = '-';
  put_digits(u, out + neg + n);
  return neg + n;
}

/* digits * 10^e (digits >= 1) after the optional sign, in the shorter layout. The digits are
 * written straight to their place (or one to the right, then the leading ones moved). */
static int put_decimal(uint64_t digits, int e, int negative, char *out) {
  int n = digit_count(digits), x = e + n - 1; /* x: the exponent of the leading digit */
  int ax = x < 0 ? -x : x;
  int sci_len = n + (n > 1) + 2 + (ax >= 100 ? 3 : 2);
  int plain_len = e >= 0 ? n + e : x >= 0 ? n + 1 : 2 - e;
  char *o = out + negative;
  out[0] = '-'; /* without a branch on the sign; overwritten when v > 0 */
  if (plain_len <= sci_len) {
    if (e >= 0) { /* 12300 */
      put_digits(digits, o + n);
      memset(o + n, '0', (size_t)e);
    } else if (x >= 0) { /* 12.3 */
      put_digits(digits, o + n + 1);
      for (int i = 0; i <= x; i++)
        o[i] = o[i + 1];
      o[x + 1] = '.';
    } else { /* 0.00123 */
      o[0] = '0';
      o[1] = '.';
      memset(o + 2, '0', (size_t)(-x - 1));
      put_digits(digits, o + plain_len);
    }
    return negative + plain_len;
  }
  put_digits(digits, o + 1 + n); /* 1.23e-07 */
  o[0] = o[1];
  o[1] = '.';
  char *q = o + n + (n > 1);
  q[0] = 'e';
  q[1] = x < 0 ? '-' : '+';
  if (ax >= 100) {
    q[2] = (char)('0' + ax / 100);
    memcpy(q + 3, digit_pairs + 2 * (ax % 100), 2);
  } else {
    memcpy(q + 2, digit_pairs + 2 * ax, 2);
  }
  return negative + sci_len;
}

static int put_special(double v, char *out) {
  const char *s = isnan(v) ? "nan" : isinf(v) ? (v < 0 ? "-inf" : "inf") : signbit(v) ? "-0" : "0";
  size_t n = strlen(s);
  memcpy(out, s, n);
  return (int)n;
}

/* Digits and exponent of buf ("d.ddde+XX", any decimal point). */
static uint64_t scan_e(const char *buf, int *exp10) {
  uint64_t d = 0;
  const char *s = buf;
  int nd = 0;
  for (; *s != 'e'; s++)
    if (*s >= '0' && *s <= '9') {
      d = d * 10 + (uint64_t)(*s - '0');
      nd++;
    }
  *exp10 = atoi(s + 1) - (nd - 1);
  return d;
}

void csri_shortest_slow(double v, int is_float, uint64_t *digits, int *exp10) {
  char buf[48];
  uint64_t d = 0;
  int e = 0;
  v = fabs(v);
  for (int p = 1; p <= 17; p++) {
    snprintf(buf, sizeof buf, "%.*e", p - 1, v); /* the nearest decimal of p digits */
    d = scan_e(buf, &e);
    double r = is_float ? (double)strtof(buf, NULL) : strtod(buf, NULL);
    if (r == v)
      break;
    if (r < v) { /* at a binade's lowest value R is narrower below v: try the next one up */
      snprintf(buf, sizeof buf, "%" PRIu64 "e%d", d + 1, e);
      r = is_float ? (double)strtof(buf, NULL) : strtod(buf, NULL);
      if (r == v) {
        d++;
        break;
      }
    }
  }
  for (; d % 10 == 0; d /= 10)
    e++;
  *digits = d;
  *exp10 = e;
}

int csri_shortest_double(double v, uint64_t *digits, int *exp10) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  uint64_t f = bits & ((UINT64_C(1) << 52) - 1);
  int be = (int)(bits >> 52 & 0x7FF);
  uint64_t c = be ? f | UINT64_C(1) << 52 : f;
  int q = be ? be - 1075 : -1074;
  if (q <= 0 && q >= -52 && (c & ((UINT64_C(1) << -q) - 1)) == 0) {
    /* An integer below 2^53: R is at most 1 wide, so no decimal there is shorter than v and v
     * is the closest (test_mm_print.c compares these too). */
    int e = 0;
    uint64_t d = c >> -q;
    for (; d % 10 == 0; d /= 10)
      e++;
    *digits = d;
    *exp10 = e;
    return 0;
  }
  if (csri_shortest_fast(c, q, f == 0 && be > 1, digits, exp10) == 0)
    return 0;
  csri_shortest_slow(v, 0, digits, exp10);
  return 1;
}

int csri_shortest_float(float v, uint64_t *digits, int *exp10) {
  uint32_t bits;
  memcpy(&bits, &v, sizeof bits);
  uint32_t f = bits & ((UINT32_C(1) << 23) - 1);
  int be = (int)(bits >> 23 & 0xFF);
  uint64_t c = be ? f | UINT32_C(1) << 23 : f;
  int q = be ? be - 150 : -149;
  if (csri_shortest_fast(c, q, f == 0 && be > 1, digits, exp10) == 0)
    return 0;
  csri_shortest_slow(v, 1, digits, exp10);
  return 1;
}

int csri_print_double(double v, char *out) {
  if (v == 0 || !isfinite(v))
    return put_special(v, out);
  uint64_t d;
  int e;
  csri_shortest_double(v, &d, &e);
  return put_decimal(d, e, v < 0, out);
}

int csri_print_float(float v, char *out) {
  if (v == 0 || !isfinite(v))
    return put_special(v, out);
  uint64_t d;
  int e;
  csri_shortest_float(v, &d, &e);
  return put_decimal(d, e, v < 0, out);
}
