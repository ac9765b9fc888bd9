/* SPDX-License-Identifier: BSD-3-Clause */
/* Read a Matrix Market file or an edge list into COO triples (or CSR): open, detect, parse,
 * expand symmetry, hand the arrays to a csr_coo. */
#include "io/decimal/mm_number.h"
#include "mm_blocks.h"
#include "ops/ops.h"

#include <string.h>
#include <strings.h>

void csr_read_options_init(csr_read_options *options) {
  if (options == NULL)
    return;
  memset(options, 0, sizeof *options);
  options->format = CSR_FORMAT_AUTO;
  options->value_type = CSR_F64;
}

static int ends_with(const char *s, size_t len, const char *suffix) {
  size_t n = strlen(suffix);
  return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* What a name says: .mtx and .mm (also .gz) Matrix Market; .txt, .el and .edges (also .gz) an
 * edge list; anything else (standard input's "-", a buffer's name, other extensions) nothing. */
static csr_file_format format_named(const char *name) {
  size_t len = strlen(name);
  if (ends_with(name, len, ".gz"))
    len -= 3;
  if (ends_with(name, len, ".txt") || ends_with(name, len, ".el") || ends_with(name, len, ".edges"))
    return CSR_FORMAT_EDGE_LIST;
  if (ends_with(name, len, ".mtx") || ends_with(name, len, ".mm"))
    return CSR_FORMAT_MATRIX_MARKET;
  return CSR_FORMAT_AUTO;
}

/* The first character of text that is not white space or a line break (NULL when there is
 * none); *line is its line's number. */
static const char *first_content(const char *text, size_t size, int64_t *line) {
  const char *p = text, *end = text + size;
  *line = 1;
  for (;;) {
    while (p < end && csri_is_blank(*p))
      p++;
    if (p == end)
      return NULL;
    if (!csri_is_eol(*p))
      return p;
    p += p + 1 < end && p[0] == '\r' && p[1] == '\n' ? 2 : 1; /* a blank line */
    ++*line;
  }
}

/* 1 when p, the start of a line's content, is the Matrix Market banner ("%%MatrixMarket", also
 * "%MatrixMarket", in any case: what the header parser takes). */
static int is_banner(const char *p, const char *end) {
  if (p < end && *p == '%')
    p++;
  if (p < end && *p == '%')
    p++;
  return end - p >= 12 && strncasecmp(p, "MatrixMarket", 12) == 0;
}

/* 1 when p, the start of a line's content, can start an edge list: a comment ('#' or '%'), or
 * two integers (node ids; the edge list parser says what is wrong with them, if anything). */
static int is_edge_list_start(const char *p, const char *end) {
  if (*p == '#' || *p == '%')
    return 1;
  for (int word = 0; word < 2; word++) {
    int64_t id = 0;
    int status = 0;
    const char *q = csri_parse_int64(p, end, &id, &status);
    if (status == CSRI_NUM_SYNTAX || (q < end && !csri_is_blank(*q) && !csri_is_eol(*q)))
      return 0;
    p = csri_skip_blanks(q, end);
  }
  return 1;
}

/* The format to read, told by the content first: a file whose first line is the Matrix Market
 * banner is Matrix Market whatever its name; one asked to be read as an edge list is refused
 * (the banner would pass as a comment and the size line as an edge). Without the banner: the
 * format asked for, else the one the name says, else an edge list when the first line can start
 * one (standard input and names that say nothing are told by their content alone; other content
 * is refused naming both formats, and empty input as an empty file).
 * A .mtx file without the banner is read as Matrix Market, so that the parser says what it found
 * instead. */
csr_status csri_decide_format(csr_context *ctx, csri_source *src, csr_file_format asked,
                              csr_file_format *format) {
  const char *text = NULL;
  size_t size = 0;
  int64_t line = 1;
  CSRI_TRY(csri_source_peek(ctx, src, &text, &size));
  const char *content = first_content(text, size, &line); /* NULL: the input is blank */
  if (content != NULL && is_banner(content, text + size)) {
    if (asked == CSR_FORMAT_EDGE_LIST)
      return CSRI_FAIL(ctx, CSR_ERR_PARSE,
                       "%s:%lld: the Matrix Market banner, in a file to be read as an edge list "
                       "(its size line would become an edge); read it as Matrix Market",
                       csri_source_name(src), (long long)line);
    *format = CSR_FORMAT_MATRIX_MARKET;
    return CSR_SUCCESS;
  }
  csr_file_format named = format_named(csri_source_name(src));
  *format = asked != CSR_FORMAT_AUTO   ? asked
            : named != CSR_FORMAT_AUTO ? named
            : content == NULL          ? CSR_FORMAT_MATRIX_MARKET /* refused: "an empty file" */
                                       : CSR_FORMAT_EDGE_LIST;
  if (asked == CSR_FORMAT_AUTO && named == CSR_FORMAT_AUTO && content != NULL &&
      !is_edge_list_start(content, text + size)) {
    char found[40];
    csri_describe_token(content, text + size, found, sizeof found);
    return CSRI_FAIL(ctx, CSR_ERR_PARSE,
                     "%s:%lld: neither a Matrix Market banner (%%%%MatrixMarket ...) nor an edge "
                     "list line (two node ids), found %s; name the file .mtx or .txt, or set "
                     "csr_read_options.format, to read it as one of them",
                     csri_source_name(src), (long long)line, found);
  }
  return CSR_SUCCESS;
}

/* Moves the arrays of e into a new COO descriptor (trimmed to the entries read). */
static csr_status adopt(csr_context *ctx, csri_entries *e, int64_t rows, int64_t cols,
                        csr_coo **T) {
  CSRI_TRY(csri_check_shape(ctx, rows, cols, e->count));
  csr_coo *M = csri_calloc(1, sizeof *M);
  if (M == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "COO descriptor allocation failed");
  if (e->capacity > e->count) { /* shrinking cannot fail in practice; keep the old on failure */
    void *p;
    if ((p = csri_realloc(e->rows, (size_t)e->count * 4 + 4)))
      e->rows = p;
    if ((p = csri_realloc(e->cols, (size_t)e->count * 4 + 4)))
      e->cols = p;
    if (e->values &&
        (p = csri_realloc(e->values, (size_t)e->count * csri_value_size(e->value_type) + 8)))
      e->values = p;
  }
  M->rows = rows;
  M->cols = cols;
  M->nnz = e->count;
  M->row_indices = e->rows;
  M->col_indices = e->cols;
  M->values = e->values;
  M->value_type = e->value_type;
  M->location = CSR_HOST;
  e->rows = e->cols = NULL;
  e->values = NULL;
  *T = M;
  return CSR_SUCCESS;
}

static csr_status read_matrix_market(csr_context *ctx, csri_source *src, const csr_read_options *o,
                                     csri_entries *e, csr_file_info *info) {
  csri_cursor cur = {src, NULL, NULL, 0};
  csri_mm_header h;
  CSRI_TRY(csri_mm_read_header(ctx, &cur, &h));
  if (h.field == CSR_MM_PATTERN)
    e->value_type = CSR_PATTERN;
  CSRI_TRY(csri_mm_read_body(ctx, &cur, &h, e));
  info->stored_entries = e->count;
  if (!o->keep_symmetry && h.symmetry != CSR_MM_GENERAL)
    CSRI_TRY(csri_entries_expand(ctx, e, h.symmetry));
  info->is_array = h.is_array;
  info->is_vector = h.is_vector;
  info->field = h.field;
  info->symmetry = h.symmetry;
  info->rows = h.rows;
  info->cols = h.cols;
  return CSR_SUCCESS;
}

static csr_status read_edge_list(csr_context *ctx, csri_source *src, csri_entries *e,
                                 csr_file_info *info) {
  int weighted = 0;
  int64_t max_id = -1;
  CSRI_TRY(csri_edge_list_read(ctx, src, e, &weighted, &max_id));
  info->field = weighted ? CSR_MM_REAL : CSR_MM_PATTERN;
  info->symmetry = CSR_MM_GENERAL;
  info->rows = info->cols = max_id + 1;
  info->stored_entries = e->count;
  return CSR_SUCCESS;
}

static csr_status read_source(csr_context *ctx, csri_source *src, const csr_read_options *o,
                              csr_coo **T, csr_file_info *info) {
  csri_entries e = {NULL, NULL, NULL, o->value_type, 0, 0};
  csr_file_format format = CSR_FORMAT_AUTO;
  memset(info, 0, sizeof *info);
  CSRI_TRY(csri_decide_format(ctx, src, o->format, &format));
  info->format = format;
  csr_status s = format == CSR_FORMAT_EDGE_LIST ? read_edge_list(ctx, src, &e, info)
                                                : read_matrix_market(ctx, src, o, &e, info);
  if (s == CSR_SUCCESS)
    s = adopt(ctx, &e, info->rows, info->cols, T);
  info->entries = *T ? (*T)->nnz : 0;
  info->gzip = csri_source_is_gzip(src);
  info->bytes = csri_source_bytes(src);
  csri_entries_free(&e);
  return s;
}

csr_status csri_check_read_options(csr_context *ctx, const csr_read_options *o) {
  if (o->value_type != CSR_F64 && o->value_type != CSR_F32)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "read value type must be CSR_F64 or CSR_F32");
  if (o->format < CSR_FORMAT_AUTO || o->format > CSR_FORMAT_EDGE_LIST)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "unknown file format %d", (int)o->format);
  return CSR_SUCCESS;
}

csr_status csr_read_coo(csr_context *ctx, const char *path, const csr_read_options *options,
                        csr_coo **T, csr_file_info *info) {
  CSRI_CHECK_NULL(ctx, T);
  *T = NULL;
  CSRI_CHECK_NULL(ctx, path);
  csr_read_options defaults;
  csr_file_info scratch;
  csr_read_options_init(&defaults);
  const csr_read_options *o = options ? options : &defaults;
  CSRI_TRY(csri_check_read_options(ctx, o));
  csri_source *src = NULL;
  CSRI_TRY(csri_source_open_path(ctx, path, o->block_bytes, &src));
  csr_status s = read_source(ctx, src, o, T, info ? info : &scratch);
  csri_source_close(&src);
  if (s == CSR_SUCCESS)
    csri_set_last_backend(ctx, csri_host_backend(ctx));
  return s;
}

csr_status csr_read_coo_buffer(csr_context *ctx, const char *data, size_t size, const char *name,
                               const csr_read_options *options, csr_coo **T, csr_file_info *info) {
  CSRI_CHECK_NULL(ctx, T);
  *T = NULL;
  if (data == NULL && size > 0)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "argument 'data' is NULL");
  csr_read_options defaults;
  csr_file_info scratch;
  csr_read_options_init(&defaults);
  const csr_read_options *o = options ? options : &defaults;
  CSRI_TRY(csri_check_read_options(ctx, o));
  csri_source *src = NULL;
  CSRI_TRY(csri_source_open_buffer(ctx, data, size, name, o->block_bytes, &src));
  csr_status s = read_source(ctx, src, o, T, info ? info : &scratch);
  csri_source_close(&src);
  return s;
}

csr_status csr_read_csr(csr_context *ctx, const char *path, const csr_read_options *options,
                        csr_matrix **A, csr_file_info *info) {
  CSRI_CHECK_NULL(ctx, A);
  *A = NULL;
  csr_coo *T = NULL;
  CSRI_TRY(csr_read_coo(ctx, path, options, &T, info));
  csr_status s = csri_from_coo_take(ctx, T, 0, A); /* T is ours: its arrays may become A's */
  csr_coo_free(&T);
  return s;
}
