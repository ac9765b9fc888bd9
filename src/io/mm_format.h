/* SPDX-License-Identifier: BSD-3-Clause */
/* Matrix Market and edge-list parsing, shared between the header parser, the body parsers and
 * the read front end. Internal. */
#ifndef CSR_MM_FORMAT_H
#define CSR_MM_FORMAT_H

#include "mm_source.h"

/* What the banner and size line say. */
typedef struct csri_mm_header {
  int is_array, is_vector;
  csr_mm_field field;
  csr_mm_symmetry symmetry;
  int64_t rows, cols;
  int64_t entries; /* data values to read: declared (coordinate) or implied (array) */
} csri_mm_header;

/* Reads lines from a source, one block at a time; the line number is 1-based. */
typedef struct csri_cursor {
  csri_source *src;
  const char *p, *end; /* the unread rest of the current block */
  int64_t line;        /* number of the last line returned */
} csri_cursor;

/* Next line [*begin, *end) without its terminator; *begin = NULL at the end of input. */
csr_status csri_cursor_line(csr_context *ctx, csri_cursor *cur, const char **begin,
                            const char **end);

/* Parses the banner, comments and size line. Errors name the path and line. */
csr_status csri_mm_read_header(csr_context *ctx, csri_cursor *cur, csri_mm_header *h);

/* Where parsed entries go: arrays of capacity `capacity`, of which `count` are filled. */
typedef struct csri_entries {
  int32_t *rows, *cols;
  void *values; /* NULL for pattern */
  csr_value_type value_type;
  int64_t count, capacity;
} csri_entries;

/* Parses the body of a Matrix Market file (the rest of cur's block, then the source's blocks)
 * into `out`, which has room for h->entries. Checks indices, counts and values. */
csr_status csri_mm_read_body(csr_context *ctx, csri_cursor *cur, const csri_mm_header *h,
                             csri_entries *out);

/* Parses an edge list ("from to [weight]", 0-based, '#' or '%' comments) from the source,
 * growing `out` as needed; *weighted tells whether a third column was present; *max_id is the
 * largest id seen (-1 for none). */
csr_status csri_edge_list_read(csr_context *ctx, csri_source *src, csri_entries *out, int *weighted,
                               int64_t *max_id);

/* --- shared helpers for the line parsers ----------------------------------------------------- */
static inline int csri_is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}
static inline int csri_is_eol(char c) {
  return c == '\n' || c == '\r';
}
/* Copies the token at p (up to whitespace, at most 24 characters) into out for a message. */
void csri_describe_token(const char *p, const char *end, char *out, size_t size);

#endif
