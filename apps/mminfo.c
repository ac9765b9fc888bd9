/* SPDX-License-Identifier: BSD-3-Clause */
/* mminfo: what a Matrix Market file or an edge list holds -- banner, size, entries as stored and
 * after symmetric expansion, the assembled CSR (duplicates summed), row-length statistics with a
 * log2 histogram drawn as a bar chart, and the CSR memory footprint. Text or --json. */
#include "common.h"

#include <stdlib.h>
#include <string.h>

static const char *prog = "mminfo";

static void usage(void) {
  printf("Usage: mminfo FILE [--json] [--verbose]\n"
         "\n"
         "Reads FILE (a Matrix Market file or an edge list, gzip-compressed or not; \"-\" is\n"
         "standard input) and prints what it holds.\n"
         "\n"
         "Options:\n"
         "  --json      one JSON object instead of text (keys: file, format, layout, field,\n"
         "              symmetry, gzip, rows, cols, stored_entries, entries, nnz, explicit_zeros,\n"
         "              max_row, mean_row, variance_row, empty_rows, csr_bytes, csr_bytes_f32,\n"
         "              histogram, text_bytes, file_bytes, read_seconds)\n" APP_VERBOSE_HELP
         "  --help      this text\n"
         "  --version   library version and the backends compiled in\n"
         "\n"
         "The model:\n"
         "  stored entries  the entries in the file (for symmetric files: one triangle)\n"
         "  entries         after symmetric expansion (mirrored off-diagonal entries added)\n"
         "  nnz             entries of the assembled CSR: duplicates summed, explicit zeros kept\n"
         "  rows            longest, mean and population variance of the row length, empty rows;\n"
         "                  histogram bin 0 holds empty rows, bin b rows of length [2^(b-1), 2^b)\n"
         "  memory          CSR bytes = 8*(rows+1) + 4*nnz + value bytes (8*nnz for f64,\n"
         "                  4*nnz for f32, none for pattern matrices)\n"
         "Edge lists have no size line: the matrix is N x N with N = largest node id + 1.\n"
         "\n" APP_INPUT_HELP "\n" APP_EXIT_HELP);
}

/* The text of a histogram bin's range: "0", "1", "2-3", "4-7", ... */
static void bin_range(int bin, long long *lo, long long *hi) {
  *lo = bin == 0 ? 0 : (long long)1 << (bin - 1);
  *hi = bin == 0 ? 0 : ((long long)1 << bin) - 1;
}

static double csr_bytes(const csr_matrix *A, int value_bytes) {
  return 8.0 * (double)(A->rows + 1) + (4.0 + value_bytes) * (double)A->nnz;
}

static int64_t explicit_zeros(const csr_matrix *A) {
  int64_t zeros = 0;
  if (A->value_type == CSR_F64)
    for (int64_t k = 0; k < A->nnz; k++)
      zeros += ((const double *)A->values)[k] == 0.0;
  return zeros;
}

static const char *human_bytes(double bytes, char *buf, size_t size) {
  if (bytes >= 1e9)
    snprintf(buf, size, "%.2f GB", bytes / 1e9);
  else if (bytes >= 1e6)
    snprintf(buf, size, "%.2f MB", bytes / 1e6);
  else if (bytes >= 1e3)
    snprintf(buf, size, "%.1f kB", bytes / 1e3);
  else
    snprintf(buf, size, "%.0f B", bytes);
  return buf;
}

static void print_text(const char *path, const csr_file_info *info, const csr_matrix *A,
                       const csr_row_stats *st, int64_t file_bytes, double seconds) {
  int pattern = A->value_type == CSR_PATTERN;
  char b1[32], b2[32];
  printf("file        %s", path);
  if (file_bytes >= 0)
    printf(" (%s on disk", human_bytes((double)file_bytes, b1, sizeof b1));
  else
    printf(" (");
  printf("%s%s of text, read in %.3f s)\n", file_bytes >= 0 ? ", " : "",
         human_bytes((double)info->bytes, b2, sizeof b2), seconds);
  if (info->format == CSR_FORMAT_EDGE_LIST)
    printf("format      edge list, %s, %s\n",
           info->field == CSR_MM_PATTERN ? "pattern (from to)" : "weighted (from to weight)",
           info->gzip ? "gzip-compressed" : "not compressed");
  else
    printf("format      matrix market, %s, %s %s, %s\n",
           info->is_vector  ? "array vector"
           : info->is_array ? "array (dense)"
                            : "coordinate",
           app_field_name(info->field), app_symmetry_name(info->symmetry),
           info->gzip ? "gzip-compressed" : "not compressed");
  printf("size        %lld x %lld\n", (long long)A->rows, (long long)A->cols);
  printf("entries     %lld stored", (long long)info->stored_entries);
  if (info->symmetry != CSR_MM_GENERAL)
    printf(", %lld after symmetric expansion", (long long)info->entries);
  printf("\n");
  printf("csr nnz     %lld (duplicates summed: %lld", (long long)A->nnz,
         (long long)(info->entries - A->nnz));
  if (!pattern)
    printf(", explicit zeros: %lld", (long long)explicit_zeros(A));
  printf(")\n");
  printf("rows        longest %lld, mean %.4g, variance %.4g, empty %lld (%.1f%%)\n",
         (long long)st->longest, st->mean, st->variance, (long long)st->empty_rows,
         A->rows ? 100.0 * (double)st->empty_rows / (double)A->rows : 0.0);
  if (pattern)
    printf("memory      CSR %s (pattern: 8*(rows+1) + 4*nnz, no values)\n",
           human_bytes(csr_bytes(A, 0), b1, sizeof b1));
  else
    printf("memory      CSR %s with f64 values, %s with f32 (8*(rows+1) + (4 + 8|4)*nnz)\n",
           human_bytes(csr_bytes(A, 8), b1, sizeof b1),
           human_bytes(csr_bytes(A, 4), b2, sizeof b2));
  int64_t most = 0;
  for (int b = 0; b < CSR_HIST_BINS; b++)
    most = st->histogram[b] > most ? st->histogram[b] : most;
  if (most == 0)
    return;
  printf("row length histogram (log2 bins; '#' scaled to 50 columns = %lld rows):\n",
         (long long)most);
  for (int b = 0; b < CSR_HIST_BINS; b++) {
    int64_t count = st->histogram[b];
    if (count == 0)
      continue;
    long long lo, hi;
    bin_range(b, &lo, &hi);
    char range[48];
    if (lo == hi)
      snprintf(range, sizeof range, "%lld", lo);
    else
      snprintf(range, sizeof range, "%lld-%lld", lo, hi);
    int width = (int)((50 * count + most - 1) / most); /* at least one '#' for a non-empty bin */
    char bar[51];
    memset(bar, '#', (size_t)width);
    bar[width] = '\0';
    printf("  %-13s %12lld |%s\n", range, (long long)count, bar);
  }
}

static void print_json(const char *path, const csr_file_info *info, const csr_matrix *A,
                       const csr_row_stats *st, int64_t file_bytes, double seconds) {
  app_json j;
  int pattern = A->value_type == CSR_PATTERN;
  app_json_begin(&j, stdout);
  app_json_string(&j, "file", path);
  app_json_string(&j, "format", app_format_name(info->format));
  app_json_string(&j, "layout",
                  info->format == CSR_FORMAT_EDGE_LIST ? "edge list"
                  : info->is_array                     ? "array"
                                                       : "coordinate");
  app_json_bool(&j, "vector", info->is_vector);
  app_json_string(&j, "field", app_field_name(info->field));
  app_json_string(&j, "symmetry", app_symmetry_name(info->symmetry));
  app_json_bool(&j, "gzip", info->gzip);
  app_json_int(&j, "rows", (long long)A->rows);
  app_json_int(&j, "cols", (long long)A->cols);
  app_json_int(&j, "stored_entries", (long long)info->stored_entries);
  app_json_int(&j, "entries", (long long)info->entries);
  app_json_int(&j, "nnz", (long long)A->nnz);
  if (pattern)
    app_json_null(&j, "explicit_zeros");
  else
    app_json_int(&j, "explicit_zeros", (long long)explicit_zeros(A));
  app_json_int(&j, "max_row", (long long)st->longest);
  app_json_double(&j, "mean_row", st->mean);
  app_json_double(&j, "variance_row", st->variance);
  app_json_int(&j, "empty_rows", (long long)st->empty_rows);
  app_json_string(&j, "value_type", pattern ? "pattern" : "f64");
  app_json_double(&j, "csr_bytes", csr_bytes(A, pattern ? 0 : 8));
  app_json_double(&j, "csr_bytes_f32", csr_bytes(A, pattern ? 0 : 4));
  app_json_open(&j, "histogram", '[');
  for (int b = 0; b < CSR_HIST_BINS; b++) {
    if (st->histogram[b] == 0)
      continue;
    long long lo, hi;
    bin_range(b, &lo, &hi);
    app_json_open(&j, NULL, '{');
    app_json_int(&j, "bin", b);
    app_json_int(&j, "min_length", lo);
    app_json_int(&j, "max_length", hi);
    app_json_int(&j, "rows", (long long)st->histogram[b]);
    app_json_close(&j, '}');
  }
  app_json_close(&j, ']');
  app_json_int(&j, "text_bytes", (long long)info->bytes);
  if (file_bytes >= 0)
    app_json_int(&j, "file_bytes", (long long)file_bytes);
  else
    app_json_null(&j, "file_bytes");
  app_json_double(&j, "read_seconds", seconds);
  app_json_end(&j);
}

int main(int argc, char **argv) {
  const char *path = NULL;
  int json = 0, only_files = 0;
  app_report_init(prog, argc, argv);
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (!only_files && strcmp(arg, "--help") == 0) {
      usage();
      return APP_OK;
    } else if (!only_files && strcmp(arg, "--version") == 0) {
      app_print_version(prog);
      return APP_OK;
    } else if (!only_files && strcmp(arg, "--json") == 0) {
      json = 1;
    } else if (!only_files && strcmp(arg, "--verbose") == 0) {
      continue; /* read by app_report_init */
    } else if (!only_files && strcmp(arg, "--") == 0) {
      only_files = 1;
    } else if (!only_files && arg[0] == '-' && arg[1] != '\0') {
      return app_usage_error(prog, "unknown option '%s'", arg);
    } else if (path == NULL) {
      path = arg;
    } else {
      return app_usage_error(prog, "one FILE only (got '%s' and '%s')", path, arg);
    }
  }
  if (path == NULL)
    return app_usage_error(prog, "missing FILE");

  csr_context *ctx = NULL;
  csr_status s = csr_context_create(&ctx);
  if (s != CSR_SUCCESS)
    return app_fail(APP_RUNTIME, "cannot create a context: %s", csr_status_string(s));
  csr_matrix *A = NULL;
  csr_file_info info;
  csr_row_stats st;
  double seconds = 0.0;
  int rc = APP_OK;
  s = app_read_csr(ctx, prog, path, NULL, &A, &info, &seconds);
  if (s < 0)
    rc = app_fail_status(app_exit_code(s), path, ctx, s);
  else if ((s = csr_row_stats_compute(ctx, A, &st)) < 0)
    rc = app_fail_status(APP_RUNTIME, "counting the row lengths", ctx, s);
  else if (json)
    print_json(path, &info, A, &st, app_file_size(path), seconds);
  else
    print_text(path, &info, A, &st, app_file_size(path), seconds);
  csr_matrix_free(&A);
  csr_context_free(&ctx);
  if (rc == APP_OK && (fflush(stdout) != 0 || ferror(stdout)))
    rc = app_fail(APP_RUNTIME, "writing the output failed");
  return rc;
}
