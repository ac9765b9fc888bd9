/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared front-end pieces of the primitives: array checks, the two-phase
 * workspace protocol (include/csr_primitives.h). */
#include "ops/ops.h"

csr_status csri_check_array(csr_context *ctx, const void *p, int64_t n, const char *what) {
  if (n < 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "negative length %lld", (long long)n);
  if (n > 0 && p == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "argument '%s' is NULL with n = %lld", what,
                     (long long)n);
  return CSR_SUCCESS;
}

csr_status csri_primitive_workspace(csr_context *ctx, csr_location location, size_t need,
                                    void *workspace, size_t *workspace_bytes, int *run,
                                    void **use) {
  *run = 0;
  *use = NULL;
  if (workspace_bytes != NULL && workspace == NULL) { /* the size query */
    *workspace_bytes = need;
    return CSR_SUCCESS;
  }
  if (workspace_bytes != NULL) {
    if (*workspace_bytes < need)
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                       "workspace of %zu bytes is too small: this call needs %zu", *workspace_bytes,
                       need);
    *use = workspace;
  } else if (need > 0) {
    if (location == CSR_DEVICE)
      CSRI_TRY(csri_device_scratch(ctx, need, use));
    else
      CSRI_TRY(csri_host_workspace(ctx, need, use));
  }
  *run = 1;
  return CSR_SUCCESS;
}

void csri_primitive_workspace_done(csr_context *ctx, csr_location location, void *use,
                                   void *workspace, size_t *workspace_bytes) {
  if (ctx != NULL || workspace_bytes != NULL || use == NULL || use == workspace)
    return; /* the caller's buffer, or the context's cache */
  if (location == CSR_DEVICE)
    csri_device_free(use);
  else
    csri_workspace_release(ctx, use);
}
