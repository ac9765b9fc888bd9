/* SPDX-License-Identifier: BSD-3-Clause */
/* y = alpha*x + beta*y, x = alpha*x, x = alpha, y = x: serial loops (F32 computed in double). */
#include "ref/ref.h"

#include <string.h>

csr_status csri_ref_axpby(csr_context *ctx, double alpha, const csr_vector *x, double beta,
                          csr_vector *y) {
  (void)ctx;
  for (int64_t i = 0; i < y->n; i++) {
    if (y->value_type == CSR_F64) {
      const double *xv = x->data;
      double *yv = y->data;
      yv[i] = beta == 0.0 ? alpha * xv[i] : alpha * xv[i] + beta * yv[i];
    } else {
      const float *xv = x->data;
      float *yv = y->data;
      yv[i] = (float)(beta == 0.0 ? alpha * xv[i] : alpha * xv[i] + beta * (double)yv[i]);
    }
  }
  return CSR_SUCCESS;
}

csr_status csri_ref_scale(csr_context *ctx, double alpha, csr_vector *x) {
  (void)ctx;
  if (alpha == 1.0)
    return CSR_SUCCESS;
  for (int64_t i = 0; i < x->n; i++) {
    if (x->value_type == CSR_F64) {
      double *v = x->data;
      v[i] = alpha == 0.0 ? 0.0 : alpha * v[i]; /* zero overwrites: NaN does not survive */
    } else {
      float *v = x->data;
      v[i] = alpha == 0.0 ? 0.0f : (float)(alpha * v[i]);
    }
  }
  return CSR_SUCCESS;
}

csr_status csri_ref_fill(csr_context *ctx, double alpha, csr_vector *x) {
  (void)ctx;
  for (int64_t i = 0; i < x->n; i++) {
    if (x->value_type == CSR_F64)
      ((double *)x->data)[i] = alpha;
    else
      ((float *)x->data)[i] = (float)alpha;
  }
  return CSR_SUCCESS;
}

csr_status csri_ref_copy(csr_context *ctx, const csr_vector *x, csr_vector *y) {
  (void)ctx;
  if (x->data != y->data && x->n > 0)
    memcpy(y->data, x->data, (size_t)x->n * csri_value_size(x->value_type));
  return CSR_SUCCESS;
}
