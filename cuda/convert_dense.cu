/* SPDX-License-Identifier: BSD-3-Clause */
/* A = the nonzeros of a dense D, row by row (d_ij != 0: NaN is kept, -0.0 is not); and D += A,
 * entry by entry.
 *
 * Dense to CSR is a compaction whose order is A's (row-major): D is cut into segments, each
 * segment's nonzeros are counted, an exclusive scan of the counts (libcsr's) gives where each
 * segment writes, and a second pass writes the columns and values there. A row-major D is cut
 * along its storage, every warp taking 256 consecutive elements, whatever the shape; a
 * column-major D into 256-column pieces of one row, a thread each, neighbouring threads on
 * neighbouring rows so that their reads are coalesced. The offset of row i is where its first
 * element's segment writes that element. */
#include "convert_common.cuh"

#include <type_traits>

namespace {

const int STEPS = CSRI_DENSE_STEPS, SEGMENT = 32 * STEPS; /* elements of a segment */

/* --- row-major: a warp per segment of the storage ------------------------------------------- */

/* Element e of a row-major D: row e / cols, column e % cols, kept up to date as e grows by 32. */
struct element {
  int64_t i, j;
  __device__ element(int64_t e, int64_t cols) : i(e / cols), j(e % cols) {}
  __device__ void advance(int64_t by, int64_t cols) {
    j += by;
    while (j >= cols) /* once for cols >= 32 */
      j -= cols, i++;
  }
};

/* pass 0: count[s] = the nonzeros of segment s; pass 1: write them from at[s] on, and the row
 * offsets of the rows that start in it. */
template <typename V, int PASS>
__global__ void row_major_segments(const V *D, int64_t rows, int64_t cols, int64_t ld,
                                   int64_t segments, int64_t *count, const int64_t *at,
                                   int64_t *row_offsets, int32_t *col_out, V *values_out) {
  const int lane = threadIdx.x & 31;
  const unsigned before = (1u << lane) - 1;
  const int64_t total = rows * cols;
  const int64_t warps = (int64_t)gridDim.x * blockDim.x / 32;
  for (int64_t s = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; s < segments;
       s += warps) {
    const int64_t first = s * SEGMENT;
    element at_e(first + lane, cols);
    int64_t pos = PASS ? at[s] : 0;
    for (int step = 0; step < STEPS; step++) {
      const int64_t e = first + step * 32 + lane;
      const V v = e < total ? D[at_e.i * ld + at_e.j] : (V)0;
      const unsigned kept = __ballot_sync(0xffffffffu, v != (V)0);
      if (PASS) {
        const int64_t mine = pos + __popc(kept & before);
        if (v != (V)0) {
          col_out[mine] = (int32_t)at_e.j;
          values_out[mine] = v;
        }
        if (e < total && at_e.j == 0)
          row_offsets[at_e.i] = mine;
      }
      pos += __popc(kept);
      at_e.advance(32, cols);
    }
    if (!PASS && lane == 0)
      count[s] = pos;
  }
}

/* --- column-major: a thread per (row, 256-column piece) ------------------------------------- */

template <typename V, int PASS>
__global__ void col_major_segments(const V *D, int64_t rows, int64_t cols, int64_t ld,
                                   int64_t pieces, int64_t *count, const int64_t *at,
                                   int64_t *row_offsets, int32_t *col_out, V *values_out) {
  CSRI_GRID_STRIDE(t, rows * pieces) {
    const int64_t piece = t / rows, i = t % rows, s = i * pieces + piece; /* A's order */
    const int64_t j0 = piece * SEGMENT, j1 = j0 + SEGMENT < cols ? j0 + SEGMENT : cols;
    int64_t pos = PASS ? at[s] : 0;
    if (PASS && piece == 0)
      row_offsets[i] = pos;
    for (int64_t j = j0; j < j1; j++) {
      const V v = D[i + j * ld];
      if (v != (V)0) {
        if (PASS) {
          col_out[pos] = (int32_t)j;
          values_out[pos] = v;
        }
        pos++;
      }
    }
    if (!PASS)
      count[s] = pos;
  }
}

template <typename V>
csr_status from_dense_typed(csr_context *ctx, const csr_dense *D, csr_matrix **A) {
  cudaStream_t stream = csri_stream(ctx);
  const bool row_major = D->layout == CSR_ROW_MAJOR;
  const int64_t pieces = (D->cols + SEGMENT - 1) / SEGMENT;
  const int64_t segments =
      row_major ? (D->rows * D->cols + SEGMENT - 1) / SEGMENT : D->rows * pieces;
  /* A warp per row-major segment, a thread per column-major one. */
  const int blocks = csri_vector_blocks(row_major ? segments * 32 : segments);
  const V *data = (const V *)D->data;
  csri_scratch mem(ctx);
  int64_t *count = NULL, nnz = 0;
  void *workspace = NULL;
  CSRI_TRY(mem.take((void **)&count, segments + 1, sizeof *count));
  CSRI_TRY(mem.take(&workspace, 1, csri_cuda_scan_bytes(ctx, CSR_DATA_I64, segments + 1, 0)));
  CSRI_TRY(csri_cuda_memcpy(ctx, count + segments, &nnz, sizeof nnz, 0)); /* the total's slot */
  if (row_major)
    row_major_segments<V, 0><<<blocks, CSRI_VECTOR_THREADS, 0, stream>>>(
        data, D->rows, D->cols, D->ld, segments, count, NULL, NULL, NULL, NULL);
  else
    col_major_segments<V, 0><<<blocks, CSRI_VECTOR_THREADS, 0, stream>>>(
        data, D->rows, D->cols, D->ld, pieces, count, NULL, NULL, NULL, NULL);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "dense count kernel"));
  CSRI_TRY(csri_cuda_scan(ctx, CSR_DATA_I64, CSR_SCAN_EXCLUSIVE, count, NULL, count, segments + 1,
                          workspace));
  CSRI_TRY(csri_cuda_memcpy(ctx, &nnz, count + segments, sizeof nnz, 1));
  csr_matrix *out = NULL;
  /* the kernel writes each row's offset, the copy below the last */
  CSRI_TRY(csri_matrix_create_unset(ctx, &out, D->rows, D->cols, nnz, D->value_type, CSR_DEVICE));
  if (row_major)
    row_major_segments<V, 1><<<blocks, CSRI_VECTOR_THREADS, 0, stream>>>(
        data, D->rows, D->cols, D->ld, segments, NULL, count, out->row_offsets, out->col_indices,
        (V *)out->values);
  else
    col_major_segments<V, 1><<<blocks, CSRI_VECTOR_THREADS, 0, stream>>>(
        data, D->rows, D->cols, D->ld, pieces, NULL, count, out->row_offsets, out->col_indices,
        (V *)out->values);
  csr_status s = CSRI_CUDA_CHECK(ctx, "dense to CSR kernel");
  if (s >= 0)
    s = csri_cuda_memcpy(ctx, out->row_offsets + D->rows, &nnz, sizeof nnz, 0);
  if (s < 0) {
    csri_matrix_free(&out);
    return s;
  }
  out->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  *A = out;
  return CSR_SUCCESS;
}

/* --- CSR to dense ---------------------------------------------------------------------------- */

/* D's element (i, j). */
__device__ __forceinline__ int64_t dense_at(int64_t i, int64_t j, int64_t ld, bool row_major) {
  return row_major ? i * ld + j : i + j * ld;
}
/* An entry of A as D's type: its value, or 1 for a pattern (V void). */
template <typename V, typename D> __device__ __forceinline__ D entry_value(const V *a, int64_t k) {
  if constexpr (std::is_void<V>::value)
    return (D)1;
  else
    return (D)a[k];
}

/* A without repeats: every D element gets at most one entry, so the entries are stored as they
 * come (D starts zeroed), evenly spread whatever the row lengths. */
template <typename V, typename DT>
__global__ void store_entries(const int64_t *row_offsets, const int32_t *col, const V *a,
                              int64_t rows, int64_t nnz, DT *D, int64_t ld, bool row_major) {
  auto visit = [=](int64_t k, int64_t i) {
    D[dense_at(i, col[k], ld, row_major)] = entry_value<V, DT>(a, k);
  };
  csri_for_each_entry(row_offsets, rows, nnz, visit);
}

/* A that may repeat an (i, j): one thread adds a row's entries in stored order, as the host does
 * (the same bits). */
template <typename V, typename DT>
__global__ void add_rows(const int64_t *row_offsets, const int32_t *col, const V *a, int64_t rows,
                         DT *D, int64_t ld, bool row_major) {
  CSRI_GRID_STRIDE(i, rows) {
    for (int64_t k = row_offsets[i]; k < row_offsets[i + 1]; k++)
      D[dense_at(i, col[k], ld, row_major)] += entry_value<V, DT>(a, k);
  }
}

template <typename V, typename DT>
csr_status to_dense_typed(csr_context *ctx, const csr_matrix *A, csr_dense *D) {
  cudaStream_t stream = csri_stream(ctx);
  const bool row_major = D->layout == CSR_ROW_MAJOR;
  if (A->flags & CSR_FLAG_NO_DUPLICATES)
    store_entries<V, DT><<<csri_entry_blocks(A->nnz), CSRI_VECTOR_THREADS, 0, stream>>>(
        A->row_offsets, A->col_indices, (const V *)A->values, A->rows, A->nnz, (DT *)D->data, D->ld,
        row_major);
  else
    add_rows<V, DT><<<csri_vector_blocks(A->rows), CSRI_VECTOR_THREADS, 0, stream>>>(
        A->row_offsets, A->col_indices, (const V *)A->values, A->rows, (DT *)D->data, D->ld,
        row_major);
  return CSRI_CUDA_CHECK(ctx, "CSR to dense kernel");
}

} // namespace

extern "C" csr_status csri_cuda_from_dense(csr_context *ctx, const csr_dense *D, csr_matrix **A) {
  return D->value_type == CSR_F32 ? from_dense_typed<float>(ctx, D, A)
                                  : from_dense_typed<double>(ctx, D, A);
}

extern "C" csr_status csri_cuda_to_dense(csr_context *ctx, const csr_matrix *A, csr_dense *D) {
  CSRI_TRY(csri_cuda_check_columns(ctx, A));
  if (A->value_type == CSR_F32)
    return to_dense_typed<float, float>(ctx, A, D);
  if (A->value_type == CSR_F64)
    return to_dense_typed<double, double>(ctx, A, D);
  return to_dense_typed<void, double>(ctx, A, D);
}
