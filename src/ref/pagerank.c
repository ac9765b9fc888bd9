/* PageRank's vector passes, serial: x = r / w with the dangling sum; r = d (y + base) +
 * (1 - d) p with the L1 change, fused with the next spread. Sums in double, in index order. */
#include "../ops_impl.h"

#include <math.h>

double csri_ref_pagerank_spread(const csr_vector *r, const double *inv_w, int scale,
                                csr_vector *x) {
  double dangling = 0.0;
  for (int64_t j = 0; j < r->n; j++) {
    double rj =
        r->value_type == CSR_F64 ? ((const double *)r->data)[j] : ((const float *)r->data)[j];
    if (inv_w[j] == 0.0)
      dangling += rj;
    double xj = scale ? rj * inv_w[j] : rj;
    if (x->value_type == CSR_F64)
      ((double *)x->data)[j] = xj;
    else
      ((float *)x->data)[j] = (float)xj;
  }
  return dangling;
}

double csri_ref_pagerank_update(csr_vector *r, const csr_vector *y, const double *p, double d,
                                double base, const double *inv_w, int scale, csr_vector *x,
                                double *dangling) {
  double change = 0.0, uniform = r->n > 0 ? 1.0 / (double)r->n : 0.0;
  *dangling = 0.0;
  for (int64_t i = 0; i < r->n; i++) {
    double yi =
        y->value_type == CSR_F64 ? ((const double *)y->data)[i] : ((const float *)y->data)[i];
    double next = d * (yi + base) + (1.0 - d) * (p ? p[i] : uniform);
    if (r->value_type == CSR_F64) {
      double *ri = (double *)r->data + i;
      change += fabs(next - *ri);
      *ri = next;
    } else {
      float *ri = (float *)r->data + i, rounded = (float)next;
      change += fabs((double)rounded - (double)*ri);
      *ri = rounded;
      next = rounded; /* the spread reads the stored rank, as a separate pass would */
    }
    *dangling += inv_w[i] == 0.0 ? next : 0.0;
    double xi = scale ? next * inv_w[i] : next;
    if (x->value_type == CSR_F64)
      ((double *)x->data)[i] = xi;
    else
      ((float *)x->data)[i] = (float)xi;
  }
  return change;
}
