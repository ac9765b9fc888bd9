/* SPDX-License-Identifier: BSD-3-Clause */
/* Writes a random general real Matrix Market file for the end-to-end benchmark: about `entries`
 * triples of an n x n matrix in row order (what files usually hold), row i holding a random
 * number of entries (0 to twice the mean) at random distinct columns, ascending; values
 * +-[1e-3, 1e3) with a random 53-bit significand, never zero. The writer is libcsr's
 * (csr_write_coo_mm, in parallel; gzip members deflated in parallel when the path ends in .gz).
 *
 *   make_mtx PATH N ENTRIES [SEED]
 */
#include "bench_random.h"
#include "csr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bench_rng rng;

static double random_value(void) {
  static const double scale[6] = {1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2};
  uint64_t r = bench_random(&rng);
  double significand = 1.0 + bench_unit(r) * 9.0; /* [1, 10) */
  double v = significand * scale[(r & 0xff) % 6];
  return (r >> 8) & 1 ? -v : v;
}

static int compare_int32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s PATH N ENTRIES [SEED]\n", argv[0]);
    return 1;
  }
  const char *path = argv[1];
  const int64_t n = atoll(argv[2]), target = atoll(argv[3]);
  rng.state = argc > 4 ? (uint64_t)atoll(argv[4]) : 42;
  if (n < 1 || n > 2000000000 || target < 1 || target / n > n) {
    fprintf(stderr, "%s: N in [1, 2e9] and ENTRIES in [1, N^2]\n", argv[0]);
    return 1;
  }
  const int64_t mean = target / n > 0 ? target / n : 1, capacity = target + 4 * n;
  csr_context *ctx = NULL;
  csr_coo *T = NULL;
  if (csr_context_create(&ctx) < 0 ||
      csr_coo_create(ctx, &T, n, n, capacity, CSR_F64, CSR_HOST) < 0) {
    fprintf(stderr, "%s: cannot allocate %lld triples\n", argv[0], (long long)capacity);
    return 3;
  }
  int64_t k = 0;
  for (int64_t i = 0; i < n && k < capacity; i++) {
    int64_t length = (int64_t)(bench_random(&rng) % (uint64_t)(2 * mean + 1));
    if (length > n)
      length = n;
    if (k + length > capacity)
      length = capacity - k;
    int32_t *cols = T->col_indices + k;
    for (int64_t j = 0; j < length; j++)
      cols[j] = (int32_t)(bench_random(&rng) % (uint64_t)n);
    qsort(cols, (size_t)length, sizeof *cols, compare_int32);
    int64_t kept = 0; /* distinct columns only */
    for (int64_t j = 0; j < length; j++)
      if (kept == 0 || cols[j] != cols[kept - 1])
        cols[kept++] = cols[j];
    for (int64_t j = 0; j < kept; j++) {
      T->row_indices[k + j] = (int32_t)i;
      ((double *)T->values)[k + j] = random_value();
    }
    k += kept;
  }
  T->nnz = k;
  csr_write_options wo;
  csr_write_options_init(&wo);
  wo.gzip_level = 1;
  csr_status s = csr_write_coo_mm(ctx, path, T, &wo);
  if (s < 0)
    fprintf(stderr, "%s: %s\n", argv[0], csr_context_last_message(ctx));
  else
    printf("%s: %lld x %lld, %lld entries\n", path, (long long)n, (long long)n, (long long)k);
  csr_coo_free(&T);
  csr_context_free(&ctx);
  return s < 0 ? 3 : 0;
}
