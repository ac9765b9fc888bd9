/* Full = A + op(A)^T without doubling the diagonal, in parallel over row blocks. */
#include "convert_impl.h"

csr_status csri_omp_symmetric_expand(csr_context *ctx, const csr_matrix *A, csr_symmetry symmetry,
                                     csr_matrix **full) {
  int64_t bounds[CSRI_MAX_BLOCKS + 1], diag = 0, bad = A->nnz, *src = NULL;
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
  int64_t items = 2 * A->nnz, m = items - diag;
  int32_t *rkey = NULL, *ckey = NULL;
  csr_matrix *out = NULL;
  csr_status st = csri_array_alloc(ctx, (void **)&rkey, items, sizeof *rkey, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&ckey, items, sizeof *ckey, CSR_HOST, 0);
  if (st >= 0)
    st = csri_array_alloc(ctx, (void **)&src, m, sizeof *src, CSR_HOST, 0);
  if (st >= 0)
    st = csr_matrix_create(ctx, &out, A->rows, A->cols, m, A->value_type, CSR_HOST);
  if (st < 0)
    goto cleanup;
#pragma omp parallel for num_threads(th) schedule(dynamic, 1)
  for (int b = 0; b < nblk; b++)
    csri_expand_keys_rows(A, bounds[b], bounds[b + 1], rkey, ckey);
  st =
      csri_omp_group_sort(ctx, items, rkey, ckey, A->rows, out->row_offsets, out->col_indices, src);
  if (st < 0)
    goto cleanup;
  int dups = 0;
  nblk = csri_omp_blocks(out->row_offsets, out->rows, th, bounds);
#pragma omp parallel for num_threads(th) schedule(dynamic, 1) reduction(| : dups)
  for (int b = 0; b < nblk; b++) {
    int64_t p0 = out->row_offsets[bounds[b]], p1 = out->row_offsets[bounds[b + 1]];
    csri_expand_gather(A, symmetry, src, p0, p1, out->values);
    dups |= csri_sorted_rows_have_duplicates(out, bounds[b], bounds[b + 1]);
  }
  out->flags = CSR_FLAG_SORTED | (dups ? 0u : (unsigned)CSR_FLAG_NO_DUPLICATES);
  *full = out;
  out = NULL;
cleanup:
  csr_matrix_free(&out);
  csri_array_free(rkey, CSR_HOST);
  csri_array_free(ckey, CSR_HOST);
  csri_array_free(src, CSR_HOST);
  return st < 0 ? st : CSR_SUCCESS;
}
