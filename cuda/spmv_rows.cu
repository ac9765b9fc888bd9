/* SPDX-License-Identifier: BSD-3-Clause */
/* y = alpha*A*x + beta*y by the row kernels: y_i = alpha * sum_k a_ik x_k + beta * y_i, each row
 * summed in double by one thread (scalar) or a group of W lanes (vector), see cuda/spmv_rows.cuh;
 * the grid covers every row once. What a kernel does with a row's sum is its `Out`
 * (cuda/spmv_out.cuh). */
#include "spmv_out.cuh"
#include "spmv_rows.cuh"

namespace {

/* x_j, widened to double; read through the read-only cache, since rows share x entries. */
template <typename T> struct gather_x {
  const T *x;
  __device__ __forceinline__ double operator()(int32_t j) const { return (double)__ldg(x + j); }
};

/* One group of W lanes per row; the grid covers every row once; the group's lane 0 finishes the
 * row (out.row). */
template <int W, typename T, bool PATTERN, typename Cols, typename Out>
__global__ void __launch_bounds__(CSRI_SPMV_THREADS)
    spmv_kernel(int64_t rows, const int64_t *off, Cols cols, const T *val, const T *x, Out out,
                double *partials) {
  const int lane = W == 1 ? 0 : (int)(threadIdx.x & (W - 1));
  int64_t row = ((int64_t)blockIdx.x * CSRI_SPMV_THREADS + threadIdx.x) / W;
  double sum =
      row < rows ? csri_row_sum<W, T, PATTERN>(off, cols, val, row, lane, gather_x<T>{x}) : 0.0;
  if (W > 1)
    sum = csri_group_total<W>(sum);
  typename Out::terms terms = {};
  if (lane == 0 && row < rows)
    out.row(row, sum, terms);
  csri_out_block<Out, CSRI_SPMV_THREADS>(terms, partials);
}

template <typename T, bool PATTERN, typename Out> struct spmv_launch {
  csr_context *ctx;
  const csri_spmv_plan *plan;
  const csr_matrix *A;
  const T *x;
  const Out &out;
  double *result;

  template <int W> csr_status run() {
    const int64_t blocks = (A->rows * W + CSRI_SPMV_THREADS - 1) / CSRI_SPMV_THREADS;
    double *partials = NULL;
    const int64_t partial_count = csri_out_partials<CSRI_SPMV_THREADS>(blocks);
    const size_t bytes = csri_out_partials_bytes<Out>(partial_count);
    if (bytes > 0)
      CSRI_TRY(csri_device_scratch(ctx, bytes, (void **)&partials));
    csr_status status = csri_with_columns(plan, A, [&](auto cols) {
      spmv_kernel<W, T, PATTERN, decltype(cols), Out>
          <<<(unsigned)blocks, CSRI_SPMV_THREADS, 0, csri_stream(ctx)>>>(
              A->rows, A->row_offsets, cols, (const T *)A->values, x, out, partials);
      return CSRI_CUDA_CHECK(ctx, "SpMV kernel");
    });
    if (status >= 0)
      status = csri_out_total<Out>(ctx, partials, partial_count, result);
    if (bytes > 0)
      csri_device_scratch_done(ctx, partials);
    return status;
  }
};

} // namespace

/* The row kernels' launcher: a thread per row (plan->lanes 1) or a group of plan->lanes lanes. */
template <typename T, typename Out>
csr_status csri_cuda_spmv_rows(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A,
                               const T *x, const Out &out, double *result) {
  if (A->value_type == CSR_PATTERN) {
    spmv_launch<T, true, Out> launch{ctx, plan, A, x, out, result};
    return csri_with_lanes(plan->lanes, launch);
  }
  spmv_launch<T, false, Out> launch{ctx, plan, A, x, out, result};
  return csri_with_lanes(plan->lanes, launch);
}

CSRI_SPMV_OUT_INSTANTIATE(csri_cuda_spmv_rows)
