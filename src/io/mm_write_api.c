/* SPDX-License-Identifier: BSD-3-Clause */
/* Writer front ends: check the request, decide field and symmetry, build the header, write. */
#include "io/decimal/mm_print.h"
#include "mm_write.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void csr_write_options_init(csr_write_options *options) {
  if (options == NULL)
    return;
  memset(options, 0, sizeof *options);
  options->gzip = -1;
  options->gzip_level = 6;
}

/* Integer output needs every value integral and inside int64. */
static csr_status check_integral(csr_context *ctx, const void *values, csr_value_type type,
                                 int64_t nnz) {
  for (int64_t k = 0; k < nnz; k++) {
    double v = type == CSR_F64 ? ((const double *)values)[k] : ((const float *)values)[k];
    if (!(v == floor(v) && fabs(v) < 0x1p63))
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                       "entry %lld is %.17g: integer output needs integral values", (long long)k,
                       v);
  }
  return CSR_SUCCESS;
}

/* Whether A equals its transpose; A must be sorted and duplicate-free (callers normalise). */
static csr_status is_symmetric(csr_context *ctx, const csr_matrix *A, int *symmetric) {
  csr_matrix *AT = NULL;
  *symmetric = 0;
  if (A->rows != A->cols)
    return CSR_SUCCESS;
  CSRI_TRY(csr_transpose(ctx, A, &AT));
  AT->flags = A->flags;
  csr_status s = csr_matrix_equal(ctx, A, AT, symmetric);
  csr_matrix_free(&AT);
  return s;
}

/* Appends each line of comment as "<mark> line\n" at out + n; returns the new length. */
static int comment_lines(char *out, size_t size, int n, char mark, const char *comment) {
  for (const char *c = comment; c && *c && n >= 0 && (size_t)n < size;) {
    const char *nl = strchr(c, '\n');
    int len = nl ? (int)(nl - c) : (int)strlen(c);
    n += snprintf(out + n, size - (size_t)n, "%c %.*s\n", mark, len, c);
    c += len + (nl != NULL);
  }
  return n;
}

static void header_text(char *out, size_t size, const char *field, const char *symmetry,
                        const char *comment, int64_t rows, int64_t cols, int64_t entries) {
  int n = snprintf(out, size, "%%%%MatrixMarket matrix coordinate %s %s\n", field, symmetry);
  n = comment_lines(out, size, n, '%', comment);
  if (n > 0 && (size_t)n < size)
    snprintf(out + n, size - (size_t)n, "%lld %lld %lld\n", (long long)rows, (long long)cols,
             (long long)entries);
}

/* The options every writer starts from (defaults when NULL), and its operand on the host. */
static csr_status writer_setup(csr_context *ctx, const csr_write_options *options,
                               csr_location location, const char *who, csr_write_options *o) {
  csr_write_options_init(o);
  if (options)
    *o = *options;
  if (location != CSR_HOST)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH, "%s needs host operands", who);
  return CSR_SUCCESS;
}

/* How values are written for the field named in the banner. */
static csri_value_style style_of(const char *field) {
  return field[0] == 'p'   ? CSRI_VALUES_NONE
         : field[0] == 'i' ? CSRI_VALUES_INTEGER
                           : CSRI_VALUES_REAL;
}

csr_status csr_write_mm(csr_context *ctx, const char *path, const csr_matrix *A,
                        const csr_write_options *options) {
  CSRI_CHECK_NULL(ctx, path);
  CSRI_CHECK_NULL(ctx, A);
  csr_write_options o;
  CSRI_TRY(writer_setup(ctx, options, A->location, "csr_write_mm", &o));
  CSRI_TRY(csr_matrix_validate(ctx, A));
  if (o.integer && !o.pattern && A->value_type != CSR_PATTERN)
    CSRI_TRY(check_integral(ctx, A->values, A->value_type, A->nnz));
  csr_matrix *B = NULL; /* a sorted, duplicate-free copy when symmetry must be checked */
  const csr_matrix *M = A;
  int64_t entries = A->nnz;
  if (o.symmetric) {
    unsigned tidy = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
    if ((A->flags & tidy) != tidy) {
      csr_coo *T = NULL;
      CSRI_TRY(csr_to_coo(ctx, A, &T));
      csr_status s = csr_from_coo(ctx, T, 0, &B);
      csr_coo_free(&T);
      CSRI_TRY(s);
      M = B;
    }
    int symmetric = 0;
    csr_status s = is_symmetric(ctx, M, &symmetric);
    if (s == CSR_SUCCESS && !symmetric)
      s = CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                    "the matrix is not symmetric: it cannot be written as 'symmetric'");
    if (s != CSR_SUCCESS) {
      csr_matrix_free(&B);
      return s;
    }
    entries = 0;
    for (int64_t i = 0; i < M->rows; i++)
      for (int64_t k = M->row_offsets[i]; k < M->row_offsets[i + 1]; k++)
        entries += M->col_indices[k] <= i;
  }
  const char *field = o.pattern || M->value_type == CSR_PATTERN ? "pattern"
                      : o.integer                               ? "integer"
                                                                : "real";
  char header[4096];
  header_text(header, sizeof header, field, o.symmetric ? "symmetric" : "general", o.comment,
              M->rows, M->cols, entries);
  csri_write_job w = {M, NULL, style_of(field), o.symmetric, 1};
  csr_status s = csri_write_text(ctx, path, &o, header, &w, M->nnz);
  csr_matrix_free(&B);
  return s;
}

csr_status csr_write_coo_mm(csr_context *ctx, const char *path, const csr_coo *T,
                            const csr_write_options *options) {
  CSRI_CHECK_NULL(ctx, path);
  CSRI_CHECK_NULL(ctx, T);
  csr_write_options o;
  CSRI_TRY(writer_setup(ctx, options, T->location, "csr_write_coo_mm", &o));
  if (o.symmetric)
    return CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED,
                     "symmetric output of triples: convert to CSR and use csr_write_mm");
  CSRI_TRY(csri_check_shape(ctx, T->rows, T->cols, T->nnz));
  for (int64_t k = 0; k < T->nnz; k++)
    if (T->row_indices[k] < 0 || T->row_indices[k] >= T->rows || T->col_indices[k] < 0 ||
        T->col_indices[k] >= T->cols)
      return CSRI_FAIL(ctx, CSR_ERR_INDEX_OUT_OF_BOUNDS, "entry %lld: (%d, %d) outside %lld x %lld",
                       (long long)k, T->row_indices[k], T->col_indices[k], (long long)T->rows,
                       (long long)T->cols);
  if (o.integer && !o.pattern && T->value_type != CSR_PATTERN)
    CSRI_TRY(check_integral(ctx, T->values, T->value_type, T->nnz));
  const char *field = o.pattern || T->value_type == CSR_PATTERN ? "pattern"
                      : o.integer                               ? "integer"
                                                                : "real";
  char header[4096];
  header_text(header, sizeof header, field, "general", o.comment, T->rows, T->cols, T->nnz);
  csri_write_job w = {NULL, T, style_of(field), 0, 1};
  return csri_write_text(ctx, path, &o, header, &w, T->nnz);
}

csr_status csr_write_edge_list(csr_context *ctx, const char *path, const csr_matrix *A,
                               const csr_write_options *options) {
  CSRI_CHECK_NULL(ctx, path);
  CSRI_CHECK_NULL(ctx, A);
  csr_write_options o;
  CSRI_TRY(writer_setup(ctx, options, A->location, "csr_write_edge_list", &o));
  CSRI_TRY(csr_matrix_validate(ctx, A));
  char header[4096] = "";
  comment_lines(header, sizeof header, 0, '#', o.comment);
  csri_write_job w = {
      A, NULL, o.pattern || A->value_type == CSR_PATTERN ? CSRI_VALUES_NONE : CSRI_VALUES_REAL, 0,
      0};
  return csri_write_text(ctx, path, &o, header, &w, A->nnz);
}
