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
/* The data lines of [text, text + size) and then of the source's further blocks, *line being the
 * number of the first (advanced past the last), into out (count reset). entries_before: entries
 * of the file before this text (0 for a whole body; negative taken as 0); more than
 * h->entries - entries_before here is refused at the line of the first one too many. Array
 * files need entries_before exact (it fixes the first value's position). */
csr_status csri_mm_parse_lines(csr_context *ctx, csri_source *src, const csri_mm_header *h,
                               const char *text, size_t size, int64_t *line, int64_t entries_before,
                               csri_entries *out);
/* The end-of-body check: count entries read against the size line's, the message naming
 * last_line (the file's last line; 1 when lower). */
csr_status csri_mm_check_count(csr_context *ctx, const char *path, const csri_mm_header *h,
                               int64_t count, int64_t last_line);

/* Parses an edge list ("from to [weight]", 0-based, '#' or '%' comments) from the source,
 * growing `out` as needed; *weighted tells whether a third column was present; *max_id is the
 * largest id seen (-1 for none). */
csr_status csri_edge_list_read(csr_context *ctx, csri_source *src, csri_entries *out, int *weighted,
                               int64_t *max_id);

/* What the lines before an edge list's first data line fix for all of them. */
typedef struct csri_edge_head {
  int columns;        /* 2 or 3, fixed by the first data line (2 when there is none) */
  int64_t first_line; /* that line, for messages */
  /* A SNAP header "# Nodes: 325729 Edges: 1497134" before it (snap_line 0 when there is none),
   * and whether a comment before it calls the graph undirected ("# Undirected graph: ..."). */
  int64_t snap_nodes, snap_edges, snap_line;
  int snap_undirected;
} csri_edge_head;
/* Reads the source's first blocks up to the one holding the first data line (or to the end):
 * fills head, and leaves that block in [*text, *text + *size) with *line its first line's
 * number, to be handed to csri_edge_list_parse. */
csr_status csri_edge_list_head(csr_context *ctx, csri_source *src, csri_edge_head *head,
                               const char **text, size_t *size, int64_t *line);
/* The edges of [text, text + size) and then of the source's further blocks (*line as for
 * csri_mm_parse_lines) into out (count reset; values only when head->columns is 3, else
 * out->value_type becomes CSR_PATTERN); *max_id is the largest id among them (-1 for none). */
csr_status csri_edge_list_parse(csr_context *ctx, csri_source *src, const csri_edge_head *head,
                                const char *text, size_t size, int64_t *line, csri_entries *out,
                                int64_t *max_id);
/* The edges against the SNAP header, if any: `found` edges as many as it declares (for an
 * undirected graph, whose files list each edge once or both ways, between that and twice that),
 * and no more distinct node ids than its nodes. SNAP's ids are labels, not always 0 .. nodes - 1
 * (web-Google has ids up to 916427 for 875713 nodes), so only their number is checked; that
 * needs every edge (`all`) only when top, the largest id, is nodes or more: with all NULL that
 * part is skipped. */
csr_status csri_edge_list_check_snap(csr_context *ctx, const char *name, const csri_edge_head *h,
                                     int64_t found, int64_t top, const csri_entries *all);

/* --- the read front end's rules, shared by the whole-file and the range reader ---------------- */
/* Refuses a value type other than CSR_F64 / CSR_F32 and an unknown format. */
csr_status csri_check_read_options(csr_context *ctx, const csr_read_options *o);
/* The format to read the source as (see mm_read.c); peeks at the source's first lines. */
csr_status csri_decide_format(csr_context *ctx, csri_source *src, csr_file_format asked,
                              csr_file_format *format);

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
