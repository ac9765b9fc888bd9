/* SPDX-License-Identifier: BSD-3-Clause */
/* Text input for the readers: successive blocks of whole lines from a file, standard input, a
 * memory buffer or a gzip stream inflated by a separate thread. Internal. */
#ifndef CSR_MM_SOURCE_H
#define CSR_MM_SOURCE_H

#include "core/internal.h"

#include <stddef.h>

typedef struct csri_source csri_source;

/* Default block: large enough that per-block costs (a parallel region, a pass over offsets)
 * vanish, small enough that the text in memory stays a fraction of the COO it becomes. */
#define CSRI_DEFAULT_BLOCK_BYTES ((size_t)32 << 20)
/* gzip holds three blocks (two being inflated into, one being parsed) beside a COO that is
 * often smaller than the compressed file's text: smaller blocks keep the peak near the COO. */
#define CSRI_GZIP_BLOCK_BYTES ((size_t)4 << 20)

/* Opens path ("-" = standard input). Recognises gzip by its magic bytes (inflated in a thread)
 * and refuses bzip2 with CSR_ERR_UNSUPPORTED. block_bytes 0 = default. */
csr_status csri_source_open_path(csr_context *ctx, const char *path, size_t block_bytes,
                                 csri_source **src);
/* Reads from memory (gzip recognised too). The buffer must outlive the source. */
csr_status csri_source_open_buffer(csr_context *ctx, const char *data, size_t size,
                                   const char *name, size_t block_bytes, csri_source **src);
/* Opens the lines of a plain regular file that begin in bytes [begin, end) (body_begin <= begin
 * <= end <= file_size): a line begins at body_begin, or just past a terminator ("\n", "\r\n" or
 * a lone "\r"). The source runs from the first line beginning at or after begin to the first
 * beginning at or after end (or the end of the file): the last line is read whole even where end
 * cuts it. *skipped is the number of terminators that begin in [begin, that first line) (0 or
 * 1: the end of a line that begins before begin), as csri_line_ends_begun counts them. The file
 * is mapped, not read: only the range's pages are touched, and those behind are dropped as the
 * blocks go. Refuses a file whose size is not file_size (it changed) and a gzip file. */
csr_status csri_source_open_range(csr_context *ctx, const char *path, int64_t body_begin,
                                  int64_t begin, int64_t end, int64_t file_size, csri_source **src,
                                  int64_t *skipped);
/* The longest line the readers take, its terminator excluded. The longest valid Matrix Market
 * data line is two indices of at most 10 digits and a value, and a double's exact decimal
 * expansion has at most 767 significant digits: about 800 bytes, or a few KiB with generous
 * blanks; comments and the banner have no bound in the format but are short in practice. A line
 * longer than this is refused at its line: it is not text (a stream of NUL bytes, a binary file)
 * and would otherwise grow the read buffer without bound. */
#define CSRI_MAX_LINE_BYTES ((size_t)1 << 20)

/* Next block of whole lines (the last may lack its newline); *size = 0 at the end of input.
 * The block stays valid until the next call. `line` is the number of the block's first line,
 * for messages: a line holding a NUL byte or longer than CSRI_MAX_LINE_BYTES ends the block
 * before it, and the call that would return it fails with CSR_ERR_PARSE ("<name>:<line>: NUL
 * byte in the input; not a text file?"), so that an error in the lines before it comes first. */
csr_status csri_source_next(csr_context *ctx, csri_source *src, int64_t line, const char **text,
                            size_t *size);
/* The block the next csri_source_next will return, without taking it: the first lines, grown
 * until one is not blank (or the input ends, or CSRI_MAX_LINE_BYTES of blank lines are seen),
 * for telling the format by content. Only before the first csri_source_next; valid until the
 * call after that next one. Its lines are checked as csri_source_next's are. */
csr_status csri_source_peek(csr_context *ctx, csri_source *src, const char **text, size_t *size);
/* Name for messages, whether the input was gzip, and the bytes handed out so far. */
const char *csri_source_name(const csri_source *src);
int csri_source_is_gzip(const csri_source *src);
int64_t csri_source_bytes(const csri_source *src);
/* The most text bytes the whole input can hold (its size; for gzip 1032 x the compressed size),
 * or -1 when unknown (a pipe). */
int64_t csri_source_text_bound(const csri_source *src);
void csri_source_close(csri_source **src);

#endif
