/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-row pieces of the CPU converters: sort a row by (column, source), merge its runs of equal
 * columns, write rows as triples, add rows into a dense matrix. Both CPU backends build their
 * converters from these, so they order, sum and check entries identically (bit for bit). */
#include "kernels/rows.h"

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

int64_t csri_to_dense_rows(const csr_matrix *A, csr_dense *D, int64_t r0, int64_t r1) {
  for (int64_t i = r0; i < r1; i++) {
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int64_t j = A->col_indices[k];
      if (j < 0 || j >= A->cols)
        return k;
      int64_t p = D->layout == CSR_ROW_MAJOR ? i * D->ld + j : i + j * D->ld;
      if (D->value_type == CSR_F32) /* A is F32 too: add in float, as stored */
        ((float *)D->data)[p] += ((const float *)A->values)[k];
      else if (A->value_type == CSR_F64)
        ((double *)D->data)[p] += ((const double *)A->values)[k];
      else /* pattern: each stored entry counts as 1 */
        ((double *)D->data)[p] += 1.0;
    }
  }
  return -1;
}
