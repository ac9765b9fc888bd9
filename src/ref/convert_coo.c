/* A = T as CSR: bucket triples by row (stable), sort each row by (col, position), sum runs. */
#include "convert_impl.h"

#include <string.h>

#define PAIR_LESS(c1, s1, c2, s2) ((c1) < (c2) || ((c1) == (c2) && (s1) < (s2)))

static void insertion_sort(int64_t n, int32_t *c, int64_t *s) {
  for (int64_t k = 1; k < n; k++) {
    int32_t ck = c[k];
    int64_t sk = s[k], q = k;
    for (; q > 0 && PAIR_LESS(ck, sk, c[q - 1], s[q - 1]); q--) {
      c[q] = c[q - 1];
      s[q] = s[q - 1];
    }
    c[q] = ck;
    s[q] = sk;
  }
}

/* Merges the sorted runs [lo, mid) and [mid, hi) of (c, s) into (oc, os). */
static void merge(const int32_t *c, const int64_t *s, int64_t lo, int64_t mid, int64_t hi,
                  int32_t *oc, int64_t *os) {
  int64_t a = lo, b = mid, o = lo;
  while (a < mid && b < hi) {
    int take_b = PAIR_LESS(c[b], s[b], c[a], s[a]);
    int64_t from = take_b ? b++ : a++;
    oc[o] = c[from];
    os[o++] = s[from];
  }
  for (; a < mid; a++, o++)
    oc[o] = c[a], os[o] = s[a];
  for (; b < hi; b++, o++)
    oc[o] = c[b], os[o] = s[b];
}

void csri_sort_by_column(int64_t n, int32_t *cols, int64_t *src, int32_t *tmp_cols,
                         int64_t *tmp_src) {
  int64_t k = 1;
  while (k < n && !PAIR_LESS(cols[k], src[k], cols[k - 1], src[k - 1]))
    k++;
  if (k >= n) /* already in order: the common case for sorted input, O(n) */
    return;
  for (int64_t lo = 0; lo < n; lo += CSRI_SORT_RUN)
    insertion_sort(n - lo < CSRI_SORT_RUN ? n - lo : CSRI_SORT_RUN, cols + lo, src + lo);
  /* Bottom-up merge sort, ping-ponging between the row and the scratch. */
  int32_t *c = cols, *tc = tmp_cols;
  int64_t *s = src, *ts = tmp_src;
  for (int64_t w = CSRI_SORT_RUN; w < n; w *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * w) {
      int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      merge(c, s, lo, mid, hi, tc, ts);
    }
    int32_t *xc = c;
    int64_t *xs = s;
    c = tc, s = ts, tc = xc, ts = xs;
  }
  if (c != cols) {
    memcpy(cols, c, (size_t)n * sizeof *cols);
    memcpy(src, s, (size_t)n * sizeof *src);
  }
}

int64_t csri_merge_row(const int32_t *cols, const int64_t *src, int64_t b, int64_t e,
                       const void *in, csr_value_type type, int drop_zeros, int32_t *out_cols,
                       void *out_vals, int64_t pos) {
  int64_t kept = 0;
  int sum = out_cols != NULL || drop_zeros; /* counting runs alone skips the random value reads */
  for (int64_t k = b, r; k < e; k = r) {
    for (r = k + 1; r < e && cols[r] == cols[k];)
      r++;
    double d = 1.0; /* the run's sum, in the value type's own arithmetic, in segment order */
    float f = 0.0f;
    if (sum && type == CSR_F64) {
      const double *v = in;
      d = v[src[k]];
      for (int64_t q = k + 1; q < r; q++)
        d += v[src[q]];
    } else if (sum && type == CSR_F32) {
      const float *v = in;
      f = v[src[k]];
      for (int64_t q = k + 1; q < r; q++)
        f += v[src[q]];
      d = f;
    }
    if (drop_zeros && d == 0.0)
      continue;
    if (out_cols) {
      out_cols[pos + kept] = cols[k];
      if (type == CSR_F64)
        ((double *)out_vals)[pos + kept] = d;
      else if (type == CSR_F32)
        ((float *)out_vals)[pos + kept] = f;
    }
    kept++;
  }
  return kept;
}

csr_status csri_ref_group_sort(csr_context *ctx, int64_t n, const int32_t *rkey,
                               const int32_t *ckey, int64_t nb, int64_t *off, int32_t *cols,
                               int64_t *src) {
  int64_t *cursor = NULL, *ts = NULL, longest = 0;
  int32_t *tc = NULL;
  memset(off, 0, (size_t)(nb + 1) * sizeof *off);
  for (int64_t k = 0; k < n; k++) /* counts, then offsets by a running sum */
    if (rkey[k] >= 0)
      off[rkey[k] + 1]++;
  for (int64_t r = 0; r < nb; r++) {
    longest = off[r + 1] > longest ? off[r + 1] : longest;
    off[r + 1] += off[r];
  }
  int64_t scratch = longest > CSRI_SORT_RUN ? longest : 0;
  csr_status st = csri_array_alloc(ctx, (void **)&cursor, nb, sizeof *cursor, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&tc, scratch, sizeof *tc, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&ts, scratch, sizeof *ts, CSR_HOST, 0);
  if (st < 0)
    goto cleanup;
  memcpy(cursor, off, (size_t)nb * sizeof *cursor);
  for (int64_t k = 0; k < n; k++) { /* in item order: each group comes out ordered by k */
    if (rkey[k] < 0)
      continue;
    int64_t p = cursor[rkey[k]]++;
    cols[p] = ckey[k];
    src[p] = k;
  }
  for (int64_t r = 0; r < nb; r++)
    csri_sort_by_column(off[r + 1] - off[r], cols + off[r], src + off[r], tc, ts);
cleanup:
  csri_array_free(cursor, CSR_HOST);
  csri_array_free(tc, CSR_HOST);
  csri_array_free(ts, CSR_HOST);
  return st;
}

csr_status csri_ref_from_coo(csr_context *ctx, const csr_coo *T, unsigned options, csr_matrix **A) {
  for (int64_t k = 0; k < T->nnz; k++)
    if (T->row_indices[k] < 0 || T->row_indices[k] >= T->rows || T->col_indices[k] < 0 ||
        T->col_indices[k] >= T->cols)
      return csri_coo_index_error(ctx, T, k);
  int64_t *off = NULL, *src = NULL, *merged = NULL;
  int32_t *cols = NULL;
  csr_matrix *out = NULL;
  int drop = (options & CSR_CONVERT_DROP_ZEROS) != 0;
  csr_status st = csri_array_alloc(ctx, (void **)&off, T->rows + 1, sizeof *off, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&merged, T->rows + 1, sizeof *merged, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&cols, T->nnz, sizeof *cols, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&src, T->nnz, sizeof *src, CSR_HOST, 0);
  if (st >= 0)
    st = csri_ref_group_sort(ctx, T->nnz, T->row_indices, T->col_indices, T->rows, off, cols, src);
  if (st < 0)
    goto cleanup;
  merged[0] = 0; /* row lengths after merging runs (and dropping zeros) */
  for (int64_t r = 0; r < T->rows; r++)
    merged[r + 1] = merged[r] + csri_merge_row(cols, src, off[r], off[r + 1], T->values,
                                               T->value_type, drop, NULL, NULL, 0);
  st = csr_matrix_create(ctx, &out, T->rows, T->cols, merged[T->rows], T->value_type, CSR_HOST);
  if (st < 0)
    goto cleanup;
  memcpy(out->row_offsets, merged, (size_t)(T->rows + 1) * sizeof *merged);
  for (int64_t r = 0; r < T->rows; r++)
    csri_merge_row(cols, src, off[r], off[r + 1], T->values, T->value_type, drop, out->col_indices,
                   out->values, merged[r]);
  out->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  *A = out;
cleanup:
  csri_array_free(off, CSR_HOST);
  csri_array_free(merged, CSR_HOST);
  csri_array_free(cols, CSR_HOST);
  csri_array_free(src, CSR_HOST);
  return st < 0 ? st : CSR_SUCCESS;
}

void csri_to_coo_rows(const csr_matrix *A, csr_coo *T, int64_t r0, int64_t r1) {
  for (int64_t i = r0; i < r1; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      T->row_indices[k] = (int32_t)i;
  int64_t b = A->row_offsets[r0], n = A->row_offsets[r1] - b;
  size_t vs = csri_value_size(A->value_type);
  memcpy(T->col_indices + b, A->col_indices + b, (size_t)n * sizeof *T->col_indices);
  if (vs > 0)
    memcpy((char *)T->values + (size_t)b * vs, (const char *)A->values + (size_t)b * vs,
           (size_t)n * vs);
}

csr_status csri_ref_to_coo(csr_context *ctx, const csr_matrix *A, csr_coo *T) {
  (void)ctx;
  csri_to_coo_rows(A, T, 0, A->rows);
  return CSR_SUCCESS;
}
