/* SPDX-License-Identifier: BSD-3-Clause */
/* What the two tiled SpMV kernels share (segmented, cuda/spmv_merge.cu; stream,
 * cuda/spmv_stream.cu): staging a tile's products a_k x_{c_k} in shared memory, and storing a
 * row's result. A block of THREADS threads stages up to THREADS x ITEMS nonzeros, thread i taking
 * entries i, i + THREADS, ...: coalesced loads, and the gathers of x in flight together (a thread
 * walking its own consecutive entries reads strided lines, at half the copy bandwidth). */
#ifndef CSR_CUDA_SPMV_TILE_CUH
#define CSR_CUDA_SPMV_TILE_CUH

#include "common.cuh"

/* p, hidden from the compiler's arithmetic: loads at p + constant then address from p itself,
 * instead of each recomputing (base + offset + constant) in 64 bits. */
template <typename P> __device__ __forceinline__ P *csri_opaque(P *p) {
  asm("" : "+l"(p));
  return p;
}

/* v, tied to w's arrival: what is computed from v waits for w, so the compiler cannot widen v to
 * double as soon as it is loaded (in f32 that doubles its registers while the gathers are in
 * flight, and spills). */
__device__ __forceinline__ float csri_after(float v, float w) {
  asm("" : "+f"(v) : "f"(w));
  return v;
}
__device__ __forceinline__ double csri_after(double v, double) {
  return v;
}

/* What a tile stages for each nonzero: the product a_k x_{c_k}. In f64 a double. In f32 a float
 * when CSRI_SPMV_F32_STAGED_IN_FLOAT (cuda/tuning.cuh) says so: half the shared memory of a double,
 * which leaves the SM more L1 for the gathers of x; the product is then rounded once (relative
 * error at most 2^-24, what cuSPARSE's fp32 kernels make on every operation) before the row is
 * summed in double. A pattern matrix's products are x's entries themselves, exact either way. */
template <typename T> struct csri_staged { using type = double; };
#if CSRI_SPMV_F32_STAGED_IN_FLOAT
template <> struct csri_staged<float> { using type = float; };
#endif

/* One thread's share of a tile's products, in registers between the loads and the store to
 * shared memory, so that the caller can issue its own loads (the rows' ends) in between. */
template <typename T, bool PATTERN, int ITEMS, int THREADS> struct csri_tile_products {
  int cols[ITEMS];
  T vals[ITEMS], xs[ITEMS];

  /* Every load of the thread's share issued before any is used: the columns and values of
   * entries first + tid + k THREADS (k < ITEMS, inside the tile's `nonzeros`), then the gathers
   * of x. Each load is only predicated on being inside the tile (no branch separates them), and
   * addressed from the thread's first entry plus a constant. */
  template <typename Cols>
  __device__ __forceinline__ void load(const Cols &columns, const T *val, const T *x, int64_t first,
                                       int nonzeros) {
    const int tid = threadIdx.x;
    const typename Cols::from my_col = columns.starting_at(first + tid);
    const T *my_val = PATTERN ? NULL : csri_opaque(val + first + tid);
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
      if (k * THREADS + tid < nonzeros) {
        cols[k] = my_col(k * THREADS);
        if (!PATTERN)
          vals[k] = __ldcs(my_val + k * THREADS);
      }
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
      if (k * THREADS + tid < nonzeros)
        xs[k] = __ldg(x + cols[k]);
  }

  /* products[i] = a_i x_{c_i} for the thread's entries: in double (exact from f32 operands) or
   * in float (csri_staged). */
  __device__ __forceinline__ void store(typename csri_staged<T>::type *products,
                                        int nonzeros) const {
    using P = typename csri_staged<T>::type;
    const int tid = threadIdx.x;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
      const int i = k * THREADS + tid;
      if (i < nonzeros)
        products[i] = PATTERN ? (P)xs[k] : (P)csri_after(vals[k], xs[k]) * (P)xs[k];
    }
  }
};

/* The tile starts kept with A in the context under `key` (the kernel and its tile size): `tiles` +
 * 1 of type Start, filled by find(starts) when just allocated; NULL when they cannot be kept (no
 * context, A not cached, no memory for them, or a CUDA graph capture, which refuses the
 * allocation). A search that fails drops A's entry, so that no later call finds them kept
 * unfilled. */
template <typename Start, typename Find>
csr_status csri_kept_tile_starts(csr_context *ctx, const csr_matrix *A, uint64_t key, int64_t tiles,
                                 const Find &find, Start **kept) {
  void *p = NULL;
  int fresh = 0;
  CSRI_TRY(csri_spmv_tiles_for(ctx, A, key, (size_t)(tiles + 1) * sizeof(Start),
                               !csri_stream_capturing(ctx), &p, &fresh));
  if (p != NULL && fresh) {
    const csr_status status = find((Start *)p);
    if (status < 0) {
      csri_spmv_cache_forget(ctx, A);
      return status;
    }
  }
  *kept = (Start *)p;
  return CSR_SUCCESS;
}

#endif
