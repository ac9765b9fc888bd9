/* y = alpha*x + beta*y, x = alpha*x, x = alpha, y = x: serial loops (F32 computed in double). */
#include "../ops_impl.h"

#include <string.h>

void csri_ref_axpby(double alpha, const csr_vector *x, double beta, csr_vector *y) {
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
}

void csri_ref_scale(double alpha, csr_vector *x) {
  if (alpha == 1.0)
    return;
  for (int64_t i = 0; i < x->n; i++) {
    if (x->value_type == CSR_F64) {
      double *v = x->data;
      v[i] = alpha == 0.0 ? 0.0 : alpha * v[i]; /* zero overwrites: NaN does not survive */
    } else {
      float *v = x->data;
      v[i] = alpha == 0.0 ? 0.0f : (float)(alpha * v[i]);
    }
  }
}

void csri_ref_fill(double alpha, csr_vector *x) {
  for (int64_t i = 0; i < x->n; i++) {
    if (x->value_type == CSR_F64)
      ((double *)x->data)[i] = alpha;
    else
      ((float *)x->data)[i] = (float)alpha;
  }
}

void csri_ref_copy(const csr_vector *x, csr_vector *y) {
  if (x->data != y->data && x->n > 0)
    memcpy(y->data, x->data, (size_t)x->n * csri_value_size(x->value_type));
}
