/* SPDX-License-Identifier: BSD-3-Clause */
/* Backend tier of the vector operations: the backend of argv[1] (ref, omp, cuda; operands placed
 * where it runs) against the reference for n = 0, 1, small, chunk and block edges and large n;
 * overflow-safe nrm2; NaN; errors; determinism. */
#include "testing.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static csr_backend backend;
static const int64_t sizes[] = {0,    1,    2,    5,    255,    256,          257,
                                4095, 4096, 4097, 8193, 100003, (1 << 20) + 7};

static csr_vector *clone(csr_context *ctx, const csr_vector *v) {
  csr_vector *c = NULL;
  CHECK_OK(ctx, csr_vector_clone(ctx, v, &c, CSR_HOST));
  return c;
}

static int same_bits(const csr_vector *a, const csr_vector *b) {
  size_t bytes = (size_t)a->n * (a->value_type == CSR_F64 ? 8 : 4);
  return a->n == b->n && (bytes == 0 || memcmp(a->data, b->data, bytes) == 0);
}

static void set(csr_vector *v, int64_t i, double value) {
  if (v->value_type == CSR_F64)
    ((double *)v->data)[i] = value;
  else
    ((float *)v->data)[i] = (float)value;
}

/* v's value, brought to the host into h (same size and type). */
static void fetch(csr_vector *h, const csr_vector *v) {
  csrt_set_vector(h, v);
}

/* Element-wise operations compute each entry by the same formula (in double, rounded once for
 * F32) on every backend (the GPU's without fused multiply-adds): results must match the
 * reference bit for bit. */
static void elementwise(csr_context *ctx, csr_context *ref, csr_vector *x, csr_vector *y0) {
  const double ab[][2] = {{1.5, -0.25}, {-2.0, 0.0}, {0.0, 3.0}, {1.0, 1.0}};
  csr_vector *xp = csrt_place_vector(backend, x), *got = clone(ref, y0);
  for (int c = 0; c < 4; c++) {
    csr_vector *y = csrt_place_vector(backend, y0), *yref = clone(ref, y0);
    CHECK_OK(ctx, csr_axpby(ctx, ab[c][0], xp, ab[c][1], y));
    CHECK_OK(ref, csr_axpby(ref, ab[c][0], x, ab[c][1], yref));
    fetch(got, y);
    CHECK(same_bits(got, yref));
    CHECK_OK(ctx, csr_axpy(ctx, ab[c][0], xp, y));
    CHECK_OK(ref, csr_axpy(ref, ab[c][0], x, yref));
    fetch(got, y);
    CHECK(same_bits(got, yref));
    CHECK_OK(ctx, csr_scale(ctx, ab[c][1], y));
    CHECK_OK(ref, csr_scale(ref, ab[c][1], yref));
    fetch(got, y);
    CHECK(same_bits(got, yref));
    CHECK_OK(ctx, csr_fill(ctx, ab[c][0], y));
    CHECK_OK(ref, csr_fill(ref, ab[c][0], yref));
    fetch(got, y);
    CHECK(same_bits(got, yref));
    CHECK_OK(ctx, csr_copy(ctx, xp, y));
    fetch(got, y);
    CHECK(same_bits(got, x));
    csr_vector_free(&y);
    csr_vector_free(&yref);
  }
  /* A zero coefficient drops its term: NaN in the dropped operand does not propagate. */
  csr_vector *xn = clone(ref, x), *yn = clone(ref, y0);
  csr_fill(ref, NAN, xn);
  csr_fill(ref, NAN, yn);
  csr_vector *xnp = csrt_place_vector(backend, xn), *ynp = csrt_place_vector(backend, yn);
  csr_vector *yp = csrt_place_vector(backend, y0);
  CHECK_OK(ctx, csr_axpby(ctx, 2.0, xp, 0.0, ynp)); /* y = 2x */
  CHECK_OK(ctx, csr_axpby(ctx, 0.0, xnp, 1.0, yp)); /* y unchanged */
  fetch(got, yp);
  CHECK(same_bits(got, y0));
  CHECK_OK(ctx, csr_axpy(ctx, 0.0, xnp, yp));
  fetch(got, yp);
  CHECK(same_bits(got, y0));
  CHECK_OK(ctx, csr_fill(ctx, NAN, yp));
  CHECK_OK(ctx, csr_scale(ctx, 0.0, yp)); /* zeros */
  fetch(got, yp);
  fetch(yn, ynp);
  for (int64_t i = 0; i < x->n; i++) {
    CHECK(csrt_value(yn->data, yn->value_type, i) == 2 * csrt_value(x->data, x->value_type, i));
    CHECK(csrt_value(got->data, got->value_type, i) == 0.0);
  }
  csr_vector *all[] = {xn, yn, xnp, ynp, yp, xp, got};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++)
    csr_vector_free(&all[k]);
}

/* Reductions: |r - rref| <= c * eps * s with eps = 2^-53 (all sums are in double), c = 2(n + 2)
 * (summation of n terms in any order, both results) and s the sum of the magnitudes; nrm2
 * relative to the norm itself; nrminf exact. 20 runs (and on OpenMP every thread count) must
 * give the same bits. */
static void reductions(csr_context *ctx, csr_context *ref, csr_vector *xh, csr_vector *yh) {
  csr_vector *x = csrt_place_vector(backend, xh), *y = csrt_place_vector(backend, yh);
  int64_t n = x->n;
  double eps = 0x1p-53, c = 2.0 * (double)(n + 2), dot_scale = 0.0, abs_sum = 0.0;
  for (int64_t i = 0; i < n; i++) {
    dot_scale +=
        fabs(csrt_value(xh->data, xh->value_type, i) * csrt_value(yh->data, yh->value_type, i));
    abs_sum += fabs(csrt_value(xh->data, xh->value_type, i));
  }
  double r[4], w[4];
  CHECK_OK(ctx, csr_dot(ctx, x, y, &r[0]));
  CHECK_OK(ctx, csr_nrm1(ctx, x, &r[1]));
  CHECK_OK(ctx, csr_nrm2(ctx, x, &r[2]));
  CHECK_OK(ctx, csr_nrminf(ctx, x, &r[3]));
  CHECK_OK(ref, csr_dot(ref, xh, yh, &w[0]));
  CHECK_OK(ref, csr_nrm1(ref, xh, &w[1]));
  CHECK_OK(ref, csr_nrm2(ref, xh, &w[2]));
  CHECK_OK(ref, csr_nrminf(ref, xh, &w[3]));
  CHECK(fabs(r[0] - w[0]) <= c * eps * dot_scale);
  CHECK(fabs(r[1] - w[1]) <= c * eps * abs_sum);
  CHECK(fabs(r[2] - w[2]) <= c * eps * w[2]);
  CHECK(r[3] == w[3]);
  if (n == 0)
    CHECK(r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 0);
  int runs = backend == CSR_BACKEND_OMP ? 27 : 20; /* omp: runs 20..26 on 1..7 threads */
  for (int run = 1; run < runs; run++) {
    if (run >= 20)
      csr_context_set_threads(ctx, run - 19);
    double s[4];
    CHECK_OK(ctx, csr_dot(ctx, x, y, &s[0]));
    CHECK_OK(ctx, csr_nrm1(ctx, x, &s[1]));
    CHECK_OK(ctx, csr_nrm2(ctx, x, &s[2]));
    CHECK_OK(ctx, csr_nrminf(ctx, x, &s[3]));
    CHECK(memcmp(s, r, sizeof s) == 0);
  }
  csr_context_set_threads(ctx, 0);
  csr_vector_free(&x);
  csr_vector_free(&y);
}

/* NaN anywhere (first, middle, last) reaches every reduction; nrminf stays NaN after it. */
static void nan_handling(csr_context *ctx, csr_context *ref, csr_vector *x0, csr_vector *yh) {
  int64_t n = x0->n, where[3] = {0, n / 2, n - 1};
  csr_vector *y = csrt_place_vector(backend, yh);
  for (int w = 0; w < 3; w++) {
    csr_vector *xh = clone(ref, x0);
    set(xh, where[w], NAN);
    if (w == 0 && n > 1)
      set(xh, n - 1, 1e300); /* a larger entry after the NaN must not replace it */
    csr_vector *x = csrt_place_vector(backend, xh);
    double d, n1, n2, ni;
    CHECK_OK(ctx, csr_dot(ctx, x, y, &d));
    CHECK_OK(ctx, csr_nrm1(ctx, x, &n1));
    CHECK_OK(ctx, csr_nrm2(ctx, x, &n2));
    CHECK_OK(ctx, csr_nrminf(ctx, x, &ni));
    CHECK(isnan(d) && isnan(n1) && isnan(n2) && isnan(ni));
    csr_vector_free(&x);
    csr_vector_free(&xh);
  }
  csr_vector_free(&y);
}

/* ||h||_2 on the backend under test (h placed there). */
static double nrm2_of(csr_context *ctx, const csr_vector *h) {
  csr_vector *v = csrt_place_vector(backend, h);
  double r = NAN;
  CHECK_OK(ctx, csr_nrm2(ctx, v, &r));
  csr_vector_free(&v);
  return r;
}

/* nrm2 never overflows or underflows in between: entries near 1e200, 1e-200, DBL_MAX. */
static void nrm2_scaling(csr_context *ctx, csr_context *ref) {
  const int64_t n = 10000;
  csr_vector *x = NULL, *f = NULL;
  double r;
  CHECK_OK(ref, csr_vector_create(ref, &x, n, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_vector_create(ref, &f, n, CSR_F32, CSR_HOST));
  csr_fill(ref, 1e200, x);
  r = nrm2_of(ctx, x);
  CHECK(fabs(r - 1e202) <= 1e-13 * 1e202); /* sqrt(10000) = 100 */
  csr_fill(ref, -1e-200, x);
  r = nrm2_of(ctx, x);
  CHECK(fabs(r - 1e-198) <= 1e-13 * 1e-198);
  csr_fill(ref, 1e30, f); /* F32: squares overflow float, not the double sums */
  r = nrm2_of(ctx, f);
  CHECK(fabs(r - 100.0 * (double)1e30f) <= 1e-13 * 1e32);
  csr_fill(ref, 0.0, x); /* mixed scales: 3e-300, 4e-300 -> 5e-300; with 3, 4 -> 5 */
  set(x, 10, 3e-300);
  set(x, 9000, 4e-300);
  r = nrm2_of(ctx, x);
  CHECK(fabs(r - 5e-300) <= 1e-15 * 5e-300);
  set(x, 20, 3.0);
  set(x, 8000, 4.0);
  CHECK(nrm2_of(ctx, x) == 5.0);
  set(x, 30, 1e200); /* 1e200 swamps the rest */
  CHECK(nrm2_of(ctx, x) == 1e200);
  set(x, 31, DBL_MAX / 2); /* sqrt(DBL_MAX^2/4 + 1e400): finite, about DBL_MAX/2 */
  r = nrm2_of(ctx, x);
  CHECK(isfinite(r) && fabs(r - DBL_MAX / 2) <= 1e-15 * DBL_MAX);
  set(x, 32, INFINITY);
  CHECK(nrm2_of(ctx, x) == INFINITY);
  set(x, 5000, NAN); /* NaN beats infinity */
  CHECK(isnan(nrm2_of(ctx, x)));
  csr_vector_free(&x);
  csr_vector_free(&f);
}

/* Argument errors are found before any backend runs: the same statuses everywhere. */
static void errors(csr_context *ctx) {
  csr_vector *x = NULL, *y = NULL, *f = NULL, *s = NULL;
  double r, buffer[8] = {0};
  csr_location at = csrt_location(backend);
  CHECK_OK(ctx, csr_vector_create(ctx, &x, 4, CSR_F64, at));
  CHECK_OK(ctx, csr_vector_create(ctx, &y, 4, CSR_F64, at));
  CHECK_OK(ctx, csr_vector_create(ctx, &f, 4, CSR_F32, at));
  CHECK_OK(ctx, csr_vector_create(ctx, &s, 3, CSR_F64, at));
  CHECK_STATUS(ctx, csr_dot(ctx, NULL, y, &r), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_dot(ctx, x, y, NULL), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_nrm2(ctx, NULL, &r), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_nrminf(ctx, x, NULL), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_scale(ctx, 2, NULL), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_fill(ctx, 2, NULL), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_copy(ctx, x, NULL), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_dot(ctx, x, s, &r), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_STATUS(ctx, csr_axpy(ctx, 1, x, s), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_STATUS(ctx, csr_copy(ctx, s, x), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_STATUS(ctx, csr_dot(ctx, x, f, &r), CSR_ERR_TYPE_MISMATCH);
  CHECK_STATUS(ctx, csr_axpby(ctx, 1, f, 2, y), CSR_ERR_TYPE_MISMATCH);
  CHECK_STATUS(ctx, csr_copy(ctx, x, f), CSR_ERR_TYPE_MISMATCH);
  csr_vector pattern = {4, buffer, CSR_PATTERN, CSR_HOST, 0};
  CHECK_STATUS(ctx, csr_nrm1(ctx, &pattern, &r), CSR_ERR_INVALID_VALUE);
  /* y shifted by one element over x: partial overlap is rejected (before any memory is read, so
   * a host buffer serves every backend); the same array is fine. */
  csr_vector a = {4, buffer, CSR_F64, at, 0}, b = {4, buffer + 1, CSR_F64, at, 0};
  CHECK_STATUS(ctx, csr_axpy(ctx, 1, &a, &b), CSR_ERR_INVALID_VALUE);
  CHECK_STATUS(ctx, csr_copy(ctx, &a, &b), CSR_ERR_INVALID_VALUE);
  CHECK_OK(ctx, csr_fill(ctx, 1.0, x));
  CHECK_OK(ctx, csr_axpby(ctx, 2, x, 3, x)); /* x = 2x + 3x = 5 */
  CHECK_OK(ctx, csr_nrminf(ctx, x, &r));
  CHECK(r == 5.0);
  /* Operands in two places; descriptors only (no device needed: the location checks come first
   * and the host data is never read). */
  csr_location other = at == CSR_HOST ? CSR_DEVICE : CSR_HOST;
  csr_vector d = {4, buffer, CSR_F64, other, 0}, e = {4, buffer + 4, CSR_F64, other, 0};
  CHECK_STATUS(ctx, csr_dot(ctx, x, &d, &r), CSR_ERR_LOCATION_MISMATCH);
  CHECK_STATUS(ctx, csr_axpy(ctx, 1, &d, y), CSR_ERR_LOCATION_MISMATCH);
  if (backend != CSR_BACKEND_CUDA) {
    /* All on the device, with a context that insists on a CPU backend: refused, named. */
    CHECK_STATUS(ctx, csr_dot(ctx, &d, &e, &r), CSR_ERR_LOCATION_MISMATCH);
    CHECK(strstr(csr_context_last_error(ctx), "need the CUDA backend") != NULL);
    CHECK_STATUS(ctx, csr_nrm2(ctx, &d, &r), CSR_ERR_LOCATION_MISMATCH);
    CHECK_STATUS(ctx, csr_scale(ctx, 2, &d), CSR_ERR_LOCATION_MISMATCH);
    CHECK_STATUS(ctx, csr_fill(ctx, 2, &d), CSR_ERR_LOCATION_MISMATCH);
    if (!csr_backend_available(CSR_BACKEND_CUDA)) /* copy is the transfer: CUDA backend */
      CHECK_STATUS(ctx, csr_copy(ctx, x, &d), CSR_ERR_NOT_COMPILED);
  } else {
    /* Host operands with a context that asks for CUDA: the CPU runs them, and says so. */
    csr_vector *h = NULL;
    CHECK_OK(ctx, csr_vector_create(ctx, &h, 4, CSR_F64, CSR_HOST));
    CHECK_STATUS(ctx, csr_fill(ctx, 2, h), CSR_INFO_DECLINED);
    CHECK(csr_context_last_backend(ctx) != CSR_BACKEND_CUDA);
    csr_vector_free(&h);
  }
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_vector_free(&f);
  csr_vector_free(&s);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  csrt_rng rng = {csrt_seed("backend_vector_ops")};
  csr_context *ctx = csrt_context(backend), *ref = csrt_context(CSR_BACKEND_REF);
  size_t count = sizeof sizes / sizeof sizes[0] - (csrt_quick() ? 1 : 0);
  for (size_t k = 0; k < count; k++)
    for (int t = CSR_F64; t <= CSR_F32; t++) {
      csr_vector *x = csrt_random_vector(ref, sizes[k], (csr_value_type)t, &rng);
      csr_vector *y = csrt_random_vector(ref, sizes[k], (csr_value_type)t, &rng);
      elementwise(ctx, ref, x, y);
      reductions(ctx, ref, x, y);
      if (sizes[k] > 0)
        nan_handling(ctx, ref, x, y);
      csr_vector_free(&x);
      csr_vector_free(&y);
    }
  CHECK(csr_context_last_backend(ctx) == backend);
  nrm2_scaling(ctx, ref);
  errors(ctx);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_vector_ops");
}
