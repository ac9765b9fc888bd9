/* SPDX-License-Identifier: BSD-3-Clause */
/* Reference tier of y = alpha*A*x + beta*y: hand-worked answers on the ref backend. */
#include "testing.h"

#include <math.h>
#include <string.h>

/* A host matrix from hand-written CSR arrays (values ignored for pattern). */
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
  return A;
}

static csr_vector *vec(csr_context *ctx, int64_t n, csr_value_type type, const double *v) {
  csr_vector *x = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &x, n, type, CSR_HOST));
  for (int64_t i = 0; x && i < n; i++) {
    if (type == CSR_F64)
      ((double *)x->data)[i] = v[i];
    else
      ((float *)x->data)[i] = (float)v[i];
  }
  return x;
}

/* Every entry of y equals want (exactly: the answers are small integers). */
static int equals(const csr_vector *y, const double *want) {
  for (int64_t i = 0; i < y->n; i++)
    if (csrt_value(y->data, y->value_type, i) != want[i])
      return 0;
  return 1;
}

/*     [ 1 0 2 0 ]         [ 1 ]
 * A = [ 0 0 0 0 ]     x = [ 2 ]     A*x = [ 1*1 + 2*3, 0, 3*1 + 4*2 + 5*4 ] = [ 7, 0, 31 ]
 *     [ 3 4 0 5 ]         [ 3 ]     pattern (entries 1): [ 1+3, 0, 1+2+4 ] = [ 4, 0, 7 ]
 *                         [ 4 ]                                                          */
static const int64_t off3[] = {0, 2, 2, 5};
static const int32_t col3[] = {0, 2, 0, 1, 3};
static const double val3[] = {1, 2, 3, 4, 5};
static const double x3[] = {1, 2, 3, 4};

static void test_values(csr_context *ctx, csr_value_type type) {
  csr_matrix *A = make(ctx, 3, 4, off3, col3, val3, type);
  csr_vector *x = vec(ctx, 4, type, x3);
  const double ones[] = {1, 1, 1}, nans[] = {NAN, NAN, NAN}, y123[] = {1, 2, 3};
  csr_vector *y = vec(ctx, 3, type, ones);

  CHECK_OK(ctx, csr_spmv(ctx, 1.0, A, x, 0.0, y)); /* y = A*x */
  CHECK(equals(y, (const double[]){7, 0, 31}));
  CHECK(csr_context_last_backend(ctx) == CSR_BACKEND_REF);

  csr_fill(ctx, 1.0, y); /* y = 2*A*x - y = [14 - 1, 0 - 1, 62 - 1] */
  CHECK_OK(ctx, csr_spmv(ctx, 2.0, A, x, -1.0, y));
  CHECK(equals(y, (const double[]){13, -1, 61}));

  csr_vector *yn = vec(ctx, 3, type, nans); /* beta = 0 overwrites: old NaNs vanish */
  CHECK_OK(ctx, csr_spmv(ctx, 1.0, A, x, 0.0, yn));
  CHECK(equals(yn, (const double[]){7, 0, 31}));

  csr_vector *y3 = vec(ctx, 3, type, y123); /* alpha = 0: y = 3*y, A and x unused */
  csr_vector *xn = vec(ctx, 4, type, (const double[]){NAN, NAN, NAN, NAN});
  CHECK_OK(ctx, csr_spmv(ctx, 0.0, A, xn, 3.0, y3));
  CHECK(equals(y3, (const double[]){3, 6, 9}));
  csr_fill(ctx, NAN, yn); /* alpha = beta = 0: zeros, whatever y held */
  CHECK_OK(ctx, csr_spmv(ctx, 0.0, A, xn, 0.0, yn));
  CHECK(equals(yn, (const double[]){0, 0, 0}));

  csr_matrix_free(&A);
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_vector_free(&yn);
  csr_vector_free(&y3);
  csr_vector_free(&xn);
}

/* Pattern A (structure above, no values) times F64 or F32 vectors. */
static void test_pattern(csr_context *ctx, csr_value_type vtype) {
  csr_matrix *A = make(ctx, 3, 4, off3, col3, NULL, CSR_PATTERN);
  CHECK(A && A->values == NULL);
  csr_vector *x = vec(ctx, 4, vtype, x3);
  csr_vector *y = vec(ctx, 3, vtype, (const double[]){10, 20, 30});
  CHECK_OK(ctx, csr_spmv(ctx, 1.0, A, x, 0.0, y));
  CHECK(equals(y, (const double[]){4, 0, 7}));
  CHECK_OK(ctx, csr_spmv(ctx, -2.0, A, x, 0.5, y)); /* -2*[4,0,7] + 0.5*[4,0,7] */
  CHECK(equals(y, (const double[]){-6, 0, -10.5}));
  csr_matrix_free(&A);
  csr_vector_free(&x);
  csr_vector_free(&y);
}

/* Unsorted columns and a duplicate: one row stored as (col 2: 1), (col 0: 2), (col 2: 3),
 * i.e. A = [ 2 0 4 ] once duplicates are summed; x = [1 2 3].
 *   1*x2 + 2*x0 + 3*x2 = 1*3 + 2*1 + 3*3 = 14 */
static void test_unsorted(csr_context *ctx) {
  const int64_t off[] = {0, 3};
  const int32_t col[] = {2, 0, 2};
  const double val[] = {1, 2, 3};
  csr_matrix *A = make(ctx, 1, 3, off, col, val, CSR_F64);
  csr_vector *x = vec(ctx, 3, CSR_F64, (const double[]){1, 2, 3});
  csr_vector *y = vec(ctx, 1, CSR_F64, (const double[]){0});
  CHECK_OK(ctx, csr_spmv(ctx, 1.0, A, x, 0.0, y));
  CHECK(equals(y, (const double[]){14}));
  csr_matrix_free(&A);
  csr_vector_free(&x);
  csr_vector_free(&y);
}

/* Stored order decides rounding: A = [ 1e16 1 -1e16 ], x = [1 1 1].
 * ((1e16 + 1) - 1e16) = 0 in double (1e16 + 1 rounds to 1e16); any other order gives 1.
 * The ref and omp backends both sum each row in stored order, so both give 0. */
static void test_order(csr_context *ctx) {
  const int64_t off[] = {0, 3};
  const int32_t col[] = {0, 1, 2};
  const double val[] = {1e16, 1, -1e16};
  csr_matrix *A = make(ctx, 1, 3, off, col, val, CSR_F64);
  csr_vector *x = vec(ctx, 3, CSR_F64, (const double[]){1, 1, 1});
  csr_vector *y = vec(ctx, 1, CSR_F64, (const double[]){0});
  CHECK_OK(ctx, csr_spmv(ctx, 1.0, A, x, 0.0, y));
  CHECK(equals(y, (const double[]){0}));
  csr_matrix_free(&A);
  csr_vector_free(&x);
  csr_vector_free(&y);
}

/* 0x0, 0x3 (y empty), 3x0 (y = beta*y), 3x3 with nnz 0. */
static void test_empty(csr_context *ctx) {
  const int64_t zeros[] = {0, 0, 0, 0};
  csr_matrix *A00 = make(ctx, 0, 0, zeros, NULL, NULL, CSR_F64);
  csr_matrix *A03 = make(ctx, 0, 3, zeros, NULL, NULL, CSR_F64);
  csr_matrix *A30 = make(ctx, 3, 0, zeros, NULL, NULL, CSR_F64);
  csr_matrix *A33 = make(ctx, 3, 3, zeros, NULL, NULL, CSR_PATTERN);
  csr_vector *x0 = vec(ctx, 0, CSR_F64, NULL), *y0 = vec(ctx, 0, CSR_F64, NULL);
  csr_vector *x3v = vec(ctx, 3, CSR_F64, (const double[]){1, 1, 1});
  csr_vector *y = vec(ctx, 3, CSR_F64, (const double[]){1, 2, NAN});
  CHECK_OK(ctx, csr_spmv(ctx, 1.0, A00, x0, 0.0, y0));
  CHECK_OK(ctx, csr_spmv(ctx, 1.0, A03, x3v, 2.0, y0));
  CHECK_OK(ctx, csr_spmv(ctx, 1.0, A30, x0, 2.0, y)); /* y = 2*y, NaN stays NaN */
  CHECK(csrt_value(y->data, CSR_F64, 0) == 2 && csrt_value(y->data, CSR_F64, 1) == 4);
  CHECK(isnan(csrt_value(y->data, CSR_F64, 2)));
  CHECK_OK(ctx, csr_spmv(ctx, 1.0, A33, x3v, 0.0, y)); /* nnz 0, beta 0: zeros */
  CHECK(equals(y, (const double[]){0, 0, 0}));
  csr_matrix_free(&A00);
  csr_matrix_free(&A03);
  csr_matrix_free(&A30);
  csr_matrix_free(&A33);
  csr_vector_free(&x0);
  csr_vector_free(&y0);
  csr_vector_free(&x3v);
  csr_vector_free(&y);
}

static void test_errors(csr_context *ctx) {
  csr_matrix *A = make(ctx, 3, 4, off3, col3, val3, CSR_F64);
  csr_matrix *P = make(ctx, 3, 4, off3, col3, NULL, CSR_PATTERN);
  csr_vector *x = vec(ctx, 4, CSR_F64, x3), *y = vec(ctx, 3, CSR_F64, x3);
  csr_vector *xf = vec(ctx, 4, CSR_F32, x3), *yf = vec(ctx, 3, CSR_F32, x3);
  CHECK_STATUS(ctx, csr_spmv(ctx, 1, NULL, x, 0, y), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_spmv(ctx, 1, A, NULL, 0, y), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_spmv(ctx, 1, A, x, 0, NULL), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_spmv(ctx, 1, A, y, 0, y), CSR_ERR_DIMENSION_MISMATCH); /* x->n 3 */
  CHECK_STATUS(ctx, csr_spmv(ctx, 1, A, x, 0, x), CSR_ERR_DIMENSION_MISMATCH); /* y->n 4 */
  CHECK_STATUS(ctx, csr_spmv(ctx, 1, A, xf, 0, yf), CSR_ERR_TYPE_MISMATCH);
  CHECK_STATUS(ctx, csr_spmv(ctx, 1, A, x, 0, yf), CSR_ERR_TYPE_MISMATCH);
  CHECK_STATUS(ctx, csr_spmv(ctx, 1, P, x, 0, yf), CSR_ERR_TYPE_MISMATCH);
  /* Aliased x and y (a 3x3 view of one array): rejected, a row would read overwritten x. */
  const int64_t offs[] = {0, 1, 2, 3};
  const int32_t cols[] = {0, 1, 2};
  csr_matrix *S = make(ctx, 3, 3, offs, cols, val3, CSR_F64);
  CHECK_STATUS(ctx, csr_spmv(ctx, 1, S, y, 0, y), CSR_ERR_INVALID_VALUE);
  /* Descriptors claiming device storage (no device needed: the check comes first). */
  double dummy[4] = {0}, dummy_y[3] = {0};
  csr_vector dx = {4, dummy, CSR_F64, CSR_DEVICE, 0}, dy = {3, dummy_y, CSR_F64, CSR_DEVICE, 0};
  csr_matrix dA = *A;
  dA.location = CSR_DEVICE;
  CHECK_STATUS(ctx, csr_spmv(ctx, 1, A, &dx, 0, y), CSR_ERR_LOCATION_MISMATCH);
  CHECK_STATUS(ctx, csr_spmv(ctx, 1, &dA, x, 0, y), CSR_ERR_LOCATION_MISMATCH);
  /* All on the device, but the context insists on the CPU reference. */
  CHECK_STATUS(ctx, csr_spmv(ctx, 1, &dA, &dx, 0, &dy), CSR_ERR_LOCATION_MISMATCH);
  CHECK(strstr(csr_context_last_error(ctx), "need the CUDA backend") != NULL);
  CHECK_STATUS(NULL, csr_spmv(NULL, 1, A, x, 0, NULL), CSR_ERR_NULL_POINTER);
  CHECK_OK(NULL, csr_spmv(NULL, 1, A, x, 0, y)); /* NULL context: default backend */
  csr_matrix_free(&A);
  csr_matrix_free(&P);
  csr_matrix_free(&S);
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_vector_free(&xf);
  csr_vector_free(&yf);
}

int main(void) {
  csr_context *ctx = csrt_context(CSR_BACKEND_REF);
  test_values(ctx, CSR_F64);
  test_values(ctx, CSR_F32);
  test_pattern(ctx, CSR_F64);
  test_pattern(ctx, CSR_F32);
  test_unsorted(ctx);
  test_order(ctx);
  test_empty(ctx);
  test_errors(ctx);
  if (csr_backend_available(CSR_BACKEND_OMP)) { /* stored-order summation holds there too */
    csr_context *omp = csrt_context(CSR_BACKEND_OMP);
    test_order(omp);
    csr_context_free(&omp);
  }
  csr_context_free(&ctx);
  return csrt_finish("test_spmv_ref");
}
