/* keys (and values) reordered so that keys ascend by bits [begin, end), stably: LSD radix sort
 * with 8-bit digits (9-bit where that takes fewer passes: src/kernels/radix_plan.h), one pass per
 * digit, each pass one kernel (onesweep, Adinets and Merrill 2022).
 *
 *  1. One read of the keys counts every pass's digits at once; a scan of each pass's counts
 *     gives where each digit's bucket starts.
 *  2. A pass: each block takes the next tile, ranks its keys within the tile per digit (warps rank
 *     32 keys at a time, a ballot per digit bit finding the lanes of equal digit, keeping keys in
 *     order, which keeps the sort stable), publishes its per-digit counts and stages its keys in
 *     shared memory in digit order, so that the writes of each digit's run are contiguous. Only
 *     then does the thread of each digit (a thread has one, or two in a 9-bit pass) look back over
 *     the preceding tiles' counts (decoupled look-back, as in scan.cu) for where the tile's keys of
 *     that digit go: the staging gives those tiles time to publish, so the look-back waits less.
 *     The keys are written out, and the values follow through the same shared buffer. Values are
 *     read only once the keys are out: registers and shared memory hold one array at a time, which
 *     lets more blocks share a multiprocessor.
 *
 * The first pass reads its keys through a functor (key(i) for i < n) and its values from their
 * own array, so that a caller whose keys are computed (the COO converter's (row, column) keys)
 * or whose values must stay as they are sorts without first copying them; the digit counts may
 * have the functor check each key (fetch, then checked: see key_array) and report the first bad
 * one. The last pass may likewise write its keys through a functor (out(i, key)) and its values to
 * an array of the caller's: the COO converter's last pass writes rows and columns apart, the
 * columns and the values straight into the CSR arrays. The COO converter's sort also takes out
 * repeated keys, their values summed in input order, in its last two passes (pass_mode: the pass
 * before the last finds them in its staged tile, the last drops them), so that no copy around them
 * is needed after the sort. */
#ifndef CSR_CUDA_RADIX_SORT_CUH
#define CSR_CUDA_RADIX_SORT_CUH

#include "common.cuh"
#include "kernels/radix_plan.h"
#include "kernels/run_repeats.h"
#include "kernels/warp_match.h"

#include <type_traits>

namespace csri_radix {

const int THREADS = CSRI_RADIX_THREADS, WARPS = THREADS / 32;
/* Digit values of a narrow (8-bit) pass and of a wide one; every pass's counts are laid out
 * WIDE_DIGITS apart. */
const int NARROW_DIGITS = 1 << CSRI_RADIX_BITS, WIDE_DIGITS = 1 << CSRI_RADIX_WIDE_BITS;
static_assert(NARROW_DIGITS % THREADS == 0 && WIDE_DIGITS % THREADS == 0,
              "the per-digit steps give each thread as many digits");

/* The most passes a sort over keys of key_size bytes takes (all 8-bit digits). */
__host__ __device__ constexpr int most_passes(size_t key_size) {
  return (int)key_size * 8 / CSRI_RADIX_BITS;
}
static_assert(most_passes(sizeof(uint64_t)) <= CSRI_RADIX_MOST_PASSES,
              "a plan holds every pass of a 64-bit key");

/* No values: a placeholder type that is never read or written. */
struct none {};
template <typename V> __host__ __device__ constexpr bool has_values() {
  return !std::is_same<V, none>::value;
}

/* What a pass does besides sorting. A sort told to take out repeats (the COO converter's: equal
 * keys become one, their values summed in input order) has, when it takes three passes or more,
 * its pass before the last MARK them and its last pass DROP them:
 *  - MARK: the staged tile is sorted by every bit below the last digit, so the tile's equal keys
 *    lie in one run of keys agreeing in those bits (src/kernels/run_repeats.h); each repeat gets
 *    the key's top bit (which the sort's keys leave free) and its value is added to its root's,
 *    and the repeats are counted by their last digit. Not marked, and left for the caller's check
 *    after the sort (repeats_found::leftover): the keys of a run longer than CSRI_RUN_MOST or
 *    that finds no room among the block's records, and the tile's head, its first keys when they
 *    continue a run of the input's sorted bits from the tile before (summing them here could add
 *    a group's values out of order).
 *  - DROP: the marked keys are ranked, staged and written like the items past a tile's end, not
 *    at all; the bucket starts have been lowered by the repeats of smaller digits. */
enum pass_mode { PLAIN, MARK, DROP };

/* A marked repeat's bit: the key's top bit. */
template <typename K> __host__ __device__ constexpr K repeat_bit() {
  return (K)1 << (sizeof(K) * 8 - 1);
}

/* What the MARK pass found, for the caller: the repeats it marked (which the last pass drops),
 * and whether any repeat may be left unmarked. */
struct repeats_found {
  unsigned long long dropped;
  unsigned int leftover;
};

/* The MARK and DROP passes' shared state: the repeats marked by last-pass digit (WIDE_DIGITS
 * counts), what was found, and the last pass's digit. */
struct repeat_marks {
  unsigned long long *drops;
  repeats_found *found;
  int last_shift, last_bits;
};

/* The bytes of a value (0: none). */
template <typename V> __host__ __device__ constexpr size_t value_bytes() {
  if constexpr (has_values<V>())
    return sizeof(V);
  else
    return 0;
}

/* A tile's shape by key and value size (cuda/tuning.cuh): the keys a thread ranks, and the
 * blocks per SM that the pass's register budget must fit. */
template <typename K, typename V> __host__ __device__ constexpr int items() {
  return CSRI_RADIX_ITEMS_FOR(sizeof(K), value_bytes<V>());
}
template <typename K, typename V> __host__ __device__ constexpr int min_blocks() {
  return CSRI_RADIX_MIN_BLOCKS_FOR(sizeof(K), value_bytes<V>());
}
/* The keys of a tile, for sizes known at run time (the workspace's layout) or at compile time. */
__host__ __device__ constexpr int64_t tile_items_for(size_t key_size, size_t value_size) {
  return (int64_t)THREADS * CSRI_RADIX_ITEMS_FOR(key_size, value_size);
}
template <typename K, typename V> __host__ __device__ constexpr int64_t tile_items() {
  return tile_items_for(sizeof(K), value_bytes<V>());
}

/* A reader of keys: key(i) is the i-th key. The digit counts, which read every key once, read in
 * two steps: fetch(i), the loads alone, and checked(fetched, &ok), the key, ok false where the
 * caller's input is bad (they record the first such i): the loads of the next keys go out before
 * the keys in hand are counted, and nothing waits on them until then. Keys read from an array
 * (the first pass of an in-place sort, and every later pass) are all good. */
template <typename K> struct key_array {
  const K *keys;
  typedef K fetched;
  __device__ __forceinline__ K operator()(int64_t i) const { return keys[i]; }
  __device__ __forceinline__ K fetch(int64_t i) const { return keys[i]; }
  __device__ __forceinline__ K checked(K key, bool *ok) const {
    *ok = true;
    return key;
  }
};

/* A writer of keys to an array: every pass but a last one that the caller writes. */
template <typename K> struct key_store {
  K *keys;
  __device__ __forceinline__ void operator()(int64_t i, K key) const { keys[i] = key; }
};

/* Where the last pass writes: keys through out, values to `values`. */
template <typename Out, typename V> struct last_output {
  Out keys;
  V *values;
};

/* Status of one (tile, digit), at tile * DIGITS + digit: the look-back's packed count status
 * (cuda/common.cuh: flag and count in one 64-bit word, counts < 2^62), whatever
 * CSRI_TILE_STATUS_PACKED says for the other look-backs. */
typedef csri_tile_status<uint64_t, true> digit_status;

template <typename K> __device__ __forceinline__ int digit_of(K key, int shift, int bits) {
  return (int)((key >> shift) & (((K)1 << bits) - 1));
}

/* --- 1. all passes' digit counts -------------------------------------------------------------- */

/* counts[p * WIDE_DIGITS + d] += the keys whose digit in pass p of `plan` is d; the first bad key
 * (Keys::checked) into *first_bad when it is given. */
template <typename K, typename Keys>
__global__ void __launch_bounds__(CSRI_RADIX_HIST_THREADS)
    digit_counts_kernel(Keys keys, int64_t n, csri_radix_plan plan, unsigned long long *counts,
                        unsigned long long *first_bad) {
  const int MOST = most_passes(sizeof(K));
  __shared__ uint32_t local[MOST][WIDE_DIGITS];
  const int passes = plan.passes;
  for (int i = threadIdx.x; i < passes * WIDE_DIGITS; i += blockDim.x)
    local[i / WIDE_DIGITS][i % WIDE_DIGITS] = 0;
  __syncthreads();
  /* Chunks of ITEMS keys a thread, coalesced (key j of the thread at chunk + j * THREADS + t), all
   * loaded before any is counted: one key at a time left the loads' latency exposed. The next
   * chunk's loads go out before this chunk is counted, so that a warp's loads overlap its
   * counting: with the two in turn, the kernel waited on memory at half the bandwidth. */
  const int ITEMS = CSRI_RADIX_HIST_ITEMS, T = CSRI_RADIX_HIST_THREADS;
  const int64_t stride = (int64_t)gridDim.x * T * ITEMS;
  typename Keys::fetched next[ITEMS];
  auto fetch = [&](int64_t chunk) {
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
      const int64_t i = chunk + (int64_t)j * T + threadIdx.x;
      next[j] = typename Keys::fetched();
      if (i < n)
        next[j] = keys.fetch(i);
    }
  };
  unsigned long long bad = ~0ull; /* a thread meets its keys in increasing order */
  fetch((int64_t)blockIdx.x * T * ITEMS);
  for (int64_t chunk = (int64_t)blockIdx.x * T * ITEMS; chunk < n; chunk += stride) {
    typename Keys::fetched in_hand[ITEMS];
#pragma unroll
    for (int j = 0; j < ITEMS; j++)
      in_hand[j] = next[j];
    fetch(chunk + stride);
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
      const int64_t i = chunk + (int64_t)j * T + threadIdx.x;
      if (i >= n)
        break;
      bool ok = true;
      const K key = keys.checked(in_hand[j], &ok);
      if (!ok && bad == ~0ull)
        bad = (unsigned long long)i;
#pragma unroll /* constant indices: the plan stays in the parameters, not copied to the stack */
      for (int p = 0; p < MOST; p++)
        if (p < passes)
          atomicAdd(&local[p][digit_of(key, plan.shift[p], plan.bits[p])], 1u);
    }
  }
  if (first_bad != nullptr)
    csri_grid_first(bad, first_bad);
  __syncthreads();
  for (int i = threadIdx.x; i < passes * WIDE_DIGITS; i += blockDim.x)
    if (local[i / WIDE_DIGITS][i % WIDE_DIGITS])
      atomicAdd(&counts[i], (unsigned long long)local[i / WIDE_DIGITS][i % WIDE_DIGITS]);
}

/* Each pass's counts become bucket starts (exclusive scan of WIDE_DIGITS counts, those past a
 * narrow pass's digits zero; one block per pass). A template, as every kernel of this header:
 * each file that sorts gets its own copy. */
template <typename C>
__global__ void __launch_bounds__(WIDE_DIGITS) bucket_starts_kernel(C *counts) {
  __shared__ uint64_t warp_totals[WIDE_DIGITS / 32];
  C *c = counts + (int64_t)blockIdx.x * WIDE_DIGITS;
  uint64_t total;
  c[threadIdx.x] =
      csri_block_exclusive<csri_sum_op<uint64_t>, WIDE_DIGITS>(c[threadIdx.x], warp_totals, &total);
}

/* --- 2. one pass ----------------------------------------------------------------------------- */

/* The pass's shared memory: per-warp digit counts (later where each warp's keys of a digit start
 * in the staged tile), per digit what to add to a staged item's index for its place in the
 * output, and the tile staged in digit order (keys, then values, in one buffer). Laid out in the
 * dynamic shared memory (shared_bytes below). */
template <typename K, typename V, int DIGITS> struct pass_shared {
  uint32_t (*warp_counts)[DIGITS]; /* [WARPS][DIGITS] */
  uint64_t *out_offset;            /* [DIGITS] */
  unsigned char *staged;           /* [tile_items] keys, later values */

  __device__ __forceinline__ explicit pass_shared(unsigned char *bytes) {
    warp_counts = (uint32_t(*)[DIGITS])bytes;
    out_offset = (uint64_t *)(bytes + sizeof(uint32_t) * WARPS * DIGITS);
    staged = (unsigned char *)(out_offset + DIGITS);
  }
  __device__ __forceinline__ K *staged_keys() const { return (K *)staged; }
  __device__ __forceinline__ V *staged_values() const { return (V *)staged; }
};

template <typename K, typename V, int DIGITS> size_t shared_bytes() {
  const size_t item = value_bytes<V>() > sizeof(K) ? value_bytes<V>() : sizeof(K);
  return sizeof(uint32_t) * WARPS * DIGITS + sizeof(uint64_t) * DIGITS +
         (size_t)tile_items<K, V>() * item;
}

/* --- the pass's steps (CUB's agent): load, rank, count digits, look back, stage, scatter ------ */

/* Warp w owns items [w * 32 * ITEMS, (w + 1) * 32 * ITEMS) of the tile, 32 per round, lane l
 * the l-th of each round: coalesced, and (round, lane) order is item order. */
__device__ __forceinline__ bool item_valid(int tile_n, int warp_base, int r) {
  return warp_base + r * 32 + (int)(threadIdx.x & 31) < tile_n;
}

template <typename T, int ITEMS, typename Load>
__device__ __forceinline__ void load_items(Load load, int64_t tile_base, int tile_n, int warp_base,
                                           T (&item)[ITEMS]) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int r = 0; r < ITEMS; r++) {
    int i = warp_base + r * 32 + lane;
    item[r] = i < tile_n ? load(tile_base + i) : T();
  }
}

/* The lanes of the warp whose label agrees with this lane's in its low BITS bits (this lane
 * among them), from one ballot per bit (src/kernels/warp_match.h); CUB matches digits the same
 * way. */
template <int BITS> __device__ __forceinline__ uint32_t lanes_alike(uint32_t label) {
  uint32_t alike = 0xffffffffu;
#pragma unroll
  for (int b = 0; b < BITS; b++) {
    const bool set = (label >> b) & 1u;
    alike = csri_lanes_agreeing(alike, __ballot_sync(0xffffffffu, set), set);
  }
  return alike;
}

/* The bits of a digit of the pass for DIGITS digit values. */
template <int DIGITS> __host__ __device__ constexpr int digit_bits() {
  return DIGITS == NARROW_DIGITS ? CSRI_RADIX_BITS : CSRI_RADIX_WIDE_BITS;
}

/* The lanes whose digit is this lane's, among the lanes whose item is `valid` (this lane's
 * being so): one ballot per digit bit (lanes_alike), not __match_any_sync. H100, 2026-11-27, same
 * runs, ballots against __match_any_sync: 2^26 40-bit COO pairs with f64 values 0.930x CUB
 * against 0.899-0.905x; building matrices from shuffled triples 1 % slower to 4 % faster, within
 * the 0.5-3 % by which two builds of the same pass code differed. For 32-bit keys the ballots
 * first spilled (2^28 u32 pairs 0.728x against 0.787x); the pass as it is now fits them in its 64
 * registers: 11.70-12.21 ms against 11.89-12.03 (2026-11-28, three runs each, builds side by side),
 * and the passes of both key widths share one ranking. */
template <typename K, int DIGITS>
__device__ __forceinline__ uint32_t match_digits(int digit, bool valid) {
  return lanes_alike<digit_bits<DIGITS>()>((uint32_t)digit) & __ballot_sync(0xffffffffu, valid);
}

/* Rank within the warp: peers with the same digit in this round, plus what the warp counted for
 * that digit in earlier rounds (warp_counts[warp], zeroed). Ends with a barrier. (Having the
 * lowest peer add its group with an atomic that returns the count before, as CUB's ranking does,
 * made the passes slower: 1.54 against 1.26 ms for an 8-bit pass over 2^26 u64 keys with f64
 * values, H100.) */
template <typename K, int DIGITS, int ITEMS, int MODE>
__device__ __forceinline__ void rank_in_warp(const K (&key)[ITEMS], int tile_n, int warp_base,
                                             int shift, int bits, uint32_t *warp_counts,
                                             uint32_t (&rank)[ITEMS], uint32_t &kept) {
  const int lane = threadIdx.x & 31;
  const uint32_t lanes_below = (1u << lane) - 1;
  static_assert(ITEMS <= 32, "a bit of `kept` an item");
  kept = 0;
#pragma unroll
  for (int r = 0; r < ITEMS; r++) {
    /* Digits are recomputed rather than kept: registers go to keys and ranks. Items past the
     * tile's end (and in a DROP pass the marked repeats) get a digit no other lane has; the
     * ballots, which see only its low bits, are masked to the valid lanes. Such items are
     * unmatched and uncounted. */
    bool valid = item_valid(tile_n, warp_base, r);
    if constexpr (MODE == DROP) {
      valid = valid && (key[r] & repeat_bit<K>()) == 0;
      kept |= (uint32_t)valid << r;
    }
    const int digit = valid ? digit_of(key[r], shift, bits) : DIGITS + lane;
    const uint32_t peers = match_digits<K, DIGITS>(digit, valid);
    const uint32_t before = valid ? warp_counts[digit] : 0;
    rank[r] = before + __popc(peers & lanes_below);
    __syncwarp();
    if (valid && (peers & lanes_below) == 0) /* the lowest lane of the group counts it */
      warp_counts[digit] = before + __popc(peers);
    __syncwarp();
  }
  __syncthreads();
}

/* The j-th digit of this thread in the per-digit steps: a thread takes DIGITS / THREADS
 * consecutive digits, so that one scan of the threads' sums puts the digits in order. */
template <int DIGITS> __device__ __forceinline__ int own_digit(int j) {
  return threadIdx.x * (DIGITS / THREADS) + j;
}

/* Per digit d (its thread): the tile's count of d is published (tile 0 publishes it as a
 * prefix), and each warp's count of d becomes where the warp's keys of d start in the tile staged
 * in digit order (d's start in the tile plus the counts of the warps before). count[j], start[j]:
 * the tile's count of the thread's j-th digit and where its run starts in the staged tile;
 * tile_total: the keys ranked in the tile (those staged). Ends with a barrier. */
template <int DIGITS>
__device__ __forceinline__ void
count_digits(uint32_t (*warp_counts)[DIGITS], int64_t tile, const digit_status &status,
             uint32_t *warp_totals, uint32_t (&count)[DIGITS / THREADS],
             uint32_t (&start)[DIGITS / THREADS], uint32_t &tile_total) {
  const int PER = DIGITS / THREADS;
  uint32_t mine = 0;
#pragma unroll
  for (int j = 0; j < PER; j++) {
    const int d = own_digit<DIGITS>(j);
    count[j] = 0;
#pragma unroll
    for (int w = 0; w < WARPS; w++)
      count[j] += warp_counts[w][d];
    status.publish(tile * DIGITS + d, tile == 0 ? CSRI_TILE_PREFIX : CSRI_TILE_AGGREGATE, count[j]);
    mine += count[j];
  }
  uint32_t at =
      csri_block_exclusive<csri_sum_op<uint32_t>, THREADS>(mine, warp_totals, &tile_total);
#pragma unroll
  for (int j = 0; j < PER; j++) {
    const int d = own_digit<DIGITS>(j);
    start[j] = at;
#pragma unroll
    for (int w = 0; w < WARPS; w++) { /* read again: kept from above, they spilled the 9-bit pass */
      const uint32_t c = warp_counts[w][d];
      warp_counts[w][d] = at;
      at += c;
    }
  }
  __syncthreads();
}

/* Each key to its slot in the tile staged in digit order: where its warp's keys of its digit
 * start, plus its rank among them. Ends with a barrier. */
template <typename K, typename V, int DIGITS, int ITEMS, int MODE>
__device__ __forceinline__ void stage_keys(const K (&key)[ITEMS], uint32_t (&slot)[ITEMS],
                                           int tile_n, int warp_base, int shift, int bits,
                                           uint32_t kept, const pass_shared<K, V, DIGITS> &sh) {
  const int warp = threadIdx.x >> 5;
#pragma unroll
  for (int r = 0; r < ITEMS; r++)
    if (MODE == DROP ? (kept >> r & 1u) != 0 : item_valid(tile_n, warp_base, r)) {
      slot[r] += sh.warp_counts[warp][digit_of(key[r], shift, bits)];
      sh.staged_keys()[slot[r]] = key[r];
    }
  __syncthreads();
}

/* --- the MARK pass's steps (pass_mode) ------------------------------------------------------ */

/* The 32 keys before the tile (keys before the input's start are never read), to back[]: warp
 * 0, as it loads its items, so that the loads are in flight together. */
template <typename K, typename Keys>
__device__ __forceinline__ void load_back(Keys keys_in, int64_t tile_base, K *back) {
  const int64_t b = tile_base - 32 + (int)threadIdx.x;
  back[threadIdx.x] = b >= 0 ? keys_in(b) : K();
}

/* Whether the tile has a head: its first keys agree, in the bits below `shift` (those its input
 * is sorted by), with the key before the tile. Warp 0, whose lane l holds item l in `first`
 * (items 0-31), decides, from the 32 keys before the tile in back_keys (load_back). The head's
 * keys are not marked (*head_on, *head_low for the other warps); when a head key equals another
 * head key or a key of the run before the tile, repeats are left (found->leftover), and so they
 * are, unexamined, when the head or the run before it reaches 32 keys. Called after the ranking:
 * before it, its collectives, under a branch the compiler cannot tell is uniform over warps,
 * gave the ranking's ballots a second, divergent copy (the pass's code twice as large). */
template <typename K>
__device__ __forceinline__ void check_head(const K *back_keys, K first, int64_t tile_base,
                                           int tile_n, int shift, repeats_found *found,
                                           int *head_on, K *head_low) {
  const int lane = threadIdx.x & 31;
  const K mask = ((K)1 << shift) - 1;
  const int64_t b = tile_base - 32 + lane;
  const K back = back_keys[lane];
  const K low = back_keys[31] & mask; /* the key just before the tile */
  const uint32_t head =
      __ballot_sync(0xffffffffu, tile_base > 0 && lane < tile_n && (first & mask) == low);
  if (lane == 0)
    *head_on = head & 1u, *head_low = low;
  if ((head & 1u) == 0)
    return;
  /* Both runs are contiguous: the head from lane 0 up, the run before from lane 31 down. */
  const int head_n = head == 0xffffffffu ? 32 : __ffs(~head) - 1;
  const uint32_t before = __ballot_sync(0xffffffffu, b >= 0 && (back & mask) == low);
  const int before_n = before == 0xffffffffu ? 32 : __clz(~before);
  bool equal = false;
#pragma unroll 1
  for (int j = 0; j < 32; j++) {
    const K other_head = __shfl_sync(0xffffffffu, first, j),
            other_before = __shfl_sync(0xffffffffu, back, j);
    equal |= lane < head_n &&
             ((j < lane && first == other_head) || (j >= 32 - before_n && first == other_before));
  }
  const bool left = __any_sync(0xffffffffu, equal) || head_n == 32 || before_n == 32;
  if (lane == 0 && left)
    atomicOr(&found->leftover, 1u);
}

/* The MARK pass's records, in the warp counts' shared memory (free once the keys are staged):
 * the repeats marked by last digit, then each recorded run's roots and place. */
template <int DIGITS> struct run_records {
  static constexpr int BYTES = (int)sizeof(uint32_t) * WARPS * DIGITS;
  static constexpr int MOST = (BYTES - WIDE_DIGITS * 4) / 12;
  uint32_t *drops;
  uint64_t *roots;
  uint32_t *place;
  __device__ __forceinline__ explicit run_records(void *bytes) {
    drops = (uint32_t *)bytes;
    roots = (uint64_t *)(drops + WIDE_DIGITS);
    place = (uint32_t *)(roots + MOST);
  }
  /* The records kept of records_n counted (those past MOST found no room). */
  static __device__ __forceinline__ int kept(int records_n) { return min(records_n, MOST); }
  /* f(i, root) for each repeat of the first `records` records, i and root its and its root's
   * places in the staged tile, the block's threads taking the records in turn and each record's
   * repeats in its run's order. */
  template <typename F> __device__ __forceinline__ void each_repeat(int records, F f) const {
    for (int q = threadIdx.x; q < records; q += THREADS) {
      const int start = csri_run_start(place[q]), len = csri_run_length(place[q]);
      for (int m = 1; m < len; m++) {
        const int root = csri_run_root(roots[q], m);
        if (root != m)
          f(start + m, start + root);
      }
    }
  }
};

/* The run of keys agreeing under low_mask that starts at staged key i (of tile_n), at least two
 * long, recorded if it holds repeats; false if it is left (too long, or no room to record it).
 * Out of line, from one call site: runs are rare, and the pass's code must stay small enough for
 * the instruction cache. With the walk inlined into the pass's unrolled loop (and check_head
 * before the ranking) the pass took 2.05 ms against 1.15 for a plain one (H100, 2^26 keys with
 * f64 values), its warps stalled on instruction fetch 4.68 cycles an instruction against 0.07. */
template <int DIGITS>
__device__ __noinline__ bool record_run(const uint64_t *keys, int i, int tile_n, uint64_t low_mask,
                                        run_records<DIGITS> rec, int *records_n) {
  const uint64_t low = keys[i] & low_mask;
  int len = 2;
  while (len <= CSRI_RUN_MOST && i + len < tile_n && (keys[i + len] & low_mask) == low)
    len++;
  uint64_t roots = 0;
  if (len > CSRI_RUN_MOST)
    return false;
  if (csri_run_roots(keys + i, len, &roots) == 0)
    return true;
  const int at = atomicAdd(records_n, 1);
  if (at >= run_records<DIGITS>::MOST)
    return false;
  rec.roots[at] = roots, rec.place[at] = csri_run_place(i, len);
  return true;
}

/* MARK, once every thread is past the scatter (a barrier: the records are in): each recorded
 * repeat's key written again where the scatter put it, with the repeat bit, and counted by last
 * digit (in the block, then into marks.drops and found->dropped). It reads the staged keys: when
 * anything is recorded it ends with a barrier, before the values take the buffer. */
template <typename K, typename V, int DIGITS, typename Out>
__device__ __forceinline__ void flag_repeats(const pass_shared<K, V, DIGITS> &sh, int shift,
                                             int bits, Out keys_out, const repeat_marks &marks,
                                             int records_n) {
  const run_records<DIGITS> rec((void *)sh.warp_counts);
  const int records = run_records<DIGITS>::kept(records_n);
  if (records == 0)
    return;
  const int last_digits = 1 << marks.last_bits;
  for (int d = threadIdx.x; d < last_digits; d += THREADS)
    rec.drops[d] = 0;
  __syncthreads();
  rec.each_repeat(records, [&](int i, int) {
    const K key = sh.staged_keys()[i];
    atomicAdd(&rec.drops[digit_of(key, marks.last_shift, marks.last_bits)], 1u);
    keys_out(sh.out_offset[digit_of(key, shift, bits)] + i, key | repeat_bit<K>());
  });
  __syncthreads();
  for (int d = threadIdx.x; d < last_digits; d += THREADS)
    if (rec.drops[d] != 0) {
      atomicAdd(&marks.drops[d], (unsigned long long)rec.drops[d]);
      atomicAdd(&marks.found->dropped, (unsigned long long)rec.drops[d]);
    }
}

/* MARK: each recorded repeat's value added to its root's in the staged values, in the run's
 * order (input order): as floating-point numbers of the values' size. Ends with a barrier when
 * there is anything to add. */
template <typename K, typename V, int DIGITS>
__device__ __forceinline__ void sum_repeats(const pass_shared<K, V, DIGITS> &sh,
                                            const int *records_n) {
  const int records = run_records<DIGITS>::kept(*records_n);
  if (records == 0)
    return;
  V *values = sh.staged_values();
  run_records<DIGITS>((void *)sh.warp_counts).each_repeat(records, [&](int i, int root) {
    V &sum = values[root];
    if constexpr (sizeof(V) == 8)
      sum = (V)__double_as_longlong(__longlong_as_double((long long)sum) +
                                    __longlong_as_double((long long)values[i]));
    else
      sum =
          (V)__float_as_uint(__uint_as_float((unsigned)sum) + __uint_as_float((unsigned)values[i]));
  });
  __syncthreads();
}

/* Look back (per digit d, its thread) for the keys of digit d in the tiles before this one, after
 * the tile is staged (the tiles before have had that long to publish): the staged item i of digit
 * d goes to out_offset[d] + i in the output. Publishes the tile's inclusive count of d. Ends with
 * a barrier. */
template <int DIGITS>
__device__ __forceinline__ void look_back_digits(const digit_status &status, int64_t tile,
                                                 const uint32_t (&count)[DIGITS / THREADS],
                                                 const uint32_t (&start)[DIGITS / THREADS],
                                                 const unsigned long long *bucket_start,
                                                 uint64_t *out_offset) {
#pragma unroll
  for (int j = 0; j < DIGITS / THREADS; j++) {
    const int d = own_digit<DIGITS>(j);
    uint64_t before = 0;
    if (tile > 0) {
      for (int64_t t = tile - 1;; t--) {
        uint32_t flag;
        uint64_t c;
        status.wait(t * DIGITS + d, &flag, &c);
        before += c;
        if (flag == CSRI_TILE_PREFIX)
          break;
      }
      status.publish(tile * DIGITS + d, CSRI_TILE_PREFIX, before + count[j]);
    }
    /* Not below 0: the keys of smaller digits in the tile are among those before the bucket. */
    out_offset[d] = bucket_start[d] + before - start[j];
  }
  __syncthreads();
}

/* Each digit's run of keys from shared memory to its place in the output: contiguous writes.
 * Thread t writes staged items t + j * THREADS; digit_at[j] keeps their digits for the values.
 * each(j, i, key) is called for each key written (the MARK pass looks at it there). */
template <typename K, typename V, int DIGITS, int ITEMS, typename Out, typename Each>
__device__ __forceinline__ void scatter_keys(const pass_shared<K, V, DIGITS> &sh, int tile_n,
                                             int shift, int bits, Out keys_out,
                                             uint32_t (&digit_at)[ITEMS], Each each) {
#pragma unroll
  for (int j = 0; j < ITEMS; j++) {
    int i = threadIdx.x + j * THREADS;
    if (i < tile_n) {
      K k = sh.staged_keys()[i];
      digit_at[j] = digit_of(k, shift, bits);
      keys_out(sh.out_offset[digit_at[j]] + i, k);
      each(j, i, k);
    }
  }
}

/* MARK: scatter_keys, finding on the way the runs of two keys or more that agree in the bits
 * below shift + bits (the tile is staged in their order), each by the thread of its first key,
 * and recording those with repeats (*records_n; a run that does not fit, or is longer than
 * CSRI_RUN_MOST, is left: found->leftover). Keys of the head (check_head) are left alone. */
template <typename K, typename V, int DIGITS, int ITEMS, typename Out>
__device__ __forceinline__ void
scatter_finding_runs(const pass_shared<K, V, DIGITS> &sh, int tile_n, int shift, int bits,
                     Out keys_out, uint32_t (&digit_at)[ITEMS], bool head_on, K head_low,
                     const repeat_marks &marks, int *records_n) {
  static_assert(sizeof(K) == 8, "runs are compared as 64-bit keys");
  const run_records<DIGITS> rec((void *)sh.warp_counts);
  const K low_mask = ((K)1 << (shift + bits)) - 1, head_mask = ((K)1 << shift) - 1;
  const K *keys = sh.staged_keys();
  uint32_t firsts = 0; /* bit j: staged key threadIdx.x + j * THREADS starts a run */
  scatter_keys<K, V, DIGITS, ITEMS, Out>(
      sh, tile_n, shift, bits, keys_out, digit_at, [&](int j, int i, K k) {
        if (i + 1 < tile_n && ((keys[i + 1] ^ k) & low_mask) == 0 &&
            (i == 0 || ((keys[i - 1] ^ k) & low_mask) != 0) &&
            !(head_on && (k & head_mask) == head_low))
          firsts |= 1u << j;
      });
  bool left = false; /* one call site: one per item made the pass's code half as large again */
  for (; firsts != 0; firsts &= firsts - 1) {
    const int i = threadIdx.x + (__ffs(firsts) - 1) * THREADS;
    left |= !record_run<DIGITS>((const uint64_t *)keys, i, tile_n, low_mask, rec, records_n);
  }
  if (left)
    atomicOr(&marks.found->leftover, 1u);
}

/* The values: read now (the keys are out), staged in the slots their keys took, written to
 * where their keys went. */
template <typename K, typename V, int DIGITS, int ITEMS, int MODE, typename KeysRead>
__device__ __forceinline__ void move_values(const pass_shared<K, V, DIGITS> &sh, const V *values_in,
                                            V *values_out, int64_t tile_base, int tile_n,
                                            int staged_n, int warp_base, uint32_t kept,
                                            const int *records_n, const uint32_t (&slot)[ITEMS],
                                            const uint32_t (&digit_at)[ITEMS], KeysRead keys_read) {
  V value[ITEMS];
  load_items<V, ITEMS>([values_in](int64_t i) { return values_in[i]; }, tile_base, tile_n,
                       warp_base, value);
  __syncthreads(); /* every staged key has been read */
  keys_read();     /* MARK: flag_repeats, which may read them again */
#pragma unroll
  for (int r = 0; r < ITEMS; r++)
    if (MODE == DROP ? (kept >> r & 1u) != 0 : item_valid(tile_n, warp_base, r))
      sh.staged_values()[slot[r]] = value[r];
  __syncthreads();
  if constexpr (MODE == MARK)
    sum_repeats<K, V, DIGITS>(sh, records_n);
#pragma unroll
  for (int j = 0; j < ITEMS; j++) {
    int i = threadIdx.x + j * THREADS;
    if (i < staged_n)
      values_out[sh.out_offset[digit_at[j]] + i] = sh.staged_values()[i];
  }
}

/* One pass over digits of up to log2(DIGITS) bits: one tile per block. MODE: pass_mode (marks
 * unused in a PLAIN pass). */
template <typename K, typename V, int DIGITS, typename Keys, typename Out, int MODE>
__global__ void __launch_bounds__(THREADS, min_blocks<K, V>())
    pass_kernel(Keys keys_in, const V *values_in, Out keys_out, V *values_out, int64_t n, int shift,
                int bits, const unsigned long long *bucket_start, digit_status status,
                unsigned long long *next_tile, repeat_marks marks) {
  const int ITEMS = items<K, V>();
  extern __shared__ __align__(16) unsigned char shared_bytes_[];
  const pass_shared<K, V, DIGITS> sh(shared_bytes_);
  __shared__ int64_t tile_shared;
  __shared__ uint32_t warp_totals[WARPS];
  __shared__ int records_n, head_on; /* MARK */
  __shared__ K head_low, back_keys[32];

  for (int i = threadIdx.x; i < WARPS * DIGITS; i += THREADS)
    sh.warp_counts[i / DIGITS][i % DIGITS] = 0;
  if (MODE == MARK && threadIdx.x == 0)
    records_n = 0;
  constexpr int64_t TILE = tile_items<K, V>();
  const int64_t tile = csri_take_tile(next_tile, &tile_shared), tile_base = tile * TILE;
  const int tile_n = (int)(n - tile_base < TILE ? n - tile_base : TILE);
  const int warp_base = (threadIdx.x >> 5) * 32 * ITEMS;

  K key[ITEMS];
  uint32_t slot[ITEMS], digit_at[ITEMS], count[DIGITS / THREADS], start[DIGITS / THREADS];
  uint32_t kept, staged_n;
  load_items<K, ITEMS>(keys_in, tile_base, tile_n, warp_base, key);
  if constexpr (MODE == MARK)
    if (threadIdx.x < 32) /* read by warp 0 after the ranking's barrier */
      load_back<K, Keys>(keys_in, tile_base, back_keys);
  rank_in_warp<K, DIGITS, ITEMS, MODE>(key, tile_n, warp_base, shift, bits,
                                       sh.warp_counts[threadIdx.x >> 5], slot, kept);
  count_digits<DIGITS>(sh.warp_counts, tile, status, warp_totals, count, start, staged_n);
  if constexpr (MODE == MARK)
    if (threadIdx.x < 32) /* visible to every warp after the staging's barrier */
      check_head<K>(back_keys, key[0], tile_base, tile_n, shift, marks.found, &head_on, &head_low);
  stage_keys<K, V, DIGITS, ITEMS, MODE>(key, slot, tile_n, warp_base, shift, bits, kept, sh);
  if constexpr (MODE != DROP)
    staged_n = tile_n; /* the same number: kept as a constant where nothing is dropped */
  look_back_digits<DIGITS>(status, tile, count, start, bucket_start, sh.out_offset);
  if constexpr (MODE == MARK)
    scatter_finding_runs<K, V, DIGITS, ITEMS, Out>(sh, tile_n, shift, bits, keys_out, digit_at,
                                                   head_on != 0, head_low, marks, &records_n);
  else
    scatter_keys<K, V, DIGITS, ITEMS, Out>(sh, (int)staged_n, shift, bits, keys_out, digit_at,
                                           [](int, int, K) {});
  /* MARK: the repeats flagged once every thread is past the scatter (records_n is read then) */
  const auto flag = [&] {
    if constexpr (MODE == MARK)
      flag_repeats<K, V, DIGITS, Out>(sh, shift, bits, keys_out, marks, records_n);
  };
  if constexpr (has_values<V>())
    move_values<K, V, DIGITS, ITEMS, MODE>(sh, values_in, values_out, tile_base, tile_n,
                                           (int)staged_n, warp_base, kept, &records_n, slot,
                                           digit_at, flag);
  else if constexpr (MODE == MARK) {
    __syncthreads(); /* the records are in */
    flag();
  }
}

/* --- the sort ------------------------------------------------------------------------------- */

/* Workspace: [tile counters][digit counts][repeats: drops, found][status][keys][values], and
 * with `third` [keys][values] again (src/kernels/radix_plan.h: the buffers); all before the
 * status zeroed at the sort's start. */
struct layout {
  size_t counters, counts, drops, found, status, keys, values, keys3, values3, total;
};

inline layout make_layout(size_t key_size, size_t value_size, int64_t n, bool third = false) {
  const int64_t tile = tile_items_for(key_size, value_size);
  const int64_t tiles = (n + tile - 1) / tile;
  const int passes_max = most_passes(key_size);
  layout l;
  l.counters = 0;
  l.counts = csri_align256((size_t)passes_max * 8);
  l.drops = l.counts + csri_align256((size_t)passes_max * WIDE_DIGITS * 8);
  l.found = l.drops + csri_align256((size_t)WIDE_DIGITS * 8);
  l.status = l.found + csri_align256(sizeof(repeats_found));
  l.keys = l.status + digit_status::bytes(tiles * WIDE_DIGITS);
  l.values = l.keys + csri_align256((size_t)n * key_size);
  l.keys3 = l.values + csri_align256((size_t)n * value_size);
  l.values3 = third ? l.keys3 + csri_align256((size_t)n * key_size) : l.keys3;
  l.total = third ? l.values3 + csri_align256((size_t)n * value_size) : l.keys3;
  return l;
}

/* The workspace of an in-place sort over bits [begin_bit, end_bit): a third buffer when the
 * plan's pass count wants one. */
inline size_t in_place_bytes(size_t key_size, size_t value_size, int64_t n, int begin_bit,
                             int end_bit) {
  const csri_radix_plan plan =
      csri_radix_plan_for(begin_bit, end_bit, CSRI_RADIX_BITS, CSRI_RADIX_WIDE_BITS);
  return make_layout(key_size, value_size, n, csri_radix_wants_third_buffer(plan.passes)).total;
}

/* One pass over the digits of `bits` bits at `shift`, in the kernel for DIGITS digit values:
 * its statuses cleared, its shared memory allowed, the kernel launched. */
template <typename K, typename V, int DIGITS, typename Keys, typename Out, int MODE>
csr_status launch_pass(csr_context *ctx, Keys keys_in, const V *values_in, Out keys_out,
                       V *values_out, int64_t n, int shift, int bits,
                       const unsigned long long *bucket_start, const digit_status &status,
                       unsigned long long *next_tile, const repeat_marks &marks) {
  cudaStream_t stream = csri_stream(ctx);
  const int64_t tiles = (n + tile_items<K, V>() - 1) / tile_items<K, V>();
  const size_t shared = shared_bytes<K, V, DIGITS>();
  const auto kernel = pass_kernel<K, V, DIGITS, Keys, Out, MODE>;
  CSRI_CUDA_TRY(ctx, cudaMemsetAsync(status.words, 0, digit_status::bytes(tiles * DIGITS), stream));
  CSRI_CUDA_TRY(
      ctx, cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
  kernel<<<(unsigned)tiles, THREADS, shared, stream>>>(keys_in, values_in, keys_out, values_out, n,
                                                       shift, bits, bucket_start, status, next_tile,
                                                       marks);
  return CSRI_CUDA_CHECK(ctx, "radix sort pass");
}

/* A pass in the narrow kernel when its digits fit, else in the wide one. */
template <typename K, typename V, typename Keys, typename Out, int MODE = PLAIN>
csr_status pass_of_width(csr_context *ctx, Keys keys_in, const V *values_in, Out keys_out,
                         V *values_out, int64_t n, int shift, int bits,
                         const unsigned long long *bucket_start, const digit_status &status,
                         unsigned long long *next_tile, const repeat_marks &marks) {
  if (bits <= CSRI_RADIX_BITS)
    return launch_pass<K, V, NARROW_DIGITS, Keys, Out, MODE>(
        ctx, keys_in, values_in, keys_out, values_out, n, shift, bits, bucket_start, status,
        next_tile, marks);
  return launch_pass<K, V, WIDE_DIGITS, Keys, Out, MODE>(ctx, keys_in, values_in, keys_out,
                                                         values_out, n, shift, bits, bucket_start,
                                                         status, next_tile, marks);
}

/* The last pass's bucket starts lowered by the repeats marked of smaller digits (one block). */
template <typename C>
__global__ void __launch_bounds__(WIDE_DIGITS)
    drop_starts_kernel(C *starts, const unsigned long long *drops) {
  __shared__ uint64_t warp_totals[WIDE_DIGITS / 32];
  uint64_t total;
  starts[threadIdx.x] -= csri_block_exclusive<csri_sum_op<uint64_t>, WIDE_DIGITS>(
      drops[threadIdx.x], warp_totals, &total);
}

/* The digit counts of every pass, then the passes. The first pass reads first_keys and
 * first_values; the sorted keys and values end in keys and values. in_place: first_keys reads
 * keys and first_values is values (the passes go from the caller's arrays through the
 * workspace's and back, src/kernels/radix_plan.h: an odd number of them takes the workspace's
 * third buffer, sized by in_place_bytes, or ends with one copy back); otherwise the passes
 * alternate so that the last one writes the caller's arrays, or, when `last` is given (not in
 * place), writes the sorted keys through last->keys and the values to last->values (keys and values
 * are then only where passes before it write: the sort takes two passes or more, and the last one
 * reads the workspace's). first_bad, when given (device memory), gets the first key that
 * first_keys.checked finds bad, if it is below what *first_bad holds (an in-place sort over no
 * bits checks nothing); the sort goes on regardless: every digit is masked to its bits, so bad
 * keys are moved like any other, never written out of bounds.
 * REPEATS (64-bit keys below bit 63, a `last` output; values of 8 bytes are summed as doubles, of 4
 * as floats): when the sort takes three passes or more, the pass before the last marks repeats
 * and the last drops them (pass_mode), so the last output gets n - dropped keys; *marked says
 * whether it did, and then repeats_found_in(workspace) holds what was found. */
template <typename K, typename V, typename FirstKeys, typename LastKeys = key_store<K>,
          bool REPEATS = false>
csr_status sort(csr_context *ctx, FirstKeys first_keys, const V *first_values, bool in_place,
                K *keys, V *values, int64_t n, int begin_bit, int end_bit, void *workspace,
                unsigned long long *first_bad = nullptr,
                const last_output<LastKeys, V> *last = nullptr, bool *marked = nullptr) {
  cudaStream_t stream = csri_stream(ctx);
  csri_radix_plan plan =
      csri_radix_plan_for(begin_bit, end_bit, CSRI_RADIX_BITS, CSRI_RADIX_WIDE_BITS);
  const bool third = in_place && csri_radix_wants_third_buffer(plan.passes);
  layout l = make_layout(sizeof(K), value_bytes<V>(), n, third);
  char *w = (char *)workspace;
  unsigned long long *counters = (unsigned long long *)(w + l.counters);
  unsigned long long *counts = (unsigned long long *)(w + l.counts);
  const digit_status status = digit_status::at(w + l.status, 0);
  /* Out of place, no bits still takes one pass (every key of digit 0): a stable copy. */
  if (plan.passes == 0 && in_place)
    return CSR_SUCCESS;
  if (plan.passes == 0) /* digit 0 for every key (shift 0: begin may be 64, past the key) */
    plan.passes = 1, plan.shift[0] = 0;
  if (last != nullptr && in_place)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "radix sort: an in-place sort writes its own keys");
  /* The first pass reads through its reader and the last writes through its own: two kernels. */
  if (last != nullptr)
    plan = csri_radix_plan_two_or_more(plan);

  CSRI_CUDA_TRY(ctx, cudaMemsetAsync(w, 0, l.status, stream)); /* counters and counts */
  int hist_blocks = csri_cuda_sm_count() * CSRI_RADIX_HIST_BLOCKS_PER_SM;
  int64_t most = (n + CSRI_RADIX_HIST_THREADS * CSRI_RADIX_HIST_ITEMS - 1) /
                 (CSRI_RADIX_HIST_THREADS * CSRI_RADIX_HIST_ITEMS);
  if (most < hist_blocks)
    hist_blocks = (int)(most > 0 ? most : 1);
  digit_counts_kernel<K, FirstKeys>
      <<<hist_blocks, CSRI_RADIX_HIST_THREADS, 0, stream>>>(first_keys, n, plan, counts, first_bad);
  bucket_starts_kernel<<<plan.passes, WIDE_DIGITS, 0, stream>>>(counts);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "radix sort digit counts"));

  K *key_buf[3] = {keys, (K *)(w + l.keys), (K *)(w + l.keys3)};
  V *value_buf[3] = {values, (V *)(w + l.values), (V *)(w + l.values3)};
  const int passes = plan.passes;
  auto out = [&](int p) { return csri_radix_pass_writes(passes, in_place, third, p); };
  const bool marking = REPEATS && passes >= 3 && last != nullptr && end_bit < 64;
  if (marked != nullptr)
    *marked = marking;
  const repeat_marks marks = {(unsigned long long *)(w + l.drops), (repeats_found *)(w + l.found),
                              plan.shift[passes - 1], plan.bits[passes - 1]};
  for (int p = 0; p < passes; p++) {
    const int to = out(p), from = p == 0 ? 0 : out(p - 1); /* pass 0 reads first_keys */
    const key_store<K> to_keys = {key_buf[to]};
    unsigned long long *starts = counts + (int64_t)p * WIDE_DIGITS;
    const key_array<K> from_keys = {key_buf[from]};
    if (p == 0)
      CSRI_TRY((pass_of_width<K, V, FirstKeys, key_store<K>>(
          ctx, first_keys, first_values, to_keys, value_buf[to], n, plan.shift[p], plan.bits[p],
          starts, status, counters, marks)));
    else if (p == passes - 1 && last != nullptr) {
      if constexpr (REPEATS) {
        static_assert(sizeof(K) == 8, "repeats are marked in 64-bit keys");
        if (marking) {
          drop_starts_kernel<<<1, WIDE_DIGITS, 0, stream>>>(starts, marks.drops);
          CSRI_TRY((pass_of_width<K, V, key_array<K>, LastKeys, DROP>(
              ctx, from_keys, value_buf[from], last->keys, last->values, n, plan.shift[p],
              plan.bits[p], starts, status, counters + p, marks)));
          continue;
        }
      }
      CSRI_TRY((pass_of_width<K, V, key_array<K>, LastKeys>(
          ctx, from_keys, value_buf[from], last->keys, last->values, n, plan.shift[p], plan.bits[p],
          starts, status, counters + p, marks)));
    } else {
      if constexpr (REPEATS)
        if (marking && p == passes - 2) {
          CSRI_TRY((pass_of_width<K, V, key_array<K>, key_store<K>, MARK>(
              ctx, from_keys, value_buf[from], to_keys, value_buf[to], n, plan.shift[p],
              plan.bits[p], starts, status, counters + p, marks)));
          continue;
        }
      CSRI_TRY((pass_of_width<K, V, key_array<K>, key_store<K>>(
          ctx, from_keys, value_buf[from], to_keys, value_buf[to], n, plan.shift[p], plan.bits[p],
          starts, status, counters + p, marks)));
    }
  }
  if (last != nullptr)
    return CSR_SUCCESS;
  if (out(passes - 1) == 0)
    return CSR_SUCCESS;
  /* In place with one pass: the result is in the workspace. */
  CSRI_CUDA_TRY(ctx, cudaMemcpyAsync(keys, key_buf[1], (size_t)n * sizeof(K),
                                     cudaMemcpyDeviceToDevice, stream));
  if constexpr (has_values<V>())
    CSRI_CUDA_TRY(ctx, cudaMemcpyAsync(values, value_buf[1], (size_t)n * sizeof(V),
                                       cudaMemcpyDeviceToDevice, stream));
  return CSRI_CUDA_CHECK(ctx, "radix sort");
}

/* What the MARK pass found, in a sort's workspace (sort's REPEATS). */
inline repeats_found *repeats_found_in(void *workspace, size_t key_size, size_t value_size,
                                       int64_t n) {
  return (repeats_found *)((char *)workspace + make_layout(key_size, value_size, n).found);
}

/* sort() with the values' type picked from their size: 8 or 4 bytes (moved as bits), 0 none.
 * last_keys, when given, with last_values: where the last pass writes (sort's `last`). */
template <typename K, typename FirstKeys, typename LastKeys = key_store<K>, bool REPEATS = false>
csr_status sort_by_value_size(csr_context *ctx, FirstKeys first_keys, const void *first_values,
                              bool in_place, K *keys, size_t value_size, void *values, int64_t n,
                              int begin_bit, int end_bit, void *workspace,
                              unsigned long long *first_bad = nullptr,
                              const LastKeys *last_keys = nullptr, void *last_values = nullptr,
                              bool *marked = nullptr) {
  const auto with = [&](auto *type) {
    using V = std::remove_pointer_t<decltype(type)>;
    const last_output<LastKeys, V> last = {last_keys ? *last_keys : LastKeys(), (V *)last_values};
    return sort<K, V, FirstKeys, LastKeys, REPEATS>(
        ctx, first_keys, (const V *)first_values, in_place, keys, (V *)values, n, begin_bit,
        end_bit, workspace, first_bad, last_keys ? &last : nullptr, marked);
  };
  if (value_size == 8)
    return with((uint64_t *)nullptr);
  if (value_size == 4)
    return with((uint32_t *)nullptr);
  return with((none *)nullptr);
}

} // namespace csri_radix

#endif
