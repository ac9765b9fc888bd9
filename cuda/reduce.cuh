/* SPDX-License-Identifier: BSD-3-Clause */
/* Reductions of K doubles per thread to K results in one launch, in an order fixed by the grid
 * alone: each block reduces its threads' values (shuffle tree, then warp totals in order) to a
 * partial; the block that finishes last (a ticket counter) combines the partials in block order.
 * With a grid that depends only on the problem and the GPU model, a run gives the same bits every
 * time (cuSPARSE's ALG1 and atomics-based sums do not). Used by cuda/vector_ops.cu and
 * cuda/cg_step.cu; the context's slots live in cuda/reduce.cu. */
#ifndef CSR_CUDA_REDUCE_CUH
#define CSR_CUDA_REDUCE_CUH

#include "common.cuh"

#include <string.h>

/* Combining rules: sums, and a maximum that keeps NaN (as the CPU's nrminf does). The
 * reductions below combine slot k of K with combine_at(k, a, b): one rule for every slot here; a
 * rule of its own may differ per slot (cuda/row_stats.cu: two maxima and a sum in one pass). */
struct csri_add {
  __device__ __forceinline__ static double identity() { return 0.0; }
  __device__ __forceinline__ static double combine(double a, double b) { return a + b; }
  __device__ __forceinline__ static double combine_at(int, double a, double b) { return a + b; }
};
struct csri_max_nan { /* of values >= 0 */
  __device__ __forceinline__ static double identity() { return 0.0; }
  __device__ __forceinline__ static double combine(double a, double b) {
    return (a > b || a != a) ? a : b;
  }
  __device__ __forceinline__ static double combine_at(int, double a, double b) {
    return combine(a, b);
  }
};

template <int K> struct csri_sums { double v[K]; };

/* Where a reduction keeps its state: a ticket counter, the K results (as the device sees them)
 * and K partials per block. */
template <int K> struct csri_reduce_space {
  unsigned *ticket;
  double *result;
  double *partials;
};

/* Warp-wide combination of one csri_sums per lane, by a fixed shuffle tree; lane 0 gets the
 * warp's value. */
template <typename Op, int K>
__device__ __forceinline__ csri_sums<K> csri_warp_combine(csri_sums<K> s) {
#pragma unroll
  for (int k = 0; k < K; k++)
#pragma unroll
    for (int d = 16; d > 0; d /= 2)
      s.v[k] = Op::combine_at(k, s.v[k], __shfl_down_sync(0xffffffffu, s.v[k], d));
  return s;
}

/* Block-wide combination of one csri_sums per thread; thread 0 gets the block's value. */
template <typename Op, int K, int THREADS>
__device__ __forceinline__ csri_sums<K> csri_block_combine(csri_sums<K> s) {
  __shared__ double warp_values[THREADS / 32][K];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  s = csri_warp_combine<Op, K>(s);
  if (lane == 0)
#pragma unroll
    for (int k = 0; k < K; k++)
      warp_values[warp][k] = s.v[k];
  __syncthreads();
  if (threadIdx.x == 0)
    for (int w = 1; w < THREADS / 32; w++)
#pragma unroll
      for (int k = 0; k < K; k++)
        s.v[k] = Op::combine_at(k, s.v[k], warp_values[w][k]);
  return s;
}

/* Every thread of every block calls this once, last, with its values (identity where it had
 * none). The last block to arrive writes the K results and re-arms the ticket. */
template <typename Op, int K, int THREADS>
__device__ __forceinline__ void csri_grid_combine(csri_sums<K> s, csri_reduce_space<K> space) {
  __shared__ bool last;
  s = csri_block_combine<Op, K, THREADS>(s);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < K; k++)
      space.partials[(size_t)blockIdx.x * K + k] = s.v[k];
    __threadfence(); /* the partials are visible before the ticket says so */
    last = atomicAdd(space.ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last)
    return;
  __threadfence();
  /* Thread t folds blocks t, t + THREADS, ... in order; then the block tree, also fixed. */
  csri_sums<K> total;
#pragma unroll
  for (int k = 0; k < K; k++)
    total.v[k] = threadIdx.x < gridDim.x ? __ldcg(&space.partials[(size_t)threadIdx.x * K + k])
                                         : Op::identity();
  for (unsigned b = threadIdx.x + THREADS; b < gridDim.x; b += THREADS)
#pragma unroll
    for (int k = 0; k < K; k++)
      total.v[k] = Op::combine_at(k, total.v[k], __ldcg(&space.partials[(size_t)b * K + k]));
  __syncthreads(); /* warp_values is reused */
  total = csri_block_combine<Op, K, THREADS>(total);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < K; k++)
      space.result[k] = total.v[k];
    __threadfence_system(); /* the results may be host memory */
    *space.ticket = 0;
  }
}

/* --- the host side ------------------------------------------------------------------------ */

/* The context's reduction slots (cuda/reduce.cu): *ticket on the device, zero between
 * reductions; *host, pinned and mapped, CSRI_REDUCE_MAX_RESULTS doubles that the device writes at
 * *device (a reduction's results, compact's count: each operation reads them after its stream's
 * end and before it returns). Allocated on first use. */
extern "C" csr_status csri_cuda_reduce_slots(csr_context *ctx, unsigned **ticket, double **host,
                                             double **device);

/* One reduction's state on the host: where the kernel reduces, where the results appear. */
template <int K> struct csri_reduce_run {
  csri_reduce_space<K> space;
  void *scratch;
  double *host; /* the pinned results; NULL with a NULL context (results in scratch) */
};

/* Blocks of `kernel` resident on the device at once (cached: the occupancy query costs
 * microseconds, a CG iteration makes one). */
extern "C" int csri_cuda_resident_blocks(const void *kernel, int threads);

/* Blocks for a reducing kernel, or any that loops over its work in a grid-stride loop: enough for
 * `work` items at `per_block` each, at most what the device holds at once (one wave: a second,
 * partial wave would leave most SMs idle at the end). The count, and so the order of the sums,
 * depends only on the problem and the GPU model. */
static inline int csri_reduce_grid(const void *kernel, int threads, int64_t work,
                                   int64_t per_block) {
  int64_t resident = csri_cuda_resident_blocks(kernel, threads);
  int64_t need = (work + per_block - 1) / per_block;
  return (int)(need < 1 ? 1 : need < resident ? need : resident);
}

/* A ticket for a kernel that ends with csri_grid_combine over scratch of its own: the context's
 * (zero between reductions: the last block re-arms it), or, without a context, `fallback` (a word
 * of the caller's scratch) set to zero on the stream. */
static inline csr_status csri_reduce_ticket(csr_context *ctx, unsigned *fallback,
                                            unsigned **ticket) {
  if (ctx != NULL) {
    double *host = NULL, *device = NULL;
    return csri_cuda_reduce_slots(ctx, ticket, &host, &device);
  }
  *ticket = fallback;
  CSRI_CUDA_TRY(ctx, cudaMemsetAsync(fallback, 0, sizeof(unsigned), csri_stream(ctx)));
  return CSR_SUCCESS;
}

/* Sets up a reduction over `blocks` blocks (0: only the ticket and the result slots). */
template <int K>
static csr_status csri_reduce_begin(csr_context *ctx, int blocks, csri_reduce_run<K> *r) {
  size_t partials = (size_t)blocks * K * sizeof(double);
  r->scratch = NULL;
  r->host = NULL;
  if (ctx == NULL) { /* no context to keep slots in: ticket and results in scratch */
    CSRI_TRY(csri_device_scratch(ctx, 512 + partials, &r->scratch));
    char *p = (char *)r->scratch;
    r->space = csri_reduce_space<K>{(unsigned *)p, (double *)(p + 256), (double *)(p + 512)};
    cudaError_t err = cudaMemset(p, 0, sizeof(unsigned));
    if (err != cudaSuccess) {
      csri_device_scratch_done(ctx, r->scratch);
      return csri_cuda_error(ctx, err, "cudaMemset", __FILE__, __LINE__);
    }
    return CSR_SUCCESS;
  }
  double *device = NULL;
  CSRI_TRY(csri_cuda_reduce_slots(ctx, &r->space.ticket, &r->host, &device));
  r->space.result = device;
  if (partials > 0) /* a kernel that totals its sums elsewhere (blocks 0) needs none */
    CSRI_TRY(csri_device_scratch(ctx, partials, &r->scratch));
  r->space.partials = (double *)r->scratch;
  return CSR_SUCCESS;
}

/* After the launch (launched: its status): waits for the kernel and copies the K results out. */
template <int K>
static csr_status csri_reduce_end(csr_context *ctx, csri_reduce_run<K> *r, csr_status launched,
                                  double *out) {
  csr_status status = launched;
  if (status >= 0) {
    cudaError_t err = cudaStreamSynchronize(csri_stream(ctx));
    if (err == cudaSuccess && r->host == NULL)
      err = cudaMemcpy(out, r->space.result, K * sizeof(double), cudaMemcpyDeviceToHost);
    else if (err == cudaSuccess)
      memcpy(out, r->host, K * sizeof(double));
    if (err != cudaSuccess)
      status = csri_cuda_error(ctx, err, "reduction", __FILE__, __LINE__);
  }
  csri_device_scratch_done(ctx, r->scratch);
  return status;
}

/* Runs one reducing kernel over n items, one thread per item in a grid-stride loop
 * (launch(blocks, space) launches it), and fetches its K results into out. */
template <int K, typename Launch>
static csr_status csri_run_reduction(csr_context *ctx, const void *kernel, int64_t n, double *out,
                                     Launch launch) {
  int blocks = csri_reduce_grid(kernel, CSRI_REDUCE_THREADS, n, CSRI_REDUCE_THREADS);
  csri_reduce_run<K> r;
  CSRI_TRY(csri_reduce_begin<K>(ctx, blocks, &r));
  launch(blocks, r.space);
  return csri_reduce_end<K>(ctx, &r, CSRI_CUDA_CHECK(ctx, "reduction kernel"), out);
}

#endif
