/* SPDX-License-Identifier: BSD-3-Clause */
/* Parallel two-pass parsing of line-aligned text blocks into entry arrays (see mm_blocks.h). */
#include "mm_blocks.h"
#include "mm_lines.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *csri_piece_fail(const csri_line_format *f, csri_piece *pc, csr_status status,
                            int64_t line, const char *format, ...) {
  int used = snprintf(pc->message, sizeof pc->message, "%s:%lld: ", f->path, (long long)line);
  if (used > 0 && (size_t)used < sizeof pc->message) {
    va_list args;
    va_start(args, format);
    vsnprintf(pc->message + used, sizeof pc->message - (size_t)used, format, args);
    va_end(args);
  }
  pc->status = status;
  return NULL;
}

void csri_entries_free(csri_entries *out) {
  csri_free(out->rows);
  csri_free(out->cols);
  csri_free(out->values);
  out->rows = out->cols = NULL;
  out->values = NULL;
  out->capacity = out->count = 0;
}

/* Bytes of the three arrays for `capacity` entries (capacity <= SIZE_MAX / 16). */
static size_t entries_bytes(const csri_entries *out, int64_t capacity) {
  size_t value_size = out->value_type == CSR_PATTERN ? 0 : csri_value_size(out->value_type);
  return (size_t)capacity * (2 * sizeof(int32_t) + value_size);
}

/* Resizes the three arrays to `capacity` entries; 0 when an allocation fails (those resized so
 * far keep their new size, which is harmless: capacity is only raised once all three succeed). */
static int resize(csri_entries *out, int64_t capacity) {
  if ((uint64_t)capacity > SIZE_MAX / 8)
    return 0;
  size_t value_size = out->value_type == CSR_PATTERN ? 0 : csri_value_size(out->value_type);
  void **arrays[3] = {(void **)&out->rows, (void **)&out->cols, &out->values};
  size_t sizes[3] = {sizeof(int32_t), sizeof(int32_t), value_size};
  for (int i = 0; i < 3; i++) {
    if (sizes[i] == 0)
      continue;
    void *grown = csri_realloc(*arrays[i], (size_t)capacity * sizes[i]);
    if (grown == NULL)
      return 0;
    *arrays[i] = grown;
  }
  out->capacity = capacity;
  return 1;
}

csr_status csri_entries_reserve(csr_context *ctx, csri_entries *out, int64_t need, int64_t limit) {
  if (need > limit)
    need = limit;
  if (need <= out->capacity && out->rows != NULL)
    return CSR_SUCCESS;
  int64_t capacity = out->capacity + out->capacity / 2;
  if (capacity < need)
    capacity = need;
  if (capacity > limit)
    capacity = limit;
  if ((uint64_t)capacity > SIZE_MAX / 16)
    return CSRI_FAIL(ctx, CSR_ERR_OVERFLOW, "%lld entries overflow size_t", (long long)capacity);
  if (!csri_host_bytes_fit(ctx, entries_bytes(out, capacity)) && capacity > need)
    capacity = need; /* growing by half again would pass the limit: just what is needed */
  if (!csri_host_bytes_fit(ctx, entries_bytes(out, capacity))) {
    char what[64];
    snprintf(what, sizeof what, "for %lld entries", (long long)capacity);
    return csri_check_host_bytes(ctx, entries_bytes(out, capacity), what);
  }
  if (!resize(out, capacity))
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "room for %lld entries failed",
                     (long long)capacity);
  return CSR_SUCCESS;
}

void csri_entries_reserve_hint(const csr_context *ctx, csri_entries *out, int64_t hint) {
  if (hint > out->capacity && (uint64_t)hint <= SIZE_MAX / 16 &&
      csri_host_bytes_fit(ctx, entries_bytes(out, hint)))
    (void)resize(out, hint);
}

/* Comment lines start with one of at most two characters ('%', and '#' for edge lists); a
 * direct comparison, since this runs once per line. */
static inline int is_comment(const csri_line_format *f, char c) {
  return c == f->comments[0] || (f->comments[0] && c == f->comments[1] && c != '\0');
}

/* Pass 1: lines started in the piece and data lines among them. */
static void count_piece(const csri_line_format *f, csri_piece *pc) {
  char c0 = f->comments[0], c1 = f->comments[0] ? f->comments[1] : 0;
  csri_count_lines(pc->begin, pc->end, c0, c1 ? c1 : c0, &pc->lines, &pc->data);
}

/* Pass 2: the data lines of a piece as entries first_entry, first_entry + 1, ...; records the
 * lines and entries it saw (pass 1's counts, or the only count when pass 1 was skipped). */
static void parse_piece(const csri_line_format *f, csri_piece *pc) {
  const char *p = pc->begin, *end = pc->end;
  int64_t line = pc->first_line, k = pc->first_entry;
  if (f->begin_piece)
    f->begin_piece(f, pc);
  for (; p < end; line++) {
    p = csri_skip_blanks(p, end);
    if (p < end && !csri_is_eol(*p) && !is_comment(f, *p)) {
      if (k >= pc->room) {
        if (k >= f->limit)
          csri_piece_fail(f, pc, CSR_ERR_PARSE, line,
                          "expected %lld entries (the size line's count), found more",
                          (long long)(f->limit + f->entries_before));
        else /* a data line shorter than min_line_bytes: the line format is wrong */
          csri_piece_fail(f, pc, CSR_ERR_PARSE, line,
                          "internal: more entries than the block holds");
        return;
      }
      if (!(p = f->parse_line(f, pc, line, p, end, k++)))
        return;
    }
    p = csri_next_line(csri_line_end(p, end), end);
  }
  pc->lines = line - pc->first_line;
  pc->data = k - pc->first_entry;
}

/* Cuts [text, text + size) into at most `want` pieces starting at line starts. */
static int cut_pieces(const char *text, size_t size, csri_piece *pieces, int want) {
  const char *end = text + size, *p = text;
  int n = 0;
  for (int i = 1; i <= want && p < end; i++) {
    const char *cut = i == want ? end : text + (size_t)((double)size * i / want);
    if (cut < p)
      cut = p;
    cut = csri_next_line(csri_line_end(cut, end), end);
    memset(&pieces[n], 0, sizeof pieces[n]);
    pieces[n].begin = p;
    pieces[n].end = cut;
    p = cut;
    n++;
  }
  return n;
}

/* The block as one piece, parsed once: no counting pass, into room for the most entries the
 * block can hold (untouched room costs address space only, and is trimmed at the end). Valid
 * lines take at least min_line_bytes each; one more entry makes room for a malformed shorter line
 * ("3" in an edge list), so that the line parser, not the bookkeeping, reports it. */
static csr_status parse_single(csr_context *ctx, const csri_line_format *f, csri_piece *pc,
                               int64_t *line) {
  csri_entries *out = f->out;
  int64_t most = ((int64_t)(pc->end - pc->begin) + 1) / f->min_line_bytes + 1;
  CSRI_TRY(csri_entries_reserve(ctx, out, out->count + most, f->limit));
  pc->first_line = *line;
  pc->first_entry = out->count;
  pc->room = out->capacity < f->limit ? out->capacity : f->limit;
  parse_piece(f, pc);
  if (pc->status != CSR_SUCCESS)
    return CSRI_FAIL(ctx, pc->status, "%s", pc->message);
  *line += pc->lines;
  out->count += pc->data;
  return CSR_SUCCESS;
}

static csr_status parse_block(csr_context *ctx, const csri_line_format *f, const char *text,
                              size_t size, int64_t *line, csri_piece *pieces, int max_pieces,
                              int threads) {
  /* Small blocks in one piece: a parallel region costs more than it saves below ~1 MB. */
  int n = cut_pieces(text, size, pieces, size < ((size_t)1 << 20) ? 1 : max_pieces);
  if (n == 1)
    return parse_single(ctx, f, &pieces[0], line);
  csri_entries *out = f->out;
  (void)threads; /* used by the OpenMP pragmas only */
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (n > 1)
  for (int i = 0; i < n; i++)
    count_piece(f, &pieces[i]);
  int64_t count = out->count;
  for (int i = 0; i < n; i++) {
    pieces[i].first_line = *line;
    pieces[i].first_entry = count;
    pieces[i].room = f->limit; /* the reservation below covers every counted entry up to it */
    *line += pieces[i].lines;
    count += pieces[i].data;
  }
  CSRI_TRY(csri_entries_reserve(ctx, out, count, f->limit));
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (n > 1)
  for (int i = 0; i < n; i++)
    parse_piece(f, &pieces[i]);
  for (int i = 0; i < n; i++)
    if (pieces[i].status != CSR_SUCCESS)
      return CSRI_FAIL(ctx, pieces[i].status, "%s", pieces[i].message);
  out->count = count;
  return CSR_SUCCESS;
}

csr_status csri_parse_lines(csr_context *ctx, const csri_line_format *f, csri_source *src,
                            const char *text, size_t size, int64_t *line) {
  int threads = csri_host_threads(ctx);
  if (csri_source_is_gzip(src) && threads > 1)
    threads--; /* the inflater thread is one of the threads asked for: no more runnable threads
                  than that, or the parser and the inflater take turns on the same cores */
  int max_pieces = threads > 1 ? 8 * threads : 1; /* several per thread: lines vary in length */
  csri_piece *pieces = csri_malloc((size_t)max_pieces * sizeof *pieces);
  if (pieces == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "parser state allocation failed");
  csr_status status = CSR_SUCCESS;
  for (;;) {
    if (size > 0)
      status = parse_block(ctx, f, text, size, line, pieces, max_pieces, threads);
    if (status != CSR_SUCCESS)
      break;
    status = csri_source_next(ctx, src, *line, &text, &size);
    if (status != CSR_SUCCESS || size == 0)
      break;
  }
  csri_free(pieces);
  return status;
}
