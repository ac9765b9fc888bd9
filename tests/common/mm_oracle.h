/* SPDX-License-Identifier: BSD-3-Clause */
/* A deliberately simple reference reader for Matrix Market files and SNAP edge lists: the
 * independent oracle that tests hold libcsr's reader to. One line at a time, each line parsed with
 * strtoll / strtod; no speed concerns. It follows ../shared/mmtests/README.md (the policy) and
 * the layout libcsr documents for csr_read_coo:
 *  - triples 0-based, in file order;
 *  - symmetric / skew / hermitian files, unless keep_symmetry: the mirror (j, i) of every
 *    off-diagonal stored entry (i, j) appended after all stored entries, in stored order, with
 *    the value negated for skew;
 *  - array files: every value, column by column (explicit zeros kept); a symmetric array stores
 *    the lower triangle with the diagonal, a skew array the strictly lower triangle;
 *  - vectors are n x 1.
 * A refusal gives the policy's status and the 1-based line it is about; errors found at the end
 * of the input (a missing size line, too few entries) are about the last line of the file. */
#ifndef CSR_MM_ORACLE_H
#define CSR_MM_ORACLE_H

#include "csr.h"

#include <stddef.h>
#include <stdint.h>

typedef struct mmo_result {
  csr_status status;  /* CSR_SUCCESS, CSR_ERR_PARSE, CSR_ERR_OVERFLOW, CSR_ERR_UNSUPPORTED */
  int64_t error_line; /* the line a refusal is about; 0 on success */
  int64_t rows, cols;
  int64_t stored;     /* entries in the file */
  int64_t nnz;        /* triples below (after expansion unless keep_symmetry) */
  int64_t *row, *col; /* 0-based */
  double *val;        /* values (NULL when there are none) */
  int pattern;        /* pattern files and 2-column edge lists: no values */
  int is_array, is_vector;
  csr_mm_symmetry symmetry; /* real hermitian is reported as CSR_MM_SYMMETRIC, as libcsr does */
} mmo_result;

/* Matrix Market text in memory. Returns r->status. */
csr_status mmo_parse_mm(const char *text, size_t size, int keep_symmetry, mmo_result *r);
/* Edge list text ("from to [weight]", 0-based, '#' or '%' comments; rows = cols = max id + 1). */
csr_status mmo_parse_edges(const char *text, size_t size, mmo_result *r);
/* The same from a file (plain or gzip); CSR_ERR_IO if it cannot be read. */
csr_status mmo_read_mm(const char *path, int keep_symmetry, mmo_result *r);
csr_status mmo_read_edges(const char *path, mmo_result *r);
void mmo_free(mmo_result *r);

/* The whole file, gzip inflated (zlib reads plain files as they are); NULL on failure. The
 * buffer is NUL-terminated (not counted in *size). */
char *mmo_slurp(const char *path, size_t *size);

/* 1 if T holds exactly the oracle's triples: same shape and count, same rows and columns in the
 * same order, values bit for bit (as float for a CSR_F32 T; pattern: T has no values). Else 0,
 * with the first difference in why. */
int mmo_coo_matches(const csr_coo *T, const mmo_result *r, char *why, size_t why_size);
/* 1 if A and B are the same COO bit for bit (shape, type, indices, values), else 0 and why. */
int mmo_coo_identical(const csr_coo *A, const csr_coo *B, char *why, size_t why_size);

#endif
