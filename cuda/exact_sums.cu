/* SPDX-License-Identifier: BSD-3-Clause */
/* Exact sums on the device: acc_k += sum_i t_k(i), each term t_k(i) rounded to double once
 * (src/core/backend.h, csri_terms), the sum not rounded at all (src/kernels/exact_sum.h), a warp
 * at a time by error-free extraction (cuda/exact_warp.cuh). The result is the same accumulator as
 * the CPU backends' for the same terms, whatever the grid. */
#include "exact_warp.cuh"

namespace {

using namespace csri_exact_warp;

/* The terms of index i (i < n), as src/ref/exact_sums.c forms them, into t[k]; the terms that
 * do not take part in extraction (not finite; exact squares) are added here and left 0. */
template <typename T, csri_terms KIND, bool JACOBI, int K> struct terms_of {
  const T *a, *b, *c, *d;

  __device__ void operator()(int64_t i, word *acc, double (&t)[K]) const {
    const double x = (double)a[i];
    if (KIND == CSRI_TERMS_DOT) {
      t[0] = keep_finite(acc, __dmul_rn(x, (double)b[i]));
    } else if (KIND == CSRI_TERMS_ABS) {
      t[0] = keep_finite(acc, fabs(x));
    } else if (KIND == CSRI_TERMS_SQUARES) {
      const double ax = fabs(x);
      t[0] = 0.0;
      if (ax >= 0x1p-480 && ax <= 0x1p480)
        t[0] = __dmul_rn(x, x);
      else if (!isfinite(x))
        add_special(acc, __dmul_rn(x, x));
      else if (ax != 0.0)
        add_exact_square(acc, x);
    } else { /* CG: r', p', q', d; z' rounded to T as the step stores it */
      const double r = x, p = (double)b[i], q = (double)c[i];
      const double dd = JACOBI ? (double)d[i] : 1.0;
      const double z = JACOBI ? (double)(T)__dmul_rn(dd, r) : r;
      t[0] = keep_finite(acc, __dmul_rn(r, r));
      t[1] = JACOBI ? keep_finite(acc + WORDS, __dmul_rn(r, z)) : 0.0;
      t[2] = keep_finite(acc + 2 * WORDS, __dmul_rn(p, q));
      t[3] = keep_finite(acc + 3 * WORDS, __dmul_rn(z, q));
      t[4] = keep_finite(acc + 4 * WORDS, __dmul_rn(JACOBI ? __dmul_rn(dd, q) : q, q));
    }
  }
};

constexpr const char *KERNEL = "exact sums kernel";

/* One launch over entries [begin, begin + n) of the typed vectors v. */
template <typename T>
csr_status launch(csr_context *ctx, csri_terms kind, int64_t begin, int64_t n,
                  const csr_vector *const *v, word *words, csri_exact_acc *acc) {
  const T *a = (const T *)v[0]->data + begin;
  const T *b = v[1] ? (const T *)v[1]->data + begin : NULL;
  const T *c = kind == CSRI_TERMS_CG ? (const T *)v[2]->data + begin : NULL;
  const T *d = kind == CSRI_TERMS_CG && v[3] ? (const T *)v[3]->data + begin : NULL;
  switch (kind) {
  case CSRI_TERMS_DOT:
    return run_exact<1>(ctx, n, terms_of<T, CSRI_TERMS_DOT, false, 1>{a, b, c, d}, words, acc,
                        KERNEL);
  case CSRI_TERMS_SQUARES:
    return run_exact<1>(ctx, n, terms_of<T, CSRI_TERMS_SQUARES, false, 1>{a, b, c, d}, words, acc,
                        KERNEL);
  case CSRI_TERMS_ABS:
    return run_exact<1>(ctx, n, terms_of<T, CSRI_TERMS_ABS, false, 1>{a, b, c, d}, words, acc,
                        KERNEL);
  default:
    if (d != NULL)
      return run_exact<CSRI_CG_SUMS>(
          ctx, n, terms_of<T, CSRI_TERMS_CG, true, CSRI_CG_SUMS>{a, b, c, d}, words, acc, KERNEL);
    return run_exact<CSRI_CG_SUMS>(
        ctx, n, terms_of<T, CSRI_TERMS_CG, false, CSRI_CG_SUMS>{a, b, c, d}, words, acc, KERNEL);
  }
}

} // namespace

extern "C" csr_status csri_cuda_exact_sums(csr_context *ctx, csri_terms terms,
                                           const csr_vector *const *v, csri_exact_acc *acc) {
  const int sums = terms == CSRI_TERMS_CG ? CSRI_CG_SUMS : 1;
  const bool f64 = v[0]->value_type == CSR_F64;
  return exact_warp_launches(ctx, sums, v[0]->n, [&](int64_t begin, int64_t n, word *words) {
    return f64 ? launch<double>(ctx, terms, begin, n, v, words, acc)
               : launch<float>(ctx, terms, begin, n, v, words, acc);
  });
}
