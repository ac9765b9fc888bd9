/* SPDX-License-Identifier: BSD-3-Clause */
/* Where an SpMV kernel reads entry k's column c_k: A's own array (plain CSR), or the 16-bit
 * packed index of a csr_spmv_run plan (src/kernels/packed_layout.h): c_k = head + lo_k, or for
 * an escaped chunk hi_k << 16 | lo_k. The kernels take the reader as a template parameter, so
 * that each is compiled once per form with the plain one unchanged, and read the same entries in
 * the same order either way: the sums, and so the bits, are the same. */
#ifndef CSR_CUDA_COLUMNS_CUH
#define CSR_CUDA_COLUMNS_CUH

#include "common.cuh"
#include "kernels/packed_layout.h"
#include "spmv_tile.cuh"

/* A's column array. */
struct csri_plain_columns {
  const int32_t *col;

  /* Through the read-only cache (row kernels: neighbouring threads share sectors). */
  __device__ __forceinline__ int32_t at(int64_t k) const { return __ldg(col + k); }
  /* Streamed, read once (tiles, long rows). */
  __device__ __forceinline__ int32_t streamed(int64_t k) const { return __ldcs(col + k); }

  /* A thread's reader of entries first + offset (cuda/spmv_tile.cuh's staging): its address
   * hidden from the compiler's arithmetic, so that each load is that address plus a constant. */
  struct from {
    const int32_t *p;
    __device__ __forceinline__ int32_t operator()(int offset) const { return __ldcs(p + offset); }
  };
  __device__ __forceinline__ from starting_at(int64_t first) const {
    return from{csri_opaque(col + first)};
  }
};

/* The packed index: a head per chunk of CSRI_PACK_CHUNK entries, read through the cache (a
 * chunk's entries share it), the 16-bit halves streamed. */
struct csri_packed_columns {
  const int32_t *heads;
  const uint16_t *lo, *hi;

  __device__ __forceinline__ int32_t decode(int64_t k, uint16_t low) const {
    const int32_t head = __ldg(heads + csri_pack_chunk_of(k));
    return head >= 0 ? csri_pack_column(head, low, 0)
                     : csri_pack_column(head, low, __ldg(hi + csri_pack_high_at(head, k)));
  }
  __device__ __forceinline__ int32_t at(int64_t k) const { return decode(k, __ldg(lo + k)); }
  __device__ __forceinline__ int32_t streamed(int64_t k) const { return decode(k, __ldcs(lo + k)); }

  struct from {
    const csri_packed_columns *c;
    int64_t first;
    __device__ __forceinline__ int32_t operator()(int offset) const {
      return c->streamed(first + offset);
    }
  };
  __device__ __forceinline__ from starting_at(int64_t first) const { return from{this, first}; }
};

/* f(columns) with the reader of the plan's form: packed when csr_spmv_run handed an index. */
template <typename F>
csr_status csri_with_columns(const csri_spmv_plan *plan, const csr_matrix *A, F &&f) {
  if (plan != nullptr && plan->packed != nullptr)
    return f(csri_packed_columns{plan->packed->heads, plan->packed->lo, plan->packed->hi});
  return f(csri_plain_columns{A->col_indices});
}

#endif
