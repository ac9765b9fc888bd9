/* Row sums sum_j a_ij g(j) of a CSR matrix by groups of W lanes: W = 1 is the scalar kernel (one
 * thread per row), W = 2..32 the vector kernel (a sub-warp per row, its lanes striding the row
 * so that neighbouring lanes read neighbouring entries, then a shuffle tree). Shared by the SpMV
 * (cuda/spmv.cu) and CG's fused step (cuda/cg_step.cu), which differ only in g. */
#ifndef CSR_CUDA_SPMV_ROWS_CUH
#define CSR_CUDA_SPMV_ROWS_CUH

#include "common.cuh"

/* sum over row's entries k = begin + lane, begin + lane + W, ... of a_k * g(col_k), in double.
 * Loads go through L1: with one thread per row, a thread reads its row's entries one by one and
 * its neighbours read the next rows', so each 32-byte sector serves several loads from L1
 * (streaming loads that skip L1 made the scalar kernel 2.5x slower on a 7-point stencil). */
template <int W, typename T, bool PATTERN, typename Gather>
__device__ __forceinline__ double csri_row_sum(const int64_t *off, const int32_t *col, const T *val,
                                               int64_t row, int lane, const Gather &g) {
  int64_t begin = __ldg(off + row), end = __ldg(off + row + 1);
  double sum = 0.0;
  int64_t k = begin + lane;
  for (; k < end; k += W) {
    double x = g(__ldg(col + k));
    sum += PATTERN ? x : (double)__ldg(val + k) * x;
  }
  return sum;
}

/* Lane 0 of each aligned group of W lanes gets the group's total. Every lane of the warp must
 * call it (lanes without a row pass 0). */
template <int W> __device__ __forceinline__ double csri_group_total(double s) {
#pragma unroll
  for (int d = W / 2; d > 0; d /= 2)
    s += __shfl_down_sync(0xffffffffu, s, d, W);
  return s;
}

/* The lanes per row for A: 1 (scalar), or a power of two up to 32 (vector), from the context's
 * kernel override or, for AUTO, from the mean row length (short rows: a thread each, as the row
 * is then one or two cache sectors anyway; longer rows: the smallest group covering the mean).
 * 0 for the segmented kernel (cuda/spmv_merge.cu; CG's fused step has no segmented form). */
static inline int csri_spmv_lanes(const csr_context *ctx, const csr_matrix *A) {
  csr_spmv_kernel kernel = csr_context_kernel(ctx);
  double mean = A->rows > 0 ? (double)A->nnz / (double)A->rows : 0.0;
  if (kernel == CSR_KERNEL_SEGMENTED)
    return 0;
  if (kernel == CSR_KERNEL_SCALAR || (kernel == CSR_KERNEL_AUTO && mean <= CSRI_SPMV_SCALAR_MEAN))
    return 1;
  int w = 2;
  while (w < 32 && w < mean)
    w *= 2;
  return w;
}

/* Calls f.template run<W>() for W the lanes per row (1, 2, 4, 8, 16 or 32). */
template <typename F> static csr_status csri_with_lanes(int lanes, F &f) {
  switch (lanes) {
  case 1: return f.template run<1>();
  case 2: return f.template run<2>();
  case 4: return f.template run<4>();
  case 8: return f.template run<8>();
  case 16: return f.template run<16>();
  default: return f.template run<32>();
  }
}

static inline csr_status csri_segmented_unsupported(csr_context *ctx) {
  return csri_error(ctx, CSR_ERR_UNSUPPORTED, __FILE__, __LINE__,
                    "CG's fused step has no segmented SpMV kernel yet: use CSR_KERNEL_AUTO, "
                    "CSR_KERNEL_SCALAR or CSR_KERNEL_VECTOR for csr_solve");
}

#endif
