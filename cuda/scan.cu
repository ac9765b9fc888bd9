/* SPDX-License-Identifier: BSD-3-Clause */
/* out[i] = in[s] + ... + in[i-1] (exclusive) or + in[i] (inclusive), s = 0 or the start of i's
 * segment: one pass over the data with decoupled look-back (Merrill and Garland, 2016).
 *
 * Each block takes the next tile (an atomic counter, so tiles start in order and every tile's
 * predecessors are already running), loads it, scans it on its own, publishes the tile's
 * aggregate, and warp 0 folds the predecessors' statuses into the tile's exclusive prefix while
 * later tiles load theirs; then it stores. Signed types run as the unsigned type of the same
 * width: sums wrap alike, bit for bit. Layered as CUB is: the kernel is those four steps, each a
 * device function; tile shapes come from cuda/tuning.cuh. */
#include "common.cuh"

#include <type_traits>

namespace {

const int THREADS = CSRI_SCAN_THREADS;

template <typename T> __host__ __device__ constexpr int64_t tile_items() {
  return (int64_t)THREADS * (CSRI_SCAN_BYTES_PER_THREAD / (int64_t)sizeof(T));
}

/* The value of item i for the operation: a plain item, or an item with its head flag. */
template <typename T> __device__ __forceinline__ T item_value(csri_sum_op<T>, T x, uint8_t) {
  return x;
}
template <typename T>
__device__ __forceinline__ csri_seg_value<T> item_value(csri_seg_op<T>, T x, uint8_t head) {
  return csri_seg_value<T>{x, head != 0};
}
/* The sum part of a running value, and the exclusive output at an item (0 at a segment head). */
template <typename T> __device__ __forceinline__ T sum_of(T v) {
  return v;
}
template <typename T> __device__ __forceinline__ T sum_of(csri_seg_value<T> v) {
  return v.sum;
}

/* --- the tile's steps (CUB's agent): load, scan locally, look back, store ---------------------
 * A tile is THREADS x VECS x PER items in the striped order of common.cuh: round r of warp w's
 * segment gives lane l the items segment + (r * 32 + l) * PER + [0, PER). */

/* The lane's items of the tile, and their head flags (segmented scans only; 0 past n). */
template <typename T, typename V, int VECS, int PER, bool VEC>
__device__ __forceinline__ void load_tile(const T *in, const uint8_t *heads, int64_t segment,
                                          int64_t n, T (&x)[VECS][PER], uint8_t (&h)[VECS][PER]) {
  const bool segmented = !std::is_same<V, T>::value; /* plain scans never read heads */
  const int lane = threadIdx.x & 31;
  csri_load_striped<T, VECS, PER, VEC>(in, segment, n, x);
#pragma unroll
  for (int r = 0; r < VECS; r++)
#pragma unroll
    for (int k = 0; k < PER; k++) {
      int64_t at = segment + (int64_t)(r * 32 + lane) * PER + k;
      h[r][k] = segmented && at < n ? heads[at] : 0;
    }
}

/* The tile scanned on its own: lane_before[r] is what precedes the lane's items of round r
 * within its warp, the result the warp's exclusive prefix within the tile, *tile_total the
 * tile's total. Round r: the lane's items reduced, scanned across the warp; the rounds chained.
 * warp_totals: shared scratch of THREADS / 32 values, not written again. */
template <typename Op, typename T, int VECS, int PER>
__device__ __forceinline__ typename Op::value
scan_tile(const T (&x)[VECS][PER], const uint8_t (&h)[VECS][PER],
          typename Op::value (&lane_before)[VECS], typename Op::value *warp_totals,
          typename Op::value *tile_total) {
  typedef typename Op::value V;
  const int lane = threadIdx.x & 31;
  V warp_total = Op::identity();
#pragma unroll
  for (int r = 0; r < VECS; r++) {
    V local = Op::identity();
#pragma unroll
    for (int k = 0; k < PER; k++)
      local = Op::combine(local, item_value(Op(), x[r][k], h[r][k]));
    V inclusive = csri_warp_inclusive<Op>(local);
    V exclusive = csri_shfl_up(inclusive, 1);
    if (lane == 0)
      exclusive = Op::identity();
    lane_before[r] = Op::combine(warp_total, exclusive);
    warp_total = Op::combine(warp_total, csri_shfl(inclusive, 31));
  }
  return csri_warps_exclusive<Op, THREADS>(warp_total, warp_totals, tile_total);
}

/* Each item's output from `base` (all that precedes the lane's first item) onwards, written back
 * over x and stored. A head restarts the sum: its exclusive output is 0. */
template <typename Op, typename T, int VECS, int PER, bool VEC>
__device__ __forceinline__ void store_tile(T *out, int64_t segment, int64_t n, int inclusive,
                                           typename Op::value base,
                                           const typename Op::value (&lane_before)[VECS],
                                           T (&x)[VECS][PER], const uint8_t (&h)[VECS][PER]) {
  typedef typename Op::value V;
#pragma unroll
  for (int r = 0; r < VECS; r++) {
    V running = Op::combine(base, lane_before[r]);
#pragma unroll
    for (int k = 0; k < PER; k++) {
      T before = h[r][k] ? (T)0 : sum_of(running);
      running = Op::combine(running, item_value(Op(), x[r][k], h[r][k]));
      x[r][k] = inclusive ? sum_of(running) : before;
    }
  }
  csri_store_striped<T, VECS, PER, VEC>(out, segment, n, x);
}

/* --- the kernel: one tile per block ---------------------------------------------------------- */

template <typename T, typename Op, bool VEC>
__global__ void __launch_bounds__(THREADS)
    scan_kernel(const T *in, const uint8_t *heads, T *out, int64_t n, int inclusive,
                csri_tile_status<typename Op::value> status, unsigned long long *next_tile) {
  typedef typename Op::value V;
  const int PER = 16 / (int)sizeof(T), VECS = CSRI_SCAN_BYTES_PER_THREAD / 16;
  __shared__ int64_t tile_shared;
  __shared__ V warp_totals[THREADS / 32];
  __shared__ V prefix_shared;
  const int64_t tile = csri_take_tile(next_tile, &tile_shared);
  const int64_t segment = tile * tile_items<T>() + (int64_t)(threadIdx.x >> 5) * 32 * VECS * PER;

  T x[VECS][PER];
  uint8_t h[VECS][PER];
  load_tile<T, V, VECS, PER, VEC>(in, heads, segment, n, x, h);
  V lane_before[VECS], tile_total;
  V warp_before = scan_tile<Op>(x, h, lane_before, warp_totals, &tile_total);
  csri_publish_and_look_back<Op>(status, tile, tile_total, &prefix_shared);
  __syncthreads();
  store_tile<Op, T, VECS, PER, VEC>(out, segment, n, inclusive,
                                    Op::combine(prefix_shared, warp_before), lane_before, x, h);
}

template <typename T, typename Op> size_t workspace_bytes(int64_t n) {
  int64_t tiles = (n + tile_items<T>() - 1) / tile_items<T>();
  return 256 + csri_tile_status<typename Op::value>::bytes(tiles);
}

template <typename T, typename Op>
csr_status run(csr_context *ctx, const void *in, const uint8_t *heads, void *out, int64_t n,
               int inclusive, void *workspace) {
  cudaStream_t stream = csri_stream(ctx);
  int64_t tiles = (n + tile_items<T>() - 1) / tile_items<T>();
  CSRI_CUDA_TRY(ctx, cudaMemsetAsync(workspace, 0, workspace_bytes<T, Op>(n), stream));
  unsigned long long *next_tile = (unsigned long long *)workspace;
  csri_tile_status<typename Op::value> status =
      csri_tile_status<typename Op::value>::at((char *)workspace + 256, tiles);
  bool vec = ((uintptr_t)in % 16 == 0) && ((uintptr_t)out % 16 == 0);
  if (vec)
    scan_kernel<T, Op, true><<<(unsigned)tiles, THREADS, 0, stream>>>(
        (const T *)in, heads, (T *)out, n, inclusive, status, next_tile);
  else
    scan_kernel<T, Op, false><<<(unsigned)tiles, THREADS, 0, stream>>>(
        (const T *)in, heads, (T *)out, n, inclusive, status, next_tile);
  return CSRI_CUDA_CHECK(ctx, "scan kernel");
}

} // namespace

extern "C" size_t csri_cuda_scan_bytes(const csr_context *ctx, csr_data_type type, int64_t n,
                                       int segmented) {
  (void)ctx;
  int wide = csri_data_type_size(type) == 8;
  if (segmented)
    return wide ? workspace_bytes<uint64_t, csri_seg_op<uint64_t>>(n)
                : workspace_bytes<uint32_t, csri_seg_op<uint32_t>>(n);
  return wide ? workspace_bytes<uint64_t, csri_sum_op<uint64_t>>(n)
              : workspace_bytes<uint32_t, csri_sum_op<uint32_t>>(n);
}

extern "C" csr_status csri_cuda_scan(csr_context *ctx, csr_data_type type, csr_scan_kind kind,
                                     const void *in, const uint8_t *heads, void *out, int64_t n,
                                     void *workspace) {
  int wide = csri_data_type_size(type) == 8, inclusive = kind == CSR_SCAN_INCLUSIVE;
  if (heads)
    return wide
               ? run<uint64_t, csri_seg_op<uint64_t>>(ctx, in, heads, out, n, inclusive, workspace)
               : run<uint32_t, csri_seg_op<uint32_t>>(ctx, in, heads, out, n, inclusive, workspace);
  return wide ? run<uint64_t, csri_sum_op<uint64_t>>(ctx, in, NULL, out, n, inclusive, workspace)
              : run<uint32_t, csri_sum_op<uint32_t>>(ctx, in, NULL, out, n, inclusive, workspace);
}
