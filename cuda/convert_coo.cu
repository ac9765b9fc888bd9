/* A = T as CSR on the device: a_ij = the sum, in input order, of the triples (i, j, v) of T.
 *
 *  1. One pass checks every triple against the shape (the first bad one is reported) and sees
 *     whether the triples already come in (row, column) order and whether any repeat.
 *  2. Triples out of order are ordered by libcsr's LSD radix sort of (row << column bits | column)
 *     keys over only the bits that rows and columns need, with each triple's input position as the
 *     value; the sort is stable, so equal keys keep their input order. Ordered input skips it.
 *  3. Each run of equal (row, column) is summed by the thread of its first triple, left to right
 *     in input order and in the value type's own arithmetic, as the CPU converters do (the same
 *     bits); the run is kept unless CSR_CONVERT_DROP_ZEROS drops a zero sum.
 *  4. The kept runs are compacted (libcsr's compact) into the columns and values of A, and into
 *     their rows, whose histogram (libcsr's histogram, one bin per row) gives the row lengths and
 *     an inclusive scan (libcsr's scan) the row offsets.
 * Ordered, repeat-free input without zeros to drop is copied as it is: the check, two copies, the
 * histogram and the scan. */
#include "convert_common.cuh"

#include <string.h>
#include <type_traits>

namespace {

/* What the device passes find: the checking pass the first three, the runs pass the last. */
struct coo_counts {
  unsigned long long first_bad; /* the first triple outside the matrix; n when none */
  unsigned out_of_order;        /* some triple precedes the one before it */
  unsigned repeats;             /* some triple has the (row, column) of the one before it */
  unsigned long long kept;      /* runs kept */
};

/* Each thread gathers its own findings over its triples, then each warp makes one atomic per
 * finding: one counter hit by every warp serialises them (a shuffled input finds triples out of
 * order in every warp). */
__global__ void check_kernel(const int32_t *row, const int32_t *col, int64_t n, int64_t rows,
                             int64_t cols, coo_counts *found) {
  const unsigned FULL = 0xffffffffu;
  unsigned long long first_bad = ~0ull; /* a thread meets its triples in increasing order */
  bool back = false, same = false;
  CSRI_GRID_STRIDE(k, n) {
    const int32_t r = row[k], c = col[k];
    if ((r < 0 || r >= rows || c < 0 || c >= cols) && first_bad == ~0ull)
      first_bad = (unsigned long long)k;
    if (k > 0) {
      const int32_t pr = row[k - 1], pc = col[k - 1];
      back |= r < pr || (r == pr && c < pc);
      same |= r == pr && c == pc;
    }
  }
  csri_grid_first(first_bad, &found->first_bad);
  back = __any_sync(FULL, back);
  same = __any_sync(FULL, same);
  if ((threadIdx.x & 31) == 0) {
    if (back)
      atomicOr(&found->out_of_order, 1u);
    if (same)
      atomicOr(&found->repeats, 1u);
  }
}

template <typename K, typename S>
__global__ void make_keys(const int32_t *row, const int32_t *col, int64_t n, int col_bits, K *keys,
                          S *position) {
  CSRI_GRID_STRIDE(k, n) {
    keys[k] = ((K)row[k] << col_bits) | (K)col[k];
    position[k] = (S)k;
  }
}

/* The triples in (row, column) order: as given, or through sorted keys and input positions. */
struct given_order {
  const int32_t *row, *col;
  __device__ bool same_as_previous(int64_t k) const {
    return row[k] == row[k - 1] && col[k] == col[k - 1];
  }
  __device__ int64_t position(int64_t k) const { return k; }
  __device__ void split(int64_t, int32_t *, int32_t *) const {}
};
template <typename K, typename S> struct sorted_keys {
  const K *keys;
  const S *positions;
  int col_bits;
  __device__ bool same_as_previous(int64_t k) const { return keys[k] == keys[k - 1]; }
  __device__ int64_t position(int64_t k) const { return (int64_t)positions[k]; }
  /* The row and column of triple k, for the compaction. */
  __device__ void split(int64_t k, int32_t *row, int32_t *col) const {
    const K key = keys[k];
    row[k] = (int32_t)(key >> col_bits);
    col[k] = (int32_t)(key & (((K)1 << col_bits) - 1));
  }
};

/* keep[k] = 1 when triple k starts a run of equal (row, column) whose sum survives; its sum, in
 * V's own arithmetic left to right in input order, goes to sums[k]; *kept counts the runs kept
 * (one atomic per warp, see check_kernel). V is void for a pattern: every run is kept. */
template <typename Order, typename V>
__global__ void runs_kernel(Order order, const V *values, int64_t n, bool drop_zeros,
                            int32_t *rows_out, int32_t *cols_out, V *sums, uint8_t *keep,
                            unsigned long long *kept) {
  unsigned long long count = 0;
  CSRI_GRID_STRIDE(k, n) {
    order.split(k, rows_out, cols_out);
    bool keeps = k == 0 || !order.same_as_previous(k);
    if constexpr (!std::is_void<V>::value)
      if (keeps) {
        V sum = values[order.position(k)];
        for (int64_t q = k + 1; q < n && order.same_as_previous(q); q++)
          sum += values[order.position(q)];
        sums[k] = sum;
        keeps = !(drop_zeros && sum == (V)0);
      }
    keep[k] = keeps;
    count += keeps;
  }
  count = csri_warp_inclusive<csri_sum_op<unsigned long long>>(count); /* lane 31: the warp's */
  if ((threadIdx.x & 31) == 31 && count > 0)
    atomicAdd(kept, count);
}

/* The runs of an ordered view: the keep flags and sums, and how many are kept. */
template <typename Order>
csr_status find_runs(csr_context *ctx, Order order, const csr_coo *T, bool drop_zeros,
                     int32_t *rows_out, int32_t *cols_out, void *sums, uint8_t *keep,
                     coo_counts *counts, int64_t *kept) {
  cudaStream_t stream = csri_stream(ctx);
  const int64_t n = T->nnz;
  const int blocks = csri_vector_blocks(n);
  unsigned long long *kept_device = &counts->kept;
  if (T->value_type == CSR_F64)
    runs_kernel<<<blocks, CSRI_VECTOR_THREADS, 0, stream>>>(order, (const double *)T->values, n,
                                                            drop_zeros, rows_out, cols_out,
                                                            (double *)sums, keep, kept_device);
  else if (T->value_type == CSR_F32)
    runs_kernel<<<blocks, CSRI_VECTOR_THREADS, 0, stream>>>(order, (const float *)T->values, n,
                                                            drop_zeros, rows_out, cols_out,
                                                            (float *)sums, keep, kept_device);
  else
    runs_kernel<Order, void><<<blocks, CSRI_VECTOR_THREADS, 0, stream>>>(
        order, NULL, n, false, rows_out, cols_out, NULL, keep, kept_device);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "COO runs kernel"));
  unsigned long long host_kept = 0;
  CSRI_TRY(csri_cuda_memcpy(ctx, &host_kept, kept_device, sizeof host_kept, 1));
  *kept = (int64_t)host_kept;
  return CSR_SUCCESS;
}

/* The triples in order as keys and input positions, sorted; returns the view. */
template <typename K, typename S>
csr_status sort_triples(csr_context *ctx, const csr_coo *T, int col_bits, int key_bits,
                        csri_scratch &mem, sorted_keys<K, S> *order) {
  const int64_t n = T->nnz;
  K *keys = NULL;
  S *positions = NULL;
  void *workspace = NULL;
  CSRI_TRY(mem.take((void **)&keys, n, sizeof(K)));
  CSRI_TRY(mem.take((void **)&positions, n, sizeof(S)));
  CSRI_TRY(mem.take(&workspace, 1, csri_cuda_radix_sort_bytes(ctx, sizeof(K), sizeof(S), n)));
  make_keys<<<csri_vector_blocks(n), CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(
      T->row_indices, T->col_indices, n, col_bits, keys, positions);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "COO key kernel"));
  if (key_bits > 0) /* else every triple has the same (row, column): already in order */
    CSRI_TRY(csri_cuda_radix_sort(ctx, sizeof(K), keys, sizeof(S), positions, n, 0, key_bits,
                                  workspace));
  *order = sorted_keys<K, S>{keys, positions, col_bits};
  return CSR_SUCCESS;
}

/* Steps 3 and 4 over an ordered view: runs, A's entries by compaction, its row offsets. */
template <typename Order>
csr_status assemble(csr_context *ctx, const csr_coo *T, Order order, bool drop_zeros,
                    const int32_t *ordered_rows, const int32_t *ordered_cols, int32_t *rows_out,
                    int32_t *cols_out, coo_counts *counts, csri_scratch &mem, csr_matrix **A) {
  const int64_t n = T->nnz;
  const size_t value_size = csri_value_size(T->value_type);
  const csr_data_type value_type = T->value_type == CSR_F64 ? CSR_DATA_F64 : CSR_DATA_F32;
  void *sums = NULL, *workspace = NULL;
  uint8_t *keep = NULL;
  int32_t *kept_rows = NULL;
  if (value_size > 0)
    CSRI_TRY(mem.take(&sums, n, value_size));
  CSRI_TRY(mem.take((void **)&keep, n, 1));
  int64_t kept = 0;
  CSRI_TRY(find_runs(ctx, order, T, drop_zeros, rows_out, cols_out, sums, keep, counts, &kept));
  CSRI_TRY(mem.take((void **)&kept_rows, kept, sizeof *kept_rows));
  /* One workspace for the compactions, the histogram and the scan, which run one after another. */
  size_t bytes = csri_cuda_offsets_from_rows_bytes(ctx, T->rows, n), need;
  if ((need = csri_cuda_compact_bytes(ctx, CSR_DATA_I32, n)) > bytes)
    bytes = need;
  if (value_size > 0 && (need = csri_cuda_compact_bytes(ctx, value_type, n)) > bytes)
    bytes = need;
  CSRI_TRY(mem.take(&workspace, 1, bytes));
  csr_matrix *out = NULL;
  CSRI_TRY(csr_matrix_create(ctx, &out, T->rows, T->cols, kept, T->value_type, CSR_DEVICE));
  csri_select select;
  memset(&select, 0, sizeof select);
  select.flags = keep;
  int64_t got = 0;
  csr_status s = csri_cuda_compact(ctx, CSR_DATA_I32, ordered_cols, &select, out->col_indices, n,
                                   &got, workspace);
  if (s >= 0)
    s = csri_cuda_compact(ctx, CSR_DATA_I32, ordered_rows, &select, kept_rows, n, &got, workspace);
  if (s >= 0 && value_size > 0)
    s = csri_cuda_compact(ctx, value_type, sums, &select, out->values, n, &got, workspace);
  if (s >= 0 && kept > 0)
    s = csri_cuda_offsets_from_rows(ctx, kept_rows, out, workspace);
  if (s < 0) {
    csr_matrix_free(&out);
    return s;
  }
  *A = out;
  return CSR_SUCCESS;
}

/* Ordered, repeat-free triples with nothing to drop: A's columns and values are T's. */
csr_status copy_ordered(csr_context *ctx, const csr_coo *T, csri_scratch &mem, csr_matrix **A) {
  void *workspace = NULL;
  CSRI_TRY(mem.take(&workspace, 1, csri_cuda_offsets_from_rows_bytes(ctx, T->rows, T->nnz)));
  csr_matrix *out = NULL;
  CSRI_TRY(csr_matrix_create(ctx, &out, T->rows, T->cols, T->nnz, T->value_type, CSR_DEVICE));
  csr_status s =
      csri_cuda_memcpy(ctx, out->col_indices, T->col_indices, (size_t)T->nnz * sizeof(int32_t), 2);
  if (s >= 0 && T->value_type != CSR_PATTERN)
    s = csri_cuda_memcpy(ctx, out->values, T->values,
                         (size_t)T->nnz * csri_value_size(T->value_type), 2);
  if (s >= 0)
    s = csri_cuda_offsets_from_rows(ctx, T->row_indices, out, workspace);
  if (s < 0) {
    csr_matrix_free(&out);
    return s;
  }
  *A = out;
  return CSR_SUCCESS;
}

/* Orders T by keys of K bits with positions of type S, then assembles. */
template <typename K, typename S>
csr_status sort_and_assemble(csr_context *ctx, const csr_coo *T, bool drop_zeros, int col_bits,
                             int key_bits, coo_counts *counts, csri_scratch &mem, csr_matrix **A) {
  sorted_keys<K, S> order;
  CSRI_TRY((sort_triples<K, S>(ctx, T, col_bits, key_bits, mem, &order)));
  int32_t *rows = NULL, *cols = NULL;
  CSRI_TRY(mem.take((void **)&rows, T->nnz, sizeof *rows));
  CSRI_TRY(mem.take((void **)&cols, T->nnz, sizeof *cols));
  return assemble(ctx, T, order, drop_zeros, rows, cols, rows, cols, counts, mem, A);
}

} // namespace

extern "C" csr_status csri_cuda_from_coo(csr_context *ctx, const csr_coo *T, unsigned options,
                                         csr_matrix **A) {
  const int64_t n = T->nnz;
  const bool drop_zeros = (options & CSR_CONVERT_DROP_ZEROS) != 0 && T->value_type != CSR_PATTERN;
  csri_scratch mem(ctx);
  coo_counts *counts_device = NULL;
  CSRI_TRY(mem.take((void **)&counts_device, 1, sizeof *counts_device));
  coo_counts found = {(unsigned long long)n, 0, 0, 0};
  CSRI_TRY(csri_cuda_memcpy(ctx, counts_device, &found, sizeof found, 0));
  check_kernel<<<csri_vector_blocks(n), CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(
      T->row_indices, T->col_indices, n, T->rows, T->cols, counts_device);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "COO check kernel"));
  CSRI_TRY(csri_cuda_memcpy(ctx, &found, counts_device, sizeof found, 1));
  if (found.first_bad < (unsigned long long)n) {
    const int64_t k = (int64_t)found.first_bad;
    int32_t row = 0, col = 0;
    CSRI_TRY(csri_cuda_memcpy(ctx, &row, T->row_indices + k, sizeof row, 1));
    CSRI_TRY(csri_cuda_memcpy(ctx, &col, T->col_indices + k, sizeof col, 1));
    return csri_coo_index_error_at(ctx, T, k, row, col);
  }
  if (!found.out_of_order) {
    if (!found.repeats && !drop_zeros)
      return copy_ordered(ctx, T, mem, A);
    given_order order = {T->row_indices, T->col_indices};
    return assemble(ctx, T, order, drop_zeros, T->row_indices, T->col_indices, NULL, NULL,
                    counts_device, mem, A);
  }
  const int col_bits = csri_index_bits(T->cols), key_bits = csri_index_bits(T->rows) + col_bits;
  const bool wide_positions = n > (int64_t)UINT32_MAX;
  if (key_bits <= 32)
    return wide_positions ? sort_and_assemble<uint32_t, uint64_t>(ctx, T, drop_zeros, col_bits,
                                                                  key_bits, counts_device, mem, A)
                          : sort_and_assemble<uint32_t, uint32_t>(ctx, T, drop_zeros, col_bits,
                                                                  key_bits, counts_device, mem, A);
  return wide_positions ? sort_and_assemble<uint64_t, uint64_t>(ctx, T, drop_zeros, col_bits,
                                                                key_bits, counts_device, mem, A)
                        : sort_and_assemble<uint64_t, uint32_t>(ctx, T, drop_zeros, col_bits,
                                                                key_bits, counts_device, mem, A);
}
