/* SPDX-License-Identifier: BSD-3-Clause */
/* Line-oriented parsing of text blocks in parallel, shared by the Matrix Market body and the edge
 * list: each block is cut into line-aligned pieces; pass 1 counts lines and data lines per piece;
 * prefix sums give each piece its first line number and first entry; pass 2 parses the pieces
 * into their places. A block parsed as one piece (one thread, or a small block) skips pass 1:
 * lines and entries are counted while parsing, into room for the most data lines the block can
 * hold. The earliest error in file order is the one reported. Internal. */
#ifndef CSR_MM_BLOCKS_H
#define CSR_MM_BLOCKS_H

#include "mm_format.h"

typedef struct csri_piece {
  const char *begin, *end;
  int64_t lines, data;             /* pass 1 */
  int64_t first_line, first_entry; /* prefix sums */
  int64_t room;                    /* entries [first_entry, room) may be written */
  int64_t state[3];                /* for the line parser (array position, max id, columns) */
  csr_status status;               /* pass 2: the first error in this piece */
  char message[240];
} csri_piece;

typedef struct csri_line_format csri_line_format;
struct csri_line_format {
  const char *path;
  const char *comments; /* characters that start a comment line */
  csri_entries *out;
  int64_t limit; /* entries allowed (the size line's count); more is an error */
  /* Entries of the file before this text (a range read; 0 for a whole file): the count the
   * "found more" message names, the size line's, is limit + entries_before. */
  int64_t entries_before;
  /* Bytes of the shortest data line, its terminator included (the last line may lack one):
   * a block of b bytes holds at most (b + 1) / min_line_bytes entries. */
  int64_t min_line_bytes;
  /* Called before a piece is parsed (may set pc->state from pc->first_entry). */
  void (*begin_piece)(const csri_line_format *f, csri_piece *pc);
  /* Parses the data line at p (leading blanks skipped) as entry k; returns the end of its
   * content (at the line terminator), or NULL after csri_piece_fail. */
  const char *(*parse_line)(const csri_line_format *f, csri_piece *pc, int64_t line, const char *p,
                            const char *end, int64_t k);
  const void *user;
};

/* Records the first error of a piece: "<path>:<line>: <message>"; returns NULL. */
const char *csri_piece_fail(const csri_line_format *f, csri_piece *pc, csr_status status,
                            int64_t line, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Parses [text, text + size) and then every further block of src. *line holds the number of
 * the first line of text and is advanced past the last line. out->count grows by the entries. */
csr_status csri_parse_lines(csr_context *ctx, const csri_line_format *f, csri_source *src,
                            const char *text, size_t size, int64_t *line);

/* Makes room for `need` entries (capped at limit), growing by half again each time so large
 * inputs are not copied often (just `need` where half again would pass the memory limit of
 * csri_check_host_bytes; CSR_ERR_OUT_OF_MEMORY where `need` does). */
csr_status csri_entries_reserve(csr_context *ctx, csri_entries *out, int64_t need, int64_t limit);
/* Appends the mirror of every off-diagonal entry (negated for skew); deterministic order. */
csr_status csri_entries_expand(csr_context *ctx, csri_entries *e, csr_mm_symmetry symmetry);
/* Tries to make room for `hint` entries at once (an upper bound on what the input can hold, so
 * that no later growth copies the arrays); a failure, or a hint past the memory limit, is not
 * an error: growth goes on as needed. */
void csri_entries_reserve_hint(const csr_context *ctx, csri_entries *out, int64_t hint);
/* Releases the arrays. */
void csri_entries_free(csri_entries *out);

/* Skips blanks. */
static inline const char *csri_skip_blanks(const char *p, const char *end) {
  while (p < end && csri_is_blank(*p))
    p++;
  return p;
}

#endif
