/* SPDX-License-Identifier: BSD-3-Clause */
/* Row offsets from sorted entries' rows: offsets_i = |{k : row_k < i}|, read off where each row's
 * run starts; and the check of A's columns, j_k in [0, cols). */
#include "convert_common.cuh"

namespace {

/* The first k with col[k] outside [0, cols) into *first (one atomic per warp). */
__global__ void first_bad_column(const int32_t *col, int64_t nnz, int64_t cols,
                                 unsigned long long *first) {
  unsigned long long mine = ~0ull; /* a thread meets its entries in increasing order */
  CSRI_GRID_STRIDE(k, nnz) {
    const int32_t c = col[k];
    if ((c < 0 || c >= cols) && mine == ~0ull)
      mine = (unsigned long long)k;
  }
  csri_grid_first(mine, first);
}

/* Thread p writes the offsets of the rows that start at p: those after row_{p-1} up to row_p
 * (p = n: up to rows). Every offset is written once, by the entry it points at. */
__global__ void run_starts(const int32_t *sorted_rows, int64_t n, int64_t rows, int64_t *off) {
  CSRI_GRID_STRIDE(p, n + 1) {
    const int64_t before = p == 0 ? -1 : (int64_t)sorted_rows[p - 1];
    const int64_t here = p == n ? rows : (int64_t)sorted_rows[p];
    for (int64_t j = before + 1; j <= here; j++)
      off[j] = p;
  }
}

} // namespace

csr_status csri_cuda_offsets_from_sorted(csr_context *ctx, const int32_t *sorted_rows,
                                         csr_matrix *A) {
  run_starts<<<csri_vector_blocks(A->nnz + 1), CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(
      sorted_rows, A->nnz, A->rows, A->row_offsets);
  return CSRI_CUDA_CHECK(ctx, "row offsets kernel");
}

csr_status csri_cuda_check_columns(csr_context *ctx, const csr_matrix *A) {
  csri_scratch mem(ctx);
  unsigned long long *first = NULL, found = ~0ull;
  CSRI_TRY(mem.take((void **)&first, 1, sizeof *first));
  CSRI_TRY(csri_cuda_memcpy(ctx, first, &found, sizeof found, 0));
  first_bad_column<<<csri_vector_blocks(A->nnz), CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(
      A->col_indices, A->nnz, A->cols, first);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "column check kernel"));
  CSRI_TRY(csri_cuda_memcpy(ctx, &found, first, sizeof found, 1));
  if (found == ~0ull)
    return CSR_SUCCESS;
  int32_t col = 0;
  CSRI_TRY(csri_cuda_memcpy(ctx, &col, A->col_indices + found, sizeof col, 1));
  return csri_column_error_at(ctx, A, (int64_t)found, col);
}
