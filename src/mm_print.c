/* Numbers -> shortest round-trip decimal text. This version searches the precision: the first
 * p in 1..17 whose correctly rounded p-digit form reads back to v is the shortest, and being
 * correctly rounded it is the closest of that length. Correct, but slow (snprintf and strtod
 * per try): the fast algorithm replaces it and is tested against it. */
#include "mm_print.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int csri_print_int64(int64_t v, char *out) {
  char tmp[24];
  int n = 0;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do {
    tmp[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  int len = 0;
  if (v < 0)
    out[len++] = '-';
  while (n)
    out[len++] = tmp[--n];
  return len;
}

static int print_nonfinite(double v, char *out) {
  const char *s = isnan(v) ? "nan" : v < 0 ? "-inf" : "inf";
  memcpy(out, s, strlen(s));
  return (int)strlen(s);
}

int csri_print_double(double v, char *out) {
  if (!isfinite(v))
    return print_nonfinite(v, out);
  char buf[40];
  int n = 0;
  for (int p = 1; p <= 17; p++) {
    n = snprintf(buf, sizeof buf, "%.*g", p, v);
    if (strtod(buf, NULL) == v)
      break;
  }
  memcpy(out, buf, (size_t)n);
  return n;
}

int csri_print_float(float v, char *out) {
  if (!isfinite(v))
    return print_nonfinite(v, out);
  char buf[40];
  int n = 0;
  for (int p = 1; p <= 9; p++) {
    n = snprintf(buf, sizeof buf, "%.*g", p, (double)v);
    if (strtof(buf, NULL) == v)
      break;
  }
  memcpy(out, buf, (size_t)n);
  return n;
}
