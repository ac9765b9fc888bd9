/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the Matrix Market / edge-list reader (csr_read_coo, csr_read_coo_buffer,
 * csr_read_csr) against ../shared/mmtests/README.md (the policy), with texts built here: line
 * endings and layout, every error class with its line number (also past the first block with
 * tiny blocks, and the earliest of two errors in a > 2 MB text split into parallel pieces), gzip
 * (two members, truncated, bzip2 refused), standard input, edge lists, keep_symmetry, F32,
 * duplicates summed by csr_read_csr, NULL arguments, a declared count far beyond the file, huge
 * dimensions, lines longer than a block, and allocation-failure injection. Results are compared
 * with hand-written triples and with the oracle of tests/common/mm_oracle.c. Temporary files
 * live in a mkdtemp directory under /tmp, removed at the end. */
#define _POSIX_C_SOURCE 200809L
#include "mm_oracle.h"
#include "testing.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

static csr_context *ctx_ref, *ctx_omp; /* ctx_omp NULL without OpenMP */
static char tmpdir[64];

/* --- text building ---------------------------------------------------------------------------- */

typedef struct text {
  char *s;
  size_t n, cap;
} text;

static void add_bytes(text *t, const void *p, size_t n) {
  if (t->n + n + 1 > t->cap) {
    t->cap = 2 * (t->n + n) + 256;
    t->s = realloc(t->s, t->cap);
    if (t->s == NULL)
      abort();
  }
  memcpy(t->s + t->n, p, n);
  t->n += n;
  t->s[t->n] = '\0';
}

static void add(text *t, const char *format, ...) {
  char buf[1024];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  add_bytes(t, buf, (size_t)n);
}

static void text_free(text *t) {
  free(t->s);
  memset(t, 0, sizeof *t);
}

/* Lines joined by the terminators of eols in turn; the last line gets one only if final. */
static text join(const char *const *lines, int n, const char *const *eols, int neol, int final) {
  text t = {0};
  add_bytes(&t, "", 0);
  for (int i = 0; i < n; i++) {
    add(&t, "%s", lines[i]);
    if (i + 1 < n || final)
      add(&t, "%s", eols[i % neol]);
  }
  return t;
}

static csr_read_options options(size_t block) {
  csr_read_options o;
  csr_read_options_init(&o);
  o.block_bytes = block;
  return o;
}

/* --- files ------------------------------------------------------------------------------------ */

/* Writes data to tmpdir/name; returns the path (static buffer rotated over 4). */
static const char *temp_file(const char *name, const void *data, size_t size) {
  static char paths[4][256];
  static int next = 0;
  char *path = paths[next++ % 4];
  snprintf(path, 256, "%s/%s", tmpdir, name);
  FILE *f = fopen(path, "wb");
  CHECKF(f && fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write %s", path);
  return path;
}

/* Writes data gzip-compressed to tmpdir/name, in `members` gzip members. */
static const char *temp_gzip(const char *name, const char *data, size_t size, int members) {
  static char paths[2][256];
  static int next = 0;
  char *path = paths[next++ % 2];
  snprintf(path, 256, "%s/%s", tmpdir, name);
  size_t done = 0;
  for (int m = 0; m < members; m++) {
    size_t part = m + 1 == members ? size - done : size / (size_t)members;
    gzFile g = gzopen(path, m == 0 ? "wb" : "ab"); /* "ab": a new member after the first */
    int ok = g != NULL && (part == 0 || gzwrite(g, data + done, (unsigned)part) == (int)part);
    CHECKF(ok && gzclose(g) == Z_OK, "cannot write %s", path);
    done += part;
  }
  return path;
}

static char *file_bytes(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return buf;
}

/* --- expectations ----------------------------------------------------------------------------- */

typedef struct triples {
  int64_t rows, cols;
  int n;
  const int *r, *c; /* 0-based */
  const double *v;  /* NULL: pattern */
} triples;

static int coo_is(const csr_coo *T, const triples *want, char *why, size_t why_size) {
  if (T->rows != want->rows || T->cols != want->cols || T->nnz != want->n ||
      (want->v == NULL) != (T->value_type == CSR_PATTERN)) {
    snprintf(why, why_size, "%lld x %lld, %lld entries, type %d; expected %lld x %lld, %d, %s",
             (long long)T->rows, (long long)T->cols, (long long)T->nnz, (int)T->value_type,
             (long long)want->rows, (long long)want->cols, want->n, want->v ? "values" : "pattern");
    return 0;
  }
  for (int k = 0; k < want->n; k++) {
    double v = T->value_type == CSR_F64   ? ((double *)T->values)[k]
               : T->value_type == CSR_F32 ? ((float *)T->values)[k]
                                          : 1.0;
    double w = !want->v ? 1.0 : T->value_type == CSR_F32 ? (float)want->v[k] : want->v[k];
    if (T->row_indices[k] != want->r[k] || T->col_indices[k] != want->c[k] ||
        memcmp(&v, &w, sizeof v) != 0) {
      snprintf(why, why_size, "entry %d: (%d, %d, %.17g), expected (%d, %d, %.17g)", k,
               T->row_indices[k], T->col_indices[k], v, want->r[k], want->c[k], w);
      return 0;
    }
  }
  return 1;
}

/* The text from memory: the hand-written triples (unless want is NULL), on both backends, with the
 * default block and every block size from 16 to 80; and the oracle's triples (mm = 1: Matrix
 * Market, 0: edges, -1: no oracle). */
static void expect_text(const char *what, const char *data, size_t size, const char *name,
                        const csr_read_options *base, const triples *want, int mm) {
  char why[600];
  mmo_result r;
  memset(&r, 0, sizeof r);
  r.status = CSR_ERR_IO; /* no oracle */
  if (mm > 0)
    mmo_parse_mm(data, size, base->keep_symmetry, &r);
  else if (mm == 0)
    mmo_parse_edges(data, size, &r);
  CHECKF(mm < 0 || r.status == CSR_SUCCESS, "%s: the oracle refuses it (line %lld)", what,
         (long long)r.error_line);
  for (int b = 0; b < 2 * 66; b++) {
    csr_context *ctx = b < 66 ? ctx_ref : ctx_omp;
    if (ctx == NULL)
      continue;
    csr_read_options o = *base;
    o.block_bytes = b % 66 == 0 ? base->block_bytes : (size_t)(b % 66) + 15;
    csr_coo *T = NULL;
    csr_status s = csr_read_coo_buffer(ctx, data, size, name, &o, &T, NULL);
    CHECKF(s == CSR_SUCCESS, "%s (%s, block %zu): %s (%s)", what,
           csr_backend_name(csr_context_backend(ctx)), o.block_bytes, csr_status_string(s),
           csr_context_last_error(ctx));
    if (s == CSR_SUCCESS && want)
      CHECKF(coo_is(T, want, why, sizeof why), "%s (%s, block %zu): %s", what,
             csr_backend_name(csr_context_backend(ctx)), o.block_bytes, why);
    if (s == CSR_SUCCESS && r.status == CSR_SUCCESS)
      CHECKF(mmo_coo_matches(T, &r, why, sizeof why), "%s (%s, block %zu): against the oracle: %s",
             what, csr_backend_name(csr_context_backend(ctx)), o.block_bytes, why);
    csr_coo_free(&T);
  }
  mmo_free(&r);
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

/* A refusal: status, no COO, "<name>:<line>:" in the message (line > 0), and words; on both
 * backends with blocks 0, 16, 17, 31, 64. mm: 1 Matrix Market (the oracle must agree), 0 edge
 * list (likewise), -1 no oracle. */
static void expect_refusal(const char *what, const char *data, size_t size, const char *name,
                           const csr_read_options *base, csr_status status, int64_t line,
                           const char *words, int mm) {
  static const size_t blocks[] = {0, 16, 17, 31, 64};
  for (int b = 0; b < 10; b++) {
    csr_context *ctx = b < 5 ? ctx_ref : ctx_omp;
    if (ctx == NULL)
      continue;
    csr_read_options o = *base;
    if (blocks[b % 5])
      o.block_bytes = blocks[b % 5];
    csr_coo *T = NULL;
    csr_context_clear_error(ctx);
    csr_status s = csr_read_coo_buffer(ctx, data, size, name, &o, &T, NULL);
    const char *message = csr_context_last_error(ctx);
    CHECKF(s == status && T == NULL, "%s (%s, block %zu): %s, expected %s (%s)", what,
           csr_backend_name(csr_context_backend(ctx)), o.block_bytes, csr_status_string(s),
           csr_status_string(status), message);
    csr_coo_free(&T);
    if (s != status)
      continue;
    char at[300];
    snprintf(at, sizeof at, "%s:%lld:", name, (long long)line);
    CHECKF(strstr(message, name) != NULL && (line <= 0 || strstr(message, at) != NULL),
           "%s (block %zu): the message does not name %s: %s", what, o.block_bytes, at, message);
    CHECKF(holds_words(message, words), "%s: the message lacks '%s': %s", what, words ? words : "",
           message);
  }
  if (mm >= 0) {
    mmo_result r;
    if (mm)
      mmo_parse_mm(data, size, base->keep_symmetry, &r);
    else
      mmo_parse_edges(data, size, &r);
    CHECKF(r.status == status && r.error_line == line,
           "%s: the oracle says %s on line %lld (test: %s on line %lld)", what,
           csr_status_string(r.status), (long long)r.error_line, csr_status_string(status),
           (long long)line);
    mmo_free(&r);
  }
}

/* --- line endings and layout ------------------------------------------------------------------ */

static const char *const base_lines[] = {
    "%%MatrixMarket matrix coordinate real general",
    "% a comment",
    "4 5 6",
    "1 1 1.5",
    "2 3 -2",
    "4 5 3e2",
    "1 5 0",
    "3 2 .25",
    "4 1 7",
};
static const int base_r[] = {0, 1, 3, 0, 2, 3}, base_c[] = {0, 2, 4, 4, 1, 0};
static const double base_v[] = {1.5, -2, 300, 0, 0.25, 7};
static const triples base_want = {4, 5, 6, base_r, base_c, base_v};

/* Reads "-" with the file at path on descriptor 0. */
static csr_status read_stdin(csr_context *ctx, const char *path, const csr_read_options *o,
                             csr_coo **T, csr_file_info *info) {
  int saved = dup(0), fd = open(path, O_RDONLY);
  if (saved < 0 || fd < 0 || dup2(fd, 0) < 0) {
    CHECKF(0, "cannot put %s on standard input", path);
    return CSR_ERR_IO;
  }
  close(fd);
  csr_status s = csr_read_coo(ctx, "-", o, T, info);
  dup2(saved, 0);
  close(saved);
  return s;
}

/* Where a text comes from: a file (mapped), a gzip file, a file on standard input, a pipe on
 * standard input, a named pipe (FIFO). The last three are read with read(), not mapped. */
typedef enum channel { VIA_FILE, VIA_GZIP, VIA_STDIN, VIA_PIPE, VIA_FIFO, CHANNELS } channel;
static const char *const channel_names[] = {"file", "gzip file", "stdin", "pipe on stdin",
                                            "named pipe"};

/* A child process that writes data to fd (or, with fd < 0, opens path for writing first). It
 * closes other_end (the pipe's read end, or -1) so that it gets EPIPE when the reader stops. */
static pid_t writer(int fd, int other_end, const char *path, const char *data, size_t size) {
  pid_t pid = fork();
  if (pid != 0)
    return pid;
  if (other_end >= 0)
    close(other_end);
  if (fd < 0)
    fd = open(path, O_WRONLY);
  for (size_t done = 0; fd >= 0 && done < size;) {
    ssize_t n = write(fd, data + done, size - done);
    if (n <= 0)
      break;
    done += (size_t)n;
  }
  _exit(0);
}

static csr_status read_via(channel ch, csr_context *ctx, const char *data, size_t size,
                           const csr_read_options *o, csr_coo **T, csr_file_info *info) {
  char fifo[300];
  csr_status s = CSR_ERR_IO;
  int fds[2], saved;
  pid_t pid;
  switch (ch) {
  case VIA_FILE: return csr_read_coo(ctx, temp_file("chan.mtx", data, size), o, T, info);
  case VIA_GZIP: return csr_read_coo(ctx, temp_gzip("chan.mtx.gz", data, size, 2), o, T, info);
  case VIA_STDIN: return read_stdin(ctx, temp_file("chan.mtx", data, size), o, T, info);
  case VIA_PIPE:
    if (pipe(fds) != 0 || (saved = dup(0)) < 0)
      break;
    pid = writer(fds[1], fds[0], NULL, data, size);
    close(fds[1]);
    dup2(fds[0], 0);
    close(fds[0]);
    s = csr_read_coo(ctx, "-", o, T, info);
    dup2(saved, 0); /* closes the read end: a writer still writing gets EPIPE and exits */
    close(saved);
    waitpid(pid, NULL, 0);
    return s;
  case VIA_FIFO:
    snprintf(fifo, sizeof fifo, "%s/fifo.mtx", tmpdir);
    unlink(fifo);
    if (mkfifo(fifo, 0600) != 0)
      break;
    pid = writer(-1, -1, fifo, data, size);
    s = csr_read_coo(ctx, fifo, o, T, info);
    unlink(fifo);
    waitpid(pid, NULL, 0);
    return s;
  default: break;
  }
  CHECKF(0, "cannot set up %s", channel_names[ch]);
  return s;
}

/* The text through every channel, both backends, blocks 0, 16, 17, 31, 64. */
static void expect_channels(const char *what, const char *data, size_t size,
                            const csr_read_options *base, const triples *want) {
  static const size_t blocks[] = {0, 16, 17, 31, 64};
  char why[600];
  for (int ch = 0; ch < CHANNELS; ch++)
    for (int b = 0; b < 10; b++) {
      csr_context *ctx = b < 5 ? ctx_ref : ctx_omp;
      if (ctx == NULL)
        continue;
      csr_read_options o = *base;
      o.block_bytes = blocks[b % 5];
      csr_coo *T = NULL;
      csr_file_info info;
      memset(&info, 0, sizeof info);
      csr_status s = read_via((channel)ch, ctx, data, size, &o, &T, &info);
      CHECKF(s == CSR_SUCCESS && coo_is(T, want, why, sizeof why) &&
                 info.gzip == (ch == VIA_GZIP) && info.bytes == (int64_t)size,
             "%s, %s (%s, block %zu): %s %s; gzip %d, bytes %lld", what, channel_names[ch],
             csr_backend_name(csr_context_backend(ctx)), o.block_bytes,
             s == CSR_SUCCESS ? why : csr_status_string(s), csr_context_last_error(ctx), info.gzip,
             (long long)info.bytes);
      csr_coo_free(&T);
    }
}

/* A refusal through every channel names the line (the name is the channel's). */
static void expect_channels_refusal(const char *what, const char *data, size_t size,
                                    csr_status status, int line) {
  char at[32];
  snprintf(at, sizeof at, ":%d:", line);
  for (int ch = 0; ch < CHANNELS; ch++)
    for (int b = 0; b < 4; b++) {
      csr_context *ctx = b < 2 ? ctx_ref : ctx_omp;
      if (ctx == NULL)
        continue;
      csr_read_options o = options(b % 2 ? 16 : 0);
      csr_coo *T = NULL;
      csr_status s = read_via((channel)ch, ctx, data, size, &o, &T, NULL);
      CHECKF(s == status && T == NULL && strstr(csr_context_last_error(ctx), at),
             "%s, %s (%s, block %zu): %s, expected %s on line %d (%s)", what, channel_names[ch],
             csr_backend_name(csr_context_backend(ctx)), o.block_bytes, csr_status_string(s),
             csr_status_string(status), line, csr_context_last_error(ctx));
      csr_coo_free(&T);
    }
}

static void test_line_endings(void) {
  static const char *const lf[] = {"\n"}, *const crlf[] = {"\r\n"}, *const cr[] = {"\r"},
                           *const mixed[] = {"\n", "\r\n", "\r"}, *const mixed2[] = {"\r", "\n"};
  const struct {
    const char *name;
    const char *const *eols;
    int n;
  } kinds[] = {{"LF", lf, 1},
               {"CRLF", crlf, 1},
               {"CR", cr, 1},
               {"mixed", mixed, 3},
               {"CR LF mixed", mixed2, 2}};
  csr_read_options o = options(0);
  char what[128];
  for (int k = 0; k < 5; k++)
    for (int final = 0; final < 2; final++) {
      text t = join(base_lines, 9, kinds[k].eols, kinds[k].n, final);
      snprintf(what, sizeof what, "%s line endings%s", kinds[k].name,
               final ? "" : ", no final newline");
      expect_text(what, t.s, t.n, "endings.mtx", &o, &base_want, 1);
      /* The same from files, standard input and pipes (mapped, or read with read()). */
      expect_channels(what, t.s, t.n, &o, &base_want);
      /* A bad value on line 7 (the 4th entry) keeps its number whatever the endings. */
      text bad = {0};
      for (size_t c = 0, line = 1; c < t.n; c++) {
        if (line == 7 && t.s[c] == '0') /* "1 5 0" -> "1 5 x" */
          add(&bad, "x");
        else
          add_bytes(&bad, &t.s[c], 1);
        line += t.s[c] == '\n' || (t.s[c] == '\r' && (c + 1 == t.n || t.s[c + 1] != '\n'));
      }
      expect_channels_refusal(what, bad.s, bad.n, CSR_ERR_PARSE, 7);
      text_free(&bad);
      text_free(&t);
    }
}

static void test_layout(void) {
  csr_read_options o = options(0);
  static const char tabs[] = "%%MatrixMarket\tmatrix\tcoordinate\treal\tgeneral\n"
                             "\t4\t5 \t6\t\n"
                             "\t1\t1\t1.5\n"
                             "  2 \t 3\t-2  \n"
                             "4\t5\t3e2\t\n"
                             "\t \t1 5 0\n"
                             "3\t2\t.25\n"
                             "4 1 7\t";
  expect_text("tabs and indentation", tabs, sizeof tabs - 1, "tabs.mtx", &o, &base_want, 1);
  static const char blanks[] = "%%MatrixMarket matrix coordinate real general\n"
                               "%%GraphBLAS type double\n"
                               "\n"
                               "% comment\n"
                               "  \t \n"
                               "4 5 6\n"
                               "\n"
                               "1 1 1.5\n"
                               "% between entries\n"
                               "%%GraphBLAS type double\n"
                               "2 3 -2\n"
                               "   % an indented comment\n"
                               "\t\n"
                               "4 5 3e2\n"
                               "1 5 0\n"
                               "\n\n\n"
                               "3 2 .25\n"
                               "4 1 7\n"
                               "\n"
                               "% trailing comment\n"
                               "\n";
  expect_text("blank lines, comments, %%GraphBLAS", blanks, sizeof blanks - 1, "blanks.mtx", &o,
              &base_want, 1);
  const char *banners[] = {
      "%%matrixmarket matrix coordinate real general\n",
      "%%MATRIXMARKET MATRIX COORDINATE REAL GENERAL\n",
      "%%MatrixMarket Matrix Coordinate Real General\n",
      "\n\n   \n%%MatrixMarket matrix coordinate real general\n",
      "\r\n\r\n%%MatrixMarket matrix coordinate real general\r\n",
      "\r\r%%MatrixMarket matrix coordinate real general\r",
      "   \t%%MatrixMarket matrix coordinate real general\n",
      "%MatrixMarket matrix coordinate real general\n",
      "%%MatrixMarket    matrix  coordinate\treal   general   \n",
  };
  for (int i = 0; i < (int)(sizeof banners / sizeof banners[0]); i++) {
    text t = {0};
    add(&t, "%s4 5 6\n1 1 1.5\n2 3 -2\n4 5 3e2\n1 5 0\n3 2 .25\n4 1 7\n", banners[i]);
    char what[200];
    snprintf(what, sizeof what, "banner %d '%.60s'", i, banners[i]);
    expect_text(what, t.s, t.n, "banner.mtx", &o, &base_want, 1);
    text_free(&t);
  }

  /* Symmetric: entries of either triangle are mirrored (mirrors after all stored entries, in
   * stored order); the diagonal once. Real hermitian is real symmetric. */
  static const double sym_full_v[] = {2, 3, 4, 2, 3};
  static const int sym_full_r[] = {1, 0, 2, 0, 2}, sym_full_c[] = {0, 2, 2, 1, 0};
  static const triples sym_full = {3, 3, 5, sym_full_r, sym_full_c, sym_full_v};
  static const char symmetric[] = "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n"
                                  "2 1 2\n1 3 3\n3 3 4\n";
  expect_text("symmetric, both triangles", symmetric, sizeof symmetric - 1, "s.mtx", &o, &sym_full,
              1);
  static const char hermitian[] = "%%MatrixMarket matrix coordinate real hermitian\n3 3 3\n"
                                  "2 1 2\n1 3 3\n3 3 4\n";
  expect_text("real hermitian", hermitian, sizeof hermitian - 1, "h.mtx", &o, &sym_full, 1);
  static const int skew_r[] = {1, 0, 2, 0, 2}, skew_c[] = {0, 2, 2, 1, 0};
  static const double skew_v[] = {2, 3, 0, -2, -3};
  static const triples skew = {3, 3, 5, skew_r, skew_c, skew_v};
  static const char skew_text[] = "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 3\n"
                                  "2 1 2\n1 3 3\n3 3 0\n";
  expect_text("skew, upper entry, explicit zero diagonal", skew_text, sizeof skew_text - 1, "k.mtx",
              &o, &skew, 1);
  static const int pat_r[] = {1, 0, 2, 0, 2}, pat_c[] = {0, 2, 2, 1, 0};
  static const triples pat = {3, 3, 5, pat_r, pat_c, NULL};
  static const char pattern[] = "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n"
                                "2 1\n1 3\n3 3\n";
  expect_text("pattern symmetric", pattern, sizeof pattern - 1, "p.mtx", &o, &pat, 1);
  static const char integer[] = "%%MatrixMarket matrix coordinate integer general\n2 2 3\n"
                                "1 1 9223372036854775807\n2 1 -9223372036854775808\n2 2 +5\n";
  static const int int_r[] = {0, 1, 1}, int_c[] = {0, 0, 1};
  static const double int_v[] = {9223372036854775807.0, -9223372036854775807.0 - 1.0, 5};
  static const triples ints = {2, 2, 3, int_r, int_c, int_v};
  expect_text("integer extremes", integer, sizeof integer - 1, "i.mtx", &o, &ints, 1);
  static const char tiny[] = "%%MatrixMarket matrix coordinate real general\n2 2 3\n"
                             "1 1 1e-400\n2 1 4.9406564584124654e-324\n2 2 -0.0\n";
  static const double tiny_v[] = {0.0, 4.9406564584124654e-324, -0.0};
  static const triples tinies = {2, 2, 3, int_r, int_c, tiny_v};
  expect_text("underflow is not an error; -0 kept", tiny, sizeof tiny - 1, "u.mtx", &o, &tinies, 1);

  /* Vectors are n x 1; arrays are column-major with every value (zeros kept). */
  static const char vcoord[] = "%%MatrixMarket vector coordinate real general\n4 2\n4 1.5\n2 0\n";
  static const int vc_r[] = {3, 1}, vc_c[] = {0, 0};
  static const double vc_v[] = {1.5, 0};
  static const triples vc = {4, 1, 2, vc_r, vc_c, vc_v};
  expect_text("coordinate vector", vcoord, sizeof vcoord - 1, "v.mtx", &o, &vc, 1);
  static const char varray[] = "%%MatrixMarket vector array real general\n3\n1\n0\n-2\n";
  static const int va_r[] = {0, 1, 2}, va_c[] = {0, 0, 0};
  static const double va_v[] = {1, 0, -2};
  static const triples va = {3, 1, 3, va_r, va_c, va_v};
  expect_text("array vector", varray, sizeof varray - 1, "va.mtx", &o, &va, 1);
  static const char array[] = "%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n0\n6\n";
  static const int ar_r[] = {0, 1, 0, 1, 0, 1}, ar_c[] = {0, 0, 1, 1, 2, 2};
  static const double ar_v[] = {1, 2, 3, 4, 0, 6};
  static const triples ar = {2, 3, 6, ar_r, ar_c, ar_v};
  expect_text("general array", array, sizeof array - 1, "a.mtx", &o, &ar, 1);
  static const char sarray[] = "%%MatrixMarket matrix array real symmetric\n3 3\n"
                               "1\n2\n3\n4\n5\n6\n";
  static const int sa_r[] = {0, 1, 2, 1, 2, 2, 0, 0, 1}, sa_c[] = {0, 0, 0, 1, 1, 2, 1, 2, 2};
  static const double sa_v[] = {1, 2, 3, 4, 5, 6, 2, 3, 5};
  static const triples sa = {3, 3, 9, sa_r, sa_c, sa_v};
  expect_text("symmetric array", sarray, sizeof sarray - 1, "sa.mtx", &o, &sa, 1);
  static const char karray[] = "%%MatrixMarket matrix array real skew-symmetric\n3 3\n"
                               "1\n2\n3\n";
  static const int ka_r[] = {1, 2, 2, 0, 0, 1}, ka_c[] = {0, 0, 1, 1, 2, 2};
  static const double ka_v[] = {1, 2, 3, -1, -2, -3};
  static const triples ka = {3, 3, 6, ka_r, ka_c, ka_v};
  expect_text("skew array", karray, sizeof karray - 1, "ka.mtx", &o, &ka, 1);
  /* Number formats, against strtod bit for bit (the oracle). */
  static const char numbers[] =
      "%%MatrixMarket matrix array real general\n19 1\n"
      "1.\n.5\n-.5e-3\n5E+2\n+7\n007.50\n1e0\ninf\n-Infinity\nnan\n4.9e-324\n1e-400\n"
      "2.2250738585072011e-308\n1.7976931348623157e308\n1.7976931348623158e308\n"
      "0.1000000000000000055511151231257827021181583404541015625\n"
      "123456789012345678901234567890\n-0\n9007199254740993\n";
  expect_text("number formats", numbers, sizeof numbers - 1, "n.mtx", &o, NULL, 1);
  static const char empty[] = "%%MatrixMarket matrix coordinate real general\n0 0 0\n";
  static const triples none = {0, 0, 0, NULL, NULL, base_v};
  expect_text("0 x 0", empty, sizeof empty - 1, "e.mtx", &o, &none, 1);
}

/* --- errors and their lines ------------------------------------------------------------------- */

typedef struct bad_case {
  const char *what, *text;
  csr_status status;
  int line;
  const char *words;
} bad_case;

/* Texts whose error lies past the first 16-byte block. H: 6 lines, 3 x 4 with 3 entries, two
 * given; the bad entry is line 7. */
#define H                                                                                          \
  "%%MatrixMarket matrix coordinate real general\n% padding comment\n%\n3 4 3\n1 1 1\n2 2 2\n"
#define HI                                                                                         \
  "%%MatrixMarket matrix coordinate integer general\n% padding comment\n%\n3 4 3\n1 1 1\n2 2 "     \
  "2\n"
#define BANNER "%%MatrixMarket matrix coordinate real general\n"
static const bad_case bad_cases[] = {
    {"row index 0", H "0 1 1\n", CSR_ERR_PARSE, 7, "row"},
    {"negative row", H "-1 1 1\n", CSR_ERR_PARSE, 7, "row"},
    {"row beyond", H "4 1 1\n", CSR_ERR_PARSE, 7, "row"},
    {"column beyond", H "1 5 1\n", CSR_ERR_PARSE, 7, "column"},
    {"column 0", H "1 0 1\n", CSR_ERR_PARSE, 7, "column"},
    {"huge row index", H "99999999999999999999 1 1\n", CSR_ERR_PARSE, 7, NULL},
    {"non-numeric index", H "x 1 1\n", CSR_ERR_PARSE, 7, NULL},
    {"fractional index", H "1.5 1 1\n", CSR_ERR_PARSE, 7, NULL},
    {"non-numeric value", H "1 1 abc\n", CSR_ERR_PARSE, 7, "abc"},
    {"value with junk", H "1 1 1.5x\n", CSR_ERR_PARSE, 7, NULL},
    {"extra token", H "1 1 1 1\n", CSR_ERR_PARSE, 7, NULL},
    {"missing value", H "1 1\n", CSR_ERR_PARSE, 7, NULL},
    {"missing column", H "1\n", CSR_ERR_PARSE, 7, NULL},
    {"a value in a pattern file",
     "%%MatrixMarket matrix coordinate pattern general\n%\n%\n3 3 3\n1 1\n2 2\n3 3 1\n",
     CSR_ERR_PARSE, 7, NULL},
    {"a column in a coordinate vector",
     "%%MatrixMarket vector coordinate real general\n%\n%\n3 3\n1 1\n2 2\n3 1 1\n", CSR_ERR_PARSE,
     7, NULL},
    {"two values on an array line",
     "%%MatrixMarket matrix array real general\n%\n%\n2 2\n1\n2\n3 4\n4\n", CSR_ERR_PARSE, 7, NULL},
    {"array: too few values", "%%MatrixMarket matrix array real general\n%\n%\n2 2\n1\n2\n3\n",
     CSR_ERR_PARSE, 7, "expected 4 entries|found 3"},
    {"LF then CR: two line breaks", BANNER "%\n\r3 3 1\n\r\r\n1 1 x\n", CSR_ERR_PARSE, 7, NULL},
    {"real beyond double after rounding", H "1 1 1.7976931348623159e308\n", CSR_ERR_OVERFLOW, 7,
     NULL},
    {"real beyond double", H "1 1 1e400\n", CSR_ERR_OVERFLOW, 7, NULL},
    {"negative real beyond double", H "1 1 -1.8e308\n", CSR_ERR_OVERFLOW, 7, NULL},
    {"fraction in an integer file", HI "1 1 1.5\n", CSR_ERR_PARSE, 7, NULL},
    {"integer beyond int64", HI "1 1 9223372036854775808\n", CSR_ERR_OVERFLOW, 7, NULL},
    {"integer below int64", HI "1 1 -9223372036854775809\n", CSR_ERR_OVERFLOW, 7, NULL},
    {"more entries than declared", H "3 3 3\n3 4 4\n", CSR_ERR_PARSE, 8, "expected 3 entries"},
    {"fewer entries than declared", H "% the end\n\n", CSR_ERR_PARSE, 8,
     "expected 3 entries|found 2"},
    {"fewer, no final newline", H "% the end", CSR_ERR_PARSE, 7, "expected 3 entries|found 2"},
    {"skew nonzero diagonal",
     "%%MatrixMarket matrix coordinate real skew-symmetric\n%\n%\n3 3 3\n2 1 1\n3 1 1\n2 2 "
     "-1\n",
     CSR_ERR_PARSE, 7, NULL},
    {"empty input", "", CSR_ERR_PARSE, 1, NULL},
    {"blank lines only", "\n  \n\n", CSR_ERR_PARSE, 3, NULL},
    {"comment before the banner", "% hello\n" BANNER "1 1 0\n", CSR_ERR_PARSE, 1, NULL},
    {"not a banner", "1 1 1\n", CSR_ERR_PARSE, 1, NULL},
    {"banner of 4 words", "%%MatrixMarket matrix coordinate real\n1 1 0\n", CSR_ERR_PARSE, 1, NULL},
    {"banner of 6 words", "%%MatrixMarket matrix coordinate real general x\n1 1 0\n", CSR_ERR_PARSE,
     1, NULL},
    {"banner on line 3, bad object", "\n\n%%MatrixMarket tensor coordinate real general\n",
     CSR_ERR_PARSE, 3, "tensor"},
    {"bad format", "%%MatrixMarket matrix sparse real general\n1 1 0\n", CSR_ERR_PARSE, 1,
     "sparse"},
    {"bad field", "%%MatrixMarket matrix coordinate quaternion general\n1 1 0\n", CSR_ERR_PARSE, 1,
     "quaternion"},
    {"bad symmetry", "%%MatrixMarket matrix coordinate real upper\n1 1 0\n", CSR_ERR_PARSE, 1,
     "upper"},
    {"array pattern", "%%MatrixMarket matrix array pattern general\n1 1\n", CSR_ERR_PARSE, 1, NULL},
    {"pattern hermitian", "%%MatrixMarket matrix coordinate pattern hermitian\n1 1 0\n",
     CSR_ERR_PARSE, 1, NULL},
    {"symmetric vector", "%%MatrixMarket vector coordinate real symmetric\n1 0\n", CSR_ERR_PARSE, 1,
     NULL},
    {"complex on line 3", "\r\n\r\n%%MatrixMarket matrix coordinate complex general\r\n1 1 0\r\n",
     CSR_ERR_UNSUPPORTED, 3, "complex|not supported"},
    {"symmetric 3 x 4", "%%MatrixMarket matrix coordinate real symmetric\n%\n3 4 0\n",
     CSR_ERR_PARSE, 3, NULL},
    {"skew array 2 x 3", "%%MatrixMarket matrix array real skew-symmetric\n2 3\n1\n", CSR_ERR_PARSE,
     2, NULL},
    {"no size line", BANNER "% comment\n%\n\n", CSR_ERR_PARSE, 4, NULL},
    {"no size line, no final newline", BANNER "% comment", CSR_ERR_PARSE, 2, NULL},
    {"size line: 2 of 3", BANNER "%\n3 3\n", CSR_ERR_PARSE, 3, NULL},
    {"size line: 4 of 3", BANNER "%\n3 3 3 3\n", CSR_ERR_PARSE, 3, NULL},
    {"size line: not a number", BANNER "%\n3 x 3\n", CSR_ERR_PARSE, 3, NULL},
    {"size line: negative", BANNER "%\n3 3 -1\n", CSR_ERR_PARSE, 3, NULL},
    {"size line: array 1 of 2", "%%MatrixMarket matrix array real general\n%\n3\n", CSR_ERR_PARSE,
     3, NULL},
    {"size line: vector 1 of 2", "%%MatrixMarket vector coordinate real general\n%\n3\n",
     CSR_ERR_PARSE, 3, NULL},
    {"rows past 2^31 - 1", BANNER "%\n2147483648 3 0\n", CSR_ERR_OVERFLOW, 3, "2147483647"},
    {"columns past 2^31 - 1", BANNER "%\n3 2147483648 0\n", CSR_ERR_OVERFLOW, 3, "2147483647"},
    {"rows past int64", BANNER "%\n99999999999999999999 3 0\n", CSR_ERR_OVERFLOW, 3, "2147483647"},
    {"array 2^62 entries declared",
     "%%MatrixMarket matrix array real general\n2000000000 "
     "2000000000\n1.0\n",
     CSR_ERR_PARSE, 3, "expected 4000000000000000000 entries|found 1"},
    /* The declared count must not be allocated up front (16 TB here). */
    {"declared 999999999999, given 1", BANNER "1 1 999999999999\n1 1 1\n", CSR_ERR_PARSE, 3,
     "expected 999999999999 entries|found 1"},
    {"vector declared 10^15, given 2",
     "%%MatrixMarket vector coordinate real general\n5 1000000000000000\n1 1\n2 2\n", CSR_ERR_PARSE,
     4, "expected 1000000000000000 entries|found 2"},
};

static void test_errors(void) {
  csr_read_options o = options(0);
  for (int i = 0; i < (int)(sizeof bad_cases / sizeof bad_cases[0]); i++) {
    const bad_case *c = &bad_cases[i];
    expect_refusal(c->what, c->text, strlen(c->text), "bad.mtx", &o, c->status, c->line, c->words,
                   1);
  }
  /* From a file too: the message names the path. */
  const char *path = temp_file("bad_file.mtx", H "1 1 abc\n", sizeof(H "1 1 abc\n") - 1);
  csr_coo *T = NULL;
  CHECKF(csr_read_coo(ctx_ref, path, NULL, &T, NULL) == CSR_ERR_PARSE && T == NULL,
         "file with a bad value: %s", csr_context_last_error(ctx_ref));
  char at[300];
  snprintf(at, sizeof at, "%s:7:", path);
  CHECKF(strstr(csr_context_last_error(ctx_ref), at) != NULL, "no '%s' in %s", at,
         csr_context_last_error(ctx_ref));
  /* Input that cannot be read: CSR_ERR_IO naming the path. */
  char missing[300], dir[300];
  snprintf(missing, sizeof missing, "%s/does-not-exist.mtx", tmpdir);
  snprintf(dir, sizeof dir, "%s/", tmpdir);
  const char *io_paths[] = {missing, dir};
  /* An empty device: an empty file. */
  CHECKF(csr_read_coo(ctx_ref, "/dev/null", NULL, &T, NULL) == CSR_ERR_PARSE && T == NULL &&
             strstr(csr_context_last_error(ctx_ref), "/dev/null"),
         "/dev/null: %s", csr_context_last_error(ctx_ref));
  for (int i = 0; i < 2; i++) {
    csr_status s = csr_read_coo(ctx_ref, io_paths[i], NULL, &T, NULL);
    CHECKF(s == CSR_ERR_IO && T == NULL && strstr(csr_context_last_error(ctx_ref), io_paths[i]),
           "%s: %s (%s)", io_paths[i], csr_status_string(s), csr_context_last_error(ctx_ref));
  }
}

/* --- the earliest of two errors, small blocks and > 2 MB parallel pieces ---------------------- */

/* A 1000 x 1000 general file of n entries (line 4 + k holds entry k, k = 0..n-1); the entries
 * at lines bad1 and bad2 (0: none) are replaced by what1 / what2. */
static text big_text(int64_t n, int64_t bad1, const char *what1, int64_t bad2, const char *what2) {
  text t = {0};
  add(&t, "%%%%MatrixMarket matrix coordinate real general\n%% %lld entries\n1000 1000 %lld\n",
      (long long)n, (long long)n);
  for (int64_t k = 0; k < n; k++) {
    int64_t line = 4 + k;
    if (line == bad1)
      add(&t, "%s\n", what1);
    else if (line == bad2)
      add(&t, "%s\n", what2);
    else
      add(&t, "%lld %lld %.17g\n", (long long)(k * 7919 % 1000 + 1), (long long)(k % 1000 + 1),
          (double)k / 7.0 - 1000.0);
  }
  return t;
}

static void test_earliest_error(void) {
  static const char *const kinds[][2] = {
      {"5 5 x", "1001 1 1"},    /* parse, then index */
      {"5 5 1e999", "5 5 bad"}, /* overflow, then parse */
      {"5 0 1", "5 5 1e999"},   /* index, then overflow */
      {"5 5 1 1", "5 5 1 1"},   /* the same error twice */
  };
  static const csr_status first_status[] = {CSR_ERR_PARSE, CSR_ERR_OVERFLOW, CSR_ERR_PARSE,
                                            CSR_ERR_PARSE};
  csr_read_options o = options(0);
  char what[200];
  for (int k = 0; k < 4; k++) {
    /* Small: 300 entries, errors on lines 50 and 280, every tiny block size. */
    text t = big_text(300, 50, kinds[k][0], 280, kinds[k][1]);
    snprintf(what, sizeof what, "errors '%s' (line 50) and '%s' (line 280)", kinds[k][0],
             kinds[k][1]);
    expect_refusal(what, t.s, t.n, "two.mtx", &o, first_status[k], 50, NULL, 1);
    text_free(&t);
    /* Large: 200000 entries (> 5 MB), errors far apart and close together, default block (one
     * block cut into parallel pieces on omp) and 1 MB + 3 blocks (several blocks, each cut). */
    static const int64_t at[][2] = {{120000, 190000}, {190000, 190001}, {5, 199990}};
    for (int a = 0; a < 3; a++) {
      t = big_text(200000, at[a][0], kinds[k][0], at[a][1], kinds[k][1]);
      CHECKF(t.n > (size_t)2 << 20, "the large text has %zu bytes", t.n);
      for (int b = 0; b < 4; b++) {
        csr_context *ctx = b < 2 ? ctx_ref : ctx_omp;
        if (ctx == NULL)
          continue;
        csr_read_options ob = options(b % 2 ? ((size_t)1 << 20) + 3 : 0);
        csr_coo *T = NULL;
        csr_status s = csr_read_coo_buffer(ctx, t.s, t.n, "large.mtx", &ob, &T, NULL);
        char want[64];
        snprintf(want, sizeof want, "large.mtx:%lld:", (long long)at[a][0]);
        CHECKF(s == first_status[k] && strstr(csr_context_last_error(ctx), want),
               "large, '%s' on line %lld and '%s' on line %lld (%s, block %zu): %s (%s)",
               kinds[k][0], (long long)at[a][0], kinds[k][1], (long long)at[a][1],
               csr_backend_name(csr_context_backend(ctx)), ob.block_bytes, csr_status_string(s),
               csr_context_last_error(ctx));
        csr_coo_free(&T);
      }
      text_free(&t);
    }
  }
  /* More entries than declared in the last piece, a bad value in the first. */
  text t = big_text(200000, 10, "1 1 nope", 0, "");
  add(&t, "1 1 1\n");
  for (int b = 0; b < 2; b++) {
    csr_context *ctx = b ? ctx_omp : ctx_ref;
    csr_coo *T = NULL;
    if (ctx)
      CHECKF(csr_read_coo_buffer(ctx, t.s, t.n, "large.mtx", NULL, &T, NULL) == CSR_ERR_PARSE &&
                 strstr(csr_context_last_error(ctx), "large.mtx:10:"),
             "bad value on line 10, one entry too many at the end: %s",
             csr_context_last_error(ctx));
    csr_coo_free(&T);
  }
  text_free(&t);
}

/* Large valid texts (> 2 MB: parallel pieces; > 100000 entries: parallel expansion) against the
 * oracle on both backends and two block sizes. */
static void check_large(const char *what, const text *t, const char *name) {
  mmo_result r;
  mmo_parse_mm(t->s, t->n, 0, &r);
  CHECKF(r.status == CSR_SUCCESS, "%s: the oracle refuses it (line %lld)", what,
         (long long)r.error_line);
  char why[600];
  for (int b = 0; b < 4 && r.status == CSR_SUCCESS; b++) {
    csr_context *ctx = b < 2 ? ctx_ref : ctx_omp;
    if (ctx == NULL)
      continue;
    csr_read_options o = options(b % 2 ? ((size_t)1 << 20) + 3 : 0);
    csr_coo *T = NULL;
    csr_status s = csr_read_coo_buffer(ctx, t->s, t->n, name, &o, &T, NULL);
    CHECKF(s == CSR_SUCCESS && mmo_coo_matches(T, &r, why, sizeof why), "%s (%s, block %zu): %s %s",
           what, csr_backend_name(csr_context_backend(ctx)), o.block_bytes,
           s == CSR_SUCCESS ? why : csr_status_string(s), csr_context_last_error(ctx));
    csr_coo_free(&T);
  }
  mmo_free(&r);
}

static void test_large_valid(void) {
  text t = big_text(200000, 0, "", 0, "");
  check_large("large general", &t, "large.mtx");
  /* From a file (mapped and sliced), gzip, a pipe and a named pipe (read()). */
  mmo_result r;
  mmo_parse_mm(t.s, t.n, 0, &r);
  char why[600];
  for (int ch = 0; ch < CHANNELS; ch++)
    for (int b = 0; b < 4; b++) {
      csr_context *ctx = b < 2 ? ctx_ref : ctx_omp;
      if (ctx == NULL || ch == VIA_STDIN)
        continue;
      csr_read_options o = options(b % 2 ? ((size_t)1 << 20) + 3 : 0);
      csr_coo *T = NULL;
      csr_status s = read_via((channel)ch, ctx, t.s, t.n, &o, &T, NULL);
      CHECKF(s == CSR_SUCCESS && mmo_coo_matches(T, &r, why, sizeof why),
             "large general, %s (%s, block %zu): %s %s", channel_names[ch],
             csr_backend_name(csr_context_backend(ctx)), o.block_bytes,
             s == CSR_SUCCESS ? why : csr_status_string(s), csr_context_last_error(ctx));
      csr_coo_free(&T);
    }
  mmo_free(&r);
  /* The same with CRLF and with bare CR line endings. */
  for (int cr = 0; cr < 2; cr++) {
    text u = {0};
    for (size_t i = 0; i < t.n; i++)
      if (t.s[i] == '\n')
        add_bytes(&u, cr ? "\r" : "\r\n", cr ? 1 : 2);
      else
        add_bytes(&u, &t.s[i], 1);
    check_large(cr ? "large, bare CR" : "large, CRLF", &u, "large.mtx");
    text_free(&u);
  }
  text_free(&t);
  /* Symmetric, 250000 stored entries of both triangles and the diagonal. */
  add(&t, "%%%%MatrixMarket matrix coordinate real symmetric\n5000 5000 250000\n");
  for (int64_t k = 0; k < 250000; k++)
    add(&t, "%lld %lld %.17g\n", (long long)(k * 7919 % 5000 + 1), (long long)(k % 5000 + 1),
        (double)k * 0.37 - 5e4);
  check_large("large symmetric", &t, "sym.mtx");
  text_free(&t);
  add(&t, "%%%%MatrixMarket matrix coordinate real skew-symmetric\n5000 5000 250000\n");
  for (int64_t k = 0; k < 250000; k++) {
    int64_t i = k * 7919 % 5000 + 1, j = k % 5000 + 1;
    add(&t, "%lld %lld %.17g\n", (long long)i, (long long)(i == j ? j % 5000 + 1 : j),
        (double)k * 0.37 - 5e4);
  }
  check_large("large skew", &t, "skew.mtx");
  text_free(&t);
  /* Arrays: pieces start inside columns (the piece's first position comes from its first
   * entry number). */
  static const char *const kinds[] = {"general", "symmetric", "skew-symmetric"};
  for (int s = 0; s < 3; s++) {
    int64_t n = 1100, count = s == 0 ? n * 700 : s == 1 ? n * (n + 1) / 2 : n * (n - 1) / 2;
    add(&t, "%%%%MatrixMarket matrix array real %s\n%lld %lld\n", kinds[s], (long long)n,
        (long long)(s == 0 ? 700 : n));
    for (int64_t k = 0; k < count; k++)
      add(&t, "%.17g\n", (double)(k % 9973) * 0.25 + 1);
    char what[64];
    snprintf(what, sizeof what, "large %s array", kinds[s]);
    check_large(what, &t, "array.mtx");
    text_free(&t);
  }
}

/* --- gzip, bzip2 ------------------------------------------------------------------------------ */

static void expect_file(const char *what, const char *path, const csr_read_options *base,
                        const triples *want, int gzip) {
  static const size_t blocks[] = {0, 16, 17, 31, 64, 4096};
  char why[600];
  for (int b = 0; b < 12; b++) {
    csr_context *ctx = b < 6 ? ctx_ref : ctx_omp;
    if (ctx == NULL)
      continue;
    csr_read_options o = *base;
    o.block_bytes = blocks[b % 6];
    csr_coo *T = NULL;
    csr_file_info info;
    memset(&info, 0, sizeof info);
    csr_status s = csr_read_coo(ctx, path, &o, &T, &info);
    CHECKF(s == CSR_SUCCESS && coo_is(T, want, why, sizeof why) && info.gzip == gzip,
           "%s (%s, block %zu): %s %s, gzip %d", what, csr_backend_name(csr_context_backend(ctx)),
           o.block_bytes, s == CSR_SUCCESS ? why : csr_status_string(s),
           csr_context_last_error(ctx), info.gzip);
    csr_coo_free(&T);
  }
}

static void expect_file_refused(const char *what, const char *path, csr_status status,
                                const char *words) {
  static const size_t blocks[] = {0, 16, 4096};
  for (int b = 0; b < 6; b++) {
    csr_context *ctx = b < 3 ? ctx_ref : ctx_omp;
    if (ctx == NULL)
      continue;
    csr_read_options o = options(blocks[b % 3]);
    csr_coo *T = NULL;
    csr_status s = csr_read_coo(ctx, path, &o, &T, NULL);
    const char *message = csr_context_last_error(ctx);
    CHECKF(s == status && T == NULL && strstr(message, path) && holds_words(message, words),
           "%s (%s, block %zu): %s, expected %s, message '%s'", what,
           csr_backend_name(csr_context_backend(ctx)), o.block_bytes, csr_status_string(s),
           csr_status_string(status), message);
    csr_coo_free(&T);
  }
}

static void test_gzip(void) {
  text t = join(base_lines, 9, (const char *const[]){"\n"}, 1, 1);
  csr_read_options o = options(0);
  expect_file("gzip", temp_gzip("g.mtx.gz", t.s, t.n, 1), &o, &base_want, 1);
  expect_file("gzip, two members", temp_gzip("g2.mtx.gz", t.s, t.n, 2), &o, &base_want, 1);
  expect_file("gzip, five members", temp_gzip("g5.mtx.gz", t.s, t.n, 5), &o, &base_want, 1);
  expect_file("gzip recognised by its bytes, not its name", temp_gzip("g.mtx", t.s, t.n, 1), &o,
              &base_want, 1);
  /* From memory. */
  size_t size = 0;
  char *gz = file_bytes(temp_gzip("m.mtx.gz", t.s, t.n, 2), &size);
  expect_text("gzip in a buffer, two members", gz, size, "m.mtx.gz", &o, &base_want, -1);
  /* Truncated: the trailer missing, or half the stream; corrupt: bytes changed. */
  const char *path = temp_file("cut.mtx.gz", gz, size - 4);
  expect_file_refused("gzip without its trailer", path, CSR_ERR_IO, NULL);
  path = temp_file("half.mtx.gz", gz, size / 2);
  expect_file_refused("gzip cut in half", path, CSR_ERR_IO, NULL);
  for (size_t i = 12; i + 10 < size; i++)
    gz[i] = (char)(gz[i] ^ 0x5A);
  path = temp_file("corrupt.mtx.gz", gz, size);
  expect_file_refused("corrupt gzip", path, CSR_ERR_IO, NULL);
  free(gz);
  /* Large, two members, truncated in the middle. */
  text big = big_text(200000, 0, "", 0, "");
  path = temp_gzip("big.mtx.gz", big.s, big.n, 2);
  mmo_result r;
  mmo_parse_mm(big.s, big.n, 0, &r);
  char why[600];
  for (int b = 0; b < 4; b++) {
    csr_context *ctx = b < 2 ? ctx_ref : ctx_omp;
    if (ctx == NULL)
      continue;
    csr_read_options ob = options(b % 2 ? 4096 : 0);
    csr_coo *T = NULL;
    csr_status s = csr_read_coo(ctx, path, &ob, &T, NULL);
    CHECKF(s == CSR_SUCCESS && mmo_coo_matches(T, &r, why, sizeof why), "large gzip (%s): %s %s",
           csr_backend_name(csr_context_backend(ctx)), s == 0 ? why : csr_status_string(s),
           csr_context_last_error(ctx));
    csr_coo_free(&T);
  }
  mmo_free(&r);
  gz = file_bytes(path, &size);
  path = temp_file("bigcut.mtx.gz", gz, size / 3);
  expect_file_refused("large gzip cut at a third", path, CSR_ERR_IO, NULL);
  free(gz);
  /* A refusal early in a large stream: the inflating thread is stopped midway (no hang), and
   * a pipe's writer is left with nobody reading. */
  text early = big_text(200000, 10, "1 1 early", 0, ""), complex = {0};
  add(&complex, "%%%%MatrixMarket matrix coordinate complex general\n");
  add_bytes(&complex, early.s + 46, early.n - 46); /* the rest after the real banner */
  const char *early_gz = temp_gzip("early.mtx.gz", early.s, early.n, 1);
  const char *complex_gz = temp_gzip("complex.mtx.gz", complex.s, complex.n, 1);
  for (int b = 0; b < 4; b++) {
    csr_context *ctx = b < 2 ? ctx_ref : ctx_omp;
    if (ctx == NULL)
      continue;
    csr_read_options ob = options(b % 2 ? 16 : 0);
    csr_coo *T = NULL;
    csr_status s = csr_read_coo(ctx, early_gz, &ob, &T, NULL);
    CHECKF(s == CSR_ERR_PARSE && strstr(csr_context_last_error(ctx), ".mtx.gz:10:"),
           "large gzip, bad value on line 10 (block %zu): %s (%s)", ob.block_bytes,
           csr_status_string(s), csr_context_last_error(ctx));
    s = csr_read_coo(ctx, complex_gz, &ob, &T, NULL);
    CHECKF(s == CSR_ERR_UNSUPPORTED && strstr(csr_context_last_error(ctx), ".mtx.gz:1:"),
           "large gzip, complex banner (block %zu): %s (%s)", ob.block_bytes, csr_status_string(s),
           csr_context_last_error(ctx));
    s = read_via(VIA_PIPE, ctx, early.s, early.n, &ob, &T, NULL);
    CHECKF(s == CSR_ERR_PARSE && strstr(csr_context_last_error(ctx), ":10:"),
           "large pipe, bad value on line 10 (block %zu): %s (%s)", ob.block_bytes,
           csr_status_string(s), csr_context_last_error(ctx));
    csr_coo_free(&T);
  }
  text_free(&early);
  text_free(&complex);
  text_free(&big);
  /* bzip2 (and the others gzip is not) are refused as unsupported compression. */
  static const char bz2[] = "BZh91AY&SY\x01\x02\x03\x04 not really bzip2";
  path = temp_file("b.mtx.bz2", bz2, sizeof bz2 - 1);
  expect_file_refused("bzip2", path, CSR_ERR_UNSUPPORTED, "bzip2|not supported");
  path = temp_file("b.mtx", bz2, sizeof bz2 - 1);
  expect_file_refused("bzip2 named .mtx", path, CSR_ERR_UNSUPPORTED, "bzip2|not supported");
  expect_refusal("bzip2 in a buffer", bz2, sizeof bz2 - 1, "b.bz2", &o, CSR_ERR_UNSUPPORTED, 0,
                 "bzip2|not supported", -1);
  text_free(&t);
}

/* --- standard input --------------------------------------------------------------------------- */

static void test_stdin(void) {
  text t = join(base_lines, 9, (const char *const[]){"\r\n"}, 1, 0);
  const char *paths[] = {temp_file("in.mtx", t.s, t.n), temp_gzip("in.mtx.gz", t.s, t.n, 2)};
  char why[600];
  for (int p = 0; p < 2; p++)
    for (int b = 0; b < 4; b++) {
      csr_context *ctx = b < 2 ? ctx_ref : ctx_omp;
      if (ctx == NULL)
        continue;
      csr_read_options o = options(b % 2 ? 16 : 0);
      csr_coo *T = NULL;
      csr_file_info info;
      memset(&info, 0, sizeof info);
      csr_status s = read_stdin(ctx, paths[p], &o, &T, &info);
      CHECKF(s == CSR_SUCCESS && coo_is(T, &base_want, why, sizeof why) && info.gzip == p,
             "standard input%s (block %zu): %s %s", p ? ", gzip" : "", o.block_bytes,
             s == 0 ? why : csr_status_string(s), csr_context_last_error(ctx));
      csr_coo_free(&T);
    }
  /* A refusal on standard input names the line. */
  const char *path = temp_file("in_bad.mtx", H "1 1 abc\n", sizeof(H "1 1 abc\n") - 1);
  csr_coo *T = NULL;
  csr_status s = read_stdin(ctx_ref, path, NULL, &T, NULL);
  CHECKF(s == CSR_ERR_PARSE && T == NULL && strstr(csr_context_last_error(ctx_ref), ":7:") &&
             strstr(csr_context_last_error(ctx_ref), "stdin"),
         "standard input, bad value on line 7: %s (%s)", csr_status_string(s),
         csr_context_last_error(ctx_ref));
  /* An edge list on standard input: told by its content, or chosen by options.format. */
  static const char edges[] = "# g\n0 1\n2 0\n";
  static const int er[] = {0, 2}, ec[] = {1, 0};
  static const triples et = {3, 3, 2, er, ec, NULL};
  path = temp_file("in_edges", edges, sizeof edges - 1);
  csr_read_options o = options(0);
  for (int forced = 0; forced < 2; forced++) {
    o.format = forced ? CSR_FORMAT_EDGE_LIST : CSR_FORMAT_AUTO;
    csr_file_info info;
    s = read_stdin(ctx_ref, path, &o, &T, &info);
    CHECKF(s == CSR_SUCCESS && coo_is(T, &et, why, sizeof why) &&
               info.format == CSR_FORMAT_EDGE_LIST,
           "edge list on standard input (format %d): %s %s", (int)o.format,
           s == 0 ? why : csr_status_string(s), csr_context_last_error(ctx_ref));
    csr_coo_free(&T);
  }
  text_free(&t);
}

/* --- edge lists ------------------------------------------------------------------------------- */

static void test_edge_lists(void) {
  static const char plain[] = "# Directed graph\n# Nodes: 8 Edges: 5\n"
                              "0\t1\n1 2\n\n# a comment\n% another\n7 0\n2  2\n  3\t5\n";
  static const int pr[] = {0, 1, 7, 2, 3}, pc[] = {1, 2, 0, 2, 5};
  static const triples pt = {8, 8, 5, pr, pc, NULL};
  csr_read_options o = options(0);
  const char *names[] = {"g.txt", "g.el", "g.edges", "dir.d/g.txt"};
  for (int i = 0; i < 4; i++)
    expect_text(names[i], plain, sizeof plain - 1, names[i], &o, &pt, 0);
  csr_read_options forced = o;
  forced.format = CSR_FORMAT_EDGE_LIST;
  expect_text("options.format = EDGE_LIST on g.mtx", plain, sizeof plain - 1, "g.mtx", &forced, &pt,
              0);
  /* The other way round: a .txt name read as Matrix Market when asked. */
  text t = join(base_lines, 9, (const char *const[]){"\n"}, 1, 1);
  csr_read_options mm = o;
  mm.format = CSR_FORMAT_MATRIX_MARKET;
  expect_text("options.format = MATRIX_MARKET on m.txt", t.s, t.n, "m.txt", &mm, &base_want, 1);
  /* The content decides first: a Matrix Market file under an edge list's name, or a name that
   * says nothing, is read as Matrix Market (the name would make its size line an edge); an edge
   * list under a name that says nothing is an edge list. */
  const char *mm_names[] = {"bus.txt", "bus.el", "bus.edges", "bus.dat", "bus", ""};
  for (int i = 0; i < 6; i++) {
    char what[80];
    snprintf(what, sizeof what, "Matrix Market content named '%s'", mm_names[i]);
    expect_text(what, t.s, t.n, mm_names[i], &o, &base_want, 1);
  }
  expect_text("edge list content named g.dat", plain, sizeof plain - 1, "g.dat", &o, &pt, 0);
  expect_text("edge list content, no name", plain, sizeof plain - 1, "", &o, &pt, 0);
  static const char spaced[] = "\n  \r\n \t%%matrixmarket matrix coordinate pattern general\n"
                               "2 2 1\n1 2\n";
  static const int sr[] = {0}, sc[] = {1};
  static const triples st = {2, 2, 1, sr, sc, NULL};
  expect_text("banner after blank lines, any case, named .txt", spaced, sizeof spaced - 1, "s.txt",
              &o, &st, 1);
  csr_file_info as_mm;
  csr_coo *M = NULL;
  CHECKF(csr_read_coo_buffer(ctx_ref, t.s, t.n, "m.txt", NULL, &M, &as_mm) == CSR_SUCCESS &&
             as_mm.format == CSR_FORMAT_MATRIX_MARKET && as_mm.rows == 4 && as_mm.cols == 5,
         "m.txt holding Matrix Market: info.format %d, %lld x %lld", (int)as_mm.format,
         (long long)as_mm.rows, (long long)as_mm.cols);
  csr_coo_free(&M);
  /* Refused where name (or the format asked for) and content disagree in a way that would change
   * the result: the banner under a forced edge-list read; an edge list named .mtx or .mm. */
  expect_refusal("banner, read as an edge list when asked", t.s, t.n, "m.txt", &forced,
                 CSR_ERR_PARSE, 1, "Matrix Market banner|edge list", -1);
  expect_refusal("banner on line 3, read as an edge list", spaced, sizeof spaced - 1, "s.el",
                 &forced, CSR_ERR_PARSE, 3, "Matrix Market banner", -1);
  expect_refusal("edge list named .mtx", plain, sizeof plain - 1, "g.mtx", &o, CSR_ERR_PARSE, 1,
                 "banner", -1);
  expect_refusal("edge list named .mm.gz", plain, sizeof plain - 1, "g.mm.gz", &o, CSR_ERR_PARSE, 1,
                 "banner", -1);
  /* Nothing to tell the format by: refused as an empty file, not read as an empty graph. */
  expect_refusal("empty, no name", "\n \n", 3, "", &o, CSR_ERR_PARSE, 0, "empty file", -1);
  /* By extension from files (.txt, .el, .edges, .txt.gz), with info. */
  const char *files[] = {"f.txt", "f.el", "f.edges"};
  for (int i = 0; i < 3; i++)
    expect_file(files[i], temp_file(files[i], plain, sizeof plain - 1), &o, &pt, 0);
  expect_file("f.txt.gz", temp_gzip("f.txt.gz", plain, sizeof plain - 1, 2), &o, &pt, 1);
  /* The content of a compressed file decides too, and so does standard input's (below). */
  expect_file("Matrix Market in m.txt.gz", temp_gzip("m.txt.gz", t.s, t.n, 2), &o, &base_want, 1);
  expect_file("Matrix Market in m.edges", temp_file("m.edges", t.s, t.n), &o, &base_want, 0);
  csr_file_info info;
  csr_coo *T = NULL;
  memset(&info, 0, sizeof info);
  CHECKF(csr_read_coo(ctx_ref, temp_file("i.edges", plain, sizeof plain - 1), NULL, &T, &info) ==
                 0 &&
             info.format == CSR_FORMAT_EDGE_LIST && info.field == CSR_MM_PATTERN &&
             info.rows == 8 && info.cols == 8 && info.entries == 5 && info.stored_entries == 5,
         "edge list info: format %d field %d %lld x %lld, %lld entries", (int)info.format,
         (int)info.field, (long long)info.rows, (long long)info.cols, (long long)info.entries);
  csr_coo_free(&T);
  /* Weighted (3 columns), CRLF and CR, F32. */
  static const char weighted[] = "# w\r\n0 1 0.5\r\n3 0 -1.5e3\r\n\r\n1 1 0\r\n";
  static const int wr[] = {0, 3, 1}, wc[] = {1, 0, 1};
  static const double wv[] = {0.5, -1.5e3, 0};
  static const triples wt = {4, 4, 3, wr, wc, wv};
  expect_text("weighted, CRLF", weighted, sizeof weighted - 1, "w.txt", &o, &wt, 0);
  static const char weighted_cr[] = "# w\r0 1 0.5\r3 0 -1.5e3\r\r1 1 0";
  expect_text("weighted, CR, no final newline", weighted_cr, sizeof weighted_cr - 1, "w.txt", &o,
              &wt, 0);
  csr_read_options f32 = o;
  f32.value_type = CSR_F32;
  expect_text("weighted, F32", weighted, sizeof weighted - 1, "w.txt", &f32, &wt, 0);
  memset(&info, 0, sizeof info);
  CHECKF(csr_read_coo_buffer(ctx_ref, weighted, sizeof weighted - 1, "w.txt", NULL, &T, &info) ==
                 0 &&
             info.field == CSR_MM_REAL,
         "weighted edge list: field %d", (int)info.field);
  csr_coo_free(&T);
  /* Comments only: an empty graph. */
  static const char nothing[] = "# nothing\n\n# at all\n";
  static const triples empty = {0, 0, 0, NULL, NULL, NULL};
  expect_text("comments only", nothing, sizeof nothing - 1, "n.txt", &o, &empty, 0);
  /* Errors, with their lines. */
  static const struct {
    const char *what, *text;
    csr_status status;
    int line;
  } bad[] = {
      {"3 columns after 2", "# c\n0 1\n1 2\n2 3 0.5\n", CSR_ERR_PARSE, 4},
      {"2 columns after 3", "# c\n0 1 1\n1 2 1\n2 3\n", CSR_ERR_PARSE, 4},
      {"4 columns", "# c\n0 1 1 1\n", CSR_ERR_PARSE, 2},
      {"1 column", "# c\n0 1\n5\n", CSR_ERR_PARSE, 3},
      {"1 column, the last line", "0 1\n3\n", CSR_ERR_PARSE, 2},
      {"1 column, the only line", "3\n", CSR_ERR_PARSE, 1},
      {"1 column, no newline", "0 1\n3", CSR_ERR_PARSE, 2},
      {"1 column, twice", "0 1\n2\n3\n", CSR_ERR_PARSE, 2},
      {"negative source", "# c\n0 1\n-1 2\n", CSR_ERR_PARSE, 3},
      {"negative target", "# c\n\n0 1\n1 -2\n", CSR_ERR_PARSE, 4},
      {"non-numeric id", "# c\n0 1\n1 b\n", CSR_ERR_PARSE, 3},
      {"non-numeric weight", "0 1 1\n1 2 w\n", CSR_ERR_PARSE, 2},
      {"weight beyond double", "0 1 1\n1 2 1e999\n", CSR_ERR_OVERFLOW, 2},
      {"id past 2^31 - 2", "0 1\n0 2147483647\n", CSR_ERR_OVERFLOW, 2},
      {"CRLF, inconsistent", "# c\r\n0 1\r\n1 2 3\r\n", CSR_ERR_PARSE, 3},
  };
  for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++)
    expect_refusal(bad[i].what, bad[i].text, strlen(bad[i].text), "bad.txt", &o, bad[i].status,
                   bad[i].line, NULL, 0);
  /* A line shorter than any edge ("0 1") gets the line parser's message, not a bookkeeping one. */
  expect_refusal("1 column, the message", "0 1\n3\n", 6, "bad.txt", &o, CSR_ERR_PARSE, 2,
                 "expected a target node id", 0);
  /* Past the first block: the comment-only blocks before the first data line are counted. */
  text c = {0};
  for (int i = 0; i < 50; i++)
    add(&c, "# comment line %d\n", i);
  add(&c, "0 1\n1 2\n2 3 4\n");
  expect_refusal("inconsistent after 50 comment lines", c.s, c.n, "c.txt", &o, CSR_ERR_PARSE, 53,
                 NULL, 0);
  text_free(&c);
  /* nodes = max id + 1. */
  static const char far[] = "3 7\n0 1\n";
  static const int fr[] = {3, 0}, fc[] = {7, 1};
  static const triples ft = {8, 8, 2, fr, fc, NULL};
  expect_text("nodes = max id + 1", far, sizeof far - 1, "far.txt", &o, &ft, 0);
  text_free(&t);
}

/* --- keep_symmetry, F32, csr_read_csr --------------------------------------------------------- */

static void test_options(void) {
  static const char sym[] = "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n"
                            "2 1 2\n1 3 3\n3 3 4\n1 2 5\n";
  static const int kr[] = {1, 0, 2, 0}, kc[] = {0, 2, 2, 1};
  static const double kv[] = {2, 3, 4, 5};
  static const triples kept = {3, 3, 4, kr, kc, kv};
  csr_read_options o = options(0);
  o.keep_symmetry = 1;
  expect_text("keep_symmetry", sym, sizeof sym - 1, "k.mtx", &o, &kept, 1);
  csr_file_info info;
  csr_coo *T = NULL;
  memset(&info, 0, sizeof info);
  CHECKF(csr_read_coo_buffer(ctx_ref, sym, sizeof sym - 1, "k.mtx", &o, &T, &info) == 0 &&
             info.symmetry == CSR_MM_SYMMETRIC && info.stored_entries == 4 && info.entries == 4,
         "keep_symmetry info: symmetry %d, stored %lld, entries %lld", (int)info.symmetry,
         (long long)info.stored_entries, (long long)info.entries);
  csr_coo_free(&T);
  o.keep_symmetry = 0;
  memset(&info, 0, sizeof info);
  CHECKF(csr_read_coo_buffer(ctx_ref, sym, sizeof sym - 1, "k.mtx", &o, &T, &info) == 0 &&
             info.stored_entries == 4 && info.entries == 7 && T->nnz == 7,
         "expanded info: stored %lld, entries %lld", (long long)info.stored_entries,
         (long long)info.entries);
  csr_coo_free(&T);
  static const char skew[] = "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n"
                             "2 1 2\n1 3 3\n";
  static const triples skew_kept = {3, 3, 2, kr, kc, kv};
  o.keep_symmetry = 1;
  expect_text("keep_symmetry, skew", skew, sizeof skew - 1, "k.mtx", &o, &skew_kept, 1);

  /* F32: each value rounded to float; pattern files stay pattern. */
  static const char f[] = "%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n"
                          "1 1 0.1\n2 1 3.4028234663852886e38\n2 2 1e-50\n";
  static const int fr[] = {0, 1, 1, 0}, fc[] = {0, 0, 1, 1};
  static const double fv[] = {0.1, 3.4028234663852886e38, 1e-50, 3.4028234663852886e38};
  static const triples ft = {2, 2, 4, fr, fc, fv};
  csr_read_options f32 = options(0);
  f32.value_type = CSR_F32;
  expect_text("F32", f, sizeof f - 1, "f.mtx", &f32, &ft, 1);
  CHECKF(csr_read_coo_buffer(ctx_ref, f, sizeof f - 1, "f.mtx", &f32, &T, NULL) == 0 &&
             T->value_type == CSR_F32,
         "F32: value type %d", T ? (int)T->value_type : -1);
  csr_coo_free(&T);
  static const char p[] = "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 1\n";
  CHECKF(csr_read_coo_buffer(ctx_ref, p, sizeof p - 1, "p.mtx", &f32, &T, NULL) == 0 &&
             T->value_type == CSR_PATTERN && T->values == NULL,
         "pattern with F32 asked: value type %d", T ? (int)T->value_type : -1);
  csr_coo_free(&T);
  /* Options out of range. */
  csr_read_options bad = options(0);
  bad.value_type = CSR_PATTERN;
  CHECK_STATUS(ctx_ref, csr_read_coo_buffer(ctx_ref, p, sizeof p - 1, "p.mtx", &bad, &T, NULL),
               CSR_ERR_INVALID_VALUE);
  bad = options(0);
  bad.format = (csr_file_format)7;
  CHECK_STATUS(ctx_ref, csr_read_coo_buffer(ctx_ref, p, sizeof p - 1, "p.mtx", &bad, &T, NULL),
               CSR_ERR_INVALID_VALUE);
  CHECK(T == NULL);

  /* csr_read_csr: sorted, duplicates summed in file order, explicit zeros kept. */
  static const char dup[] = "%%MatrixMarket matrix coordinate real general\n3 3 7\n"
                            "1 1 1\n2 1 3\n1 1 2\n3 3 0\n1 1 4\n2 2 0.5\n2 2 -0.5\n";
  const char *path = temp_file("dup.mtx", dup, sizeof dup - 1);
  csr_matrix *A = NULL;
  CHECK_OK(ctx_ref, csr_read_csr(ctx_ref, path, NULL, &A, NULL));
  static const int64_t want_off[] = {0, 1, 3, 4};
  static const int32_t want_col[] = {0, 0, 1, 2};
  static const double want_val[] = {7, 3, 0, 0};
  if (A) {
    CHECK(A->rows == 3 && A->cols == 3 && A->nnz == 4 && A->value_type == CSR_F64);
    CHECK(A->nnz == 4 && memcmp(A->row_offsets, want_off, sizeof want_off) == 0 &&
          memcmp(A->col_indices, want_col, sizeof want_col) == 0 &&
          memcmp(A->values, want_val, sizeof want_val) == 0);
    CHECK((A->flags & (CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES)) ==
          (CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES));
    CHECK_OK(ctx_ref, csr_matrix_validate(ctx_ref, A));
  }
  csr_matrix_free(&A);
  path = temp_file("sym.mtx", sym, sizeof sym - 1);
  CHECK_OK(ctx_ref, csr_read_csr(ctx_ref, path, NULL, &A, NULL));
  if (A) { /* [0 5+2 3; 2+5 0 0; 3 0 4], summed in the order of the expanded triples */
    static const int64_t off[] = {0, 2, 3, 5};
    static const int32_t col[] = {1, 2, 0, 0, 2};
    static const double val[] = {7, 3, 7, 3, 4};
    CHECK(A->nnz == 5 && memcmp(A->row_offsets, off, sizeof off) == 0 &&
          memcmp(A->col_indices, col, sizeof col) == 0 && memcmp(A->values, val, sizeof val) == 0);
  }
  csr_matrix_free(&A);
  /* Pattern: duplicates merged. */
  static const char pdup[] = "%%MatrixMarket matrix coordinate pattern general\n2 2 4\n"
                             "1 1\n2 2\n1 1\n2 1\n";
  path = temp_file("pdup.mtx", pdup, sizeof pdup - 1);
  CHECK_OK(ctx_ref, csr_read_csr(ctx_ref, path, NULL, &A, NULL));
  if (A) {
    static const int64_t off[] = {0, 1, 3};
    static const int32_t col[] = {0, 0, 1};
    CHECK(A->value_type == CSR_PATTERN && A->values == NULL && A->nnz == 3 &&
          memcmp(A->row_offsets, off, sizeof off) == 0 &&
          memcmp(A->col_indices, col, sizeof col) == 0);
  }
  csr_matrix_free(&A);
  path = temp_file("bad_csr.mtx", H "1 9 1\n", sizeof(H "1 9 1\n") - 1);
  CHECK_STATUS(ctx_ref, csr_read_csr(ctx_ref, path, NULL, &A, NULL), CSR_ERR_PARSE);
  CHECK(A == NULL);
}

/* --- NULL arguments, huge sizes, long lines --------------------------------------------------- */

static void test_arguments(void) {
  text t = join(base_lines, 9, (const char *const[]){"\n"}, 1, 1);
  const char *path = temp_file("args.mtx", t.s, t.n);
  csr_coo *T = (csr_coo *)&t; /* not NULL: the calls must set it NULL */
  CHECK_STATUS(ctx_ref, csr_read_coo(ctx_ref, NULL, NULL, &T, NULL), CSR_ERR_NULL_POINTER);
  CHECK(T == NULL);
  CHECK_STATUS(ctx_ref, csr_read_coo(ctx_ref, path, NULL, NULL, NULL), CSR_ERR_NULL_POINTER);
  T = (csr_coo *)&t;
  CHECK_STATUS(ctx_ref, csr_read_coo_buffer(ctx_ref, NULL, 5, "x.mtx", NULL, &T, NULL),
               CSR_ERR_NULL_POINTER);
  CHECK(T == NULL);
  CHECK_STATUS(ctx_ref, csr_read_coo_buffer(ctx_ref, t.s, t.n, "x.mtx", NULL, NULL, NULL),
               CSR_ERR_NULL_POINTER);
  csr_matrix *A = (csr_matrix *)&t;
  CHECK_STATUS(ctx_ref, csr_read_csr(ctx_ref, NULL, NULL, &A, NULL), CSR_ERR_NULL_POINTER);
  CHECK(A == NULL);
  CHECK_STATUS(ctx_ref, csr_read_csr(ctx_ref, path, NULL, NULL, NULL), CSR_ERR_NULL_POINTER);
  csr_read_options_init(NULL);
  /* An empty buffer (data NULL, size 0) is an empty file; no name: still read. */
  CHECK_STATUS(ctx_ref, csr_read_coo_buffer(ctx_ref, NULL, 0, "none.mtx", NULL, &T, NULL),
               CSR_ERR_PARSE);
  CHECK(T == NULL);
  char why[600];
  CHECK_OK(ctx_ref, csr_read_coo_buffer(ctx_ref, t.s, t.n, NULL, NULL, &T, NULL));
  CHECKF(T && coo_is(T, &base_want, why, sizeof why), "no name: %s", why);
  csr_coo_free(&T);
  /* A NULL context: results, no detail. */
  CHECKF(csr_read_coo(NULL, path, NULL, &T, NULL) == 0 && coo_is(T, &base_want, why, sizeof why),
         "NULL context: %s", why);
  csr_coo_free(&T);
  CHECK(csr_read_coo_buffer(NULL, "x", 1, "x.mtx", NULL, &T, NULL) == CSR_ERR_PARSE && !T);
  CHECK(csr_read_csr(NULL, path, NULL, &A, NULL) == 0 && A && A->nnz == 6);
  csr_matrix_free(&A);
  text_free(&t);
}

/* Files made only of the shortest data line each layout allows ("v\n", "i\n", "i j\n",
 * "i j v\n", an edge "0 1\n"), with and without a final newline: a block parsed in one pass
 * reserves room from its size and the shortest line, so these fill that room exactly. */
static void test_shortest_lines(void) {
  static const struct {
    const char *name, *banner, *size, *line;
    int mm;
  } kinds[] = {
      {"a.mtx", "%%MatrixMarket matrix array real general\n", "3000 1\n", "%d\n", 1},
      {"v.mtx", "%%MatrixMarket vector coordinate pattern general\n", "9 3000\n", "%d\n", 1},
      {"p.mtx", "%%MatrixMarket matrix coordinate pattern general\n", "9 9 3000\n", "%d 1\n", 1},
      {"r.mtx", "%%MatrixMarket matrix coordinate real general\n", "9 9 3000\n", "%d 1 2\n", 1},
      {"e.el", "", "", "%d 1\n", 0},
  };
  csr_read_options o = options(0);
  for (int i = 0; i < (int)(sizeof kinds / sizeof kinds[0]); i++)
    for (int final_newline = 0; final_newline < 2; final_newline++) {
      text t = {0};
      add(&t, "%s%s", kinds[i].banner, kinds[i].size);
      for (int k = 0; k < 3000; k++)
        add(&t, kinds[i].line, 1 + k % 9 - !kinds[i].mm);
      t.n -= !final_newline;
      char what[96];
      snprintf(what, sizeof what, "shortest lines, %s, %s final newline", kinds[i].name,
               final_newline ? "with" : "no");
      expect_text(what, t.s, t.n, kinds[i].name, &o, NULL, kinds[i].mm);
      text_free(&t);
    }
}

static void test_huge(void) {
  /* The largest dimensions libcsr allows; the entries at their far corners. */
  static const char big[] = "%%MatrixMarket matrix coordinate real general\n"
                            "2147483647 2147483647 2\n2147483647 1 1\n1 2147483647 2\n";
  static const int br[] = {2147483646, 0}, bc[] = {0, 2147483646};
  static const double bv[] = {1, 2};
  static const triples bt = {CSR_MAX_DIM, CSR_MAX_DIM, 2, br, bc, bv};
  csr_read_options o = options(0);
  expect_text("2^31 - 1 x 2^31 - 1", big, sizeof big - 1, "big.mtx", &o, &bt, 1);
  /* A declared count far beyond the file: the error after the data, not an allocation of the
   * declared count (16 TB; 10^15 entries for the vector). Growing with the data: 10000 given. */
  text t = {0};
  add(&t, "%%%%MatrixMarket matrix coordinate pattern general\n100 100 999999999999\n");
  for (int k = 0; k < 10000; k++)
    add(&t, "%d %d\n", k % 100 + 1, k / 100 + 1);
  expect_refusal("declared 999999999999, given 10000", t.s, t.n, "many.mtx", &o, CSR_ERR_PARSE,
                 10002, "expected 999999999999 entries|found 10000", 1);
  text_free(&t);
}

static void test_long_lines(void) {
  /* Lines far longer than the block: a comment, a banner with wide gaps, blanks before a
   * value, and a 400-digit mantissa (exactly 1: 1 followed by 399 zeros, times 10^-399). */
  text t = {0};
  add(&t, "%%%%MatrixMarket");
  for (int i = 0; i < 300; i++)
    add(&t, " ");
  add(&t, "matrix coordinate real general\n%%");
  for (int i = 0; i < 20000; i++)
    add(&t, "x");
  add(&t, "\n2 2 2\n1 1 ");
  for (int i = 0; i < 3000; i++)
    add(&t, " ");
  add(&t, "1");
  for (int i = 0; i < 399; i++)
    add(&t, "0");
  add(&t, "e-399\n2 2 -2.5");
  for (int i = 0; i < 500; i++)
    add(&t, "\t");
  add(&t, "\n");
  static const int r[] = {0, 1}, c[] = {0, 1};
  static const double v[] = {1.0, -2.5};
  static const triples want = {2, 2, 2, r, c, v};
  csr_read_options o = options(16);
  expect_text("lines longer than the block", t.s, t.n, "long.mtx", &o, &want, 1);
  expect_file("long lines, gzip", temp_gzip("long.mtx.gz", t.s, t.n, 1), &o, &want, 1);
  text_free(&t);
  /* An error on the line after a long one keeps its number. */
  add(&t, "%%%%MatrixMarket matrix coordinate real general\n%%");
  for (int i = 0; i < 5000; i++)
    add(&t, "y");
  add(&t, "\n2 2 1\n1 1 bad\n");
  expect_refusal("error after a long line", t.s, t.n, "long.mtx", &o, CSR_ERR_PARSE, 4, NULL, 1);
  text_free(&t);
}

/* --- allocation failures ---------------------------------------------------------------------- */

typedef struct alloc_case {
  const char *what;
  const char *path;   /* read from this file, or ... */
  const text *buffer; /* ... from this buffer */
  int csr;            /* csr_read_csr instead of csr_read_coo */
} alloc_case;

static csr_status run_alloc_case(csr_context *ctx, const alloc_case *c, csr_coo **T,
                                 csr_matrix **A) {
  csr_read_options o = options(64);
  if (c->csr)
    return csr_read_csr(ctx, c->path, &o, A, NULL);
  if (c->buffer)
    return csr_read_coo_buffer(ctx, c->buffer->s, c->buffer->n, c->what, &o, T, NULL);
  return csr_read_coo(ctx, c->path, &o, T, NULL);
}

/* Fails allocation n = 1, 2, ... of a read (one more than a clean read makes). Each must give
 * CSR_ERR_OUT_OF_MEMORY, or success with the same result (a failed shrink may be ignored). */
static void test_allocation_failures(void) {
  text sym = {0}, small = join(base_lines, 9, (const char *const[]){"\n"}, 1, 1);
  add(&sym, "%%%%MatrixMarket matrix coordinate real symmetric\n%% c\n40 40 60\n");
  for (int k = 0; k < 60; k++)
    add(&sym, "%d %d %d.5\n", k % 40 + 1, (k * 7) % 40 + 1, k);
  static const char edges[] = "# e\n0 1 1\n2 3 4\n5 5 5\n";
  alloc_case cases[] = {
      {"plain file", temp_file("a.mtx", small.s, small.n), NULL, 0},
      {"gzip file", temp_gzip("a.mtx.gz", small.s, small.n, 2), NULL, 0},
      {"buffer", NULL, &small, 0},
      {"symmetric buffer", NULL, &sym, 0},
      {"edge list file", temp_file("a.txt", edges, sizeof edges - 1), NULL, 0},
      {"csr_read_csr", temp_file("s.mtx", sym.s, sym.n), NULL, 1},
  };
  char why[600];
  for (int b = 0; b < 2; b++) {
    csr_context *ctx = b ? ctx_omp : ctx_ref;
    if (ctx == NULL)
      continue;
    for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
      const alloc_case *c = &cases[i];
      csr_coo *T0 = NULL;
      csr_matrix *A0 = NULL;
      csr_debug_fail_allocation_after(0);
      csr_status s0 = run_alloc_case(ctx, c, &T0, &A0);
      int64_t count = csr_debug_allocation_count();
      CHECKF(s0 == CSR_SUCCESS && count > 0, "%s: clean read %s, %lld allocations", c->what,
             csr_status_string(s0), (long long)count);
      int failures = 0;
      for (int64_t n = 1; n <= count + 1; n++) {
        csr_coo *T = NULL;
        csr_matrix *A = NULL;
        csr_context_clear_error(ctx);
        csr_debug_fail_allocation_after(n);
        csr_status s = run_alloc_case(ctx, c, &T, &A);
        csr_debug_fail_allocation_after(0);
        failures += s == CSR_ERR_OUT_OF_MEMORY;
        CHECKF(s == CSR_ERR_OUT_OF_MEMORY || s == CSR_SUCCESS,
               "%s (%s): allocation %lld failed: %s (%s)", c->what,
               csr_backend_name(csr_context_backend(ctx)), (long long)n, csr_status_string(s),
               csr_context_last_error(ctx));
        if (s == CSR_ERR_OUT_OF_MEMORY)
          CHECKF(T == NULL && A == NULL && csr_context_last_error(ctx)[0] != '\0',
                 "%s: allocation %lld: a result or no message", c->what, (long long)n);
        if (s == CSR_SUCCESS && T0)
          CHECKF(mmo_coo_identical(T0, T, why, sizeof why), "%s: allocation %lld: %s", c->what,
                 (long long)n, why);
        if (s == CSR_SUCCESS && A0) {
          int equal = 0;
          CHECKF(csr_matrix_equal(ctx, A0, A, &equal) == 0 && equal,
                 "%s: allocation %lld: another matrix", c->what, (long long)n);
        }
        CHECKF(n <= count || s == CSR_SUCCESS, "%s: allocation %lld (past the last) gave %s",
               c->what, (long long)n, csr_status_string(s));
        csr_coo_free(&T);
        csr_matrix_free(&A);
      }
      CHECKF(failures >= count / 2, "%s: only %d of %lld failed allocations were reported", c->what,
             failures, (long long)count);
      csr_coo_free(&T0);
      csr_matrix_free(&A0);
    }
  }
  text_free(&sym);
  text_free(&small);
}

/* --- main ------------------------------------------------------------------------------------- */

static void remove_tmpdir(void) {
  static const char *const names[] = {
      "endings.mtx",  "bad_file.mtx",   "g.mtx.gz",    "g2.mtx.gz",   "g5.mtx.gz",
      "g.mtx",        "m.mtx.gz",       "cut.mtx.gz",  "half.mtx.gz", "corrupt.mtx.gz",
      "big.mtx.gz",   "bigcut.mtx.gz",  "b.mtx.bz2",   "b.mtx",       "in.mtx",
      "in.mtx.gz",    "in_bad.mtx",     "in_edges",    "f.txt",       "f.el",
      "f.edges",      "f.txt.gz",       "i.edges",     "dup.mtx",     "sym.mtx",
      "bad_csr.mtx",  "args.mtx",       "long.mtx.gz", "a.mtx",       "a.mtx.gz",
      "a.txt",        "s.mtx",          "chan.mtx",    "chan.mtx.gz", "pdup.mtx",
      "early.mtx.gz", "complex.mtx.gz", "m.txt.gz",    "m.edges",
  };
  char path[300];
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
    unlink(path);
  }
  CHECKF(rmdir(tmpdir) == 0, "cannot remove %s (a file left in it?)", tmpdir);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/csr_mm_reader_XXXXXX");
  if (mkdtemp(tmpdir) == NULL) {
    fprintf(stderr, "cannot create a directory under /tmp\n");
    return 1;
  }
  ctx_ref = csrt_context(CSR_BACKEND_REF);
  if (csr_backend_available(CSR_BACKEND_OMP)) {
    ctx_omp = csrt_context(CSR_BACKEND_OMP);
    csr_context_set_threads(ctx_omp, 4); /* more pieces than cores: the split is exercised */
  }
  test_line_endings();
  test_layout();
  test_errors();
  test_earliest_error();
  test_large_valid();
  test_gzip();
  test_stdin();
  test_edge_lists();
  test_options();
  test_shortest_lines();
  test_huge();
  test_long_lines();
  test_allocation_failures();
  test_arguments(); /* last: its empty NULL buffer has stopped sanitizer builds */
  remove_tmpdir();
  csr_context_free(&ctx_ref);
  csr_context_free(&ctx_omp);
  return csrt_finish("test_mm_reader");
}
