/* SPDX-License-Identifier: BSD-3-Clause */
/* NIST mmio whole-file writing (mm_write_mtx_crd) through libcsr's writer: csr_write_coo_mm for
 * general typecodes; for symmetric, skew-symmetric and hermitian ones (whose caller passes the
 * stored triangle as it is), the same engine with the typecode's banner, since
 * csr_write_coo_mm writes only "general" triples. */
#include "io/mm_write.h"
#include "mmio_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Checks the caller's arrays; the first fault's NIST code, or 0. */
static int check_entries(int M, int N, int nz, const int I[], const int J[], const double val[],
                         const MM_typecode matcode) {
  for (int k = 0; k < nz; k++) {
    if (I[k] < 1 || I[k] > M || J[k] < 1 || J[k] > N)
      return csri_mmio_fail(MM_UNSUPPORTED_TYPE, "entry %d: (%d, %d) is outside %d x %d", k, I[k],
                            J[k], M, N);
    if (mm_is_pattern(matcode))
      continue;
    if (mm_is_integer(matcode) && !(val[k] == floor(val[k]) && fabs(val[k]) < 0x1p63))
      return csri_mmio_fail(MM_UNSUPPORTED_TYPE, "entry %d: %.17g is not an integer", k, val[k]);
    if (mm_is_skew(matcode) && I[k] == J[k] && val[k] != 0.0)
      return csri_mmio_fail(MM_UNSUPPORTED_TYPE,
                            "entry %d: a skew-symmetric diagonal entry must be 0, found %.17g", k,
                            val[k]);
  }
  return 0;
}

/* Writes T with the typecode's banner (not general) through the writer's engine. */
static csr_status write_labelled(csr_context *ctx, const char *path, const csr_coo *T,
                                 const csr_write_options *o, const char *field,
                                 const char *symmetry) {
  char header[256];
  snprintf(header, sizeof header, "%s matrix coordinate %s %s\n%lld %lld %lld\n",
           MatrixMarketBanner, field, symmetry, (long long)T->rows, (long long)T->cols,
           (long long)T->nnz);
  csri_write_job w = {NULL, T,
                      field[0] == 'p'   ? CSRI_VALUES_NONE
                      : field[0] == 'i' ? CSRI_VALUES_INTEGER
                                        : CSRI_VALUES_REAL,
                      0, 1};
  return csri_write_text(ctx, path, o, header, &w, T->nnz);
}

int csr_mm_write_mtx_crd(char fname[], int M, int N, int nz, int I[], int J[], double val[],
                         MM_typecode matcode) {
  const char *field, *symmetry;
  if (fname == NULL || matcode == NULL)
    return csri_mmio_fail(MM_COULD_NOT_WRITE_FILE, "mm_write_mtx_crd: a NULL argument");
  if (!csri_mmio_coordinate_words(matcode, &field, &symmetry))
    return csri_mmio_fail(MM_UNSUPPORTED_TYPE,
                          "typecode '%.4s': not a real, integer or pattern coordinate matrix",
                          matcode);
  if (M < 0 || N < 0 || nz < 0)
    return csri_mmio_fail(MM_UNSUPPORTED_TYPE, "a negative size %d %d %d", M, N, nz);
  if (!mm_is_general(matcode) && M != N)
    return csri_mmio_fail(MM_UNSUPPORTED_TYPE, "a %s matrix must be square, not %d x %d", symmetry,
                          M, N);
  if (nz > 0 && (!I || !J || (!mm_is_pattern(matcode) && !val)))
    return csri_mmio_fail(MM_COULD_NOT_WRITE_FILE, "mm_write_mtx_crd: a NULL array");
  int code = check_entries(M, N, nz, I, J, val, matcode);
  if (code != 0)
    return code;
  csr_context *ctx = NULL;
  csr_coo *T = NULL;
  csr_value_type type = mm_is_pattern(matcode) ? CSR_PATTERN : CSR_F64;
  if (csr_context_create(&ctx) != CSR_SUCCESS)
    return csri_mmio_fail(MM_COULD_NOT_WRITE_FILE, "out of memory");
  code = csri_mmio_code(ctx, csr_coo_create(ctx, &T, M, N, nz, type, CSR_HOST), 1);
  if (code == 0) {
    for (int k = 0; k < nz; k++) {
      T->row_indices[k] = I[k] - 1;
      T->col_indices[k] = J[k] - 1;
    }
    if (type == CSR_F64 && nz > 0)
      memcpy(T->values, val, (size_t)nz * sizeof(double));
    csr_write_options o;
    csr_write_options_init(&o);
    o.pattern = mm_is_pattern(matcode);
    o.integer = mm_is_integer(matcode);
    const char *path = strcmp(fname, "stdout") == 0 ? "-" : fname;
    if (path[0] == '-' && path[1] == '\0')
      fflush(stdout); /* the writer writes to descriptor 1: keep the caller's output first */
    csr_status s = mm_is_general(matcode) ? csr_write_coo_mm(ctx, path, T, &o)
                                          : write_labelled(ctx, path, T, &o, field, symmetry);
    code = csri_mmio_code(ctx, s, 1);
  }
  csr_coo_free(&T);
  csr_context_free(&ctx);
  return code;
}
