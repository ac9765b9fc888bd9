/* SPDX-License-Identifier: BSD-3-Clause */
/* Reference tier for the core objects: statuses, context, create/free/copy, validator, equality. */
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int contains(const char *text, const char *part) {
  return strstr(text, part) != NULL;
}

static void test_status_strings(void) {
  CHECK(strcmp(csr_status_string(CSR_SUCCESS), "CSR_SUCCESS") == 0);
  CHECK(strcmp(csr_status_string(CSR_ERR_PARSE), "CSR_ERR_PARSE") == 0);
  CHECK(strcmp(csr_status_string(CSR_INFO_DECLINED), "CSR_INFO_DECLINED") == 0);
  CHECK(strcmp(csr_status_string((csr_status)-999), "CSR_UNKNOWN_STATUS") == 0);
  for (int s = CSR_ERR_TYPE_MISMATCH; s <= CSR_INFO_NOT_CONVERGED; s++)
    CHECK(strcmp(csr_status_string((csr_status)s), "CSR_UNKNOWN_STATUS") != 0);
}

static void test_context(void) {
  csr_context *ctx = NULL;
  CHECK_STATUS(NULL, csr_context_create(NULL), CSR_ERR_NULL_POINTER);
  CHECK_OK(NULL, csr_context_create(&ctx));
  CHECK(csr_context_backend(ctx) == CSR_BACKEND_AUTO);
  CHECK(csr_context_kernel(ctx) == CSR_KERNEL_AUTO);
  CHECK(csr_context_threads(ctx) == 0 && csr_context_stream(ctx) == NULL);
  CHECK(strcmp(csr_context_last_error(ctx), "") == 0);
  CHECK_OK(ctx, csr_context_set_backend(ctx, CSR_BACKEND_REF));
  CHECK(csr_context_backend(ctx) == CSR_BACKEND_REF);
  CHECK_STATUS(ctx, csr_context_set_backend(ctx, (csr_backend)42), CSR_ERR_INVALID_VALUE);
  CHECK(contains(csr_context_last_error(ctx), "unknown backend 42"));
  CHECK(contains(csr_context_last_error(ctx), "context.c:")); /* file:line of the check */
  CHECK(csr_context_last_status(ctx) == CSR_ERR_INVALID_VALUE);
  /* The message alone is the detail's tail, after "<file>:<line>: ". */
  const char *whole = csr_context_last_error(ctx), *message = csr_context_last_message(ctx);
  CHECK(strncmp(message, "unknown backend 42", 18) == 0);
  CHECK(strlen(whole) > strlen(message) + 2 &&
        strcmp(whole + strlen(whole) - strlen(message), message) == 0);
  CHECK(strncmp(whole + strlen(whole) - strlen(message) - 2, ": ", 2) == 0);
  csr_context_clear_error(ctx);
  CHECK(csr_context_last_status(ctx) == CSR_SUCCESS && csr_context_last_error(ctx)[0] == 0);
  CHECK(csr_context_last_message(ctx)[0] == 0);
  if (!csr_backend_available(CSR_BACKEND_CUDA))
    CHECK_STATUS(ctx, csr_context_set_backend(ctx, CSR_BACKEND_CUDA), CSR_ERR_NOT_COMPILED);
  CHECK_STATUS(ctx, csr_context_set_threads(ctx, -1), CSR_ERR_INVALID_VALUE);
  CHECK_OK(ctx, csr_context_set_threads(ctx, 2));
  CHECK(csr_context_threads(ctx) == 2);
  CHECK_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_SEGMENTED));
  CHECK(csr_context_kernel(ctx) == CSR_KERNEL_SEGMENTED);
  CHECK_STATUS(ctx, csr_context_set_kernel(ctx, (csr_spmv_kernel)9), CSR_ERR_INVALID_VALUE);
  CHECK_OK(ctx, csr_context_set_debug_sync(ctx, 5));
  CHECK(csr_context_debug_sync(ctx) == 1);
  CHECK(strcmp(csr_backend_name(CSR_BACKEND_OMP), "omp") == 0);
  CHECK(csr_backend_available(CSR_BACKEND_REF));
  csr_context_free(&ctx);
  CHECK(ctx == NULL);
  csr_context_free(&ctx); /* NULL twice is fine */
  csr_context_free(NULL);
  /* A NULL context: default behaviour, no detail, no crash. */
  CHECK(csr_context_backend(NULL) == CSR_BACKEND_AUTO);
  CHECK(strcmp(csr_context_last_error(NULL), "") == 0);
  CHECK(strcmp(csr_context_last_message(NULL), "") == 0);
}

static void test_create(csr_context *ctx) {
  csr_matrix *A = NULL;
  CHECK_OK(ctx, csr_matrix_create(ctx, &A, 3, 4, 5, CSR_F64, CSR_HOST));
  CHECK(A && A->rows == 3 && A->cols == 4 && A->nnz == 5 && A->values && A->location == CSR_HOST);
  for (int i = 0; i <= 3; i++)
    CHECK(A->row_offsets[i] == 0);
  csr_matrix_free(&A);
  CHECK(A == NULL);
  csr_matrix_free(&A);
  CHECK_OK(ctx, csr_matrix_create(ctx, &A, 0, 0, 0, CSR_PATTERN, CSR_HOST));
  CHECK(A->values == NULL && A->row_offsets != NULL);
  CHECK_OK(ctx, csr_matrix_validate(ctx, A));
  csr_matrix_free(&A);

  CHECK_STATUS(ctx, csr_matrix_create(ctx, NULL, 1, 1, 1, CSR_F64, CSR_HOST), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_matrix_create(ctx, &A, -1, 1, 1, CSR_F64, CSR_HOST), CSR_ERR_INVALID_VALUE);
  CHECK_STATUS(ctx, csr_matrix_create(ctx, &A, 1, 1, -1, CSR_F64, CSR_HOST), CSR_ERR_INVALID_VALUE);
  CHECK_STATUS(ctx, csr_matrix_create(ctx, &A, CSR_MAX_DIM + 1, 1, 0, CSR_F64, CSR_HOST),
               CSR_ERR_OVERFLOW);
  CHECK(contains(csr_context_last_error(ctx), "2147483647"));
  CHECK_STATUS(ctx, csr_matrix_create(ctx, &A, 1, CSR_MAX_DIM + 1, 0, CSR_F64, CSR_HOST),
               CSR_ERR_OVERFLOW);
  CHECK_STATUS(ctx, csr_matrix_create(ctx, &A, 1, 1, INT64_MAX, CSR_F64, CSR_HOST),
               CSR_ERR_OVERFLOW); /* 4 * INT64_MAX bytes do not fit size_t */
  CHECK_STATUS(ctx, csr_matrix_create(ctx, &A, 1, 1, 1, (csr_value_type)7, CSR_HOST),
               CSR_ERR_INVALID_VALUE);
  CHECK_STATUS(ctx, csr_matrix_create(ctx, &A, 1, 1, 1, CSR_F64, (csr_location)3),
               CSR_ERR_INVALID_VALUE);
  CHECK(A == NULL);
  /* The largest dimensions are accepted (no arrays proportional to cols). */
  CHECK_OK(ctx, csr_matrix_create(ctx, &A, 1, CSR_MAX_DIM, 0, CSR_F32, CSR_HOST));
  csr_matrix_free(&A);
  if (!csr_backend_available(CSR_BACKEND_CUDA)) {
    CHECK_STATUS(ctx, csr_matrix_create(ctx, &A, 2, 2, 2, CSR_F64, CSR_DEVICE),
                 CSR_ERR_NOT_COMPILED);
    CHECK(A == NULL);
  }
}

static void test_other_objects(csr_context *ctx) {
  csr_coo *T = NULL, *T2 = NULL;
  CHECK_OK(ctx, csr_coo_create(ctx, &T, 5, 6, 3, CSR_F32, CSR_HOST));
  int32_t r[3] = {4, 0, 2}, c[3] = {5, 1, 1};
  float v[3] = {1.5f, -2.0f, 3.25f};
  memcpy(T->row_indices, r, sizeof r);
  memcpy(T->col_indices, c, sizeof c);
  memcpy(T->values, v, sizeof v);
  CHECK_OK(ctx, csr_coo_copy(ctx, T, &T2, CSR_HOST));
  CHECK(T2->nnz == 3 && memcmp(T2->row_indices, r, sizeof r) == 0 &&
        memcmp(T2->values, v, sizeof v) == 0);
  csr_coo_free(&T);
  csr_coo_free(&T2);
  CHECK_STATUS(ctx, csr_coo_create(ctx, &T, 1, CSR_MAX_DIM + 1, 0, CSR_F64, CSR_HOST),
               CSR_ERR_OVERFLOW);

  csr_dense *D = NULL, *D2 = NULL;
  CHECK_OK(ctx, csr_dense_create(ctx, &D, 3, 2, CSR_COL_MAJOR, CSR_F64, CSR_HOST));
  CHECK(D->ld == 3 && ((double *)D->data)[5] == 0.0 && D->owns_data);
  ((double *)D->data)[4] = 7.0;
  CHECK_OK(ctx, csr_dense_copy(ctx, D, &D2, CSR_HOST));
  CHECK(((double *)D2->data)[4] == 7.0 && D2->layout == CSR_COL_MAJOR);
  csr_dense_free(&D);
  csr_dense_free(&D2);
  CHECK_STATUS(ctx, csr_dense_create(ctx, &D, 2, 2, CSR_ROW_MAJOR, CSR_PATTERN, CSR_HOST),
               CSR_ERR_INVALID_VALUE);
  double user[6] = {1, 2, 3, 4, 5, 6};
  CHECK_STATUS(ctx, csr_dense_wrap(ctx, &D, 2, 3, 2, CSR_ROW_MAJOR, CSR_F64, CSR_HOST, user),
               CSR_ERR_INVALID_VALUE); /* ld 2 < 3 columns */
  CHECK(contains(csr_context_last_error(ctx), "leading dimension"));
  CHECK_OK(ctx, csr_dense_wrap(ctx, &D, 2, 3, 3, CSR_ROW_MAJOR, CSR_F64, CSR_HOST, user));
  csr_dense_free(&D); /* frees the descriptor only */
  CHECK(user[5] == 6.0);
  CHECK_STATUS(
      ctx, csr_dense_create(ctx, &D, CSR_MAX_DIM, CSR_MAX_DIM, CSR_ROW_MAJOR, CSR_F64, CSR_HOST),
      CSR_ERR_OVERFLOW); /* 2^62 doubles do not fit size_t bytes */

  csr_vector *x = NULL, *y = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &x, 4, CSR_F32, CSR_HOST));
  CHECK(((float *)x->data)[3] == 0.0f);
  ((float *)x->data)[2] = 2.5f;
  CHECK_OK(ctx, csr_vector_clone(ctx, x, &y, CSR_HOST));
  CHECK(((float *)y->data)[2] == 2.5f && y->n == 4 && y->value_type == CSR_F32);
  csr_vector_free(&x);
  csr_vector_free(&y);
  CHECK_STATUS(ctx, csr_vector_create(ctx, &x, -3, CSR_F64, CSR_HOST), CSR_ERR_INVALID_VALUE);
  CHECK_STATUS(ctx, csr_vector_wrap(ctx, &x, 3, CSR_F64, CSR_HOST, NULL), CSR_ERR_NULL_POINTER);
  CHECK_OK(ctx, csr_vector_create(ctx, &x, 0, CSR_F64, CSR_HOST));
  csr_vector_free(&x);
}

/*  The 3 x 4 matrix used by the validator and equality tests:
 *      [ 1 . 2 . ]
 *      [ . . . . ]
 *      [ . 3 . 4 ]                                                                          */
static csr_matrix *small_matrix(csr_context *ctx) {
  csr_matrix *A = NULL;
  if (csr_matrix_create(ctx, &A, 3, 4, 4, CSR_F64, CSR_HOST) != CSR_SUCCESS)
    exit(1);
  int64_t off[4] = {0, 2, 2, 4};
  int32_t col[4] = {0, 2, 1, 3};
  double val[4] = {1, 2, 3, 4};
  memcpy(A->row_offsets, off, sizeof off);
  memcpy(A->col_indices, col, sizeof col);
  memcpy(A->values, val, sizeof val);
  return A;
}

static void expect_invalid(csr_context *ctx, csr_matrix *A, csr_status status, const char *text) {
  CHECK_STATUS(ctx, csr_matrix_validate(ctx, A), status);
  if (!contains(csr_context_last_error(ctx), text)) {
    char msg[700];
    snprintf(msg, sizeof msg, "message '%s' lacks '%s'", csr_context_last_error(ctx), text);
    csrt_fail(__FILE__, __LINE__, msg);
  }
}

static void test_validate(csr_context *ctx) {
  csr_matrix *A = small_matrix(ctx);
  CHECK_OK(ctx, csr_matrix_validate(ctx, A));
  A->row_offsets[0] = 1;
  expect_invalid(ctx, A, CSR_ERR_INVALID_MATRIX, "row_offsets[0] is 1");
  A->row_offsets[0] = 0;
  A->row_offsets[2] = 1;
  expect_invalid(ctx, A, CSR_ERR_INVALID_MATRIX, "decrease at row 1");
  A->row_offsets[2] = 2;
  A->row_offsets[3] = 3;
  expect_invalid(ctx, A, CSR_ERR_INVALID_MATRIX, "expected nnz 4");
  A->row_offsets[3] = 4;
  A->col_indices[3] = 4;
  expect_invalid(ctx, A, CSR_ERR_INDEX_OUT_OF_BOUNDS, "column 4 outside [0, 4)");
  A->col_indices[3] = -1;
  expect_invalid(ctx, A, CSR_ERR_INDEX_OUT_OF_BOUNDS, "row 2, entry 3: column -1");
  A->col_indices[3] = 1; /* row 2 now 1, 1: a duplicate */
  expect_invalid(ctx, A, CSR_ERR_INVALID_MATRIX, "column 1 after 1");
  A->flags = CSR_FLAG_SORTED; /* duplicates allowed, order still checked */
  CHECK_OK(ctx, csr_matrix_validate(ctx, A));
  A->col_indices[0] = 3; /* row 0 now 3, 2: unsorted */
  expect_invalid(ctx, A, CSR_ERR_INVALID_MATRIX, "column 2 after 3");
  A->flags = CSR_FLAG_NO_DUPLICATES; /* unsorted but flagged duplicate-free */
  expect_invalid(ctx, A, CSR_ERR_INVALID_MATRIX, "row 2: column 1 appears twice");
  A->flags = 0;
  CHECK_OK(ctx, csr_matrix_validate(ctx, A));
  CHECK_STATUS(ctx, csr_matrix_validate(ctx, NULL), CSR_ERR_NULL_POINTER);
  csr_matrix_free(&A);
}

static void test_equal(csr_context *ctx) {
  csr_matrix *A = small_matrix(ctx), *B = NULL;
  int eq = -1;
  CHECK_OK(ctx, csr_matrix_copy(ctx, A, &B, CSR_HOST));
  CHECK_OK(ctx, csr_matrix_equal(ctx, A, B, &eq));
  CHECK(eq == 1);
  ((double *)B->values)[2] = 3.0000000001;
  CHECK_OK(ctx, csr_matrix_equal(ctx, A, B, &eq));
  CHECK(eq == 0);
  CHECK_OK(ctx, csr_matrix_near(ctx, A, B, 1e-9, 0, &eq));
  CHECK(eq == 1);
  CHECK_OK(ctx, csr_matrix_near(ctx, A, B, 1e-12, 0, &eq));
  CHECK(eq == 0);
  ((double *)B->values)[2] = NAN;
  CHECK_OK(ctx, csr_matrix_near(ctx, A, B, 1, 1, &eq));
  CHECK(eq == 0);
  ((double *)B->values)[2] = 3.0;
  B->col_indices[1] = 3;
  CHECK_OK(ctx, csr_matrix_near(ctx, A, B, 1, 1, &eq));
  CHECK(eq == 0); /* structure differs: values do not matter */
  CHECK_STATUS(ctx, csr_matrix_near(ctx, A, B, -1, 0, &eq), CSR_ERR_INVALID_VALUE);
  CHECK_STATUS(ctx, csr_matrix_equal(ctx, A, NULL, &eq), CSR_ERR_NULL_POINTER);
  csr_matrix_free(&A);
  csr_matrix_free(&B);
}

int main(void) {
  csr_context *ctx = csrt_context(CSR_BACKEND_AUTO);
  test_status_strings();
  test_context();
  test_create(ctx);
  test_other_objects(ctx);
  test_validate(ctx);
  test_equal(ctx);
  csr_context_free(&ctx);
  return csrt_finish("test_core");
}
