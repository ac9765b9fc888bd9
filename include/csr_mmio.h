/* SPDX-License-Identifier: BSD-3-Clause */
/* libcsr's implementation of the NIST Matrix Market I/O interface (mmio.h).
 *
 * Much C code reads and writes Matrix Market files through NIST's mmio.c/mmio.h
 * (https://math.nist.gov/MatrixMarket/mmio-c.html). This header offers the same names, macros,
 * constants and function signatures, implemented on libcsr's reader and writer, so such code
 * compiles and links against libcsr unchanged except for one line: include "csr_mmio.h" instead
 * of "mmio.h" (or create a one-line mmio.h holding `#include "csr_mmio.h"`) and drop mmio.c.
 *
 *   #include "csr_mmio.h"                       link with -lcsr (or csr::csr in CMake)
 *
 * Semantics are NIST's unless listed below: the stream functions leave the FILE where NIST's do
 * (after the banner line, after the size line, after the entries), so they interleave with the
 * caller's own fscanf; indices are 1-based as in the file, except mm_read_unsymmetric_sparse
 * (0-based); symmetric files give the stored triangle (nothing is expanded); every array and
 * string returned comes from malloc and the caller frees it with free().
 *
 * What differs from NIST's mmio.c:
 *  - nothing is printed, whatever the input; the detail of a failure is available from
 *    csr_mmio_last_error() (a libcsr extension, per thread);
 *  - complex matrices are not supported (libcsr is real): mm_read_banner and
 *    mm_typecode_to_str accept them, every call that reads or writes entries returns
 *    MM_UNSUPPORTED_TYPE;
 *  - input is checked as strictly as csr_read_coo checks it: a banner of exactly five words,
 *    exactly the declared number of entries, one entry per line, indices inside the declared
 *    size, values that fit a double, sizes that fit an int, no invalid type combination
 *    ("array pattern", "pattern hermitian", "pattern skew-symmetric"). Layout is free as in
 *    libcsr: any letter case, CR/CRLF/LF line ends, blank lines and comments anywhere. NIST's
 *    code accepts some malformed files silently (and can loop forever on a bad size line);
 *  - "integer" files are read (values as doubles) and written (values must be integral), where
 *    NIST's data functions return MM_UNSUPPORTED_TYPE;
 *  - the write functions return 0 on success (NIST's mm_write_banner and size writers return
 *    MM_COULD_NOT_WRITE_FILE even when they succeed); mm_write_mtx_crd writes values in the
 *    shortest form that reads back to the same double, not "%20.16g", and a name ending in
 *    ".gz" gives a gzip file; mm_read_mtx_crd also reads ".gz" files;
 *  - mm_read_mtx_crd_data reads the rest of the stream (it must hold exactly nz entries);
 *  - the functions are exported as csr_mm_* and the mm_* names are macros for them, so a
 *    program may also link a copy of NIST's mmio.c without symbol clashes (only the copy whose
 *    header a file includes is used there).
 *
 * Error codes are NIST's: MM_COULD_NOT_READ_FILE (cannot open or read; also out of memory),
 * MM_PREMATURE_EOF (missing or malformed banner words, size line or entries: NIST's code for
 * any data it could not scan), MM_NO_HEADER (first line is not a %%MatrixMarket banner),
 * MM_UNSUPPORTED_TYPE (a type or size libcsr or this interface cannot hold), MM_LINE_TOO_LONG
 * (a banner or size line past MM_MAX_LINE_LENGTH), MM_COULD_NOT_WRITE_FILE. A NULL pointer
 * argument gives MM_COULD_NOT_READ_FILE from the readers, MM_COULD_NOT_WRITE_FILE from the
 * writers.
 * mm_read_unsymmetric_sparse returns -1 on any failure, as NIST's does.
 */
#ifndef CSR_MMIO_H
#define CSR_MMIO_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MM_MAX_LINE_LENGTH 1025
#define MatrixMarketBanner "%%MatrixMarket"
#define MM_MAX_TOKEN_LENGTH 64

/** Four characters: object (M), format (C coordinate, A array), field (R real, I integer,
 *  P pattern, C complex), symmetry (G general, S symmetric, K skew-symmetric, H hermitian). */
typedef char MM_typecode[4];

/* --- typecode queries (on an MM_typecode) ------------------------------------------------- */
#define mm_is_matrix(typecode) ((typecode)[0] == 'M')

#define mm_is_sparse(typecode) ((typecode)[1] == 'C')
#define mm_is_coordinate(typecode) ((typecode)[1] == 'C')
#define mm_is_dense(typecode) ((typecode)[1] == 'A')
#define mm_is_array(typecode) ((typecode)[1] == 'A')

#define mm_is_complex(typecode) ((typecode)[2] == 'C')
#define mm_is_real(typecode) ((typecode)[2] == 'R')
#define mm_is_pattern(typecode) ((typecode)[2] == 'P')
#define mm_is_integer(typecode) ((typecode)[2] == 'I')

#define mm_is_symmetric(typecode) ((typecode)[3] == 'S')
#define mm_is_general(typecode) ((typecode)[3] == 'G')
#define mm_is_skew(typecode) ((typecode)[3] == 'K')
#define mm_is_hermitian(typecode) ((typecode)[3] == 'H')

/* --- typecode setters (on a pointer to an MM_typecode, as NIST's) ------------------------- */
#define mm_set_matrix(typecode) ((*typecode)[0] = 'M')
#define mm_set_coordinate(typecode) ((*typecode)[1] = 'C')
#define mm_set_array(typecode) ((*typecode)[1] = 'A')
#define mm_set_dense(typecode) mm_set_array(typecode)
#define mm_set_sparse(typecode) mm_set_coordinate(typecode)

#define mm_set_complex(typecode) ((*typecode)[2] = 'C')
#define mm_set_real(typecode) ((*typecode)[2] = 'R')
#define mm_set_pattern(typecode) ((*typecode)[2] = 'P')
#define mm_set_integer(typecode) ((*typecode)[2] = 'I')

#define mm_set_symmetric(typecode) ((*typecode)[3] = 'S')
#define mm_set_general(typecode) ((*typecode)[3] = 'G')
#define mm_set_skew(typecode) ((*typecode)[3] = 'K')
#define mm_set_hermitian(typecode) ((*typecode)[3] = 'H')

#define mm_clear_typecode(typecode)                                                                \
  ((*typecode)[0] = (*typecode)[1] = (*typecode)[2] = ' ', (*typecode)[3] = 'G')
#define mm_initialize_typecode(typecode) mm_clear_typecode(typecode)

/* --- error codes -------------------------------------------------------------------------- */
#define MM_COULD_NOT_READ_FILE 11
#define MM_PREMATURE_EOF 12
#define MM_NOT_MTX 13
#define MM_NO_HEADER 14
#define MM_UNSUPPORTED_TYPE 15
#define MM_LINE_TOO_LONG 16
#define MM_COULD_NOT_WRITE_FILE 17

/* --- banner words ------------------------------------------------------------------------- */
#define MM_MTX_STR "matrix"
#define MM_ARRAY_STR "array"
#define MM_DENSE_STR "array"
#define MM_COORDINATE_STR "coordinate"
#define MM_SPARSE_STR "coordinate"
#define MM_COMPLEX_STR "complex"
#define MM_REAL_STR "real"
#define MM_INT_STR "integer"
#define MM_GENERAL_STR "general"
#define MM_SYMM_STR "symmetric"
#define MM_HERM_STR "hermitian"
#define MM_SKEW_STR "skew-symmetric"
#define MM_PATTERN_STR "pattern"

/* --- the NIST names, mapped to libcsr's exported symbols ---------------------------------- */
#define mm_is_valid csr_mm_is_valid
#define mm_typecode_to_str csr_mm_typecode_to_str
#define mm_read_banner csr_mm_read_banner
#define mm_read_mtx_crd_size csr_mm_read_mtx_crd_size
#define mm_read_mtx_array_size csr_mm_read_mtx_array_size
#define mm_write_banner csr_mm_write_banner
#define mm_write_mtx_crd_size csr_mm_write_mtx_crd_size
#define mm_write_mtx_array_size csr_mm_write_mtx_array_size
#define mm_read_mtx_crd_data csr_mm_read_mtx_crd_data
#define mm_read_mtx_crd_entry csr_mm_read_mtx_crd_entry
#define mm_read_mtx_crd csr_mm_read_mtx_crd
#define mm_write_mtx_crd csr_mm_write_mtx_crd
#define mm_read_unsymmetric_sparse csr_mm_read_unsymmetric_sparse

/** 1 if the typecode is a combination NIST calls valid: a matrix, and not array pattern, real
 *  hermitian, pattern hermitian or pattern skew-symmetric; else 0. (NIST's rule, unchanged:
 *  libcsr's own reader reads real hermitian as symmetric, but mm_read_mtx_crd refuses it.) */
int mm_is_valid(MM_typecode matcode);
/** "matrix coordinate real general" etc. in a new malloc'd string (free it); NULL when a
 *  character of the typecode is not one of the letters above. */
char *mm_typecode_to_str(MM_typecode matcode);

/** Reads the banner line (blank lines before it are skipped) and sets *matcode; the stream is
 *  left at the start of the next line. 0, or MM_PREMATURE_EOF (no line, fewer than 5 words),
 *  MM_NO_HEADER (not "%%MatrixMarket"), MM_UNSUPPORTED_TYPE (an object other than matrix, an
 *  unknown word, more than 5 words, an invalid combination: *matcode then holds what was
 *  recognised), MM_LINE_TOO_LONG. Words in any case; "double" reads as real. */
int mm_read_banner(FILE *f, MM_typecode *matcode);
/** Skips comment and blank lines, then reads the coordinate size line "M N nz" (exactly three
 *  integers, each in [0, INT_MAX]); the stream is left after it. M, N, nz are 0 on failure:
 *  MM_PREMATURE_EOF (end of input, malformed line), MM_UNSUPPORTED_TYPE (a number past INT_MAX),
 *  MM_LINE_TOO_LONG. */
int mm_read_mtx_crd_size(FILE *f, int *M, int *N, int *nz);
/** The same for the array size line "M N". */
int mm_read_mtx_array_size(FILE *f, int *M, int *N);

/** Writes "%%MatrixMarket <mm_typecode_to_str>\n"; 0, or MM_UNSUPPORTED_TYPE for an unknown
 *  typecode, MM_COULD_NOT_WRITE_FILE when the stream fails. */
int mm_write_banner(FILE *f, MM_typecode matcode);
/** Writes "M N nz\n"; 0, or MM_COULD_NOT_WRITE_FILE. */
int mm_write_mtx_crd_size(FILE *f, int M, int N, int nz);
/** Writes "M N\n"; 0, or MM_COULD_NOT_WRITE_FILE. */
int mm_write_mtx_array_size(FILE *f, int M, int N);

/** Reads the nz entries that follow the size line (the rest of the stream) into the caller's
 *  arrays: I[k], J[k] 1-based as in the file, val[k] the value (untouched for pattern; val may
 *  then be NULL). matcode says the field and symmetry (a skew-symmetric diagonal entry must be
 *  0); indices must lie in [1, M] x [1, N]. 0, or MM_PREMATURE_EOF (fewer or more entries than
 *  nz, a malformed entry), MM_UNSUPPORTED_TYPE (complex, array, a value past double range),
 *  MM_COULD_NOT_READ_FILE. The stream is left at its end. */
int mm_read_mtx_crd_data(FILE *f, int M, int N, int nz, int I[], int J[], double val[],
                         MM_typecode matcode);
/** Reads the next entry (comment and blank lines skipped; one entry per line): *I, *J 1-based,
 *  *real the value (untouched for pattern), *img untouched (complex is unsupported). The
 *  stream is left after the entry's line. 0, or MM_PREMATURE_EOF (end of input, malformed
 *  entry), MM_UNSUPPORTED_TYPE. */
int mm_read_mtx_crd_entry(FILE *f, int *I, int *J, double *real, double *img, MM_typecode matcode);

/** Reads a coordinate file (".gz" too; "stdin" reads descriptor 0 directly, so nothing may
 *  have been read from stdin before) through csr_read_coo with the stored triangle kept: *M,
 *  *N, *nz, new arrays *I, *J (1-based, file order) and *val (NULL for pattern), *matcode the
 *  file's typecode. Type refusals as NIST's:
 *  MM_UNSUPPORTED_TYPE unless mm_is_valid, coordinate and a matrix; complex too. Errors:
 *  MM_COULD_NOT_READ_FILE, and the codes of mm_read_banner and mm_read_mtx_crd_data. Nothing
 *  is allocated on failure. */
int mm_read_mtx_crd(char *fname, int *M, int *N, int *nz, int **I, int **J, double **val,
                    MM_typecode *matcode);
/** Writes a coordinate file through csr_write_coo_mm ("stdout": stdout is flushed, then the
 *  text goes to descriptor 1; a ".gz" name gives gzip): banner from matcode, "M N nz", then
 *  I[k] J[k] (1-based, in [1, M] x [1, N]) and val[k]
 *  (not read for pattern; integral for integer). Symmetric, skew and hermitian typecodes write
 *  the entries as given (the caller passes the stored triangle). 0, or MM_COULD_NOT_WRITE_FILE,
 *  MM_UNSUPPORTED_TYPE (complex, array, an invalid typecode, a non-integral integer value, an
 *  index outside the size). */
int mm_write_mtx_crd(char fname[], int M, int N, int nz, int I[], int J[], double val[],
                     MM_typecode matcode);
/** Reads a real coordinate matrix (general or not: the stored entries as they are) with 0-based
 *  *I_, *J_ and *val_ from malloc; 0, or -1 on any failure (nothing allocated). */
int mm_read_unsymmetric_sparse(const char *fname, int *M_, int *N_, int *nz_, double **val_,
                               int **I_, int **J_);

/** libcsr extension: what the last failing mm_* call of this thread found wrong, e.g.
 *  "m.mtx:7: expected a real value, found 'x'" (empty if none failed yet). */
const char *csr_mmio_last_error(void);

#ifdef __cplusplus
}
#endif
#endif /* CSR_MMIO_H */
