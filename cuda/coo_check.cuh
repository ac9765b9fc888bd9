/* SPDX-License-Identifier: BSD-3-Clause */
/* Checked: 0 <= row_k < rows, 0 <= col_k < cols, (row, col)_k >= (row, col)_{k-1}; repeats
 * R = {k : (row, col)_k = (row, col)_{k-1}}; offsets_r = min {k : row_k >= r}, then less the
 * repeats below it; A's entry q = triple p = q + |{j : R_j - j <= q}|, its value summed with the
 * repeats that follow p (the arithmetic of R: src/kernels/repeats.h).
 *
 * Given COO triples checked in one pass: the first triple outside the matrix, whether any
 * precedes the one before it, the repeats listed by position, the explicit zeros counted (when
 * they are to be dropped), and the row offsets as if nothing were repeated. In (row, column)
 * order without repeats, T's columns and values are A's as they are, and the pass writes them on
 * its way (a bet it stops making once it sees otherwise), so the conversion is this one pass over
 * T. With a few repeats, A's entries are T's with the repeats taken out
 * (csri_repeats_copy_kernel), each repeat's value added to its run's first in input order (the
 * bits of the CPU converters), and the offsets lowered by the repeats before them
 * (csri_repeats_offsets_kernel); up to CSRI_REPEATS_FEW repeats, both in one kernel launched
 * behind the check before the host has its findings (csri_few_repeats_kernel). Splitting the check
 * from that copy makes each a plain stream: the pass that does both (cuda/coo_runs.cuh) waits on
 * its look-back and barriers for every tile. Internal. */
#ifndef CSR_CUDA_COO_CHECK_CUH
#define CSR_CUDA_COO_CHECK_CUH

#include "coo_runs.cuh"
#include "kernels/coo_order.h"
#include "kernels/repeats.h"

#define CSRI_CHECK_TILE ((int64_t)CSRI_RUNS_THREADS * CSRI_CHECK_GROUPS * 4)

/* The (up to) 4 elements of x from k, 16 bytes at a time where all 4 are there (x 16-byte
 * aligned, k a multiple of 4); past n, `fill`. */
template <typename T>
__device__ __forceinline__ void csri_load4(const T *x, int64_t k, int64_t n, T fill, T v[4]) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte elements");
  if (k + 3 < n) {
    if constexpr (sizeof(T) == 8) {
      const ulonglong2 a = *(const ulonglong2 *)(x + k), b = *(const ulonglong2 *)(x + k + 2);
      memcpy(v, &a, 16);
      memcpy(v + 2, &b, 16);
    } else {
      const uint4 a = *(const uint4 *)(x + k);
      memcpy(v, &a, 16);
    }
  } else {
    for (int e = 0; e < 4; e++)
      v[e] = k + e < n ? x[k + e] : fill;
  }
}

/* The store of csri_load4: the (up to) 4 elements before n. */
template <typename T>
__device__ __forceinline__ void csri_store4(T *x, int64_t k, int64_t n, const T v[4]) {
  if (k + 3 < n) {
    if constexpr (sizeof(T) == 8) {
      ulonglong2 a, b;
      memcpy(&a, v, 16);
      memcpy(&b, v + 2, 16);
      *(ulonglong2 *)(x + k) = a;
      *(ulonglong2 *)(x + k + 2) = b;
    } else {
      uint4 a;
      memcpy(&a, v, 16);
      *(uint4 *)(x + k) = a;
    }
  } else {
    for (int e = 0; e < 4 && k + e < n; e++)
      x[k + e] = v[e];
  }
}

/* x[g] (g in H..G-1) by selects, x[H] tested first: an index not known at compile time would
 * put x in local memory. */
template <int G, int H = 0, typename T>
__device__ __forceinline__ T csri_pick(const T (&x)[G], int g) {
  if constexpr (H == G - 1)
    return x[H];
  else
    return g == H ? x[H] : csri_pick<G, H + 1>(x, g);
}

/* csri_runs_offsets out of line: the check calls it only where a row does not follow the row
 * before (empty rows between, or the last rows), and its body inlined at every call would
 * crowd the loop that runs for every triple. */
__device__ __noinline__ void csri_check_offsets(int64_t first, int64_t last, int64_t offset,
                                                int64_t rows, int64_t *off, csri_row_gap *gaps,
                                                int64_t gap_capacity, csri_runs_found *found) {
  csri_runs_offsets(first, last, offset, rows, off, gaps, gap_capacity, found);
}

/* --- the check's steps: one tile of CSRI_CHECK_TILE triples --------------------------------
 * Thread t takes groups of 4 consecutive triples t, t + THREADS, ... of the tile, each group's
 * rows and columns in one 16-byte load each. */

/* The first triple of thread's group g in the tile that starts at t0. */
__device__ __forceinline__ int64_t csri_check_group_start(int64_t t0, int g) {
  return t0 + ((int64_t)g * CSRI_RUNS_THREADS + threadIdx.x) * 4;
}

/* Lane g (< G) loads the triple before group g of lane 0 (the halo), which the group's check
 * shuffles to lane 0; CSRI_ORDER_HALO where there is none. */
template <int G>
__device__ __forceinline__ void csri_check_load_halo(const int32_t *row, const int32_t *col,
                                                     int64_t t0, int64_t n, int32_t *halo_r,
                                                     int32_t *halo_c) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  *halo_r = CSRI_ORDER_HALO, *halo_c = CSRI_ORDER_HALO;
  const int64_t k = t0 + ((int64_t)lane * CSRI_RUNS_THREADS + warp * 32) * 4 - 1;
  if (lane < G && k >= 0 && k < n) {
    *halo_r = row[k];
    *halo_c = col[k];
  }
}

/* The thread's G groups of the tile from t0: rows and columns, each group's in one 16-byte load
 * where all 4 are there; past n, CSRI_ORDER_PAST, above every triple before (the check's masks
 * drop them). The values too when the zeros are counted or the tile is copied; the result is
 * the explicit zeros among them (ZEROS). */
template <bool ZEROS, int G, typename V, typename Val>
__device__ __forceinline__ int
csri_check_load_groups(const int32_t *row, const int32_t *col, const V *values, int64_t t0,
                       int64_t n, bool copy_tile, int4 (&r)[G], int4 (&c)[G], Val (&v)[G][4]) {
  int zeros = 0;
#pragma unroll
  for (int g = 0; g < G; g++) {
    const int64_t k = csri_check_group_start(t0, g);
    if (k + 3 < n) {
      r[g] = *(const int4 *)(row + k);
      c[g] = *(const int4 *)(col + k);
    } else {
      int32_t a[4] = {CSRI_ORDER_PAST, CSRI_ORDER_PAST, CSRI_ORDER_PAST, CSRI_ORDER_PAST},
              b[4] = {a[0], a[0], a[0], a[0]};
      for (int e = 0; e < 4 && k + e < n; e++)
        a[e] = row[k + e], b[e] = col[k + e];
      r[g] = make_int4(a[0], a[1], a[2], a[3]);
      c[g] = make_int4(b[0], b[1], b[2], b[3]);
    }
    if constexpr (!std::is_void<V>::value)
      if (ZEROS || copy_tile) {
        csri_load4(values, k, n, (Val)1, v[g]);
        if constexpr (ZEROS)
          zeros +=
              (v[g][0] == (Val)0) + (v[g][1] == (Val)0) + (v[g][2] == (Val)0) + (v[g][3] == (Val)0);
      }
  }
  return zeros;
}

/* The tile's columns and values (if any) written to out_col and out_val as they are: the bet
 * that the triples are A's entries. */
template <int G, typename V, typename Val>
__device__ __forceinline__ void csri_check_copy_tile(int32_t *out_col, V *out_val, int64_t t0,
                                                     int64_t n, const int4 (&c)[G],
                                                     const Val (&v)[G][4]) {
#pragma unroll
  for (int g = 0; g < G; g++) {
    const int64_t k = csri_check_group_start(t0, g);
    const int32_t b[4] = {c[g].x, c[g].y, c[g].z, c[g].w};
    csri_store4(out_col, k, n, b);
    if constexpr (!std::is_void<V>::value)
      csri_store4(out_val, k, n, v[g]);
  }
}

/* Offsets as if nothing were repeated: the first triple of a row (a bit of `starts`) writes its
 * place, and the rows before it back to the previous triple's row + 1 (those are empty); the
 * group that holds the last triple writes the rows after it. A warp that saw disorder (`back`)
 * writes none: they are thrown away, and with the rows out of order nearly every triple would
 * start a long gap. Every lane of the warp calls it. */
__device__ __forceinline__ void
csri_check_row_starts(bool back, unsigned starts, const int32_t (&a)[4], const int32_t (&pr)[4],
                      int64_t k, int64_t n, int in, int64_t rows, uint32_t row_end, int64_t *off,
                      csri_row_gap *gaps, int64_t gap_capacity, csri_runs_found *found) {
  if (!__any_sync(0xffffffffu, back))
    for (unsigned m = starts; m != 0; m &= m - 1) { /* the group's row starts, in order */
      const int e = __ffs(m) - 1;
      const int32_t at = csri_pick<4>(a, e);
      const int64_t from = (int64_t)csri_pick<4>(pr, e) + 1; /* 0 for triple 0 */
      if (from == at && (uint32_t)at < row_end)
        off[at] = k + e;
      else
        csri_check_offsets(from, at, k + e, rows, off, gaps, gap_capacity, found);
    }
  if (!back && k <= n - 1 && n - 1 < k + 4) { /* the group holds the last triple */
    csri_check_offsets((int64_t)csri_pick<4>(a, in - 1) + 1, rows, n, rows, off, gaps, gap_capacity,
                       found);
  }
}

/* The thread's findings into the grid's (the first triple outside the matrix, disorder) and the
 * tile's (disorder: *tile_back; the explicit zeros: *tile_zeros). */
template <bool ZEROS>
__device__ __forceinline__ void csri_check_report(unsigned long long first_bad, bool back,
                                                  int zeros, csri_runs_found *found, int *tile_back,
                                                  unsigned *tile_zeros) {
  const int lane = threadIdx.x & 31;
  csri_grid_first(first_bad, &found->first_bad);
  if (__any_sync(0xffffffffu, back) && lane == 0) {
    atomicOr(&found->out_of_order, 1u);
    *tile_back = 1;
  }
  if constexpr (ZEROS) {
    const unsigned warp_zeros = csri_warp_inclusive<csri_sum_op<unsigned>>((unsigned)zeros);
    if (lane == 31 && warp_zeros != 0)
      atomicAdd(tile_zeros, warp_zeros);
  }
}

/* Where the first of the thread's repeats (`bits`, a bit per triple of a group) goes in the
 * tile's part of the list: the warp's repeats get one place (from *tile_repeats), the lanes'
 * in order within it; 0 when the warp has none. Every lane of the warp calls it. */
__device__ __forceinline__ unsigned csri_check_repeat_slot(unsigned bits, int lane,
                                                           unsigned *tile_repeats) {
  const unsigned FULL = 0xffffffffu;
  unsigned slot = 0;
  if (__any_sync(FULL, bits != 0)) {
    const unsigned count = __popc(bits);
    const unsigned upto = csri_warp_inclusive<csri_sum_op<unsigned>>(count);
    unsigned warp_base = 0;
    if (lane == 31)
      warp_base = atomicAdd(tile_repeats, upto);
    slot = __shfl_sync(FULL, warp_base, 31) + upto - count;
  }
  return slot;
}

/* Thread 0 closes the tile: its repeats get their place in the grid's list (*list_base) and its
 * zeros are added to the grid's; the block stops after disorder (the tile's, or one that the
 * grid had found before the tile: stop_next), and stops betting on a copy once the grid or the
 * tile has seen a repeat or a zero to drop (quiet_next: none in the grid before the tile). The
 * tile's counts are cleared for the next tile, which counts after the next barrier. */
template <bool ZEROS>
__device__ __forceinline__ void
csri_check_close_tile(unsigned stop_next, unsigned quiet_next, csri_runs_found *found,
                      unsigned long long *list_base, int *stop_shared, int *copy_shared,
                      int *tile_back, unsigned *tile_repeats, unsigned *tile_zeros) {
  if (threadIdx.x == 0) {
    /* read first: as far as the compiler knows here, the atomics on found may write them */
    const unsigned repeats = *tile_repeats, zeros = *tile_zeros;
    *list_base = repeats ? atomicAdd(&found->repeats, (unsigned long long)repeats) : 0;
    if (ZEROS && zeros)
      atomicAdd(&found->zeros, (unsigned long long)zeros);
    *stop_shared = stop_next || *tile_back;
    *copy_shared = *copy_shared && quiet_next && repeats == 0 && (!ZEROS || zeros == 0);
    *tile_repeats = *tile_zeros = 0;
    *tile_back = 0;
  }
}

/* The thread's repeats (bits[g]: a bit per triple of group g) listed by position from
 * list_base + slot[g]; those past repeat_capacity only counted. */
template <int G>
__device__ __forceinline__ void
csri_check_list_repeats(int64_t t0, unsigned long long list_base, const unsigned (&bits)[G],
                        const unsigned (&slot)[G], int64_t *repeats, int64_t repeat_capacity) {
#pragma unroll
  for (int g = 0; g < G; g++) {
    const int64_t k = csri_check_group_start(t0, g);
    unsigned long long at = list_base + slot[g];
    for (int e = 0; e < 4; e++)
      if ((bits[g] >> e) & 1u) {
        if (at < (unsigned long long)repeat_capacity)
          repeats[at] = k + e;
        at++;
      }
  }
}

/* The check: tiles of CSRI_CHECK_TILE triples in a grid-stride loop (no tile waits for another),
 * thread t taking groups of 4 consecutive triples t, t + THREADS, ... of a tile, each group's rows
 * and columns in one 16-byte load each (the arrays, and the values when zeros are counted, are
 * 16-byte aligned). A block stops once disorder is found (by it, or by a tile before). found:
 * zeroed before, first_bad set to ~0; found->repeats counts every repeat, and the first
 * repeat_capacity of them are listed (in no order) in repeats.
 * With `copy` (values, if any, 16-byte aligned too), a tile also writes its columns and values to
 * out_col and out_val as they are, betting that the triples are A's entries: it has the columns
 * in hand, and the values' bytes are read once instead of by the check and again by a copy. A
 * tile stops betting once it or a tile before has seen a repeat, an explicit zero to drop or
 * disorder (what A's entries then are is written after the check), so a bet lost costs about the
 * first tile of each block. When the check ends without any of those, every tile wrote its
 * part. */
template <bool ZEROS, typename V>
__global__ void __launch_bounds__(CSRI_RUNS_THREADS, CSRI_CHECK_MIN_BLOCKS)
    csri_check_kernel(const int32_t *row, const int32_t *col, const V *values, int64_t n,
                      int64_t rows, int64_t cols, int64_t *off, csri_row_gap *gaps,
                      int64_t gap_capacity, csri_runs_found *found, int64_t *repeats,
                      int64_t repeat_capacity, bool copy, int32_t *out_col, V *out_val) {
  const int G = CSRI_CHECK_GROUPS;
  static_assert(G <= 32, "lane g loads the triple before group g of lane 0");
  const unsigned FULL = 0xffffffffu;
  /* the values' element type (unused for a pattern) */
  using Val = typename std::conditional<std::is_void<V>::value, float, V>::type;
  __shared__ int stop_shared, tile_back, copy_shared;
  __shared__ unsigned tile_repeats, tile_zeros;
  __shared__ unsigned long long list_base;
  const int lane = threadIdx.x & 31;
  if (threadIdx.x == 0) {
    stop_shared = tile_back = 0;
    copy_shared = copy;
    tile_repeats = tile_zeros = 0;
  }
  __syncthreads();
  const uint32_t row_end = csri_order_end(rows), col_end = csri_order_end(cols);
  const int64_t tiles = (n + CSRI_CHECK_TILE - 1) / CSRI_CHECK_TILE;
  for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    if (stop_shared)
      return;
    const bool copy_tile = copy_shared;
    const int64_t t0 = tile * CSRI_CHECK_TILE;
    /* Every load first, all in flight at once: the thread's groups; lane g the triple before
     * group g of lane 0 (shuffled to it below); thread 0 the grid's findings, for the next tile. */
    int32_t halo_r, halo_c;
    csri_check_load_halo<G>(row, col, t0, n, &halo_r, &halo_c);
    unsigned stop_next = 0, quiet_next = 1;
    if (threadIdx.x == 0) {
      stop_next = *(volatile unsigned *)&found->out_of_order;
      quiet_next = *(volatile unsigned long long *)&found->repeats == 0 &&
                   (!ZEROS || *(volatile unsigned long long *)&found->zeros == 0);
    }
    int4 r[G], c[G];
    Val v[G][4];
    const int zeros = csri_check_load_groups<ZEROS>(row, col, values, t0, n, copy_tile, r, c, v);
    __syncwarp(); /* keeps the loads above together (see csri_runs_kernel) */
    if (copy_tile)
      csri_check_copy_tile(out_col, out_val, t0, n, c, v);
    unsigned long long first_bad = ~0ull;
    bool back = false;
    unsigned bits[G]; /* the group's repeats, a bit per triple */
    unsigned slot[G]; /* where the group's first repeat goes in the tile's part of the list */
#pragma unroll
    for (int g = 0; g < G; g++) {
      const int64_t k = t0 + ((int64_t)g * CSRI_RUNS_THREADS + threadIdx.x) * 4;
      const int32_t a[4] = {r[g].x, r[g].y, r[g].z, r[g].w},
                    b[4] = {c[g].x, c[g].y, c[g].z, c[g].w};
      /* The triple before each: the one before in the group, or the lane before's last, or for
       * lane 0 the halo. */
      const int32_t up_r = __shfl_up_sync(FULL, a[3], 1), up_c = __shfl_up_sync(FULL, b[3], 1);
      const int32_t hr = __shfl_sync(FULL, halo_r, g), hc = __shfl_sync(FULL, halo_c, g);
      const int32_t pr[4] = {lane == 0 ? hr : up_r, a[0], a[1], a[2]},
                    pc[4] = {lane == 0 ? hc : up_c, b[0], b[1], b[2]};
      const int in = k >= n ? 0 : n - k < 4 ? (int)(n - k) : 4; /* triples of the group */
      const unsigned here = in == 4 ? 0xfu : (1u << in) - 1u;   /* a bit per triple there */
      /* Each triple against the one before (src/kernels/coo_order.h): where the order breaks,
       * the repeats, the rows' first triples and the triples outside the matrix. The halo before
       * triple 0 and the triples past n need no case of their own. */
      const csri_order_verdict verdict = csri_order_check4(a, b, pr, pc, row_end, col_end, here);
      back |= verdict.breaks;
      bits[g] = verdict.repeats;
      const unsigned bad = verdict.outside, starts = verdict.starts;
      if (bad != 0 && first_bad == ~0ull)
        first_bad = (unsigned long long)(k + __ffs(bad) - 1);
      /* Offsets as if nothing were repeated: the first triple of a row writes its place, and
       * the rows before it back to the previous triple's row + 1 (those are empty). A warp that
       * saw disorder writes none: they are thrown away, and with the rows out of order nearly
       * every triple would start a long gap. */
      csri_check_row_starts(back, starts, a, pr, k, n, in, rows, row_end, off, gaps, gap_capacity,
                            found);
      slot[g] = csri_check_repeat_slot(bits[g], lane, &tile_repeats);
    }
    csri_check_report<ZEROS>(first_bad, back, zeros, found, &tile_back, &tile_zeros);
    __syncthreads(); /* the tile's counts are in */
    csri_check_close_tile<ZEROS>(stop_next, quiet_next, found, &list_base, &stop_shared,
                                 &copy_shared, &tile_back, &tile_repeats, &tile_zeros);
    __syncthreads();
    csri_check_list_repeats<G>(t0, list_base, bits, slot, repeats, repeat_capacity);
  }
}

/* A's kept entries from ordered triples and the sorted positions R of their D repeats: entry q
 * is triple p = q + (repeats before p), its value summed left to right with the repeats that
 * follow it. Tiles of CSRI_CHECK_TILE entries; a tile searches the list once for its range (most
 * tiles hold no repeat: each entry's search is then empty). Every load of a thread's entries is
 * issued before its first store: as far as the compiler knows, out_col and out_val may alias
 * col and values, so with a store between two loads the second waits for the first. */
template <typename V>
__device__ __forceinline__ void csri_repeats_copy(const int32_t *col, const V *values,
                                                  const int64_t *R, int64_t D, int64_t kept,
                                                  int32_t *out_col, V *out_val) {
  const int N = CSRI_CHECK_GROUPS * 4; /* entries a thread, a tile's width apart */
  using Val = typename std::conditional<std::is_void<V>::value, float, V>::type;
  __shared__ int64_t range[2];
  const int64_t tiles = (kept + CSRI_CHECK_TILE - 1) / CSRI_CHECK_TILE;
  for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const int64_t q0 = tile * CSRI_CHECK_TILE;
    const int64_t q1 = q0 + CSRI_CHECK_TILE < kept ? q0 + CSRI_CHECK_TILE : kept;
    if (threadIdx.x == 0)
      range[0] = csri_repeats_before_entry(R, 0, D, q0);
    else if (threadIdx.x == 32)
      range[1] = csri_repeats_before_entry(R, 0, D, q1 - 1);
    __syncthreads();
    const int64_t lo = range[0], hi = range[1];
    __syncthreads(); /* range is rewritten by the next tile */
    int64_t p[N], j[N];
    int32_t c[N];
    Val v[N];
#pragma unroll
    for (int i = 0; i < N; i++) {
      const int64_t q = q0 + (int64_t)i * CSRI_RUNS_THREADS + threadIdx.x;
      j[i] = csri_repeats_before_entry(R, lo, hi, q);
      p[i] = q + j[i];
      if (q < q1) {
        c[i] = col[p[i]];
        if constexpr (!std::is_void<V>::value)
          v[i] = values[p[i]];
      }
    }
#pragma unroll
    for (int i = 0; i < N; i++) {
      const int64_t q = q0 + (int64_t)i * CSRI_RUNS_THREADS + threadIdx.x;
      if (q >= q1)
        continue;
      out_col[q] = c[i];
      if constexpr (!std::is_void<V>::value) {
        for (int64_t k = j[i], at = p[i]; k < D && R[k] == at + 1; k++)
          v[i] += values[++at];
        out_val[q] = v[i];
      }
    }
  }
}

template <typename V>
__global__ void __launch_bounds__(CSRI_RUNS_THREADS)
    csri_repeats_copy_kernel(const int32_t *col, const V *values, const int64_t *R, int64_t D,
                             int64_t kept, int32_t *out_col, V *out_val) {
  csri_repeats_copy(col, values, R, D, kept, out_col, out_val);
}

/* The D <= CSRI_REPEATS_RANKED distinct positions `in` in ascending order into `out`: each goes
 * to its rank, the number of positions below it (D^2 comparisons, from shared memory). */
__global__ void __launch_bounds__(CSRI_RUNS_THREADS)
    csri_repeats_rank_kernel(const int64_t *in, int64_t D, int64_t *out) {
  __shared__ int64_t chunk[CSRI_RUNS_THREADS];
  const int64_t i = (int64_t)blockIdx.x * CSRI_RUNS_THREADS + threadIdx.x;
  const int64_t key = i < D ? in[i] : 0;
  int64_t rank = 0;
  for (int64_t c0 = 0; c0 < D; c0 += CSRI_RUNS_THREADS) {
    __syncthreads(); /* the chunk before is read */
    if (c0 + threadIdx.x < D)
      chunk[threadIdx.x] = in[c0 + threadIdx.x];
    __syncthreads();
    const int m = D - c0 < CSRI_RUNS_THREADS ? (int)(D - c0) : CSRI_RUNS_THREADS;
    for (int t = 0; t < m; t++)
      rank += chunk[t] < key;
  }
  if (i < D)
    out[rank] = key;
}

/* offsets_r minus the repeats before it, for the rows + 1 offsets: tiles of CSRI_CHECK_TILE
 * ascending offsets, each tile's searches narrowed to the counts of its first and last. */
__device__ __forceinline__ void csri_repeats_lower_offsets(int64_t *off, int64_t rows,
                                                           const int64_t *R, int64_t D) {
  const int N = CSRI_CHECK_GROUPS * 4;
  __shared__ int64_t range[2];
  const int64_t tiles = (rows + 1 + CSRI_CHECK_TILE - 1) / CSRI_CHECK_TILE;
  for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const int64_t r0 = tile * CSRI_CHECK_TILE;
    const int64_t r1 = r0 + CSRI_CHECK_TILE < rows + 1 ? r0 + CSRI_CHECK_TILE : rows + 1;
    if (threadIdx.x == 0)
      range[0] = csri_repeats_below(R, 0, D, off[r0]);
    else if (threadIdx.x == 32)
      range[1] = csri_repeats_below(R, 0, D, off[r1 - 1]);
    __syncthreads();
    const int64_t lo = range[0], hi = range[1];
    __syncthreads(); /* range is rewritten by the next tile */
    int64_t o[N];
#pragma unroll
    for (int i = 0; i < N; i++) {
      const int64_t r = r0 + (int64_t)i * CSRI_RUNS_THREADS + threadIdx.x;
      o[i] = r < r1 ? off[r] : 0;
    }
#pragma unroll
    for (int i = 0; i < N; i++) {
      const int64_t r = r0 + (int64_t)i * CSRI_RUNS_THREADS + threadIdx.x;
      if (r < r1)
        off[r] = o[i] - csri_repeats_below(R, lo, hi, o[i]);
    }
  }
}

__global__ void __launch_bounds__(CSRI_RUNS_THREADS)
    csri_repeats_offsets_kernel(int64_t *off, int64_t rows, const int64_t *R, int64_t D) {
  csri_repeats_lower_offsets(off, rows, R, D);
}

/* Whether what the check found is a few repeats that csri_few_repeats_kernel takes out: triples
 * in order and inside the matrix, no zero to drop, no long gap of empty rows listed (the gaps are
 * filled before the offsets are lowered), and 1 to CSRI_REPEATS_FEW repeats. The host and the
 * kernel decide alike. */
__host__ __device__ __forceinline__ bool csri_few_repeats_apply(const csri_runs_found &f) {
  return f.out_of_order == 0 && f.first_bad == ~0ull && f.zeros == 0 && f.gaps == 0 &&
         f.repeats > 0 && f.repeats <= CSRI_REPEATS_FEW;
}

/* The copy around a few repeats and the lowering of the offsets in one kernel, launched right
 * behind the check, before its findings reach the host: it reads them on the device and does
 * nothing unless csri_few_repeats_apply. Each block puts the listed repeats in order in shared
 * memory (a rank sort: D^2 comparisons over the block), then copies tiles of entries and lowers
 * tiles of offsets. The device goes from the check to the copy without waiting for the host. */
template <typename V>
__global__ void __launch_bounds__(CSRI_RUNS_THREADS)
    csri_few_repeats_kernel(const int32_t *col, const V *values, int64_t n, int64_t rows,
                            const csri_runs_found *found, const int64_t *listed, int32_t *out_col,
                            V *out_val, int64_t *off) {
  __shared__ int64_t given[CSRI_REPEATS_FEW], R[CSRI_REPEATS_FEW];
  const csri_runs_found f = *found;
  if (!csri_few_repeats_apply(f))
    return;
  const int64_t D = (int64_t)f.repeats;
  for (int64_t i = threadIdx.x; i < D; i += CSRI_RUNS_THREADS)
    given[i] = listed[i];
  __syncthreads();
  for (int64_t i = threadIdx.x; i < D; i += CSRI_RUNS_THREADS) {
    int64_t rank = 0;
    for (int64_t j = 0; j < D; j++)
      rank += given[j] < given[i];
    R[rank] = given[i];
  }
  __syncthreads();
  csri_repeats_copy(col, values, R, D, n - D, out_col, out_val);
  csri_repeats_lower_offsets(off, rows, R, D);
}

#endif
