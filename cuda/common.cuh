/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared pieces of the CUDA backend: its entries (declared from src/core/backend.h, listed in
 * cuda/table.c), error reporting, the context's stream, warp-level scans and the tile status of
 * the single-pass scans (decoupled look-back, Merrill and Garland 2016). C-style CUDA; templates
 * only over the value type and the combining operation. */
#ifndef CSR_CUDA_COMMON_CUH
#define CSR_CUDA_COMMON_CUH

#include "entries.h"
#include "tuning.cuh"

#include <cuda_runtime.h>
#include <stdint.h>

/* Records a CUDA error as CSR_ERR_DEVICE (CSR_ERR_OUT_OF_MEMORY for allocations) with its name. */
static inline csr_status csri_cuda_error(csr_context *ctx, cudaError_t err, const char *what,
                                         const char *file, int line) {
  return csri_error(ctx, err == cudaErrorMemoryAllocation ? CSR_ERR_OUT_OF_MEMORY : CSR_ERR_DEVICE,
                    file, line, "%s: %s (%s)", what, cudaGetErrorName(err),
                    cudaGetErrorString(err));
}

/* After a launch (or an async call): the launch error, and with the context's debug-sync flag the
 * kernel's own error too. */
static inline csr_status csri_cuda_check(csr_context *ctx, const char *what, const char *file,
                                         int line) {
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess && ctx && ctx->debug_sync)
    err = cudaStreamSynchronize((cudaStream_t)ctx->stream);
  return err == cudaSuccess ? CSR_SUCCESS : csri_cuda_error(ctx, err, what, file, line);
}
#define CSRI_CUDA_CHECK(ctx, what) csri_cuda_check((ctx), (what), __FILE__, __LINE__)
#define CSRI_CUDA_TRY(ctx, call)                                                                   \
  do {                                                                                             \
    cudaError_t csri_err_ = (call);                                                                \
    if (csri_err_ != cudaSuccess)                                                                  \
      return csri_cuda_error((ctx), csri_err_, #call, __FILE__, __LINE__);                         \
  } while (0)

static inline cudaStream_t csri_stream(const csr_context *ctx) {
  return ctx ? (cudaStream_t)ctx->stream : (cudaStream_t)0;
}

/* Whether the context's stream is being captured into a CUDA graph, which refuses what would
 * allocate or synchronise (a failed query counts as capturing: the cautious answer). */
static inline bool csri_stream_capturing(const csr_context *ctx) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(csri_stream(ctx), &status) != cudaSuccess) {
    cudaGetLastError();
    return true;
  }
  return status != cudaStreamCaptureStatusNone;
}

/* Rounds up to a multiple of 256 bytes: workspace pieces stay aligned for any access. */
static inline size_t csri_align256(size_t bytes) {
  return (bytes + 255) & ~(size_t)255;
}

/* Multiprocessors of the current device (cached per process: the device does not change under a
 * running library in practice; a fresh query costs microseconds). */
extern "C" int csri_cuda_sm_count(void);

/* --- kernels that start before the one they follow ------------------------------------------ */

/* Launches kernel<<<grid, block, 0, stream>>>(args...) so that its blocks may start while the
 * kernel before it in the stream finishes (programmatic dependent launch, sm_90): once every
 * block of that kernel has called csri_let_next_start(), this one's blocks take the SMs that its
 * last blocks leave idle and run what does not depend on it (loads of inputs that it does not
 * write) instead of waiting, after it, for a launch. The kernel must call csri_wait_prior()
 * before it reads anything that kernel writes and before it writes anything. After an operation
 * other than a kernel it is an ordinary launch. A failed launch is also the runtime's last error,
 * which CSRI_CUDA_CHECK after it reports, as after <<<...>>>. */
template <typename... Params, typename... Args>
static inline cudaError_t csri_launch_early(void (*kernel)(Params...), unsigned grid,
                                            unsigned block, cudaStream_t stream, Args... args) {
  cudaLaunchAttribute early;
  early.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  early.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.stream = stream;
  config.attrs = &early;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, args...);
}

/* In a kernel launched by csri_launch_early: waits until the kernel before it has finished and
 * its writes are visible. */
__device__ __forceinline__ void csri_wait_prior() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* In a kernel followed by one launched with csri_launch_early: this block no longer holds that
 * kernel back from starting (it still waits, in csri_wait_prior, for this whole kernel). */
__device__ __forceinline__ void csri_let_next_start() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" :::);
#endif
}

/* --- element-wise grids ---------------------------------------------------------------------- */

/* A grid-stride loop over n items: thread t of the grid takes t, t + grid size, ... */
#define CSRI_GRID_STRIDE(i, n)                                                                     \
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n);                        \
       i += (int64_t)gridDim.x * blockDim.x)

/* Blocks of CSRI_VECTOR_THREADS for an element-wise kernel over n items: enough for one item a
 * thread, at most CSRI_VECTOR_MAX_BLOCKS (the grid-stride loop covers the rest). */
static inline int csri_vector_blocks(int64_t n) {
  int64_t b = (n + CSRI_VECTOR_THREADS - 1) / CSRI_VECTOR_THREADS;
  return b < 1 ? 1 : b > CSRI_VECTOR_MAX_BLOCKS ? CSRI_VECTOR_MAX_BLOCKS : (int)b;
}

/* The smallest `mine` over the grid into *first (which starts at "none", ~0): a warp minimum,
 * then one atomic per warp that found something. Every lane of the warp calls it. */
__device__ __forceinline__ void csri_grid_first(unsigned long long mine,
                                                unsigned long long *first) {
  for (int d = 16; d > 0; d /= 2) {
    const unsigned long long other = __shfl_xor_sync(0xffffffffu, mine, d);
    mine = other < mine ? other : mine;
  }
  if ((threadIdx.x & 31) == 0 && mine != ~0ull)
    atomicMin(first, mine);
}

/* --- tiles taken in order ------------------------------------------------------------------ */

/* The tile this block works on: the next value of an atomic counter rather than blockIdx.x, so
 * tiles start in order and every tile's predecessors are already running (a look-back never
 * waits on a block the scheduler has not started). Every thread gets it; ends with a barrier. */
__device__ __forceinline__ int64_t csri_take_tile(unsigned long long *next_tile,
                                                  int64_t *tile_shared) {
  if (threadIdx.x == 0)
    *tile_shared = (int64_t)atomicAdd(next_tile, 1ull);
  __syncthreads();
  return *tile_shared;
}

/* --- striped tiles ------------------------------------------------------------------------ */

/* A tile is THREADS x VECS x 16 bytes. Warp w owns the contiguous segment starting at
 * tile_base + w * 32 * VECS * PER items; in round r (0 <= r < VECS) lane l holds the PER items
 * segment + (r * 32 + l) * PER + [0, PER), PER = 16 bytes / item size. A round is one 16-byte
 * access per lane, 512 contiguous bytes per warp (fully coalesced), and the item order is
 * (round, lane, k): scans run as VECS warp-wide scans. */
/* x = the lane's items of a segment; 16-byte loads when the whole segment is in range and VEC
 * (in 16-byte aligned), else one guarded load per item (0 past n). */
template <typename T, int VECS, int PER, bool VEC>
__device__ __forceinline__ void csri_load_striped(const T *in, int64_t segment, int64_t n,
                                                  T (&x)[VECS][PER]) {
  const int lane = threadIdx.x & 31;
  if (VEC && segment + (int64_t)VECS * 32 * PER <= n) {
    const uint4 *v = reinterpret_cast<const uint4 *>(in + segment) + lane;
    uint4 raw[VECS];
#pragma unroll
    for (int r = 0; r < VECS; r++)
      raw[r] = __ldcs(v + r * 32); /* streamed: read once */
#pragma unroll
    for (int r = 0; r < VECS; r++)
      memcpy(x[r], &raw[r], 16);
  } else {
#pragma unroll
    for (int r = 0; r < VECS; r++)
#pragma unroll
      for (int k = 0; k < PER; k++) {
        int64_t i = segment + (int64_t)(r * 32 + lane) * PER + k;
        x[r][k] = i < n ? in[i] : (T)0;
      }
  }
}

/* The counterpart of csri_load_striped: out's items of the lane's rounds, within n. */
template <typename T, int VECS, int PER, bool VEC>
__device__ __forceinline__ void csri_store_striped(T *out, int64_t segment, int64_t n,
                                                   const T (&x)[VECS][PER]) {
  const int lane = threadIdx.x & 31;
  if (VEC && segment + (int64_t)VECS * 32 * PER <= n) {
    uint4 *v = reinterpret_cast<uint4 *>(out + segment) + lane;
#pragma unroll
    for (int r = 0; r < VECS; r++) {
      uint4 raw;
      memcpy(&raw, x[r], 16);
      __stcs(v + r * 32, raw);
    }
  } else {
#pragma unroll
    for (int r = 0; r < VECS; r++)
#pragma unroll
      for (int k = 0; k < PER; k++) {
        int64_t i = segment + (int64_t)(r * 32 + lane) * PER + k;
        if (i < n)
          out[i] = x[r][k];
      }
  }
}

/* --- combining operations ------------------------------------------------------------------ */

/* Plain sums: modulo 2^bits (unsigned arithmetic). */
template <typename T> struct csri_sum_op {
  typedef T value;
  __device__ __forceinline__ static T identity() { return 0; }
  __device__ __forceinline__ static T combine(T a, T b) { return a + b; }
};

/* Segmented sums: a value with a head flag; b's head restarts the sum (not commutative). */
template <typename T> struct csri_seg_value {
  T sum;
  uint32_t head;
};
template <typename T> struct csri_seg_op {
  typedef csri_seg_value<T> value;
  __device__ __forceinline__ static value identity() { return value{0, 0}; }
  __device__ __forceinline__ static value combine(value a, value b) {
    return value{b.head ? b.sum : a.sum + b.sum, a.head | b.head};
  }
};

/* --- warp scans (lanes in order: lane 0 first) --------------------------------------------- */

template <typename T> __device__ __forceinline__ T csri_shfl_up(T v, int delta) {
  return __shfl_up_sync(0xffffffffu, v, delta);
}
template <typename T>
__device__ __forceinline__ csri_seg_value<T> csri_shfl_up(csri_seg_value<T> v, int delta) {
  return csri_seg_value<T>{__shfl_up_sync(0xffffffffu, v.sum, delta),
                           __shfl_up_sync(0xffffffffu, v.head, delta)};
}
template <typename T> __device__ __forceinline__ T csri_shfl_down(T v, int delta) {
  return __shfl_down_sync(0xffffffffu, v, delta);
}
template <typename T>
__device__ __forceinline__ csri_seg_value<T> csri_shfl_down(csri_seg_value<T> v, int delta) {
  return csri_seg_value<T>{__shfl_down_sync(0xffffffffu, v.sum, delta),
                           __shfl_down_sync(0xffffffffu, v.head, delta)};
}
template <typename T> __device__ __forceinline__ T csri_shfl(T v, int lane) {
  return __shfl_sync(0xffffffffu, v, lane);
}
template <typename T>
__device__ __forceinline__ csri_seg_value<T> csri_shfl(csri_seg_value<T> v, int lane) {
  return csri_seg_value<T>{__shfl_sync(0xffffffffu, v.sum, lane),
                           __shfl_sync(0xffffffffu, v.head, lane)};
}

/* Inclusive scan across the 32 lanes (Hillis-Steele with shuffles). */
template <typename Op>
__device__ __forceinline__ typename Op::value csri_warp_inclusive(typename Op::value v) {
  int lane = threadIdx.x & 31;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    typename Op::value up = csri_shfl_up(v, d);
    if (lane >= d)
      v = Op::combine(up, v);
  }
  return v;
}

/* Block-wide exclusive scan of one value per thread; *total gets the block's aggregate.
 * `warp_totals` is shared scratch of THREADS / 32 values. Ends with a barrier. */
template <typename Op, int THREADS>
__device__ __forceinline__ typename Op::value csri_block_exclusive(typename Op::value v,
                                                                   typename Op::value *warp_totals,
                                                                   typename Op::value *total) {
  typedef typename Op::value V;
  const int warps = THREADS / 32, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  V inclusive = csri_warp_inclusive<Op>(v);
  if (lane == 31)
    warp_totals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    V w = lane < warps ? warp_totals[lane] : Op::identity();
    w = csri_warp_inclusive<Op>(w);
    if (lane < warps)
      warp_totals[lane] = w; /* inclusive over warps */
  }
  __syncthreads();
  V before_warp = warp == 0 ? Op::identity() : warp_totals[warp - 1];
  V exclusive_in_warp = csri_shfl_up(inclusive, 1);
  if (lane == 0)
    exclusive_in_warp = Op::identity();
  *total = warp_totals[warps - 1];
  V result = Op::combine(before_warp, exclusive_in_warp);
  __syncthreads(); /* warp_totals may be reused by the caller */
  return result;
}

/* Exclusive scan of one value per warp (lane 0's argument counts): every thread gets its
 * warp's exclusive prefix; *total the block's aggregate. `warp_totals` is shared scratch of
 * THREADS / 32 values, which the caller must not write again (there is no barrier after the
 * last reads of it: the scan and compact tiles, its callers, need none). */
template <typename Op, int THREADS>
__device__ __forceinline__ typename Op::value csri_warps_exclusive(typename Op::value warp_value,
                                                                   typename Op::value *warp_totals,
                                                                   typename Op::value *total) {
  typedef typename Op::value V;
  const int warps = THREADS / 32, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0)
    warp_totals[warp] = warp_value;
  __syncthreads();
  if (warp == 0) {
    V w = lane < warps ? warp_totals[lane] : Op::identity();
    w = csri_warp_inclusive<Op>(w);
    if (lane < warps)
      warp_totals[lane] = w; /* inclusive over warps */
  }
  __syncthreads();
  V result = warp == 0 ? Op::identity() : warp_totals[warp - 1];
  *total = warp_totals[warps - 1];
  return result;
}

/* --- tile status for decoupled look-back --------------------------------------------------- */

enum { CSRI_TILE_INVALID = 0, CSRI_TILE_AGGREGATE = 1, CSRI_TILE_PREFIX = 2 };

/* A spinning reader sleeps a little, twice as long each time up to a bound: tight loops of
 * loads from hundreds of waiting warps would take L2 bandwidth from the tiles being read. */
__device__ __forceinline__ void csri_back_off(unsigned *pause) {
  __nanosleep(*pause);
  if (*pause < CSRI_LOOK_BACK_PAUSE_MAX_NS)
    *pause *= 2;
}

/* Volatile copies of a value (member by member for the two-word segmented value). */
template <typename V> __device__ __forceinline__ void csri_store_volatile(V *p, V v) {
  *(volatile V *)p = v;
}
template <typename V> __device__ __forceinline__ V csri_load_volatile(const V *p) {
  return *(const volatile V *)p;
}
template <typename T>
__device__ __forceinline__ void csri_store_volatile(csri_seg_value<T> *p, csri_seg_value<T> v) {
  *(volatile T *)&p->sum = v.sum;
  *(volatile uint32_t *)&p->head = v.head;
}
template <typename T>
__device__ __forceinline__ csri_seg_value<T> csri_load_volatile(const csri_seg_value<T> *p) {
  return csri_seg_value<T>{*(const volatile T *)&p->sum, *(const volatile uint32_t *)&p->head};
}

/* Whether a tile's status of value type V packs into one word (below): 4-byte values do. */
template <typename V> struct csri_status_packs {
  static const bool value = CSRI_TILE_STATUS_PACKED && sizeof(V) == 4;
};

/* One status per tile: a flag, the tile's aggregate and its inclusive prefix, in separate words.
 * Written as value, fence, flag; read as flag, fence, the value the flag names: a reader that
 * sees the flag sees that value (the pattern CUB uses for values too wide to share a word with
 * the flag). The two values must not share a word: a reader that saw AGGREGATE may read the
 * value after the tile has gone on to publish its PREFIX. */
template <typename V, bool PACKED = csri_status_packs<V>::value> struct csri_tile_status {
  V *aggregates, *prefixes;
  uint32_t *flags;

  static size_t bytes(int64_t tiles) {
    return 2 * csri_align256((size_t)tiles * sizeof(V)) + csri_align256((size_t)tiles * 4);
  }
  static csri_tile_status at(void *workspace, int64_t tiles) {
    csri_tile_status s;
    char *p = (char *)workspace;
    s.aggregates = (V *)p;
    p += csri_align256((size_t)tiles * sizeof(V));
    s.prefixes = (V *)p;
    p += csri_align256((size_t)tiles * sizeof(V));
    s.flags = (uint32_t *)p;
    return s;
  }
  __device__ __forceinline__ void publish(int64_t tile, uint32_t flag, V v) const {
    csri_store_volatile(flag == CSRI_TILE_PREFIX ? &prefixes[tile] : &aggregates[tile], v);
    __threadfence();
    *(volatile uint32_t *)&flags[tile] = flag;
  }
  /* Waits until the tile's status is valid. */
  __device__ __forceinline__ void wait(int64_t tile, uint32_t *flag, V *v) const {
    uint32_t f;
    unsigned pause = CSRI_LOOK_BACK_PAUSE_NS;
    while ((f = *(volatile uint32_t *)&flags[tile]) == CSRI_TILE_INVALID)
      csri_back_off(&pause);
    __threadfence();
    *flag = f;
    *v = csri_load_volatile(f == CSRI_TILE_PREFIX ? &prefixes[tile] : &aggregates[tile]);
  }
};

/* 4-byte values, and counts (uint64_t below 2^62, csri_count_status): flag and value share one
 * 64-bit word, stored and loaded whole (single-copy atomic), so a reader sees the value its flag
 * names without a fence on either side. The flag takes the top 32 bits beside a 4-byte value, the
 * top 2 of a count. */
template <typename V> struct csri_tile_status<V, true> {
  unsigned long long *words; /* 0: CSRI_TILE_INVALID, as the caller's zeroing leaves them */

  static size_t bytes(int64_t tiles) { return csri_align256((size_t)tiles * 8); }
  static csri_tile_status at(void *workspace, int64_t) {
    csri_tile_status s;
    s.words = (unsigned long long *)workspace;
    return s;
  }
  __device__ __forceinline__ void publish(int64_t tile, uint32_t flag, V v) const {
    unsigned long long word;
    if constexpr (sizeof(V) == 4) {
      uint32_t bits;
      memcpy(&bits, &v, 4);
      word = (unsigned long long)flag << 32 | bits;
    } else {
      word = (unsigned long long)flag << 62 | (unsigned long long)v;
    }
    *(volatile unsigned long long *)&words[tile] = word;
  }
  __device__ __forceinline__ void wait(int64_t tile, uint32_t *flag, V *v) const {
    unsigned long long word;
    unsigned pause = CSRI_LOOK_BACK_PAUSE_NS;
    const int shift = sizeof(V) == 4 ? 32 : 62;
    while ((word = *(volatile unsigned long long *)&words[tile]) >> shift == CSRI_TILE_INVALID)
      csri_back_off(&pause);
    *flag = (uint32_t)(word >> shift);
    if constexpr (sizeof(V) == 4) {
      const uint32_t bits = (uint32_t)word;
      memcpy(v, &bits, 4);
    } else {
      *v = (V)(word & ((1ull << 62) - 1));
    }
  }
};

/* The statuses of tiles that count items (compact's kept items, the COO runs): never 2^62. */
typedef csri_tile_status<uint64_t, CSRI_TILE_STATUS_PACKED != 0> csri_count_status;

/* The exclusive prefix of `tile` from its predecessors' statuses, by warp 0 of the block: each
 * lane looks at one of 32 predecessors (lane 0 the nearest); the window's values are combined
 * far-to-near up to the nearest lane holding an inclusive prefix, else the window moves on.
 * Returns the prefix in every lane of warp 0. */
template <typename Op, typename Status>
__device__ __forceinline__ typename Op::value csri_look_back(const Status &status, int64_t tile) {
  typedef typename Op::value V;
  const int lane = threadIdx.x & 31;
  V prefix = Op::identity();
  int64_t window = tile - 1; /* the nearest predecessor not yet folded in */
  for (;;) {
    int64_t t = window - lane;
    uint32_t flag = CSRI_TILE_PREFIX;
    V v = Op::identity();
    if (t >= 0)
      status.wait(t, &flag, &v);
    unsigned done = __ballot_sync(0xffffffffu, flag == CSRI_TILE_PREFIX);
    int stop = done ? __ffs(done) - 1 : 31; /* lanes 0..stop take part */
    if (lane > stop)
      v = Op::identity();
      /* Reduce far-to-near: lane l becomes v[l+d] (+) ... (+) v[l], so lane 0 ends with the
       * window's value in order. */
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      V farther = csri_shfl_down(v, d);
      if (lane + d < 32)
        v = Op::combine(farther, v);
    }
    v = csri_shfl(v, 0);
    prefix = Op::combine(v, prefix);
    if (done)
      return prefix;
    window -= 32;
  }
}

/* The single-pass scan's step for a tile whose own total is known (scan.cu, compact.cu): thread
 * 0 publishes the total (tile 0 its inclusive prefix at once); warp 0 folds the predecessors'
 * statuses into the tile's exclusive prefix, publishes the inclusive one, and thread 0 leaves the
 * exclusive prefix in *prefix_shared. Callers synchronise before reading it, so that work which
 * does not need it can overlap the look-back. */
template <typename Op, typename Status>
__device__ __forceinline__ void csri_publish_and_look_back(const Status &status, int64_t tile,
                                                           typename Op::value tile_total,
                                                           typename Op::value *prefix_shared) {
  typedef typename Op::value V;
  if (tile == 0) {
    if (threadIdx.x == 0) {
      status.publish(0, CSRI_TILE_PREFIX, tile_total);
      *prefix_shared = Op::identity();
    }
    return;
  }
  if (threadIdx.x == 0)
    status.publish(tile, CSRI_TILE_AGGREGATE, tile_total);
  if (threadIdx.x < 32) {
    /* The tile before has had this long to publish its prefix (cuda/tuning.cuh says why). */
    __nanosleep(CSRI_LOOK_BACK_FIRST_PAUSE_NS);
    V prefix = csri_look_back<Op>(status, tile);
    if (threadIdx.x == 0) {
      status.publish(tile, CSRI_TILE_PREFIX, Op::combine(prefix, tile_total));
      *prefix_shared = prefix;
    }
  }
}

#endif
