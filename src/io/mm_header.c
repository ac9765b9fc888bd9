/* SPDX-License-Identifier: BSD-3-Clause */
/* Matrix Market header: "%%MatrixMarket object format field symmetry", comments, size line. */
#include "mm_format.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "io/decimal/mm_number.h"

void csri_describe_token(const char *p, const char *end, char *out, size_t size) {
  size_t n = 0;
  if (p >= end || csri_is_eol(*p)) {
    snprintf(out, size, "the end of the line");
    return;
  }
  out[n++] = '\'';
  while (p < end && !csri_is_blank(*p) && !csri_is_eol(*p) && n + 5 < size && n < 25) {
    unsigned char c = (unsigned char)*p++;
    out[n++] = (c >= 32 && c < 127) ? (char)c : '?';
  }
  if (p < end && !csri_is_blank(*p) && !csri_is_eol(*p) && n + 4 < size)
    out[n++] = '.', out[n++] = '.', out[n++] = '.';
  out[n++] = '\'';
  out[n] = '\0';
}

csr_status csri_cursor_line(csr_context *ctx, csri_cursor *cur, const char **begin,
                            const char **end) {
  while (cur->p == cur->end) {
    size_t size = 0;
    CSRI_TRY(csri_source_next(ctx, cur->src, cur->line + 1, &cur->p, &size));
    cur->end = cur->p + size;
    if (size == 0) {
      *begin = *end = NULL;
      return CSR_SUCCESS;
    }
  }
  const char *p = cur->p;
  while (p < cur->end && !csri_is_eol(*p))
    p++;
  *begin = cur->p;
  *end = p;
  /* Step over "\n", "\r\n" or "\r": the source never splits a CRLF between blocks. */
  if (p < cur->end && *p++ == '\r' && p < cur->end && *p == '\n')
    p++;
  cur->p = p;
  cur->line++;
  return CSR_SUCCESS;
}

/* Splits a line into at most max blank-separated words; returns how many there were. */
static int split_words(const char *b, const char *e, const char **word, size_t *len, int max) {
  int n = 0;
  while (b < e) {
    while (b < e && csri_is_blank(*b))
      b++;
    if (b == e)
      break;
    const char *w = b;
    while (b < e && !csri_is_blank(*b))
      b++;
    if (n < max) {
      word[n] = w;
      len[n] = (size_t)(b - w);
    }
    n++;
  }
  return n;
}

static int word_is(const char *w, size_t len, const char *name) {
  return strlen(name) == len && strncasecmp(w, name, len) == 0;
}

/* Index of w among names (case-insensitive), or -1. */
static int pick(const char *w, size_t len, const char *const *names, int count) {
  for (int i = 0; i < count; i++)
    if (word_is(w, len, names[i]))
      return i;
  return -1;
}

static csr_status banner_words(csr_context *ctx, const char *path, int64_t line, const char *b,
                               const char *e, csri_mm_header *h) {
  static const char *const objects[] = {"matrix", "vector"};
  static const char *const formats[] = {"coordinate", "array"};
  static const char *const fields[] = {"real", "integer", "pattern", "complex", "double"};
  static const char *const symmetries[] = {"general", "symmetric", "skew-symmetric", "hermitian"};
  const char *w[6];
  size_t n[6];
  int count = split_words(b, e, w, n, 6);
  if (count != 5)
    return CSRI_FAIL(ctx, CSR_ERR_PARSE,
                     "%s:%lld: expected a banner of 5 words '%%%%MatrixMarket object format field "
                     "symmetry', found %d words",
                     path, (long long)line, count);
  int object = pick(w[1], n[1], objects, 2), format = pick(w[2], n[2], formats, 2);
  int field = pick(w[3], n[3], fields, 5), symmetry = pick(w[4], n[4], symmetries, 4);
  const char *bad = object < 0     ? "object (matrix or vector)"
                    : format < 0   ? "format (coordinate or array)"
                    : field < 0    ? "field (real, double, integer, pattern or complex)"
                    : symmetry < 0 ? "symmetry (general, symmetric, skew-symmetric or hermitian)"
                                   : NULL;
  if (bad) {
    int k = object < 0 ? 1 : format < 0 ? 2 : field < 0 ? 3 : 4;
    return CSRI_FAIL(ctx, CSR_ERR_PARSE, "%s:%lld: expected a banner %s, found '%.*s'", path,
                     (long long)line, bad, (int)(n[k] < 40 ? n[k] : 40), w[k]);
  }
  h->is_vector = object == 1;
  h->is_array = format == 1;
  h->field = field == 4 ? CSR_MM_REAL : (csr_mm_field)field;
  h->symmetry = (csr_mm_symmetry)symmetry;
  return CSR_SUCCESS;
}

/* Combinations the format does not allow, and the one libcsr does not support. */
static csr_status check_combination(csr_context *ctx, const char *path, int64_t line,
                                    csri_mm_header *h) {
  const char *why = NULL;
  if (h->is_array && h->field == CSR_MM_PATTERN)
    why = "'array pattern' (an array stores values)";
  else if (h->field == CSR_MM_PATTERN && h->symmetry == CSR_MM_HERMITIAN)
    why = "'pattern hermitian'";
  else if (h->field == CSR_MM_PATTERN && h->symmetry == CSR_MM_SKEW_SYMMETRIC)
    why = "'pattern skew-symmetric' (a pattern has no sign to flip)";
  else if (h->is_vector && h->symmetry != CSR_MM_GENERAL)
    why = "a vector that is not 'general'";
  if (why)
    return CSRI_FAIL(ctx, CSR_ERR_PARSE, "%s:%lld: invalid banner: %s is not a valid combination",
                     path, (long long)line, why);
  if (h->field == CSR_MM_COMPLEX)
    return CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED,
                     "%s:%lld: the complex field is not supported: libcsr's matrices are real",
                     path, (long long)line);
  if (h->symmetry == CSR_MM_HERMITIAN)
    h->symmetry = CSR_MM_SYMMETRIC; /* real hermitian is real symmetric */
  return CSR_SUCCESS;
}

/* The size line: numbers as the object and format require, each in range. */
static csr_status size_line(csr_context *ctx, const char *path, int64_t line, const char *b,
                            const char *e, csri_mm_header *h) {
  static const char *const names[] = {"rows", "columns", "entries"};
  int want = h->is_vector ? (h->is_array ? 1 : 2) : (h->is_array ? 2 : 3);
  int64_t v[3] = {0, 0, 0};
  const char *p = b;
  for (int k = 0; k < want; k++) {
    while (p < e && csri_is_blank(*p))
      p++;
    int name = h->is_vector && k == 1 ? 2 : k, status = 0;
    char found[40];
    csri_describe_token(p, e, found, sizeof found);
    const char *q = csri_parse_int64(p, e, &v[k], &status);
    if (status == CSRI_NUM_OUT_OF_RANGE)
      return CSRI_FAIL(ctx, CSR_ERR_OVERFLOW,
                       "%s:%lld: the number of %s %s does not fit in 64 bits (libcsr allows at "
                       "most %lld rows and columns)",
                       path, (long long)line, names[name], found, (long long)CSR_MAX_DIM);
    if (status != 0 || (q < e && !csri_is_blank(*q)))
      return CSRI_FAIL(ctx, CSR_ERR_PARSE,
                       "%s:%lld: expected %d integers on the size line, found %s as the number of "
                       "%s",
                       path, (long long)line, want, found, names[name]);
    if (v[k] < 0)
      return CSRI_FAIL(ctx, CSR_ERR_PARSE, "%s:%lld: the number of %s is negative (%lld)", path,
                       (long long)line, names[name], (long long)v[k]);
    p = q;
  }
  while (p < e && csri_is_blank(*p))
    p++;
  if (p < e) {
    char found[40];
    csri_describe_token(p, e, found, sizeof found);
    return CSRI_FAIL(ctx, CSR_ERR_PARSE,
                     "%s:%lld: expected %d integers on the size line, found more: %s", path,
                     (long long)line, want, found);
  }
  h->rows = v[0];
  h->cols = h->is_vector ? 1 : v[1];
  int64_t declared = h->is_vector ? v[1] : v[2];
  if (h->rows > CSR_MAX_DIM || h->cols > CSR_MAX_DIM)
    return CSRI_FAIL(ctx, CSR_ERR_OVERFLOW,
                     "%s:%lld: %lld x %lld exceeds libcsr's limit of %lld rows and columns", path,
                     (long long)line, (long long)h->rows, (long long)h->cols,
                     (long long)CSR_MAX_DIM);
  if (h->symmetry != CSR_MM_GENERAL && h->rows != h->cols)
    return CSRI_FAIL(ctx, CSR_ERR_PARSE, "%s:%lld: a %s matrix must be square, found %lld x %lld",
                     path, (long long)line,
                     h->symmetry == CSR_MM_SKEW_SYMMETRIC ? "skew-symmetric" : "symmetric",
                     (long long)h->rows, (long long)h->cols);
  if (!h->is_array)
    h->entries = declared;
  else if (h->symmetry == CSR_MM_GENERAL)
    h->entries = h->rows * h->cols; /* < 2^62: no overflow */
  else /* one triangle, column by column; skew omits the zero diagonal */
    h->entries = h->symmetry == CSR_MM_SKEW_SYMMETRIC ? h->rows * (h->rows - 1) / 2
                                                      : h->rows * (h->rows + 1) / 2;
  return CSR_SUCCESS;
}

csr_status csri_mm_read_header(csr_context *ctx, csri_cursor *cur, csri_mm_header *h) {
  const char *path = csri_source_name(cur->src), *b, *e;
  memset(h, 0, sizeof *h);
  do { /* blank lines before the banner are allowed */
    CSRI_TRY(csri_cursor_line(ctx, cur, &b, &e));
    while (b && b < e && csri_is_blank(*b))
      b++;
  } while (b && b == e);
  if (b == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_PARSE,
                     "%s:%lld: expected the banner '%%%%MatrixMarket ...', found an empty file",
                     path, (long long)(cur->line > 0 ? cur->line : 1)); /* lines count from 1 */
  /* "%%MatrixMarket", also "%MatrixMarket", in any case. */
  const char *w = b + (e - b > 1 && b[1] == '%' ? 2 : 1);
  if (*b != '%' || e - w < 12 || strncasecmp(w, "MatrixMarket", 12) != 0 ||
      (w + 12 < e && !csri_is_blank(w[12]))) {
    char found[40];
    csri_describe_token(b, e, found, sizeof found);
    return CSRI_FAIL(ctx, CSR_ERR_PARSE,
                     "%s:%lld: expected the banner '%%%%MatrixMarket matrix ...', found %s", path,
                     (long long)cur->line, found);
  }
  CSRI_TRY(banner_words(ctx, path, cur->line, b, e, h));
  CSRI_TRY(check_combination(ctx, path, cur->line, h));
  for (;;) { /* comments and blank lines, then the size line */
    CSRI_TRY(csri_cursor_line(ctx, cur, &b, &e));
    if (b == NULL)
      return CSRI_FAIL(ctx, CSR_ERR_PARSE,
                       "%s:%lld: expected the size line, found the end of "
                       "the file",
                       path, (long long)cur->line);
    while (b < e && csri_is_blank(*b))
      b++;
    if (b < e && *b != '%')
      return size_line(ctx, path, cur->line, b, e, h);
  }
}
