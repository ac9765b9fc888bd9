/* SPDX-License-Identifier: BSD-3-Clause */
/* Reference Matrix Market / edge-list reader for the tests: see mm_oracle.h. Written to be read,
 * not to be fast: the text is split into lines, each line into blank-separated tokens. */
#include "mm_oracle.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* --- lines and tokens ------------------------------------------------------------------------- */

typedef struct lines {
  const char *p, *end;
  int64_t number; /* of the last line returned */
  char *buf;      /* the line, NUL-terminated */
  size_t cap;
} lines;

/* Next line without its terminator ("\n", "\r\n" or a bare "\r"); NULL at the end. */
static char *next_line(lines *L) {
  if (L->p >= L->end)
    return NULL;
  size_t n = 0;
  while (L->p + n < L->end && L->p[n] != '\n' && L->p[n] != '\r')
    n++;
  if (n + 1 > L->cap) {
    L->cap = 2 * n + 64;
    free(L->buf);
    if ((L->buf = malloc(L->cap)) == NULL)
      abort(); /* tests only */
  }
  memcpy(L->buf, L->p, n);
  L->p += n;
  if (L->p < L->end) { /* the terminator: "\r\n", or a single '\r' or '\n' */
    if (*L->p == '\r' && L->p + 1 < L->end && L->p[1] == '\n')
      L->p++;
    L->p++;
  }
  L->buf[n] = '\0';
  L->number++;
  return L->buf;
}

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

/* Splits line in place into blank-separated tokens; returns how many (at most max stored). */
static int tokens(char *line, char **tok, int max) {
  int n = 0;
  char *p = line;
  for (;;) {
    while (is_blank(*p))
      p++;
    if (*p == '\0')
      return n;
    if (n < max)
      tok[n] = p;
    n++;
    while (*p && !is_blank(*p))
      p++;
    if (*p)
      *p++ = '\0';
  }
}

/* A line that is empty or all blanks. */
static int is_empty(const char *line) {
  while (is_blank(*line))
    line++;
  return *line == '\0';
}

/* First non-blank character. */
static char first_char(const char *line) {
  while (is_blank(*line))
    line++;
  return *line;
}

/* --- numbers: 0 ok, 1 not a number, 2 out of range -------------------------------------------- */

static int parse_int(const char *tok, int64_t *v) {
  char *end;
  errno = 0;
  long long x = strtoll(tok, &end, 10);
  if (end == tok || *end != '\0')
    return 1;
  *v = x;
  return errno == ERANGE ? 2 : 0;
}

static int parse_real(const char *tok, double *v) {
  char *end;
  if (strchr(tok, 'x') || strchr(tok, 'X')) /* no hexadecimal floats in Matrix Market */
    return 1;
  errno = 0;
  *v = strtod(tok, &end);
  if (end == tok || *end != '\0')
    return 1;
  return errno == ERANGE && fabs(*v) > DBL_MAX ? 2 : 0; /* underflow is not an error */
}

static int same_word(const char *a, const char *b) {
  while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b))
    a++, b++;
  return *a == '\0' && *b == '\0';
}

/* Index of w among names, or -1. */
static int pick(const char *w, const char *const *names, int count) {
  for (int i = 0; i < count; i++)
    if (same_word(w, names[i]))
      return i;
  return -1;
}

/* --- results ---------------------------------------------------------------------------------- */

static csr_status refuse(mmo_result *r, csr_status status, int64_t line) {
  r->status = status;
  r->error_line = line;
  return status;
}

/* Appends a triple (capacity doubles: never sized from a declared count). */
static void push(mmo_result *r, int64_t i, int64_t j, double v, int has_value, int64_t *cap) {
  if (r->nnz == *cap) {
    *cap = *cap ? 2 * *cap : 16;
    r->row = realloc(r->row, (size_t)*cap * sizeof *r->row);
    r->col = realloc(r->col, (size_t)*cap * sizeof *r->col);
    if (has_value)
      r->val = realloc(r->val, (size_t)*cap * sizeof *r->val);
    if (!r->row || !r->col || (has_value && !r->val))
      abort(); /* tests only */
  }
  r->row[r->nnz] = i;
  r->col[r->nnz] = j;
  if (has_value)
    r->val[r->nnz] = v;
  r->nnz++;
}

void mmo_free(mmo_result *r) {
  free(r->row);
  free(r->col);
  free(r->val);
  memset(r, 0, sizeof *r);
}

/* --- Matrix Market ---------------------------------------------------------------------------- */

csr_status mmo_parse_mm(const char *text, size_t size, int keep_symmetry, mmo_result *r) {
  static const char *const objects[] = {"matrix", "vector"};
  static const char *const formats[] = {"coordinate", "array"};
  static const char *const fields[] = {"real", "double", "integer", "pattern", "complex"};
  static const char *const symmetries[] = {"general", "symmetric", "skew-symmetric", "hermitian"};
  memset(r, 0, sizeof *r);
  lines *L = calloc(1, sizeof *L);
  if (L == NULL)
    abort();
  L->p = text;
  L->end = text + size;
  char *line, *tok[8];
  int64_t cap = 0;
  csr_status status = CSR_SUCCESS;

  /* Banner: blank lines before it are allowed; "%%MatrixMarket" or "%MatrixMarket", any case. */
  while ((line = next_line(L)) != NULL && is_empty(line))
    ;
  if (line == NULL) {
    status = refuse(r, CSR_ERR_PARSE, L->number > 0 ? L->number : 1);
    goto done;
  }
  if (tokens(line, tok, 8) != 5 ||
      (!same_word(tok[0], "%%MatrixMarket") && !same_word(tok[0], "%MatrixMarket"))) {
    status = refuse(r, CSR_ERR_PARSE, L->number);
    goto done;
  }
  int object = pick(tok[1], objects, 2), format = pick(tok[2], formats, 2);
  int field = pick(tok[3], fields, 5), symmetry = pick(tok[4], symmetries, 4);
  if (object < 0 || format < 0 || field < 0 || symmetry < 0) {
    status = refuse(r, CSR_ERR_PARSE, L->number);
    goto done;
  }
  int is_vector = object == 1, is_array = format == 1;
  int integer = field == 2, pattern = field == 3, complex = field == 4;
  if ((is_array && pattern) || (pattern && symmetry >= 2) || (is_vector && symmetry != 0)) {
    status = refuse(r, CSR_ERR_PARSE, L->number); /* invalid combinations */
    goto done;
  }
  if (complex) {
    status = refuse(r, CSR_ERR_UNSUPPORTED, L->number);
    goto done;
  }
  int skew = symmetry == 2;
  r->symmetry = symmetry == 0 ? CSR_MM_GENERAL : skew ? CSR_MM_SKEW_SYMMETRIC : CSR_MM_SYMMETRIC;
  r->is_array = is_array;
  r->is_vector = is_vector;
  r->pattern = pattern;

  /* Comments and blank lines, then the size line. */
  while ((line = next_line(L)) != NULL && (is_empty(line) || first_char(line) == '%'))
    ;
  if (line == NULL) {
    status = refuse(r, CSR_ERR_PARSE, L->number);
    goto done;
  }
  int want = is_vector ? (is_array ? 1 : 2) : (is_array ? 2 : 3), n = tokens(line, tok, 8);
  int64_t v[3] = {0, 0, 0};
  for (int k = 0; k < want; k++) {
    int e = k < n ? parse_int(tok[k], &v[k]) : 1;
    if (e != 0 || v[k] < 0) {
      status = refuse(r, e == 2 ? CSR_ERR_OVERFLOW : CSR_ERR_PARSE, L->number);
      goto done;
    }
  }
  if (n != want) {
    status = refuse(r, CSR_ERR_PARSE, L->number);
    goto done;
  }
  r->rows = v[0];
  r->cols = is_vector ? 1 : v[1];
  if (r->rows > CSR_MAX_DIM || r->cols > CSR_MAX_DIM) {
    status = refuse(r, CSR_ERR_OVERFLOW, L->number);
    goto done;
  }
  if (symmetry != 0 && r->rows != r->cols) {
    status = refuse(r, CSR_ERR_PARSE, L->number);
    goto done;
  }
  int64_t expected = is_vector && !is_array ? v[1]
                     : !is_array            ? v[2]
                     : symmetry == 0        ? r->rows * r->cols
                     : skew                 ? r->rows * (r->rows - 1) / 2
                                            : r->rows * (r->rows + 1) / 2;

  /* Data lines. Array files: position (ai, aj) walks down column aj of the stored part. */
  int64_t ai = skew ? 1 : 0, aj = 0;
  int values = !pattern;
  while ((line = next_line(L)) != NULL) {
    if (is_empty(line) || first_char(line) == '%')
      continue;
    if (r->nnz == expected) {
      status = refuse(r, CSR_ERR_PARSE, L->number); /* more entries than declared */
      goto done;
    }
    int need = is_array ? 1 : ((is_vector ? 1 : 2) + values); /* tokens on the line */
    n = tokens(line, tok, 8);
    int64_t i = 0, j = 0;
    double x = 1.0;
    int k = 0, e = 0;
    if (is_array) {
      i = ai;
      j = aj;
    } else {
      for (int d = 0; d < (is_vector ? 1 : 2) && e == 0; d++, k++) {
        int64_t index = 0;
        e = k < n ? parse_int(tok[k], &index) : 1;
        if (e == 2 || (e == 0 && (index < 1 || index > (d == 0 ? r->rows : r->cols))))
          e = 1; /* an index outside the matrix is a content error, not an overflow */
        if (d == 0)
          i = index - 1;
        else
          j = index - 1;
      }
    }
    if (e == 0 && values) {
      if (k >= n)
        e = 1;
      else if (integer) {
        int64_t iv = 0;
        e = parse_int(tok[k], &iv);
        x = (double)iv;
      } else
        e = parse_real(tok[k], &x);
    }
    if (e == 0 && n != need)
      e = 1;
    if (e == 0 && skew && i == j && x != 0.0)
      e = 1;
    if (e != 0) {
      status = refuse(r, e == 2 ? CSR_ERR_OVERFLOW : CSR_ERR_PARSE, L->number);
      goto done;
    }
    push(r, i, j, x, values, &cap);
    if (is_array && ++ai == r->rows) {
      aj++;
      ai = symmetry == 0 ? 0 : aj + skew;
    }
  }
  if (r->nnz != expected) {
    status = refuse(r, CSR_ERR_PARSE, L->number > 0 ? L->number : 1); /* fewer than declared */
    goto done;
  }
  r->stored = r->nnz;
  if (symmetry != 0 && !keep_symmetry)
    for (int64_t k = 0; k < r->stored; k++)
      if (r->row[k] != r->col[k])
        push(r, r->col[k], r->row[k], values ? (skew ? -r->val[k] : r->val[k]) : 1.0, values, &cap);
done:
  free(L->buf);
  free(L);
  if (status != CSR_SUCCESS) {
    int64_t line_no = r->error_line;
    mmo_free(r);
    r->status = status;
    r->error_line = line_no;
  }
  return status;
}

/* --- edge lists ------------------------------------------------------------------------------- */

csr_status mmo_parse_edges(const char *text, size_t size, mmo_result *r) {
  memset(r, 0, sizeof *r);
  lines *L = calloc(1, sizeof *L);
  if (L == NULL)
    abort();
  L->p = text;
  L->end = text + size;
  char *line, *tok[8];
  int64_t cap = 0, top = -1;
  int columns = 0; /* fixed by the first data line */
  csr_status status = CSR_SUCCESS;
  while ((line = next_line(L)) != NULL) {
    char c = first_char(line);
    if (c == '\0' || c == '#' || c == '%')
      continue;
    int n = tokens(line, tok, 8);
    if (columns == 0)
      columns = n < 2 ? 2 : n > 3 ? 3 : n;
    int64_t id[2] = {0, 0};
    double w = 1.0;
    int e = 0;
    for (int k = 0; k < 2 && e == 0; k++) {
      e = k < n ? parse_int(tok[k], &id[k]) : 1;
      if (e == 0 && id[k] < 0)
        e = 1;
      if (e == 0 && id[k] >= CSR_MAX_DIM)
        e = 2;
    }
    if (e == 0 && columns == 3)
      e = n < 3 ? 1 : parse_real(tok[2], &w);
    if (e == 0 && n != columns)
      e = 1;
    if (e != 0) {
      status = refuse(r, e == 2 ? CSR_ERR_OVERFLOW : CSR_ERR_PARSE, L->number);
      break;
    }
    push(r, id[0], id[1], w, columns == 3, &cap);
    top = id[0] > top ? id[0] : top;
    top = id[1] > top ? id[1] : top;
  }
  free(L->buf);
  free(L);
  if (status != CSR_SUCCESS) {
    int64_t line_no = r->error_line;
    mmo_free(r);
    r->status = status;
    r->error_line = line_no;
    return status;
  }
  r->rows = r->cols = top + 1;
  r->stored = r->nnz;
  r->pattern = columns != 3;
  return CSR_SUCCESS;
}

/* --- files ------------------------------------------------------------------------------------ */

char *mmo_slurp(const char *path, size_t *size) {
  gzFile f = gzopen(path, "rb");
  if (f == NULL)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  int got;
  while (buf && (got = gzread(f, buf + n, (unsigned)(cap - n))) > 0) {
    n += (size_t)got;
    if (n == cap) {
      char *grown = realloc(buf, 2 * cap + 1);
      if (grown == NULL)
        free(buf);
      buf = grown;
      cap *= 2;
    }
  }
  int error = 0;
  gzerror(f, &error);
  if (gzclose(f) != Z_OK || (error != Z_OK && error != Z_STREAM_END)) {
    free(buf);
    return NULL;
  }
  if (buf) {
    buf[n] = '\0';
    *size = n;
  }
  return buf;
}

csr_status mmo_read_mm(const char *path, int keep_symmetry, mmo_result *r) {
  size_t size = 0;
  char *text = mmo_slurp(path, &size);
  memset(r, 0, sizeof *r);
  if (text == NULL)
    return r->status = CSR_ERR_IO;
  mmo_parse_mm(text, size, keep_symmetry, r);
  free(text);
  return r->status;
}

csr_status mmo_read_edges(const char *path, mmo_result *r) {
  size_t size = 0;
  char *text = mmo_slurp(path, &size);
  memset(r, 0, sizeof *r);
  if (text == NULL)
    return r->status = CSR_ERR_IO;
  mmo_parse_edges(text, size, r);
  free(text);
  return r->status;
}

/* --- comparisons ------------------------------------------------------------------------------ */

int mmo_coo_matches(const csr_coo *T, const mmo_result *r, char *why, size_t why_size) {
  if (T->rows != r->rows || T->cols != r->cols || T->nnz != r->nnz) {
    snprintf(why, why_size, "shape %lld x %lld, %lld entries; oracle %lld x %lld, %lld entries",
             (long long)T->rows, (long long)T->cols, (long long)T->nnz, (long long)r->rows,
             (long long)r->cols, (long long)r->nnz);
    return 0;
  }
  if (r->pattern != (T->value_type == CSR_PATTERN) || r->pattern != (T->values == NULL)) {
    snprintf(why, why_size, "value type %d, values %p; oracle %s", (int)T->value_type, T->values,
             r->pattern ? "pattern" : "has values");
    return 0;
  }
  for (int64_t k = 0; k < T->nnz; k++) {
    int same = T->row_indices[k] == r->row[k] && T->col_indices[k] == r->col[k];
    if (same && T->value_type == CSR_F64)
      same = memcmp(&((const double *)T->values)[k], &r->val[k], sizeof(double)) == 0;
    if (same && T->value_type == CSR_F32) {
      float f = (float)r->val[k];
      same = memcmp(&((const float *)T->values)[k], &f, sizeof f) == 0;
    }
    if (!same) {
      snprintf(why, why_size, "entry %lld: (%d, %d, %.17g); oracle (%lld, %lld, %.17g)",
               (long long)k, T->row_indices[k], T->col_indices[k],
               T->value_type == CSR_PATTERN ? 1.0
               : T->value_type == CSR_F64   ? ((const double *)T->values)[k]
                                            : (double)((const float *)T->values)[k],
               (long long)r->row[k], (long long)r->col[k], r->val ? r->val[k] : 1.0);
      return 0;
    }
  }
  return 1;
}

int mmo_coo_identical(const csr_coo *A, const csr_coo *B, char *why, size_t why_size) {
  if (A->rows != B->rows || A->cols != B->cols || A->nnz != B->nnz ||
      A->value_type != B->value_type || (A->values == NULL) != (B->values == NULL)) {
    snprintf(why, why_size, "%lld x %lld, %lld entries, type %d vs %lld x %lld, %lld, type %d",
             (long long)A->rows, (long long)A->cols, (long long)A->nnz, (int)A->value_type,
             (long long)B->rows, (long long)B->cols, (long long)B->nnz, (int)B->value_type);
    return 0;
  }
  size_t n = (size_t)A->nnz, vs = A->value_type == CSR_F64 ? 8 : A->value_type == CSR_F32 ? 4 : 0;
  if ((n && memcmp(A->row_indices, B->row_indices, n * 4) != 0) ||
      (n && memcmp(A->col_indices, B->col_indices, n * 4) != 0) ||
      (n && vs && memcmp(A->values, B->values, n * vs) != 0)) {
    for (size_t k = 0; k < n; k++)
      if (A->row_indices[k] != B->row_indices[k] || A->col_indices[k] != B->col_indices[k] ||
          (vs && memcmp((const char *)A->values + k * vs, (const char *)B->values + k * vs, vs))) {
        snprintf(why, why_size, "entry %zu differs: (%d, %d) vs (%d, %d)", k, A->row_indices[k],
                 A->col_indices[k], B->row_indices[k], B->col_indices[k]);
        break;
      }
    return 0;
  }
  return 1;
}
