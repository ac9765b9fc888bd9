/* SPDX-License-Identifier: BSD-3-Clause */
/* Writers' output: plain chunks go straight to the descriptor; gzip chunks become independent
 * gzip members deflated in parallel, then written in order. */
#include "mm_sink.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

struct csri_sink {
  int fd, owns_fd, gzip, level;
  char path[256];
};

csr_status csri_sink_open(csr_context *ctx, const char *path, int gzip, int level,
                          csri_sink **sink) {
  *sink = NULL;
  csri_sink *s = csri_calloc(1, sizeof *s);
  if (s == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "writer allocation failed");
  snprintf(s->path, sizeof s->path, "%s", strcmp(path, "-") == 0 ? "<stdout>" : path);
  s->gzip = gzip;
  s->level = level < 1 || level > 9 ? 6 : level;
  if (strcmp(path, "-") == 0)
    s->fd = 1;
  else {
    s->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    s->owns_fd = 1;
    if (s->fd < 0) {
      csri_free(s);
      return CSRI_FAIL(ctx, CSR_ERR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
    }
  }
  *sink = s;
  return CSR_SUCCESS;
}

static csr_status write_all(csr_context *ctx, csri_sink *s, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(s->fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return CSRI_FAIL(ctx, CSR_ERR_IO, "%s: write failed: %s", s->path,
                       w < 0 ? strerror(errno) : "no progress");
    p += w;
    n -= (size_t)w;
  }
  return CSR_SUCCESS;
}

/* text -> one complete gzip member in out (capacity from deflateBound). 0 on success. */
static int deflate_member(const char *text, size_t size, int level, unsigned char *out,
                          size_t capacity, size_t *out_size) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return -1;
  z.next_in = (Bytef *)text;
  z.avail_in = (uInt)size;
  z.next_out = out;
  z.avail_out = (uInt)capacity;
  int rc = deflate(&z, Z_FINISH);
  *out_size = capacity - z.avail_out;
  deflateEnd(&z);
  return rc == Z_STREAM_END ? 0 : -1;
}

static csr_status write_gzip(csr_context *ctx, csri_sink *s, char *const *chunk, const size_t *size,
                             int count, int threads) {
  (void)threads; /* used by the OpenMP pragma only */
  unsigned char **packed = csri_calloc((size_t)count, sizeof *packed);
  size_t *packed_size = csri_calloc((size_t)count, sizeof *packed_size);
  int failed = packed == NULL || packed_size == NULL;
  for (int i = 0; i < count && !failed; i++) { /* deflateBound needs a stream: be generous */
    if (size[i] > (size_t)UINT32_MAX / 2)
      failed = 2;
    else if (!(packed[i] = csri_malloc(size[i] + size[i] / 1000 + 1024)))
      failed = 1;
  }
  int bad = 0;
  if (!failed) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) reduction(| : bad)
    for (int i = 0; i < count; i++)
      bad |= deflate_member(chunk[i], size[i], s->level, packed[i], size[i] + size[i] / 1000 + 1024,
                            &packed_size[i]) != 0;
  }
  csr_status status = CSR_SUCCESS;
  if (failed == 1 || (failed == 0 && bad))
    status = CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "%s: gzip compression buffers", s->path);
  else if (failed == 2)
    status = CSRI_FAIL(ctx, CSR_ERR_OVERFLOW, "%s: a chunk too large for one gzip member", s->path);
  for (int i = 0; i < count && status == CSR_SUCCESS; i++)
    status = write_all(ctx, s, (const char *)packed[i], packed_size[i]);
  for (int i = 0; packed && i < count; i++)
    csri_free(packed[i]);
  csri_free(packed);
  csri_free(packed_size);
  return status;
}

csr_status csri_sink_write_chunks(csr_context *ctx, csri_sink *s, char *const *chunk,
                                  const size_t *size, int count, int threads) {
  if (s->gzip)
    return write_gzip(ctx, s, chunk, size, count, threads);
  for (int i = 0; i < count; i++)
    CSRI_TRY(write_all(ctx, s, chunk[i], size[i]));
  return CSR_SUCCESS;
}

csr_status csri_sink_close(csr_context *ctx, csri_sink **sink) {
  csri_sink *s = *sink;
  csr_status status = CSR_SUCCESS;
  if (s == NULL)
    return status;
  if (s->owns_fd && close(s->fd) != 0)
    status = CSRI_FAIL(ctx, CSR_ERR_IO, "%s: close failed: %s", s->path, strerror(errno));
  csri_free(s);
  *sink = NULL;
  return status;
}

void csri_sink_abort(csri_sink **sink) {
  csri_sink *s = *sink;
  if (s == NULL)
    return;
  if (s->owns_fd) {
    close(s->fd);
    unlink(s->path); /* no half-written matrix left behind */
  }
  csri_free(s);
  *sink = NULL;
}
