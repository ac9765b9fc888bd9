/* SPDX-License-Identifier: BSD-3-Clause */
/* The library's side of docs/algorithms.md's worked examples: reads one example block on stdin
 * ("key: numbers" lines, as the document shows them), computes what the library's own calls give
 * for it, and prints "key: numbers" lines for tests/algorithms/check_examples.py to compare with
 * the document's.
 *
 *   algorithms_examples NAME [ref|omp] < block
 *
 * NAME is the example's name in the document (<!-- example: NAME -->). The program prints only
 * what the library computes (scan, segmented scan, compact, radix sort, histogram, COO and dense
 * to CSR, PageRank, CG); steps that are no library call (Hillis-Steele and Blelloch's
 * intermediate arrays, the look-back's statuses, a histogram's launch plan) are recomputed
 * independently in the Python driver. Exit status 2 for a block it cannot read, 3 for a failing
 * library call. */
#include "csr.h"
#include "csr_primitives.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 64
#define MAX_VALUES 256

typedef struct line {
  char key[96];
  char text[2048];
} line;

static line lines[MAX_KEYS];
static int line_count;
static csr_context *ctx;

static void die(const char *what) {
  fprintf(stderr, "algorithms_examples: %s\n", what);
  exit(2);
}

static void check(csr_status s, const char *what) {
  if (s < 0) {
    fprintf(stderr, "algorithms_examples: %s: %s (%s)\n", what, csr_status_string(s),
            csr_context_last_error(ctx));
    exit(3);
  }
}

/* Reads "key: rest" lines (blank lines and lines without ':' are skipped). */
static void read_block(void) {
  char buf[4096];
  while (fgets(buf, sizeof buf, stdin)) {
    char *colon = strchr(buf, ':');
    if (colon == NULL)
      continue;
    if (line_count == MAX_KEYS)
      die("too many lines");
    line *l = &lines[line_count++];
    size_t klen = (size_t)(colon - buf);
    if (klen >= sizeof l->key || strlen(colon + 1) >= sizeof l->text)
      die("line too long");
    memcpy(l->key, buf, klen);
    l->key[klen] = 0;
    strcpy(l->text, colon + 1);
  }
}

static const char *find(const char *key) {
  for (int i = 0; i < line_count; i++)
    if (strcmp(lines[i].key, key) == 0)
      return lines[i].text;
  return NULL;
}

/* The numbers after `key`; returns how many (dies when the key is missing). */
static int numbers(const char *key, double *out) {
  const char *p = find(key);
  if (p == NULL) {
    char msg[160];
    snprintf(msg, sizeof msg, "the block has no '%s:' line", key);
    die(msg);
  }
  int n = 0;
  for (;;) {
    char *end;
    double v = strtod(p, &end);
    if (end == p)
      break;
    if (n == MAX_VALUES)
      die("too many numbers");
    out[n++] = v;
    p = end;
  }
  return n;
}

static double number(const char *key) {
  double v[MAX_VALUES];
  if (numbers(key, v) != 1)
    die("one number expected");
  return v[0];
}

static void print_i64(const char *key, const int64_t *v, int64_t n) {
  printf("%s:", key);
  for (int64_t i = 0; i < n; i++)
    printf(" %lld", (long long)v[i]);
  printf("\n");
}

static void print_f64(const char *key, const double *v, int64_t n) {
  printf("%s:", key);
  for (int64_t i = 0; i < n; i++)
    printf(" %.17g", v[i]);
  printf("\n");
}

/* --- scan -------------------------------------------------------------------------------- */

/* exclusive and inclusive scans of "input" (int64). */
static void example_scan(void) {
  double x[MAX_VALUES];
  int n = numbers("input", x);
  int64_t in[MAX_VALUES], out[MAX_VALUES];
  for (int i = 0; i < n; i++)
    in[i] = (int64_t)x[i];
  check(csr_scan(ctx, CSR_HOST, CSR_DATA_I64, CSR_SCAN_EXCLUSIVE, in, out, n, NULL, NULL), "scan");
  print_i64("exclusive", out, n);
  print_i64("output", out, n); /* the look-back example's name for the exclusive result */
  check(csr_scan(ctx, CSR_HOST, CSR_DATA_I64, CSR_SCAN_INCLUSIVE, in, out, n, NULL, NULL), "scan");
  print_i64("inclusive", out, n);
}

static void example_segmented_scan(void) {
  double x[MAX_VALUES], h[MAX_VALUES];
  int n = numbers("input", x);
  if (numbers("heads", h) != n)
    die("heads and input differ in length");
  int64_t in[MAX_VALUES], out[MAX_VALUES];
  uint8_t heads[MAX_VALUES];
  for (int i = 0; i < n; i++)
    in[i] = (int64_t)x[i], heads[i] = h[i] != 0;
  check(csr_segmented_scan(ctx, CSR_HOST, CSR_DATA_I64, CSR_SCAN_EXCLUSIVE, in, heads, out, n, NULL,
                           NULL),
        "segmented scan");
  print_i64("exclusive", out, n);
  check(csr_segmented_scan(ctx, CSR_HOST, CSR_DATA_I64, CSR_SCAN_INCLUSIVE, in, heads, out, n, NULL,
                           NULL),
        "segmented scan");
  print_i64("inclusive", out, n);
}

/* --- compact ----------------------------------------------------------------------------- */

/* Keeps x < "keep if less than": the flags, their exclusive scan (each kept item's place), and
 * the output of csr_compact_if, which must equal csr_compact with the flags. */
static void example_compact(void) {
  double x[MAX_VALUES];
  int n = numbers("input", x);
  int32_t in[MAX_VALUES], out[MAX_VALUES], out2[MAX_VALUES], pivot = (int32_t)number("keep if <");
  uint8_t flags[MAX_VALUES];
  uint32_t f32[MAX_VALUES], places[MAX_VALUES];
  int64_t flags64[MAX_VALUES] = {0}, places64[MAX_VALUES] = {0};
  for (int i = 0; i < n; i++) {
    in[i] = (int32_t)x[i];
    flags[i] = in[i] < pivot;
    f32[i] = flags[i];
    flags64[i] = flags[i];
  }
  print_i64("flags", flags64, n);
  check(csr_scan(ctx, CSR_HOST, CSR_DATA_U32, CSR_SCAN_EXCLUSIVE, f32, places, n, NULL, NULL),
        "scan");
  for (int i = 0; i < n; i++)
    places64[i] = places[i];
  print_i64("places (exclusive scan of flags)", places64, n);
  int64_t kept = 0, kept2 = 0;
  check(csr_compact_if(ctx, CSR_HOST, CSR_DATA_I32, in, CSR_KEEP_LESS, &pivot, out, n, &kept, NULL,
                       NULL),
        "compact_if");
  check(csr_compact(ctx, CSR_HOST, CSR_DATA_I32, in, flags, out2, n, &kept2, NULL, NULL),
        "compact");
  if (kept != kept2 || memcmp(out, out2, (size_t)kept * sizeof *out) != 0)
    die("csr_compact_if and csr_compact with the same flags disagree");
  printf("kept: %lld\n", (long long)kept);
  int64_t o[MAX_VALUES];
  for (int64_t i = 0; i < kept; i++)
    o[i] = out[i];
  print_i64("output", o, kept);
}

/* --- radix sort -------------------------------------------------------------------------- */

/* Digits of `bits` bits at `shift`; their counts by csr_histogram; the bucket starts by csr_scan.
 */
static void digit_counts(const char *prefix, const uint32_t *keys, int n, int shift, int bits) {
  int64_t digits[MAX_VALUES];
  uint32_t d32[MAX_VALUES], counts[256], starts[256];
  int radix = 1 << bits;
  for (int i = 0; i < n; i++)
    d32[i] = (keys[i] >> shift) & (uint32_t)(radix - 1), digits[i] = d32[i];
  char key[96];
  snprintf(key, sizeof key, "%s digits", prefix);
  print_i64(key, digits, n);
  csr_histogram_bins bins = {CSR_BINS_INTEGER, radix, 0, 0};
  check(csr_histogram(ctx, CSR_HOST, CSR_DATA_U32, d32, n, &bins, CSR_DATA_U32, counts, NULL, NULL),
        "histogram");
  check(
      csr_scan(ctx, CSR_HOST, CSR_DATA_U32, CSR_SCAN_EXCLUSIVE, counts, starts, radix, NULL, NULL),
      "scan");
  int64_t c[256], s[256];
  for (int d = 0; d < radix; d++)
    c[d] = counts[d], s[d] = starts[d];
  snprintf(key, sizeof key, "%s counts", prefix);
  print_i64(key, c, radix);
  snprintf(key, sizeof key, "%s starts", prefix);
  print_i64(key, s, radix);
}

static void print_pairs(const char *keys_key, const char *values_key, const uint32_t *k,
                        const uint32_t *v, int n) {
  int64_t a[MAX_VALUES], b[MAX_VALUES];
  for (int i = 0; i < n; i++)
    a[i] = k[i], b[i] = v[i];
  print_i64(keys_key, a, n);
  print_i64(values_key, b, n);
}

/* LSD passes of "digit bits" bits over "key bits" bits: each pass is csr_radix_sort over that
 * digit's bit range alone, applied to the previous pass's output; the last must equal one
 * csr_radix_sort over all the bits. */
static void example_radix_sort(void) {
  double x[MAX_VALUES], y[MAX_VALUES];
  int n = numbers("keys", x);
  if (numbers("values", y) != n)
    die("keys and values differ in length");
  int bits = (int)number("digit bits"), key_bits = (int)number("key bits");
  uint32_t keys[MAX_VALUES], values[MAX_VALUES], all_k[MAX_VALUES], all_v[MAX_VALUES];
  for (int i = 0; i < n; i++)
    keys[i] = all_k[i] = (uint32_t)x[i], values[i] = all_v[i] = (uint32_t)y[i];
  for (int p = 0, shift = 0; shift < key_bits; p++, shift += bits) {
    char prefix[32], kk[64], vk[64];
    snprintf(prefix, sizeof prefix, "pass %d", p + 1);
    digit_counts(prefix, keys, n, shift, bits);
    check(csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, keys, CSR_DATA_U32, values, n, shift,
                         shift + bits, NULL, NULL),
          "radix sort");
    snprintf(kk, sizeof kk, "after pass %d keys", p + 1);
    snprintf(vk, sizeof vk, "after pass %d values", p + 1);
    print_pairs(kk, vk, keys, values, n);
  }
  check(csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, all_k, CSR_DATA_U32, all_v, n, 0, key_bits,
                       NULL, NULL),
        "radix sort");
  if (memcmp(keys, all_k, sizeof(uint32_t) * (size_t)n) ||
      memcmp(values, all_v, sizeof(uint32_t) * (size_t)n))
    die("the passes one by one and the whole sort disagree");
  print_pairs("sorted keys", "sorted values", all_k, all_v, n);
}

/* --- histogram --------------------------------------------------------------------------- */

/* Counts of `samples` (doubles) under one bin rule, and each sample's own bin ("-" for none),
 * found by counting that sample alone. Integer rules count int64 samples. */
static void bins_of(const char *prefix, const csr_histogram_bins *bins, const double *x, int n) {
  int64_t ix[MAX_VALUES];
  for (int i = 0; i < n; i++)
    ix[i] = (int64_t)x[i];
  int integer = bins->rule != CSR_BINS_EVEN;
  csr_data_type type = integer ? CSR_DATA_I64 : CSR_DATA_F64;
  const void *samples = integer ? (const void *)ix : (const void *)x;
  uint64_t counts[MAX_VALUES];
  if (bins->bins > MAX_VALUES)
    die("too many bins");
  char key[96];
  snprintf(key, sizeof key, "%s bin", prefix);
  printf("%s:", key);
  for (int i = 0; i < n; i++) {
    const char *one = integer ? (const char *)&ix[i] : (const char *)&x[i];
    check(csr_histogram(ctx, CSR_HOST, type, one, 1, bins, CSR_DATA_U64, counts, NULL, NULL),
          "histogram");
    int b = -1;
    for (int k = 0; k < bins->bins; k++)
      if (counts[k])
        b = k;
    if (b < 0)
      printf(" -");
    else
      printf(" %d", b);
  }
  printf("\n");
  check(csr_histogram(ctx, CSR_HOST, type, samples, n, bins, CSR_DATA_U64, counts, NULL, NULL),
        "histogram");
  int64_t c[MAX_VALUES];
  for (int k = 0; k < bins->bins; k++)
    c[k] = (int64_t)counts[k];
  snprintf(key, sizeof key, "%s counts", prefix);
  print_i64(key, c, bins->bins);
}

static void example_histogram_rules(void) {
  double x[MAX_VALUES], range[MAX_VALUES];
  int n = numbers("integer samples", x);
  csr_histogram_bins b = {CSR_BINS_INTEGER, (int)number("integer bins"), 0, 0};
  bins_of("integer", &b, x, n);
  n = numbers("even samples", x);
  if (numbers("even range", range) != 2)
    die("even range: lower upper expected");
  csr_histogram_bins e = {CSR_BINS_EVEN, (int)number("even bins"), range[0], range[1]};
  bins_of("even", &e, x, n);
  n = numbers("log2 samples", x);
  csr_histogram_bins l = {CSR_BINS_LOG2, (int)number("log2 bins"), 0, 0};
  bins_of("log2", &l, x, n);
}

/* A thread's samples counted with integer bins: the counts the runs add up to. */
static void example_histogram_runs(void) {
  double x[MAX_VALUES];
  int n = numbers("samples", x);
  csr_histogram_bins b = {CSR_BINS_INTEGER, (int)number("bins"), 0, 0};
  bins_of("integer", &b, x, n);
  uint64_t counts[MAX_VALUES];
  int64_t ix[MAX_VALUES], c[MAX_VALUES];
  for (int i = 0; i < n; i++)
    ix[i] = (int64_t)x[i];
  check(csr_histogram(ctx, CSR_HOST, CSR_DATA_I64, ix, n, &b, CSR_DATA_U64, counts, NULL, NULL),
        "histogram");
  for (int k = 0; k < b.bins; k++)
    c[k] = (int64_t)counts[k];
  print_i64("counts", c, b.bins);
}

/* --- conversions ------------------------------------------------------------------------- */

static void print_csr(const csr_matrix *A) {
  print_i64("row_offsets", A->row_offsets, A->rows + 1);
  int64_t c[MAX_VALUES];
  for (int64_t k = 0; k < A->nnz; k++)
    c[k] = A->col_indices[k];
  print_i64("col_indices", c, A->nnz);
  print_f64("values", (const double *)A->values, A->nnz);
  int64_t counts[MAX_VALUES];
  for (int64_t i = 0; i < A->rows; i++)
    counts[i] = A->row_offsets[i + 1] - A->row_offsets[i];
  print_i64("entries per row", counts, A->rows);
}

/* csr_from_dense; and the same arrays by csr_compact of the row-major values and of their column
 * indices with the nonzero flags. */
static void example_dense(void) {
  double d[MAX_VALUES];
  int rows = (int)number("rows"), cols = (int)number("cols");
  if (numbers("dense", d) != rows * cols)
    die("dense: rows x cols numbers expected");
  csr_dense *D = NULL;
  csr_matrix *A = NULL;
  check(csr_dense_wrap(ctx, &D, rows, cols, cols, CSR_ROW_MAJOR, CSR_F64, CSR_HOST, d), "wrap");
  check(csr_from_dense(ctx, D, &A), "from_dense");
  print_csr(A);
  uint8_t flags[MAX_VALUES];
  int32_t j[MAX_VALUES], cj[MAX_VALUES];
  double cv[MAX_VALUES];
  int64_t f[MAX_VALUES] = {0}, kept = 0, kept2 = 0;
  for (int i = 0; i < rows * cols; i++)
    flags[i] = d[i] != 0.0, f[i] = flags[i], j[i] = i % cols;
  print_i64("nonzero", f, rows * cols);
  int64_t j64[MAX_VALUES];
  for (int i = 0; i < rows * cols; i++)
    j64[i] = j[i];
  print_i64("column", j64, rows * cols);
  check(csr_compact(ctx, CSR_HOST, CSR_DATA_F64, d, flags, cv, rows * cols, &kept, NULL, NULL),
        "compact");
  check(csr_compact(ctx, CSR_HOST, CSR_DATA_I32, j, flags, cj, rows * cols, &kept2, NULL, NULL),
        "compact");
  int64_t c[MAX_VALUES];
  for (int64_t k = 0; k < kept2; k++)
    c[k] = cj[k];
  print_f64("compacted values", cv, kept);
  print_i64("compacted columns", c, kept2);
  csr_matrix_free(&A);
  csr_dense_free(&D);
}

/* csr_from_coo; the row counts (csr_histogram of the row indices), the offsets (a scan of the
 * counts); and the radix-sort route: (row, col) keys with the triples' positions as values. */
static void example_coo(void) {
  double r[MAX_VALUES], c[MAX_VALUES], v[MAX_VALUES];
  int rows = (int)number("rows"), cols = (int)number("cols");
  int n = numbers("row", r);
  if (numbers("col", c) != n || numbers("value", v) != n)
    die("row, col and value differ in length");
  csr_coo *T = NULL;
  csr_matrix *A = NULL;
  check(csr_coo_create(ctx, &T, rows, cols, n, CSR_F64, CSR_HOST), "coo_create");
  for (int k = 0; k < n; k++) {
    T->row_indices[k] = (int32_t)r[k];
    T->col_indices[k] = (int32_t)c[k];
    ((double *)T->values)[k] = v[k];
  }
  check(csr_from_coo(ctx, T, 0, &A), "from_coo");
  print_csr(A);

  uint64_t counts[MAX_VALUES];
  int64_t c64[MAX_VALUES], offsets[MAX_VALUES + 1];
  csr_histogram_bins bins = {CSR_BINS_INTEGER, rows, 0, 0};
  check(csr_histogram(ctx, CSR_HOST, CSR_DATA_I32, T->row_indices, n, &bins, CSR_DATA_U64, counts,
                      NULL, NULL),
        "histogram");
  for (int i = 0; i < rows; i++)
    c64[i] = (int64_t)counts[i];
  print_i64("row counts", c64, rows);
  offsets[0] = 0;
  check(
      csr_scan(ctx, CSR_HOST, CSR_DATA_I64, CSR_SCAN_INCLUSIVE, c64, offsets + 1, rows, NULL, NULL),
      "scan");
  print_i64("offsets", offsets, rows + 1);

  int col_bits = 0;
  while ((1 << col_bits) < cols)
    col_bits++;
  int row_bits = 0;
  while ((1 << row_bits) < rows)
    row_bits++;
  uint32_t keys[MAX_VALUES], src[MAX_VALUES];
  for (int k = 0; k < n; k++)
    keys[k] = (uint32_t)r[k] << col_bits | (uint32_t)c[k], src[k] = (uint32_t)k;
  printf("key bits: %d\n", col_bits + row_bits);
  print_pairs("keys (row << col bits | col)", "positions", keys, src, n);
  check(csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, keys, CSR_DATA_U32, src, n, 0,
                       col_bits + row_bits, NULL, NULL),
        "radix sort");
  print_pairs("sorted keys", "sorted positions", keys, src, n);
  csr_matrix_free(&A);
  csr_coo_free(&T);
}

/* --- PageRank ---------------------------------------------------------------------------- */

static csr_matrix *graph(int n, const double *from, const double *to, int m) {
  csr_coo *T = NULL;
  csr_matrix *A = NULL;
  check(csr_coo_create(ctx, &T, n, n, m, CSR_PATTERN, CSR_HOST), "coo_create");
  for (int k = 0; k < m; k++)
    T->row_indices[k] = (int32_t)from[k], T->col_indices[k] = (int32_t)to[k];
  check(csr_from_coo(ctx, T, 0, &A), "from_coo");
  csr_coo_free(&T);
  return A;
}

static void example_pagerank(void) {
  double from[MAX_VALUES], to[MAX_VALUES];
  int n = (int)number("pages"), m = numbers("from", from);
  if (numbers("to", to) != m)
    die("from and to differ in length");
  csr_matrix *A = graph(n, from, to, m);
  csr_vector *r = NULL;
  check(csr_vector_create(ctx, &r, n, CSR_F64, CSR_HOST), "vector");
  csr_pagerank_options o;
  csr_pagerank_options_init(&o);
  o.damping = number("damping");
  o.tol = number("tol");
  csr_pagerank_info info;
  for (int it = 1; it <= 2; it++) {
    o.max_iter = it;
    check(csr_pagerank(ctx, A, &o, r, &info), "pagerank");
    char key[64];
    snprintf(key, sizeof key, "ranks after iteration %d", it);
    print_f64(key, (const double *)r->data, n);
    snprintf(key, sizeof key, "L1 change of iteration %d", it);
    print_f64(key, &info.l1_change, 1);
  }
  o.max_iter = 1000;
  check(csr_pagerank(ctx, A, &o, r, &info), "pagerank");
  print_f64("ranks", (const double *)r->data, n);
  printf("iterations: %lld\n", (long long)info.iterations);
  print_f64("last L1 change", &info.l1_change, 1);
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += ((const double *)r->data)[i];
  print_f64("sum of ranks", &sum, 1);
  printf("dangling pages: %lld\n", (long long)info.dangling);
  csr_vector_free(&r);
  csr_matrix_free(&A);
}

/* --- CG ---------------------------------------------------------------------------------- */

/* csr_solve (CG) from x0: after one iteration (max_iter 1), then to convergence. */
static void example_cg(void) {
  double a[MAX_VALUES], b[MAX_VALUES], x0[MAX_VALUES];
  int n = numbers("b", b);
  if (numbers("A", a) != n * n || numbers("x0", x0) != n)
    die("A (n x n, by rows), b and x0 expected");
  csr_dense *D = NULL;
  csr_matrix *A = NULL;
  check(csr_dense_wrap(ctx, &D, n, n, n, CSR_ROW_MAJOR, CSR_F64, CSR_HOST, a), "wrap");
  check(csr_from_dense(ctx, D, &A), "from_dense");
  csr_vector *vb = NULL, *vx = NULL;
  check(csr_vector_wrap(ctx, &vb, n, CSR_F64, CSR_HOST, b), "wrap");
  double x[MAX_VALUES], history[64];
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.method = CSR_SOLVER_CG;
  o.rtol = number("rtol");
  o.history = history;
  o.history_capacity = 64;
  csr_solver_info info;
  for (int it = 1; it <= 2; it++) {
    memcpy(x, x0, sizeof(double) * (size_t)n);
    check(csr_vector_wrap(ctx, &vx, n, CSR_F64, CSR_HOST, x), "wrap");
    o.max_iter = it;
    check(csr_solve(ctx, A, vb, vx, &o, &info), "solve");
    char key[32];
    snprintf(key, sizeof key, "x%d", it);
    print_f64(key, x, n);
    csr_vector_free(&vx);
  }
  memcpy(x, x0, sizeof(double) * (size_t)n);
  check(csr_vector_wrap(ctx, &vx, n, CSR_F64, CSR_HOST, x), "wrap");
  o.max_iter = 0;
  check(csr_solve(ctx, A, vb, vx, &o, &info), "solve");
  print_f64("x", x, n);
  printf("iterations: %lld\n", (long long)info.iterations);
  print_f64("residual norms", history, info.history_length < 2 ? info.history_length : 2);
  csr_vector_free(&vx);
  csr_vector_free(&vb);
  csr_matrix_free(&A);
  csr_dense_free(&D);
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3)
    die("usage: algorithms_examples NAME [ref|omp] < block");
  csr_backend backend =
      argc == 3 && strcmp(argv[2], "omp") == 0 ? CSR_BACKEND_OMP : CSR_BACKEND_REF;
  if (!csr_backend_available(backend)) {
    fprintf(stderr, "algorithms_examples: backend %s not built\n", argv[2]);
    return 77;
  }
  if (csr_context_create(&ctx) != CSR_SUCCESS || csr_context_set_backend(ctx, backend) != 0)
    die("cannot create a context");
  read_block();
  const char *name = argv[1];
  if (strcmp(name, "scan-segmented") == 0)
    example_segmented_scan();
  else if (strncmp(name, "scan", 4) == 0)
    example_scan();
  else if (strncmp(name, "compact", 7) == 0)
    example_compact();
  else if (strncmp(name, "radix-sort", 10) == 0)
    example_radix_sort();
  else if (strcmp(name, "histogram-rules") == 0)
    example_histogram_rules();
  else if (strcmp(name, "histogram-aggregation") == 0)
    example_histogram_runs();
  else if (strcmp(name, "csr") == 0 || strcmp(name, "dense-to-csr") == 0)
    example_dense();
  else if (strcmp(name, "coo-to-csr") == 0)
    example_coo();
  else if (strcmp(name, "pagerank") == 0)
    example_pagerank();
  else if (strcmp(name, "cg") == 0)
    example_cg();
  /* other examples have no library side: the driver checks them alone */
  csr_context_free(&ctx);
  return 0;
}
