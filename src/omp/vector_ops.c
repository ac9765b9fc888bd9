/* SPDX-License-Identifier: BSD-3-Clause */
/* y = alpha*x + beta*y, x = alpha*x, x = alpha, y = x: static OpenMP loops (F32 in double). */
#include "omp/omp.h"

#include <string.h>

/* Below this many entries a parallel region costs more than it saves. */
#define SERIAL_BELOW 8192

csr_status csri_omp_axpby(csr_context *ctx, double alpha, const csr_vector *x, double beta,
                          csr_vector *y) {
  (void)ctx; /* used only by OpenMP clauses */
  int64_t n = y->n;
  if (y->value_type == CSR_F64) {
    const double *restrict xv = x->data;
    double *restrict yv = y->data;
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (n > SERIAL_BELOW)
    for (int64_t i = 0; i < n; i++)
      yv[i] = beta == 0.0 ? alpha * xv[i] : alpha * xv[i] + beta * yv[i];
  } else {
    const float *restrict xv = x->data;
    float *restrict yv = y->data;
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (n > SERIAL_BELOW)
    for (int64_t i = 0; i < n; i++)
      yv[i] = (float)(beta == 0.0 ? alpha * xv[i] : alpha * xv[i] + beta * (double)yv[i]);
  }
  return CSR_SUCCESS;
}

csr_status csri_omp_scale(csr_context *ctx, double alpha, csr_vector *x) {
  (void)ctx; /* used only by OpenMP clauses */
  if (alpha == 1.0)
    return CSR_SUCCESS;
  if (alpha == 0.0) /* zero overwrites: NaN does not survive */
    return csri_omp_fill(ctx, 0.0, x);
  int64_t n = x->n;
  if (x->value_type == CSR_F64) {
    double *restrict v = x->data;
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (n > SERIAL_BELOW)
    for (int64_t i = 0; i < n; i++)
      v[i] = alpha * v[i];
  } else {
    float *restrict v = x->data;
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (n > SERIAL_BELOW)
    for (int64_t i = 0; i < n; i++)
      v[i] = (float)(alpha * v[i]);
  }
  return CSR_SUCCESS;
}

csr_status csri_omp_fill(csr_context *ctx, double alpha, csr_vector *x) {
  (void)ctx; /* used only by OpenMP clauses */
  int64_t n = x->n;
  if (x->value_type == CSR_F64) {
    double *restrict v = x->data;
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (n > SERIAL_BELOW)
    for (int64_t i = 0; i < n; i++)
      v[i] = alpha;
  } else {
    float *restrict v = x->data;
    float a = (float)alpha;
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (n > SERIAL_BELOW)
    for (int64_t i = 0; i < n; i++)
      v[i] = a;
  }
  return CSR_SUCCESS;
}

csr_status csri_omp_copy(csr_context *ctx, const csr_vector *x, csr_vector *y) {
  (void)ctx; /* used only by OpenMP clauses */
  if (x->data == y->data || x->n == 0)
    return CSR_SUCCESS;
  size_t elem = csri_value_size(x->value_type);
  int64_t n = x->n, chunks = csri_reduce_chunks(n);
  const char *src = x->data;
  char *dst = y->data;
  /* memcpy per chunk: the C library's copy (non-temporal stores when large) on each thread. */
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (chunks > 1)
  for (int64_t c = 0; c < chunks; c++) {
    int64_t b = csri_chunk_begin(n, chunks, c), e = csri_chunk_begin(n, chunks, c + 1);
    memcpy(dst + (size_t)b * elem, src + (size_t)b * elem, (size_t)(e - b) * elem);
  }
  return CSR_SUCCESS;
}
