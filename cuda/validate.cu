/* SPDX-License-Identifier: BSD-3-Clause */
/* The CSR invariants on the device: offsets_0 = 0, offsets_{i+1} >= offsets_i, offsets_rows =
 * nnz; every column in [0, cols); columns ascending in each row when A is flagged sorted (strictly
 * when also flagged without duplicates); no column twice in a row of an unsorted A flagged
 * without duplicates.
 *
 * Each check is one pass that keeps the first violation (a grid-wide minimum): the rows' pass
 * over the offsets, then, the offsets being sound, a pass over the entries that knows each
 * one's row. Repeats in unsorted rows are found by sorting (row, column) keys with the entries'
 * positions (libcsr's stable radix sort): a key equal to the one before it is a repeat, and the
 * smallest such position is the first the host's row-by-row scan meets. The host turns the
 * findings into the message (src/core/validate.c). */
#include "convert_common.cuh"

namespace {

/* First violations, as positions (~0: none); the first and last offset and the row of the entry
 * found, so that one copy brings back what a pass found. */
struct violations {
  unsigned long long decreasing_row, entry;
  long long first_offset, last_offset, row_of_entry;
};

__global__ void check_offsets(const int64_t *off, int64_t rows, violations *found) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    found->first_offset = off[0];
    found->last_offset = off[rows];
  }
  unsigned long long mine = ~0ull;
  CSRI_GRID_STRIDE(i, rows) {
    if (off[i + 1] < off[i] && mine == ~0ull)
      mine = (unsigned long long)i;
  }
  csri_grid_first(mine, &found->decreasing_row);
}

__global__ void check_columns(const int64_t *off, const int32_t *col, int64_t rows, int64_t nnz,
                              int64_t cols, bool sorted, bool strict, violations *found) {
  unsigned long long mine = ~0ull;
  auto visit = [&](int64_t k, int64_t i) {
    const int32_t c = col[k];
    bool bad = c < 0 || c >= cols;
    if (sorted && k > off[i]) {
      const int32_t prev = col[k - 1];
      bad |= c < prev || (strict && c == prev);
    }
    if (bad && mine == ~0ull)
      mine = (unsigned long long)k;
  };
  csri_for_each_entry(off, rows, nnz, visit);
  csri_grid_first(mine, &found->entry);
}

__global__ void make_keys(const int64_t *off, const int32_t *col, int64_t rows, int64_t nnz,
                          int col_bits, uint64_t *keys, uint64_t *positions) {
  auto visit = [=](int64_t k, int64_t i) {
    keys[k] = (uint64_t)i << col_bits | (uint64_t)col[k];
    positions[k] = (uint64_t)k;
  };
  csri_for_each_entry(off, rows, nnz, visit);
}

/* Sorted stably, a key equal to its predecessor is a later occurrence: its position is a repeat. */
__global__ void first_repeat(const uint64_t *keys, const uint64_t *positions, int64_t n,
                             violations *found) {
  unsigned long long mine = ~0ull;
  CSRI_GRID_STRIDE(p, n) {
    if (p > 0 && keys[p] == keys[p - 1] && positions[p] < mine)
      mine = positions[p];
  }
  csri_grid_first(mine, &found->entry);
}

__global__ void row_of_entry(const int64_t *off, int64_t rows, int64_t k, violations *found) {
  found->row_of_entry = csri_row_of(off, 0, rows - 1, k);
}

csr_status find_repeats(csr_context *ctx, const csr_matrix *A, violations *found) {
  const int64_t n = A->nnz;
  const int col_bits = csri_index_bits(A->cols), key_bits = csri_index_bits(A->rows) + col_bits;
  csri_scratch mem(ctx);
  uint64_t *keys = NULL, *positions = NULL;
  void *workspace = NULL;
  CSRI_TRY(mem.take((void **)&keys, n, sizeof *keys));
  CSRI_TRY(mem.take((void **)&positions, n, sizeof *positions));
  CSRI_TRY(mem.take(&workspace, 1, csri_cuda_radix_sort_bytes(ctx, 8, 8, n, 0, key_bits)));
  make_keys<<<csri_entry_blocks(n), CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(
      A->row_offsets, A->col_indices, A->rows, n, col_bits, keys, positions);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "validation key kernel"));
  if (key_bits > 0 && n > 1)
    CSRI_TRY(csri_cuda_radix_sort(ctx, 8, keys, 8, positions, n, 0, key_bits, workspace));
  first_repeat<<<csri_vector_blocks(n), CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(keys, positions,
                                                                                    n, found);
  return CSRI_CUDA_CHECK(ctx, "validation repeat kernel");
}

/* The row, column and preceding column of entry k into f. */
csr_status describe_entry(csr_context *ctx, const csr_matrix *A, int64_t k, violations *found,
                          csri_csr_findings *f) {
  row_of_entry<<<1, 1, 0, csri_stream(ctx)>>>(A->row_offsets, A->rows, k, found);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "validation row kernel"));
  long long row = -1;
  CSRI_TRY(csri_cuda_memcpy(ctx, &row, &found->row_of_entry, sizeof row, 1));
  int64_t row_start = 0;
  CSRI_TRY(csri_cuda_memcpy(ctx, &row_start, A->row_offsets + row, sizeof row_start, 1));
  f->entry = k;
  f->entry_row = row;
  CSRI_TRY(csri_cuda_memcpy(ctx, &f->column, A->col_indices + k, sizeof f->column, 1));
  if (k > row_start)
    CSRI_TRY(csri_cuda_memcpy(ctx, &f->previous_column, A->col_indices + k - 1,
                              sizeof f->previous_column, 1));
  return CSR_SUCCESS;
}

} // namespace

extern "C" csr_status csri_cuda_check_csr(csr_context *ctx, const csr_matrix *A, int entries,
                                          csri_csr_findings *f) {
  cudaStream_t stream = csri_stream(ctx);
  csri_scratch mem(ctx);
  violations *found = NULL, none = {~0ull, ~0ull, 0, 0, -1};
  CSRI_TRY(mem.take((void **)&found, 1, sizeof *found));
  CSRI_TRY(csri_cuda_memcpy(ctx, found, &none, sizeof none, 0));
  check_offsets<<<csri_vector_blocks(A->rows), CSRI_VECTOR_THREADS, 0, stream>>>(A->row_offsets,
                                                                                 A->rows, found);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "offset check kernel"));
  violations v = none;
  CSRI_TRY(csri_cuda_memcpy(ctx, &v, found, sizeof v, 1));
  f->first_offset = v.first_offset;
  f->last_offset = v.last_offset;
  if (v.decreasing_row != ~0ull) {
    f->decreasing_row = (int64_t)v.decreasing_row;
    return csri_cuda_memcpy(ctx, f->decreasing_offsets, A->row_offsets + f->decreasing_row,
                            2 * sizeof(int64_t), 1);
  }
  if (!entries || f->first_offset != 0 || f->last_offset != A->nnz || A->nnz == 0)
    return CSR_SUCCESS;
  const bool sorted = (A->flags & CSR_FLAG_SORTED) != 0;
  const bool strict = sorted && (A->flags & CSR_FLAG_NO_DUPLICATES);
  check_columns<<<csri_entry_blocks(A->nnz), CSRI_VECTOR_THREADS, 0, stream>>>(
      A->row_offsets, A->col_indices, A->rows, A->nnz, A->cols, sorted, strict, found);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "entry check kernel"));
  CSRI_TRY(csri_cuda_memcpy(ctx, &v, found, sizeof v, 1));
  if (v.entry != ~0ull) {
    CSRI_TRY(describe_entry(ctx, A, (int64_t)v.entry, found, f));
    f->why = f->column < 0 || f->column >= A->cols ? CSRI_ENTRY_OUTSIDE : CSRI_ENTRY_OUT_OF_ORDER;
    return CSR_SUCCESS;
  }
  if (sorted || !(A->flags & CSR_FLAG_NO_DUPLICATES))
    return CSR_SUCCESS;
  CSRI_TRY(find_repeats(ctx, A, found));
  CSRI_TRY(csri_cuda_memcpy(ctx, &v, found, sizeof v, 1));
  if (v.entry != ~0ull) {
    CSRI_TRY(describe_entry(ctx, A, (int64_t)v.entry, found, f));
    f->why = CSRI_ENTRY_REPEATED;
  }
  return CSR_SUCCESS;
}
