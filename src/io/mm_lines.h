/* SPDX-License-Identifier: BSD-3-Clause */
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

/* Line terminators that begin in [p, q), `before` being the byte before p (0 at the start): each
 * '\r' begins one (a lone "\r", or a "\r\n" counted once at its '\r'), and each '\n' not
 * preceded by a '\r'. Counting where a terminator begins makes counts over adjacent byte ranges
 * add up to the file's count, wherever the ranges are cut (inside a "\r\n" too). */
static inline int64_t csri_line_ends_begun(const char *p, const char *q, char before) {
  int64_t n = 0;
  for (; p < q; before = *p++)
    n += *p == '\r' || (*p == '\n' && before != '\r');
  return n;
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

/* Terminators in [p, q) (looking ahead up to end): lines they start and data lines among them.
 * Eight bytes at a time; only the byte after each terminator is looked at. A '\r' ends a line
 * unless a '\n' follows it. */
static inline void csri_count_terminators(const char *p, const char *q, const char *end, char c0,
                                          char c1, int64_t *lines, int64_t *data) {
  int64_t n = 0, d = 0;
  for (; q - p >= 8; p += 8) {
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
  for (; p < q; p++)
    if ((*p == '\n' || (*p == '\r' && !(p + 1 < end && p[1] == '\n'))) && p + 1 < end) {
      n++;
      d += csri_is_data_line(p + 1, end, c0, c1);
    }
  *lines += n;
  *data += d;
}

/* Lines started in [begin, end) and how many hold data. The common case of a body, '\n' endings
 * each followed by a character that starts data (above ' ', not a comment character), is
 * counted sixteen bytes at a time with vector compares (GCC/Clang vector extensions: SSE2 or
 * NEON); a block of 16 bytes holding a '\r' or a line start that needs a closer look goes through
 * csri_count_terminators. */
static inline void csri_count_lines(const char *begin, const char *end, char c0, char c1,
                                    int64_t *lines, int64_t *data) {
  int64_t n = 0, d = 0;
  if (begin < end) {
    n = 1;
    d = csri_is_data_line(begin, end, c0, c1);
  }
  const char *p = begin;
#if defined(__GNUC__)
  typedef unsigned char v16 __attribute__((vector_size(16)));
  typedef signed char s16 __attribute__((vector_size(16)));
  v16 newline, cr, space, k0, k1; /* each byte the character */
  memset(&newline, '\n', 16);
  memset(&cr, '\r', 16);
  memset(&space, ' ', 16);
  memset(&k0, c0, 16);
  memset(&k1, c1, 16);
  while (end - p >= 17) { /* the byte after the last of 16 must exist */
    v16 count = {0};      /* per-lane counts of clean line starts; at most 255 rounds */
    int rounds = 0;
    for (; rounds < 255 && end - p >= 17; rounds++, p += 16) {
      v16 v, next;
      memcpy(&v, p, 16);
      memcpy(&next, p + 1, 16);
      s16 is_nl = (s16)(v == newline);
      s16 plain = (s16)((next > space) & (next != k0) & (next != k1));
      s16 odd = (s16)(v == cr) | (is_nl & ~plain);
      uint64_t halves[2];
      memcpy(halves, &odd, 16);
      if (halves[0] | halves[1]) {
        csri_count_terminators(p, p + 16, end, c0, c1, &n, &d);
        continue;
      }
      count -= (v16)is_nl; /* 0xFF per '\n' lane: unsigned, so subtracting it adds 1 */
    }
    unsigned char lanes[16];
    memcpy(lanes, &count, 16);
    for (int i = 0; i < 16; i++) {
      n += lanes[i];
      d += lanes[i];
    }
  }
#endif
  csri_count_terminators(p, end, end, c0, c1, &n, &d);
  *lines = n;
  *data = d;
}

#endif
