/* PageRank's vector passes over a range of pages: x = r / w with the dangling sum; r = d (y +
 * base) + (1 - d) p with the L1 change, fused with the next spread. Sums in double, in index
 * order. The reference backend runs them over all pages, the OpenMP backend chunk by chunk. */
#include "kernels/rows.h"

#include <math.h>

double csri_pagerank_spread_rows(const csr_vector *r, const double *inv_w, int scale, csr_vector *x,
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

double csri_pagerank_update_rows(csr_vector *r, const csr_vector *y, const double *p, double d,
                                 double base, const double *inv_w, int scale, csr_vector *x,
                                 int64_t b, int64_t e, double *dangling) {
  double change = 0.0, uniform = r->n > 0 ? 1.0 / (double)r->n : 0.0, hanging = 0.0;
  for (int64_t i = b; i < e; i++) {
    double yi =
        y->value_type == CSR_F64 ? ((const double *)y->data)[i] : ((const float *)y->data)[i];
    double next = d * (yi + base) + (1.0 - d) * (p ? p[i] : uniform);
    if (r->value_type == CSR_F64) { /* x has r's type */
      double *ri = (double *)r->data + i;
      change += fabs(next - *ri);
      *ri = next;
      hanging += inv_w[i] == 0.0 ? next : 0.0;
      ((double *)x->data)[i] = scale ? next * inv_w[i] : next;
    } else { /* the spread reads the stored rank, as a separate pass would */
      float *ri = (float *)r->data + i, rounded = (float)next;
      change += fabs((double)rounded - (double)*ri);
      *ri = rounded;
      hanging += inv_w[i] == 0.0 ? (double)rounded : 0.0;
      ((float *)x->data)[i] = (float)(scale ? (double)rounded * inv_w[i] : (double)rounded);
    }
  }
  *dangling = hanging; /* summed in a local: a store through the pointer each step was slower */
  return change;
}
