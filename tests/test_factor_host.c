/* SPDX-License-Identifier: BSD-3-Clause */
/* The host pieces of the factorizations (src/solve/factor.h).
 * Matching: a perfect matching whose scalings make the matched entries 1 and every other at most
 * 1 in magnitude is optimal (those scalings are a feasible dual with complementary slackness), so
 * that is checked everywhere; on n <= 8 the product is also compared with the best over every
 * permutation; a row-permuted strong diagonal must be found again; duplicates are summed; the
 * zero-diagonal files get a nonzero diagonal; structurally singular matrices are refused naming a
 * column; a 1M-row diagonal matrix is matched (near-linear work).
 * ILUT: against a dense ILUT written here with the same rules (dense rows, every column scanned in
 * order); with no dropping it is the LU without pivoting, L U = B; with dropping the rows keep at
 * most p entries a triangle and precondition a diagonally dominant matrix well; zero and NaN
 * pivots give the failed row; failed allocations and a memory limit give OUT_OF_MEMORY. */
#include "solve/factor.h"
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static csr_context *ctx;

/* A host CSR from triples (duplicates summed by csr_from_coo), of `type`. */
static csr_matrix *from_triples(int64_t n, int64_t nnz, const int32_t *r, const int32_t *c,
                                const double *v, csr_value_type type) {
  csr_coo *T = NULL;
  csr_matrix *A = NULL;
  CHECK_OK(ctx, csr_coo_create(ctx, &T, n, n, nnz, type, CSR_HOST));
  for (int64_t k = 0; k < nnz; k++) {
    T->row_indices[k] = r[k], T->col_indices[k] = c[k];
    if (type == CSR_F64)
      ((double *)T->values)[k] = v[k];
    else if (type == CSR_F32)
      ((float *)T->values)[k] = (float)v[k];
  }
  CHECK_OK(ctx, csr_from_coo(ctx, T, 0, &A));
  csr_coo_free(&T);
  return A;
}

/* The n x n row-major a (its nonzeros) as a matrix. */
static csr_matrix *from_dense(const double *a, int64_t n, csr_value_type type) {
  int32_t *r = malloc((size_t)(n * n) * sizeof *r), *c = malloc((size_t)(n * n) * sizeof *c);
  double *v = malloc((size_t)(n * n) * sizeof *v);
  int64_t nnz = 0;
  for (int64_t k = 0; k < n * n; k++)
    if (a[k] != 0.0)
      r[nnz] = (int32_t)(k / n), c[nnz] = (int32_t)(k % n), v[nnz++] = a[k];
  csr_matrix *A = from_triples(n, nnz, r, c, v, type);
  free(r), free(c), free(v);
  return A;
}

/* Random n x n: each entry nonzero with probability `density`, magnitudes 10^[-3, 3), the
 * entries of a random permutation always nonzero (so a perfect matching exists). Values are
 * floats, so F64 and F32 copies hold the same numbers. */
static void random_matchable(csrt_rng *rng, int64_t n, double density, double *a) {
  int64_t *perm = malloc((size_t)n * sizeof *perm);
  for (int64_t i = 0; i < n; i++)
    perm[i] = i;
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t j = (int64_t)csrt_below(rng, (uint64_t)i + 1), t = perm[i];
    perm[i] = perm[j], perm[j] = t;
  }
  for (int64_t k = 0; k < n * n; k++) {
    int keep = csrt_uniform(rng, 0, 1) < density || perm[k / n] == k % n;
    double sign = csrt_below(rng, 2) ? 1.0 : -1.0;
    a[k] = keep ? (float)(sign * pow(10.0, csrt_uniform(rng, -3, 3))) : 0.0;
  }
  free(perm);
}

/* The best log-product of |a| over the permutations of n (-inf: none), by enumeration. */
static double best_log_product(const double *a, int n, int j, unsigned used) {
  if (j == n)
    return 0.0;
  double best = -INFINITY;
  for (int i = 0; i < n; i++)
    if (!(used >> i & 1u) && a[i * n + j] != 0.0)
      best = fmax(best, log(fabs(a[i * n + j])) + best_log_product(a, n, j + 1, used | 1u << i));
  return best;
}

/* row_of_col is a permutation on A's nonzeros and the scalings make |Dr A Dc| 1 there and at most
 * 1 elsewhere. Returns the log-product of the matched |a| (A without duplicates). */
static double check_matching(const char *name, const csr_matrix *A, const int32_t *row_of_col,
                             const double *r, const double *c) {
  int64_t n = A->rows, matched = 0;
  char *seen = calloc((size_t)n + 1, 1);
  double worst_other = 0.0, worst_matched = 0.0, log_product = 0.0;
  for (int64_t j = 0; j < n; j++) {
    int ok = row_of_col[j] >= 0 && row_of_col[j] < n && !seen[row_of_col[j]];
    if (!ok)
      CHECKF(0, "%s: column %lld matched to row %d", name, (long long)j, row_of_col[j]);
    else
      seen[row_of_col[j]] = 1;
  }
  for (int64_t i = 0; i < n; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int32_t j = A->col_indices[k];
      double a = A->value_type == CSR_PATTERN ? 1.0
                 : A->value_type == CSR_F64   ? ((double *)A->values)[k]
                                              : ((float *)A->values)[k];
      double s = fabs(r[i] * a * c[j]);
      if (row_of_col[j] == i && a != 0.0) {
        matched++;
        log_product += log(fabs(a));
        worst_matched = fmax(worst_matched, fabs(s - 1.0));
      } else {
        worst_other = fmax(worst_other, s - 1.0);
      }
    }
  CHECKF(matched == n && worst_matched <= 1e-12 && worst_other <= 1e-12,
         "%s: %lld of %lld matched on nonzeros, |scaled| - 1: %.3g on them, %.3g elsewhere", name,
         (long long)matched, (long long)n, worst_matched, worst_other);
  free(seen);
  return log_product;
}

/* csri_weighted_matching of A, checked; returns its status. */
static csr_status match(const char *name, const csr_matrix *A, int32_t *row_of_col,
                        double *log_product) {
  int64_t n = A->rows;
  double *r = malloc((size_t)n * sizeof *r + 1), *c = malloc((size_t)n * sizeof *c + 1);
  csr_status s = csri_weighted_matching(ctx, A, row_of_col, r, c);
  if (s == CSR_SUCCESS)
    *log_product = check_matching(name, A, row_of_col, r, c);
  free(r), free(c);
  return s;
}

static void test_small_matchings(csrt_rng *rng) {
  double a[64];
  int32_t rows[8];
  for (int trial = 0; trial < 400; trial++) {
    int n = 1 + (int)csrt_below(rng, 8);
    random_matchable(rng, n, csrt_uniform(rng, 0.1, 0.7), a);
    double best = best_log_product(a, n, 0, 0), got = 0.0;
    for (int t = 0; t < 3; t++) {
      csr_value_type type = t == 0 ? CSR_F64 : t == 1 ? CSR_F32 : CSR_PATTERN;
      csr_matrix *A = from_dense(a, n, type);
      CHECK_OK(ctx, match("small", A, rows, &got));
      if (type != CSR_PATTERN) /* a pattern A: every perfect matching is best */
        CHECKF(fabs(got - best) <= 1e-9 * (1.0 + fabs(best)),
               "trial %d, n %d, type %d: log-product %.15g, best %.15g", trial, n, (int)type, got,
               best);
      csr_matrix_free(&A);
    }
  }
}

/* Row perm[i] of A is row i of M, whose diagonal (10..100) beats every other entry (<= 1): the
 * matching must match column j to row perm[j]. */
static void test_permuted_diagonal(csrt_rng *rng, int64_t n) {
  int64_t per = 6, nnz = 0, *perm = malloc((size_t)n * sizeof *perm);
  int32_t *r = malloc((size_t)(n * per) * sizeof *r), *c = malloc((size_t)(n * per) * sizeof *c);
  int32_t *rows = malloc((size_t)n * sizeof *rows);
  double *v = malloc((size_t)(n * per) * sizeof *v), lp = 0.0;
  for (int64_t i = 0; i < n; i++)
    perm[i] = i;
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t j = (int64_t)csrt_below(rng, (uint64_t)i + 1), t = perm[i];
    perm[i] = perm[j], perm[j] = t;
  }
  for (int64_t i = 0; i < n; i++)
    for (int64_t e = 0; e < per; e++) {
      int64_t j = e == 0 ? i : (int64_t)csrt_below(rng, (uint64_t)n);
      r[nnz] = (int32_t)perm[i], c[nnz] = (int32_t)j;
      v[nnz++] = j == i ? (e == 0 ? csrt_uniform(rng, 10, 100) : 0.0) : csrt_uniform(rng, -1, 1);
    }
  csr_matrix *A = from_triples(n, nnz, r, c, v, CSR_F64);
  CHECK_OK(ctx, match("permuted diagonal", A, rows, &lp));
  int64_t wrong = 0;
  for (int64_t j = 0; j < n; j++)
    wrong += rows[j] != perm[j];
  CHECKF(wrong == 0, "n %lld: %lld columns not matched to their diagonal entry", (long long)n,
         (long long)wrong);
  csr_matrix_free(&A);
  free(perm), free(r), free(c), free(v), free(rows);
}

/* Duplicates are summed: [[2 + 2, 3], [3, 2.5]] matches its diagonal (4 * 2.5 > 3 * 3), and
 * [[5 - 5, 1], [1, 1]] its anti-diagonal (the sum 0 is no edge). */
static void test_duplicates(void) {
  const double values[2][5] = {{2, 2, 3, 3, 2.5}, {5, -5, 1, 1, 1}};
  const int32_t expected[2][2] = {{0, 1}, {1, 0}};
  for (int t = 0; t < 2; t++) {
    csr_matrix *A = NULL;
    CHECK_OK(ctx, csr_matrix_create(ctx, &A, 2, 2, 5, CSR_F64, CSR_HOST));
    const int64_t off[] = {0, 3, 5};
    const int32_t col[] = {0, 0, 1, 0, 1};
    memcpy(A->row_offsets, off, sizeof off);
    memcpy(A->col_indices, col, sizeof col);
    memcpy(A->values, values[t], sizeof values[t]);
    int32_t rows[2];
    double r[2], c[2];
    CHECK_OK(ctx, csri_weighted_matching(ctx, A, rows, r, c));
    CHECKF(rows[0] == expected[t][0] && rows[1] == expected[t][1], "duplicates %d: %d %d", t,
           rows[0], rows[1]);
    csr_matrix_free(&A);
  }
}

static void test_files(void) {
  const char *paths[] = {"matrices/west0067.mtx", "matrices/plskz362.mtx"};
  for (int f = 0; f < 2; f++) {
    csr_matrix *A = csrt_read_if_present(ctx, paths[f]);
    if (A == NULL)
      continue;
    int32_t *rows = malloc((size_t)A->rows * sizeof *rows);
    double lp = 0.0;
    CHECK_OK(ctx, match(paths[f], A, rows, &lp)); /* matched entries nonzero: a full diagonal */
    printf("  %s: matched, log-product of the diagonal %.6g\n", paths[f], lp);
    csr_matrix_free(&A);
    free(rows);
  }
}

/* Structurally singular: the error names a column. */
static void test_singular(void) {
  static const struct {
    int n;
    double a[16];
  } cases[] = {
      {3, {1, 2, 0, 3, 4, 0, 5, 6, 0}},                      /* an empty column */
      {2, {1, 1, 0, 0}},                                     /* both only in row 0 */
      {4, {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1}}, /* 3 columns in 2 rows */
      {3, {1, 0, 0, 0, 0, 0, 0, 1, 1}},                      /* an empty row */
  };
  const char *column[] = {"column 2 (0-based)", "column 1 (0-based)", "column 2 (0-based)",
                          "column 2 (0-based)"};
  for (size_t t = 0; t < sizeof cases / sizeof *cases; t++) {
    csr_matrix *A = from_dense(cases[t].a, cases[t].n, CSR_F64);
    int32_t rows[4];
    double lp;
    CHECK_STATUS(ctx, match("singular", A, rows, &lp), CSR_ERR_INVALID_MATRIX);
    CHECKF(strstr(csr_context_last_message(ctx), "structurally singular") != NULL &&
               strstr(csr_context_last_message(ctx), column[t]) != NULL,
           "case %zu: '%s'", t, csr_context_last_message(ctx));
    csr_matrix_free(&A);
  }
  /* A stored zero is no edge: [[1, 0], [1, 0]] with both zeros stored. */
  const int32_t r[] = {0, 0, 1, 1}, c[] = {0, 1, 0, 1};
  const double v[] = {1, 0, 1, 0};
  csr_matrix *A = from_triples(2, 4, r, c, v, CSR_F64);
  int32_t rows[2];
  double lp;
  CHECK_STATUS(ctx, match("stored zeros", A, rows, &lp), CSR_ERR_INVALID_MATRIX);
  CHECK(strstr(csr_context_last_message(ctx), "column 1 (0-based)") != NULL);
  csr_matrix_free(&A);
}

/* 1M rows, the diagonal the only perfect matching. Tridiagonal (4 on the diagonal, -1 beside
 * it): the greedy pass matches it all. Lower bidiagonal with the subdiagonal the larger (1.0001
 * against 1): the greedy pass matches column j to row j + 1 and the last column needs one
 * augmenting path through every column; the scalings span 1.0001^1e6 = e^100. */
static void test_large_diagonal(void) {
  const int64_t n = 1000000;
  int32_t *rows = malloc((size_t)n * sizeof *rows);
  for (int shape = 0; shape < 2; shape++) {
    csr_matrix *A = NULL;
    CHECK_OK(ctx, csr_matrix_create(ctx, &A, n, n, 3 * n - 2, CSR_F64, CSR_HOST));
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
      for (int64_t j = i > 0 ? i - 1 : i; j <= i + (shape == 0) && j < n; j++) {
        A->col_indices[k] = (int32_t)j;
        ((double *)A->values)[k++] = shape == 0 ? (j == i ? 4.0 : -1.0) : (j == i ? 1.0 : 1.0001);
      }
      A->row_offsets[i + 1] = k;
    }
    A->nnz = k;
    double lp = 0.0, start = csri_seconds_now();
    CHECK_OK(ctx, match("large", A, rows, &lp));
    printf("  %s n = %lld matched in %.3f s\n", shape ? "bidiagonal" : "tridiagonal", (long long)n,
           csri_seconds_now() - start);
    int64_t off_diagonal = 0;
    for (int64_t j = 0; j < n; j++)
      off_diagonal += rows[j] != j;
    CHECK(off_diagonal == 0);
    csr_matrix_free(&A);
  }
  free(rows);
}

/* Scalings past double's range: the lower bidiagonal with 1 and 2 needs r_i c_i = 1 and
 * r_{i+1} 2 c_i <= 1, so r_i = 2^-i r_0, and 2^5000 does not fit. */
static void test_scaling_overflow(void) {
  const int64_t n = 5000;
  csr_matrix *A = NULL;
  CHECK_OK(ctx, csr_matrix_create(ctx, &A, n, n, 2 * n - 1, CSR_F64, CSR_HOST));
  for (int64_t i = 0, k = 0; i < n; i++) {
    for (int64_t j = i > 0 ? i - 1 : i; j <= i; j++) {
      A->col_indices[k] = (int32_t)j;
      ((double *)A->values)[k++] = j == i ? 1.0 : 2.0;
    }
    A->row_offsets[i + 1] = k;
  }
  int32_t *rows = malloc((size_t)n * sizeof *rows);
  double lp = 0.0;
  CHECK_STATUS(ctx, match("overflow", A, rows, &lp), CSR_ERR_OVERFLOW);
  CHECKF(strstr(csr_context_last_message(ctx), "past double's range") != NULL, "'%s'",
         csr_context_last_message(ctx));
  csr_matrix_free(&A);
  free(rows);
}

/* Nothing to match or factor. */
static void test_empty(void) {
  csr_matrix *A = NULL, *L = NULL, *U = NULL;
  CHECK_OK(ctx, csr_matrix_create(ctx, &A, 0, 0, 0, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csri_weighted_matching(ctx, A, NULL, NULL, NULL));
  int64_t off = 0, failed = 0;
  csri_factor_csr B = {0, &off, NULL, NULL, NULL};
  CHECK_OK(ctx, csri_ilut(ctx, &B, 1e-3, 10.0, 0.0, &L, &U, NULL, &failed));
  CHECK(failed == -1 && L != NULL && U != NULL && L->rows == 0 && U->nnz == 0);
  csr_matrix_free(&A), csr_matrix_free(&L), csr_matrix_free(&U);
}

/* --- ILUT ------------------------------------------------------------------------------------- */

/* B's form of the dense n x n b: its nonzeros and the whole diagonal stored. */
static void factor_csr_of(const double *b, int64_t n, csri_factor_csr *B) {
  B->n = n;
  B->off = malloc((size_t)(n + 1) * sizeof *B->off);
  B->col = malloc((size_t)(n * n) * sizeof *B->col + 1);
  B->val = malloc((size_t)(n * n) * sizeof *B->val + 1);
  B->dpos = malloc((size_t)n * sizeof *B->dpos + 1);
  B->off[0] = 0;
  for (int64_t i = 0, k = 0; i < n; i++) {
    for (int64_t j = 0; j < n; j++)
      if (b[i * n + j] != 0.0 || j == i) {
        if (j == i)
          B->dpos[i] = k;
        B->col[k] = (int32_t)j, B->val[k++] = b[i * n + j];
      }
    B->off[i + 1] = k;
  }
}

static void factor_csr_free(csri_factor_csr *B) {
  free(B->off), free(B->col), free(B->val), free(B->dpos);
}

/* Marks in chosen[] the p largest of vals[0..count) in magnitude, ties to the lower index. */
static void choose_largest(const double *vals, int64_t count, int64_t p, char *chosen) {
  memset(chosen, 0, (size_t)count + 1);
  for (int64_t t = 0; t < p && t < count; t++) {
    int64_t best = 0;
    while (chosen[best])
      best++;
    for (int64_t e = best + 1; e < count; e++)
      if (!chosen[e] && fabs(vals[e]) > fabs(vals[best]))
        best = e;
    chosen[best] = 1;
  }
}

/* Swaps columns a and b of the n x n row-major m, in rows [from, to). */
static void swap_columns(double *m, int64_t n, int64_t from, int64_t to, int64_t a, int64_t b) {
  for (int64_t i = from; i < to; i++) {
    double t = m[i * n + a];
    m[i * n + a] = m[i * n + b], m[i * n + b] = t;
  }
}

/* ILUT(tau, p) as the header states it, on dense rows: every column k < i scanned in order; with
 * threshold > 0 ILUTP, the columns swapped in place (in b's copy and in U) as the rule says, and
 * perm[s] the column of b that became column s. L and U are n x n, zeroed, with `stored` flags,
 * in the new numbering. Returns the failed row or -1. */
static int64_t dense_ilut(const double *b, int64_t n, double tau, double fill, double threshold,
                          double *L, char *Ls, double *U, char *Us, int32_t *perm) {
  double *w = malloc((size_t)n * sizeof *w), *cv = malloc((size_t)n * sizeof *cv);
  double *bq = malloc((size_t)(n * n) * sizeof *bq + 1);
  int64_t *cc = malloc((size_t)n * sizeof *cc), failed = -1;
  char *in = malloc((size_t)n), *chosen = malloc((size_t)n + 1);
  memcpy(bq, b, (size_t)(n * n) * sizeof *bq);
  for (int64_t s = 0; s < n; s++)
    perm[s] = (int32_t)s;
  int64_t stored_so_far = 0, kept_so_far = 0; /* the pooled fill allowance */
  for (int64_t i = 0; i < n && failed < 0; i++) {
    double norm = 0.0, rowmax = 0.0;
    int64_t stored = 0, count = 0;
    for (int64_t j = 0; j < n; j++) {
      w[j] = bq[i * n + j];
      in[j] = w[j] != 0.0 || perm[j] == i;
      stored += in[j];
      norm += w[j] * w[j];
      rowmax = fmax(rowmax, fabs(w[j]));
      failed = isfinite(w[j]) ? failed : i;
    }
    stored_so_far += stored;
    double tol = tau * sqrt(norm),
           want = (fill * (double)stored_so_far - (double)kept_so_far) / 2.0;
    int64_t p = want >= (double)n ? n : want < 1.0 ? 1 : (int64_t)want;
    for (int64_t k = 0; k < i && failed < 0; k++) {
      if (!in[k])
        continue;
      double x = w[k] / U[k * n + k];
      failed = isfinite(x) ? failed : i;
      if (x == 0.0 || fabs(x) < tol)
        continue;
      cc[count] = k, cv[count++] = x;
      for (int64_t j = k + 1; j < n; j++)
        if (Us[k * n + j])
          in[j] = 1, w[j] -= x * U[k * n + j];
    }
    if (failed >= 0)
      break;
    choose_largest(cv, count, p, chosen);
    for (int64_t e = 0; e < count; e++)
      if (chosen[e])
        L[i * n + cc[e]] = cv[e], Ls[i * n + cc[e]] = 1, kept_so_far++;
    count = 0;
    for (int64_t j = i + 1; j < n; j++) {
      failed = !in[j] || isfinite(w[j]) ? failed : i;
      if (in[j] && w[j] != 0.0 && fabs(w[j]) >= tol)
        cc[count] = j, cv[count++] = w[j];
    }
    choose_largest(cv, count, p, chosen);
    int64_t best = -1; /* the largest kept, ties to the lower column (cc ascends) */
    for (int64_t e = 0; e < count; e++)
      if (chosen[e] && (best < 0 || fabs(cv[e]) > fabs(cv[best])))
        best = e;
    if (threshold > 0.0 && best >= 0 && fabs(w[i]) < threshold * fabs(cv[best])) {
      int64_t q = cc[best];
      double old = w[i];
      w[i] = cv[best], w[q] = cv[best] = old;
      chosen[best] = old != 0.0 && fabs(old) >= tol;
      swap_columns(bq, n, i + 1, n, i, q);
      swap_columns(U, n, 0, i, i, q);
      for (int64_t k = 0; k < i; k++) {
        char t = Us[k * n + i];
        Us[k * n + i] = Us[k * n + q], Us[k * n + q] = t;
      }
      int32_t t = perm[i];
      perm[i] = perm[q], perm[q] = t;
    }
    if (failed >= 0 || !isfinite(w[i]) || !(fabs(w[i]) > 1e-14 * rowmax)) {
      failed = i;
      break;
    }
    for (int64_t e = 0; e < count; e++)
      if (chosen[e])
        U[i * n + cc[e]] = cv[e], Us[i * n + cc[e]] = 1, kept_so_far++;
    U[i * n + i] = w[i], Us[i * n + i] = 1, kept_so_far++;
  }
  free(w), free(cv), free(cc), free(in), free(chosen), free(bq);
  return failed;
}

/* Random n x n, off-diagonal entries in (-1, 1) with probability `density`; the diagonal
 * `dominance` times its row's off-diagonal sum (plus 1), of random sign. */
static void random_square(csrt_rng *rng, int64_t n, double density, double dominance, double *a) {
  for (int64_t i = 0; i < n; i++) {
    double sum = 0.0;
    for (int64_t j = 0; j < n; j++) {
      a[i * n + j] = j != i && csrt_uniform(rng, 0, 1) < density ? csrt_uniform(rng, -1, 1) : 0.0;
      sum += fabs(a[i * n + j]);
    }
    a[i * n + i] = (csrt_below(rng, 2) ? 1.0 : -1.0) * dominance * (sum + 1.0);
  }
}

/* csri_ilut of the dense b (pivot threshold `threshold`) against dense_ilut: the same failed row,
 * or the same column order and entries (to rounding), SORTED | NO_DUPLICATES, at most p a
 * triangle in each row, every |u_ii| >= threshold |u_ij|. Fills lu (n x n: L and U in one, unit
 * diagonal of L implied) and order (n, or NULL: the column order) when it succeeds; returns the
 * failed row. */
static int64_t check_ilutp(const char *name, const double *b, int64_t n, double tau, double fill,
                           double threshold, double *lu, int32_t *order) {
  size_t nn = (size_t)(n * n);
  double *L = calloc(nn, sizeof *L), *U = calloc(nn, sizeof *U);
  char *Ls = calloc(nn, 1), *Us = calloc(nn, 1);
  int32_t *perm = malloc((size_t)n * sizeof *perm + 1), *got = malloc((size_t)n * sizeof *got + 1);
  int64_t expected = dense_ilut(b, n, tau, fill, threshold, L, Ls, U, Us, perm), failed = -2;
  int64_t bad = 0;
  csri_factor_csr B;
  factor_csr_of(b, n, &B);
  csr_matrix *Lf = NULL, *Uf = NULL;
  CHECK_OK(ctx, csri_ilut(ctx, &B, tau, fill, threshold, &Lf, &Uf, got, &failed));
  CHECKF(failed == expected && (failed >= 0) == (Lf == NULL && Uf == NULL),
         "%s (tau %g, fill %g, threshold %g): failed row %lld, expected %lld", name, tau, fill,
         threshold, (long long)failed, (long long)expected);
  for (int64_t s = 0; s < n && Lf != NULL; s++)
    bad += got[s] != perm[s];
  for (int64_t i = 0; i < n && Lf != NULL && Uf != NULL; i++) {
    double want =
        (fill * (double)B.off[i + 1] - (double)(Lf->row_offsets[i] + Uf->row_offsets[i])) / 2.0;
    int64_t p = want >= (double)n ? n : want < 1.0 ? 1 : (int64_t)want, found = 0;
    const csr_matrix *F[2] = {Lf, Uf};
    for (int t = 0; t < 2; t++) {
      const double *ref = t ? U : L, *val = F[t]->values;
      const char *s = t ? Us : Ls;
      int64_t begin = F[t]->row_offsets[i], end = F[t]->row_offsets[i + 1];
      bad += end - begin > p + t || (t == 1 && (begin == end || F[t]->col_indices[begin] != i));
      for (int64_t k = begin; k < end; k++) {
        int32_t j = F[t]->col_indices[k];
        bad +=
            (k > begin && j <= F[t]->col_indices[k - 1]) || (t ? j < i : j >= i) || !s[i * n + j];
        bad += !(fabs(val[k] - ref[i * n + j]) <= 1e-12 * fmax(1.0, fabs(ref[i * n + j])));
        lu[i * n + j] = val[k];
        found++;
        bad += t == 1 && !(fabs(val[begin]) >= threshold * fabs(val[k]));
      }
    }
    for (int64_t j = 0; j < n; j++)
      found -= Ls[i * n + j] + Us[i * n + j];
    bad += found != 0;
  }
  if (Lf != NULL)
    bad += Lf->flags != (CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES) || Lf->value_type != CSR_F64;
  CHECKF(bad == 0, "%s (tau %g, fill %g, threshold %g): %lld differences from the dense ILUT", name,
         tau, fill, threshold, (long long)bad);
  if (order != NULL && Lf != NULL)
    memcpy(order, got, (size_t)n * sizeof *order);
  csr_matrix_free(&Lf), csr_matrix_free(&Uf);
  factor_csr_free(&B);
  free(L), free(U), free(Ls), free(Us), free(perm), free(got);
  return failed;
}

/* check_ilutp without pivoting: the column order must stay the identity. */
static int64_t check_ilut(const char *name, const double *b, int64_t n, double tau, double fill,
                          double *lu) {
  return check_ilutp(name, b, n, tau, fill, 0.0, lu, NULL);
}

/* x = (L U)^-1 x in place, lu as check_ilut fills it. */
static void lu_solve(const double *lu, int64_t n, double *x) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < i; j++)
      x[i] -= lu[i * n + j] * x[j];
  for (int64_t i = n - 1; i >= 0; i--) {
    for (int64_t j = i + 1; j < n; j++)
      x[i] -= lu[i * n + j] * x[j];
    x[i] /= lu[i * n + i];
  }
}

/* ||I - (L U)^-1 B||_F / sqrt(n). */
static double preconditioned_error(const double *lu, const double *b, int64_t n) {
  double *x = malloc((size_t)n * sizeof *x), sum = 0.0;
  for (int64_t j = 0; j < n; j++) {
    for (int64_t i = 0; i < n; i++)
      x[i] = b[i * n + j];
    lu_solve(lu, n, x);
    for (int64_t i = 0; i < n; i++)
      sum += (x[i] - (i == j)) * (x[i] - (i == j));
  }
  free(x);
  return sqrt(sum / (double)n);
}

static void test_ilut(csrt_rng *rng) {
  enum { n = 40 };
  static double b[n * n], lu[n * n], d[n * n];
  /* No dropping: the LU without pivoting (Doolittle, dense), and L U = B. */
  for (int trial = 0; trial < 20; trial++) {
    random_square(rng, n, csrt_uniform(rng, 0.05, 0.5), 1.0, b);
    memset(lu, 0, sizeof lu);
    memcpy(d, b, sizeof d);
    for (int k = 0; k < n; k++)
      for (int i = k + 1; i < n; i++) {
        d[i * n + k] /= d[k * n + k];
        for (int j = k + 1; j < n; j++)
          d[i * n + j] -= d[i * n + k] * d[k * n + j];
      }
    CHECK(check_ilut("full", b, n, 0.0, 2.0 * n, lu) == -1);
    double scale = 0.0, lu_error = 0.0, product_error = 0.0;
    for (int k = 0; k < n * n; k++) {
      scale = fmax(scale, fabs(b[k]));
      lu_error = fmax(lu_error, fabs(lu[k] - d[k]));
    }
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double sum = i <= j ? lu[i * n + j] : 0.0;
        for (int k = 0; k < i && k <= j; k++)
          sum += lu[i * n + k] * lu[k * n + j];
        product_error = fmax(product_error, fabs(sum - b[i * n + j]));
      }
    CHECKF(lu_error <= 1e-12 * scale && product_error <= 1e-12 * scale,
           "full LU: off the dense LU by %.3g, L U off B by %.3g (max |b| %.3g)", lu_error,
           product_error, scale);
  }
  /* Dropping, on matrices diagonally dominant and not (those may fail a pivot). */
  const double taus[] = {0.0, 1e-3, 1e-2, 0.1, 0.5}, fills[] = {0.5, 1.0, 2.0, 5.0, 100.0};
  double worst[2] = {0.0, 0.0}; /* of ||I - M^-1 B|| over Jacobi's, ILUT(1e-2, 2), (1e-3, 5) */
  for (int trial = 0; trial < 40; trial++) {
    double dominance = trial % 2 ? 1.0 : 0.05;
    random_square(rng, n, csrt_uniform(rng, 0.05, 0.4), dominance, b);
    memset(d, 0, sizeof d);
    for (int i = 0; i < n; i++)
      d[i * n + i] = b[i * n + i];
    double jacobi = preconditioned_error(d, b, n);
    for (int t = 0; t < 5; t++)
      for (int f = 0; f < 5; f++) {
        memset(lu, 0, sizeof lu);
        int which = taus[t] == 1e-2 && fills[f] == 2.0   ? 0
                    : taus[t] == 1e-3 && fills[f] == 5.0 ? 1
                                                         : -1;
        if (check_ilut("dropping", b, n, taus[t], fills[f], lu) < 0 && dominance == 1.0 &&
            which >= 0)
          worst[which] = fmax(worst[which], preconditioned_error(lu, b, n) / jacobi);
      }
  }
  printf("  diagonally dominant B: ||I - M^-1 B|| at most %.3g (ILUT(1e-2, 2)) and %.3g "
         "(ILUT(1e-3, 5)) times Jacobi's\n",
         worst[0], worst[1]);
  CHECK(worst[0] > 0.0 && worst[0] < 0.75 && worst[1] < 0.1);
  /* Ties keep the lower column: p = 1 (fill 0.5, 4 entries a row) keeps u_01 of u_01 = u_02 =
   * u_03 = 1, and l_30 of l_30 = l_32 = 0.25 > l_31 = 0.1875. */
  const double ties[16] = {4, 1, 1, 1, 0, 4, 0, 0, 0, 0, 4, 0, 1, 1, 1, 4};
  memset(lu, 0, sizeof lu);
  CHECK(check_ilut("ties", ties, 4, 0.0, 0.5, lu) == -1);
  CHECK(lu[1] == 1.0 && lu[2] == 0.0 && lu[3] == 0.0 && lu[12] == 0.25 && lu[13] == 0.0 &&
        lu[14] == 0.0);
  /* Pivots: zero, zero after elimination, tiny, a zero row, NaN and Inf in either triangle. */
  static const struct {
    int n;
    double b[9];
    int64_t failed;
  } pivots[] = {
      {2, {0, 1, 1, 0}, 0},
      {2, {1, 1, 1, 1}, 1},
      {2, {1, 1, 1, 1 + 1e-15}, 1},
      {3, {1, 0, 0, 0, 0, 0, 0, 0, 1}, 1},
      {3, {1, 0, 0, 0, 2, 0, 0, NAN, 3}, 2},
      {3, {1, 0, 0, 0, 2, NAN, 0, 0, 3}, 1},
      {3, {1, 0, 0, 0, INFINITY, 0, 0, 0, 3}, 1},
      {3, {1e290, 0, 1e300, 0, 2, 0, 1e300, 0, 3}, 2}, /* u_22 = 3 - 1e310 overflows */
  };
  for (size_t t = 0; t < sizeof pivots / sizeof *pivots; t++) {
    int64_t failed = check_ilut("pivot", pivots[t].b, pivots[t].n, 0.0, 10.0, lu);
    CHECKF(failed == pivots[t].failed, "pivot case %zu: failed row %lld, expected %lld", t,
           (long long)failed, (long long)pivots[t].failed);
  }
}

/* Random n x n skew-symmetric (zero diagonal, a_ji = -a_ij), entries in (-1, 1) with
 * probability `density`; nonsingular for even n with probability 1 once dense enough. */
static void random_skew(csrt_rng *rng, int64_t n, double density, double *a) {
  for (int64_t i = 0; i < n; i++) {
    a[i * n + i] = 0.0;
    for (int64_t j = i + 1; j < n; j++) {
      a[i * n + j] = csrt_uniform(rng, 0, 1) < density ? csrt_uniform(rng, -1, 1) : 0.0;
      a[j * n + i] = -a[i * n + j];
    }
  }
}

/* Right-looking dense LU of b with threshold column pivoting, the rule of csri_ilut: at step k,
 * when |d_kk| < threshold max_{j > k} |d_kj| (the largest: the lowest j), columns k and j swap.
 * d: L (below, unit diagonal implied) and U in one; perm[s]: the column of b at s. */
static void dense_lu_pivoted(const double *b, int64_t n, double threshold, double *d,
                             int32_t *perm) {
  memcpy(d, b, (size_t)(n * n) * sizeof *d);
  for (int64_t s = 0; s < n; s++)
    perm[s] = (int32_t)s;
  for (int64_t k = 0; k < n; k++) {
    int64_t q = -1;
    for (int64_t j = k + 1; j < n; j++)
      if (q < 0 || fabs(d[k * n + j]) > fabs(d[k * n + q]))
        q = j;
    if (q >= 0 && fabs(d[k * n + k]) < threshold * fabs(d[k * n + q])) {
      swap_columns(d, n, 0, n, k, q);
      int32_t t = perm[k];
      perm[k] = perm[q], perm[q] = t;
    }
    for (int64_t i = k + 1; i < n; i++) {
      d[i * n + k] /= d[k * n + k];
      for (int64_t j = k + 1; j < n; j++)
        d[i * n + j] -= d[i * n + k] * d[k * n + j];
    }
  }
}

/* With pivoting: no dropping gives the dense LU with the same threshold rule, L U = B Q, on
 * matrices that need it (zero diagonals, skew-symmetric) and one that does not; with dropping
 * the dense ILUTP's factors. */
static void test_ilutp(csrt_rng *rng) {
  enum { n = 40 };
  static double b[n * n], lu[n * n], d[n * n];
  int32_t order[n], perm[n];
  const double thresholds[] = {0.1, 0.5, 1.0};
  int64_t swaps[3] = {0, 0, 0}, singular = 0; /* columns moved, by kind of matrix */
  double worst = 0.0;
  for (int trial = 0; trial < 30; trial++) {
    int kind = trial % 3; /* diagonally dominant, zero diagonal, skew-symmetric */
    double threshold = thresholds[trial / 3 % 3];
    if (kind == 2)
      random_skew(rng, n, csrt_uniform(rng, 0.2, 0.5), b);
    else
      random_square(rng, n, csrt_uniform(rng, 0.2, 0.5), kind == 0 ? 1.0 : 0.0, b);
    memset(lu, 0, sizeof lu);
    if (check_ilutp("pivoted full", b, n, 0.0, 2.0 * n, threshold, lu, order) >= 0) {
      singular++; /* a zero pivot even with pivoting: B is singular to rounding */
      continue;
    }
    dense_lu_pivoted(b, n, threshold, d, perm);
    double scale = 0.0, lu_error = 0.0, product_error = 0.0;
    int64_t moved = 0, not_permutation = 0;
    char seen[n] = {0};
    for (int s = 0; s < n; s++) {
      moved += order[s] != s || perm[s] != s;
      not_permutation += order[s] < 0 || order[s] >= n || seen[order[s]]++ || order[s] != perm[s];
    }
    for (int k = 0; k < n * n; k++) {
      scale = fmax(scale, fabs(b[k]));
      lu_error = fmax(lu_error, fabs(lu[k] - d[k]) / fmax(1.0, fabs(d[k])));
    }
    for (int i = 0; i < n; i++) /* (L U)_is against (B Q)_is = b_i,order[s] */
      for (int s = 0; s < n; s++) {
        double sum = i <= s ? lu[i * n + s] : 0.0;
        for (int k = 0; k < i && k <= s; k++)
          sum += lu[i * n + k] * lu[k * n + s];
        product_error = fmax(product_error, fabs(sum - b[i * n + order[s]]));
      }
    swaps[kind] += moved;
    worst = fmax(worst, product_error / scale);
    CHECKF(not_permutation == 0 && lu_error <= 1e-12 && product_error <= 1e-12 * scale,
           "pivoted full LU (kind %d, threshold %g): column order off the dense LU's in %lld, "
           "factors off by %.3g, L U off B Q by %.3g (max |b| %.3g)",
           kind, threshold, (long long)not_permutation, lu_error, product_error, scale);
  }
  printf("  pivoted LU: L U off B Q by at most %.3g max |b|; columns moved %lld, %lld, %lld "
         "(dominant, zero diagonal, skew); %lld singular\n",
         worst, (long long)swaps[0], (long long)swaps[1], (long long)swaps[2], (long long)singular);
  CHECK(swaps[1] > 0 && swaps[2] > 0 && singular <= 3);
  /* Dropping and pivoting together, against the dense ILUTP. */
  const double taus[] = {0.0, 1e-3, 1e-2, 0.1}, fills[] = {0.5, 2.0, 5.0, 100.0};
  int64_t succeeded = 0;
  for (int trial = 0; trial < 12; trial++) {
    int kind = trial % 3;
    if (kind == 2)
      random_skew(rng, n, csrt_uniform(rng, 0.1, 0.4), b);
    else
      random_square(rng, n, csrt_uniform(rng, 0.1, 0.4), kind == 0 ? 0.05 : 0.0, b);
    for (int t = 0; t < 4; t++)
      for (int f = 0; f < 4; f++)
        succeeded += check_ilutp("pivoted dropping", b, n, taus[t], fills[f],
                                 thresholds[(t + f) % 3], lu, NULL) < 0;
  }
  CHECKF(succeeded > 12 * 16 / 2, "pivoted ILUT: %lld of %d factorizations succeeded",
         (long long)succeeded, 12 * 16);
  /* A skew-symmetric 2 x 2 fails its first pivot without pivoting and is exact with it. */
  const double skew[4] = {0, 2, -2, 0};
  CHECK(check_ilut("skew 2 x 2", skew, 2, 0.0, 10.0, lu) == 0);
  memset(lu, 0, sizeof lu);
  CHECK(check_ilutp("skew 2 x 2", skew, 2, 0.0, 10.0, 0.1, lu, order) == -1);
  CHECK(order[0] == 1 && order[1] == 0 && lu[0] == 2.0 && lu[1] == 0.0 && lu[2] == 0.0 &&
        lu[3] == -2.0);
  /* Ties keep the lower column: |b_01| = |b_02| = 1 against b_00 = 0 brings column 1 forward. */
  const double tie[9] = {0, 1, -1, 2, 0, 1, 1, 3, 0};
  CHECK(check_ilutp("pivot tie", tie, 3, 0.0, 10.0, 1.0, lu, order) == -1 && order[0] == 1);
  /* The threshold must lie in [0, 1]. */
  csri_factor_csr B;
  factor_csr_of(skew, 2, &B);
  csr_matrix *L = NULL, *U = NULL;
  int64_t failed = 0;
  const double invalid[] = {-0.1, 1.5, NAN};
  for (int t = 0; t < 3; t++) {
    CHECK_STATUS(ctx, csri_ilut(ctx, &B, 0.0, 10.0, invalid[t], &L, &U, order, &failed),
                 CSR_ERR_INVALID_VALUE);
    CHECK(L == NULL && U == NULL &&
          strstr(csr_context_last_message(ctx), "pivot threshold") != NULL);
  }
  factor_csr_free(&B);
}

/* x = (L U)^-1 x for the csr L (unit diagonal implied) and U (diagonal first). */
static void sparse_lu_solve(const csr_matrix *L, const csr_matrix *U, double *x) {
  const double *lv = L->values, *uv = U->values;
  for (int64_t i = 0; i < L->rows; i++)
    for (int64_t k = L->row_offsets[i]; k < L->row_offsets[i + 1]; k++)
      x[i] -= lv[k] * x[L->col_indices[k]];
  for (int64_t i = U->rows - 1; i >= 0; i--) {
    for (int64_t k = U->row_offsets[i] + 1; k < U->row_offsets[i + 1]; k++)
      x[i] -= uv[k] * x[U->col_indices[k]];
    x[i] /= uv[U->row_offsets[i]];
  }
}

/* ||I - (L U)^-1 B Q|| estimated as the largest ||v - (L U)^-1 B Q v|| / ||v|| over 8 random v
 * (B dense, Q from order). */
static double preconditioned_error_estimate(csrt_rng *rng, const csr_matrix *L, const csr_matrix *U,
                                            const double *b, int64_t n, const int32_t *order) {
  double *v = malloc((size_t)n * sizeof *v), *z = malloc((size_t)n * sizeof *z);
  double *x = malloc((size_t)n * sizeof *x), worst = 0.0;
  for (int trial = 0; trial < 8; trial++) {
    for (int64_t s = 0; s < n; s++)
      v[s] = csrt_uniform(rng, -1, 1), z[order[s]] = v[s];
    for (int64_t i = 0; i < n; i++) {
      x[i] = 0.0;
      for (int64_t j = 0; j < n; j++)
        x[i] += b[i * n + j] * z[j];
    }
    sparse_lu_solve(L, U, x);
    double error = 0.0, norm = 0.0;
    for (int64_t s = 0; s < n; s++)
      error += (x[s] - v[s]) * (x[s] - v[s]), norm += v[s] * v[s];
    worst = fmax(worst, sqrt(error / norm));
  }
  free(v), free(z), free(x);
  return worst;
}

/* plskz362 (skew-symmetric, zero diagonal) after the weighted matching, B = P Dr A Dc, with
 * ILUT's defaults (tau 1e-4, fill 10) without and with pivoting (threshold 0.1), and with the fill
 * unbounded. Only the unbounded ones are required to be good: with the fill bounded, the p largest
 * of a row are too few on this matrix in this order, pivoting or not. */
static void test_ilutp_file(csrt_rng *rng) {
  csr_matrix *A = csrt_read_if_present(ctx, "matrices/plskz362.mtx");
  if (A == NULL)
    return;
  CHECK(A->value_type == CSR_F64);
  const int64_t n = A->rows;
  int32_t *rows = malloc((size_t)n * sizeof *rows), *order = malloc((size_t)n * sizeof *order);
  double *r = malloc((size_t)n * sizeof *r), *c = malloc((size_t)n * sizeof *c);
  double *b = calloc((size_t)(n * n), sizeof *b);
  CHECK_OK(ctx, csri_weighted_matching(ctx, A, rows, r, c));
  for (int64_t t = 0; t < n; t++) /* row t of B: row rows[t] of A, scaled */
    for (int64_t k = A->row_offsets[rows[t]]; k < A->row_offsets[rows[t] + 1]; k++) {
      int32_t j = A->col_indices[k];
      b[t * n + j] += (r[rows[t]] * c[j]) * ((const double *)A->values)[k];
    }
  csri_factor_csr B;
  factor_csr_of(b, n, &B);
  static const struct {
    double tau, fill, threshold;
  } runs[] = {{1e-4, 10.0, 0.0}, {1e-4, 10.0, 0.1}, {1e-4, 1e9, 0.1}, {0.0, 1e9, 0.1}};
  double error[4];
  for (int t = 0; t < 4; t++) {
    csr_matrix *L = NULL, *U = NULL;
    int64_t failed = -2;
    CHECK_OK(ctx, csri_ilut(ctx, &B, runs[t].tau, runs[t].fill, runs[t].threshold, &L, &U, order,
                            &failed));
    error[t] = failed < 0 ? preconditioned_error_estimate(rng, L, U, b, n, order) : INFINITY;
    printf("  plskz362 matched, ILUT(%g, %g), pivot threshold %g: ||I - (L U)^-1 B Q|| ~ %.3g "
           "(failed row %lld, nnz(L + U) %lld, nnz(B) %lld)\n",
           runs[t].tau, runs[t].fill, runs[t].threshold, error[t], (long long)failed,
           (long long)(L != NULL ? L->nnz + U->nnz : 0), (long long)B.off[n]);
    csr_matrix_free(&L), csr_matrix_free(&U);
  }
  CHECKF(error[2] < 0.5 && error[3] < 1e-8, "plskz362: ||I - (L U)^-1 B Q|| %.3g, %.3g", error[2],
         error[3]);
  factor_csr_free(&B);
  free(rows), free(order), free(r), free(c), free(b);
  csr_matrix_free(&A);
}

/* Every allocation of each routine failing in turn, and a memory limit the fill passes. */
static void test_allocation_failures(csrt_rng *rng) {
  enum { n = 30 };
  static double b[n * n], zero_diagonal[n * n];
  random_square(rng, n, 0.2, 1.0, b);
  random_square(rng, n, 0.3, 0.0, zero_diagonal);
  csri_factor_csr B, Bp;
  factor_csr_of(b, n, &B);
  factor_csr_of(zero_diagonal, n, &Bp);
  int32_t order[n];
  csr_matrix *A = from_dense(b, n, CSR_F64), *L = NULL, *U = NULL;
  int32_t rows[n];
  double r[n], c[n];
  int64_t failed = 0, wrong = 0, finished = 0;
  for (int routine = 0; routine < 3; routine++) /* matching, ILUT, ILUTP */
    for (int64_t k = 1; k < 200; k++) {
      csr_debug_fail_allocation_after(k);
      csr_status s = routine == 2   ? csri_ilut(ctx, &Bp, 1e-3, 3.0, 0.5, &L, &U, order, &failed)
                     : routine == 1 ? csri_ilut(ctx, &B, 1e-3, 3.0, 0.0, &L, &U, NULL, &failed)
                                    : csri_weighted_matching(ctx, A, rows, r, c);
      int fired = csr_debug_allocation_count() >= k;
      csr_debug_fail_allocation_after(0);
      wrong += fired ? s != CSR_ERR_OUT_OF_MEMORY || L != NULL || U != NULL : s != CSR_SUCCESS;
      csr_matrix_free(&L), csr_matrix_free(&U);
      if (!fired) {
        finished++;
        break;
      }
    }
  CHECKF(wrong == 0 && finished == 3, "%lld wrong statuses under failed allocations",
         (long long)wrong);
  /* Fill far past B: a sparse B of 400 rows, no dropping. */
  enum { m = 400 };
  double *big = malloc((size_t)m * m * sizeof *big);
  random_square(rng, m, 0.02, 1.0, big);
  csri_factor_csr Bbig;
  factor_csr_of(big, m, &Bbig);
  CHECK_OK(ctx, csr_context_set_memory_limit(ctx, 200000));
  CHECK_STATUS(ctx, csri_ilut(ctx, &Bbig, 0.0, 1e9, 0.0, &L, &U, NULL, &failed),
               CSR_ERR_OUT_OF_MEMORY);
  CHECKF(L == NULL && U == NULL && strstr(csr_context_last_message(ctx), "ILUT") != NULL, "'%s'",
         csr_context_last_message(ctx));
  CHECK_OK(ctx, csr_context_set_memory_limit(ctx, 0));
  CHECK_OK(ctx, csri_ilut(ctx, &Bbig, 0.0, 1e9, 0.0, &L, &U, NULL, &failed));
  CHECK(failed == -1 && L != NULL && U != NULL && L->nnz + U->nnz > 200000 / 12);
  csr_matrix_free(&L), csr_matrix_free(&U);
  factor_csr_free(&Bbig), factor_csr_free(&B), factor_csr_free(&Bp);
  free(big);
  csr_matrix_free(&A);
}

int main(void) {
  csrt_rng rng = {csrt_seed("test_factor_host")};
  CHECK_OK(NULL, csr_context_create(&ctx));
  test_small_matchings(&rng);
  test_permuted_diagonal(&rng, 1);
  test_permuted_diagonal(&rng, 3000);
  test_duplicates();
  test_files();
  test_singular();
  test_large_diagonal();
  test_empty();
  test_scaling_overflow();
  test_ilut(&rng);
  test_ilutp(&rng);
  test_ilutp_file(&rng);
  test_allocation_failures(&rng);
  csr_context_free(&ctx);
  return csrt_finish("test_factor_host");
}
