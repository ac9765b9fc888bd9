/* SPDX-License-Identifier: BSD-3-Clause */
/* out[0, kept) = the in[i] that are kept (flags[i] != 0, or x op operand), in order: one pass,
 * the count of kept items scanned with decoupled look-back (see scan.cu) and each tile's kept
 * items gathered in shared memory first, so that the tile writes one contiguous run. The kernel
 * is those steps (load, select and rank, look back, gather, store), each a device function. */
#include "common.cuh"
#include "reduce.cuh"

namespace {

const int THREADS = CSRI_SCAN_THREADS;

enum { BY_FLAGS = 0, NOT_EQUAL = 1, LESS = 2, GREATER_EQUAL = 3 };

/* S: the storage word (the element's bytes); C: the element type the predicate compares in. */
template <typename S> __host__ __device__ constexpr int64_t tile_items() {
  return (int64_t)THREADS * (CSRI_COMPACT_BYTES_PER_THREAD / (int64_t)sizeof(S));
}

template <typename C, typename S> __device__ __forceinline__ C as(S bits) {
  C c;
  memcpy(&c, &bits, sizeof c);
  return c;
}

template <typename S, typename C, int MODE>
__device__ __forceinline__ bool keep(S bits, uint8_t flag, C operand) {
  if (MODE == BY_FLAGS)
    return flag != 0;
  C x = as<C>(bits);
  if (MODE == NOT_EQUAL)
    return x != operand;
  if (MODE == LESS)
    return x < operand;
  return x >= operand;
}

/* --- the tile's steps (CUB's agent): load, select and rank, look back, gather, store ---------- */

/* Which of the lane's items (striped, as cuda/common.cuh lays tiles out) are kept, bit k of
 * keep_mask[r] for item k of round r, and where they go within the tile: lane_before[r] within
 * the warp, the result the warp's offset within the tile; *tile_count the tile's kept items.
 * Selecting and counting share one loop over the rounds (as separate loops, the compiler
 * schedules the loads differently). warp_totals: shared scratch of THREADS / 32 counts, not
 * written again. */
template <typename S, typename C, int MODE, int VECS, int PER>
__device__ __forceinline__ uint32_t select_and_rank(const S (&x)[VECS][PER], const uint8_t *flags,
                                                    C operand, int64_t segment, int64_t n,
                                                    uint32_t (&keep_mask)[VECS],
                                                    uint32_t (&lane_before)[VECS],
                                                    uint32_t *warp_totals, uint32_t *tile_count) {
  typedef csri_sum_op<uint32_t> CountOp;
  const int lane = threadIdx.x & 31;
  uint32_t warp_count = 0;
#pragma unroll
  for (int r = 0; r < VECS; r++) {
    keep_mask[r] = 0;
#pragma unroll
    for (int k = 0; k < PER; k++) {
      int64_t at = segment + (int64_t)(r * 32 + lane) * PER + k;
      uint8_t flag = MODE == BY_FLAGS && at < n ? flags[at] : 0;
      keep_mask[r] |= (uint32_t)(at < n && keep<S, C, MODE>(x[r][k], flag, operand)) << k;
    }
    uint32_t count = __popc(keep_mask[r]);
    uint32_t inclusive = csri_warp_inclusive<CountOp>(count);
    lane_before[r] = warp_count + inclusive - count;
    warp_count += __shfl_sync(0xffffffffu, inclusive, 31);
  }
  return csri_warps_exclusive<CountOp, THREADS>(warp_count, warp_totals, tile_count);
}

/* Kept items to shared memory at their rank in the tile (no barrier: the look-back runs
 * meanwhile). */
template <typename S, int VECS, int PER>
__device__ __forceinline__ void
gather_tile(const S (&x)[VECS][PER], const uint32_t (&keep_mask)[VECS],
            const uint32_t (&lane_before)[VECS], uint32_t warp_before, S *gathered) {
#pragma unroll
  for (int r = 0; r < VECS; r++) {
    uint32_t at = warp_before + lane_before[r];
#pragma unroll
    for (int k = 0; k < PER; k++)
      if (keep_mask[r] >> k & 1)
        gathered[at++] = x[r][k];
  }
}

/* The gathered items as one contiguous run at `prefix`, after a barrier. */
template <typename S>
__device__ __forceinline__ void store_run(const S *gathered, uint32_t count, uint64_t prefix,
                                          S *out) {
  for (uint32_t k = threadIdx.x; k < count; k += THREADS)
    out[prefix + k] = gathered[k];
}

/* --- the kernel: one tile per block ---------------------------------------------------------- */

/* 4-byte items: four blocks an SM, which the compiler fits in 64 registers without spilling the
 * 16-byte-load path (80 registers, three blocks, unbounded). H100, 2026-11-28, 2^28 int32 with
 * half kept, three runs each, builds side by side: 0.759-0.775 ms against 0.830-0.839. Items of
 * 1 or 2 bytes (128 or 64 a thread) would spill hundreds of bytes under that bound. */
template <typename S, typename C, int MODE, bool VEC>
__global__ void __launch_bounds__(THREADS, sizeof(S) == 4 ? 4 : 1)
    compact_kernel(const S *in, const uint8_t *flags, C operand, S *out, int64_t n,
                   csri_count_status status, unsigned long long *next_tile,
                   unsigned long long *kept_total, int64_t tiles) {
  const int PER = 16 / (int)sizeof(S), VECS = CSRI_COMPACT_BYTES_PER_THREAD / 16;
  __shared__ int64_t tile_shared;
  __shared__ uint32_t warp_totals[THREADS / 32];
  __shared__ uint64_t prefix_shared;
  __shared__ S gathered[THREADS * VECS * PER];
  const int64_t tile = csri_take_tile(next_tile, &tile_shared);
  const int64_t segment = tile * tile_items<S>() + (int64_t)(threadIdx.x >> 5) * 32 * VECS * PER;

  S x[VECS][PER];
  uint32_t keep_mask[VECS], lane_before[VECS], tile_count;
  csri_load_striped<S, VECS, PER, VEC>(in, segment, n, x);
  uint32_t warp_before = select_and_rank<S, C, MODE, VECS, PER>(
      x, flags, operand, segment, n, keep_mask, lane_before, warp_totals, &tile_count);
  csri_publish_and_look_back<csri_sum_op<uint64_t>>(status, tile, tile_count, &prefix_shared);
  gather_tile<S, VECS, PER>(x, keep_mask, lane_before, warp_before, gathered);
  __syncthreads();
  const uint64_t prefix = prefix_shared;
  store_run(gathered, tile_count, prefix, out);
  if (tile == tiles - 1 && threadIdx.x == 0) {
    *kept_total = prefix + tile_count;
    __threadfence_system(); /* kept_total may be mapped host memory */
  }
}

template <typename S> size_t workspace_bytes(int64_t n) {
  int64_t tiles = (n + tile_items<S>() - 1) / tile_items<S>();
  return 256 + csri_count_status::bytes(tiles);
}

template <typename S, typename C, int MODE, bool VEC>
void launch(const void *in, const csri_select *select, C operand, void *out, int64_t n,
            void *workspace, unsigned long long *kept_total, cudaStream_t stream) {
  int64_t tiles = (n + tile_items<S>() - 1) / tile_items<S>();
  csri_count_status status = csri_count_status::at((char *)workspace + 256, tiles);
  compact_kernel<S, C, MODE, VEC><<<(unsigned)tiles, THREADS, 0, stream>>>(
      (const S *)in, select->flags, operand, (S *)out, n, status, (unsigned long long *)workspace,
      kept_total, tiles);
}

template <typename S, typename C>
csr_status run(csr_context *ctx, const void *in, const csri_select *select, C operand, void *out,
               int64_t n, int64_t *kept, void *workspace) {
  cudaStream_t stream = csri_stream(ctx);
  CSRI_CUDA_TRY(ctx, cudaMemsetAsync(workspace, 0, workspace_bytes<S>(n), stream));
  /* The last tile writes the kept count straight into the context's pinned, mapped result slot
   * (cuda/reduce.cu), so that the host reads it after the stream's end with no copy (a copy of
   * the count back took 14 us on an H100, 2 % of a compact of 2^28 int32); without a context,
   * into the counter word's neighbour in the workspace (the first 256 bytes hold both), copied
   * back. */
  unsigned *ticket = NULL;
  double *host = NULL, *device = NULL;
  if (ctx != NULL)
    CSRI_TRY(csri_cuda_reduce_slots(ctx, &ticket, &host, &device));
  unsigned long long *kept_total =
      host != NULL ? (unsigned long long *)device : (unsigned long long *)workspace + 1;
  int mode = select->flags                             ? BY_FLAGS
             : select->predicate == CSR_KEEP_NOT_EQUAL ? NOT_EQUAL
             : select->predicate == CSR_KEEP_LESS      ? LESS
                                                       : GREATER_EQUAL;
  bool vec = ((uintptr_t)in % 16 == 0);
#define CSRI_COMPACT_LAUNCH(MODE)                                                                  \
  (vec ? launch<S, C, MODE, true>(in, select, operand, out, n, workspace, kept_total, stream)      \
       : launch<S, C, MODE, false>(in, select, operand, out, n, workspace, kept_total, stream))
  switch (mode) {
  case BY_FLAGS: CSRI_COMPACT_LAUNCH(BY_FLAGS); break;
  case NOT_EQUAL: CSRI_COMPACT_LAUNCH(NOT_EQUAL); break;
  case LESS: CSRI_COMPACT_LAUNCH(LESS); break;
  default: CSRI_COMPACT_LAUNCH(GREATER_EQUAL); break;
  }
#undef CSRI_COMPACT_LAUNCH
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "compact kernel"));
  unsigned long long total = 0;
  if (host == NULL)
    CSRI_CUDA_TRY(
        ctx, cudaMemcpyAsync(&total, kept_total, sizeof total, cudaMemcpyDeviceToHost, stream));
  CSRI_CUDA_TRY(ctx, cudaStreamSynchronize(stream));
  if (host != NULL)
    memcpy(&total, host, sizeof total);
  *kept = (int64_t)total;
  return CSR_SUCCESS;
}

} // namespace

extern "C" size_t csri_cuda_compact_bytes(const csr_context *ctx, csr_data_type type, int64_t n) {
  (void)ctx;
  switch (csri_data_type_size(type)) {
  case 1: return workspace_bytes<uint8_t>(n);
  case 2: return workspace_bytes<uint16_t>(n);
  case 4: return workspace_bytes<uint32_t>(n);
  default: return workspace_bytes<uint64_t>(n);
  }
}

extern "C" csr_status csri_cuda_compact(csr_context *ctx, csr_data_type type, const void *in,
                                        const csri_select *select, void *out, int64_t n,
                                        int64_t *kept, void *workspace) {
  const csri_select *s = select;
  switch (type) {
  case CSR_DATA_I32:
    return run<uint32_t, int32_t>(ctx, in, s, s->operand.i32, out, n, kept, workspace);
  case CSR_DATA_U32:
    return run<uint32_t, uint32_t>(ctx, in, s, s->operand.u32, out, n, kept, workspace);
  case CSR_DATA_F32:
    return run<uint32_t, float>(ctx, in, s, s->operand.f32, out, n, kept, workspace);
  case CSR_DATA_I64:
    return run<uint64_t, int64_t>(ctx, in, s, s->operand.i64, out, n, kept, workspace);
  case CSR_DATA_U64:
    return run<uint64_t, uint64_t>(ctx, in, s, s->operand.u64, out, n, kept, workspace);
  case CSR_DATA_F64:
    return run<uint64_t, double>(ctx, in, s, s->operand.f64, out, n, kept, workspace);
  case CSR_DATA_U16:
    return run<uint16_t, uint16_t>(ctx, in, s, s->operand.u16, out, n, kept, workspace);
  default: return run<uint8_t, uint8_t>(ctx, in, s, s->operand.u8, out, n, kept, workspace);
  }
}
