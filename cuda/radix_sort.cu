/* keys (and values) reordered so that keys ascend by bits [begin, end), stably: LSD radix sort
 * with 8-bit digits, one pass per digit, each pass one kernel (onesweep, Adinets and Merrill 2022).
 *
 *  1. One read of the keys counts every pass's digits at once; a scan of each pass's 256 counts
 *     gives where each digit's bucket starts.
 *  2. A pass: each block takes the next tile, ranks its keys within the tile per digit (warps
 *     rank 32 keys at a time with __match_any_sync, keeping keys in order, which keeps the sort
 *     stable), publishes its per-digit counts, and one thread per digit looks back over the
 *     preceding tiles' counts (decoupled look-back, as in scan.cu) for where the tile's keys of
 *     that digit go. Keys and values are then staged in shared memory in digit order, so that
 *     the writes of each digit's run are contiguous.
 * The passes alternate between the caller's arrays and the workspace; an odd number of passes
 * ends with one copy back. */
#include "common.cuh"

namespace {

const int THREADS = CSRI_RADIX_THREADS, DIGITS = CSRI_RADIX_DIGITS, WARPS = THREADS / 32;
static_assert(THREADS == DIGITS, "the per-digit steps give one thread to each digit");

template <typename K> __host__ __device__ constexpr int items() {
  return sizeof(K) == 4 ? CSRI_RADIX_ITEMS_32 : CSRI_RADIX_ITEMS_64;
}
template <typename K> __host__ __device__ constexpr int64_t tile_items() {
  return (int64_t)THREADS * items<K>();
}

/* No values: a placeholder type that is never read or written. */
struct none {};

/* Status of one (tile, digit): flag in the top two bits, count below (counts stay < 2^62). */
const uint64_t FLAG_AGGREGATE = (uint64_t)1 << 62, FLAG_PREFIX = (uint64_t)2 << 62;
const uint64_t COUNT_MASK = ((uint64_t)1 << 62) - 1;

template <typename K> __device__ __forceinline__ int digit_of(K key, int shift, int bits) {
  return (int)((key >> shift) & (((K)1 << bits) - 1));
}

/* --- 1. all passes' digit counts -------------------------------------------------------------- */

template <typename K>
__global__ void __launch_bounds__(CSRI_RADIX_HIST_THREADS)
    digit_counts_kernel(const K *keys, int64_t n, int begin_bit, int end_bit, int passes,
                        unsigned long long *counts) {
  __shared__ uint32_t local[sizeof(K) * 8 / CSRI_RADIX_BITS + 1][DIGITS];
  for (int i = threadIdx.x; i < passes * DIGITS; i += blockDim.x)
    local[i / DIGITS][i % DIGITS] = 0;
  __syncthreads();
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    K key = keys[i];
    for (int p = 0; p < passes; p++) {
      int shift = begin_bit + p * CSRI_RADIX_BITS;
      int bits = end_bit - shift < CSRI_RADIX_BITS ? end_bit - shift : CSRI_RADIX_BITS;
      atomicAdd(&local[p][digit_of(key, shift, bits)], 1u);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < passes * DIGITS; i += blockDim.x)
    if (local[i / DIGITS][i % DIGITS])
      atomicAdd(&counts[i], (unsigned long long)local[i / DIGITS][i % DIGITS]);
}

/* Each pass's counts become bucket starts (exclusive scan of 256 counts; one block per pass). */
__global__ void __launch_bounds__(DIGITS) bucket_starts_kernel(unsigned long long *counts) {
  __shared__ uint64_t warp_totals[DIGITS / 32];
  unsigned long long *c = counts + (int64_t)blockIdx.x * DIGITS;
  uint64_t total;
  uint64_t start =
      csri_block_exclusive<csri_sum_op<uint64_t>, DIGITS>(c[threadIdx.x], warp_totals, &total);
  c[threadIdx.x] = start;
}

/* --- 2. one pass ----------------------------------------------------------------------------- */

/* The pass's shared memory: per-warp digit counts, the tile's digit starts, where each digit's
 * keys go in the output, and the tile staged in digit order. Laid out in the dynamic shared
 * memory (shared_bytes below). */
template <typename K, typename V> struct pass_shared {
  uint32_t (*warp_counts)[DIGITS]; /* [WARPS][DIGITS] */
  uint32_t *tile_start;            /* [DIGITS] */
  uint64_t *global_start;          /* [DIGITS] */
  K *staged_keys;                  /* [tile_items] */
  V *staged_values;                /* [tile_items] when there are values */

  __device__ __forceinline__ explicit pass_shared(unsigned char *bytes) {
    warp_counts = (uint32_t(*)[DIGITS])bytes;
    tile_start = (uint32_t *)(bytes + sizeof(uint32_t) * WARPS * DIGITS);
    global_start = (uint64_t *)(tile_start + DIGITS);
    staged_keys = (K *)(global_start + DIGITS);
    staged_values = (V *)(staged_keys + tile_items<K>());
  }
};

/* --- the pass's steps (CUB's agent): load, rank, count digits, look back, stage, scatter ------ */

/* Warp w owns items [w * 32 * ITEMS, (w + 1) * 32 * ITEMS) of the tile, 32 per round, lane l
 * the l-th of each round: coalesced, and (round, lane) order is item order. */
template <typename K, typename V, int ITEMS>
__device__ __forceinline__ void load_keys(const K *keys_in, const V *values_in, int64_t tile_base,
                                          int tile_n, int warp_base, K (&key)[ITEMS],
                                          V (&value)[ITEMS]) {
  const bool has_values = sizeof(V) > 1;
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int r = 0; r < ITEMS; r++) {
    int i = warp_base + r * 32 + lane;
    bool valid = i < tile_n;
    key[r] = valid ? keys_in[tile_base + i] : (K)0;
    if (has_values && valid)
      value[r] = values_in[tile_base + i];
  }
}

/* Rank within the warp: peers with the same digit in this round, plus what the warp counted for
 * that digit in earlier rounds (warp_counts[warp], zeroed). Ends with a barrier. */
template <typename K, int ITEMS>
__device__ __forceinline__ void rank_in_warp(const K (&key)[ITEMS], int tile_n, int warp_base,
                                             int shift, int bits, uint32_t *warp_counts,
                                             uint32_t (&rank)[ITEMS]) {
  const int lane = threadIdx.x & 31;
  const uint32_t lanes_below = (1u << lane) - 1;
#pragma unroll
  for (int r = 0; r < ITEMS; r++) {
    /* Digits are recomputed rather than kept: registers go to keys, values and ranks. Items
     * past the tile's end get a digit no other lane has (unmatched, uncounted). */
    bool valid = warp_base + r * 32 + lane < tile_n;
    int digit = valid ? digit_of(key[r], shift, bits) : DIGITS + lane;
    uint32_t peers = __match_any_sync(0xffffffffu, digit);
    uint32_t before = valid ? warp_counts[digit] : 0;
    rank[r] = before + __popc(peers & lanes_below);
    __syncwarp();
    if (valid && (peers & lanes_below) == 0) /* the lowest lane of the group counts it */
      warp_counts[digit] = before + __popc(peers);
    __syncwarp();
  }
  __syncthreads();
}

/* Per digit d (thread d): the warps' counts of d become offsets within the tile's run of d, the
 * tile's count of d is published (tile 0 publishes it as a prefix), and tile_start[d] becomes
 * where d's run starts in the tile. Returns the tile's count of d. Ends with a barrier. */
__device__ __forceinline__ uint32_t count_digits(uint32_t (*warp_counts)[DIGITS],
                                                 uint32_t *tile_start, int64_t tile,
                                                 unsigned long long *status,
                                                 uint32_t *warp_totals) {
  const int d = threadIdx.x;
  uint32_t count = 0;
#pragma unroll
  for (int w = 0; w < WARPS; w++) {
    uint32_t c = warp_counts[w][d];
    warp_counts[w][d] = count;
    count += c;
  }
  if (tile == 0)
    *(volatile unsigned long long *)&status[d] = FLAG_PREFIX | count;
  else
    *(volatile unsigned long long *)&status[tile * DIGITS + d] = FLAG_AGGREGATE | count;
  uint32_t tile_total;
  tile_start[d] =
      csri_block_exclusive<csri_sum_op<uint32_t>, THREADS>(count, warp_totals, &tile_total);
  return count;
}

/* Look back (thread d) for the keys of digit d in the tiles before this one: where the tile's
 * keys of d start in the output. Publishes the tile's inclusive count of d. */
__device__ __forceinline__ uint64_t look_back_digit(unsigned long long *status, int64_t tile,
                                                    uint32_t count,
                                                    const unsigned long long *bucket_start) {
  const int d = threadIdx.x;
  uint64_t before = 0;
  if (tile > 0) {
    for (int64_t t = tile - 1;; t--) {
      uint64_t s;
      unsigned pause = CSRI_LOOK_BACK_PAUSE_NS;
      while (((s = *(volatile unsigned long long *)&status[t * DIGITS + d]) >> 62) == 0)
        csri_back_off(&pause);
      before += s & COUNT_MASK;
      if (s & FLAG_PREFIX)
        break;
    }
    *(volatile unsigned long long *)&status[tile * DIGITS + d] = FLAG_PREFIX | (before + count);
  }
  return bucket_start[d] + before;
}

/* The tile's keys (and values) to shared memory in digit order. Ends with a barrier. */
template <typename K, typename V, int ITEMS>
__device__ __forceinline__ void stage_tile(const K (&key)[ITEMS], const V (&value)[ITEMS],
                                           const uint32_t (&rank)[ITEMS], int tile_n, int warp_base,
                                           int shift, int bits, const pass_shared<K, V> &sh) {
  const bool has_values = sizeof(V) > 1;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int r = 0; r < ITEMS; r++)
    if (warp_base + r * 32 + lane < tile_n) {
      int digit = digit_of(key[r], shift, bits);
      uint32_t at = sh.tile_start[digit] + sh.warp_counts[warp][digit] + rank[r];
      sh.staged_keys[at] = key[r];
      if (has_values)
        sh.staged_values[at] = value[r];
    }
  __syncthreads();
}

/* Each digit's run from shared memory to its place in the output: contiguous writes. */
template <typename K, typename V>
__device__ __forceinline__ void scatter_tile(const pass_shared<K, V> &sh, int tile_n, int shift,
                                             int bits, K *keys_out, V *values_out) {
  const bool has_values = sizeof(V) > 1;
  for (int i = threadIdx.x; i < tile_n; i += THREADS) {
    K k = sh.staged_keys[i];
    int dk = digit_of(k, shift, bits);
    uint64_t to = sh.global_start[dk] + (uint64_t)(i - (int)sh.tile_start[dk]);
    keys_out[to] = k;
    if (has_values)
      values_out[to] = sh.staged_values[i];
  }
}

/* --- 2. one pass: one tile per block ------------------------------------------------------ */

template <typename K, typename V>
__global__ void __launch_bounds__(THREADS)
    pass_kernel(const K *keys_in, K *keys_out, const V *values_in, V *values_out, int64_t n,
                int shift, int bits, const unsigned long long *bucket_start,
                unsigned long long *status, unsigned long long *next_tile) {
  const int ITEMS = items<K>();
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const pass_shared<K, V> sh(shared_bytes);
  __shared__ int64_t tile_shared;
  __shared__ uint32_t warp_totals[WARPS];

  for (int i = threadIdx.x; i < WARPS * DIGITS; i += THREADS)
    sh.warp_counts[i / DIGITS][i % DIGITS] = 0;
  const int64_t tile = csri_take_tile(next_tile, &tile_shared), tile_base = tile * tile_items<K>();
  const int tile_n = (int)(n - tile_base < tile_items<K>() ? n - tile_base : tile_items<K>());
  const int warp_base = (threadIdx.x >> 5) * 32 * ITEMS;

  K key[ITEMS];
  V value[ITEMS];
  uint32_t rank[ITEMS];
  load_keys<K, V, ITEMS>(keys_in, values_in, tile_base, tile_n, warp_base, key, value);
  rank_in_warp<K, ITEMS>(key, tile_n, warp_base, shift, bits, sh.warp_counts[threadIdx.x >> 5],
                         rank);
  uint32_t count = count_digits(sh.warp_counts, sh.tile_start, tile, status, warp_totals);
  sh.global_start[threadIdx.x] = look_back_digit(status, tile, count, bucket_start);
  __syncthreads();
  stage_tile<K, V, ITEMS>(key, value, rank, tile_n, warp_base, shift, bits, sh);
  scatter_tile<K, V>(sh, tile_n, shift, bits, keys_out, values_out);
}

template <typename K, typename V> size_t shared_bytes() {
  return sizeof(uint32_t) * (WARPS * DIGITS + DIGITS) + sizeof(uint64_t) * DIGITS +
         (size_t)tile_items<K>() * (sizeof(K) + (sizeof(V) > 1 ? sizeof(V) : 0));
}

/* Workspace: [tile counters][digit counts][status][keys][values]. */
struct layout {
  size_t counters, counts, status, keys, values, total;
};

layout make_layout(size_t key_size, size_t value_size, int64_t n) {
  int64_t tile = (int64_t)THREADS * (key_size == 4 ? CSRI_RADIX_ITEMS_32 : CSRI_RADIX_ITEMS_64);
  int64_t tiles = (n + tile - 1) / tile;
  int passes_max = (int)key_size * 8 / CSRI_RADIX_BITS;
  layout l;
  l.counters = 0;
  l.counts = csri_align256((size_t)passes_max * 8);
  l.status = l.counts + csri_align256((size_t)passes_max * DIGITS * 8);
  l.keys = l.status + csri_align256((size_t)tiles * DIGITS * 8);
  l.values = l.keys + csri_align256((size_t)n * key_size);
  l.total = l.values + csri_align256((size_t)n * value_size);
  return l;
}

template <typename K, typename V>
csr_status run(csr_context *ctx, void *keys, void *values, int64_t n, int begin_bit, int end_bit,
               void *workspace) {
  cudaStream_t stream = csri_stream(ctx);
  layout l = make_layout(sizeof(K), sizeof(V) > 1 ? sizeof(V) : 0, n);
  char *w = (char *)workspace;
  unsigned long long *counters = (unsigned long long *)(w + l.counters);
  unsigned long long *counts = (unsigned long long *)(w + l.counts);
  unsigned long long *status = (unsigned long long *)(w + l.status);
  int passes = (end_bit - begin_bit + CSRI_RADIX_BITS - 1) / CSRI_RADIX_BITS;
  int64_t tiles = (n + tile_items<K>() - 1) / tile_items<K>();

  CSRI_CUDA_TRY(ctx, cudaMemsetAsync(w, 0, l.status, stream)); /* counters and counts */
  int hist_blocks = csri_cuda_sm_count() * CSRI_RADIX_HIST_BLOCKS_PER_SM;
  int64_t most = (n + CSRI_RADIX_HIST_THREADS * CSRI_RADIX_HIST_ITEMS - 1) /
                 (CSRI_RADIX_HIST_THREADS * CSRI_RADIX_HIST_ITEMS);
  if (most < hist_blocks)
    hist_blocks = (int)(most > 0 ? most : 1);
  digit_counts_kernel<K><<<hist_blocks, CSRI_RADIX_HIST_THREADS, 0, stream>>>(
      (const K *)keys, n, begin_bit, end_bit, passes, counts);
  bucket_starts_kernel<<<passes, DIGITS, 0, stream>>>(counts);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "radix sort digit counts"));

  size_t shared = shared_bytes<K, V>();
  CSRI_CUDA_TRY(ctx,
                cudaFuncSetAttribute(pass_kernel<K, V>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     (int)shared));
  K *key_buf[2] = {(K *)keys, (K *)(w + l.keys)};
  V *value_buf[2] = {(V *)values, (V *)(w + l.values)};
  for (int p = 0; p < passes; p++) {
    int shift = begin_bit + p * CSRI_RADIX_BITS;
    int bits = end_bit - shift < CSRI_RADIX_BITS ? end_bit - shift : CSRI_RADIX_BITS;
    CSRI_CUDA_TRY(ctx, cudaMemsetAsync(status, 0, (size_t)tiles * DIGITS * 8, stream));
    pass_kernel<K, V><<<(unsigned)tiles, THREADS, shared, stream>>>(
        key_buf[p & 1], key_buf[(p + 1) & 1], value_buf[p & 1], value_buf[(p + 1) & 1], n, shift,
        bits, counts + (int64_t)p * DIGITS, status, counters + p);
    CSRI_TRY(CSRI_CUDA_CHECK(ctx, "radix sort pass"));
  }
  if (passes & 1) { /* the result is in the workspace: copy it home */
    CSRI_CUDA_TRY(ctx, cudaMemcpyAsync(keys, key_buf[1], (size_t)n * sizeof(K),
                                       cudaMemcpyDeviceToDevice, stream));
    if (sizeof(V) > 1)
      CSRI_CUDA_TRY(ctx, cudaMemcpyAsync(values, value_buf[1], (size_t)n * sizeof(V),
                                         cudaMemcpyDeviceToDevice, stream));
  }
  return CSRI_CUDA_CHECK(ctx, "radix sort");
}

template <typename K>
csr_status run_values(csr_context *ctx, void *keys, size_t value_size, void *values, int64_t n,
                      int begin_bit, int end_bit, void *workspace) {
  if (value_size == 4)
    return run<K, uint32_t>(ctx, keys, values, n, begin_bit, end_bit, workspace);
  if (value_size == 8)
    return run<K, uint64_t>(ctx, keys, values, n, begin_bit, end_bit, workspace);
  return run<K, none>(ctx, keys, values, n, begin_bit, end_bit, workspace);
}

} // namespace

extern "C" size_t csri_cuda_radix_sort_bytes(const csr_context *ctx, size_t key_size,
                                             size_t value_size, int64_t n) {
  (void)ctx;
  return make_layout(key_size, value_size, n).total;
}

extern "C" csr_status csri_cuda_radix_sort(csr_context *ctx, size_t key_size, void *keys,
                                           size_t value_size, void *values, int64_t n,
                                           int begin_bit, int end_bit, void *workspace) {
  if (key_size == 4)
    return run_values<uint32_t>(ctx, keys, value_size, values, n, begin_bit, end_bit, workspace);
  return run_values<uint64_t>(ctx, keys, value_size, values, n, begin_bit, end_bit, workspace);
}
