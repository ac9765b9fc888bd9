/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_factor_compute and csr_factor_apply on one backend (argv: ref, omp, cuda; A where it runs):
 * ILU(0) and IC(0) of random diagonally dominant matrices (unsorted rows, duplicates, missing
 * diagonal entries), of the 2D Poisson matrix and of 3D convection-diffusion, each factor checked
 * against a dense elimination restricted to A's pattern (a tolerance) and against the reference
 * backend (bit for bit: every backend makes the same operations in the same order); M^-1 r
 * against dense triangular solves with those factors; the row matching and RCM renumbering (an
 * ILUT that drops nothing must invert A whatever the orders); the shift when a pivot fails (taken
 * automatically, refused with shift 0, named by row); the errors. */
#include "testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static csr_backend backend;
static csr_context *ref; /* the reference backend: the inputs, and the bits to match */
static csrt_rng rng;

static int says(const csr_context *ctx, const char *text) {
  return strstr(csr_context_last_message(ctx), text) != NULL;
}

/* --- matrices ------------------------------------------------------------------------------- */

/* n x n, about `per_row` random off-diagonal entries a row (columns may repeat; rows unsorted),
 * the diagonal in two pieces summing to +-(1 + the row's off-diagonal sum of magnitudes), or
 * absent in a row `holes` picks out; symmetric (values and pattern) when `symmetric`, the
 * diagonal then positive. */
static csr_matrix *random_matrix(int64_t n, int per_row, int symmetric, int holes) {
  int64_t cap = n * (2 * per_row + 2) + 1, count = 0;
  int32_t *r = malloc((size_t)cap * sizeof *r), *c = malloc((size_t)cap * sizeof *c);
  double *v = malloc((size_t)cap * sizeof *v), *rowsum = calloc((size_t)n + 1, sizeof *rowsum);
  for (int64_t i = 0; i < n; i++)
    for (int e = 0; e < per_row && n > 1; e++) {
      int64_t j = (int64_t)csrt_below(&rng, (uint64_t)n);
      if (j == i || (symmetric && j > i))
        continue;
      double x = csrt_uniform(&rng, -1.0, 1.0);
      r[count] = (int32_t)i, c[count] = (int32_t)j, v[count++] = x;
      rowsum[i] += fabs(x);
      if (symmetric) {
        r[count] = (int32_t)j, c[count] = (int32_t)i, v[count++] = x;
        rowsum[j] += fabs(x);
      }
    }
  for (int64_t i = 0; i < n; i++) {
    if (holes && csrt_below(&rng, 5) == 0)
      continue;
    double d = (1.0 + rowsum[i]) * (symmetric || csrt_below(&rng, 2) ? 1.0 : -1.0);
    r[count] = (int32_t)i, c[count] = (int32_t)i, v[count++] = 0.25 * d;
    r[count] = (int32_t)i, c[count] = (int32_t)i, v[count++] = 0.75 * d;
  }
  for (int64_t k = count - 1; k > 0; k--) { /* shuffle: each row's entries in random order */
    int64_t f = (int64_t)csrt_below(&rng, (uint64_t)k + 1);
    int32_t tr = r[k], tc = c[k];
    double tv = v[k];
    r[k] = r[f], c[k] = c[f], v[k] = v[f];
    r[f] = tr, c[f] = tc, v[f] = tv;
  }
  /* The CSR made by hand from the shuffled triples, grouped by row in their shuffled order (a
   * counting sort, stable): columns unsorted within a row, duplicates kept as separate entries
   * (csr_from_coo would sort and sum them). */
  csr_matrix *A = NULL;
  CHECK_OK(ref, csr_matrix_create(ref, &A, n, n, count, CSR_F64, CSR_HOST));
  for (int64_t k = 0; k < count; k++)
    A->row_offsets[r[k] + 1]++;
  for (int64_t i = 0; i < n; i++)
    A->row_offsets[i + 1] += A->row_offsets[i];
  int64_t *next = malloc(((size_t)n + 1) * sizeof *next);
  memcpy(next, A->row_offsets, (size_t)n * sizeof *next);
  for (int64_t k = 0; k < count; k++) {
    int64_t at = next[r[k]]++;
    A->col_indices[at] = c[k];
    ((double *)A->values)[at] = v[k];
  }
  A->flags = 0;
  free(next), free(r), free(c), free(v), free(rowsum);
  return A;
}

/* --- dense oracles -------------------------------------------------------------------------- */

/* A as a dense n x n array (duplicates summed) and its pattern (diagonal always in). */
static double *dense(const csr_matrix *A, char **pattern) {
  int64_t n = A->rows;
  double *D = calloc((size_t)(n * n) + 1, sizeof *D);
  char *P = calloc((size_t)(n * n) + 1, 1);
  for (int64_t i = 0; i < n; i++) {
    P[i * n + i] = 1;
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      D[i * n + A->col_indices[k]] += csrt_value(A->values, A->value_type, k);
      P[i * n + A->col_indices[k]] = 1;
    }
  }
  *pattern = P;
  return D;
}

/* ILU(0) in place on the dense D restricted to P (IKJ order), or IC(0) into its lower triangle,
 * after the diagonal shift alpha (against each row's largest stored |a_ij| of A). */
static void dense_factor(const csr_matrix *A, double *D, const char *P, int64_t n, int ic,
                         double alpha) {
  for (int64_t i = 0; i < n && alpha > 0.0; i++) {
    double big = 0.0;
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      big = fmax(big, fabs(csrt_value(A->values, A->value_type, k)));
    D[i * n + i] += (ic || D[i * n + i] >= 0.0 ? alpha : -alpha) * big;
  }
  for (int64_t i = 0; i < n; i++) {
    for (int64_t k = 0; k < i; k++) {
      if (!P[i * n + k])
        continue;
      double w = D[i * n + k] / D[k * n + k];
      D[i * n + k] = w;
      int64_t last = ic ? i : n - 1;
      for (int64_t j = k + 1; j <= last; j++)
        if (P[i * n + j] && (ic ? P[j * n + k] : P[k * n + j]))
          D[i * n + j] -= w * (ic ? D[j * n + k] : D[k * n + j]);
    }
    if (ic)
      D[i * n + i] = sqrt(D[i * n + i]);
  }
}

/* The largest |F(i,j) - D(i,j)| over the stored entries of the host F, relative to max |D|. */
static double factor_error(const csr_matrix *F, const double *D, int64_t n) {
  double worst = 0.0, big = 1e-300;
  for (int64_t k = 0; k < n * n; k++)
    big = fmax(big, fabs(D[k]));
  for (int64_t i = 0; i < n; i++)
    for (int64_t k = F->row_offsets[i]; k < F->row_offsets[i + 1]; k++) {
      double d = fabs(csrt_value(F->values, F->value_type, k) - D[i * n + F->col_indices[k]]);
      if (!(d <= worst))
        worst = d;
    }
  return worst / big;
}

static csr_matrix *host_copy(const csr_matrix *A) {
  csr_matrix *H = NULL;
  CHECK_OK(ref, csr_matrix_copy(ref, A, &H, CSR_HOST));
  return H;
}

static int same_matrix(const csr_matrix *A, const csr_matrix *B) {
  size_t size = A->value_type == CSR_F64 ? 8 : 4;
  return A->rows == B->rows && A->nnz == B->nnz &&
         memcmp(A->row_offsets, B->row_offsets, (size_t)(A->rows + 1) * 8) == 0 &&
         memcmp(A->col_indices, B->col_indices, (size_t)A->nnz * 4) == 0 &&
         memcmp(A->values, B->values, (size_t)A->nnz * size) == 0;
}

/* --- the checks ----------------------------------------------------------------------------- */

/* Factors A (host) on the backend and on the reference: the same bits; against the dense
 * elimination when n is small; M^-1 r against dense triangular solves with the dense factors.
 * `may_shift`: A has missing diagonal entries, and a pivot may fail without the shift. */
static void check_factor(csr_context *ctx, const char *what, const csr_matrix *A,
                         csr_factor_kind kind, int may_shift) {
  snprintf(csrt_case, sizeof csrt_case, "%s %s n %lld", what,
           kind == CSR_FACTOR_IC0 ? "IC(0)" : "ILU(0)", (long long)A->rows);
  csr_factor_options o;
  csr_factor_options_init(&o);
  o.kind = kind;
  o.ordering = CSR_FACTOR_ORDER_NATURAL;
  csr_matrix *placed = csrt_place_matrix(backend, A);
  csr_factor *F = NULL, *R = NULL;
  CHECK_OK(ctx, csr_factor_compute(ctx, placed, &o, &F));
  CHECK_OK(ref, csr_factor_compute(ref, A, &o, &R));
  if (F == NULL || R == NULL) {
    csr_factor_free(&F);
    csr_factor_free(&R);
    csr_matrix_free(&placed);
    return;
  }
  csr_factor_info fi, ri;
  CHECK_OK(ctx, csr_factor_get_info(F, &fi));
  CHECK_OK(ref, csr_factor_get_info(R, &ri));
  csr_matrix *L = host_copy(fi.L), *U = host_copy(fi.U);
  EXPECT(same_matrix(L, ri.L) && same_matrix(U, ri.U));
  EXPECT(fi.row_order == NULL && fi.shift == ri.shift && fi.attempts == ri.attempts);
  EXPECT((fi.shift > 0.0) == (fi.attempts > 1) && (may_shift || fi.attempts == 1));
  int64_t n = A->rows;
  if (n <= 300) {
    char *P = NULL;
    double *D = dense(A, &P);
    dense_factor(A, D, P, n, kind == CSR_FACTOR_IC0, fi.shift);
    double eL = factor_error(L, D, n), eU = kind == CSR_FACTOR_IC0 ? 0.0 : factor_error(U, D, n);
    CHECKF(eL <= 1e-13 && eU <= 1e-13, "factors differ from the dense elimination: %g %g", eL, eU);
    /* z = M^-1 r by dense substitutions with the dense factors. */
    csr_vector *r = csrt_random_vector(ref, n, CSR_F64, &rng), *z = NULL;
    csr_vector *rd = csrt_place_vector(backend, r), *zd = csrt_place_vector(backend, r);
    CHECK_OK(ctx, csr_factor_apply(ctx, F, rd, zd));
    z = csrt_host_vector(zd);
    double *y = malloc((size_t)n * sizeof *y + 1), scale = 1.0, worst = 0.0;
    const double *rv = r->data;
    for (int64_t i = 0; i < n; i++) { /* L y = r */
      double s = rv[i];
      for (int64_t j = 0; j < i; j++)
        s -= D[i * n + j] * y[j] * P[i * n + j];
      y[i] = kind == CSR_FACTOR_IC0 ? s / D[i * n + i] : s;
    }
    for (int64_t i = n - 1; i >= 0; i--) { /* U x = y (IC: L' x = y) */
      double s = y[i];
      for (int64_t j = i + 1; j < n; j++)
        s -= (kind == CSR_FACTOR_IC0 ? D[j * n + i] * P[j * n + i] : D[i * n + j] * P[i * n + j]) *
             y[j];
      y[i] = s / D[i * n + i];
      scale = fmax(scale, fabs(y[i]));
    }
    for (int64_t i = 0; i < n; i++)
      worst = fmax(worst, fabs(((double *)z->data)[i] - y[i]));
    CHECKF(worst <= 1e-11 * scale, "M^-1 r differs from the dense solves by %g", worst);
    free(y), free(D), free(P);
    csr_vector_free(&r), csr_vector_free(&z), csr_vector_free(&rd), csr_vector_free(&zd);
  }
  csr_matrix_free(&L);
  csr_matrix_free(&U);
  csr_factor_free(&F);
  csr_factor_free(&R);
  EXPECT(F == NULL);
  csr_matrix_free(&placed);
}

static void test_random(csr_context *ctx) {
  static const int64_t sizes[] = {1, 2, 9, 60, 250, 30000};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    csr_matrix *G = random_matrix(sizes[s], 5, 0, 0), *H = random_matrix(sizes[s], 5, 0, 1);
    csr_matrix *S = random_matrix(sizes[s], 4, 1, 0);
    check_factor(ctx, "random", G, CSR_FACTOR_ILU0, 0);
    check_factor(ctx, "random with holes", H, CSR_FACTOR_ILU0, 1);
    check_factor(ctx, "random SPD", S, CSR_FACTOR_IC0, 0);
    check_factor(ctx, "random SPD", S, CSR_FACTOR_ILU0, 0);
    csr_matrix_free(&G), csr_matrix_free(&H), csr_matrix_free(&S);
  }
}

static void test_structured(csr_context *ctx) {
  csr_matrix *P = csrt_poisson_2d(ref, 15, 0.0), *Q = csrt_poisson_2d(ref, 300, 0.0);
  check_factor(ctx, "poisson 15^2", P, CSR_FACTOR_IC0, 0);
  check_factor(ctx, "poisson 15^2", P, CSR_FACTOR_ILU0, 0);
  check_factor(ctx, "poisson 300^2", Q, CSR_FACTOR_IC0, 0);
  csr_matrix *C = csrt_convection_diffusion(ref, 3, 6, 50.0);
  csr_matrix *D = csrt_convection_diffusion(ref, 3, 40, 500.0);
  check_factor(ctx, "convection-diffusion 6^3", C, CSR_FACTOR_ILU0, 0);
  check_factor(ctx, "convection-diffusion 40^3", D, CSR_FACTOR_ILU0, 0);
  csr_matrix_free(&P), csr_matrix_free(&Q), csr_matrix_free(&C), csr_matrix_free(&D);
}

/* A with its rows in a random order (so its diagonal has holes; A is nonsingular); frees A. */
static csr_matrix *rows_shuffled(csr_matrix *A) {
  int64_t n = A->rows;
  int32_t *p = malloc((size_t)n * sizeof *p + 1);
  for (int64_t i = 0; i < n; i++)
    p[i] = (int32_t)i;
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t j = (int64_t)csrt_below(&rng, (uint64_t)i + 1);
    int32_t t = p[i];
    p[i] = p[j], p[j] = t;
  }
  csr_matrix *S = NULL;
  CHECK_OK(ref, csr_matrix_create(ref, &S, n, n, A->nnz, CSR_F64, CSR_HOST));
  int64_t at = 0;
  for (int64_t i = 0; i < n; i++) {
    for (int64_t k = A->row_offsets[p[i]]; k < A->row_offsets[p[i] + 1]; k++, at++) {
      S->col_indices[at] = A->col_indices[k];
      ((double *)S->values)[at] = ((double *)A->values)[k];
    }
    S->row_offsets[i + 1] = at;
  }
  free(p);
  csr_matrix_free(&A);
  return S;
}

static int is_permutation(const int32_t *p, int64_t n) {
  char *seen = calloc((size_t)n + 1, 1);
  int ok = 1;
  for (int64_t i = 0; i < n && ok; i++) {
    ok = p[i] >= 0 && p[i] < n && !seen[p[i]];
    if (ok)
      seen[p[i]] = 1;
  }
  free(seen);
  return ok;
}

/* ||A z - r|| / ||r|| for z = M^-1 r, r random, with M made where the backend runs. */
static double apply_error(csr_context *ctx, const csr_matrix *A, const csr_factor *F) {
  int64_t n = A->rows;
  csr_vector *r = csrt_random_vector(ref, n, CSR_F64, &rng), *z = NULL, *Az = NULL;
  csr_vector *rd = csrt_place_vector(backend, r), *zd = csrt_place_vector(backend, r);
  CHECK_OK(ctx, csr_factor_apply(ctx, F, rd, zd));
  z = csrt_host_vector(zd);
  CHECK_OK(ref, csr_vector_create(ref, &Az, n, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_spmv(ref, 1.0, A, z, 0.0, Az));
  double e = 0.0, rn = 0.0;
  for (int64_t i = 0; i < n; i++) {
    double d = ((double *)Az->data)[i] - ((double *)r->data)[i];
    e += d * d;
    rn += ((double *)r->data)[i] * ((double *)r->data)[i];
  }
  csr_vector_free(&r), csr_vector_free(&z), csr_vector_free(&Az);
  csr_vector_free(&rd), csr_vector_free(&zd);
  return sqrt(e / rn);
}

/* Row matching and RCM: the orders are permutations, and with nothing dropped (ILUT, tau 0, any
 * fill) M is A itself, so M^-1 solves A z = r whatever the orders. ILU(0) and IC(0) reordered by
 * RCM keep matching the reference bit for bit. */
static void test_orderings(csr_context *ctx) {
  static const int64_t sizes[] = {5, 40, 200};
  int pivoted = 0; /* factors whose columns ILUTP moved */
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    snprintf(csrt_case, sizeof csrt_case, "orderings n %lld", (long long)sizes[s]);
    csr_matrix *H = rows_shuffled(random_matrix(sizes[s], 4, 0, 0));
    csr_matrix *Hd = csrt_place_matrix(backend, H);
    csr_factor_options o;
    csr_factor_options_init(&o);
    o.kind = CSR_FACTOR_ILUT;
    o.drop_tolerance = 0.0;
    o.fill_factor = 1e6;
    /* Natural order, no renumbering: the zero diagonal is left to ILUTP's column pivots, whose
     * permutation alone must then reach M^-1. */
    o.ordering = CSR_FACTOR_ORDER_NATURAL;
    o.reordering = CSR_FACTOR_REORDER_NONE;
    o.pivot_threshold = 1.0;
    csr_factor *P = NULL;
    CHECK_OK(ctx, csr_factor_compute(ctx, Hd, &o, &P));
    if (P != NULL) {
      csr_factor_info info;
      CHECK_OK(ctx, csr_factor_get_info(P, &info));
      EXPECT(info.row_order == NULL &&
             (info.col_order == NULL || is_permutation(info.col_order, sizes[s])));
      pivoted += info.col_order != NULL;
      double e = apply_error(ctx, H, P);
      CHECKF(e <= 1e-10, "exact ILUTP, natural order: ||A M^-1 r - r|| / ||r|| = %g", e);
    }
    csr_factor_free(&P);
    o.ordering = CSR_FACTOR_ORDER_AUTO;
    o.pivot_threshold = 0.1;
    for (int reorder = CSR_FACTOR_REORDER_NONE; reorder <= CSR_FACTOR_REORDER_RCM; reorder++) {
      o.reordering = (csr_factor_reordering)reorder;
      csr_factor *F = NULL;
      CHECK_OK(ctx, csr_factor_compute(ctx, Hd, &o, &F));
      if (F == NULL)
        continue;
      csr_factor_info info;
      CHECK_OK(ctx, csr_factor_get_info(F, &info));
      EXPECT(info.row_order != NULL && is_permutation(info.row_order, sizes[s]));
      EXPECT(reorder == CSR_FACTOR_REORDER_NONE
                 ? info.col_order == NULL
                 : info.col_order != NULL && is_permutation(info.col_order, sizes[s]));
      double e = apply_error(ctx, H, F);
      CHECKF(e <= 1e-10, "exact ILUT, reordering %d: ||A M^-1 r - r|| / ||r|| = %g", reorder, e);
      csr_factor_free(&F);
    }
    csr_matrix *S = random_matrix(sizes[s], 4, 1, 0), *Sd = csrt_place_matrix(backend, S);
    for (int kind = CSR_FACTOR_ILU0; kind <= CSR_FACTOR_IC0; kind++) {
      csr_factor_options_init(&o);
      o.kind = (csr_factor_kind)kind;
      o.reordering = CSR_FACTOR_REORDER_RCM;
      csr_factor *F = NULL, *R = NULL;
      CHECK_OK(ctx, csr_factor_compute(ctx, Sd, &o, &F));
      CHECK_OK(ref, csr_factor_compute(ref, S, &o, &R));
      if (F != NULL && R != NULL) {
        csr_factor_info fi, ri;
        CHECK_OK(ctx, csr_factor_get_info(F, &fi));
        CHECK_OK(ref, csr_factor_get_info(R, &ri));
        csr_matrix *L = host_copy(fi.L);
        EXPECT(same_matrix(L, ri.L) && fi.row_order != NULL &&
               memcmp(fi.col_order, ri.col_order, (size_t)sizes[s] * 4) == 0);
        csr_matrix_free(&L);
        EXPECT(apply_error(ctx, S, F) < 1.0); /* a preconditioner, not the inverse */
      }
      csr_factor_free(&F), csr_factor_free(&R);
    }
    csr_matrix_free(&H), csr_matrix_free(&Hd), csr_matrix_free(&S), csr_matrix_free(&Sd);
  }
  EXPECT(pivoted > 0);
}

/* A 3 x 3 whose second pivot is zero: [1 1 0; 1 1 1; 0 1 2] (ILU(0) = LU here: u_11 = 0). The
 * automatic shift gets past it; shift 0 names row 1. */
static void test_shift(csr_context *ctx) {
  snprintf(csrt_case, sizeof csrt_case, "shift");
  csr_coo *T = NULL;
  const int32_t r[7] = {0, 0, 1, 1, 1, 2, 2}, c[7] = {0, 1, 0, 1, 2, 1, 2};
  const double v[7] = {1, 1, 1, 1, 1, 1, 2};
  CHECK_OK(ref, csr_coo_create(ref, &T, 3, 3, 7, CSR_F64, CSR_HOST));
  memcpy(T->row_indices, r, sizeof r);
  memcpy(T->col_indices, c, sizeof c);
  memcpy(T->values, v, sizeof v);
  csr_matrix *A = NULL;
  CHECK_OK(ref, csr_from_coo(ref, T, 0, &A));
  csr_coo_free(&T);
  csr_matrix *Ad = csrt_place_matrix(backend, A);
  csr_factor_options o;
  csr_factor_options_init(&o);
  csr_factor *F = NULL;
  CHECK_OK(ctx, csr_factor_compute(ctx, Ad, &o, &F));
  csr_factor_info info;
  if (F != NULL) {
    CHECK_OK(ctx, csr_factor_get_info(F, &info));
    EXPECT(info.shift == 1e-3 && info.attempts == 2);
  }
  csr_factor_free(&F);
  o.shift = 0.0;
  CHECK_STATUS(ctx, csr_factor_compute(ctx, Ad, &o, &F), CSR_ERR_INVALID_MATRIX);
  EXPECT(F == NULL && says(ctx, "ILU(0) failed at row 1"));
  o.kind = CSR_FACTOR_IC0; /* not positive definite: l_11^2 = 0 */
  CHECK_STATUS(ctx, csr_factor_compute(ctx, Ad, &o, &F), CSR_ERR_INVALID_MATRIX);
  EXPECT(F == NULL && says(ctx, "IC(0) failed at row 1") && says(ctx, "not positive"));
  o.shift = 0.5; /* a fixed shift large enough */
  CHECK_OK(ctx, csr_factor_compute(ctx, Ad, &o, &F));
  if (F != NULL) {
    CHECK_OK(ctx, csr_factor_get_info(F, &info));
    EXPECT(info.shift == 0.5 && info.attempts == 1);
  }
  csr_factor_free(&F);
  csr_matrix_free(&Ad);
  csr_matrix_free(&A);
}

static void test_errors(csr_context *ctx) {
  snprintf(csrt_case, sizeof csrt_case, "errors");
  csr_factor *F = NULL;
  csr_factor_options o;
  csr_factor_options_init(&o);
  csr_matrix *A = random_matrix(20, 3, 0, 0), *W = NULL, *Pt = NULL;
  CHECK_STATUS(ctx, csr_factor_compute(ctx, NULL, &o, &F), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_factor_compute(ctx, A, &o, NULL), CSR_ERR_NULL_POINTER);
  o.kind = (csr_factor_kind)7;
  CHECK_STATUS(ctx, csr_factor_compute(ctx, A, &o, &F), CSR_ERR_INVALID_VALUE);
  csr_factor_options_init(&o);
  o.shift = -2.0;
  CHECK_STATUS(ctx, csr_factor_compute(ctx, A, &o, &F), CSR_ERR_INVALID_VALUE);
  csr_factor_options_init(&o);
  o.fill_factor = 0.5;
  CHECK_STATUS(ctx, csr_factor_compute(ctx, A, &o, &F), CSR_ERR_INVALID_VALUE);
  csr_factor_options_init(&o);
  CHECK_OK(ref, csr_matrix_create(ref, &W, 3, 4, 0, CSR_F64, CSR_HOST));
  CHECK_STATUS(ctx, csr_factor_compute(ctx, W, &o, &F), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_OK(ref, csr_matrix_create(ref, &Pt, 3, 3, 0, CSR_PATTERN, CSR_HOST));
  CHECK_STATUS(ctx, csr_factor_compute(ctx, Pt, &o, &F), CSR_ERR_TYPE_MISMATCH);
  ((double *)A->values)[A->nnz / 2] = NAN;
  CHECK_STATUS(ctx, csr_factor_compute(ctx, A, &o, &F), CSR_ERR_INVALID_VALUE);
  EXPECT(F == NULL && says(ctx, "non-finite value"));
  csr_matrix_free(&A), csr_matrix_free(&W), csr_matrix_free(&Pt);
  /* apply: shapes, types, places */
  csr_matrix *B = csrt_poisson_2d(ref, 4, 0.0), *Bd = csrt_place_matrix(backend, B);
  CHECK_OK(ctx, csr_factor_compute(ctx, Bd, &o, &F));
  csr_vector *r = csrt_random_vector(ref, 16, CSR_F64, &rng), *s = NULL, *f = NULL;
  csr_vector *rd = csrt_place_vector(backend, r);
  CHECK_OK(ref, csr_vector_create(ref, &s, 15, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &f, 16, CSR_F32, CSR_HOST));
  csr_vector *sd = csrt_place_vector(backend, s), *fd = csrt_place_vector(backend, f);
  CHECK_STATUS(ctx, csr_factor_apply(ctx, F, rd, sd), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_STATUS(ctx, csr_factor_apply(ctx, F, rd, fd), CSR_ERR_TYPE_MISMATCH);
  CHECK_STATUS(ctx, csr_factor_apply(ctx, F, rd, rd), CSR_ERR_INVALID_VALUE);
  if (csrt_location(backend) == CSR_DEVICE)
    CHECK_STATUS(ctx, csr_factor_apply(ctx, F, r, r), CSR_ERR_LOCATION_MISMATCH);
  EXPECT(csr_factor_get_info(NULL, NULL) == CSR_ERR_NULL_POINTER);
  csr_factor_free(&F);
  csr_factor_free(&F); /* twice: a no-op */
  csr_vector_free(&r), csr_vector_free(&s), csr_vector_free(&f);
  csr_vector_free(&rd), csr_vector_free(&sd), csr_vector_free(&fd);
  csr_matrix_free(&B), csr_matrix_free(&Bd);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  rng.state = csrt_seed("backend_factor");
  csr_context *ctx = csrt_context(backend);
  ref = csrt_context(CSR_BACKEND_REF);
  if (csrt_part(argc, argv, "random"))
    test_random(ctx);
  if (csrt_part(argc, argv, "structured"))
    test_structured(ctx);
  if (csrt_part(argc, argv, "orderings"))
    test_orderings(ctx);
  if (csrt_part(argc, argv, "shift"))
    test_shift(ctx);
  if (csrt_part(argc, argv, "errors"))
    test_errors(ctx);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_factor");
}
