/* SPDX-License-Identifier: BSD-3-Clause */
/* Counted, failure-injectable allocation of host and device arrays; overflow-checked sizes. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE, outside strict POSIX */
#include "core/backend.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Host blocks of at least this many bytes ask the kernel for transparent huge pages. */
#define HUGE_PAGE_HINT_BYTES ((size_t)4 << 20)

/* Large blocks are fresh memory whenever the allocator has handed the last ones back to the
 * kernel, as it does with blocks past its mmap threshold, and then every 4 KiB page faults on
 * first touch: reading a 12M-entry file into CSR took 50,000 faults, a quarter of its time, in a
 * process that allocates between reads (a Python session). With huge pages a fault takes 2 MiB
 * (NumPy asks the same for its arrays of 4 MiB and more). A hint: where the kernel has none to
 * give, or no such thing, nothing changes. */
static void *huge_page_hint(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
  if (p != NULL && bytes >= HUGE_PAGE_HINT_BYTES) {
    const uintptr_t page = 4096, begin = ((uintptr_t)p + page - 1) & ~(page - 1),
                    end = ((uintptr_t)p + bytes) & ~(page - 1);
    madvise((void *)begin, end - begin, MADV_HUGEPAGE); /* a refusal leaves 4 KiB pages */
  }
#endif
  return p;
}

/* Injection state. Atomic so OpenMP regions that allocate stay race-free. */
static _Atomic int64_t allocation_count = 0;
static _Atomic int64_t fail_at = 0; /* 0: never */
static _Atomic int poison = 0;      /* device arrays not zeroed come filled with 0xff bytes */

void csr_debug_fail_allocation_after(int64_t n) {
  allocation_count = 0;
  fail_at = n > 0 ? n : 0;
}

int64_t csr_debug_allocation_count(void) {
  return allocation_count;
}

void csr_debug_poison_device_allocations(int on) {
  poison = on != 0;
}

int csri_alloc_should_fail(void) {
  int64_t k = ++allocation_count;
  return fail_at > 0 && k == fail_at;
}

int csri_mul_overflows(size_t a, size_t b, size_t *out) {
  if (a != 0 && b > SIZE_MAX / a)
    return 1;
  *out = a * b;
  return 0;
}

void *csri_malloc(size_t bytes) {
  if (csri_alloc_should_fail())
    return NULL;
  /* size 0 still gives a pointer free() accepts */
  return huge_page_hint(malloc(bytes ? bytes : 1), bytes);
}

void *csri_calloc(size_t count, size_t size) {
  if (csri_alloc_should_fail())
    return NULL;
  if (count == 0 || size == 0)
    count = size = 1;
  size_t bytes = 0;
  return huge_page_hint(calloc(count, size), csri_mul_overflows(count, size, &bytes) ? 0 : bytes);
}

void *csri_realloc(void *p, size_t bytes) {
  if (csri_alloc_should_fail())
    return NULL;
  return huge_page_hint(realloc(p, bytes ? bytes : 1), bytes);
}

void csri_free(void *p) {
  free(p);
}

size_t csri_value_size(csr_value_type type) {
  switch (type) {
  case CSR_F64: return sizeof(double);
  case CSR_F32: return sizeof(float);
  default: return 0;
  }
}

csr_status csri_check_value_type(csr_context *ctx, csr_value_type type, int allow_pattern) {
  if (type == CSR_F64 || type == CSR_F32 || (allow_pattern && type == CSR_PATTERN))
    return CSR_SUCCESS;
  return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "value type %d is not %s", (int)type,
                   allow_pattern ? "CSR_F64, CSR_F32 or CSR_PATTERN" : "CSR_F64 or CSR_F32");
}

csr_status csri_check_location(csr_context *ctx, csr_location location) {
  if (location == CSR_HOST || location == CSR_DEVICE)
    return CSR_SUCCESS;
  return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "location %d is not CSR_HOST or CSR_DEVICE",
                   (int)location);
}

csr_status csri_check_shape(csr_context *ctx, int64_t rows, int64_t cols, int64_t nnz) {
  if (rows < 0 || cols < 0 || nnz < 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "negative size: rows %lld, cols %lld, nnz %lld",
                     (long long)rows, (long long)cols, (long long)nnz);
  if (rows > CSR_MAX_DIM || cols > CSR_MAX_DIM)
    return CSRI_FAIL(ctx, CSR_ERR_OVERFLOW,
                     "%lld x %lld exceeds libcsr's limit of %lld rows and columns "
                     "(32-bit column indices)",
                     (long long)rows, (long long)cols, (long long)CSR_MAX_DIM);
  return CSR_SUCCESS;
}

/* Raw device memory through the CUDA backend's table, `ordered` as csri_device_alloc_fn says. */
static csr_status device_alloc(csr_context *ctx, void **p, size_t bytes, int ordered) {
  const csri_backend *cuda = csri_backend_of(CSR_BACKEND_CUDA);
  *p = NULL;
  return cuda ? cuda->device.alloc(ctx, p, bytes, ordered) : csri_not_compiled(ctx);
}

csr_status csri_array_alloc(csr_context *ctx, void **p, int64_t count, size_t elem_size,
                            csr_location location, int flags) {
  *p = NULL;
  size_t bytes;
  if (count < 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "negative element count %lld", (long long)count);
  if ((uint64_t)count > SIZE_MAX || csri_mul_overflows((size_t)count, elem_size, &bytes))
    return CSRI_FAIL(ctx, CSR_ERR_OVERFLOW, "%lld elements of %zu bytes overflow size_t",
                     (long long)count, elem_size);
  if (location == CSR_DEVICE) {
    if (bytes == 0)
      return CSR_SUCCESS;
    if (csri_alloc_should_fail())
      return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY,
                       "device allocation of %zu bytes failed "
                       "(injected)",
                       bytes);
    CSRI_TRY(device_alloc(ctx, p, bytes, (flags & CSRI_ARRAY_ORDERED) != 0));
    const int zero = (flags & CSRI_ARRAY_ZERO) != 0;
    if (!zero && !poison)
      return CSR_SUCCESS;
    csr_status s = csri_backend_of(CSR_BACKEND_CUDA)->device.fill(ctx, *p, zero ? 0 : 0xff, bytes);
    if (s < 0) {
      csri_device_free(*p);
      *p = NULL;
    }
    return s;
  }
  if (!csri_host_bytes_fit(ctx, bytes)) {
    char what[64];
    snprintf(what, sizeof what, "(%lld elements of %zu bytes)", (long long)count, elem_size);
    return csri_check_host_bytes(ctx, bytes, what);
  }
  *p = (flags & CSRI_ARRAY_ZERO) ? csri_calloc(bytes, 1) : csri_malloc(bytes);
  if (*p == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "host allocation of %zu bytes failed", bytes);
  return CSR_SUCCESS;
}

void csri_array_free(void *p, csr_location location) {
  if (location == CSR_DEVICE)
    csri_device_free(p);
  else
    csri_free(p);
}

csr_status csri_array_copy(csr_context *ctx, void *dst, csr_location dst_location, const void *src,
                           csr_location src_location, size_t bytes) {
  if (bytes == 0)
    return CSR_SUCCESS;
  if (dst_location == CSR_HOST && src_location == CSR_HOST) {
    memcpy(dst, src, bytes);
    return CSR_SUCCESS;
  }
  const csri_backend *cuda = csri_backend_of(CSR_BACKEND_CUDA);
  if (cuda == NULL)
    return csri_not_compiled(ctx);
  int kind = dst_location == CSR_DEVICE ? (src_location == CSR_HOST ? 0 : 2) : 1;
  return cuda->device.copy(ctx, dst, src, bytes, kind);
}

csr_status csri_device_alloc(csr_context *ctx, void **p, size_t bytes) {
  return device_alloc(ctx, p, bytes, 0);
}

void csri_device_free(void *p) {
  const csri_backend *cuda = csri_backend_of(CSR_BACKEND_CUDA);
  if (cuda && p) /* without the backend nothing can have been allocated */
    cuda->device.free(p);
}

int csri_device_capturing(const csr_context *ctx) {
  const csri_backend *cuda = csri_backend_of(CSR_BACKEND_CUDA);
  return cuda ? cuda->device.capturing(ctx) : 0;
}

int csri_device_count(void) {
  const csri_backend *cuda = csri_backend_of(CSR_BACKEND_CUDA);
  return cuda ? cuda->device.count() : 0;
}
