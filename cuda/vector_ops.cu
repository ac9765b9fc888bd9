/* SPDX-License-Identifier: BSD-3-Clause */
/* Vector operations on the GPU: y = alpha*x + beta*y, x = alpha*x, x = alpha (element-wise,
 * computed in double, rounded once to the vector's type) and the reductions x.y, ||x||_2,
 * ||x||_1, ||x||_inf (summed in double, in an order fixed by n: cuda/reduce.cuh). */
#include "kernels/nrm2.h"
#include "reduce.cuh"

namespace {

/* beta == 0 overwrites y, so NaN in the old y does not survive (as on the CPU). The _rn
 * operations forbid fused multiply-adds: the results are the CPU backends' bits. */
template <typename T>
__global__ void axpby_kernel(int64_t n, double alpha, const T *x, double beta, T *y) {
  CSRI_GRID_STRIDE(i, n) {
    double v = __dmul_rn(alpha, (double)x[i]);
    y[i] = (T)(beta == 0.0 ? v : __dadd_rn(v, __dmul_rn(beta, (double)y[i])));
  }
}

/* alpha == 0 writes zeros (NaN does not survive). */
template <typename T> __global__ void scale_kernel(int64_t n, double alpha, T *x) {
  CSRI_GRID_STRIDE(i, n) {
    x[i] = alpha == 0.0 ? (T)0 : (T)__dmul_rn(alpha, (double)x[i]);
  }
}

template <typename T> __global__ void fill_kernel(int64_t n, T value, T *x) {
  CSRI_GRID_STRIDE(i, n) {
    x[i] = value;
  }
}

/* --- reductions ------------------------------------------------------------------------------ */

/* Blue's scaled sum of squares, as the CPU's csri_nrm2_add (src/kernels/nrm2.h): squares of |v|
 * above 2^486 scaled by 2^-538 (v[0]), below 2^-511 by 2^537 (v[2]), the rest unscaled (v[1]). */
__device__ __forceinline__ void nrm2_add(csri_sums<3> &acc, double v) {
  double a = fabs(v);
  if (a > 0x1p486)
    acc.v[0] += (a * 0x1p-538) * (a * 0x1p-538);
  else if (a < 0x1p-511)
    acc.v[2] += (a * 0x1p537) * (a * 0x1p537);
  else
    acc.v[1] += a * a; /* NaN lands here and propagates */
}

template <typename T>
__global__ void __launch_bounds__(CSRI_REDUCE_THREADS)
    dot_kernel(int64_t n, const T *x, const T *y, csri_reduce_space<1> space) {
  csri_sums<1> s = {{0.0}};
  CSRI_GRID_STRIDE(i, n) {
    s.v[0] += (double)x[i] * (double)y[i];
  }
  csri_grid_combine<csri_add, 1, CSRI_REDUCE_THREADS>(s, space);
}

template <typename T>
__global__ void __launch_bounds__(CSRI_REDUCE_THREADS)
    nrm2_kernel(int64_t n, const T *x, csri_reduce_space<3> space) {
  csri_sums<3> s = {{0.0, 0.0, 0.0}};
  CSRI_GRID_STRIDE(i, n) {
    nrm2_add(s, (double)x[i]);
  }
  csri_grid_combine<csri_add, 3, CSRI_REDUCE_THREADS>(s, space);
}

template <typename T, typename Op>
__global__ void __launch_bounds__(CSRI_REDUCE_THREADS)
    abs_kernel(int64_t n, const T *x, csri_reduce_space<1> space) {
  csri_sums<1> s = {{0.0}};
  CSRI_GRID_STRIDE(i, n) {
    s.v[0] = Op::combine(s.v[0], fabs((double)x[i]));
  }
  csri_grid_combine<Op, 1, CSRI_REDUCE_THREADS>(s, space);
}

template <typename T>
csr_status reduce_typed(csr_context *ctx, csri_reduction which, const csr_vector *x,
                        const csr_vector *y, double *result) {
  cudaStream_t stream = csri_stream(ctx);
  int64_t n = x->n;
  const T *xv = (const T *)x->data;
  if (which == CSRI_NRM2) {
    double acc[3];
    CSRI_TRY(csri_run_reduction<3>(
        ctx, (const void *)nrm2_kernel<T>, n, acc, [&](int blocks, csri_reduce_space<3> s) {
          nrm2_kernel<T><<<blocks, CSRI_REDUCE_THREADS, 0, stream>>>(n, xv, s);
        }));
    *result = csri_nrm2_finish(csri_nrm2_acc{acc[0], acc[1], acc[2]});
    return CSR_SUCCESS;
  }
  /* The three one-sum kernels use the same registers and shared memory: one grid fits all. */
  return csri_run_reduction<1>(
      ctx, (const void *)dot_kernel<T>, n, result, [&](int blocks, csri_reduce_space<1> s) {
        if (which == CSRI_DOT)
          dot_kernel<T><<<blocks, CSRI_REDUCE_THREADS, 0, stream>>>(n, xv, (const T *)y->data, s);
        else if (which == CSRI_NRM1)
          abs_kernel<T, csri_add><<<blocks, CSRI_REDUCE_THREADS, 0, stream>>>(n, xv, s);
        else
          abs_kernel<T, csri_max_nan><<<blocks, CSRI_REDUCE_THREADS, 0, stream>>>(n, xv, s);
      });
}

} // namespace

extern "C" csr_status csri_cuda_axpby(csr_context *ctx, double alpha, const csr_vector *x,
                                      double beta, csr_vector *y) {
  int blocks = csri_vector_blocks(y->n);
  cudaStream_t stream = csri_stream(ctx);
  if (y->value_type == CSR_F64)
    axpby_kernel<double><<<blocks, CSRI_VECTOR_THREADS, 0, stream>>>(
        y->n, alpha, (const double *)x->data, beta, (double *)y->data);
  else
    axpby_kernel<float><<<blocks, CSRI_VECTOR_THREADS, 0, stream>>>(
        y->n, alpha, (const float *)x->data, beta, (float *)y->data);
  return CSRI_CUDA_CHECK(ctx, "axpby kernel");
}

extern "C" csr_status csri_cuda_scale(csr_context *ctx, double alpha, csr_vector *x) {
  if (alpha == 1.0 || x->n == 0)
    return CSR_SUCCESS;
  int blocks = csri_vector_blocks(x->n);
  cudaStream_t stream = csri_stream(ctx);
  if (x->value_type == CSR_F64)
    scale_kernel<double>
        <<<blocks, CSRI_VECTOR_THREADS, 0, stream>>>(x->n, alpha, (double *)x->data);
  else
    scale_kernel<float><<<blocks, CSRI_VECTOR_THREADS, 0, stream>>>(x->n, alpha, (float *)x->data);
  return CSRI_CUDA_CHECK(ctx, "scale kernel");
}

extern "C" csr_status csri_cuda_fill(csr_context *ctx, double alpha, csr_vector *x) {
  if (x->n == 0)
    return CSR_SUCCESS;
  int blocks = csri_vector_blocks(x->n);
  cudaStream_t stream = csri_stream(ctx);
  if (x->value_type == CSR_F64)
    fill_kernel<double><<<blocks, CSRI_VECTOR_THREADS, 0, stream>>>(x->n, alpha, (double *)x->data);
  else
    fill_kernel<float>
        <<<blocks, CSRI_VECTOR_THREADS, 0, stream>>>(x->n, (float)alpha, (float *)x->data);
  return CSRI_CUDA_CHECK(ctx, "fill kernel");
}

extern "C" csr_status csri_cuda_reduce(csr_context *ctx, csri_reduction which, const csr_vector *x,
                                       const csr_vector *y, double *result) {
  if (x->n == 0) { /* every reduction of nothing is 0 */
    *result = 0.0;
    return CSR_SUCCESS;
  }
  return x->value_type == CSR_F64 ? reduce_typed<double>(ctx, which, x, y, result)
                                  : reduce_typed<float>(ctx, which, x, y, result);
}
