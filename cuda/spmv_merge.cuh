/* The segmented (merge-path) SpMV of cuda/spmv_merge.cu, which cuda/spmv.cu runs for
 * CSR_KERNEL_SEGMENTED. */
#ifndef CSR_CUDA_SPMV_MERGE_CUH
#define CSR_CUDA_SPMV_MERGE_CUH

#include "common.cuh"

/* y = alpha*A*x + beta*y (device operands, checked; A->rows > 0), the nonzeros and row ends cut
 * evenly over the threads. Uses the context's device scratch: about 40 bytes per tile (a tile is
 * CSRI_SPMV_MERGE_THREADS x CSRI_SPMV_MERGE_ITEMS path items in f64, x _ITEMS_F32 in f32). */
csr_status csri_cuda_spmv_merge(csr_context *ctx, double alpha, const csr_matrix *A,
                                const csr_vector *x, double beta, csr_vector *y);

#endif
