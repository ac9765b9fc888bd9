/* SPDX-License-Identifier: BSD-3-Clause */
/* Column indices packed in 16 bits (src/kernels/packed_layout.h): head_c = min of chunk c's
 * columns when max - min < 2^16, else -1 - e for the e-th escaped chunk; lo_k = c_k - head_c, or
 * c_k's low half with its high half in hi. A warp finds a chunk's range (coalesced loads, a
 * shuffle reduction); a thread per entry writes its halves. */
#include "common.cuh"
#include "kernels/packed_layout.h"

namespace {

constexpr int RANGE_THREADS = 256, FILL_THREADS = 256;
constexpr int CHUNKS_PER_BLOCK = RANGE_THREADS / 32;

__global__ void __launch_bounds__(RANGE_THREADS)
    ranges_kernel(const int32_t *col, int64_t nnz, int64_t chunks, int32_t *heads,
                  int32_t *escapes) {
  const int64_t c = (int64_t)blockIdx.x * CHUNKS_PER_BLOCK + threadIdx.x / 32;
  if (c >= chunks) /* the same for the whole warp */
    return;
  const int lane = threadIdx.x & 31;
  int32_t low = INT32_MAX, high = INT32_MIN;
  for (int64_t k = csri_pack_chunk_begin(c) + lane; k < csri_pack_chunk_end(c, nnz); k += 32) {
    const int32_t v = __ldcs(col + k);
    low = min(low, v);
    high = max(high, v);
  }
  for (int d = 16; d > 0; d /= 2) {
    low = min(low, __shfl_xor_sync(0xffffffffu, low, d));
    high = max(high, __shfl_xor_sync(0xffffffffu, high, d));
  }
  if (lane == 0) {
    heads[c] = low;
    escapes[c] = !csri_pack_fits(low, high);
  }
}

/* Entry k's halves. An escaped chunk's head is rewritten by its first entry's thread; the
 * chunk's other threads never read it (they take the head from the escape's index), and a
 * fitting chunk's head stays as it is. */
__global__ void __launch_bounds__(FILL_THREADS)
    fill_kernel(const int32_t *col, int64_t nnz, int32_t *heads, const int32_t *escapes,
                const int32_t *index, uint16_t *lo, uint16_t *hi) {
  const int64_t k = (int64_t)blockIdx.x * FILL_THREADS + threadIdx.x;
  if (k >= nnz)
    return;
  const int64_t c = csri_pack_chunk_of(k);
  const int32_t column = __ldcs(col + k);
  if (escapes[c]) {
    const int32_t head = csri_pack_head(0, 0, index[c]);
    lo[k] = csri_pack_low(head, column);
    hi[csri_pack_high_at(head, k)] = (uint16_t)((uint32_t)column >> 16);
    if (k == csri_pack_chunk_begin(c))
      heads[c] = head;
  } else {
    lo[k] = csri_pack_low(heads[c], column);
  }
}

} // namespace

extern "C" csr_status csri_cuda_pack_ranges(csr_context *ctx, const csr_matrix *A, int32_t *heads,
                                            int32_t *escapes) {
  const int64_t chunks = csri_pack_chunks(A->nnz);
  ranges_kernel<<<(unsigned)((chunks + CHUNKS_PER_BLOCK - 1) / CHUNKS_PER_BLOCK), RANGE_THREADS, 0,
                  csri_stream(ctx)>>>(A->col_indices, A->nnz, chunks, heads, escapes);
  return CSRI_CUDA_CHECK(ctx, "packing: chunk ranges");
}

extern "C" csr_status csri_cuda_pack_fill(csr_context *ctx, const csr_matrix *A,
                                          const int32_t *escapes, const int32_t *index,
                                          csri_packed *p) {
  fill_kernel<<<(unsigned)((A->nnz + FILL_THREADS - 1) / FILL_THREADS), FILL_THREADS, 0,
                csri_stream(ctx)>>>(A->col_indices, A->nnz, p->heads, escapes, index, p->lo, p->hi);
  return CSRI_CUDA_CHECK(ctx, "packing: halves");
}
