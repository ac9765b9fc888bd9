/* SPDX-License-Identifier: BSD-3-Clause */
/* Device memory for the CUDA backend: allocate, fill (with zeros, or a test's poison), free, copy
 * between host and device.
 *
 * Allocations come from a memory pool of libcsr's own on each device (cudaMemPoolCreate), which
 * keeps what is freed for the next allocation instead of handing it back to the driver: building
 * a matrix takes and returns gigabytes of temporaries, and cudaMalloc and cudaFree of that much
 * cost more than the kernels that use it. The pool keeps at most a quarter of the device's memory
 * between calls (the rest goes back at the next synchronisation), and gives back everything it
 * keeps when an allocation fails, before trying once more. A free waits for the device, as
 * cudaFree does, so memory is never reused while a kernel on any stream may still read it.
 * The arrays of a matrix that a converter makes are taken in the order of the context's stream
 * instead (`ordered`): only the converter's work on that stream fills them, so the call waits
 * for the device once (when it reads back what its kernels found) instead of at each. The same
 * for the converters' gigabytes of temporaries, freed in the stream's order too, was slower:
 * H100, 2026-11-27, 2^26 shuffled triples 6.57 ms against 6.30. */
#include "common.cuh"

namespace {

const int MOST_DEVICES = 64;
cudaMemPool_t pools[MOST_DEVICES];
int pool_state[MOST_DEVICES]; /* 0: not made, 1: being made, 2: made (pools[d] may be NULL) */

/* A pool for `device` that keeps at most a quarter of its memory; NULL when it cannot be made. */
cudaMemPool_t make_pool(int device) {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool = NULL;
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemPoolCreate(&pool, &props) != cudaSuccess ||
      cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    cudaGetLastError();
    return NULL;
  }
  uint64_t keep = total_bytes / 4;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  return pool;
}

/* The pool of the current device, made once by the first caller (atomics rather than
 * std::call_once: libcsr links into C programs without the C++ runtime). */
cudaMemPool_t device_pool(void) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= MOST_DEVICES) {
    cudaGetLastError();
    return NULL;
  }
  int *state = &pool_state[device], expected = 0;
  if (__atomic_load_n(state, __ATOMIC_ACQUIRE) != 2) {
    if (__atomic_compare_exchange_n(state, &expected, 1, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
      pools[device] = make_pool(device);
      __atomic_store_n(state, 2, __ATOMIC_RELEASE);
    } else {
      while (__atomic_load_n(state, __ATOMIC_ACQUIRE) != 2) { /* another thread makes it */
      }
    }
  }
  return pools[device];
}

/* From the pool, ready for any stream when it returns or, `ordered`, for work on `stream` that
 * follows; cudaMalloc where there is no pool. */
cudaError_t allocate(void **p, size_t bytes, cudaStream_t stream, int ordered) {
  cudaMemPool_t pool = device_pool();
  if (pool == NULL)
    return cudaMalloc(p, bytes);
  cudaError_t err = cudaMallocFromPoolAsync(p, bytes, pool, stream);
  if (err == cudaSuccess && !ordered)
    err = cudaStreamSynchronize(stream);
  return err;
}

} // namespace

extern "C" csr_status csri_cuda_malloc(csr_context *ctx, void **p, size_t bytes, int ordered) {
  *p = NULL;
  if (csri_cuda_device_count() == 0)
    return csri_error(ctx, CSR_ERR_DEVICE, __FILE__, __LINE__,
                      "device allocation of %zu bytes: no CUDA device is present", bytes);
  cudaStream_t stream = csri_stream(ctx);
  cudaError_t err = allocate(p, bytes, stream, ordered);
  if (err == cudaErrorMemoryAllocation) { /* what the pool keeps may be what is missing */
    cudaGetLastError();
    cudaMemPool_t pool = device_pool();
    if (pool != NULL && cudaDeviceSynchronize() == cudaSuccess &&
        cudaMemPoolTrimTo(pool, 0) == cudaSuccess)
      err = allocate(p, bytes, stream, ordered);
  }
  if (err == cudaErrorMemoryAllocation) { /* what was asked, and what the device has */
    cudaGetLastError();
    *p = NULL;
    size_t free_bytes = 0, total_bytes = 0;
    const double gib = 1024.0 * 1024.0 * 1024.0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
      /* The free size can fail to come when the device is full: its total still tells. */
      cudaGetLastError();
      int device = 0;
      cudaDeviceProp prop;
      if (cudaGetDevice(&device) != cudaSuccess ||
          cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        cudaGetLastError();
        return csri_error(ctx, CSR_ERR_OUT_OF_MEMORY, __FILE__, __LINE__,
                          "device allocation of %.2f GiB failed (cudaErrorMemoryAllocation)",
                          (double)bytes / gib);
      }
      return csri_error(ctx, CSR_ERR_OUT_OF_MEMORY, __FILE__, __LINE__,
                        "device allocation of %.2f GiB failed: the device has %.2f GiB in all, "
                        "too little of it free",
                        (double)bytes / gib, (double)prop.totalGlobalMem / gib);
    }
    return csri_error(ctx, CSR_ERR_OUT_OF_MEMORY, __FILE__, __LINE__,
                      "device allocation of %.2f GiB failed: the device has %.2f GiB free of "
                      "%.2f GiB",
                      (double)bytes / gib, (double)free_bytes / gib, (double)total_bytes / gib);
  }
  if (err != cudaSuccess) {
    cudaGetLastError(); /* clear the sticky-free error state for later calls */
    *p = NULL;
    return csri_cuda_error(ctx, err, "device allocation", __FILE__, __LINE__);
  }
  return CSR_SUCCESS;
}

extern "C" void csri_cuda_free(void *p) {
  if (p == NULL)
    return;
  /* Whatever stream last used p has finished with it (cudaFree's guarantee), so the pool may hand
   * it to the next allocation on any stream. */
  const bool pooled = device_pool() != NULL;
  cudaError_t err = pooled ? cudaDeviceSynchronize() : cudaFree(p);
  if (err == cudaSuccess && pooled)
    err = cudaFreeAsync(p, 0);
  if (err != cudaSuccess)
    cudaGetLastError();
}

extern "C" csr_status csri_cuda_memset(csr_context *ctx, void *p, int byte, size_t bytes) {
  cudaStream_t stream = csri_stream(ctx);
  cudaError_t err = cudaMemsetAsync(p, byte, bytes, stream);
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

extern "C" int csri_cuda_capturing(const csr_context *ctx) {
  return csri_stream_capturing(ctx) ? 1 : 0;
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
