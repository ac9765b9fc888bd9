/* SPDX-License-Identifier: BSD-3-Clause */
/* A = T as CSR when T's triples already come in (row, column) order: row_offsets[i + 1] = one past
 * row i's last entry, columns and values as they stand (copied, or taken from T), runs of one
 * repeated (row, column) summed in input order. */
#include "omp/convert_sorted.h"

#include <string.h>

/* Chunk bounds over the triples, moved forward to row starts so that every row, and so every
 * row offset, belongs to one chunk. */
static void row_aligned_chunks(const int32_t *ri, int64_t n, int nc, int64_t *kb) {
  kb[0] = 0;
  for (int c = 1; c < nc; c++) {
    int64_t k = n * c / nc;
    k = k < kb[c - 1] ? kb[c - 1] : k;
    while (k > 0 && k < n && ri[k] == ri[k - 1])
      k++;
    kb[c] = k;
  }
  kb[nc] = n;
}

/* Chunk c owns row_offsets[j] for j in (first row of chunk c, first row of chunk c + 1]; the first
 * chunk from j = 0, the last up to j = rows. */
static int64_t owned_end(const csr_coo *T, const int64_t *kb, int nc, int c) {
  return c + 1 == nc || kb[c + 1] == T->nnz ? T->rows : T->row_indices[kb[c + 1]];
}
static int64_t owned_begin(const csr_coo *T, const int64_t *kb, int nc, int c) {
  return c == 0 ? 0 : owned_end(T, kb, nc, c - 1) + 1;
}

/* The chunk's offsets were written relative to its first entry, and only where a row ends (off
 * is zeroed): a row without entries takes the end of the row before it (a running maximum), and
 * every offset gains `first`, where the chunk's entries begin in A. */
static void finish_offsets(int64_t *off, int64_t j0, int64_t j1, int64_t first) {
  for (int64_t j = j0, end = 0; j <= j1; j++) {
    end = off[j] > end ? off[j] : end;
    off[j] = end + first;
  }
}

/* Whether entry k is a zero that DROP_ZEROS removes (the general path's test, in its type). */
static int drops(const csr_coo *T, int drop, int64_t k) {
  if (!drop || T->value_type == CSR_PATTERN)
    return 0;
  return T->value_type == CSR_F64 ? ((const double *)T->values)[k] == 0.0
                                  : ((const float *)T->values)[k] == 0.0f;
}

/* The run [k, r) of one (row, column) as one entry at out: its sum in input order in the value
 * type's arithmetic (the general path's csri_merge_row); 0 when DROP_ZEROS removes it. */
static int merge_run(const csr_coo *T, int64_t k, int64_t r, int drop, void *vals, int64_t out) {
  if (T->value_type == CSR_F64) {
    const double *v = T->values;
    double d = v[k];
    for (int64_t q = k + 1; q < r; q++)
      d += v[q];
    if (drop && d == 0.0)
      return 0;
    if (vals)
      ((double *)vals)[out] = d;
  } else if (T->value_type == CSR_F32) {
    const float *v = T->values;
    float f = v[k];
    for (int64_t q = k + 1; q < r; q++)
      f += v[q];
    if (drop && f == 0.0f)
      return 0;
    if (vals)
      ((float *)vals)[out] = f;
  }
  return 1;
}

/* Entries [b, e) kept: runs of one (row, column), less those DROP_ZEROS removes. */
static int64_t count_kept(const csr_coo *T, int64_t b, int64_t e, int drop) {
  const int32_t *ri = T->row_indices, *ci = T->col_indices;
  int64_t kept = 0;
  if (!drop) { /* run starts only */
    for (int64_t k = b + 1; k < e; k++)
      kept += ri[k] != ri[k - 1] || ci[k] != ci[k - 1];
    return kept + (e > b);
  }
  for (int64_t k = b, r; k < e; k = r) {
    for (r = k + 1; r < e && ri[r] == ri[k] && ci[r] == ci[k];)
      r++;
    kept += merge_run(T, k, r, drop, NULL, 0);
  }
  return kept;
}

/* n entries of T from k to cols / vals at `to`: nothing when they are there already (in place). */
static void move_entries(const csr_coo *T, int64_t k, int64_t n, int32_t *cols, char *vals,
                         int64_t to) {
  size_t vs = csri_value_size(T->value_type);
  if (n == 0 || cols + to == T->col_indices + k)
    return;
  memmove(cols + to, T->col_indices + k, (size_t)n * sizeof *cols);
  if (vs > 0)
    memmove(vals + (size_t)to * vs, (const char *)T->values + (size_t)k * vs, (size_t)n * vs);
}

/* Entries [b, e) merged into cols / vals from 0, row ends (relative to that 0) into off. Stretches
 * of entries that stay as they are (unlike the next one, not dropped) move as one block, and do
 * not move at all where cols / vals are T's own arrays at b and nothing was removed yet; runs of
 * a repeated (row, column) are summed. Returns the number kept. In place is safe: an entry is
 * written only at or below where it is read, after it is read. */
static int64_t merge_chunk(const csr_coo *T, int64_t b, int64_t e, int drop, int32_t *cols,
                           char *vals, int64_t *off) {
  const int32_t *ri = T->row_indices, *ci = T->col_indices;
  int64_t kept = 0;
  for (int64_t k = b, p; k < e;) {
    int64_t rel = kept - k + 1;   /* entry p of the stretch ends its row at p + rel */
    for (p = k; p + 1 < e; p++) { /* one well-predicted branch per entry: & not && */
      if (((ri[p + 1] == ri[p]) & (ci[p + 1] == ci[p])) || drops(T, drop, p))
        break;
      off[ri[p] + 1] = p + rel;
    }
    if (p + 1 == e && !drops(T, drop, p)) { /* the last entry: no successor to repeat it */
      off[ri[p] + 1] = p + rel;
      p++;
    }
    move_entries(T, k, p - k, cols, vals, kept);
    kept += p - k;
    if (p == e)
      break;
    for (k = p + 1; k < e && ri[k] == ri[p] && ci[k] == ci[p];)
      k++;
    if (merge_run(T, p, k, drop, vals, kept)) {
      cols[kept++] = ci[p];
      off[ri[p] + 1] = kept;
    }
  }
  return kept;
}

/* A's columns and values become T's arrays (allocated with room for none), T's pointers NULL. */
static void take_arrays(csr_matrix *A, csr_coo *T, int64_t nnz) {
  csri_array_free(A->col_indices, CSR_HOST);
  csri_array_free(A->values, CSR_HOST);
  A->col_indices = T->col_indices;
  A->values = T->values;
  A->nnz = nnz;
  T->col_indices = NULL;
  T->values = NULL;
}

/* Into new arrays: count what each chunk keeps (known without repeats or zeros to drop), then
 * merge each chunk into its place. */
static csr_status merge_copy(csr_context *ctx, const csr_coo *T, int drop, int64_t repeats, int nc,
                             const int64_t *kb, csr_matrix **A) {
  size_t vs = csri_value_size(T->value_type);
  int64_t at[CSRI_MAX_BLOCKS + 1];
  at[0] = 0;
#pragma omp parallel for if (nc > 1) num_threads(nc) schedule(static, 1)
  for (int c = 0; c < nc; c++)
    at[c + 1] = repeats || drop ? count_kept(T, kb[c], kb[c + 1], drop) : kb[c + 1] - kb[c];
  for (int c = 0; c < nc; c++)
    at[c + 1] += at[c];
  CSRI_TRY(csri_matrix_create(ctx, A, T->rows, T->cols, at[nc], T->value_type, CSR_HOST));
  csr_matrix *out = *A;
#pragma omp parallel for if (nc > 1) num_threads(nc) schedule(static, 1)
  for (int c = 0; c < nc; c++) {
    merge_chunk(T, kb[c], kb[c + 1], drop, out->col_indices + at[c],
                vs ? (char *)out->values + (size_t)at[c] * vs : NULL, out->row_offsets);
    finish_offsets(out->row_offsets, owned_begin(T, kb, nc, c), owned_end(T, kb, nc, c), at[c]);
  }
  return CSR_SUCCESS;
}

/* In T's own arrays, which then become A's: each chunk merges in place at its own start (without
 * repeats or zeros to drop nothing moves), then the chunks slide down over the gaps. */
static csr_status merge_in_place(csr_context *ctx, csr_coo *T, int drop, int nc, const int64_t *kb,
                                 csr_matrix **A) {
  size_t vs = csri_value_size(T->value_type);
  int64_t len[CSRI_MAX_BLOCKS], at[CSRI_MAX_BLOCKS + 1];
  int32_t *cols = T->col_indices;
  char *vals = T->values;
  CSRI_TRY(csri_matrix_create(ctx, A, T->rows, T->cols, 0, T->value_type, CSR_HOST));
  csr_matrix *out = *A;
#pragma omp parallel for if (nc > 1) num_threads(nc) schedule(static, 1)
  for (int c = 0; c < nc; c++)
    len[c] = merge_chunk(T, kb[c], kb[c + 1], drop, cols + kb[c],
                         vs ? vals + (size_t)kb[c] * vs : NULL, out->row_offsets);
  at[0] = 0;
  for (int c = 0; c < nc; c++)
    at[c + 1] = at[c] + len[c];
  csr_status st = csri_omp_slide_chunks(ctx, nc, kb, len, at, cols, vals, vs);
  if (st < 0) { /* T, given up, is left merged chunk by chunk: the caller only frees it */
    csri_matrix_free(A);
    return st;
  }
#pragma omp parallel for if (nc > 1) num_threads(nc) schedule(static, 1)
  for (int c = 0; c < nc; c++)
    finish_offsets(out->row_offsets, owned_begin(T, kb, nc, c), owned_end(T, kb, nc, c), at[c]);
  take_arrays(out, T, at[nc]);
  return CSR_SUCCESS;
}

csr_status csri_omp_from_sorted_coo(csr_context *ctx, const csr_coo *T, csr_coo *take, int drop,
                                    int64_t repeats, csr_matrix **A) {
  int nc = csri_omp_coo_chunks(ctx, T);
  int64_t kb[CSRI_MAX_BLOCKS + 1];
  row_aligned_chunks(T->row_indices, T->nnz, nc, kb);
  csr_status st = take ? merge_in_place(ctx, take, drop, nc, kb, A)
                       : merge_copy(ctx, T, drop, repeats, nc, kb, A);
  if (st >= 0)
    (*A)->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  return st;
}
