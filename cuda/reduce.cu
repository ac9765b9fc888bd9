/* SPDX-License-Identifier: BSD-3-Clause */
/* The reduction slots a context keeps for the CUDA backend (cuda/reduce.cuh): a device ticket
 * zeroed once, and pinned host memory the device writes the results into, so a reduction costs
 * one launch and one synchronisation (no memset, no copy). */
#include "reduce.cuh"

#include <pthread.h>

extern "C" csr_status csri_cuda_reduce_slots(csr_context *ctx, unsigned **ticket, double **host,
                                             double **device) {
  if (ctx->reduce_ticket == NULL) {
    void *t = NULL, *h = NULL, *d = NULL;
    cudaError_t err = cudaMalloc(&t, 256);
    if (err == cudaSuccess)
      err = cudaMemset(t, 0, 256);
    if (err == cudaSuccess)
      err = cudaHostAlloc(&h, CSRI_REDUCE_MAX_RESULTS * sizeof(double), cudaHostAllocMapped);
    if (err == cudaSuccess) /* once: the address is fixed for the allocation's life */
      err = cudaHostGetDevicePointer(&d, h, 0);
    if (err != cudaSuccess) {
      cudaFree(t);
      if (h != NULL)
        cudaFreeHost(h);
      cudaGetLastError();
      return csri_cuda_error(ctx, err, "device memory for the context's reduction slots", __FILE__,
                             __LINE__);
    }
    ctx->reduce_ticket = t;
    ctx->reduce_results = h;
    ctx->reduce_results_device = d;
  }
  *ticket = (unsigned *)ctx->reduce_ticket;
  *host = (double *)ctx->reduce_results;
  *device = (double *)ctx->reduce_results_device;
  return CSR_SUCCESS;
}

extern "C" void csri_cuda_context_release(csr_context *ctx) {
  if (ctx->reduce_ticket != NULL)
    cudaFree(ctx->reduce_ticket);
  if (ctx->reduce_results != NULL)
    cudaFreeHost(ctx->reduce_results);
  ctx->reduce_ticket = ctx->reduce_results = ctx->reduce_results_device = NULL;
}

/* A pthread mutex, not std::mutex: the static library must link into C programs without the C++
 * runtime (std::mutex pulls in libstdc++'s exception support). */
extern "C" int csri_cuda_resident_blocks(const void *kernel, int threads) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static const void *kernels[64];
  static int threads_of[64], blocks_of[64], used = 0;
  pthread_mutex_lock(&lock);
  for (int k = 0; k < used; k++)
    if (kernels[k] == kernel && threads_of[k] == threads) {
      int blocks = blocks_of[k];
      pthread_mutex_unlock(&lock);
      return blocks;
    }
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0) != cudaSuccess) {
    cudaGetLastError();
    per_sm = 1;
  }
  int blocks = (per_sm > 0 ? per_sm : 1) * csri_cuda_sm_count();
  if (used < 64) {
    kernels[used] = kernel;
    threads_of[used] = threads;
    blocks_of[used++] = blocks;
  }
  pthread_mutex_unlock(&lock);
  return blocks;
}
