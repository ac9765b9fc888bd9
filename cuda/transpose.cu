/* SPDX-License-Identifier: BSD-3-Clause */
/* AT = A^T: entry k of A at (i, j) is entry (j, i) of AT; AT's rows hold their columns in
 * ascending order and repeated (j, i) in A's stored order.
 *
 * A stable LSD radix sort (libcsr's) of the entries' columns, over only the bits a column needs,
 * carries what AT needs of each entry as its payload. Entries enter the sort in stored order,
 * which is row order, so stability leaves each AT row ascending by column and repeats in A's
 * order: exactly the host's counting sort. The payload is the row alone for a pattern, the row and
 * the float's bits for f32, the row and the position k for f64 (its value is gathered after the
 * sort), k alone past 2^32 entries (the row is then searched in the offsets). AT's offsets are
 * where each column's run starts among the sorted columns. */
#include "convert_common.cuh"

#include <string.h>

namespace {

/* Payloads: what an entry carries through the sort, and how AT's column and value come back. */
struct pattern_payload {
  typedef uint32_t type;
  __device__ static type pack(int64_t, int64_t i, const void *) { return (type)i; }
  __device__ static void unpack(type p, int64_t q, const void *, const int64_t *, int64_t,
                                int32_t *cols, void *) {
    cols[q] = (int32_t)p;
  }
};
struct f32_payload {
  typedef uint64_t type;
  __device__ static type pack(int64_t k, int64_t i, const void *values) {
    return (uint64_t)i << 32 | __float_as_uint(((const float *)values)[k]);
  }
  __device__ static void unpack(type p, int64_t q, const void *, const int64_t *, int64_t,
                                int32_t *cols, void *values) {
    cols[q] = (int32_t)(p >> 32);
    ((float *)values)[q] = __uint_as_float((uint32_t)p);
  }
};
struct f64_payload {
  typedef uint64_t type;
  __device__ static type pack(int64_t k, int64_t i, const void *) {
    return (uint64_t)i << 32 | (uint64_t)k;
  }
  __device__ static void unpack(type p, int64_t q, const void *in, const int64_t *, int64_t,
                                int32_t *cols, void *values) {
    cols[q] = (int32_t)(p >> 32);
    ((double *)values)[q] = ((const double *)in)[p & 0xffffffffu];
  }
};
/* Past 2^32 entries the position takes the whole word, and the row is searched in the offsets. */
struct f64_wide_payload {
  typedef uint64_t type;
  __device__ static type pack(int64_t k, int64_t, const void *) { return (type)k; }
  __device__ static void unpack(type p, int64_t q, const void *in, const int64_t *row_offsets,
                                int64_t rows, int32_t *cols, void *values) {
    const int64_t k = (int64_t)p;
    cols[q] = (int32_t)csri_row_of(row_offsets, 0, rows - 1, k);
    ((double *)values)[q] = ((const double *)in)[k];
  }
};

template <typename P>
__global__ void make_pairs(const int64_t *row_offsets, const int32_t *col, const void *values,
                           int64_t rows, int64_t nnz, uint32_t *keys, typename P::type *payload) {
  auto visit = [=](int64_t k, int64_t i) {
    keys[k] = (uint32_t)col[k];
    payload[k] = P::pack(k, i, values);
  };
  csri_for_each_entry(row_offsets, rows, nnz, visit);
}

template <typename P>
__global__ void unpack_pairs(const typename P::type *payload, int64_t nnz, const void *in,
                             const int64_t *row_offsets, int64_t rows, int32_t *cols,
                             void *values) {
  CSRI_GRID_STRIDE(q, nnz) {
    P::unpack(payload[q], q, in, row_offsets, rows, cols, values);
  }
}

template <typename P>
csr_status transpose_with(csr_context *ctx, const csr_matrix *A, csr_matrix *AT) {
  typedef typename P::type payload_type;
  const int64_t n = A->nnz;
  cudaStream_t stream = csri_stream(ctx);
  csri_scratch mem(ctx);
  uint32_t *keys = NULL;
  payload_type *payload = NULL;
  void *workspace = NULL;
  const int bits = csri_index_bits(A->cols), end_bit = bits < 32 ? bits : 32;
  const size_t bytes = csri_cuda_radix_sort_bytes(ctx, 4, sizeof(payload_type), n, 0, end_bit);
  CSRI_TRY(mem.take((void **)&keys, n, sizeof *keys));
  CSRI_TRY(mem.take((void **)&payload, n, sizeof *payload));
  CSRI_TRY(mem.take(&workspace, 1, bytes));
  make_pairs<P><<<csri_entry_blocks(n), CSRI_VECTOR_THREADS, 0, stream>>>(
      A->row_offsets, A->col_indices, A->values, A->rows, n, keys, payload);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "transpose pair kernel"));
  if (bits > 0 && n > 1) /* one column, or one entry: already in order */
    CSRI_TRY(csri_cuda_radix_sort(ctx, 4, keys, sizeof(payload_type), payload, n, 0, end_bit,
                                  workspace));
  unpack_pairs<P><<<csri_vector_blocks(n), CSRI_VECTOR_THREADS, 0, stream>>>(
      payload, n, A->values, A->row_offsets, A->rows, AT->col_indices, AT->values);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "transpose unpack kernel"));
  return csri_cuda_offsets_from_sorted(ctx, (const int32_t *)keys, AT); /* columns < 2^31 */
}

} // namespace

extern "C" csr_status csri_cuda_transpose(csr_context *ctx, const csr_matrix *A, csr_matrix *AT) {
  CSRI_TRY(csri_cuda_check_columns(ctx, A));
  if (A->value_type == CSR_PATTERN)
    return transpose_with<pattern_payload>(ctx, A, AT);
  if (A->value_type == CSR_F32)
    return transpose_with<f32_payload>(ctx, A, AT);
  if (A->nnz <= (int64_t)UINT32_MAX + 1)
    return transpose_with<f64_payload>(ctx, A, AT);
  return transpose_with<f64_wide_payload>(ctx, A, AT);
}
