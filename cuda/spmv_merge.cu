/* SPDX-License-Identifier: BSD-3-Clause */
/* y = alpha*A*x + beta*y with the work cut evenly along the merge path of the rows' ends and the
 * nonzeros (src/kernels/merge_path.h): each thread takes the same number of items of the path
 * (a nonzero or a row's end; 7 in f64, 9 in f32: cuda/tuning.cuh), whatever the row lengths. A row
 * that the cuts split is summed from its pieces in double, in an order fixed by the matrix's shape:
 * within a tile by a segmented scan of the threads' carries, across tiles by a fix-up that adds the
 * tiles' carries in tile order. No atomics: the same bits on every call. */
#include "columns.cuh"
#include "kernels/merge_path.h"
#include "spmv_out.cuh"
#include "spmv_tile.cuh"

namespace {

constexpr int THREADS = CSRI_SPMV_MERGE_THREADS;
constexpr int FIX_UP_THREADS = CSRI_SPMV_FIX_UP_THREADS;

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
 * fix-up as the tile's head; every other row is finished here (out.row, cuda/spmv_out.cuh). The
 * row open at the tile's end leaves its sum in the tile's carry. Within the tile everything is
 * 32-bit, counted from the tile's start. */
template <typename T, bool PATTERN, typename Cols, typename Out>
__global__ void __launch_bounds__(THREADS, shape<T>::min_blocks)
    merge_kernel(int64_t rows, const int64_t *off, Cols col, const T *val, const T *x, Out out,
                 double *partials, const csri_merge_coord *starts, double *carry_sum,
                 double *head_sum) {
  constexpr int ITEMS = shape<T>::items;
  constexpr int64_t TILE = shape<T>::tile;
  __shared__ int ends[TILE + 1]; /* the tile's rows' ends, and the open row's at its end */
  __shared__ typename csri_staged<T>::type products[TILE]; /* a_k x_{c_k} of the tile's nonzeros */
  __shared__ keyed warp_totals[THREADS / 32];
  __shared__ T batched[Out::BATCHED ? TILE : 1]; /* the sums of the rows closed here, by row */
  csri_let_next_start(); /* the fix-up may take the SMs this grid's last tiles leave idle */
  const int64_t t = blockIdx.x;
  const csri_merge_coord start = starts[t], end = starts[t + 1];
  const int tile_rows = (int)(end.row - start.row), nonzeros = (int)(end.nz - start.nz);
  const int staged = tile_rows < rows - start.row ? tile_rows + 1 : tile_rows;
  const int tid = threadIdx.x;
  /* A BATCHED Out's loads for the first row this thread finishes at the end, then the row
   * ends' first round, then the products' loads, all in flight before any is used. A tile
   * starts before the last row's end, so it stages at least one row end. */
  typename Out::ahead ahead;
  if constexpr (Out::BATCHED)
    if ((t > 0) + tid < tile_rows)
      ahead = out.fetch(start.row + (t > 0) + tid);
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
  typename Out::terms terms = {};
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
      } else if constexpr (Out::BATCHED) {
        batched[c.row] = (T)sum;
      } else {
        out.row(start.row + c.row, sum, terms);
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
    else if constexpr (Out::BATCHED)
      batched[first_row] = (T)total;
    else
      out.row(start.row + first_row, total, terms);
  }
  if constexpr (Out::BATCHED) { /* every row closed here but the head, together */
    __syncthreads();
    const int first = (t > 0) + tid;
    if (first < tile_rows)
      out.row(start.row + first, (double)batched[first], terms, ahead);
    for (int r = first + THREADS; r < tile_rows; r += THREADS)
      out.row(start.row + r, (double)batched[r], terms);
  }
  if (threadIdx.x == THREADS - 1) /* the row open at the tile's end is starts[t + 1].row */
    carry_sum[t] = inclusive.sum;
  csri_out_block<Out, THREADS>(terms, partials);
}

/* Tiles per group: a group's carries are summed once, so that the fix-up of a row spanning
 * many groups reads one sum per group instead of every tile's carry (src/kernels/merge_path.h). */
constexpr int64_t GROUP = CSRI_SPMV_MERGE_GROUP;

/* Adds a[lo..hi) into the lane's running sums: lane l takes a[lo + l], a[lo + l + 32], ..., 8 of
 * them in flight at once, into part[0..7] in turn. A fixed order, whatever the hardware. */
__device__ __forceinline__ void add_range(double (&part)[8], const double *a, int64_t lo,
                                          int64_t hi) {
  int64_t s = lo + (threadIdx.x & 31);
  for (; s + 7 * 32 < hi; s += 8 * 32)
#pragma unroll
    for (int u = 0; u < 8; u++)
      part[u] += a[s + u * 32];
  for (; s < hi; s += 32)
    part[0] += a[s];
}

/* The warp's total of its lanes' running sums (lane 0 gets it): pairs, then a shuffle tree. */
__device__ __forceinline__ double warp_total(const double (&part)[8]) {
  double sum =
      ((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7]));
#pragma unroll
  for (int d = 16; d > 0; d /= 2)
    sum += __shfl_down_sync(FULL, sum, d);
  return sum;
}

/* group_sum[g] = the carries of tiles [g GROUP, (g + 1) GROUP) summed, one warp per full group.
 * Run only when a row may span more than two groups; the fix-up uses the sums of the groups that
 * lie inside such a row's run, where every carry is that row's. */
__global__ void __launch_bounds__(FIX_UP_THREADS)
    group_sums(int64_t groups, const double *carry_sum, double *group_sum) {
  const int64_t g = ((int64_t)blockIdx.x * FIX_UP_THREADS + threadIdx.x) / 32;
  if (g >= groups) /* the same for the whole warp */
    return;
  double part[8] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  add_range(part, carry_sum, g * GROUP, (g + 1) * GROUP);
  const double sum = warp_total(part);
  if ((threadIdx.x & 31) == 0)
    group_sum[g] = sum;
}

/* Tiles of a run that one thread sums alone (fix_up): its loads all in flight together, so that
 * the heads a warp holds are finished side by side rather than one after another by the whole
 * warp (web graphs' rows of a few thousand links end a run of 2 to 16 tiles, and a fix-up warp
 * may hold a dozen such heads: summed in turn they made the fix-up about three times as long). */
constexpr int LANE_RUN = CSRI_SPMV_MERGE_LANE_RUN;

/* The carries of tiles [t0, t), t - t0 <= LANE_RUN, added in tile order. */
__device__ __forceinline__ double lane_run_sum(const double *carry_sum, int64_t t0, int64_t t) {
  double c[LANE_RUN];
#pragma unroll
  for (int k = 0; k < LANE_RUN; k++)
    if (t0 + k < t)
      c[k] = carry_sum[t0 + k];
  double sum = c[0];
#pragma unroll
  for (int k = 1; k < LANE_RUN; k++)
    if (t0 + k < t)
      sum += c[k];
  return sum;
}

/* The whole warp, for a head row r (of tile t) whose run of carries [t0, t) is longer than
 * LANE_RUN tiles: sums the carries (add_range, then warp_total, then the head: an order fixed by
 * the matrix's shape) and finishes row r (out.row). A run of more than two groups (with
 * group_sum) reads the whole groups inside it as their sums, so that a row spanning n tiles costs
 * its warp about n / (256 GROUP) rounds of loads instead of n / 256. */
template <typename Out>
__device__ __forceinline__ void
fix_up_head(int64_t r, int64_t t0, int64_t t, const double *carry_sum, const double *head_sum,
            const double *group_sum, const Out &out, typename Out::terms &terms) {
  double part[8] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  if (group_sum != NULL && t - t0 > 2 * GROUP) { /* the ragged ends, and the groups between */
    int64_t g0, g1;
    csri_merge_run_groups(t0, t, GROUP, &g0, &g1);
    add_range(part, carry_sum, t0, g0 * GROUP);
    add_range(part, group_sum, g0, g1);
    add_range(part, carry_sum, g1 * GROUP, t);
  } else {
    add_range(part, carry_sum, t0, t);
  }
  const double sum = warp_total(part);
  if ((threadIdx.x & 31) == 0)
    out.row(r, sum + head_sum[t], terms);
}

/* Loads of the tiles' partials that a fix-up thread keeps in flight together. */
constexpr int PARTIALS_IN_FLIGHT = CSRI_SPMV_PARTIALS_IN_FLIGHT;

/* Adds partials j, j + the grid's threads, ... (< count; j the thread's index in the grid) into
 * terms, in that order, PARTIALS_IN_FLIGHT loads at a time. */
template <int K>
__device__ __forceinline__ void add_partials(csri_sums<K> &terms, const double *partials,
                                             int64_t count) {
  const int64_t stride = (int64_t)gridDim.x * FIX_UP_THREADS;
  for (int64_t j = (int64_t)blockIdx.x * FIX_UP_THREADS + threadIdx.x; j < count;
       j += PARTIALS_IN_FLIGHT * stride) {
    double p[PARTIALS_IN_FLIGHT][K];
#pragma unroll
    for (int u = 0; u < PARTIALS_IN_FLIGHT; u++)
#pragma unroll
      for (int k = 0; k < K; k++)
        p[u][k] = j + u * stride < count ? partials[(j + u * stride) * K + k] : 0.0;
#pragma unroll
    for (int u = 0; u < PARTIALS_IN_FLIGHT; u++)
#pragma unroll
      for (int k = 0; k < K; k++)
        terms.v[k] += p[u][k];
  }
}

/* One thread per tile t >= 1. Most heads need only the tile before: tile t - 1 is the whole run
 * of row r's carries unless r was already open where t - 1 began (tile s's carry is the row open
 * at its end, starts[s + 1].row), and then the row is carry_sum[t - 1] + head_sum[t], the
 * thread's own work. A longer run starts where row r does (csri_merge_run_start, from r's
 * offset); the thread sums one of at most LANE_RUN tiles itself, and the whole warp takes a
 * longer one (fix_up_head), the warp's such tiles one after another in lane order. Tiles without
 * a head (no row closes in them) only join the block's combination of the terms. An Out with
 * sums also totals them here, in place of folds launched after: each thread adds the tiles'
 * partials (a warp's each, csri_out_block) j, j + the grid's threads, ... (j its index in the
 * grid; PARTIALS_IN_FLIGHT loads at once) to its terms, and the last block to finish combines the
 * blocks' (csri_grid_combine): one launch, an order fixed by the grid, which the tiles fix. */
template <typename Out>
__global__ void __launch_bounds__(FIX_UP_THREADS)
    fix_up(int64_t tiles, int64_t tile_items, const int64_t *off, const csri_merge_coord *starts,
           const double *carry_sum, const double *head_sum, const double *group_sum, Out out,
           const double *tile_partials, csri_reduce_space<Out::SUMS> space) {
  const int64_t first = (int64_t)blockIdx.x * FIX_UP_THREADS + (threadIdx.x & ~31) + 1;
  const int64_t t = first + (threadIdx.x & 31);
  /* Where the head's run starts depends on the matrix alone: found while the tiles finish. */
  int64_t r = 0, t0 = 0;
  bool head = false;
  if (t < tiles) {
    r = starts[t].row;
    head = starts[t + 1].row != r; /* row r closes in tile t */
    if (head)
      t0 = csri_merge_single_run(t, starts[t - 1].row, r)
               ? t - 1
               : csri_merge_run_start(r, off[r], tile_items);
  }
  csri_wait_prior();
  typename Out::terms terms = {};
  if constexpr (Out::SUMS > 0)
    add_partials<Out::SUMS>(terms, tile_partials, csri_out_partials<THREADS>(tiles));
  bool long_run = false;
  if (head) {
    if (t - t0 == 1)
      out.row(r, carry_sum[t - 1] + head_sum[t], terms);
    else if (t - t0 <= LANE_RUN)
      out.row(r, lane_run_sum(carry_sum, t0, t) + head_sum[t], terms);
    else
      long_run = true;
  }
  for (unsigned m = __ballot_sync(FULL, long_run); m != 0; m &= m - 1) {
    const int lane = __ffs(m) - 1;
    fix_up_head(__shfl_sync(FULL, r, lane), __shfl_sync(FULL, t0, lane), first + lane, carry_sum,
                head_sum, group_sum, out, terms);
  }
  if constexpr (Out::SUMS > 0)
    csri_grid_combine<csri_add, Out::SUMS, FIX_UP_THREADS>(terms, space);
}

/* The scratch of one call: the tiles' carries and heads, the partials of an Out with sums (the
 * tiles' warps', then the fix-up's blocks'), and the tile starts when they are not kept. */
struct scratch {
  csri_merge_coord *starts;
  double *carry_sum, *head_sum, *partials;
  double *group_sum; /* NULL: no row spans more than two groups of tiles */
  unsigned *ticket;  /* the fix-up's, without a context to keep one (csri_reduce_ticket) */
};

/* Blocks of the fix-up: a thread for each tile but the first. */
int64_t fix_up_blocks(int64_t tiles) {
  return (tiles - 1 + FIX_UP_THREADS - 1) / FIX_UP_THREADS;
}

/* The scratch's size in bytes; with a base, also where its pieces lie (each 256-byte aligned). */
size_t layout(char *base, int64_t tiles, int64_t groups, bool starts_kept, size_t partials_bytes,
              scratch *s) {
  const size_t sizes[6] = {(size_t)tiles * sizeof(double),
                           (size_t)tiles * sizeof(double),
                           partials_bytes,
                           starts_kept ? 0 : (size_t)(tiles + 1) * sizeof(csri_merge_coord),
                           (size_t)groups * sizeof(double),
                           partials_bytes > 0 ? sizeof(unsigned) : 0};
  size_t at[6], total = 0;
  for (int i = 0; i < 6; i++) {
    at[i] = total;
    total += csri_align256(sizes[i]);
  }
  if (base != NULL) {
    s->carry_sum = (double *)(base + at[0]);
    s->head_sum = (double *)(base + at[1]);
    s->partials = (double *)(base + at[2]);
    s->starts = starts_kept ? NULL : (csri_merge_coord *)(base + at[3]);
    s->group_sum = groups > 0 ? (double *)(base + at[4]) : NULL;
    s->ticket = partials_bytes > 0 ? (unsigned *)(base + at[5]) : NULL;
  }
  return total;
}

template <typename T, bool PATTERN, typename Out>
csr_status run(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A, const T *x,
               const Out &out, double *result, const scratch &s, int64_t tiles) {
  cudaStream_t stream = csri_stream(ctx);
  CSRI_TRY(csri_with_columns(plan, A, [&](auto cols) {
    merge_kernel<T, PATTERN, decltype(cols), Out><<<(unsigned)tiles, THREADS, 0, stream>>>(
        A->rows, A->row_offsets, cols, (const T *)A->values, x, out, s.partials, s.starts,
        s.carry_sum, s.head_sum);
    return CSRI_CUDA_CHECK(ctx, "segmented SpMV kernel");
  }));
  if (s.group_sum != NULL) {
    const int64_t groups = tiles / GROUP, warps_per_block = FIX_UP_THREADS / 32;
    group_sums<<<(unsigned)((groups + warps_per_block - 1) / warps_per_block), FIX_UP_THREADS, 0,
                 stream>>>(groups, s.carry_sum, s.group_sum);
    CSRI_TRY(CSRI_CUDA_CHECK(ctx, "segmented SpMV group sums"));
  }
  const int64_t warp_partials = csri_out_partials<THREADS>(tiles); /* one a warp of each tile */
  if (tiles == 1) /* no fix-up: the one tile's partials make the result */
    return csri_out_total<Out>(ctx, s.partials, warp_partials, result);
  csri_reduce_space<Out::SUMS> space = {NULL, result, s.partials + warp_partials * Out::SUMS};
  if constexpr (Out::SUMS > 0)
    CSRI_TRY(csri_reduce_ticket(ctx, s.ticket, &space.ticket));
  csri_launch_early(fix_up<Out>, (unsigned)fix_up_blocks(tiles), FIX_UP_THREADS, stream, tiles,
                    shape<T>::tile, A->row_offsets, s.starts, s.carry_sum, s.head_sum, s.group_sum,
                    out, s.partials, space);
  return CSRI_CUDA_CHECK(ctx, "segmented SpMV fix-up");
}

/* Finds where A's tiles start, into `starts` (tiles + 1 of them). */
template <typename T>
csr_status find_starts(csr_context *ctx, const csr_matrix *A, int64_t tiles,
                       csri_merge_coord *starts) {
  tile_starts<<<(unsigned)((tiles + CSRI_SPMV_STARTS_THREADS) / CSRI_SPMV_STARTS_THREADS),
                CSRI_SPMV_STARTS_THREADS, 0, csri_stream(ctx)>>>(A->row_offsets, A->rows, A->nnz,
                                                                 tiles, shape<T>::tile, starts);
  return CSRI_CUDA_CHECK(ctx, "SpMV tile starts");
}

/* The tile starts kept with A (cuda/spmv_tile.cuh), searched now when they were not yet. */
template <typename T>
csr_status kept_starts(csr_context *ctx, const csr_matrix *A, int64_t tiles,
                       csri_merge_coord **kept) {
  const uint64_t key = (uint64_t)CSR_KERNEL_SEGMENTED << 32 | (uint64_t)shape<T>::tile;
  return csri_kept_tile_starts<csri_merge_coord>(
      ctx, A, key, tiles,
      [&](csri_merge_coord *starts) { return find_starts<T>(ctx, A, tiles, starts); }, kept);
}

/* The scratch of a call on A with value type T that finds no kept tile starts, for an Out
 * without sums (csr_spmv's). */
template <typename T> size_t unkept_scratch_bytes(const csr_matrix *A, int64_t longest) {
  const int64_t tiles = csri_merge_tiles(A->rows, A->nnz, shape<T>::tile);
  const int64_t groups = csri_merge_groups(tiles, shape<T>::tile, GROUP, longest);
  return tiles == 0 ? 0 : layout(NULL, tiles, groups, false, 0, NULL);
}

} // namespace

template <typename T, typename Out>
csr_status csri_cuda_spmv_merge(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A,
                                const T *x, const Out &out, double *result) {
  const int64_t tiles = csri_merge_tiles(A->rows, A->nnz, shape<T>::tile);
  if (tiles == 0)
    return CSR_SUCCESS;
  csri_merge_coord *kept = NULL;
  CSRI_TRY(kept_starts<T>(ctx, A, tiles, &kept));
  scratch s = {};
  const size_t partials = csri_out_partials_bytes<Out>(csri_out_partials<THREADS>(tiles) +
                                                       (tiles > 1 ? fix_up_blocks(tiles) : 0));
  void *base = NULL;
  const int64_t groups = csri_merge_groups(tiles, shape<T>::tile, GROUP, plan->longest);
  CSRI_TRY(
      csri_device_scratch(ctx, layout(NULL, tiles, groups, kept != NULL, partials, &s), &base));
  layout((char *)base, tiles, groups, kept != NULL, partials, &s);
  csr_status status = CSR_SUCCESS;
  if (kept != NULL)
    s.starts = kept;
  else
    status = find_starts<T>(ctx, A, tiles, s.starts);
  if (status >= 0)
    status = A->value_type == CSR_PATTERN
                 ? run<T, true, Out>(ctx, plan, A, x, out, result, s, tiles)
                 : run<T, false, Out>(ctx, plan, A, x, out, result, s, tiles);
  csri_device_scratch_done(ctx, base);
  return status;
}

CSRI_SPMV_OUT_INSTANTIATE(csri_cuda_spmv_merge)

/* The starts of A's tiles for its own value type (f64 x for a pattern matrix), kept; the
 * workspace of a call without kept starts, of either value type, reserved. */
csr_status csri_cuda_spmv_merge_prepare(csr_context *ctx, const csr_matrix *A,
                                        const csri_spmv_plan *plan) {
  const int64_t tiles = csri_merge_tiles(A->rows, A->nnz, shape<double>::tile);
  if (tiles == 0)
    return CSR_SUCCESS;
  void *base = NULL;
  const size_t f64 = unkept_scratch_bytes<double>(A, plan->longest),
               f32 = unkept_scratch_bytes<float>(A, plan->longest);
  CSRI_TRY(csri_device_scratch(ctx, f64 > f32 ? f64 : f32, &base));
  csri_device_scratch_done(ctx, base);
  csri_merge_coord *kept = NULL;
  if (A->value_type == CSR_F32)
    return kept_starts<float>(ctx, A, csri_merge_tiles(A->rows, A->nnz, shape<float>::tile), &kept);
  return kept_starts<double>(ctx, A, tiles, &kept);
}
