/* SPDX-License-Identifier: BSD-3-Clause */
/* Backend tier of the format converters: the backend named by argv[1] (ref, omp, cuda; inputs
 * placed where it runs, results brought back) against the reference on every csrt_shape, fp64 /
 * fp32 / pattern, random and constant values, at several thread counts (so the OpenMP scatter
 * takes both its per-thread-count and its atomic path). Every backend adds duplicates in the same
 * order (COO order, stored order), so every result must equal the reference bit for bit, values
 * included: the tolerance is zero. Then round trips (to_coo -> from_coo, to_dense -> from_dense,
 * transpose twice), a large sparse case with long unsorted rows, and invalid arguments. A
 * converter the backend lacks must refuse device operands with CSR_ERR_UNSUPPORTED. */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

static csr_context *ref, *ctx; /* the oracle, and the backend under test */
static csr_backend backend;
#define EXPECT_STATUS(c, expr, want)                                                               \
  do {                                                                                             \
    csr_status s_ = (expr);                                                                        \
    csrt_checks++;                                                                                 \
    if (s_ != (want)) {                                                                            \
      char m_[600];                                                                                \
      snprintf(m_, sizeof m_, "%s gave %s, expected %s (%s)", #expr, csr_status_string(s_),        \
               csr_status_string(want), csr_context_last_error(c));                                \
      csrt_fail_in_case(__FILE__, __LINE__, m_);                                                   \
    }                                                                                              \
  } while (0)

static void set_value(void *values, csr_value_type type, int64_t k, double v) {
  if (type == CSR_F64)
    ((double *)values)[k] = v;
  else if (type == CSR_F32)
    ((float *)values)[k] = (float)v;
}

/* --- the converters on the backend under test: inputs placed, results brought to the host --- */

static csr_matrix *host_matrix(csr_matrix *P) { /* frees P */
  csr_matrix *H = NULL;
  if (P != NULL && csr_matrix_copy(ref, P, &H, CSR_HOST) != CSR_SUCCESS)
    csrt_fail_in_case(__FILE__, __LINE__, "copy to the host");
  csr_matrix_free(&P);
  return H;
}
static csr_coo *placed_coo(const csr_coo *T) {
  csr_coo *P = NULL;
  if (csr_coo_copy(ref, T, &P, csrt_location(backend)) != CSR_SUCCESS)
    csrt_fail_in_case(__FILE__, __LINE__, "COO placement");
  return P;
}
static csr_dense *placed_dense(const csr_dense *D, csr_location to) {
  csr_dense *P = NULL;
  if (D != NULL && csr_dense_copy(ref, D, &P, to) != CSR_SUCCESS)
    csrt_fail_in_case(__FILE__, __LINE__, "dense placement");
  return P;
}

static csr_status from_coo(const csr_coo *T, unsigned options, csr_matrix **B) {
  csr_coo *Tp = placed_coo(T);
  csr_status s = csr_from_coo(ctx, Tp, options, B);
  *B = host_matrix(*B);
  csr_coo_free(&Tp);
  return s;
}
static csr_status to_coo(const csr_matrix *A, csr_coo **B) {
  csr_matrix *Ap = csrt_place_matrix(backend, A);
  csr_coo *Bp = NULL;
  csr_status s = csr_to_coo(ctx, Ap, &Bp);
  *B = NULL;
  if (Bp != NULL && csr_coo_copy(ref, Bp, B, CSR_HOST) != CSR_SUCCESS)
    csrt_fail_in_case(__FILE__, __LINE__, "COO to the host");
  csr_coo_free(&Bp);
  csr_matrix_free(&Ap);
  return s;
}
static csr_status to_dense(const csr_matrix *A, csr_layout layout, csr_dense **B) {
  csr_matrix *Ap = csrt_place_matrix(backend, A);
  csr_dense *Bp = NULL;
  csr_status s = csr_to_dense(ctx, Ap, layout, &Bp);
  *B = placed_dense(Bp, CSR_HOST);
  csr_dense_free(&Bp);
  csr_matrix_free(&Ap);
  return s;
}
static csr_status from_dense(const csr_dense *D, csr_matrix **B) {
  csr_dense *Dp = placed_dense(D, csrt_location(backend));
  csr_status s = csr_from_dense(ctx, Dp, B);
  *B = host_matrix(*B);
  csr_dense_free(&Dp);
  return s;
}
static csr_status transpose(const csr_matrix *A, csr_matrix **B) {
  csr_matrix *Ap = csrt_place_matrix(backend, A);
  csr_status s = csr_transpose(ctx, Ap, B);
  *B = host_matrix(*B);
  csr_matrix_free(&Ap);
  return s;
}
static csr_status symmetric_expand(const csr_matrix *A, csr_triangle stored, csr_symmetry sym,
                                   csr_matrix **B) {
  csr_matrix *Ap = csrt_place_matrix(backend, A);
  csr_status s = csr_symmetric_expand(ctx, Ap, stored, sym, B);
  *B = host_matrix(*B);
  csr_matrix_free(&Ap);
  return s;
}

/* csrt_generate, except n x 0: testing.c gives that shape random row lengths with no column to
 * put them in (csrt_below(rng, 0) divides by zero), so its rows are built empty here. */
static csr_matrix *generate(csrt_shape shape, csr_value_type type, csrt_values values,
                            csrt_rng *rng) {
  if (shape != CSRT_EMPTY_NX0)
    return csrt_generate(ref, shape, type, values, rng);
  const int64_t len[13] = {0};
  return csrt_from_row_lengths(ref, 13, 0, len, type, values, rng);
}

/* Same shape, structure, bits of every value and flags; valid. */
static void same(const csr_matrix *A, const csr_matrix *B, int line) {
  int eq = 0;
  csrt_checks++;
  if (A == NULL || B == NULL || csr_matrix_equal(ref, A, B, &eq) != CSR_SUCCESS || !eq ||
      A->flags != B->flags || csr_matrix_validate(ref, B) != CSR_SUCCESS)
    csrt_fail_in_case(__FILE__, line,
                      "matrices differ (structure, values or flags) or the result is invalid");
}
#define SAME(A, B) same((A), (B), __LINE__)

/* Same structure only (offsets and columns). */
static int same_structure(const csr_matrix *A, const csr_matrix *B) {
  return A && B && A->rows == B->rows && A->cols == B->cols && A->nnz == B->nnz &&
         !memcmp(A->row_offsets, B->row_offsets, (size_t)(A->rows + 1) * sizeof(int64_t)) &&
         !memcmp(A->col_indices, B->col_indices, (size_t)A->nnz * sizeof(int32_t));
}

/* A with each row stably sorted by column: what transposing twice must give. */
static csr_matrix *row_sorted(const csr_matrix *A) {
  csr_matrix *S = NULL;
  csr_matrix_copy(ref, A, &S, CSR_HOST);
  for (int64_t i = 0; i < S->rows; i++)
    for (int64_t k = S->row_offsets[i] + 1; k < S->row_offsets[i + 1]; k++)
      for (int64_t q = k; q > S->row_offsets[i] && S->col_indices[q - 1] > S->col_indices[q]; q--) {
        int32_t c = S->col_indices[q];
        double v = csrt_value(S->values, S->value_type, q);
        S->col_indices[q] = S->col_indices[q - 1];
        set_value(S->values, S->value_type, q, csrt_value(S->values, S->value_type, q - 1));
        S->col_indices[q - 1] = c;
        set_value(S->values, S->value_type, q - 1, v);
      }
  return S;
}

/* A's triples plus a quarter more duplicating random ones (half of them cancelling the value,
 * some explicit zeros), in a random order. */
static csr_coo *scrambled(const csr_matrix *A, csrt_rng *rng) {
  csr_coo *T0 = NULL, *T = NULL;
  int64_t n = A->nnz, extra = A->nnz / 4;
  csr_to_coo(ref, A, &T0);
  csr_coo_create(ref, &T, A->rows, A->cols, n + extra, A->value_type, CSR_HOST);
  for (int64_t k = 0; k < n + extra; k++) {
    int64_t s = k < n ? k : (int64_t)csrt_below(rng, (uint64_t)n);
    double v = csrt_value(T0->values, A->value_type, s);
    if (k >= n)
      v = csrt_below(rng, 2) ? -v : csrt_below(rng, 4) ? 0.0 : csrt_uniform(rng, -1, 1);
    T->row_indices[k] = T0->row_indices[s];
    T->col_indices[k] = T0->col_indices[s];
    set_value(T->values, A->value_type, k, v);
  }
  for (int64_t k = n + extra - 1; k > 0; k--) { /* Fisher-Yates */
    int64_t j = (int64_t)csrt_below(rng, (uint64_t)k + 1);
    int32_t r = T->row_indices[k], c = T->col_indices[k];
    double v = csrt_value(T->values, A->value_type, k);
    T->row_indices[k] = T->row_indices[j], T->col_indices[k] = T->col_indices[j];
    set_value(T->values, A->value_type, k, csrt_value(T->values, A->value_type, j));
    T->row_indices[j] = r, T->col_indices[j] = c;
    set_value(T->values, A->value_type, j, v);
  }
  csr_coo_free(&T0);
  return T;
}

static void check_from_coo(const csr_coo *T) {
  if (!CSRT_IMPLEMENTS(backend, convert.from_coo))
    return;
  for (unsigned opt = 0; opt <= CSR_CONVERT_DROP_ZEROS; opt += CSR_CONVERT_DROP_ZEROS) {
    csr_matrix *R = NULL, *B = NULL;
    EXPECT_STATUS(ref, csr_from_coo(ref, T, opt, &R), CSR_SUCCESS);
    EXPECT_STATUS(ctx, from_coo(T, opt, &B), CSR_SUCCESS);
    SAME(R, B);
    EXPECT(csr_context_last_backend(ctx) == backend);
    csr_matrix_free(&R);
    csr_matrix_free(&B);
  }
}

static csr_coo *ordered(const csr_coo *T);

/* to_coo against the reference, then from_coo on A's triples (in A's order; back to A itself
 * when A is sorted and duplicate-free), on them scrambled with extra duplicates and zeros, and on
 * those ordered again (ordered input with repeats). Each half runs where the backend has it. */
static void check_coo(const csr_matrix *A, csrt_rng *rng) {
  csr_coo *R = NULL, *B = NULL;
  EXPECT_STATUS(ref, csr_to_coo(ref, A, &R), CSR_SUCCESS);
  if (CSRT_IMPLEMENTS(backend, convert.to_coo)) {
    EXPECT_STATUS(ctx, to_coo(A, &B), CSR_SUCCESS);
    size_t vs = A->value_type == CSR_F64 ? 8 : A->value_type == CSR_F32 ? 4 : 0, n = (size_t)A->nnz;
    EXPECT(R && B && B->nnz == A->nnz && B->flags == A->flags && B->rows == A->rows);
    EXPECT(R && B && !memcmp(R->row_indices, B->row_indices, n * 4));
    EXPECT(R && B && !memcmp(R->col_indices, B->col_indices, n * 4));
    EXPECT(R && B && (vs == 0 || !memcmp(R->values, B->values, n * vs)));
    csr_coo_free(&B);
  }
  if (R == NULL || !CSRT_IMPLEMENTS(backend, convert.from_coo)) {
    csr_coo_free(&R);
    return;
  }
  check_from_coo(R); /* the round trip, in A's order */
  if ((A->flags & CSR_FLAG_SORTED) && (A->flags & CSR_FLAG_NO_DUPLICATES)) {
    csr_matrix *C = NULL; /* sorted and duplicate-free: to_coo -> from_coo gives A back */
    EXPECT_STATUS(ctx, from_coo(R, 0, &C), CSR_SUCCESS);
    SAME(A, C);
    csr_matrix_free(&C);
  }
  csr_coo *S = scrambled(A, rng), *O = ordered(S);
  check_from_coo(S);
  check_from_coo(O);
  csr_coo_free(&S);
  csr_coo_free(&O);
  csr_coo_free(&R);
}

static void check_dense(const csr_matrix *A) {
  if (!CSRT_IMPLEMENTS(backend, convert.to_dense) || !CSRT_IMPLEMENTS(backend, convert.from_dense))
    return;
  csr_coo *T = NULL;
  csr_matrix *canon = NULL; /* duplicates summed, exact zeros dropped: what a dense trip keeps */
  csr_to_coo(ref, A, &T);
  csr_from_coo(ref, T, CSR_CONVERT_DROP_ZEROS, &canon);
  for (int layout = CSR_ROW_MAJOR; layout <= CSR_COL_MAJOR; layout++) {
    csr_dense *R = NULL, *B = NULL;
    EXPECT_STATUS(ref, csr_to_dense(ref, A, (csr_layout)layout, &R), CSR_SUCCESS);
    EXPECT_STATUS(ctx, to_dense(A, (csr_layout)layout, &B), CSR_SUCCESS);
    size_t bytes = R ? (size_t)(R->rows * R->cols) * (R->value_type == CSR_F32 ? 4 : 8) : 0;
    EXPECT(R && B && B->ld == R->ld && (int)B->layout == layout &&
           !memcmp(R->data, B->data, bytes));
    csr_matrix *FR = NULL, *FB = NULL;
    EXPECT_STATUS(ref, csr_from_dense(ref, B, &FR), CSR_SUCCESS);
    EXPECT_STATUS(ctx, from_dense(B, &FB), CSR_SUCCESS);
    SAME(FR, FB);
    if (A->value_type == CSR_PATTERN) /* F64 counts: the positions survive */
      EXPECT(same_structure(canon, FB));
    else
      SAME(canon, FB);
    csr_matrix_free(&FR);
    csr_matrix_free(&FB);
    csr_dense_free(&R);
    csr_dense_free(&B);
  }
  csr_matrix_free(&canon);
  csr_coo_free(&T);
}

static void check_transpose(const csr_matrix *A) {
  if (!CSRT_IMPLEMENTS(backend, convert.transpose))
    return;
  csr_matrix *R = NULL, *B = NULL, *BB = NULL, *S = row_sorted(A);
  EXPECT_STATUS(ref, csr_transpose(ref, A, &R), CSR_SUCCESS);
  EXPECT_STATUS(ctx, transpose(A, &B), CSR_SUCCESS);
  SAME(R, B);
  EXPECT_STATUS(ctx, transpose(B, &BB), CSR_SUCCESS);
  int eq = 0;
  EXPECT(BB && csr_matrix_equal(ref, S, BB, &eq) == CSR_SUCCESS && eq);
  EXPECT(BB && BB->flags == (CSR_FLAG_SORTED | (A->flags & CSR_FLAG_NO_DUPLICATES)));
  csr_matrix_free(&R);
  csr_matrix_free(&B);
  csr_matrix_free(&BB);
  csr_matrix_free(&S);
}

/* The entries of A with col <= row (strict: col < row). */
static csr_matrix *lower(const csr_matrix *A, int strict) {
  csr_matrix *L = NULL;
  csr_matrix_copy(ref, A, &L, CSR_HOST);
  int64_t k = 0;
  for (int64_t i = 0; i < A->rows; i++) {
    for (int64_t t = A->row_offsets[i]; t < A->row_offsets[i + 1]; t++)
      if (A->col_indices[t] < i + !strict) {
        L->col_indices[k] = A->col_indices[t];
        set_value(L->values, A->value_type, k++, csrt_value(A->values, A->value_type, t));
      }
    L->row_offsets[i + 1] = k;
  }
  L->nnz = k;
  return L;
}

/* Full matrix F against its transpose: equal (symmetric) or negated (skew). */
static void check_mirror(const csr_matrix *F, int skew) {
  csr_matrix *FT = NULL;
  EXPECT_STATUS(ctx, transpose(F, &FT), CSR_SUCCESS);
  EXPECT(FT && same_structure(F, FT));
  for (int64_t k = 0; FT && k < F->nnz && same_structure(F, FT); k++)
    EXPECT(csrt_value(FT->values, F->value_type, k) ==
           (skew ? -1 : 1) * csrt_value(F->values, F->value_type, k));
  csr_matrix_free(&FT);
}

static void check_expand(const csr_matrix *A) {
  if (!CSRT_IMPLEMENTS(backend, convert.symmetric_expand))
    return;
  if (A->rows != A->cols) {
    csr_matrix *F = NULL;
    EXPECT_STATUS(ctx, symmetric_expand(A, CSR_LOWER, CSR_SYMMETRIC, &F),
                  CSR_ERR_DIMENSION_MISMATCH);
    EXPECT(F == NULL);
    return;
  }
  csr_matrix *L = lower(A, 0), *SL = lower(A, 1);
  const csr_matrix *inputs[3] = {L, SL, A}; /* A itself: both triangles, mirrored each way */
  for (int c = 0; c < 3; c++)
    for (int skew = 0; skew <= (A->value_type != CSR_PATTERN && c == 1); skew++) {
      csr_symmetry sym = skew ? CSR_SKEW_SYMMETRIC : CSR_SYMMETRIC;
      csr_matrix *R = NULL, *B = NULL;
      EXPECT_STATUS(ref, csr_symmetric_expand(ref, inputs[c], CSR_LOWER, sym, &R), CSR_SUCCESS);
      EXPECT_STATUS(ctx, symmetric_expand(inputs[c], CSR_UPPER, sym, &B), CSR_SUCCESS);
      SAME(R, B);
      if (c < 2 && (A->flags & CSR_FLAG_NO_DUPLICATES) && B)
        check_mirror(B, skew);
      csr_matrix_free(&R);
      csr_matrix_free(&B);
    }
  csr_matrix_free(&L);
  csr_matrix_free(&SL);
}

/* COO -> CSR with many rows (more than threads x rows counters: the atomic scatter), long
 * unsorted rows with duplicates (the merge sort), rows either side of the insertion-sort run. */
static void check_large(csrt_rng *rng, csr_value_type type, int64_t in_row_7) {
  const int64_t rows = 300000, cols = 4000, n = 60000;
  csr_coo *T = NULL;
  csr_coo_create(ref, &T, rows, cols, n, type, CSR_HOST);
  for (int64_t k = 0; k < n; k++) {
    int64_t r = k < in_row_7         ? 7
                : k < in_row_7 + 100 ? 8
                : k < in_row_7 + 133 ? 9
                                     : (int64_t)csrt_below(rng, rows);
    T->row_indices[k] = (int32_t)r;
    T->col_indices[k] = (int32_t)csrt_below(rng, r == 7 ? 1500 : (uint64_t)cols);
    set_value(T->values, type, k, csrt_uniform(rng, -1, 1));
  }
  snprintf(csrt_case, sizeof csrt_case, "%s: large COO, %lld in row 7, type %d, threads %d",
           csr_backend_name(backend), (long long)in_row_7, (int)type, csr_context_threads(ctx));
  check_from_coo(T);
  csr_matrix *A = NULL, *AT = NULL;
  csr_from_coo(ref, T, 0, &A);
  csr_transpose(ref, A, &AT); /* 4000 x 300000: transposing it groups into 300000 rows */
  check_transpose(A);
  check_transpose(AT);
  csr_matrix_free(&A);
  csr_matrix_free(&AT);
  csr_coo_free(&T);
}

/* T's triples stably ordered by (row, column): ordered input with its repeats in input order. */
static const csr_coo *order_key_coo; /* for the comparison below (qsort takes no context) */
static int by_row_column_then_position(const void *a, const void *b) {
  int64_t i = *(const int64_t *)a, j = *(const int64_t *)b;
  const csr_coo *T = order_key_coo;
  if (T->row_indices[i] != T->row_indices[j])
    return T->row_indices[i] < T->row_indices[j] ? -1 : 1;
  if (T->col_indices[i] != T->col_indices[j])
    return T->col_indices[i] < T->col_indices[j] ? -1 : 1;
  return i < j ? -1 : i > j;
}
static csr_coo *ordered(const csr_coo *T) {
  csr_coo *O = NULL;
  int64_t *perm = malloc((size_t)(T->nnz > 0 ? T->nnz : 1) * sizeof *perm);
  csr_coo_create(ref, &O, T->rows, T->cols, T->nnz, T->value_type, CSR_HOST);
  for (int64_t k = 0; k < T->nnz; k++)
    perm[k] = k;
  order_key_coo = T;
  qsort(perm, (size_t)T->nnz, sizeof *perm, by_row_column_then_position);
  for (int64_t k = 0; k < T->nnz; k++) {
    O->row_indices[k] = T->row_indices[perm[k]];
    O->col_indices[k] = T->col_indices[perm[k]];
    if (T->value_type != CSR_PATTERN)
      set_value(O->values, T->value_type, k, csrt_value(T->values, T->value_type, perm[k]));
  }
  free(perm);
  return O;
}

/* Triples that all lie in one row (of a 70000 x 1500000 matrix: keys wider than 32 bits), or one
 * column, or on one (row, column), unsorted with repeats and then ordered: the longest rows and
 * runs (one thread sums a run, in order). */
static void check_lines(csrt_rng *rng, csr_value_type type) {
  const int64_t n = 5000, wide = 1500000;
  for (int line = 0; line < 3; line++) {
    csr_coo *T = NULL;
    csr_coo_create(ref, &T,
                   line == 0   ? 70000
                   : line == 1 ? wide
                               : 3,
                   line == 0 ? wide : 3, n, type, CSR_HOST);
    for (int64_t k = 0; k < n; k++) {
      int32_t spread = (int32_t)csrt_below(rng, line == 2 ? 1 : 900);
      T->row_indices[k] = line == 0 ? 69999 : line == 1 ? spread * 1601 : 2;
      T->col_indices[k] = line == 0 ? spread * 1601 : 1;
      set_value(T->values, type, k, csrt_below(rng, 8) == 0 ? 0.0 : csrt_uniform(rng, -1, 1));
    }
    snprintf(csrt_case, sizeof csrt_case, "%s: COO on one %s, type %d", csr_backend_name(backend),
             line == 0   ? "row"
             : line == 1 ? "column"
                         : "entry",
             (int)type);
    check_from_coo(T);
    csr_coo *O = ordered(T);
    check_from_coo(O);
    csr_coo_free(&O);
    csr_coo_free(&T);
  }
}

/* Long runs of empty rows (a hypersparse 2^22-row matrix: most gaps between rows span hundreds
 * of rows, the first and the last thousands), ordered with repeats, then with only its last two
 * triples swapped (disorder found in the last tile), then shuffled. */
static void check_gaps(csrt_rng *rng, csr_value_type type) {
  const int64_t rows = (int64_t)1 << 22, cols = 5000, n = 9000;
  csr_coo *T = NULL;
  csr_coo_create(ref, &T, rows, cols, n, type, CSR_HOST);
  for (int64_t k = 0; k < n; k++) {
    T->row_indices[k] = (int32_t)(20000 + csrt_below(rng, (uint64_t)rows - 40000));
    T->col_indices[k] = (int32_t)csrt_below(rng, k % 5 ? (uint64_t)cols : 3);
    set_value(T->values, type, k, csrt_below(rng, 9) == 0 ? 0.0 : csrt_uniform(rng, -1, 1));
  }
  csr_coo *O = ordered(T);
  snprintf(csrt_case, sizeof csrt_case, "%s: hypersparse COO, type %d", csr_backend_name(backend),
           (int)type);
  check_from_coo(O);
  int64_t last = n - 1; /* the last two distinct triples swapped */
  while (last > 0 && O->row_indices[last - 1] == O->row_indices[last] &&
         O->col_indices[last - 1] == O->col_indices[last])
    last--;
  int32_t r = O->row_indices[last], c = O->col_indices[last];
  O->row_indices[last] = O->row_indices[last - 1], O->col_indices[last] = O->col_indices[last - 1];
  O->row_indices[last - 1] = r, O->col_indices[last - 1] = c;
  check_from_coo(O);
  check_from_coo(T);
  csr_coo_free(&O);
  csr_coo_free(&T);
}

/* Shuffled triples whose keys take 40 bits (a 2^20 x 2^20 matrix: five radix passes, the one
 * before the last taking out the repeats it sees in its tiles), over about 17 tiles of the sort:
 *  - spread: (row, column) pairs drawn from a pool of n / 3, so most triples repeat, in runs of a
 *    few keys that agree in every bit below the last digit;
 *  - runs: few columns and few low row bits, the rows' high bits varying: keys agreeing below the
 *    last digit form runs far longer than a pass examines, which cross tiles, so tiles begin in
 *    the middle of runs (left to the check after the sort);
 *  - mixed: half of each.
 * Values include zeros and pairs that cancel, so that repeats summing to zero are dropped. */
static void check_sort_repeats(csrt_rng *rng, csr_value_type type) {
  const int64_t side = (int64_t)1 << 20, n = 100000, pool = n / 3;
  int32_t *pool_row = malloc((size_t)pool * sizeof *pool_row);
  int32_t *pool_col = malloc((size_t)pool * sizeof *pool_col);
  for (int64_t q = 0; q < pool; q++) {
    pool_row[q] = (int32_t)csrt_below(rng, (uint64_t)side);
    pool_col[q] = (int32_t)csrt_below(rng, (uint64_t)side);
  }
  static const char *const shapes[3] = {"spread", "runs", "mixed"};
  for (int shape = 0; shape < 3; shape++) {
    csr_coo *T = NULL;
    csr_coo_create(ref, &T, side, side, n, type, CSR_HOST);
    for (int64_t k = 0; k < n; k++) {
      const int run = shape == 1 || (shape == 2 && k % 2 == 1);
      const int64_t q = (int64_t)csrt_below(rng, (uint64_t)pool);
      T->row_indices[k] =
          run ? (int32_t)(csrt_below(rng, 256) << 12 | csrt_below(rng, 3)) : pool_row[q];
      T->col_indices[k] = run ? (int32_t)csrt_below(rng, 7) : pool_col[q];
      const double v = csrt_below(rng, 10) == 0 ? 0.0 : csrt_uniform(rng, -1, 1);
      set_value(T->values, type, k, v);
      if (k > 0 && csrt_below(rng, 20) == 0) { /* the triple before, cancelled */
        T->row_indices[k] = T->row_indices[k - 1];
        T->col_indices[k] = T->col_indices[k - 1];
        set_value(T->values, type, k, -csrt_value(T->values, type, k - 1));
      }
    }
    snprintf(csrt_case, sizeof csrt_case, "%s: 40-bit keys with repeats, %s, type %d",
             csr_backend_name(backend), shapes[shape], (int)type);
    check_from_coo(T);
    csr_coo_free(&T);
  }
  free(pool_row);
  free(pool_col);
}

/* Triples outside the matrix: the first one (in input order) is named, as the reference names it,
 * wherever in the input it lies (several warps and blocks apart). */
static void check_bad_triples(csrt_rng *rng) {
  if (!CSRT_IMPLEMENTS(backend, convert.from_coo))
    return;
  const int64_t n = 20000, rows = 500, cols = 300;
  const int64_t bad_at[4] = {33, 4097, 7000, 19999};
  for (int first = 0; first < 4; first++) {
    csr_coo *T = NULL;
    csr_coo_create(ref, &T, rows, cols, n, CSR_F64, CSR_HOST);
    for (int64_t k = 0; k < n; k++) {
      T->row_indices[k] = (int32_t)csrt_below(rng, rows);
      T->col_indices[k] = (int32_t)csrt_below(rng, cols);
      ((double *)T->values)[k] = csrt_uniform(rng, -1, 1);
    }
    for (int b = first; b < 4; b++) { /* bad_at[first] is the earliest of those placed */
      int64_t k = bad_at[b];
      if (b % 3 == 0)
        T->row_indices[k] = b % 2 ? -1 : (int32_t)rows;
      else
        T->col_indices[k] = b % 2 ? (int32_t)cols : -5;
    }
    snprintf(csrt_case, sizeof csrt_case, "%s: triple %lld outside the matrix",
             csr_backend_name(backend), (long long)bad_at[first]);
    csr_matrix *R = NULL, *B = NULL;
    EXPECT_STATUS(ref, csr_from_coo(ref, T, 0, &R), CSR_ERR_INDEX_OUT_OF_BOUNDS);
    EXPECT_STATUS(ctx, from_coo(T, 0, &B), CSR_ERR_INDEX_OUT_OF_BOUNDS);
    EXPECT(B == NULL && !strcmp(csr_context_last_error(ref), csr_context_last_error(ctx)));
    csr_coo_free(&T);
  }
  /* Ordered triples, 40 a row, with one outside the matrix that keeps the order (a column past
   * the last, at the end of its row): alone, and with two triples swapped later in the input, so
   * that the bad one is named either by the pass over the given order or by the sort's check. */
  for (int disorder = 0; disorder < 2; disorder++) {
    csr_coo *T = NULL;
    csr_coo_create(ref, &T, rows, cols, n, CSR_F64, CSR_HOST);
    for (int64_t k = 0; k < n; k++) {
      T->row_indices[k] = (int32_t)(k / 40);
      T->col_indices[k] = (int32_t)(k % 40 * 7);
      ((double *)T->values)[k] = csrt_uniform(rng, -1, 1);
    }
    const int64_t bad = 40 * 175 + 39;
    T->col_indices[bad] = (int32_t)cols;
    if (disorder)
      T->col_indices[15000] = 7, T->col_indices[15001] = 0;
    snprintf(csrt_case, sizeof csrt_case, "%s: ordered triples, triple %lld outside the matrix%s",
             csr_backend_name(backend), (long long)bad, disorder ? ", disorder after it" : "");
    csr_matrix *R = NULL, *B = NULL;
    EXPECT_STATUS(ref, csr_from_coo(ref, T, 0, &R), CSR_ERR_INDEX_OUT_OF_BOUNDS);
    EXPECT_STATUS(ctx, from_coo(T, 0, &B), CSR_ERR_INDEX_OUT_OF_BOUNDS);
    EXPECT(B == NULL && !strcmp(csr_context_last_error(ref), csr_context_last_error(ctx)));
    csr_coo_free(&T);
  }
}

/* A 400 x 400 sorted, duplicate-free matrix of about 20000 entries, some rows empty: entries of
 * many warps and blocks, rows either side of a walk's pieces. */
static csr_matrix *square_400(csrt_rng *rng, csr_value_type type) {
  int64_t len[400];
  for (int i = 0; i < 400; i++)
    len[i] = i % 7 == 3 ? 0 : 3 + (int64_t)csrt_below(rng, 107);
  return csrt_from_row_lengths(ref, 400, 400, len, type, CSRT_RANDOM, rng);
}

/* The same status and message from the reference and the backend under test. */
static void same_refusal(csr_status want, csr_status got_ref, csr_status got, int line) {
  csrt_checks++;
  if (got_ref != want || got != want ||
      strcmp(csr_context_last_error(ref), csr_context_last_error(ctx)) != 0) {
    char msg[1200];
    snprintf(msg, sizeof msg, "want %d, reference %d '%s', backend %d '%s'", (int)want,
             (int)got_ref, csr_context_last_error(ref), (int)got, csr_context_last_error(ctx));
    csrt_fail_in_case(__FILE__, line, msg);
  }
}

/* Entries with a column outside the matrix, and a nonzero diagonal given as skew-symmetric: the
 * first one in stored order is named, as the reference names it, by every converter that
 * indexes with columns; and row offsets that decrease. */
static void check_bad_entries(csrt_rng *rng) {
  const int64_t bad_at[4] = {33, 4097, 7000, 19000};
  for (int first = 0; first < 4; first++) {
    csr_matrix *A = square_400(rng, CSR_F64), *R = NULL, *B = NULL;
    for (int b = first; b < 4; b++)
      A->col_indices[bad_at[b] % A->nnz] = b % 2 ? 400 : -3;
    snprintf(csrt_case, sizeof csrt_case, "%s: bad column at entry %lld", csr_backend_name(backend),
             (long long)(bad_at[first] % A->nnz));
    const csr_status OOB = CSR_ERR_INDEX_OUT_OF_BOUNDS;
    if (CSRT_IMPLEMENTS(backend, convert.transpose)) {
      same_refusal(OOB, csr_transpose(ref, A, &R), transpose(A, &B), __LINE__);
      EXPECT(B == NULL);
    }
    if (CSRT_IMPLEMENTS(backend, convert.symmetric_expand)) {
      same_refusal(OOB, csr_symmetric_expand(ref, A, CSR_LOWER, CSR_SYMMETRIC, &R),
                   symmetric_expand(A, CSR_LOWER, CSR_SYMMETRIC, &B), __LINE__);
      EXPECT(B == NULL);
    }
    if (CSRT_IMPLEMENTS(backend, convert.to_dense)) {
      csr_dense *DR = NULL, *DB = NULL;
      same_refusal(OOB, csr_to_dense(ref, A, CSR_COL_MAJOR, &DR), to_dense(A, CSR_COL_MAJOR, &DB),
                   __LINE__);
      EXPECT(DB == NULL);
    }
    csr_matrix_free(&A);
  }
  if (CSRT_IMPLEMENTS(backend, convert.symmetric_expand)) {
    for (int f = 0; f < 2; f++) {
      csr_matrix *A = square_400(rng, f ? CSR_F32 : CSR_F64), *R = NULL, *B = NULL;
      int64_t skipped = 0; /* a nonzero diagonal entry in a late row, the earlier ones zero */
      for (int64_t i = 0; i < A->rows; i++)
        for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
          if (A->col_indices[k] == i && (i < 250 || skipped++ > 0))
            set_value(A->values, A->value_type, k, 0.0);
      snprintf(csrt_case, sizeof csrt_case, "%s: skew diagonal", csr_backend_name(backend));
      csr_status want = skipped > 0 ? CSR_ERR_INVALID_MATRIX : CSR_SUCCESS;
      same_refusal(want, csr_symmetric_expand(ref, A, CSR_LOWER, CSR_SKEW_SYMMETRIC, &R),
                   symmetric_expand(A, CSR_LOWER, CSR_SKEW_SYMMETRIC, &B), __LINE__);
      csr_matrix_free(&R);
      csr_matrix_free(&B);
      csr_matrix_free(&A);
    }
  }
  if (CSRT_IMPLEMENTS(backend, convert.transpose)) {
    csr_matrix *A = square_400(rng, CSR_F32), *R = NULL, *B = NULL;
    A->row_offsets[301] = A->row_offsets[300] - 1; /* row 300 ends before it starts */
    snprintf(csrt_case, sizeof csrt_case, "%s: decreasing offsets", csr_backend_name(backend));
    same_refusal(CSR_ERR_INVALID_MATRIX, csr_transpose(ref, A, &R), transpose(A, &B), __LINE__);
    csr_matrix_free(&A);
  }
}

/* A 100000 x 100000 matrix: rows and columns need 17 bits each, so the device's symmetric
 * expansion sorts 64-bit (row, column) keys; transposed as well. */
static void check_wide(csrt_rng *rng) {
  int64_t *len = calloc(100000, sizeof *len);
  for (int i = 0; i < 100000; i += 1 + (int)csrt_below(rng, 40))
    len[i] = 1 + (int64_t)csrt_below(rng, 6);
  for (int t = 0; t < 2; t++) {
    csr_matrix *A =
        csrt_from_row_lengths(ref, 100000, 100000, len, t ? CSR_F32 : CSR_F64, CSRT_RANDOM, rng);
    snprintf(csrt_case, sizeof csrt_case, "%s: 100000 x 100000, type %d", csr_backend_name(backend),
             (int)A->value_type);
    check_transpose(A);
    check_expand(A);
    csr_matrix_free(&A);
  }
  free(len);
}

/* csr_matrix_validate where the backend keeps A, against the reference's report of the host A:
 * every invariant broken, in a late row and an early one. */
static csr_status validate_placed(const csr_matrix *A) {
  csr_matrix *P = csrt_place_matrix(backend, A);
  csr_status s = csr_matrix_validate(ctx, P);
  csr_matrix_free(&P);
  return s;
}
static void check_validation(csrt_rng *rng) {
  for (int c = 0; c < 11; c++) {
    csr_matrix *A = square_400(rng, c % 3 == 2 ? CSR_PATTERN : CSR_F64);
    const int64_t late = A->row_offsets[351] - 1, early = A->row_offsets[20] + 1;
    csr_status want = CSR_ERR_INVALID_MATRIX;
    switch (c) {
    case 0: /* valid */ want = CSR_SUCCESS; break;
    case 1: A->row_offsets[0] = 2; break;
    case 2:
      A->row_offsets[380] = A->row_offsets[379] - 1;
      A->row_offsets[390] = A->row_offsets[389] - 2;
      break;
    case 3: A->row_offsets[A->rows] = A->nnz - 1; break;
    case 4: A->col_indices[late] = 400, want = CSR_ERR_INDEX_OUT_OF_BOUNDS; break;
    case 5:
      A->col_indices[late] = -1, A->col_indices[A->nnz - 1] = 999;
      want = CSR_ERR_INDEX_OUT_OF_BOUNDS;
      break;
    case 6: /* a repeat in a row flagged sorted without duplicates */
      A->col_indices[late] = A->col_indices[late - 1];
      break;
    case 7: /* the same flagged only sorted: allowed; an inversion is not */
      A->col_indices[late] = A->col_indices[late - 1];
      A->flags = CSR_FLAG_SORTED;
      A->col_indices[early] =
          A->col_indices[early - 1] - 1 >= 0 ? A->col_indices[early - 1] - 1 : 0;
      want = A->col_indices[early - 1] > 0 ? CSR_ERR_INVALID_MATRIX : CSR_SUCCESS;
      break;
    case 8: /* unsorted, flagged duplicate-free, two repeats: the earlier is named */
    case 9:
      for (int64_t i = 0; i < A->rows; i++) /* reverse every row */
        for (int64_t a = A->row_offsets[i], b = A->row_offsets[i + 1] - 1; a < b; a++, b--) {
          int32_t t = A->col_indices[a];
          A->col_indices[a] = A->col_indices[b], A->col_indices[b] = t;
        }
      A->flags = CSR_FLAG_NO_DUPLICATES;
      A->col_indices[late] = A->col_indices[late - 2];
      if (c == 9)
        A->col_indices[early + 1] = A->col_indices[early - 1];
      break;
    default: /* unsorted, duplicates allowed */
      A->col_indices[early] = A->col_indices[early + 2];
      A->flags = 0;
      want = CSR_SUCCESS;
      break;
    }
    snprintf(csrt_case, sizeof csrt_case, "%s: validation case %d", csr_backend_name(backend), c);
    same_refusal(want, csr_matrix_validate(ref, A), validate_placed(A), __LINE__);
    csr_matrix_free(&A);
  }
}

/* Sets out to a non-NULL sentinel, runs call, expects status want and out NULL again. */
#define REJECTS(out, sentinel, call, want)                                                         \
  do {                                                                                             \
    out = sentinel;                                                                                \
    EXPECT_STATUS(ctx, call, want);                                                                \
    EXPECT(out == NULL);                                                                           \
  } while (0)

/* Device descriptors (never read) of a converter the CUDA backend lacks, refused as the dispatch
 * rule says: UNSUPPORTED naming the operation when the CUDA backend is built; without it,
 * LOCATION_MISMATCH for a context that insists on a CPU backend, else NOT_COMPILED. */
static csr_status device_refusal(void) {
  if (csr_backend_available(CSR_BACKEND_CUDA))
    return CSR_ERR_UNSUPPORTED;
  return backend == CSR_BACKEND_AUTO ? CSR_ERR_NOT_COMPILED : CSR_ERR_LOCATION_MISMATCH;
}
static void expect_device_message(int line) {
  const char *want = csr_backend_available(CSR_BACKEND_CUDA) ? "is not in the CUDA backend"
                                                             : "need the CUDA backend";
  csrt_checks++;
  if (!strstr(csr_context_last_error(ctx), want))
    csrt_fail_in_case(__FILE__, line, csr_context_last_error(ctx));
}

/* NULL arguments, bad enums, device operands, descriptors that contradict themselves. Every
 * converter has one input operand, so the location case is a device input (there is no pair of
 * operands to mismatch). */
static void check_invalid(void) {
  snprintf(csrt_case, sizeof csrt_case, "invalid arguments, %s", csr_backend_name(backend));
  csrt_rng rng = {7};
  csr_matrix *A = csrt_generate(ref, CSRT_RANDOM_WIDE, CSR_F64, CSRT_RANDOM, &rng), *M = NULL;
  csr_coo *T = NULL, *C = NULL;
  csr_dense *D = NULL, *E = NULL;
  csr_to_coo(ref, A, &T);
  csr_to_dense(ref, A, CSR_COL_MAJOR, &D);
  const csr_status NUL = CSR_ERR_NULL_POINTER, BAD = CSR_ERR_INVALID_VALUE;

  REJECTS(M, A, csr_from_coo(ctx, NULL, 0, &M), NUL);
  EXPECT_STATUS(ctx, csr_from_coo(ctx, T, 0, NULL), NUL);
  REJECTS(C, T, csr_to_coo(ctx, NULL, &C), NUL);
  EXPECT_STATUS(ctx, csr_to_coo(ctx, A, NULL), NUL);
  REJECTS(M, A, csr_from_dense(ctx, NULL, &M), NUL);
  EXPECT_STATUS(ctx, csr_from_dense(ctx, D, NULL), NUL);
  REJECTS(E, D, csr_to_dense(ctx, NULL, CSR_ROW_MAJOR, &E), NUL);
  EXPECT_STATUS(ctx, csr_to_dense(ctx, A, CSR_ROW_MAJOR, NULL), NUL);
  REJECTS(M, A, csr_transpose(ctx, NULL, &M), NUL);
  EXPECT_STATUS(ctx, csr_transpose(ctx, A, NULL), NUL);
  REJECTS(M, A, csr_symmetric_expand(ctx, NULL, CSR_LOWER, CSR_SYMMETRIC, &M), NUL);
  EXPECT_STATUS(ctx, csr_symmetric_expand(ctx, A, CSR_LOWER, CSR_SYMMETRIC, NULL), NUL);

  REJECTS(M, A, csr_from_coo(ctx, T, 2u, &M), BAD); /* an option bit that does not exist */
  REJECTS(E, D, csr_to_dense(ctx, A, (csr_layout)2, &E), BAD);
  REJECTS(M, A, csr_symmetric_expand(ctx, A, (csr_triangle)2, CSR_SYMMETRIC, &M), BAD);
  REJECTS(M, A, csr_symmetric_expand(ctx, A, CSR_LOWER, (csr_symmetry)2, &M), BAD);
  csr_matrix bad = *A;
  csr_coo badT = *T;
  csr_dense badD = *D;
  for (int field = 0; field < 3; field++) { /* value type, location, a negative size */
    bad = *A, badT = *T, badD = *D;
    if (field == 0)
      bad.value_type = badT.value_type = (csr_value_type)7, badD.value_type = CSR_PATTERN;
    else if (field == 1)
      bad.location = badT.location = badD.location = (csr_location)5;
    else
      bad.rows = badT.cols = badD.rows = -1;
    REJECTS(M, A, csr_from_coo(ctx, &badT, 0, &M), BAD);
    REJECTS(C, T, csr_to_coo(ctx, &bad, &C), BAD);
    REJECTS(M, A, csr_from_dense(ctx, &badD, &M), BAD);
    REJECTS(E, D, csr_to_dense(ctx, &bad, CSR_ROW_MAJOR, &E), BAD);
    REJECTS(M, A, csr_transpose(ctx, &bad, &M), BAD);
    REJECTS(M, A, csr_symmetric_expand(ctx, &bad, CSR_LOWER, CSR_SYMMETRIC, &M), BAD);
  }
  badD = *D, badD.layout = (csr_layout)3;
  REJECTS(M, A, csr_from_dense(ctx, &badD, &M), BAD);
  badD = *D, badD.ld = D->rows - 1; /* column-major: ld below rows */
  REJECTS(M, A, csr_from_dense(ctx, &badD, &M), BAD);

  /* On the device: a converter the CUDA backend lacks is refused. */
  const csr_status UNS = device_refusal();
  bad = *A, badT = *T, badD = *D;
  bad.location = badT.location = badD.location = CSR_DEVICE;
#define REFUSED_ON_DEVICE(entry, out, sentinel, call)                                              \
  do {                                                                                             \
    if (!CSRT_IMPLEMENTS(CSR_BACKEND_CUDA, entry)) {                                               \
      REJECTS(out, sentinel, call, UNS);                                                           \
      expect_device_message(__LINE__);                                                             \
    }                                                                                              \
  } while (0)
  REFUSED_ON_DEVICE(convert.from_coo, M, A, csr_from_coo(ctx, &badT, 0, &M));
  REFUSED_ON_DEVICE(convert.to_coo, C, T, csr_to_coo(ctx, &bad, &C));
  REFUSED_ON_DEVICE(convert.from_dense, M, A, csr_from_dense(ctx, &badD, &M));
  REFUSED_ON_DEVICE(convert.to_dense, E, D, csr_to_dense(ctx, &bad, CSR_COL_MAJOR, &E));
  REFUSED_ON_DEVICE(convert.transpose, M, A, csr_transpose(ctx, &bad, &M));
  REFUSED_ON_DEVICE(convert.symmetric_expand, M, A,
                    csr_symmetric_expand(ctx, &bad, CSR_UPPER, CSR_SYMMETRIC, &M));
#undef REFUSED_ON_DEVICE

  bad = *A, bad.nnz = A->nnz + 1; /* row_offsets[rows] != nnz */
  REJECTS(M, A, csr_transpose(ctx, &bad, &M), CSR_ERR_INVALID_MATRIX);
  bad = *A, bad.col_indices = NULL;
  REJECTS(C, T, csr_to_coo(ctx, &bad, &C), NUL);
  badT = *T, badT.values = NULL;
  REJECTS(M, A, csr_from_coo(ctx, &badT, 0, &M), NUL);
  badD = *D, badD.data = NULL;
  REJECTS(M, A, csr_from_dense(ctx, &badD, &M), NUL);
  REJECTS(M, A, csr_symmetric_expand(ctx, A, CSR_LOWER, CSR_SYMMETRIC, &M),
          CSR_ERR_DIMENSION_MISMATCH); /* 60 x 2500 */
  csr_matrix *P = csrt_generate(ref, CSRT_ONE_BY_ONE, CSR_PATTERN, CSRT_CONSTANT, &rng);
  REJECTS(M, A, csr_symmetric_expand(ctx, P, CSR_LOWER, CSR_SKEW_SYMMETRIC, &M), BAD);

  EXPECT_STATUS(ctx, csr_from_coo(NULL, T, 0, &M), CSR_SUCCESS); /* no context: defaults */
  csr_matrix_free(&M);
  if (csr_backend_available(CSR_BACKEND_CUDA)) { /* host operands: the CPU runs them */
    csr_context *cuda = csrt_context(CSR_BACKEND_CUDA);
    EXPECT_STATUS(cuda, csr_transpose(cuda, A, &M), CSR_INFO_DECLINED);
    csr_matrix *R = NULL;
    csr_transpose(ref, A, &R);
    SAME(R, M);
    csr_matrix_free(&R);
    csr_matrix_free(&M);
    csr_context_free(&cuda);
  }
  csr_matrix_free(&P);
  csr_matrix_free(&A);
  csr_coo_free(&T);
  csr_dense_free(&D);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  csrt_rng rng = {csrt_seed("backend_convert")};
  ref = csrt_context(CSR_BACKEND_REF);
  ctx = csrt_context(backend);
  /* device arrays come filled with 0xff bytes: an offset, column or value a converter leaves
   * unwritten is then -1 or NaN, never a zero that happens to be right */
  csr_debug_poison_device_allocations(1);
  const csr_value_type types[] = {CSR_F64, CSR_F32, CSR_PATTERN};
  const int threads[] = {0, 3, 16};
  /* Thread counts steer the OpenMP backend only: the others run the cases once. */
  const int thread_cases = backend == CSR_BACKEND_OMP ? 3 : 1;
  /* Parts (csrt_part), each converter on every generated shape: coo (and the large rows), dense,
   * transpose (and the symmetric expansion); then edges (the lines, gaps, repeats, bad input and
   * refusals). */
  const int coo = csrt_part(argc, argv, "coo"), dense = csrt_part(argc, argv, "dense"),
            transpose = csrt_part(argc, argv, "transpose"), edges = csrt_part(argc, argv, "edges");
  for (int th = 0; th < thread_cases && (coo || dense || transpose); th++) {
    csr_context_set_threads(ctx, threads[th]);
    for (int s = 0; s < CSRT_SHAPE_COUNT; s++)
      for (int t = 0; t < 3; t++)
        for (int v = CSRT_RANDOM; v <= CSRT_CONSTANT; v++) {
          snprintf(csrt_case, sizeof csrt_case, "%s %s, shape %s, type %d, values %d, threads %d",
                   argv[0], csr_backend_name(backend), csrt_shape_name((csrt_shape)s),
                   (int)types[t], v, threads[th]);
          csr_matrix *A = generate((csrt_shape)s, types[t], (csrt_values)v, &rng);
          if (coo)
            check_coo(A, &rng);
          if (dense)
            check_dense(A);
          if (transpose) {
            check_transpose(A);
            check_expand(A);
          }
          csr_matrix_free(&A);
        }
    for (int t = 0; t < 3 && coo; t++) { /* the OpenMP backend groups rows through buckets of
                                          * rows, unless one bucket holds most triples (40000 in
                                          * row 7) */
      check_large(&rng, types[t], 5000);
      check_large(&rng, types[t], 40000);
    }
  }
  for (int t = 0; t < 3 && edges; t++) {
    check_lines(&rng, types[t]);
    check_gaps(&rng, types[t]);
    check_sort_repeats(&rng, types[t]);
  }
  if (edges) {
    check_bad_triples(&rng);
    check_bad_entries(&rng);
    check_wide(&rng);
    check_validation(&rng);
    check_invalid();
  }
  csr_context_free(&ref);
  csr_context_free(&ctx);
  return csrt_finish("backend_convert");
}
