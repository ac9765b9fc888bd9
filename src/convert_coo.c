/* A = T as CSR (order by row then column, sum duplicates); T = A as triples in stored order. */
#include "convert_impl.h"

csr_backend csri_convert_backend(const csr_context *ctx, csr_status *status) {
  *status = csr_context_backend(ctx) == CSR_BACKEND_CUDA ? CSR_INFO_DECLINED : CSR_SUCCESS;
  return csri_host_backend(ctx);
}

csr_status csri_convert_check_location(csr_context *ctx, csr_location location) {
  CSRI_TRY(csri_check_location(ctx, location));
  if (location == CSR_DEVICE)
    return CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED,
                     "operand lives on the device: GPU conversion arrives with the GPU "
                     "primitives; copy it to the host to convert it there");
  return CSR_SUCCESS;
}

csr_status csri_convert_check_csr(csr_context *ctx, const csr_matrix *A) {
  CSRI_TRY(csri_convert_check_location(ctx, A->location));
  CSRI_TRY(csri_check_value_type(ctx, A->value_type, 1));
  CSRI_TRY(csri_check_shape(ctx, A->rows, A->cols, A->nnz));
  if (A->row_offsets == NULL ||
      (A->nnz > 0 && (A->col_indices == NULL || (A->value_type != CSR_PATTERN && !A->values))))
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "matrix with %lld entries lacks an array",
                     (long long)A->nnz);
  const int64_t *off = A->row_offsets;
  if (off[0] != 0 || off[A->rows] != A->nnz)
    return CSRI_FAIL(
        ctx, CSR_ERR_INVALID_MATRIX,
        "row_offsets[0] = %lld and row_offsets[rows] = %lld, expected 0 and nnz = %lld",
        (long long)off[0], (long long)off[A->rows], (long long)A->nnz);
  /* Monotone offsets make the rows partition [0, nnz): every backend relies on it. */
  int64_t bad = A->rows;
#pragma omp parallel for if (csri_host_backend(ctx) == CSR_BACKEND_OMP)                            \
    num_threads(csri_omp_threads(ctx)) reduction(min                                               \
                                                 : bad)
  for (int64_t i = 0; i < A->rows; i++)
    if (off[i + 1] < off[i] && i < bad)
      bad = i;
  if (bad < A->rows)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX, "row_offsets decrease after row %lld",
                     (long long)bad);
  return CSR_SUCCESS;
}

csr_status csri_column_error(csr_context *ctx, const csr_matrix *A, int64_t k) {
  return CSRI_FAIL(ctx, CSR_ERR_INDEX_OUT_OF_BOUNDS, "entry %lld has column %d outside [0, %lld)",
                   (long long)k, (int)A->col_indices[k], (long long)A->cols);
}

csr_status csri_coo_index_error(csr_context *ctx, const csr_coo *T, int64_t k) {
  return CSRI_FAIL(ctx, CSR_ERR_INDEX_OUT_OF_BOUNDS,
                   "triple %lld at (%d, %d) lies outside the %lld x %lld matrix", (long long)k,
                   (int)T->row_indices[k], (int)T->col_indices[k], (long long)T->rows,
                   (long long)T->cols);
}

csr_status csr_from_coo(csr_context *ctx, const csr_coo *T, unsigned options, csr_matrix **A) {
  CSRI_CHECK_NULL(ctx, A); /* the output first: it is NULL whatever fails next */
  *A = NULL;
  CSRI_CHECK_NULL(ctx, T);
  if (options & ~(unsigned)CSR_CONVERT_DROP_ZEROS)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "unknown option bits 0x%x",
                     options & ~(unsigned)CSR_CONVERT_DROP_ZEROS);
  CSRI_TRY(csri_convert_check_location(ctx, T->location));
  CSRI_TRY(csri_check_value_type(ctx, T->value_type, 1));
  CSRI_TRY(csri_check_shape(ctx, T->rows, T->cols, T->nnz));
  if (T->nnz > 0 && (T->row_indices == NULL || T->col_indices == NULL ||
                     (T->value_type != CSR_PATTERN && T->values == NULL)))
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "COO with %lld triples lacks an array",
                     (long long)T->nnz);
  csr_status status = CSR_SUCCESS;
  csr_backend backend = csri_convert_backend(ctx, &status);
  if (T->nnz == 0) { /* nothing to sort: the empty matrix of T's shape */
    CSRI_TRY(csr_matrix_create(ctx, A, T->rows, T->cols, 0, T->value_type, CSR_HOST));
    (*A)->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  } else if (backend == CSR_BACKEND_OMP) {
    CSRI_TRY(csri_omp_from_coo(ctx, T, options, A));
  } else {
    CSRI_TRY(csri_ref_from_coo(ctx, T, options, A));
  }
  csri_set_last_backend(ctx, backend);
  return status;
}

csr_status csr_to_coo(csr_context *ctx, const csr_matrix *A, csr_coo **T) {
  CSRI_CHECK_NULL(ctx, T);
  *T = NULL;
  CSRI_CHECK_NULL(ctx, A);
  CSRI_TRY(csri_convert_check_csr(ctx, A));
  csr_coo *out = NULL;
  CSRI_TRY(csr_coo_create(ctx, &out, A->rows, A->cols, A->nnz, A->value_type, CSR_HOST));
  csr_status status = CSR_SUCCESS, st = CSR_SUCCESS;
  csr_backend backend = csri_convert_backend(ctx, &status);
  if (A->nnz > 0)
    st = backend == CSR_BACKEND_OMP ? csri_omp_to_coo(ctx, A, out) : csri_ref_to_coo(ctx, A, out);
  if (st < 0) {
    csr_coo_free(&out);
    return st;
  }
  out->flags = A->flags; /* row-major stored order: sorted / duplicate-free exactly when A is */
  *T = out;
  csri_set_last_backend(ctx, backend);
  return status;
}
