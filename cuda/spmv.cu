/* y = alpha*A*x + beta*y on the GPU: y_i = alpha * sum_k a_ik x_k + beta * y_i, each row summed
 * in double by one thread (scalar) or a group of lanes (vector), see cuda/spmv_rows.cuh, or with
 * the nonzeros cut evenly over the threads (segmented, cuda/spmv_merge.cu). */
#include "spmv_merge.cuh"
#include "spmv_rows.cuh"
#include "spmv_stream.cuh"

namespace {

/* x_j, widened to double; read through the read-only cache, since rows share x entries. */
template <typename T> struct gather_x {
  const T *x;
  __device__ __forceinline__ double operator()(int32_t j) const { return (double)__ldg(x + j); }
};

/* One group of W lanes per row; the grid covers every row once. beta == 0 overwrites y (a NaN
 * in the old y does not survive), as on the CPU. */
template <int W, typename T, bool PATTERN>
__global__ void __launch_bounds__(CSRI_SPMV_THREADS)
    spmv_kernel(int64_t rows, const int64_t *off, const int32_t *col, const T *val, const T *x,
                double alpha, double beta, T *y) {
  const int lane = W == 1 ? 0 : (int)(threadIdx.x & (W - 1));
  int64_t row = ((int64_t)blockIdx.x * CSRI_SPMV_THREADS + threadIdx.x) / W;
  double sum =
      row < rows ? csri_row_sum<W, T, PATTERN>(off, col, val, row, lane, gather_x<T>{x}) : 0.0;
  if (W > 1)
    sum = csri_group_total<W>(sum);
  if (lane == 0 && row < rows)
    y[row] = (T)(beta == 0.0 ? alpha * sum : alpha * sum + beta * (double)y[row]);
}

template <typename T, bool PATTERN> struct spmv_launch {
  csr_context *ctx;
  const csr_matrix *A;
  const T *x;
  double alpha, beta;
  T *y;

  template <int W> csr_status run() {
    int64_t blocks = (A->rows * W + CSRI_SPMV_THREADS - 1) / CSRI_SPMV_THREADS;
    spmv_kernel<W, T, PATTERN><<<(unsigned)blocks, CSRI_SPMV_THREADS, 0, csri_stream(ctx)>>>(
        A->rows, A->row_offsets, A->col_indices, (const T *)A->values, x, alpha, beta, y);
    return CSRI_CUDA_CHECK(ctx, "SpMV kernel");
  }
};

template <typename T>
csr_status spmv_typed(csr_context *ctx, int lanes, double alpha, const csr_matrix *A,
                      const csr_vector *x, double beta, csr_vector *y) {
  const T *xv = (const T *)x->data;
  T *yv = (T *)y->data;
  if (A->value_type == CSR_PATTERN) {
    spmv_launch<T, true> launch{ctx, A, xv, alpha, beta, yv};
    return csri_with_lanes(lanes, launch);
  }
  spmv_launch<T, false> launch{ctx, A, xv, alpha, beta, yv};
  return csri_with_lanes(lanes, launch);
}

} // namespace

extern "C" csr_status csri_cuda_spmv(csr_context *ctx, double alpha, const csr_matrix *A,
                                     const csr_vector *x, double beta, csr_vector *y) {
  csri_spmv_pick pick;
  CSRI_TRY(csri_spmv_pick_for(ctx, A, &pick));
  if (pick.kernel == CSR_KERNEL_SEGMENTED)
    return csri_cuda_spmv_merge(ctx, alpha, A, x, beta, y);
  if (pick.kernel == CSR_KERNEL_STREAM)
    return csri_cuda_spmv_stream(ctx, alpha, A, x, beta, y);
  return y->value_type == CSR_F64 ? spmv_typed<double>(ctx, pick.lanes, alpha, A, x, beta, y)
                                  : spmv_typed<float>(ctx, pick.lanes, alpha, A, x, beta, y);
}
