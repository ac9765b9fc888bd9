/* SPDX-License-Identifier: BSD-3-Clause */
/* Checks the CSR invariants and reports the first violation. The checks fill one record of
 * findings, on the host here or on the device by the CUDA backend's pass, and one function
 * turns it into the message, so both places report a matrix alike. */
#include "core/backend.h"
#include "core/internal.h"

#include <string.h>

static void offsets_findings(const csr_matrix *A, csri_csr_findings *f) {
  f->first_offset = A->row_offsets[0];
  f->last_offset = A->row_offsets[A->rows];
  for (int64_t i = 0; i < A->rows; i++)
    if (A->row_offsets[i + 1] < A->row_offsets[i]) {
      f->decreasing_row = i;
      f->decreasing_offsets[0] = A->row_offsets[i];
      f->decreasing_offsets[1] = A->row_offsets[i + 1];
      return;
    }
}

static void bad_entry(csri_csr_findings *f, int64_t k, int64_t i, int32_t c, int32_t prev,
                      int why) {
  f->entry = k, f->entry_row = i, f->column = c, f->previous_column = prev, f->why = why;
}

/* Columns in range; ascending (strictly if no duplicates) when flagged sorted. */
static void column_findings(const csr_matrix *A, csri_csr_findings *f) {
  int sorted = (A->flags & CSR_FLAG_SORTED) != 0;
  int strict = sorted && (A->flags & CSR_FLAG_NO_DUPLICATES);
  for (int64_t i = 0; i < A->rows; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int32_t c = A->col_indices[k], prev = k > A->row_offsets[i] ? A->col_indices[k - 1] : 0;
      if (c < 0 || c >= A->cols) {
        bad_entry(f, k, i, c, prev, CSRI_ENTRY_OUTSIDE);
        return;
      }
      if (sorted && k > A->row_offsets[i] && (c < prev || (strict && c == prev))) {
        bad_entry(f, k, i, c, prev, CSRI_ENTRY_OUT_OF_ORDER);
        return;
      }
    }
}

/* Unsorted but flagged duplicate-free: mark columns per row, O(nnz + cols). */
static csr_status duplicate_findings(csr_context *ctx, const csr_matrix *A, csri_csr_findings *f) {
  int64_t *last_row = NULL;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&last_row, A->cols, sizeof(int64_t), CSR_HOST, 0));
  for (int64_t c = 0; c < A->cols; c++)
    last_row[c] = -1;
  for (int64_t i = 0; i < A->rows && f->entry < 0; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int32_t c = A->col_indices[k];
      if (last_row[c] == i) {
        bad_entry(f, k, i, c, 0, CSRI_ENTRY_REPEATED);
        break;
      }
      last_row[c] = i;
    }
  csri_free(last_row);
  return CSR_SUCCESS;
}

static int offsets_sound(const csr_matrix *A, const csri_csr_findings *f) {
  return f->first_offset == 0 && f->decreasing_row < 0 && f->last_offset == A->nnz;
}

static int duplicate_check_needed(const csr_matrix *A) {
  return (A->flags & CSR_FLAG_NO_DUPLICATES) && !(A->flags & CSR_FLAG_SORTED);
}

static csr_status host_findings(csr_context *ctx, const csr_matrix *A, csri_csr_findings *f) {
  offsets_findings(A, f);
  if (!offsets_sound(A, f))
    return CSR_SUCCESS;
  column_findings(A, f);
  if (f->entry < 0 && duplicate_check_needed(A))
    CSRI_TRY(duplicate_findings(ctx, A, f));
  return CSR_SUCCESS;
}

static csr_status report(csr_context *ctx, const csr_matrix *A, const csri_csr_findings *f) {
  if (f->first_offset != 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX, "row_offsets[0] is %lld, expected 0",
                     (long long)f->first_offset);
  if (f->decreasing_row >= 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                     "row_offsets decrease at row %lld: %lld then %lld",
                     (long long)f->decreasing_row, (long long)f->decreasing_offsets[0],
                     (long long)f->decreasing_offsets[1]);
  if (f->last_offset != A->nnz)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX, "row_offsets[%lld] is %lld, expected nnz %lld",
                     (long long)A->rows, (long long)f->last_offset, (long long)A->nnz);
  if (f->entry < 0)
    return CSR_SUCCESS;
  if (f->why == CSRI_ENTRY_OUTSIDE)
    return CSRI_FAIL(ctx, CSR_ERR_INDEX_OUT_OF_BOUNDS,
                     "row %lld, entry %lld: column %d outside [0, %lld)", (long long)f->entry_row,
                     (long long)f->entry, f->column, (long long)A->cols);
  if (f->why == CSRI_ENTRY_OUT_OF_ORDER) {
    int strict = (A->flags & CSR_FLAG_NO_DUPLICATES) != 0;
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                     "row %lld, entry %lld: column %d after %d, but the matrix is flagged "
                     "sorted%s",
                     (long long)f->entry_row, (long long)f->entry, f->column, f->previous_column,
                     strict ? " without duplicates" : "");
  }
  return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                   "row %lld: column %d appears twice, but the matrix is flagged without "
                   "duplicates",
                   (long long)f->entry_row, f->column);
}

csr_status csr_matrix_validate(csr_context *ctx, const csr_matrix *A) {
  CSRI_CHECK_NULL(ctx, A);
  CSRI_TRY(csri_check_location(ctx, A->location));
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
  csri_csr_findings f;
  csri_csr_findings_init(&f);
  const csri_backend *cuda = csri_backend_of(CSR_BACKEND_CUDA);
  if (A->location == CSR_HOST) {
    CSRI_TRY(host_findings(ctx, A, &f));
  } else if (cuda != NULL && cuda->sparse.check_csr != NULL) { /* one pass on the device */
    CSRI_TRY(cuda->sparse.check_csr(ctx, A, 1, &f));
  } else { /* a device matrix without a device check: a host copy */
    csr_matrix *H = NULL;
    CSRI_TRY(csr_matrix_copy(ctx, A, &H, CSR_HOST));
    csr_status s = host_findings(ctx, H, &f);
    csr_matrix_free(&H);
    CSRI_TRY(s);
  }
  return report(ctx, A, &f);
}
