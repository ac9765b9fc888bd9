/* SPDX-License-Identifier: BSD-3-Clause */
/* The context's cached workspaces, grown on demand and freed with the context (CUB's two-phase
 * temporary storage, kept for the next call): host scratch and device scratch. */
#include "core/internal.h"

csr_status csri_host_workspace(csr_context *ctx, size_t bytes, void **p) {
  *p = NULL;
  if (ctx == NULL) {
    *p = csri_malloc(bytes);
    return *p ? CSR_SUCCESS
              : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "workspace of %zu bytes", bytes);
  }
  if (ctx->host_workspace_bytes < bytes) {
    void *grown = csri_malloc(bytes);
    if (grown == NULL)
      return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "workspace of %zu bytes failed", bytes);
    csri_free(ctx->host_workspace);
    ctx->host_workspace = grown;
    ctx->host_workspace_bytes = bytes;
  }
  *p = ctx->host_workspace;
  return CSR_SUCCESS;
}

void csri_workspace_release(csr_context *ctx, void *p) {
  if (ctx == NULL)
    csri_free(p); /* fresh allocation: nothing cached it */
}

csr_status csri_device_scratch(csr_context *ctx, size_t bytes, void **p) {
  if (ctx == NULL)
    return csri_device_alloc(ctx, p, bytes);
  if (ctx->device_workspace_bytes < bytes || ctx->device_workspace == NULL) {
    if (csri_device_capturing(ctx)) /* its free and allocation would end the capture */
      return CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED,
                       "the context's device workspace must grow from %zu to %zu bytes, which "
                       "a CUDA graph capture refuses: make the same call once before capturing",
                       ctx->device_workspace_bytes, bytes);
    csri_device_free(ctx->device_workspace); /* cudaFree waits for work that may still use it */
    ctx->device_workspace = NULL;
    ctx->device_workspace_bytes = 0;
    CSRI_TRY(csri_device_alloc(ctx, &ctx->device_workspace, bytes));
    ctx->device_workspace_bytes = bytes;
  }
  *p = ctx->device_workspace;
  return CSR_SUCCESS;
}

void csri_device_scratch_done(csr_context *ctx, void *p) {
  if (ctx == NULL)
    csri_device_free(p);
}
