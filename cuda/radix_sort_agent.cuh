/* SPDX-License-Identifier: BSD-3-Clause */
/* One tile of one LSD radix sort pass: key k of digit d = (k >> shift) & (2^bits - 1) goes to
 * bucket_start[d] + (keys of digit d in the tiles before) + (its rank among the tile's keys of d).
 *
 * The per-tile work (CUB's agent) of the sort in cuda/radix_sort.cuh, which holds the kernels and
 * the dispatch. A pass's block takes the next tile and: loads its keys (load_items); ranks them
 * within the tile per digit (rank_in_warp: warps rank 32 keys at a time, a ballot per digit bit
 * finding the lanes of equal digit, keeping keys in order, which keeps the sort stable);
 * publishes its per-digit counts (count_digits) and stages its keys in shared memory in digit
 * order (stage_keys), so that the writes of each digit's run are contiguous. Only then does the
 * thread of each digit (a thread has one, or two in a 9-bit pass) look back over the preceding
 * tiles' counts (look_back_digits, decoupled look-back as in cuda/scan.cu) for where the tile's
 * keys of that digit go: the staging gives those tiles time to publish, so the look-back waits
 * less. The keys are written out (scatter_keys), and the values follow through the same shared
 * buffer (move_values). Values are read only once the keys are out: registers and shared memory
 * hold one array at a time, which lets more blocks share a multiprocessor. The MARK pass's steps
 * (load_back, check_head, scatter_finding_runs, flag_repeats, sum_repeats) take out repeated
 * keys (pass_mode). The digit counts that precede the passes have their per-block steps here
 * too. Tile shapes come from cuda/tuning.cuh. Internal. */
#ifndef CSR_CUDA_RADIX_SORT_AGENT_CUH
#define CSR_CUDA_RADIX_SORT_AGENT_CUH

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

/* --- the digit counts' steps: every pass's digits counted in one read of the keys ----------- */

/* The block's counts of every pass, local[p][d], zeroed. Ends with a barrier. */
template <int MOST>
__device__ __forceinline__ void clear_pass_counts(uint32_t (&local)[MOST][WIDE_DIGITS],
                                                  int passes) {
  for (int i = threadIdx.x; i < passes * WIDE_DIGITS; i += blockDim.x)
    local[i / WIDE_DIGITS][i % WIDE_DIGITS] = 0;
  __syncthreads();
}

/* local[p][d] += the block's keys (a grid-stride loop over chunks) whose digit in pass p of `plan`
 * is d; returns the first key that Keys::checked finds bad among the thread's, ~0 if none.
 * Chunks of ITEMS keys a thread, coalesced (key j of the thread at chunk + j * THREADS + t), all
 * loaded before any is counted: one key at a time left the loads' latency exposed. The next
 * chunk's loads go out before this chunk is counted, so that a warp's loads overlap its
 * counting: with the two in turn, the kernel waited on memory at half the bandwidth. */
template <typename K, typename Keys, int MOST>
__device__ __forceinline__ unsigned long long
count_key_digits(const Keys &keys, int64_t n, const csri_radix_plan &plan, int passes,
                 uint32_t (&local)[MOST][WIDE_DIGITS]) {
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
  return bad;
}

/* counts[p * WIDE_DIGITS + d] += local[p][d], where not zero. */
template <int MOST>
__device__ __forceinline__ void add_pass_counts(const uint32_t (&local)[MOST][WIDE_DIGITS],
                                                int passes, unsigned long long *counts) {
  for (int i = threadIdx.x; i < passes * WIDE_DIGITS; i += blockDim.x)
    if (local[i / WIDE_DIGITS][i % WIDE_DIGITS])
      atomicAdd(&counts[i], (unsigned long long)local[i / WIDE_DIGITS][i % WIDE_DIGITS]);
}

/* --- one pass's tile: its shared memory, and its steps -----------------------------------------
 */

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

} // namespace csri_radix

#endif
