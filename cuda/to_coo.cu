/* SPDX-License-Identifier: BSD-3-Clause */
/* T = A as triples in stored order: (i, j_k, a_k) for every entry k of row i. Each entry finds its
 * row among the offsets its block stages (even work whatever the row lengths); columns and values
 * are copied. */
#include "convert_common.cuh"

namespace {

__global__ void entry_rows(const int64_t *row_offsets, int64_t rows, int64_t nnz, int32_t *out) {
  auto visit = [out](int64_t k, int64_t i) { out[k] = (int32_t)i; };
  csri_for_each_entry(row_offsets, rows, nnz, visit);
}

} // namespace

extern "C" csr_status csri_cuda_to_coo(csr_context *ctx, const csr_matrix *A, csr_coo *T) {
  entry_rows<<<csri_entry_blocks(A->nnz), CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(
      A->row_offsets, A->rows, A->nnz, T->row_indices);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "CSR to COO row kernel"));
  CSRI_TRY(
      csri_cuda_memcpy(ctx, T->col_indices, A->col_indices, (size_t)A->nnz * sizeof(int32_t), 2));
  if (A->value_type == CSR_PATTERN)
    return CSR_SUCCESS;
  return csri_cuda_memcpy(ctx, T->values, A->values,
                          (size_t)A->nnz * csri_value_size(A->value_type), 2);
}
