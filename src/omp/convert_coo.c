/* SPDX-License-Identifier: BSD-3-Clause */
/* A = T as CSR in parallel: row histogram, scan, scatter, then per-row sort and merge by blocks
 * (triples already in (row, column) order skip all of it: convert_sorted.c). */
#include "kernels/rows.h"
#include "omp/convert_sorted.h"
#include "omp/scatter_buckets.h"

/* Per-thread counts over contiguous chunks of items: each thread scatters its chunk in order
 * behind the chunks before it, so every group comes out in item order without atomics. */
static csr_status scatter_stable(csr_context *ctx, int64_t n, const int32_t *rkey,
                                 const int32_t *ckey, int64_t nb, int64_t *off, int32_t *cols,
                                 int64_t *src, int T) {
  int64_t *C = NULL; /* C[t * nb + r]: items of chunk t in group r, then where they start */
  CSRI_TRY(
      csri_array_alloc(ctx, (void **)&C, (int64_t)T * nb, sizeof *C, CSR_HOST, CSRI_ARRAY_ZERO));
#pragma omp parallel for num_threads(T) schedule(static, 1)
  for (int t = 0; t < T; t++)
    for (int64_t k = n * t / T; k < n * (t + 1) / T; k++)
      if (rkey[k] >= 0)
        C[(int64_t)t * nb + rkey[k]]++;
  off[0] = 0;
#pragma omp parallel for num_threads(T)
  for (int64_t r = 0; r < nb; r++) {
    int64_t s = 0;
    for (int t = 0; t < T; t++)
      s += C[(int64_t)t * nb + r];
    off[r + 1] = s;
  }
  csri_omp_scan_i64(off + 1, nb, T);
#pragma omp parallel for num_threads(T)
  for (int64_t r = 0; r < nb; r++) {
    int64_t run = off[r];
    for (int64_t t = 0; t < T; t++) {
      int64_t x = C[t * nb + r];
      C[t * nb + r] = run;
      run += x;
    }
  }
#pragma omp parallel for num_threads(T) schedule(static, 1)
  for (int t = 0; t < T; t++)
    for (int64_t k = n * t / T; k < n * (t + 1) / T; k++)
      if (rkey[k] >= 0) {
        int64_t p = C[(int64_t)t * nb + rkey[k]]++;
        cols[p] = ckey[k], src[p] = k;
      }
  csri_array_free(C, CSR_HOST);
  return CSR_SUCCESS;
}

/* Shared counters with atomic increments: O(nb) memory, but the order inside a group varies
 * from run to run (the per-row sort by (col, item) makes the result deterministic again). */
static csr_status scatter_atomic(csr_context *ctx, int64_t n, const int32_t *rkey,
                                 const int32_t *ckey, int64_t nb, int64_t *off, int32_t *cols,
                                 int64_t *src, int T) {
  int64_t *cursor = NULL;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&cursor, nb, sizeof *cursor, CSR_HOST, 0));
#pragma omp parallel for num_threads(T) /* nb may dwarf n here: no serial O(nb) passes */
  for (int64_t r = 0; r <= nb; r++)
    off[r] = 0;
#pragma omp parallel for num_threads(T)
  for (int64_t k = 0; k < n; k++)
    if (rkey[k] >= 0) {
#pragma omp atomic
      off[rkey[k] + 1]++;
    }
  csri_omp_scan_i64(off + 1, nb, T);
#pragma omp parallel for num_threads(T)
  for (int64_t r = 0; r < nb; r++)
    cursor[r] = off[r];
#pragma omp parallel for num_threads(T)
  for (int64_t k = 0; k < n; k++)
    if (rkey[k] >= 0) {
      int64_t p;
#pragma omp atomic capture
      p = cursor[rkey[k]]++;
      cols[p] = ckey[k], src[p] = k;
    }
  csri_array_free(cursor, CSR_HOST);
  return CSR_SUCCESS;
}

/* Length of row r if it is long (needs merge-sort scratch) and not yet in order, else 0. */
static int64_t unsorted_long_row(const int64_t *off, const int32_t *c, const int64_t *s,
                                 int64_t r) {
  int64_t b = off[r], e = off[r + 1];
  if (e - b <= CSRI_SORT_RUN)
    return 0;
  for (int64_t k = b + 1; k < e; k++)
    if (c[k] < c[k - 1] || (c[k] == c[k - 1] && s[k] < s[k - 1]))
      return e - b;
  return 0;
}

/* Sorts every group by (col, item) over row blocks; a block's scratch is its longest unsorted
 * long row, so scratch never exceeds the entries and is zero for already sorted rows. */
static csr_status sort_rows(csr_context *ctx, int64_t nb, const int64_t *off, int32_t *cols,
                            int64_t *src, int T) {
  int64_t bounds[CSRI_MAX_BLOCKS + 1], base[CSRI_MAX_BLOCKS + 1], *ts = NULL;
  int32_t *tc = NULL;
  int nblk = csri_omp_blocks(off, nb, T, bounds);
  base[0] = 0;
#pragma omp parallel for num_threads(T) schedule(dynamic, 1)
  for (int b = 0; b < nblk; b++) {
    int64_t m = 0;
    for (int64_t r = bounds[b]; r < bounds[b + 1]; r++) {
      int64_t len = unsorted_long_row(off, cols, src, r);
      m = len > m ? len : m;
    }
    base[b + 1] = m;
  }
  for (int b = 0; b < nblk; b++)
    base[b + 1] += base[b];
  csr_status st = csri_array_alloc(ctx, (void **)&tc, base[nblk], sizeof *tc, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&ts, base[nblk], sizeof *ts, CSR_HOST, 0);
  if (st >= 0) {
#pragma omp parallel for num_threads(T) schedule(dynamic, 1)
    for (int b = 0; b < nblk; b++)
      for (int64_t r = bounds[b]; r < bounds[b + 1]; r++)
        csri_sort_by_column(off[r + 1] - off[r], cols + off[r], src + off[r], tc + base[b],
                            ts + base[b]);
  }
  csri_array_free(tc, CSR_HOST);
  csri_array_free(ts, CSR_HOST);
  return st;
}

/* csri_omp_group_sort, and for COO -> CSR with the values `in` (vsize bytes each; NULL: none to
 * move): when the rows go through buckets, the values move with their items into *moved, and src
 * then indexes *moved (so that summing a row reads its values from one place); else *moved stays
 * NULL and src indexes `in`. */
static csr_status group_sort(csr_context *ctx, int64_t n, const int32_t *rkey, const int32_t *ckey,
                             int64_t nb, int64_t *off, int32_t *cols, int64_t *src, const void *in,
                             size_t vsize, void **moved) {
  int T = csri_omp_threads(ctx), done = 0;
  /* Many rows: through buckets of rows, whose counters and items stay in cache. Else the
   * per-thread table costs T * nb counters: take it only when no larger than the items. */
  if (csri_omp_buckets_pay(n, nb))
    CSRI_TRY(csri_omp_scatter_buckets(ctx, n, rkey, ckey, nb, off, cols, src, in, vsize, moved, T,
                                      &done));
  if (!done)
    CSRI_TRY((int64_t)T * (nb + 1) <= n
                 ? scatter_stable(ctx, n, rkey, ckey, nb, off, cols, src, T)
                 : scatter_atomic(ctx, n, rkey, ckey, nb, off, cols, src, T));
  return sort_rows(ctx, nb, off, cols, src, T);
}

csr_status csri_omp_group_sort(csr_context *ctx, int64_t n, const int32_t *rkey,
                               const int32_t *ckey, int64_t nb, int64_t *off, int32_t *cols,
                               int64_t *src) {
  return group_sort(ctx, n, rkey, ckey, nb, off, cols, src, NULL, 0, NULL);
}

/* One pass finds out-of-range triples (the first is reported, as the reference does) and whether
 * the triples already come in order; ordered ones take the fast path of convert_sorted.c. */
static csr_status from_coo(csr_context *ctx, const csr_coo *T, csr_coo *take, unsigned options,
                           csr_matrix **A) {
  int th = csri_omp_threads(ctx), drop = (options & CSR_CONVERT_DROP_ZEROS) != 0;
  int64_t bounds[CSRI_MAX_BLOCKS + 1], *off = NULL, *src = NULL, *merged = NULL;
  void *moved = NULL; /* the values in row order, when group_sort moved them */
  csri_coo_scan scan;
  csri_omp_coo_scan(ctx, T, &scan);
  if (scan.bad < T->nnz)
    return csri_coo_index_error(ctx, T, scan.bad);
  if (scan.sorted)
    return csri_omp_from_sorted_coo(ctx, T, take, drop, scan.repeats, A);
  int32_t *cols = NULL;
  csr_matrix *out = NULL;
  csr_status st = csri_array_alloc(ctx, (void **)&off, T->rows + 1, sizeof *off, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&merged, T->rows + 1, sizeof *merged, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&cols, T->nnz, sizeof *cols, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&src, T->nnz, sizeof *src, CSR_HOST, 0);
  if (st >= 0)
    st = group_sort(ctx, T->nnz, T->row_indices, T->col_indices, T->rows, off, cols, src,
                    T->value_type == CSR_PATTERN ? NULL : T->values, csri_value_size(T->value_type),
                    &moved);
  if (st < 0)
    goto cleanup;
  const void *vin = moved != NULL ? moved : T->values;
  int nblk = csri_omp_blocks(off, T->rows, th, bounds);
  merged[0] = 0;
#pragma omp parallel for num_threads(th) schedule(dynamic, 1)
  for (int b = 0; b < nblk; b++) /* row lengths after merging, then offsets by a scan */
    for (int64_t r = bounds[b]; r < bounds[b + 1]; r++)
      merged[r + 1] =
          csri_merge_row(cols, src, off[r], off[r + 1], vin, T->value_type, drop, NULL, NULL, 0);
  csri_omp_scan_i64(merged + 1, T->rows, th);
  st = csri_matrix_create(ctx, &out, T->rows, T->cols, merged[T->rows], T->value_type, CSR_HOST);
  if (st < 0)
    goto cleanup;
#pragma omp parallel for num_threads(th) schedule(dynamic, 1)
  for (int b = 0; b < nblk; b++) {
    for (int64_t r = bounds[b]; r < bounds[b + 1]; r++)
      csri_merge_row(cols, src, off[r], off[r + 1], vin, T->value_type, drop, out->col_indices,
                     out->values, merged[r]);
    for (int64_t r = bounds[b] + 1; r <= bounds[b + 1]; r++)
      out->row_offsets[r] = merged[r];
  }
  out->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  *A = out;
cleanup:
  csri_array_free(off, CSR_HOST);
  csri_array_free(merged, CSR_HOST);
  csri_array_free(cols, CSR_HOST);
  csri_array_free(src, CSR_HOST);
  csri_array_free(moved, CSR_HOST);
  return st < 0 ? st : CSR_SUCCESS;
}

csr_status csri_omp_from_coo(csr_context *ctx, const csr_coo *T, unsigned options, csr_matrix **A) {
  return from_coo(ctx, T, NULL, options, A);
}

csr_status csri_omp_from_coo_take(csr_context *ctx, csr_coo *T, unsigned options, csr_matrix **A) {
  return from_coo(ctx, T, T, options, A);
}

csr_status csri_omp_to_coo(csr_context *ctx, const csr_matrix *A, csr_coo *T) {
  int64_t bounds[CSRI_MAX_BLOCKS + 1];
  int th = csri_omp_threads(ctx), nblk = csri_omp_blocks(A->row_offsets, A->rows, th, bounds);
#pragma omp parallel for num_threads(th) schedule(dynamic, 1)
  for (int b = 0; b < nblk; b++)
    csri_to_coo_rows(A, T, bounds[b], bounds[b + 1]);
  return CSR_SUCCESS;
}
