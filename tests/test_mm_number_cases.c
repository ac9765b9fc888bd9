/* SPDX-License-Identifier: BSD-3-Clause */
/* csri_parse_double on hand-picked hard cases (against strtod and explicit answers) and
 * csri_parse_int64 on its boundaries and on random values (against strtoll). */
#include "mm_number_check.h"

#include <float.h>

/* Hard cases from the literature and the Matrix Market policy, compared with strtod. */
static void test_hand_list(void) {
  /* '|'-separated so that a line holds several; "||" is the empty string */
  static const char hard[] =
      "2.2250738585072011e-308|2.2250738585072012e-308|2.2250738585072014e-308|9007199254740993|"
      "9007199254740993.0|9007199254740993.000000000000000000001|9007199254740995|"
      "9007199254740992.99999999999999999999|1.7976931348623157e308|1.7976931348623158e308|"
      "1.7976931348623159e308|4.9406564584124654e-324|2.4703282292062327e-324|"
      "2.4703282292062328e-324|1e-400|1e308|1e309|1E310|1e-324|1e-323|3.0540412816717e-310|"
      "1.000000000000000055511151231257827021181583404541015625|"
      "1.000000000000000055511151231257827021181583404541015625000000000000000001|"
      "0.000000000000000000000000000001e+30|-0|+0|-0.0e-5|0e999999999|.5|5.|-.5e-1|+.5E+1|"
      "1e+99999999999|1e-99999999999|-1e+99999999999999999999999|0e+99999999999999999999999|"
      "123456789012345678901234567890e-20|00000000000000000000000000001|1.0e23|8.0e22|"
      "0.00000000000000000000000000000000000001e38|7.2057594037927933e16|1448997445238699|"
      "1e|1e+|1e-|1.5E+x|1.5ee1|.|-|+||e5|.e5|-.e5|+-1|inf|-Infinity|INFINITE|infinit|InFiNiTy|"
      "nan|-NaN|+nan|nan(123abc_)|nan(|nan()|nan(a b)|nanx|in|i|n|-x|1,5|12 34|1..2|1.2.3|"
      /* the bytes just outside '0'..'9' ('/' and ':') inside an 8-byte load */
      "12:45678901234|1.2:4567890123|1e2:4567890123|123456789012:4567|1/345678901234|"
      "1.2/4567890123|1e2/4567890123|12345678/0123456|0.12345678:12345678|"
      /* (DBL_MAX + 2^1024) / 2 = 2^1024 - 2^970: a tie that rounds to infinity; then just below */
      "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017"
      "977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273"
      "854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704"
      "342711559699508093042880177904174497792|"
      "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017"
      "977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273"
      "854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704"
      "342711559699508093042880177904174497791.999999999999";
  char buf[1200];
  for (const char *c = hard;;) {
    const char *bar = strchr(c, '|');
    size_t n = bar ? (size_t)(bar - c) : strlen(c);
    memcpy(buf, c, n);
    buf[n] = 0;
    compare(buf);
    if (bar == NULL)
      break;
    c = bar + 1;
  }
  strcpy(buf, "0.1"); /* 0.1 followed by 800 digits, then the same with an exponent */
  for (int i = 0; i < 800; i++)
    buf[3 + i] = (char)('0' + (i * 7 + 3) % 10);
  buf[803] = 0;
  compare(buf);
  strcpy(buf + 803, "e-300");
  compare(buf);
  exact_midpoint(0.0, DBL_TRUE_MIN, buf); /* half the least subnormal: a tie, rounds to 0 */
  compare(buf);
  /* explicit answers, so the test also means something where strtod were wrong */
  double d;
  int st;
  const char *s = "1.7976931348623158e308 1E310 2.4703282292062328e-324 1e-400 -0 0x1p3";
  s = csri_parse_double(s, s + strlen(s), &d, &st);
  CHECK(d == DBL_MAX && st == CSRI_NUM_OK);
  s = csri_parse_double(s + 1, s + strlen(s), &d, &st);
  CHECK(isinf(d) && d > 0 && st == CSRI_NUM_OUT_OF_RANGE);
  s = csri_parse_double(s + 1, s + strlen(s), &d, &st);
  CHECK(d == DBL_TRUE_MIN && st == CSRI_NUM_OK);
  s = csri_parse_double(s + 1, s + strlen(s), &d, &st);
  CHECK(d == 0 && !signbit(d) && st == CSRI_NUM_OK);
  s = csri_parse_double(s + 1, s + strlen(s), &d, &st);
  CHECK(d == 0 && signbit(d) && st == CSRI_NUM_OK);
  const char *hex = s + 1; /* no hexadecimal floats: "0" then stop at 'x' */
  CHECK(csri_parse_double(hex, hex + 5, &d, &st) == hex + 1 && d == 0 && st == CSRI_NUM_OK);
  const char *cut = "123456e5"; /* `end` cuts the token: only what lies before it counts */
  CHECK(csri_parse_double(cut, cut + 3, &d, &st) == cut + 3 && d == 123.0);
  CHECK(csri_parse_double(cut, cut + 7, &d, &st) == cut + 6 && d == 123456.0);
  CHECK(csri_parse_double(cut, cut, &d, &st) == cut && st == CSRI_NUM_SYNTAX);
}

static void test_int64(void) {
  static const struct {
    const char *text;
    int64_t value;
    int status, len;
  } cases[] = {
      {"0", 0, 0, 1},
      {"-0", 0, 0, 2},
      {"+17x", 17, 0, 3},
      {"0000000000000000000000042", 42, 0, 25},
      {"9223372036854775807", INT64_MAX, 0, 19},
      {"-9223372036854775808", INT64_MIN, 0, 20},
      {"9223372036854775808", INT64_MAX, CSRI_NUM_OUT_OF_RANGE, 19},
      {"-9223372036854775809", INT64_MIN, CSRI_NUM_OUT_OF_RANGE, 20},
      {"-00000000009223372036854775808", INT64_MIN, 0, 30},
      {"18446744073709551616", INT64_MAX, CSRI_NUM_OUT_OF_RANGE, 20},
      {"99999999999999999999999", INT64_MAX, CSRI_NUM_OUT_OF_RANGE, 23},
      {"12345678.5", 12345678, 0, 8},
      {"1e5", 1, 0, 1},
      {"-", 0, CSRI_NUM_SYNTAX, 0},
      {"+", 0, CSRI_NUM_SYNTAX, 0},
      {"", 0, CSRI_NUM_SYNTAX, 0},
      {"x1", 0, CSRI_NUM_SYNTAX, 0},
      {" 1", 0, CSRI_NUM_SYNTAX, 0},
      {"--1", 0, CSRI_NUM_SYNTAX, 0},
      {"12:45678901", 12, 0, 2},
      {"1234/678901", 1234, 0, 4},
      {"12345678:0", 12345678, 0, 8},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t n = strlen(cases[i].text);
    char *p = memcpy(arena + ARENA - n, cases[i].text, n);
    int64_t v = -1;
    int st = -1;
    const char *e = csri_parse_int64(p, p + n, &v, &st);
    CHECK(v == cases[i].value && st == cases[i].status && e - p == cases[i].len);
  }
  csrt_rng rng = {77};
  char buf[32];
  for (int i = 0; i < 100000; i++) { /* random values of every length against strtoll */
    int64_t x = (int64_t)(csrt_next(&rng) >> csrt_below(&rng, 64));
    x = csrt_next(&rng) & 1 ? -x : x;
    int n = snprintf(buf, sizeof buf, "%lld 12345678\n", (long long)x), len = n - 10;
    char *p = memcpy(arena + ARENA - n, buf, (size_t)n);
    int64_t v, v2;
    int st, st2;
    const char *e = csri_parse_int64(p, arena + ARENA, &v, &st); /* more digits follow */
    const char *e2 = csri_parse_int64(p, p + len, &v2, &st2);    /* the token ends the buffer */
    CHECK(v == strtoll(buf, NULL, 10) && st == CSRI_NUM_OK && e == p + len);
    CHECK(v2 == v && st2 == CSRI_NUM_OK && e2 == p + len);
  }
}

int main(void) {
  arena = malloc(ARENA);
  if (arena == NULL)
    return 1;
  test_hand_list();
  test_int64();
  printf("test_mm_number_cases: compared %ld hard strings with strtod bit for bit\n", compared);
  free(arena);
  return csrt_finish("test_mm_number_cases");
}
