/* SPDX-License-Identifier: BSD-3-Clause */
/* Input as blocks of whole lines: raw bytes (file, stdin, memory, or inflated gzip) are gathered
 * into one buffer, cut after the last line break, and the partial line carried to the next. */
/* madvise (MADV_DONTNEED really drops pages; posix_madvise's does not in glibc). */
#define _DEFAULT_SOURCE 1

#include "mm_source.h"
#include "mm_format.h"
#include "mm_inflate.h"
#include "mm_lines.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct csri_source {
  char name[256];
  int fd, owns_fd;
  const char *mem; /* memory input (uncompressed) */
  size_t mem_size, mem_pos;
  csri_inflater *inflater;
  void *map; /* a mapped regular file (munmap'd on close) */
  size_t map_size;
  int slices;        /* plain text in memory (mapped or given): blocks are slices of it, no copy */
  int default_block; /* the caller left the block size to us */
  char *buf;         /* [start, len): bytes not yet handed out */
  size_t cap, len, start;
  int eof;
  int64_t bytes;
  int64_t text_bound; /* most text bytes the input can hold; -1 when unknown */
  int threads;        /* for the search for NUL bytes */
  /* A block csri_source_peek has looked at, which the next csri_source_next hands out. */
  const char *peeked;
  size_t peeked_size;
  int has_peeked;
};

const char *csri_source_name(const csri_source *src) {
  return src->name;
}
int csri_source_is_gzip(const csri_source *src) {
  return src->inflater != NULL;
}
int64_t csri_source_bytes(const csri_source *src) {
  return src->bytes;
}
int64_t csri_source_text_bound(const csri_source *src) {
  return src->text_bound;
}

/* Deflate cannot expand data by more than 1032:1 (a 258-byte match costs at least 2 bits), so
 * gzip input of n bytes holds at most 1032 n bytes of text. */
static int64_t inflated_bound(uint64_t compressed) {
  return compressed > (uint64_t)INT64_MAX / 1032 ? INT64_MAX : (int64_t)(compressed * 1032);
}

void csri_source_close(csri_source **src) {
  csri_source *s = *src;
  if (s == NULL)
    return;
  csri_inflater_stop(&s->inflater);
  if (s->map)
    munmap(s->map, s->map_size);
  if (s->owns_fd && s->fd >= 0)
    close(s->fd);
  csri_free(s->buf);
  csri_free(s);
  *src = NULL;
}

/* Raw (decompressed) bytes into dst; *got = 0 at the end. */
static csr_status raw_read(csr_context *ctx, csri_source *s, char *dst, size_t max, size_t *got) {
  *got = 0;
  if (s->inflater)
    return csri_inflater_read(ctx, s->inflater, dst, max, got);
  if (s->fd < 0) {
    *got = s->mem_size - s->mem_pos < max ? s->mem_size - s->mem_pos : max;
    memcpy(dst, s->mem + s->mem_pos, *got);
    s->mem_pos += *got;
    return CSR_SUCCESS;
  }
  for (;;) {
    ssize_t n = read(s->fd, dst, max);
    if (n >= 0) {
      *got = (size_t)n;
      return CSR_SUCCESS;
    }
    if (errno != EINTR)
      return CSRI_FAIL(ctx, CSR_ERR_IO, "%s: read failed: %s", s->name, strerror(errno));
  }
}

static csr_status ensure_buffer(csr_context *ctx, csri_source *s) {
  if (s->buf == NULL && (s->buf = csri_malloc(s->cap)) == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "read buffer of %zu bytes failed", s->cap);
  return CSR_SUCCESS;
}

/* Looks at the first bytes: gzip starts the inflater, other compressors are refused. The bytes
 * peeked at are handed on (to the inflater, or kept as the start of the text). */
static csr_status detect_compression(csr_context *ctx, csri_source *s, size_t block) {
  unsigned char head[6] = {0};
  size_t have = 0;
  if (s->fd >= 0) {
    while (have < sizeof head) {
      size_t got = 0;
      CSRI_TRY(raw_read(ctx, s, (char *)head + have, sizeof head - have, &got));
      if (got == 0)
        break;
      have += got;
    }
  } else {
    have = s->mem_size < sizeof head ? s->mem_size : sizeof head;
    if (have > 0) /* an empty buffer may be NULL */
      memcpy(head, s->mem, have);
  }
  if (have >= 3 && head[0] == 'B' && head[1] == 'Z' && head[2] == 'h')
    return CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED,
                     "%s: bzip2 compression is not supported (gzip is); decompress it first",
                     s->name);
  if ((have >= 6 && memcmp(head,
                           "\xFD"
                           "7zXZ\0",
                           6) == 0) ||
      (have >= 4 && memcmp(head, "\x28\xB5\x2F\xFD", 4) == 0))
    return CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED, "%s: xz/zstd compression is not supported (gzip is)",
                     s->name);
  if (have >= 2 && head[0] == 0x1f && head[1] == 0x8b) {
    if (s->default_block)
      block = s->cap = CSRI_GZIP_BLOCK_BYTES;
    if (s->fd >= 0)
      return csri_inflater_start(ctx, head, have, s->fd, NULL, 0, block, s->name, &s->inflater);
    return csri_inflater_start(ctx, NULL, 0, -1, (const unsigned char *)s->mem, s->mem_size, block,
                               s->name, &s->inflater);
  }
  if (s->fd >= 0) { /* plain text from a descriptor: the peeked bytes begin the text */
    CSRI_TRY(ensure_buffer(ctx, s));
    memcpy(s->buf, head, have);
    s->len = have;
    s->eof = have < sizeof head;
  }
  return CSR_SUCCESS;
}

/* A plain regular file is mapped and read in place: no copy through a buffer, and the pages are
 * faulted in by the parallel passes rather than by one read() call. Anything that cannot be
 * mapped (a pipe, a failure) keeps using read(). The first bytes were already consumed by the
 * compression check, so the mapping starts the text over from offset 0. */
static void map_file(csri_source *s) {
  struct stat st;
  if (fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
      (uint64_t)st.st_size > SIZE_MAX)
    return;
  void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, s->fd, 0);
  if (map == MAP_FAILED)
    return;
  madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
  s->map = map;
  s->map_size = (size_t)st.st_size;
  s->text_bound = (int64_t)st.st_size;
  s->mem = map;
  s->mem_size = s->map_size;
  s->mem_pos = 0;
  s->slices = 1;
  s->len = s->start = 0;
  s->eof = 0;
  csri_free(s->buf); /* held only the peeked bytes, which the mapping starts with */
  s->buf = NULL;
}

static csr_status open_common(csr_context *ctx, const char *name, size_t block, csri_source **src,
                              csri_source **out) {
  *src = NULL;
  csri_source *s = csri_calloc(1, sizeof *s);
  if (s == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "reader allocation failed");
  snprintf(s->name, sizeof s->name, "%s", name);
  s->fd = -1;
  s->text_bound = -1;
  s->cap = block ? block : CSRI_DEFAULT_BLOCK_BYTES;
  s->default_block = block == 0;
  s->threads = csri_host_threads(ctx);
  if (s->cap < 16)
    s->cap = 16;
  *out = s; /* the buffer comes with the first read that needs one: slices never do */
  return CSR_SUCCESS;
}

csr_status csri_source_open_path(csr_context *ctx, const char *path, size_t block_bytes,
                                 csri_source **src) {
  csri_source *s = NULL;
  int stdin_input = strcmp(path, "-") == 0;
  CSRI_TRY(open_common(ctx, stdin_input ? "<stdin>" : path, block_bytes, src, &s));
  if (stdin_input)
    s->fd = 0;
  else {
    s->fd = open(path, O_RDONLY | O_CLOEXEC);
    s->owns_fd = 1;
    struct stat st;
    csr_status status = CSR_SUCCESS;
    if (s->fd < 0)
      status = CSRI_FAIL(ctx, CSR_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    else if (fstat(s->fd, &st) == 0 && S_ISDIR(st.st_mode))
      status = CSRI_FAIL(ctx, CSR_ERR_IO, "%s: is a directory, not a file", path);
    if (status != CSR_SUCCESS) {
      csri_source_close(&s);
      return status;
    }
  }
  csr_status status = detect_compression(ctx, s, s->cap);
  struct stat st;
  if (status == CSR_SUCCESS && fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0)
    s->text_bound = s->inflater ? inflated_bound((uint64_t)st.st_size) : (int64_t)st.st_size;
  if (status == CSR_SUCCESS && !s->inflater && !stdin_input)
    map_file(s);
  if (status != CSR_SUCCESS) {
    csri_source_close(&s);
    return status;
  }
  *src = s;
  return CSR_SUCCESS;
}

/* The first position at or after y (body_begin <= y <= size) where a line begins: body_begin,
 * or just past a terminator ("\n", "\r\n" or a lone "\r"); size when no line begins there. */
static int64_t line_start_from(const char *text, int64_t size, int64_t body_begin, int64_t y) {
  if (y <= body_begin || y >= size)
    return y <= body_begin ? body_begin : size;
  if (text[y - 1] == '\n' || (text[y - 1] == '\r' && text[y] != '\n'))
    return y;
  const char *end = text + size, *p = csri_next_line(csri_line_end(text + y, end), end);
  return (int64_t)(p - text);
}

csr_status csri_source_open_range(csr_context *ctx, const char *path, int64_t body_begin,
                                  int64_t begin, int64_t end, int64_t file_size, csri_source **src,
                                  int64_t *skipped) {
  csri_source *s = NULL;
  *skipped = 0;
  CSRI_TRY(open_common(ctx, path, 0, src, &s));
  s->slices = 1;
  s->text_bound = 0;
  s->fd = open(path, O_RDONLY | O_CLOEXEC);
  s->owns_fd = 1;
  struct stat st;
  csr_status status = CSR_SUCCESS;
  if (s->fd < 0)
    status = CSRI_FAIL(ctx, CSR_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  else if (fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode))
    status =
        CSRI_FAIL(ctx, CSR_ERR_IO, "%s: not a regular file; a byte range cannot be read", path);
  else if ((int64_t)st.st_size != file_size)
    status = CSRI_FAIL(ctx, CSR_ERR_IO,
                       "%s: the file changed: %lld bytes, %lld when its header was read", path,
                       (long long)st.st_size, (long long)file_size);
  if (status == CSR_SUCCESS && begin < end && begin < file_size) {
    void *map = (uint64_t)file_size <= SIZE_MAX
                    ? mmap(NULL, (size_t)file_size, PROT_READ, MAP_PRIVATE, s->fd, 0)
                    : MAP_FAILED;
    if (map == MAP_FAILED)
      status = CSRI_FAIL(ctx, CSR_ERR_IO, "%s: cannot map: %s", path, strerror(errno));
    else {
      const char *text = map;
      s->map = map;
      s->map_size = (size_t)file_size;
      int64_t first = line_start_from(text, file_size, body_begin, begin);
      int64_t last = line_start_from(text, file_size, body_begin, end);
      *skipped = csri_line_ends_begun(text + begin, text + first, begin > 0 ? text[begin - 1] : 0);
      s->mem = text + first;
      s->mem_size = (size_t)(last - first);
      s->text_bound = last - first;
      size_t from = (size_t)first & ~(size_t)4095;
      if (last > first)
        madvise((char *)map + from, (size_t)last - from, MADV_SEQUENTIAL);
      if (file_size >= 2 && (unsigned char)text[0] == 0x1f && (unsigned char)text[1] == 0x8b)
        status = CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED,
                           "%s: gzip compressed; a byte range of it cannot be read", path);
    }
  }
  if (status != CSR_SUCCESS) {
    csri_source_close(&s);
    return status;
  }
  *src = s;
  return CSR_SUCCESS;
}

csr_status csri_source_open_buffer(csr_context *ctx, const char *data, size_t size,
                                   const char *name, size_t block_bytes, csri_source **src) {
  csri_source *s = NULL;
  CSRI_TRY(open_common(ctx, name ? name : "<buffer>", block_bytes, src, &s));
  s->mem = data;
  s->mem_size = data ? size : 0;
  csr_status status = detect_compression(ctx, s, s->cap);
  s->slices = !s->inflater; /* plain text in memory: hand out slices of it */
  s->text_bound = s->inflater ? inflated_bound(s->mem_size) : (int64_t)s->mem_size;
  if (status != CSR_SUCCESS) {
    csri_source_close(&s);
    return status;
  }
  *src = s;
  return CSR_SUCCESS;
}

/* Position after the last line break of buf[0, len): the last '\n', or else the last '\r' that
 * is not the final byte (it might be the first half of a CRLF). 0 when there is none. */
static size_t last_line_end(const char *buf, size_t len) {
  if (len == 0)
    return 0;
  for (size_t i = len; i > 0; i--)
    if (buf[i - 1] == '\n')
      return i;
  for (size_t i = len - 1; i > 0; i--)
    if (buf[i - 1] == '\r')
      return i;
  return 0;
}

/* --- lines that are not text: a NUL byte, or longer than CSRI_MAX_LINE_BYTES --------------- */

/* Start of the line holding text[at]: just past the last line break before it. */
static size_t line_start(const char *text, size_t at) {
  while (at > 0 && !csri_is_eol(text[at - 1]))
    at--;
  return at;
}

/* Start of the first line of text[0, size) longer than CSRI_MAX_LINE_BYTES, or size. Looks back
 * from the end of each window of CSRI_MAX_LINE_BYTES + 1 bytes for a line break: a few bytes read
 * a window, not every byte. */
static size_t first_long_line(const char *text, size_t size) {
  size_t pos = 0;
  while (size - pos > CSRI_MAX_LINE_BYTES) {
    size_t q = pos + CSRI_MAX_LINE_BYTES + 1;
    while (q > pos && !csri_is_eol(text[q - 1]))
      q--;
    if (q == pos)
      return pos;
    if (text[q - 1] == '\r' && q < size && text[q] == '\n')
      q++; /* past a CRLF's '\n' too */
    pos = q;
  }
  return size;
}

/* Index of the first NUL byte of text[0, size), or size: memchr over pieces, in parallel on a
 * large block (a pass at memory speed beside the parse). */
static size_t first_nul(const char *text, size_t size, int threads) {
  const size_t piece = (size_t)1 << 20;
  if (threads <= 1 || size < 4 * piece) {
    const char *z = memchr(text, '\0', size);
    return z ? (size_t)(z - text) : size;
  }
  int64_t pieces = (int64_t)((size + piece - 1) / piece), first = (int64_t)size;
  (void)threads; /* used by the OpenMP pragma only */
#pragma omp parallel for schedule(static) reduction(min : first) num_threads(threads)
  for (int64_t i = 0; i < pieces; i++) {
    size_t begin = (size_t)i * piece, n = size - begin < piece ? size - begin : piece;
    const char *z = memchr(text + begin, '\0', n);
    if (z && z - text < first)
      first = z - text;
  }
  return (size_t)first;
}

static csr_status not_text(csr_context *ctx, const csri_source *s, int64_t line, int nul) {
  if (nul)
    return CSRI_FAIL(ctx, CSR_ERR_PARSE, "%s:%lld: NUL byte in the input; not a text file?",
                     s->name, (long long)line);
  return CSRI_FAIL(ctx, CSR_ERR_PARSE,
                   "%s:%lld: line longer than 1 MiB (%zu bytes), the most a line may have; not a "
                   "text file?",
                   s->name, (long long)line, CSRI_MAX_LINE_BYTES);
}

/* Ends the lines text[0, *size) before the first that holds a NUL byte or is too long; fails
 * (CSR_ERR_PARSE) when that is the first line, numbered `line`. */
static csr_status cut_before_bad_line(csr_context *ctx, const csri_source *s, int64_t line,
                                      const char *text, size_t *size) {
  size_t n = *size, nul = first_nul(text, n, s->threads);
  size_t nul_line = nul < n ? line_start(text, nul) : n;
  size_t long_line = first_long_line(text, nul_line); /* only lines before the NUL's matter */
  size_t bad = long_line < nul_line ? long_line : nul_line;
  if (bad == 0 && n > 0)
    return not_text(ctx, s, line, long_line >= nul_line);
  *size = bad;
  return CSR_SUCCESS;
}

/* A buffer of more than CSRI_MAX_LINE_BYTES + 1 bytes from `from` on without a line break: the
 * line starting there, numbered `line`, is refused (for its NUL byte if it has one). */
static csr_status refuse_unended_line(csr_context *ctx, const csri_source *s, size_t from,
                                      int64_t line) {
  size_t n = s->len - from;
  return not_text(ctx, s, line, memchr(s->buf + from, '\0', n) != NULL);
}

/* Lines in the blank text[0, size) that csri_source_peek looked at, which ends after a line break:
 * the number of the first line after it is this plus 1. */
static int64_t lines_in(const char *text, size_t size) {
  int64_t lines = 0, data = 0;
  csri_count_lines(text, text + size, '%', '%', &lines, &data);
  return lines;
}

/* Slice mode: the next block is [mem_pos, cut) of the text itself, cut after a line break. */
static void next_slice(csri_source *s, const char **text, size_t *size) {
  if (s->mem_pos == s->mem_size) { /* the end (also of an empty, possibly NULL, buffer) */
    *text = "";
    *size = 0;
    return;
  }
  size_t pos = s->mem_pos, rest = s->mem_size - pos, cut = rest;
  if (rest > s->cap) {
    cut = last_line_end(s->mem + pos, s->cap);
    if (cut == 0) { /* a line longer than a block: the block runs to its end, or far enough
                       to show the line is longer than any line may be */
      size_t most = s->cap > CSRI_MAX_LINE_BYTES + 2 ? s->cap : CSRI_MAX_LINE_BYTES + 2;
      most = most < rest ? most : rest;
      cut = s->cap;
      while (cut < most && s->mem[pos + cut - 1] != '\n' &&
             !(s->mem[pos + cut - 1] == '\r' && s->mem[pos + cut] != '\n'))
        cut++;
    }
  }
  if (s->map && pos > 0) { /* pages behind us are done with: keep the resident set small */
    size_t done = (size_t)(s->mem - (const char *)s->map) + pos; /* a range starts past 0 */
    madvise(s->map, done & ~(size_t)4095, MADV_DONTNEED);
  }
  *text = s->mem + pos;
  *size = cut;
  s->mem_pos += cut;
  s->bytes += (int64_t)cut;
}

/* next_slice, ended before a line that is not text (and failing when it is the first). */
static csr_status take_slice(csr_context *ctx, csri_source *s, int64_t line, const char **text,
                             size_t *size) {
  next_slice(s, text, size);
  size_t whole = *size;
  CSRI_TRY(cut_before_bad_line(ctx, s, line, *text, size));
  s->mem_pos -= whole - *size; /* the rest is the next block's */
  s->bytes -= (int64_t)(whole - *size);
  return CSR_SUCCESS;
}

/* 1 when text holds a character other than white space and line breaks (the parsers' rule). */
static int has_content(const char *text, size_t size) {
  for (size_t i = 0; i < size; i++)
    if (!csri_is_blank(text[i]) && !csri_is_eol(text[i]))
      return 1;
  return 0;
}

/* Doubles the read buffer, keeping its bytes: for a line longer than the buffer, or a peek that
 * needs more lines than one block. */
static csr_status grow_buffer(csr_context *ctx, csri_source *s) {
  size_t cap = s->cap * 2;
  char *grown = cap > s->cap ? csri_malloc(cap) : NULL;
  if (grown == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "%s: read buffer of %zu bytes failed", s->name,
                     cap);
  memcpy(grown, s->buf, s->len);
  csri_free(s->buf);
  s->buf = grown;
  s->cap = cap;
  return CSR_SUCCESS;
}

/* The peeked block followed by the next whole lines (the peeked block being blank lines only).
 * *grew = 0 at the end of the input. */
static csr_status grow_peek(csr_context *ctx, csri_source *s, int *grew) {
  *grew = 0;
  int64_t line = 1 + lines_in(s->peeked, s->peeked_size); /* of the first line after them */
  if (s->slices) { /* slices are contiguous: the next one continues the peeked one */
    const char *text;
    size_t size;
    CSRI_TRY(take_slice(ctx, s, line, &text, &size));
    s->peeked_size += size;
    *grew = size > 0;
    return CSR_SUCCESS;
  }
  if (s->eof)
    return CSR_SUCCESS;
  if (s->len == s->cap) /* the buffer holds the peeked block and a partial line */
    CSRI_TRY(grow_buffer(ctx, s));
  size_t got = 0;
  CSRI_TRY(raw_read(ctx, s, s->buf + s->len, s->cap - s->len, &got));
  s->eof = got == 0;
  s->len += got;
  size_t cut = s->eof ? s->len : last_line_end(s->buf, s->len);
  size_t fresh = cut > s->start ? cut - s->start : 0;
  if (fresh == 0 && !s->eof && s->len - s->start > CSRI_MAX_LINE_BYTES + 1)
    return refuse_unended_line(ctx, s, s->start, line);
  CSRI_TRY(cut_before_bad_line(ctx, s, line, s->buf + s->start, &fresh));
  s->bytes += (int64_t)fresh;
  *grew = fresh > 0 || got > 0;
  s->start += fresh;
  s->peeked = s->buf;
  s->peeked_size = s->start;
  return CSR_SUCCESS;
}

csr_status csri_source_peek(csr_context *ctx, csri_source *s, const char **text, size_t *size) {
  if (!s->has_peeked) {
    CSRI_TRY(csri_source_next(ctx, s, 1, &s->peeked, &s->peeked_size));
    s->has_peeked = 1;
    for (int grew = 1;
         grew && !has_content(s->peeked, s->peeked_size) && s->peeked_size < CSRI_MAX_LINE_BYTES;)
      CSRI_TRY(grow_peek(ctx, s, &grew));
  }
  *text = s->peeked;
  *size = s->peeked_size;
  return CSR_SUCCESS;
}

csr_status csri_source_next(csr_context *ctx, csri_source *s, int64_t line, const char **text,
                            size_t *size) {
  if (s->has_peeked) { /* the block is where peek left it: nothing has moved since */
    s->has_peeked = 0;
    *text = s->peeked;
    *size = s->peeked_size;
    return CSR_SUCCESS;
  }
  if (s->slices)
    return take_slice(ctx, s, line, text, size);
  CSRI_TRY(ensure_buffer(ctx, s));
  memmove(s->buf, s->buf + s->start, s->len - s->start);
  s->len -= s->start;
  s->start = 0;
  for (;;) {
    while (s->len < s->cap && !s->eof) {
      size_t got = 0;
      CSRI_TRY(raw_read(ctx, s, s->buf + s->len, s->cap - s->len, &got));
      s->eof = got == 0;
      s->len += got;
    }
    size_t cut = s->eof ? s->len : last_line_end(s->buf, s->len);
    if (cut > 0 || s->eof) {
      CSRI_TRY(cut_before_bad_line(ctx, s, line, s->buf, &cut));
      *text = s->buf;
      *size = cut;
      s->start = cut;
      s->bytes += (int64_t)cut;
      return CSR_SUCCESS;
    }
    if (s->len > CSRI_MAX_LINE_BYTES + 1) /* no line break: the first line is too long */
      return refuse_unended_line(ctx, s, 0, line);
    CSRI_TRY(grow_buffer(ctx, s)); /* one line longer than the buffer: read on */
  }
}
