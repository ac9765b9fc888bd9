/* SPDX-License-Identifier: BSD-3-Clause */
/* Each COO triple against the one before it, four at a time, one definition for C and CUDA: the
 * device check of given triples (cuda/coo_check.cuh) uses it, tests/test_coo_order.c checks it on
 * the CPU against a walk of the triples.
 *   key(r, c) = (r mod 2^32) * 2^32 + (c mod 2^32); read as a signed 64-bit number, the difference
 *   d_k = key(t_k) - key(t_{k-1}) is negative where the order breaks and zero where t_k repeats
 *   t_{k-1}. Exact while both rows lie in [-1, INT32_MAX) (rows of a matrix, at most
 *   CSR_MAX_DIM of them, and the halo below), and for CSRI_ORDER_PAST after such a row; a
 *   triple outside the matrix may wrap d, and is reported whatever d says.          Internal. */
#ifndef CSR_KERNELS_COO_ORDER_H
#define CSR_KERNELS_COO_ORDER_H

#include "kernels/host_device.h"

#include <stdint.h>

/* What stands before triple 0: (-1, -1), below every triple inside the matrix and in no row of
 * it, so triple 0 needs no case of its own (it starts a row and breaks no order). */
#define CSRI_ORDER_HALO ((int32_t)-1)

/* What stands in for a triple past the end of T (the last group of 4 may hold fewer):
 * (INT32_MAX, INT32_MAX), above every triple inside the matrix and above the halo, so it never
 * breaks the order; two of them side by side compare equal, which the caller's mask of the
 * group's triples drops. */
#define CSRI_ORDER_PAST ((int32_t)INT32_MAX)

/* Triple (r, c) as one 64-bit key, row above column: ordered as the triples are when read as
 * signed (a negative row falls below every row of the matrix). */
CSRI_HD uint64_t csri_order_key(int32_t r, int32_t c) {
  return (uint64_t)(uint32_t)r << 32 | (uint32_t)c;
}

/* One bound of the matrix as an unsigned limit on an index: a negative index, read as unsigned,
 * is as far out as one past the end; an extent past 2^31 - 1 admits every nonnegative int32. */
CSRI_HD uint32_t csri_order_end(int64_t extent) {
  return extent <= 0x7fffffff ? (uint32_t)extent : 0x80000000u;
}

/* A group of 4 triples (rows a, columns b) against the triples before each (rows pr, columns
 * pc), in as few operations as the check can afford per triple: only the signs of the four
 * differences and the smallest of them are kept. */
typedef struct {
  uint32_t signs;   /* the differences' high words ORed: bit 31 set where the order breaks */
  uint32_t nearest; /* zero exactly when some triple repeats the one before it */
  unsigned starts;  /* bit e: triple e's row differs from the row before (a row starts there) */
  uint32_t top_r;   /* the largest row and column read as unsigned: at or past the matrix's */
  uint32_t top_c;   /* bounds when some triple is outside it (or past the end of T) */
} csri_order_group;

CSRI_HD csri_order_group csri_order_compare4(const int32_t a[4], const int32_t b[4],
                                             const int32_t pr[4], const int32_t pc[4]) {
  csri_order_group s = {0, ~0u, 0, 0, 0};
  CSRI_UNROLL
  for (int e = 0; e < 4; e++) {
    const uint64_t d = csri_order_key(a[e], b[e]) - csri_order_key(pr[e], pc[e]);
    s.signs |= (uint32_t)(d >> 32);
    /* both words of d ORed: zero only when d is */
    const uint32_t word = (uint32_t)d | (uint32_t)(d >> 32);
    s.nearest = s.nearest < word ? s.nearest : word;
    const uint32_t rows_apart = (uint32_t)a[e] - (uint32_t)pr[e];
    s.starts |= (rows_apart < 1u ? rows_apart : 1u) << e;
    s.top_r = s.top_r > (uint32_t)a[e] ? s.top_r : (uint32_t)a[e];
    s.top_c = s.top_c > (uint32_t)b[e] ? s.top_c : (uint32_t)b[e];
  }
  return s;
}

/* Bit e where triple e repeats the one before it: worked out only when nearest is zero. */
CSRI_HD unsigned csri_order_repeats4(const int32_t a[4], const int32_t b[4], const int32_t pr[4],
                                     const int32_t pc[4]) {
  unsigned bits = 0;
  CSRI_UNROLL
  for (int e = 0; e < 4; e++)
    bits |= (unsigned)(csri_order_key(a[e], b[e]) == csri_order_key(pr[e], pc[e])) << e;
  return bits;
}

/* Bit e where triple e lies outside row_end x col_end (csri_order_end): worked out only when
 * top_r or top_c is at or past its bound. */
CSRI_HD unsigned csri_order_outside4(const int32_t a[4], const int32_t b[4], uint32_t row_end,
                                     uint32_t col_end) {
  unsigned bits = 0;
  CSRI_UNROLL
  for (int e = 0; e < 4; e++)
    bits |= (unsigned)((uint32_t)a[e] >= row_end || (uint32_t)b[e] >= col_end) << e;
  return bits;
}

/* What the check concludes from a group; `here` has a bit for each of its triples inside T (the
 * filler's bits are dropped). */
typedef struct {
  int breaks;       /* the order breaks at one of the group's triples (never at the filler) */
  unsigned repeats; /* bit e: triple e repeats the one before it */
  unsigned starts;  /* bit e: a row starts at triple e */
  unsigned outside; /* bit e: triple e lies outside the matrix */
} csri_order_verdict;

/* The group against the triples before each: the cheap comparisons for every group, the repeats
 * and the triples outside worked out only where those say there are some. */
CSRI_HD csri_order_verdict csri_order_check4(const int32_t a[4], const int32_t b[4],
                                             const int32_t pr[4], const int32_t pc[4],
                                             uint32_t row_end, uint32_t col_end, unsigned here) {
  const csri_order_group s = csri_order_compare4(a, b, pr, pc);
  csri_order_verdict v = {(s.signs >> 31) != 0, 0, 0, 0};
  if (s.nearest == 0)
    v.repeats = csri_order_repeats4(a, b, pr, pc);
  if (s.top_r >= row_end || s.top_c >= col_end) /* one outside the matrix, or past the end */
    v.outside = csri_order_outside4(a, b, row_end, col_end);
  v.outside &= here;
  v.repeats &= here;
  v.starts = s.starts & here;
  return v;
}

#endif
