/* SPDX-License-Identifier: BSD-3-Clause */
#define _POSIX_C_SOURCE 200809L /* setenv */
/* csr_spsv_analyze and csr_spsv on one backend (argv: ref, omp, cuda): lower and upper triangles
 * of random general matrices (unsorted, duplicates, the other triangle to ignore), stored and
 * unit diagonals, F64, F32 and pattern, alpha != 1; structured triangles (diagonal: one level;
 * bidiagonal: a level a row; a chain of 10^5 rows; the 2D Laplacian; rows without off-diagonal
 * entries; wide and narrow levels mixed). Each x is checked bit for bit against the formula the
 * header states, written here as a plain substitution over A, and, where the matrix is small,
 * against a dense
 * substitution and LAPACKE's dtrtrs; against the reference backend and across thread counts bit
 * for bit; then NaN, alpha = 0, and the errors (zero, missing and non-finite pivots named by row,
 * shapes, types, NULLs). On the CUDA backend the solves run on device copies, with both
 * schedules (synchronization-free and level by level), checked bit for bit run to run and within
 * rounding of the substitution; a plan and vectors in two places are refused. */
#include "testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CSR_TEST_HAVE_LAPACKE
#include <lapacke.h>
#endif

static csr_backend backend;
static csr_context *ref; /* the reference backend, for bitwise comparisons */
static csrt_rng rng;

/* --- matrices ------------------------------------------------------------------------------- */

/* A host F64 matrix grown row by row (unsorted and with duplicates as given). */
typedef struct rows_builder {
  int64_t n, nnz, cap;
  int64_t *off;
  int32_t *col;
  double *val;
} rows_builder;

static void builder_init(rows_builder *b, int64_t n) {
  b->n = n;
  b->nnz = 0;
  b->cap = 16;
  b->off = calloc((size_t)n + 1, sizeof *b->off);
  b->col = malloc((size_t)b->cap * sizeof *b->col);
  b->val = malloc((size_t)b->cap * sizeof *b->val);
  if (!b->off || !b->col || !b->val)
    abort();
}
/* Appends (row i, j, v); rows must come in order. */
static void add(rows_builder *b, int64_t i, int64_t j, double v) {
  if (b->nnz == b->cap) {
    b->cap *= 2;
    b->col = realloc(b->col, (size_t)b->cap * sizeof *b->col);
    b->val = realloc(b->val, (size_t)b->cap * sizeof *b->val);
    if (!b->col || !b->val)
      abort();
  }
  b->col[b->nnz] = (int32_t)j;
  b->val[b->nnz++] = v;
  b->off[i + 1] = b->nnz;
}
/* The matrix in `type` (pattern: the structure alone); frees the builder. */
static csr_matrix *build(rows_builder *b, csr_value_type type) {
  for (int64_t i = 0; i < b->n; i++)
    if (b->off[i + 1] < b->off[i])
      b->off[i + 1] = b->off[i]; /* rows that got no entry */
  csr_matrix *A = NULL;
  CHECK_OK(ref, csr_matrix_create(ref, &A, b->n, b->n, b->nnz, type, CSR_HOST));
  memcpy(A->row_offsets, b->off, ((size_t)b->n + 1) * sizeof *b->off);
  memcpy(A->col_indices, b->col, (size_t)b->nnz * sizeof *b->col);
  for (int64_t k = 0; k < b->nnz; k++)
    if (type == CSR_F64)
      ((double *)A->values)[k] = b->val[k];
    else if (type == CSR_F32)
      ((float *)A->values)[k] = (float)b->val[k];
  A->flags = 0;
  free(b->off);
  free(b->col);
  free(b->val);
  return A;
}

static int in_triangle(csr_triangle t, int64_t i, int64_t j) {
  return t == CSR_LOWER ? j < i : j > i;
}

/* A random n x n general matrix: up to `per_row` off-diagonal entries a row in both triangles
 * (columns repeat), values scaled so each triangle's row is dominated by its diagonal; the
 * diagonal stored (in 1 to 3 pieces that sum to d, 1 <= |d| < 2) unless the row is one of those
 * `no_diagonal` picks out. Entries of a row in random order. */
static csr_matrix *random_general(int64_t n, int per_row, int no_diagonal, csr_value_type type) {
  rows_builder b;
  builder_init(&b, n);
  for (int64_t i = 0; i < n; i++) {
    int64_t count = (int64_t)csrt_below(&rng, (uint64_t)per_row + 1);
    if (csrt_below(&rng, 8) == 0)
      count = 0; /* rows with nothing off the diagonal */
    int pieces = no_diagonal && csrt_below(&rng, 4) == 0 ? 0 : 1 + (int)csrt_below(&rng, 3);
    double d = csrt_uniform(&rng, 1.0, 2.0) * (csrt_below(&rng, 2) ? 1.0 : -1.0);
    int64_t total = count + pieces, start = b.nnz;
    for (int64_t e = 0; e < total; e++) {
      if (e < pieces) {
        double piece = pieces == 1 ? d : e == 0 ? 0.75 * d : e == 1 ? 0.5 * d : -0.25 * d;
        add(&b, i, i, piece);
      } else {
        add(&b, i, (int64_t)csrt_below(&rng, (uint64_t)n),
            csrt_uniform(&rng, -1.0, 1.0) / (2.0 * (double)(count + 1)));
      }
    }
    for (int64_t e = total - 1; e > 0; e--) { /* shuffle the row */
      int64_t f = (int64_t)csrt_below(&rng, (uint64_t)e + 1);
      int32_t c = b.col[start + e];
      double v = b.val[start + e];
      b.col[start + e] = b.col[start + f];
      b.val[start + e] = b.val[start + f];
      b.col[start + f] = c;
      b.val[start + f] = v;
    }
    b.off[i + 1] = b.nnz;
  }
  return build(&b, type);
}

/* Diagonal d_i in [1, 2) and, when `band`, a_{i,i-1} and a_{i,i+1} in [-0.5, 0.5): every row of
 * the lower (upper) triangle reads the one before (after) it. */
static csr_matrix *banded(int64_t n, int band, csr_value_type type) {
  rows_builder b;
  builder_init(&b, n);
  for (int64_t i = 0; i < n; i++) {
    if (band && i > 0)
      add(&b, i, i - 1, csrt_uniform(&rng, -0.5, 0.5));
    add(&b, i, i, csrt_uniform(&rng, 1.0, 2.0));
    if (band && i + 1 < n)
      add(&b, i, i + 1, csrt_uniform(&rng, -0.5, 0.5));
    b.off[i + 1] = b.nnz;
  }
  return build(&b, type);
}

/* Lower triangle with levels of very different widths: rows [0, w) independent (level 0), a
 * chain of c rows after them (levels 1 .. c), then w rows each reading the chain's end and a row
 * of the first block (level c + 1). */
static csr_matrix *mixed_levels(int64_t w, int64_t c) {
  int64_t n = 2 * w + c;
  rows_builder b;
  builder_init(&b, n);
  for (int64_t i = 0; i < n; i++) {
    if (i >= w && i < w + c)
      add(&b, i, i == w ? 0 : i - 1, csrt_uniform(&rng, -0.5, 0.5));
    if (i >= w + c) {
      add(&b, i, w + c - 1, csrt_uniform(&rng, -0.25, 0.25));
      add(&b, i, (int64_t)csrt_below(&rng, (uint64_t)w), csrt_uniform(&rng, -0.25, 0.25));
    }
    add(&b, i, i, csrt_uniform(&rng, 1.0, 2.0));
  }
  return build(&b, CSR_F64);
}

/* --- oracles -------------------------------------------------------------------------------- */

/* The levels as the header defines them, found by repeated sweeps (independent of the library's
 * single pass in substitution order). */
static int64_t levels_by_sweeps(const csr_matrix *A, csr_triangle t) {
  int64_t n = A->rows, *level = calloc((size_t)n + 1, sizeof *level), top = n ? 1 : 0;
  /* Sweeps alternate in direction, so that each triangle settles in one or two of them. */
  for (int sweep = 0, changed = 1; changed; sweep++) {
    changed = 0;
    for (int64_t step = 0; step < n; step++) {
      int64_t i = sweep % 2 == 0 ? step : n - 1 - step;
      for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
        int64_t j = A->col_indices[k];
        if (in_triangle(t, i, j) && level[j] + 1 > level[i]) {
          level[i] = level[j] + 1;
          changed = 1;
          if (level[i] + 1 > top)
            top = level[i] + 1;
        }
      }
    }
  }
  free(level);
  return top;
}

/* The header's formula, row by row in substitution order, reading A directly: s = sum of a_ij x_j
 * over the row's stored entries in the triangle (stored order, double), x_i = (alpha b_i - s) /
 * (the row's diagonal entries summed in stored order), rounded to x's type. */
static void substitute(const csr_matrix *A, csr_triangle t, csr_diagonal dg, double alpha,
                       const csr_vector *b, csr_vector *x) {
  int64_t n = A->rows;
  for (int64_t step = 0; step < n; step++) {
    int64_t i = t == CSR_LOWER ? step : n - 1 - step;
    double s = 0.0, d = 0.0;
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int64_t j = A->col_indices[k];
      double a = csrt_value(A->values, A->value_type, k);
      if (j == i)
        d += a;
      else if (in_triangle(t, i, j))
        s += a * csrt_value(x->data, x->value_type, j);
    }
    double r = alpha * csrt_value(b->data, b->value_type, i) - s;
    csrt_set_value(x, i, dg == CSR_DIAGONAL_UNIT ? r : r / d);
  }
}

/* The triangle as a dense row-major n x n array (duplicates summed; unit: 1 on the diagonal). */
static double *dense_triangle(const csr_matrix *A, csr_triangle t, csr_diagonal dg) {
  int64_t n = A->rows;
  double *T = calloc((size_t)(n * n) + 1, sizeof *T);
  for (int64_t i = 0; i < n; i++) {
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int64_t j = A->col_indices[k];
      if (in_triangle(t, i, j) || (j == i && dg == CSR_DIAGONAL_STORED))
        T[i * n + j] += csrt_value(A->values, A->value_type, k);
    }
    if (dg == CSR_DIAGONAL_UNIT)
      T[i * n + i] = 1.0;
  }
  return T;
}

/* Dense forward / backward substitution of T y = alpha b in double, columns in index order. */
static void dense_solve(const double *T, int64_t n, csr_triangle t, double alpha, const double *b,
                        double *y) {
  for (int64_t step = 0; step < n; step++) {
    int64_t i = t == CSR_LOWER ? step : n - 1 - step;
    double s = alpha * b[i];
    for (int64_t j = 0; j < n; j++)
      if (in_triangle(t, i, j))
        s -= T[i * n + j] * y[j];
    y[i] = s / T[i * n + i];
  }
}

static double max_diff(const csr_vector *x, const double *y) {
  double m = 0.0;
  for (int64_t i = 0; i < x->n; i++) {
    double d = fabs(csrt_value(x->data, x->value_type, i) - y[i]);
    if (!(d <= m))
      m = d; /* NaN wins */
  }
  return m;
}

static double max_diff_vectors(const csr_vector *x, const csr_vector *y) {
  double m = 0.0;
  for (int64_t i = 0; i < x->n; i++) {
    double d = fabs(csrt_value(x->data, x->value_type, i) - csrt_value(y->data, y->value_type, i));
    if (!(d <= m))
      m = d;
  }
  return m;
}

static int same_bits(const csr_vector *x, const csr_vector *y) {
  return x->n == y->n && x->value_type == y->value_type &&
         (x->n == 0 ||
          memcmp(x->data, y->data, (size_t)x->n * csri_value_size(x->value_type)) == 0);
}

/* --- the solve, checked --------------------------------------------------------------------- */

/* The device solve: the same bits on every run (stale x overwritten), and the substitution's
 * x within rounding (the warp sums a row in another order than the CPU). */
static void check_device_solve(csr_context *ctx, const csr_spsv_plan *plan, double alpha,
                               const csr_vector *b, const csr_vector *expect) {
  int64_t n = b->n;
  csr_vector *bd = csrt_place_vector(backend, b), *first = NULL;
  double scale = 1.0;
  for (int64_t i = 0; i < n; i++)
    scale = fmax(scale, fabs(csrt_value(expect->data, expect->value_type, i)));
  double tol = (b->value_type == CSR_F64 ? 1e-12 : 1e-5) * scale;
  for (int run = 0; run < 3; run++) {
    csr_vector *h = csrt_random_vector(ref, n, b->value_type, &rng);
    csr_vector *xd = csrt_place_vector(backend, h), *x = NULL;
    CHECK_OK(ctx, csr_spsv(ctx, plan, alpha, bd, xd));
    x = csrt_host_vector(xd);
    double diff = max_diff_vectors(x, expect);
    CHECKF(diff <= tol, "device x differs from the substitution by %g (tolerance %g)", diff, tol);
    if (first == NULL)
      first = x;
    else {
      EXPECT(same_bits(x, first));
      csr_vector_free(&x);
    }
    csr_vector_free(&h);
    csr_vector_free(&xd);
  }
  csr_vector_free(&first);
  csr_vector_free(&bd);
}

/* A's triangle solved on the backend under test for a random b and `alpha`, with every thread
 * count of `threads`, against the formula (bits), the reference backend (bits), and for small n
 * the dense substitution and LAPACKE (tolerance). Returns the plan's level count. */
static int64_t check_solve(csr_context *ctx, const char *what, const csr_matrix *A, csr_triangle t,
                           csr_diagonal dg, csr_value_type vt, double alpha) {
  snprintf(csrt_case, sizeof csrt_case, "%s %s %s %s alpha %g", what,
           t == CSR_LOWER ? "lower" : "upper", dg == CSR_DIAGONAL_UNIT ? "unit" : "stored",
           vt == CSR_F64 ? "F64" : "F32", alpha);
  int64_t n = A->rows;
  csr_vector *b = csrt_random_vector(ref, n, vt, &rng), *expect = NULL, *ref_x = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &expect, n, vt, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &ref_x, n, vt, CSR_HOST));
  substitute(A, t, dg, alpha, b, expect);

  csr_spsv_plan *plan = NULL, *ref_plan = NULL;
  int gpu = csrt_location(backend) == CSR_DEVICE;
  csr_matrix *placed = gpu ? csrt_place_matrix(backend, A) : NULL;
  CHECK_OK(ctx, csr_spsv_analyze(ctx, gpu ? placed : A, t, dg, &plan));
  csr_matrix_free(&placed);
  CHECK_OK(ref, csr_spsv_analyze(ref, A, t, dg, &ref_plan));
  if (plan == NULL || ref_plan == NULL) {
    csr_vector_free(&b);
    csr_vector_free(&expect);
    csr_vector_free(&ref_x);
    csr_spsv_plan_free(&ref_plan);
    return -1;
  }
  int64_t levels = csr_spsv_levels(plan);
  EXPECT(levels == levels_by_sweeps(A, t));
  CHECK_OK(ref, csr_spsv(ref, ref_plan, alpha, b, ref_x));
  EXPECT(same_bits(ref_x, expect));

  if (gpu) { /* both schedules, each on a plan of its own */
    check_device_solve(ctx, plan, alpha, b, expect);
    csr_spsv_plan *other = NULL;
    const char *was = getenv("CSR_SPSV_SCHEDULE");
    setenv("CSR_SPSV_SCHEDULE", was != NULL && strcmp(was, "levels") == 0 ? "sync-free" : "levels",
           1);
    placed = csrt_place_matrix(backend, A);
    CHECK_OK(ctx, csr_spsv_analyze(ctx, placed, t, dg, &other));
    if (was != NULL)
      setenv("CSR_SPSV_SCHEDULE", was, 1);
    else
      unsetenv("CSR_SPSV_SCHEDULE");
    if (other != NULL)
      check_device_solve(ctx, other, alpha, b, expect);
    csr_spsv_plan_free(&other);
    csr_matrix_free(&placed);
  }
  static const int threads[] = {1, 2, 3, 4, 7};
  for (size_t k = 0; k < sizeof threads / sizeof threads[0] && !gpu; k++) {
    CHECK_OK(ctx, csr_context_set_threads(ctx, threads[k]));
    for (int run = 0; run < 2; run++) {
      csr_vector *x = csrt_random_vector(ref, n, vt, &rng); /* stale contents are overwritten */
      CHECK_OK(ctx, csr_spsv(ctx, plan, alpha, b, x));
      EXPECT(same_bits(x, expect));
      EXPECT(same_bits(x, ref_x));
      csr_vector_free(&x);
    }
  }
  CHECK_OK(ctx, csr_context_set_threads(ctx, 0));
  EXPECT(csr_context_last_backend(ctx) == backend);

  if (n <= 400) { /* the dense oracles */
    double *T = dense_triangle(A, t, dg), *bd = malloc(((size_t)n + 1) * sizeof *bd),
           *y = malloc(((size_t)n + 1) * sizeof *y), scale = 1.0;
    for (int64_t i = 0; i < n; i++)
      bd[i] = csrt_value(b->data, vt, i);
    dense_solve(T, n, t, alpha, bd, y);
    for (int64_t i = 0; i < n; i++)
      scale = fmax(scale, fabs(y[i]));
    double tol = (vt == CSR_F64 ? 1e-12 : 1e-5) * scale;
    EXPECT(max_diff(expect, y) <= tol);
#ifdef CSR_TEST_HAVE_LAPACKE
    if (n > 0) {
      for (int64_t i = 0; i < n; i++)
        y[i] = alpha * bd[i];
      lapack_int info = LAPACKE_dtrtrs(LAPACK_ROW_MAJOR, t == CSR_LOWER ? 'L' : 'U', 'N',
                                       dg == CSR_DIAGONAL_UNIT ? 'U' : 'N', (lapack_int)n, 1, T,
                                       (lapack_int)n, y, 1);
      EXPECT(info == 0);
      EXPECT(max_diff(expect, y) <= tol);
    }
#endif
    free(T);
    free(bd);
    free(y);
  }
  csr_spsv_plan_free(&plan);
  csr_spsv_plan_free(&ref_plan);
  EXPECT(plan == NULL);
  csr_vector_free(&b);
  csr_vector_free(&expect);
  csr_vector_free(&ref_x);
  return levels;
}

static void test_random(csr_context *ctx) {
  static const int64_t sizes[] = {1, 2, 7, 60, 333, 20000};
  static const double alphas[] = {1.0, -2.5, 0.3};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int vt = CSR_F64; vt <= CSR_F32; vt++)
      for (int unit = 0; unit < 2; unit++) {
        csr_matrix *A = random_general(sizes[s], 6, unit, (csr_value_type)vt);
        for (int t = CSR_LOWER; t <= CSR_UPPER; t++)
          check_solve(ctx, "random", A, (csr_triangle)t,
                      unit ? CSR_DIAGONAL_UNIT : CSR_DIAGONAL_STORED, (csr_value_type)vt,
                      alphas[(s + (size_t)t) % 3]);
        csr_matrix_free(&A);
      }
}

static void test_structured(csr_context *ctx) {
  /* Under a sanitizer (csrt_quick) the long chain is shorter: its rows are solved one level
   * at a time, and each level costs the instrumented kernels far more than it does here. */
  const int64_t wide = csrt_quick() ? 2000 : 50000, chain = csrt_quick() ? 1000 : 100000;
  csr_matrix *D = banded(wide, 0, CSR_F64); /* one wide level */
  CHECK(check_solve(ctx, "diagonal", D, CSR_LOWER, CSR_DIAGONAL_STORED, CSR_F64, 1.0) == 1);
  CHECK(check_solve(ctx, "diagonal", D, CSR_UPPER, CSR_DIAGONAL_UNIT, CSR_F64, -2.0) == 1);
  csr_matrix_free(&D);

  csr_matrix *B = banded(300, 1, CSR_F32); /* tridiagonal: each triangle is bidiagonal */
  CHECK(check_solve(ctx, "bidiagonal", B, CSR_LOWER, CSR_DIAGONAL_STORED, CSR_F32, 1.0) == 300);
  CHECK(check_solve(ctx, "bidiagonal", B, CSR_UPPER, CSR_DIAGONAL_STORED, CSR_F32, 0.5) == 300);
  csr_matrix_free(&B);

  csr_matrix *C = banded(chain, 1, CSR_F64); /* a chain of 10^5 rows */
  CHECK(check_solve(ctx, "chain", C, CSR_LOWER, CSR_DIAGONAL_STORED, CSR_F64, 1.0) == chain);
  CHECK(check_solve(ctx, "chain", C, CSR_UPPER, CSR_DIAGONAL_UNIT, CSR_F64, 3.0) == chain);
  csr_matrix_free(&C);

  csr_matrix *M = mixed_levels(6000, 40); /* wide, 40 narrow, wide */
  CHECK(check_solve(ctx, "mixed", M, CSR_LOWER, CSR_DIAGONAL_STORED, CSR_F64, 1.0) == 42);
  CHECK(check_solve(ctx, "mixed", M, CSR_UPPER, CSR_DIAGONAL_STORED, CSR_F64, 1.0) == 1);
  csr_matrix_free(&M);

  /* The 2D Laplacian on an m x m grid: row (i, j) reads (i - 1, j) and (i, j - 1), level i + j. */
  csr_matrix *L = csrt_poisson_2d(ref, 30, 0.0);
  CHECK(check_solve(ctx, "poisson", L, CSR_LOWER, CSR_DIAGONAL_STORED, CSR_F64, 1.0) == 59);
  CHECK(check_solve(ctx, "poisson", L, CSR_UPPER, CSR_DIAGONAL_STORED, CSR_F64, -1.0) == 59);
  csr_matrix_free(&L);

  csr_matrix *E = banded(0, 0, CSR_F64); /* empty */
  CHECK(check_solve(ctx, "empty", E, CSR_LOWER, CSR_DIAGONAL_STORED, CSR_F64, 1.0) == 0);
  csr_matrix_free(&E);

  /* A pattern matrix: its entries count as 1, with F64 or F32 vectors. */
  csr_matrix *P = banded(40, 1, CSR_PATTERN);
  CHECK(check_solve(ctx, "pattern", P, CSR_LOWER, CSR_DIAGONAL_STORED, CSR_F64, 1.0) == 40);
  CHECK(check_solve(ctx, "pattern", P, CSR_UPPER, CSR_DIAGONAL_UNIT, CSR_F32, 1.0) == 40);
  csr_matrix_free(&P);
}

/* Hand-checked: L = [2 0 0; 1 4 0; 0 3 8] stored with its upper part (to be ignored) and a
 * duplicated diagonal; L x = b for b = (2, 9, 46) is x = (1, 2, 5); unit: x = (2, 7, 25). */
static void test_small_by_hand(csr_context *ctx) {
  snprintf(csrt_case, sizeof csrt_case, "by hand");
  rows_builder b;
  builder_init(&b, 3);
  add(&b, 0, 2, 100.0);
  add(&b, 0, 0, 2.0);
  add(&b, 1, 1, 1.0);
  add(&b, 1, 0, 1.0);
  add(&b, 1, 2, -7.0);
  add(&b, 1, 1, 3.0);
  add(&b, 2, 2, 8.0);
  add(&b, 2, 1, 3.0);
  csr_matrix *A = build(&b, CSR_F64);
  double bv[3] = {2, 9, 46}, xv[3] = {0, 0, 0};
  csr_vector *bb = NULL, *x = NULL;
  CHECK_OK(ref, csr_vector_wrap(ref, &bb, 3, CSR_F64, CSR_HOST, bv));
  CHECK_OK(ref, csr_vector_wrap(ref, &x, 3, CSR_F64, CSR_HOST, xv));
  csr_spsv_plan *plan = NULL;
  CHECK_OK(ctx, csr_spsv_analyze(ctx, A, CSR_LOWER, CSR_DIAGONAL_STORED, &plan));
  CHECK(csr_spsv_levels(plan) == 3);
  CHECK_OK(ctx, csr_spsv(ctx, plan, 1.0, bb, x));
  EXPECT(xv[0] == 1.0 && xv[1] == 2.0 && xv[2] == 5.0);
  CHECK_OK(ctx, csr_spsv(ctx, plan, -2.0, bb, x));
  EXPECT(xv[0] == -2.0 && xv[1] == -4.0 && xv[2] == -10.0);
  csr_spsv_plan_free(&plan);
  CHECK_OK(ctx, csr_spsv_analyze(ctx, A, CSR_LOWER, CSR_DIAGONAL_UNIT, &plan));
  CHECK_OK(ctx, csr_spsv(ctx, plan, 1.0, bb, x));
  EXPECT(xv[0] == 2.0 && xv[1] == 7.0 && xv[2] == 25.0);
  csr_spsv_plan_free(&plan);
  /* Upper: U = [2 0 100; 0 4 -7; 0 0 8], b = (2, 9, 46): x = (-286.5, 12.3125, 5.75); rows 0
   * and 1 both read row 2 alone: two levels. */
  CHECK_OK(ctx, csr_spsv_analyze(ctx, A, CSR_UPPER, CSR_DIAGONAL_STORED, &plan));
  CHECK(csr_spsv_levels(plan) == 2);
  CHECK_OK(ctx, csr_spsv(ctx, plan, 1.0, bb, x));
  EXPECT(xv[2] == 5.75 && xv[1] == 12.3125 && xv[0] == -286.5);
  csr_spsv_plan_free(&plan);
  /* A freed after the analysis: the plan keeps its own copy. */
  CHECK_OK(ctx, csr_spsv_analyze(ctx, A, CSR_LOWER, CSR_DIAGONAL_STORED, &plan));
  csr_matrix_free(&A);
  xv[0] = xv[1] = xv[2] = 0.0;
  CHECK_OK(ctx, csr_spsv(ctx, plan, 1.0, bb, x));
  EXPECT(xv[0] == 1.0 && xv[1] == 2.0 && xv[2] == 5.0);

  /* NaN in b reaches the rows that depend on it; alpha == 0 writes zeros without reading b. */
  bv[1] = NAN;
  CHECK_OK(ctx, csr_spsv(ctx, plan, 1.0, bb, x));
  EXPECT(xv[0] == 1.0 && isnan(xv[1]) && isnan(xv[2]));
  CHECK_OK(ctx, csr_spsv(ctx, plan, 0.0, bb, x));
  EXPECT(xv[0] == 0.0 && xv[1] == 0.0 && xv[2] == 0.0);
  csr_spsv_plan_free(&plan);
  csr_vector_free(&bb);
  csr_vector_free(&x);
}

/* --- errors --------------------------------------------------------------------------------- */

static int says(const csr_context *ctx, const char *text) {
  return strstr(csr_context_last_message(ctx), text) != NULL;
}

/* Row `bad` of a 10-row lower bidiagonal changed: its diagonal dropped (value NAN: absent) or set
 * to `value` (in two entries that sum to it). */
static csr_matrix *with_bad_pivot(int64_t bad, double value, int absent) {
  rows_builder b;
  builder_init(&b, 10);
  for (int64_t i = 0; i < 10; i++) {
    if (i > 0)
      add(&b, i, i - 1, 1.0);
    if (i != bad)
      add(&b, i, i, 2.0);
    else if (!absent) {
      add(&b, i, i, 1.0);
      add(&b, i, i, value - 1.0);
    }
    b.off[i + 1] = b.nnz;
  }
  return build(&b, CSR_F64);
}

static void test_errors(csr_context *ctx) {
  snprintf(csrt_case, sizeof csrt_case, "errors");
  csr_spsv_plan *plan = NULL;
  csr_matrix *Z = with_bad_pivot(7, 0.0, 0); /* 1 + (-1): a zero pivot */
  CHECK_STATUS(ctx, csr_spsv_analyze(ctx, Z, CSR_LOWER, CSR_DIAGONAL_STORED, &plan),
               CSR_ERR_INVALID_MATRIX);
  EXPECT(plan == NULL && says(ctx, "row 7's diagonal entry is zero"));
  CHECK_OK(ctx, csr_spsv_analyze(ctx, Z, CSR_LOWER, CSR_DIAGONAL_UNIT, &plan)); /* ignored */
  csr_spsv_plan_free(&plan);
  csr_matrix_free(&Z);
  csr_matrix *M = with_bad_pivot(3, 0.0, 1);
  CHECK_STATUS(ctx, csr_spsv_analyze(ctx, M, CSR_UPPER, CSR_DIAGONAL_STORED, &plan),
               CSR_ERR_INVALID_MATRIX);
  EXPECT(says(ctx, "row 3 has no diagonal entry"));
  CHECK_OK(ctx, csr_spsv_analyze(ctx, M, CSR_UPPER, CSR_DIAGONAL_UNIT, &plan));
  csr_spsv_plan_free(&plan);
  csr_matrix_free(&M);
  csr_matrix *N = with_bad_pivot(0, NAN, 0), *Inf = with_bad_pivot(9, INFINITY, 0);
  CHECK_STATUS(ctx, csr_spsv_analyze(ctx, N, CSR_LOWER, CSR_DIAGONAL_STORED, &plan),
               CSR_ERR_INVALID_MATRIX);
  EXPECT(says(ctx, "row 0's diagonal entry is not finite"));
  CHECK_STATUS(ctx, csr_spsv_analyze(ctx, Inf, CSR_LOWER, CSR_DIAGONAL_STORED, &plan),
               CSR_ERR_INVALID_MATRIX);
  EXPECT(says(ctx, "row 9's diagonal entry is not finite"));
  csr_matrix_free(&N);
  csr_matrix_free(&Inf);

  csr_matrix *A = banded(10, 1, CSR_F64), *R = NULL;
  CHECK_OK(ref, csr_matrix_create(ref, &R, 10, 11, 0, CSR_F64, CSR_HOST));
  CHECK_STATUS(ctx, csr_spsv_analyze(ctx, R, CSR_LOWER, CSR_DIAGONAL_STORED, &plan),
               CSR_ERR_DIMENSION_MISMATCH);
  csr_matrix_free(&R);
  CHECK_STATUS(ctx, csr_spsv_analyze(ctx, NULL, CSR_LOWER, CSR_DIAGONAL_STORED, &plan),
               CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_spsv_analyze(ctx, A, CSR_LOWER, CSR_DIAGONAL_STORED, NULL),
               CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_spsv_analyze(ctx, A, (csr_triangle)2, CSR_DIAGONAL_STORED, &plan),
               CSR_ERR_INVALID_VALUE);
  CHECK_STATUS(ctx, csr_spsv_analyze(ctx, A, CSR_LOWER, (csr_diagonal)-1, &plan),
               CSR_ERR_INVALID_VALUE);
  A->col_indices[5] = 10; /* outside [0, 10) */
  CHECK_STATUS(ctx, csr_spsv_analyze(ctx, A, CSR_LOWER, CSR_DIAGONAL_STORED, &plan),
               CSR_ERR_INDEX_OUT_OF_BOUNDS);
  EXPECT(says(ctx, "entry 5"));
  A->col_indices[5] = 3;
  A->row_offsets[4] = A->row_offsets[5] + 1; /* decreasing */
  CHECK_STATUS(ctx, csr_spsv_analyze(ctx, A, CSR_LOWER, CSR_DIAGONAL_STORED, &plan),
               CSR_ERR_INVALID_MATRIX);
  csr_matrix_free(&A);

  /* Each allocation of the analysis failing in turn: CSR_ERR_OUT_OF_MEMORY and no plan, until
   * the analysis needs fewer allocations than the failure is set to wait for. */
  A = banded(10, 1, CSR_F64);
  int64_t failures = 0;
  for (int64_t k = 1; k < 32; k++) {
    csr_debug_fail_allocation_after(k);
    csr_status s = csr_spsv_analyze(ctx, A, CSR_LOWER, CSR_DIAGONAL_STORED, &plan);
    csr_debug_fail_allocation_after(0);
    CHECK(s >= 0 || (s == CSR_ERR_OUT_OF_MEMORY && plan == NULL)); /* a CUDA context declines */
    csr_spsv_plan_free(&plan);
    if (s >= 0)
      break;
    failures++;
  }
  CHECK(failures >= 5); /* the plan, its offsets, diagonal, columns, values, levels */
  CHECK(csr_spsv_analyze(ctx, A, CSR_LOWER, CSR_DIAGONAL_STORED, &plan) >= 0);
  csr_vector *b = csrt_random_vector(ref, 10, CSR_F64, &rng), *x = NULL, *short_x = NULL,
             *x32 = NULL, *b32 = csrt_random_vector(ref, 10, CSR_F32, &rng), *shifted = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &x, 10, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &short_x, 9, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &x32, 10, CSR_F32, CSR_HOST));
  CHECK_STATUS(ctx, csr_spsv(ctx, NULL, 1.0, b, x), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_spsv(ctx, plan, 1.0, NULL, x), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_spsv(ctx, plan, 1.0, b, NULL), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_spsv(ctx, plan, 1.0, b, short_x), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_STATUS(ctx, csr_spsv(ctx, plan, 1.0, short_x, x), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_STATUS(ctx, csr_spsv(ctx, plan, 1.0, b, x32), CSR_ERR_TYPE_MISMATCH);
  CHECK_STATUS(ctx, csr_spsv(ctx, plan, 1.0, b32, x32), CSR_ERR_TYPE_MISMATCH); /* F64 A */
  CHECK_STATUS(ctx, csr_spsv(ctx, plan, 1.0, b, b), CSR_ERR_INVALID_VALUE);
  CHECK_OK(ref, csr_vector_wrap(ref, &shifted, 10, CSR_F64, CSR_HOST, (double *)b->data + 1));
  CHECK_STATUS(ctx, csr_spsv(ctx, plan, 1.0, b, shifted), CSR_ERR_INVALID_VALUE);
  csr_vector_free(&shifted);

  /* Device operands made by hand (the arrays are never read): without the CUDA backend the
   * analysis is refused before any work; a host plan refuses device vectors wherever it runs. */
  csr_context *any = csrt_context(CSR_BACKEND_AUTO);
  csr_matrix Ad = *A;
  Ad.location = CSR_DEVICE;
  csr_spsv_plan *none = NULL;
  if (!csr_backend_available(CSR_BACKEND_CUDA)) {
    CHECK_STATUS(any, csr_spsv_analyze(any, &Ad, CSR_LOWER, CSR_DIAGONAL_STORED, &none),
                 CSR_ERR_NOT_COMPILED);
    CHECK(none == NULL);
  }
  csr_vector bd = *b, xd = *x;
  bd.location = xd.location = CSR_DEVICE;
  CHECK_STATUS(any, csr_spsv(any, plan, 1.0, &bd, &xd), CSR_ERR_LOCATION_MISMATCH);
  CHECK_STATUS(any, csr_spsv(any, plan, 1.0, b, &xd), CSR_ERR_LOCATION_MISMATCH);
  csr_context_free(&any);

  csr_spsv_plan_free(&plan);
  csr_spsv_plan_free(&plan); /* freeing twice, and NULL, is fine */
  csr_spsv_plan_free(NULL);
  CHECK(csr_spsv_levels(NULL) == 0);
  csr_matrix_free(&A);
  csr_vector_free(&b);
  csr_vector_free(&b32);
  csr_vector_free(&x);
  csr_vector_free(&short_x);
  csr_vector_free(&x32);
}

/* A plan and vectors in two places are refused, either way round. */
static void test_places(csr_context *ctx) {
  snprintf(csrt_case, sizeof csrt_case, "places");
  csr_matrix *A = banded(10, 1, CSR_F64), *Ad = csrt_place_matrix(backend, A);
  csr_vector *b = csrt_random_vector(ref, 10, CSR_F64, &rng), *x = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &x, 10, CSR_F64, CSR_HOST));
  csr_vector *bd = csrt_place_vector(backend, b), *xd = csrt_place_vector(backend, x);
  csr_spsv_plan *host_plan = NULL, *device_plan = NULL;
  CHECK(csr_spsv_analyze(ctx, A, CSR_LOWER, CSR_DIAGONAL_STORED, &host_plan) >= 0); /* declined */
  CHECK_OK(ctx, csr_spsv_analyze(ctx, Ad, CSR_LOWER, CSR_DIAGONAL_STORED, &device_plan));
  CHECK_STATUS(ctx, csr_spsv(ctx, host_plan, 1.0, bd, xd), CSR_ERR_LOCATION_MISMATCH);
  EXPECT(says(ctx, "the plan was made for a matrix on the host"));
  CHECK_STATUS(ctx, csr_spsv(ctx, device_plan, 1.0, b, x), CSR_ERR_LOCATION_MISMATCH);
  EXPECT(says(ctx, "the plan was made for a matrix on the device"));
  csr_spsv_plan_free(&host_plan);
  csr_spsv_plan_free(&device_plan);
  csr_vector_free(&b);
  csr_vector_free(&x);
  csr_vector_free(&bd);
  csr_vector_free(&xd);
  csr_matrix_free(&Ad);
  csr_matrix_free(&A);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  rng.state = csrt_seed("backend_spsv");
  csr_context *ctx = csrt_context(backend);
  ref = csrt_context(CSR_BACKEND_REF);
  if (csrt_location(backend) == CSR_DEVICE && csrt_part(argc, argv, "places"))
    test_places(ctx);
  /* The hand-worked solves and the argument checks use host operands: on the CUDA backend they
   * run on a CPU context (a CUDA one would decline them to it). */
  csr_context *host = csrt_location(backend) == CSR_DEVICE ? csrt_context(CSR_BACKEND_OMP) : ctx;
  if (csrt_part(argc, argv, "small"))
    test_small_by_hand(host);
  if (csrt_part(argc, argv, "random"))
    test_random(ctx);
  if (csrt_part(argc, argv, "structured"))
    test_structured(ctx);
  if (csrt_part(argc, argv, "errors"))
    test_errors(host);
  if (host != ctx)
    csr_context_free(&host);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_spsv");
}
