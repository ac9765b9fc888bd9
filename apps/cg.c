/* SPDX-License-Identifier: BSD-3-Clause */
/* cg: solves A x = b with csr_solve (CG, BiCGSTAB or GMRES; Jacobi, ILU(0), ILUT or IC(0)
 * preconditioning, or a choice made from A) and reports iterations, why it stopped, the relative
 * and scaled residuals, the error against the known solution when b is A * ones, and the time;
 * optionally the residual history as CSV and a PNG plot. Text or
 * --json. */
#include "cg_advice.h"
#include "common.h"
#include "plot.h"
#include "solve_auto.h"
#ifdef CSR_APP_HAVE_MPI
#include "dist_shares.h"
#endif

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *prog = "cg";

static void usage(void) {
  printf(
      "Usage: cg A.mtx [b.mtx] [--method cg|pcg|bicgstab|gmres|gmres-jacobi|auto]\n"
      "          [--precond none|jacobi|ilu0|ilut|ic0] [--drop-tol T] [--fill-factor F]\n"
      "          [--restart M] [--tol T] [--max-iter N] [--backend auto|ref|omp|cuda]\n"
      "          [--threads N] [--compress auto|on|off]\n"
      "          [--reorder auto|none|rcm|degree|hub|appearance] [--history FILE] [--json]\n"
      "          [--verbose]\n"
      "\n"
      "Solves A x = b with csr_solve from x = 0. A: a square Matrix Market matrix (.mtx[.gz]).\n"
      "b: a Matrix Market array (n x 1) or coordinate vector (n x 1, entries not stored are 0);\n"
      "without it b = A * ones, so that the solution is known and its error is reported.\n"
      "\n"
      "Options:\n"
      "  --method M     cg (default: A symmetric positive definite), pcg (CG with the Jacobi\n"
      "                 preconditioner diag(A)^-1: A SPD), bicgstab (any nonsingular A),\n"
      "                 gmres (restarted GMRES(M): any nonsingular A; it minimises the true\n"
      "                 residual over each cycle, so it cannot break down as BiCGSTAB can),\n"
      "                 gmres-jacobi (GMRES with diag(A)^-1 on the right: a_ii != 0),\n"
      "                 auto (from A: symmetric with every a_ii > 0: CG with IC(0), and CG\n"
      "                 with Jacobi when IC(0) fails; else GMRES(M) with ILU(0) when every\n"
      "                 a_ii != 0, else with ILUT, its rows matched; the reason is printed)\n"
      "  --precond P    the preconditioner M of cg or gmres (default none): jacobi\n"
      "                 (diag(A); CG: a_ii > 0, GMRES: a_ii != 0), ilu0 (ILU(0), no fill),\n"
      "                 ilut (threshold ILU with fill), ic0 (IC(0): A symmetric positive\n"
      "                 definite). CG with ilu0, ilut or ic0 is the textbook PCG (ic0 fits:\n"
      "                 M is then symmetric). The factorization is made inside the solve and\n"
      "                 its time is part of the solve's. bicgstab takes none\n"
      "  --drop-tol T   ilut: drop entries below T times their row's 2-norm (T >= 0,\n"
      "                 default 1e-4)\n"
      "  --fill-factor F  ilut: keep at most F * nnz(row) / 2 entries in each row of L and\n"
      "                 of U (F >= 1, default 10)\n"
      "  --restart M    GMRES (and auto when it picks GMRES): M Krylov steps per cycle\n"
      "                 (M >= 1, default 30; M above n is taken as n); M + 1 vectors of n\n"
      "                 entries are kept. Iterations count the steps\n"
      "  --tol T        stop when ||b - A x||_2 <= T * ||b||_2 (T > 0), default 1e-8\n"
      "  --max-iter N   at most N iterations (>= 1), default the library's max(10n, 1000);\n"
      "                 --maxit is the same\n"
      "  --backend B    auto (default: OpenMP when built), ref (serial), omp, cuda (the GPU:\n"
      "                 the file is read into triples on the host, they are copied to the GPU\n"
      "                 and A is built there; b and x are copied and solved there; the time is\n"
      "                 the solve's, without the copies; exits 3 without a device or when A\n"
      "                 does not fit, saying how much it needs and what the device has)\n"
      "  --threads N    OpenMP threads for the omp backend (default: OpenMP's)\n"
      "  --compress C   A's column indices in the products: auto (default: packed in 16 bits\n"
      "                 where that pays), on (packed) or off (plain CSR); the iterates have\n"
      "                 the same bits either way\n"
      "  --reorder M    solve P A P' (P x) = P b with the rows and columns renumbered by M\n"
      "                 (rcm, degree, hub, appearance: csr_reorder), x back in A's numbering;\n"
      "                 auto (default) and none keep A's numbering. Its time is reported apart\n"
      "  --history FILE write the residual history as CSV (iteration,residual_norm,\n"
      "                 relative_residual; a row per iteration and one for x = 0) and a %dx%d\n"
      "                 PNG plot of the relative residual (log scale, decades labelled)\n"
      "                 against the iteration next to it (FILE with .png for .csv, else\n"
      "                 FILE.png), both axes with ticks, numbers and titles\n"
      "  --json         one JSON object instead of text (keys: matrix, rhs, n, nnz, method,\n"
      "                 restart (the M used, GMRES only; else null), preconditioner,\n"
      "                 drop_tol and fill_factor (ilut; else null), auto_reason (--method\n"
      "                 auto; else null), tol, max_iter,\n"
      "                 packed, reordered, reorder_seconds, iterations, stop, converged, "
      "residual_norm,\n"
      "                 relative_residual, scaled_residual, error_inf, seconds,\n"
      "                 seconds_per_iteration, backend, threads, history, plot, plot_width,\n"
      "                 plot_height, stages: the seconds to read, upload and build A, and\n"
      "                 of the solve)\n" APP_VERBOSE_HELP "  --help         this text\n"
      "  --version      library version and the backends compiled in\n"
      "\n"
      "Reported:\n"
      "  stop               converged, or not converged (the iteration limit came first:\n"
      "                     the last iterate is reported, exit 0)\n"
      "  relative residual  ||b - A x||_2 / ||b||_2, recomputed from the returned x\n"
      "  scaled residual    ||A x - b||_inf / (||A||_inf ||x||_inf + ||b||_inf)\n"
      "  error              ||x - 1||_inf (only when b was not given)\n"
      "  time               the csr_solve call alone (with a factorization, its making;\n"
      "                     auto's fallback: both calls); per iteration = time / iterations\n"
      "When b = A * ones and a converged run's error is above 1e-3 and 100 times the relative\n"
      "residual, a warning says so: A is ill-conditioned or singular (the error can reach\n"
      "cond(A) times the residual).\n"
      "A progress line follows the iterations on stderr (only when it is a terminal; at most 10\n"
      "updates a second).\n"
      "A breakdown (CG/PCG: p'Ap <= 0, A not SPD; BiCGSTAB: a zero inner product; GMRES: the\n"
      "Krylov space stopped growing short of the solution, A singular) is bad\n"
      "input, exit 2: the iterations and the relative residual reached, the library's message\n"
      "and, when A's symmetry or diagonal explains it, the method that fits (A not symmetric:\n"
      "--method bicgstab). CG or PCG at the iteration limit on such an A warns the same way.\n"
      "Refused before any iteration (bad input, exit 2): a NaN or infinity in A or b (the first\n"
      "one named, A's before b's), and a singular A with a row or a column of zeros (named).\n"
      "\n" APP_DIST_HELP
      "cg under mpiexec: csr_dist_solve, whose sums are exact, so its iterates are the same bits\n"
      "for any P (on an ill-conditioned A it may stop after another number of iterations than on\n"
      "one process, whose sums round otherwise); b (a file read by rank 0, or A * ones) laid out\n"
      "like A's rows; the scaled residual is not computed (null: ||A||_inf needs A's rows on\n"
      "one process); no method is advised after a breakdown; rank 0 writes --history;\n"
      "--precond ilu0|ilut|ic0 is block Jacobi (each rank's block factored: GMRES only, its\n"
      "iterates then depend on P); --method auto is refused (it needs A on one process).\n"
      "\n" APP_INPUT_HELP "\n" APP_EXIT_HELP,
      PLOT_CANVAS_WIDTH, PLOT_CANVAS_HEIGHT);
}

typedef struct options {
  const char *path, *rhs, *history;
  csr_backend backend;
  csr_solver_method method;
  csr_solver_preconditioner preconditioner;
  solve_request request;     /* --method and --precond as given, checked once all are read */
  csr_factor_options factor; /* --drop-tol, --fill-factor */
  const char *auto_reason;   /* --method auto: why it chose the method; else NULL */
  double tol;
  long long max_iter, threads, restart; /* 0: the defaults */
  int json;
  csr_compress compress;
  csr_reorder_method reorder;
} options;

/* What --method names: a method of csr_solve and its preconditioner. */
static const struct {
  const char *name;
  csr_solver_method method;
  csr_solver_preconditioner preconditioner;
} methods[] = {{"cg", CSR_SOLVER_CG, CSR_PRECOND_NONE},
               {"pcg", CSR_SOLVER_PCG_JACOBI, CSR_PRECOND_NONE},
               {"bicgstab", CSR_SOLVER_BICGSTAB, CSR_PRECOND_NONE},
               {"gmres", CSR_SOLVER_GMRES, CSR_PRECOND_NONE},
               {"gmres-jacobi", CSR_SOLVER_GMRES, CSR_PRECOND_JACOBI}};

/* The --method name of the pair; a method with another preconditioner (--precond) goes by the
 * method's own name. */
static const char *method_name(const struct options *o) {
  for (size_t k = 0; k < sizeof methods / sizeof *methods; k++)
    if (o->method == methods[k].method && o->preconditioner == methods[k].preconditioner)
      return methods[k].name;
  for (size_t k = 0; k < sizeof methods / sizeof *methods; k++)
    if (o->method == methods[k].method)
      return methods[k].name;
  return "unknown";
}

/* The restart GMRES uses on an n x n A: what --restart asked (the library's 30 without it), at
 * most n. */
static long long restart_used(const struct options *o, int64_t n) {
  long long m = o->restart > 0 ? o->restart : 30;
  return m < n ? m : (long long)n;
}

/* A whole finite decimal number; 0 on success. */
static int parse_double(const char *text, double *value) {
  char *end = NULL;
  errno = 0;
  double v = strtod(text, &end);
  if (text[0] == '\0' || *end != '\0' || errno != 0 || !isfinite(v))
    return -1;
  *value = v;
  return 0;
}

static const char *const valued[] = {
    "--method",  "--tol",     "--max-iter",    "--maxit",    "--backend",  "--threads", "--history",
    "--restart", "--precond", "--fill-factor", "--drop-tol", "--compress", "--reorder"};

/* Stores the value v of option `name`; 1, or -1 after a usage error. */
static int parse_value(const char *name, const char *v, options *o) {
  const char *want = NULL;
  if (strcmp(name, "--backend") == 0) {
    want = app_parse_backend(v, &o->backend) == 0 ? NULL : "auto, ref, omp or cuda";
  } else if (strcmp(name, "--method") == 0) {
    want = strcmp(v, "auto") == 0 ? NULL : "cg, pcg, bicgstab, gmres, gmres-jacobi or auto";
    for (size_t k = 0; k < sizeof methods / sizeof *methods; k++)
      if (strcmp(v, methods[k].name) == 0) {
        o->method = methods[k].method;
        o->preconditioner = methods[k].preconditioner;
        want = NULL;
      }
    o->request.method_name = want ? o->request.method_name : v;
  } else if (strcmp(name, "--precond") == 0) {
    o->request.precond_given = 1;
    if (solve_precond_parse(v, &o->request.precond) != 0)
      want = SOLVE_PRECOND_NAMES;
  } else if (strcmp(name, "--drop-tol") == 0) {
    o->request.ilut_options_given = 1;
    if (parse_double(v, &o->factor.drop_tolerance) != 0 || o->factor.drop_tolerance < 0.0)
      want = "a number >= 0";
  } else if (strcmp(name, "--fill-factor") == 0) {
    o->request.ilut_options_given = 1;
    if (parse_double(v, &o->factor.fill_factor) != 0 || !(o->factor.fill_factor >= 1.0))
      want = "a number >= 1";
  } else if (strcmp(name, "--tol") == 0) {
    if (parse_double(v, &o->tol) != 0 || !(o->tol > 0.0))
      want = "a number > 0";
  } else if (strcmp(name, "--max-iter") == 0 || strcmp(name, "--maxit") == 0) {
    if (app_parse_int(v, 1, 1000000000LL, &o->max_iter) != 0)
      want = "an integer in [1, 1e9]";
  } else if (strcmp(name, "--restart") == 0) {
    if (app_parse_int(v, 1, 1000000000LL, &o->restart) != 0)
      want = "an integer in [1, 1e9]";
  } else if (strcmp(name, "--threads") == 0) {
    if (app_parse_int(v, 1, 4096, &o->threads) != 0)
      want = "an integer in [1, 4096]";
  } else if (strcmp(name, "--compress") == 0) {
    want = app_parse_compress(v, &o->compress) == 0 ? NULL : "auto, on or off";
  } else if (strcmp(name, "--reorder") == 0) {
    want = csr_reorder_method_from_name(v, &o->reorder) == CSR_SUCCESS
               ? NULL
               : "auto, none, rcm, degree, hub or appearance";
  } else {
    o->history = v;
  }
  if (want == NULL)
    return 1;
  app_usage_error(prog, "%s must be %s, not '%s'", name, want, v);
  return -1;
}

static int parse(int argc, char **argv, options *o, int *exit_now) {
  memset(o, 0, sizeof *o);
  o->backend = CSR_BACKEND_AUTO;
  o->reorder = CSR_REORDER_AUTO;
  o->method = CSR_SOLVER_CG;
  o->request.method_name = "cg";
  csr_factor_options_init(&o->factor);
  o->tol = 1e-8;
  *exit_now = 0;
  int only_files = 0;
  app_report_init(prog, argc, argv);
  for (int i = 1; i < argc; i++) { /* --help and --version win over the rest of the line */
    if (strcmp(argv[i], "--") == 0)
      break;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "--version") == 0) {
      if (argv[i][2] == 'h')
        usage();
      else
        app_print_version(prog);
      *exit_now = 1;
      return APP_OK;
    }
  }
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v = NULL;
    int m = 0;
    if (only_files || arg[0] != '-' || arg[1] == '\0') {
      if (o->path == NULL)
        o->path = arg;
      else if (o->rhs == NULL)
        o->rhs = arg;
      else
        return app_usage_error(prog, "at most A and b (got a third file '%s')", arg);
      continue;
    }
    if (strcmp(arg, "--") == 0) {
      only_files = 1;
      continue;
    }
    if (strcmp(arg, "--json") == 0) {
      o->json = 1;
      continue;
    }
    if (strcmp(arg, "--verbose") == 0)
      continue; /* read by app_report_init */
    for (size_t k = 0; k < sizeof valued / sizeof valued[0] && m == 0; k++)
      if ((m = app_option(prog, argc, argv, &i, valued[k], &v)) > 0)
        m = parse_value(valued[k], v, o);
    if (m < 0)
      return APP_USAGE;
    if (m == 0)
      return app_usage_error(prog, "unknown option '%s'", arg);
  }
  if (o->path == NULL)
    return app_usage_error(prog, "missing A.mtx");
  const int automatic = strcmp(o->request.method_name, "auto") == 0;
  if (o->restart > 0 && o->method != CSR_SOLVER_GMRES && !automatic)
    return app_usage_error(
        prog, "--restart applies to --method gmres, gmres-jacobi or auto, not %s", method_name(o));
  char refused[256];
  if (solve_request_refused(&o->request, refused, sizeof refused))
    return app_usage_error(prog, "%s", refused);
  if (o->request.precond_given && o->method != CSR_SOLVER_PCG_JACOBI)
    o->preconditioner = o->request.precond;
  return APP_OK;
}

/* b from a Matrix Market file: n x 1, array or coordinate (duplicates summed). */
static int load_rhs(csr_context *ctx, const char *path, int64_t n, csr_vector *b) {
  csr_coo *T = NULL;
  csr_file_info fi;
  csr_status s = app_read_coo(ctx, prog, path, NULL, &T, &fi, NULL);
  if (s < 0)
    return app_fail_status(app_exit_code(s), path, ctx, s);
  int rc = APP_OK;
  if (T->cols != 1 || T->rows != n) {
    rc = app_fail(APP_BAD_INPUT,
                  "%s: b is %lld x %lld; it must be a vector of %lld entries (%lld x 1), the size "
                  "of A",
                  path, (long long)T->rows, (long long)T->cols, (long long)n, (long long)n);
  } else {
    double *data = b->data;
    const double *values = T->values;
    for (int64_t k = 0; k < T->nnz; k++)
      data[T->row_indices[k]] += values ? values[k] : 1.0;
  }
  csr_coo_free(&T);
  return rc;
}

/* ||A||_inf: the largest row sum of |a_ij| (stored entries of a pattern count as 1). */
static double matrix_norm_inf(const csr_matrix *A) {
  const double *values = A->values;
  double best = 0.0;
  for (int64_t i = 0; i < A->rows; i++) {
    double sum = 0.0;
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      sum += values ? fabs(values[k]) : 1.0;
    if (sum > best || isnan(sum))
      best = sum;
  }
  return best;
}

/* What the run gave. */
typedef struct result {
  csr_solver_info info;
  double seconds, b_norm2, relative, scaled, error;
  int have_error, threads;
  csr_backend ran;
  char plot[4096];
  app_stages stages;
} result;

/* The PNG path for a CSV path: .csv replaced by .png, else .png appended; -1 when too long. */
static int plot_path(const char *csv, char *png, size_t size) {
  size_t n = strlen(csv);
  if (app_ends_with(csv, ".csv"))
    n -= 4;
  if (n + 5 > size)
    return -1;
  memcpy(png, csv, n);
  memcpy(png + n, ".png", 5);
  return 0;
}

/* The plot's title: the method and the matrix's file name without its directory and extensions,
 * "CG: 1138_BUS (N = 1138)" (the font draws capitals). */
static void plot_title(const options *o, int64_t n, char *title, size_t size) {
  const char *slash = strrchr(o->path, '/'), *name = slash ? slash + 1 : o->path;
  size_t length = strcspn(name, ".");
  snprintf(title, size, "%s: %.*s (N = %lld)", method_name(o), (int)(length < 60 ? length : 60),
           name, (long long)n);
  for (char *c = title; *c; c++)
    *c = (char)toupper((unsigned char)*c);
}

/* The history as CSV and its plot; APP_OK or APP_RUNTIME (after a message). */
static int write_history(const char *path, const double *h, int64_t count, double b_norm2,
                         const char *title, result *r) {
  FILE *f = fopen(path, "w");
  if (f == NULL)
    return app_fail(APP_RUNTIME, "%s: cannot create: %s", path, strerror(errno));
  fprintf(f, "iteration,residual_norm,relative_residual\n");
  for (int64_t k = 0; k < count; k++)
    fprintf(f, "%lld,%.17g,%.17g\n", (long long)k, h[k], b_norm2 > 0.0 ? h[k] / b_norm2 : 0.0);
  if (ferror(f) | (fclose(f) != 0))
    return app_fail(APP_RUNTIME, "%s: writing failed", path);
  if (plot_path(path, r->plot, sizeof r->plot) != 0)
    return app_fail(APP_RUNTIME, "%s: path too long for the plot", path);
  double *relative = malloc((size_t)(count > 0 ? count : 1) * sizeof *relative);
  png_image img = {0, 0, NULL};
  int rc = APP_OK;
  for (int64_t k = 0; relative != NULL && k < count; k++)
    relative[k] = b_norm2 > 0.0 ? h[k] / b_norm2 : 0.0; /* b = 0: nothing to plot */
  if (relative == NULL || plot_convergence(&img, relative, count, title) != 0)
    rc = app_fail(APP_RUNTIME, "cannot allocate the plot");
  else if (png_write(&img, r->plot) != 0)
    rc = app_fail(APP_RUNTIME, "%s: writing the plot failed", r->plot);
  png_image_free(&img);
  free(relative);
  return rc;
}

static const char *stop_name(csr_solver_stop stop) {
  switch (stop) {
  case CSR_SOLVER_CONVERGED: return "converged";
  case CSR_SOLVER_MAX_ITER: return "not converged";
  case CSR_SOLVER_BREAKDOWN: return "breakdown";
  case CSR_SOLVER_FAILED: break;
  }
  return "failed";
}

/* What the report says of A (the whole matrix's, also when the ranks of a distributed run hold
 * it between them). */
typedef struct matrix_shape {
  int64_t rows, cols, nnz;
} matrix_shape;

/* shares: the ranks of a distributed run, NULL on one process. */
static void print_json(const options *o, const matrix_shape *A, int64_t max_iter, const result *r,
                       const struct dist_shares *shares) {
  app_json j;
  app_json_begin(&j, stdout);
  app_json_string(&j, "matrix", o->path);
  if (o->rhs)
    app_json_string(&j, "rhs", o->rhs);
  else
    app_json_string(&j, "rhs", "A*ones");
  app_json_int(&j, "n", (long long)A->rows);
  app_json_int(&j, "nnz", (long long)A->nnz);
  app_json_string(&j, "method", method_name(o));
  if (o->method == CSR_SOLVER_GMRES)
    app_json_int(&j, "restart", restart_used(o, A->rows));
  else
    app_json_null(&j, "restart");
  solve_precond_json(&j, o->method, o->preconditioner, &o->factor, o->auto_reason);
  app_json_double(&j, "tol", o->tol);
  app_json_int(&j, "max_iter", (long long)max_iter);
  app_json_bool(&j, "packed", r->info.packed);
  app_json_string(&j, "reordered", csr_reorder_method_name(r->info.reordered));
  app_json_double(&j, "reorder_seconds", r->info.reorder_seconds);
  app_json_int(&j, "iterations", (long long)r->info.iterations);
  app_json_string(&j, "stop", stop_name(r->info.stop));
  app_json_bool(&j, "converged", r->info.stop == CSR_SOLVER_CONVERGED);
  app_json_double(&j, "residual_norm", r->info.residual_norm);
  app_json_double(&j, "relative_residual", r->relative);
  app_json_double(&j, "scaled_residual", r->scaled);
  if (r->have_error)
    app_json_double(&j, "error_inf", r->error);
  else
    app_json_null(&j, "error_inf");
  app_json_double(&j, "seconds", r->seconds);
  app_json_double(&j, "seconds_per_iteration",
                  r->info.iterations > 0 ? r->seconds / (double)r->info.iterations : 0.0);
  app_json_string(&j, "backend", csr_backend_name(r->ran));
  if (r->ran == CSR_BACKEND_CUDA) /* as spmv: threads are a CPU backend's */
    app_json_null(&j, "threads");
  else
    app_json_int(&j, "threads", r->threads);
  if (o->history) {
    app_json_string(&j, "history", o->history);
    app_json_string(&j, "plot", r->plot);
    app_json_int(&j, "plot_width", PLOT_CANVAS_WIDTH);
    app_json_int(&j, "plot_height", PLOT_CANVAS_HEIGHT);
  } else {
    app_json_null(&j, "history");
    app_json_null(&j, "plot");
  }
  app_json_stages(&j, &r->stages);
#ifdef CSR_APP_HAVE_MPI
  if (shares)
    dist_shares_json(&j, shares);
#endif
  (void)shares;
  app_json_end(&j);
}

static void print_text(const options *o, const matrix_shape *A, int64_t max_iter, const result *r,
                       const struct dist_shares *shares) {
  printf("matrix             %s: %lld x %lld, %lld stored entries\n", o->path, (long long)A->rows,
         (long long)A->cols, (long long)A->nnz);
  printf("right-hand side    %s\n", o->rhs ? o->rhs : "b = A * ones (solution: ones)");
  if (o->auto_reason)
    printf("auto: %s\n", o->auto_reason);
  if (o->method == CSR_SOLVER_GMRES)
    printf("method             %s (restart %lld), tol %g, at most %lld iterations\n",
           method_name(o), restart_used(o, A->rows), o->tol, (long long)max_iter);
  else
    printf("method             %s, tol %g, at most %lld iterations\n", method_name(o), o->tol,
           (long long)max_iter);
  solve_precond_text(o->method, o->preconditioner, &o->factor);
  printf("columns            %s\n", r->info.packed ? "packed in 16 bits" : "plain CSR");
  if (r->info.reordered != CSR_REORDER_NONE)
    printf("order              %s (%.6f s)\n", csr_reorder_method_name(r->info.reordered),
           r->info.reorder_seconds);
  if (r->info.stop == CSR_SOLVER_CONVERGED)
    printf("stopped            converged after %lld iterations\n", (long long)r->info.iterations);
  else
    printf("stopped            not converged: the iteration limit (%lld) came first\n",
           (long long)r->info.iterations);
  printf("relative residual  %.3e  ||b - Ax||_2 / ||b||_2\n", r->relative);
  if (isfinite(r->scaled))
    printf("scaled residual    %.3e  ||Ax - b||_inf / (||A||_inf ||x||_inf + ||b||_inf)\n",
           r->scaled);
  else /* under mpiexec: no rank holds A's rows for ||A||_inf */
    printf("scaled residual    not computed (||A||_inf needs A's rows on one process)\n");
  if (r->have_error)
    printf("error              %.3e  ||x - 1||_inf\n", r->error);
  printf("time               %.6f s, %.3e s per iteration\n", r->seconds,
         r->info.iterations > 0 ? r->seconds / (double)r->info.iterations : 0.0);
  if (r->ran == CSR_BACKEND_CUDA)
    printf("backend            cuda, GPU\n");
  else
    printf("backend            %s, %d thread%s%s\n", csr_backend_name(r->ran), r->threads,
           r->threads == 1 ? "" : "s", shares ? " per rank" : "");
  char stages[256];
  app_stages_text(&r->stages, "solve", stages, sizeof stages);
  printf("stages             %s\n", stages);
  if (o->history)
    printf("history            %s (%lld rows), plot %s (%dx%d)\n", o->history,
           (long long)r->info.history_length, r->plot, PLOT_CANVAS_WIDTH, PLOT_CANVAS_HEIGHT);
#ifdef CSR_APP_HAVE_MPI
  if (shares)
    dist_shares_print(shares, 19);
#endif
  (void)shares;
}

/* r = b - A x and the norms of the report. */
static csr_status measure(csr_context *ctx, const csr_matrix *A, const csr_vector *b,
                          const csr_vector *x, int known, result *r) {
  csr_vector *res = NULL;
  csr_status s = csr_vector_clone(ctx, b, &res, CSR_HOST);
  double rn2 = 0.0, rninf = 0.0, xninf = 0.0, bninf = 0.0;
  if (s >= 0)
    s = csr_spmv(ctx, -1.0, A, x, 1.0, res);
  if (s >= 0)
    s = csr_nrm2(ctx, res, &rn2);
  if (s >= 0)
    s = csr_nrminf(ctx, res, &rninf);
  if (s >= 0)
    s = csr_nrminf(ctx, x, &xninf);
  if (s >= 0)
    s = csr_nrminf(ctx, b, &bninf);
  if (s >= 0 && known) {
    s = csr_fill(ctx, 1.0, res);
    if (s >= 0)
      s = csr_axpy(ctx, -1.0, x, res);
    if (s >= 0)
      s = csr_nrminf(ctx, res, &r->error);
    r->have_error = 1;
  }
  csr_vector_free(&res);
  r->relative = r->b_norm2 > 0.0 ? rn2 / r->b_norm2 : rn2;
  double denominator = matrix_norm_inf(A) * xninf + bninf;
  r->scaled = denominator > 0.0 ? rninf / denominator : rninf;
  return s;
}

/* csr_solve with A on the device and copies of b and x there; x gets the device's solution back.
 * *t0 is reset when the operands are on the device, so the time is the solve's alone (not the
 * transfers). */
static csr_status solve_on_device(csr_context *ctx, const csr_matrix *dA, const csr_vector *b,
                                  csr_vector *x, const csr_solver_options *so,
                                  csr_solver_info *info, double *t0) {
  csr_vector *db = NULL, *dx = NULL;
  csr_status s = csr_vector_clone(ctx, b, &db, CSR_DEVICE);
  if (s >= 0)
    s = csr_vector_clone(ctx, x, &dx, CSR_DEVICE);
  if (s >= 0) {
    *t0 = app_now();
    s = csr_solve(ctx, dA, db, dx, so, info);
  }
  if (dx != NULL) { /* also after a breakdown: x is the last finite iterate */
    csr_status c = csr_copy(ctx, dx, x);
    s = s < 0 ? s : c < 0 ? c : s;
  }
  csr_vector_free(&db);
  csr_vector_free(&dx);
  return s;
}

/* The progress line on a terminal: the iteration and its relative residual, rewritten in place
 * from the first iteration on at most every 0.1 s (printing never slows a fast solve), and once
 * more with the last iteration. */
typedef struct progress_line {
  double b_norm2, last; /* ||b||; when the line was last written */
  int shown;
  int64_t iteration; /* the latest iteration reported, and its residual norm */
  double residual_norm;
} progress_line;

static void write_progress(const progress_line *line) {
  fprintf(stderr, "\r%s: iteration %lld, relative residual %.3e   ", prog,
          (long long)line->iteration,
          line->b_norm2 > 0.0 ? line->residual_norm / line->b_norm2 : line->residual_norm);
}

static void show_progress(void *user, int64_t iteration, double residual_norm) {
  progress_line *line = user;
  line->iteration = iteration;
  line->residual_norm = residual_norm;
  double now = app_now();
  if (now - line->last < 0.1)
    return;
  line->last = now;
  line->shown = 1;
  write_progress(line);
}

/* A small residual does not make a small error: the error can reach cond(A) times the relative
 * residual. With b = A * ones the error is known; when it is far above the residual, say so. */
static void warn_if_ill_conditioned(const options *o, const result *r) {
  if (!r->have_error || !(r->error > 1e-3 && r->error > 100.0 * r->relative))
    return;
  app_warn("the relative residual is %.1e but the error ||x - 1||_inf is %.1e: A is "
           "ill-conditioned or singular; %s",
           r->relative, r->error,
           o->method == CSR_SOLVER_CG && o->preconditioner == CSR_PRECOND_NONE
               ? "try --method pcg (Jacobi preconditioning) or a smaller --tol"
               : "try a smaller --tol");
}

/* After a breakdown, or a stop at the iteration limit (then as a warning): what A's symmetry and
 * diagonal say about the method, on stderr ("cg: A is not symmetric ...: try --method bicgstab");
 * nothing when they say nothing or the check itself fails (the run's own report comes first). A
 * singular A has no method to suggest: the library's message said so. */
static void advise(csr_context *ctx, const csr_matrix *A, csr_solver_method method,
                   int broke_down) {
  cg_symmetry sym;
  char text[512];
  if (broke_down && strstr(csr_context_last_message(ctx), "A is singular") != NULL)
    return;
  if (cg_check_symmetry(ctx, A, &sym) < 0 ||
      !cg_advice(&sym, method, broke_down, text, sizeof text))
    return;
  if (broke_down)
    fprintf(stderr, "%s: %s\n", prog, text);
  else
    app_warn("%s", text);
}

#ifdef CSR_APP_HAVE_MPI
/* --- Under mpiexec ----------------------------------------------------------------------------
 * A read by all the ranks at once (csr_dist_matrix_read), b and x laid out like its rows, solved
 * by csr_dist_solve (whose iterates and counts are the same bits on any number of ranks). Rank 0
 * prints and writes the history. */

/* b from the file (read by rank 0, sent to the ranks) or A * ones (x left at 0). */
static int dist_rhs(const dist_run *run, csr_context *ctx, const options *o,
                    const csr_dist_matrix *A, int64_t n, csr_dist_vector *b, csr_dist_vector *x) {
  csr_status s;
  if (o->rhs == NULL) {
    if ((s = csr_dist_fill(ctx, 1.0, x)) < 0 || (s = csr_dist_spmv(ctx, 1.0, A, x, 0.0, b)) < 0 ||
        (s = csr_dist_fill(ctx, 0.0, x)) < 0)
      return app_fail_status(app_exit_code(s), "b = A * ones", ctx, s);
    return APP_OK;
  }
  csr_vector *whole = NULL;
  int rc = APP_OK;
  if (run->rank == 0) {
    s = csr_vector_create(ctx, &whole, n, CSR_F64, CSR_HOST);
    rc = s < 0 ? app_fail_status(APP_RUNTIME, "allocating b", ctx, s)
               : load_rhs(ctx, o->rhs, n, whole);
  }
  if ((rc = dist_agree(run, rc)) == APP_OK && (s = csr_dist_vector_scatter(ctx, b, 0, whole)) < 0)
    rc = app_fail_status(APP_RUNTIME, "sending b to the ranks", ctx, s);
  csr_vector_free(&whole);
  return rc;
}

/* r = b - A x and the norms of the report, as measure() on one process, but for the scaled
 * residual: ||A||_inf needs A's rows, which no rank holds (NAN: not computed). */
static csr_status dist_measure(csr_context *ctx, const csr_dist_matrix *A, const csr_dist_vector *b,
                               const csr_dist_vector *x, int known, csr_location where, result *r) {
  csr_dist_vector *res = NULL;
  double rn2 = 0.0;
  csr_status s = csr_dist_vector_create(ctx, A, CSR_DIST_ROWS, CSR_F64, where, &res);
  if (s >= 0)
    s = csr_dist_copy(ctx, b, res);
  if (s >= 0)
    s = csr_dist_spmv(ctx, -1.0, A, x, 1.0, res);
  if (s >= 0)
    s = csr_dist_nrm2(ctx, res, &rn2);
  if (s >= 0 && known) {
    s = csr_dist_fill(ctx, 1.0, res);
    if (s >= 0)
      s = csr_dist_axpby(ctx, -1.0, x, 1.0, res);
    if (s >= 0)
      s = csr_dist_nrminf(ctx, res, &r->error);
    r->have_error = 1;
  }
  csr_dist_vector_free(&res);
  r->relative = r->b_norm2 > 0.0 ? rn2 / r->b_norm2 : rn2;
  r->scaled = NAN;
  return s;
}

static int dist_body(const dist_run *run, csr_context *ctx, const void *given) {
  const options *o = given;
  csr_dist_matrix *A = NULL;
  csr_dist_vector *b = NULL, *x = NULL;
  double *history = NULL;
  dist_shares shares = {0, NULL, NULL};
  result r;
  memset(&r, 0, sizeof r);
  r.info.stop = CSR_SOLVER_FAILED;
  csr_location where = CSR_HOST;
  /* auto reads A's rows on one process; across ranks the factorizations are block Jacobi's,
   * which precondition GMRES. */
  if (strcmp(o->request.method_name, "auto") == 0)
    return app_fail(APP_USAGE, "--method auto needs A on one process: not under mpiexec");
  if (app_one_process_options(o->compress, o->reorder) != APP_OK)
    return APP_USAGE;
  if (solve_precond_factors(o->preconditioner) && o->method != CSR_SOLVER_GMRES)
    return app_fail(APP_USAGE,
                    "--precond %s under mpiexec: block Jacobi preconditions --method gmres only",
                    solve_precond_name(o->method, o->preconditioner));
  int rc = dist_context(ctx, o->backend, o->threads, &where);
  if (rc != APP_OK)
    return rc;
  double t0 = dist_barrier_now();
  csr_status s = csr_dist_matrix_read(ctx, MPI_COMM_WORLD, o->path, NULL, where, &A, NULL);
  r.stages.read = dist_max(app_now() - t0);
  r.stages.on_device = where == CSR_DEVICE;
  if (s < 0)
    return app_fail_status(app_exit_code(s), o->path, ctx, s);
  matrix_shape shape = {0, 0, 0};
  csr_dist_matrix_size(A, &shape.rows, &shape.cols, &shape.nnz);
  const int64_t n = shape.rows;
  if (shape.rows != shape.cols) {
    rc = app_fail(APP_BAD_INPUT, "%s: A is %lld x %lld; it must be square", o->path,
                  (long long)shape.rows, (long long)shape.cols);
    goto done;
  }
  if ((s = csr_dist_vector_create(ctx, A, CSR_DIST_ROWS, CSR_F64, where, &b)) < 0 ||
      (s = csr_dist_vector_create(ctx, A, CSR_DIST_ROWS, CSR_F64, where, &x)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "allocating b and x", ctx, s);
    goto done;
  }
  if ((rc = dist_rhs(run, ctx, o, A, n, b, x)) != APP_OK)
    goto done;
  if ((s = csr_dist_nrm2(ctx, b, &r.b_norm2)) < 0) {
    rc = app_fail_status(app_exit_code(s), "||b||", ctx, s);
    goto done;
  }
  csr_solver_options so;
  csr_solver_options_init(&so);
  so.method = o->method;
  so.preconditioner = o->preconditioner;
  so.restart = (int64_t)o->restart;
  so.rtol = o->tol;
  so.max_iter = (int64_t)o->max_iter;
  int64_t max_iter = so.max_iter > 0 ? so.max_iter : (10 * n > 1000 ? 10 * n : 1000);
  if (o->history) { /* every rank keeps the history (the library fills it on each) */
    history = malloc((size_t)(max_iter + 1) * sizeof *history);
    rc = history ? APP_OK
                 : app_fail(APP_RUNTIME, "cannot allocate a history of %lld entries",
                            (long long)max_iter + 1);
    if ((rc = dist_agree(run, rc)) != APP_OK)
      goto done;
    so.history = history;
    so.history_capacity = max_iter + 1;
  }
  char title[128];
  plot_title(o, n, title, sizeof title);
  progress_line line = {r.b_norm2, 0.0, 0, 0, 0.0};
  if (run->rank == 0 && isatty(STDERR_FILENO)) {
    so.progress = show_progress;
    so.progress_user = &line;
    fprintf(stderr, "%s: solving with %s: n = %lld, %lld stored entries on %d ranks...\n", prog,
            method_name(o), (long long)n, (long long)shape.nnz, run->ranks);
  }
  t0 = dist_barrier_now();
  s = csr_dist_solve(ctx, A, b, x, &so, &r.info);
  r.seconds = r.stages.compute = dist_max(dist_barrier_now() - t0);
  if (line.shown) {
    write_progress(&line);
    fputc('\n', stderr);
  }
  r.ran = csr_context_last_backend(ctx);
  r.threads = r.ran == CSR_BACKEND_OMP ? dist_threads(o->threads) : 1;
  if (s < 0) { /* agreed by the library: every rank reports (rank 0 prints) and leaves */
    char what[1024];
    if (r.info.stop == CSR_SOLVER_BREAKDOWN)
      snprintf(what, sizeof what,
               "%s: %s broke down after %lld iterations (relative residual %.3e)", o->path,
               method_name(o), (long long)r.info.iterations, r.info.relative_residual);
    else
      snprintf(what, sizeof what, "%s: %s", o->path, method_name(o));
    rc = app_fail_status(app_exit_code(s), what, ctx, s);
    if (run->rank == 0 && o->history && r.info.history_length > 0 &&
        write_history(o->history, history, r.info.history_length, r.b_norm2, title, &r) == APP_OK)
      fprintf(stderr, "%s: the residual history up to the failure is in %s and %s\n", prog,
              o->history, r.plot);
    goto done;
  }
  if ((s = dist_measure(ctx, A, b, x, o->rhs == NULL, where, &r)) < 0) {
    rc = app_fail_status(app_exit_code(s), "recomputing the residual", ctx, s);
    goto done;
  }
  if (r.info.stop == CSR_SOLVER_CONVERGED)
    warn_if_ill_conditioned(o, &r);
  if (run->rank == 0 && o->history)
    rc = write_history(o->history, history, r.info.history_length, r.b_norm2, title, &r);
  if ((rc = dist_agree(run, rc)) != APP_OK)
    goto done;
  if ((rc = dist_shares_gather(run, A, &shares)) != APP_OK)
    goto done;
  if (run->rank == 0) {
    if (o->json)
      print_json(o, &shape, max_iter, &r, &shares);
    else
      print_text(o, &shape, max_iter, &r, &shares);
    if (fflush(stdout) != 0 || ferror(stdout))
      rc = app_fail(APP_RUNTIME, "writing the output failed");
  }
  rc = dist_agree(run, rc);
done:
  free(history);
  dist_shares_free(&shares);
  csr_dist_vector_free(&x);
  csr_dist_vector_free(&b);
  csr_dist_matrix_free(&A);
  return rc;
}

#endif

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
  const char *missing = o.backend == CSR_BACKEND_CUDA ? app_cuda_missing() : NULL;
  if (missing)
    return app_fail(APP_RUNTIME, "the CUDA backend is not available (%s)", missing);

  csr_context *ctx = NULL;
  csr_matrix *A = NULL, *dA = NULL; /* A on the host; with --backend cuda built on the device */
  csr_vector *b = NULL, *x = NULL;
  double *history = NULL;
  result r;
  memset(&r, 0, sizeof r);
  r.info.stop = CSR_SOLVER_FAILED;
  csr_status s = csr_context_create(&ctx);
  if (s < 0)
    return app_fail(APP_RUNTIME, "cannot create a context: %s", csr_status_string(s));
  if ((s = csr_context_set_backend(ctx, o.backend)) < 0 ||
      (o.threads > 0 && (s = csr_context_set_threads(ctx, (int)o.threads)) < 0)) {
    rc = app_fail_status(APP_RUNTIME, "--backend/--threads", ctx, s);
    goto done;
  }
  const int on_device = o.backend == CSR_BACKEND_CUDA;
  if ((rc = app_load_csr(ctx, prog, o.path, NULL, on_device ? APP_BUILD_DEVICE : APP_BUILD_HOST,
                         on_device ? &dA : &A, NULL, &r.stages)) != APP_OK)
    goto done;
  /* The host's copy of a device A serves b = A * ones and the check of the result. */
  if (on_device && (s = csr_matrix_copy(ctx, dA, &A, CSR_HOST)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "copying A to the host", ctx, s);
    goto done;
  }
  if (A->rows != A->cols) {
    rc = app_fail(APP_BAD_INPUT, "%s: A is %lld x %lld; it must be square", o.path,
                  (long long)A->rows, (long long)A->cols);
    goto done;
  }
  int64_t n = A->rows;
  if ((s = csr_vector_create(ctx, &b, n, CSR_F64, CSR_HOST)) < 0 ||
      (s = csr_vector_create(ctx, &x, n, CSR_F64, CSR_HOST)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "allocating b and x", ctx, s);
    goto done;
  }
  if (o.rhs) {
    if ((rc = load_rhs(ctx, o.rhs, n, b)) != APP_OK)
      goto done;
  } else if ((s = csr_fill(ctx, 1.0, x)) < 0 || (s = csr_spmv(ctx, 1.0, A, x, 0.0, b)) < 0 ||
             (s = csr_fill(ctx, 0.0, x)) < 0) {
    rc = app_fail_status(app_exit_code(s), "b = A * ones", ctx, s);
    goto done;
  }
  if ((s = csr_nrm2(ctx, b, &r.b_norm2)) < 0) {
    rc = app_fail_status(app_exit_code(s), "||b||", ctx, s);
    goto done;
  }
  solve_auto_choice choice;
  if (strcmp(o.request.method_name, "auto") == 0) {
    if ((s = solve_auto_choose(ctx, A, restart_used(&o, n), &choice)) < 0) {
      rc = app_fail_status(app_exit_code(s), "--method auto", ctx, s);
      goto done;
    }
    o.method = choice.method;
    o.preconditioner = choice.preconditioner;
    o.auto_reason = choice.reason;
  }
  csr_solver_options so;
  csr_solver_options_init(&so);
  so.method = o.method;
  so.preconditioner = o.preconditioner;
  so.factor_options = o.factor;
  so.restart = (int64_t)o.restart;
  so.compress = o.compress;
  so.reorder = o.reorder;
  so.rtol = o.tol;
  so.max_iter = (int64_t)o.max_iter;
  int64_t max_iter = so.max_iter > 0 ? so.max_iter : (10 * n > 1000 ? 10 * n : 1000);
  if (o.history) {
    if ((history = malloc((size_t)(max_iter + 1) * sizeof *history)) == NULL) {
      rc = app_fail(APP_RUNTIME, "cannot allocate a history of %lld entries",
                    (long long)max_iter + 1);
      goto done;
    }
    so.history = history;
    so.history_capacity = max_iter + 1;
  }
  char title[128];
  plot_title(&o, n, title, sizeof title);
  progress_line line = {r.b_norm2, 0.0, 0, 0, 0.0};
  if (isatty(STDERR_FILENO)) {
    so.progress = show_progress;
    so.progress_user = &line;
    fprintf(stderr, "%s: solving with %s: n = %lld, %lld stored entries...\n", prog,
            method_name(&o), (long long)n, (long long)A->nnz);
  }
  double t0 = app_now();
  s = on_device ? solve_on_device(ctx, dA, b, x, &so, &r.info, &t0)
                : csr_solve(ctx, A, b, x, &so, &r.info);
  r.seconds = app_now() - t0;
  if (o.auto_reason &&
      solve_auto_should_fall_back(&choice, s, &r.info, csr_context_last_message(ctx))) {
    solve_auto_fall_back(&choice, csr_context_last_message(ctx));
    o.preconditioner = so.preconditioner = choice.preconditioner;
    t0 = app_now(); /* x is untouched: the failure came before any iteration */
    s = on_device ? solve_on_device(ctx, dA, b, x, &so, &r.info, &t0)
                  : csr_solve(ctx, A, b, x, &so, &r.info);
    r.seconds += app_now() - t0;
  }
  r.stages.compute = r.seconds;
  if (line.shown) { /* the line ends with the last iteration's figures */
    write_progress(&line);
    fputc('\n', stderr);
  }
  r.ran = csr_context_last_backend(ctx);
  r.threads = r.ran == CSR_BACKEND_OMP ? app_omp_threads((int)o.threads) : 1;
  if (s < 0) {
    char what[1024];
    if (r.info.stop == CSR_SOLVER_BREAKDOWN)
      snprintf(what, sizeof what,
               "%s: %s broke down after %lld iterations (relative residual %.3e)", o.path,
               method_name(&o), (long long)r.info.iterations, r.info.relative_residual);
    else
      snprintf(what, sizeof what, "%s: %s", o.path, method_name(&o));
    rc = app_fail_status(app_exit_code(s), what, ctx, s);
    if (o.auto_reason) /* what was tried, and why */
      fprintf(stderr, "%s: auto: %s\n", prog, o.auto_reason);
    if (r.info.stop == CSR_SOLVER_BREAKDOWN)
      advise(ctx, A, o.method, 1);
    if (o.history && r.info.history_length > 0 &&
        write_history(o.history, history, r.info.history_length, r.b_norm2, title, &r) == APP_OK)
      fprintf(stderr, "%s: the residual history up to the failure is in %s and %s\n", prog,
              o.history, r.plot);
    goto done;
  }
  if ((s = measure(ctx, A, b, x, o.rhs == NULL, &r)) < 0) {
    rc = app_fail_status(app_exit_code(s), "recomputing the residual", ctx, s);
    goto done;
  }
  if (r.info.stop == CSR_SOLVER_MAX_ITER) /* not converged: that alone explains a large error */
    advise(ctx, A, o.method, 0);
  else
    warn_if_ill_conditioned(&o, &r);
  if (o.history && (rc = write_history(o.history, history, r.info.history_length, r.b_norm2, title,
                                       &r)) != APP_OK)
    goto done;
  const matrix_shape shape = {A->rows, A->cols, A->nnz};
  if (o.json)
    print_json(&o, &shape, max_iter, &r, NULL);
  else
    print_text(&o, &shape, max_iter, &r, NULL);
  if (fflush(stdout) != 0 || ferror(stdout))
    rc = app_fail(APP_RUNTIME, "writing the output failed");
done:
  free(history);
  csr_vector_free(&x);
  csr_vector_free(&b);
  csr_matrix_free(&A);
  csr_matrix_free(&dA);
  csr_context_free(&ctx);
  return rc;
}
