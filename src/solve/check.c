/* SPDX-License-Identifier: BSD-3-Clause */
/* What csr_solve checks of its operands' values before it iterates: A, b and the initial guess x
 * finite, and A not provably singular (a row or a column without a nonzero value). A NaN or an
 * infinity would otherwise surface as a non-finite residual that cannot say where it came from,
 * and an empty row or column lets CG stall or BiCGSTAB "converge" to an x with arbitrary entries.
 * On the host the check is one pass over A (about an SpMV's reads) and one over each vector. On the
 * device it uses public reductions (max |a_ij| over A's values, which keeps NaN; the row lengths)
 * and copies an operand to the host only once one of them has found something, to name the entry;
 * a row or column whose stored values are all zero is found there only after a method broke down
 * (csri_solve_explain_failure). */
#include "solve/solver.h"

#include <math.h>

static double value_at(const void *values, csr_value_type type, int64_t k) {
  return type == CSR_F64 ? ((const double *)values)[k] : (double)((const float *)values)[k];
}

/* Row i of a host A in one pass: marks the columns of its nonzero values, and returns a flag
 * word: 1 when the row holds a nonzero, 2 when it holds a non-finite value or a column outside
 * [0, n) (the caller then looks for which). The bounds live in locals: stores through an
 * unsigned char pointer could alias A's fields, which the compiler would then reload. */
#define SCAN_ROW(VALUE)                                                                            \
  for (int64_t k = begin; k < end; k++) {                                                          \
    double v = (VALUE);                                                                            \
    uint64_t j = (uint64_t)cols[k];                                                                \
    int outside = j >= n, nonzero = v != 0.0;                                                      \
    bad |= outside | !(v - v == 0.0); /* v - v: NaN when v is NaN or infinite */                   \
    used |= nonzero;                                                                               \
    if (nonzero & !outside)                                                                        \
      column_used[j] = 1;                                                                          \
  }
static int scan_row(const csr_matrix *A, int64_t i, unsigned char *column_used) {
  const int64_t begin = A->row_offsets[i], end = A->row_offsets[i + 1];
  const int32_t *cols = A->col_indices;
  const uint64_t n = (uint64_t)A->rows;
  int bad = 0, used = 0;
  if (A->value_type == CSR_F64) {
    const double *values = A->values;
    SCAN_ROW(values[k])
  } else if (A->value_type == CSR_F32) {
    const float *values = A->values;
    SCAN_ROW((double)values[k])
  } else {
    SCAN_ROW(1.0)
  }
  return used | (bad ? 2 : 0);
}
#undef SCAN_ROW

/* The error for row i, which scan_row found to hold a non-finite value or a bad column. */
static csr_status row_error(csr_context *ctx, const csr_matrix *A, int64_t i) {
  int64_t k = A->row_offsets[i], n = A->rows;
  for (; k < A->row_offsets[i + 1]; k++) {
    int64_t j = A->col_indices[k];
    double v = A->value_type == CSR_PATTERN ? 1.0 : value_at(A->values, A->value_type, k);
    if (j < 0 || j >= n)
      return CSRI_FAIL(ctx, CSR_ERR_INDEX_OUT_OF_BOUNDS,
                       "csr_solve: entry %lld of A (row %lld) has column %lld, outside [0, %lld)",
                       (long long)k, (long long)i, (long long)j, (long long)n);
    if (!isfinite(v))
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                       "csr_solve: A holds a non-finite value: A(%lld,%lld) = %g (0-based; row "
                       "%lld, column %lld in a Matrix Market file)",
                       (long long)i, (long long)j, v, (long long)i + 1, (long long)j + 1);
  }
  return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "csr_solve: row %lld of A changed while read",
                   (long long)i); /* scan_row saw something: not reached */
}

/* The exact check of a host A: the first non-finite value or bad column (in row order), then the
 * first row, then the first column with no nonzero value. */
static csr_status check_host_matrix(csr_context *ctx, const csr_matrix *A) {
  int64_t n = A->rows, empty_row = -1;
  unsigned char *column_used = csri_calloc(n > 0 ? (size_t)n : 1, 1);
  if (column_used == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY,
                     "csr_solve: no memory for the check of A's %lld columns", (long long)n);
  csr_status status = CSR_SUCCESS;
  for (int64_t i = 0; i < n && status == CSR_SUCCESS; i++) {
    int flags = scan_row(A, i, column_used);
    if (flags & 2)
      status = row_error(ctx, A, i);
    else if (!(flags & 1) && empty_row < 0)
      empty_row = i;
  }
  int64_t empty_column = -1;
  for (int64_t j = 0; j < n && empty_column < 0 && status == CSR_SUCCESS; j++)
    if (!column_used[j])
      empty_column = j;
  csri_free(column_used);
  if (status != CSR_SUCCESS)
    return status;
  if (empty_row >= 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                     "csr_solve: A is singular: row %lld (0-based; %lld in a Matrix Market file) "
                     "has no nonzero entry",
                     (long long)empty_row, (long long)empty_row + 1);
  if (empty_column >= 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                     "csr_solve: A is singular: column %lld (0-based; %lld in a Matrix Market "
                     "file) has no nonzero entry",
                     (long long)empty_column, (long long)empty_column + 1);
  return CSR_SUCCESS;
}

/* The host check of a copy of the device A; `found` says what the device saw, for the message
 * should the copy show nothing (it cannot, unless A changed meanwhile). */
static csr_status check_copy_of_matrix(csr_context *ctx, const csr_matrix *A, const char *found) {
  csr_matrix *H = NULL;
  CSRI_TRY(csr_matrix_copy(ctx, A, &H, CSR_HOST));
  csr_status status = check_host_matrix(ctx, H);
  csr_matrix_free(&H);
  if (status == CSR_SUCCESS && found != NULL)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX, "csr_solve: A on the device %s", found);
  return status;
}

csr_status csri_solve_check_matrix(csr_context *ctx, const csr_matrix *A) {
  if (A->location == CSR_HOST)
    return check_host_matrix(ctx, A);
  if (A->value_type != CSR_PATTERN) { /* A's values as a vector, for the reduction */
    csr_vector values = {A->nnz, A->values, A->value_type, A->location, 0};
    double largest = 0.0;
    CSRI_TRY(csr_nrminf(ctx, &values, &largest));
    if (!isfinite(largest))
      return check_copy_of_matrix(ctx, A, "holds a non-finite value");
  }
  csr_row_stats stats; /* kept in the context: the SpMV plan of the method's steps reads them */
  CSRI_TRY(csri_row_stats_kept(ctx, A, &stats));
  if (stats.empty_rows > 0)
    return check_copy_of_matrix(ctx, A, "has an empty row");
  return CSR_SUCCESS;
}

csr_status csri_solve_check_vector(csr_context *ctx, const csr_vector *v, const char *what,
                                   const char *name) {
  double largest = 0.0;
  CSRI_TRY(csr_nrminf(ctx, v, &largest));
  if (isfinite(largest))
    return CSR_SUCCESS;
  return csri_solve_name_non_finite(ctx, v, what, name);
}

csr_status csri_solve_name_non_finite(csr_context *ctx, const csr_vector *v, const char *what,
                                      const char *name) {
  csr_vector *h = NULL;
  if (v->location != CSR_HOST)
    CSRI_TRY(csr_vector_clone(ctx, v, &h, CSR_HOST));
  const csr_vector *on_host = h != NULL ? h : v;
  int64_t i = 0;
  while (i < on_host->n && isfinite(value_at(on_host->data, on_host->value_type, i)))
    i++;
  const double value = i < on_host->n ? value_at(on_host->data, on_host->value_type, i) : 0.0;
  csr_vector_free(&h);
  if (i == v->n)
    return CSR_SUCCESS;
  return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                   "csr_solve: %s holds a non-finite value: %s(%lld) = %g (0-based; %lld in a "
                   "Matrix Market file)",
                   what, name, (long long)i, value, (long long)i + 1);
}

csr_status csri_solve_explain_failure(csr_context *ctx, const csr_matrix *A) {
  if (A->location == CSR_HOST)
    return CSR_SUCCESS; /* csri_solve_check_matrix has done all there is */
  return check_copy_of_matrix(ctx, A, NULL);
}
