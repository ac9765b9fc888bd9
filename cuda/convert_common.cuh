/* SPDX-License-Identifier: BSD-3-Clause */
/* What the device converters share: their temporaries, the bits an index needs, the first bad
 * entry found by a whole grid, a pass over A's entries that knows each one's row, and row offsets
 * built from the rows of ordered entries. Internal. */
#ifndef CSR_CUDA_CONVERT_COMMON_CUH
#define CSR_CUDA_CONVERT_COMMON_CUH

#include "common.cuh"
#include "kernels/bins.h" /* csri_bit_length */

/* Device arrays of one conversion, freed together whatever happens. */
struct csri_scratch {
  enum { MOST = 12 };
  csr_context *ctx;
  void *p[MOST];
  int count;
  explicit csri_scratch(csr_context *c) : ctx(c), p(), count(0) {}
  csri_scratch(const csri_scratch &) = delete;
  csri_scratch &operator=(const csri_scratch &) = delete;
  csr_status take(void **out, int64_t items, size_t size) {
    if (count == MOST) /* never with the converters as written: each takes fewer */
      return CSRI_FAIL(ctx, CSR_ERR_OVERFLOW, "more than %d device temporaries", (int)MOST);
    csr_status s = csri_array_alloc(ctx, out, items, size, CSR_DEVICE, 0);
    if (s >= 0)
      p[count++] = *out;
    return s;
  }
  /* The temporary at `mine` (one that take gave) and the array *theirs (a matrix's, from
   * csri_array_alloc too) change owners: *theirs becomes `mine`, and the array it was is freed
   * with the temporaries. */
  void exchange(void *mine, void **theirs) {
    for (int i = 0; i < count; i++)
      if (p[i] == mine) {
        p[i] = *theirs;
        *theirs = mine;
        return;
      }
  }
  ~csri_scratch() {
    for (int i = 0; i < count; i++)
      csri_array_free(p[i], CSR_DEVICE);
  }
};

/* Bits to tell apart the indices 0 .. count - 1. */
static inline int csri_index_bits(int64_t count) {
  return csri_bit_length(count > 0 ? (uint64_t)count - 1 : 0);
}

/* --- every entry with its row ------------------------------------------------------------ */

/* Entries a tile visits (CSRI_ENTRY_ITEMS a thread; cuda/tuning.cuh). */
#define CSRI_ENTRY_TILE ((int64_t)CSRI_VECTOR_THREADS * CSRI_ENTRY_ITEMS)

/* Blocks (of CSRI_VECTOR_THREADS) for csri_for_each_entry over nnz entries. */
static inline int csri_entry_blocks(int64_t nnz) {
  return csri_vector_blocks((nnz + CSRI_ENTRY_ITEMS - 1) / CSRI_ENTRY_ITEMS);
}

/* The row of entry k: the last r in [lo, hi] with row_offsets[r] <= k (empty rows share their
 * offset with the next row, so the last one is the row that holds k). */
__device__ __forceinline__ int64_t csri_row_of(const int64_t *row_offsets, int64_t lo, int64_t hi,
                                               int64_t k) {
  while (lo < hi) {
    const int64_t mid = hi - (hi - lo) / 2;
    if (row_offsets[mid] <= k)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* visit(k, i) for every entry k of a CSR matrix (offsets sound), i its row. Blocks take tiles of
 * CSRI_ENTRY_TILE consecutive entries; a tile finds the rows of its first and last entry, stages
 * the offsets of the rows between in shared memory (when at most CSRI_ENTRY_WINDOW rows, which
 * only runs of empty rows exceed) and every entry searches its row there. Thread t visits
 * entries t, t + THREADS, ... of a tile: accesses indexed by k are coalesced, and a thread meets
 * its entries in increasing k. Launch with CSRI_VECTOR_THREADS threads a block
 * (csri_entry_blocks); visit may not synchronise. */
template <typename Visit>
__device__ __forceinline__ void csri_for_each_entry(const int64_t *row_offsets, int64_t rows,
                                                    int64_t nnz, Visit &visit) {
  __shared__ int64_t window[CSRI_ENTRY_WINDOW];
  __shared__ int64_t ends[2]; /* rows of the tile's first and last entry */
  const int64_t tiles = (nnz + CSRI_ENTRY_TILE - 1) / CSRI_ENTRY_TILE;
  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int64_t k0 = t * CSRI_ENTRY_TILE,
                  k1 = k0 + CSRI_ENTRY_TILE < nnz ? k0 + CSRI_ENTRY_TILE : nnz;
    if (threadIdx.x == 0)
      ends[0] = csri_row_of(row_offsets, 0, rows - 1, k0);
    else if (threadIdx.x == 32)
      ends[1] = csri_row_of(row_offsets, 0, rows - 1, k1 - 1);
    __syncthreads();
    const int64_t first = ends[0], last = ends[1], span = last - first + 1;
    const bool staged = span <= CSRI_ENTRY_WINDOW;
    if (staged)
      for (int64_t j = threadIdx.x; j < span; j += blockDim.x)
        window[j] = row_offsets[first + j];
    __syncthreads();
    for (int item = 0; item < CSRI_ENTRY_ITEMS; item++) {
      const int64_t k = k0 + (int64_t)item * blockDim.x + threadIdx.x;
      if (k < k1)
        visit(k, staged ? first + csri_row_of(window, 0, span - 1, k)
                        : csri_row_of(row_offsets, first, last, k));
    }
    __syncthreads(); /* the window is rewritten by the next tile */
  }
}

/* --- row offsets from the rows of ordered entries (cuda/convert_common.cu) ------------------- */

/* offsets_j = the first p with sorted_rows[p] >= j, j = 0 .. A->rows (A->nnz entries): the
 * offsets of entries already in row order, read off their boundaries without atomics. */
csr_status csri_cuda_offsets_from_sorted(csr_context *ctx, const int32_t *sorted_rows,
                                         csr_matrix *A);
/* The first entry of A (device) with a column outside [0, cols), reported as the CPU reports it;
 * CSR_SUCCESS when there is none. */
csr_status csri_cuda_check_columns(csr_context *ctx, const csr_matrix *A);

#endif
