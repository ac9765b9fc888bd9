/* SPDX-License-Identifier: BSD-3-Clause */
/* The reader's line counter (src/io/mm_lines.h) against a byte-by-byte oracle: on random texts over
 * an alphabet rich in terminators, blanks and comment characters, from every start offset, the
 * vector path (16 bytes at a time) and its fallback count the same lines and data lines. */
#include "io/mm_lines.h"
#include "testing.h"

#include <stdio.h>
#include <stdlib.h>

/* Lines started in [b, e): a '\n', or a '\r' not followed by '\n', ends one; a new one starts
 * after it if bytes remain. A data line is neither blank nor a comment (c0 or c1 first). */
static void oracle(const char *b, const char *e, char c0, char c1, int64_t *lines, int64_t *data) {
  *lines = *data = 0;
  const char *start = b;
  while (start < e) {
    (*lines)++;
    const char *p = start;
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\v' || *p == '\f'))
      p++;
    *data += p < e && *p != '\n' && *p != '\r' && *p != c0 && *p != c1;
    const char *t = start;
    while (t < e && *t != '\n' && *t != '\r')
      t++;
    if (t < e && *t == '\r' && t + 1 < e && t[1] == '\n')
      t++;
    start = t + 1;
  }
}

static void check_text(const char *text, size_t n, char c0, char c1, const char *what) {
  for (size_t off = 0; off <= n && off < 40; off++) {
    int64_t lines = -1, data = -1, want_lines, want_data;
    csri_count_lines(text + off, text + n, c0, c1, &lines, &data);
    oracle(text + off, text + n, c0, c1, &want_lines, &want_data);
    CHECKF(lines == want_lines && data == want_data,
           "%s, %zu bytes from offset %zu: %lld lines %lld data, expected %lld and %lld", what, n,
           off, (long long)lines, (long long)data, (long long)want_lines, (long long)want_data);
  }
}

int main(void) {
  csrt_rng rng = {csrt_seed("test_mm_lines")};
  /* Mostly digits and '\n' (the vector fast path), with each troublesome byte now and then. */
  static const char rare[] = "\r\n \t%#\v\f-+.e\x80\xff";
  char *text = malloc(5000);
  if (text == NULL)
    return 1;
  for (int round = 0; round < 3000; round++) {
    size_t n = (size_t)csrt_below(&rng, round < 2000 ? 120 : 5000);
    int rare_per_1000 = (int)csrt_below(&rng, 4) == 0 ? 300 : (int)csrt_below(&rng, 30);
    for (size_t i = 0; i < n; i++) {
      uint64_t r = csrt_below(&rng, 1000);
      if ((int)r < rare_per_1000)
        text[i] = rare[csrt_below(&rng, sizeof rare - 1)];
      else
        text[i] = r % 7 == 0 ? '\n' : r % 7 == 1 ? ' ' : (char)('0' + r % 10);
    }
    check_text(text, n, '%', '%', "'%' comments");
    check_text(text, n, '#', '%', "'#' and '%' comments");
  }
  /* A long clean body (many 255-round flushes of the lane counters), then one blank line. */
  size_t n = 0;
  for (int i = 0; i < 1200; i++)
    n += (size_t)snprintf(text + n, 5000 - n, "%d 7\n", i % 10);
  check_text(text, n, '%', '%', "clean body");
  text[n - 5] = '\n';
  check_text(text, n, '%', '%', "clean body with a blank line");
  free(text);
  return csrt_finish("test_mm_lines");
}
