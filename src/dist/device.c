/* SPDX-License-Identifier: BSD-3-Clause */
/* What GPU ranks need of the CUDA runtime: the choice of a device by node-local rank, page-locked
 * host buffers for the halo's trip through the host, and whether the MPI library takes device
 * pointers itself (MPIX_Query_cuda_support, an Open MPI extension). */
#include "dist/dist.h"

#include <stdlib.h>

#if CSR_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

csr_status csr_dist_select_device(csr_context *ctx, MPI_Comm comm, int *device) {
  MPI_Comm node = MPI_COMM_NULL;
  int local = 0;
  CSRI_MPI(ctx, MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  csr_status status = CSR_SUCCESS;
#if CSR_HAVE_CUDA
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    status = CSRI_FAIL(ctx, CSR_ERR_DEVICE, "no CUDA device on this rank's node");
  } else if (cudaSetDevice(local % count) != cudaSuccess) {
    status = CSRI_FAIL(ctx, CSR_ERR_DEVICE, "cudaSetDevice(%d) failed", local % count);
  } else if (device != NULL) {
    *device = local % count;
  }
#else
  (void)local;
  (void)device;
  status = CSRI_FAIL(ctx, CSR_ERR_NOT_COMPILED, "GPU ranks need the CUDA backend");
#endif
  return csri_dist_agree(ctx, comm, status);
}

void *csri_dist_pinned_alloc(size_t bytes) {
#if CSR_HAVE_CUDA
  void *p = NULL;
  if (cudaMallocHost(&p, bytes > 0 ? bytes : 1) == cudaSuccess)
    return p;
  cudaGetLastError();
  return NULL;
#else
  return csri_malloc(bytes > 0 ? bytes : 1);
#endif
}

void csri_dist_pinned_free(void *p) {
#if CSR_HAVE_CUDA
  if (p != NULL)
    cudaFreeHost(p);
#else
  csri_free(p);
#endif
}

int csri_dist_cuda_aware(void) {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  if (getenv("CSR_MPI_HOST_STAGING") != NULL) /* to measure the two paths against each other */
    return 0;
  return MPIX_Query_cuda_support();
#else
  return 0;
#endif
}

csr_status csri_dist_device_sync(csr_context *ctx) {
#if CSR_HAVE_CUDA
  cudaError_t err = cudaStreamSynchronize((cudaStream_t)csr_context_stream(ctx));
  if (err != cudaSuccess)
    return CSRI_FAIL(ctx, CSR_ERR_DEVICE, "cudaStreamSynchronize: %s", cudaGetErrorString(err));
#else
  (void)ctx;
#endif
  return CSR_SUCCESS;
}
