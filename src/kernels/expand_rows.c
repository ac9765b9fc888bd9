/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-row pieces of the symmetric expansion on the CPU: check the stored triangle, make each
 * entry's key and its mirror's, gather the values in sorted order, spot duplicates. Both CPU
 * backends expand with these. */
#include "kernels/rows.h"

#include <string.h>

int64_t csri_expand_check_rows(const csr_matrix *A, csr_symmetry symmetry, int64_t r0, int64_t r1,
                               int64_t *diagonal) {
  int64_t diag = 0;
  for (int64_t i = r0; i < r1; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int64_t j = A->col_indices[k];
      if (j < 0 || j >= A->cols)
        return k;
      if (j == i) {
        diag++; /* a_ji = -a_ij on the diagonal forces a_ii = 0 */
        if (symmetry == CSR_SKEW_SYMMETRIC && csri_value_get(A->values, A->value_type, k) != 0.0)
          return k;
      }
    }
  *diagonal += diag;
  return -1;
}

csr_status csri_expand_error(csr_context *ctx, const csr_matrix *A, int64_t k) {
  int32_t j = A->col_indices[k];
  if (j < 0 || j >= A->cols)
    return csri_column_error(ctx, A, k);
  return csri_skew_diagonal_error(ctx, k, j);
}

void csri_expand_keys_rows(const csr_matrix *A, int64_t r0, int64_t r1, int32_t *rkey,
                           int32_t *ckey) {
  for (int64_t i = r0; i < r1; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int32_t j = A->col_indices[k];
      rkey[2 * k] = (int32_t)i, ckey[2 * k] = j;
      rkey[2 * k + 1] = j == i ? -1 : j, ckey[2 * k + 1] = (int32_t)i;
    }
}

void csri_expand_gather(const csr_matrix *A, csr_symmetry symmetry, const int64_t *src, int64_t p0,
                        int64_t p1, void *out) {
  for (int64_t p = p0; p < p1; p++) {
    double v = csri_value_get(A->values, A->value_type, src[p] >> 1);
    csri_value_put(out, A->value_type, p, (src[p] & 1) && symmetry == CSR_SKEW_SYMMETRIC ? -v : v);
  }
}

int csri_sorted_rows_have_duplicates(const csr_matrix *M, int64_t r0, int64_t r1) {
  for (int64_t i = r0; i < r1; i++)
    for (int64_t k = M->row_offsets[i] + 1; k < M->row_offsets[i + 1]; k++)
      if (M->col_indices[k] == M->col_indices[k - 1])
        return 1;
  return 0;
}

csr_status csri_expand_alloc(csr_context *ctx, const csr_matrix *A, int64_t diag,
                             csri_expand_work *w) {
  int64_t items = 2 * A->nnz, m = items - diag;
  memset(w, 0, sizeof *w);
  csr_status st = csri_array_alloc(ctx, (void **)&w->rkey, items, sizeof *w->rkey, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&w->ckey, items, sizeof *w->ckey, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&w->src, m, sizeof *w->src, CSR_HOST, 0);
  if (st >= 0)
    st = csri_matrix_create(ctx, &w->out, A->rows, A->cols, m, A->value_type, CSR_HOST);
  if (st < 0)
    csri_expand_free(w);
  return st;
}

void csri_expand_free(csri_expand_work *w) {
  csri_matrix_free(&w->out);
  csri_array_free(w->rkey, CSR_HOST);
  csri_array_free(w->ckey, CSR_HOST);
  csri_array_free(w->src, CSR_HOST);
  w->rkey = w->ckey = NULL;
  w->src = NULL;
}
