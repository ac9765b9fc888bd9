/* SPDX-License-Identifier: BSD-3-Clause */
/* CSRI_HD marks a function that C and CUDA share: __host__ __device__ under nvcc, a static inline
 * function in C. Internal. */
#ifndef CSR_KERNELS_HOST_DEVICE_H
#define CSR_KERNELS_HOST_DEVICE_H

#if defined(__CUDACC__)
#define CSRI_HD __host__ __device__ __forceinline__
#else
#define CSRI_HD static inline
#endif

/* CSRI_UNROLL before a loop of a fixed count: unrolled in device code (its elements then stay
 * in registers), nothing to a host compiler (nvcc's host pass included), which does not know the
 * pragma. */
#if defined(__CUDA_ARCH__)
#define CSRI_UNROLL _Pragma("unroll")
#else
#define CSRI_UNROLL
#endif

#endif
