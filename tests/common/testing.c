/* SPDX-License-Identifier: BSD-3-Clause */
/* Test support implementation: see testing.h. */
#include "testing.h"

#include "kernels/spmv_registry.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

long csrt_checks = 0, csrt_failures = 0;

void csrt_fail(const char *file, int line, const char *what) {
  csrt_failures++;
  if (csrt_failures <= 50)
    fprintf(stderr, "FAIL %s:%d: %s\n", file, line, what);
}

char csrt_case[200];

void csrt_fail_in_case(const char *file, int line, const char *what) {
  char message[1024];
  snprintf(message, sizeof message, "[%.200s] %.800s", csrt_case, what);
  csrt_fail(file, line, message);
}

void csrt_checkf(int ok, const char *file, int line, const char *format, ...) {
  csrt_checks++;
  if (ok)
    return;
  char message[1200];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  csrt_fail(file, line, message);
}

int csrt_finish(const char *name) {
  printf("%s: %ld passed, %ld failed\n", name, csrt_checks - csrt_failures, csrt_failures);
  if (csrt_checks == 0) {
    printf("%s: no check ran: failed\n", name);
    return 1;
  }
  return csrt_failures == 0 ? 0 : 1;
}

uint64_t csrt_seed(const char *test_name) {
  const char *env = getenv("CSR_TEST_SEED");
  uint64_t seed = env ? strtoull(env, NULL, 0) : UINT64_C(20261122);
  printf("%s: seed %llu (set CSR_TEST_SEED to replay)\n", test_name, (unsigned long long)seed);
  return seed;
}

uint64_t csrt_next(csrt_rng *rng) {
  uint64_t z = (rng->state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

uint64_t csrt_below(csrt_rng *rng, uint64_t n) {
  return csrt_next(rng) % n;
}

double csrt_uniform(csrt_rng *rng, double lo, double hi) {
  double u = (double)(csrt_next(rng) >> 11) * 0x1.0p-53;
  return lo + (hi - lo) * u;
}

csr_backend csrt_backend_from_args(int argc, char **argv) {
  /* Line by line even into a file: a run stopped at a time limit keeps what it printed. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  csr_backend b = CSR_BACKEND_REF;
  if (argc > 1) {
    if (strcmp(argv[1], "omp") == 0)
      b = CSR_BACKEND_OMP;
    else if (strcmp(argv[1], "cuda") == 0)
      b = CSR_BACKEND_CUDA;
    else if (strcmp(argv[1], "ref") != 0) {
      fprintf(stderr, "unknown backend '%s'\n", argv[1]);
      exit(2);
    }
  }
  if (!csr_backend_available(b)) {
    printf("backend %s not compiled in: skipped\n", csr_backend_name(b));
    exit(77);
  }
  if (b == CSR_BACKEND_CUDA && !csr_cuda_device_present()) {
    printf("backend cuda: no CUDA device present: skipped\n");
    exit(77);
  }
  return b;
}

int csrt_part(int argc, char **argv, const char *name) {
  return argc < 3 || strcmp(argv[2], name) == 0;
}

/* --- one test source for every backend ------------------------------------------------------- */

/* The context the placement helpers copy with (the default stream); made once, freed at exit. */
static csr_context *mover(void) {
  static csr_context *ctx = NULL;
  if (ctx == NULL)
    ctx = csrt_context(CSR_BACKEND_AUTO);
  return ctx;
}

/* Exits unless a placement succeeded. */
static void placed(csr_status s, const char *what) {
  if (s < 0) {
    fprintf(stderr, "%s failed: %s\n", what, csr_context_last_error(mover()));
    exit(1);
  }
}

csr_location csrt_location(csr_backend backend) {
  return backend == CSR_BACKEND_CUDA ? CSR_DEVICE : CSR_HOST;
}

csr_matrix *csrt_place_matrix(csr_backend backend, const csr_matrix *A) {
  csr_matrix *P = NULL;
  placed(csr_matrix_copy(mover(), A, &P, csrt_location(backend)), "csrt_place_matrix");
  return P;
}

csr_vector *csrt_place_vector(csr_backend backend, const csr_vector *v) {
  csr_vector *P = NULL;
  placed(csr_vector_clone(mover(), v, &P, csrt_location(backend)), "csrt_place_vector");
  return P;
}

csr_vector *csrt_host_vector(const csr_vector *v) {
  return csrt_place_vector(CSR_BACKEND_REF, v);
}

void csrt_set_vector(csr_vector *v, const csr_vector *h) {
  placed(csr_copy(mover(), h, v), "csrt_set_vector");
}

void *csrt_alloc_at(csr_backend backend, size_t bytes) {
  void *p = NULL;
  if (bytes > 0)
    placed(csri_array_alloc(mover(), &p, (int64_t)bytes, 1, csrt_location(backend), 0),
           "csrt_alloc_at");
  return p;
}

void *csrt_place_bytes(csr_backend backend, const void *host, size_t bytes) {
  void *p = csrt_alloc_at(backend, bytes);
  placed(csri_array_copy(mover(), p, csrt_location(backend), host, CSR_HOST, bytes),
         "csrt_place_bytes");
  return p;
}

void csrt_fetch_bytes(csr_backend backend, void *host, const void *placed_at, size_t bytes) {
  placed(csri_array_copy(mover(), host, CSR_HOST, placed_at, csrt_location(backend), bytes),
         "csrt_fetch_bytes");
}

void csrt_free_at(csr_backend backend, void *placed_at) {
  csri_array_free(placed_at, csrt_location(backend));
}

int csrt_implements(csr_backend backend, size_t entry) {
  const csri_backend *b = csri_backend_of(backend);
  void (*fn)(void) = NULL;
  if (b != NULL)
    memcpy(&fn, (const char *)b + entry, sizeof fn);
  return fn != NULL;
}

int csrt_quick(void) {
  return getenv("CSR_GPU_QUICK") != NULL;
}

csr_context *csrt_context(csr_backend backend) {
  csr_context *ctx = NULL;
  if (csr_context_create(&ctx) != CSR_SUCCESS || csr_context_set_backend(ctx, backend) != 0) {
    fprintf(stderr, "cannot create a context\n");
    exit(1);
  }
  return ctx;
}

static double random_value(csrt_rng *rng, csrt_values values) {
  if (values == CSRT_CONSTANT)
    return 1.0;
  double v = csrt_uniform(rng, -1.0, 1.0);
  return v == 0.0 ? 0.5 : v;
}

static void set_value(void *values, csr_value_type type, int64_t k, double v) {
  if (type == CSR_F64)
    ((double *)values)[k] = v;
  else if (type == CSR_F32)
    ((float *)values)[k] = (float)v;
}

csr_matrix *csrt_read_if_present(csr_context *ctx, const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    printf("  %s: absent, skipped\n", path);
    return NULL;
  }
  fclose(f);
  csr_matrix *A = NULL;
  CHECK_OK(ctx, csr_read_csr(ctx, path, NULL, &A, NULL));
  return A;
}

csr_vector csrt_vector_piece(const csr_vector *v, int64_t begin, int64_t end) {
  csr_vector p = *v;
  p.data = (char *)v->data + begin * (v->value_type == CSR_F64 ? 8 : 4);
  p.n = end - begin;
  p.owns_data = 0;
  return p;
}

int csrt_exact_same(csri_exact_acc *a, csri_exact_acc *b) {
  csri_exact_normalize(a);
  csri_exact_normalize(b);
  return memcmp(a->w, b->w, sizeof a->w) == 0;
}

csr_status csrt_solve_placed(csr_backend backend, csr_context *ctx, const csr_matrix *A,
                             const csr_vector *b, csr_vector *x, const csr_solver_options *o,
                             csr_solver_info *info) {
  csr_matrix *Ap = csrt_place_matrix(backend, A);
  csr_vector *bp = csrt_place_vector(backend, b), *xp = csrt_place_vector(backend, x);
  csr_status s = csr_solve(ctx, Ap, bp, xp, o, info);
  csrt_set_vector(x, xp);
  csr_matrix_free(&Ap);
  csr_vector_free(&bp);
  csr_vector_free(&xp);
  return s;
}

void csrt_set_value(csr_vector *v, int64_t i, double value) {
  if (v->value_type == CSR_F64)
    ((double *)v->data)[i] = value;
  else
    ((float *)v->data)[i] = (float)value;
}

double csrt_value(const void *values, csr_value_type type, int64_t k) {
  if (type == CSR_F64)
    return ((const double *)values)[k];
  if (type == CSR_F32)
    return ((const float *)values)[k];
  return 1.0;
}

static int compare_int32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

csr_matrix *csrt_from_row_lengths(csr_context *ctx, int64_t rows, int64_t cols,
                                  const int64_t *lengths, csr_value_type value_type,
                                  csrt_values values, csrt_rng *rng) {
  int64_t nnz = 0;
  for (int64_t i = 0; i < rows; i++)
    nnz += lengths[i];
  csr_matrix *A = NULL;
  if (csr_matrix_create(ctx, &A, rows, cols, nnz, value_type, CSR_HOST) != CSR_SUCCESS) {
    fprintf(stderr, "csrt_from_row_lengths: %s\n", csr_context_last_error(ctx));
    exit(1);
  }
  char *used = cols > 0 ? calloc((size_t)cols, 1) : NULL;
  int64_t k = 0;
  int distinct = 1;
  for (int64_t i = 0; i < rows; i++) {
    A->row_offsets[i] = k;
    int64_t len = lengths[i];
    if (len > cols) {
      distinct = 0;
      for (int64_t t = 0; t < len; t++)
        A->col_indices[k + t] = (int32_t)csrt_below(rng, (uint64_t)cols);
    } else if (len * 2 > cols) { /* dense-ish: pick columns by a partial sweep */
      int64_t chosen = 0;
      for (int64_t c = 0; c < cols && chosen < len; c++)
        if ((int64_t)csrt_below(rng, (uint64_t)(cols - c)) < len - chosen)
          A->col_indices[k + chosen++] = (int32_t)c;
    } else { /* sparse: rejection sampling of distinct columns */
      for (int64_t t = 0; t < len; t++) {
        int32_t c;
        do
          c = (int32_t)csrt_below(rng, (uint64_t)cols);
        while (used[c]);
        used[c] = 1;
        A->col_indices[k + t] = c;
      }
      for (int64_t t = 0; t < len; t++)
        used[A->col_indices[k + t]] = 0;
    }
    qsort(A->col_indices + k, (size_t)len, sizeof(int32_t), compare_int32);
    for (int64_t t = 0; t < len; t++)
      set_value(A->values, value_type, k + t, random_value(rng, values));
    k += len;
  }
  A->row_offsets[rows] = k;
  A->flags = distinct ? (CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES) : CSR_FLAG_SORTED;
  free(used);
  return A;
}

static const char *shape_names[CSRT_SHAPE_COUNT] = {"0x0",
                                                    "0xn",
                                                    "nx0",
                                                    "1x1",
                                                    "all-rows-empty",
                                                    "empty-first-last",
                                                    "dense-row",
                                                    "threshold-lengths",
                                                    "random-square",
                                                    "random-wide",
                                                    "random-tall",
                                                    "unsorted-duplicates"};

const char *csrt_shape_name(csrt_shape shape) {
  return shape < CSRT_SHAPE_COUNT ? shape_names[shape] : "?";
}

/* Shuffles each row's entries and turns some entries into duplicates and explicit zeros. */
static void make_unsorted_duplicates(csr_matrix *A, csrt_rng *rng) {
  for (int64_t i = 0; i < A->rows; i++) {
    int64_t b = A->row_offsets[i], e = A->row_offsets[i + 1];
    for (int64_t k = b + 1; k < e; k++) {
      if (csrt_below(rng, 4) == 0)
        A->col_indices[k] = A->col_indices[b + (int64_t)csrt_below(rng, (uint64_t)(k - b))];
      if (csrt_below(rng, 8) == 0)
        set_value(A->values, A->value_type, k, 0.0);
    }
    for (int64_t k = e - 1; k > b; k--) { /* Fisher-Yates over the row */
      int64_t j = b + (int64_t)csrt_below(rng, (uint64_t)(k - b + 1));
      int32_t tc = A->col_indices[k];
      A->col_indices[k] = A->col_indices[j];
      A->col_indices[j] = tc;
      double tv = csrt_value(A->values, A->value_type, k);
      set_value(A->values, A->value_type, k, csrt_value(A->values, A->value_type, j));
      set_value(A->values, A->value_type, j, tv);
    }
  }
  A->flags = 0;
}

csr_matrix *csrt_generate(csr_context *ctx, csrt_shape shape, csr_value_type value_type,
                          csrt_values values, csrt_rng *rng) {
  int64_t rows = 0, cols = 0;
  switch (shape) {
  case CSRT_EMPTY_0X0: break;
  case CSRT_EMPTY_0XN: cols = 17; break;
  case CSRT_EMPTY_NX0: rows = 13; break;
  case CSRT_ONE_BY_ONE: rows = cols = 1; break;
  case CSRT_ALL_ROWS_EMPTY:
    rows = 40;
    cols = 30;
    break;
  case CSRT_EMPTY_FIRST_LAST:
    rows = 200;
    cols = 150;
    break;
  case CSRT_DENSE_ROW:
    rows = 500;
    cols = 3000;
    break;
  case CSRT_THRESHOLD_LENGTHS:
    rows = 33;
    cols = 1100;
    break;
  case CSRT_RANDOM_SQUARE: rows = cols = 1000; break;
  case CSRT_RANDOM_WIDE:
    rows = 60;
    cols = 2500;
    break;
  case CSRT_RANDOM_TALL:
    rows = 2500;
    cols = 60;
    break;
  case CSRT_UNSORTED_DUPLICATES:
    rows = 300;
    cols = 80;
    break;
  default: return NULL;
  }
  int64_t *len = calloc((size_t)(rows > 0 ? rows : 1), sizeof(int64_t));
  for (int64_t i = 0; i < rows && cols > 0; i++) { /* no columns: every row stays empty */
    switch (shape) {
    case CSRT_ONE_BY_ONE: len[i] = 1; break;
    case CSRT_ALL_ROWS_EMPTY: len[i] = 0; break;
    case CSRT_EMPTY_FIRST_LAST:
      len[i] = (i == 0 || i == rows - 1) ? 0 : (int64_t)csrt_below(rng, 12);
      break;
    case CSRT_DENSE_ROW: len[i] = (i == rows / 3) ? cols : (int64_t)csrt_below(rng, 4); break;
    case CSRT_THRESHOLD_LENGTHS: {
      int64_t k = i / 3, p = (int64_t)1 << k; /* 2^k - 1, 2^k, 2^k + 1 */
      len[i] = p - 1 + i % 3;
      break;
    }
    case CSRT_RANDOM_WIDE: len[i] = (int64_t)csrt_below(rng, 200); break;
    case CSRT_RANDOM_TALL: len[i] = (int64_t)csrt_below(rng, 8); break;
    default: len[i] = (int64_t)csrt_below(rng, 20); break;
    }
  }
  csr_matrix *A = csrt_from_row_lengths(ctx, rows, cols, len, value_type, values, rng);
  free(len);
  if (shape == CSRT_UNSORTED_DUPLICATES)
    make_unsorted_duplicates(A, rng);
  return A;
}

csr_vector *csrt_random_vector(csr_context *ctx, int64_t n, csr_value_type type, csrt_rng *rng) {
  csr_vector *v = NULL;
  if (csr_vector_create(ctx, &v, n, type, CSR_HOST) != CSR_SUCCESS) {
    fprintf(stderr, "csrt_random_vector: %s\n", csr_context_last_error(ctx));
    exit(1);
  }
  for (int64_t i = 0; i < n; i++)
    set_value(v->data, type, i, random_value(rng, CSRT_RANDOM));
  return v;
}

#if defined(__SANITIZE_ADDRESS__)
#define CSRT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CSRT_ASAN 1
#endif
#endif
#ifndef CSRT_ASAN
#define CSRT_ASAN 0
#endif

int csrt_under_asan(void) {
  return CSRT_ASAN;
}

long long csrt_available_gib(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  char line[256];
  long long kib = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %lld kB", &kib) == 1)
      break;
  if (f)
    fclose(f);
  return kib / (1024 * 1024);
}

csr_matrix *csrt_poisson_2d(csr_context *ctx, int64_t m, double shift) {
  int64_t n = m * m;
  csr_matrix *A = NULL;
  if (csr_matrix_create(ctx, &A, n, n, 5 * n, CSR_F64, CSR_HOST) != CSR_SUCCESS) {
    fprintf(stderr, "csrt_poisson_2d: %s\n", csr_context_last_error(ctx));
    exit(1);
  }
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t r = i / m, c = i % m;
    const int64_t nb[5] = {r > 0 ? i - m : -1, c > 0 ? i - 1 : -1, i, c < m - 1 ? i + 1 : -1,
                           r < m - 1 ? i + m : -1};
    for (int t = 0; t < 5; t++)
      if (nb[t] >= 0) {
        A->col_indices[k] = (int32_t)nb[t];
        ((double *)A->values)[k++] = nb[t] == i ? 4.0 + shift : -1.0;
      }
    A->row_offsets[i + 1] = k;
  }
  A->nnz = k;
  A->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  return A;
}

csr_matrix *csrt_convection_diffusion(csr_context *ctx, int dims, int64_t m, double peclet) {
  int64_t n = dims == 3 ? m * m * m : m * m, stride[3] = {1, m, m * m};
  double upstream = -1.0 - peclet / (double)(m + 1);
  csr_matrix *A = NULL;
  if (csr_matrix_create(ctx, &A, n, n, (2 * dims + 1) * n, CSR_F64, CSR_HOST) != CSR_SUCCESS) {
    fprintf(stderr, "csrt_convection_diffusion: %s\n", csr_context_last_error(ctx));
    exit(1);
  }
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) {
    for (int d = dims - 1; d >= 0; d--) /* upstream neighbours, columns ascending */
      if ((i / stride[d]) % m > 0) {
        A->col_indices[k] = (int32_t)(i - stride[d]);
        ((double *)A->values)[k++] = upstream;
      }
    A->col_indices[k] = (int32_t)i;
    ((double *)A->values)[k++] = -(double)dims * (upstream + 1.0) + 2.0 * dims;
    for (int d = 0; d < dims; d++)
      if ((i / stride[d]) % m < m - 1) {
        A->col_indices[k] = (int32_t)(i + stride[d]);
        ((double *)A->values)[k++] = -1.0;
      }
    A->row_offsets[i + 1] = k;
  }
  A->nnz = k;
  A->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  return A;
}

csr_vector *csrt_zeros(csr_context *ctx, int64_t n) {
  csr_vector *v = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &v, n, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_fill(ctx, 0.0, v));
  return v;
}

csr_vector *csrt_times_ones(csr_context *ctx, const csr_matrix *A) {
  csr_vector *ones = csrt_zeros(ctx, A->cols), *b = csrt_zeros(ctx, A->rows);
  CHECK_OK(ctx, csr_fill(ctx, 1.0, ones));
  CHECK_OK(ctx, csr_spmv(ctx, 1.0, A, ones, 0.0, b));
  csr_vector_free(&ones);
  return b;
}

double csrt_residual_norm(const csr_matrix *A, const csr_vector *x, const csr_vector *b) {
  long double sum = 0.0L;
  for (int64_t i = 0; i < A->rows; i++) {
    long double r = csrt_value(b->data, b->value_type, i);
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      r -= (long double)csrt_value(A->values, A->value_type, k) *
           csrt_value(x->data, x->value_type, A->col_indices[k]);
    sum += r * r;
  }
  return (double)sqrtl(sum);
}

double csrt_norm2(const csr_vector *v) {
  long double sum = 0.0L;
  for (int64_t i = 0; i < v->n; i++) {
    long double t = csrt_value(v->data, v->value_type, i);
    sum += t * t;
  }
  return (double)sqrtl(sum);
}

int csrt_spmv_kernel_count(void) {
  return 1 + CSRI_SPMV_KERNEL_COUNT;
}

csr_spmv_kernel csrt_spmv_kernel(int k) {
  return k == 0 ? CSR_KERNEL_AUTO : csri_spmv_kernels[k - 1].kernel;
}

int csrt_spmv_kernel_tiled(csr_spmv_kernel kernel) {
  const csri_spmv_kernel_info *info = csri_spmv_kernel_of(kernel);
  return info != NULL && !info->row_kernel;
}
