/* SPDX-License-Identifier: BSD-3-Clause */
/* The reader against the shared corpora: every file under ../shared/mmtests gets the outcome that
 * ../shared/mmtests/README.md (the policy) asks for, and every matrix of ../shared/matrices reads
 * with the shape and counts of its INDEX.md.
 *  - A hard-coded table lists each mmtests file with its status and, for refusals, the 1-based
 *    line the message must name ("<path>:<line>:"; worked out by hand: the line holding the bad
 *    token; for errors found at the end of the input, a missing size line or too few entries,
 *    the last line of the file). A directory walk fails on any file the table does not list.
 *  - Valid files: the COO equals the oracle's triples (tests/common/mm_oracle.c) bit for bit and
 *    in order, on the ref and omp backends, with the default and tiny block sizes, from the path
 *    and from a buffer, expanded and with keep_symmetry, F64 and F32.
 *  - fmm/symmetry: X.mtx against X_general*.mtx after csr_read_csr (see compare_symmetry).
 * Exits 77 (skipped) when ../shared is missing. */
#define _POSIX_C_SOURCE 200809L
#include "mm_oracle.h"
#include "testing.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SHARED "../shared"
#define MMTESTS SHARED "/mmtests"
#define MATRICES SHARED "/matrices"

/* --- the policy, file by file ----------------------------------------------------------------- */

typedef struct expectation {
  const char *path; /* relative to MMTESTS */
  csr_status status;
  int line;          /* the line a refusal names; 0: none (compression is refused before lines) */
  const char *words; /* '|'-separated text the message must hold too; NULL: nothing more */
} expectation;

#define OK(p)                                                                                      \
  { p, CSR_SUCCESS, 0, NULL }
#define PARSE(p, l)                                                                                \
  { p, CSR_ERR_PARSE, l, NULL }
#define PARSE_SAYS(p, l, w)                                                                        \
  { p, CSR_ERR_PARSE, l, w }
#define OVERFLOW(p, l)                                                                             \
  { p, CSR_ERR_OVERFLOW, l, NULL }
/* Dimensions past CSR_MAX_DIM: the message says the limit. */
#define DIM_OVERFLOW(p, l)                                                                         \
  { p, CSR_ERR_OVERFLOW, l, "2147483647" }
/* The complex field, named on the banner (line 1 in every file here). */
#define COMPLEX(p)                                                                                 \
  { p, CSR_ERR_UNSUPPORTED, 1, "complex|not supported" }

static const expectation corpus[] = {
    OK("fmm/2col_array.mtx"),
    OK("fmm/eye3.mtx"),
    OK("fmm/eye3_array.mtx"),
    COMPLEX("fmm/eye3_complex.mtx"),
    OK("fmm/eye3_pattern.mtx"),
    OK("fmm/eye3_str.mtx"),
    /* an extra "%%GraphBLAS type" comment line after the banner; duplicates kept */
    OK("fmm/graphblas/matrix_bool.mtx"),
    OK("fmm/graphblas/matrix_double.mtx"),
    COMPLEX("fmm/graphblas/matrix_double_complex.mtx"),
    OK("fmm/graphblas/matrix_float.mtx"),
    COMPLEX("fmm/graphblas/matrix_float_complex.mtx"),
    OK("fmm/graphblas/matrix_int16.mtx"),
    OK("fmm/graphblas/matrix_int32.mtx"),
    OK("fmm/graphblas/matrix_int64.mtx"),
    OK("fmm/graphblas/matrix_int8.mtx"),
    OK("fmm/graphblas/matrix_uint16.mtx"),
    OK("fmm/graphblas/matrix_uint32.mtx"),
    OK("fmm/graphblas/matrix_uint64.mtx"),
    OK("fmm/graphblas/matrix_uint8.mtx"),
    /* banners: "%%__BadBanner", "%%Matrix Market", unknown field / format / object / symmetry */
    PARSE("fmm/invalid/invalid_bad_banner.mtx", 1),
    PARSE("fmm/invalid/invalid_bad_banner_2.mtx", 1),
    PARSE("fmm/invalid/invalid_bad_field.mtx", 1),
    PARSE("fmm/invalid/invalid_bad_format.mtx", 1),
    PARSE("fmm/invalid/invalid_bad_object.mtx", 1),
    PARSE("fmm/invalid/invalid_bad_symmetry.mtx", 1),
    PARSE("fmm/invalid/invalid_bad_value.mtx", 3),                 /* "2 1 not_a_double" */
    PARSE("fmm/invalid/invalid_bad_value_2.mtx", 5),               /* "foooooo" */
    PARSE("fmm/invalid/invalid_bad_value_3.mtx", 4),               /* "2 ffsafdsafas" */
    PARSE("fmm/invalid/invalid_bad_value_4.mtx", 4),               /* "ffsafdsafas 22" */
    PARSE("fmm/invalid/invalid_dimensions_out_of_range_1.mtx", 3), /* -3 rows */
    PARSE("fmm/invalid/invalid_dimensions_out_of_range_2.mtx", 3), /* -3 columns */
    PARSE("fmm/invalid/invalid_dimensions_out_of_range_3.mtx", 3), /* -3 entries */
    PARSE("fmm/invalid/invalid_indices_out_of_range_1.mtx", 5),    /* row 5000 of 7 */
    PARSE("fmm/invalid/invalid_indices_out_of_range_2.mtx", 6),    /* column 2000 of 7 */
    PARSE("fmm/invalid/invalid_indices_out_of_range_3.mtx", 5),    /* row 0 */
    PARSE("fmm/invalid/invalid_indices_out_of_range_4.mtx", 6),    /* column 0 */
    PARSE("fmm/invalid/invalid_indices_out_of_range_5.mtx", 5),    /* row -1 */
    PARSE("fmm/invalid/invalid_indices_out_of_range_6.mtx", 6),    /* column -2 */
    PARSE_SAYS("fmm/invalid/invalid_matrix_coord_too_long.mtx", 7, "expected 3 entries"),
    PARSE("fmm/invalid/invalid_symmetry_vector.mtx", 1),    /* a symmetric vector */
    PARSE("fmm/invalid/invalid_truncated_header_1.mtx", 2), /* no size line: ends on line 2 */
    PARSE("fmm/invalid/invalid_truncated_header_2.mtx", 1), /* a 4-word banner */
    PARSE("fmm/invalid/invalid_truncated_line_1.mtx", 5),   /* "5 2": no value */
    PARSE("fmm/invalid/invalid_truncated_line_2.mtx", 5),   /* "5": no column, no value */
    PARSE_SAYS("fmm/invalid/invalid_truncated_lines.mtx", 4, "expected 12 entries|found 2"),
    PARSE_SAYS("fmm/invalid/invalid_vector_array_too_long.mtx", 7, "expected 4 entries"),
    PARSE_SAYS("fmm/invalid/invalid_vector_coord_too_long.mtx", 6, "expected 3 entries"),
    PARSE("fmm/invalid/invalid_vector_index_out_of_range_1.mtx", 4), /* index 0 */
    PARSE("fmm/invalid/invalid_vector_index_out_of_range_2.mtx", 4), /* index 200 of 4 */
    PARSE("fmm/invalid/invalid_vector_negative_length.mtx", 2),
    OK("fmm/kepner_gilbert_graph.mtx"),
    OK("fmm/nist_ex1.mtx"),
    OK("fmm/nist_ex1_freeformat.mtx"),
    OK("fmm/nist_ex1_more_freeformat.mtx"),
    DIM_OVERFLOW("fmm/overflow/overflow_dim_gt_int64.mtx", 2),
    /* an index past int64 is above all an index beyond the declared 1000: a content error */
    PARSE("fmm/overflow/overflow_index_gt_int64.mtx", 6),
    OK("fmm/overflow/overflow_index_gt_int8.mtx"),
    COMPLEX("fmm/overflow/overflow_value_gt_complex128.mtx"),
    OVERFLOW("fmm/overflow/overflow_value_gt_float128.mtx", 4), /* 1E9999 */
    OVERFLOW("fmm/overflow/overflow_value_gt_float64.mtx", 4),  /* 1E310 */
    OK("fmm/overflow/overflow_value_gt_int32.mtx"),             /* 8589934592 fits int64 */
    OVERFLOW("fmm/overflow/overflow_value_gt_int64.mtx", 6),
    OK("fmm/permissive/permissive_banner_leading_spaces_eye3.mtx"),
    OK("fmm/permissive/permissive_banner_one_percent_eye3.mtx"),
    OK("fmm/permissive/permissive_lines_indented.mtx"),
    OK("fmm/permissive/windows_lineendings_nist_ex1_more_freeformat.mtx"),
    OK("fmm/python/eye3.mtx"),
    COMPLEX("fmm/python/long_double/longcomplex_array.mtx"),
    COMPLEX("fmm/python/long_double/longcomplex_coordinate.mtx"),
    OVERFLOW("fmm/python/long_double/longdouble_array.mtx", 4),
    OVERFLOW("fmm/python/long_double/longdouble_coordinate.mtx", 4),
    COMPLEX("fmm/python/matrix_array_complex_general.mtx"),
    OK("fmm/python/matrix_array_integer_general.mtx"),
    OK("fmm/python/matrix_array_real_general.mtx"),
    COMPLEX("fmm/python/matrix_coordinate_complex_general.mtx"),
    COMPLEX("fmm/python/matrix_coordinate_complex_hermitian.mtx"),
    OK("fmm/python/matrix_coordinate_integer_general.mtx"),
    OK("fmm/python/matrix_coordinate_pattern_general.mtx"),
    OK("fmm/python/matrix_coordinate_pattern_symmetric.mtx"),
    OK("fmm/python/matrix_coordinate_real_general.mtx"),
    {"fmm/python/matrix_coordinate_real_general.mtx.bz2", CSR_ERR_UNSUPPORTED, 0,
     "bzip2|not supported"},
    OK("fmm/python/matrix_coordinate_real_general.mtx.gz"),
    PARSE("fmm/python/matrix_coordinate_real_skew-symmetric.mtx", 6), /* "3 3 30": diagonal */
    OK("fmm/python/matrix_coordinate_real_symmetric.mtx"),
    OK("fmm/python/misc/windows_newlines.mtx"), /* bare CR line endings */
    DIM_OVERFLOW("fmm/python/scipy_crashes/dim_over_32_bit.mtx", 3),
    OK("fmm/python/scipy_crashes/vector_array_real_general.mtx"),
    OK("fmm/python/scipy_crashes/vector_coordinate_real_general.mtx"),
    OK("fmm/row_3by4.mtx"),
    OK("fmm/symmetry/coordinate_hermitian_real_row.mtx"),
    OK("fmm/symmetry/coordinate_hermitian_real_row_general.mtx"),
    OK("fmm/symmetry/coordinate_hermitian_real_row_general_dup.mtx"),
    OK("fmm/symmetry/coordinate_hermitian_real_row_general_zero.mtx"),
    COMPLEX("fmm/symmetry/coordinate_hermitian_row.mtx"),
    COMPLEX("fmm/symmetry/coordinate_hermitian_row_general.mtx"),
    COMPLEX("fmm/symmetry/coordinate_hermitian_row_general_dup.mtx"),
    COMPLEX("fmm/symmetry/coordinate_hermitian_row_general_zero.mtx"),
    OK("fmm/symmetry/coordinate_pattern_symmetric_row.mtx"),
    OK("fmm/symmetry/coordinate_pattern_symmetric_row_general.mtx"),
    OK("fmm/symmetry/coordinate_pattern_symmetric_row_general_dup.mtx"),
    OK("fmm/symmetry/coordinate_pattern_symmetric_row_general_zero.mtx"),
    OK("fmm/symmetry/coordinate_skew_symmetric_row.mtx"),
    OK("fmm/symmetry/coordinate_skew_symmetric_row_general.mtx"),
    OK("fmm/symmetry/coordinate_skew_symmetric_row_general_dup.mtx"),
    OK("fmm/symmetry/coordinate_skew_symmetric_row_general_zero.mtx"),
    OK("fmm/symmetry/coordinate_symmetric_row.mtx"),
    OK("fmm/symmetry/coordinate_symmetric_row_general.mtx"),
    OK("fmm/symmetry/coordinate_symmetric_row_general_dup.mtx"),
    OK("fmm/symmetry/coordinate_symmetric_row_general_zero.mtx"),
    COMPLEX("fmm/symmetry_array/array_hermitian.mtx"),
    COMPLEX("fmm/symmetry_array/array_hermitian_general.mtx"),
    OK("fmm/symmetry_array/array_skew-symmetric.mtx"),
    OK("fmm/symmetry_array/array_skew-symmetric_general.mtx"),
    OK("fmm/symmetry_array/array_symmetric.mtx"),
    OK("fmm/symmetry_array/array_symmetric_general.mtx"),
    OK("fmm/vector_array.mtx"),
    OK("fmm/vector_coordinate.mtx"),
    COMPLEX("fmm/vector_coordinate_complex.mtx"),
    COMPLEX("fmm/vector_coordinate_complex_dupes.mtx"),
    OK("fmm/vector_coordinate_dupes.mtx"),
    OK("matrixmarket-jl/test.mtx"),
    OK("matrixmarket-jl/test.mtx.gz"),
    OK("scipy/32bit_integer_dense_example.mtx"),
    OK("scipy/32bit_integer_sparse_example.mtx"),
    OK("scipy/64bit_integer_dense_example.mtx"),
    OK("scipy/64bit_integer_sparse_general_example.mtx"),
    PARSE("scipy/64bit_integer_sparse_skew_example.mtx", 3), /* "1 1 2147483648": diagonal */
    OK("scipy/64bit_integer_sparse_symmetric_example.mtx"),
    OK("scipy/empty_lines_example.mtx"),
    OK("scipy/general_example.mtx"),
    COMPLEX("scipy/hermitian_example.mtx"),
    OVERFLOW("scipy/over64bit_integer_dense_example.mtx", 6),
    OVERFLOW("scipy/over64bit_integer_sparse_example.mtx", 4),
    PARSE("scipy/skew_example.mtx", 3), /* "1 1 1.0": a nonzero diagonal */
    OK("scipy/symmetric_example.mtx"),
    OK("scipy/symmetric_pattern_example.mtx"),
    PARSE("scipy/test_bad_number_of_array_header_fields.mtx", 2),      /* "3 3 999" */
    PARSE("scipy/test_bad_number_of_coordinate_header_fields.mtx", 2), /* "5 5 8 999" */
    COMPLEX("scipy/test_gh11389.mtx"),
    OK("scipy/test_gh18123.mtx"), /* a space before the banner */
    /* 13 declared, 8 given; the file ends with 2 blank lines, on line 33 */
    PARSE_SAYS("sprs/bad_files/not_enough_entries.mm", 33, "expected 13 entries|found 8"),
    PARSE("sprs/bad_files/too_many_elems_in_entry.mm", 5), /* "1 1 1 4" */
    OK("sprs/complex/hermitian-int.mtx"),                  /* integer hermitian: real */
    COMPLEX("sprs/complex/hermitian.mtx"),
    COMPLEX("sprs/complex/simple.mtx"),
    COMPLEX("sprs/complex/skew-symmetric.mtx"),
    COMPLEX("sprs/complex/symmetric.mtx"),
    OK("sprs/pattern.mm"),
    OK("sprs/simple.mm"),
    OK("sprs/simple_int.mm"),
    OK("sprs/symmetric.mm"),
};
enum { CORPUS_SIZE = sizeof corpus / sizeof corpus[0] };

/* --- helpers ---------------------------------------------------------------------------------- */

static csr_context *ctx_ref, *ctx_omp; /* ctx_omp NULL when OpenMP is not built in */

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The raw bytes of a file (not inflated). */
static char *read_raw(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return NULL;
  size_t cap = 1 << 12, n = 0, got;
  char *buf = malloc(cap);
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0)
    if ((n += got) == cap) {
      char *grown = realloc(buf, cap *= 2);
      if (grown == NULL)
        free(buf);
      buf = grown;
    }
  fclose(f);
  *size = n;
  return buf;
}

/* Each '|'-separated word of words is in message. */
static int holds_words(const char *message, const char *words) {
  char copy[256];
  snprintf(copy, sizeof copy, "%s", words ? words : "");
  for (char *w = strtok(copy, "|"); w; w = strtok(NULL, "|"))
    if (strstr(message, w) == NULL)
      return 0;
  return 1;
}

static csr_status read_coo(csr_context *ctx, const char *path, size_t block, int keep,
                           csr_value_type type, csr_coo **T, csr_file_info *info) {
  csr_read_options o;
  csr_read_options_init(&o);
  o.block_bytes = block;
  o.keep_symmetry = keep;
  o.value_type = type;
  return csr_read_coo(ctx, path, &o, T, info);
}

/* --- refusals --------------------------------------------------------------------------------- */

static void check_refusal(const expectation *e, const char *path) {
  static const size_t blocks[] = {0, 16, 64};
  for (int b = 0; b < 2 * 3; b++) {
    csr_context *ctx = b < 3 ? ctx_ref : ctx_omp;
    if (ctx == NULL)
      continue;
    csr_coo *T = NULL;
    csr_context_clear_error(ctx);
    csr_status s = read_coo(ctx, path, blocks[b % 3], 0, CSR_F64, &T, NULL);
    const char *message = csr_context_last_error(ctx);
    CHECKF(s == e->status, "%s (block %zu): %s, expected %s (%s)", path, blocks[b % 3],
           csr_status_string(s), csr_status_string(e->status), message);
    CHECKF(T == NULL, "%s: a refusal left a COO", path);
    csr_coo_free(&T);
    if (s != e->status)
      continue;
    CHECKF(strstr(message, path) != NULL, "%s: the message does not name the file: %s", path,
           message);
    if (e->line > 0) {
      char at[600];
      snprintf(at, sizeof at, "%s:%d:", path, e->line);
      CHECKF(strstr(message, at) != NULL, "%s: the message does not name line %d: %s", path,
             e->line, message);
    }
    CHECKF(holds_words(message, e->words), "%s: the message lacks '%s': %s", path, e->words,
           message);
  }
  /* The oracle agrees with the table (a check of both). bzip2 is not the oracle's business. */
  if (e->line > 0) {
    mmo_result o;
    mmo_read_mm(path, 0, &o);
    CHECKF(o.status == e->status && o.error_line == e->line,
           "%s: the oracle gives %s on line %lld, the table %s on line %d", path,
           csr_status_string(o.status), (long long)o.error_line, csr_status_string(e->status),
           e->line);
    mmo_free(&o);
  }
}

/* --- valid files ------------------------------------------------------------------------------ */

/* Reads path every way (backends, block sizes, buffer, keep_symmetry, F32) against the oracle. */
static void check_valid(const char *path, const size_t *blocks, int nblocks, int thorough) {
  mmo_result o, kept;
  if (mmo_read_mm(path, 0, &o) != CSR_SUCCESS) {
    CHECKF(0, "%s: the oracle refuses it (%s on line %lld)", path, csr_status_string(o.status),
           (long long)o.error_line);
    return;
  }
  mmo_read_mm(path, 1, &kept);
  size_t text_size = 0, raw_size = 0;
  char *text = mmo_slurp(path, &text_size), *raw = read_raw(path, &raw_size);
  char why[512];
  csr_coo *first = NULL;
  for (int b = 0; b < 2 * nblocks; b++) {
    csr_context *ctx = b < nblocks ? ctx_ref : ctx_omp;
    size_t block = blocks[b % nblocks];
    if (ctx == NULL)
      continue;
    csr_coo *T = NULL;
    csr_file_info info;
    memset(&info, 0xA5, sizeof info);
    csr_status s = read_coo(ctx, path, block, 0, CSR_F64, &T, &info);
    CHECKF(s == CSR_SUCCESS, "%s (%s, block %zu): %s (%s)", path,
           csr_backend_name(csr_context_backend(ctx)), block, csr_status_string(s),
           csr_context_last_error(ctx));
    if (s != CSR_SUCCESS)
      continue;
    CHECKF(mmo_coo_matches(T, &o, why, sizeof why), "%s (%s, block %zu): %s", path,
           csr_backend_name(csr_context_backend(ctx)), block, why);
    if (first == NULL) {
      CHECKF(info.format == CSR_FORMAT_MATRIX_MARKET && info.rows == o.rows &&
                 info.cols == o.cols && info.stored_entries == o.stored && info.entries == o.nnz &&
                 info.is_array == o.is_array && info.is_vector == o.is_vector &&
                 info.symmetry == o.symmetry && info.gzip == ends_with(path, ".gz") &&
                 info.bytes == (int64_t)text_size && (info.field == CSR_MM_PATTERN) == o.pattern,
             "%s: info: format %d, %lld x %lld, stored %lld, entries %lld, array %d, vector %d, "
             "symmetry %d, gzip %d, bytes %lld, field %d",
             path, (int)info.format, (long long)info.rows, (long long)info.cols,
             (long long)info.stored_entries, (long long)info.entries, info.is_array, info.is_vector,
             (int)info.symmetry, info.gzip, (long long)info.bytes, (int)info.field);
      first = T;
      continue;
    }
    CHECKF(mmo_coo_identical(first, T, why, sizeof why), "%s (%s, block %zu) vs default: %s", path,
           csr_backend_name(csr_context_backend(ctx)), block, why);
    csr_coo_free(&T);
  }
  if (thorough && first) {
    csr_coo *T = NULL;
    /* The same bytes from memory (gzip ones too). */
    CHECKF(raw && csr_read_coo_buffer(ctx_ref, raw, raw_size, path, NULL, &T, NULL) == 0 &&
               mmo_coo_identical(first, T, why, sizeof why),
           "%s: from a buffer: %s", path, csr_context_last_error(ctx_ref));
    csr_coo_free(&T);
    /* As stored, and in single precision. */
    CHECKF(read_coo(ctx_ref, path, 0, 1, CSR_F64, &T, NULL) == 0 &&
               mmo_coo_matches(T, &kept, why, sizeof why),
           "%s: keep_symmetry: %s", path, why);
    csr_coo_free(&T);
    CHECKF(read_coo(ctx_ref, path, 17, 0, CSR_F32, &T, NULL) == 0 &&
               mmo_coo_matches(T, &o, why, sizeof why),
           "%s: F32: %s", path, why);
    csr_coo_free(&T);
  }
  csr_coo_free(&first);
  free(text);
  free(raw);
  mmo_free(&o);
  mmo_free(&kept);
}

/* --- fmm/symmetry: X.mtx against X_general*.mtx ----------------------------------------------- */

/* A = csr_read_csr(X), B = csr_read_csr(V) for a variant V of X, both assembled (duplicates
 * summed, columns sorted). They must have the same shape, value type and structure (row
 * offsets, column indices); off the diagonal the values must be equal bit for bit. On the
 * diagonal:
 *  - X_general: equal bit for bit (the hand expansion of X);
 *  - X_general_zero: equal bit for bit too: that file stores an explicit 0 and then the value on
 *    the diagonal, and 0 + v == v exactly, so assembly gives X again;
 *  - X_general_dup: B = 2 * A (exact in binary): that file stores each diagonal entry twice and
 *    assembly sums them.
 * And at the COO level (before assembly): V has as many triples as X's expansion, plus one per
 * diagonal entry of X for _dup and _zero (the duplicated entry or the explicit zero). For the
 * skew and pattern files X has no diagonal entry, so every variant equals X exactly. */
static void compare_symmetry(const char *x_path, const char *v_path) {
  int dup = ends_with(v_path, "_dup.mtx"), zero = ends_with(v_path, "_zero.mtx");
  csr_matrix *A = NULL, *B = NULL;
  csr_coo *TX = NULL, *TV = NULL;
  if (csr_read_csr(ctx_ref, x_path, NULL, &A, NULL) != 0 ||
      csr_read_csr(ctx_ref, v_path, NULL, &B, NULL) != 0 ||
      csr_read_coo(ctx_ref, x_path, NULL, &TX, NULL) != 0 ||
      csr_read_coo(ctx_ref, v_path, NULL, &TV, NULL) != 0) {
    CHECKF(0, "%s / %s: not read: %s", x_path, v_path, csr_context_last_error(ctx_ref));
    goto done;
  }
  int64_t diagonal = 0;
  for (int64_t k = 0; k < TX->nnz; k++)
    diagonal += TX->row_indices[k] == TX->col_indices[k];
  CHECKF(TV->nnz == TX->nnz + (dup || zero ? diagonal : 0),
         "%s: %lld triples, %s expands to %lld with %lld on the diagonal", v_path,
         (long long)TV->nnz, x_path, (long long)TX->nnz, (long long)diagonal);
  int same = A->rows == B->rows && A->cols == B->cols && A->nnz == B->nnz &&
             A->value_type == B->value_type &&
             memcmp(A->row_offsets, B->row_offsets, (size_t)(A->rows + 1) * 8) == 0 &&
             (A->nnz == 0 || memcmp(A->col_indices, B->col_indices, (size_t)A->nnz * 4) == 0);
  CHECKF(same, "%s: structure differs from %s (%lld vs %lld entries)", v_path, x_path,
         (long long)B->nnz, (long long)A->nnz);
  if (!same || A->value_type != CSR_F64)
    goto done;
  const double *a = A->values, *b = B->values;
  for (int64_t i = 0; i < A->rows; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      double want = dup && A->col_indices[k] == i ? 2 * a[k] : a[k];
      CHECKF(memcmp(&want, &b[k], sizeof want) == 0, "%s: (%lld, %d) = %g, expected %g (%s)",
             v_path, (long long)i, A->col_indices[k], b[k], want, x_path);
    }
done:
  csr_matrix_free(&A);
  csr_matrix_free(&B);
  csr_coo_free(&TX);
  csr_coo_free(&TV);
}

/* fmm/symmetry_array: the general file lists every element, the zero diagonal of the skew one
 * included, which the skew file does not store; the matrices are equal, so compare dense. */
static void compare_dense(const char *x_path, const char *g_path) {
  csr_matrix *A = NULL, *B = NULL;
  csr_dense *DA = NULL, *DB = NULL;
  if (csr_read_csr(ctx_ref, x_path, NULL, &A, NULL) != 0 ||
      csr_read_csr(ctx_ref, g_path, NULL, &B, NULL) != 0 ||
      csr_to_dense(ctx_ref, A, CSR_ROW_MAJOR, &DA) != 0 ||
      csr_to_dense(ctx_ref, B, CSR_ROW_MAJOR, &DB) != 0) {
    CHECKF(0, "%s / %s: %s", x_path, g_path, csr_context_last_error(ctx_ref));
  } else {
    int same = DA->rows == DB->rows && DA->cols == DB->cols;
    for (int64_t k = 0; same && k < DA->rows * DA->cols; k++)
      same = ((double *)DA->data)[k] == ((double *)DB->data)[k];
    CHECKF(same, "%s differs from %s", x_path, g_path);
  }
  csr_matrix_free(&A);
  csr_matrix_free(&B);
  csr_dense_free(&DA);
  csr_dense_free(&DB);
}

static void check_symmetry_pairs(void) {
  char x_path[512], v_path[512];
  for (int i = 0; i < CORPUS_SIZE; i++) {
    const char *x = corpus[i].path;
    if (strncmp(x, "fmm/symmetry/", 13) != 0 || strstr(x, "_general") ||
        corpus[i].status != CSR_SUCCESS)
      continue;
    size_t stem = strlen(x) - 4; /* without ".mtx" */
    int variants = 0;
    for (int j = 0; j < CORPUS_SIZE; j++) {
      const char *v = corpus[j].path;
      if (corpus[j].status != CSR_SUCCESS || strncmp(v, x, stem) != 0 ||
          strncmp(v + stem, "_general", 8) != 0)
        continue;
      snprintf(x_path, sizeof x_path, "%s/%s", MMTESTS, x);
      snprintf(v_path, sizeof v_path, "%s/%s", MMTESTS, v);
      compare_symmetry(x_path, v_path);
      variants++;
    }
    CHECKF(variants == 3, "%s: %d general variants found, expected 3", x, variants);
  }
  compare_dense(MMTESTS "/fmm/symmetry_array/array_symmetric.mtx",
                MMTESTS "/fmm/symmetry_array/array_symmetric_general.mtx");
  compare_dense(MMTESTS "/fmm/symmetry_array/array_skew-symmetric.mtx",
                MMTESTS "/fmm/symmetry_array/array_skew-symmetric_general.mtx");
}

/* --- every file is in the table --------------------------------------------------------------- */

static int listed(const char *rel, const char *const *names, int count) {
  for (int i = 0; i < count; i++)
    if (strcmp(rel, names[i]) == 0)
      return 1;
  return 0;
}

/* Walks dir (relative name rel under the root); every regular file must be listed. */
static int walk(const char *root, const char *rel, const char *const *names, int count) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
  DIR *d = opendir(dir);
  CHECKF(d != NULL, "cannot open %s", dir);
  if (d == NULL)
    return 0;
  int files = 0;
  struct dirent *ent;
  while ((ent = readdir(d)) != NULL) {
    if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0)
      continue;
    char sub[1024], full[2048];
    snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", ent->d_name);
    snprintf(full, sizeof full, "%s/%s", root, sub);
    struct stat st;
    if (stat(full, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode))
      files += walk(root, sub, names, count);
    else {
      files++;
      CHECKF(listed(sub, names, count), "%s: a file the table does not list (add it)", full);
    }
  }
  closedir(d);
  return files;
}

static void check_corpus(void) {
  const char *names[CORPUS_SIZE + 1];
  static const size_t blocks[] = {0, 16, 17, 31, 64, 4096};
  char path[512];
  for (int i = 0; i < CORPUS_SIZE; i++) {
    names[i] = corpus[i].path;
    for (int j = 0; j < i; j++)
      CHECKF(strcmp(corpus[i].path, corpus[j].path) != 0, "%s listed twice", corpus[i].path);
    snprintf(path, sizeof path, "%s/%s", MMTESTS, corpus[i].path);
    struct stat st;
    CHECKF(stat(path, &st) == 0, "%s: listed but missing", path);
    if (corpus[i].status == CSR_SUCCESS)
      check_valid(path, blocks, 6, 1);
    else
      check_refusal(&corpus[i], path);
  }
  names[CORPUS_SIZE] = "README.md";
  int files = walk(MMTESTS, "", names, CORPUS_SIZE + 1);
  CHECKF(files == CORPUS_SIZE + 1, "%d files under %s, the table lists %d (+ README.md)", files,
         MMTESTS, CORPUS_SIZE);
  printf("mmtests: %d files\n", files - 1);
}

/* --- ../shared/matrices, as INDEX.md describes them ------------------------------------------- */

typedef struct real_matrix {
  const char *file;
  csr_status status;
  int64_t rows, cols;
  int64_t stored;   /* the size line's count (edge lists: edges) */
  int64_t expanded; /* entries after expansion where INDEX states it; -1 where it does not */
} real_matrix;

static const real_matrix matrices[] = {
    {"1138_bus.mtx", CSR_SUCCESS, 1138, 1138, 2596, -1},
    {"bcsstk13.mtx", CSR_SUCCESS, 2003, 2003, 42943, 83883},
    {"bcsstk16.mtx.gz", CSR_SUCCESS, 4884, 4884, 147631, 290378},
    {"west0067.mtx", CSR_SUCCESS, 67, 67, 294, 294},
    {"lp_share1b.mtx", CSR_SUCCESS, 117, 253, 1179, 1179},
    {"Groebner_id2003_aug.mtx.gz", CSR_SUCCESS, 4967, 2456, 173670, 173670},
    {"adder_dcop_05.mtx", CSR_SUCCESS, 1813, 1813, 11097, 11097},
    {"Pd.mtx", CSR_SUCCESS, 8081, 8081, 13036, 13036},
    {"rajat01.mtx", CSR_SUCCESS, 6833, 6833, 43250, 43250},
    {"bcspwr10.mtx", CSR_SUCCESS, 5300, 5300, 13571, -1},
    {"karate.mtx", CSR_SUCCESS, 34, 34, 78, 156},
    {"plskz362.mtx", CSR_SUCCESS, 362, 362, 880, -1},
    {"empty_rows_11x12.mtx", CSR_SUCCESS, 11, 12, 5, 5},
    {"c_hermitian.mtx", CSR_ERR_UNSUPPORTED, 0, 0, 0, 0},
    {"young1c.mtx", CSR_ERR_UNSUPPORTED, 0, 0, 0, 0},
    {"cage11.mtx.gz", CSR_SUCCESS, 39082, 39082, 559722, 559722},
    {"cnr-2000.mtx.gz", CSR_SUCCESS, 325557, 325557, 3216152, 3216152},
    {"web-NotreDame.txt.gz", CSR_SUCCESS, 325729, 325729, 1497134, 1497134},
    {"uk-2007-05-100k.txt.gz", CSR_SUCCESS, 100000, 100000, 3050615, 3050615},
};
enum { MATRICES_SIZE = sizeof matrices / sizeof matrices[0] };

static void check_matrices(void) {
  const char *names[MATRICES_SIZE + 1];
  static const size_t blocks[] = {0, ((size_t)1 << 20) + 7};
  char path[512], why[512];
  for (int i = 0; i < MATRICES_SIZE; i++) {
    const real_matrix *m = &matrices[i];
    names[i] = m->file;
    snprintf(path, sizeof path, "%s/%s", MATRICES, m->file);
    int edges = ends_with(path, ".txt.gz");
    csr_coo *T = NULL;
    csr_file_info info;
    memset(&info, 0, sizeof info);
    csr_status s = csr_read_coo(ctx_ref, path, NULL, &T, &info);
    CHECKF(s == m->status, "%s: %s, expected %s (%s)", path, csr_status_string(s),
           csr_status_string(m->status), csr_context_last_error(ctx_ref));
    if (s != CSR_SUCCESS) {
      if (s == m->status)
        CHECKF(strstr(csr_context_last_error(ctx_ref), path) &&
                   holds_words(csr_context_last_error(ctx_ref), "complex|not supported"),
               "%s: the message does not say complex is not supported: %s", path,
               csr_context_last_error(ctx_ref));
      continue;
    }
    CHECKF(info.rows == m->rows && info.cols == m->cols && T->rows == m->rows &&
               T->cols == m->cols && info.stored_entries == m->stored &&
               (m->expanded < 0 || (info.entries == m->expanded && T->nnz == m->expanded)) &&
               info.format == (edges ? CSR_FORMAT_EDGE_LIST : CSR_FORMAT_MATRIX_MARKET) &&
               info.gzip == ends_with(path, ".gz"),
           "%s: %lld x %lld, %lld stored, %lld entries; INDEX.md: %lld x %lld, %lld, %lld", path,
           (long long)info.rows, (long long)info.cols, (long long)info.stored_entries,
           (long long)info.entries, (long long)m->rows, (long long)m->cols, (long long)m->stored,
           (long long)m->expanded);
    /* And every triple, against the oracle (backends, a block size that splits the file). */
    mmo_result o;
    if (edges)
      mmo_read_edges(path, &o);
    else
      mmo_read_mm(path, 0, &o);
    CHECKF(o.status == CSR_SUCCESS && mmo_coo_matches(T, &o, why, sizeof why), "%s: %s", path,
           o.status == CSR_SUCCESS ? why : "the oracle refuses it");
    for (int b = 0; b < 2 * 2 && o.status == CSR_SUCCESS; b++) {
      csr_context *ctx = b < 2 ? ctx_ref : ctx_omp;
      csr_coo *U = NULL;
      if (ctx == NULL || (b == 0))
        continue;
      CHECKF(read_coo(ctx, path, blocks[b % 2], 0, CSR_F64, &U, NULL) == 0 &&
                 mmo_coo_identical(T, U, why, sizeof why),
             "%s (%s, block %zu): %s %s", path, csr_backend_name(csr_context_backend(ctx)),
             blocks[b % 2], why, csr_context_last_error(ctx));
      csr_coo_free(&U);
    }
    mmo_free(&o);
    csr_coo_free(&T);
  }
  names[MATRICES_SIZE] = "INDEX.md";
  int files = walk(MATRICES, "", names, MATRICES_SIZE + 1);
  CHECKF(files == MATRICES_SIZE + 1, "%d files under %s, the table lists %d (+ INDEX.md)", files,
         MATRICES, MATRICES_SIZE);
}

int main(void) {
  struct stat st;
  if (stat(SHARED, &st) != 0 || !S_ISDIR(st.st_mode)) {
    printf("test_mm_corpus: %s not found (run from the repository root): skipped\n", SHARED);
    return 77;
  }
  ctx_ref = csrt_context(CSR_BACKEND_REF);
  if (csr_backend_available(CSR_BACKEND_OMP)) {
    ctx_omp = csrt_context(CSR_BACKEND_OMP);
    csr_context_set_threads(ctx_omp, 4); /* more pieces than cores: the split is exercised */
  }
  check_corpus();
  check_symmetry_pairs();
  check_matrices();
  csr_context_free(&ctx_ref);
  csr_context_free(&ctx_omp);
  return csrt_finish("test_mm_corpus");
}
