/* SPDX-License-Identifier: BSD-3-Clause */
/* The point update of CG's step at index j (r' = r - alpha q, z' = d .* r', p' = z' + beta p),
 * shared by the fused step (cuda/cg_step.cu) and the split one (cuda/cg_step_split.cu) so that
 * both round alike. */
#ifndef CSR_CUDA_CG_POINT_CUH
#define CSR_CUDA_CG_POINT_CUH

#include "reduce.cuh"

/* The new r', z', p' at index j, rounded to T as stored (explicit _rn operations: no fused
 * multiply-add may make one reader's value differ from another's). */
template <typename T, bool JACOBI> struct cg_point {
  const T *r, *q, *p, *d;
  double alpha, beta;

  /* z'_j = d_j r'_j (r'_j itself without the preconditioner). */
  __device__ __forceinline__ static T z_of(const T *d, int64_t j, T rn) {
    return JACOBI ? (T)__dmul_rn((double)__ldg(d + j), (double)rn) : rn;
  }
  __device__ __forceinline__ void at(int64_t j, T &rn, T &zn, T &pn) const {
    double rj = (double)__ldg(r + j);
    rn = alpha == 0.0 ? (T)rj : (T)__dadd_rn(rj, __dmul_rn(-alpha, (double)__ldg(q + j)));
    zn = z_of(d, j, rn);
    pn = beta == 0.0 ? zn : (T)__dadd_rn((double)zn, __dmul_rn(beta, (double)__ldg(p + j)));
  }
  /* Stores r'_j and p'_j, and x_j += alpha p_j (x is left alone when alpha = 0). */
  __device__ __forceinline__ void store(int64_t j, T rn, T pn, T *x, T *r_next, T *p_next) const {
    r_next[j] = rn;
    p_next[j] = pn;
    if (alpha != 0.0)
      x[j] = (T)((double)x[j] + alpha * (double)p[j]);
  }
  __device__ __forceinline__ double operator()(int32_t j) const {
    T rn, zn, pn;
    at(j, rn, zn, pn);
    return (double)pn;
  }
};

/* Adds index j's terms to CG's five sums (src/core/backend.h): r'.r', r'.z', p'.q', z'.q',
 * q'.D q' (D the preconditioner's d, or the identity). */
template <typename T, bool JACOBI>
__device__ __forceinline__ void csri_cg_add_sums(csri_sums<CSRI_CG_SUMS> &s, T rn, T zn, T pn, T qn,
                                                 const T *d, int64_t j) {
  double r_ = rn, z_ = zn, p_ = pn, q_ = qn;
  s.v[0] += r_ * r_;
  s.v[1] += r_ * z_;
  s.v[2] += p_ * q_;
  s.v[3] += z_ * q_;
  s.v[4] += JACOBI ? (double)d[j] * q_ * q_ : q_ * q_;
}

/* The split step (cuda/cg_step_split.cu), for a matrix whose SpMV is a tiled kernel. */
csr_status csri_cuda_cg_step_split(csr_context *ctx, const csri_spmv_plan *plan,
                                   const csr_matrix *A, double alpha, double beta,
                                   const csri_cg_vectors *v, double *sums);

#endif
