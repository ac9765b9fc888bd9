/* SPDX-License-Identifier: BSD-3-Clause */
/* A = T as CSR: bucket triples by row (stable), sort each row by (col, position), sum runs. */
#include "kernels/rows.h"
#include "ref/ref.h"

#include <string.h>

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
  st = csri_matrix_create(ctx, &out, T->rows, T->cols, merged[T->rows], T->value_type, CSR_HOST);
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

csr_status csri_ref_to_coo(csr_context *ctx, const csr_matrix *A, csr_coo *T) {
  (void)ctx;
  csri_to_coo_rows(A, T, 0, A->rows);
  return CSR_SUCCESS;
}
