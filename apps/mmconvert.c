/* mmconvert: converts between Matrix Market (.mtx, .mtx.gz) and edge lists (.txt, .el, .edges,
 * optionally .gz): reads IN as CSR (symmetric files expanded, duplicates summed), writes OUT in
 * the format its extension names, gzip-compressed when OUT ends in .gz; optionally as a
 * symmetric file (one triangle) or without values. */
#include "common.h"

#include <stdlib.h>
#include <string.h>

static const char *prog = "mmconvert";

static void usage(void) {
  printf(
      "Usage: mmconvert IN OUT [--symmetric] [--pattern] [--verbose]\n"
      "\n"
      "Reads IN and writes it to OUT. OUT's extension names the format written: .txt, .el,\n"
      ".edges (optionally .gz) an edge list, anything else Matrix Market; OUT is\n"
      "gzip-compressed when it ends in .gz. \"-\" is standard input or standard output.\n"
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
  int out_edges = app_is_edge_list_path(out);
  if (symmetric && out_edges)
    return app_usage_error(prog, "--symmetric needs Matrix Market output; '%s' is an edge list",
                           out);

  csr_context *ctx = NULL;
  csr_status s = csr_context_create(&ctx);
  if (s != CSR_SUCCESS)
    return app_fail(APP_RUNTIME, "cannot create a context: %s", csr_status_string(s));
  int rc = APP_OK;
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
          out_edges ? "edge list" : "matrix market", app_ends_with(out, ".gz") ? " gzip" : "",
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
