/* Checks the CSR invariants and reports the first violation. */
#include "core/internal.h"

#include <string.h>

static csr_status check_offsets(csr_context *ctx, const csr_matrix *A) {
  if (A->row_offsets[0] != 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX, "row_offsets[0] is %lld, expected 0",
                     (long long)A->row_offsets[0]);
  for (int64_t i = 0; i < A->rows; i++)
    if (A->row_offsets[i + 1] < A->row_offsets[i])
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                       "row_offsets decrease at row %lld: %lld then %lld", (long long)i,
                       (long long)A->row_offsets[i], (long long)A->row_offsets[i + 1]);
  if (A->row_offsets[A->rows] != A->nnz)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX, "row_offsets[%lld] is %lld, expected nnz %lld",
                     (long long)A->rows, (long long)A->row_offsets[A->rows], (long long)A->nnz);
  return CSR_SUCCESS;
}

/* Columns in range; ascending (strictly if no duplicates) when flagged sorted. */
static csr_status check_columns(csr_context *ctx, const csr_matrix *A) {
  int sorted = (A->flags & CSR_FLAG_SORTED) != 0;
  int strict = sorted && (A->flags & CSR_FLAG_NO_DUPLICATES);
  for (int64_t i = 0; i < A->rows; i++) {
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int32_t c = A->col_indices[k];
      if (c < 0 || c >= A->cols)
        return CSRI_FAIL(ctx, CSR_ERR_INDEX_OUT_OF_BOUNDS,
                         "row %lld, entry %lld: column %d outside [0, %lld)", (long long)i,
                         (long long)k, c, (long long)A->cols);
      if (sorted && k > A->row_offsets[i]) {
        int32_t prev = A->col_indices[k - 1];
        if (c < prev || (strict && c == prev))
          return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                           "row %lld, entry %lld: column %d after %d, but the matrix is flagged "
                           "sorted%s",
                           (long long)i, (long long)k, c, prev,
                           strict ? " without duplicates" : "");
      }
    }
  }
  return CSR_SUCCESS;
}

/* Unsorted but flagged duplicate-free: mark columns per row, O(nnz + cols). */
static csr_status check_duplicates(csr_context *ctx, const csr_matrix *A) {
  int64_t *last_row = NULL;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&last_row, A->cols, sizeof(int64_t), CSR_HOST, 0));
  for (int64_t c = 0; c < A->cols; c++)
    last_row[c] = -1;
  csr_status s = CSR_SUCCESS;
  for (int64_t i = 0; i < A->rows && s == CSR_SUCCESS; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int32_t c = A->col_indices[k];
      if (last_row[c] == i) {
        s = CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                      "row %lld: column %d appears twice, but the matrix is flagged "
                      "without duplicates",
                      (long long)i, c);
        break;
      }
      last_row[c] = i;
    }
  csri_free(last_row);
  return s;
}

static csr_status validate_host(csr_context *ctx, const csr_matrix *A) {
  CSRI_TRY(csri_check_shape(ctx, A->rows, A->cols, A->nnz));
  CSRI_TRY(csri_check_value_type(ctx, A->value_type, 1));
  if (A->row_offsets == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX, "row_offsets is NULL");
  if (A->nnz > 0 && A->col_indices == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX, "col_indices is NULL with nnz %lld",
                     (long long)A->nnz);
  if (A->nnz > 0 && A->value_type != CSR_PATTERN && A->values == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX, "values is NULL with nnz %lld",
                     (long long)A->nnz);
  CSRI_TRY(check_offsets(ctx, A));
  CSRI_TRY(check_columns(ctx, A));
  if ((A->flags & CSR_FLAG_NO_DUPLICATES) && !(A->flags & CSR_FLAG_SORTED))
    CSRI_TRY(check_duplicates(ctx, A));
  return CSR_SUCCESS;
}

csr_status csr_matrix_validate(csr_context *ctx, const csr_matrix *A) {
  CSRI_CHECK_NULL(ctx, A);
  CSRI_TRY(csri_check_location(ctx, A->location));
  if (A->location == CSR_HOST)
    return validate_host(ctx, A);
  csr_matrix *H = NULL; /* device: check a host copy */
  CSRI_TRY(csri_check_shape(ctx, A->rows, A->cols, A->nnz));
  CSRI_TRY(csr_matrix_copy(ctx, A, &H, CSR_HOST));
  csr_status s = validate_host(ctx, H);
  csr_matrix_free(&H);
  return s;
}
