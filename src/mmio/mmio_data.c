/* SPDX-License-Identifier: BSD-3-Clause */
/* NIST mmio entries from a stream: the text after the size line is parsed by libcsr's reader
 * (csr_read_coo_buffer) behind a banner and size line made from the caller's typecode and size,
 * so entries obey exactly the rules of csr_read_coo. */
#include "mmio_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Buffer: the made-up header, then the entries' text. */
typedef struct text {
  char *data;
  size_t len, cap;
} text;

static int reserve(text *t, size_t more) {
  if (t->cap - t->len >= more)
    return 1;
  size_t cap = t->cap ? t->cap : 4096;
  while (cap - t->len < more)
    if ((cap *= 2) <= t->cap)
      return 0;
  char *grown = realloc(t->data, cap);
  if (grown == NULL)
    return 0;
  t->data = grown;
  t->cap = cap;
  return 1;
}

/* Starts t with "%%MatrixMarket matrix coordinate <field> <symmetry>\n<M> <N> <nz>\n". */
static int header(text *t, const MM_typecode matcode, int M, int N, int nz) {
  const char *field, *symmetry;
  if (!csri_mmio_coordinate_words(matcode, &field, &symmetry))
    return csri_mmio_fail(MM_UNSUPPORTED_TYPE,
                          "typecode '%.4s': not a real, integer or pattern "
                          "coordinate matrix",
                          matcode);
  if (M < 0 || N < 0 || nz < 0)
    return csri_mmio_fail(MM_UNSUPPORTED_TYPE, "a negative size %d %d %d", M, N, nz);
  if (!reserve(t, 128))
    return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "out of memory");
  t->len = (size_t)snprintf(t->data, t->cap, "%s matrix coordinate %s %s\n%d %d %d\n",
                            MatrixMarketBanner, field, symmetry, M, N, nz);
  return 0;
}

/* Parses t as a whole file (stored triangle kept); on success copies the nz entries into
 * I, J (1-based) and val (unless pattern). */
static int parse(const text *t, const char *name, int I[], int J[], double val[]) {
  csr_context *ctx = NULL;
  if (csr_context_create(&ctx) != CSR_SUCCESS)
    return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "out of memory");
  csr_read_options o;
  csr_read_options_init(&o);
  o.format = CSR_FORMAT_MATRIX_MARKET;
  o.keep_symmetry = 1;
  o.block_bytes = t->len < ((size_t)1 << 24) ? t->len + 16 : 0; /* no 32 MiB buffer per entry */
  csr_coo *T = NULL;
  csr_status s = csr_read_coo_buffer(ctx, t->data, t->len, name, &o, &T, NULL);
  int code = csri_mmio_code(ctx, s, 0);
  for (int64_t k = 0; code == 0 && k < T->nnz; k++) {
    I[k] = T->row_indices[k] + 1;
    J[k] = T->col_indices[k] + 1;
    if (T->value_type == CSR_F64)
      val[k] = ((const double *)T->values)[k];
  }
  csr_coo_free(&T);
  csr_context_free(&ctx);
  return code;
}

int csr_mm_read_mtx_crd_data(FILE *f, int M, int N, int nz, int I[], int J[], double val[],
                             MM_typecode matcode) {
  if (f == NULL || matcode == NULL || (nz > 0 && (!I || !J || (!mm_is_pattern(matcode) && !val))))
    return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "mm_read_mtx_crd_data: a NULL argument");
  text t = {NULL, 0, 0};
  int code = header(&t, matcode, M, N, nz);
  while (code == 0) { /* the rest of the stream */
    if (!reserve(&t, 1 << 16)) {
      code = csri_mmio_fail(MM_COULD_NOT_READ_FILE, "out of memory reading the entries");
      break;
    }
    size_t got = fread(t.data + t.len, 1, t.cap - t.len, f);
    t.len += got;
    if (got == 0 && ferror(f))
      code = csri_mmio_fail(MM_COULD_NOT_READ_FILE, "reading the entries failed");
    if (got == 0)
      break;
  }
  if (code == 0)
    code = parse(&t, "(entries after line 2)", I, J, val);
  free(t.data);
  return code;
}

int csr_mm_read_mtx_crd_entry(FILE *f, int *I, int *J, double *real, double *img,
                              MM_typecode matcode) {
  (void)img; /* complex is unsupported: never written */
  if (f == NULL || matcode == NULL || !I || !J || (!mm_is_pattern(matcode) && !real))
    return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "mm_read_mtx_crd_entry: a NULL argument");
  text t = {NULL, 0, 0};
  MM_typecode general;
  memcpy(general, matcode, sizeof general);
  mm_set_general(&general); /* one entry has no symmetry to check */
  int code = header(&t, general, INT_MAX, INT_MAX, 1);
  csri_mmio_line line = {NULL, 0, 0};
  while (code == 0 && (code = csri_mmio_read_line(f, &line)) == 0 &&
         csri_mmio_skippable(line.text, line.len)) {
  }
  if (code == EOF)
    code = csri_mmio_fail(MM_PREMATURE_EOF, "expected an entry, found the end of the input");
  if (code == 0 && !reserve(&t, line.len + 1))
    code = csri_mmio_fail(MM_COULD_NOT_READ_FILE, "out of memory");
  if (code == 0) {
    memcpy(t.data + t.len, line.text, line.len);
    t.len += line.len;
    t.data[t.len++] = '\n';
    int row = 0, col = 0;
    double value = 0.0;
    code = parse(&t, "(entry on line 3)", &row, &col, &value);
    if (code == 0) {
      *I = row, *J = col;
      if (!mm_is_pattern(matcode))
        *real = value;
    }
  }
  csri_mmio_line_free(&line);
  free(t.data);
  return code;
}
