/* SPDX-License-Identifier: BSD-3-Clause */
/* Items grouped by row, stable, in two cache-friendly passes (an MSD radix step, then a counting
 * sort inside each bucket): group g's items land at off[g] .. off[g + 1] - 1 in item order.
 *
 * Placing each item straight at its row's cursor (scatter_stable in convert_coo.c) touches a
 * random counter and two random output lines per item; with millions of rows none of them is in
 * cache, and a single thread waits on memory for every item. Here the first pass sends each item
 * to its bucket of 2^BUCKET_BITS consecutive rows: a few hundred output streams, whose lines stay
 * in cache. The second pass takes one bucket at a time, a region that a core's cache holds with
 * its counters, and orders it by row there. Same result as scatter_stable, bit for bit. The
 * values can move with their items (COO to CSR): then the later sums read them from the bucket
 * their row is in, not from anywhere in the input. */
#include "omp/scatter_buckets.h"

#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* Rows per bucket, log2: the counters of a bucket (8 bytes a row: 64 KB) stay in L2. */
#define BUCKET_BITS 13
#define BUCKET_ROWS ((int64_t)1 << BUCKET_BITS)

/* Bucket counts per thread chunk (cb[t * nbk + b]), turned into each chunk's first place in its
 * buckets: bucket-major, so a bucket holds chunk 0's items, then chunk 1's, ... (stable). The
 * buckets' starts and sizes go to start[] and size[]. */
static void bucket_cursors(int T, int64_t nbk, int64_t *cb, int64_t *start, int64_t *size) {
  int64_t at = 0;
  for (int64_t b = 0; b < nbk; b++) {
    start[b] = at;
    for (int t = 0; t < T; t++) {
      const int64_t x = cb[(int64_t)t * nbk + b];
      cb[(int64_t)t * nbk + b] = at;
      at += x;
    }
    size[b] = at - start[b];
  }
}

/* One bucket's values, from [s, s + len) of vals (vsize bytes each, 4 or 8) into the places `to`
 * gives, through the scratch tv. */
static void move_values(int64_t s, int64_t len, const int64_t *to, void *vals, size_t vsize,
                        void *tv) {
  memcpy(tv, (char *)vals + (size_t)s * vsize, (size_t)len * vsize);
  if (vsize == 8)
    for (int64_t i = 0; i < len; i++)
      ((uint64_t *)vals)[to[i]] = ((const uint64_t *)tv)[i];
  else
    for (int64_t i = 0; i < len; i++)
      ((uint32_t *)vals)[to[i]] = ((const uint32_t *)tv)[i];
}

/* One bucket, its items at [s, s + len) in item order, each src packing (item << BUCKET_BITS |
 * row within the bucket): ordered by row through the thread's scratch (tc, ts: len entries; cnt:
 * BUCKET_ROWS + 1), the rows' offsets written, src unpacked to the item. With values (vals of
 * vsize bytes, tv scratch), they move along, and src becomes each item's place in vals. */
static void order_bucket(int64_t first_row, int64_t rows, int64_t s, int64_t len, int64_t *off,
                         int32_t *cols, int64_t *src, void *vals, size_t vsize, int32_t *tc,
                         int64_t *ts, int64_t *cnt, void *tv) {
  const int64_t mask = BUCKET_ROWS - 1;
  for (int64_t i = 0; i < len; i++)
    tc[i] = cols[s + i], ts[i] = src[s + i];
  for (int64_t r = 0; r <= rows; r++)
    cnt[r] = 0;
  for (int64_t i = 0; i < len; i++)
    cnt[(ts[i] & mask) + 1]++;
  for (int64_t r = 0; r < rows; r++) { /* cnt[r]: row r's start within the bucket */
    cnt[r + 1] += cnt[r];
    off[first_row + r] = s + cnt[r];
  }
  for (int64_t i = 0; i < len; i++) {
    const int64_t p = s + cnt[ts[i] & mask]++;
    cols[p] = tc[i];
    src[p] = vals ? p : ts[i] >> BUCKET_BITS;
    ts[i] = p; /* where item i went, for its value */
  }
  if (vals)
    move_values(s, len, ts, vals, vsize, tv);
}

int csri_omp_buckets_pay(int64_t n, int64_t nb) {
  return nb >= 4 * BUCKET_ROWS && n >= BUCKET_ROWS;
}

csr_status csri_omp_scatter_buckets(csr_context *ctx, int64_t n, const int32_t *rkey,
                                    const int32_t *ckey, int64_t nb, int64_t *off, int32_t *cols,
                                    int64_t *src, const void *in, size_t vsize, void **moved, int T,
                                    int *done) {
  const int64_t nbk = (nb + BUCKET_ROWS - 1) >> BUCKET_BITS;
  int64_t *cb = NULL, *start = NULL, *size = NULL, *cnt = NULL, *ts = NULL;
  int32_t *tc = NULL;
  void *tv = NULL;
  *done = 0;
  csr_status st =
      csri_array_alloc(ctx, (void **)&cb, (int64_t)T * nbk, sizeof *cb, CSR_HOST, CSRI_ARRAY_ZERO);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&start, nbk, sizeof *start, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&size, nbk, sizeof *size, CSR_HOST, 0);
  if (st < 0)
    goto cleanup;
#pragma omp parallel for num_threads(T) schedule(static, 1)
  for (int t = 0; t < T; t++)
    for (int64_t k = n * t / T; k < n * (t + 1) / T; k++)
      if (rkey[k] >= 0)
        cb[(int64_t)t * nbk + (rkey[k] >> BUCKET_BITS)]++;
  bucket_cursors(T, nbk, cb, start, size);
  int64_t largest = 0;
  for (int64_t b = 0; b < nbk; b++)
    largest = size[b] > largest ? size[b] : largest;
  /* Each thread orders a bucket in scratch of the largest one's size: when one bucket holds much
   * of the items (a few huge rows), that scratch would cost more than the direct scatter. */
  if ((int64_t)T * largest > n / 2 + BUCKET_ROWS)
    goto cleanup;
  st = csri_array_alloc(ctx, (void **)&tc, (int64_t)T * largest, sizeof *tc, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&ts, (int64_t)T * largest, sizeof *ts, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&cnt, (int64_t)T * (BUCKET_ROWS + 1), sizeof *cnt, CSR_HOST,
                          0);
  if (st >= 0 && in != NULL)
    st = csri_array_alloc(ctx, &tv, (int64_t)T * largest, vsize, CSR_HOST, 0);
  if (st >= 0 && in != NULL) /* last: nothing fails after it, so the caller always frees it */
    st = csri_array_alloc(ctx, moved, n, vsize, CSR_HOST, 0);
  if (st < 0)
    goto cleanup;
  void *vals = in != NULL ? *moved : NULL;
#pragma omp parallel for num_threads(T) schedule(static, 1)
  for (int t = 0; t < T; t++) /* each item to its bucket, its row within the bucket packed in */
    for (int64_t k = n * t / T; k < n * (t + 1) / T; k++)
      if (rkey[k] >= 0) {
        const int64_t p = cb[(int64_t)t * nbk + (rkey[k] >> BUCKET_BITS)]++;
        cols[p] = ckey[k];
        src[p] = k << BUCKET_BITS | (rkey[k] & (BUCKET_ROWS - 1));
        if (in != NULL && vsize == 8)
          ((uint64_t *)vals)[p] = ((const uint64_t *)in)[k];
        else if (in != NULL)
          ((uint32_t *)vals)[p] = ((const uint32_t *)in)[k];
      }
#pragma omp parallel num_threads(T)
  {
    int me = 0;
#ifdef _OPENMP
    me = omp_get_thread_num();
#endif
#pragma omp for schedule(dynamic, 1)
    for (int64_t b = 0; b < nbk; b++) {
      const int64_t first_row = b << BUCKET_BITS;
      const int64_t rows = nb - first_row < BUCKET_ROWS ? nb - first_row : BUCKET_ROWS;
      order_bucket(first_row, rows, start[b], size[b], off, cols, src, vals, vsize,
                   tc + me * largest, ts + me * largest, cnt + me * (BUCKET_ROWS + 1),
                   in ? (char *)tv + (size_t)me * (size_t)largest * vsize : NULL);
    }
  }
  off[nb] = nbk > 0 ? start[nbk - 1] + size[nbk - 1] : 0;
  *done = 1;
cleanup:
  csri_array_free(cb, CSR_HOST);
  csri_array_free(start, CSR_HOST);
  csri_array_free(size, CSR_HOST);
  csri_array_free(tc, CSR_HOST);
  csri_array_free(ts, CSR_HOST);
  csri_array_free(cnt, CSR_HOST);
  csri_array_free(tv, CSR_HOST);
  return st;
}
