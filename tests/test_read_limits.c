/* The reader's limits on bad input: memory stays bounded whatever the input claims or holds. A
 * header declaring 2^31 - 1 rows is refused by a context memory limit when its row offsets are
 * allocated, and a declared count far beyond the file is not allocated; allocations past physical
 * memory are refused. */
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

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/csr_read_limits_XXXXXX");
  if (mkdtemp(tmpdir) == NULL) {
    fprintf(stderr, "cannot create a directory under /tmp\n");
    return 1;
  }
  ctx = csrt_context(CSR_BACKEND_AUTO);
  test_memory_limit();
  csr_context_free(&ctx);
  CHECKF(rmdir(tmpdir) == 0, "cannot remove %s (a file left in it?)", tmpdir);
  return csrt_finish("test_read_limits");
}
