/* SPDX-License-Identifier: BSD-3-Clause */
/* A = T as CSR on the device: a_ij = the sum, in input order, of the triples (i, j, v) of T.
 *
 *  1. One pass (cuda/coo_check.cuh) checks the triples against the shape (the first bad one is
 *     reported), sees whether they come in (row, column) order, lists the repeats (triples equal
 *     in (row, column) to the one before) and writes A's row offsets as if nothing repeated. In
 *     order and without repeats, T's columns and values are A's: the pass writes them on its way
 *     (it stops once it sees a repeat, a zero to drop or disorder). With a few repeats (at most
 *     CSRI_REPEATS_LISTED, and no zero to drop) T's entries are then copied around the repeats,
 *     each added to its run's first in input order, and the offsets lowered by the repeats before
 *     them. Files usually hold ordered triples: they take this pass alone. Ordered triples with
 *     many repeats, or zeros to drop, take the pass of cuda/coo_runs.cuh (runs summed and
 *     compacted, offsets at each row's first triple); so do triples whose arrays are not 16-byte
 *     aligned, which that pass also checks, in place of the check (which reads 16 bytes at a
 *     time).
 *  2. Triples out of order are ordered by libcsr's LSD radix sort of (row << column bits | column)
 *     keys over only the bits that rows and columns need, the values moving with their keys (a
 *     pattern moves keys alone); the sort is stable, so equal keys keep their input order. Its
 *     first pass makes the keys from T's rows and columns and reads T's values where they are
 *     (no keys array made first, no copy of the values). Sorting input positions instead and
 *     gathering the values through them afterwards reads each value's sector at random: on an
 *     H100 that gather took 3.0 of 10 ms for 2^26 f64 triples (5 GB read from DRAM). The sort's
 *     digit counts, which read every triple before the passes, check the shape in place of step
 *     1, which stops reading once it has seen disorder. The last pass writes the sorted triples'
 *     rows to a temporary and their columns and values straight into A's arrays. With 64-bit
 *     keys and three passes or more, the pass before the last takes out the repeats it sees (the
 *     tile it stages is sorted by every bit below the last digit, so its equal keys lie side by
 *     side): it marks them and adds their values to their run's first, in input order, and the
 *     last pass leaves them out (cuda/radix_sort_agent.cuh, pass_mode). When that pass saw every
 *     repeat (it says when it may have left some: runs that cross its tiles or are too long to
 *     examine) and no zero is to be dropped, A lacks only its row offsets, from the sorted rows
 *     (4 bytes a triple, cuda/coo_offsets.cuh). Otherwise the check of step 1 runs over the
 *     sorted rows and columns (8 bytes a triple, no values unless zeros are dropped): without
 *     repeats A is done; with a few, or zeros to drop, the copy or the pass of step 1 moves A's
 *     entries to arrays that then become A's (the repeats taken out by the sort have had their
 *     values added in order, so what is left sums to the same bits). H100, 2026-11-27, same
 *     runs: 2^26 shuffled triples with 123 repeats to CSR in 6.33-6.44 ms against 7.00-7.01 with
 *     the copy around the repeats after the sort; the pass before the last takes 0.1 ms more.
 * The result's arrays hold nnz(T) entries until the runs are known; when repeats or dropped zeros
 * leave more than an eighth of them unused, A is copied into arrays of its own size. */
#include "coo_check.cuh"
#include "coo_offsets.cuh"
#include "radix_sort.cuh"
#include "reduce.cuh"

#include <stdio.h>
#include <string.h>
#include <type_traits>

namespace {

/* f called with a null pointer to T's element type (void for a pattern): the kernels' value
 * type picked once, where each launch would otherwise list the three. */
template <typename F> void with_value_type(csr_value_type type, F &&f) {
  if (type == CSR_F64)
    f((double *)nullptr);
  else if (type == CSR_F32)
    f((float *)nullptr);
  else
    f((void *)nullptr);
}

/* The pass's workspace: its findings and tile counter, the tiles' statuses, the long gaps, the
 * check's list of repeats and, when that list is short, the list in order. */
struct runs_space {
  csri_runs_found *found;
  csri_count_status status;
  csri_row_gap *gaps;
  int64_t *repeats, *ranked;
  int64_t tiles, gap_capacity;
};

int64_t runs_tiles(int64_t n) {
  return (n + CSRI_RUNS_TILE - 1) / CSRI_RUNS_TILE;
}

size_t gaps_bytes(const csr_coo *T) {
  return csri_align256((size_t)csri_runs_gap_capacity(T->rows) * sizeof(csri_row_gap));
}

size_t runs_space_bytes(const csr_coo *T) {
  return 256 + csri_count_status::bytes(runs_tiles(T->nnz)) + gaps_bytes(T) +
         (CSRI_REPEATS_LISTED + CSRI_REPEATS_RANKED) * sizeof(int64_t);
}

runs_space runs_space_at(void *workspace, const csr_coo *T) {
  runs_space w;
  w.tiles = runs_tiles(T->nnz);
  w.gap_capacity = csri_runs_gap_capacity(T->rows);
  w.found = (csri_runs_found *)workspace;
  w.status = csri_count_status::at((char *)workspace + 256, w.tiles);
  w.gaps = (csri_row_gap *)((char *)workspace + 256 + csri_count_status::bytes(w.tiles));
  w.repeats = (int64_t *)((char *)w.gaps + gaps_bytes(T));
  w.ranked = w.repeats + CSRI_REPEATS_LISTED;
  return w;
}

/* The offsets of the long runs of empty rows that a pass listed. */
csr_status fill_gaps(csr_context *ctx, const runs_space &w, const csri_runs_found &found,
                     csr_matrix *out) {
  if (found.gaps == 0)
    return CSR_SUCCESS;
  const int64_t fill_blocks = (int64_t)found.gaps < CSRI_RUNS_GAP_MAX_BLOCKS
                                  ? (int64_t)found.gaps
                                  : CSRI_RUNS_GAP_MAX_BLOCKS;
  csri_runs_fill_gaps<<<(unsigned)fill_blocks, CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(
      w.gaps, w.found, w.gap_capacity, out->row_offsets);
  return CSRI_CUDA_CHECK(ctx, "row gaps kernel");
}

/* The pass's findings zeroed (first_bad set to "none"), and `status_bytes` of tile statuses after
 * them. */
csr_status clear_found(csr_context *ctx, const runs_space &w, size_t status_bytes) {
  cudaStream_t stream = csri_stream(ctx);
  CSRI_CUDA_TRY(ctx, cudaMemsetAsync(w.found, 0, 256 + status_bytes, stream));
  CSRI_CUDA_TRY(ctx, cudaMemsetAsync(&w.found->first_bad, 0xff, sizeof w.found->first_bad, stream));
  return CSR_SUCCESS;
}

/* One pass over an ordered view of T's triples, `values` in the same order, into `out` (arrays of
 * nnz(T) entries); *found gets what it saw. */
template <bool CHECK, typename Order>
csr_status run_pass(csr_context *ctx, Order order, const void *values, const csr_coo *T,
                    bool drop_zeros, const runs_space &w, csr_matrix *out, csri_runs_found *found) {
  cudaStream_t stream = csri_stream(ctx);
  CSRI_TRY(clear_found(ctx, w, csri_count_status::bytes(w.tiles)));
  const unsigned blocks = (unsigned)w.tiles;
  const int64_t n = T->nnz;
  with_value_type(T->value_type, [&](auto *type) {
    using V = std::remove_pointer_t<decltype(type)>;
    csri_runs_kernel<CHECK, Order, V><<<blocks, CSRI_RUNS_THREADS, 0, stream>>>(
        order, (const V *)values, n, T->rows, T->cols, drop_zeros, out->col_indices,
        (V *)out->values, out->row_offsets, w.gaps, w.gap_capacity, w.status, w.found, w.tiles);
  });
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "COO runs kernel"));
  CSRI_TRY(csri_cuda_memcpy(ctx, found, w.found, sizeof *found, 1));
  if (found->out_of_order || found->first_bad != ~0ull)
    return CSR_SUCCESS; /* a result that is thrown away */
  return fill_gaps(ctx, w, *found, out);
}

/* The check of the given triples (cuda/coo_check.cuh; their arrays 16-byte aligned), launched,
 * its findings left in w.found; it writes A's row offsets as if nothing were repeated and, with
 * `copy` (T's values 16-byte aligned too), A's columns and values as T's while it sees nothing
 * against it. */
csr_status launch_check(csr_context *ctx, const csr_coo *T, bool drop_zeros, bool copy,
                        const runs_space &w, csr_matrix *out) {
  cudaStream_t stream = csri_stream(ctx);
  CSRI_TRY(clear_found(ctx, w, 0));
  /* As many blocks as are resident at once (each takes tile after tile), at most one a tile. */
  const auto launch = [&](auto zeros, auto *type) {
    constexpr bool Z = decltype(zeros)::value;
    using V = std::remove_pointer_t<decltype(type)>;
    const void *kernel = (const void *)csri_check_kernel<Z, V>;
    csri_check_kernel<Z, V>
        <<<csri_reduce_grid(kernel, CSRI_RUNS_THREADS, T->nnz, CSRI_CHECK_TILE), CSRI_RUNS_THREADS,
           0, stream>>>(T->row_indices, T->col_indices, (const V *)T->values, T->nnz, T->rows,
                        T->cols, out->row_offsets, w.gaps, w.gap_capacity, w.found, w.repeats,
                        CSRI_REPEATS_LISTED, copy, out->col_indices, (V *)out->values);
  };
  with_value_type(T->value_type, [&](auto *type) {
    /* a pattern has no zero to drop, and no kernel that counts them */
    if constexpr (!std::is_void_v<std::remove_pointer_t<decltype(type)>>)
      if (drop_zeros)
        return launch(std::true_type{}, type);
    launch(std::false_type{}, type);
  });
  return CSRI_CUDA_CHECK(ctx, "COO check kernel");
}

/* The check, its findings in *found. */
csr_status check_pass(csr_context *ctx, const csr_coo *T, bool drop_zeros, bool copy,
                      const runs_space &w, csr_matrix *out, csri_runs_found *found) {
  CSRI_TRY(launch_check(ctx, T, drop_zeros, copy, w, out));
  return csri_cuda_memcpy(ctx, found, w.found, sizeof *found, 1);
}

/* The copy around a few repeats (csri_few_repeats_kernel), launched behind the check of T before
 * the host has its findings: it acts only when they are a few repeats and nothing else (no zero
 * is to be dropped: the caller launches it only then), and otherwise costs a launch whose blocks
 * return at once. */
csr_status launch_few_repeats(csr_context *ctx, const csr_coo *T, const runs_space &w,
                              csr_matrix *out) {
  with_value_type(T->value_type, [&](auto *type) {
    using V = std::remove_pointer_t<decltype(type)>;
    const void *kernel = (const void *)csri_few_repeats_kernel<V>;
    csri_few_repeats_kernel<V>
        <<<csri_reduce_grid(kernel, CSRI_RUNS_THREADS, T->nnz, CSRI_CHECK_TILE), CSRI_RUNS_THREADS,
           0, csri_stream(ctx)>>>(T->col_indices, (const V *)T->values, T->nnz, T->rows, w.found,
                                  w.repeats, out->col_indices, (V *)out->values, out->row_offsets);
  });
  return CSRI_CUDA_CHECK(ctx, "COO copy around a few repeats");
}

/* Whether ordered triples with what the check found take the copy around their repeats: no zero
 * to drop, at most CSRI_REPEATS_LISTED repeats, and none when zeros are dropped (a run of repeats
 * may sum to zero). Otherwise the pass over the ordered triples assembles A. */
bool copies_around_repeats(const csri_runs_found &found, bool drop_zeros) {
  return found.zeros == 0 && found.repeats <= (drop_zeros ? 0 : CSRI_REPEATS_LISTED);
}

/* A from ordered triples whose D repeats (D <= CSRI_REPEATS_LISTED) the check listed, with no
 * zero to drop: T's columns and values copied (without repeats, unless the check `copied` them),
 * the repeats' taken out and added to their run's first; the offsets the check wrote lowered by
 * the repeats before them. */
csr_status copy_ordered(csr_context *ctx, const csr_coo *T, const runs_space &w, csri_scratch &mem,
                        bool copied, csri_runs_found *found, csr_matrix *out) {
  cudaStream_t stream = csri_stream(ctx);
  const int64_t n = T->nnz, D = (int64_t)found->repeats;
  const size_t value_size = csri_value_size(T->value_type);
  CSRI_TRY(fill_gaps(ctx, w, *found, out));
  found->kept = (unsigned long long)(n - D);
  if (D == 0 && copied)
    return CSR_SUCCESS;
  if (D == 0) {
    CSRI_CUDA_TRY(ctx, cudaMemcpyAsync(out->col_indices, T->col_indices, (size_t)n * 4,
                                       cudaMemcpyDeviceToDevice, stream));
    if (value_size > 0)
      CSRI_CUDA_TRY(ctx, cudaMemcpyAsync(out->values, T->values, (size_t)n * value_size,
                                         cudaMemcpyDeviceToDevice, stream));
    return CSRI_CUDA_CHECK(ctx, "COO copy");
  }
  /* The list in ascending order: ranked when short (the radix sort's launches would take longer
   * than the ranking), else sorted. */
  const int64_t *R = w.repeats;
  if (D <= CSRI_REPEATS_RANKED) {
    csri_repeats_rank_kernel<<<(unsigned)((D + CSRI_RUNS_THREADS - 1) / CSRI_RUNS_THREADS),
                               CSRI_RUNS_THREADS, 0, stream>>>(w.repeats, D, w.ranked);
    R = w.ranked;
  } else {
    void *sort_space = NULL;
    const int bits = csri_bit_length((uint64_t)n);
    CSRI_TRY(mem.take(&sort_space, 1, csri_cuda_radix_sort_bytes(ctx, 8, 0, D, 0, bits)));
    CSRI_TRY(csri_cuda_radix_sort(ctx, 8, w.repeats, 0, NULL, D, 0, bits, sort_space));
  }
  /* As many blocks as are resident at once, each taking tile after tile. */
  with_value_type(T->value_type, [&](auto *type) {
    using V = std::remove_pointer_t<decltype(type)>;
    const void *kernel = (const void *)csri_repeats_copy_kernel<V>;
    csri_repeats_copy_kernel<V>
        <<<csri_reduce_grid(kernel, CSRI_RUNS_THREADS, n - D, CSRI_CHECK_TILE), CSRI_RUNS_THREADS,
           0, stream>>>(T->col_indices, (const V *)T->values, R, D, n - D, out->col_indices,
                        (V *)out->values);
  });
  csri_repeats_offsets_kernel<<<csri_reduce_grid((const void *)csri_repeats_offsets_kernel,
                                                 CSRI_RUNS_THREADS, T->rows + 1, CSRI_CHECK_TILE),
                                CSRI_RUNS_THREADS, 0, stream>>>(out->row_offsets, T->rows, R, D);
  return CSRI_CUDA_CHECK(ctx, "COO copy without repeats");
}

/* A's row offsets from its sorted rows S (cuda/coo_offsets.cuh), when the sort took out every
 * repeat and no zero is to be dropped: A's columns and values are in place, and A has nnz(S)
 * entries. Rows out of order would be the sort's failure. */
csr_status offsets_from_sorted(csr_context *ctx, const csr_coo *S, const runs_space &w,
                               csri_runs_found *found, csr_matrix *out) {
  CSRI_TRY(clear_found(ctx, w, 0));
  const void *kernel = (const void *)csri_sorted_offsets_kernel;
  csri_sorted_offsets_kernel<<<csri_reduce_grid(kernel, CSRI_RUNS_THREADS, S->nnz,
                                                CSRI_OFFSETS_STEP),
                               CSRI_RUNS_THREADS, 0, csri_stream(ctx)>>>(
      S->row_indices, S->nnz, S->rows, out->row_offsets, w.gaps, w.gap_capacity, w.found);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "COO offsets kernel"));
  CSRI_TRY(csri_cuda_memcpy(ctx, found, w.found, sizeof *found, 1));
  if (found->out_of_order)
    return CSRI_FAIL(ctx, CSR_ERR_DEVICE, "COO to CSR: the sorted rows are out of order");
  found->kept = (unsigned long long)S->nnz;
  return fill_gaps(ctx, w, *found, out);
}

/* The sort's key width: 32 bits when rows and columns fit in 32 bits together. */
bool narrow_keys(const csr_coo *T) {
  return csri_index_bits(T->rows) + csri_index_bits(T->cols) <= 32;
}

/* A triple's sort key, made as the sort reads it: row above column. Checked (when the sort counts
 * its digits, which reads every triple once): the triple lies inside the matrix. */
template <typename K> struct coo_keys {
  const int32_t *row, *col;
  int col_bits;
  int64_t rows, cols;
  __device__ __forceinline__ K key(int32_t r, int32_t c) const { return ((K)r << col_bits) | (K)c; }
  __device__ __forceinline__ K operator()(int64_t k) const { return key(row[k], col[k]); }
  typedef int2 fetched; /* (row, column) */
  __device__ __forceinline__ int2 fetch(int64_t k) const { return make_int2(row[k], col[k]); }
  __device__ __forceinline__ K checked(int2 t, bool *ok) const {
    *ok = t.x >= 0 && t.x < rows && t.y >= 0 && t.y < cols;
    return key(t.x, t.y);
  }
};

/* The sort's last pass: key i's row to row[i], its column to col[i]. */
template <typename K> struct coo_split_store {
  int32_t *row, *col;
  int col_bits;
  __device__ __forceinline__ void operator()(int64_t i, K key) const {
    row[i] = (int32_t)(key >> col_bits);
    col[i] = (int32_t)(key & (((K)1 << col_bits) - 1));
  }
};

/* T's triples sorted by (row, column) keys of K bits, the values with them, the last pass writing
 * the columns and values into A's arrays and the rows to a temporary; then the check over the
 * sorted triples S and, when it finds repeats or zeros to drop, A's entries moved out of S into
 * arrays that become A's. The sort checks every triple against the shape (the pass over the given
 * order stopped checking where it found disorder): found->first_bad gets the first triple outside
 * the matrix, and then nothing is assembled. */
template <typename K>
csr_status sort_and_assemble(csr_context *ctx, const csr_coo *T, bool drop_zeros,
                             const runs_space &w, csri_scratch &mem, csr_matrix *out,
                             csri_runs_found *found) {
  const int64_t n = T->nnz;
  const int col_bits = csri_index_bits(T->cols), key_bits = csri_index_bits(T->rows) + col_bits;
  const size_t value_size = csri_value_size(T->value_type); /* 0 for a pattern */
  K *keys = NULL;
  void *values = NULL, *workspace = NULL;
  CSRI_TRY(mem.take((void **)&keys, n, sizeof(K)));
  if (value_size > 0)
    CSRI_TRY(mem.take(&values, n, value_size));
  CSRI_TRY(mem.take(&workspace, 1, csri_radix::make_layout(sizeof(K), value_size, n).total));
  const coo_keys<K> first = {T->row_indices, T->col_indices, col_bits, T->rows, T->cols};
  /* The sorted rows in the keys' array: the last pass reads the workspace's. */
  int32_t *sorted_rows = (int32_t *)keys;
  const coo_split_store<K> last = {sorted_rows, out->col_indices, col_bits};
  /* 64-bit keys (whose top bit is free) have the sort take out the repeats it sees: */
  constexpr bool REPEATS = sizeof(K) == 8;
  bool marked = false;
  CSRI_TRY((csri_radix::sort_by_value_size<K, coo_keys<K>, coo_split_store<K>, REPEATS>(
      ctx, first, T->values, false, keys, value_size, values, n, 0, key_bits, workspace,
      &w.found->first_bad, &last, out->values, &marked)));
  CSRI_TRY(
      csri_cuda_memcpy(ctx, &found->first_bad, &w.found->first_bad, sizeof found->first_bad, 1));
  if (found->first_bad != ~0ull)
    return CSR_SUCCESS;
  csri_radix::repeats_found taken = {0, 0};
  if (marked)
    CSRI_TRY(csri_cuda_memcpy(ctx, &taken,
                              csri_radix::repeats_found_in(workspace, sizeof(K), value_size, n),
                              sizeof taken, 1));

  csr_coo S = *T; /* the sorted triples, less the repeats the sort took out */
  S.nnz = n - (int64_t)taken.dropped;
  S.row_indices = sorted_rows;
  S.col_indices = out->col_indices;
  S.values = out->values;
  if (marked && !taken.leftover && !drop_zeros && S.nnz > 0)
    return offsets_from_sorted(ctx, &S, w, found, out);
  CSRI_TRY(check_pass(ctx, &S, drop_zeros, false, w, out, found));
  if (found->out_of_order || found->first_bad != ~0ull)
    return CSRI_FAIL(ctx, CSR_ERR_DEVICE, "COO to CSR: the sorted triples failed their check");
  /* Where A's entries go when they move: arrays of this conversion's, then A's. */
  csr_matrix moved = *out;
  moved.values = values;
  if (copies_around_repeats(*found, drop_zeros)) {
    if (found->repeats == 0)
      return copy_ordered(ctx, &S, w, mem, true, found, out);
    moved.col_indices = (int32_t *)keys; /* the sorted rows are no longer read */
    CSRI_TRY(copy_ordered(ctx, &S, w, mem, false, found, &moved));
  } else { /* many repeats, or zeros to drop: the pass over the sorted triples */
    CSRI_TRY(mem.take((void **)&moved.col_indices, n, sizeof(int32_t)));
    const csri_given_order order = {S.row_indices, S.col_indices};
    CSRI_TRY(run_pass<false>(ctx, order, S.values, &S, drop_zeros, w, &moved, found));
  }
  mem.exchange(moved.col_indices, (void **)&out->col_indices);
  if (value_size > 0)
    mem.exchange(moved.values, &out->values);
  return CSR_SUCCESS;
}

csr_status sort_and_assemble(csr_context *ctx, const csr_coo *T, bool drop_zeros,
                             const runs_space &w, csri_scratch &mem, csr_matrix *out,
                             csri_runs_found *found) {
  return narrow_keys(T) ? sort_and_assemble<uint32_t>(ctx, T, drop_zeros, w, mem, out, found)
                        : sort_and_assemble<uint64_t>(ctx, T, drop_zeros, w, mem, out, found);
}

/* A with `kept` entries, from arrays made for nnz(T): kept as they are, or copied into arrays of
 * A's own size when more than an eighth of them is unused. */
csr_status fit(csr_context *ctx, const csr_coo *T, int64_t kept, csr_matrix **out) {
  csr_matrix *big = *out, *tight = NULL;
  big->nnz = kept;
  big->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  if (T->nnz - kept <= T->nnz / 8)
    return CSR_SUCCESS;
  CSRI_TRY(
      csri_matrix_create_unset(ctx, &tight, T->rows, T->cols, kept, T->value_type, CSR_DEVICE));
  csr_status s = csri_cuda_memcpy(ctx, tight->row_offsets, big->row_offsets,
                                  (size_t)(T->rows + 1) * sizeof(int64_t), 2);
  if (s >= 0)
    s = csri_cuda_memcpy(ctx, tight->col_indices, big->col_indices, (size_t)kept * sizeof(int32_t),
                         2);
  if (s >= 0 && T->value_type != CSR_PATTERN)
    s = csri_cuda_memcpy(ctx, tight->values, big->values,
                         (size_t)kept * csri_value_size(T->value_type), 2);
  if (s < 0) {
    csri_matrix_free(&tight);
    return s;
  }
  tight->flags = big->flags;
  csri_matrix_free(out);
  *out = tight;
  return CSR_SUCCESS;
}

/* Device memory the conversion takes besides T: A's arrays at nnz(T) entries, the pass's
 * workspace and, for disordered triples, the sorted keys and values and the sort's workspace
 * (whose arrays of as many keys and values its passes alternate with). */
size_t coo_build_bytes(const csr_coo *T, size_t *sort_bytes) {
  const int64_t n = T->nnz;
  const size_t key = narrow_keys(T) ? 4 : 8, value = csri_value_size(T->value_type);
  /* and, with many repeats or zeros to drop, a column array for A's entries moved */
  *sort_bytes = (size_t)n * (key + value + 4) + csri_radix::make_layout(key, value, n).total;
  return (size_t)(T->rows + 1) * 8 + (size_t)n * (4 + csri_value_size(T->value_type)) +
         runs_space_bytes(T);
}

/* CSR_ERR_OUT_OF_MEMORY with what the whole conversion needs ahead of the failed allocation's
 * message (which says what the device has). */
csr_status memory_error(csr_context *ctx, const csr_coo *T) {
  char failed[256];
  snprintf(failed, sizeof failed, "%s", csri_last_message(ctx));
  size_t sort_bytes = 0, bytes = coo_build_bytes(T, &sort_bytes);
  const double gib = 1024.0 * 1024.0 * 1024.0;
  return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY,
                   "COO to CSR of %lld triples on the device needs %.2f GiB besides the triples "
                   "(%.2f GiB for the CSR and the pass, %.2f GiB more to sort triples out of "
                   "order); %s",
                   (long long)T->nnz, (double)(bytes + sort_bytes) / gib, (double)bytes / gib,
                   (double)sort_bytes / gib, failed);
}

} // namespace

/* The conversion; on failure *A is NULL and every device array it took is freed. */
static csr_status from_coo(csr_context *ctx, const csr_coo *T, unsigned options, csr_matrix **A) {
  const bool drop_zeros = (options & CSR_CONVERT_DROP_ZEROS) != 0 && T->value_type != CSR_PATTERN;
  csri_scratch mem(ctx);
  void *workspace = NULL;
  CSRI_TRY(mem.take(&workspace, 1, runs_space_bytes(T)));
  const runs_space w = runs_space_at(workspace, T);
  csr_matrix *out = NULL;
  /* every path below writes every row offset (or fails, and A is thrown away) */
  CSRI_TRY(
      csri_matrix_create_unset(ctx, &out, T->rows, T->cols, T->nnz, T->value_type, CSR_DEVICE));
  csri_runs_found found;
  csri_given_order given = {T->row_indices, T->col_indices};
  /* The check reads 16 bytes at a time; triples not so aligned take the pass that checks and
   * assembles at once. It copies the values on its way when they are so aligned too. */
  const bool values_aligned = (uintptr_t)T->values % 16 == 0;
  const bool aligned = ((uintptr_t)T->row_indices | (uintptr_t)T->col_indices) % 16 == 0 &&
                       (values_aligned || !drop_zeros);
  /* Ordered triples with a few repeats have them taken out by a kernel launched right behind the
   * check, which the host would otherwise launch only once the check's findings reached it. */
  const bool early = aligned && !drop_zeros;
  csr_status s = CSR_SUCCESS;
  if (aligned) {
    s = launch_check(ctx, T, drop_zeros, values_aligned, w, out);
    if (s >= 0 && early)
      s = launch_few_repeats(ctx, T, w, out);
    if (s >= 0)
      s = csri_cuda_memcpy(ctx, &found, w.found, sizeof found, 1);
  } else {
    s = run_pass<true>(ctx, given, T->values, T, drop_zeros, w, out, &found);
  }
  if (s >= 0 && found.out_of_order)
    s = sort_and_assemble(ctx, T, drop_zeros, w, mem, out, &found);
  else if (s >= 0 && aligned && found.first_bad == ~0ull) {
    if (early && csri_few_repeats_apply(found)) {
      found.kept = (unsigned long long)T->nnz - found.repeats; /* taken out on the device */
    } else if (copies_around_repeats(found, drop_zeros)) {
      s = copy_ordered(ctx, T, w, mem, values_aligned, &found, out);
    } else { /* many repeats, or zeros to drop: the pass over the ordered triples */
      s = run_pass<false>(ctx, given, T->values, T, drop_zeros, w, out, &found);
    }
  }
  if (s >= 0 && found.first_bad != ~0ull) {
    const int64_t k = (int64_t)found.first_bad;
    int32_t row = 0, col = 0;
    s = csri_cuda_memcpy(ctx, &row, T->row_indices + k, sizeof row, 1);
    if (s >= 0)
      s = csri_cuda_memcpy(ctx, &col, T->col_indices + k, sizeof col, 1);
    if (s >= 0)
      s = csri_coo_index_error_at(ctx, T, k, row, col);
  }
  if (s >= 0)
    s = fit(ctx, T, (int64_t)found.kept, &out);
  if (s < 0) {
    csri_matrix_free(&out);
    return s;
  }
  *A = out;
  return CSR_SUCCESS;
}

extern "C" csr_status csri_cuda_from_coo(csr_context *ctx, const csr_coo *T, unsigned options,
                                         csr_matrix **A) {
  const csr_status s = from_coo(ctx, T, options, A);
  return s == CSR_ERR_OUT_OF_MEMORY ? memory_error(ctx, T) : s;
}
