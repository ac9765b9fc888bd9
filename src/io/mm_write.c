/* SPDX-License-Identifier: BSD-3-Clause */
/* CSR / COO -> Matrix Market coordinate text (or an edge list), formatted in parallel chunks. */
#include "mm_write.h"
#include "io/decimal/mm_print.h"
#include "mm_sink.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Entries per chunk: big enough to amortise a parallel region, small enough that a round of
 * chunks (2 per thread) stays tens of MB. */
#define CHUNK_ENTRIES ((int64_t)1 << 18)
#define LINE_MAX_BYTES (2 * 11 + 2 * 1 + CSRI_PRINT_MAX + 2)

typedef csri_write_job job;

static char *put_value(char *p, const void *values, csr_value_type type, int64_t k,
                       csri_value_style style) {
  *p++ = ' ';
  double v = type == CSR_F64 ? ((const double *)values)[k] : ((const float *)values)[k];
  if (style == CSRI_VALUES_INTEGER)
    return p + csri_print_int64((int64_t)v, p);
  if (type == CSR_F32)
    return p + csri_print_float(((const float *)values)[k], p);
  return p + csri_print_double(v, p);
}

static char *put_line(char *p, const job *w, int64_t row, int64_t col, const void *values,
                      csr_value_type type, int64_t k) {
  p += csri_print_int64(row + w->one_based, p);
  *p++ = ' ';
  p += csri_print_int64(col + w->one_based, p);
  if (w->style != CSRI_VALUES_NONE && type != CSR_PATTERN)
    p = put_value(p, values, type, k, w->style);
  *p++ = '\n';
  return p;
}

/* The row holding CSR entry k: the last row whose offset is <= k (and non-empty). */
static int64_t row_of(const csr_matrix *A, int64_t k) {
  int64_t lo = 0, hi = A->rows;
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    if (A->row_offsets[mid] <= k)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* Formats entries [begin, end) into buf; returns the bytes written. */
static size_t format_range(const job *w, int64_t begin, int64_t end, char *buf) {
  char *p = buf;
  if (w->A) {
    const csr_matrix *A = w->A;
    int64_t row = begin < end ? row_of(A, begin) : 0;
    for (int64_t k = begin; k < end; k++) {
      while (A->row_offsets[row + 1] <= k)
        row++;
      int64_t col = A->col_indices[k];
      if (!w->lower_only || col <= row)
        p = put_line(p, w, row, col, A->values, A->value_type, k);
    }
  } else {
    const csr_coo *T = w->T;
    for (int64_t k = begin; k < end; k++)
      if (!w->lower_only || T->col_indices[k] <= T->row_indices[k])
        p = put_line(p, w, T->row_indices[k], T->col_indices[k], T->values, T->value_type, k);
  }
  return (size_t)(p - buf);
}

/* Writes all entries in rounds of 2 chunks per thread. */
static csr_status write_entries(csr_context *ctx, csri_sink *sink, const job *w, int64_t nnz) {
  int threads = csri_host_threads(ctx);
  int slots = 2 * threads;
  char **buf = csri_calloc((size_t)slots, sizeof *buf);
  size_t *size = csri_calloc((size_t)slots, sizeof *size);
  csr_status status =
      buf && size ? CSR_SUCCESS : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "writer buffers");
  for (int i = 0; status == CSR_SUCCESS && i < slots; i++)
    if (!(buf[i] = csri_malloc((size_t)CHUNK_ENTRIES * LINE_MAX_BYTES)))
      status = CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "writer buffers");
  for (int64_t start = 0; status == CSR_SUCCESS && start < nnz;
       start += (int64_t)slots * CHUNK_ENTRIES) {
    int count = 0;
    for (; count < slots && start + count * CHUNK_ENTRIES < nnz; count++)
      ;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (count > 1)
    for (int i = 0; i < count; i++) {
      int64_t b = start + i * CHUNK_ENTRIES, e = b + CHUNK_ENTRIES < nnz ? b + CHUNK_ENTRIES : nnz;
      size[i] = format_range(w, b, e, buf[i]);
    }
    status = csri_sink_write_chunks(ctx, sink, buf, size, count, threads);
  }
  for (int i = 0; buf && i < slots; i++)
    csri_free(buf[i]);
  csri_free(buf);
  csri_free(size);
  return status;
}

csr_status csri_write_text(csr_context *ctx, const char *path, const csr_write_options *o,
                           const char *header, const job *w, int64_t nnz) {
  int gzip = o->gzip >= 0 ? o->gzip : (strlen(path) > 3 && !strcmp(path + strlen(path) - 3, ".gz"));
  csri_sink *sink = NULL;
  CSRI_TRY(csri_sink_open(ctx, path, gzip, o->gzip_level, &sink));
  char *chunks[1] = {(char *)header};
  size_t sizes[1] = {strlen(header)};
  csr_status status = csri_sink_write_chunks(ctx, sink, chunks, sizes, 1, 1);
  if (status == CSR_SUCCESS)
    status = write_entries(ctx, sink, w, nnz);
  if (status != CSR_SUCCESS) {
    csri_sink_abort(&sink);
    return status;
  }
  return csri_sink_close(ctx, &sink);
}
