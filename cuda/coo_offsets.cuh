/* offsets_r = min {k : row_k >= r} (offsets_rows = n), for rows sorted ascending.
 *
 * A's row offsets from its sorted rows alone: when the radix sort has taken out every repeat
 * (cuda/radix_sort.cuh, pass_mode), its last pass wrote A's columns and values, and what is left
 * is the offsets, from 4 bytes a triple where the check (cuda/coo_check.cuh) reads 8. Each
 * triple whose row differs from the one before writes its place to the rows from the row before
 * + 1 up to its own (those between are empty); a long run of empty rows is listed as a gap
 * (csri_runs_offsets) and filled after. A row below the one before (the sort's own failure) is
 * reported as disorder. Internal. */
#ifndef CSR_CUDA_COO_OFFSETS_CUH
#define CSR_CUDA_COO_OFFSETS_CUH

#include "coo_check.cuh"

/* Per thread and step: GROUPS 16-byte loads of 4 rows (`row` 16-byte aligned), a block's width
 * apart, all issued before any is used. */
#define CSRI_OFFSETS_GROUPS 4
#define CSRI_OFFSETS_STEP ((int64_t)CSRI_RUNS_THREADS * CSRI_OFFSETS_GROUPS * 4)

__global__ void __launch_bounds__(CSRI_RUNS_THREADS)
    csri_sorted_offsets_kernel(const int32_t *row, int64_t n, int64_t rows, int64_t *off,
                               csri_row_gap *gaps, int64_t gap_capacity, csri_runs_found *found) {
  const int G = CSRI_OFFSETS_GROUPS;
  for (int64_t base = (int64_t)blockIdx.x * CSRI_OFFSETS_STEP; base < n;
       base += (int64_t)gridDim.x * CSRI_OFFSETS_STEP) {
    int32_t a[G][4], before[G];
#pragma unroll
    for (int g = 0; g < G; g++) {
      const int64_t k = base + ((int64_t)g * CSRI_RUNS_THREADS + threadIdx.x) * 4;
      if (k + 4 <= n) {
        const int4 v = *(const int4 *)(row + k);
        a[g][0] = v.x, a[g][1] = v.y, a[g][2] = v.z, a[g][3] = v.w;
      } else {
        for (int e = 0; e < 4; e++)
          a[g][e] = k + e < n ? row[k + e] : 0;
      }
      before[g] = k > 0 && k < n ? row[k - 1] : -1; /* row -1 before the first: rows 0.. get 0 */
    }
#pragma unroll
    for (int g = 0; g < G; g++) {
      const int64_t k = base + ((int64_t)g * CSRI_RUNS_THREADS + threadIdx.x) * 4;
      int32_t prev = before[g];
#pragma unroll
      for (int e = 0; e < 4; e++) {
        if (k + e >= n)
          break;
        /* Most rows follow the row before: a store. Gaps, disorder and the rows after the last
         * triple take the call (csri_check_offsets, out of line): inlined for each of the
         * thread's 16 rows, their branches made the kernel no faster than the check. */
        if (a[g][e] == prev + 1 && a[g][e] < rows)
          off[a[g][e]] = k + e;
        else if (a[g][e] < prev)
          atomicOr(&found->out_of_order, 1u);
        else if (a[g][e] != prev)
          csri_check_offsets((int64_t)prev + 1, a[g][e], k + e, rows, off, gaps, gap_capacity,
                             found);
        if (k + e == n - 1) /* the rows after the last triple's */
          csri_check_offsets((int64_t)a[g][e] + 1, rows, n, rows, off, gaps, gap_capacity, found);
        prev = a[g][e];
      }
    }
  }
}

#endif
