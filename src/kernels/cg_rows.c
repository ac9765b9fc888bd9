/* SPDX-License-Identifier: BSD-3-Clause */
/* CG's fused step over a range of rows (src/core/backend.h): r' = r - alpha q, x += alpha p,
 * z' = d .* r', p' = z' + beta p in one sweep, then q' = A p' with the five sums in a second.
 * The reference backend runs each half over all rows, the OpenMP backend chunk by chunk; the same
 * for the Jacobi diagonal d = 1 / diag(A). */
#include "kernels/rows.h"

#include <math.h>

static double at(const csr_vector *v, int64_t i) {
  return v->value_type == CSR_F64 ? ((const double *)v->data)[i] : ((const float *)v->data)[i];
}

/* Stores value rounded to v's type, and returns what was stored. */
static double put(csr_vector *v, int64_t i, double value) {
  if (v->value_type == CSR_F64)
    return ((double *)v->data)[i] = value;
  return ((float *)v->data)[i] = (float)value;
}

/* Rounds as put would, without storing. */
static double round_to(const csr_vector *v, double value) {
  return v->value_type == CSR_F64 ? value : (double)(float)value;
}

/* The all-F64 case (the common one) as plain loops the compiler can vectorise; the general
 * code below serves F32 and gives the same results for F64 (the same operations, in the same
 * order). */
static int all_f64(const csri_cg_vectors *v) {
  return v->x->value_type == CSR_F64;
}

static void update_rows_f64(double alpha, double beta, const csri_cg_vectors *v, int64_t begin,
                            int64_t end) {
  const double *restrict r = v->r->data, *restrict q = v->q->data, *restrict p = v->p->data;
  const double *restrict d = v->d ? v->d->data : NULL;
  double *restrict x = v->x->data, *restrict rn = v->r_next->data, *restrict pn = v->p_next->data;
  for (int64_t i = begin; i < end; i++) {
    double ri = alpha == 0.0 ? r[i] : r[i] + -alpha * q[i];
    if (alpha != 0.0)
      x[i] = x[i] + alpha * p[i];
    double zi = d ? d[i] * ri : ri;
    rn[i] = ri;
    pn[i] = beta == 0.0 ? zi : zi + beta * p[i];
  }
}

/* A zero coefficient drops its term (stale or NaN q and p are never read then), as on the GPU. */
void csri_cg_update_rows(double alpha, double beta, const csri_cg_vectors *v, int64_t begin,
                         int64_t end) {
  if (all_f64(v)) {
    update_rows_f64(alpha, beta, v, begin, end);
    return;
  }
  for (int64_t i = begin; i < end; i++) {
    double rn = alpha == 0.0 ? at(v->r, i) : put(v->r_next, i, at(v->r, i) + -alpha * at(v->q, i));
    if (alpha == 0.0)
      put(v->r_next, i, rn);
    else
      put(v->x, i, at(v->x, i) + alpha * at(v->p, i));
    double zn = v->d ? round_to(v->x, at(v->d, i) * rn) : rn;
    put(v->p_next, i, beta == 0.0 ? zn : zn + beta * at(v->p, i));
  }
}

/* Row i of A times p', summed in stored order in double. */
static double row_product(const csr_matrix *A, const csri_packed *packed, const csr_vector *p,
                          int64_t i) {
  double sum = 0.0;
  for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
    double pj = at(p, csri_entry_column(A, packed, k));
    sum += A->value_type == CSR_PATTERN ? pj
           : A->value_type == CSR_F64   ? ((const double *)A->values)[k] * pj
                                        : (double)((const float *)A->values)[k] * pj;
  }
  return sum;
}

static void product_rows_f64(const csr_matrix *A, const csri_packed *packed,
                             const csri_cg_vectors *v, int64_t begin, int64_t end, double *sums) {
  const int64_t *restrict off = A->row_offsets;
  const int32_t *restrict col = A->col_indices;
  const double *restrict a = A->value_type == CSR_F64 ? A->values : NULL;
  const double *restrict p = v->p_next->data, *restrict r = v->r_next->data;
  const double *restrict d = v->d ? v->d->data : NULL;
  double *restrict q = v->q_next->data;
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0;
  for (int64_t i = begin; i < end; i++) {
    double sum = 0.0;
    if (packed != NULL) /* the same terms in the same order, the columns decoded */
      for (int64_t k = off[i]; k < off[i + 1]; k++)
        sum += (a ? a[k] : 1.0) * p[csri_entry_column(A, packed, k)];
    else if (a)
      for (int64_t k = off[i]; k < off[i + 1]; k++)
        sum += a[k] * p[col[k]];
    else
      for (int64_t k = off[i]; k < off[i + 1]; k++)
        sum += p[col[k]];
    q[i] = sum;
    double ri = r[i], zi = d ? d[i] * ri : ri;
    s0 += ri * ri;
    s1 += ri * zi;
    s2 += p[i] * sum;
    s3 += zi * sum;
    s4 += d ? d[i] * sum * sum : sum * sum;
  }
  sums[0] += s0;
  sums[1] += s1;
  sums[2] += s2;
  sums[3] += s3;
  sums[4] += s4;
}

void csri_cg_product_rows(const csr_matrix *A, const csri_packed *packed, const csri_cg_vectors *v,
                          int64_t begin, int64_t end, double *sums) {
  if (all_f64(v)) {
    product_rows_f64(A, packed, v, begin, end, sums);
    return;
  }

  for (int64_t i = begin; i < end; i++) {
    double q = put(v->q_next, i, row_product(A, packed, v->p_next, i));
    double r = at(v->r_next, i), p = at(v->p_next, i), d = v->d ? at(v->d, i) : 1.0;
    double z = v->d ? round_to(v->x, d * r) : r;
    sums[0] += r * r;
    sums[1] += r * z;
    sums[2] += p * q;
    sums[3] += z * q;
    sums[4] += v->d ? d * q * q : q * q;
  }
}

double csri_row_diagonal(const csr_matrix *A, int64_t i, int64_t column, int *found) {
  double a = 0.0;
  *found = 0;
  for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
    if (A->col_indices[k] == column) {
      *found = 1;
      a += A->value_type == CSR_PATTERN ? 1.0
           : A->value_type == CSR_F64   ? ((const double *)A->values)[k]
                                        : (double)((const float *)A->values)[k];
    }
  return a;
}

int64_t csri_jacobi_rows(const csr_matrix *A, csr_vector *d, int64_t r0, int64_t r1, int *why,
                         double *value) {
  for (int64_t i = r0; i < r1; i++) {
    int found = 0;
    double a = csri_row_diagonal(A, i, i, &found);
    *why = !found ? 0 : !isfinite(a) ? 1 : !(a > 0.0) ? 2 : -1;
    if (*why >= 0) {
      *value = a;
      return i;
    }
    put(d, i, 1.0 / a);
  }
  return -1;
}
