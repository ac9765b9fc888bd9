/* SPDX-License-Identifier: BSD-3-Clause */
/* A = T as CSR (order by row then column, sum duplicates); T = A as triples in stored order. */
#include "ops/ops.h"

/* take: T itself when the caller gives T up, so that a backend may move its arrays into *A. */
static csr_status from_coo(csr_context *ctx, const csr_coo *T, csr_coo *take, unsigned options,
                           csr_matrix **A) {
  CSRI_CHECK_NULL(ctx, A); /* the output first: it is NULL whatever fails next */
  *A = NULL;
  CSRI_CHECK_NULL(ctx, T);
  if (options & ~(unsigned)CSR_CONVERT_DROP_ZEROS)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "unknown option bits 0x%x",
                     options & ~(unsigned)CSR_CONVERT_DROP_ZEROS);
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, T->location, convert.from_coo, "COO to CSR", &b);
  CSRI_TRY(status);
  CSRI_TRY(csri_check_value_type(ctx, T->value_type, 1));
  CSRI_TRY(csri_check_shape(ctx, T->rows, T->cols, T->nnz));
  if (T->nnz > 0 && (T->row_indices == NULL || T->col_indices == NULL ||
                     (T->value_type != CSR_PATTERN && T->values == NULL)))
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "COO with %lld triples lacks an array",
                     (long long)T->nnz);
  if (T->nnz == 0) { /* nothing to sort: the empty matrix of T's shape */
    CSRI_TRY(csr_matrix_create(ctx, A, T->rows, T->cols, 0, T->value_type, T->location));
    (*A)->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
    return csri_ran(ctx, b, status, CSR_SUCCESS);
  }
  if (take && b->convert.from_coo_take)
    return csri_ran(ctx, b, status, b->convert.from_coo_take(ctx, take, options, A));
  return csri_ran(ctx, b, status, b->convert.from_coo(ctx, T, options, A));
}

csr_status csr_from_coo(csr_context *ctx, const csr_coo *T, unsigned options, csr_matrix **A) {
  return from_coo(ctx, T, NULL, options, A);
}

csr_status csri_from_coo_take(csr_context *ctx, csr_coo *T, unsigned options, csr_matrix **A) {
  return from_coo(ctx, T, T, options, A);
}

csr_status csr_to_coo(csr_context *ctx, const csr_matrix *A, csr_coo **T) {
  CSRI_CHECK_NULL(ctx, T);
  *T = NULL;
  CSRI_CHECK_NULL(ctx, A);
  const csri_backend *b;
  csr_status status =
      csri_convert_dispatch(ctx, A, offsetof(csri_backend, convert.to_coo), "CSR to COO", &b);
  CSRI_TRY(status);
  csr_coo *out = NULL;
  CSRI_TRY(csr_coo_create(ctx, &out, A->rows, A->cols, A->nnz, A->value_type, A->location));
  csr_status st = A->nnz > 0 ? b->convert.to_coo(ctx, A, out) : CSR_SUCCESS;
  if (st < 0) {
    csr_coo_free(&out);
    return st;
  }
  out->flags = A->flags; /* row-major stored order: sorted / duplicate-free exactly when A is */
  *T = out;
  return csri_ran(ctx, b, status, st);
}
