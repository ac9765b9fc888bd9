/* SPDX-License-Identifier: BSD-3-Clause */
/* Lengths past 2^31 on the backend of argv[1] (arrays placed where it runs): compact of
 * 2^31 + 2^22 + 17 bytes keeping more than 2^31 of them, and a histogram of 2^32 + 7 byte samples
 * whose U32 counts wrap (and U16 counts saturate). Needs ~4.5 GB (and as much device memory for
 * cuda); skipped (exit 77) when less memory is available, under AddressSanitizer, or with
 * CSR_SKIP_LARGE set. */
#include "csr_primitives.h"
#include "testing.h"

#include <stdlib.h>
#include <string.h>

static csr_backend backend;

/* The host array itself on a CPU backend (no second copy of gigabytes), a device copy on cuda. */
static void *at_backend(void *host, size_t bytes) {
  return backend == CSR_BACKEND_CUDA ? csrt_place_bytes(backend, host, bytes) : host;
}
static void bring_back(void *host, void *placed, size_t bytes) {
  if (placed != host) {
    csrt_fetch_bytes(backend, host, placed, bytes);
    csrt_free_at(backend, placed);
  }
}

/* Element i: a byte of a hash of i; 0 for about one in 1024 (those are dropped). */
static uint8_t element(int64_t i) {
  uint64_t x = (uint64_t)i * UINT64_C(0x9E3779B97F4A7C15);
  x ^= x >> 29;
  x *= UINT64_C(0xBF58476D1CE4E5B9);
  x ^= x >> 32;
  return (x & 1023) == 0 ? 0 : (uint8_t)(1 + x % 255);
}

static void large_compact(csr_context *ctx) {
  const int64_t n = (INT64_C(1) << 31) + (INT64_C(1) << 22) + 17;
  uint8_t *in = malloc((size_t)n), *out = malloc((size_t)n);
  CHECK(in && out);
  if (in && out) {
    int64_t want = 0, kept = -1, bad = -1;
    for (int64_t i = 0; i < n; i++)
      want += (in[i] = element(i)) != 0;
    uint8_t zero = 0, *in_at = at_backend(in, (size_t)n), *out_at = at_backend(out, (size_t)n);
    CHECK_OK(ctx, csr_compact_if(ctx, csrt_location(backend), CSR_DATA_U8, in_at,
                                 CSR_KEEP_NOT_EQUAL, &zero, out_at, n, &kept, NULL, NULL));
    bring_back(out, out_at, (size_t)n);
    if (in_at != in)
      csrt_free_at(backend, in_at);
    CHECKF(kept == want && kept > (INT64_C(1) << 31), "kept %lld of %lld, expected %lld",
           (long long)kept, (long long)n, (long long)want);
    for (int64_t i = 0, k = 0; i < n && bad < 0 && kept == want; i++)
      if (in[i] != 0 && out[k++] != in[i])
        bad = k - 1;
    CHECKF(bad < 0, "compact output %lld wrong", (long long)bad);
  }
  free(in);
  free(out);
}

/* 2^32 + 7 samples: 0 everywhere but 3 ones and 2 twos, so bin 0 holds 2^32 + 2. */
static void large_histogram(csr_context *ctx) {
  const int64_t n = (INT64_C(1) << 32) + 7;
  uint8_t *s = calloc((size_t)n, 1);
  CHECK(s != NULL);
  if (s) {
    s[0] = s[n / 2] = s[n - 1] = 1;
    s[12345] = s[n - 2] = 2;
    csr_histogram_bins bins = {CSR_BINS_INTEGER, 4, 0.0, 0.0};
    uint32_t c32[4];
    uint16_t c16[4];
    csr_location at = csrt_location(backend);
    uint8_t *s_at = at_backend(s, (size_t)n);
    void *counts_at = csrt_alloc_at(backend, sizeof c32);
    CHECK_OK(ctx, csr_histogram(ctx, at, CSR_DATA_U8, s_at, n, &bins, CSR_DATA_U32, counts_at, NULL,
                                NULL));
    csrt_fetch_bytes(backend, c32, counts_at, sizeof c32);
    CHECKF(c32[0] == 2 && c32[1] == 3 && c32[2] == 2 && c32[3] == 0, "U32 counts %u %u %u %u",
           c32[0], c32[1], c32[2], c32[3]);
    CHECK_OK(ctx, csr_histogram(ctx, at, CSR_DATA_U8, s_at, n, &bins, CSR_DATA_U16, counts_at, NULL,
                                NULL));
    csrt_fetch_bytes(backend, c16, counts_at, sizeof c16);
    CHECK(c16[0] == 65535 && c16[1] == 3 && c16[2] == 2 && c16[3] == 0);
    if (s_at != s)
      csrt_free_at(backend, s_at);
    csrt_free_at(backend, counts_at);
  }
  free(s);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  if (csrt_under_asan() || csrt_available_gib() < 8 || getenv("CSR_SKIP_LARGE")) {
    printf("backend_large_primitives: needs ~4.5 GB outside ASan (%lld GiB available): skipped\n",
           csrt_available_gib());
    return 77;
  }
  csr_context *ctx = csrt_context(backend);
  large_compact(ctx);
  large_histogram(ctx);
  csr_context_free(&ctx);
  return csrt_finish("backend_large_primitives");
}
