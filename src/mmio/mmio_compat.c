/* SPDX-License-Identifier: BSD-3-Clause */
/* NIST mmio whole-file reading (mm_read_mtx_crd, mm_read_unsymmetric_sparse) through
 * csr_read_coo with the stored triangle kept; the per-thread error detail; status mapping. */
#include "mmio_internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char last_error[CSRI_ERROR_CAPACITY];

const char *csr_mmio_last_error(void) {
  return last_error;
}

int csri_mmio_fail(int code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(last_error, sizeof last_error, format, args);
  va_end(args);
  return code;
}

int csri_mmio_code(const csr_context *ctx, csr_status status, int writing) {
  if (status >= 0)
    return 0;
  int io = writing ? MM_COULD_NOT_WRITE_FILE : MM_COULD_NOT_READ_FILE;
  int code = status == CSR_ERR_PARSE ? MM_PREMATURE_EOF
             : status == CSR_ERR_UNSUPPORTED || status == CSR_ERR_OVERFLOW ||
                     status == CSR_ERR_INVALID_VALUE || status == CSR_ERR_INDEX_OUT_OF_BOUNDS
                 ? MM_UNSUPPORTED_TYPE
                 : io;
  const char *detail = ctx ? csr_context_last_error(ctx) : "";
  return csri_mmio_fail(code, "%s", detail[0] ? detail : csr_status_string(status));
}

int csri_mmio_export(const csr_coo *T, int base, int **I, int **J, double **val) {
  *I = *J = NULL;
  *val = NULL;
  if (T->nnz > INT_MAX)
    return csri_mmio_fail(MM_UNSUPPORTED_TYPE, "%lld entries: more than an int counts",
                          (long long)T->nnz);
  size_t n = T->nnz > 0 ? (size_t)T->nnz : 1; /* malloc(0) may give NULL */
  *I = malloc(n * sizeof(int));
  *J = malloc(n * sizeof(int));
  if (T->value_type != CSR_PATTERN)
    *val = malloc(n * sizeof(double));
  if (!*I || !*J || (T->value_type != CSR_PATTERN && !*val)) {
    free(*I), free(*J), free(*val);
    *I = *J = NULL;
    *val = NULL;
    return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "out of memory for %lld entries",
                          (long long)T->nnz);
  }
  for (int64_t k = 0; k < T->nnz; k++) {
    (*I)[k] = T->row_indices[k] + base;
    (*J)[k] = T->col_indices[k] + base;
  }
  if (*val)
    memcpy(*val, T->values, (size_t)T->nnz * sizeof(double));
  return 0;
}

/* The typecode of a file from its banner, when the file is plain text; *known = 0 for gzip
 * input and standard input (the reader's csr_file_info then gives it). */
static int peek_typecode(const char *path, MM_typecode *matcode, int *known) {
  *known = 0;
  if (strcmp(path, "-") == 0)
    return 0;
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "%s: cannot open", path);
  int c0 = getc(f), c1 = getc(f), code = 0;
  if (!(c0 == 0x1f && c1 == 0x8b)) {
    rewind(f);
    code = mm_read_banner(f, matcode);
    *known = 1;
  }
  fclose(f);
  return code;
}

static void typecode_of(const csr_file_info *info, MM_typecode *matcode) {
  static const char fields[] = "RIPC", symmetries[] = "GSKH";
  mm_clear_typecode(matcode);
  if (!info->is_vector)
    mm_set_matrix(matcode);
  (*matcode)[1] = info->is_array ? 'A' : 'C';
  (*matcode)[2] = fields[info->field & 3];
  (*matcode)[3] = symmetries[info->symmetry & 3];
}

/* NIST's type screen: a valid, coordinate, real/integer/pattern matrix. */
static int screen(MM_typecode matcode, const char *path) {
  if (mm_is_valid(matcode) && mm_is_sparse(matcode) && mm_is_matrix(matcode) &&
      !mm_is_complex(matcode))
    return 0;
  return csri_mmio_fail(MM_UNSUPPORTED_TYPE, "%s: type '%.4s' is not supported", path, matcode);
}

static int read_crd(const char *fname, int base, int *M, int *N, int *nz, int **I, int **J,
                    double **val, MM_typecode *matcode) {
  if (!fname || !M || !N || !nz || !I || !J || !val || !matcode)
    return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "mm_read_mtx_crd: a NULL argument");
  *I = *J = NULL;
  *val = NULL;
  mm_clear_typecode(matcode);
  const char *path = strcmp(fname, "stdin") == 0 ? "-" : fname;
  int known = 0, code = peek_typecode(path, matcode, &known);
  if (code == 0 && known)
    code = screen(*matcode, path);
  if (code != 0)
    return code;
  csr_context *ctx = NULL;
  if (csr_context_create(&ctx) != CSR_SUCCESS)
    return csri_mmio_fail(MM_COULD_NOT_READ_FILE, "out of memory");
  csr_read_options o;
  csr_read_options_init(&o);
  o.format = CSR_FORMAT_MATRIX_MARKET; /* whatever the name's extension */
  o.keep_symmetry = 1;                 /* NIST returns the stored triangle */
  csr_coo *T = NULL;
  csr_file_info info;
  code = csri_mmio_code(ctx, csr_read_coo(ctx, path, &o, &T, &info), 0);
  if (code == 0 && !known) {
    typecode_of(&info, matcode);
    code = screen(*matcode, path);
  }
  if (code == 0)
    code = csri_mmio_export(T, base, I, J, val);
  if (code == 0) {
    *M = (int)T->rows, *N = (int)T->cols, *nz = (int)T->nnz;
  }
  csr_coo_free(&T);
  csr_context_free(&ctx);
  return code;
}

int csr_mm_read_mtx_crd(char *fname, int *M, int *N, int *nz, int **I, int **J, double **val,
                        MM_typecode *matcode) {
  return read_crd(fname, 1, M, N, nz, I, J, val, matcode);
}

int csr_mm_read_unsymmetric_sparse(const char *fname, int *M_, int *N_, int *nz_, double **val_,
                                   int **I_, int **J_) {
  int M = 0, N = 0, nz = 0, *I = NULL, *J = NULL;
  double *val = NULL;
  MM_typecode matcode;
  if (!M_ || !N_ || !nz_ || !val_ || !I_ || !J_)
    return csri_mmio_fail(-1, "mm_read_unsymmetric_sparse: a NULL argument");
  if (read_crd(fname, 0, &M, &N, &nz, &I, &J, &val, &matcode) != 0)
    return -1;
  if (!mm_is_real(matcode)) { /* as NIST's: real matrices only */
    free(I), free(J), free(val);
    return csri_mmio_fail(-1, "%s: type '%.4s': mm_read_unsymmetric_sparse reads real matrices",
                          fname, matcode);
  }
  *M_ = M, *N_ = N, *nz_ = nz;
  *val_ = val, *I_ = I, *J_ = J;
  return 0;
}
