/* SPDX-License-Identifier: BSD-3-Clause */
/* The reader's limits on bad input: memory stays bounded whatever the input claims or holds. A
 * stream of NUL bytes (a pipe that never ends, a symlink to /dev/zero, a buffer, a gzip of NULs
 * made here with zlib) is refused at its first line within a bounded time and peak RSS, each read
 * in a child process of its own; a NUL byte or a line longer than 1 MiB is refused at its line,
 * after any earlier error, in Matrix Market and edge lists, from a buffer, a file, a gzip file and
 * standard input. A header declaring 2^31 - 1 rows is refused by a context memory limit when its
 * row offsets are allocated, and a declared count far beyond the file is not allocated; allocations
 * past physical memory are refused. A SNAP header that disagrees with the edges that follow is
 * refused at its line. Content whose format neither its name nor its first line tells is refused
 * naming both formats. */
#define _DEFAULT_SOURCE 1 /* symlink */
#include "testing.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

static csr_context *ctx;
static char tmpdir[64];

/* --- inputs ----------------------------------------------------------------------------------- */

static const char *temp_path(const char *name) {
  static char paths[4][400];
  static int next = 0;
  char *path = paths[next++ % 4];
  snprintf(path, 400, "%s/%s", tmpdir, name);
  return path;
}

static const char *temp_file(const char *name, const void *data, size_t size) {
  const char *path = temp_path(name);
  FILE *f = fopen(path, "wb");
  CHECKF(f && fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write %s", path);
  return path;
}

/* data gzip-compressed in memory (one member); *out_size its size. `repeat` copies of data. */
static unsigned char *gzip_of(const void *data, size_t size, size_t repeat, size_t *out_size) {
  z_stream z;
  memset(&z, 0, sizeof z);
  size_t cap = size * repeat / 500 + 4096, used = 0;
  unsigned char *out = malloc(cap);
  if (out == NULL || deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY) != 0)
    abort();
  for (size_t r = 0; r <= repeat; r++) {
    z.next_in = (Bytef *)data;
    z.avail_in = r < repeat ? (uInt)size : 0;
    int rc;
    do {
      if (cap - used < 65536 && !(out = realloc(out, cap *= 2)))
        abort();
      z.next_out = out + used;
      z.avail_out = (uInt)(cap - used);
      rc = deflate(&z, r < repeat ? Z_NO_FLUSH : Z_FINISH);
      used = cap - z.avail_out;
    } while (z.avail_out == 0 || (r == repeat && rc != Z_STREAM_END));
  }
  deflateEnd(&z);
  *out_size = used;
  return out;
}

/* Where a text comes from: a buffer, a file (mapped), a gzip file, a pipe on standard input. */
typedef enum channel { VIA_BUFFER, VIA_FILE, VIA_GZIP, VIA_PIPE, CHANNELS } channel;
static const char *const channel_names[] = {"buffer", "file", "gzip file", "pipe on stdin"};

/* A child that writes data to fd (`forever`: again and again, as /dev/zero does) until the
 * reader closes the pipe. */
static pid_t writer(int fd, int other_end, const char *data, size_t size, int forever) {
  pid_t pid = fork();
  if (pid != 0)
    return pid;
  close(other_end);
  do
    for (size_t done = 0; done < size;) {
      ssize_t n = write(fd, data + done, size - done);
      if (n <= 0)
        _exit(0);
      done += (size_t)n;
    }
  while (forever);
  _exit(0);
}

/* Reads data through ch as a file called name ("<stdin>" for the pipe); csr_read_csr when csr. */
static csr_status read_via(channel ch, const char *data, size_t size, const char *name,
                           const csr_read_options *o, int csr) {
  csr_coo *T = NULL;
  csr_matrix *A = NULL;
  csr_status s = CSR_ERR_IO;
  if (ch == VIA_BUFFER) {
    s = csr_read_coo_buffer(ctx, data, size, name, o, &T, NULL);
  } else if (ch == VIA_FILE || ch == VIA_GZIP) {
    char gz[200];
    snprintf(gz, sizeof gz, "%s.gz", name);
    const char *path = temp_path(ch == VIA_FILE ? name : gz);
    if (ch == VIA_FILE)
      temp_file(ch == VIA_FILE ? name : gz, data, size);
    else {
      gzFile g = gzopen(path, "wb");
      CHECKF(g && (size == 0 || gzwrite(g, data, (unsigned)size) == (int)size) &&
                 gzclose(g) == Z_OK,
             "cannot write %s", path);
    }
    s = csr ? csr_read_csr(ctx, path, o, &A, NULL) : csr_read_coo(ctx, path, o, &T, NULL);
    unlink(path);
  } else {
    int fds[2], saved = dup(0);
    if (saved < 0 || pipe(fds) != 0)
      abort();
    pid_t pid = writer(fds[1], fds[0], data, size, 0);
    close(fds[1]);
    dup2(fds[0], 0);
    close(fds[0]);
    s = csr ? csr_read_csr(ctx, "-", o, &A, NULL) : csr_read_coo(ctx, "-", o, &T, NULL);
    dup2(saved, 0); /* closes the read end: a writer still writing gets EPIPE */
    close(saved);
    waitpid(pid, NULL, 0);
  }
  csr_coo_free(&T);
  csr_matrix_free(&A);
  return s;
}

/* Each '|'-separated word of words is in message. */
static int holds_words(const char *message, const char *words) {
  char copy[300];
  snprintf(copy, sizeof copy, "%s", words);
  for (char *w = strtok(copy, "|"); w; w = strtok(NULL, "|"))
    if (strstr(message, w) == NULL)
      return 0;
  return 1;
}

/* The text through every channel, with the default block and 16-byte blocks: `status`, and a
 * message naming "<name>:<line>:" (line 0: no line) and holding words. */
static void expect_refusal(const char *what, const char *data, size_t size, const char *name,
                           csr_status status, int64_t line, const char *words) {
  for (int ch = 0; ch < CHANNELS; ch++)
    for (int b = 0; b < 2; b++) {
      csr_read_options o;
      csr_read_options_init(&o);
      o.block_bytes = b ? 16 : 0;
      csr_context_clear_error(ctx);
      csr_status s = read_via((channel)ch, data, size, name, &o, 0);
      const char *message = csr_context_last_message(ctx);
      char at[300];
      snprintf(at, sizeof at, "%s%s:%lld:", ch == VIA_PIPE ? "<stdin>" : name,
               ch == VIA_GZIP ? ".gz" : "", (long long)line);
      CHECKF(s == status && (line == 0 || strstr(message, at)) && holds_words(message, words),
             "%s, %s, block %zu: %s (%s), expected %s, '%s' and '%s'", what, channel_names[ch],
             o.block_bytes, csr_status_string(s), message, csr_status_string(status), at, words);
    }
}

static void expect_read(const char *what, const char *data, size_t size, const char *name) {
  for (int ch = 0; ch < CHANNELS; ch++) {
    csr_read_options o;
    csr_read_options_init(&o);
    csr_status s = read_via((channel)ch, data, size, name, &o, 0);
    CHECKF(s == CSR_SUCCESS, "%s, %s: %s (%s)", what, channel_names[ch], csr_status_string(s),
           csr_context_last_message(ctx));
  }
}

/* --- a case in a child process: bounded time, its own peak RSS -------------------------------- */

typedef struct outcome {
  csr_status status;
  long peak_kib; /* the child's peak resident set */
  char message[400];
} outcome;

/* Runs run(arg) in a child given 60 s; *out what it returned. 0 when the child did not report
 * (killed: out of time or memory). */
static int in_child(csr_status (*run)(const void *), const void *arg, outcome *out) {
  int fds[2];
  memset(out, 0, sizeof *out);
  if (pipe(fds) != 0)
    return 0;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    signal(SIGPIPE, SIG_IGN);
    alarm(60);
    /* Address space for the reader's blocks and threads, but not for a reader that would take
     * the whole stream: that one fails to allocate instead of exhausting the machine. */
    struct rlimit space = {(rlim_t)2 << 30, (rlim_t)2 << 30};
    if (!csrt_under_asan()) /* its shadow memory reserves terabytes of address space */
      setrlimit(RLIMIT_AS, &space);
    outcome o;
    memset(&o, 0, sizeof o);
    o.status = run(arg);
    snprintf(o.message, sizeof o.message, "%s", csr_context_last_message(ctx));
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    o.peak_kib = usage.ru_maxrss;
    _exit(write(fds[1], &o, sizeof o) == (ssize_t)sizeof o ? 0 : 1);
  }
  close(fds[1]);
  ssize_t got = read(fds[0], out, sizeof *out);
  close(fds[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  return got == (ssize_t)sizeof *out;
}

/* The most a refused stream of NULs may cost: the read buffer (a 32 MiB block), the inflater's
 * blocks, and the test's own pages. Without the limits, the readers below took the whole stream
 * (a buffer doubled up to it) or never stopped. */
#define PEAK_KIB (160L * 1024)

static void expect_bounded(const char *what, csr_status (*run)(const void *), const void *arg) {
  outcome o;
  int reported = in_child(run, arg, &o);
  CHECKF(reported, "%s: the reader did not return within 60 s (or was killed)", what);
  if (!reported)
    return;
  CHECKF(o.status == CSR_ERR_PARSE && strstr(o.message, ":1: NUL byte in the input"),
         "%s: %s (%s), expected a NUL byte on line 1", what, csr_status_string(o.status),
         o.message);
  if (!csrt_under_asan()) /* shadow memory inflates the resident set */
    CHECKF(o.peak_kib < PEAK_KIB, "%s: peak RSS %ld KiB, expected below %ld KiB", what, o.peak_kib,
           PEAK_KIB);
}

typedef struct input {
  const char *path; /* read this path ("-": the pipe) ... */
  const void *data; /* ... or this buffer */
  size_t size;
} input;

static csr_status read_input(const void *arg) {
  const input *in = arg;
  csr_coo *T = NULL;
  csr_status s;
  if (in->path && strcmp(in->path, "-") == 0) { /* a pipe that never ends */
    int fds[2];
    static const char zeros[65536];
    if (pipe(fds) != 0)
      return CSR_ERR_IO;
    writer(fds[1], fds[0], zeros, sizeof zeros, 1);
    close(fds[1]);
    dup2(fds[0], 0);
    close(fds[0]);
    s = csr_read_coo(ctx, "-", NULL, &T, NULL);
  } else if (in->path)
    s = csr_read_coo(ctx, in->path, NULL, &T, NULL);
  else
    s = csr_read_coo_buffer(ctx, in->data, in->size, "zeros", NULL, &T, NULL);
  csr_coo_free(&T);
  return s;
}

static void test_nul_streams(void) {
  input endless = {"-", NULL, 0};
  expect_bounded("an endless pipe of NUL bytes", read_input, &endless);
  const char *zero = temp_path("zero.mtx");
  CHECKF(symlink("/dev/zero", zero) == 0, "cannot link %s to /dev/zero", zero);
  input device = {zero, NULL, 0};
  expect_bounded("zero.mtx, a symlink to /dev/zero", read_input, &device);
  unlink(zero);
  /* 512 MiB of NUL bytes, inflated from a gzip of about 0.5 MiB: from memory and from a file. */
  static char mib[1 << 20];
  size_t packed_size = 0;
  unsigned char *packed = gzip_of(mib, sizeof mib, 512, &packed_size);
  input gz_buffer = {NULL, packed, packed_size};
  expect_bounded("a gzip of 512 MiB of NUL bytes, in memory", read_input, &gz_buffer);
  input gz_file = {temp_file("zeros.mtx.gz", packed, packed_size), NULL, 0};
  expect_bounded("a gzip of 512 MiB of NUL bytes, a file", read_input, &gz_file);
  unlink(gz_file.path);
  free(packed);
  /* 64 MiB of NUL bytes in memory: refused at once (a slice of the buffer, never copied). */
  char *zeros = calloc(64, 1 << 20);
  input buffer = {NULL, zeros, (size_t)64 << 20};
  expect_bounded("64 MiB of NUL bytes in memory", read_input, &buffer);
  free(zeros);
}

/* --- a NUL byte or a long line, at its line --------------------------------------------------- */

static const char mm_head[] = "%%MatrixMarket matrix coordinate real general\n% c\n3 3 4\n";

/* mm_head, then lines of entries, with `bad` as line `at` (counting from 1 in the whole text). */
static char *with_line(const char *head, const char *entry, int lines, int at, const char *bad,
                       size_t bad_size, size_t *size) {
  size_t cap = strlen(head) + (size_t)lines * 32 + bad_size + 2, n = 0;
  char *t = malloc(cap);
  if (t == NULL)
    abort();
  n += (size_t)snprintf(t, cap, "%s", head);
  int line = 1;
  for (const char *p = head; *p; p++)
    line += *p == '\n';
  for (; lines > 0; line++) {
    if (line == at) {
      memcpy(t + n, bad, bad_size);
      n += bad_size;
      t[n++] = '\n';
    } else {
      n += (size_t)snprintf(t + n, cap - n, "%s\n", entry);
      lines--;
    }
  }
  *size = n;
  return t;
}

static void test_bad_lines(void) {
  size_t size;
  char *t;
  /* A NUL byte in an entry (line 5) and in a comment (line 2). */
  static const char nul_entry[] = "2 2 1\0\n";
  t = with_line(mm_head, "1 1 1", 4, 5, nul_entry, 6, &size);
  expect_refusal("NUL in an entry", t, size, "m.mtx", CSR_ERR_PARSE, 5, "NUL byte|not a text file");
  free(t);
  static const char nul_comment[] = "%%MatrixMarket matrix coordinate real general\n% a \0 b\n"
                                    "1 1 1\n1 1 1\n";
  expect_refusal("NUL in a comment", nul_comment, sizeof nul_comment - 1, "m.mtx", CSR_ERR_PARSE, 2,
                 "NUL byte");
  /* An error before the NUL byte is the one reported. */
  static const char earlier[] = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 x 1\n"
                                "\0\n";
  expect_refusal("an error before a NUL", earlier, sizeof earlier - 1, "m.mtx", CSR_ERR_PARSE, 3,
                 "column index");
  /* Edge lists: a NUL on line 40 of 60, and on the first line of an unnamed input. */
  t = with_line("# g\n", "0 1", 60, 40, "\0 1", 3, &size);
  expect_refusal("NUL in an edge list", t, size, "g.txt", CSR_ERR_PARSE, 40, "NUL byte");
  free(t);
  expect_refusal("NUL first", "\0\0\n0 1\n", 6, "g", CSR_ERR_PARSE, 1, "NUL byte");
  /* A comment of exactly 1 MiB is read; one byte more is refused at its line, as are a value
   * padded past 1 MiB and an edge list's comment. */
  size_t mib = (size_t)1 << 20;
  char *line = malloc(mib + 2);
  memset(line, 'x', mib + 1);
  line[0] = '%';
  t = with_line(mm_head, "1 1 1", 4, 4, line, mib, &size);
  expect_read("a comment of 1 MiB", t, size, "m.mtx");
  free(t);
  t = with_line(mm_head, "1 1 1", 4, 6, line, mib + 1, &size);
  expect_refusal("a comment of 1 MiB + 1", t, size, "m.mtx", CSR_ERR_PARSE, 6,
                 "line longer than 1 MiB");
  free(t);
  memset(line, ' ', mib + 1);
  memcpy(line, "1 1", 3);
  line[mib] = '1';
  t = with_line(mm_head, "1 1 1", 4, 7, line, mib + 1, &size);
  expect_refusal("an entry of 1 MiB + 1", t, size, "m.mtx", CSR_ERR_PARSE, 7, "longer than 1 MiB");
  free(t);
  memset(line, '#', mib + 1);
  t = with_line("0 1\n", "1 2", 3, 2, line, mib + 1, &size);
  expect_refusal("an edge list comment of 1 MiB + 1", t, size, "g.el", CSR_ERR_PARSE, 2,
                 "longer than 1 MiB");
  free(t);
  /* The banner's line itself, without a line break: 2 MiB of text. */
  char *banner = malloc(2 * mib);
  memset(banner, 'x', 2 * mib);
  memcpy(banner, "%%MatrixMarket ", 15);
  expect_refusal("a banner of 2 MiB, no line break", banner, 2 * mib, "m.mtx", CSR_ERR_PARSE, 1,
                 "longer than 1 MiB");
  free(banner);
  free(line);
}

/* --- memory that grows with what was read, within a limit ------------------------------------- */

static void test_memory_limit(void) {
  CHECK(csr_context_memory_limit(ctx) == 0);
  CHECK(csr_context_memory_limit(NULL) == 0);
  CHECK(csr_context_set_memory_limit(NULL, 1) == CSR_ERR_NULL_POINTER);
  CHECK_OK(ctx, csr_context_set_memory_limit(ctx, (size_t)64 << 20));
  CHECK(csr_context_memory_limit(ctx) == (size_t)64 << 20);
  /* 2^31 - 1 rows in 76 bytes: the COO (one entry) is read; the CSR's 16 GiB of row offsets are
   * refused by the limit, naming the size, whatever the machine. */
  static const char tall[] = "%%MatrixMarket matrix coordinate real general\n"
                             "2147483647 2147483647 1\n1 1 1\n";
  csr_read_options o;
  csr_read_options_init(&o);
  for (int ch = 0; ch < CHANNELS; ch++) {
    if (ch == VIA_BUFFER)
      continue; /* there is no csr_read_csr of a buffer */
    csr_status s = read_via((channel)ch, tall, sizeof tall - 1, "tall.mtx", &o, 0);
    CHECKF(s == CSR_SUCCESS, "2^31 - 1 rows as COO, %s: %s (%s)", channel_names[ch],
           csr_status_string(s), csr_context_last_message(ctx));
    s = read_via((channel)ch, tall, sizeof tall - 1, "tall.mtx", &o, 1);
    const char *message = csr_context_last_message(ctx);
    CHECKF(s == CSR_ERR_OUT_OF_MEMORY && strstr(message, "allocating 16.0 GiB") &&
               strstr(message, "the context's limit of 64.0 MiB"),
           "2^31 - 1 rows as CSR, %s: %s (%s)", channel_names[ch], csr_status_string(s), message);
  }
  /* A count of 2^40 entries declared before 3 of them: no room for the count is taken (it would
   * pass the limit), the count's error comes after the data. */
  static const char many[] = "%%MatrixMarket matrix coordinate real general\n"
                             "10 10 1099511627776\n1 1 1\n2 2 2\n3 3 3\n";
  expect_refusal("2^40 entries declared, 3 given", many, sizeof many - 1, "many.mtx", CSR_ERR_PARSE,
                 5, "expected 1099511627776 entries|found 3");
  /* An array is the whole matrix: 10^5 x 10^5 values declared, refused by the count, not by an
   * allocation of 80 GB. */
  static const char array[] = "%%MatrixMarket matrix array real general\n100000 100000\n1\n2\n";
  expect_refusal("10^10 array values declared, 2 given", array, sizeof array - 1, "array.mtx",
                 CSR_ERR_PARSE, 0, "expected 10000000000 entries|found 2");
  CHECK_OK(ctx, csr_context_set_memory_limit(ctx, 0));
  /* Without a limit of the context's: past physical memory is refused (not left to the kernel). */
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) {
    int64_t n = (int64_t)((uint64_t)pages * (uint64_t)page / sizeof(double)) + 1;
    csr_vector *v = NULL;
    csr_status s = csr_vector_create(ctx, &v, n, CSR_F64, CSR_HOST);
    const char *message = csr_context_last_message(ctx);
    CHECKF(s == CSR_ERR_OUT_OF_MEMORY && v == NULL && strstr(message, "more than the") &&
               (strstr(message, "physical memory") || strstr(message, "cgroup")),
           "a vector one element past physical memory: %s (%s)", csr_status_string(s), message);
    csr_vector_free(&v);
  }
}

/* --- a SNAP header against the edges that follow ---------------------------------------------- */

static void test_snap_header(void) {
  static const char fits[] = "# Directed graph\n# Nodes: 4 Edges: 3\n0 1\n1 2\n3 0\n";
  expect_read("header that fits", fits, sizeof fits - 1, "g.txt");
  static const char labels[] = "# Nodes: 3 Edges: 2\n0 10\n10 20\n";
  expect_read("ids as labels past the node count", labels, sizeof labels - 1, "g.txt");
  static const char both_ways[] =
      "# Undirected graph: g\n# Nodes: 3 Edges: 2\n0 1\n1 0\n1 2\n2 1\n";
  expect_read("undirected, both ways", both_ways, sizeof both_ways - 1, "g.txt");
  static const char once[] = "# Undirected graph: g\n# Nodes: 3 Edges: 2\n0 1\n1 2\n";
  expect_read("undirected, once", once, sizeof once - 1, "g.txt");
  static const char fewer[] = "# Directed graph\n# c\n# Nodes: 4 Edges: 5\n0 1\n1 2\n3 0\n";
  expect_refusal("fewer edges than declared", fewer, sizeof fewer - 1, "g.txt", CSR_ERR_PARSE, 3,
                 "declares 5 edges, found 3");
  static const char more[] = "# Nodes: 4\tEdges: 2\n0 1\n1 2\n3 0\n";
  expect_refusal("more edges than declared", more, sizeof more - 1, "g.txt", CSR_ERR_PARSE, 1,
                 "declares 2 edges, found 3");
  static const char three_ways[] = "# Undirected graph\n# Nodes: 3 Edges: 1\n0 1\n1 0\n0 1\n";
  expect_refusal("undirected, 3 lines for 1 edge", three_ways, sizeof three_ways - 1, "g.txt",
                 CSR_ERR_PARSE, 2, "declares 1 edges, found 3");
  static const char nodes[] = "# Nodes: 3 Edges: 3\n0 1\n1 2\n2 3\n";
  expect_refusal("more nodes than declared", nodes, sizeof nodes - 1, "g.txt", CSR_ERR_PARSE, 1,
                 "declares 3 nodes, found 4 distinct node ids");
}

/* --- content whose format nothing tells ------------------------------------------------------- */

static void test_unnamed_format(void) {
  static const char binary[] = "\x7f"
                               "ELF\x02\x01\x01 junk\n";
  expect_refusal("binary named data.bin", binary, sizeof binary - 1, "data.bin", CSR_ERR_PARSE, 1,
                 "neither a Matrix Market banner (%%MatrixMarket|nor an edge list line");
  static const char words[] = "\n  \nhello world\n0 1\n";
  expect_refusal("words after blank lines, named data", words, sizeof words - 1, "data",
                 CSR_ERR_PARSE, 3, "neither a Matrix Market banner|found 'hello'");
  static const char one_id[] = "7\n";
  expect_refusal("one number", one_id, sizeof one_id - 1, "data.bin", CSR_ERR_PARSE, 1,
                 "nor an edge list line");
  /* Named, the parser of the named format says what it found instead (standard input has no
   * name to tell by). */
  for (int ch = VIA_BUFFER; ch < VIA_PIPE; ch++) {
    csr_status s = read_via((channel)ch, words, sizeof words - 1, "w.txt", NULL, 0);
    const char *message = csr_context_last_message(ctx);
    CHECKF(s == CSR_ERR_PARSE && strstr(message, ":3: expected a source node id"),
           "words named w.txt, %s: %s (%s)", channel_names[ch], csr_status_string(s), message);
  }
  static const char edges[] = "0 1\n1 2\n";
  expect_read("an edge list named data.bin", edges, sizeof edges - 1, "data.bin");
  static const char commented[] = "% made by hand\n0 1\n";
  expect_read("an edge list with a comment first, named data", commented, sizeof commented - 1,
              "data");
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/csr_read_limits_XXXXXX");
  if (mkdtemp(tmpdir) == NULL) {
    fprintf(stderr, "cannot create a directory under /tmp\n");
    return 1;
  }
  ctx = csrt_context(CSR_BACKEND_AUTO);
  test_nul_streams();
  test_bad_lines();
  test_memory_limit();
  test_snap_header();
  test_unnamed_format();
  csr_context_free(&ctx);
  CHECKF(rmdir(tmpdir) == 0, "cannot remove %s (a file left in it?)", tmpdir);
  return csrt_finish("test_read_limits");
}
