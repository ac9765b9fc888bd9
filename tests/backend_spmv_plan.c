/* SPDX-License-Identifier: BSD-3-Clause */
/* Backend tier of the planned SpMV (csr_spmv_analyze, csr_spmv_run) on the backend of argv[1]:
 *  - packed: bit for bit what csr_spmv gives on the same backend with the same kernel (every
 *    kernel forced in turn on the GPU), on every generator shape and type combination, on chunks
 *    whose columns span just under and just over 2^16, and on a row past 2^24 entries;
 *  - the solvers (csr_solve's compress option): the same iterates as on plain CSR;
 *  - the plan's figures: chunks and escapes against a direct count, AUTO's choice from its
 *    saving, values changed after the analysis read in place;
 *  - AUTO falling back to plain CSR when the packed index does not fit;
 *  - bad arguments refused with their message. */
#include "kernels/packed_layout.h"
#include "testing.h"

#include <stdlib.h>
#include <string.h>

static csr_backend backend;
static csr_context *ref;

static const csr_value_type combos[4][2] = {
    {CSR_F64, CSR_F64}, {CSR_F32, CSR_F32}, {CSR_PATTERN, CSR_F64}, {CSR_PATTERN, CSR_F32}};
static int kernel_count(void) {
  return backend == CSR_BACKEND_CUDA ? csrt_spmv_kernel_count() : 1;
}

static int same_bits(const csr_vector *a, const csr_vector *b) {
  size_t bytes = (size_t)a->n * (a->value_type == CSR_F64 ? 8 : 4);
  return a->n == b->n && (bytes == 0 || memcmp(a->data, b->data, bytes) == 0);
}

/* y = 1.5 A x - 0.5 y0 by csr_spmv and by the plan, with every kernel: the same bits. P is A
 * where the backend runs. */
static void compare(csr_context *ctx, const csr_matrix *P, const csr_spmv_plan *plan,
                    csr_value_type vtype, csrt_rng *rng, const char *what) {
  csr_vector *x = csrt_random_vector(ref, P->cols, vtype, rng);
  csr_vector *y0 = csrt_random_vector(ref, P->rows, vtype, rng);
  csr_vector *xp = csrt_place_vector(backend, x), *plain = csrt_place_vector(backend, y0),
             *packed = csrt_place_vector(backend, y0);
  for (int kernel = 0; kernel < kernel_count(); kernel++) {
    CHECK_OK(ctx, csr_context_set_kernel(ctx, csrt_spmv_kernel(kernel)));
    csrt_set_vector(plain, y0);
    csrt_set_vector(packed, y0);
    CHECK_OK(ctx, csr_spmv(ctx, 1.5, P, xp, -0.5, plain));
    CHECK_OK(ctx, csr_spmv_run(ctx, plan, 1.5, xp, -0.5, packed));
    csr_vector *a = csrt_host_vector(plain), *b = csrt_host_vector(packed);
    CHECKF(same_bits(a, b), "%s, kernel %d: the plan's y differs from csr_spmv's", what,
           (int)csrt_spmv_kernel(kernel));
    csr_vector_free(&a);
    csr_vector_free(&b);
  }
  CHECK_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
  csr_vector_free(&x);
  csr_vector_free(&y0);
  csr_vector_free(&xp);
  csr_vector_free(&plain);
  csr_vector_free(&packed);
}

/* The chunks of A that escape, by a direct walk of its columns. */
static int64_t escapes_of(const csr_matrix *A) {
  int64_t escaped = 0;
  for (int64_t c = 0; c * CSRI_PACK_CHUNK < A->nnz; c++) {
    int64_t low = INT64_MAX, high = INT64_MIN;
    for (int64_t k = c * CSRI_PACK_CHUNK; k < A->nnz && k < (c + 1) * CSRI_PACK_CHUNK; k++) {
      low = A->col_indices[k] < low ? A->col_indices[k] : low;
      high = A->col_indices[k] > high ? A->col_indices[k] : high;
    }
    escaped += high - low >= 65536;
  }
  return escaped;
}

/* The share of a product's streamed bytes that packing A saves: values and columns, the row
 * offsets, x and y once each (x as F64 for a pattern matrix). */
static double saving(const csr_matrix *A) {
  const double value = A->value_type == CSR_F64 ? 8 : A->value_type == CSR_F32 ? 4 : 0;
  const double vector = A->value_type == CSR_F32 ? 4 : 8, nnz = (double)A->nnz;
  const double rest = 8.0 * (double)(A->rows + 1) + vector * (double)(A->rows + A->cols);
  const double plain = nnz * (value + 4) + rest;
  if (A->nnz == 0)
    return 0.0;
  return 1.0 - (nnz * value + (double)csri_pack_bytes(A->nnz, escapes_of(A)) + rest) / plain;
}

/* Plans of A with each compress setting, checked against csr_spmv and the direct counts. */
static void check_plans(csr_context *ctx, const csr_matrix *A, csr_value_type vtype, csrt_rng *rng,
                        const char *what) {
  csr_matrix *P = csrt_place_matrix(backend, A);
  const csr_compress settings[] = {CSR_COMPRESS_ON, CSR_COMPRESS_AUTO, CSR_COMPRESS_OFF};
  for (int s = 0; s < 3; s++) {
    csr_spmv_plan *plan = NULL;
    CHECK_OK(ctx, csr_spmv_analyze(ctx, P, settings[s], &plan));
    csr_spmv_plan_info info;
    CHECK_OK(ctx, csr_spmv_plan_describe(plan, &info));
    const int64_t chunks = csri_pack_chunks(A->nnz), escaped = escapes_of(A);
    if (settings[s] == CSR_COMPRESS_ON)
      CHECKF(info.packed == (A->nnz > 0) && info.chunks == chunks &&
                 info.escaped_chunks == escaped &&
                 info.index_bytes == (A->nnz > 0 ? (double)csri_pack_bytes(A->nnz, escaped) : 0),
             "%s: packed %d, %lld chunks, %lld escaped, %g index bytes (%lld, %lld expected)", what,
             info.packed, (long long)info.chunks, (long long)info.escaped_chunks, info.index_bytes,
             (long long)chunks, (long long)escaped);
    if (settings[s] == CSR_COMPRESS_OFF)
      CHECKF(!info.packed && info.index_bytes == 4.0 * (double)A->nnz, "%s: OFF packed", what);
    if (settings[s] == CSR_COMPRESS_AUTO) { /* packed exactly when it saves enough, for a kernel
                                              that gains: a row kernel on the GPU */
      int row_kernel = 0;
      if (P->location == CSR_DEVICE && A->nnz > 0) {
        csr_spmv_choice choice;
        CHECK_OK(ctx, csr_spmv_choose(ctx, P, &choice));
        row_kernel = choice.kernel == CSR_KERNEL_SCALAR || choice.kernel == CSR_KERNEL_VECTOR;
      }
      CHECKF(info.packed == (A->nnz > 0 && row_kernel && saving(A) >= CSR_SPMV_PACK_SAVING),
             "%s: AUTO packed %d (saving %g): %s", what, info.packed, saving(A), info.reason);
    }
    CHECKF(info.reason[0] != '\0' && info.setup_seconds >= 0.0, "%s: no reason", what);
    compare(ctx, P, plan, vtype, rng, what);
    csr_spmv_plan_free(&plan);
    CHECK(plan == NULL);
  }
  csr_matrix_free(&P);
}

static void test_shapes(csr_context *ctx, csrt_rng *rng) {
  for (int shape = 0; shape < CSRT_SHAPE_COUNT; shape++)
    for (int combo = 0; combo < 4; combo++) {
      csr_matrix *A = csrt_generate(ref, (csrt_shape)shape, combos[combo][0], CSRT_RANDOM, rng);
      char what[128];
      snprintf(what, sizeof what, "%s combo %d", csrt_shape_name((csrt_shape)shape), combo);
      check_plans(ctx, A, combos[combo][1], rng, what);
      csr_matrix_free(&A);
    }
}

/* Rows of exactly one chunk each: row r spans [r * 1000, r * 1000 + span) with both ends
 * present, so every chunk fits (span <= 2^16) or every one escapes (span > 2^16). */
static csr_matrix *banded(int64_t rows, int64_t span, csr_value_type type, csrt_rng *rng) {
  const int64_t cols = rows * 1000 + span;
  int64_t *lengths = malloc((size_t)rows * sizeof *lengths);
  for (int64_t r = 0; r < rows; r++)
    lengths[r] = CSRI_PACK_CHUNK;
  csr_matrix *A = csrt_from_row_lengths(ref, rows, cols, lengths, type, CSRT_RANDOM, rng);
  for (int64_t r = 0; r < rows; r++) { /* columns ascending from r * 1000 to r * 1000 + span - 1 */
    int32_t *c = A->col_indices + A->row_offsets[r];
    c[0] = (int32_t)(r * 1000);
    for (int64_t k = 1; k < CSRI_PACK_CHUNK - 1; k++)
      c[k] = (int32_t)(r * 1000 + 1 + (span - 2) * k / (CSRI_PACK_CHUNK - 1));
    c[CSRI_PACK_CHUNK - 1] = (int32_t)(r * 1000 + span - 1);
  }
  free(lengths);
  return A;
}

static void test_spans(csr_context *ctx, csrt_rng *rng) {
  const int64_t spans[] = {65535, 65536, 65537, 200000};
  for (int s = 0; s < 4; s++)
    for (int combo = 0; combo < 4; combo++) {
      csr_matrix *A = banded(40, spans[s], combos[combo][0], rng);
      CHECKF(escapes_of(A) == (spans[s] > 65536 ? 40 : 0), "span %lld: %lld escapes",
             (long long)spans[s], (long long)escapes_of(A));
      char what[64];
      snprintf(what, sizeof what, "span %lld combo %d", (long long)spans[s], combo);
      check_plans(ctx, A, combos[combo][1], rng, what);
      csr_matrix_free(&A);
    }
}

/* One row of 2^24 + 300 entries (a float accumulator stops adding ones at 2^24), and a short
 * one after it, pattern and F32. */
static void test_long_row(csr_context *ctx, csrt_rng *rng) {
  const int64_t lengths[] = {(1 << 24) + 300, 3}, cols = 1 << 21;
  for (int f32 = 0; f32 < 2; f32++) {
    csr_matrix *A =
        csrt_from_row_lengths(ref, 2, cols, lengths, f32 ? CSR_F32 : CSR_PATTERN, CSRT_RANDOM, rng);
    check_plans(ctx, A, f32 ? CSR_F32 : CSR_F64, rng, f32 ? "long row, F32" : "long row, pattern");
    csr_matrix_free(&A);
  }
}

/* The plan reads A's values in place: changed after the analysis, the product sees them. */
static void test_values_in_place(csr_context *ctx, csrt_rng *rng) {
  csr_matrix *A = banded(30, 1000, CSR_F64, rng);
  csr_matrix *P = csrt_place_matrix(backend, A);
  csr_spmv_plan *plan = NULL;
  CHECK_OK(ctx, csr_spmv_analyze(ctx, P, CSR_COMPRESS_ON, &plan));
  csr_vector *fresh = csrt_random_vector(ref, A->nnz, CSR_F64, rng), *values = NULL;
  CHECK_OK(ctx, csr_vector_wrap(ctx, &values, P->nnz, CSR_F64, P->location, P->values));
  CHECK_OK(ctx, csr_copy(ctx, fresh, values));
  memcpy(A->values, fresh->data, (size_t)A->nnz * sizeof(double));
  compare(ctx, P, plan, CSR_F64, rng, "values changed after the analysis");
  /* and against the reference on the changed host matrix, within rounding */
  csr_vector *x = csrt_random_vector(ref, A->cols, CSR_F64, rng), *want = NULL;
  csr_vector *xp = csrt_place_vector(backend, x), *y = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &want, A->rows, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_vector_create(ctx, &y, A->rows, CSR_F64, P->location));
  CHECK_OK(ref, csr_spmv(ref, 1.0, A, x, 0.0, want));
  CHECK_OK(ctx, csr_spmv_run(ctx, plan, 1.0, xp, 0.0, y));
  csr_vector *got = csrt_host_vector(y);
  double worst = 0.0;
  for (int64_t i = 0; i < A->rows; i++) {
    double d = ((double *)got->data)[i] - ((double *)want->data)[i];
    worst = d > worst ? d : -d > worst ? -d : worst;
  }
  CHECKF(worst <= 1e-12, "values changed after the analysis: off by %g", worst);
  csr_vector_free(&got);
  csr_vector_free(&y);
  csr_vector_free(&want);
  csr_vector_free(&xp);
  csr_vector_free(&x);
  csr_vector_free(&values);
  csr_vector_free(&fresh);
  csr_spmv_plan_free(&plan);
  csr_matrix_free(&P);
  csr_matrix_free(&A);
}

/* The solvers and their products with A read the packed index when asked (or AUTO finds it
 * pays): the iterates, the iteration count and the residual the same bits as on plain CSR, for
 * CG, Jacobi PCG, BiCGSTAB, GMRES and PCG with ILU(0), in F64 and F32. */
static void test_solvers(csr_context *ctx, csrt_rng *rng) {
  const csr_solver_method methods[] = {CSR_SOLVER_CG, CSR_SOLVER_PCG_JACOBI, CSR_SOLVER_BICGSTAB,
                                       CSR_SOLVER_GMRES, CSR_SOLVER_CG};
  /* A smaller grid under a sanitizer (csrt_quick): fewer iterations, each of many launches. */
  csr_matrix *A64 = csrt_convection_diffusion(ref, 2, csrt_quick() ? 10 : 40, 0.0), *A32 = NULL;
  CHECK_OK(ref, csr_matrix_create(ref, &A32, A64->rows, A64->cols, A64->nnz, CSR_F32, CSR_HOST));
  memcpy(A32->row_offsets, A64->row_offsets, (size_t)(A64->rows + 1) * sizeof(int64_t));
  memcpy(A32->col_indices, A64->col_indices, (size_t)A64->nnz * sizeof(int32_t));
  for (int64_t k = 0; k < A64->nnz; k++)
    ((float *)A32->values)[k] = (float)((double *)A64->values)[k];
  A32->flags = A64->flags;
  for (int f32 = 0; f32 < 2; f32++)
    for (int m = 0; m < 5; m++) {
      const csr_matrix *A = f32 ? A32 : A64;
      const csr_value_type vt = f32 ? CSR_F32 : CSR_F64;
      csr_vector *b = csrt_random_vector(ref, A->rows, vt, rng), *x[2] = {NULL, NULL};
      csr_solver_info info[2];
      for (int packed = 0; packed < 2; packed++) {
        CHECK_OK(ref, csr_vector_create(ref, &x[packed], A->rows, vt, CSR_HOST));
        CHECK_OK(ref, csr_fill(ref, 0.0, x[packed]));
        csr_solver_options o;
        csr_solver_options_init(&o);
        o.method = methods[m];
        o.preconditioner = m == 4 ? CSR_PRECOND_ILU0 : CSR_PRECOND_NONE;
        o.rtol = f32 ? 1e-5 : 1e-10;
        o.compress = packed ? CSR_COMPRESS_ON : CSR_COMPRESS_OFF;
        csr_status s = csrt_solve_placed(backend, ctx, A, b, x[packed], &o, &info[packed]);
        CHECKF(s == CSR_SUCCESS, "method %d%s: status %d", m, f32 ? " f32" : "", (int)s);
      }
      CHECKF(info[1].packed == 1 && info[0].packed == 0 &&
                 info[0].iterations == info[1].iterations &&
                 info[0].residual_norm == info[1].residual_norm && same_bits(x[0], x[1]),
             "method %d%s: packed %d/%d, %lld and %lld iterations, residuals %g and %g", m,
             f32 ? " f32" : "", info[0].packed, info[1].packed, (long long)info[0].iterations,
             (long long)info[1].iterations, info[0].residual_norm, info[1].residual_norm);
      csr_vector_free(&b);
      csr_vector_free(&x[0]);
      csr_vector_free(&x[1]);
    }
  csr_matrix_free(&A64);
  csr_matrix_free(&A32);
}

/* AUTO whose packed index does not fit stays plain: with each allocation of the analysis failing
 * in turn, the call either reports CSR_ERR_OUT_OF_MEMORY with no plan (the plan itself, the
 * kernel's statistics) or succeeds, plain when the packing's allocation failed, saying why; and
 * its products are csr_spmv's. On the GPU, where AUTO packs for a row kernel, some failure must
 * land in the packing. */
static void test_room(csr_context *ctx, csrt_rng *rng) {
  csr_matrix *A = banded(200, 1000, CSR_F64, rng), *P = csrt_place_matrix(backend, A);
  int fell_back = 0, packs = 0;
  for (int64_t n = 1; n < 200; n++) {
    csr_spmv_plan *plan = NULL;
    csr_context_forget_matrix(ctx, P); /* the kernel's statistics are computed every time */
    csr_debug_fail_allocation_after(n);
    csr_status s = csr_spmv_analyze(ctx, P, CSR_COMPRESS_AUTO, &plan);
    const int64_t made = csr_debug_allocation_count();
    csr_debug_fail_allocation_after(0);
    CHECKF(s == CSR_SUCCESS || (s == CSR_ERR_OUT_OF_MEMORY && plan == NULL),
           "allocation %lld failing: status %d", (long long)n, (int)s);
    if (s == CSR_SUCCESS) {
      csr_spmv_plan_info info;
      CHECK_OK(ctx, csr_spmv_plan_describe(plan, &info));
      fell_back |= !info.packed && strstr(info.reason, "did not fit") != NULL;
      packs |= info.packed;
      compare(ctx, P, plan, CSR_F64, rng, "AUTO after a failed allocation");
    }
    csr_spmv_plan_free(&plan);
    if (made < n) /* the failure never fired: the analysis ran to its end */
      break;
  }
  if (packs) /* AUTO packs this matrix here: a failure in the packing fell back */
    CHECK(fell_back);
  csr_matrix_free(&P);
  csr_matrix_free(&A);
}

static void test_errors(csr_context *ctx, csrt_rng *rng) {
  csr_matrix *A = banded(3, 100, CSR_F64, rng), *P = csrt_place_matrix(backend, A);
  csr_spmv_plan *plan = (csr_spmv_plan *)A; /* overwritten with NULL on every refusal */
  CHECK_STATUS(ctx, csr_spmv_analyze(ctx, NULL, CSR_COMPRESS_ON, &plan), CSR_ERR_NULL_POINTER);
  CHECK(plan == NULL);
  CHECK_STATUS(ctx, csr_spmv_analyze(ctx, P, CSR_COMPRESS_ON, NULL), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_spmv_analyze(ctx, P, (csr_compress)7, &plan), CSR_ERR_INVALID_VALUE);
  CHECK(plan == NULL);
  CHECK(strstr(csr_context_last_error(ctx), "compress 7") != NULL);
  CHECK_OK(ctx, csr_spmv_analyze(ctx, P, CSR_COMPRESS_ON, &plan));
  csr_vector *x = csrt_random_vector(ref, P->cols, CSR_F64, rng), *y = NULL;
  csr_vector *xp = csrt_place_vector(backend, x), *x32 = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &y, P->rows + 1, CSR_F64, csrt_location(backend)));
  CHECK_OK(ctx, csr_vector_create(ctx, &x32, P->cols, CSR_F32, csrt_location(backend)));
  CHECK_STATUS(ctx, csr_spmv_run(ctx, NULL, 1.0, xp, 0.0, y), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_spmv_run(ctx, plan, 1.0, xp, 0.0, y), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_STATUS(ctx, csr_spmv_run(ctx, plan, 1.0, x32, 0.0, y), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_STATUS(ctx, csr_spmv_run(ctx, plan, 1.0, xp, 0.0, NULL), CSR_ERR_NULL_POINTER);
  csr_spmv_plan_info info;
  CHECK(csr_spmv_plan_describe(NULL, &info) == CSR_ERR_NULL_POINTER);
  CHECK(csr_spmv_plan_describe(plan, NULL) == CSR_ERR_NULL_POINTER);
  csr_spmv_plan_free(&plan);
  csr_spmv_plan_free(&plan); /* twice, and NULL, are fine */
  csr_spmv_plan_free(NULL);
  csr_vector_free(&x);
  csr_vector_free(&xp);
  csr_vector_free(&x32);
  csr_vector_free(&y);
  csr_matrix_free(&P);
  csr_matrix_free(&A);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  csrt_rng rng = {csrt_seed("backend_spmv_plan")};
  csr_context *ctx = csrt_context(backend);
  ref = csrt_context(CSR_BACKEND_REF);
  if (csrt_part(argc, argv, "shapes"))
    test_shapes(ctx, &rng);
  if (csrt_part(argc, argv, "spans"))
    test_spans(ctx, &rng);
  if (csrt_part(argc, argv, "long") && !csrt_quick())
    test_long_row(ctx, &rng);
  if (csrt_part(argc, argv, "values"))
    test_values_in_place(ctx, &rng);
  if (csrt_part(argc, argv, "solvers"))
    test_solvers(ctx, &rng);
  if (csrt_part(argc, argv, "room"))
    test_room(ctx, &rng);
  if (csrt_part(argc, argv, "errors"))
    test_errors(ctx, &rng);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_spmv_plan");
}
