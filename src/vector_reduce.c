/* x . y, sqrt(sum x_i^2), sum |x_i|, max |x_i|: checks and dispatch (all summed in double). */
#include "ops_impl.h"

#include <math.h>

/* LAPACK 3.10 dnrm2's final step: rescale the medium sum into the big or small one. */
double csri_nrm2_finish(csri_nrm2_acc acc) {
  if (acc.big > 0) { /* small squares are negligible next to a big one */
    if (acc.medium > 0 || isnan(acc.medium))
      acc.big += (acc.medium * 0x1p-538) * 0x1p-538;
    return sqrt(acc.big) * 0x1p538;
  }
  if (acc.small > 0) {
    if (!(acc.medium > 0 || isnan(acc.medium)))
      return sqrt(acc.small) * 0x1p-537;
    double m = sqrt(acc.medium), s = sqrt(acc.small) * 0x1p-537;
    double hi = m > s ? m : s, lo = m > s ? s : m;
    return hi * sqrt(1 + (lo / hi) * (lo / hi));
  }
  return sqrt(acc.medium);
}

/* Runs a reduction on the backend for x's location; `which` picks the operation. */
static csr_status reduce(csr_context *ctx, csri_reduction which, const csr_vector *x,
                         const csr_vector *y, double *result) {
  csr_backend backend;
  csr_status status = csri_backend_at(ctx, x->location, &backend);
  CSRI_TRY(status);
  int omp = backend == CSR_BACKEND_OMP;
  if (backend == CSR_BACKEND_CUDA) {
    CSRI_TRY(csri_cuda_reduce(ctx, which, x, y, result));
  } else {
    switch (which) {
    case CSRI_DOT: *result = omp ? csri_omp_dot(ctx, x, y) : csri_ref_dot(x, y); break;
    case CSRI_NRM2: *result = omp ? csri_omp_nrm2(ctx, x) : csri_ref_nrm2(x); break;
    case CSRI_NRM1: *result = omp ? csri_omp_nrm1(ctx, x) : csri_ref_nrm1(x); break;
    default: *result = omp ? csri_omp_nrminf(ctx, x) : csri_ref_nrminf(x); break;
    }
  }
  csri_set_last_backend(ctx, backend);
  return status;
}

csr_status csr_dot(csr_context *ctx, const csr_vector *x, const csr_vector *y, double *result) {
  CSRI_CHECK_NULL(ctx, result);
  CSRI_TRY(csri_check_vector_pair(ctx, x, y));
  return reduce(ctx, CSRI_DOT, x, y, result);
}

static csr_status norm(csr_context *ctx, csri_reduction which, const csr_vector *x,
                       double *result) {
  CSRI_CHECK_NULL(ctx, result);
  CSRI_TRY(csri_check_vector(ctx, x, "x"));
  return reduce(ctx, which, x, NULL, result);
}

csr_status csr_nrm2(csr_context *ctx, const csr_vector *x, double *result) {
  return norm(ctx, CSRI_NRM2, x, result);
}

csr_status csr_nrm1(csr_context *ctx, const csr_vector *x, double *result) {
  return norm(ctx, CSRI_NRM1, x, result);
}

csr_status csr_nrminf(csr_context *ctx, const csr_vector *x, double *result) {
  return norm(ctx, CSRI_NRMINF, x, result);
}
