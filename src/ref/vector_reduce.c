/* SPDX-License-Identifier: BSD-3-Clause */
/* x . y, sqrt(sum x_i^2), sum |x_i|, max |x_i|: serial, in index order, accumulated in double. */
#include "kernels/nrm2.h"
#include "ref/ref.h"

#include <math.h>

/* Entry i as a double, whatever the vector's type. */
static double at(const csr_vector *v, int64_t i) {
  return v->value_type == CSR_F64 ? ((const double *)v->data)[i] : ((const float *)v->data)[i];
}

static double dot(const csr_vector *x, const csr_vector *y) {
  double sum = 0.0;
  for (int64_t i = 0; i < x->n; i++)
    sum += at(x, i) * at(y, i);
  return sum;
}

static double nrm2(const csr_vector *x) {
  csri_nrm2_acc acc = {0.0, 0.0, 0.0};
  for (int64_t i = 0; i < x->n; i++)
    csri_nrm2_add(&acc, at(x, i));
  return csri_nrm2_finish(acc);
}

static double nrm1(const csr_vector *x) {
  double sum = 0.0;
  for (int64_t i = 0; i < x->n; i++)
    sum += fabs(at(x, i));
  return sum;
}

static double nrminf(const csr_vector *x) {
  double max = 0.0;
  for (int64_t i = 0; i < x->n; i++) {
    double a = fabs(at(x, i));
    if (a > max || a != a) /* once max is NaN, no comparison replaces it */
      max = a;
  }
  return max;
}

csr_status csri_ref_reduce(csr_context *ctx, csri_reduction which, const csr_vector *x,
                           const csr_vector *y, double *result) {
  (void)ctx;
  switch (which) {
  case CSRI_DOT: *result = dot(x, y); break;
  case CSRI_NRM2: *result = nrm2(x); break;
  case CSRI_NRM1: *result = nrm1(x); break;
  default: *result = nrminf(x); break;
  }
  return CSR_SUCCESS;
}
