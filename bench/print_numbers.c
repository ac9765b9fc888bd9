/* SPDX-License-Identifier: BSD-3-Clause */
/* Shortest round-trip formatting: csri_print_double against snprintf("%.17g") and against the
 * old formatter (the first precision whose %.{p}g reads back), then the Matrix Market writer.
 *
 *   print_numbers [count] [writer_entries] [path]
 *   (defaults 10,000,000, 11,000,000 and /tmp/print_numbers_bench.mtx; a count of 0 skips that
 *   part; /dev/null as path leaves out the file system)
 *
 * Data sets of `count` doubles: uniform in (0, 1); "%.16e-like" values, +-[1e-8, 1e8) with a
 * random 53-bit significand (what real matrices hold); small integers 1..1000 as doubles. Each
 * formatter writes the whole set, newline-separated, into one buffer; runs are interleaved
 * (every formatter once per round) and the median of 5 rounds is reported as ns per number and
 * MB/s of text produced. The old formatter (up to 17 snprintf+strtod calls per number) runs on
 * the first count/20 values only. Every value of ours is checked to read back with strtod.
 * Then csr_write_mm writes a random CSR (writer_entries entries, 11 per row, %.16e-like values)
 * to a file with 1 and 2 OpenMP threads (csr_context_set_threads), median of 5, in MB/s of
 * text. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include "../src/io/decimal/mm_print.h"
#include "bench_clock.h"
#include "bench_random.h"
#include "csr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUNS 5

static bench_rng rng = {12345};

/* A value in +-[1e-8, 1e8) with a uniformly random 53-bit significand. */
static double random_value(void) {
  static const double scale[17] = {1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0,
                                   1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8};
  uint64_t r = bench_random(&rng);
  double x = bench_unit(r) * scale[r % 17];
  return r & 1024 ? -x : x;
}

/* The formatter this library had before: correct, slow. */
static int old_print_double(double v, char *out) {
  char buf[40];
  int n = 0;
  for (int p = 1; p <= 17; p++) {
    n = snprintf(buf, sizeof buf, "%.*g", p, v);
    if (strtod(buf, NULL) == v)
      break;
  }
  memcpy(out, buf, (size_t)n);
  return n;
}

/* Formats v[0..count) newline-separated into buf with formatter `which`; returns the bytes. */
static size_t format_all(int which, const double *v, long count, char *buf) {
  char *p = buf;
  for (long i = 0; i < count; i++) {
    if (which == 0)
      p += csri_print_double(v[i], p);
    else if (which == 1)
      p += snprintf(p, 32, "%.17g", v[i]);
    else
      p += old_print_double(v[i], p);
    *p++ = '\n';
  }
  return (size_t)(p - buf);
}

static int bench_numbers(long count) {
  static const char *const names[] = {"uniform(0,1)", "%.16e-like", "int 1..1000"};
  static const char *const fmts[] = {"ours", "%.17g", "old"};
  double *v = malloc((size_t)count * sizeof *v);
  char *buf = malloc((size_t)count * 32);
  if (v == NULL || buf == NULL)
    return 1;
  printf("print_numbers: %ld doubles per set (old formatter: %ld), median of %d rounds\n", count,
         count / 20, RUNS);
  printf("%-13s | %-6s %8s %9s | %-6s %8s %9s | %-6s %8s %9s\n", "set", "", "ns/num", "MB/s", "",
         "ns/num", "MB/s", "", "ns/num", "MB/s");
  for (int set = 0; set < 3; set++) {
    for (long i = 0; i < count; i++)
      v[i] = set == 0   ? (double)((bench_random(&rng) >> 11) | 1) * 0x1.0p-53
             : set == 1 ? random_value()
                        : (double)(bench_random(&rng) % 1000 + 1);
    double t[3][RUNS];
    size_t bytes[3] = {0, 0, 0};
    long n[3] = {count, count, count / 20};
    for (int r = 0; r < RUNS; r++)
      for (int f = 0; f < 3; f++) {
        double t0 = bench_now();
        bytes[f] = format_all(f, v, n[f], buf);
        t[f][r] = bench_now() - t0;
      }
    format_all(0, v, count, buf); /* check: every one reads back */
    char *p = buf;
    for (long i = 0; i < count; i++, p++)
      if (strtod(p, &p) != v[i]) {
        printf("print_numbers: %.17g does not read back\n", v[i]);
        return 1;
      }
    printf("%-13s", names[set]);
    for (int f = 0; f < 3; f++) {
      double m = bench_median(t[f], RUNS);
      printf(" | %-6s %8.1f %9.1f", fmts[f], 1e9 * m / (double)n[f], (double)bytes[f] / 1e6 / m);
    }
    printf("\n");
  }
  free(v);
  free(buf);
  return 0;
}

/* The size of the text csr_write_mm writes for A (through a temporary file). */
static long measure_size(csr_context *ctx, const csr_matrix *A, const csr_write_options *o) {
  const char *tmp = "/tmp/print_numbers_size.mtx";
  long size = 0;
  if (csr_write_mm(ctx, tmp, A, o) == CSR_SUCCESS) {
    FILE *f = fopen(tmp, "rb");
    if (f && fseek(f, 0, SEEK_END) == 0)
      size = ftell(f);
    if (f)
      fclose(f);
  }
  remove(tmp);
  return size;
}

static int bench_writer(long entries, const char *path) {
  int64_t rows = entries / 11, nnz = rows * 11;
  csr_context *ctx = NULL;
  csr_matrix *A = NULL;
  if (csr_context_create(&ctx) != CSR_SUCCESS ||
      csr_matrix_create(ctx, &A, rows, rows, nnz, CSR_F64, CSR_HOST) != CSR_SUCCESS)
    return 1;
  if (csr_backend_available(CSR_BACKEND_OMP))
    csr_context_set_backend(ctx, CSR_BACKEND_OMP);
  double *val = A->values;
  for (int64_t i = 0; i < rows; i++) {
    A->row_offsets[i + 1] = (i + 1) * 11;
    for (int64_t k = 0; k < 11; k++) /* 11 sorted distinct columns */
      A->col_indices[i * 11 + k] = (int32_t)((rows / 11) * k + (int64_t)(bench_random(&rng) % 8));
  }
  for (int64_t k = 0; k < nnz; k++)
    val[k] = random_value();
  A->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  csr_write_options o;
  csr_write_options_init(&o);
  double t[2][RUNS];
  long size = 0;
  for (int r = 0; r < RUNS; r++)
    for (int th = 0; th < 2; th++) {
      csr_context_set_threads(ctx, th + 1);
      double t0 = bench_now();
      if (csr_write_mm(ctx, path, A, &o) != CSR_SUCCESS) {
        printf("print_numbers: csr_write_mm failed: %s\n", csr_context_last_error(ctx));
        return 1;
      }
      t[th][r] = bench_now() - t0;
      FILE *f = strcmp(path, "/dev/null") ? fopen(path, "rb") : NULL;
      if (f && fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
      if (f)
        fclose(f);
    }
  if (strcmp(path, "/dev/null") == 0) /* the same text as in a file: measure it once */
    size = measure_size(ctx, A, &o);
  else
    remove(path);
  printf("csr_write_mm to %s: %lld x %lld, %lld entries (%s backend), %.1f MB, median of %d\n",
         path, (long long)rows, (long long)rows, (long long)nnz,
         csr_backend_available(CSR_BACKEND_OMP) ? "omp" : "ref", (double)size / 1e6, RUNS);
  for (int th = 0; th < 2; th++) {
    double m = bench_median(t[th], RUNS);
    printf("  %d thread%s: %.3f s, %.1f MB/s, %.1f ns/entry\n", th + 1, th ? "s" : " ", m,
           (double)size / 1e6 / m, 1e9 * m / (double)nnz);
  }
  csr_matrix_free(&A);
  csr_context_free(&ctx);
  return 0;
}

int main(int argc, char **argv) {
  long count = argc > 1 ? atol(argv[1]) : 10000000;
  long entries = argc > 2 ? atol(argv[2]) : 11000000;
  if (count > 0 && bench_numbers(count))
    return 1;
  const char *path = argc > 3 ? argv[3] : "/tmp/print_numbers_bench.mtx";
  if (entries > 0 && bench_writer(entries, path))
    return 1;
  return 0;
}
