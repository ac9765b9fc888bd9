/* SPDX-License-Identifier: BSD-3-Clause */
/* The exact accumulator (src/kernels/exact_sum.h) against an oracle built another way: a big
 * integer in two's complement over 2^-2272 .. 2^2528 that carries after every addition, takes a
 * double apart with frexp and multiplies significands by 32-bit halves; and a rounding checked,
 * not computed: r is S rounded to nearest-even iff |S - r| is at most half the gap to either
 * neighbour of r, with a tie only where r is even (and sqrt likewise, with the squares of the
 * midpoints). Cases: random terms and products over every exponent, subnormals, products below
 * the subnormals and past DBL_MAX, massive cancellation, ties, NaN and infinities, exact zeros;
 * the same bits for every order and for splits over 1 to 16 simulated ranks whose normalised
 * words are summed as int64 (as MPI_SUM does); the units bound at its limit (2^31 accumulators,
 * 2^20 terms of the largest products); and the correctly rounded square root of sums of squares of
 * 1e200 and of 1e-200. */
#include "kernels/exact_sum.h"
#include "testing.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* --- the oracle ------------------------------------------------------------------------------ */
enum { BIG_LOW = -2272, BIG_DIGITS = 150 };
typedef struct big {
  uint32_t d[BIG_DIGITS];
} big;

/* b += m 2^exponent (or -=, when negative), carrying to the top. */
static void big_add_u64(big *b, uint64_t m, int exponent, int negative) {
  const int p = exponent - BIG_LOW;
  if (m == 0)
    return;
  if (p < 0 || p / 32 + 3 > BIG_DIGITS) {
    CHECKF(0, "oracle range: 2^%d", exponent);
    return;
  }
  const int q = p / 32, r = p % 32;
  uint32_t part[3] = {(uint32_t)(m << r), (uint32_t)((m << r) >> 32),
                      r ? (uint32_t)(m >> (64 - r)) : 0};
  uint64_t carry = 0;
  for (int i = q; i < BIG_DIGITS; i++) {
    const uint64_t x = i - q < 3 ? part[i - q] : 0;
    if (!negative) {
      const uint64_t t = (uint64_t)b->d[i] + x + carry;
      b->d[i] = (uint32_t)t;
      carry = t >> 32;
    } else {
      const uint64_t t = (uint64_t)b->d[i] - x - carry;
      b->d[i] = (uint32_t)t;
      carry = (t >> 32) ? 1 : 0;
    }
  }
}

/* |x| = m 2^e with m an integer below 2^53. */
static uint64_t big_split(double x, int *e) {
  int f;
  const double frac = frexp(fabs(x), &f);
  *e = f - 53;
  return (uint64_t)ldexp(frac, 53);
}

/* b += x y exactly, by the four products of 32-bit halves of the significands. */
static void big_add_product(big *b, double x, double y) {
  if (x == 0 || y == 0)
    return;
  int ex, ey;
  const uint64_t mx = big_split(x, &ex), my = big_split(y, &ey);
  const int negative = (x < 0) != (y < 0);
  const uint64_t xh = mx >> 32, xl = mx & 0xffffffffu, yh = my >> 32, yl = my & 0xffffffffu;
  big_add_u64(b, xl * yl, ex + ey, negative);
  big_add_u64(b, xh * yl, ex + ey + 32, negative);
  big_add_u64(b, xl * yh, ex + ey + 32, negative);
  big_add_u64(b, xh * yh, ex + ey + 64, negative);
}

static void big_add_double(big *b, double x) {
  big_add_product(b, x, 1.0);
}

static void big_add(big *a, const big *b) {
  uint64_t carry = 0;
  for (int i = 0; i < BIG_DIGITS; i++) {
    const uint64_t t = (uint64_t)a->d[i] + b->d[i] + carry;
    a->d[i] = (uint32_t)t;
    carry = t >> 32;
  }
}

static void big_negate(big *a) {
  uint64_t carry = 1;
  for (int i = 0; i < BIG_DIGITS; i++) {
    const uint64_t t = (uint64_t)(uint32_t)~a->d[i] + carry;
    a->d[i] = (uint32_t)t;
    carry = t >> 32;
  }
}

static int big_sign(const big *a) {
  if (a->d[BIG_DIGITS - 1] >> 31)
    return -1;
  for (int i = 0; i < BIG_DIGITS; i++)
    if (a->d[i])
      return 1;
  return 0;
}

/* sign(a - b) */
static int big_compare(const big *a, const big *b) {
  big t = *b;
  big_negate(&t);
  big_add(&t, a);
  return big_sign(&t);
}

static big big_of_double(double x) {
  big b = {{0}};
  big_add_double(&b, x);
  return b;
}

static void big_times_pow2(big *b, int k) {
  for (int i = 0; i < k; i++) {
    big t = *b;
    big_add(b, &t);
  }
}

/* The accumulator's value as the oracle's integer, limb by limb (any limbs, not only canonical). */
static big big_of_acc(const csri_exact_acc *acc) {
  big b = {{0}};
  for (int i = 0; i < CSRI_EXACT_LIMBS; i++) {
    const int64_t w = acc->w[i];
    const uint64_t mag = w < 0 ? (uint64_t)0 - (uint64_t)w : (uint64_t)w;
    big_add_u64(&b, mag, 32 * i + CSRI_EXACT_LOW, w < 0);
  }
  return b;
}

static uint64_t bits_of(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

/* r is s rounded to nearest, ties to even (+0 for s = 0; the zero of s's sign when it rounds to
 * zero; +-inf from DBL_MAX + half its last place on). */
static int rounds_to(const big *s, double r) {
  const int sign = big_sign(s);
  if (sign == 0)
    return bits_of(r) == 0;
  if (isnan(r) || (sign < 0) != (signbit(r) != 0))
    return 0;
  const big last_place_of_max = big_of_double(0x1p971);
  if (isinf(r)) { /* 2 (|s| - DBL_MAX) >= 2^971 */
    big d = *s, m = big_of_double(DBL_MAX);
    if (sign < 0)
      big_negate(&d);
    big_negate(&m);
    big_add(&d, &m);
    big_times_pow2(&d, 1);
    return big_compare(&d, &last_place_of_max) >= 0;
  }
  const double up = nextafter(r, INFINITY), down = nextafter(r, -INFINITY);
  big d = *s, rb = big_of_double(r), gap_up = last_place_of_max, gap_down = last_place_of_max;
  big minus_r = rb;
  big_negate(&minus_r);
  big_add(&d, &minus_r);
  big_times_pow2(&d, 1); /* 2 (s - r) */
  if (!isinf(up)) {
    gap_up = big_of_double(up);
    big_add(&gap_up, &minus_r);
  }
  if (!isinf(down)) {
    big t = big_of_double(down);
    big_negate(&t);
    gap_down = rb;
    big_add(&gap_down, &t);
  }
  big neg_gap_down = gap_down;
  big_negate(&neg_gap_down);
  const int above = big_compare(&d, &gap_up), below = big_compare(&d, &neg_gap_down);
  if (above > 0 || below < 0)
    return 0;
  if (above == 0 || below == 0)
    return (bits_of(r) & 1) == 0;
  return 1;
}

/* (a + b)^2 into the oracle. */
static big big_square_of_sum(double a, double b) {
  big t = {{0}};
  big_add_product(&t, a, a);
  big_add_product(&t, a, b);
  big_add_product(&t, a, b);
  big_add_product(&t, b, b);
  return t;
}

/* r is sqrt(s) rounded to nearest-even, s >= 0: (r + down)^2 <= 4 s <= (r + up)^2 with down and
 * up r's neighbours, equality only for an even r. */
static int sqrt_rounds_to(const big *s, double r) {
  if (big_sign(s) == 0)
    return bits_of(r) == 0;
  if (isnan(r) || r <= 0)
    return 0;
  big four_s = *s;
  big_times_pow2(&four_s, 2);
  if (isinf(r)) { /* 4 s >= (2 DBL_MAX + 2^971)^2 = 4 (DBL_MAX + 2^970)^2 */
    big lim = big_square_of_sum(DBL_MAX, 0x1p970);
    big_times_pow2(&lim, 2);
    return big_compare(&four_s, &lim) >= 0;
  }
  const big low = big_square_of_sum(r, nextafter(r, 0));
  big high;
  if (r == DBL_MAX) { /* r + 2^1024 = 2 (r / 2 + 2^1023) */
    high = big_square_of_sum(r / 2, 0x1p1023);
    big_times_pow2(&high, 2);
  } else {
    high = big_square_of_sum(r, nextafter(r, INFINITY));
  }
  const int above = big_compare(&four_s, &high), below = big_compare(&four_s, &low);
  if (above > 0 || below < 0)
    return 0;
  if (above == 0 || below == 0)
    return (bits_of(r) & 1) == 0;
  return 1;
}

/* --- terms ----------------------------------------------------------------------------------- */
/* A term: x alone (y = 0 marks it) or the product x y. */
typedef struct term {
  double x, y;
  int product;
} term;

static void deposit(csri_exact_acc *acc, big *b, term t) {
  if (t.product) {
    csri_exact_add_product(acc, t.x, t.y);
    if (b)
      big_add_product(b, t.x, t.y);
  } else {
    csri_exact_add(acc, t.x);
    if (b)
      big_add_double(b, t.x);
  }
}

/* A finite double, random sign and significand, binary exponent uniform in [lo, hi] (subnormal
 * below -1022). */
static double random_double(csrt_rng *rng, int lo, int hi) {
  const int e = lo + (int)csrt_below(rng, (uint64_t)(hi - lo + 1));
  const double frac = 1 + (double)(csrt_next(rng) >> 12) * 0x1p-52;
  double v = ldexp(frac, e); /* rounds into the subnormals where e < -1022 */
  if (v == 0)
    v = 0x1p-1074;
  return csrt_next(rng) & 1 ? -v : v;
}

/* Any finite double: random bits with the exponent field below 0x7ff. */
static double random_bits(csrt_rng *rng) {
  for (;;) {
    const uint64_t u = csrt_next(rng);
    if (((u >> 52) & 0x7ff) != 0x7ff) {
      double v;
      memcpy(&v, &u, sizeof v);
      return v;
    }
  }
}

enum { SPREAD_NARROW, SPREAD_WIDE, SPREAD_SUBNORMAL, SPREAD_ANY, SPREAD_HUGE, SPREADS };
static const char *spread_names[SPREADS] = {"narrow", "wide", "subnormal", "any bits", "huge"};

static term random_term(csrt_rng *rng, int spread, int products) {
  term t = {0, 0, products && (csrt_next(rng) & 3) != 0};
  for (int k = 0; k < 2; k++) {
    double v;
    switch (spread) {
    case SPREAD_NARROW: v = random_double(rng, -3, 3); break;
    case SPREAD_WIDE: v = random_double(rng, -600, 600); break;
    case SPREAD_SUBNORMAL: v = random_double(rng, -1074, -1000); break;
    case SPREAD_ANY: v = random_bits(rng); break;
    default: v = random_double(rng, 900, 1023); break;
    }
    if (k == 0)
      t.x = v;
    else
      t.y = v;
  }
  return t;
}

/* --- checks ---------------------------------------------------------------------------------- */
static double round_of(const term *terms, int n, big *b) {
  csri_exact_acc acc;
  csri_exact_init(&acc);
  memset(b, 0, sizeof *b);
  for (int i = 0; i < n; i++)
    deposit(&acc, b, terms[i]);
  const big value = big_of_acc(&acc);
  EXPECT(big_compare(&value, b) == 0);
  return csri_exact_round(&acc);
}

/* Random terms with their negations among them (massive cancellation) or not. */
static void check_random(csrt_rng *rng) {
  for (int spread = 0; spread < SPREADS; spread++)
    for (int products = 0; products < 2; products++)
      for (int cancel = 0; cancel < 2; cancel++)
        for (int trial = 0; trial < 40; trial++) {
          snprintf(csrt_case, sizeof csrt_case, "%s, %s, %s, trial %d", spread_names[spread],
                   products ? "products" : "values", cancel ? "cancelling" : "random", trial);
          const int n = 1 + (int)csrt_below(rng, 300);
          term *terms = malloc(2 * (size_t)n * sizeof *terms);
          int count = 0;
          for (int i = 0; i < n; i++) {
            terms[count++] = random_term(rng, spread, products);
            if (cancel && (csrt_next(rng) & 7) != 0) {
              terms[count] = terms[count - 1];
              terms[count++].x *= -1;
            }
          }
          for (int i = count - 1; i > 0; i--) {
            const int j = (int)csrt_below(rng, (uint64_t)i + 1);
            const term t = terms[i];
            terms[i] = terms[j];
            terms[j] = t;
          }
          big b;
          const double r = round_of(terms, count, &b);
          EXPECT(rounds_to(&b, r));
          free(terms);
        }
}

/* Sums with a known exact value, each checked against the oracle too. */
static void check_known(void) {
  struct {
    const char *name;
    term t[4];
    int n;
    double expected;
  } cases[] = {
      {"1e300 + 1 - 1e300", {{1e300, 0, 0}, {1, 0, 0}, {-1e300, 0, 0}}, 3, 1.0},
      {"1e-200 * 1e-200 - 1e-200 * 1e-200 + 2^-1074",
       {{1e-200, 1e-200, 1}, {-1e-200, 1e-200, 1}, {0x1p-1074, 0, 0}},
       3,
       0x1p-1074},
      {"1e-160 * 1e-160 (subnormal)", {{1e-160, 1e-160, 1}}, 1, 1e-320},
      {"2^-1074 * 0.5: a tie to the even 0", {{0x1p-1074, 0.5, 1}}, 1, 0.0},
      {"2^-1074 * 1.5: a tie to the even 2^-1073", {{0x1p-1074, 1.5, 1}}, 1, 0x1p-1073},
      {"2^-1074 * 0.5 + 2^-1074 * 2^-1074: past the tie",
       {{0x1p-1074, 0.5, 1}, {0x1p-1074, 0x1p-1074, 1}},
       2,
       0x1p-1074},
      {"2^-1074 * -0.5: a tie to -0", {{0x1p-1074, -0.5, 1}}, 1, -0.0},
      {"1 + 2^-53: a tie to 1", {{1, 0, 0}, {0x1p-53, 0, 0}}, 2, 1.0},
      {"1 + 3 2^-53: a tie to 1 + 2^-51", {{1, 0, 0}, {0x1p-53, 3, 1}}, 2, 1 + 0x1p-51},
      {"1 + 2^-53 + 2^-2000: past the tie",
       {{1, 0, 0}, {0x1p-53, 0, 0}, {0x1p-1000, 0x1p-1000, 1}},
       3,
       1 + 0x1p-52},
      {"-1 - 2^-53 - 2^-2100",
       {{-1, 0, 0}, {-0x1p-53, 0, 0}, {-0x1p-1050, 0x1p-1050, 1}},
       3,
       -1 - 0x1p-52},
      {"DBL_MAX + DBL_MAX - DBL_MAX",
       {{DBL_MAX, 0, 0}, {DBL_MAX, 0, 0}, {-DBL_MAX, 0, 0}},
       3,
       DBL_MAX},
      {"1e200 * 1e200 + 1 - 1e200 * 1e200",
       {{1e200, 1e200, 1}, {1, 0, 0}, {1e200, -1e200, 1}},
       3,
       1.0},
      {"DBL_MAX * DBL_MAX / DBL_MAX (products past DBL_MAX)",
       {{DBL_MAX, DBL_MAX, 1}, {-DBL_MAX, DBL_MAX, 1}, {DBL_MAX, 0.5, 1}, {DBL_MAX, 0.5, 1}},
       4,
       DBL_MAX},
      {"DBL_MAX + half its last place: a tie to inf",
       {{DBL_MAX, 0, 0}, {0x1p970, 0, 0}},
       2,
       INFINITY},
      {"DBL_MAX + less than half its last place",
       {{DBL_MAX, 0, 0}, {0x1p969, 0, 0}, {0x1p968, 0, 0}},
       3,
       DBL_MAX},
      {"-DBL_MAX * 2", {{-DBL_MAX, 2, 1}}, 1, -INFINITY},
      {"x - x: +0", {{0.1, 0, 0}, {-0.1, 0, 0}}, 2, 0.0},
      {"-0 + -0: +0 (an exact zero)", {{-0.0, 0, 0}, {-0.0, 0, 0}}, 2, 0.0},
      {"-0 * 5: +0", {{-0.0, 5, 1}}, 1, 0.0},
      {"no terms: +0", {{0, 0, 0}}, 0, 0.0},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    snprintf(csrt_case, sizeof csrt_case, "%s", cases[c].name);
    big b;
    const double r = round_of(cases[c].t, cases[c].n, &b);
    EXPECT(bits_of(r) == bits_of(cases[c].expected));
    EXPECT(rounds_to(&b, r));
  }
}

/* A tie broken by one bit anywhere below it: 1 + 2^-53 + 2^-j rounds up for every j, and so does
 * 2^-1075 + 2^-j (a tie in the subnormals); without the bit, both are ties to the even below. */
static void check_sticky(void) {
  for (int j = 54; j <= 2148; j++) {
    snprintf(csrt_case, sizeof csrt_case, "1 + 2^-53 + 2^-%d", j);
    const term tiny = {ldexp(1, -(j / 2)), ldexp(1, -(j - j / 2)), 1};
    term t[3] = {{1, 0, 0}, {0x1p-53, 0, 0}, tiny};
    big b;
    EXPECT(bits_of(round_of(t, 3, &b)) == bits_of(1 + 0x1p-52));
    EXPECT(bits_of(round_of(t, 2, &b)) == bits_of(1.0));
    if (j >= 1076) {
      snprintf(csrt_case, sizeof csrt_case, "-2^-1075 - 2^-%d", j);
      term u[2] = {{0x1p-1074, -0.5, 1}, {-tiny.x, tiny.y, 1}};
      EXPECT(bits_of(round_of(u, 2, &b)) == bits_of(-0x1p-1074));
      EXPECT(bits_of(round_of(u, 1, &b)) == bits_of(-0.0));
    }
  }
}

/* The oracle's check must be able to fail: a neighbour of each right answer is refused. */
static void check_oracle_refuses(csrt_rng *rng) {
  for (int trial = 0; trial < 200; trial++) {
    snprintf(csrt_case, sizeof csrt_case, "oracle refuses a neighbour, trial %d", trial);
    term t[3] = {random_term(rng, SPREAD_WIDE, 0), random_term(rng, SPREAD_SUBNORMAL, 1),
                 random_term(rng, SPREAD_NARROW, 0)};
    big b;
    const double r = round_of(t, 3, &b);
    EXPECT(rounds_to(&b, r) && !rounds_to(&b, nextafter(r, INFINITY)) &&
           !rounds_to(&b, nextafter(r, -INFINITY)));
  }
}

/* IEEE's special cases of the plain sum. */
static void check_specials(void) {
  struct {
    const char *name;
    term t[3];
    int n;
    double expected;
  } cases[] = {
      {"inf + 1", {{INFINITY, 0, 0}, {1, 0, 0}}, 2, INFINITY},
      {"-inf + DBL_MAX * DBL_MAX", {{-INFINITY, 0, 0}, {DBL_MAX, DBL_MAX, 1}}, 2, -INFINITY},
      {"inf - inf", {{INFINITY, 0, 0}, {-INFINITY, 0, 0}}, 2, NAN},
      {"NaN + 1", {{NAN, 0, 0}, {1, 0, 0}}, 2, NAN},
      {"inf * 0", {{INFINITY, 0, 1}}, 1, NAN},
      {"inf * -2 + 5", {{INFINITY, -2, 1}, {5, 0, 0}}, 2, -INFINITY},
      {"3 * NaN", {{3, NAN, 1}}, 1, NAN},
      {"inf * inf + inf", {{INFINITY, INFINITY, 1}, {INFINITY, 0, 0}}, 2, INFINITY},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    snprintf(csrt_case, sizeof csrt_case, "%s", cases[c].name);
    csri_exact_acc acc;
    csri_exact_init(&acc);
    for (int i = 0; i < cases[c].n; i++)
      deposit(&acc, NULL, cases[c].t[i]);
    const double r = csri_exact_round(&acc), e = cases[c].expected;
    EXPECT(isnan(e) ? isnan(r) : bits_of(r) == bits_of(e));
  }
  /* +inf on one rank, -inf on another: NaN after the sum of their words. */
  snprintf(csrt_case, sizeof csrt_case, "+inf and -inf on two ranks");
  csri_exact_acc a, b;
  csri_exact_init(&a);
  csri_exact_init(&b);
  csri_exact_add(&a, INFINITY);
  csri_exact_add(&b, -INFINITY);
  EXPECT(isinf(csri_exact_round(&a)) && isinf(csri_exact_round(&b)));
  csri_exact_merge(&a, &b);
  EXPECT(isnan(csri_exact_round(&a)));
  EXPECT(isnan(csri_exact_sqrt_round(&a)) && isnan(csri_exact_sqrt_round(&b)));
}

/* What MPI_Allreduce(MPI_SUM) makes of the ranks' normalised words. */
static void sum_words(csri_exact_acc *sum, const csri_exact_acc *parts, int k) {
  memset(sum, 0, sizeof *sum);
  for (int p = 0; p < k; p++)
    for (int i = 0; i < CSRI_EXACT_WORDS; i++)
      sum->w[i] += parts[p].w[i];
}

static int compare_int(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Shuffled and split over 1..16 ranks, each its own accumulator: the same bits. */
static void check_order_and_split(csrt_rng *rng) {
  enum { N = 2000 };
  static term terms[N];
  csri_exact_acc parts[16];
  for (int spread = 0; spread < SPREADS; spread++)
    for (int trial = 0; trial < 4; trial++) {
      for (int i = 0; i < N; i++) {
        terms[i] = random_term(rng, spread, 1);
        if (i % 3 == 1) { /* cancellation, in another order */
          terms[i] = terms[i - 1];
          terms[i].x *= -1;
        }
      }
      csri_exact_acc whole;
      csri_exact_init(&whole);
      for (int i = 0; i < N; i++)
        deposit(&whole, NULL, terms[i]);
      const double expected = csri_exact_round(&whole);
      csri_exact_normalize(&whole);
      for (int k = 1; k <= 16; k++) {
        snprintf(csrt_case, sizeof csrt_case, "%s, trial %d, %d ranks", spread_names[spread], trial,
                 k);
        for (int i = N - 1; i > 0; i--) {
          const int j = (int)csrt_below(rng, (uint64_t)i + 1);
          const term t = terms[i];
          terms[i] = terms[j];
          terms[j] = t;
        }
        int cuts[17] = {0};
        cuts[k] = N;
        for (int p = 1; p < k; p++)
          cuts[p] = (int)csrt_below(rng, N + 1);
        qsort(cuts + 1, (size_t)(k - 1), sizeof cuts[0], compare_int);
        for (int p = 0; p < k; p++) {
          csri_exact_init(&parts[p]);
          for (int i = cuts[p]; i < cuts[p + 1]; i++)
            deposit(&parts[p], NULL, terms[i]);
          csri_exact_normalize(&parts[p]);
        }
        csri_exact_acc reduced, merged;
        sum_words(&reduced, parts, k);
        EXPECT(reduced.w[CSRI_EXACT_UNITS] == k);
        EXPECT(bits_of(csri_exact_round(&reduced)) == bits_of(expected));
        csri_exact_normalize(&reduced);
        EXPECT(memcmp(&reduced, &whole, sizeof whole) == 0); /* the canonical words agree */
        csri_exact_init(&merged);                            /* merged in reverse, unnormalised */
        for (int p = k - 1; p >= 0; p--)
          csri_exact_merge(&merged, &parts[p]);
        EXPECT(bits_of(csri_exact_round(&merged)) == bits_of(expected));
      }
    }
}

/* The units bound at its limit. */
static void check_limits(csrt_rng *rng) {
  /* 2^20 of the largest terms and products, no normalisation between. */
  snprintf(csrt_case, sizeof csrt_case, "2^20 products DBL_MAX^2");
  csri_exact_acc acc;
  csri_exact_init(&acc);
  for (int i = 0; i < 1 << 20; i++)
    csri_exact_add_product(&acc, DBL_MAX, -DBL_MAX);
  big b = {{0}};
  big_add_product(&b, DBL_MAX, -DBL_MAX);
  big_times_pow2(&b, 20);
  big v = big_of_acc(&acc);
  EXPECT(big_compare(&v, &b) == 0);
  EXPECT(acc.w[CSRI_EXACT_UNITS] == (1 << 20));
  EXPECT(bits_of(csri_exact_round(&acc)) == bits_of(-INFINITY));
  snprintf(csrt_case, sizeof csrt_case, "2^20 terms DBL_MAX, then as many -DBL_MAX and 1");
  csri_exact_init(&acc);
  for (int i = 0; i < 1 << 20; i++)
    csri_exact_add(&acc, DBL_MAX);
  for (int i = 0; i < 1 << 20; i++)
    csri_exact_add(&acc, -DBL_MAX);
  csri_exact_add(&acc, 1);
  EXPECT(bits_of(csri_exact_round(&acc)) == bits_of(1.0));

  /* 2^31 ranks: every canonical digit at its largest, summed 2^31 times as MPI_SUM would. */
  for (int trial = 0; trial < 20; trial++) {
    snprintf(csrt_case, sizeof csrt_case, "2^31 ranks, trial %d", trial);
    csri_exact_init(&acc);
    for (int i = 0; i < 50; i++)
      deposit(&acc, NULL, random_term(rng, trial % 2 ? SPREAD_ANY : SPREAD_HUGE, 1));
    csri_exact_normalize(&acc);
    for (int i = 0; i < CSRI_EXACT_DEPOSIT_TOP; i++)
      if (csrt_next(rng) & 1)
        acc.w[i] = 0xffffffff;
    big one = big_of_acc(&acc);
    for (int i = 0; i < CSRI_EXACT_WORDS; i++)
      acc.w[i] *= CSRI_EXACT_MAX_UNITS;
    EXPECT(acc.w[CSRI_EXACT_UNITS] == CSRI_EXACT_MAX_UNITS);
    big_times_pow2(&one, 31);
    const double r = csri_exact_round(&acc);
    EXPECT(rounds_to(&one, r));
    /* One more term normalises first. */
    csri_exact_add_product(&acc, DBL_MAX, DBL_MAX);
    big_add_product(&one, DBL_MAX, DBL_MAX);
    EXPECT(acc.w[CSRI_EXACT_UNITS] == 2);
    v = big_of_acc(&acc);
    EXPECT(big_compare(&v, &one) == 0);
  }

  /* Limbs at both ends of the bound, units 2^31: a term, a merge and rounding keep the value. */
  for (int trial = 0; trial < 20; trial++) {
    snprintf(csrt_case, sizeof csrt_case, "limbs at the bound, trial %d", trial);
    csri_exact_acc x, y;
    csri_exact_init(&x);
    csri_exact_init(&y);
    const int64_t bound = CSRI_EXACT_MAX_UNITS * (((int64_t)1 << 32) - 1);
    for (int i = 0; i <= CSRI_EXACT_DEPOSIT_TOP; i++) {
      x.w[i] = csrt_next(rng) & 1 ? bound : -bound;
      y.w[i] = csrt_next(rng) & 1 ? bound : -bound;
    }
    x.w[CSRI_EXACT_UNITS] = y.w[CSRI_EXACT_UNITS] = CSRI_EXACT_MAX_UNITS;
    big expected = big_of_acc(&x), other = big_of_acc(&y);
    EXPECT(rounds_to(&expected, csri_exact_round(&x)));
    const term t = random_term(rng, SPREAD_ANY, 1);
    deposit(&x, &expected, t);
    v = big_of_acc(&x);
    EXPECT(big_compare(&v, &expected) == 0);
    x.w[CSRI_EXACT_UNITS] = CSRI_EXACT_MAX_UNITS;
    csri_exact_merge(&x, &y);
    big_add(&expected, &other);
    v = big_of_acc(&x);
    EXPECT(big_compare(&v, &expected) == 0);
    EXPECT(x.w[CSRI_EXACT_UNITS] <= CSRI_EXACT_MAX_UNITS);
  }
}

/* sqrt of sums of squares, far past the double range on both sides. */
static void check_sqrt(csrt_rng *rng) {
  const double scales[] = {1e200, 1e-200, 1e-310, 1, 1e150, 0x1p-1074, DBL_MAX};
  for (size_t s = 0; s < sizeof scales / sizeof scales[0]; s++)
    for (int trial = 0; trial < 30; trial++) {
      snprintf(csrt_case, sizeof csrt_case, "sqrt, scale %g, trial %d", scales[s], trial);
      csri_exact_acc acc;
      csri_exact_init(&acc);
      big b = {{0}};
      const int n = 1 + (int)csrt_below(rng, trial < 10 ? 4 : 500);
      for (int i = 0; i < n; i++) {
        double x = scales[s];
        if (trial % 3) /* else n equal squares */
          x *= csrt_uniform(rng, -1, 1);
        csri_exact_add_square(&acc, x);
        big_add_product(&b, x, x);
      }
      const double r = csri_exact_sqrt_round(&acc);
      EXPECT(sqrt_rounds_to(&b, r));
      if (big_sign(&b) == 0) /* every x rounded to 0 */
        EXPECT(bits_of(r) == 0);
      else if (!isinf(r))
        EXPECT(!sqrt_rounds_to(&b, nextafter(r, 0)) && !sqrt_rounds_to(&b, nextafter(r, INFINITY)));
      else
        EXPECT(!sqrt_rounds_to(&b, DBL_MAX));
      if (trial % 3 == 0 && scales[s] == 1e200 && n == 4) /* exactly 2e200 */
        EXPECT(r == 2e200);
    }
  /* Exact roots, midpoints (ties to even), zero, and what has no real root. */
  struct {
    const char *name;
    term t[3];
    int n;
    double expected;
  } cases[] = {
      {"(1 + 2^-53)^2: a tie to 1", {{1, 0, 0}, {0x1p-52, 0, 0}, {0x1p-53, 0x1p-53, 1}}, 3, 1.0},
      {"(1 + 3 2^-53)^2: a tie to 1 + 2^-51",
       {{1, 0, 0}, {0x1p-52, 3, 1}, {0x1p-53 * 3, 0x1p-53 * 3, 1}},
       3,
       1 + 0x1p-51},
      {"(1e200)^2 * 9", {{3e200, 3e200, 1}}, 1, 3e200},
      {"(2^-1074)^2", {{0x1p-1074, 0x1p-1074, 1}}, 1, 0x1p-1074},
      {"about 2 DBL_MAX^2",
       {{DBL_MAX, DBL_MAX, 1}, {DBL_MAX, DBL_MAX * 0.75, 1}, {DBL_MAX, DBL_MAX / 4, 1}},
       3,
       INFINITY},
      {"0", {{0, 0, 1}}, 1, 0.0},
      {"-1", {{-1, 0, 0}}, 1, NAN},
      {"inf", {{INFINITY, INFINITY, 1}}, 1, INFINITY},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    snprintf(csrt_case, sizeof csrt_case, "sqrt of %s", cases[c].name);
    csri_exact_acc acc;
    csri_exact_init(&acc);
    big b = {{0}};
    for (int i = 0; i < cases[c].n; i++)
      deposit(&acc, &b, cases[c].t[i]);
    const double r = csri_exact_sqrt_round(&acc), e = cases[c].expected;
    EXPECT(isnan(e) ? isnan(r) : bits_of(r) == bits_of(e));
    if (!isnan(e) && !isinf(cases[c].t[0].x))
      EXPECT(sqrt_rounds_to(&b, r));
  }
}

int main(void) {
  csrt_rng rng = {csrt_seed("test_exact_sum")};
  check_known();
  check_specials();
  check_sticky();
  check_oracle_refuses(&rng);
  check_random(&rng);
  check_order_and_split(&rng);
  check_limits(&rng);
  check_sqrt(&rng);
  return csrt_finish("test_exact_sum");
}
