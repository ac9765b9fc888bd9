/* SPDX-License-Identifier: BSD-3-Clause */
/* Row-length statistics on the GPU: len_i = off[i+1] - off[i]; counts[b] = #{i : bin(len_i) = b}
 * (log2 bins, by libcsr's histogram, cuda/histogram.cu), longest = max len_i, variance =
 * sum (len_i - mean)^2 / rows. The offsets stay on the device; one pass makes the lengths, the
 * histogram's samples (32-bit when no row can be longer), and reduces the longest and the
 * variance in the fixed order of cuda/reduce.cuh, so the same matrix gives the same statistics
 * every time. */
#include "entries.h"
#include "reduce.cuh"

namespace {

/* Slots 0 and 1 are maxima (of values >= 0), slot 2 a sum. */
struct two_maxima_and_a_sum {
  __device__ __forceinline__ static double identity() { return 0.0; }
  __device__ __forceinline__ static double combine_at(int k, double a, double b) {
    return k < 2 ? (a > b ? a : b) : a + b;
  }
};

/* One pass: writes the lengths and reduces max len_i, max (-len_i) (positive when the offsets
 * decrease) and sum (len_i - mean)^2, the mean being nnz / rows, known from the ends. */
template <typename L>
__global__ void __launch_bounds__(CSRI_REDUCE_THREADS)
    lengths_kernel(const int64_t *off, int64_t rows, double mean, L *lengths,
                   csri_reduce_space<3> space) {
  csri_sums<3> s = {{0.0, 0.0, 0.0}};
  CSRI_GRID_STRIDE(i, rows) {
    int64_t len = off[i + 1] - off[i];
    lengths[i] = (L)len;
    s.v[0] = len > s.v[0] ? (double)len : s.v[0];
    s.v[1] = -len > s.v[1] ? (double)-len : s.v[1];
    double d = (double)len - mean;
    s.v[2] += d * d;
  }
  csri_grid_combine<two_maxima_and_a_sum, 3, CSRI_REDUCE_THREADS>(s, space);
}

/* Lengths, longest, histogram, variance, with the lengths as L; counts is a device array of
 * CSR_HIST_BINS 64-bit counters. */
template <typename L>
csr_status stats_typed(csr_context *ctx, const int64_t *off, int64_t rows, L *lengths,
                       unsigned long long *counts, csr_row_stats *stats) {
  cudaStream_t stream = csri_stream(ctx);
  stats->mean = (double)stats->nnz / (double)rows;
  double r[3];
  CSRI_TRY(csri_run_reduction<3>(
      ctx, (const void *)lengths_kernel<L>, rows, r, [&](int blocks, csri_reduce_space<3> s) {
        lengths_kernel<L>
            <<<blocks, CSRI_REDUCE_THREADS, 0, stream>>>(off, rows, stats->mean, lengths, s);
      }));
  if (r[1] > 0.0)
    return csri_offsets_error(ctx);
  stats->longest = (int64_t)r[0];
  stats->variance = r[2] / (double)rows;
  /* Lengths reach at most nnz < 2^47, so the log2 bins of the histogram are csri_row_length_bin's
   * (which folds longer rows into the last bin). */
  csri_bins bins = {CSR_BINS_LOG2, CSR_HIST_BINS, 0.0, 0.0, 0.0, 0};
  csr_data_type type = sizeof(L) == 4 ? CSR_DATA_I32 : CSR_DATA_I64;
  size_t bytes = csri_cuda_histogram_bytes(ctx, &bins, CSR_DATA_U64, rows);
  void *workspace = NULL;
  if (bytes > 0)
    CSRI_TRY(csri_device_scratch(ctx, bytes, &workspace));
  csr_status s =
      csri_cuda_histogram(ctx, type, lengths, rows, &bins, CSR_DATA_U64, counts, workspace);
  csri_device_scratch_done(ctx, workspace);
  CSRI_TRY(s);
  unsigned long long host[CSR_HIST_BINS];
  CSRI_CUDA_TRY(ctx, cudaMemcpyAsync(host, counts, sizeof host, cudaMemcpyDeviceToHost, stream));
  CSRI_CUDA_TRY(ctx, cudaStreamSynchronize(stream));
  for (int b = 0; b < CSR_HIST_BINS; b++)
    stats->histogram[b] = (int64_t)host[b];
  stats->empty_rows = stats->histogram[0];
  return CSR_SUCCESS;
}

} // namespace

extern "C" csr_status csri_cuda_row_stats(csr_context *ctx, const int64_t *off, int64_t rows,
                                          csr_row_stats *stats) {
  stats->rows = rows;
  if (rows == 0)
    return CSR_SUCCESS;
  int64_t ends[2];
  cudaStream_t stream = csri_stream(ctx);
  if (csri_stream_capturing(ctx)) /* the counts come back to the host: a sync */
    return csri_error(ctx, CSR_ERR_UNSUPPORTED, __FILE__, __LINE__,
                      "row statistics (the SpMV kernel's choice) cannot be computed while the "
                      "stream is captured into a CUDA graph: call csr_spmv_choose (or csr_spmv "
                      "once) on the matrix before the capture, or force a kernel");
  CSRI_CUDA_TRY(ctx,
                cudaMemcpyAsync(&ends[0], off, sizeof(int64_t), cudaMemcpyDeviceToHost, stream));
  CSRI_CUDA_TRY(
      ctx, cudaMemcpyAsync(&ends[1], off + rows, sizeof(int64_t), cudaMemcpyDeviceToHost, stream));
  CSRI_CUDA_TRY(ctx, cudaStreamSynchronize(stream));
  stats->nnz = ends[1] - ends[0];
  if (stats->nnz < 0)
    return csri_offsets_error(ctx);
  /* Its own allocation, not the context's scratch: the reductions below take the scratch. */
  size_t length_size = stats->nnz <= INT32_MAX ? 4 : 8;
  void *space = NULL;
  const size_t counts_bytes = csri_align256(CSR_HIST_BINS * sizeof(unsigned long long));
  CSRI_TRY(csri_device_alloc(ctx, &space, counts_bytes + (size_t)rows * length_size));
  unsigned long long *counts = (unsigned long long *)space;
  void *lengths = (char *)space + counts_bytes;
  csr_status s = length_size == 4
                     ? stats_typed<int32_t>(ctx, off, rows, (int32_t *)lengths, counts, stats)
                     : stats_typed<int64_t>(ctx, off, rows, (int64_t *)lengths, counts, stats);
  csri_device_free(space);
  return s;
}
