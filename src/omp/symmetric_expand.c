/* SPDX-License-Identifier: BSD-3-Clause */
/* Full = A + op(A)^T without doubling the diagonal, in parallel over row blocks. */
#include "kernels/rows.h"
#include "omp/omp.h"

csr_status csri_omp_symmetric_expand(csr_context *ctx, const csr_matrix *A, csr_symmetry symmetry,
                                     csr_matrix **full) {
  int64_t bounds[CSRI_MAX_BLOCKS + 1], diag = 0, bad = A->nnz;
  int th = csri_omp_threads(ctx), nblk = csri_omp_blocks(A->row_offsets, A->rows, th, bounds);
#pragma omp parallel for num_threads(th) schedule(dynamic, 1) reduction(+ : diag) \
    reduction(min : bad)
  for (int b = 0; b < nblk; b++) { /* the first bad entry over all blocks, as the reference */
    int64_t k = csri_expand_check_rows(A, symmetry, bounds[b], bounds[b + 1], &diag);
    if (k >= 0 && k < bad)
      bad = k;
  }
  if (bad < A->nnz)
    return csri_expand_error(ctx, A, bad);
  csri_expand_work w;
  CSRI_TRY(csri_expand_alloc(ctx, A, diag, &w));
  csr_matrix *out = w.out;
#pragma omp parallel for num_threads(th) schedule(dynamic, 1)
  for (int b = 0; b < nblk; b++)
    csri_expand_keys_rows(A, bounds[b], bounds[b + 1], w.rkey, w.ckey);
  csr_status st = csri_omp_group_sort(ctx, 2 * A->nnz, w.rkey, w.ckey, A->rows, out->row_offsets,
                                      out->col_indices, w.src);
  if (st >= 0) {
    int dups = 0;
    nblk = csri_omp_blocks(out->row_offsets, out->rows, th, bounds);
#pragma omp parallel for num_threads(th) schedule(dynamic, 1) reduction(| : dups)
    for (int b = 0; b < nblk; b++) {
      int64_t p0 = out->row_offsets[bounds[b]], p1 = out->row_offsets[bounds[b + 1]];
      csri_expand_gather(A, symmetry, w.src, p0, p1, out->values);
      dups |= csri_sorted_rows_have_duplicates(out, bounds[b], bounds[b + 1]);
    }
    out->flags = CSR_FLAG_SORTED | (dups ? 0u : (unsigned)CSR_FLAG_NO_DUPLICATES);
    *full = out;
    w.out = NULL;
  }
  csri_expand_free(&w);
  return st < 0 ? st : CSR_SUCCESS;
}
