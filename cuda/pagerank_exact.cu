/* SPDX-License-Identifier: BSD-3-Clause */
/* The distributed PageRank's update on the device (src/core/backend.h, csri_pagerank_exact): one
 * pass over a rank's pages writes the ranks r and the next spread x and sums the L1 change and
 * the dangling ranks exactly, a warp at a time (cuda/exact_warp.cuh). Every operation is rounded
 * on its own (__dmul_rn, __dadd_rn: no fused multiply-add), in the order of the CPU's
 * src/kernels/pagerank_exact.c, so r, x and the accumulators are the CPU backends' bits. */
#include "exact_warp.cuh"

namespace {

using namespace csri_exact_warp;

/* Entry i's update, with its two terms into t: [0] the change |next - r_i| (0 in the first
 * iteration), [1] next when page i is dangling, else 0. */
template <typename T> struct update_terms {
  double *r;
  const T *y; /* NULL: the first iteration */
  T *x;
  const double *p, *inv_w;
  double d, keep, base, uniform; /* keep = 1 - d, rounded as the CPU rounds it */
  int scale;

  __device__ void operator()(int64_t i, word *acc, double (&t)[CSRI_PAGERANK_EXACT_SUMS]) const {
    double next = uniform;
    if (y != NULL) {
      const double pulled = __dmul_rn(d, __dadd_rn((double)y[i], base));
      next = __dadd_rn(pulled, __dmul_rn(keep, p != NULL ? p[i] : uniform));
    }
    next = (double)(T)next; /* the ranks' type */
    t[0] = y != NULL ? keep_finite(acc, fabs(__dsub_rn(next, r[i]))) : 0.0;
    r[i] = next;
    const double w = inv_w[i];
    t[1] = w == 0.0 ? keep_finite(acc + WORDS, next) : 0.0;
    x[i] = (T)(scale ? __dmul_rn(next, w) : next);
  }
};

/* One launch over entries [begin, begin + n). */
template <typename T>
csr_status launch(csr_context *ctx, const csri_pagerank_exact *u, int64_t begin, int64_t n,
                  word *words, csri_exact_acc *acc) {
  update_terms<T> terms = {u->r + begin,
                           u->y ? (const T *)u->y->data + begin : NULL,
                           (T *)u->x->data + begin,
                           u->p ? u->p + begin : NULL,
                           u->inv_w + begin,
                           u->d,
                           1.0 - u->d,
                           u->base,
                           u->uniform,
                           u->scale};
  return run_exact<CSRI_PAGERANK_EXACT_SUMS>(ctx, n, terms, words, acc, "PageRank update kernel");
}

} // namespace

extern "C" csr_status csri_cuda_pagerank_exact_update(csr_context *ctx,
                                                      const csri_pagerank_exact *u,
                                                      csri_exact_acc *acc) {
  const bool f64 = u->x->value_type == CSR_F64;
  return exact_warp_launches(ctx, CSRI_PAGERANK_EXACT_SUMS, u->x->n,
                             [&](int64_t begin, int64_t n, word *words) {
                               return f64 ? launch<double>(ctx, u, begin, n, words, acc)
                                          : launch<float>(ctx, u, begin, n, words, acc);
                             });
}
