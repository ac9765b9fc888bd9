/* Device memory for the CUDA backend: allocate, zero, free, copy between host and device. */
#include "common.cuh"

extern "C" csr_status csri_cuda_malloc(csr_context *ctx, void **p, size_t bytes) {
  *p = NULL;
  if (csri_cuda_device_count() == 0)
    return csri_error(ctx, CSR_ERR_DEVICE, __FILE__, __LINE__,
                      "device allocation of %zu bytes: no CUDA device is present", bytes);
  cudaError_t err = cudaMalloc(p, bytes);
  if (err != cudaSuccess) {
    cudaGetLastError(); /* clear the sticky-free error state for later calls */
    *p = NULL;
    return csri_cuda_error(ctx, err, "cudaMalloc", __FILE__, __LINE__);
  }
  return CSR_SUCCESS;
}

extern "C" void csri_cuda_free(void *p) {
  if (p != NULL)
    cudaFree(p);
}

extern "C" csr_status csri_cuda_memset_zero(csr_context *ctx, void *p, size_t bytes) {
  cudaStream_t stream = csri_stream(ctx);
  cudaError_t err = cudaMemsetAsync(p, 0, bytes, stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(stream);
  return err == cudaSuccess ? CSR_SUCCESS
                            : csri_cuda_error(ctx, err, "cudaMemsetAsync", __FILE__, __LINE__);
}

extern "C" csr_status csri_cuda_memcpy(csr_context *ctx, void *dst, const void *src, size_t bytes,
                                       int kind) {
  static const cudaMemcpyKind kinds[3] = {cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
                                          cudaMemcpyDeviceToDevice};
  if (kind < 0 || kind > 2)
    return csri_error(ctx, CSR_ERR_INVALID_VALUE, __FILE__, __LINE__, "copy kind %d", kind);
  cudaStream_t stream = csri_stream(ctx);
  /* Pageable host memory: the copy is synchronous with respect to the host either way; the
   * explicit synchronise makes the data safe to use when this returns. */
  cudaError_t err = cudaMemcpyAsync(dst, src, bytes, kinds[kind], stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(stream);
  return err == cudaSuccess ? CSR_SUCCESS
                            : csri_cuda_error(ctx, err, "cudaMemcpyAsync", __FILE__, __LINE__);
}

extern "C" int csri_cuda_device_count(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

extern "C" int csri_cuda_sm_count(void) {
  static int count = 0;
  if (count == 0) {
    int device = 0, sms = 0;
    if (cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess)
      count = sms;
    else
      cudaGetLastError();
  }
  return count > 0 ? count : CSRI_SM_COUNT_FALLBACK;
}
