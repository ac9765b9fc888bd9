/* SPDX-License-Identifier: BSD-3-Clause */
/* Reference tier of the format converters: hand-worked answers on the ref backend, each matrix
 * drawn in a comment, every output array checked exactly. */
#include "testing.h"

#include <string.h>

static const csr_value_type types[] = {CSR_F64, CSR_F32, CSR_PATTERN};

/* A host CSR from hand-written arrays (values ignored for pattern). */
static csr_matrix *make(csr_context *ctx, int64_t rows, int64_t cols, const int64_t *off,
                        const int32_t *col, const double *val, csr_value_type type) {
  csr_matrix *A = NULL;
  CHECK_OK(ctx, csr_matrix_create(ctx, &A, rows, cols, off[rows], type, CSR_HOST));
  if (A == NULL)
    return NULL;
  memcpy(A->row_offsets, off, (size_t)(rows + 1) * sizeof *off);
  for (int64_t k = 0; k < off[rows]; k++) {
    A->col_indices[k] = col[k];
    if (type == CSR_F64)
      ((double *)A->values)[k] = val[k];
    else if (type == CSR_F32)
      ((float *)A->values)[k] = (float)val[k];
  }
  A->flags = 0; /* claim nothing: the converters must not rely on unknown properties */
  return A;
}

/* A host COO from hand-written triples. */
static csr_coo *make_coo(csr_context *ctx, int64_t rows, int64_t cols, int64_t nnz,
                         const int32_t *ri, const int32_t *ci, const double *val,
                         csr_value_type type) {
  csr_coo *T = NULL;
  CHECK_OK(ctx, csr_coo_create(ctx, &T, rows, cols, nnz, type, CSR_HOST));
  for (int64_t k = 0; T && k < nnz; k++) {
    T->row_indices[k] = ri[k];
    T->col_indices[k] = ci[k];
    if (type == CSR_F64)
      ((double *)T->values)[k] = val[k];
    else if (type == CSR_F32)
      ((float *)T->values)[k] = (float)val[k];
  }
  return T;
}

/* A is exactly (rows, cols, off, col, val, flags); val unused for pattern. */
static void expect(const csr_matrix *A, int64_t rows, int64_t cols, const int64_t *off,
                   const int32_t *col, const double *val, unsigned flags) {
  CHECK(A != NULL);
  if (A == NULL)
    return;
  CHECK(A->rows == rows && A->cols == cols && A->nnz == off[rows] && A->flags == flags);
  CHECK(A->location == CSR_HOST);
  if (A->rows != rows || A->nnz != off[rows])
    return;
  CHECK(memcmp(A->row_offsets, off, (size_t)(rows + 1) * sizeof *off) == 0);
  for (int64_t k = 0; k < off[rows]; k++) {
    CHECK(A->col_indices[k] == col[k]);
    CHECK(csrt_value(A->values, A->value_type, k) == (A->value_type == CSR_PATTERN ? 1 : val[k]));
  }
  CHECK(csr_matrix_validate(NULL, A) == CSR_SUCCESS);
}

/* Triples in this order (k: row, col, value):
 *   0: (2,1, 5)  1: (0,3, 1)  2: (0,0, 2)  3: (2,1, -5)  4: (0,3, 4)  5: (1,2, 0)  6: (2,0, 7)
 *
 *         [ 2  .  .  1+4 ]     row 0: (0, 2) (3, 5)
 *     A = [ .  .  0  .   ]     row 1: (2, 0)        explicit zero, kept
 *         [ 7 5-5 .  .   ]     row 2: (0, 7) (1, 0) duplicates summing to zero, kept
 * With CSR_CONVERT_DROP_ZEROS both zeros go: offsets 0 2 2 3. Pattern: duplicates merged. */
static void test_from_coo(csr_context *ctx, csr_value_type type) {
  const int32_t ri[] = {2, 0, 0, 2, 0, 1, 2}, ci[] = {1, 3, 0, 1, 3, 2, 0};
  const double v[] = {5, 1, 2, -5, 4, 0, 7};
  csr_coo *T = make_coo(ctx, 3, 4, 7, ri, ci, v, type);
  csr_matrix *A = NULL;
  const unsigned all = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  CHECK_OK(ctx, csr_from_coo(ctx, T, 0, &A));
  expect(A, 3, 4, (const int64_t[]){0, 2, 3, 5}, (const int32_t[]){0, 3, 2, 0, 1},
         (const double[]){2, 5, 0, 7, 0}, all);
  CHECK(csr_context_last_backend(ctx) == CSR_BACKEND_REF);
  csr_matrix_free(&A);
  CHECK_OK(ctx, csr_from_coo(ctx, T, CSR_CONVERT_DROP_ZEROS, &A));
  if (type == CSR_PATTERN) /* every pattern entry is 1: nothing to drop */
    expect(A, 3, 4, (const int64_t[]){0, 2, 3, 5}, (const int32_t[]){0, 3, 2, 0, 1}, NULL, all);
  else
    expect(A, 3, 4, (const int64_t[]){0, 2, 2, 3}, (const int32_t[]){0, 3, 0},
           (const double[]){2, 5, 7}, all);
  csr_matrix_free(&A);
  csr_coo_free(&T);
}

/* Duplicates are summed in COO order: (1e16 + 1) - 1e16 = 0 in double (1 is below half an ulp
 * of 1e16), whereas (1e16 - 1e16) + 1 would give 1. A 1 x 2 matrix:
 *   triples (0,1, 1e16) (0,0, 3) (0,1, 1) (0,1, -1e16)   ->   [ 3  0 ]  */
static void test_summation_order(csr_context *ctx) {
  const int32_t ri[] = {0, 0, 0, 0}, ci[] = {1, 0, 1, 1};
  csr_coo *T = make_coo(ctx, 1, 2, 4, ri, ci, (const double[]){1e16, 3, 1, -1e16}, CSR_F64);
  csr_matrix *A = NULL;
  CHECK_OK(ctx, csr_from_coo(ctx, T, 0, &A));
  expect(A, 1, 2, (const int64_t[]){0, 2}, (const int32_t[]){0, 1}, (const double[]){3, 0},
         CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES);
  csr_matrix_free(&A);
  csr_coo_free(&T);
}

/*     [ 1 . 2 ]
 * A = [ . . . ]   ->  triples (0,0,1) (0,2,2) (2,0,3) (2,1,4), in stored order, flags kept
 *     [ 3 4 . ]                                                                        */
static void test_to_coo(csr_context *ctx, csr_value_type type) {
  csr_matrix *A = make(ctx, 3, 3, (const int64_t[]){0, 2, 2, 4}, (const int32_t[]){0, 2, 0, 1},
                       (const double[]){1, 2, 3, 4}, type);
  A->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  csr_coo *T = NULL;
  CHECK_OK(ctx, csr_to_coo(ctx, A, &T));
  CHECK(T && T->rows == 3 && T->cols == 3 && T->nnz == 4 && T->value_type == type);
  CHECK(T && T->flags == A->flags);
  const int32_t want_rows[] = {0, 0, 2, 2};
  for (int k = 0; T && k < 4; k++) {
    CHECK(T->row_indices[k] == want_rows[k]);
    CHECK(T->col_indices[k] == A->col_indices[k]);
    CHECK(csrt_value(T->values, type, k) == (type == CSR_PATTERN ? 1 : k + 1));
  }
  csr_coo_free(&T);
  csr_matrix_free(&A);
}

/*     [  0  1.5  0   ]
 * D = [  0  0    0   ]   -0.0 is an exact zero and is skipped too; the padding past the
 *     [ -2  0   -0.0 ]   logical matrix (ld larger than needed) holds 9s that must be ignored.
 * A: offsets 0 1 1 2, columns 1 0, values 1.5 -2. */
static void test_from_dense(csr_context *ctx, csr_value_type type, csr_layout layout) {
  const double m[3][3] = {{0, 1.5, 0}, {0, 0, 0}, {-2, 0, -0.0}};
  double d64[20];
  float d32[20];
  int64_t ld = layout == CSR_ROW_MAJOR ? 4 : 5;
  for (int p = 0; p < 20; p++)
    d64[p] = 9, d32[p] = 9;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      int64_t p = layout == CSR_ROW_MAJOR ? i * ld + j : i + j * ld;
      d64[p] = m[i][j], d32[p] = (float)m[i][j];
    }
  csr_dense *D = NULL;
  CHECK_OK(ctx, csr_dense_wrap(ctx, &D, 3, 3, ld, layout, type, CSR_HOST,
                               type == CSR_F64 ? (void *)d64 : (void *)d32));
  csr_matrix *A = NULL;
  CHECK_OK(ctx, csr_from_dense(ctx, D, &A));
  CHECK(A && A->value_type == type);
  expect(A, 3, 3, (const int64_t[]){0, 1, 1, 2}, (const int32_t[]){1, 0}, (const double[]){1.5, -2},
         CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES);
  csr_matrix_free(&A);
  csr_dense_free(&D);
}

/* A (2 x 3) stores (0,1) twice:   [  .  2+3  . ]   row-major data  0 5 0 -1 0 0
 *                                 [ -1   .   . ]   col-major data  0 -1 5 0 0 0
 * Pattern: each entry counts 1, so D(0,1) = 2, D(1,0) = 1, as F64. */
static void test_to_dense(csr_context *ctx, csr_value_type type, csr_layout layout) {
  csr_matrix *A = make(ctx, 2, 3, (const int64_t[]){0, 2, 3}, (const int32_t[]){1, 1, 0},
                       (const double[]){2, 3, -1}, type);
  csr_dense *D = NULL;
  CHECK_OK(ctx, csr_to_dense(ctx, A, layout, &D));
  const double row[] = {0, 5, 0, -1, 0, 0}, col[] = {0, -1, 5, 0, 0, 0};
  const double prow[] = {0, 2, 0, 1, 0, 0}, pcol[] = {0, 1, 2, 0, 0, 0};
  const double *want = type == CSR_PATTERN ? (layout == CSR_ROW_MAJOR ? prow : pcol)
                                           : (layout == CSR_ROW_MAJOR ? row : col);
  CHECK(D && D->rows == 2 && D->cols == 3 && D->layout == layout);
  CHECK(D && D->ld == (layout == CSR_ROW_MAJOR ? 3 : 2));
  CHECK(D && D->value_type == (type == CSR_F32 ? CSR_F32 : CSR_F64));
  for (int p = 0; D && p < 6; p++)
    CHECK(csrt_value(D->data, D->value_type, p) == want[p]);
  csr_dense_free(&D);
  csr_matrix_free(&A);
}

/* A (3 x 4), unsorted, (1,2) stored twice (c = 3 before e = 5):
 *   row 0: (3, 1) (0, 2)           [ 2 .  .  1 ]
 *   row 1: (2, 3) (0, 4) (2, 5)    [ 4 . 3+5 . ]
 *   row 2: (1, 6)                  [ . 6  .  . ]
 * AT (4 x 3): row 0: (0,2) (1,4); row 1: (2,6); row 2: (1,3) (1,5), stable; row 3: (0,1).
 * Sorted always; NO_DUPLICATES only when A says so. */
static void test_transpose(csr_context *ctx, csr_value_type type) {
  csr_matrix *A =
      make(ctx, 3, 4, (const int64_t[]){0, 2, 5, 6}, (const int32_t[]){3, 0, 2, 0, 2, 1},
           (const double[]){1, 2, 3, 4, 5, 6}, type);
  csr_matrix *AT = NULL, *ATT = NULL;
  CHECK_OK(ctx, csr_transpose(ctx, A, &AT));
  expect(AT, 4, 3, (const int64_t[]){0, 2, 3, 5, 6}, (const int32_t[]){0, 1, 2, 1, 1, 0},
         (const double[]){2, 4, 6, 3, 5, 1}, CSR_FLAG_SORTED);
  /* (A^T)^T: A with each row stably sorted by column. */
  CHECK_OK(ctx, csr_transpose(ctx, AT, &ATT));
  expect(ATT, 3, 4, (const int64_t[]){0, 2, 5, 6}, (const int32_t[]){0, 3, 0, 2, 2, 1},
         (const double[]){2, 1, 4, 3, 5, 6}, CSR_FLAG_SORTED);
  csr_matrix_free(&AT);
  csr_matrix_free(&ATT);
  A->col_indices[3] = 4; /* a column out of range is reported, not written through */
  CHECK_STATUS(ctx, csr_transpose(ctx, A, &AT), CSR_ERR_INDEX_OUT_OF_BOUNDS);
  CHECK(AT == NULL);
  csr_matrix_free(&A);
}

/* Lower triangle stored:          full:
 *   [ 1 . . ]                       [ 1 2 4 ]
 *   [ 2 3 . ]                       [ 2 3 . ]
 *   [ 4 . 5 ]                       [ 4 . 5 ]
 * The same with (0,2) stored in the upper triangle instead of (2,0) gives the same result:
 * entries of either triangle are mirrored, whatever `stored` says. */
static void test_expand_symmetric(csr_context *ctx, csr_value_type type) {
  const int64_t want_off[] = {0, 3, 5, 7};
  const int32_t want_col[] = {0, 1, 2, 0, 1, 0, 2};
  const double want_val[] = {1, 2, 4, 2, 3, 4, 5};
  const unsigned all = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  csr_matrix *L = make(ctx, 3, 3, (const int64_t[]){0, 1, 3, 5}, (const int32_t[]){0, 0, 1, 0, 2},
                       (const double[]){1, 2, 3, 4, 5}, type);
  csr_matrix *M = make(ctx, 3, 3, (const int64_t[]){0, 2, 4, 5}, (const int32_t[]){2, 0, 1, 0, 2},
                       (const double[]){4, 1, 3, 2, 5}, type);
  csr_matrix *F = NULL;
  CHECK_OK(ctx, csr_symmetric_expand(ctx, L, CSR_LOWER, CSR_SYMMETRIC, &F));
  expect(F, 3, 3, want_off, want_col, want_val, all);
  csr_matrix_free(&F);
  CHECK_OK(ctx, csr_symmetric_expand(ctx, M, CSR_UPPER, CSR_SYMMETRIC, &F));
  expect(F, 3, 3, want_off, want_col, want_val, all);
  csr_matrix_free(&F);
  csr_matrix_free(&L);
  csr_matrix_free(&M);
}

/* Skew, strict lower triangle plus an explicit zero diagonal entry:
 *   [ . . . ]          [ .  -2 -4 ]
 *   [ 2 . . ]   ->     [ 2   .  -6 ]      the zero diagonal entry is kept once
 *   [ 4 6 0 ]          [ 4   6   0 ]
 * A nonzero diagonal entry is CSR_ERR_INVALID_MATRIX. */
static void test_expand_skew(csr_context *ctx, csr_value_type type) {
  csr_matrix *L = make(ctx, 3, 3, (const int64_t[]){0, 0, 1, 4}, (const int32_t[]){0, 0, 1, 2},
                       (const double[]){2, 4, 6, 0}, type);
  csr_matrix *F = NULL;
  CHECK_OK(ctx, csr_symmetric_expand(ctx, L, CSR_LOWER, CSR_SKEW_SYMMETRIC, &F));
  expect(F, 3, 3, (const int64_t[]){0, 2, 4, 7}, (const int32_t[]){1, 2, 0, 2, 0, 1, 2},
         (const double[]){-2, -4, 2, -6, 4, 6, 0}, CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES);
  csr_matrix_free(&F);
  if (type == CSR_F64)
    ((double *)L->values)[3] = 1.0;
  else
    ((float *)L->values)[3] = 1.0f;
  CHECK_STATUS(ctx, csr_symmetric_expand(ctx, L, CSR_LOWER, CSR_SKEW_SYMMETRIC, &F),
               CSR_ERR_INVALID_MATRIX);
  CHECK(F == NULL);
  csr_matrix_free(&L);
}

/* Both (0,1) = 7 and (1,0) = 2 stored: each is kept and mirrored, so the result holds each
 * position twice (A + A^T adds them), ordered by item: entry k before mirror k, k ascending.
 *   row 0: (1, 7) (1, 2)      row 1: (0, 7) (0, 2)      flags: SORTED only. */
static void test_expand_both_triangles(csr_context *ctx) {
  csr_matrix *A = make(ctx, 2, 2, (const int64_t[]){0, 1, 2}, (const int32_t[]){1, 0},
                       (const double[]){7, 2}, CSR_F64);
  csr_matrix *F = NULL;
  CHECK_OK(ctx, csr_symmetric_expand(ctx, A, CSR_LOWER, CSR_SYMMETRIC, &F));
  expect(F, 2, 2, (const int64_t[]){0, 2, 4}, (const int32_t[]){1, 1, 0, 0},
         (const double[]){7, 2, 7, 2}, CSR_FLAG_SORTED);
  csr_matrix_free(&F);
  csr_matrix_free(&A);
}

/* Inputs that break the invariants are reported, never walked off the end of. */
static void test_bad_inputs(csr_context *ctx) {
  csr_coo *T = make_coo(ctx, 2, 2, 2, (const int32_t[]){0, 2}, (const int32_t[]){0, 0},
                        (const double[]){1, 1}, CSR_F64);
  csr_matrix *A = NULL, *B = make(ctx, 2, 2, (const int64_t[]){0, 1, 2}, (const int32_t[]){0, 1},
                                  (const double[]){1, 1}, CSR_F64);
  CHECK_STATUS(ctx, csr_from_coo(ctx, T, 0, &A), CSR_ERR_INDEX_OUT_OF_BOUNDS);
  CHECK(A == NULL && strstr(csr_context_last_error(ctx), "triple 1 at (2, 0)") != NULL);
  B->row_offsets[1] = 3; /* offsets 0 3 2: decreasing */
  CHECK_STATUS(ctx, csr_transpose(ctx, B, &A), CSR_ERR_INVALID_MATRIX);
  csr_coo *U = T; /* outputs are set NULL on failure */
  CHECK_STATUS(ctx, csr_to_coo(ctx, B, &U), CSR_ERR_INVALID_MATRIX);
  CHECK(A == NULL && U == NULL);
  B->row_offsets[1] = 1;
  B->col_indices[1] = -1;
  csr_dense *D = NULL;
  CHECK_STATUS(ctx, csr_to_dense(ctx, B, CSR_ROW_MAJOR, &D), CSR_ERR_INDEX_OUT_OF_BOUNDS);
  CHECK(D == NULL);
  CHECK_STATUS(ctx, csr_symmetric_expand(ctx, B, CSR_LOWER, CSR_SYMMETRIC, &A),
               CSR_ERR_INDEX_OUT_OF_BOUNDS);
  CHECK(A == NULL);
  csr_coo_free(&T);
  csr_matrix_free(&B);
}

int main(void) {
  csr_context *ctx = csrt_context(CSR_BACKEND_REF);
  for (int t = 0; t < 3; t++) {
    test_from_coo(ctx, types[t]);
    test_to_coo(ctx, types[t]);
    test_to_dense(ctx, types[t], CSR_ROW_MAJOR);
    test_to_dense(ctx, types[t], CSR_COL_MAJOR);
    test_transpose(ctx, types[t]);
    test_expand_symmetric(ctx, types[t]);
    if (types[t] != CSR_PATTERN) {
      test_from_dense(ctx, types[t], CSR_ROW_MAJOR);
      test_from_dense(ctx, types[t], CSR_COL_MAJOR);
      test_expand_skew(ctx, types[t]);
    }
  }
  test_summation_order(ctx);
  test_expand_both_triangles(ctx);
  test_bad_inputs(ctx);
  csr_context_free(&ctx);
  return csrt_finish("test_convert_ref");
}
