/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the apps: exit codes, option parsing, reading with a progress line, timing,
 * the copy-bandwidth measurement and a small JSON printer (see common.h). */
#include "common.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void app_print_version(const char *prog) {
  printf("%s (libcsr) %s\n", prog, CSR_VERSION_STRING);
  printf("backends compiled in: ref%s%s\n", csr_backend_available(CSR_BACKEND_OMP) ? ", omp" : "",
         csr_backend_available(CSR_BACKEND_CUDA) ? ", cuda" : "");
}

/* --- Reporting failures ---------------------------------------------------------------- */

static struct {
  const char *prog;
  int json, verbose;
  int json_printed; /* the app's own JSON object went to stdout: no second object after it */
  int quiet;        /* failures and warnings are recorded, not printed (app_report_quiet) */
  int last_code;    /* the last failure reported, for app_last_failure */
  char last_message[1024];
} report = {"libcsr", 0, 0, 0, 0, APP_OK, ""};

void app_report_init(const char *prog, int argc, char **argv) {
  report.prog = prog;
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    report.json |= strcmp(argv[i], "--json") == 0;
    report.verbose |= strcmp(argv[i], "--verbose") == 0;
  }
}

int app_verbose(void) {
  return report.verbose;
}

void app_report_quiet(int quiet) {
  report.quiet = quiet;
}

int app_last_failure(const char **message) {
  *message = report.last_message;
  return report.last_code;
}

/* The report of one failure: the line on stderr, and with --json the object on stdout. status
 * and source are NULL for failures of the app's own. */
static void report_failure(int exit_code, const char *message, const char *status,
                           const char *source) {
  report.last_code = exit_code;
  snprintf(report.last_message, sizeof report.last_message, "%s", message);
  if (report.quiet)
    return;
  fprintf(stderr, "%s: %s", report.prog, message);
  if (report.verbose && status != NULL)
    fprintf(stderr, " [%s at %s]", status, source);
  fputc('\n', stderr);
  if (!report.json || report.json_printed)
    return;
  app_json j;
  app_json_begin(&j, stdout);
  app_json_open(&j, "error", '{');
  app_json_string(&j, "program", report.prog);
  app_json_string(&j, "message", message);
  app_json_int(&j, "exit_code", exit_code);
  if (status != NULL) {
    app_json_string(&j, "status", status);
    app_json_string(&j, "source", source);
  } else {
    app_json_null(&j, "status");
    app_json_null(&j, "source");
  }
  app_json_close(&j, '}');
  app_json_end(&j);
  fflush(stdout);
}

static int report_formatted(int exit_code, const char *format, va_list args) {
  char message[1024];
  vsnprintf(message, sizeof message, format, args);
  report_failure(exit_code, message, NULL, NULL);
  return exit_code;
}

int app_fail(int exit_code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  report_formatted(exit_code, format, args);
  va_end(args);
  return exit_code;
}

int app_fail_status(int exit_code, const char *what, const csr_context *ctx, csr_status status) {
  const char *whole = csr_context_last_error(ctx), *detail = csr_context_last_message(ctx);
  if (what != NULL && strcmp(what, "-") == 0)
    what = "<stdin>"; /* the readers' name for standard input, which their messages start with */
  size_t what_length = what ? strlen(what) : 0;
  char message[1024], source[256] = "(no source location)";
  if (*detail == '\0') /* a call that left no message: its status is all there is */
    detail = csr_status_string(status);
  /* A distributed call's message may name the failing rank first ("rank 1 of 4: web.mtx:17:
   * ..."); the file it then names counts as named. */
  const char *named = detail;
  int rank = 0, ranks = 0, skip = 0;
  if (sscanf(detail, "rank %d of %d: %n", &rank, &ranks, &skip) == 2 && skip > 0)
    named = detail + skip;
  if (what == NULL || (strncmp(named, what, what_length) == 0 &&
                       (named[what_length] == ':' || named[what_length] == '\0')))
    snprintf(message, sizeof message, "%s", detail);
  else
    snprintf(message, sizeof message, "%s: %s", what, detail);
  /* The source location is what csr_context_last_error holds before the message and its ": ". */
  size_t location = strlen(whole) - strlen(csr_context_last_message(ctx));
  if (location >= 2 && location - 2 < sizeof source)
    snprintf(source, sizeof source, "%.*s", (int)(location - 2), whole);
  report_failure(exit_code, message, csr_status_string(status), source);
  return exit_code;
}

void app_warn(const char *format, ...) {
  if (report.quiet)
    return;
  va_list args;
  va_start(args, format);
  fprintf(stderr, "%s: warning: ", report.prog);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
}

int app_usage_error(const char *prog, const char *format, ...) {
  va_list args;
  va_start(args, format);
  report.prog = prog;
  report_formatted(APP_USAGE, format, args);
  va_end(args);
  if (!report.quiet)
    fprintf(stderr, "Try '%s --help' for more information.\n", prog);
  return APP_USAGE;
}

int app_option(const char *prog, int argc, char **argv, int *i, const char *name,
               const char **value) {
  const char *arg = argv[*i];
  size_t n = strlen(name);
  if (strncmp(arg, name, n) != 0)
    return 0;
  if (arg[n] == '=') {
    *value = arg + n + 1;
    return 1;
  }
  if (arg[n] != '\0')
    return 0;
  if (*i + 1 >= argc) {
    app_usage_error(prog, "option %s needs a value", name);
    return -1;
  }
  *value = argv[++*i];
  return 1;
}

int app_parse_int(const char *text, long long lo, long long hi, long long *value) {
  char *end = NULL;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (text[0] == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi)
    return -1;
  *value = v;
  return 0;
}

int app_parse_backend(const char *text, csr_backend *backend) {
  static const char *const names[] = {"auto", "ref", "omp", "cuda"};
  static const csr_backend backends[] = {CSR_BACKEND_AUTO, CSR_BACKEND_REF, CSR_BACKEND_OMP,
                                         CSR_BACKEND_CUDA};
  for (int k = 0; k < 4; k++)
    if (strcmp(text, names[k]) == 0) {
      *backend = backends[k];
      return 0;
    }
  return -1;
}

int app_parse_compress(const char *text, csr_compress *compress) {
  static const char *const names[] = {"auto", "off", "on"};
  static const csr_compress values[] = {CSR_COMPRESS_AUTO, CSR_COMPRESS_OFF, CSR_COMPRESS_ON};
  for (int k = 0; k < 3; k++)
    if (strcmp(text, names[k]) == 0) {
      *compress = values[k];
      return 0;
    }
  return -1;
}

int app_one_process_options(csr_compress compress, csr_reorder_method reorder) {
  if (compress == CSR_COMPRESS_ON)
    return app_fail(APP_USAGE, "--compress on is for one process, not under mpiexec");
  if (reorder != CSR_REORDER_AUTO && reorder != CSR_REORDER_NONE)
    return app_fail(APP_USAGE, "--reorder %s is for one process, not under mpiexec",
                    csr_reorder_method_name(reorder));
  return APP_OK;
}

int app_exit_code(csr_status status) {
  switch (status) {
  case CSR_ERR_OUT_OF_MEMORY:
  case CSR_ERR_DEVICE:
  case CSR_ERR_NOT_COMPILED: return APP_RUNTIME;
  default: return APP_BAD_INPUT;
  }
}

double app_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double app_median(double *values, int n) {
  if (n <= 0)
    return 0.0;
  qsort(values, (size_t)n, sizeof *values, compare_double);
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

const char *app_field_name(csr_mm_field field) {
  switch (field) {
  case CSR_MM_REAL: return "real";
  case CSR_MM_INTEGER: return "integer";
  case CSR_MM_PATTERN: return "pattern";
  case CSR_MM_COMPLEX: return "complex";
  }
  return "unknown";
}

const char *app_symmetry_name(csr_mm_symmetry symmetry) {
  switch (symmetry) {
  case CSR_MM_GENERAL: return "general";
  case CSR_MM_SYMMETRIC: return "symmetric";
  case CSR_MM_SKEW_SYMMETRIC: return "skew-symmetric";
  case CSR_MM_HERMITIAN: return "hermitian";
  }
  return "unknown";
}

const char *app_format_name(csr_file_format format) {
  switch (format) {
  case CSR_FORMAT_MATRIX_MARKET: return "matrix market";
  case CSR_FORMAT_EDGE_LIST: return "edge list";
  case CSR_FORMAT_AUTO: break;
  }
  return "unknown";
}

int app_ends_with(const char *path, const char *s) {
  size_t n = strlen(path), m = strlen(s);
  return n >= m && strcmp(path + n - m, s) == 0;
}

int app_is_edge_list_path(const char *path) {
  size_t n = strlen(path);
  char base[4096];
  if (n >= sizeof base)
    return 0;
  memcpy(base, path, n + 1);
  if (app_ends_with(base, ".gz"))
    base[n - 3] = '\0';
  return app_ends_with(base, ".txt") || app_ends_with(base, ".el") || app_ends_with(base, ".edges");
}

int64_t app_file_size(const char *path) {
  struct stat st;
  if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return -1;
  return (int64_t)st.st_size;
}

/* The progress line: only for files over 100 MB and only when stderr is a terminal. */
#define APP_PROGRESS_BYTES INT64_C(100000000)

static int progress_begin(const char *prog, const char *path) {
  int64_t size = app_file_size(path);
  if (size <= APP_PROGRESS_BYTES || !isatty(STDERR_FILENO))
    return 0;
  fprintf(stderr, "%s: reading %s (%.0f MB)...\n", prog, path, (double)size / 1e6);
  return 1;
}

static void progress_end(const char *prog, int shown, double seconds) {
  if (shown)
    fprintf(stderr, "%s: read in %.2f s\n", prog, seconds);
}

csr_status app_read_csr(csr_context *ctx, const char *prog, const char *path,
                        const csr_read_options *options, csr_matrix **A, csr_file_info *info,
                        double *seconds) {
  int shown = progress_begin(prog, path);
  double t0 = app_now();
  csr_status s = csr_read_csr(ctx, path, options, A, info);
  double t = app_now() - t0;
  if (s >= 0)
    progress_end(prog, shown, t);
  if (seconds)
    *seconds = t;
  return s;
}

csr_status app_read_coo(csr_context *ctx, const char *prog, const char *path,
                        const csr_read_options *options, csr_coo **T, csr_file_info *info,
                        double *seconds) {
  int shown = progress_begin(prog, path);
  double t0 = app_now();
  csr_status s = csr_read_coo(ctx, path, options, T, info);
  double t = app_now() - t0;
  if (s >= 0)
    progress_end(prog, shown, t);
  if (seconds)
    *seconds = t;
  return s;
}

int app_load_csr(csr_context *ctx, const char *prog, const char *path,
                 const csr_read_options *options, app_build where, csr_matrix **A,
                 csr_file_info *info, app_stages *stages) {
  memset(stages, 0, sizeof *stages);
  stages->on_device = where != APP_BUILD_HOST;
  *A = NULL;
  if (where == APP_BUILD_HOST) {
    csr_status s = app_read_csr(ctx, prog, path, options, A, info, &stages->read);
    return s < 0 ? app_fail_status(app_exit_code(s), path, ctx, s) : APP_OK;
  }
  csr_coo *T = NULL, *dT = NULL;
  csr_status s = app_read_coo(ctx, prog, path, options, &T, info, &stages->read);
  if (s < 0)
    return app_fail_status(app_exit_code(s), path, ctx, s);
  if (where == APP_BUILD_DEVICE_IF_LARGE && T->nnz < APP_GPU_MIN_ENTRIES) {
    stages->on_device = 0; /* small: the CSR on the host, its assembly counted in the read */
    double t0 = app_now();
    s = csr_from_coo(ctx, T, 0, A);
    stages->read += app_now() - t0;
    csr_coo_free(&T);
    return s < 0 ? app_fail_status(app_exit_code(s), path, ctx, s) : APP_OK;
  }
  const double gib = 1024.0 * 1024.0 * 1024.0;
  const size_t value_bytes = T->value_type == CSR_F64 ? 8 : T->value_type == CSR_F32 ? 4 : 0;
  const double triple_gib = (double)T->nnz * (double)(8 + value_bytes) / gib;
  const long long triples = (long long)T->nnz;
  double t0 = app_now();
  s = csr_coo_copy(ctx, T, &dT, CSR_DEVICE);
  stages->upload = app_now() - t0;
  csr_coo_free(&T);
  char what[512];
  if (s < 0) {
    snprintf(what, sizeof what, "%s: copying its %lld triples (%.2f GiB) to the GPU", path, triples,
             triple_gib);
    return app_fail_status(app_exit_code(s), what, ctx, s);
  }
  /* A device conversion returns when its result is complete. */
  t0 = app_now();
  s = csr_from_coo(ctx, dT, 0, A);
  stages->build = app_now() - t0;
  csr_coo_free(&dT);
  if (s < 0) {
    snprintf(what, sizeof what, "%s: building its CSR on the GPU from %lld triples (%.2f GiB)",
             path, triples, triple_gib);
    return app_fail_status(app_exit_code(s), what, ctx, s);
  }
  return APP_OK;
}

/* Seconds as "1.234 s" or, below a second, "12.345 ms". */
static void format_seconds(double seconds, char *buf, size_t size) {
  if (seconds >= 1.0)
    snprintf(buf, size, "%.3f s", seconds);
  else
    snprintf(buf, size, "%.3f ms", seconds * 1e3);
}

void app_stages_text(const app_stages *stages, const char *compute, char *buf, size_t size) {
  char read[32], upload[32], build[32], work[32];
  format_seconds(stages->read, read, sizeof read);
  format_seconds(stages->upload, upload, sizeof upload);
  format_seconds(stages->build, build, sizeof build);
  format_seconds(stages->compute, work, sizeof work);
  char prepare[64] = "";
  if (stages->prepare_name) {
    char t[32];
    format_seconds(stages->prepare, t, sizeof t);
    snprintf(prepare, sizeof prepare, "%s %s, ", stages->prepare_name, t);
  }
  if (stages->on_device)
    snprintf(buf, size, "read %s, upload %s, build %s (on the GPU), %s%s %s", read, upload, build,
             prepare, compute, work);
  else
    snprintf(buf, size, "read %s (the host's assembly included), %s%s %s", read, prepare, compute,
             work);
}

const char *app_cuda_missing(void) {
  if (!csr_backend_available(CSR_BACKEND_CUDA))
    return "this libcsr was built without CUDA";
  return csr_cuda_device_present() ? NULL : "no CUDA device is present";
}

int app_omp_threads(int requested) {
#ifdef _OPENMP
  return requested > 0 ? requested : omp_get_max_threads();
#else
  (void)requested;
  return 1;
#endif
}

/* One copy b = a of n doubles: a plain loop (variant 0) or one memcpy per thread (variant 1). */
static double time_copy(double *b, const double *a, int64_t n, int threads, int variant) {
  double t0 = app_now();
  if (variant == 0) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < n; i++)
      b[i] = a[i];
  } else {
#pragma omp parallel num_threads(threads)
    {
      int id = 0, nt = 1;
#ifdef _OPENMP
      id = omp_get_thread_num();
      nt = omp_get_num_threads();
#endif
      int64_t lo = n * id / nt, hi = n * (id + 1) / nt;
      memcpy(b + lo, a + lo, (size_t)(hi - lo) * sizeof *b);
    }
  }
  (void)threads;
  return app_now() - t0;
}

int app_copy_bandwidth(size_t array_bytes, int threads, int reps, app_copy_result *result) {
  int64_t n = (int64_t)(array_bytes / sizeof(double));
  if (n < 1 || reps < 1 || reps > 64)
    return -1;
  double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
  if (a == NULL || b == NULL) {
    free(a);
    free(b);
    return -1;
  }
  threads = threads > 0 ? threads : 1;
  /* First touch by the copying threads, in the same static partition. */
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t i = 0; i < n; i++) {
    a[i] = (double)i;
    b[i] = 0.0;
  }
  double t[2][64];
  for (int r = -1; r < reps; r++) /* round -1: untimed warm-up of both variants */
    for (int variant = 0; variant < 2; variant++) {
      double seconds = time_copy(b, a, n, threads, variant);
      if (r >= 0)
        t[variant][r] = seconds;
    }
  double loop = app_median(t[0], reps), copy = app_median(t[1], reps);
  int best = copy < loop ? 1 : 0;
  result->median_s = best ? copy : loop;
  result->array_bytes = (size_t)n * sizeof *a;
  result->gbs = 2.0 * (double)result->array_bytes / result->median_s / 1e9;
  result->threads = threads;
  result->reps = reps;
  result->variant = best ? "memcpy" : "loop";
  free(a);
  free(b);
  return 0;
}

/* --- JSON ------------------------------------------------------------------------------- */

static void json_quoted(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '"': fputs("\\\"", out); break;
    case '\\': fputs("\\\\", out); break;
    case '\n': fputs("\\n", out); break;
    case '\t': fputs("\\t", out); break;
    case '\r': fputs("\\r", out); break;
    default:
      if (*p < 0x20)
        fprintf(out, "\\u%04x", *p);
      else
        fputc(*p, out);
    }
  }
  fputc('"', out);
}

/* Separator, newline and indentation before a member; the key when there is one. */
static void json_member(app_json *j, const char *key) {
  if (j->count[j->depth]++ > 0)
    fputc(',', j->out);
  fputc('\n', j->out);
  for (int d = 0; d < j->depth; d++)
    fputs("  ", j->out);
  if (key) {
    json_quoted(j->out, key);
    fputs(": ", j->out);
  }
}

void app_json_begin(app_json *j, FILE *out) {
  memset(j, 0, sizeof *j);
  if (out == stdout)
    report.json_printed = 1;
  j->out = out;
  fputc('{', out);
  j->depth = 1;
}

void app_json_end(app_json *j) {
  fputs("\n}\n", j->out);
  j->depth = 0;
}

void app_json_open(app_json *j, const char *key, char bracket) {
  json_member(j, key);
  fputc(bracket, j->out);
  if (j->depth + 1 < (int)(sizeof j->count / sizeof j->count[0]))
    j->depth++;
  j->count[j->depth] = 0;
}

void app_json_close(app_json *j, char bracket) {
  int had_members = j->count[j->depth] > 0;
  j->depth--;
  if (had_members) {
    fputc('\n', j->out);
    for (int d = 0; d < j->depth; d++)
      fputs("  ", j->out);
  }
  fputc(bracket, j->out);
}

void app_json_string(app_json *j, const char *key, const char *value) {
  json_member(j, key);
  json_quoted(j->out, value);
}

void app_json_int(app_json *j, const char *key, long long value) {
  json_member(j, key);
  fprintf(j->out, "%lld", value);
}

void app_json_double(app_json *j, const char *key, double value) {
  json_member(j, key);
  if (isfinite(value))
    fprintf(j->out, "%.17g", value);
  else
    fputs("null", j->out);
}

void app_json_bool(app_json *j, const char *key, int value) {
  json_member(j, key);
  fputs(value ? "true" : "false", j->out);
}

void app_json_null(app_json *j, const char *key) {
  json_member(j, key);
  fputs("null", j->out);
}

void app_json_stages(app_json *j, const app_stages *stages) {
  app_json_open(j, "stages", '{');
  app_json_string(j, "built_on", stages->on_device ? "device" : "host");
  app_json_double(j, "read_s", stages->read);
  if (stages->on_device) {
    app_json_double(j, "upload_s", stages->upload);
    app_json_double(j, "build_s", stages->build);
  } else {
    app_json_null(j, "upload_s");
    app_json_null(j, "build_s");
  }
  if (stages->prepare_name) {
    char key[64];
    snprintf(key, sizeof key, "%s_s", stages->prepare_name);
    for (char *c = key; *c; c++)
      *c = *c == ' ' ? '_' : *c;
    app_json_double(j, key, stages->prepare);
  }
  app_json_double(j, "compute_s", stages->compute);
  app_json_close(j, '}');
}
