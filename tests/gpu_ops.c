/* SPDX-License-Identifier: BSD-3-Clause */
/* What only the GPU has of SpMV and the vector operations (label gpu); the operations themselves
 * are checked on every backend by tests/backend_spmv.c and tests/backend_vector_ops.c. Here: a
 * matrix of 2^20 rows (thousands of blocks) with each kernel, SpMV against cuSPARSE (CSR ALG2, an
 * independent GPU implementation) where the test links it, vectors longer than one grid of the
 * element-wise kernels (grid-stride loops) and than one wave of the reductions, the segmented
 * and stream kernels on the shapes that stress their partitions (one row holding most entries, a
 * row of more than 2^24 entries, rows around the tiles' lengths and the longest row the stream
 * kernel stages, every other row empty, runs of empty rows, a tall matrix of 64 columns), each
 * repeated for the same bits. Tolerances: element-wise operations give the CPU's
 * bits; an SpMV row differs from the reference by at most 16 eps (len + 2) (|alpha| sum_j |a_ij
 * x_j| + |beta y_i|), eps of the vector type; reductions by 4 n eps of the sum of magnitudes. */
#include "kernels/spmv_tuning.h"
#include "testing.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef CSR_TEST_HAVE_CUSPARSE
#include <cuda_runtime.h>
#include <cusparse.h>
#endif

static csr_vector *to_device(csr_context *ctx, const csr_vector *h) {
  csr_vector *d = NULL;
  CHECK_OK(ctx, csr_vector_clone(ctx, h, &d, CSR_DEVICE));
  return d;
}

static csr_vector *to_host(csr_context *ctx, const csr_vector *d) {
  csr_vector *h = NULL;
  CHECK_OK(ctx, csr_vector_clone(ctx, d, &h, CSR_HOST));
  return h;
}

static double eps_of(csr_value_type t) {
  return t == CSR_F32 ? FLT_EPSILON : DBL_EPSILON;
}

/* Row-wise comparison of y (device result, on the host now) with yref, for y = alpha A x +
 * beta y0. Returns the number of rows beyond the tolerance (and prints the first). */
static int64_t spmv_mismatches(const csr_matrix *A, const csr_vector *x, const csr_vector *y0,
                               double alpha, double beta, const csr_vector *y,
                               const csr_vector *yref, const char *what) {
  int64_t bad = 0;
  for (int64_t i = 0; i < A->rows; i++) {
    double mag = 0.0;
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      mag += fabs(csrt_value(A->values, A->value_type, k) *
                  csrt_value(x->data, x->value_type, A->col_indices[k]));
    int64_t len = A->row_offsets[i + 1] - A->row_offsets[i];
    double old = beta == 0.0 ? 0.0 : fabs(beta * csrt_value(y0->data, y0->value_type, i));
    double tol = 16 * eps_of(y->value_type) * (double)(len + 2) * (fabs(alpha) * mag + old);
    double got = csrt_value(y->data, y->value_type, i);
    double want = csrt_value(yref->data, yref->value_type, i);
    if (!(fabs(got - want) <= tol)) {
      if (bad++ == 0)
        printf("  %s: row %lld: %.17g, reference %.17g (tolerance %.3g)\n", what, (long long)i, got,
               want, tol);
    }
  }
  return bad;
}

/* y = alpha A x + beta y on the device (kernel forced) against the reference on the host. */
static void check_spmv(csr_context *ctx, csr_context *ref, const csr_matrix *A,
                       csr_value_type vtype, csr_spmv_kernel kernel, double alpha, double beta,
                       int nan_y, csrt_rng *rng, const char *name) {
  csr_vector *x = csrt_random_vector(ref, A->cols, vtype, rng);
  csr_vector *y0 = csrt_random_vector(ref, A->rows, vtype, rng);
  if (nan_y)
    for (int64_t i = 0; i < y0->n; i += 3)
      vtype == CSR_F64 ? (((double *)y0->data)[i] = NAN) : (((float *)y0->data)[i] = NAN);
  csr_vector *yref = NULL;
  CHECK_OK(ref, csr_vector_clone(ref, y0, &yref, CSR_HOST));
  CHECK_OK(ref, csr_spmv(ref, alpha, A, x, beta, yref));
  csr_matrix *D = NULL;
  CHECK_OK(ctx, csr_matrix_copy(ctx, A, &D, CSR_DEVICE));
  csr_vector *xd = to_device(ctx, x), *yd = to_device(ctx, y0);
  CHECK_OK(ctx, csr_context_set_kernel(ctx, kernel));
  CHECK_OK(ctx, csr_spmv(ctx, alpha, D, xd, beta, yd));
  CHECK(csr_context_last_backend(ctx) == CSR_BACKEND_CUDA);
  csr_vector *y = to_host(ctx, yd);
  char what[160];
  snprintf(what, sizeof what, "%s type %d/%d kernel %d alpha %g beta %g%s", name,
           (int)A->value_type, (int)vtype, (int)kernel, alpha, beta, nan_y ? " NaN y" : "");
  int64_t bad = spmv_mismatches(A, x, y0, alpha, beta, y, yref, what);
  CHECKF(bad == 0, "%s: %lld rows differ", what, (long long)bad);
  /* The same call again gives the same bits (no atomics in the SpMV). */
  csr_vector *y2d = to_device(ctx, y0), *y2 = NULL;
  CHECK_OK(ctx, csr_spmv(ctx, alpha, D, xd, beta, y2d));
  y2 = to_host(ctx, y2d);
  CHECK(memcmp(y->data, y2->data, (size_t)y->n * (vtype == CSR_F64 ? 8 : 4)) == 0);
  CHECK_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
  csr_matrix_free(&D);
  csr_vector *all[] = {x, y0, yref, xd, yd, y, y2d, y2};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++)
    csr_vector_free(&all[k]);
}

/* 2^20 rows of 1 to 14 entries: thousands of blocks, every kernel, and y = alpha A x + beta y. */
static void spmv_many_blocks(csr_context *ctx, csr_context *ref, csrt_rng *rng) {
  if (getenv("CSR_GPU_QUICK")) /* under compute-sanitizer: too slow */
    return;
  int64_t rows = 1 << 20, *len = malloc((size_t)rows * sizeof *len);
  for (int64_t i = 0; i < rows; i++)
    len[i] = 1 + (int64_t)csrt_below(rng, 14);
  csr_matrix *A = csrt_from_row_lengths(ref, rows, rows, len, CSR_F32, CSRT_RANDOM, rng);
  for (int k = 0; k < csrt_spmv_kernel_count(); k++)
    check_spmv(ctx, ref, A, CSR_F32, csrt_spmv_kernel(k), 1.0, k == 2 ? 0.5 : 0.0, 0, rng,
               "2^20 rows");
  csr_matrix_free(&A);
  free(len);
}

/* The tiled kernels (segmented and stream) where their partitions have the most to get right:
 * rows spanning many tiles (whose sums the segmented fix-up assembles, and which the stream
 * kernel cannot stage), rows whose ends fall on tile and thread boundaries, rows either side of
 * the longest row the stream kernel stages, runs of empty rows (stream tiles of many rows), a row
 * past 2^24 entries (beyond float's exact integers: the kernels' counters are 64-bit). Each case
 * in f64, f32 and as a pattern, with beta = 0 over NaN and beta != 0. */
static void spmv_tiled(csr_context *ctx, csr_context *ref, csrt_rng *rng) {
  int quick = getenv("CSR_GPU_QUICK") != NULL;
  enum { CASES = 9 };
  const char *names[CASES] = {"one row holds half the entries",
                              "a row of 2^24 + 5 entries",
                              "rows around a tile (1792 and 2304 items)",
                              "every other row empty",
                              "64 columns, 2^18 rows",
                              "rows around the staged limit (256)",
                              "runs of 5000 empty rows",
                              "rows either side of 512 tiles (the fix-up's group sums)",
                              "rows of 3 to 5 tiles (several long fix-up runs a warp)"};
  for (int c = 0; c < CASES; c++) {
    int64_t rows = 0, cols = 0;
    int64_t *len = NULL;
    if (c == 0 || c == 1) {
      rows = quick ? 5000 : 200000;
      cols = rows;
      len = malloc((size_t)rows * sizeof *len);
      for (int64_t i = 0; i < rows; i++)
        len[i] = (int64_t)csrt_below(rng, 9);
      len[rows / 3] = c == 0 ? 4 * rows : (quick ? 70000 : ((int64_t)1 << 24) + 5);
    } else if (c == 2) {
      rows = 3000;
      cols = 4000;
      len = malloc((size_t)rows * sizeof *len);
      /* a tile is 256 x 7 items in f64 and 256 x 9 in f32, a row end being one of them */
      for (int64_t i = 0; i < rows; i++)
        len[i] = i % 5 ? (int64_t)csrt_below(rng, 8)
                       : (i % 10 ? 1791 : 2303) + (int64_t)csrt_below(rng, 3);
    } else if (c == 3) {
      rows = quick ? 4000 : 300001;
      cols = rows;
      len = malloc((size_t)rows * sizeof *len);
      for (int64_t i = 0; i < rows; i++)
        len[i] = i % 2 ? 0 : 1 + (int64_t)csrt_below(rng, 20);
    } else if (c == 4) {
      rows = quick ? 4096 : (int64_t)1 << 18;
      cols = 64;
      len = malloc((size_t)rows * sizeof *len);
      for (int64_t i = 0; i < rows; i++)
        len[i] = 1 + (int64_t)csrt_below(rng, 64);
    } else if (c == 5) {
      rows = quick ? 3000 : 60000;
      cols = 5000;
      len = malloc((size_t)rows * sizeof *len);
      for (int64_t i = 0; i < rows; i++) /* the last ones past the limit: an unstaged tile */
        len[i] = i % 7 ? (int64_t)csrt_below(rng, 40)
                       : CSRI_SPMV_STREAM_LONGEST - 3 + (int64_t)csrt_below(rng, 5);
    } else if (c == 7) {
      rows = 20000;
      cols = rows;
      len = malloc((size_t)rows * sizeof *len);
      for (int64_t i = 0; i < rows; i++)
        len[i] = (int64_t)csrt_below(rng, 9);
      /* 512 tiles hold 917504 items in f64 and 1179648 in f32: a row of 900000 spans fewer in
       * both, one of 1200000 more in both, one of 2500000 several groups of 256 */
      len[rows / 5] = 900000;
      len[2 * rows / 5] = 1200000;
      len[3 * rows / 5] = 2500000;
    } else if (c == 8) {
      /* each tile with a row end has a run of two or more carries: the fix-up's warps take
       * several such heads one after another */
      rows = quick ? 100 : 600;
      cols = 100000;
      len = malloc((size_t)rows * sizeof *len);
      for (int64_t i = 0; i < rows; i++)
        len[i] = 3 * 2304 + (int64_t)csrt_below(rng, 2 * 2304);
    } else {
      rows = quick ? 30000 : 400000;
      cols = rows;
      len = malloc((size_t)rows * sizeof *len);
      for (int64_t i = 0; i < rows; i++)
        len[i] = (i / 5000) % 2 ? 0 : (int64_t)csrt_below(rng, 30);
    }
    const csr_value_type types[3][2] = {
        {CSR_F64, CSR_F64}, {CSR_F32, CSR_F32}, {CSR_PATTERN, CSR_F64}};
    for (int t = 0; t < 3; t++) {
      if (c == 1 && t > 0)
        break; /* the 2^24 row once: its reference sum is slow on the host */
      csr_matrix *A = csrt_from_row_lengths(ref, rows, cols, len, types[t][0], CSRT_RANDOM, rng);
      /* AUTO too where the fix-up reads the longest row from the kept statistics */
      for (int i = 0; i < csrt_spmv_kernel_count(); i++) {
        const csr_spmv_kernel k = csrt_spmv_kernel(i);
        if (!csrt_spmv_kernel_tiled(k) && !(c == 7 && k == CSR_KERNEL_AUTO))
          continue;
        check_spmv(ctx, ref, A, types[t][1], k, 1.0, 0.0, 1, rng, names[c]);
        check_spmv(ctx, ref, A, types[t][1], k, -0.75, 1.5, 0, rng, names[c]);
      }
      csr_matrix_free(&A);
    }
    free(len);
  }
}

#ifdef CSR_TEST_HAVE_CUSPARSE
/* y = A x by cuSPARSE (CSR, 32-bit indices, ALG2: deterministic) on a copy of A. */
static csr_vector *cusparse_spmv(csr_context *ctx, const csr_matrix *A, const csr_vector *x) {
  int64_t n = A->rows, nnz = A->nnz;
  int32_t *off32 = malloc((size_t)(n + 1) * sizeof *off32);
  for (int64_t i = 0; i <= n; i++)
    off32[i] = (int32_t)A->row_offsets[i];
  int f64 = A->value_type == CSR_F64;
  size_t vsize = f64 ? 8 : 4;
  void *d_off = NULL, *d_col = NULL, *d_val = NULL, *d_x = NULL, *d_y = NULL, *buffer = NULL;
  cudaMalloc(&d_off, (size_t)(n + 1) * 4);
  cudaMalloc(&d_col, (size_t)nnz * 4 + 4);
  cudaMalloc(&d_val, (size_t)nnz * vsize + 8);
  cudaMalloc(&d_x, (size_t)A->cols * vsize + 8);
  cudaMalloc(&d_y, (size_t)n * vsize + 8);
  cudaMemcpy(d_off, off32, (size_t)(n + 1) * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, A->col_indices, (size_t)nnz * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_val, A->values, (size_t)nnz * vsize, cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x->data, (size_t)A->cols * vsize, cudaMemcpyHostToDevice);
  cusparseHandle_t handle;
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t vx, vy;
  cudaDataType dt = f64 ? CUDA_R_64F : CUDA_R_32F;
  double one64 = 1.0, zero64 = 0.0;
  float one32 = 1.0f, zero32 = 0.0f;
  const void *one = f64 ? (const void *)&one64 : (const void *)&one32;
  const void *zero = f64 ? (const void *)&zero64 : (const void *)&zero32;
  size_t bytes = 0;
  int ok = cusparseCreate(&handle) == CUSPARSE_STATUS_SUCCESS;
  ok = ok && cusparseCreateCsr(&mat, n, A->cols, nnz, d_off, d_col, d_val, CUSPARSE_INDEX_32I,
                               CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                               dt) == CUSPARSE_STATUS_SUCCESS;
  ok = ok && cusparseCreateDnVec(&vx, A->cols, d_x, dt) == CUSPARSE_STATUS_SUCCESS;
  ok = ok && cusparseCreateDnVec(&vy, n, d_y, dt) == CUSPARSE_STATUS_SUCCESS;
  ok = ok &&
       cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, one, mat, vx, zero, vy, dt,
                               CUSPARSE_SPMV_CSR_ALG2, &bytes) == CUSPARSE_STATUS_SUCCESS;
  ok = ok && cudaMalloc(&buffer, bytes + 8) == cudaSuccess;
  ok = ok && cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, one, mat, vx, zero, vy, dt,
                          CUSPARSE_SPMV_CSR_ALG2, buffer) == CUSPARSE_STATUS_SUCCESS;
  CHECKF(ok, "cuSPARSE SpMV failed");
  csr_vector *y = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &y, n, x->value_type, CSR_HOST));
  cudaMemcpy(y->data, d_y, (size_t)n * vsize, cudaMemcpyDeviceToHost);
  cusparseDestroySpMat(mat);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroy(handle);
  void *all[] = {d_off, d_col, d_val, d_x, d_y, buffer};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++)
    cudaFree(all[k]);
  free(off32);
  return y;
}

/* Ours on the device against cuSPARSE, same tolerance as against the reference. */
static void spmv_cusparse(csr_context *ctx, csr_context *ref, csrt_rng *rng) {
  const csr_spmv_kernel kernels[3] = {CSR_KERNEL_AUTO, CSR_KERNEL_SCALAR, CSR_KERNEL_VECTOR};
  const csrt_shape shapes[] = {CSRT_RANDOM_SQUARE, CSRT_RANDOM_WIDE, CSRT_DENSE_ROW,
                               CSRT_THRESHOLD_LENGTHS, CSRT_EMPTY_FIRST_LAST};
  for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
    for (int t = 0; t < 2; t++) {
      csr_value_type vt = t == 0 ? CSR_F64 : CSR_F32;
      csr_matrix *A = csrt_generate(ref, shapes[s], vt, CSRT_RANDOM, rng), *D = NULL;
      csr_vector *x = csrt_random_vector(ref, A->cols, vt, rng), *y0 = NULL;
      CHECK_OK(ref, csr_vector_create(ref, &y0, A->rows, vt, CSR_HOST));
      CHECK_OK(ref, csr_fill(ref, 0.0, y0));
      csr_vector *theirs = cusparse_spmv(ctx, A, x);
      CHECK_OK(ctx, csr_matrix_copy(ctx, A, &D, CSR_DEVICE));
      csr_vector *xd = to_device(ctx, x), *yd = to_device(ctx, y0);
      for (int k = 0; k < 3; k++) {
        CHECK_OK(ctx, csr_context_set_kernel(ctx, kernels[k]));
        CHECK_OK(ctx, csr_spmv(ctx, 1.0, D, xd, 0.0, yd));
        csr_vector *ours = to_host(ctx, yd);
        char what[96];
        snprintf(what, sizeof what, "vs cuSPARSE: %s type %d kernel %d", csrt_shape_name(shapes[s]),
                 (int)vt, (int)kernels[k]);
        int64_t bad = spmv_mismatches(A, x, y0, 1.0, 0.0, ours, theirs, what);
        CHECKF(bad == 0, "%s: %lld rows differ", what, (long long)bad);
        csr_vector_free(&ours);
      }
      CHECK_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
      csr_matrix_free(&A);
      csr_matrix_free(&D);
      csr_vector *all[] = {x, y0, theirs, xd, yd};
      for (size_t k = 0; k < sizeof all / sizeof *all; k++)
        csr_vector_free(&all[k]);
    }
}
#endif

/* --- vector operations ------------------------------------------------------------------------ */

static void set_value(csr_vector *v, int64_t i, double value) {
  if (v->value_type == CSR_F64)
    ((double *)v->data)[i] = value;
  else
    ((float *)v->data)[i] = (float)value;
}

static int same_bits(const csr_vector *a, const csr_vector *b) {
  return a->n == b->n &&
         memcmp(a->data, b->data, (size_t)a->n * (a->value_type == CSR_F64 ? 8 : 4)) == 0;
}

/* The element-wise operations give exactly the reference's bits. */
static void elementwise(csr_context *ctx, csr_context *ref, int64_t n, csr_value_type t,
                        csrt_rng *rng) {
  const double coef[][2] = {{1.5, -0.25}, {2.0, 0.0}, {0.0, 3.0}, {-1.0, 1.0}, {0.0, 0.0}};
  for (size_t c = 0; c < sizeof coef / sizeof *coef; c++) {
    csr_vector *x = csrt_random_vector(ref, n, t, rng), *y = csrt_random_vector(ref, n, t, rng);
    for (int64_t i = 0; i < n; i += 7) /* NaN where a zero coefficient must drop it */
      set_value(coef[c][0] == 0.0 ? x : y, i, coef[c][1] == 0.0 || coef[c][0] == 0.0 ? NAN : 0.5);
    csr_vector *xd = to_device(ctx, x), *yd = to_device(ctx, y);
    CHECK_OK(ref, csr_axpby(ref, coef[c][0], x, coef[c][1], y));
    CHECK_OK(ctx, csr_axpby(ctx, coef[c][0], xd, coef[c][1], yd));
    csr_vector *got = to_host(ctx, yd);
    CHECKF(same_bits(got, y), "axpby n %lld type %d alpha %g beta %g", (long long)n, (int)t,
           coef[c][0], coef[c][1]);
    csr_vector_free(&got);
    CHECK_OK(ref, csr_scale(ref, coef[c][0], y));
    CHECK_OK(ctx, csr_scale(ctx, coef[c][0], yd));
    got = to_host(ctx, yd);
    CHECKF(same_bits(got, y), "scale n %lld alpha %g", (long long)n, coef[c][0]);
    csr_vector_free(&got);
    CHECK_OK(ref, csr_fill(ref, coef[c][1], x));
    CHECK_OK(ctx, csr_fill(ctx, coef[c][1], xd));
    got = to_host(ctx, xd);
    CHECKF(same_bits(got, x), "fill n %lld", (long long)n);
    CHECK_OK(ctx, csr_copy(ctx, yd, xd)); /* device to device */
    csr_vector_free(&got);
    got = to_host(ctx, xd);
    CHECK(same_bits(got, y));
    csr_vector *all[] = {x, y, xd, yd, got};
    for (size_t k = 0; k < sizeof all / sizeof *all; k++)
      csr_vector_free(&all[k]);
  }
}

/* The reductions within 4 n eps of the sum of magnitudes (nrminf exactly), bit-reproducible. */
static void reductions(csr_context *ctx, csr_context *ref, int64_t n, csr_value_type t,
                       double scale, int with_nan, csrt_rng *rng) {
  csr_vector *x = csrt_random_vector(ref, n, t, rng), *y = csrt_random_vector(ref, n, t, rng);
  if (t == CSR_F64)
    for (int64_t i = 0; i < n; i++)
      ((double *)x->data)[i] *= scale;
  if (with_nan && n > 0)
    set_value(x, n / 2, NAN);
  csr_vector *xd = to_device(ctx, x), *yd = to_device(ctx, y);
  double want[4], got[4], again[4], mag[4] = {0, 0, 0, 0};
  CHECK_OK(ref, csr_dot(ref, x, y, &want[0]));
  CHECK_OK(ref, csr_nrm2(ref, x, &want[1]));
  CHECK_OK(ref, csr_nrm1(ref, x, &want[2]));
  CHECK_OK(ref, csr_nrminf(ref, x, &want[3]));
  for (int rep = 0; rep < 2; rep++) {
    double *out = rep == 0 ? got : again;
    CHECK_OK(ctx, csr_dot(ctx, xd, yd, &out[0]));
    CHECK_OK(ctx, csr_nrm2(ctx, xd, &out[1]));
    CHECK_OK(ctx, csr_nrm1(ctx, xd, &out[2]));
    CHECK_OK(ctx, csr_nrminf(ctx, xd, &out[3]));
  }
  for (int64_t i = 0; i < n; i++) {
    double a = csrt_value(x->data, t, i), b = csrt_value(y->data, t, i);
    mag[0] += fabs(a * b);
  }
  mag[1] = want[1];
  mag[2] = want[2];
  for (int k = 0; k < 4; k++) {
    double tol = k == 3 ? 0.0 : 4.0 * (double)(n + 2) * DBL_EPSILON * mag[k];
    int ok = with_nan && n > 0 ? isnan(got[k]) && isnan(want[k]) : fabs(got[k] - want[k]) <= tol;
    CHECKF(ok, "reduction %d n %lld type %d scale %g: %.17g, reference %.17g", k, (long long)n,
           (int)t, scale, got[k], want[k]);
    CHECK(memcmp(&got[k], &again[k], sizeof(double)) == 0);
  }
  csr_vector *all[] = {x, y, xd, yd};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++)
    csr_vector_free(&all[k]);
}

/* Past one grid of the element-wise kernels (CSRI_VECTOR_MAX_BLOCKS x CSRI_VECTOR_THREADS = 2^20
 * entries: the grid-stride loop goes round three times) and past one wave of the reductions. */
static void vectors(csr_context *ctx, csr_context *ref, csrt_rng *rng) {
  const int64_t n = getenv("CSR_GPU_QUICK") ? (1 << 20) + 1 : 3000017;
  for (int t = 0; t < 2; t++) {
    csr_value_type vt = t == 0 ? CSR_F64 : CSR_F32;
    elementwise(ctx, ref, n, vt, rng);
    reductions(ctx, ref, n, vt, 1.0, 0, rng);
    reductions(ctx, ref, n, vt, 1.0, 1, rng);
  }
  reductions(ctx, ref, n, CSR_F64, 1e300, 0, rng); /* Blue's scaling over many blocks */
}

/* Operand errors: mixed locations, a CPU backend with device operands. */
static void errors(csr_context *ctx, csr_context *ref, csrt_rng *rng) {
  csr_matrix *A = csrt_generate(ref, CSRT_RANDOM_SQUARE, CSR_F64, CSRT_RANDOM, rng), *D = NULL;
  csr_vector *x = csrt_random_vector(ref, A->cols, CSR_F64, rng), *y = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &y, A->rows, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_matrix_copy(ctx, A, &D, CSR_DEVICE));
  csr_vector *xd = to_device(ctx, x), *yd = to_device(ctx, y);
  CHECK_STATUS(ctx, csr_spmv(ctx, 1.0, D, x, 0.0, yd), CSR_ERR_LOCATION_MISMATCH);
  CHECK_STATUS(ref, csr_spmv(ref, 1.0, D, xd, 0.0, yd), CSR_ERR_LOCATION_MISMATCH);
  csr_matrix_free(&A);
  csr_matrix_free(&D);
  csr_vector *all[] = {x, y, xd, yd};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++)
    csr_vector_free(&all[k]);
}

int main(void) {
  if (!csr_backend_available(CSR_BACKEND_CUDA) || !csr_cuda_device_present()) {
    printf("gpu_ops: no CUDA device (or CUDA backend not built): skipped\n");
    return 77;
  }
  csrt_rng rng = {csrt_seed("gpu_ops")};
  csr_context *ctx = csrt_context(CSR_BACKEND_AUTO), *ref = csrt_context(CSR_BACKEND_REF);
  CHECK_OK(ctx, csr_context_set_debug_sync(ctx, 1));
  spmv_many_blocks(ctx, ref, &rng);
  spmv_tiled(ctx, ref, &rng);
#ifdef CSR_TEST_HAVE_CUSPARSE
  /* racecheck reports cuSPARSE's own shared-memory hazards (csrmv_v3_kernel): run_gpu.sh sets
   * CSR_GPU_SKIP_CUSPARSE for it, so that what it reports is ours. */
  const char *skip = getenv("CSR_GPU_SKIP_CUSPARSE");
  if (skip == NULL || *skip == '\0')
    spmv_cusparse(ctx, ref, &rng);
#else
  printf("gpu_ops: built without cuSPARSE: the comparison with it is skipped\n");
#endif
  vectors(ctx, ref, &rng);
  errors(ctx, ref, &rng);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("gpu_ops");
}
