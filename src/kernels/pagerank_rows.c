/* SPDX-License-Identifier: BSD-3-Clause */
/* PageRank's passes over a range of pages: the out-weights w_i (links, or weights summed in
 * stored order) and 1 / w_i; the pull graph's values a_ji / w_j; x = r / w with the dangling
 * sum; r = d (y + base) + (1 - d) p with the L1 change, fused with the next spread. Sums in
 * double, in index order. The reference backend runs them over all pages, the OpenMP backend
 * chunk by chunk. */
#include "kernels/rows.h"

#include <math.h>

/* The weight of stored entry k as a link: its value when weighted, else 1 for a link and 0 for
 * an explicit zero (A(i,j) != 0 is a link; a pattern matrix stores links only). */
static double link_weight(const csr_matrix *A, int weighted, int64_t k) {
  if (A->value_type == CSR_PATTERN)
    return 1.0;
  double a =
      A->value_type == CSR_F64 ? ((const double *)A->values)[k] : ((const float *)A->values)[k];
  return weighted ? a : a != 0.0;
}

void csri_pagerank_weights_rows(const csr_matrix *A, int weighted, double *inv_w, int64_t b,
                                int64_t e, csri_pagerank_weights *found) {
  found->bad_row = -1;
  for (int64_t i = b; i < e; i++) {
    double w = 0.0;
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      double a = link_weight(A, weighted, k);
      if (!(a >= 0.0 && isfinite(a))) {
        *found = (csri_pagerank_weights){found->dangling, found->zeros, i, k, A->col_indices[k], a};
        return;
      }
      found->zeros += link_weight(A, 0, k) == 0.0;
      w += a;
    }
    if (w > 0.0 && !(isfinite(w) && isfinite(1.0 / w))) {
      *found = (csri_pagerank_weights){found->dangling, found->zeros, i, -1, -1, w};
      return;
    }
    inv_w[i] = w > 0.0 ? 1.0 / w : 0.0;
    found->dangling += w == 0.0;
  }
}

void csri_pagerank_pull_rows(const csr_matrix *T, int weighted, const double *inv_w, csr_matrix *M,
                             int64_t b, int64_t e) {
  for (int64_t i = b; i < e; i++) {
    M->row_offsets[i + 1] = T->row_offsets[i + 1];
    for (int64_t k = T->row_offsets[i]; k < T->row_offsets[i + 1]; k++) {
      double v = link_weight(T, weighted, k) * inv_w[T->col_indices[k]];
      M->col_indices[k] = T->col_indices[k];
      if (M->value_type == CSR_F64)
        ((double *)M->values)[k] = v;
      else
        ((float *)M->values)[k] = (float)v;
    }
  }
  if (b == 0 && e > 0)
    M->row_offsets[0] = T->row_offsets[0];
}

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
