/* SPDX-License-Identifier: BSD-3-Clause */
/* x . y, sqrt(sum x_i^2), sum |x_i|, max |x_i|: OpenMP over fixed chunks (src/omp/partition.h), in
 * double. Chunk bounds depend on n only and partials are added in chunk order: the same bits for
 * every thread count and every run (not the same bits as the serial ref, which sums in one sweep).
 */
#include "kernels/nrm2.h"
#include "omp/omp.h"

#include <math.h>

static double at(const void *v, csr_value_type type, int64_t i) {
  return type == CSR_F64 ? ((const double *)v)[i] : ((const float *)v)[i];
}

/* Four accumulators (lane i mod 4) break the add latency chain; the pattern is fixed. */
static double dot_chunk(const csr_vector *x, const csr_vector *y, int64_t b, int64_t e) {
  double s[4] = {0.0, 0.0, 0.0, 0.0};
  int64_t i = b;
  if (x->value_type == CSR_F64) {
    const double *restrict xv = x->data, *restrict yv = y->data;
    for (; i + 4 <= e; i += 4)
      for (int l = 0; l < 4; l++)
        s[l] += xv[i + l] * yv[i + l];
  } else {
    const float *restrict xv = x->data, *restrict yv = y->data;
    for (; i + 4 <= e; i += 4)
      for (int l = 0; l < 4; l++)
        s[l] += (double)xv[i + l] * (double)yv[i + l];
  }
  for (; i < e; i++)
    s[0] += at(x->data, x->value_type, i) * at(y->data, y->value_type, i);
  return (s[0] + s[1]) + (s[2] + s[3]);
}

static double nrm1_chunk(const csr_vector *x, int64_t b, int64_t e) {
  double s[4] = {0.0, 0.0, 0.0, 0.0};
  int64_t i = b;
  for (; i + 4 <= e; i += 4)
    for (int l = 0; l < 4; l++)
      s[l] += fabs(at(x->data, x->value_type, i + l));
  for (; i < e; i++)
    s[0] += fabs(at(x->data, x->value_type, i));
  return (s[0] + s[1]) + (s[2] + s[3]);
}

static double dot(const csr_context *ctx, const csr_vector *x, const csr_vector *y) {
  (void)ctx; /* used only by OpenMP clauses */
  int64_t n = x->n, chunks = csri_reduce_chunks(n);
  double part[CSRI_REDUCE_MAX_CHUNKS];
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (chunks > 1)
  for (int64_t c = 0; c < chunks; c++)
    part[c] = dot_chunk(x, y, csri_chunk_begin(n, chunks, c), csri_chunk_begin(n, chunks, c + 1));
  double sum = 0.0;
  for (int64_t c = 0; c < chunks; c++)
    sum += part[c];
  return sum;
}

static double nrm1(const csr_context *ctx, const csr_vector *x) {
  (void)ctx; /* used only by OpenMP clauses */
  int64_t n = x->n, chunks = csri_reduce_chunks(n);
  double part[CSRI_REDUCE_MAX_CHUNKS];
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (chunks > 1)
  for (int64_t c = 0; c < chunks; c++)
    part[c] = nrm1_chunk(x, csri_chunk_begin(n, chunks, c), csri_chunk_begin(n, chunks, c + 1));
  double sum = 0.0;
  for (int64_t c = 0; c < chunks; c++)
    sum += part[c];
  return sum;
}

static double nrm2(const csr_context *ctx, const csr_vector *x) {
  (void)ctx; /* used only by OpenMP clauses */
  int64_t n = x->n, chunks = csri_reduce_chunks(n);
  csri_nrm2_acc part[CSRI_REDUCE_MAX_CHUNKS];
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (chunks > 1)
  for (int64_t c = 0; c < chunks; c++) {
    csri_nrm2_acc acc = {0.0, 0.0, 0.0};
    for (int64_t i = csri_chunk_begin(n, chunks, c); i < csri_chunk_begin(n, chunks, c + 1); i++)
      csri_nrm2_add(&acc, at(x->data, x->value_type, i));
    part[c] = acc;
  }
  csri_nrm2_acc total = {0.0, 0.0, 0.0};
  for (int64_t c = 0; c < chunks; c++) {
    total.big += part[c].big;
    total.medium += part[c].medium;
    total.small += part[c].small;
  }
  return csri_nrm2_finish(total);
}

static double nrminf(const csr_context *ctx, const csr_vector *x) {
  (void)ctx; /* used only by OpenMP clauses */
  int64_t n = x->n, chunks = csri_reduce_chunks(n);
  double part[CSRI_REDUCE_MAX_CHUNKS];
  int nan[CSRI_REDUCE_MAX_CHUNKS];
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (chunks > 1)
  for (int64_t c = 0; c < chunks; c++) {
    double max = 0.0;
    int seen_nan = 0;
    for (int64_t i = csri_chunk_begin(n, chunks, c); i < csri_chunk_begin(n, chunks, c + 1); i++) {
      double a = fabs(at(x->data, x->value_type, i));
      max = a > max ? a : max; /* branch-free: NaN is tracked apart */
      seen_nan |= a != a;
    }
    part[c] = max;
    nan[c] = seen_nan;
  }
  double max = 0.0;
  for (int64_t c = 0; c < chunks; c++) {
    if (nan[c])
      return NAN;
    max = part[c] > max ? part[c] : max;
  }
  return max;
}

csr_status csri_omp_reduce(csr_context *ctx, csri_reduction which, const csr_vector *x,
                           const csr_vector *y, double *result) {
  switch (which) {
  case CSRI_DOT: *result = dot(ctx, x, y); break;
  case CSRI_NRM2: *result = nrm2(ctx, x); break;
  case CSRI_NRM1: *result = nrm1(ctx, x); break;
  default: *result = nrminf(ctx, x); break;
  }
  return CSR_SUCCESS;
}
