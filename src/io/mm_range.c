/* SPDX-License-Identifier: BSD-3-Clause */
/* Byte-range reading of plain Matrix Market files and edge lists (see mm_range.h): the header is
 * read as csr_read_coo reads it, and each range goes through the same line parsers, over a source
 * limited to the lines that begin in it. */
#include "mm_range.h"
#include "mm_lines.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* pread of all n bytes at offset (fewer only at the end of the file: *got). */
static csr_status read_at(csr_context *ctx, const char *path, int fd, char *buf, size_t n,
                          int64_t offset, size_t *got) {
  *got = 0;
  while (*got < n) {
    ssize_t r = pread(fd, buf + *got, n - *got, (off_t)(offset + (int64_t)*got));
    if (r == 0)
      break;
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      return CSRI_FAIL(ctx, CSR_ERR_IO, "%s: read failed: %s", path, strerror(errno));
    *got += (size_t)r;
  }
  return CSR_SUCCESS;
}

static csr_status open_plain(csr_context *ctx, const char *path, int *fd, int64_t *size) {
  struct stat st;
  *fd = open(path, O_RDONLY | O_CLOEXEC);
  if (*fd < 0)
    return CSRI_FAIL(ctx, CSR_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  if (fstat(*fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(*fd);
    *fd = -1;
    return CSRI_FAIL(ctx, CSR_ERR_IO, "%s: not a regular file; a byte range cannot be read", path);
  }
  *size = (int64_t)st.st_size;
  return CSR_SUCCESS;
}

/* Whether the last byte of the file is a line terminator's. */
static csr_status last_byte_ends_line(csr_context *ctx, const char *path, int64_t size, int *ends) {
  int fd = -1;
  int64_t now = 0;
  char c = 0;
  size_t got = 0;
  *ends = 0;
  if (size == 0)
    return CSR_SUCCESS;
  CSRI_TRY(open_plain(ctx, path, &fd, &now));
  csr_status s = read_at(ctx, path, fd, &c, 1, size - 1, &got);
  close(fd);
  *ends = s == CSR_SUCCESS && got == 1 && csri_is_eol(c);
  return s;
}

/* The header of a file already opened as src: the format, the header, where the body begins. */
static csr_status read_header(csr_context *ctx, csri_source *src, const csr_read_options *o,
                              csri_prologue *pro) {
  CSRI_TRY(csri_decide_format(ctx, src, o->format, &pro->format));
  pro->gzip = csri_source_is_gzip(src);
  pro->value_type = o->value_type;
  if (pro->format == CSR_FORMAT_EDGE_LIST) {
    const char *text = NULL;
    size_t size = 0;
    CSRI_TRY(csri_edge_list_head(ctx, src, &pro->edges, &text, &size, &pro->body_first_line));
    /* The comments before the first data line are comment lines of the body too: the ranges
     * start at the file's first byte, and the head only fixes the columns and the SNAP header. */
    pro->body_begin = 0;
    pro->body_first_line = 1;
    if (pro->edges.columns != 3)
      pro->value_type = CSR_PATTERN;
    return CSR_SUCCESS;
  }
  csri_cursor cur = {src, NULL, NULL, 0};
  CSRI_TRY(csri_mm_read_header(ctx, &cur, &pro->header));
  if (pro->header.field == CSR_MM_PATTERN)
    pro->value_type = CSR_PATTERN;
  /* The bytes handed out so far end the current block; its unread rest starts the body. */
  pro->body_begin = csri_source_bytes(src) - (int64_t)(cur.end - cur.p);
  pro->body_first_line = cur.line + 1;
  return CSR_SUCCESS;
}

csr_status csri_read_prologue(csr_context *ctx, const char *path, const csr_read_options *options,
                              csri_prologue *prologue) {
  CSRI_CHECK_NULL(ctx, prologue);
  memset(prologue, 0, sizeof *prologue);
  CSRI_CHECK_NULL(ctx, path);
  csr_read_options defaults;
  csr_read_options_init(&defaults);
  const csr_read_options *o = options ? options : &defaults;
  CSRI_TRY(csri_check_read_options(ctx, o));
  struct stat st;
  /* Standard input and pipes are not read here: what is read of them would be gone for the
   * whole-file read that takes their place. A missing file or a directory goes on, for
   * csr_read_coo's message. */
  if (strcmp(path, "-") == 0)
    prologue->not_range_readable = "standard input";
  else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
    prologue->not_range_readable = "not a regular file";
  if (prologue->not_range_readable)
    return CSR_SUCCESS;
  csri_source *src = NULL;
  CSRI_TRY(csri_source_open_path(ctx, path, o->block_bytes, &src));
  csr_status s = read_header(ctx, src, o, prologue);
  csri_source_close(&src);
  CSRI_TRY(s);
  if (stat(path, &st) != 0)
    return CSRI_FAIL(ctx, CSR_ERR_IO, "%s: cannot stat: %s", path, strerror(errno));
  prologue->size = (int64_t)st.st_size;
  if (prologue->body_begin > prologue->size) /* grew and shrank while read: not the same file */
    return CSRI_FAIL(ctx, CSR_ERR_IO, "%s: the file changed while its header was read", path);
  CSRI_TRY(last_byte_ends_line(ctx, path, prologue->size, &prologue->ends_with_line_end));
  if (prologue->gzip)
    prologue->not_range_readable = "gzip compressed";
  else if (prologue->format == CSR_FORMAT_MATRIX_MARKET && prologue->header.is_array)
    prologue->not_range_readable = "Matrix Market array format (positions follow from order)";
  prologue->range_readable = prologue->not_range_readable == NULL;
  return CSR_SUCCESS;
}

csr_status csri_count_line_ends(csr_context *ctx, const char *path, int64_t begin, int64_t end,
                                int64_t *line_ends) {
  CSRI_CHECK_NULL(ctx, line_ends);
  *line_ends = 0;
  CSRI_CHECK_NULL(ctx, path);
  int fd = -1;
  int64_t size = 0;
  CSRI_TRY(open_plain(ctx, path, &fd, &size));
  csr_status s = CSR_SUCCESS;
  const size_t block = (size_t)1 << 20;
  char *buf = NULL;
  if (begin < 0 || begin > end || end > size)
    s = CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                  "%s: byte range [%lld, %lld) is not within the file's %lld bytes", path,
                  (long long)begin, (long long)end, (long long)size);
  else if ((buf = csri_malloc(block)) == NULL)
    s = CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "read buffer of %zu bytes failed", block);
  char before = 0;
  size_t got = 0;
  if (s == CSR_SUCCESS && begin > 0)
    s = read_at(ctx, path, fd, &before, 1, begin - 1, &got);
  int64_t n = 0;
  for (int64_t at = begin; s == CSR_SUCCESS && at < end; at += (int64_t)got) {
    size_t want = end - at < (int64_t)block ? (size_t)(end - at) : block;
    s = read_at(ctx, path, fd, buf, want, at, &got);
    if (s == CSR_SUCCESS && got < want)
      s = CSRI_FAIL(ctx, CSR_ERR_IO, "%s: the file ended at byte %lld, before %lld", path,
                    (long long)(at + (int64_t)got), (long long)end);
    if (s != CSR_SUCCESS)
      break;
    n += csri_line_ends_begun(buf, buf + got, before);
    before = buf[got - 1];
  }
  csri_free(buf);
  close(fd);
  if (s == CSR_SUCCESS)
    *line_ends = n;
  return s;
}

csr_status csri_read_range(csr_context *ctx, const char *path, const csri_prologue *prologue,
                           int64_t begin, int64_t end, int64_t first_line, int64_t entries_before,
                           csri_entries *out, int64_t *max_id) {
  CSRI_CHECK_NULL(ctx, out);
  memset(out, 0, sizeof *out);
  CSRI_CHECK_NULL(ctx, max_id);
  *max_id = -1;
  CSRI_CHECK_NULL(ctx, path);
  CSRI_CHECK_NULL(ctx, prologue);
  const csri_prologue *pro = prologue;
  out->value_type = pro->value_type;
  if (!pro->range_readable)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "%s: cannot be read in byte ranges (%s)", path,
                     pro->not_range_readable ? pro->not_range_readable : "no prologue");
  if (begin < pro->body_begin || begin > end || end > pro->size)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "%s: byte range [%lld, %lld) is not within the body [%lld, %lld)", path,
                     (long long)begin, (long long)end, (long long)pro->body_begin,
                     (long long)pro->size);
  if (first_line < pro->body_first_line)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "%s: first line %lld is before the body's first line %lld", path,
                     (long long)first_line, (long long)pro->body_first_line);
  csri_source *src = NULL;
  int64_t skipped = 0;
  CSRI_TRY(
      csri_source_open_range(ctx, path, pro->body_begin, begin, end, pro->size, &src, &skipped));
  int64_t line = first_line + skipped;
  csr_status s =
      pro->format == CSR_FORMAT_EDGE_LIST
          ? csri_edge_list_parse(ctx, src, &pro->edges, NULL, 0, &line, out, max_id)
          : csri_mm_parse_lines(ctx, src, &pro->header, NULL, 0, &line, entries_before, out);
  csri_source_close(&src);
  if (s != CSR_SUCCESS) {
    csri_entries_free(out);
    *max_id = -1;
  }
  return s;
}

int64_t csri_range_cut(int64_t body_begin, int64_t size, int parts, int part) {
  if (parts <= 0 || part <= 0 || size <= body_begin)
    return body_begin;
  if (part >= parts)
    return size;
  int64_t length = size - body_begin, share = length / parts, rest = length % parts;
  /* length * part / parts without the product: rest * part < parts^2 fits easily. */
  return body_begin + share * part + rest * part / parts;
}

csr_status csri_range_check_total(csr_context *ctx, const char *path, const csri_prologue *prologue,
                                  int64_t total_entries, int64_t body_line_ends, int64_t max_id,
                                  const csri_entries *all) {
  CSRI_CHECK_NULL(ctx, path);
  CSRI_CHECK_NULL(ctx, prologue);
  const csri_prologue *pro = prologue;
  if (pro->format == CSR_FORMAT_EDGE_LIST)
    return csri_edge_list_check_snap(ctx, path, &pro->edges, total_entries, max_id, all);
  /* Lines that begin in the body: one at body_begin, one after each terminator but a last one
   * that ends the file. */
  int64_t lines = pro->body_begin < pro->size ? body_line_ends + !pro->ends_with_line_end : 0;
  return csri_mm_check_count(ctx, path, &pro->header, total_entries,
                             pro->body_first_line - 1 + lines);
}
