/* SPDX-License-Identifier: BSD-3-Clause */
/* Times csr_read_coo (and csr_write_coo_mm) on one file: warm-up, then the median of N reads.
 * With --csr it times csr_read_csr instead (the file to an assembled CSR). Prints one JSON object;
 * bench/mm_read.py runs it beside fast_matrix_market (and scipy for the CSR). Also reports the
 * peak resident memory of one read against the COO and file sizes (libcsr's goal: at most 1.5x
 * the COO's bytes plus the file's). */
#include "bench_clock.h"
#include "csr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

/* Peak resident KiB of this program: VmHWM, the high-water mark of this address space. Not
 * getrusage's ru_maxrss, which on Linux carries over the parent's peak across fork and exec (a
 * Python driver's hundreds of MB would hide ours). */
static long peak_rss_kib(void) {
  long kib = -1;
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
      break;
  if (f)
    fclose(f);
  if (kib < 0) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    kib = u.ru_maxrss;
  }
  return kib;
}

int main(int argc, char **argv) {
  const char *path = NULL, *write_path = NULL;
  int threads = 0, reps = 5, csr = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--csr"))
      csr = 1;
    else if (!strcmp(argv[i], "--write") && i + 1 < argc)
      write_path = argv[++i];
    else if (argv[i][0] != '-')
      path = argv[i];
  }
  if (path == NULL || reps < 1 || reps > 100) {
    fprintf(stderr, "usage: mm_read FILE [--threads T] [--reps N] [--csr | --write OUT.mtx]\n");
    return 1;
  }
  csr_context *ctx = NULL;
  if (csr_context_create(&ctx) || csr_context_set_threads(ctx, threads))
    return 3;
  long rss_start = peak_rss_kib();
  double *t = calloc((size_t)reps + 1, sizeof *t), *w = calloc((size_t)reps + 1, sizeof *w);
  csr_coo *T = NULL;
  csr_matrix *A = NULL;
  csr_file_info info;
  long rss_one_read = 0;
  for (int r = 0; r <= reps; r++) { /* r = 0: the warm-up, and the memory measurement */
    csr_coo_free(&T);
    csr_matrix_free(&A);
    double t0 = bench_now();
    if ((csr ? csr_read_csr(ctx, path, NULL, &A, &info)
             : csr_read_coo(ctx, path, NULL, &T, &info)) != CSR_SUCCESS) {
      fprintf(stderr, "%s\n", csr_context_last_error(ctx));
      return 2;
    }
    t[r] = bench_now() - t0;
    if (r == 0)
      rss_one_read = peak_rss_kib();
  }
  struct stat st;
  stat(path, &st);
  csr_value_type type = csr ? A->value_type : T->value_type;
  size_t value_bytes = type == CSR_F64 ? 8 : type == CSR_F32 ? 4 : 0;
  double coo_mb = (double)info.entries * (8.0 + (double)value_bytes) / 1e6;
  double text_mb = (double)info.bytes / 1e6, read_s = bench_median(t + 1, reps);
  printf("{\"file\": \"%s\", \"threads\": %d, \"csr\": %d, \"nnz\": %lld, \"entries\": %lld, "
         "\"file_mb\": %.1f, \"text_mb\": %.1f, "
         "\"gzip\": %d, \"read_s\": %.4f, \"read_mbs\": %.1f, \"coo_mb\": %.1f, "
         "\"peak_rss_mb\": %.1f, \"peak_over_coo_plus_file\": %.3f",
         path, threads, csr, (long long)(csr ? A->nnz : T->nnz), (long long)info.entries,
         (double)st.st_size / 1e6, text_mb, info.gzip, read_s, text_mb / read_s, coo_mb,
         (double)(rss_one_read - rss_start) / 1024.0,
         (double)(rss_one_read - rss_start) / 1024.0 * 1.048576 /
             (coo_mb + (double)st.st_size / 1e6));
  if (write_path && !csr) {
    for (int r = 0; r <= reps; r++) {
      double t0 = bench_now();
      if (csr_write_coo_mm(ctx, write_path, T, NULL) != CSR_SUCCESS) {
        fprintf(stderr, "%s\n", csr_context_last_error(ctx));
        return 2;
      }
      w[r] = bench_now() - t0;
    }
    struct stat ws;
    stat(write_path, &ws);
    double write_s = bench_median(w + 1, reps);
    printf(", \"write_s\": %.4f, \"write_mbs\": %.1f", write_s, (double)ws.st_size / 1e6 / write_s);
  }
  printf("}\n");
  csr_coo_free(&T);
  csr_matrix_free(&A);
  csr_context_free(&ctx);
  free(t);
  free(w);
  return 0;
}
