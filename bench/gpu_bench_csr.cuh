/* SPDX-License-Identifier: BSD-3-Clause */
/* What the GPU SpMV benchmarks share (gpu_bench_spmv_cg.cu, gpu_bench_reorder.cu): a host matrix
 * of bench/spmv_cases.h on the device as libcsr's, its offsets in 32 bits for cuSPARSE, and
 * cuSPARSE's CSR SpMV with both of its algorithms made ready. Include after csr.h, cusparse.h,
 * gpu_bench_common.cuh and spmv_cases.h. */
#ifndef CSR_BENCH_GPU_BENCH_CSR_CUH
#define CSR_BENCH_GPU_BENCH_CSR_CUH

#include <vector>

/* The host values as T (fp64 as they are, fp32 rounded) into device memory. */
template <typename T> static void bench_upload_values(void *to, const std::vector<double> &from) {
  if constexpr (sizeof(T) == sizeof(double)) {
    CHECK_CUDA(cudaMemcpy(to, from.data(), from.size() * sizeof(T), cudaMemcpyHostToDevice));
  } else {
    std::vector<T> rounded(from.begin(), from.end());
    CHECK_CUDA(cudaMemcpy(to, rounded.data(), rounded.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
}

/* H as a device matrix of libcsr's with values of type T, flagged SORTED (the cases' rows are). */
template <typename T> static csr_matrix *bench_upload_csr(csr_context *ctx, const host_csr &H) {
  const csr_value_type type = sizeof(T) == 8 ? CSR_F64 : CSR_F32;
  const int64_t nnz = (int64_t)H.col.size();
  csr_matrix *A = NULL;
  CSR_OK(ctx, csr_matrix_create(ctx, &A, H.rows, H.cols, nnz, type, CSR_DEVICE));
  CHECK_CUDA(cudaMemcpy(A->row_offsets, H.off.data(), (H.rows + 1) * sizeof(int64_t),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(A->col_indices, H.col.data(), nnz * sizeof(int32_t), cudaMemcpyHostToDevice));
  bench_upload_values<T>(A->values, H.val);
  A->flags = CSR_FLAG_SORTED;
  return A;
}

/* A device copy of the device matrix A's offsets in 32 bits (cuSPARSE's index type here); the
 * caller frees it with cudaFree. Exits when A has 2^31 entries or more. */
static int32_t *bench_offsets32(const csr_matrix *A) {
  if (A->nnz > INT32_MAX) {
    fprintf(stderr, "%lld nonzeros: past cuSPARSE's 32-bit offsets\n", (long long)A->nnz);
    exit(1);
  }
  std::vector<int64_t> off(A->rows + 1);
  CHECK_CUDA(
      cudaMemcpy(off.data(), A->row_offsets, off.size() * sizeof(int64_t), cudaMemcpyDeviceToHost));
  std::vector<int32_t> off32(off.begin(), off.end());
  int32_t *d = NULL;
  CHECK_CUDA(cudaMalloc(&d, off32.size() * sizeof(int32_t)));
  CHECK_CUDA(cudaMemcpy(d, off32.data(), off32.size() * sizeof(int32_t), cudaMemcpyHostToDevice));
  return d;
}

/* y = A x by cuSPARSE's CSR SpMV on libcsr's device matrix A (values of T) with 32-bit offsets
 * off32 (bench_offsets32): the buffers of CSR ALG1 and ALG2 taken and preprocessed once, so that
 * run(a) times the product alone. */
template <typename T> struct bench_cusparse_spmv {
  cusparseHandle_t handle;
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t vx, vy;
  void *buffer[2] = {NULL, NULL};
  T one = 1, zero = 0;
  static constexpr cudaDataType type = sizeof(T) == 8 ? CUDA_R_64F : CUDA_R_32F;

  bench_cusparse_spmv(cusparseHandle_t h, const csr_matrix *A, const int32_t *off32, const void *x,
                      void *y)
      : handle(h) {
    CHECK_SPARSE(cusparseCreateCsr(&mat, A->rows, A->cols, A->nnz, (void *)off32, A->col_indices,
                                   A->values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, type));
    CHECK_SPARSE(cusparseCreateDnVec(&vx, A->cols, (void *)x, type));
    CHECK_SPARSE(cusparseCreateDnVec(&vy, A->rows, y, type));
    for (int a = 0; a < 2; a++) {
      size_t bytes = 0;
      CHECK_SPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx,
                                           &zero, vy, type, alg(a), &bytes));
      CHECK_CUDA(cudaMalloc(&buffer[a], bytes + 8));
      CHECK_SPARSE(cusparseSpMV_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx,
                                           &zero, vy, type, alg(a), buffer[a]));
    }
  }
  bench_cusparse_spmv(const bench_cusparse_spmv &) = delete;
  bench_cusparse_spmv &operator=(const bench_cusparse_spmv &) = delete;
  ~bench_cusparse_spmv() {
    cusparseDestroySpMat(mat);
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
    cudaFree(buffer[0]);
    cudaFree(buffer[1]);
  }
  static cusparseSpMVAlg_t alg(int a) {
    return a == 0 ? CUSPARSE_SPMV_CSR_ALG1 : CUSPARSE_SPMV_CSR_ALG2;
  }
  /* y = A x with algorithm a (0: ALG1, 1: ALG2). */
  void run(int a) {
    CHECK_SPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy,
                              type, alg(a), buffer[a]));
  }
};

#endif /* CSR_BENCH_GPU_BENCH_CSR_CUH */
