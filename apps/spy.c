/* SPDX-License-Identifier: BSD-3-Clause */
/* spy: a PNG picture of a sparse matrix -- its pattern as the density of stored entries per pixel
 * block on a log scale, and its row-length histogram as a bar chart -- with a summary as text or
 * --json. */
#include "common.h"
#include "png.h"
#include "spy_draw.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *prog = "spy";

static void usage(void) {
  printf(
      "Usage: spy FILE [--out PATH] [--size N] [--threads T] [--json] [--verbose]\n"
      "\n"
      "Reads FILE (a Matrix Market file or an edge list; \"-\" is standard input) and writes a\n"
      "PNG picture of it with two panels. Without --out the picture goes to spy.png in a new\n"
      "directory under $TMPDIR (or /tmp), never into the working directory; the output's first\n"
      "line (and the JSON key \"out\") names the file written.\n"
      "\n"
      "Options:\n"
      "  --out PATH   the PNG file to write (default: spy.png in a new temporary directory)\n"
      "  --size N     the pattern panel's longest side in pixels, %d..%d (default %d)\n"
      "  --threads T  OpenMP threads for reading and drawing (default: OpenMP's)\n"
      "  --json       one JSON object instead of text (keys: file, out, rows, cols, nnz, width,\n"
      "               height, size, scale, grid_rows, grid_cols, block_rows, block_cols,\n"
      "               max_block_cells, blocks_nonempty, pixels_nonempty, pattern_panel,\n"
      "               histogram_panel, font_scale, text_y, histogram, histogram_scale,\n"
      "               threads, read_seconds, draw_seconds, write_seconds)\n" APP_VERBOSE_HELP
      "  --help       this text\n"
      "  --version    library version and the backends compiled in\n"
      "\n"
      "Left panel, the pattern (row 0 at the top, column 0 at the left, in a grey frame):\n"
      "  The stored entries of the assembled matrix: symmetric files expanded, duplicates\n"
      "  summed into one entry, explicit zeros kept. A matrix at most N on both sides is drawn\n"
      "  at an integer scale, each entry an exact square of pixels. A larger one is cut into\n"
      "  blocks, one pixel each: N along the longest side, the other side in proportion (at\n"
      "  least 1); row i falls in block row floor(i * grid_rows / rows), column j likewise.\n"
      "  White: no entry in the block. Otherwise a shade of blue from the density d = entries\n"
      "  / cells of the block on a log scale: v = log(1/d) / log(C), C the cells of the largest\n"
      "  block, from the darkest (v = 0, a full block) to the lightest blue (v = 1, one entry\n"
      "  in a block of C cells), so that a single entry stays visible.\n"
      "Right panel, the row-length histogram (orange bars, axes in black):\n"
      "  One bar per log2 bin of the row length: 0 (empty rows), 1, 2-3, 4-7, ..., up to the\n"
      "  longest row's bin, left to right, ticks at the bin boundaries. Bar heights are the\n"
      "  number of rows on a log10 scale from 0.1 (the x axis) to the largest bin (the top), so\n"
      "  a bin of one row is still a bar; grey grid lines and ticks at 1, 10, 100, ... rows.\n"
      "Labels (a 5-pixel-high bitmap font, doubled from N = 512): ROWS x COLS under the pattern;\n"
      "under each bar the shortest row length of its bin (0, 1, 2, 4, ..., 8192, then 2^14,\n"
      "...) and the title ROW LENGTH below them; left of the histogram the grid lines' row\n"
      "counts (1, 10, 100, 1e3, ...) and the title ROWS, upright. A label that would touch its\n"
      "neighbour is left out. All the numbers are in the output (--json).\n"
      "The drawing is one pass over the entries, shared among the threads by block rows.\n"
      "\n" APP_INPUT_HELP "\n" APP_EXIT_HELP,
      SPY_SIZE_MIN, SPY_SIZE_MAX, SPY_SIZE_DEFAULT);
}

typedef struct options {
  const char *path, *out;  /* out NULL: a new temporary directory (default_out) */
  long long size, threads; /* threads 0: OpenMP's default */
  int json;
} options;

/* --help and --version win over the rest of the line (before a "--"); 1 when one was found. */
static int help_or_version(int argc, char **argv) {
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--help") == 0) {
      usage();
      return 1;
    }
    if (strcmp(argv[i], "--version") == 0) {
      app_print_version(prog);
      return 1;
    }
  }
  return 0;
}

/* One option at argv[*i]; APP_OK, or APP_USAGE after a message. */
static int parse_option(int argc, char **argv, int *i, options *o) {
  const char *arg = argv[*i], *v = NULL;
  int m;
  if (strcmp(arg, "--json") == 0) {
    o->json = 1;
    return APP_OK;
  }
  if (strcmp(arg, "--verbose") == 0)
    return APP_OK; /* read by app_report_init */
  if ((m = app_option(prog, argc, argv, i, "--out", &v)) != 0) {
    if (m > 0 && v[0] == '\0')
      return app_usage_error(prog, "--out must be a file name, not ''");
    o->out = v;
    return m > 0 ? APP_OK : APP_USAGE;
  }
  if ((m = app_option(prog, argc, argv, i, "--size", &v)) != 0) {
    if (m > 0 && app_parse_int(v, SPY_SIZE_MIN, SPY_SIZE_MAX, &o->size) != 0)
      return app_usage_error(prog, "--size must be an integer in [%d, %d], not '%s'", SPY_SIZE_MIN,
                             SPY_SIZE_MAX, v);
    return m > 0 ? APP_OK : APP_USAGE;
  }
  if ((m = app_option(prog, argc, argv, i, "--threads", &v)) != 0) {
    if (m > 0 && app_parse_int(v, 1, 4096, &o->threads) != 0)
      return app_usage_error(prog, "--threads must be an integer in [1, 4096], not '%s'", v);
    return m > 0 ? APP_OK : APP_USAGE;
  }
  return app_usage_error(prog, "unknown option '%s'", arg);
}

static int parse(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  o->size = SPY_SIZE_DEFAULT;
  int only_files = 0;
  app_report_init(prog, argc, argv);
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (!only_files && strcmp(arg, "--") == 0) {
      only_files = 1;
    } else if (!only_files && arg[0] == '-' && arg[1] != '\0') {
      int rc = parse_option(argc, argv, &i, o);
      if (rc != APP_OK)
        return rc;
    } else if (o->path == NULL) {
      o->path = arg;
    } else {
      return app_usage_error(prog, "one FILE only (got '%s' and '%s')", o->path, arg);
    }
  }
  if (o->path == NULL)
    return app_usage_error(prog, "missing FILE");
  return APP_OK;
}

/* Seconds of each stage. */
typedef struct timings {
  double read, draw, write;
} timings;

static void json_rect(app_json *j, const char *key, const spy_rect *r) {
  app_json_open(j, key, '{');
  app_json_int(j, "x", r->x);
  app_json_int(j, "y", r->y);
  app_json_int(j, "width", r->width);
  app_json_int(j, "height", r->height);
}

static void print_json(const options *o, const spy_picture *p, int threads, const timings *t) {
  app_json j;
  app_json_begin(&j, stdout);
  app_json_string(&j, "file", o->path);
  app_json_string(&j, "out", o->out);
  app_json_int(&j, "rows", (long long)p->rows);
  app_json_int(&j, "cols", (long long)p->cols);
  app_json_int(&j, "nnz", (long long)p->nnz);
  app_json_int(&j, "width", p->width);
  app_json_int(&j, "height", p->height);
  app_json_int(&j, "size", o->size);
  app_json_int(&j, "scale", p->scale);
  app_json_int(&j, "grid_rows", (long long)p->grid_rows);
  app_json_int(&j, "grid_cols", (long long)p->grid_cols);
  app_json_double(&j, "block_rows", (double)(p->rows > 0 ? p->rows : 1) / (double)p->grid_rows);
  app_json_double(&j, "block_cols", (double)(p->cols > 0 ? p->cols : 1) / (double)p->grid_cols);
  app_json_int(&j, "max_block_cells", (long long)p->max_block_cells);
  app_json_int(&j, "blocks_nonempty", (long long)p->blocks_nonempty);
  app_json_int(&j, "pixels_nonempty", (long long)p->pixels_nonempty);
  json_rect(&j, "pattern_panel", &p->pattern);
  app_json_close(&j, '}');
  json_rect(&j, "histogram_panel", &p->hist);
  app_json_int(&j, "bins", p->bins);
  app_json_int(&j, "bar_width", p->bar_width);
  app_json_int(&j, "bar_step", p->bar_step);
  app_json_close(&j, '}');
  app_json_int(&j, "font_scale", p->font_scale);
  app_json_int(&j, "text_y", p->text_y);
  app_json_open(&j, "histogram", '[');
  for (int b = 0; b < p->bins; b++)
    app_json_int(&j, NULL, (long long)p->histogram[b]);
  app_json_close(&j, ']');
  app_json_string(&j, "histogram_scale", "log10");
  app_json_int(&j, "threads", threads);
  app_json_double(&j, "read_seconds", t->read);
  app_json_double(&j, "draw_seconds", t->draw);
  app_json_double(&j, "write_seconds", t->write);
  app_json_end(&j);
}

static void print_text(const options *o, const spy_picture *p, const timings *t) {
  printf("%s: %d x %d pixels of %s (%lld x %lld, %lld entries)\n", o->out, p->width, p->height,
         o->path, (long long)p->rows, (long long)p->cols, (long long)p->nnz);
  if (p->scale > 1)
    printf("pattern    %d x %d pixels, each entry %d x %d pixels\n", p->pattern.width,
           p->pattern.height, p->scale, p->scale);
  else
    printf("pattern    %d x %d pixels, blocks of %.4g rows x %.4g columns per pixel\n",
           p->pattern.width, p->pattern.height,
           (double)(p->rows > 0 ? p->rows : 1) / (double)p->grid_rows,
           (double)(p->cols > 0 ? p->cols : 1) / (double)p->grid_cols);
  printf("non-empty  %lld of %lld blocks (%.2f%%)\n", (long long)p->blocks_nonempty,
         (long long)(p->grid_rows * p->grid_cols),
         100.0 * (double)p->blocks_nonempty / (double)(p->grid_rows * p->grid_cols));
  printf("histogram  %d log2 bins of the row length (0, 1, 2-3, ...), bars on a log10 scale\n",
         p->bins);
  printf("time       read %.3f s, draw %.3f s, write %.3f s\n", t->read, t->draw, t->write);
}

/* Without --out: makes a new directory spy-XXXXXX under $TMPDIR (or /tmp) and puts
 * DIR/spy.png in path, so that a picture never lands in the working directory unasked and two
 * runs never overwrite each other's. 0, or -1 with errno set. */
static int default_out(const char *tmpdir, char *path, size_t size, char **dir_end) {
  size_t n = strlen(tmpdir);
  while (n > 1 && tmpdir[n - 1] == '/')
    n--;
  int w = snprintf(path, size, "%.*s/spy-XXXXXX", (int)n, tmpdir);
  if (w < 0 || (size_t)w + sizeof "/spy.png" > size) {
    errno = ENAMETOOLONG;
    return -1;
  }
  if (mkdtemp(path) == NULL)
    return -1;
  *dir_end = path + w;
  memcpy(path + w, "/spy.png", sizeof "/spy.png");
  return 0;
}

/* Writes the picture to o->out, or without --out to a new temporary directory (o->out then
 * points into path); APP_OK or APP_RUNTIME after a message. */
static int write_picture(options *o, const png_image *img, char *path, size_t size) {
  char *dir_end = NULL;
  if (o->out == NULL) {
    const char *tmpdir = getenv("TMPDIR");
    if (tmpdir == NULL || tmpdir[0] == '\0')
      tmpdir = "/tmp";
    if (default_out(tmpdir, path, size, &dir_end) != 0)
      return app_fail(APP_RUNTIME, "cannot make a directory for the picture under %s: %s", tmpdir,
                      strerror(errno));
    o->out = path;
  }
  errno = 0;
  if (png_write(img, o->out) == 0)
    return APP_OK;
  int rc = app_fail(APP_RUNTIME, "%s: writing the picture failed%s%s", o->out, errno ? ": " : "",
                    errno ? strerror(errno) : "");
  if (dir_end != NULL) { /* leave no half-written file or empty directory of ours behind */
    unlink(path);
    *dir_end = '\0';
    rmdir(path);
  }
  return rc;
}

/* Row statistics and the picture, timed; APP_OK or an exit code after a message. */
static int draw(csr_context *ctx, const csr_matrix *A, const options *o, png_image *img,
                spy_picture *p, timings *t) {
  csr_row_stats st;
  double t0 = app_now();
  csr_status s = csr_row_stats_compute(ctx, A, &st);
  if (s < 0)
    return app_fail_status(APP_RUNTIME, "counting the row lengths", ctx, s);
  if (spy_draw(A, &st, (int)o->size, (int)o->threads, img, p) != 0)
    return app_fail(APP_RUNTIME, "cannot allocate the picture (%lld pixels)",
                    (long long)p->width * p->height);
  t->draw = app_now() - t0;
  return APP_OK;
}

int main(int argc, char **argv) {
  options o;
  if (help_or_version(argc, argv))
    return APP_OK;
  int rc = parse(argc, argv, &o);
  if (rc != APP_OK)
    return rc;
  csr_context *ctx = NULL;
  csr_status s = csr_context_create(&ctx);
  if (s < 0)
    return app_fail(APP_RUNTIME, "cannot create a context: %s", csr_status_string(s));
  csr_matrix *A = NULL;
  png_image img = {0, 0, NULL};
  spy_picture p;
  timings t = {0.0, 0.0, 0.0};
  char out_path[4096];
  if (o.threads > 0 && (s = csr_context_set_threads(ctx, (int)o.threads)) < 0) {
    rc = app_fail_status(APP_RUNTIME, "--threads", ctx, s);
  } else if ((s = app_read_csr(ctx, prog, o.path, NULL, &A, NULL, &t.read)) < 0) {
    rc = app_fail_status(app_exit_code(s), o.path, ctx, s);
  } else if ((rc = draw(ctx, A, &o, &img, &p, &t)) == APP_OK) {
    double t0 = app_now();
    rc = write_picture(&o, &img, out_path, sizeof out_path);
    t.write = app_now() - t0;
  }
  if (rc == APP_OK) {
    if (o.json)
      print_json(&o, &p, app_omp_threads((int)o.threads), &t);
    else
      print_text(&o, &p, &t);
    if (fflush(stdout) != 0 || ferror(stdout))
      rc = app_fail(APP_RUNTIME, "writing the output failed");
  }
  png_image_free(&img);
  csr_matrix_free(&A);
  csr_context_free(&ctx);
  return rc;
}
