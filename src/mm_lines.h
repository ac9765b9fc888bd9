/* Finding line ends fast: eight bytes at a time for '\n' or '\r' (SWAR). Internal. */
#ifndef CSR_MM_LINES_H
#define CSR_MM_LINES_H

#include <stdint.h>
#include <string.h>

/* First '\n' or '\r' in [p, end), or end. */
static inline const char *csri_line_end(const char *p, const char *end) {
  const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
  while (end - p >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    uint64_t a = w ^ (ones * '\n'), b = w ^ (ones * '\r');
    /* A zero byte in a or b marks a match (the classic "has zero byte" test). */
    uint64_t hit = ((a - ones) & ~a & highs) | ((b - ones) & ~b & highs);
    if (hit)
      break;
    p += 8;
  }
  while (p < end && *p != '\n' && *p != '\r')
    p++;
  return p;
}

/* Past the terminator at p ("\n", "\r\n" or "\r"); p itself if p == end. */
static inline const char *csri_next_line(const char *p, const char *end) {
  if (p < end && *p++ == '\r' && p < end && *p == '\n')
    p++;
  return p;
}

/* High bit of each byte of w that equals c, exactly (no false positives from borrows). */
static inline uint64_t csri_bytes_equal(uint64_t w, char c) {
  const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
  uint64_t x = w ^ (UINT64_C(0x0101010101010101) * (unsigned char)c);
  return ~(((x & low7) + low7) | x | low7);
}

/* Whether the line starting at p holds data: not blank, not a comment (c0 or c1 first). */
static inline int csri_is_data_line(const char *p, const char *end, char c0, char c1) {
  if (p < end && (unsigned)(*p - '0') < 10) /* the common case: a number starts the line */
    return 1;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\v' || *p == '\f'))
    p++;
  return p < end && *p != '\n' && *p != '\r' && *p != c0 && *p != c1;
}

/* Lines started in [begin, end) and how many hold data. Scans eight bytes at a time for line
 * terminators and looks only at the byte after each: cost per line, not per character. A '\r'
 * ends a line unless a '\n' follows it. */
static inline void csri_count_lines(const char *begin, const char *end, char c0, char c1,
                                    int64_t *lines, int64_t *data) {
  int64_t n = 0, d = 0;
  if (begin < end) {
    n = 1;
    d = csri_is_data_line(begin, end, c0, c1);
  }
  const char *p = begin;
  for (; end - p >= 8; p += 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    uint64_t hits = csri_bytes_equal(w, '\n') | csri_bytes_equal(w, '\r');
    while (hits) {
      const char *t = p + (__builtin_ctzll(hits) >> 3);
      hits &= hits - 1;
      if (*t == '\r' && t + 1 < end && t[1] == '\n')
        continue; /* CRLF: the '\n' ends the line */
      if (t + 1 < end) {
        n++;
        d += csri_is_data_line(t + 1, end, c0, c1);
      }
    }
  }
  for (; p < end; p++)
    if ((*p == '\n' || (*p == '\r' && !(p + 1 < end && p[1] == '\n'))) && p + 1 < end) {
      n++;
      d += csri_is_data_line(p + 1, end, c0, c1);
    }
  *lines = n;
  *data = d;
}

#endif
