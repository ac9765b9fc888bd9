/* SPDX-License-Identifier: BSD-3-Clause */
/* The SpMV kernel choice on the GPU (label gpu): row statistics counted on the device equal the
 * host's (histogram, rows, nnz, longest, empty rows exactly; variance to rounding), so the device
 * matrix gets the host's choice; decreasing offsets are refused on the device too; the first
 * AUTO SpMV on a matrix fills the context's cache and the next calls reuse it, the tiled kernels'
 * tile starts too: the same y when they are kept, made for the other value type's tiles, dropped
 * with a matrix pushed out of the cache or forgotten. Short rows' gathers, sampled from the
 * device, give the host's figure. */
#include "testing.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void same_choice(csr_context *ctx, csr_context *ref, const csr_matrix *A, const char *what) {
  csr_matrix *D = NULL;
  CHECK_OK(ctx, csr_matrix_copy(ctx, A, &D, CSR_DEVICE));
  csr_row_stats h, d;
  CHECK_OK(ref, csr_row_stats_compute(ref, A, &h));
  CHECK_OK(ctx, csr_row_stats_compute(ctx, D, &d));
  CHECK(csr_context_last_backend(ctx) == CSR_BACKEND_CUDA);
  CHECKF(memcmp(h.histogram, d.histogram, sizeof h.histogram) == 0, "%s: histograms differ", what);
  CHECKF(h.rows == d.rows && h.nnz == d.nnz && h.longest == d.longest &&
             h.empty_rows == d.empty_rows && h.mean == d.mean,
         "%s: rows %lld/%lld nnz %lld/%lld longest %lld/%lld empty %lld/%lld", what,
         (long long)h.rows, (long long)d.rows, (long long)h.nnz, (long long)d.nnz,
         (long long)h.longest, (long long)d.longest, (long long)h.empty_rows,
         (long long)d.empty_rows);
  CHECKF(fabs(h.variance - d.variance) <= 4.0 * (double)(h.rows + 1) * DBL_EPSILON * h.variance,
         "%s: variance %.17g on the host, %.17g on the device", what, h.variance, d.variance);
  csr_spmv_choice ch, cd;
  CHECK_OK(ref, csr_spmv_choose(ref, A, &ch));
  CHECK_OK(ctx, csr_spmv_choose(ctx, D, &cd));
  CHECKF(ch.kernel == cd.kernel && ch.lanes == cd.lanes, "%s: host picks %s/%d, device %s/%d", what,
         csr_spmv_kernel_name(ch.kernel), ch.lanes, csr_spmv_kernel_name(cd.kernel), cd.lanes);
  CHECKF(ch.gather_lines == cd.gather_lines,
         "%s: gather lines %.17g on the host, %.17g on the device", what, ch.gather_lines,
         cd.gather_lines);
  /* The SpMV reuses the cached statistics: the next choose says so. */
  csr_vector *x = NULL, *y = NULL;
  csr_value_type vt = A->value_type == CSR_F32 ? CSR_F32 : CSR_F64;
  CHECK_OK(ctx, csr_vector_create(ctx, &x, A->cols, vt, CSR_DEVICE));
  CHECK_OK(ctx, csr_vector_create(ctx, &y, A->rows, vt, CSR_DEVICE));
  CHECK_OK(ctx, csr_fill(ctx, 1.0, x));
  csr_context_forget_matrix(ctx, D);
  CHECK_OK(ctx, csr_spmv(ctx, 1.0, D, x, 0.0, y));
  CHECK_OK(ctx, csr_spmv_choose(ctx, D, &cd));
  if (A->nnz > 0) /* else the SpMV only scales y: no kernel, no choice */
    CHECKF(cd.cached && cd.kernel == ch.kernel, "%s: the SpMV did not cache its choice", what);
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_matrix_free(&D);
}

static void shapes(csr_context *ctx, csr_context *ref, csrt_rng *rng) {
  for (int shape = 0; shape < CSRT_SHAPE_COUNT; shape++) {
    csr_matrix *A = csrt_generate(ref, (csrt_shape)shape, CSR_F64, CSRT_RANDOM, rng);
    same_choice(ctx, ref, A, csrt_shape_name((csrt_shape)shape));
    csr_matrix_free(&A);
  }
  /* Past one reduction block and with every kind of row: long, empty, 64-bit lengths' bins. */
  int64_t rows = getenv("CSR_GPU_QUICK") ? 5000 : 300001;
  int64_t *len = malloc((size_t)rows * sizeof *len);
  for (int64_t i = 0; i < rows; i++)
    len[i] = i % 1000 == 0 ? 500 + (int64_t)csrt_below(rng, 600)
             : i % 7 == 0  ? 0
                           : (int64_t)csrt_below(rng, 9);
  csr_matrix *A = csrt_from_row_lengths(ref, rows, 2000, len, CSR_PATTERN, CSRT_CONSTANT, rng);
  same_choice(ctx, ref, A, "mixed lengths, pattern");
  csr_matrix_free(&A);
  /* Short regular rows, whose gathers are sampled from the device: local (scalar), scattered. */
  A = csrt_poisson_2d(ref, 150, 0.0);
  same_choice(ctx, ref, A, "stencil");
  csr_matrix_free(&A);
  for (int64_t i = 0; i < rows; i++)
    len[i] = 6;
  A = csrt_from_row_lengths(ref, rows, rows, len, CSR_F64, CSRT_RANDOM, rng);
  same_choice(ctx, ref, A, "random short rows");
  csr_matrix_free(&A);
  free(len);
}

static void errors(csr_context *ctx, csr_context *ref, csrt_rng *rng) {
  int64_t len[6] = {2, 3, 0, 4, 1, 2};
  csr_matrix *A = csrt_from_row_lengths(ref, 6, 6, len, CSR_F64, CSRT_RANDOM, rng), *D = NULL;
  A->row_offsets[3] = A->row_offsets[4] + 1; /* row 3 then has length -1 */
  CHECK_OK(ctx, csr_matrix_copy(ctx, A, &D, CSR_DEVICE));
  csr_row_stats s;
  CHECK_STATUS(ctx, csr_row_stats_compute(ctx, D, &s), CSR_ERR_INVALID_MATRIX);
  csr_spmv_choice c;
  CHECK_STATUS(ctx, csr_spmv_choose(ctx, D, &c), CSR_ERR_INVALID_MATRIX);
  csr_matrix_free(&A);
  csr_matrix_free(&D);
  /* No rows: nothing to count. */
  CHECK_OK(ctx, csr_matrix_create(ctx, &D, 0, 5, 0, CSR_F64, CSR_DEVICE));
  CHECK_OK(ctx, csr_row_stats_compute(ctx, D, &s));
  CHECK(s.rows == 0 && s.nnz == 0 && s.longest == 0);
  csr_matrix_free(&D);
}

/* y = A x on the device (x all ones, in `type`) against the reference on the host: each y_i
 * within 1e-12 of it relatively; returns y on the host. */
static csr_vector *checked_spmv(csr_context *ctx, csr_context *ref, const csr_matrix *A,
                                const csr_matrix *D, csr_value_type type, const char *what) {
  csr_vector *x = NULL, *y = NULL, *hx = NULL, *hy = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &x, A->cols, type, CSR_DEVICE));
  CHECK_OK(ctx, csr_vector_create(ctx, &y, A->rows, type, CSR_DEVICE));
  CHECK_OK(ctx, csr_fill(ctx, 1.0, x));
  CHECK_OK(ctx, csr_spmv(ctx, 1.0, D, x, 0.0, y));
  CHECK_OK(ref, csr_vector_create(ref, &hx, A->cols, type, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &hy, A->rows, type, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 1.0, hx));
  CHECK_OK(ref, csr_spmv(ref, 1.0, A, hx, 0.0, hy));
  csr_vector *got = csrt_host_vector(y);
  int64_t bad = -1;
  const double tol = type == CSR_F64 ? 1e-12 : 1e-6;
  for (int64_t i = 0; i < A->rows && bad < 0; i++) {
    double g = csrt_value(got->data, type, i), w = csrt_value(hy->data, type, i);
    if (!(fabs(g - w) <= tol * fabs(w)))
      bad = i;
  }
  CHECKF(bad < 0, "%s: y_%lld differs from the reference", what, (long long)bad);
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_vector_free(&hx);
  csr_vector_free(&hy);
  return got;
}

/* The tile starts kept with a matrix: AUTO's segmented and stream kernels, each matrix called in
 * f64, f32 (other tiles) and f64 again, the f64 results the same bits; then more matrices than
 * the cache holds, and the first one again; then forgotten and called again. */
static void kept_tiles(csr_context *ctx, csr_context *ref, csrt_rng *rng) {
  enum { MATRICES = 10 };
  const int64_t rows = getenv("CSR_GPU_QUICK") ? 4000 : 120000;
  csr_matrix *A[MATRICES], *D[MATRICES];
  csr_vector *first[MATRICES];
  int64_t *len = malloc((size_t)rows * sizeof *len);
  for (int m = 0; m < MATRICES; m++) {
    for (int64_t i = 0; i < rows; i++) /* even: short rows (stream); odd: a few long (segmented) */
      len[i] = m % 2 == 0     ? 12 + (int64_t)csrt_below(rng, 8)
               : i % 997 == 0 ? 3000
                              : (int64_t)csrt_below(rng, 6);
    A[m] = csrt_from_row_lengths(ref, rows, rows, len, CSR_PATTERN, CSRT_CONSTANT, rng);
    CHECK_OK(ctx, csr_matrix_copy(ctx, A[m], &D[m], CSR_DEVICE));
    csr_spmv_choice c;
    CHECK_OK(ctx, csr_spmv_choose(ctx, D[m], &c));
    CHECKF(c.kernel == (m % 2 == 0 ? CSR_KERNEL_STREAM : CSR_KERNEL_SEGMENTED),
           "matrix %d: AUTO chose %s", m, csr_spmv_kernel_name(c.kernel));
    first[m] = checked_spmv(ctx, ref, A[m], D[m], CSR_F64, "first f64 call");
    csr_vector *again = checked_spmv(ctx, ref, A[m], D[m], CSR_F64, "kept tiles");
    csr_vector *f32 = checked_spmv(ctx, ref, A[m], D[m], CSR_F32, "f32 tiles");
    csr_vector *back = checked_spmv(ctx, ref, A[m], D[m], CSR_F64, "f64 after f32");
    CHECKF(memcmp(first[m]->data, again->data, (size_t)rows * 8) == 0 &&
               memcmp(first[m]->data, back->data, (size_t)rows * 8) == 0,
           "matrix %d: kept tile starts gave other bits", m);
    csr_vector_free(&again);
    csr_vector_free(&f32);
    csr_vector_free(&back);
  }
  for (int m = 0; m < 2; m++) { /* pushed out of the cache by the later ones, then forgotten */
    for (int round = 0; round < 2; round++) {
      csr_vector *y = checked_spmv(ctx, ref, A[m], D[m], CSR_F64, "after eviction");
      CHECKF(memcmp(first[m]->data, y->data, (size_t)rows * 8) == 0,
             "matrix %d, round %d: other bits after the cache dropped it", m, round);
      csr_vector_free(&y);
      csr_context_forget_matrix(ctx, D[m]);
    }
  }
  for (int m = 0; m < MATRICES; m++) {
    csr_vector_free(&first[m]);
    csr_matrix_free(&A[m]);
    csr_matrix_free(&D[m]);
  }
  free(len);
}

int main(void) {
  if (!csr_backend_available(CSR_BACKEND_CUDA) || !csr_cuda_device_present()) {
    printf("gpu_choice: no CUDA device (or CUDA backend not built): skipped\n");
    return 77;
  }
  csrt_rng rng = {csrt_seed("gpu_choice")};
  csr_context *ctx = csrt_context(CSR_BACKEND_AUTO), *ref = csrt_context(CSR_BACKEND_REF);
  CHECK_OK(ctx, csr_context_set_debug_sync(ctx, 1));
  shapes(ctx, ref, &rng);
  errors(ctx, ref, &rng);
  kept_tiles(ctx, ref, &rng);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("gpu_choice");
}
