/* SPDX-License-Identifier: BSD-3-Clause */
/* csri_print_double / csri_print_float / csri_print_int64 against the C library.
 *
 * The oracle is the old formatter: the first precision p = 1, 2, ... whose correctly rounded
 * "%.{p}g" (glibc: exact, ties to even) reads back to v is the shortest length, and being
 * correctly rounded it is the closest decimal of that length. Ours must give the same digits and
 * exponent. That search costs up to 17 printf+strtod calls, so most random values get the
 * equivalent two-call check instead: with n our digit count, %.{n-1}e must read back and equal
 * our digits, and %.{n-2}e must not read back. (Equivalent because the rounding interval is
 * symmetric about v: if any decimal of length p reads back, the nearest one of length p does,
 * and so does every longer nearest one. At the lowest value of a binade, "irregular", the
 * interval is half as wide below v, so both can fail; those values always get the full search,
 * and where it differs, ours must be shorter, read back, and the full search's first success must
 * indeed be longer: the shorter decimal lies above v where the nearest one of that length lay
 * below, outside the interval. Counted as "asymmetric" below.)
 * Ties: when v lies exactly halfway between two shortest candidates (its exact decimal expansion
 * is one digit longer than theirs and ends in 5, e.g. 2^50 + 1/4 = 1125899906842624.25, or the
 * float 2^-12 = 0.000244140625), the even last digit wins (1125899906842624.2, 0.00024414062),
 * as glibc rounds; detected exactly and counted. At an irregular v the even one may lie outside
 * the interval (the double 2^-24 = 5.9604644775390625e-08 prints as 5.960464477539063e-08):
 * then only the odd one is left.
 * Every output also: reads back with strtod and with csri_parse_double bit for bit (floats: with
 * strtof), is at most CSRI_PRINT_MAX long, and is laid out as specified (rebuilt here).
 *
 * CSR_PRINT_TEST_COUNT: random doubles (default 2,000,000 optimised, 500,000 otherwise);
 * random floats are 10x that. CSR_PRINT_TEST_ALL_FLOATS=1: also every positive finite float
 * (2^31 - 2^23; the negative ones differ only by the sign), with the two-call check: about half
 * an hour of CPU, spread over all cores with OpenMP. */
#define _POSIX_C_SOURCE 200809L /* getpid */
#include "io/decimal/mm_number.h"
#include "io/decimal/mm_print.h"
#include "testing.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long n_values, n_full, n_quick, n_ties, n_even_rule, n_slow, n_asym;

static uint64_t dbits(double v) {
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  return b;
}
static double dfrom(uint64_t b) {
  double v;
  memcpy(&v, &b, sizeof v);
  return v;
}
static float ffrom(uint32_t b) {
  float v;
  memcpy(&v, &b, sizeof v);
  return v;
}

static int reads_back(const char *s, double v, int is_float) {
  return is_float ? strtof(s, NULL) == (float)v : strtod(s, NULL) == v;
}

/* The digits of a decimal string without leading or trailing zeros, and their exponent. */
static void parse_dec(const char *s, uint64_t *d, int *e) {
  uint64_t x = 0;
  int pos = 0, point = -1;
  for (; *s && *s != 'e'; s++) {
    if (*s == '.')
      point = pos;
    else if (*s >= '0' && *s <= '9' && (x || *s != '0' || point >= 0)) {
      x = x * 10 + (uint64_t)(*s - '0');
      pos++;
    } else if (*s >= '0' && *s <= '9') {
      continue; /* leading zero before the point */
    }
  }
  int ex = *s == 'e' ? atoi(s + 1) : 0;
  ex -= point >= 0 ? pos - point : 0;
  for (; x && x % 10 == 0; x /= 10)
    ex++;
  *d = x;
  *e = x ? ex : 0;
}

/* The old formatter: the first p whose %.{p}g reads back. Returns p, the text in buf. */
static int oracle(double v, int is_float, char *buf) {
  int p = 1;
  for (; p < 17; p++) {
    snprintf(buf, 64, "%.*g", p, v);
    if (reads_back(buf, v, is_float))
      return p;
  }
  snprintf(buf, 64, "%.*g", p, v);
  return p;
}

/* The specified layout of (-)d * 10^e, rebuilt independently. */
static void layout(uint64_t d, int e, int neg, char *out) {
  char ds[24], plain[700], sci[48];
  int n = snprintf(ds, sizeof ds, "%" PRIu64, d), x = e + n - 1;
  if (e >= 0)
    snprintf(plain, sizeof plain, "%s%0*d", ds, e + 1, 0), plain[n + e] = 0;
  else if (x >= 0)
    snprintf(plain, sizeof plain, "%.*s.%s", x + 1, ds, ds + x + 1);
  else
    snprintf(plain, sizeof plain, "0.%0*d%s", -x, 0, ds), memmove(plain + 2, plain + 3, 700 - 3);
  snprintf(sci, sizeof sci, "%c%s%se%c%02d", ds[0], n > 1 ? "." : "", ds + 1, x < 0 ? '-' : '+',
           abs(x));
  sprintf(out, "%s%s", neg ? "-" : "", strlen(plain) <= strlen(sci) ? plain : sci);
}

/* Is v > 0 exactly halfway between two decimals of n digits (xo: the exponent of the leading
 * digit of our result, v's or one more)? v = c 2^q with c odd: the exact decimal expansion ends
 * in 5 at 10^q when q < 0; an integer v ends in 5 at 10^t iff q = t and 5^(t+1) divides c.
 * Halfway iff that last digit is the (n+1)-th. */
static int is_tie(double v, int n, int xo) {
  int q;
  uint64_t c = (uint64_t)ldexp(frexp(v, &q), 53); /* exact */
  for (q -= 53; !(c & 1); c >>= 1)
    q++;
  if ((q != xo - n && q != xo - 1 - n) || (q >= 0 && c % 5))
    return 0; /* quick rejection */
  char t[64];
  snprintf(t, sizeof t, "%.*e", n, v);
  int pos = atoi(strchr(t, 'e') + 1) - n;
  if (q < 0 || q != pos)
    return q == pos;
  for (int i = 0; i <= pos; i++, c /= 5)
    if (c % 5)
      return 0;
  return 1;
}

static void check(double v, int is_float, int full) {
  char s[64], want[720], o[64];
  int n = is_float ? csri_print_float((float)v, s) : csri_print_double(v, s);
  CHECK(n > 0 && n <= CSRI_PRINT_MAX);
  s[n] = 0;
  n_values++;
  if (v == 0 || !isfinite(v)) {
    CHECK(!strcmp(s, isnan(v)     ? "nan"
                     : isinf(v)   ? (v < 0 ? "-inf" : "inf")
                     : signbit(v) ? "-0"
                                  : "0"));
    return;
  }
  char *end;
  double r = is_float ? (double)strtof(s, &end) : strtod(s, &end);
  CHECK(end == s + n && dbits(r) == dbits(v));
  if (!is_float) {
    double ours = 0;
    int st = -1;
    CHECK(csri_parse_double(s, s + n, &ours, &st) == s + n && st == 0 && dbits(ours) == dbits(v));
  }
  uint64_t d;
  int e;
  n_slow += is_float ? csri_shortest_float((float)v, &d, &e) : csri_shortest_double(v, &d, &e);
  CHECK(d % 10 != 0);
  if (full || n_values % 8 == 0) /* snprintf is slow: a sample of the random values */
    layout(d, e, v < 0, want);
  if ((full || n_values % 8 == 0) && strcmp(s, want)) {
    char msg[900];
    snprintf(msg, sizeof msg, "%a: printed \"%s\", layout wants \"%s\"", v, s, want);
    csrt_fail(__FILE__, __LINE__, msg);
  }
  char ds[24];
  int nd = snprintf(ds, sizeof ds, "%" PRIu64, d);
  int lo_mant = is_float ? !(dbits((double)(float)v) << 12 >> 41) : !(dbits(v) << 12);
  int irregular = lo_mant && fabs(v) >= (is_float ? 2 * FLT_MIN : 2 * DBL_MIN);
  uint64_t od;
  int oe;
  if (full || irregular) {
    n_full++;
    int p = oracle(fabs(v), is_float, o);
    parse_dec(o, &od, &oe);
    if ((od != d || oe != e) && irregular && nd < p) { /* the asymmetric case, see the top */
      n_asym++;
      snprintf(o, sizeof o, "%.*e", nd - 1, fabs(v));
      CHECK(!reads_back(o, fabs(v), is_float) && strtod(o, NULL) < fabs(v));
      od = d, oe = e;
    }
  } else {
    n_quick++;
    snprintf(o, sizeof o, "%.*e", nd - 1, fabs(v));
    CHECK(reads_back(o, fabs(v), is_float));
    parse_dec(o, &od, &oe);
    char shorter[64];
    snprintf(shorter, sizeof shorter, "%.*e", nd - 2, fabs(v));
    CHECK(nd == 1 || !reads_back(shorter, fabs(v), is_float));
  }
  if (od != d || oe != e) {
    char msg[300];
    snprintf(msg, sizeof msg, "%a (%.17g): ours %se%d, oracle %" PRIu64 "e%d \"%s\"", v, v, ds, e,
             od, oe, o);
    csrt_fail(__FILE__, __LINE__, msg);
  }
  if (is_tie(fabs(v), nd, e + nd - 1)) {
    /* the even neighbour wins unless it lies outside the interval (irregular v only) */
    n_ties++;
    uint64_t td, lo, lo_s;
    int te, lo_e;
    snprintf(o, sizeof o, "%.*e", nd, fabs(v)); /* v itself: (n+1) digits, the last a 5 */
    parse_dec(o, &td, &te);
    lo = td / 10; /* the candidates: lo and lo + 1, times 10^(te + 1) */
    snprintf(o, sizeof o, "%" PRIu64 "e%d", lo, te + 1);
    parse_dec(o, &lo_s, &lo_e);
    snprintf(o, sizeof o, "%" PRIu64 "e%d", lo + (lo_s == d && lo_e == e), te + 1); /* the other */
    int other_in = reads_back(o, fabs(v), is_float);
    n_even_rule += other_in;
    CHECK(d % 2 == 0 || (irregular && !other_in));
  }
}

static void check_both_signs(double v, int is_float, int full) {
  check(v, is_float, full);
  check(-v, is_float, 0);
}

/* v and its 3 neighbours on each side. */
static void check_around(double v, int is_float) {
  double lo = v, hi = v;
  check_both_signs(v, is_float, 1);
  for (int i = 0; i < 3; i++) {
    lo = is_float ? (double)nextafterf((float)lo, 0) : nextafter(lo, 0);
    hi = is_float ? (double)nextafterf((float)hi, INFINITY) : nextafter(hi, INFINITY);
    check(lo, is_float, 1);
    check(hi, is_float, 1);
  }
}

static double random_double(csrt_rng *rng, int kind) {
  uint64_t r = csrt_next(rng);
  char buf[64];
  switch (kind) {
  case 0: /* any bit pattern, infinities and NaNs moved to finite exponents */
    return dfrom((r >> 52 & 0x7FF) == 0x7FF ? r ^ UINT64_C(1) << 62 : r);
  case 1: return dfrom(r >> (12 + csrt_below(rng, 52)));    /* subnormal */
  case 2: return (double)(r >> 11) * 0x1p-53;               /* (0,1) */
  case 3: return (double)(r >> (11 + csrt_below(rng, 53))); /* integer */
  case 4: return (double)(r % 1000000) / pow(10, (double)(1 + csrt_below(rng, 8)));
  case 5: /* a random decimal of 1..16 digits, any exponent */
    snprintf(buf, sizeof buf, "%.*e", (int)csrt_below(rng, 16), dfrom(r & ~(UINT64_C(1) << 63)));
    return strtod(buf, NULL);
  case 6: return ldexp((double)(r % 64 + 1), (int)csrt_below(rng, 2090) - 1080); /* few bits */
  default: return (double)(r >> 11) * 0x1p-53 * pow(10, (double)csrt_below(rng, 17) - 8);
  }
}

/* The writer end to end: a random CSR with values of every kind above (F64, then F32; zeros of
 * both signs, no NaN) through csr_write_mm and csr_read_csr comes back bit for bit. */
static void writer_round_trip(csrt_rng *rng) {
  csr_context *ctx = csrt_context(CSR_BACKEND_REF);
  char path[64];
  snprintf(path, sizeof path, "/tmp/test_mm_print_%ld.mtx", (long)getpid());
  int64_t lengths[2000];
  for (int i = 0; i < 2000; i++)
    lengths[i] = (int64_t)csrt_below(rng, 40);
  for (int t = 0; t < 2; t++) {
    csr_value_type type = t ? CSR_F32 : CSR_F64;
    csr_matrix *A = csrt_from_row_lengths(ctx, 2000, 3000, lengths, type, CSRT_RANDOM, rng);
    csr_matrix *B = NULL;
    for (int64_t k = 0; k < A->nnz; k++) {
      double v = random_double(rng, (int)csrt_below(rng, 8));
      v = csrt_below(rng, 2) ? -v : v;
      if (!isfinite(t ? (float)v : v)) /* NaN's sign and payload do not survive "nan" */
        v = 0.0;
      if (t)
        ((float *)A->values)[k] = (float)v;
      else
        ((double *)A->values)[k] = v;
    }
    csr_write_options wo;
    csr_write_options_init(&wo);
    csr_read_options ro;
    csr_read_options_init(&ro);
    ro.value_type = type;
    int equal = 0;
    CHECK_OK(ctx, csr_write_mm(ctx, path, A, &wo));
    CHECK_OK(ctx, csr_read_csr(ctx, path, &ro, &B, NULL));
    CHECK_OK(ctx, csr_matrix_equal(ctx, A, B, &equal));
    CHECK(equal);
    csr_matrix_free(&A);
    csr_matrix_free(&B);
  }
  remove(path);
  csr_context_free(&ctx);
}

/* One positive float of the full sweep: reads back, and agrees with the oracle (the two-call
 * check, or the full search at irregular values). Thread-safe; returns 1 on a failure. */
static int sweep_one(uint32_t b) {
  float f = ffrom(b);
  char s[64], o[64];
  int n = csri_print_float(f, s);
  s[n] = 0;
  if (n > CSRI_PRINT_MAX || strtof(s, NULL) != f)
    return 1;
  uint64_t d, od;
  int e, oe, nd = 0;
  csri_shortest_float(f, &d, &e);
  for (uint64_t x = d; x; x /= 10)
    nd++;
  if ((b & 0x7FFFFF) == 0 && b >= 0x01000000u) {
    int p = oracle(f, 1, o);
    parse_dec(o, &od, &oe);
    return (od != d || oe != e) && nd >= p;
  }
  snprintf(o, sizeof o, "%.*e", nd - 1, (double)f);
  parse_dec(o, &od, &oe);
  if (strtof(o, NULL) != f || od != d || oe != e)
    return 1;
  snprintf(o, sizeof o, "%.*e", nd - 2, (double)f);
  return nd > 1 && strtof(o, NULL) == f;
}

static void sweep_all_floats(void) {
  long fails = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : fails)
  for (long hi = 0; hi < 0x7F80; hi++) /* positive finite floats, 65536 per task */
    for (uint32_t lo = 0; lo < 0x10000u; lo++)
      if ((hi | lo) != 0)
        fails += sweep_one((uint32_t)hi << 16 | lo);
  printf("test_mm_print: all %ld positive finite floats: %ld failures\n", 0x7F800000L - 1, fails);
  csrt_checks++;
  if (fails)
    csrt_fail(__FILE__, __LINE__, "full float sweep");
}

static int env_flag(const char *name) {
  return getenv(name) && atoi(getenv(name)) > 0;
}

int main(void) {
#ifdef NDEBUG
  long count = 2000000;
#else
  long count = 500000;
#endif
  if (getenv("CSR_PRINT_TEST_COUNT"))
    count = strtol(getenv("CSR_PRINT_TEST_COUNT"), NULL, 10);
  csrt_rng rng = {csrt_seed("test_mm_print")};

  /* int64 */
  char s[64], w[64];
  int64_t ints[] = {0, 1, -1, 9, 10, 99, 100, -100, 12345678, 123456789, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
    int n = csri_print_int64(ints[i], s);
    snprintf(w, sizeof w, "%" PRId64, ints[i]);
    CHECK(n == (int)strlen(w) && !memcmp(s, w, (size_t)n) && n <= CSRI_PRINT_MAX);
  }
  for (long i = 0; i < 1000000; i++) {
    int64_t v = (int64_t)(csrt_next(&rng) >> csrt_below(&rng, 64));
    v = i & 1 ? -v : v;
    int n = csri_print_int64(v, s);
    snprintf(w, sizeof w, "%" PRId64, v);
    CHECK(n == (int)strlen(w) && !memcmp(s, w, (size_t)n));
  }

  /* the fixed-point logarithms, against libm with a margin (gen_print_pow5.c proves them) */
  for (int q = -1100; q <= 1100; q++) {
    double a = q * log10(2.0), b = log10(3.0) + (q - 2) * log10(2.0), c = q * log2(10.0);
    CHECK(fabs(a - floor(a + 0.5)) > 1e-9 || q == 0);
    CHECK(csri_floor_log10_pow2(q) == (int)floor(a));
    CHECK(fabs(b - floor(b + 0.5)) > 1e-9 && csri_floor_log10_three_quarters_pow2(q) == floor(b));
    CHECK(csri_floor_log2_pow10(q) == (int)floor(c));
  }

  /* doubles: special values, every power of 2 and 10, boundaries, short decimals */
  double specials[] = {0.0,     -0.0,    INFINITY,     -INFINITY, NAN,
                       DBL_MAX, DBL_MIN, DBL_TRUE_MIN, 0x1p53,    0x1p63,
                       0x1p64,  1e22,    1e23,         5e-324,    1.7976931348623157e308};
  for (size_t i = 0; i < sizeof specials / sizeof *specials; i++)
    check_around(specials[i], 0);
  for (int e = -1074; e <= 1023; e++)
    check_around(ldexp(1, e), 0);
  for (int e = -323; e <= 308; e++) {
    snprintf(s, sizeof s, "1e%d", e);
    check_around(strtod(s, NULL), 0);
  }
  for (uint64_t c = 1; c <= 20000; c++) /* the least subnormals, the largest, the least normals */
    check(dfrom(c), 0, 1), check(dfrom(dbits(DBL_MIN) - c), 0, c < 100),
        check(dfrom(dbits(DBL_MIN) + c), 0, c < 100);
  for (long k = 0; k <= 100000; k++)
    check((double)k, 0, k < 2000), check((double)k / 100, 0, k < 2000), check(k / 1000.0, 0, 0);
  for (long k = -1000; k <= 1000; k++)
    check_both_signs(0x1p53 + (double)k, 0, 1);
  for (int x = 14; x <= 30; x++) /* large round numbers: exact X with k > 0 in the fast path */
    for (int k = 1; k <= 2000; k++) {
      snprintf(s, sizeof s, "%de%d", k, x);
      check_around(strtod(s, NULL), 0);
    }
  long fixed = n_values;

  for (long i = 0; i < count; i++) {
    double v = random_double(&rng, (int)csrt_below(&rng, 8));
    check(csrt_below(&rng, 2) ? -v : v, 0, csrt_below(&rng, 16) == 0);
  }
  printf("test_mm_print: doubles: %ld values (%ld fixed, %ld random): %ld against the full "
         "search, %ld by the two-call check; %ld exact ties (%ld decided by the even digit), "
         "%ld asymmetric, %ld slow-path uses\n",
         n_values, fixed, count, n_full, n_quick, n_ties, n_even_rule, n_asym, n_slow);

  /* floats */
  n_values = n_full = n_quick = n_ties = n_even_rule = n_asym = n_slow = 0;
  float fspecials[] = {FLT_MAX, FLT_MIN, FLT_TRUE_MIN, 0x1p24f, 1e10f, 3.4e38f, 0.1f, 1e-45f};
  for (size_t i = 0; i < sizeof fspecials / sizeof *fspecials; i++)
    check_around(fspecials[i], 1);
  for (int e = -149; e <= 127; e++)
    check_around(ldexp(1, e), 1);
  for (int e = -45; e <= 38; e++) {
    snprintf(s, sizeof s, "1e%d", e);
    check_around(strtof(s, NULL), 1);
  }
  for (uint32_t c = 1; c <= 100000; c++)
    check(ffrom(c), 1, c < 20000), check(ffrom(0x00800000u - c), 1, c < 100);
  for (long k = 0; k <= 100000; k++)
    check((float)k, 1, k < 2000), check((float)k / 100, 1, k < 2000);
  fixed = n_values;
  for (long i = 0; i < 10 * count; i++) {
    uint32_t b = (uint32_t)csrt_next(&rng);
    if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x7FFFFFu) != 0)
      b &= ~0x00400000u; /* NaNs: keep a few */
    check(ffrom(b), 1, csrt_below(&rng, 64) == 0);
  }
  printf(
      "test_mm_print: floats: %ld values (%ld fixed, %ld random): %ld against the full search, "
      "%ld by the two-call check; %ld exact ties (%ld decided by the even digit), %ld asymmetric, "
      "%ld slow-path uses\n",
      n_values, fixed, 10 * count, n_full, n_quick, n_ties, n_even_rule, n_asym, n_slow);

  /* the slow path itself, on a sample */
  for (long i = 0; i < 20000; i++) {
    double v = fabs(random_double(&rng, (int)csrt_below(&rng, 8)));
    uint64_t d1, d2;
    int e1, e2;
    if (v == 0 || !isfinite(v))
      continue;
    csri_shortest_double(v, &d1, &e1);
    csri_shortest_slow(v, 0, &d2, &e2);
    CHECK(d1 == d2 && e1 == e2);
    float f = (float)v;
    if (f == 0 || !isfinite(f))
      continue;
    csri_shortest_float(f, &d1, &e1);
    csri_shortest_slow(f, 1, &d2, &e2);
    CHECK(d1 == d2 && e1 == e2);
  }
  writer_round_trip(&rng);
  if (env_flag("CSR_PRINT_TEST_ALL_FLOATS"))
    sweep_all_floats();
  return csrt_finish("test_mm_print");
}
