/* SPDX-License-Identifier: BSD-3-Clause */
/* Full = A + op(A)^T without doubling the diagonal (op: negation for a skew-symmetric A): entry
 * k of A at (i, j) gives item 2k at (i, j) and, off the diagonal, its mirror 2k + 1 at (j, i)
 * holding op(a_k); Full's rows hold their items ordered by (column, item), as on the host.
 *
 *  1. One pass over A's entries (knowing each one's row) checks the columns and, for a skew A,
 *     that the diagonal is zero (the first bad entry is reported), counts the diagonal and marks
 *     which entries have a mirror.
 *  2. An exclusive scan of the marks places every item: entry k's item at k + (mirrors before k),
 *     its mirror right after. Items are written in item order, with (row << column bits | column)
 *     keys.
 *  3. libcsr's stable radix sort of the keys, items carried along, orders them by (row, column,
 *     item); the columns and values are then read off the sorted items, and the row offsets are
 *     where each row's run starts among the sorted rows. */
#include "convert_common.cuh"

#include <type_traits>

namespace {

/* What the check finds: the first bad entry (~0 when none), the diagonal, any repeat in Full. */
struct expand_counts {
  unsigned long long first_bad, diagonal;
  unsigned repeats;
};

template <typename V>
__global__ void check_entries(const int64_t *row_offsets, const int32_t *col, const V *values,
                              int64_t rows, int64_t nnz, int64_t cols, bool skew,
                              int64_t *has_mirror, expand_counts *found) {
  unsigned long long first = ~0ull, diagonal = 0;
  auto visit = [&](int64_t k, int64_t i) {
    const int32_t j = col[k];
    bool bad = j < 0 || j >= cols;
    if (j == i) {
      diagonal++;
      if constexpr (!std::is_void<V>::value)
        bad |= skew && values[k] != (V)0; /* a_ii = -a_ii forces a zero */
    }
    if (bad && first == ~0ull)
      first = (unsigned long long)k;
    has_mirror[k] = j != i;
  };
  csri_for_each_entry(row_offsets, rows, nnz, visit);
  csri_grid_first(first, &found->first_bad);
  diagonal = csri_warp_inclusive<csri_sum_op<unsigned long long>>(diagonal);
  if ((threadIdx.x & 31) == 31 && diagonal > 0)
    atomicAdd(&found->diagonal, diagonal);
}

template <typename K, typename S>
__global__ void make_items(const int64_t *row_offsets, const int32_t *col, int64_t rows,
                           int64_t nnz, const int64_t *mirrors_before, int col_bits, K *keys,
                           S *items) {
  auto visit = [=](int64_t k, int64_t i) {
    const int64_t j = col[k], at = k + mirrors_before[k];
    keys[at] = (K)i << col_bits | (K)j;
    items[at] = (S)(2 * k);
    if (j != i) {
      keys[at + 1] = (K)j << col_bits | (K)i;
      items[at + 1] = (S)(2 * k + 1);
    }
  };
  csri_for_each_entry(row_offsets, rows, nnz, visit);
}

/* Full's columns, values and (for the histogram) rows from the sorted items; V void: pattern. */
template <typename K, typename S, typename V>
__global__ void read_items(const K *keys, const S *items, int64_t m, int col_bits, bool skew,
                           const V *in, int32_t *rows_out, int32_t *cols_out, V *values_out,
                           unsigned *repeats) {
  bool same = false;
  CSRI_GRID_STRIDE(p, m) {
    const K key = keys[p];
    rows_out[p] = (int32_t)(key >> col_bits);
    cols_out[p] = (int32_t)(key & (((K)1 << col_bits) - 1));
    same |= p > 0 && keys[p - 1] == key;
    if constexpr (!std::is_void<V>::value) {
      const S item = items[p];
      const V v = in[item >> 1];
      values_out[p] = skew && (item & 1) ? -v : v;
    }
  }
  if (__any_sync(0xffffffffu, same) && (threadIdx.x & 31) == 0)
    atomicOr(repeats, 1u);
}

template <typename K, typename S, typename V>
csr_status expand_with(csr_context *ctx, const csr_matrix *A, bool skew, const int64_t *mirrors,
                       int64_t diagonal, expand_counts *counts, csri_scratch &mem,
                       csr_matrix **full) {
  cudaStream_t stream = csri_stream(ctx);
  const int64_t n = A->nnz, m = 2 * n - diagonal;
  const int col_bits = csri_index_bits(A->cols), key_bits = 2 * col_bits;
  K *keys = NULL;
  S *items = NULL;
  int32_t *rows = NULL;
  void *workspace = NULL;
  const size_t bytes = csri_cuda_radix_sort_bytes(ctx, sizeof(K), sizeof(S), m, 0, key_bits);
  CSRI_TRY(mem.take((void **)&keys, m, sizeof *keys));
  CSRI_TRY(mem.take((void **)&items, m, sizeof *items));
  CSRI_TRY(mem.take((void **)&rows, m, sizeof *rows));
  CSRI_TRY(mem.take(&workspace, 1, bytes));
  make_items<<<csri_entry_blocks(n), CSRI_VECTOR_THREADS, 0, stream>>>(
      A->row_offsets, A->col_indices, A->rows, n, mirrors, col_bits, keys, items);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "symmetric expansion item kernel"));
  if (key_bits > 0 && m > 1) /* a 1 x 1 matrix: one key */
    CSRI_TRY(
        csri_cuda_radix_sort(ctx, sizeof(K), keys, sizeof(S), items, m, 0, key_bits, workspace));
  csr_matrix *out = NULL;
  /* csri_cuda_offsets_from_sorted writes every row offset */
  CSRI_TRY(csri_matrix_create_unset(ctx, &out, A->rows, A->cols, m, A->value_type, CSR_DEVICE));
  read_items<K, S, V><<<csri_vector_blocks(m), CSRI_VECTOR_THREADS, 0, stream>>>(
      keys, items, m, col_bits, skew, (const V *)A->values, rows, out->col_indices,
      (V *)out->values, &counts->repeats);
  csr_status s = CSRI_CUDA_CHECK(ctx, "symmetric expansion read kernel");
  if (s >= 0)
    s = csri_cuda_offsets_from_sorted(ctx, rows, out);
  unsigned repeats = 0;
  if (s >= 0)
    s = csri_cuda_memcpy(ctx, &repeats, &counts->repeats, sizeof repeats, 1);
  if (s < 0) {
    csri_matrix_free(&out);
    return s;
  }
  out->flags = CSR_FLAG_SORTED | (repeats ? 0 : CSR_FLAG_NO_DUPLICATES);
  *full = out;
  return CSR_SUCCESS;
}

/* Keys of 32 bits when rows and columns fit in them together, items of 32 below 2^32 items. */
template <typename V>
csr_status expand_typed(csr_context *ctx, const csr_matrix *A, bool skew, const int64_t *mirrors,
                        int64_t diagonal, expand_counts *counts, csri_scratch &mem,
                        csr_matrix **full) {
  const bool narrow_keys = 2 * csri_index_bits(A->cols) <= 32;
  const bool narrow_items = 2 * A->nnz <= (int64_t)UINT32_MAX + 1;
  if (narrow_keys && narrow_items)
    return expand_with<uint32_t, uint32_t, V>(ctx, A, skew, mirrors, diagonal, counts, mem, full);
  if (narrow_keys)
    return expand_with<uint32_t, uint64_t, V>(ctx, A, skew, mirrors, diagonal, counts, mem, full);
  if (narrow_items)
    return expand_with<uint64_t, uint32_t, V>(ctx, A, skew, mirrors, diagonal, counts, mem, full);
  return expand_with<uint64_t, uint64_t, V>(ctx, A, skew, mirrors, diagonal, counts, mem, full);
}

template <typename V>
void launch_check(csr_context *ctx, const csr_matrix *A, bool skew, int64_t *has_mirror,
                  expand_counts *counts) {
  check_entries<V><<<csri_entry_blocks(A->nnz), CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(
      A->row_offsets, A->col_indices, (const V *)A->values, A->rows, A->nnz, A->cols, skew,
      has_mirror, counts);
}

} // namespace

extern "C" csr_status csri_cuda_symmetric_expand(csr_context *ctx, const csr_matrix *A,
                                                 csr_symmetry symmetry, csr_matrix **full) {
  const bool skew = symmetry == CSR_SKEW_SYMMETRIC;
  const int64_t n = A->nnz;
  csri_scratch mem(ctx);
  expand_counts *counts = NULL, found = {~0ull, 0, 0};
  int64_t *mirrors = NULL;
  void *workspace = NULL;
  CSRI_TRY(mem.take((void **)&counts, 1, sizeof *counts));
  CSRI_TRY(mem.take((void **)&mirrors, n, sizeof *mirrors));
  CSRI_TRY(csri_cuda_memcpy(ctx, counts, &found, sizeof found, 0));
  if (A->value_type == CSR_F64)
    launch_check<double>(ctx, A, skew, mirrors, counts);
  else if (A->value_type == CSR_F32)
    launch_check<float>(ctx, A, skew, mirrors, counts);
  else
    launch_check<void>(ctx, A, skew, mirrors, counts);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "symmetric expansion check kernel"));
  CSRI_TRY(csri_cuda_memcpy(ctx, &found, counts, sizeof found, 1));
  if (found.first_bad != ~0ull) {
    const int64_t k = (int64_t)found.first_bad;
    int32_t col = 0;
    CSRI_TRY(csri_cuda_memcpy(ctx, &col, A->col_indices + k, sizeof col, 1));
    if (col < 0 || col >= A->cols)
      return csri_column_error_at(ctx, A, k, col);
    return csri_skew_diagonal_error(ctx, k, col);
  }
  CSRI_TRY(mem.take(&workspace, 1, csri_cuda_scan_bytes(ctx, CSR_DATA_I64, n, 0)));
  CSRI_TRY(
      csri_cuda_scan(ctx, CSR_DATA_I64, CSR_SCAN_EXCLUSIVE, mirrors, NULL, mirrors, n, workspace));
  const int64_t diagonal = (int64_t)found.diagonal;
  if (A->value_type == CSR_F64)
    return expand_typed<double>(ctx, A, skew, mirrors, diagonal, counts, mem, full);
  if (A->value_type == CSR_F32)
    return expand_typed<float>(ctx, A, skew, mirrors, diagonal, counts, mem, full);
  return expand_typed<void>(ctx, A, false, mirrors, diagonal, counts, mem, full);
}
