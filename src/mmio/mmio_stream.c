/* SPDX-License-Identifier: BSD-3-Clause */
/* NIST mmio on a stream: lines, and the size line "M N nz" (coordinate) or "M N" (array) read
 * and written. */
#include "mmio_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void csri_mmio_line_free(csri_mmio_line *line) {
  free(line->text);
  line->text = NULL;
  line->len = line->cap = 0;
}

static int append(csri_mmio_line *line, char c) {
  if (line->len + 1 >= line->cap) {
    size_t cap = line->cap ? 2 * line->cap : 128;
    char *grown = cap > line->cap ? realloc(line->text, cap) : NULL;
    if (grown == NULL)
      return 0;
    line->text = grown;
    line->cap = cap;
  }
  line->text[line->len++] = c;
  line->text[line->len] = '\0';
  return 1;
}

int csri_mmio_read_line(FILE *f, csri_mmio_line *line) {
  line->len = 0;
  if (!append(line, 'x')) /* room for the terminating NUL */
    return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "out of memory reading a line");
  line->len = 0;
  line->text[0] = '\0';
  int c, any = 0;
  while ((c = getc(f)) != EOF) {
    any = 1;
    if (c == '\n')
      return 0;
    if (c == '\r') { /* "\r\n" or a bare "\r" */
      int next = getc(f);
      if (next != '\n' && next != EOF)
        ungetc(next, f);
      return 0;
    }
    if (!append(line, (char)c))
      return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "out of memory reading a line");
  }
  if (ferror(f))
    return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "the stream failed");
  return any ? 0 : EOF;
}

/* Parses count integers in [0, INT_MAX] and nothing else from the line into v. */
static int parse_size(const char *p, int count, int *v) {
  for (int k = 0; k < count; k++) {
    while (*p == ' ' || *p == '\t' || *p == '\v' || *p == '\f')
      p++;
    if (*p < '0' || *p > '9') /* also refuses a sign: sizes are never negative */
      return csri_mmio_fail(MM_PREMATURE_EOF, "size line: expected %d integers", count);
    long long x = 0;
    for (; *p >= '0' && *p <= '9'; p++)
      if ((x = x * 10 + (*p - '0')) > INT_MAX)
        return csri_mmio_fail(MM_UNSUPPORTED_TYPE, "size line: a number past %d", INT_MAX);
    if (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\v' && *p != '\f')
      return csri_mmio_fail(MM_PREMATURE_EOF, "size line: expected %d integers", count);
    v[k] = (int)x;
  }
  p += strspn(p, " \t\v\f");
  if (*p != '\0')
    return csri_mmio_fail(MM_PREMATURE_EOF, "size line: more than %d numbers", count);
  return 0;
}

/* Skips comment and blank lines, then parses the size line. */
static int read_size(FILE *f, int count, int *v) {
  if (f == NULL)
    return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "size line: a NULL stream");
  csri_mmio_line line = {NULL, 0, 0};
  int code;
  do {
    code = csri_mmio_read_line(f, &line);
  } while (code == 0 && csri_mmio_skippable(line.text, line.len));
  if (code == EOF)
    code = csri_mmio_fail(MM_PREMATURE_EOF, "size line: found the end of the input");
  else if (code == 0 && line.len >= MM_MAX_LINE_LENGTH)
    code = csri_mmio_fail(MM_LINE_TOO_LONG, "size line: %zu characters", line.len);
  else if (code == 0 && strlen(line.text) != line.len)
    code = csri_mmio_fail(MM_PREMATURE_EOF, "size line: a NUL character");
  else if (code == 0)
    code = parse_size(line.text, count, v);
  csri_mmio_line_free(&line);
  return code;
}

int csr_mm_read_mtx_crd_size(FILE *f, int *M, int *N, int *nz) {
  int v[3] = {0, 0, 0};
  if (M == NULL || N == NULL || nz == NULL)
    return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "mm_read_mtx_crd_size: a NULL argument");
  *M = *N = *nz = 0;
  int code = read_size(f, 3, v);
  if (code == 0)
    *M = v[0], *N = v[1], *nz = v[2];
  return code;
}

int csr_mm_read_mtx_array_size(FILE *f, int *M, int *N) {
  int v[2] = {0, 0};
  if (M == NULL || N == NULL)
    return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "mm_read_mtx_array_size: a NULL argument");
  *M = *N = 0;
  int code = read_size(f, 2, v);
  if (code == 0)
    *M = v[0], *N = v[1];
  return code;
}

int csr_mm_write_mtx_crd_size(FILE *f, int M, int N, int nz) {
  if (f == NULL || fprintf(f, "%d %d %d\n", M, N, nz) < 0)
    return csri_mmio_fail(MM_COULD_NOT_WRITE_FILE, "mm_write_mtx_crd_size: the stream failed");
  return 0;
}

int csr_mm_write_mtx_array_size(FILE *f, int M, int N) {
  if (f == NULL || fprintf(f, "%d %d\n", M, N) < 0)
    return csri_mmio_fail(MM_COULD_NOT_WRITE_FILE, "mm_write_mtx_array_size: the stream failed");
  return 0;
}
