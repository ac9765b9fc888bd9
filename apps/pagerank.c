/* SPDX-License-Identifier: BSD-3-Clause */
/* pagerank: the PageRank of a graph read from a file (Matrix Market adjacency matrix or edge
 * list) with csr_pagerank: the top pages, iterations, the final L1 change, time and the
 * bandwidth of the iteration; optionally every rank to a file. Text or --json. */
#include "common.h"
#ifdef CSR_APP_HAVE_MPI
#include "dist_shares.h"
#endif

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *prog = "pagerank";

static void usage(void) {
  printf(
      "Usage: pagerank GRAPH [--damping D] [--tol T] [--max-iter N] [--top K] [--output FILE]\n"
      "                [--backend auto|ref|omp|cuda] [--precision f64|f32] [--weighted]\n"
      "                [--personalization FILE] [--threads N] [--compress auto|on|off]\n"
      "                [--reorder auto|none|rcm|degree|hub|appearance] [--json] [--verbose]\n"
      "\n"
      "Reads GRAPH (a Matrix Market adjacency matrix, or an edge list of \"from to [weight]\"\n"
      "lines; \"-\" is standard input) and computes its PageRank with csr_pagerank. A(i,j)\n"
      "stored is a link i -> j; symmetric files give links both ways, duplicate entries are\n"
      "merged (their values summed). The matrix must be square; an edge list has N = largest\n"
      "id + 1 pages. Ids are printed as in the input: 1-based for Matrix Market, 0-based for\n"
      "edge lists.\n"
      "\n"
      "Options:\n"
      "  --damping D          d in [0, 1), default 0.85\n"
      "  --tol T              stop when the L1 change is below T (> 0), default 1e-6\n"
      "  --max-iter N         at most N iterations (>= 1), default 1000\n"
      "  --top K              print the K highest-ranked pages (default 10; 0: none)\n"
      "  --output FILE        write one \"id rank\" line per page, in id order (%%.17g for f64,\n"
      "                       %%.9g for f32)\n"
      "  --backend B          auto (default: the GPU when libcsr has CUDA, a device is present\n"
      "                       and the graph has at least 100000 links; else OpenMP when\n"
      "                       built), ref (serial), omp, cuda (the graph built and ranked on\n"
      "                       the GPU; exits 3 without a device or when the graph does not\n"
      "                       fit, saying how much it needs and what the device has)\n"
      "  --precision P        f64 (default) or f32 rank vectors and weights (sums in double)\n"
      "  --weighted           rank flows along out-links in proportion to their values (which\n"
      "                       must be >= 0); default: equally, values ignored\n"
      "  --personalization F  teleport distribution p from a text file: one number >= 0 per\n"
      "                       line, N lines, page by page in id order (blank lines and lines\n"
      "                       starting with # or %% are skipped); scaled to sum 1. Default:\n"
      "                       uniform, p_i = 1/N\n"
      "  --threads N          OpenMP threads for the omp backend (default: OpenMP's)\n"
      "  --compress C         the pull graph's column indices: auto (default: packed in 16 bits\n"
      "                       where that pays), on (packed) or off (plain CSR); the ranks have\n"
      "                       the same bits either way. Counted in the set-up time\n"
      "  --reorder M          renumber the pages for the iterations (csr_reorder; ranks are\n"
      "                       printed in the graph's own ids): auto (default: rcm where the\n"
      "                       links are scattered and the iterations expected repay it, else\n"
      "                       none; the `order` line says why), none, rcm, degree, hub or\n"
      "                       appearance. Its time is reported apart\n"
      "  --json               one JSON object instead of text (keys: graph, nodes, links,\n"
      "                       dangling, id_base, damping, tol, max_iter, weighted,\n"
      "                       personalized, packed, reordered, reorder_reason,\n"
      "                       reorder_seconds, iterations, l1_change, converged, seconds,\n"
      "                       seconds_per_iteration, bytes_per_iteration, gbs, backend,\n"
      "                       threads (null on the GPU), precision, stages, top: [{id,\n"
      "                       rank}...])\n"
      "  --maxit N            the same as --max-iter\n" APP_VERBOSE_HELP
      "  --help               this text\n"
      "  --version            library version and the backends compiled in\n"
      "\n"
      "The model:\n"
      "  ranks      from r_i = 1/N, each iteration computes, with w_j the out-degree of page j\n"
      "             (the sum of its out-link values with --weighted):\n"
      "               r_i <- d * (sum_{j -> i} r_j a_ji / w_j + (sum of r_j over w_j = 0) / N)\n"
      "                      + (1 - d) * p_i\n"
      "             (a_ji = 1 unless --weighted): a dangling page (w_j = 0) spreads its rank\n"
      "             uniformly over all pages; the ranks sum to 1\n"
      "  stop       when the L1 change sum_i |r_i - r_i(previous)| < tol (converged), or after\n"
      "             max-iter iterations (not converged: the last iterate is printed, exit 0)\n"
      "  time       the whole csr_pagerank call, including its one-time setup (out-weights and\n"
      "             the transposed graph); per iteration = time / iterations\n"
      "  bytes      per iteration (4 + a)*links + 3*v*N: a column index (and with --weighted a\n"
      "             value) per link, and three passes over N values; v = 8 (f64) or 4 (f32),\n"
      "             a = v with --weighted, else 0. A floor on the traffic: the library's\n"
      "             iteration moves more (rank re-reads, row offsets, 1/w, the update passes)\n"
      "  GB/s       bytes per iteration * iterations / time / 1e9 (setup included)\n"
      "  stages     seconds to read the file (with the host's assembly of the CSR on the CPU),\n"
      "             upload its triples and build the CSR on the GPU, build the pull graph\n"
      "             (out-weights, the transpose; csr_pagerank's set-up) and iterate\n"
      "A progress line per iteration goes to stderr (only when it is a terminal).\n"
      "\n" APP_DIST_HELP
      "pagerank under mpiexec: csr_dist_pagerank (the same iteration; its sums are exact, so\n"
      "the ranks are the same bits for any P); --personalization is read by rank 0; the ranks\n"
      "are gathered on rank 0 for --top and --output. The shares are the adjacency matrix's;\n"
      "the iteration runs on its transpose, whose communication they do not count.\n"
      "\n" APP_INPUT_HELP "\n" APP_EXIT_HELP);
}

typedef struct options {
  const char *path, *output, *personalization;
  csr_backend backend;
  csr_value_type precision;
  double damping, tol;
  long long max_iter, top, threads;
  int weighted, json;
  csr_compress compress;
  csr_reorder_method reorder;
} options;

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

/* Options that take a value. */
static const char *const valued[] = {"--backend", "--compress", "--reorder",  "--precision",
                                     "--damping", "--tol",      "--max-iter", "--maxit",
                                     "--top",     "--threads",  "--output",   "--personalization"};

/* Stores the value v of option `name`; 1, or -1 after a usage error. */
static int parse_value(const char *name, const char *v, options *o) {
  const char *want = NULL;
  if (strcmp(name, "--backend") == 0) {
    want = app_parse_backend(v, &o->backend) == 0 ? NULL : "auto, ref, omp or cuda";
  } else if (strcmp(name, "--reorder") == 0) {
    want = csr_reorder_method_from_name(v, &o->reorder) == CSR_SUCCESS
               ? NULL
               : "auto, none, rcm, degree, hub or appearance";
  } else if (strcmp(name, "--compress") == 0) {
    want = app_parse_compress(v, &o->compress) == 0 ? NULL : "auto, on or off";
  } else if (strcmp(name, "--precision") == 0) {
    want = strcmp(v, "f64") == 0 || strcmp(v, "f32") == 0 ? NULL : "f64 or f32";
    o->precision = strcmp(v, "f32") == 0 ? CSR_F32 : CSR_F64;
  } else if (strcmp(name, "--damping") == 0) {
    if (parse_double(v, &o->damping) != 0 || !(o->damping >= 0.0 && o->damping < 1.0))
      want = "a number in [0, 1)";
  } else if (strcmp(name, "--tol") == 0) {
    if (parse_double(v, &o->tol) != 0 || !(o->tol > 0.0))
      want = "a number > 0";
  } else if (strcmp(name, "--max-iter") == 0 || strcmp(name, "--maxit") == 0) {
    if (app_parse_int(v, 1, INT64_MAX, &o->max_iter) != 0)
      want = "an integer >= 1";
  } else if (strcmp(name, "--top") == 0) {
    if (app_parse_int(v, 0, INT64_MAX, &o->top) != 0)
      want = "an integer >= 0";
  } else if (strcmp(name, "--threads") == 0) {
    if (app_parse_int(v, 1, 4096, &o->threads) != 0)
      want = "an integer in [1, 4096]";
  } else if (strcmp(name, "--output") == 0) {
    o->output = v;
  } else {
    o->personalization = v;
  }
  if (want == NULL)
    return 1;
  app_usage_error(prog, "%s must be %s, not '%s'", name, want, v);
  return -1;
}

/* If argv[*i] is a valued option, stores its value and returns 1; 0 for any other argument; -1
 * after a usage error. */
static int parse_valued(int argc, char **argv, int *i, options *o) {
  const char *v = NULL;
  for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) {
    int m = app_option(prog, argc, argv, i, valued[k], &v);
    if (m != 0)
      return m < 0 ? -1 : parse_value(valued[k], v, o);
  }
  return 0;
}

static int parse(int argc, char **argv, options *o, int *exit_now) {
  memset(o, 0, sizeof *o);
  o->backend = CSR_BACKEND_AUTO;
  o->reorder = CSR_REORDER_AUTO;
  o->precision = CSR_F64;
  o->damping = 0.85;
  o->tol = 1e-6;
  o->max_iter = 1000;
  o->top = 10;
  *exit_now = 0;
  int only_files = 0;
  app_report_init(prog, argc, argv);
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    int m = 0;
    if (only_files || arg[0] != '-' || arg[1] == '\0') {
      if (o->path)
        return app_usage_error(prog, "one GRAPH only (got '%s' and '%s')", o->path, arg);
      o->path = arg;
    } else if (strcmp(arg, "--") == 0) {
      only_files = 1;
    } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "--version") == 0) {
      if (arg[2] == 'h')
        usage();
      else
        app_print_version(prog);
      *exit_now = 1;
      return APP_OK;
    } else if (strcmp(arg, "--weighted") == 0) {
      o->weighted = 1;
    } else if (strcmp(arg, "--json") == 0) {
      o->json = 1;
    } else if (strcmp(arg, "--verbose") == 0) {
      continue; /* read by app_report_init */
    } else if ((m = parse_valued(argc, argv, &i, o)) < 0) {
      return APP_USAGE;
    } else if (m == 0) {
      return app_usage_error(prog, "unknown option '%s'", arg);
    }
  }
  if (o->path == NULL)
    return app_usage_error(prog, "missing GRAPH");
  return APP_OK;
}

/* p from a text file of n numbers, one per line (see --help). Values are checked by the library
 * (negative, all zero), so that its message is the one printed. */
static int load_personalization(csr_context *ctx, const char *path, int64_t n, csr_vector **p) {
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return app_fail(APP_BAD_INPUT, "%s: cannot open: %s", path, strerror(errno));
  csr_status s = csr_vector_create(ctx, p, n, CSR_F64, CSR_HOST);
  if (s < 0) {
    fclose(f);
    return app_fail_status(APP_RUNTIME, "the personalization vector", ctx, s);
  }
  double *data = (*p)->data;
  char *line = NULL;
  size_t cap = 0;
  int64_t count = 0, lineno = 0;
  int rc = APP_OK;
  while (rc == APP_OK && getline(&line, &cap, f) >= 0) {
    lineno++;
    char *text = line + strspn(line, " \t");
    text[strcspn(text, " \t\r\n")] = '\0';
    if (text[0] == '\0' || text[0] == '#' || text[0] == '%')
      continue;
    double v;
    if (parse_double(text, &v) != 0)
      rc = app_fail(APP_BAD_INPUT, "%s:%lld: expected a number, found '%s'", path,
                    (long long)lineno, text);
    else if (count < n)
      data[count] = v;
    count += rc == APP_OK;
  }
  if (rc == APP_OK && ferror(f))
    rc = app_fail(APP_BAD_INPUT, "%s: read error", path);
  else if (rc == APP_OK && count != n)
    rc = app_fail(APP_BAD_INPUT, "%s: %lld values; the graph has %lld pages, one value each", path,
                  (long long)count, (long long)n);
  free(line);
  fclose(f);
  return rc;
}

typedef struct ranked {
  double rank;
  int64_t id;
} ranked;

/* Higher rank first; ties by lower id, so the order is the same on every backend. */
static int compare_ranked(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  if (x->rank != y->rank)
    return x->rank < y->rank ? 1 : -1;
  return (x->id > y->id) - (x->id < y->id);
}

static double rank_of(const csr_vector *r, int64_t i) {
  return r->value_type == CSR_F64 ? ((const double *)r->data)[i] : ((const float *)r->data)[i];
}

/* Every page, best first; NULL when out of memory. */
static ranked *by_rank(const csr_vector *r) {
  ranked *all = malloc((size_t)(r->n > 0 ? r->n : 1) * sizeof *all);
  if (all == NULL)
    return NULL;
  for (int64_t i = 0; i < r->n; i++)
    all[i] = (ranked){rank_of(r, i), i};
  qsort(all, (size_t)r->n, sizeof *all, compare_ranked);
  return all;
}

/* Writes "id rank" per page; APP_OK or APP_RUNTIME. */
static int write_ranks(const char *path, const csr_vector *r, int base) {
  FILE *f = fopen(path, "w");
  if (f == NULL)
    return app_fail(APP_RUNTIME, "%s: cannot create: %s", path, strerror(errno));
  const char *format = r->value_type == CSR_F64 ? "%lld %.17g\n" : "%lld %.9g\n";
  for (int64_t i = 0; i < r->n; i++)
    fprintf(f, format, (long long)(i + base), rank_of(r, i));
  int bad = ferror(f);
  if (fclose(f) != 0 || bad)
    return app_fail(APP_RUNTIME, "%s: writing failed", path);
  return APP_OK;
}

/* What the run did, for printing. */
typedef struct result {
  csr_pagerank_info info;
  int converged, base, threads;
  csr_backend ran;
  double seconds, bytes, gbs;
  int64_t top;
  const ranked *best;
  app_stages stages;
} result;

/* What the report says of the graph (the whole graph's, also when the ranks of a distributed run
 * hold it between them). */
typedef struct graph_shape {
  int64_t rows, nnz;
} graph_shape;

/* shares: the ranks of a distributed run, NULL on one process. */
static void print_text(const options *o, const graph_shape *A, const result *r,
                       const struct dist_shares *shares) {
  const char *precision = o->precision == CSR_F64 ? "f64" : "f32";
  printf("graph      %s: %lld pages (ids %d-based), %lld links, %lld dangling\n", o->path,
         (long long)A->rows, r->base, (long long)A->nnz, (long long)r->info.dangling);
  printf("model      d = %g, tol = %g (L1), max-iter %lld, %s, %s teleport\n", o->damping, o->tol,
         o->max_iter, o->weighted ? "weighted" : "unweighted",
         o->personalization ? "personalized" : "uniform");
  if (r->ran == CSR_BACKEND_CUDA)
    printf("backend    cuda, GPU, %s\n", precision);
  else
    printf("backend    %s, %d thread%s%s, %s\n", csr_backend_name(r->ran), r->threads,
           r->threads == 1 ? "" : "s", shares ? " per rank" : "", precision);
  if (r->info.reorder_reason[0] != '\0') /* one process */
    printf("order      %s: %s (%.6f s)\n", csr_reorder_method_name(r->info.reordered),
           r->info.reorder_reason, r->info.reorder_seconds);
  printf("columns    %s\n", r->info.packed ? "packed in 16 bits" : "plain CSR");
  printf("result     %s after %lld iterations, L1 change %.3g\n",
         r->converged ? "converged" : "NOT converged", (long long)r->info.iterations,
         r->info.l1_change);
  printf("time       %.6f s, %.6f ms per iteration, %.3f GB/s (%.0f bytes per iteration)\n",
         r->seconds, r->info.iterations ? 1e3 * r->seconds / (double)r->info.iterations : 0.0,
         r->gbs, r->bytes);
  char stages[256];
  app_stages_text(&r->stages, "iterate", stages, sizeof stages);
  printf("stages     %s\n", stages);
  if (r->top > 0)
    printf("top %lld:\n%6s %12s %s\n", (long long)r->top, "place", "id", "rank");
  for (int64_t k = 0; k < r->top; k++)
    printf("%6lld %12lld %.*g\n", (long long)k + 1, (long long)(r->best[k].id + r->base),
           o->precision == CSR_F64 ? 17 : 9, r->best[k].rank);
#ifdef CSR_APP_HAVE_MPI
  if (shares)
    dist_shares_print(shares, 11);
#endif
  (void)shares;
}

static void print_json(const options *o, const graph_shape *A, const result *r,
                       const struct dist_shares *shares) {
  app_json j;
  app_json_begin(&j, stdout);
  app_json_string(&j, "graph", o->path);
  app_json_int(&j, "nodes", (long long)A->rows);
  app_json_int(&j, "links", (long long)A->nnz);
  app_json_int(&j, "dangling", (long long)r->info.dangling);
  app_json_int(&j, "id_base", r->base);
  app_json_double(&j, "damping", o->damping);
  app_json_double(&j, "tol", o->tol);
  app_json_int(&j, "max_iter", o->max_iter);
  app_json_bool(&j, "weighted", o->weighted);
  app_json_bool(&j, "personalized", o->personalization != NULL);
  app_json_bool(&j, "packed", r->info.packed);
  app_json_string(&j, "reordered", csr_reorder_method_name(r->info.reordered));
  app_json_string(&j, "reorder_reason", r->info.reorder_reason);
  app_json_double(&j, "reorder_seconds", r->info.reorder_seconds);
  app_json_int(&j, "iterations", (long long)r->info.iterations);
  app_json_double(&j, "l1_change", r->info.l1_change);
  app_json_bool(&j, "converged", r->converged);
  app_json_double(&j, "seconds", r->seconds);
  app_json_double(&j, "seconds_per_iteration",
                  r->info.iterations ? r->seconds / (double)r->info.iterations : 0.0);
  app_json_double(&j, "bytes_per_iteration", r->bytes);
  app_json_double(&j, "gbs", r->gbs);
  app_json_string(&j, "backend", csr_backend_name(r->ran));
  if (r->ran == CSR_BACKEND_CUDA)
    app_json_null(&j, "threads");
  else
    app_json_int(&j, "threads", r->threads);
  app_json_string(&j, "precision", o->precision == CSR_F64 ? "f64" : "f32");
  app_json_stages(&j, &r->stages);
  app_json_open(&j, "top", '[');
  for (int64_t k = 0; k < r->top; k++) {
    app_json_open(&j, NULL, '{');
    app_json_int(&j, "id", (long long)(r->best[k].id + r->base));
    app_json_double(&j, "rank", r->best[k].rank);
    app_json_close(&j, '}');
  }
  app_json_close(&j, ']');
#ifdef CSR_APP_HAVE_MPI
  if (shares)
    dist_shares_json(&j, shares);
#endif
  (void)shares;
  app_json_end(&j);
}

/* Where the graph is built and ranked: --backend cuda on the GPU (refused, exit 3, without
 * CUDA or a device); auto on the GPU when there is one and the graph is large enough; else on
 * the host. Before the file is read, which may take a minute. */
static int placement(const options *o, app_build *where) {
  const char *missing = app_cuda_missing();
  *where = APP_BUILD_HOST;
  if (o->backend == CSR_BACKEND_CUDA && missing)
    return app_fail(APP_RUNTIME, "--backend cuda: %s", missing);
  if (o->backend == CSR_BACKEND_CUDA)
    *where = APP_BUILD_DEVICE;
  else if (o->backend == CSR_BACKEND_AUTO && !missing)
    *where = APP_BUILD_DEVICE_IF_LARGE;
  return APP_OK;
}

/* One progress line per iteration, rewritten in place (stderr is a terminal). */
static void show_progress(void *user, int64_t iteration, double l1_change) {
  (void)user;
  fprintf(stderr, "\r%s: iteration %lld, L1 change %.3g   ", prog, (long long)iteration, l1_change);
}

/* Runs csr_pagerank, timed; on a terminal a line per iteration through the library's progress
 * callback (the library never prints). */
/* The library's options from the command line's; the progress line when `tty`. */
static void pagerank_options(const options *o, const csr_vector *p, int tty,
                             csr_pagerank_options *po) {
  csr_pagerank_options_init(po);
  po->damping = o->damping;
  po->tol = o->tol;
  po->max_iter = (int64_t)o->max_iter;
  po->weighted = o->weighted;
  po->compress = o->compress;
  po->reorder = o->reorder;
  po->personalization = p;
  if (tty)
    po->progress = show_progress;
}

/* The figures of a finished run: backend, threads, the bytes model, the stages, how many top
 * pages there are to print. */
static void summarise(const options *o, const graph_shape *A, csr_status s, csr_backend ran,
                      int threads, result *r) {
  r->converged = s == CSR_SUCCESS;
  r->ran = ran;
  r->threads = ran == CSR_BACKEND_OMP ? threads : 1;
  r->stages.prepare_name = "pull graph";
  r->stages.prepare = r->info.setup_seconds;
  r->stages.compute = r->info.iterate_seconds;
  double v = o->precision == CSR_F64 ? 8.0 : 4.0;
  r->bytes = (4.0 + (o->weighted ? v : 0.0)) * (double)A->nnz + 3.0 * v * (double)A->rows;
  r->gbs = r->seconds > 0.0 ? r->bytes * (double)r->info.iterations / r->seconds / 1e9 : 0.0;
  r->top = o->top < A->rows ? (int64_t)o->top : A->rows;
}

static csr_status run(csr_context *ctx, const options *o, const csr_matrix *A, const csr_vector *p,
                      csr_vector *ranks, result *r) {
  int tty = isatty(STDERR_FILENO);
  csr_pagerank_options po;
  pagerank_options(o, p, tty, &po);
  if (tty)
    fprintf(stderr, "%s: computing the PageRank of %lld pages, %lld links...\n", prog,
            (long long)A->rows, (long long)A->nnz);
  double t0 = app_now();
  csr_status s = csr_pagerank(ctx, A, &po, ranks, &r->info);
  r->seconds = app_now() - t0;
  if (tty && s >= 0)
    fprintf(stderr, "\n%s: %lld iterations in %.3f s\n", prog, (long long)r->info.iterations,
            r->seconds);
  return s;
}

#ifdef CSR_APP_HAVE_MPI
/* --- Under mpiexec ----------------------------------------------------------------------------
 * The graph read by all the ranks at once (csr_dist_matrix_read), ranked by csr_dist_pagerank,
 * the ranks gathered on rank 0 for the top pages and --output. Rank 0 prints. */

/* The ranks on rank 0 (a host vector there, NULL on the others), the top pages and --output. */
static int dist_rank_pages(const dist_run *run, csr_context *ctx, const options *o,
                           const csr_dist_vector *ranks, int64_t n, result *r, ranked **best) {
  csr_vector *whole = NULL;
  int rc = APP_OK;
  csr_status s = CSR_SUCCESS;
  if (run->rank == 0 && (s = csr_vector_create(ctx, &whole, n, o->precision, CSR_HOST)) < 0)
    rc = app_fail_status(APP_RUNTIME, "the rank vector on rank 0", ctx, s);
  if ((rc = dist_agree(run, rc)) != APP_OK)
    return rc;
  if ((s = csr_dist_vector_gather(ctx, ranks, 0, whole)) < 0) {
    csr_vector_free(&whole);
    return app_fail_status(APP_RUNTIME, "gathering the ranks on rank 0", ctx, s);
  }
  if (run->rank == 0 && r->top > 0 && (*best = by_rank(whole)) == NULL)
    rc = app_fail(APP_RUNTIME, "cannot allocate the ranking of %lld pages", (long long)n);
  r->best = *best;
  if (run->rank == 0 && rc == APP_OK && o->output)
    rc = write_ranks(o->output, whole, r->base);
  csr_vector_free(&whole);
  return dist_agree(run, rc);
}

static int dist_body(const dist_run *run, csr_context *ctx, const void *given) {
  const options *o = given;
  if (app_one_process_options(o->compress, o->reorder) != APP_OK)
    return APP_USAGE;
  csr_dist_matrix *A = NULL;
  csr_dist_vector *ranks = NULL;
  csr_vector *p = NULL;
  ranked *best = NULL;
  dist_shares shares = {0, NULL, NULL};
  result r;
  memset(&r, 0, sizeof r);
  csr_location where = CSR_HOST;
  int rc = dist_context(ctx, o->backend, o->threads, &where);
  if (rc != APP_OK)
    return rc;
  csr_read_options ro;
  csr_read_options_init(&ro);
  ro.value_type = o->precision;
  csr_file_info fi;
  double t0 = dist_barrier_now();
  csr_status s = csr_dist_matrix_read(ctx, MPI_COMM_WORLD, o->path, &ro, where, &A, &fi);
  r.stages.read = dist_max(app_now() - t0);
  r.stages.on_device = where == CSR_DEVICE;
  if (s < 0)
    return app_fail_status(app_exit_code(s), o->path, ctx, s);
  graph_shape shape = {0, 0};
  csr_dist_matrix_size(A, &shape.rows, NULL, &shape.nnz);
  r.base = fi.format == CSR_FORMAT_MATRIX_MARKET ? 1 : 0;
  /* The library reads the personalization of rank 0; the others pass an empty stand-in, so that
   * every rank asks for a personalized run. */
  csr_vector stand_in;
  memset(&stand_in, 0, sizeof stand_in);
  if (o->personalization) {
    if (run->rank == 0)
      rc = load_personalization(ctx, o->personalization, shape.rows, &p);
    if ((rc = dist_agree(run, rc)) != APP_OK)
      goto done;
  }
  if ((s = csr_dist_vector_create(ctx, A, CSR_DIST_ROWS, o->precision, where, &ranks)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "the rank vector", ctx, s);
    goto done;
  }
  int tty = run->rank == 0 && isatty(STDERR_FILENO);
  csr_pagerank_options po;
  pagerank_options(o, o->personalization ? (p ? p : &stand_in) : NULL, tty, &po);
  if (tty)
    fprintf(stderr, "%s: computing the PageRank of %lld pages, %lld links on %d ranks...\n", prog,
            (long long)shape.rows, (long long)shape.nnz, run->ranks);
  t0 = dist_barrier_now();
  s = csr_dist_pagerank(ctx, A, &po, ranks, &r.info);
  r.seconds = dist_max(dist_barrier_now() - t0);
  if (tty && s >= 0)
    fprintf(stderr, "\n%s: %lld iterations in %.3f s\n", prog, (long long)r.info.iterations,
            r.seconds);
  if (s < 0) {
    rc = app_fail_status(app_exit_code(s), o->path, ctx, s);
    goto done;
  }
  summarise(o, &shape, s, csr_context_last_backend(ctx), dist_threads(o->threads), &r);
  r.info.setup_seconds = dist_max(r.info.setup_seconds);
  r.info.iterate_seconds = dist_max(r.info.iterate_seconds);
  r.stages.prepare = r.info.setup_seconds;
  r.stages.compute = r.info.iterate_seconds;
  if ((rc = dist_rank_pages(run, ctx, o, ranks, shape.rows, &r, &best)) != APP_OK)
    goto done;
  if ((rc = dist_shares_gather(run, A, &shares)) != APP_OK)
    goto done;
  if (run->rank == 0) {
    if (o->json)
      print_json(o, &shape, &r, &shares);
    else
      print_text(o, &shape, &r, &shares);
    if (fflush(stdout) != 0 || ferror(stdout))
      rc = app_fail(APP_RUNTIME, "writing the output failed");
  }
  rc = dist_agree(run, rc);
done:
  free(best);
  dist_shares_free(&shares);
  csr_vector_free(&p);
  csr_dist_vector_free(&ranks);
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
  app_build where;
  if ((rc = placement(&o, &where)) != APP_OK)
    return rc;

  csr_context *ctx = NULL;
  csr_matrix *A = NULL;
  csr_vector *p = NULL, *ranks = NULL, *host_ranks = NULL;
  ranked *best = NULL;
  result r;
  memset(&r, 0, sizeof r);
  csr_status s = csr_context_create(&ctx);
  if (s < 0)
    return app_fail(APP_RUNTIME, "cannot create a context: %s", csr_status_string(s));
  if ((s = csr_context_set_backend(ctx, o.backend)) < 0 ||
      (o.threads > 0 && (s = csr_context_set_threads(ctx, (int)o.threads)) < 0)) {
    rc = app_fail_status(APP_RUNTIME, "--backend/--threads", ctx, s);
    goto done;
  }
  csr_read_options ro;
  csr_read_options_init(&ro);
  ro.value_type = o.precision;
  csr_file_info fi;
  if ((rc = app_load_csr(ctx, prog, o.path, &ro, where, &A, &fi, &r.stages)) != APP_OK)
    goto done;
  r.base = fi.format == CSR_FORMAT_MATRIX_MARKET ? 1 : 0;
  if (o.personalization &&
      (rc = load_personalization(ctx, o.personalization, A->rows, &p)) != APP_OK)
    goto done;
  if ((s = csr_vector_create(ctx, &ranks, A->rows, o.precision, A->location)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "the rank vector", ctx, s);
    goto done;
  }
  if ((s = run(ctx, &o, A, p, ranks, &r)) < 0) {
    rc = app_fail_status(app_exit_code(s), o.path, ctx, s);
    goto done;
  }
  const graph_shape shape = {A->rows, A->nnz};
  summarise(&o, &shape, s, csr_context_last_backend(ctx), app_omp_threads((int)o.threads), &r);
  host_ranks = ranks;
  if (A->location != CSR_HOST && (s = csr_vector_clone(ctx, ranks, &host_ranks, CSR_HOST)) < 0) {
    host_ranks = NULL;
    rc = app_fail_status(APP_RUNTIME, "copying the ranks from the GPU", ctx, s);
    goto done;
  }
  if (r.top > 0 && (best = by_rank(host_ranks)) == NULL) {
    rc = app_fail(APP_RUNTIME, "cannot allocate the ranking of %lld pages", (long long)A->rows);
    goto done;
  }
  r.best = best;
  if (o.output && (rc = write_ranks(o.output, host_ranks, r.base)) != APP_OK)
    goto done;
  if (o.json)
    print_json(&o, &shape, &r, NULL);
  else
    print_text(&o, &shape, &r, NULL);
  if (fflush(stdout) != 0 || ferror(stdout))
    rc = app_fail(APP_RUNTIME, "writing the output failed");
done:
  free(best);
  if (host_ranks != ranks)
    csr_vector_free(&host_ranks);
  csr_vector_free(&ranks);
  csr_vector_free(&p);
  csr_matrix_free(&A);
  csr_context_free(&ctx);
  return rc;
}
