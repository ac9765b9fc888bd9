/* PageRank's vector passes, OpenMP over the fixed chunks of ops_impl.h: x = r / w with the
 * dangling sum; r = d (y + base) + (1 - d) p with the L1 change, fused with the next spread.
 * Partial sums are added in chunk order: the same bits for every thread count (not the serial
 * reference's bits). */
#include "../ops_impl.h"

#include <math.h>

static double spread_chunk(const csr_vector *r, const double *inv_w, int scale, csr_vector *x,
                           int64_t b, int64_t e) {
  double dangling = 0.0;
  if (r->value_type == CSR_F64) {
    const double *restrict rv = r->data;
    double *restrict xv = x->data;
    for (int64_t j = b; j < e; j++) {
      dangling += inv_w[j] == 0.0 ? rv[j] : 0.0;
      xv[j] = scale ? rv[j] * inv_w[j] : rv[j];
    }
  } else {
    const float *restrict rv = r->data;
    float *restrict xv = x->data;
    for (int64_t j = b; j < e; j++) {
      dangling += inv_w[j] == 0.0 ? (double)rv[j] : 0.0;
      xv[j] = (float)(scale ? (double)rv[j] * inv_w[j] : (double)rv[j]);
    }
  }
  return dangling;
}

double csri_omp_pagerank_spread(const csr_context *ctx, const csr_vector *r, const double *inv_w,
                                int scale, csr_vector *x) {
  (void)ctx; /* used only by OpenMP clauses */
  int64_t n = r->n, chunks = csri_reduce_chunks(n);
  double part[CSRI_REDUCE_MAX_CHUNKS];
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (chunks > 1)
  for (int64_t c = 0; c < chunks; c++)
    part[c] = spread_chunk(r, inv_w, scale, x, csri_chunk_begin(n, chunks, c),
                           csri_chunk_begin(n, chunks, c + 1));
  double sum = 0.0;
  for (int64_t c = 0; c < chunks; c++)
    sum += part[c];
  return sum;
}

/* One chunk of the update: returns its L1 change, *dangling its new dangling sum. */
static double update_chunk(csr_vector *r, const csr_vector *y, const double *p, double d,
                           double base, const double *inv_w, int scale, csr_vector *x, int64_t b,
                           int64_t e, double *dangling) {
  double change = 0.0, uniform = 1.0 / (double)r->n, hanging = 0.0;
  for (int64_t i = b; i < e; i++) {
    double yi =
        y->value_type == CSR_F64 ? ((const double *)y->data)[i] : ((const float *)y->data)[i];
    double next = d * (yi + base) + (1.0 - d) * (p ? p[i] : uniform);
    if (r->value_type == CSR_F64) {
      double *ri = (double *)r->data + i;
      change += fabs(next - *ri);
      *ri = next;
      hanging += inv_w[i] == 0.0 ? next : 0.0;
      ((double *)x->data)[i] = scale ? next * inv_w[i] : next;
    } else {
      float *ri = (float *)r->data + i, rounded = (float)next;
      change += fabs((double)rounded - (double)*ri);
      *ri = rounded;
      hanging += inv_w[i] == 0.0 ? (double)rounded : 0.0;
      ((float *)x->data)[i] = (float)(scale ? (double)rounded * inv_w[i] : (double)rounded);
    }
  }
  *dangling = hanging;
  return change;
}

double csri_omp_pagerank_update(const csr_context *ctx, csr_vector *r, const csr_vector *y,
                                const double *p, double d, double base, const double *inv_w,
                                int scale, csr_vector *x, double *dangling) {
  (void)ctx;
  int64_t n = r->n, chunks = csri_reduce_chunks(n);
  double part[CSRI_REDUCE_MAX_CHUNKS], hang[CSRI_REDUCE_MAX_CHUNKS];
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (chunks > 1)
  for (int64_t c = 0; c < chunks; c++)
    part[c] = update_chunk(r, y, p, d, base, inv_w, scale, x, csri_chunk_begin(n, chunks, c),
                           csri_chunk_begin(n, chunks, c + 1), &hang[c]);
  double sum = 0.0;
  *dangling = 0.0;
  for (int64_t c = 0; c < chunks; c++) {
    sum += part[c];
    *dangling += hang[c];
  }
  return sum;
}
