/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target for the readers: any bytes -> csr_read_coo_buffer as Matrix Market and as an
 * edge list, then CSR. Nothing may crash, hang, leak or trip ASan/UBSan, and the results must
 * not depend on the read block size.
 *
 * Input layout: byte 0 picks the read block size (0: the default; 1..255: 16..4096 bytes, so a
 * file is cut into many blocks and lines straddle block ends); bytes 1.. are the file.
 *
 * Per input, for each format (Matrix Market, edge list):
 *   1. read with the chosen block size;
 *   2. read again with one 128 KiB block (the whole input, as the default 32 MiB block would
 *      take it, without ASan's cost of a 32 MiB allocation): status and triples must be
 *      identical (for gzip input only success must agree: see run());
 *   3. on success: indices inside the shape, nnz == info.entries, csr_from_coo gives a matrix
 *      that csr_matrix_validate accepts; for Matrix Market also csr_read_csr on a temporary file
 *      holding the same bytes (the file-descriptor source) must give the same CSR.
 * A violated check calls abort(), which libFuzzer reports as a crash with the input saved.
 * Shapes above 2^22 rows or columns skip step 3's conversions: a 20-byte file may declare
 * 2^31 - 1 rows, whose CSR row offsets (16 GiB) are legitimately past the fuzzer's malloc limit.
 */
#include "csr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FUZZ_MAX_CONVERT_DIM ((int64_t)1 << 22)
#define FUZZ_WHOLE_BLOCK ((size_t)1 << 17) /* > -max_len: one block holds any plain input */

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_mm_read: %s (%s)\n", what, detail ? detail : "");
  abort();
}

/* 0 -> default; 1..255 -> 16..4096 bytes. */
static size_t block_size(uint8_t b) {
  return b == 0 ? 0 : 16 + (size_t)(b - 1) * 4080 / 254;
}

static size_t value_size(csr_value_type t) {
  return t == CSR_F64 ? sizeof(double) : t == CSR_F32 ? sizeof(float) : 0;
}

static int same_coo(const csr_coo *a, const csr_coo *b) {
  if (a->rows != b->rows || a->cols != b->cols || a->nnz != b->nnz ||
      a->value_type != b->value_type || (a->values == NULL) != (b->values == NULL))
    return 0;
  size_t n = (size_t)a->nnz;
  if (n == 0)
    return 1;
  return memcmp(a->row_indices, b->row_indices, n * sizeof(int32_t)) == 0 &&
         memcmp(a->col_indices, b->col_indices, n * sizeof(int32_t)) == 0 &&
         (a->values == NULL || memcmp(a->values, b->values, n * value_size(a->value_type)) == 0);
}

static void check_coo(const csr_coo *T, const csr_file_info *info) {
  if (T == NULL || T->rows < 0 || T->cols < 0 || T->nnz < 0 || T->location != CSR_HOST)
    fail("success without a valid COO", NULL);
  if (T->nnz != info->entries || info->rows != T->rows || info->cols != T->cols)
    fail("info disagrees with the COO", NULL);
  if ((T->value_type == CSR_PATTERN) != (T->values == NULL))
    fail("pattern flag and value array disagree", NULL);
  for (int64_t k = 0; k < T->nnz; k++)
    if (T->row_indices[k] < 0 || T->row_indices[k] >= T->rows || T->col_indices[k] < 0 ||
        T->col_indices[k] >= T->cols)
      fail("index outside the shape", NULL);
}

/* The bytes in a temporary file (one per process, rewritten per input); NULL if unavailable. */
static const char *temp_file(const uint8_t *data, size_t size) {
  static char path[64];
  static int fd = -1;
  if (fd < 0) {
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/fuzz_mm_read_XXXXXX", dir && strlen(dir) < 32 ? dir : "/tmp");
    fd = mkstemp(path);
    if (fd < 0)
      return NULL;
  }
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
    return NULL;
  return path;
}

static void run(const uint8_t *data, size_t size, csr_file_format format, size_t block) {
  csr_context *ctx = NULL;
  if (csr_context_create(&ctx) != CSR_SUCCESS)
    return;
  csr_context_set_backend(ctx, CSR_BACKEND_REF);
  const char *name = format == CSR_FORMAT_EDGE_LIST ? "fuzz.el" : "fuzz.mtx";
  csr_read_options o;
  csr_read_options_init(&o);
  o.format = format;
  o.block_bytes = block;
  o.keep_symmetry = size > 0 && (data[size - 1] & 1); /* the last byte: kept or expanded */
  csr_coo *T = NULL, *U = NULL;
  csr_file_info info, info_whole;
  csr_status s = csr_read_coo_buffer(ctx, (const char *)data, size, name, &o, &T, &info);
  if ((s == CSR_SUCCESS) != (T != NULL))
    fail("status and output disagree", csr_status_string(s));
  if (s < 0 && csr_context_last_error(ctx)[0] == '\0')
    fail("an error without a message", csr_status_string(s));
  o.block_bytes = FUZZ_WHOLE_BLOCK;
  csr_status s2 = csr_read_coo_buffer(ctx, (const char *)data, size, name, &o, &U, &info_whole);
  /* gzip: a corrupt stream meets the first parse error or the inflate error first depending on
   * how much text a block holds, so only success must agree. */
  int gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  if (gzip ? (s == CSR_SUCCESS) != (s2 == CSR_SUCCESS) : s2 != s)
    fail("the block size changed the status", csr_status_string(s2));
  if (s == CSR_SUCCESS) {
    if (!same_coo(T, U))
      fail("the block size changed the triples", NULL);
    check_coo(T, &info);
  }
  csr_coo_free(&U);
  if (s == CSR_SUCCESS && T->rows <= FUZZ_MAX_CONVERT_DIM && T->cols <= FUZZ_MAX_CONVERT_DIM) {
    csr_matrix *A = NULL, *B = NULL;
    csr_status c = csr_from_coo(ctx, T, 0, &A);
    if (c == CSR_SUCCESS && csr_matrix_validate(ctx, A) != CSR_SUCCESS)
      fail("csr_from_coo made an invalid matrix", csr_context_last_error(ctx));
    if (c == CSR_SUCCESS && format == CSR_FORMAT_MATRIX_MARKET) {
      const char *path = temp_file(data, size);
      o.block_bytes = block;
      int equal = 0;
      if (path && (c = csr_read_csr(ctx, path, &o, &B, NULL)) != CSR_SUCCESS)
        fail("csr_read_csr refused what csr_read_coo_buffer read", csr_context_last_error(ctx));
      if (B && (csr_matrix_equal(ctx, A, B, &equal) != CSR_SUCCESS || !equal))
        fail("csr_read_csr differs from csr_read_coo_buffer + csr_from_coo", NULL);
    }
    csr_matrix_free(&A);
    csr_matrix_free(&B);
  }
  csr_coo_free(&T);
  csr_context_free(&ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  size_t block = block_size(data[0]);
  run(data + 1, size - 1, CSR_FORMAT_MATRIX_MARKET, block);
  run(data + 1, size - 1, CSR_FORMAT_EDGE_LIST, block);
  return 0;
}
