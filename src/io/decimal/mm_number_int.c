/* SPDX-License-Identifier: BSD-3-Clause */
/* Decimal text -> int64 ([+-] digits), for the Matrix Market reader's indices and sizes. */
#include "mm_digits.h"
#include "mm_number.h"

const char *csri_parse_int64(const char *p, const char *end, int64_t *out, int *status) {
  const char *s = p;
  int neg = 0;
  if (s < end && (*s == '-' || *s == '+'))
    neg = *s++ == '-';
  const char *digits = s;
  while (s < end && *s == '0') /* leading zeros do not count toward the 19-digit limit */
    s++;
  const char *sig = s;
  uint64_t v = 0;
  s = csri_read_digits(s, end, &v); /* wraps only past 19 digits, which overflow anyway */
  if (s == digits) {
    *out = 0;
    *status = CSRI_NUM_SYNTAX;
    return p;
  }
  uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  if (s - sig > 19 || v > limit) {
    *out = neg ? INT64_MIN : INT64_MAX;
    *status = CSRI_NUM_OUT_OF_RANGE;
    return s;
  }
  *out = neg ? (v == limit ? INT64_MIN : -(int64_t)v) : (int64_t)v;
  *status = CSRI_NUM_OK;
  return s;
}
