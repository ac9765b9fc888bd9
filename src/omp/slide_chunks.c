/* SPDX-License-Identifier: BSD-3-Clause */
/* Chunk c's items [from_c, from_c + len_c) -> [at_c, at_c + len_c), at_c = sum of len before c, in
 * place: the gaps a chunked in-place compaction leaves are closed. */
#include "omp/convert_sorted.h"

#include <string.h>

/* Set-aside room beyond this share of the items is not worth taking: move chunk by chunk. With few
 * repeats (the common case: a sorted file with a stray duplicate) the room is a handful. */
#define SET_ASIDE_SHARE 8

/* Items [from, from + n) to [to, to + n) of the same arrays, to <= from (memmove: they overlap). */
static void move_items(int32_t *cols, char *vals, size_t vs, int64_t to, int64_t from, int64_t n) {
  if (to == from || n == 0)
    return;
  memmove(cols + to, cols + from, (size_t)n * sizeof *cols);
  if (vs > 0)
    memmove(vals + to * vs, vals + from * vs, (size_t)n * vs);
}

/* Items [from, from + n) of (sc, sv) to [to, to + n) of (dc, dv); NULL arrays are fine for n 0. */
static void copy_items(int32_t *dc, char *dv, int64_t to, const int32_t *sc, const char *sv,
                       int64_t from, size_t vs, int64_t n) {
  if (n == 0)
    return;
  memcpy(dc + to, sc + from, (size_t)n * sizeof *dc);
  if (vs > 0)
    memcpy(dv + to * vs, sv + from * vs, (size_t)n * vs);
}

csr_status csri_omp_slide_chunks(csr_context *ctx, int nc, const int64_t *from, const int64_t *len,
                                 const int64_t *at, int32_t *cols, void *vals, size_t vs) {
  /* Every later chunk writes at or above at[c + 1]: the items of chunk c from there up are what
   * it must set aside before the moves start (few, when few items were dropped before it). */
  int64_t tail[CSRI_MAX_BLOCKS], base[CSRI_MAX_BLOCKS + 1], items = 0;
  char *v = vals;
  base[0] = 0;
  for (int c = 0; c < nc; c++) {
    int64_t end = from[c] + len[c], low = c + 1 < nc && at[c + 1] > from[c] ? at[c + 1] : from[c];
    tail[c] = c + 1 < nc && end > low ? end - low : 0;
    base[c + 1] = base[c] + tail[c];
    items += len[c];
  }
  int32_t *keep_cols = NULL;
  char *keep_vals = NULL;
  if (at[nc - 1] == from[nc - 1]) /* nothing was removed below the last chunk: nothing moves */
    return CSR_SUCCESS;
  if (nc == 1 || base[nc] > items / SET_ASIDE_SHARE) {
    for (int c = 0; c < nc; c++) /* in order: a chunk overwrites only what moved before it */
      move_items(cols, v, vs, at[c], from[c], len[c]);
    return CSR_SUCCESS;
  }
  csr_status st = CSR_SUCCESS;
  if (base[nc] > 0)
    st = csri_array_alloc(ctx, (void **)&keep_cols, base[nc], sizeof *keep_cols, CSR_HOST, 0);
  if (base[nc] > 0 && vs > 0 && st >= 0)
    st = csri_array_alloc(ctx, (void **)&keep_vals, base[nc], vs, CSR_HOST, 0);
  if (st >= 0) {
#pragma omp parallel num_threads(nc)
    {
#pragma omp for schedule(static, 1)
      for (int c = 0; c < nc; c++)
        copy_items(keep_cols, keep_vals, base[c], cols, v, from[c] + len[c] - tail[c], vs, tail[c]);
#pragma omp for schedule(static, 1)
      for (int c = 0; c < nc; c++)
        move_items(cols, v, vs, at[c], from[c], len[c] - tail[c]);
#pragma omp for schedule(static, 1)
      for (int c = 0; c < nc; c++)
        copy_items(cols, v, at[c] + len[c] - tail[c], keep_cols, keep_vals, base[c], vs, tail[c]);
    }
  }
  csri_array_free(keep_cols, CSR_HOST);
  csri_array_free(keep_vals, CSR_HOST);
  return st;
}
