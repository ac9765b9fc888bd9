/* y = alpha*A*x + beta*y with the work cut evenly along the merge path of the rows' ends and the
 * nonzeros (src/kernels/merge_path.h): each thread takes the same number of items of the path
 * (a nonzero or a row's end; 7 in f64, 9 in f32: cuda/tuning.cuh), whatever the row lengths. A row
 * that the cuts split is summed from its pieces in double, in an order fixed by the matrix's shape:
 * within a tile by a segmented scan of the threads' carries, across tiles by a fix-up that adds the
 * tiles' carries in tile order. No atomics: the same bits on every call. */
#include "common.cuh"
#include "kernels/merge_path.h"
#include "spmv_merge.cuh"
#include "spmv_tile.cuh"

namespace {

constexpr int THREADS = CSRI_SPMV_MERGE_THREADS;

/* The tile shape of each value type (cuda/tuning.cuh): path items per thread, and the blocks per
 * SM that the register budget must fit. */
template <typename T> struct shape;
template <> struct shape<double> {
  static constexpr int items = CSRI_SPMV_MERGE_ITEMS, min_blocks = CSRI_SPMV_MERGE_MIN_BLOCKS;
  static constexpr int64_t tile = (int64_t)THREADS * items;
};
template <> struct shape<float> {
  static constexpr int items = CSRI_SPMV_MERGE_ITEMS_F32,
                       min_blocks = CSRI_SPMV_MERGE_MIN_BLOCKS_F32;
  static constexpr int64_t tile = (int64_t)THREADS * items;
};
constexpr unsigned FULL = 0xffffffffu;

/* A partial sum of a row (counted from the tile's first row): what a thread carries into the
 * next. */
struct keyed {
  int row;
  double sum;
};

/* The segmented combination: b's sum extends a's when both belong to the same row. Associative
 * for the non-decreasing rows that consecutive pieces of the path carry. */
__device__ __forceinline__ keyed combine(keyed a, keyed b) {
  return b.row == a.row ? keyed{b.row, a.sum + b.sum} : b;
}

/* Inclusive segmented scan of v across the first `lanes` lanes of a warp (a power of two; the
 * lanes past them get partial results). Fixed order: the same bits every call. */
__device__ __forceinline__ keyed warp_scan(keyed v, int lanes) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int d = 1; d < lanes; d *= 2) {
    int row = __shfl_up_sync(FULL, v.row, d);
    double sum = __shfl_up_sync(FULL, v.sum, d);
    if (lane >= d && row == v.row)
      v.sum = sum + v.sum;
  }
  return v;
}

/* Inclusive segmented scan of the threads' carries across the block: within each warp by
 * shuffles, then each warp combines the totals of the warps before it, also by shuffles (its
 * lane i holding warp i's total); *exclusive gets the previous thread's result (row -1 for thread
 * 0). Fixed order: the same bits every call. */
__device__ __forceinline__ keyed block_scan(keyed v, keyed *exclusive,
                                            keyed (&warp_totals)[THREADS / 32]) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_scan(v, 32);
  if (lane == 31)
    warp_totals[warp] = v;
  __syncthreads();
  keyed prefix = {-1, 0.0};
  if (warp > 0) { /* the whole warp: the earlier warps' totals combined, in lane warp - 1 */
    keyed earlier = warp_scan(lane < warp ? warp_totals[lane] : keyed{-1, 0.0}, THREADS / 32);
    prefix.row = __shfl_sync(FULL, earlier.row, warp - 1);
    prefix.sum = __shfl_sync(FULL, earlier.sum, warp - 1);
    v = combine(prefix, v);
  }
  int row = __shfl_up_sync(FULL, v.row, 1);
  double sum = __shfl_up_sync(FULL, v.sum, 1);
  *exclusive = lane > 0 ? keyed{row, sum} : prefix;
  return v;
}

/* Where every tile starts: tile t covers [starts[t], starts[t + 1]). */
__global__ void tile_starts(const int64_t *off, int64_t rows, int64_t nnz, int64_t tiles,
                            int64_t tile_items, csri_merge_coord *starts) {
  int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t <= tiles)
    starts[t] = csri_merge_tile_start(t, tile_items, off, rows, nnz);
}

/* One tile per block. The block first stages the tile's row ends (counted from its first
 * nonzero, 32-bit: csri_tile_end) and products a_k x_{c_k} in shared memory
 * (cuda/spmv_tile.cuh). A thread
 * then walks its items: a nonzero adds its product to the open row's sum, a row end closes the
 * row. The first row a thread closes also takes the earlier threads' carries of that row (the
 * block scan); the tile's first closed row, when it began in an earlier tile, is left to the
 * fix-up as the tile's head; every other row is stored here. The row open at the tile's end
 * leaves its sum in the tile's carry. Within the tile everything is 32-bit, counted from the
 * tile's start. */
template <typename T, bool PATTERN>
__global__ void __launch_bounds__(THREADS, shape<T>::min_blocks)
    merge_kernel(int64_t rows, const int64_t *off, const int32_t *col, const T *val, const T *x,
                 double alpha, double beta, T *y, const csri_merge_coord *starts,
                 int64_t *carry_row, double *carry_sum, double *head_sum) {
  constexpr int ITEMS = shape<T>::items;
  constexpr int64_t TILE = shape<T>::tile;
  __shared__ int ends[TILE + 1];    /* the tile's rows' ends, and the open row's at its end */
  __shared__ double products[TILE]; /* a_k x_{c_k} of the tile's nonzeros */
  __shared__ keyed warp_totals[THREADS / 32];
  const int64_t t = blockIdx.x;
  const csri_merge_coord start = starts[t], end = starts[t + 1];
  const int tile_rows = (int)(end.row - start.row), nonzeros = (int)(end.nz - start.nz);
  const int staged = tile_rows < rows - start.row ? tile_rows + 1 : tile_rows;
  const int tid = threadIdx.x;
  /* The row ends' first round, then the products' loads, all in flight before any is used. A
   * tile starts before the last row's end, so it stages at least one row end. */
  const int64_t end_first = __ldcs(off + start.row + 1 + min(tid, staged - 1));
  csri_tile_products<T, PATTERN, ITEMS, THREADS> staging;
  staging.load(col, val, x, start.nz, nonzeros);
  if (tid < staged)
    ends[tid] = csri_tile_end(end_first, start.nz, nonzeros);
  for (int i = tid + THREADS; i < staged; i += THREADS) /* tiles of more than THREADS rows */
    ends[i] = csri_tile_end(__ldcs(off + start.row + 1 + i), start.nz, nonzeros);
  staging.store(products, nonzeros);
  __syncthreads();
  const int length = tile_rows + nonzeros, first = (int)threadIdx.x * ITEMS;
  csri_tile_coord c = csri_merge_tile_search(first, ends, tile_rows, nonzeros);
  const int mine = first >= length ? 0 : length - first < ITEMS ? length - first : ITEMS;
  const int start_row = c.row;
  double sum = 0.0, first_sum = 0.0;
  int first_row = -1;
#pragma unroll
  for (int k = 0; k < ITEMS; k++) {
    if (k >= mine) /* the items this thread owns; the last threads of a tile may own fewer */
      break;
    if (c.nz < ends[c.row]) {
      sum += products[c.nz];
      c.nz++;
    } else {
      if (first_row < 0) {
        first_row = c.row;
        first_sum = sum;
      } else {
        csri_store_y(y, start.row + c.row, alpha, sum, beta);
      }
      sum = 0.0;
      c.row++;
    }
  }
  keyed exclusive;
  keyed inclusive = block_scan(keyed{c.row, sum}, &exclusive, warp_totals);
  if (first_row >= 0) {
    double total = (exclusive.row == start_row ? exclusive.sum : 0.0) + first_sum;
    if (t > 0 && first_row == 0)
      head_sum[t] = total;
    else
      csri_store_y(y, start.row + first_row, alpha, total, beta);
  }
  if (threadIdx.x == THREADS - 1) {
    carry_row[t] = start.row + inclusive.row;
    carry_sum[t] = inclusive.sum;
  }
}

/* One warp per tile t >= 1 that closes a row: its head row r began in an earlier tile, and the
 * run of tiles before t whose carry is row r holds the rest of r's sum. The warp finds the run
 * (the 32 tiles before t at once; a longer run's start by binary search, the carries' rows being
 * non-decreasing), sums its carries (each lane every 32nd tile into 8 running sums, then a
 * shuffle tree, then the head: an order fixed by the matrix's shape) and stores y_r. A row
 * spanning n tiles costs its warp n / 256 rounds of loads. */
template <typename T>
__global__ void fix_up(int64_t tiles, const csri_merge_coord *starts, const int64_t *carry_row,
                       const double *carry_sum, const double *head_sum, double alpha, double beta,
                       T *y) {
  const int lane = threadIdx.x & 31;
  const int64_t t = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32 + 1;
  if (t >= tiles)
    return; /* the whole warp: t is the same for its lanes */
  const int64_t r = starts[t].row;
  if (starts[t + 1].row == r)
    return; /* no row closes in tile t: no head */
  /* The carries' rows are non-decreasing: the lanes that match form a prefix. */
  int64_t s = t - 1 - lane;
  int m = __popc(__ballot_sync(FULL, s >= 0 && carry_row[s] == r));
  int64_t t0 = t - m;
  if (m == 32) { /* a longer run: the first tile whose carry row is r */
    int64_t lo = 0, hi = t - 32;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (carry_row[mid] < r)
        lo = mid + 1;
      else
        hi = mid;
    }
    t0 = lo;
  }
  double part[8] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  s = t0 + lane;
  for (; s + 7 * 32 < t; s += 8 * 32)
#pragma unroll
    for (int u = 0; u < 8; u++)
      part[u] += carry_sum[s + u * 32];
  for (; s < t; s += 32)
    part[0] += carry_sum[s];
  double sum =
      ((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7]));
#pragma unroll
  for (int d = 16; d > 0; d /= 2)
    sum += __shfl_down_sync(FULL, sum, d);
  if (lane == 0)
    csri_store_y(y, r, alpha, sum + head_sum[t], beta);
}

/* The scratch of one call: tile starts, then the tiles' carries and heads. */
struct scratch {
  csri_merge_coord *starts;
  int64_t *carry_row;
  double *carry_sum, *head_sum;
};

/* The scratch's size in bytes; with a base, also where its pieces lie (each 256-byte aligned). */
size_t layout(char *base, int64_t tiles, scratch *s) {
  const size_t sizes[4] = {(size_t)(tiles + 1) * sizeof(csri_merge_coord),
                           (size_t)tiles * sizeof(int64_t), (size_t)tiles * sizeof(double),
                           (size_t)tiles * sizeof(double)};
  size_t at[4], total = 0;
  for (int i = 0; i < 4; i++) {
    at[i] = total;
    total += csri_align256(sizes[i]);
  }
  if (base != NULL) {
    s->starts = (csri_merge_coord *)(base + at[0]);
    s->carry_row = (int64_t *)(base + at[1]);
    s->carry_sum = (double *)(base + at[2]);
    s->head_sum = (double *)(base + at[3]);
  }
  return total;
}

template <typename T, bool PATTERN>
csr_status run(csr_context *ctx, double alpha, const csr_matrix *A, const T *x, double beta, T *y,
               const scratch &s, int64_t tiles) {
  cudaStream_t stream = csri_stream(ctx);
  tile_starts<<<(unsigned)((tiles + 1 + 255) / 256), 256, 0, stream>>>(
      A->row_offsets, A->rows, A->nnz, tiles, shape<T>::tile, s.starts);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "SpMV tile starts"));
  merge_kernel<T, PATTERN><<<(unsigned)tiles, THREADS, 0, stream>>>(
      A->rows, A->row_offsets, A->col_indices, (const T *)A->values, x, alpha, beta, y, s.starts,
      s.carry_row, s.carry_sum, s.head_sum);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "segmented SpMV kernel"));
  if (tiles == 1)
    return CSR_SUCCESS;
  int64_t threads = (tiles - 1) * 32;
  fix_up<T><<<(unsigned)((threads + 255) / 256), 256, 0, stream>>>(
      tiles, s.starts, s.carry_row, s.carry_sum, s.head_sum, alpha, beta, y);
  return CSRI_CUDA_CHECK(ctx, "segmented SpMV fix-up");
}

/* One value type's call: its tiles, the scratch, the kernels. */
template <typename T>
csr_status run_typed(csr_context *ctx, double alpha, const csr_matrix *A, const csr_vector *x,
                     double beta, csr_vector *y) {
  int64_t tiles = csri_merge_tiles(A->rows, A->nnz, shape<T>::tile);
  if (tiles == 0)
    return CSR_SUCCESS;
  void *base = NULL;
  scratch s = {};
  CSRI_TRY(csri_device_scratch(ctx, layout(NULL, tiles, &s), &base));
  layout((char *)base, tiles, &s);
  csr_status status =
      A->value_type == CSR_PATTERN
          ? run<T, true>(ctx, alpha, A, (const T *)x->data, beta, (T *)y->data, s, tiles)
          : run<T, false>(ctx, alpha, A, (const T *)x->data, beta, (T *)y->data, s, tiles);
  csri_device_scratch_done(ctx, base);
  return status;
}

} // namespace

csr_status csri_cuda_spmv_merge(csr_context *ctx, double alpha, const csr_matrix *A,
                                const csr_vector *x, double beta, csr_vector *y) {
  return y->value_type == CSR_F64 ? run_typed<double>(ctx, alpha, A, x, beta, y)
                                  : run_typed<float>(ctx, alpha, A, x, beta, y);
}
