/* SPDX-License-Identifier: BSD-3-Clause */
/* ILU(0) and IC(0) on the GPU: for each row i, for k < i ascending, w_k = b_ik / p_k, then
 * b_ij -= w_k u_kj for the j of row k's update list that row i stores (csri_factor0_plan,
 * src/core/backend.h). One warp per row, synchronization-free: each warp takes the next row from
 * a counter, in level order (so every row it waits for, of a lower level, belongs to a running
 * warp, and the rows in flight do not depend on each other: cuda/spsv.cu says why that order),
 * its lanes wait until every row it reads is finished, then the k run in order; the entries of one
 * step are updated by the lanes at once (each lane finds its column in row i by a binary search;
 * the columns of an update list differ, so no two lanes touch one entry). Each entry thus sees
 * the same subtractions in the same order as on the CPU, each rounded the same way (no fused
 * multiply-add): the same bits as the reference backend. */
#include "common.cuh"

#include "kernels/factor_pivot.h"

namespace {

constexpr int warp = 32, rows_per_block = 8;

struct factor_device {
  int64_t n;
  int ic;
  const int64_t *off, *dpos, *coff, *cpos;
  const int32_t *col, *crow, *level_rows;
  const double *scale;
  int32_t *state; /* [0]: the next row to hand out; [1]: the lowest failed row (n: none);
                     [2 + i]: 1 once row i is finished */
};

__device__ __forceinline__ int32_t load_acquire(const int32_t *p) {
  int32_t v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void store_release(int32_t *p, int32_t v) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* The position of column j among col[lo .. hi] (ascending), or -1. */
__device__ __forceinline__ int64_t find(const int32_t *col, int64_t lo, int64_t hi, int32_t j) {
  while (lo <= hi) {
    int64_t mid = lo + (hi - lo) / 2;
    int32_t c = col[mid];
    if (c == j)
      return mid;
    if (c < j)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

__global__ void __launch_bounds__(warp *rows_per_block)
    factor_kernel(factor_device f, double *val) {
  int lane = threadIdx.x % warp;
  int64_t t = 0;
  if (lane == 0)
    t = atomicAdd(f.state, 1);
  t = __shfl_sync(0xffffffffu, t, 0);
  if (t >= f.n)
    return;
  int64_t i = f.level_rows[t];
  int32_t *done = f.state + 2;
  int64_t begin = f.off[i], d = f.dpos[i], last = f.ic ? d : f.off[i + 1] - 1;
  for (int64_t t = begin + lane; t < d; t += warp)
    while (load_acquire(done + f.col[t]) == 0) {
    }
  __syncwarp();
  for (int64_t t = begin; t < d; t++) {
    int64_t k = f.col[t];
    double w = __ddiv_rn(val[t], __ldcg(val + f.dpos[k]));
    __syncwarp(); /* every lane has read val[t] before lane 0 replaces it */
    if (lane == 0)
      val[t] = w;
    __syncwarp(); /* IC(0) reads it back as l_ik when its list reaches row i */
    int64_t u_end = f.ic ? f.coff[k + 1] : f.off[k + 1];
    for (int64_t u = (f.ic ? f.coff[k] : f.dpos[k] + 1) + lane; u < u_end; u += warp) {
      int32_t j = f.ic ? f.crow[u] : f.col[u];
      int64_t q = j <= f.col[last] ? find(f.col, t + 1, last, j) : -1;
      if (q >= 0) {
        double factor = f.ic ? (f.cpos[u] == t ? w : __ldcg(val + f.cpos[u])) : __ldcg(val + u);
        val[q] = __dsub_rn(val[q], __dmul_rn(w, factor));
      }
    }
    __syncwarp();
  }
  if (lane == 0) {
    double pivot = val[d];
    if (csri_factor_pivot_fails(pivot, f.scale[i], f.ic))
      atomicMin(f.state + 1, (int32_t)i);
    else if (f.ic)
      val[d] = __dsqrt_rn(pivot);
    __threadfence();
    store_release(done + i, 1);
  }
}

csr_status upload(csr_context *ctx, void **dst, const void *src, int64_t count, size_t size,
                  void **owned, int *owned_count) {
  *dst = nullptr;
  if (src == nullptr || count == 0)
    return CSR_SUCCESS;
  CSRI_TRY(csri_array_alloc(ctx, dst, count, size, CSR_DEVICE, 0));
  owned[(*owned_count)++] = *dst;
  return csri_array_copy(ctx, *dst, CSR_DEVICE, src, CSR_HOST, (size_t)count * size);
}

csr_status run(csr_context *ctx, const csri_factor0_plan *p, double *values, int64_t *failed_row,
               void **owned, int *owned_count) {
  int64_t n = p->n, nnz = p->off[n], strict = p->ic ? p->coff[n] : 0;
  factor_device f = {};
  f.n = n;
  f.ic = p->ic;
  CSRI_TRY(upload(ctx, (void **)&f.off, p->off, n + 1, sizeof(int64_t), owned, owned_count));
  CSRI_TRY(upload(ctx, (void **)&f.dpos, p->dpos, n, sizeof(int64_t), owned, owned_count));
  CSRI_TRY(upload(ctx, (void **)&f.col, p->col, nnz, sizeof(int32_t), owned, owned_count));
  CSRI_TRY(upload(ctx, (void **)&f.scale, p->scale, n, sizeof(double), owned, owned_count));
  CSRI_TRY(
      upload(ctx, (void **)&f.level_rows, p->level_rows, n, sizeof(int32_t), owned, owned_count));
  if (p->ic) {
    CSRI_TRY(upload(ctx, (void **)&f.coff, p->coff, n + 1, sizeof(int64_t), owned, owned_count));
    CSRI_TRY(upload(ctx, (void **)&f.crow, p->crow, strict, sizeof(int32_t), owned, owned_count));
    CSRI_TRY(upload(ctx, (void **)&f.cpos, p->cpos, strict, sizeof(int64_t), owned, owned_count));
  }
  int32_t start[2] = {0, (int32_t)n};
  CSRI_TRY(csri_array_alloc(ctx, (void **)&f.state, n + 2, sizeof(int32_t), CSR_DEVICE,
                            CSRI_ARRAY_ZERO));
  owned[(*owned_count)++] = f.state;
  CSRI_TRY(csri_array_copy(ctx, f.state, CSR_DEVICE, start, CSR_HOST, sizeof start));
  unsigned blocks = (unsigned)((n + rows_per_block - 1) / rows_per_block);
  factor_kernel<<<blocks, warp * rows_per_block, 0, csri_stream(ctx)>>>(f, values);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "factor_kernel"));
  CSRI_TRY(csri_array_copy(ctx, start, CSR_HOST, f.state, CSR_DEVICE, sizeof start));
  *failed_row = start[1] < n ? start[1] : -1;
  return CSR_SUCCESS;
}

} // namespace

extern "C" csr_status csri_cuda_factor0(csr_context *ctx, const csri_factor0_plan *plan,
                                        double *values, int64_t *failed_row) {
  void *owned[9];
  int owned_count = 0;
  csr_status status = run(ctx, plan, values, failed_row, owned, &owned_count);
  for (int k = 0; k < owned_count; k++)
    csri_array_free(owned[k], CSR_DEVICE);
  return status;
}
