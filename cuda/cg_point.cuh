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

  __device__ __forceinline__ void at(int64_t j, T &rn, T &zn, T &pn) const {
    double rj = (double)__ldg(r + j);
    rn = alpha == 0.0 ? (T)rj : (T)__dadd_rn(rj, __dmul_rn(-alpha, (double)__ldg(q + j)));
    zn = JACOBI ? (T)__dmul_rn((double)__ldg(d + j), (double)rn) : rn;
    pn = beta == 0.0 ? zn : (T)__dadd_rn((double)zn, __dmul_rn(beta, (double)__ldg(p + j)));
  }
  __device__ __forceinline__ double operator()(int32_t j) const {
    T rn, zn, pn;
    at(j, rn, zn, pn);
    return (double)pn;
  }
};

/* The split step (cuda/cg_step_split.cu), for a matrix whose SpMV is the segmented kernel. */
csr_status csri_cuda_cg_step_split(csr_context *ctx, const csr_matrix *A, double alpha, double beta,
                                   const csri_cg_vectors *v, double *sums);

#endif
