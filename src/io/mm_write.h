/* SPDX-License-Identifier: BSD-3-Clause */
/* The writers' shared engine (mm_write.c) and its front ends (mm_write_api.c). Internal. */
#ifndef CSR_MM_WRITE_H
#define CSR_MM_WRITE_H

#include "core/internal.h"

typedef enum { CSRI_VALUES_REAL, CSRI_VALUES_INTEGER, CSRI_VALUES_NONE } csri_value_style;

/* What to write: a CSR (rows from the offsets) or triples, and how. */
typedef struct csri_write_job {
  const csr_matrix *A;
  const csr_coo *T;
  csri_value_style style;
  int lower_only; /* symmetric output: the lower triangle (row >= col) only */
  int one_based;  /* Matrix Market: 1-based; edge lists: 0-based */
} csri_write_job;

/* Writes `header` and then the job's entries to path (gzip per the options or a ".gz" name),
 * formatting chunks in parallel; a failed write removes the partial file. */
csr_status csri_write_text(csr_context *ctx, const char *path, const csr_write_options *o,
                           const char *header, const csri_write_job *w, int64_t nnz);

#endif
