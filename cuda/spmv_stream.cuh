/* The stream (row-tile) SpMV of cuda/spmv_stream.cu, which cuda/spmv.cu runs for
 * CSR_KERNEL_STREAM. */
#ifndef CSR_CUDA_SPMV_STREAM_CUH
#define CSR_CUDA_SPMV_STREAM_CUH

#include "common.cuh"

/* y = alpha*A*x + beta*y (device operands, checked; A->rows > 0), whole rows packed into tiles
 * staged in shared memory. Uses the context's device scratch: 16 bytes per tile (a tile is a
 * window of CSRI_SPMV_STREAM_THREADS x CSRI_SPMV_STREAM_ITEMS - CSRI_SPMV_STREAM_LONGEST path
 * items in f64, _ITEMS_F32 in f32). */
csr_status csri_cuda_spmv_stream(csr_context *ctx, double alpha, const csr_matrix *A,
                                 const csr_vector *x, double beta, csr_vector *y);

#endif
