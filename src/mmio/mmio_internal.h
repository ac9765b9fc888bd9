/* SPDX-License-Identifier: BSD-3-Clause */
/* The NIST mmio interface (include/csr_mmio.h) on libcsr's reader and writer: shared pieces of
 * src/mmio_*.c. Internal. */
#ifndef CSR_MMIO_INTERNAL_H
#define CSR_MMIO_INTERNAL_H

#include "core/internal.h"
#include "csr_mmio.h"

#include <stdio.h>

/* Records the detail csr_mmio_last_error() returns (per thread) and returns code. */
int csri_mmio_fail(int code, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* 0 for a success; else records the context's message and returns the NIST code of status
 * (IO: MM_COULD_NOT_READ_FILE or, when writing, MM_COULD_NOT_WRITE_FILE; PARSE:
 * MM_PREMATURE_EOF; UNSUPPORTED, OVERFLOW, INVALID_VALUE, INDEX_OUT_OF_BOUNDS:
 * MM_UNSUPPORTED_TYPE; anything else, out of memory included: the IO code). */
int csri_mmio_code(const csr_context *ctx, csr_status status, int writing);

/* A line of a stream, without its terminator ("\n", "\r\n" or "\r"). */
typedef struct csri_mmio_line {
  char *text; /* NUL-terminated; the line may hold NULs of its own */
  size_t len, cap;
} csri_mmio_line;
/* Reads the next line: 0, EOF (-1) at the end of input before any character, or
 * MM_COULD_NOT_READ_FILE (read error, out of memory). */
int csri_mmio_read_line(FILE *f, csri_mmio_line *line);
void csri_mmio_line_free(csri_mmio_line *line);
/* 1 if [p, p + len) holds only blanks, or (after blanks) starts a '%' comment. */
int csri_mmio_skippable(const char *p, size_t len);

/* The banner words of a typecode that libcsr can read as a coordinate matrix: field "real",
 * "integer" or "pattern", symmetry "general", "symmetric", "skew-symmetric" or "hermitian";
 * 0 when it cannot (complex, array, not a matrix, unknown letters, pattern skew/hermitian). */
int csri_mmio_coordinate_words(const MM_typecode matcode, const char **field,
                               const char **symmetry);

/* Copies triples T (0-based) into new malloc'd int arrays, 1-based (plus `base` - 1: pass 1
 * for the file's numbering, 0 for 0-based) and the values into a new double array (NULL for
 * pattern). MM_COULD_NOT_READ_FILE when out of memory, MM_UNSUPPORTED_TYPE past INT_MAX. */
int csri_mmio_export(const csr_coo *T, int base, int **I, int **J, double **val);

#endif
