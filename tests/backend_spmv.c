/* SPDX-License-Identifier: BSD-3-Clause */
/* Backend tier of y = alpha*A*x + beta*y: the backend of argv[1] (ref, omp, cuda; operands
 * placed where it runs) against the reference on the host, on every generator shape, value type
 * and value kind, every kernel the backend chooses from, mean row lengths either side of each
 * choice, plus run-to-run determinism (bitwise). */
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static csr_backend backend;

/* Type combinations: matrix type, vector type. */
static const csr_value_type combos[4][2] = {
    {CSR_F64, CSR_F64}, {CSR_F32, CSR_F32}, {CSR_PATTERN, CSR_F64}, {CSR_PATTERN, CSR_F32}};
static const double coefficients[][2] = {{1.0, 0.0}, {2.5, -0.5}, {-1.0, 1.0}, {0.0, 2.0}};
/* The kernels a backend chooses from: AUTO alone on the CPU (which has one kernel per backend);
 * on the GPU also each kernel forced. */
static int kernel_count(void) {
  return backend == CSR_BACKEND_CUDA ? csrt_spmv_kernel_count() : 1;
}

static csr_vector *clone(csr_context *ctx, const csr_vector *v) {
  csr_vector *c = NULL;
  CHECK_OK(ctx, csr_vector_clone(ctx, v, &c, CSR_HOST));
  return c;
}

/* y = alpha*A*x + beta*y on the backend under test (A placed as P): placed copies of x and the
 * host y, the call, and y brought back into the host y. */
static csr_status spmv_placed(csr_context *ctx, double alpha, const csr_matrix *P,
                              const csr_vector *x, double beta, csr_vector *y) {
  csr_vector *xp = csrt_place_vector(backend, x), *yp = csrt_place_vector(backend, y);
  csr_status s = csr_spmv(ctx, alpha, P, xp, beta, yp);
  csr_vector *back = csrt_host_vector(yp);
  memcpy(y->data, back->data, (size_t)y->n * (y->value_type == CSR_F64 ? 8 : 4));
  csr_vector_free(&back);
  csr_vector_free(&xp);
  csr_vector_free(&yp);
  return s;
}

/* Per row i: |y_i - yref_i| <= c * eps * (|alpha| * sum_k |a_ik * x_col(k)| + |beta * y0_i|)
 * with c = 2 * (len_i + 2) and eps the unit roundoff of the vector type (2^-53 for F64, 2^-24
 * for F32). A sum of len terms carries at most len roundings and alpha, beta and the final store
 * one each; the factor 2 covers the errors of both results (each may differ from the exact one).
 * Returns the number of rows outside the bound. */
static int64_t rows_outside(const csr_matrix *A, const csr_vector *x, const csr_vector *y0,
                            double alpha, double beta, const csr_vector *y,
                            const csr_vector *yref) {
  double eps = y->value_type == CSR_F64 ? 0x1p-53 : 0x1p-24;
  int64_t bad = 0;
  for (int64_t i = 0; i < A->rows; i++) {
    double scale = 0.0;
    int64_t b = A->row_offsets[i], e = A->row_offsets[i + 1];
    for (int64_t k = b; k < e; k++)
      scale += fabs(csrt_value(A->values, A->value_type, k) *
                    csrt_value(x->data, x->value_type, A->col_indices[k]));
    double c = 2.0 * (double)(e - b + 2);
    double bound =
        c * eps * (fabs(alpha) * scale + fabs(beta * csrt_value(y0->data, y0->value_type, i)));
    double got = csrt_value(y->data, y->value_type, i);
    double want = csrt_value(yref->data, yref->value_type, i);
    if (!(fabs(got - want) <= bound))
      bad++;
  }
  return bad;
}

static int same_bits(const csr_vector *a, const csr_vector *b) {
  size_t bytes = (size_t)a->n * (a->value_type == CSR_F64 ? 8 : 4);
  return a->n == b->n && (bytes == 0 || memcmp(a->data, b->data, bytes) == 0);
}

/* Every coefficient pair against the reference, with each kernel; beta = 0 over a NaN-filled y.
 * P is A placed where the backend runs. */
static void compare(csr_context *ctx, csr_context *ref, const csr_matrix *A, const csr_matrix *P,
                    csrt_rng *rng, csr_value_type vtype, const char *what) {
  csr_vector *x = csrt_random_vector(ref, A->cols, vtype, rng);
  csr_vector *y0 = csrt_random_vector(ref, A->rows, vtype, rng);
  for (int kernel = 0; kernel < kernel_count(); kernel++) {
    CHECK_OK(ctx, csr_context_set_kernel(ctx, csrt_spmv_kernel(kernel)));
    for (size_t c = 0; c < sizeof coefficients / sizeof coefficients[0]; c++) {
      double alpha = coefficients[c][0], beta = coefficients[c][1];
      csr_vector *y = clone(ref, y0), *yref = clone(ref, y0);
      CHECK_OK(ctx, spmv_placed(ctx, alpha, P, x, beta, y));
      CHECK_OK(ref, csr_spmv(ref, alpha, A, x, beta, yref));
      int64_t bad = rows_outside(A, x, y0, alpha, beta, y, yref);
      CHECK(bad == 0);
      if (bad)
        fprintf(stderr, "  %s kernel %d alpha %g beta %g: %lld rows outside the bound\n", what,
                (int)csrt_spmv_kernel(kernel), alpha, beta, (long long)bad);
      csr_vector_free(&y);
      csr_vector_free(&yref);
    }
    csr_vector *y = clone(ref, y0);
    csr_fill(ref, NAN, y);
    CHECK_OK(ctx, spmv_placed(ctx, 1.0, P, x, 0.0, y));
    for (int64_t i = 0; i < y->n; i++)
      CHECK(isfinite(csrt_value(y->data, y->value_type, i)));
    csr_vector_free(&y);
  }
  CHECK_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
  csr_vector_free(&x);
  csr_vector_free(&y0);
}

/* 20 runs give the same bits. On OpenMP also: every thread count gives the same bits, and F64
 * matches the reference bit for bit (both sum each row in stored order, in double). The operands
 * stay where the backend runs between runs, as they would in a solver. */
static void determinism(csr_context *ctx, csr_context *ref, const csr_matrix *A,
                        const csr_matrix *P, csrt_rng *rng, csr_value_type vtype) {
  csr_vector *x = csrt_random_vector(ref, A->cols, vtype, rng);
  csr_vector *y0 = csrt_random_vector(ref, A->rows, vtype, rng);
  csr_vector *first = clone(ref, y0), *y = clone(ref, y0);
  csr_vector *xp = csrt_place_vector(backend, x), *yp = csrt_place_vector(backend, y0);
  csr_vector *y0p = csrt_place_vector(backend, y0);
  CHECK_OK(ctx, csr_spmv(ctx, 1.5, P, xp, 0.25, yp));
  csrt_set_vector(first, yp);
  for (int run = 1; run < 20; run++) {
    CHECK_OK(ctx, csr_copy(ctx, y0p, yp));
    CHECK_OK(ctx, csr_spmv(ctx, 1.5, P, xp, 0.25, yp));
    csrt_set_vector(y, yp);
    CHECK(same_bits(y, first));
  }
  csr_vector_free(&xp);
  csr_vector_free(&yp);
  csr_vector_free(&y0p);
  if (backend == CSR_BACKEND_OMP) {
    for (int t = 1; t <= 7; t += 2) {
      csr_context_set_threads(ctx, t);
      CHECK_OK(ref, csr_copy(ref, y0, y));
      CHECK_OK(ctx, csr_spmv(ctx, 1.5, A, x, 0.25, y));
      CHECK(same_bits(y, first));
    }
    csr_context_set_threads(ctx, 0);
    if (vtype == CSR_F64) {
      CHECK_OK(ref, csr_copy(ref, y0, y));
      CHECK_OK(ref, csr_spmv(ref, 1.5, A, x, 0.25, y));
      CHECK(same_bits(y, first));
    }
  }
  csr_vector_free(&x);
  csr_vector_free(&y0);
  csr_vector_free(&first);
  csr_vector_free(&y);
}

/* Large cases for the OpenMP kernel. wide = 0: many rows, a few very long ones (the nnz
 * partition with several parts). wide = 1: columns spread over 400000, far from the diagonal
 * (the gather-prefetch path). */
static csr_matrix *skewed(csr_context *ctx, csr_value_type type, csrt_rng *rng, int wide) {
  int64_t rows = wide ? 3000 : 100000, cols = wide ? 400000 : 50000;
  int64_t *len = malloc((size_t)rows * sizeof *len);
  for (int64_t i = 0; i < rows; i++)
    len[i] = i % 20011 == 7 ? 30000 : (int64_t)csrt_below(rng, wide ? 40 : 12);
  csr_matrix *A = csrt_from_row_lengths(ctx, rows, cols, len, type, CSRT_RANDOM, rng);
  free(len);
  return A;
}

/* Mean row lengths either side of each lane count the GPU's AUTO picks (1, 2, ..., 32), each
 * with one row far longer than the rest. */
static void mean_lengths(csr_context *ctx, csr_context *ref, csrt_rng *rng) {
  const int64_t means[] = {1, 3, 8, 9, 12, 20, 40, 100};
  for (size_t m = 0; m < sizeof means / sizeof *means; m++) {
    int64_t rows = 3000, *len = malloc((size_t)rows * sizeof *len);
    for (int64_t i = 0; i < rows; i++)
      len[i] = (int64_t)csrt_below(rng, (uint64_t)(2 * means[m] + 1));
    len[rows / 2] = 5000;
    csr_matrix *A = csrt_from_row_lengths(ref, rows, 6000, len, CSR_F64, CSRT_RANDOM, rng);
    csr_matrix *P = csrt_place_matrix(backend, A);
    char name[64];
    snprintf(name, sizeof name, "mean row length %lld", (long long)means[m]);
    compare(ctx, ref, A, P, rng, CSR_F64, name);
    csr_matrix_free(&A);
    csr_matrix_free(&P);
    free(len);
  }
}

static void run(csr_context *ctx, csr_context *ref, const csr_matrix *A, csrt_rng *rng,
                csr_value_type vtype, const char *what) {
  csr_matrix *P = csrt_place_matrix(backend, A);
  compare(ctx, ref, A, P, rng, vtype, what);
  for (int kernel = 0; kernel < kernel_count(); kernel++) { /* each kernel repeats its bits */
    CHECK_OK(ctx, csr_context_set_kernel(ctx, csrt_spmv_kernel(kernel)));
    determinism(ctx, ref, A, P, rng, vtype);
  }
  CHECK_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
  csr_matrix_free(&P);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  csrt_rng rng = {csrt_seed("backend_spmv")};
  csr_context *ctx = csrt_context(backend), *ref = csrt_context(CSR_BACKEND_REF);
  for (int shape = 0; shape < CSRT_SHAPE_COUNT; shape++)
    for (int combo = 0; combo < 4; combo++)
      for (int values = CSRT_RANDOM; values <= CSRT_CONSTANT; values++) {
        csr_matrix *A =
            csrt_generate(ref, (csrt_shape)shape, combos[combo][0], (csrt_values)values, &rng);
        char what[128];
        snprintf(what, sizeof what, "%s combo %d values %d", csrt_shape_name((csrt_shape)shape),
                 combo, values);
        run(ctx, ref, A, &rng, combos[combo][1], what);
        csr_matrix_free(&A);
      }
  mean_lengths(ctx, ref, &rng);
  for (int wide = 0; wide < 2 && !csrt_quick(); wide++)
    for (int combo = 0; combo < 4; combo++) {
      csr_matrix *A = skewed(ref, combos[combo][0], &rng, wide);
      run(ctx, ref, A, &rng, combos[combo][1], wide ? "scattered" : "skewed");
      csr_matrix_free(&A);
    }
  CHECK(csr_context_last_backend(ctx) == backend);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_spmv");
}
