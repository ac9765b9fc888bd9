/* SPDX-License-Identifier: BSD-3-Clause */
/* Reordering on the GPU.
 *   B = P_r A, columns renamed: b_row(i) = a_row(rows[i]) with j -> cols[j]. The lengths of the
 *     gathered rows, an exclusive scan of them into B's offsets, then a warp per row copies its
 *     entries (coalesced within the row).
 *   y[i] = x[index[i]];  inverse[p[k]] = k.
 *   The counting orders' keys (src/kernels/order_keys.h): a column's count by atomicAdd, its
 *   first appearance by atomicMin over the positions naming it, the largest count by atomicMax;
 *   all three are order-independent, so the keys are the CPU's whatever the schedule. */
#include "convert_common.cuh"
#include "kernels/order_keys.h"

namespace {

__global__ void gathered_lengths(const int64_t *off, const int32_t *rows, int64_t n,
                                 int64_t *lengths) {
  CSRI_GRID_STRIDE(i, n) {
    const int64_t from = rows ? rows[i] : i;
    lengths[i] = off[from + 1] - off[from];
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
    lengths[n] = 0; /* the exclusive scan then leaves nnz there */
}

/* A warp per row of B. T: the value type (char, with no values, for a pattern). */
template <typename T>
__global__ void gather_rows(const int64_t *a_off, const int32_t *a_col, const T *a_val,
                            const int32_t *rows, const int32_t *cols, int64_t n,
                            const int64_t *b_off, int32_t *b_col, T *b_val) {
  const int lane = threadIdx.x & 31;
  const int64_t warps = (int64_t)gridDim.x * blockDim.x / 32;
  for (int64_t i = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; i < n; i += warps) {
    const int64_t from = rows ? rows[i] : i, begin = a_off[from];
    const int64_t length = a_off[from + 1] - begin, at = b_off[i];
    for (int64_t t = lane; t < length; t += 32) {
      const int32_t j = a_col[begin + t];
      b_col[at + t] = cols ? cols[j] : j;
      if (a_val != nullptr)
        b_val[at + t] = a_val[begin + t];
    }
  }
}

template <typename T>
__global__ void gather_vector(const int32_t *index, const T *x, int64_t n, T *y) {
  CSRI_GRID_STRIDE(i, n) {
    y[i] = x[index[i]];
  }
}

__global__ void invert_kernel(const int32_t *p, int64_t n, int32_t *inverse) {
  CSRI_GRID_STRIDE(k, n) {
    inverse[p[k]] = (int32_t)k;
  }
}

__global__ void column_use(const int32_t *col, int64_t nnz, unsigned long long *count,
                           unsigned long long *first) {
  CSRI_GRID_STRIDE(k, nnz) {
    const int32_t j = col[k];
    if (count != nullptr)
      atomicAdd(&count[j], 1ull);
    if (first != nullptr)
      atomicMin(&first[j], (unsigned long long)k);
  }
}

__global__ void fill_u64(unsigned long long *a, int64_t n, unsigned long long value) {
  CSRI_GRID_STRIDE(i, n) {
    a[i] = value;
  }
}

/* *top = the largest count: a warp maximum, then one atomic per warp. */
__global__ void largest(const unsigned long long *count, int64_t n, unsigned long long *top) {
  unsigned long long mine = 0;
  CSRI_GRID_STRIDE(j, n) {
    mine = count[j] > mine ? count[j] : mine;
  }
  for (int d = 16; d > 0; d /= 2) {
    const unsigned long long other = __shfl_xor_sync(0xffffffffu, mine, d);
    mine = other > mine ? other : mine;
  }
  if ((threadIdx.x & 31) == 0 && mine > 0)
    atomicMax(top, mine);
}

__global__ void order_keys_kernel(csri_order which, const unsigned long long *count,
                                  const unsigned long long *first, const unsigned long long *top,
                                  int64_t nnz, int64_t cols, uint64_t *keys, int32_t *index) {
  const int64_t max_count = (int64_t)*top;
  CSRI_GRID_STRIDE(j, cols) {
    keys[j] = csri_column_order_key(which, count ? (int64_t)count[j] : 0,
                                    first ? (int64_t)first[j] : nnz, max_count, nnz, cols);
    index[j] = (int32_t)j;
  }
}

template <typename T>
csr_status launch_gather_rows(csr_context *ctx, const csr_matrix *A, const int32_t *rows,
                              const int32_t *cols, csr_matrix *B) {
  const int64_t warps_per_block = CSRI_VECTOR_THREADS / 32;
  const int blocks = csri_vector_blocks((A->rows + warps_per_block - 1) / warps_per_block);
  gather_rows<T><<<blocks, CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(
      A->row_offsets, A->col_indices, (const T *)A->values, rows, cols, A->rows, B->row_offsets,
      B->col_indices, (T *)B->values);
  return CSRI_CUDA_CHECK(ctx, "row gather kernel");
}

} // namespace

extern "C" csr_status csri_cuda_permute_rows(csr_context *ctx, const csr_matrix *A,
                                             const int32_t *rows, const int32_t *cols,
                                             csr_matrix *B) {
  CSRI_TRY(csri_cuda_check_columns(ctx, A));
  cudaStream_t stream = csri_stream(ctx);
  gathered_lengths<<<csri_vector_blocks(A->rows), CSRI_VECTOR_THREADS, 0, stream>>>(
      A->row_offsets, rows, A->rows, B->row_offsets);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "row length kernel"));
  csri_scratch mem(ctx);
  void *workspace = NULL;
  CSRI_TRY(mem.take(&workspace, 1, csri_cuda_scan_bytes(ctx, CSR_DATA_I64, A->rows + 1, 0)));
  CSRI_TRY(csri_cuda_scan(ctx, CSR_DATA_I64, CSR_SCAN_EXCLUSIVE, B->row_offsets, NULL,
                          B->row_offsets, A->rows + 1, workspace));
  if (A->value_type == CSR_F64)
    return launch_gather_rows<double>(ctx, A, rows, cols, B);
  if (A->value_type == CSR_F32)
    return launch_gather_rows<float>(ctx, A, rows, cols, B);
  return launch_gather_rows<char>(ctx, A, rows, cols, B);
}

extern "C" csr_status csri_cuda_gather(csr_context *ctx, const int32_t *index, const csr_vector *x,
                                       csr_vector *y) {
  const int blocks = csri_vector_blocks(y->n);
  if (x->value_type == CSR_F64)
    gather_vector<double><<<blocks, CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(
        index, (const double *)x->data, y->n, (double *)y->data);
  else
    gather_vector<float><<<blocks, CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(
        index, (const float *)x->data, y->n, (float *)y->data);
  return CSRI_CUDA_CHECK(ctx, "vector gather kernel");
}

extern "C" csr_status csri_cuda_invert(csr_context *ctx, const int32_t *p, int64_t n,
                                       int32_t *inverse) {
  invert_kernel<<<csri_vector_blocks(n), CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(p, n, inverse);
  return CSRI_CUDA_CHECK(ctx, "inverse permutation kernel");
}

extern "C" csr_status csri_cuda_order_keys(csr_context *ctx, const csr_matrix *A, csri_order which,
                                           uint64_t *keys, int32_t *index, int *bits) {
  CSRI_TRY(csri_cuda_check_columns(ctx, A));
  cudaStream_t stream = csri_stream(ctx);
  const int64_t cols = A->cols, nnz = A->nnz;
  csri_scratch mem(ctx);
  unsigned long long *count = NULL, *first = NULL, *top = NULL;
  CSRI_TRY(mem.take((void **)&top, 1, sizeof *top));
  CSRI_TRY(csri_cuda_memset(ctx, top, 0, sizeof *top));
  if (which == CSRI_ORDER_APPEARANCE) {
    CSRI_TRY(mem.take((void **)&first, cols, sizeof *first));
    fill_u64<<<csri_vector_blocks(cols), CSRI_VECTOR_THREADS, 0, stream>>>(first, cols,
                                                                           (unsigned long long)nnz);
  } else {
    CSRI_TRY(mem.take((void **)&count, cols, sizeof *count));
    fill_u64<<<csri_vector_blocks(cols), CSRI_VECTOR_THREADS, 0, stream>>>(count, cols, 0ull);
  }
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "column use fill kernel"));
  column_use<<<csri_vector_blocks(nnz), CSRI_VECTOR_THREADS, 0, stream>>>(A->col_indices, nnz,
                                                                          count, first);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "column use kernel"));
  if (count != NULL) {
    largest<<<csri_vector_blocks(cols), CSRI_VECTOR_THREADS, 0, stream>>>(count, cols, top);
    CSRI_TRY(CSRI_CUDA_CHECK(ctx, "largest count kernel"));
  }
  order_keys_kernel<<<csri_vector_blocks(cols), CSRI_VECTOR_THREADS, 0, stream>>>(
      which, count, first, top, nnz, cols, keys, index);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "order key kernel"));
  unsigned long long max_count = 0;
  CSRI_TRY(csri_cuda_memcpy(ctx, &max_count, top, sizeof max_count, 1));
  *bits = csri_column_order_key_bits(which, (int64_t)max_count, nnz);
  return CSR_SUCCESS;
}
