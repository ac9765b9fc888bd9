/* The CUDA backend when it is not built: every entry point answers CSR_ERR_NOT_COMPILED. */
#include "internal.h"

static csr_status not_compiled(csr_context *ctx) {
  return CSRI_FAIL(ctx, CSR_ERR_NOT_COMPILED,
                   "device storage needs the CUDA backend, which is not compiled into this libcsr "
                   "(configure with nvcc present and CSR_WITH_CUDA=ON)");
}

csr_status csri_cuda_malloc(csr_context *ctx, void **p, size_t bytes) {
  (void)bytes;
  *p = NULL;
  return not_compiled(ctx);
}

void csri_cuda_free(void *p) {
  (void)p; /* nothing can have been allocated */
}

csr_status csri_cuda_memset_zero(csr_context *ctx, void *p, size_t bytes) {
  (void)p;
  (void)bytes;
  return not_compiled(ctx);
}

csr_status csri_cuda_memcpy(csr_context *ctx, void *dst, const void *src, size_t bytes, int kind) {
  (void)dst;
  (void)src;
  (void)bytes;
  (void)kind;
  return not_compiled(ctx);
}

int csri_cuda_device_count(void) {
  return 0;
}
