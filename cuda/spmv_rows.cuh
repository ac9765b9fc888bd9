/* SPDX-License-Identifier: BSD-3-Clause */
/* Row sums sum_j a_ij g(j) of a CSR matrix by groups of W lanes: W = 1 is the scalar kernel (one
 * thread per row), W = 2..32 the vector kernel (a sub-warp per row, its lanes striding the row
 * so that neighbouring lanes read neighbouring entries, then a shuffle tree). Shared by the SpMV
 * (cuda/spmv.cu) and CG's fused step (cuda/cg_step.cu), which differ only in g. */
#ifndef CSR_CUDA_SPMV_ROWS_CUH
#define CSR_CUDA_SPMV_ROWS_CUH

#include "columns.cuh"
#include "common.cuh"

/* sum over row's entries k = begin + lane, begin + lane + W, ... of a_k * g(c_k), in double, the
 * columns c_k read by `cols` (cuda/columns.cuh).
 * Loads go through L1: with one thread per row, a thread reads its row's entries one by one and
 * its neighbours read the next rows', so each 32-byte sector serves several loads from L1
 * (streaming loads that skip L1 made the scalar kernel 2.5x slower on a 7-point stencil). */
template <int W, typename T, bool PATTERN, typename Cols, typename Gather>
__device__ __forceinline__ double csri_row_sum(const int64_t *off, const Cols &cols, const T *val,
                                               int64_t row, int lane, const Gather &g) {
  int64_t begin = __ldg(off + row), end = __ldg(off + row + 1);
  double sum = 0.0;
  int64_t k = begin + lane;
  for (; k < end; k += W) {
    double x = g(cols.at(k));
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

#endif
