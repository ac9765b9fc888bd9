/* SPDX-License-Identifier: BSD-3-Clause */
/* Backend tier of reordering: csr_permute, csr_permute_vector and csr_reorder on the backend
 * named by argv[1] (operands placed where it runs), on every generated shape, fp64 / fp32 /
 * pattern, at several thread counts for OpenMP.
 *  - P_r A P_c' against an oracle written here (each new row gathered, then ordered by new column
 *    with an insertion sort, stable), bit for bit, flags included; rows or columns alone; and
 *    against a dense reference: B(i, j) = A(old_of_new_r[i], old_of_new_c[j]).
 *  - vectors: forward against x[old_of_new[k]], backward undoes forward.
 *  - every method's permutation: a bijection with its inverse, the same arrays as the reference
 *    backend's; DEGREE, HUB and APPEARANCE checked against their definitions (counts and first
 *    appearances counted here); RCM's bandwidth no worse than a banded input's, also after its
 *    labels are shuffled.
 *  - csr_solve renumbered (options.reorder): the same solution and iterations as without, in
 *    A's numbering, and errors naming A's rows.
 *  - bad input: not a permutation (out of range, repeated), sizes, places, a column outside the
 *    matrix, overlapping vectors, a non-square matrix, an unknown method. */
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static csr_context *ref, *ctx; /* the oracle, and the backend under test */
static csr_backend backend;

/* A random permutation of [0, n) (Fisher-Yates), host, caller frees. */
static int32_t *shuffled(int64_t n, csrt_rng *rng) {
  int32_t *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
  for (int64_t i = 0; i < n; i++)
    p[i] = (int32_t)i;
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t j = (int64_t)csrt_below(rng, (uint64_t)i + 1);
    int32_t t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  return p;
}

static csr_permutation *placed_permutation(const int32_t *order, int64_t n) {
  csr_permutation *P = NULL;
  CHECK_OK(ctx, csr_permutation_create(ctx, &P, n, order, csrt_location(backend)));
  return P;
}

/* P's arrays on the host (caller frees both). */
static void fetch_permutation(const csr_permutation *P, int32_t **old_of_new,
                              int32_t **new_of_old) {
  size_t bytes = (size_t)(P->n > 0 ? P->n : 1) * sizeof(int32_t);
  *old_of_new = malloc(bytes);
  *new_of_old = malloc(bytes);
  if (P->n > 0) {
    csrt_fetch_bytes(backend, *old_of_new, P->old_of_new, (size_t)P->n * sizeof(int32_t));
    csrt_fetch_bytes(backend, *new_of_old, P->new_of_old, (size_t)P->n * sizeof(int32_t));
  }
}

/* Every index once, and new_of_old[old_of_new[k]] == k. */
static int is_bijection(const int32_t *old_of_new, const int32_t *new_of_old, int64_t n) {
  for (int64_t k = 0; k < n; k++)
    if (old_of_new[k] < 0 || old_of_new[k] >= n || new_of_old[old_of_new[k]] != k)
      return 0;
  return 1;
}

/* The oracle: row i of B is row r[i] of A (r NULL: i), columns renamed c_inv[j] (NULL: kept),
 * then (when c_inv) each row ordered by new column, ties in stored order. */
static csr_matrix *oracle_permute(const csr_matrix *A, const int32_t *r, const int32_t *c_inv) {
  csr_matrix *B = NULL;
  CHECK_OK(ref, csr_matrix_create(ref, &B, A->rows, A->cols, A->nnz, A->value_type, CSR_HOST));
  int64_t at = 0;
  for (int64_t i = 0; i < A->rows; i++) {
    int64_t from = r ? r[i] : i, begin = at;
    for (int64_t k = A->row_offsets[from]; k < A->row_offsets[from + 1]; k++, at++) {
      int32_t j = A->col_indices[k];
      B->col_indices[at] = c_inv ? c_inv[j] : j;
      if (A->value_type == CSR_F64)
        ((double *)B->values)[at] = ((const double *)A->values)[k];
      else if (A->value_type == CSR_F32)
        ((float *)B->values)[at] = ((const float *)A->values)[k];
    }
    for (int64_t a = begin + 1; c_inv && a < at; a++) /* insertion sort: stable */
      for (int64_t b = a; b > begin && B->col_indices[b - 1] > B->col_indices[b]; b--) {
        int32_t t = B->col_indices[b];
        B->col_indices[b] = B->col_indices[b - 1];
        B->col_indices[b - 1] = t;
        if (A->value_type == CSR_F64) {
          double *v = B->values, u = v[b];
          v[b] = v[b - 1];
          v[b - 1] = u;
        } else if (A->value_type == CSR_F32) {
          float *v = B->values, u = v[b];
          v[b] = v[b - 1];
          v[b - 1] = u;
        }
      }
    B->row_offsets[i + 1] = at;
  }
  B->flags = c_inv ? CSR_FLAG_SORTED | (A->flags & CSR_FLAG_NO_DUPLICATES) : A->flags;
  return B;
}

static double dense_get(const csr_dense *D, int64_t i, int64_t j) {
  return D->value_type == CSR_F64 ? ((const double *)D->data)[i * D->ld + j]
                                  : ((const float *)D->data)[i * D->ld + j];
}

/* B(i, j) == A(r[i], c[j]) for small matrices, through csr_to_dense (duplicates summed). */
static void check_dense(const csr_matrix *A, const csr_matrix *B, const int32_t *r,
                        const int32_t *c) {
  if (A->rows * A->cols > 40000)
    return;
  csr_dense *DA = NULL, *DB = NULL;
  CHECK_OK(ref, csr_to_dense(ref, A, CSR_ROW_MAJOR, &DA));
  CHECK_OK(ref, csr_to_dense(ref, B, CSR_ROW_MAJOR, &DB));
  int ok = DA != NULL && DB != NULL;
  for (int64_t i = 0; ok && i < A->rows; i++)
    for (int64_t j = 0; ok && j < A->cols; j++) {
      double a = dense_get(DA, r ? r[i] : i, c ? c[j] : j), b = dense_get(DB, i, j);
      ok = memcmp(&a, &b, sizeof a) == 0;
    }
  EXPECT(ok);
  csr_dense_free(&DA);
  csr_dense_free(&DB);
}

static void check_permute(const csr_matrix *A, csrt_rng *rng) {
  int32_t *r = shuffled(A->rows, rng), *c = shuffled(A->cols, rng);
  int32_t *c_inv = malloc((size_t)(A->cols > 0 ? A->cols : 1) * sizeof *c_inv);
  for (int64_t k = 0; k < A->cols; k++)
    c_inv[c[k]] = (int32_t)k;
  csr_permutation *Pr = placed_permutation(r, A->rows), *Pc = placed_permutation(c, A->cols);
  csr_matrix *Ap = csrt_place_matrix(backend, A);
  for (int form = 0; form < 4; form++) { /* both, rows alone, columns alone, neither */
    const int rows = form == 0 || form == 1, cols = form == 0 || form == 2;
    csr_matrix *Bp = NULL, *B = NULL;
    CHECK_OK(ctx, csr_permute(ctx, Ap, rows ? Pr : NULL, cols ? Pc : NULL, &Bp));
    if (Bp != NULL)
      CHECK_OK(ref, csr_matrix_copy(ref, Bp, &B, CSR_HOST));
    csr_matrix *want = oracle_permute(A, rows ? r : NULL, cols ? c_inv : NULL);
    int eq = 0;
    EXPECT(B != NULL && csr_matrix_equal(ref, want, B, &eq) == CSR_SUCCESS && eq);
    CHECKF(B != NULL && B->flags == want->flags && csr_matrix_validate(ref, B) == CSR_SUCCESS,
           "[%s] form %d: flags %u, expected %u (%s)", csrt_case, form, B ? B->flags : 0u,
           want->flags, csr_context_last_error(ref));
    if (B != NULL && form == 0)
      check_dense(A, B, r, c);
    csr_matrix_free(&want);
    csr_matrix_free(&B);
    csr_matrix_free(&Bp);
  }
  csr_matrix_free(&Ap);
  csr_permutation_free(&Pr);
  csr_permutation_free(&Pc);
  free(r);
  free(c);
  free(c_inv);
}

static void check_vectors(int64_t n, csr_value_type type, csrt_rng *rng) {
  int32_t *p = shuffled(n, rng);
  csr_permutation *P = placed_permutation(p, n);
  csr_vector *x = csrt_random_vector(ref, n, type, rng);
  csr_vector *xp = csrt_place_vector(backend, x), *yp = csrt_place_vector(backend, x),
             *zp = csrt_place_vector(backend, x);
  CHECK_OK(ctx, csr_permute_vector(ctx, P, CSR_PERMUTE_FORWARD, xp, yp));
  CHECK_OK(ctx, csr_permute_vector(ctx, P, CSR_PERMUTE_BACKWARD, yp, zp));
  csr_vector *y = csrt_host_vector(yp), *z = csrt_host_vector(zp);
  size_t es = type == CSR_F64 ? 8 : 4;
  int forward = 1;
  for (int64_t k = 0; k < n; k++)
    forward &= memcmp((char *)y->data + k * es, (char *)x->data + p[k] * es, es) == 0;
  EXPECT(forward);
  EXPECT(n == 0 || memcmp(z->data, x->data, (size_t)n * es) == 0);
  if (n > 0) /* y and x the same array: refused, since a gather would read what it overwrote */
    CHECK_STATUS(ctx, csr_permute_vector(ctx, P, CSR_PERMUTE_FORWARD, xp, xp),
                 CSR_ERR_INVALID_VALUE);
  CHECK_STATUS(ctx, csr_permute_vector(ctx, P, (csr_permute_direction)7, xp, yp),
               CSR_ERR_INVALID_VALUE);
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_vector_free(&z);
  csr_vector_free(&xp);
  csr_vector_free(&yp);
  csr_vector_free(&zp);
  csr_permutation_free(&P);
  free(p);
}

/* The counting orders against their definitions: counts and first appearances counted here. */
static void check_counting_order(const csr_matrix *A, csr_reorder_method m, const int32_t *order) {
  int64_t n = A->rows, *count = calloc((size_t)n + 1, sizeof *count);
  int64_t *first = malloc(((size_t)n + 1) * sizeof *first), max_count = 0;
  for (int64_t j = 0; j < n; j++)
    first[j] = A->nnz;
  for (int64_t k = A->nnz - 1; k >= 0; k--) {
    count[A->col_indices[k]]++;
    first[A->col_indices[k]] = k;
  }
  for (int64_t j = 0; j < n; j++)
    max_count = count[j] > max_count ? count[j] : max_count;
  int ok = 1;
  for (int64_t k = 1; k < n; k++) {
    int32_t a = order[k - 1], b = order[k];
    int64_t ka, kb; /* the keys each order sorts by, smaller first, ties by index */
    if (m == CSR_REORDER_DEGREE) {
      ka = -count[a];
      kb = -count[b];
    } else if (m == CSR_REORDER_HUB) {
      ka = count[a] * n > A->nnz ? -count[a] : 1;
      kb = count[b] * n > A->nnz ? -count[b] : 1;
    } else {
      ka = first[a];
      kb = first[b];
    }
    ok &= ka < kb || (ka == kb && a < b);
  }
  EXPECT(ok);
  free(count);
  free(first);
}

static void check_reorder(const csr_matrix *A) {
  if (A->rows != A->cols)
    return;
  const csr_reorder_method methods[] = {CSR_REORDER_NONE, CSR_REORDER_AUTO,
                                        CSR_REORDER_RCM,  CSR_REORDER_DEGREE,
                                        CSR_REORDER_HUB,  CSR_REORDER_APPEARANCE};
  csr_matrix *Ap = csrt_place_matrix(backend, A);
  for (int m = 0; m < 6; m++) {
    csr_permutation *P = NULL, *R = NULL;
    CHECK_OK(ctx, csr_reorder(ctx, Ap, methods[m], &P));
    CHECK_OK(ref, csr_reorder(ref, A, methods[m], &R));
    if (P == NULL || R == NULL) {
      csr_permutation_free(&P);
      csr_permutation_free(&R);
      continue;
    }
    EXPECT(P->n == A->rows && P->location == csrt_location(backend));
    int32_t *o = NULL, *inv = NULL;
    fetch_permutation(P, &o, &inv);
    EXPECT(is_bijection(o, inv, P->n));
    size_t bytes = (size_t)P->n * sizeof(int32_t);
    EXPECT(P->n == 0 ||
           (memcmp(o, R->old_of_new, bytes) == 0 && memcmp(inv, R->new_of_old, bytes) == 0));
    if (methods[m] == CSR_REORDER_NONE)
      for (int64_t k = 0; k < P->n; k++)
        EXPECT(o[k] == k);
    if (methods[m] >= CSR_REORDER_DEGREE)
      check_counting_order(A, methods[m], o);
    free(o);
    free(inv);
    csr_permutation_free(&P);
    csr_permutation_free(&R);
  }
  csr_matrix_free(&Ap);
}

/* The largest |i - j| over the entries (0 for none). */
static int64_t bandwidth(const csr_matrix *A) {
  int64_t w = 0;
  for (int64_t i = 0; i < A->rows; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      int64_t d = i > A->col_indices[k] ? i - A->col_indices[k] : A->col_indices[k] - i;
      w = d > w ? d : w;
    }
  return w;
}

/* A full band of half-width w on n rows (every |i - j| <= w stored), F64. */
static csr_matrix *band(int64_t n, int64_t w) {
  int64_t *len = malloc((size_t)n * sizeof *len), nnz = 0;
  for (int64_t i = 0; i < n; i++)
    nnz += len[i] = (i + w < n ? i + w : n - 1) - (i - w > 0 ? i - w : 0) + 1;
  csr_matrix *A = NULL;
  CHECK_OK(ref, csr_matrix_create(ref, &A, n, n, nnz, CSR_F64, CSR_HOST));
  int64_t at = 0;
  for (int64_t i = 0; i < n; i++) {
    for (int64_t j = i - w > 0 ? i - w : 0; j <= i + w && j < n; j++, at++) {
      A->col_indices[at] = (int32_t)j;
      ((double *)A->values)[at] = i == j ? 2 * w + 1.0 : -1.0;
    }
    A->row_offsets[i + 1] = at;
  }
  A->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  free(len);
  return A;
}

/* RCM of a banded matrix, as given and with its labels shuffled: no wider than the band. */
static void check_rcm_bandwidth(csr_matrix *A, int64_t limit, csrt_rng *rng) {
  int32_t *s = shuffled(A->rows, rng);
  csr_permutation *S = NULL;
  CHECK_OK(ref, csr_permutation_create(ref, &S, A->rows, s, CSR_HOST));
  csr_matrix *shuffled_A = NULL;
  CHECK_OK(ref, csr_permute(ref, A, S, S, &shuffled_A));
  const csr_matrix *inputs[2] = {A, shuffled_A};
  for (int t = 0; t < 2 && shuffled_A != NULL; t++) {
    csr_matrix *Ap = csrt_place_matrix(backend, inputs[t]), *Bp = NULL, *B = NULL;
    csr_permutation *P = NULL;
    CHECK_OK(ctx, csr_reorder(ctx, Ap, CSR_REORDER_RCM, &P));
    CHECK_OK(ctx, csr_permute(ctx, Ap, P, P, &Bp));
    if (Bp != NULL)
      CHECK_OK(ref, csr_matrix_copy(ref, Bp, &B, CSR_HOST));
    CHECKF(B != NULL && bandwidth(B) <= limit, "RCM bandwidth %lld, limit %lld (input %s)",
           B ? (long long)bandwidth(B) : -1LL, (long long)limit, t ? "shuffled" : "as given");
    csr_matrix_free(&B);
    csr_matrix_free(&Bp);
    csr_matrix_free(&Ap);
    csr_permutation_free(&P);
  }
  csr_matrix_free(&shuffled_A);
  csr_permutation_free(&S);
  free(s);
}

static void check_bad_input(csrt_rng *rng) {
  snprintf(csrt_case, sizeof csrt_case, "bad input, %s", csr_backend_name(backend));
  csr_permutation *P = NULL;
  const int32_t out_of_range[4] = {0, 4, 1, 2}, repeated[4] = {3, 1, 3, 0};
  CHECK_STATUS(ctx, csr_permutation_create(ctx, &P, 4, out_of_range, csrt_location(backend)),
               CSR_ERR_INVALID_VALUE);
  EXPECT(P == NULL && strstr(csr_context_last_error(ctx), "order[1] = 4 is out of range"));
  CHECK_STATUS(ctx, csr_permutation_create(ctx, &P, 4, repeated, csrt_location(backend)),
               CSR_ERR_INVALID_VALUE);
  EXPECT(strstr(csr_context_last_error(ctx), "order[2] = 3 repeats order[0]"));
  CHECK_STATUS(ctx, csr_permutation_create(ctx, &P, 4, NULL, csrt_location(backend)),
               CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_permutation_create(ctx, &P, -1, repeated, csrt_location(backend)),
               CSR_ERR_INVALID_VALUE);
  /* copies between places keep both arrays */
  const int32_t order[4] = {2, 0, 3, 1};
  csr_permutation *Q = NULL, *H = NULL;
  CHECK_OK(ctx, csr_permutation_create(ctx, &P, 4, order, csrt_location(backend)));
  CHECK_OK(ctx, csr_permutation_copy(ctx, P, &Q, csrt_location(backend)));
  CHECK_OK(ref, csr_permutation_copy(ref, Q, &H, CSR_HOST));
  const int32_t inverse[4] = {1, 3, 0, 2};
  EXPECT(H != NULL && memcmp(H->old_of_new, order, sizeof order) == 0 &&
         memcmp(H->new_of_old, inverse, sizeof inverse) == 0);
  csr_permutation_free(&Q);
  csr_permutation_free(&H);

  csr_matrix *A = csrt_generate(ref, CSRT_RANDOM_SQUARE, CSR_F64, CSRT_RANDOM, rng);
  csr_matrix *W = csrt_generate(ref, CSRT_RANDOM_WIDE, CSR_F64, CSRT_RANDOM, rng);
  csr_matrix *Ap = csrt_place_matrix(backend, A), *Wp = csrt_place_matrix(backend, W), *B = NULL;
  CHECK_STATUS(ctx, csr_permute(ctx, Ap, P, NULL, &B), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_STATUS(ctx, csr_reorder(ctx, Wp, CSR_REORDER_RCM, &Q), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_STATUS(ctx, csr_reorder(ctx, Ap, (csr_reorder_method)42, &Q), CSR_ERR_INVALID_VALUE);
  CHECK_STATUS(ctx, csr_permute(ctx, NULL, NULL, NULL, &B), CSR_ERR_NULL_POINTER);
  if (backend == CSR_BACKEND_CUDA) { /* a host permutation for a device matrix */
    csr_permutation *Ph = NULL;
    int32_t *s = shuffled(A->rows, rng);
    CHECK_OK(ref, csr_permutation_create(ref, &Ph, A->rows, s, CSR_HOST));
    CHECK_STATUS(ctx, csr_permute(ctx, Ap, Ph, NULL, &B), CSR_ERR_LOCATION_MISMATCH);
    csr_permutation_free(&Ph);
    free(s);
  }
  /* a column outside the matrix: named, as the converters name it, by every method */
  if (A->nnz > 3) {
    csr_matrix *Bad = NULL;
    CHECK_OK(ref, csr_matrix_copy(ref, A, &Bad, CSR_HOST));
    Bad->col_indices[3] = (int32_t)A->cols;
    Bad->flags = 0;
    csr_matrix *Badp = csrt_place_matrix(backend, Bad);
    int32_t *s = shuffled(A->rows, rng);
    csr_permutation *S = placed_permutation(s, A->rows);
    CHECK_STATUS(ctx, csr_permute(ctx, Badp, S, S, &B), CSR_ERR_INDEX_OUT_OF_BOUNDS);
    EXPECT(B == NULL);
    const csr_reorder_method m[3] = {CSR_REORDER_RCM, CSR_REORDER_DEGREE, CSR_REORDER_APPEARANCE};
    for (int t = 0; t < 3; t++) {
      CHECK_STATUS(ctx, csr_reorder(ctx, Badp, m[t], &Q), CSR_ERR_INDEX_OUT_OF_BOUNDS);
      EXPECT(Q == NULL && strstr(csr_context_last_message(ctx), "entry 3"));
    }
    csr_permutation_free(&S);
    csr_matrix_free(&Badp);
    csr_matrix_free(&Bad);
    free(s);
  }
  csr_reorder_method m;
  CHECK(csr_reorder_method_from_name("appearance", &m) == CSR_SUCCESS &&
        m == CSR_REORDER_APPEARANCE);
  CHECK(csr_reorder_method_from_name("rabbit", &m) == CSR_ERR_INVALID_VALUE);
  CHECK(strcmp(csr_reorder_method_name(CSR_REORDER_HUB), "hub") == 0);
  CHECK(strcmp(csr_reorder_method_name((csr_reorder_method)9), "unknown") == 0);
  csr_permutation_free(&P);
  csr_matrix_free(&A);
  csr_matrix_free(&W);
  csr_matrix_free(&Ap);
  csr_matrix_free(&Wp);
}

/* csr_solve with options.reorder: for CG, Jacobi PCG, GMRES and PCG with ILU(0) on a 2D
 * Poisson matrix (b = A * ones), each method renumbered by each order against the same method
 * unrenumbered: x back in A's numbering within 1e-8 of it (relative, both solved to 1e-10), CG
 * and PCG within one iteration of it, GMRES within two (its Krylov space is the same, up to
 * rounding); ILU(0) of the renumbered A converges too. A zero diagonal is named by A's row,
 * not the renumbered one; a caller's factor with a renumbering is refused. */
static void check_renumbered_solves(csrt_rng *rng) {
  const csr_reorder_method orders[] = {CSR_REORDER_RCM, CSR_REORDER_DEGREE, CSR_REORDER_HUB,
                                       CSR_REORDER_APPEARANCE};
  const csr_solver_method methods[] = {CSR_SOLVER_CG, CSR_SOLVER_PCG_JACOBI, CSR_SOLVER_GMRES,
                                       CSR_SOLVER_CG};
  csr_matrix *A = csrt_poisson_2d(ref, 24, 0.0);
  /* relabelled, so that every order changes something */
  int32_t *order = shuffled(A->rows, rng);
  csr_permutation *S = NULL;
  csr_matrix *R = NULL;
  CHECK_OK(ref, csr_permutation_create(ref, &S, A->rows, order, CSR_HOST));
  CHECK_OK(ref, csr_permute(ref, A, S, S, &R));
  csr_vector *b = csrt_times_ones(ref, R);
  for (int m = 0; m < 4; m++) {
    csr_solver_options o;
    csr_solver_options_init(&o);
    o.method = methods[m];
    o.preconditioner = m == 3 ? CSR_PRECOND_ILU0 : CSR_PRECOND_NONE;
    o.rtol = 1e-10;
    csr_vector *plain = csrt_zeros(ref, R->rows);
    csr_solver_info base, info;
    o.reorder = CSR_REORDER_NONE;
    CHECK_OK(ctx, csrt_solve_placed(backend, ctx, R, b, plain, &o, &base));
    CHECK(base.reordered == CSR_REORDER_NONE);
    for (int k = 0; k < 4; k++) {
      snprintf(csrt_case, sizeof csrt_case, "csr_solve, method %d, reorder %s", m,
               csr_reorder_method_name(orders[k]));
      csr_vector *x = csrt_zeros(ref, R->rows);
      o.reorder = orders[k];
      CHECK_OK(ctx, csrt_solve_placed(backend, ctx, R, b, x, &o, &info));
      double diff = 0.0, size = 0.0;
      for (int64_t i = 0; i < R->rows; i++) {
        const double d = ((double *)x->data)[i] - ((double *)plain->data)[i];
        diff += d * d;
        size += ((double *)plain->data)[i] * ((double *)plain->data)[i];
      }
      const int64_t slack = m == 3 ? R->rows : m == 2 ? 2 : 1; /* ILU(0) factors another matrix */
      CHECKF(info.reordered == orders[k] && info.reorder_seconds >= 0.0 &&
                 sqrt(diff / size) < 1e-8 && llabs(info.iterations - base.iterations) <= slack &&
                 info.relative_residual <= 1e-10,
             "%s: reordered %d, |x - x_plain| / |x_plain| = %.3g, %lld iterations against %lld, "
             "relative residual %.3g",
             csrt_case, (int)info.reordered, sqrt(diff / size), (long long)info.iterations,
             (long long)base.iterations, info.relative_residual);
      csr_vector_free(&x);
    }
    csr_vector_free(&plain);
  }
  /* a zero diagonal at row 37 (not SPD): named by that row, not by its renumbered one */
  snprintf(csrt_case, sizeof csrt_case, "csr_solve renumbered, a zero diagonal");
  for (int64_t k = R->row_offsets[37]; k < R->row_offsets[38]; k++)
    if (R->col_indices[k] == 37)
      ((double *)R->values)[k] = 0.0;
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.method = CSR_SOLVER_PCG_JACOBI;
  o.reorder = CSR_REORDER_RCM;
  csr_vector *x = csrt_zeros(ref, R->rows);
  const csr_status zero = csrt_solve_placed(backend, ctx, R, b, x, &o, NULL);
  CHECKF(zero == CSR_ERR_INVALID_MATRIX, "status %d: %s", (int)zero, csr_context_last_error(ctx));
  CHECKF(strstr(csr_context_last_error(ctx), "A(37,37)") != NULL, "message: %s",
         csr_context_last_error(ctx));
  /* a caller's factor is of A as numbered */
  csr_factor *F = NULL;
  csr_factor_options fo;
  csr_factor_options_init(&fo);
  fo.kind = CSR_FACTOR_ILU0;
  CHECK_OK(ref, csr_factor_compute(ref, A, &fo, &F));
  o.method = CSR_SOLVER_CG;
  o.preconditioner = CSR_PRECOND_FACTOR;
  o.factor = F;
  CHECK(csr_solve(ref, A, b, x, &o, NULL) == CSR_ERR_INVALID_VALUE);
  CHECK(strstr(csr_context_last_error(ref), "the factor is of A as numbered") != NULL);
  csr_factor_free(&F);
  csr_vector_free(&x);
  csr_vector_free(&b);
  csr_matrix_free(&R);
  csr_permutation_free(&S);
  free(order);
  csr_matrix_free(&A);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  csrt_rng rng = {csrt_seed("backend_reorder")};
  ref = csrt_context(CSR_BACKEND_REF);
  ctx = csrt_context(backend);
  csr_debug_poison_device_allocations(1); /* an unwritten offset or index reads as -1 */
  const csr_value_type types[] = {CSR_F64, CSR_F32, CSR_PATTERN};
  const int threads[] = {0, 3};
  const int thread_cases = backend == CSR_BACKEND_OMP ? 2 : 1;
  for (int th = 0; th < thread_cases; th++) {
    csr_context_set_threads(ctx, threads[th]);
    for (int s = 0; s < CSRT_SHAPE_COUNT; s++)
      for (int t = 0; t < 3; t++) {
        if (s == CSRT_EMPTY_NX0)
          continue; /* csrt_generate has no columns to give its rows */
        snprintf(csrt_case, sizeof csrt_case, "%s %s, shape %s, type %d, threads %d", argv[0],
                 csr_backend_name(backend), csrt_shape_name((csrt_shape)s), (int)types[t],
                 threads[th]);
        csr_matrix *A = csrt_generate(ref, (csrt_shape)s, types[t], CSRT_RANDOM, &rng);
        check_permute(A, &rng);
        check_reorder(A);
        csr_matrix_free(&A);
      }
    for (int t = 0; t < 2; t++) {
      const int64_t sizes[] = {0, 1, 7, 5000};
      for (int k = 0; k < 4; k++)
        check_vectors(sizes[k], types[t], &rng);
    }
  }
  const int64_t widths[] = {1, 2, 5};
  for (int w = 0; w < 3; w++) {
    snprintf(csrt_case, sizeof csrt_case, "RCM of a band of half-width %lld", (long long)widths[w]);
    csr_matrix *B = band(300, widths[w]);
    check_rcm_bandwidth(B, widths[w], &rng);
    csr_matrix_free(&B);
  }
  check_bad_input(&rng);
  check_renumbered_solves(&rng);
  csr_context_free(&ref);
  csr_context_free(&ctx);
  return csrt_finish("backend_reorder");
}
