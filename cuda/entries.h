/* SPDX-License-Identifier: BSD-3-Clause */
/* The CUDA backend's entries, for its sources (C++) and its table (cuda/table.c, C): the
 * operations of src/core/backend.h and the device memory behind its device area. Internal. */
#ifndef CSR_CUDA_ENTRIES_H
#define CSR_CUDA_ENTRIES_H

#include "core/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

CSRI_DECLARE_BACKEND(cuda);
/* Device memory (cuda/memory.cu, the widening in cuda/widen.cu) and what a context keeps for the
 * backend (cuda/reduce.cu). */
csri_device_alloc_fn csri_cuda_malloc;
csri_device_free_fn csri_cuda_free;
csri_device_fill_fn csri_cuda_memset;
csri_device_copy_fn csri_cuda_memcpy;
csri_device_widen_fn csri_cuda_widen;
csri_device_count_fn csri_cuda_device_count;
csri_device_capturing_fn csri_cuda_capturing;
csri_context_release_fn csri_cuda_context_release;

#ifdef __cplusplus
}
#endif
#endif /* CSR_CUDA_ENTRIES_H */
