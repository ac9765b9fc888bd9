/* SPDX-License-Identifier: BSD-3-Clause */
/* mmconvert: converts between Matrix Market (.mtx, .mm) and edge lists (.txt, .el, .edges), each
 * optionally .gz: reads IN as CSR (symmetric files expanded, duplicates summed), writes OUT in the
 * format its extension names, gzip-compressed when OUT ends in .gz; optionally as a symmetric
 * file (one triangle) or without values. Any other name for OUT is refused before IN is read. */
#include "common.h"

#include <stdlib.h>
#include <string.h>

static const char *prog = "mmconvert";

static void usage(void) {
  printf(
      "Usage: mmconvert IN OUT [--symmetric] [--pattern] [--verbose]\n"
      "\n"
      "Reads IN and writes it to OUT. OUT's extension names the format written: .mtx or .mm\n"
      "Matrix Market, .txt, .el or .edges an edge list, each optionally followed by .gz (gzip\n"
      "compression, the only one written). Any other name is refused (exit 1). \"-\" is\n"
      "standard input, or standard output (Matrix Market, not compressed).\n"
      "\n"
      "Options:\n"
      "  --symmetric  write a Matrix Market 'symmetric' file (the lower triangle); refused\n"
      "               (exit 2) when the matrix is not symmetric; Matrix Market output only\n"
      "  --pattern    drop the values (write 'pattern' / 'from to' lines)\n" APP_VERBOSE_HELP
      "  --help       this text\n"
      "  --version    library version and the backends compiled in\n"
      "\n"
      "The model:\n"
      "  IN is assembled as CSR: symmetric and skew-symmetric files expanded to general, "
      "duplicate\n"
      "  entries summed, columns sorted, explicit zeros kept. Matrix Market output is\n"
      "  'coordinate' with field 'integer' when IN was integer, 'pattern' when IN was pattern or\n"
      "  --pattern is given, else 'real' with each value in the shortest decimal that reads back\n"
      "  to the same double. Edge lists are 0-based 'from to [weight]' lines and record no\n"
      "  size: reading one back gives N x N with N = largest node id + 1 (a warning says when\n"
      "  that differs from the matrix written).\n"
      "  A one-line summary goes to standard error.\n"
      "\n" APP_INPUT_HELP "\n" APP_EXIT_HELP);
}

/* A pattern copy of A (same structure, no values), for --pattern: the symmetry check of
 * --symmetric then looks at the structure only. */
static csr_status pattern_copy(csr_context *ctx, const csr_matrix *A, csr_matrix **P) {
  csr_status s = csr_matrix_create(ctx, P, A->rows, A->cols, A->nnz, CSR_PATTERN, CSR_HOST);
  if (s < 0)
    return s;
  memcpy((*P)->row_offsets, A->row_offsets, (size_t)(A->rows + 1) * sizeof(int64_t));
  if (A->nnz > 0)
    memcpy((*P)->col_indices, A->col_indices, (size_t)A->nnz * sizeof(int32_t));
  (*P)->flags = A->flags;
  return CSR_SUCCESS;
}

/* The N x N shape an edge list of A reads back as (N = largest index used + 1). */
static int64_t edge_list_order(const csr_matrix *A) {
  int64_t top = -1;
  for (int64_t i = 0; i < A->rows; i++)
    if (A->row_offsets[i + 1] > A->row_offsets[i])
      top = i > top ? i : top;
  for (int64_t k = 0; k < A->nnz; k++)
    top = A->col_indices[k] > top ? A->col_indices[k] : top;
  return top + 1;
}

/* The extensions OUT may end in (then optionally .gz), for the messages. */
#define OUT_EXTENSIONS                                                                             \
  ".mtx or .mm (Matrix Market), .txt, .el or .edges (edge list), each optionally followed by .gz"

/* Compressions mmconvert cannot write, by the extension that would ask for them. */
static const struct {
  const char *ext, *name;
} unwritable_compression[] = {
    {".bz2", "bzip2"}, {".xz", "xz"},     {".zst", "zstd"},  {".zstd", "zstd"},
    {".lz4", "lz4"},   {".lzma", "lzma"}, {".lz", "lzip"},   {".Z", "Unix compress"},
    {".zip", "zip"},   {".7z", "7-Zip"},  {".br", "brotli"},
};

/* OUT's format from its name: *edges 1 for an edge list, 0 for Matrix Market; *gzip 1 when it
 * ends in .gz. APP_OK, or APP_USAGE after a message naming the extension and those written. */
static int out_format(const char *out, int *edges, int *gzip) {
  *edges = 0;
  *gzip = 0;
  if (strcmp(out, "-") == 0)
    return APP_OK;
  for (size_t i = 0; i < sizeof unwritable_compression / sizeof unwritable_compression[0]; i++)
    if (app_ends_with(out, unwritable_compression[i].ext))
      return app_usage_error(prog,
                             "cannot compress with %s ('%s'): gzip is the only compression "
                             "mmconvert writes; end OUT in .gz instead of %s (or compress the "
                             "file it writes yourself). OUT must end in " OUT_EXTENSIONS,
                             unwritable_compression[i].name, out, unwritable_compression[i].ext);
  *gzip = app_ends_with(out, ".gz");
  *edges = app_is_edge_list_path(out);
  size_t n = strlen(out) - (*gzip ? 3 : 0); /* the name without .gz */
  if (*edges || (n > 4 && strncmp(out + n - 4, ".mtx", 4) == 0) ||
      (n > 3 && strncmp(out + n - 3, ".mm", 3) == 0))
    return APP_OK;
  /* The extension refused: from the last '.' of the file name (before .gz) to the end. */
  const char *base = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
  const char *dot = NULL;
  for (const char *c = base; c < out + n; c++)
    if (*c == '.' && c > base)
      dot = c;
  if (dot == NULL)
    return app_usage_error(
        prog, "'%s' has no extension to name the format to write: OUT must end in " OUT_EXTENSIONS,
        out);
  return app_usage_error(prog, "cannot write '%s' files ('%s'): OUT must end in " OUT_EXTENSIONS,
                         dot, out);
}

static const char *describe_input(const csr_file_info *info, char *buf, size_t size) {
  if (info->format == CSR_FORMAT_EDGE_LIST)
    snprintf(buf, size, "edge list%s, %s", info->gzip ? " gzip" : "",
             info->field == CSR_MM_PATTERN ? "pattern" : "weighted");
  else
    snprintf(buf, size, "matrix market%s, %s %s", info->gzip ? " gzip" : "",
             app_field_name(info->field), app_symmetry_name(info->symmetry));
  return buf;
}

int main(int argc, char **argv) {
  const char *in = NULL, *out = NULL;
  int symmetric = 0, pattern = 0, only_files = 0;
  app_report_init(prog, argc, argv);
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (!only_files && strcmp(arg, "--help") == 0) {
      usage();
      return APP_OK;
    } else if (!only_files && strcmp(arg, "--version") == 0) {
      app_print_version(prog);
      return APP_OK;
    } else if (!only_files && strcmp(arg, "--symmetric") == 0) {
      symmetric = 1;
    } else if (!only_files && strcmp(arg, "--pattern") == 0) {
      pattern = 1;
    } else if (!only_files && strcmp(arg, "--verbose") == 0) {
      continue; /* read by app_report_init */
    } else if (!only_files && strcmp(arg, "--") == 0) {
      only_files = 1;
    } else if (!only_files && arg[0] == '-' && arg[1] != '\0') {
      return app_usage_error(prog, "unknown option '%s'", arg);
    } else if (in == NULL) {
      in = arg;
    } else if (out == NULL) {
      out = arg;
    } else {
      return app_usage_error(prog, "two files only: IN and OUT (extra '%s')", arg);
    }
  }
  if (in == NULL || out == NULL)
    return app_usage_error(prog, "missing %s", in == NULL ? "IN and OUT" : "OUT");
  int out_edges = 0, out_gzip = 0;
  int rc = out_format(out, &out_edges, &out_gzip);
  if (rc != APP_OK)
    return rc;
  if (symmetric && out_edges)
    return app_usage_error(prog, "--symmetric needs Matrix Market output; '%s' is an edge list",
                           out);

  csr_context *ctx = NULL;
  csr_status s = csr_context_create(&ctx);
  if (s != CSR_SUCCESS)
    return app_fail(APP_RUNTIME, "cannot create a context: %s", csr_status_string(s));
  csr_matrix *A = NULL, *P = NULL;
  csr_file_info info;
  double t0 = app_now();
  s = app_read_csr(ctx, prog, in, NULL, &A, &info, NULL);
  if (s < 0) {
    rc = app_fail_status(app_exit_code(s), in, ctx, s);
    goto done;
  }
  if (pattern && A->value_type != CSR_PATTERN) {
    if ((s = pattern_copy(ctx, A, &P)) < 0) {
      rc = app_fail_status(APP_RUNTIME, "dropping the values", ctx, s);
      goto done;
    }
  }
  const csr_matrix *M = P ? P : A;
  csr_write_options wo;
  csr_write_options_init(&wo);
  wo.symmetric = symmetric;
  wo.pattern = pattern;
  wo.integer = info.field == CSR_MM_INTEGER && !pattern;
  wo.gzip = out_gzip;
  int64_t order = 0;
  if (out_edges) {
    order = edge_list_order(M);
    if (order != M->rows || order != M->cols)
      app_warn("an edge list records no size: %s will read back as %lld x %lld, not %lld x %lld",
               out, (long long)order, (long long)order, (long long)M->rows, (long long)M->cols);
    s = csr_write_edge_list(ctx, out, M, &wo);
  } else {
    s = csr_write_mm(ctx, out, M, &wo);
  }
  if (s < 0) {
    /* A matrix that cannot be written as asked is bad input; a failed write is not. */
    rc = app_fail_status(s == CSR_ERR_IO ? APP_RUNTIME : app_exit_code(s), out, ctx, s);
    goto done;
  }
  char what[96];
  int64_t written = M->nnz;
  if (symmetric) { /* the lower triangle */
    written = 0;
    for (int64_t i = 0; i < M->rows; i++)
      for (int64_t k = M->row_offsets[i]; k < M->row_offsets[i + 1]; k++)
        written += M->col_indices[k] <= i;
  }
  fprintf(stderr, "%s: %s (%s, %lld x %lld, %lld stored) -> %s (%s%s, %s%s, %lld %s) in %.3f s\n",
          prog, in, describe_input(&info, what, sizeof what), (long long)info.rows,
          (long long)info.cols, (long long)info.stored_entries, out,
          out_edges ? "edge list" : "matrix market", out_gzip ? " gzip" : "",
          M->value_type == CSR_PATTERN || pattern ? "pattern"
          : wo.integer                            ? "integer"
                                                  : "real",
          out_edges ? "" : (symmetric ? " symmetric" : " general"), (long long)written,
          out_edges ? "edges" : "entries", app_now() - t0);
done:
  csr_matrix_free(&P);
  csr_matrix_free(&A);
  csr_context_free(&ctx);
  return rc;
}
