/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the number-parser tests: one token through csri_parse_double and strtod, compared. */
#ifndef CSR_TEST_MM_NUMBER_CHECK_H
#define CSR_TEST_MM_NUMBER_CHECK_H

#include "io/decimal/mm_number.h"
#include "testing.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tokens are copied to the very end of this heap block (allocated by main) and parsed with `end`
 * there, so ASan catches any read past end. */
#define ARENA 4096
static char *arena;
static long compared; /* strings compared so far */

static inline uint64_t bits_of(double d) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  return b;
}

static inline double from_bits(uint64_t b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

/* Parses s with both and compares value bits, token length and status; returns the status. */
static inline int compare(const char *s) {
  size_t n = strlen(s);
  if (n + 10 >= ARENA) {
    csrt_fail(__FILE__, __LINE__, "test string too long for the arena");
    return -1;
  }
  char *p = memcpy(arena + ARENA - n, s, n);
  double ours = -1.0;
  int st = -1;
  const char *e = csri_parse_double(p, p + n, &ours, &st);
  char *ref_end;
  errno = 0;
  double ref = strtod(s, &ref_end);
  int want = ref_end == s                    ? CSRI_NUM_SYNTAX
             : errno == ERANGE && isinf(ref) ? CSRI_NUM_OUT_OF_RANGE
                                             : CSRI_NUM_OK;
  int same =
      isnan(ref) ? isnan(ours) && !signbit(ours) == !signbit(ref) : bits_of(ours) == bits_of(ref);
  /* Again inside a file-like buffer: a newline and more digits follow, so the 8-byte loads run
   * past the token; the outcome must not change. */
  char *p2 = memcpy(arena + ARENA - n - 10, s, n);
  memcpy(p2 + n, "\n123456789", 10);
  double ours2 = -1.0;
  int st2 = -1;
  const char *e2 = csri_parse_double(p2, arena + ARENA, &ours2, &st2);
  same = same && bits_of(ours2) == bits_of(ours) && st2 == st && e2 - p2 == e - p;
  compared++;
  csrt_checks++;
  if (!same || st != want || e - p != ref_end - s) {
    char msg[400];
    snprintf(msg, sizeof msg,
             "\"%.200s\"%s (%zu chars): ours %a status %d len %td; strtod %a %d %td", s,
             n > 200 ? "..." : "", n, ours, st, e - p, ref, want, ref_end - s);
    csrt_fail(__FILE__, __LINE__, msg);
  }
  return st;
}

/* Exact decimal of (x + y) / 2 for finite 0 <= x <= y, as "0.<digits>e<exp>". */
static inline void exact_midpoint(double x, double y, char *out) {
  static char a[1500], b[1500];
  static unsigned char sum[1500];
  int ia = snprintf(a, sizeof a, "%.1075f", x) - 1076,
      ib = snprintf(b, sizeof b, "%.1075f", y) - 1076;
  int ni = (ia > ib ? ia : ib) + 1, n = ni + 1075, carry = 0; /* ni integer digits */
  for (int k = n - 1; k >= 0; k--) {
    int da = k < ni ? (k - (ni - ia) >= 0 ? a[k - (ni - ia)] - '0' : 0) : a[ia + 1 + k - ni] - '0';
    int db = k < ni ? (k - (ni - ib) >= 0 ? b[k - (ni - ib)] - '0' : 0) : b[ib + 1 + k - ni] - '0';
    sum[k] = (unsigned char)((da + db + carry) % 10);
    carry = (da + db + carry) / 10;
  }
  int rem = 0;
  for (int k = 0; k < n; k++) { /* halve; an odd sum leaves a final 5 */
    int v = rem * 10 + sum[k];
    sum[k] = (unsigned char)(v / 2);
    rem = v % 2;
  }
  sum[n++] = (unsigned char)(5 * rem);
  int first = 0, last = n - 1;
  while (first < n - 1 && sum[first] == 0)
    first++;
  while (last > first && sum[last] == 0)
    last--;
  out += sprintf(out, "0.");
  for (int k = first; k <= last; k++)
    *out++ = (char)('0' + sum[k]);
  sprintf(out, "e%d", ni - first);
}

#endif /* CSR_TEST_MM_NUMBER_CHECK_H */
