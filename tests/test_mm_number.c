/* SPDX-License-Identifier: BSD-3-Clause */
/* csri_parse_double against glibc strtod, bit for bit, on millions of random strings.
 *
 * CSR_NUMBER_TEST_COUNT scales the run (default 2,000,000 rounds optimised, 1,000,000 in
 * unoptimised/sanitizer builds; a round compares one to a few strings). The hand-picked hard
 * cases and csri_parse_int64 are in test_mm_number_cases.c. */
#include "mm_number_check.h"

#include <float.h>

/* The slow path alone on the mantissa and exponent of a plain token s, against strtod: it must
 * be right everywhere, not only on the rare inputs that reach it. */
static void compare_slow(const char *s) {
  const char *m = s + (*s == '-' || *s == '+'), *me = m + strspn(m, "0123456789.");
  if (strspn(m, "0123456789") == 0 && (m[0] != '.' || m[1] < '0' || m[1] > '9'))
    return;
  long long x = 0;
  if ((*me | 0x20) == 'e' && strspn(me + 1 + (me[1] == '-' || me[1] == '+'), "0123456789") > 0)
    x = strtoll(me + 1, NULL, 10); /* saturates at LLONG_MAX, like ours near 1e17 */
  x = x > INT64_C(100000000000000000) ? INT64_C(100000000000000000) : x;
  x = x < -INT64_C(100000000000000000) ? -INT64_C(100000000000000000) : x;
  errno = 0;
  double ref = fabs(strtod(s, NULL));
  int want = errno == ERANGE && isinf(ref) ? CSRI_NUM_OUT_OF_RANGE : CSRI_NUM_OK;
  uint64_t bits = 0;
  int st = csri_decimal_to_double_slow(m, me, x, &bits);
  compared++;
  csrt_checks++;
  if (bits != bits_of(ref) || st != want) {
    char msg[300];
    snprintf(msg, sizeof msg, "slow path on \"%.200s\": %a status %d; strtod %a %d", s,
             from_bits(bits), st, ref, want);
    csrt_fail(__FILE__, __LINE__, msg);
  }
}

/* A random token of any shape: sign, leading zeros, 1..40 digits (sometimes hundreds), a point
 * anywhere or none, an exponent in many spellings, mostly aimed at the double range. */
static void random_decimal(csrt_rng *rng, char *b) {
  static const char *const signs[] = {"", "", "-", "+"};
  b += sprintf(b, "%s", signs[csrt_below(rng, 4)]);
  int zeros = csrt_below(rng, 4) == 0 ? (int)csrt_below(rng, 25) : 0;
  uint64_t len_kind = csrt_below(rng, 20);
  int nd = 1 + (int)(len_kind < 10   ? csrt_below(rng, 20)
                     : len_kind < 19 ? csrt_below(rng, 40)
                                     : csrt_below(rng, 400));
  int total = zeros + nd, point = (int)csrt_below(rng, (uint64_t)total + 2); /* total+1: none */
  int style = (int)csrt_below(rng, 8); /* 0: runs of 9s, 1: runs of 0s, else uniform digits */
  for (int i = 0; i < total; i++) {
    if (i == point)
      *b++ = '.';
    int d = i < zeros ? 0 : (int)csrt_below(rng, 10);
    if (i > zeros && style < 2 && csrt_below(rng, 8) != 0)
      d = style == 0 ? 9 : 0;
    *b++ = (char)('0' + d);
  }
  if (point == total)
    *b++ = '.';
  if (csrt_below(rng, 5) != 0) {
    int int_digits = point <= total ? point : total;
    long x = (long)csrt_below(rng, 660) - 335 - int_digits + zeros; /* aim at 1e-335..1e325 */
    if (csrt_below(rng, 50) == 0)
      x = (long)csrt_below(rng, 801) - 400;
    static const char *const forms[] = {"e%ld", "E%ld", "e%+ld", "e%03ld", "e+%05ld"};
    int f = (int)csrt_below(rng, 5);
    b += sprintf(b, forms[x < 0 && f >= 3 ? 0 : f], x);
  }
  *b = 0;
}

/* The midpoint between x and its successor, then strings just below and just above it, and the
 * same cut to 16..25 digits with the last digit as is and plus one. */
static void halfway_cases(csrt_rng *rng, double x) {
  double y = nextafter(x, INFINITY);
  if (!isfinite(y))
    return;
  static char mid[1700], v[1800];
  exact_midpoint(x, y, mid);
  compare(mid);
  char *e = strchr(mid, 'e');
  int nd = (int)(e - mid) - 2;
  /* above: a 1 far after the last digit; below: last digit minus one, then 9s */
  snprintf(v, sizeof v, "%.*s%0*d1%s", nd + 2, mid, 1 + (int)csrt_below(rng, 40), 0, e);
  compare(v);
  snprintf(v, sizeof v, "%.*s%c999999999999999999999%s", nd + 1, mid, mid[nd + 1] - 1, e);
  compare(v);
  int cut = 16 + (int)csrt_below(rng, 10);
  if (cut < nd) {
    snprintf(v, sizeof v, "%.*s%s", cut + 2, mid, e);
    compare(v);
    for (int k = cut + 1; k >= 2; k--) { /* plus one in the last kept digit, carrying */
      if (v[k] != '9') {
        v[k]++;
        break;
      }
      v[k] = '0';
    }
    if (v[2] != '0') /* 0.999..9 + 1 unit would need another digit; skip that rare case */
      compare(v);
  }
}

static double random_double(csrt_rng *rng) {
  uint64_t b = csrt_next(rng) & ~(UINT64_C(1) << 63);
  switch (csrt_below(rng, 6)) {
  case 0: b &= UINT64_C(0x000FFFFFFFFFFFFF); break;                              /* subnormal */
  case 1: b = (b & UINT64_C(0x000FFFFFFFFFFFFF)) | UINT64_C(0x7FE) << 52; break; /* top binade */
  case 2:
    b = (b & UINT64_C(0x800FFFFFFFFFFFFF)) | (UINT64_C(1023) + csrt_below(rng, 60) - 30) << 52;
    break;
  default: break;
  }
  double d = from_bits(b);
  return isfinite(d) ? d : DBL_MAX;
}

static void random_round_trip(csrt_rng *rng, char *buf) {
  double d = random_double(rng);
  if (csrt_next(rng) & 1)
    d = -d;
  int prec = (int)csrt_below(rng, 26);
  switch (csrt_below(rng, 5)) {
  case 0: sprintf(buf, "%.17g", d); break;
  case 1: sprintf(buf, "%.16e", d); break;
  case 2: sprintf(buf, "%.*g", prec, d); break;
  case 3: sprintf(buf, "%.*e", prec, d); break;
  default: sprintf(buf, fabs(d) < 1e30 ? "%.*f" : "%.*E", prec + 300, d); break;
  }
}

int main(void) {
  arena = malloc(ARENA);
  if (arena == NULL)
    return 1;
#ifdef NDEBUG
  long rounds = 2000000;
#else
  long rounds = 1000000;
#endif
  const char *env = getenv("CSR_NUMBER_TEST_COUNT");
  if (env)
    rounds = strtol(env, NULL, 10);
  csrt_rng rng = {csrt_seed("test_mm_number")};
  static char buf[2048];
  long overflow = 0;
  for (long i = 0; i < rounds; i++) {
    uint64_t kind = csrt_below(&rng, 100);
    if (kind < 50)
      random_decimal(&rng, buf);
    else if (kind < 97)
      random_round_trip(&rng, buf);
    else {
      halfway_cases(&rng, fabs(random_double(&rng)));
      continue;
    }
    overflow += compare(buf) == CSRI_NUM_OUT_OF_RANGE;
    if (csrt_below(&rng, 8) == 0)
      compare_slow(buf);
    if (csrt_below(&rng, 8) == 0) { /* a random prefix: cut inside the mantissa or exponent */
      buf[csrt_below(&rng, strlen(buf) + 1)] = 0;
      compare(buf);
    }
  }
  printf("test_mm_number: compared %ld strings with strtod bit for bit (%ld random rounds, "
         "%ld of them overflowing)\n",
         compared, rounds, overflow);
  free(arena);
  return csrt_finish("test_mm_number");
}
