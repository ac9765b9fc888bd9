/* The SpMV kernel choice on the GPU (label gpu): row statistics counted on the device equal the
 * host's (histogram, rows, nnz, longest, empty rows exactly; variance to rounding), so the device
 * matrix gets the host's choice; decreasing offsets are refused on the device too; the first
 * AUTO SpMV on a matrix fills the context's cache and the next calls reuse it. */
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
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("gpu_choice");
}
