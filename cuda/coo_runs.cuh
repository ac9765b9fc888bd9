/* SPDX-License-Identifier: BSD-3-Clause */
/* Ordered triples to CSR in one pass: a_ij = the sum, in input order, of the run of triples
 * (i, j, v) that share (i, j); row_offsets_i = the number of kept runs whose row is below i.
 *
 * Blocks take tiles of consecutive triples in order (an atomic counter). The thread of a run's
 * first triple sums the run left to right in the value type's arithmetic (the CPU converters'
 * bits) and keeps it unless CSR_CONVERT_DROP_ZEROS drops a zero sum. Kept runs are ranked in the
 * tile by warp ballots and a scan of the (item, warp) counts, and across tiles by decoupled
 * look-back: the single-pass compaction of cuda/compact.cu, fused with the sums, so each run's
 * column and sum are written once, at their place in A. The first triple of a row (one whose
 * predecessor has a smaller row) writes the offsets of the rows from the predecessor's row on: its
 * rank among the kept runs, which is the number of kept runs in the rows before. A thread writes at
 * most CSRI_RUNS_GAP offsets; a longer run of empty rows goes to a list that a second kernel fills
 * a block per gap, so hypersparse matrices do not serialise on one thread.
 *
 * It runs over ordered triples in which the check (cuda/coo_check.cuh) found many repeats or
 * zeros to drop (given, or sorted by the radix sort), and over given triples whose arrays are not
 * 16-byte aligned, which it checks in the same pass (CHECK): the first one outside the matrix,
 * and whether any precedes the one before it. A tile that finds disorder writes nothing, and one
 * that starts after it was found reads nothing: the caller sorts, the sort's digit counts check
 * every triple's shape, and the sorted triples are checked again. Internal. */
#ifndef CSR_CUDA_COO_RUNS_CUH
#define CSR_CUDA_COO_RUNS_CUH

#include "convert_common.cuh"

#include <type_traits>

/* Threads, triples a thread and blocks an SM: cuda/tuning.cuh. */
#define CSRI_RUNS_TILE ((int64_t)CSRI_RUNS_THREADS * CSRI_RUNS_ITEMS)

/* What a pass finds, and its tile counter (zeroed before the pass; first_bad set to ~0). */
struct csri_runs_found {
  unsigned long long next_tile;
  unsigned long long first_bad; /* the first triple outside the matrix that the pass saw; ~0 when
                                   none (after disorder, tiles check nothing) */
  unsigned long long kept;      /* runs kept: A's nnz */
  unsigned long long gaps;      /* long gaps listed */
  unsigned long long repeats;   /* the check (cuda/coo_check.cuh): repeated triples */
  unsigned long long zeros;     /* the check: explicit zeros, when they are to be dropped */
  unsigned out_of_order;        /* some triple precedes the one before it */
};

/* Rows first .. last (inclusive) all get `offset`. */
struct csri_row_gap {
  int64_t first, last, offset;
};

/* Long gaps a pass can list: in ordered triples the gaps are disjoint ranges of rows + 1 offsets,
 * each longer than CSRI_RUNS_GAP. More means disorder. */
static inline int64_t csri_runs_gap_capacity(int64_t rows) {
  return (rows + 1) / (CSRI_RUNS_GAP + 1) + 1;
}

/* The triples as given (row and column arrays). */
struct csri_given_order {
  const int32_t *row, *col;
  __device__ __forceinline__ void at(int64_t k, int32_t *r, int32_t *c) const {
    *r = row[k];
    *c = col[k];
  }
};

/* A value slot for the sums; a pattern (V void) has none. */
template <typename V> struct csri_run_value { typedef V type; };
template <> struct csri_run_value<void> { typedef char type; };

/* A gap of rows [first, last] whose offsets are `offset`, listed for csri_runs_fill_gaps; a full
 * list means disorder. */
__device__ __forceinline__ void csri_runs_list_gap(int64_t first, int64_t last, int64_t offset,
                                                   csri_row_gap *gaps, int64_t gap_capacity,
                                                   csri_runs_found *found) {
  const unsigned long long g = atomicAdd(&found->gaps, 1ull);
  if (g < (unsigned long long)gap_capacity)
    gaps[g] = csri_row_gap{first, last, offset};
  else
    atomicOr(&found->out_of_order, 1u);
}

/* offsets_r = offset for r in [first, last] (clamped to the rows + 1 offsets): inline when short,
 * else listed; a full list means disorder. */
__device__ __forceinline__ void csri_runs_offsets(int64_t first, int64_t last, int64_t offset,
                                                  int64_t rows, int64_t *off, csri_row_gap *gaps,
                                                  int64_t gap_capacity, csri_runs_found *found) {
  first = first < 0 ? 0 : first;
  last = last > rows ? rows : last;
  if (first > last)
    return;
  if (last - first < CSRI_RUNS_GAP) {
    for (int64_t r = first; r <= last; r++)
      off[r] = offset;
    return;
  }
  csri_runs_list_gap(first, last, offset, gaps, gap_capacity, found);
}

/* Item i's index (row or column) of the triple before this lane's: the lane before's, or for lane
 * 0 the halo that lane i loaded. Every lane of the warp calls it. */
__device__ __forceinline__ int32_t predecessor(int32_t mine, int32_t halo, int i, int lane) {
  const int32_t before = __shfl_up_sync(0xffffffffu, mine, 1);
  const int32_t halo_i = __shfl_sync(0xffffffffu, halo, i);
  return lane == 0 ? halo_i : before;
}

/* --- the runs pass's steps: one tile of CSRI_RUNS_TILE triples --------------------------------
 * Thread t takes items i = 0 .. ITEMS - 1 of the tile, triple i * THREADS + t: a warp's lanes hold
 * consecutive triples, so a triple's predecessor is the same item of the lane before. */

/* The next tile (thread 0 takes a ticket, so tiles start in order and every tile's predecessors
 * are already running), and *stop: whether disorder was already found (CHECK). */
template <bool CHECK>
__device__ __forceinline__ int64_t csri_runs_take_tile(csri_runs_found *found, int64_t *tile_shared,
                                                       int *stop_shared, bool *stop) {
  if (threadIdx.x == 0) {
    *tile_shared = (int64_t)atomicAdd(&found->next_tile, 1ull);
    *stop_shared = CHECK && *(volatile unsigned *)&found->out_of_order != 0;
  }
  __syncthreads();
  const int64_t tile = *tile_shared;
  *stop = *stop_shared;
  return tile;
}

/* A tile that writes nothing publishes that it keeps no run, for the look-back of those after. */
__device__ __forceinline__ void csri_runs_publish_none(csri_count_status status, int64_t tile) {
  if (threadIdx.x == 0)
    status.publish(tile, tile == 0 ? CSRI_TILE_PREFIX : CSRI_TILE_AGGREGATE, (uint64_t)0);
}

/* The thread's triples of the tile from base (row and column -1, value 0 past n), and the halo:
 * lane i of the warp loads the triple before item i of lane 0 (-1 where there is none), one load
 * per warp and item instead of a second, misaligned load of the whole tile. */
template <int ITEMS, typename Order, typename V, typename value>
__device__ __forceinline__ void
csri_runs_load(Order order, const V *values, int64_t base, int64_t n, int32_t (&row)[ITEMS],
               int32_t (&col)[ITEMS], value (&sum)[ITEMS], int32_t *halo_row, int32_t *halo_col,
               int lane, int warp) {
  static_assert(ITEMS <= 32, "a lane loads the halo of one item");
  *halo_row = -1, *halo_col = -1;
  {
    const int64_t k = base + (int64_t)lane * CSRI_RUNS_THREADS + warp * 32 - 1;
    if (lane < ITEMS && k >= 0 && k < n)
      order.at(k, halo_row, halo_col);
  }
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    const int64_t k = base + (int64_t)i * CSRI_RUNS_THREADS + threadIdx.x;
    row[i] = col[i] = -1;
    sum[i] = value();
    if (k < n) {
      order.at(k, &row[i], &col[i]);
      if constexpr (!std::is_void<V>::value)
        sum[i] = values[k];
    }
  }
}

/* Each triple against the one before: tile_start[j] = 1 where a run starts (k = 0, or another
 * (row, column) than the triple before), tile_value[j] its value, for the sums. With CHECK,
 * *first_bad_out is the thread's first triple outside the matrix (~0 when none), and the result
 * whether any precedes the one before it. Both start here and are written once at the end: as
 * arguments updated in the loop, they changed the kernel's code. Every lane of the warp calls it.
 */
template <bool CHECK, int ITEMS, typename value>
__device__ __forceinline__ bool
csri_runs_mark_starts(const int32_t (&row)[ITEMS], const int32_t (&col)[ITEMS],
                      const value (&sum)[ITEMS], int32_t halo_row, int32_t halo_col, int64_t base,
                      int64_t n, int64_t rows, int64_t cols, uint8_t *tile_start, value *tile_value,
                      unsigned long long *first_bad_out, int lane) {
  unsigned long long first_bad = ~0ull; /* a thread meets its triples in increasing order */
  bool back = false;
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    const int j = i * CSRI_RUNS_THREADS + threadIdx.x;
    const int64_t k = base + j;
    const int32_t prev_row = predecessor(row[i], halo_row, i, lane),
                  prev_col = predecessor(col[i], halo_col, i, lane);
    if (CHECK && k < n && (row[i] < 0 || row[i] >= rows || col[i] < 0 || col[i] >= cols) &&
        first_bad == ~0ull)
      first_bad = (unsigned long long)k;
    if (CHECK)
      back |= k < n && k > 0 && (row[i] < prev_row || (row[i] == prev_row && col[i] < prev_col));
    tile_start[j] = k < n && (k == 0 || row[i] != prev_row || col[i] != prev_col);
    tile_value[j] = sum[i];
  }
  *first_bad_out = first_bad;
  return back;
}

/* The tile's findings (CHECK) into the grid's, and whether any thread of the tile saw disorder;
 * a barrier either way: the tile's starts and values are in shared memory. */
template <bool CHECK>
__device__ __forceinline__ bool csri_runs_report(unsigned long long first_bad, bool back,
                                                 csri_runs_found *found) {
  if (CHECK) {
    csri_grid_first(first_bad, &found->first_bad);
    back = __syncthreads_or(back);
    if (back && threadIdx.x == 0)
      atomicOr(&found->out_of_order, 1u);
  } else {
    __syncthreads();
  }
  return back;
}

/* Each run summed by its first triple's thread (into sum[i]), left to right: from the tile's
 * values in shared memory, then past the tile's end (in_tile triples) from global memory while
 * the run goes on there. A run is kept unless a zero sum is dropped; kept_lanes[i * WARPS + warp]:
 * item i's kept runs of the warp, a bit per lane. (The sum as a function of its own changed the
 * kernel's code, so it stays here.) */
template <int ITEMS, typename Order, typename V, typename value>
__device__ __forceinline__ void
csri_runs_sum_and_keep(Order order, const V *values, int64_t base, int64_t n, bool drop_zeros,
                       const int32_t (&row)[ITEMS], const int32_t (&col)[ITEMS],
                       value (&sum)[ITEMS], const uint8_t *tile_start, const value *tile_value,
                       uint32_t *kept_lanes, int64_t in_tile, int lane, int warp) {
  const int WARPS = CSRI_RUNS_THREADS / 32;
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    const int j = i * CSRI_RUNS_THREADS + threadIdx.x;
    bool keep = tile_start[j] != 0;
    if constexpr (!std::is_void<V>::value)
      if (keep) {
        V s = sum[i];
        int q = j + 1;
        for (; q < in_tile && !tile_start[q]; q++)
          s += tile_value[q];
        for (int64_t kq = base + q; q == in_tile && kq < n; kq++) {
          int32_t r, c;
          order.at(kq, &r, &c);
          if (r != row[i] || c != col[i])
            break;
          s += values[kq];
        }
        sum[i] = s;
        keep = !(drop_zeros && s == (V)0);
      }
    const uint32_t mask = __ballot_sync(0xffffffffu, keep);
    if (lane == 0)
      kept_lanes[i * WARPS + warp] = mask;
  }
}

/* Warp 0's exclusive scan of the ITEMS * WARPS kept counts in (item, warp) order into before,
 * and their total into *total. */
template <int ITEMS>
__device__ __forceinline__ void csri_runs_scan_kept(const uint32_t *kept_lanes, uint32_t *before,
                                                    uint32_t *total, int lane) {
  const int WARPS = CSRI_RUNS_THREADS / 32, PER_LANE = ITEMS * WARPS / 32;
  static_assert(ITEMS * WARPS % 32 == 0, "the count scan gives each lane as many counts");
  uint32_t mine[PER_LANE], lane_total = 0;
#pragma unroll
  for (int c = 0; c < PER_LANE; c++)
    lane_total += mine[c] = __popc(kept_lanes[PER_LANE * lane + c]);
  uint32_t running = csri_warp_inclusive<csri_sum_op<uint32_t>>(lane_total) - lane_total;
#pragma unroll
  for (int c = 0; c < PER_LANE; c++) {
    before[PER_LANE * lane + c] = running;
    running += mine[c];
  }
  if (lane == 31)
    *total = running;
}

/* The kept runs' columns and sums at their ranks in A (prefix: the kept runs of the tiles
 * before), and the offsets of the rows from a row's first triple's predecessor's row + 1 up to
 * its own; the last triple writes the rows after it. Every lane of the warp calls it. */
template <int ITEMS, typename V, typename value>
__device__ __forceinline__ void
csri_runs_store(const int32_t (&row)[ITEMS], const int32_t (&col)[ITEMS], const value (&sum)[ITEMS],
                int32_t halo_row, int64_t base, int64_t n, int64_t rows, uint64_t prefix,
                const uint32_t *kept_lanes, const uint32_t *before, int32_t *out_col, V *out_val,
                int64_t *off, csri_row_gap *gaps, int64_t gap_capacity, csri_runs_found *found,
                int lane, int warp) {
  const int WARPS = CSRI_RUNS_THREADS / 32;
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    const int64_t k = base + (int64_t)i * CSRI_RUNS_THREADS + threadIdx.x;
    /* Every lane shuffles, in every item: none leaves the loop early. */
    const int32_t prev_row = predecessor(row[i], halo_row, i, lane);
    if (k >= n)
      continue;
    const uint32_t mask = kept_lanes[i * WARPS + warp];
    const bool keep = (mask >> lane) & 1u;
    const int64_t rank =
        (int64_t)(prefix + before[i * WARPS + warp] + __popc(mask & ((1u << lane) - 1u)));
    if (keep) {
      out_col[rank] = col[i];
      if constexpr (!std::is_void<V>::value)
        out_val[rank] = sum[i];
    }
    if (k == 0 || row[i] != prev_row)
      csri_runs_offsets((int64_t)prev_row + 1, row[i], rank, rows, off, gaps, gap_capacity, found);
    if (k == n - 1)
      csri_runs_offsets((int64_t)row[i] + 1, rows, rank + keep, rows, off, gaps, gap_capacity,
                        found);
  }
}

/* --- the kernel: one tile per block ---------------------------------------------------------- */

template <bool CHECK, typename Order, typename V>
__global__ void __launch_bounds__(CSRI_RUNS_THREADS, CSRI_RUNS_MIN_BLOCKS)
    csri_runs_kernel(Order order, const V *values, int64_t n, int64_t rows, int64_t cols,
                     bool drop_zeros, int32_t *out_col, V *out_val, int64_t *off,
                     csri_row_gap *gaps, int64_t gap_capacity, csri_count_status status,
                     csri_runs_found *found, int64_t tiles) {
  typedef typename csri_run_value<V>::type value;
  const int WARPS = CSRI_RUNS_THREADS / 32, ITEMS = CSRI_RUNS_ITEMS;
  __shared__ int64_t tile_shared;
  __shared__ int stop_shared;
  __shared__ uint32_t before[ITEMS * WARPS];     /* kept runs of the tile before (item, warp) */
  __shared__ uint32_t kept_lanes[ITEMS * WARPS]; /* (item, warp)'s kept runs, a bit per lane */
  __shared__ uint32_t total_shared;
  __shared__ uint64_t prefix_shared;
  __shared__ value tile_value[CSRI_RUNS_TILE];   /* the tile's values in input order */
  __shared__ uint8_t tile_start[CSRI_RUNS_TILE]; /* 1 where a run starts */
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  bool stop;
  const int64_t tile = csri_runs_take_tile<CHECK>(found, &tile_shared, &stop_shared, &stop);
  const int64_t base = tile * CSRI_RUNS_TILE;
  if (stop) { /* the input is out of order: nothing to write, nothing to check */
    csri_runs_publish_none(status, tile);
    return;
  }
  const int64_t in_tile = n - base < CSRI_RUNS_TILE ? n - base : CSRI_RUNS_TILE;
  int32_t row[ITEMS], col[ITEMS], halo_row, halo_col;
  value sum[ITEMS];
  /* Every load of the thread first, so that all of them are in flight at once. */
  csri_runs_load<ITEMS>(order, values, base, n, row, col, sum, &halo_row, &halo_col, lane, warp);
  /* A fence, so that the compiler keeps the loads above all issued before the first use: without
   * it, it sinks later items' loads into the loop below, behind the shuffles, and each item waits
   * out its own load (the sorted-input pass 8 % slower, H100). */
  __syncwarp();
  unsigned long long first_bad;
  bool back = csri_runs_mark_starts<CHECK>(row, col, sum, halo_row, halo_col, base, n, rows, cols,
                                           tile_start, tile_value, &first_bad, lane);
  back = csri_runs_report<CHECK>(first_bad, back, found);
  if (back) { /* nothing written; the tile counts for nothing in the ranks */
    csri_runs_publish_none(status, tile);
    return;
  }
  csri_runs_sum_and_keep(order, values, base, n, drop_zeros, row, col, sum, tile_start, tile_value,
                         kept_lanes, in_tile, lane, warp);
  __syncthreads();
  if (warp == 0)
    csri_runs_scan_kept<ITEMS>(kept_lanes, before, &total_shared, lane);
  __syncthreads();
  csri_publish_and_look_back<csri_sum_op<uint64_t>>(status, tile, total_shared, &prefix_shared);
  __syncthreads();
  const uint64_t prefix = prefix_shared;
  csri_runs_store(row, col, sum, halo_row, base, n, rows, prefix, kept_lanes, before, out_col,
                  out_val, off, gaps, gap_capacity, found, lane, warp);
  if (tile == tiles - 1 && threadIdx.x == 0)
    found->kept = prefix + total_shared;
}

/* The listed gaps' offsets, a block per gap. */
__global__ void csri_runs_fill_gaps(const csri_row_gap *gaps, const csri_runs_found *found,
                                    int64_t gap_capacity, int64_t *off) {
  const unsigned long long listed = found->gaps;
  const int64_t count = listed < (unsigned long long)gap_capacity ? (int64_t)listed : gap_capacity;
  for (int64_t g = blockIdx.x; g < count; g += gridDim.x)
    for (int64_t r = gaps[g].first + threadIdx.x; r <= gaps[g].last; r += blockDim.x)
      off[r] = gaps[g].offset;
}

#endif
