/* SPDX-License-Identifier: BSD-3-Clause */
/* keys (and values) reordered so that keys ascend by bits [begin, end), stably: LSD radix sort
 * with 8-bit digits (9-bit where that takes fewer passes: src/kernels/radix_plan.h), one pass per
 * digit, each pass one kernel (onesweep, Adinets and Merrill 2022).
 *
 *  1. One read of the keys counts every pass's digits at once; a scan of each pass's counts
 *     gives where each digit's bucket starts.
 *  2. A pass: each block takes the next tile, ranks its keys within the tile per digit, stages
 *     them in shared memory in digit order, looks back over the preceding tiles' counts for where
 *     each digit's keys go and writes them, then the values (cuda/radix_sort_agent.cuh, the
 *     per-tile steps).
 *
 * This header is the kernels and the dispatch: the workspace's layout, the grid of each launch,
 * the plan of passes and which kernel runs each. The first pass reads its keys through a functor
 * (key(i) for i < n) and its values from their own array, so that a caller whose keys are
 * computed (the COO converter's (row, column) keys) or whose values must stay as they are sorts
 * without first copying them; the digit counts may have the functor check each key (fetch, then
 * checked: see key_array) and report the first bad one. The last pass may likewise write its keys
 * through a functor (out(i, key)) and its values to an array of the caller's: the COO converter's
 * last pass writes rows and columns apart, the columns and the values straight into the CSR
 * arrays. The COO converter's sort also takes out repeated keys, their values summed in input
 * order, in its last two passes (pass_mode: the pass before the last finds them in its staged
 * tile, the last drops them), so that no copy around them is needed after the sort. */
#ifndef CSR_CUDA_RADIX_SORT_CUH
#define CSR_CUDA_RADIX_SORT_CUH

#include "radix_sort_agent.cuh"

#include <type_traits>

namespace csri_radix {

/* --- the kernels ------------------------------------------------------------------------------ */

/* counts[p * WIDE_DIGITS + d] += the keys whose digit in pass p of `plan` is d; the first bad key
 * (Keys::checked) into *first_bad when it is given. */
template <typename K, typename Keys>
__global__ void __launch_bounds__(CSRI_RADIX_HIST_THREADS)
    digit_counts_kernel(Keys keys, int64_t n, csri_radix_plan plan, unsigned long long *counts,
                        unsigned long long *first_bad) {
  const int MOST = most_passes(sizeof(K));
  __shared__ uint32_t local[MOST][WIDE_DIGITS];
  const int passes = plan.passes;
  clear_pass_counts<MOST>(local, passes);
  const unsigned long long bad = count_key_digits<K, Keys, MOST>(keys, n, plan, passes, local);
  if (first_bad != nullptr)
    csri_grid_first(bad, first_bad);
  __syncthreads();
  add_pass_counts<MOST>(local, passes, counts);
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

/* The last pass's bucket starts lowered by the repeats marked of smaller digits (one block). */
template <typename C>
__global__ void __launch_bounds__(WIDE_DIGITS)
    drop_starts_kernel(C *starts, const unsigned long long *drops) {
  __shared__ uint64_t warp_totals[WIDE_DIGITS / 32];
  uint64_t total;
  starts[threadIdx.x] -= csri_block_exclusive<csri_sum_op<uint64_t>, WIDE_DIGITS>(
      drops[threadIdx.x], warp_totals, &total);
}

/* --- the dispatch: workspace, plan of passes, launches ------------------------------------- */

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
