/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading a plain Matrix Market file or edge list in byte ranges, one range per process, with
 * the whole-file reader's line parsers and messages. Internal; no MPI here: a distributed caller
 * does, with P processes and r its rank:
 *   1. csri_read_prologue(path) on every process (or on one, and broadcast the struct); when
 *      range_readable is 0, read the whole file with csr_read_coo on one process instead.
 *   2. begin = csri_range_cut(body_begin, size, P, r), end = csri_range_cut(..., r + 1).
 *   3. csri_count_line_ends(path, begin, end) -> n_r; first_line = body_first_line + the sum of
 *      n_q over q < r (an exclusive scan); body_line_ends = the sum over all q.
 *   4. csri_read_range(path, begin, end, first_line, entries_before = -1) -> entries, count c_r.
 *   5. The file's error, if any, is that of the first range r that failed or whose running count
 *      passes the size line's (sum of c_q over q <= r > entries): re-read that range alone with
 *      entries_before = the sum of c_q over q < r to get exactly the whole-file reader's message
 *      (the earliest error in file order, "found more" at the first entry too many included).
 *      With no such range: csri_range_check_total on the sums.
 * The ranges' entries, concatenated in rank order, are csr_read_coo's with keep_symmetry = 1, in
 * the same order and bit for bit; symmetry is not expanded (csri_entries_expand does that). */
#ifndef CSR_MM_RANGE_H
#define CSR_MM_RANGE_H

#include "mm_blocks.h"

/* What a file's first lines say, and where its data lines begin (struct csri_read_prologue; the
 * typedef is shorter, and the function csri_read_prologue fills it). */
typedef struct csri_read_prologue {
  csr_file_format format; /* CSR_FORMAT_MATRIX_MARKET or CSR_FORMAT_EDGE_LIST, as csr_read_coo */
  /* 1 when csri_read_range can read the file; 0 for standard input, a file that is not a regular
   * one (a pipe), a gzip file and a Matrix Market array file: read those whole on one process.
   * not_range_readable says why (static text; NULL when range-readable). For standard input and
   * other files that are not regular, nothing is read and only these two fields are set. */
  int range_readable;
  const char *not_range_readable;
  int gzip;
  csri_mm_header header; /* Matrix Market: banner and size line (entries: the size line's) */
  csri_edge_head edges;  /* edge list: columns, the first data line, a SNAP header */
  /* Type of the values the ranges return: the options' (CSR_F64 or CSR_F32), CSR_PATTERN for a
   * pattern file and a two-column edge list (no values). */
  csr_value_type value_type;
  int64_t body_begin;      /* byte offset where data lines begin: after the size line, or 0 */
  int64_t body_first_line; /* the number of the line beginning there (1-based) */
  int64_t size;            /* the file's size in bytes */
  int ends_with_line_end;  /* the file's last byte is '\n' or '\r' */
} csri_prologue;

/* Opens path, decides its format exactly as csr_read_coo (options->format, the banner, the name;
 * NULL options = defaults), and reads the Matrix Market header and size line (an edge list: the
 * comments up to its first data line). Errors are csr_read_coo's, word for word. A file that
 * cannot be range-read is no error: range_readable says so. */
csr_status csri_read_prologue(csr_context *ctx, const char *path, const csr_read_options *options,
                              csri_prologue *prologue);

/* The number of line terminators that BEGIN in bytes [begin, end) of path (0 <= begin <= end <=
 * its size): each '\r' (a lone "\r", or a "\r\n" counted once, at its '\r') and each '\n' not
 * preceded by a '\r' (the byte before begin is looked at). So the counts of adjacent ranges add
 * up to the whole file's, wherever they are cut, a "\r\n" pair included; over [body_begin, size)
 * it is the count the whole-file reader's line numbers advance by. Reads 1 MiB at a time. */
csr_status csri_count_line_ends(csr_context *ctx, const char *path, int64_t begin, int64_t end,
                                int64_t *line_ends);

/* Parses the data lines that BEGIN in bytes [begin, end) (body_begin <= begin <= end <= size) of
 * the file the prologue describes: a line begins at body_begin or just past a terminator ("\n",
 * "\r\n", a lone "\r"); a line that begins in the range is read whole even where `end` cuts it,
 * one that begins before `begin` is left to the range before. So the ranges [b_0, b_1), [b_1,
 * b_2), ..., b_0 = body_begin, b_P = size, take every line exactly once, whatever the cuts (inside
 * a line or a "\r\n" too; empty ranges are fine).
 * first_line: body_first_line + csri_count_line_ends(path, body_begin, begin), exactly that
 * (terminators in [body_begin, begin), not up to the line the range starts with: the reader adds
 * the one that ends a line cut by `begin`). It numbers the lines in messages ("path:17: ...").
 * entries_before: the entries of all ranges before this one, or -1 when not known; more than the
 * size line's count minus that (minus 0 when unknown) is refused at the line of the first entry
 * too many. Edge lists have no count: it is ignored.
 * Output: out (overwritten; free with csri_entries_free, also after an error) holds out->count
 * entries, 0-based int32 rows and columns, values of prologue->value_type (NULL for pattern), as
 * stored (symmetry not expanded); *max_id the largest node id of an edge list's range (-1 for
 * none, and for Matrix Market): the matrix is (max over all ranges + 1) square, as csr_read_coo
 * sizes it. Errors are the whole-file reader's, word for word, line numbers included: indices,
 * values, columns, a NUL byte, a line over 1 MiB. Parsed in parallel (OpenMP) as csr_read_coo
 * parses, in blocks; memory: the entries, and mapped pages of the range only. */
csr_status csri_read_range(csr_context *ctx, const char *path, const csri_prologue *prologue,
                           int64_t begin, int64_t end, int64_t first_line, int64_t entries_before,
                           csri_entries *out, int64_t *max_id);

/* Where range r of P begins: body_begin + floor((size - body_begin) * r / P), for 0 <= r <= P
 * (r = P gives size): equal byte shares; no overflow for any int64 size. */
int64_t csri_range_cut(int64_t body_begin, int64_t size, int parts, int part);

/* The checks the whole-file reader makes once the body is read, on the ranges' totals (after
 * every range succeeded): Matrix Market, total_entries against the size line's count, the message
 * naming the file's last line (found from body_line_ends, the csri_count_line_ends of
 * [body_begin, size)); when there are more, csr_read_coo names instead the line of the first one
 * too many, which a re-read with entries_before gives (see the top of this file). Edge list, a
 * SNAP header's edge count, and its node count when max_id (the largest over the ranges) is past
 * it: that part needs every edge in `all`, and is skipped when all is NULL. */
csr_status csri_range_check_total(csr_context *ctx, const char *path, const csri_prologue *prologue,
                                  int64_t total_entries, int64_t body_line_ends, int64_t max_id,
                                  const csri_entries *all);

#endif
