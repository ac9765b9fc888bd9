/* SPDX-License-Identifier: BSD-3-Clause */
/* What an SpMV kernel does with a finished row sum s_i = sum_k a_ik x_k (in double): every kernel
 * (scalar and vector, cuda/spmv.cu; segmented, cuda/spmv_merge.cu; stream, cuda/spmv_stream.cu)
 * takes it as a template parameter `Out` and calls out.row(i, s_i, terms) once per row.
 *   csri_spmv_to_y:      y_i = alpha s_i + beta y_i (csr_spmv);
 *   csri_pagerank_row:   page i's new rank from s_i, and the next iteration's x_i (csr_pagerank's
 *                        fused iteration, cuda/pagerank.cu).
 * An Out with SUMS > 0 also adds SUMS terms per row (the L1 change, ...): each thread adds its
 * rows' terms, each warp combines its threads' in a fixed order into its partial, and
 * csri_out_total (in the segmented kernel, its fix-up) combines the partials in order. The
 * rows a thread and a block finish are fixed by the matrix's shape, so the totals have the same
 * bits on every call.
 * An Out whose row() reads memory of its own (PageRank: x_i or r_i, 1 / w_i) is BATCHED: the tiled
 * kernels keep its rows' sums, rounded to the value type, in shared memory and finish the tile's
 * rows together at its end, thread t taking rows t, t + THREADS, ...: coalesced loads, all in
 * flight at once, where calling it as each row closes would make a thread wait for its loads once
 * per row (4x slower on web graphs). What a thread's first such row reads (out.fetch, an `ahead`)
 * is loaded with the tile's own loads, before the tile is summed. */
#ifndef CSR_CUDA_SPMV_OUT_CUH
#define CSR_CUDA_SPMV_OUT_CUH

#include "reduce.cuh"

/* y_i = alpha s_i + beta y_i; beta == 0 overwrites (a NaN in the old y does not survive), as on
 * the CPU. */
template <typename T> struct csri_spmv_to_y {
  static constexpr int SUMS = 0;
  static constexpr bool BATCHED = false;
  typedef csri_sums<1> terms; /* unused */
  struct ahead {};            /* unused: not BATCHED */
  T *y;
  double alpha, beta;
  __device__ __forceinline__ void row(int64_t i, double s, terms &) const {
    y[i] = (T)(beta == 0.0 ? alpha * s : alpha * s + beta * (double)y[i]);
  }
};

/* a / b for a normal b > 0, to within a few roundings, not correctly rounded: the hardware's
 * estimate of 1 / b (which flushes a subnormal b to zero) refined by two Newton steps. Unlike
 * a / b it has no slow path: the call to one makes the segmented SpMV's kernel, which inlines
 * PageRank's update, spill registers (48 bytes a thread), which cost more than the traffic the
 * update saves. */
__device__ __forceinline__ double csri_divide_near(double a, double b) {
  double y;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(b));
  y = __fma_rn(y, __fma_rn(-b, y, 1.0), y);
  y = __fma_rn(y, __fma_rn(-b, y, 1.0), y);
  return __dmul_rn(a, y);
}

/* PageRank's update of page i from s_i = sum_{j -> i} x_j a_ji (src/kernels/pagerank_rows.c does
 * the same on the CPU, with the same roundings: s_i is rounded to the ranks' type as the CPU's y
 * stores it, and the _rn operations forbid fused multiply-adds):
 *   r_i <- d (s_i + base) + (1 - d) p_i, x_next_i = r_i inv_w_i (scale, page i not dangling)
 *   or r_i,
 * terms: |r_i(new) - r_i(old)| and r_i(new) when page i dangles (inv_w_i == 0). x_next must not
 * be the x the SpMV reads. Every x_next_i is written, a dangling page's too (no link reads it, so
 * it holds r_i): skipping those stores made partial sectors that cost more than they saved.
 * In double the ranks live in x alone between iterations (IN_X): r is written only with
 * write_ranks, and page i's old rank is taken back from its x_i (x_i / inv_w_i when scaled,
 * within a few roundings of the rank by csri_divide_near, inv_w_i being 1 / out-degree, at least
 * 2^-63; x_i itself otherwise), which saves reading and writing r, 16 bytes a page, for reading
 * x_i, 8. In float r is read and written in place (only row i's owner touches r_i): taken back
 * from a float x_i the old rank would be off by 2^-24 of itself, too coarse for the L1 change. */
template <typename T> struct csri_pagerank_row {
  static constexpr int SUMS = 2;
  static constexpr bool BATCHED = true; /* s_i is rounded to T first anyway */
  static constexpr bool IN_X = sizeof(T) == 8;
  typedef csri_sums<2> terms;
  T *r, *x_next;
  const T *x;              /* the x the SpMV reads (IN_X: page i's old rank from x_i) */
  const double *inv_w, *p; /* p NULL: uniform */
  double d, base, uniform;
  int scale, write_ranks;
  /* What row i's update reads: loaded ahead of the row's sum where the kernel can. */
  struct ahead {
    double w, teleport;
    T old;
  };
  __device__ __forceinline__ ahead fetch(int64_t i) const { return fetch(i, __ldcs(inv_w + i)); }
  /* The same with inv_w_i known (w). */
  __device__ __forceinline__ ahead fetch(int64_t i, double w) const {
    /* x_i with a plain load: other rows gather it too */
    return ahead{w, p ? __ldcs(p + i) : uniform, IN_X ? x[i] : __ldcs(r + i)};
  }
  __device__ __forceinline__ void row(int64_t i, double s, terms &acc) const {
    row(i, s, acc, fetch(i));
  }
  __device__ __forceinline__ void row(int64_t i, double s, terms &acc, const ahead &a) const {
    const double w = a.w, y = (double)(T)s;
    const double next = __dadd_rn(__dmul_rn(d, __dadd_rn(y, base)), __dmul_rn(1.0 - d, a.teleport));
    const T rounded = (T)next;
    const bool scaled = scale && w != 0.0;
    const double old = IN_X && scaled ? csri_divide_near((double)a.old, w) : (double)a.old;
    acc.v[0] += fabs((double)rounded - old);
    acc.v[1] += w == 0.0 ? (double)rounded : 0.0;
    if (!IN_X || write_ranks)
      r[i] = rounded;
    x_next[i] = (T)(scaled ? __dmul_rn((double)rounded, w) : (double)rounded);
  }
};

/* The partials that `blocks` blocks of THREADS threads leave (csri_out_block): one a warp. */
template <int THREADS> __host__ __device__ constexpr int64_t csri_out_partials(int64_t blocks) {
  return blocks * (THREADS / 32);
}

/* Every thread of the block calls it once, last: each warp's terms, by a fixed shuffle tree,
 * into partials[csri_out_partials(blockIdx.x) + warp] (SUMS doubles each), to be combined in
 * that order after the kernel. Not the block's total: that adds a barrier and a serial step to
 * the end of every tile, which hold the block's place on its SM, where combining 8 times the
 * partials after the kernel costs less (the fused PageRank pass over web-NotreDame 1 % faster).
 * Nothing for an Out without sums. */
template <typename Out, int THREADS>
__device__ __forceinline__ void csri_out_block(const typename Out::terms &acc, double *partials) {
  if constexpr (Out::SUMS > 0) {
    const typename Out::terms total = csri_warp_combine<csri_add, Out::SUMS>(acc);
    const int64_t slot = csri_out_partials<THREADS>(blockIdx.x) + threadIdx.x / 32;
    if ((threadIdx.x & 31) == 0)
#pragma unroll
      for (int k = 0; k < Out::SUMS; k++)
        partials[slot * Out::SUMS + k] = total.v[k];
  }
}

/* Partials combined per fold: a block of CSRI_REDUCE_THREADS threads, CSRI_OUT_FOLD_ITEMS each,
 * their loads in flight together. */
#define CSRI_OUT_FOLD (CSRI_REDUCE_THREADS * CSRI_OUT_FOLD_ITEMS)

/* folded[b] = the sum of partials [b FOLD, (b + 1) FOLD) (< blocks), K sums each: thread t adds
 * partials t, t + 256, ... of its fold, then the block's fixed tree. Block b of the grid takes
 * fold b; with one fold, folded is the result (device-visible, possibly mapped host memory). */
template <int K>
__global__ void __launch_bounds__(CSRI_REDUCE_THREADS)
    csri_partials_fold(const double *partials, int64_t blocks, double *folded) {
  csri_sums<K> s;
#pragma unroll
  for (int k = 0; k < K; k++)
    s.v[k] = 0.0;
  const int64_t first = (int64_t)blockIdx.x * CSRI_OUT_FOLD + threadIdx.x;
#pragma unroll
  for (int j = 0; j < CSRI_OUT_FOLD / CSRI_REDUCE_THREADS; j++) {
    const int64_t b = first + j * CSRI_REDUCE_THREADS;
    if (b < blocks)
#pragma unroll
      for (int k = 0; k < K; k++)
        s.v[k] += partials[b * K + k];
  }
  s = csri_block_combine<csri_add, K, CSRI_REDUCE_THREADS>(s);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < K; k++)
      folded[(size_t)blockIdx.x * K + k] = s.v[k];
    __threadfence_system(); /* the result may be mapped host memory */
  }
}

/* Folds of `count` partials. */
static inline int64_t csri_out_folds(int64_t count) {
  return (count + CSRI_OUT_FOLD - 1) / CSRI_OUT_FOLD;
}

/* After an SpMV whose `count` partials (csri_out_partials) are in `partials`: their totals at
 * `result` (Out::SUMS doubles, device-visible), in a fixed order: folds of CSRI_OUT_FOLD partials
 * into the space after them, folds of those, ..., until one fold makes the result. Nothing for
 * an Out without sums. */
template <typename Out>
static csr_status csri_out_total(csr_context *ctx, double *partials, int64_t count,
                                 double *result) {
  if constexpr (Out::SUMS > 0) {
    constexpr int K = Out::SUMS;
    const cudaStream_t stream = csri_stream(ctx);
    double *space = partials + (size_t)count * K;
    for (int64_t folds = csri_out_folds(count); folds > 1; folds = csri_out_folds(count)) {
      csri_partials_fold<K>
          <<<(unsigned)folds, CSRI_REDUCE_THREADS, 0, stream>>>(partials, count, space);
      partials = space;
      count = folds;
      space += (size_t)folds * K;
    }
    csri_partials_fold<K><<<1, CSRI_REDUCE_THREADS, 0, stream>>>(partials, count, result);
    return CSRI_CUDA_CHECK(ctx, "SpMV row sums' totals");
  }
  (void)ctx, (void)partials, (void)count, (void)result;
  return CSR_SUCCESS;
}

/* Bytes of `count` partials of an Out and their folds (0 without sums): the folds of the folds
 * take less than the first folds again. */
template <typename Out> static size_t csri_out_partials_bytes(int64_t count) {
  return (size_t)(count + 2 * csri_out_folds(count)) * Out::SUMS * sizeof(double);
}

/* out.row(i, s_i) for every row i of A (device operands; A->rows > 0), s = A x, by the kernel
 * the plan names (the launchers' table, cuda/spmv.cu); an Out with sums leaves their totals at
 * `result`. Each kernel's launcher has the same contract: */
template <typename T, typename Out>
csr_status csri_cuda_spmv_out(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A,
                              const T *x, const Out &out, double *result);
template <typename T, typename Out> /* scalar and vector, cuda/spmv_rows.cu */
csr_status csri_cuda_spmv_rows(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A,
                               const T *x, const Out &out, double *result);
template <typename T, typename Out> /* segmented, cuda/spmv_merge.cu */
csr_status csri_cuda_spmv_merge(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A,
                                const T *x, const Out &out, double *result);
template <typename T, typename Out> /* stream, cuda/spmv_stream.cu */
csr_status csri_cuda_spmv_stream(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A,
                                 const T *x, const Out &out, double *result);

/* What a tiled kernel readies for A (csri_spmv_prepare_fn, src/core/backend.h): its tile starts
 * for A's own value type, kept, and the scratch of a call that cannot keep them. */
csr_status csri_cuda_spmv_merge_prepare(csr_context *ctx, const csr_matrix *A,
                                        const csri_spmv_plan *plan);
csr_status csri_cuda_spmv_stream_prepare(csr_context *ctx, const csr_matrix *A,
                                         const csri_spmv_plan *plan);

/* Instantiates fn (one of the four above) for every value type and Out, in its source. */
#define CSRI_SPMV_OUT_INSTANCE(fn, T, OUT)                                                         \
  template csr_status fn<T, OUT<T>>(csr_context *, const csri_spmv_plan *, const csr_matrix *,     \
                                    const T *, const OUT<T> &, double *);
#define CSRI_SPMV_OUT_INSTANTIATE(fn)                                                              \
  CSRI_SPMV_OUT_INSTANCE(fn, double, csri_spmv_to_y)                                               \
  CSRI_SPMV_OUT_INSTANCE(fn, float, csri_spmv_to_y)                                                \
  CSRI_SPMV_OUT_INSTANCE(fn, double, csri_pagerank_row)                                            \
  CSRI_SPMV_OUT_INSTANCE(fn, float, csri_pagerank_row)

#endif
