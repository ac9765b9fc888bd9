/* SPDX-License-Identifier: BSD-3-Clause */
/* The context: backend choice, threads, stream, kernel override, debug flag, last error. */
#include "core/backend.h"
#include "kernels/spmv_registry.h"

#ifdef _OPENMP
#include <omp.h>
#endif

csr_status csr_context_create(csr_context **ctx) {
  if (ctx == NULL)
    return CSR_ERR_NULL_POINTER;
  *ctx = csri_calloc(1, sizeof **ctx);
  if (*ctx == NULL)
    return CSR_ERR_OUT_OF_MEMORY;
  (*ctx)->backend = CSR_BACKEND_AUTO;
  (*ctx)->last_backend = CSR_BACKEND_AUTO;
  (*ctx)->kernel = CSR_KERNEL_AUTO;
  return CSR_SUCCESS;
}

void csr_context_free(csr_context **ctx) {
  if (ctx == NULL || *ctx == NULL)
    return;
  csri_spmv_cache_forget(*ctx, NULL); /* and what it kept on the device */
  csri_free((*ctx)->host_workspace);
  csri_device_free((*ctx)->device_workspace);
  const csri_backend *cuda = csri_backend_of(CSR_BACKEND_CUDA);
  if (cuda)
    cuda->device.context_release(*ctx);
  csri_free(*ctx);
  *ctx = NULL;
}

int csr_backend_available(csr_backend backend) {
  return backend == CSR_BACKEND_AUTO || csri_backend_of(backend) != NULL;
}

int csr_cuda_device_present(void) {
  return csri_device_count() > 0;
}

const char *csr_backend_name(csr_backend backend) {
  switch (backend) {
  case CSR_BACKEND_AUTO: return "auto";
  case CSR_BACKEND_REF: return "ref";
  case CSR_BACKEND_OMP: return "omp";
  case CSR_BACKEND_CUDA: return "cuda";
  }
  return "unknown";
}

csr_status csr_context_set_backend(csr_context *ctx, csr_backend backend) {
  CSRI_CHECK_NULL(ctx, ctx);
  if (backend < CSR_BACKEND_AUTO || backend > CSR_BACKEND_CUDA)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "unknown backend %d", (int)backend);
  if (!csr_backend_available(backend))
    return CSRI_FAIL(ctx, CSR_ERR_NOT_COMPILED, "backend '%s' is not compiled into this libcsr",
                     csr_backend_name(backend));
  ctx->backend = backend;
  return CSR_SUCCESS;
}

csr_backend csr_context_backend(const csr_context *ctx) {
  return ctx ? ctx->backend : CSR_BACKEND_AUTO;
}

csr_backend csr_context_last_backend(const csr_context *ctx) {
  return ctx ? ctx->last_backend : CSR_BACKEND_AUTO;
}

csr_status csr_context_set_threads(csr_context *ctx, int threads) {
  CSRI_CHECK_NULL(ctx, ctx);
  if (threads < 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "thread count %d is negative", threads);
  ctx->threads = threads;
  return CSR_SUCCESS;
}

int csr_context_threads(const csr_context *ctx) {
  return ctx ? ctx->threads : 0;
}

csr_status csr_context_set_stream(csr_context *ctx, void *stream) {
  CSRI_CHECK_NULL(ctx, ctx);
  ctx->stream = stream;
  return CSR_SUCCESS;
}

void *csr_context_stream(const csr_context *ctx) {
  return ctx ? ctx->stream : NULL;
}

csr_status csr_context_set_kernel(csr_context *ctx, csr_spmv_kernel kernel) {
  CSRI_CHECK_NULL(ctx, ctx);
  if (kernel != CSR_KERNEL_AUTO && csri_spmv_kernel_of(kernel) == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "unknown SpMV kernel %d", (int)kernel);
  ctx->kernel = kernel;
  return CSR_SUCCESS;
}

csr_spmv_kernel csr_context_kernel(const csr_context *ctx) {
  return ctx ? ctx->kernel : CSR_KERNEL_AUTO;
}

csr_status csr_context_set_debug_sync(csr_context *ctx, int on) {
  CSRI_CHECK_NULL(ctx, ctx);
  ctx->debug_sync = on != 0;
  return CSR_SUCCESS;
}

int csr_context_debug_sync(const csr_context *ctx) {
  return ctx ? ctx->debug_sync : 0;
}

csr_status csr_context_last_status(const csr_context *ctx) {
  return ctx ? ctx->last_status : CSR_SUCCESS;
}

const char *csr_context_last_error(const csr_context *ctx) {
  return ctx ? ctx->last_error : "";
}

const char *csr_context_last_message(const csr_context *ctx) {
  return csri_last_message(ctx);
}

void csr_context_clear_error(csr_context *ctx) {
  if (ctx == NULL)
    return;
  ctx->last_status = CSR_SUCCESS;
  ctx->last_error[0] = '\0';
  ctx->last_message_at = 0;
}

csr_backend csri_host_backend(const csr_context *ctx) {
  csr_backend asked = ctx ? ctx->backend : CSR_BACKEND_AUTO;
  if (asked == CSR_BACKEND_REF || !CSR_HAVE_OPENMP)
    return CSR_BACKEND_REF;
  return CSR_BACKEND_OMP;
}

void csri_set_last_backend(csr_context *ctx, csr_backend backend) {
  if (ctx)
    ctx->last_backend = backend;
}

int csri_omp_threads(const csr_context *ctx) {
  if (ctx && ctx->threads > 0)
    return ctx->threads;
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

int csri_host_threads(const csr_context *ctx) {
  return csri_host_backend(ctx) == CSR_BACKEND_OMP ? csri_omp_threads(ctx) : 1;
}
