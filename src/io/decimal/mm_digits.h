/* SPDX-License-Identifier: BSD-3-Clause */
/* Scanning runs of ASCII digits, eight per step where the input allows (SWAR). Internal. */
#ifndef CSR_MM_DIGITS_H
#define CSR_MM_DIGITS_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CSRI_SWAR 1 /* eight digits per step needs the first character in the lowest byte */
#else
#define CSRI_SWAR 0
#endif

/* Eight ASCII digits already minus '0', first digit in the lowest byte -> their value. */
static inline uint64_t csri_eight_digits(uint64_t v) {
  v = (v * 10 + (v >> 8)) & UINT64_C(0x00FF00FF00FF00FF);   /* 4 x two digits in 16 bits */
  v = (v * 100 + (v >> 16)) & UINT64_C(0x0000FFFF0000FFFF); /* 2 x four digits in 32 bits */
  return (v & UINT64_C(0xFFFFFFFF)) * 10000 + (v >> 32);
}

static inline int csri_trailing_zeros(uint64_t x) { /* x != 0 */
#if defined(__GNUC__)
  return __builtin_ctzll(x);
#else
  int n = 0;
  for (; !(x & 1); x >>= 1)
    n++;
  return n;
#endif
}

/* Appends the digits at s to *w (wrapping past 19 digits; the caller rescans then) and returns
 * the first non-digit. With 8 bytes readable, a whole run ends without a per-digit branch: the
 * first non-digit byte is located in the word and the digits before it converted at once. */
static inline const char *csri_read_digits(const char *s, const char *end, uint64_t *w) {
  uint64_t v = *w;
#if CSRI_SWAR
  static const uint64_t pow10[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
  while (end - s >= 8) {
    uint64_t c;
    memcpy(&c, s, 8);
    c -= UINT64_C(0x3030303030303030);
    /* A byte is a digit iff (byte - '0') < 10: neither its top bit nor that of (it + 118) is
     * set. Borrows and carries between bytes only start at a byte that already fails, so the
     * lowest flagged byte is exactly the first non-digit. */
    uint64_t bad = (c | (c + UINT64_C(0x7676767676767676))) & UINT64_C(0x8080808080808080);
    if (bad == 0) {
      v = v * 100000000 + csri_eight_digits(c);
      s += 8;
      continue;
    }
    int n = csri_trailing_zeros(bad) >> 3; /* digits before it, 0..7 */
    if (n > 0) /* shift them to the top: the zero bytes below act as leading zeros */
      v = v * pow10[n] + csri_eight_digits(c << (64 - 8 * n));
    *w = v;
    return s + n;
  }
#endif
  while (s < end && (unsigned char)(*s - '0') < 10) {
    v = v * 10 + (uint64_t)(*s - '0');
    s++;
  }
  *w = v;
  return s;
}

#endif /* CSR_MM_DIGITS_H */
