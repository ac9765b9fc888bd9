/* SPDX-License-Identifier: BSD-3-Clause */
/* Full = A + op(A)^T without doubling the diagonal: mirror off-diagonal entries, sort rows. */
#include "kernels/rows.h"
#include "ref/ref.h"

#include <string.h>

csr_status csri_ref_symmetric_expand(csr_context *ctx, const csr_matrix *A, csr_symmetry symmetry,
                                     csr_matrix **full) {
  int64_t diag = 0, k = csri_expand_check_rows(A, symmetry, 0, A->rows, &diag);
  if (k >= 0)
    return csri_expand_error(ctx, A, k);
  csri_expand_work w;
  CSRI_TRY(csri_expand_alloc(ctx, A, diag, &w));
  csri_expand_keys_rows(A, 0, A->rows, w.rkey, w.ckey);
  /* Each row by (column, item): direct entry 2k and mirror 2k+1 in A's stored order. */
  csr_status st = csri_ref_group_sort(ctx, 2 * A->nnz, w.rkey, w.ckey, A->rows, w.out->row_offsets,
                                      w.out->col_indices, w.src);
  if (st >= 0) {
    csri_expand_gather(A, symmetry, w.src, 0, w.out->nnz, w.out->values);
    w.out->flags = CSR_FLAG_SORTED;
    if (!csri_sorted_rows_have_duplicates(w.out, 0, w.out->rows))
      w.out->flags |= CSR_FLAG_NO_DUPLICATES;
    *full = w.out;
    w.out = NULL;
  }
  csri_expand_free(&w);
  return st < 0 ? st : CSR_SUCCESS;
}
