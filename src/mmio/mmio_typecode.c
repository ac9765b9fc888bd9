/* SPDX-License-Identifier: BSD-3-Clause */
/* NIST mmio typecodes: validity, names, and the banner line "%%MatrixMarket matrix ..." read
 * from and written to a stream. The banner rules are libcsr's (src/mm_header.c). */
#include "mmio_internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The letters of each typecode position and their banner words, in order. */
static const char *const formats[] = {"coordinate", "array"};
static const char format_codes[] = "CA";
static const char *const fields[] = {"real", "integer", "pattern", "complex", "double"};
static const char field_codes[] = "RIPCR"; /* "double" is a synonym of "real" */
static const char *const symmetries[] = {"general", "symmetric", "skew-symmetric", "hermitian"};
static const char symmetry_codes[] = "GSKH";

/* Word of a code letter, or NULL. */
static const char *word_of(char code, const char *codes, const char *const *words, int count) {
  for (int i = 0; i < count; i++)
    if (codes[i] == code)
      return words[i];
  return NULL;
}

int csr_mm_is_valid(MM_typecode matcode) {
  if (!mm_is_matrix(matcode))
    return 0;
  if (mm_is_dense(matcode) && mm_is_pattern(matcode))
    return 0;
  if (mm_is_real(matcode) && mm_is_hermitian(matcode))
    return 0;
  if (mm_is_pattern(matcode) && (mm_is_hermitian(matcode) || mm_is_skew(matcode)))
    return 0;
  return 1;
}

char *csr_mm_typecode_to_str(MM_typecode matcode) {
  const char *format = word_of(matcode[1], format_codes, formats, 2);
  const char *field = word_of(matcode[2], field_codes, fields, 4);
  const char *symmetry = word_of(matcode[3], symmetry_codes, symmetries, 4);
  if (!mm_is_matrix(matcode) || !format || !field || !symmetry) {
    csri_mmio_fail(MM_UNSUPPORTED_TYPE, "typecode '%.4s' is not a known type", matcode);
    return NULL;
  }
  size_t size = strlen(MM_MTX_STR) + strlen(format) + strlen(field) + strlen(symmetry) + 4;
  char *text = malloc(size);
  if (text)
    snprintf(text, size, "%s %s %s %s", MM_MTX_STR, format, field, symmetry);
  return text;
}

int csri_mmio_coordinate_words(const MM_typecode matcode, const char **field,
                               const char **symmetry) {
  *field = word_of(matcode[2], field_codes, fields, 3); /* not complex */
  *symmetry = word_of(matcode[3], symmetry_codes, symmetries, 4);
  return mm_is_matrix(matcode) && mm_is_sparse(matcode) && *field && *symmetry &&
         !(mm_is_pattern(matcode) && (mm_is_hermitian(matcode) || mm_is_skew(matcode)));
}

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

int csri_mmio_skippable(const char *p, size_t len) {
  size_t i = 0;
  while (i < len && is_blank(p[i]))
    i++;
  return i == len || p[i] == '%';
}

/* Index of the word [w, w + len) among names (any letter case), or -1. */
static int pick(const char *w, size_t len, const char *const *names, int count) {
  for (int i = 0; i < count; i++)
    if (strlen(names[i]) == len && strncasecmp(w, names[i], len) == 0)
      return i;
  return -1;
}

/* The banner's words (the first is "%%MatrixMarket") into *matcode. */
static int banner_words(const char *line, size_t len, MM_typecode *matcode) {
  static const char *const objects[] = {"matrix", "vector"};
  const char *w[6];
  size_t n[6];
  int count = 0;
  for (size_t i = 0; i < len;) {
    while (i < len && is_blank(line[i]))
      i++;
    if (i == len)
      break;
    size_t start = i;
    while (i < len && !is_blank(line[i]))
      i++;
    if (count < 6)
      w[count] = line + start, n[count] = i - start;
    count++;
  }
  if (count < 5)
    return csri_mmio_fail(MM_PREMATURE_EOF, "banner: expected 5 words, found %d", count);
  if (count > 5)
    return csri_mmio_fail(MM_UNSUPPORTED_TYPE, "banner: expected 5 words, found %d", count);
  int object = pick(w[1], n[1], objects, 2), format = pick(w[2], n[2], formats, 2);
  int field = pick(w[3], n[3], fields, 5), symmetry = pick(w[4], n[4], symmetries, 4);
  if (object == 0)
    mm_set_matrix(matcode);
  if (format >= 0)
    (*matcode)[1] = format_codes[format];
  if (field >= 0)
    (*matcode)[2] = field_codes[field];
  if (symmetry >= 0)
    (*matcode)[3] = symmetry_codes[symmetry];
  int bad = object != 0 ? 1 : format < 0 ? 2 : field < 0 ? 3 : symmetry < 0 ? 4 : 0;
  if (bad)
    return csri_mmio_fail(MM_UNSUPPORTED_TYPE, "banner: unsupported word '%.*s'",
                          (int)(n[bad] < 40 ? n[bad] : 40), w[bad]);
  if (mm_is_pattern(*matcode) &&
      (mm_is_dense(*matcode) || mm_is_hermitian(*matcode) || mm_is_skew(*matcode)))
    return csri_mmio_fail(MM_UNSUPPORTED_TYPE, "banner: '%.*s %.*s %.*s' is not a valid type",
                          (int)n[2], w[2], (int)n[3], w[3], (int)n[4], w[4]);
  return 0;
}

int csr_mm_read_banner(FILE *f, MM_typecode *matcode) {
  if (f == NULL || matcode == NULL)
    return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "mm_read_banner: a NULL argument");
  mm_clear_typecode(matcode);
  csri_mmio_line line = {NULL, 0, 0};
  int code;
  do { /* blank lines before the banner are allowed */
    code = csri_mmio_read_line(f, &line);
  } while (code == 0 && csri_mmio_skippable(line.text, line.len) &&
           line.text[strspn(line.text, " \t\v\f")] != '%');
  if (code == EOF)
    code = csri_mmio_fail(MM_PREMATURE_EOF, "banner: found the end of the input");
  else if (code == 0 && line.len >= MM_MAX_LINE_LENGTH)
    code = csri_mmio_fail(MM_LINE_TOO_LONG, "banner: a line of %zu characters", line.len);
  else if (code == 0) {
    /* "%%MatrixMarket", also "%MatrixMarket", in any case, as libcsr's reader. */
    const char *b = line.text + strspn(line.text, " \t\v\f");
    const char *w = b + (b[0] == '%' && b[1] == '%' ? 2 : 1);
    if (b[0] != '%' || strncasecmp(w, "MatrixMarket", 12) != 0 ||
        (w[12] != '\0' && !is_blank(w[12])))
      code = csri_mmio_fail(MM_NO_HEADER, "expected the banner '%s ...'", MatrixMarketBanner);
    else
      code = banner_words(b, line.len - (size_t)(b - line.text), matcode);
  }
  csri_mmio_line_free(&line);
  return code;
}

int csr_mm_write_banner(FILE *f, MM_typecode matcode) {
  if (f == NULL)
    return csri_mmio_fail(MM_COULD_NOT_WRITE_FILE, "mm_write_banner: a NULL stream");
  char *text = mm_typecode_to_str(matcode);
  if (text == NULL)
    return MM_UNSUPPORTED_TYPE; /* message recorded */
  int n = fprintf(f, "%s %s\n", MatrixMarketBanner, text);
  free(text);
  if (n < 0)
    return csri_mmio_fail(MM_COULD_NOT_WRITE_FILE, "mm_write_banner: the stream failed");
  return 0;
}
