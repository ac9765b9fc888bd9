/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_matrix_wrap on the backend of argv[1] (the caller's arrays where it runs):
 *  - the nonzeros are the caller's arrays (pointer identity), and so are 64-bit row offsets;
 *    32-bit ones are widened into an array the matrix owns, equal to the caller's;
 *  - products, validation and copies of the wrapped matrix give what the same matrix made by
 *    libcsr gives, bit for bit, on every generator shape and value type, with both widths;
 *  - csr_matrix_free leaves the caller's arrays alone (the test frees them afterwards, under
 *    AddressSanitizer or compute-sanitizer);
 *  - a new wrap of changed arrays at the same addresses is not taken for the old matrix by the
 *    context's SpMV cache;
 *  - bad arguments refused with their message, nothing allocated. */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

static csr_backend backend;
static csr_context *ref;

/* The caller's arrays of A, where the backend runs: offsets of `width` bits, columns, values. */
typedef struct caller_arrays {
  void *offsets, *columns, *values;
} caller_arrays;

static caller_arrays place_arrays(const csr_matrix *A, csr_index_width width) {
  caller_arrays c = {NULL, NULL, NULL};
  const size_t n = (size_t)A->rows + 1;
  if (width == CSR_INDEX_64) {
    c.offsets = csrt_place_bytes(backend, A->row_offsets, n * sizeof(int64_t));
  } else {
    int32_t *narrow = malloc(n * sizeof *narrow);
    for (size_t i = 0; i < n; i++)
      narrow[i] = (int32_t)A->row_offsets[i];
    c.offsets = csrt_place_bytes(backend, narrow, n * sizeof *narrow);
    free(narrow);
  }
  c.columns = csrt_place_bytes(backend, A->col_indices, (size_t)A->nnz * sizeof(int32_t));
  if (A->value_type != CSR_PATTERN)
    c.values =
        csrt_place_bytes(backend, A->values, (size_t)A->nnz * (A->value_type == CSR_F64 ? 8 : 4));
  return c;
}

static void free_arrays(caller_arrays *c) {
  csrt_free_at(backend, c->offsets);
  csrt_free_at(backend, c->columns);
  csrt_free_at(backend, c->values);
}

static int same_bits(const csr_vector *a, const csr_vector *b) {
  size_t bytes = (size_t)a->n * (a->value_type == CSR_F64 ? 8 : 4);
  return a->n == b->n && (bytes == 0 || memcmp(a->data, b->data, bytes) == 0);
}

/* y = 1.5 W x - 0.5 y0 on the wrapped W and on P (the same matrix, libcsr's): the same bits. */
static void same_product(csr_context *ctx, const csr_matrix *W, const csr_matrix *P, csrt_rng *rng,
                         const char *what) {
  const csr_value_type vtype = P->value_type == CSR_F32 ? CSR_F32 : CSR_F64;
  csr_vector *x = csrt_random_vector(ref, P->cols, vtype, rng);
  csr_vector *y0 = csrt_random_vector(ref, P->rows, vtype, rng);
  csr_vector *xp = csrt_place_vector(backend, x), *yw = csrt_place_vector(backend, y0),
             *yp = csrt_place_vector(backend, y0);
  CHECK_OK(ctx, csr_spmv(ctx, 1.5, W, xp, -0.5, yw));
  CHECK_OK(ctx, csr_spmv(ctx, 1.5, P, xp, -0.5, yp));
  csr_vector *a = csrt_host_vector(yw), *b = csrt_host_vector(yp);
  CHECKF(same_bits(a, b), "%s: the wrapped matrix's product differs", what);
  csr_vector_free(&a);
  csr_vector_free(&b);
  csr_vector_free(&x);
  csr_vector_free(&y0);
  csr_vector_free(&xp);
  csr_vector_free(&yw);
  csr_vector_free(&yp);
}

static void test_shapes(csr_context *ctx, csrt_rng *rng) {
  const csr_value_type types[] = {CSR_F64, CSR_F32, CSR_PATTERN};
  const csr_location at = csrt_location(backend);
  for (int shape = 0; shape < CSRT_SHAPE_COUNT; shape++)
    for (int t = 0; t < 3; t++)
      for (int w = 0; w < 2; w++) {
        const csr_index_width width = w ? CSR_INDEX_64 : CSR_INDEX_32;
        char what[160];
        snprintf(what, sizeof what, "%s, type %d, %d-bit offsets",
                 csrt_shape_name((csrt_shape)shape), (int)types[t], (int)width);
        csr_matrix *A = csrt_generate(ref, (csrt_shape)shape, types[t], CSRT_RANDOM, rng);
        csr_matrix *P = csrt_place_matrix(backend, A), *W = NULL;
        caller_arrays c = place_arrays(A, width);
        CHECK_OK(ctx, csr_matrix_wrap(ctx, &W, A->rows, A->cols, A->nnz, c.offsets, width,
                                      c.columns, c.values, A->value_type, at, A->flags));
        CHECKF(W != NULL && W->rows == A->rows && W->cols == A->cols && W->nnz == A->nnz &&
                   W->location == at && W->flags == A->flags && W->serial != 0,
               "%s: the descriptor", what);
        CHECKF((void *)W->col_indices == c.columns && W->values == c.values,
               "%s: the nonzeros were copied", what);
        CHECKF(((void *)W->row_offsets == c.offsets) == (width == CSR_INDEX_64),
               "%s: 64-bit offsets are used in place, 32-bit ones widened", what);
        CHECKF(W->borrowed == (CSR_BORROWED_INDICES | CSR_BORROWED_VALUES |
                               (width == CSR_INDEX_64 ? CSR_BORROWED_OFFSETS : 0u)),
               "%s: borrowed bits 0x%x", what, W->borrowed);
        CHECK_OK(ctx, csr_matrix_validate(ctx, W));
        csr_matrix *H = NULL;
        int equal = 0;
        CHECK_OK(ctx, csr_matrix_copy(ctx, W, &H, CSR_HOST));
        CHECK_OK(ref, csr_matrix_equal(ref, H, A, &equal));
        CHECKF(equal, "%s: the host copy differs from the matrix wrapped", what);
        if (A->rows > 0 && A->cols > 0)
          same_product(ctx, W, P, rng, what);
        csr_matrix_free(&W);
        CHECK(W == NULL);
        free_arrays(&c); /* still the caller's: a double free would be reported */
        csr_matrix_free(&H);
        csr_matrix_free(&P);
        csr_matrix_free(&A);
      }
}

/* Two matrices of different row lengths wrapped in turn over the same arrays: the second is
 * multiplied as itself, not with the first's cached statistics or tiles. */
static void test_rewrap(csr_context *ctx, csrt_rng *rng) {
  const int64_t rows = 3000, cols = 3000;
  int64_t *short_rows = malloc(rows * sizeof *short_rows),
          *long_rows = calloc(rows, sizeof(int64_t));
  for (int64_t i = 0; i < rows; i++)
    short_rows[i] = 2;
  long_rows[0] = 2 * rows; /* one long row: another kernel, other tiles */
  csr_matrix *A = csrt_from_row_lengths(ref, rows, cols, short_rows, CSR_F64, CSRT_RANDOM, rng);
  csr_matrix *B = csrt_from_row_lengths(ref, rows, cols, long_rows, CSR_F64, CSRT_RANDOM, rng);
  caller_arrays c = place_arrays(A, CSR_INDEX_64);
  csr_matrix *W = NULL, *PB = csrt_place_matrix(backend, B);
  const csr_location at = csrt_location(backend);
  CHECK_OK(ctx, csr_matrix_wrap(ctx, &W, rows, cols, A->nnz, c.offsets, CSR_INDEX_64, c.columns,
                                c.values, CSR_F64, at, A->flags));
  csr_matrix *PA = csrt_place_matrix(backend, A);
  same_product(ctx, W, PA, rng, "first wrap");
  csr_matrix_free(&W);
  /* B over the same addresses (same nnz, so the arrays fit). */
  csrt_free_at(backend, c.offsets);
  csrt_free_at(backend, c.columns);
  csrt_free_at(backend, c.values);
  c = place_arrays(B, CSR_INDEX_64);
  CHECK_OK(ctx, csr_matrix_wrap(ctx, &W, rows, cols, B->nnz, c.offsets, CSR_INDEX_64, c.columns,
                                c.values, CSR_F64, at, B->flags));
  same_product(ctx, W, PB, rng, "second wrap");
  csr_matrix_free(&W);
  free_arrays(&c);
  csr_matrix_free(&PA);
  csr_matrix_free(&PB);
  csr_matrix_free(&A);
  csr_matrix_free(&B);
  free(short_rows);
  free(long_rows);
}

/* A solve on a wrapped matrix with 32-bit offsets: the iterates of the same matrix made by
 * libcsr. */
static void test_solve(csr_context *ctx) {
  csr_matrix *A = csrt_poisson_2d(ref, 40, 0.0);
  caller_arrays c = place_arrays(A, CSR_INDEX_32);
  csr_matrix *W = NULL, *P = csrt_place_matrix(backend, A);
  CHECK_OK(ctx, csr_matrix_wrap(ctx, &W, A->rows, A->cols, A->nnz, c.offsets, CSR_INDEX_32,
                                c.columns, c.values, CSR_F64, csrt_location(backend), A->flags));
  csr_vector *b = csrt_times_ones(ref, A), *x0 = csrt_zeros(ref, A->rows);
  csr_vector *bp = csrt_place_vector(backend, b), *xw = csrt_place_vector(backend, x0),
             *xp = csrt_place_vector(backend, x0);
  csr_solver_options options;
  csr_solver_options_init(&options);
  options.method = CSR_SOLVER_PCG_JACOBI;
  csr_solver_info iw, ip;
  CHECK_OK(ctx, csr_solve(ctx, W, bp, xw, &options, &iw));
  CHECK_OK(ctx, csr_solve(ctx, P, bp, xp, &options, &ip));
  csr_vector *a = csrt_host_vector(xw), *e = csrt_host_vector(xp);
  CHECK(iw.iterations == ip.iterations && iw.iterations > 0);
  CHECK(same_bits(a, e));
  csr_vector_free(&a);
  csr_vector_free(&e);
  csr_vector_free(&b);
  csr_vector_free(&x0);
  csr_vector_free(&bp);
  csr_vector_free(&xw);
  csr_vector_free(&xp);
  csr_matrix_free(&W);
  csr_matrix_free(&P);
  free_arrays(&c);
  csr_matrix_free(&A);
}

/* The status and a piece of the message of a wrap that must fail; *A stays NULL. */
static void refused(csr_context *ctx, csr_status want, const char *text, int64_t rows, int64_t cols,
                    int64_t nnz, const void *offsets, csr_index_width width, const int32_t *columns,
                    const void *values, csr_value_type type, unsigned flags) {
  csr_matrix *W = (csr_matrix *)&W; /* not NULL: the call must clear it */
  CHECK_STATUS(ctx,
               csr_matrix_wrap(ctx, &W, rows, cols, nnz, offsets, width, columns, values, type,
                               csrt_location(backend), flags),
               want);
  CHECK(W == NULL);
  CHECKF(strstr(csr_context_last_error(ctx), text) != NULL, "'%s' not in \"%s\"", text,
         csr_context_last_error(ctx));
}

static void test_errors(csr_context *ctx, csrt_rng *rng) {
  csr_matrix *A = csrt_generate(ref, CSRT_RANDOM_SQUARE, CSR_F64, CSRT_RANDOM, rng);
  caller_arrays c32 = place_arrays(A, CSR_INDEX_32), c64 = place_arrays(A, CSR_INDEX_64);
  const int64_t m = A->rows, n = A->cols, nnz = A->nnz;
  CHECK(csr_matrix_wrap(ctx, NULL, m, n, nnz, c64.offsets, CSR_INDEX_64, c64.columns, c64.values,
                        CSR_F64, csrt_location(backend), 0) == CSR_ERR_NULL_POINTER);
  refused(ctx, CSR_ERR_NULL_POINTER, "row_offsets", m, n, nnz, NULL, CSR_INDEX_64, c64.columns,
          c64.values, CSR_F64, 0);
  refused(ctx, CSR_ERR_NULL_POINTER, "col_indices", m, n, nnz, c64.offsets, CSR_INDEX_64, NULL,
          c64.values, CSR_F64, 0);
  refused(ctx, CSR_ERR_NULL_POINTER, "values", m, n, nnz, c64.offsets, CSR_INDEX_64, c64.columns,
          NULL, CSR_F64, 0);
  refused(ctx, CSR_ERR_INVALID_VALUE, "16 bits", m, n, nnz, c64.offsets, (csr_index_width)16,
          c64.columns, c64.values, CSR_F64, 0);
  refused(ctx, CSR_ERR_INVALID_VALUE, "negative size", -1, n, nnz, c64.offsets, CSR_INDEX_64,
          c64.columns, c64.values, CSR_F64, 0);
  refused(ctx, CSR_ERR_INVALID_VALUE, "flags 0x8", m, n, nnz, c64.offsets, CSR_INDEX_64,
          c64.columns, c64.values, CSR_F64, 8u);
  refused(ctx, CSR_ERR_OVERFLOW, "32-bit row offsets", m, n, (int64_t)INT32_MAX + 1, c32.offsets,
          CSR_INDEX_32, c32.columns, c32.values, CSR_F64, 0);
  refused(ctx, CSR_ERR_OVERFLOW, "exceeds", CSR_MAX_DIM + 1, n, nnz, c64.offsets, CSR_INDEX_64,
          c64.columns, c64.values, CSR_F64, 0);
  /* The end offsets: nnz one short of row_offsets[rows], both widths; then offsets[0] != 0
   * (the matrix's rows from the second on). */
  char want[96];
  snprintf(want, sizeof want, "run from 0 to %lld", (long long)nnz);
  refused(ctx, CSR_ERR_INVALID_MATRIX, want, m, n, nnz - 1, c64.offsets, CSR_INDEX_64, c64.columns,
          c64.values, CSR_F64, 0);
  refused(ctx, CSR_ERR_INVALID_MATRIX, want, m, n, nnz - 1, c32.offsets, CSR_INDEX_32, c32.columns,
          c32.values, CSR_F64, 0);
  int64_t k = 1;
  while (k < m && A->row_offsets[k] == 0)
    k++;
  const int64_t first = A->row_offsets[k];
  CHECK(first > 0);
  snprintf(want, sizeof want, "run from %lld to", (long long)first);
  refused(ctx, CSR_ERR_INVALID_MATRIX, want, m - k, n, nnz - first,
          (const char *)c64.offsets + k * sizeof(int64_t), CSR_INDEX_64, c64.columns, c64.values,
          CSR_F64, 0);
  /* Pattern: the values are not read, and not kept. */
  csr_matrix *W = NULL;
  CHECK_OK(ctx, csr_matrix_wrap(ctx, &W, m, n, nnz, c64.offsets, CSR_INDEX_64, c64.columns,
                                c64.values, CSR_PATTERN, csrt_location(backend), 0));
  CHECK(W->values == NULL && W->value_type == CSR_PATTERN);
  csr_matrix_free(&W);
  /* No entries: NULL columns and values are fine. */
  int64_t zeros[4] = {0, 0, 0, 0};
  void *z = csrt_place_bytes(backend, zeros, sizeof zeros);
  CHECK_OK(ctx, csr_matrix_wrap(ctx, &W, 3, 5, 0, z, CSR_INDEX_64, NULL, NULL, CSR_F64,
                                csrt_location(backend), 0));
  CHECK(W->nnz == 0);
  CHECK_OK(ctx, csr_matrix_validate(ctx, W));
  csr_matrix_free(&W);
  csrt_free_at(backend, z);
  free_arrays(&c32);
  free_arrays(&c64);
  csr_matrix_free(&A);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  csrt_rng rng = {csrt_seed("backend_wrap")};
  csr_context *ctx = csrt_context(backend);
  ref = csrt_context(CSR_BACKEND_REF);
  if (csrt_part(argc, argv, "shapes"))
    test_shapes(ctx, &rng);
  if (csrt_part(argc, argv, "rewrap"))
    test_rewrap(ctx, &rng);
  if (csrt_part(argc, argv, "solve"))
    test_solve(ctx);
  if (csrt_part(argc, argv, "errors"))
    test_errors(ctx, &rng);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_wrap");
}
