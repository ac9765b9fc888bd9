/* CSRI_HD marks a function that C and CUDA share: __host__ __device__ under nvcc, a static inline
 * function in C. Internal. */
#ifndef CSR_KERNELS_HOST_DEVICE_H
#define CSR_KERNELS_HOST_DEVICE_H

#if defined(__CUDACC__)
#define CSRI_HD __host__ __device__ __forceinline__
#else
#define CSRI_HD static inline
#endif

#endif
