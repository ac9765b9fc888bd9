/* SPDX-License-Identifier: BSD-3-Clause */
/* Row statistics: hand-worked histogram, bins either side of powers of 2, ref vs omp. */
#include "testing.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_bins(void) {
  CHECK(csr_row_length_bin(0) == 0);
  CHECK(csr_row_length_bin(-5) == 0); /* not a length: treated as empty */
  CHECK(csr_row_length_bin(1) == 1);
  CHECK(csr_row_length_bin(2) == 2 && csr_row_length_bin(3) == 2);
  CHECK(csr_row_length_bin(4) == 3 && csr_row_length_bin(7) == 3 && csr_row_length_bin(8) == 4);
  for (int k = 1; k <= 46; k++) { /* bin b holds [2^(b-1), 2^b) */
    int64_t p = (int64_t)1 << k;
    CHECK(csr_row_length_bin(p - 1) == k);
    CHECK(csr_row_length_bin(p) == k + 1);
    CHECK(csr_row_length_bin(p + 1) == k + 1);
  }
  CHECK(csr_row_length_bin((int64_t)1 << 46) == CSR_HIST_BINS - 1);
  /* 2^47 and beyond would need bin 48: they share the last bin. */
  CHECK(csr_row_length_bin((int64_t)1 << 47) == CSR_HIST_BINS - 1);
  CHECK(csr_row_length_bin(INT64_MAX) == CSR_HIST_BINS - 1);
}

/* Row lengths 0 1 2 3 4 7 8 15 16 0 (nnz 56, 10 rows):
 *   bin 0 (empty): 2 rows      bin 3 [4,8):   4, 7   -> 2
 *   bin 1 [1,2):   1   -> 1    bin 4 [8,16):  8, 15  -> 2
 *   bin 2 [2,4):   2,3 -> 2    bin 5 [16,32): 16     -> 1
 *   mean 5.6; variance = (0+1+4+9+16+49+64+225+256+0)/10 - 5.6^2 = 62.4 - 31.36 = 31.04 */
static void test_hand(csr_context *ctx, csrt_rng *rng) {
  const int64_t len[] = {0, 1, 2, 3, 4, 7, 8, 15, 16, 0};
  csr_matrix *A = csrt_from_row_lengths(ctx, 10, 20, len, CSR_PATTERN, CSRT_CONSTANT, rng);
  csr_row_stats s;
  CHECK_OK(ctx, csr_row_stats_compute(ctx, A, &s));
  const int64_t want[6] = {2, 1, 2, 2, 2, 1};
  for (int b = 0; b < CSR_HIST_BINS; b++)
    CHECK(s.histogram[b] == (b < 6 ? want[b] : 0));
  CHECK(s.rows == 10 && s.nnz == 56 && s.longest == 16 && s.empty_rows == 2);
  CHECK(fabs(s.mean - 5.6) < 1e-15 && fabs(s.variance - 31.04) < 1e-12);
  csr_matrix_free(&A);

  csr_matrix *E = NULL; /* 0 x 0 and 13 x 0 */
  CHECK_OK(ctx, csr_matrix_create(ctx, &E, 0, 0, 0, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_row_stats_compute(ctx, E, &s));
  CHECK(s.rows == 0 && s.nnz == 0 && s.longest == 0 && s.mean == 0 && s.variance == 0);
  CHECK(s.histogram[0] == 0 && s.empty_rows == 0);
  csr_matrix_free(&E);
  CHECK_OK(ctx, csr_matrix_create(ctx, &E, 13, 0, 0, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_row_stats_compute(ctx, E, &s));
  CHECK(s.rows == 13 && s.histogram[0] == 13 && s.empty_rows == 13 && s.variance == 0);
  csr_matrix_free(&E);
}

static void test_errors(csr_context *ctx) {
  csr_matrix *A = NULL;
  csr_row_stats s;
  CHECK_OK(ctx, csr_matrix_create(ctx, &A, 3, 3, 2, CSR_PATTERN, CSR_HOST));
  A->row_offsets[1] = 2; /* offsets 0 2 1 2: row 1 has length -1 */
  A->row_offsets[2] = 1;
  A->row_offsets[3] = 2;
  A->col_indices[0] = A->col_indices[1] = 0;
  CHECK_STATUS(ctx, csr_row_stats_compute(ctx, A, &s), CSR_ERR_INVALID_MATRIX);
  CHECK_STATUS(ctx, csr_row_stats_compute(ctx, NULL, &s), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_row_stats_compute(ctx, A, NULL), CSR_ERR_NULL_POINTER);
  /* A device descriptor: its offsets are copied to the host first (allocation, then transfer). */
  csr_matrix dA = *A;
  dA.location = CSR_DEVICE;
  csr_debug_fail_allocation_after(1);
  CHECK_STATUS(ctx, csr_row_stats_compute(ctx, &dA, &s), CSR_ERR_OUT_OF_MEMORY);
  csr_debug_fail_allocation_after(0);
  if (!csr_backend_available(CSR_BACKEND_CUDA))
    CHECK_STATUS(ctx, csr_row_stats_compute(ctx, &dA, &s), CSR_ERR_NOT_COMPILED);
  csr_matrix_free(&A);
}

static int same_stats(const csr_row_stats *a, const csr_row_stats *b, double rtol) {
  if (memcmp(a->histogram, b->histogram, sizeof a->histogram) != 0)
    return 0;
  if (a->rows != b->rows || a->nnz != b->nnz || a->longest != b->longest)
    return 0;
  if (a->empty_rows != b->empty_rows || a->mean != b->mean)
    return 0;
  return fabs(a->variance - b->variance) <= rtol * fabs(b->variance);
}

/* omp against ref on every generator shape and on a large matrix (many reduction chunks);
 * the omp variance must not change bits with the thread count. */
static void test_backends(csrt_rng *rng) {
  csr_context *ref = csrt_context(CSR_BACKEND_REF), *omp = csrt_context(CSR_BACKEND_OMP);
  for (int shape = 0; shape <= CSRT_SHAPE_COUNT; shape++) {
    csr_matrix *A = NULL;
    if (shape < CSRT_SHAPE_COUNT) {
      A = csrt_generate(ref, (csrt_shape)shape, CSR_PATTERN, CSRT_CONSTANT, rng);
    } else {
      int64_t rows = 300001, *len = malloc((size_t)rows * sizeof *len);
      for (int64_t i = 0; i < rows; i++) /* mostly short, some long */
        len[i] = i % 1000 == 0 ? 500 + (int64_t)csrt_below(rng, 600) : (int64_t)csrt_below(rng, 9);
      A = csrt_from_row_lengths(ref, rows, 2000, len, CSR_PATTERN, CSRT_CONSTANT, rng);
      free(len);
    }
    csr_row_stats a, b, c;
    CHECK_OK(ref, csr_row_stats_compute(ref, A, &a));
    CHECK_OK(omp, csr_row_stats_compute(omp, A, &b));
    CHECK(csr_context_last_backend(omp) == CSR_BACKEND_OMP);
    /* Recursive summation of rows terms: relative error within rows * eps each way. */
    CHECK(same_stats(&b, &a, 2.0 * (double)(A->rows + 1) * DBL_EPSILON));
    for (int t = 1; t <= 3; t++) {
      csr_context_set_threads(omp, t);
      CHECK_OK(omp, csr_row_stats_compute(omp, A, &c));
      CHECK(same_stats(&c, &b, 0.0) && c.variance == b.variance);
    }
    csr_context_set_threads(omp, 0);
    csr_matrix_free(&A);
  }
  csr_context_free(&ref);
  csr_context_free(&omp);
}

int main(void) {
  csrt_rng rng = {csrt_seed("test_row_stats")};
  test_bins();
  for (int b = CSR_BACKEND_REF; b <= CSR_BACKEND_OMP; b++) {
    if (!csr_backend_available((csr_backend)b))
      continue;
    csr_context *ctx = csrt_context((csr_backend)b);
    test_hand(ctx, &rng);
    test_errors(ctx);
    csr_context_free(&ctx);
  }
  if (csr_backend_available(CSR_BACKEND_OMP))
    test_backends(&rng);
  return csrt_finish("test_row_stats");
}
