/* SPDX-License-Identifier: BSD-3-Clause */
/* Decimal text -> correctly rounded double (Clinger, then Eisel-Lemire, then exact) and -> int64.
 *
 * The algorithm. A token [+-] digits [. digits] [e [+-] digits] is scanned once, eight digits at a
 * time where possible, into w (the first 19 significant digits, < 10^19 < 2^64) and q, so that
 * the value is w * 10^q, or lies strictly between w * 10^q and (w + 1) * 10^q when nonzero digits
 * were cut off ("truncated"). Then, first that applies:
 *  1. w == 0: +-0. q < -342: 0 (value < 10^-324 < half the least subnormal). q > 308: overflow.
 *  2. Clinger's fast path: not truncated, w <= 2^53, |q| <= 22. w and 10^|q| are exact doubles,
 *     so one IEEE multiply or divide rounds the exact value once, correctly.
 *  3. Eisel-Lemire: the table holds M = floor(5^q * 2^-s) with 2^127 <= M < 2^128, so
 *     w * 10^q = (w << lz) * M * 2^(s + q - lz) up to the error of M. With W = w << lz, the
 *     exact scaled value V = W * (M + f), 0 <= f < 1 (f = 0 when 5^q < 2^128), lies in
 *     [P, P + W) where P = W * M (192 bits). We need V's 53 leading bits (fewer for subnormals),
 *     the next one (round bit) and whether anything below that is nonzero (sticky).
 *     First only W * M_high = hi:lo is formed. The rest of V adds less than W to lo, so it can
 *     carry 1 into hi only if lo > 2^64 - W, and that carry reaches the round bit only if the
 *     bits of hi below it are all ones. Otherwise round bit and sticky are known (sticky: those
 *     bits or lo nonzero, or the rest nonzero, i.e. M_low != 0 or f > 0, known from q). In the
 *     rare other case W * M_low is added to get P exactly. If f = 0, P decides alone. If f > 0,
 *     V - P is in (0, 2^64): the round bit is P's unless P's bits below it down to bit 64 are all
 *     ones (then we give up), and sticky is certainly nonzero. A true halfway V with f > 0 always
 *     gives up, so ties are never misjudged. With truncated digits, w and w + 1 are converted:
 *     equal results bracket the value and are the answer (rounding is monotone); else step 4.
 *  4. The slow path (mm_number_slow.c) converts the decimal digits exactly (shifting a decimal
 *     digit buffer by powers of two), keeping 800 significant digits plus a nonzero-tail flag:
 *     a midpoint between doubles has at most 767 significant digits, so this decides every tie.
 * Exponents saturate near 10^17 while scanning, so 1e+99999999999 neither wraps nor misleads.
 * Round half to even throughout, overflow after rounding is an error, underflow is not. */
#include "mm_number.h"
#include "mm_digits.h"

#include <float.h>
#include <string.h>

#define INF_BITS UINT64_C(0x7FF0000000000000)
#define SIGN_BIT UINT64_C(0x8000000000000000)

static inline void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
#if defined(__SIZEOF_INT128__)
  __extension__ unsigned __int128 prod = (unsigned __int128)a * b;
  *hi = (uint64_t)(prod >> 64);
  *lo = (uint64_t)prod;
#else /* schoolbook on 32-bit halves; the middle sum cannot overflow (3 * (2^32 - 1) < 2^64) */
  uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
  *lo = (mid << 32) | (uint32_t)p00;
  *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

static inline int leading_zeros(uint64_t x) { /* x != 0 */
#if defined(__GNUC__)
  return __builtin_clzll(x);
#else
  int n = 0;
  while (!(x >> 63)) {
    x <<= 1;
    n++;
  }
  return n;
#endif
}

/* floor(q * log2(10)) without signed shifts or branches. 217706 / 2^16 is log2(10) to within
 * 2^-18, enough over the table's range (tests/gen_pow5_table.c checks every q against exact bit
 * lengths), and the offset is exact: 32768 * 217706 / 2^16 = 108853. */
static inline int floor_log2_pow10(int q) {
  return (int)(((uint64_t)(q + 32768) * 217706) >> 16) - 108853;
}

/* w * 10^q correctly rounded, as IEEE bits without sign; 0 when it cannot decide.
 * Needs w != 0 and CSRI_POW5_MIN_Q <= q <= CSRI_POW5_MAX_Q. */
static int eisel_lemire(uint64_t w, int q, uint64_t *bits) {
  const uint64_t *m = csri_pow5_128[q - CSRI_POW5_MIN_Q];
  int lz = leading_zeros(w), exact = q >= 0 && q <= 55; /* exact: M == 5^q * 2^-s, f == 0 */
  int rest_nonzero = !exact || m[1] != 0, refined = 0;
  uint64_t wn = w << lz, hi, lo, x = 0;
  mul_64x64(wn, m[0], &hi, &lo);
  /* The uncomputed rest adds at most wn - 1 to lo (it is < wn * 2^64): a carry into hi needs
   * lo > 2^64 - wn, and it reaches the round bit (bit 9 or higher) only through all-ones bits
   * below it, which include hi's low 9 bits. */
  if ((hi & 0x1FF) == 0x1FF && lo > UINT64_MAX - (wn - 1)) {
    uint64_t h2, l2; /* rare: form P = W * M exactly */
    mul_64x64(wn, m[1], &h2, &l2);
    lo += h2;
    hi += lo < h2;
    x = l2;
    rest_nonzero = !exact;
    refined = 1;
  }
  int t = 62 + (int)(hi >> 63); /* P >= 2^190, so its leading one is bit 190 or 191 */
  int eb = 1024 + t + floor_log2_pow10(q) - lz; /* biased exponent, if normal */
  if (eb >= 2047) {
    *bits = INF_BITS;
    return 1;
  }
  int keep = eb >= 1 ? 53 : 52 + eb; /* bits that survive (53 unless subnormal) */
  if (keep < 0) { /* below 2^-1075: zero, unless a carry could lift it to that boundary */
    *bits = 0;
    return ((hi + 1) & hi) != 0;
  }
  int rb = t - keep; /* round bit position in hi, 9..63 */
  uint64_t below_mask = (UINT64_C(1) << rb) - 1, below = hi & below_mask;
  if (refined && !exact && below == below_mask && lo == UINT64_MAX)
    return 0; /* V - P in (0, 2^64) may or may not carry into the round bit */
  int round = (int)(hi >> rb & 1);
  int sticky = below != 0 || lo != 0 || x != 0 || rest_nonzero;
  uint64_t mant = rb == 63 ? 0 : hi >> (rb + 1);
  mant += (uint64_t)(round && (sticky || (mant & 1)));
  /* A normal's implicit one (bit 52 of mant) adds 1 to the exponent field, hence eb - 1; a
   * carry out of the mantissa, or a subnormal rounding up to 2^-1022, lands right too. */
  *bits = (eb >= 1 ? (uint64_t)(eb - 1) << 52 : 0) + mant;
  return 1;
}

/* Case-insensitive match of the lowercase word at s (ASCII letters only). */
static int match_word(const char *s, const char *end, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(end - s) < n)
    return 0;
  for (size_t i = 0; i < n; i++)
    if ((s[i] | 0x20) != word[i])
      return 0;
  return 1;
}

/* inf, infinity, nan, nan(chars) at s (after the sign), as glibc strtod accepts them. */
static const char *parse_special(const char *p, const char *s, const char *end, uint64_t sign,
                                 double *out, int *status) {
  uint64_t bits;
  if (match_word(s, end, "inf")) {
    s += match_word(s, end, "infinity") ? 8 : 3;
    bits = INF_BITS;
  } else if (match_word(s, end, "nan")) {
    s += 3;
    if (s < end && *s == '(') { /* nan(chars): the parentheses count only when closed */
      const char *t = s + 1;
      while (t < end && ((unsigned char)(*t - '0') < 10 ||
                         (unsigned char)((*t | 0x20) - 'a') < 26 || *t == '_'))
        t++;
      if (t < end && *t == ')')
        s = t + 1;
    }
    bits = UINT64_C(0x7FF8000000000000);
  } else {
    *out = 0;
    *status = CSRI_NUM_SYNTAX;
    return p;
  }
  bits |= sign;
  memcpy(out, &bits, sizeof bits);
  *status = CSRI_NUM_OK;
  return s;
}

const char *csri_parse_double(const char *p, const char *end, double *out, int *status) {
  static const double pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const char *s = p;
  uint64_t sign = 0, w = 0;
  if (s < end) { /* without a branch: the sign is as random as the data */
    sign = (uint64_t)(*s == '-') << 63;
    s += *s == '-' || *s == '+';
  }
  const char *mant = s, *int_end, *frac;
  if (end - s >= 2 && (unsigned char)(s[0] - '0') < 10 && s[1] == '.') { /* d.ddd: %e output */
    w = (uint64_t)(s[0] - '0');
    int_end = s + 1;
    s = csri_read_digits(frac = s + 2, end, &w);
  } else {
    s = csri_read_digits(s, end, &w);
    int_end = frac = s;
    if (s < end && *s == '.')
      s = csri_read_digits(frac = s + 1, end, &w);
  }
  const char *mant_end = s;
  int64_t nfrac = s - frac, ndig = (int_end - mant) + nfrac;
  if (ndig == 0)
    return parse_special(p, mant, end, sign, out, status);
  int64_t exp10 = 0;
  if (end - s >= 2 && (*s | 0x20) == 'e') { /* the exponent counts only if it has a digit */
    const char *t = s + 1;
    int eneg = *t == '-';
    t += *t == '-' || *t == '+';
    const char *d = t;
    uint64_t ev = 0;
    if (end - t >= 3 && (unsigned char)(t[0] - '0') < 10 && (unsigned char)(t[1] - '0') < 10 &&
        (unsigned char)(t[2] - '0') >= 10) { /* two digits, as printf writes them */
      ev = (uint64_t)(t[0] - '0') * 10 + (uint64_t)(t[1] - '0');
      t += 2;
    } else {
      t = csri_read_digits(t, end, &ev);
    }
    if (t > d) {
      if (t - d > 17) /* long (maybe leading zeros): saturate, far beyond any double */
        for (ev = 0; d < t; d++)
          ev = ev < UINT64_C(100000000000000000) ? ev * 10 + (uint64_t)(*d - '0') : ev;
      exp10 = eneg ? -(int64_t)ev : (int64_t)ev;
      s = t;
    }
  }
  int64_t q = exp10 - nfrac;
  int truncated = 0;
  if (ndig > 19) { /* w may have wrapped: redo it from the first 19 significant digits */
    const char *t = mant;
    int64_t zeros = 0;
    for (; t < mant_end && (*t == '0' || *t == '.'); t++)
      zeros += *t == '0';
    if (ndig - zeros > 19) {
      w = 0;
      for (int k = 0; k < 19; t++)
        if (*t != '.') {
          w = w * 10 + (uint64_t)(*t - '0');
          k++;
        }
      q = t <= int_end ? exp10 + (int_end - t) : exp10 - (t - frac);
      for (; t < mant_end && !truncated; t++)
        truncated = *t != '0' && *t != '.';
    }
  }
  uint64_t bits, bits2;
  *status = CSRI_NUM_OK;
  /* Trailing zeros: an exact value such as 1.0000000000000000e+00 (w = 10^16, q = -16) would
   * reach Eisel-Lemire with an inexact 5^q, which cannot decide exact values, and fall to the
   * slow path. Stripped until w <= 2^53 (w = 10^15, q = -15), Clinger's path takes it. */
  while (q < 0 && w > (UINT64_C(1) << 53) && w % 10 == 0 && !truncated) {
    w /= 10;
    q++;
  }
#if FLT_EVAL_METHOD == 0 /* one rounding per operation, no wider intermediate */
  if (!truncated && w <= (UINT64_C(1) << 53) && q >= -22 && q <= 22) {
    double d = (double)w;
    d = q < 0 ? d / pow10[-q] : d * pow10[q];
    *out = sign ? -d : d;
    return s;
  }
#endif
  if (w == 0 || q < CSRI_POW5_MIN_Q)
    bits = 0;
  else if (q > CSRI_POW5_MAX_Q)
    bits = INF_BITS;
  else if (!eisel_lemire(w, (int)q, &bits) ||
           (truncated && (!eisel_lemire(w + 1, (int)q, &bits2) || bits2 != bits)))
    csri_decimal_to_double_slow(mant, mant_end, exp10, &bits);
  if (bits >= INF_BITS) {
    bits = INF_BITS;
    *status = CSRI_NUM_OUT_OF_RANGE;
  }
  bits |= sign;
  memcpy(out, &bits, sizeof bits);
  return s;
}
