/* SPDX-License-Identifier: BSD-3-Clause */
/* gzip -> text in a producer thread: inflate into one of two slots while the reader drains the
 * other (double buffering); concatenated gzip members are inflated one after another. */
#include "mm_inflate.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

struct csri_inflater {
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  char *slot[2];
  size_t slot_size[2], block;
  int slot_full[2];
  int done, stop;   /* producer finished / consumer wants it to finish */
  csr_status error; /* first error of the producer */
  char message[300];
  int read_slot; /* consumer side: slot being drained and the position in it */
  size_t read_pos;
  /* compressed input */
  const unsigned char *prefix, *mem;
  size_t prefix_size, mem_size, mem_pos;
  unsigned char prefix_copy[8];
  int fd;
  unsigned char *in;
  char name[200];
};

/* Compressed bytes: the prefix, then the descriptor or memory. Returns -1 on a read error. */
static long read_input(csri_inflater *f, unsigned char *dst, size_t max) {
  if (f->prefix_size > 0) {
    size_t n = f->prefix_size < max ? f->prefix_size : max;
    memcpy(dst, f->prefix, n);
    f->prefix += n;
    f->prefix_size -= n;
    return (long)n;
  }
  if (f->fd >= 0) {
    ssize_t n = read(f->fd, dst, max);
    return n < 0 ? -1 : (long)n;
  }
  size_t n = f->mem_size - f->mem_pos < max ? f->mem_size - f->mem_pos : max;
  memcpy(dst, f->mem + f->mem_pos, n);
  f->mem_pos += n;
  return (long)n;
}

static void fail(csri_inflater *f, csr_status status, const char *what) {
  pthread_mutex_lock(&f->lock);
  if (f->error == CSR_SUCCESS) {
    f->error = status;
    snprintf(f->message, sizeof f->message, "%s: %s", f->name, what);
  }
  pthread_mutex_unlock(&f->lock);
}

/* Waits for slot s to be free; returns 0 if the consumer asked to stop. */
static int wait_slot_free(csri_inflater *f, int s) {
  pthread_mutex_lock(&f->lock);
  while (f->slot_full[s] && !f->stop)
    pthread_cond_wait(&f->changed, &f->lock);
  int go = !f->stop;
  pthread_mutex_unlock(&f->lock);
  return go;
}

static void publish_slot(csri_inflater *f, int s, size_t size) {
  pthread_mutex_lock(&f->lock);
  f->slot_size[s] = size;
  f->slot_full[s] = 1;
  pthread_cond_broadcast(&f->changed);
  pthread_mutex_unlock(&f->lock);
}

/* Inflates the whole stream, slot after slot; returns at the end of the last member or on the
 * first error (recorded by fail). */
static void inflate_all(csri_inflater *f, z_stream *z) {
  enum { IN_BYTES = 1 << 18 };
  int s = 0, member_open = 1, at_eof = 0, finished = 0;
  while (!finished) {
    if (!wait_slot_free(f, s))
      return;
    z->next_out = (Bytef *)f->slot[s];
    z->avail_out = (uInt)f->block;
    while (z->avail_out > 0) {
      if (z->avail_in == 0 && !at_eof) {
        long n = read_input(f, f->in, IN_BYTES);
        if (n < 0)
          return fail(f, CSR_ERR_IO, "read error in the gzip input");
        at_eof = n == 0;
        z->next_in = f->in;
        z->avail_in = (uInt)n;
      }
      if (!member_open) { /* between members: another member, or the end */
        if (z->avail_in == 0) {
          finished = 1;
          break;
        }
        if (z->next_in[0] != 0x1f || (z->avail_in > 1 && z->next_in[1] != 0x8b))
          return fail(f, CSR_ERR_IO, "unexpected bytes after the end of the gzip stream");
        inflateReset(z);
        member_open = 1;
      }
      if (z->avail_in == 0) /* a member is open but the input has ended */
        return fail(f, CSR_ERR_IO, "the gzip stream is truncated");
      int rc = inflate(z, Z_NO_FLUSH);
      if (rc == Z_STREAM_END)
        member_open = 0;
      else if (rc == Z_MEM_ERROR)
        return fail(f, CSR_ERR_OUT_OF_MEMORY, "out of memory inflating gzip");
      else if (rc != Z_OK && rc != Z_BUF_ERROR) /* BUF_ERROR: needs more input; refilled above */
        return fail(f, CSR_ERR_IO, z->msg ? z->msg : "corrupt gzip data");
    }
    size_t size = f->block - z->avail_out;
    if (size > 0) {
      publish_slot(f, s, size);
      s ^= 1;
    }
  }
}

static void *producer(void *arg) {
  csri_inflater *f = arg;
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) /* 16: gzip wrapper */
    fail(f, CSR_ERR_OUT_OF_MEMORY, "cannot initialise zlib");
  else {
    inflate_all(f, &z);
    inflateEnd(&z);
  }
  pthread_mutex_lock(&f->lock);
  f->done = 1;
  pthread_cond_broadcast(&f->changed);
  pthread_mutex_unlock(&f->lock);
  return NULL;
}

csr_status csri_inflater_start(csr_context *ctx, const unsigned char *prefix, size_t prefix_size,
                               int fd, const unsigned char *mem, size_t mem_size,
                               size_t block_bytes, const char *name, csri_inflater **inf) {
  *inf = NULL;
  csri_inflater *f = csri_calloc(1, sizeof *f);
  if (f == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "gzip reader allocation failed");
  f->block = block_bytes;
  f->slot[0] = csri_malloc(block_bytes);
  f->slot[1] = csri_malloc(block_bytes);
  f->in = csri_malloc(1 << 18);
  if (!f->slot[0] || !f->slot[1] || !f->in) {
    csri_inflater_stop(&f);
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "gzip buffers of %zu bytes", block_bytes);
  }
  if (prefix_size > sizeof f->prefix_copy)
    prefix_size = sizeof f->prefix_copy;
  if (prefix_size > 0) /* memcpy's source must not be NULL even for 0 bytes */
    memcpy(f->prefix_copy, prefix, prefix_size);
  f->prefix = f->prefix_copy;
  f->prefix_size = prefix_size;
  f->fd = fd;
  f->mem = mem;
  f->mem_size = mem_size;
  snprintf(f->name, sizeof f->name, "%s", name);
  pthread_mutex_init(&f->lock, NULL);
  pthread_cond_init(&f->changed, NULL);
  if (pthread_create(&f->thread, NULL, producer, f) != 0) {
    pthread_mutex_destroy(&f->lock);
    pthread_cond_destroy(&f->changed);
    f->done = -1; /* no thread to join */
    csri_inflater_stop(&f);
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "cannot start the gzip thread");
  }
  *inf = f;
  return CSR_SUCCESS;
}

csr_status csri_inflater_read(csr_context *ctx, csri_inflater *f, char *dst, size_t max,
                              size_t *got) {
  *got = 0;
  pthread_mutex_lock(&f->lock);
  while (*got < max) {
    int s = f->read_slot;
    while (!f->slot_full[s] && !f->done)
      pthread_cond_wait(&f->changed, &f->lock);
    if (!f->slot_full[s]) /* done, and nothing left */
      break;
    size_t n = f->slot_size[s] - f->read_pos;
    if (n > max - *got)
      n = max - *got;
    memcpy(dst + *got, f->slot[s] + f->read_pos, n); /* the producer does not touch a full slot */
    *got += n;
    f->read_pos += n;
    if (f->read_pos == f->slot_size[s]) {
      f->slot_full[s] = 0;
      f->read_slot ^= 1;
      f->read_pos = 0;
      pthread_cond_broadcast(&f->changed);
    }
  }
  csr_status error = f->error;
  pthread_mutex_unlock(&f->lock);
  if (error != CSR_SUCCESS && *got == 0)
    return CSRI_FAIL(ctx, error, "%s", f->message);
  return CSR_SUCCESS;
}

void csri_inflater_stop(csri_inflater **inf) {
  csri_inflater *f = *inf;
  if (f == NULL)
    return;
  if (f->done != -1 && f->slot[0] && f->slot[1] && f->in) {
    pthread_mutex_lock(&f->lock);
    f->stop = 1;
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->lock);
    pthread_join(f->thread, NULL);
    pthread_mutex_destroy(&f->lock);
    pthread_cond_destroy(&f->changed);
  }
  csri_free(f->slot[0]);
  csri_free(f->slot[1]);
  csri_free(f->in);
  csri_free(f);
  *inf = NULL;
}
