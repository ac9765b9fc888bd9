/* SPDX-License-Identifier: BSD-3-Clause */
/* dst[i] = (int64) src[i]: a caller's 32-bit row offsets widened to the 64 bits libcsr's kernels
 * read (csr_matrix_wrap), on the context's stream. */
#include "common.cuh"

namespace {

__global__ void widen_kernel(int64_t n, const int32_t *src, int64_t *dst) {
  CSRI_GRID_STRIDE(i, n) {
    dst[i] = src[i];
  }
}

} // namespace

extern "C" csr_status csri_cuda_widen(csr_context *ctx, int64_t *dst, const int32_t *src,
                                      int64_t n) {
  widen_kernel<<<csri_vector_blocks(n), CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(n, src, dst);
  return CSRI_CUDA_CHECK(ctx, "widen_kernel");
}
