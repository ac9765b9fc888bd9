/* SPDX-License-Identifier: BSD-3-Clause */
/* offsets_r = min {k : row_k >= r} (offsets_rows = n), for rows sorted ascending.
 *
 * A's row offsets from its sorted rows alone: when the radix sort has taken out every repeat
 * (cuda/radix_sort_agent.cuh, pass_mode), its last pass wrote A's columns and values, and what is
 * left is the offsets, from 4 bytes a triple where the check (cuda/coo_check.cuh) reads 8. Each
 * triple whose row differs from the one before writes its place to the rows from the row before
 * + 1 up to its own (those between are empty): one store when it is the next row; the runs of
 * empty rows are filled by the warp together, and a very long one is listed as a gap and filled
 * after (csri_runs_fill_gaps). A row below the one before (the sort's own failure) is reported
 * as disorder. Internal. */
#ifndef CSR_CUDA_COO_OFFSETS_CUH
#define CSR_CUDA_COO_OFFSETS_CUH

#include "coo_check.cuh"

/* Triples a block reads per step: CSRI_OFFSETS_GROUPS 16-byte loads of 4 rows a thread (`row`
 * 16-byte aligned; cuda/tuning.cuh). */
#define CSRI_OFFSETS_STEP ((int64_t)CSRI_RUNS_THREADS * CSRI_OFFSETS_GROUPS * 4)

/* The gaps of the warp's lanes (those with `gap`: offsets_r = offset for r in [first, last]),
 * one at a time, each filled by the whole warp, 32 consecutive offsets a store. A lane filling its
 * own gaps left the other 31 idle: with web graphs' many short runs of empty rows, that lone lane
 * issued most of the kernel's instructions. Every lane of the warp calls it. */
__device__ __forceinline__ void csri_warp_fill_gaps(bool gap, int32_t first, int32_t last,
                                                    int64_t offset, int64_t rows, int64_t *off,
                                                    csri_row_gap *gaps, int64_t gap_capacity,
                                                    csri_runs_found *found) {
  const unsigned FULL = 0xffffffffu;
  const int lane = threadIdx.x & 31;
  for (unsigned lanes = __ballot_sync(FULL, gap); lanes != 0; lanes &= lanes - 1) {
    const int from = __ffs(lanes) - 1;
    const int64_t f = __shfl_sync(FULL, first, from), o = __shfl_sync(FULL, offset, from);
    int64_t l = __shfl_sync(FULL, last, from);
    l = l > rows ? rows : l; /* a row past the matrix's (never from the sort) ends at its offsets */
    if (l - f < CSRI_OFFSETS_WARP_GAP) {
      for (int64_t r = f + lane; r <= l; r += 32)
        off[r] = o;
    } else if (lane == 0) {
      csri_runs_list_gap(f, l, o, gaps, gap_capacity, found);
    }
  }
}

/* The offsets that the group of 4 rows v from triple k writes, after the row `prev`: most rows
 * follow the row before (a store); a row further on leaves a gap of empty rows (the warp fills
 * it); a row below the one before is disorder. The triples one at a time, not unrolled: with the
 * groups, 16 copies of the body (its gap loop, its ballots) outgrew the instruction cache, and
 * warps waited on instruction fetch more than on memory. Every lane of the warp calls it. */
template <int G>
__device__ __forceinline__ void
csri_offsets_of_group(const int4 (&a)[G], const int32_t (&before)[G], int g, int64_t k, int64_t n,
                      int64_t rows, int64_t *off, csri_row_gap *gaps, int64_t gap_capacity,
                      csri_runs_found *found) {
  const int4 v = csri_pick<G>(a, g);
  const int32_t r[4] = {v.x, v.y, v.z, v.w};
  int32_t prev = csri_pick<G>(before, g);
#pragma unroll 1
  for (int e = 0; e < 4; e++) {
    const int32_t at = csri_pick<4>(r, e);
    bool gap = false;
    if (k + e < n && at != prev) {
      if (at == prev + 1 && at < rows)
        off[at] = k + e;
      else if (at < prev)
        atomicOr(&found->out_of_order, 1u);
      else
        gap = true;
    }
    csri_warp_fill_gaps(gap, prev + 1, at, k + e, rows, off, gaps, gap_capacity, found);
    prev = at;
  }
}

/* Steps of CSRI_OFFSETS_STEP triples in a grid-stride loop; block 0 writes the rows after the
 * last triple's. */
__global__ void __launch_bounds__(CSRI_RUNS_THREADS)
    csri_sorted_offsets_kernel(const int32_t *row, int64_t n, int64_t rows, int64_t *off,
                               csri_row_gap *gaps, int64_t gap_capacity, csri_runs_found *found) {
  const int G = CSRI_OFFSETS_GROUPS;
  if (blockIdx.x == 0 && threadIdx.x == 0 && n > 0) /* the rows after the last triple's */
    csri_check_offsets((int64_t)row[n - 1] + 1, rows, n, rows, off, gaps, gap_capacity, found);
  /* base is the block's: every lane of a warp takes as many steps (the gaps' ballots) */
  for (int64_t base = (int64_t)blockIdx.x * CSRI_OFFSETS_STEP; base < n;
       base += (int64_t)gridDim.x * CSRI_OFFSETS_STEP) {
    int4 a[G];
    int32_t before[G];
#pragma unroll
    for (int g = 0; g < G; g++) { /* every load issued before any is used */
      const int64_t k = base + ((int64_t)g * CSRI_RUNS_THREADS + threadIdx.x) * 4;
      if (k + 4 <= n) {
        a[g] = *(const int4 *)(row + k);
      } else {
        int32_t t[4];
        for (int e = 0; e < 4; e++)
          t[e] = k + e < n ? row[k + e] : 0;
        a[g] = make_int4(t[0], t[1], t[2], t[3]);
      }
      before[g] = k > 0 && k < n ? row[k - 1] : -1; /* row -1 before the first: rows 0.. get 0 */
    }
#pragma unroll 1 /* as the triples of a group (csri_offsets_of_group) */
    for (int g = 0; g < G; g++) {
      const int64_t k = base + ((int64_t)g * CSRI_RUNS_THREADS + threadIdx.x) * 4;
      csri_offsets_of_group<G>(a, before, g, k, n, rows, off, gaps, gap_capacity, found);
    }
  }
}

#endif
