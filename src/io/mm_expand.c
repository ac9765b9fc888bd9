/* SPDX-License-Identifier: BSD-3-Clause */
/* Symmetric storage -> general: every off-diagonal (i, j, v) gains (j, i, v), or (j, i, -v) for
 * skew; the mirrors are appended after the stored entries, in their order. */
#include "mm_blocks.h"

#include <stdlib.h>

/* Off-diagonal entries in [begin, end). */
static int64_t off_diagonal(const csri_entries *e, int64_t begin, int64_t end) {
  int64_t count = 0;
  for (int64_t k = begin; k < end; k++)
    count += e->rows[k] != e->cols[k];
  return count;
}

static void mirror(csri_entries *e, int64_t begin, int64_t end, int64_t at, double sign) {
  for (int64_t k = begin; k < end; k++) {
    if (e->rows[k] == e->cols[k])
      continue;
    e->rows[at] = e->cols[k];
    e->cols[at] = e->rows[k];
    if (e->value_type == CSR_F64)
      ((double *)e->values)[at] = sign * ((double *)e->values)[k];
    else if (e->value_type == CSR_F32)
      ((float *)e->values)[at] = (float)sign * ((float *)e->values)[k];
    at++;
  }
}

csr_status csri_entries_expand(csr_context *ctx, csri_entries *e, csr_mm_symmetry symmetry) {
  int chunks = csri_host_threads(ctx);
  int64_t n = e->count;
  if (n < 100000)
    chunks = 1;
  /* Each chunk's mirrors go after those of the chunks before it: the same order for any
   * number of threads. */
  int64_t *offset = csri_calloc((size_t)chunks + 1, sizeof(int64_t));
  if (offset == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "expansion state allocation failed");
#pragma omp parallel for num_threads(chunks) if (chunks > 1)
  for (int t = 0; t < chunks; t++)
    offset[t + 1] = off_diagonal(e, n * t / chunks, n * (t + 1) / chunks);
  for (int t = 0; t < chunks; t++)
    offset[t + 1] += offset[t];
  csr_status status = csri_entries_reserve(ctx, e, n + offset[chunks], INT64_MAX);
  if (status == CSR_SUCCESS) {
    double sign = symmetry == CSR_MM_SKEW_SYMMETRIC ? -1.0 : 1.0;
#pragma omp parallel for num_threads(chunks) if (chunks > 1)
    for (int t = 0; t < chunks; t++)
      mirror(e, n * t / chunks, n * (t + 1) / chunks, n + offset[t], sign);
    e->count = n + offset[chunks];
  }
  csri_free(offset);
  return status;
}
