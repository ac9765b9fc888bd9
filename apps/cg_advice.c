/* SPDX-License-Identifier: BSD-3-Clause */
/* cg's advice after a method failed: whether A is symmetric (A against its transpose, through the
 * public csr_transpose), whether a diagonal entry rules out positive definiteness, and the method
 * that fits. Run only on the way out of a failed or stalled solve, so its cost (a transpose or
 * two of A) never counts in a successful run. */
#include "cg_advice.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double value_at(const csr_matrix *A, int64_t k) {
  if (A->value_type == CSR_PATTERN)
    return 1.0;
  return A->value_type == CSR_F64 ? ((const double *)A->values)[k]
                                  : (double)((const float *)A->values)[k];
}

/* The sum of the entries of row i from *k on whose column is j (columns sorted), advancing *k. */
static double take_column(const csr_matrix *A, int64_t i, int64_t j, int64_t *k) {
  double sum = 0.0;
  for (; *k < A->row_offsets[i + 1] && A->col_indices[*k] == j; ++*k)
    sum += value_at(A, *k);
  return sum;
}

/* Two values are taken as equal within a relative 1e-10: the rounding of a file written from a
 * symmetric matrix should not make it "unsymmetric" (CG does not mind such a difference). */
static int near(double a, double b) {
  return fabs(a - b) <= 1e-10 * fmax(fabs(a), fabs(b));
}

/* Compares S (A, columns sorted) with T = A^T row by row; the first (i, j) where they differ. */
static int first_difference(const csr_matrix *S, const csr_matrix *T, cg_symmetry *out) {
  for (int64_t i = 0; i < S->rows; i++) {
    int64_t ks = S->row_offsets[i], kt = T->row_offsets[i];
    while (ks < S->row_offsets[i + 1] || kt < T->row_offsets[i + 1]) {
      int64_t js = ks < S->row_offsets[i + 1] ? S->col_indices[ks] : INT64_MAX;
      int64_t jt = kt < T->row_offsets[i + 1] ? T->col_indices[kt] : INT64_MAX;
      int64_t j = js < jt ? js : jt;
      double a_ij = take_column(S, i, j, &ks), a_ji = take_column(T, i, j, &kt);
      if (!near(a_ij, a_ji)) {
        out->row = i;
        out->col = j;
        out->a_ij = a_ij;
        out->a_ji = a_ji;
        return 1;
      }
    }
  }
  return 0;
}

/* The first row whose diagonal (its stored entries summed; 0 when none) is <= 0, or -1. */
static void first_nonpositive_diagonal(const csr_matrix *S, cg_symmetry *out) {
  out->diagonal_row = -1;
  for (int64_t i = 0; i < S->rows && out->diagonal_row < 0; i++) {
    int64_t k = S->row_offsets[i];
    while (k < S->row_offsets[i + 1] && S->col_indices[k] < i)
      k++;
    double d = take_column(S, i, i, &k);
    if (!(d > 0.0)) {
      out->diagonal_row = i;
      out->diagonal = d;
    }
  }
}

csr_status cg_check_symmetry(csr_context *ctx, const csr_matrix *A, cg_symmetry *out) {
  memset(out, 0, sizeof *out);
  out->row = out->col = out->diagonal_row = -1;
  csr_matrix *T = NULL, *sorted = NULL;
  csr_status s = csr_transpose(ctx, A, &T);
  /* A^T's columns come out sorted; A's are sorted once transposed twice. */
  if (s >= 0 && (A->flags & CSR_FLAG_SORTED) == 0)
    s = csr_transpose(ctx, T, &sorted);
  if (s >= 0) {
    const csr_matrix *S = sorted != NULL ? sorted : A;
    out->symmetric = !first_difference(S, T, out);
    if (out->symmetric)
      first_nonpositive_diagonal(S, out);
  }
  csr_matrix_free(&T);
  csr_matrix_free(&sorted);
  return s;
}

int cg_advice(const cg_symmetry *sym, csr_solver_method method, int broke_down, char *text,
              size_t size) {
  const char *needs = "CG and PCG need a symmetric positive definite A";
  if (method == CSR_SOLVER_GMRES) /* any A: a breakdown says A is singular, which no method fixes */
    return 0;
  if (method == CSR_SOLVER_BICGSTAB) {
    if (!broke_down || !sym->symmetric || sym->diagonal_row >= 0)
      return 0;
    snprintf(text, size,
             "A is symmetric with a positive diagonal: if it is also positive definite, "
             "--method pcg fits");
    return 1;
  }
  if (!sym->symmetric) {
    snprintf(text, size,
             "A is not symmetric (A(%lld,%lld) = %g but A(%lld,%lld) = %g, 0-based): %s; "
             "try --method bicgstab",
             (long long)sym->row, (long long)sym->col, sym->a_ij, (long long)sym->col,
             (long long)sym->row, sym->a_ji, needs);
    return 1;
  }
  if (sym->diagonal_row >= 0) {
    snprintf(text, size,
             "A is symmetric but not positive definite (A(%lld,%lld) = %g <= 0, 0-based): %s; "
             "try --method bicgstab (any nonsingular A)",
             (long long)sym->diagonal_row, (long long)sym->diagonal_row, sym->diagonal, needs);
    return 1;
  }
  if (!broke_down)
    return 0;
  snprintf(text, size,
           "A is symmetric but not positive definite (p'Ap <= 0 for a search direction p): %s; try "
           "--method bicgstab (any nonsingular A)",
           needs);
  return 1;
}
