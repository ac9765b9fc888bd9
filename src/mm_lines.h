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

#endif
