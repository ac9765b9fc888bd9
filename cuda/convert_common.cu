/* Row offsets from ordered entries' rows: offsets_i+1 = sum_{r <= i} |{k : row_k = r}| (a
 * histogram, then an inclusive scan; or, rows sorted, where each row's run starts); and the check
 * of A's columns, j_k in [0, cols). */
#include "convert_common.cuh"

#include <string.h>

namespace {

/* The histogram's bins for row lengths: integer, one per row, in windows of at most
 * CSRI_MAX_BINS rows (the first window here). */
csri_bins row_bins(int64_t rows) {
  csri_bins bins;
  memset(&bins, 0, sizeof bins);
  bins.rule = CSR_BINS_INTEGER;
  bins.bins = (int)(rows < CSRI_MAX_BINS ? rows : CSRI_MAX_BINS);
  return bins;
}

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

size_t csri_cuda_offsets_from_rows_bytes(csr_context *ctx, int64_t rows, int64_t nnz) {
  csri_bins bins = row_bins(rows);
  size_t bytes = csri_cuda_histogram_bytes(ctx, &bins, CSR_DATA_U64, nnz);
  size_t scan_bytes = csri_cuda_scan_bytes(ctx, CSR_DATA_I64, rows, 0);
  return bytes > scan_bytes ? bytes : scan_bytes;
}

csr_status csri_cuda_offsets_from_rows(csr_context *ctx, const int32_t *entry_rows, csr_matrix *A,
                                       void *workspace) {
  csri_bins bins = row_bins(A->rows);
  const int window = bins.bins;
  for (int64_t first = 0; first < A->rows; first += window) {
    bins.offset = first;
    bins.bins = (int)(A->rows - first < window ? A->rows - first : window);
    CSRI_TRY(csri_cuda_histogram(ctx, CSR_DATA_I32, entry_rows, A->nnz, &bins, CSR_DATA_U64,
                                 A->row_offsets + 1 + first, workspace));
  }
  return csri_cuda_scan(ctx, CSR_DATA_I64, CSR_SCAN_INCLUSIVE, A->row_offsets + 1, NULL,
                        A->row_offsets + 1, A->rows, workspace);
}

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
