/* SPDX-License-Identifier: BSD-3-Clause */
/* spmv: times y = A*x for a matrix read from a file on a chosen backend and precision, reports
 * the median time, the bandwidth it reaches against a copy bandwidth measured in the same run
 * with the same thread count, a checksum of y, and optionally validates y against the reference
 * backend row by row. Text or --json. */
#include "common.h"
#ifdef CSR_APP_HAVE_MPI
#include "dist_shares.h"
#endif

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "spmv";

#define WARMUP 3
#define COPY_REPS 5
#define MIB ((size_t)1 << 20)
#define TOLERANCE_TEXT "|y - yref| <= 16*eps*(row length + 2)*sum_j |a_ij*x_j|"

static void usage(void) {
  printf(
      "Usage: spmv FILE [--backend auto|ref|omp|cuda]\n"
      "            [--kernel auto|scalar|vector|segmented|stream] [--compress auto|on|off]\n"
      "            [--reorder none|auto|rcm|degree|hub|appearance]\n"
      "            [--precision f64|f32] [--iters N] [--threads T] [--x XFILE] [--validate]\n"
      "            [--json] [--copy-mib M] [--verbose]\n"
      "\n"
      "Reads FILE (Matrix Market, .mtx.gz or an edge list; symmetric files expanded, duplicates\n"
      "summed) as CSR and times y = A*x.\n"
      "\n"
      "Options:\n"
      "  --backend B     auto (default: the library's choice, OpenMP on the host when built),\n"
      "                  ref (serial reference), omp (OpenMP), cuda (the GPU: the file is read\n"
      "                  into triples on the host, they are copied to the GPU and the CSR is\n"
      "                  built there; x is copied too; each timed call synchronised; exits 3\n"
      "                  without a device or when the matrix does not fit, saying how much it\n"
      "                  needs and what the device has)\n"
      "  --kernel K      the GPU's SpMV kernel (with --backend cuda): auto (default: chosen\n"
      "                  from the row-length statistics, printed with the reason), scalar (a\n"
      "                  thread per row), vector (a group of lanes per row), segmented (the\n"
      "                  nonzeros split evenly over the threads) or stream (whole rows packed\n"
      "                  into tiles staged in shared memory)\n"
      "  --compress C    the products' column indices (csr_spmv_analyze, once before the\n"
      "                  timing, its time reported apart): auto (default: packed in 16 bits where\n"
      "                  that pays, printed with the reason), on (packed) or off (plain CSR)\n"
      "  --reorder M     renumber a square A's rows and columns once before the timing\n"
      "                  (csr_reorder, then B = P A P'; x renumbered, y brought back, so the\n"
      "                  checksum and --validate speak of A): none (default), auto (rcm),\n"
      "                  rcm, degree, hub or appearance; its time is reported apart\n"
      "  --precision P   f64 (default) or f32 values and vectors (pattern matrices store none)\n"
      "  --iters N       timed iterations, default 50, after %d untimed warm-up calls\n"
      "  --threads T     OpenMP threads for the omp backend and the copy (default: OpenMP's)\n"
      "  --x XFILE       x from a Matrix Market n x 1 matrix or vector (n = columns of A)\n"
      "                  instead of all ones\n"
      "  --validate      compare y with the ref backend, row by row:\n"
      "                    " TOLERANCE_TEXT "\n"
      "                  (eps = 2^-52 for f64, 2^-23 for f32); exit 3 when a row is beyond it\n"
      "  --json          one JSON object instead of text (keys: matrix, rows, cols, nnz,\n"
      "                  backend, backend_asked, threads, precision, iters, warmup, median_ms,\n"
      "                  bytes, gbs, copy_gbs, copy_fraction, copy, kernel, checksum,\n"
      "                  validated, validation, stages, order, columns; kernel is null on the\n"
      "                  CPU, order without --reorder,\n"
      "                  columns under mpiexec)\n"
      "  --copy-mib M    size of each copy array in MiB (1..512; 0 skips the "
      "copy)\n" APP_VERBOSE_HELP "  --help          this text\n"
      "  --version       library version and the backends compiled in\n"
      "\n"
      "The model:\n"
      "  time       median over N calls of csr_spmv(alpha 1, beta 0), each timed alone\n"
      "  bytes      (4 + a)*nnz + 8*(rows+1) + v*(cols + rows): column indices and values of A,\n"
      "             64-bit row offsets, x read once, y written once; v = 8 (f64) or 4 (f32)\n"
      "             bytes per vector value, a = v, or 0 for a pattern matrix (no values)\n"
      "  GB/s       bytes / time / 1e9: a floor on the traffic, so x re-reads count for nothing\n"
      "  copy       b[i] = a[i] over two arrays of max(2*bytes, 256 MiB), at most 512 MiB each,\n"
      "             on the threads the SpMV used (1 for ref), first touched by them; the\n"
      "             faster of a loop and a memcpy per thread, median of %d; GB/s counts bytes\n"
      "             read + written. copy_fraction = SpMV GB/s / copy GB/s\n"
      "  checksum   sum of y and its 2-norm, in double, serially (%%.17g)\n"
      "  stages     seconds to read the file (with the host's assembly of the CSR on the CPU),\n"
      "             to copy the triples to the GPU and to build the CSR there (cuda), and of\n"
      "             all the SpMV calls, warm-up included\n"
      "\n" APP_DIST_HELP
      "spmv under mpiexec: csr_dist_spmv, x (ones, or --x read by rank 0) laid out like A's\n"
      "columns; the checksum's sum (y . ones) and 2-norm are exact sums rounded once, the same\n"
      "for any P (they may differ from the serial sums in the last digits); the copy runs on\n"
      "every host rank at once on arrays of the size / P, its GB/s summed (none on the GPU);\n"
      "--validate gathers A, x and y on rank 0; the GPU's kernel is not reported (kernel null).\n"
      "\n" APP_INPUT_HELP "\n" APP_EXIT_HELP,
      WARMUP, COPY_REPS);
}

typedef struct options {
  const char *path, *x_path;
  csr_backend backend;
  csr_value_type precision;
  csr_spmv_kernel kernel;
  csr_compress compress;
  csr_reorder_method reorder;
  long long iters, threads, copy_mib; /* copy_mib < 0: by the model */
  int validate, json;
} options;

static int parse_kernel(const char *v, csr_spmv_kernel *kernel) {
  return csr_spmv_kernel_from_name(v, kernel) == CSR_SUCCESS ? 0 : -1;
}

static int parse(int argc, char **argv, options *o, int *exit_now) {
  memset(o, 0, sizeof *o);
  o->backend = CSR_BACKEND_AUTO;
  o->precision = CSR_F64;
  o->iters = 50;
  o->copy_mib = -1;
  *exit_now = 0;
  int only_files = 0;
  app_report_init(prog, argc, argv);
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v = NULL;
    int m = 0;
    if (only_files || arg[0] != '-' || arg[1] == '\0') {
      if (o->path)
        return app_usage_error(prog, "one FILE only (got '%s' and '%s')", o->path, arg);
      o->path = arg;
    } else if (strcmp(arg, "--") == 0) {
      only_files = 1;
    } else if (strcmp(arg, "--help") == 0) {
      usage();
      *exit_now = 1;
      return APP_OK;
    } else if (strcmp(arg, "--version") == 0) {
      app_print_version(prog);
      *exit_now = 1;
      return APP_OK;
    } else if (strcmp(arg, "--validate") == 0) {
      o->validate = 1;
    } else if (strcmp(arg, "--json") == 0) {
      o->json = 1;
    } else if (strcmp(arg, "--verbose") == 0) {
      continue; /* read by app_report_init */
    } else if ((m = app_option(prog, argc, argv, &i, "--backend", &v)) != 0) {
      if (m < 0)
        return APP_USAGE;
      if (app_parse_backend(v, &o->backend) != 0)
        return app_usage_error(prog, "--backend must be auto, ref, omp or cuda, not '%s'", v);
    } else if ((m = app_option(prog, argc, argv, &i, "--kernel", &v)) != 0) {
      if (m < 0)
        return APP_USAGE;
      if (parse_kernel(v, &o->kernel) != 0)
        return app_usage_error(
            prog, "--kernel must be auto, scalar, vector, segmented or stream, not '%s'", v);
    } else if ((m = app_option(prog, argc, argv, &i, "--compress", &v)) != 0) {
      if (m < 0)
        return APP_USAGE;
      if (app_parse_compress(v, &o->compress) != 0)
        return app_usage_error(prog, "--compress must be auto, on or off, not '%s'", v);
    } else if ((m = app_option(prog, argc, argv, &i, "--reorder", &v)) != 0) {
      if (m < 0)
        return APP_USAGE;
      if (csr_reorder_method_from_name(v, &o->reorder) != CSR_SUCCESS)
        return app_usage_error(
            prog, "--reorder must be none, auto, rcm, degree, hub or appearance, not '%s'", v);
    } else if ((m = app_option(prog, argc, argv, &i, "--precision", &v)) != 0) {
      if (m < 0)
        return APP_USAGE;
      if (strcmp(v, "f64") == 0)
        o->precision = CSR_F64;
      else if (strcmp(v, "f32") == 0)
        o->precision = CSR_F32;
      else
        return app_usage_error(prog, "--precision must be f64 or f32, not '%s'", v);
    } else if ((m = app_option(prog, argc, argv, &i, "--iters", &v)) != 0) {
      if (m < 0)
        return APP_USAGE;
      if (app_parse_int(v, 1, 1000000, &o->iters) != 0)
        return app_usage_error(prog, "--iters must be an integer in [1, 1000000], not '%s'", v);
    } else if ((m = app_option(prog, argc, argv, &i, "--threads", &v)) != 0) {
      if (m < 0)
        return APP_USAGE;
      if (app_parse_int(v, 1, 4096, &o->threads) != 0)
        return app_usage_error(prog, "--threads must be an integer in [1, 4096], not '%s'", v);
    } else if ((m = app_option(prog, argc, argv, &i, "--copy-mib", &v)) != 0) {
      if (m < 0)
        return APP_USAGE;
      if (app_parse_int(v, 0, 512, &o->copy_mib) != 0)
        return app_usage_error(prog, "--copy-mib must be an integer in [0, 512], not '%s'", v);
    } else if ((m = app_option(prog, argc, argv, &i, "--x", &v)) != 0) {
      if (m < 0)
        return APP_USAGE;
      o->x_path = v;
    } else {
      return app_usage_error(prog, "unknown option '%s'", arg);
    }
  }
  if (o->path == NULL)
    return app_usage_error(prog, "missing FILE");
  if (o->kernel != CSR_KERNEL_AUTO && o->backend != CSR_BACKEND_CUDA)
    return app_usage_error(prog, "--kernel %s chooses a GPU kernel: it needs --backend cuda",
                           csr_spmv_kernel_name(o->kernel));
  return APP_OK;
}

static double get(const csr_vector *v, int64_t i) {
  return v->value_type == CSR_F64 ? ((const double *)v->data)[i] : ((const float *)v->data)[i];
}

/* x from a Matrix Market n x 1 file: entries scattered (duplicates summed), pattern entries 1. */
static int load_x(csr_context *ctx, const char *path, csr_value_type type, int64_t n,
                  csr_vector *x) {
  csr_read_options ro;
  csr_read_options_init(&ro);
  ro.value_type = type;
  csr_coo *T = NULL;
  csr_file_info info;
  csr_status s = app_read_coo(ctx, prog, path, &ro, &T, &info, NULL);
  if (s < 0)
    return app_fail_status(app_exit_code(s), path, ctx, s);
  if (T->cols != 1 || T->rows != n) {
    app_fail(APP_BAD_INPUT, "%s: x is %lld x %lld; it must be %lld x 1 (the columns of the matrix)",
             path, (long long)T->rows, (long long)T->cols, (long long)n);
    csr_coo_free(&T);
    return APP_BAD_INPUT;
  }
  for (int64_t k = 0; k < T->nnz; k++) {
    int64_t i = T->row_indices[k];
    double v = T->value_type == CSR_PATTERN ? 1.0
               : T->value_type == CSR_F64   ? ((const double *)T->values)[k]
                                            : ((const float *)T->values)[k];
    if (type == CSR_F64)
      ((double *)x->data)[i] += v;
    else
      ((float *)x->data)[i] += (float)v;
  }
  csr_coo_free(&T);
  return APP_OK;
}

/* Sum and 2-norm of y in double, serially (the same on every backend); the norm is scaled so
 * that large entries do not overflow. */
static void checksum(const csr_vector *y, double *sum, double *nrm2) {
  double s = 0.0, scale = 0.0, ssq = 1.0;
  for (int64_t i = 0; i < y->n; i++) {
    double v = get(y, i);
    s += v;
    if (v != 0.0) {
      double a = fabs(v);
      if (scale < a) {
        ssq = 1.0 + ssq * (scale / a) * (scale / a);
        scale = a;
      } else {
        ssq += (a / scale) * (a / scale);
      }
    }
  }
  *sum = s;
  *nrm2 = scale * sqrt(ssq);
}

/* Row-wise comparison with the reference result. */
typedef struct validation {
  int done, passed;
  int64_t failed_rows, worst_row;
  double worst_ratio, eps; /* worst |y - yref| / tolerance */
  int bitwise_equal;
} validation;

static void compare(const csr_matrix *A, const csr_vector *x, const csr_vector *y,
                    const csr_vector *yref, validation *v) {
  v->done = 1;
  v->eps = y->value_type == CSR_F64 ? DBL_EPSILON : FLT_EPSILON;
  v->failed_rows = 0;
  v->worst_row = -1;
  v->worst_ratio = 0.0;
  v->bitwise_equal =
      memcmp(y->data, yref->data, (size_t)y->n * (y->value_type == CSR_F64 ? 8 : 4)) == 0;
  for (int64_t i = 0; i < A->rows; i++) {
    double magnitude = 0.0;
    int64_t lo = A->row_offsets[i], hi = A->row_offsets[i + 1];
    for (int64_t k = lo; k < hi; k++) {
      double a = A->value_type == CSR_PATTERN ? 1.0
                 : A->value_type == CSR_F64   ? ((const double *)A->values)[k]
                                              : ((const float *)A->values)[k];
      magnitude += fabs(a * get(x, A->col_indices[k]));
    }
    double tol = 16.0 * v->eps * (double)(hi - lo + 2) * magnitude;
    double a = get(y, i), b = get(yref, i), diff = fabs(a - b);
    int ok = a == b || (isnan(a) && isnan(b)) || diff <= tol;
    double ratio = a == b ? 0.0 : tol > 0.0 ? diff / tol : INFINITY;
    if (isnan(ratio))
      ratio = ok ? 0.0 : INFINITY;
    if (!ok)
      v->failed_rows++;
    if (ratio > v->worst_ratio || (!ok && v->worst_row < 0)) {
      v->worst_ratio = ratio;
      v->worst_row = i;
    }
  }
  v->passed = v->failed_rows == 0;
}

/* What the run measured. */
typedef struct result {
  csr_backend ran;
  int threads;
  double median_s, bytes, gbs, sum, nrm2;
  int have_copy;
  app_copy_result copy;
  int have_choice; /* the GPU ran: its kernel and why */
  csr_spmv_choice choice;
  int have_plan; /* the product ran through a plan (single process): packed or not, and why */
  csr_spmv_plan_info plan;
  csr_reorder_method reordered; /* the renumbering timed (--reorder), and its cost */
  double reorder_s;
  app_stages stages;
} result;

static const char *cuda_unavailable = "the CUDA backend is not available for this SpMV";

/* Times `iters` calls of y = A*x after the warm-up; on failure prints why, returns the exit code.
 */

/* The report of a timed product that failed: the matrix and x were checked when read, so the
 * failure is the run's, not the input's. */
static int product_failed(const options *o, csr_context *ctx, csr_status s) {
  if (o->backend == CSR_BACKEND_CUDA && s == CSR_ERR_UNSUPPORTED)
    return app_fail_status(APP_RUNTIME, cuda_unavailable, ctx, s);
  return app_fail_status(app_exit_code(s) == APP_BAD_INPUT ? APP_RUNTIME : app_exit_code(s),
                         "the SpMV", ctx, s);
}
static int time_spmv(csr_context *ctx, const options *o, const csr_spmv_plan *plan,
                     const csr_vector *x, csr_vector *y, double *median_s, double *all_s) {
  double *t = malloc((size_t)o->iters * sizeof *t);
  if (t == NULL)
    return app_fail(APP_RUNTIME, "cannot allocate %lld timings", o->iters);
  const double start = app_now();
  for (long long r = -WARMUP; r < o->iters; r++) {
    double t0 = app_now();
    csr_status s = csr_spmv_run(ctx, plan, 1.0, x, 0.0, y);
    double seconds = app_now() - t0;
    if (s < 0) {
      free(t);
      return product_failed(o, ctx, s);
    }
    if (r >= 0)
      t[r] = seconds;
  }
  *all_s = app_now() - start;
  *median_s = app_median(t, (int)o->iters);
  free(t);
  return APP_OK;
}

/* The device path: A (built there), x and y on the GPU, every launch synchronised (debug-sync) so
 * that each call's time is its kernel's; y comes back to the host. The copy is device to
 * device. */
static int run_cuda(csr_context *ctx, const options *o, const csr_matrix *dA,
                    const csr_spmv_plan *plan, const csr_vector *x, csr_vector *y, result *r,
                    size_t copy_bytes) {
  csr_vector *dx = NULL, *dy = NULL, *da = NULL, *db = NULL;
  int rc = APP_RUNTIME;
  csr_status s = csr_context_set_debug_sync(ctx, 1);
  if (s >= 0)
    s = csr_vector_clone(ctx, x, &dx, CSR_DEVICE);
  if (s >= 0)
    s = csr_vector_create(ctx, &dy, y->n, y->value_type, CSR_DEVICE);
  if (s < 0) {
    app_fail_status(APP_RUNTIME, "moving x and y to the GPU", ctx, s);
    goto done;
  }
  if ((rc = time_spmv(ctx, o, plan, dx, dy, &r->median_s, &r->stages.compute)) != APP_OK)
    goto done;
  r->ran = csr_context_last_backend(ctx);
  r->threads = 0;
  /* After the timing: the first warm-up call made the choice, this reads it back from the
   * context's cache with what it cost. */
  if ((s = csr_spmv_choose(ctx, dA, &r->choice)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "reading the SpMV kernel's choice", ctx, s);
    goto done;
  }
  r->have_choice = 1;
  if ((s = csr_copy(ctx, dy, y)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "copying y to the host", ctx, s);
    goto done;
  }
  if (copy_bytes > 0) { /* device-to-device copy of two vectors of doubles */
    int64_t n = (int64_t)(copy_bytes / 8);
    double t[COPY_REPS];
    s = csr_vector_create(ctx, &da, n, CSR_F64, CSR_DEVICE);
    if (s >= 0)
      s = csr_vector_create(ctx, &db, n, CSR_F64, CSR_DEVICE);
    for (int k = -1; k < COPY_REPS && s >= 0; k++) {
      double t0 = app_now();
      s = csr_copy(ctx, da, db);
      if (k >= 0)
        t[k] = app_now() - t0;
    }
    if (s >= 0) {
      r->have_copy = 1;
      r->copy.median_s = app_median(t, COPY_REPS);
      r->copy.array_bytes = (size_t)n * 8;
      r->copy.gbs = 2.0 * (double)r->copy.array_bytes / r->copy.median_s / 1e9;
      r->copy.threads = 0;
      r->copy.reps = COPY_REPS;
      r->copy.variant = "device-to-device";
    } else {
      app_warn("the device copy of 2 x %zu MiB failed (%s); copy bandwidth not measured",
               copy_bytes / MIB, csr_context_last_message(ctx));
    }
  }
  rc = APP_OK;
done:
  csr_vector_free(&da);
  csr_vector_free(&db);
  csr_vector_free(&dy);
  csr_vector_free(&dx);
  return rc;
}

/* What the report says of the matrix: its shape and values (the whole matrix's, also when the
 * ranks of a distributed run hold it between them). */
typedef struct matrix_shape {
  int64_t rows, cols, nnz;
  csr_value_type value_type;
} matrix_shape;

static matrix_shape shape_of(const csr_matrix *A) {
  matrix_shape shape = {A->rows, A->cols, A->nnz, A->value_type};
  return shape;
}

/* The bytes of one SpMV by the model of --help. */
static double spmv_bytes(const options *o, const matrix_shape *A) {
  int vbytes = o->precision == CSR_F64 ? 8 : 4, abytes = A->value_type == CSR_PATTERN ? 0 : vbytes;
  return (4.0 + abytes) * (double)A->nnz + 8.0 * (double)(A->rows + 1) +
         (double)vbytes * (double)(A->cols + A->rows);
}

/* The size of each copy array: --copy-mib, or by the model (0: no copy). */
static size_t copy_bytes_for(const options *o, double bytes) {
  if (o->copy_mib >= 0)
    return (size_t)o->copy_mib * MIB;
  double want = 2.0 * bytes;
  size_t copy_bytes = want < 256.0 * MIB   ? 256 * MIB
                      : want > 512.0 * MIB ? 512 * MIB
                                           : (size_t)want;
  return copy_bytes - copy_bytes % 64;
}

/* shares: the ranks of a distributed run, NULL on one process. */
static void print_text(const options *o, const matrix_shape *A, const result *r,
                       const validation *v, const struct dist_shares *shares) {
  printf("matrix    %s: %lld x %lld, %lld nnz, %s\n", o->path, (long long)A->rows,
         (long long)A->cols, (long long)A->nnz,
         A->value_type == CSR_PATTERN ? "pattern (no values)"
         : A->value_type == CSR_F64   ? "f64 values"
                                      : "f32 values");
  printf("backend   %s (asked %s)", csr_backend_name(r->ran), csr_backend_name(o->backend));
  if (r->ran == CSR_BACKEND_CUDA)
    printf(", GPU, every launch synchronised\n");
  else
    printf(", %d thread%s%s\n", r->threads, r->threads == 1 ? "" : "s", shares ? " per rank" : "");
  if (r->have_choice) {
    printf("kernel    %s", csr_spmv_kernel_name(r->choice.kernel));
    if (r->choice.lanes > 1)
      printf(", %d lanes per row", r->choice.lanes);
    printf(": %s\n", r->choice.reason);
    printf("          row statistics and choice %.3f ms, on the first call only (cached)\n",
           r->choice.analysis_seconds * 1e3);
  }
  if (r->reordered != CSR_REORDER_NONE)
    printf("order     %s: A renumbered once before the timing (%.3f ms), y brought back\n",
           csr_reorder_method_name(r->reordered), r->reorder_s * 1e3);
  if (r->have_plan)
    printf("columns   %s: %s (set-up %.3f ms, once)\n",
           r->plan.packed ? "packed in 16 bits" : "plain CSR", r->plan.reason,
           r->plan.setup_seconds * 1e3);
  printf("spmv      %s: median %.6f ms of %lld calls (after %d warm-up): %.3f GB/s\n",
         o->precision == CSR_F64 ? "f64" : "f32", r->median_s * 1e3, o->iters, WARMUP, r->gbs);
  printf("          bytes per call %.0f = (4 + %d)*nnz + 8*(rows+1) + %d*(cols + rows)\n", r->bytes,
         A->value_type == CSR_PATTERN ? 0 : (o->precision == CSR_F64 ? 8 : 4),
         o->precision == CSR_F64 ? 8 : 4);
  if (r->have_copy) {
    if (r->ran == CSR_BACKEND_CUDA)
      printf("copy      %.3f GB/s: device-to-device copy of 2 x %.0f MiB, median of %d\n",
             r->copy.gbs, (double)r->copy.array_bytes / (double)MIB, r->copy.reps);
    else
      printf("copy      %.3f GB/s: b[i] = a[i], 2 arrays x %.0f MiB, %d thread%s, %s faster, "
             "median of %d\n",
             r->copy.gbs, (double)r->copy.array_bytes / (double)MIB, r->copy.threads,
             r->copy.threads == 1 ? "" : "s", r->copy.variant, r->copy.reps);
    printf("          spmv reaches %.1f%% of the copy bandwidth%s\n", 100.0 * r->gbs / r->copy.gbs,
           r->gbs > r->copy.gbs ? " (above 100%: the SpMV data stays in cache between calls)" : "");
  } else {
    printf("copy      not measured\n");
  }
  char stages[256];
  app_stages_text(&r->stages, "spmv", stages, sizeof stages);
  printf("stages    %s\n", stages);
  printf("checksum  sum %.17g, nrm2 %.17g\n", r->sum, r->nrm2);
  if (v->done) {
    printf("validate  %s against ref: " TOLERANCE_TEXT ", eps = %s\n",
           v->passed ? "passed" : "FAILED", o->precision == CSR_F64 ? "2^-52" : "2^-23");
    if (v->passed && v->bitwise_equal)
      printf("          every row bitwise equal to ref\n");
    else if (v->passed)
      printf("          worst row %lld at %.3g of its tolerance\n", (long long)v->worst_row,
             v->worst_ratio);
    else
      printf("          %lld rows beyond it; worst row %lld at %.3g times its tolerance\n",
             (long long)v->failed_rows, (long long)v->worst_row, v->worst_ratio);
  }
#ifdef CSR_APP_HAVE_MPI
  if (shares)
    dist_shares_print(shares, 10);
#endif
  (void)shares;
}

static void print_json(const options *o, const matrix_shape *A, const result *r,
                       const validation *v, const struct dist_shares *shares) {
  app_json j;
  app_json_begin(&j, stdout);
  app_json_string(&j, "matrix", o->path);
  app_json_int(&j, "rows", (long long)A->rows);
  app_json_int(&j, "cols", (long long)A->cols);
  app_json_int(&j, "nnz", (long long)A->nnz);
  app_json_bool(&j, "pattern", A->value_type == CSR_PATTERN);
  app_json_string(&j, "backend", csr_backend_name(r->ran));
  app_json_string(&j, "backend_asked", csr_backend_name(o->backend));
  if (r->ran == CSR_BACKEND_CUDA)
    app_json_null(&j, "threads");
  else
    app_json_int(&j, "threads", r->threads);
  app_json_string(&j, "precision", o->precision == CSR_F64 ? "f64" : "f32");
  app_json_int(&j, "iters", o->iters);
  app_json_int(&j, "warmup", WARMUP);
  app_json_double(&j, "median_ms", r->median_s * 1e3);
  app_json_double(&j, "bytes", r->bytes);
  app_json_double(&j, "gbs", r->gbs);
  if (r->have_copy) {
    app_json_double(&j, "copy_gbs", r->copy.gbs);
    app_json_double(&j, "copy_fraction", r->gbs / r->copy.gbs);
    app_json_open(&j, "copy", '{');
    app_json_int(&j, "array_bytes", (long long)r->copy.array_bytes);
    app_json_int(&j, "arrays", 2);
    app_json_int(&j, "threads", r->copy.threads);
    app_json_string(&j, "variant", r->copy.variant);
    app_json_int(&j, "reps", r->copy.reps);
    app_json_double(&j, "median_ms", r->copy.median_s * 1e3);
    app_json_close(&j, '}');
  } else {
    app_json_null(&j, "copy_gbs");
    app_json_null(&j, "copy_fraction");
    app_json_null(&j, "copy");
  }
  if (r->have_choice) {
    app_json_open(&j, "kernel", '{');
    app_json_string(&j, "name", csr_spmv_kernel_name(r->choice.kernel));
    app_json_int(&j, "lanes", r->choice.lanes);
    app_json_bool(&j, "forced", r->choice.forced);
    app_json_string(&j, "reason", r->choice.reason);
    app_json_double(&j, "analysis_ms", r->choice.analysis_seconds * 1e3);
    app_json_close(&j, '}');
  } else {
    app_json_null(&j, "kernel");
  }
  if (r->reordered != CSR_REORDER_NONE) {
    app_json_open(&j, "order", '{');
    app_json_string(&j, "method", csr_reorder_method_name(r->reordered));
    app_json_double(&j, "seconds", r->reorder_s);
    app_json_close(&j, '}');
  } else {
    app_json_null(&j, "order");
  }
  if (r->have_plan) {
    app_json_open(&j, "columns", '{');
    app_json_bool(&j, "packed", r->plan.packed);
    app_json_string(&j, "reason", r->plan.reason);
    app_json_double(&j, "setup_ms", r->plan.setup_seconds * 1e3);
    app_json_int(&j, "escaped_chunks", (long long)r->plan.escaped_chunks);
    app_json_int(&j, "chunks", (long long)r->plan.chunks);
    app_json_close(&j, '}');
  } else {
    app_json_null(&j, "columns");
  }
  app_json_open(&j, "checksum", '{');
  app_json_double(&j, "sum", r->sum);
  app_json_double(&j, "nrm2", r->nrm2);
  app_json_close(&j, '}');
  app_json_bool(&j, "validated", v->done && v->passed);
  if (v->done) {
    app_json_open(&j, "validation", '{');
    app_json_bool(&j, "passed", v->passed);
    app_json_string(&j, "against", "ref");
    app_json_string(&j, "tolerance", TOLERANCE_TEXT);
    app_json_double(&j, "eps", v->eps);
    app_json_int(&j, "failed_rows", (long long)v->failed_rows);
    app_json_int(&j, "worst_row", (long long)v->worst_row);
    app_json_double(&j, "worst_ratio", v->worst_ratio);
    app_json_bool(&j, "bitwise_equal", v->bitwise_equal);
    app_json_close(&j, '}');
  } else {
    app_json_null(&j, "validation");
  }
  app_json_stages(&j, &r->stages);
#ifdef CSR_APP_HAVE_MPI
  if (shares)
    dist_shares_json(&j, shares);
#endif
  (void)shares;
  app_json_end(&j);
}

#ifdef CSR_APP_HAVE_MPI
/* --- Under mpiexec ----------------------------------------------------------------------------
 * The matrix read by all the ranks at once (csr_dist_matrix_read), x laid out like its columns
 * and y like its rows; each call timed between barriers, so that its time is the slowest rank's.
 * Rank 0 prints. */

/* Times `iters` distributed calls after the warm-up (each between barriers; the median of the
 * slowest rank's times); the same exit code on every rank. */
static int dist_time_spmv(const dist_run *run, csr_context *ctx, const options *o,
                          const csr_dist_matrix *A, const csr_dist_vector *x, csr_dist_vector *y,
                          double *median_s, double *all_s) {
  double *t = malloc((size_t)o->iters * sizeof *t);
  int rc = t ? APP_OK : app_fail(APP_RUNTIME, "cannot allocate %lld timings", o->iters);
  if ((rc = dist_agree(run, rc)) != APP_OK) {
    free(t);
    return rc;
  }
  const double start = dist_barrier_now();
  for (long long r = -WARMUP; r < o->iters; r++) {
    double t0 = dist_barrier_now();
    csr_status s = csr_dist_spmv(ctx, 1.0, A, x, 0.0, y);
    double seconds = dist_barrier_now() - t0;
    if (s < 0) { /* agreed by the library: every rank leaves here */
      free(t);
      return product_failed(o, ctx, s);
    }
    if (r >= 0)
      t[r] = seconds;
  }
  *all_s = dist_max(app_now() - start);
  MPI_Allreduce(MPI_IN_PLACE, t, (int)o->iters, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  *median_s = app_median(t, (int)o->iters);
  free(t);
  return APP_OK;
}

/* x from --x (read by rank 0, sent to the ranks) or all ones. */
static int dist_load_x(const dist_run *run, csr_context *ctx, const options *o, int64_t cols,
                       csr_dist_vector *x) {
  csr_status s;
  if (o->x_path == NULL) {
    s = csr_dist_fill(ctx, 1.0, x);
    return s < 0 ? app_fail_status(APP_RUNTIME, "x = ones", ctx, s) : APP_OK;
  }
  csr_vector *whole = NULL;
  int rc = APP_OK;
  if (run->rank == 0) {
    s = csr_vector_create(ctx, &whole, cols, o->precision, CSR_HOST);
    rc = s < 0 ? app_fail_status(APP_RUNTIME, "allocating x", ctx, s)
               : load_x(ctx, o->x_path, o->precision, cols, whole);
  }
  if ((rc = dist_agree(run, rc)) == APP_OK && (s = csr_dist_vector_scatter(ctx, x, 0, whole)) < 0)
    rc = app_fail_status(APP_RUNTIME, "sending x to the ranks", ctx, s);
  csr_vector_free(&whole);
  return rc;
}

/* The checksum of a distributed y: its sum (y . ones) and 2-norm, each an exact sum rounded once,
 * so the same for any number of ranks. */
static int dist_checksum(csr_context *ctx, const csr_dist_matrix *A, const options *o,
                         csr_location where, const csr_dist_vector *y, result *r) {
  csr_dist_vector *ones = NULL;
  csr_status s = csr_dist_vector_create(ctx, A, CSR_DIST_ROWS, o->precision, where, &ones);
  if (s >= 0)
    s = csr_dist_fill(ctx, 1.0, ones);
  if (s >= 0)
    s = csr_dist_dot(ctx, y, ones, &r->sum);
  if (s >= 0)
    s = csr_dist_nrm2(ctx, y, &r->nrm2);
  csr_dist_vector_free(&ones);
  return s < 0 ? app_fail_status(APP_RUNTIME, "the checksum of y", ctx, s) : APP_OK;
}

/* --validate: A, x and y gathered on rank 0 and compared there with the ref backend. */
static int dist_validate(const dist_run *run, csr_context *ctx, const options *o,
                         const csr_dist_matrix *A, const csr_dist_vector *x,
                         const csr_dist_vector *y, validation *v) {
  csr_matrix *hA = NULL;
  csr_vector *hx = NULL, *hy = NULL, *yref = NULL;
  csr_context *ref = NULL;
  int64_t rows = 0, cols = 0;
  csr_dist_matrix_size(A, &rows, &cols, NULL);
  int rc = APP_OK;
  csr_status s = CSR_SUCCESS;
  if (run->rank == 0 && ((s = csr_vector_create(ctx, &hx, cols, o->precision, CSR_HOST)) < 0 ||
                         (s = csr_vector_create(ctx, &hy, rows, o->precision, CSR_HOST)) < 0))
    rc = app_fail_status(APP_RUNTIME, "allocating x and y for --validate", ctx, s);
  if ((rc = dist_agree(run, rc)) != APP_OK)
    goto done;
  if ((s = csr_dist_matrix_gather(ctx, A, 0, &hA)) < 0 ||
      (s = csr_dist_vector_gather(ctx, x, 0, hx)) < 0 ||
      (s = csr_dist_vector_gather(ctx, y, 0, hy)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "gathering A, x and y on rank 0 for --validate", ctx, s);
    goto done;
  }
  if (run->rank == 0) {
    s = csr_context_create(&ref);
    if (s >= 0)
      s = csr_context_set_backend(ref, CSR_BACKEND_REF);
    if (s >= 0)
      s = csr_vector_create(ref, &yref, rows, o->precision, CSR_HOST);
    if (s >= 0)
      s = csr_spmv(ref, 1.0, hA, hx, 0.0, yref);
    if (s < 0)
      rc = app_fail_status(APP_RUNTIME, "the reference SpMV of --validate", ref, s);
    else
      compare(hA, hx, hy, yref, v);
  }
  rc = dist_agree(run, rc);
done:
  csr_vector_free(&yref);
  csr_vector_free(&hy);
  csr_vector_free(&hx);
  csr_matrix_free(&hA);
  csr_context_free(&ref);
  return rc;
}

/* Every rank copies arrays of copy_bytes / ranks at once (after a barrier); the copy bandwidth
 * is the sum of the ranks'. Host ranks only. */
static void dist_copy(const dist_run *run, size_t copy_bytes, result *r) {
  size_t each = copy_bytes / (size_t)run->ranks;
  each = each < MIB ? MIB : each - each % 64;
  app_copy_result mine;
  MPI_Barrier(MPI_COMM_WORLD);
  int ok = app_copy_bandwidth(each, r->threads, COPY_REPS, &mine) == 0, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all) {
    app_warn("cannot allocate 2 x %zu MiB per rank for the copy; copy bandwidth not measured",
             each / MIB);
    return;
  }
  r->have_copy = 1;
  r->copy = mine;
  MPI_Allreduce(&mine.gbs, &r->copy.gbs, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  r->copy.median_s = dist_max(mine.median_s);
  r->copy.array_bytes = each * (size_t)run->ranks;
}

static int dist_body(const dist_run *run, csr_context *ctx, const void *given) {
  const options *o = given;
  if (app_one_process_options(o->compress, o->reorder) != APP_OK)
    return APP_USAGE;
  csr_dist_matrix *A = NULL;
  csr_dist_vector *x = NULL, *y = NULL;
  dist_shares shares = {0, NULL, NULL};
  result r;
  validation v;
  memset(&r, 0, sizeof r);
  memset(&v, 0, sizeof v);
  csr_location where = CSR_HOST;
  int rc = dist_context(ctx, o->backend, o->threads, &where);
  csr_status s = CSR_SUCCESS;
  if (rc == APP_OK && (s = csr_context_set_kernel(ctx, o->kernel)) < 0)
    rc = app_fail_status(APP_RUNTIME, "--kernel", ctx, s);
  if (rc == APP_OK && where == CSR_DEVICE && (s = csr_context_set_debug_sync(ctx, 1)) < 0)
    rc = app_fail_status(APP_RUNTIME, "--backend cuda", ctx, s);
  if (rc != APP_OK)
    return rc;
  csr_read_options ro;
  csr_read_options_init(&ro);
  ro.value_type = o->precision;
  csr_file_info info;
  double t0 = dist_barrier_now();
  s = csr_dist_matrix_read(ctx, MPI_COMM_WORLD, o->path, &ro, where, &A, &info);
  r.stages.read = dist_max(app_now() - t0);
  r.stages.on_device = where == CSR_DEVICE;
  if (s < 0)
    return app_fail_status(app_exit_code(s), o->path, ctx, s);
  /* A pattern file gives a matrix without values, as csr_read_csr does. */
  matrix_shape shape = {0, 0, 0, info.field == CSR_MM_PATTERN ? CSR_PATTERN : o->precision};
  csr_dist_matrix_size(A, &shape.rows, &shape.cols, &shape.nnz);
  if ((s = csr_dist_vector_create(ctx, A, CSR_DIST_COLS, o->precision, where, &x)) < 0 ||
      (s = csr_dist_vector_create(ctx, A, CSR_DIST_ROWS, o->precision, where, &y)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "allocating x and y", ctx, s);
    goto done;
  }
  if ((rc = dist_load_x(run, ctx, o, shape.cols, x)) != APP_OK)
    goto done;
  if ((rc = dist_time_spmv(run, ctx, o, A, x, y, &r.median_s, &r.stages.compute)) != APP_OK)
    goto done;
  r.ran = csr_context_last_backend(ctx);
  r.threads = r.ran == CSR_BACKEND_OMP ? dist_threads(o->threads) : 1;
  r.bytes = spmv_bytes(o, &shape);
  r.gbs = r.median_s > 0.0 ? r.bytes / r.median_s / 1e9 : 0.0;
  size_t copy_bytes = copy_bytes_for(o, r.bytes);
  if (where == CSR_HOST && copy_bytes > 0)
    dist_copy(run, copy_bytes, &r);
  if ((rc = dist_checksum(ctx, A, o, where, y, &r)) != APP_OK)
    goto done;
  if (o->validate && (rc = dist_validate(run, ctx, o, A, x, y, &v)) != APP_OK)
    goto done;
  if ((rc = dist_shares_gather(run, A, &shares)) != APP_OK)
    goto done;
  if (run->rank == 0) {
    if (o->json)
      print_json(o, &shape, &r, &v, &shares);
    else
      print_text(o, &shape, &r, &v, &shares);
    if (fflush(stdout) != 0 || ferror(stdout))
      rc = app_fail(APP_RUNTIME, "writing the output failed");
    else if (v.done && !v.passed)
      rc = app_fail(APP_RUNTIME, "validation failed: %lld rows beyond " TOLERANCE_TEXT,
                    (long long)v.failed_rows);
  }
  rc = dist_agree(run, rc);
done:
  dist_shares_free(&shares);
  csr_dist_vector_free(&y);
  csr_dist_vector_free(&x);
  csr_dist_matrix_free(&A);
  return rc;
}

#endif

/* What the timing multiplies: A and x as read, or (--reorder) B = P A P' and x' = P x, with y'
 * to receive B x' (P on the host, where x and y are). */
typedef struct renumbered {
  const csr_matrix *A;
  csr_vector *x, *y;
  csr_permutation *P; /* NULL: A, x and y themselves */
  csr_matrix *B;
  csr_vector *x_new, *y_new;
} renumbered;

static void renumbered_free(renumbered *run) {
  csr_permutation_free(&run->P);
  csr_matrix_free(&run->B);
  csr_vector_free(&run->x_new);
  csr_vector_free(&run->y_new);
}

/* B = P A P' by --reorder's method, x' = P x and a y' for the product, timed into r. */
static int renumber(csr_context *ctx, const options *o, const csr_matrix *A, csr_vector *x,
                    csr_vector *y, renumbered *run, result *r) {
  if (A->rows != A->cols)
    return app_fail(APP_BAD_INPUT,
                    "%s: --reorder renumbers rows and columns alike: A is %lld x %lld", o->path,
                    (long long)A->rows, (long long)A->cols);
  const double t0 = app_now();
  csr_permutation *P = NULL;
  csr_status s = csr_reorder(ctx, A, o->reorder, &P);
  if (s >= 0)
    s = csr_permute(ctx, A, P, P, &run->B);
  if (s >= 0) /* x and y are on the host */
    s = csr_permutation_copy(ctx, P, &run->P, CSR_HOST);
  csr_permutation_free(&P);
  if (s >= 0)
    s = csr_vector_create(ctx, &run->x_new, x->n, x->value_type, CSR_HOST);
  if (s >= 0)
    s = csr_permute_vector(ctx, run->P, CSR_PERMUTE_FORWARD, x, run->x_new);
  if (s >= 0)
    s = csr_vector_create(ctx, &run->y_new, y->n, y->value_type, CSR_HOST);
  if (s < 0)
    return app_fail_status(APP_RUNTIME, "--reorder", ctx, s);
  r->reorder_s = app_now() - t0;
  r->reordered = o->reorder;
  run->A = run->B;
  run->x = run->x_new;
  run->y = run->y_new;
  return APP_OK;
}

int main(int argc, char **argv) {
  options o;
  int exit_now = 0;
  int rc = parse(argc, argv, &o, &exit_now);
  if (rc != APP_OK || exit_now)
    return rc;
#ifdef CSR_APP_HAVE_MPI
  if (dist_launcher_size() > 1)
    return dist_run_app(dist_body, &o);
#endif
  /* Before reading the file, which may take a minute. */
  const char *missing = o.backend == CSR_BACKEND_CUDA ? app_cuda_missing() : NULL;
  if (missing)
    return app_fail(APP_RUNTIME, "%s: %s", cuda_unavailable, missing);

  csr_context *ctx = NULL, *ref = NULL;
  csr_matrix *A = NULL, *hA = NULL; /* A where it runs; hA on the host for --validate */
  csr_spmv_plan *plan = NULL;
  renumbered run = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  csr_vector *x = NULL, *y = NULL, *yref = NULL;
  result r;
  validation v;
  memset(&r, 0, sizeof r);
  memset(&v, 0, sizeof v);
  csr_status s = csr_context_create(&ctx);
  if (s < 0)
    return app_fail(APP_RUNTIME, "cannot create a context: %s", csr_status_string(s));
  if ((s = csr_context_set_backend(ctx, o.backend)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "--backend", ctx, s);
    goto done;
  }
  if ((s = csr_context_set_kernel(ctx, o.kernel)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "--kernel", ctx, s);
    goto done;
  }
  if (o.threads > 0 && (s = csr_context_set_threads(ctx, (int)o.threads)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "--threads", ctx, s);
    goto done;
  }

  csr_read_options ro;
  csr_read_options_init(&ro);
  ro.value_type = o.precision;
  if ((rc = app_load_csr(ctx, prog, o.path, &ro,
                         o.backend == CSR_BACKEND_CUDA ? APP_BUILD_DEVICE : APP_BUILD_HOST, &A,
                         NULL, &r.stages)) != APP_OK)
    goto done;
  s = csr_vector_create(ctx, &x, A->cols, o.precision, CSR_HOST);
  if (s >= 0)
    s = csr_vector_create(ctx, &y, A->rows, o.precision, CSR_HOST);
  if (s < 0) {
    rc = app_fail_status(APP_RUNTIME, "allocating x and y", ctx, s);
    goto done;
  }
  if (o.x_path) {
    if ((rc = load_x(ctx, o.x_path, o.precision, A->cols, x)) != APP_OK)
      goto done;
  } else if ((s = csr_fill(ctx, 1.0, x)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "x = ones", ctx, s);
    goto done;
  }

  const matrix_shape shape = shape_of(A);
  r.bytes = spmv_bytes(&o, &shape);
  size_t copy_bytes = copy_bytes_for(&o, r.bytes);
  /* --reorder: B = P A P' and x' = P x timed in place of A and x; y = P' y' afterwards. */
  run.A = A;
  run.x = x;
  run.y = y;
  if (o.reorder != CSR_REORDER_NONE) {
    if ((rc = renumber(ctx, &o, A, x, y, &run, &r)) != APP_OK)
      goto done;
  }
  /* The plan: the column indices packed or not (--compress), once, before the timing. */
  if ((s = csr_spmv_analyze(ctx, run.A, o.compress, &plan)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "preparing the SpMV (--compress)", ctx, s);
    goto done;
  }
  csr_spmv_plan_describe(plan, &r.plan);
  r.have_plan = 1;
  r.stages.prepare_name = "plan";
  r.stages.prepare = r.plan.setup_seconds;

  if (o.backend == CSR_BACKEND_CUDA) {
    if ((rc = run_cuda(ctx, &o, run.A, plan, run.x, run.y, &r, copy_bytes)) != APP_OK)
      goto done;
  } else {
    if ((rc = time_spmv(ctx, &o, plan, run.x, run.y, &r.median_s, &r.stages.compute)) != APP_OK)
      goto done;
    r.ran = csr_context_last_backend(ctx);
    r.threads = r.ran == CSR_BACKEND_OMP ? app_omp_threads((int)o.threads) : 1;
    if (copy_bytes > 0) {
      if (app_copy_bandwidth(copy_bytes, r.threads, COPY_REPS, &r.copy) == 0)
        r.have_copy = 1;
      else
        app_warn("cannot allocate 2 x %zu MiB for the copy; copy bandwidth not measured",
                 copy_bytes / MIB);
    }
  }
  r.gbs = r.median_s > 0.0 ? r.bytes / r.median_s / 1e9 : 0.0;
  if (run.P != NULL && (s = csr_permute_vector(ctx, run.P, CSR_PERMUTE_BACKWARD, run.y, y)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "bringing y back from the renumbering", ctx, s);
    goto done;
  }
  checksum(y, &r.sum, &r.nrm2);

  if (o.validate) {
    if (A->location == CSR_DEVICE && (s = csr_matrix_copy(ctx, A, &hA, CSR_HOST)) < 0) {
      rc = app_fail_status(APP_RUNTIME, "copying A to the host for --validate", ctx, s);
      goto done;
    }
    const csr_matrix *A_host = hA ? hA : A;
    s = csr_context_create(&ref);
    if (s >= 0)
      s = csr_context_set_backend(ref, CSR_BACKEND_REF);
    if (s >= 0)
      s = csr_vector_create(ref, &yref, A->rows, o.precision, CSR_HOST);
    if (s >= 0)
      s = csr_spmv(ref, 1.0, A_host, x, 0.0, yref);
    if (s < 0) {
      rc = app_fail_status(APP_RUNTIME, "the reference SpMV of --validate", ref, s);
      goto done;
    }
    compare(A_host, x, y, yref, &v);
  }

  if (o.json)
    print_json(&o, &shape, &r, &v, NULL);
  else
    print_text(&o, &shape, &r, &v, NULL);
  if (fflush(stdout) != 0 || ferror(stdout))
    rc = app_fail(APP_RUNTIME, "writing the output failed");
  else if (v.done && !v.passed)
    rc = app_fail(APP_RUNTIME, "validation failed: %lld rows beyond " TOLERANCE_TEXT,
                  (long long)v.failed_rows);
done:
  renumbered_free(&run);
  csr_spmv_plan_free(&plan);
  csr_vector_free(&yref);
  csr_vector_free(&y);
  csr_vector_free(&x);
  csr_matrix_free(&hA);
  csr_matrix_free(&A);
  csr_context_free(&ref);
  csr_context_free(&ctx);
  return rc;
}
