/* SPDX-License-Identifier: BSD-3-Clause */
/* Backend tier of COO -> CSR on triples that already come in (row, column) order, which the OpenMP
 * backend converts without sorting (src/omp/convert_sorted.c): as it is, with repeats summed in
 * input order, with explicit zeros kept or dropped, and in place when the caller gives the COO up
 * (csri_from_coo_take, what csr_read_csr does). Every result must equal the reference backend's
 * (whose general path sorts everything) bit for bit, flags included, at several thread counts and
 * at sizes where the OpenMP backend splits the triples into chunks. Near misses must take the
 * general path and still agree: one unsorted pair at the very start or end, rows in order with
 * columns not. Each case's triples are also checked shuffled: once sorted they meet the same
 * paths (none, a few or many repeats, zeros to drop), which the CUDA backend takes over the sorted
 * triples, and the repeats are summed in the shuffled order. The first triple outside the matrix
 * is reported as the reference reports it. */
#include "ops/ops.h"
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static csr_context *ref, *ctx; /* the oracle, and the backend under test */
static csr_backend backend;

static void put(csr_coo *T, int64_t k, int32_t r, int32_t c, double v) {
  T->row_indices[k] = r;
  T->col_indices[k] = c;
  if (T->value_type == CSR_F64)
    ((double *)T->values)[k] = v;
  else if (T->value_type == CSR_F32)
    ((float *)T->values)[k] = (float)v;
}
static double value(const csr_coo *T, int64_t k) {
  return csrt_value(T->values, T->value_type, k);
}
/* Triple k made a repeat of triple k - 1 (the order holds), with a fresh value. */
static void repeat_before(csr_coo *T, int64_t k, csrt_rng *rng) {
  put(T, k, T->row_indices[k - 1], T->col_indices[k - 1], csrt_uniform(rng, -1, 1));
}

/* How to build a sorted COO: n triples on rows [lead, rows - tail), with `repeat` the chance that
 * a triple repeats the one before it (its value then cancels it one time in four: a run that sums
 * to zero) and `zero` the chance of an explicit zero (one in four of them -0.0). */
typedef struct recipe {
  int64_t rows, cols, n, lead, tail;
  double repeat, zero;
} recipe;

static int by_row_col(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  return (*x > *y) - (*x < *y);
}

static csr_coo *sorted_coo(const recipe *rc, csr_value_type type, csrt_rng *rng) {
  csr_coo *T = NULL;
  int64_t *key = calloc((size_t)rc->n + 1, sizeof *key), span = rc->rows - rc->lead - rc->tail;
  for (int64_t k = 0; k < rc->n; k++) /* row * cols + col, sorted: (row, column) order */
    key[k] = (rc->lead + (int64_t)csrt_below(rng, (uint64_t)span)) * rc->cols +
             (int64_t)csrt_below(rng, (uint64_t)rc->cols);
  qsort(key, (size_t)rc->n, sizeof *key, by_row_col);
  csr_coo_create(ref, &T, rc->rows, rc->cols, rc->n, type, CSR_HOST);
  for (int64_t k = 0; k < rc->n; k++) {
    double v = csrt_uniform(rng, -1, 1);
    if (k > 0 && csrt_uniform(rng, 0, 1) < rc->repeat) { /* the triple before, again */
      key[k] = key[k - 1];
      v = csrt_below(rng, 4) ? v : -value(T, k - 1);
    }
    if (csrt_uniform(rng, 0, 1) < rc->zero)
      v = csrt_below(rng, 4) ? 0.0 : -0.0;
    put(T, k, (int32_t)(key[k] / rc->cols), (int32_t)(key[k] % rc->cols), v);
  }
  free(key);
  return T;
}

/* When set, csr_from_coo gets T's copy one triple into its arrays (4- or 8-byte aligned, not
 * 16): a converter that reads 16 bytes at a time must take another way there. SHIFT_ALL moves
 * every array, SHIFT_VALUES the values alone. */
enum { SHIFT_NONE, SHIFT_ALL, SHIFT_VALUES };
static int shifted;

/* T's copy placed where the backend runs, one triple in (a triple of zeros before it). */
static csr_coo shifted_copy(const csr_coo *T, csr_coo **P) {
  csr_coo *W = NULL;
  csr_coo_create(ref, &W, T->rows, T->cols, T->nnz + 1, T->value_type, CSR_HOST);
  put(W, 0, 0, 0, 0.0);
  for (int64_t k = 0; k < T->nnz; k++)
    put(W, k + 1, T->row_indices[k], T->col_indices[k], value(T, k));
  const int64_t index_shift = shifted == SHIFT_ALL;
  if (!index_shift) { /* rows and columns back where they were, the values one in */
    memmove(W->row_indices, W->row_indices + 1, (size_t)T->nnz * sizeof(int32_t));
    memmove(W->col_indices, W->col_indices + 1, (size_t)T->nnz * sizeof(int32_t));
  }
  if (csr_coo_copy(ref, W, P, csrt_location(backend)) != CSR_SUCCESS)
    csrt_fail_in_case(__FILE__, __LINE__, "COO placement");
  csr_coo_free(&W);
  csr_coo view = **P;
  const size_t value_size = csri_value_size(T->value_type); /* 0 for a pattern */
  view.nnz = T->nnz;
  view.row_indices += index_shift;
  view.col_indices += index_shift;
  view.values = view.values ? (char *)view.values + value_size : NULL;
  return view;
}

/* The converters under test, on a copy of T placed where the backend runs, back on the host. */
static csr_status convert(const csr_coo *T, unsigned options, int take, csr_matrix **B) {
  csr_coo *P = NULL;
  csr_matrix *Bp = NULL;
  *B = NULL;
  csr_status s;
  if (shifted && !take) {
    const csr_coo view = shifted_copy(T, &P);
    s = csr_from_coo(ctx, &view, options, &Bp);
  } else {
    if (csr_coo_copy(ref, T, &P, csrt_location(backend)) != CSR_SUCCESS)
      csrt_fail_in_case(__FILE__, __LINE__, "COO placement");
    s = take ? csri_from_coo_take(ctx, P, options, &Bp) : csr_from_coo(ctx, P, options, &Bp);
  }
  if (Bp != NULL && csr_matrix_copy(ref, Bp, B, CSR_HOST) != CSR_SUCCESS)
    csrt_fail_in_case(__FILE__, __LINE__, "copy to the host");
  csr_matrix_free(&Bp);
  csr_coo_free(&P); /* after a take: what the converter left in it */
  return s;
}

/* The error's text past its source location (the backends report it from different lines). */
static const char *message(csr_context *c) {
  const char *m = csr_context_last_error(c), *t = strstr(m, "triple");
  return t ? t : m;
}

/* R and B equal: same structure and value bits. On the GPU a sum that makes a NaN gives the
 * hardware's canonical NaN, not the CPU's (x86 makes inf + -inf a NaN with the sign bit set), so
 * there any NaN matches any NaN; every other value must match bit for bit. */
static int same_matrix(const csr_matrix *R, const csr_matrix *B) {
  int eq = 0;
  if (R == NULL || B == NULL || csr_matrix_equal(ref, R, B, &eq) != CSR_SUCCESS)
    return 0;
  if (eq || backend != CSR_BACKEND_CUDA || R->nnz != B->nnz || R->rows != B->rows ||
      memcmp(R->row_offsets, B->row_offsets, (size_t)(R->rows + 1) * sizeof(int64_t)) ||
      memcmp(R->col_indices, B->col_indices, (size_t)R->nnz * sizeof(int32_t)))
    return eq;
  for (int64_t k = 0; k < R->nnz; k++) {
    double a = csrt_value(R->values, R->value_type, k), b = csrt_value(B->values, B->value_type, k);
    if (!(isnan(a) && isnan(b)) && memcmp(&a, &b, sizeof a) != 0)
      return 0;
  }
  return 1;
}

/* Both converters, both options, against the reference; an error must be the reference's. */
static void check(const csr_coo *T, const char *name) {
  for (unsigned opt = 0; opt <= CSR_CONVERT_DROP_ZEROS; opt += CSR_CONVERT_DROP_ZEROS) {
    csr_matrix *R = NULL;
    csr_status want = csr_from_coo(ref, T, opt, &R);
    for (int take = 0; take <= 1; take++) {
      snprintf(csrt_case, sizeof csrt_case, "%s %s, %s, type %d, %s, threads %d",
               csr_backend_name(backend), take ? "take" : "from_coo", name, (int)T->value_type,
               opt ? "drop zeros" : "keep zeros", csr_context_threads(ctx));
      csr_matrix *B = NULL;
      EXPECT(convert(T, opt, take, &B) == want);
      if (want != CSR_SUCCESS) {
        EXPECT(B == NULL);
        EXPECT(strcmp(message(ref), message(ctx)) == 0);
      } else {
        EXPECT(same_matrix(R, B));
        EXPECT(B && B->flags == (CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES));
        EXPECT(B && csr_matrix_validate(ref, B) == CSR_SUCCESS);
      }
      csr_matrix_free(&B);
    }
    csr_matrix_free(&R);
  }
}

static void swap(csr_coo *T, int64_t a, int64_t b) {
  int32_t r = T->row_indices[a], c = T->col_indices[a];
  double v = value(T, a);
  put(T, a, T->row_indices[b], T->col_indices[b], value(T, b));
  put(T, b, r, c, v);
}

/* T's triples in a random order (Fisher-Yates). */
static void shuffle(csr_coo *T, csrt_rng *rng) {
  for (int64_t k = T->nnz - 1; k > 0; k--)
    swap(T, k, (int64_t)csrt_below(rng, (uint64_t)k + 1));
}

/* check(T), then check of T shuffled (T is left shuffled). */
static void check_both_orders(csr_coo *T, const char *name, csrt_rng *rng) {
  check(T, name);
  char shuffled_name[128];
  snprintf(shuffled_name, sizeof shuffled_name, "%s, then shuffled", name);
  shuffle(T, rng);
  check(T, shuffled_name);
}

/* Every case on one value type. n is past the OpenMP backend's chunking threshold (65536). */
static void cases(csr_value_type type, csrt_rng *rng) {
  /* Under compute-sanitizer (csrt_quick) 40000 triples: still 20 tiles of the check and of the
   * pass over runs, and room for every placed run below. */
  const int64_t n = csrt_quick() ? 40000 : 150000;
  const recipe plain = {60000, 1 << 30, n, 0, 0, 0.0, 0.0},
               few = {60000, 1 << 30, n, 3, 5, 0.0005, 0.0}, many = {40000, 50, n, 0, 0, 0.5, 0.0},
               zeros = {50000, 1000, n, 7, 7, 0.05, 0.05},
               one_row = {1, 1 << 30, n, 0, 0, 0.01, 0.0}, tall = {3000000, 5, n, 100, 100, 0, 0};
  const struct {
    const recipe *rc;
    const char *name;
  } list[] = {
      {&plain, "sorted, no repeats"},  {&few, "sorted, a few repeats, empty first and last rows"},
      {&many, "sorted, half repeats"}, {&zeros, "sorted, repeats, zeros and runs summing to zero"},
      {&one_row, "sorted, one row"},   {&tall, "sorted, more rows than triples"}};
  for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) {
    csr_coo *T = sorted_coo(list[i].rc, type, rng);
    if (i < 2) { /* no repeats, a few: the paths that copy T's arrays */
      char name[96];
      shifted = SHIFT_ALL;
      snprintf(name, sizeof name, "%s, arrays one triple in", list[i].name);
      check(T, name);
      if (type != CSR_PATTERN) {
        shifted = SHIFT_VALUES;
        snprintf(name, sizeof name, "%s, values one triple in", list[i].name);
        check(T, name);
      }
      shifted = SHIFT_NONE;
    }
    check_both_orders(T, list[i].name, rng);
    csr_coo_free(&T);
  }
  /* Exactly 512 and 513 repeats, spread out: either side of where the CUDA backend stops taking
   * them out in one kernel behind the check (CSRI_REPEATS_FEW, cuda/tuning.cuh); then a few
   * repeats behind 1000 empty rows, a gap long enough to be listed, which that kernel leaves to
   * the host's path. */
  for (int64_t count = 512; count <= 513; count++) {
    csr_coo *T = sorted_coo(&plain, type, rng);
    for (int64_t j = 1; j <= count; j++)
      repeat_before(T, j * n / (count + 1), rng);
    check_both_orders(T, count == 512 ? "sorted, 512 repeats" : "sorted, 513 repeats", rng);
    csr_coo_free(&T);
  }
  const recipe few_gap = {60000, 1 << 30, n, 1000, 5, 0.0005, 0.0};
  csr_coo *G = sorted_coo(&few_gap, type, rng);
  check_both_orders(G, "sorted, a few repeats behind 1000 empty rows", rng);
  csr_coo_free(&G);
  /* Repeats in most groups of 4 triples, all of them listed by the CUDA backend's check (more
   * than its rank sort takes: the radix sort puts them in order): 30 % of the triples; then also
   * a run of 5000 repeats across several of its tiles, and runs at the first and last triples of
   * tiles and warps. */
  const recipe third = {60000, 1 << 30, n, 0, 0, 0.3, 0.0};
  G = sorted_coo(&third, type, rng);
  check_both_orders(G, "sorted, 30 % repeats", rng);
  for (int64_t k = n / 2; k < n / 2 + 5000; k++)
    repeat_before(G, k, rng);
  for (int64_t b = 2048; b + 1 < n / 2; b += 2048 * 7) /* either side of tile and warp bounds */
    for (int64_t k = b - 129; k <= b + 128; k += 128) {
      repeat_before(G, k, rng);
      repeat_before(G, k + 1, rng);
    }
  check_both_orders(G, "sorted, 30 % repeats, a run of 5000, runs at tile bounds", rng);
  csr_coo_free(&G);
  /* keys of a few bits (one radix pass, or none: every triple on (0, 0) but one) */
  const recipe small[] = {{16, 16, 300, 0, 0, 0.1, 0.05}, {1, 2, 40, 0, 0, 0.3, 0.0}};
  for (int i = 0; i < 2; i++) {
    csr_coo *T = sorted_coo(&small[i], type, rng);
    check_both_orders(T, i == 0 ? "16 x 16, repeats and zeros" : "1 x 2, repeats", rng);
    csr_coo_free(&T);
  }
  csr_coo *T = sorted_coo(&zeros, type, rng);
  for (int64_t k = n / 3; k < n / 2; k++) /* a stretch of zeros: chunks that keep nothing */
    put(T, k, T->row_indices[k], T->col_indices[k], 0.0);
  for (int c = 2; c <= 8; c++) /* runs of repeats across where chunks of c threads would split */
    for (int64_t k = n / c - 3; k < n / c + 3; k++)
      put(T, k, T->row_indices[n / c - 4], T->col_indices[n / c - 4], csrt_uniform(rng, -1, 1));
  check_both_orders(T, "sorted, zero stretch, repeats at chunk bounds", rng);
  for (int64_t k = 0; k < n; k++) /* every value zero: nothing is left with DROP_ZEROS */
    put(T, k, T->row_indices[k], T->col_indices[k], 0.0);
  check(T, "sorted, all zero");
  if (type != CSR_PATTERN) { /* non-finite values, summed and copied bit for bit */
    for (int64_t k = 0; k < n; k += 97)
      put(T, k, T->row_indices[k], T->col_indices[k], k % 2 ? NAN : (k % 3 ? INFINITY : -INFINITY));
    check(T, "sorted, NaN and infinities");
  }
  csr_coo_free(&T);
  T = sorted_coo(&few, type, rng);
  swap(T, n - 2, n - 1);
  check(T, "one unsorted pair at the very end");
  swap(T, n - 2, n - 1);
  swap(T, 0, 1);
  check(T, "one unsorted pair at the very start");
  swap(T, 0, 1);
  swap(T, n / 2 - 1, n / 2); /* where the scan's chunks meet */
  check(T, "one unsorted pair in the middle");
  swap(T, n / 2 - 1, n / 2);
  for (int64_t b = 0, e; b < n; b = e) { /* rows in order, each row's columns reversed */
    for (e = b + 1; e < n && T->row_indices[e] == T->row_indices[b];)
      e++;
    for (int64_t p = b, q = e - 1; p < q; p++, q--)
      swap(T, p, q);
  }
  check(T, "rows in order, columns not");
  csr_coo_free(&T);
  T = sorted_coo(&plain, type, rng);
  T->row_indices[2 * n / 3] = (int32_t)T->rows; /* two bad triples: the first is named */
  T->col_indices[n / 3 + 1] = -1;
  check(T, "sorted, two triples out of range");
  T->col_indices[0] = (int32_t)T->cols;
  check(T, "sorted, the first triple out of range");
  csr_coo_free(&T);
  recipe tiny = {5, 5, 0, 0, 0, 0, 0};
  T = sorted_coo(&tiny, type, rng);
  check(T, "no triples");
  csr_coo_free(&T);
}

/* Sorted triples more than a GPU's resident blocks take in one round of tiles (a check that
 * writes A's entries as it goes must stop once a tile before has seen a repeat or a zero to
 * drop, and still leave the right A): none, then one repeat and one zero near the start, then
 * one near the end, then 20000 repeats spread out (listed, and more than the rank sort takes). */
static void long_cases(csrt_rng *rng) {
  const int64_t n = 1500000;
  const recipe plain = {400000, 1 << 30, n, 0, 0, 0.0, 0.0};
  csr_coo *T = sorted_coo(&plain, CSR_F64, rng);
  check_both_orders(T, "long, sorted, no repeats", rng);
  csr_coo_free(&T);
  const int64_t at[] = {5, n - 3};
  for (int i = 0; i < 2; i++) {
    const int64_t k = at[i];
    T = sorted_coo(&plain, CSR_F64, rng);
    put(T, k + 1, T->row_indices[k], T->col_indices[k], value(T, k + 1)); /* k + 1 repeats k */
    put(T, k - 3, T->row_indices[k - 3], T->col_indices[k - 3], 0.0);
    check_both_orders(T,
                      i == 0 ? "long, sorted, a repeat and a zero near the start"
                             : "long, sorted, a repeat and a zero near the end",
                      rng);
    csr_coo_free(&T);
  }
  const recipe spread = {400000, 1 << 30, n, 0, 0, 20000.0 / (double)n, 0.0};
  T = sorted_coo(&spread, CSR_F64, rng);
  check_both_orders(T, "long, sorted, 20000 repeats", rng);
  csr_coo_free(&T);
}

/* csr_read_csr on a file of sorted triples with repeats and zeros (the reader hands its COO over)
 * against csr_read_coo and the reference converter. */
static void check_file(csrt_rng *rng) {
  const recipe rc = {20000, 3000, 120000, 2, 2, 0.01, 0.01};
  char path[64];
  snprintf(path, sizeof path, "/tmp/backend_convert_sorted_%ld.mtx", (long)getpid());
  csr_coo *T = sorted_coo(&rc, CSR_F64, rng);
  FILE *f = fopen(path, "w");
  EXPECT(f != NULL);
  if (f == NULL)
    return;
  fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%lld %lld %lld\n",
          (long long)rc.rows, (long long)rc.cols, (long long)rc.n);
  for (int64_t k = 0; k < rc.n; k++)
    fprintf(f, "%d %d %.17g\n", T->row_indices[k] + 1, T->col_indices[k] + 1, value(T, k));
  fclose(f);
  snprintf(csrt_case, sizeof csrt_case, "%s csr_read_csr, threads %d", csr_backend_name(backend),
           csr_context_threads(ctx));
  csr_matrix *R = NULL, *B = NULL;
  csr_coo *U = NULL;
  int eq = 0;
  EXPECT(csr_read_coo(ref, path, NULL, &U, NULL) == CSR_SUCCESS);
  EXPECT(csr_from_coo(ref, U, 0, &R) == CSR_SUCCESS);
  EXPECT(csr_read_csr(ctx, path, NULL, &B, NULL) == CSR_SUCCESS);
  EXPECT(R && B && csr_matrix_equal(ref, R, B, &eq) == CSR_SUCCESS && eq && B->nnz < rc.n);
  EXPECT(B && B->flags == (CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES));
  remove(path);
  csr_matrix_free(&R);
  csr_matrix_free(&B);
  csr_coo_free(&U);
  csr_coo_free(&T);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  csrt_rng rng = {csrt_seed("backend_convert_sorted")};
  ref = csrt_context(CSR_BACKEND_REF);
  ctx = csrt_context(backend);
  /* device arrays come filled with 0xff bytes: an offset, column or value a converter leaves
   * unwritten is then -1 or NaN, never a zero that happens to be right */
  csr_debug_poison_device_allocations(1);
  const int threads[] = {1, 2, 3, 8};
  /* Thread counts steer the OpenMP backend only: the others run the cases once. */
  const int thread_cases = backend == CSR_BACKEND_OMP ? 4 : 1;
  const csr_value_type types[] = {CSR_F64, CSR_F32, CSR_PATTERN};
  /* Parts (csrt_part): f64, f32, pattern (cases() on that value type; f64 also reads a file on
   * the CPU backends), long (past one round of tiles). */
  const char *type_names[] = {"f64", "f32", "pattern"};
  for (int th = 0; th < thread_cases; th++) {
    csr_context_set_threads(ctx, threads[th]);
    for (int t = 0; t < 3; t++)
      if (csrt_part(argc, argv, type_names[t]))
        cases(types[t], &rng);
    if (th == 0 && csrt_part(argc, argv, "long"))
      long_cases(&rng);
    if (backend != CSR_BACKEND_CUDA && csrt_part(argc, argv, "f64"))
      check_file(&rng);
  }
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_convert_sorted");
}
