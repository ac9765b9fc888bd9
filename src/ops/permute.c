/* SPDX-License-Identifier: BSD-3-Clause */
/* B = P_r A P_c' and y = P x or P' x: the front ends of csr_permute and csr_permute_vector.
 * The rows are gathered by the backend (reorder.permute_rows), columns renamed on the way; when
 * the columns move, two transposes (stable counting sorts) leave every row ordered by its new
 * columns with repeats in A's order. */
#include "ops/ops.h"

static csr_status check_permutation(csr_context *ctx, const csr_permutation *P, int64_t n,
                                    csr_location location, const char *what) {
  if (P == NULL)
    return CSR_SUCCESS;
  if (P->n != n)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "csr_permute: the %s permutation has %lld entries, the matrix %lld %s", what,
                     (long long)P->n, (long long)n, what);
  if (P->location != location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH,
                     "csr_permute: the matrix is on the %s, the %s permutation on the %s",
                     location == CSR_HOST ? "host" : "device", what,
                     P->location == CSR_HOST ? "host" : "device");
  if (n > 0 && (P->old_of_new == NULL || P->new_of_old == NULL))
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "csr_permute: the %s permutation lacks an array",
                     what);
  return CSR_SUCCESS;
}

/* *out = the transpose of the transpose of *in: the same matrix, each row ordered by column and
 * repeats in stored order. *in is freed. */
static csr_status sort_rows(csr_context *ctx, csr_matrix **in, csr_matrix **out) {
  csr_matrix *T = NULL;
  csr_status status = csr_transpose(ctx, *in, &T);
  csr_matrix_free(in);
  if (status >= 0)
    status = csr_transpose(ctx, T, out);
  csr_matrix_free(&T);
  return status;
}

csr_status csr_permute(csr_context *ctx, const csr_matrix *A, const csr_permutation *rows,
                       const csr_permutation *cols, csr_matrix **B) {
  CSRI_CHECK_NULL(ctx, B);
  *B = NULL;
  CSRI_CHECK_NULL(ctx, A);
  const csri_backend *b;
  csr_status status = csri_convert_dispatch(ctx, A, offsetof(csri_backend, reorder.permute_rows),
                                            "permutation", &b);
  CSRI_TRY(status);
  CSRI_TRY(check_permutation(ctx, rows, A->rows, A->location, "row"));
  CSRI_TRY(check_permutation(ctx, cols, A->cols, A->location, "column"));
  csr_matrix *gathered = NULL;
  CSRI_TRY(
      csri_matrix_create(ctx, &gathered, A->rows, A->cols, A->nnz, A->value_type, A->location));
  csr_status st = CSR_SUCCESS;
  if (A->nnz > 0) /* else create's zeroed offsets are the answer */
    st = b->reorder.permute_rows(ctx, A, rows ? rows->old_of_new : NULL,
                                 cols ? cols->new_of_old : NULL, gathered);
  if (st < 0) {
    csri_matrix_free(&gathered);
    return st;
  }
  /* Rows alone keep A's order within each row; renamed columns are no longer sorted. */
  gathered->flags = cols == NULL ? A->flags : A->flags & CSR_FLAG_NO_DUPLICATES;
  if (cols == NULL) {
    *B = gathered;
    return csri_ran(ctx, b, status, st);
  }
  st = sort_rows(ctx, &gathered, B); /* flags: SORTED, and NO_DUPLICATES as A's */
  return st < 0 ? st : csri_ran(ctx, b, status, st);
}

csr_status csr_permute_vector(csr_context *ctx, const csr_permutation *P,
                              csr_permute_direction direction, const csr_vector *x, csr_vector *y) {
  CSRI_CHECK_NULL(ctx, P);
  CSRI_TRY(csri_check_vector_pair(ctx, x, y));
  if (direction != CSR_PERMUTE_FORWARD && direction != CSR_PERMUTE_BACKWARD)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "csr_permute_vector: direction %d",
                     (int)direction);
  if (x->n != P->n)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "csr_permute_vector: the permutation has %lld entries, the vectors %lld",
                     (long long)P->n, (long long)x->n);
  if (x->location != P->location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH,
                     "csr_permute_vector: the permutation is on the %s, the vectors on the %s",
                     P->location == CSR_HOST ? "host" : "device",
                     x->location == CSR_HOST ? "host" : "device");
  if (csri_vectors_overlap(x, y)) /* a gather reads entries it has overwritten */
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "csr_permute_vector: x and y overlap in memory");
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, x->location, reorder.gather, "permutation", &b);
  CSRI_TRY(status);
  if (x->n == 0)
    return csri_ran(ctx, b, status, CSR_SUCCESS);
  /* Backward, y[old_of_new[k]] = x[k], is the gather y[i] = x[new_of_old[i]]. */
  const int32_t *index = direction == CSR_PERMUTE_FORWARD ? P->old_of_new : P->new_of_old;
  return csri_ran(ctx, b, status, b->reorder.gather(ctx, index, x, y));
}
