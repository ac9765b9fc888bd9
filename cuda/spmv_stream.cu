/* SPDX-License-Identifier: BSD-3-Clause */
/* y = alpha*A*x + beta*y with whole rows packed into tiles (CSR-stream, src/kernels/row_tiles.h):
 * a block stages its tile's products a_k x_{c_k} in shared memory with coalesced loads, all in
 * flight at once, then a group of lanes sums each row there, in double. No row crosses a tile, so
 * there is no carry between threads or blocks: one kernel, no scan, no fix-up, and the summation
 * order is fixed by the matrix's shape (the same bits on every call). */
#include "columns.cuh"
#include "kernels/row_tiles.h"
#include "spmv_out.cuh"
#include "spmv_tile.cuh"

namespace {

constexpr int THREADS = CSRI_SPMV_STREAM_THREADS;
constexpr unsigned FULL = 0xffffffffu;

/* The tile shape of each value type (src/kernels/spmv_tuning.h, cuda/tuning.cuh): staged
 * nonzeros per thread, the blocks per SM that the register budget must fit, and the window of
 * path items that places the tiles (the staging capacity less the longest row it must hold,
 * CSRI_SPMV_STREAM_LONGEST). */
template <int ITEMS, int MIN_BLOCKS> struct shape_of {
  static constexpr int items = ITEMS, min_blocks = MIN_BLOCKS;
  static constexpr int capacity = THREADS * ITEMS;
  static constexpr int window = capacity - CSRI_SPMV_STREAM_LONGEST;
};
template <typename T> struct shape;
template <> struct shape<double> : shape_of<CSRI_SPMV_STREAM_ITEMS, CSRI_SPMV_STREAM_MIN_BLOCKS> {};
template <>
struct shape<float> : shape_of<CSRI_SPMV_STREAM_ITEMS_F32, CSRI_SPMV_STREAM_MIN_BLOCKS_F32> {};

/* The tile's first row and its first nonzero. */
struct tile_start {
  int64_t row, nz;
};

/* Where every tile starts: tile t holds rows [starts[t].row, starts[t + 1].row). */
__global__ void tile_starts(const int64_t *off, int64_t rows, int64_t tiles, int64_t window,
                            tile_start *starts) {
  int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t <= tiles) {
    int64_t r = csri_row_tile_start(t, window, off, rows);
    starts[t] = tile_start{r, off[r]};
  }
}

/* Sum of v over the block, in a fixed order (lanes by a shuffle tree, then the warps in order);
 * the result in thread 0. Ends with a barrier, so `warp_sums` can be reused at once. */
__device__ __forceinline__ double block_sum(double v, double (&warp_sums)[THREADS / 32]) {
#pragma unroll
  for (int d = 16; d > 0; d /= 2)
    v += __shfl_down_sync(FULL, v, d);
  if ((threadIdx.x & 31) == 0)
    warp_sums[threadIdx.x >> 5] = v;
  __syncthreads();
  double total = 0.0;
  if (threadIdx.x == 0)
    for (int w = 0; w < THREADS / 32; w++)
      total += warp_sums[w];
  __syncthreads();
  return total;
}

/* A tile that fits: thread i loads entries i, i + THREADS, ... (coalesced), every load of the
 * tile issued before any is used (the rows' starts, the columns and values, then the gathers of
 * x), each predicated on being inside the tile; the products go to shared memory (csri_staged), the
 * rows' starts as 32-bit offsets from the tile's first nonzero. Summing: groups of `lanes` lanes
 * (csri_row_tile_lanes), one row each, lane j adding the row's products j, j + lanes, ..., then a
 * shuffle tree over the group; its lane 0 finishes the row (out.row, cuda/spmv_out.cuh). */
template <typename T, bool PATTERN, typename Cols, typename Out>
__device__ __forceinline__ void
staged_tile(tile_start start, int tile_rows, int nonzeros, const int64_t *off, const Cols &col,
            const T *val, const T *x, const Out &out, typename Out::terms &terms,
            typename csri_staged<T>::type *products, int *row_starts, T *batched) {
  constexpr int ITEMS = shape<T>::items;
  const int tid = threadIdx.x;
  /* The rows' starts' first round, then the products' loads (cuda/spmv_tile.cuh), all in flight
   * before any is used. */
  typename Out::ahead ahead; /* a BATCHED Out's loads for the thread's first row, first */
  if constexpr (Out::BATCHED)
    if (tid < tile_rows)
      ahead = out.fetch(start.row + tid);
  const int64_t start_first = __ldcs(off + start.row + min(tid, tile_rows));
  csri_tile_products<T, PATTERN, ITEMS, THREADS> staging;
  staging.load(col, val, x, start.nz, nonzeros);
  if (tid <= tile_rows)
    row_starts[tid] = (int)(start_first - start.nz);
  for (int i = tid + THREADS; i <= tile_rows; i += THREADS) /* tiles of more than THREADS rows */
    row_starts[i] = (int)(__ldcs(off + start.row + i) - start.nz);
  staging.store(products, nonzeros);
  __syncthreads();
  const int lanes = csri_row_tile_lanes(tile_rows, THREADS), groups = THREADS / lanes;
  const int lane = tid & (lanes - 1), group = tid / lanes;
  /* The same number of rounds for every thread, so that each shuffle has its whole warp. */
  for (int first = 0; first < tile_rows; first += groups) {
    const int r = first + group;
    double sum = 0.0;
    if (r < tile_rows) {
      const int row_end = row_starts[r + 1];
      for (int k = row_starts[r] + lane; k < row_end; k += lanes)
        sum += products[k];
    }
    for (int d = lanes / 2; d > 0; d /= 2)
      sum += __shfl_down_sync(FULL, sum, d, lanes);
    if (lane == 0 && r < tile_rows) {
      if constexpr (Out::BATCHED)
        batched[r] = (T)sum;
      else
        out.row(start.row + r, sum, terms);
    }
  }
  if constexpr (Out::BATCHED) { /* the tile's rows together (cuda/spmv_out.cuh) */
    __syncthreads();
    if (tid < tile_rows)
      out.row(start.row + tid, (double)batched[tid], terms, ahead);
    for (int r = tid + THREADS; r < tile_rows; r += THREADS)
      out.row(start.row + r, (double)batched[r], terms);
  }
}

/* Row `row`'s sum by the whole block, straight from global memory, for a row too long to stage:
 * thread i adds entries i, i + THREADS, ..., four loads in flight at a time, then block_sum; the
 * result in thread 0. */
template <typename T, bool PATTERN, typename Cols>
__device__ __forceinline__ double long_row_sum(int64_t row, const int64_t *off, const Cols &col,
                                               const T *val, const T *x,
                                               double (&warp_sums)[THREADS / 32]) {
  const int64_t end = off[row + 1];
  int64_t k = off[row] + threadIdx.x;
  double sum = 0.0;
  for (; k + 3 * THREADS < end; k += 4 * THREADS) {
    int32_t c[4];
    double a[4];
#pragma unroll
    for (int u = 0; u < 4; u++) {
      c[u] = col.streamed(k + u * THREADS);
      a[u] = PATTERN ? 1.0 : (double)__ldcs(val + k + u * THREADS);
    }
#pragma unroll
    for (int u = 0; u < 4; u++)
      sum += PATTERN ? (double)__ldg(x + c[u]) : a[u] * (double)__ldg(x + c[u]);
  }
  for (; k < end; k += THREADS)
    sum += PATTERN ? (double)__ldg(x + col.at(k)) : (double)val[k] * (double)__ldg(x + col.at(k));
  return block_sum(sum, warp_sums);
}

/* A tile whose nonzeros exceed the staging (it holds a row longer than CSRI_SPMV_STREAM_LONGEST):
 * its rows in rounds, each round the next rows that fit the staging together, staged and summed
 * as in a tile that fits, or, when the next row alone does not fit, that row summed by the whole
 * block (long_row_sum). A round's rows are found by the whole block at once: the rows whose end
 * lies within the staging's reach of the round's first nonzero form a prefix, counted by
 * __syncthreads_count. Returns the thread's terms; Out comes by value (a reference made every
 * thread of every tile store it to local memory first, which cost the stream kernel up to a fifth
 * of its speed). */
template <typename T, bool PATTERN, typename Cols, typename Out>
__device__ __noinline__ typename Out::terms
unstaged_tile(tile_start start, int tile_rows, const int64_t *off, const Cols col, const T *val,
              const T *x, const Out out, double (&warp_sums)[THREADS / 32],
              typename csri_staged<T>::type *products, int *row_starts, T *batched) {
  typename Out::terms terms = {};
  int r = 0;
  while (r < tile_rows) { /* r is the same for the whole block */
    const int64_t base = off[start.row + r];
    int e = r;
    for (int first = r + 1;; first += THREADS) {
      const int i = first + (int)threadIdx.x;
      const int fits = i <= tile_rows && off[start.row + i] - base <= shape<T>::capacity;
      const int count = __syncthreads_count(fits);
      e += count;
      if (count < THREADS)
        break;
    }
    if (e == r) {
      const double sum = long_row_sum<T, PATTERN>(start.row + r, off, col, val, x, warp_sums);
      if (threadIdx.x == 0)
        out.row(start.row + r, sum, terms);
      r++;
    } else {
      staged_tile<T, PATTERN>(tile_start{start.row + r, base}, e - r,
                              (int)(off[start.row + e] - base), off, col, val, x, out, terms,
                              products, row_starts, batched);
      __syncthreads(); /* the staging's shared memory is the next round's */
      r = e;
    }
  }
  return terms;
}

/* One tile per block: staged when it fits (always, for a matrix whose rows fit the tiles), else
 * in rounds; then the block's terms of an Out with sums. */
template <typename T, bool PATTERN, typename Cols, typename Out>
__global__ void __launch_bounds__(THREADS, shape<T>::min_blocks)
    stream_kernel(const int64_t *off, Cols col, const T *val, const T *x, Out out, double *partials,
                  const tile_start *starts) {
  __shared__ typename csri_staged<T>::type products[shape<T>::capacity];
  __shared__ int row_starts[shape<T>::window + 1]; /* a tile holds at most window rows */
  __shared__ double warp_sums[THREADS / 32];
  __shared__ T batched[Out::BATCHED ? shape<T>::window : 1]; /* the rows' sums, by row */
  const tile_start start = starts[blockIdx.x], end = starts[blockIdx.x + 1];
  const int tile_rows = (int)(end.row - start.row);
  typename Out::terms terms = {};
  if (end.nz - start.nz > shape<T>::capacity) /* the same for the whole block */
    terms = unstaged_tile<T, PATTERN, Cols, Out>(start, tile_rows, off, col, val, x, out, warp_sums,
                                                 products, row_starts, batched);
  else
    staged_tile<T, PATTERN>(start, tile_rows, (int)(end.nz - start.nz), off, col, val, x, out,
                            terms, products, row_starts, batched);
  csri_out_block<Out, THREADS>(terms, partials);
}

template <typename T, bool PATTERN, typename Out>
csr_status run(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A, const T *x,
               const Out &out, double *result, const tile_start *starts, double *partials,
               int64_t tiles) {
  CSRI_TRY(csri_with_columns(plan, A, [&](auto cols) {
    stream_kernel<T, PATTERN, decltype(cols), Out>
        <<<(unsigned)tiles, THREADS, 0, csri_stream(ctx)>>>(
            A->row_offsets, cols, (const T *)A->values, x, out, partials, starts);
    return CSRI_CUDA_CHECK(ctx, "stream SpMV kernel");
  }));
  return csri_out_total<Out>(ctx, partials, csri_out_partials<THREADS>(tiles), result);
}

/* Finds where A's tiles start, into `starts` (tiles + 1 of them). */
template <typename T>
csr_status find_starts(csr_context *ctx, const csr_matrix *A, int64_t tiles, tile_start *starts) {
  tile_starts<<<(unsigned)((tiles + CSRI_SPMV_STARTS_THREADS) / CSRI_SPMV_STARTS_THREADS),
                CSRI_SPMV_STARTS_THREADS, 0, csri_stream(ctx)>>>(A->row_offsets, A->rows, tiles,
                                                                 shape<T>::window, starts);
  return CSRI_CUDA_CHECK(ctx, "SpMV row tile starts");
}

/* The tile starts kept with A (cuda/spmv_tile.cuh), searched now when they were not yet. */
template <typename T>
csr_status kept_starts(csr_context *ctx, const csr_matrix *A, int64_t tiles, tile_start **kept) {
  const uint64_t key = (uint64_t)CSR_KERNEL_STREAM << 32 | (uint64_t)shape<T>::window;
  return csri_kept_tile_starts<tile_start>(
      ctx, A, key, tiles, [&](tile_start *starts) { return find_starts<T>(ctx, A, tiles, starts); },
      kept);
}

/* The bytes of the tile starts in a call's scratch when they are not kept. */
size_t starts_bytes(int64_t tiles) {
  return csri_align256((size_t)(tiles + 1) * sizeof(tile_start));
}

} // namespace

/* The tiles' starts (kept with the matrix, else in the context's scratch before the blocks'
 * partials), the kernel. */
template <typename T, typename Out>
csr_status csri_cuda_spmv_stream(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A,
                                 const T *x, const Out &out, double *result) {
  const int64_t tiles = csri_row_tiles(A->rows, A->nnz, shape<T>::window); /* from A alone */
  if (tiles == 0)
    return CSR_SUCCESS;
  tile_start *kept = NULL;
  CSRI_TRY(kept_starts<T>(ctx, A, tiles, &kept));
  const size_t in_scratch = kept != NULL ? 0 : starts_bytes(tiles);
  const size_t bytes = in_scratch + csri_out_partials_bytes<Out>(csri_out_partials<THREADS>(tiles));
  void *base = NULL;
  if (bytes > 0)
    CSRI_TRY(csri_device_scratch(ctx, bytes, &base));
  tile_start *starts = kept != NULL ? kept : (tile_start *)base;
  double *partials = bytes > in_scratch ? (double *)((char *)base + in_scratch) : NULL;
  csr_status status = kept != NULL ? CSR_SUCCESS : find_starts<T>(ctx, A, tiles, starts);
  if (status >= 0)
    status = A->value_type == CSR_PATTERN
                 ? run<T, true, Out>(ctx, plan, A, x, out, result, starts, partials, tiles)
                 : run<T, false, Out>(ctx, plan, A, x, out, result, starts, partials, tiles);
  if (bytes > 0)
    csri_device_scratch_done(ctx, base);
  return status;
}

CSRI_SPMV_OUT_INSTANTIATE(csri_cuda_spmv_stream)

/* The starts of A's tiles for its own value type (f64 x for a pattern matrix), kept; the
 * workspace of a call without kept starts, of either value type, reserved. */
csr_status csri_cuda_spmv_stream_prepare(csr_context *ctx, const csr_matrix *A,
                                         const csri_spmv_plan *plan) {
  (void)plan;
  const int64_t tiles64 = csri_row_tiles(A->rows, A->nnz, shape<double>::window);
  const int64_t tiles32 = csri_row_tiles(A->rows, A->nnz, shape<float>::window);
  if (tiles64 == 0)
    return CSR_SUCCESS;
  void *base = NULL;
  const size_t f64 = starts_bytes(tiles64), f32 = starts_bytes(tiles32);
  CSRI_TRY(csri_device_scratch(ctx, f64 > f32 ? f64 : f32, &base));
  csri_device_scratch_done(ctx, base);
  tile_start *kept = NULL;
  return A->value_type == CSR_F32 ? kept_starts<float>(ctx, A, tiles32, &kept)
                                  : kept_starts<double>(ctx, A, tiles64, &kept);
}
