/* SPDX-License-Identifier: BSD-3-Clause */
/* Exact sums of doubles and of products of doubles, for reductions across processes: a fixed-point
 * long accumulator
 *   S = sum_{i < 135} w[i] 2^(32 i - 2176)
 * whose weights reach below the least bit of any product of two doubles (2^-1074 * 2^-1074 =
 * 2^-2148) and above its largest (DBL_MAX^2 < 2^2048) with room for 2^64 terms. Every term lands
 * in it exactly, integer additions commute and associate, so S is the exact sum whatever the order
 * of the terms and however they are split between accumulators; csri_exact_round rounds it once,
 * to nearest, ties to even. The same bits, then, on any number of ranks.
 *
 * The words w[0, 135) hold 32-bit digits in int64 limbs, so that a term is added without carrying
 * between limbs; csri_exact_normalize carries, and leaves the canonical form (digits 0..133 in
 * [0, 2^32), the top one the signed rest). w[135] counts "units": the limbs lie in
 * [-units (2^32 - 1), units (2^32 - 1)]; a fresh accumulator has 0, a canonical one 1, each term
 * adds 1, a merge adds the two counts. While units <= 2^31 no limb overflows int64 and the carries
 * of the normalisation do not either; the functions here normalise by themselves before it would
 * pass. w[136..138] count the NaN, +inf and -inf terms (IEEE's special cases of the plain sum).
 *
 * Across processes: normalise, then MPI_Allreduce(MPI_INT64_T, MPI_SUM) over all
 * CSRI_EXACT_WORDS words of up to 2^31 accumulators. The sum is again a valid accumulator (its
 * units are the number of ranks, at most 2^31), to round or to merge. Pure C11 (with the
 * compiler's 128-bit integers, as src/io/decimal): the CPU tests check it without MPI. Internal. */
#ifndef CSR_KERNELS_EXACT_SUM_H
#define CSR_KERNELS_EXACT_SUM_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  CSRI_EXACT_LIMBS = 135, /* digits: limb i weighs 2^(32 i + CSRI_EXACT_LOW) */
  CSRI_EXACT_UNITS = 135, /* word of the units count */
  /* the words counting NaN, +inf and -inf terms */
  CSRI_EXACT_NAN = 136,
  CSRI_EXACT_POS_INF = 137,
  CSRI_EXACT_NEG_INF = 138,
  CSRI_EXACT_WORDS = 139,      /* what a reduction sums */
  CSRI_EXACT_LOW = -2176,      /* = -68 * 32: the weight of limb 0's bit 0 is 2^-2176 */
  CSRI_EXACT_DEPOSIT_TOP = 132 /* the highest limb a term touches (bits < 2^2080) */
};
#define CSRI_EXACT_MAX_UNITS ((int64_t)1 << 31)

/* The product of two significands (106 bits), and the windows of the rounding. */
__extension__ typedef unsigned __int128 csri_exact_u128;

typedef struct csri_exact_acc {
  int64_t w[CSRI_EXACT_WORDS];
} csri_exact_acc;

/* Carries every limb into [0, 2^32) but the top, and sets units to 1 (src/kernels/exact_sum.c).
 * The canonical form is unique: equal sums have equal words. */
void csri_exact_normalize(csri_exact_acc *acc);
/* dst += src, word by word (normalising first where the units would pass 2^31). */
void csri_exact_merge(csri_exact_acc *dst, const csri_exact_acc *src);
/* The sum rounded to nearest, ties to even: +-inf past the largest double (as IEEE rounds), NaN
 * when a term was NaN or both infinities came, else the infinity that came. An exact zero gives
 * +0.0 (also for a sum of -0.0 terms, where the plain sum gives -0.0); a nonzero sum too small
 * for the subnormals gives the zero of its sign. */
double csri_exact_round(const csri_exact_acc *acc);
/* sqrt(S) correctly rounded (to nearest, ties to even), with S exact however far it is beyond
 * the double range (squares of 1e200, of 1e-200): +inf when the root is past DBL_MAX or a term
 * was +inf, NaN when S < 0 or a term was NaN or -inf, +0.0 when S = 0. */
double csri_exact_sqrt_round(const csri_exact_acc *acc);

static inline void csri_exact_init(csri_exact_acc *acc) {
  memset(acc, 0, sizeof *acc); /* zero limbs meet the bound with any units: 0 */
}

/* Makes room for one more term: normalising once per 2^31 terms costs nothing measurable. */
static inline void csri_exact_reserve(csri_exact_acc *acc) {
  if (acc->w[CSRI_EXACT_UNITS] >= CSRI_EXACT_MAX_UNITS)
    csri_exact_normalize(acc);
  acc->w[CSRI_EXACT_UNITS]++;
}

/* A NaN or infinite term (the IEEE value of the plain term) goes to its count. */
static inline void csri_exact_special(csri_exact_acc *acc, double v) {
  if (v != v)
    acc->w[CSRI_EXACT_NAN]++;
  else
    acc->w[v > 0 ? CSRI_EXACT_POS_INF : CSRI_EXACT_NEG_INF]++;
}

/* A finite double as m 2^e: m < 2^53 the significand with its hidden bit (none for subnormals),
 * e in [-1074, 971]. */
static inline uint64_t csri_exact_split(uint64_t bits, int *e) {
  const int be = (int)((bits >> 52) & 0x7ff);
  *e = be + (be == 0) - 1075;
  return (bits & 0xfffffffffffffULL) | ((uint64_t)(be != 0) << 52);
}

/* Adds sign * m 2^(pos + CSRI_EXACT_LOW), m < 2^106 and 0 <= pos: the five 32-bit digits of
 * m << (pos % 32), each times the sign, to limbs pos / 32 + [0, 5). Each digit is below 2^32,
 * hence the units bound. */
static inline void csri_exact_deposit(csri_exact_acc *acc, csri_exact_u128 m, int pos,
                                      int64_t sign) {
  const int limb = pos >> 5, shift = pos & 31;
  const csri_exact_u128 low = m << shift; /* the bits that stay below 2^128 */
  const uint64_t above = (uint64_t)(m >> 64) >> 1 >> (63 - shift); /* those past it (< 2^10) */
  int64_t *w = acc->w + limb;
  w[0] += sign * (int64_t)(uint32_t)low;
  w[1] += sign * (int64_t)(uint32_t)(low >> 32);
  w[2] += sign * (int64_t)(uint32_t)(low >> 64);
  w[3] += sign * (int64_t)(uint32_t)(low >> 96);
  w[4] += sign * (int64_t)above;
}

/* The same for m < 2^53 (one double): m << (pos % 32) < 2^85 fills three digits. */
static inline void csri_exact_deposit3(csri_exact_acc *acc, uint64_t m, int pos, int64_t sign) {
  const int limb = pos >> 5, shift = pos & 31;
  const csri_exact_u128 low = (csri_exact_u128)m << shift;
  int64_t *w = acc->w + limb;
  w[0] += sign * (int64_t)(uint32_t)low;
  w[1] += sign * (int64_t)(uint32_t)(low >> 32);
  w[2] += sign * (int64_t)(uint32_t)(low >> 64);
}

/* S += v, exactly. */
static inline void csri_exact_add(csri_exact_acc *acc, double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  if (((bits >> 52) & 0x7ff) == 0x7ff) {
    csri_exact_special(acc, v);
    return;
  }
  csri_exact_reserve(acc);
  int e;
  const uint64_t m = csri_exact_split(bits, &e);
  csri_exact_deposit3(acc, m, e - CSRI_EXACT_LOW, 1 - 2 * (int64_t)(bits >> 63));
}

/* S += x y, exactly: the product of the two significands is a 106-bit integer, the exponents add
 * (e_x + e_y >= -2148 > CSRI_EXACT_LOW), so neither a product that underflows in double (1e-200 *
 * 1e-200) nor one that overflows (1e200 * 1e200) loses a bit, and no branch tells them apart.
 * Only a NaN or infinite factor takes the IEEE product (inf * 0 is NaN) to the counts. */
static inline void csri_exact_add_product(csri_exact_acc *acc, double x, double y) {
  uint64_t bx, by;
  memcpy(&bx, &x, sizeof bx);
  memcpy(&by, &y, sizeof by);
  if (((bx >> 52) & 0x7ff) == 0x7ff || ((by >> 52) & 0x7ff) == 0x7ff) {
    csri_exact_special(acc, x * y);
    return;
  }
  csri_exact_reserve(acc);
  int ex, ey;
  const uint64_t mx = csri_exact_split(bx, &ex), my = csri_exact_split(by, &ey);
  const csri_exact_u128 m = (csri_exact_u128)mx * my;
  csri_exact_deposit(acc, m, ex + ey - CSRI_EXACT_LOW, 1 - 2 * (int64_t)((bx ^ by) >> 63));
}

/* S += x^2, exactly (for norms: see csri_exact_sqrt_round). */
static inline void csri_exact_add_square(csri_exact_acc *acc, double x) {
  csri_exact_add_product(acc, x, x);
}

#ifdef __cplusplus
}
#endif
#endif /* CSR_KERNELS_EXACT_SUM_H */
